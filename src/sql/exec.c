/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec: run a script statement by statement. Each statement is parsed by
 * the front end (sqlfront.h) after `${name}` variable substitution, then
 * dispatched: queries run on SQLite over virtual tables created for the
 * statement's Iceberg references (exec_refs.c); namespace statements, SHOW,
 * USE, SET/RESET, SET VAR and temporary views are handled here; table
 * statements in exec_table.c; CALL in procs.c. The first failing statement
 * stops the script; its error keeps Iceberg's text, and
 * floe__sql_error_class() names the Java exception Spark would print.
 */
#include "catalog/catalog.h"
#include "spec/metadata.h"
#include "sql/ast.h"
#include "sql/exec_int.h"
#include "sql/session_int.h"
#include "table/table.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- errors */

/* The exception Spark + Iceberg 1.11 throw for the failure `code` just
 * raised: its kind, set where it was raised (floe_error_exception). */
const char *floe__sql_error_class(int code)
{
    const floe_error *e = floe_error_last();
    floe_error bare = {.code = code};
    return floe_error_exception(e && e->code == code ? e : &bare);
}

/* A failure of the front end: a ParseException unless raised with a kind
 * (FLOE_KIND_ANALYSIS: what Spark's analyzer, not its parser, rejects). */
static const char *front_end_class(int code)
{
    const floe_error *e = floe_error_last();
    return e && e->code == code && e->kind != FLOE_KIND_NONE ? floe__sql_error_class(code)
                                                             : "ParseException";
}

/* ---------------------------------------------------------------- helpers */

const char *floe__sql_join(floe_arena *a, const char *const *parts, size_t n)
{
    floe_buf b = FLOE_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if ((i && floe__buf_putc(&b, '.') < 0) || floe__buf_puts(&b, parts[i]) < 0) {
            floe__buf_free(&b);
            return NULL;
        }
    }
    char *r = floe__arena_strdup(a, b.ptr ? b.ptr : "");
    floe__buf_free(&b);
    return r;
}

const char *floe__sql_table_ident(floe_sql_session *s, const floe_sql_name *n, floe_arena *a)
{
    const char *ns = n->nns ? floe__sql_join(a, n->ns, n->nns)
                            : (s->current_ns ? s->current_ns : FLOE_SQL_DEFAULT_NAMESPACE);
    if (!ns)
        return NULL;
    return floe__arena_sprintf(a, "%s.%s", ns, n->table);
}

int floe__sql_emit(floe_sql_session *s, const char *const *names, size_t ncols,
                   const floe_sql_cell *cells, size_t nrows)
{
    FLOE_TRY(floe__sql_out_begin(s->out, names, ncols));
    for (size_t r = 0; r < nrows; r++)
        FLOE_TRY(floe__sql_out_row(s->out, cells + r * ncols));
    return floe__sql_out_end(s->out);
}

/* Entries 'c' of s->struct_cols: "c<name>\x1e<qualifier>" for each
 * column whose name differs from another's of its table only in case
 * (collect_struct_columns). */
#define TWIN_SEP '\x1e'

/* Spark's error for an unqualified or qualified reference (SQLite's "no
 * such column: [t.]x") that matches several case twins
 * (ResolveReferences, case-insensitive): [AMBIGUOUS_REFERENCE]. false:
 * `msg` is not about one. */
static bool ambiguous_reference(floe_sql_session *s, const char *msg, floe_buf *out)
{
    static const char prefix[] = "no such column: ";
    if (strncmp(msg, prefix, sizeof prefix - 1) != 0)
        return false;
    const char *ref = msg + sizeof prefix - 1, *last = strrchr(ref, '.');
    last = last ? last + 1 : ref;
    size_t n = 0;
    for (size_t at = 0; at < s->struct_cols.len; at += strlen(s->struct_cols.ptr + at) + 1) {
        const char *e = s->struct_cols.ptr + at, *sep = strchr(e, TWIN_SEP);
        if (e[0] != 'c' || !sep || (size_t)(sep - e - 1) != strlen(last) ||
            strncasecmp(e + 1, last, strlen(last)) != 0)
            continue;
        if (n++ == 0) {
            if (floe__buf_puts(out, "[AMBIGUOUS_REFERENCE] Reference ") < 0)
                return false;
            for (const char *p = ref; *p;) { /* `t`.`x`, as Spark's toSQLId */
                const char *dot = strchr(p, '.');
                size_t len = dot ? (size_t)(dot - p) : strlen(p);
                if (floe__buf_printf(out, "%s`%.*s`", p == ref ? "" : ".", (int)len, p) < 0)
                    return false;
                p += len + (dot ? 1 : 0);
                if (!dot)
                    break;
            }
            if (floe__buf_puts(out, " is ambiguous, could be: [") < 0)
                return false;
        }
        if (floe__buf_printf(out, "%s%s.`%.*s`", n > 1 ? ", " : "", sep + 1, (int)(sep - e - 1),
                             e + 1) < 0)
            return false;
    }
    return n > 1 && floe__buf_puts(out, "].") == 0;
}

int floe__sql_sqlite_fail(floe_sql_session *s)
{
    floe_buf amb = FLOE_BUF_INIT;
    const char *msg = sqlite3_errmsg(s->db);
    int rc =
        floe__error(FLOE_EINVALID, "sql", "%s", ambiguous_reference(s, msg, &amb) ? amb.ptr : msg);
    floe__buf_free(&amb);
    return floe__sql_fail(s, rc, "AnalysisException");
}

