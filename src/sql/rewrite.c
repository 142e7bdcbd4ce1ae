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

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- names */

static const char *const metadata_tables[] = {
    "snapshots",  "history",        "refs",          "files",
    "data_files", "delete_files",   "all_files",     "all_data_files",
    "all_delete_files", "manifests", "all_manifests", "entries",
    "all_entries", "partitions",    "metadata_log_entries", "position_deletes",
    NULL};

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

int floe__sql_resolve(sql_parser *p, const char *const *parts, size_t n, size_t pos,
                      bool allow_suffix, floe_sql_name *out)
{
    memset(out, 0, sizeof *out);
    out->catalog = p->opt->catalog_name ? p->opt->catalog_name : "local";
    out->pos = pos;
    out->kind = FLOE_SQLREF_TABLE;
    if (n >= 2 && floe__sql_ieq(parts[0], out->catalog)) {
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
            for (int k = 0; metadata_tables[k]; k++) {
                if (floe__sql_ieq(last, metadata_tables[k])) {
                    kind = FLOE_SQLREF_METADATA;
                    suffix = metadata_tables[k];
                }
            }
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

static bool tok_op(const sql_tok *t, const char *op)
{
    return t->kind == TK_OP && !strcmp(t->text, op);
}

size_t floe__sql_scan_until(sql_parser *p, size_t from, const char *const *stop, bool stop_comma)
{
    int depth = 0, cases = 0;
    for (size_t i = from; i < p->n; i++) {
        sql_tok *t = &p->t[i];
        if (tok_op(t, "(") || tok_op(t, "[")) {
            depth++;
        } else if (tok_op(t, ")") || tok_op(t, "]")) {
            if (depth == 0)
                return i;
            depth--;
        } else if (depth == 0 && floe__sql_is_word(t, "CASE")) {
            cases++;
        } else if (depth == 0 && cases && floe__sql_is_word(t, "END")) {
            cases--;
        } else if (depth == 0 && !cases) {
            if (stop_comma && tok_op(t, ","))
                return i;
            for (int k = 0; stop && stop[k]; k++)
                if (floe__sql_is_word(t, stop[k]))
                    return i;
        }
    }
    return p->n;
}

/* ---------------------------------------------------------------- output */

/* Output items: 'w' identifier/word, 'f' function name, '(' ')' '.' ','
 * punctuation, 'x' a closed expression, 'o' anything else. */
typedef struct out_item {
    const char *s;
    char k;
} out_item;

typedef struct rw {
    sql_parser *p;
    size_t to;
    out_item *o;
    size_t n, cap;
    const char **ctes;
    size_t nctes, capctes;
} rw;

static sql_tok eof_tok = {TK_EOF, "", 0, 0, 0};

static sql_tok *tk(rw *r, size_t i)
{
    return i < r->to ? &r->p->t[i] : &eof_tok;
}

static int err_at(rw *r, size_t i, int code, const char *msg)
{
    size_t pos = i < r->p->n ? r->p->t[i].pos : r->p->t[r->p->n].pos;
    return floe__sql_err_at(code, r->p->script, pos, "%s", msg);
}

static int emit(rw *r, const char *s, char k)
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

static const char *quoted(floe_arena *a, const char *s, bool ident)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = ident ? floe__sql_quote_ident(&b, s) : floe__sql_quote_string(&b, s);
    const char *out = rc < 0 ? NULL : floe__arena_strdup(a, b.ptr);
    floe__buf_free(&b);
    return out;
}

/* Emit one source token with SQLite quoting. */
static int emit_tok(rw *r, size_t i)
{
    sql_tok *t = tk(r, i);
    floe_arena *a = r->p->a;
    switch (t->kind) {
    case TK_WORD: {
        static const char *const kw[] = {"SELECT", "VALUES", "IN",   "EXISTS", "AS",   "FROM",
                                         "WHERE",  "AND",    "OR",   "NOT",    "ON",   "USING",
                                         "THEN",   "ELSE",   "WHEN", "BY",     "JOIN", "ALL",
                                         "DISTINCT", "UNION", "WITH", "IS",    NULL};
        bool call = tok_op(tk(r, i + 1), "(");
        for (int k = 0; call && kw[k]; k++)
            if (floe__sql_ieq(t->text, kw[k]))
                call = false;
        return emit(r, t->text, call ? 'f' : 'w');
    }
    case TK_QIDENT: return emit(r, quoted(a, t->text, true), 'w');
    case TK_STRING: return emit(r, quoted(a, t->text, false), 'o');
    case TK_NUMBER: return emit(r, t->text, 'o');
    case TK_BLOB: return emit(r, floe__arena_sprintf(a, "X'%s'", t->text), 'o');
    case TK_OP:
        if (!strcmp(t->text, "(") || !strcmp(t->text, ")") || !strcmp(t->text, ".") ||
            !strcmp(t->text, ","))
            return emit(r, t->text, t->text[0]);
        if (!strcmp(t->text, "<=>"))
            return emit(r, "IS", 'o');
        if (!strcmp(t->text, "!"))
            return emit(r, "NOT", 'o');
        if (!strcmp(t->text, "::"))
            return err_at(r, i, FLOE_EUNSUPPORTED, "unsupported: '::' casts (use CAST(x AS t))");
        if (!strcmp(t->text, "?") || !strcmp(t->text, ":") || !strcmp(t->text, "{") ||
            !strcmp(t->text, "}") || !strcmp(t->text, "^") || !strcmp(t->text, "=>") ||
            !strcmp(t->text, "]"))
            return err_at(r, i, FLOE_EUNSUPPORTED, "unsupported operator");
        return emit(r, t->text, 'o');
    case TK_EOF: break;
    }
    return err_at(r, i, FLOE_EINVALID, "syntax error: unexpected end of input");
}

static bool is_sep_item(char k)
{
    return k == ',' || k == ')' || k == '.';
}

static char *join(rw *r)
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

static int rw_range(rw *r, size_t from, size_t to);

/* Rewrite [from, to) into a separate string sharing the context. */
static int sub_text(rw *r, size_t from, size_t to, char **out)
{
    rw s = *r;
    s.o = NULL;
    s.n = s.cap = 0;
    s.to = to;
    if (++r->p->depth > SQL_MAX_DEPTH)
        return err_at(r, from, FLOE_EINVALID, "expression nested too deeply");
    int rc = rw_range(&s, from, to);
    r->p->depth--;
    if (rc < 0)
        return rc;
    *out = join(&s);
    return *out ? 0 : FLOE_ENOMEM;
}

/* ---------------------------------------------------------------- CTEs */

static size_t match_paren(rw *r, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < r->to; i++) {
        if (tok_op(tk(r, i), "("))
            depth++;
        else if (tok_op(tk(r, i), ")") && --depth == 0)
            return i;
    }
    return (size_t)-1;
}

