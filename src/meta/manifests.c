/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/manifests: the manifests and all_manifests tables — one row per
 * manifest-list entry (spec "Manifest Lists") of the selected snapshot, or
 * of every retained snapshot with reference_snapshot_id naming the snapshot
 * whose list holds it (duplicates kept, as Java's AllManifestsTable).
 * Columns of Java's ManifestsTable: file counts split by manifest content,
 * partition_summaries with bounds as the transform's human string.
 */
#include "meta/scan.h"

#include "floe/io.h"
#include "spec/spec.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <string.h>

enum {
    MC_CONTENT,
    MC_PATH,
    MC_LENGTH,
    MC_SPEC_ID,
    MC_ADDED_SNAPSHOT_ID,
    MC_ADDED_DATA,
    MC_EXISTING_DATA,
    MC_DELETED_DATA,
    MC_ADDED_DELETE,
    MC_EXISTING_DELETE,
    MC_DELETED_DELETE,
    MC_SUMMARIES,
    MC_REFERENCE_SNAPSHOT_ID,
};

static const floe_field summary_fields[] = {
    {.id = 10, .name = "contains_null", .required = true, .type = &floe__rs_t_boolean},
    {.id = 11, .name = "contains_nan", .type = &floe__rs_t_boolean},
    {.id = 12, .name = "lower_bound", .type = &floe__rs_t_string},
    {.id = 13, .name = "upper_bound", .type = &floe__rs_t_string},
};
static const floe_type summary_type = {.id = FLOE_T_STRUCT, .nfields = 4, .fields = summary_fields};
static const floe_field summary_elem = {
    .id = 9, .name = "element", .required = true, .type = &summary_type};
static const floe_type summaries_type = {.id = FLOE_T_LIST, .element = &summary_elem};

#define COL(n, t, req)                                                                             \
    {                                                                                              \
        n, t, req, 0                                                                               \
    }
static const floe_rs_column manifests_cols[] = {
    COL("content", &floe__rs_t_int, true),
    COL("path", &floe__rs_t_string, true),
    COL("length", &floe__rs_t_long, true),
    COL("partition_spec_id", &floe__rs_t_int, false),
    COL("added_snapshot_id", &floe__rs_t_long, false),
    COL("added_data_files_count", &floe__rs_t_int, false),
    COL("existing_data_files_count", &floe__rs_t_int, false),
    COL("deleted_data_files_count", &floe__rs_t_int, false),
    COL("added_delete_files_count", &floe__rs_t_int, true),
    COL("existing_delete_files_count", &floe__rs_t_int, true),
    COL("deleted_delete_files_count", &floe__rs_t_int, true),
    COL("partition_summaries", &summaries_type, false),
    {"reference_snapshot_id", &floe__rs_t_long, true, FLOE_RS_PUSH_EQ},
};

typedef struct manifests_source {
    floe_rowsource rs;
    floe_meta_options o;
    bool all;
} manifests_source;

typedef struct manifests_cursor {
    floe_rowcursor base;
    manifests_source *src;
    meta_walker *w;
    const floe_manifest_file *mf;
    const floe_snapshot *snap;
    floe_arena *row;
    floe_buf tmp;
} manifests_cursor;

static int m_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                  floe_rowcursor **out)
{
    manifests_source *s = rs->impl;
    /* all_manifests WHERE reference_snapshot_id = n: read that list only */
    meta_walk_mode mode = s->all ? WALK_ALL_PAIRS : WALK_SNAPSHOT;
    const floe_snapshot *snap = s->all ? NULL : floe__meta_selected_snapshot(&s->o);
    for (size_t i = 0; s->all && i < ncons; i++) {
        if (cons[i].column == MC_REFERENCE_SNAPSHOT_ID && cons[i].op == FLOE_RS_EQ &&
            cons[i].value.type == FLOE_T_LONG) {
            mode = WALK_SNAPSHOT;
            snap = floe__metadata_snapshot(s->o.metadata, cons[i].value.v.i64);
        }
    }
    manifests_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    c->src = s;
    c->row = floe__arena_new(0);
    int rc = c->row ? 0 : floe__error_nomem();
    if (rc == 0)
        rc = floe__meta_walker_new(&c->w, &s->o, mode, snap, WALK_DATA | WALK_DELETES);
    if (rc < 0) {
        floe__arena_free(c->row);
        floe__free(c);
        return rc;
    }
    *out = &c->base;
    return 0;
}

static int m_next(floe_rowcursor *base)
{
    manifests_cursor *c = (manifests_cursor *)base;
    floe__arena_reset(c->row);
    return floe__meta_walker_next_manifest(c->w, &c->mf, &c->snap);
}

static floe_rs_cell opt_int(int32_t v)
{
    return v < 0 ? floe__rs_null(FLOE_T_INT) : floe__rs_int(v);
}

static floe_rs_cell opt_long(int64_t v, bool has)
{
    return has ? floe__rs_long(v) : floe__rs_null(FLOE_T_LONG);
}

static int put_bound(const floe_partition_field *pf, const floe_type *t, const floe_opt_bytes *b,
                     floe_buf *out)
{
    if (!b->set || !t)
        return floe__buf_puts(out, "null");
    floe_value v;
    if (floe_value_from_single(t, b->ptr, b->len, &v) < 0) {
        floe_error_clear();
        return floe__buf_puts(out, "null");
    }
    floe_buf h = FLOE_BUF_INIT;
    int rc = floe_transform_human_string(&pf->transform, &v, &h);
    if (rc == 0) {
        rc = floe__buf_putc(out, '"');
        if (rc == 0)
            rc = floe__buf_put_json_escaped(out, h.ptr ? h.ptr : "", h.len);
        if (rc == 0)
            rc = floe__buf_putc(out, '"');
    }
    floe__buf_free(&h);
    return rc;
}

