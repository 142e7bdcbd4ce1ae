/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/parse_alter: the evolution forms of ALTER TABLE — Spark 3.5's ADD
 * COLUMN(S), RENAME COLUMN, ALTER [COLUMN] ... TYPE | COMMENT | SET/DROP
 * NOT NULL | FIRST | AFTER, DROP COLUMN(S), and Iceberg's extensions
 * (IcebergSqlExtensions.g4): ADD / DROP / REPLACE PARTITION FIELD, WRITE
 * [DISTRIBUTED BY PARTITION] [LOCALLY] ORDERED BY ... | UNORDERED, SET /
 * DROP IDENTIFIER FIELDS. The executor is exec_alter.c.
 */
#include "sql/sqlfront_int.h"

#include <string.h>

/* A multipart column name ("point.x"), joined with dots. */
static int column_name(sql_parser *p, const char **out)
{
    const char *name;
    FLOE_TRY(floe__sql_ident(p, &name));
    while (floe__sql_peek(p, 0)->kind == TK_OP && !strcmp(floe__sql_peek(p, 0)->text, ".")) {
        p->i++;
        const char *part;
        FLOE_TRY(floe__sql_ident(p, &part));
        if (!(name = floe__arena_sprintf(p->a, "%s.%s", name, part)))
            return floe__error_nomem();
    }
    *out = name;
    return 0;
}

/* A list of names, optionally in parentheses. */
static int name_list(sql_parser *p, const char *const **out, size_t *n_out)
{
    bool paren = floe__sql_accept_op(p, "(");
    const char **names = NULL;
    size_t n = 0, cap = 0;
    do {
        if (!(names = floe__sql_grow(p->a, names, n, &cap, sizeof *names)))
            return floe__error_nomem();
        FLOE_TRY(column_name(p, &names[n]));
        n++;
    } while (floe__sql_accept_op(p, ","));
    if (paren)
        FLOE_TRY(floe__sql_expect_op(p, ")"));
    *out = names;
    *n_out = n;
    return 0;
}

/* FIRST | AFTER col: 0 when neither. */
static int position(sql_parser *p, int *pos, const char **after)
{
    *pos = 0;
    if (floe__sql_accept(p, "FIRST")) {
        *pos = 1;
        return 0;
    }
    if (floe__sql_accept(p, "AFTER")) {
        *pos = 2;
        return column_name(p, after);
    }
    return 0;
}

static int add_columns(sql_parser *p, floe_sql_alter *al)
{
    al->kind = FLOE_SQL_ALT_ADD_COLUMNS;
    bool paren = floe__sql_accept_op(p, "(");
    floe_sql_column *cols = NULL;
    int *pos = NULL;
    const char **after = NULL;
    size_t n = 0, cap = 0, cap2 = 0, cap3 = 0;
    do {
        if (!(cols = floe__sql_grow(p->a, cols, n, &cap, sizeof *cols)) ||
            !(pos = floe__sql_grow(p->a, pos, n, &cap2, sizeof *pos)) ||
            !(after = floe__sql_grow(p->a, after, n, &cap3, sizeof *after)))
            return floe__error_nomem();
        floe_sql_column *c = &cols[n];
        memset(c, 0, sizeof *c);
        after[n] = NULL;
        FLOE_TRY(column_name(p, &c->name));
        FLOE_TRY(floe__sql_column_type(p, c));
        for (;;) {
            if (floe__sql_accept(p, "NOT")) {
                FLOE_TRY(floe__sql_expect(p, "NULL"));
                c->not_null = true;
            } else if (floe__sql_accept(p, "COMMENT")) {
                FLOE_TRY(floe__sql_string(p, &c->comment));
            } else if (floe__sql_accept(p, "DEFAULT")) {
                FLOE_TRY(floe__sql_default(p, c));
            } else {
                break;
            }
        }
        FLOE_TRY(position(p, &pos[n], &after[n]));
        n++;
    } while (floe__sql_accept_op(p, ","));
    if (paren)
        FLOE_TRY(floe__sql_expect_op(p, ")"));
    al->columns = cols;
    al->positions = pos;
    al->after = after;
    al->ncolumns = n;
    return 0;
}

static int alter_column(sql_parser *p, floe_sql_alter *al)
{
    al->kind = FLOE_SQL_ALT_ALTER_COLUMN;
    floe__sql_accept(p, "COLUMN");
    FLOE_TRY(column_name(p, &al->column));
    if (floe__sql_accept(p, "TYPE")) {
        floe_sql_column *c = floe__arena_calloc(p->a, 1, sizeof *c);
        if (!c)
            return floe__error_nomem();
        c->name = al->column;
        FLOE_TRY(floe__sql_column_type(p, c));
        al->columns = c;
        al->ncolumns = 1;
        al->set_type = true;
    } else if (floe__sql_accept(p, "COMMENT")) {
        FLOE_TRY(floe__sql_string(p, &al->new_name));
        al->set_comment = true;
    } else if (floe__sql_accept(p, "DROP")) {
        if (floe__sql_accept(p, "DEFAULT")) {
            al->set_default = true;
            return 0;
        }
        FLOE_TRY(floe__sql_expect(p, "NOT"));
        FLOE_TRY(floe__sql_expect(p, "NULL"));
        al->drop_not_null = true;
    } else if (floe__sql_accept(p, "SET")) {
        if (floe__sql_accept(p, "DEFAULT")) {
            floe_sql_column c;
            memset(&c, 0, sizeof c);
            FLOE_TRY(floe__sql_default(p, &c));
            al->set_default = true;
            return 0;
        }
        FLOE_TRY(floe__sql_expect(p, "NOT"));
        FLOE_TRY(floe__sql_expect(p, "NULL"));
        al->set_not_null = true;
    } else {
        FLOE_TRY(position(p, &al->position, &al->after_column));
        if (!al->position)
            return floe__sql_err(p, "syntax error: expected TYPE, COMMENT, SET NOT NULL, DROP "
                                    "NOT NULL, FIRST or AFTER");
    }
    return 0;
}

