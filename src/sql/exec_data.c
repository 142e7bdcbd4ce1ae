/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_data: an Iceberg table's rows as a row source (meta/rowsource.h)
 * for the SQL shell's virtual tables: a small adapter from the scan's Arrow
 * stream (include/floe/scan.h) to rows.
 *
 * The source is bound to a table name and a selection (main, a snapshot id,
 * a ref, a timestamp, a branch or tag suffix) and resolves it at each open
 * through the session's table cache, so a temporary view over a table sees
 * what a fresh query would (or, with cache-enabled=true, what Java's cached
 * table would). SQLite's =, <, <=, >, >= constraints on primitive columns
 * become the scan's filter (partition and metrics pruning); SQLite still
 * checks them on every row. Each open records the scan's plan report for
 * EXPLAIN.
 *
 * Decimals of precision <= 15 are exposed as doubles (exact at their scale
 * for display, so comparisons such as `amount <= 0` are numeric); wider
 * decimals as exact text.
 */
#include "sql/exec_data.h"

#include <string.h>
#include <strings.h>

#include "floe/scan.h"
#include "meta/rowsource.h"
#include "scan/scan.h"
#include "sql/exec_int.h"
#include "spec/metadata.h"
#include "spec/value.h"
#include "table/table.h"

static const floe_type t_double = {.id = FLOE_T_DOUBLE};

typedef struct data_rs {
    floe_rowsource pub;
    floe_sql_session *s; /* borrowed: the session outlives its virtual tables */
    char *ident;
    floe_sql_travel travel; /* strings owned below */
    char *travel_text;
    char *ref; /* branch/tag suffix */
    floe_table_metadata *schema_owner; /* the metadata whose schema types the columns use */
    floe_rs_column *cols;
    const floe_type **types; /* Iceberg type per column (what the scan returns) */
    int *scale;               /* display scale of decimal-as-double columns, else -1 */
    const char **names;
    /* last plan, for EXPLAIN */
    floe_scan_report report;
    bool has_report;
    /* the hidden metadata columns _file and _pos (the last two) are read
     * only when a statement asks for them (floe__sql_data_want_meta) */
    bool want_meta;
    char *filter;
    int64_t snapshot;
} data_rs;

typedef struct data_cursor {
    floe_rowcursor hdr;
    floe_scan *scan;
    struct ArrowArrayStream stream;
    struct ArrowArray batch;
    int64_t row;
    floe_buf text; /* wide decimal cell text */
} data_cursor;

static int resolve(data_rs *d, floe_table **t, floe_scan_options *o)
{
    floe_sql_session *s = d->s;
    o->progress = s->progress;
    o->progress_payload = s->progress_payload;
    FLOE_TRY(floe__sql_get_table(s, d->ident, t));
    floe_snapshot_info si;
    int rc = 0;
    switch (d->travel.kind) {
    case FLOE_SQLTT_NONE:
        if (d->ref) {
            o->ref = d->ref;
            rc = floe_table_snapshot_by_ref(*t, d->ref, &si);
        } else {
            const char *wap = floe__sql_session_option(s, "spark.wap.branch");
            if (wap) {
                o->ref = wap;
                rc = floe_table_snapshot_by_ref(*t, wap, &si);
            }
        }
        break;
    case FLOE_SQLTT_SNAPSHOT:
        rc = floe_table_snapshot_by_id(*t, d->travel.snapshot_id, &si);
        o->has_snapshot_id = true;
        o->snapshot_id = d->travel.snapshot_id;
        break;
    case FLOE_SQLTT_REF:
        rc = floe_table_snapshot_by_ref(*t, d->travel.ref, &si);
        o->ref = d->travel.ref;
        break;
    case FLOE_SQLTT_TIMESTAMP: {
        int64_t ms = 0;
        rc = floe__time_parse(d->travel.timestamp, d->travel.timestamp_utc ? NULL : s->tz, &ms);
        if (rc == 0)
            rc = floe_table_snapshot_as_of_time(*t, ms, &si);
        if (rc == 0) {
            o->has_snapshot_id = true;
            o->snapshot_id = si.snapshot_id;
        }
        break;
    }
    }
    if (rc < 0 && !s->error_class)
        s->error_class = "IllegalArgumentException";
    return rc;
}

