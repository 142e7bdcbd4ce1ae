/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The recursive-descent parser of Spark 3.5 queries and expressions (the
 * grammar of Spark's SqlBaseParser.g4 that floe accepts) into the syntax
 * tree of ast.h. Precedence follows Spark: OR < AND < NOT < predicates
 * (BETWEEN, IN, LIKE, RLIKE, ILIKE, IS) < comparisons < | < ^ < & <
 * + - || < * / % DIV < unary < postfix ([], .field). Keywords are
 * identifiers wherever Spark's non-ANSI grammar allows (a CTE named
 * `year`, a table `db.history`, an alias `partition`).
 *
 * Table references are resolved while parsing, in source order: CTE names
 * in scope, then the session's local names (temporary views, sqlite_*),
 * then Iceberg tables through floe__sql_resolve (branches, tags, metadata
 * tables) with their VERSION / TIMESTAMP AS OF clause, recorded with
 * floe__sql_add_ref. Syntax errors are Spark's ParseException text:
 * "[PARSE_SYNTAX_ERROR] Syntax error at or near 'x'.(line L, pos P)".
 */
#include "sql/ast.h"

#include "rows/rowsource.h"
#include "util/time.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct tp {
    sql_parser *p;
    size_t end;
    const char **ctes; /* CTE names in scope (innermost last) */
    size_t nctes, capctes;
    int depth;
    sql_tok eof;
} tp;

typedef struct vec {
    sql_node **v;
    size_t n, cap;
} vec;

static int parse_query(tp *q, sql_node **out);
static int parse_expr(tp *q, sql_node **out);
static int parse_cmp(tp *q, sql_node **out);
static int parse_bitor(tp *q, sql_node **out);

/* ---------------------------------------------------------------- tokens */

static sql_tok *tk(tp *q, size_t ahead)
{
    size_t k = q->p->i + ahead;
    return k < q->end ? &q->p->t[k] : &q->eof;
}

static bool op_is(const sql_tok *t, const char *op)
{
    return t->kind == TK_OP && !strcmp(t->text, op);
}

static bool isw(tp *q, size_t ahead, const char *kw)
{
    return floe__sql_is_word(tk(q, ahead), kw);
}

static bool acc(tp *q, const char *kw)
{
    if (!isw(q, 0, kw))
        return false;
    q->p->i++;
    return true;
}

static bool acc_op(tp *q, const char *op)
{
    if (!op_is(tk(q, 0), op))
        return false;
    q->p->i++;
    return true;
}

/* Spark's ParseException text for the token at the cursor. */
static int syntax(tp *q)
{
    sql_tok *t = tk(q, 0);
    if (t->kind == TK_EOF)
        return floe__sql_err_spark(q->p->script, t->pos, NULL);
    size_t n = t->end - t->pos;
    char near[64];
    if (n > sizeof near - 1)
        n = sizeof near - 1;
    memcpy(near, q->p->script + t->pos, n);
    near[n] = 0;
    return floe__sql_err_spark(q->p->script, t->pos, near);
}
#ifdef __clang_analyzer__
/* The analyzer does not follow syntax() (as floe__error in util.h): its
 * result is the raised code. */
#define syntax(q) (syntax(q), FLOE_EINVALID)
#endif

static int unsupported(tp *q, const char *what)
{
    return floe__sql_err_at(FLOE_EUNSUPPORTED, q->p->script, tk(q, 0)->pos, "unsupported: %s",
                            what);
}

static int expect(tp *q, const char *kw)
{
    return acc(q, kw) ? 0 : syntax(q);
}

static int expect_op(tp *q, const char *op)
{
    return acc_op(q, op) ? 0 : syntax(q);
}

static sql_node *node(tp *q, sql_nk k, size_t pos)
{
    sql_node *n = floe__arena_calloc(q->p->a, 1, sizeof *n);
    if (!n) {
        floe__error_nomem();
        return NULL;
    }
    n->k = k;
    n->pos = pos;
    n->end = pos;
    n->i1 = n->i2 = -1;
    return n;
}

#define NODE(var, q, kind, pos)                                                                    \
    sql_node *var = node(q, kind, pos);                                                            \
    if (!(var))                                                                                    \
    return FLOE_ENOMEM

/* The end of the last token consumed. */
static size_t last_end(tp *q)
{
    return q->p->i ? q->p->t[q->p->i - 1].end : 0;
}

static int push(tp *q, vec *v, sql_node *n)
{
    if (!(v->v = floe__sql_grow(q->p->a, v->v, v->n, &v->cap, sizeof(sql_node *))))
        return FLOE_ENOMEM;
    v->v[v->n++] = n;
    return 0;
}

static bool is_name_tok(const sql_tok *t)
{
    return t->kind == TK_WORD || t->kind == TK_QIDENT;
}

static int enter(tp *q)
{
    if (++q->depth > SQL_MAX_DEPTH)
        return floe__sql_err_at(FLOE_EINVALID, q->p->script, tk(q, 0)->pos,
                                "query nested too deeply");
    return 0;
}

static bool word_in(const sql_tok *t, const char *const *list)
{
    for (int k = 0; list[k]; k++)
        if (floe__sql_is_word(t, list[k]))
            return true;
    return false;
}

static bool prefix_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != *prefix)
            return false;
    return true;
}

/* Words that end a select item or relation: never an implicit alias. */
static const char *const not_alias[] = {
    "FROM",    "WHERE",      "GROUP",   "HAVING",  "ORDER",     "LIMIT", "OFFSET",  "WINDOW",
    "UNION",   "INTERSECT",  "EXCEPT",  "MINUS",   "JOIN",      "INNER", "LEFT",    "RIGHT",
    "FULL",    "OUTER",      "CROSS",   "NATURAL", "ON",        "USING", "SELECT",  "VALUES",
    "SET",     "WHEN",       "THEN",    "ELSE",    "END",       "AND",   "OR",      "NOT",
    "LATERAL", "PIVOT",      "UNPIVOT", "TABLESAMPLE", "SEMI",  "ANTI",  "CLUSTER", "DISTRIBUTE",
    "SORT",    "QUALIFY",    "AS",      "FOR",     "VERSION",   "SYSTEM_VERSION", "SYSTEM_TIME",
    "INTO",    "RETURNING",  "IS",      "IN",      "LIKE",      "ILIKE", "RLIKE",   "REGEXP",
    "BETWEEN", "DIV",        "WITH",    "ASC",     "DESC",      "NULLS", NULL};

/* Words that cannot be a column name where an expression starts. */
static const char *const not_column[] = {
    "SELECT", "FROM",  "WHERE", "GROUP", "HAVING", "ORDER",     "LIMIT", "UNION", "INTERSECT",
    "EXCEPT", "MINUS", "JOIN",  "ON",    "WHEN",   "THEN",      "ELSE",  "END",   "AND",
    "OR",     "AS",    "BY",    "IS",    "IN",     "BETWEEN",   "LIKE",  "ILIKE", "RLIKE",
    "DIV",    "WITH",  "VALUES", "INTERVAL", NULL};

/* Is the cursor at the start of a query (after any number of '(')? */
static bool at_query(tp *q)
{
    size_t k = 0;
    while (op_is(tk(q, k), "("))
        k++;
    sql_tok *t = tk(q, k);
    return floe__sql_is_word(t, "SELECT") || floe__sql_is_word(t, "WITH") ||
           floe__sql_is_word(t, "VALUES") ||
           (floe__sql_is_word(t, "TABLE") && is_name_tok(tk(q, k + 1)));
}

/* ---------------------------------------------------------------- intervals */

/* The units of Spark's multi-unit interval literal (the grammar's
 * unitInMultiUnits, singular or plural): months or microseconds each, and
 * whether the unit is a day-time field finer than DAY. */
static const struct {
    const char *unit;
    int64_t months, us;
    bool sub_day;
} iv_units[] = {{"YEAR", 12, 0, false},
                {"MONTH", 1, 0, false},
                {"WEEK", 0, 604800000000LL, false},
                {"DAY", 0, 86400000000LL, false},
                {"HOUR", 0, 3600000000LL, true},
                {"MINUTE", 0, 60000000LL, true},
                {"SECOND", 0, 1000000LL, true},
                {"MILLISECOND", 0, 1000LL, true},
                {"MICROSECOND", 0, 1LL, true}};

/* The iv_units index of an interval unit word, -1 if none. */
static int iv_unit(const sql_tok *u)
{
    if (u->kind != TK_WORD)
        return -1;
    for (size_t k = 0; k < FLOE_ARRAY_LEN(iv_units); k++) {
        size_t l = strlen(iv_units[k].unit);
        if (strncasecmp(u->text, iv_units[k].unit, l) == 0 &&
            (u->text[l] == 0 || ((u->text[l] == 's' || u->text[l] == 'S') && !u->text[l + 1])))
            return (int)k;
    }
    return -1;
}

/* Tokens of an interval value at ahead ([+|-] number or string), 0 if none. */
static size_t iv_value_len(tp *q, size_t ahead)
{
    size_t k = op_is(tk(q, ahead), "-") || op_is(tk(q, ahead), "+") ? 1 : 0;
    sql_tok *v = tk(q, ahead + k);
    return v->kind == TK_NUMBER || v->kind == TK_STRING ? k + 1 : 0;
}

/* `count` units of `per` (months or microseconds) from the value text:
 * [+|-]digits[.digits] (a fraction for microsecond units only). */
