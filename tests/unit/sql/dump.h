/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helper: a compact one-line-per-field text form of a parsed statement,
 * so that tests state the expected struct by hand as a string. Fields that
 * are unset are not printed.
 */
#ifndef FLOE_TEST_SQL_DUMP_H
#define FLOE_TEST_SQL_DUMP_H

#include "harness.h"
#include "sql/sqlfront.h"

#include <stdio.h>
#include <stdlib.h>

static inline void d_value(floe_buf *b, const floe_sql_value *v)
{
    switch (v->kind) {
    case FLOE_SQLV_NULL: floe__buf_puts(b, "NULL"); break;
    case FLOE_SQLV_BOOL: floe__buf_puts(b, v->b ? "true" : "false"); break;
    case FLOE_SQLV_INT: floe__buf_printf(b, "%lld", (long long)v->i); break;
    case FLOE_SQLV_NUMBER: floe__buf_printf(b, "num:%s", v->text); break;
    case FLOE_SQLV_STRING: floe__buf_printf(b, "'%s'", v->text); break;
    case FLOE_SQLV_DATE: floe__buf_printf(b, "date:%s", v->text); break;
    case FLOE_SQLV_TIMESTAMP: floe__buf_printf(b, "ts:%s", v->text); break;
    case FLOE_SQLV_ARRAY:
    case FLOE_SQLV_MAP:
        floe__buf_puts(b, v->kind == FLOE_SQLV_ARRAY ? "array(" : "map(");
        for (size_t k = 0; k < v->nitems; k++) {
            if (k)
                floe__buf_puts(b, ", ");
            d_value(b, &v->items[k]);
        }
        floe__buf_puts(b, ")");
        break;
    }
}

static inline void d_name(floe_buf *b, const floe_sql_name *n)
{
    if (n->kind == FLOE_SQLREF_TVF) {
        floe__buf_printf(b, "tvf:%s", n->suffix);
        return;
    }
    floe__buf_printf(b, "%s.", n->catalog);
    for (size_t k = 0; k < n->nns; k++)
        floe__buf_printf(b, "%s.", n->ns[k]);
    floe__buf_puts(b, n->table);
    switch (n->kind) {
    case FLOE_SQLREF_BRANCH: floe__buf_printf(b, " branch:%s", n->suffix); break;
    case FLOE_SQLREF_TAG: floe__buf_printf(b, " tag:%s", n->suffix); break;
    case FLOE_SQLREF_METADATA: floe__buf_printf(b, " meta:%s", n->suffix); break;
    default: break;
    }
}

static inline void d_query(floe_buf *b, const char *label, const floe_sql_query *q)
{
    if (q)
        floe__buf_printf(b, "%s: %s\n", label, q->sql);
}

static inline void d_props(floe_buf *b, const floe_sql_prop *ps, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (ps[k].value)
            floe__buf_printf(b, "prop: %s=%s\n", ps[k].key, ps[k].value);
        else
            floe__buf_printf(b, "prop: %s\n", ps[k].key);
    }
}

static inline void d_assigns(floe_buf *b, const floe_sql_assign *as, size_t n)
{
    for (size_t k = 0; k < n; k++)
        floe__buf_printf(b, "set: %s = %s\n", as[k].column, as[k].expr->sql);
}

