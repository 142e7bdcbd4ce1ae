/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/inventory: every object one pinned snapshot needs (seed 001), for
 * backups and audits. The traversal starts at the selected snapshot's
 * manifest list and nowhere else — never a directory listing, never the
 * parent's files patched by a summary. Every manifest the list names is
 * read, data and delete manifests alike, even one with no live entries
 * (the list names it, so a copy of the list needs it). ADDED and EXISTING
 * entries are live (an ADDED entry in a reused manifest stays ADDED);
 * DELETED entries are not, and say nothing about the object on storage
 * (spec "Manifest Entry Fields", "Scan Planning"). No statistics pruning.
 *
 * The copy (--copy-to) stands on its own: it is rewrite_table_path
 * (rewrite_path.c) of a metadata version holding only the pinned snapshot
 * (as `main`, with an empty metadata-log), from the table location to the
 * target. Its metadata, manifest list, manifests and position delete files
 * name the copy's paths, so the backup is read — after the original is
 * gone — with nothing but its metadata location (written to
 * <target>/floe-backup.properties); data, equality delete and statistics
 * files are copied byte for byte.
 */
#include "maint.h"
#include "util/progress.h"

#include <string.h>

typedef struct inv {
    floe_fileio *io;
    floe_fileio *dst;     /* local FileIO of the copy target, or NULL */
    const char *location; /* table location */
    const char *copy_to;
    int (*cb)(const floe_maint_inventory_row *row, void *payload);
    void *payload;
    floe_buf bytes;
    floe__progress progress; /* items: manifests read; bytes: bytes written to the copy */
} inv;

static const char *kind_names[] = {"metadata",  "manifest_list", "manifest",
                                   "data_file", "delete_file",   "statistics_file"};

static int emit(inv *v, floe_maint_inventory_kind kind, const char *path, int64_t size,
                const char *content, const char *status)
{
    floe_maint_inventory_row row = {kind, kind_names[kind], path, size, content, status};
    return v->cb ? v->cb(&row, v->payload) : 0;
}

static const char *file_content(int32_t c)
{
    return c == FLOE_FILE_POSITION_DELETES   ? "position_deletes"
           : c == FLOE_FILE_EQUALITY_DELETES ? "equality_deletes"
                                             : "data";
}