/* Run SQLite text that returns no rows. */
static int run_plain(floe_sql_session *s, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
        int rc = floe__error(FLOE_EINVALID, "sql", "%s", err ? err : sqlite3_errmsg(s->db));
        sqlite3_free(err);
        return floe__sql_fail(s, rc, "AnalysisException");
    }
    return 0;
}

static int prepare(floe_sql_session *s, const char *sql, sqlite3_stmt **st)
{
    const char *tail = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, st, &tail) != SQLITE_OK)
        return floe__sql_sqlite_fail(s);
    if (!*st)
        return floe__sql_fail(s, floe__error(FLOE_EINVALID, "sql", "empty query"), NULL);
    return 0;
}

/* ---------------------------------------------------------------- queries */

static int exec_query(floe_sql_session *s, const floe_sql_stmt *st)
{
    int rc = floe__sql_refs_create(s, st);
    if (rc == 0) {
        sqlite3_stmt *q = NULL;
        rc = prepare(s, st->query->sql, &q);
        bool done = false;
        if (rc == 0)
            rc = floe__sql_fast_count(s, st, q, &done);
        bool read = rc == 0; /* errors reading rows get a class as SQLite's do */
        if (rc == 0 && !done)
            rc = floe__sql_fast_aggregate(s, st, q, &done);
        if (rc == 0 && !done) {
            floe__sql_out_set_bool_columns(s->out, st->query->bool_columns);
            floe__sql_out_set_query_tree(s->out, st->query->tree);
            rc = floe__sql_out_stmt(s->out, q);
            floe__sql_out_set_bool_columns(s->out, 0);
            floe__sql_out_set_query_tree(s->out, NULL);
        }
        if (read && rc < 0 && !s->error_class)
            s->error_class = floe__sql_error_class(floe__error_code());
        sqlite3_finalize(q);
    }
    floe__sql_refs_drop(s, st);
    return rc;
}

/* First column of the first row of a query, as text (NULL when no row or
 * a NULL cell). */
static int query_scalar(floe_sql_session *s, const floe_sql_stmt *st, char **out)
{
    *out = NULL;
    int rc = floe__sql_refs_create(s, st);
    if (rc == 0) {
        sqlite3_stmt *q = NULL;
        rc = prepare(s, st->query->sql, &q);
        if (rc == 0) {
            int r = sqlite3_step(q);
            if (r == SQLITE_ROW) {
                const char *t = (const char *)sqlite3_column_text(q, 0);
                if (t && !(*out = floe__strdup(t)))
                    rc = floe__error_nomem();
            } else if (r != SQLITE_DONE) {
                rc = floe__sql_sqlite_fail(s);
            }
        }
        sqlite3_finalize(q);
    }
    floe__sql_refs_drop(s, st);
    return rc;
}

static int exec_explain(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    floe_vec lines = FLOE_VEC_INIT(const char *);
    const char *fast = NULL;
    int rc = floe__sql_refs_create(s, st);
    if (rc == 0) {
        /* plan (and read) the Iceberg scans the way the query would */
        sqlite3_stmt *q = NULL;
        rc = prepare(s, st->query->sql, &q);
        if (rc == 0)
            rc = floe__sql_fast_explain(s, st, q, a, &fast);
        while (rc == 0 && !fast) {
            int r = sqlite3_step(q);
            if (r == SQLITE_DONE)
                break;
            if (r != SQLITE_ROW)
                rc = floe__sql_sqlite_fail(s);
        }
        sqlite3_finalize(q);
    }
    if (rc == 0)
        rc = floe__sql_explain_refs(s, st, &lines, a);
    if (rc == 0 && fast) {
        const char **slot = floe__vec_push(&lines);
        if (!slot)
            rc = floe__error_nomem();
        else
            *slot = fast;
    }
    if (rc == 0) {
        /* SQLite's own plan for the rest of the query */
        char *sql = floe__arena_sprintf(a, "EXPLAIN QUERY PLAN %s", st->query->sql);
        sqlite3_stmt *q = NULL;
        rc = sql ? prepare(s, sql, &q) : floe__error_nomem();
        while (rc == 0) {
            int r = sqlite3_step(q);
            if (r == SQLITE_DONE)
                break;
            if (r != SQLITE_ROW) {
                rc = floe__sql_sqlite_fail(s);
                break;
            }
            const char *detail = (const char *)sqlite3_column_text(q, 3);
            const char **slot = floe__vec_push(&lines);
            char *l = floe__arena_sprintf(a, "SQLite: %s", detail ? detail : "");
            if (!slot || !l) {
                rc = floe__error_nomem();
                break;
            }
            *slot = l;
        }
        sqlite3_finalize(q);
    }
    if (rc == 0) {
        floe_sql_cell *cells = floe__arena_calloc(a, lines.len ? lines.len : 1, sizeof *cells);
        if (!cells) {
            rc = floe__error_nomem();
        } else {
            for (size_t i = 0; i < lines.len; i++)
                cells[i] = floe__sql_cell_text(*(const char **)floe__vec_at(&lines, i));
            static const char *const names[] = {"plan"};
            rc = floe__sql_emit(s, names, 1, cells, lines.len);
        }
    }
    floe__vec_free(&lines);
    floe__sql_refs_drop(s, st);
    return rc;
}

/* ---------------------------------------------------------------- views */

static bool is_local_view(floe_sql_session *s, const char *name)
{
    return s->fopt.is_local && s->fopt.is_local(name, s);
}

