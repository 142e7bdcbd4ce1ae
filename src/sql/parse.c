/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The statement parser's entry point: splits a script into statements,
 * dispatches on the leading keyword, and parses the small statements itself
 * (SHOW, DESCRIBE, REFRESH, SET, RESET, USE, EXPLAIN, DROP, namespace
 * statements, plain queries). DDL lives in parse_ddl.c, DML and CALL in
 * parse_dml.c, query rewriting in rewrite.c. Also the token helpers and the
 * literal parser (CALL arguments, TVF arguments) every part uses.
 */
#include "sql/sqlfront_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *floe__sql_grow(floe_arena *a, void *items, size_t n, size_t *cap, size_t item_size)
{
    if (n < *cap)
        return items;
    size_t nc = *cap ? *cap * 2 : 8;
    void *w = floe__arena_alloc(a, nc * item_size);
    if (!w) {
        floe__error_nomem();
        return NULL;
    }
    if (n)
        memcpy(w, items, n * item_size);
    *cap = nc;
    return w;
}

int(floe__sql_err)(sql_parser *p, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return floe__sql_err_at(FLOE_EINVALID, p->script, floe__sql_peek(p, 0)->pos, "%s", msg);
}

int(floe__sql_err_unsupported)(sql_parser *p, const char *what)
{
    return floe__sql_err_at(FLOE_EUNSUPPORTED, p->script, floe__sql_peek(p, 0)->pos,
                            "unsupported: %s", what);
}

sql_tok *floe__sql_peek(sql_parser *p, size_t ahead)
{
    size_t k = p->i + ahead;
    return &p->t[k < p->n ? k : p->n];
}

bool floe__sql_is_word(const sql_tok *t, const char *kw)
{
    return t->kind == TK_WORD && floe__sql_ieq(t->text, kw);
}

bool floe__sql_accept(sql_parser *p, const char *kw)
{
    if (floe__sql_is_word(floe__sql_peek(p, 0), kw)) {
        p->i++;
        return true;
    }
    return false;
}

int floe__sql_expect(sql_parser *p, const char *kw)
{
    if (floe__sql_accept(p, kw))
        return 0;
    return floe__sql_err(p, "syntax error: expected %s", kw);
}

bool floe__sql_accept_op(sql_parser *p, const char *op)
{
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind == TK_OP && strcmp(t->text, op) == 0) {
        p->i++;
        return true;
    }
    return false;
}

int floe__sql_expect_op(sql_parser *p, const char *op)
{
    if (floe__sql_accept_op(p, op))
        return 0;
    return floe__sql_err(p, "syntax error: expected '%s'", op);
}

int floe__sql_ident(sql_parser *p, const char **out)
{
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind != TK_WORD && t->kind != TK_QIDENT)
        return floe__sql_err(p, "syntax error: expected an identifier");
    *out = t->text;
    p->i++;
    return 0;
}

static int parse_i64(const char *s, int64_t *out)
{
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || end == s)
        return -1;
    *out = v;
    return 0;
}

int floe__sql_ident_list(sql_parser *p, const char *const **out, size_t *nout)
{
    const char **ids = NULL;
    size_t n = 0, cap = 0;
    FLOE_TRY(floe__sql_expect_op(p, "("));
    do {
        if (!(ids = floe__sql_grow(p->a, ids, n, &cap, sizeof *ids)))
            return FLOE_ENOMEM;
        FLOE_TRY(floe__sql_ident(p, &ids[n]));
        n++;
    } while (floe__sql_accept_op(p, ","));
    FLOE_TRY(floe__sql_expect_op(p, ")"));
    *out = ids;
    *nout = n;
    return 0;
}

int floe__sql_int(sql_parser *p, int64_t *out)
{
    bool neg = floe__sql_accept_op(p, "-");
    sql_tok *t = floe__sql_peek(p, 0);
    int64_t v;
    if (t->kind != TK_NUMBER || parse_i64(t->text, &v) < 0)
        return floe__sql_err(p, "syntax error: expected an integer");
    p->i++;
    *out = neg ? -v : v;
    return 0;
}

