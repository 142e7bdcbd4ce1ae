/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binder: Spark 3.5's type of every expression of a syntax tree
 * (ast.h), so the printer (print.c) can give Spark's answer where SQLite's
 * dynamic typing differs (decimal scale and exact decimal arithmetic,
 * 32-bit integer arithmetic, typeof, the result types of round, ceil,
 * floor, avg and sum).
 *
 * Types come from
 *  - literals (Spark's AstBuilder): an integer is an int when it fits 32
 *    bits, else a bigint, else a decimal(digits, 0); `12.50` is
 *    decimal(4, 2) (precision = digits of the unscaled value, at least the
 *    scale); an exponent makes a double; suffixes L S Y D F BD;
 *  - columns: a table's Iceberg schema (floe_sql_options.column_type, by
 *    the SQLite name of the resolved reference), the select list of a
 *    subquery or CTE in FROM, resolved through the scopes of the query;
 *  - casts, and functions of known result type;
 *  - arithmetic: Spark's DecimalPrecision (allowPrecisionLoss=true, the
 *    default): e1 + e2 is decimal(max(s1,s2) + max(p1-s1,p2-s2) + 1,
 *    max(s1,s2)), e1 * e2 decimal(p1+p2+1, s1+s2), e1 / e2
 *    decimal(p1-s1+s2+max(6, s1+p2+1), max(6, s1+p2+1)), e1 % e2
 *    decimal(min(p1-s1,p2-s2) + max(s1,s2), max(s1,s2)), each adjusted to
 *    precision 38 (DecimalType.adjustPrecisionScale: the scale shrinks to
 *    keep the integer digits, down to min(scale, 6)); an integral operand
 *    is decimal(3|5|10|20, 0) by its type, an integer literal the digits
 *    of its value; a float or double operand makes the result a double.
 * Anything it cannot tell is ST_NONE and prints as without a binder.
 */
#include "sql/ast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAXP 38

typedef struct scope scope;
struct scope {
    const scope *up;
    const sql_node *from;  /* the FROM relation (NULL: none) */
    sql_node *const *ctes; /* the CTEs visible here (innermost WITH) */
    size_t nctes;
};

typedef struct bd {
    sql_parser *p;
    int depth;
} bd;

static sql_type ty(sql_tk k)
{
    sql_type t = {(unsigned char)k, 0, 0, 0, NULL};
    return t;
}

static sql_type dec(int p, int s)
{
    sql_type t = {ST_DECIMAL, (unsigned char)p, (signed char)s, 0, NULL};
    return t;
}

static bool integral(sql_type t)
{
    return t.kind >= ST_TINYINT && t.kind <= ST_BIGINT;
}

static bool numeric(sql_type t)
{
    return t.kind >= ST_TINYINT && t.kind <= ST_DECIMAL;
}

/* DecimalType.adjustPrecisionScale */
static sql_type adjust(int p, int s)
{
    if (p <= MAXP)
        return dec(p, s);
    if (s < 0)
        return dec(MAXP, s);
    int ints = p - s, min_scale = s < 6 ? s : 6;
    return dec(MAXP, MAXP - ints > min_scale ? MAXP - ints : min_scale);
}

/* DecimalType.bounded */
static sql_type bounded(int p, int s)
{
    return dec(p < MAXP ? p : MAXP, s < MAXP ? s : MAXP);
}

/* ---------------------------------------------------------------- literals */

/* The type of a numeric literal as Spark's parser gives it. */
static sql_type number_type(const sql_node *n)
{
    const char *t = n->tok->text;
    switch (n->tok->suffix) {
    case 'L': return ty(ST_BIGINT);
    case 'S': return ty(ST_SMALLINT);
    case 'Y': return ty(ST_TINYINT);
    case 'D': return ty(ST_DOUBLE);
    case 'F': return ty(ST_FLOAT);
    default: break;
    }
    if (strpbrk(t, "xX"))
        return ty(ST_NONE);
    if (strpbrk(t, "eE"))
        return n->tok->suffix == 'B' ? ty(ST_NONE) : ty(ST_DOUBLE);
    const char *dot = strchr(t, '.');
    int scale = dot ? (int)strlen(dot + 1) : 0, digits = 0;
    bool lead = true;
    for (const char *c = t; *c; c++) {
        if (*c == '.')
            continue;
        if (*c < '0' || *c > '9')
            return ty(ST_NONE);
        if (lead && *c == '0')
            continue;
        lead = false;
        digits++;
    }
    if (dot || n->tok->suffix == 'B') {
        int p = digits > scale ? digits : scale;
        if (p < 1)
            p = 1;
        return p > MAXP ? ty(ST_NONE) : dec(p, scale);
    }
    if (digits <= 18) {
        long long v = strtoll(t, NULL, 10);
        if (n->f & SNF_NEG)
            v = -v;
        return v >= -2147483648LL && v <= 2147483647LL ? ty(ST_INT) : ty(ST_BIGINT);
    }
    if (digits == 19) {
        const char *a = t;
        while (*a == '0')
            a++;
        int c = strcmp(a, "9223372036854775808");
        if (c < 0 || (c == 0 && (n->f & SNF_NEG)))
            return ty(ST_BIGINT);
    }
    return digits <= MAXP ? dec(digits ? digits : 1, 0) : ty(ST_NONE);
}

/* DecimalType.forLiteral / forType: an integral operand of decimal
 * arithmetic as a decimal. */