static int walk_manifest(inv *v, const floe_manifest_file *mf)
{
    floe_manifest_reader *rd = NULL;
    FLOE_TRY(floe__maint_open_manifest(v->io, mf, &v->bytes, &rd));
    int64_t len = mf->manifest_length >= 0 ? mf->manifest_length : (int64_t)v->bytes.len;
    int rc = emit(
        v, FLOE_MAINT_INV_MANIFEST, mf->manifest_path, len,
        floe_manifest_reader_info(rd)->content == FLOE_MANIFEST_DELETES ? "deletes" : "data", "");
    const floe_manifest_entry *e;
    while (rc == 0 && (rc = floe_manifest_reader_next(rd, &e)) == 0) {
        if (e->status == FLOE_ENTRY_DELETED || !e->data_file.file_path)
            continue;
        floe_maint_inventory_kind k = e->data_file.content == FLOE_FILE_DATA
                                          ? FLOE_MAINT_INV_DATA_FILE
                                          : FLOE_MAINT_INV_DELETE_FILE;
        rc = emit(v, k, e->data_file.file_path, e->data_file.file_size_in_bytes,
                  file_content(e->data_file.content),
                  e->status == FLOE_ENTRY_ADDED ? "ADDED" : "EXISTING");
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    floe__progress_add(&v->progress, 1, 0);
    floe_manifest_reader_free(rd);
    if (rc < 0)
        floe__error_context("reading manifest %s", mf->manifest_path);
    return rc;
}

/* The backup: the base reduced to the pinned snapshot as `main` (no
 * history before itself), given to rewrite_table_path as the one version
 * to rewrite with the table location as source prefix and the copy as
 * target and staging location, so that the rewritten metadata, manifest
 * list, manifests and position delete files are written in place and the
 * data, equality delete and statistics files are copied beside them. */
static int write_backup(inv *v, floe_fileio *io, const floe_table_metadata *base,
                        const char *base_location, const floe_snapshot *pin,
                        const floe_props *io_conf, char **out_location)
{
    floe_metadata_builder *b = NULL;
    floe_table_metadata *m = NULL;
    floe_buf text = FLOE_BUF_INIT;
    floe_vec drop = FLOE_VEC_INIT(int64_t);
    char *src_path = NULL, *path = NULL;
    int rc = floe__metadata_builder_new(&b, base, base_location);
    while (rc == 0 && floe__metadata_builder_peek(b)->nrefs) {
        const floe_table_metadata *cur = floe__metadata_builder_peek(b);
        rc = floe__mb_remove_snapshot_ref(b, cur->refs[0].name);
    }
    floe_snapshot_ref main_ref = {
        .name = "main", .snapshot_id = pin->snapshot_id, .type = FLOE_REF_BRANCH};
    if (rc == 0)
        rc = floe__mb_set_snapshot_ref(b, &main_ref);
    for (size_t i = 0; rc == 0 && i < base->nsnapshots; i++) {
        if (base->snapshots[i].snapshot_id == pin->snapshot_id)
            continue;
        int64_t *slot = floe__vec_push(&drop);
        if (!slot)
            rc = FLOE_ENOMEM;
        else
            *slot = base->snapshots[i].snapshot_id;
    }
    if (rc == 0 && drop.len)
        rc = floe__mb_remove_snapshots(b, (const int64_t *)drop.items, drop.len);
    if (rc == 0)
        rc = floe__metadata_builder_build(b, floe__now_ms(), &m);
    floe__metadata_builder_free(b);
    if (rc == 0) {
        m->n_metadata_log = 0;
        m->n_snapshot_log = 0;
    }
    char uuid[37];
    if (rc == 0)
        rc = floe__uuid4(uuid);
    size_t n = strlen(v->location);
    while (n > 1 && v->location[n - 1] == '/')
        n--;
    if (rc == 0 &&
        (!(src_path =
               floe__sprintf("%.*s/metadata/00000-%s.metadata.json", (int)n, v->location, uuid)) ||
         !(path = floe__sprintf("%s/metadata/00000-%s.metadata.json", v->copy_to, uuid))))
        rc = FLOE_ENOMEM;
    floe_maint_rewrite_path_options ro = FLOE_MAINT_REWRITE_PATH_OPTIONS_INIT;
    ro.source_prefix = v->location;
    ro.target_prefix = v->copy_to;
    ro.staging_location = v->copy_to;
    ro.create_file_list = false;
    ro.copy = true;
    ro.io_conf = io_conf;
    floe_maint_rewrite_path_result res;
    memset(&res, 0, sizeof res);
    if (rc == 0)
        rc = floe__rewrite_path_run(io, m, src_path, NULL, NULL, &ro, &v->progress, &res);
    floe_maint_rewrite_path_result_free(&res);
    if (rc == 0)
        rc = floe__buf_printf(&text,
                              "# floe inventory --copy-to backup of snapshot %lld\n"
                              "metadata-location=%s\n",
                              (long long)pin->snapshot_id, path);
    char *props = rc == 0 ? floe__sprintf("%s/floe-backup.properties", v->copy_to) : NULL;
    if (rc == 0 && !props)
        rc = FLOE_ENOMEM;
    if (rc == 0)
        rc = floe__io_write_new(v->dst, props, text.ptr, text.len);
    floe__free(props);
    floe__free(src_path);
    floe__buf_free(&text);
    floe__vec_free(&drop);
    floe__metadata_free(m);
    if (rc < 0) {
        floe__free(path);
        return rc;
    }
    *out_location = path;
    return 0;
}

int floe_maint_inventory(char **backup_metadata, floe_catalog *catalog, const char *ident,
                         const floe_maint_inventory_options *opts,
                         int (*cb)(const floe_maint_inventory_row *row, void *payload),
                         void *payload)
{
    static const floe_maint_inventory_options defaults = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
    const floe_maint_inventory_options *o = opts ? opts : &defaults;
    if (backup_metadata)
        *backup_metadata = NULL;
    if (o->version != FLOE_MAINT_INVENTORY_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported inventory options version %u",
                           o->version);
    floe_maint_table t;
    FLOE_TRY(floe__maint_table_load(&t, catalog, ident, o->io, o->io_conf));
    const floe_table_metadata *m = t.metadata;
    const floe_snapshot *pin;
    int rc = floe__maint_select(m, o->has_snapshot_id, o->snapshot_id, o->ref, o->has_timestamp,
                                o->timestamp_ms, &pin);
    inv v;
    memset(&v, 0, sizeof v);
    v.io = t.io;
    v.location = m->location;
    v.cb = cb;
    v.payload = payload;
    floe__progress_init(&v.progress, o->progress, o->progress_payload,
                        o->copy_to ? "copying" : "reading manifests", 0, 0);
    if (rc == 0 && o->copy_to) {
        char *ct = floe__strdup(o->copy_to);
        if (!ct)
            rc = FLOE_ENOMEM;
        else {
            size_t n = strlen(ct);
            while (n > 1 && ct[n - 1] == '/')
                ct[--n] = '\0';
            v.copy_to = ct;
            rc = floe_fileio_local_new(&v.dst);
        }
    }
    floe_arena *arena = floe__arena_new(0);
    if (rc == 0 && !arena)
        rc = FLOE_ENOMEM;
    if (rc == 0) {
        floe_file_info st;
        int64_t size = floe_fileio_stat(&st, t.io, t.metadata_location) == 0 ? st.size : -1;
        floe_error_clear();
        rc = emit(&v, FLOE_MAINT_INV_METADATA, t.metadata_location, size, "", "");
    }
    floe_manifest_list *list = NULL;
    const floe_manifest_file *mfs = NULL;
    size_t n = 0;
    floe_buf list_bytes = FLOE_BUF_INIT;
    if (rc == 0)
        rc = floe__maint_snapshot_manifests(t.io, pin, &list_bytes, &list, arena, &mfs, &n);
    if (rc == 0)
        floe__progress_set_total(&v.progress, (uint64_t)n, 0);
    const char *lp = NULL;
    if (rc == 0)
        rc = floe__maint_list_path(pin, arena, &lp);
    if (rc == 0 && lp)
        rc = emit(&v, FLOE_MAINT_INV_MANIFEST_LIST, lp, (int64_t)list_bytes.len, "", "");
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = walk_manifest(&v, &mfs[i]);
    for (size_t i = 0; rc == 0 && i < m->nstatistics; i++)
        if (m->statistics[i].snapshot_id == pin->snapshot_id)
            rc = emit(&v, FLOE_MAINT_INV_STATISTICS_FILE, m->statistics[i].statistics_path,
                      m->statistics[i].file_size_in_bytes, "", "");
    for (size_t i = 0; rc == 0 && i < m->npartition_statistics; i++)
        if (m->partition_statistics[i].snapshot_id == pin->snapshot_id)
            rc =
                emit(&v, FLOE_MAINT_INV_STATISTICS_FILE, m->partition_statistics[i].statistics_path,
                     m->partition_statistics[i].file_size_in_bytes, "", "");
    if (rc == 0 && v.dst) {
        char *loc = NULL;
        rc = write_backup(&v, t.io, m, t.metadata_location, pin, o->io_conf, &loc);
        if (rc == 0 && backup_metadata)
            *backup_metadata = loc;
        else
            floe__free(loc);
    }
    floe__progress_finish(&v.progress);
    floe_manifest_list_free(list);
    floe__buf_free(&list_bytes);
    floe__buf_free(&v.bytes);
    floe__free((char *)v.copy_to);
    floe_fileio_free(v.dst);
    floe__arena_free(arena);
    floe__maint_table_free(&t);
    return rc;
}
