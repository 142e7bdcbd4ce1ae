/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQLite printer of the syntax tree (ast.h): Spark 3.5 semantics where
 * SQLite differs, written as SQL or as functions floe registers
 * (exec_spark.c, exec_decimal.c, exec_funcs.c):
 *  - `/` is a double division, `div` an integral one;
 *  - LIKE is case-sensitive (floe's like()), ILIKE and LIKE ANY / ALL use
 *    floe_like_pattern(), RLIKE is floe's regexp();
 *  - CAST and try_cast follow Spark with ANSI mode off (floe_cast: text
 *    that does not parse is NULL, integers wrap), decimals floe_cast_decimal;
 *  - LEFT SEMI / ANTI JOIN become [NOT] EXISTS in the WHERE clause;
 *  - count(DISTINCT a, b) counts the distinct rows without a NULL;
 *  - map/list/struct access on JSON-text columns becomes json_extract;
 *  - common Spark functions get their SQLite spelling (docs/sql.md).
 * Operators are parenthesised by SQLite's precedence, so the tree's shape
 * (Spark's precedence) is kept. Every identifier and string is printed
 * from its decoded value with SQLite quoting: user text never becomes SQL.
 * A select item without an alias whose SQLite text differs from what the
 * user wrote is named after the user's text (Spark names a column after
 * its expression, not after floe's translation).
 */
#include "sql/ast.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct pr {
    sql_parser *p;
    int depth;
    /* [NOT] EXISTS conditions of the SEMI / ANTI joins of the SELECT being printed */
    const char **semi;
    size_t nsemi, capsemi;
    /* the typed decimal whose exact text (precision > 15) may stand as is:
     * a select item, an operand of exact arithmetic (else a REAL, which
     * compares and sorts as a number) */
    const sql_node *exact;
    /* names bound to SQLite text: lambda parameters (qual NULL) and LATERAL
     * VIEW columns (qual: the view's table name), innermost last */
    struct pr_bound {
        const char *name, *qual, *sql;
    } * bound;
    size_t nbound, capbound;
    int nvars;               /* floe_g<n> / floe_l<n> aliases handed out */
    const sql_node *keep;    /* the SELECT whose names its ORDER BY still sees */
    const sql_node *in_item; /* the select item being printed (a generator there is nested) */
} pr;

enum { P_NONE = 0, P_OR, P_AND, P_NOT, P_EQ, P_CMP, P_BIT, P_ADD, P_MUL, P_CAT, P_UN, P_PRIM };

static int expr(pr *r, const sql_node *n, int min, floe_buf *b);
static int query(pr *r, const sql_node *n, floe_buf *b);

static int err_at(pr *r, const sql_node *n, int code, const char *msg)
{
    return floe__sql_err_at(code, r->p->script, n->pos, "%s", msg);
}

/* ---------------------------------------------------------------- identifiers */

/* SQLite's keywords, sorted (bare_ok() searches them). */
static const char *const sqlite_keywords[] = {
    "ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS", "ANALYZE", "AND", "AS", "ASC",
    "ATTACH", "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE", "CASE", "CAST",
    "CHECK", "COLLATE", "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS",
    "CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT",
    "DEFERRABLE", "DEFERRED", "DELETE", "DESC", "DETACH", "DISTINCT", "DO", "DROP", "EACH",
    "ELSE", "END", "ESCAPE", "EXCEPT", "EXCLUDE", "EXCLUSIVE", "EXISTS", "EXPLAIN", "FAIL",
    "FALSE", "FILTER", "FIRST", "FOLLOWING", "FOR", "FOREIGN", "FROM", "FULL", "GENERATED",
    "GLOB", "GROUP", "GROUPS", "HAVING", "IF", "IGNORE", "IMMEDIATE", "IN", "INDEX", "INDEXED",
    "INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO", "IS", "ISNULL", "JOIN", "KEY",
    "LAST", "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL", "NO", "NOT", "NOTHING",
    "NOTNULL", "NULL", "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS", "OUTER", "OVER",
    "PARTITION", "PLAN", "PRAGMA", "PRECEDING", "PRIMARY", "QUERY", "RAISE", "RANGE",
    "RECURSIVE", "REFERENCES", "REGEXP", "REINDEX", "RELEASE", "RENAME", "REPLACE", "RESTRICT",
    "RETURNING", "RIGHT", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT", "SELECT", "SET", "TABLE",
    "TEMP", "TEMPORARY", "THEN", "TIES", "TO", "TRANSACTION", "TRIGGER", "TRUE", "UNBOUNDED",
    "UNION", "UNIQUE", "UPDATE", "USING", "VACUUM", "VALUES", "VIEW", "VIRTUAL", "WHEN", "WHERE",
    "WINDOW", "WITH", "WITHOUT", NULL};

static bool bare_ok(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (const char *c = s; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_'))
            return false;
    /* the list is sorted: a binary search (this runs for every name printed) */
    size_t lo = 0, hi = FLOE_ARRAY_LEN(sqlite_keywords) - 1; /* without the NULL */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcasecmp(s, sqlite_keywords[mid]);
        if (c == 0)
            return false;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return true;
}

/* An identifier: bare when it was written bare and SQLite reads it so,
 * else quoted (a quoted case-twin column becomes its SQLite name). */
static int ident(pr *r, const char *name, bool quoted, floe_buf *b)
{
    if (!quoted && bare_ok(name))
        return floe__buf_puts(b, name);
    const floe_sql_options *o = r->p->opt;
    if (quoted && o->is_case_twin_column && o->is_case_twin_column(name, o->payload))
        if (!(name = floe__sql_case_twin_name(r->p->a, name)))
            return floe__error_nomem();
    return floe__sql_quote_ident(b, name);
}

static const char *const struct_columns[] = {"partition", "data_file", "readable_metrics", NULL};

static bool is_struct_column(pr *r, const char *s)
{
    for (int k = 0; struct_columns[k]; k++)
        if (floe__sql_ieq(s, struct_columns[k]))
            return true;
    const floe_sql_options *o = r->p->opt;
    return o->is_struct_column && o->is_struct_column(s, o->payload);
}

/* JSON path label: ."a"; a '"' cannot be expressed. */
static int path_label(pr *r, const sql_node *at, floe_buf *b, const char *label)
{
    if (strchr(label, '"'))
        return err_at(r, at, FLOE_EUNSUPPORTED, "unsupported: key containing '\"'");
    return floe__buf_printf(b, ".\"%s\"", label);
}

/* The part of a column chain that is a struct column with fields after
 * it ((size_t)-1: none). */
static size_t struct_split(pr *r, const sql_node *n)
{
    for (size_t k = 0; k + 1 < n->nnames; k++)
        if (is_struct_column(r, n->names[k]))
            return k;
    return (size_t)-1;
}

/* A column that names a lambda parameter or a LATERAL VIEW column (the
 * innermost binding wins, so parameters shadow columns as in Spark); its
 * remaining parts are struct fields. Returns 1 when printed. */
static int bound_column(pr *r, const sql_node *n, floe_buf *b)
{
    for (size_t k = r->nbound; k-- > 0;) {
        const struct pr_bound *e = &r->bound[k];
        size_t skip = 0;
        if (floe__sql_ieq(n->names[0], e->name))
            skip = 1;
        else if (e->qual && n->nnames >= 2 && floe__sql_ieq(n->names[0], e->qual) &&
                 floe__sql_ieq(n->names[1], e->name))
            skip = 2;
        if (!skip)
            continue;
        if (!b)
            return 1; /* only asked whether it is bound */
        if (skip == n->nnames) {
            FLOE_TRY(floe__buf_puts(b, e->sql));
            return 1;
        }
        floe_buf path = FLOE_BUF_INIT;
        int rc = floe__buf_putc(&path, '$');
        for (size_t j = skip; j < n->nnames && rc == 0; j++)
            rc = path_label(r, n, &path, n->names[j]);
        if (rc == 0)
            rc = floe__buf_printf(b, "json_extract(%s, ", e->sql);
        if (rc == 0)
            rc = floe__sql_quote_string(b, path.ptr);
        floe__buf_free(&path);
        FLOE_TRY(rc);
        FLOE_TRY(floe__buf_putc(b, ')'));
        return 1;
    }
    return 0;
}

static int bind_name(pr *r, const char *name, const char *qual, const char *sql)
{
    if (!sql ||
        !(r->bound = floe__sql_grow(r->p->a, r->bound, r->nbound, &r->capbound, sizeof *r->bound)))
        return floe__error_nomem();
    r->bound[r->nbound].name = name;
    r->bound[r->nbound].qual = qual;
    r->bound[r->nbound].sql = sql;
    r->nbound++;
    return 0;
}

/* a.b.partition.x.y -> json_extract(a.b."partition", '$."x"."y"'). */
static int column(pr *r, const sql_node *n, floe_buf *b)
{
    if (r->nbound) {
        int rc = bound_column(r, n, b);
        if (rc != 0)
            return rc < 0 ? rc : 0;
    }
    size_t split = struct_split(r, n);
    size_t last = split == (size_t)-1 ? n->nnames : split + 1;
    if (split != (size_t)-1)
        FLOE_TRY(floe__buf_puts(b, "json_extract("));
    for (size_t k = 0; k < last; k++) {
        if (k)
            FLOE_TRY(floe__buf_putc(b, '.'));
        FLOE_TRY(ident(r, n->names[k], n->qnames[k] || split == k, b));
    }
    if (split == (size_t)-1)
        return 0;
    floe_buf path = FLOE_BUF_INIT;
    int rc = floe__buf_putc(&path, '$');
    for (size_t k = last; k < n->nnames && rc == 0; k++)
        rc = path_label(r, n, &path, n->names[k]);
    if (rc == 0)
        rc = floe__buf_puts(b, ", ");
    if (rc == 0)
        rc = floe__sql_quote_string(b, path.ptr);
    floe__buf_free(&path);
    FLOE_TRY(rc);
    return floe__buf_putc(b, ')');
}

/* ---------------------------------------------------------------- literals */

/* A decimal literal SQLite cannot hold: more than 15 significant digits
 * or an integer beyond 64 bits. Spark reads it as an exact decimal; here
 * it becomes its text, which a wide decimal column compares exactly
 * (vtab.c's numeric collation) and INSERT converts exactly. */
static bool wide_number(const char *t)
{
    if (strpbrk(t, "eExX"))
        return false;
    const char *dot = strchr(t, '.');
    const char *a = t, *e = t + strlen(t);
    while (a < e && (*a == '0' || *a == '.'))
        a++;
    if (dot)
        while (e > a && (e[-1] == '0' || e[-1] == '.'))
            e--;
    size_t sig = (size_t)(e - a) - (dot && dot >= a && dot < e ? 1 : 0);
    if (dot)
        return sig > 15;
    return sig > 19 || (sig == 19 && strcmp(a, "9223372036854775808") > 0);
}

static int number(pr *r, const sql_node *n, floe_buf *b)
{
    const char *text = n->tok->text, *sign = n->f & SNF_NEG ? "-" : "";
    if (n->f & SNF_DECIMAL_BD) {
        /* Spark's 1.50BD: DECIMAL(max(digits, scale), scale), exact */
        const char *dot = strchr(text, '.');
        int scale = dot ? (int)strlen(dot + 1) : 0, digits = 0;
        bool lead = true;
        for (const char *c = text; *c; c++)
            if (*c != '.' && !(lead && *c == '0')) {
                lead = false;
                digits++;
            }
        int precision = digits > scale ? digits : scale;
        if (precision < 1)
            precision = 1;
        if (precision > 38) {
            char msg[120];
            snprintf(msg, sizeof msg,
                     "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision %d exceeds max "
                     "precision 38.",
                     precision);
            return err_at(r, n, FLOE_EINVALID, msg);
        }
        FLOE_TRY(floe__buf_puts(b, "floe_cast_decimal('"));
        return floe__buf_printf(b, "%s%s', %d, %d)", sign, text, precision, scale);
    }
    if (n->tok->suffix == 'D' || n->tok->suffix == 'F') /* a double: SQLite's REAL */
        return floe__buf_printf(b, "%s%s%s", sign, text, strpbrk(text, ".eE") ? "" : ".0");
    if (wide_number(text))
        return floe__buf_printf(b, "'%s%s'", sign, text);
    return floe__buf_printf(b, "%s%s", sign, text);
}

static int literal(pr *r, const sql_node *n, floe_buf *b)
{
    const sql_tok *t = n->tok;
    switch (t->kind) {
    case TK_NUMBER: return number(r, n, b);
    case TK_STRING: return floe__sql_quote_string(b, t->text);
    case TK_BLOB: return floe__buf_printf(b, "X'%s'", t->text);
    default: break;
    }
    if (floe__sql_ieq(t->text, "TRUE"))
        return floe__buf_puts(b, "TRUE");
    if (floe__sql_ieq(t->text, "FALSE"))
        return floe__buf_puts(b, "FALSE");
    return floe__buf_puts(b, "NULL");
}

/* ---------------------------------------------------------------- helpers */

/* Print n into a new arena string. */
static int to_str(pr *r, const sql_node *n, int min, char **out)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = n->k == SN_SELECT || n->k == SN_SETOP || n->k == SN_WITH || n->k == SN_ORDER ||
                     n->k == SN_VALUES
                 ? query(r, n, &b)
                 : expr(r, n, min, &b);
    if (rc == 0 && !(*out = floe__arena_strdup(r->p->a, b.ptr ? b.ptr : "")))
        rc = floe__error_nomem();
    floe__buf_free(&b);
    return rc;
}

static int list(pr *r, sql_node *const *v, size_t n, floe_buf *b)
{
    for (size_t k = 0; k < n; k++) {
        if (k)
            FLOE_TRY(floe__buf_puts(b, ", "));
        FLOE_TRY(expr(r, v[k], P_NONE, b));
    }
    return 0;
}

static int args_str(pr *r, const sql_node *f, char ***out)
{
    char **a = f->nv ? floe__arena_calloc(r->p->a, f->nv, sizeof *a) : NULL;
    if (f->nv && !a)
        return floe__error_nomem();
    for (size_t k = 0; k < f->nv; k++)
        FLOE_TRY(to_str(r, f->v[k], P_NONE, &a[k]));
    *out = a;
    return 0;
}

static int put(floe_buf *b, floe_arena *a, const char *s)
{
    (void)a;
    if (!s)
        return floe__error_nomem();
    return floe__buf_puts(b, s);
}

/* ---------------------------------------------------------------- casts */

typedef struct {
    const char *spark, *sqlite, *kind;
} cast_target;

static const cast_target *cast_type(const char *t)
{
    static const cast_target m[] = {
        {"string", "TEXT", NULL},          {"varchar", "TEXT", NULL},
        {"char", "TEXT", NULL},            {"bigint", "INTEGER", "bigint"},
        {"long", "INTEGER", "bigint"},     {"int", "INTEGER", "int"},
        {"integer", "INTEGER", "int"},     {"smallint", "INTEGER", "smallint"},
        {"tinyint", "INTEGER", "tinyint"}, {"short", "INTEGER", "smallint"},
        {"byte", "INTEGER", "tinyint"},    {"boolean", "INTEGER", "boolean"},
        {"float", "REAL", NULL},           {"real", "REAL", NULL},
        {"double", "REAL", "double"},      {"binary", "BLOB", NULL},
        {"timestamp", "TEXT", "timestamp"}, {"timestamp_ntz", "TEXT", "timestamp"},
        {"timestamp_ltz", "TEXT", "timestamp"}, {"date", NULL, "date"}};
    for (size_t k = 0; k < FLOE_ARRAY_LEN(m); k++)
        if (!strcmp(t, m[k].spark))
            return &m[k];
    return NULL;
}

static int cast(pr *r, const sql_node *n, floe_buf *b)
{
    const sql_node *x = n->a;
    if ((n->f & SNF_NESTED) && x->k == SN_LIT && x->tok->kind == TK_WORD &&
        floe__sql_ieq(x->tok->text, "NULL"))
        return floe__buf_puts(b, "NULL"); /* a typed null list/map/struct */
    char *xs = NULL;
    FLOE_TRY(to_str(r, x, P_NONE, &xs));
    const char *t = n->s;
    if (!strcmp(t, "decimal") || !strcmp(t, "dec") || !strcmp(t, "numeric")) {
        int64_t p = n->i1 < 0 ? 10 : n->i1, s = n->i2 < 0 ? 0 : n->i2;
        char msg[120];
        if (p < 1 || p > 38) {
            snprintf(msg, sizeof msg,
                     "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision %d exceeds max "
                     "precision 38.",
                     (int)p);
            return err_at(r, n, FLOE_EINVALID, msg);
        }
        if (s > p) {
            snprintf(msg, sizeof msg, "Decimal scale (%d) cannot be greater than precision (%d).",
                     (int)s, (int)p);
            return err_at(r, n, FLOE_EINVALID, msg);
        }
        return floe__buf_printf(b, "floe_cast_decimal(%s, %d, %d)", xs, (int)p, (int)s);
    }
    const cast_target *ct = cast_type(t);
    if (ct && !strcmp(ct->sqlite ? ct->sqlite : "", "TEXT") && x->t.kind == ST_BOOLEAN)
        return floe__buf_printf(b, "CASE WHEN (%s) THEN 'true' WHEN NOT (%s) THEN 'false' END", xs,
                                xs); /* Spark's boolean text (SQLite's is 0/1) */
    if (!ct || (n->f & SNF_NESTED))
        return floe__sql_err_at(FLOE_EUNSUPPORTED, r->p->script, n->tok->pos,
                                "unsupported: CAST to this type");
    if (ct->kind && n->i1 < 0) /* Spark's CAST without ANSI mode: exec_spark.c */
        return floe__buf_printf(b, "floe_cast(%s, '%s')", xs, ct->kind);
    if (!ct->sqlite)
        return err_at(r, n, FLOE_EINVALID, "syntax error in CAST type");
    return floe__buf_printf(b, "CAST(%s AS %s)", xs, ct->sqlite);
}

/* ---------------------------------------------------------------- functions */

static const struct {
    const char *spark, *sqlite;
} renames[] = {
    {"array", "json_array"},
    {"named_struct", "json_object"},
    {"struct", "json_array"}, /* by position; see sql/nested.c */
    {"nvl", "ifnull"},
    {"if", "iif"},
    {"lcase", "lower"},
    {"ucase", "upper"},
    {"collect_list", "json_group_array"}, /* NULLs skipped: call() */
    {"collect_set", "json_group_array"},  /* DISTINCT, NULLs skipped */
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

/* Is printed text `s` one SQL string literal ('..', '' inside)? */
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

static int want_args(pr *r, const sql_node *f, size_t lo, size_t hi)
{
    if (f->nv < lo || f->nv > hi)
        return err_at(r, f, FLOE_EINVALID, "wrong number of arguments");
    return 0;
}

/* The Spark functions whose SQLite form is not a call of the same name.
 * Returns 1 when printed. */
static int special_call(pr *r, const sql_node *f, floe_buf *b)
{
    static const struct {
        const char *spark, *fmt;
    } parts[] = {{"year", "%Y"}, {"month", "%m"},  {"day", "%d"},    {"dayofmonth", "%d"},
                 {"hour", "%H"}, {"minute", "%M"}, {"second", "%S"}, {"dayofyear", "%j"}};
    const char *name = f->s;
    floe_arena *a = r->p->a;
    char **x = NULL;
    for (size_t k = 0; k < FLOE_ARRAY_LEN(parts); k++) {
        if (floe__sql_ieq(name, parts[k].spark)) {
            FLOE_TRY(want_args(r, f, 1, 1));
            FLOE_TRY(args_str(r, f, &x));
            FLOE_TRY(floe__buf_printf(b, "CAST(strftime('%s', %s) AS INTEGER)", parts[k].fmt, x[0]));
            return 1;
        }
    }
    if (floe__sql_ieq(name, "current_timestamp") || floe__sql_ieq(name, "now")) {
        FLOE_TRY(want_args(r, f, 0, 0));
        FLOE_TRY(floe__buf_puts(b, "strftime('%Y-%m-%d %H:%M:%f000', 'now')"));
        return 1;
    }
    if (floe__sql_ieq(name, "current_date")) {
        FLOE_TRY(want_args(r, f, 0, 0));
        FLOE_TRY(floe__buf_puts(b, "date('now')"));
        return 1;
    }
    static const char *const specials[] = {"date_add",       "date_sub", "datediff", "concat",
                                           "concat_ws",      "map",      "sequence", "count",
                                           "array_contains", NULL};
    int sp = -1;
    for (int k = 0; specials[k]; k++)
        if (floe__sql_ieq(name, specials[k]))
            sp = k;
    if (sp < 0)
        return 0;
    name = specials[sp];
    if (!strcmp(name, "count") && !((f->f & SNF_DISTINCT) && f->nv > 1))
        return 0;
    if (f->a || f->b) {
        if (strcmp(name, "count") != 0)
            return 0;
    }
    FLOE_TRY(args_str(r, f, &x));
    size_t n = f->nv;
    floe_buf o = FLOE_BUF_INIT;
    int rc = 0;
    if (!strcmp(name, "date_add") || !strcmp(name, "date_sub")) {
        rc = want_args(r, f, 2, 2);
        if (rc == 0)
            rc = floe__buf_printf(&o, "date(%s, (%s(%s)) || ' days')", x[0],
                                  name[5] == 'a' ? "" : "-", x[1]); /* '-1 days', not '+-1' */
    } else if (!strcmp(name, "datediff")) {
        rc = want_args(r, f, 2, 2);
        if (rc == 0)
            rc = floe__buf_printf(&o, "CAST(julianday(date(%s)) - julianday(date(%s)) AS INTEGER)",
                                  x[0], x[1]);
    } else if (!strcmp(name, "concat")) {
        rc = floe__buf_putc(&o, '(');
        for (size_t k = 0; k < n && rc == 0; k++)
            rc = floe__buf_printf(&o, "%s(%s)", k ? " || " : "", x[k]);
        if (rc == 0)
            rc = floe__buf_puts(&o, n ? ")" : "'')");
    } else if (!strcmp(name, "concat_ws")) {
        /* Spark skips NULL arguments: prefix each with the separator and
         * cut the first separator off */
        rc = want_args(r, f, 1, (size_t)-1);
        if (rc == 0)
            rc = floe__buf_puts(&o, "substr(''");
        for (size_t k = 1; k < n && rc == 0; k++) /* an array: its elements (fn_array.c) */
            rc = floe__buf_printf(&o,
                                  f->v[k]->t.kind == ST_NESTED && f->v[k]->t.nt &&
                                          !strncmp(f->v[k]->t.nt, "array<", 6)
                                      ? " || coalesce(floe_concat_ws_array(%s, %s), '')"
                                      : " || coalesce((%s) || (%s), '')",
                                  x[0], x[k]);
        if (rc == 0)
            rc = floe__buf_printf(&o, ", length(%s) + 1)", x[0]);
    } else if (!strcmp(name, "map")) {
        /* json_object(k, v, ...): JSON keys are text, so non-literal keys
         * are cast to text as Spark's to_json shows them */
        rc = floe__buf_puts(&o, "json_object(");
        for (size_t k = 0; k < n && rc == 0; k++) {
            if (k)
                rc = floe__buf_puts(&o, ", ");
            if (rc == 0)
                rc = k % 2 == 0 && !is_string_literal(x[k])
                         ? floe__buf_printf(&o, "CAST((%s) AS TEXT)", x[k])
                         : floe__buf_puts(&o, x[k]);
        }
        if (rc == 0)
            rc = floe__buf_putc(&o, ')');
    } else if (!strcmp(name, "sequence")) {
        /* sequence(start, stop [, step]) of integers: stop included, the
         * step 1 or -1 by default */
        rc = n < 2 || n > 3 ? err_at(r, f, FLOE_EINVALID, "sequence() expects 2 or 3 arguments")
                            : 0;
        const char *st =
            rc < 0    ? NULL
            : n == 3 ? x[2]
                     : floe__arena_sprintf(a, "CASE WHEN (%s) <= (%s) THEN 1 ELSE -1 END", x[0],
                                           x[1]);
        if (rc == 0)
            rc = st ? floe__buf_printf(
                          &o,
                          "(SELECT json_group_array(id) FROM (WITH RECURSIVE floe_seq(id) AS "
                          "(SELECT (%s) UNION ALL SELECT id + (%s) FROM floe_seq WHERE ((%s) > 0 "
                          "AND id + (%s) <= (%s)) OR ((%s) < 0 AND id + (%s) >= (%s))) SELECT id "
                          "FROM floe_seq))",
                          x[0], st, st, st, x[1], st, st, x[1])
                    : floe__error_nomem();
    } else if (!strcmp(name, "array_contains")) {
        rc = want_args(r, f, 2, 2);
        if (rc == 0)
            rc = floe__buf_printf(&o,
                                  "CASE WHEN (%s) IS NOT NULL THEN ((%s) IN (SELECT value FROM "
                                  "json_each(%s))) END",
                                  x[0], x[1], x[0]); /* a NULL array: NULL */
    } else if (!strcmp(name, "count")) {
        /* count(DISTINCT a, b): the distinct rows of which no value is NULL */
        rc = floe__buf_puts(&o, "count(DISTINCT CASE WHEN ");
        for (size_t k = 0; k < n && rc == 0; k++)
            rc = floe__buf_printf(&o, "%s(%s) IS NOT NULL", k ? " AND " : "", x[k]);
        if (rc == 0)
            rc = floe__buf_puts(&o, " THEN json_array(");
        for (size_t k = 0; k < n && rc == 0; k++)
            rc = floe__buf_printf(&o, "%s%s", k ? ", " : "", x[k]);
        if (rc == 0)
            rc = floe__buf_puts(&o, ") END)");
    }
    if (rc == 0)
        rc = put(b, a, o.ptr ? o.ptr : "");
    floe__buf_free(&o);
    FLOE_TRY(rc);
    return 1;
}

/* ORDER BY items: expr [DESC] [NULLS FIRST|LAST] (SQLite's defaults are
 * Spark's: ASC NULLS FIRST, DESC NULLS LAST). */
static int sorts(pr *r, sql_node *const *v, size_t n, floe_buf *b)
{
    for (size_t k = 0; k < n; k++) {
        const sql_node *s = v[k];
        if (k)
            FLOE_TRY(floe__buf_puts(b, ", "));
        FLOE_TRY(expr(r, s->a, P_NONE, b));
        if (s->f & SNF_DESC)
            FLOE_TRY(floe__buf_puts(b, " DESC"));
        if (s->f & SNF_NULLS_FIRST)
            FLOE_TRY(floe__buf_puts(b, " NULLS FIRST"));
        if (s->f & SNF_NULLS_LAST)
            FLOE_TRY(floe__buf_puts(b, " NULLS LAST"));
    }
    return 0;
}

static int winspec(pr *r, const sql_node *w, floe_buf *b)
{
    bool space = false;
    if (w->s) {
        FLOE_TRY(ident(r, w->s, true, b));
        space = true;
    }
    if (w->nv) {
        FLOE_TRY(floe__buf_puts(b, space ? " PARTITION BY " : "PARTITION BY "));
        FLOE_TRY(list(r, w->v, w->nv, b));
        space = true;
    }
    if (w->nw) {
        FLOE_TRY(floe__buf_puts(b, space ? " ORDER BY " : "ORDER BY "));
        FLOE_TRY(sorts(r, w->w, w->nw, b));
        space = true;
    }
    if (w->frame)
        FLOE_TRY(floe__buf_printf(b, "%s%s", space ? " " : "", w->frame));
    return 0;
}

static int call(pr *r, const sql_node *f, floe_buf *b)
{
    int rc = special_call(r, f, b);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    const char *name = f->s;
    for (size_t k = 0; k < FLOE_ARRAY_LEN(renames); k++)
        if (floe__sql_ieq(name, renames[k].spark))
            name = renames[k].sqlite;
    /* Spark's collect_list / collect_set leave NULLs out */
    bool set = floe__sql_ieq(f->s, "collect_set");
    char *skip = NULL;
    if (f->nv == 1 && (set || floe__sql_ieq(f->s, "collect_list")))
        FLOE_TRY(to_str(r, f->v[0], P_NONE, &skip));
    FLOE_TRY(ident(r, name, false, b));
    FLOE_TRY(floe__buf_putc(b, '('));
    if ((f->f & SNF_DISTINCT) || (set && skip))
        FLOE_TRY(floe__buf_puts(b, "DISTINCT "));
    if (f->f & SNF_STARARG)
        FLOE_TRY(floe__buf_putc(b, '*'));
    FLOE_TRY(list(r, f->v, f->nv, b));
    FLOE_TRY(floe__buf_putc(b, ')'));
    if (f->b || skip) {
        FLOE_TRY(floe__buf_puts(b, " FILTER (WHERE "));
        if (skip)
            FLOE_TRY(floe__buf_printf(b, "(%s) IS NOT NULL%s", skip, f->b ? " AND (" : ""));
        if (f->b)
            FLOE_TRY(expr(r, f->b, P_NONE, b));
        FLOE_TRY(floe__buf_puts(b, skip && f->b ? "))" : ")"));
    }
    if (f->a) {
        FLOE_TRY(floe__buf_puts(b, " OVER "));
        if (f->a->s && !f->a->nv && !f->a->nw && !f->a->frame)
            return ident(r, f->a->s, true, b);
        FLOE_TRY(floe__buf_putc(b, '('));
        FLOE_TRY(winspec(r, f->a, b));
        FLOE_TRY(floe__buf_putc(b, ')'));
    }
    return 0;
}

/* ---------------------------------------------------------------- access */

static const char *const int_maps[] = {"column_sizes",     "value_counts", "null_value_counts",
                                       "nan_value_counts", "lower_bounds", "upper_bounds",
                                       NULL};

/* x[..] / x.f chains on JSON-text values -> json_extract(base, path). */
static int access(pr *r, const sql_node *n, floe_buf *b)
{
    const sql_node *steps[64];
    size_t ns = 0;
    const sql_node *base = n;
    while ((base->k == SN_SUBSCRIPT || base->k == SN_FIELD) && ns < FLOE_ARRAY_LEN(steps)) {
        steps[ns++] = base;
        base = base->a;
    }
    if (base->k == SN_SUBSCRIPT || base->k == SN_FIELD)
        return err_at(r, n, FLOE_EUNSUPPORTED, "unsupported: access chain too long");
    bool int_map = false;
    if (base->k == SN_COL) {
        const char *last = base->names[base->nnames - 1];
        for (int k = 0; int_maps[k]; k++)
            int_map = int_map || floe__sql_ieq(last, int_maps[k]);
        const floe_sql_options *o = r->p->opt;
        if (!int_map && o->is_keyed_map_column)
            int_map = o->is_keyed_map_column(last, o->payload);
    }
    char *bs = NULL;
    FLOE_TRY(to_str(r, base, P_NONE, &bs));
    floe_buf lit = FLOE_BUF_INIT, path = FLOE_BUF_INIT;
    int rc = floe__buf_putc(&lit, '$');
    for (size_t k = ns; k-- > 0 && rc == 0;) {
        const sql_node *s = steps[k];
        const sql_node *ix = s->b;
        if (s->k == SN_FIELD) {
            rc = path_label(r, s, &lit, s->s);
        } else if (ix->k == SN_LIT && ix->tok->kind == TK_STRING) {
            rc = path_label(r, ix, &lit, ix->tok->text);
        } else if (ix->k == SN_LIT && ix->tok->kind == TK_NUMBER && !(ix->f & SNF_NEG) &&
                   floe__sql_all_digits(ix->tok->text)) {
            rc = int_map ? floe__buf_printf(&lit, ".\"%s\"", ix->tok->text)
                         : floe__buf_printf(&lit, "[%s]", ix->tok->text);
        } else {
            /* a computed key: '$."' || (expr) || '"' */
            char *inner = NULL;
            rc = to_str(r, ix, P_NONE, &inner);
            if (rc == 0 && path.len)
                rc = floe__buf_puts(&path, " || ");
            if (rc == 0)
                rc = floe__sql_quote_string(&path, lit.ptr ? lit.ptr : "");
            if (rc == 0)
                rc = floe__buf_printf(&path, " || '.\"' || (%s) || '\"'", inner);
            floe__buf_clear(&lit);
        }
        int_map = false;
    }
    if (rc == 0 && (lit.len || !path.len)) {
        if (path.len)
            rc = floe__buf_puts(&path, " || ");
        if (rc == 0)
            rc = floe__sql_quote_string(&path, lit.ptr ? lit.ptr : "");
    }
    if (rc == 0)
        rc = floe__buf_printf(b, "json_extract(%s, %s)", bs, path.ptr);
    floe__buf_free(&lit);
    floe__buf_free(&path);
    return rc;
}

/* ---------------------------------------------------------------- expressions */

static int like(pr *r, const sql_node *n, floe_buf *b)
{
    bool neg = n->f & SNF_NOT;
    FLOE_TRY(expr(r, n->a, P_CMP, b));
    if (n->f & SNF_RLIKE) {
        FLOE_TRY(floe__buf_puts(b, neg ? " NOT REGEXP " : " REGEXP "));
        return expr(r, n->v[0], P_CMP, b);
    }
    FLOE_TRY(floe__buf_puts(b, neg ? " NOT LIKE " : " LIKE "));
    if (!(n->f & (SNF_ILIKE | SNF_ANY | SNF_LIKEALL))) {
        FLOE_TRY(expr(r, n->v[0], P_CMP, b));
        if (n->b) {
            FLOE_TRY(floe__buf_puts(b, " ESCAPE "));
            FLOE_TRY(expr(r, n->b, P_CMP, b));
        }
        return 0;
    }
    /* After NOT, ANY and ALL swap: Spark's `x NOT LIKE ANY (a, b)` is "some
     * pattern does not match", SQL's NOT (x LIKE ALL (a, b)). */
    int mode = n->f & SNF_ILIKE ? 4 : 0;
    if (n->f & (SNF_ANY | SNF_LIKEALL))
        mode |= ((n->f & SNF_LIKEALL) != 0) != neg ? 2 : 1;
    if (n->b)
        return err_at(r, n->b, FLOE_EUNSUPPORTED, "unsupported: ESCAPE with ILIKE or LIKE ANY/ALL");
    FLOE_TRY(floe__buf_printf(b, "floe_like_pattern(%d, ", mode));
    FLOE_TRY(list(r, n->v, n->nv, b));
    return floe__buf_putc(b, ')');
}

/* ---------------------------------------------------------------- intervals */

#define IV_VALUE                                                                                   \
    "unsupported: an interval value (INTERVAL is an operand of a date or timestamp + or -)"

/* An interval operand: an INTERVAL literal, parenthesised, negated or a
 * sum of two of one kind; its months, microseconds and SNF_IV_* flags. */
static bool interval_of(const sql_node *n, int64_t *months, int64_t *us, int *f)
{
    while (n->k == SN_PAREN)
        n = n->a;
    if (n->k == SN_INTERVAL) {
        *months = n->i1;
        *us = n->i2;
        *f = n->f & (SNF_IV_YM | SNF_IV_SUBDAY);
        return true;
    }
    if (n->k == SN_UN && (!strcmp(n->s, "-") || !strcmp(n->s, "+")) &&
        interval_of(n->a, months, us, f)) {
        if (n->s[0] == '-' && (*months == INT64_MIN || *us == INT64_MIN))
            return false;
        if (n->s[0] == '-') {
            *months = -*months;
            *us = -*us;
        }
        return true;
    }
    int64_t m2, u2;
    int f2;
    if (n->k == SN_BIN && (!strcmp(n->s, "+") || !strcmp(n->s, "-")) &&
        interval_of(n->a, months, us, f) && interval_of(n->b, &m2, &u2, &f2) &&
        (*f & SNF_IV_YM) == (f2 & SNF_IV_YM) && m2 != INT64_MIN && u2 != INT64_MIN) {
        bool minus = n->s[0] == '-';
        *f |= f2;
        return !__builtin_add_overflow(*months, minus ? -m2 : m2, months) &&
               !__builtin_add_overflow(*us, minus ? -u2 : u2, us);
    }
    return false;
}

/* x + interval, interval + x, x - interval: floe_add_interval(x, months,
 * microseconds, 'd' when a date stays a date (a year-month interval or
 * whole days, as Spark's DateAdd / DateAddYMInterval) else 't').
 * Returns 1 when printed, 0 when no operand is an interval. */
static int interval_arith(pr *r, const sql_node *n, floe_buf *b)
{
    int64_t months, us;
    int f;
    const sql_node *x = NULL;
    bool minus = n->s[0] == '-';
    if (interval_of(n->b, &months, &us, &f))
        x = n->a;
    else if (!minus && interval_of(n->a, &months, &us, &f))
        x = n->b;
    else if (interval_of(n->a, &months, &us, &f))
        return err_at(r, n, FLOE_EUNSUPPORTED, "unsupported: an interval minus a value");
    if (!x)
        return 0;
    if (interval_of(x, &(int64_t){0}, &(int64_t){0}, &(int){0}))
        return err_at(r, n, FLOE_EUNSUPPORTED, IV_VALUE);
    if (minus && (months == INT64_MIN || us == INT64_MIN))
        return err_at(r, n, FLOE_EINVALID, "interval out of range");
    bool text = x->k == SN_LIT && x->tok->kind == TK_STRING; /* Spark casts it to a timestamp */
    FLOE_TRY(floe__buf_puts(b, "floe_add_interval("));
    FLOE_TRY(expr(r, x, P_NONE, b));
    FLOE_TRY(floe__buf_printf(b, ", %lld, %lld, '%c')", (long long)(minus ? -months : months),
                              (long long)(minus ? -us : us),
                              text || (f & SNF_IV_SUBDAY) ? 't' : 'd'));
    return 1;
}

static int binop(pr *r, const sql_node *n, int prec, const char *op, floe_buf *b)
{
    FLOE_TRY(expr(r, n->a, prec, b));
    FLOE_TRY(floe__buf_printf(b, " %s ", op));
    return expr(r, n->b, prec + 1, b);
}

/* The SQLite precedence a node prints at. */
static int prec_of(const sql_node *n)
{
    switch (n->k) {
    case SN_BIN: {
        const char *s = n->s;
        if (!strcmp(s, "OR"))
            return P_OR;
        if (!strcmp(s, "AND"))
            return P_AND;
        if (!strcmp(s, "=") || !strcmp(s, "==") || !strcmp(s, "<>") || !strcmp(s, "!=") ||
            !strcmp(s, "<=>"))
            return P_EQ;
        if (!strcmp(s, "<") || !strcmp(s, "<=") || !strcmp(s, ">") || !strcmp(s, ">="))
            return P_CMP;
        if (!strcmp(s, "&") || !strcmp(s, "|"))
            return P_BIT;
        if (!strcmp(s, "+") || !strcmp(s, "-") || !strcmp(s, "^"))
            return P_ADD;
        if (!strcmp(s, "*") || !strcmp(s, "/") || !strcmp(s, "%"))
            return P_MUL;
        if (!strcmp(s, "||"))
            return P_CAT;
        return P_PRIM; /* DIV */
    }
    case SN_UN: return strcmp(n->s, "NOT") ? P_UN : P_NOT;
    case SN_LIKE:
    case SN_IN:
    case SN_BETWEEN:
    case SN_IS: return P_EQ;
    case SN_LIT: return n->f & SNF_NEG ? P_UN : P_PRIM;
    default: return P_PRIM;
    }
}

/* ---------------------------------------------------------------- typed forms (bind.c) */

static bool num_kind(sql_type t)
{
    return t.kind >= ST_TINYINT && t.kind <= ST_DECIMAL;
}

/* An operand of typed arithmetic: a string operand is read as a double
 * (Spark's implicit cast, ANSI mode off). */
static int operand(pr *r, const sql_node *x, int min, bool as_double, floe_buf *b)
{
    if (!as_double || x->t.kind != ST_STRING)
        return expr(r, x, min, b);
    FLOE_TRY(floe__buf_puts(b, "floe_cast("));
    FLOE_TRY(expr(r, x, P_NONE, b));
    return floe__buf_puts(b, ", 'double')");
}

static const sql_node *unparen(const sql_node *n)
{
    while (n->k == SN_PAREN)
        n = n->a;
    return n;
}

/* Is typed decimal n, wider than a double, printed where its exact text
 * would compare as text (WHERE, ORDER BY, a function's argument)? */
static bool as_real(const pr *r, const sql_node *n)
{
    return n->t.kind == ST_DECIMAL && n->t.p > 15 && r->exact != n;
}

/* An operand of exact decimal arithmetic: its exact text may stand. */
static int exact_operand(pr *r, const sql_node *x, floe_buf *b)
{
    const sql_node *outer = r->exact;
    r->exact = unparen(x);
    int rc = expr(r, x, P_NONE, b);
    r->exact = outer;
    return rc;
}

/* Arithmetic the binder typed: exact decimals (floe_decimal_op at the
 * result's precision and scale), TINYINT/SMALLINT/INT results wrapped to
 * their width as Spark's (two's complement, ANSI mode off), a string
 * operand read as a double. Returns 1 when printed. */
static int typed_arith(pr *r, const sql_node *n, floe_buf *b)
{
    const char *op = n->s;
    sql_type t = n->t;
    bool arith = !strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/") ||
                 !strcmp(op, "%");
    if (!arith)
        return 0;
    if (t.kind == ST_DECIMAL && num_kind(n->a->t) && num_kind(n->b->t)) {
        bool real = as_real(r, n);
        FLOE_TRY(floe__buf_printf(b, "%sfloe_decimal_op('%s', ", real ? "CAST(" : "", op));
        FLOE_TRY(exact_operand(r, n->a, b));
        FLOE_TRY(floe__buf_puts(b, ", "));
        FLOE_TRY(exact_operand(r, n->b, b));
        FLOE_TRY(floe__buf_printf(b, ", %d, %d)%s", t.p, t.s, real ? " AS REAL)" : ""));
        return 1;
    }
    int bits = t.kind == ST_INT ? 32 : t.kind == ST_SMALLINT ? 16 : t.kind == ST_TINYINT ? 8 : 0;
    if (bits && strcmp(op, "/") != 0 && strcmp(op, "%") != 0) {
        unsigned long long half = 1ULL << (bits - 1);
        FLOE_TRY(floe__buf_puts(b, "((((")); /* ((v + 2^(bits-1)) & (2^bits - 1)) - 2^(bits-1) */
        FLOE_TRY(binop(r, n, P_ADD + (strcmp(op, "*") ? 0 : 1), op, b));
        FLOE_TRY(floe__buf_printf(b, ") + %llu) & %llu) - %llu)", half, 2 * half - 1, half));
        return 1;
    }
    bool str = (n->a->t.kind == ST_STRING) != (n->b->t.kind == ST_STRING);
    if (t.kind == ST_DOUBLE && str) {
        int p = prec_of(n);
        FLOE_TRY(operand(r, n->a, p, true, b));
        FLOE_TRY(floe__buf_printf(b, !strcmp(op, "/") ? " * 1.0 / " : " %s ", op));
        FLOE_TRY(operand(r, n->b, p + 1, true, b));
        return 1;
    }
    return 0;
}

/* Functions whose result the binder typed: typeof() of a typed argument,
 * round/bround/ceil/floor of decimals (floe_decimal_round), ceil/floor of
 * other numbers as BIGINT, avg/sum of decimals at Spark's result scale,
 * try_add and friends at INT width. Returns 1 when printed. */
static int call(pr *r, const sql_node *f, floe_buf *b);
static int typed_call(pr *r, const sql_node *f, floe_buf *b)
{
    const char *name = f->s;
    sql_type t = f->t, a0 = f->nv ? f->v[0]->t : (sql_type){0, 0, 0, 0, NULL};
    if (floe__sql_ieq(name, "typeof") && f->nv == 1 && a0.kind != ST_NONE && !f->a &&
        (a0.kind != ST_NESTED || floe__sql_type_name(r->p, a0))) {
        const char *tn = floe__sql_type_name(r->p, a0);
        if (!tn)
            return floe__error_nomem();
        FLOE_TRY(floe__sql_quote_string(b, tn));
        return 1;
    }
    bool rnd = floe__sql_ieq(name, "round") || floe__sql_ieq(name, "bround");
    bool ceil = floe__sql_ieq(name, "ceil") || floe__sql_ieq(name, "ceiling");
    bool floor = floe__sql_ieq(name, "floor");
    bool whole = a0.kind >= ST_TINYINT && a0.kind <= ST_BIGINT;
    if ((rnd || ceil || floor) && !f->a && !f->b && num_kind(a0) && t.kind != ST_NONE &&
        (a0.kind == ST_DECIMAL || floe__sql_ieq(name, "bround") || (rnd && whole))) {
        /* an integral round is an integer again (round(155, -1) = 160) */
        int mode = ceil ? 2 : floor ? 3 : floe__sql_ieq(name, "bround") ? 1 : 0;
        char *x = NULL, *sc = NULL;
        const sql_node *outer = r->exact;
        r->exact = unparen(f->v[0]); /* exact text in, as for arithmetic */
        int rc = to_str(r, f->v[0], P_NONE, &x);
        r->exact = outer;
        FLOE_TRY(rc);
        if (f->nv == 2)
            FLOE_TRY(to_str(r, f->v[1], P_NONE, &sc));
        bool real = as_real(r, f);
        FLOE_TRY(floe__buf_printf(b, "%sfloe_decimal_round(%s, %s, %d, %d)%s",
                                  whole  ? "CAST("
                                  : real ? "CAST("
                                         : "",
                                  x, sc ? sc : "0", mode, t.kind == ST_DECIMAL ? t.p : 0,
                                  whole  ? " AS INTEGER)"
                                  : real ? " AS REAL)"
                                         : ""));
        return 1;
    }
    if ((ceil || floor) && t.kind == ST_BIGINT && a0.kind != ST_BIGINT) {
        FLOE_TRY(floe__buf_puts(b, "CAST("));
        FLOE_TRY(call(r, f, b));
        FLOE_TRY(floe__buf_puts(b, " AS INTEGER)"));
        return 1;
    }
    /* avg's scale is s + 4; a windowed sum() loses its scale's subtype in
     * SQLite's window machinery (a plain sum keeps it: exec_funcs.c) */
    if ((floe__sql_ieq(name, "avg") || floe__sql_ieq(name, "mean") ||
         (floe__sql_ieq(name, "sum") && f->a)) &&
        t.kind == ST_DECIMAL && !(f->f & SNF_DISTINCT)) {
        bool real = as_real(r, f);
        FLOE_TRY(floe__buf_puts(b, real ? "CAST(floe_cast_decimal(" : "floe_cast_decimal("));
        FLOE_TRY(call(r, f, b));
        FLOE_TRY(floe__buf_printf(b, ", %d, %d)%s", t.p, t.s, real ? " AS REAL)" : ""));
        return 1;
    }
    if ((floe__sql_ieq(name, "try_add") || floe__sql_ieq(name, "try_subtract") ||
         floe__sql_ieq(name, "try_multiply")) &&
        (t.kind == ST_INT || t.kind == ST_SMALLINT || t.kind == ST_TINYINT)) {
        FLOE_TRY(floe__buf_puts(b, "floe_int_fit("));
        FLOE_TRY(call(r, f, b));
        FLOE_TRY(floe__buf_printf(b, ", %d)",
                                  t.kind == ST_INT        ? 32
                                  : t.kind == ST_SMALLINT ? 16
                                                          : 8));
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- generators, lambdas */

static const char *source_text(pr *r, const sql_node *n);

static const char *const generators[] = {"explode", "explode_outer", "posexplode",
                                         "posexplode_outer", NULL};

static bool prefix_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != *prefix)
            return false;
    return true;
}

static bool is_generator_name(const char *s)
{
    for (int k = 0; generators[k]; k++)
        if (floe__sql_ieq(s, generators[k]))
            return true;
    return false;
}

static bool is_generator(const sql_node *n)
{
    return n->k == SN_FUNC && !n->a && is_generator_name(n->s);
}

/* What Spark's analyzer (not its parser) rejects, at script position
 * `pos`: FLOE_EINVALID of kind FLOE_KIND_ANALYSIS (AnalysisException). */
static int analysis_at(pr *r, size_t pos, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    floe__sql_err_at(FLOE_EINVALID, r->p->script, pos, "%s", msg);
    return floe__error_set_kind(FLOE_KIND_ANALYSIS);
}

static int analysis(pr *r, const sql_node *at, const char *fmt, const char *a, const char *b)
{
    return analysis_at(r, at->pos, fmt, a ? a : "", b ? b : "");
}

/* A generator outside a select item's top: Spark's UNSUPPORTED_GENERATOR. */
static int generator_misplaced(pr *r, const sql_node *g)
{
    const char *src = source_text(r, r->in_item ? r->in_item : g);
    if (!src)
        return floe__error_nomem();
    if (r->in_item)
        return analysis(r, g,
                        "[UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS] The generator is not "
                        "supported: nested in expressions \"%s\"%s.",
                        src, NULL);
    return analysis(r, g,
                    "[UNSUPPORTED_GENERATOR.OUTSIDE_SELECT] The generator is not supported: "
                    "outside the SELECT clause, found: \"%s\"%s.",
                    src, NULL);
}

/* A fresh alias number. */
static int fresh(pr *r)
{
    return ++r->nvars;
}

static bool lambda_ok(const sql_node *l, size_t lo, size_t hi)
{
    return l && l->k == SN_LAMBDA && l->nnames >= lo && l->nnames <= hi;
}

static int lambda_arity(pr *r, const sql_node *f, const sql_node *l, size_t want)
{
    if (!l || l->k != SN_LAMBDA) {
        const char *src = source_text(r, f);
        if (!src)
            return floe__error_nomem();
        return analysis(r, l ? l : f,
                        "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve \"%s\" due to "
                        "data type mismatch: %s expects a lambda function argument.",
                        src, f->s);
    }
    char want_s[24], got_s[24];
    snprintf(want_s, sizeof want_s, "%zu", want);
    snprintf(got_s, sizeof got_s, "%zu", l->nnames);
    return analysis_at(r, l->pos,
                       "[INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH] Invalid lambda "
                       "function call. A higher order function expects %s arguments, but "
                       "got %s.",
                       want_s, got_s);
}

/* The body of lambda l with its parameters bound to sql[0..] (in order). */
static int lambda_body(pr *r, const sql_node *l, const char *const *sql, int min, char **out)
{
    size_t mark = r->nbound;
    int rc = 0;
    for (size_t k = 0; k < l->nnames && rc == 0; k++)
        rc = bind_name(r, l->names[k], NULL, sql[k]);
    if (rc == 0)
        rc = to_str(r, l->a, min, out);
    r->nbound = mark;
    return rc;
}

static bool is_bool(const sql_node *e);

/* A value as an element of a JSON array: booleans as JSON true/false. */
static int json_elem(pr *r, const sql_node *body, const char *sql, const char **out)
{
    *out = is_bool(body) ? floe__arena_sprintf(r->p->a,
                                               "json(CASE (%s) WHEN 1 THEN 'true' WHEN 0 THEN "
                                               "'false' END)",
                                               sql)
                         : sql;
    return *out ? 0 : floe__error_nomem();
}

/* Spark's higher-order functions over arrays, as correlated subqueries
 * over floe_explode (vtab_explode.c): transform, filter, exists, forall,
 * aggregate / reduce. A NULL array gives NULL. Returns 1 when printed. */
/* 1 (printed) or the error of printing. */
static int printed(int rc)
{
    return rc < 0 ? rc : 1;
}

static int hof_call(pr *r, const sql_node *f, floe_buf *b)
{
    static const char *const hofs[] = {
        "transform",  "filter",           "exists",         "forall",   "aggregate", "reduce",
        "map_filter", "transform_values", "transform_keys", "zip_with", NULL};
    int which = -1;
    for (int k = 0; hofs[k]; k++)
        if (floe__sql_ieq(f->s, hofs[k]))
            which = k;
    bool has_lambda = false;
    for (size_t k = 0; k < f->nv; k++)
        has_lambda = has_lambda || f->v[k]->k == SN_LAMBDA;
    if (is_generator(f))
        return generator_misplaced(r, f);
    if (which < 0) {
        if (!has_lambda)
            return 0;
        const char *src = source_text(r, f);
        if (!src)
            return floe__error_nomem();
        if (f->s && (floe__sql_ieq(f->s, "map_zip_with") || floe__sql_ieq(f->s, "array_sort")))
            return err_at(r, f, FLOE_EUNSUPPORTED,
                          "unsupported: this higher-order function (floe has transform, filter, "
                          "exists, forall, aggregate, reduce, zip_with, map_filter, "
                          "transform_values, transform_keys)");
        return analysis(r, f,
                        "[INVALID_LAMBDA_FUNCTION_CALL.NON_HIGHER_ORDER_FUNCTION] A lambda "
                        "function should only be used in a higher order function. However, its "
                        "call \"%s\" is not a higher order function.%s",
                        src, NULL);
    }
    if (f->a || f->b || (f->f & (SNF_DISTINCT | SNF_STARARG)))
        return 0;
    bool agg = which == 4 || which == 5, zip = which == 9;
    size_t lo = agg || zip ? 3 : 2, hi = agg ? 4 : lo;
    if (f->nv < lo || f->nv > hi) {
        char lo_s[8], got_s[24];
        snprintf(lo_s, sizeof lo_s, "%s", agg ? "[3, 4]" : zip ? "3" : "2");
        snprintf(got_s, sizeof got_s, "%zu", f->nv);
        return analysis_at(r, f->pos,
                           "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `%s` requires %s "
                           "parameters but the actual number is %s.",
                           hofs[which], lo_s, got_s);
    }
    if (f->v[0]->k == SN_LAMBDA)
        return lambda_arity(r, f, NULL, 1);
    for (size_t k = 1; k < f->nv; k++) {
        bool want = !((agg || zip) && k == 1);
        if (want != (f->v[k]->k == SN_LAMBDA))
            return lambda_arity(r, f, want ? f->v[k] : NULL, 1);
    }
    char *arr = NULL;
    FLOE_TRY(to_str(r, f->v[0], P_NONE, &arr));
    int n = fresh(r);
    floe_arena *a = r->p->a;
    const char *val = floe__arena_sprintf(a, "floe_l%d.floe_val", n);
    const char *pos = floe__arena_sprintf(a, "floe_l%d.floe_pos", n);
    if (!val || !pos)
        return floe__error_nomem();
    const char *params[2] = {val, pos};
    const sql_node *l = f->v[agg || zip ? 2 : 1];
    char *body = NULL;
    switch (which) {
    case 0:   /* transform(arr, x [, i] -> e) */
    case 1: { /* filter(arr, x [, i] -> p) */
        if (!lambda_ok(l, 1, 2))
            return lambda_arity(r, f, l, 1);
        FLOE_TRY(lambda_body(r, l, params, P_NONE, &body));
        if (which == 0) {
            const char *e = NULL;
            FLOE_TRY(json_elem(r, l->a, body, &e));
            return printed(
                floe__buf_printf(b,
                                 "CASE WHEN (%s) IS NULL THEN NULL ELSE (SELECT "
                                 "json_group_array(%s) FROM floe_explode(%s) AS floe_l%d) END",
                                 arr, e, arr, n));
        }
        return printed(
            floe__buf_printf(b,
                             "CASE WHEN (%s) IS NULL THEN NULL ELSE (SELECT "
                             "json_group_array(floe_l%d.floe_val) FROM floe_explode(%s) AS "
                             "floe_l%d WHERE (%s)) END",
                             arr, n, arr, n, body));
    }
    case 2:   /* exists(arr, x -> p): three-valued, as Spark 3.5 */
    case 3: { /* forall(arr, x -> p) */
        if (!lambda_ok(l, 1, 1))
            return lambda_arity(r, f, l, 1);
        FLOE_TRY(lambda_body(r, l, params, P_NONE, &body));
        return printed(
            floe__buf_printf(b,
                             "CASE WHEN (%s) IS NULL THEN NULL ELSE (SELECT CASE WHEN %s THEN "
                             "%d WHEN count(*) > count(floe_p) THEN NULL ELSE %d END FROM "
                             "(SELECT (%s) AS floe_p FROM floe_explode(%s) AS floe_l%d)) END",
                             arr, which == 2 ? "max(floe_p) = 1" : "min(floe_p) = 0",
                             which == 2 ? 1 : 0, which == 2 ? 0 : 1, body, arr, n));
    }
    case 6:   /* map_filter(m, (k, v) -> p) */
    case 7:   /* transform_values(m, (k, v) -> e) */
    case 8: { /* transform_keys(m, (k, v) -> e) */
        if (!lambda_ok(l, 2, 2))
            return lambda_arity(r, f, l, 2);
        const char *key = floe__arena_sprintf(a, "floe_l%d.floe_key", n);
        if (!key)
            return floe__error_nomem();
        const char *kv[2] = {key, val};
        FLOE_TRY(lambda_body(r, l, kv, P_NONE, &body));
        const char *e = NULL;
        FLOE_TRY(json_elem(r, l->a, body, &e));
        const char *k = which == 8 ? floe__arena_sprintf(a, "CAST((%s) AS TEXT)", body) : key;
        if (!k)
            return floe__error_nomem();
        return printed(floe__buf_printf(
            b,
            "CASE WHEN (%s) IS NULL THEN NULL ELSE (SELECT json_group_object(%s, %s) FROM "
            "floe_explode(%s) AS floe_l%d%s%s%s) END",
            arr, k, which == 7 ? e : val, arr, n, which == 6 ? " WHERE (" : "",
            which == 6 ? body : "", which == 6 ? ")" : ""));
    }
    case 9: { /* zip_with(a, b, (x, y) -> e): to the longer one's length, NULL-padded */
        if (!lambda_ok(l, 2, 2))
            return lambda_arity(r, f, l, 2);
        char *other = NULL;
        FLOE_TRY(to_str(r, f->v[1], P_NONE, &other));
        const char *y = floe__arena_sprintf(a, "floe_m%d.floe_val", n);
        if (!y)
            return floe__error_nomem();
        const char *xy[2] = {val, y};
        FLOE_TRY(lambda_body(r, l, xy, P_NONE, &body));
        const char *e = NULL;
        FLOE_TRY(json_elem(r, l->a, body, &e));
        return printed(floe__buf_printf(
            b,
            "CASE WHEN (%s) IS NULL OR (%s) IS NULL THEN NULL ELSE (SELECT json_group_array(%s) "
            "FROM floe_explode(CASE WHEN json_array_length(%s) >= json_array_length(%s) THEN %s "
            "ELSE %s END) AS floe_z%d LEFT JOIN floe_explode(%s) AS floe_l%d ON floe_l%d.floe_pos "
            "= floe_z%d.floe_pos LEFT JOIN floe_explode(%s) AS floe_m%d ON floe_m%d.floe_pos = "
            "floe_z%d.floe_pos) END",
            arr, other, e, arr, other, arr, other, n, arr, n, n, n, other, n, n, n));
    }
    default: { /* aggregate(arr, start, (acc, x) -> merge [, acc -> finish]) */
        if (!lambda_ok(l, 2, 2))
            return lambda_arity(r, f, l, 2);
        const sql_node *fin = f->nv == 4 ? f->v[3] : NULL;
        if (fin && !lambda_ok(fin, 1, 1))
            return lambda_arity(r, f, fin, 1);
        char *start = NULL, *done = NULL;
        FLOE_TRY(to_str(r, f->v[1], P_NONE, &start));
        const char *acc = floe__arena_sprintf(a, "floe_a%d.floe_acc", n);
        if (!acc)
            return floe__error_nomem();
        const char *merge_params[2] = {acc, val};
        FLOE_TRY(lambda_body(r, l, merge_params, P_NONE, &body));
        if (fin)
            FLOE_TRY(lambda_body(r, fin, &acc, P_NONE, &done));
        return printed(floe__buf_printf(
            b,
            "CASE WHEN (%s) IS NULL THEN NULL ELSE (WITH RECURSIVE floe_a%d(floe_i, floe_acc) AS "
            "(SELECT 0, (%s) UNION ALL SELECT floe_a%d.floe_i + 1, (%s) FROM floe_a%d, "
            "floe_explode(%s) AS floe_l%d WHERE floe_l%d.floe_pos = floe_a%d.floe_i) SELECT %s "
            "FROM floe_a%d ORDER BY floe_i DESC LIMIT 1) END",
            arr, n, start, n, body, n, arr, n, n, n, done ? done : acc, n));
    }
    }
}

static int expr_body(pr *r, const sql_node *n, floe_buf *b)
{
    switch (n->k) {
    case SN_LIT: return literal(r, n, b);
    case SN_TIMELIT: return floe__sql_quote_string(b, n->s);
    case SN_INTERVAL: return err_at(r, n, FLOE_EUNSUPPORTED, IV_VALUE);
    case SN_COL: return column(r, n, b);
    case SN_LAMBDA:
        return analysis_at(r, n->pos,
                           "[INVALID_LAMBDA_FUNCTION_CALL.NON_HIGHER_ORDER_FUNCTION] A lambda "
                           "function should only be used in a higher order function.");
    case SN_FUNC: {
        int rc = hof_call(r, n, b);
        if (rc != 0)
            return rc < 0 ? rc : 0;
        rc = typed_call(r, n, b);
        return rc != 0 ? (rc < 0 ? rc : 0) : call(r, n, b);
    }
    case SN_CAST: return cast(r, n, b);
    case SN_PAREN:
        FLOE_TRY(floe__buf_putc(b, '('));
        FLOE_TRY(expr(r, n->a, P_NONE, b));
        return floe__buf_putc(b, ')');
    case SN_ROW:
        FLOE_TRY(floe__buf_putc(b, '('));
        FLOE_TRY(list(r, n->v, n->nv, b));
        return floe__buf_putc(b, ')');
    case SN_SUBQ:
    case SN_EXISTS:
        FLOE_TRY(floe__buf_puts(b, n->k == SN_EXISTS ? "EXISTS (" : "("));
        FLOE_TRY(query(r, n->a, b));
        return floe__buf_putc(b, ')');
    case SN_SUBSCRIPT:
    case SN_FIELD: return access(r, n, b);
    case SN_CASE:
        FLOE_TRY(floe__buf_puts(b, "CASE"));
        if (n->a) {
            FLOE_TRY(floe__buf_putc(b, ' '));
            FLOE_TRY(expr(r, n->a, P_NONE, b));
        }
        for (size_t k = 0; k + 1 < n->nv; k += 2) {
            FLOE_TRY(floe__buf_puts(b, " WHEN "));
            FLOE_TRY(expr(r, n->v[k], P_NONE, b));
            FLOE_TRY(floe__buf_puts(b, " THEN "));
            FLOE_TRY(expr(r, n->v[k + 1], P_NONE, b));
        }
        if (n->b) {
            FLOE_TRY(floe__buf_puts(b, " ELSE "));
            FLOE_TRY(expr(r, n->b, P_NONE, b));
        }
        return floe__buf_puts(b, " END");
    case SN_UN:
        if (!strcmp(n->s, "NOT")) {
            FLOE_TRY(floe__buf_puts(b, "NOT "));
            return expr(r, n->a, P_NOT, b);
        }
        FLOE_TRY(floe__buf_puts(b, n->s));
        if (n->a->k == SN_UN || (n->a->k == SN_LIT && (n->a->f & SNF_NEG)))
            FLOE_TRY(floe__buf_putc(b, ' ')); /* - -1, not --1 (a comment) */
        return expr(r, n->a, P_UN, b);
    case SN_LIKE: return like(r, n, b);
    case SN_BETWEEN:
        FLOE_TRY(expr(r, n->a, P_CMP, b));
        FLOE_TRY(floe__buf_puts(b, n->f & SNF_NOT ? " NOT BETWEEN " : " BETWEEN "));
        FLOE_TRY(expr(r, n->b, P_CMP, b));
        FLOE_TRY(floe__buf_puts(b, " AND "));
        return expr(r, n->c, P_CMP, b);
    case SN_IN:
        FLOE_TRY(expr(r, n->a, P_CMP, b));
        FLOE_TRY(floe__buf_puts(b, n->f & SNF_NOT ? " NOT IN (" : " IN ("));
        FLOE_TRY(n->b ? query(r, n->b, b) : list(r, n->v, n->nv, b));
        return floe__buf_putc(b, ')');
    case SN_IS: {
        bool neg = n->f & SNF_NOT;
        FLOE_TRY(expr(r, n->a, P_CMP, b));
        if (!strcmp(n->s, "DISTINCT")) {
            /* IS [NOT] DISTINCT FROM: SQLite's IS NOT / IS */
            FLOE_TRY(floe__buf_puts(b, neg ? " IS " : " IS NOT "));
            return expr(r, n->b, P_CMP, b);
        }
        return floe__buf_printf(b, " IS %s%s", neg ? "NOT " : "", n->s);
    }
    case SN_BIN: {
        const char *s = n->s;
        int p = prec_of(n);
        /* date/timestamp +|- INTERVAL, then the binder's typed arithmetic */
        int rc = !strcmp(s, "+") || !strcmp(s, "-") ? interval_arith(r, n, b) : 0;
        if (rc == 0)
            rc = typed_arith(r, n, b);
        if (rc != 0)
            return rc < 0 ? rc : 0;
        if (!strcmp(s, "/")) {
            /* Spark's '/' is a double division (7 / 2 = 3.5) */
            FLOE_TRY(expr(r, n->a, P_MUL, b));
            FLOE_TRY(floe__buf_puts(b, " * 1.0 / "));
            return expr(r, n->b, P_MUL + 1, b);
        }
        if (!strcmp(s, "DIV")) {
            /* Spark's integral division: the quotient truncated */
            FLOE_TRY(floe__buf_puts(b, "CAST("));
            FLOE_TRY(binop(r, n, P_MUL, "/", b));
            return floe__buf_puts(b, " AS INTEGER)");
        }
        if (!strcmp(s, "^")) {
            /* bitwise xor: (a | b) - (a & b) */
            FLOE_TRY(floe__buf_putc(b, '('));
            FLOE_TRY(binop(r, n, P_BIT, "|", b));
            FLOE_TRY(floe__buf_puts(b, ") - ("));
            FLOE_TRY(binop(r, n, P_BIT, "&", b));
            return floe__buf_putc(b, ')');
        }
        if (!strcmp(s, "==") || !strcmp(s, "="))
            s = "=";
        else if (!strcmp(s, "!="))
            s = "<>";
        else if (!strcmp(s, "<=>"))
            s = "IS";
        return binop(r, n, p, s, b);
    }
    default: return err_at(r, n, FLOE_EINVALID, "syntax error: not an expression");
    }
}

static int expr(pr *r, const sql_node *n, int min, floe_buf *b)
{
    if (++r->depth > SQL_MAX_DEPTH * 2)
        return err_at(r, n, FLOE_EINVALID, "expression nested too deeply");
    bool paren = prec_of(n) < min;
    int rc = paren ? floe__buf_putc(b, '(') : 0;
    if (rc == 0)
        rc = expr_body(r, n, b);
    if (rc == 0 && paren)
        rc = floe__buf_putc(b, ')');
    r->depth--;
    return rc;
}

/* ---------------------------------------------------------------- generator rows */

/* Is n a map (by its form: the map functions, a CAST to MAP, a map column
 * with non-string keys)? Decides explode's columns (key, value). */
static bool is_map_expr(const floe_sql_options *o, const sql_node *n)
{
    static const char *const maps[] = {
        "map",        "map_from_arrays", "map_from_entries", "str_to_map",   "map_concat",
        "map_filter", "transform_keys",  "transform_values", "map_zip_with", NULL};
    while (n->k == SN_PAREN)
        n = n->a;
    if (n->k == SN_FUNC) {
        for (int k = 0; maps[k]; k++)
            if (floe__sql_ieq(n->s, maps[k]))
                return true;
        return false;
    }
    if (n->k == SN_CAST)
        return (n->f & SNF_NESTED) && n->s && !strncmp(n->s, "map", 3);
    if (n->k == SN_COL) {
        if (n->t.kind == ST_NESTED && n->t.nt && n->t.nt[0] != '?')
            return strncmp(n->t.nt, "map<", 4) == 0;
        return o && o->is_keyed_map_column &&
               o->is_keyed_map_column(n->names[n->nnames - 1], o->payload);
    }
    return false;
}

/* The columns of generator call g (explode / posexplode [_outer]) named
 * by `names` (n of them; 0: Spark's defaults, or the one `alias`): their
 * floe_explode columns and names. Returns the count (at most 3). */
static int generator_columns(pr *r, const sql_node *g, const char *const *names, size_t n,
                             const char *alias, const char **cols, const char **out_names)
{
    if (g->nv != 1 || (g->f & (SNF_DISTINCT | SNF_STARARG)) || g->b) {
        char got[24];
        snprintf(got, sizeof got, "%zu", g->nv);
        return analysis_at(r, g->pos,
                           "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `%s` requires 1 "
                           "parameters but the actual number is %s.",
                           g->s, got);
    }
    bool pos = prefix_ci(g->s, "posexplode");
    bool map = n ? n == (pos ? 3u : 2u) : is_map_expr(r->p->opt, g->v[0]);
    int k = 0;
    if (pos) {
        cols[k] = "floe_pos";
        out_names[k++] = "pos";
    }
    if (map) {
        cols[k] = "floe_key";
        out_names[k++] = "key";
        cols[k] = "floe_val";
        out_names[k++] = "value";
    } else {
        cols[k] = "floe_val";
        out_names[k++] = "col";
    }
    if (alias && !n && k == 1) {
        out_names[0] = alias;
    } else if (alias || (n && n != (size_t)k)) {
        floe_buf got = FLOE_BUF_INIT;
        int rc = 0;
        if (alias)
            rc = floe__buf_puts(&got, alias);
        for (size_t j = 0; j < n && rc == 0; j++)
            rc = floe__buf_printf(&got, "%s%s", j ? ", " : "", names[j]);
        char want[8];
        snprintf(want, sizeof want, "%d", k);
        if (rc == 0)
            rc = analysis_at(r, g->pos,
                             "[UDTF_ALIAS_NUMBER_MISMATCH] The number of aliases supplied in "
                             "the AS clause does not match the number of columns output by "
                             "the UDTF. Expected %s aliases, but got %s.",
                             want, got.ptr ? got.ptr : "");
        floe__buf_free(&got);
        return rc;
    }
    for (size_t j = 0; j < n; j++)
        out_names[j] = names[j];
    return k;
}

/* The join of floe_explode(arg) AS floe_g<id> after `left` (NULL: none). */
static int generator_join(pr *r, const sql_node *g, int id, bool has_left, floe_buf *b)
{
    bool outer = strstr(g->s, "_outer") || strstr(g->s, "_OUTER") || (g->f & SNF_OUTER);
    char *arg = NULL;
    const sql_node *was = r->in_item;
    r->in_item = g;
    int rc = to_str(r, g->v[0], P_NONE, &arg);
    r->in_item = was;
    FLOE_TRY(rc);
    if (!has_left)
        FLOE_TRY(floe__buf_puts(b, outer ? "(SELECT 1) AS floe_one" : ""));
    if (outer)
        return floe__buf_printf(b, " LEFT JOIN floe_explode(%s) AS floe_g%d ON 1", arg, id);
    return floe__buf_printf(b, "%sfloe_explode(%s) AS floe_g%d", has_left ? ", " : "", arg, id);
}

static int rel_alias(pr *r, const sql_node *n, floe_buf *b);

/* FROM explode(x) [AS] t [(c, ...)]: the generator's rows as a relation. */
static int generator_rel(pr *r, const sql_node *n, floe_buf *b)
{
    const char *cols[3] = {NULL}, *names[3] = {NULL};
    int nc = generator_columns(r, n, n->names, n->nnames, NULL, cols, names);
    if (nc < 0)
        return nc;
    FLOE_TRY(floe__buf_puts(b, "(SELECT "));
    for (int k = 0; k < nc; k++) {
        FLOE_TRY(floe__buf_printf(b, "%s%s AS ", k ? ", " : "", cols[k]));
        FLOE_TRY(ident(r, names[k], true, b));
    }
    FLOE_TRY(floe__buf_puts(b, " FROM "));
    FLOE_TRY(generator_join(r, n, fresh(r), false, b));
    FLOE_TRY(floe__buf_putc(b, ')'));
    return rel_alias(r, n, b);
}

/* LATERAL VIEW [OUTER] g(arg) t AS c, ...: a join of floe_explode whose
 * columns the select's expressions see as c and t.c. */
static int lateral_view(pr *r, const sql_node *lv, floe_buf *b)
{
    const sql_node *g = lv->a;
    if (!is_generator(g))
        return err_at(r, g, FLOE_EUNSUPPORTED,
                      "unsupported: LATERAL VIEW of this function (floe has explode, "
                      "posexplode and their _outer forms)");
    const char *cols[3], *names[3];
    int nc = generator_columns(r, g, lv->names, lv->nnames, NULL, cols, names);
    if (nc < 0)
        return nc;
    int id = fresh(r);
    sql_node tmp = *g;
    tmp.f |= lv->f & SNF_OUTER;
    FLOE_TRY(generator_join(r, &tmp, id, true, b));
    for (int k = 0; k < nc; k++)
        FLOE_TRY(bind_name(r, names[k], lv->alias,
                           floe__arena_sprintf(r->p->a, "floe_g%d.%s", id, cols[k])));
    return 0;
}

/* ---------------------------------------------------------------- relations */

static int rel(pr *r, const sql_node *n, floe_buf *b);
static int values(pr *r, const sql_node *n, bool named, floe_buf *b);

static int alias_cols(pr *r, const sql_node *n, floe_buf *b)
{
    for (size_t k = 0; k < n->nnames; k++) {
        FLOE_TRY(floe__buf_puts(b, k ? ", " : "("));
        FLOE_TRY(ident(r, n->names[k], true, b));
    }
    return n->nnames ? floe__buf_putc(b, ')') : 0;
}

static int rel_alias(pr *r, const sql_node *n, floe_buf *b)
{
    if (!n->alias)
        return 0;
    FLOE_TRY(floe__buf_puts(b, " AS "));
    return ident(r, n->alias, n->tok != NULL, b);
}

static int range(pr *r, const sql_node *n, floe_buf *b)
{
    size_t k = n->nv;
    if (k < 1 || k > 3) /* the parser's check, kept where x[] is read */
        return err_at(r, n, FLOE_EINVALID,
                      "range() expects (end), (start, end) or (start, end, step)");
    char **x;
    FLOE_TRY(args_str(r, n, &x));
    const char *start = k == 1 ? "0" : x[0], *end = k == 1 ? x[0] : x[1];
    const char *step = k == 3 ? x[2] : "1";
    FLOE_TRY(floe__buf_printf(
        b,
        "(WITH RECURSIVE floe_range(id) AS (SELECT (%s) UNION ALL SELECT id + (%s) FROM "
        "floe_range WHERE ((%s) > 0 AND id + (%s) < (%s)) OR ((%s) < 0 AND id + (%s) > (%s))) "
        "SELECT id FROM floe_range WHERE ((%s) > 0 AND id < (%s)) OR ((%s) < 0 AND id > (%s)))",
        start, step, step, step, end, step, step, end, step, end, step, end));
    return rel_alias(r, n, b);
}

/* A relation with column aliases: (WITH floe_cols(a, b) AS (q) SELECT * FROM floe_cols). */
static int renamed(pr *r, const sql_node *n, floe_buf *b)
{
    FLOE_TRY(floe__buf_puts(b, "(WITH floe_cols"));
    FLOE_TRY(alias_cols(r, n, b));
    FLOE_TRY(floe__buf_puts(b, " AS ("));
    FLOE_TRY(query(r, n->a, b));
    FLOE_TRY(floe__buf_puts(b, ") SELECT * FROM floe_cols)"));
    return rel_alias(r, n, b);
}

static int semi(pr *r, const sql_node *j)
{
    floe_buf c = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&c, j->f & SNF_ANTI ? "NOT EXISTS (SELECT 1 FROM " : "EXISTS (SELECT 1 FROM ");
    if (rc == 0)
        rc = rel(r, j->b, &c);
    if (rc == 0)
        rc = floe__buf_puts(&c, " WHERE ");
    if (rc == 0)
        rc = expr(r, j->c, P_NONE, &c);
    if (rc == 0)
        rc = floe__buf_putc(&c, ')');
    const char *s = rc == 0 ? floe__arena_strdup(r->p->a, c.ptr) : NULL;
    floe__buf_free(&c);
    FLOE_TRY(rc);
    if (!s || !(r->semi = floe__sql_grow(r->p->a, r->semi, r->nsemi, &r->capsemi, sizeof *r->semi)))
        return floe__error_nomem();
    r->semi[r->nsemi++] = s;
    return 0;
}

/* The right side of a RIGHT or FULL JOIN keeps its unmatched rows. SQLite
 * finds them by the rowids of the matched ones, and a virtual table's rowid
 * counts the rows of one scan (its constraints differ between the join and
 * the pass over unmatched rows): such a table is read through a subquery,
 * which SQLite materializes (it never flattens one into that position), so
 * the rowids are those of one stored copy. */
static bool preserved(const sql_node *j)
{
    return strstr(j->s, "RIGHT") || strstr(j->s, "FULL");
}

static int preserved_rel(pr *r, const sql_node *n, floe_buf *b)
{
    if (n->k != SN_TABLE || !n->s)
        return rel(r, n, b);
    FLOE_TRY(floe__buf_puts(b, "(SELECT * FROM "));
    FLOE_TRY(floe__sql_quote_ident(b, n->s));
    FLOE_TRY(floe__buf_putc(b, ')'));
    return rel_alias(r, n, b);
}

static int rel(pr *r, const sql_node *n, floe_buf *b)
{
    if (++r->depth > SQL_MAX_DEPTH * 2)
        return err_at(r, n, FLOE_EINVALID, "query nested too deeply");
    int rc = 0;
    switch (n->k) {
    case SN_TABLE:
        if (n->s) {
            rc = floe__sql_quote_ident(b, n->s);
        } else {
            for (size_t k = 0; k < n->nnames && rc == 0; k++) {
                if (k)
                    rc = floe__buf_putc(b, '.');
                if (rc == 0)
                    rc = ident(r, n->names[k], false, b);
            }
        }
        if (rc == 0)
            rc = rel_alias(r, n, b);
        break;
    case SN_SUBREL:
        if (n->nnames) {
            rc = renamed(r, n, b);
            break;
        }
        rc = floe__buf_putc(b, '(');
        if (rc == 0)
            rc = n->a->k == SN_VALUES ? values(r, n->a, true, b) : query(r, n->a, b);
        if (rc == 0)
            rc = floe__buf_putc(b, ')');
        if (rc == 0)
            rc = rel_alias(r, n, b);
        break;
    case SN_RANGE: rc = range(r, n, b); break;
    case SN_FUNCREL:
        if (is_generator_name(n->s)) {
            rc = generator_rel(r, n, b);
            break;
        }
        rc = ident(r, n->s, false, b);
        if (rc == 0)
            rc = floe__buf_putc(b, '(');
        if (rc == 0)
            rc = list(r, n->v, n->nv, b);
        if (rc == 0)
            rc = floe__buf_putc(b, ')');
        if (rc == 0)
            rc = rel_alias(r, n, b);
        break;
    case SN_PAREN:
        rc = floe__buf_putc(b, '(');
        if (rc == 0)
            rc = rel(r, n->a, b);
        if (rc == 0)
            rc = floe__buf_putc(b, ')');
        break;
    case SN_JOIN:
        rc = rel(r, n->a, b);
        if (rc == 0 && n->b->k == SN_LATERAL) {
            rc = lateral_view(r, n->b, b);
            break;
        }
        if (rc == 0 && (n->f & (SNF_SEMI | SNF_ANTI))) {
            rc = semi(r, n);
            break;
        }
        if (rc == 0)
            rc = !strcmp(n->s, ",") ? floe__buf_puts(b, ", ")
                                     : floe__buf_printf(b, " %s%s ",
                                                        n->f & SNF_NATURAL ? "NATURAL " : "", n->s);
        if (rc == 0)
            rc = preserved(n) ? preserved_rel(r, n->b, b) : rel(r, n->b, b);
        if (rc == 0 && n->c) {
            rc = floe__buf_puts(b, " ON ");
            if (rc == 0)
                rc = expr(r, n->c, P_NONE, b);
        }
        if (rc == 0 && n->nnames) {
            rc = floe__buf_puts(b, " USING ");
            if (rc == 0)
                rc = alias_cols(r, n, b);
        }
        break;
    default: rc = err_at(r, n, FLOE_EINVALID, "syntax error: not a relation"); break;
    }
    r->depth--;
    return rc;
}

/* ---------------------------------------------------------------- queries */

/* The source text of a node, whitespace runs as one space. */
static const char *source_text(pr *r, const sql_node *n)
{
    const char *s = r->p->script + n->pos;
    size_t len = n->end > n->pos ? n->end - n->pos : 0;
    char *o = floe__arena_alloc(r->p->a, len + 1);
    if (!o)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (isspace((unsigned char)s[i])) {
            if (k && o[k - 1] != ' ')
                o[k++] = ' ';
        } else {
            o[k++] = s[i];
        }
    }
    while (k && o[k - 1] == ' ')
        k--;
    o[k] = 0;
    return o;
}

