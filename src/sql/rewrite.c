/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The query rewriter: turns a Spark/Iceberg query (or expression) into
 * SQLite text. It walks tokens once, tracking parenthesis depth and whether
 * each depth is inside a FROM clause, and
 *  - replaces every Iceberg table reference in a FROM/JOIN position (with
 *    its time travel clause: VERSION/SYSTEM_VERSION AS OF, TIMESTAMP/
 *    SYSTEM_TIME AS OF, optional FOR; branch_/tag_/metadata-table suffixes;
 *    the table-valued functions read_parquet, incremental_append,
 *    table_changes) by a generated name "floe_ref_<n>" plus an alias equal
 *    to the name the user wrote, recording a floe_sql_tref for the executor;
 *  - leaves CTE names, temporary views (options.is_local), sqlite_* tables
 *    and SQLite's own table-valued functions alone;
 *  - rewrites Spark-only expression syntax: map['k'] / arr[0] and
 *    struct.field on metadata struct columns -> json_extract, DATE'..' and
 *    TIMESTAMP'..' literals -> ISO text, array()/map() -> json_array/
 *    json_object, CAST types, and common Spark functions;
 *  - re-emits every identifier and string from its decoded value with
 *    SQLite quoting, so user text can never become SQL code.
 * Name resolution against the catalog name follows Spark's
 * catalog.namespace.table rules (see docs/sql.md).
 */
#include "sql/sqlfront_int.h"

#include "meta/meta.h"
#include "rows/rowsource.h"
#include "util/time.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- names */

static bool prefix_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != *prefix)
            return false;
    return true;
}

int floe__sql_parts(sql_parser *p, const char ***parts_out, size_t *n_out)
{
    const char **parts = NULL;
    size_t n = 0, cap = 0;
    do {
        if (!(parts = floe__sql_grow(p->a, parts, n, &cap, sizeof *parts)))
            return FLOE_ENOMEM;
        FLOE_TRY(floe__sql_ident(p, &parts[n]));
        n++;
        if (n > 64)
            return floe__sql_err(p, "identifier has too many parts");
    } while (floe__sql_accept_op(p, "."));
    *parts_out = parts;
    *n_out = n;
    return 0;
}

static int split_ns(floe_arena *a, const char *ns, const char *const **out, size_t *n_out)
{
    size_t n = 1;
    for (const char *c = ns; *c; c++)
        n += *c == '.';
    const char **parts = floe__arena_calloc(a, n, sizeof *parts);
    if (!parts)
        return floe__error_nomem();
    size_t k = 0;
    const char *start = ns;
    for (const char *c = ns;; c++) {
        if (*c == '.' || !*c) {
            if (!(parts[k++] = floe__arena_strndup(a, start, (size_t)(c - start))))
                return floe__error_nomem();
            if (!*c)
                break;
            start = c + 1;
        }
    }
    *out = parts;
    *n_out = k;
    return 0;
}

const char *floe__sql_catalog_named(const sql_parser *p, const char *part)
{
    const char *def = p->opt->catalog_name ? p->opt->catalog_name : FLOE_CATALOG_DEFAULT_NAME;
    if (floe__sql_ieq(part, def))
        return def;
    for (size_t i = 0; p->opt->catalogs && i < p->opt->ncatalogs; i++)
        if (floe__sql_ieq(part, p->opt->catalogs[i]))
            return p->opt->catalogs[i];
    return NULL;
}

int floe__sql_resolve(sql_parser *p, const char *const *parts, size_t n, size_t pos,
                      bool allow_suffix, floe_sql_name *out)
{
    memset(out, 0, sizeof *out);
    out->catalog = p->opt->catalog_name ? p->opt->catalog_name : FLOE_CATALOG_DEFAULT_NAME;
    out->pos = pos;
    out->kind = FLOE_SQLREF_TABLE;
    const char *cat = n >= 2 ? floe__sql_catalog_named(p, parts[0]) : NULL;
    if (cat) {
        out->catalog = cat;
        parts++;
        n--;
    }
    if (allow_suffix && n >= 2) {
        const char *last = parts[n - 1];
        floe_sql_ref_kind kind = 0;
        const char *suffix = NULL;
        if (prefix_ci(last, "branch_") && last[7]) {
            kind = FLOE_SQLREF_BRANCH;
            suffix = last + 7;
        } else if (prefix_ci(last, "tag_") && last[4]) {
            kind = FLOE_SQLREF_TAG;
            suffix = last + 4;
        } else {
            for (int k = 0; floe__meta_table_names[k]; k++) {
                if (floe__sql_ieq(last, floe__meta_table_names[k])) {
                    kind = FLOE_SQLREF_METADATA;
                    suffix = floe__meta_table_names[k];
                }
            }
        }
        if (kind && p->opt->is_table) {
            floe_buf b = FLOE_BUF_INIT;
            int rc = 0;
            for (size_t k = 0; k < n && rc == 0; k++)
                rc = floe__buf_printf(&b, "%s%s", k ? "." : "", parts[k]);
            if (rc < 0) {
                floe__buf_free(&b);
                return rc;
            }
            if (p->opt->is_table(out->catalog, b.ptr, p->opt->payload))
                kind = 0; /* a table named like the suffix */
            floe__buf_free(&b);
        }
        if (kind) {
            out->kind = kind;
            out->suffix = suffix;
            n--;
        }
    }
    out->table = parts[n - 1];
    if (n >= 2) {
        out->ns = parts;
        out->nns = n - 1;
    } else if (p->opt->current_namespace && p->opt->current_namespace[0]) {
        FLOE_TRY(split_ns(p->a, p->opt->current_namespace, &out->ns, &out->nns));
    }
    return 0;
}

int floe__sql_table_name(sql_parser *p, bool allow_suffix, floe_sql_name *out)
{
    size_t pos = floe__sql_peek(p, 0)->pos;
    const char **parts;
    size_t n;
    FLOE_TRY(floe__sql_parts(p, &parts, &n));
    return floe__sql_resolve(p, parts, n, pos, allow_suffix, out);
}

