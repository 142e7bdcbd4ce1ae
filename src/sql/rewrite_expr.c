/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Spark expression syntax the rewriter turns into SQLite: subscripts and
 * field chains on the metadata tables' map/list/struct columns (stored as
 * JSON text) -> json_extract paths, CAST type names, and the common Spark
 * functions whose SQLite spelling differs (see docs/sql.md for the table).
 * Called token by token from rewrite.c's walk.
 */
#include "sql/sqlfront_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- expressions */

static const char *const struct_columns[] = {"partition", "data_file", "readable_metrics", NULL};

static bool is_struct_column(const sql_rw *r, const char *s)
{
    for (int k = 0; struct_columns[k]; k++)
        if (floe__sql_ieq(s, struct_columns[k]))
            return true;
    const floe_sql_options *o = r->p->opt;
    return o && o->is_struct_column && o->is_struct_column(s, o->payload);
}

/* JSON path label: $."a"."b" ... ; a '"' cannot be expressed. */
static int path_label(sql_rw *r, size_t at, floe_buf *b, const char *label)
{
    if (strchr(label, '"'))
        return floe__sql_rw_err(r, at, FLOE_EUNSUPPORTED, "unsupported: key containing '\"'");
    FLOE_TRY(floe__buf_puts(b, ".\""));
    FLOE_TRY(floe__buf_puts(b, label));
    return floe__buf_putc(b, '"');
}

/* a.b.partition.x.y -> json_extract(a.b."partition", '$."x"."y"') when one
 * non-final part is a struct column. Returns 1 when handled. */
int floe__sql_rw_struct_chain(sql_rw *r, size_t *pi)
{
    size_t i = *pi, j = i;
    size_t n = 0, split = (size_t)-1;
    for (;;) {
        sql_tok *w = floe__sql_rw_tok(r, j);
        if (w->kind != TK_WORD && w->kind != TK_QIDENT)
            break;
        if (split == (size_t)-1 && is_struct_column(r, w->text) &&
            floe__sql_tok_op(floe__sql_rw_tok(r, j + 1), "."))
            split = n;
        n++;
        if (!floe__sql_tok_op(floe__sql_rw_tok(r, j + 1), ".") ||
            (floe__sql_rw_tok(r, j + 2)->kind != TK_WORD &&
             floe__sql_rw_tok(r, j + 2)->kind != TK_QIDENT))
            break;
        j += 2;
    }
    if (split == (size_t)-1 || floe__sql_tok_op(floe__sql_rw_tok(r, j + 1), "("))
        return 0;
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, "$");
    size_t k = i;
    FLOE_TRY(floe__sql_rw_emit(r, "json_extract", 'f'));
    FLOE_TRY(floe__sql_rw_emit(r, "(", '('));
    for (size_t q = 0; q < n && rc == 0; q++, k += 2) {
        sql_tok *w = floe__sql_rw_tok(r, k);
        if (q <= split) {
            if (q)
                rc = floe__sql_rw_emit(r, ".", '.');
            if (rc == 0)
                rc = floe__sql_rw_emit(r, floe__sql_quoted(r->p->a, w->text, true), 'w');
        } else {
            rc = path_label(r, k, &b, w->text);
        }
    }
    if (rc == 0)
        rc = floe__sql_rw_emit(r, ",", ',');
    if (rc == 0)
        rc = floe__sql_rw_emit(r, floe__sql_quoted(r->p->a, b.ptr, false), 'o');
    floe__buf_free(&b);
    FLOE_TRY(rc);
    FLOE_TRY(floe__sql_rw_emit(r, ")", ')'));
    *pi = j + 1;
    return 1;
}

