/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DML statements and CALL: INSERT INTO / INSERT OVERWRITE (VALUES or a
 * query), DELETE FROM, UPDATE ... SET, MERGE INTO (split into its parts:
 * target, source query, ON condition and the WHEN clauses), and the Iceberg
 * stored-procedure call `CALL [catalog.]system.proc(args)` with positional or
 * `name => value` literal arguments. Targets may carry a `branch_<name>`
 * suffix (writes to a branch); every expression or query part is rewritten
 * to SQLite text by rewrite.c.
 */
#include "sql/sqlfront_int.h"

#include <ctype.h>
#include <string.h>

static bool tok_op(const sql_tok *t, const char *op)
{
    return t->kind == TK_OP && !strcmp(t->text, op);
}

static int dml_target(sql_parser *p, floe_sql_stmt *st)
{
    size_t at = p->i;
    FLOE_TRY(floe__sql_table_name(p, true, &st->target));
    if (st->target.kind == FLOE_SQLREF_METADATA || st->target.kind == FLOE_SQLREF_TAG)
        return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[at].pos, "cannot write to %s %s",
                                st->target.kind == FLOE_SQLREF_TAG ? "tag" : "metadata table",
                                st->target.suffix);
    return 0;
}

static const char *const alias_stop[] = {"SET",     "WHERE",     "USING",  "ON",
                                         "WHEN",    "VALUES",    "SELECT", "WITH",
                                         "VERSION", "TIMESTAMP", "FOR",    NULL};

/* [AS] alias after a DML target. */
static int opt_alias(sql_parser *p, const char **alias)
{
    *alias = NULL;
    if (floe__sql_accept(p, "AS"))
        return floe__sql_ident(p, alias);
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind == TK_QIDENT) {
        *alias = t->text;
        p->i++;
    } else if (t->kind == TK_WORD) {
        for (int k = 0; alias_stop[k]; k++)
            if (floe__sql_ieq(t->text, alias_stop[k]))
                return 0;
        *alias = t->text;
        p->i++;
    }
    return 0;
}

int floe__sql_parse_insert(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_INSERT;
    FLOE_TRY(floe__sql_expect(p, "INSERT"));
    if (floe__sql_accept(p, "OVERWRITE")) {
        st->overwrite = true;
        floe__sql_accept(p, "TABLE");
    } else {
        FLOE_TRY(floe__sql_expect(p, "INTO"));
        floe__sql_accept(p, "TABLE");
    }
    FLOE_TRY(dml_target(p, st));
    if (floe__sql_is_word(floe__sql_peek(p, 0), "PARTITION"))
        return floe__sql_err_unsupported(p, "INSERT ... PARTITION (...) (use a column list)");
    if (floe__sql_is_word(floe__sql_peek(p, 0), "BY"))
        return floe__sql_err_unsupported(p, "INSERT ... BY NAME");
    if (tok_op(floe__sql_peek(p, 0), "(") && !(floe__sql_is_word(floe__sql_peek(p, 1), "SELECT") ||
                                               floe__sql_is_word(floe__sql_peek(p, 1), "WITH"))) {
        FLOE_TRY(floe__sql_ident_list(p, &st->columns, &st->ncolumns));
    }
    sql_tok *t = floe__sql_peek(p, 0);
    if (!(floe__sql_is_word(t, "VALUES") || floe__sql_is_word(t, "SELECT") ||
          floe__sql_is_word(t, "WITH") || tok_op(t, "(")))
        return floe__sql_err(p, "syntax error: expected VALUES or a query");
    floe_sql_query *q;
    FLOE_TRY(floe__sql_rewrite_query(p, p->i, p->n, &q));
    p->i = p->n;
    st->query = q;
    return 0;
}

static const char *const where_stop[] = {"WHERE", NULL};

int floe__sql_parse_delete(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_DELETE;
    FLOE_TRY(floe__sql_expect(p, "DELETE"));
    FLOE_TRY(floe__sql_expect(p, "FROM"));
    FLOE_TRY(dml_target(p, st));
    FLOE_TRY(opt_alias(p, &st->alias));
    if (floe__sql_accept(p, "WHERE")) {
        floe_sql_query *q;
        FLOE_TRY(floe__sql_rewrite(p, p->i, p->n, &q));
        p->i = p->n;
        st->where = q;
    }
    return 0;
}

