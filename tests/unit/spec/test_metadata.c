/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata: every table metadata file among the shared fixtures parses,
 * matches values read independently from the raw JSON (jansson + zlib here,
 * not floe's parser), and survives parse -> write -> parse; invalid inputs
 * give the right code and message; out-of-memory is clean at every step.
 */
#include "harness.h"
#include "floe/sys/fileio.h"
#include "spec/metadata.h"
#include "spec/spec.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Raw JSON of a (possibly gzip) file, independently of floe. */
static json_t *raw_json(const char *path)
{
    gzFile g = gzopen(path, "rb");
    if (!g)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int n;
    while ((n = gzread(g, buf + len, (unsigned)(cap - len))) > 0) {
        len += (size_t)n;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    gzclose(g);
    json_error_t err;
    json_t *j = json_loadb(buf, len, 0, &err);
    free(buf);
    return j;
}


static int64_t jint(const json_t *o, const char *k, int64_t def)
{
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : def;
}

/* Compare floe's view with the raw JSON. */
static void check_against_raw(const floe_table_metadata *m, const json_t *raw, const char *path)
{
    if (!FT_CHECK(m->format_version == jint(raw, "format-version", -9)))
        fprintf(stderr, "  in %s\n", path);
    FT_EQ_STR(m->location, json_string_value(json_object_get(raw, "location")));
    FT_EQ_INT(m->last_updated_ms, jint(raw, "last-updated-ms", -9));
    FT_EQ_INT(m->last_column_id, jint(raw, "last-column-id", -9));
    int64_t cur = jint(raw, "current-snapshot-id", -1);
    FT_EQ_INT(m->has_current_snapshot ? m->current_snapshot_id : -1, cur);
    json_t *snaps = json_object_get(raw, "snapshots");
    FT_EQ_INT(m->nsnapshots, json_array_size(snaps));
    for (size_t i = 0; i < json_array_size(snaps) && i < m->nsnapshots; i++) {
        json_t *s = json_array_get(snaps, i);
        const floe_snapshot *fs = floe__metadata_snapshot(m, jint(s, "snapshot-id", -9));
        if (!FT_CHECK(fs != NULL))
            continue;
        FT_CHECK(fs == &m->snapshots[i]);
        FT_EQ_INT(fs->has_parent ? fs->parent_snapshot_id : -1, jint(s, "parent-snapshot-id", -1));
        FT_EQ_INT(fs->sequence_number, jint(s, "sequence-number", 0));
        FT_EQ_INT(fs->timestamp_ms, jint(s, "timestamp-ms", -9));
        const char *ml = json_string_value(json_object_get(s, "manifest-list"));
        floe_buf mlb = FLOE_BUF_INIT;
        const char *fml;
        FT_OK(floe__snapshot_manifest_list(fs, &mlb, &fml));
        if (ml)
            FT_EQ_STR(fml, ml);
        else
            FT_CHECK(fml == NULL);
        floe__buf_free(&mlb);
        json_t *sum = json_object_get(s, "summary");
        if (sum) {
            FT_EQ_INT(fs->n_summary, json_object_size(sum));
            FT_EQ_STR(fs->operation, json_string_value(json_object_get(sum, "operation")));
            /* every packed entry, in order, agrees with jansson's reading */
            const uint8_t *it = fs->summary_packed;
            const char *k, *v;
            size_t seen = 0;
            while (floe__summary_next(&it, &k, &v)) {
                FT_EQ_STR(v, json_string_value(json_object_get(sum, k)));
                FT_CHECK(floe__snapshot_summary(fs, k) != NULL);
                seen++;
            }
            FT_EQ_INT(seen, json_object_size(sum));
        }
    }
    json_t *refs = json_object_get(raw, "refs");
    if (refs) {
        FT_EQ_INT(m->nrefs, json_object_size(refs));
        const char *name;
        json_t *r;
        json_object_foreach(refs, name, r) {
            const floe_snapshot_ref *fr = floe__metadata_ref(m, name);
            if (!FT_CHECK(fr != NULL))
                continue;
            FT_EQ_INT(fr->snapshot_id, jint(r, "snapshot-id", -9));
            FT_EQ_STR(fr->type == FLOE_REF_TAG ? "tag" : "branch",
                      json_string_value(json_object_get(r, "type")));
            FT_EQ_INT(fr->has_max_ref_age_ms ? fr->max_ref_age_ms : -1,
                      jint(r, "max-ref-age-ms", -1));
        }
    } else if (cur != -1) {
        const floe_snapshot_ref *main_ref = floe__metadata_ref(m, "main");
        FT_ASSERT(main_ref != NULL);
        FT_EQ_INT(main_ref->snapshot_id, cur);
    }
    json_t *schemas = json_object_get(raw, "schemas");
    if (json_array_size(schemas))
        FT_EQ_INT(m->nschemas, json_array_size(schemas));
    json_t *specs = json_object_get(raw, "partition-specs");
    if (json_array_size(specs))
        FT_EQ_INT(m->nspecs, json_array_size(specs));
    FT_EQ_INT(m->properties.n, json_object_size(json_object_get(raw, "properties")));
    FT_EQ_INT(m->n_snapshot_log, json_array_size(json_object_get(raw, "snapshot-log")));
    FT_EQ_INT(m->n_metadata_log, json_array_size(json_object_get(raw, "metadata-log")));
    FT_EQ_INT(m->has_next_row_id ? m->next_row_id : -1, jint(raw, "next-row-id", -1));
    /* the current schema's highest id never exceeds last-column-id */
    const floe_schema *cs = floe__metadata_current_schema(m);
    FT_ASSERT(cs != NULL);
    FT_CHECK(cs->highest_field_id <= m->last_column_id);
}

static void test_fixtures(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    char **list = NULL;
    size_t n = 0;
    ft_collect_metadata(ft_path(sh, "fixtures"), &list, &n);
    FT_CHECK(n >= 40);
    for (size_t i = 0; i < n; i++) {
        floe_table_metadata *m = NULL, *m2 = NULL;
        json_t *raw = raw_json(list[i]);
        unsigned long before = floe__metadata_stream_fallbacks();
        int rc = floe__metadata_read_file(&m, list[i]);
        FT_EQ_INT(floe__metadata_stream_fallbacks() - before, 0); /* streamed */
        if (rc < 0 || !raw) {
            ft_fail(__FILE__, __LINE__, "%s: %s", list[i], ft_floe_err());
        } else {
            check_against_raw(m, raw, list[i]);
            floe_buf out = FLOE_BUF_INIT, out2 = FLOE_BUF_INIT;
            FT_OK(floe__metadata_write(m, &out));
            rc = floe__metadata_parse(&m2, out.ptr, out.len, "rewritten");
            if (rc < 0) {
                ft_fail(__FILE__, __LINE__, "reparse of %s: %s", list[i], ft_floe_err());
            } else {
                check_against_raw(m2, raw, list[i]);
                /* also the rewritten JSON, read raw, agrees */
                json_t *raw2 = json_loadb(out.ptr, out.len, 0, NULL);
                FT_CHECK(raw2 != NULL);
                if (raw2)
                    check_against_raw(m2, raw2, "rewritten");
                json_decref(raw2);
                FT_OK(floe__metadata_write(m2, &out2));
                FT_EQ_STR(out.ptr, out2.ptr); /* writing is a fixed point */
            }
            /* the streamed file read and the in-memory parse agree */
            floe_table_metadata *m3 = NULL;
            size_t len;
            char *data = ft_read_file(list[i], &len);
            FT_ASSERT(data != NULL);
            if (floe__metadata_parse(&m3, data, len, list[i]) < 0) {
                ft_fail(__FILE__, __LINE__, "in-memory %s: %s", list[i], ft_floe_err());
            } else {
                floe__buf_clear(&out2);
                FT_OK(floe__metadata_write(m3, &out2));
                FT_EQ_STR(out.ptr, out2.ptr);
            }
            floe__metadata_free(m3);
            free(data);
            {
            }
            floe__buf_free(&out);
            floe__buf_free(&out2);
        }
        floe__metadata_free(m);
        floe__metadata_free(m2);
        json_decref(raw);
        free(list[i]);
    }
    free(list);
}

static floe_table_metadata *load(const char *rel)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return NULL;
    floe_table_metadata *m = NULL;
    if (floe__metadata_read_file(&m, ft_path(sh, rel)) < 0)
        ft_fail(__FILE__, __LINE__, "%s: %s", rel, ft_floe_err());
    return m;
}

static void test_provenance_values(void)
{
    floe_table_metadata *m = load("fixtures/java_bunnies/metadata/v5.metadata.json");
    if (!m)
        return;
    FT_EQ_INT(m->format_version, 2);
    FT_EQ_STR(m->location, "s3a://hyperparam-iceberg/java/bunnies");
    FT_EQ_INT(m->nsnapshots, 3);
    FT_CHECK(floe__metadata_snapshot(m, 4951213507629824583) != NULL);
    FT_CHECK(floe__metadata_snapshot(m, 6458828015811002920) != NULL);
    const floe_snapshot *cur = floe__metadata_current_snapshot(m);
    FT_ASSERT(cur != NULL);
    FT_EQ_INT(cur->snapshot_id, 9158179788527662767);
    FT_EQ_INT(floe__metadata_ref(m, "main")->snapshot_id, 9158179788527662767);
    const floe_schema *s = floe__metadata_current_schema(m);
    FT_ASSERT(s != NULL);
    const floe_field *f = floe__schema_field_by_name(s, "__happy__");
    FT_ASSERT(f != NULL);
    FT_EQ_INT(f->id, 9);
    FT_EQ_INT(f->type->id, FLOE_T_BOOLEAN);
    FT_CHECK(floe__schema_field_by_id(s, 1) == floe__schema_field_by_name(s, "Breed Name"));
    floe__metadata_free(m);

    m = load("fixtures/trino_deletion_vectors_v3/metadata/00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json");
    if (!m)
        return;
    FT_EQ_INT(m->format_version, 3);
    FT_EQ_INT(m->next_row_id, 16);
    FT_EQ_INT(m->nsnapshots, 5);
    cur = floe__metadata_current_snapshot(m);
    FT_ASSERT(cur != NULL);
    FT_EQ_INT(cur->snapshot_id, 7777310120628922486);
    FT_CHECK(cur->has_first_row_id && cur->has_added_rows);
    FT_CHECK(m->nstatistics >= 1);
    floe__metadata_free(m);

    m = load("fixtures/trino_bucket_partitioning/metadata/00002-53948f10-cced-409f-8dd9-6dea096895e8.metadata.json");
    if (!m)
        return;
    const floe_partition_spec *spec = floe__metadata_spec(m, m->default_spec_id);
    FT_ASSERT(spec && spec->nfields == 10);
    FT_EQ_INT(spec->fields[0].transform.kind, FLOE_TR_BUCKET);
    FT_EQ_INT(spec->fields[0].transform.param, 2);
    FT_EQ_INT(spec->fields[9].transform.param, 812);
    FT_EQ_INT(spec->fields[0].field_id, 1000);
    FT_EQ_INT(floe__metadata_current_snapshot(m)->snapshot_id, 8499397478161915471);
    floe__metadata_free(m);
}

static void test_v1_legacy(void)
{
    floe_table_metadata *m = load("fixtures/spark_v1_legacy_fields/metadata/v2.metadata.json");
    if (!m)
        return;
    FT_EQ_INT(m->format_version, 1);
    FT_EQ_INT(m->nschemas, 1);
    FT_EQ_INT(m->nspecs, 1);
    FT_EQ_INT(m->specs[0]->nfields, 1);
    FT_EQ_INT(m->specs[0]->fields[0].field_id, 1000);
    FT_EQ_INT(m->specs[0]->fields[0].transform.kind, FLOE_TR_IDENTITY);
    FT_EQ_INT(m->nsnapshots, 1);
    FT_CHECK(m->snapshots[0].manifest_list_packed == NULL);
    FT_CHECK(m->snapshots[0].n_manifests >= 1);
    FT_EQ_INT(m->snapshots[0].sequence_number, 0);
    FT_ASSERT(floe__metadata_ref(m, "main") != NULL);
    floe__metadata_free(m);

    m = load("fixtures/vectors/metadata/java-TableMetadataV1Valid.json");
    if (!m)
        return;
    FT_CHECK(!m->has_current_snapshot);
    FT_CHECK(floe__metadata_ref(m, "main") == NULL);
    FT_EQ_INT(m->nsort_orders, 1);
    floe__metadata_free(m);

    m = load("fixtures/lineitem_iceberg_gz/metadata/v2.gz.metadata.json");
    if (!m)
        return;
    FT_EQ_INT(m->format_version, 1);
    FT_EQ_STR(m->location, "./lineitem_iceberg_gz");
    FT_EQ_STR(floe__props_get(&m->properties, "write.metadata.compression-codec"), "gzip");
    FT_EQ_INT(m->nsnapshots, 1);
    floe__metadata_free(m);
}

static void test_branch_and_tag(void)
{
    floe_table_metadata *m = load("fixtures/vectors/metadata/java-branch-and-tag.java_evolved.metadata.json");
    if (!m)
        return;
    const char *names[] = {"main", "dev", "audit", "release-1", "stable"};
    for (size_t i = 0; i < FT_N(names); i++)
        FT_CHECK(floe__metadata_ref(m, names[i]) != NULL);
    FT_EQ_INT(floe__metadata_ref(m, "release-1")->type, FLOE_REF_TAG);
    FT_EQ_INT(floe__metadata_ref(m, "dev")->type, FLOE_REF_BRANCH);
    FT_CHECK(floe__metadata_ref(m, "nope") == NULL);
    floe__metadata_free(m);
}

static const struct {
    const char *file;
    int code;
    const char *message;
} invalid_cases[] = {
    {"missing_location.json", FLOE_EINVALID, "missing required field 'location'"},
    {"missing_table_uuid.json", FLOE_EINVALID, "missing required field 'table-uuid'"},
    {"wrong_type_last_updated.json", FLOE_EINVALID, "field 'last-updated-ms' in table metadata must be an integer"},
    {"duplicate_field_id.json", FLOE_EINVALID, "duplicate field id 1"},
    {"unknown_transform.json", FLOE_EINVALID, "unknown transform 'bucket[x]'"},
    {"current_snapshot_missing.json", FLOE_EINVALID, "current-snapshot-id 42 is not in snapshots"},
    {"unsupported_version.json", FLOE_EUNSUPPORTED, "unsupported format version 4"},
    {"missing_summary_operation.json", FLOE_EINVALID, "missing required field 'summary.operation'"},
    {"ref_to_missing_snapshot.json", FLOE_EINVALID, "ref 'main' points to snapshot 7"},
    {"bad_decimal_type.json", FLOE_EINVALID, "invalid decimal type 'decimal(40,2)'"},
    {"unknown_type.json", FLOE_EINVALID, "unknown type 'varchar'"},
    {"duplicate_snapshot_id.json", FLOE_EINVALID, "duplicate snapshot-id 3051729675574597004"},
    {"bad_initial_default.json", FLOE_EINVALID, "initial-default of schema field 'x'"},
    {"missing_field_required.json", FLOE_EINVALID, "missing required field 'required' in schema field 'x'"},
    {"bad_ref_type.json", FLOE_EINVALID, "must be 'branch' or 'tag'"},
    {"not_an_object.json", FLOE_EINVALID, "must be a JSON object"},
    {"malformed.json", FLOE_ECORRUPT, "malformed JSON"},
    {"truncated.gz.metadata.json", FLOE_ECORRUPT, "truncated gzip"},
    {"too_deep.json", FLOE_EINVALID, "nested deeper than"},
};

static void test_invalid(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/data/invalid/metadata", ft_source_dir());
    size_t seen = 0;
    DIR *d = opendir(dir);
    FT_ASSERT(d != NULL);
    struct dirent *e;
    while ((e = readdir(d)))
        seen += e->d_name[0] != '.';
    closedir(d);
    FT_EQ_INT(seen, FT_N(invalid_cases)); /* every file has an expectation */
    for (size_t i = 0; i < FT_N(invalid_cases); i++) {
        floe_table_metadata *m = NULL;
        int rc = floe__metadata_read_file(&m, ft_path(dir, invalid_cases[i].file));
        if (rc != invalid_cases[i].code)
            ft_fail(__FILE__, __LINE__, "%s: got %d (%s), want %d", invalid_cases[i].file, rc,
                    ft_floe_err(), invalid_cases[i].code);
        FT_ERR_CONTAINS(invalid_cases[i].message);
        FT_CHECK(m == NULL);
        floe__metadata_free(m);
    }
}

static void test_valid_minimal(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/valid/metadata/minimal-v2.metadata.json",
             ft_source_dir());
    floe_table_metadata *m = NULL;
    FT_OK(floe__metadata_read_file(&m, path));
    FT_EQ_INT(m->current_snapshot_id, 3051729675574597004);
    FT_EQ_STR(m->table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
    FT_EQ_INT(m->specs[0]->fields[0].transform.param, 16);
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__metadata_write(m, &b));
    /* exact spec field names, ids as integers */
    FT_CHECK(strstr(b.ptr, "\"current-snapshot-id\":3051729675574597004") != NULL);
    FT_CHECK(strstr(b.ptr, "\"refs\":{\"main\":{\"snapshot-id\":3051729675574597004,\"type\":\"branch\"}}") != NULL);
    FT_CHECK(strstr(b.ptr, "\"transform\":\"bucket[16]\"") != NULL);
    FT_CHECK(strstr(b.ptr, "\"last-sequence-number\":1,") != NULL);
    floe__buf_free(&b);
    floe__metadata_free(m);
    FT_EQ_INT(floe__metadata_read_file(&m, ft_tmp("absent.json")), FLOE_ENOTFOUND);
}