/* One pushed constraint as scan filter text; false when not expressible. */
static int filter_term(floe_buf *b, const char *col, floe_rs_op op, const floe_value *v,
                       int scale, bool *added)
{
    static const char *const ops[] = {"", "=", "<", "<=", ">", ">="};
    floe_buf lit = FLOE_BUF_INIT;
    int rc = 0;
    *added = false;
    switch (v->type) {
    case FLOE_T_INT: rc = floe__buf_printf(&lit, "%d", (int)v->v.i32); break;
    case FLOE_T_LONG: rc = floe__buf_printf(&lit, "%lld", (long long)v->v.i64); break;
    case FLOE_T_BOOLEAN: rc = floe__buf_puts(&lit, v->v.b ? "TRUE" : "FALSE"); break;
    case FLOE_T_DOUBLE:
        if (scale >= 0) /* a decimal column seen as double: compare at its scale */
            rc = floe__buf_printf(&lit, "%.*f", scale, v->v.f64);
        else
            rc = floe__buf_printf(&lit, "%.17g", v->v.f64);
        break;
    case FLOE_T_STRING:
    case FLOE_T_DATE:
        if (v->type == FLOE_T_DATE) {
            floe_buf f = FLOE_BUF_INIT;
            rc = floe_value_format(v, &f);
            if (rc == 0)
                rc = floe__buf_printf(&lit, "'%s'", f.ptr);
            floe__buf_free(&f);
            break;
        }
        rc = floe__buf_putc(&lit, '\'');
        for (size_t i = 0; rc == 0 && i < v->v.bytes.len; i++) {
            char ch = (char)v->v.bytes.ptr[i];
            if (ch == '\'')
                rc = floe__buf_putc(&lit, '\'');
            if (rc == 0)
                rc = floe__buf_putc(&lit, ch);
        }
        if (rc == 0)
            rc = floe__buf_putc(&lit, '\'');
        break;
    default: floe__buf_free(&lit); return 0; /* timestamps, binary: SQLite filters alone */
    }
    if (rc == 0) {
        if (b->len)
            rc = floe__buf_puts(b, " AND ");
        /* plain names stay bare (readable in EXPLAIN); others are quoted */
        bool plain = (*col >= 'a' && *col <= 'z') || (*col >= 'A' && *col <= 'Z') || *col == '_';
        for (const char *p = col; plain && *p; p++)
            plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
                    (*p >= '0' && *p <= '9');
        if (rc == 0 && !plain)
            rc = floe__buf_putc(b, '"');
        for (const char *p = col; rc == 0 && *p; p++)
            rc = *p == '"' ? floe__buf_puts(b, "\"\"") : floe__buf_putc(b, *p);
        if (rc == 0)
            rc = floe__buf_printf(b, "%s %s %s", plain ? "" : "\"", ops[op], lit.ptr);
        *added = rc == 0;
    }
    floe__buf_free(&lit);
    return rc;
}

static int data_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                     floe_rowcursor **out)
{
    data_rs *d = rs->impl;
    floe_table *t = NULL;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    FLOE_TRY(resolve(d, &t, &o));
    floe_buf filter = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < ncons; i++) {
        bool added;
        rc = filter_term(&filter, d->names[cons[i].column], cons[i].op, &cons[i].value,
                         d->scale[cons[i].column], &added);
    }
    data_cursor *c = floe__calloc(1, sizeof *c);
    if (rc == 0 && !c)
        rc = floe__error_nomem();
    if (rc == 0) {
        o.filter = filter.len ? filter.ptr : NULL;
        o.columns = d->names;
        o.ncolumns = d->pub.ncolumns - (d->want_meta ? 0 : 2);
        o.io_conf = &d->s->conf;
        rc = floe_scan_open(&c->scan, floe_table_io(t), floe_table_metadata_location(t), &o);
    }
    if (rc == 0) {
        d->report = *floe_scan_get_report(c->scan);
        d->has_report = true;
        floe__free(d->filter);
        d->filter = filter.len ? floe__strdup(filter.ptr) : NULL;
        rc = floe_scan_to_stream(c->scan, &c->stream);
    }
    floe__buf_free(&filter);
    if (rc < 0) {
        if (c)
            floe_scan_free(c->scan);
        floe__free(c);
        return rc;
    }
    c->row = -1;
    *out = &c->hdr;
    return 0;
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
    for (;;) {
        if (c->batch.release && c->row + 1 < c->batch.length) {
            c->row++;
            return 0;
        }
        release_batch(c);
        int e = c->stream.get_next(&c->stream, &c->batch);
        if (e != 0) {
            const char *m = c->stream.get_last_error ? c->stream.get_last_error(&c->stream) : NULL;
            return floe__error(FLOE_EIO, "sql", "%s", m ? m : "reading the table failed");
        }
        if (!c->batch.release)
            return FLOE_ITEROVER;
        c->row = -1;
    }
}