static sql_type as_decimal(const sql_node *n)
{
    sql_type t = n->t;
    const sql_node *x = n;
    while (x->k == SN_PAREN)
        x = x->a;
    if (x->k == SN_LIT && x->tok->kind == TK_NUMBER && integral(t) && !x->tok->suffix) {
        int digits = 0;
        bool lead = true;
        for (const char *c = x->tok->text; *c; c++)
            if (!(lead && *c == '0')) {
                lead = false;
                digits++;
            }
        return dec(digits ? digits : 1, 0);
    }
    switch (t.kind) {
    case ST_TINYINT: return dec(3, 0);
    case ST_SMALLINT: return dec(5, 0);
    case ST_INT: return dec(10, 0);
    case ST_BIGINT: return dec(20, 0);
    default: return t;
    }
}

/* A type's name as Spark's typeof() and DESCRIBE spell it, parsed back. */
static sql_type parse_type(const char *s)
{
    static const struct {
        const char *name;
        sql_tk k;
    } m[] = {{"boolean", ST_BOOLEAN},
             {"tinyint", ST_TINYINT},
             {"byte", ST_TINYINT},
             {"smallint", ST_SMALLINT},
             {"short", ST_SMALLINT},
             {"int", ST_INT},
             {"integer", ST_INT},
             {"bigint", ST_BIGINT},
             {"long", ST_BIGINT},
             {"float", ST_FLOAT},
             {"real", ST_FLOAT},
             {"double", ST_DOUBLE},
             {"string", ST_STRING},
             {"varchar", ST_STRING},
             {"char", ST_STRING},
             {"binary", ST_BINARY},
             {"date", ST_DATE},
             {"timestamp", ST_TIMESTAMP},
             {"timestamp_ltz", ST_TIMESTAMP},
             {"timestamp_ntz", ST_TIMESTAMP_NTZ}};
    if (!s)
        return ty(ST_NONE);
    int p, sc;
    if (sscanf(s, "decimal(%d,%d)", &p, &sc) == 2 && p >= 1 && p <= MAXP && sc >= 0 && sc <= p)
        return dec(p, sc);
    for (size_t k = 0; k < FLOE_ARRAY_LEN(m); k++)
        if (!strcasecmp(s, m[k].name))
            return ty(m[k].k);
    return ty(ST_NONE);
}

const char *floe__sql_type_name(sql_parser *p, sql_type t)
{
    static const char *const names[] = {
        NULL,     "void", "boolean", "tinyint", "smallint", "int",       "bigint",       "float",
        "double", NULL,   "string",  "binary",  "date",     "timestamp", "timestamp_ntz"};
    if (t.kind == ST_DECIMAL)
        return floe__arena_sprintf(p->a, "decimal(%d,%d)", t.p, t.s);
    if (t.kind == ST_NESTED)
        return t.nt && !strchr(t.nt, '?') ? t.nt : NULL;
    return t.kind < FLOE_ARRAY_LEN(names) ? names[t.kind] : NULL;
}

static bool same(sql_type a, sql_type b)
{
    return a.kind == b.kind && a.p == b.p && a.s == b.s &&
           (a.kind != ST_NESTED || (a.nt && b.nt && !strcmp(a.nt, b.nt)));
}

/* ---------------------------------------------------------------- nested types */

static sql_type value(sql_type t);
static sql_tk wider_int(sql_tk a, sql_tk b);

const char *floe__sql_type_text_end(const char *t)
{
    int depth = 0;
    for (; *t; t++) {
        if (*t == '<')
            depth++;
        else if (*t == '>' && depth-- == 0)
            break;
        else if (*t == ',' && depth == 0)
            break;
    }
    return t;
}

/* A nested type from its Spark type text (in the arena); ST_NONE for NULL. */
static sql_type nested(const char *text)
{
    sql_type t = ty(text ? ST_NESTED : ST_NONE);
    t.nt = text;
    return t;
}

/* The type of Spark type text [s, e): nested ones keep their text. */
static sql_type from_text(bd *b, const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    if ((n > 6 && !strncasecmp(s, "array<", 6)) || (n > 4 && !strncasecmp(s, "map<", 4)) ||
        (n > 7 && !strncasecmp(s, "struct<", 7)))
        return nested(floe__arena_strndup(b->p->a, s, n));
    char name[48];
    if (n >= sizeof name)
        return ty(ST_NONE);
    memcpy(name, s, n);
    name[n] = 0;
    return parse_type(name);
}

/* t's Spark type text ("?" when unknown, "void" for an untyped NULL). */
static const char *text_of(bd *b, sql_type t)
{
    if (t.kind == ST_NESTED)
        return t.nt ? t.nt : "?";
    const char *n = t.kind == ST_NONE ? NULL : floe__sql_type_name(b->p, t);
    return n ? n : "?";
}

/* Component k of nested type text t: an array's element (0), a map's key
 * (0) and value (1), a struct's k-th field type (*name: its name). */
static sql_type part_of(bd *b, sql_type t, size_t k, const char **name, size_t *nlen)
{
    if (t.kind != ST_NESTED || !t.nt)
        return ty(ST_NONE);
    const char *lt = strchr(t.nt, '<');
    if (!lt)
        return ty(ST_NONE);
    bool is_struct = !strncasecmp(t.nt, "struct<", 7);
    const char *c = lt + 1;
    for (size_t i = 0;; i++) {
        const char *nm = c;
        if (is_struct) {
            while (*c && *c != ':')
                c++;
            if (!*c)
                return ty(ST_NONE);
            if (i == k && name) {
                *name = nm;
                *nlen = (size_t)(c - nm);
            }
            c++;
        }
        const char *e = floe__sql_type_text_end(c);
        if (i == k)
            return from_text(b, c, e);
        if (*e != ',')
            return ty(ST_NONE);
        c = e + 1;
    }
}

