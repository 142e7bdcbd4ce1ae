/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/vtab: the "floe_rows" SQLite virtual-table module (modelled on
 * SQLite's ext/misc/templatevtab.c) that shows any floe row source as a
 * read-only table: declared columns from the source's column list, rows
 * streamed from a cursor opened in xFilter, cells converted in xColumn, and
 * =/</<=/>/>= constraints handed down through xBestIndex. See vtab.h for the
 * type mapping.
 */
#include "sql/vtab.h"

#include "sql/exec.h"
#include "sql/exec_data.h"
#include "sql/sqlfront.h"

#include "spec/value.h"
#include "util/civil.h"
#include "util/time.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* SQLite's JSON subtype (json.c: JSON_SUBTYPE) so json functions see JSON. */
#define FLOE_JSON_SUBTYPE 74

struct floe_vtab_registry {
    floe_intmap *sources; /* handle -> floe_rowsource* */
    int64_t next_handle;
    const floe_tz *tz;
    sqlite3 *db;
    /* a module whose tables build their own row source from the USING
     * arguments (floe__vtab_register_factory); NULL for floe_rows */
    floe_vtab_factory factory;
    void *factory_payload;
    void (*factory_free)(void *);
};

typedef struct floe_vtab {
    sqlite3_vtab base;
    floe_vtab_registry *reg;
    int64_t handle;
    floe_rowsource *rs;
    bool owned; /* rs belongs to this table (factory modules) */
    int *scale; /* per column: a decimal's scale (cells are doubles), else -1 */
} floe_vtab;

typedef struct floe_vtab_cursor {
    sqlite3_vtab_cursor base;
    floe_rowcursor *cur;
    bool eof;
    sqlite3_int64 rowid;
    floe_buf text; /* scratch for converted cells */
    bool has_date; /* date_text holds date_days */
    int32_t date_days;
    char date_text[11];
} floe_vtab_cursor;

/* ---------------------------------------------------------------- errors */

static char *floe_message(void)
{
    const floe_error *e = floe_error_last();
    return sqlite3_mprintf("%s", e && e->message ? e->message : "floe error");
}

static void vtab_error(sqlite3_vtab *vt)
{
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = floe_message();
}

/* ---------------------------------------------------------------- registry */

static void registry_free(void *p)
{
    floe_vtab_registry *reg = p;
    if (!reg)
        return;
    size_t it = 0;
    int64_t k;
    void *v;
    while (floe__intmap_next(reg->sources, &it, &k, &v))
        floe__rs_free(v);
    floe__intmap_free(reg->sources);
    if (reg->factory_free)
        reg->factory_free(reg->factory_payload);
    floe__free(reg);
}

size_t floe__vtab_count(const floe_vtab_registry *reg)
{
    return floe__intmap_len(reg->sources);
}

void floe__vtab_set_time_zone(floe_vtab_registry *reg, const floe_tz *tz)
{
    reg->tz = tz;
}

/* ---------------------------------------------------------------- wide decimals */

/* Decimals wider than 15 digits are their exact text inside SQLite
 * ('3.14159265358979323846264'), declared TEXT with the collation
 * FLOE_DECIMAL_COLLATION, which orders numbers by value: comparisons with
 * numbers (which SQLite turns into their text under the column's TEXT
 * affinity), ORDER BY, GROUP BY, DISTINCT, min()/max() and joins of two
 * such columns are then numeric and exact. Text that is not a number sorts
 * after every number, bytewise. */

bool floe__vtab_decimal_parse(const char *s, size_t n, floe_dec_num *d)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    d->ip = s + i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    d->ilen = (size_t)(s + i - d->ip);
    d->fp = s + i;
    d->flen = 0;
    if (i < n && s[i] == '.') {
        d->fp = s + ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        d->flen = (size_t)(s + i - d->fp);
    }
    if (d->ilen + d->flen == 0)
        return false;
    int64_t e = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            eneg = s[i++] == '-';
        if (i >= n || s[i] < '0' || s[i] > '9')
            return false;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (e < 1000000000)
                e = e * 10 + (s[i] - '0');
        e = eneg ? -e : e;
    }
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    if (i != n)
        return false;
    size_t len = d->ilen + d->flen;
    d->first = 0;
    while (d->first < len && floe__vtab_dec_digit(d, d->first) == '0')
        d->first++;
    d->sign = d->first == len ? 0 : neg ? -1 : 1;
    d->last = len;
    while (d->last > d->first && floe__vtab_dec_digit(d, d->last - 1) == '0')
        d->last--;
    d->point = (int64_t)d->ilen + e;
    return true;
}

static int dec_cmp(const floe_dec_num *a, const floe_dec_num *b)
{
    if (a->sign != b->sign)
        return a->sign < b->sign ? -1 : 1;
    if (a->sign == 0)
        return 0;
    /* magnitudes: the first significant digit's power of ten, then digits */
    int64_t ea = a->point - (int64_t)a->first, eb = b->point - (int64_t)b->first;
    int m = ea != eb ? (ea < eb ? -1 : 1) : 0;
    for (size_t k = 0; m == 0; k++) {
        bool ha = a->first + k < a->last, hb = b->first + k < b->last;
        if (!ha && !hb)
            break;
        char ca = ha ? floe__vtab_dec_digit(a, a->first + k) : '0', cb = hb ? floe__vtab_dec_digit(b, b->first + k) : '0';
        m = ca != cb ? (ca < cb ? -1 : 1) : 0;
    }
    return a->sign > 0 ? m : -m;
}

