/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe's half of the Hive Metastore benchmark (bench/hms_vs_hivecatalog.sh
 * runs it next to Iceberg Java's HiveCatalog, bench/hms/HiveCatalogBench.java,
 * on the same metastore in the same run):
 *
 *   hms_commit     a metadata-only commit (set one table property): write the
 *                  metadata file, lock, get_table, alter_table, unlock
 *   hms_load_table floe_table_load: get_table + read and parse the metadata
 *
 * Prints `BENCH hms_<op>_floe <median ms> ms` over RUNS after WARMUP.
 * Usage: bench_hms_catalog thrift://HOST:PORT WAREHOUSE-DIR
 * Without arguments it only says how it is run (scripts/bench.sh runs it
 * through bench/hms_vs_hivecatalog.sh, which starts the metastore).
 */
#include "floe/catalog.h"
#include "floe/table.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WARMUP = 20, RUNS = 100 };

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static double median_ms(int64_t *ns, int n)
{
    qsort(ns, (size_t)n, sizeof *ns, cmp_i64);
    return (double)ns[n / 2] / 1e6;
}

static int fail(const char *what)
{
    fprintf(stderr, "bench_hms_catalog: %s: %s\n", what,
            floe_error_last() ? floe_error_last()->message : "?");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("# bench_hms_catalog needs a metastore: run bench/hms_vs_hivecatalog.sh "
               "(scripts/bench.sh does)\n");
        return 0;
    }
    floe_hive_catalog_options o = FLOE_HIVE_CATALOG_OPTIONS_INIT;
    o.warehouse = argv[2];
    floe_catalog *cat = NULL;
    if (floe_catalog_open_hive(&cat, argv[1], &o) < 0)
        return fail("open");
    if (floe_catalog_create_namespace(cat, "fbench", NULL) < 0)
        return fail("create namespace");
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"
                     "true,\"type\":\"long\"},{\"id\":2,\"name\":\"s\",\"required\":false,"
                     "\"type\":\"string\"}]}";
    floe_table *t = NULL;
    if (floe_table_create(&t, cat, "fbench.t", &co, NULL) < 0)
        return fail("create table");
    static int64_t ns[RUNS];
    floe_props set = FLOE_PROPS_INIT;
    for (int i = 0; i < WARMUP + RUNS; i++) {
        char v[32];
        snprintf(v, sizeof v, "%d", i);
        if (floe__props_set(&set, "bench.k", v) < 0)
            return fail("props");
        int64_t t0 = floe__mono_ns();
        if (floe_table_update_properties(t, &set, NULL, 0) < 0)
            return fail("commit");
        if (i >= WARMUP)
            ns[i - WARMUP] = floe__mono_ns() - t0;
    }
    printf("BENCH hms_commit_floe %.2f ms\n", median_ms(ns, RUNS));
    floe_table_free(t);
    for (int i = 0; i < WARMUP + RUNS; i++) {
        int64_t t0 = floe__mono_ns();
        if (floe_table_load(&t, cat, "fbench.t", NULL) < 0)
            return fail("load");
        if (i >= WARMUP)
            ns[i - WARMUP] = floe__mono_ns() - t0;
        floe_table_free(t);
    }
    printf("BENCH hms_load_table_floe %.2f ms\n", median_ms(ns, RUNS));
    floe__props_free(&set);
    floe_catalog_free(cat);
    return 0;
}