static bool iv_amount(const char *text, bool neg, int64_t per, bool fraction_ok, int64_t *out)
{
    while (*text == ' ')
        text++;
    if (*text == '-' || *text == '+')
        neg ^= *text++ == '-';
    int64_t whole = 0, frac = 0, scale = 1;
    const char *c = text;
    for (; *c >= '0' && *c <= '9'; c++) {
        if (whole > (INT64_MAX - 9) / 10)
            return false;
        whole = whole * 10 + (*c - '0');
    }
    if (c == text && *c != '.')
        return false;
    if (*c == '.') {
        if (!fraction_ok)
            return false;
        for (c++; *c >= '0' && *c <= '9'; c++)
            if (scale < 1000000) {
                frac = frac * 10 + (*c - '0');
                scale *= 10;
            }
    }
    while (*c == ' ')
        c++;
    if (*c || whole > INT64_MAX / per)
        return false;
    int64_t v = whole * per + frac * per / scale;
    *out = neg ? -v : v;
    return true;
}

/* INTERVAL value unit [value unit ...] at the cursor (Spark's
 * multiUnitsInterval): SN_INTERVAL with i1 months and i2 microseconds, f
 * SNF_IV_YM for a year-month interval, SNF_IV_SUBDAY for a day-time one
 * with a field finer than DAY. Year-month and day-time fields cannot mix. */
static int parse_interval(tp *q, sql_node **out)
{
    sql_tok *t = tk(q, 0);
    NODE(n, q, SN_INTERVAL, t->pos);
    n->i1 = n->i2 = 0;
    q->p->i++;
    bool ym = false, dt = false;
    for (size_t len; (len = iv_value_len(q, 0)) && iv_unit(tk(q, len)) >= 0;) {
        if (isw(q, len + 1, "TO"))
            return unsupported(q,
                               "INTERVAL '...' unit TO unit (write INTERVAL n unit [n unit ...])");
        bool neg = len == 2 && op_is(tk(q, 0), "-");
        sql_tok *v = tk(q, len - 1);
        int u = iv_unit(tk(q, len));
        int64_t per = iv_units[u].months ? iv_units[u].months : iv_units[u].us;
        int64_t amount;
        if ((v->kind == TK_NUMBER && v->suffix) ||
            !iv_amount(v->text, neg, per, !iv_units[u].months, &amount))
            return floe__sql_err_at(FLOE_EINVALID, q->p->script, v->pos,
                                    "invalid interval value '%s'", v->text);
        int64_t *sum = iv_units[u].months ? &n->i1 : &n->i2;
        if (__builtin_add_overflow(*sum, amount, sum))
            return floe__sql_err_at(FLOE_EINVALID, q->p->script, v->pos, "interval out of range");
        ym |= iv_units[u].months != 0;
        dt |= !iv_units[u].months;
        if (iv_units[u].sub_day)
            n->f |= SNF_IV_SUBDAY;
        q->p->i += len + 1;
    }
    n->end = last_end(q);
    if (!ym && !dt) {
        size_t len = iv_value_len(q, 0);
        if (tk(q, 0)->kind == TK_STRING)
            return unsupported(q, "INTERVAL '...' with a string of units (write INTERVAL n unit "
                                  "[n unit ...])");
        q->p->i += len; /* at the unit Spark does not know */
        return syntax(q);
    }
    if (ym && dt)
        return floe__sql_err_at(FLOE_EINVALID, q->p->script, t->pos,
                                "Cannot mix year-month and day-time fields: %.*s.",
                                (int)(n->end - n->pos), q->p->script + n->pos);
    if (ym)
        n->f |= SNF_IV_YM;
    *out = n;
    return 0;
}

/* ---------------------------------------------------------------- time travel */

static int travel_err(tp *q, int code, const char *msg)
{
    return floe__sql_err_at(code, q->p->script, tk(q, 0)->pos, "%s", msg);
}

/* What a TIMESTAMP AS OF expression holds, outside its subqueries. */
static void travel_scan(const sql_node *n, bool *column, bool *nondet)
{
    static const char *const nondet_fns[] = {"rand", "randn", "random", "uuid", "shuffle"};
    if (!n)
        return;
    if (n->k == SN_COL)
        *column = true;
    if (n->k == SN_FUNC)
        for (size_t k = 0; k < FLOE_ARRAY_LEN(nondet_fns); k++)
            *nondet |= floe__sql_ieq(n->s, nondet_fns[k]);
    if (n->k == SN_SUBQ || n->k == SN_EXISTS)
        return;
    travel_scan(n->a, column, nondet);
    if (n->k != SN_IN)
        travel_scan(n->b, column, nondet);
    travel_scan(n->c, column, nondet);
    for (size_t k = 0; k < n->nv; k++)
        travel_scan(n->v[k], column, nondet);
}

/* A boolean expression: Spark cannot cast it to a timestamp. */
static bool travel_bool(const sql_node *n)
{
    while (n->k == SN_PAREN)
        n = n->a;
    switch (n->k) {
    case SN_LIT:
        return n->tok->kind == TK_WORD &&
               (floe__sql_ieq(n->tok->text, "TRUE") || floe__sql_ieq(n->tok->text, "FALSE"));
    case SN_LIKE:
    case SN_IN:
    case SN_BETWEEN:
    case SN_IS:
    case SN_EXISTS: return true;
    case SN_UN: return !strcmp(n->s, "NOT");
    case SN_BIN:
        return prefix_ci(n->s, "=") || prefix_ci(n->s, "<") || prefix_ci(n->s, ">") ||
               prefix_ci(n->s, "!") || !strcmp(n->s, "AND") || !strcmp(n->s, "OR");
    default: return false;
    }
}

/* TIMESTAMP AS OF <expression>: a timestamp literal or a string that
 * reads as one is the instant now; anything else is printed as SQLite
 * and evaluated when the statement runs (exec_refs.c), as Spark does at
 * analysis. Columns are refused here, as Spark's parser does. */
static int travel_timestamp(tp *q, floe_sql_travel *tt)
{
    size_t from = tk(q, 0)->pos;
    sql_node *e = NULL;
    FLOE_TRY(parse_expr(q, &e));
    tt->kind = FLOE_SQLTT_TIMESTAMP;
    if (e->k == SN_TIMELIT && !(e->f & SNF_DATE)) {
        tt->timestamp = e->s; /* the session zone's wall clock (parse_timelit) */
        return 0;
    }
    if (e->k == SN_LIT && e->tok->kind == TK_STRING) {
        int rc =
            floe__sql_norm_timestamp(q->p->a, e->tok->text, &tt->timestamp, &tt->timestamp_utc);
        if (rc == 0 || rc == FLOE_ENOMEM)
            return rc;
        floe_error_clear(); /* not a timestamp: Spark's INPUT error when it runs */
        tt->timestamp = NULL;
    }
    bool column = false, nondet = false;
    travel_scan(e, &column, &nondet);
    if (column)
        return floe__sql_err_at(
            FLOE_EINVALID, q->p->script, from,
            "Invalid time travel spec: timestamp expression cannot refer to any columns.");
    tt->expr_nondeterministic = nondet;
    tt->expr_bad_type = travel_bool(e) || (e->k == SN_LIT && e->tok->kind == TK_BLOB);
    tt->expr_text = e->k == SN_LIT && e->tok->kind == TK_STRING
                        ? e->tok->text /* Spark shows a string literal unquoted */
                        : floe__arena_strndup(q->p->a, q->p->script + e->pos, e->end - e->pos);
    if (!tt->expr_text)
        return floe__error_nomem();
    char *sql = NULL;
    FLOE_TRY(floe__sql_print_tree(q->p, e, &sql));
    tt->expr_sql = sql;
    return 0;
}

/* [FOR] VERSION|SYSTEM_VERSION|TIMESTAMP|SYSTEM_TIME AS OF <value>. */
static int parse_travel(tp *q, floe_sql_travel *tt)
{
    size_t save = q->p->i;
    bool has_for = acc(q, "FOR");
    bool ver = isw(q, 0, "VERSION") || isw(q, 0, "SYSTEM_VERSION");
    bool ts = isw(q, 0, "TIMESTAMP") || isw(q, 0, "SYSTEM_TIME");
    if (!((ver || ts) && isw(q, 1, "AS") && isw(q, 2, "OF"))) {
        if (has_for)
            return syntax(q);
        q->p->i = save;
        return 0;
    }
    q->p->i += 3;
    if (ts)
        return travel_timestamp(q, tt);
    sql_tok *v = tk(q, 0);
    if ((v->kind == TK_NUMBER || v->kind == TK_STRING) && floe__sql_all_digits(v->text)) {
        char *end;
        errno = 0;
        unsigned long long id = strtoull(v->text, &end, 10);
        if (errno || id > INT64_MAX)
            return travel_err(q, FLOE_EINVALID, "snapshot id out of range");
        tt->kind = FLOE_SQLTT_SNAPSHOT;
        tt->snapshot_id = (int64_t)id;
    } else if (v->kind == TK_STRING) {
        tt->kind = FLOE_SQLTT_REF;
        tt->ref = v->text;
    } else {
        return travel_err(q, FLOE_EINVALID,
                          "VERSION AS OF expects a snapshot id or a quoted branch or tag name");
    }
    q->p->i++;
    return 0;
}

/* ---------------------------------------------------------------- expressions */

static int parse_list(tp *q, vec *v)
{
    do {
        sql_node *e = NULL;
        FLOE_TRY(parse_expr(q, &e));
        FLOE_TRY(push(q, v, e));
    } while (acc_op(q, ","));
    return 0;
}

/* Names of a lambda's parameters: `x ->` or `(x, y, ...) ->` at the cursor
 * (Spark's grammar: one bare name, or two or more in parentheses). 0 when
 * the cursor is not at a lambda. */