static int decimal_collate(void *payload, int n1, const void *s1, int n2, const void *s2)
{
    FLOE_UNUSED(payload);
    floe_dec_num a, b;
    bool na = floe__vtab_decimal_parse(s1, (size_t)n1, &a),
         nb = floe__vtab_decimal_parse(s2, (size_t)n2, &b);
    if (na && nb)
        return dec_cmp(&a, &b);
    if (na != nb)
        return na ? -1 : 1;
    int c = memcmp(s1, s2, (size_t)(n1 < n2 ? n1 : n2));
    return c ? c : (n1 > n2) - (n1 < n2);
}

/* The unscaled value at `scale` of the number `d`, rounded down (floor) or
 * up; *exact: no rounding happened. false: beyond 10^37 (outside every
 * decimal column). */
static bool dec_at_scale(const floe_dec_num *d, int scale, bool up, floe_i128 *out, bool *exact)
{
    floe_i128 v = 0;
    bool rem = false;
    const floe_i128 cap = (floe_i128)10000000000000000000u * (floe_i128)1000000000000000000u;
    if (d->sign != 0) {
        /* digit k weighs 10^(point - 1 - k + scale): the digits before
         * `units` make the integer part, any nonzero one after a remainder */
        int64_t units = d->point + scale, first = (int64_t)d->first, last = (int64_t)d->last;
        if (units - first > 40)
            return false;
        for (int64_t k = first; k < units; k++) {
            if (v > cap)
                return false;
            v = v * 10 + (k < last ? floe__vtab_dec_digit(d, (size_t)k) - '0' : 0);
        }
        if (v > cap)
            return false;
        rem = last > units;
    }
    *exact = !rem;
    if (d->sign < 0)
        v = -v - (rem && !up ? 1 : 0);
    else
        v += rem && up ? 1 : 0;
    *out = v;
    return true;
}

/* A wide decimal constraint: the value as SQLite compares it (its text,
 * what the column's TEXT affinity makes of a number) bounded at the
 * column's scale, lower bounds rounded down (>=), upper bounds rounded up
 * (<=), equality only with a value of the column's scale. */
static bool decimal_bound(const floe_type *t, sqlite3_value *sv, floe_rs_op *op, floe_value *out)
{
    int vt = sqlite3_value_type(sv);
    if (vt == SQLITE_NULL || vt == SQLITE_BLOB)
        return false;
    const char *text = (const char *)sqlite3_value_text(sv);
    floe_dec_num d;
    if (!text || !floe__vtab_decimal_parse(text, (size_t)sqlite3_value_bytes(sv), &d))
        return false;
    bool lower = *op == FLOE_RS_GT || *op == FLOE_RS_GE;
    floe_i128 v;
    bool exact;
    if (!dec_at_scale(&d, t->scale, !lower && *op != FLOE_RS_EQ, &v, &exact))
        return false;
    if (*op == FLOE_RS_EQ) {
        if (!exact)
            return false;
    } else if (!exact) {
        *op = lower ? FLOE_RS_GE : FLOE_RS_LE;
    }
    /* the scan's filter reads decimals of at most 35 digits */
    const floe_i128 lim = (floe_i128)100000000000000000u * (floe_i128)1000000000000000000u;
    if (v >= lim || v <= -lim)
        return false;
    *out = floe_value_decimal(v, t->scale);
    return true;
}

/* ---------------------------------------------------------------- declaring */

static bool is_wide_decimal(const floe_type *t)
{
    return t->id == FLOE_T_DECIMAL && t->precision > 15;
}

static const char *decl_type(const floe_type *t)
{
    switch (t->id) {
    /* NUMERIC affinity like INTEGER, and sqlite3_column_decltype() lets a
     * printer show true/false as Spark does */
    case FLOE_T_BOOLEAN: return "BOOLEAN";
    case FLOE_T_INT:
    case FLOE_T_LONG: return "INTEGER";
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE: return "REAL";
    case FLOE_T_FIXED:
    case FLOE_T_BINARY: return "BLOB";
    default: return "TEXT";
    }
}

static int put_ident(floe_buf *b, const char *s)
{
    FLOE_TRY(floe__buf_putc(b, '"'));
    for (; *s; s++) {
        if (*s == '"')
            FLOE_TRY(floe__buf_putc(b, '"'));
        FLOE_TRY(floe__buf_putc(b, *s));
    }
    return floe__buf_putc(b, '"');
}

/* Does column i's name equal another's but for case (Iceberg names are
 * case-sensitive, SQLite's are not)? */
static bool case_twin(const floe_rowsource *rs, size_t i)
{
    for (size_t j = 0; j < rs->ncolumns; j++)
        if (j != i && strcasecmp(rs->columns[i].name, rs->columns[j].name) == 0)
            return true;
    return false;
}

