/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/incremental: incremental reads between two snapshots of a lineage
 * (include/floe/scan.h "incremental reads", docs/changelog.md).
 *
 * Range resolution follows Java's BaseIncrementalScan: start exclusive, end
 * inclusive (default: main's head), the snapshots in between found by
 * walking end's parents back to start; a start that is not on that walk is
 * "Starting snapshot (exclusive) <start> is not a parent ancestor of end
 * snapshot <end>". The append scan follows IncrementalAppendScan: data
 * files ADDED by each `append` snapshot (spec "Snapshots": operation), read
 * without delete files. floe adds a strict mode (the default) that refuses a
 * range with a `delete` or `overwrite` snapshot instead of skipping it in
 * silence (seed 000, "An incremental consumer silently skips deletes and
 * updates").
 */
#include "scan/incremental.h"

#include "arrow/arrow.h"
#define floe_field_summary floe_expr_field_summary
#include "expr/expr.h"
#undef floe_field_summary
#include "spec/value.h"
#include "util/time.h"

#include <errno.h>
#include <string.h>

/* ---------------------------------------------------------------- metadata */

int floe__incr_load_metadata(floe_fileio *io, const char *location, floe_table_metadata **out)
{
    uint8_t *data;
    size_t len;
    FLOE_TRY(floe__scan_read_object(io, location, &data, &len));
    int rc = floe__metadata_parse(out, data, len, location);
    floe__free(data);
    return rc;
}

/* ---------------------------------------------------------------- range */

void floe__incr_range_free(floe_incr_range *r)
{
    if (r) {
        floe__free(r->snaps);
        r->snaps = NULL;
        r->n = 0;
    }
}

static const floe_snapshot *main_head(const floe_table_metadata *m)
{
    const floe_snapshot_ref *r = floe__metadata_ref(m, "main");
    if (r)
        return floe__metadata_snapshot(m, r->snapshot_id);
    return floe__metadata_current_snapshot(m);
}

/* Newest snapshot of `from`'s lineage committed at or before ts (NULL: none). */
static const floe_snapshot *ancestor_as_of(const floe_table_metadata *m, const floe_snapshot *from,
                                           int64_t ts)
{
    for (const floe_snapshot *s = from; s;) {
        if (s->timestamp_ms <= ts)
            return s;
        s = s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id) : NULL;
    }
    return NULL;
}

int floe__incr_range_resolve(floe_incr_range *out, const floe_table_metadata *m,
                             const floe_incremental_options *o)
{
    memset(out, 0, sizeof(*out));
    const floe_snapshot *end;
    if (o->has_end_snapshot_id) {
        if (!(end = floe__metadata_snapshot(m, o->end_snapshot_id)))
            return floe__error(FLOE_ENOTFOUND, "scan", "Cannot find end snapshot: %lld",
                               (long long)o->end_snapshot_id);
    } else {
        end = main_head(m);
        if (end && o->has_end_timestamp_ms) {
            if (!(end = ancestor_as_of(m, end, o->end_timestamp_ms)))
                return floe__time_error_no_snapshot_older("scan", o->end_timestamp_ms);
        }
    }
    if (o->has_start_snapshot_id) {
        if (!floe__metadata_snapshot(m, o->start_snapshot_id))
            return floe__error(FLOE_ENOTFOUND, "scan", "Cannot find the starting snapshot: %lld",
                               (long long)o->start_snapshot_id);
        out->has_start = true;
        out->start = o->start_snapshot_id;
    } else if (o->has_start_timestamp_ms && end) {
        const floe_snapshot *s = ancestor_as_of(m, end, o->start_timestamp_ms);
        if (s) {
            out->has_start = true;
            out->start = s->snapshot_id;
        }
    }
    if (!end) {
        if (out->has_start)
            return floe__error(FLOE_EINVALID, "scan",
                               "Starting snapshot (exclusive) %lld is not a parent ancestor of "
                               "end snapshot null",
                               (long long)out->start);
        return 0;
    }
    out->has_end = true;
    out->end = end->snapshot_id;
    floe_vec v = FLOE_VEC_INIT(const floe_snapshot *);
    bool found = !out->has_start;
    for (const floe_snapshot *s = end; s;) {
        if (out->has_start && s->snapshot_id == out->start) {
            found = true;
            break;
        }
        const floe_snapshot **slot = floe__vec_push(&v);
        if (!slot) {
            floe__vec_free(&v);
            return floe__error_nomem();
        }
        *slot = s;
        /* an expired parent ends the walk (its id still proves ancestry) */
        if (out->has_start && s->has_parent && s->parent_snapshot_id == out->start) {
            found = true;
            break;
        }
        s = s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id) : NULL;
    }
    if (!found) {
        floe__vec_free(&v);
        return floe__error(FLOE_EINVALID, "scan",
                           "Starting snapshot (exclusive) %lld is not a parent ancestor of end "
                           "snapshot %lld",
                           (long long)out->start, (long long)out->end);
    }
    const floe_snapshot **items = v.items;
    for (size_t i = 0; i < v.len / 2; i++) {
        const floe_snapshot *t = items[i];
        items[i] = items[v.len - 1 - i];
        items[v.len - 1 - i] = t;
    }
    out->snaps = items;
    out->n = v.len;
    return 0;
}

