/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Setup shared by the benches that build real tables (header-only, bench/
 * only): a fresh warehouse with a SQLite catalog and namespace `b`, Arrow
 * batches from a per-cell value function, a full scan counting rows, a
 * monotonic clock, and the Spark peer (bench/maint_vs_spark.py in the
 * peer venv) for the paired maintenance benches.
 * Used by bench/maint_compact.c, bench/maint_manifests.c and bench/rowlevel.c.
 */
#ifndef FLOE_BENCH_SETUP_H
#define FLOE_BENCH_SETUP_H

#include "arrow/arrow.h"
#include "floe/catalog.h"
#include "floe/scan.h"
#include "floe/table.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double bs_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A fresh directory $TMPDIR/floe-bench-<tag>-XXXXXX (written to dir) with
 * catalog.db (SQLite catalog, warehouse = dir) and namespace `b`. */
static inline int bs_warehouse(const char *tag, char dir[512], floe_catalog **c)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char db[600];
    snprintf(dir, 512, "%s/floe-bench-%s-XXXXXX", tmp, tag);
    if (!mkdtemp(dir))
        return -1;
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = dir;
    if (floe_catalog_open_sql(c, db, &co) < 0 || floe_catalog_create_namespace(*c, "b", NULL) < 0)
        return -1;
    return 0;
}

static inline int bs_remove(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Rows [from, from + n) of struct type `root`: cell (row, col) from
 * value(row, col, scratch) (scratch: 64 bytes for text values). */
typedef floe_value (*bs_value_fn)(int64_t row, size_t col, char *scratch);

static inline int bs_batch(const floe_type *root, int64_t from, int64_t n, bs_value_fn value,
                           struct ArrowArray *out)
{
    floe_arrow_builder *b = NULL;
    if (floe__arrow_builder_new(&b, root) < 0)
        return -1;
    int rc = 0;
    char scratch[64];
    for (int64_t i = from; rc == 0 && i < from + n; i++) {
        for (size_t c = 0; rc == 0 && c < root->nfields; c++) {
            floe_value v = value(i, c, scratch);
            rc = floe__arrow_builder_append(b->children[c], &v);
        }
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

/* Scan the table's current snapshot (one thread): rows into *rows;
 * returns the seconds it took, -1 when the scan cannot open. */
static inline double bs_scan_rows(floe_table *t, int64_t *rows)
{
    double t0 = bs_now_s();
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.threads = 1;
    floe_scan *s = NULL;
    *rows = 0;
    if (floe_scan_open(&s, floe_table_io(t), floe_table_metadata_location(t), &o) < 0)
        return -1;
    struct ArrowArrayStream st;
    if (floe_scan_to_stream(&st, s) == 0) {
        for (;;) {
            struct ArrowArray b;
            if (st.get_next(&st, &b) != 0 || !b.release)
                break;
            *rows += b.length;
            b.release(&b);
        }
        st.release(&st);
    }
    floe_scan_free(s);
    return bs_now_s() - t0;
}

/* The Spark peer on the same table: bench/maint_vs_spark.py, run by the
 * peer venv's python (~/.cache/floe-peers or $FLOE_PEERS_DIR), rolls the
 * table back to `snapshot` (the state floe started from) and runs the `n`
 * statements in Spark local[2], in order (a `warmup:` prefix: run, not
 * timed). secs[i] gets the i-th timed statement's seconds. Returns the
 * number of timed statements that ran, or -1 (with a note on stdout) when
 * the peer is unavailable or fails. */
static inline int bs_spark_run(const char *warehouse, const char *table, long long snapshot,
                               const char *const *stmts, size_t n, double *secs)
{
    const char *peers = getenv("FLOE_PEERS_DIR");
    char dir[512], py[600], cmd[8000];
    if (!peers) {
        const char *home = getenv("HOME") ? getenv("HOME") : "/root";
        snprintf(dir, sizeof dir, "%s/.cache/floe-peers", home);
        peers = dir;
    }
    snprintf(py, sizeof py, "%s/venv/bin/python", peers);
    if (access(py, X_OK) != 0 || access(FLOE_SOURCE_DIR "/bench/maint_vs_spark.py", R_OK) != 0) {
        printf("# Spark peer unavailable (no %s): no RATIO\n", py);
        return -1;
    }
    int k = snprintf(cmd, sizeof cmd, "FLOE_PEERS_DIR='%s' '%s' '%s' '%s' '%s' %lld", peers, py,
                     FLOE_SOURCE_DIR "/bench/maint_vs_spark.py", warehouse, table, snapshot);
    for (size_t i = 0; i < n && k > 0 && (size_t)k < sizeof cmd; i++)
        k += snprintf(cmd + k, sizeof cmd - (size_t)k, " \"%s\"", stmts[i]);
    if (k <= 0 || (size_t)k + 8 >= sizeof cmd)
        return -1;
    snprintf(cmd + k, sizeof cmd - (size_t)k, " 2>&1");
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char line[4096];
    int got = 0;
    while (fgets(line, sizeof line, p)) {
        /* Spark's stderr shares the pipe: find the markers anywhere in a line */
        const char *m;
        if ((m = strstr(line, "SPARK_SECONDS_"))) {
            char *end = NULL;
            long i = strtol(m + 14, &end, 10);
            if (end && *end == ' ' && i >= 0 && (size_t)i < n) {
                secs[i] = atof(end + 1);
                if (i + 1 > got)
                    got = (int)i + 1;
            }
        } else if ((m = strstr(line, "SPARK_RESULT_")) || (m = strstr(line, "SPARK_ROWS_")) ||
                   (m = strstr(line, "SPARK_ERROR"))) {
            printf("# %s", m);
        }
    }
    int status = pclose(p); /* the JVM's exit status after stop() is not Spark's answer */
    if (got == 0) {
        printf("# Spark peer failed (exit status %d): no RATIO\n", status);
        return -1;
    }
    return got;
}

/* One timed statement (bs_spark_run): Spark's seconds, or -1. */
static inline double bs_spark_seconds(const char *warehouse, const char *table, long long snapshot,
                                      const char *call)
{
    double secs = -1;
    return bs_spark_run(warehouse, table, snapshot, &call, 1, &secs) == 1 ? secs : -1;
}

#endif
