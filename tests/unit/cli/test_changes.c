/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/lineage_changes: schema, spec and sort-order changes along the
 * metadata log, what changed by field id, and the fallback on snapshot
 * schema ids; every step under allocation failure (an OOM loop).
 * Expected text written by hand.
 */
#include "cli/lineage.h"
#include "floe/io.h"
#include "harness.h"
#include "spec/metadata.h"
#include "spec/spec.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS0                                                                                    \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz\"},"                      \
    "{\"id\":3,\"name\":\"s\",\"required\":false,\"type\":\"string\"},"                            \
    "{\"id\":4,\"name\":\"pt\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["      \
    "{\"id\":5,\"name\":\"x\",\"required\":true,\"type\":\"int\"}]}}"
#define SCHEMA0 "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[" FIELDS0 "]}"
/* 1: s renamed name (doc), ts dropped, n added first, pt.x optional and
 * long, pt.y added, identifier field id */
#define SCHEMA1                                                                                    \
    "{\"type\":\"struct\",\"schema-id\":1,\"identifier-field-ids\":[1],\"fields\":["               \
    "{\"id\":6,\"name\":\"n\",\"required\":false,\"type\":\"decimal(10, 2)\"},"                    \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":3,\"name\":\"name\",\"required\":false,\"type\":\"string\",\"doc\":\"who\"},"         \
    "{\"id\":4,\"name\":\"pt\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["      \
    "{\"id\":5,\"name\":\"x\",\"required\":false,\"type\":\"long\"},"                              \
    "{\"id\":7,\"name\":\"y\",\"required\":false,\"type\":\"string\"}]}}]}"
#define SPEC0                                                                                      \
    "{\"spec-id\":0,\"fields\":[{\"source-id\":2,\"field-id\":1000,\"name\":\"ts_day\","           \
    "\"transform\":\"day\"}]}"
#define SPEC1                                                                                      \
    "{\"spec-id\":1,\"fields\":[{\"source-id\":1,\"field-id\":1001,\"name\":\"id_bucket_4\","      \
    "\"transform\":\"bucket[4]\"}]}"
#define HEAD(updated, last_col, schemas, cur)                                                      \
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","               \
    "\"location\":\"/t\",\"last-sequence-number\":0,\"last-updated-ms\":" updated ","              \
    "\"last-column-id\":" last_col ",\"current-schema-id\":" cur ",\"schemas\":[" schemas "],"

static const char OLD[] = HEAD("1000", "5", SCHEMA0, "0")
    "\"default-spec-id\":0,\"partition-specs\":[" SPEC0 "],\"last-partition-id\":1000,"
    "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],"
    "\"properties\":{},\"current-snapshot-id\":-1,\"snapshots\":[],\"snapshot-log\":[],"
    "\"metadata-log\":[]}";

static char *current_json(const char *old_path)
{
    return floe__sprintf(
        HEAD("2000", "7", SCHEMA0 "," SCHEMA1, "1")
        "\"default-spec-id\":1,\"partition-specs\":[" SPEC0 "," SPEC1 "],"
        "\"last-partition-id\":1001,\"default-sort-order-id\":1,\"sort-orders\":["
        "{\"order-id\":0,\"fields\":[]},{\"order-id\":1,\"fields\":[{\"source-id\":1,"
        "\"transform\":\"identity\",\"direction\":\"desc\",\"null-order\":\"nulls-last\"}]}],"
        "\"properties\":{},\"current-snapshot-id\":-1,\"snapshots\":[],\"snapshot-log\":[],"
        "\"metadata-log\":[{\"timestamp-ms\":1000,\"metadata-file\":\"%s\"}]}",
        old_path);
}

static floe_table_metadata *parse(const char *json)
{
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, json, strlen(json), "m.json") < 0)
        ft_fail(__FILE__, __LINE__, "parse: %s", ft_floe_err());
    return m;
}

static const char *const WANT[] = {
    "schema 0 -> 1: added column n decimal(10,2); renamed s -> name; comment on name 'who'; "
    "promoted pt.x int -> bigint; made pt.x optional; added column pt.y string; dropped column "
    "ts; identifier fields [] -> [id]",
    "partition spec 0 -> 1: added field id_bucket_4: bucket[4](id); removed field ts_day",
    "sort order 0 -> 1: id DESC NULLS LAST",
};

