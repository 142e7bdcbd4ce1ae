/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `sql` catalog: a SQLite database in the schema of Apache Iceberg's JDBC
 * catalog (JdbcUtil, schema V1 with iceberg_type) and PyIceberg's SqlCatalog:
 *
 *   iceberg_tables(catalog_name, table_namespace, table_name,
 *                  metadata_location, previous_metadata_location, iceberg_type)
 *     PRIMARY KEY (catalog_name, table_namespace, table_name)
 *   iceberg_namespace_properties(catalog_name, namespace, property_key,
 *                                property_value)
 *     PRIMARY KEY (catalog_name, namespace, property_key)
 *
 * Conventions kept for interoperability: namespaces are their levels joined
 * by '.'; an explicitly created namespace has the marker row
 * property_key='exists', property_value='true' (hidden from callers); a
 * namespace also exists when a table or a nested namespace lives under it;
 * rows of a view (iceberg_type='VIEW') are never treated as tables.
 *
 * A commit is one UPDATE ... WHERE metadata_location = <expected>: SQLite
 * serialises writers, so exactly one of several racing commits from the same
 * base changes a row and the others see 0 rows changed (FLOE_ECONFLICT).
 * WAL mode lets readers proceed during a commit; synchronous=FULL makes a
 * reported commit durable. Every name is a bound parameter; the only SQL
 * text is the constant strings below.
 */
#include "catalog.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

typedef struct sql_cat {
    sqlite3 *db;
    pthread_mutex_t lock; /* one connection, used by one thread at a time */
    bool has_type;        /* iceberg_type column present (JDBC schema V1) */
    char *path;
    int inject_rc; /* test hook, see floe__catalog_sql_inject */
    bool inject_after;
} sql_cat;

#define TYPE_FILTER " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)"

static const char CREATE_TABLES_SQL[] = "CREATE TABLE IF NOT EXISTS iceberg_tables ("
                                        "catalog_name VARCHAR(255) NOT NULL, "
                                        "table_namespace VARCHAR(255) NOT NULL, "
                                        "table_name VARCHAR(255) NOT NULL, "
                                        "metadata_location VARCHAR(1000), "
                                        "previous_metadata_location VARCHAR(1000), "
                                        "iceberg_type VARCHAR(5), "
                                        "PRIMARY KEY (catalog_name, table_namespace, table_name))";
static const char CREATE_PROPS_SQL[] = "CREATE TABLE IF NOT EXISTS iceberg_namespace_properties ("
                                       "catalog_name VARCHAR(255) NOT NULL, "
                                       "namespace VARCHAR(255) NOT NULL, "
                                       "property_key VARCHAR(255), "
                                       "property_value VARCHAR(1000), "
                                       "PRIMARY KEY (catalog_name, namespace, property_key))";

/* ?1 catalog, ?2 namespace, ?3 namespace || '.' (prefix of nested ones).
 * substr() rather than LIKE: LIKE is case-insensitive in SQLite and would
 * need escaping of '%' and '_'. */
static const char NS_EXISTS_SQL[] =
    "SELECT 1 FROM iceberg_tables WHERE catalog_name = ?1 AND (table_namespace = ?2 OR "
    "substr(table_namespace, 1, length(?3)) = ?3) "
    "UNION ALL SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND "
    "(namespace = ?2 OR substr(namespace, 1, length(?3)) = ?3) LIMIT 1";
static const char NS_LIST_ALL_SQL[] =
    "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?1 "
    "UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?1";
static const char NS_LIST_UNDER_SQL[] =
    "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ?1 AND "
    "substr(table_namespace, 1, length(?2)) = ?2 "
    "UNION SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND "
    "substr(namespace, 1, length(?2)) = ?2";
static const char NS_PROPS_SQL[] =
    "SELECT property_key, property_value FROM iceberg_namespace_properties "
    "WHERE catalog_name = ?1 AND namespace = ?2 ORDER BY property_key";
static const char NS_INSERT_SQL[] =
    "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, "
    "property_value) VALUES (?1, ?2, ?3, ?4)";
static const char NS_UPSERT_SQL[] =
    "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, "
    "property_value) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (catalog_name, namespace, "
    "property_key) DO UPDATE SET property_value = excluded.property_value";
static const char NS_DELETE_KEY_SQL[] =
    "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND namespace = ?2 AND "
    "property_key = ?3";
static const char NS_DELETE_ALL_SQL[] =
    "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ?1 AND namespace = ?2";
static const char NS_COUNT_TABLES_SQL[] =
    "SELECT count(*) FROM iceberg_tables WHERE catalog_name = ?1 AND table_namespace = ?2";

static const char T_INSERT_V1_SQL[] =
    "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
    "previous_metadata_location, iceberg_type) VALUES (?1, ?2, ?3, ?4, NULL, 'TABLE')";
static const char T_INSERT_V0_SQL[] =
    "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
    "previous_metadata_location) VALUES (?1, ?2, ?3, ?4, NULL)";
#define T_WHERE " WHERE catalog_name = ?1 AND table_namespace = ?2 AND table_name = ?3"
static const char T_GET_V1_SQL[] =
    "SELECT metadata_location, previous_metadata_location FROM iceberg_tables" T_WHERE TYPE_FILTER;
static const char T_GET_V0_SQL[] =
    "SELECT metadata_location, previous_metadata_location FROM iceberg_tables" T_WHERE;