static size_t lambda_params(tp *q)
{
    if (is_name_tok(tk(q, 0)) && op_is(tk(q, 1), "->"))
        return 1;
    if (!op_is(tk(q, 0), "("))
        return 0;
    size_t k = 1, n = 0;
    for (;;) {
        if (!is_name_tok(tk(q, k)))
            return 0;
        n++;
        k++;
        if (op_is(tk(q, k), ")"))
            break;
        if (!op_is(tk(q, k), ","))
            return 0;
        k++;
    }
    return n >= 2 && op_is(tk(q, k + 1), "->") ? n : 0;
}

/* x -> body, (x, y) -> body. */
static int parse_lambda(tp *q, size_t np, sql_node **out)
{
    NODE(l, q, SN_LAMBDA, tk(q, 0)->pos);
    const char **names = floe__arena_calloc(q->p->a, np, sizeof *names);
    bool *quoted = floe__arena_calloc(q->p->a, np, sizeof *quoted);
    if (!names || !quoted)
        return floe__error_nomem();
    if (np > 1)
        q->p->i++; /* ( */
    for (size_t k = 0; k < np; k++) {
        names[k] = tk(q, 0)->text;
        quoted[k] = tk(q, 0)->kind == TK_QIDENT;
        for (size_t j = 0; j < k; j++)
            if (floe__sql_ieq(names[j], names[k]))
                return floe__sql_err_at(FLOE_EINVALID, q->p->script, tk(q, 0)->pos,
                                        "[INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES] "
                                        "Invalid lambda function call. The lambda function has "
                                        "duplicate arguments `%s`.",
                                        names[k]),
                       floe__error_set_kind(FLOE_KIND_ANALYSIS); /* Spark's analyzer's */
        q->p->i += np > 1 ? 2 : 1;                               /* the name and its ',' or ')' */
    }
    q->p->i++; /* -> */
    l->names = names;
    l->qnames = quoted;
    l->nnames = np;
    FLOE_TRY(parse_expr(q, &l->a));
    l->end = last_end(q);
    *out = l;
    return 0;
}

/* Call arguments: expressions or lambdas. */
static int parse_args(tp *q, vec *v)
{
    do {
        sql_node *e = NULL;
        size_t np = lambda_params(q);
        FLOE_TRY(np ? parse_lambda(q, np, &e) : parse_expr(q, &e));
        FLOE_TRY(push(q, v, e));
    } while (acc_op(q, ","));
    return 0;
}

static int parse_sort(tp *q, sql_node **out)
{
    NODE(s, q, SN_SORT, tk(q, 0)->pos);
    FLOE_TRY(parse_expr(q, &s->a));
    if (acc(q, "DESC"))
        s->f |= SNF_DESC;
    else
        acc(q, "ASC");
    if (acc(q, "NULLS")) {
        if (acc(q, "FIRST"))
            s->f |= SNF_NULLS_FIRST;
        else if (acc(q, "LAST"))
            s->f |= SNF_NULLS_LAST;
        else
            return syntax(q);
    }
    s->end = last_end(q);
    *out = s;
    return 0;
}

static int parse_sorts(tp *q, vec *v)
{
    do {
        sql_node *s = NULL;
        FLOE_TRY(parse_sort(q, &s));
        FLOE_TRY(push(q, v, s));
    } while (acc_op(q, ","));
    return 0;
}

/* A frame bound: UNBOUNDED PRECEDING|FOLLOWING, CURRENT ROW, n PRECEDING|FOLLOWING. */
static int frame_bound(tp *q, floe_buf *b)
{
    if (acc(q, "UNBOUNDED")) {
        FLOE_TRY(floe__buf_puts(b, "UNBOUNDED"));
    } else if (acc(q, "CURRENT")) {
        FLOE_TRY(expect(q, "ROW"));
        return floe__buf_puts(b, "CURRENT ROW");
    } else if (tk(q, 0)->kind == TK_NUMBER && floe__sql_all_digits(tk(q, 0)->text)) {
        FLOE_TRY(floe__buf_puts(b, tk(q, 0)->text));
        q->p->i++;
    } else {
        return syntax(q);
    }
    if (acc(q, "PRECEDING"))
        return floe__buf_puts(b, " PRECEDING");
    if (acc(q, "FOLLOWING"))
        return floe__buf_puts(b, " FOLLOWING");
    return syntax(q);
}

static int parse_frame(tp *q, sql_node *w)
{
    bool rows = isw(q, 0, "ROWS");
    if (!rows && !isw(q, 0, "RANGE"))
        return 0;
    q->p->i++;
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, rows ? "ROWS " : "RANGE ");
    if (rc == 0 && acc(q, "BETWEEN")) {
        rc = floe__buf_puts(&b, "BETWEEN ");
        if (rc == 0)
            rc = frame_bound(q, &b);
        if (rc == 0)
            rc = acc(q, "AND") ? floe__buf_puts(&b, " AND ") : syntax(q);
        if (rc == 0)
            rc = frame_bound(q, &b);
    } else if (rc == 0) {
        rc = frame_bound(q, &b);
    }
    if (rc == 0 && !(w->frame = floe__arena_strdup(q->p->a, b.ptr)))
        rc = floe__error_nomem();
    floe__buf_free(&b);
    return rc;
}

/* ( [name] [PARTITION BY ...] [ORDER BY ...] [frame] ) or a window name. */
static int parse_winspec(tp *q, sql_node **out)
{
    NODE(w, q, SN_WINSPEC, tk(q, 0)->pos);
    if (is_name_tok(tk(q, 0)) && !op_is(tk(q, 0), "(")) {
        w->s = tk(q, 0)->text;
        q->p->i++;
        *out = w;
        return 0;
    }
    FLOE_TRY(expect_op(q, "("));
    if (is_name_tok(tk(q, 0)) && !isw(q, 0, "PARTITION") && !isw(q, 0, "DISTRIBUTE") &&
        !isw(q, 0, "ORDER") && !isw(q, 0, "SORT") && !isw(q, 0, "ROWS") && !isw(q, 0, "RANGE")) {
        w->s = tk(q, 0)->text;
        q->p->i++;
    }
    if ((isw(q, 0, "PARTITION") || isw(q, 0, "DISTRIBUTE")) && isw(q, 1, "BY")) {
        q->p->i += 2;
        vec v = {0};
        FLOE_TRY(parse_list(q, &v));
        w->v = v.v;
        w->nv = v.n;
    }
    if ((isw(q, 0, "ORDER") || isw(q, 0, "SORT")) && isw(q, 1, "BY")) {
        q->p->i += 2;
        vec v = {0};
        FLOE_TRY(parse_sorts(q, &v));
        w->w = v.v;
        w->nw = v.n;
    }
    FLOE_TRY(parse_frame(q, w));
    FLOE_TRY(expect_op(q, ")"));
    w->end = last_end(q);
    *out = w;
    return 0;
}