int floe__sql_string(sql_parser *p, const char **out)
{
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind != TK_STRING)
        return floe__sql_err(p, "syntax error: expected a string literal");
    *out = t->text;
    p->i++;
    return 0;
}

static int literal_list(sql_parser *p, floe_sql_value *out, floe_sql_value_kind kind)
{
    out->kind = kind;
    FLOE_TRY(floe__sql_expect_op(p, "("));
    floe_sql_value *items = NULL;
    size_t n = 0, cap = 0;
    if (!floe__sql_accept_op(p, ")")) {
        do {
            if (!(items = floe__sql_grow(p->a, items, n, &cap, sizeof *items)))
                return FLOE_ENOMEM;
            memset(&items[n], 0, sizeof items[n]);
            FLOE_TRY(floe__sql_literal(p, &items[n]));
            n++;
        } while (floe__sql_accept_op(p, ","));
        FLOE_TRY(floe__sql_expect_op(p, ")"));
    }
    if (kind == FLOE_SQLV_MAP && n % 2)
        return floe__sql_err_at(FLOE_EINVALID, p->script, out->pos,
                                "map() expects an even number of arguments");
    out->items = items;
    out->nitems = n;
    return 0;
}

int floe__sql_default(sql_parser *p, floe_sql_column *c)
{
    FLOE_TRY(floe__sql_literal(p, &c->dflt));
    c->has_default = true;
    return 0;
}

int floe__sql_literal(sql_parser *p, floe_sql_value *out)
{
    sql_tok *t = floe__sql_peek(p, 0);
    memset(out, 0, sizeof *out);
    out->pos = t->pos;
    if (++p->depth > SQL_MAX_DEPTH)
        return floe__sql_err(p, "literal nested too deeply");
    int rc = 0;
    if (t->kind == TK_STRING) {
        out->kind = FLOE_SQLV_STRING;
        out->text = t->text;
        p->i++;
        while (floe__sql_peek(p, 0)->kind == TK_STRING) {
            /* adjacent literals are one ('it''s': Spark's stringLit+) */
            if (!(out->text = floe__arena_sprintf(p->a, "%s%s", out->text,
                                                  floe__sql_peek(p, 0)->text))) {
                rc = floe__error_nomem();
                goto done;
            }
            p->i++;
        }
    } else if (t->kind == TK_NUMBER ||
               (t->kind == TK_OP && (!strcmp(t->text, "-") || !strcmp(t->text, "+")))) {
        bool neg = false;
        if (t->kind == TK_OP) {
            neg = t->text[0] == '-';
            p->i++;
            t = floe__sql_peek(p, 0);
            if (t->kind != TK_NUMBER) {
                rc = floe__sql_err(p, "syntax error: expected a number");
                goto done;
            }
        }
        p->i++;
        char *text = floe__arena_sprintf(p->a, "%s%s", neg ? "-" : "", t->text);
        if (!text) {
            rc = FLOE_ENOMEM;
            goto done;
        }
        out->text = text;
        int64_t v;
        if (parse_i64(text, &v) == 0) {
            out->kind = FLOE_SQLV_INT;
            out->i = v;
        } else {
            out->kind = FLOE_SQLV_NUMBER;
        }
    } else if (t->kind == TK_WORD && floe__sql_ieq(t->text, "NULL")) {
        out->kind = FLOE_SQLV_NULL;
        p->i++;
    } else if (t->kind == TK_WORD &&
               (floe__sql_ieq(t->text, "TRUE") || floe__sql_ieq(t->text, "FALSE"))) {
        out->kind = FLOE_SQLV_BOOL;
        out->b = floe__sql_ieq(t->text, "TRUE");
        out->text = out->b ? "true" : "false";
        p->i++;
    } else if (t->kind == TK_WORD && floe__sql_ieq(t->text, "DATE") &&
               floe__sql_peek(p, 1)->kind == TK_STRING) {
        out->kind = FLOE_SQLV_DATE;
        p->i++;
        rc = floe__sql_norm_date(p->a, floe__sql_peek(p, 0)->text, &out->text);
        if (rc < 0 && rc != FLOE_ENOMEM)
            rc = floe__sql_err(p, "invalid DATE literal");
        p->i++;
    } else if (t->kind == TK_WORD &&
               (floe__sql_ieq(t->text, "TIMESTAMP") || floe__sql_ieq(t->text, "TIMESTAMP_NTZ") ||
                floe__sql_ieq(t->text, "TIMESTAMP_LTZ")) &&
               floe__sql_peek(p, 1)->kind == TK_STRING) {
        out->kind = FLOE_SQLV_TIMESTAMP;
        p->i++;
        bool utc;
        rc = floe__sql_norm_timestamp(p->a, floe__sql_peek(p, 0)->text, &out->text, &utc);
        if (rc < 0 && rc != FLOE_ENOMEM)
            rc = floe__sql_err(p, "invalid TIMESTAMP literal");
        p->i++;
    } else if (t->kind == TK_WORD && floe__sql_ieq(t->text, "array") &&
               floe__sql_peek(p, 1)->kind == TK_OP && !strcmp(floe__sql_peek(p, 1)->text, "(")) {
        p->i++;
        rc = literal_list(p, out, FLOE_SQLV_ARRAY);
    } else if (t->kind == TK_WORD && floe__sql_ieq(t->text, "map") &&
               floe__sql_peek(p, 1)->kind == TK_OP && !strcmp(floe__sql_peek(p, 1)->text, "(")) {
        p->i++;
        rc = literal_list(p, out, FLOE_SQLV_MAP);
    } else {
        rc = floe__sql_err(p, "syntax error: expected a literal (number, string, "
                              "TIMESTAMP '...', DATE '...', true, false, NULL, array(), map())");
    }
done:
    p->depth--;
    return rc;
}

