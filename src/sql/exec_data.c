/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_data: an Iceberg table's rows as a row source (rows/rowsource.h)
 * for the SQL shell's virtual tables: a small adapter from the scan's Arrow
 * stream (include/floe/scan.h) to rows.
 *
 * The source is bound to a table name and a selection (main, a snapshot id,
 * a ref, a timestamp, a branch or tag suffix) and resolves it at each open
 * through the session's table cache, so a temporary view over a table sees
 * what a fresh query would (or, with cache-enabled=true, what Java's cached
 * table would). SQLite's =, <, <=, >, >= constraints on primitive columns
 * become the scan's filter, a floe expression built from their typed
 * values (partition and metrics pruning; no text goes through the scan's
 * filter grammar); SQLite still checks them on every row. Each open records the scan's plan report
 * for EXPLAIN.
 *
 * Decimals of precision <= 15 are exposed as doubles (exact at their scale
 * for display, so comparisons such as `amount <= 0` are numeric); wider
 * decimals as exact text, which vtab.c declares with a numeric collation
 * (so they compare, sort, group and aggregate by value) and pushes down.
 *
 * The same adapter serves other producers of Arrow batches
 * (floe__sql_stream_source: read_parquet), so their columns have exactly
 * the data tables' types, conversions and display hints.
 */
#include "sql/exec_data.h"

#include "arrow/arrow.h"
#include "expr/expr.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "floe/catalog.h"
#include "floe/scan.h"
#include "rows/rowsource.h"
#include "scan/scan.h"
#include "spec/metadata.h"
#include "spec/value.h"
#include "sql/exec_int.h"
#include "sql/nested.h"
#include "sql/sqlfront.h"
#include "table/table.h"

static const floe_type t_double = {.id = FLOE_T_DOUBLE};

typedef struct data_rs {
    floe_rowsource pub;
    floe_sql_session *s;   /* borrowed: the session outlives its virtual tables */
    size_t cat;            /* the session catalog the table is in */
    floe_table *table;     /* without a session: the table (owned) */
    floe_catalog *catalog; /* and its catalog (owned, may be NULL) */
    char *ident;
    floe_sql_travel travel; /* strings owned below */
    char *travel_text;
    char *ref;                         /* branch/tag suffix */
    bool ref_is_branch;                /* t.branch_x: x must be a branch (SparkTable's check) */
    floe_table_metadata *schema_owner; /* the metadata whose schema types the columns use */
    floe_rs_column *cols;
    const floe_type **types; /* Iceberg type per column (what the scan returns) */
    int *scale;              /* display scale of decimal-as-double columns, else -1 */
    double *p10;             /* 10^scale of decimal-as-double columns */
    const char **names;
    const floe_schema *schema; /* the columns' schema (schema_owner's, or the stream's) */
    /* last plan, for EXPLAIN */
    floe_scan_report report;
    bool has_report;
    char *filter;
    /* floe__sql_data_source_set_filter: the scan's filter instead of the
     * pushed constraints (borrowed), e.g. a DML condition over its base */
    const struct floe_expr *fixed;
    char *read; /* what the last open read: "a,b" or "count from manifests" */
    int64_t snapshot;
    /* floe__sql_stream_source: batches come from fns->open, not a scan */
    const floe_sql_stream_fns *fns;
    void *payload;
} data_rs;

/* A cursor either streams the scan's Arrow batches (only the columns the
 * consumer reads are projected) or, when nothing is read and the plan's
 * record counts are exact, just counts rows down without opening a file. */
typedef struct data_cursor {
    floe_rowcursor hdr;
    floe_scan *scan;
    struct ArrowArrayStream stream;
    struct ArrowArray batch;
    int64_t row;
    int64_t remaining; /* counting mode: rows still to emit; -1 when streaming */
    int *child;        /* per column: its child in the batch, -1 when not projected */
    const char **proj; /* projected column names */
    floe_arena *filter_arena; /* the scan's filter (plan_scan) */
    floe_buf text;     /* wide decimal cell text */
} data_cursor;

