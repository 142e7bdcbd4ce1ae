/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of catalog/: the SQLite catalog in the JDBC schema — namespaces,
 * tables, identifier checks (incl. SQL injection attempts), compare-and-set
 * commits and their failure modes, default locations, interoperability with
 * the sqlite3 CLI and PyIceberg-created databases, out-of-memory. */
#include "catalog/catalog.h"
#include "harness.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct names {
    char v[16][256];
    int n;
} names;

static int collect_ns(const char *ns, void *payload)
{
    names *n = payload;
    if (n->n < 16)
        snprintf(n->v[n->n], sizeof n->v[0], "%s", ns);
    n->n++;
    return 0;
}

static int collect_tables(const char *ns, const char *name, void *payload)
{
    names *n = payload;
    if (n->n < 16)
        snprintf(n->v[n->n], sizeof n->v[0], "%s.%s", ns, name);
    n->n++;
    return 0;
}

static floe_catalog *open_cat(const char *file, const char *warehouse)
{
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = warehouse;
    floe_catalog *c = NULL;
    if (floe_catalog_open_sql(&c, ft_tmp(file), &o) < 0)
        ft_fail(__FILE__, __LINE__, "open: %s", ft_floe_err());
    return c;
}

static void test_namespaces(void)
{
    floe_catalog *c = open_cat("cat.db", NULL);
    FT_ASSERT(c);
    FT_EQ_STR(floe_catalog_name(c), FLOE_CATALOG_DEFAULT_NAME);
    FT_EQ_STR(floe_catalog_name(c), "local");
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "owner", "alice"));
    FT_OK(floe__props_set(&p, "comment", "sales data"));
    FT_OK(floe_catalog_create_namespace(c, "db", &p));
    floe__props_free(&p);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "db"), 1);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "DB"), 0); /* case-sensitive */
    FT_EQ_INT(floe_catalog_namespace_exists(c, "d"), 0);
    FT_EQ_INT(floe_catalog_create_namespace(c, "db", NULL), FLOE_EEXISTS);
    FT_ERR_CONTAINS("Namespace already exists: db");
    /* the reserved marker is neither settable nor visible */
    FT_OK(floe__props_set(&p, "exists", "false"));
    FT_EQ_INT(floe_catalog_create_namespace(c, "x", &p), FLOE_EINVALID);
    FT_ERR_CONTAINS("reserved property: exists");
    floe__props_free(&p);
    FT_OK(floe_catalog_load_namespace(&p, c, "db"));
    FT_EQ_INT(p.n, 2);
    FT_EQ_STR(floe__props_get(&p, "owner"), "alice");
    FT_EQ_STR(floe__props_get(&p, "comment"), "sales data");
    FT_CHECK(floe__props_get(&p, "exists") == NULL);
    floe__props_free(&p);
    /* update: set one, change one, remove one, in one go */
    floe_props up = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&up, "owner", "bob"));
    FT_OK(floe__props_set(&up, "location", "/data/db"));
    const char *rm[] = {"comment", "not-there"};
    FT_OK(floe_catalog_update_namespace(c, "db", &up, rm, 2));
    floe__props_free(&up);
    FT_OK(floe_catalog_load_namespace(&p, c, "db"));
    FT_EQ_INT(p.n, 2);
    FT_EQ_STR(floe__props_get(&p, "owner"), "bob");
    FT_EQ_STR(floe__props_get(&p, "location"), "/data/db");
    floe__props_free(&p);
    FT_EQ_INT(floe_catalog_update_namespace(c, "nope", NULL, rm, 1), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Namespace does not exist: nope");
    const char *rm_exists[] = {"exists"};
    FT_EQ_INT(floe_catalog_update_namespace(c, "db", NULL, rm_exists, 1), FLOE_EINVALID);
    FT_EQ_INT(floe_catalog_load_namespace(&p, c, "nope"), FLOE_ENOTFOUND);

    /* nested namespaces and listing */
    FT_OK(floe_catalog_create_namespace(c, "db.sub", NULL));
    FT_OK(floe_catalog_create_namespace(c, "db.sub.deeper", NULL));
    FT_OK(floe_catalog_create_namespace(c, "db.other", NULL));
    FT_OK(floe_catalog_create_namespace(c, "analytics", NULL));
    FT_OK(floe_catalog_create_namespace(c, "dbx", NULL));
    names n = {0};
    FT_OK(floe_catalog_list_namespaces(c, NULL, collect_ns, &n));
    FT_EQ_INT(n.n, 3);
    FT_EQ_STR(n.v[0], "analytics");
    FT_EQ_STR(n.v[1], "db");
    FT_EQ_STR(n.v[2], "dbx");
    memset(&n, 0, sizeof n);
    FT_OK(floe_catalog_list_namespaces(c, "db", collect_ns, &n));
    FT_EQ_INT(n.n, 2);
    FT_EQ_STR(n.v[0], "db.other");
    FT_EQ_STR(n.v[1], "db.sub");
    memset(&n, 0, sizeof n);
    FT_OK(floe_catalog_list_namespaces(c, "db.sub.deeper", collect_ns, &n));
    FT_EQ_INT(n.n, 0);
    FT_EQ_INT(floe_catalog_list_namespaces(c, "zzz", collect_ns, &n), FLOE_ENOTFOUND);
    /* a namespace implied by a nested one exists */
    FT_OK(floe_catalog_create_namespace(c, "implied.child", NULL));
    FT_EQ_INT(floe_catalog_namespace_exists(c, "implied"), 1);

    /* drop: only when empty */
    FT_EQ_INT(floe_catalog_drop_namespace(c, "db"), FLOE_EINVALID);
    FT_ERR_CONTAINS("Namespace db is not empty. Contains 2 namespace(s).");
    FT_OK(floe_catalog_drop_namespace(c, "db.sub.deeper"));
    FT_OK(floe_catalog_drop_namespace(c, "db.sub"));
    FT_OK(floe_catalog_drop_namespace(c, "db.other"));
    FT_OK(floe_catalog_drop_namespace(c, "db"));
    FT_EQ_INT(floe_catalog_namespace_exists(c, "db"), 0);
    FT_EQ_INT(floe_catalog_drop_namespace(c, "db"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Namespace does not exist: db");
    floe_catalog_free(c);
}

static void test_tables(void)
{
    floe_catalog *c = open_cat("cat.db", NULL);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    FT_OK(floe_catalog_create_namespace(c, "db2", NULL));
    FT_EQ_INT(floe_catalog_register_table(c, "nons.t", "/m/v1.json"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Namespace does not exist: nons");
    FT_OK(floe_catalog_register_table(c, "db.t", "/w/db.db/t/metadata/00000-a.metadata.json"));
    FT_OK(floe_catalog_register_table(c, "db.a", "/w/a/v1.json"));
    FT_EQ_INT(floe_catalog_register_table(c, "db.t", "/other.json"), FLOE_EEXISTS);
    FT_ERR_CONTAINS("Table already exists: db.t");
    char *loc = NULL, *prev = (char *)"sentinel";
    FT_OK(floe_catalog_load_table(&loc, &prev, c, "db.t"));
    FT_EQ_STR(loc, "/w/db.db/t/metadata/00000-a.metadata.json");
    FT_CHECK(prev == NULL);
    floe_string_free(loc);
    FT_EQ_INT(floe_catalog_load_table(&loc, NULL, c, "db.missing"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Table does not exist: db.missing");
    FT_CHECK(loc == NULL);
    names n = {0};
    FT_OK(floe_catalog_list_tables(c, "db", collect_tables, &n));
    FT_EQ_INT(n.n, 2);
    FT_EQ_STR(n.v[0], "db.a");
    FT_EQ_STR(n.v[1], "db.t");
    FT_EQ_INT(floe_catalog_list_tables(c, "zz", collect_tables, &n), FLOE_ENOTFOUND);
    /* a namespace with tables cannot be dropped */
    FT_EQ_INT(floe_catalog_drop_namespace(c, "db"), FLOE_EINVALID);
    FT_ERR_CONTAINS("Namespace db is not empty. Contains 2 table(s).");
    /* rename */
    FT_EQ_INT(floe_catalog_rename_table(c, "db.t", "db.a"), FLOE_EEXISTS);
    FT_ERR_CONTAINS("Table already exists: db.a");
    FT_EQ_INT(floe_catalog_rename_table(c, "db.nope", "db.b"), FLOE_ENOTFOUND);
    FT_EQ_INT(floe_catalog_rename_table(c, "db.t", "nons.t"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Namespace does not exist: nons");
    FT_OK(floe_catalog_rename_table(c, "db.t", "db2.t2"));
    FT_OK(floe_catalog_rename_table(c, "db2.t2", "db2.t2")); /* no-op */
    FT_EQ_INT(floe_catalog_load_table(&loc, NULL, c, "db.t"), FLOE_ENOTFOUND);
    FT_OK(floe_catalog_load_table(&loc, NULL, c, "db2.t2"));
    FT_EQ_STR(loc, "/w/db.db/t/metadata/00000-a.metadata.json");
    floe_string_free(loc);
    /* drop */
    FT_OK(floe_catalog_drop_table(c, "db2.t2"));
    FT_EQ_INT(floe_catalog_drop_table(c, "db2.t2"), FLOE_ENOTFOUND);
    FT_OK(floe_catalog_drop_table(c, "db.a"));
    FT_OK(floe_catalog_drop_namespace(c, "db"));
    /* a table's namespace exists implicitly for JDBC; floe requires it first */
    floe_catalog_free(c);
}

/* Rows of views (iceberg_type = 'VIEW', written by Java's JDBC catalog) are
 * never read, changed or removed as tables. */
static void test_views_untouched(void)
{
    floe_catalog *c = open_cat("cat.db", NULL);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    sqlite3 *db;
    FT_ASSERT(sqlite3_open(ft_tmp("cat.db"), &db) == SQLITE_OK);
    FT_ASSERT(sqlite3_exec(db,
                           "INSERT INTO iceberg_tables VALUES ('local', 'db', 'v', "
                           "'/v/1.metadata.json', NULL, 'VIEW')",
                           NULL, NULL, NULL) == SQLITE_OK);
    char *loc;
    FT_EQ_INT(floe_catalog_load_table(&loc, NULL, c, "db.v"), FLOE_ENOTFOUND);
    FT_EQ_INT(floe_catalog_commit_table(c, "db.v", "/v/1.metadata.json", "/x"), FLOE_ENOTFOUND);
    FT_EQ_INT(floe_catalog_drop_table(c, "db.v"), FLOE_ENOTFOUND);
    FT_EQ_INT(floe_catalog_rename_table(c, "db.v", "db.w"), FLOE_ENOTFOUND);
    FT_EQ_INT(floe_catalog_register_table(c, "db.v", "/t.json"), FLOE_EEXISTS);
    names n = {0};
    FT_OK(floe_catalog_list_tables(c, "db", collect_tables, &n));
    FT_EQ_INT(n.n, 0);
    sqlite3_stmt *st;
    FT_ASSERT(sqlite3_prepare_v2(db,
                                 "SELECT metadata_location FROM iceberg_tables WHERE "
                                 "table_name = 'v' AND iceberg_type = 'VIEW'",
                                 -1, &st, NULL) == SQLITE_OK);
    FT_ASSERT(sqlite3_step(st) == SQLITE_ROW);
    FT_EQ_STR((const char *)sqlite3_column_text(st, 0), "/v/1.metadata.json");
    sqlite3_finalize(st);
    sqlite3_close(db);
    floe_catalog_free(c);
}

static void test_identifiers(void)
{
    floe_catalog *c = open_cat("cat.db", NULL);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    const char *bad_tables[] = {"",        "t",        "db.",     ".t",     "db..t",
                                "a/b.t",   "db.a/b",   "a\\b.t",  "db.t\n", "db.\x01t",
                                "db.\x7f", "../etc.t", "db.t\tx", "db. .."};
    for (size_t i = 0; i < FT_N(bad_tables); i++) {
        int rc = floe_catalog_register_table(c, bad_tables[i], "/m.json");
        if (rc != FLOE_EINVALID)
            ft_fail(__FILE__, __LINE__, "identifier #%zu accepted (rc %d)", i, rc);
        FT_ERR_CONTAINS("Invalid");
    }
    FT_EQ_INT(floe_catalog_register_table(c, "db.t", "/m.json"), 0);
    FT_EQ_INT(floe_catalog_create_namespace(c, "a..b", NULL), FLOE_EINVALID);
    FT_ERR_CONTAINS("'..'");
    FT_EQ_INT(floe_catalog_create_namespace(c, "x/y", NULL), FLOE_EINVALID);
    FT_ERR_CONTAINS("contains '/'");
    FT_EQ_INT(floe_catalog_create_namespace(c, "", NULL), FLOE_EINVALID);
    FT_ERR_CONTAINS("empty part");
    char long_name[300];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    FT_EQ_INT(floe_catalog_create_namespace(c, long_name, NULL), FLOE_EINVALID);
    FT_ERR_CONTAINS("longer than 255");
    FT_EQ_INT(floe__catalog_check_part("a\0b", 3, "namespace", "a"), FLOE_EINVALID);
    FT_ERR_CONTAINS("NUL");
    FT_EQ_INT(floe_catalog_register_table(c, "db.t2", "/m\n.json"), FLOE_EINVALID);

    /* SQL injection attempts are just names, stored verbatim */
    const char *evil[] = {"db.x'; DROP TABLE iceberg_tables; --", "db.\" OR 1=1 --",
                          "db.t') ; DELETE FROM iceberg_namespace_properties;"};
    for (size_t i = 0; i < FT_N(evil); i++) {
        FT_OK(floe_catalog_register_table(c, evil[i], "/evil.json"));
        char *loc;
        FT_OK(floe_catalog_load_table(&loc, NULL, c, evil[i]));
        FT_EQ_STR(loc, "/evil.json");
        floe_string_free(loc);
    }
    names n = {0};
    FT_OK(floe_catalog_list_tables(c, "db", collect_tables, &n));
    FT_EQ_INT(n.n, 4);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "db"), 1);
    /* LIKE wildcards in names match nothing else */
    FT_OK(floe_catalog_create_namespace(c, "a_c", NULL));
    FT_OK(floe_catalog_create_namespace(c, "b%", NULL));
    FT_OK(floe_catalog_create_namespace(c, "abc.x", NULL));
    FT_EQ_INT(floe_catalog_namespace_exists(c, "a_c"), 1);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "abc"), 1);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "b"), 0);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "bx"), 0);
    memset(&n, 0, sizeof n);
    FT_OK(floe_catalog_list_namespaces(c, "a_c", collect_ns, &n));
    FT_EQ_INT(n.n, 0);
    floe_catalog_free(c);
}

