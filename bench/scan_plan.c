/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scan planning benchmark (issue 6): a synthetic table of NFILES data files
 * in NMAN manifests (default 1,000,000 in 1,000), generated with the real
 * manifest and manifest-list writers into a temporary directory (data files
 * are described, not written). Measures a full plan and a plan filtered to
 * one partition (identity(cat); each manifest holds one category).
 *
 *   bench_scan_plan [NFILES [NMAN]]
 *
 * Prints entries/s, wall time, peak RSS growth during planning (per
 * planned file) and the number of manifests opened.
 * Targets: >= 2M entries/s full plan on 2 cores; the filtered plan opens
 * <= 2% of manifests; <= 1 KB of RSS per planned file.
 */
#include "../tests/unit/scan/gentable.h"
#include "bench_mem.h"
#include "floe/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static int plan(const char *meta, const char *filter, const char *label, int64_t nfiles)
{
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.filter = filter;
    long base = bm_status_kb("VmRSS:");
    struct rusage u0, u1;
    getrusage(RUSAGE_SELF, &u0);
    bm_reset_peak();
    int64_t t0 = floe__mono_ns();
    floe_scan *s;
    int rc = floe_scan_open(&s, NULL, meta, &o);
    int64_t t1 = floe__mono_ns();
    if (rc < 0) {
        fprintf(stderr, "plan failed: %s\n", floe_error_last()->message);
        return rc;
    }
    getrusage(RUSAGE_SELF, &u1);
    double cpu = (double)(u1.ru_utime.tv_sec - u0.ru_utime.tv_sec) +
                 (double)(u1.ru_utime.tv_usec - u0.ru_utime.tv_usec) / 1e6 +
                 (double)(u1.ru_stime.tv_sec - u0.ru_stime.tv_sec) +
                 (double)(u1.ru_stime.tv_usec - u0.ru_stime.tv_usec) / 1e6;
    long peak = bm_status_kb("VmHWM:");
    const floe_scan_report *r = floe_scan_get_report(s);
    double wall = (double)(t1 - t0) / 1e9;
    int64_t opened = r->manifests_total - r->manifests_skipped;
    double per_file = r->tasks ? (double)(peak - base) * 1024.0 / (double)r->tasks : 0;
    printf("%s: %lld manifests opened of %lld, %lld entries read, %lld tasks, %.3f s\n", label,
           (long long)opened, (long long)r->manifests_total, (long long)r->data_files_total,
           (long long)r->tasks, wall);
    printf("BENCH scan_plan_%s_entries_per_s %.0f entries/s\n", label,
           (double)r->data_files_total / wall);
    printf("BENCH scan_plan_%s_wall %.3f s\n", label, wall);
    printf("BENCH scan_plan_%s_cpu %.3f s\n", label, cpu);
    printf("BENCH scan_plan_%s_entries_per_cpu_s %.0f entries/s\n", label,
           cpu > 0 ? (double)r->data_files_total / cpu : 0.0);
    printf("BENCH scan_plan_%s_peak_rss_growth %.1f MB\n", label, (double)(peak - base) / 1024.0);
    printf("BENCH scan_plan_%s_rss_per_planned_file %.0f bytes\n", label, per_file);
    printf("BENCH scan_plan_%s_manifests_opened_pct %.2f %%\n", label,
           100.0 * (double)opened / (double)r->manifests_total);
    (void)nfiles;
    floe_scan_free(s);
    return 0;
}

int main(int argc, char **argv)
{
    int64_t nfiles = argc > 1 ? atoll(argv[1]) : 1000000;
    int nman = argc > 2 ? atoi(argv[2]) : 1000;
    if (nman < 1 || nfiles < nman) {
        fprintf(stderr, "usage: %s [NFILES [NMAN]]\n", argv[0]);
        return 2;
    }
    /* FLOE_BENCH_SCAN_DIR: reuse (or keep) a generated table there */
    const char *keep = getenv("FLOE_BENCH_SCAN_DIR");
    char dir[1024] = "/tmp/floe-bench-scan-plan-XXXXXX";
    char probe[1200];
    bool exists = false;
    if (keep) {
        snprintf(dir, sizeof dir, "%s", keep);
        snprintf(probe, sizeof probe, "%s/metadata/v1.metadata.json", dir);
        exists = access(probe, R_OK) == 0;
    } else if (!mkdtemp(dir)) {
        return 1;
    }
    int64_t t0 = floe__mono_ns();
    int rc = exists ? 0 : gt_make_table(dir, nman, (int)(nfiles / nman), 1000, false, true);
    int64_t t1 = floe__mono_ns();
    if (rc < 0) {
        fprintf(stderr, "generate: %s\n", floe_error_last() ? floe_error_last()->message : "?");
        return 1;
    }
    printf("generated %lld files in %d manifests in %.1f s (%s)\n", (long long)nfiles, nman,
           (double)(t1 - t0) / 1e9, dir);
    char meta[1200], filter[64];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    snprintf(filter, sizeof filter, "cat = 'c%05d'", nman / 2);
    rc = plan(meta, NULL, "full", nfiles);
    if (rc == 0)
        rc = plan(meta, filter, "filtered", nfiles);
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (!keep && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc == 0 ? 0 : 1;
}
