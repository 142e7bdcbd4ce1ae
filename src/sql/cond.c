/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/cond: a condition's syntax tree (ast.h) as a floe expression
 * (expr/expr.h), the second printer of the front end. DELETE and UPDATE
 * conditions reach the library this way (floe__rowlevel_delete_where_expr
 * and the base scan's filter), so partitions and files are pruned and the
 * conflict-detection filter is the condition itself.
 *
 * Spark's logic is three-valued and floe's expressions are two-valued
 * (Java's: `x != 5` and `x NOT IN (...)` hold on null), so each node is
 * translated twice over: into the rows on which it is TRUE and into the
 * rows on which it is FALSE (NOT swaps them; `x = 5` is FALSE only where
 * x is not null). Columns resolve case-insensitively against the table
 * schema, optionally qualified by the target's alias (or name); literals
 * are typed to the column with Spark's implicit casts where the value is
 * exact (an integer for a long, `1.50` for a decimal(9,2), a string for a
 * date or timestamp read in the session time zone, a number for a double)
 * and anything else is not translated: arithmetic, functions,
 * subqueries, column-to-column comparisons, a literal that is not exactly
 * a value of the column's type, ILIKE/RLIKE and LIKE patterns other than
 * `prefix%`. Floating-point columns follow Spark's NaN rules (NaN is
 * greater than any number) and a zero literal on them is not translated
 * (Spark equates -0.0 and 0.0, floe's order does not).
 *
 * What is not translated becomes `true` (any row may match), so the result
 * always holds for a superset of the rows the condition selects and is
 * `exact` only when every node was translated: an exact condition is handed
 * to the library as is; another is evaluated by SQLite over the base scan,
 * which the inexact filter still prunes (`a = 1 AND f(b)` reads only what
 * `a = 1` allows).
 */
#include "sql/ast.h"

#include "expr/expr.h"
#include "spec/value.h"
#include "util/time.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cx {
    floe_arena *a;
    const sql_cond_scope *sc;
    bool exact;
    int err; /* FLOE_ENOMEM met where a helper answers "not translated" */
} cx;

/* A literal of the tree, before typing to a column. */
typedef enum lit_kind {
    L_NULL = 1,
    L_BOOL,
    L_INT,
    L_DEC,
    L_DOUBLE,
    L_STRING,
    L_DATE,
    L_TS
} lit_kind;

typedef struct lit {
    lit_kind k;
    bool b;
    int64_t i;     /* L_INT */
    floe_i128 dec; /* L_DEC unscaled */
    int32_t scale; /* L_DEC */
    double d;      /* L_DOUBLE, and L_DEC's nearest double */
    const char *s; /* L_STRING text; L_DATE/L_TS normalised text */
    bool utc;      /* L_TS: s is UTC (else the session zone's wall clock) */
} lit;

/* Not translated: any row may match. */
static const floe_expr *give_up(cx *c)
{
    c->exact = false;
    return floe_expr_true();
}

/* ---------------------------------------------------------------- columns */

typedef struct col {
    const char *name; /* dotted, the schema's spelling */
    const floe_type *type;
} col;

static const floe_field *field_ci(const floe_type *st, const char *name)
{
    const floe_field *hit = NULL;
    for (size_t i = 0; i < st->nfields; i++)
        if (floe__sql_ieq(st->fields[i].name, name)) {
            if (hit)
                return NULL; /* case twins: ambiguous to Spark, left to SQLite */
            hit = &st->fields[i];
        }
    return hit;
}

/* parts[from..n) as a path of struct fields ending at a primitive. */
static bool walk(cx *c, const char *const *parts, size_t from, size_t n, col *out)
{
    const floe_type *st = c->sc->schema->root;
    floe_buf b = FLOE_BUF_INIT;
    const floe_field *f = NULL;
    bool ok = from < n;
    for (size_t i = from; ok && i < n; i++) {
        ok = st && st->id == FLOE_T_STRUCT && !strchr(parts[i], '.') &&
             (f = field_ci(st, parts[i])) != NULL;
        if (ok && floe__buf_printf(&b, "%s%s", i > from ? "." : "", f->name) < 0) {
            c->err = FLOE_ENOMEM;
            ok = false;
        }
        st = ok ? f->type : NULL;
    }
    ok = ok && f && !floe_type_is_nested(f->type);
    if (ok) {
        out->name = floe__arena_strdup(c->a, b.ptr);
        out->type = f->type;
        if (!out->name)
            c->err = FLOE_ENOMEM;
        ok = out->name != NULL;
    }
    floe__buf_free(&b);
    return ok;
}

/* A column reference of the target table (qualified by its alias or name,
 * else a column path); false when it is something else. */
static bool column(cx *c, const sql_node *n, col *out)
{
    while (n->k == SN_PAREN)
        n = n->a;
    if (n->k == SN_CAST && !(n->f & (SNF_TRY | SNF_NESTED))) {
        /* CAST(c AS <its own type>) is c */
        col inner;
        if (!column(c, n->a, &inner))
            return false;
        static const struct {
            const char *name;
            floe_type_id id;
        } same[] = {{"bigint", FLOE_T_LONG},
                    {"long", FLOE_T_LONG},
                    {"int", FLOE_T_INT},
                    {"integer", FLOE_T_INT},
                    {"string", FLOE_T_STRING},
                    {"date", FLOE_T_DATE},
                    {"double", FLOE_T_DOUBLE},
                    {"float", FLOE_T_FLOAT},
                    {"boolean", FLOE_T_BOOLEAN},
                    {"timestamp", FLOE_T_TIMESTAMPTZ},
                    {"timestamp_ntz", FLOE_T_TIMESTAMP}};
        for (size_t i = 0; i < FLOE_ARRAY_LEN(same); i++)
            if (!strcmp(n->s, same[i].name) && inner.type->id == same[i].id && n->i1 < 0) {
                *out = inner;
                return true;
            }
        if (!strcmp(n->s, "decimal") && inner.type->id == FLOE_T_DECIMAL &&
            n->i1 == inner.type->precision && n->i2 == inner.type->scale) {
            *out = inner;
            return true;
        }
        return false;
    }
    if (n->k != SN_COL || !n->nnames)
        return false;
    const char *q = c->sc->qualifier;
    if (n->nnames >= 2 && q && floe__sql_ieq(n->names[0], q) &&
        walk(c, n->names, 1, n->nnames, out))
        return true;
    return walk(c, n->names, 0, n->nnames, out);
}

/* ---------------------------------------------------------------- literals */

static bool number_lit(const sql_node *n, lit *out)
{
    const char *t = n->tok->text;
    bool neg = (n->f & SNF_NEG) != 0;
    char suffix = n->tok->suffix;
    if (suffix == 'D' || suffix == 'F') {
        char *end;
        errno = 0;
        double d = strtod(t, &end);
        if (*end || errno || !isfinite(d))
            return false;
        out->k = L_DOUBLE;
        out->d = neg ? -d : d;
        return suffix == 'D'; /* a float literal is compared as float: not exact here */
    }
    if (strpbrk(t, "eE")) { /* 1e3: a double in Spark */
        char *end;
        errno = 0;
        double d = strtod(t, &end);
        if (*end || errno || !isfinite(d) || suffix)
            return false;
        out->k = L_DOUBLE;
        out->d = neg ? -d : d;
        return true;
    }
    floe_i128 v = 0;
    int32_t scale = 0;
    bool dot = false, any = false;
    for (const char *p = t; *p; p++) {
        if (*p == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!isdigit((unsigned char)*p) || v > (floe_i128)1e36)
            return false;
        v = v * 10 + (*p - '0');
        any = true;
        scale += dot;
    }
    if (!any)
        return false;
    if (neg)
        v = -v;
    if (!dot && suffix != 'B' && v >= INT64_MIN && v <= INT64_MAX) {
        out->k = L_INT; /* any integral suffix (L, S, Y) keeps the value */
        out->i = (int64_t)v;
        return true;
    }
    out->k = L_DEC;
    out->dec = v;
    out->scale = scale;
    char *end;
    out->d = strtod(t, &end) * (neg ? -1 : 1);
    return true;
}

static bool literal(cx *c, const sql_node *n, lit *out);

/* The result of a date/timestamp normalisation: true when it parsed. */
static bool norm(cx *c, int rc)
{
    if (rc == FLOE_ENOMEM)
        c->err = rc;
    return rc == 0;
}

/* CAST(<literal> AS type) for the types whose cast of an exact value is
 * plain: DATE, TIMESTAMP, the integral types, STRING, DOUBLE. */
static bool cast_lit(cx *c, const sql_node *n, lit *out)
{
    lit in;
    if ((n->f & SNF_NESTED) || !literal(c, n->a, &in))
        return false;
    const char *ty = n->s;
    if (in.k == L_NULL) {
        *out = in;
        return true;
    }
    if (!strcmp(ty, "date")) {
        if (in.k == L_DATE) {
            *out = in;
            return true;
        }
        out->k = L_DATE;
        return in.k == L_STRING && norm(c, floe__sql_norm_date(c->a, in.s, &out->s));
    }
    if (!strcmp(ty, "timestamp")) {
        if (in.k == L_TS) {
            *out = in;
            return true;
        }
        out->k = L_TS;
        return in.k == L_STRING &&
               norm(c, floe__sql_norm_timestamp(c->a, in.s, &out->s, &out->utc));
    }
    if (!strcmp(ty, "bigint") || !strcmp(ty, "long") || !strcmp(ty, "int") ||
        !strcmp(ty, "integer")) {
        bool wide = ty[0] == 'b' || ty[0] == 'l';
        int64_t v;
        if (in.k == L_INT) {
            v = in.i;
        } else if (in.k == L_STRING && in.s[0] && floe__sql_all_digits(in.s + (in.s[0] == '-'))) {
            char *end;
            errno = 0;
            long long x = strtoll(in.s, &end, 10);
            if (errno || *end)
                return false;
            v = x;
        } else {
            return false;
        }
        if (!wide && (v > INT32_MAX || v < INT32_MIN))
            return false; /* Spark wraps (ANSI off) */
        out->k = L_INT;
        out->i = v;
        return true;
    }
    if (!strcmp(ty, "string")) {
        *out = in;
        return in.k == L_STRING;
    }
    if (!strcmp(ty, "double") && (in.k == L_INT || in.k == L_DEC || in.k == L_DOUBLE)) {
        out->k = L_DOUBLE;
        out->d = in.k == L_INT ? (double)in.i : in.d;
        return true;
    }
    return false;
}

static bool literal(cx *c, const sql_node *n, lit *out)
{
    memset(out, 0, sizeof *out);
    while (n->k == SN_PAREN)
        n = n->a;
    switch (n->k) {
    case SN_LIT:
        if (n->s) /* printed form replaced by the parser: not a plain literal */
            return false;
        switch (n->tok->kind) {
        case TK_NUMBER: return number_lit(n, out);
        case TK_STRING:
            out->k = L_STRING;
            out->s = n->tok->text;
            return true;
        case TK_WORD:
            if (floe__sql_ieq(n->tok->text, "NULL")) {
                out->k = L_NULL;
                return true;
            }
            out->k = L_BOOL;
            out->b = floe__sql_ieq(n->tok->text, "TRUE");
            return out->b || floe__sql_ieq(n->tok->text, "FALSE");
        default: return false;
        }
    case SN_TIMELIT:
        out->k = (n->f & SNF_DATE) ? L_DATE : L_TS;
        out->s = n->s; /* a timestamp: the session zone's wall clock (parser.c) */
        return true;
    case SN_CAST: return !(n->f & SNF_TRY) && cast_lit(c, n, out);
    default: return false;
    }
}

/* Days of a normalised 'YYYY-MM-DD'. */
static bool date_days(const char *s, int32_t *out)
{
    int64_t us;
    if (floe__time_parse_us(s, NULL, &us) < 0)
        return false;
    *out = (int32_t)(us / 86400000000LL);
    return us % 86400000000LL == 0;
}

static bool is_floating(const floe_type *t)
{
    return t->id == FLOE_T_FLOAT || t->id == FLOE_T_DOUBLE;
}

/* `l` as a value of column type `t` with Spark's implicit cast, when that
 * is exact; false when not (the comparison is left to SQLite). */
static bool typed(cx *c, const lit *l, const floe_type *t, floe_value *out)
{
    switch (t->id) {
    case FLOE_T_BOOLEAN: *out = floe_value_bool(l->b); return l->k == L_BOOL;
    case FLOE_T_INT:
    case FLOE_T_LONG:
        if (l->k == L_DEC) { /* 5.0: a decimal equal to an integer */
            floe_i128 u = l->dec;
            for (int32_t s = l->scale; s > 0; s--) {
                if (u % 10 != 0)
                    return false;
                u /= 10;
            }
            *out = floe_value_long((int64_t)u);
            return u >= INT64_MIN && u <= INT64_MAX;
        }
        /* an int literal out of an int column's range folds on binding */
        *out = floe_value_long(l->i);
        return l->k == L_INT;
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE: {
        double d;
        if (l->k == L_INT)
            d = (double)l->i;
        else if (l->k == L_DEC || l->k == L_DOUBLE)
            d = l->d;
        else
            return false;
        if (d == 0 || !isfinite(d))
            return false; /* -0.0 vs 0.0 */
        if (t->id == FLOE_T_FLOAT) {
            /* Spark compares a float with an int as floats, with a
             * decimal or double as doubles: exact when the double is a float */
            if (l->k != L_INT && (double)(float)d != d)
                return false;
            *out = floe_value_float((float)d);
        } else {
            if (l->k == L_INT && (l->i > (1LL << 53) || l->i < -(1LL << 53)))
                return false;
            *out = floe_value_double(d);
        }
        return true;
    }
    case FLOE_T_DECIMAL: {
        floe_i128 u;
        int32_t s;
        if (l->k == L_INT) {
            u = l->i;
            s = 0;
        } else if (l->k == L_DEC) {
            u = l->dec;
            s = l->scale;
        } else {
            return false;
        }
        for (; s > t->scale; s--) {
            if (u % 10 != 0)
                return false; /* digits beyond the column's scale */
            u /= 10;
        }
        for (; s < t->scale; s++) {
            if (u > (floe_i128)1e37 || u < -(floe_i128)1e37)
                return false;
            u *= 10;
        }
        *out = floe_value_decimal(u, s); /* beyond the precision: folds on binding */
        return true;
    }
    case FLOE_T_STRING:
        if (l->k != L_STRING)
            return false;
        *out = floe_value_bytes(FLOE_T_STRING, l->s, strlen(l->s));
        return true;
    case FLOE_T_DATE: {
        const char *s = l->s;
        if (l->k == L_STRING && !norm(c, floe__sql_norm_date(c->a, l->s, &s)))
            return false;
        int32_t days;
        if ((l->k != L_STRING && l->k != L_DATE) || !s || !date_days(s, &days))
            return false;
        *out = floe_value_date(days);
        return true;
    }
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ: {
        const char *s = l->s;
        bool utc = l->utc;
        if (l->k == L_STRING && !norm(c, floe__sql_norm_timestamp(c->a, l->s, &s, &utc)))
            return false;
        if ((l->k != L_STRING && l->k != L_TS) || !s)
            return false;
        /* a timestamp without zone equals the literal's wall clock in the
         * session zone: exact when that zone is UTC */
        if (t->id == FLOE_T_TIMESTAMP && (c->sc->tz || (utc && l->k == L_STRING)))
            return false;
        int64_t us;
        if (floe__time_parse_us(s, utc ? NULL : c->sc->tz, &us) < 0)
            return false;
        *out = floe_value_i64(t->id, us);
        return true;
    }
    default: return false;
    }
}

/* ---------------------------------------------------------------- predicates */

static floe_op flip(floe_op op)
{
    switch (op) {
    case FLOE_OP_LT: return FLOE_OP_GT;
    case FLOE_OP_LT_EQ: return FLOE_OP_GT_EQ;
    case FLOE_OP_GT: return FLOE_OP_LT;
    case FLOE_OP_GT_EQ: return FLOE_OP_LT_EQ;
    default: return op;
    }
}

/* The rows on which `col op v` is TRUE in Spark (v not null). */
static const floe_expr *cmp_true(cx *c, floe_op op, const col *k, floe_value v)
{
    const floe_expr *e = floe_expr_cmp(c->a, op, k->name, v);
    if (op == FLOE_OP_NOT_EQ) /* floe's != holds on null */
        return floe_expr_and(c->a, floe_expr_unary(c->a, FLOE_OP_NOT_NULL, k->name), e);
    if (is_floating(k->type) && (op == FLOE_OP_GT || op == FLOE_OP_GT_EQ))
        return floe_expr_or(c->a, e, floe_expr_unary(c->a, FLOE_OP_IS_NAN, k->name));
    return e;
}

static bool op_of(const char *s, floe_op *op)
{
    static const struct {
        const char *s;
        floe_op op;
    } ops[] = {{"=", FLOE_OP_EQ},      {"==", FLOE_OP_EQ},   {"<>", FLOE_OP_NOT_EQ},
               {"!=", FLOE_OP_NOT_EQ}, {"<", FLOE_OP_LT},    {"<=", FLOE_OP_LT_EQ},
               {">", FLOE_OP_GT},      {">=", FLOE_OP_GT_EQ}};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(ops); i++)
        if (!strcmp(s, ops[i].s)) {
            *op = ops[i].op;
            return true;
        }
    return false;
}

