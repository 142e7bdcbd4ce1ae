/* SPDX-License-Identifier: Apache-2.0 */
/* Views over REST: floe's REST client (catalog/rest.c) against `floe
 * serve`'s view routes (rest/views.c) on the SQLite warehouse backend —
 * create, load, list, replace (assert-view-uuid, new version), rename,
 * drop and their errors; the same view seen through the server's SQLite
 * catalog directly; the routes' raw answers (config endpoints, HEAD,
 * NoSuchViewException, register-view, a location outside the warehouse);
 * an allocation-failure loop over the client calls. */
#include "serve_child.h"

#include "../catalog/views_fixture.h"

#include <signal.h>
#include <stdlib.h>

static char *curl(const server *s, const char *args)
{
    char *out = NULL;
    ft_run(&out, "curl -s -H 'Authorization: Bearer " TOKEN "' %s", args);
    (void)s;
    return out;
}

static void test_client_calls(void)
{
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *c = rest_client(&s);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "comment", "one"));
    floe_view_options o = opts("SELECT 1 AS n");
    o.properties = &p;
    FT_OK(floe_view_create(c, "db.v", &o, false));
    floe__props_free(&p);
    FT_CHECK(floe_view_create(c, "db.v", &o, false) == FLOE_EEXISTS);
    FT_ERR_CONTAINS("View already exists: db.v");
    floe_view *v = NULL;
    FT_OK(floe_view_load(&v, c, "db.v", NULL));
    FT_EQ_STR(floe_view_sql(v, "spark"), "SELECT 1 AS n");
    FT_EQ_STR(floe_view_property(v, "comment"), "one");
    FT_EQ_INT(floe_view_current_version_id(v), 1);
    FT_CHECK(strstr(floe_view_metadata_location(v), "/rwh/db.db/v/metadata/00000-") != NULL);
    floe_view_free(v);
    /* replace: the server checks assert-view-uuid and adds version 2 */
    o = opts("SELECT 2 AS n");
    FT_OK(floe_view_create(c, "db.v", &o, true));
    FT_OK(floe_view_load(&v, c, "db.v", NULL));
    FT_EQ_STR(floe_view_sql(v, NULL), "SELECT 2 AS n");
    FT_EQ_INT(floe_view_current_version_id(v), 2);
    floe_view_free(v);
    FT_OK(floe_view_create(c, "db.w", &o, true)); /* replace of a missing view creates it */
    names n = {0};
    FT_OK(floe_catalog_list_views(c, "db", collect, &n));
    FT_EQ_INT(n.n, 2);
    FT_EQ_STR(n.v[0], "db.v");
    FT_EQ_STR(n.v[1], "db.w");
    FT_CHECK(floe_catalog_list_views(c, "nope", collect, &n) == FLOE_ENOTFOUND);
    FT_EQ_INT(floe_catalog_view_exists(c, "db.w"), 1);
    FT_OK(floe_catalog_rename_view(c, "db.w", "db.w2"));
    FT_EQ_INT(floe_catalog_view_exists(c, "db.w"), 0);
    FT_CHECK(floe_catalog_rename_view(c, "db.w", "db.x") == FLOE_ENOTFOUND);
    FT_CHECK(floe_catalog_rename_view(c, "db.w2", "db.v") == FLOE_EEXISTS);
    FT_ERR_CONTAINS("Cannot rename db.w2 to db.v. View already exists");
    FT_OK(floe_catalog_drop_view(c, "db.w2"));
    FT_CHECK(floe_catalog_drop_view(c, "db.w2") == FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("View does not exist: db.w2");
    FT_CHECK(floe_view_load(&v, c, "db.w2", NULL) == FLOE_ENOTFOUND);
    FT_CHECK(floe_view_create(c, "nope.v", &o, false) == FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Namespace does not exist: nope");
    floe_catalog_free(c);
    server_stop(&s);
    /* the server's SQLite catalog holds the same view (Java JdbcCatalog's row) */
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.name = "test";
    floe_catalog *sq = NULL;
    char db[4096];
    snprintf(db, sizeof db, "%s/catalog.db", ft_tmp("rwh"));
    FT_OK(floe_catalog_open_sql(&sq, db, &co));
    FT_OK(floe_view_load(&v, sq, "db.v", NULL));
    FT_EQ_STR(floe_view_sql(v, "spark"), "SELECT 2 AS n");
    floe_view_free(v);
    floe_catalog_free(sq);
}

static void test_routes(void)
{
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *c = rest_client(&s);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    floe_view_options o = opts("SELECT 1 AS n");
    FT_OK(floe_view_create(c, "db.v", &o, false));
    char args[8192];
    snprintf(args, sizeof args, "%s/v1/config", s.uri);
    char *out = curl(&s, args);
    FT_CHECK(out && strstr(out, "\"POST /v1/{prefix}/namespaces/{namespace}/views/{view}\""));
    FT_CHECK(out && strstr(out, "\"POST /v1/{prefix}/views/rename\""));
    FT_CHECK(out && strstr(out, "\"POST /v1/{prefix}/namespaces/{namespace}/register-view\""));
    free(out);
    snprintf(args, sizeof args, "-o /dev/null -w '%%{http_code}' -I %s/v1/namespaces/db/views/v",
             s.uri);
    out = curl(&s, args);
    FT_EQ_STR(out, "204");
    free(out);
    snprintf(args, sizeof args, "-w ' %%{http_code}' %s/v1/namespaces/db/views/nope", s.uri);
    out = curl(&s, args);
    FT_CHECK(out && strstr(out, "\"type\":\"NoSuchViewException\"") && strstr(out, " 404"));
    free(out);
    /* a view cannot take a table's name, nor be placed outside the warehouse */
    snprintf(args, sizeof args,
             "-w ' %%{http_code}' -X POST %s/v1/namespaces/db/views -d '{\"name\":\"x\","
             "\"location\":\"/etc/x\",\"schema\":" SCHEMA ",\"view-version\":{\"version-id\":1,"
             "\"timestamp-ms\":1,\"schema-id\":0,\"summary\":{},\"default-namespace\":[],"
             "\"representations\":[]},\"properties\":{}}'",
             s.uri);
    out = curl(&s, args);
    FT_CHECK(out && strstr(out, "BadRequestException") && strstr(out, " 400"));
    free(out);
    /* the CommitViewRequest's uuid is checked */
    snprintf(args, sizeof args,
             "-w ' %%{http_code}' -X POST %s/v1/namespaces/db/views/v -d '{\"requirements\":[{"
             "\"type\":\"assert-view-uuid\",\"uuid\":\"x\"}],\"updates\":[]}'",
             s.uri);
    out = curl(&s, args);
    FT_CHECK(out && strstr(out, "CommitFailedException") && strstr(out, " 409"));
    free(out);
    /* register-view of the current file under another name */
    floe_view *v = NULL;
    FT_OK(floe_view_load(&v, c, "db.v", NULL));
    snprintf(args, sizeof args,
             "-w ' %%{http_code}' -X POST %s/v1/namespaces/db/register-view -d '{\"name\":"
             "\"copy\",\"metadata-location\":\"%s\"}'",
             s.uri, floe_view_metadata_location(v));
    floe_view_free(v);
    out = curl(&s, args);
    if (!FT_CHECK(out && strstr(out, "\"metadata-location\"") && strstr(out, " 200")))
        printf("register-view: %s\n", out ? out : "(none)");
    free(out);
    FT_EQ_INT(floe_catalog_view_exists(c, "db.copy"), 1);
    snprintf(args, sizeof args,
             "-w ' %%{http_code}' -X POST %s/v1/namespaces/db/register-view -d '{\"name\":"
             "\"bad\",\"metadata-location\":\"/etc/passwd\"}'",
             s.uri);
    out = curl(&s, args);
    FT_CHECK(out && strstr(out, " 400"));
    free(out);
    floe_catalog_free(c);
    server_stop(&s);
}

static void test_alloc_failures(void)
{
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *c = rest_client(&s);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    floe_view_options o = opts("SELECT 1 AS n");
    FT_OK(floe_view_create(c, "db.v", &o, false));
    long k;
    for (k = 1; k < 100000; k++) {
        floe_view *v = NULL;
        names n = {0};
        floe__alloc_fail_at(k);
        int rc = floe_view_load(&v, c, "db.v", NULL);
        if (rc == 0)
            rc = floe_catalog_list_views(c, "db", collect, &n);
        floe__alloc_fail_at(0);
        floe_view_free(v);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM && rc != FLOE_EIO) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: %d %s", k, rc, ft_floe_err());
            break;
        }
    }
    FT_CHECK(k > 10 && k < 100000);
    floe_catalog_free(c);
    server_stop(&s);
}

static const ft_case cases[] = {
    {"client_calls", test_client_calls},
    {"routes", test_routes},
    {"alloc_failures", test_alloc_failures},
};

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    return ft_main(argc, argv, cases, FT_N(cases));
}