/* The struct field `field` of type t. */
static sql_type field_of(bd *b, sql_type t, const char *field)
{
    if (t.kind != ST_NESTED || !t.nt || strncasecmp(t.nt, "struct<", 7) != 0)
        return ty(ST_NONE);
    for (size_t k = 0; k < 1000; k++) {
        const char *nm = NULL;
        size_t n = 0;
        sql_type f = part_of(b, t, k, &nm, &n);
        if (!nm)
            return ty(ST_NONE);
        if (strlen(field) == n && !strncasecmp(nm, field, n))
            return f;
    }
    return ty(ST_NONE);
}

static bool is_kind(sql_type t, const char *prefix)
{
    return t.kind == ST_NESTED && t.nt && !strncasecmp(t.nt, prefix, strlen(prefix));
}

/* The common type of values (array elements, map keys or values): the
 * one type they share (an untyped NULL fits any), the widest integer;
 * otherwise unknown. */
static sql_type common(sql_node *const *v, size_t n, size_t from, size_t step)
{
    sql_type t = ty(ST_NULL);
    for (size_t k = from; k < n; k += step) {
        sql_type x = value(v[k]->t);
        if (x.kind == ST_NULL || same(t, x))
            continue;
        if (t.kind == ST_NULL)
            t = x;
        else if (integral(t) && integral(x))
            t = ty(wider_int((sql_tk)t.kind, (sql_tk)x.kind));
        else
            return ty(ST_NONE);
    }
    return t;
}

/* t as the result of an expression (no longer a table's cell) */
static sql_type value(sql_type t)
{
    t.cell = 0;
    return t;
}

/* ---------------------------------------------------------------- columns */

static bool qualifier_matches(const sql_node *rel, const char *q)
{
    return !q || !rel->alias || floe__sql_ieq(rel->alias, q);
}

static sql_type query_column(bd *b, const sql_node *q, const char *col, size_t index,
                             const scope *sc, int *found);

/* The type of column `col` (qualifier q, NULL: none) of relation rel;
 * *found counts the relations that have it. */
static sql_type rel_column(bd *b, const sql_node *rel, const char *q, const char *col,
                           const scope *sc, int *found)
{
    if (!rel || ++b->depth > SQL_MAX_DEPTH) {
        if (rel)
            b->depth--;
        return ty(ST_NONE);
    }
    sql_type t = ty(ST_NONE);
    switch (rel->k) {
    case SN_JOIN: {
        int f1 = 0, f2 = 0;
        sql_type a = rel_column(b, rel->a, q, col, sc, &f1);
        sql_type c = rel_column(b, rel->b, q, col, sc, &f2);
        *found += f1 + f2;
        t = f1 && !f2 ? a : f2 && !f1 ? c : f1 && f2 && same(a, c) ? a : ty(ST_NONE);
        break;
    }
    case SN_PAREN: t = rel_column(b, rel->a, q, col, sc, found); break;
    case SN_RANGE: /* range(...): one BIGINT column, id unless renamed */
        if (qualifier_matches(rel, q) && floe__sql_ieq(col, rel->nnames ? rel->names[0] : "id")) {
            (*found)++;
            t = ty(ST_BIGINT);
        }
        break;
    case SN_SUBREL: {
        if (!qualifier_matches(rel, q))
            break;
        size_t idx = (size_t)-1;
        for (size_t k = 0; k < rel->nnames; k++)
            if (floe__sql_ieq(rel->names[k], col))
                idx = k;
        if (rel->nnames && idx == (size_t)-1)
            break;
        t = query_column(b, rel->a, rel->nnames ? NULL : col, idx, sc, found);
        break;
    }
    case SN_TABLE: {
        /* a resolved reference's SQLite name, else a local name (a CTE, a
         * temporary view: its one name part) */
        const char *rname = rel->s ? rel->s : rel->nnames == 1 ? rel->names[0] : NULL;
        if (!qualifier_matches(rel, q) || !rname)
            break;
        /* a CTE of an enclosing WITH */
        for (const scope *s = sc; s; s = s->up) {
            for (size_t k = s->nctes; k-- > 0;) {
                const sql_node *c = s->ctes[k];
                if (!floe__sql_ieq(c->s, rname))
                    continue;
                size_t idx = (size_t)-1;
                for (size_t j = 0; j < c->nnames; j++)
                    if (floe__sql_ieq(c->names[j], col))
                        idx = j;
                if (c->nnames && idx == (size_t)-1)
                    goto out;
                t = query_column(b, c->a, c->nnames ? NULL : col, idx, s->up, found);
                goto out;
            }
        }
        if (rel->nnames && rel->s)
            break; /* column aliases of a table: not resolved */
        const floe_sql_options *o = b->p->opt;
        const char *name = o && o->column_type ? o->column_type(rname, col, o->payload) : NULL;
        if (name) {
            (*found)++;
            t = from_text(b, name, name + strlen(name));
            t.cell = t.kind != ST_NESTED;
        }
        break;
    }
    default: break;
    }
out:
    b->depth--;
    return t;
}

