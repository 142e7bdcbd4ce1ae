/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_insert: INSERT INTO t [(cols)] VALUES ... | SELECT ... and the
 * rows of CREATE TABLE ... AS SELECT. SQLite computes the rows; each value
 * is converted exactly to its Iceberg column type (decimals parsed from
 * their text at the column's scale, dates and timestamps from floe's text
 * forms, timestamptz in the session time zone), gathered into Arrow batches
 * and written through one floe_append (INSERT OVERWRITE: one dynamic
 * partition overwrite, floe_rowlevel): one statement = one snapshot, on
 * main, on the target's branch (t.branch_x) or on spark.wap.branch; with
 * spark.wap.id and write.wap.enabled=true the snapshot is staged.
 */
#include "arrow/arrow.h"
#include "spec/metadata.h"
#include "sql/exec_int.h"
#include "sql/nested.h"
#include "table/table.h"
#include "util/civil.h"
#include "util/progress.h"
#include "util/time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_ROWS 65536

static const char *floe__sql_type_name(const floe_type *t)
{
    switch (t->id) {
    case FLOE_T_BOOLEAN: return "boolean";
    case FLOE_T_INT: return "int";
    case FLOE_T_LONG: return "bigint";
    case FLOE_T_FLOAT: return "float";
    case FLOE_T_DOUBLE: return "double";
    case FLOE_T_DECIMAL: return "decimal";
    case FLOE_T_DATE: return "date";
    case FLOE_T_TIMESTAMP: return "timestamp_ntz";
    case FLOE_T_TIMESTAMPTZ: return "timestamp";
    case FLOE_T_TIMESTAMP_NS: return "timestamp_ns";
    case FLOE_T_TIMESTAMPTZ_NS: return "timestamptz_ns";
    case FLOE_T_STRING: return "string";
    case FLOE_T_BINARY: return "binary";
    case FLOE_T_UNKNOWN: return "void";
    default: return "a nested or v3 type";
    }
}

static int cast_error(floe_sql_session *s, const char *text, const floe_field *f)
{
    return floe__sql_fail(s,
                          floe__error(FLOE_EINVALID, "sql",
                                      "Cannot safely cast '%s': value '%s' does not fit type %s",
                                      f->name, text ? text : "", floe__sql_type_name(f->type)),
                          "AnalysisException");
}

/* Decimal text ("-1.5", "120", "1e2" refused) -> unscaled at `scale`,
 * rounding half up beyond the scale; false when malformed or too wide. */
static bool parse_decimal(const char *s, int32_t precision, int32_t scale, floe_i128 *out)
{
    bool neg = false;
    while (*s == ' ')
        s++;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    __extension__ unsigned __int128 v = 0;
    int digits = 0, frac = 0;
    bool dot = false, any = false, round_up = false;
    for (; *s; s++) {
        if (*s == '.' && !dot) {
            dot = true;
            continue;
        }
        if (*s < '0' || *s > '9')
            break;
        any = true;
        if (dot && frac >= scale) {
            if (frac == scale && *s >= '5')
                round_up = true;
            frac++;
            continue;
        }
        v = v * 10 + (unsigned)(*s - '0');
        if (v)
            digits++;
        if (dot)
            frac++;
        if (digits > 38)
            return false;
    }
    while (*s == ' ')
        s++;
    if (!any || *s)
        return false;
    for (; frac < scale; frac++) {
        v *= 10;
        if (v)
            digits++;
    }
    if (round_up)
        v += 1;
    /* precision check: v < 10^precision */
    __extension__ unsigned __int128 lim = 1;
    for (int i = 0; i < precision; i++)
        lim *= 10;
    if (v >= lim)
        return false;
    *out = neg ? -(floe_i128)v : (floe_i128)v;
    return true;
}

