/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of the per-file pruning work of scan planning: bind a
 * three-predicate filter once, then evaluate it against the column metrics
 * and the partition tuple of 2,000,000 synthetic data files (20 columns of
 * metrics each), as the planner does for every manifest entry.
 * Prints `BENCH <name> <value> <unit>`.
 */
#include "expr/expr.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <stdio.h>
#include <string.h>

#define NCOL 20
#define NFILES 2000000

int main(void)
{
    static floe_type tlong = {.id = FLOE_T_LONG}, tstr = {.id = FLOE_T_STRING},
                     tdate = {.id = FLOE_T_DATE};
    floe_field fields[NCOL];
    char names[NCOL][16];
    for (int i = 0; i < NCOL; i++) {
        snprintf(names[i], sizeof names[i], "c%d", i + 1);
        fields[i] = (floe_field){i + 1, names[i], false, i == 1 ? &tstr : i == 2 ? &tdate : &tlong,
                                 NULL,  NULL,     NULL};
    }
    floe_type root = {.id = FLOE_T_STRUCT, .nfields = NCOL, .fields = fields};
    floe_schema schema = {.root = &root};
    floe_arena *a = floe__arena_new(4096);
    const floe_expr *b;
    const floe_expr *e = floe_expr_and(
        a, floe_expr_cmp(a, FLOE_OP_GT, "c1", floe_value_long(1500)),
        floe_expr_and(
            a, floe_expr_cmp(a, FLOE_OP_STARTS_WITH, "c2", floe_value_bytes(FLOE_T_STRING, "m", 1)),
            floe_expr_cmp(a, FLOE_OP_EQ, "c3", floe_value_bytes(FLOE_T_STRING, "2026-09-20", 10))));
    if (!e || floe_expr_bind(&b, a, &schema, e, true) < 0) {
        fprintf(stderr, "bind failed\n");
        return 1;
    }
    floe_partition_field pf = {3, 1000, "c3_day", {FLOE_TR_DAY, 0, "day"}};
    floe_partition_spec spec = {0, 1, &pf};
    const floe_expr *proj;
    if (floe_expr_project_inclusive(&proj, a, b, &spec) < 0)
        return 1;

    /* Metrics arrays reused per file; bounds vary with the file number. */
    floe_metric_count vc[NCOL], nc[NCOL];
    floe_metric_bound lo[NCOL], hi[NCOL];
    uint8_t lob[NCOL][8], hib[NCOL][8];
    for (int i = 0; i < NCOL; i++) {
        vc[i] = (floe_metric_count){i + 1, 1000};
        nc[i] = (floe_metric_count){i + 1, 0};
        lo[i] = (floe_metric_bound){i + 1, lob[i], i == 1 ? 2 : i == 2 ? 4 : 8};
        hi[i] = (floe_metric_bound){i + 1, hib[i], i == 1 ? 2 : i == 2 ? 4 : 8};
    }
    floe_file_metrics m = {1000, vc, NCOL, nc, NCOL, NULL, 0, lo, NCOL, hi, NCOL};
    long kept_metrics = 0, kept_partition = 0;
    int64_t t0 = floe__mono_ns();
    for (long f = 0; f < NFILES; f++) {
        int64_t base = f % 2000;
        for (int i = 0; i < NCOL; i++) {
            int64_t l = base, h = base + 100;
            memcpy(lob[i], &l, 8); /* little-endian hosts */
            memcpy(hib[i], &h, 8);
        }
        lob[1][0] = (uint8_t)('a' + f % 26);
        lob[1][1] = 'a';
        hib[1][0] = (uint8_t)('a' + (f + 3) % 26);
        hib[1][1] = 'z';
        int32_t day = 20700 + (int32_t)(f % 30);
        memcpy(lob[2], &day, 4);
        memcpy(hib[2], &day, 4);
        bool r;
        if (floe_expr_metrics_might_match(&r, b, &m) < 0)
            return 1;
        kept_metrics += r;
        floe_value pv = floe_value_date(day);
        floe_partition_value tuple = {1, &pv};
        if (floe_expr_eval_partition(&r, proj, &spec, &tuple) < 0)
            return 1;
        kept_partition += r;
    }
    double secs = (double)(floe__mono_ns() - t0) / 1e9;
    printf("BENCH expr_file_pruning %.0f files/s\n", NFILES / secs);
    printf("BENCH expr_file_pruning_ns %.1f ns/file\n", secs * 1e9 / NFILES);
    fprintf(stderr, "kept by metrics %ld, by partition %ld of %d\n", kept_metrics, kept_partition,
            NFILES);
    floe__arena_free(a);
    return 0;
}