/* x[...] -> json_extract(x, path). *pi at '['. */
int floe__sql_rw_subscript(sql_rw *r, size_t *pi)
{
    size_t i = *pi, j = i + 1;
    int depth = 1;
    for (; j < r->to; j++) {
        if (floe__sql_tok_op(floe__sql_rw_tok(r, j), "["))
            depth++;
        else if (floe__sql_tok_op(floe__sql_rw_tok(r, j), "]") && --depth == 0)
            break;
    }
    if (j >= r->to)
        return floe__sql_rw_err(r, i, FLOE_EINVALID, "syntax error: unbalanced '['");
    if (r->n == 0)
        return floe__sql_rw_err(r, i, FLOE_EINVALID, "syntax error: '[' without an operand");
    /* Find where the operand starts in the output. */
    size_t e = r->n - 1, s = e;
    if (r->o[e].k == ')') {
        int d = 0;
        for (s = e;; s--) {
            if (r->o[s].k == ')')
                d++;
            else if (r->o[s].k == '(' && --d == 0)
                break;
            if (s == 0)
                return floe__sql_rw_err(r, i, FLOE_EINVALID, "syntax error: unbalanced ')'");
        }
        if (s > 0 && (r->o[s - 1].k == 'f' || r->o[s - 1].k == 'w'))
            s--;
    } else if (r->o[e].k == 'w') {
        while (s >= 2 && r->o[s - 1].k == '.' && r->o[s - 2].k == 'w')
            s -= 2;
    } else if (r->o[e].k != 'x') {
        return floe__sql_rw_err(r, i, FLOE_EUNSUPPORTED,
                                "unsupported: subscript on this expression");
    }
    /* Integer-keyed maps of the metadata tables are JSON objects: m[1] is
     * $."1"; other integer subscripts index arrays: a[0] is $[0]. */
    static const char *const int_maps[] = {"column_sizes",
                                           "value_counts",
                                           "null_value_counts",
                                           "nan_value_counts",
                                           "lower_bounds",
                                           "upper_bounds",
                                           NULL};
    bool int_map = false;
    for (int k = 0; int_maps[k] && r->o[e].k == 'w'; k++)
        int_map = int_map || floe__sql_ieq(r->o[e].s, int_maps[k]);
    const floe_sql_options *opt = r->p->opt;
    if (!int_map && r->o[e].k == 'w' && opt && opt->is_keyed_map_column)
        int_map = opt->is_keyed_map_column(r->o[e].s, opt->payload);
    /* Insert json_extract( before the operand. */
    for (int k = 0; k < 2; k++)
        if (!(r->o = floe__sql_grow(r->p->a, r->o, r->n + k, &r->cap, sizeof *r->o)))
            return FLOE_ENOMEM;
    memmove(r->o + s + 2, r->o + s, (r->n - s) * sizeof *r->o);
    r->o[s].s = "json_extract";
    r->o[s].k = 'f';
    r->o[s + 1].s = "(";
    r->o[s + 1].k = '(';
    r->n += 2;
    FLOE_TRY(floe__sql_rw_emit(r, ",", ','));
    floe_buf path = FLOE_BUF_INIT, lit = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&lit, "$");
    size_t k = i;
    for (bool first = true; rc == 0; first = false) {
        sql_tok *t0 = floe__sql_rw_tok(r, k), *t1 = floe__sql_rw_tok(r, k + 1),
                *t2 = floe__sql_rw_tok(r, k + 2);
        size_t close = first ? j : k + 2;
        if (floe__sql_tok_op(t0, ".") && (t1->kind == TK_WORD || t1->kind == TK_QIDENT) &&
            !floe__sql_tok_op(t2, "(") && !first) {
            rc = path_label(r, k + 1, &lit, t1->text);
            k += 2;
        } else if (floe__sql_tok_op(t0, "[") && close == k + 2 &&
                   floe__sql_tok_op(floe__sql_rw_tok(r, close), "]") && t1->kind == TK_STRING) {
            rc = path_label(r, k + 1, &lit, t1->text);
            k += 3;
        } else if (floe__sql_tok_op(t0, "[") && close == k + 2 &&
                   floe__sql_tok_op(floe__sql_rw_tok(r, close), "]") && t1->kind == TK_NUMBER &&
                   floe__sql_all_digits(t1->text)) {
            rc = int_map ? floe__buf_printf(&lit, ".\"%s\"", t1->text)
                         : floe__buf_printf(&lit, "[%s]", t1->text);
            k += 3;
        } else if (first) {
            /* a computed key: '$."' || (expr) || '"' */
            char *inner = NULL;
            rc = floe__sql_rw_sub(r, i + 1, j, &inner);
            const char *q = rc == 0 ? floe__sql_quoted(r->p->a, lit.ptr, false) : NULL;
            if (rc == 0)
                rc = q ? floe__buf_printf(&path, "%s || '.\"' || (%s) || '\"'", q, inner)
                       : FLOE_ENOMEM;
            floe__buf_clear(&lit);
            k = j + 1;
        } else {
            break;
        }
        int_map = false;
    }
    if (rc == 0 && (lit.len || !path.len)) {
        const char *q = floe__sql_quoted(r->p->a, lit.ptr ? lit.ptr : "", false);
        rc = !q         ? FLOE_ENOMEM
             : path.len ? floe__buf_printf(&path, " || %s", q)
                        : floe__buf_puts(&path, q);
    }
    if (rc == 0)
        rc = floe__sql_rw_emit(r, floe__arena_strdup(r->p->a, path.ptr), 'o');
    floe__buf_free(&path);
    floe__buf_free(&lit);
    FLOE_TRY(rc);
    FLOE_TRY(floe__sql_rw_emit(r, ")", ')'));
    *pi = k;
    return 0;
}

