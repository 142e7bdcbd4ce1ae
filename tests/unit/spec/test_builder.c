/* SPDX-License-Identifier: Apache-2.0 */
/* spec/builder: commit-path metadata updates (REST TableCommit update kinds)
 * with snapshot-log and metadata-log bookkeeping. */
#include "harness.h"
#include "spec/commit.h"
#include "spec/spec.h"

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

/* Packed summary and manifest list shared by the test snapshots (made in
 * main, outside the out-of-memory loops). */
static floe_snapshot snap_template;

static floe_snapshot snap(int64_t id, int64_t parent, int64_t seq, int64_t ts)
{
    floe_snapshot s = snap_template;
    s.snapshot_id = id;
    s.has_parent = parent != 0;
    s.parent_snapshot_id = parent;
    s.sequence_number = seq;
    s.timestamp_ms = ts;
    return s;
}

static int parse_into(floe_json **j, const char *text)
{
    return floe__json_parse(j, text, strlen(text), "test");
}

/* All update kinds on one builder; returns 0 or the first error. */
static int apply_all(floe_metadata_builder *b, floe_arena *a)
{
    floe_snapshot s = snap(2, BASE_SNAP, 2, 1700000000000);
    FLOE_TRY(floe__mb_add_snapshot(b, &s));
    floe_snapshot_ref main_ref = {.name = "main", .snapshot_id = 2, .type = FLOE_REF_BRANCH};
    FLOE_TRY(floe__mb_set_snapshot_ref(b, &main_ref));
    floe_snapshot_ref tag = {.name = "v1", .snapshot_id = BASE_SNAP, .type = FLOE_REF_TAG,
                             .has_max_ref_age_ms = true, .max_ref_age_ms = 1000};
    FLOE_TRY(floe__mb_set_snapshot_ref(b, &tag));
    floe_kv props[] = {{"k1", "v1"}, {"owner", "someone"}};
    FLOE_TRY(floe__mb_set_properties(b, props, 2));
    const char *gone[] = {"k1"};
    FLOE_TRY(floe__mb_remove_properties(b, gone, 1));
    floe_json *j;
    FLOE_TRY(parse_into(&j, "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,"
                            "\"type\":\"long\"},{\"id\":4,\"name\":\"y\",\"required\":false,\"type\":\"string\"}]}"));
    floe_schema *sc;
    int rc = floe__schema_from_json(&sc, j, 0, a);
    floe__json_free(j);
    FLOE_TRY(rc);
    rc = floe__mb_add_schema(b, sc, NULL);
    floe__schema_release(sc);
    FLOE_TRY(rc);
    FLOE_TRY(floe__mb_set_current_schema(b, -1));
    FLOE_TRY(parse_into(&j, "{\"spec-id\":0,\"fields\":[{\"name\":\"y_trunc\",\"transform\":\"truncate[4]\","
                            "\"source-id\":4,\"field-id\":1001}]}"));
    floe_partition_spec *sp;
    rc = floe__partition_spec_from_json(&sp, j, 0, true, a);
    floe__json_free(j);
    FLOE_TRY(rc);
    FLOE_TRY(floe__mb_add_spec(b, sp, NULL));
    FLOE_TRY(floe__mb_set_default_spec(b, -1));
    FLOE_TRY(parse_into(&j, "{\"order-id\":0,\"fields\":[{\"transform\":\"identity\",\"source-id\":1,"
                            "\"direction\":\"asc\",\"null-order\":\"nulls-first\"}]}"));
    floe_sort_order *so;
    rc = floe__sort_order_from_json(&so, j, a);
    floe__json_free(j);
    FLOE_TRY(rc);
    FLOE_TRY(floe__mb_add_sort_order(b, so, NULL));
    FLOE_TRY(floe__mb_set_default_sort_order(b, -1));
    FLOE_TRY(floe__mb_set_location(b, "s3://b/t2"));
    int32_t fields[] = {1};
    floe_blob_metadata blob = {"apache-datasketches-theta-v1", 2, 2, 1, fields, 0, NULL};
    floe_statistics_file st = {2, "s3://b/t/stats.puffin", 100, 20, NULL, 1, &blob};
    return floe__mb_set_statistics(b, &st);
}

