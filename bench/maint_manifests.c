/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/maint_manifests: rewrite_manifests of a table whose current
 * snapshot lists 1,000 data manifests (1,000 appends of one small file
 * each, commit.manifest-merge.enabled=false, 10 identity partitions): wall
 * time of the rewrite (read every manifest, cluster the entries by
 * partition, write the new manifests, commit), manifests before and after,
 * and peak RSS of that phase.
 *
 *   bench_maint_manifests [MANIFESTS]     default 1,000
 *
 * Then the same rewrite in Spark local[2] on the same table
 * (bench/maint_vs_spark.py: rolled back to the snapshot floe started
 * from): RATIO rewrite_manifests_1k = floe's wall time / Spark's (the CALL
 * only).
 *
 * Output: BENCH <name> <value> <unit>, RATIO <name> <floe/spark> spark.
 */
#include "bench_mem.h"
#include "bench_setup.h"
#include "floe/maint.h"

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"p\",\"required\":true,\"type\":\"int\"}]}"
#define SPEC "{\"fields\":[{\"source-id\":2,\"transform\":\"identity\",\"name\":\"p\"}]}"

static const floe_type t_long = {.id = FLOE_T_LONG};
static const floe_type t_int = {.id = FLOE_T_INT};
static const floe_field fields[] = {{.id = 1, .name = "id", .required = true, .type = &t_long},
                                    {.id = 2, .name = "p", .required = true, .type = &t_int}};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = fields};

static floe_value cell(int64_t i, size_t c, char *scratch)
{
    (void)scratch;
    return c == 0 ? floe_value_long(i) : floe_value_int((int32_t)(i % 10));
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    char dir[512];
    floe_catalog *c = NULL;
    if (bs_warehouse("manifests", dir, &c) < 0)
        return 1;
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "commit.manifest-merge.enabled", "false");
    floe_table_create_options tco = FLOE_TABLE_CREATE_OPTIONS_INIT;
    tco.schema_json = SCHEMA;
    tco.partition_spec_json = SPEC;
    tco.properties = &p;
    floe_table *t = NULL;
    int rc = floe_table_create(&t, c, "b.m", &tco, NULL);
    floe__props_free(&p);
    double w0 = bs_now_s();
    for (int i = 0; rc == 0 && i < n; i++) {
        floe_append *a = NULL;
        struct ArrowArray arr;
        rc = floe_append_new(&a, t);
        if (rc == 0)
            rc = bs_batch(&root, i, 1, cell, &arr);
        if (rc == 0) {
            rc = floe_append_write(a, &arr);
            arr.release(&arr);
        }
        if (rc == 0)
            rc = floe_append_commit(NULL, a);
        floe_append_free(a);
    }
    floe_snapshot_info before;
    long long start =
        rc == 0 && floe_table_current_snapshot(&before, t) ? (long long)before.snapshot_id : -1;
    floe_table_free(t);
    if (rc < 0) {
        fprintf(stderr, "setup: %s\n", floe_error_last()->message);
        return 1;
    }
    printf("BENCH manifests_setup_commits %d commits\n", n);
    printf("BENCH manifests_setup_write %.3f s\n", bs_now_s() - w0);
    floe_maint_rewrite_manifests_options o = FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_INIT;
    floe_maint_rewrite_manifests_result r;
    bm_reset_peak();
    double t0 = bs_now_s();
    rc = floe_maint_rewrite_manifests(&r, c, "b.m", &o);
    double wall = bs_now_s() - t0;
    long peak = bm_status_kb("VmHWM:");
    if (rc < 0) {
        fprintf(stderr, "rewrite_manifests: %s\n", floe_error_last()->message);
        return 1;
    }
    printf("BENCH rewrite_manifests_1k_wall %.3f s\n", wall);
    printf("BENCH rewrite_manifests_rewritten %lld manifests\n",
           (long long)r.rewritten_manifests_count);
    printf("BENCH rewrite_manifests_added %lld manifests\n", (long long)r.added_manifests_count);
    printf("BENCH rewrite_manifests_peak_rss %ld kB\n", peak);
    floe_catalog_free(c);
    double spark =
        bs_spark_seconds(dir, "b.m", start, "CALL local.system.rewrite_manifests('b.m')");
    if (spark > 0) {
        printf("BENCH rewrite_manifests_spark_wall %.3f s\n", spark);
        printf("RATIO rewrite_manifests_1k %.3f spark\n", wall / spark);
    }
    if (bs_remove(dir) < 0)
        return 1;
    return r.rewritten_manifests_count == n ? 0 : 1;
}