/* ---------------------------------------------------------------- small statements */

/* A namespace name: dotted parts, catalog stripped when followed by more. */
static int ns_parts(sql_parser *p, floe_sql_stmt *st)
{
    const char **parts;
    size_t n;
    FLOE_TRY(floe__sql_parts(p, &parts, &n));
    const char *cat = n >= 1 ? floe__sql_catalog_named(p, parts[0]) : NULL;
    st->ns_catalog = p->opt->catalog_name;
    if (cat && n >= 2) {
        st->ns_catalog = cat;
        parts++;
        n--;
    } else if (cat && n == 1) {
        st->ns_catalog = cat;
        n = 0; /* USE <catalog>: the catalog's root */
    }
    st->ns_name = parts;
    st->nns_name = n;
    return 0;
}

static bool at_end(sql_parser *p)
{
    return floe__sql_peek(p, 0)->kind == TK_EOF;
}

static bool is_query_start(const sql_tok *t)
{
    return floe__sql_is_word(t, "SELECT") || floe__sql_is_word(t, "WITH") ||
           floe__sql_is_word(t, "VALUES") || floe__sql_is_word(t, "TABLE") ||
           (t->kind == TK_OP && !strcmp(t->text, "("));
}

static int parse_query_rest(sql_parser *p, floe_sql_stmt *st)
{
    if (!is_query_start(floe__sql_peek(p, 0)))
        return floe__sql_err(p, "syntax error: expected a query (SELECT, WITH or VALUES)");
    floe_sql_query *q;
    FLOE_TRY(floe__sql_rewrite_query(p, p->i, p->n, &q));
    p->i = p->n;
    st->query = q;
    return 0;
}

static bool is_namespace_word(sql_parser *p)
{
    return floe__sql_accept(p, "NAMESPACE") || floe__sql_accept(p, "DATABASE") ||
           floe__sql_accept(p, "SCHEMA");
}

