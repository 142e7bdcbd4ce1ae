/* SPDX-License-Identifier: Apache-2.0 */
/* spec/view: view metadata files (format/view-spec.md) — fields of a
 * hand-written two-version file, the serializer's fixed point and Java's
 * field order, gzip input, bad files with their messages, the REST view
 * commit (assert-view-uuid, add-schema / add-view-version with -1,
 * set-current-view-version, properties, location), id reuse, history
 * trimming, and allocation failure. */
#include "harness.h"
#include "spec/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

static char *vector(const char *kind, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/%s/view/%s", ft_source_dir(), kind, name);
    char *t = ft_read_file(path, len);
    if (!t)
        ft_fail(__FILE__, __LINE__, "cannot read %s", path);
    return t;
}

static floe_view_metadata *load(const char *name)
{
    size_t len;
    char *t = vector("valid", name, &len);
    floe_view_metadata *m = NULL;
    if (t && floe__view_metadata_parse(&m, t, len, name) < 0)
        ft_fail(__FILE__, __LINE__, "%s: %s", name, ft_floe_err());
    free(t);
    return m;
}

static void test_fields(void)
{
    floe_view_metadata *m = load("two-versions.view.json");
    FT_ASSERT(m);
    FT_EQ_STR(m->view_uuid, "1b2a3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d");
    FT_EQ_INT(m->format_version, 1);
    FT_EQ_STR(m->location, "file:///tmp/warehouse/db.db/v");
    FT_EQ_STR(floe__props_get(&m->properties, "comment"), "daily events");
    FT_EQ_INT(m->nschemas, 2);
    FT_EQ_INT(m->nversions, 2);
    FT_EQ_INT(m->nlog, 2);
    FT_EQ_INT(m->version_log[1].timestamp_ms, 1700000005000LL);
    const floe_view_version *v = floe__view_current_version(m);
    FT_ASSERT(v);
    FT_EQ_INT(v->version_id, 2);
    FT_EQ_INT(v->schema_id, 1);
    FT_CHECK(v->default_catalog == NULL);
    FT_EQ_INT(v->ndefault_namespace, 1);
    FT_EQ_STR(v->default_namespace[0], "db");
    FT_EQ_STR(floe__view_sql(m, "spark"), "SELECT count(*) AS n FROM events");
    FT_EQ_STR(floe__view_sql(m, "TRINO"), "SELECT count(*) AS n FROM db.events");
    FT_EQ_STR(floe__view_sql(m, NULL), "SELECT count(*) AS n FROM events");
    FT_CHECK(floe__view_sql(m, "hive") == NULL);
    FT_EQ_STR(m->versions[0].default_catalog, "rest");
    FT_EQ_STR(m->versions[0].summary[1].value, "3.5.6");
    const floe_schema *s = floe__view_schema(m, 0);
    FT_ASSERT(s);
    FT_EQ_STR(floe__schema_field_by_name(s, "event_count")->doc, "Count of events");
    floe__view_metadata_free(m);
}

static void test_round_trip(void)
{
    const char *names[] = {"two-versions.view.json", "minimal.view.json"};
    for (size_t i = 0; i < FT_N(names); i++) {
        floe_view_metadata *m = load(names[i]), *again = NULL;
        FT_ASSERT(m);
        floe_buf a = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
        FT_OK(floe__view_metadata_to_json(m, &a));
        FT_OK(floe__view_metadata_parse(&again, a.ptr, a.len, "again"));
        FT_OK(floe__view_metadata_to_json(again, &b));
        FT_EQ_STR(a.ptr, b.ptr);
        floe__view_metadata_free(m);
        floe__view_metadata_free(again);
        floe__buf_free(&a);
        floe__buf_free(&b);
    }
    /* Java's order: uuid, format-version, location, properties (when any),
     * schemas, current-version-id, versions, version-log; unknown
     * representations keep their type only */
    floe_view_metadata *m = load("minimal.view.json");
    FT_ASSERT(m);
    floe_buf out = FLOE_BUF_INIT;
    FT_OK(floe__view_metadata_to_json(m, &out));
    FT_EQ_STR(out.ptr,
              "{\"view-uuid\":\"fa6506c3-7681-40c8-86dc-e36561f83385\",\"format-version\":1,"
              "\"location\":\"s3://bucket/v\",\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,"
              "\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":false,\"type\":\"int\"}]}],"
              "\"current-version-id\":1,\"versions\":[{\"version-id\":1,\"timestamp-ms\":1,"
              "\"schema-id\":0,\"summary\":{},\"default-namespace\":[],\"representations\":[{"
              "\"type\":\"sql\",\"sql\":\"SELECT 1 AS x\",\"dialect\":\"spark\"},{\"type\":"
              "\"other-kind\"}]}],\"version-log\":[]}");
    floe__buf_free(&out);
    floe__view_metadata_free(m);
}

