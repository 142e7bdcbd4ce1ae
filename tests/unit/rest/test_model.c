/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of rest/model: parsing, validation, serialisation round trips. */
#include "harness.h"
#include "rest/model.h"

#include <stdio.h>
#include <stdlib.h>

#define S(x) x, strlen(x)

static char *dump(json_t *j)
{
    return floe__rest_dump(j, NULL);
}

static const char commit_body[] =
    "{\"identifier\":{\"namespace\":[\"db\"],\"name\":\"t\"},"
    "\"requirements\":["
    "{\"type\":\"assert-create\"},"
    "{\"type\":\"assert-table-uuid\",\"uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\"},"
    "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":9223372036854775807},"
    "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"audit\",\"snapshot-id\":null},"
    "{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":3},"
    "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":1},"
    "{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":1000},"
    "{\"type\":\"assert-default-spec-id\",\"default-spec-id\":0},"
    "{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":0}],"
    "\"updates\":["
    "{\"action\":\"assign-uuid\",\"uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\"},"
    "{\"action\":\"upgrade-format-version\",\"format-version\":2},"
    "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":1,\"fields\":"
    "[{\"id\":1,\"name\":\"id\",\"type\":\"long\",\"required\":true}]},\"last-column-id\":1},"
    "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
    "{\"action\":\"add-spec\",\"spec\":{\"spec-id\":0,\"fields\":[{\"source-id\":1,"
    "\"field-id\":1000,\"name\":\"id_b\",\"transform\":\"bucket[4]\"}]}},"
    "{\"action\":\"set-default-spec\",\"spec-id\":-1},"
    "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":1,\"fields\":[{\"source-id\":1,"
    "\"transform\":\"identity\",\"direction\":\"asc\",\"null-order\":\"nulls-first\"}]}},"
    "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
    "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":3051729675574597004,"
    "\"parent-snapshot-id\":-9223372036854775808,\"sequence-number\":1,"
    "\"timestamp-ms\":1555100955770,\"manifest-list\":\"s3://b/m.avro\","
    "\"summary\":{\"operation\":\"append\",\"added-files\":\"1\"}}},"
    "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
    "\"snapshot-id\":3051729675574597004,\"max-ref-age-ms\":100,\"min-snapshots-to-keep\":2},"
    "{\"action\":\"remove-snapshots\",\"snapshot-ids\":[1,9223372036854775806]},"
    "{\"action\":\"remove-snapshot-ref\",\"ref-name\":\"old\"},"
    "{\"action\":\"set-location\",\"location\":\"s3://b/t\"},"
    "{\"action\":\"set-properties\",\"updates\":{\"b\":\"2\",\"a\":\"1\"}},"
    "{\"action\":\"remove-properties\",\"removals\":[\"x\",\"y\"]},"
    "{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":3051729675574597004,"
    "\"statistics-path\":\"s3://b/s.puffin\",\"file-size-in-bytes\":10,"
    "\"file-footer-size-in-bytes\":5,\"blob-metadata\":[]}},"
    "{\"action\":\"remove-statistics\",\"snapshot-id\":3051729675574597004}]}";

