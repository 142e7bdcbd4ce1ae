/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/snapshot_select: every form of "which snapshot" (current, id, ref,
 * branch, as-of time by the snapshot-log) with its answer and Java's /
 * Spark's message when there is none.
 */
#include "harness.h"
#include "spec/metadata.h"

#include <stdio.h>
#include <string.h>

#define T2020 1577836800000LL /* 2020-01-01T00:00:00Z */

/* Snapshots 1 <- 2 <- 3; main at 3, branch dev at 2, tag v1 at 1. The
 * snapshot-log moves main 1, 2, 3, back to 2 and 1 (rollbacks), then to 3
 * again with the clock stepped back 5 ms; its first entry (snapshot 9)
 * names a snapshot that is no longer in the table. */
static const char table_json[] =
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
    "\"location\":\"s3://b/t\",\"last-sequence-number\":3,\"last-updated-ms\":1,"
    "\"last-column-id\":1,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
    "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"}]}],"
    "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
    "\"last-partition-id\":999,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,"
    "\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":3,\"refs\":{\"main\":{"
    "\"snapshot-id\":3,\"type\":\"branch\"},\"dev\":{\"snapshot-id\":2,\"type\":\"branch\"},"
    "\"v1\":{\"snapshot-id\":1,\"type\":\"tag\"}},\"snapshots\":["
    "{\"snapshot-id\":1,\"sequence-number\":1,\"timestamp-ms\":1577836801000,\"summary\":"
    "{\"operation\":\"append\"},\"manifest-list\":\"s3://b/t/1.avro\"},"
    "{\"snapshot-id\":2,\"parent-snapshot-id\":1,\"sequence-number\":2,\"timestamp-ms\":"
    "1577836802000,\"summary\":{\"operation\":\"append\"},\"manifest-list\":\"s3://b/t/2.avro\"},"
    "{\"snapshot-id\":3,\"parent-snapshot-id\":2,\"sequence-number\":3,\"timestamp-ms\":"
    "1577836803000,\"summary\":{\"operation\":\"append\"},\"manifest-list\":\"s3://b/t/3.avro\"}],"
    "\"snapshot-log\":[{\"timestamp-ms\":1577836800500,\"snapshot-id\":9},"
    "{\"timestamp-ms\":1577836801000,\"snapshot-id\":1},"
    "{\"timestamp-ms\":1577836802000,\"snapshot-id\":2},"
    "{\"timestamp-ms\":1577836803000,\"snapshot-id\":3},"
    "{\"timestamp-ms\":1577836804000,\"snapshot-id\":2},"
    "{\"timestamp-ms\":1577836805000,\"snapshot-id\":1},"
    "{\"timestamp-ms\":1577836804995,\"snapshot-id\":3}],\"metadata-log\":[]}";

static const char empty_json[] =
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
    "\"location\":\"s3://b/e\",\"last-sequence-number\":0,\"last-updated-ms\":1,"
    "\"last-column-id\":1,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
    "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"}]}],"
    "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
    "\"last-partition-id\":999,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,"
    "\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":-1,\"refs\":{},\"snapshots\":[],"
    "\"snapshot-log\":[],\"metadata-log\":[]}";

static floe_table_metadata *parse(const char *text)
{
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, text, strlen(text), "test") < 0)
        ft_fail(__FILE__, __LINE__, "parse: %s", ft_floe_err());
    return m;
}

/* One selection and what it must give: the snapshot id (0: none), or
 * FLOE_ENOTFOUND with `message` raised under the caller's subsystem. */
typedef struct select_case {
    bool empty_table;
    floe_snapshot_select_kind kind;
    int64_t id;
    const char *ref;
    int64_t ts;
    int64_t want;
    const char *message;
} select_case;

static void run_cases(const select_case *c, size_t n)
{
    floe_table_metadata *m = parse(table_json), *e = parse(empty_json);
    FT_ASSERT(m && e);
    for (size_t i = 0; i < n; i++) {
        floe_snapshot_selector sel = {c[i].kind, c[i].id, c[i].ref, c[i].ts};
        const floe_snapshot *s = (const floe_snapshot *)1;
        int rc = floe__snapshot_select(&s, c[i].empty_table ? e : m, &sel, "probe");
        if (!c[i].message) {
            if (!FT_CHECK(rc == 0 && (s ? s->snapshot_id : 0) == c[i].want))
                fprintf(stderr, "  case %zu: rc %d, %s\n", i, rc, rc ? ft_floe_err() : "");
            continue;
        }
        const floe_error *err = floe_error_last();
        FT_CHECK(rc == FLOE_ENOTFOUND && s == NULL);
        if (!FT_CHECK(err && strcmp(err->message, c[i].message) == 0 &&
                      strcmp(err->subsystem, "probe") == 0))
            fprintf(stderr, "  case %zu: %s\n", i, err ? err->message : "(no error)");
    }
    floe__metadata_free(m);
    floe__metadata_free(e);
}