static void test_all_updates(void)
{
    floe_table_metadata *m = base(), *out = NULL, *re = NULL;
    FT_ASSERT(m != NULL);
    floe_arena *a = floe__arena_new(0);
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, "s3://b/t/metadata/00000.metadata.json"));
    FT_OK(apply_all(b, a));
    FT_OK(floe__metadata_builder_build(b, 1800000000000, &out));
    floe__metadata_builder_free(b);
    FT_EQ_INT(out->current_snapshot_id, 2);
    FT_EQ_INT(out->last_sequence_number, 2);
    FT_EQ_INT(out->last_updated_ms, 1700000000000);
    FT_EQ_INT(out->n_snapshot_log, 1);
    FT_EQ_INT(out->snapshot_log[0].snapshot_id, 2);
    FT_EQ_INT(out->snapshot_log[0].timestamp_ms, 1700000000000);
    FT_EQ_INT(out->n_metadata_log, 1);
    FT_EQ_STR(out->metadata_log[0].metadata_file, "s3://b/t/metadata/00000.metadata.json");
    FT_EQ_INT(out->metadata_log[0].timestamp_ms, m->last_updated_ms);
    FT_EQ_INT(floe__metadata_ref(out, "v1")->type, FLOE_REF_TAG);
    FT_CHECK(floe__props_get(&out->properties, "k1") == NULL);
    FT_EQ_STR(floe__props_get(&out->properties, "owner"), "someone");
    FT_EQ_INT(out->current_schema_id, 1);
    FT_EQ_INT(out->last_column_id, 4);
    FT_EQ_INT(out->default_spec_id, 1);
    FT_EQ_INT(out->last_partition_id, 1001);
    FT_EQ_INT(out->default_sort_order_id, 1);
    FT_EQ_STR(out->location, "s3://b/t2");
    FT_EQ_INT(out->nstatistics, 1);
    /* the result writes and reads back */
    floe_buf t = FLOE_BUF_INIT;
    FT_OK(floe__metadata_write(out, &t));
    FT_OK(floe__metadata_parse(&re, t.ptr, t.len, "built"));
    FT_EQ_INT(re->current_snapshot_id, 2);
    FT_EQ_INT(re->nsnapshots, 2);
    FT_EQ_STR(floe__metadata_snapshot(re, 2)->operation, "append");
    floe__buf_free(&t);
    /* the base is untouched */
    FT_EQ_INT(m->current_snapshot_id, BASE_SNAP);
    FT_EQ_INT(m->nsnapshots, 1);

    /* expire the base snapshot: the tag on it and its log history go */
    FT_OK(floe__metadata_builder_new(&b, out, "s3://b/t/metadata/00001.metadata.json"));
    int64_t ids[] = {BASE_SNAP};
    FT_OK(floe__mb_remove_snapshots(b, ids, 1));
    floe_table_metadata *out2;
    FT_OK(floe__metadata_builder_build(b, 1800000000001, &out2));
    floe__metadata_builder_free(b);
    FT_EQ_INT(out2->nsnapshots, 1);
    FT_CHECK(floe__metadata_ref(out2, "v1") == NULL);
    FT_EQ_INT(out2->current_snapshot_id, 2);
    FT_EQ_INT(out2->last_updated_ms, 1800000000001);
    FT_EQ_INT(out2->n_metadata_log, 2);
    floe__metadata_free(out2);
    floe__metadata_free(out);
    floe__metadata_free(re);
    floe__metadata_free(m);
    floe__arena_free(a);
}