static int parse_drop(sql_parser *p, floe_sql_stmt *st)
{
    if (is_namespace_word(p)) {
        st->kind = FLOE_SQL_DROP_NAMESPACE;
        if (floe__sql_accept(p, "IF")) {
            FLOE_TRY(floe__sql_expect(p, "EXISTS"));
            st->if_exists = true;
        }
        FLOE_TRY(ns_parts(p, st));
        if (floe__sql_accept(p, "CASCADE"))
            st->cascade = true;
        else
            floe__sql_accept(p, "RESTRICT");
        return 0;
    }
    if (floe__sql_accept(p, "TABLE")) {
        st->kind = FLOE_SQL_DROP_TABLE;
        if (floe__sql_accept(p, "IF")) {
            FLOE_TRY(floe__sql_expect(p, "EXISTS"));
            st->if_exists = true;
        }
        FLOE_TRY(floe__sql_table_name(p, false, &st->target));
        st->purge = floe__sql_accept(p, "PURGE");
        return 0;
    }
    if (floe__sql_accept(p, "VIEW")) {
        st->kind = FLOE_SQL_DROP_VIEW;
        if (floe__sql_accept(p, "IF")) {
            FLOE_TRY(floe__sql_expect(p, "EXISTS"));
            st->if_exists = true;
        }
        FLOE_TRY(floe__sql_table_name(p, false, &st->target));
        if (!st->target.nns)
            st->view_name = st->target.table; /* a temporary view first */
        return 0;
    }
    return floe__sql_err_unsupported(p, "DROP of this kind (expected NAMESPACE, TABLE or VIEW)");
}

static int parse_show(sql_parser *p, floe_sql_stmt *st)
{
    if (floe__sql_accept(p, "NAMESPACES") || floe__sql_accept(p, "DATABASES") ||
        floe__sql_accept(p, "SCHEMAS")) {
        st->kind = FLOE_SQL_SHOW_NAMESPACES;
    } else if (floe__sql_accept(p, "TABLES")) {
        st->kind = FLOE_SQL_SHOW_TABLES;
    } else if (floe__sql_accept(p, "VIEWS")) {
        st->kind = FLOE_SQL_SHOW_VIEWS;
        if (floe__sql_accept(p, "IN") || floe__sql_accept(p, "FROM"))
            FLOE_TRY(ns_parts(p, st));
        if (floe__sql_accept(p, "LIKE"))
            FLOE_TRY(floe__sql_string(p, &st->key));
        return 0;
    } else if (floe__sql_accept(p, "CREATE")) {
        /* SHOW CREATE TABLE t */
        FLOE_TRY(floe__sql_expect(p, "TABLE"));
        st->kind = FLOE_SQL_SHOW_CREATE_TABLE;
        FLOE_TRY(floe__sql_table_name(p, false, &st->target));
        if (floe__sql_is_word(floe__sql_peek(p, 0), "AS"))
            return floe__sql_err_unsupported(p, "SHOW CREATE TABLE AS SERDE (v1 Hive tables only)");
        return 0;
    } else if (floe__sql_accept(p, "TBLPROPERTIES")) {
        /* SHOW TBLPROPERTIES t [('key')] */
        st->kind = FLOE_SQL_SHOW_TBLPROPERTIES;
        FLOE_TRY(floe__sql_table_name(p, false, &st->target));
        if (floe__sql_accept_op(p, "(")) {
            FLOE_TRY(floe__sql_string(p, &st->key));
            FLOE_TRY(floe__sql_expect_op(p, ")"));
        }
        return 0;
    } else {
        return floe__sql_err_unsupported(p, "SHOW of this kind (expected NAMESPACES or TABLES)");
    }
    if (floe__sql_accept(p, "IN") || floe__sql_accept(p, "FROM"))
        FLOE_TRY(ns_parts(p, st));
    if (st->kind == FLOE_SQL_SHOW_TABLES && floe__sql_accept(p, "LIKE"))
        FLOE_TRY(floe__sql_string(p, &st->key));
    return 0;
}

/* Raw source text of tokens [from, to), trimmed. */
static const char *raw_text(sql_parser *p, size_t from, size_t to)
{
    if (from >= to)
        return floe__arena_strdup(p->a, "");
    return floe__arena_strndup(p->a, p->script + p->t[from].pos, p->t[to - 1].end - p->t[from].pos);
}