/* col = expr [, col = expr ...] up to a stop word at depth 0. */
static int assignments(sql_parser *p, const char *const *stop, const floe_sql_assign **out,
                       size_t *n_out)
{
    floe_sql_assign *as = NULL;
    size_t n = 0, cap = 0;
    do {
        if (!(as = floe__sql_grow(p->a, as, n, &cap, sizeof *as)))
            return FLOE_ENOMEM;
        memset(&as[n], 0, sizeof as[n]);
        const char **parts;
        size_t np;
        FLOE_TRY(floe__sql_parts(p, &parts, &np));
        as[n].column = parts[np - 1];
        FLOE_TRY(floe__sql_expect_op(p, "="));
        size_t end = floe__sql_scan_until(p, p->i, stop, true);
        if (end == p->i)
            return floe__sql_err(p, "syntax error: expected an expression");
        floe_sql_query *q;
        FLOE_TRY(floe__sql_rewrite(p, p->i, end, &q));
        as[n].expr = q;
        p->i = end;
        n++;
    } while (floe__sql_accept_op(p, ","));
    *out = as;
    *n_out = n;
    return 0;
}

int floe__sql_parse_update(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_UPDATE;
    FLOE_TRY(floe__sql_expect(p, "UPDATE"));
    FLOE_TRY(dml_target(p, st));
    FLOE_TRY(opt_alias(p, &st->alias));
    FLOE_TRY(floe__sql_expect(p, "SET"));
    FLOE_TRY(assignments(p, where_stop, &st->sets, &st->nsets));
    if (floe__sql_accept(p, "WHERE")) {
        floe_sql_query *q;
        FLOE_TRY(floe__sql_rewrite(p, p->i, p->n, &q));
        p->i = p->n;
        st->where = q;
    }
    return 0;
}

/* ---------------------------------------------------------------- MERGE */

static const char *const on_stop[] = {"ON", NULL};
static const char *const when_stop[] = {"WHEN", NULL};
static const char *const then_stop[] = {"THEN", NULL};

/* Rewrite "SELECT * FROM <tokens [from, to)>" for a table source. */
static int rewrite_table_source(sql_parser *p, size_t from, size_t to, floe_sql_query **out)
{
    size_t n = 3 + (to - from);
    sql_tok *toks = floe__arena_calloc(p->a, n + 1, sizeof *toks);
    if (!toks)
        return floe__error_nomem();
    static const char *const pre[3] = {"SELECT", "*", "FROM"};
    for (int k = 0; k < 3; k++) {
        toks[k].kind = k == 1 ? TK_OP : TK_WORD;
        toks[k].text = pre[k];
        toks[k].len = strlen(pre[k]);
        toks[k].pos = toks[k].end = p->t[from].pos;
    }
    memcpy(toks + 3, p->t + from, (to - from) * sizeof *toks);
    toks[n].kind = TK_EOF;
    toks[n].text = "";
    toks[n].pos = toks[n].end = p->t[to].pos;
    sql_parser q = *p;
    q.t = toks;
    q.n = n;
    q.i = 0;
    int rc = floe__sql_rewrite(&q, 0, n, out);
    p->refs = q.refs;
    p->nrefs = q.nrefs;
    p->caprefs = q.caprefs;
    return rc;
}

/* `(query) AS s(a, b)`: Spark's column aliases of a derived table (an
 * inline VALUES table, usually) become a SQLite CTE column list. */
static int source_column_aliases(sql_parser *p, floe_sql_query *q)
{
    FLOE_TRY(floe__sql_expect_op(p, "("));
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, "WITH \"__floe_cols\"(");
    size_t n = 0;
    do {
        const char *name;
        if (rc == 0)
            rc = floe__sql_ident(p, &name);
        if (rc == 0 && n++)
            rc = floe__buf_puts(&b, ", ");
        if (rc == 0)
            rc = floe__sql_quote_ident(&b, name);
    } while (rc == 0 && floe__sql_accept_op(p, ","));
    if (rc == 0)
        rc = floe__sql_expect_op(p, ")");
    if (rc == 0)
        rc = floe__buf_printf(&b, ") AS (%s) SELECT * FROM \"__floe_cols\"", q->sql);
    const char *sql = rc == 0 ? floe__arena_strdup(p->a, b.ptr) : NULL;
    floe__buf_free(&b);
    if (rc < 0)
        return rc;
    if (!sql)
        return floe__error_nomem();
    q->sql = sql;
    return 0;
}

