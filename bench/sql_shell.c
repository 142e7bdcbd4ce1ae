/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of `floe sql` as a user runs it:
 *   - sql_count_small: `floe sql -c "SELECT count(*) FROM b.small"` on a
 *     3-row table, whole process (fork + exec + catalog + table load + scan
 *     + output), median of 21 runs, wall and CPU time;
 *   - sql_<q>_<N> over N rows (default 10,000,000; FLOE_BENCH_ROWS or
 *     argv[2]) of b.big (id BIGINT, amount DECIMAL(10,2), g INT): count
 *     (`count(*)`), sum, count_sum (`count(*), sum(amount)`), min, max and
 *     avg of amount, where (`count(*), sum(amount) ... WHERE id > N/2`, the
 *     fast aggregates with the filter in the scan) and group_where (`g,
 *     sum(amount) ... WHERE id > N/2 GROUP BY g`, the grouped fast
 *     aggregates), each a whole
 *     `floe sql` process, median of 5 (wall; CPU in the text), against
 *     DuckDB reading the same Parquet files (node +
 *     tests/interop/node_modules; its in-process query time, median of 5)
 *     in the same run: RATIO = floe / DuckDB. The fast aggregates also run
 *     through SQLite (`SET floe.fast-aggregates = false`,
 *     sql_<q>_<N>_sqlite): their before/after;
 *   - sql_<q>_<N>_inprocess: the same query in one open session of this
 *     process (this build's library, whatever argv[1] names;
 *     floe_sql_execute, median of 5 after one warm-up), the work
 *     DuckDB's figure measures (a query on an open connection, no process
 *     start-up): RATIO sql_<q>_<N>_inprocess = that time / DuckDB's. For
 *     count(*), answered from the manifests, the process figure is
 *     start-up only (as sql_count_small's).
 * argv[1] (or FLOE_BIN) is the floe binary (default ./floe next to this
 * benchmark). Prints SKIP when the build cannot create or read tables.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "floe/sql.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double child_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static char floe_bin[1024], wh[256];

/* Run floe sql with one -c; output to /dev/null unless `out` (first line of
 * the second row of csv). Returns the exit status. */
static int floe_sql(const char *sql, char *out, size_t outlen)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' sql --warehouse '%s' --format csv -c \"%s\" 2>/dev/null",
             floe_bin, wh, sql);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, p)) {
        if (++n == 2 && out) {
            size_t len = strcspn(line, "\n");
            if (len >= outlen)
                len = outlen - 1;
            memcpy(out, line, len);
            out[len] = 0;
        }
    }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median wall time of 5 runs of `sql` in session `s` after one warm-up; -1
 * when it fails. */
static double inprocess_s(floe_sql_session *s, const char *sql)
{
    enum { RUNS = 5 };
    double w[RUNS];
    for (int i = -1; i < RUNS; i++) {
        floe_sql_result *r = NULL;
        double t0 = now_s();
        int rc = floe_sql_execute(&r, s, sql);
        double t = now_s() - t0;
        floe_sql_result_free(r);
        if (rc != 0)
            return -1;
        if (i >= 0)
            w[i] = t;
    }
    qsort(w, RUNS, sizeof *w, cmp_double);
    return w[RUNS / 2];
}

