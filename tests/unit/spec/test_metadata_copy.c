/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata_copy: the metadata builder starts from a deep copy of its
 * parsed base instead of writing and re-parsing it. For every table
 * metadata file among the shared fixtures (and floe's own test tables) the
 * copy writes byte for byte what the old path (write, parse) writes, also
 * after the source is freed, and a builder fed the same updates builds
 * byte-identical metadata from either starting point. Out-of-memory is
 * clean at every allocation of the copy.
 */
#include "harness.h"
#include "spec/commit.h"
#include "spec/metadata.h"
#include "spec/spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The old starting point of a builder: the base written and parsed back. */
static floe_table_metadata *roundtrip(const floe_table_metadata *m)
{
    floe_buf text = FLOE_BUF_INIT;
    floe_table_metadata *out = NULL;
    if (floe__metadata_write(m, &text) < 0 ||
        floe__metadata_parse(&out, text.ptr, text.len, "roundtrip") < 0)
        ft_fail(__FILE__, __LINE__, "roundtrip: %s", ft_floe_err());
    floe__buf_free(&text);
    return out;
}

static char *written(const floe_table_metadata *m)
{
    floe_buf text = FLOE_BUF_INIT;
    if (floe__metadata_write(m, &text) < 0)
        ft_fail(__FILE__, __LINE__, "write: %s", ft_floe_err());
    return floe__buf_detach(&text);
}

/* Updates of every kind the builder carries, fitted to the base (parent,
 * sequence number, row ids); each applied as one REST TableUpdate. */
static void updates_for(const floe_table_metadata *m, char out[][1024], size_t *n)
{
    const floe_snapshot *cur = floe__metadata_current_snapshot(m);
    char parent[64] = "";
    if (cur)
        snprintf(parent, sizeof parent, "\"parent-snapshot-id\":%lld,",
                 (long long)cur->snapshot_id);
    char rows[96] = "";
    if (m->format_version >= 3)
        snprintf(rows, sizeof rows, ",\"first-row-id\":%lld,\"added-rows\":5",
                 (long long)(m->has_next_row_id ? m->next_row_id : 0));
    size_t k = 0;
    snprintf(out[k++], 1024,
             "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":77,%s"
             "\"sequence-number\":%lld,\"timestamp-ms\":4102444800000,"
             "\"summary\":{\"operation\":\"append\",\"added-records\":\"5\",\"x-custom\":\"\\\"q\\\"\"},"
             "\"manifest-list\":\"%s/metadata/other dir/snap-77-1-x.avro\",\"schema-id\":%d%s}}",
             parent, (long long)m->last_sequence_number + 1, m->location,
             (int)m->current_schema_id, rows);
    snprintf(out[k++], 1024,
             "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
             "\"snapshot-id\":77}");
    snprintf(out[k++], 1024,
             "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"audit\",\"type\":\"tag\","
             "\"snapshot-id\":77,\"max-ref-age-ms\":1000}");
    snprintf(out[k++], 1024,
             "{\"action\":\"set-properties\",\"updates\":{\"owner\":\"copy test\",\"k\":\"v\"}}");
    snprintf(out[k++], 1024, "{\"action\":\"remove-properties\",\"removals\":[\"k\"]}");
    snprintf(out[k++], 1024,
             "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,"
             "\"fields\":[{\"id\":%d,\"name\":\"added\",\"required\":false,\"type\":\"string\"}]}}",
             (int)m->last_column_id + 1);
    snprintf(out[k++], 1024, "{\"action\":\"set-current-schema\",\"schema-id\":-1}");
    snprintf(out[k++], 1024,
             "{\"action\":\"add-spec\",\"spec\":{\"spec-id\":0,\"fields\":[]}}");
    snprintf(out[k++], 1024,
             "{\"action\":\"set-statistics\",\"statistics\":{\"snapshot-id\":77,"
             "\"statistics-path\":\"%s/metadata/77.stats\",\"file-size-in-bytes\":10,"
             "\"file-footer-size-in-bytes\":4,\"blob-metadata\":[{\"type\":\"apache-datasketches-"
             "theta-v1\",\"snapshot-id\":77,\"sequence-number\":1,\"fields\":[1],"
             "\"properties\":{\"ndv\":\"3\"}}]}}",
             m->location);
    snprintf(out[k++], 1024,
             "{\"action\":\"set-partition-statistics\",\"partition-statistics\":{"
             "\"snapshot-id\":77,\"statistics-path\":\"%s/metadata/77.pstats\","
             "\"file-size-in-bytes\":7}}",
             m->location);
    if (m->nsnapshots > 1 && m->snapshots[0].snapshot_id != (cur ? cur->snapshot_id : 0))
        snprintf(out[k++], 1024, "{\"action\":\"remove-snapshots\",\"snapshot-ids\":[%lld]}",
                 (long long)m->snapshots[0].snapshot_id);
    *n = k;
}

/* Build with `updates` from `start`; the JSON of the result, or NULL and
 * the code of the first failing update in *rc. */
static char *build(const floe_table_metadata *start, char updates[][1024], size_t n, int *rc)
{
    floe_metadata_builder *b = NULL;
    floe_table_metadata *out = NULL;
    *rc = floe__metadata_builder_new(&b, start, "s3://somewhere/metadata/00009-x.metadata.json");
    for (size_t i = 0; i < n && *rc == 0; i++) {
        floe_json *j = NULL;
        *rc = floe__json_parse(&j, updates[i], strlen(updates[i]), "update");
        if (*rc == 0)
            *rc = floe__commit_apply_json(b, j);
        floe__json_free(j);
    }
    if (*rc == 0)
        *rc = floe__metadata_builder_build(b, 4102444900000, &out);
    floe__metadata_builder_free(b);
    char *text = *rc == 0 ? written(out) : NULL;
    floe__metadata_free(out);
    return text;
}

static size_t built_ok;

static void check_file(const char *path)
{
    floe_table_metadata *base = NULL;
    if (floe__metadata_read_file(&base, path) < 0) {
        ft_fail(__FILE__, __LINE__, "%s: %s", path, ft_floe_err());
        return;
    }
    floe_table_metadata *old = roundtrip(base), *copy = NULL;
    FT_OK(floe__metadata_copy(&copy, base));
    char *expect = written(old);
    /* updates fitted to the base, the same for both starting points */
    static char updates[16][1024];
    size_t n = 0;
    updates_for(base, updates, &n);
    floe__metadata_free(base); /* the copy must not need it */
    char *got = copy ? written(copy) : NULL;
    if (!FT_CHECK(expect && got && strcmp(expect, got) == 0))
        fprintf(stderr, "  copy of %s differs from its write/parse round trip\n", path);
    /* lookups of the copy work on its own indexes */
    for (size_t i = 0; copy && i < copy->nsnapshots; i++)
        FT_CHECK(floe__metadata_snapshot(copy, copy->snapshots[i].snapshot_id) ==
                 &copy->snapshots[i]);
    for (size_t i = 0; copy && i < copy->nrefs; i++)
        FT_CHECK(floe__metadata_ref(copy, copy->refs[i].name) == &copy->refs[i]);
    const floe_schema *cs = copy ? floe__metadata_current_schema(copy) : NULL;
    if (FT_CHECK(cs != NULL) && cs->root->nfields)
        FT_CHECK(floe__schema_field_by_id(cs, cs->root->fields[0].id) == &cs->root->fields[0]);
    int rc_old = 0, rc_new = FLOE_ENOMEM;
    char *built_old = build(old, updates, n, &rc_old);
    char *built_new = copy ? build(copy, updates, n, &rc_new) : NULL;
    FT_EQ_INT(rc_new, rc_old);
    if (rc_old == 0)
        built_ok++;
    else if (getenv("FT_VERBOSE"))
        fprintf(stderr, "  %s: %s\n", path, ft_floe_err());
    if (!FT_CHECK((!built_old && !built_new) ||
                  (built_old && built_new && strcmp(built_old, built_new) == 0)))
        fprintf(stderr, "  built metadata from %s differs between the two starting points\n",
                path);
    floe__free(built_old);
    floe__free(built_new);
    floe__free(expect);
    floe__free(got);
    floe__metadata_free(old);
    floe__metadata_free(copy);
}

static void test_fixtures(void)
{
    char **list = NULL;
    size_t n = 0;
    ft_collect_metadata(ft_path(ft_source_dir(), "tests/data/valid"), &list, &n);
    size_t own = n;
    const char *sh = ft_shared_dir();
    if (sh)
        ft_collect_metadata(ft_path(sh, "fixtures"), &list, &n);
    FT_CHECK(own >= 1);
    FT_CHECK(!sh || n - own >= 40);
    built_ok = 0;
    for (size_t i = 0; i < n; i++) {
        check_file(list[i]);
        free(list[i]);
    }
    /* the updates fit every table: the comparison is never vacuous */
    FT_EQ_INT(built_ok, n);
    free(list);
}

/* What the fixtures lack: many snapshots in two manifest-list directories,
 * summary keys outside the well-known table, escapes, key-id, v1-era
 * inline manifests, statistics with blob properties, both logs. */
static const char rich[] =
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
    "\"location\":\"s3://b/t \\\"q\\\"\",\"last-sequence-number\":3,\"last-updated-ms\":1000,"
    "\"last-column-id\":2,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
    "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\","
    "\"doc\":\"d\"},{\"id\":2,\"name\":\"m\",\"required\":false,\"type\":{\"type\":\"map\","
    "\"key-id\":3,\"key\":\"string\",\"value-id\":4,\"value-required\":false,\"value\":"
    "\"decimal(10, 2)\"}}]}],\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,"
    "\"fields\":[{\"name\":\"xb\",\"transform\":\"bucket[16]\",\"source-id\":1,"
    "\"field-id\":1000}]}],\"last-partition-id\":1000,\"default-sort-order-id\":1,"
    "\"sort-orders\":[{\"order-id\":0,\"fields\":[]},{\"order-id\":1,\"fields\":[{"
    "\"transform\":\"identity\",\"source-id\":1,\"direction\":\"desc\",\"null-order\":"
    "\"nulls-last\"}]}],\"properties\":{\"a\":\"1\",\"write.metadata.previous-versions-max\":"
    "\"2\"},\"current-snapshot-id\":30,\"refs\":{\"main\":{\"snapshot-id\":30,\"type\":"
    "\"branch\",\"min-snapshots-to-keep\":2},\"t\":{\"snapshot-id\":10,\"type\":\"tag\"}},"
    "\"snapshots\":[{\"snapshot-id\":10,\"sequence-number\":0,\"timestamp-ms\":10,"
    "\"manifests\":[\"s3://b/t/m1.avro\",\"s3://b/t/m2.avro\"]},{\"snapshot-id\":30,"
    "\"parent-snapshot-id\":20,\"sequence-number\":3,\"timestamp-ms\":30,\"summary\":{"
    "\"operation\":\"overwrite\",\"odd key\\n\":\"v\\u0001\",\"total-records\":\"3\"},"
    "\"manifest-list\":\"s3://b/other/snap-30-1.avro\",\"schema-id\":0,\"key-id\":\"k1\"},"
    "{\"snapshot-id\":20,\"parent-snapshot-id\":10,\"sequence-number\":2,\"timestamp-ms\":20,"
    "\"summary\":{\"operation\":\"append\"},\"manifest-list\":\"s3://b/t/metadata/list-20.avro\"}"
    "],\"statistics\":[{\"snapshot-id\":30,\"statistics-path\":\"s3://b/t/s.puffin\","
    "\"file-size-in-bytes\":9,\"file-footer-size-in-bytes\":3,\"key-metadata\":\"AAE=\","
    "\"blob-metadata\":[{\"type\":\"t\",\"snapshot-id\":30,\"sequence-number\":3,\"fields\":"
    "[1,2],\"properties\":{\"p\":\"q\"}}]}],\"partition-statistics\":[{\"snapshot-id\":20,"
    "\"statistics-path\":\"s3://b/t/p.parquet\",\"file-size-in-bytes\":5}],\"snapshot-log\":"
    "[{\"timestamp-ms\":10,\"snapshot-id\":10},{\"timestamp-ms\":30,\"snapshot-id\":30}],"
    "\"metadata-log\":[{\"timestamp-ms\":5,\"metadata-file\":\"s3://b/t/metadata/0.json\"},"
    "{\"timestamp-ms\":6,\"metadata-file\":\"s3://b/t/metadata/1.json\"}]}";

static floe_table_metadata *parse_rich(void)
{
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, rich, strlen(rich), "rich") < 0)
        ft_fail(__FILE__, __LINE__, "rich: %s", ft_floe_err());
    return m;
}