static void test_rejections(void)
{
    floe_table_metadata *m = base();
    FT_ASSERT(m != NULL);
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, NULL));
    floe_snapshot s = snap(BASE_SNAP, 0, 5, 1);
    FT_EQ_INT(floe__mb_add_snapshot(b, &s), FLOE_EINVALID);
    FT_ERR_CONTAINS("already exists");
    s = snap(9, BASE_SNAP, 1, 1);
    FT_EQ_INT(floe__mb_add_snapshot(b, &s), FLOE_EINVALID);
    FT_ERR_CONTAINS("older than last sequence number 1");
    floe_snapshot_ref r = {.name = "dev", .snapshot_id = 77, .type = FLOE_REF_BRANCH};
    FT_EQ_INT(floe__mb_set_snapshot_ref(b, &r), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot set dev to unknown snapshot: 77");
    floe_snapshot_ref t = {.name = "t", .snapshot_id = BASE_SNAP, .type = FLOE_REF_TAG,
                           .has_min_snapshots_to_keep = true, .min_snapshots_to_keep = 1};
    FT_EQ_INT(floe__mb_set_snapshot_ref(b, &t), FLOE_EINVALID);
    FT_EQ_INT(floe__mb_set_current_schema(b, -1), FLOE_EINVALID);
    FT_ERR_CONTAINS("no schema has been added");
    FT_EQ_INT(floe__mb_set_current_schema(b, 42), FLOE_EINVALID);
    FT_EQ_INT(floe__mb_set_default_spec(b, 42), FLOE_EINVALID);
    FT_EQ_INT(floe__mb_set_default_sort_order(b, 42), FLOE_EINVALID);
    FT_OK(floe__mb_remove_snapshot_ref(b, "nope"));
    FT_OK(floe__mb_remove_snapshot_ref(b, "main"));
    FT_CHECK(!floe__metadata_builder_peek(b)->has_current_snapshot);
    floe__metadata_builder_free(b);
    floe__metadata_free(m);
}

static void test_metadata_log_limit(void)
{
    floe_table_metadata *m = base();
    FT_ASSERT(m != NULL);
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, NULL));
    floe_kv p = {"write.metadata.previous-versions-max", "2"};
    FT_OK(floe__mb_set_properties(b, &p, 1));
    floe_table_metadata *cur;
    FT_OK(floe__metadata_builder_build(b, 1, &cur));
    floe__metadata_builder_free(b);
    for (int v = 1; v <= 4; v++) {
        char loc[64];
        snprintf(loc, sizeof loc, "s3://b/t/metadata/%05d.metadata.json", v);
        FT_OK(floe__metadata_builder_new(&b, cur, loc));
        floe_table_metadata *next;
        FT_OK(floe__metadata_builder_build(b, 1 + v, &next));
        floe__metadata_builder_free(b);
        floe__metadata_free(cur);
        cur = next;
    }
    FT_EQ_INT(cur->n_metadata_log, 2);
    FT_EQ_STR(cur->metadata_log[0].metadata_file, "s3://b/t/metadata/00003.metadata.json");
    FT_EQ_STR(cur->metadata_log[1].metadata_file, "s3://b/t/metadata/00004.metadata.json");
    floe__metadata_free(cur);
    floe__metadata_free(m);
}

static void test_oom(void)
{
    floe_table_metadata *m = base();
    FT_ASSERT(m != NULL);
    long n;
    for (n = 1; n < 100000; n++) {
        floe_arena *a = floe__arena_new(0);
        floe_metadata_builder *b = NULL;
        floe_table_metadata *out = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__metadata_builder_new(&b, m, "s3://b/t/metadata/0.json");
        if (rc == 0)
            rc = a ? apply_all(b, a) : FLOE_ENOMEM;
        if (rc == 0)
            rc = floe__metadata_builder_build(b, 5, &out);
        floe__alloc_fail_at(0);
        floe__metadata_builder_free(b);
        floe__metadata_free(out);
        floe__arena_free(a);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: %d %s", n, rc, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 20);
    floe__metadata_free(m);
}

static const char rest_updates[] =
    "[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":2,\"parent-snapshot-id\":3051729675574597004,"
    "\"sequence-number\":2,\"timestamp-ms\":1700000000000,\"summary\":{\"operation\":\"append\"},"
    "\"manifest-list\":\"s3://b/t/metadata/snap-2.avro\",\"schema-id\":0}},"
    "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":2},"
    "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"audit\",\"type\":\"branch\",\"snapshot-id\":2,"
    "\"min-snapshots-to-keep\":3,\"max-snapshot-age-ms\":5000},"
    "{\"action\":\"set-properties\",\"updates\":{\"a\":\"1\",\"b\":\"2\"}},"
    "{\"action\":\"remove-properties\",\"removals\":[\"a\",\"zz\"]},"
    "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":5,\"fields\":["
    "{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":6,\"name\":\"z\",\"required\":false,\"type\":\"date\"}]},\"last-column-id\":6},"
    "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
    "{\"action\":\"add-spec\",\"spec\":{\"fields\":[{\"name\":\"z_month\",\"transform\":\"month\","
    "\"source-id\":6,\"field-id\":1002}]}},"
    "{\"action\":\"set-default-spec\",\"spec-id\":-1},"
    "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":1,\"fields\":[{\"transform\":\"identity\","
    "\"source-id\":6,\"direction\":\"desc\",\"null-order\":\"nulls-last\"}]}},"
    "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
    "{\"action\":\"set-location\",\"location\":\"s3://b/moved\"},"
    "{\"action\":\"set-statistics\",\"snapshot-id\":2,\"statistics\":{\"snapshot-id\":2,"
    "\"statistics-path\":\"s3://b/s.puffin\",\"file-size-in-bytes\":10,\"file-footer-size-in-bytes\":4,"
    "\"blob-metadata\":[]}},"
    "{\"action\":\"remove-snapshot-ref\",\"ref-name\":\"audit\"},"
    "{\"action\":\"remove-snapshots\",\"snapshot-ids\":[3051729675574597004]}]";