static int resolve(data_rs *d, floe_table **t, floe_scan_options *o)
{
    floe_sql_session *s = d->s;
    if (s) {
        o->progress = s->progress;
        o->progress_payload = s->progress_payload;
        FLOE_TRY(floe__sql_get_table_in(s, d->cat, d->ident, t));
    } else { /* a standalone source (loadable extension): reload when moved */
        FLOE_TRY(floe_table_ensure_fresh(d->table));
        *t = d->table;
    }
    floe_snapshot_info si;
    int rc = 0;
    switch (d->travel.kind) {
    case FLOE_SQLTT_NONE:
        if (d->ref && d->ref_is_branch) {
            floe_snapshot_selector sel = {FLOE_SNAP_BRANCH, 0, d->ref, 0};
            const floe_snapshot *head;
            rc = floe__snapshot_select(&head, (*t)->metadata, &sel, "sql");
            if (rc == 0 && head) /* main before the first commit reads empty */
                o->ref = d->ref;
        } else if (d->ref) {
            o->ref = d->ref;
            rc = floe_table_snapshot_by_ref(&si, *t, d->ref);
        } else if (s) {
            /* Spark's SparkReadConf.branch(): spark.wap.branch applies to
             * a table with write.wap.enabled=true once the branch exists */
            const char *wap = floe__sql_session_option(s, "spark.wap.branch");
            bool enabled = false;
            if (wap)
                rc = floe__props_get_bool(&(*t)->metadata->properties, "write.wap.enabled", false,
                                          &enabled);
            if (rc == 0 && enabled) {
                if (floe_table_snapshot_by_ref(&si, *t, wap) == 0)
                    o->ref = wap;
                else
                    floe_error_clear(); /* not created yet: main */
            }
        }
        break;
    case FLOE_SQLTT_SNAPSHOT:
        rc = floe_table_snapshot_by_id(&si, *t, d->travel.snapshot_id);
        o->has_snapshot_id = true;
        o->snapshot_id = d->travel.snapshot_id;
        break;
    case FLOE_SQLTT_REF:
        rc = floe_table_snapshot_by_ref(&si, *t, d->travel.ref);
        o->ref = d->travel.ref;
        break;
    case FLOE_SQLTT_TIMESTAMP: {
        int64_t ms = 0;
        rc = floe__time_parse(d->travel.timestamp, d->travel.timestamp_utc || !s ? NULL : s->tz,
                              &ms);
        if (rc == 0)
            rc = floe_table_snapshot_as_of_time(&si, *t, ms);
        if (rc == 0) {
            o->has_snapshot_id = true;
            o->snapshot_id = si.snapshot_id;
        }
        break;
    }
    }
    return s ? floe__sql_classify(s, rc) : rc;
}

/* A decimal(precision, scale) column is shown to SQLite as the double
 * nearest each value; SQLite compares that double with x. The decimal
 * pushed instead must keep every row SQLite keeps: a lower bound rounds
 * down (op becomes >=), an upper bound rounds up (op becomes <=), and
 * equality is pushed only when x is exactly a value of the column (the
 * double of some decimal at this scale). false: nothing pushed. */
static bool decimal_bound(double x, int scale, int precision, floe_rs_op *op, floe_value *out)
{
    double p10 = 1;
    for (int i = 0; i < scale; i++)
        p10 *= 10;
    double limit = 1;
    for (int i = 0; i < precision; i++)
        limit *= 10;
    double u = x * p10;
    if (!isfinite(u) || fabs(u) >= limit)
        return false;
    double r;
    switch (*op) {
    case FLOE_RS_EQ:
        r = nearbyint(u);
        if (r / p10 != x)
            return false;
        break;
    case FLOE_RS_GT:
    case FLOE_RS_GE:
        r = floor(u);
        while (r / p10 > x) /* u was rounded up when multiplied */
            r -= 1;
        *op = FLOE_RS_GE;
        break;
    default:
        r = ceil(u);
        while (r / p10 < x)
            r += 1;
        *op = FLOE_RS_LE;
        break;
    }
    *out = floe_value_decimal((floe_i128)(int64_t)r, scale);
    return true;
}

/* One pushed constraint as a predicate of the scan's filter, in `a`
 * (floe_expr_true() when not expressible, NULL on out-of-memory). The
 * value is already of the column's type (vtab.c); `scale` >= 0: a decimal
 * column of that scale and `precision` shown as doubles. */
static const floe_expr *filter_pred(floe_arena *a, const char *col, floe_rs_op op,
                                    const floe_value *v, int scale, int precision)
{
    static const floe_op ops[] = {FLOE_OP_EQ, FLOE_OP_LT, FLOE_OP_LT_EQ, FLOE_OP_GT,
                                  FLOE_OP_GT_EQ}; /* FLOE_RS_EQ .. FLOE_RS_GE */
    floe_value lit = *v;
    switch (v->type) {
    case FLOE_T_INT:
    case FLOE_T_LONG:
    case FLOE_T_BOOLEAN:
    case FLOE_T_STRING:
    case FLOE_T_DATE:
    case FLOE_T_DECIMAL: /* a wide decimal (vtab.c bounds it at the column's scale) */
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ: break;
    case FLOE_T_DOUBLE:
        if (scale >= 0 && !decimal_bound(v->v.f64, scale, precision, &op, &lit))
            return floe_expr_true();
        if (scale < 0 && !isfinite(v->v.f64))
            return floe_expr_true();
        break;
    case FLOE_T_FLOAT:
        if (!isfinite(v->v.f32))
            return floe_expr_true();
        break;
    default: return floe_expr_true(); /* binary, nanosecond timestamps: SQLite filters alone */
    }
    if (op < FLOE_RS_EQ || op > FLOE_RS_GE)
        return floe_expr_true();
    return floe_expr_cmp(a, ops[op - FLOE_RS_EQ], col, lit);
}

