/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/native_ops: floe's side of bench/native_peers.sh, the same
 * operations as its iceberg-go and iceberg-rust programs (bench/go,
 * bench/rust) with the same protocol: one warm-up run, then RUNS runs, and
 * one line
 *
 *   PEER <op> <median wall ms> <median process CPU ms> <count>
 *
 * (count: entries, snapshots, tasks or rows, compared with the peers').
 *
 *   bench_native_ops manifest RUNS FILE            decode every entry of a manifest
 *   bench_native_ops metadata RUNS FILE            parse a metadata.json held in memory
 *   bench_native_ops plan RUNS METADATA [CAT]      floe_scan_open (filter cat = 'CAT')
 *   bench_native_ops files RUNS METADATA           the files metadata table, every column
 *   bench_native_ops commit RUNS METADATA DIR      set one table property (SQLite catalog)
 *   bench_native_ops expire RUNS METADATA DIR KEEP expire_snapshots keeping KEEP
 *   bench_native_ops chain LOCATION N              write a table of N snapshots, print its file
 *
 * Without arguments (as scripts/bench.sh runs every bench_*) it only says
 * where it is used.
 */
#include "bench_tables.h"
#include "floe/maint.h"
#include "floe/scan.h"
#include "floe/table.h"
#include "io/io.h"
#include "meta/meta.h"
#include "spec/metadata.h"
#include "table/table.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int die(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "bench_native_ops: %s: %s\n", what, e ? e->message : "?");
    exit(1);
}

typedef int64_t (*op_fn)(int run, void *payload);
typedef void (*setup_fn)(int run, void *payload);

/* Warm-up plus `runs` timed runs of fn (setup, untimed, before each). */
static void measure(const char *op, int runs, setup_fn setup, op_fn fn, void *payload)
{
    int64_t *wall = calloc((size_t)runs, sizeof *wall), *cpu = calloc((size_t)runs, sizeof *cpu);
    int64_t count = -1;
    if (!wall || !cpu)
        die("calloc");
    for (int i = 0; i <= runs; i++) {
        if (setup)
            setup(i, payload);
        int64_t t0 = floe__mono_ns(), c0 = cpu_ns();
        int64_t n = fn(i, payload);
        int64_t w = floe__mono_ns() - t0, c = cpu_ns() - c0;
        if (n < 0)
            die(op);
        if (i > 0 && n != count) {
            fprintf(stderr, "bench_native_ops: %s: count %lld then %lld\n", op, (long long)count,
                    (long long)n);
            exit(1);
        }
        count = n;
        if (i > 0) {
            wall[i - 1] = w;
            cpu[i - 1] = c;
        }
    }
    printf("PEER %s %.3f %.3f %lld\n", op, bt_median_ms(wall, runs), bt_median_ms(cpu, runs),
           (long long)count);
    free(wall);
    free(cpu);
}

typedef struct job {
    char **arg;
    floe_buf data;
    floe_catalog *cat;
    floe_table *table;
    char dir[1024];
} job;

static int64_t op_manifest(int run, void *p)
{
    (void)run;
    job *j = p;
    return bt_decode_manifest(j->data.ptr, j->data.len, j->arg[0]);
}

static int64_t op_metadata(int run, void *p)
{
    (void)run;
    job *j = p;
    floe_table_metadata *m;
    if (floe__metadata_parse(&m, j->data.ptr, j->data.len, j->arg[0]) < 0)
        return -1;
    int64_t n = (int64_t)m->nsnapshots;
    floe__metadata_free(m);
    return n;
}

static int64_t op_plan(int run, void *p)
{
    (void)run;
    job *j = p;
    char filter[256];
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    if (j->arg[1]) {
        snprintf(filter, sizeof filter, "cat = '%s'", j->arg[1]);
        o.filter = filter;
    }
    floe_scan *s;
    if (floe_scan_open(&s, NULL, j->arg[0], &o) < 0)
        return -1;
    int64_t n = floe_scan_get_report(s)->tasks;
    floe_scan_free(s);
    return n;
}

/* Every column of every row, as iceberg-go's Inspect().Files builds them. */
static int64_t op_files(int run, void *p)
{
    (void)run;
    job *j = p;
    floe_table_metadata *m;
    floe_fileio *io;
    if (floe__metadata_read_file(&m, j->arg[0]) < 0 || floe_fileio_local_new(&io) < 0)
        return -1;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    o.io = io;
    floe_rowsource *rs;
    floe_rowcursor *c;
    if (floe__meta_open(&rs, "files", &o) < 0 || floe__rs_open(rs, NULL, 0, &c) < 0)
        return -1;
    int64_t rows = 0;
    int rc;
    while ((rc = floe__rs_next(c)) == 0) {
        floe_rs_cell cell;
        for (size_t i = 0; i < rs->ncolumns; i++)
            if (floe__rs_column(c, i, &cell) < 0)
                return -1;
        rows++;
    }
    floe__rs_close(c);
    floe__rs_free(rs);
    floe_fileio_free(io);
    floe__metadata_free(m);
    return rc == FLOE_ITEROVER ? rows : -1;
}