/* Arguments of a call whose '(' is at lp: rewritten texts. */
static int call_args(sql_rw *r, size_t lp, size_t *rp_out, char ***args_out, size_t *n_out)
{
    size_t rp = floe__sql_rw_match_paren(r, lp);
    if (rp == (size_t)-1)
        return floe__sql_rw_err(r, lp, FLOE_EINVALID, "syntax error: unbalanced '('");
    char **args = NULL;
    size_t n = 0, cap = 0, start = lp + 1;
    if (rp > lp + 1) {
        int depth = 0;
        for (size_t k = lp + 1; k <= rp; k++) {
            sql_tok *t = floe__sql_rw_tok(r, k);
            if (k < rp && (floe__sql_tok_op(t, "(") || floe__sql_tok_op(t, "[")))
                depth++;
            else if (k < rp && (floe__sql_tok_op(t, ")") || floe__sql_tok_op(t, "]")))
                depth--;
            else if (k == rp || (depth == 0 && floe__sql_tok_op(t, ","))) {
                if (k == start)
                    return floe__sql_rw_err(r, k, FLOE_EINVALID, "syntax error: empty argument");
                if (!(args = floe__sql_grow(r->p->a, args, n, &cap, sizeof *args)))
                    return FLOE_ENOMEM;
                FLOE_TRY(floe__sql_rw_sub(r, start, k, &args[n]));
                n++;
                start = k + 1;
            }
        }
    }
    *rp_out = rp;
    *args_out = args;
    *n_out = n;
    return 0;
}

/* Spark's range(end) / range(start, end [, step]) table-valued function at
 * *pi (the word range): a recursive CTE with Spark's one column `id`. The
 * rows stop before `end` in the direction of the step (a zero step gives
 * no rows; Spark raises an error). *pi moves past the ')'. */
int floe__sql_rw_range(sql_rw *r, size_t *pi)
{
    size_t rp = 0, n = 0;
    char **args = NULL;
    FLOE_TRY(call_args(r, *pi + 1, &rp, &args, &n));
    if (n < 1 || n > 3)
        return floe__sql_rw_err(r, *pi, FLOE_EINVALID,
                                "range() expects (end), (start, end) or (start, end, step)");
    const char *start = n == 1 ? "0" : args[0], *end = n == 1 ? args[0] : args[1];
    const char *step = n == 3 ? args[2] : "1";
    const char *out = floe__arena_sprintf(
        r->p->a,
        "(WITH RECURSIVE floe_range(id) AS (SELECT (%s) UNION ALL SELECT id + (%s) FROM "
        "floe_range WHERE ((%s) > 0 AND id + (%s) < (%s)) OR ((%s) < 0 AND id + (%s) > (%s))) "
        "SELECT id FROM floe_range WHERE ((%s) > 0 AND id < (%s)) OR ((%s) < 0 AND id > (%s)))",
        start, step, step, step, end, step, step, end, step, end, step, end);
    FLOE_TRY(floe__sql_rw_emit(r, out, 'x'));
    *pi = rp + 1;
    return 0;
}

/* The end (exclusive) of the operand starting at token k: a parenthesised
 * expression, or a name / literal with its `.field` parts and call
 * parentheses. */