int main(int argc, char **argv)
{
    const char *bin = argc > 1 ? argv[1] : getenv("FLOE_BIN");
    if (bin) {
        snprintf(floe_bin, sizeof floe_bin, "%s", bin);
    } else { /* the floe built next to this benchmark */
        const char *slash = strrchr(argv[0], '/');
        int dir = slash ? (int)(slash - argv[0]) : 1;
        snprintf(floe_bin, sizeof floe_bin, "%.*s/floe", dir, slash ? argv[0] : ".");
    }
    long long rows = 10000000;
    const char *rows_env = getenv("FLOE_BENCH_ROWS");
    if (argc > 2)
        rows = atoll(argv[2]);
    else if (rows_env)
        rows = atoll(rows_env);
    snprintf(wh, sizeof wh, "/tmp/floe_bench_sql_%d", (int)getpid());

    if (floe_sql("CREATE NAMESPACE b; CREATE TABLE b.small (id BIGINT, amount DECIMAL(10,2)); "
                 "INSERT INTO b.small VALUES (1, 1.50), (2, 2.25), (3, -1.00)",
                 NULL, 0) != 0 ||
        floe_sql("SELECT count(*) FROM b.small", NULL, 0) != 0) {
        printf("SKIP sql_shell: this build cannot create or read tables\n");
        char rm[512];
        snprintf(rm, sizeof rm, "rm -rf '%s'", wh);
        return system(rm) == 0 ? 0 : 0;
    }
    enum { RUNS = 21 };
    double wall[RUNS], cpu[RUNS];
    for (int i = 0; i < RUNS; i++) {
        double c0 = child_cpu_s(), t0 = now_s();
        floe_sql("SELECT count(*) FROM b.small", NULL, 0);
        wall[i] = now_s() - t0;
        cpu[i] = child_cpu_s() - c0;
    }
    qsort(wall, RUNS, sizeof *wall, cmp_double);
    qsort(cpu, RUNS, sizeof *cpu, cmp_double);
    printf("BENCH sql_count_small_process_wall %.1f ms\n", wall[RUNS / 2] * 1e3);
    printf("BENCH sql_count_small_process_cpu %.1f ms\n", cpu[RUNS / 2] * 1e3);

    char sql[1024], got[256] = "";
    snprintf(sql, sizeof sql,
             "CREATE TABLE b.big (id BIGINT, amount DECIMAL(10,2), g INT); INSERT INTO b.big "
             "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %lld) "
             "SELECT i, (i %% 10000) / 100.0, i %% 16 FROM c",
             rows);
    if (floe_sql(sql, NULL, 0) != 0) {
        printf("SKIP sql_count_sum: cannot load %lld rows\n", rows);
        return 0;
    }
    char where[64];
    snprintf(where, sizeof where, " WHERE id > %lld", rows / 2);
    char group[96];
    snprintf(group, sizeof group, "%s GROUP BY g", where);
    /* SELECT <list> FROM <table><tail>: b.big for floe, its Parquet files
     * for DuckDB; slow: also through SQLite (the fast aggregates off) */
    const struct {
        const char *name, *list, *tail;
        bool slow;
    } queries[] = {
        {"count", "count(*)", "", false},
        {"sum", "sum(amount)", "", true},
        {"count_sum", "count(*), sum(amount)", "", true},
        {"min", "min(amount)", "", true},
        {"max", "max(amount)", "", true},
        {"avg", "avg(amount)", "", true},
        {"where", "count(*), sum(amount)", where, true},
        {"group_where", "g, sum(amount)", group, true},
    };
    char cmd[2048];
    floe_sql_open_options oo = FLOE_SQL_OPEN_OPTIONS_INIT;
    oo.warehouse = wh;
    floe_sql_session *session = NULL;
    if (floe_sql_open(&session, &oo) != 0)
        session = NULL;
    for (size_t q = 0; q < sizeof queries / sizeof queries[0]; q++) {
        enum { BIG_RUNS = 5 };
        double best = 0;
        /* the fast aggregates (exec_fast.c), then the same query through
         * SQLite (the fast path turned off) */
        for (int slow = 0; slow < (queries[q].slow ? 2 : 1); slow++) {
            double w[BIG_RUNS], c[BIG_RUNS];
            char text[1200];
            snprintf(text, sizeof text, "%sSELECT %s FROM b.big%s",
                     slow ? "SET floe.fast-aggregates = false; " : "", queries[q].list,
                     queries[q].tail);
            for (int i = 0; i < BIG_RUNS; i++) {
                double c0 = child_cpu_s(), t0 = now_s();
                floe_sql(text, got, sizeof got);
                w[i] = now_s() - t0;
                c[i] = child_cpu_s() - c0;
            }
            qsort(w, BIG_RUNS, sizeof *w, cmp_double);
            qsort(c, BIG_RUNS, sizeof *c, cmp_double);
            printf("BENCH sql_%s_%lld%s %.3f s (median of %d; cpu %.3f s, %s)\n", queries[q].name,
                   rows, slow ? "_sqlite" : "", w[BIG_RUNS / 2], BIG_RUNS, c[BIG_RUNS / 2], got);
            if (!slow)
                best = w[BIG_RUNS / 2];
        }
        double inproc = -1;
        if (session) {
            char text[1200];
            snprintf(text, sizeof text, "SELECT %s FROM b.big%s", queries[q].list, queries[q].tail);
            if ((inproc = inprocess_s(session, text)) >= 0)
                printf("BENCH sql_%s_%lld_inprocess %.4f s (median of 5, one session)\n",
                       queries[q].name, rows, inproc);
        }
        snprintf(cmd, sizeof cmd,
                 "FLOE_SOURCE_DIR='%s' node '%s/tests/interop/sql_duckdb_query.mjs' "
                 "\"SELECT %s FROM read_parquet('%s/b.db/big/data/*.parquet')%s\" 2>/dev/null",
                 FLOE_SOURCE_DIR, FLOE_SOURCE_DIR, queries[q].list, wh, queries[q].tail);
        FILE *p = popen(cmd, "r");
        double duck = -1;
        if (p) {
            char line[1024];
            if (fgets(line, sizeof line, p)) {
                const char *ns = strstr(line, "\"ns\":");
                if (ns)
                    duck = atof(ns + 5) / 1e9;
            }
            pclose(p);
        }
        if (duck > 0) {
            printf("BENCH sql_%s_%lld_duckdb %.3f s\n", queries[q].name, rows, duck);
            printf("RATIO sql_%s_%lld %.2f duckdb\n", queries[q].name, rows, best / duck);
            if (inproc >= 0)
                printf("RATIO sql_%s_%lld_inprocess %.2f duckdb\n", queries[q].name, rows,
                       inproc / duck);
        } else {
            fprintf(stderr, "DuckDB (node + tests/interop/node_modules) unavailable: floe only\n");
        }
    }
    floe_sql_close(session);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", wh);
    return system(cmd) == 0 ? 0 : 0;
}