static int parse_set(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_SET;
    if (floe__sql_is_word(floe__sql_peek(p, 0), "TIME") &&
        floe__sql_is_word(floe__sql_peek(p, 1), "ZONE")) {
        p->i += 2;
        st->key = "spark.sql.session.timeZone";
        if (floe__sql_accept(p, "LOCAL")) {
            st->value = "LOCAL";
            return 0;
        }
        return floe__sql_string(p, &st->value);
    }
    if (at_end(p))
        return 0; /* SET: list */
    size_t from = p->i, eq = from;
    while (eq < p->n && !(p->t[eq].kind == TK_OP && !strcmp(p->t[eq].text, "=")))
        eq++;
    if (eq == from)
        return floe__sql_err(p, "syntax error: expected a key");
    if (eq == from + 1 && p->t[from].kind == TK_QIDENT)
        st->key = p->t[from].text;
    else
        st->key = raw_text(p, from, eq);
    if (!st->key)
        return FLOE_ENOMEM;
    p->i = eq;
    if (eq == p->n)
        return 0; /* SET key: show */
    p->i++;
    size_t vfrom = p->i;
    if (p->n - vfrom == 1 && (p->t[vfrom].kind == TK_STRING || p->t[vfrom].kind == TK_QIDENT))
        st->value = p->t[vfrom].text;
    else
        st->value = raw_text(p, vfrom, p->n);
    if (!st->value)
        return FLOE_ENOMEM;
    p->i = p->n;
    return 0;
}

static int parse_stmt(sql_parser *p, floe_sql_stmt *st)
{
    sql_tok *t = floe__sql_peek(p, 0);
    if (is_query_start(t)) {
        st->kind = FLOE_SQL_QUERY;
        return parse_query_rest(p, st);
    }
    if (t->kind != TK_WORD)
        return floe__sql_err(p, "syntax error: expected a statement");
    if (floe__sql_accept(p, "EXPLAIN")) {
        st->kind = FLOE_SQL_EXPLAIN;
        if (floe__sql_accept(p, "EXTENDED") || floe__sql_accept(p, "FORMATTED"))
            st->extended = true;
        return parse_query_rest(p, st);
    }
    if (floe__sql_is_word(t, "CREATE") || floe__sql_is_word(t, "REPLACE"))
        return floe__sql_parse_create(p, st);
    if (floe__sql_accept(p, "DROP"))
        return parse_drop(p, st);
    if (floe__sql_is_word(t, "ALTER"))
        return floe__sql_parse_alter(p, st);
    if (floe__sql_accept(p, "SHOW"))
        return parse_show(p, st);
    if (floe__sql_accept(p, "DESCRIBE") || floe__sql_accept(p, "DESC")) {
        st->kind = FLOE_SQL_DESCRIBE;
        floe__sql_accept(p, "TABLE");
        if (floe__sql_accept(p, "EXTENDED") || floe__sql_accept(p, "FORMATTED"))
            st->extended = true;
        return floe__sql_table_name(p, true, &st->target);
    }
    if (floe__sql_accept(p, "REFRESH")) {
        st->kind = FLOE_SQL_REFRESH;
        floe__sql_accept(p, "TABLE");
        return floe__sql_table_name(p, false, &st->target);
    }
    if (floe__sql_accept(p, "SET"))
        return parse_set(p, st);
    if (floe__sql_accept(p, "RESET")) {
        st->kind = FLOE_SQL_RESET;
        if (!at_end(p)) {
            st->key = raw_text(p, p->i, p->n);
            if (!st->key)
                return FLOE_ENOMEM;
            p->i = p->n;
        }
        return 0;
    }
    if (floe__sql_accept(p, "USE")) {
        st->kind = FLOE_SQL_USE;
        (void)is_namespace_word(p);
        return ns_parts(p, st);
    }
    if (floe__sql_is_word(t, "INSERT"))
        return floe__sql_parse_insert(p, st);
    if (floe__sql_is_word(t, "DELETE"))
        return floe__sql_parse_delete(p, st);
    if (floe__sql_is_word(t, "UPDATE"))
        return floe__sql_parse_update(p, st);
    if (floe__sql_is_word(t, "MERGE"))
        return floe__sql_parse_merge(p, st);
    if (floe__sql_is_word(t, "CALL"))
        return floe__sql_parse_call(p, st);
    return floe__sql_err_unsupported(p, "statement");
}

static const floe_sql_options default_options = FLOE_SQL_OPTIONS_INIT;

