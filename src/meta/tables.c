/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/tables: the metadata tables read from the metadata file alone
 * (spec "Table Metadata Fields", "Snapshots", "Snapshot References"):
 * snapshots, history (the snapshot-log), refs and metadata_log_entries (the
 * metadata-log plus the current file), with the columns of Java's
 * SnapshotsTable, HistoryTable, RefsTable and MetadataLogEntriesTable.
 * Each row is computed on demand from the metadata arrays.
 */
#include "meta/meta.h"

#include "spec/spec.h"

#include <string.h>

/* ---------------------------------------------------------------- helpers */

static floe_rs_cell cell_ts_ms(int64_t ms)
{
    return floe__rs_cell(floe_value_i64(FLOE_T_TIMESTAMPTZ, ms * 1000));
}

/* A JSON cell copied into `scratch`. */
static int cell_json(floe_buf *b, floe_arena *scratch, floe_rs_cell *out)
{
    char *p = floe__arena_strndup(scratch, b->ptr ? b->ptr : "", b->len);
    size_t n = b->len;
    floe__buf_free(b);
    if (!p)
        return floe__error_nomem();
    *out = floe__rs_json(FLOE_T_STRING, p, n);
    return 0;
}

#define COL(n, t, req, push)                                                                       \
    {                                                                                              \
        n, &floe__rs_t_##t, req, push                                                              \
    }

/* ---------------------------------------------------------------- shared lookups */

int floe__meta_ancestors(const floe_table_metadata *m, int64_t snapshot_id, floe_intmap **out)
{
    floe_intmap *set = floe__intmap_new();
    if (!set)
        return floe__error_nomem();
    const floe_snapshot *s = floe__metadata_snapshot(m, snapshot_id);
    /* bounded by the snapshot count so a parent cycle cannot loop forever */
    for (size_t n = 0; s && n <= m->nsnapshots; n++) {
        if (floe__intmap_has(set, s->snapshot_id))
            break;
        if (floe__intmap_put(set, s->snapshot_id, (void *)s) < 0) {
            floe__intmap_free(set);
            return floe__error_nomem();
        }
        s = s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id) : NULL;
    }
    *out = set;
    return 0;
}

/* ---------------------------------------------------------------- snapshots */

static const floe_rs_column snapshots_cols[] = {
    COL("committed_at", timestamptz, true, 0), COL("snapshot_id", long, true, 0),
    COL("parent_id", long, false, 0),          COL("operation", string, false, 0),
    COL("manifest_list", string, false, 0),    COL("summary", map_str_str, false, 0),
};

static size_t snapshots_count(void *st)
{
    return ((const floe_table_metadata *)st)->nsnapshots;
}

static int snapshots_cell(void *st, size_t row, size_t col, floe_arena *scratch, floe_rs_cell *out)
{
    const floe_table_metadata *m = st;
    const floe_snapshot *s = &m->snapshots[row];
    switch (col) {
    case 0: *out = cell_ts_ms(s->timestamp_ms); return 0;
    case 1: *out = floe__rs_long(s->snapshot_id); return 0;
    case 2:
        *out = s->has_parent ? floe__rs_long(s->parent_snapshot_id) : floe__rs_null(FLOE_T_LONG);
        return 0;
    case 3: *out = floe__rs_str(s->operation); return 0;
    case 4: {
        floe_buf b = FLOE_BUF_INIT;
        const char *ml;
        int rc = floe__snapshot_manifest_list(s, &b, &ml);
        if (rc < 0) {
            floe__buf_free(&b);
            return rc;
        }
        if (!ml) {
            floe__buf_free(&b);
            *out = floe__rs_null(FLOE_T_STRING);
            return 0;
        }
        char *p = floe__arena_strndup(scratch, b.ptr, b.len);
        floe__buf_free(&b);
        if (!p)
            return floe__error_nomem();
        *out = floe__rs_str(p);
        return 0;
    }
    default: break;
    }
    if (!s->summary_packed && !s->operation) {
        *out = floe__rs_null(FLOE_T_MAP);
        return 0;
    }
    /* Java's Snapshot.summary() holds every summary key but "operation" */
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_putc(&b, '{');
    bool first = true;
    const uint8_t *it = s->summary_packed;
    const char *k, *v;
    while (rc == 0 && floe__summary_next(&it, &k, &v)) {
        if (strcmp(k, "operation") == 0)
            continue;
        if (!first)
            rc = floe__buf_putc(&b, ',');
        first = false;
        if (rc == 0)
            rc = floe__json_put_str(&b, k);
        if (rc == 0)
            rc = floe__buf_putc(&b, ':');
        if (rc == 0)
            rc = floe__json_put_str(&b, v);
    }
    if (rc == 0)
        rc = floe__buf_putc(&b, '}');
    if (rc < 0) {
        floe__buf_free(&b);
        return rc;
    }
    return cell_json(&b, scratch, out);
}