/* ---------------------------------------------------------------- append scan plan */

static int copy_file(floe_arena *a, const floe_scan_file *src, floe_scan_file **out)
{
    floe_scan_file *f = floe__arena_alloc(a, sizeof(*f));
    if (!f)
        return floe__error_nomem();
    *f = *src;
    f->path = floe__arena_strdup(a, src->path);
    f->format = src->format ? floe__arena_strdup(a, src->format) : NULL;
    if (!f->path || (src->format && !f->format))
        return floe__error_nomem();
    if (src->del) {
        /* the offsets and sizes stay; equality ids and the referenced file
         * are not kept */
        floe_scan_delete_info *d = floe__arena_alloc(a, sizeof(*d));
        if (!d)
            return floe__error_nomem();
        *d = *src->del;
        d->nequality_ids = 0;
        d->equality_ids = NULL;
        d->referenced_data_file = NULL;
        f->del = d;
    }
    if (src->partition.n) {
        floe_value *vals = floe__arena_calloc(a, src->partition.n, sizeof(floe_value));
        if (!vals)
            return floe__error_nomem();
        for (size_t i = 0; i < src->partition.n; i++)
            FLOE_TRY(floe__value_copy(a, &vals[i], &src->partition.values[i]));
        f->partition.values = vals;
    }
    *out = f;
    return 0;
}

static int plan_snapshot(floe_scan_plan **out, const floe_table_metadata *m, floe_fileio *io,
                         const floe_snapshot *s, int threads)
{
    floe_scan_plan_options po = {NULL, true, true, threads, NULL, NULL};
    return floe__scan_plan(out, m, io, s, NULL, &po);
}

static int path_set(floe_strmap **out, const floe_scan_plan *p)
{
    floe_strmap *set = floe__strmap_new();
    if (!set)
        return floe__error_nomem();
    for (size_t i = 0; p && i < p->ntasks; i++)
        if (floe__strmap_put(set, p->tasks[i].file->path, &p->tasks[i]) < 0) {
            floe__strmap_free(set);
            return floe__error_nomem();
        }
    *out = set;
    return 0;
}