static inline char *dump_stmt(const floe_sql_stmt *st)
{
    floe_buf b = FLOE_BUF_INIT;
    floe__buf_printf(&b, "%s\n", floe__sql_kind_name(st->kind));
    if (st->target.table) {
        floe__buf_puts(&b, "target: ");
        d_name(&b, &st->target);
        floe__buf_puts(&b, "\n");
    }
    if (st->new_name.table) {
        floe__buf_puts(&b, "new: ");
        d_name(&b, &st->new_name);
        floe__buf_puts(&b, "\n");
    }
    if (st->ns_name) {
        floe__buf_puts(&b, "ns:");
        for (size_t k = 0; k < st->nns_name; k++)
            floe__buf_printf(&b, " %s", st->ns_name[k]);
        floe__buf_puts(&b, "\n");
    }
    const char *flags[] = {
        st->if_exists ? " if_exists" : "",  st->if_not_exists ? " if_not_exists" : "",
        st->purge ? " purge" : "",          st->cascade ? " cascade" : "",
        st->extended ? " extended" : "",    st->overwrite ? " overwrite" : "",
        st->or_replace ? " or_replace" : ""};
    char fl[128] = "";
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        strcat(fl, flags[k]);
    if (fl[0])
        floe__buf_printf(&b, "flags:%s\n", fl);
    if (st->alias)
        floe__buf_printf(&b, "alias: %s\n", st->alias);
    if (st->key)
        floe__buf_printf(&b, "key: %s\n", st->key);
    if (st->value)
        floe__buf_printf(&b, "value: %s\n", st->value);
    if (st->comment)
        floe__buf_printf(&b, "comment: %s\n", st->comment);
    if (st->location)
        floe__buf_printf(&b, "location: %s\n", st->location);
    if (st->view_name)
        floe__buf_printf(&b, "view: %s\n", st->view_name);
    if (st->kind != FLOE_SQL_CREATE_TABLE)
        d_props(&b, st->props, st->nprops);
    for (size_t k = 0; k < st->ncolumns; k++)
        floe__buf_printf(&b, "column: %s\n", st->columns[k]);
    if (st->kind == FLOE_SQL_CREATE_TABLE) {
        const floe_sql_create_table *c = &st->create;
        for (size_t k = 0; k < c->ncolumns; k++)
            floe__buf_printf(&b, "col: %s %s%s%s%s\n", c->columns[k].name, c->columns[k].type,
                             c->columns[k].not_null ? " not_null" : "",
                             c->columns[k].comment ? " comment=" : "",
                             c->columns[k].comment ? c->columns[k].comment : "");
        if (c->using_)
            floe__buf_printf(&b, "using: %s\n", c->using_);
        for (size_t k = 0; k < c->npartition; k++)
            floe__buf_printf(&b, "part: %s(%s)\n", c->partition[k].transform,
                             c->partition[k].column);
        if (c->location)
            floe__buf_printf(&b, "location: %s\n", c->location);
        if (c->comment)
            floe__buf_printf(&b, "comment: %s\n", c->comment);
        d_props(&b, c->props, c->nprops);
    }
    if (st->kind == FLOE_SQL_CREATE_REF || st->kind == FLOE_SQL_DROP_REF) {
        const floe_sql_ref *r = &st->ref;
        floe__buf_printf(&b, "%s: %s", r->is_tag ? "tag" : "branch", r->name);
        if (st->kind == FLOE_SQL_CREATE_REF) {
            floe__buf_printf(&b, " op=%s",
                             r->op == FLOE_SQLOP_CREATE    ? "create"
                             : r->op == FLOE_SQLOP_REPLACE ? "replace"
                                                           : "create_or_replace");
            if (r->has_snapshot)
                floe__buf_printf(&b, " snapshot=%lld", (long long)r->snapshot_id);
            if (r->max_ref_age_ms >= 0)
                floe__buf_printf(&b, " max_ref_age_ms=%lld", (long long)r->max_ref_age_ms);
            if (r->min_snapshots_to_keep >= 0)
                floe__buf_printf(&b, " min_snapshots=%lld", (long long)r->min_snapshots_to_keep);
            if (r->max_snapshot_age_ms >= 0)
                floe__buf_printf(&b, " max_snapshot_age_ms=%lld",
                                 (long long)r->max_snapshot_age_ms);
        }
        floe__buf_puts(&b, "\n");
    }
    d_query(&b, "query", st->query);
    d_assigns(&b, st->sets, st->nsets);
    d_query(&b, "where", st->where);
    if (st->kind == FLOE_SQL_MERGE) {
        const floe_sql_merge *m = &st->merge;
        d_query(&b, "source", m->source);
        if (m->source_alias)
            floe__buf_printf(&b, "source_alias: %s\n", m->source_alias);
        d_query(&b, "on", m->on);
        for (size_t k = 0; k < m->nclauses; k++) {
            const floe_sql_merge_clause *c = &m->clauses[k];
            floe__buf_printf(&b, "when %s",
                             c->when == FLOE_SQLM_MATCHED       ? "matched"
                             : c->when == FLOE_SQLM_NOT_MATCHED ? "not_matched"
                                                                : "not_matched_by_source");
            if (c->condition)
                floe__buf_printf(&b, " and [%s]", c->condition->sql);
            floe__buf_printf(&b, " %s%s\n",
                             c->action == FLOE_SQLM_UPDATE   ? "update"
                             : c->action == FLOE_SQLM_DELETE ? "delete"
                                                             : "insert",
                             c->star ? " *" : "");
            d_assigns(&b, c->sets, c->nsets);
            for (size_t j = 0; j < c->ncolumns; j++)
                floe__buf_printf(&b, "insert: %s = %s\n", c->columns[j], c->values[j]->sql);
        }
    }
    if (st->kind == FLOE_SQL_CALL) {
        floe__buf_printf(&b, "call: %s.system.%s\n", st->call.catalog, st->call.procedure);
        for (size_t k = 0; k < st->call.nargs; k++) {
            floe__buf_puts(&b, "arg: ");
            if (st->call.args[k].name)
                floe__buf_printf(&b, "%s => ", st->call.args[k].name);
            d_value(&b, &st->call.args[k].value);
            floe__buf_puts(&b, "\n");
        }
    }
    for (size_t k = 0; k < st->nrefs; k++) {
        const floe_sql_tref *r = &st->refs[k];
        floe__buf_printf(&b, "ref: %s = ", r->sqlite_name);
        d_name(&b, &r->name);
        switch (r->travel.kind) {
        case FLOE_SQLTT_SNAPSHOT:
            floe__buf_printf(&b, " @snapshot:%lld", (long long)r->travel.snapshot_id);
            break;
        case FLOE_SQLTT_REF: floe__buf_printf(&b, " @ref:%s", r->travel.ref); break;
        case FLOE_SQLTT_TIMESTAMP:
            if (r->travel.expr_sql)
                floe__buf_printf(&b, " @ts-expr:%s%s%s", r->travel.expr_sql,
                                 r->travel.expr_bad_type ? " bad-type" : "",
                                 r->travel.expr_nondeterministic ? " nondeterministic" : "");
            else
                floe__buf_printf(&b, " @ts:%s%s", r->travel.timestamp,
                                 r->travel.timestamp_utc ? " utc" : "");
            break;
        default: break;
        }
        if (r->name.kind == FLOE_SQLREF_TVF) {
            floe__buf_puts(&b, " (");
            for (size_t j = 0; j < r->nargs; j++) {
                if (j)
                    floe__buf_puts(&b, ", ");
                if (r->arg_names[j])
                    floe__buf_printf(&b, "%s => ", r->arg_names[j]);
                d_value(&b, &r->args[j]);
            }
            floe__buf_puts(&b, ")");
        }
        floe__buf_puts(&b, "\n");
    }
    return floe__buf_detach(&b);
}