/* Forget the nested column types of temporary view `name`. */
static void drop_view_types(floe_sql_session *s, const char *name)
{
    size_t n = strlen(name), to = 0;
    for (size_t at = 0; at < s->view_types.len;) {
        const char *e = s->view_types.ptr + at;
        size_t len = strlen(e) + 1;
        if (!(strncasecmp(e + 1, name, n) == 0 && e[1 + n] == TWIN_SEP)) {
            memmove(s->view_types.ptr + to, e, len);
            to += len;
        }
        at += len;
    }
    s->view_types.len = to;
}

/* Remember the nested column types of the temporary view `name` just
 * created from `st` (the binder's types of its select list), for the
 * binder of the statements that read it (column_type_of). */
static int note_view_types(floe_sql_session *s, const floe_sql_stmt *st, const char *name)
{
    floe_buf q = FLOE_BUF_INIT;
    sqlite3_stmt *ps = NULL;
    int rc = floe__buf_puts(&q, "SELECT * FROM temp.");
    if (rc == 0)
        rc = floe__sql_quote_ident(&q, name);
    if (rc == 0 && sqlite3_prepare_v2(s->db, q.ptr, -1, &ps, NULL) != SQLITE_OK)
        ps = NULL; /* no types: the view still works */
    for (int i = 0; rc == 0 && ps && i < sqlite3_column_count(ps); i++) {
        const char *t = floe__sql_tree_nested_type(st->query->tree, (size_t)i);
        const char *col = sqlite3_column_name(ps, i);
        if (t && col)
            rc = floe__buf_printf(&s->view_types, "t%s%c%s%c%s%c", name, TWIN_SEP, col, TWIN_SEP, t,
                                  '\0');
    }
    sqlite3_finalize(ps);
    floe__buf_free(&q);
    return rc;
}

static int exec_create_view(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    if (st->target.table) /* CREATE VIEW db.v: an Iceberg view */
        return floe__sql_exec_create_iceberg_view(s, st, a);
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__sql_refs_create(s, st);
    if (rc < 0)
        goto done;
    if (st->or_replace) {
        rc = floe__buf_puts(&b, "DROP VIEW IF EXISTS temp.");
        if (rc == 0)
            rc = floe__sql_quote_ident(&b, st->view_name);
        if (rc == 0)
            rc = run_plain(s, b.ptr);
        floe__buf_clear(&b);
        if (rc < 0)
            goto done;
    }
    rc = floe__buf_puts(&b, "CREATE TEMP VIEW ");
    if (rc == 0)
        rc = floe__sql_quote_ident(&b, st->view_name);
    if (rc == 0 && st->ncolumns) {
        rc = floe__buf_puts(&b, " (");
        for (size_t i = 0; rc == 0 && i < st->ncolumns; i++) {
            if (i)
                rc = floe__buf_puts(&b, ", ");
            if (rc == 0)
                rc = floe__sql_quote_ident(&b, st->columns[i]);
        }
        if (rc == 0)
            rc = floe__buf_putc(&b, ')');
    }
    if (rc == 0)
        rc = floe__buf_printf(&b, " AS %s", st->query->sql);
    if (rc == 0)
        rc = run_plain(s, b.ptr);
    if (rc == 0) {
        drop_view_types(s, st->view_name);
        rc = note_view_types(s, st, st->view_name);
    }
done:
    floe__buf_free(&b);
    FLOE_UNUSED(a);
    /* a view keeps its floe_ref_* tables for the rest of the session */
    if (rc < 0)
        floe__sql_refs_drop(s, st);
    else
        floe__sql_view_objects_keep(s);
    return rc;
}

static int exec_drop_view(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    if (!st->view_name || !is_local_view(s, st->view_name)) /* Spark: temporary views first */
        return floe__sql_exec_drop_iceberg_view(s, st, a);
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, "DROP VIEW temp.");
    if (rc == 0)
        rc = floe__sql_quote_ident(&b, st->view_name);
    if (rc == 0)
        rc = run_plain(s, b.ptr);
    if (rc == 0)
        drop_view_types(s, st->view_name);
    floe__buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------------- namespaces */

static int ns_props(floe_props *p, const floe_sql_stmt *st)
{
    for (size_t i = 0; i < st->nprops; i++)
        FLOE_TRY(
            floe__props_set(p, st->props[i].key, st->props[i].value ? st->props[i].value : ""));
    if (st->comment)
        FLOE_TRY(floe__props_set(p, "comment", st->comment));
    if (st->location)
        FLOE_TRY(floe__props_set(p, "location", st->location));
    return 0;
}

static int exec_create_namespace(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ns = floe__sql_join(a, st->ns_name, st->nns_name);
    if (!ns)
        return floe__error_nomem();
    if (st->if_not_exists) {
        int ex = floe_catalog_namespace_exists(s->catalog, ns);
        if (ex < 0)
            return floe__sql_classify(s, ex);
        if (ex == 1)
            return 0;
    }
    floe_props p = FLOE_PROPS_INIT;
    int rc = ns_props(&p, st);
    if (rc == 0)
        rc = floe_catalog_create_namespace(s->catalog, ns, &p);
    floe__props_free(&p);
    return floe__sql_classify(s, rc);
}

struct name_list {
    floe_vec names; /* char* owned */
    floe_vec ns;    /* char* owned (tables: their namespace) */
};

static void name_list_free(struct name_list *l)
{
    for (size_t i = 0; i < l->names.len; i++)
        floe__free(*(char **)floe__vec_at(&l->names, i));
    for (size_t i = 0; i < l->ns.len; i++)
        floe__free(*(char **)floe__vec_at(&l->ns, i));
    floe__vec_free(&l->names);
    floe__vec_free(&l->ns);
}