static int declare(sqlite3 *db, const floe_rowsource *rs, char **err)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_arena *a = NULL;
    int rc = floe__buf_puts(&b, "CREATE TABLE x(");
    for (size_t i = 0; rc == 0 && i < rs->ncolumns; i++) {
        if (i)
            rc = floe__buf_puts(&b, ", ");
        const char *name = rs->columns[i].name;
        if (rc == 0 && case_twin(rs, i)) { /* declared apart (sqlfront.h) */
            if (!a && !(a = floe__arena_new(0)))
                rc = floe__error_nomem();
            if (rc == 0 && !(name = floe__sql_case_twin_name(a, name)))
                rc = floe__error_nomem();
        }
        if (rc == 0)
            rc = put_ident(&b, name);
        if (rc == 0)
            rc = floe__buf_printf(&b, " %s%s%s", decl_type(rs->columns[i].type),
                                  i + rs->nhidden >= rs->ncolumns ? " HIDDEN" : "",
                                  is_wide_decimal(rs->columns[i].type)
                                      ? " COLLATE " FLOE_DECIMAL_COLLATION
                                      : "");
    }
    if (rc == 0)
        rc = floe__buf_putc(&b, ')');
    floe__arena_free(a);
    if (rc < 0) {
        floe__buf_free(&b);
        return SQLITE_NOMEM;
    }
    int src = sqlite3_declare_vtab(db, b.ptr);
    if (src != SQLITE_OK)
        *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    floe__buf_free(&b);
    return src;
}

/* Decimal columns of data tables reach SQLite as doubles (precision <= 15)
 * or exact text; their scale rides along as the cell's subtype
 * (FLOE_SQL_SUBTYPE_SCALE + s), so sum(), min() and max() over them print
 * at the column's scale, as Spark does, and sum() adds wide ones exactly. */
static int column_scales(floe_vtab *vt)
{
    const floe_rowsource *rs = vt->rs;
    vt->scale = floe__calloc(rs->ncolumns ? rs->ncolumns : 1, sizeof *vt->scale);
    if (!vt->scale)
        return SQLITE_NOMEM;
    for (size_t i = 0; i < rs->ncolumns; i++) {
        int h = floe__sql_data_hint(rs, rs->columns[i].name);
        vt->scale[i] = h >= 0 && h <= 38 ? h : -1;
    }
    return SQLITE_OK;
}

/* A table of a factory module: its row source comes from the USING
 * arguments (argv[3..]) and lives as long as the table's connection. */
static int factory_connect(sqlite3 *db, floe_vtab_registry *reg, int argc,
                           const char *const *argv, sqlite3_vtab **out, char **err)
{
    floe_rowsource *rs = NULL;
    if (reg->factory(reg->factory_payload, argc - 3, argv + 3, &rs) < 0) {
        *err = floe_message();
        return SQLITE_ERROR;
    }
    int rc = declare(db, rs, err);
    floe_vtab *vt = rc == SQLITE_OK ? floe__calloc(1, sizeof *vt) : NULL;
    if (!vt) {
        floe__rs_free(rs);
        return rc == SQLITE_OK ? SQLITE_NOMEM : rc;
    }
    vt->reg = reg;
    vt->rs = rs;
    vt->owned = true;
    if (column_scales(vt) != SQLITE_OK) {
        floe__rs_free(rs);
        floe__free(vt);
        return SQLITE_NOMEM;
    }
    *out = &vt->base;
    return SQLITE_OK;
}

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err)
{
    floe_vtab_registry *reg = aux;
    *out = NULL;
    if (reg->factory)
        return factory_connect(db, reg, argc, argv, out, err);
    if (argc != 4) {
        *err = sqlite3_mprintf("floe_rows: expected one argument (a row-source handle)");
        return SQLITE_ERROR;
    }
    char *end = NULL;
    long long handle = strtoll(argv[3], &end, 10);
    floe_rowsource *rs = end && *end == 0 ? floe__intmap_get(reg->sources, handle) : NULL;
    if (!rs) {
        *err = sqlite3_mprintf("floe_rows: no row source with handle %s", argv[3]);
        return SQLITE_ERROR;
    }
    int rc = declare(db, rs, err);
    if (rc != SQLITE_OK)
        return rc;
    floe_vtab *vt = floe__calloc(1, sizeof *vt);
    if (!vt)
        return SQLITE_NOMEM;
    vt->reg = reg;
    vt->handle = handle;
    vt->rs = rs;
    if (column_scales(vt) != SQLITE_OK) {
        floe__free(vt);
        return SQLITE_NOMEM;
    }
    *out = &vt->base;
    return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *base)
{
    floe_vtab *vt = (floe_vtab *)base;
    if (vt->owned)
        floe__rs_free(vt->rs);
    floe__free(vt->scale);
    floe__free(base);
    return SQLITE_OK;
}

/* DROP TABLE: the row source goes with the table. */
static int vt_destroy(sqlite3_vtab *base)
{
    floe_vtab *vt = (floe_vtab *)base;
    if (vt->owned)
        floe__rs_free(vt->rs);
    else if (floe__intmap_del(vt->reg->sources, vt->handle))
        floe__rs_free(vt->rs);
    floe__free(vt->scale);
    floe__free(vt);
    return SQLITE_OK;
}

/* ---------------------------------------------------------------- planning */

static floe_rs_op op_of(unsigned char op)
{
    switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return FLOE_RS_EQ;
    case SQLITE_INDEX_CONSTRAINT_LT: return FLOE_RS_LT;
    case SQLITE_INDEX_CONSTRAINT_LE: return FLOE_RS_LE;
    case SQLITE_INDEX_CONSTRAINT_GT: return FLOE_RS_GT;
    case SQLITE_INDEX_CONSTRAINT_GE: return FLOE_RS_GE;
    default: return 0;
    }
}

/* idxStr is "u<colUsed in hex>;" then the pushed constraints as
 * "<column>:<op>," in argv order. */