static const char T_ANY_SQL[] = "SELECT 1 FROM iceberg_tables" T_WHERE;
static const char T_LIST_V1_SQL[] = "SELECT table_name FROM iceberg_tables WHERE catalog_name = ?1 "
                                    "AND table_namespace = ?2" TYPE_FILTER " ORDER BY table_name";
static const char T_LIST_V0_SQL[] =
    "SELECT table_name FROM iceberg_tables WHERE catalog_name = ?1 AND table_namespace = ?2 "
    "ORDER BY table_name";
static const char T_DROP_V1_SQL[] = "DELETE FROM iceberg_tables" T_WHERE TYPE_FILTER;
static const char T_DROP_V0_SQL[] = "DELETE FROM iceberg_tables" T_WHERE;
static const char T_RENAME_V1_SQL[] =
    "UPDATE iceberg_tables SET table_namespace = ?4, table_name = ?5" T_WHERE TYPE_FILTER;
static const char T_RENAME_V0_SQL[] =
    "UPDATE iceberg_tables SET table_namespace = ?4, table_name = ?5" T_WHERE;
/* The compare-and-set: ?4 new location, ?5 expected (= the new previous). */
static const char T_COMMIT_V1_SQL[] =
    "UPDATE iceberg_tables SET metadata_location = ?4, previous_metadata_location = ?5" T_WHERE
    " AND metadata_location = ?5" TYPE_FILTER;
static const char T_COMMIT_V0_SQL[] =
    "UPDATE iceberg_tables SET metadata_location = ?4, previous_metadata_location = ?5" T_WHERE
    " AND metadata_location = ?5";

#define V(s, name) ((s)->has_type ? name##_V1_SQL : name##_V0_SQL)

/* Views: rows with iceberg_type = 'VIEW' (JdbcUtil, schema V1 only). */
#define VIEW_FILTER " AND iceberg_type = 'VIEW'"
static const char V_INSERT_SQL[] =
    "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
    "previous_metadata_location, iceberg_type) VALUES (?1, ?2, ?3, ?4, NULL, 'VIEW')";
static const char V_GET_SQL[] =
    "SELECT metadata_location, previous_metadata_location FROM iceberg_tables" T_WHERE VIEW_FILTER;
static const char V_LIST_SQL[] = "SELECT table_name FROM iceberg_tables WHERE catalog_name = ?1 "
                                 "AND table_namespace = ?2" VIEW_FILTER " ORDER BY table_name";
static const char V_DROP_SQL[] = "DELETE FROM iceberg_tables" T_WHERE VIEW_FILTER;
static const char V_RENAME_SQL[] =
    "UPDATE iceberg_tables SET table_namespace = ?4, table_name = ?5" T_WHERE VIEW_FILTER;
static const char V_COMMIT_SQL[] =
    "UPDATE iceberg_tables SET metadata_location = ?4, previous_metadata_location = ?5" T_WHERE
    " AND metadata_location = ?5" VIEW_FILTER;

/* ---------------------------------------------------------------- sqlite helpers */

static const floe_catalog_ops sql_ops;
static int view_row(floe_catalog *c, const char *ns, const char *name, char **loc, int *found);
static int get_locked(floe_catalog *c, const char *ns, const char *name, char **loc, char **prev,
                      int *found);

static sql_cat *impl(floe_catalog *c)
{
    return c->impl;
}

static int db_err(sql_cat *s, int rc, const char *what)
{
    if (rc == SQLITE_NOMEM)
        return floe__error(FLOE_ENOMEM, "catalog", "%s: SQLite out of memory", what);
    return floe__error(FLOE_EIO, "catalog", "%s in catalog database %s: %s (%s)", what, s->path,
                       sqlite3_errmsg(s->db), sqlite3_errstr(rc));
}

static int prepare(sql_cat *s, const char *sql, sqlite3_stmt **st)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
    if (rc != SQLITE_OK) {
        *st = NULL;
        return db_err(s, rc, "preparing a statement");
    }
    return 0;
}

/* Bind text parameters 1..n (NULL binds SQL NULL). */
static int bind(sql_cat *s, sqlite3_stmt *st, int n, const char *const *vals)
{
    for (int i = 0; i < n; i++) {
        int rc = vals[i] ? sqlite3_bind_text(st, i + 1, vals[i], -1, SQLITE_STATIC)
                         : sqlite3_bind_null(st, i + 1);
        if (rc != SQLITE_OK)
            return db_err(s, rc, "binding a parameter");
    }
    return 0;
}