static void oom_loop(const char *path)
{
    char *data;
    size_t len;
    data = ft_read_file(path, &len);
    FT_ASSERT(data != NULL);
    long n;
    for (n = 1; n < 1000000; n++) {
        floe_table_metadata *m = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__metadata_parse(&m, data, len, path);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            floe__metadata_free(m);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: got %d (%s)", n, rc, ft_floe_err());
            break;
        }
        FT_CHECK(m == NULL);
    }
    FT_CHECK(n > 10);
    free(data);
    /* the streaming file reader */
    for (n = 1; n < 1000000; n++) {
        floe_table_metadata *m = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__metadata_read_file(&m, path);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            floe__metadata_free(m);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "read_file allocation %ld: got %d (%s)", n, rc,
                    ft_floe_err());
            break;
        }
        FT_CHECK(m == NULL);
    }
    FT_CHECK(n > 10);
}

static void test_oom(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/valid/metadata/minimal-v2.metadata.json",
             ft_source_dir());
    oom_loop(path);
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    oom_loop(ft_path(sh, "fixtures/lineitem_iceberg_gz/metadata/v1.gz.metadata.json"));
    oom_loop(ft_path(sh, "fixtures/pyiceberg_column_defaults/metadata/00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json"));
}

/* A synthetic table whose snapshots exercise the packed forms: ids in random
 * order (negative too), known and unknown summary keys, escapes, manifest
 * lists with and without the snap-<id>- name, without a directory. */
