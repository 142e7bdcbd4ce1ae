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
 * the machine's other load disturbs least). The v3 DELETE is the median of
 * 5 runs, each from the same snapshot (rolled back to it in between).
 * Then the v3 case again in Spark local[2] on the same table, in the same
 * run and one Spark session (bench/maint_vs_spark.py: rolled back to the
 * snapshot floe's DELETE started from; a warm-up read, 5 reads before, then
 * 5 times: roll back, the DELETE — deletion vectors, as the table is v3 and
 * merge-on-read — and the read after), each Spark figure the median of its
 * 5 runs: RATIO floe / Spark for the DV delete and for the next full read.
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

enum { RUNS = 5 };

/* The median of RUNS values (sorts them). */
static double median(double *v)
{
    qsort(v, RUNS, sizeof *v, cmp_d);
    return v[RUNS / 2];
}

/* Median wall and CPU seconds of 5 full scans after one warm-up scan. */
static void scan_median(floe_table *t, int64_t *rows, double *wall, double *cpu)
{
    double w[RUNS], c[RUNS];
    (void)bs_scan_rows(t, rows);
    for (int i = 0; i < RUNS; i++) {
        double c0 = cpu_now_s();
        w[i] = bs_scan_rows(t, rows);
        c[i] = cpu_now_s() - c0;
    }
    *wall = median(w);
    *cpu = median(c);
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
    char read[128], del[128], warm[160], back[200], refresh[128], dvs[200];
    snprintf(read, sizeof read, "SELECT sum(id), sum(v), sum(x) FROM local.%s", ident);
    snprintf(warm, sizeof warm, "warmup:%s", read);
    snprintf(del, sizeof del, "DELETE FROM local.%s WHERE v = 7", ident);
    snprintf(back, sizeof back, "warmup:CALL local.system.rollback_to_snapshot('%s', %lld)",
             ident, (long long)start);
    snprintf(refresh, sizeof refresh, "warmup:REFRESH TABLE local.%s", ident);
    /* and what Spark's last DELETE wrote (its added-dvs) */
    snprintf(dvs, sizeof dvs,
             "SELECT summary['added-dvs'] AS added_dvs FROM local.%s.snapshots "
             "ORDER BY committed_at DESC LIMIT 1",
             ident);
    /* timed: RUNS reads before, then RUNS times (DELETE, read after), the summary */
    const char *stmts[2 + RUNS + 4 * RUNS];
    size_t n = 0;
    stmts[n++] = warm;
    for (int i = 0; i < RUNS; i++)
        stmts[n++] = read;
    for (int i = 0; i < RUNS; i++) {
        if (i > 0) {
            stmts[n++] = back;
            stmts[n++] = refresh;
        }
        stmts[n++] = del;
        stmts[n++] = read;
    }
    stmts[n++] = dvs;
    double secs[FLOE_ARRAY_LEN(stmts)];
    for (size_t i = 0; i < n; i++)
        secs[i] = -1;
    if (bs_spark_run(dir, ident, (long long)start, stmts, n, secs) != 3 * RUNS + 1)
        return;
    double before[RUNS], dels[RUNS], after[RUNS];
    for (int i = 0; i < RUNS; i++) {
        before[i] = secs[i];
        dels[i] = secs[RUNS + 2 * i];
        after[i] = secs[RUNS + 2 * i + 1];
    }
    double b = median(before), d = median(dels), a = median(after);
    printf("BENCH rowlevel_read_before_mor_dv_spark %.3f s\n", b);
    printf("BENCH rowlevel_delete_mor_dv_spark_wall %.3f s\n", d);
    printf("BENCH rowlevel_read_after_mor_dv_spark %.3f s\n", a);
    printf("BENCH rowlevel_read_slowdown_mor_dv_spark %.2f x\n", b > 0 ? a / b : 0);
    if (d > 0)
        printf("RATIO rowlevel_delete_mor_dv %.3f spark\n", floe_delete / d);
    if (a > 0)
        printf("RATIO rowlevel_read_after_mor_dv %.3f spark\n", floe_after / a);
}

/* DELETE WHERE v = 7: its wall seconds, or -1. */
static double delete_once(floe_table *t, floe_rowlevel_stats *st)
{
    double t0 = bs_now_s();
    floe_rowlevel *op = NULL;
    int rc = floe_rowlevel_new(&op, t, NULL);
    if (rc == 0)
        rc = floe_rowlevel_delete_where(op, "v = 7");
    if (rc == 0)
        rc = floe_rowlevel_commit(NULL, st, op);
    floe_rowlevel_free(op);
    if (rc < 0) {
        fprintf(stderr, "delete: %s\n", floe_error_last()->message);
        return -1;
    }
    return bs_now_s() - t0;
}

/* The DELETE, or for the v3 table (`runs` = RUNS) the median of RUNS of
 * them, each from `start` (rolled back to it in between). */
static double delete_median(floe_table *t, int64_t start, int runs, floe_rowlevel_stats *st)
{
    double w[RUNS];
    for (int i = 0; i < runs; i++) {
        if (i > 0 && floe_table_rollback_to_snapshot(NULL, NULL, t, start) < 0) {
            fprintf(stderr, "rollback: %s\n", floe_error_last()->message);
            return -1;
        }
        if ((w[i] = delete_once(t, st)) < 0)
            return -1;
    }
    return runs == RUNS ? median(w) : w[0];
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
        floe_rowlevel_stats st;
        double wall = delete_median(t, start.snapshot_id, m == 2 ? RUNS : 1, &st);
        if (wall < 0)
            return 1;
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