static void open_catalog(job *j)
{
    char db[1200];
    snprintf(db, sizeof db, "%s/floe-catalog.db", j->dir);
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = j->dir;
    if (floe_catalog_open_sql(&j->cat, db, &o) < 0)
        die("catalog");
    if (floe_catalog_namespace_exists(j->cat, "b") == 0 &&
        floe_catalog_create_namespace(j->cat, "b", NULL) < 0)
        die("namespace");
}

/* Register the table of arg[0] as b.<name><run> and load it. */
static void register_table(job *j, const char *name, int run)
{
    char ident[64];
    snprintf(ident, sizeof ident, "b.%s%d", name, run);
    floe_table_free(j->table);
    j->table = NULL;
    if (floe_catalog_register_table(j->cat, ident, j->arg[0]) < 0 ||
        floe_table_load(&j->table, j->cat, ident, NULL) < 0)
        die("register");
}

static int64_t op_commit(int run, void *p)
{
    job *j = p;
    char v[32];
    snprintf(v, sizeof v, "%d", run);
    floe_props set = FLOE_PROPS_INIT;
    if (floe__props_set(&set, "bench.n", v) < 0 ||
        floe_table_update_properties(j->table, &set, NULL, 0) < 0)
        return -1;
    floe__props_free(&set);
    return (int64_t)j->table->metadata->nsnapshots;
}

static void setup_expire(int run, void *p)
{
    register_table(p, "expire", run);
}

static int64_t op_expire(int run, void *p)
{
    (void)run;
    job *j = p;
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.retain_last = atoi(j->arg[2]);
    o.has_older_than = true;
    o.older_than_ms = INT64_MAX / 2;
    floe_maint_expire_result res;
    if (floe_maint_table_expire_snapshots(&res, j->table, &o) < 0)
        return -1;
    return (int64_t)j->table->metadata->nsnapshots;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("# bench_native_ops is run by bench/native_peers.sh (floe vs iceberg-go, "
               "iceberg-rust)\n");
        return 0;
    }
    const char *op = argv[1];
    if (strcmp(op, "chain") == 0 && argc == 4) {
        char file[1200];
        if (bt_write_chain_table(argv[2], atoi(argv[3]), file, sizeof file) < 0)
            die("chain");
        printf("%s\n", file);
        return 0;
    }
    int runs = argc > 3 ? atoi(argv[2]) : 0;
    if (runs < 1) {
        fprintf(stderr, "usage: bench_native_ops <op> <runs> <args...> (see bench/native_ops.c)\n");
        return 2;
    }
    job j = {.arg = argv + 3, .data = FLOE_BUF_INIT};
    int nargs = argc - 3;
    if (strcmp(op, "manifest") == 0 || strcmp(op, "metadata") == 0) {
        floe_fileio *io;
        if (floe_fileio_local_new(&io) < 0 || floe__io_read_all(io, argv[3], SIZE_MAX, &j.data) < 0)
            die(argv[3]);
        floe_fileio_free(io);
        measure(op, runs, NULL, op[1] == 'a' ? op_manifest : op_metadata, &j);
    } else if (strcmp(op, "plan") == 0) {
        measure(op, runs, NULL, op_plan, &j);
    } else if (strcmp(op, "files") == 0) {
        measure(op, runs, NULL, op_files, &j);
    } else if (strcmp(op, "commit") == 0 && nargs == 2) {
        snprintf(j.dir, sizeof j.dir, "%s", argv[4]);
        open_catalog(&j);
        register_table(&j, "commit", 0);
        measure(op, runs, NULL, op_commit, &j);
    } else if (strcmp(op, "expire") == 0 && nargs == 3) {
        snprintf(j.dir, sizeof j.dir, "%s", argv[4]);
        open_catalog(&j);
        measure(op, runs, setup_expire, op_expire, &j);
    } else {
        fprintf(stderr, "bench_native_ops: unknown operation or arguments: %s\n", op);
        return 2;
    }
    floe_table_free(j.table);
    floe_catalog_free(j.cat);
    floe__buf_free(&j.data);
    return 0;
}