static int collect_ctes(rw *r, size_t from, size_t to)
{
    for (size_t w = from; w < to; w++) {
        if (!floe__sql_is_word(tk(r, w), "WITH"))
            continue;
        size_t j = w + 1;
        if (floe__sql_is_word(tk(r, j), "RECURSIVE"))
            j++;
        for (;;) {
            sql_tok *name = tk(r, j);
            if (name->kind != TK_WORD && name->kind != TK_QIDENT)
                break;
            j++;
            if (tok_op(tk(r, j), "(")) {
                size_t m = match_paren(r, j);
                if (m == (size_t)-1)
                    break;
                j = m + 1;
            }
            if (!floe__sql_is_word(tk(r, j), "AS"))
                break;
            j++;
            if (floe__sql_is_word(tk(r, j), "NOT"))
                j++;
            if (floe__sql_is_word(tk(r, j), "MATERIALIZED"))
                j++;
            if (!tok_op(tk(r, j), "("))
                break;
            if (!(r->ctes = floe__sql_grow(r->p->a, r->ctes, r->nctes, &r->capctes,
                                           sizeof *r->ctes)))
                return FLOE_ENOMEM;
            r->ctes[r->nctes++] = name->text;
            size_t m = match_paren(r, j);
            if (m == (size_t)-1)
                break;
            j = m + 1;
            if (!tok_op(tk(r, j), ","))
                break;
            j++;
        }
    }
    return 0;
}

