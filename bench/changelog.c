/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Changelog benchmark (issue 11): table_changes over NSNAP snapshots of an
 * NROWS-row table where every snapshot changes 1% of the rows (a
 * copy-on-write UPDATE rewriting one data file of NROWS/100 rows: all its
 * rows get a new amount). Default 1,000,000 rows, 100 snapshots.
 *
 *   bench_changelog [NROWS [NSNAP]]
 *
 * The table is written by a child process (tests/unit/incr/hist.h: real
 * Parquet, manifests and manifest lists), so the measuring processes start
 * clean. Two more children each read a changelog through the public API's
 * Arrow stream (counting rows, keeping nothing): the last 10 snapshots and
 * all NSNAP. Each reports wall time and peak RSS (ru_maxrss): streaming
 * means the two peaks are about the same (bounded by the files one
 * snapshot touched), not proportional to the range.
 */
#include "../tests/unit/incr/hist.h"
#include "floe/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int build(const char *dir, int64_t nrows, int nsnap, int64_t *first, char *meta,
                 size_t metalen)
{
    h_table *h = calloc(1, sizeof *h);
    h_init(h, dir, 6000000000000000000LL);
    h->no_model = true;
    int nfiles = 100;
    int64_t per = nrows / nfiles;
    h_row *rows = calloc((size_t)per + 1, sizeof(h_row));
    h_begin(h);
    for (int f = 0; f < nfiles; f++) {
        for (int64_t i = 0; i < per; i++) {
            rows[i].id = f * per + i;
            snprintf(rows[i].status, sizeof rows[i].status, "S%d", (int)(i % 7));
            rows[i].amount = i % 1000;
        }
        if (h_add_data(h, rows, (size_t)per) < 0)
            return -1;
    }
    *first = h_commit(h, "append");
    for (int s = 0; s < nsnap; s++) {
        h_begin(h);
        /* rewrite the oldest live data file with every amount changed */
        size_t fi = 0;
        while (fi < h->nfiles && !(h->files[fi].content == H_DATA && h->files[fi].live))
            fi++;
        h_file *old = &h->files[fi];
        old->live = false;
        old->removed_in = h->cur;
        size_t n = old->n;
        for (size_t i = 0; i < n; i++) {
            rows[i] = old->rows[i];
            rows[i].amount += 1;
        }
        if (h_add_data(h, rows, n) < 0 || h_commit(h, "overwrite") < 0)
            return -1;
    }
    snprintf(meta, metalen, "%s", h->meta);
    free(rows);
    h_free(h);
    free(h);
    return 0;
}

/* Read the changelog of the last `last` snapshots; print wall and RSS. */
static int measure(const char *meta, int64_t start, const char *label, int nsnap)
{
    double t0 = now_s();
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    if (start) {
        o.has_start_snapshot_id = true;
        o.start_snapshot_id = start;
    }
    floe_changelog *cl;
    if (floe_changelog_open(&cl, NULL, meta, &o) < 0) {
        fprintf(stderr, "open: %s\n", floe_error_last()->message);
        return 1;
    }
    struct ArrowArrayStream st;
    if (floe_changelog_to_stream(&st, cl) < 0)
        return 1;
    int64_t nrows = 0;
    for (;;) {
        struct ArrowArray b;
        if (st.get_next(&st, &b) != 0) {
            fprintf(stderr, "read: %s\n", st.get_last_error(&st));
            return 1;
        }
        if (!b.release)
            break;
        nrows += b.length;
        b.release(&b);
    }
    st.release(&st);
    floe_changelog_free(cl);
    double wall = now_s() - t0;
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf("BENCH changelog_%s_wall %.3f s (%d snapshots, %lld change rows)\n", label, wall, nsnap,
           (long long)nrows);
    printf("BENCH changelog_%s_rows_per_s %.0f rows/s\n", label, (double)nrows / wall);
    printf("BENCH changelog_%s_peak_rss %.1f MB\n", label, (double)u.ru_maxrss / 1024.0);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int64_t nrows = argc > 1 ? atoll(argv[1]) : 1000000;
    int nsnap = argc > 2 ? atoi(argv[2]) : 100;
    if (nrows < 100 || nsnap < 10 || nsnap > 250) {
        fprintf(stderr, "usage: bench_changelog [NROWS>=100 [10<=NSNAP<=250]]\n");
        return 2;
    }
    char dir[] = "/tmp/floe-bench-changelog-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char metafile[600];
    snprintf(metafile, sizeof metafile, "%s/.meta", dir);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        char meta[1200];
        int64_t first;
        if (build(dir, nrows, nsnap, &first, meta, sizeof meta) < 0)
            _exit(1);
        FILE *f = fopen(metafile, "w");
        fprintf(f, "%s\n%lld\n", meta, (long long)first);
        fclose(f);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 1;
    printf("BENCH changelog_build %.1f s (%lld rows, %d snapshots of 1%% changes)\n", now_s() - t0,
           (long long)nrows, nsnap);
    fflush(stdout);
    char meta[1200];
    long long first;
    FILE *f = fopen(metafile, "r");
    if (!f || fscanf(f, "%1199s %lld", meta, &first) != 2)
        return 1;
    fclose(f);
    /* the last 10 snapshots: start = the one before them */
    int64_t start10 = 6000000000000000000LL + (int64_t)(nsnap - 10) * 7919 + 13;
    struct {
        int64_t start;
        const char *label;
        int n;
    } runs[2] = {{start10, "last10", 10}, {first, "all", nsnap}};
    int rc = 0;
    for (int r = 0; r < 2; r++) {
        pid = fork();
        if (pid == 0)
            _exit(measure(meta, runs[r].start, runs[r].label, runs[r].n));
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            rc = 1;
    }
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
