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
 * Output: BENCH <name> <value> <unit>. Spark is not run here.
 */
#include "arrow/arrow.h"
#include "bench_mem.h"
#include "floe/maint.h"
#include "floe/table.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"p\",\"required\":true,\"type\":\"int\"}]}"
#define SPEC "{\"fields\":[{\"source-id\":2,\"transform\":\"identity\",\"name\":\"p\"}]}"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const floe_type t_long = {.id = FLOE_T_LONG};
static const floe_type t_int = {.id = FLOE_T_INT};
static const floe_field fields[] = {{.id = 1, .name = "id", .required = true, .type = &t_long},
                                    {.id = 2, .name = "p", .required = true, .type = &t_int}};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = fields};

static int batch(int64_t id, int32_t p, struct ArrowArray *out)
{
    floe_arrow_builder *b = NULL;
    if (floe__arrow_builder_new(&b, &root) < 0)
        return -1;
    floe_value a = floe_value_long(id), v = floe_value_int(p);
    int rc = floe__arrow_builder_append(b->children[0], &a);
    rc |= floe__arrow_builder_append(b->children[1], &v);
    rc |= floe__arrow_builder_struct_append(b, true);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char dir[512], db[600];
    snprintf(dir, sizeof dir, "%s/floe-bench-manifests-XXXXXX", tmp);
    if (!mkdtemp(dir))
        return 1;
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = dir;
    floe_catalog *c = NULL;
    if (floe_catalog_open_sql(&c, db, &co) < 0 || floe_catalog_create_namespace(c, "b", NULL) < 0)
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
    double w0 = now_s();
    for (int i = 0; rc == 0 && i < n; i++) {
        floe_append *a = NULL;
        struct ArrowArray arr;
        rc = floe_append_new(&a, t);
        if (rc == 0)
            rc = batch(i, i % 10, &arr);
        if (rc == 0) {
            rc = floe_append_write(a, &arr);
            arr.release(&arr);
        }
        if (rc == 0)
            rc = floe_append_commit(a, NULL);
        floe_append_free(a);
    }
    floe_table_free(t);
    if (rc < 0) {
        fprintf(stderr, "setup: %s\n", floe_error_last()->message);
        return 1;
    }
    printf("BENCH manifests_setup_commits %d commits\n", n);
    printf("BENCH manifests_setup_write %.3f s\n", now_s() - w0);
    floe_rewrite_manifests_options o = FLOE_REWRITE_MANIFESTS_OPTIONS_INIT;
    floe_rewrite_manifests_result r;
    bm_reset_peak();
    double t0 = now_s();
    rc = floe_rewrite_manifests(&r, c, "b.m", &o);
    double wall = now_s() - t0;
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
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return r.rewritten_manifests_count == n ? 0 : 1;
}
