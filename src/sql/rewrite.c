/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table names and query fragments: Spark's catalog.namespace.table
 * resolution (branch_/tag_/metadata-table suffixes; a table of the whole
 * name wins, as Spark loads it first), the statement's Iceberg references
 * (floe_ref_<n> names the executor creates virtual tables under), and
 * floe__sql_rewrite, which turns a query or expression fragment into SQLite
 * text through the syntax tree (parser.c, print.c). See docs/sql.md.
 */
#include "sql/ast.h"

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
        strcmp(x->name.table, y->name.table) != 0 || !str_eq_null(x->name.suffix, y->name.suffix))
        return false;
    for (size_t k = 0; k < x->name.nns; k++)
        if (strcmp(x->name.ns[k], y->name.ns[k]) != 0)
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
                                         (unsigned long long)p->opt->ref_base + p->nrefs + 1);
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

/* ---------------------------------------------------------------- fragments */

bool floe__sql_all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
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

/* Does the fragment at `from` start (after any '(') with a query keyword? */
static bool query_start(const sql_parser *p, size_t from, size_t to, bool *paren)
{
    size_t k = from;
    while (k < to && floe__sql_tok_op(&p->t[k], "("))
        k++;
    *paren = k > from;
    if (k >= to)
        return false;
    const sql_tok *t = &p->t[k];
    return floe__sql_is_word(t, "SELECT") || floe__sql_is_word(t, "WITH") ||
           floe__sql_is_word(t, "VALUES") ||
           (floe__sql_is_word(t, "TABLE") && k + 1 < to &&
            (p->t[k + 1].kind == TK_WORD || p->t[k + 1].kind == TK_QIDENT));
}

/* A fragment as a tree: a query when it starts like one, else an
 * expression; one that starts with '(' is tried as the other kind when
 * the first fails (prefer_query: which kind first). */
static int fragment(sql_parser *p, size_t from, size_t to, bool prefer_query, floe_sql_query **out)
{
    if (from >= to)
        return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[from < p->n ? from : p->n].pos,
                                "syntax error: expected an expression or query");
    bool paren;
    bool as_query = query_start(p, from, to, &paren);
    if (paren && as_query)
        as_query = prefer_query;
    size_t nrefs = p->nrefs;
    sql_node *tree;
    int rc = floe__sql_parse_tree(p, from, to, as_query, &tree);
    if (rc < 0 && rc != FLOE_ENOMEM && paren && query_start(p, from, to, &paren)) {
        /* `(SELECT ...) + 1` is an expression, `(SELECT ...) UNION ...` a query */
        p->nrefs = nrefs;
        if (floe__sql_parse_tree(p, from, to, !as_query, &tree) == 0) {
            as_query = !as_query;
            rc = 0;
        } else {
            p->nrefs = nrefs;
            rc = floe__sql_parse_tree(p, from, to, as_query, &tree); /* its error */
        }
    }
    FLOE_TRY(rc);
    floe_sql_query *q = floe__arena_calloc(p->a, 1, sizeof *q);
    if (!q)
        return floe__error_nomem();
    char *text;
    floe__sql_bind(p, tree);
    FLOE_TRY(floe__sql_print_tree(p, tree, &text));
    q->pos = p->t[from].pos;
    q->sql = text;
    q->tree = tree;
    q->bool_columns = as_query ? floe__sql_tree_bool_columns(tree) : 0;
    *out = q;
    return 0;
}

int floe__sql_rewrite(sql_parser *p, size_t from, size_t to, floe_sql_query **out)
{
    return fragment(p, from, to, false, out);
}

int floe__sql_rewrite_query(sql_parser *p, size_t from, size_t to, floe_sql_query **out)
{
    return fragment(p, from, to, true, out);
}