/* Does the SQLite value of typed decimal expression e carry its scale (the
 * FLOE_SQL_SUBTYPE_SCALE subtype) already: a column, a decimal cast, the
 * typed forms above, sum/min/max of a decimal? */
static bool carries_scale(const sql_node *e)
{
    static const char *const keep[] = {"min",    "max",  "avg",     "mean",  "round",
                                       "bround", "ceil", "ceiling", "floor", NULL};
    switch (e->k) {
    case SN_COL: return e->t.cell; /* a subquery's column may have lost it */
    case SN_CAST: return true;
    case SN_BIN: return num_kind(e->a->t) && num_kind(e->b->t);
    case SN_FUNC:
        if (floe__sql_ieq(e->s, "sum"))
            return !e->a;
        for (int k = 0; keep[k]; k++)
            if (floe__sql_ieq(e->s, keep[k]))
                return true;
        return false;
    default: return false;
    }
}

static int item_as(pr *r, const sql_node *n, const char *forced, floe_buf *b);

static int item(pr *r, const sql_node *n, floe_buf *b)
{
    return item_as(r, n, NULL, b);
}

/* A select item; `forced` (not NULL): its SQLite name. */
static int item_as(pr *r, const sql_node *n, const char *forced, floe_buf *b)
{
    if (n->k == SN_STAR) {
        for (size_t k = 0; k < n->nnames; k++) {
            FLOE_TRY(ident(r, n->names[k], true, b));
            FLOE_TRY(floe__buf_putc(b, '.'));
        }
        return floe__buf_putc(b, '*');
    }
    size_t at = b->len;
    /* a decimal the binder typed prints its scale (Spark's 12.50, round's
     * and avg's result scale); columns and decimal casts carry it already */
    const sql_node *e = n->a;
    while (e->k == SN_PAREN)
        e = e->a;
    bool rescale = n->a->t.kind == ST_DECIMAL && !carries_scale(e);
    if (rescale)
        FLOE_TRY(floe__buf_puts(b, "floe_cast_decimal("));
    const sql_node *outer = r->exact;
    r->exact = e; /* the item's own value may be exact text */
    int rc = expr(r, n->a, P_NONE, b);
    r->exact = outer;
    FLOE_TRY(rc);
    if (rescale)
        FLOE_TRY(floe__buf_printf(b, ", %d, %d)", n->a->t.p, n->a->t.s));
    const char *alias = n->alias;
    if (!alias && n->a->k == SN_COL) {
        size_t split = struct_split(r, n->a);
        if (split != (size_t)-1 || rescale || (r->nbound && bound_column(r, n->a, NULL)))
            alias = n->a->names[n->a->nnames - 1]; /* Spark names a field after itself */
    } else if (!alias) {
        const char *src = source_text(r, n->a);
        if (!src)
            return floe__error_nomem();
        if (strcmp(src, b->ptr + at) != 0)
            alias = src;
    }
    if (forced)
        return floe__buf_printf(b, " AS %s", forced);
    if (!alias)
        return 0;
    FLOE_TRY(floe__buf_puts(b, " AS "));
    return ident(r, alias, alias != n->alias || n->tok, b);
}