static char *lower_dup(floe_arena *a, const char *s)
{
    char *l = floe__arena_strdup(a, s);
    if (!l) {
        floe__error_nomem();
        return NULL;
    }
    for (char *c = l; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return l;
}

/* CAST(x AS type) / TRY_CAST: the type is a word with optional (p [, s])
 * or a nested ARRAY<..> / MAP<..> / STRUCT<..> (kept as a flag). */
static int parse_cast(tp *q, sql_node **out)
{
    NODE(c, q, SN_CAST, tk(q, 0)->pos);
    if (isw(q, 0, "TRY_CAST"))
        c->f |= SNF_TRY;
    q->p->i += 2;
    FLOE_TRY(parse_expr(q, &c->a));
    FLOE_TRY(expect(q, "AS"));
    sql_tok *ty = tk(q, 0);
    if (ty->kind != TK_WORD)
        return syntax(q);
    c->tok = ty;
    if (!(c->s = lower_dup(q->p->a, ty->text)))
        return FLOE_ENOMEM;
    q->p->i++;
    if (!strcmp(c->s, "array") || !strcmp(c->s, "map") || !strcmp(c->s, "struct")) {
        c->f |= SNF_NESTED;
        int depth = 0;
        do {
            if (op_is(tk(q, 0), "<"))
                depth++;
            else if (op_is(tk(q, 0), ">"))
                depth--;
            else if (op_is(tk(q, 0), ">>"))
                depth -= 2;
            else if (tk(q, 0)->kind == TK_EOF)
                return syntax(q);
            q->p->i++;
        } while (depth > 0);
    } else if (acc_op(q, "(")) {
        for (int k = 0; k < 2; k++) {
            sql_tok *n = tk(q, 0);
            if (n->kind != TK_NUMBER || !floe__sql_all_digits(n->text) || n->len > 3)
                return syntax(q);
            if (k == 0)
                c->i1 = atoi(n->text);
            else
                c->i2 = atoi(n->text);
            q->p->i++;
            if (!acc_op(q, ","))
                break;
        }
        FLOE_TRY(expect_op(q, ")"));
    }
    FLOE_TRY(expect_op(q, ")"));
    c->end = last_end(q);
    *out = c;
    return 0;
}

static int parse_case(tp *q, sql_node **out)
{
    NODE(c, q, SN_CASE, tk(q, 0)->pos);
    q->p->i++;
    if (!isw(q, 0, "WHEN"))
        FLOE_TRY(parse_expr(q, &c->a));
    vec v = {0};
    while (acc(q, "WHEN")) {
        sql_node *w, *t;
        FLOE_TRY(parse_expr(q, &w));
        FLOE_TRY(expect(q, "THEN"));
        FLOE_TRY(parse_expr(q, &t));
        FLOE_TRY(push(q, &v, w));
        FLOE_TRY(push(q, &v, t));
    }
    if (!v.n)
        return syntax(q);
    if (acc(q, "ELSE"))
        FLOE_TRY(parse_expr(q, &c->b));
    FLOE_TRY(expect(q, "END"));
    c->v = v.v;
    c->nv = v.n;
    c->end = last_end(q);
    *out = c;
    return 0;
}

/* Spark's keyword-argument forms, after the '(': TRIM([BOTH|LEADING|
 * TRAILING] [chars] FROM s) -> trim/ltrim/rtrim(s [, chars]),
 * POSITION(sub IN s) -> instr(s, sub), SUBSTRING(s FROM a [FOR n]) ->
 * substr(s, a [, n]). 0 when parsed (through the ')'), 1 when the call
 * is an ordinary one (cursor unchanged). */
static int special_form(tp *q, sql_node *f)
{
    size_t save = q->p->i;
    vec v = {0};
    sql_node *x = NULL, *y = NULL, *z = NULL;
    if (floe__sql_ieq(f->s, "TRIM")) {
        const char *fn = "trim";
        if (acc(q, "BOTH"))
            fn = "trim";
        else if (acc(q, "LEADING"))
            fn = "ltrim";
        else if (acc(q, "TRAILING"))
            fn = "rtrim";
        bool kw = q->p->i != save;
        if (!acc(q, "FROM")) {
            FLOE_TRY(parse_expr(q, &y));
            if (!acc(q, "FROM")) {
                if (kw)
                    return syntax(q);
                q->p->i = save;
                return 1;
            }
        }
        FLOE_TRY(parse_expr(q, &x));
        f->s = fn;
    } else if (floe__sql_ieq(f->s, "POSITION")) {
        FLOE_TRY(parse_bitor(q, &y));
        if (!acc(q, "IN")) {
            q->p->i = save;
            return 1;
        }
        FLOE_TRY(parse_expr(q, &x));
        f->s = "instr";
    } else {
        FLOE_TRY(parse_expr(q, &x));
        if (!acc(q, "FROM")) {
            q->p->i = save;
            return 1;
        }
        FLOE_TRY(parse_expr(q, &y));
        if (acc(q, "FOR"))
            FLOE_TRY(parse_expr(q, &z));
        f->s = "substr";
    }
    FLOE_TRY(push(q, &v, x));
    if (y)
        FLOE_TRY(push(q, &v, y));
    if (z)
        FLOE_TRY(push(q, &v, z));
    f->v = v.v;
    f->nv = v.n;
    FLOE_TRY(expect_op(q, ")"));
    f->end = last_end(q);
    return 0;
}

/* name ( [DISTINCT|ALL] * | args ) [FILTER (WHERE e)] [OVER spec]. */
static int parse_call(tp *q, sql_node **out)
{
    sql_tok *name = tk(q, 0);
    NODE(f, q, SN_FUNC, name->pos);
    f->s = name->text;
    q->p->i += 2;
    if (floe__sql_ieq(name->text, "EXTRACT") && is_name_tok(tk(q, 0)) && isw(q, 1, "FROM")) {
        /* EXTRACT(field FROM x): the function of that name */
        f->s = tk(q, 0)->text;
        q->p->i += 2;
        sql_node *x = NULL;
        FLOE_TRY(parse_expr(q, &x));
        vec v = {0};
        FLOE_TRY(push(q, &v, x));
        f->v = v.v;
        f->nv = v.n;
        FLOE_TRY(expect_op(q, ")"));
        f->end = last_end(q);
        *out = f;
        return 0;
    }
    if (floe__sql_ieq(name->text, "TRIM") || floe__sql_ieq(name->text, "POSITION") ||
        floe__sql_ieq(name->text, "SUBSTRING") || floe__sql_ieq(name->text, "SUBSTR")) {
        int rc = special_form(q, f);
        if (rc <= 0)
            return rc < 0 ? rc : (*out = f, 0);
    }
    if (acc(q, "DISTINCT"))
        f->f |= SNF_DISTINCT;
    else
        acc(q, "ALL");
    if (op_is(tk(q, 0), "*") && op_is(tk(q, 1), ")")) {
        f->f |= SNF_STARARG;
        q->p->i++;
    } else if (!op_is(tk(q, 0), ")")) {
        vec v = {0};
        FLOE_TRY(parse_args(q, &v));
        f->v = v.v;
        f->nv = v.n;
    }
    FLOE_TRY(expect_op(q, ")"));
    if ((isw(q, 0, "IGNORE") || isw(q, 0, "RESPECT")) && isw(q, 1, "NULLS"))
        return unsupported(q, "IGNORE NULLS / RESPECT NULLS");
    if (isw(q, 0, "FILTER") && op_is(tk(q, 1), "(")) {
        q->p->i += 2;
        FLOE_TRY(expect(q, "WHERE"));
        FLOE_TRY(parse_expr(q, &f->b));
        FLOE_TRY(expect_op(q, ")"));
    }
    if (acc(q, "OVER"))
        FLOE_TRY(parse_winspec(q, &f->a));
    f->end = last_end(q);
    *out = f;
    return 0;
}

/* A dotted column reference a.b.c (the parts as written). */
static int parse_column(tp *q, sql_node **out)
{
    NODE(c, q, SN_COL, tk(q, 0)->pos);
    const char **names = NULL;
    bool *quoted = NULL;
    size_t n = 0, cap = 0, capq = 0;
    for (;;) {
        sql_tok *t = tk(q, 0);
        if (!(names = floe__sql_grow(q->p->a, names, n, &cap, sizeof *names)) ||
            !(quoted = floe__sql_grow(q->p->a, quoted, n, &capq, sizeof *quoted)))
            return FLOE_ENOMEM;
        names[n] = t->text;
        quoted[n] = t->kind == TK_QIDENT;
        n++;
        q->p->i++;
        if (n > 64)
            return floe__sql_err_at(FLOE_EINVALID, q->p->script, t->pos,
                                    "identifier has too many parts");
        if (!(op_is(tk(q, 0), ".") && is_name_tok(tk(q, 1)) && !op_is(tk(q, 2), "(")))
            break;
        q->p->i++;
    }
    c->names = names;
    c->qnames = quoted;
    c->nnames = n;
    c->end = last_end(q);
    *out = c;
    return 0;
}

static int parse_timelit(tp *q, sql_node **out)
{
    sql_tok *t = tk(q, 0), *v = tk(q, 1);
    NODE(n, q, SN_TIMELIT, t->pos);
    bool date = floe__sql_is_word(t, "DATE");
    bool utc = false;
    int rc = date ? floe__sql_norm_date(q->p->a, v->text, &n->s)
                  : floe__sql_norm_timestamp(q->p->a, v->text, &n->s, &utc);
    if (rc < 0)
        return rc == FLOE_ENOMEM ? rc
                                 : floe__sql_err_at(FLOE_EINVALID, q->p->script, t->pos,
                                                    date ? "invalid DATE literal"
                                                         : "invalid TIMESTAMP literal");
    if (!date && utc && q->p->opt->time_zone) {
        /* the instant as the session zone's wall clock (as timestamptz cells read) */
        int64_t us;
        floe_buf b = FLOE_BUF_INIT;
        rc = floe__time_parse_us(n->s, NULL, &us);
        if (rc == 0)
            rc = floe__rs_format_timestamp_us(us, q->p->opt->time_zone, &b);
        n->s = rc == 0 ? floe__arena_strdup(q->p->a, b.ptr) : NULL;
        floe__buf_free(&b);
        if (rc < 0 && rc != FLOE_ENOMEM)
            return floe__sql_err_at(FLOE_EINVALID, q->p->script, t->pos,
                                    "invalid TIMESTAMP literal");
        if (!n->s)
            return floe__error_nomem();
    }
    if (date)
        n->f |= SNF_DATE;
    q->p->i += 2;
    n->end = last_end(q);
    *out = n;
    return 0;
}

/* '(' at the cursor: a subquery, a parenthesised expression or a tuple. */
static int parse_paren(tp *q, sql_node **out)
{
    size_t pos = tk(q, 0)->pos;
    if (at_query(q)) {
        size_t save = q->p->i, nrefs = q->p->nrefs;
        q->p->i++;
        sql_node *sub = NULL;
        int rc = parse_query(q, &sub);
        if (rc == 0 && acc_op(q, ")")) {
            NODE(s, q, SN_SUBQ, pos);
            s->a = sub;
            s->end = last_end(q);
            *out = s;
            return 0;
        }
        if (rc == FLOE_ENOMEM)
            return rc;
        q->p->i = save;
        q->p->nrefs = nrefs;
    }
    q->p->i++;
    sql_node *e = NULL;
    FLOE_TRY(parse_expr(q, &e));
    if (acc_op(q, ",")) {
        NODE(r, q, SN_ROW, pos);
        vec v = {0};
        FLOE_TRY(push(q, &v, e));
        FLOE_TRY(parse_list(q, &v));
        FLOE_TRY(expect_op(q, ")"));
        r->v = v.v;
        r->nv = v.n;
        r->end = last_end(q);
        *out = r;
        return 0;
    }
    FLOE_TRY(expect_op(q, ")"));
    NODE(n, q, SN_PAREN, pos);
    n->a = e;
    n->end = last_end(q);
    *out = n;
    return 0;
}

static int parse_primary(tp *q, sql_node **out)
{
    sql_tok *t = tk(q, 0), *next = tk(q, 1);
    switch (t->kind) {
    case TK_EOF: return syntax(q);
    case TK_NUMBER:
    case TK_BLOB: {
        NODE(n, q, SN_LIT, t->pos);
        n->tok = t;
        if (t->kind == TK_NUMBER && t->suffix == 'B')
            n->f |= SNF_DECIMAL_BD;
        q->p->i++;
        n->end = t->end;
        *out = n;
        return 0;
    }
    case TK_STRING: {
        NODE(n, q, SN_LIT, t->pos);
        n->tok = t;
        q->p->i++;
        if (tk(q, 0)->kind == TK_STRING) {
            /* adjacent literals are one ('it''s', 'a' 'b': Spark's stringLit+) */
            floe_buf b = FLOE_BUF_INIT;
            int rc = floe__buf_puts(&b, t->text);
            while (rc == 0 && tk(q, 0)->kind == TK_STRING) {
                rc = floe__buf_puts(&b, tk(q, 0)->text);
                q->p->i++;
            }
            sql_tok *c = floe__arena_calloc(q->p->a, 1, sizeof *c);
            if (rc == 0 && c) {
                *c = *t;
                c->text = floe__arena_strdup(q->p->a, b.ptr ? b.ptr : "");
            }
            floe__buf_free(&b);
            if (rc < 0 || !c || !c->text)
                return floe__error_nomem();
            n->tok = c;
        }
        n->end = last_end(q);
        *out = n;
        return 0;
    }
    case TK_OP:
        if (op_is(t, "("))
            return parse_paren(q, out);
        if (op_is(t, "?") || op_is(t, ":") || op_is(t, "{") || op_is(t, "}") || op_is(t, "=>"))
            return unsupported(q, "operator");
        return syntax(q);
    case TK_QIDENT:
        if (op_is(next, "("))
            return parse_call(q, out);
        return parse_column(q, out);
    case TK_WORD: break;
    }
    if (floe__sql_is_word(t, "NULL") || floe__sql_is_word(t, "TRUE") ||
        floe__sql_is_word(t, "FALSE")) {
        NODE(n, q, SN_LIT, t->pos);
        n->tok = t;
        n->end = t->end;
        q->p->i++;
        *out = n;
        return 0;
    }
    if (floe__sql_is_word(t, "CASE"))
        return parse_case(q, out);
    if ((floe__sql_is_word(t, "CAST") || floe__sql_is_word(t, "TRY_CAST")) && op_is(next, "("))
        return parse_cast(q, out);
    bool exists_query = false;
    if (floe__sql_is_word(t, "EXISTS") && op_is(next, "(")) {
        q->p->i++;
        exists_query = at_query(q); /* else the higher-order function exists(arr, x -> p) */
        q->p->i--;
    }
    if (exists_query) {
        NODE(n, q, SN_EXISTS, t->pos);
        q->p->i += 2;
        FLOE_TRY(parse_query(q, &n->a));
        FLOE_TRY(expect_op(q, ")"));
        n->end = last_end(q);
        *out = n;
        return 0;
    }
    if ((floe__sql_is_word(t, "DATE") || floe__sql_is_word(t, "TIMESTAMP") ||
         floe__sql_is_word(t, "TIMESTAMP_NTZ") || floe__sql_is_word(t, "TIMESTAMP_LTZ")) &&
        next->kind == TK_STRING)
        return parse_timelit(q, out);
    if (floe__sql_is_word(t, "INTERVAL"))
        return parse_interval(q, out);
    if ((floe__sql_is_word(t, "CURRENT_TIMESTAMP") || floe__sql_is_word(t, "CURRENT_DATE")) &&
        !op_is(next, "(")) {
        NODE(f, q, SN_FUNC, t->pos); /* Spark's niladic forms */
        f->s = t->text;
        q->p->i++;
        f->end = t->end;
        *out = f;
        return 0;
    }
    if (op_is(next, "("))
        return parse_call(q, out);
    if (word_in(t, not_column))
        return syntax(q);
    return parse_column(q, out);
}

static int parse_postfix(tp *q, sql_node **out)
{
    sql_node *e = NULL;
    FLOE_TRY(parse_primary(q, &e));
    for (;;) {
        size_t pos = e->pos;
        if (acc_op(q, "[")) {
            NODE(s, q, SN_SUBSCRIPT, pos);
            s->a = e;
            FLOE_TRY(parse_expr(q, &s->b));
            FLOE_TRY(expect_op(q, "]"));
            s->end = last_end(q);
            e = s;
        } else if (op_is(tk(q, 0), ".") && is_name_tok(tk(q, 1))) {
            NODE(s, q, SN_FIELD, pos);
            s->a = e;
            s->s = tk(q, 1)->text;
            q->p->i += 2;
            s->end = last_end(q);
            e = s;
        } else if (op_is(tk(q, 0), "::")) {
            return unsupported(q, "'::' casts (use CAST(x AS t))");
        } else {
            break;
        }
    }
    *out = e;
    return 0;
}

static int parse_unary(tp *q, sql_node **out)
{
    sql_tok *t = tk(q, 0);
    if (op_is(t, "-") || op_is(t, "+") || op_is(t, "~")) {
        FLOE_TRY(enter(q));
        q->p->i++;
        sql_node *a = NULL;
        FLOE_TRY(parse_unary(q, &a));
        q->depth--;
        if (op_is(t, "-") && a->k == SN_LIT && a->tok->kind == TK_NUMBER && !(a->f & SNF_NEG)) {
            a->f |= SNF_NEG; /* -1 is one literal (wide numbers, decimals) */
            a->pos = t->pos;
            *out = a;
            return 0;
        }
        NODE(n, q, SN_UN, t->pos);
        n->s = t->text;
        n->a = a;
        n->end = a->end;
        *out = n;
        return 0;
    }
    return parse_postfix(q, out);
}

typedef int (*level_fn)(tp *q, sql_node **out);

/* A left-associative binary level: operand {op operand}. */
static int binary(tp *q, sql_node **out, level_fn next, const char *const *ops, bool words)
{
    sql_node *l = NULL;
    FLOE_TRY(next(q, &l));
    for (;;) {
        sql_tok *t = tk(q, 0);
        const char *op = NULL;
        for (int k = 0; ops[k] && !op; k++)
            if (words ? floe__sql_is_word(t, ops[k]) : op_is(t, ops[k]))
                op = ops[k];
        if (!op && !words && floe__sql_is_word(t, "DIV") && !strcmp(ops[0], "*"))
            op = "DIV";
        if (!op)
            break;
        q->p->i++;
        NODE(b, q, SN_BIN, l->pos);
        b->s = op;
        b->a = l;
        FLOE_TRY(next(q, &b->b));
        b->end = b->b->end;
        l = b;
    }
    *out = l;
    return 0;
}

static int parse_mul(tp *q, sql_node **out)
{
    static const char *const ops[] = {"*", "/", "%", NULL};
    return binary(q, out, parse_unary, ops, false);
}

static int parse_add(tp *q, sql_node **out)
{
    static const char *const ops[] = {"+", "-", "||", NULL};
    return binary(q, out, parse_mul, ops, false);
}

static int parse_bitand(tp *q, sql_node **out)
{
    static const char *const ops[] = {"&", NULL};
    return binary(q, out, parse_add, ops, false);
}

static int parse_bitxor(tp *q, sql_node **out)
{
    static const char *const ops[] = {"^", NULL};
    return binary(q, out, parse_bitand, ops, false);
}

static int parse_bitor(tp *q, sql_node **out)
{
    static const char *const ops[] = {"|", NULL};
    return binary(q, out, parse_bitxor, ops, false);
}

static int parse_cmp(tp *q, sql_node **out)
{
    static const char *const ops[] = {"=", "==", "<>", "!=", "<", "<=", ">", ">=", "<=>", NULL};
    return binary(q, out, parse_bitor, ops, false);
}

/* [NOT] LIKE|ILIKE|RLIKE|REGEXP pattern | LIKE ANY|SOME|ALL (p, ...) [ESCAPE c]. */
static int parse_like(tp *q, sql_node *l, bool neg, sql_node **out)
{
    NODE(n, q, SN_LIKE, l->pos);
    n->a = l;
    if (neg)
        n->f |= SNF_NOT;
    sql_tok *t = tk(q, 0);
    q->p->i++;
    if (floe__sql_is_word(t, "ILIKE"))
        n->f |= SNF_ILIKE;
    if (floe__sql_is_word(t, "RLIKE") || floe__sql_is_word(t, "REGEXP"))
        n->f |= SNF_RLIKE;
    vec v = {0};
    if (!(n->f & SNF_RLIKE) && (isw(q, 0, "ANY") || isw(q, 0, "SOME") || isw(q, 0, "ALL")) &&
        op_is(tk(q, 1), "(")) {
        n->f |= isw(q, 0, "ALL") ? SNF_LIKEALL : SNF_ANY;
        q->p->i += 2;
        if (op_is(tk(q, 0), ")"))
            return syntax(q);
        FLOE_TRY(parse_list(q, &v));
        FLOE_TRY(expect_op(q, ")"));
    } else {
        sql_node *pat = NULL;
        FLOE_TRY(parse_bitor(q, &pat));
        FLOE_TRY(push(q, &v, pat));
    }
    n->v = v.v;
    n->nv = v.n;
    if (acc(q, "ESCAPE")) {
        if (tk(q, 0)->kind != TK_STRING)
            return syntax(q);
        FLOE_TRY(parse_primary(q, &n->b));
    }
    n->end = last_end(q);
    *out = n;
    return 0;
}

static int parse_pred(tp *q, sql_node **out)
{
    sql_node *l = NULL;
    FLOE_TRY(parse_cmp(q, &l));
    for (;;) {
        bool neg = isw(q, 0, "NOT") &&
                   (isw(q, 1, "BETWEEN") || isw(q, 1, "IN") || isw(q, 1, "LIKE") ||
                    isw(q, 1, "ILIKE") || isw(q, 1, "RLIKE") || isw(q, 1, "REGEXP"));
        if (neg)
            q->p->i++;
        if (acc(q, "BETWEEN")) {
            NODE(n, q, SN_BETWEEN, l->pos);
            n->f = neg ? SNF_NOT : 0;
            n->a = l;
            FLOE_TRY(parse_cmp(q, &n->b));
            FLOE_TRY(expect(q, "AND"));
            FLOE_TRY(parse_cmp(q, &n->c));
            n->end = n->c->end;
            l = n;
        } else if (acc(q, "IN")) {
            NODE(n, q, SN_IN, l->pos);
            n->f = neg ? SNF_NOT : 0;
            n->a = l;
            FLOE_TRY(expect_op(q, "("));
            if (at_query(q)) {
                FLOE_TRY(parse_query(q, &n->b));
            } else {
                vec v = {0};
                FLOE_TRY(parse_list(q, &v));
                n->v = v.v;
                n->nv = v.n;
            }
            FLOE_TRY(expect_op(q, ")"));
            n->end = last_end(q);
            l = n;
        } else if (isw(q, 0, "LIKE") || isw(q, 0, "ILIKE") || isw(q, 0, "RLIKE") ||
                   isw(q, 0, "REGEXP")) {
            FLOE_TRY(parse_like(q, l, neg, &l));
        } else if (acc(q, "IS")) {
            NODE(n, q, SN_IS, l->pos);
            n->a = l;
            if (acc(q, "NOT"))
                n->f |= SNF_NOT;
            if (acc(q, "NULL")) {
                n->s = "NULL";
            } else if (acc(q, "TRUE")) {
                n->s = "TRUE";
            } else if (acc(q, "FALSE")) {
                n->s = "FALSE";
            } else if (acc(q, "UNKNOWN")) {
                n->s = "NULL";
            } else if (acc(q, "DISTINCT")) {
                FLOE_TRY(expect(q, "FROM"));
                n->s = "DISTINCT";
                FLOE_TRY(parse_cmp(q, &n->b));
            } else {
                return syntax(q);
            }
            n->end = last_end(q);
            l = n;
        } else {
            break;
        }
    }
    *out = l;
    return 0;
}

static int parse_not(tp *q, sql_node **out)
{
    sql_tok *t = tk(q, 0);
    if (floe__sql_is_word(t, "NOT") || op_is(t, "!")) {
        FLOE_TRY(enter(q));
        q->p->i++;
        NODE(n, q, SN_UN, t->pos);
        n->s = "NOT";
        FLOE_TRY(parse_not(q, &n->a));
        n->end = n->a->end;
        q->depth--;
        *out = n;
        return 0;
    }
    return parse_pred(q, out);
}

static int parse_and(tp *q, sql_node **out)
{
    static const char *const ops[] = {"AND", NULL};
    return binary(q, out, parse_not, ops, true);
}

static int parse_or(tp *q, sql_node **out)
{
    static const char *const ops[] = {"OR", NULL};
    return binary(q, out, parse_and, ops, true);
}

static int parse_expr(tp *q, sql_node **out)
{
    FLOE_TRY(enter(q));
    int rc = parse_or(q, out);
    q->depth--;
    return rc;
}

/* ---------------------------------------------------------------- relations */

static const char *const tvfs[] = {"read_parquet", "incremental_append", "table_changes", NULL};

/* TVF arguments: literals, optionally `name => literal` (floe__sql_literal). */
static int parse_tvf_args(tp *q, floe_sql_tref *ref)
{
    sql_parser *p = q->p;
    size_t save_n = p->n;
    p->n = q->end; /* the literal parser must not run past the fragment */
    p->i++;        /* '(' */
    floe_sql_value *vals = NULL;
    const char **names = NULL;
    size_t n = 0, cap = 0, capn = 0;
    int rc = 0;
    if (!floe__sql_accept_op(p, ")")) {
        do {
            if (!(vals = floe__sql_grow(p->a, vals, n, &cap, sizeof *vals)) ||
                !(names = floe__sql_grow(p->a, names, n, &capn, sizeof *names))) {
                rc = FLOE_ENOMEM;
                goto out;
            }
            names[n] = NULL;
            sql_tok *t = floe__sql_peek(p, 0);
            if (is_name_tok(t) && op_is(floe__sql_peek(p, 1), "=>")) {
                names[n] = t->text;
                p->i += 2;
            }
            if ((rc = floe__sql_literal(p, &vals[n])) < 0)
                goto out;
            n++;
        } while (floe__sql_accept_op(p, ","));
        if ((rc = floe__sql_expect_op(p, ")")) < 0)
            goto out;
    }
    ref->args = vals;
    ref->arg_names = names;
    ref->nargs = n;
out:
    p->n = save_n;
    return rc;
}

static bool can_be_alias(const sql_tok *t)
{
    return t->kind == TK_QIDENT || (t->kind == TK_WORD && !word_in(t, not_alias));
}

/* [AS] alias [(col, ...)] after a relation. */
static int rel_alias(tp *q, sql_node *r, bool cols)
{
    bool as = acc(q, "AS");
    if (as ? is_name_tok(tk(q, 0)) : can_be_alias(tk(q, 0))) {
        r->alias = tk(q, 0)->text;
        if (tk(q, 0)->kind == TK_QIDENT)
            r->tok = tk(q, 0);
        q->p->i++;
    } else if (as) {
        return syntax(q);
    }
    if (cols && r->alias && op_is(tk(q, 0), "(")) {
        const char **names = NULL;
        size_t n = 0, cap = 0;
        q->p->i++;
        do {
            if (!is_name_tok(tk(q, 0)))
                return syntax(q);
            if (!(names = floe__sql_grow(q->p->a, names, n, &cap, sizeof *names)))
                return FLOE_ENOMEM;
            names[n++] = tk(q, 0)->text;
            q->p->i++;
        } while (acc_op(q, ","));
        FLOE_TRY(expect_op(q, ")"));
        r->names = names;
        r->nnames = n;
    }
    r->end = last_end(q);
    return 0;
}

static bool is_cte(const tp *q, const char *name)
{
    for (size_t k = q->nctes; k-- > 0;)
        if (floe__sql_ieq(q->ctes[k], name))
            return true;
    return false;
}

static bool is_local_name(tp *q, const char *const *parts, size_t n)
{
    const char *last = parts[n - 1];
    if (n == 2 && (floe__sql_ieq(parts[0], "main") || floe__sql_ieq(parts[0], "temp")) &&
        prefix_ci(last, "sqlite_"))
        return true;
    if (n != 1)
        return false;
    if (prefix_ci(last, "sqlite_") || is_cte(q, last))
        return true;
    const floe_sql_options *o = q->p->opt;
    return o->is_local && o->is_local(last, o->payload);
}

static int parse_from(tp *q, sql_node **out);

/* A table name (with time travel), a table-valued function or range(). */
static int parse_named_rel(tp *q, sql_node **out)
{
    sql_tok *t0 = tk(q, 0);
    const char **parts = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (!is_name_tok(tk(q, 0)))
            return syntax(q);
        if (!(parts = floe__sql_grow(q->p->a, parts, n, &cap, sizeof *parts)))
            return FLOE_ENOMEM;
        parts[n++] = tk(q, 0)->text;
        q->p->i++;
        if (n > 64)
            return floe__sql_err_at(FLOE_EINVALID, q->p->script, t0->pos,
                                    "identifier has too many parts");
        if (!acc_op(q, "."))
            break;
    }
    floe_sql_tref ref;
    memset(&ref, 0, sizeof ref);
    if (op_is(tk(q, 0), "(") && n == 1 && t0->kind == TK_WORD) {
        bool ours = word_in(t0, tvfs);
        if (!ours) {
            /* range(...) or SQLite's own table-valued function */
            NODE(r, q, floe__sql_ieq(parts[0], "range") ? SN_RANGE : SN_FUNCREL, t0->pos);
            r->s = parts[0];
            q->p->i++;
            if (!op_is(tk(q, 0), ")")) {
                vec v = {0};
                FLOE_TRY(parse_list(q, &v));
                r->v = v.v;
                r->nv = v.n;
            }
            FLOE_TRY(expect_op(q, ")"));
            if (r->k == SN_RANGE && (r->nv < 1 || r->nv > 3))
                return floe__sql_err_at(FLOE_EINVALID, q->p->script, t0->pos,
                                        "range() expects (end), (start, end) or (start, end, step)");
            FLOE_TRY(rel_alias(q, r, true));
            if (r->k == SN_RANGE && !r->alias) {
                r->alias = "range";
                r->tok = t0; /* an implicit alias prints quoted */
            }
            *out = r;
            return 0;
        }
        ref.name.catalog =
            q->p->opt->catalog_name ? q->p->opt->catalog_name : FLOE_CATALOG_DEFAULT_NAME;
        ref.name.table = "";
        ref.name.kind = FLOE_SQLREF_TVF;
        if (!(ref.name.suffix = lower_dup(q->p->a, parts[0])))
            return FLOE_ENOMEM;
        ref.name.pos = t0->pos;
        FLOE_TRY(parse_tvf_args(q, &ref));
        NODE(r, q, SN_TABLE, t0->pos);
        FLOE_TRY(floe__sql_add_ref(q->p, &ref, &r->s));
        FLOE_TRY(rel_alias(q, r, true));
        if (!r->alias) {
            r->alias = ref.name.suffix;
            r->tok = t0;
        }
        *out = r;
        return 0;
    }
    NODE(r, q, SN_TABLE, t0->pos);
    if (is_local_name(q, parts, n)) {
        floe_sql_travel tt = {0};
        size_t at = tk(q, 0)->pos;
        FLOE_TRY(parse_travel(q, &tt));
        if (tt.kind)
            return floe__sql_err_at(FLOE_EINVALID, q->p->script, at,
                                    "time travel on a view, CTE or SQLite table");
        r->names = parts;
        r->nnames = n;
        FLOE_TRY(rel_alias(q, r, true));
        *out = r;
        return 0;
    }
    FLOE_TRY(floe__sql_resolve(q->p, parts, n, t0->pos, true, &ref.name));
    size_t at = tk(q, 0)->pos;
    FLOE_TRY(parse_travel(q, &ref.travel));
    if (ref.travel.kind &&
        (ref.name.kind == FLOE_SQLREF_BRANCH || ref.name.kind == FLOE_SQLREF_TAG))
        return floe__sql_err_at(FLOE_EINVALID, q->p->script, at,
                                "Cannot do time-travel based on both table identifier and AS OF");
    FLOE_TRY(floe__sql_add_ref(q->p, &ref, &r->s));
    FLOE_TRY(rel_alias(q, r, true));
    if (!r->alias) {
        r->alias = parts[n - 1];
        r->tok = t0;
    }
    *out = r;
    return 0;
}