/* Run a statement that returns no rows; *changes gets the rows changed. */
static int run(sql_cat *s, const char *sql, int n, const char *const *vals, int *changes,
               int *sqlite_rc)
{
    sqlite3_stmt *st;
    FLOE_TRY(prepare(s, sql, &st));
    int rc = bind(s, st, n, vals);
    if (rc == 0) {
        int r = sqlite3_step(st);
        if (sqlite_rc)
            *sqlite_rc = r;
        if (r == SQLITE_DONE || r == SQLITE_ROW) {
            if (changes)
                *changes = sqlite3_changes(s->db);
        } else {
            rc = db_err(s, r, "writing");
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* Run a query returning at most one interesting row: *found = 1 if a row,
 * *out (when not NULL) its first column as an integer (0 without a row). */
static int query_row(sql_cat *s, const char *sql, int n, const char *const *vals, int *found,
                     int64_t *out)
{
    sqlite3_stmt *st;
    FLOE_TRY(prepare(s, sql, &st));
    int rc = bind(s, st, n, vals);
    *found = 0;
    if (out)
        *out = 0;
    if (rc == 0) {
        int r = sqlite3_step(st);
        if (r == SQLITE_ROW) {
            *found = 1;
            if (out)
                *out = sqlite3_column_int64(st, 0);
        } else if (r != SQLITE_DONE) {
            rc = db_err(s, r, "reading");
        }
    }
    sqlite3_finalize(st);
    return rc;
}

static int query_exists(sql_cat *s, const char *sql, int n, const char *const *vals, int *found)
{
    return query_row(s, sql, n, vals, found, NULL);
}

static int query_int(sql_cat *s, const char *sql, int n, const char *const *vals, int64_t *out)
{
    int found;
    return query_row(s, sql, n, vals, &found, out);
}

/* Write transactions take the write lock up front (BEGIN IMMEDIATE), so the
 * busy timeout applies and no read-to-write upgrade can deadlock. */
static int tx_begin(sql_cat *s)
{
    int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : db_err(s, rc, "starting a transaction");
}

static int tx_end(sql_cat *s, int rc)
{
    if (rc == 0) {
        int r = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
        if (r == SQLITE_OK)
            return 0;
        rc = db_err(s, r, "committing a transaction");
    }
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* ---------------------------------------------------------------- namespaces */

static int ns_exists_locked(floe_catalog *c, const char *ns, int *found)
{
    sql_cat *s = impl(c);
    char *prefix = floe__sprintf("%s.", ns);
    if (!prefix)
        return FLOE_ENOMEM;
    const char *v[] = {c->name, ns, prefix};
    int rc = query_exists(s, NS_EXISTS_SQL, 3, v, found);
    floe__free(prefix);
    return rc;
}

/* Where a missing namespace or table lives under another catalog_name of
 * the same database (a warehouse written by `--catalog-name ice`, or by a
 * tool with another default): " (the catalog database at P has it in
 * catalog 'X': use --catalog-name X)", else "". Heap; NULL on OOM. */
static char *elsewhere(floe_catalog *c, const char *ns, const char *name)
{
    static const char TABLE_SQL[] =
        "SELECT catalog_name FROM iceberg_tables WHERE table_namespace = ?1 AND table_name = ?2"
        " AND catalog_name <> ?3 ORDER BY 1 LIMIT 1";
    static const char NS_SQL[] =
        "SELECT catalog_name FROM iceberg_namespace_properties WHERE namespace = ?1"
        " AND catalog_name <> ?3 UNION SELECT catalog_name FROM iceberg_tables"
        " WHERE (table_namespace = ?1 OR substr(table_namespace, 1, length(?1) + 1) = ?1 || '.')"
        " AND catalog_name <> ?3 ORDER BY 1 LIMIT 1";
    sql_cat *s = impl(c);
    sqlite3_stmt *st = NULL;
    char *hint = NULL;
    if (sqlite3_prepare_v2(s->db, name ? TABLE_SQL : NS_SQL, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, ns, -1, SQLITE_STATIC);
        if (name)
            sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, c->name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW) {
            const char *other = (const char *)sqlite3_column_text(st, 0);
            hint = floe__sprintf(" (the catalog database at %s has it in catalog '%s': use "
                                 "--catalog-name %s)",
                                 s->path, other ? other : "", other ? other : "");
        }
    }
    sqlite3_finalize(st);
    return hint ? hint : floe__strdup("");
}

static int ns_missing(floe_catalog *c, const char *ns)
{
    char *hint = elsewhere(c, ns, NULL);
    int rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                            "Namespace does not exist: %s%s", ns, hint ? hint : "");
    floe__free(hint);
    return rc;
}

static int sql_create_namespace(floe_catalog *c, const char *ns, const floe_props *props)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int found = 0;
    int rc = tx_begin(s);
    if (rc == 0) {
        rc = ns_exists_locked(c, ns, &found);
        if (rc == 0 && found)
            rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                "Namespace already exists: %s", ns);
        for (size_t i = 0; rc == 0 && props && i < props->n; i++) {
            const char *v[] = {c->name, ns, props->items[i].key, props->items[i].value};
            rc = run(s, NS_INSERT_SQL, 4, v, NULL, NULL);
        }
        if (rc == 0) {
            const char *v[] = {c->name, ns, "exists", "true"};
            rc = run(s, NS_INSERT_SQL, 4, v, NULL, NULL);
        }
        rc = tx_end(s, rc);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sql_namespace_exists(floe_catalog *c, const char *ns)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int found = 0;
    int rc = ns_exists_locked(c, ns, &found);
    pthread_mutex_unlock(&s->lock);
    return rc < 0 ? rc : found;
}

/* Each row of `sql` (bound to the catalog's name and `ns`) to row(), under
 * the lock, after checking that `ns` exists; `what` names the read in a
 * database error. */
static int ns_rows(floe_catalog *c, const char *ns, const char *sql, const char *what,
                   int (*row)(sqlite3_stmt *st, void *payload), void *payload)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int found = 0;
    int rc = ns_exists_locked(c, ns, &found);
    if (rc == 0 && !found)
        rc = ns_missing(c, ns);
    sqlite3_stmt *st = NULL;
    if (rc == 0)
        rc = prepare(s, sql, &st);
    if (rc == 0) {
        const char *v[] = {c->name, ns};
        rc = bind(s, st, 2, v);
    }
    while (rc == 0) {
        int r = sqlite3_step(st);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW)
            rc = db_err(s, r, what);
        else
            rc = row(st, payload);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int ns_prop_row(sqlite3_stmt *st, void *payload)
{
    const char *k = (const char *)sqlite3_column_text(st, 0);
    const char *val = (const char *)sqlite3_column_text(st, 1);
    if (!k || strcmp(k, "exists") == 0)
        return 0;
    return floe__props_set(payload, k, val ? val : "");
}

static int sql_load_namespace(floe_catalog *c, const char *ns, floe_props *out)
{
    return ns_rows(c, ns, NS_PROPS_SQL, "reading namespace properties", ns_prop_row, out);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_ns_locked(floe_catalog *c, const char *parent, floe_vec *out)
{
    sql_cat *s = impl(c);
    int rc = 0;
    char *prefix = NULL;
    sqlite3_stmt *st = NULL;
    if (*parent) {
        int found = 0;
        rc = ns_exists_locked(c, parent, &found);
        if (rc == 0 && !found)
            rc = ns_missing(c, parent);
        if (rc == 0 && !(prefix = floe__sprintf("%s.", parent)))
            rc = FLOE_ENOMEM;
    }
    if (rc == 0)
        rc = prepare(s, prefix ? NS_LIST_UNDER_SQL : NS_LIST_ALL_SQL, &st);
    if (rc == 0) {
        const char *v[] = {c->name, prefix};
        rc = bind(s, st, prefix ? 2 : 1, v);
    }
    size_t plen = prefix ? strlen(prefix) : 0;
    while (rc == 0) {
        int r = sqlite3_step(st);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = db_err(s, r, "listing namespaces");
            break;
        }
        const char *ns = (const char *)sqlite3_column_text(st, 0);
        if (!ns || strlen(ns) <= plen)
            continue;
        /* The direct child: the parent plus the next level. */
        const char *dot = strchr(ns + plen, '.');
        size_t n = dot ? (size_t)(dot - ns) : strlen(ns);
        char **slot = floe__vec_push(out);
        if (!slot) {
            rc = FLOE_ENOMEM;
            break;
        }
        if (!(*slot = floe__strndup(ns, n))) {
            out->len--;
            rc = FLOE_ENOMEM;
        }
    }
    sqlite3_finalize(st);
    floe__free(prefix);
    if (rc == 0 && out->len > 1) {
        qsort(out->items, out->len, sizeof(char *), cmp_str);
        size_t w = 1;
        char **items = out->items;
        for (size_t i = 1; i < out->len; i++) {
            if (strcmp(items[i], items[w - 1]) == 0)
                floe__free(items[i]);
            else
                items[w++] = items[i];
        }
        out->len = w;
    }
    return rc;
}

static int sql_list_namespaces(floe_catalog *c, const char *parent, floe_vec *out)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int rc = list_ns_locked(c, parent, out);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sql_update_namespace(floe_catalog *c, const char *ns, const floe_props *updates,
                                const char *const *removals, size_t nremovals)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int rc = tx_begin(s);
    if (rc == 0) {
        int found = 0;
        rc = ns_exists_locked(c, ns, &found);
        if (rc == 0 && !found)
            rc = ns_missing(c, ns);
        for (size_t i = 0; rc == 0 && i < nremovals; i++) {
            const char *v[] = {c->name, ns, removals[i]};
            rc = run(s, NS_DELETE_KEY_SQL, 3, v, NULL, NULL);
        }
        for (size_t i = 0; rc == 0 && updates && i < updates->n; i++) {
            const char *v[] = {c->name, ns, updates->items[i].key, updates->items[i].value};
            rc = run(s, NS_UPSERT_SQL, 4, v, NULL, NULL);
        }
        if (rc == 0 && updates && updates->n) {
            /* A namespace implied by its tables becomes explicit. */
            const char *v[] = {c->name, ns, "exists", "true"};
            rc = run(s, NS_UPSERT_SQL, 4, v, NULL, NULL);
        }
        rc = tx_end(s, rc);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sql_drop_namespace(floe_catalog *c, const char *ns)
{
    sql_cat *s = impl(c);
    floe_vec children = FLOE_VEC_INIT(char *);
    pthread_mutex_lock(&s->lock);
    int rc = tx_begin(s);
    if (rc < 0) {
        pthread_mutex_unlock(&s->lock);
        return rc;
    }
    rc = list_ns_locked(c, ns, &children); /* also: FLOE_ENOTFOUND if absent */
    if (rc == 0) {
        int64_t ntables = 0;
        const char *v[] = {c->name, ns};
        rc = query_int(s, NS_COUNT_TABLES_SQL, 2, v, &ntables);
        if (rc == 0 && ntables > 0)
            rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_NAMESPACE_NOT_EMPTY, "catalog",
                                "Namespace %s is not empty. Contains %lld table(s).", ns,
                                (long long)ntables);
        if (rc == 0 && children.len > 0)
            rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_NAMESPACE_NOT_EMPTY, "catalog",
                                "Namespace %s is not empty. Contains %zu namespace(s).", ns,
                                children.len);
        if (rc == 0)
            rc = run(s, NS_DELETE_ALL_SQL, 2, v, NULL, NULL);
    }
    rc = tx_end(s, rc);
    pthread_mutex_unlock(&s->lock);
    floe__catalog_strvec_free(&children);
    return rc;
}