/* Plan the scan of the selection with the pushed constraints as filter
 * (recorded for EXPLAIN). */
static int plan_scan(data_rs *d, const floe_rs_constraint *cons, size_t ncons,
                     const char *const *columns, size_t ncolumns, floe_scan **out,
                     floe_arena **filter_arena)
{
    *out = NULL;
    *filter_arena = NULL;
    floe_table *t = NULL;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    FLOE_TRY(resolve(d, &t, &o));
    /* the filter's nodes and literal bytes: the bound filter the scan
     * evaluates on rows still points at the literals, so they live as
     * long as the scan (the caller frees the arena after it) */
    floe_arena *a = floe__arena_new(512);
    if (!a)
        return floe__error_nomem();
    const floe_expr *filter = floe_expr_true();
    if (d->fixed)
        filter = d->fixed; /* SQLite checks its constraints on the filtered rows */
    for (size_t i = 0; !d->fixed && filter && i < ncons; i++) {
        size_t col = cons[i].column;
        filter = floe_expr_and(a, filter,
                               filter_pred(a, d->names[col], cons[i].op, &cons[i].value,
                                           d->scale[col], d->types[col]->precision));
    }
    floe_buf text = FLOE_BUF_INIT;
    int rc = filter ? 0 : floe__error_nomem();
    if (rc == 0 && filter->kind != FLOE_EXPR_TRUE)
        rc = floe_expr_format(filter, &text);
    if (rc == 0) {
        o.filter_expr = filter->kind == FLOE_EXPR_TRUE ? NULL : filter;
        o.columns = columns;
        o.ncolumns = ncolumns;
        o.io_conf = d->s ? &d->s->conf : NULL;
        if (d->travel.kind == FLOE_SQLTT_SNAPSHOT && d->travel.current_schema) {
            /* the snapshot of the metadata the columns were declared from,
             * read with its current schema */
            const floe_snapshot *snap = NULL;
            floe_snapshot_selector sel = {.kind = FLOE_SNAP_ID,
                                          .snapshot_id = d->travel.snapshot_id};
            rc = floe__snapshot_select(&snap, d->schema_owner, &sel, "sql");
            if (rc == 0)
                rc = floe__scan_open_snapshot(out, floe_table_io(t), d->schema_owner, snap, false,
                                              &o);
        } else {
            rc = floe_scan_open(out, floe_table_io(t), floe_table_metadata_location(t), &o);
        }
    }
    if (rc == 0) {
        d->report = *floe_scan_get_report(*out);
        d->has_report = true;
        floe__free(d->filter);
        d->filter = text.len ? floe__strdup(text.ptr) : NULL;
        if (text.len && !d->filter)
            rc = floe__error_nomem();
    }
    floe__buf_free(&text);
    if (rc < 0) {
        floe_scan_free(*out);
        *out = NULL;
        floe__arena_free(a);
        return rc;
    }
    *filter_arena = a;
    return 0;
}

/* Remember which columns the last open read (NULL: counted from the plan). */
static int record_read(data_rs *d, const char *const *cols, size_t n)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = cols ? 0 : floe__buf_puts(&b, "count from manifests");
    for (size_t i = 0; cols && rc == 0 && i < n; i++)
        rc = floe__buf_printf(&b, "%s%s", i ? "," : "", cols[i]);
    if (rc == 0 && !b.ptr)
        rc = floe__buf_puts(&b, "");
    if (rc < 0) {
        floe__buf_free(&b);
        return rc;
    }
    floe__free(d->read);
    d->read = b.ptr;
    return 0;
}

/* Exact row count from the plan: the sum of record_count over the planned
 * data files is the table's row count when no delete file applies to any
 * of them and there is no filter (so no residual). */
static int plan_count(const floe_scan *scan, int64_t *out)
{
    const floe_scan_report *r = floe_scan_get_report(scan);
    if (r->delete_files_applied > 0 || r->records_planned < 0)
        return 1;
    *out = r->records_planned;
    return 0;
}

static int data_count(floe_rowsource *rs, int64_t *out)
{
    data_rs *d = rs->impl;
    floe_scan *scan = NULL;
    *out = 0;
    floe_arena *fa = NULL;
    FLOE_TRY(plan_scan(d, NULL, 0, NULL, 0, &scan, &fa));
    int rc = plan_count(scan, out);
    floe_scan_free(scan);
    floe__arena_free(fa);
    if (rc == 0)
        rc = record_read(d, NULL, 0);
    return rc;
}

/* MetadataColumns.isMetadataColumn: names a table column may have (Java's
 * UpdateSchema and Spark's CREATE TABLE accept them) but Spark cannot read
 * while the metadata column of that name exists. */
static const char *const reserved_names[] = {"_file",
                                             "_pos",
                                             "_deleted",
                                             "_spec_id",
                                             "_partition",
                                             "_row_id",
                                             "_last_updated_sequence_number"};

