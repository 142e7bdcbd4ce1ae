/* SPDX-License-Identifier: Apache-2.0 */
/* spec/commit: the REST commit model — parser/serializer round trip of every
 * requirement and update kind (OpenAPI field names), the requirement
 * checker's Java messages, the applier, parse errors and allocation
 * failure. */
#include "harness.h"
#include "spec/commit.h"

#include <stdio.h>

#define BASE_SNAP 3051729675574597004LL

static floe_table_metadata *base(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/valid/metadata/minimal-v2.metadata.json",
             ft_source_dir());
    floe_table_metadata *m = NULL;
    if (floe__metadata_read_file(&m, path) < 0)
        ft_fail(__FILE__, __LINE__, "base: %s", ft_floe_err());
    return m;
}

/* Every requirement and every update kind, in the serializer's own field
 * order, so the round trip must give the text back byte for byte. */
static const char *ALL =
    "{\"requirements\":["
    "{\"type\":\"assert-create\"},"
    "{\"type\":\"assert-table-uuid\",\"uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\"},"
    "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":3051729675574597004},"
    "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"new\",\"snapshot-id\":null},"
    "{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":3},"
    "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0},"
    "{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":1000},"
    "{\"type\":\"assert-default-spec-id\",\"default-spec-id\":0},"
    "{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":0}"
    "],\"updates\":["
    "{\"action\":\"assign-uuid\",\"uuid\":\"2cc52516-5e73-41f2-b139-545d41a4e151\"},"
    "{\"action\":\"upgrade-format-version\",\"format-version\":3},"
    "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":1,\"fields\":[{\"id\":1,"
    "\"name\":\"x\",\"required\":true,\"type\":\"long\"},{\"id\":4,\"name\":\"y\",\"required\":false,"
    "\"type\":\"string\"}]},\"last-column-id\":4},"
    "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
    "{\"action\":\"add-spec\",\"spec\":{\"spec-id\":1,\"fields\":[{\"name\":\"x_bucket\","
    "\"transform\":\"bucket[16]\",\"source-id\":1,\"field-id\":1001}]}},"
    "{\"action\":\"set-default-spec\",\"spec-id\":-1},"
    "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":1,\"fields\":[{\"transform\":"
    "\"identity\",\"source-id\":1,\"direction\":\"asc\",\"null-order\":\"nulls-first\"}]}},"
    "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
    "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":7,\"parent-snapshot-id\":"
    "3051729675574597004,\"sequence-number\":2,\"timestamp-ms\":1700000000000,\"summary\":{"
    "\"operation\":\"append\",\"added-records\":\"5\"},\"manifest-list\":\"s3://b/t/metadata/"
    "snap-7.avro\",\"schema-id\":1,\"first-row-id\":0,\"added-rows\":5}},"
    "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"snapshot-id\":7,\"type\":\"branch\","
    "\"min-snapshots-to-keep\":2,\"max-snapshot-age-ms\":100,\"max-ref-age-ms\":200},"
    "{\"action\":\"remove-snapshots\",\"snapshot-ids\":[1,2]},"
    "{\"action\":\"remove-snapshot-ref\",\"ref-name\":\"old\"},"
    "{\"action\":\"set-location\",\"location\":\"s3://b/t2\"},"
    "{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\\\"q\",\"owner\":\"me\"}},"
    "{\"action\":\"remove-properties\",\"removals\":[\"gone\",\"k\"]},"
    "{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":7,\"statistics-path\":"
    "\"s3://b/t/stats.puffin\",\"file-size-in-bytes\":100,\"file-footer-size-in-bytes\":20,"
    "\"blob-metadata\":[{\"type\":\"apache-datasketches-theta-v1\",\"snapshot-id\":7,"
    "\"sequence-number\":2,\"fields\":[1],\"properties\":{\"ndv\":\"3\"}}]}},"
    "{\"action\":\"remove-statistics\",\"snapshot-id\":7},"
    "{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":7,"
    "\"statistics-path\":\"s3://b/t/p.parquet\",\"file-size-in-bytes\":9}},"
    "{\"action\":\"remove-partition-statistics\",\"snapshot-id\":7},"
    "{\"action\":\"remove-partition-specs\",\"spec-ids\":[0]},"
    "{\"action\":\"remove-schemas\",\"schema-ids\":[0,2]},"
    "{\"action\":\"add-encryption-key\",\"encryption-key\":{\"key-id\":\"k1\","
    "\"encrypted-key-metadata\":\"AAEC\",\"encrypted-by-id\":\"kek\",\"properties\":{\"a\":\"b\"}}},"
    "{\"action\":\"remove-encryption-key\",\"key-id\":\"k1\"}"
    "]}";