static int push_name(floe_vec *v, const char *name)
{
    char **slot = floe__vec_push(v);
    if (!slot || !(*slot = floe__strdup(name)))
        return floe__error_nomem();
    return 0;
}

static int collect_ns(const char *ns, void *payload)
{
    return push_name(&((struct name_list *)payload)->names, ns);
}

static int collect_table(const char *ns, const char *name, void *payload)
{
    struct name_list *l = payload;
    FLOE_TRY(push_name(&l->ns, ns));
    return push_name(&l->names, name);
}

static int exec_drop_namespace(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ns = floe__sql_join(a, st->ns_name, st->nns_name);
    if (!ns)
        return floe__error_nomem();
    int ex = floe_catalog_namespace_exists(s->catalog, ns);
    if (ex < 0)
        return floe__sql_classify(s, ex);
    if (ex == 0) {
        if (st->if_exists)
            return 0;
        return floe__sql_classify(s, floe__catalog_namespace_missing(s->catalog, ns));
    }
    if (st->cascade) {
        /* Spark's CASCADE drops the tables (without purging their files) and
         * nested namespaces */
        struct name_list l = {FLOE_VEC_INIT(char *), FLOE_VEC_INIT(char *)};
        int rc = floe_catalog_list_tables(s->catalog, ns, collect_table, &l);
        for (size_t i = 0; rc == 0 && i < l.names.len; i++) {
            char *id = floe__sprintf("%s.%s", *(char **)floe__vec_at(&l.ns, i),
                                     *(char **)floe__vec_at(&l.names, i));
            rc = id ? floe_catalog_drop_table(s->catalog, id) : floe__error_nomem();
            floe__free(id);
        }
        name_list_free(&l);
        if (rc < 0)
            return floe__sql_classify(s, rc);
        struct name_list c = {FLOE_VEC_INIT(char *), FLOE_VEC_INIT(char *)};
        rc = floe_catalog_list_namespaces(s->catalog, ns, collect_ns, &c);
        for (size_t i = 0; rc == 0 && i < c.names.len; i++) {
            floe_sql_stmt sub = *st;
            const char *part[1] = {*(char **)floe__vec_at(&c.names, i)};
            sub.ns_name = part;
            sub.nns_name = 1;
            sub.if_exists = true;
            rc = exec_drop_namespace(s, &sub, a);
        }
        name_list_free(&c);
        if (rc < 0)
            return rc;
    }
    /* the catalogs raise "not empty" as FLOE_KIND_NAMESPACE_NOT_EMPTY */
    return floe__sql_classify(s, floe_catalog_drop_namespace(s->catalog, ns));
}

static int exec_show_namespaces(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *parent = floe__sql_join(a, st->ns_name, st->nns_name);
    if (!parent)
        return floe__error_nomem();
    struct name_list l = {FLOE_VEC_INIT(char *), FLOE_VEC_INIT(char *)};
    int rc = floe_catalog_list_namespaces(s->catalog, *parent ? parent : NULL, collect_ns, &l);
    if (rc == 0) {
        floe_sql_cell *cells = floe__arena_calloc(a, l.names.len + 1, sizeof *cells);
        if (!cells) {
            rc = floe__error_nomem();
        } else {
            for (size_t i = 0; i < l.names.len; i++)
                cells[i] = floe__sql_cell_text(*(char **)floe__vec_at(&l.names, i));
            static const char *const names[] = {"namespace"};
            rc = floe__sql_emit(s, names, 1, cells, l.names.len);
        }
    }
    name_list_free(&l);
    return floe__sql_classify(s, rc);
}

static int exec_show_tables(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ns = st->nns_name ? floe__sql_join(a, st->ns_name, st->nns_name)
                                  : (s->current_ns ? s->current_ns : FLOE_SQL_DEFAULT_NAMESPACE);
    if (!ns)
        return floe__error_nomem();
    struct name_list l = {FLOE_VEC_INIT(char *), FLOE_VEC_INIT(char *)};
    int rc = 0;
    int ex = floe_catalog_namespace_exists(s->catalog, ns);
    if (ex < 0)
        rc = ex;
    else if (ex == 1)
        rc = floe_catalog_list_tables(s->catalog, ns, collect_table, &l);
    else if (st->nns_name)
        rc = floe__catalog_namespace_missing(s->catalog, ns);
    size_t ntables = l.names.len;
    /* temporary views too, as Spark lists them (isTemporary = true) */
    if (rc == 0) {
        sqlite3_stmt *q = NULL;
        if (sqlite3_prepare_v2(s->db,
                               "SELECT name FROM temp.sqlite_master WHERE type = 'view' "
                               "AND name NOT LIKE 'floe\\_ref\\_%' ESCAPE '\\' ORDER BY name",
                               -1, &q, NULL) == SQLITE_OK) {
            while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
                rc = push_name(&l.names, (const char *)sqlite3_column_text(q, 0));
                if (rc == 0)
                    rc = push_name(&l.ns, "");
            }
        }
        sqlite3_finalize(q);
    }
    if (rc == 0) {
        size_t n = l.names.len;
        floe_sql_cell *cells = floe__arena_calloc(a, 3 * n + 1, sizeof *cells);
        if (!cells) {
            rc = floe__error_nomem();
        } else {
            size_t k = 0; /* SHOW TABLES ... LIKE 'pattern': the names it matches */
            for (size_t i = 0; i < n; i++) {
                const char *name = *(char **)floe__vec_at(&l.names, i);
                if (!floe__sql_show_matches(st->key, name))
                    continue;
                cells[3 * k] = floe__sql_cell_text(*(char **)floe__vec_at(&l.ns, i));
                cells[3 * k + 1] = floe__sql_cell_text(name);
                cells[3 * k + 2] = floe__sql_cell_bool(i >= ntables);
                k++;
            }
            static const char *const names[] = {"namespace", "tableName", "isTemporary"};
            rc = floe__sql_emit(s, names, 3, cells, k);
        }
    }
    name_list_free(&l);
    return floe__sql_classify(s, rc);
}