static void test_gzip(void)
{
    size_t len;
    char *t = vector("valid", "two-versions.view.json", &len);
    FT_ASSERT(t);
    uLongf zl = compressBound(len) + 64;
    unsigned char *z = malloc(zl);
    z_stream s = {0};
    deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    s.next_in = (Bytef *)t;
    s.avail_in = (uInt)len;
    s.next_out = z;
    s.avail_out = (uInt)zl;
    FT_CHECK(deflate(&s, Z_FINISH) == Z_STREAM_END);
    floe_view_metadata *m = NULL;
    FT_OK(floe__view_metadata_parse(&m, z, s.total_out, "v.gz.metadata.json"));
    deflateEnd(&s);
    FT_EQ_INT(m->nversions, 2);
    floe__view_metadata_free(m);
    /* truncated gzip */
    FT_CHECK(floe__view_metadata_parse(&m, z, 12, "v.gz.metadata.json") == FLOE_ECORRUPT);
    free(z);
    free(t);
}

static void test_bad_files(void)
{
    static const struct {
        const char *file;
        int code;
        const char *msg;
    } cases[] = {
        {"unknown-current-version.json", FLOE_EINVALID, "Cannot find current version 2"},
        {"unknown-current-schema.json", FLOE_EINVALID, "Cannot find current schema with id 5"},
        {"format-version-2.json", FLOE_EINVALID, "Unsupported format version: 2"},
        {"missing-location.json", FLOE_EINVALID, "'location'"},
        {"two-sqls-one-dialect.json", FLOE_EINVALID,
         "Cannot add multiple queries for dialect SPARK"},
        {"duplicate-version-id.json", FLOE_EINVALID, "duplicate version-id 1"},
        {"missing-default-namespace.json", FLOE_EINVALID, "'default-namespace'"},
        {"version-log-object.json", FLOE_EINVALID, "Cannot parse version-log from non-array"},
        {"truncated.json", FLOE_ECORRUPT, "truncated.json"},
    };
    for (size_t i = 0; i < FT_N(cases); i++) {
        size_t len;
        char *t = vector("invalid", cases[i].file, &len);
        if (!t)
            continue;
        floe_view_metadata *m = NULL;
        int rc = floe__view_metadata_parse(&m, t, len, cases[i].file);
        if (rc != cases[i].code)
            ft_fail(__FILE__, __LINE__, "%s: rc %d, want %d (%s)", cases[i].file, rc,
                    cases[i].code, ft_floe_err());
        else
            FT_ERR_CONTAINS(cases[i].msg);
        FT_CHECK(m == NULL);
        free(t);
    }
    floe_view_metadata *m = NULL;
    FT_CHECK(floe__view_metadata_parse(&m, "[]", 2, "x") == FLOE_EINVALID);
    FT_CHECK(floe__view_metadata_parse(&m, "", 0, "x") == FLOE_ECORRUPT);
}

static int commit(floe_view_metadata *m, const char *body)
{
    floe_json *j = NULL;
    int rc = floe__json_parse(&j, body, strlen(body), "commit");
    if (rc == 0)
        rc = floe__view_commit_apply(m, j);
    floe__json_free(j);
    return rc;
}

#define SCHEMA_N                                                                                   \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"n\",\"required\":false," \
    "\"type\":\"long\"}]}"
#define VERSION(sql, ts)                                                                           \
    "{\"version-id\":1,\"timestamp-ms\":" #ts ",\"schema-id\":-1,\"summary\":{\"engine-name\":"   \
    "\"floe\"},\"default-namespace\":[\"db\"],\"representations\":[{\"type\":\"sql\",\"sql\":\""  \
    sql "\",\"dialect\":\"spark\"}]}"