static int vt_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
    floe_vtab *vt = (floe_vtab *)base;
    floe_buf plan = FLOE_BUF_INIT;
    int argv_index = 0;
    /* A scan that reads files costs far more than its row count, so SQLite
     * puts it in the outer loop and rescans small in-memory tables (refs,
     * snapshots) rather than re-reading manifests for every outer row. */
    double rows = vt->rs->estimated_rows > 0 ? vt->rs->estimated_rows : 1000000.0;
    double cost = vt->rs->estimated_cost > 0 ? vt->rs->estimated_cost : rows * 100.0;
    cost += 10.0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (!c->usable || c->iColumn < 0 || (size_t)c->iColumn >= vt->rs->ncolumns)
            continue;
        floe_rs_op op = op_of(c->op);
        unsigned push = vt->rs->columns[c->iColumn].push;
        bool ok = (op == FLOE_RS_EQ && (push & FLOE_RS_PUSH_EQ)) ||
                  (op != FLOE_RS_EQ && op != 0 && (push & FLOE_RS_PUSH_RANGE));
        /* text compared under another collation (COLLATE NOCASE) is not
         * what the source's filter compares */
        const char *coll = sqlite3_vtab_collation(info, i);
        const floe_type *ct = vt->rs->columns[c->iColumn].type;
        const char *want = is_wide_decimal(ct) ? FLOE_DECIMAL_COLLATION : "BINARY";
        if (!ok || (coll && sqlite3_stricmp(coll, want) != 0 &&
                    strcmp(decl_type(ct), "TEXT") == 0))
            continue;
        if (floe__buf_printf(&plan, "%d:%d,", c->iColumn, (int)op) < 0) {
            floe__buf_free(&plan);
            return SQLITE_NOMEM;
        }
        info->aConstraintUsage[i].argvIndex = ++argv_index;
        info->aConstraintUsage[i].omit = 0;
        cost /= op == FLOE_RS_EQ ? 2.0 : 1.5;
        rows /= op == FLOE_RS_EQ ? 10.0 : 2.0;
    }
    info->estimatedCost = cost;
    info->estimatedRows = (sqlite3_int64)rows + 1;
    /* the columns the statement reads, so the source projects only those */
    info->idxStr = sqlite3_mprintf("u%llx;%s", (unsigned long long)info->colUsed,
                                   plan.ptr ? plan.ptr : "");
    if (!info->idxStr) {
        floe__buf_free(&plan);
        return SQLITE_NOMEM;
    }
    info->needToFreeIdxStr = 1;
    info->idxNum = argv_index;
    floe__buf_free(&plan);
    return SQLITE_OK;
}

/* ---------------------------------------------------------------- cursors */

static int vt_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
    FLOE_UNUSED(base);
    floe_vtab_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    c->eof = true;
    *out = &c->base;
    return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *base)
{
    floe_vtab_cursor *c = (floe_vtab_cursor *)base;
    floe__rs_close(c->cur);
    floe__buf_free(&c->text);
    floe__free(c);
    return SQLITE_OK;
}

/* ---------------------------------------------------------------- pushdown
 *
 * A constraint `column op value` reaches the row source only as a filter
 * that keeps at least every row SQLite's own comparison keeps (SQLite
 * re-checks every row: omit is never set). So each conversion follows
 * SQLite's comparison rules for the column's declared type and widens
 * rather than narrows:
 *   INTEGER, REAL, BOOLEAN columns (numeric affinity): a numeric value or
 *     text that looks numeric compares as a number; other text and blobs
 *     compare greater than every number: not pushed. SQLite has no NaN
 *     (a NaN cell reads as NULL, which no comparison keeps) and its -0.0
 *     equals 0.0, which Iceberg orders apart: bounds at zero are widened;
 *   TEXT columns (strings, dates, timestamps): the comparison is on text,
 *     so only a text value is pushed, and for dates and timestamps only a
 *     text that is a canonical value (its text order is the value order).
 */

/* Canonical 'YYYY-MM-DD' (years 0000..9999): days since the epoch. */
static bool parse_date(const char *s, int len, int32_t *out)
{
    if (len != 10 || s[4] != '-' || s[7] != '-')
        return false;
    int f[3] = {0, 0, 0}, at[3] = {0, 5, 8}, w[3] = {4, 2, 2};
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < w[k]; j++) {
            char ch = s[at[k] + j];
            if (ch < '0' || ch > '9')
                return false;
            f[k] = f[k] * 10 + (ch - '0');
        }
    if (f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31)
        return false;
    int64_t days = floe__days_from_civil(f[0], (unsigned)f[1], (unsigned)f[2]);
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(days, &y, &m, &d); /* rejects 2023-02-30 */
    if (y != f[0] || m != (unsigned)f[1] || d != (unsigned)f[2])
        return false;
    *out = (int32_t)days;
    return true;
}

/* A float column shows its values widened to double: the float bound that
 * keeps every float SQLite's double comparison keeps. */
static bool float_bound(double x, floe_rs_op *op, float *out)
{
    if (!isfinite(x) || fabs(x) > FLT_MAX)
        return false;
    float f = (float)x;
    if ((double)f == x) {
        *out = f;
        return true;
    }
    if (*op == FLOE_RS_EQ)
        return false; /* no float equals x: nothing to push (SQLite finds none) */
    if (*op == FLOE_RS_GT || *op == FLOE_RS_GE) {
        *out = (double)f > x ? nextafterf(f, -INFINITY) : f; /* largest float <= x */
        *op = FLOE_RS_GE;
    } else {
        *out = (double)f < x ? nextafterf(f, INFINITY) : f; /* smallest float >= x */
        *op = FLOE_RS_LE;
    }
    return true;
}

