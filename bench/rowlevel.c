/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/rowlevel: DELETE of 1% of the rows, spread over every data file of
 * a large table (v = id % 100, DELETE WHERE v = 7), in copy-on-write and in
 * merge-on-read: wall time of the operation (find rows + write files +
 * commit), bytes of data/delete files written, and the full-scan read time
 * before and after the merge-on-read delete (the cost of applying position
 * deletes on read), and the same merge-on-read delete on a format v3 table,
 * where it writes deletion vectors (one Puffin DV per data file; `mor_dv`).
 * Each read figure is the median of 5 full scans (one thread) after a
 * warm-up scan, wall and CPU time (the slowdown is taken on CPU time, which
 * the machine's other load disturbs least).
 * Then the v3 case again in Spark local[2] on the same table, in the same
 * run (bench/maint_vs_spark.py: rolled back to the snapshot floe's DELETE
 * started from; a warm-up read, the read before, the DELETE — deletion
 * vectors, as the table is v3 and merge-on-read — and the read after):
 * RATIO floe / Spark for the DV delete and for the next full read.
 *
 *   bench_rowlevel [ROWS] [FILES]      default 10,000,000 rows in 10 files
 *
 * Tables live in a fresh directory under $TMPDIR (/tmp); SQLite catalog.
 * Output: BENCH <name> <value> <unit>, RATIO <name> <floe/spark> spark.
 */
#include "bench_setup.h"

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"v\",\"required\":true,\"type\":\"long\"},"                               \
    "{\"id\":3,\"name\":\"x\",\"required\":false,\"type\":\"double\"}]}"

static const floe_type t_long = {.id = FLOE_T_LONG};
static const floe_type t_double = {.id = FLOE_T_DOUBLE};
static const floe_field fields[] = {{.id = 1, .name = "id", .required = true, .type = &t_long},
                                    {.id = 2, .name = "v", .required = true, .type = &t_long},
                                    {.id = 3, .name = "x", .type = &t_double}};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 3, .fields = fields};

static floe_value cell(int64_t i, size_t c, char *scratch)
{
    (void)scratch;
    return c == 0   ? floe_value_long(i)
           : c == 1 ? floe_value_long(i % 100)
                    : floe_value_double((double)i * 0.5);
}

static double cpu_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median wall and CPU seconds of 5 full scans after one warm-up scan. */
static void scan_median(floe_table *t, int64_t *rows, double *wall, double *cpu)
{
    enum { RUNS = 5 };
    double w[RUNS], c[RUNS];
    (void)bs_scan_rows(t, rows);
    for (int i = 0; i < RUNS; i++) {
        double c0 = cpu_now_s();
        w[i] = bs_scan_rows(t, rows);
        c[i] = cpu_now_s() - c0;
    }
    qsort(w, RUNS, sizeof *w, cmp_d);
    qsort(c, RUNS, sizeof *c, cmp_d);
    *wall = w[RUNS / 2];
    *cpu = c[RUNS / 2];
}

static floe_table *make_table(floe_catalog *c, const char *ident, const char *mode,
                              const char *format, int64_t rows, int files)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.delete.mode", mode);
    floe__props_set(&p, "format-version", format);
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = SCHEMA;
    co.properties = &p;
    floe_table *t = NULL;
    int rc = floe_table_create(&t, c, ident, &co, NULL);
    floe__props_free(&p);
    int64_t per = rows / files;
    for (int f = 0; rc == 0 && f < files; f++) {
        floe_append *a = NULL;
        rc = floe_append_new(&a, t);
        for (int64_t off = 0; rc == 0 && off < per; off += 1000000) {
            struct ArrowArray arr;
            int64_t n = per - off < 1000000 ? per - off : 1000000;
            rc = bs_batch(&root, (int64_t)f * per + off, n, cell, &arr);
            if (rc == 0) {
                rc = floe_append_write(a, &arr);
                arr.release(&arr);
            }
        }
        if (rc == 0)
            rc = floe_append_commit(NULL, a);
        floe_append_free(a);
    }
    if (rc < 0) {
        fprintf(stderr, "make_table: %s\n", floe_error_last()->message);
        floe_table_free(t);
        return NULL;
    }
    return t;
}

/* The v3 merge-on-read DELETE and the reads around it in Spark, from the
 * snapshot floe's DELETE started from. Spark's reads aggregate every
 * column (sum), so they decode all of them and apply the DVs as floe's
 * full scan does, without shipping rows to the driver. */