static void test_rich(void)
{
    floe_table_metadata *m = parse_rich(), *c = NULL;
    FT_ASSERT(m != NULL);
    char *expect = written(m);
    FT_OK(floe__metadata_copy(&c, m));
    floe__metadata_free(m);
    FT_ASSERT(c != NULL);
    char *got = written(c);
    FT_EQ_STR(got, expect);
    /* spot checks independent of the writer */
    FT_EQ_INT(c->nsnapshots, 3);
    FT_EQ_STR(floe__snapshot_summary(floe__metadata_snapshot(c, 30), "odd key\n"), "v\001");
    FT_EQ_STR(floe__metadata_snapshot(c, 30)->operation, "overwrite");
    FT_EQ_STR(floe__metadata_snapshot(c, 30)->key_id, "k1");
    FT_EQ_STR(floe__metadata_snapshot(c, 10)->manifests[1], "s3://b/t/m2.avro");
    floe_buf p = FLOE_BUF_INIT;
    const char *list = NULL;
    FT_OK(floe__snapshot_manifest_list(floe__metadata_snapshot(c, 20), &p, &list));
    FT_EQ_STR(list, "s3://b/t/metadata/list-20.avro");
    FT_OK(floe__snapshot_manifest_list(floe__metadata_snapshot(c, 30), &p, &list));
    FT_EQ_STR(list, "s3://b/other/snap-30-1.avro");
    floe__buf_free(&p);
    FT_EQ_STR(c->statistics[0].blob_metadata[0].properties[0].value, "q");
    FT_EQ_STR(floe__metadata_ref(c, "t")->name, "t");
    FT_EQ_STR(floe__props_get(&c->properties, "a"), "1");
    floe__free(expect);
    floe__free(got);
    floe__metadata_free(c);
}

