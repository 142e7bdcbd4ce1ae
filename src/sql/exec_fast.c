/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_fast: answers simple aggregate statements without stepping every
 * row through SQLite.
 *
 * 1. A bare `SELECT count(*) FROM <table>` from the scan plan. Iceberg
 *    manifests record each data file's record_count (spec "Manifests",
 *    data_file field 103). When a snapshot's planned data files have no
 *    delete file applying to them and the query has no filter, the table's
 *    row count is exactly the sum of those counts, so the answer needs the
 *    manifests only (no data file is opened). The row source decides
 *    whether its count is exact (floe_rowsource_ext.count: exec_data.c
 *    refuses when a delete file applies).
 * 2. `SELECT agg(col) [[AS] name], ... FROM <table> [[AS] alias]
 *    [WHERE col op literal [AND ...]]` with count/sum/min/max/avg over
 *    numeric and date columns of a data table: computed over the scan's
 *    Arrow batches (floe__sql_data_each_batch: projected, deletes
 *    applied), reproducing exactly what SQLite prints for the values it
 *    would see (exec_data.c/vtab.c: decimals <= 15 digits as doubles, NaN
 *    as NULL, dates as text). sum() is exec_funcs.c's exact sum (one
 *    implementation); avg() is SQLite 3.40's plain double sum / count;
 *    WHERE literals are parsed by SQLite itself and every term is checked
 *    on each row here. Anything the recogniser does not know, and any value
 *    it cannot reproduce (integer overflow, a date outside 0000..9999), is
 *    left to SQLite. `SET floe.fast-aggregates = false` turns 2 off.
 *
 * Both recognise the statement's rewritten text (one reference, the
 * floe_ref_N name); the statement is prepared first (so a syntax error
 * still surfaces as SQLite's) and result columns keep SQLite's names.
 */
#include "sql/exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rows/rowsource.h"
#include "scan/scan.h"
#include "sql/exec_data.h"
#include "util/civil.h"

static void skip_space(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

/* Case-insensitive keyword followed by a non-identifier character. */
static bool word(const char **p, const char *w)
{
    skip_space(p);
    size_t n = strlen(w);
    for (size_t i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return false;
    }
    char next = (*p)[n];
    bool ident = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
                 (next >= '0' && next <= '9') || next == '_';
    bool sym = !((w[0] >= 'a' && w[0] <= 'z'));
    if (!sym && ident)
        return false;
    *p += n;
    return true;
}

/* An identifier, bare or "quoted", into buf; false when none. */
static bool ident(const char **p, char *buf, size_t cap)
{
    skip_space(p);
    size_t n = 0;
    const char *s = *p;
    if (*s == '"') {
        for (s++; *s; s++) {
            if (*s == '"') {
                if (s[1] != '"')
                    break;
                s++;
            }
            if (n + 1 >= cap)
                return false;
            buf[n++] = *s;
        }
        if (*s != '"')
            return false;
        s++;
    } else {
        while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
               *s == '_') {
            if (n + 1 >= cap)
                return false;
            buf[n++] = *s++;
        }
        if (n == 0)
            return false;
    }
    buf[n] = 0;
    *p = s;
    return true;
}

/* `FROM <table> [[AS] alias]`, where table is the statement's one
 * reference by its SQLite name (a following WHERE is not an alias). */
static bool from_table(const char **p, const char *table)
{
    char name[256];
    if (!word(p, "from") || !ident(p, name, sizeof name) || strcmp(name, table) != 0)
        return false;
    if (word(p, "as"))
        return ident(p, name, sizeof name);
    const char *save = *p;
    if (word(p, "where") || !ident(p, name, sizeof name))
        *p = save;
    return true;
}

/* Is `sql` a bare count over the virtual table `table`? */
static bool is_bare_count(const char *sql, const char *table)
{
    const char *p = sql;
    if (!word(&p, "select") || !word(&p, "count") || !word(&p, "("))
        return false;
    if (!word(&p, "*") && !word(&p, "1"))
        return false;
    if (!word(&p, ")") || !from_table(&p, table))
        return false;
    word(&p, ";");
    skip_space(&p);
    return *p == 0;
}

int floe__sql_fast_count(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                         bool *done)
{
    *done = false;
    if (st->nrefs != 1 || !st->query || !st->query->sql || sqlite3_column_count(q) != 1 ||
        !is_bare_count(st->query->sql, st->refs[0].sqlite_name))
        return 0;
    int64_t n = 0;
    int rc = floe__sql_live_count(s, st->refs[0].sqlite_name, &n);
    if (rc != 0)
        return rc < 0 ? rc : 0; /* 1: not exact, let SQLite count */
    const char *name = sqlite3_column_name(q, 0);
    const char *const names[] = {name ? name : "count(1)"};
    floe_sql_cell cell = floe__sql_cell_int(n);
    *done = true;
    return floe__sql_emit(s, names, 1, &cell, 1);
}

/* ------------------------------------------------------- fast aggregates */

__extension__ typedef __int128 i128;

enum { AG_COUNT_STAR, AG_COUNT, AG_SUM, AG_MIN, AG_MAX, AG_AVG };
#define MAX_AGGS 32

typedef struct agg {
    int kind;
    int slot;             /* index into the projected columns, -1 for count(*) */
    const floe_type *type; /* Iceberg type of the column */
    double p10;           /* decimals: 10^scale (SQLite sees unscaled / p10) */
    int64_t cnt;          /* non-NULL values (rows for count(*)) */
    floe_sql_dsum sum;    /* sum(): exec_funcs.c's exact sum */
    double rsum;          /* avg(): SQLite 3.40's plain double sum */
    bool has;             /* min/max: a value was seen */
    bool is_real;         /* min/max: best is dbl, else i */
    int64_t i;
    double dbl;
    int rescale; /* avg() in floe_cast_decimal(avg(c), p, s) (bind.c): s, else -1 */
} agg;

/* One WHERE term `col op literal`, evaluated on every row exactly as
 * SQLite compares the value it would see (INTEGER, REAL or date text) with
 * the literal SQLite parsed. */
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
typedef struct pred {
    int slot;
    int op;
    const floe_type *type;
    double p10;
    int64_t iv;   /* integer columns: an integer literal */
    double dv;    /* REAL columns: the literal as a double */
    char text[16]; /* date columns: the text literal */
    size_t len;
} pred;

typedef struct fast_plan {
    agg aggs[MAX_AGGS];
    size_t naggs;
    pred preds[MAX_AGGS];
    size_t npreds;
    floe_rs_constraint cons[MAX_AGGS]; /* pushed to the scan (pruning) */
    size_t ncons;
    size_t cols[2 * MAX_AGGS];
    size_t ncols;
    uint8_t *keep; /* per row of the batch: passes the WHERE */
    int64_t keep_cap;
    bool bail; /* a value the fast path does not reproduce: let SQLite run */
} fast_plan;

static bool plain_type(const floe_type *t)
{
    switch (t->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG:
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE:
    case FLOE_T_DATE: return true;
    case FLOE_T_DECIMAL: return t->precision <= 15; /* SQLite sees doubles (exec_data.c) */
    default: return false;
    }
}

/* `[qualifier.]name` of a visible column (SQLite checked the qualifier
 * names the statement's one table): its index and its slot among the
 * projected columns. */
static bool column(const char **p, char *col, const floe_rowsource *rs, fast_plan *fp,
                   size_t *c_out, size_t *slot_out)
{
    if (!ident(p, col, 256))
        return false;
    const char *save = *p;
    if (word(p, ".")) {
        if (!ident(p, col, 256))
            return false;
    } else {
        *p = save;
    }
    size_t nvis = rs->ncolumns - rs->nhidden, c = nvis;
    for (size_t i = 0; i < nvis; i++)
        if (strcasecmp(rs->columns[i].name, col) == 0) {
            if (c != nvis)
                return false; /* ambiguous by case */
            c = i;
        }
    if (c == nvis)
        return false;
    size_t slot = 0;
    while (slot < fp->ncols && fp->cols[slot] != c)
        slot++;
    if (slot == fp->ncols)
        fp->cols[fp->ncols++] = c;
    *c_out = c;
    *slot_out = slot;
    return true;
}

/* One `fn(arg)` select item (optionally `[AS] alias`); its column resolved
 * against the row source. */
static bool parse_item(const char **p, const floe_rowsource *rs, fast_plan *fp)
{
    static const char *const fns[] = {"count", "sum", "min", "max", "avg"};
    static const int kinds[] = {AG_COUNT, AG_SUM, AG_MIN, AG_MAX, AG_AVG};
    char name[256], col[256];
    if (fp->naggs >= MAX_AGGS)
        return false;
    agg *g = &fp->aggs[fp->naggs];
    memset(g, 0, sizeof *g);
    g->kind = -1;
    g->rescale = -1;
    /* the binder's avg of a decimal at Spark's result type (print.c) */
    bool wrapped = word(p, "floe_cast_decimal") && word(p, "(");
    for (size_t i = 0; i < 5 && g->kind < 0; i++)
        if (word(p, fns[i]))
            g->kind = kinds[i];
    if (wrapped && g->kind != AG_AVG)
        return false;
    if (g->kind < 0 || !word(p, "("))
        return false;
    g->slot = -1;
    size_t slot = 0;
    if (g->kind == AG_COUNT && (word(p, "*") || word(p, "1"))) {
        g->kind = AG_COUNT_STAR;
    } else {
        size_t c;
        if (!column(p, col, rs, fp, &c, &slot))
            return false;
        g->type = floe__sql_data_type(rs, rs->columns[c].name);
        if (!g->type || !plain_type(g->type))
            return false;
        if (g->type->id == FLOE_T_DATE && (g->kind == AG_SUM || g->kind == AG_AVG))
            return false; /* text in SQLite */
        if (g->type->id == FLOE_T_DECIMAL) {
            g->p10 = 1;
            for (int k = 0; k < g->type->scale; k++)
                g->p10 *= 10;
        }
        g->slot = (int)slot;
    }
    if (!word(p, ")"))
        return false;
    if (wrapped) {
        /* ", p, s)": a result of up to 15 digits is a double (vtab.c's decimals) */
        char *end;
        long prec, sc;
        if (!word(p, ","))
            return false;
        prec = strtol(*p, &end, 10);
        *p = end;
        if (!word(p, ","))
            return false;
        sc = strtol(*p, &end, 10);
        *p = end;
        if (!word(p, ")") || prec < 1 || prec > 15 || sc < 0 || sc > prec)
            return false;
        g->rescale = (int)sc;
    }
    fp->naggs++;
    if (word(p, "as"))
        return ident(p, name, sizeof name);
    const char *save = *p;
    if (word(p, "from")) { /* not an alias */
        *p = save;
        return true;
    }
    if (!ident(p, name, sizeof name))
        *p = save;
    return true;
}

/* A literal as SQLite parses it: its text run through the session's
 * connection (`SELECT <literal>`), so numbers round exactly as in the
 * query. Literals: 'text', [-]number. */
static bool literal(const char **p, floe_sql_session *s, int *type, int64_t *iv, double *dv,
                    char *text, size_t cap, size_t *len)
{
    skip_space(p);
    const char *b = *p, *e = b;
    if (*e == '\'') {
        for (e++; *e && !(*e == '\'' && e[1] != '\''); e++)
            if (*e == '\'')
                e++; /* '' */
        if (*e != '\'')
            return false;
        e++;
    } else {
        if (*e == '-')
            e++;
        if (!(*e >= '0' && *e <= '9') && *e != '.')
            return false;
        while ((*e >= '0' && *e <= '9') || *e == '.' || *e == 'e' || *e == 'E' ||
               ((*e == '+' || *e == '-') && (e[-1] == 'e' || e[-1] == 'E')))
            e++;
    }
    char sql[96];
    if ((size_t)(e - b) + 8 > sizeof sql)
        return false;
    memcpy(sql, "SELECT ", 7);
    memcpy(sql + 7, b, (size_t)(e - b));
    sql[7 + (e - b)] = 0;
    sqlite3_stmt *q = NULL;
    bool ok = sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) == SQLITE_OK && q &&
              sqlite3_step(q) == SQLITE_ROW;
    if (ok) {
        *type = sqlite3_column_type(q, 0);
        *iv = sqlite3_column_int64(q, 0);
        *dv = sqlite3_column_double(q, 0);
        if (*type == SQLITE_TEXT) {
            const char *t = (const char *)sqlite3_column_text(q, 0);
            *len = (size_t)sqlite3_column_bytes(q, 0);
            ok = t && *len < cap;
            if (ok)
                memcpy(text, t, *len + 1);
        }
    }
    sqlite3_finalize(q);
    *p = e;
    return ok;
}