/* ---------------------------------------------------------------- tables */

static int table_missing(floe_catalog *c, const char *ns, const char *name)
{
    char *hint = elsewhere(c, ns, name);
    int rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE, "catalog",
                            "Table does not exist: %s.%s%s", ns, name, hint ? hint : "");
    floe__free(hint);
    return rc;
}

int floe__catalog_namespace_missing(floe_catalog *c, const char *ns)
{
    if (c && c->ops == &sql_ops)
        return ns_missing(c, ns);
    return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                          "Namespace does not exist: %s", ns);
}

/* Record a table or a view; the other kind of the same name is refused
 * first (JdbcTableOperations / JdbcViewOperations). */
static int insert_row(floe_catalog *c, const char *ns, const char *name, const char *loc, bool view)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int rc = tx_begin(s);
    if (rc == 0) {
        int found = 0, other = 0;
        rc = ns_exists_locked(c, ns, &found);
        if (rc == 0 && !found)
            rc = ns_missing(c, ns);
        if (rc == 0 && view)
            rc = get_locked(c, ns, name, NULL, NULL, &other);
        else if (rc == 0 && s->has_type)
            rc = view_row(c, ns, name, NULL, &other);
        if (rc == 0 && other)
            rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                "%s with same name already exists: %s.%s", view ? "Table" : "View",
                                ns, name);
        if (rc == 0) {
            const char *v[] = {c->name, ns, name, loc};
            int r = 0;
            rc = run(s, view ? V_INSERT_SQL : V(s, T_INSERT), 4, v, NULL, &r);
            if (rc < 0 && (r & 0xff) == SQLITE_CONSTRAINT)
                rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                    "%s already exists: %s.%s", view ? "View" : "Table", ns, name);
        }
        rc = tx_end(s, rc);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sql_register_table(floe_catalog *c, const char *ns, const char *name, const char *loc)
{
    return insert_row(c, ns, name, loc, false);
}