static void test_apply_json(void)
{
    floe_table_metadata *m = base(), *out = NULL;
    FT_ASSERT(m != NULL);
    floe_json *u;
    FT_OK(floe__json_parse(&u, rest_updates, sizeof rest_updates - 1, "updates"));
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, "s3://b/t/metadata/00000.metadata.json"));
    for (size_t i = 0; i < floe__json_len(u); i++) {
        int rc = floe__commit_apply_json(b, floe__json_at(u, i));
        if (rc < 0)
            ft_fail(__FILE__, __LINE__, "update %zu: %s", i, ft_floe_err());
    }
    FT_OK(floe__metadata_builder_build(b, 1800000000000, &out));
    floe__metadata_builder_free(b);
    floe__json_free(u);
    FT_EQ_INT(out->current_snapshot_id, 2);
    FT_EQ_INT(out->nsnapshots, 1);
    FT_CHECK(floe__metadata_ref(out, "audit") == NULL);
    FT_EQ_STR(floe__props_get(&out->properties, "b"), "2");
    FT_CHECK(floe__props_get(&out->properties, "a") == NULL);
    FT_EQ_INT(out->current_schema_id, 1);
    FT_EQ_INT(out->last_column_id, 6);
    FT_EQ_INT(out->default_spec_id, 1);
    FT_EQ_INT(out->last_partition_id, 1002);
    FT_EQ_INT(out->default_sort_order_id, 1);
    FT_EQ_STR(out->location, "s3://b/moved");
    FT_EQ_INT(out->nstatistics, 1);
    FT_EQ_INT(out->n_snapshot_log, 1);

    /* remove-schemas / remove-partition-specs (expire_snapshots'
     * clean_expired_metadata): the old ones go, never the current ones */
    FT_OK(floe__metadata_builder_new(&b, out, NULL));
    size_t nschemas = out->nschemas, nspecs = out->nspecs;
    FT_CHECK(nschemas >= 2 && nspecs >= 2);
    const char *keep[] = {"{\"action\":\"remove-schemas\",\"schema-ids\":[1]}",
                          "{\"action\":\"remove-partition-specs\",\"spec-ids\":[1]}"};
    const char *msgs[] = {"Cannot remove the current schema",
                          "Cannot remove the default partition spec"};
    for (size_t i = 0; i < FT_N(keep); i++) {
        FT_OK(floe__json_parse(&u, keep[i], strlen(keep[i]), "u"));
        FT_CHECK(floe__commit_apply_json(b, u) < 0);
        FT_ERR_CONTAINS(msgs[i]);
        floe__json_free(u);
    }
    const char *drop = "[{\"action\":\"remove-schemas\",\"schema-ids\":[0, 77]},"
                       "{\"action\":\"remove-partition-specs\",\"spec-ids\":[0]}]";
    FT_OK(floe__json_parse(&u, drop, strlen(drop), "u"));
    for (size_t i = 0; i < floe__json_len(u); i++)
        FT_OK(floe__commit_apply_json(b, floe__json_at(u, i)));
    floe__json_free(u);
    floe_table_metadata *cleaned = NULL;
    FT_OK(floe__metadata_builder_build(b, 1800000000001, &cleaned));
    floe__metadata_builder_free(b);
    if (cleaned) {
        FT_EQ_INT(cleaned->nschemas, nschemas - 1);
        FT_EQ_INT(cleaned->nspecs, nspecs - 1);
        FT_CHECK(floe__metadata_spec(cleaned, 0) == NULL);
        FT_CHECK(floe__metadata_spec(cleaned, 1) != NULL);
        for (size_t i = 0; i < cleaned->nschemas; i++)
            FT_CHECK(cleaned->schemas[i]->schema_id != 0);
    }
    floe__metadata_free(cleaned);
    floe__metadata_free(out);

    FT_OK(floe__metadata_builder_new(&b, m, NULL));
    const char *bad[][2] = {
        {"{\"action\":\"upgrade-format-version\",\"format-version\":1}", "Cannot downgrade v2 table to v1"},
        {"{\"action\":\"upgrade-format-version\",\"format-version\":4}",
         "Cannot upgrade table to unsupported format version: v4 (supported: v3)"},
        {"{\"action\":\"upgrade-format-version\"}", "missing required field 'format-version'"},
        {"{\"action\":\"assign-uuid\"}", "missing required field 'uuid'"},
        {"{\"action\":\"assign-uuid\",\"uuid\":\"\"}", "Cannot set uuid to null"},
        {"{\"action\":\"remove-statistics\"}", "missing required field 'snapshot-id'"},
        {"{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":1}}",
         "missing required field 'statistics-path'"},
        {"{\"updates\":{}}", "missing required field 'action'"},
        {"{\"action\":\"set-properties\",\"updates\":{\"a\":1}}", "must be a string"},
        {"{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":9}}", "missing required field"},
        {"{\"action\":\"set-current-schema\"}", "missing required field 'schema-id'"},
    };
    for (size_t i = 0; i < FT_N(bad); i++) {
        FT_OK(floe__json_parse(&u, bad[i][0], strlen(bad[i][0]), "u"));
        FT_CHECK(floe__commit_apply_json(b, u) < 0);
        FT_ERR_CONTAINS(bad[i][1]);
        floe__json_free(u);
    }
    floe__metadata_builder_free(b);
    floe__metadata_free(m);
}

