/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/table_rollback_size (issue 7): rollback latency must be flat in
 * data size; the metadata.json rewrite is the only cost. Two synthetic
 * tables with the same shape (NSNAP snapshots in one chain, NMAN manifests
 * of NFILES data files each, written with the real manifest and
 * manifest-list writers by tests/unit/scan/gentable.h) whose manifests
 * claim ~1 MiB and ~10 GiB of data (file_size_in_bytes and record_count
 * add up to the target). The data files do not exist: rollback must never
 * open them, and the bench proves it through a counting FileIO (any open of
 * a data path, or any output other than exactly one metadata.json per
 * rollback, fails the run with exit 1).
 *
 * Measures rollback_to_snapshot / set_current_snapshot alternating (both
 * metadata-only commits), interleaving the two tables run by run so that
 * machine noise hits both alike. Output: BENCH <name> <value> <unit>.
 */
#include "../tests/unit/scan/gentable.h"
#include "bench_tables.h"
#include "floe/scan.h"
#include "floe/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NSNAP = 100, NMAN = 8, NFILES = 10, NDATA = NMAN * NFILES, RUNS = 41 };

static char g_dir[128];

typedef struct sized {
    const char *name; /* "1mb", "10gb" */
    int64_t target;   /* bytes the manifests should claim */
    int64_t rows;     /* record_count per data file */
    floe_fileio io;   /* counting wrapper around the local FileIO */
    bt_counting count;
    floe_table *t;
    int64_t lat[RUNS];
} sized;

static int fail(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "table_rollback_size: %s: %s\n", what, e ? e->message : "?");
    exit(1);
}

/* gentable describes a file of `rows` rows as 1024 + 8 * rows bytes */
static int64_t claimed_bytes(int64_t rows)
{
    return (int64_t)NDATA * (1024 + rows * 8);
}

static void make(floe_catalog *c, floe_fileio *local, sized *s)
{
    char loc[600], ident[64], file[700], list[700];
    snprintf(loc, sizeof loc, "%s/b.db/t%s", g_dir, s->name);
    snprintf(ident, sizeof ident, "b.t%s", s->name);
    snprintf(file, sizeof file, "%s/metadata/00000-bench.metadata.json", loc);
    snprintf(list, sizeof list, "%s/metadata/snap-1.avro", loc);
    s->rows = (s->target / NDATA - 1024) / 8;
    /* manifests + manifest list (its v1.metadata.json is not used) */
    if (gt_make_table(loc, NMAN, NFILES, s->rows, false, false) < 0)
        fail("generate");
    floe_buf b = FLOE_BUF_INIT;
    bt_chain_metadata(&b, loc, NSNAP, list, claimed_bytes(s->rows) / NSNAP, GT_SCHEMA_JSON, 3);
    if (floe_fileio_write_new(local, file, b.ptr, b.len) < 0 ||
        floe_catalog_register_table(c, ident, file) < 0)
        fail("register");
    floe__buf_free(&b);
    bt_counting_init(&s->count, &s->io, local);
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = &s->io;
    if (floe_table_load(&s->t, c, ident, &o) < 0)
        fail("load");
    /* the manifests really claim the target: plan the current snapshot */
    floe_scan *scan;
    if (floe_scan_open_table(&scan, s->t, NULL) < 0)
        fail("plan");
    const floe_scan_report *r = floe_scan_get_report(scan);
    if (r->tasks != NDATA || r->records_planned != NDATA * s->rows) {
        fprintf(stderr, "table_rollback_size: %s plans %lld files, %lld rows\n", s->name,
                (long long)r->tasks, (long long)r->records_planned);
        exit(1);
    }
    floe_scan_free(scan);
    printf("%s table: %d snapshots, %d manifests, %d data files, %lld rows, %.2f MiB claimed\n",
           s->name, NSNAP, NMAN, NDATA, (long long)(NDATA * s->rows),
           (double)claimed_bytes(s->rows) / 1048576.0);
}

int main(void)
{
    const char *root = getenv("FLOE_BENCH_DIR");
    snprintf(g_dir, sizeof g_dir, "%s/floe-bench-rollback-%d", root ? root : "/tmp", (int)getpid());
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/b.db", g_dir, g_dir);
    if (system(cmd) != 0)
        return 1;
    char db[300];
    snprintf(db, sizeof db, "%s/catalog.db", g_dir);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = g_dir;
    floe_catalog *c = NULL;
    floe_fileio *local = NULL;
    if (floe_catalog_open_sql(&c, db, &co) < 0 || floe_catalog_create_namespace(c, "b", NULL) < 0 ||
        floe_fileio_local_new(&local) < 0)
        fail("catalog");
    static sized tabs[2] = {{.name = "1mb", .target = 1LL << 20},
                            {.name = "10gb", .target = 10LL << 30}};
    for (int k = 0; k < 2; k++)
        make(c, local, &tabs[k]);
    int64_t prev = BT_BASE_ID + NSNAP - 2, head = BT_BASE_ID + NSNAP - 1;
    for (int k = 0; k < 2; k++)
        bt_counts_reset(&tabs[k].count);
    for (int i = 0; i < RUNS; i++) {
        for (int k = 0; k < 2; k++) {
            sized *s = &tabs[(i + k) % 2]; /* alternate which table goes first */
            int64_t t0 = floe__mono_ns();
            int rc = (i % 2 == 0) ? floe_table_rollback_to_snapshot(NULL, NULL, s->t, prev)
                                  : floe_table_set_current_snapshot(NULL, NULL, s->t, head);
            s->lat[i] = floe__mono_ns() - t0;
            if (rc < 0)
                fail("rollback");
        }
    }
    int bad = 0;
    double med[2];
    for (int k = 0; k < 2; k++) {
        sized *s = &tabs[k];
        bt_counts *n = &s->count.n;
        printf("%s: per rollback %.2f objects opened (%ld data files, %ld manifests or lists), "
               "%.2f files written (%.2f metadata.json)\n",
               s->name, (double)n->opens / RUNS, (long)n->opens_data, (long)n->opens_manifest,
               (double)n->outputs / RUNS, (double)n->outputs_json / RUNS);
        if (n->opens_data != 0 || n->outputs != RUNS || n->outputs_json != RUNS) {
            fprintf(stderr, "table_rollback_size: %s: rollback touched more than its metadata\n",
                    s->name);
            bad = 1;
        }
        med[k] = bt_median_ms(s->lat, RUNS);
        printf("BENCH rollback_%s %.2f ms\n", s->name, med[k]);
    }
    printf("BENCH rollback_10gb_over_1mb %.2f x\n", med[1] / med[0]);
    printf("BENCH rollback_files_written_per_commit %.0f files\n",
           (double)tabs[0].count.n.outputs / RUNS);
    for (int k = 0; k < 2; k++)
        floe_table_free(tabs[k].t);
    floe_fileio_free(local);
    floe_catalog_free(c);
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        return 1;
    return bad;
}
