/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/table: what every maintenance operation needs before it starts —
 * the table's current metadata through the catalog, a FileIO, a snapshot's
 * manifest-list entries (spec "Manifest Lists"; v1 snapshots may list
 * manifests inline in `manifests`), one manifest opened for streaming, and
 * snapshot selection by id, ref or time (spec "Snapshot References"; time
 * travel resolves through the snapshot-log, not snapshot timestamps).
 */
#include "maint.h"
#include "util/time.h"

#include <string.h>

int floe__maint_read_metadata(floe_fileio *io, const char *location, floe_table_metadata **out)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__io_read_all(io, location, FLOE_MAINT_MAX_OBJECT, &b);
    if (rc == 0)
        rc = floe__metadata_parse(out, b.ptr, b.len, location);
    floe__buf_free(&b);
    return rc;
}

int floe__maint_table_load(floe_maint_table *t, floe_catalog *cat, const char *ident,
                           floe_fileio *io, const floe_props *io_conf)
{
    memset(t, 0, sizeof *t);
    if (!cat || !ident)
        return floe__error(FLOE_EINVALID, "maint", "a catalog and a table identifier are required");
    FLOE_TRY(floe_catalog_load_table(&t->metadata_location, NULL, cat, ident));
    int rc = 0;
    if (io) {
        t->io = io;
    } else {
        rc = floe_fileio_open(&t->io, t->metadata_location, io_conf);
        t->own_io = rc == 0;
    }
    if (rc == 0)
        rc = floe__maint_read_metadata(t->io, t->metadata_location, &t->metadata);
    if (rc < 0) {
        floe__maint_table_free(t);
        return floe__error_context("loading table %s", ident);
    }
    return 0;
}

void floe__maint_table_free(floe_maint_table *t)
{
    if (!t)
        return;
    floe__metadata_free(t->metadata);
    if (t->own_io)
        floe_fileio_free(t->io);
    floe_string_free(t->metadata_location);
    memset(t, 0, sizeof *t);
}

int floe__maint_list_path(const floe_snapshot *s, floe_arena *a, const char **out)
{
    *out = NULL;
    if (!s->manifest_list_packed)
        return 0;
    floe_buf b = FLOE_BUF_INIT;
    const char *p;
    int rc = floe__snapshot_manifest_list(s, &b, &p);
    if (rc == 0 && p && !(*out = floe__arena_strdup(a, p)))
        rc = FLOE_ENOMEM;
    floe__buf_free(&b);
    return rc;
}

int floe__maint_snapshot_manifests(floe_fileio *io, const floe_snapshot *s, floe_buf *bytes,
                                   floe_manifest_list **list, floe_arena *arena,
                                   const floe_manifest_file **entries, size_t *n)
{
    *list = NULL;
    *entries = NULL;
    *n = 0;
    if (s->manifest_list_packed) {
        floe_buf pb = FLOE_BUF_INIT;
        const char *path;
        int rc = floe__snapshot_manifest_list(s, &pb, &path);
        floe__buf_clear(bytes);
        if (rc == 0)
            rc = floe__io_read_all(io, path, FLOE_MAINT_MAX_OBJECT, bytes);
        if (rc == 0)
            rc = floe_manifest_list_read(list, (const uint8_t *)bytes->ptr, bytes->len, path);
        floe__buf_free(&pb);
        if (rc != 0) /* each call above returns 0 or negative */
            return rc;
        *entries = (*list)->entries;
        *n = (*list)->nentries;
        return 0;
    }
    if (s->n_manifests == 0)
        return 0;
    /* v1 inline manifests: only the path is known; lengths come from stat
     * when needed. Content is data (v1 has no delete manifests). */
    floe_manifest_file *mf = floe__arena_calloc(arena, s->n_manifests, sizeof *mf);
    if (!mf)
        return FLOE_ENOMEM;
    for (size_t i = 0; i < s->n_manifests; i++) {
        mf[i].manifest_path = s->manifests[i];
        mf[i].manifest_length = -1;
        mf[i].content = FLOE_MANIFEST_DATA;
        mf[i].added_snapshot_id = s->snapshot_id;
        mf[i].added_files_count = mf[i].existing_files_count = mf[i].deleted_files_count = -1;
        mf[i].added_rows_count = mf[i].existing_rows_count = mf[i].deleted_rows_count = -1;
    }
    *entries = mf;
    *n = s->n_manifests;
    return 0;
}

int floe__maint_open_manifest(floe_fileio *io, const floe_manifest_file *mf, floe_buf *bytes,
                              floe_manifest_reader **out)
{
    floe__buf_clear(bytes);
    FLOE_TRY(floe__io_read_all(io, mf->manifest_path, FLOE_MAINT_MAX_OBJECT, bytes));
    floe_manifest_read_options ro = {mf->manifest_length >= 0 ? mf : NULL, false};
    return floe_manifest_reader_open(out, (const uint8_t *)bytes->ptr, bytes->len,
                                     mf->manifest_path, &ro);
}

int floe__maint_select(const floe_table_metadata *m, bool has_id, int64_t id, const char *ref,
                       bool has_ts, int64_t ts, const floe_snapshot **out)
{
    *out = NULL;
    if ((has_id ? 1 : 0) + (ref ? 1 : 0) + (has_ts ? 1 : 0) > 1)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot specify more than one of snapshot id, ref and timestamp");
    floe_snapshot_selector sel = {FLOE_SNAP_CURRENT, id, ref, ts};
    sel.kind = has_id   ? FLOE_SNAP_ID
               : ref    ? FLOE_SNAP_REF
               : has_ts ? FLOE_SNAP_AS_OF
                        : FLOE_SNAP_CURRENT;
    FLOE_TRY(floe__snapshot_select(out, m, &sel, "maint"));
    if (!*out)
        return floe__error(FLOE_ENOTFOUND, "maint", "table has no current snapshot");
    return 0;
}

const char *floe_maint_file_kind_name(floe_maint_file_kind kind)
{
    switch (kind) {
    case FLOE_MAINT_DATA_FILE: return "data_file";
    case FLOE_MAINT_POSITION_DELETE_FILE: return "position_delete_file";
    case FLOE_MAINT_EQUALITY_DELETE_FILE: return "equality_delete_file";
    case FLOE_MAINT_MANIFEST: return "manifest";
    case FLOE_MAINT_MANIFEST_LIST: return "manifest_list";
    case FLOE_MAINT_STATISTICS_FILE: return "statistics_file";
    case FLOE_MAINT_METADATA_FILE: return "metadata";
    default: return "other";
    }
}