static void test_metadata_log(void)
{
    const char *old = ft_tmp("v0.metadata.json");
    FILE *f = fopen(old, "w");
    FT_ASSERT(f && fputs(OLD, f) >= 0 && fclose(f) == 0);
    char *js = current_json(old);
    floe_table_metadata *m = parse(js);
    free(js);
    floe_fileio *io = NULL;
    FT_ASSERT(m && floe_fileio_local_new(&io) == 0);
    cli_changes c;
    long n;
    int rc = -1;
    for (n = 1; n < 100000; n++) {
        floe__alloc_fail_at(n);
        rc = cli_changes_build(&c, m, io);
        floe__alloc_fail_at(0);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "step %ld: %s", n, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 1);
    FT_EQ_INT(rc, 0);
    FT_EQ_INT(c.n, 3);
    for (size_t i = 0; i < c.n && i < 3; i++) {
        FT_EQ_STR(c.items[i].text, WANT[i]);
        FT_EQ_INT(c.items[i].timestamp_ms, 2000);
        FT_CHECK(!c.items[i].with_snapshot && !c.items[i].has_after);
    }
    FT_EQ_INT(c.items[0].kind, CLI_CHANGE_SCHEMA);
    FT_EQ_INT(c.items[1].kind, CLI_CHANGE_SPEC);
    FT_EQ_INT(c.items[2].kind, CLI_CHANGE_ORDER);
    cli_changes_free(&c);
    /* the old file gone: nothing to compare with, no snapshot to stand in */
    FT_ASSERT(remove(old) == 0);
    FT_EQ_INT(cli_changes_build(&c, m, io), 0);
    FT_EQ_INT(c.n, 0);
    cli_changes_free(&c);
    floe_fileio_free(io);
    floe__metadata_free(m);
}

/* Without the metadata log: a snapshot written with another schema than
 * its parent stands for the change, tied to it. */
static void test_snapshot_fallback(void)
{
    char *js = floe__sprintf(
        HEAD("3000", "7", SCHEMA0 "," SCHEMA1, "1")
        "\"default-spec-id\":0,\"partition-specs\":[" SPEC0 "],\"last-partition-id\":1000,"
        "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],"
        "\"properties\":{},\"current-snapshot-id\":2,\"snapshots\":["
        "{\"snapshot-id\":1,\"sequence-number\":1,\"timestamp-ms\":1500,\"schema-id\":0,"
        "\"summary\":{\"operation\":\"append\"},\"manifest-list\":\"/t/1.avro\"},"
        "{\"snapshot-id\":2,\"parent-snapshot-id\":1,\"sequence-number\":2,"
        "\"timestamp-ms\":2500,\"schema-id\":1,\"summary\":{\"operation\":\"append\"},"
        "\"manifest-list\":\"/t/2.avro\"}],\"snapshot-log\":[],\"metadata-log\":[]}");
    floe_table_metadata *m = parse(js);
    free(js);
    FT_ASSERT(m);
    cli_changes c;
    FT_EQ_INT(cli_changes_build(&c, m, NULL), 0);
    FT_EQ_INT(c.n, 1);
    if (c.n == 1) {
        FT_EQ_STR(c.items[0].text, WANT[0]);
        FT_EQ_INT(c.items[0].timestamp_ms, 2500);
        FT_CHECK(c.items[0].with_snapshot && c.items[0].snapshot_id == 2);
    }
    cli_changes_free(&c);
    /* the same diff under allocation failure */
    const floe_schema *a = floe__metadata_schema(m, 0), *b = floe__metadata_schema(m, 1);
    long n;
    for (n = 1; n < 100000; n++) {
        floe_buf out = FLOE_BUF_INIT;
        floe__alloc_fail_at(n);
        int rc = cli_schema_diff(a, b, &out);
        floe__alloc_fail_at(0);
        bool done = rc == 0;
        if (done)
            FT_EQ_STR(out.ptr, WANT[0] + strlen("schema 0 -> 1: "));
        else
            FT_EQ_INT(rc, FLOE_ENOMEM);
        floe__buf_free(&out);
        if (done || rc != FLOE_ENOMEM)
            break;
    }
    FT_CHECK(n > 1);
    floe__metadata_free(m);
}

static const ft_case cases[] = {
    {"metadata_log", test_metadata_log},
    {"snapshot_fallback", test_snapshot_fallback},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