int floe__sql_convert_value(floe_sql_session *s, sqlite3_value *sv, const floe_field *f,
                            floe_value *out)
{
    floe_sql_scalar x;
    memset(&x, 0, sizeof x);
    x.type = sqlite3_value_type(sv);
    if (x.type == SQLITE_INTEGER)
        x.i = sqlite3_value_int64(sv);
    else if (x.type == SQLITE_FLOAT)
        x.d = sqlite3_value_double(sv);
    if (x.type == SQLITE_BLOB) {
        x.text = sqlite3_value_blob(sv);
        x.len = (size_t)sqlite3_value_bytes(sv);
    } else if (x.type != SQLITE_NULL) {
        x.text = (const char *)sqlite3_value_text(sv);
        x.len = (size_t)sqlite3_value_bytes(sv);
    }
    /* a BLOB into a non-binary column is read as its text */
    if (x.type == SQLITE_BLOB && f->type->id != FLOE_T_BINARY) {
        x.text = (const char *)sqlite3_value_text(sv);
        x.len = (size_t)sqlite3_value_bytes(sv);
    }
    return floe__sql_convert_scalar(s, &x, f, out);
}

int floe__sql_convert_scalar(floe_sql_session *s, const floe_sql_scalar *x, const floe_field *f,
                             floe_value *out)
{
    memset(out, 0, sizeof *out);
    const floe_type *t = f->type;
    out->type = t->id;
    int st = x->type;
    if (st == SQLITE_NULL) {
        if (f->required)
            return floe__sql_fail(s,
                                  floe__error(FLOE_EINVALID, "sql",
                                              "Cannot write nullable values to non-null column '%s'",
                                              f->name),
                                  "AnalysisException");
        out->is_null = true;
        return 0;
    }
    const char *text = x->text;
    switch (t->id) {
    case FLOE_T_BOOLEAN:
        if (st == SQLITE_INTEGER)
            out->v.b = x->i != 0;
        else if (text && strcasecmp(text, "true") == 0)
            out->v.b = true;
        else if (text && strcasecmp(text, "false") == 0)
            out->v.b = false;
        else
            return cast_error(s, text, f);
        return 0;
    case FLOE_T_INT:
    case FLOE_T_LONG: {
        int64_t v;
        if (st == SQLITE_INTEGER) {
            v = x->i;
        } else {
            char *end = NULL;
            double d = st == SQLITE_FLOAT ? x->d : strtod(text, &end);
            if ((end && (end == text || *end)) || d != (double)(int64_t)d)
                return cast_error(s, text, f);
            v = (int64_t)d;
        }
        if (t->id == FLOE_T_INT && (v < INT32_MIN || v > INT32_MAX))
            return cast_error(s, text, f);
        if (t->id == FLOE_T_INT)
            out->v.i32 = (int32_t)v;
        else
            out->v.i64 = v;
        return 0;
    }
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE: {
        double d;
        if (st == SQLITE_INTEGER || st == SQLITE_FLOAT) {
            d = st == SQLITE_INTEGER ? (double)x->i : x->d;
        } else {
            char *end = NULL;
            d = strtod(text, &end);
            if (end == text || *end)
                return cast_error(s, text, f);
        }
        if (t->id == FLOE_T_FLOAT)
            out->v.f32 = (float)d;
        else
            out->v.f64 = d;
        return 0;
    }
    case FLOE_T_DECIMAL:
        out->scale = t->scale;
        if (!parse_decimal(text, t->precision, t->scale, &out->v.dec))
            return cast_error(s, text, f);
        return 0;
    case FLOE_T_DATE: {
        unsigned y, m, d;
        char tail;
        if (!text || sscanf(text, "%4u-%2u-%2u%c", &y, &m, &d, &tail) != 3 || m < 1 || m > 12 ||
            d < 1 || d > 31)
            return cast_error(s, text, f);
        out->v.i32 = (int32_t)floe__days_from_civil(y, m, d);
        return 0;
    }
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: {
        const floe_tz *tz =
            t->id == FLOE_T_TIMESTAMPTZ || t->id == FLOE_T_TIMESTAMPTZ_NS ? s->tz : NULL;
        bool ns = t->id == FLOE_T_TIMESTAMP_NS || t->id == FLOE_T_TIMESTAMPTZ_NS;
        int64_t v = 0;
        if (!text ||
            (ns ? floe__time_parse_ns(text, tz, &v) : floe__time_parse_us(text, tz, &v)) < 0)
            return cast_error(s, text, f);
        out->v.i64 = v;
        return 0;
    }
    case FLOE_T_STRING:
        out->v.bytes.ptr = (const uint8_t *)(text ? text : "");
        out->v.bytes.len = x->len;
        return 0;
    case FLOE_T_BINARY:
        out->v.bytes.ptr = (const uint8_t *)(text ? text : "");
        out->v.bytes.len = x->len;
        return 0;
    case FLOE_T_UNKNOWN: return cast_error(s, text, f); /* only NULL fits (Spark: VOID) */
    default:
        return floe__sql_fail(s,
                              floe__error(FLOE_EUNSUPPORTED, "sql",
                                          "INSERT into a column of type %s is not supported yet",
                                          floe__sql_type_name(t)),
                              "UnsupportedOperationException");
    }
}

