/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The backend of `floe serve --memory` (the SQLite backend over an
 * in-memory database and the memory FileIO) called directly (no HTTP):
 * requirement checks and update application through the table layer's
 * commit path, registration inside the warehouse only, and the
 * out-of-memory loop — every allocation failure returns FLOE_ENOMEM and
 * leaks nothing (ASan).
 */
#include "harness.h"
#include "rest/backend.h"

#include <stdio.h>

#define S(x) x, strlen(x)

static const char table_body[] =
    "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"id\","
    "\"type\":\"long\",\"required\":true},{\"id\":2,\"name\":\"m\",\"type\":{\"type\":\"map\","
    "\"key-id\":3,\"key\":\"string\",\"value-id\":4,\"value\":\"long\",\"value-required\":"
    "false},\"required\":false}]},\"properties\":{\"p\":\"1\"}}";

static const char append[] =
    "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":"
    "null},{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":4}],"
    "\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":77,"
    "\"sequence-number\":1,\"timestamp-ms\":5,\"manifest-list\":\"m\",\"summary\":"
    "{\"operation\":\"append\"}}},{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\","
    "\"type\":\"branch\",\"snapshot-id\":77},{\"action\":\"set-snapshot-ref\",\"ref-name\":"
    "\"v1\",\"type\":\"tag\",\"snapshot-id\":77,\"max-ref-age-ms\":10},"
    "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":5,"
    "\"name\":\"x\",\"type\":\"int\",\"required\":false}]}},{\"action\":\"set-current-schema\","
    "\"schema-id\":-1},{\"action\":\"remove-properties\",\"removals\":[\"p\"]}]}";

/* One full scenario; returns the first failure code (0 if all succeeded). */
static int scenario(floe_rest_backend *b)
{
    floe_rest_create_namespace_req *ns = NULL;
    floe_rest_create_table_req *ct = NULL;
    floe_rest_commit_table_req *cm = NULL;
    floe_rest_namespace_result nr = {0};
    floe_rest_table_result tr = {0}, tr2 = {0}, tr3 = {0};
    floe_rest_namespace_list nl = {0};
    floe_rest_ident_list il = {0};
    int rc = floe__rest_parse_create_namespace(&ns, S("{\"namespace\":[\"db\"]}"));
    if (rc >= 0)
        rc = b->create_namespace(b, ns, &nr);
    if (rc >= 0)
        rc = floe__rest_parse_create_table(&ct, S(table_body));
    if (rc >= 0)
        rc = b->create_table(b, &ns->ns, ct, &tr);
    floe_rest_ident id = {ns ? ns->ns : (floe_rest_namespace){0}, (char *)"t"};
    if (rc >= 0)
        rc = floe__rest_parse_commit_table(&cm, S(append));
    if (rc >= 0)
        rc = b->commit_table(b, &id, cm, &tr2);
    if (rc >= 0)
        rc = b->load_table(b, &id, FLOE_REST_SNAPSHOTS_REFS, &tr3);
    if (rc >= 0)
        rc = b->list_namespaces(b, NULL, &nl);
    if (rc >= 0)
        rc = b->list_tables(b, &ns->ns, &il);
    floe__rest_namespace_list_free(&nl);
    floe__rest_ident_list_free(&il);
    floe__rest_table_result_free(&tr);
    floe__rest_table_result_free(&tr2);
    floe__rest_table_result_free(&tr3);
    floe__rest_namespace_result_free(&nr);
    floe__rest_commit_table_free(cm);
    floe__rest_create_table_free(ct);
    floe__rest_create_namespace_free(ns);
    return rc;
}