static size_t operand_end(sql_rw *r, size_t k)
{
    if (floe__sql_tok_op(floe__sql_rw_tok(r, k), "(")) {
        size_t m = floe__sql_rw_match_paren(r, k);
        return m == (size_t)-1 ? k : m + 1;
    }
    sql_tok *t = floe__sql_rw_tok(r, k);
    if (t->kind == TK_EOF || t->kind == TK_OP)
        return k;
    k++;
    for (;;) {
        if (floe__sql_tok_op(floe__sql_rw_tok(r, k), "(") && t->kind == TK_WORD) {
            size_t m = floe__sql_rw_match_paren(r, k);
            if (m == (size_t)-1)
                return k;
            k = m + 1;
        } else if (floe__sql_tok_op(floe__sql_rw_tok(r, k), ".") &&
                   (floe__sql_rw_tok(r, k + 1)->kind == TK_WORD ||
                    floe__sql_rw_tok(r, k + 1)->kind == TK_QIDENT)) {
            t = floe__sql_rw_tok(r, k + 1);
            k += 2;
        } else {
            return k;
        }
    }
}

/* LIKE is Spark's (case-sensitive, exec_spark.c's like()); ILIKE and LIKE
 * ANY / ALL (p1, ...) compare with a pattern list made by
 * floe_like_pattern(mode, p1, ...). After NOT, ANY and ALL swap: Spark's
 * `x NOT LIKE ANY (a, b)` is "some pattern does not match", which is SQL's
 * NOT (x LIKE ALL (a, b)). */
int floe__sql_rw_like(sql_rw *r, size_t *pi)
{
    size_t i = *pi;
    bool ci = floe__sql_is_word(floe__sql_rw_tok(r, i), "ILIKE");
    bool negated = i > 0 && floe__sql_is_word(floe__sql_rw_tok(r, i - 1), "NOT");
    sql_tok *q = floe__sql_rw_tok(r, i + 1);
    int mode = ci ? 4 : 0;
    size_t from = i + 1, to;
    if ((floe__sql_is_word(q, "ANY") || floe__sql_is_word(q, "SOME") ||
         floe__sql_is_word(q, "ALL")) &&
        floe__sql_tok_op(floe__sql_rw_tok(r, i + 2), "(")) {
        bool all = floe__sql_is_word(q, "ALL");
        mode |= all != negated ? 2 : 1;
        size_t rp = floe__sql_rw_match_paren(r, i + 2);
        if (rp == (size_t)-1 || rp == i + 3)
            return floe__sql_rw_err(r, i + 2, FLOE_EINVALID,
                                    "syntax error: expected LIKE ANY|ALL (pattern, ...)");
        from = i + 3;
        to = rp;
        *pi = rp + 1;
    } else if (!ci) {
        FLOE_TRY(floe__sql_rw_emit(r, "LIKE", 'w'));
        *pi = i + 1;
        return 0;
    } else {
        to = operand_end(r, from);
        if (to == from)
            return floe__sql_rw_err(r, from, FLOE_EINVALID, "syntax error: expected a pattern");
        *pi = to;
    }
    char *x;
    FLOE_TRY(floe__sql_rw_sub(r, from, to, &x));
    FLOE_TRY(floe__sql_rw_emit(r, "LIKE", 'w'));
    return floe__sql_rw_emit(r, floe__arena_sprintf(r->p->a, "floe_like_pattern(%d, %s)", mode, x),
                             'x');
}

/* A CAST target type: SQLite's CAST type, and the floe_cast() kind when
 * Spark's semantics need floe_cast (NULL: SQLite's CAST is kept). */
typedef struct {
    const char *spark, *sqlite, *kind;
} cast_target;

static const cast_target *cast_type(const sql_tok *t)
{
    static const cast_target m[] = {
        {"string", "TEXT", NULL},          {"varchar", "TEXT", NULL},
        {"char", "TEXT", NULL},            {"bigint", "INTEGER", "bigint"},
        {"long", "INTEGER", "bigint"},     {"int", "INTEGER", "int"},
        {"integer", "INTEGER", "int"},     {"smallint", "INTEGER", "smallint"},
        {"tinyint", "INTEGER", "tinyint"}, {"short", "INTEGER", "smallint"},
        {"byte", "INTEGER", "tinyint"},    {"boolean", "INTEGER", "boolean"},
        {"float", "REAL", NULL},           {"real", "REAL", NULL},
        {"double", "REAL", "double"},      {"decimal", "NUMERIC", NULL},
        {"dec", "NUMERIC", NULL},          {"numeric", "NUMERIC", NULL},
        {"binary", "BLOB", NULL},          {"timestamp", "TEXT", "timestamp"},
        {"timestamp_ntz", "TEXT", "timestamp"}, {"timestamp_ltz", "TEXT", "timestamp"},
        {"date", NULL, "date"}};
    if (t->kind != TK_WORD)
        return NULL;
    for (size_t k = 0; k < FLOE_ARRAY_LEN(m); k++)
        if (floe__sql_ieq(t->text, m[k].spark))
            return &m[k];
    return NULL;
}