static void synth_table(floe_buf *b, int n, bool version_last, const char *sep)
{
    FT_OK(floe__buf_printf(b, "{%s", sep));
    if (!version_last)
        FT_OK(floe__buf_printf(b, "\"format-version\" : 2 ,%s", sep));
    FT_OK(floe__buf_printf(b,
        "\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\",\"location\":\"s3://b/t\","
        "\"last-sequence-number\":%d,\"last-updated-ms\":1,\"last-column-id\":1,%s"
        "\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
        "[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"}]}],\"default-spec-id\":0,"
        "\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],\"last-partition-id\":999,"
        "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],"
        "\"snapshots\" :%s[", n, sep, sep));
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t id = (int64_t)(x >> 1) * (i % 7 == 3 ? -1 : 1);
        if (i)
            FT_OK(floe__buf_printf(b, ",%s", sep));
        FT_OK(floe__buf_printf(b,
            "{\"snapshot-id\":%lld,\"sequence-number\":%d,\"timestamp-ms\":%d,"
            "\"summary\":{\"operation\":\"%s\",\"added-records\":\"%d\",\"my key %d\":\"v\\\"\\u00e9%d\","
            "\"spark.app.id\":\"[not a bracket}\"},",
            (long long)id, i + 1, i, i % 2 ? "append" : "overwrite", i * 3, i % 5, i));
        switch (i % 4) {
        case 0:
            FT_OK(floe__buf_printf(b, "\"manifest-list\":\"s3://b/t/metadata/snap-%lld-1-abc.avro\"}",
                                   (long long)id));
            break;
        case 1:
            FT_OK(floe__buf_printf(b, "\"manifest-list\":\"s3://b/t/metadata/snap-%lld1-x.avro\"}",
                                   (long long)id));
            break;
        case 2: FT_OK(floe__buf_printf(b, "\"manifest-list\":\"ml-%d.avro\"}", i)); break;
        default: FT_OK(floe__buf_printf(b, "\"manifest-list\":\"s3://other\\/dir/%d/\"}", i)); break;
        }
    }
    FT_OK(floe__buf_printf(b, "]%s,\"snapshot-log\":[", sep));
    for (int i = 0; i < n; i++)
        FT_OK(floe__buf_printf(b, "%s{\"timestamp-ms\":%d,\"snapshot-id\":%d}", i ? "," : "", i, i));
    FT_OK(floe__buf_puts(b, "],\"metadata-log\":[]"));
    if (version_last)
        FT_OK(floe__buf_puts(b, ",\"format-version\":2"));
    FT_OK(floe__buf_printf(b, "%s}%s", sep, sep));
}