static int parse_values(tp *q, sql_node **out);

static int parse_relprim(tp *q, sql_node **out)
{
    sql_tok *t = tk(q, 0);
    if (floe__sql_is_word(t, "LATERAL"))
        return unsupported(q, "LATERAL");
    if (op_is(t, "(")) {
        FLOE_TRY(enter(q));
        NODE(r, q, SN_SUBREL, t->pos);
        size_t save = q->p->i, nrefs = q->p->nrefs;
        int rc = 1;
        if (at_query(q)) {
            q->p->i++;
            rc = parse_query(q, &r->a);
            if (rc == 0 && !acc_op(q, ")"))
                rc = 1;
            if (rc == FLOE_ENOMEM)
                return rc;
            if (rc != 0) {
                q->p->i = save;
                q->p->nrefs = nrefs;
            }
        }
        if (rc != 0) {
            /* a parenthesised join */
            q->p->i++;
            sql_node *inner = NULL;
            FLOE_TRY(parse_from(q, &inner));
            FLOE_TRY(expect_op(q, ")"));
            q->depth--;
            if (inner->k == SN_JOIN) {
                sql_node *g = node(q, SN_PAREN, t->pos);
                if (!g)
                    return FLOE_ENOMEM;
                g->a = inner;
                g->end = last_end(q);
                *out = g;
            } else {
                *out = inner;
            }
            return 0;
        }
        q->depth--;
        FLOE_TRY(rel_alias(q, r, true));
        *out = r;
        return 0;
    }
    if (floe__sql_is_word(t, "VALUES")) {
        NODE(r, q, SN_SUBREL, t->pos);
        FLOE_TRY(parse_values(q, &r->a));
        FLOE_TRY(rel_alias(q, r, true));
        *out = r;
        return 0;
    }
    if (!is_name_tok(t))
        return syntax(q);
    FLOE_TRY(parse_named_rel(q, out));
    if (isw(q, 0, "TABLESAMPLE") || isw(q, 0, "PIVOT") || isw(q, 0, "UNPIVOT"))
        return unsupported(q, tk(q, 0)->text);
    return 0;
}