/* The type of output column `col` (or, col NULL, the index-th) of query q. */
static sql_type query_column(bd *b, const sql_node *q, const char *col, size_t index,
                             const scope *sc, int *found)
{
    for (int guard = 0; q && guard < 100; guard++) {
        switch (q->k) {
        case SN_ORDER:
        case SN_WITH:
        case SN_SETOP: q = q->a; continue; /* a UNION's columns: its first member's */
        case SN_SELECT:
            for (size_t k = 0; k < q->nv; k++) {
                const sql_node *it = q->v[k];
                if (it->k == SN_STAR) {
                    if (col && q->a) { /* SELECT * FROM rel */
                        scope s = {sc, q->a, NULL, 0};
                        return rel_column(b, q->a, it->nnames ? it->names[it->nnames - 1] : NULL,
                                          col, &s, found);
                    }
                    return ty(ST_NONE);
                }
                bool hit = col ? (it->alias && floe__sql_ieq(it->alias, col)) ||
                                     (!it->alias && it->a->k == SN_COL &&
                                      floe__sql_ieq(it->a->names[it->a->nnames - 1], col))
                               : k == index;
                if (hit) { /* a column of a table stays its cell (scale, collation) */
                    (*found)++;
                    const sql_node *e = it->a;
                    while (e->k == SN_PAREN)
                        e = e->a;
                    return e->k == SN_COL ? it->a->t : value(it->a->t);
                }
            }
            return ty(ST_NONE);
        case SN_VALUES: { /* the index-th column: the type all its rows agree on */
            if (col)
                return ty(ST_NONE);
            sql_type t = ty(ST_NULL);
            for (size_t r = 0; r < q->nv; r++) {
                if (index >= q->v[r]->nv)
                    return ty(ST_NONE);
                sql_type x = value(q->v[r]->v[index]->t);
                if (x.kind == ST_NULL || same(t, x))
                    continue;
                if (t.kind != ST_NULL)
                    return ty(ST_NONE);
                t = x;
            }
            if (t.kind != ST_NULL)
                (*found)++;
            return t.kind == ST_NULL ? ty(ST_NONE) : t;
        }
        default: return ty(ST_NONE);
        }
    }
    return ty(ST_NONE);
}

static sql_type column_type(bd *b, const sql_node *n, const scope *sc)
{
    if (n->nnames > 2)
        return ty(ST_NONE);
    if (n->nnames == 2 && b->p->opt && b->p->opt->is_struct_column &&
        b->p->opt->is_struct_column(n->names[0], b->p->opt->payload)) {
        sql_node st = *n; /* st.x of a struct column st */
        st.nnames = 1;
        return field_of(b, column_type(b, &st, sc), n->names[1]);
    }
    const char *col = n->names[n->nnames - 1], *q = n->nnames == 2 ? n->names[0] : NULL;
    for (const scope *s = sc; s; s = s->up) {
        int found = 0;
        sql_type t = s->from ? rel_column(b, s->from, q, col, s, &found) : ty(ST_NONE);
        if (found)
            return found == 1 ? t : ty(ST_NONE);
    }
    return ty(ST_NONE);
}

/* ---------------------------------------------------------------- expressions */

static void bind_query(bd *b, sql_node *n, const scope *up);
static void bind_expr(bd *b, sql_node *n, const scope *sc);

static sql_tk wider_int(sql_tk a, sql_tk b)
{
    return a > b ? a : b;
}

/* + - * / % and the try_ forms: Spark's result type (ANSI mode off). */
static sql_type arith_type(const char *op, const sql_node *x, const sql_node *y)
{
    sql_type a = x->t, c = y->t;
    if (a.kind == ST_NULL)
        a = c;
    if (c.kind == ST_NULL)
        c = a;
    if (a.kind == ST_STRING && numeric(c))
        a = ty(ST_DOUBLE); /* a string operand is read as a double */
    if (c.kind == ST_STRING && numeric(a))
        c = ty(ST_DOUBLE);
    if (!numeric(a) || !numeric(c))
        return ty(ST_NONE);
    if (!strcmp(op, "DIV"))
        return ty(ST_BIGINT);
    if (a.kind == ST_DOUBLE || c.kind == ST_DOUBLE || a.kind == ST_FLOAT || c.kind == ST_FLOAT)
        return !strcmp(op, "/") || a.kind == ST_DOUBLE || c.kind == ST_DOUBLE ? ty(ST_DOUBLE)
                                                                              : ty(ST_FLOAT);
    if (a.kind != ST_DECIMAL && c.kind != ST_DECIMAL) {
        if (!strcmp(op, "/"))
            return ty(ST_DOUBLE);
        return ty(wider_int((sql_tk)a.kind, (sql_tk)c.kind));
    }
    if (a.kind != ST_DECIMAL)
        a = as_decimal(x);
    if (c.kind != ST_DECIMAL)
        c = as_decimal(y);
    int p1 = a.p, s1 = a.s, p2 = c.p, s2 = c.s;
    int smax = s1 > s2 ? s1 : s2, imax = p1 - s1 > p2 - s2 ? p1 - s1 : p2 - s2;
    int imin = p1 - s1 < p2 - s2 ? p1 - s1 : p2 - s2;
    if (!strcmp(op, "+") || !strcmp(op, "-"))
        return adjust(imax + smax + 1, smax);
    if (!strcmp(op, "*"))
        return adjust(p1 + p2 + 1, s1 + s2);
    if (!strcmp(op, "/")) {
        int scale = s1 + p2 + 1 > 6 ? s1 + p2 + 1 : 6;
        return adjust(p1 - s1 + s2 + scale, scale);
    }
    if (!strcmp(op, "%"))
        return adjust(imin + smax, smax);
    return ty(ST_NONE);
}

static bool is_arith(const char *op)
{
    return !strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/") ||
           !strcmp(op, "%") || !strcmp(op, "DIV");
}