typedef struct parsed {
    floe_arena *a;
    floe_vec reqs, ups;
} parsed;

static int parse_text(parsed *p, const char *text, int fv)
{
    memset(p, 0, sizeof *p);
    p->reqs.item_size = sizeof(floe_requirement);
    p->ups.item_size = sizeof(floe_table_update);
    if (!(p->a = floe__arena_new(1024)))
        return floe__error_nomem();
    floe_json *j = NULL;
    int rc = floe__json_parse(&j, text, strlen(text), "test");
    if (rc == 0)
        rc = floe__commit_parse(j, fv, p->a, &p->reqs, &p->ups);
    floe__json_free(j);
    return rc;
}

static void parsed_free(parsed *p)
{
    if (p->ups.items)
        floe__commit_release(p->ups.items, p->ups.len);
    floe__vec_free(&p->reqs);
    floe__vec_free(&p->ups);
    floe__arena_free(p->a);
}

static int write_text(const parsed *p, int fv, floe_buf *out)
{
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(floe__jw_obj(&w));
    FLOE_TRY(floe__commit_write(&w, p->reqs.items, p->reqs.len, p->ups.items, p->ups.len, fv));
    FLOE_TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
}

static void test_round_trip(void)
{
    parsed p;
    FT_OK(parse_text(&p, ALL, 2));
    FT_EQ_INT(p.reqs.len, 9);
    FT_EQ_INT(p.ups.len, 23); /* every update kind of the REST spec */
    const floe_table_update *u = p.ups.items;
    for (size_t i = 0; i < p.ups.len; i++)
        FT_EQ_INT(u[i].type, (int)i == 0 ? FLOE_UPD_ASSIGN_UUID : u[i].type);
    /* each kind once */
    bool seen[32] = {0};
    for (size_t i = 0; i < p.ups.len; i++) {
        FT_CHECK(!seen[u[i].type]);
        seen[u[i].type] = true;
    }
    const floe_requirement *r = p.reqs.items;
    FT_EQ_INT(r[3].type, FLOE_REQ_ASSERT_REF_SNAPSHOT_ID);
    FT_CHECK(!r[3].has_snapshot_id);
    FT_EQ_INT(r[2].snapshot_id, BASE_SNAP);
    floe_buf out = FLOE_BUF_INIT;
    FT_OK(write_text(&p, 2, &out));
    FT_EQ_STR(out.ptr, ALL);
    parsed_free(&p);
    floe__buf_free(&out);
}

static void test_snapshot_versions(void)
{
    /* v1: a snapshot without sequence-number is fine and written without */
    const char *v1 = "{\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":7,"
                     "\"timestamp-ms\":1,\"summary\":{\"operation\":\"append\"},"
                     "\"manifest-list\":\"m.avro\"}}]}";
    parsed p;
    FT_OK(parse_text(&p, v1, 1));
    floe_buf out = FLOE_BUF_INIT;
    FT_OK(write_text(&p, 1, &out));
    FT_EQ_STR(out.ptr, "{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
                       "{\"snapshot-id\":7,\"timestamp-ms\":1,\"summary\":{\"operation\":"
                       "\"append\"},\"manifest-list\":\"m.avro\"}}]}");
    parsed_free(&p);
    floe__buf_free(&out);
    /* v2 rules: sequence-number is required */
    FT_CHECK(parse_text(&p, v1, 2) < 0);
    FT_ERR_CONTAINS("sequence-number");
    parsed_free(&p);
    /* an upgrade in the same commit raises the version for what follows */
    const char *up = "{\"updates\":[{\"action\":\"upgrade-format-version\",\"format-version\":2},"
                     "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":7,"
                     "\"timestamp-ms\":1,\"summary\":{\"operation\":\"append\"},"
                     "\"manifest-list\":\"m.avro\"}}]}";
    FT_CHECK(parse_text(&p, up, 1) < 0);
    FT_ERR_CONTAINS("sequence-number");
    parsed_free(&p);
}