/* The join operator at the cursor (consumed): its SQLite spelling, or NULL. */
static const char *join_op(tp *q, int *flags)
{
    size_t save = q->p->i;
    *flags = 0;
    if (acc(q, "NATURAL"))
        *flags |= SNF_NATURAL;
    const char *s = "JOIN";
    if (acc(q, "INNER")) {
        s = "JOIN";
    } else if (acc(q, "CROSS")) {
        s = "CROSS JOIN";
    } else if (acc(q, "LEFT")) {
        s = "LEFT JOIN";
        if (acc(q, "SEMI"))
            *flags |= SNF_SEMI;
        else if (acc(q, "ANTI"))
            *flags |= SNF_ANTI;
        else
            acc(q, "OUTER");
    } else if (acc(q, "RIGHT")) {
        s = "RIGHT JOIN";
        acc(q, "OUTER");
    } else if (acc(q, "FULL")) {
        s = "FULL JOIN";
        acc(q, "OUTER");
    } else if (acc(q, "SEMI")) {
        *flags |= SNF_SEMI;
    } else if (acc(q, "ANTI")) {
        *flags |= SNF_ANTI;
    }
    if (!acc(q, "JOIN")) {
        q->p->i = save;
        return NULL;
    }
    return s;
}

static int parse_join_chain(tp *q, sql_node **out)
{
    sql_node *l = NULL;
    FLOE_TRY(parse_relprim(q, &l));
    for (;;) {
        int flags;
        size_t pos = tk(q, 0)->pos;
        const char *op = join_op(q, &flags);
        if (!op)
            break;
        NODE(j, q, SN_JOIN, pos);
        j->s = op;
        j->f = flags;
        j->a = l;
        FLOE_TRY(parse_relprim(q, &j->b));
        if (acc(q, "ON")) {
            FLOE_TRY(parse_expr(q, &j->c));
        } else if (acc(q, "USING")) {
            sql_node tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.alias = "";
            FLOE_TRY(rel_alias(q, &tmp, true)); /* the (col, ...) list */
            if (!tmp.nnames)
                return syntax(q);
            j->names = tmp.names;
            j->nnames = tmp.nnames;
        }
        if ((flags & (SNF_SEMI | SNF_ANTI)) && !j->c)
            return syntax(q);
        j->end = last_end(q);
        l = j;
    }
    *out = l;
    return 0;
}