/* col op literal (either order). */
static const floe_expr *comparison(cx *c, const sql_node *n, bool want)
{
    bool nullsafe = !strcmp(n->s, "<=>");
    floe_op op = FLOE_OP_EQ;
    if (!nullsafe && !op_of(n->s, &op))
        return give_up(c);
    col k;
    lit l;
    if (column(c, n->a, &k) && literal(c, n->b, &l)) {
    } else if (column(c, n->b, &k) && literal(c, n->a, &l)) {
        op = flip(op);
    } else {
        return give_up(c);
    }
    if (l.k == L_NULL) { /* col <=> NULL is IS NULL; any other comparison is NULL */
        if (nullsafe)
            return floe_expr_unary(c->a, want ? FLOE_OP_IS_NULL : FLOE_OP_NOT_NULL, k.name);
        return floe_expr_false();
    }
    floe_value v;
    if (!typed(c, &l, k.type, &v))
        return give_up(c);
    if (nullsafe) /* never NULL: FALSE is "null or different" */
        return want ? floe_expr_cmp(c->a, FLOE_OP_EQ, k.name, v)
                    : floe_expr_cmp(c->a, FLOE_OP_NOT_EQ, k.name, v);
    return cmp_true(c, want ? op : floe__expr_negate_op(op), &k, v);
}