static void test_commit_parse(void)
{
    floe_rest_commit_table_req *r = NULL;
    FT_OK(floe__rest_parse_commit_table(&r, S(commit_body)));
    FT_CHECK(r->has_identifier);
    FT_EQ_STR(r->identifier.name, "t");
    FT_EQ_STR(r->identifier.ns.parts[0], "db");
    /* parsed straight into spec/commit.h's typed change */
    const floe_requirement *q = r->requirements.items;
    const floe_table_update *u = r->updates.items;
    FT_EQ_INT(r->requirements.len, 9);
    FT_EQ_INT(r->updates.len, 17);
    FT_EQ_INT(q[0].type, FLOE_REQ_ASSERT_CREATE);
    FT_EQ_STR(q[1].uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
    FT_CHECK(q[2].has_snapshot_id && q[2].snapshot_id == INT64_MAX);
    FT_CHECK(!q[3].has_snapshot_id);
    FT_EQ_STR(q[3].ref, "audit");
    FT_EQ_INT(q[6].type, FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID);
    FT_EQ_INT(q[6].id, 1000);
    FT_EQ_INT(u[3].id, -1);
    FT_CHECK(u[2].has_last_column_id);
    FT_EQ_INT(u[8].type, FLOE_UPD_ADD_SNAPSHOT);
    FT_CHECK(u[8].snapshot.snapshot_id == 3051729675574597004LL);
    FT_CHECK(u[8].snapshot.parent_snapshot_id == INT64_MIN);
    FT_EQ_STR(u[9].ref.name, "main");
    FT_CHECK(u[9].ref.has_max_ref_age_ms && !u[9].ref.has_max_snapshot_age_ms);
    FT_EQ_INT(u[9].ref.min_snapshots_to_keep, 2);
    FT_EQ_INT(u[10].nids, 2);
    FT_CHECK(u[10].ids[1] == 9223372036854775806LL);
    FT_EQ_INT(u[13].nkv, 2);
    FT_EQ_STR(u[13].kv[0].key, "b"); /* request order kept */
    FT_EQ_INT(u[14].nkeys, 2);
    FT_CHECK(u[15].stats.snapshot_id == 3051729675574597004LL);
    FT_CHECK(u[16].id == 3051729675574597004LL);
    floe__rest_commit_table_free(r);
}

static char *commit_text(const floe_rest_commit_table_req *r)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe__rest_commit_table_write(&b, r) < 0 || floe__buf_putc(&b, '\0') < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return (char *)floe__buf_detach(&b);
}

/* parse -> serialise -> parse -> serialise is a fixed point, and the JSON is
 * equal to the input (jansson compares objects regardless of key order). */
static void test_commit_round_trip(void)
{
    floe_rest_commit_table_req *r = NULL, *r2 = NULL;
    FT_OK(floe__rest_parse_commit_table(&r, S(commit_body)));
    char *s1 = commit_text(r);
    FT_ASSERT(s1);
    FT_OK(floe__rest_parse_commit_table(&r2, S(s1)));
    char *s2 = commit_text(r2);
    FT_EQ_STR(s1, s2);
    json_t *a = json_loads(commit_body, 0, NULL), *b = json_loads(s1, 0, NULL);
    FT_CHECK(json_equal(a, b));
    if (!json_equal(a, b))
        fprintf(stderr, "in:  %s\nout: %s\n", commit_body, s1);
    /* exact 64-bit digits in the text */
    FT_CHECK(strstr(s1, "9223372036854775807") != NULL);
    FT_CHECK(strstr(s1, "-9223372036854775808") != NULL);
    json_decref(a);
    json_decref(b);
    floe__free(s1);
    floe__free(s2);
    floe__rest_commit_table_free(r);
    floe__rest_commit_table_free(r2);
}

typedef struct bad_case {
    const char *body;
    const char *needle;
} bad_case;