/* Does n hold an aggregate call (outside subqueries)? A generator over
 * one runs over the aggregated rows. */
static bool has_aggregate(const sql_node *n, int depth)
{
    static const char *const aggs[] = {
        "count",      "sum",      "avg",          "mean",
        "min",        "max",      "collect_list", "collect_set",
        "array_agg",  "first",    "last",         "any_value",
        "count_if",   "bool_and", "bool_or",      "every",
        "some",       "any",      "max_by",       "min_by",
        "percentile", "stddev",   "variance",     "approx_count_distinct",
        NULL};
    if (!n || depth > SQL_MAX_DEPTH)
        return false;
    if (n->k == SN_SUBQ || n->k == SN_EXISTS || n->k == SN_LAMBDA)
        return false;
    if (n->k == SN_FUNC && !n->a)
        for (int k = 0; aggs[k]; k++)
            if (floe__sql_ieq(n->s, aggs[k]))
                return true;
    if (has_aggregate(n->a, depth + 1) || has_aggregate(n->b, depth + 1) ||
        has_aggregate(n->c, depth + 1))
        return true;
    for (size_t k = 0; k < n->nv; k++)
        if (has_aggregate(n->v[k], depth + 1))
            return true;
    return false;
}

/* The name Spark gives select item `it` (its alias, a column's name, else
 * its text). */