static int merge_source(sql_parser *p, floe_sql_merge *m)
{
    size_t from = p->i;
    size_t on = floe__sql_scan_until(p, from, on_stop, false);
    if (on >= p->n || on == from)
        return floe__sql_err(p, "syntax error: expected USING <source> ON <condition>");
    floe_sql_query *q;
    if (tok_op(&p->t[from], "(")) {
        /* (query) [AS] alias */
        size_t close = floe__sql_scan_until(p, from + 1, NULL, false);
        if (close >= on || !tok_op(&p->t[close], ")"))
            return floe__sql_err(p, "syntax error: expected ')'");
        FLOE_TRY(floe__sql_rewrite(p, from + 1, close, &q));
        p->i = close + 1;
        FLOE_TRY(opt_alias(p, &m->source_alias));
        if (m->source_alias && tok_op(floe__sql_peek(p, 0), "("))
            FLOE_TRY(source_column_aliases(p, q));
        if (p->i != on)
            return floe__sql_err(p, "syntax error: expected ON");
    } else {
        FLOE_TRY(rewrite_table_source(p, from, on, &q));
        const char **parts;
        size_t np;
        FLOE_TRY(floe__sql_parts(p, &parts, &np));
        m->source_alias = parts[np - 1];
        if (on - from >= 2 && on - 1 >= p->i &&
            (p->t[on - 1].kind == TK_WORD || p->t[on - 1].kind == TK_QIDENT)) {
            /* An identifier right before ON is an alias (time travel ends
             * with a literal). */
            m->source_alias = p->t[on - 1].text;
        }
        p->i = on;
    }
    m->source = q;
    return 0;
}

static int merge_clause(sql_parser *p, floe_sql_merge_clause *c)
{
    if (floe__sql_accept(p, "MATCHED")) {
        c->when = FLOE_SQLM_MATCHED;
    } else {
        FLOE_TRY(floe__sql_expect(p, "NOT"));
        FLOE_TRY(floe__sql_expect(p, "MATCHED"));
        c->when = FLOE_SQLM_NOT_MATCHED;
        if (floe__sql_accept(p, "BY")) {
            if (floe__sql_accept(p, "SOURCE"))
                c->when = FLOE_SQLM_NOT_MATCHED_BY_SOURCE;
            else
                FLOE_TRY(floe__sql_expect(p, "TARGET"));
        }
    }
    if (floe__sql_accept(p, "AND")) {
        size_t end = floe__sql_scan_until(p, p->i, then_stop, false);
        if (end >= p->n || end == p->i)
            return floe__sql_err(p, "syntax error: expected a condition and THEN");
        floe_sql_query *q;
        FLOE_TRY(floe__sql_rewrite(p, p->i, end, &q));
        c->condition = q;
        p->i = end;
    }
    FLOE_TRY(floe__sql_expect(p, "THEN"));
    sql_tok *act = floe__sql_peek(p, 0);
    if (c->when == FLOE_SQLM_NOT_MATCHED &&
        (floe__sql_is_word(act, "DELETE") || floe__sql_is_word(act, "UPDATE")))
        return floe__sql_err(p, "syntax error: WHEN NOT MATCHED allows only INSERT");
    if (c->when != FLOE_SQLM_NOT_MATCHED && floe__sql_is_word(act, "INSERT"))
        return floe__sql_err(p, "syntax error: INSERT is allowed only WHEN NOT MATCHED");
    if (floe__sql_accept(p, "DELETE")) {
        c->action = FLOE_SQLM_DELETE;
    } else if (floe__sql_accept(p, "UPDATE")) {
        c->action = FLOE_SQLM_UPDATE;
        FLOE_TRY(floe__sql_expect(p, "SET"));
        if (floe__sql_accept_op(p, "*"))
            c->star = true;
        else
            FLOE_TRY(assignments(p, when_stop, &c->sets, &c->nsets));
    } else if (floe__sql_accept(p, "INSERT")) {
        c->action = FLOE_SQLM_INSERT;
        if (floe__sql_accept_op(p, "*")) {
            c->star = true;
            return 0;
        }
        FLOE_TRY(floe__sql_ident_list(p, &c->columns, &c->ncolumns));
        FLOE_TRY(floe__sql_expect(p, "VALUES"));
        FLOE_TRY(floe__sql_expect_op(p, "("));
        const floe_sql_query **vals = NULL;
        size_t nv = 0, capv = 0;
        do {
            size_t end = floe__sql_scan_until(p, p->i, NULL, true);
            if (end == p->i || end >= p->n)
                return floe__sql_err(p, "syntax error: expected an expression");
            if (!(vals = floe__sql_grow(p->a, vals, nv, &capv, sizeof(const floe_sql_query *))))
                return FLOE_ENOMEM;
            floe_sql_query *q;
            FLOE_TRY(floe__sql_rewrite(p, p->i, end, &q));
            vals[nv++] = q;
            p->i = end;
        } while (floe__sql_accept_op(p, ","));
        FLOE_TRY(floe__sql_expect_op(p, ")"));
        if (nv != c->ncolumns)
            return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[p->i - 1].pos,
                                    "INSERT has %zu columns but %zu values", c->ncolumns, nv);
        c->values = vals;
        c->nvalues = nv;
    } else {
        return floe__sql_err(p, "syntax error: expected UPDATE, DELETE or INSERT");
    }
    return 0;
}