static const floe_expr *in_list(cx *c, const sql_node *n, bool want)
{
    col k;
    if (n->b || !n->nv || !column(c, n->a, &k))
        return give_up(c);
    floe_value *vals = floe__arena_calloc(c->a, n->nv, sizeof *vals);
    if (!vals) {
        floe__error_nomem();
        return NULL;
    }
    size_t nv = 0;
    bool has_null = false;
    for (size_t i = 0; i < n->nv; i++) {
        lit l;
        if (!literal(c, n->v[i], &l))
            return give_up(c);
        if (l.k == L_NULL) {
            has_null = true;
            continue;
        }
        if (!typed(c, &l, k.type, &vals[nv]))
            return give_up(c);
        nv++;
    }
    if (is_floating(k.type))
        return give_up(c); /* NaN IN lists: left to SQLite */
    bool in = want != ((n->f & SNF_NOT) != 0);
    if (in) /* a NULL member never makes IN true */
        return nv ? floe_expr_set(c->a, FLOE_OP_IN, k.name, vals, nv) : floe_expr_false();
    if (has_null) /* x NOT IN (..., NULL) is never TRUE */
        return floe_expr_false();
    return floe_expr_and(c->a, floe_expr_unary(c->a, FLOE_OP_NOT_NULL, k.name),
                         floe_expr_set(c->a, FLOE_OP_NOT_IN, k.name, vals, nv));
}