static int data_column(floe_rowcursor *base, size_t col, floe_rs_cell *out)
{
    data_cursor *c = (data_cursor *)base;
    data_rs *d = base->rs->impl;
    floe_value v;
    if ((int64_t)col >= c->batch.n_children) { /* metadata column not read */
        *out = floe__rs_cell(floe_value_null(d->types[col]->id));
        return 0;
    }
    FLOE_TRY(floe__scan_arrow_value(c->batch.children[col], d->types[col], c->row, &v));
    if (!v.is_null && d->types[col]->id == FLOE_T_DECIMAL) {
        if (d->scale[col] >= 0) { /* as double */
            /* one correctly rounded division (both operands exact for
             * precision <= 15), so the double reads back as the decimal */
            double p10 = 1;
            for (int i = 0; i < v.scale; i++)
                p10 *= 10;
            double x = (double)v.v.dec / p10;
            v.type = FLOE_T_DOUBLE;
            v.v.f64 = x;
        } else { /* exact text */
            floe__buf_clear(&c->text);
            FLOE_TRY(floe_decimal_format(v.v.dec, v.scale, &c->text));
            v.type = FLOE_T_STRING;
            v.v.bytes.ptr = (const uint8_t *)c->text.ptr;
            v.v.bytes.len = c->text.len;
        }
    }
    *out = floe__rs_cell(v);
    return 0;
}

static void data_close(floe_rowcursor *base)
{
    data_cursor *c = (data_cursor *)base;
    release_batch(c);
    if (c->stream.release)
        c->stream.release(&c->stream);
    floe_scan_free(c->scan);
    floe__buf_free(&c->text);
    floe__free(c);
}

static void data_free(floe_rowsource *rs)
{
    data_rs *d = rs->impl;
    floe__sql_live_forget(d->s, rs);
    floe__metadata_free(d->schema_owner);
    floe__free(d->ident);
    floe__free(d->travel_text);
    floe__free(d->ref);
    floe__free(d->cols);
    floe__free(d->types);
    floe__free(d->scale);
    floe__free(d->names);
    floe__free(d->filter);
    floe__free(d);
}

static const floe_rowsource_ops data_ops = {data_open, data_next, data_column, data_close,
                                            data_free};