static void test_commit(void)
{
    floe_view_metadata *m = NULL;
    FT_OK(floe__view_metadata_new(&m, "6e7a0b48-2b6a-4b5c-9f4e-7d1c2e3f4a5b", NULL));
    /* the create: what a REST createView turns into */
    FT_OK(commit(m, "{\"updates\":[{\"action\":\"assign-uuid\",\"uuid\":"
                    "\"6e7a0b48-2b6a-4b5c-9f4e-7d1c2e3f4a5b\"},{\"action\":"
                    "\"upgrade-format-version\",\"format-version\":1},{\"action\":\"set-location\","
                    "\"location\":\"s3://b/v\"},{\"action\":\"add-schema\",\"schema\":" SCHEMA_N
                    "},{\"action\":\"set-properties\",\"updates\":{\"comment\":\"c\",\"k\":\"v\"}},"
                    "{\"action\":\"add-view-version\",\"view-version\":" VERSION("SELECT 1", 10)
                    "},{\"action\":\"set-current-view-version\",\"view-version-id\":-1}]}"));
    FT_EQ_INT(m->current_version_id, 1);
    FT_EQ_INT(m->nlog, 1);
    FT_EQ_INT(m->version_log[0].timestamp_ms, 10);
    FT_EQ_STR(m->location, "s3://b/v");
    /* replace: a second version; the same schema is reused (id 0) */
    FT_OK(commit(m, "{\"requirements\":[{\"type\":\"assert-view-uuid\",\"uuid\":"
                    "\"6E7A0B48-2B6A-4B5C-9F4E-7D1C2E3F4A5B\"}],\"updates\":[{\"action\":"
                    "\"add-schema\",\"schema\":" SCHEMA_N "},{\"action\":\"add-view-version\","
                    "\"view-version\":" VERSION("SELECT 2", 20) "},{\"action\":"
                    "\"set-current-view-version\",\"view-version-id\":-1},{\"action\":"
                    "\"remove-properties\",\"removals\":[\"k\",\"absent\"]}]}"));
    FT_EQ_INT(m->nschemas, 1);
    FT_EQ_INT(m->nversions, 2);
    FT_EQ_INT(m->current_version_id, 2);
    FT_EQ_STR(floe__view_sql(m, "spark"), "SELECT 2");
    FT_CHECK(floe__props_get(&m->properties, "k") == NULL);
    FT_EQ_STR(floe__props_get(&m->properties, "comment"), "c");
    /* back to the first definition: its version is reused, not added */
    FT_OK(commit(m, "{\"updates\":[{\"action\":\"add-schema\",\"schema\":" SCHEMA_N
                    "},{\"action\":\"add-view-version\",\"view-version\":" VERSION(
                    "SELECT 1", 30) "},{\"action\":\"set-current-view-version\","
                                    "\"view-version-id\":-1}]}"));
    FT_EQ_INT(m->nversions, 2);
    FT_EQ_INT(m->current_version_id, 1);
    FT_EQ_INT(m->nlog, 3);
    FT_CHECK(m->version_log[2].timestamp_ms > 30); /* re-activated now, not at 30 */
    /* failures */
    FT_CHECK(commit(m, "{\"requirements\":[{\"type\":\"assert-view-uuid\",\"uuid\":\"x\"}]}") ==
             FLOE_ECONFLICT);
    FT_ERR_CONTAINS("Requirement failed: view UUID does not match: expected "
                    "6e7a0b48-2b6a-4b5c-9f4e-7d1c2e3f4a5b != x");
    FT_CHECK(commit(m, "{\"updates\":[{\"action\":\"set-current-view-version\","
                       "\"view-version-id\":9}]}") == FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot set current version to unknown version: 9");
    FT_CHECK(commit(m, "{\"updates\":[{\"action\":\"assign-uuid\",\"uuid\":\"other\"}]}") ==
             FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot reassign uuid");
    FT_CHECK(commit(m, "{\"updates\":[{\"action\":\"upgrade-format-version\",\"format-version\":2}]}") ==
             FLOE_EINVALID);
    FT_ERR_CONTAINS("Unsupported format version: 2");
    FT_CHECK(commit(m, "{\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":{}}]}") < 0);
    FT_CHECK(commit(m, "{\"updates\":[{\"action\":\"set-current-schema\",\"schema-id\":0}]}") ==
             FLOE_EUNSUPPORTED);
    FT_CHECK(commit(m, "{\"updates\":[{\"action\":\"add-view-version\",\"view-version\":{"
                       "\"version-id\":1,\"timestamp-ms\":1,\"schema-id\":7,\"summary\":{},"
                       "\"default-namespace\":[],\"representations\":[]}}]}") == FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot add version with unknown schema: 7");
    FT_CHECK(commit(m, "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\"x\"}]}") ==
             FLOE_EUNSUPPORTED);
    FT_CHECK(commit(m, "{\"updates\":{}}") == FLOE_EINVALID);
    /* the result is a valid file */
    floe_buf out = FLOE_BUF_INIT;
    FT_OK(floe__view_metadata_to_json(m, &out));
    floe_view_metadata *again = NULL;
    FT_OK(floe__view_metadata_parse(&again, out.ptr, out.len, "committed"));
    FT_EQ_STR(floe__view_sql(again, "spark"), "SELECT 1");
    floe__view_metadata_free(again);
    floe__buf_free(&out);
    floe__view_metadata_free(m);
}

static void test_history_trim(void)
{
    floe_view_metadata *m = NULL;
    FT_OK(floe__view_metadata_new(&m, NULL, "s3://b/v"));
    FT_CHECK(strlen(m->view_uuid) == 36);
    FT_OK(floe__props_set(&m->properties, "version.history.num-entries", "2"));
    char body[1024];
    for (int i = 0; i < 4; i++) {
        snprintf(body, sizeof body,
                 "{\"updates\":[{\"action\":\"add-schema\",\"schema\":" SCHEMA_N "},{\"action\":"
                 "\"add-view-version\",\"view-version\":{\"version-id\":1,\"timestamp-ms\":%d,\"schema-id\":0,\"summary\":{},\"default-namespace\":[],"
                 "\"representations\":[{\"type\":\"sql\",\"sql\":\"SELECT %d\",\"dialect\":"
                 "\"spark\"}]}},{\"action\":\"set-current-view-version\",\"view-version-id\":-1}]}",
                 i, i);
        FT_OK(commit(m, body));
    }
    FT_EQ_INT(m->nversions, 2);
    FT_EQ_INT(m->current_version_id, 4);
    FT_EQ_INT(m->versions[0].version_id, 4);
    FT_EQ_INT(m->versions[1].version_id, 3);
    /* the log is cleared past the versions that are gone */
    FT_EQ_INT(m->nlog, 2);
    FT_EQ_INT(m->version_log[0].version_id, 3);
    FT_OK(floe__props_set(&m->properties, "version.history.num-entries", "0"));
    FT_CHECK(commit(m, "{}") == FLOE_EINVALID);
    FT_ERR_CONTAINS("version.history.num-entries must be positive but was 0");
    floe__view_metadata_free(m);
    /* no versions */
    FT_OK(floe__view_metadata_new(&m, NULL, "s3://b/v"));
    FT_CHECK(commit(m, "{}") == FLOE_EINVALID);
    FT_ERR_CONTAINS("Invalid view: no versions were added");
    floe__view_metadata_free(m);
}

static void test_oom(void)
{
    size_t len;
    char *t = vector("valid", "two-versions.view.json", &len);
    FT_ASSERT(t);
    long n;
    for (n = 1; n < 100000; n++) {
        floe_view_metadata *m = NULL;
        floe_buf out = FLOE_BUF_INIT;
        floe__alloc_fail_at(n);
        int rc = floe__view_metadata_parse(&m, t, len, "oom");
        if (rc == 0)
            rc = floe__view_metadata_to_json(m, &out);
        if (rc == 0)
            rc = commit(m, "{\"updates\":[{\"action\":\"add-schema\",\"schema\":" SCHEMA_N
                           "},{\"action\":\"add-view-version\",\"view-version\":" VERSION(
                               "SELECT 3", 40) "},{\"action\":\"set-current-view-version\","
                                               "\"view-version-id\":-1}]}");
        floe__alloc_fail_at(0);
        floe__view_metadata_free(m);
        floe__buf_free(&out);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: %d %s", n, rc, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 20 && n < 100000);
    free(t);
}

static const ft_case cases[] = {
    {"fields", test_fields},       {"round_trip", test_round_trip},
    {"gzip", test_gzip},           {"bad_files", test_bad_files},
    {"commit", test_commit},       {"history_trim", test_history_trim},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