/* An integer literal argument (round's scale); false when not one. */
static bool int_arg(const sql_node *n, int *out)
{
    while (n->k == SN_PAREN)
        n = n->a;
    if (n->k == SN_UN && !strcmp(n->s, "-") && n->a->k == SN_LIT && n->a->tok->kind == TK_NUMBER &&
        floe__sql_all_digits(n->a->tok->text) && strlen(n->a->tok->text) < 6) {
        *out = -atoi(n->a->tok->text);
        return true;
    }
    if (n->k != SN_LIT || n->tok->kind != TK_NUMBER || !floe__sql_all_digits(n->tok->text) ||
        strlen(n->tok->text) >= 6)
        return false;
    *out = atoi(n->tok->text) * (n->f & SNF_NEG ? -1 : 1);
    return true;
}

/* RoundBase.dataType (round, bround) of a decimal(p, s) to scale t. */
static sql_type round_type(sql_type a, int t)
{
    if (a.kind != ST_DECIMAL)
        return a;
    int ints = a.p - a.s + 1;
    if (t < 0) {
        int np = ints > -t + 1 ? ints : -t + 1;
        return dec(np < MAXP ? np : MAXP, 0);
    }
    int ns = a.s < t ? a.s : t;
    return dec(ints + ns < MAXP ? ints + ns : MAXP, ns);
}

static sql_type func_type(const sql_node *f)
{
    static const char *const doubles[] = {
        "rand",       "random",   "randn",    "sqrt",    "cbrt",  "exp",   "expm1",  "ln",
        "log",        "log2",     "log10",    "log1p",   "pow",   "power", "sin",    "cos",
        "tan",        "asin",     "acos",     "atan",    "atan2", "sinh",  "cosh",   "tanh",
        "cot",        "degrees",  "radians",  "nanvl",   "pi",    "e",     "stddev", "stddev_samp",
        "stddev_pop", "variance", "var_samp", "var_pop", NULL};
    static const char *const strings[] = {
        "typeof",        "upper",         "lower",     "ucase",   "lcase",   "concat",
        "concat_ws",     "substr",        "substring", "trim",    "ltrim",   "rtrim",
        "lpad",          "rpad",          "replace",   "reverse", "initcap", "repeat",
        "format_number", "format_string", "hex",       "version", NULL};
    static const char *const ints[] = {
        "length",   "char_length", "character_length", "len",    "instr",
        "locate",   "ascii",       "dayofmonth",       "day",    "month",
        "year",     "hour",        "minute",           "second", "dayofyear",
        "datediff", NULL};
    static const char *const bools[] = {"isnull",   "isnotnull", "isnan",          "startswith",
                                        "endswith", "contains",  "array_contains", NULL};
    static const char *const same_as_arg[] = {"abs",         "negative",   "positive", "min",
                                              "max",         "first",      "last",     "any_value",
                                              "first_value", "last_value", NULL};
    const char *name = f->s;
    sql_type a0 = f->nv ? f->v[0]->t : ty(ST_NONE);
    for (int k = 0; doubles[k]; k++)
        if (floe__sql_ieq(name, doubles[k]))
            return ty(ST_DOUBLE);
    for (int k = 0; strings[k]; k++)
        if (floe__sql_ieq(name, strings[k]))
            return ty(ST_STRING);
    for (int k = 0; ints[k]; k++)
        if (floe__sql_ieq(name, ints[k]))
            return ty(ST_INT);
    for (int k = 0; bools[k]; k++)
        if (floe__sql_ieq(name, bools[k]))
            return ty(ST_BOOLEAN);
    for (int k = 0; same_as_arg[k]; k++)
        if (floe__sql_ieq(name, same_as_arg[k]) && f->nv == 1)
            return value(a0);
    if (floe__sql_ieq(name, "count") || floe__sql_ieq(name, "count_if") ||
        floe__sql_ieq(name, "row_number") || floe__sql_ieq(name, "rank") ||
        floe__sql_ieq(name, "dense_rank"))
        return ty(ST_BIGINT);
    if ((floe__sql_ieq(name, "round") || floe__sql_ieq(name, "bround")) && f->nv >= 1 &&
        f->nv <= 2) {
        int t = 0;
        if (f->nv == 2 && !int_arg(f->v[1], &t))
            return ty(ST_NONE);
        return numeric(a0) ? round_type(a0, t) : ty(ST_NONE);
    }
    if ((floe__sql_ieq(name, "ceil") || floe__sql_ieq(name, "ceiling") ||
         floe__sql_ieq(name, "floor")) &&
        f->nv == 1) {
        if (a0.kind == ST_DECIMAL)
            return a0.s == 0 ? a0 : bounded(a0.p - a0.s + 1, 0);
        return numeric(a0) ? ty(ST_BIGINT) : ty(ST_NONE);
    }
    if ((floe__sql_ieq(name, "avg") || floe__sql_ieq(name, "mean")) && f->nv == 1) {
        if (a0.kind == ST_DECIMAL)
            return bounded(a0.p + 4, a0.s + 4);
        return numeric(a0) ? ty(ST_DOUBLE) : ty(ST_NONE);
    }
    if (floe__sql_ieq(name, "sum") && f->nv == 1) {
        if (a0.kind == ST_DECIMAL)
            return bounded(a0.p + 10, a0.s);
        if (integral(a0))
            return ty(ST_BIGINT);
        return a0.kind == ST_DOUBLE || a0.kind == ST_FLOAT ? ty(ST_DOUBLE) : ty(ST_NONE);
    }
    if (f->nv == 2 && (floe__sql_ieq(name, "try_add") || floe__sql_ieq(name, "try_subtract") ||
                       floe__sql_ieq(name, "try_multiply"))) {
        const char *op = name[5] == 'd' ? "+" : name[4] == 's' ? "-" : "*";
        return arith_type(op, f->v[0], f->v[1]);
    }
    if (f->nv == 2 && floe__sql_ieq(name, "try_divide"))
        return arith_type("/", f->v[0], f->v[1]);
    if (floe__sql_ieq(name, "current_date"))
        return ty(ST_DATE);
    if (floe__sql_ieq(name, "current_timestamp") || floe__sql_ieq(name, "now"))
        return ty(ST_TIMESTAMP);
    return ty(ST_NONE);
}