int floe__incremental_plan(floe_scan_plan **out, const floe_table_metadata *m, floe_fileio *io,
                           const floe_incremental_options *o, int64_t *start, int64_t *end)
{
    *out = NULL;
    floe_incr_range r;
    FLOE_TRY(floe__incr_range_resolve(&r, m, o));
    if (start)
        *start = r.has_start ? r.start : -1;
    if (end)
        *end = r.has_end ? r.end : -1;
    int rc = 0;
    if (o->mode == FLOE_INCREMENTAL_STRICT)
        for (size_t i = 0; i < r.n; i++) {
            const char *op = r.snaps[i]->operation;
            if (op && (!strcmp(op, "append") || !strcmp(op, "replace")))
                continue;
            rc = floe__error(FLOE_EINVALID, "scan",
                             "Snapshot %lld (%s) in the incremental range removes or rewrites "
                             "rows, which an append scan cannot return: read the range with "
                             "table_changes, or use mode 'append-only' to skip it",
                             (long long)r.snaps[i]->snapshot_id, op ? op : "unknown operation");
            floe__incr_range_free(&r);
            return rc;
        }
    floe_scan_plan *p = floe__calloc(1, sizeof(*p));
    if (!p) {
        floe__incr_range_free(&r);
        return floe__error_nomem();
    }
    p->meta = m;
    p->snapshot = r.n ? r.snaps[r.n - 1] : NULL;
    p->schema = floe__metadata_current_schema(m);
    p->filter = floe_expr_true();
    p->report.snapshot_id = r.has_end ? r.end : -1;
    floe_vec tasks = FLOE_VEC_INIT(floe_scan_task);
    if (!(p->arena = floe__arena_new(4096)))
        rc = floe__error_nomem();
    floe_scan_plan *prev = NULL, *cur = NULL;
    const floe_snapshot *prev_snap = NULL;
    for (size_t i = 0; rc == 0 && i < r.n; i++) {
        const floe_snapshot *s = r.snaps[i];
        if (!s->operation || strcmp(s->operation, "append") != 0)
            continue;
        /* the parent's files: reuse the previous plan when it is the parent */
        if (!(prev_snap && s->has_parent && prev_snap->snapshot_id == s->parent_snapshot_id)) {
            floe__scan_plan_free(prev);
            prev = NULL;
            const floe_snapshot *par =
                s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id) : NULL;
            if (par && (rc = plan_snapshot(&prev, m, io, par, o->threads)) < 0)
                break;
        }
        if ((rc = plan_snapshot(&cur, m, io, s, o->threads)) < 0)
            break;
        floe_strmap *before = NULL;
        if ((rc = path_set(&before, prev)) < 0)
            break;
        for (size_t t = 0; rc == 0 && t < cur->ntasks; t++) {
            if (floe__strmap_has(before, cur->tasks[t].file->path))
                continue;
            floe_scan_task *task = floe__vec_push(&tasks);
            floe_scan_file *f = NULL;
            if (!task)
                rc = floe__error_nomem();
            else if ((rc = copy_file(p->arena, cur->tasks[t].file, &f)) == 0) {
                task->file = f;
                task->residual = floe_expr_true();
                p->report.records_planned += f->record_count;
            }
        }
        floe__strmap_free(before);
        floe__scan_plan_free(prev);
        prev = cur;
        prev_snap = s;
        cur = NULL;
    }
    floe__scan_plan_free(prev);
    floe__scan_plan_free(cur);
    floe__incr_range_free(&r);
    p->tasks = tasks.items;
    p->ntasks = tasks.len;
    p->report.tasks = (int64_t)tasks.len;
    if (rc < 0) {
        floe__scan_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* ---------------------------------------------------------------- public API */

struct floe_incremental {
    floe_fileio *io;
    bool own_io;
    floe_table_metadata *meta;
    floe_scan_plan *plan;
    int64_t start, end;
    int threads;
};

void floe_incremental_free(floe_incremental *inc)
{
    if (!inc)
        return;
    floe__scan_plan_free(inc->plan);
    floe__metadata_free(inc->meta);
    if (inc->own_io)
        floe_fileio_free(inc->io);
    floe__free(inc);
}

static int check_opts(const floe_incremental_options *o)
{
    if (o->version < 1 || o->version > FLOE_INCREMENTAL_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "scan", "unknown floe_incremental_options version %u",
                           o->version);
    if (o->mode != FLOE_INCREMENTAL_STRICT && o->mode != FLOE_INCREMENTAL_APPEND_ONLY)
        return floe__error(FLOE_EINVALID, "scan", "unknown incremental mode %d", (int)o->mode);
    return 0;
}

int floe_incremental_append_open(floe_incremental **out, floe_fileio *io,
                                 const char *metadata_location,
                                 const floe_incremental_options *opts)
{
    if (!out || !metadata_location)
        return floe__error(FLOE_EINVALID, "scan", "floe_incremental_append_open: NULL argument");
    *out = NULL;
    floe_incremental_options defaults = FLOE_INCREMENTAL_OPTIONS_INIT;
    const floe_incremental_options *o = opts ? opts : &defaults;
    FLOE_TRY(check_opts(o));
    floe_incremental *inc = floe__calloc(1, sizeof(*inc));
    if (!inc)
        return floe__error_nomem();
    int rc = 0;
    inc->threads = o->threads;
    if (io)
        inc->io = io;
    else {
        inc->own_io = true;
        rc = floe_fileio_open(&inc->io, metadata_location, o->io_conf);
    }
    if (rc == 0)
        rc = floe__incr_load_metadata(inc->io, metadata_location, &inc->meta);
    if (rc == 0)
        rc = floe__incremental_plan(&inc->plan, inc->meta, inc->io, o, &inc->start, &inc->end);
    if (rc < 0) {
        floe_incremental_free(inc);
        return rc;
    }
    *out = inc;
    return 0;
}

void floe_incremental_range(int64_t *start, int64_t *end, const floe_incremental *inc)
{
    if (start)
        *start = inc->start;
    if (end)
        *end = inc->end;
}

int floe_incremental_to_stream(struct ArrowArrayStream *out, floe_incremental *inc)
{
    if (!inc || !out)
        return floe__error(FLOE_EINVALID, "scan", "floe_incremental_to_stream: NULL argument");
    return floe__scan_stream(inc->plan, inc->io, NULL, 0, inc->threads, out);
}

int floe_watermark_read(int64_t *snapshot_id, floe_fileio *io, const char *metadata_location,
                        const floe_props *io_conf)
{
    if (!snapshot_id || !metadata_location)
        return floe__error(FLOE_EINVALID, "scan", "floe_watermark_read: NULL argument");
    floe_fileio *own = NULL;
    if (!io) {
        FLOE_TRY(floe_fileio_open(&own, metadata_location, io_conf));
        io = own;
    }
    floe_table_metadata *m = NULL;
    int rc = floe__incr_load_metadata(io, metadata_location, &m);
    if (rc == 0) {
        const floe_snapshot *s = main_head(m);
        *snapshot_id = s ? s->snapshot_id : -1;
    }
    floe__metadata_free(m);
    floe_fileio_free(own);
    return rc;
}

/* ---------------------------------------------------------------- row source */

typedef struct inc_rs {
    floe_incr_owned own;
    floe_fileio *io;
    const floe_table_metadata *meta;
    floe_scan_plan *plan;
    int threads;
    floe_rs_column *cols;
} inc_rs;

typedef struct inc_cursor {
    floe_rowcursor base;
    inc_rs *st;
    struct ArrowArrayStream stream;
    struct ArrowArray batch;
    bool have_batch;
    int64_t row;
} inc_cursor;

static int inc_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                    floe_rowcursor **out)
{
    (void)cons;
    (void)ncons;
    inc_rs *st = rs->impl;
    inc_cursor *c = floe__calloc(1, sizeof(*c));
    if (!c)
        return floe__error_nomem();
    c->base.rs = rs;
    c->st = st;
    int rc = floe__scan_stream(st->plan, st->io, NULL, 0, st->threads, &c->stream);
    if (rc < 0) {
        floe__free(c);
        return rc;
    }
    *out = &c->base;
    return 0;
}