/* DECIMAL, DECIMAL(p) or DECIMAL(p, s) from token `at` to the CAST's ')' at
 * rp: Spark's defaults (10, 0) and limits (p <= 38, s <= p). */
static int decimal_type(sql_rw *r, size_t at, size_t rp, int *p, int *s)
{
    size_t k = at + 1;
    if (k != rp) {
        sql_tok *a = floe__sql_rw_tok(r, k + 1), *c = floe__sql_rw_tok(r, k + 2);
        if (!floe__sql_tok_op(floe__sql_rw_tok(r, k), "(") || a->kind != TK_NUMBER ||
            !floe__sql_all_digits(a->text) || a->len > 3)
            return floe__sql_rw_err(r, k, FLOE_EINVALID, "syntax error in CAST type");
        *p = atoi(a->text);
        *s = 0;
        k += 2;
        if (floe__sql_tok_op(c, ",")) {
            sql_tok *b = floe__sql_rw_tok(r, k + 1);
            if (b->kind != TK_NUMBER || !floe__sql_all_digits(b->text) || b->len > 3)
                return floe__sql_rw_err(r, k + 1, FLOE_EINVALID, "syntax error in CAST type");
            *s = atoi(b->text);
            k += 2;
        }
        if (!floe__sql_tok_op(floe__sql_rw_tok(r, k), ")") || k + 1 != rp)
            return floe__sql_rw_err(r, k, FLOE_EINVALID, "syntax error in CAST type");
    }
    const char *msg = NULL;
    if (*p < 1 || *p > 38)
        msg = floe__arena_sprintf(r->p->a, "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal "
                                           "precision %d exceeds max precision 38.", *p);
    else if (*s > *p)
        msg = floe__arena_sprintf(r->p->a, "Decimal scale (%d) cannot be greater than precision (%d).",
                                  *s, *p);
    else
        return 0;
    return msg ? floe__sql_rw_err(r, at, FLOE_EINVALID, msg) : floe__error_nomem();
}