/* Apply a JSON array of REST updates; 0 or the first error. */
static int apply_text(floe_metadata_builder *b, const char *text)
{
    floe_json *u;
    FLOE_TRY(floe__json_parse(&u, text, strlen(text), "updates"));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < floe__json_len(u); i++)
        rc = floe__commit_apply_json(b, floe__json_at(u, i));
    floe__json_free(u);
    return rc;
}

/* Write, parse back, write again: the same bytes (and returns the copy). */
static void roundtrip_into(const floe_table_metadata *m, floe_buf *text, floe_table_metadata **re)
{
    floe_buf again = FLOE_BUF_INIT;
    *re = NULL;
    floe__buf_clear(text);
    FT_OK(floe__metadata_write(m, text));
    if (floe__metadata_parse(re, text->ptr, text->len, "rewritten") < 0) {
        ft_fail(__FILE__, __LINE__, "reparse: %s", ft_floe_err());
        return;
    }
    FT_OK(floe__metadata_write(*re, &again));
    FT_EQ_STR(again.ptr, text->ptr);
    floe__buf_free(&again);
}

static floe_table_metadata *roundtrip(const floe_table_metadata *m, floe_buf *text)
{
    floe_table_metadata *re;
    roundtrip_into(m, text, &re);
    return re;
}