/* USE [catalog.]ns / USE catalog: as Spark, the current catalog (names
 * without one) becomes the one named. */
static void use_current_catalog(floe_sql_session *s)
{
    s->dflt = s->cur;
    s->fopt.catalog_name = s->cats[s->cur].name;
}

static int exec_use(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    if (st->nns_name == 0) { /* USE <catalog>: the root */
        use_current_catalog(s);
        floe__free(s->current_ns);
        s->current_ns = NULL;
        return 0;
    }
    const char *ns = floe__sql_join(a, st->ns_name, st->nns_name);
    if (!ns)
        return floe__error_nomem();
    int ex = floe_catalog_namespace_exists(s->catalog, ns);
    if (ex < 0)
        return floe__sql_classify(s, ex);
    if (ex == 0)
        return floe__sql_classify(s, floe__catalog_namespace_missing(s->catalog, ns));
    char *c = floe__strdup(ns);
    if (!c)
        return floe__error_nomem();
    use_current_catalog(s);
    floe__free(s->current_ns);
    s->current_ns = c;
    return 0;
}

/* ---------------------------------------------------------------- SET / RESET / variables */

#define TZ_KEY "spark.sql.session.timeZone"

/* "VAR x" / "VARIABLE x" -> "x"; NULL otherwise. */
static const char *var_name(const char *key)
{
    const char *p = NULL;
    if (strncasecmp(key, "VARIABLE", 8) == 0 && (key[8] == ' ' || key[8] == '\t'))
        p = key + 9;
    else if (strncasecmp(key, "VAR", 3) == 0 && (key[3] == ' ' || key[3] == '\t'))
        p = key + 4;
    if (!p)
        return NULL;
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static bool valid_var_name(const char *n)
{
    if (!*n)
        return false;
    for (const char *p = n; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '.'))
            return false;
    return true;
}

static int pick_catalog(floe_sql_session *s, const floe_sql_stmt *st);

static int exec_set_var(floe_sql_session *s, const char *name, const char *value, floe_arena *a)
{
    if (!valid_var_name(name))
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql",
                                          "invalid variable name '%s' (letters, digits, _)", name),
                              "ParseException");
    if (!value)
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql", "SET VAR %s needs a value", name),
                              "ParseException");
    size_t n = strlen(value);
    if (n >= 2 && value[0] == '(' && value[n - 1] == ')') {
        /* a scalar subquery: its first column of the first row */
        char *inner = floe__arena_strndup(a, value + 1, n - 2);
        if (!inner)
            return floe__error_nomem();
        floe_sql_options o = s->fopt;
        o.current_namespace = s->current_ns;
        o.script = NULL;
        floe_sql_stmt *q = NULL;
        int rc = floe__sql_parse(a, inner, &o, &q, NULL);
        if (rc < 0)
            return floe__sql_fail(s, rc, "ParseException");
        if (!q || q->kind != FLOE_SQL_QUERY)
            return floe__sql_fail(
                s, floe__error(FLOE_EINVALID, "sql", "SET VAR %s = (...) needs a query", name),
                "ParseException");
        char *v = NULL;
        rc = pick_catalog(s, q); /* the catalog of the query's tables */
        if (rc == 0)
            rc = query_scalar(s, q, &v);
        s->fopt.ref_base += q->nrefs;
        if (rc < 0) {
            floe__free(v);
            return floe__sql_classify(s, rc);
        }
        rc = floe__props_set(&s->vars, name, v ? v : "NULL");
        floe__free(v);
        return rc;
    }
    return floe__props_set(&s->vars, name, value);
}

static int show_kv(floe_sql_session *s, const floe_props *p, const char *only, floe_arena *a)
{
    size_t n = only ? 1 : p->n;
    floe_sql_cell *cells = floe__arena_calloc(a, 2 * n + 1, sizeof *cells);
    if (!cells)
        return floe__error_nomem();
    if (only) {
        const char *v = floe__sql_session_option(s, only);
        if (!v && strcmp(only, TZ_KEY) == 0)
            v = s->tz ? floe__tz_name(s->tz) : "UTC";
        cells[0] = floe__sql_cell_text(only);
        cells[1] = floe__sql_cell_text(v ? v : "<undefined>");
    } else {
        for (size_t i = 0; i < n; i++) {
            cells[2 * i] = floe__sql_cell_text(p->items[i].key);
            cells[2 * i + 1] = floe__sql_cell_text(p->items[i].value);
        }
    }
    static const char *const names[] = {"key", "value"};
    return floe__sql_emit(s, names, 2, cells, n);
}