/* A FileIO input over memory (fail_at: the read_at call that fails, 0 none). */
typedef struct mem_input {
    floe_input base;
    const char *data;
    int calls, fail_at;
} mem_input;

static int mem_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    mem_input *m = (mem_input *)in;
    if (++m->calls == m->fail_at)
        return floe__error(FLOE_EIO, "test", "injected read failure");
    if (offset < 0 || (uint64_t)offset + len > (uint64_t)in->size)
        return floe__error(FLOE_ECORRUPT, "test", "short read");
    memcpy(buf, m->data + offset, len);
    return 0;
}

static void mem_close(floe_input *in)
{
    (void)in;
}

static mem_input mem_input_of(const char *data, size_t len)
{
    mem_input m = {{"mem://t/metadata/v1.metadata.json", (int64_t)len, mem_read_at, mem_close},
                   data, 0, 0};
    return m;
}

/* Reading the file (streamed) and parsing the text give the same metadata. */
static void stream_case(int n, bool version_last, const char *sep, bool gz, bool want_stream)
{
    floe_buf text = FLOE_BUF_INIT, w1 = FLOE_BUF_INIT, w2 = FLOE_BUF_INIT;
    synth_table(&text, n, version_last, sep);
    const char *path = ft_tmp(gz ? "synth.metadata.json.gz" : "synth.metadata.json");
    if (gz) {
        gzFile g = gzopen(path, "wb");
        FT_ASSERT(g != NULL);
        FT_CHECK(gzwrite(g, text.ptr, (unsigned)text.len) == (int)text.len);
        gzclose(g);
    } else {
        FT_OK(ft_write_file(path, text.ptr, text.len));
    }
    floe_table_metadata *m1 = NULL, *m2 = NULL;
    unsigned long before = floe__metadata_stream_fallbacks();
    FT_OK(floe__metadata_read_file(&m1, path));
    FT_EQ_INT(floe__metadata_stream_fallbacks() - before, want_stream ? 0 : 1);
    FT_OK(floe__metadata_parse(&m2, text.ptr, text.len, "text"));
    FT_ASSERT(m1 && m2);
    FT_EQ_INT(m1->nsnapshots, n);
    FT_OK(floe__metadata_write(m1, &w1));
    FT_OK(floe__metadata_write(m2, &w2));
    FT_EQ_STR(w1.ptr, w2.ptr);
    if (!gz) {
        /* the same through a FileIO input, streamed in ranges */
        mem_input in = mem_input_of(text.ptr, text.len);
        floe_table_metadata *m3 = NULL;
        before = floe__metadata_stream_fallbacks();
        FT_OK(floe__metadata_read_input(&m3, &in.base));
        FT_EQ_INT(floe__metadata_stream_fallbacks() - before, 0);
        FT_CHECK(in.calls >= 2); /* several ranges, never the whole object */
        floe__buf_clear(&w2);
        FT_OK(floe__metadata_write(m3, &w2));
        FT_EQ_STR(w1.ptr, w2.ptr);
        floe__metadata_free(m3);
        /* a read error is returned as it is, never retried */
        for (int k = 1; k <= 2; k++) {
            in = mem_input_of(text.ptr, text.len);
            in.fail_at = k;
            FT_EQ_INT(floe__metadata_read_input(&m3, &in.base), FLOE_EIO);
            FT_ERR_CONTAINS("injected read failure");
            FT_CHECK(m3 == NULL);
        }
        /* a malformed object: the whole-text path gives the parser's message */
        char *close = strrchr(text.ptr, '}');
        FT_ASSERT(close != NULL);
        *close = '#';
        in = mem_input_of(text.ptr, text.len);
        FT_EQ_INT(floe__metadata_read_input(&m3, &in.base), FLOE_ECORRUPT);
        char msg[600];
        snprintf(msg, sizeof msg, "%s", ft_floe_err());
        FT_EQ_INT(floe__metadata_parse(&m3, text.ptr, text.len, in.base.uri), FLOE_ECORRUPT);
        FT_EQ_STR(msg, ft_floe_err());
        FT_ERR_CONTAINS("mem://t/metadata/v1.metadata.json: malformed JSON at line");
    }
    /* every snapshot is found by id; packed fields read back */
    floe_buf ml = FLOE_BUF_INIT;
    for (size_t i = 0; i < m1->nsnapshots; i++) {
        const floe_snapshot *s = &m1->snapshots[i];
        FT_CHECK(floe__metadata_snapshot(m1, s->snapshot_id) == s);
        FT_EQ_STR(floe__snapshot_summary(s, "operation"), i % 2 ? "append" : "overwrite");
        FT_EQ_STR(s->operation, i % 2 ? "append" : "overwrite");
        FT_EQ_STR(floe__snapshot_summary(s, "spark.app.id"), "[not a bracket}");
        FT_CHECK(floe__snapshot_summary(s, "absent") == NULL);
        char key[32], want[128];
        snprintf(key, sizeof key, "my key %d", (int)(i % 5));
        snprintf(want, sizeof want, "v\"\xc3\xa9%d", (int)i);
        FT_EQ_STR(floe__snapshot_summary(s, key), want);
        const char *p;
        FT_OK(floe__snapshot_manifest_list(s, &ml, &p));
        FT_ASSERT(p != NULL);
        switch (i % 4) {
        case 0: snprintf(want, sizeof want, "s3://b/t/metadata/snap-%lld-1-abc.avro", (long long)s->snapshot_id); break;
        case 1: snprintf(want, sizeof want, "s3://b/t/metadata/snap-%lld1-x.avro", (long long)s->snapshot_id); break;
        case 2: snprintf(want, sizeof want, "ml-%d.avro", (int)i); break;
        default: snprintf(want, sizeof want, "s3://other/dir/%d/", (int)i); break;
        }
        FT_EQ_STR(p, want);
    }
    FT_CHECK(floe__metadata_snapshot(m1, 12345) == NULL);
    floe__buf_free(&ml);
    floe__metadata_free(m1);
    floe__metadata_free(m2);
    floe__buf_free(&text);
    floe__buf_free(&w1);
    floe__buf_free(&w2);
}