static void test_statistics_updates(void)
{
    floe_table_metadata *m = base(), *out = NULL;
    FT_ASSERT(m != NULL);
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, NULL));
    FT_OK(apply_text(b,
        "[{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":3051729675574597004,"
        "\"statistics-path\":\"s3://b/p1.parquet\",\"file-size-in-bytes\":11}},"
        "{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":3051729675574597004,"
        "\"statistics-path\":\"s3://b/p2.parquet\",\"file-size-in-bytes\":22}},"
        "{\"action\":\"set-partition-statistics\",\"partition-statistics\":{\"snapshot-id\":7,"
        "\"statistics-path\":\"s3://b/p7.parquet\",\"file-size-in-bytes\":77}},"
        "{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":3051729675574597004,"
        "\"statistics-path\":\"s3://b/s.puffin\",\"file-size-in-bytes\":10,\"file-footer-size-in-bytes\":4,"
        "\"blob-metadata\":[]}},"
        "{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":8,"
        "\"statistics-path\":\"s3://b/s8.puffin\",\"file-size-in-bytes\":10,\"file-footer-size-in-bytes\":4}}]"));
    const floe_table_metadata *peek = floe__metadata_builder_peek(b);
    FT_EQ_INT(peek->npartition_statistics, 2);
    FT_EQ_STR(peek->partition_statistics[0].statistics_path, "s3://b/p2.parquet"); /* replaced */
    FT_EQ_INT(peek->partition_statistics[0].file_size_in_bytes, 22);
    FT_EQ_INT(peek->nstatistics, 2);
    FT_OK(apply_text(b,
        "[{\"action\":\"remove-partition-statistics\",\"snapshot-id\":7},"
        "{\"action\":\"remove-partition-statistics\",\"snapshot-id\":12345},"
        "{\"action\":\"remove-statistics\",\"snapshot-id\":8},"
        "{\"action\":\"remove-statistics\",\"snapshot-id\":12345}]"));
    FT_OK(floe__metadata_builder_build(b, 1800000000000, &out));
    floe__metadata_builder_free(b);
    FT_EQ_INT(out->npartition_statistics, 1);
    FT_EQ_INT(out->partition_statistics[0].snapshot_id, BASE_SNAP);
    FT_EQ_INT(out->nstatistics, 1);
    FT_EQ_STR(out->statistics[0].statistics_path, "s3://b/s.puffin");
    floe_buf text = FLOE_BUF_INIT;
    floe_table_metadata *re = roundtrip(out, &text);
    FT_CHECK(strstr(text.ptr, "\"partition-statistics\":[{\"snapshot-id\":3051729675574597004,"
                              "\"statistics-path\":\"s3://b/p2.parquet\",\"file-size-in-bytes\":22}]") != NULL);
    FT_CHECK(re && re->npartition_statistics == 1);
    floe__metadata_free(re);
    floe__buf_free(&text);
    floe__metadata_free(out);
    floe__metadata_free(m);
}