static const char *item_name(pr *r, const sql_node *it)
{
    if (it->alias)
        return it->alias;
    if (it->a->k == SN_COL)
        return it->a->names[it->a->nnames - 1];
    return source_text(r, it->a);
}

/* A select with a generator over aggregated rows (GROUP BY, HAVING, an
 * aggregate in its argument): the aggregating select `inner` (items
 * floe_c<k>, the argument floe_garg) joined with the generator's rows. */
static int generate_over(pr *r, const sql_node *n, const sql_node *gen, int gid, const char *inner,
                         floe_buf *b)
{
    FLOE_TRY(floe__buf_puts(b, n->f & SNF_DISTINCT ? "SELECT DISTINCT " : "SELECT "));
    for (size_t k = 0; k < n->nv; k++) {
        if (k)
            FLOE_TRY(floe__buf_puts(b, ", "));
        const sql_node *it = n->v[k];
        if (it == gen) {
            const char *cols[3], *names[3];
            int nc = generator_columns(r, gen->a, gen->names, gen->nnames, gen->alias, cols, names);
            if (nc < 0)
                return nc;
            for (int j = 0; j < nc; j++) {
                FLOE_TRY(floe__buf_printf(b, "%sfloe_g%d.%s AS ", j ? ", " : "", gid, cols[j]));
                FLOE_TRY(ident(r, names[j], true, b));
            }
            continue;
        }
        const char *name = item_name(r, it);
        if (!name)
            return floe__error_nomem();
        FLOE_TRY(floe__buf_printf(b, "floe_q.floe_c%zu AS ", k));
        FLOE_TRY(ident(r, name, true, b));
    }
    bool outer = strstr(gen->a->s, "_outer") || strstr(gen->a->s, "_OUTER");
    return floe__buf_printf(b,
                            outer ? " FROM (%s) AS floe_q LEFT JOIN floe_explode(floe_q.floe_garg) "
                                    "AS floe_g%d ON 1"
                                  : " FROM (%s) AS floe_q, floe_explode(floe_q.floe_garg) AS "
                                    "floe_g%d",
                            inner, gid);
}