static void test_stream(void)
{
    stream_case(3000, false, "", false, true);     /* > one 64 KiB read chunk */
    stream_case(3000, false, "\n  ", true, true); /* gzip, whitespace everywhere */
    stream_case(0, false, " ", false, true);
    stream_case(50, true, "", false, true);       /* snapshots before format-version */
}

/* Mutated and truncated files: the streaming reader and the in-memory parse
 * agree on the outcome, the message and the metadata (a small fuzz of the
 * streaming scanner, which must never accept what the parser rejects). */
static void test_stream_mutations(void)
{
    floe_buf text = FLOE_BUF_INIT, w1 = FLOE_BUF_INIT, w2 = FLOE_BUF_INIT;
    synth_table(&text, 6, false, " ");
    const char *path = ft_tmp("mut.metadata.json");
    static const char subst[] = {'"', ']', '}', ',', '\\'};
    char *buf = malloc(text.len + 1);
    FT_ASSERT(buf != NULL);
    size_t cases = 0, agree = 0;
    for (size_t i = 0; i < text.len; i += 7) {
        for (size_t k = 0; k <= sizeof subst; k++) {
            memcpy(buf, text.ptr, text.len);
            size_t len = text.len;
            if (k == sizeof subst)
                len = i; /* truncated */
            else
                buf[i] = subst[k];
            if (ft_write_file(path, buf, len) < 0)
                continue;
            floe_table_metadata *m1 = NULL, *m2 = NULL;
            int rc1 = floe__metadata_read_file(&m1, path);
            char msg1[600];
            snprintf(msg1, sizeof msg1, "%s", ft_floe_err());
            int rc2 = floe__metadata_parse(&m2, buf, len, path);
            cases++;
            bool same = rc1 == rc2;
            if (same && rc1 < 0)
                same = strcmp(msg1, ft_floe_err()) == 0;
            if (same && rc1 == 0) {
                floe__buf_clear(&w1);
                floe__buf_clear(&w2);
                same = floe__metadata_write(m1, &w1) == 0 && floe__metadata_write(m2, &w2) == 0 &&
                       strcmp(w1.ptr, w2.ptr) == 0;
            }
            if (same)
                agree++;
            else if (cases - agree <= 3)
                ft_fail(__FILE__, __LINE__, "byte %zu variant %zu: %d (%s) vs %d (%s)", i, k, rc1,
                        msg1, rc2, ft_floe_err());
            floe__metadata_free(m1);
            floe__metadata_free(m2);
        }
    }
    FT_EQ_INT(agree, cases);
    FT_CHECK(cases > 300);
    free(buf);
    floe__buf_free(&text);
    floe__buf_free(&w1);
    floe__buf_free(&w2);
}