/* Bytes of the rows gathered in a builder (its Arrow buffers): the
 * progress report's measure of data converted, before Parquet encoding. */
static uint64_t builder_bytes(const floe_arrow_builder *b)
{
    uint64_t n = b->validity.len + b->values.len + b->offsets.len + b->data.len;
    for (size_t i = 0; i < b->nchildren; i++)
        n += builder_bytes(b->children[i]);
    return n;
}

/* Progress of the rows (the session's callback; total unknown, SQLite
 * produces them one by one), reported every PROGRESS_ROWS rows. */
#define PROGRESS_ROWS 1024

typedef struct insert_progress {
    floe__progress p;
    uint64_t rows, bytes; /* reported so far */
    uint64_t flushed;     /* bytes of the batches already written */
} insert_progress;

static void count_rows(insert_progress *ip, const floe_arrow_builder *b, uint64_t rows)
{
    uint64_t bytes = ip->flushed + builder_bytes(b);
    floe__progress_add(&ip->p, rows - ip->rows, bytes - ip->bytes);
    ip->rows = rows;
    ip->bytes = bytes;
}

/* Rows go to an append, or to an INSERT OVERWRITE: as in Spark, by the
 * session's spark.sql.sources.partitionOverwriteMode — `static` (Spark's
 * default; without a PARTITION clause every row of the table is replaced:
 * a copy-on-write delete of everything plus the new rows, Iceberg's
 * overwriteByFilter(true)) or `dynamic` (floe_rowlevel kind
 * OVERWRITE_DYNAMIC: the partitions the new rows land in, docs/rowlevel.md). */
static int flush(floe_append *ap, floe_rowlevel *rl, floe_arrow_builder *b)
{
    if (b->length == 0)
        return 0;
    struct ArrowArray arr;
    memset(&arr, 0, sizeof arr);
    FLOE_TRY(floe__arrow_builder_finish(b, &arr));
    int rc = rl ? floe_rowlevel_write(rl, &arr) : floe_append_write(ap, &arr);
    if (arr.release)
        arr.release(&arr);
    floe__arrow_builder_reset(b);
    return rc;
}

/* Load the table a write statement targets, opened on the branch it writes
 * with the session's spark.wap.id, so every write lands where the statement
 * says. The branch is Spark's SparkWriteConf.branch(): the target's
 * (t.branch_x) unless the table has write.wap.enabled=true and the session
 * sets spark.wap.branch, which then names it (created from main's head on
 * the first write when missing, as Java's SnapshotProducer does); both
 * spark.wap.id and spark.wap.branch, or spark.wap.branch and t.branch_x,
 * are refused with Spark's ValidationException. Without
 * write.wap.enabled=true both session keys are ignored, as in Spark. */