/* Boolean columns hold 0/1: the comparison becomes `= true`, `= false` or
 * nothing to push (both or neither value match). */
static bool bool_bound(double x, floe_rs_op *op, bool *out)
{
    bool keep[2];
    for (int b = 0; b < 2; b++) {
        switch (*op) {
        case FLOE_RS_EQ: keep[b] = b == x; break;
        case FLOE_RS_LT: keep[b] = b < x; break;
        case FLOE_RS_LE: keep[b] = b <= x; break;
        case FLOE_RS_GT: keep[b] = b > x; break;
        case FLOE_RS_GE: keep[b] = b >= x; break;
        default: return false;
        }
    }
    if (keep[0] == keep[1])
        return false;
    *op = FLOE_RS_EQ;
    *out = keep[1];
    return true;
}

/* Timestamps are text 'YYYY-MM-DD HH:MM:SS.ffffff' inside SQLite, which
 * compares them with text literals as text (whatever the literal's form).
 * For years 0000..9999 that text orders as the instants do, so a text
 * literal L gives a canonical bound c with: every cell text V for which
 * `V op L` holds also satisfies `V op' c` (never a row lost). L's first k
 * characters follow the shape; V (26 characters) compares with L by
 * V[0:k] against L[0:k] first:
 *   - L canonical (k = n = 26): c = L, same operator;
 *   - L a shorter prefix of the shape ('2026-01-01', '2026-01-01 10:00'):
 *     V > L and V >= L mean V[0:k] >= L, i.e. V >= L padded with the
 *     smallest completion; V < L and V <= L mean V[0:k] < L (a V starting
 *     with L is longer, hence greater), i.e. V < the padded L;
 *   - L leaves the shape at k (a 'T', a zone, a 7th fraction digit):
 *     only lower bounds, V >= the padded L[0:k] (and V > L[0:26] when the
 *     first 26 characters are canonical; upper bound V <= L[0:26]).
 * Equality is pushed only for a canonical L. Prefixes that end inside the
 * month or the day (k = 6, 9) or before the year's end have no simple
 * smallest valid completion and are not pushed; neither are bounds that
 * are not valid timestamps (padding '2024-02-30'). */
static bool ts_text_bound(const char *l, size_t n, floe_rs_op *op, char out[27])
{
    static const char shape[] = "dddd-dd-dd dd:dd:dd.dddddd";
    static const char least[] = "0000-01-01 00:00:00.000000";
    size_t k = 0;
    while (k < n && k < 26 &&
           (shape[k] == 'd' ? l[k] >= '0' && l[k] <= '9' : l[k] == shape[k]))
        k++;
    if (k < 4 || k == 6 || k == 9)
        return false;
    memcpy(out, least, sizeof least);
    memcpy(out, l, k);
    int64_t us;
    if (floe__time_parse_us(out, NULL, &us) < 0 || !parse_date(out, 10, &(int32_t){0})) {
        floe_error_clear();
        return false; /* not a valid timestamp (a 30th of February, an hour 24) */
    }
    int hh = (out[11] - '0') * 10 + (out[12] - '0'), mi = (out[14] - '0') * 10 + (out[15] - '0'),
        ss = (out[17] - '0') * 10 + (out[18] - '0');
    if (hh > 23 || mi > 59 || ss > 59)
        return false;
    bool lower = *op == FLOE_RS_GT || *op == FLOE_RS_GE;
    if (k == 26) {
        if (n == 26)
            return true; /* canonical: the comparison as written */
        /* L extends a canonical text: V > L and V >= L mean V > L[0:26],
         * V < L and V <= L mean V <= L[0:26]; V = L never holds */
        if (*op == FLOE_RS_EQ)
            return false;
        *op = lower ? FLOE_RS_GT : FLOE_RS_LE;
        return true;
    }
    if (*op == FLOE_RS_EQ)
        return false; /* no 26-character text equals L */
    if (lower) {
        *op = FLOE_RS_GE;
        return true;
    }
    if (k < n)
        return false; /* V[0:k] <= L[0:k]: no simple upper bound */
    *op = FLOE_RS_LT;
    return true;
}

/* A timestamp(tz) constraint from a text value (see ts_text_bound). The
 * bound is a wall-clock time: for timestamptz it is in the session zone,
 * where a wall-clock time may name two instants (clocks set back) or none;
 * the instant bound is widened by the zone's range of offsets so that
 * every instant whose wall-clock text satisfies the comparison is kept
 * (exact for UTC and fixed offsets; equality only there). */
static bool ts_bound(const floe_vtab *vt, const floe_type *t, sqlite3_value *sv, floe_rs_op *op,
                     floe_value *out)
{
    char text[27];
    if (sqlite3_value_type(sv) != SQLITE_TEXT ||
        !ts_text_bound((const char *)sqlite3_value_text(sv), (size_t)sqlite3_value_bytes(sv), op,
                       text))
        return false;
    int64_t us;
    if (floe__time_parse_us(text, NULL, &us) < 0) {
        floe_error_clear();
        return false;
    }
    if (t->id == FLOE_T_TIMESTAMPTZ) {
        int32_t lo, hi;
        floe__tz_offset_range(vt->reg->tz, &lo, &hi);
        if (*op == FLOE_RS_EQ && lo != hi)
            return false;
        us -= (int64_t)(*op == FLOE_RS_GT || *op == FLOE_RS_GE || *op == FLOE_RS_EQ ? hi : lo) *
              1000000;
    }
    *out = floe_value_i64(t->id, us);
    return true;
}