static int select_(pr *r, const sql_node *n, floe_buf *b)
{
    const char **outer = r->semi;
    size_t nouter = r->nsemi, capouter = r->capsemi;
    r->semi = NULL;
    r->nsemi = r->capsemi = 0;
    size_t mark = r->nbound;
    bool keep = r->keep == n; /* its ORDER BY sees the LATERAL VIEW columns */
    r->keep = NULL;
    const sql_node *was_item = r->in_item;
    r->in_item = NULL;
    /* the FROM first: its LATERAL VIEW columns are names in the items */
    floe_buf from = FLOE_BUF_INIT;
    int rc = n->a ? rel(r, n->a, &from) : 0;
    /* a generator at the top of a select item: a join of its rows */
    const sql_node *gen = NULL;
    int gid = 0;
    for (size_t k = 0; k < n->nv && rc == 0; k++) {
        const sql_node *it = n->v[k];
        if (it->k != SN_ITEM || !is_generator(it->a))
            continue;
        if (gen) {
            const char *x = source_text(r, gen->a), *y = source_text(r, it->a);
            rc = !x || !y ? floe__error_nomem()
                          : analysis(r, it->a,
                                     "[UNSUPPORTED_GENERATOR.MULTI_GENERATOR] The generator is "
                                     "not supported: only one generator allowed per select "
                                     "clause but found 2: \"%s\", \"%s\".",
                                     x, y);
            break;
        }
        gen = it;
    }
    bool wrap = gen && (n->nw || n->c || has_aggregate(gen->a, 0));
    for (size_t k = 0; k < n->nv && rc == 0 && wrap; k++)
        if (n->v[k]->k == SN_STAR)
            rc = err_at(r, n->v[k], FLOE_EUNSUPPORTED,
                        "unsupported: * with a generator over aggregated rows");
    if (rc == 0 && gen) {
        gid = fresh(r);
        if (!wrap)
            rc = generator_join(r, gen->a, gid, n->a != NULL, &from);
    }
    floe_buf inner = FLOE_BUF_INIT;
    floe_buf *out = b;
    if (wrap)
        b = &inner; /* the aggregating select, printed into generate_over() */
    if (rc == 0)
        rc = floe__buf_puts(b, n->f & SNF_DISTINCT && !wrap ? "SELECT DISTINCT " : "SELECT ");
    for (size_t k = 0; k < n->nv && rc == 0; k++) {
        if (k)
            rc = floe__buf_puts(b, ", ");
        if (rc == 0 && wrap) {
            if (n->v[k] == gen) {
                const sql_node *g = gen->a;
                const sql_node *was = r->in_item;
                r->in_item = g;
                rc = g->nv == 1 ? expr(r, g->v[0], P_NONE, b) : 0;
                r->in_item = was;
                if (rc == 0)
                    rc = floe__buf_puts(b, " AS floe_garg");
            } else {
                char as[32];
                snprintf(as, sizeof as, "floe_c%zu", k);
                rc = item_as(r, n->v[k], as, b);
            }
        } else if (rc == 0 && n->v[k] == gen) {
            const char *cols[3], *names[3];
            int nc = generator_columns(r, gen->a, gen->names, gen->nnames, gen->alias, cols, names);
            rc = nc < 0 ? nc : 0;
            for (int j = 0; j < nc && rc == 0; j++) {
                rc = floe__buf_printf(b, "%sfloe_g%d.%s AS ", j ? ", " : "", gid, cols[j]);
                if (rc == 0)
                    rc = ident(r, names[j], true, b);
            }
        } else if (rc == 0) {
            if (n->v[k]->k == SN_ITEM && n->v[k]->nnames)
                rc = analysis(r, n->v[k],
                              "[UDTF_ALIAS_NUMBER_MISMATCH] The number of aliases supplied in "
                              "the AS clause does not match the number of columns output by the "
                              "UDTF. Expected 1 aliases, but got %s%s.",
                              n->v[k]->names[0], n->v[k]->nnames > 1 ? ", ..." : "");
            const sql_node *was = r->in_item;
            r->in_item = n->v[k]->k == SN_ITEM ? n->v[k]->a : NULL;
            if (rc == 0)
                rc = item(r, n->v[k], b);
            r->in_item = was;
        }
    }
    if (rc == 0 && from.len) {
        rc = floe__buf_puts(b, " FROM ");
        if (rc == 0)
            rc = floe__buf_puts(b, from.ptr);
    }
    floe__buf_free(&from);
    if (rc == 0 && (n->b || r->nsemi)) {
        rc = floe__buf_puts(b, " WHERE ");
        if (rc == 0 && n->b)
            rc = expr(r, n->b, r->nsemi ? P_AND + 1 : P_NONE, b);
        for (size_t k = 0; k < r->nsemi && rc == 0; k++)
            rc = floe__buf_printf(b, "%s%s", k || n->b ? " AND " : "", r->semi[k]);
    }
    if (rc == 0 && n->nw) {
        rc = floe__buf_puts(b, " GROUP BY ");
        if (rc == 0)
            rc = list(r, n->w, n->nw, b);
    }
    if (rc == 0 && n->c) {
        rc = floe__buf_puts(b, " HAVING ");
        if (rc == 0)
            rc = expr(r, n->c, P_NONE, b);
    }
    for (size_t k = 0; k < n->nx && rc == 0; k++) {
        rc = floe__buf_puts(b, k ? ", " : " WINDOW ");
        if (rc == 0)
            rc = ident(r, n->x[k]->s, true, b);
        if (rc == 0)
            rc = floe__buf_puts(b, " AS (");
        if (rc == 0)
            rc = winspec(r, n->x[k]->a, b);
        if (rc == 0)
            rc = floe__buf_putc(b, ')');
    }
    if (wrap) {
        b = out;
        if (rc == 0)
            rc = generate_over(r, n, gen, gid, inner.ptr, b);
    }
    floe__buf_free(&inner);
    r->semi = outer;
    r->nsemi = nouter;
    r->capsemi = capouter;
    if (!keep)
        r->nbound = mark;
    r->in_item = was_item;
    return rc;
}