static void test_upgrade_v2_v3(void)
{
    floe_table_metadata *m = base(), *out = NULL;
    FT_ASSERT(m != NULL);
    FT_EQ_INT(m->format_version, 2);
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, NULL));
    FT_EQ_INT(floe__mb_upgrade_format_version(b, 1), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot downgrade v2 table to v1");
    FT_OK(floe__mb_upgrade_format_version(b, 2)); /* same version: nothing */
    FT_EQ_INT(floe__metadata_builder_peek(b)->format_version, 2);
    FT_OK(apply_text(b, "[{\"action\":\"upgrade-format-version\",\"format-version\":3},"
                        "{\"action\":\"assign-uuid\",\"uuid\":\"0a6a4d2b-8c0e-4b5e-9f39-3f6c1b6f2a10\"}]"));
    FT_EQ_INT(floe__mb_upgrade_format_version(b, 2), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot downgrade v3 table to v2");
    FT_OK(floe__metadata_builder_build(b, 1800000000000, &out));
    floe__metadata_builder_free(b);
    FT_EQ_INT(out->format_version, 3);
    FT_CHECK(out->has_next_row_id);
    FT_EQ_INT(out->next_row_id, 0); /* spec Appendix E: starts at 0 */
    FT_EQ_STR(out->table_uuid, "0a6a4d2b-8c0e-4b5e-9f39-3f6c1b6f2a10");
    FT_EQ_INT(out->nsnapshots, m->nsnapshots); /* old snapshots keep no first-row-id */
    FT_CHECK(!out->snapshots[0].has_first_row_id);
    floe_buf text = FLOE_BUF_INIT;
    floe_table_metadata *re = roundtrip(out, &text);
    FT_CHECK(strstr(text.ptr, "\"format-version\":3") != NULL);
    FT_CHECK(strstr(text.ptr, "\"next-row-id\":0") != NULL);
    FT_CHECK(re && re->format_version == 3 && re->next_row_id == 0);
    floe__metadata_free(re);
    floe__buf_free(&text);
    floe__metadata_free(out);
    floe__metadata_free(m);
}

/* A v1 table (no uuid, a snapshot listing `manifests` and without summary)
 * upgraded to v2: the v1 snapshot stays valid (sequence number 0). */
static void test_upgrade_v1(void)
{
    const char *v1 =
        "{\"format-version\":1,\"location\":\"s3://b/old\",\"last-updated-ms\":1000,"
        "\"last-column-id\":1,\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"x\","
        "\"required\":true,\"type\":\"long\"}]},\"partition-spec\":[],\"properties\":{},"
        "\"current-snapshot-id\":5,\"snapshots\":[{\"snapshot-id\":5,\"timestamp-ms\":900,"
        "\"manifests\":[\"s3://b/old/metadata/m0.avro\"]}]}";
    floe_table_metadata *m = NULL, *out = NULL;
    FT_OK(floe__metadata_parse(&m, v1, strlen(v1), "v1"));
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, "s3://b/old/metadata/v1.json"));
    FT_OK(floe__mb_upgrade_format_version(b, 2));
    FT_EQ_INT(floe__metadata_builder_build(b, 2000, &out), FLOE_EINVALID);
    FT_ERR_CONTAINS("UUID is required in format v2");
    FT_CHECK(out == NULL);
    FT_OK(floe__mb_assign_uuid(b, "5b9a3d36-26d2-4a4c-8f8e-8d8a0b6f3c11"));
    FT_OK(floe__metadata_builder_build(b, 2000, &out));
    floe__metadata_builder_free(b);
    FT_EQ_INT(out->format_version, 2);
    FT_EQ_INT(out->n_metadata_log, 1); /* the failed build changed nothing */
    floe_buf text = FLOE_BUF_INIT;
    floe_table_metadata *re = roundtrip(out, &text);
    FT_ASSERT(re != NULL);
    FT_EQ_INT(re->format_version, 2);
    FT_EQ_INT(re->last_sequence_number, 0);
    FT_EQ_INT(re->snapshots[0].sequence_number, 0);
    FT_EQ_INT(re->snapshots[0].n_manifests, 1);
    FT_EQ_STR(re->snapshots[0].manifests[0], "s3://b/old/metadata/m0.avro");
    FT_CHECK(strstr(text.ptr, "\"partition-spec\"") == NULL); /* v1-only legacy fields gone */
    FT_CHECK(strstr(text.ptr, "\"last-sequence-number\":0") != NULL);
    /* v2 snapshots committed after the upgrade must be complete again */
    const char *bad_v2 = "{\"format-version\":2,\"table-uuid\":\"5b9a3d36-26d2-4a4c-8f8e-8d8a0b6f3c11\","
        "\"location\":\"s3://b\",\"last-sequence-number\":1,\"last-updated-ms\":1,\"last-column-id\":1,"
        "\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],\"last-partition-id\":999,"
        "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],"
        "\"snapshots\":[{\"snapshot-id\":6,\"sequence-number\":1,\"timestamp-ms\":1,\"manifests\":[]}]}";
    floe_table_metadata *bad = NULL;
    FT_EQ_INT(floe__metadata_parse(&bad, bad_v2, strlen(bad_v2), "v2"), FLOE_EINVALID);
    FT_ERR_CONTAINS("missing required field 'manifest-list'");
    floe__metadata_free(re);
    floe__buf_free(&text);
    floe__metadata_free(out);
    floe__metadata_free(m);
}