static void test_commit_cas(void)
{
    floe_catalog *c = open_cat("cat.db", NULL);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    FT_OK(floe_catalog_register_table(c, "db.t", "/t/v1.json"));
    FT_OK(floe_catalog_commit_table(c, "db.t", "/t/v1.json", "/t/v2.json"));
    char *loc, *prev;
    FT_OK(floe_catalog_load_table(&loc, &prev, c, "db.t"));
    FT_EQ_STR(loc, "/t/v2.json");
    FT_EQ_STR(prev, "/t/v1.json");
    floe_string_free(loc);
    floe_string_free(prev);
    /* a stale base loses */
    FT_EQ_INT(floe_catalog_commit_table(c, "db.t", "/t/v1.json", "/t/v3.json"), FLOE_ECONFLICT);
    FT_ERR_CONTAINS("Failed to update table db.t from metadata location /t/v1.json");
    FT_ERR_CONTAINS("/t/v2.json");
    FT_EQ_INT(floe_catalog_commit_table(c, "db.gone", "/a", "/b"), FLOE_ENOTFOUND);
    /* a second catalog handle on the same file sees and races the same pointer */
    floe_catalog *c2 = open_cat("cat.db", NULL);
    FT_ASSERT(c2);
    FT_OK(floe_catalog_commit_table(c2, "db.t", "/t/v2.json", "/t/v3.json"));
    FT_EQ_INT(floe_catalog_commit_table(c, "db.t", "/t/v2.json", "/t/v3b.json"), FLOE_ECONFLICT);
    /* another catalog name in the same file is another catalog */
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.name = "other";
    floe_catalog *c3;
    FT_OK(floe_catalog_open_sql(&c3, ft_tmp("cat.db"), &o));
    FT_EQ_INT(floe_catalog_namespace_exists(c3, "db"), 0);
    FT_EQ_INT(floe_catalog_commit_table(c3, "db.t", "/t/v3.json", "/t/v4.json"), FLOE_ENOTFOUND);
    floe_catalog_free(c3);

    /* database failures: busy = nothing changed; I/O error = unknown */
    floe__catalog_sql_inject(c, SQLITE_BUSY, false);
    FT_EQ_INT(floe_catalog_commit_table(c, "db.t", "/t/v3.json", "/t/v4.json"), FLOE_EIO);
    FT_ERR_CONTAINS("nothing changed");
    floe__catalog_sql_inject(c, SQLITE_IOERR_FSYNC, false);
    FT_EQ_INT(floe_catalog_commit_table(c, "db.t", "/t/v3.json", "/t/v4.json"),
              FLOE_ECOMMITUNKNOWN);
    FT_ERR_CONTAINS("outcome unknown");
    FT_OK(floe_catalog_load_table(&loc, NULL, c, "db.t"));
    FT_EQ_STR(loc, "/t/v3.json");
    floe_string_free(loc);
    /* an error after the swap happened is resolved by reading it back */
    floe__catalog_sql_inject(c, SQLITE_IOERR_WRITE, true);
    FT_OK(floe_catalog_commit_table(c, "db.t", "/t/v3.json", "/t/v4.json"));
    FT_OK(floe_catalog_load_table(&loc, NULL, c2, "db.t"));
    FT_EQ_STR(loc, "/t/v4.json");
    floe_string_free(loc);
    floe_catalog_free(c2);
    floe_catalog_free(c);
}

