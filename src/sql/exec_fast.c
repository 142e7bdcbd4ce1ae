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
 *    would see (exec_data.c/vtab.c: decimals <= 15 digits as doubles,
 *    wider ones as exact text, NaN as NULL, dates as text). sum() is
 *    exec_funcs.c's exact sum (one implementation); avg() is SQLite 3.40's
 *    plain double sum / count. Anything the recogniser does not know, and
 *    any value it cannot reproduce (integer overflow, a date outside
 *    0000..9999), is left to SQLite. `SET floe.fast-aggregates = false`
 *    turns 2 and 3 off.
 * 3. The same with `GROUP BY <col>` of an INT or BIGINT column, whose
 *    select items are that column or aggregates: each batch's rows find
 *    their group through an array for small keys, a hash table for the
 *    others, then every aggregate adds each row to
 *    its group's state (gacc). The rows come out as SQLite's GROUP BY
 *    sorter gives them: the NULL key first, then ascending keys; decimals
 *    show their result type's scale, as output.c shows SQLite's grouped
 *    rows from the binder's types (group_cell).
 *
 * Both recognise the statement on its syntax tree (sql/ast.h: one SELECT
 * over the statement's one reference); the statement is prepared first (so
 * a syntax or name error still surfaces as SQLite's) and result columns
 * keep SQLite's names. A WHERE term whose meaning for SQLite's values is
 * exactly its floe expression (cond.c: floe__sql_cond_expr, exact, plus
 * the guards below) becomes the scan's filter, so the scan drops the rows
 * while decoding; the other terms (a literal the expression cannot state
 * exactly, text comparisons of dates) are checked here on each row
 * (filter_batch).
 */
#include "sql/exec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "expr/expr.h"
#include "rows/rowsource.h"
#include "scan/scan.h"
#include "spec/value.h"
#include "sql/ast.h"
#include "sql/exec_data.h"
#include "util/civil.h"

/* The statement's query when it is one plain SELECT over its one
 * reference: no DISTINCT, GROUP BY (one term where `group`), HAVING,
 * WINDOW, ORDER BY or LIMIT (a tree with those has another root), no
 * column aliases on the table. */
static const sql_node *select_of(const floe_sql_stmt *st, bool group)
{
    if (st->nrefs != 1 || !st->query || !st->query->tree)
        return NULL;
    const sql_node *n = st->query->tree;
    if (n->k != SN_SELECT || (n->f & SNF_DISTINCT) || n->nw > (group ? 1u : 0u) || n->c || n->nx ||
        !n->nv)
        return NULL;
    const sql_node *t = n->a;
    if (!t || t->k != SN_TABLE || !t->s || t->nnames || strcmp(t->s, st->refs[0].sqlite_name) != 0)
        return NULL;
    return n;
}

static const sql_node *simple_select(const floe_sql_stmt *st)
{
    return select_of(st, false);
}

static const sql_node *unparen(const sql_node *n)
{
    while (n && n->k == SN_PAREN)
        n = n->a;
    return n;
}

/* The aggregate call of select item `it` (NULL: not a plain call). */
static const sql_node *agg_call(const sql_node *it)
{
    const sql_node *f = it->k == SN_ITEM ? unparen(it->a) : NULL;
    if (!f || f->k != SN_FUNC || !f->s || f->a || f->b || (f->f & SNF_DISTINCT))
        return NULL;
    return f;
}

/* count(*) or count(1)? */
static bool is_count_star(const sql_node *f)
{
    if (!floe__sql_ieq(f->s, "count"))
        return false;
    if (f->f & SNF_STARARG)
        return f->nv == 0;
    const sql_node *x = f->nv == 1 ? unparen(f->v[0]) : NULL;
    return x && x->k == SN_LIT && !x->s && x->tok->kind == TK_NUMBER && !x->tok->suffix &&
           !(x->f & SNF_NEG) && strcmp(x->tok->text, "1") == 0;
}

int floe__sql_fast_count(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                         bool *done)
{
    *done = false;
    const sql_node *n = simple_select(st);
    const sql_node *f = n && n->nv == 1 && !n->b ? agg_call(n->v[0]) : NULL;
    if (!f || !is_count_star(f) || sqlite3_column_count(q) != 1)
        return 0;
    int64_t cnt = 0;
    int rc = floe__sql_live_count(s, st->refs[0].sqlite_name, &cnt);
    if (rc != 0)
        return rc < 0 ? rc : 0; /* 1: not exact, let SQLite count */
    const char *name = sqlite3_column_name(q, 0);
    const char *const names[] = {name ? name : "count(1)"};
    floe_sql_cell cell = floe__sql_cell_int(cnt);
    *done = true;
    return floe__sql_emit(s, names, 1, &cell, 1);
}

/* ------------------------------------------------------- fast aggregates */

__extension__ typedef __int128 i128;

enum { AG_COUNT_STAR, AG_COUNT, AG_SUM, AG_MIN, AG_MAX, AG_AVG };
#define MAX_AGGS 32

typedef struct agg {
    int kind;
    int slot;              /* index into the projected columns, -1 for count(*) */
    const floe_type *type; /* Iceberg type of the column */
    bool wide;             /* a decimal SQLite sees as exact text (precision > 15) */
    double p10;            /* decimals: 10^scale (SQLite sees unscaled / p10) */
    int64_t cnt;           /* non-NULL values (rows for count(*)) */
    floe_sql_dsum sum;     /* sum(): exec_funcs.c's exact sum */
    double rsum;           /* avg(): SQLite 3.40's plain double sum */
    bool has;              /* min/max: a value was seen */
    bool is_real;          /* min/max: best is dbl, else i */
    int64_t i;             /* min/max of integers, dates and decimals (unscaled) */
    double dbl;
    int rescale; /* avg() of a decimal: the binder's result scale (print.c's floe_cast_decimal), else -1 */
} agg;

/* One WHERE term `col op literal` checked here on every row exactly as
 * SQLite compares the value it would see (INTEGER, REAL or date text) with
 * the literal SQLite parsed. */
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
typedef struct pred {
    int slot;
    int op;
    const floe_type *type;
    double p10;
    int64_t iv;    /* integer columns: an integer literal */
    double dv;     /* REAL columns: the literal as a double */
    char text[16]; /* date columns: the text literal */
    size_t len;
} pred;

/* One group's state of one aggregate (GROUP BY): the partial results the
 * agg fields above hold for the whole table. */
typedef struct gacc {
    union {
        i128 isum;        /* sum of integers or decimals (unscaled) */
        floe_sql_dsum ds; /* sum of doubles: exec_funcs.c's, row by row */
        double rsum;      /* avg */
        struct {          /* min/max */
            int64_t i;
            double d;
        } best;
    } u;
    int64_t cnt;
    bool has; /* min/max: a value was seen */
} gacc;

typedef struct fast_plan {
    agg aggs[MAX_AGGS];
    size_t naggs;
    pred preds[MAX_AGGS]; /* terms checked in filter_batch */
    size_t npreds;
    /* the exact terms, the scan's filter (nodes in `arena`) */
    const floe_expr *filter;
    floe_arena *arena;
    /* slots of floating-point columns of pushed terms: the scan keeps a
     * NaN where Spark's order says so, SQLite sees NULL (drop the row) */
    int nan_slots[MAX_AGGS];
    bool nan_float[MAX_AGGS]; /* a float column, else a double */
    size_t nnan;
    /* slots of date columns of pushed terms: the filter keeps dates
     * outside 0000..9999, whose SQLite text orders differently (bail) */
    int date_slots[MAX_AGGS];
    size_t ndate;
    size_t cols[2 * MAX_AGGS];
    size_t ncols;
    uint8_t *keep; /* per row of the batch: passes the WHERE */
    int64_t keep_cap;
    bool bail; /* a value the fast path does not reproduce: let SQLite run */
    /* GROUP BY <column> (grouped): the key's slot and type, and per select
     * item its aggregate (-1: the key) */
    bool grouped;
    int key_slot;
    floe_type_id key_type;
    int item_agg[MAX_AGGS];
    size_t nitems;
    /* the groups: keys (null_gid: the NULL key's group, -1 none), each
     * group's naggs states, and an open-addressing table of group + 1 (0:
     * empty) by key */
    size_t ngroups, gcap;
    int64_t *gkey;
    gacc *acc;
    int32_t null_gid;
    int32_t *hslot;
    size_t hcap;
    int32_t *gid;  /* per row of the batch: its group, -1 not kept */
    int32_t *dmap; /* per key - DIRECT_LO below DIRECT_SPAN: its group, -1 none yet */
    size_t gid_cap;
} fast_plan;

/* A column SQLite sees as INTEGER, REAL or date text; wide decimals (exact
 * text) only where `wide_ok` (count, sum, min, max of precision <= 18). */
static bool plain_type(const floe_type *t, bool wide_ok)
{
    switch (t->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG:
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE:
    case FLOE_T_DATE: return true;
    case FLOE_T_DECIMAL: return t->precision <= 15 || (wide_ok && t->precision <= 18);
    default: return false;
    }
}

static double pow10_of(int scale)
{
    double p10 = 1;
    for (int k = 0; k < scale; k++)
        p10 *= 10;
    return p10;
}

/* Where the statement's columns resolve. */
typedef struct scope {
    const floe_rowsource *rs;
    const char *qualifier; /* the table's alias, else its name */
} scope;

/* `[qualifier.]name` of a visible column (case-insensitive, unique): its
 * index and its slot among the projected columns. */
static bool column(const scope *sc, const sql_node *n, fast_plan *fp, size_t *c_out,
                   size_t *slot_out)
{
    n = unparen(n);
    if (!n || n->k != SN_COL || n->nnames < 1 || n->nnames > 2)
        return false;
    const floe_rowsource *rs = sc->rs;
    size_t nvis = rs->ncolumns - rs->nhidden;
    const char *name = n->names[n->nnames - 1];
    if (n->nnames == 2) {
        if (!sc->qualifier || !floe__sql_ieq(n->names[0], sc->qualifier))
            return false;
        for (size_t i = 0; i < nvis; i++)
            if (floe__sql_ieq(rs->columns[i].name, n->names[0]))
                return false; /* could be a struct field */
    }
    size_t c = nvis;
    for (size_t i = 0; i < nvis; i++)
        if (floe__sql_ieq(rs->columns[i].name, name)) {
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

/* One `fn(arg)` select item. */
static bool parse_item(const scope *sc, const sql_node *it, fast_plan *fp)
{
    static const char *const fns[] = {"count", "sum", "min", "max", "avg"};
    static const int kinds[] = {AG_COUNT, AG_SUM, AG_MIN, AG_MAX, AG_AVG};
    const sql_node *f = agg_call(it);
    if (!f || fp->naggs >= MAX_AGGS)
        return false;
    agg *g = &fp->aggs[fp->naggs];
    memset(g, 0, sizeof *g);
    g->kind = -1;
    g->slot = -1;
    g->rescale = -1;
    for (size_t i = 0; i < FLOE_ARRAY_LEN(fns) && g->kind < 0; i++)
        if (floe__sql_ieq(f->s, fns[i]))
            g->kind = kinds[i];
    if (g->kind < 0)
        return false;
    if (is_count_star(f)) {
        g->kind = AG_COUNT_STAR;
    } else {
        size_t c, slot;
        if ((f->f & SNF_STARARG) || f->nv != 1 || !column(sc, f->v[0], fp, &c, &slot))
            return false;
        g->type = floe__sql_data_type(sc->rs, sc->rs->columns[c].name);
        if (!g->type || !plain_type(g->type, g->kind != AG_AVG))
            return false;
        if (g->type->id == FLOE_T_DATE && (g->kind == AG_SUM || g->kind == AG_AVG))
            return false; /* text in SQLite */
        if (g->type->id == FLOE_T_DECIMAL) {
            g->p10 = pow10_of(g->type->scale);
            g->wide = g->type->precision > 15;
        }
        g->slot = (int)slot;
        if (g->kind == AG_AVG && f->t.kind == ST_DECIMAL) {
            /* Spark's avg(decimal(p, s)) is decimal(p + 4, s + 4) (bind.c); a
             * result of up to 15 digits is a double, as vtab.c's decimals */
            if (f->t.p > 15)
                return false;
            g->rescale = f->t.s;
        }
    }
    fp->naggs++;
    return true;
}

/* A literal as SQLite parses it: its SQLite text (as print.c writes it)
 * run through the session's connection (`SELECT <literal>`), so numbers
 * round exactly as in the query. Literals: numbers without a decimal or
 * float suffix (doubles: D), strings, DATE literals. */
static bool literal(const sql_node *n, floe_sql_session *s, int *type, int64_t *iv, double *dv,
                    char *text, size_t cap, size_t *len)
{
    n = unparen(n);
    if (!n)
        return false;
    if ((n->k == SN_LIT && !n->s && n->tok->kind == TK_STRING) ||
        (n->k == SN_TIMELIT && (n->f & SNF_DATE))) {
        const char *t = n->k == SN_LIT ? n->tok->text : n->s;
        *type = SQLITE_TEXT;
        *len = strlen(t);
        if (*len >= cap)
            return false;
        memcpy(text, t, *len + 1);
        return true;
    }
    if (n->k != SN_LIT || n->s || n->tok->kind != TK_NUMBER)
        return false;
    char suffix = n->tok->suffix;
    const char *t = n->tok->text;
    if ((suffix && suffix != 'L' && suffix != 'S' && suffix != 'Y' && suffix != 'D') ||
        strlen(t) > 17) /* longer: print.c may quote it as text */
        return false;
    char sql[64];
    snprintf(sql, sizeof sql, "SELECT %s%s%s", n->f & SNF_NEG ? "-" : "", t,
             suffix == 'D' && !strpbrk(t, ".eE") ? ".0" : "");
    sqlite3_stmt *q = NULL;
    bool ok = sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) == SQLITE_OK && q &&
              sqlite3_step(q) == SQLITE_ROW;
    if (ok) {
        *type = sqlite3_column_type(q, 0);
        *iv = sqlite3_column_int64(q, 0);
        *dv = sqlite3_column_double(q, 0);
        ok = *type == SQLITE_INTEGER || *type == SQLITE_FLOAT;
    }
    sqlite3_finalize(q);
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

/* Dates SQLite sees as 'YYYY-MM-DD' text compare as their day numbers only
 * for years 0000..9999 (vtab.c formats others differently):
 * days_from_civil(0, 1, 1) and days_from_civil(9999, 12, 31). */
enum { DATE_LO = -719528, DATE_HI = 2932896 };

/* Is the term `col op literal` exactly its floe expression for the values
 * SQLite compares? Integers with integer literals; dates with a canonical
 * 'YYYY-MM-DD' (other text compares as text in SQLite); doubles with a
 * nonzero number (integers within 2^53); floats with a nonzero integer
 * within 2^24 (SQLite compares the float widened, floe in floats) or a
 * number that is a float; decimals <= 15 digits (doubles in SQLite: a
 * literal of at most 15 digits at the column's scale orders as its double).
 * cond.c then says whether the expression is exact (literal digits beyond
 * the column's scale are not). NaN and dates outside 0000..9999 are
 * handled on the rows (nan_slots, date_slots). */
static bool pushable(const pred *pr, int type)
{
    switch (pr->type->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG: return type == SQLITE_INTEGER;
    case FLOE_T_DATE: {
        int32_t days;
        return type == SQLITE_TEXT && canonical_date(pr->text, pr->len, &days);
    }
    case FLOE_T_FLOAT:
        if (type == SQLITE_INTEGER)
            return pr->iv != 0 && pr->iv <= (1 << 24) && pr->iv >= -(1 << 24);
        return pr->dv != 0 && (double)(float)pr->dv == pr->dv;
    case FLOE_T_DOUBLE: return pr->dv != 0 && isfinite(pr->dv);
    case FLOE_T_DECIMAL: return fabs(pr->dv) * pr->p10 < 1e15;
    default: return false;
    }
}

/* One WHERE term `[q.]col op literal`. Only comparisons whose SQLite
 * meaning is plain: an integer column with an integer literal, a REAL
 * column (double, float, decimal <= 15 digits) with a number, a date
 * column with a text literal. An exact one joins the scan's filter, the
 * others are checked on each row here. */
static int parse_pred(floe_sql_session *s, const scope *sc, const sql_node *term, fast_plan *fp,
                      bool *ok)
{
    static const char *const ops[] = {"==", "=", "<>", "!=", "<=", ">=", "<", ">"};
    static const int opk[] = {OP_EQ, OP_EQ, OP_NE, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT};
    *ok = false;
    const sql_node *n = unparen(term);
    size_t c, slot;
    if (fp->npreds >= MAX_AGGS || n->k != SN_BIN || !column(sc, n->a, fp, &c, &slot))
        return 0;
    pred *pr = &fp->preds[fp->npreds];
    memset(pr, 0, sizeof *pr);
    pr->slot = (int)slot;
    pr->type = floe__sql_data_type(sc->rs, sc->rs->columns[c].name);
    if (!pr->type || !plain_type(pr->type, false))
        return 0;
    pr->op = -1;
    for (size_t i = 0; i < FLOE_ARRAY_LEN(ops) && pr->op < 0; i++)
        if (strcmp(n->s, ops[i]) == 0)
            pr->op = opk[i];
    int type = 0;
    if (pr->op < 0 ||
        !literal(n->b, s, &type, &pr->iv, &pr->dv, pr->text, sizeof pr->text, &pr->len))
        return 0;
    switch (pr->type->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG:
        if (type != SQLITE_INTEGER)
            return 0;
        break;
    case FLOE_T_DATE:
        if (type != SQLITE_TEXT)
            return 0;
        break;
    default: /* REAL in SQLite */
        if (type == SQLITE_INTEGER) {
            /* SQLite compares REAL and INTEGER exactly; a double holds the
             * integer exactly below 2^53 */
            if (pr->iv > 9007199254740992LL || pr->iv < -9007199254740992LL)
                return 0;
            pr->dv = (double)pr->iv;
        } else if (type != SQLITE_FLOAT) {
            return 0;
        }
        if (pr->type->id == FLOE_T_DECIMAL)
            pr->p10 = pow10_of(pr->type->scale);
        break;
    }
    *ok = true;
    if (pushable(pr, type)) {
        const floe_schema *schema = floe__sql_data_schema(sc->rs);
        sql_cond_scope cs = {schema, sc->qualifier, s->tz};
        const floe_expr *e = NULL;
        bool exact = false;
        if (schema)
            FLOE_TRY(floe__sql_cond_expr(&e, &exact, fp->arena, n, &cs));
        if (exact && pr->type->id == FLOE_T_DATE) {
            /* keep the dates SQLite's text orders otherwise: on_batch bails */
            const char *name = sc->rs->columns[c].name;
            e = floe_expr_or(
                fp->arena, e,
                floe_expr_or(fp->arena,
                             floe_expr_cmp(fp->arena, FLOE_OP_LT, name, floe_value_date(DATE_LO)),
                             floe_expr_cmp(fp->arena, FLOE_OP_GT, name, floe_value_date(DATE_HI))));
            if (!e)
                return floe__error_nomem();
            fp->date_slots[fp->ndate++] = (int)slot;
        }
        if (exact) {
            if (pr->type->id == FLOE_T_FLOAT || pr->type->id == FLOE_T_DOUBLE) {
                fp->nan_float[fp->nnan] = pr->type->id == FLOE_T_FLOAT;
                fp->nan_slots[fp->nnan++] = (int)slot;
            }
            fp->filter = fp->filter ? floe_expr_and(fp->arena, fp->filter, e) : e;
            if (!fp->filter)
                return floe__error_nomem();
            return 0;
        }
    }
    fp->npreds++;
    return 0;
}

/* The WHERE's conjuncts (AND, parentheses) as terms. */
static int parse_where(floe_sql_session *s, const scope *sc, const sql_node *w, fast_plan *fp,
                       bool *ok)
{
    w = unparen(w);
    if (w->k == SN_BIN && strcmp(w->s, "AND") == 0) {
        FLOE_TRY(parse_where(s, sc, w->a, fp, ok));
        if (*ok)
            FLOE_TRY(parse_where(s, sc, w->b, fp, ok));
        return 0;
    }
    return parse_pred(s, sc, w, fp, ok);
}

/* Can one group's state (gacc) reproduce the aggregate as SQLite computes
 * it after its GROUP BY sorter? The sorter keeps values but not their
 * subtypes, so decimals reach sum/min/max as plain REALs (exec_funcs.c's
 * sum then shows the largest scale of the values' shortest text): integers,
 * doubles, floats and decimals of precision <= 15 and scale <= 9 (whose
 * doubles read back as their shortest text, exec_funcs.c's exact_decimal). */
static bool group_agg_ok(const agg *g)
{
    if (g->kind == AG_COUNT_STAR)
        return true;
    switch (g->type->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG:
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE: return true;
    case FLOE_T_DECIMAL: return !g->wide && g->type->scale <= 9;
    default: return false;
    }
}

/* `SELECT <key | agg(col)>, ... FROM t [WHERE ...] GROUP BY <key>` with an
 * INT or BIGINT key column: the items' plan. An item alias naming the key
 * column could be what SQLite's GROUP BY resolves to: left to SQLite. */
static bool parse_group(const scope *sc, const sql_node *n, fast_plan *fp)
{
    size_t kc, kslot;
    if (!column(sc, n->w[0], fp, &kc, &kslot))
        return false;
    const char *kname = sc->rs->columns[kc].name;
    const floe_type *kt = floe__sql_data_type(sc->rs, kname);
    if (!kt || (kt->id != FLOE_T_INT && kt->id != FLOE_T_LONG))
        return false;
    fp->grouped = true;
    fp->key_slot = (int)kslot;
    fp->key_type = kt->id;
    fp->null_gid = -1;
    fp->nitems = n->nv;
    for (size_t i = 0; i < n->nv; i++) {
        const sql_node *it = n->v[i];
        if (it->k != SN_ITEM)
            return false;
        const sql_node *e = unparen(it->a);
        if (e && e->k == SN_COL) { /* the key itself (another column: not a GROUP BY) */
            size_t c, slot;
            if (!column(sc, e, fp, &c, &slot) || c != kc)
                return false;
            fp->item_agg[i] = -1;
            continue;
        }
        if ((it->alias && floe__sql_ieq(it->alias, kname)) || !parse_item(sc, it, fp) ||
            !group_agg_ok(&fp->aggs[fp->naggs - 1]))
            return false;
        fp->item_agg[i] = (int)fp->naggs - 1;
    }
    return true;
}

/* The fast path applies to `q` (*ok; `fp` holds its plan): a data table,
 * the option on, the statement's shape. */
static int recognise(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q, fast_plan *fp,
                     floe_rowsource **rs, bool *ok)
{
    *ok = false;
    const char *opt = floe__sql_session_option(s, "floe.fast-aggregates");
    if (opt && strcasecmp(opt, "false") == 0)
        return 0;
    const sql_node *n = select_of(st, true);
    if (!n || n->nv > MAX_AGGS || (size_t)sqlite3_column_count(q) != n->nv)
        return 0;
    *rs = floe__sql_live_source(s, st->refs[0].sqlite_name);
    if (!*rs || !floe__sql_data_type(*rs, (*rs)->columns[0].name))
        return 0;
    scope sc = {*rs, n->a->alias ? n->a->alias : st->refs[0].name.table};
    if (n->nw == 1) {
        if (!parse_group(&sc, n, fp))
            return 0;
    } else {
        for (size_t i = 0; i < n->nv; i++)
            if (!parse_item(&sc, n->v[i], fp))
                return 0;
    }
    *ok = true;
    if (n->b)
        FLOE_TRY(parse_where(s, &sc, n->b, fp, ok));
    return 0;
}

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

/* fp->keep[r] (set): row r passes every term checked here (NULL and NaN
 * never do); 1 when a date outside 0000..9999 is met (SQLite's text
 * differs). */
static int filter_batch(fast_plan *fp, const struct ArrowArray *const *arrays, int64_t n)
{
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

/* sum() of a decimal(p <= 18) column: exactly the sum of the unscaled
 * values at the column's scale (what SQLite's sum() does with the cells'
 * scale subtype, or with a wide decimal's exact text: exec_funcs.c). The
 * values fit int64 (the low half of Arrow's 16 bytes); blocks of 1,024 add
 * on int64, which cannot overflow below 10^15 a value (2^63 > 1024 *
 * 10^15); wider values detect the overflow and add that block on 128 bits. */
static void sum_decimal(agg *g, const struct ArrowArray *a, int64_t n, const uint8_t *keep)
{
    enum { BLOCK = 1024 };
    const uint8_t *vb = (const uint8_t *)a->buffers[1] + 16 * a->offset;
    bool check = g->type->precision > 15, dense = !keep && a->null_count == 0;
    i128 acc = 0;
    int64_t cnt = 0;
    for (int64_t b0 = 0; b0 < n; b0 += BLOCK) {
        int64_t b1 = b0 + BLOCK < n ? b0 + BLOCK : n;
        int64_t s64 = 0;
        bool over = false;
        if (dense && !check) {
            for (int64_t r = b0; r < b1; r++) {
                int64_t x;
                memcpy(&x, vb + 16 * r, 8);
                s64 += x;
            }
            cnt += b1 - b0;
        } else {
            for (int64_t r = b0; r < b1; r++) {
                if (!dense && !counted(a, keep, r))
                    continue;
                int64_t x;
                memcpy(&x, vb + 16 * r, 8);
                over |= __builtin_add_overflow(s64, x, &s64);
                cnt++;
            }
        }
        if (!over) {
            acc += s64;
            continue;
        }
        for (int64_t r = b0; r < b1; r++) /* the wider path */
            if (dense || counted(a, keep, r)) {
                int64_t x;
                memcpy(&x, vb + 16 * r, 8);
                acc += x;
            }
    }
    if (cnt == 0)
        return;
    g->cnt += cnt;
    if (g->wide)
        g->sum.wide = true; /* SQLite's sum() of exact text answers text */
    floe__sql_dsum_add_exact(&g->sum, acc, g->type->scale, true);
}

/* sum() of an int or long column: one exact 128-bit partial sum. */
static void sum_integer(agg *g, const struct ArrowArray *a, int64_t n, const uint8_t *keep)
{
    const void *vb = a->buffers[1];
    bool is_long = g->type->id == FLOE_T_LONG;
    i128 acc = 0;
    int64_t cnt = 0;
    if (!keep && a->null_count == 0) {
        if (is_long)
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
            acc += is_long ? ((const int64_t *)vb)[k] : ((const int32_t *)vb)[k];
            cnt++;
        }
    }
    if (cnt)
        floe__sql_dsum_add_exact(&g->sum, acc, 0, false);
    g->cnt += cnt;
}

/* The integer SQLite orders row k by: ints, longs, days, a decimal's
 * unscaled value (its double orders alike: <= 15 digits read back exactly;
 * wider ones compare by value under the numeric collation). */
static inline int64_t int_at(floe_type_id t, const void *vb, int64_t k)
{
    switch (t) {
    case FLOE_T_LONG: return ((const int64_t *)vb)[k];
    case FLOE_T_DECIMAL: {
        int64_t x;
        memcpy(&x, (const uint8_t *)vb + 16 * k, 8);
        return x;
    }
    default: return ((const int32_t *)vb)[k];
    }
}

/* min()/max() of an integer-ordered column (int_at); 1 on a date outside
 * 0000..9999. */
static int minmax_integer(agg *g, const struct ArrowArray *a, int64_t n, const uint8_t *keep)
{
    const void *vb = a->buffers[1];
    floe_type_id t = g->type->id;
    bool min = g->kind == AG_MIN;
    int64_t best = min ? INT64_MAX : INT64_MIN, cnt = 0;
    if (!keep && a->null_count == 0 && t == FLOE_T_LONG) {
        const int64_t *v = (const int64_t *)vb + a->offset;
        for (int64_t r = 0; r < n; r++)
            best = min ? (v[r] < best ? v[r] : best) : (v[r] > best ? v[r] : best);
        cnt = n;
    } else if (!keep && a->null_count == 0 && t == FLOE_T_DECIMAL) {
        const uint8_t *v = (const uint8_t *)vb + 16 * a->offset;
        for (int64_t r = 0; r < n; r++) {
            int64_t x;
            memcpy(&x, v + 16 * r, 8);
            best = min ? (x < best ? x : best) : (x > best ? x : best);
        }
        cnt = n;
    } else {
        for (int64_t r = 0; r < n; r++) {
            if (!counted(a, keep, r))
                continue;
            int64_t x = int_at(t, vb, r + a->offset);
            best = min ? (x < best ? x : best) : (x > best ? x : best);
            cnt++;
        }
    }
    if (cnt == 0)
        return 0;
    if (t == FLOE_T_DATE && (best < DATE_LO || best > DATE_HI))
        return 1;
    g->cnt += cnt;
    minmax_int(g, best);
    return 0;
}

/* avg() over a batch of integers or decimals without nulls or WHERE mask:
 * the same plain double sum in scan order as the generic loop (each
 * decimal's double, as SQLite sees it), without its per-row tests. */
static void avg_dense(agg *g, const struct ArrowArray *a, int64_t n)
{
    const void *vb = a->buffers[1];
    double sum = g->rsum;
    switch (g->type->id) {
    case FLOE_T_LONG:
        for (int64_t r = 0; r < n; r++)
            sum += (double)((const int64_t *)vb)[r + a->offset];
        break;
    case FLOE_T_INT:
        for (int64_t r = 0; r < n; r++)
            sum += (double)((const int32_t *)vb)[r + a->offset];
        break;
    default: {
        const uint8_t *v = (const uint8_t *)vb + 16 * a->offset;
        double p10 = g->p10;
        for (int64_t r = 0; r < n; r++) {
            int64_t x;
            memcpy(&x, v + 16 * r, 8);
            sum += (double)x / p10;
        }
        break;
    }
    }
    g->rsum = sum;
    g->cnt += n;
}

/* Does column `a` hold a NaN (in any slot: a null's value is harmless
 * to drop, its row fails the comparison anyway)? */
static bool has_nan(const struct ArrowArray *a, int64_t n, bool is_float)
{
    const void *vb = a->buffers[1];
    bool nan = false;
    if (is_float)
        for (int64_t r = 0; r < n; r++)
            nan |= isnan(((const float *)vb)[r + a->offset]);
    else
        for (int64_t r = 0; r < n; r++)
            nan |= isnan(((const double *)vb)[r + a->offset]);
    return nan;
}

/* Any date outside 0000..9999 in column `a`? */
static bool date_out_of_range(const struct ArrowArray *a, int64_t n)
{
    const int32_t *v = (const int32_t *)a->buffers[1] + a->offset;
    for (int64_t r = 0; r < n; r++)
        if ((v[r] < DATE_LO || v[r] > DATE_HI) && valid_at(a, r + a->offset))
            return true;
    return false;
}

/* The batch's WHERE mask: NULL when every row passes (all pushed terms, no
 * NaN), else fp->keep. 1: bail (a date SQLite's text orders otherwise). */
static int batch_keep(fast_plan *fp, const struct ArrowArray *const *arrays, int64_t n,
                      const uint8_t **keep)
{
    *keep = NULL;
    for (size_t i = 0; i < fp->ndate; i++)
        if (date_out_of_range(arrays[fp->date_slots[i]], n)) {
            fp->bail = true;
            return 1;
        }
    bool nan = false;
    for (size_t i = 0; i < fp->nnan && !nan; i++)
        nan = has_nan(arrays[fp->nan_slots[i]], n, fp->nan_float[i]);
    if (!fp->npreds && !nan)
        return 0;
    if (n > fp->keep_cap) {
        uint8_t *k = floe__realloc(fp->keep, (size_t)n);
        if (!k)
            return floe__error_nomem();
        fp->keep = k;
        fp->keep_cap = n;
    }
    memset(fp->keep, 1, (size_t)n);
    for (size_t i = 0; nan && i < fp->nnan; i++) { /* NULL to SQLite: no comparison holds */
        const struct ArrowArray *a = arrays[fp->nan_slots[i]];
        bool is_float = fp->nan_float[i];
        const void *vb = a->buffers[1];
        for (int64_t r = 0; r < n; r++) {
            int64_t k = r + a->offset;
            double x = is_float ? (double)((const float *)vb)[k] : ((const double *)vb)[k];
            if (isnan(x))
                fp->keep[r] = 0;
        }
    }
    if (fp->npreds) {
        int rc = filter_batch(fp, arrays, n);
        if (rc != 0)
            return rc;
    }
    *keep = fp->keep;
    return 0;
}

/* ------------------------------------------------------ GROUP BY <key> */

/* At most this many bytes of group states, then SQLite answers. */
#define MAX_GROUP_BYTES ((size_t)256 << 20)
/* Keys in [DIRECT_LO, DIRECT_LO + DIRECT_SPAN) map to their group through
 * an array. */
enum { DIRECT_LO = -256, DIRECT_SPAN = 4096 };

/* A new group of key `key` (ignored for the NULL key): *out its index; 1
 * when the groups outgrow MAX_GROUP_BYTES. */
static int group_new(fast_plan *fp, int64_t key, int32_t *out)
{
    size_t na = fp->naggs ? fp->naggs : 1;
    if (fp->ngroups == fp->gcap) {
        size_t cap = fp->gcap ? 2 * fp->gcap : 64;
        if (cap > INT32_MAX / 2 || cap * na > MAX_GROUP_BYTES / sizeof(gacc)) {
            fp->bail = true;
            return 1;
        }
        int64_t *k = floe__realloc(fp->gkey, cap * sizeof *k);
        if (!k)
            return floe__error_nomem();
        fp->gkey = k;
        gacc *a = floe__realloc(fp->acc, cap * na * sizeof *a);
        if (!a)
            return floe__error_nomem();
        fp->acc = a;
        fp->gcap = cap;
    }
    memset(fp->acc + fp->ngroups * na, 0, na * sizeof(gacc));
    fp->gkey[fp->ngroups] = key;
    *out = (int32_t)fp->ngroups++;
    return 0;
}

static inline size_t key_hash(int64_t key, size_t mask)
{
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15u) >> 32) & mask;
}

/* The table of groups by key, at twice the groups (at least 64 slots). */
static int rehash(fast_plan *fp)
{
    size_t cap = fp->hcap ? 2 * fp->hcap : 64;
    int32_t *h = floe__calloc(cap, sizeof *h);
    if (!h)
        return floe__error_nomem();
    for (size_t g = 0; g < fp->ngroups; g++) {
        if ((int32_t)g == fp->null_gid)
            continue;
        size_t at = key_hash(fp->gkey[g], cap - 1);
        while (h[at])
            at = (at + 1) & (cap - 1);
        h[at] = (int32_t)g + 1;
    }
    floe__free(fp->hslot);
    fp->hslot = h;
    fp->hcap = cap;
    return 0;
}

/* The group of a non-NULL key (created when new). */
static int group_of(fast_plan *fp, int64_t key, int32_t *out)
{
    if (2 * (fp->ngroups + 1) > fp->hcap)
        FLOE_TRY(rehash(fp));
    size_t mask = fp->hcap - 1;
    for (size_t at = key_hash(key, mask);; at = (at + 1) & mask) {
        int32_t e = fp->hslot[at];
        if (e == 0) {
            int rc = group_new(fp, key, out);
            if (rc == 0)
                fp->hslot[at] = *out + 1;
            return rc;
        }
        if (fp->gkey[e - 1] == key) {
            *out = e - 1;
            return 0;
        }
    }
}

static inline int64_t key_at(bool is_long, const void *vb, int64_t k)
{
    return is_long ? ((const int64_t *)vb)[k] : ((const int32_t *)vb)[k];
}

/* fp->gid[r]: the group of row r of the batch (-1: not kept). A key in
 * [DIRECT_LO, DIRECT_LO + DIRECT_SPAN) finds its group in fp->dmap (one
 * load), any other through the hash table, the last such key remembered. */
static int batch_groups(fast_plan *fp, const struct ArrowArray *a, int64_t n, const uint8_t *keep)
{
    if ((size_t)n > fp->gid_cap) {
        int32_t *g = floe__realloc(fp->gid, (size_t)n * sizeof *g);
        if (!g)
            return floe__error_nomem();
        fp->gid = g;
        fp->gid_cap = (size_t)n;
    }
    if (!fp->dmap) {
        if (!(fp->dmap = floe__malloc(DIRECT_SPAN * sizeof *fp->dmap)))
            return floe__error_nomem();
        memset(fp->dmap, 0xff, DIRECT_SPAN * sizeof *fp->dmap);
    }
    bool is_long = fp->key_type == FLOE_T_LONG, nulls = a->null_count != 0;
    const void *vb = a->buffers[1];
    int64_t off = a->offset, last = 0;
    int32_t *gid = fp->gid, *dmap = fp->dmap, last_g = -1;
    int rc = 0;
    int64_t r0 = 0;
    if (!keep && !nulls && !is_long) { /* the common case: small int keys, every row */
        const int32_t *v = (const int32_t *)vb + off;
        while (r0 < n) {
            uint64_t d = (uint64_t)((int64_t)v[r0] - DIRECT_LO);
            if (d >= DIRECT_SPAN || dmap[d] < 0)
                break; /* the general loop from here */
            gid[r0++] = dmap[d];
        }
    }
    for (int64_t r = r0; r < n; r++) {
        if (keep && !keep[r]) {
            gid[r] = -1;
            continue;
        }
        if (nulls && !valid_at(a, r + off)) {
            if (fp->null_gid < 0 && (rc = group_new(fp, 0, &fp->null_gid)) != 0)
                return rc;
            gid[r] = fp->null_gid;
            continue;
        }
        int64_t v = key_at(is_long, vb, r + off);
        uint64_t d = (uint64_t)v - (uint64_t)DIRECT_LO;
        if (d < DIRECT_SPAN) {
            if (dmap[d] < 0 && (rc = group_of(fp, v, &dmap[d])) != 0)
                return rc;
            gid[r] = dmap[d];
            continue;
        }
        if (last_g < 0 || v != last) {
            if ((rc = group_of(fp, v, &last_g)) != 0)
                return rc;
            last = v;
        }
        gid[r] = last_g;
    }
    return 0;
}

/* Aggregate ai of the batch into its groups' states: each row of a kept
 * group whose value SQLite sees as non-NULL (a NaN is NULL there). */
static void group_step(fast_plan *fp, size_t ai, const struct ArrowArray *const *arrays, int64_t n)
{
    const agg *g = &fp->aggs[ai];
    const int32_t *gid = fp->gid;
    size_t na = fp->naggs;
    gacc *acc = fp->acc + ai;
    if (g->kind == AG_COUNT_STAR) {
        for (int64_t r = 0; r < n; r++)
            if (gid[r] >= 0)
                acc[(size_t)gid[r] * na].cnt++;
        return;
    }
    const struct ArrowArray *a = arrays[g->slot];
    const void *vb = a->buffers[1];
    int64_t off = a->offset;
    bool nulls = a->null_count != 0;
    floe_type_id t = g->type->id;
    if (t == FLOE_T_FLOAT || t == FLOE_T_DOUBLE) {
        for (int64_t r = 0; r < n; r++) {
            int64_t k = r + off;
            if (gid[r] < 0 || (nulls && !valid_at(a, k)))
                continue;
            double x =
                t == FLOE_T_DOUBLE ? ((const double *)vb)[k] : (double)((const float *)vb)[k];
            if (isnan(x))
                continue;
            gacc *s = &acc[(size_t)gid[r] * na];
            s->cnt++;
            switch (g->kind) {
            case AG_SUM: floe__sql_dsum_step(&s->u.ds, SQLITE_FLOAT, 0, x); break;
            case AG_AVG: s->u.rsum += x; break;
            case AG_MIN:
                if (!s->has || x < s->u.best.d)
                    s->u.best.d = x;
                s->has = true;
                break;
            case AG_MAX:
                if (!s->has || x > s->u.best.d)
                    s->u.best.d = x;
                s->has = true;
                break;
            default: break;
            }
        }
        return;
    }
    if (g->kind == AG_SUM && t == FLOE_T_DECIMAL) { /* the hot loop of a grouped sum */
        const uint8_t *v = (const uint8_t *)vb + 16 * off;
        for (int64_t r = 0; r < n; r++) {
            if (gid[r] < 0 || (nulls && !valid_at(a, r + off)))
                continue;
            int64_t x;
            memcpy(&x, v + 16 * r, 8);
            gacc *s = &acc[(size_t)gid[r] * na];
            s->u.isum += x;
            s->cnt++;
        }
        return;
    }
    for (int64_t r = 0; r < n; r++) { /* integers, decimals as their unscaled values */
        int64_t k = r + off;
        if (gid[r] < 0 || (nulls && !valid_at(a, k)))
            continue;
        int64_t x = int_at(t, vb, k);
        gacc *s = &acc[(size_t)gid[r] * na];
        s->cnt++;
        switch (g->kind) {
        case AG_SUM: s->u.isum += x; break;
        case AG_AVG: s->u.rsum += t == FLOE_T_DECIMAL ? (double)x / g->p10 : (double)x; break;
        case AG_MIN:
            if (!s->has || x < s->u.best.i)
                s->u.best.i = x;
            s->has = true;
            break;
        case AG_MAX:
            if (!s->has || x > s->u.best.i)
                s->u.best.i = x;
            s->has = true;
            break;
        default: break;
        }
    }
}

static int on_batch_group(fast_plan *fp, const struct ArrowArray *const *arrays, int64_t n,
                          const uint8_t *keep)
{
    int rc = batch_groups(fp, arrays[fp->key_slot], n, keep);
    if (rc != 0)
        return rc; /* 1: too many groups, SQLite answers */
    for (size_t ai = 0; ai < fp->naggs; ai++)
        group_step(fp, ai, arrays, n);
    return 0;
}

static int on_batch(void *payload, const struct ArrowArray *const *arrays, int64_t n)
{
    fast_plan *fp = payload;
    const uint8_t *keep = NULL;
    int rc = batch_keep(fp, arrays, n, &keep);
    if (rc != 0)
        return rc; /* 1: a date SQLite's text orders otherwise, SQLite answers */
    if (fp->grouped)
        return on_batch_group(fp, arrays, n, keep);
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
        bool real = t == FLOE_T_FLOAT || t == FLOE_T_DOUBLE;
        if (g->kind == AG_COUNT && !real) {
            if (!keep) {
                g->cnt += n - a->null_count;
                continue;
            }
            for (int64_t r = 0; r < n; r++)
                g->cnt += counted(a, keep, r);
            continue;
        }
        if (g->kind == AG_SUM && t == FLOE_T_DECIMAL) {
            sum_decimal(g, a, n, keep);
            continue;
        }
        if (g->kind == AG_SUM && (t == FLOE_T_LONG || t == FLOE_T_INT)) {
            sum_integer(g, a, n, keep);
            continue;
        }
        if ((g->kind == AG_MIN || g->kind == AG_MAX) && !real) {
            if (minmax_integer(g, a, n, keep) != 0) {
                fp->bail = true;
                return 1;
            }
            continue;
        }
        if (g->kind == AG_AVG && !real && !keep && a->null_count == 0) {
            avg_dense(g, a, n);
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
            case FLOE_T_FLOAT: is_int = false; x = (double)((const float *)vb)[k]; break;
            case FLOE_T_DOUBLE: is_int = false; x = ((const double *)vb)[k]; break;
            default: /* decimal <= 15 digits as SQLite sees it (exec_data.c) */
                is_int = false;
                x = (double)int_at(t, vb, k) / g->p10;
                break;
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
            case AG_MAX: minmax_real(g, x); break;
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
        case FLOE_SQL_DSUM_TEXT: { /* wide decimals: the exact text */
            char buf[64];
            if (!floe__sql_dsum_text(&g->sum, buf))
                return 0; /* beyond 38 digits: NULL, as exec_funcs.c */
            FLOE_TRY(floe__buf_puts(text, buf));
            break;
        }
        default: FLOE_TRY(floe__sql_out_decimal_cell(s->out, d, scale, text, c)); return 0;
        }
        break;
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
            return 0;
        }
        if (g->type->id == FLOE_T_DECIMAL && !g->wide) /* at the column's scale, as vtab.c */
            return floe__sql_out_decimal_cell(s->out, (double)g->i / g->p10, g->type->scale, text,
                                              c);
        if (g->type->id == FLOE_T_DECIMAL) {
            FLOE_TRY(floe_decimal_format(g->i, g->type->scale, text));
            break;
        }
        if (g->is_real) {
            c->kind = FLOE_SQLC_REAL;
            c->d = g->dbl;
        } else {
            *c = floe__sql_cell_int(g->i);
        }
        return 0;
    }
    /* a wide decimal's exact text, in the kind floe__sql_out_stmt gives
     * text with a scale (a number in json): the kind of a decimal cell */
    floe_buf probe = FLOE_BUF_INIT;
    int rc = floe__sql_out_decimal_cell(s->out, 0, 0, &probe, c);
    floe__buf_free(&probe);
    FLOE_TRY(rc);
    c->s = text->ptr ? text->ptr : "";
    c->n = text->len;
    return 0;
}