static int exec_set(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    if (!st->key) {
        /* SET: every session option and --conf value */
        floe_props all = FLOE_PROPS_INIT;
        int rc = floe__props_copy(&all, &s->conf);
        for (size_t i = 0; rc == 0 && i < s->options.n; i++)
            rc = floe__props_set(&all, s->options.items[i].key, s->options.items[i].value);
        if (rc == 0)
            rc = show_kv(s, &all, NULL, a);
        floe__props_free(&all);
        return rc;
    }
    const char *vn = var_name(st->key);
    if (vn)
        return exec_set_var(s, vn, st->value, a);
    if (!st->value)
        return show_kv(s, NULL, st->key, a);
    FLOE_TRY(floe__sql_check_set_key(s, st->key));
    if (strcmp(st->key, TZ_KEY) == 0) {
        FLOE_TRY(floe__sql_classify(s, floe__sql_session_set_time_zone(s, st->value)));
    } else if (strcmp(st->key, "floe.format") == 0) {
        floe_sql_format f;
        FLOE_TRY(floe__sql_classify(s, floe__sql_format_parse(st->value, &f)));
        floe__sql_session_set_format(s, f);
    }
    return floe__props_set(&s->options, st->key, st->value);
}

/* RESET of a session option takes it back to its --conf value, else the
 * default (the --format given, UTC). `key` NULL: every option. */
static int reset_option(floe_sql_session *s, const char *key)
{
    if (!key || strcmp(key, "floe.format") == 0) {
        floe_sql_format f = s->fmt0;
        const char *c = floe__props_get(&s->conf, "floe.format");
        if (c)
            FLOE_TRY(floe__sql_classify(s, floe__sql_format_parse(c, &f)));
        floe__sql_session_set_format(s, f);
    }
    if (!key || strcmp(key, TZ_KEY) == 0) {
        const char *c = floe__props_get(&s->conf, TZ_KEY);
        if (c)
            return floe__sql_classify(s, floe__sql_session_set_time_zone(s, c));
        floe__tz_free(s->tz);
        s->tz = NULL;
        floe__sql_engine_time_zone_changed(s);
    }
    return 0;
}

static int exec_reset(floe_sql_session *s, const floe_sql_stmt *st)
{
    if (!st->key) {
        floe__props_free(&s->options);
        return reset_option(s, NULL);
    }
    FLOE_TRY(floe__sql_check_set_key(s, st->key));
    floe__props_del(&s->options, st->key);
    return reset_option(s, st->key);
}

/* `${name}` -> the variable's value (SET VAR), else the session option
 * (SET name = ...), as Spark's variable substitution does. */
static int substitute(floe_sql_session *s, const char *text, size_t len, floe_buf *out)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '$' && i + 1 < len && text[i + 1] == '{') {
            size_t j = i + 2;
            while (j < len && text[j] != '}')
                j++;
            if (j >= len)
                return floe__error(FLOE_EINVALID, "sql", "unterminated ${ in statement");
            char name[256];
            size_t n = j - (i + 2);
            if (n == 0 || n >= sizeof name)
                return floe__error(FLOE_EINVALID, "sql", "bad variable reference");
            memcpy(name, text + i + 2, n);
            name[n] = '\0';
            const char *v = floe__props_get(&s->vars, name);
            if (!v)
                v = floe__sql_session_option(s, name);
            if (!v)
                return floe__error(FLOE_EINVALID, "sql",
                                   "Variable ${%s} is not set (SET VAR %s = ...)", name, name);
            FLOE_TRY(floe__buf_puts(out, v));
            i = j;
            continue;
        }
        FLOE_TRY(floe__buf_putc(out, text[i]));
    }
    return 0;
}

/* ---------------------------------------------------------------- dispatch */

/* The catalog a statement works in, as Spark resolves it: the one its
 * names name (tables, CALL <cat>.system, a namespace), else the current
 * one. A statement naming tables of two catalogs is refused: the
 * executor runs one statement against one catalog. */
static int pick_catalog(floe_sql_session *s, const floe_sql_stmt *st)
{
    const char *cat = NULL, *other = NULL;
    const char *seen[3] = {st->kind == FLOE_SQL_CALL ? st->call.catalog : NULL, st->ns_catalog,
                           st->target.table ? st->target.catalog : NULL};
    for (size_t i = 0; i < 3 + st->nrefs; i++) {
        const char *c = i < 3 ? seen[i]
                        : st->refs[i - 3].name.kind == FLOE_SQLREF_TVF
                            ? NULL
                            : st->refs[i - 3].name.catalog;
        if (!c)
            continue;
        if (!cat)
            cat = c;
        else if (strcasecmp(c, cat) != 0)
            other = c;
    }
    if (other)
        return floe__sql_fail(s,
                              floe__error(FLOE_EUNSUPPORTED, "sql",
                                          "A statement over tables of two catalogs (%s, %s) is "
                                          "not supported yet: copy one side into a temporary "
                                          "view first",
                                          cat, other),
                              "UnsupportedOperationException");
    int k = cat ? floe__sql_catalog_index(s, cat) : (int)s->dflt;
    floe__sql_use_catalog(s, k < 0 ? s->dflt : (size_t)k);
    return 0;
}

