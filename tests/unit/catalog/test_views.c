/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of catalog/view.c on the SQLite catalog: create, load, list,
 * replace (new version, same uuid, properties), rename, drop; the rows
 * Java's JdbcCatalog reads (iceberg_type = 'VIEW'); views and tables never
 * share a name (Java's messages); the metadata file written (gzip,
 * 00000-/00001- names, parses as view metadata); a V0 database; bad
 * options; out of memory. */
#include "catalog/catalog.h"
#include "harness.h"
#include "spec/view.h"
#include "views_fixture.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

static floe_catalog *open_cat(const char *file)
{
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = ft_tmpdir();
    floe_catalog *c = NULL;
    if (floe_catalog_open_sql(&c, ft_tmp(file), &o) < 0)
        ft_fail(__FILE__, __LINE__, "open: %s", ft_floe_err());
    return c;
}

static char *sqlite_value(const char *db, const char *query)
{
    sqlite3 *h = NULL;
    char *out = NULL;
    if (sqlite3_open(db, &h) == SQLITE_OK) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(h, query, -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            out = strdup((const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

static void test_lifecycle(void)
{
    floe_catalog *c = open_cat("cat.db");
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "comment", "counts"));
    floe_view_options o = opts("SELECT count(*) AS n FROM t");
    o.properties = &p;
    FT_OK(floe_view_create(c, "db.v", &o, false));
    floe__props_free(&p);
    FT_EQ_INT(floe_catalog_view_exists(c, "db.v"), 1);
    FT_EQ_INT(floe_catalog_view_exists(c, "db.w"), 0);
    /* the row Java's JdbcCatalog reads */
    char *type = sqlite_value(ft_tmp("cat.db"), "SELECT iceberg_type FROM iceberg_tables WHERE "
                                                "catalog_name = 'local' AND table_name = 'v'");
    FT_EQ_STR(type, "VIEW");
    free(type);
    floe_view *v = NULL;
    FT_OK(floe_view_load(&v, c, "db.v", NULL));
    FT_EQ_STR(floe_view_sql(v, "spark"), "SELECT count(*) AS n FROM t");
    FT_EQ_STR(floe_view_sql(v, "SPARK"), "SELECT count(*) AS n FROM t");
    FT_CHECK(floe_view_sql(v, "trino") == NULL);
    FT_EQ_STR(floe_view_default_namespace(v), "db");
    FT_CHECK(floe_view_default_catalog(v) == NULL);
    FT_EQ_STR(floe_view_property(v, "comment"), "counts");
    FT_EQ_INT(floe_view_current_version_id(v), 1);
    const char *loc = floe_view_metadata_location(v);
    FT_CHECK(strstr(loc, "/db.db/v/metadata/00000-") != NULL);
    FT_CHECK(strstr(loc, ".gz.metadata.json") != NULL);
    /* the file is gzip and a valid view metadata file */
    size_t len;
    char *raw = ft_read_file(loc, &len);
    FT_ASSERT(raw && len > 2);
    FT_CHECK((unsigned char)raw[0] == 0x1f && (unsigned char)raw[1] == 0x8b);
    floe_view_metadata *m = NULL;
    FT_OK(floe__view_metadata_parse(&m, raw, len, loc));
    FT_EQ_INT(m->nversions, 1);
    FT_EQ_STR(m->versions[0].summary[0].value, "floe");
    char *uuid = strdup(m->view_uuid);
    floe__view_metadata_free(m);
    free(raw);
    char *schema = NULL;
    FT_OK(floe_view_schema_json(&schema, v));
    FT_CHECK(strstr(schema, "\"name\":\"n\"") != NULL);
    floe_string_free(schema);
    floe_view_free(v);
    /* create again: exists; replace: version 2, same uuid */
    FT_CHECK(floe_view_create(c, "db.v", &o, false) == FLOE_EEXISTS);
    FT_ERR_CONTAINS("View already exists: db.v");
    o = opts("SELECT 2 AS n");
    o.default_namespace = "other";
    FT_OK(floe_view_create(c, "db.v", &o, true));
    FT_OK(floe_view_load(&v, c, "db.v", NULL));
    FT_EQ_STR(floe_view_sql(v, NULL), "SELECT 2 AS n");
    FT_EQ_INT(floe_view_current_version_id(v), 2);
    FT_EQ_STR(floe_view_default_namespace(v), "other");
    FT_EQ_STR(floe_view_property(v, "comment"), "counts"); /* kept */
    FT_CHECK(strstr(floe_view_metadata_location(v), "/metadata/00001-") != NULL);
    char *json = NULL;
    FT_OK(floe_view_metadata_json(&json, v));
    FT_CHECK(strstr(json, uuid) != NULL);
    FT_CHECK(strstr(json, "\"version-log\":[{") != NULL);
    floe_string_free(json);
    floe_view_free(v);
    free(uuid);
    /* replace of a missing view creates it */
    FT_OK(floe_view_create(c, "db.w", &o, true));
    names n = {0};
    FT_OK(floe_catalog_list_views(c, "db", collect, &n));
    FT_EQ_INT(n.n, 2);
    FT_EQ_STR(n.v[0], "db.v");
    FT_EQ_STR(n.v[1], "db.w");
    /* views are not tables */
    n.n = 0;
    FT_OK(floe_catalog_list_tables(c, "db", collect, &n));
    FT_EQ_INT(n.n, 0);
    char *tl = NULL;
    FT_CHECK(floe_catalog_load_table(&tl, NULL, c, "db.v") == FLOE_ENOTFOUND);
    /* rename, drop */
    FT_OK(floe_catalog_create_namespace(c, "db2", NULL));
    FT_OK(floe_catalog_rename_view(c, "db.w", "db2.w2"));
    FT_EQ_INT(floe_catalog_view_exists(c, "db2.w2"), 1);
    FT_EQ_INT(floe_catalog_view_exists(c, "db.w"), 0);
    FT_CHECK(floe_catalog_rename_view(c, "db.w", "db.x") == FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("View does not exist: db.w");
    FT_CHECK(floe_catalog_rename_view(c, "db2.w2", "nope.x") == FLOE_ENOTFOUND);
    FT_CHECK(floe_catalog_rename_view(c, "db2.w2", "db.v") == FLOE_EEXISTS);
    FT_ERR_CONTAINS("Cannot rename db2.w2 to db.v. View already exists");
    FT_OK(floe_catalog_drop_view(c, "db2.w2"));
    FT_CHECK(floe_catalog_drop_view(c, "db2.w2") == FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("View does not exist: db2.w2");
    FT_CHECK(floe_view_load(&v, c, "db2.w2", NULL) == FLOE_ENOTFOUND);
    FT_CHECK(v == NULL);
    floe_catalog_free(c);
}

static void test_same_name(void)
{
    floe_catalog *c = open_cat("cat.db");
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    FT_OK(floe_catalog_register_table(c, "db.t", "file:///x/t/metadata/v1.metadata.json"));
    floe_view_options o = opts("SELECT 1 AS n");
    FT_CHECK(floe_view_create(c, "db.t", &o, false) == FLOE_EEXISTS);
    FT_ERR_CONTAINS("Table with same name already exists: db.t");
    FT_CHECK(floe_view_create(c, "db.t", &o, true) == FLOE_EEXISTS);
    FT_ERR_CONTAINS("Table with same name already exists: db.t");
    FT_OK(floe_view_create(c, "db.v", &o, false));
    FT_CHECK(floe_catalog_register_table(c, "db.v", "file:///x/v.metadata.json") == FLOE_EEXISTS);
    FT_ERR_CONTAINS("View with same name already exists: db.v");
    FT_CHECK(floe_catalog_rename_table(c, "db.t", "db.v") == FLOE_EEXISTS);
    FT_ERR_CONTAINS("Cannot rename db.t to db.v. View already exists");
    FT_CHECK(floe_catalog_rename_view(c, "db.v", "db.t") == FLOE_EEXISTS);
    FT_ERR_CONTAINS("Cannot rename db.v to db.t. Table already exists");
    FT_CHECK(floe_catalog_drop_table(c, "db.v") == FLOE_ENOTFOUND);
    FT_CHECK(floe_catalog_drop_view(c, "db.t") == FLOE_ENOTFOUND);
    /* a missing namespace */
    FT_CHECK(floe_view_create(c, "nope.v", &o, false) == FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Namespace does not exist: nope");
    FT_CHECK(floe_catalog_list_views(c, "nope", collect, &(names){0}) == FLOE_ENOTFOUND);
    floe_catalog_free(c);
}

static void test_bad_options(void)
{
    floe_catalog *c = open_cat("cat.db");
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    floe_view_options o = opts("");
    FT_CHECK(floe_view_create(c, "db.v", &o, false) == FLOE_EINVALID);
    FT_ERR_CONTAINS("SQL text is empty");
    o = opts("SELECT 1");
    o.schema_json = "[1]";
    FT_CHECK(floe_view_create(c, "db.v", &o, false) == FLOE_EINVALID);
    o.schema_json = "{\"type\":\"struct\",\"fields\":[{\"id\":1}]}";
    FT_CHECK(floe_view_create(c, "db.v", &o, false) < 0);
    o.schema_json = "{nope";
    FT_CHECK(floe_view_create(c, "db.v", &o, false) < 0);
    FT_CHECK(floe_view_create(c, "db.v", NULL, false) == FLOE_EINVALID);
    o = opts("SELECT 1");
    FT_CHECK(floe_view_create(c, "v", &o, false) == FLOE_EINVALID);
    FT_EQ_INT(floe_catalog_view_exists(c, "db.v"), 0);
    /* nothing was left in the warehouse by the failures */
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "find '%s' -name '*.metadata.json' | wc -l", ft_tmpdir()), 0);
    FT_CHECK(out && atoi(out) == 0);
    free(out);
    floe_catalog_free(c);
}

/* A database in Java's V0 schema (no iceberg_type): no views, as JdbcCatalog. */
static void test_v0(void)
{
    sqlite3 *db = NULL;
    FT_ASSERT(sqlite3_open(ft_tmp("v0.db"), &db) == SQLITE_OK);
    FT_ASSERT(sqlite3_exec(db,
                           "CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL, "
                           "table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT "
                           "NULL, metadata_location VARCHAR(1000), previous_metadata_location "
                           "VARCHAR(1000), PRIMARY KEY (catalog_name, table_namespace, "
                           "table_name));"
                           "CREATE TABLE iceberg_namespace_properties (catalog_name VARCHAR(255) "
                           "NOT NULL, namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255), "
                           "property_value VARCHAR(1000), PRIMARY KEY (catalog_name, namespace, "
                           "property_key));",
                           NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    floe_catalog *c = open_cat("v0.db");
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    floe_view_options o = opts("SELECT 1 AS n");
    FT_CHECK(floe_view_create(c, "db.v", &o, false) == FLOE_EUNSUPPORTED);
    FT_ERR_CONTAINS("set jdbc.schema-version=V1");
    FT_CHECK(floe_catalog_list_views(c, "db", collect, &(names){0}) == FLOE_EUNSUPPORTED);
    FT_OK(floe_catalog_register_table(c, "db.t", "file:///x/t.metadata.json"));
    floe_catalog_free(c);
}

static void test_oom(void)
{
    long n;
    floe_catalog *c = open_cat("cat.db");
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    floe_view_options o = opts("SELECT 1 AS n");
    FT_OK(floe_view_create(c, "db.v", &o, false));
    for (n = 1; n < 100000; n++) {
        floe_view *v = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_view_create(c, "db.v", &o, true);
        if (rc == 0)
            rc = floe_view_load(&v, c, "db.v", NULL);
        floe__alloc_fail_at(0);
        floe_view_free(v);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM && rc != FLOE_EIO) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: %d %s", n, rc, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 20 && n < 100000);
    floe_view *v = NULL;
    FT_OK(floe_view_load(&v, c, "db.v", NULL));
    FT_CHECK(floe_view_current_version_id(v) >= 1);
    floe_view_free(v);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"lifecycle", test_lifecycle},
    {"same_name", test_same_name},
    {"bad_options", test_bad_options},
    {"v0", test_v0},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