static void test_apply(void)
{
    floe_rest_backend *b = NULL;
    FT_OK(floe__rest_backend_memory_new(&b, "file:///wh/"));
    FT_OK(scenario(b));
    floe_rest_namespace ns = {(char *[]){"db"}, 1};
    floe_rest_ident id = {ns, (char *)"t"};
    floe_rest_table_result tr = {0};
    FT_OK(b->load_table(b, &id, FLOE_REST_SNAPSHOTS_ALL, &tr));
    json_t *md = json_loadb(tr.metadata_text, tr.metadata_text_len, 0, NULL);
    FT_ASSERT(md != NULL);
    /* the catalog's default location: <warehouse>/<namespace>.db/<table> */
    FT_EQ_STR(json_string_value(json_object_get(md, "location")), "file:///wh/db.db/t");
    FT_EQ_INT(json_integer_value(json_object_get(md, "last-column-id")), 5); /* nested ids seen */
    FT_EQ_INT(json_integer_value(json_object_get(md, "current-schema-id")), 1);
    FT_EQ_INT(json_integer_value(json_object_get(md, "current-snapshot-id")), 77);
    FT_EQ_INT(json_integer_value(json_object_get(md, "last-sequence-number")), 1);
    FT_EQ_INT(json_array_size(json_object_get(md, "snapshot-log")), 1);
    json_t *tag = json_object_get(json_object_get(md, "refs"), "v1");
    FT_EQ_STR(json_string_value(json_object_get(tag, "type")), "tag");
    FT_EQ_INT(json_integer_value(json_object_get(tag, "max-ref-age-ms")), 10);
    FT_CHECK(json_object_get(json_object_get(md, "properties"), "p") == NULL);
    json_decref(md);
    floe__rest_table_result_free(&tr);

    /* requirement failures are ECONFLICT with Iceberg's wording */
    static const struct {
        const char *body;
        int rc;
        const char *msg;
    } cases[] = {
        {"{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":[]}", FLOE_ECONFLICT,
         "Requirement failed: table already exists"},
        {"{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"v1\",\"snapshot-id\":"
         "1}],\"updates\":[]}",
         FLOE_ECONFLICT, "tag v1 has changed: expected id 1 != 77"},
        {"{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"dev\",\"snapshot-id\":"
         "1}],\"updates\":[]}",
         FLOE_ECONFLICT, "branch or tag dev is missing, expected 1"},
        {"{\"requirements\":[{\"type\":\"assert-default-spec-id\",\"default-spec-id\":3}],"
         "\"updates\":[]}",
         FLOE_ECONFLICT, "default partition spec changed: expected id 3 != 0"},
        {"{\"requirements\":[{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":3}],"
         "\"updates\":[]}",
         FLOE_ECONFLICT, "default sort order changed: expected id 3 != 0"},
        {"{\"requirements\":[{\"type\":\"assert-last-assigned-partition-id\","
         "\"last-assigned-partition-id\":1000}],\"updates\":[]}",
         FLOE_ECONFLICT, "last assigned partition id changed: expected id 1000 != 999"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"b\","
         "\"type\":\"branch\",\"snapshot-id\":5}]}",
         FLOE_EINVALID, "Cannot set b to unknown snapshot: 5"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"set-current-schema\",\"schema-id\":9}]}",
         FLOE_EINVALID, "Cannot set current schema to unknown schema: 9"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"set-default-spec\",\"spec-id\":-1}]}",
         FLOE_EINVALID, "Cannot set last added spec: no spec has been added"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"upgrade-format-version\","
         "\"format-version\":1}]}",
         FLOE_EINVALID, "Cannot downgrade v2 table to v1"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":{"
         "\"snapshot-id\":77,\"timestamp-ms\":1,\"manifest-list\":\"m\",\"summary\":{\"operation\":"
         "\"append\"}}}]}",
         FLOE_EINVALID, "Snapshot already exists for id: 77"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":{"
         "\"snapshot-id\":78,\"parent-snapshot-id\":77,\"sequence-number\":1,\"timestamp-ms\":1,\"manifest-list\":\"m\","
         "\"summary\":{\"operation\":\"append\"}}}]}",
         FLOE_EINVALID, "older than last sequence number 1"},
    };
    for (size_t i = 0; i < FT_N(cases); i++) {
        floe_rest_commit_table_req *cm = NULL;
        FT_OK(floe__rest_parse_commit_table(&cm, S(cases[i].body)));
        floe_rest_table_result r = {0};
        int rc = b->commit_table(b, &id, cm, &r);
        if (rc != cases[i].rc || !strstr(ft_floe_err(), cases[i].msg))
            ft_fail(__FILE__, __LINE__, "case %zu: rc %d, \"%s\" (want \"%s\")", i, rc,
                    ft_floe_err(), cases[i].msg);
        floe__rest_table_result_free(&r);
        floe__rest_commit_table_free(cm);
    }
    /* remove-snapshots drops refs to them; main removed -> no current snapshot */
    floe_rest_commit_table_req *cm = NULL;
    FT_OK(floe__rest_parse_commit_table(
        &cm, S("{\"requirements\":[],\"updates\":[{\"action\":\"remove-snapshots\","
               "\"snapshot-ids\":[77]}]}")));
    FT_OK(b->commit_table(b, &id, cm, &tr));
    md = json_loadb(tr.metadata_text, tr.metadata_text_len, 0, NULL);
    FT_EQ_INT(json_integer_value(json_object_get(md, "current-snapshot-id")), -1);
    FT_EQ_INT(json_object_size(json_object_get(md, "refs")), 0);
    FT_EQ_INT(json_array_size(json_object_get(md, "metadata-log")), 2);
    json_decref(md);
    floe__rest_table_result_free(&tr);
    floe__rest_commit_table_free(cm);
    floe__rest_backend_free(b);
}