static int exec_stmt(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    switch (st->kind) {
    case FLOE_SQL_QUERY: return exec_query(s, st);
    case FLOE_SQL_EXPLAIN: return exec_explain(s, st, a);
    case FLOE_SQL_CREATE_VIEW: return exec_create_view(s, st, a);
    case FLOE_SQL_DROP_VIEW: return exec_drop_view(s, st, a);
    case FLOE_SQL_SHOW_VIEWS: return floe__sql_exec_show_views(s, st, a);
    case FLOE_SQL_CREATE_NAMESPACE: return exec_create_namespace(s, st, a);
    case FLOE_SQL_DROP_NAMESPACE: return exec_drop_namespace(s, st, a);
    case FLOE_SQL_SHOW_NAMESPACES: return exec_show_namespaces(s, st, a);
    case FLOE_SQL_SHOW_TABLES: return exec_show_tables(s, st, a);
    case FLOE_SQL_SHOW_TBLPROPERTIES: return floe__sql_exec_show_tblproperties(s, st, a);
    case FLOE_SQL_SHOW_CREATE_TABLE: return floe__sql_exec_show_create(s, st, a);
    case FLOE_SQL_USE: return exec_use(s, st, a);
    case FLOE_SQL_SET: return exec_set(s, st, a);
    case FLOE_SQL_RESET: return exec_reset(s, st);
    case FLOE_SQL_CALL: return floe__sql_classify(s, floe__sql_exec_call(s, st, a));
    default: break;
    }
    int rc = floe__sql_exec_table_stmt(s, st, a);
    if (rc == 1)
        rc = floe__sql_fail(s,
                            floe__error(FLOE_EUNSUPPORTED, "sql", "%s is not supported yet",
                                        floe__sql_kind_name(st->kind)),
                            "UnsupportedOperationException");
    return floe__sql_classify(s, rc);
}

static bool has_var_ref(const char *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++)
        if (p[i] == '$' && p[i + 1] == '{')
            return true;
    return false;
}

/* ---------------------------------------------------------------- struct columns */

/* s->struct_cols holds "<kind><name>\0" items: 's' struct, 'm' a map with
 * non-string keys. */
static bool has_col(const floe_sql_session *s, char kind, const char *name)
{
    for (size_t at = 0; at < s->struct_cols.len; at += strlen(s->struct_cols.ptr + at) + 1)
        if (s->struct_cols.ptr[at] == kind && strcasecmp(s->struct_cols.ptr + at + 1, name) == 0)
            return true;
    return false;
}

static bool is_struct_col(const char *name, void *payload)
{
    return has_col(payload, 's', name);
}

static bool is_keyed_map_col(const char *name, void *payload)
{
    return has_col(payload, 'm', name);
}

static bool is_case_twin_col(const char *name, void *payload)
{
    const floe_sql_session *s = payload;
    size_t n = strlen(name);
    for (size_t at = 0; at < s->struct_cols.len; at += strlen(s->struct_cols.ptr + at) + 1) {
        const char *e = s->struct_cols.ptr + at;
        if (e[0] == 'c' && strncmp(e + 1, name, n) == 0 && e[1 + n] == TWIN_SEP)
            return true;
    }
    return false;
}

bool floe__sql_schema_case_twin(const floe_schema *sc, size_t i)
{
    for (size_t j = 0; j < sc->root->nfields; j++)
        if (j != i && strcasecmp(sc->root->fields[i].name, sc->root->fields[j].name) == 0)
            return true;
    return false;
}

/* The 'c' entries of a table's columns that differ from another's only in
 * case, qualified as Spark names them (`cat`.`ns`.`t`). */
static int collect_case_twins(floe_sql_session *s, const char *catalog, const char *ident,
                              const floe_schema *sc, bool *any)
{
    for (size_t i = 0; i < sc->root->nfields; i++) {
        const char *name = sc->root->fields[i].name;
        if (!floe__sql_schema_case_twin(sc, i))
            continue;
        FLOE_TRY(floe__buf_printf(&s->struct_cols, "c%s%c`%s`", name, TWIN_SEP, catalog));
        for (const char *p = ident; *p;) {
            const char *dot = strchr(p, '.');
            size_t len = dot ? (size_t)(dot - p) : strlen(p);
            FLOE_TRY(floe__buf_printf(&s->struct_cols, ".`%.*s`", (int)len, p));
            p += len + (dot ? 1 : 0);
            if (!dot)
                break;
        }
        FLOE_TRY(floe__buf_putc(&s->struct_cols, '\0'));
        *any = true;
    }
    return 0;
}

/* 't' entries: "t<sqlite name>\x1e<column>\x1e<Spark type>" for the
 * columns of a reference, for the binder (column_type). */
static int collect_column_types(floe_sql_session *s, const char *sqlite_name, const floe_schema *sc,
                                bool *any)
{
    for (size_t i = 0; sqlite_name && i < sc->root->nfields; i++) {
        const floe_field *f = &sc->root->fields[i];
        FLOE_TRY(floe__buf_printf(&s->struct_cols, "t%s%c%s%c", sqlite_name, TWIN_SEP, f->name,
                                  TWIN_SEP));
        FLOE_TRY(floe__sql_spark_type(f->type, false, &s->struct_cols));
        FLOE_TRY(floe__buf_putc(&s->struct_cols, '\0'));
        *any = true;
    }
    return 0;
}

static const char *column_type_of(const char *sqlite_name, const char *column, void *payload)
{
    const floe_sql_session *s = payload;
    size_t nt = strlen(sqlite_name), nc = strlen(column);
    for (size_t at = 0; at < s->struct_cols.len; at += strlen(s->struct_cols.ptr + at) + 1) {
        const char *e = s->struct_cols.ptr + at;
        if (e[0] == 't' && strncmp(e + 1, sqlite_name, nt) == 0 && e[1 + nt] == TWIN_SEP &&
            strncasecmp(e + 2 + nt, column, nc) == 0 && e[2 + nt + nc] == TWIN_SEP)
            return e + 3 + nt + nc;
    }
    return NULL;
}