static bool reserved_name(const char *name)
{
    for (size_t i = 0; i < FLOE_ARRAY_LEN(reserved_names); i++)
        if (strcmp(name, reserved_names[i]) == 0)
            return true;
    return false;
}

/* SparkSchemaUtil.validateMetadataColumnReferences: a scan reading a table
 * column whose name is reserved for a metadata column fails (the column
 * can be written, and renamed with ALTER TABLE). */
static int check_reserved(const data_rs *d, uint64_t used)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < d->pub.ncolumns - d->pub.nhidden; i++)
        if (floe__rs_col_used(used, i) && reserved_name(d->names[i]))
            rc = floe__buf_printf(&b, "%s%s", b.len ? ", " : "", d->names[i]);
    if (rc == 0 && b.len)
        rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "sql",
                            "Table column names conflict with names reserved for Iceberg metadata "
                            "columns: [%s].\nPlease, use ALTER TABLE statements to rename the "
                            "conflicting table columns.",
                            b.ptr);
    floe__buf_free(&b);
    return rc < 0 ? rc : 0;
}

/* A column that is cheap to decode, for scans that only count rows but
 * must still read (deletes to apply): fixed width first. */
static size_t cheapest_column(const data_rs *d)
{
    for (size_t i = 0; i < d->pub.ncolumns - d->pub.nhidden; i++) {
        if (reserved_name(d->names[i]))
            continue;
        switch (d->types[i]->id) {
        case FLOE_T_BOOLEAN:
        case FLOE_T_INT:
        case FLOE_T_DATE:
        case FLOE_T_LONG: return i;
        default: break;
        }
    }
    return 0;
}

static void data_close(floe_rowcursor *base);

static int data_open_projected(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                               uint64_t used, floe_rowcursor **out)
{
    data_rs *d = rs->impl;
    size_t n = d->pub.ncolumns;
    data_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    c->hdr.rs = rs;
    c->row = -1;
    c->remaining = -1;
    c->child = floe__calloc(n ? n : 1, sizeof *c->child);
    c->proj = floe__calloc(n ? n : 1, sizeof *c->proj);
    int rc = c->child && c->proj ? 0 : floe__error_nomem();
    if (rc == 0 && !d->fns)
        rc = check_reserved(d, used);
    size_t nproj = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        c->child[i] = -1;
        if (floe__rs_col_used(used, i)) {
            c->child[i] = (int)nproj;
            c->proj[nproj++] = d->names[i];
        }
    }
    if (rc == 0 && d->fns) { /* a stream source: every column, in order */
        for (size_t i = 0; i < n; i++)
            c->child[i] = (int)i;
        rc = d->fns->open(d->payload, &c->stream);
        if (rc < 0) {
            data_close(&c->hdr);
            return rc;
        }
        *out = &c->hdr;
        return 0;
    }
    if (rc == 0 && nproj == 0 && n > 0) {
        /* nothing read: one cheap column gives the row structure (the scan
         * has no zero-column projection) */
        c->proj[nproj++] = d->names[cheapest_column(d)];
    }
    if (rc == 0)
        rc = plan_scan(d, cons, ncons, c->proj, nproj, &c->scan, &c->filter_arena);
    int64_t count = 0;
    if (rc == 0 && used == 0 && ncons == 0 && plan_count(c->scan, &count) == 0)
        c->remaining = count; /* counting mode: no file is opened */
    else if (rc == 0)
        rc = floe_scan_to_stream(&c->stream, c->scan);
    if (rc == 0) /* for EXPLAIN */
        rc = record_read(d, c->remaining >= 0 ? NULL : c->proj, nproj);
    if (rc < 0) {
        data_close(&c->hdr);
        return rc;
    }
    *out = &c->hdr;
    return 0;
}

static int data_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                     floe_rowcursor **out)
{
    return data_open_projected(rs, cons, ncons, UINT64_MAX, out);
}

/* The scan stream's error, raised again with the code it carried: the
 * stream's text is "<FLOE_E* name>: <message>" (scan/read.c), so a data
 * file floe cannot read keeps FLOE_EUNSUPPORTED and prints as Java's
 * UnsupportedOperationException, not as an I/O failure. */
static int stream_error(data_cursor *c)
{
    int code = floe__scan_stream_error(&c->stream, "sql");
    if (code < 0)
        return code;
    const char *m = c->stream.get_last_error ? c->stream.get_last_error(&c->stream) : NULL;
    return floe__error(FLOE_EIO, "sql", "%s", m ? m : "reading the table failed");
}

static void release_batch(data_cursor *c)
{
    if (c->batch.release)
        c->batch.release(&c->batch);
    memset(&c->batch, 0, sizeof c->batch);
}