static int parse_from(tp *q, sql_node **out)
{
    sql_node *l = NULL;
    FLOE_TRY(parse_join_chain(q, &l));
    while (op_is(tk(q, 0), ",")) {
        NODE(j, q, SN_JOIN, tk(q, 0)->pos);
        q->p->i++;
        j->s = ",";
        j->a = l;
        FLOE_TRY(parse_join_chain(q, &j->b));
        j->end = last_end(q);
        l = j;
    }
    *out = l;
    return 0;
}

/* ---------------------------------------------------------------- queries */

static int parse_values(tp *q, sql_node **out)
{
    NODE(n, q, SN_VALUES, tk(q, 0)->pos);
    q->p->i++;
    vec rows = {0};
    do {
        NODE(r, q, SN_ROW, tk(q, 0)->pos);
        vec v = {0};
        if (acc_op(q, "(")) {
            FLOE_TRY(parse_list(q, &v));
            FLOE_TRY(expect_op(q, ")"));
        } else {
            sql_node *e = NULL;
            FLOE_TRY(parse_expr(q, &e));
            FLOE_TRY(push(q, &v, e));
        }
        r->v = v.v;
        r->nv = v.n;
        r->end = last_end(q);
        if (rows.n && r->nv != rows.v[0]->nv)
            return floe__sql_err_at(FLOE_EINVALID, q->p->script, r->pos,
                                    "[INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH] Invalid inline "
                                    "table. Inline table expected %zu columns but found %zu "
                                    "columns in row %zu.",
                                    rows.v[0]->nv, r->nv, rows.n);
        FLOE_TRY(push(q, &rows, r));
    } while (acc_op(q, ","));
    n->v = rows.v;
    n->nv = rows.n;
    n->end = last_end(q);
    *out = n;
    return 0;
}

static const char *const item_end[] = {"FROM",  "WHERE",  "GROUP", "HAVING",  "ORDER",
                                       "LIMIT", "WINDOW", "UNION", "EXCEPT",  "INTERSECT",
                                       "MINUS", "LATERAL", "CLUSTER", "SORT", "DISTRIBUTE",
                                       "OFFSET", "INTO",  NULL};

static int parse_item(tp *q, sql_node **out)
{
    size_t pos = tk(q, 0)->pos;
    /* * or qualifier.* */
    size_t k = 0;
    while (is_name_tok(tk(q, k)) && op_is(tk(q, k + 1), "."))
        k += 2;
    if (op_is(tk(q, k), "*")) {
        NODE(s, q, SN_STAR, pos);
        const char **names = NULL;
        size_t n = 0, cap = 0;
        for (size_t j = 0; j < k; j += 2) {
            if (!(names = floe__sql_grow(q->p->a, names, n, &cap, sizeof *names)))
                return FLOE_ENOMEM;
            names[n++] = tk(q, j)->text;
        }
        q->p->i += k + 1;
        s->names = names;
        s->nnames = n;
        s->end = last_end(q);
        if (isw(q, 0, "EXCEPT") && op_is(tk(q, 1), "("))
            return unsupported(q, "SELECT * EXCEPT");
        *out = s;
        return 0;
    }
    NODE(it, q, SN_ITEM, pos);
    FLOE_TRY(parse_expr(q, &it->a));
    it->end = last_end(q);
    if (acc(q, "AS")) {
        if (op_is(tk(q, 0), "(")) {
            /* a generator's column names: explode(m) AS (k, v) */
            sql_node tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.alias = "";
            FLOE_TRY(rel_alias(q, &tmp, true));
            if (!tmp.nnames)
                return syntax(q);
            it->names = tmp.names;
            it->nnames = tmp.nnames;
            *out = it;
            return 0;
        }
        if (!is_name_tok(tk(q, 0)))
            return syntax(q);
        it->alias = tk(q, 0)->text;
        it->tok = tk(q, 0)->kind == TK_QIDENT ? tk(q, 0) : NULL;
        q->p->i++;
    } else if (is_name_tok(tk(q, 0)) && !word_in(tk(q, 0), item_end)) {
        it->alias = tk(q, 0)->text;
        it->tok = tk(q, 0)->kind == TK_QIDENT ? tk(q, 0) : NULL;
        q->p->i++;
    }
    *out = it;
    return 0;
}

/* LATERAL VIEW [OUTER] generator(args) table [AS] col [, col ...] after
 * the FROM relation *rel, which becomes a join of it and the view. */
