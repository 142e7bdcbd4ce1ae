/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/s3_plan (issue 13): planning a table whose current snapshot has
 * 1,000 manifests stored on S3 — the local S3 of tests/interop/s3_server.mjs
 * (s3rver behind the SigV4-verifying proxy, 127.0.0.1 only) — through the
 * scan API with threads = 1 (one manifest GET after another) and threads =
 * PAR (manifest GETs in parallel). The table (1,000 manifests of 10 data
 * files, a manifest list, a metadata.json) is written with the library's
 * manifest and manifest-list writers by tests/unit/scan/gentable.h, straight
 * through the S3 FileIO; data files are only described.
 *
 * Two passes: loopback as is, and with the proxy delaying every request by
 * 2 ms (a stand-in for the round trip to a real object store). Each figure
 * is the median of REPS plans; every plan must find exactly 10,000 files
 * (exit 1 otherwise). Requests per plan come from the proxy's counters.
 * Prints `BENCH <name> <value> <unit>`; skipped (exit 0) without node or
 * the npm modules.
 */
#include "../tests/unit/s3/s3srv.h"
#include "../tests/unit/scan/gentable.h"
#include "bench_tables.h"
#include "floe/scan.h"
#include "io/s3.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NMAN = 1000, NFILES = 10, PAR = 16, REPS = 3 };

#define TABLE "s3://bucket/wh/plan1000"

static floe_fileio *g_io;

static int put_s3(const char *path, const void *p, size_t n)
{
    return floe_fileio_write_new(g_io, path, p, n);
}

static int fail(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "s3_plan: %s: %s\n", what, e ? e->message : "?");
    return 1;
}

/* Median wall time of REPS plans with `threads`; checks the file count. */
static int plan(int threads, double *ms, long *requests, const s3srv *srv)
{
    int64_t lat[REPS];
    long before = s3srv_stat(srv, "verified");
    for (int r = 0; r < REPS; r++) {
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.threads = threads;
        floe_scan *s = NULL;
        int64_t t0 = floe__mono_ns();
        int rc = floe_scan_open(&s, g_io, TABLE "/metadata/v1.metadata.json", &o);
        lat[r] = floe__mono_ns() - t0;
        if (rc < 0)
            return fail("plan");
        size_t n = floe_scan_task_count(s);
        floe_scan_free(s);
        if (n != (size_t)NMAN * NFILES) {
            fprintf(stderr, "s3_plan: threads=%d planned %zu files, expected %d\n", threads, n,
                    NMAN * NFILES);
            return 1;
        }
    }
    *requests = (s3srv_stat(srv, "verified") - before) / REPS;
    *ms = bt_median_ms(lat, REPS);
    return 0;
}

int main(void)
{
    if (!s3srv_available()) {
        printf("s3_plan: skipped (node or tests/interop/node_modules absent)\n");
        return 0;
    }
    s3srv srv;
    if (s3srv_start(&srv) != 0) {
        fprintf(stderr, "s3_plan: could not start the local S3\n");
        return 1;
    }
    floe_props p = FLOE_PROPS_INIT;
    s3srv_props(&srv, &p);
    int rc = 1;
    if (floe__s3_fileio_new(&p, &g_io) < 0) {
        fail("open");
        goto out;
    }
    int64_t t0 = floe__mono_ns();
    gt_write_hook = put_s3;
    if (gt_make_table(TABLE, NMAN, NFILES, 1000, false, true) < 0) {
        fail("generate");
        goto out;
    }
    gt_write_hook = NULL;
    printf("wrote %d manifests of %d files to S3 in %.1f s\n", NMAN, NFILES,
           (double)(floe__mono_ns() - t0) / 1e9);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            char buf[4096];
            s3srv_control(&srv, "/__floe/fault?mode=slow&ms=2&count=1000000", buf);
        }
        double seq, par, dflt;
        long rseq, rpar, rdflt;
        if (plan(1, &seq, &rseq, &srv) || plan(PAR, &par, &rpar, &srv) ||
            plan(0, &dflt, &rdflt, &srv))
            goto out;
        const char *sfx = pass ? "_rtt2ms" : "";
        printf("requests per plan: %ld (threads=1), %ld (threads=%d), %ld (threads=0)\n", rseq,
               rpar, PAR, rdflt);
        printf("BENCH s3_plan_1000_manifests_seq%s %.0f ms\n", sfx, seq);
        printf("BENCH s3_plan_1000_manifests_par%s %.0f ms\n", sfx, par);
        printf("BENCH s3_plan_1000_manifests_default%s %.0f ms\n", sfx, dflt);
        printf("BENCH s3_plan_1000_manifests_speedup%s %.2f x\n", sfx, seq / par);
    }
    rc = 0;
out:
    gt_write_hook = NULL;
    if (g_io)
        g_io->ops->free(g_io);
    floe__props_free(&p);
    s3srv_stop(&srv);
    return rc;
}