/* The row of a table (`sql` = V(s, T_GET)) or of a view (V_GET_SQL). */
static int get_row_locked(floe_catalog *c, const char *sql, const char *kind, const char *ns,
                          const char *name, char **loc, char **prev, int *found)
{
    sql_cat *s = impl(c);
    sqlite3_stmt *st;
    *found = 0;
    FLOE_TRY(prepare(s, sql, &st));
    const char *v[] = {c->name, ns, name};
    int rc = bind(s, st, 3, v);
    if (rc == 0) {
        int r = sqlite3_step(st);
        if (r == SQLITE_ROW) {
            *found = 1;
            const char *l = (const char *)sqlite3_column_text(st, 0);
            const char *p = (const char *)sqlite3_column_text(st, 1);
            if (!l)
                rc = floe__error(FLOE_ECORRUPT, "catalog",
                                 "%s %s.%s has no metadata_location in catalog database %s", kind,
                                 ns, name, s->path);
            else if (loc && !(*loc = floe__strdup(l)))
                rc = FLOE_ENOMEM;
            else if (prev && p && !(*prev = floe__strdup(p)))
                rc = FLOE_ENOMEM;
        } else if (r != SQLITE_DONE) {
            rc = db_err(s, r, "reading a table");
        }
    }
    sqlite3_finalize(st);
    return rc;
}

static int get_locked(floe_catalog *c, const char *ns, const char *name, char **loc, char **prev,
                      int *found)
{
    return get_row_locked(c, V(impl(c), T_GET), "Table", ns, name, loc, prev, found);
}

static int view_row(floe_catalog *c, const char *ns, const char *name, char **loc, int *found)
{
    return get_row_locked(c, V_GET_SQL, "View", ns, name, loc, NULL, found);
}

static int sql_load_table(floe_catalog *c, const char *ns, const char *name, char **loc,
                          char **prev)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int found = 0;
    int rc = get_locked(c, ns, name, loc, prev, &found);
    if (rc == 0 && !found)
        rc = table_missing(c, ns, name);
    pthread_mutex_unlock(&s->lock);
    if (rc < 0) {
        floe__free(*loc);
        *loc = NULL;
        if (prev) {
            floe__free(*prev);
            *prev = NULL;
        }
    }
    return rc;
}

static int name_row(sqlite3_stmt *st, void *payload)
{
    floe_vec *out = payload;
    const char *name = (const char *)sqlite3_column_text(st, 0);
    if (!name)
        return 0;
    char **slot = floe__vec_push(out);
    if (!slot)
        return FLOE_ENOMEM;
    if (!(*slot = floe__strdup(name))) {
        out->len--;
        return FLOE_ENOMEM;
    }
    return 0;
}

/* The names of `ns` by `sql` (tables or views), sorted by the query. */
static int list_names(floe_catalog *c, const char *ns, const char *sql, floe_vec *out)
{
    return ns_rows(c, ns, sql, "listing", name_row, out);
}

static int sql_list_tables(floe_catalog *c, const char *ns, floe_vec *out)
{
    return list_names(c, ns, V(impl(c), T_LIST), out);
}