static bool str_eq_null(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_ref(const floe_sql_tref *x, const floe_sql_tref *y)
{
    if (x->name.kind == FLOE_SQLREF_TVF || y->name.kind == FLOE_SQLREF_TVF)
        return false;
    if (x->name.kind != y->name.kind || x->name.nns != y->name.nns ||
        strcmp(x->name.table, y->name.table) || !str_eq_null(x->name.suffix, y->name.suffix))
        return false;
    for (size_t k = 0; k < x->name.nns; k++)
        if (strcmp(x->name.ns[k], y->name.ns[k]))
            return false;
    if (x->travel.kind != y->travel.kind)
        return false;
    switch (x->travel.kind) {
    case FLOE_SQLTT_SNAPSHOT: return x->travel.snapshot_id == y->travel.snapshot_id;
    case FLOE_SQLTT_REF: return !strcmp(x->travel.ref, y->travel.ref);
    case FLOE_SQLTT_TIMESTAMP: return !strcmp(x->travel.timestamp, y->travel.timestamp);
    default: return true;
    }
}

int floe__sql_add_ref(sql_parser *p, const floe_sql_tref *ref, const char **sqlite_name)
{
    for (size_t k = 0; k < p->nrefs; k++) {
        if (same_ref(&p->refs[k], ref)) {
            *sqlite_name = p->refs[k].sqlite_name;
            return 0;
        }
    }
    if (p->nrefs >= 10000)
        return floe__sql_err(p, "too many table references");
    if (!(p->refs = floe__sql_grow(p->a, p->refs, p->nrefs, &p->caprefs, sizeof *p->refs)))
        return FLOE_ENOMEM;
    floe_sql_tref *r = &p->refs[p->nrefs];
    *r = *ref;
    r->sqlite_name = floe__arena_sprintf(p->a, "floe_ref_%llu",
                                         (unsigned long long)(p->opt->ref_base + p->nrefs + 1));
    if (!r->sqlite_name)
        return FLOE_ENOMEM;
    p->nrefs++;
    *sqlite_name = r->sqlite_name;
    return 0;
}

/* ---------------------------------------------------------------- scanning */

bool floe__sql_tok_op(const sql_tok *t, const char *op)
{
    return t->kind == TK_OP && !strcmp(t->text, op);
}

size_t floe__sql_scan_until(sql_parser *p, size_t from, const char *const *stop, bool stop_comma)
{
    int depth = 0, cases = 0;
    for (size_t i = from; i < p->n; i++) {
        sql_tok *t = &p->t[i];
        if (floe__sql_tok_op(t, "(") || floe__sql_tok_op(t, "[")) {
            depth++;
        } else if (floe__sql_tok_op(t, ")") || floe__sql_tok_op(t, "]")) {
            if (depth == 0)
                return i;
            depth--;
        } else if (depth == 0 && floe__sql_is_word(t, "CASE")) {
            cases++;
        } else if (depth == 0 && cases && floe__sql_is_word(t, "END")) {
            cases--;
        } else if (depth == 0 && !cases) {
            if (stop_comma && floe__sql_tok_op(t, ","))
                return i;
            for (int k = 0; stop && stop[k]; k++)
                if (floe__sql_is_word(t, stop[k]))
                    return i;
        }
    }
    return p->n;
}

/* ---------------------------------------------------------------- output */

static sql_tok eof_tok = {TK_EOF, "", 0, 0, 0};

sql_tok *floe__sql_rw_tok(sql_rw *r, size_t i)
{
    return i < r->to ? &r->p->t[i] : &eof_tok;
}

int floe__sql_rw_err(sql_rw *r, size_t i, int code, const char *msg)
{
    size_t pos = i < r->p->n ? r->p->t[i].pos : r->p->t[r->p->n].pos;
    return floe__sql_err_at(code, r->p->script, pos, "%s", msg);
}

int floe__sql_rw_emit(sql_rw *r, const char *s, char k)
{
    if (!s)
        return floe__error_nomem();
    if (!(r->o = floe__sql_grow(r->p->a, r->o, r->n, &r->cap, sizeof *r->o)))
        return FLOE_ENOMEM;
    r->o[r->n].s = s;
    r->o[r->n].k = k;
    r->n++;
    return 0;
}

const char *floe__sql_quoted(floe_arena *a, const char *s, bool ident)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = ident ? floe__sql_quote_ident(&b, s) : floe__sql_quote_string(&b, s);
    const char *out = rc < 0 ? NULL : floe__arena_strdup(a, b.ptr);
    floe__buf_free(&b);
    return out;
}

/* A decimal literal SQLite cannot hold: more than 15 significant digits
 * (SQLite's REAL keeps ~15.95 and shows 15) or an integer beyond 64 bits.
 * Spark reads it as an exact decimal; here it becomes its text, which a wide
 * decimal column compares exactly (vtab.c's numeric collation), INSERT
 * converts exactly and arithmetic turns into a number as before. Exponent
 * forms are doubles in Spark and stay numbers. */
static bool wide_number(const char *t)
{
    if (strpbrk(t, "eExX"))
        return false;
    const char *dot = strchr(t, '.');
    const char *a = t, *b = t + strlen(t);
    while (a < b && (*a == '0' || *a == '.'))
        a++;
    if (dot)
        while (b > a && (b[-1] == '0' || b[-1] == '.'))
            b--;
    size_t sig = (size_t)(b - a) - (dot && dot >= a && dot < b ? 1 : 0);
    if (dot)
        return sig > 15;
    /* up to 2^63 (-2^63 is SQLite's smallest INTEGER literal) */
    return sig > 19 || (sig == 19 && strcmp(a, "9223372036854775808") > 0);
}

/* Is the last item emitted a unary minus (after an operator, '(' , ',',
 * a keyword or nothing)? Then it joins a wide literal's text. */
static bool unary_minus(const sql_rw *r)
{
    static const char *const kw[] = {"SELECT", "WHERE", "AND", "OR", "NOT", "WHEN", "THEN",
                                     "ELSE", "ON", "IN", "IS", "BETWEEN", "LIKE", "HAVING",
                                     "VALUES", "CASE", "BY", "DISTINCT", "ALL", "RETURN", NULL};
    if (r->n == 0 || strcmp(r->o[r->n - 1].s, "-") != 0)
        return false;
    if (r->n == 1)
        return true;
    const sql_out_item *p = &r->o[r->n - 2];
    if (p->k == '(' || p->k == ',')
        return true;
    if (p->k == 'o')
        return p->s[0] != '\'' && !(p->s[0] >= '0' && p->s[0] <= '9') && p->s[0] != '.' &&
               p->s[0] != 'X';
    if (p->k == 'w')
        for (int k = 0; kw[k]; k++)
            if (floe__sql_ieq(p->s, kw[k]))
                return true;
    return false;
}

/* Spark's decimal literal 1.50BD: DECIMAL(max(digits, scale), scale) of its
 * exact digits (leading zeros aside), at most 38 digits. It becomes
 * floe_cast_decimal('1.50', p, s) (exec_decimal.c): exact, printed at its
 * scale; a unary minus joins the text. */