/* Convert a SQL value to the column's primitive type (and maybe a wider
 * operator); false: not pushable. */
static bool to_value(const floe_vtab *vt, const floe_type *t, sqlite3_value *sv, floe_rs_op *op,
                     floe_value *out)
{
    if (is_wide_decimal(t)) /* before sqlite3_value_numeric_type rounds its text */
        return decimal_bound(t, sv, op, out);
    int st = sqlite3_value_numeric_type(sv);
    switch (t->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG:
        if (st != SQLITE_INTEGER)
            return false;
        if (t->id == FLOE_T_INT) {
            sqlite3_int64 x = sqlite3_value_int64(sv);
            if (x < INT32_MIN || x > INT32_MAX)
                return false;
            *out = floe_value_int((int32_t)x);
        } else {
            *out = floe_value_long(sqlite3_value_int64(sv));
        }
        return true;
    case FLOE_T_DOUBLE:
    case FLOE_T_FLOAT: {
        if (st != SQLITE_INTEGER && st != SQLITE_FLOAT)
            return false;
        double x;
        if (st == SQLITE_INTEGER) {
            /* SQLite compares integers with reals exactly: only push
             * integers a double holds exactly */
            sqlite3_int64 i = sqlite3_value_int64(sv);
            if (i > ((sqlite3_int64)1 << 53) || i < -((sqlite3_int64)1 << 53))
                return false;
            x = (double)i;
        } else {
            x = sqlite3_value_double(sv);
        }
        if (!isfinite(x))
            return false;
        if (x == 0) {
            /* SQLite: -0.0 = 0.0; Iceberg orders -0.0 before 0.0 (Java's
             * Double.compare), so a bound at zero takes the zero that keeps
             * both, and equality is not pushed */
            if (*op == FLOE_RS_EQ)
                return false;
            x = *op == FLOE_RS_GT || *op == FLOE_RS_GE ? -0.0 : 0.0;
        }
        if (t->id == FLOE_T_DOUBLE) {
            *out = floe_value_double(x);
            return true;
        }
        float f;
        if (!float_bound(x, op, &f))
            return false;
        *out = floe_value_float(f);
        return true;
    }
    case FLOE_T_BOOLEAN: {
        if (st != SQLITE_INTEGER && st != SQLITE_FLOAT)
            return false;
        double x = sqlite3_value_double(sv);
        bool b;
        if (isnan(x) || !bool_bound(x, op, &b))
            return false;
        *out = floe_value_bool(b);
        return true;
    }
    case FLOE_T_DATE: {
        int32_t days;
        if (sqlite3_value_type(sv) != SQLITE_TEXT ||
            !parse_date((const char *)sqlite3_value_text(sv), sqlite3_value_bytes(sv), &days))
            return false;
        *out = floe_value_date(days);
        return true;
    }
    case FLOE_T_STRING:
        if (sqlite3_value_type(sv) != SQLITE_TEXT)
            return false;
        *out = floe_value_bytes(FLOE_T_STRING, sqlite3_value_text(sv),
                                (size_t)sqlite3_value_bytes(sv));
        return true;
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ: return ts_bound(vt, t, sv, op, out);
    default: return false;
    }
}

static int vt_next(sqlite3_vtab_cursor *base)
{
    floe_vtab_cursor *c = (floe_vtab_cursor *)base;
    int rc = floe__rs_next(c->cur);
    if (rc == FLOE_ITEROVER) {
        c->eof = true;
        return SQLITE_OK;
    }
    if (rc < 0) {
        c->eof = true;
        vtab_error(base->pVtab);
        return SQLITE_ERROR;
    }
    c->rowid++;
    return SQLITE_OK;
}

static int vt_filter(sqlite3_vtab_cursor *base, int idx_num, const char *idx_str, int argc,
                     sqlite3_value **argv)
{
    floe_vtab_cursor *c = (floe_vtab_cursor *)base;
    floe_vtab *vt = (floe_vtab *)base->pVtab;
    floe__rs_close(c->cur);
    c->cur = NULL;
    c->eof = true;
    c->rowid = 0;
    floe_rs_constraint cons[64];
    size_t ncons = 0;
    const char *p = idx_str;
    uint64_t col_used = UINT64_MAX;
    if (p && *p == 'u') {
        char *end = NULL;
        col_used = (uint64_t)strtoull(p + 1, &end, 16);
        p = end && *end == ';' ? end + 1 : NULL;
    }
    for (int i = 0; p && i < argc && i < idx_num && ncons < FLOE_ARRAY_LEN(cons); i++) {
        int col, op, used = 0;
        if (sscanf(p, "%d:%d,%n", &col, &op, &used) != 2 || used == 0)
            break;
        p += used;
        if (col < 0 || (size_t)col >= vt->rs->ncolumns)
            continue;
        floe_rs_op rop = (floe_rs_op)op;
        floe_value v;
        if (!to_value(vt, vt->rs->columns[col].type, argv[i], &rop, &v))
            continue;
        cons[ncons].column = (size_t)col;
        cons[ncons].op = rop;
        cons[ncons].value = v;
        ncons++;
    }
    if (floe__rs_open_projected(vt->rs, cons, ncons, col_used, &c->cur) < 0) {
        c->cur = NULL;
        vtab_error(base->pVtab);
        return SQLITE_ERROR;
    }
    c->eof = false;
    return vt_next(base);
}