int floe__sql_load_target(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                          floe_table **t)
{
    floe_table_options o = *floe__sql_table_options(s);
    const char *branch = st->target.kind == FLOE_SQLREF_BRANCH ? st->target.suffix : NULL;
    const char *wap_id = floe__sql_session_option(s, "spark.wap.id");
    const char *wap_branch = floe__sql_session_option(s, "spark.wap.branch");
    *t = NULL;
    bool enabled = false;
    int rc = 0;
    if (wap_branch && (rc = floe__sql_wap_enabled(s, ident, &enabled)) < 0)
        return rc;
    if (enabled && (wap_id || branch)) { /* SparkWriteConf.branch()'s two checks */
        bool id = wap_id != NULL;
        return floe__sql_classify(
            s, floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "sql", "%s [%s] and %s [%s]",
                              id ? "Cannot set both WAP ID and branch, but got ID"
                                 : "Cannot write to both branch and WAP branch, "
                                   "but got branch",
                              id ? wap_id : branch, id ? "branch" : "WAP branch", wap_branch));
    }
    o.branch = enabled ? wap_branch : branch;
    o.create_branch = enabled;
    o.wap_id = wap_id;
    rc = floe_table_load(t, s->catalog, ident, &o);
    return rc == FLOE_ENOTFOUND ? floe__sql_classify(s, rc) : rc;
}

int floe__sql_insert_query(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                           const floe_sql_query *q, const char *const *columns, size_t ncolumns,
                           floe_arena *a)
{
    FLOE_UNUSED(a);
    floe_table *t = NULL;
    int rc = floe__sql_load_target(s, st, ident, &t);
    if (rc == 0)
        rc = floe__sql_insert_into(s, st, t, ident, q, columns, ncolumns);
    if (rc == 0)
        rc = floe__sql_table_committed(s, t);
    floe_table_free(t);
    return rc;
}