/* VALUES rows; as a relation SELECT column1 AS col1, ... FROM (VALUES ...)
 * (Spark's column names). */
static int values(pr *r, const sql_node *n, bool named, floe_buf *b)
{
    if (!named) {
        FLOE_TRY(floe__buf_puts(b, "VALUES "));
        for (size_t k = 0; k < n->nv; k++) {
            FLOE_TRY(floe__buf_puts(b, k ? ", (" : "("));
            FLOE_TRY(list(r, n->v[k]->v, n->v[k]->nv, b));
            FLOE_TRY(floe__buf_putc(b, ')'));
        }
        return 0;
    }
    size_t cols = n->nv ? n->v[0]->nv : 0;
    FLOE_TRY(floe__buf_puts(b, "SELECT "));
    for (size_t k = 0; k < cols; k++)
        FLOE_TRY(floe__buf_printf(b, "%scolumn%zu AS col%zu", k ? ", " : "", k + 1, k + 1));
    FLOE_TRY(floe__buf_puts(b, " FROM (VALUES "));
    for (size_t k = 0; k < n->nv; k++) {
        FLOE_TRY(floe__buf_puts(b, k ? ", (" : "("));
        FLOE_TRY(list(r, n->v[k]->v, n->v[k]->nv, b));
        FLOE_TRY(floe__buf_putc(b, ')'));
    }
    return floe__buf_putc(b, ')');
}