static void test_commit_rejections(void)
{
    static const bad_case cases[] = {
        {"{\"updates\":[]}", "missing required field 'requirements'"},
        {"{\"requirements\":[]}", "missing required field 'updates'"},
        {"{\"requirements\":{},\"updates\":[]}", "'requirements': expected an array"},
        {"{\"requirements\":[{\"type\":\"assert-nothing\"}],\"updates\":[]}",
         "unknown requirement type assert-nothing"},
        {"{\"requirements\":[{}],\"updates\":[]}", "a requirement needs a string \"type\""},
        {"{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\"}],"
         "\"updates\":[]}",
         "missing required field 'snapshot-id'"},
        {"{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\","
         "\"snapshot-id\":\"1\"}],\"updates\":[]}",
         "assert-ref-snapshot-id: snapshot-id must be a long or null"},
        {"{\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":1.5}],"
         "\"updates\":[]}",
         "assert-current-schema-id needs an integer current-schema-id"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"drop-everything\"}]}",
         "unsupported table update 'drop-everything'"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
         "{\"snapshot-id\":1,\"timestamp-ms\":1,\"manifest-list\":\"m\"}}]}",
         "updates[0].snapshot: missing required field 'summary'"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
         "{\"snapshot-id\":1,\"timestamp-ms\":1,\"manifest-list\":\"m\","
         "\"summary\":{\"operation\":\"explode\"}}}]}",
         "unknown operation \"explode\""},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"x\","
         "\"type\":\"twig\",\"snapshot-id\":1}]}",
         "field 'type' in update 'set-snapshot-ref' must be 'branch' or 'tag'"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"a\":1}}]}",
         "property 'a' in update 'set-properties' must be a string"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"remove-snapshots\","
         "\"snapshot-ids\":[1,\"2\"]}]}",
         "snapshot-ids in update 'remove-snapshots' must be integers"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"add-schema\",\"schema\":{\"type\":"
         "\"struct\",\"fields\":[{\"id\":1,\"name\":\"a\",\"type\":\"int\"}]}}]}",
         "missing required field 'required' in schema field 'a'"},
        {"{\"requirements\":[],\"updates\":[{\"action\":\"add-sort-order\",\"sort-order\":"
         "{\"order-id\":1,\"fields\":[{\"source-id\":1,\"transform\":\"identity\","
         "\"direction\":\"up\",\"null-order\":\"nulls-first\"}]}}]}",
         "direction must be asc or desc"},
        {"{\"identifier\":{\"namespace\":[\"..\"],\"name\":\"t\"},\"requirements\":[],"
         "\"updates\":[]}",
         "'.' and '..' are not valid names"},
        {"{\"requirements\":[],\"updates\":[],\"requirements\":[]}", "duplicate"},
        {"[1]", "expected a table commit object"},
        {"{\"requirements\":[],\"updates\":[]} x", "malformed JSON"},
        {"{\"requirements\":[{\"type\":\"assert-default-spec-id\","
         "\"default-spec-id\":99999999999999999999}],\"updates\":[]}",
         "malformed JSON"},
    };
    for (size_t i = 0; i < FT_N(cases); i++) {
        floe_rest_commit_table_req *r = NULL;
        int rc = floe__rest_parse_commit_table(&r, S(cases[i].body));
        if (rc != FLOE_EINVALID) {
            ft_fail(__FILE__, __LINE__, "case %zu accepted (rc %d): %s", i, rc, cases[i].body);
            floe__rest_commit_table_free(r);
            continue;
        }
        FT_CHECK(r == NULL);
        if (!strstr(ft_floe_err(), cases[i].needle))
            ft_fail(__FILE__, __LINE__, "case %zu: \"%s\" lacks \"%s\"", i, ft_floe_err(),
                    cases[i].needle);
    }
}