static void test_new_table(void)
{
    floe_arena *a = floe__arena_new(0);
    const char *sj = "{\"type\":\"struct\",\"schema-id\":3,\"fields\":[{\"id\":1,\"name\":\"id\","
                     "\"required\":true,\"type\":\"long\"},{\"id\":2,\"name\":\"ts\",\"required\":false,"
                     "\"type\":\"timestamptz\"}]}";
    const char *pj = "{\"spec-id\":4,\"fields\":[{\"name\":\"ts_day\",\"transform\":\"day\","
                     "\"source-id\":2,\"field-id\":1000}]}";
    floe_json *j;
    floe_schema *s;
    floe_partition_spec *p;
    FT_OK(floe__json_parse(&j, sj, strlen(sj), "s"));
    FT_OK(floe__schema_from_json(&s, j, 0, a));
    floe__json_free(j);
    FT_OK(floe__json_parse(&j, pj, strlen(pj), "p"));
    FT_OK(floe__partition_spec_from_json(&p, j, 0, true, a));
    floe__json_free(j);
    floe_props props = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&props, "write.format.default", "parquet"));
    floe_table_metadata *m;
    FT_OK(floe__metadata_new(&m, s, p, NULL, "s3://b/new \"t\"", &props, 2, 1234));
    FT_EQ_INT(m->format_version, 2);
    FT_CHECK(m->table_uuid && strlen(m->table_uuid) == 36);
    FT_EQ_STR(m->location, "s3://b/new \"t\"");
    FT_EQ_INT(m->last_column_id, 2);
    FT_EQ_INT(m->last_partition_id, 1000);
    FT_EQ_INT(m->current_schema_id, 0);
    FT_EQ_INT(m->specs[0]->fields[0].transform.kind, FLOE_TR_DAY);
    FT_CHECK(!m->has_current_snapshot && m->nsnapshots == 0 && m->nrefs == 0);
    FT_EQ_STR(floe__props_get(&m->properties, "write.format.default"), "parquet");
    FT_EQ_INT(m->last_updated_ms, 1234);
    /* first commit on the new table */
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, "s3://b/new/metadata/00000.metadata.json"));
    floe_snapshot sn = snap(11, 0, 1, 2000);
    FT_OK(floe__mb_add_snapshot(b, &sn));
    floe_snapshot_ref r = {.name = "main", .snapshot_id = 11, .type = FLOE_REF_BRANCH};
    FT_OK(floe__mb_set_snapshot_ref(b, &r));
    floe_table_metadata *m2;
    FT_OK(floe__metadata_builder_build(b, 3000, &m2));
    floe__metadata_builder_free(b);
    FT_EQ_INT(m2->current_snapshot_id, 11);
    FT_EQ_INT(m2->last_sequence_number, 1);
    floe__metadata_free(m2);
    floe__metadata_free(m);
    floe_table_metadata *m3 = NULL;
    FT_EQ_INT(floe__metadata_new(&m3, s, NULL, NULL, "", NULL, 2, 1), FLOE_EINVALID);
    FT_EQ_INT(floe__metadata_new(&m3, s, NULL, NULL, "x", NULL, 1, 1), FLOE_EUNSUPPORTED);
    FT_OK(floe__metadata_new(&m3, s, NULL, NULL, "x", NULL, 3, 1));
    FT_CHECK(m3->has_next_row_id && m3->next_row_id == 0);
    floe__metadata_free(m3);
    floe__props_free(&props);
    floe__schema_release(s);
    floe__arena_free(a);
}

static const ft_case cases[] = {
    {"statistics_updates", test_statistics_updates},
    {"upgrade_v2_v3", test_upgrade_v2_v3},
    {"upgrade_v1", test_upgrade_v1},
    {"new_table", test_new_table},
    {"apply_json", test_apply_json},
    {"all_updates", test_all_updates},
    {"rejections", test_rejections},
    {"metadata_log_limit", test_metadata_log_limit},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    static const floe_kv summary[] = {{"operation", "append"}, {"added-records", "10"}};
    floe_arena *a = floe__arena_new(4096);
    if (!a || floe__snapshot_pack_manifest_list(&snap_template, a, "s3://b/t/metadata/snap-x.avro") < 0 ||
        floe__snapshot_pack_summary(&snap_template, a, summary, 2) < 0)
        return 1;
    int rc = ft_main(argc, argv, cases, FT_N(cases));
    floe__arena_free(a);
    return rc;
}
