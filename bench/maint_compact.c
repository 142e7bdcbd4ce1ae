/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/maint_compact: rewrite_data_files (binpack) of a table made of
 * 10,000 small data files of 100 rows each (one append; the table's
 * write.target-file-size-bytes is 1 byte while it is written, so every
 * 100-row batch closes a file) into target-size files (128 MiB): wall time
 * of the compaction (plan + read + write + replace commit), rows/s, files
 * before and after, peak RSS of the compaction phase, and a check that the
 * table reads the same row count after it.
 *
 *   bench_maint_compact [FILES] [ROWS_PER_FILE]    default 10,000 x 100
 *
 * Then the same compaction in Spark local[2] (bench/maint_vs_spark.py,
 * peer venv): Spark rolls the table back to the snapshot floe started from
 * and runs CALL rewrite_data_files with the same options; RATIO
 * compact_10k_small_files = floe's wall time / Spark's (the CALL only;
 * session start-up excluded).
 *
 * Tables live in a fresh directory under $TMPDIR (/tmp); SQLite catalog.
 * Output: BENCH <name> <value> <unit>, RATIO <name> <floe/spark> spark.
 */
#include "bench_mem.h"
#include "bench_setup.h"
#include "floe/maint.h"

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"v\",\"required\":true,\"type\":\"long\"},"                               \
    "{\"id\":3,\"name\":\"s\",\"required\":false,\"type\":\"string\"}]}"

static const floe_type t_long = {.id = FLOE_T_LONG};
static const floe_type t_string = {.id = FLOE_T_STRING};
static const floe_field fields[] = {{.id = 1, .name = "id", .required = true, .type = &t_long},
                                    {.id = 2, .name = "v", .required = true, .type = &t_long},
                                    {.id = 3, .name = "s", .type = &t_string}};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 3, .fields = fields};

static floe_value cell(int64_t i, size_t c, char *scratch)
{
    if (c == 0)
        return floe_value_long(i);
    if (c == 1)
        return floe_value_long(i % 100);
    int n = snprintf(scratch, 64, "row-%lld", (long long)i);
    return floe_value_bytes(FLOE_T_STRING, scratch, (size_t)n);
}

static int64_t count_rows(floe_table *t, int64_t *files)
{
    floe_snapshot_info si;
    *files = -1;
    if (floe_table_current_snapshot(&si, t)) {
        const char *n = floe_table_snapshot_summary(t, si.snapshot_id, "total-data-files");
        *files = n ? atoll(n) : -1;
    }
    int64_t rows = 0;
    return bs_scan_rows(t, &rows) < 0 ? -1 : rows;
}

int main(int argc, char **argv)
{
    int files = argc > 1 ? atoi(argv[1]) : 10000;
    int per = argc > 2 ? atoi(argv[2]) : 100;
    char dir[512];
    floe_catalog *c = NULL;
    if (bs_warehouse("compact", dir, &c) < 0)
        return 1;
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.target-file-size-bytes", "1");
    floe_table_create_options tco = FLOE_TABLE_CREATE_OPTIONS_INIT;
    tco.schema_json = SCHEMA;
    tco.properties = &p;
    floe_table *t = NULL;
    int rc = floe_table_create(&t, c, "b.small", &tco, NULL);
    floe__props_free(&p);
    double w0 = bs_now_s();
    floe_append *a = NULL;
    if (rc == 0)
        rc = floe_append_new(&a, t);
    for (int f = 0; rc == 0 && f < files; f++) {
        struct ArrowArray arr;
        rc = bs_batch(&root, (int64_t)f * per, per, cell, &arr);
        if (rc == 0) {
            rc = floe_append_write(a, &arr);
            arr.release(&arr);
        }
    }
    if (rc == 0)
        rc = floe_append_commit(NULL, a);
    floe_append_free(a);
    double write_s = bs_now_s() - w0;
    int64_t nfiles = 0, rows = rc == 0 ? count_rows(t, &nfiles) : -1;
    floe_snapshot_info before;
    long long start = floe_table_current_snapshot(&before, t) ? (long long)before.snapshot_id : -1;
    floe_table_free(t);
    if (rc < 0 || rows != (int64_t)files * per) {
        fprintf(stderr, "setup failed: %s (rows %lld)\n", rc < 0 ? floe_error_last()->message : "",
                (long long)rows);
        return 1;
    }
    printf("BENCH compact_setup_files %lld files\n", (long long)nfiles);
    printf("BENCH compact_setup_write %.3f s\n", write_s);

    floe_props opts = FLOE_PROPS_INIT;
    floe__props_set(&opts, "target-file-size-bytes", "134217728");
    floe_maint_rewrite_data_files_options ro = FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_INIT;
    ro.options = &opts;
    floe_maint_rewrite_data_files_result r;
    bm_reset_peak();
    double t0 = bs_now_s();
    rc = floe_maint_rewrite_data_files(&r, c, "b.small", &ro);
    double wall = bs_now_s() - t0;
    long peak = bm_status_kb("VmHWM:");
    floe__props_free(&opts);
    if (rc < 0) {
        fprintf(stderr, "rewrite_data_files: %s\n", floe_error_last()->message);
        return 1;
    }
    int64_t after_files = 0;
    if (floe_table_load(&t, c, "b.small", NULL) < 0)
        return 1;
    int64_t after_rows = count_rows(t, &after_files);
    floe_table_free(t);
    printf("BENCH compact_10k_small_files_wall %.3f s\n", wall);
    printf("BENCH compact_rows_per_s %.0f rows/s\n", wall > 0 ? (double)rows / wall : 0);
    printf("BENCH compact_rewritten_files %lld files\n", (long long)r.rewritten_data_files_count);
    printf("BENCH compact_added_files %lld files\n", (long long)r.added_data_files_count);
    printf("BENCH compact_rewritten_bytes %lld bytes\n", (long long)r.rewritten_bytes_count);
    printf("BENCH compact_peak_rss %ld kB\n", peak);
    printf("BENCH compact_rows_after %lld rows\n", (long long)after_rows);
    floe_catalog_free(c);
    int ok = after_rows == rows && after_files == r.added_data_files_count;
    double spark = bs_spark_seconds(dir, "b.small", start,
                                    "CALL local.system.rewrite_data_files(table => 'b.small', "
                                    "options => map('target-file-size-bytes', '134217728'))");
    if (spark > 0) {
        printf("BENCH compact_spark_wall %.3f s\n", spark);
        printf("BENCH compact_spark_rows_per_s %.0f rows/s\n", (double)rows / spark);
        printf("RATIO compact_10k_small_files %.3f spark\n", wall / spark);
    }
    if (bs_remove(dir) < 0)
        return 1;
    return ok ? 0 : 1;
}