static int summaries_json(const floe_table_metadata *m, const floe_manifest_file *mf, floe_buf *out)
{
    const floe_partition_spec *spec = floe__metadata_spec(m, mf->partition_spec_id);
    const floe_schema *schema = floe__metadata_current_schema(m);
    FLOE_TRY(floe__buf_putc(out, '['));
    for (size_t i = 0; i < mf->npartitions; i++) {
        const floe_field_summary *fs = &mf->partitions[i];
        const floe_partition_field *pf = spec && i < spec->nfields ? &spec->fields[i] : NULL;
        const floe_field *src =
            pf && schema ? floe__schema_field_by_id(schema, pf->source_id) : NULL;
        const floe_type *t = src ? floe_transform_result_type(&pf->transform, src->type) : NULL;
        FLOE_TRY(floe__buf_printf(out,
                                  "%s{\"contains_null\":%s,\"contains_nan\":%s,"
                                  "\"lower_bound\":",
                                  i ? "," : "", fs->contains_null ? "true" : "false",
                                  !fs->has_contains_nan ? "null"
                                  : fs->contains_nan    ? "true"
                                                        : "false"));
        FLOE_TRY(pf ? put_bound(pf, t, &fs->lower_bound, out) : floe__buf_puts(out, "null"));
        FLOE_TRY(floe__buf_puts(out, ",\"upper_bound\":"));
        FLOE_TRY(pf ? put_bound(pf, t, &fs->upper_bound, out) : floe__buf_puts(out, "null"));
        FLOE_TRY(floe__buf_putc(out, '}'));
    }
    return floe__buf_putc(out, ']');
}

static int m_column(floe_rowcursor *base, size_t col, floe_rs_cell *out)
{
    manifests_cursor *c = (manifests_cursor *)base;
    const floe_manifest_file *mf = c->mf;
    bool deletes = mf->content == FLOE_MANIFEST_DELETES;
    memset(out, 0, sizeof *out);
    switch (col) {
    case MC_CONTENT: out->value = floe_value_int(mf->content); return 0;
    case MC_PATH:
        out->value = floe_value_bytes(FLOE_T_STRING, mf->manifest_path, strlen(mf->manifest_path));
        return 0;
    case MC_LENGTH: {
        int64_t len = mf->manifest_length;
        if (len < 0) {
            /* v1 snapshots list bare paths: ask the store, as Java does */
            floe_file_info fi;
            if (floe_fileio_stat(&fi, c->src->o.io, mf->manifest_path) < 0)
                return floe__error_context("manifest %s", mf->manifest_path);
            len = fi.size;
        }
        *out = opt_long(len, true);
        return 0;
    }
    case MC_SPEC_ID: *out = opt_int(mf->partition_spec_id); return 0;
    case MC_ADDED_SNAPSHOT_ID:
        *out = opt_long(mf->added_snapshot_id, mf->added_snapshot_id >= 0);
        return 0;
    case MC_ADDED_DATA: *out = deletes ? opt_int(0) : opt_int(mf->added_files_count); return 0;
    case MC_EXISTING_DATA:
        *out = deletes ? opt_int(0) : opt_int(mf->existing_files_count);
        return 0;
    case MC_DELETED_DATA: *out = deletes ? opt_int(0) : opt_int(mf->deleted_files_count); return 0;
    case MC_ADDED_DELETE: *out = deletes ? opt_int(mf->added_files_count) : opt_int(0); return 0;
    case MC_EXISTING_DELETE:
        *out = deletes ? opt_int(mf->existing_files_count) : opt_int(0);
        return 0;
    case MC_DELETED_DELETE:
        *out = deletes ? opt_int(mf->deleted_files_count) : opt_int(0);
        return 0;
    case MC_SUMMARIES: {
        if (!mf->has_partitions) {
            out->value = floe_value_null(FLOE_T_LIST);
            return 0;
        }
        floe__buf_clear(&c->tmp);
        FLOE_TRY(summaries_json(c->src->o.metadata, mf, &c->tmp));
        char *p = floe__arena_strndup(c->row, c->tmp.ptr ? c->tmp.ptr : "", c->tmp.len);
        if (!p)
            return floe__error_nomem();
        *out = floe__rs_json(FLOE_T_LIST, p, c->tmp.len);
        return 0;
    }
    default: *out = opt_long(c->snap->snapshot_id, true); return 0;
    }
}

static void m_close(floe_rowcursor *base)
{
    manifests_cursor *c = (manifests_cursor *)base;
    floe__meta_walker_free(c->w);
    floe__arena_free(c->row);
    floe__buf_free(&c->tmp);
    floe__free(c);
}

static void m_free(floe_rowsource *rs)
{
    floe__free(rs->impl);
}

static const floe_rowsource_ops manifests_ops = {m_open, m_next, m_column, m_close, m_free};

int floe__meta_open_manifests(floe_rowsource **out, const floe_meta_options *o, bool all)
{
    *out = NULL;
    if (!o->io)
        return floe__error(FLOE_EINVALID, "meta", "metadata table %s needs a FileIO",
                           all ? "all_manifests" : "manifests");
    manifests_source *s = floe__calloc(1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    s->o = *o;
    s->all = all;
    s->rs.ops = &manifests_ops;
    s->rs.name = all ? "all_manifests" : "manifests";
    s->rs.columns = manifests_cols;
    s->rs.ncolumns = FLOE_ARRAY_LEN(manifests_cols) - (all ? 0 : 1);
    s->rs.impl = s;
    *out = &s->rs;
    return 0;
}