/* A member of a compound select: inline when SQLite allows it there. */
static int member(pr *r, const sql_node *n, bool left, floe_buf *b)
{
    if (n->k == SN_SELECT || n->k == SN_VALUES || (left && n->k == SN_SETOP))
        return query(r, n, b);
    FLOE_TRY(floe__buf_puts(b, "SELECT * FROM ("));
    FLOE_TRY(query(r, n, b));
    return floe__buf_putc(b, ')');
}

static int query(pr *r, const sql_node *n, floe_buf *b)
{
    if (++r->depth > SQL_MAX_DEPTH * 2)
        return err_at(r, n, FLOE_EINVALID, "query nested too deeply");
    int rc = 0;
    switch (n->k) {
    case SN_SELECT: rc = select_(r, n, b); break;
    case SN_VALUES: rc = values(r, n, false, b); break;
    case SN_SETOP:
        if ((n->f & SNF_ALL) && strcmp(n->s, "UNION") != 0) {
            rc = err_at(r, n, FLOE_EUNSUPPORTED, "unsupported: EXCEPT ALL / INTERSECT ALL");
            break;
        }
        rc = member(r, n->a, true, b);
        if (rc == 0)
            rc = floe__buf_printf(b, " %s%s ", n->s, n->f & SNF_ALL ? " ALL" : "");
        if (rc == 0)
            rc = member(r, n->b, false, b);
        break;
    case SN_ORDER: {
        size_t mark = r->nbound;
        if (n->a->k == SN_SELECT)
            r->keep = n->a;
        rc = n->a->k == SN_SELECT || n->a->k == SN_SETOP ? query(r, n->a, b) : member(r, n->a, false, b);
        r->keep = NULL;
        if (rc == 0 && n->nv) {
            rc = floe__buf_puts(b, " ORDER BY ");
            if (rc == 0)
                rc = sorts(r, n->v, n->nv, b);
        }
        if (rc == 0 && (n->b || n->c)) {
            rc = floe__buf_puts(b, " LIMIT ");
            if (rc == 0)
                rc = n->b ? expr(r, n->b, P_NONE, b) : floe__buf_puts(b, "-1");
        }
        if (rc == 0 && n->c) {
            rc = floe__buf_puts(b, " OFFSET ");
            if (rc == 0)
                rc = expr(r, n->c, P_NONE, b);
        }
        r->nbound = mark;
        break;
    }
    case SN_WITH:
        rc = floe__buf_puts(b, n->f & SNF_RECURSIVE ? "WITH RECURSIVE " : "WITH ");
        for (size_t k = 0; k < n->nv && rc == 0; k++) {
            const sql_node *c = n->v[k];
            if (k)
                rc = floe__buf_puts(b, ", ");
            if (rc == 0)
                rc = ident(r, c->s, c->tok != NULL, b);
            if (rc == 0)
                rc = alias_cols(r, c, b);
            if (rc == 0)
                rc = floe__buf_puts(b, " AS (");
            if (rc == 0)
                rc = query(r, c->a, b);
            if (rc == 0)
                rc = floe__buf_putc(b, ')');
        }
        if (rc == 0)
            rc = floe__buf_putc(b, ' ');
        if (rc == 0)
            rc = query(r, n->a, b);
        break;
    default: rc = err_at(r, n, FLOE_EINVALID, "syntax error: expected a query"); break;
    }
    r->depth--;
    return rc;
}