static int data_next(floe_rowcursor *base)
{
    data_cursor *c = (data_cursor *)base;
    if (c->remaining >= 0) {
        if (c->remaining == 0)
            return FLOE_ITEROVER;
        c->remaining--;
        c->row++;
        return 0;
    }
    if (c->batch.release && c->row + 1 < c->batch.length) {
        c->row++;
        return 0;
    }
    for (;;) {
        release_batch(c);
        int e = c->stream.get_next(&c->stream, &c->batch);
        if (e != 0) {
            return stream_error(c);
        }
        if (!c->batch.release)
            return FLOE_ITEROVER;
        if (c->batch.length > 0) {
            c->row = 0;
            return 0;
        }
    }
}

/* A nested column's cell: JSON text (sql/nested.c) or NULL. */
static int nested_cell(data_cursor *c, const data_rs *d, size_t col, int child, floe_rs_cell *out)
{
    const floe_type *t = d->types[col];
    const struct ArrowArray *a = c->batch.children[child];
    if (!floe__arrow_is_valid(a, c->row)) {
        *out = floe__rs_null(t->id);
        return 0;
    }
    FLOE_TRY(floe__sql_nested_json(a, t, c->row, d->s ? d->s->tz : NULL, &c->text));
    *out = floe__rs_json(t->id, c->text.ptr, c->text.len);
    return 0;
}

/* Cells straight from the batch's buffers for the common types, filled in
 * place (no floe_value constructor calls, no generic decoder): this runs
 * once per cell of every row SQLite reads. */
static int data_column(floe_rowcursor *base, size_t col, floe_rs_cell *out)
{
    data_cursor *c = (data_cursor *)base;
    data_rs *d = base->rs->impl;
    int child = c->child[col];
    const floe_type *t = d->types[col];
    floe_value *v = &out->value;
    out->json = NULL;
    out->json_len = 0;
    v->type = t->id;
    v->is_null = true;
    /* not projected (SQLite never asks), or v3 unknown: an Arrow null array,
     * no buffers, every value null */
    if (child < 0 || c->remaining >= 0 || t->id == FLOE_T_UNKNOWN)
        return 0;
    if (floe_type_is_nested(t))
        return nested_cell(c, d, col, child, out);
    const struct ArrowArray *a = c->batch.children[child];
    int64_t k = c->row + a->offset;
    const uint8_t *valid = a->null_count == 0 ? NULL : a->buffers[0];
    if (valid && !((valid[k >> 3] >> (k & 7)) & 1))
        return 0;
    v->is_null = false;
    const void *vb = a->buffers[1];
    switch (t->id) {
    case FLOE_T_LONG: v->v.i64 = ((const int64_t *)vb)[k]; return 0;
    case FLOE_T_INT:
    case FLOE_T_DATE: v->v.i32 = ((const int32_t *)vb)[k]; return 0;
    case FLOE_T_DOUBLE: v->v.f64 = ((const double *)vb)[k]; return 0;
    case FLOE_T_STRING: {
        const int32_t *off = vb;
        v->v.bytes.ptr = (const uint8_t *)a->buffers[2] + off[k];
        v->v.bytes.len = (size_t)(off[k + 1] - off[k]);
        return 0;
    }
    case FLOE_T_DECIMAL:
        if (d->scale[col] >= 0) { /* as double */
            /* one correctly rounded division (both operands exact for
             * precision <= 15), so the double reads back as the decimal */
            floe_i128 x;
            memcpy(&x, (const uint8_t *)vb + 16 * k, 16);
            v->type = FLOE_T_DOUBLE;
            v->v.f64 = (double)(int64_t)x / d->p10[col];
            return 0;
        }
        FLOE_TRY(floe__arrow_value_at(a, t, c->row, v));
        floe__buf_clear(&c->text); /* exact text */
        FLOE_TRY(floe_decimal_format(v->v.dec, v->scale, &c->text));
        v->type = FLOE_T_STRING;
        v->v.bytes.ptr = (const uint8_t *)c->text.ptr;
        v->v.bytes.len = c->text.len;
        return 0;
    default: return floe__arrow_value_at(a, t, c->row, v);
    }
}

static void data_close(floe_rowcursor *base)
{
    data_cursor *c = (data_cursor *)base;
    release_batch(c);
    if (c->stream.release)
        c->stream.release(&c->stream);
    floe_scan_free(c->scan);
    floe__arena_free(c->filter_arena);
    floe__buf_free(&c->text);
    floe__free(c->child);
    floe__free(c->proj);
    floe__free(c);
}

static void data_free(floe_rowsource *rs)
{
    data_rs *d = rs->impl;
    if (d->s)
        floe__sql_live_forget(d->s, rs);
    if (d->fns && d->fns->free)
        d->fns->free(d->payload);
    floe_table_free(d->table);
    floe_catalog_free(d->catalog);
    floe__metadata_free(d->schema_owner);
    floe__free(d->ident);
    floe__free(d->travel_text);
    floe__free(d->ref);
    floe__free(d->cols);
    floe__free(d->types);
    floe__free(d->scale);
    floe__free(d->p10);
    floe__free(d->names);
    floe__free(d->filter);
    floe__free(d->read);
    floe__free(d);
}