static const floe_expr *between(cx *c, const sql_node *n, bool want)
{
    col k;
    lit lo, hi;
    floe_value vlo, vhi;
    if (!column(c, n->a, &k) || !literal(c, n->b, &lo) || !literal(c, n->c, &hi))
        return give_up(c);
    if (lo.k == L_NULL || hi.k == L_NULL || !typed(c, &lo, k.type, &vlo) ||
        !typed(c, &hi, k.type, &vhi))
        return give_up(c);
    bool in = want != ((n->f & SNF_NOT) != 0);
    if (in)
        return floe_expr_and(c->a, cmp_true(c, FLOE_OP_GT_EQ, &k, vlo),
                             cmp_true(c, FLOE_OP_LT_EQ, &k, vhi));
    return floe_expr_or(c->a, cmp_true(c, FLOE_OP_LT, &k, vlo), cmp_true(c, FLOE_OP_GT, &k, vhi));
}

/* col LIKE 'text' / 'prefix%' (Spark's escape character '\'). */
static const floe_expr *like(cx *c, const sql_node *n, bool want)
{
    col k;
    lit pat;
    if ((n->f & (SNF_ILIKE | SNF_RLIKE | SNF_ANY | SNF_LIKEALL)) || n->b || n->nv != 1 ||
        !column(c, n->a, &k) || k.type->id != FLOE_T_STRING || !literal(c, n->v[0], &pat) ||
        pat.k != L_STRING)
        return give_up(c);
    size_t len = strlen(pat.s), np = 0;
    char *prefix = floe__arena_alloc(c->a, len + 1);
    if (!prefix) {
        floe__error_nomem();
        return NULL;
    }
    bool starts = false;
    for (size_t i = 0; i < len; i++) {
        char ch = pat.s[i];
        if (ch == '\\') {
            if (i + 1 == len ||
                (pat.s[i + 1] != '\\' && pat.s[i + 1] != '%' && pat.s[i + 1] != '_'))
                return give_up(c); /* Spark refuses a dangling or needless escape */
            prefix[np++] = pat.s[++i];
        } else if (ch == '%' && i + 1 == len) {
            starts = true;
        } else if (ch == '%' || ch == '_') {
            return give_up(c);
        } else {
            prefix[np++] = ch;
        }
    }
    prefix[np] = 0;
    bool yes = want != ((n->f & SNF_NOT) != 0);
    floe_value v = floe_value_bytes(FLOE_T_STRING, prefix, np);
    if (!starts)
        return cmp_true(c, yes ? FLOE_OP_EQ : FLOE_OP_NOT_EQ, &k, v);
    if (!np) /* '%' matches every string */
        return yes ? floe_expr_unary(c->a, FLOE_OP_NOT_NULL, k.name) : floe_expr_false();
    if (yes)
        return floe_expr_cmp(c->a, FLOE_OP_STARTS_WITH, k.name, v);
    return floe_expr_and(c->a, floe_expr_unary(c->a, FLOE_OP_NOT_NULL, k.name),
                         floe_expr_cmp(c->a, FLOE_OP_NOT_STARTS_WITH, k.name, v));
}