/* A transform term; a bare name is also kept as a candidate field name. */
static int term(sql_parser *p, const char **transform, const char **source, const char **bare)
{
    sql_tok *t = floe__sql_peek(p, 0), *n = floe__sql_peek(p, 1);
    bool call = t->kind == TK_WORD && n->kind == TK_OP && !strcmp(n->text, "(");
    if (!call) {
        FLOE_TRY(column_name(p, source));
        *transform = "identity";
        if (bare && !strchr(*source, '.'))
            *bare = *source;
        return 0;
    }
    floe_sql_partition_field f = {0};
    FLOE_TRY(floe__sql_partition_term(p, &f));
    *transform = f.transform;
    *source = f.column;
    return 0;
}

/* The grammar's `order`: orderField (',' orderField)*, optionally in
 * parentheses; orderField: transform (ASC|DESC)? (NULLS (FIRST|LAST))?.
 * With `z`, a zorder(c1, c2, ...) term adds its columns there instead. */
static int order_list(sql_parser *p, const floe_sql_sort_item **out, size_t *nout,
                      floe_sql_zorder *z)
{
    bool paren = floe__sql_accept_op(p, "(");
    floe_sql_sort_item *items = NULL;
    size_t n = 0, cap = 0, zcap = 0;
    do {
        sql_tok *t0 = floe__sql_peek(p, 0), *t1 = floe__sql_peek(p, 1);
        bool was_z = z && floe__sql_is_word(t0, "zorder") && t1->kind == TK_OP &&
                     !strcmp(t1->text, "(");
        if (was_z) {
            p->i += 2;
            do {
                if (!(z->columns = floe__sql_grow(p->a, (void *)z->columns, z->ncolumns, &zcap,
                                                  sizeof *z->columns)))
                    return floe__error_nomem();
                FLOE_TRY(column_name(p, &z->columns[z->ncolumns]));
                z->ncolumns++;
            } while (floe__sql_accept_op(p, ","));
            FLOE_TRY(floe__sql_expect_op(p, ")"));
            z->terms++;
        } else {
            if (!(items = floe__sql_grow(p->a, items, n, &cap, sizeof *items)))
                return floe__error_nomem();
            floe_sql_sort_item *it = &items[n];
            memset(it, 0, sizeof *it);
            FLOE_TRY(term(p, &it->transform, &it->column, NULL));
            n++;
        }
        bool desc = false, nulls_first;
        if (floe__sql_accept(p, "DESC"))
            desc = true;
        else
            floe__sql_accept(p, "ASC");
        nulls_first = !desc;
        if (floe__sql_accept(p, "NULLS")) {
            if (floe__sql_accept(p, "FIRST"))
                nulls_first = true;
            else if (floe__sql_accept(p, "LAST"))
                nulls_first = false;
            else
                return floe__sql_err(p, "syntax error: expected FIRST or LAST");
        }
        if (!was_z) {
            items[n - 1].descending = desc;
            items[n - 1].nulls_first = nulls_first;
        }
    } while (floe__sql_accept_op(p, ","));
    if (paren)
        FLOE_TRY(floe__sql_expect_op(p, ")"));
    *out = items;
    *nout = n;
    return 0;
}

int floe__sql_parse_sort_order(floe_arena *a, const char *text, const floe_sql_sort_item **items,
                               size_t *n, floe_sql_zorder *z)
{
    memset(z, 0, sizeof *z);
    *items = NULL;
    *n = 0;
    sql_tok *toks = NULL;
    size_t ntoks = 0, next = 0;
    int rc = floe__sql_lex_stmt(a, text, 0, &toks, &ntoks, &next);
    sql_parser p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.script = text;
    p.t = toks;
    p.n = ntoks;
    if (rc == 0 && (ntoks == 0 || text[next]))
        rc = floe__error(FLOE_EINVALID, "sql", "empty or several statements");
    if (rc == 0)
        rc = order_list(&p, items, n, z);
    if (rc == 0 && p.i < p.n)
        rc = floe__error(FLOE_EINVALID, "sql", "unexpected '%s'", p.t[p.i].text);
    if (rc == FLOE_EINVALID)
        rc = floe__error(FLOE_EINVALID, "sql", "Unable to parse sortOrder: %s", text);
    return rc;
}