/* CAST(x AS type) / TRY_CAST. *pi at the CAST word. */
static int rw_cast(sql_rw *r, size_t *pi)
{
    size_t lp = *pi + 1, rp = floe__sql_rw_match_paren(r, lp);
    if (rp == (size_t)-1)
        return floe__sql_rw_err(r, lp, FLOE_EINVALID, "syntax error: unbalanced '('");
    /* the AS at depth 1 */
    size_t as = (size_t)-1;
    int depth = 0;
    for (size_t k = lp; k < rp; k++) {
        if (floe__sql_tok_op(floe__sql_rw_tok(r, k), "("))
            depth++;
        else if (floe__sql_tok_op(floe__sql_rw_tok(r, k), ")"))
            depth--;
        else if (depth == 1 && floe__sql_is_word(floe__sql_rw_tok(r, k), "AS"))
            as = k;
    }
    if (as == (size_t)-1 || as == lp + 1)
        return floe__sql_rw_err(r, *pi, FLOE_EINVALID, "syntax error: expected CAST(expr AS type)");
    char *x;
    FLOE_TRY(floe__sql_rw_sub(r, lp + 1, as, &x));
    sql_tok *ty = floe__sql_rw_tok(r, as + 1);
    const char *out;
    int p = 10, sc = 0;
    bool nested = floe__sql_is_word(ty, "ARRAY") || floe__sql_is_word(ty, "MAP") ||
                  floe__sql_is_word(ty, "STRUCT");
    if (nested && as == lp + 2 && floe__sql_is_word(floe__sql_rw_tok(r, lp + 1), "NULL")) {
        /* a typed null list/map/struct (Spark's CAST(NULL AS ARRAY<INT>)):
         * nested values are JSON text here, and a NULL is SQL NULL */
        out = "NULL";
    } else if (floe__sql_is_word(ty, "DECIMAL") || floe__sql_is_word(ty, "DEC") ||
               floe__sql_is_word(ty, "NUMERIC")) {
        FLOE_TRY(decimal_type(r, as + 1, rp, &p, &sc));
        out = floe__arena_sprintf(r->p->a, "floe_cast_decimal(%s, %d, %d)", x, p, sc);
    } else if (cast_type(ty) && cast_type(ty)->kind && as + 2 == rp) {
        /* Spark's CAST without ANSI mode (text that does not parse is NULL,
         * integers wrap): exec_spark.c */
        out = floe__arena_sprintf(r->p->a, "floe_cast(%s, '%s')", x, cast_type(ty)->kind);
    } else {
        const char *st = cast_type(ty) ? cast_type(ty)->sqlite : NULL;
        if (!st)
            return floe__sql_rw_err(r, as + 1, FLOE_EUNSUPPORTED, "unsupported: CAST to this type");
        size_t k = as + 2;
        if (floe__sql_tok_op(floe__sql_rw_tok(r, k), "(")) {
            size_t m = floe__sql_rw_match_paren(r, k);
            if (m != rp - 1)
                return floe__sql_rw_err(r, k, FLOE_EINVALID, "syntax error in CAST type");
            k = m + 1;
        }
        if (k != rp)
            return floe__sql_rw_err(r, k, FLOE_EINVALID, "syntax error in CAST type");
        out = floe__arena_sprintf(r->p->a, "CAST(%s AS %s)", x, st);
    }
    FLOE_TRY(floe__sql_rw_emit(r, out, 'x'));
    *pi = rp + 1;
    return 0;
}

/* Spark date_format pattern -> strftime format (only the common letters). */
static int strftime_pattern(sql_rw *r, size_t at, const char *pat, floe_buf *b)
{
    static const struct {
        const char *spark, *fmt;
    } m[] = {{"yyyy", "%Y"}, {"MM", "%m"},     {"dd", "%d"}, {"HH", "%H"},
             {"mm", "%M"},   {"ss.SSS", "%f"}, {"ss", "%S"}, {"D", "%j"}};
    for (const char *s = pat; *s;) {
        bool hit = false;
        for (size_t k = 0; k < FLOE_ARRAY_LEN(m) && !hit; k++) {
            size_t l = strlen(m[k].spark);
            if (!strncmp(s, m[k].spark, l) && !(isalpha((unsigned char)s[l]) && s[l] == s[l - 1])) {
                FLOE_TRY(floe__buf_puts(b, m[k].fmt));
                s += l;
                hit = true;
            }
        }
        if (hit)
            continue;
        if (isalpha((unsigned char)*s))
            return floe__sql_rw_err(r, at, FLOE_EUNSUPPORTED,
                                    "unsupported: date_format pattern (yyyy MM dd HH mm ss only)");
        if (*s == '%')
            FLOE_TRY(floe__buf_putc(b, '%'));
        FLOE_TRY(floe__buf_putc(b, *s++));
    }
    return 0;
}

static const struct {
    const char *spark, *sqlite;
} renames[] = {
    {"array", "json_array"},
    {"named_struct", "json_object"},
    {"struct", "json_array"}, /* by position; see sql/nested.c */
    {"size", "json_array_length"},
    {"cardinality", "json_array_length"},
    {"nvl", "ifnull"},
    {"if", "iif"},
    {"lcase", "lower"},
    {"ucase", "upper"},
    {"collect_list", "json_group_array"},
    {"to_date", "date"},
    {"len", "length"},
    {"char_length", "length"},
    {"character_length", "length"},
    {"get_json_object", "json_extract"},
    {"bool_or", "max"},
    {"bool_and", "min"},
    {"every", "min"},
    {"some", "max"},
    {"any", "max"},
};

/* Is rewritten text `s` one SQL string literal ('..', '' inside)? */
static bool is_string_literal(const char *s)
{
    if (*s++ != '\'')
        return false;
    for (; *s; s++)
        if (*s == '\'') {
            if (s[1] == '\'')
                s++;
            else
                return s[1] == '\0';
        }
    return false;
}