/* Advance a cursor over an Arrow stream by one row (shared with changelog.c
 * callers that read batches row by row). */
int floe__incr_stream_next(struct ArrowArrayStream *s, struct ArrowArray *batch, bool *have,
                           int64_t *row)
{
    if (*have && *row + 1 < batch->length) {
        (*row)++;
        return 0;
    }
    for (;;) {
        if (*have) {
            batch->release(batch);
            *have = false;
        }
        int e = s->get_next(s, batch);
        if (e != 0) {
            const char *msg = s->get_last_error(s);
            int code = e == ENOMEM ? FLOE_ENOMEM
                                   : (floe__error_code() ? floe__error_code() : FLOE_EIO);
            return floe__error(code, "scan", "%s", msg ? msg : "reading rows failed");
        }
        if (!batch->release)
            return FLOE_ITEROVER;
        *have = true;
        if (batch->length > 0) {
            *row = 0;
            return 0;
        }
    }
}

static int inc_next(floe_rowcursor *cur)
{
    inc_cursor *c = (inc_cursor *)cur;
    return floe__incr_stream_next(&c->stream, &c->batch, &c->have_batch, &c->row);
}

static int inc_column(floe_rowcursor *cur, size_t col, floe_rs_cell *out)
{
    inc_cursor *c = (inc_cursor *)cur;
    const floe_type *root = c->st->plan->schema->root;
    floe_value v;
    FLOE_TRY(floe__arrow_value_at(c->batch.children[col], root->fields[col].type, c->row, &v));
    *out = floe__rs_cell(v);
    return 0;
}

static void inc_close(floe_rowcursor *cur)
{
    inc_cursor *c = (inc_cursor *)cur;
    if (c->have_batch)
        c->batch.release(&c->batch);
    if (c->stream.release)
        c->stream.release(&c->stream);
    floe__free(c);
}