static void test_default_location(void)
{
    floe_catalog *c = open_cat("cat.db", "s3://bucket/wh//");
    FT_ASSERT(c);
    FT_EQ_STR(floe_catalog_warehouse(c), "s3://bucket/wh");
    char *loc;
    FT_OK(floe_catalog_default_location(&loc, c, "db.t"));
    FT_EQ_STR(loc, "s3://bucket/wh/db.db/t");
    floe_string_free(loc);
    FT_OK(floe_catalog_create_namespace(c, "a.b", NULL));
    FT_OK(floe_catalog_default_location(&loc, c, "a.b.t"));
    FT_EQ_STR(loc, "s3://bucket/wh/a.b.db/t");
    floe_string_free(loc);
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "location", "/elsewhere/ns/"));
    FT_OK(floe_catalog_create_namespace(c, "placed", &p));
    floe__props_free(&p);
    FT_OK(floe_catalog_default_location(&loc, c, "placed.t"));
    FT_EQ_STR(loc, "/elsewhere/ns/t");
    floe_string_free(loc);
    FT_EQ_INT(floe_catalog_default_location(&loc, c, "../x"), FLOE_EINVALID);
    floe_catalog_free(c);
    c = open_cat("cat2.db", NULL);
    FT_ASSERT(c);
    FT_EQ_INT(floe_catalog_default_location(&loc, c, "db.t"), FLOE_EINVALID);
    FT_ERR_CONTAINS("no warehouse");
    floe_catalog_free(c);
}