/* Parse one statement with `catalog` (and optional current namespace) and
 * return its dump (malloc'd), or NULL with the floe error set. */
static inline char *parse_dump(const char *sql, const char *catalog, const char *ns)
{
    floe_arena *a = floe__arena_new(0);
    floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
    if (catalog)
        opt.catalog_name = catalog;
    opt.current_namespace = ns;
    floe_sql_stmt *st = NULL;
    const char *rest;
    char *out = NULL;
    if (floe__sql_parse(a, sql, &opt, &st, &rest) == 0 && st)
        out = dump_stmt(st);
    floe__arena_free(a);
    return out;
}

/* Compare a parse against the expected dump; prints both on mismatch. */
#define EXPECT_PARSE(sql, catalog, expected)                                                       \
    do {                                                                                           \
        char *d__ = parse_dump((sql), (catalog), NULL);                                            \
        if (!d__)                                                                                  \
            ft_fail(__FILE__, __LINE__, "parse failed: %s\n  %s", ft_floe_err(), (sql));           \
        else if (strcmp(d__, (expected)) != 0)                                                     \
            ft_fail(__FILE__, __LINE__, "for %s\n--- got:\n%s--- expected:\n%s", (sql), d__,       \
                    (expected));                                                                   \
        free(d__);                                                                                 \
    } while (0)

/* The statement must fail with `code` at byte offset `pos`, message with needle. */
#define EXPECT_ERROR(sql, code, pos, needle)                                                       \
    do {                                                                                           \
        floe_arena *a__ = floe__arena_new(0);                                                      \
        floe_sql_stmt *st__ = NULL;                                                                \
        const char *rest__;                                                                        \
        int rc__ = floe__sql_parse(a__, (sql), NULL, &st__, &rest__);                              \
        if (rc__ != (code))                                                                        \
            ft_fail(__FILE__, __LINE__, "for %s: rc %d, expected %d (%s)", (sql), rc__, (code),    \
                    ft_floe_err());                                                                \
        else {                                                                                     \
            if ((long)floe__sql_error_pos() != (long)(pos))                                        \
                ft_fail(__FILE__, __LINE__, "for %s: error at %zu, expected %ld (%s)", (sql),      \
                        floe__sql_error_pos(), (long)(pos), ft_floe_err());                        \
            FT_ERR_CONTAINS(needle);                                                               \
        }                                                                                          \
        floe__arena_free(a__);                                                                     \
    } while (0)

#endif
