/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of the pointer swap and of publishing one small object: median
 * latency of floe_catalog_commit_table on a SQLite catalog (WAL,
 * synchronous=FULL, so one WAL fsync per commit) and of floe_fileio_write_new
 * of a 4 KiB object on local disk (temp file + fsync + link + directory
 * fsync), the two durable steps of every Iceberg commit.
 *
 * Usage: bench_catalog_commit [dir]  (default: a fresh directory under /tmp)
 */
#include "floe/catalog.h"
#include "floe/io.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUNS = 200 };

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static double median_us(int64_t *ns, int n)
{
    qsort(ns, (size_t)n, sizeof *ns, cmp_i64);
    return (double)ns[n / 2] / 1000.0;
}

int main(int argc, char **argv)
{
    char dir[4096];
    if (argc > 1) {
        snprintf(dir, sizeof dir, "%s", argv[1]);
    } else {
        snprintf(dir, sizeof dir, "/tmp/floe-bench-XXXXXX");
        if (!mkdtemp(dir))
            return 1;
    }
    char db[4200];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog *cat;
    if (floe_catalog_open_sql(&cat, db, NULL) < 0 ||
        floe_catalog_create_namespace(cat, "bench", NULL) < 0 ||
        floe_catalog_register_table(cat, "bench.t", "/t/v0.json") < 0) {
        fprintf(stderr, "setup: %s\n", floe_error_last()->message);
        return 1;
    }
    static int64_t ns[RUNS];
    char prev[64] = "/t/v0.json", next[64];
    for (int i = 0; i < RUNS; i++) {
        snprintf(next, sizeof next, "/t/v%d.json", i + 1);
        int64_t t0 = floe__mono_ns();
        if (floe_catalog_commit_table(cat, "bench.t", prev, next) < 0) {
            fprintf(stderr, "commit: %s\n", floe_error_last()->message);
            return 1;
        }
        ns[i] = floe__mono_ns() - t0;
        memcpy(prev, next, sizeof prev);
    }
    printf("BENCH catalog_commit_cas %.1f us\n", median_us(ns, RUNS));
    floe_catalog_free(cat);

    floe_fileio *io;
    if (floe_fileio_open(&io, dir, NULL) < 0)
        return 1;
    static char payload[4096];
    memset(payload, 'x', sizeof payload);
    for (int i = 0; i < RUNS; i++) {
        char uri[4300];
        snprintf(uri, sizeof uri, "%s/t/metadata/%05d.metadata.json", dir, i);
        int64_t t0 = floe__mono_ns();
        if (floe_fileio_write_new(io, uri, payload, sizeof payload) < 0) {
            fprintf(stderr, "write: %s\n", floe_error_last()->message);
            return 1;
        }
        ns[i] = floe__mono_ns() - t0;
    }
    printf("BENCH local_write_new_4k %.1f us\n", median_us(ns, RUNS));
    floe_fileio_free(io);
    if (argc <= 1) {
        char cmd[4300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            return 1;
    }
    return 0;
}
