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
 * Tables live in a fresh directory under $TMPDIR (/tmp); SQLite catalog.
 * Output: BENCH <name> <value> <unit>. Spark is not run here (see the
 * issue #25 report: the peer pairing is left to the peers suite).
 */
#include "arrow/arrow.h"
#include "bench_mem.h"
#include "floe/maint.h"
#include "floe/scan.h"
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
    "{\"id\":2,\"name\":\"v\",\"required\":true,\"type\":\"long\"},"                               \
    "{\"id\":3,\"name\":\"s\",\"required\":false,\"type\":\"string\"}]}"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const floe_type t_long = {.id = FLOE_T_LONG};
static const floe_type t_string = {.id = FLOE_T_STRING};
static const floe_field fields[] = {{.id = 1, .name = "id", .required = true, .type = &t_long},
                                    {.id = 2, .name = "v", .required = true, .type = &t_long},
                                    {.id = 3, .name = "s", .type = &t_string}};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 3, .fields = fields};

static int batch(int64_t from, int64_t n, struct ArrowArray *out)
{
    floe_arrow_builder *b = NULL;
    if (floe__arrow_builder_new(&b, &root) < 0)
        return -1;
    int rc = 0;
    char text[32];
    for (int64_t i = from; rc == 0 && i < from + n; i++) {
        snprintf(text, sizeof text, "row-%lld", (long long)i);
        floe_value a = floe_value_long(i), v = floe_value_long(i % 100),
                   s = floe_value_bytes(FLOE_T_STRING, text, strlen(text));
        rc = floe__arrow_builder_append(b->children[0], &a);
        rc |= floe__arrow_builder_append(b->children[1], &v);
        rc |= floe__arrow_builder_append(b->children[2], &s);
        rc |= floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

static int64_t count_rows(floe_table *t, int64_t *files)
{
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.threads = 1;
    floe_scan *s = NULL;
    int64_t rows = 0;
    if (floe_scan_open(&s, floe_table_io(t), floe_table_metadata_location(t), &o) < 0)
        return -1;
    floe_snapshot_info si;
    *files = -1;
    if (floe_table_current_snapshot(t, &si)) {
        const char *n = floe_table_snapshot_summary(t, si.snapshot_id, "total-data-files");
        *files = n ? atoll(n) : -1;
    }
    struct ArrowArrayStream st;
    if (floe_scan_to_stream(s, &st) == 0) {
        for (;;) {
            struct ArrowArray b;
            if (st.get_next(&st, &b) != 0 || !b.release)
                break;
            rows += b.length;
            b.release(&b);
        }
        st.release(&st);
    }
    floe_scan_free(s);
    return rows;
}

int main(int argc, char **argv)
{
    int files = argc > 1 ? atoi(argv[1]) : 10000;
    int per = argc > 2 ? atoi(argv[2]) : 100;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char dir[512], db[600];
    snprintf(dir, sizeof dir, "%s/floe-bench-compact-XXXXXX", tmp);
    if (!mkdtemp(dir))
        return 1;
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = dir;
    floe_catalog *c = NULL;
    if (floe_catalog_open_sql(&c, db, &co) < 0 || floe_catalog_create_namespace(c, "b", NULL) < 0)
        return 1;
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.target-file-size-bytes", "1");
    floe_table_create_options tco = FLOE_TABLE_CREATE_OPTIONS_INIT;
    tco.schema_json = SCHEMA;
    tco.properties = &p;
    floe_table *t = NULL;
    int rc = floe_table_create(&t, c, "b.small", &tco, NULL);
    floe__props_free(&p);
    double w0 = now_s();
    floe_append *a = NULL;
    if (rc == 0)
        rc = floe_append_new(&a, t);
    for (int f = 0; rc == 0 && f < files; f++) {
        struct ArrowArray arr;
        rc = batch((int64_t)f * per, per, &arr);
        if (rc == 0) {
            rc = floe_append_write(a, &arr);
            arr.release(&arr);
        }
    }
    if (rc == 0)
        rc = floe_append_commit(a, NULL);
    floe_append_free(a);
    double write_s = now_s() - w0;
    int64_t nfiles = 0, rows = rc == 0 ? count_rows(t, &nfiles) : -1;
    floe_table_free(t);
    if (rc < 0 || rows != (int64_t)files * per) {
        fprintf(stderr, "setup failed: %s (rows %lld)\n",
                rc < 0 ? floe_error_last()->message : "", (long long)rows);
        return 1;
    }
    printf("BENCH compact_setup_files %lld files\n", (long long)nfiles);
    printf("BENCH compact_setup_write %.3f s\n", write_s);

    floe_props opts = FLOE_PROPS_INIT;
    floe__props_set(&opts, "target-file-size-bytes", "134217728");
    floe_rewrite_data_files_options ro = FLOE_REWRITE_DATA_FILES_OPTIONS_INIT;
    ro.options = &opts;
    floe_rewrite_data_files_result r;
    bm_reset_peak();
    double t0 = now_s();
    rc = floe_rewrite_data_files(&r, c, "b.small", &ro);
    double wall = now_s() - t0;
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
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return after_rows == rows && after_files == r.added_data_files_count ? 0 : 1;
}