/* The file is a plain SQLite database in the JDBC schema. */
static void test_sqlite3_cli(void)
{
    if (ft_run(NULL, "command -v sqlite3 >/dev/null 2>&1") != 0) {
        ft_skip("sqlite3 CLI not installed");
        return;
    }
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.name = "prod";
    floe_catalog *c;
    char uri[4200];
    snprintf(uri, sizeof uri, "sqlite:///%s", ft_tmp("wh.db"));
    FT_OK(floe_catalog_open_sql(&c, uri, &o));
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "owner", "alice"));
    FT_OK(floe_catalog_create_namespace(c, "sales", &p));
    floe__props_free(&p);
    FT_OK(floe_catalog_register_table(c, "sales.orders", "/wh/sales.db/orders/v1.json"));
    FT_OK(floe_catalog_commit_table(c, "sales.orders", "/wh/sales.db/orders/v1.json",
                                    "/wh/sales.db/orders/v2.json"));
    floe_catalog_free(c);
    char *out = NULL;
    FT_EQ_INT(ft_run(&out,
                     "sqlite3 -separator '|' '%s' \"SELECT catalog_name, table_namespace, "
                     "table_name, metadata_location, previous_metadata_location, iceberg_type "
                     "FROM iceberg_tables\"",
                     ft_tmp("wh.db")),
              0);
    FT_EQ_STR(out, "prod|sales|orders|/wh/sales.db/orders/v2.json|/wh/sales.db/orders/"
                   "v1.json|TABLE\n");
    free(out);
    FT_EQ_INT(ft_run(&out,
                     "sqlite3 -separator '|' '%s' \"SELECT catalog_name, namespace, property_key, "
                     "property_value FROM iceberg_namespace_properties ORDER BY property_key\"",
                     ft_tmp("wh.db")),
              0);
    FT_EQ_STR(out, "prod|sales|exists|true\nprod|sales|owner|alice\n");
    free(out);
    FT_EQ_INT(ft_run(&out, "sqlite3 '%s' 'PRAGMA journal_mode'", ft_tmp("wh.db")), 0);
    FT_EQ_STR(out, "wal\n");
    free(out);
    /* primary keys as in the JDBC schema */
    FT_EQ_INT(ft_run(&out,
                     "sqlite3 '%s' \"SELECT name FROM pragma_table_info('iceberg_tables') WHERE "
                     "pk > 0 ORDER BY pk; SELECT name FROM "
                     "pragma_table_info('iceberg_namespace_properties') WHERE pk > 0 ORDER BY "
                     "pk\"",
                     ft_tmp("wh.db")),
              0);
    FT_EQ_STR(out, "catalog_name\ntable_namespace\ntable_name\ncatalog_name\nnamespace\n"
                   "property_key\n");
    free(out);
}