static int write_spec(sql_parser *p, floe_sql_alter *al)
{
    al->kind = FLOE_SQL_ALT_WRITE;
    bool distributed = false, ordering = false, unordered = false, locally = false;
    for (;;) {
        if (!distributed && floe__sql_accept(p, "DISTRIBUTED")) {
            FLOE_TRY(floe__sql_expect(p, "BY"));
            FLOE_TRY(floe__sql_expect(p, "PARTITION"));
            distributed = true;
        } else if (!ordering && floe__sql_accept(p, "UNORDERED")) {
            ordering = unordered = true;
        } else if (!ordering && (floe__sql_is_word(floe__sql_peek(p, 0), "LOCALLY") ||
                                 floe__sql_is_word(floe__sql_peek(p, 0), "ORDERED"))) {
            locally = floe__sql_accept(p, "LOCALLY");
            FLOE_TRY(floe__sql_expect(p, "ORDERED"));
            FLOE_TRY(floe__sql_expect(p, "BY"));
            FLOE_TRY(order_list(p, &al->order, &al->norder, NULL));
            ordering = true;
        } else {
            break;
        }
    }
    if (!distributed && !ordering)
        return floe__error(FLOE_EINVALID, "sql",
                           "ALTER TABLE has no changes: missing both distribution and ordering "
                           "clauses");
    /* IcebergSqlExtensionsAstBuilder.visitSetWriteDistributionAndOrdering */
    al->distribution = distributed ? "hash" : unordered ? "none" : locally ? NULL : "range";
    return 0;
}

int floe__sql_parse_alter_schema(sql_parser *p, floe_sql_stmt *st)
{
    floe_sql_alter *al = &st->alter;
    sql_tok *w0 = floe__sql_peek(p, 0), *w1 = floe__sql_peek(p, 1);
    bool col1 = floe__sql_is_word(w1, "COLUMN") || floe__sql_is_word(w1, "COLUMNS");
    bool pf = floe__sql_is_word(w1, "PARTITION") &&
              floe__sql_is_word(floe__sql_peek(p, 2), "FIELD");
    bool idf = floe__sql_is_word(w1, "IDENTIFIER") &&
               floe__sql_is_word(floe__sql_peek(p, 2), "FIELDS");
    st->kind = FLOE_SQL_ALTER_SCHEMA;
    if (floe__sql_is_word(w0, "ADD") && col1) {
        p->i += 2;
        return add_columns(p, al);
    }
    if (floe__sql_is_word(w0, "ADD") && pf) {
        p->i += 3;
        al->kind = FLOE_SQL_ALT_ADD_PARTITION;
        FLOE_TRY(term(p, &al->transform, &al->source, NULL));
        return floe__sql_accept(p, "AS") ? floe__sql_ident(p, &al->as_name) : 0;
    }
    if (floe__sql_is_word(w0, "DROP") && pf) {
        p->i += 3;
        al->kind = FLOE_SQL_ALT_DROP_PARTITION;
        return term(p, &al->transform, &al->source, &al->field_name);
    }
    if (floe__sql_is_word(w0, "REPLACE") && pf) {
        p->i += 3;
        al->kind = FLOE_SQL_ALT_REPLACE_PARTITION;
        FLOE_TRY(term(p, &al->transform, &al->source, &al->field_name));
        FLOE_TRY(floe__sql_expect(p, "WITH"));
        FLOE_TRY(term(p, &al->with_transform, &al->with_source, NULL));
        return floe__sql_accept(p, "AS") ? floe__sql_ident(p, &al->as_name) : 0;
    }
    if ((floe__sql_is_word(w0, "SET") || floe__sql_is_word(w0, "DROP")) && idf) {
        p->i += 3;
        al->kind = floe__sql_is_word(w0, "SET") ? FLOE_SQL_ALT_SET_IDENTIFIER
                                                 : FLOE_SQL_ALT_DROP_IDENTIFIER;
        return name_list(p, &al->names, &al->nnames);
    }
    if (floe__sql_is_word(w0, "DROP") && col1) {
        p->i += 2;
        al->kind = FLOE_SQL_ALT_DROP_COLUMNS;
        if (floe__sql_accept(p, "IF")) {
            FLOE_TRY(floe__sql_expect(p, "EXISTS"));
            al->if_exists = true;
        }
        return name_list(p, &al->names, &al->nnames);
    }
    if (floe__sql_is_word(w0, "RENAME") && floe__sql_is_word(w1, "COLUMN")) {
        p->i += 2;
        al->kind = FLOE_SQL_ALT_RENAME_COLUMN;
        FLOE_TRY(column_name(p, &al->column));
        FLOE_TRY(floe__sql_expect(p, "TO"));
        return floe__sql_ident(p, &al->new_name);
    }
    if (floe__sql_is_word(w0, "ALTER") || floe__sql_is_word(w0, "CHANGE")) {
        p->i++;
        return alter_column(p, al);
    }
    if (floe__sql_is_word(w0, "WRITE")) {
        p->i++;
        return write_spec(p, al);
    }
    st->kind = 0;
    return 1;
}