static int parse_lateral_view(tp *q, sql_node **rel)
{
    NODE(j, q, SN_JOIN, tk(q, 0)->pos);
    NODE(g, q, SN_LATERAL, tk(q, 0)->pos);
    q->p->i += 2;
    if (acc(q, "OUTER"))
        g->f |= SNF_OUTER;
    if (!is_name_tok(tk(q, 0)))
        return syntax(q);
    if (!op_is(tk(q, 1), "(")) {
        q->p->i++;
        return syntax(q);
    }
    FLOE_TRY(parse_call(q, &g->a));
    if (g->a->a || g->a->b || (g->a->f & (SNF_DISTINCT | SNF_STARARG)))
        return syntax(q);
    if (!is_name_tok(tk(q, 0)) || isw(q, 0, "AS"))
        return syntax(q);
    g->alias = tk(q, 0)->text;
    g->tok = tk(q, 0)->kind == TK_QIDENT ? tk(q, 0) : NULL;
    q->p->i++;
    bool as = acc(q, "AS");
    const char **nm = NULL;
    size_t n = 0, cap = 0;
    while (is_name_tok(tk(q, 0)) && (as || !word_in(tk(q, 0), not_alias))) {
        if (!(nm = floe__sql_grow(q->p->a, nm, n, &cap, sizeof *nm)))
            return FLOE_ENOMEM;
        nm[n++] = tk(q, 0)->text;
        q->p->i++;
        as = false;
        if (!op_is(tk(q, 0), ",") || !is_name_tok(tk(q, 1)))
            break;
        q->p->i++;
        as = true;
    }
    if (as && !n)
        return syntax(q);
    g->names = nm;
    g->nnames = n;
    g->end = last_end(q);
    j->s = "LATERAL VIEW";
    j->a = *rel;
    j->b = g;
    j->end = g->end;
    *rel = j;
    return 0;
}

static int parse_select(tp *q, sql_node **out)
{
    NODE(s, q, SN_SELECT, tk(q, 0)->pos);
    q->p->i++;
    if (acc(q, "DISTINCT"))
        s->f |= SNF_DISTINCT;
    else
        acc(q, "ALL");
    vec items = {0};
    do {
        sql_node *it = NULL;
        FLOE_TRY(parse_item(q, &it));
        FLOE_TRY(push(q, &items, it));
    } while (acc_op(q, ","));
    s->v = items.v;
    s->nv = items.n;
    if (acc(q, "FROM")) {
        FLOE_TRY(parse_from(q, &s->a));
        while (isw(q, 0, "LATERAL") && isw(q, 1, "VIEW"))
            FLOE_TRY(parse_lateral_view(q, &s->a));
    }
    if (acc(q, "WHERE"))
        FLOE_TRY(parse_expr(q, &s->b));
    if (isw(q, 0, "GROUP") && isw(q, 1, "BY")) {
        q->p->i += 2;
        if (isw(q, 0, "GROUPING") || isw(q, 0, "ROLLUP") || isw(q, 0, "CUBE"))
            return unsupported(q, tk(q, 0)->text);
        vec v = {0};
        FLOE_TRY(parse_list(q, &v));
        s->w = v.v;
        s->nw = v.n;
        if (isw(q, 0, "WITH") && (isw(q, 1, "ROLLUP") || isw(q, 1, "CUBE")))
            return unsupported(q, "WITH ROLLUP / CUBE");
    }
    if (acc(q, "HAVING"))
        FLOE_TRY(parse_expr(q, &s->c));
    if (acc(q, "WINDOW")) {
        vec v = {0};
        do {
            NODE(d, q, SN_WINDEF, tk(q, 0)->pos);
            if (!is_name_tok(tk(q, 0)))
                return syntax(q);
            d->s = tk(q, 0)->text;
            q->p->i++;
            FLOE_TRY(expect(q, "AS"));
            if (!op_is(tk(q, 0), "("))
                return syntax(q);
            FLOE_TRY(parse_winspec(q, &d->a));
            FLOE_TRY(push(q, &v, d));
        } while (acc_op(q, ","));
        s->x = v.v;
        s->nx = v.n;
    }
    if (isw(q, 0, "QUALIFY"))
        return unsupported(q, "QUALIFY");
    s->end = last_end(q);
    *out = s;
    return 0;
}

static int parse_qprimary(tp *q, sql_node **out)
{
    if (isw(q, 0, "SELECT"))
        return parse_select(q, out);
    if (isw(q, 0, "VALUES"))
        return parse_values(q, out);
    if (isw(q, 0, "TABLE") && is_name_tok(tk(q, 1))) {
        NODE(s, q, SN_SELECT, tk(q, 0)->pos);
        q->p->i++;
        NODE(star, q, SN_STAR, s->pos);
        vec v = {0};
        FLOE_TRY(push(q, &v, star));
        s->v = v.v;
        s->nv = v.n;
        FLOE_TRY(parse_named_rel(q, &s->a));
        s->end = last_end(q);
        *out = s;
        return 0;
    }
    if (op_is(tk(q, 0), "(")) {
        FLOE_TRY(enter(q));
        q->p->i++;
        FLOE_TRY(parse_query(q, out));
        FLOE_TRY(expect_op(q, ")"));
        q->depth--;
        return 0;
    }
    return syntax(q);
}

static int parse_setop_level(tp *q, sql_node **out, bool intersect)
{
    sql_node *l = NULL;
    FLOE_TRY(intersect ? parse_qprimary(q, &l) : parse_setop_level(q, &l, true));
    for (;;) {
        const char *op = NULL;
        if (intersect ? isw(q, 0, "INTERSECT") : isw(q, 0, "UNION"))
            op = intersect ? "INTERSECT" : "UNION";
        else if (!intersect && (isw(q, 0, "EXCEPT") || isw(q, 0, "MINUS")))
            op = "EXCEPT";
        if (!op)
            break;
        NODE(s, q, SN_SETOP, tk(q, 0)->pos);
        q->p->i++;
        if (acc(q, "ALL"))
            s->f |= SNF_ALL;
        else
            acc(q, "DISTINCT");
        s->s = op;
        s->a = l;
        FLOE_TRY(intersect ? parse_qprimary(q, &s->b) : parse_setop_level(q, &s->b, true));
        s->pos = l->pos;
        s->end = last_end(q);
        l = s;
    }
    *out = l;
    return 0;
}

static int add_cte(tp *q, const char *name)
{
    if (!(q->ctes = floe__sql_grow(q->p->a, q->ctes, q->nctes, &q->capctes, sizeof *q->ctes)))
        return FLOE_ENOMEM;
    q->ctes[q->nctes++] = name;
    return 0;
}

static int parse_query(tp *q, sql_node **out)
{
    FLOE_TRY(enter(q));
    size_t pos = tk(q, 0)->pos, scope = q->nctes;
    sql_node *with = NULL;
    if (acc(q, "WITH")) {
        NODE(w, q, SN_WITH, pos);
        if (acc(q, "RECURSIVE"))
            w->f |= SNF_RECURSIVE;
        vec v = {0};
        do {
            NODE(c, q, SN_CTE, tk(q, 0)->pos);
            if (!is_name_tok(tk(q, 0)))
                return syntax(q);
            c->s = tk(q, 0)->text;
            c->tok = tk(q, 0)->kind == TK_QIDENT ? tk(q, 0) : NULL;
            q->p->i++;
            if (op_is(tk(q, 0), "(")) {
                c->alias = c->s;
                FLOE_TRY(rel_alias(q, c, true));
                c->alias = NULL;
            }
            FLOE_TRY(expect(q, "AS"));
            FLOE_TRY(expect_op(q, "("));
            bool rec = w->f & SNF_RECURSIVE;
            if (rec)
                FLOE_TRY(add_cte(q, c->s));
            FLOE_TRY(parse_query(q, &c->a));
            FLOE_TRY(expect_op(q, ")"));
            if (rec)
                q->nctes--;
            FLOE_TRY(add_cte(q, c->s)); /* visible to the later CTEs and the body */
            c->end = last_end(q);
            FLOE_TRY(push(q, &v, c));
        } while (acc_op(q, ","));
        w->v = v.v;
        w->nv = v.n;
        with = w;
    }
    sql_node *body = NULL;
    FLOE_TRY(parse_setop_level(q, &body, false));
    bool order = isw(q, 0, "ORDER") && isw(q, 1, "BY");
    if ((isw(q, 0, "SORT") || isw(q, 0, "CLUSTER") || isw(q, 0, "DISTRIBUTE")) && isw(q, 1, "BY"))
        return unsupported(q, tk(q, 0)->text);
    if (order || isw(q, 0, "LIMIT") || isw(q, 0, "OFFSET")) {
        NODE(o, q, SN_ORDER, body->pos);
        o->a = body;
        if (order) {
            q->p->i += 2;
            vec v = {0};
            FLOE_TRY(parse_sorts(q, &v));
            o->v = v.v;
            o->nv = v.n;
        }
        if (acc(q, "LIMIT") && !acc(q, "ALL"))
            FLOE_TRY(parse_expr(q, &o->b));
        if (acc(q, "OFFSET"))
            FLOE_TRY(parse_expr(q, &o->c));
        o->end = last_end(q);
        body = o;
    }
    if (with) {
        with->a = body;
        with->end = last_end(q);
        body = with;
    }
    q->nctes = scope;
    q->depth--;
    *out = body;
    return 0;
}

int floe__sql_parse_tree(sql_parser *p, size_t from, size_t to, bool as_query, sql_node **out)
{
    tp q;
    memset(&q, 0, sizeof q);
    q.p = p;
    q.end = to;
    q.eof.kind = TK_EOF;
    q.eof.text = "";
    q.eof.pos = q.eof.end = p->t[to < p->n ? to : p->n].pos;
    size_t save = p->i;
    p->i = from;
    int rc = as_query ? parse_query(&q, out) : parse_expr(&q, out);
    if (rc == 0 && p->i < to)
        rc = syntax(&q);
    p->i = save;
    return rc;
}