/* Days of a canonical 'YYYY-MM-DD' (years 0000..9999); false otherwise. */
static bool canonical_date(const char *t, size_t len, int32_t *days)
{
    if (len != 10 || t[4] != '-' || t[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !(t[i] >= '0' && t[i] <= '9'))
            return false;
    int64_t y = (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 + (t[3] - '0');
    unsigned m = (unsigned)((t[5] - '0') * 10 + (t[6] - '0'));
    unsigned d = (unsigned)((t[8] - '0') * 10 + (t[9] - '0'));
    if (m < 1 || m > 12 || d < 1 || d > 31)
        return false;
    int64_t z = floe__days_from_civil(y, m, d);
    int64_t y2;
    unsigned m2, d2;
    floe__civil_from_days(z, &y2, &m2, &d2);
    if (y2 != y || m2 != m || d2 != d)
        return false;
    *days = (int32_t)z;
    return true;
}

/* One WHERE term `[q.]col op literal`. Only comparisons whose SQLite
 * meaning is plain: an integer column with an integer literal, a REAL
 * column (double, float, decimal <= 15 digits) with a number, a date
 * column with a text literal. Integer and date terms are also pushed to
 * the scan (pruning); every term is checked on each row here. */
static bool parse_pred(const char **p, floe_sql_session *s, const floe_rowsource *rs,
                       fast_plan *fp)
{
    static const char *const ops[] = {"==", "=", "<>", "!=", "<=", ">=", "<", ">"};
    static const int opk[] = {OP_EQ, OP_EQ, OP_NE, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT};
    char col[256];
    size_t c, slot;
    if (fp->npreds >= MAX_AGGS || !column(p, col, rs, fp, &c, &slot))
        return false;
    pred *pr = &fp->preds[fp->npreds];
    memset(pr, 0, sizeof *pr);
    pr->slot = (int)slot;
    pr->type = floe__sql_data_type(rs, rs->columns[c].name);
    if (!pr->type || !plain_type(pr->type))
        return false;
    pr->op = -1;
    for (size_t i = 0; i < 8 && pr->op < 0; i++)
        if (word(p, ops[i]))
            pr->op = opk[i];
    int type = 0;
    if (pr->op < 0 ||
        !literal(p, s, &type, &pr->iv, &pr->dv, pr->text, sizeof pr->text, &pr->len))
        return false;
    floe_rs_constraint *k = &fp->cons[fp->ncons];
    memset(k, 0, sizeof *k);
    k->column = c;
    static const floe_rs_op push[] = {FLOE_RS_EQ, 0, FLOE_RS_LT, FLOE_RS_LE, FLOE_RS_GT,
                                      FLOE_RS_GE};
    k->op = push[pr->op];
    switch (pr->type->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG:
        if (type != SQLITE_INTEGER)
            return false;
        if (pr->type->id == FLOE_T_LONG) {
            k->value.type = FLOE_T_LONG;
            k->value.v.i64 = pr->iv;
        } else {
            if (pr->iv < INT32_MIN || pr->iv > INT32_MAX)
                k->op = 0; /* not pushed: SQLite alone compares */
            k->value.type = FLOE_T_INT;
            k->value.v.i32 = (int32_t)pr->iv;
        }
        break;
    case FLOE_T_DATE: {
        int32_t days;
        if (type != SQLITE_TEXT)
            return false;
        if (canonical_date(pr->text, pr->len, &days)) {
            k->value.type = FLOE_T_DATE;
            k->value.v.i32 = days;
        } else {
            k->op = 0;
        }
        break;
    }
    default: /* REAL in SQLite */
        if (type == SQLITE_INTEGER) {
            /* SQLite compares REAL and INTEGER exactly; a double holds the
             * integer exactly below 2^53 */
            if (pr->iv > 9007199254740992LL || pr->iv < -9007199254740992LL)
                return false;
            pr->dv = (double)pr->iv;
        } else if (type != SQLITE_FLOAT) {
            return false;
        }
        if (pr->type->id == FLOE_T_DECIMAL) {
            pr->p10 = 1;
            for (int i = 0; i < pr->type->scale; i++)
                pr->p10 *= 10;
        }
        k->op = 0;
        break;
    }
    if (k->op)
        fp->ncons++;
    fp->npreds++;
    return true;
}

/* Is `sql` `SELECT agg(col), ... FROM <table> [[AS] alias] [WHERE col op
 * literal [AND ...]] [;]`? */
static bool parse_aggregates(floe_sql_session *s, const char *sql, const char *table,
                             const floe_rowsource *rs, fast_plan *fp)
{
    const char *p = sql;
    memset(fp, 0, sizeof *fp);
    if (!word(&p, "select"))
        return false;
    do {
        if (!parse_item(&p, rs, fp))
            return false;
    } while (word(&p, ","));
    if (!from_table(&p, table))
        return false;
    if (word(&p, "where")) {
        do {
            if (!parse_pred(&p, s, rs, fp))
                return false;
        } while (word(&p, "and"));
    }
    word(&p, ";");
    skip_space(&p);
    return *p == 0;
}

/* The fast path applies to `q` (and `fp` holds its plan): a data table,
 * the option on, the statement's shape. */
static bool recognise(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                      fast_plan *fp, floe_rowsource **rs)
{
    const char *opt = floe__sql_session_option(s, "floe.fast-aggregates");
    if (opt && strcasecmp(opt, "false") == 0)
        return false;
    if (st->nrefs != 1 || !st->query || !st->query->sql)
        return false;
    *rs = floe__sql_live_source(s, st->refs[0].sqlite_name);
    if (!*rs || !floe__sql_data_type(*rs, (*rs)->columns[0].name))
        return false;
    return parse_aggregates(s, st->query->sql, st->refs[0].sqlite_name, *rs, fp) &&
           (size_t)sqlite3_column_count(q) == fp->naggs;
}

/* Dates SQLite sees as 'YYYY-MM-DD' text compare as their day numbers only
 * for years 0000..9999 (vtab.c formats others differently):
 * days_from_civil(0, 1, 1) and days_from_civil(9999, 12, 31). */
enum { DATE_LO = -719528, DATE_HI = 2932896 };

/* SQLite's min()/max(): a later value replaces the best only when strictly
 * smaller/greater (first of equals kept). */
static inline void minmax_int(agg *g, int64_t v)
{
    if (!g->has || (g->kind == AG_MIN ? v < g->i : v > g->i))
        g->i = v;
    g->has = true;
}

static inline void minmax_real(agg *g, double v)
{
    if (!g->has || (g->kind == AG_MIN ? v < g->dbl : v > g->dbl))
        g->dbl = v;
    g->has = true;
    g->is_real = true;
}

static inline bool valid_at(const struct ArrowArray *a, int64_t k)
{
    const uint8_t *valid = a->null_count == 0 ? NULL : a->buffers[0];
    return !valid || ((valid[k >> 3] >> (k & 7)) & 1);
}

/* Row r of a batch counts: it passed the WHERE (keep, NULL: no WHERE) and
 * column a is not null there. */
static inline bool counted(const struct ArrowArray *a, const uint8_t *keep, int64_t r)
{
    return (!keep || keep[r]) && valid_at(a, r + a->offset);
}

/* sum() of a decimal(p <= 15, s <= 9) column: exactly the sum of the
 * unscaled values at the column's scale (what SQLite's sum() does with the
 * cells' scale subtype, vtab.c). */
static void sum_decimal(agg *g, const struct ArrowArray *a, int64_t n, const uint8_t *keep)
{
    const uint8_t *vb = a->buffers[1];
    i128 acc = 0;
    int64_t cnt = 0;
    if (!keep && a->null_count == 0) {
        /* every row: one add per value, no test */
        const uint8_t *v = vb + 16 * a->offset;
        for (int64_t r = 0; r < n; r++) {
            i128 x;
            memcpy(&x, v + 16 * r, 16);
            acc += x;
        }
        cnt = n;
    } else {
        for (int64_t r = 0; r < n; r++) {
            if (!counted(a, keep, r))
                continue;
            i128 x;
            memcpy(&x, vb + 16 * (r + a->offset), 16);
            acc += x;
            cnt++;
        }
    }
    if (cnt == 0)
        return;
    g->cnt += cnt;
    floe__sql_dsum_add_exact(&g->sum, acc, g->type->scale, true);
}

/* 'YYYY-MM-DD' of a day in years 0000..9999 (vtab.c's text). */
static void date_text(int32_t days, char out[10])
{
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(days, &y, &m, &d);
    out[0] = (char)('0' + y / 1000);
    out[1] = (char)('0' + y / 100 % 10);
    out[2] = (char)('0' + y / 10 % 10);
    out[3] = (char)('0' + y % 10);
    out[4] = '-';
    out[5] = (char)('0' + m / 10);
    out[6] = (char)('0' + m % 10);
    out[7] = '-';
    out[8] = (char)('0' + d / 10);
    out[9] = (char)('0' + d % 10);
}

static inline bool cmp_ok(int op, int c)
{
    switch (op) {
    case OP_EQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    default: return c >= 0;
    }
}

/* fp->keep[r]: row r passes every WHERE term (NULL and NaN never do);
 * 1 when a date outside 0000..9999 is met (SQLite's text differs). */
static int filter_batch(fast_plan *fp, const struct ArrowArray *const *arrays, int64_t n)
{
    if (n > fp->keep_cap) {
        uint8_t *k = floe__realloc(fp->keep, (size_t)n);
        if (!k)
            return floe__error_nomem();
        fp->keep = k;
        fp->keep_cap = n;
    }
    memset(fp->keep, 1, (size_t)n);
    for (size_t pi = 0; pi < fp->npreds; pi++) {
        const pred *pr = &fp->preds[pi];
        const struct ArrowArray *a = arrays[pr->slot];
        const void *vb = a->buffers[1];
        for (int64_t r = 0; r < n; r++) {
            int64_t k = r + a->offset;
            if (!fp->keep[r])
                continue;
            if (!valid_at(a, k)) {
                fp->keep[r] = 0;
                continue;
            }
            int c;
            switch (pr->type->id) {
            case FLOE_T_LONG:
            case FLOE_T_INT: {
                int64_t v = pr->type->id == FLOE_T_LONG ? ((const int64_t *)vb)[k]
                                                        : ((const int32_t *)vb)[k];
                c = v < pr->iv ? -1 : v > pr->iv;
                break;
            }
            case FLOE_T_DATE: {
                int32_t v = ((const int32_t *)vb)[k];
                if (v < DATE_LO || v > DATE_HI) {
                    fp->bail = true;
                    return 1;
                }
                char t[10];
                date_text(v, t);
                size_t m = pr->len < 10 ? pr->len : 10;
                c = memcmp(t, pr->text, m);
                if (c == 0)
                    c = 10 < pr->len ? -1 : 10 > pr->len;
                break;
            }
            default: {
                double x;
                if (pr->type->id == FLOE_T_DOUBLE) {
                    x = ((const double *)vb)[k];
                } else if (pr->type->id == FLOE_T_FLOAT) {
                    x = (double)((const float *)vb)[k];
                } else {
                    i128 d;
                    memcpy(&d, (const uint8_t *)vb + 16 * k, 16);
                    x = (double)(int64_t)d / pr->p10;
                }
                if (isnan(x)) { /* NULL to SQLite */
                    fp->keep[r] = 0;
                    continue;
                }
                c = x < pr->dv ? -1 : x > pr->dv;
                break;
            }
            }
            fp->keep[r] = cmp_ok(pr->op, c);
        }
    }
    return 0;
}

static int on_batch(void *payload, const struct ArrowArray *const *arrays, int64_t n)
{
    fast_plan *fp = payload;
    const uint8_t *keep = NULL;
    if (fp->npreds) {
        FLOE_TRY(filter_batch(fp, arrays, n));
        keep = fp->keep;
    }
    for (size_t ai = 0; ai < fp->naggs; ai++) {
        agg *g = &fp->aggs[ai];
        if (g->kind == AG_COUNT_STAR) {
            if (!keep) {
                g->cnt += n;
                continue;
            }
            for (int64_t r = 0; r < n; r++)
                g->cnt += keep[r];
            continue;
        }
        const struct ArrowArray *a = arrays[g->slot];
        const void *vb = a->buffers[1];
        floe_type_id t = g->type->id;
        if (g->kind == AG_SUM && t == FLOE_T_DECIMAL && g->type->scale <= 9) {
            sum_decimal(g, a, n, keep);
            continue;
        }
        if (g->kind == AG_SUM && (t == FLOE_T_LONG || t == FLOE_T_INT)) {
            i128 acc = 0;
            int64_t cnt = 0;
            if (!keep && a->null_count == 0) {
                if (t == FLOE_T_LONG)
                    for (int64_t r = 0; r < n; r++)
                        acc += ((const int64_t *)vb)[r + a->offset];
                else
                    for (int64_t r = 0; r < n; r++)
                        acc += ((const int32_t *)vb)[r + a->offset];
                cnt = n;
            } else {
                for (int64_t r = 0; r < n; r++) {
                    if (!counted(a, keep, r))
                        continue;
                    int64_t k = r + a->offset;
                    acc += t == FLOE_T_LONG ? ((const int64_t *)vb)[k]
                                            : ((const int32_t *)vb)[k];
                    cnt++;
                }
            }
            if (cnt)
                floe__sql_dsum_add_exact(&g->sum, acc, 0, false);
            g->cnt += cnt;
            continue;
        }
        for (int64_t r = 0; r < n; r++) {
            int64_t k = r + a->offset;
            if (!counted(a, keep, r))
                continue;
            bool is_int = true;
            int64_t iv = 0;
            double x = 0;
            switch (t) {
            case FLOE_T_LONG: iv = ((const int64_t *)vb)[k]; break;
            case FLOE_T_INT: iv = ((const int32_t *)vb)[k]; break;
            case FLOE_T_DATE:
                iv = ((const int32_t *)vb)[k];
                if (iv < DATE_LO || iv > DATE_HI) {
                    fp->bail = true;
                    return 1;
                }
                break;
            case FLOE_T_FLOAT: is_int = false; x = (double)((const float *)vb)[k]; break;
            case FLOE_T_DOUBLE: is_int = false; x = ((const double *)vb)[k]; break;
            default: { /* decimal as SQLite sees it (exec_data.c) */
                i128 d;
                memcpy(&d, (const uint8_t *)vb + 16 * k, 16);
                is_int = false;
                x = (double)(int64_t)d / g->p10;
                break;
            }
            }
            if (!is_int && isnan(x))
                continue; /* SQLite stores a NaN result as NULL */
            g->cnt++;
            switch (g->kind) {
            case AG_SUM:
                floe__sql_dsum_step(&g->sum, is_int ? SQLITE_INTEGER : SQLITE_FLOAT, iv,
                                    is_int ? (double)iv : x);
                break;
            case AG_AVG: g->rsum += is_int ? (double)iv : x; break;
            case AG_MIN:
            case AG_MAX:
                if (is_int)
                    minmax_int(g, iv);
                else
                    minmax_real(g, x);
                break;
            default: break;
            }
        }
    }
    return 0;
}

/* json output shows a decimal as a number */
static int result_cell(floe_sql_session *s, agg *g, floe_buf *text, floe_sql_cell *c)
{
    *c = floe__sql_cell_null();
    switch (g->kind) {
    case AG_COUNT_STAR:
    case AG_COUNT: *c = floe__sql_cell_int(g->cnt); return 0;
    case AG_AVG:
        if (g->cnt > 0 && g->rescale >= 0) { /* floe_cast_decimal's rounding of the double */
            double d;
            if (floe__sql_decimal_round_double(g->rsum / (double)g->cnt, g->rescale, &d))
                FLOE_TRY(floe__sql_out_decimal_cell(s->out, d, g->rescale, text, c));
        } else if (g->cnt > 0) {
            c->kind = FLOE_SQLC_REAL;
            c->d = g->rsum / (double)g->cnt;
        }
        return 0;
    case AG_SUM: {
        int64_t i = 0;
        double d = 0;
        int scale = 0;
        switch (floe__sql_dsum_result(&g->sum, &i, &d, &scale)) {
        case FLOE_SQL_DSUM_NULL: return 0;
        case FLOE_SQL_DSUM_OVERFLOW: return 1; /* SQLite raises its error */
        case FLOE_SQL_DSUM_INT: *c = floe__sql_cell_int(i); return 0;
        case FLOE_SQL_DSUM_REAL:
            c->kind = FLOE_SQLC_REAL;
            c->d = d;
            return 0;
        case FLOE_SQL_DSUM_TEXT: return 1; /* wide decimals: SQLite answers */
        default:
            FLOE_TRY(floe__sql_out_decimal_cell(s->out, d, scale, text, c));
            return 0;
        }
    }
    default: /* min, max */
        if (!g->has)
            return 0;
        if (g->type->id == FLOE_T_DATE) {
            char t[10];
            date_text((int32_t)g->i, t);
            FLOE_TRY(floe__buf_put(text, t, 10));
            c->kind = FLOE_SQLC_TEXT;
            c->s = text->ptr;
            c->n = text->len;
        } else if (g->type->id == FLOE_T_DECIMAL) { /* at the column's scale, as vtab.c */
            FLOE_TRY(floe__sql_out_decimal_cell(s->out, g->dbl, g->type->scale, text, c));
        } else if (g->is_real) {
            c->kind = FLOE_SQLC_REAL;
            c->d = g->dbl;
        } else {
            *c = floe__sql_cell_int(g->i);
        }
        return 0;
    }
}

/* Answer `q` when the fast path applies (*done); emit: write the result. */
static int run_fast(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q, bool emit,
                    size_t *naggs, bool *done)
{
    *done = false;
    fast_plan *fp = floe__calloc(1, sizeof *fp);
    if (!fp)
        return floe__error_nomem();
    floe_rowsource *rs = NULL;
    if (!recognise(s, st, q, fp, &rs)) {
        floe__free(fp);
        return 0;
    }
    int rc = floe__sql_data_each_batch(rs, fp->cons, fp->ncons, fp->cols, fp->ncols, on_batch, fp);
    floe_buf text[MAX_AGGS];
    floe_sql_cell cells[MAX_AGGS];
    const char *names[MAX_AGGS];
    memset(text, 0, sizeof text);
    for (size_t i = 0; rc == 0 && i < fp->naggs; i++) {
        names[i] = sqlite3_column_name(q, (int)i);
        if (!names[i])
            rc = floe__error_nomem();
        if (rc == 0)
            rc = result_cell(s, &fp->aggs[i], &text[i], &cells[i]);
    }
    if (rc == 0) {
        *done = true;
        *naggs = fp->naggs;
        if (emit)
            rc = floe__sql_emit(s, names, fp->naggs, cells, 1);
    }
    for (size_t i = 0; i < fp->naggs; i++)
        floe__buf_free(&text[i]);
    floe__free(fp->keep);
    floe__free(fp);
    return rc < 0 ? rc : 0; /* 1: let SQLite answer */
}

int floe__sql_fast_aggregate(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                             bool *done)
{
    size_t n = 0;
    return run_fast(s, st, q, true, &n, done);
}

int floe__sql_fast_explain(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                           floe_arena *a, const char **line)
{
    *line = NULL;
    size_t n = 0;
    bool done = false;
    FLOE_TRY(run_fast(s, st, q, false, &n, &done));
    if (done && !(*line = floe__arena_sprintf(a,
                                              "Fast aggregate: %zu aggregate%s over the scan's "
                                              "Arrow batches (SQLite does not step the rows)",
                                              n, n == 1 ? "" : "s")))
        return floe__error_nomem();
    return 0;
}