static void test_stream_late_version(void)
{
    /* format-version after the snapshots (as PyIceberg writes): a snapshot
     * breaking a v2 rule is still refused, with the same message */
    const char *v2 =
        "{\"location\":\"s3://b/t\",\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
        "\"last-sequence-number\":1,\"last-updated-ms\":1,\"last-column-id\":1,"
        "\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],\"last-partition-id\":999,"
        "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],"
        "\"snapshots\":[{\"snapshot-id\":6,\"timestamp-ms\":1,\"summary\":{\"operation\":\"append\"},"
        "\"manifest-list\":\"s3://b/t/metadata/snap-6-1-a.avro\"}],\"format-version\":%d}";
    char text[2048];
    const char *path = ft_tmp("late.metadata.json");
    floe_table_metadata *m = NULL;
    /* v2: sequence-number is required */
    snprintf(text, sizeof text, v2, 2);
    FT_OK(ft_write_file(path, text, strlen(text)));
    unsigned long before = floe__metadata_stream_fallbacks();
    FT_EQ_INT(floe__metadata_read_file(&m, path), FLOE_EINVALID);
    FT_ERR_CONTAINS("missing required field 'sequence-number' in snapshot 6");
    FT_EQ_INT(floe__metadata_stream_fallbacks() - before, 1);
    /* v1: fine, and streamed */
    snprintf(text, sizeof text, v2, 1);
    FT_OK(ft_write_file(path, text, strlen(text)));
    before = floe__metadata_stream_fallbacks();
    FT_OK(floe__metadata_read_file(&m, path));
    FT_EQ_INT(floe__metadata_stream_fallbacks() - before, 0);
    FT_EQ_INT(m->format_version, 1);
    FT_EQ_INT(m->nsnapshots, 1);
    floe__metadata_free(m);
}