/* The cell of aggregate `tmpl` for one group (its state `ga`): the agg
 * result_cell shows, filled from the state (a decimal's sum and min/max at
 * the column's scale, Spark's result type's). */
static int group_cell(floe_sql_session *s, const agg *tmpl, const gacc *ga, floe_buf *text,
                      floe_sql_cell *c)
{
    agg g = *tmpl;
    g.cnt = ga->cnt;
    floe_type_id t = tmpl->kind == AG_COUNT_STAR ? FLOE_T_LONG : tmpl->type->id;
    bool real = t == FLOE_T_FLOAT || t == FLOE_T_DOUBLE;
    switch (tmpl->kind) {
    case AG_SUM:
        if (real) {
            g.sum = ga->u.ds;
        } else if (ga->cnt > 0 && t == FLOE_T_DECIMAL) {
            floe__sql_dsum_add_exact(&g.sum, ga->u.isum, tmpl->type->scale, true);
        } else if (ga->cnt > 0) {
            floe__sql_dsum_add_exact(&g.sum, ga->u.isum, 0, false);
        }
        break;
    case AG_AVG: g.rsum = ga->u.rsum; break;
    case AG_MIN:
    case AG_MAX:
        g.has = ga->has;
        g.is_real = real;
        g.i = ga->u.best.i;
        g.dbl = ga->u.best.d;
        break;
    default: break;
    }
    floe__buf_clear(text);
    return result_cell(s, &g, text, c);
}