static void expect_parse_error(const char *text, int code, const char *msg)
{
    parsed p;
    int rc = parse_text(&p, text, 2);
    if (rc != code)
        ft_fail(__FILE__, __LINE__, "%s: %d %s", text, rc, ft_floe_err());
    else
        FT_ERR_CONTAINS(msg);
    parsed_free(&p);
}

static void test_parse_errors(void)
{
    expect_parse_error("[]", FLOE_EINVALID, "a CommitTableRequest is an object");
    expect_parse_error("{\"requirements\":[]}", FLOE_EINVALID, "\"updates\" array");
    expect_parse_error("{\"updates\":[{}]}", FLOE_EINVALID,
                       "missing required field 'action' in table update");
    expect_parse_error("{\"updates\":[{\"action\":\"explode\"}]}", FLOE_EUNSUPPORTED,
                       "unsupported table update 'explode'");
    expect_parse_error("{\"updates\":[{\"action\":\"remove-snapshots\"}]}", FLOE_EINVALID,
                       "missing required field 'snapshot-ids' in update 'remove-snapshots'");
    expect_parse_error("{\"updates\":[{\"action\":\"remove-snapshots\",\"snapshot-ids\":[\"a\"]}]}",
                       FLOE_EINVALID, "snapshot-ids in update 'remove-snapshots' must be integers");
    expect_parse_error("{\"updates\":[{\"action\":\"assign-uuid\",\"uuid\":5}]}", FLOE_EINVALID,
                       "wrong type of field 'uuid' in update 'assign-uuid'");
    expect_parse_error("{\"updates\":[{\"action\":\"set-location\"}]}", FLOE_EINVALID,
                       "missing required field 'location' in update 'set-location'");
    expect_parse_error("{\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"a\":1}}]}",
                       FLOE_EINVALID, "property 'a' in update 'set-properties' must be a string");
    expect_parse_error("{\"updates\":[{\"action\":\"upgrade-format-version\",\"format-version\":0}]}",
                       FLOE_EINVALID, "invalid format-version 0");
    expect_parse_error("{\"updates\":[{\"action\":\"set-snapshot-ref\",\"ref-name\":\"b\","
                       "\"snapshot-id\":1,\"type\":\"twig\"}]}",
                       FLOE_EINVALID, "must be 'branch' or 'tag'");
    expect_parse_error("{\"updates\":[{\"action\":\"add-encryption-key\",\"encryption-key\":{"
                       "\"key-id\":\"k\"}}]}",
                       FLOE_EINVALID, "missing required field 'encrypted-key-metadata'");
    expect_parse_error("{\"requirements\":[{\"type\":\"assert-nothing\"}],\"updates\":[]}",
                       FLOE_EUNSUPPORTED, "unknown requirement type assert-nothing");
    expect_parse_error("{\"requirements\":[{}],\"updates\":[]}", FLOE_EINVALID,
                       "a requirement needs a string \"type\"");
    expect_parse_error("{\"requirements\":[{\"type\":\"assert-table-uuid\"}],\"updates\":[]}",
                       FLOE_EINVALID, "requirement assert-table-uuid needs a string uuid");
    expect_parse_error("{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\","
                       "\"snapshot-id\":\"x\"}],\"updates\":[]}",
                       FLOE_EINVALID, "snapshot-id must be a long or null");
    expect_parse_error("{\"requirements\":[{\"type\":\"assert-default-spec-id\","
                       "\"default-spec-id\":4294967296}],\"updates\":[]}",
                       FLOE_EINVALID, "requirement assert-default-spec-id needs an integer "
                                      "default-spec-id");
}