/* A function call at *pi (word followed by '('). Returns 1 when handled. */
int floe__sql_rw_function(sql_rw *r, size_t *pi)
{
    size_t i = *pi;
    sql_tok *t = floe__sql_rw_tok(r, i);
    if (t->kind != TK_WORD)
        return 0;
    const char *f = t->text;
    floe_arena *a = r->p->a;
    if (floe__sql_ieq(f, "CAST") || floe__sql_ieq(f, "TRY_CAST")) {
        FLOE_TRY(rw_cast(r, pi));
        return 1;
    }
    for (size_t k = 0; k < FLOE_ARRAY_LEN(renames); k++) {
        if (floe__sql_ieq(f, renames[k].spark)) {
            FLOE_TRY(floe__sql_rw_emit(r, renames[k].sqlite, 'f'));
            *pi = i + 1;
            return 1;
        }
    }
    static const struct {
        const char *spark, *fmt;
    } parts[] = {{"year", "%Y"}, {"month", "%m"},  {"day", "%d"},    {"dayofmonth", "%d"},
                 {"hour", "%H"}, {"minute", "%M"}, {"second", "%S"}, {"dayofyear", "%j"}};
    static const char *const specials[] = {"current_timestamp",
                                           "now",
                                           "current_date",
                                           "unix_timestamp",
                                           "date_add",
                                           "date_sub",
                                           "datediff",
                                           "concat",
                                           "concat_ws",
                                           "date_format",
                                           "array_contains",
                                           "map",
                                           "sequence",
                                           NULL};
    int part = -1, special = -1;
    for (size_t k = 0; k < FLOE_ARRAY_LEN(parts); k++)
        if (floe__sql_ieq(f, parts[k].spark))
            part = (int)k;
    for (int k = 0; specials[k]; k++)
        if (floe__sql_ieq(f, specials[k]))
            special = k;
    if (part < 0 && special < 0)
        return 0;
    size_t rp = 0, n = 0;
    char **args = NULL;
    FLOE_TRY(call_args(r, i + 1, &rp, &args, &n));
    const char *out = NULL;
    if (part >= 0) {
        if (n != 1)
            return floe__sql_rw_err(r, i, FLOE_EINVALID, "expected one argument");
        out =
            floe__arena_sprintf(a, "CAST(strftime('%s', %s) AS INTEGER)", parts[part].fmt, args[0]);
    } else {
        const char *name = specials[special];
        size_t want = 0;
        if (!strcmp(name, "current_timestamp") || !strcmp(name, "now")) {
            out = "strftime('%Y-%m-%d %H:%M:%f000', 'now')";
        } else if (!strcmp(name, "current_date")) {
            out = "date('now')";
        } else if (!strcmp(name, "unix_timestamp")) {
            if (n == 0)
                out = "CAST(strftime('%s', 'now') AS INTEGER)";
            else if (n == 1)
                out = floe__arena_sprintf(a, "CAST(strftime('%%s', %s) AS INTEGER)", args[0]);
            else
                return floe__sql_rw_err(r, i, FLOE_EUNSUPPORTED,
                                        "unsupported: unix_timestamp(x, fmt)");
        } else if (!strcmp(name, "date_add") || !strcmp(name, "date_sub")) {
            want = 2;
            if (n == 2)
                out = floe__arena_sprintf(a, "date(%s, '%s' || (%s) || ' days')", args[0],
                                          name[5] == 'a' ? "+" : "-", args[1]);
        } else if (!strcmp(name, "datediff")) {
            want = 2;
            if (n == 2)
                out = floe__arena_sprintf(
                    a, "CAST(julianday(date(%s)) - julianday(date(%s)) AS INTEGER)", args[0],
                    args[1]);
        } else if (!strcmp(name, "concat")) {
            floe_buf b = FLOE_BUF_INIT;
            int rc = floe__buf_putc(&b, '(');
            for (size_t k = 0; k < n && rc == 0; k++)
                rc = floe__buf_printf(&b, "%s(%s)", k ? " || " : "", args[k]);
            if (rc == 0)
                rc = floe__buf_puts(&b, n ? ")" : "'')");
            out = rc == 0 ? floe__arena_strdup(a, b.ptr) : NULL;
            floe__buf_free(&b);
        } else if (!strcmp(name, "concat_ws")) {
            /* Spark skips NULL arguments: prefix each with the separator
             * and cut the first separator off. */
            if (n < 1)
                return floe__sql_rw_err(r, i, FLOE_EINVALID, "concat_ws expects a separator");
            floe_buf b = FLOE_BUF_INIT;
            int rc = floe__buf_puts(&b, "substr(''");
            for (size_t k = 1; k < n && rc == 0; k++)
                rc = floe__buf_printf(&b, " || coalesce((%s) || (%s), '')", args[0], args[k]);
            if (rc == 0)
                rc = floe__buf_printf(&b, ", length(%s) + 1)", args[0]);
            out = rc == 0 ? floe__arena_strdup(a, b.ptr) : NULL;
            floe__buf_free(&b);
        } else if (!strcmp(name, "date_format")) {
            want = 2;
            sql_tok *fmt = NULL;
            /* the pattern must be a string literal: the last token before ')' */
            if (n == 2 && floe__sql_rw_tok(r, rp - 1)->kind == TK_STRING &&
                floe__sql_tok_op(floe__sql_rw_tok(r, rp - 2), ","))
                fmt = floe__sql_rw_tok(r, rp - 1);
            if (n == 2 && !fmt)
                return floe__sql_rw_err(r, i, FLOE_EUNSUPPORTED,
                                        "unsupported: date_format with a non-literal pattern");
            if (fmt) {
                floe_buf b = FLOE_BUF_INIT;
                int rc = strftime_pattern(r, rp - 1, fmt->text, &b);
                const char *q = rc == 0 ? floe__sql_quoted(a, b.ptr ? b.ptr : "", false) : NULL;
                floe__buf_free(&b);
                FLOE_TRY(rc);
                out = q ? floe__arena_sprintf(a, "strftime(%s, %s)", q, args[0]) : NULL;
            }
        } else if (!strcmp(name, "map")) {
            /* json_object(k, v, ...): JSON keys are text, so non-literal keys
             * (map(1, 'a'), a date column) are cast to text as Spark's
             * to_json shows them */
            floe_buf b = FLOE_BUF_INIT;
            int rc = floe__buf_puts(&b, "json_object(");
            for (size_t k = 0; k < n && rc == 0; k++) {
                if (k)
                    rc = floe__buf_puts(&b, ", ");
                if (rc == 0)
                    rc = k % 2 == 0 && !is_string_literal(args[k])
                             ? floe__buf_printf(&b, "CAST((%s) AS TEXT)", args[k])
                             : floe__buf_puts(&b, args[k]);
            }
            if (rc == 0)
                rc = floe__buf_putc(&b, ')');
            out = rc == 0 ? floe__arena_strdup(a, b.ptr) : NULL;
            floe__buf_free(&b);
        } else if (!strcmp(name, "sequence")) {
            /* Spark's sequence(start, stop [, step]) of integers: stop
             * included, the step 1 or -1 by default */
            if (n < 2 || n > 3)
                return floe__sql_rw_err(r, i, FLOE_EINVALID, "sequence() expects 2 or 3 arguments");
            const char *st =
                n == 3 ? args[2]
                       : floe__arena_sprintf(a, "CASE WHEN (%s) <= (%s) THEN 1 ELSE -1 END",
                                             args[0], args[1]);
            out = st ? floe__arena_sprintf(
                           a,
                           "(SELECT json_group_array(id) FROM (WITH RECURSIVE floe_seq(id) AS "
                           "(SELECT (%s) UNION ALL SELECT id + (%s) FROM floe_seq WHERE ((%s) > 0 "
                           "AND id + (%s) <= (%s)) OR ((%s) < 0 AND id + (%s) >= (%s))) SELECT id "
                           "FROM floe_seq))",
                           args[0], st, st, st, args[1], st, st, args[1])
                     : NULL;
        } else if (!strcmp(name, "array_contains")) {
            want = 2;
            if (n == 2)
                out = floe__arena_sprintf(a, "((%s) IN (SELECT value FROM json_each(%s)))", args[1],
                                          args[0]);
        }
        if (want && n != want)
            return floe__sql_rw_err(r, i, FLOE_EINVALID, "wrong number of arguments");
    }
    FLOE_TRY(floe__sql_rw_emit(r, out, 'x'));
    *pi = rp + 1;
    return 1;
}