/* A duplicate snapshot id is rejected whichever path reads the file. */
static void test_stream_duplicates(void)
{
    const char *text =
        "{\"format-version\":1,\"location\":\"s3://b/t\",\"last-updated-ms\":1,\"last-column-id\":1,"
        "\"schema\":{\"type\":\"struct\",\"fields\":[]},\"partition-spec\":[],"
        "\"snapshots\":[{\"snapshot-id\":5,\"timestamp-ms\":1,\"manifests\":[]},"
        "{\"snapshot-id\":4,\"timestamp-ms\":1,\"manifests\":[]},"
        "{\"snapshot-id\":5,\"timestamp-ms\":2,\"manifests\":[]}],"
        "\"snapshots\":[]}";
    const char *path = ft_tmp("dup.metadata.json");
    FT_OK(ft_write_file(path, text, strlen(text)));
    floe_table_metadata *m = NULL;
    FT_EQ_INT(floe__metadata_read_file(&m, path), FLOE_EINVALID);
    FT_ERR_CONTAINS("duplicate snapshot-id 5");
    FT_EQ_INT(floe__metadata_parse(&m, text, strlen(text), "t"), FLOE_EINVALID);
    FT_ERR_CONTAINS("duplicate snapshot-id 5");
    FT_CHECK(m == NULL);
}

static const ft_case cases[] = {
    {"stream", test_stream},
    {"stream_duplicates", test_stream_duplicates},
    {"stream_late_version", test_stream_late_version},
    {"stream_mutations", test_stream_mutations},
    {"fixtures", test_fixtures},
    {"provenance_values", test_provenance_values},
    {"v1_legacy", test_v1_legacy},
    {"branch_and_tag", test_branch_and_tag},
    {"invalid", test_invalid},
    {"valid_minimal", test_valid_minimal},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