static bool is_local_name(rw *r, const char *const *parts, size_t n)
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
    "WHERE", "GROUP",   "HAVING",  "ORDER", "LIMIT",  "OFFSET", "WINDOW",  "UNION",
    "INTERSECT", "EXCEPT", "JOIN", "INNER", "LEFT",  "RIGHT",  "FULL",    "OUTER",
    "CROSS", "NATURAL", "ON",      "USING", "SELECT", "FROM",   "VALUES",  "SET",
    "WHEN",  "THEN",    "ELSE",    "END",   "AND",    "OR",     "NOT",     "LATERAL",
    "PIVOT", "UNPIVOT", "TABLESAMPLE", "SEMI", "ANTI", "RETURNING", "CLUSTER",
    "DISTRIBUTE", "SORT", "QUALIFY", "AS", "FOR", NULL};

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

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* [FOR] VERSION|SYSTEM_VERSION|TIMESTAMP|SYSTEM_TIME AS OF <value> at *pi. */
static int parse_travel(rw *r, size_t *pi, floe_sql_travel *tt)
{
    size_t j = *pi;
    bool has_for = floe__sql_is_word(tk(r, j), "FOR");
    if (has_for)
        j++;
    sql_tok *w = tk(r, j);
    bool ver = floe__sql_is_word(w, "VERSION") || floe__sql_is_word(w, "SYSTEM_VERSION");
    bool ts = floe__sql_is_word(w, "TIMESTAMP") || floe__sql_is_word(w, "SYSTEM_TIME");
    if (!((ver || ts) && floe__sql_is_word(tk(r, j + 1), "AS") &&
          floe__sql_is_word(tk(r, j + 2), "OF"))) {
        if (has_for)
            return err_at(r, j, FLOE_EINVALID,
                          "syntax error: expected VERSION AS OF or TIMESTAMP AS OF");
        return 0;
    }
    j += 3;
    sql_tok *v = tk(r, j);
    if (ver) {
        if ((v->kind == TK_NUMBER && all_digits(v->text)) ||
            (v->kind == TK_STRING && all_digits(v->text))) {
            char *end;
            errno = 0;
            unsigned long long id = strtoull(v->text, &end, 10);
            if (errno || id > INT64_MAX)
                return err_at(r, j, FLOE_EINVALID, "snapshot id out of range");
            tt->kind = FLOE_SQLTT_SNAPSHOT;
            tt->snapshot_id = (int64_t)id;
        } else if (v->kind == TK_STRING) {
            tt->kind = FLOE_SQLTT_REF;
            tt->ref = v->text;
        } else {
            return err_at(r, j, FLOE_EINVALID,
                          "VERSION AS OF expects a snapshot id or a quoted branch or tag name");
        }
        *pi = j + 1;
        return 0;
    }
    if (floe__sql_is_word(v, "TIMESTAMP") && tk(r, j + 1)->kind == TK_STRING)
        v = tk(r, ++j);
    if (v->kind != TK_STRING)
        return err_at(r, j, FLOE_EUNSUPPORTED,
                      "unsupported: TIMESTAMP AS OF needs a literal ('YYYY-MM-DD HH:MM:SS')");
    tt->kind = FLOE_SQLTT_TIMESTAMP;
    if (floe__sql_norm_timestamp(r->p->a, v->text, &tt->timestamp, &tt->timestamp_utc) < 0) {
        if (floe__error_code() == FLOE_ENOMEM)
            return FLOE_ENOMEM;
        return err_at(r, j, FLOE_EINVALID, "invalid timestamp in TIMESTAMP AS OF");
    }
    *pi = j + 1;
    return 0;
}

static const char *const tvfs[] = {"read_parquet", "incremental_append", "table_changes", NULL};