static void test_namespace_requests(void)
{
    floe_rest_create_namespace_req *c = NULL;
    FT_OK(floe__rest_parse_create_namespace(
        &c, S("{\"namespace\":[\"a\",\"b\"],\"properties\":{\"owner\":\"x\"}}")));
    FT_EQ_INT(c->ns.n, 2);
    FT_EQ_STR(c->ns.parts[1], "b");
    FT_EQ_STR(floe__props_get(&c->properties, "owner"), "x");
    char *s = dump(floe__rest_create_namespace_to_json(c));
    FT_EQ_STR(s, "{\"namespace\":[\"a\",\"b\"],\"properties\":{\"owner\":\"x\"}}");
    floe__free(s);
    floe__rest_create_namespace_free(c);

    static const bad_case bad[] = {
        {"{}", "missing required field 'namespace'"},
        {"{\"namespace\":\"a\"}", "expected a namespace"},
        {"{\"namespace\":[]}", "empty namespace"},
        {"{\"namespace\":[\"a/b\"]}", "'/' not allowed"},
        {"{\"namespace\":[\"a\\\\b\"]}", "'\\' not allowed"},
        {"{\"namespace\":[\"a\\u0001\"]}", "control character"},
        {"{\"namespace\":[\"a\\u001fb\"]}", "control character"},
        {"{\"namespace\":[\"%2e%2e\"]}", "'%' not allowed"},
        {"{\"namespace\":[\"a\"],\"properties\":{\"k\":true}}", "must be a string"},
        {"{\"namespace\":[\"a\"],\"properties\":[]}", "expected an object"},
    };
    for (size_t i = 0; i < FT_N(bad); i++) {
        c = NULL;
        int rc = floe__rest_parse_create_namespace(&c, S(bad[i].body));
        FT_EQ_INT(rc, FLOE_EINVALID);
        if (rc == FLOE_EINVALID && !strstr(ft_floe_err(), bad[i].needle))
            ft_fail(__FILE__, __LINE__, "case %zu: \"%s\" lacks \"%s\"", i, ft_floe_err(),
                    bad[i].needle);
        floe__rest_create_namespace_free(c);
    }

    floe_rest_update_namespace_props_req *u = NULL;
    FT_OK(floe__rest_parse_update_namespace_props(
        &u, S("{\"removals\":[\"a\",\"b\"],\"updates\":{\"c\":\"d\"}}")));
    FT_EQ_INT(u->n_removals, 2);
    FT_EQ_STR(u->removals[1], "b");
    FT_EQ_STR(floe__props_get(&u->updates, "c"), "d");
    s = dump(floe__rest_update_namespace_props_to_json(u));
    FT_EQ_STR(s, "{\"removals\":[\"a\",\"b\"],\"updates\":{\"c\":\"d\"}}");
    floe__free(s);
    floe__rest_update_namespace_props_free(u);
    u = NULL;
    FT_EQ_INT(floe__rest_parse_update_namespace_props(&u, S("{\"removals\":[1]}")),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("removals[0]");
}

static void test_table_requests(void)
{
    static const char body[] =
        "{\"name\":\"t\",\"location\":\"s3://b/t\",\"schema\":{\"type\":\"struct\",\"fields\":"
        "[{\"id\":1,\"name\":\"id\",\"type\":\"long\",\"required\":true}]},"
        "\"partition-spec\":{\"fields\":[]},\"write-order\":{\"order-id\":0,\"fields\":[]},"
        "\"stage-create\":true,\"properties\":{\"p\":\"v\"}}";
    floe_rest_create_table_req *c = NULL;
    FT_OK(floe__rest_parse_create_table(&c, S(body)));
    FT_EQ_STR(c->name, "t");
    FT_EQ_STR(c->location, "s3://b/t");
    FT_CHECK(c->stage_create);
    FT_CHECK(c->partition_spec && c->write_order);
    char *s = dump(floe__rest_create_table_to_json(c));
    json_t *a = json_loads(body, 0, NULL), *b = json_loads(s, 0, NULL);
    FT_CHECK(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    floe__free(s);
    floe__rest_create_table_free(c);

    c = NULL;
    FT_EQ_INT(floe__rest_parse_create_table(&c, S("{\"name\":\"t\"}")), FLOE_EINVALID);
    FT_ERR_CONTAINS("missing required field 'schema'");
    FT_EQ_INT(floe__rest_parse_create_table(
                  &c, S("{\"name\":\"..\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}")),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("name");
    FT_EQ_INT(floe__rest_parse_create_table(
                  &c, S("{\"name\":\"t\",\"schema\":{\"type\":\"list\",\"fields\":[]}}")),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("schema: field 'type'");
    FT_EQ_INT(floe__rest_parse_create_table(&c, S("{\"name\":\"t\",\"stage-create\":\"yes\","
                                                  "\"schema\":{\"type\":\"struct\",\"fields\":[]}}")),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("stage-create");

    floe_rest_register_table_req *reg = NULL;
    FT_OK(floe__rest_parse_register_table(
        &reg, S("{\"name\":\"t\",\"metadata-location\":\"s3://b/m.json\",\"overwrite\":true}")));
    FT_CHECK(reg->overwrite);
    s = dump(floe__rest_register_table_to_json(reg));
    FT_EQ_STR(s, "{\"name\":\"t\",\"metadata-location\":\"s3://b/m.json\",\"overwrite\":true}");
    floe__free(s);
    floe__rest_register_table_free(reg);
    reg = NULL;
    FT_EQ_INT(floe__rest_parse_register_table(&reg, S("{\"name\":\"t\"}")), FLOE_EINVALID);
    FT_ERR_CONTAINS("metadata-location");

    floe_rest_rename_table_req *rn = NULL;
    static const char rbody[] = "{\"source\":{\"namespace\":[\"a\"],\"name\":\"x\"},"
                                "\"destination\":{\"namespace\":[\"b\",\"c\"],\"name\":\"y\"}}";
    FT_OK(floe__rest_parse_rename_table(&rn, S(rbody)));
    FT_EQ_STR(rn->destination.ns.parts[1], "c");
    s = dump(floe__rest_rename_table_to_json(rn));
    FT_EQ_STR(s, rbody);
    floe__free(s);
    floe__rest_rename_table_free(rn);
    rn = NULL;
    FT_EQ_INT(floe__rest_parse_rename_table(
                  &rn, S("{\"source\":{\"namespace\":[\"a\"],\"name\":\"x\"}}")),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("destination");
    FT_EQ_INT(floe__rest_parse_rename_table(
                  &rn, S("{\"source\":{\"namespace\":[\"a\"]},\"destination\":{\"namespace\":"
                         "[\"a\"],\"name\":\"y\"}}")),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("source: missing required field 'name'");
}

static void test_transaction(void)
{
    static const char body[] =
        "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"a\"],\"name\":\"x\"},"
        "\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]},"
        "{\"identifier\":{\"namespace\":[\"a\"],\"name\":\"y\"},\"requirements\":[{\"type\":"
        "\"assert-create\"}],\"updates\":[]}]}";
    floe_rest_commit_transaction_req *t = NULL;
    FT_OK(floe__rest_parse_commit_transaction(&t, S(body)));
    FT_EQ_INT(t->n_changes, 2);
    FT_EQ_STR(t->changes[1].identifier.name, "y");
    floe_buf tb = FLOE_BUF_INIT;
    FT_OK(floe__rest_commit_transaction_write(&tb, t));
    FT_OK(floe__buf_putc(&tb, '\0'));
    char *s = (char *)floe__buf_detach(&tb);
    json_t *a = json_loads(body, 0, NULL), *b = json_loads(s, 0, NULL);
    FT_CHECK(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    floe__free(s);
    floe__rest_commit_transaction_free(t);
    t = NULL;
    FT_EQ_INT(floe__rest_parse_commit_transaction(
                  &t, S("{\"table-changes\":[{\"requirements\":[],\"updates\":[]}]}")),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("table-changes[0]: missing required field 'identifier'");
}

static void test_responses(void)
{
    /* error model */
    char *s = dump(floe__rest_error_to_json(404, "NoSuchTableException", "Table does not exist: a.t"));
    FT_EQ_STR(s, "{\"error\":{\"message\":\"Table does not exist: a.t\",\"type\":"
                 "\"NoSuchTableException\",\"code\":404}}");
    floe_rest_error e;
    FT_OK(floe__rest_parse_error(&e, S(s)));
    FT_EQ_INT(e.code, 404);
    FT_EQ_STR(e.type, "NoSuchTableException");
    floe__rest_error_free(&e);
    floe__free(s);
    FT_EQ_INT(floe__rest_parse_error(&e, S("{\"error\":{\"message\":\"m\",\"type\":\"t\",\"code\":200}}")),
              FLOE_EINVALID);

    /* config */
    floe_rest_config c;
    FT_OK(floe__rest_parse_config(
        &c, S("{\"defaults\":{\"clients\":\"4\"},\"overrides\":{\"prefix\":\"p\"},"
              "\"endpoints\":[\"GET /v1/{prefix}/namespaces\"]}")));
    FT_EQ_STR(floe__props_get(&c.overrides, "prefix"), "p");
    FT_EQ_INT(c.endpoints.n, 1);
    s = dump(floe__rest_config_to_json(&c));
    FT_EQ_STR(s, "{\"defaults\":{\"clients\":\"4\"},\"overrides\":{\"prefix\":\"p\"},"
                 "\"endpoints\":[\"GET /v1/{prefix}/namespaces\"]}");
    floe__free(s);
    floe__rest_config_free(&c);
    FT_EQ_INT(floe__rest_parse_config(&c, S("{\"defaults\":{}}")), FLOE_EINVALID);

    /* lists with pagination tokens */
    floe_rest_namespace_list nl;
    char *next = NULL;
    FT_OK(floe__rest_parse_list_namespaces(
        &nl, &next, S("{\"namespaces\":[[\"a\"],[\"a\",\"b\"]],\"next-page-token\":\"tok\"}")));
    FT_EQ_INT(nl.n, 2);
    FT_EQ_STR(next, "tok");
    s = dump(floe__rest_list_namespaces_to_json(nl.items, nl.n, NULL, false));
    FT_EQ_STR(s, "{\"namespaces\":[[\"a\"],[\"a\",\"b\"]],\"next-page-token\":null}");
    floe__free(s);
    floe__free(next);
    floe__rest_namespace_list_free(&nl);

    floe_rest_ident_list il;
    FT_OK(floe__rest_parse_list_tables(
        &il, &next, S("{\"identifiers\":[{\"namespace\":[\"a\"],\"name\":\"t\"}]}")));
    FT_EQ_INT(il.n, 1);
    FT_CHECK(next == NULL);
    s = dump(floe__rest_list_tables_to_json(il.items, il.n, "n", false));
    FT_EQ_STR(s, "{\"identifiers\":[{\"namespace\":[\"a\"],\"name\":\"t\"}],\"next-page-token\":\"n\"}");
    floe__free(s);
    floe__rest_ident_list_free(&il);
    FT_EQ_INT(floe__rest_parse_list_tables(
                  &il, &next, S("{\"identifiers\":[{\"namespace\":[\"a\"],\"name\":\"../x\"}]}")),
              FLOE_EINVALID);

    /* load table / commit response keep 64-bit ids exact */
    static const char lt[] = "{\"metadata-location\":\"s3://b/m.json\",\"metadata\":"
                             "{\"format-version\":2,\"table-uuid\":\"u\","
                             "\"current-snapshot-id\":9007199254740993},\"config\":{\"k\":\"v\"}}";
    floe_rest_table_result tr;
    FT_OK(floe__rest_parse_table_result(&tr, S(lt), false));
    FT_EQ_STR(tr.metadata_location, "s3://b/m.json");
    FT_EQ_STR(floe__props_get(&tr.config, "k"), "v");
    s = dump(floe__rest_table_result_to_json(&tr, false));
    FT_CHECK(strstr(s, "9007199254740993") != NULL);
    json_t *a = json_loads(lt, 0, NULL), *b = json_loads(s, 0, NULL);
    FT_CHECK(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    floe__free(s);
    s = dump(floe__rest_table_result_to_json(&tr, true));
    FT_CHECK(strstr(s, "config") == NULL);
    floe__free(s);
    /* pre-serialised metadata text is spliced verbatim */
    tr.metadata_text = floe__strdup("{\"format-version\":2,\"table-uuid\":\"t\",\"x\":18446744073709551615}");
    tr.metadata_text_len = strlen(tr.metadata_text);
    s = floe__rest_table_result_dump(&tr, false, NULL);
    FT_EQ_STR(s, "{\"metadata-location\":\"s3://b/m.json\",\"metadata\":{\"format-version\":2,"
                 "\"table-uuid\":\"t\",\"x\":18446744073709551615},\"config\":{\"k\":\"v\"}}");
    floe__free(s);
    s = floe__rest_table_result_dump(&tr, true, NULL);
    FT_CHECK(s && strstr(s, "config") == NULL && s[strlen(s) - 1] == '}');
    floe__free(s);
    floe__rest_table_result_free(&tr);
    FT_EQ_INT(floe__rest_parse_table_result(&tr, S("{\"metadata\":{\"format-version\":2,"
                                                   "\"table-uuid\":\"u\"}}"),
                                            true),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("metadata-location");

    floe_rest_update_namespace_props_result ur;
    FT_OK(floe__rest_parse_update_namespace_props_result(
        &ur, S("{\"updated\":[\"a\"],\"removed\":[],\"missing\":[\"z\"]}")));
    FT_EQ_INT(ur.updated.n, 1);
    FT_EQ_INT(ur.missing.n, 1);
    s = dump(floe__rest_update_namespace_props_result_to_json(&ur));
    FT_EQ_STR(s, "{\"updated\":[\"a\"],\"removed\":[],\"missing\":[\"z\"]}");
    floe__free(s);
    floe__rest_update_namespace_props_result_free(&ur);

    floe_rest_namespace_list one;
    floe_rest_namespace_result nr;
    FT_OK(floe__rest_parse_namespace_response(
        &one, &nr, S("{\"namespace\":[\"a\"],\"properties\":{\"o\":\"p\"}}")));
    FT_EQ_STR(one.items[0].parts[0], "a");
    FT_EQ_STR(floe__props_get(&nr.properties, "o"), "p");
    floe__rest_namespace_list_free(&one);
    floe__rest_namespace_result_free(&nr);
}

static void test_names_and_paths(void)
{
    floe_arena *a = floe__arena_new(256);
    char *d;
    size_t n;
    FT_OK(floe__rest_percent_decode(a, "a%1Fb%20c+d", false, &d, &n));
    FT_EQ_STR(d, "a\x1f" "b c+d");
    FT_OK(floe__rest_percent_decode(a, "x+y", true, &d, &n));
    FT_EQ_STR(d, "x y");
    FT_EQ_INT(floe__rest_percent_decode(a, "a%2", false, &d, &n), FLOE_EINVALID);
    FT_EQ_INT(floe__rest_percent_decode(a, "a%zz", false, &d, &n), FLOE_EINVALID);
    FT_OK(floe__rest_percent_decode(a, "a%00b", false, &d, &n));
    FT_EQ_INT(n, 3);
    FT_EQ_INT(floe__rest_check_name(d, n, "t"), FLOE_EINVALID);

    floe_rest_namespace ns;
    FT_OK(floe__rest_namespace_split(a, "acc\x1ftax", 7, 0, &ns));
    FT_EQ_INT(ns.n, 2);
    FT_EQ_STR(ns.parts[1], "tax");
    FT_EQ_INT(floe__rest_namespace_split(a, "a\x1f\x1f" "b", 4, 0, &ns), FLOE_EINVALID);
    FT_EQ_INT(floe__rest_namespace_split(a, "a\x1f..", 4, 0, &ns), FLOE_EINVALID);
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__rest_namespace_split(a, "a b\x1f\xc3\xa9", 6, 0, &ns));
    FT_OK(floe__rest_namespace_encode(&b, &ns));
    FT_EQ_STR(b.ptr, "a%20b%1F%C3%A9");
    floe__buf_free(&b);

    static const char *const good[] = {"t", "sales_2024", ".hidden", "a.b", "\xc3\xa9t\xc3\xa9"};
    for (size_t i = 0; i < FT_N(good); i++)
        FT_CHECK(floe__rest_check_name(good[i], strlen(good[i]), "n") == 0);
    static const char *const bad[] = {"", ".", "..", "a/b", "a\\b", "a%b", "\x7f", "\xc0\xae",
                                      "\xe0\x80\xae", "\xed\xa0\x80", "\xff"};
    for (size_t i = 0; i < FT_N(bad); i++)
        if (floe__rest_check_name(bad[i], strlen(bad[i]), "n") != FLOE_EINVALID)
            ft_fail(__FILE__, __LINE__, "bad name %zu accepted", i);
    char big[FLOE_REST_MAX_NAME + 2];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    FT_EQ_INT(floe__rest_check_name(big, strlen(big), "n"), FLOE_EINVALID);
    floe__arena_free(a);
}

/* Every allocation failure while parsing a commit returns FLOE_ENOMEM (or
 * the jansson-side failure as FLOE_EINVALID) and leaks nothing (ASan). */
/* Each error kind's IcebergErrorResponse, as open-api/rest-catalog-open-api.yaml
 * and Iceberg's RESTCatalogAdapter answer the exception; the client reads the
 * type back into the same kind. */
static void test_error_status(void)
{
    static const struct {
        floe_error_kind kind;
        int status;
        const char *type;
    } cases[] = {
        {FLOE_KIND_NO_SUCH_TABLE, 404, "NoSuchTableException"},
        {FLOE_KIND_NO_SUCH_NAMESPACE, 404, "NoSuchNamespaceException"},
        {FLOE_KIND_NO_SUCH_VIEW, 404, "NoSuchViewException"},
        {FLOE_KIND_ALREADY_EXISTS, 409, "AlreadyExistsException"},
        {FLOE_KIND_NAMESPACE_NOT_EMPTY, 409, "NamespaceNotEmptyException"},
        {FLOE_KIND_COMMIT_FAILED, 409, "CommitFailedException"},
        {FLOE_KIND_DUPLICATE_WAP_COMMIT, 409, "DuplicateWAPCommitException"},
        {FLOE_KIND_VALIDATION, 400, "ValidationException"},
        {FLOE_KIND_ILLEGAL_ARGUMENT, 400, "IllegalArgumentException"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *type = NULL;
        FT_EQ_INT(floe__rest_error_status(cases[i].kind, &type), cases[i].status);
        FT_EQ_STR(type, cases[i].type);
        FT_EQ_INT(floe__error_kind_named(type), cases[i].kind);
    }
    /* no answer of REST's own: the code and the route decide */
    const floe_error_kind none[] = {FLOE_KIND_NONE, FLOE_KIND_NO_SUCH_PROCEDURE,
                                    FLOE_KIND_CATALOG_NOT_FOUND};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        const char *type = "x";
        FT_EQ_INT(floe__rest_error_status(none[i], &type), 0);
        FT_CHECK(type == NULL);
    }
    /* floe__rest_raised: the last error, its code and its kind */
    floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE, "t", "Table does not exist: a.t");
    FT_CHECK(floe__rest_raised(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE));
    FT_CHECK(!floe__rest_raised(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE));
    FT_CHECK(!floe__rest_raised(FLOE_EINVALID, FLOE_KIND_NO_SUCH_TABLE));
    floe__error(FLOE_ENOTFOUND, "t", "Table does not exist: a.t"); /* no kind */
    FT_CHECK(!floe__rest_raised(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE));
    floe_error_clear();
    FT_CHECK(!floe__rest_raised(FLOE_ENOTFOUND, FLOE_KIND_NONE));
}

static void test_parse_oom(void)
{
    for (long n = 1; n < 400; n++) {
        floe_rest_commit_table_req *r = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__rest_parse_commit_table(&r, S(commit_body));
        long used = floe__alloc_count();
        floe__alloc_fail_at(0);
        if (rc == 0) {
            floe__rest_commit_table_free(r);
            if (used < n)
                return;
            continue;
        }
        FT_CHECK(rc == FLOE_ENOMEM);
        FT_CHECK(r == NULL);
    }
    ft_fail(__FILE__, __LINE__, "parse never succeeded under the allocation limit");
}

static const ft_case cases[] = {
    {"commit_parse", test_commit_parse},
    {"commit_round_trip", test_commit_round_trip},
    {"commit_rejections", test_commit_rejections},
    {"namespace_requests", test_namespace_requests},
    {"table_requests", test_table_requests},
    {"transaction", test_transaction},
    {"responses", test_responses},
    {"names_and_paths", test_names_and_paths},
    {"error_status", test_error_status},
    {"parse_oom", test_parse_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