static int sql_rename_table(floe_catalog *c, const char *from_ns, const char *from_name,
                            const char *to_ns, const char *to_name)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int rc = tx_begin(s);
    if (rc == 0) {
        int found = 0;
        rc = get_locked(c, from_ns, from_name, NULL, NULL, &found);
        if (rc == 0 && !found)
            rc = table_missing(c, from_ns, from_name);
        if (rc == 0)
            rc = ns_exists_locked(c, to_ns, &found);
        if (rc == 0 && !found)
            rc = ns_missing(c, to_ns);
        if (rc == 0) {
            const char *v[] = {c->name, to_ns, to_name};
            rc = s->has_type ? view_row(c, to_ns, to_name, NULL, &found) : 0;
            if (rc == 0 && s->has_type && found) /* JdbcCatalog.renameTable */
                rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                    "Cannot rename %s.%s to %s.%s. View already exists", from_ns,
                                    from_name, to_ns, to_name);
            if (rc == 0)
                rc = query_exists(s, T_ANY_SQL, 3, v, &found);
            if (rc == 0 && found)
                rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                    "Table already exists: %s.%s", to_ns, to_name);
        }
        if (rc == 0) {
            const char *v[] = {c->name, from_ns, from_name, to_ns, to_name};
            int changes = 0;
            rc = run(s, V(s, T_RENAME), 5, v, &changes, NULL);
            if (rc == 0 && changes != 1)
                rc = table_missing(c, from_ns, from_name);
        }
        rc = tx_end(s, rc);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sql_drop_table(floe_catalog *c, const char *ns, const char *name)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    const char *v[] = {c->name, ns, name};
    int changes = 0;
    int rc = run(s, V(s, T_DROP), 3, v, &changes, NULL);
    if (rc == 0 && changes == 0)
        rc = table_missing(c, ns, name);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* Is the failure of a write statement certain to have changed nothing?
 * Busy/locked: the write lock was never obtained. Anything else (I/O error,
 * disk full, corruption) may strike while the commit is being made durable. */
static bool certainly_not_applied(int sqlite_rc)
{
    int primary = sqlite_rc & 0xff;
    return primary == SQLITE_BUSY || primary == SQLITE_LOCKED || primary == SQLITE_READONLY ||
           primary == SQLITE_CONSTRAINT || primary == SQLITE_MISUSE;
}