static const floe_rowsource_ops data_ops = {data_open, data_next, data_column, data_close,
                                            data_free};
static const floe_rowsource_ext data_ext = {data_open_projected, data_count};

static int data_source_new(floe_rowsource **out, floe_sql_session *s, const floe_sql_tref *r,
                           const char *ident, floe_table *t, floe_catalog *cat);

/* Spark's metadata columns of a data table (scan/read.c gives them). */
static const char *const meta_names[] = {"_file", "_pos", "_row_id",
                                         "_last_updated_sequence_number"};

/* Columns of the top-level fields of `sc` (borrowed: must outlive the
 * source): the mapping every data row source uses. With `meta`, the
 * metadata columns follow (_file, _pos and the v3 row lineage columns),
 * hidden (not part of SELECT *) and read only when a query uses them
 * (projection). */
static int init_columns(data_rs *d, const floe_schema *sc, bool meta)
{
    int rc = 0;
    d->schema = sc;
    size_t n = sc->root->nfields, nmeta = meta ? FLOE_ARRAY_LEN(meta_names) : 0;
    d->cols = floe__calloc(n + nmeta + 1, sizeof *d->cols);
    d->types = floe__calloc(n + nmeta + 1, sizeof(const floe_type *));
    d->scale = floe__calloc(n + nmeta + 1, sizeof *d->scale);
    d->p10 = floe__calloc(n + nmeta + 1, sizeof *d->p10);
    d->names = floe__calloc(n + nmeta + 1, sizeof *d->names);
    if (!d->cols || !d->types || !d->scale || !d->p10 || !d->names)
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const floe_field *f = &sc->root->fields[i];
        d->names[i] = f->name;
        d->types[i] = f->type;
        d->scale[i] = -1;
        d->cols[i].name = f->name;
        d->cols[i].type = f->type;
        d->cols[i].required = f->required;
        if (floe_type_is_nested(f->type)) /* JSON text (sql/nested.c), never pushed */
            continue;
        d->cols[i].push = FLOE_RS_PUSH_EQ | FLOE_RS_PUSH_RANGE;
        if (f->type->id == FLOE_T_DECIMAL) {
            if (f->type->precision <= 15) {
                d->cols[i].type = &t_double;
                d->scale[i] = f->type->scale;
                d->p10[i] = 1;
                for (int k = 0; k < f->type->scale; k++)
                    d->p10[i] *= 10;
            } /* wider: exact text with a numeric collation (vtab.c), pushed as decimals */
        }
    }
    size_t i = n;
    for (size_t m = 0; rc == 0 && m < nmeta; m++) {
        /* A table column of the same name hides the metadata column, as in
         * Spark (DataSourceV2Relation.metadataOutput). */
        bool hidden = false;
        for (size_t k = 0; k < n && !hidden; k++)
            hidden = strcasecmp(sc->root->fields[k].name, meta_names[m]) == 0;
        if (hidden)
            continue;
        d->names[i] = meta_names[m];
        d->types[i] = m == 0 ? &floe__rs_t_string : &floe__rs_t_long;
        d->scale[i] = -1;
        d->cols[i].name = d->names[i];
        d->cols[i].type = d->types[i];
        d->cols[i].required = m < 2; /* lineage: null before v3 */
        i++;
    }
    d->pub.ncolumns = i;
    d->pub.nhidden = i - n;
    d->pub.columns = d->cols;
    return rc;
}

int floe__sql_data_source(floe_rowsource **out, floe_sql_session *s, const floe_sql_tref *r,
                          const char *ident, floe_table *t)
{
    return data_source_new(out, s, r, ident, t, NULL);
}

void floe__sql_data_source_set_filter(floe_rowsource *rs, const struct floe_expr *e)
{
    if (rs && rs->ops == &data_ops)
        ((data_rs *)rs->impl)->fixed = e;
}

int floe__sql_data_source_table(floe_rowsource **out, floe_table *t, floe_catalog *cat,
                                bool has_snapshot_id, int64_t snapshot_id, const char *ref)
{
    floe_sql_tref r;
    memset(&r, 0, sizeof r);
    r.travel.kind = has_snapshot_id ? FLOE_SQLTT_SNAPSHOT : ref ? FLOE_SQLTT_REF : FLOE_SQLTT_NONE;
    r.travel.snapshot_id = snapshot_id;
    r.travel.ref = ref;
    return data_source_new(out, NULL, &r, floe_table_ident(t), t, cat);
}