/* A builder adds a snapshot whose id sorts before, between and after the
 * others: lookups by id find every one (the index is kept by insertion). */
static void test_added_snapshot_index(void)
{
    floe_table_metadata *m = parse_rich();
    FT_ASSERT(m != NULL);
    floe_metadata_builder *b = NULL;
    FT_OK(floe__metadata_builder_new(&b, m, NULL));
    const int64_t ids[] = {25, 5, 99, 15};
    for (size_t i = 0; i < FT_N(ids); i++) {
        floe_snapshot s = *floe__metadata_snapshot(m, 30);
        s.snapshot_id = ids[i];
        s.has_parent = true;
        s.parent_snapshot_id = 30;
        s.sequence_number = 4 + (int64_t)i;
        FT_OK(floe__mb_add_snapshot(b, &s));
    }
    const floe_table_metadata *cur = floe__metadata_builder_peek(b);
    const int64_t all[] = {5, 10, 15, 20, 25, 30, 99};
    for (size_t i = 0; i < FT_N(all); i++) {
        const floe_snapshot *s = floe__metadata_snapshot(cur, all[i]);
        FT_CHECK(s && s->snapshot_id == all[i]);
    }
    FT_CHECK(floe__metadata_snapshot(cur, 26) == NULL);
    floe__metadata_builder_free(b);
    floe__metadata_free(m);
}

static void test_oom(void)
{
    floe_table_metadata *m = parse_rich();
    FT_ASSERT(m != NULL);
    char *expect = written(m);
    long n;
    for (n = 1; n < 100000; n++) {
        floe_table_metadata *c = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__metadata_copy(&c, m);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            char *got = written(c);
            FT_EQ_STR(got, expect);
            floe__free(got);
            floe__metadata_free(c);
            break;
        }
        FT_CHECK(c == NULL);
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: %d %s", n, rc, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 20);
    floe__free(expect);
    floe__metadata_free(m);
}

static const ft_case cases[] = {
    {"fixtures", test_fixtures},
    {"rich", test_rich},
    {"added_snapshot_index", test_added_snapshot_index},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