static int decimal_literal(sql_rw *r, size_t i, const sql_tok *t)
{
    floe_arena *a = r->p->a;
    const char *dot = strchr(t->text, '.');
    int scale = dot ? (int)strlen(dot + 1) : 0, digits = 0;
    bool lead = true;
    for (const char *c = t->text; *c; c++)
        if (*c != '.' && !(lead && *c == '0')) {
            lead = false;
            digits++;
        }
    int precision = digits > scale ? digits : scale;
    if (precision < 1)
        precision = 1;
    if (precision > 38) {
        const char *msg = floe__arena_sprintf(a, "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal "
                                                 "precision %d exceeds max precision 38.", precision);
        return msg ? floe__sql_rw_err(r, i, FLOE_EINVALID, msg) : floe__error_nomem();
    }
    bool neg = unary_minus(r);
    if (neg)
        r->n--;
    const char *lit = floe__sql_quoted(a, floe__arena_sprintf(a, "%s%s", neg ? "-" : "", t->text), false);
    return floe__sql_rw_emit(
        r, lit ? floe__arena_sprintf(a, "floe_cast_decimal(%s, %d, %d)", lit, precision, scale) : NULL,
        'o');
}

const char *floe__sql_case_twin_name(floe_arena *a, const char *name)
{
    size_t n = strlen(name);
    char *s = floe__arena_alloc(a, 2 * n + 2);
    if (!s)
        return NULL;
    memcpy(s, name, n);
    s[n] = FLOE_SQL_TWIN_MARK;
    for (size_t i = 0; i < n; i++)
        s[n + 1 + i] = name[i] >= 'A' && name[i] <= 'Z' ? '1' : '0';
    s[2 * n + 1] = 0;
    return s;
}

/* Emit one source token with SQLite quoting. */
static int emit_tok(sql_rw *r, size_t i)
{
    sql_tok *t = floe__sql_rw_tok(r, i);
    floe_arena *a = r->p->a;
    switch (t->kind) {
    case TK_WORD: {
        static const char *const kw[] = {"SELECT",   "VALUES", "IN",   "EXISTS", "AS",   "FROM",
                                         "WHERE",    "AND",    "OR",   "NOT",    "ON",   "USING",
                                         "THEN",     "ELSE",   "WHEN", "BY",     "JOIN", "ALL",
                                         "DISTINCT", "UNION",  "WITH", "IS",     NULL};
        bool call = floe__sql_tok_op(floe__sql_rw_tok(r, i + 1), "(");
        for (int k = 0; call && kw[k]; k++)
            if (floe__sql_ieq(t->text, kw[k]))
                call = false;
        return floe__sql_rw_emit(r, t->text, call ? 'f' : 'w');
    }
    case TK_QIDENT: {
        const floe_sql_options *o = r->p->opt;
        const char *name = t->text;
        if (o && o->is_case_twin_column && o->is_case_twin_column(name, o->payload))
            name = floe__sql_case_twin_name(a, name); /* the exact-case column */
        return floe__sql_rw_emit(r, name ? floe__sql_quoted(a, name, true) : NULL, 'w');
    }
    case TK_STRING: return floe__sql_rw_emit(r, floe__sql_quoted(a, t->text, false), 'o');
    case TK_NUMBER:
        if (t->end - t->pos == t->len + 2) /* 1.5BD */
            return decimal_literal(r, i, t);
        if (wide_number(t->text)) {
            bool neg = unary_minus(r);
            if (neg)
                r->n--;
            return floe__sql_rw_emit(
                r, floe__sql_quoted(a, floe__arena_sprintf(a, "%s%s", neg ? "-" : "", t->text), false),
                'o');
        }
        return floe__sql_rw_emit(r, t->text, 'o');
    case TK_BLOB: return floe__sql_rw_emit(r, floe__arena_sprintf(a, "X'%s'", t->text), 'o');
    case TK_OP:
        if (!strcmp(t->text, "(") || !strcmp(t->text, ")") || !strcmp(t->text, ".") ||
            !strcmp(t->text, ","))
            return floe__sql_rw_emit(r, t->text, t->text[0]);
        if (!strcmp(t->text, "<=>"))
            return floe__sql_rw_emit(r, "IS", 'o');
        if (!strcmp(t->text, "!"))
            return floe__sql_rw_emit(r, "NOT", 'o');
        if (!strcmp(t->text, "/")) {
            /* Spark's '/' is a double division (7 / 2 = 3.5): make the left
             * operand a REAL. '*' and '/' share precedence and associate to
             * the left, so `a * b / c` stays ((a * b) * 1.0) / c. */
            FLOE_TRY(floe__sql_rw_emit(r, "*", 'o'));
            FLOE_TRY(floe__sql_rw_emit(r, "1.0", 'o'));
            return floe__sql_rw_emit(r, "/", 'o');
        }
        if (!strcmp(t->text, "::"))
            return floe__sql_rw_err(r, i, FLOE_EUNSUPPORTED,
                                    "unsupported: '::' casts (use CAST(x AS t))");
        if (!strcmp(t->text, "?") || !strcmp(t->text, ":") || !strcmp(t->text, "{") ||
            !strcmp(t->text, "}") || !strcmp(t->text, "^") || !strcmp(t->text, "=>") ||
            !strcmp(t->text, "]"))
            return floe__sql_rw_err(r, i, FLOE_EUNSUPPORTED, "unsupported operator");
        return floe__sql_rw_emit(r, t->text, 'o');
    case TK_EOF: break;
    }
    return floe__sql_rw_err(r, i, FLOE_EINVALID, "syntax error: unexpected end of input");
}

static bool is_sep_item(char k)
{
    return k == ',' || k == ')' || k == '.';
}

static char *join(sql_rw *r)
{
    floe_buf b = FLOE_BUF_INIT;
    for (size_t j = 0; j < r->n; j++) {
        if (j && !is_sep_item(r->o[j].k) && r->o[j - 1].k != '(' && r->o[j - 1].k != '.' &&
            !(r->o[j].k == '(' && r->o[j - 1].k == 'f')) {
            if (floe__buf_putc(&b, ' ') < 0)
                goto oom;
        }
        if (floe__buf_puts(&b, r->o[j].s) < 0)
            goto oom;
    }
    char *s = floe__arena_strdup(r->p->a, b.ptr ? b.ptr : "");
    floe__buf_free(&b);
    if (!s)
        floe__error_nomem();
    return s;
oom:
    floe__buf_free(&b);
    return NULL;
}

static int rw_range(sql_rw *r, size_t from, size_t to);

/* Rewrite [from, to) into a separate string sharing the context. */
int floe__sql_rw_sub(sql_rw *r, size_t from, size_t to, char **out)
{
    sql_rw s = *r;
    s.o = NULL;
    s.n = s.cap = 0;
    s.to = to;
    if (++r->p->depth > SQL_MAX_DEPTH)
        return floe__sql_rw_err(r, from, FLOE_EINVALID, "expression nested too deeply");
    int rc = rw_range(&s, from, to);
    r->p->depth--;
    if (rc < 0)
        return rc;
    *out = join(&s);
    return *out ? 0 : FLOE_ENOMEM;
}

/* ---------------------------------------------------------------- CTEs */

size_t floe__sql_rw_match_paren(sql_rw *r, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < r->to; i++) {
        if (floe__sql_tok_op(floe__sql_rw_tok(r, i), "("))
            depth++;
        else if (floe__sql_tok_op(floe__sql_rw_tok(r, i), ")") && --depth == 0)
            return i;
    }
    return (size_t)-1;
}