int floe__sql_parse_merge(sql_parser *p, floe_sql_stmt *st)
{
    floe_sql_merge *m = &st->merge;
    st->kind = FLOE_SQL_MERGE;
    FLOE_TRY(floe__sql_expect(p, "MERGE"));
    FLOE_TRY(floe__sql_expect(p, "INTO"));
    FLOE_TRY(dml_target(p, st));
    FLOE_TRY(opt_alias(p, &m->target_alias));
    st->alias = m->target_alias;
    FLOE_TRY(floe__sql_expect(p, "USING"));
    FLOE_TRY(merge_source(p, m));
    FLOE_TRY(floe__sql_expect(p, "ON"));
    size_t end = floe__sql_scan_until(p, p->i, when_stop, false);
    if (end == p->i)
        return floe__sql_err(p, "syntax error: expected a merge condition");
    floe_sql_query *on;
    FLOE_TRY(floe__sql_rewrite(p, p->i, end, &on));
    m->on = on;
    p->i = end;
    floe_sql_merge_clause *cs = NULL;
    size_t n = 0, cap = 0;
    while (floe__sql_accept(p, "WHEN")) {
        if (!(cs = floe__sql_grow(p->a, cs, n, &cap, sizeof *cs)))
            return FLOE_ENOMEM;
        memset(&cs[n], 0, sizeof cs[n]);
        FLOE_TRY(merge_clause(p, &cs[n]));
        n++;
    }
    if (!n)
        return floe__sql_err(p, "syntax error: expected WHEN");
    m->clauses = cs;
    m->nclauses = n;
    return 0;
}

/* ---------------------------------------------------------------- CALL */

int floe__sql_parse_call(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_CALL;
    FLOE_TRY(floe__sql_expect(p, "CALL"));
    size_t at = p->i;
    const char **parts;
    size_t np;
    FLOE_TRY(floe__sql_parts(p, &parts, &np));
    const char *cat = p->opt->catalog_name ? p->opt->catalog_name : FLOE_CATALOG_DEFAULT_NAME;
    if (np == 3) {
        cat = floe__sql_catalog_named(p, parts[0]);
        if (!cat) {
            floe__sql_err_at(FLOE_ENOTFOUND, p->script, p->t[at].pos, "Catalog '%s' not found",
                             parts[0]);
            return floe__error_set_kind(FLOE_KIND_CATALOG_NOT_FOUND);
        }
        parts++;
        np--;
    }
    if (np != 2 || !floe__sql_ieq(parts[0], "system"))
        return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[at].pos,
                                "expected [catalog.]system.<procedure>");
    char *proc = floe__arena_strdup(p->a, parts[1]);
    if (!proc)
        return floe__error_nomem();
    for (char *c = proc; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    st->call.catalog = cat;
    st->call.procedure = proc;
    FLOE_TRY(floe__sql_expect_op(p, "("));
    floe_sql_arg *args = NULL;
    size_t n = 0, cap = 0;
    bool named = false, positional = false;
    if (!floe__sql_accept_op(p, ")")) {
        do {
            if (!(args = floe__sql_grow(p->a, args, n, &cap, sizeof *args)))
                return FLOE_ENOMEM;
            floe_sql_arg *g = &args[n];
            memset(g, 0, sizeof *g);
            sql_tok *t = floe__sql_peek(p, 0);
            size_t arg_at = p->i;
            if ((t->kind == TK_WORD || t->kind == TK_QIDENT) &&
                tok_op(floe__sql_peek(p, 1), "=>")) {
                g->name = t->text;
                for (size_t k = 0; k < n; k++)
                    if (args[k].name && floe__sql_ieq(args[k].name, g->name))
                        return floe__sql_err(p, "Duplicate procedure argument: %s", g->name);
                p->i += 2;
                named = true;
            } else {
                positional = true;
            }
            if (named && positional) {
                p->i = arg_at;
                return floe__sql_err(p, "Named and positional arguments cannot be mixed");
            }
            FLOE_TRY(floe__sql_literal(p, &g->value));
            n++;
        } while (floe__sql_accept_op(p, ","));
        FLOE_TRY(floe__sql_expect_op(p, ")"));
    }
    st->call.args = args;
    st->call.nargs = n;
    return 0;
}