/* s == NULL: a standalone source owning `t` and `cat` (also on failure). */
static int data_source_new(floe_rowsource **out, floe_sql_session *s, const floe_sql_tref *r,
                           const char *ident, floe_table *t, floe_catalog *cat)
{
    data_rs *d = floe__calloc(1, sizeof *d);
    if (!d) {
        if (!s) {
            floe_table_free(t);
            floe_catalog_free(cat);
        }
        return floe__error_nomem();
    }
    if (!s) {
        d->table = t;
        d->catalog = cat;
    }
    d->pub.ops = &data_ops;
    d->pub.ext = &data_ext;
    d->pub.impl = d;
    d->pub.name = "data";
    d->s = s;
    d->cat = s ? s->cur : 0;
    d->travel = r->travel;
    int rc = 0;
    if (!(d->ident = floe__strdup(ident)))
        rc = floe__error_nomem();
    const char *tt = r->travel.kind == FLOE_SQLTT_REF         ? r->travel.ref
                     : r->travel.kind == FLOE_SQLTT_TIMESTAMP ? r->travel.timestamp
                                                              : NULL;
    if (rc == 0 && tt && !(d->travel_text = floe__strdup(tt)))
        rc = floe__error_nomem();
    d->travel.ref = r->travel.kind == FLOE_SQLTT_REF ? d->travel_text : NULL;
    d->travel.timestamp = r->travel.kind == FLOE_SQLTT_TIMESTAMP ? d->travel_text : NULL;
    if (rc == 0 && (r->name.kind == FLOE_SQLREF_BRANCH || r->name.kind == FLOE_SQLREF_TAG) &&
        !(d->ref = floe__strdup(r->name.suffix)))
        rc = floe__error_nomem();
    d->ref_is_branch = r->name.kind == FLOE_SQLREF_BRANCH;
    /* Resolve once now: unknown snapshots and refs fail at analysis, as in
     * Spark, and the selection's schema gives the columns. */
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    floe_table *cur = t;
    if (rc == 0)
        rc = resolve(d, &cur, &o);
    if (rc == 0)
        rc = floe__table_read_metadata(floe_table_io(cur), floe_table_metadata_location(cur),
                                       &d->schema_owner);
    const floe_schema *sc = NULL;
    if (rc == 0) {
        sc = floe__metadata_current_schema(d->schema_owner);
        /* SnapshotUtil.schemaFor: a snapshot id or tag reads with its
         * snapshot's schema, a branch with the table's current one */
        floe_snapshot_selector sel;
        const floe_snapshot *sn = NULL;
        if (!d->travel.current_schema && floe__scan_options_selector(&o, &sel) &&
            floe__snapshot_selector_pins_schema(d->schema_owner, &sel) &&
            floe__snapshot_select(&sn, d->schema_owner, &sel, "sql") < 0) {
            floe_error_clear(); /* the scan reports it */
            sn = NULL;
        }
        const floe_schema *ps =
            sn && sn->has_schema_id ? floe__metadata_schema(d->schema_owner, sn->schema_id) : NULL;
        if (ps)
            sc = ps;
        if (!sc)
            rc = floe__error(FLOE_ECORRUPT, "sql", "table %s has no current schema", ident);
    }
    if (rc == 0)
        rc = init_columns(d, sc, true);
    if (rc < 0) {
        data_free(&d->pub);
        return rc;
    }
    *out = &d->pub;
    return 0;
}

int floe__sql_stream_source(floe_rowsource **out, floe_sql_session *s, const char *name,
                            const floe_schema *schema, const floe_sql_stream_fns *fns,
                            void *payload)
{
    data_rs *d = floe__calloc(1, sizeof *d);
    if (!d) {
        if (fns->free)
            fns->free(payload);
        return floe__error_nomem();
    }
    d->pub.ops = &data_ops;
    d->pub.impl = d;
    d->pub.name = name;
    d->s = s;
    d->fns = fns;
    d->payload = payload;
    int rc = init_columns(d, schema, false);
    if (rc < 0) {
        data_free(&d->pub);
        return rc;
    }
    *out = &d->pub;
    return 0;
}

/* A column's name as SQLite reports it (a case twin's up to its mark,
 * sqlfront.h) is `name`? */
static bool same_column(const char *name, const char *sqlite_name)
{
    const char *mark = strchr(sqlite_name, FLOE_SQL_TWIN_MARK);
    size_t n = mark ? (size_t)(mark - sqlite_name) : strlen(sqlite_name);
    return strncmp(name, sqlite_name, n) == 0 && name[n] == 0;
}

int floe__sql_data_hint(const floe_rowsource *rs, const char *column)
{
    if (rs->ops != &data_ops)
        return FLOE_SQL_HINT_NONE - 1;
    const data_rs *d = rs->impl;
    for (size_t i = 0; i < rs->ncolumns; i++)
        if (same_column(d->names[i], column))
            return d->types[i]->id == FLOE_T_BOOLEAN   ? FLOE_SQL_HINT_BOOL
                   : floe_type_is_nested(d->types[i])  ? FLOE_SQL_HINT_JSON
                   : d->types[i]->id == FLOE_T_DECIMAL ? d->types[i]->scale
                                                       : d->scale[i];
    return FLOE_SQL_HINT_NONE;
}