static const floe_rs_indexed_ops snapshots_ops = {snapshots_count, snapshots_cell, NULL};

int floe__meta_open_snapshots(floe_rowsource **out, const floe_meta_options *o)
{
    return floe__rs_indexed_new(out, "snapshots", snapshots_cols, FLOE_ARRAY_LEN(snapshots_cols),
                                &snapshots_ops, (void *)o->metadata);
}

/* ---------------------------------------------------------------- history */

static const floe_rs_column history_cols[] = {
    COL("made_current_at", timestamptz, true, 0),
    COL("snapshot_id", long, true, 0),
    COL("parent_id", long, false, 0),
    COL("is_current_ancestor", boolean, true, 0),
};

typedef struct history_state {
    const floe_table_metadata *m;
    floe_intmap *ancestors; /* of the current snapshot */
} history_state;

static size_t history_count(void *st)
{
    return ((history_state *)st)->m->n_snapshot_log;
}

static int history_cell(void *st, size_t row, size_t col, floe_arena *scratch, floe_rs_cell *out)
{
    FLOE_UNUSED(scratch);
    history_state *h = st;
    const floe_snapshot_log_entry *e = &h->m->snapshot_log[row];
    const floe_snapshot *s;
    switch (col) {
    case 0: *out = cell_ts_ms(e->timestamp_ms); return 0;
    case 1: *out = floe__rs_long(e->snapshot_id); return 0;
    case 2:
        /* the parent of a snapshot that was expired is unknown: null, as Java */
        s = floe__metadata_snapshot(h->m, e->snapshot_id);
        *out = s && s->has_parent ? floe__rs_long(s->parent_snapshot_id) : floe__rs_null(FLOE_T_LONG);
        return 0;
    default: *out = floe__rs_bool(floe__intmap_has(h->ancestors, e->snapshot_id)); return 0;
    }
}

static void history_free(void *st)
{
    history_state *h = st;
    if (h) {
        floe__intmap_free(h->ancestors);
        floe__free(h);
    }
}

static const floe_rs_indexed_ops history_ops = {history_count, history_cell, history_free};

int floe__meta_open_history(floe_rowsource **out, const floe_meta_options *o)
{
    history_state *h = floe__calloc(1, sizeof *h);
    if (!h)
        return floe__error_nomem();
    h->m = o->metadata;
    int64_t current = o->metadata->has_current_snapshot ? o->metadata->current_snapshot_id : -1;
    int rc = floe__meta_ancestors(o->metadata, current, &h->ancestors);
    if (rc < 0) {
        floe__free(h);
        return rc;
    }
    return floe__rs_indexed_new(out, "history", history_cols, FLOE_ARRAY_LEN(history_cols),
                                &history_ops, h);
}

/* ---------------------------------------------------------------- refs */

static const floe_rs_column refs_cols[] = {
    COL("name", string, true, 0),
    COL("type", string, true, 0),
    COL("snapshot_id", long, true, 0),
    COL("max_reference_age_in_ms", long, false, 0),
    COL("min_snapshots_to_keep", int, false, 0),
    COL("max_snapshot_age_in_ms", long, false, 0),
};

static size_t refs_count(void *st)
{
    return ((const floe_table_metadata *)st)->nrefs;
}