/* A database created by PyIceberg's SqlCatalog (no iceberg_type column) or
 * Java's V0 schema is used as it is. */
static void test_pyiceberg_schema(void)
{
    const char *path = ft_tmp("py.db");
    sqlite3 *db;
    FT_ASSERT(sqlite3_open(path, &db) == SQLITE_OK);
    const char *ddl =
        "CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace "
        "VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, metadata_location "
        "VARCHAR(1000), previous_metadata_location VARCHAR(1000), PRIMARY KEY (catalog_name, "
        "table_namespace, table_name));"
        "CREATE TABLE iceberg_namespace_properties (catalog_name VARCHAR(255) NOT NULL, "
        "namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255) NOT NULL, property_value "
        "VARCHAR(1000) NOT NULL, PRIMARY KEY (catalog_name, namespace, property_key));"
        "INSERT INTO iceberg_namespace_properties VALUES ('py', 'default', 'exists', 'true');"
        "INSERT INTO iceberg_tables VALUES ('py', 'default', 'taxis', '/wh/default.db/taxis/"
        "metadata/00001-x.metadata.json', '/wh/default.db/taxis/metadata/00000-y.metadata.json');"
        "INSERT INTO iceberg_tables VALUES ('py', 'implicit', 'x', '/x.json', NULL);";
    FT_ASSERT(sqlite3_exec(db, ddl, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.name = "py";
    floe_catalog *c;
    char uri[4200];
    snprintf(uri, sizeof uri, "jdbc:sqlite:%s", path);
    FT_OK(floe_catalog_open_sql(&c, uri, &o));
    char *loc;
    FT_OK(floe_catalog_load_table(&loc, NULL, c, "default.taxis"));
    FT_EQ_STR(loc, "/wh/default.db/taxis/metadata/00001-x.metadata.json");
    FT_OK(floe_catalog_commit_table(c, "default.taxis", loc, "/wh/v2.json"));
    floe_string_free(loc);
    FT_OK(floe_catalog_register_table(c, "default.new", "/n.json"));
    names n = {0};
    FT_OK(floe_catalog_list_namespaces(c, NULL, collect_ns, &n));
    FT_EQ_INT(n.n, 2);
    FT_EQ_STR(n.v[0], "default");
    FT_EQ_STR(n.v[1], "implicit");
    memset(&n, 0, sizeof n);
    FT_OK(floe_catalog_list_tables(c, "default", collect_tables, &n));
    FT_EQ_INT(n.n, 2);
    floe_catalog_free(c);
    /* the schema was left alone */
    FT_ASSERT(sqlite3_open(path, &db) == SQLITE_OK);
    sqlite3_stmt *st;
    FT_ASSERT(sqlite3_prepare_v2(db, "SELECT count(*) FROM pragma_table_info('iceberg_tables')", -1,
                                 &st, NULL) == SQLITE_OK);
    FT_ASSERT(sqlite3_step(st) == SQLITE_ROW);
    FT_EQ_INT(sqlite3_column_int(st, 0), 5);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_open_errors(void)
{
    floe_catalog *c = NULL;
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.no_create = true;
    FT_CHECK(floe_catalog_open_sql(&c, ft_tmp("absent.db"), &o) < 0);
    FT_CHECK(c == NULL);
    FT_ASSERT(ft_write_file(ft_tmp("garbage.db"), "this is not a database, not at all......", 40) ==
              0);
    FT_EQ_INT(floe_catalog_open_sql(&c, ft_tmp("garbage.db"), NULL), FLOE_EIO);
    FT_ERR_CONTAINS("garbage.db");
    /* an SQLite file without the catalog tables */
    sqlite3 *db;
    FT_ASSERT(sqlite3_open(ft_tmp("plain.db"), &db) == SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL);
    sqlite3_close(db);
    FT_EQ_INT(floe_catalog_open_sql(&c, ft_tmp("plain.db"), &o), FLOE_EIO);
    FT_ERR_CONTAINS("not an Iceberg catalog database");
    o.no_create = false;
    o.name = "bad/name";
    FT_EQ_INT(floe_catalog_open_sql(&c, ft_tmp("x.db"), &o), FLOE_EINVALID);
    o.name = NULL;
    o.version = 99;
    FT_EQ_INT(floe_catalog_open_sql(&c, ft_tmp("x.db"), &o), FLOE_EINVALID);
    FT_EQ_INT(floe_catalog_open_sql(&c, "sqlite:///", NULL), FLOE_EINVALID);
}

/* ---------------------------------------------------------------- OOM */

static int ns_noop(const char *ns, void *payload)
{
    FLOE_UNUSED(ns);
    FLOE_UNUSED(payload);
    return 0;
}

static int oom_workload(const char *file, long n)
{
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = "/wh";
    floe_catalog *c;
    FLOE_TRY(floe_catalog_open_sql(&c, file, &o));
    char ns[64], t[80], loc2[80];
    snprintf(ns, sizeof ns, "ns%ld", n);
    snprintf(t, sizeof t, "%s.t", ns);
    snprintf(loc2, sizeof loc2, "/v2-%ld.json", n);
    floe_props p = FLOE_PROPS_INIT;
    int rc = floe__props_set(&p, "k", "v");
    if (rc == 0)
        rc = floe_catalog_create_namespace(c, ns, &p);
    floe__props_free(&p);
    floe_props got = FLOE_PROPS_INIT;
    if (rc == 0)
        rc = floe_catalog_load_namespace(&got, c, ns);
    floe__props_free(&got);
    if (rc == 0)
        rc = floe_catalog_list_namespaces(c, ns, ns_noop, NULL); /* cost independent of n */
    if (rc == 0)
        rc = floe_catalog_register_table(c, t, "/v1.json");
    char *loc = NULL;
    if (rc == 0)
        rc = floe_catalog_load_table(&loc, NULL, c, t);
    if (rc == 0)
        rc = floe_catalog_commit_table(c, t, loc, loc2);
    floe_string_free(loc);
    loc = NULL;
    if (rc == 0)
        rc = floe_catalog_default_location(&loc, c, t);
    floe_string_free(loc);
    names tn = {0};
    if (rc == 0)
        rc = floe_catalog_list_tables(c, ns, collect_tables, &tn);
    char t2[96];
    snprintf(t2, sizeof t2, "%s.renamed", ns);
    if (rc == 0)
        rc = floe_catalog_rename_table(c, t, t2);
    if (rc == 0)
        rc = floe_catalog_drop_table(c, t2);
    if (rc == 0)
        rc = floe_catalog_drop_namespace(c, ns);
    floe_catalog_free(c);
    return rc;
}

static void test_oom(void)
{
    char file[4200];
    snprintf(file, sizeof file, "%s", ft_tmp("oom.db"));
    int rc = -1;
    long n;
    for (n = 1; n < 2000; n++) {
        floe__alloc_fail_at(n);
        rc = oom_workload(file, n);
        floe__alloc_fail_at(0);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d: %s", n, rc, ft_floe_err());
            return;
        }
    }
    if (rc != 0)
        ft_fail(__FILE__, __LINE__, "still failing after %ld: %s", n, ft_floe_err());
    FT_CHECK(n > 10);
}

static const ft_case cases[] = {
    {"namespaces", test_namespaces},           {"tables", test_tables},
    {"views_untouched", test_views_untouched}, {"identifiers", test_identifiers},
    {"commit_cas", test_commit_cas},           {"default_location", test_default_location},
    {"sqlite3_cli", test_sqlite3_cli},         {"pyiceberg_schema", test_pyiceberg_schema},
    {"open_errors", test_open_errors},         {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