static int vt_eof(sqlite3_vtab_cursor *base)
{
    return ((floe_vtab_cursor *)base)->eof;
}

static int vt_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
    *rowid = ((floe_vtab_cursor *)base)->rowid;
    return SQLITE_OK;
}

static int result_text(sqlite3_context *ctx, floe_buf *b)
{
    sqlite3_result_text(ctx, b->ptr ? b->ptr : "", (int)b->len, SQLITE_TRANSIENT);
    return SQLITE_OK;
}

/* 'YYYY-MM-DD' for years 0..9999 without printf (date columns format a
 * cell per row; the last one is kept in date_text, as dates repeat).
 * false: other years (floe_value_format's form). */
static bool put_date(floe_vtab_cursor *c, int32_t days)
{
    if (!c->has_date || c->date_days != days) {
        int64_t y;
        unsigned m, d;
        floe__civil_from_days(days, &y, &m, &d);
        if (y < 0 || y > 9999)
            return false;
        char *o = c->date_text;
        o[0] = (char)('0' + y / 1000);
        o[1] = (char)('0' + y / 100 % 10);
        o[2] = (char)('0' + y / 10 % 10);
        o[3] = (char)('0' + y % 10);
        o[4] = '-';
        o[5] = (char)('0' + m / 10);
        o[6] = (char)('0' + m % 10);
        o[7] = '-';
        o[8] = (char)('0' + d / 10);
        o[9] = (char)('0' + d % 10);
        o[10] = 0;
        c->date_days = days;
        c->has_date = true;
    }
    return true;
}

static int vt_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
    floe_vtab_cursor *c = (floe_vtab_cursor *)base;
    floe_vtab *vt = (floe_vtab *)base->pVtab;
    floe_rs_cell cell;
    if (floe__rs_column(c->cur, (size_t)col, &cell) < 0) {
        char *m = floe_message();
        sqlite3_result_error(ctx, m ? m : "floe error", -1);
        sqlite3_free(m);
        return SQLITE_ERROR;
    }
    if (cell.json) {
        sqlite3_result_text(ctx, cell.json, (int)cell.json_len, SQLITE_TRANSIENT);
        sqlite3_result_subtype(ctx, FLOE_JSON_SUBTYPE);
        return SQLITE_OK;
    }
    const floe_value *v = &cell.value;
    if (v->is_null) {
        sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    floe__buf_clear(&c->text);
    int rc = 0;
    switch (v->type) {
    case FLOE_T_BOOLEAN: sqlite3_result_int(ctx, v->v.b ? 1 : 0); return SQLITE_OK;
    case FLOE_T_INT: sqlite3_result_int64(ctx, v->v.i32); return SQLITE_OK;
    case FLOE_T_LONG: sqlite3_result_int64(ctx, v->v.i64); return SQLITE_OK;
    case FLOE_T_FLOAT: sqlite3_result_double(ctx, (double)v->v.f32); return SQLITE_OK;
    case FLOE_T_DOUBLE:
        sqlite3_result_double(ctx, v->v.f64);
        if (vt->scale && vt->scale[col] >= 0)
            sqlite3_result_subtype(ctx, (unsigned)(FLOE_SQL_SUBTYPE_SCALE + vt->scale[col]));
        return SQLITE_OK;
    case FLOE_T_STRING:
        sqlite3_result_text(ctx, (const char *)v->v.bytes.ptr, (int)v->v.bytes.len,
                            SQLITE_TRANSIENT);
        if (vt->scale && vt->scale[col] >= 0) /* a wide decimal's exact text */
            sqlite3_result_subtype(ctx, (unsigned)(FLOE_SQL_SUBTYPE_SCALE + vt->scale[col]));
        return SQLITE_OK;
    case FLOE_T_FIXED:
    case FLOE_T_BINARY:
        sqlite3_result_blob(ctx, v->v.bytes.ptr, (int)v->v.bytes.len, SQLITE_TRANSIENT);
        return SQLITE_OK;
    case FLOE_T_TIMESTAMP: rc = floe__rs_format_timestamp_us(v->v.i64, NULL, &c->text); break;
    case FLOE_T_TIMESTAMPTZ:
        rc = floe__rs_format_timestamp_us(v->v.i64, vt->reg->tz, &c->text);
        break;
    case FLOE_T_TIMESTAMP_NS: rc = floe__rs_format_timestamp_ns(v->v.i64, NULL, &c->text); break;
    case FLOE_T_TIMESTAMPTZ_NS:
        rc = floe__rs_format_timestamp_ns(v->v.i64, vt->reg->tz, &c->text);
        break;
    case FLOE_T_DATE:
        if (put_date(c, v->v.i32)) {
            sqlite3_result_text(ctx, c->date_text, 10, SQLITE_TRANSIENT);
            return SQLITE_OK;
        }
        rc = floe_value_format(v, &c->text);
        break;
    default: rc = floe_value_format(v, &c->text); break; /* decimal, time, uuid */
    }
    if (rc < 0) {
        sqlite3_result_error_nomem(ctx);
        return SQLITE_NOMEM;
    }
    return result_text(ctx, &c->text);
}