static bool named(const char *name, const char *const *names)
{
    for (int k = 0; names[k]; k++)
        if (floe__sql_ieq(name, names[k]))
            return true;
    return false;
}

/* "struct<n0:T0,...>" of the arguments' types (array element types when
 * `elements`): Spark names a field after a column argument, else by
 * `prefix` and its position (struct: col1.., arrays_zip: 0..). */
static sql_type struct_of(bd *b, const sql_node *f, const char *prefix, int base, bool elements)
{
    floe_arena *a = b->p->a;
    const char *t = "struct<";
    for (size_t k = 0; t && k < f->nv; k++) {
        const sql_node *x = f->v[k];
        sql_type xt = elements ? part_of(b, x->t, 0, NULL, NULL) : x->t;
        t = x->k == SN_COL ? floe__arena_sprintf(a, "%s%s%s:%s", t, k ? "," : "",
                                                 x->names[x->nnames - 1], text_of(b, xt))
                           : floe__arena_sprintf(a, "%s%s%s%d:%s", t, k ? "," : "", prefix,
                                                 (int)k + base, text_of(b, xt));
    }
    return nested(t ? floe__arena_sprintf(a, "%s>", t) : NULL);
}

/* Spark's result type of the functions that make or take arrays, maps and
 * structs (ST_NONE: not one of them). */
static sql_type nested_func_type(bd *b, const sql_node *f)
{
    static const char *const same_array[] = {"array_distinct",
                                             "array_sort",
                                             "sort_array",
                                             "array_union",
                                             "array_except",
                                             "array_intersect",
                                             "array_remove",
                                             "slice",
                                             "shuffle",
                                             "array_compact",
                                             NULL};
    const char *name = f->s;
    size_t n = f->nv;
    sql_type a0 = n ? f->v[0]->t : ty(ST_NONE);
    floe_arena *a = b->p->a;
    if (floe__sql_ieq(name, "array") || floe__sql_ieq(name, "collect_list") ||
        floe__sql_ieq(name, "collect_set"))
        return nested(floe__arena_sprintf(a, "array<%s>", text_of(b, common(f->v, n, 0, 1))));
    if (floe__sql_ieq(name, "map") && n % 2 == 0)
        return nested(floe__arena_sprintf(a, "map<%s,%s>", text_of(b, common(f->v, n, 0, 2)),
                                          text_of(b, common(f->v, n, 1, 2))));
    if (floe__sql_ieq(name, "named_struct") && n % 2 == 0) {
        const char *t = "struct<";
        for (size_t k = 0; t && k < n; k += 2) {
            const sql_node *x = f->v[k];
            if (x->k != SN_LIT || x->tok->kind != TK_STRING)
                return ty(ST_NONE);
            t = floe__arena_sprintf(a, "%s%s%s:%s", t, k ? "," : "", x->tok->text,
                                    text_of(b, f->v[k + 1]->t));
        }
        return nested(t ? floe__arena_sprintf(a, "%s>", t) : NULL);
    }
    if (floe__sql_ieq(name, "struct"))
        return struct_of(b, f, "col", 1, false);
    if (floe__sql_ieq(name, "arrays_zip")) {
        sql_type st = struct_of(b, f, "", 0, true);
        return nested(st.nt ? floe__arena_sprintf(a, "array<%s>", st.nt) : NULL);
    }
    if (floe__sql_ieq(name, "sequence") && n >= 2) {
        sql_type e = common(f->v, 2, 0, 1);
        return nested(floe__arena_sprintf(a, "array<%s>", integral(e) ? text_of(b, e) : "?"));
    }
    if (floe__sql_ieq(name, "split"))
        return nested("array<string>");
    if (floe__sql_ieq(name, "str_to_map"))
        return nested("map<string,string>");
    if (floe__sql_ieq(name, "map_keys") || floe__sql_ieq(name, "map_values"))
        return nested(floe__arena_sprintf(
            a, "array<%s>",
            text_of(b, is_kind(a0, "map<") ? part_of(b, a0, name[4] == 'k' ? 0 : 1, NULL, NULL)
                                           : ty(ST_NONE))));
    if (named(name, same_array) || floe__sql_ieq(name, "filter"))
        return is_kind(a0, "array<") ? value(a0) : nested("array<?>");
    /* higher-order functions: the lambda's result type is not bound */
    if (floe__sql_ieq(name, "transform") || floe__sql_ieq(name, "zip_with"))
        return nested("array<?>");
    if (floe__sql_ieq(name, "map_filter"))
        return is_kind(a0, "map<") ? value(a0) : nested("map<?,?>");
    if (floe__sql_ieq(name, "transform_values") || floe__sql_ieq(name, "transform_keys"))
        return nested("map<?,?>");
    if (floe__sql_ieq(name, "flatten")) {
        sql_type e = part_of(b, a0, 0, NULL, NULL);
        return is_kind(e, "array<") ? e : nested("array<?>");
    }
    if (floe__sql_ieq(name, "element_at") && n == 2)
        return part_of(b, a0, is_kind(a0, "map<") ? 1 : 0, NULL, NULL);
    if ((floe__sql_ieq(name, "array_max") || floe__sql_ieq(name, "array_min")) && n == 1)
        return part_of(b, a0, 0, NULL, NULL);
    if (floe__sql_ieq(name, "array_position"))
        return ty(ST_BIGINT);
    if (floe__sql_ieq(name, "size") || floe__sql_ieq(name, "cardinality"))
        return ty(ST_INT);
    if (floe__sql_ieq(name, "array_join"))
        return ty(ST_STRING);
    if (floe__sql_ieq(name, "map_from_arrays") && n == 2)
        return nested(floe__arena_sprintf(a, "map<%s,%s>",
                                          text_of(b, part_of(b, a0, 0, NULL, NULL)),
                                          text_of(b, part_of(b, f->v[1]->t, 0, NULL, NULL))));
    return ty(ST_NONE);
}