int floe__sql_print_tree(sql_parser *p, const sql_node *n, char **out)
{
    pr r;
    memset(&r, 0, sizeof r);
    r.p = p;
    return to_str(&r, n, P_NONE, out);
}

/* ---------------------------------------------------------------- boolean columns */

static bool is_bool(const sql_node *e)
{
    static const char *const preds[] = {
        "array_contains", "isnull", "isnotnull", "startswith", "endswith", "contains", "bool_and",
        "bool_or",        "every",  "some",      "any",        "exists",   "forall",   NULL};
    switch (e->k) {
    case SN_BIN:
        return strcmp(e->s, "+") != 0 && strcmp(e->s, "-") != 0 && strcmp(e->s, "*") != 0 &&
               strcmp(e->s, "/") != 0 && strcmp(e->s, "%") != 0 && strcmp(e->s, "DIV") != 0 &&
               strcmp(e->s, "||") != 0 && strcmp(e->s, "&") != 0 && strcmp(e->s, "|") != 0 &&
               strcmp(e->s, "^") != 0;
    case SN_UN: return !strcmp(e->s, "NOT");
    case SN_LIKE:
    case SN_IN:
    case SN_BETWEEN:
    case SN_IS:
    case SN_EXISTS: return true;
    case SN_LIT:
        return e->tok->kind == TK_WORD &&
               (floe__sql_ieq(e->tok->text, "TRUE") || floe__sql_ieq(e->tok->text, "FALSE"));
    case SN_CAST: return !strcmp(e->s, "boolean");
    case SN_PAREN: return is_bool(e->a);
    case SN_FUNC:
        for (int k = 0; preds[k]; k++)
            if (floe__sql_ieq(e->s, preds[k]))
                return true;
        return false;
    case SN_CASE:
        for (size_t k = 1; k < e->nv; k += 2)
            if (!is_bool(e->v[k]))
                return false;
        return !e->b || is_bool(e->b);
    default: return false;
    }
}

/* Are the elements of array / map value n booleans (by its form)? */
static bool elements_bool(const sql_node *n)
{
    while (n->k == SN_PAREN)
        n = n->a;
    if (n->k != SN_FUNC || !n->nv)
        return false;
    bool map = floe__sql_ieq(n->s, "map");
    if (!map && !floe__sql_ieq(n->s, "array"))
        return (floe__sql_ieq(n->s, "transform") || floe__sql_ieq(n->s, "transform_values")) &&
               n->nv == 2 && n->v[1]->k == SN_LAMBDA && is_bool(n->v[1]->a);
    for (size_t k = map ? 1 : 0; k < n->nv; k += map ? 2 : 1)
        if (!is_bool(n->v[k]) &&
            !(n->v[k]->k == SN_LIT && floe__sql_ieq(n->v[k]->tok->text, "NULL")))
            return false;
    return true;
}

uint64_t floe__sql_tree_bool_columns(const sql_node *q)
{
    for (int guard = 0; q && guard < 1000; guard++) {
        switch (q->k) {
        case SN_WITH:
        case SN_ORDER:
        case SN_SETOP: q = q->a; continue;
        case SN_VALUES: {
            uint64_t bits = 0;
            for (size_t k = 0; q->nv && k < q->v[0]->nv && k < 64; k++)
                if (is_bool(q->v[0]->v[k]))
                    bits |= (uint64_t)1 << k;
            return bits;
        }
        case SN_SELECT: {
            if (q->nv == 1 && q->v[0]->k == SN_STAR && !q->v[0]->nnames && q->a &&
                q->a->k == SN_SUBREL && !q->a->nnames) {
                q = q->a->a; /* SELECT * FROM (subquery) */
                continue;
            }
            uint64_t bits = 0;
            for (size_t k = 0, col = 0; k < q->nv && col < 64; k++, col++) {
                const sql_node *it = q->v[k];
                if (it->k == SN_STAR)
                    break;
                if (is_generator(it->a)) {
                    /* its columns: [pos,] key, value or [pos,] col */
                    const sql_node *g = it->a;
                    bool pos = prefix_ci(g->s, "posexplode");
                    bool map = it->nnames ? it->nnames == (pos ? 3u : 2u)
                                          : g->nv == 1 && is_map_expr(NULL, g->v[0]);
                    col += (pos ? 1 : 0) + (map ? 1 : 0);
                    if (col < 64 && g->nv == 1 && elements_bool(g->v[0]))
                        bits |= (uint64_t)1 << col;
                    continue;
                }
                if (is_bool(it->a))
                    bits |= (uint64_t)1 << col;
            }
            return bits;
        }
        default: return 0;
        }
    }
    return 0;
}