static sqlite3_module floe_rows_module = {
    /* iVersion    */ 0,
    /* xCreate     */ vt_connect,
    /* xConnect    */ vt_connect,
    /* xBestIndex  */ vt_best_index,
    /* xDisconnect */ vt_disconnect,
    /* xDestroy    */ vt_destroy,
    /* xOpen       */ vt_open,
    /* xClose      */ vt_close,
    /* xFilter     */ vt_filter,
    /* xNext       */ vt_next,
    /* xEof        */ vt_eof,
    /* xColumn     */ vt_column,
    /* xRowid      */ vt_rowid,
    /* xUpdate     */ NULL,
    /* xBegin      */ NULL,
    /* xSync       */ NULL,
    /* xCommit     */ NULL,
    /* xRollback   */ NULL,
    /* xFindMethod */ NULL,
    /* xRename     */ NULL,
    /* xSavepoint  */ NULL,
    /* xRelease    */ NULL,
    /* xRollbackTo */ NULL,
    /* xShadowName */ NULL,
#if SQLITE_VERSION_NUMBER >= 3044000
    /* xIntegrity  */ NULL,
#endif
};

/* ---------------------------------------------------------------- public */

static int register_collation(sqlite3 *db)
{
    int rc = sqlite3_create_collation_v2(db, FLOE_DECIMAL_COLLATION, SQLITE_UTF8, NULL,
                                         decimal_collate, NULL);
    if (rc != SQLITE_OK)
        return floe__error(rc == SQLITE_NOMEM ? FLOE_ENOMEM : FLOE_ERROR, "sql",
                           "registering the %s collation: %s", FLOE_DECIMAL_COLLATION,
                           sqlite3_errmsg(db));
    return 0;
}

int floe__vtab_register(sqlite3 *db, floe_vtab_registry **out)
{
    *out = NULL;
    floe_vtab_registry *reg = floe__calloc(1, sizeof *reg);
    if (!reg)
        return floe__error_nomem();
    reg->sources = floe__intmap_new();
    if (!reg->sources) {
        floe__free(reg);
        return floe__error_nomem();
    }
    reg->next_handle = 1;
    reg->db = db;
    int crc = register_collation(db);
    if (crc < 0) {
        registry_free(reg);
        return crc;
    }
    /* on failure SQLite calls the destructor itself */
    int rc = sqlite3_create_module_v2(db, "floe_rows", &floe_rows_module, reg, registry_free);
    if (rc != SQLITE_OK)
        return floe__error(rc == SQLITE_NOMEM ? FLOE_ENOMEM : FLOE_ERROR, "sql",
                           "registering floe_rows: %s", sqlite3_errmsg(db));
    *out = reg;
    return 0;
}

int floe__vtab_register_factory(sqlite3 *db, const char *module, floe_vtab_factory factory,
                                void *payload, void (*payload_free)(void *))
{
    floe_vtab_registry *reg = floe__calloc(1, sizeof *reg);
    if (reg)
        reg->sources = floe__intmap_new();
    if (!reg || !reg->sources) {
        floe__free(reg);
        if (payload_free)
            payload_free(payload);
        return floe__error_nomem();
    }
    int crc = register_collation(db);
    if (crc < 0) {
        floe__intmap_free(reg->sources);
        floe__free(reg);
        if (payload_free)
            payload_free(payload);
        return crc;
    }
    reg->db = db;
    reg->factory = factory;
    reg->factory_payload = payload;
    reg->factory_free = payload_free;
    int rc = sqlite3_create_module_v2(db, module, &floe_rows_module, reg, registry_free);
    if (rc != SQLITE_OK)
        return floe__error(rc == SQLITE_NOMEM ? FLOE_ENOMEM : FLOE_ERROR, "sql",
                           "registering %s: %s", module, sqlite3_errmsg(db));
    return 0;
}

int floe__vtab_create(floe_vtab_registry *reg, const char *schema, const char *name,
                      floe_rowsource *rs)
{
    int64_t handle = reg->next_handle++;
    if (floe__intmap_put(reg->sources, handle, rs) < 0) {
        floe__rs_free(rs);
        return floe__error_nomem();
    }
    floe_buf sql = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&sql, "CREATE VIRTUAL TABLE ");
    if (rc == 0)
        rc = put_ident(&sql, schema ? schema : "temp");
    if (rc == 0)
        rc = floe__buf_putc(&sql, '.');
    if (rc == 0)
        rc = put_ident(&sql, name);
    if (rc == 0)
        rc = floe__buf_printf(&sql, " USING floe_rows(%lld)", (long long)handle);
    if (rc < 0) {
        floe__buf_free(&sql);
        if (floe__intmap_del(reg->sources, handle))
            floe__rs_free(rs);
        return rc;
    }
    char *err = NULL;
    int src = sqlite3_exec(reg->db, sql.ptr, NULL, NULL, &err);
    floe__buf_free(&sql);
    if (src != SQLITE_OK) {
        /* the table was not created: the source is still ours to free */
        if (floe__intmap_del(reg->sources, handle))
            floe__rs_free(rs);
        int code = src == SQLITE_NOMEM                            ? FLOE_ENOMEM
                   : err && strstr(err, "already exists") != NULL ? FLOE_EEXISTS
                                                                  : FLOE_ERROR;
        rc = floe__error(code, "sql", "creating %s: %s", name, err ? err : sqlite3_errstr(src));
        sqlite3_free(err);
        return rc;
    }
    return 0;
}