static void spark_dv(const char *dir, const char *ident, int64_t start, double floe_delete,
                     double floe_after)
{
    char read[128], del[128], warm[160], dvs[200];
    snprintf(read, sizeof read, "SELECT sum(id), sum(v), sum(x) FROM local.%s", ident);
    snprintf(warm, sizeof warm, "warmup:%s", read);
    snprintf(del, sizeof del, "DELETE FROM local.%s WHERE v = 7", ident);
    /* and what Spark's DELETE wrote (SPARK_RESULT_3: its added-dvs) */
    snprintf(dvs, sizeof dvs,
             "SELECT summary['added-dvs'] AS added_dvs FROM local.%s.snapshots "
             "ORDER BY committed_at DESC LIMIT 1",
             ident);
    const char *stmts[] = {warm, read, del, read, dvs};
    double secs[4] = {-1, -1, -1, -1};
    if (bs_spark_run(dir, ident, (long long)start, stmts, 5, secs) != 4)
        return;
    printf("BENCH rowlevel_read_before_mor_dv_spark %.3f s\n", secs[0]);
    printf("BENCH rowlevel_delete_mor_dv_spark_wall %.3f s\n", secs[1]);
    printf("BENCH rowlevel_read_after_mor_dv_spark %.3f s\n", secs[2]);
    printf("BENCH rowlevel_read_slowdown_mor_dv_spark %.2f x\n",
           secs[0] > 0 ? secs[2] / secs[0] : 0);
    if (secs[1] > 0)
        printf("RATIO rowlevel_delete_mor_dv %.3f spark\n", floe_delete / secs[1]);
    if (secs[2] > 0)
        printf("RATIO rowlevel_read_after_mor_dv %.3f spark\n", floe_after / secs[2]);
}

int main(int argc, char **argv)
{
    int64_t rows = argc > 1 ? atoll(argv[1]) : 10000000;
    int files = argc > 2 ? atoi(argv[2]) : 10;
    char dir[512];
    floe_catalog *c = NULL;
    if (bs_warehouse("rowlevel", dir, &c) < 0)
        return 1;
    printf("# %lld rows in %d files, DELETE WHERE v = 7 (1%%)\n", (long long)rows, files);
    const char *modes[] = {"copy-on-write", "merge-on-read", "merge-on-read"};
    const char *formats[] = {"2", "2", "3"};
    const char *tags[] = {"cow", "mor", "mor_dv"};
    for (int m = 0; m < 3; m++) {
        char ident[32];
        snprintf(ident, sizeof ident, "b.t_%s", tags[m]);
        floe_table *t = make_table(c, ident, modes[m], formats[m], rows, files);
        if (!t)
            return 1;
        int64_t n0 = 0, n1 = 0;
        floe_snapshot_info start;
        if (!floe_table_current_snapshot(&start, t))
            return 1;
        double before, before_cpu, after, after_cpu;
        scan_median(t, &n0, &before, &before_cpu);
        double t0 = bs_now_s();
        floe_rowlevel *op = NULL;
        floe_rowlevel_stats st;
        int rc = floe_rowlevel_new(&op, t, NULL);
        if (rc == 0)
            rc = floe_rowlevel_delete_where(op, "v = 7");
        if (rc == 0)
            rc = floe_rowlevel_commit(NULL, &st, op);
        floe_rowlevel_free(op);
        double wall = bs_now_s() - t0;
        if (rc < 0) {
            fprintf(stderr, "delete: %s\n", floe_error_last()->message);
            return 1;
        }
        scan_median(t, &n1, &after, &after_cpu);
        printf("# %s (v%s): %lld rows deleted, %lld -> %lld rows read, %lld data files removed, "
               "%lld data + %lld delete files written\n",
               modes[m], formats[m], (long long)st.rows_deleted, (long long)n0, (long long)n1,
               (long long)st.data_files_removed, (long long)st.data_files_added,
               (long long)st.delete_files_added);
        printf("BENCH rowlevel_delete_%s_wall %.3f s\n", tags[m], wall);
        printf("BENCH rowlevel_delete_%s_bytes_written %lld bytes\n", tags[m],
               (long long)st.bytes_written);
        printf("BENCH rowlevel_read_before_%s %.3f s\n", tags[m], before);
        printf("BENCH rowlevel_read_before_%s_cpu %.3f s\n", tags[m], before_cpu);
        printf("BENCH rowlevel_read_after_%s %.3f s\n", tags[m], after);
        printf("BENCH rowlevel_read_after_%s_cpu %.3f s\n", tags[m], after_cpu);
        if (m > 0) {
            printf("BENCH rowlevel_read_slowdown_%s %.2f x\n", tags[m],
                   before_cpu > 0 ? after_cpu / before_cpu : 0);
            printf("BENCH rowlevel_read_slowdown_%s_wall %.2f x\n", tags[m],
                   before > 0 ? after / before : 0);
        }
        floe_table_free(t);
        if (m == 2)
            spark_dv(dir, ident, start.snapshot_id, wall, after);
    }
    floe_catalog_free(c);
    return bs_remove(dir) < 0 ? 1 : 0;
}