static int collect_ctes(sql_rw *r, size_t from, size_t to)
{
    for (size_t w = from; w < to; w++) {
        if (!floe__sql_is_word(floe__sql_rw_tok(r, w), "WITH"))
            continue;
        size_t j = w + 1;
        if (floe__sql_is_word(floe__sql_rw_tok(r, j), "RECURSIVE"))
            j++;
        for (;;) {
            sql_tok *name = floe__sql_rw_tok(r, j);
            if (name->kind != TK_WORD && name->kind != TK_QIDENT)
                break;
            j++;
            if (floe__sql_tok_op(floe__sql_rw_tok(r, j), "(")) {
                size_t m = floe__sql_rw_match_paren(r, j);
                if (m == (size_t)-1)
                    break;
                j = m + 1;
            }
            if (!floe__sql_is_word(floe__sql_rw_tok(r, j), "AS"))
                break;
            j++;
            if (floe__sql_is_word(floe__sql_rw_tok(r, j), "NOT"))
                j++;
            if (floe__sql_is_word(floe__sql_rw_tok(r, j), "MATERIALIZED"))
                j++;
            if (!floe__sql_tok_op(floe__sql_rw_tok(r, j), "("))
                break;
            if (!(r->ctes =
                      floe__sql_grow(r->p->a, r->ctes, r->nctes, &r->capctes, sizeof *r->ctes)))
                return FLOE_ENOMEM;
            r->ctes[r->nctes++] = name->text;
            size_t m = floe__sql_rw_match_paren(r, j);
            if (m == (size_t)-1)
                break;
            j = m + 1;
            if (!floe__sql_tok_op(floe__sql_rw_tok(r, j), ","))
                break;
            j++;
        }
    }
    return 0;
}

static bool is_local_name(sql_rw *r, const char *const *parts, size_t n)
{
    const char *last = parts[n - 1];
    if (n == 2 && (floe__sql_ieq(parts[0], "main") || floe__sql_ieq(parts[0], "temp")) &&
        prefix_ci(last, "sqlite_"))
        return true;
    if (n != 1)
        return false;
    if (prefix_ci(last, "sqlite_"))
        return true;
    for (size_t k = 0; k < r->nctes; k++)
        if (floe__sql_ieq(r->ctes[k], last))
            return true;
    const floe_sql_options *o = r->p->opt;
    return o->is_local && o->is_local(last, o->payload);
}

/* ---------------------------------------------------------------- table factors */

static const char *const not_alias[] = {
    "WHERE",     "GROUP",   "HAVING",      "ORDER", "LIMIT",  "OFFSET",    "WINDOW",  "UNION",
    "INTERSECT", "EXCEPT",  "JOIN",        "INNER", "LEFT",   "RIGHT",     "FULL",    "OUTER",
    "CROSS",     "NATURAL", "ON",          "USING", "SELECT", "FROM",      "VALUES",  "SET",
    "WHEN",      "THEN",    "ELSE",        "END",   "AND",    "OR",        "NOT",     "LATERAL",
    "PIVOT",     "UNPIVOT", "TABLESAMPLE", "SEMI",  "ANTI",   "RETURNING", "CLUSTER", "DISTRIBUTE",
    "SORT",      "QUALIFY", "AS",          "FOR",   NULL};

static bool can_be_alias(const sql_tok *t)
{
    if (t->kind == TK_QIDENT)
        return true;
    if (t->kind != TK_WORD)
        return false;
    for (int k = 0; not_alias[k]; k++)
        if (floe__sql_ieq(t->text, not_alias[k]))
            return false;
    return true;
}

bool floe__sql_all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* Is token v (next: the one after it) current_timestamp() / now() /
 * current_timestamp? */
static bool travel_now(const sql_tok *v, const sql_tok *next)
{
    return floe__sql_is_word(v, "CURRENT_TIMESTAMP") ||
           (floe__sql_is_word(v, "NOW") && floe__sql_tok_op(next, "("));
}

/* TIMESTAMP AS OF with a constant expression, evaluated here: a start
 * (current_timestamp(), now(), TIMESTAMP '...' or '...') followed by any
 * number of `+|- INTERVAL n unit` (WEEK, DAY, HOUR, MINUTE, SECOND,
 * MILLISECOND, MICROSECOND, singular or plural). j is at the start token;
 * the result is the instant in UTC. */
static int travel_expr(sql_rw *r, size_t *pi, size_t j, floe_sql_travel *tt)
{
    static const struct {
        const char *unit;
        int64_t us;
    } units[] = {{"WEEK", 604800000000LL}, {"DAY", 86400000000LL},   {"HOUR", 3600000000LL},
                 {"MINUTE", 60000000LL},   {"SECOND", 1000000LL},    {"MILLISECOND", 1000LL},
                 {"MICROSECOND", 1LL}};
    sql_tok *v = floe__sql_rw_tok(r, j);
    int64_t us;
    if (travel_now(v, floe__sql_rw_tok(r, j + 1))) {
        us = floe__now_ms() * 1000;
        j++;
        if (floe__sql_tok_op(floe__sql_rw_tok(r, j), "(")) {
            if (!floe__sql_tok_op(floe__sql_rw_tok(r, j + 1), ")"))
                return floe__sql_rw_err(r, j, FLOE_EINVALID, "syntax error: expected ()");
            j += 2;
        }
    } else {
        if (floe__sql_is_word(v, "TIMESTAMP"))
            v = floe__sql_rw_tok(r, ++j);
        const char *text;
        bool utc;
        if (v->kind != TK_STRING ||
            floe__sql_norm_timestamp(r->p->a, v->text, &text, &utc) < 0 ||
            floe__time_parse_us(text, utc ? NULL : r->p->opt ? r->p->opt->time_zone : NULL, &us) < 0)
            return floe__sql_rw_err(r, j, FLOE_EINVALID, "invalid timestamp in TIMESTAMP AS OF");
        j++;
    }
    for (;;) {
        sql_tok *op = floe__sql_rw_tok(r, j);
        bool minus = floe__sql_tok_op(op, "-");
        if (!minus && !floe__sql_tok_op(op, "+"))
            break;
        sql_tok *n = floe__sql_rw_tok(r, j + 2), *u = floe__sql_rw_tok(r, j + 3);
        if (!floe__sql_is_word(floe__sql_rw_tok(r, j + 1), "INTERVAL") ||
            !((n->kind == TK_NUMBER || n->kind == TK_STRING) && floe__sql_all_digits(n->text)))
            return floe__sql_rw_err(
                r, j, FLOE_EUNSUPPORTED,
                "unsupported: TIMESTAMP AS OF accepts +|- INTERVAL <integer> <unit> only");
        int64_t per = 0;
        for (size_t k = 0; k < FLOE_ARRAY_LEN(units) && u->kind == TK_WORD; k++) {
            size_t l = strlen(units[k].unit);
            if (strncasecmp(u->text, units[k].unit, l) == 0 &&
                (u->text[l] == 0 || ((u->text[l] == 's' || u->text[l] == 'S') && !u->text[l + 1])))
                per = units[k].us;
        }
        if (!per)
            return floe__sql_rw_err(r, j + 3, FLOE_EUNSUPPORTED,
                                    "unsupported: interval unit in TIMESTAMP AS OF (WEEK, DAY, "
                                    "HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND)");
        errno = 0;
        long long cnt = strtoll(n->text, NULL, 10);
        if (errno || cnt > INT64_MAX / per)
            return floe__sql_rw_err(r, j + 2, FLOE_EINVALID, "interval out of range");
        us += minus ? -cnt * per : cnt * per;
        j += 4;
    }
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__rs_format_timestamp_us(us, NULL, &b);
    tt->kind = FLOE_SQLTT_TIMESTAMP;
    tt->timestamp = rc == 0 ? floe__arena_strdup(r->p->a, b.ptr) : NULL;
    tt->timestamp_utc = true;
    floe__buf_free(&b);
    if (rc == 0 && !tt->timestamp)
        rc = floe__error_nomem();
    if (rc < 0)
        return rc == FLOE_ENOMEM ? rc : floe__sql_rw_err(r, j, FLOE_EINVALID, "timestamp out of range");
    *pi = j;
    return 0;
}