/* Check one requirement (JSON) against `m`: 0 or the message. */
static void expect_check(const floe_table_metadata *m, const char *req, const char *msg)
{
    char body[512];
    snprintf(body, sizeof body, "{\"requirements\":[%s],\"updates\":[]}", req);
    parsed p;
    FT_OK(parse_text(&p, body, 2));
    int rc = floe__commit_check(m, p.reqs.items, p.reqs.len);
    if (!msg)
        FT_EQ_INT(rc, 0);
    else {
        FT_EQ_INT(rc, FLOE_ECONFLICT);
        FT_ERR_CONTAINS(msg);
    }
    parsed_free(&p);
}

static void test_check_messages(void)
{
    floe_table_metadata *m = base();
    FT_ASSERT(m);
    expect_check(m, "{\"type\":\"assert-create\"}", "Requirement failed: table already exists");
    expect_check(NULL, "{\"type\":\"assert-create\"}", NULL);
    /* without a base only assert-create is checked (Java validates against a base) */
    expect_check(NULL, "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":5}", NULL);
    expect_check(m, "{\"type\":\"assert-table-uuid\",\"uuid\":\"9C12D441-03FE-4693-9A96-A0705DDF69C1\"}",
                 NULL); /* case-insensitive like Java */
    expect_check(m, "{\"type\":\"assert-table-uuid\",\"uuid\":\"x\"}",
                 "Requirement failed: UUID does not match: expected "
                 "9c12d441-03fe-4693-9a96-a0705ddf69c1 != x");
    expect_check(m, "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":1}",
                 "Requirement failed: branch main has changed: expected id 1 != "
                 "3051729675574597004");
    expect_check(m, "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":null}",
                 "Requirement failed: branch main was created concurrently");
    expect_check(m, "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"dev\",\"snapshot-id\":9}",
                 "Requirement failed: branch or tag dev is missing, expected 9");
    expect_check(m, "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"dev\",\"snapshot-id\":null}",
                 NULL);
    expect_check(m,
                 "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":"
                 "3051729675574597004}",
                 NULL);
    expect_check(m, "{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":9}",
                 "Requirement failed: last assigned field id changed: expected id 9 != 3");
    expect_check(m, "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":1}",
                 "Requirement failed: current schema changed: expected id 1 != 0");
    expect_check(m,
                 "{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":1}",
                 "Requirement failed: last assigned partition id changed: expected id 1 != 1000");
    expect_check(m, "{\"type\":\"assert-default-spec-id\",\"default-spec-id\":2}",
                 "Requirement failed: default partition spec changed: expected id 2 != 0");
    expect_check(m, "{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":3}",
                 "Requirement failed: default sort order changed: expected id 3 != 0");
    for (int i = 4; i <= 8; i++) {
        /* the matching values pass */
        static const char *ok[] = {
            "{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":3}",
            "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0}",
            "{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":1000}",
            "{\"type\":\"assert-default-spec-id\",\"default-spec-id\":0}",
            "{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":0}",
        };
        expect_check(m, ok[i - 4], NULL);
    }
    floe__metadata_free(m);
}