/* Does an integer sum of a group leave int64 (SQLite's "integer overflow")? */
static bool groups_overflow(const fast_plan *fp)
{
    for (size_t ai = 0; ai < fp->naggs; ai++) {
        const agg *g = &fp->aggs[ai];
        if (g->kind != AG_SUM || (g->type->id != FLOE_T_INT && g->type->id != FLOE_T_LONG))
            continue;
        for (size_t k = 0; k < fp->ngroups; k++) {
            i128 v = fp->acc[k * fp->naggs + ai].u.isum;
            if (v > INT64_MAX || v < INT64_MIN)
                return true;
        }
    }
    return false;
}

typedef struct group_order {
    int64_t key;
    int32_t g;
    int32_t null; /* 1: the NULL key */
} group_order;

/* SQLite's GROUP BY sorter order: the NULL key first, then ascending. */
static int cmp_group(const void *pa, const void *pb)
{
    const group_order *a = pa, *b = pb;
    if (a->null != b->null)
        return b->null - a->null;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* One row per group, in SQLite's order. */
static int emit_groups(floe_sql_session *s, fast_plan *fp, const char *const *names)
{
    size_t ng = fp->ngroups, na = fp->naggs ? fp->naggs : 1;
    group_order *order = floe__calloc(ng ? ng : 1, sizeof *order);
    if (!order)
        return floe__error_nomem();
    for (size_t k = 0; k < ng; k++) {
        order[k].key = fp->gkey[k];
        order[k].g = (int32_t)k;
        order[k].null = (int32_t)k == fp->null_gid;
    }
    qsort(order, ng, sizeof *order, cmp_group);
    floe_buf text[MAX_AGGS];
    floe_sql_cell cells[MAX_AGGS];
    memset(text, 0, sizeof text);
    int rc = floe__sql_out_begin(s->out, names, fp->nitems);
    for (size_t k = 0; rc == 0 && k < ng; k++) {
        const group_order *o = &order[k];
        for (size_t i = 0; rc == 0 && i < fp->nitems; i++) {
            int ai = fp->item_agg[i];
            if (ai < 0)
                cells[i] = o->null ? floe__sql_cell_null() : floe__sql_cell_int(o->key);
            else
                rc = group_cell(s, &fp->aggs[ai], &fp->acc[(size_t)o->g * na + (size_t)ai],
                                &text[i], &cells[i]);
        }
        if (rc == 0)
            rc = floe__sql_out_row(s->out, cells);
    }
    if (rc == 0)
        rc = floe__sql_out_end(s->out);
    for (size_t i = 0; i < fp->nitems; i++)
        floe__buf_free(&text[i]);
    floe__free(order);
    return rc;
}

/* Answer `q` when the fast path applies (*done); emit: write the result. */
static int run_fast(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q, bool emit,
                    size_t *naggs, bool *grouped, bool *done)
{
    *done = false;
    fast_plan *fp = floe__calloc(1, sizeof *fp);
    if (!fp)
        return floe__error_nomem();
    /* the filter's nodes: they outlive the scan (each_batch) */
    fp->arena = floe__arena_new(512);
    floe_rowsource *rs = NULL;
    bool ok = false;
    int rc = fp->arena ? recognise(s, st, q, fp, &rs, &ok) : floe__error_nomem();
    if (rc == 0 && ok && fp->filter && fp->ncols == 0)
        ok = false; /* unreachable: a term names its column */
    if (rc == 0 && ok)
        rc = floe__sql_data_each_batch(rs, fp->filter, fp->cols, fp->ncols, on_batch, fp);
    floe_buf text[MAX_AGGS];
    floe_sql_cell cells[MAX_AGGS];
    const char *names[MAX_AGGS];
    memset(text, 0, sizeof text);
    size_t ncols = fp->grouped ? fp->nitems : fp->naggs;
    for (size_t i = 0; ok && rc == 0 && i < ncols; i++) {
        names[i] = sqlite3_column_name(q, (int)i);
        if (!names[i])
            rc = floe__error_nomem();
        if (rc == 0 && !fp->grouped)
            rc = result_cell(s, &fp->aggs[i], &text[i], &cells[i]);
    }
    if (ok && rc == 0 && fp->grouped && groups_overflow(fp))
        rc = 1; /* SQLite raises its error */
    if (ok && rc == 0) {
        *done = true;
        *naggs = fp->naggs;
        *grouped = fp->grouped;
        if (emit && fp->grouped)
            rc = emit_groups(s, fp, names);
        else if (emit)
            rc = floe__sql_emit(s, names, fp->naggs, cells, 1);
    }
    for (size_t i = 0; i < fp->naggs; i++)
        floe__buf_free(&text[i]);
    floe__arena_free(fp->arena);
    floe__free(fp->keep);
    floe__free(fp->gkey);
    floe__free(fp->acc);
    floe__free(fp->hslot);
    floe__free(fp->gid);
    floe__free(fp->dmap);
    floe__free(fp);
    return rc < 0 ? rc : 0; /* 1: let SQLite answer */
}

int floe__sql_fast_aggregate(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                             bool *done)
{
    size_t n = 0;
    bool grouped = false;
    return run_fast(s, st, q, true, &n, &grouped, done);
}

int floe__sql_fast_explain(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                           floe_arena *a, const char **line)
{
    *line = NULL;
    size_t n = 0;
    bool done = false, grouped = false;
    FLOE_TRY(run_fast(s, st, q, false, &n, &grouped, &done));
    if (done && !(*line = floe__arena_sprintf(a,
                                              "Fast aggregate: %zu aggregate%s%s over the scan's "
                                              "Arrow batches (SQLite does not step the rows)",
                                              n, n == 1 ? "" : "s", grouped ? " by group" : "")))
        return floe__error_nomem();
    return 0;
}