int floe__sql_data_source(floe_rowsource **out, floe_sql_session *s, const floe_sql_tref *r,
                          const char *ident, floe_table *t)
{
    data_rs *d = floe__calloc(1, sizeof *d);
    if (!d)
        return floe__error_nomem();
    d->pub.ops = &data_ops;
    d->pub.impl = d;
    d->pub.name = "data";
    d->s = s;
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
        int64_t pinned = -1;
        floe_snapshot_info si;
        if (o.has_snapshot_id)
            pinned = o.snapshot_id;
        else if (o.ref && floe_table_snapshot_by_ref(cur, o.ref, &si) == 0)
            pinned = si.snapshot_id;
        for (size_t i = 0; pinned >= 0 && i < d->schema_owner->nsnapshots; i++) {
            const floe_snapshot *sn = &d->schema_owner->snapshots[i];
            if (sn->snapshot_id == pinned && sn->has_schema_id) {
                const floe_schema *ps = floe__metadata_schema(d->schema_owner, sn->schema_id);
                if (ps)
                    sc = ps;
            }
        }
        if (!sc)
            rc = floe__error(FLOE_ECORRUPT, "sql", "table %s has no current schema", ident);
    }
    size_t n = sc ? sc->root->nfields : 0;
    if (rc == 0) {
        d->cols = floe__calloc(n + 2, sizeof *d->cols);
        d->types = floe__calloc(n + 2, sizeof *d->types);
        d->scale = floe__calloc(n + 2, sizeof *d->scale);
        d->names = floe__calloc(n + 2, sizeof *d->names);
        if (!d->cols || !d->types || !d->scale || !d->names)
            rc = floe__error_nomem();
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const floe_field *f = &sc->root->fields[i];
        d->names[i] = f->name;
        d->types[i] = f->type;
        d->scale[i] = -1;
        d->cols[i].name = f->name;
        d->cols[i].type = f->type;
        d->cols[i].required = f->required;
        bool nested = f->type->id == FLOE_T_STRUCT || f->type->id == FLOE_T_LIST ||
                      f->type->id == FLOE_T_MAP;
        if (nested) {
            rc = floe__error(FLOE_EUNSUPPORTED, "sql",
                             "reading nested column %s is not supported yet", f->name);
            break;
        }
        d->cols[i].push = FLOE_RS_PUSH_EQ | FLOE_RS_PUSH_RANGE;
        if (f->type->id == FLOE_T_DECIMAL) {
            if (f->type->precision <= 15) {
                d->cols[i].type = &t_double;
                d->scale[i] = f->type->scale;
            } else {
                d->cols[i].push = 0;
            }
        }
    }
    /* Spark's metadata columns _file and _pos (hidden: not in SELECT *) */
    for (size_t m = 0; rc == 0 && m < 2; m++) {
        size_t i = n + m;
        d->names[i] = m == 0 ? "_file" : "_pos";
        d->types[i] = m == 0 ? &floe__rs_t_string : &floe__rs_t_long;
        d->scale[i] = -1;
        d->cols[i].name = d->names[i];
        d->cols[i].type = d->types[i];
        d->cols[i].required = true;
    }
    d->pub.ncolumns = n + 2;
    d->pub.nhidden = 2;
    d->pub.columns = d->cols;
    if (rc < 0) {
        data_free(&d->pub);
        return rc;
    }
    *out = &d->pub;
    return 0;
}

int floe__sql_data_hint(const floe_rowsource *rs, const char *column)
{
    if (rs->ops != &data_ops)
        return FLOE_SQL_HINT_NONE - 1;
    const data_rs *d = rs->impl;
    for (size_t i = 0; i < rs->ncolumns; i++)
        if (strcmp(d->names[i], column) == 0)
            return d->types[i]->id == FLOE_T_BOOLEAN ? FLOE_SQL_HINT_BOOL : d->scale[i];
    return FLOE_SQL_HINT_NONE;
}

const floe_type *floe__sql_data_type(const floe_rowsource *rs, const char *column)
{
    if (rs->ops != &data_ops)
        return NULL;
    const data_rs *d = rs->impl;
    for (size_t i = 0; i < rs->ncolumns; i++)
        if (strcmp(d->names[i], column) == 0)
            return d->types[i];
    return NULL;
}

int floe__sql_data_explain(const floe_rowsource *rs, const char *ident, floe_buf *out)
{
    if (rs->ops != &data_ops)
        return 1;
    const data_rs *d = rs->impl;
    FLOE_TRY(floe__buf_printf(out, "Iceberg scan %s.%s", d->s->catalog_name, ident));
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
    FLOE_TRY(floe__buf_printf(out, " [filters=%s] manifests=%lld/%lld files=%lld/%lld",
                              d->filter ? d->filter : "",
                              (long long)(r->manifests_total - r->manifests_skipped),
                              (long long)r->manifests_total,
                              (long long)(r->data_files_total - r->data_files_skipped),
                              (long long)r->data_files_total));
    return 0;
}

void floe__sql_data_want_meta(struct floe_rowsource *rs, bool on)
{
    if (rs->ops == &data_ops)
        ((data_rs *)rs->impl)->want_meta = on;
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
    return text && (names_word(text, "_file") || names_word(text, "_pos"));
}