/* TVF args: literals, optionally `name => literal`. *pi at '('. */
static int parse_tvf_args(rw *r, size_t *pi, floe_sql_tref *ref)
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
                tok_op(floe__sql_peek(p, 1), "=>")) {
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
static int emit_alias(rw *r, size_t i, const char *implicit)
{
    sql_tok *t = tk(r, i);
    if (floe__sql_is_word(t, "AS") || can_be_alias(t))
        return 0; /* the main loop copies it */
    FLOE_TRY(emit(r, "AS", 'w'));
    return emit(r, quoted(r->p->a, implicit, true), 'w');
}

/* A table factor at *pi (a name, TVF or parenthesised group). Returns
 * 1 when it is '(' (the caller handles the group). */
static int rw_factor(rw *r, size_t *pi)
{
    size_t i = *pi;
    sql_tok *t = tk(r, i);
    if (tok_op(t, "("))
        return 1;
    if (floe__sql_is_word(t, "LATERAL"))
        return err_at(r, i, FLOE_EUNSUPPORTED, "unsupported: LATERAL");
    if (t->kind != TK_WORD && t->kind != TK_QIDENT)
        return 0; /* let the main loop report or copy it */
    /* dotted name */
    size_t n = 0, j = i;
    for (;;) {
        sql_tok *w = tk(r, j);
        if (w->kind != TK_WORD && w->kind != TK_QIDENT)
            return err_at(r, j, FLOE_EINVALID, "syntax error: expected a table name");
        n++;
        j++;
        if (!tok_op(tk(r, j), "."))
            break;
        j++;
    }
    if (n > 64)
        return err_at(r, i, FLOE_EINVALID, "identifier has too many parts");
    const char **parts = floe__arena_calloc(r->p->a, n, sizeof *parts);
    if (!parts)
        return floe__error_nomem();
    for (size_t q = 0; q < n; q++)
        parts[q] = tk(r, i + 2 * q)->text;
    floe_sql_tref ref;
    memset(&ref, 0, sizeof ref);
    if (tok_op(tk(r, j), "(")) {
        bool ours = false;
        for (int k = 0; tvfs[k] && n == 1 && t->kind == TK_WORD; k++)
            ours = ours || floe__sql_ieq(parts[0], tvfs[k]);
        if (!ours)
            return 0; /* SQLite's own table-valued function: copied */
        ref.name.catalog = r->p->opt->catalog_name ? r->p->opt->catalog_name : "local";
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
            return err_at(r, i, FLOE_EINVALID, "syntax error: unbalanced '('");
        const char *name;
        FLOE_TRY(floe__sql_add_ref(r->p, &ref, &name));
        FLOE_TRY(emit(r, quoted(r->p->a, name, true), 'w'));
        FLOE_TRY(emit_alias(r, j, lower));
        *pi = j;
        return 0;
    }
    if (is_local_name(r, parts, n)) {
        floe_sql_travel tt = {0};
        size_t k = j;
        FLOE_TRY(parse_travel(r, &k, &tt));
        if (tt.kind)
            return err_at(r, j, FLOE_EINVALID, "time travel on a view, CTE or SQLite table");
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
        return err_at(r, j, FLOE_EINVALID,
                      "Cannot do time-travel based on both table identifier and AS OF");
    const char *name;
    FLOE_TRY(floe__sql_add_ref(r->p, &ref, &name));
    FLOE_TRY(emit(r, quoted(r->p->a, name, true), 'w'));
    FLOE_TRY(emit_alias(r, k, parts[n - 1]));
    *pi = k;
    return 0;
}

/* ---------------------------------------------------------------- expressions */

static const char *const struct_columns[] = {"partition", "data_file", "readable_metrics",
                                             NULL};

static bool is_struct_column(const char *s)
{
    for (int k = 0; struct_columns[k]; k++)
        if (floe__sql_ieq(s, struct_columns[k]))
            return true;
    return false;
}

/* JSON path label: $."a"."b" ... ; a '"' cannot be expressed. */
static int path_label(rw *r, size_t at, floe_buf *b, const char *label)
{
    if (strchr(label, '"'))
        return err_at(r, at, FLOE_EUNSUPPORTED, "unsupported: key containing '\"'");
    FLOE_TRY(floe__buf_puts(b, ".\""));
    FLOE_TRY(floe__buf_puts(b, label));
    return floe__buf_putc(b, '"');
}

/* a.b.partition.x.y -> json_extract(a.b."partition", '$."x"."y"') when one
 * non-final part is a struct column. Returns 1 when handled. */
static int rw_struct_chain(rw *r, size_t *pi)
{
    size_t i = *pi, j = i;
    size_t n = 0, split = (size_t)-1;
    for (;;) {
        sql_tok *w = tk(r, j);
        if (w->kind != TK_WORD && w->kind != TK_QIDENT)
            break;
        if (split == (size_t)-1 && is_struct_column(w->text) && tok_op(tk(r, j + 1), "."))
            split = n;
        n++;
        if (!tok_op(tk(r, j + 1), ".") ||
            (tk(r, j + 2)->kind != TK_WORD && tk(r, j + 2)->kind != TK_QIDENT))
            break;
        j += 2;
    }
    if (split == (size_t)-1 || tok_op(tk(r, j + 1), "("))
        return 0;
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, "$");
    size_t k = i;
    FLOE_TRY(emit(r, "json_extract", 'f'));
    FLOE_TRY(emit(r, "(", '('));
    for (size_t q = 0; q < n && rc == 0; q++, k += 2) {
        sql_tok *w = tk(r, k);
        if (q <= split) {
            if (q)
                rc = emit(r, ".", '.');
            if (rc == 0)
                rc = emit(r, quoted(r->p->a, w->text, true), 'w');
        } else {
            rc = path_label(r, k, &b, w->text);
        }
    }
    if (rc == 0)
        rc = emit(r, ",", ',');
    if (rc == 0)
        rc = emit(r, quoted(r->p->a, b.ptr, false), 'o');
    floe__buf_free(&b);
    FLOE_TRY(rc);
    FLOE_TRY(emit(r, ")", ')'));
    *pi = j + 1;
    return 1;
}

/* x[...] -> json_extract(x, path). *pi at '['. */
static int rw_subscript(rw *r, size_t *pi)
{
    size_t i = *pi, j = i + 1;
    int depth = 1;
    for (; j < r->to; j++) {
        if (tok_op(tk(r, j), "["))
            depth++;
        else if (tok_op(tk(r, j), "]") && --depth == 0)
            break;
    }
    if (j >= r->to)
        return err_at(r, i, FLOE_EINVALID, "syntax error: unbalanced '['");
    if (r->n == 0)
        return err_at(r, i, FLOE_EINVALID, "syntax error: '[' without an operand");
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
                return err_at(r, i, FLOE_EINVALID, "syntax error: unbalanced ')'");
        }
        if (s > 0 && (r->o[s - 1].k == 'f' || r->o[s - 1].k == 'w'))
            s--;
    } else if (r->o[e].k == 'w') {
        while (s >= 2 && r->o[s - 1].k == '.' && r->o[s - 2].k == 'w')
            s -= 2;
    } else if (r->o[e].k != 'x') {
        return err_at(r, i, FLOE_EUNSUPPORTED, "unsupported: subscript on this expression");
    }
    /* Integer-keyed maps of the metadata tables are JSON objects: m[1] is
     * $."1"; other integer subscripts index arrays: a[0] is $[0]. */
    static const char *const int_maps[] = {"column_sizes", "value_counts", "null_value_counts",
                                           "nan_value_counts", "lower_bounds", "upper_bounds",
                                           NULL};
    bool int_map = false;
    for (int k = 0; int_maps[k] && r->o[e].k == 'w'; k++)
        int_map = int_map || floe__sql_ieq(r->o[e].s, int_maps[k]);
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
    FLOE_TRY(emit(r, ",", ','));
    floe_buf path = FLOE_BUF_INIT, lit = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&lit, "$");
    size_t k = i;
    for (bool first = true; rc == 0; first = false) {
        sql_tok *t0 = tk(r, k), *t1 = tk(r, k + 1), *t2 = tk(r, k + 2);
        size_t close = first ? j : k + 2;
        if (tok_op(t0, ".") && (t1->kind == TK_WORD || t1->kind == TK_QIDENT) &&
            !tok_op(t2, "(") && !first) {
            rc = path_label(r, k + 1, &lit, t1->text);
            k += 2;
        } else if (tok_op(t0, "[") && close == k + 2 && tok_op(tk(r, close), "]") &&
                   t1->kind == TK_STRING) {
            rc = path_label(r, k + 1, &lit, t1->text);
            k += 3;
        } else if (tok_op(t0, "[") && close == k + 2 && tok_op(tk(r, close), "]") &&
                   t1->kind == TK_NUMBER && all_digits(t1->text)) {
            rc = int_map ? floe__buf_printf(&lit, ".\"%s\"", t1->text)
                         : floe__buf_printf(&lit, "[%s]", t1->text);
            k += 3;
        } else if (first) {
            /* a computed key: '$."' || (expr) || '"' */
            char *inner = NULL;
            rc = sub_text(r, i + 1, j, &inner);
            const char *q = rc == 0 ? quoted(r->p->a, lit.ptr, false) : NULL;
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
        const char *q = quoted(r->p->a, lit.ptr ? lit.ptr : "", false);
        rc = !q ? FLOE_ENOMEM : path.len ? floe__buf_printf(&path, " || %s", q)
                                          : floe__buf_puts(&path, q);
    }
    if (rc == 0)
        rc = emit(r, floe__arena_strdup(r->p->a, path.ptr), 'o');
    floe__buf_free(&path);
    floe__buf_free(&lit);
    FLOE_TRY(rc);
    FLOE_TRY(emit(r, ")", ')'));
    *pi = k;
    return 0;
}