/* [FOR] VERSION|SYSTEM_VERSION|TIMESTAMP|SYSTEM_TIME AS OF <value> at *pi. */
static int parse_travel(sql_rw *r, size_t *pi, floe_sql_travel *tt)
{
    size_t j = *pi;
    bool has_for = floe__sql_is_word(floe__sql_rw_tok(r, j), "FOR");
    if (has_for)
        j++;
    sql_tok *w = floe__sql_rw_tok(r, j);
    bool ver = floe__sql_is_word(w, "VERSION") || floe__sql_is_word(w, "SYSTEM_VERSION");
    bool ts = floe__sql_is_word(w, "TIMESTAMP") || floe__sql_is_word(w, "SYSTEM_TIME");
    if (!((ver || ts) && floe__sql_is_word(floe__sql_rw_tok(r, j + 1), "AS") &&
          floe__sql_is_word(floe__sql_rw_tok(r, j + 2), "OF"))) {
        if (has_for)
            return floe__sql_rw_err(r, j, FLOE_EINVALID,
                                    "syntax error: expected VERSION AS OF or TIMESTAMP AS OF");
        return 0;
    }
    j += 3;
    sql_tok *v = floe__sql_rw_tok(r, j);
    if (ver) {
        if ((v->kind == TK_NUMBER && floe__sql_all_digits(v->text)) ||
            (v->kind == TK_STRING && floe__sql_all_digits(v->text))) {
            char *end;
            errno = 0;
            unsigned long long id = strtoull(v->text, &end, 10);
            if (errno || id > INT64_MAX)
                return floe__sql_rw_err(r, j, FLOE_EINVALID, "snapshot id out of range");
            tt->kind = FLOE_SQLTT_SNAPSHOT;
            tt->snapshot_id = (int64_t)id;
        } else if (v->kind == TK_STRING) {
            tt->kind = FLOE_SQLTT_REF;
            tt->ref = v->text;
        } else {
            return floe__sql_rw_err(
                r, j, FLOE_EINVALID,
                "VERSION AS OF expects a snapshot id or a quoted branch or tag name");
        }
        *pi = j + 1;
        return 0;
    }
    size_t after = j + (floe__sql_is_word(v, "TIMESTAMP") ? 2 : 1);
    if (travel_now(v, floe__sql_rw_tok(r, j + 1)) ||
        floe__sql_tok_op(floe__sql_rw_tok(r, after), "+") ||
        floe__sql_tok_op(floe__sql_rw_tok(r, after), "-"))
        return travel_expr(r, pi, j, tt);
    if (floe__sql_is_word(v, "TIMESTAMP") && floe__sql_rw_tok(r, j + 1)->kind == TK_STRING)
        v = floe__sql_rw_tok(r, ++j);
    if (v->kind != TK_STRING)
        return floe__sql_rw_err(
            r, j, FLOE_EUNSUPPORTED,
            "unsupported: TIMESTAMP AS OF needs a literal ('YYYY-MM-DD HH:MM:SS')");
    tt->kind = FLOE_SQLTT_TIMESTAMP;
    int rc = floe__sql_norm_timestamp(r->p->a, v->text, &tt->timestamp, &tt->timestamp_utc);
    if (rc < 0) {
        if (rc == FLOE_ENOMEM)
            return FLOE_ENOMEM;
        return floe__sql_rw_err(r, j, FLOE_EINVALID, "invalid timestamp in TIMESTAMP AS OF");
    }
    *pi = j + 1;
    return 0;
}

static const char *const tvfs[] = {"read_parquet", "incremental_append", "table_changes", NULL};