static void test_oom(void)
{
    for (long n = 1; n < 2000; n++) {
        floe_rest_backend *b = NULL;
        FT_OK(floe__rest_backend_memory_new(&b, NULL));
        floe__alloc_fail_at(n);
        int rc = scenario(b);
        long used = floe__alloc_count();
        floe__alloc_fail_at(0);
        floe__rest_backend_free(b);
        if (rc == 0 && used < n)
            return;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld failed: rc %d %s", n, rc, ft_floe_err());
            return;
        }
    }
    ft_fail(__FILE__, __LINE__, "scenario never completed");
}

static int reg(floe_rest_backend *b, const char *location, floe_rest_table_result *out)
{
    char body[1024];
    snprintf(body, sizeof body, "{\"name\":\"r\",\"metadata-location\":\"%s\"}", location);
    floe_rest_register_table_req *req = NULL;
    int rc = floe__rest_parse_register_table(&req, S(body));
    floe_rest_namespace ns = {(char *[]){"db"}, 1};
    if (rc >= 0)
        rc = b->register_table(b, &ns, req, out);
    floe__rest_register_table_free(req);
    return rc;
}

/* Registration reads files inside the local warehouse only (the
 * --warehouse DIR backend; the memory one reads its own FileIO only). */
static void test_register(void)
{
    char wh[600], sub[700], md[800], outside[800];
    snprintf(wh, sizeof wh, "%s/wh", ft_tmpdir());
    snprintf(sub, sizeof sub, "%s/db", wh);
    snprintf(md, sizeof md, "%s/v1.metadata.json", sub);
    snprintf(outside, sizeof outside, "%s/secret.json", ft_tmpdir());
    FT_ASSERT(ft_run(NULL, "mkdir -p '%s'", sub) == 0);
    static const char text[] =
        "{\"format-version\":2,\"table-uuid\":\"u\",\"location\":\"/x\","
        "\"last-sequence-number\":0,\"last-updated-ms\":1,\"last-column-id\":1,"
        "\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,"
        "\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":false,\"type\":\"int\"}]}],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
        "\"last-partition-id\":999,\"default-sort-order-id\":0,\"sort-orders\":"
        "[{\"order-id\":0,\"fields\":[]}]}";
    FT_ASSERT(ft_write_file(md, text, strlen(text)) == 0);
    FT_ASSERT(ft_write_file(outside, "{\"secret\":\"root:x:0\"}", 21) == 0);
    floe_rest_backend *b = NULL;
    FT_OK(floe__rest_backend_sql_new(&b, wh, NULL));
    floe_rest_create_namespace_req *ns = NULL;
    floe_rest_namespace_result nr = {0};
    FT_OK(floe__rest_parse_create_namespace(&ns, S("{\"namespace\":[\"db\"]}")));
    FT_OK(b->create_namespace(b, ns, &nr));
    floe__rest_namespace_result_free(&nr);
    floe__rest_create_namespace_free(ns);
    floe_rest_table_result tr = {0};
    char loc[900], esc[900];
    snprintf(loc, sizeof loc, "file://%s", md);
    FT_OK(reg(b, loc, &tr));
    FT_EQ_STR(tr.metadata_location, loc);
    json_t *rmd = json_loadb(tr.metadata_text, tr.metadata_text_len, 0, NULL);
    FT_EQ_STR(json_string_value(json_object_get(rmd, "table-uuid")), "u");
    json_decref(rmd);
    floe__rest_table_result_free(&tr);
    FT_EQ_INT(reg(b, loc, &tr), FLOE_EEXISTS);
    floe__rest_table_result_free(&tr);
    /* outside the warehouse, directly or through .. : refused, content never quoted */
    FT_EQ_INT(reg(b, outside, &tr), FLOE_EINVALID);
    FT_CHECK(!strstr(ft_floe_err(), "root"));
    snprintf(esc, sizeof esc, "%s/../secret.json", wh);
    FT_EQ_INT(reg(b, esc, &tr), FLOE_EINVALID);
    FT_EQ_INT(reg(b, "/etc/passwd", &tr), FLOE_EINVALID);
    FT_EQ_INT(reg(b, "s3://b/m.json", &tr), FLOE_EINVALID);
    floe__rest_table_result_free(&tr);
    floe__rest_backend_free(b);
}

static const ft_case cases[] = {
    {"apply", test_apply},
    {"register", test_register},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