static sql_type cast_type(const sql_node *n)
{
    const char *t = n->s;
    if (n->f & SNF_NESTED)
        return ty(ST_NONE);
    if (!strcmp(t, "decimal") || !strcmp(t, "dec") || !strcmp(t, "numeric")) {
        int64_t p = n->i1 < 0 ? 10 : n->i1, s = n->i2 < 0 ? 0 : n->i2;
        return p >= 1 && p <= MAXP && s >= 0 && s <= p ? dec((int)p, (int)s) : ty(ST_NONE);
    }
    return parse_type(t);
}

static void bind_list(bd *b, sql_node **v, size_t n, const scope *sc)
{
    for (size_t k = 0; k < n; k++)
        bind_expr(b, v[k], sc);
}

static void bind_expr(bd *b, sql_node *n, const scope *sc)
{
    if (!n || ++b->depth > SQL_MAX_DEPTH * 2) {
        if (n)
            b->depth--;
        return;
    }
    switch (n->k) {
    case SN_LIT:
        switch (n->tok->kind) {
        case TK_NUMBER: n->t = number_type(n); break;
        case TK_STRING: n->t = ty(ST_STRING); break;
        case TK_BLOB: n->t = ty(ST_BINARY); break;
        default: n->t = floe__sql_ieq(n->tok->text, "NULL") ? ty(ST_NULL) : ty(ST_BOOLEAN); break;
        }
        break;
    case SN_TIMELIT: n->t = ty(n->f & SNF_DATE ? ST_DATE : ST_TIMESTAMP); break;
    case SN_COL: n->t = column_type(b, n, sc); break;
    case SN_CAST:
        bind_expr(b, n->a, sc);
        n->t = cast_type(n);
        break;
    case SN_PAREN:
        bind_expr(b, n->a, sc);
        n->t = n->a->t;
        break;
    case SN_UN:
        bind_expr(b, n->a, sc);
        n->t = !strcmp(n->s, "NOT") ? ty(ST_BOOLEAN) : numeric(n->a->t) ? n->a->t : ty(ST_NONE);
        break;
    case SN_BIN:
        bind_expr(b, n->a, sc);
        bind_expr(b, n->b, sc);
        if (is_arith(n->s))
            n->t = arith_type(n->s, n->a, n->b);
        else if (!strcmp(n->s, "||"))
            n->t = ty(ST_STRING);
        else if (!strcmp(n->s, "&") || !strcmp(n->s, "|") || !strcmp(n->s, "^"))
            n->t = integral(n->a->t) && integral(n->b->t)
                       ? ty(wider_int((sql_tk)n->a->t.kind, (sql_tk)n->b->t.kind))
                       : ty(ST_NONE);
        else
            n->t = ty(ST_BOOLEAN);
        break;
    case SN_FUNC:
        bind_list(b, n->v, n->nv, sc);
        bind_expr(b, n->b, sc);
        if (n->a) { /* the window */
            bind_list(b, n->a->v, n->a->nv, sc);
            for (size_t k = 0; k < n->a->nw; k++)
                bind_expr(b, n->a->w[k]->a, sc);
        }
        n->t = func_type(n);
        if (n->t.kind == ST_NONE)
            n->t = nested_func_type(b, n);
        break;
    case SN_CASE: {
        bind_expr(b, n->a, sc);
        bind_list(b, n->v, n->nv, sc);
        bind_expr(b, n->b, sc);
        sql_type t = ty(ST_NONE);
        bool first = true, ok = true;
        for (size_t k = 1; k < n->nv + 1 && ok; k += 2) {
            const sql_node *r = k < n->nv ? n->v[k] : n->b;
            if (!r || r->t.kind == ST_NULL)
                continue;
            ok = first || same(t, r->t);
            t = r->t;
            first = false;
        }
        n->t = ok ? value(t) : ty(ST_NONE);
        break;
    }
    case SN_LIKE:
    case SN_BETWEEN:
    case SN_IS:
    case SN_IN:
        bind_expr(b, n->a, sc);
        bind_expr(b, n->b, sc);
        bind_expr(b, n->c, sc);
        bind_list(b, n->v, n->nv, sc);
        if (n->k == SN_IN && n->b &&
            (n->b->k == SN_SELECT || n->b->k == SN_SETOP || n->b->k == SN_WITH ||
             n->b->k == SN_ORDER || n->b->k == SN_VALUES))
            bind_query(b, n->b, sc);
        n->t = ty(ST_BOOLEAN);
        break;
    case SN_EXISTS:
        bind_query(b, n->a, sc);
        n->t = ty(ST_BOOLEAN);
        break;
    case SN_SUBQ: {
        bind_query(b, n->a, sc);
        int found = 0;
        n->t = value(query_column(b, n->a, NULL, 0, sc, &found));
        break;
    }
    case SN_ROW: bind_list(b, n->v, n->nv, sc); break;
    case SN_LAMBDA:
        /* the parameters shadow columns and have no known type: the body
         * is typed without the columns of the query */
        bind_expr(b, n->a, NULL);
        break;
    case SN_SUBSCRIPT:
    case SN_FIELD:
        bind_expr(b, n->a, sc);
        bind_expr(b, n->b, sc);
        /* an array's element, a map's value, a struct's field */
        if (n->k == SN_FIELD && n->s)
            n->t = field_of(b, n->a->t, n->s);
        else if (n->k == SN_SUBSCRIPT)
            n->t = part_of(b, n->a->t, is_kind(n->a->t, "map<") ? 1 : 0, NULL, NULL);
        break;
    default: break;
    }
    b->depth--;
}