/* TVF args: literals, optionally `name => literal`. *pi at '('. */
static int parse_tvf_args(sql_rw *r, size_t *pi, floe_sql_tref *ref)
{
    sql_parser *p = r->p;
    size_t save = p->i, save_n = p->n;
    p->i = *pi + 1;
    p->n = r->to; /* the literal parser must not run past the fragment */
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
            if ((t->kind == TK_WORD || t->kind == TK_QIDENT) &&
                floe__sql_tok_op(floe__sql_peek(p, 1), "=>")) {
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
    *pi = p->i;
out:
    p->i = save;
    p->n = save_n;
    return rc;
}

/* Emit the alias: the user's, or the written name so qualified column
 * references keep working. *pi is after the name/time travel. */
static int emit_alias(sql_rw *r, size_t i, const char *implicit)
{
    sql_tok *t = floe__sql_rw_tok(r, i);
    if (floe__sql_is_word(t, "AS") || can_be_alias(t))
        return 0; /* the main loop copies it */
    FLOE_TRY(floe__sql_rw_emit(r, "AS", 'w'));
    return floe__sql_rw_emit(r, floe__sql_quoted(r->p->a, implicit, true), 'w');
}

/* A table factor at *pi (a name, TVF or parenthesised group). Returns
 * 1 when it is '(' (the caller handles the group). */
static int rw_factor(sql_rw *r, size_t *pi)
{
    size_t i = *pi;
    sql_tok *t = floe__sql_rw_tok(r, i);
    if (floe__sql_tok_op(t, "("))
        return 1;
    if (floe__sql_is_word(t, "LATERAL"))
        return floe__sql_rw_err(r, i, FLOE_EUNSUPPORTED, "unsupported: LATERAL");
    if (t->kind != TK_WORD && t->kind != TK_QIDENT)
        return 0; /* let the main loop report or copy it */
    /* dotted name */
    size_t n = 0, j = i;
    for (;;) {
        sql_tok *w = floe__sql_rw_tok(r, j);
        if (w->kind != TK_WORD && w->kind != TK_QIDENT)
            return floe__sql_rw_err(r, j, FLOE_EINVALID, "syntax error: expected a table name");
        n++;
        j++;
        if (!floe__sql_tok_op(floe__sql_rw_tok(r, j), "."))
            break;
        j++;
    }
    if (n > 64)
        return floe__sql_rw_err(r, i, FLOE_EINVALID, "identifier has too many parts");
    const char **parts = floe__arena_calloc(r->p->a, n, sizeof *parts);
    if (!parts)
        return floe__error_nomem();
    for (size_t q = 0; q < n; q++)
        parts[q] = floe__sql_rw_tok(r, i + 2 * q)->text;
    floe_sql_tref ref;
    memset(&ref, 0, sizeof ref);
    if (floe__sql_tok_op(floe__sql_rw_tok(r, j), "(")) {
        bool ours = false;
        for (int k = 0; tvfs[k] && n == 1 && t->kind == TK_WORD; k++)
            ours = ours || floe__sql_ieq(parts[0], tvfs[k]);
        if (!ours && n == 1 && t->kind == TK_WORD && floe__sql_ieq(parts[0], "range")) {
            j = i;
            FLOE_TRY(floe__sql_rw_range(r, &j));
            FLOE_TRY(emit_alias(r, j, "range"));
            *pi = j;
            return 0;
        }
        if (!ours)
            return 0; /* SQLite's own table-valued function: copied */
        ref.name.catalog =
            r->p->opt->catalog_name ? r->p->opt->catalog_name : FLOE_CATALOG_DEFAULT_NAME;
        ref.name.table = "";
        ref.name.kind = FLOE_SQLREF_TVF;
        char *lower = floe__arena_strdup(r->p->a, parts[0]);
        if (!lower)
            return floe__error_nomem();
        for (char *c = lower; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        ref.name.suffix = lower;
        ref.name.pos = t->pos;
        FLOE_TRY(parse_tvf_args(r, &j, &ref));
        if (j > r->to)
            return floe__sql_rw_err(r, i, FLOE_EINVALID, "syntax error: unbalanced '('");
        const char *name;
        FLOE_TRY(floe__sql_add_ref(r->p, &ref, &name));
        FLOE_TRY(floe__sql_rw_emit(r, floe__sql_quoted(r->p->a, name, true), 'w'));
        FLOE_TRY(emit_alias(r, j, lower));
        *pi = j;
        return 0;
    }
    if (is_local_name(r, parts, n)) {
        floe_sql_travel tt = {0};
        size_t k = j;
        FLOE_TRY(parse_travel(r, &k, &tt));
        if (tt.kind)
            return floe__sql_rw_err(r, j, FLOE_EINVALID,
                                    "time travel on a view, CTE or SQLite table");
        for (size_t q = i; q < j; q++)
            FLOE_TRY(emit_tok(r, q));
        *pi = j;
        return 0;
    }
    FLOE_TRY(floe__sql_resolve(r->p, parts, n, t->pos, true, &ref.name));
    size_t k = j;
    FLOE_TRY(parse_travel(r, &k, &ref.travel));
    if (ref.travel.kind &&
        (ref.name.kind == FLOE_SQLREF_BRANCH || ref.name.kind == FLOE_SQLREF_TAG))
        return floe__sql_rw_err(r, j, FLOE_EINVALID,
                                "Cannot do time-travel based on both table identifier and AS OF");
    const char *name;
    FLOE_TRY(floe__sql_add_ref(r->p, &ref, &name));
    FLOE_TRY(floe__sql_rw_emit(r, floe__sql_quoted(r->p->a, name, true), 'w'));
    FLOE_TRY(emit_alias(r, k, parts[n - 1]));
    *pi = k;
    return 0;
}

/* ---------------------------------------------------------------- the walk */

static const char *const clause_end[] = {"WHERE",  "GROUP",     "HAVING",    "ORDER",  "LIMIT",
                                         "WINDOW", "UNION",     "INTERSECT", "EXCEPT", "SELECT",
                                         "VALUES", "RETURNING", NULL};

static bool word_in(const sql_tok *t, const char *const *list)
{
    for (int k = 0; list[k]; k++)
        if (floe__sql_is_word(t, list[k]))
            return true;
    return false;
}

static bool starts_query(const sql_tok *t)
{
    return floe__sql_is_word(t, "SELECT") || floe__sql_is_word(t, "WITH") ||
           floe__sql_is_word(t, "VALUES");
}

static int rw_range(sql_rw *r, size_t from, size_t to)
{
    bool in_from[SQL_MAX_DEPTH + 1], is_call[SQL_MAX_DEPTH + 1];
    int depth = 0;
    in_from[0] = is_call[0] = false;
    bool expect_factor = false;
    size_t i = from;
    if (floe__sql_is_word(floe__sql_rw_tok(r, i), "TABLE") && i + 1 < to) {
        /* Spark's `TABLE t` query */
        FLOE_TRY(floe__sql_rw_emit(r, "SELECT", 'w'));
        FLOE_TRY(floe__sql_rw_emit(r, "*", 'o'));
        FLOE_TRY(floe__sql_rw_emit(r, "FROM", 'w'));
        in_from[0] = expect_factor = true;
        i++;
    }
    while (i < to) {
        sql_tok *t = floe__sql_rw_tok(r, i);
        if (expect_factor) {
            expect_factor = false;
            size_t before = i;
            int rc = rw_factor(r, &i);
            if (rc < 0)
                return rc;
            if (rc == 0 && i != before)
                continue;
            if (rc == 1) {
                /* '(' in a FROM position: a subquery or a join group */
                if (depth >= SQL_MAX_DEPTH)
                    return floe__sql_rw_err(r, i, FLOE_EINVALID, "query nested too deeply");
                FLOE_TRY(floe__sql_rw_emit(r, "(", '('));
                depth++;
                is_call[depth] = false;
                in_from[depth] = !starts_query(floe__sql_rw_tok(r, i + 1));
                expect_factor = in_from[depth];
                i++;
                continue;
            }
        }
        if (floe__sql_tok_op(t, "(")) {
            if (depth >= SQL_MAX_DEPTH)
                return floe__sql_rw_err(r, i, FLOE_EINVALID, "query nested too deeply");
            FLOE_TRY(floe__sql_rw_emit(r, "(", '('));
            depth++;
            in_from[depth] = false;
            is_call[depth] = !starts_query(floe__sql_rw_tok(r, i + 1));
            i++;
            continue;
        }
        if (floe__sql_tok_op(t, ")")) {
            if (depth == 0)
                return floe__sql_rw_err(r, i, FLOE_EINVALID, "syntax error: unbalanced ')'");
            depth--;
            FLOE_TRY(floe__sql_rw_emit(r, ")", ')'));
            i++;
            continue;
        }
        if (floe__sql_tok_op(t, "[")) {
            FLOE_TRY(floe__sql_rw_subscript(r, &i));
            continue;
        }
        if (floe__sql_tok_op(t, ",") && in_from[depth]) {
            FLOE_TRY(floe__sql_rw_emit(r, ",", ','));
            expect_factor = true;
            i++;
            continue;
        }
        if (t->kind == TK_WORD) {
            sql_tok *next = floe__sql_rw_tok(r, i + 1);
            if (floe__sql_is_word(t, "FROM")) {
                bool distinct =
                    i > from && floe__sql_is_word(floe__sql_rw_tok(r, i - 1), "DISTINCT");
                if (!distinct && !(depth > 0 && is_call[depth])) {
                    in_from[depth] = true;
                    expect_factor = true;
                }
                FLOE_TRY(floe__sql_rw_emit(r, t->text, 'w'));
                i++;
                continue;
            }
            if (floe__sql_is_word(t, "JOIN")) {
                sql_tok *prev = floe__sql_rw_tok(r, i - 1);
                if (i > from &&
                    (floe__sql_is_word(prev, "SEMI") || floe__sql_is_word(prev, "ANTI")))
                    return floe__sql_rw_err(
                        r, i - 1, FLOE_EUNSUPPORTED,
                        "unsupported: SEMI/ANTI JOIN (use EXISTS / NOT EXISTS)");
                in_from[depth] = true;
                expect_factor = true;
                FLOE_TRY(floe__sql_rw_emit(r, t->text, 'w'));
                i++;
                continue;
            }
            if (word_in(t, clause_end))
                in_from[depth] = false;
            if (floe__sql_is_word(t, "LATERAL") || floe__sql_is_word(t, "PIVOT") ||
                floe__sql_is_word(t, "UNPIVOT") || floe__sql_is_word(t, "TABLESAMPLE") ||
                floe__sql_is_word(t, "QUALIFY") || floe__sql_is_word(t, "INTERVAL") ||
                ((floe__sql_is_word(t, "CLUSTER") || floe__sql_is_word(t, "DISTRIBUTE") ||
                  floe__sql_is_word(t, "SORT")) &&
                 floe__sql_is_word(next, "BY"))) {
                char msg[80];
                snprintf(msg, sizeof msg, "unsupported: %s", t->text);
                return floe__sql_rw_err(r, i, FLOE_EUNSUPPORTED, msg);
            }
            if ((floe__sql_is_word(t, "DATE") || floe__sql_is_word(t, "TIMESTAMP") ||
                 floe__sql_is_word(t, "TIMESTAMP_NTZ") || floe__sql_is_word(t, "TIMESTAMP_LTZ")) &&
                next->kind == TK_STRING) {
                const char *v;
                bool utc;
                int rc = floe__sql_is_word(t, "DATE")
                             ? floe__sql_norm_date(r->p->a, next->text, &v)
                             : floe__sql_norm_timestamp(r->p->a, next->text, &v, &utc);
                if (rc < 0) {
                    if (rc == FLOE_ENOMEM)
                        return rc;
                    return floe__sql_rw_err(r, i, FLOE_EINVALID,
                                            floe__sql_is_word(t, "DATE")
                                                ? "invalid DATE literal"
                                                : "invalid TIMESTAMP literal");
                }
                if (!floe__sql_is_word(t, "DATE") && utc && r->p->opt && r->p->opt->time_zone) {
                    /* the instant as the session zone's wall clock (as
                     * timestamptz cells read) */
                    int64_t us;
                    floe_buf b = FLOE_BUF_INIT;
                    rc = floe__time_parse_us(v, NULL, &us);
                    if (rc == 0)
                        rc = floe__rs_format_timestamp_us(us, r->p->opt->time_zone, &b);
                    v = rc == 0 ? floe__arena_strdup(r->p->a, b.ptr) : NULL;
                    floe__buf_free(&b);
                    if (rc < 0 && rc != FLOE_ENOMEM)
                        return floe__sql_rw_err(r, i, FLOE_EINVALID, "invalid TIMESTAMP literal");
                }
                FLOE_TRY(floe__sql_rw_emit(r, v ? floe__sql_quoted(r->p->a, v, false) : NULL, 'o'));
                i += 2;
                continue;
            }
            if (floe__sql_is_word(t, "RLIKE") || floe__sql_is_word(t, "REGEXP")) {
                FLOE_TRY(floe__sql_rw_emit(r, "REGEXP", 'w'));
                i++;
                continue;
            }
            if (floe__sql_is_word(t, "LIKE") || floe__sql_is_word(t, "ILIKE")) {
                FLOE_TRY(floe__sql_rw_like(r, &i));
                continue;
            }
            if (floe__sql_is_word(t, "DIV") && !floe__sql_tok_op(next, "(")) {
                /* Spark's integral division: SQLite's '/' of two integers */
                FLOE_TRY(floe__sql_rw_emit(r, "/", 'o'));
                i++;
                continue;
            }
            if (floe__sql_tok_op(next, "(")) {
                int rc = floe__sql_rw_function(r, &i);
                if (rc < 0)
                    return rc;
                if (rc == 1)
                    continue;
            } else if (floe__sql_is_word(t, "CURRENT_TIMESTAMP")) {
                FLOE_TRY(floe__sql_rw_emit(r, "strftime('%Y-%m-%d %H:%M:%f000', 'now')", 'x'));
                i++;
                continue;
            } else if (floe__sql_is_word(t, "CURRENT_DATE")) {
                FLOE_TRY(floe__sql_rw_emit(r, "date('now')", 'x'));
                i++;
                continue;
            }
        }
        if ((t->kind == TK_WORD || t->kind == TK_QIDENT) &&
            floe__sql_tok_op(floe__sql_rw_tok(r, i + 1), ".")) {
            int rc = floe__sql_rw_struct_chain(r, &i);
            if (rc < 0)
                return rc;
            if (rc == 1)
                continue;
        }
        FLOE_TRY(emit_tok(r, i));
        i++;
    }
    if (depth != 0)
        return floe__sql_rw_err(r, to, FLOE_EINVALID, "syntax error: unbalanced '('");
    return 0;
}

/* ------------------------------------------------------- boolean columns */

/* Is the select item [s, e) a boolean expression (Spark prints true/false;
 * SQLite computes 0/1)? A comparison, logical or predicate operator outside
 * parentheses and CASE, TRUE/FALSE, CAST(... AS BOOLEAN) or a call of a
 * predicate function. */
static bool bool_item(sql_rw *r, size_t s, size_t e)
{
    static const char *const ops[] = {"=", "==", "!=", "<>", "<", ">", "<=", ">=", "<=>", "!"};
    static const char *const words[] = {"AND",    "OR",      "NOT", "IS",     "LIKE",
                                        "ILIKE",  "RLIKE",   "IN",  "BETWEEN", "REGEXP",
                                        "EXISTS", NULL};
    static const char *const preds[] = {"array_contains", "isnull",   "isnotnull", "startswith",
                                        "endswith",       "contains", "bool_and",  "bool_or",
                                        "every",          "some",     "any",       NULL};
    sql_tok *t0 = floe__sql_rw_tok(r, s);
    if (e == s + 1 && (floe__sql_is_word(t0, "TRUE") || floe__sql_is_word(t0, "FALSE")))
        return true;
    if (t0->kind == TK_WORD && floe__sql_tok_op(floe__sql_rw_tok(r, s + 1), "(") &&
        floe__sql_rw_match_paren(r, s + 1) == e - 1) {
        if (word_in(t0, preds))
            return true;
        if ((floe__sql_is_word(t0, "CAST") || floe__sql_is_word(t0, "TRY_CAST")) &&
            floe__sql_is_word(floe__sql_rw_tok(r, e - 2), "BOOLEAN"))
            return true;
    }
    int depth = 0;
    for (size_t k = s; k < e; k++) {
        sql_tok *t = floe__sql_rw_tok(r, k);
        if (floe__sql_tok_op(t, "(") || floe__sql_is_word(t, "CASE"))
            depth++;
        else if (floe__sql_tok_op(t, ")") || floe__sql_is_word(t, "END"))
            depth--;
        else if (depth == 0 && t->kind == TK_OP) {
            for (size_t j = 0; j < FLOE_ARRAY_LEN(ops); j++)
                if (!strcmp(t->text, ops[j]))
                    return true;
        } else if (depth == 0 && word_in(t, words)) {
            return true;
        }
    }
    return false;
}

/* Is token k (the last of a select item without AS) an alias: a name
 * after an operand (`x > 1 big`, `f(x) d`), not after an operator? */
static bool bare_alias(sql_rw *r, size_t k)
{
    static const char *const not_names[] = {"NULL", "TRUE", "FALSE", "END", NULL};
    static const char *const operators[] = {"AND",   "OR",      "NOT",   "IS",    "LIKE", "ILIKE",
                                            "RLIKE", "IN",      "BETWEEN", "REGEXP", "DISTINCT",
                                            "CASE",  "WHEN",    "THEN",  "ELSE",  "INTERVAL",
                                            "DIV",   NULL};
    sql_tok *t = floe__sql_rw_tok(r, k), *prev = floe__sql_rw_tok(r, k - 1);
    if (!(t->kind == TK_QIDENT || (t->kind == TK_WORD && !word_in(t, not_names))))
        return false;
    if (prev->kind == TK_OP)
        return floe__sql_tok_op(prev, ")");
    return prev->kind != TK_WORD || !word_in(prev, operators);
}

/* The outermost select list's boolean columns (bit c: column c), up to the
 * first `*` item (the columns after it are not known here). */
static uint64_t bool_columns(sql_rw *r, size_t from, size_t to)
{
    size_t i = from;
    while (i < to && floe__sql_tok_op(floe__sql_rw_tok(r, i), "("))
        i++;
    if (floe__sql_is_word(floe__sql_rw_tok(r, i), "WITH")) {
        /* WITH [RECURSIVE] name [(cols)] AS (query) [, ...] */
        for (i++; i < to && !floe__sql_is_word(floe__sql_rw_tok(r, i), "SELECT"); i++)
            if (floe__sql_tok_op(floe__sql_rw_tok(r, i), "(")) {
                size_t m = floe__sql_rw_match_paren(r, i);
                if (m == (size_t)-1)
                    return 0;
                i = m;
            }
    }
    if (!floe__sql_is_word(floe__sql_rw_tok(r, i), "SELECT"))
        return 0;
    i++;
    if (floe__sql_is_word(floe__sql_rw_tok(r, i), "DISTINCT") ||
        floe__sql_is_word(floe__sql_rw_tok(r, i), "ALL"))
        i++;
    static const char *const end[] = {"FROM",  "WHERE",     "GROUP",  "HAVING",  "ORDER",
                                      "LIMIT", "WINDOW",    "UNION",  "EXCEPT",  "INTERSECT",
                                      "MINUS", "LATERAL",   "CLUSTER", "SORT",   "DISTRIBUTE",
                                      NULL};
    uint64_t bits = 0;
    size_t col = 0, start = i;
    int depth = 0;
    for (size_t k = i; col < 64; k++) {
        sql_tok *t = floe__sql_rw_tok(r, k);
        bool stop = k >= to || t->kind == TK_EOF || (depth == 0 && word_in(t, end)) ||
                    (depth == 0 && floe__sql_tok_op(t, ")"));
        if (stop || (depth == 0 && floe__sql_tok_op(t, ","))) {
            size_t e = k;
            if (e == start || floe__sql_tok_op(floe__sql_rw_tok(r, e - 1), "*"))
                break;
            /* an alias: `AS name`, or a bare name after an operand */
            for (size_t a = start, d = 0; a < e; a++) {
                sql_tok *x = floe__sql_rw_tok(r, a);
                if (floe__sql_tok_op(x, "(") || floe__sql_is_word(x, "CASE"))
                    d++;
                else if (floe__sql_tok_op(x, ")") || floe__sql_is_word(x, "END"))
                    d--;
                else if (d == 0 && floe__sql_is_word(x, "AS")) {
                    e = a;
                    break;
                }
            }
            if (e == k && e >= start + 2 && bare_alias(r, e - 1))
                e--;
            if (bool_item(r, start, e))
                bits |= (uint64_t)1 << col;
            col++;
            start = k + 1;
            if (stop)
                break;
            continue;
        }
        if (floe__sql_tok_op(t, "(") || floe__sql_is_word(t, "CASE"))
            depth++;
        else if (floe__sql_tok_op(t, ")") || floe__sql_is_word(t, "END"))
            depth--;
    }
    return bits;
}

int floe__sql_rewrite(sql_parser *p, size_t from, size_t to, floe_sql_query **out)
{
    sql_rw r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.to = to;
    if (from >= to)
        return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[from < p->n ? from : p->n].pos,
                                "syntax error: expected an expression or query");
    FLOE_TRY(collect_ctes(&r, from, to));
    FLOE_TRY(rw_range(&r, from, to));
    floe_sql_query *q = floe__arena_calloc(p->a, 1, sizeof *q);
    if (!q)
        return floe__error_nomem();
    q->pos = p->t[from].pos;
    q->sql = join(&r);
    if (!q->sql)
        return FLOE_ENOMEM;
    q->bool_columns = bool_columns(&r, from, to);
    *out = q;
    return 0;
}