/* Arguments of a call whose '(' is at lp: rewritten texts. */
static int call_args(rw *r, size_t lp, size_t *rp_out, char ***args_out, size_t *n_out)
{
    size_t rp = match_paren(r, lp);
    if (rp == (size_t)-1)
        return err_at(r, lp, FLOE_EINVALID, "syntax error: unbalanced '('");
    char **args = NULL;
    size_t n = 0, cap = 0, start = lp + 1;
    if (rp > lp + 1) {
        int depth = 0;
        for (size_t k = lp + 1; k <= rp; k++) {
            sql_tok *t = tk(r, k);
            if (k < rp && (tok_op(t, "(") || tok_op(t, "[")))
                depth++;
            else if (k < rp && (tok_op(t, ")") || tok_op(t, "]")))
                depth--;
            else if (k == rp || (depth == 0 && tok_op(t, ","))) {
                if (k == start)
                    return err_at(r, k, FLOE_EINVALID, "syntax error: empty argument");
                if (!(args = floe__sql_grow(r->p->a, args, n, &cap, sizeof *args)))
                    return FLOE_ENOMEM;
                FLOE_TRY(sub_text(r, start, k, &args[n]));
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

static const char *cast_type(const sql_tok *t)
{
    static const struct {
        const char *spark, *sqlite;
    } m[] = {{"string", "TEXT"},    {"varchar", "TEXT"},    {"char", "TEXT"},
             {"bigint", "INTEGER"}, {"long", "INTEGER"},    {"int", "INTEGER"},
             {"integer", "INTEGER"}, {"smallint", "INTEGER"}, {"tinyint", "INTEGER"},
             {"short", "INTEGER"},  {"byte", "INTEGER"},    {"boolean", "INTEGER"},
             {"float", "REAL"},     {"real", "REAL"},       {"double", "REAL"},
             {"decimal", "NUMERIC"}, {"dec", "NUMERIC"},    {"numeric", "NUMERIC"},
             {"binary", "BLOB"},    {"timestamp", "TEXT"},  {"timestamp_ntz", "TEXT"},
             {"timestamp_ltz", "TEXT"}};
    if (t->kind != TK_WORD)
        return NULL;
    for (size_t k = 0; k < FLOE_ARRAY_LEN(m); k++)
        if (floe__sql_ieq(t->text, m[k].spark))
            return m[k].sqlite;
    return NULL;
}

/* CAST(x AS type) / TRY_CAST. *pi at the CAST word. */
static int rw_cast(rw *r, size_t *pi)
{
    size_t lp = *pi + 1, rp = match_paren(r, lp);
    if (rp == (size_t)-1)
        return err_at(r, lp, FLOE_EINVALID, "syntax error: unbalanced '('");
    /* the AS at depth 1 */
    size_t as = (size_t)-1;
    int depth = 0;
    for (size_t k = lp; k < rp; k++) {
        if (tok_op(tk(r, k), "("))
            depth++;
        else if (tok_op(tk(r, k), ")"))
            depth--;
        else if (depth == 1 && floe__sql_is_word(tk(r, k), "AS"))
            as = k;
    }
    if (as == (size_t)-1 || as == lp + 1)
        return err_at(r, *pi, FLOE_EINVALID, "syntax error: expected CAST(expr AS type)");
    char *x;
    FLOE_TRY(sub_text(r, lp + 1, as, &x));
    sql_tok *ty = tk(r, as + 1);
    const char *out;
    if (floe__sql_is_word(ty, "DATE")) {
        out = floe__arena_sprintf(r->p->a, "date(%s)", x);
    } else {
        const char *st = cast_type(ty);
        if (!st)
            return err_at(r, as + 1, FLOE_EUNSUPPORTED, "unsupported: CAST to this type");
        size_t k = as + 2;
        if (tok_op(tk(r, k), "(")) {
            size_t m = match_paren(r, k);
            if (m != rp - 1)
                return err_at(r, k, FLOE_EINVALID, "syntax error in CAST type");
            k = m + 1;
        }
        if (k != rp)
            return err_at(r, k, FLOE_EINVALID, "syntax error in CAST type");
        out = floe__arena_sprintf(r->p->a, "CAST(%s AS %s)", x, st);
    }
    FLOE_TRY(emit(r, out, 'x'));
    *pi = rp + 1;
    return 0;
}

/* Spark date_format pattern -> strftime format (only the common letters). */
static int strftime_pattern(rw *r, size_t at, const char *pat, floe_buf *b)
{
    static const struct {
        const char *spark, *fmt;
    } m[] = {{"yyyy", "%Y"}, {"MM", "%m"}, {"dd", "%d"}, {"HH", "%H"},
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
            return err_at(r, at, FLOE_EUNSUPPORTED,
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
    {"array", "json_array"},         {"map", "json_object"},
    {"named_struct", "json_object"}, {"size", "json_array_length"},
    {"cardinality", "json_array_length"}, {"nvl", "ifnull"},
    {"if", "iif"},                   {"lcase", "lower"},
    {"ucase", "upper"},              {"collect_list", "json_group_array"},
    {"to_date", "date"},             {"len", "length"},
    {"char_length", "length"},       {"character_length", "length"},
    {"get_json_object", "json_extract"}, {"bool_or", "max"},
    {"bool_and", "min"},             {"every", "min"},
    {"some", "max"},                 {"any", "max"},
};

/* A function call at *pi (word followed by '('). Returns 1 when handled. */
static int rw_function(rw *r, size_t *pi)
{
    size_t i = *pi;
    sql_tok *t = tk(r, i);
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
            FLOE_TRY(emit(r, renames[k].sqlite, 'f'));
            *pi = i + 1;
            return 1;
        }
    }
    static const struct {
        const char *spark, *fmt;
    } parts[] = {{"year", "%Y"},   {"month", "%m"},  {"day", "%d"},   {"dayofmonth", "%d"},
                 {"hour", "%H"},   {"minute", "%M"}, {"second", "%S"}, {"dayofyear", "%j"}};
    static const char *const specials[] = {"current_timestamp", "now", "current_date",
                                           "unix_timestamp", "date_add", "date_sub",
                                           "datediff", "concat", "concat_ws", "date_format",
                                           "array_contains", NULL};
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
            return err_at(r, i, FLOE_EINVALID, "expected one argument");
        out = floe__arena_sprintf(a, "CAST(strftime('%s', %s) AS INTEGER)", parts[part].fmt,
                                  args[0]);
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
                return err_at(r, i, FLOE_EUNSUPPORTED, "unsupported: unix_timestamp(x, fmt)");
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
                return err_at(r, i, FLOE_EINVALID, "concat_ws expects a separator");
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
            if (n == 2 && tk(r, rp - 1)->kind == TK_STRING && tok_op(tk(r, rp - 2), ","))
                fmt = tk(r, rp - 1);
            if (n == 2 && !fmt)
                return err_at(r, i, FLOE_EUNSUPPORTED,
                              "unsupported: date_format with a non-literal pattern");
            if (fmt) {
                floe_buf b = FLOE_BUF_INIT;
                int rc = strftime_pattern(r, rp - 1, fmt->text, &b);
                const char *q = rc == 0 ? quoted(a, b.ptr ? b.ptr : "", false) : NULL;
                floe__buf_free(&b);
                FLOE_TRY(rc);
                out = q ? floe__arena_sprintf(a, "strftime(%s, %s)", q, args[0]) : NULL;
            }
        } else if (!strcmp(name, "array_contains")) {
            want = 2;
            if (n == 2)
                out = floe__arena_sprintf(a, "((%s) IN (SELECT value FROM json_each(%s)))",
                                          args[1], args[0]);
        }
        if (want && n != want)
            return err_at(r, i, FLOE_EINVALID, "wrong number of arguments");
    }
    FLOE_TRY(emit(r, out, 'x'));
    *pi = rp + 1;
    return 1;
}

/* ---------------------------------------------------------------- the walk */

static const char *const clause_end[] = {"WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
                                         "WINDOW", "UNION", "INTERSECT", "EXCEPT", "SELECT",
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

static int rw_range(rw *r, size_t from, size_t to)
{
    bool in_from[SQL_MAX_DEPTH + 1], is_call[SQL_MAX_DEPTH + 1];
    int depth = 0;
    in_from[0] = is_call[0] = false;
    bool expect_factor = false;
    size_t i = from;
    if (floe__sql_is_word(tk(r, i), "TABLE") && i + 1 < to) {
        /* Spark's `TABLE t` query */
        FLOE_TRY(emit(r, "SELECT", 'w'));
        FLOE_TRY(emit(r, "*", 'o'));
        FLOE_TRY(emit(r, "FROM", 'w'));
        in_from[0] = expect_factor = true;
        i++;
    }
    while (i < to) {
        sql_tok *t = tk(r, i);
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
                    return err_at(r, i, FLOE_EINVALID, "query nested too deeply");
                FLOE_TRY(emit(r, "(", '('));
                depth++;
                is_call[depth] = false;
                in_from[depth] = !starts_query(tk(r, i + 1));
                expect_factor = in_from[depth];
                i++;
                continue;
            }
        }
        if (tok_op(t, "(")) {
            if (depth >= SQL_MAX_DEPTH)
                return err_at(r, i, FLOE_EINVALID, "query nested too deeply");
            FLOE_TRY(emit(r, "(", '('));
            depth++;
            in_from[depth] = false;
            is_call[depth] = !starts_query(tk(r, i + 1));
            i++;
            continue;
        }
        if (tok_op(t, ")")) {
            if (depth == 0)
                return err_at(r, i, FLOE_EINVALID, "syntax error: unbalanced ')'");
            depth--;
            FLOE_TRY(emit(r, ")", ')'));
            i++;
            continue;
        }
        if (tok_op(t, "[")) {
            FLOE_TRY(rw_subscript(r, &i));
            continue;
        }
        if (tok_op(t, ",") && in_from[depth]) {
            FLOE_TRY(emit(r, ",", ','));
            expect_factor = true;
            i++;
            continue;
        }
        if (t->kind == TK_WORD) {
            sql_tok *next = tk(r, i + 1);
            if (floe__sql_is_word(t, "FROM")) {
                bool distinct = i > from && floe__sql_is_word(tk(r, i - 1), "DISTINCT");
                if (!distinct && !(depth > 0 && is_call[depth])) {
                    in_from[depth] = true;
                    expect_factor = true;
                }
                FLOE_TRY(emit(r, t->text, 'w'));
                i++;
                continue;
            }
            if (floe__sql_is_word(t, "JOIN")) {
                sql_tok *prev = tk(r, i - 1);
                if (i > from && (floe__sql_is_word(prev, "SEMI") || floe__sql_is_word(prev, "ANTI")))
                    return err_at(r, i - 1, FLOE_EUNSUPPORTED,
                                  "unsupported: SEMI/ANTI JOIN (use EXISTS / NOT EXISTS)");
                in_from[depth] = true;
                expect_factor = true;
                FLOE_TRY(emit(r, t->text, 'w'));
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
                return err_at(r, i, FLOE_EUNSUPPORTED, msg);
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
                    if (floe__error_code() == FLOE_ENOMEM && rc == FLOE_ENOMEM)
                        return rc;
                    return err_at(r, i, FLOE_EINVALID, floe__sql_is_word(t, "DATE")
                                                           ? "invalid DATE literal"
                                                           : "invalid TIMESTAMP literal");
                }
                FLOE_TRY(emit(r, quoted(r->p->a, v, false), 'o'));
                i += 2;
                continue;
            }
            if (floe__sql_is_word(t, "RLIKE") || floe__sql_is_word(t, "REGEXP")) {
                FLOE_TRY(emit(r, "REGEXP", 'w'));
                i++;
                continue;
            }
            if (floe__sql_is_word(t, "ILIKE")) {
                FLOE_TRY(emit(r, "LIKE", 'w'));
                i++;
                continue;
            }
            if (tok_op(next, "(")) {
                int rc = rw_function(r, &i);
                if (rc < 0)
                    return rc;
                if (rc == 1)
                    continue;
            } else if (floe__sql_is_word(t, "CURRENT_TIMESTAMP")) {
                FLOE_TRY(emit(r, "strftime('%Y-%m-%d %H:%M:%f000', 'now')", 'x'));
                i++;
                continue;
            } else if (floe__sql_is_word(t, "CURRENT_DATE")) {
                FLOE_TRY(emit(r, "date('now')", 'x'));
                i++;
                continue;
            }
        }
        if ((t->kind == TK_WORD || t->kind == TK_QIDENT) && tok_op(tk(r, i + 1), ".")) {
            int rc = rw_struct_chain(r, &i);
            if (rc < 0)
                return rc;
            if (rc == 1)
                continue;
        }
        FLOE_TRY(emit_tok(r, i));
        i++;
    }
    if (depth != 0)
        return err_at(r, to, FLOE_EINVALID, "syntax error: unbalanced '('");
    return 0;
}

int floe__sql_rewrite(sql_parser *p, size_t from, size_t to, floe_sql_query **out)
{
    rw r;
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
    *out = q;
    return 0;
}