static const floe_expr *is(cx *c, const sql_node *n, bool want)
{
    col k;
    if (!column(c, n->a, &k))
        return give_up(c);
    bool yes = want != ((n->f & SNF_NOT) != 0);
    if (!strcmp(n->s, "NULL"))
        return floe_expr_unary(c->a, yes ? FLOE_OP_IS_NULL : FLOE_OP_NOT_NULL, k.name);
    if (k.type->id != FLOE_T_BOOLEAN || strcmp(n->s, "DISTINCT") == 0)
        return give_up(c);
    floe_value v = floe_value_bool(!strcmp(n->s, "TRUE"));
    if (yes)
        return floe_expr_cmp(c->a, FLOE_OP_EQ, k.name, v);
    /* IS NOT TRUE: null or false */
    return floe_expr_or(c->a, floe_expr_unary(c->a, FLOE_OP_IS_NULL, k.name),
                        floe_expr_cmp(c->a, FLOE_OP_NOT_EQ, k.name, v));
}

/* The rows on which `n` is TRUE (want) or FALSE (!want), or a superset. */
static const floe_expr *tr(cx *c, const sql_node *n, bool want)
{
    switch (n->k) {
    case SN_PAREN: return tr(c, n->a, want);
    case SN_UN:
        if (strcmp(n->s, "NOT") != 0)
            return give_up(c);
        return tr(c, n->a, !want);
    case SN_BIN:
        if (!strcmp(n->s, "AND") || !strcmp(n->s, "OR")) {
            bool conj = (n->s[0] == 'A') == want; /* FALSE of AND is an OR */
            const floe_expr *l = tr(c, n->a, want), *r = l ? tr(c, n->b, want) : NULL;
            return conj ? floe_expr_and(c->a, l, r) : floe_expr_or(c->a, l, r);
        }
        return comparison(c, n, want);
    case SN_IN: return in_list(c, n, want);
    case SN_BETWEEN: return between(c, n, want);
    case SN_LIKE: return like(c, n, want);
    case SN_IS: return is(c, n, want);
    case SN_LIT: {
        lit l;
        if (!literal(c, n, &l) || (l.k != L_BOOL && l.k != L_NULL))
            return give_up(c);
        return l.k == L_BOOL && l.b == want ? floe_expr_true() : floe_expr_false();
    }
    default: {
        col k; /* a boolean column on its own */
        if (column(c, n, &k) && k.type->id == FLOE_T_BOOLEAN)
            return floe_expr_cmp(c->a, FLOE_OP_EQ, k.name, floe_value_bool(want));
        return give_up(c);
    }
    }
}

int floe__sql_cond_expr(const floe_expr **out, bool *exact, floe_arena *a, const sql_node *cond,
                        const sql_cond_scope *sc)
{
    cx c = {a, sc, true, 0};
    if (!cond) {
        *out = floe_expr_true();
        *exact = true;
        return 0;
    }
    const floe_expr *e = tr(&c, cond, true);
    if (c.err) {
        floe_error_clear();
        return floe__error_nomem();
    }
    if (!e)
        return floe__error_code() ? floe__error_code() : floe__error_nomem();
    *out = e;
    *exact = c.exact;
    return 0;
}