const floe_type *floe__sql_data_type(const floe_rowsource *rs, const char *column)
{
    if (rs->ops != &data_ops)
        return NULL;
    const data_rs *d = rs->impl;
    for (size_t i = 0; i < rs->ncolumns; i++)
        if (same_column(d->names[i], column))
            return d->types[i];
    return NULL;
}

int floe__sql_data_explain(const floe_rowsource *rs, const char *ident, floe_buf *out)
{
    if (rs->ops != &data_ops)
        return 1;
    const data_rs *d = rs->impl;
    if (d->fns)
        return d->fns->explain ? d->fns->explain(d->payload, out) : 1;
    FLOE_TRY(floe__buf_printf(out, "Iceberg scan %s.%s", d->s ? d->s->cats[d->cat].name : "floe",
                              ident));
    if (d->ref)
        FLOE_TRY(floe__buf_printf(out, " (ref=%s)", d->ref));
    else if (d->travel.kind == FLOE_SQLTT_REF)
        FLOE_TRY(floe__buf_printf(out, " (ref=%s)", d->travel.ref));
    else
        FLOE_TRY(floe__buf_puts(out, " (branch=null)"));
    if (!d->has_report)
        return floe__buf_puts(out, " [not planned]");
    const floe_scan_report *r = &d->report;
    if (r->snapshot_id >= 0)
        FLOE_TRY(floe__buf_printf(out, " snapshot=%lld", (long long)r->snapshot_id));
    else
        FLOE_TRY(floe__buf_puts(out, " snapshot=none"));
    FLOE_TRY(floe__buf_printf(
        out, " [filters=%s] manifests=%lld/%lld files=%lld/%lld", d->filter ? d->filter : "",
        (long long)(r->manifests_total - r->manifests_skipped), (long long)r->manifests_total,
        (long long)(r->data_files_total - r->data_files_skipped), (long long)r->data_files_total));
    if (d->read)
        FLOE_TRY(floe__buf_printf(out, " read=[%s]", d->read));
    return 0;
}

const floe_schema *floe__sql_data_schema(const floe_rowsource *rs)
{
    return rs->ops == &data_ops && !((const data_rs *)rs->impl)->fns
               ? ((const data_rs *)rs->impl)->schema
               : NULL;
}

int floe__sql_data_each_batch(floe_rowsource *rs, const struct floe_expr *filter,
                              const size_t *cols, size_t ncols, floe_sql_batch_fn fn, void *payload)
{
    if (rs->ops != &data_ops || ((data_rs *)rs->impl)->fns)
        return 1;
    data_rs *d = rs->impl;
    if (filter && ncols == 0)
        return 1; /* a filtered count reads a column (no counting from the plan) */
    uint64_t used = 0;
    for (size_t i = 0; i < ncols; i++) {
        if (cols[i] >= rs->ncolumns - rs->nhidden)
            return 1;
        used |= (uint64_t)1 << (cols[i] < 63 ? cols[i] : 63);
    }
    const struct ArrowArray **arrays =
        floe__calloc(ncols ? ncols : 1, sizeof(const struct ArrowArray *));
    if (!arrays)
        return floe__error_nomem();
    floe_rowcursor *base = NULL;
    /* the filter is the scan's for this read only: SQLite's reads of the
     * same live table keep their pushed constraints */
    const struct floe_expr *fixed = d->fixed;
    if (filter)
        d->fixed = filter;
    int rc = data_open_projected(rs, NULL, 0, used, &base);
    d->fixed = fixed;
    data_cursor *c = (data_cursor *)base;
    if (rc == 0 && c->remaining >= 0) { /* counted from the manifests */
        rc = fn(payload, NULL, c->remaining);
    } else {
        while (rc == 0) {
            release_batch(c);
            if (c->stream.get_next(&c->stream, &c->batch) != 0) {
                rc = stream_error(c);
                break;
            }
            if (!c->batch.release)
                break;
            if (c->batch.length == 0)
                continue;
            for (size_t i = 0; i < ncols; i++)
                arrays[i] = c->batch.children[c->child[cols[i]]];
            rc = fn(payload, ncols ? arrays : NULL, c->batch.length);
        }
    }
    if (base)
        data_close(base);
    floe__free(arrays);
    return rc;
}

/* Does `text` name `word` as a whole identifier (case-insensitive)? */
static bool names_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; p && *p; p++) {
        if (strncasecmp(p, word, n) != 0)
            continue;
        char before = p == text ? ' ' : p[-1], after = p[n];
        bool inner = (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
                     (before >= '0' && before <= '9') || before == '_' ||
                     (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
                     (after >= '0' && after <= '9') || after == '_';
        if (!inner)
            return true;
    }
    return false;
}

bool floe__sql_text_wants_meta(const char *text)
{
    for (size_t i = 0; text && i < FLOE_ARRAY_LEN(meta_names); i++)
        if (names_word(text, meta_names[i]))
            return true;
    return false;
}