int floe__sql_parse(floe_arena *a, const char *sql, const floe_sql_options *opt,
                    floe_sql_stmt **out, const char **rest)
{
    *out = NULL;
    if (!opt)
        opt = &default_options;
    /* Positions count from the whole script when sql points inside it. */
    const char *base = sql;
    if (opt->script && sql >= opt->script &&
        (size_t)(sql - opt->script) <= strnlen(opt->script, SQL_MAX_SCRIPT + 1))
        base = opt->script;
    size_t len = strnlen(base, SQL_MAX_SCRIPT + 1);
    if (len > SQL_MAX_SCRIPT) {
        if (rest)
            *rest = sql + strlen(sql);
        return floe__error(FLOE_EINVALID, "sql", "script too large (over %zu bytes)",
                           SQL_MAX_SCRIPT);
    }
    size_t start = (size_t)(sql - base);
    sql_tok *toks;
    size_t n, next;
    for (;;) {
        int rc = floe__sql_lex_stmt(a, base, start, &toks, &n, &next);
        if (rest)
            *rest = base + next;
        if (rc < 0)
            return rc;
        if (n > 0)
            break;
        if (!base[next])
            return 0; /* nothing but whitespace and comments */
        start = next;
    }
    sql_parser p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.script = base;
    p.opt = opt;
    p.t = toks;
    p.n = n;
    floe_sql_stmt *st = floe__arena_calloc(a, 1, sizeof *st);
    if (!st)
        return floe__error_nomem();
    st->pos = toks[0].pos;
    st->text = floe__arena_strndup(a, base + toks[0].pos, toks[n - 1].end - toks[0].pos);
    if (!st->text)
        return floe__error_nomem();
    int rc = parse_stmt(&p, st);
    if (rc < 0)
        return rc;
    if (!at_end(&p))
        return floe__sql_err(&p, "syntax error: unexpected text after the statement");
    st->refs = p.refs;
    st->nrefs = p.nrefs;
    *out = st;
    return 0;
}

const char *floe__sql_kind_name(floe_sql_kind k)
{
    switch (k) {
    case FLOE_SQL_QUERY: return "QUERY";
    case FLOE_SQL_EXPLAIN: return "EXPLAIN";
    case FLOE_SQL_CREATE_NAMESPACE: return "CREATE_NAMESPACE";
    case FLOE_SQL_DROP_NAMESPACE: return "DROP_NAMESPACE";
    case FLOE_SQL_SHOW_NAMESPACES: return "SHOW_NAMESPACES";
    case FLOE_SQL_SHOW_TABLES: return "SHOW_TABLES";
    case FLOE_SQL_SHOW_TBLPROPERTIES: return "SHOW_TBLPROPERTIES";
    case FLOE_SQL_SHOW_CREATE_TABLE: return "SHOW_CREATE_TABLE";
    case FLOE_SQL_SHOW_VIEWS: return "SHOW_VIEWS";
    case FLOE_SQL_CREATE_TABLE: return "CREATE_TABLE";
    case FLOE_SQL_DROP_TABLE: return "DROP_TABLE";
    case FLOE_SQL_SET_PROPS: return "SET_PROPS";
    case FLOE_SQL_UNSET_PROPS: return "UNSET_PROPS";
    case FLOE_SQL_RENAME_TABLE: return "RENAME_TABLE";
    case FLOE_SQL_CREATE_REF: return "CREATE_REF";
    case FLOE_SQL_DROP_REF: return "DROP_REF";
    case FLOE_SQL_DESCRIBE: return "DESCRIBE";
    case FLOE_SQL_REFRESH: return "REFRESH";
    case FLOE_SQL_SET: return "SET";
    case FLOE_SQL_RESET: return "RESET";
    case FLOE_SQL_USE: return "USE";
    case FLOE_SQL_INSERT: return "INSERT";
    case FLOE_SQL_DELETE: return "DELETE";
    case FLOE_SQL_UPDATE: return "UPDATE";
    case FLOE_SQL_MERGE: return "MERGE";
    case FLOE_SQL_CALL: return "CALL";
    case FLOE_SQL_CREATE_VIEW: return "CREATE_VIEW";
    case FLOE_SQL_DROP_VIEW: return "DROP_VIEW";
    case FLOE_SQL_ALTER_SCHEMA: return "ALTER_SCHEMA";
    }
    return "?";
}