int floe__sql_insert_into(floe_sql_session *s, const floe_sql_stmt *st, floe_table *t,
                          const char *ident, const floe_sql_query *q,
                          const char *const *columns, size_t ncolumns)
{
    int rc = 0;
    const floe_schema *sc = floe__metadata_current_schema(t->metadata);
    size_t nf = sc->root->nfields;
    /* map: table field i <- query column map[i] (or -1: NULL) */
    int *map = floe__calloc(nf ? nf : 1, sizeof *map);
    sqlite3_stmt *qs = NULL;
    floe_arrow_builder *b = NULL;
    floe_append *ap = NULL;
    floe_rowlevel *rl = NULL;
    bool overwrite = st->kind == FLOE_SQL_INSERT && st->overwrite;
    insert_progress ip = {.rows = 0};
    uint64_t nrows = 0;
    floe__progress_init(&ip.p, s->progress, s->progress_payload, "writing rows", 0, 0);
    if (!map) {
        rc = floe__error_nomem();
        goto done;
    }
    size_t expect = ncolumns ? ncolumns : nf;
    for (size_t i = 0; i < nf; i++)
        map[i] = ncolumns ? -1 : (int)i;
    for (size_t k = 0; k < ncolumns; k++) {
        size_t i = 0;
        while (i < nf && strcasecmp(sc->root->fields[i].name, columns[k]) != 0)
            i++;
        if (i == nf) {
            rc = floe__sql_fail(s,
                                floe__error(FLOE_EINVALID, "sql",
                                            "Cannot find column '%s' of table %s", columns[k],
                                            ident),
                                "AnalysisException");
            goto done;
        }
        map[i] = (int)k;
    }
    if (sqlite3_prepare_v2(s->db, q->sql, -1, &qs, NULL) != SQLITE_OK || !qs) {
        rc = floe__sql_sqlite_fail(s);
        goto done;
    }
    if ((size_t)sqlite3_column_count(qs) != expect) {
        rc = floe__sql_fail(s,
                            floe__error(FLOE_EINVALID, "sql",
                                        "Cannot write to '%s.%s', %s data columns: table has %zu "
                                        "column(s), the data has %d",
                                        s->catalog_name, ident,
                                        (size_t)sqlite3_column_count(qs) > expect ? "too many"
                                                                                  : "not enough",
                                        expect, sqlite3_column_count(qs)),
                            "AnalysisException");
        goto done;
    }
    if ((rc = floe__arrow_builder_new(&b, sc->root)) < 0)
        goto done;
    if (overwrite) {
        const char *m = floe__sql_session_option(s, "spark.sql.sources.partitionOverwriteMode");
        if (m && strcasecmp(m, "static") != 0 && strcasecmp(m, "dynamic") != 0) {
            rc = floe__sql_fail(s,
                                floe__error(FLOE_EINVALID, "sql",
                                            "The value of spark.sql.sources."
                                            "partitionOverwriteMode should be one of STATIC, "
                                            "DYNAMIC, but was %s",
                                            m),
                                "IllegalArgumentException");
            goto done;
        }
        bool dynamic = m && strcasecmp(m, "dynamic") == 0;
        floe_rowlevel_options ro = FLOE_ROWLEVEL_OPTIONS_INIT;
        ro.kind = dynamic ? FLOE_ROWLEVEL_OVERWRITE_DYNAMIC : FLOE_ROWLEVEL_DELETE;
        ro.mode = FLOE_ROWLEVEL_MODE_COPY_ON_WRITE;
        rc = floe_rowlevel_new(&rl, t, &ro);
        if (rc == 0 && !dynamic)
            rc = floe_rowlevel_delete_where(rl, NULL);
    } else {
        rc = floe_append_new(&ap, t);
    }
    if (rc < 0)
        goto done;
    for (;;) {
        int r = sqlite3_step(qs);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = floe__sql_fail(s, floe__error(FLOE_EINVALID, "sql", "%s", sqlite3_errmsg(s->db)),
                                "AnalysisException");
            goto done;
        }
        for (size_t i = 0; i < nf; i++) {
            const floe_field *f = &sc->root->fields[i];
            if (map[i] < 0 && f->write_default) {
                /* spec "Default values": an omitted column gets its write-default */
                rc = floe__arrow_builder_append_write_default(b->children[i], f);
            } else if (map[i] < 0) {
                if (f->required) {
                    rc = floe__sql_fail(s,
                                        floe__error(FLOE_EINVALID, "sql",
                                                    "Cannot write nullable values to non-null "
                                                    "column '%s'",
                                                    f->name),
                                        "AnalysisException");
                    goto done;
                }
                rc = floe__arrow_builder_append_null(b->children[i]);
            } else {
                rc = floe__sql_append_value(s, sqlite3_column_value(qs, map[i]), f,
                                            b->children[i]);
            }
            if (rc < 0)
                goto done;
        }
        if ((rc = floe__arrow_builder_struct_append(b, true)) < 0)
            goto done;
        if (++nrows % PROGRESS_ROWS == 0 || b->length >= BATCH_ROWS)
            count_rows(&ip, b, nrows);
        if (b->length >= BATCH_ROWS) {
            ip.flushed += builder_bytes(b);
            if ((rc = flush(ap, rl, b)) < 0)
                goto done;
        }
    }
    count_rows(&ip, b, nrows);
    if ((rc = flush(ap, rl, b)) < 0)
        goto done;
    int64_t id = 0;
    rc = rl ? floe_rowlevel_commit(&id, NULL, rl) : floe_append_commit(&id, ap);
done:
    floe__progress_finish(&ip.p);
    floe_rowlevel_free(rl);
    floe_append_free(ap);
    floe__arrow_builder_free(b);
    sqlite3_finalize(qs);
    floe__free(map);
    return rc;
}

int floe__sql_exec_insert(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    if (!ident)
        return floe__error_nomem();
    int rc = floe__sql_refs_create(s, st);
    if (rc == 0)
        rc = floe__sql_insert_query(s, st, ident, st->query, st->columns, st->ncolumns, a);
    floe__sql_refs_drop(s, st);
    return rc;
}