static void test_apply(void)
{
    floe_table_metadata *m = base();
    FT_ASSERT(m);
    const char *body =
        "{\"updates\":["
        "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":1,"
        "\"name\":\"x\",\"required\":true,\"type\":\"long\"},{\"id\":4,\"name\":\"y\","
        "\"required\":false,\"type\":\"string\"}]}},"
        "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
        "{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}},"
        "{\"action\":\"remove-properties\",\"removals\":[\"owner\"]},"
        "{\"action\":\"set-location\",\"location\":\"s3://b/t2\"},"
        "{\"action\":\"assign-uuid\",\"uuid\":\"2cc52516-5e73-41f2-b139-545d41a4e151\"},"
        "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":7,\"parent-snapshot-id\":"
        "3051729675574597004,\"sequence-number\":2,\"timestamp-ms\":1700000000000,\"summary\":"
        "{\"operation\":\"append\"},\"manifest-list\":\"s3://b/t/metadata/snap-7.avro\"}},"
        "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"snapshot-id\":7,\"type\":\"branch\"}"
        "]}";
    parsed p;
    FT_OK(parse_text(&p, body, m->format_version));
    floe_metadata_builder *b = NULL;
    FT_OK(floe__metadata_builder_new(&b, m, "s3://b/t/metadata/v1.json"));
    FT_OK(floe__commit_apply(b, p.ups.items, p.ups.len));
    floe_table_metadata *out = NULL;
    FT_OK(floe__metadata_builder_build(b, 1700000000001, &out));
    FT_EQ_INT(out->current_schema_id, 1);
    FT_EQ_INT(out->last_column_id, 4);
    FT_EQ_STR(floe__props_get(&out->properties, "k"), "v");
    FT_CHECK(floe__props_get(&out->properties, "owner") == NULL);
    FT_EQ_STR(out->location, "s3://b/t2");
    FT_EQ_STR(out->table_uuid, "2cc52516-5e73-41f2-b139-545d41a4e151");
    FT_EQ_INT(floe__metadata_ref(out, "main")->snapshot_id, 7);
    FT_EQ_INT(out->last_sequence_number, 2);
    floe__metadata_free(out);
    floe__metadata_builder_free(b);
    parsed_free(&p);
    /* the kinds the builder does not carry are refused, not ignored */
    static const char *unsupported[] = {
        ("{\"updates\":[{\"action\":\"add-encryption-key\",\"encryption-key\":{\"key-id\":\"k\","
         "\"encrypted-key-metadata\":\"AA\"}}]}"),
        "{\"updates\":[{\"action\":\"remove-encryption-key\",\"key-id\":\"k\"}]}",
    };
    /* remove-schemas / remove-partition-specs are applied (builder tests),
     * never to the current schema or the default spec */
    static const char *current[][2] = {
        {"{\"updates\":[{\"action\":\"remove-schemas\",\"schema-ids\":[%d]}]}",
         "Cannot remove the current schema"},
        {"{\"updates\":[{\"action\":\"remove-partition-specs\",\"spec-ids\":[%d]}]}",
         "Cannot remove the default partition spec"},
    };
    for (size_t i = 0; i < FT_N(current); i++) {
        char text[160];
        snprintf(text, sizeof text, current[i][0],
                 i == 0 ? (int)m->current_schema_id : (int)m->default_spec_id);
        FT_OK(parse_text(&p, text, 2));
        FT_OK(floe__metadata_builder_new(&b, m, NULL));
        FT_EQ_INT(floe__commit_apply(b, p.ups.items, p.ups.len), FLOE_EINVALID);
        FT_ERR_CONTAINS(current[i][1]);
        floe__metadata_builder_free(b);
        parsed_free(&p);
    }
    for (size_t i = 0; i < FT_N(unsupported); i++) {
        FT_OK(parse_text(&p, unsupported[i], 2));
        FT_OK(floe__metadata_builder_new(&b, m, NULL));
        FT_EQ_INT(floe__commit_apply(b, p.ups.items, p.ups.len), FLOE_EUNSUPPORTED);
        FT_ERR_CONTAINS("unsupported table update");
        floe__metadata_builder_free(b);
        parsed_free(&p);
    }
    floe__metadata_free(m);
}

static void test_oom(void)
{
    long n;
    for (n = 1; n < 100000; n++) {
        parsed p;
        floe_buf out = FLOE_BUF_INIT;
        floe__alloc_fail_at(n);
        int rc = parse_text(&p, ALL, 2);
        if (rc == 0)
            rc = write_text(&p, 2, &out);
        floe__alloc_fail_at(0);
        if (rc == 0)
            FT_EQ_STR(out.ptr, ALL);
        parsed_free(&p);
        floe__buf_free(&out);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: %d %s", n, rc, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 20 && n < 100000);
}

static const ft_case cases[] = {
    {"round_trip", test_round_trip}, {"snapshot_versions", test_snapshot_versions},
    {"parse_errors", test_parse_errors}, {"check_messages", test_check_messages},
    {"apply", test_apply},           {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