static void inc_free(floe_rowsource *rs)
{
    if (!rs)
        return;
    inc_rs *st = rs->impl;
    if (st) {
        floe__scan_plan_free(st->plan);
        floe__free(st->cols);
        floe__incr_owned_free(&st->own);
        floe__free(st);
    }
    floe__free(rs);
}

static const floe_rowsource_ops inc_ops = {inc_open, inc_next, inc_column, inc_close, inc_free};

/* The current schema's top-level columns (primitive only) + `extra` slots. */
int floe__incr_schema_columns(const floe_schema *schema, size_t extra, floe_rs_column **out)
{
    const floe_type *root = schema->root;
    for (size_t i = 0; i < root->nfields; i++)
        if (floe_type_is_nested(root->fields[i].type))
            return floe__error(FLOE_EUNSUPPORTED, "scan",
                               "incremental reads of nested column %s are not supported",
                               root->fields[i].name);
    floe_rs_column *cols = floe__calloc(root->nfields + extra + 1, sizeof(*cols));
    if (!cols)
        return floe__error_nomem();
    for (size_t i = 0; i < root->nfields; i++) {
        cols[i].name = root->fields[i].name;
        cols[i].type = root->fields[i].type;
        cols[i].required = root->fields[i].required;
    }
    *out = cols;
    return 0;
}

int floe__incremental_rowsource(floe_rowsource **out, const floe_table_metadata *m,
                                floe_fileio *io, const floe_incremental_options *opts)
{
    *out = NULL;
    floe_incremental_options defaults = FLOE_INCREMENTAL_OPTIONS_INIT;
    const floe_incremental_options *o = opts ? opts : &defaults;
    FLOE_TRY(check_opts(o));
    floe_rowsource *rs = floe__calloc(1, sizeof(*rs));
    inc_rs *st = floe__calloc(1, sizeof(*st));
    if (!rs || !st) {
        floe__free(rs);
        floe__free(st);
        return floe__error_nomem();
    }
    rs->ops = &inc_ops;
    rs->name = "incremental_append";
    rs->impl = st;
    st->io = io;
    st->meta = m;
    st->threads = o->threads;
    int rc = floe__incr_schema_columns(floe__metadata_current_schema(m), 0, &st->cols);
    if (rc == 0)
        rc = floe__incremental_plan(&st->plan, m, io, o, NULL, NULL);
    if (rc < 0) {
        inc_free(rs);
        return rc;
    }
    rs->columns = st->cols;
    rs->ncolumns = st->plan->schema->root->nfields;
    rs->estimated_rows = (double)st->plan->report.records_planned;
    rs->estimated_cost = rs->estimated_rows * 4;
    *out = rs;
    return 0;
}

/* ---------------------------------------------------------------- owning constructors */

void floe__incr_owned_free(floe_incr_owned *own)
{
    floe__metadata_free(own->meta);
    floe_fileio_free(own->io);
    own->meta = NULL;
    own->io = NULL;
}

int floe__incr_own(floe_incr_owned *own, floe_fileio *io, const char *metadata_location,
                   const floe_props *io_conf, floe_fileio **io_out,
                   const floe_table_metadata **meta_out)
{
    memset(own, 0, sizeof(*own));
    if (!metadata_location)
        return floe__error(FLOE_EINVALID, "scan", "NULL metadata location");
    if (!io) {
        FLOE_TRY(floe_fileio_open(&own->io, metadata_location, io_conf));
        io = own->io;
    }
    int rc = floe__incr_load_metadata(io, metadata_location, &own->meta);
    if (rc < 0) {
        floe__incr_owned_free(own);
        return rc;
    }
    *io_out = io;
    *meta_out = own->meta;
    return 0;
}

int floe__incremental_rowsource_open(floe_rowsource **out, floe_fileio *io,
                                     const char *metadata_location,
                                     const floe_incremental_options *opts)
{
    *out = NULL;
    floe_incr_owned own;
    const floe_table_metadata *m;
    FLOE_TRY(floe__incr_own(&own, io, metadata_location, opts ? opts->io_conf : NULL, &io, &m));
    int rc = floe__incremental_rowsource(out, m, io, opts);
    if (rc < 0) {
        floe__incr_owned_free(&own);
        return rc;
    }
    ((inc_rs *)(*out)->impl)->own = own;
    return 0;
}