static void test_current_and_id(void)
{
    static const select_case c[] = {
        {false, FLOE_SNAP_CURRENT, 0, NULL, 0, 3, NULL},
        {true, FLOE_SNAP_CURRENT, 0, NULL, 0, 0, NULL}, /* no snapshot, no error */
        {false, FLOE_SNAP_ID, 2, NULL, 0, 2, NULL},
        {false, FLOE_SNAP_ID, 42, NULL, 0, 0, "Cannot find snapshot with ID 42"},
        {true, FLOE_SNAP_ID, -7, NULL, 0, 0, "Cannot find snapshot with ID -7"},
    };
    run_cases(c, FT_N(c));
}

#define NO_VERSION "Cannot find matching snapshot ID or reference name for version "

static void test_ref(void)
{
    static const select_case c[] = {
        {false, FLOE_SNAP_REF, 0, "main", 0, 3, NULL},
        {false, FLOE_SNAP_REF, 0, "dev", 0, 2, NULL},
        {false, FLOE_SNAP_REF, 0, "v1", 0, 1, NULL},
        {false, FLOE_SNAP_REF, 0, "nope", 0, 0, NO_VERSION "nope"},
        {true, FLOE_SNAP_REF, 0, "main", 0, 0, NO_VERSION "main"},
        {false, FLOE_SNAP_REF, 0, NULL, 0, 0, NO_VERSION},
    };
    run_cases(c, FT_N(c));
}

static void test_branch(void)
{
    static const select_case c[] = {
        {false, FLOE_SNAP_BRANCH, 0, "dev", 0, 2, NULL},
        {false, FLOE_SNAP_BRANCH, 0, "main", 0, 3, NULL},
        /* SparkTable.create checks that the name is a ref, whatever its kind */
        {false, FLOE_SNAP_BRANCH, 0, "v1", 0, 1, NULL},
        {false, FLOE_SNAP_BRANCH, 0, "nope", 0, 0, "Cannot use branch (does not exist): nope"},
        /* main before the first commit: no snapshot, not an error */
        {true, FLOE_SNAP_BRANCH, 0, "main", 0, 0, NULL},
        {true, FLOE_SNAP_BRANCH, 0, "dev", 0, 0, "Cannot use branch (does not exist): dev"},
    };
    run_cases(c, FT_N(c));
}

#define OLDER "Cannot find a snapshot older than "

static void test_as_of(void)
{
    static const select_case c[] = {
        /* before the whole log */
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020, 0, OLDER "2020-01-01T00:00:00+00:00"},
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 123, 0, OLDER "2020-01-01T00:00:00.123+00:00"},
        {true, FLOE_SNAP_AS_OF, 0, NULL, T2020, 0, OLDER "2020-01-01T00:00:00+00:00"},
        /* the first entry names an expired snapshot: Java's scan fails on the id */
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 700, 0, "Cannot find snapshot with ID 9"},
        /* an entry's own time selects it; between entries the earlier one */
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 1000, 1, NULL},
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 1999, 1, NULL},
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 2000, 2, NULL},
        /* the log, not the snapshot list: after the rollback main was at 2
         * although 3 is newer */
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 4500, 2, NULL},
        /* the last entry at or before the time in log order, past a later
         * entry (the clock stepped back 5 ms for the last commit) */
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 4994, 2, NULL},
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 4996, 3, NULL},
        {false, FLOE_SNAP_AS_OF, 0, NULL, T2020 + 5000, 3, NULL},
        {false, FLOE_SNAP_AS_OF, 0, NULL, INT64_MAX, 3, NULL},
    };
    run_cases(c, FT_N(c));
    floe_table_metadata *m = parse(table_json);
    FT_ASSERT(m != NULL);
    int64_t id = 0;
    FT_CHECK(floe__snapshot_log_as_of(m, T2020 + 700, &id) && id == 9);
    FT_CHECK(!floe__snapshot_log_as_of(m, T2020 + 499, &id));
    floe__metadata_free(m);
}

static void test_unknown_kind(void)
{
    floe_table_metadata *m = parse(table_json);
    FT_ASSERT(m != NULL);
    floe_snapshot_selector sel = {(floe_snapshot_select_kind)99, 0, NULL, 0};
    const floe_snapshot *s;
    FT_EQ_INT(floe__snapshot_select(&s, m, &sel, "probe"), FLOE_EINVALID);
    floe__metadata_free(m);
}

static const ft_case cases[] = {
    {"current_and_id", test_current_and_id}, {"ref", test_ref},
    {"branch", test_branch},                 {"as_of", test_as_of},
    {"unknown_kind", test_unknown_kind},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