/* The struct columns (and maps with non-string keys) of the tables `st`
 * reads (its references and a DML target), so that a second parse rewrites
 * `col.field` and `m[1]` on them (the front end does not know schemas; see
 * floe_sql_options.is_struct_column).
 * *any: at least one was found. Unknown tables are left to the executor. */
static int collect_struct_columns(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a,
                                  bool *any)
{
    floe__buf_clear(&s->struct_cols);
    /* the temporary views' nested column types */
    FLOE_TRY(floe__buf_put(&s->struct_cols, s->view_types.ptr ? s->view_types.ptr : "",
                           s->view_types.len));
    *any = s->view_types.len > 0;
    bool dml =
        st->kind == FLOE_SQL_DELETE || st->kind == FLOE_SQL_UPDATE || st->kind == FLOE_SQL_MERGE;
    for (size_t k = 0; k < st->nrefs + 1; k++) {
        const floe_sql_name *n = k < st->nrefs ? &st->refs[k].name : dml ? &st->target : NULL;
        if (!n || (n->kind != FLOE_SQLREF_TABLE && n->kind != FLOE_SQLREF_BRANCH &&
                   n->kind != FLOE_SQLREF_TAG))
            continue;
        const char *ident = floe__sql_table_ident(s, n, a);
        if (!ident)
            return floe__error_nomem();
        const char *ec = s->error_class;
        floe_table *t = NULL;
        int rc = floe__sql_get_table(s, ident, &t);
        s->error_class = ec;
        if (rc == FLOE_ENOMEM)
            return rc;
        const floe_schema *sc = rc == 0 ? floe__metadata_current_schema(t->metadata) : NULL;
        if (sc)
            FLOE_TRY(
                collect_case_twins(s, n->catalog ? n->catalog : s->catalog_name, ident, sc, any));
        if (sc && k < st->nrefs)
            FLOE_TRY(collect_column_types(s, st->refs[k].sqlite_name, sc, any));
        for (size_t i = 0; sc && i < sc->root->nfields; i++) {
            const floe_field *f = &sc->root->fields[i];
            char kind = f->type->id == FLOE_T_STRUCT                                           ? 's'
                        : f->type->id == FLOE_T_MAP && f->type->key->type->id != FLOE_T_STRING ? 'm'
                                                                                               : 0;
            if (!kind || has_col(s, kind, f->name))
                continue;
            FLOE_TRY(floe__buf_putc(&s->struct_cols, kind));
            FLOE_TRY(floe__buf_puts(&s->struct_cols, f->name));
            FLOE_TRY(floe__buf_putc(&s->struct_cols, '\0'));
            *any = true;
        }
    }
    floe_error_clear();
    return 0;
}

static int parse_one(floe_sql_session *s, floe_arena *a, const char *p, floe_sql_stmt **st,
                     const char **rest)
{
    *st = NULL;
    *rest = NULL;
    int rc = floe__sql_parse(a, p, &s->fopt, st, rest);
    if (*rest && (*rest < p || *rest > p + strlen(p)))
        *rest = NULL; /* defensive: never read outside the script */
    if (rc != FLOE_ENOMEM && *rest && *rest > p && has_var_ref(p, (size_t)(*rest - p))) {
        floe_buf sub = FLOE_BUF_INIT;
        rc = substitute(s, p, (size_t)(*rest - p), &sub);
        if (rc == 0) {
            floe_sql_options o = s->fopt;
            o.script = NULL;
            *st = NULL;
            rc = floe__sql_parse(a, sub.ptr ? sub.ptr : "", &o, st, NULL);
        }
        floe__buf_free(&sub);
    }
    return rc;
}

int floe__sql_session_run(floe_sql_session *s, const char *script, const char *origin)
{
    FLOE_UNUSED(origin);
    const char *p = script;
    int rc = 0;
    s->error_class = NULL;
    while (rc == 0) {
        floe_arena *a = floe__arena_new(0);
        if (!a)
            return floe__error_nomem();
        s->fopt.current_namespace = s->current_ns;
        s->fopt.script = script;
        s->fopt.is_struct_column = is_struct_col;
        s->fopt.is_keyed_map_column = is_keyed_map_col;
        s->fopt.is_case_twin_column = is_case_twin_col;
        s->fopt.column_type = column_type_of;
        s->fopt.time_zone = s->tz;
        floe__buf_clear(&s->struct_cols);
        floe_sql_stmt *st = NULL;
        const char *rest = NULL;
        rc = parse_one(s, a, p, &st, &rest);
        bool any = false;
        if (rc == 0 && st)
            rc = pick_catalog(s, st);
        if (rc == 0 && st && (rc = collect_struct_columns(s, st, a, &any)) == 0 && any)
            rc = parse_one(s, a, p, &st, &rest);
        if (rc < 0) {
            if (!s->error_class) /* pick_catalog sets its own */
                s->error_class = rc == FLOE_ENOMEM      ? NULL
                                 : rc == FLOE_ENOTFOUND ? "CatalogNotFoundException"
                                                        : front_end_class(rc);
        } else if (st) {
            rc = exec_stmt(s, st, a);
            s->fopt.ref_base += st->nrefs;
        }
        floe__arena_free(a);
        if (rc < 0 && rc != FLOE_ENOMEM && s->on_error && rest && rest > p) {
            const char *c = floe__sql_session_option(s, "floe.continue-on-error");
            if (c && strcasecmp(c, "true") == 0) {
                s->on_error(s, s->payload);
                s->error_class = NULL;
                rc = 0;
                p = rest;
                continue;
            }
        }
        if (rc < 0 || !st || !rest)
            break;
        p = rest;
    }
    return rc;
}