static int refs_cell(void *st, size_t row, size_t col, floe_arena *scratch, floe_rs_cell *out)
{
    FLOE_UNUSED(scratch);
    const floe_snapshot_ref *r = &((const floe_table_metadata *)st)->refs[row];
    switch (col) {
    case 0: *out = floe__rs_str(r->name); return 0;
    case 1: *out = floe__rs_str(r->type == FLOE_REF_TAG ? "TAG" : "BRANCH"); return 0;
    case 2: *out = floe__rs_long(r->snapshot_id); return 0;
    case 3:
        *out = r->has_max_ref_age_ms ? floe__rs_long(r->max_ref_age_ms) : floe__rs_null(FLOE_T_LONG);
        return 0;
    case 4:
        *out = r->has_min_snapshots_to_keep ? floe__rs_int(r->min_snapshots_to_keep)
                                            : floe__rs_null(FLOE_T_INT);
        return 0;
    default:
        *out =
            r->has_max_snapshot_age_ms ? floe__rs_long(r->max_snapshot_age_ms) : floe__rs_null(FLOE_T_LONG);
        return 0;
    }
}

static const floe_rs_indexed_ops refs_ops = {refs_count, refs_cell, NULL};

int floe__meta_open_refs(floe_rowsource **out, const floe_meta_options *o)
{
    return floe__rs_indexed_new(out, "refs", refs_cols, FLOE_ARRAY_LEN(refs_cols), &refs_ops,
                                (void *)o->metadata);
}

/* ---------------------------------------------------------------- metadata_log_entries */

static const floe_rs_column mle_cols[] = {
    COL("timestamp", timestamptz, true, 0),        COL("file", string, true, 0),
    COL("latest_snapshot_id", long, false, 0),     COL("latest_schema_id", int, false, 0),
    COL("latest_sequence_number", long, false, 0),
};

typedef struct mle_state {
    const floe_table_metadata *m;
    char *current; /* a copy; NULL: no current row */
} mle_state;

static size_t mle_count(void *st)
{
    mle_state *s = st;
    return s->m->n_metadata_log + (s->current ? 1 : 0);
}

static int mle_cell(void *st, size_t row, size_t col, floe_arena *scratch, floe_rs_cell *out)
{
    FLOE_UNUSED(scratch);
    mle_state *s = st;
    int64_t ts;
    const char *file;
    if (row < s->m->n_metadata_log) {
        ts = s->m->metadata_log[row].timestamp_ms;
        file = s->m->metadata_log[row].metadata_file;
    } else {
        ts = s->m->last_updated_ms;
        file = s->current;
    }
    if (col == 0) {
        *out = cell_ts_ms(ts);
        return 0;
    }
    if (col == 1) {
        *out = floe__rs_str(file);
        return 0;
    }
    /* The snapshot current at that time, from the snapshot-log, as Java's
     * MetadataLogEntriesTable computes it (not read from the old file). */
    int64_t id;
    if (!floe__snapshot_log_as_of(s->m, ts, &id)) {
        *out = floe__rs_null(col == 3 ? FLOE_T_INT : FLOE_T_LONG);
        return 0;
    }
    const floe_snapshot *snap = floe__metadata_snapshot(s->m, id);
    if (col == 2)
        *out = floe__rs_long(id);
    else if (col == 3)
        *out = snap && snap->has_schema_id ? floe__rs_int(snap->schema_id) : floe__rs_null(FLOE_T_INT);
    else
        *out = snap ? floe__rs_long(snap->sequence_number) : floe__rs_null(FLOE_T_LONG);
    return 0;
}

static void mle_free(void *st)
{
    mle_state *s = st;
    if (s) {
        floe__free(s->current);
        floe__free(s);
    }
}

static const floe_rs_indexed_ops mle_ops = {mle_count, mle_cell, mle_free};

int floe__meta_open_metadata_log_entries(floe_rowsource **out, const floe_meta_options *o)
{
    mle_state *s = floe__calloc(1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    s->m = o->metadata;
    if (o->metadata_location && !(s->current = floe__strdup(o->metadata_location))) {
        floe__free(s);
        return floe__error_nomem();
    }
    return floe__rs_indexed_new(out, "metadata_log_entries", mle_cols, FLOE_ARRAY_LEN(mle_cols),
                                &mle_ops, s);
}