static int sql_commit_table(floe_catalog *c, const char *ns, const char *name, const char *expected,
                            const char *new_location)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    const char *v[] = {c->name, ns, name, new_location, expected};
    int changes = 0, r = SQLITE_OK;
    int rc;
    if (s->inject_rc && !s->inject_after) {
        r = s->inject_rc;
        rc = floe__error(FLOE_EIO, "catalog", "injected SQLite failure %d (%s)", r,
                         sqlite3_errstr(r));
    } else {
        rc = run(s, V(s, T_COMMIT), 5, v, &changes, &r);
        if (rc == 0 && s->inject_rc) {
            r = s->inject_rc;
            rc = floe__error(FLOE_EIO, "catalog", "injected SQLite failure %d (%s)", r,
                             sqlite3_errstr(r));
        }
    }
    s->inject_rc = 0;
    if (rc < 0) {
        if (r == SQLITE_OK || r == SQLITE_DONE || r == SQLITE_ROW || certainly_not_applied(r)) {
            /* Failed before the statement ran, or could not take the lock. */
            floe__error_context("committing %s.%s (nothing changed)", ns, name);
        } else {
            /* The swap may have happened: look once, else report unknown. */
            char *cur = NULL;
            int found = 0;
            char *msg = floe__strdup(floe_error_last() ? floe_error_last()->message : "");
            if (get_locked(c, ns, name, &cur, NULL, &found) == 0 && found && cur &&
                strcmp(cur, new_location) == 0) {
                rc = 0;
                floe_error_clear();
            } else {
                rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog",
                                 "Commit of %s.%s to %s: outcome unknown: %s", ns, name,
                                 new_location, msg ? msg : "database error");
            }
            floe__free(msg);
            floe__free(cur);
        }
    } else if (changes == 0) {
        char *cur = NULL;
        int found = 0;
        rc = get_locked(c, ns, name, &cur, NULL, &found);
        if (rc == 0 && !found)
            rc = table_missing(c, ns, name);
        else if (rc == 0)
            rc = floe__error(FLOE_ECONFLICT, "catalog",
                             "Failed to update table %s.%s from metadata location %s: the "
                             "current metadata location is %s",
                             ns, name, expected, cur ? cur : "(null)");
        floe__free(cur);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* ---------------------------------------------------------------- views */

static int v0_no_views(void)
{
    /* JdbcCatalog's VIEW_WARNING_LOG_MESSAGE */
    return floe__error(FLOE_EUNSUPPORTED, "catalog",
                       "JDBC catalog is initialized without view support. To auto-migrate the "
                       "database's schema and enable view support, set jdbc.schema-version=V1");
}

static int sql_list_views(floe_catalog *c, const char *ns, floe_vec *out)
{
    if (!impl(c)->has_type)
        return v0_no_views();
    return list_names(c, ns, V_LIST_SQL, out);
}

static int sql_load_view(floe_catalog *c, const char *ns, const char *name, char **loc)
{
    sql_cat *s = impl(c);
    *loc = NULL;
    if (!s->has_type)
        return v0_no_views();
    pthread_mutex_lock(&s->lock);
    int found = 0;
    int rc = view_row(c, ns, name, loc, &found);
    if (rc == 0 && !found)
        rc = floe__catalog_no_view(ns, name);
    pthread_mutex_unlock(&s->lock);
    if (rc < 0) {
        floe__free(*loc);
        *loc = NULL;
    }
    return rc;
}

static int sql_register_view(floe_catalog *c, const char *ns, const char *name, const char *loc)
{
    if (!impl(c)->has_type)
        return v0_no_views();
    return insert_row(c, ns, name, loc, true);
}

static int sql_commit_view(floe_catalog *c, const char *ns, const char *name, const char *expected,
                           const char *new_location)
{
    sql_cat *s = impl(c);
    if (!s->has_type)
        return v0_no_views();
    pthread_mutex_lock(&s->lock);
    const char *v[] = {c->name, ns, name, new_location, expected};
    int changes = 0, r = SQLITE_OK;
    int rc = run(s, V_COMMIT_SQL, 5, v, &changes, &r);
    if (rc < 0 && !certainly_not_applied(r))
        rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog",
                         "Commit of view %s.%s to %s: outcome unknown", ns, name, new_location);
    if (rc == 0 && changes == 0) {
        char *cur = NULL;
        int found = 0;
        rc = view_row(c, ns, name, &cur, &found);
        if (rc == 0 && !found)
            rc = floe__catalog_no_view(ns, name);
        else if (rc == 0) /* JdbcViewOperations */
            rc = floe__error(FLOE_ECONFLICT, "catalog",
                             "Cannot commit %s.%s: metadata location %s has changed from %s", ns,
                             name, cur ? cur : "(null)", expected);
        floe__free(cur);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sql_rename_view(floe_catalog *c, const char *from_ns, const char *from_name,
                           const char *to_ns, const char *to_name)
{
    sql_cat *s = impl(c);
    if (!s->has_type)
        return v0_no_views();
    if (strcmp(from_ns, to_ns) == 0 && strcmp(from_name, to_name) == 0)
        return 0;
    pthread_mutex_lock(&s->lock);
    int rc = tx_begin(s);
    if (rc == 0) {
        int found = 0;
        rc = ns_exists_locked(c, to_ns, &found);
        if (rc == 0 && !found)
            rc = ns_missing(c, to_ns);
        if (rc == 0)
            rc = view_row(c, from_ns, from_name, NULL, &found);
        if (rc == 0 && !found)
            rc = floe__catalog_no_view(from_ns, from_name);
        if (rc == 0)
            rc = get_locked(c, to_ns, to_name, NULL, NULL, &found);
        if (rc == 0 && found)
            rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                "Cannot rename %s.%s to %s.%s. Table already exists", from_ns,
                                from_name, to_ns, to_name);
        if (rc == 0)
            rc = view_row(c, to_ns, to_name, NULL, &found);
        if (rc == 0 && found)
            rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                "Cannot rename %s.%s to %s.%s. View already exists", from_ns,
                                from_name, to_ns, to_name);
        if (rc == 0) {
            const char *v[] = {c->name, from_ns, from_name, to_ns, to_name};
            int changes = 0;
            rc = run(s, V_RENAME_SQL, 5, v, &changes, NULL);
            if (rc == 0 && changes != 1)
                rc = floe__catalog_no_view(from_ns, from_name);
        }
        rc = tx_end(s, rc);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static int sql_drop_view(floe_catalog *c, const char *ns, const char *name)
{
    sql_cat *s = impl(c);
    if (!s->has_type)
        return v0_no_views();
    pthread_mutex_lock(&s->lock);
    const char *v[] = {c->name, ns, name};
    int changes = 0;
    int rc = run(s, V_DROP_SQL, 3, v, &changes, NULL);
    if (rc == 0 && changes == 0)
        rc = floe__catalog_no_view(ns, name);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static const floe_catalog_view_ops sql_view_ops = {
    sql_list_views, sql_load_view,   sql_register_view, sql_commit_view, NULL, NULL,
    sql_rename_view, sql_drop_view};

void floe__catalog_sql_inject(floe_catalog *c, int sqlite_rc, bool after)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    s->inject_rc = sqlite_rc;
    s->inject_after = after;
    pthread_mutex_unlock(&s->lock);
}

/* ---------------------------------------------------------------- open / close */

static void sql_free(floe_catalog *c)
{
    sql_cat *s = impl(c);
    if (s) {
        sqlite3_close_v2(s->db);
        pthread_mutex_destroy(&s->lock);
        floe__free(s->path);
        floe__free(s);
    }
    floe__free(c->name);
    floe__free(c->warehouse);
    floe__free(c);
}

/* Several pointer swaps in one IMMEDIATE transaction: all or none. */
static int sql_commit_tables(floe_catalog *c, size_t n, const char *const *ns,
                             const char *const *names, const char *const *expected,
                             const char *const *locations)
{
    sql_cat *s = impl(c);
    pthread_mutex_lock(&s->lock);
    int rc = tx_begin(s);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *v[] = {c->name, ns[i], names[i], locations[i], expected[i]};
        int changes = 0;
        rc = run(s, V(s, T_COMMIT), 5, v, &changes, NULL);
        if (rc == 0 && changes == 0) {
            char *cur = NULL;
            int found = 0;
            rc = get_locked(c, ns[i], names[i], &cur, NULL, &found);
            if (rc == 0 && !found)
                rc = table_missing(c, ns[i], names[i]);
            else if (rc == 0)
                rc = floe__error(FLOE_ECONFLICT, "catalog",
                                 "Failed to update table %s.%s from metadata location %s: the "
                                 "current metadata location is %s",
                                 ns[i], names[i], expected[i], cur ? cur : "(null)");
            floe__free(cur);
        }
    }
    bool began = rc == 0;
    if (began) {
        int r = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
        if (r != SQLITE_OK && !certainly_not_applied(r))
            rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog",
                             "Commit of %zu tables: outcome unknown: %s", n, sqlite3_errmsg(s->db));
        else if (r != SQLITE_OK)
            rc = db_err(s, r, "committing a transaction");
    }
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static const floe_catalog_ops sql_ops = {FLOE_CATALOG_OPS_VERSION, sql_create_namespace,
                                         sql_namespace_exists,     sql_load_namespace,
                                         sql_list_namespaces,      sql_update_namespace,
                                         sql_drop_namespace,       sql_register_table,
                                         sql_load_table,           sql_list_tables,
                                         sql_rename_table,         sql_drop_table,
                                         sql_commit_table,         sql_free,
                                         NULL,                     NULL,
                                         NULL,                     sql_commit_tables,
                                         NULL,                     NULL};

/* Accept the connection strings of PyIceberg (SQLAlchemy) and Java (JDBC). */
static const char *db_path(const char *uri)
{
    if (strncmp(uri, "jdbc:sqlite:", 12) == 0)
        return uri + 12;
    if (strncmp(uri, "sqlite:///", 10) == 0)
        return uri + 10;
    return uri;
}

static int setup(sql_cat *s, const floe_catalog_options *o)
{
    int ms = o && o->busy_timeout_ms > 0 ? o->busy_timeout_ms : 30000;
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, ms);
    /* WAL: readers never block the writer; FULL: a commit we report is on disk.
     * Switching the journal mode needs an exclusive lock and SQLite reports
     * SQLITE_BUSY for it without calling the busy handler when several
     * processes open a new database at once, so retry here. */
    int rc;
    int64_t deadline = floe__mono_ns() + (int64_t)ms * 1000000;
    for (;;) {
        rc = sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
        if ((rc & 0xff) != SQLITE_BUSY || floe__mono_ns() > deadline)
            break;
        sqlite3_sleep(5);
    }
    if (rc != SQLITE_OK)
        return db_err(s, rc, "enabling WAL");
    rc = sqlite3_exec(s->db, "PRAGMA synchronous=FULL", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return db_err(s, rc, "setting synchronous");
    if (!(o && o->no_create)) {
        FLOE_TRY(tx_begin(s));
        int r = sqlite3_exec(s->db, CREATE_TABLES_SQL, NULL, NULL, NULL);
        if (r == SQLITE_OK)
            r = sqlite3_exec(s->db, CREATE_PROPS_SQL, NULL, NULL, NULL);
        FLOE_TRY(tx_end(s, r == SQLITE_OK ? 0 : db_err(s, r, "creating the catalog tables")));
    }
    int64_t n = 0;
    FLOE_TRY(query_int(s,
                       "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                       "('iceberg_tables', 'iceberg_namespace_properties')",
                       0, NULL, &n));
    if (n != 2)
        return floe__error(FLOE_EIO, "catalog",
                           "%s is not an Iceberg catalog database (no iceberg_tables and "
                           "iceberg_namespace_properties tables)",
                           s->path);
    int found = 0;
    FLOE_TRY(query_exists(
        s, "SELECT 1 FROM pragma_table_info('iceberg_tables') WHERE name = 'iceberg_type'", 0, NULL,
        &found));
    s->has_type = found;
    return 0;
}

int floe__catalog_sql_open(floe_catalog **out, const char *uri, const floe_catalog_options *o)
{
    *out = NULL;
    const char *path = db_path(uri);
    if (!*path)
        return floe__error(FLOE_EINVALID, "catalog", "empty catalog database path in '%s'", uri);
    floe_catalog *c = floe__calloc(1, sizeof *c);
    sql_cat *s = floe__calloc(1, sizeof *s);
    if (!c || !s) {
        floe__free(c);
        floe__free(s);
        return FLOE_ENOMEM;
    }
    c->ops = &sql_ops;
    c->views = &sql_view_ops;
    c->impl = s;
    pthread_mutex_init(&s->lock, NULL);
    int rc = 0;
    const char *name = o && o->name ? o->name : FLOE_CATALOG_DEFAULT_NAME;
    if (!(c->name = floe__strdup(name)) || !(s->path = floe__strdup(path)))
        rc = FLOE_ENOMEM;
    if (rc == 0 && o && o->warehouse && *o->warehouse) {
        size_t n = strlen(o->warehouse);
        while (n > 1 && o->warehouse[n - 1] == '/')
            n--;
        if (!(c->warehouse = floe__strndup(o->warehouse, n)))
            rc = FLOE_ENOMEM;
    }
    if (rc == 0) {
        int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                    (o && o->no_create ? 0 : SQLITE_OPEN_CREATE);
        int r = sqlite3_open_v2(path, &s->db, flags, NULL);
        if (r != SQLITE_OK)
            rc = s->db ? db_err(s, r, "opening")
                       : floe__error(FLOE_ENOMEM, "catalog", "opening %s: out of memory", path);
    }
    if (rc == 0)
        rc = setup(s, o);
    if (rc < 0) {
        sql_free(c);
        return rc;
    }
    *out = c;
    return 0;
}