/* ---------------------------------------------------------------- queries */

static void bind_rel(bd *b, sql_node *n, const scope *sc)
{
    if (!n || ++b->depth > SQL_MAX_DEPTH * 2) {
        if (n)
            b->depth--;
        return;
    }
    switch (n->k) {
    case SN_SUBREL: bind_query(b, n->a, sc); break;
    case SN_PAREN: bind_rel(b, n->a, sc); break;
    case SN_JOIN:
        bind_rel(b, n->a, sc);
        if (n->b->k == SN_LATERAL) {
            scope s = {sc, n->a, NULL, 0}; /* the view's generator sees the relation */
            bind_expr(b, n->b->a, &s);
            break;
        }
        bind_rel(b, n->b, sc);
        if (n->c) {
            scope s = {sc, n, NULL, 0};
            bind_expr(b, n->c, &s);
        }
        break;
    case SN_RANGE:
    case SN_FUNCREL: bind_list(b, n->v, n->nv, sc); break;
    default: break;
    }
    b->depth--;
}

static void bind_query(bd *b, sql_node *n, const scope *up)
{
    if (!n || ++b->depth > SQL_MAX_DEPTH * 2) {
        if (n)
            b->depth--;
        return;
    }
    switch (n->k) {
    case SN_SELECT: {
        /* the FROM relations see the CTEs (and the outer scopes) of up */
        bind_rel(b, n->a, up);
        scope s = {up, n->a, NULL, 0};
        for (size_t k = 0; k < n->nv; k++)
            if (n->v[k]->k == SN_ITEM)
                bind_expr(b, n->v[k]->a, &s);
        bind_expr(b, n->b, &s);
        bind_list(b, n->w, n->nw, &s);
        bind_expr(b, n->c, &s);
        break;
    }
    case SN_SETOP:
        bind_query(b, n->a, up);
        bind_query(b, n->b, up);
        break;
    case SN_ORDER: {
        bind_query(b, n->a, up);
        /* ORDER BY sees the select's FROM */
        const sql_node *q = n->a;
        scope s = {up, q->k == SN_SELECT ? q->a : NULL, NULL, 0};
        for (size_t k = 0; k < n->nv; k++)
            bind_expr(b, n->v[k]->a, &s);
        break;
    }
    case SN_WITH: {
        scope s = {up, NULL, n->v, 0};
        for (size_t k = 0; k < n->nv; k++) {
            s.nctes = k; /* a CTE sees the ones before it */
            bind_query(b, n->v[k]->a, &s);
        }
        s.nctes = n->nv;
        bind_query(b, n->a, &s);
        break;
    }
    case SN_VALUES:
        for (size_t k = 0; k < n->nv; k++)
            bind_list(b, n->v[k]->v, n->v[k]->nv, up);
        break;
    default: break;
    }
    b->depth--;
}

void floe__sql_bind(sql_parser *p, sql_node *n)
{
    bd b = {p, 0};
    if (!n)
        return;
    if (n->k == SN_SELECT || n->k == SN_SETOP || n->k == SN_WITH || n->k == SN_ORDER ||
        n->k == SN_VALUES)
        bind_query(&b, n, NULL);
    else
        bind_expr(&b, n, NULL);
}

/* The bound type of result column c of query tree q (NULL: not known). */
static const sql_type *tree_column_type(const sql_node *q, size_t c)
{
    for (int guard = 0; q && guard < 1000; guard++) {
        switch (q->k) {
        case SN_WITH:
        case SN_ORDER:
        case SN_SETOP: q = q->a; continue;
        case SN_VALUES: return q->nv && c < q->v[0]->nv ? &q->v[0]->v[c]->t : NULL;
        case SN_SELECT:
            if (q->nv == 1 && q->v[0]->k == SN_STAR && !q->v[0]->nnames && q->a &&
                q->a->k == SN_SUBREL && !q->a->nnames) {
                q = q->a->a; /* SELECT * FROM (subquery) */
                continue;
            }
            for (size_t k = 0; k < q->nv && k <= c; k++)
                if (q->v[k]->k == SN_STAR)
                    return NULL;
            return c < q->nv && q->v[c]->a ? &q->v[c]->a->t : NULL;
        default: return NULL;
        }
    }
    return NULL;
}

const char *floe__sql_tree_nested_type(const sql_node *q, size_t c)
{
    const sql_type *t = tree_column_type(q, c);
    return t && t->kind == ST_NESTED ? t->nt : NULL;
}

int floe__sql_tree_decimal_scale(const sql_node *q, size_t c)
{
    const sql_type *t = tree_column_type(q, c);
    return t && t->kind == ST_DECIMAL && t->s >= 0 && t->s <= 38 ? t->s : -1;
}
