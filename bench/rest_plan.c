/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of server-side scan planning on `floe serve --warehouse DIR`
 * (the SQLite backend in process, loopback): a synthetic table of NFILES
 * data files in NMAN manifests (identity-partitioned by `cat`, one category
 * per manifest; tests/unit/scan/gentable.h), registered in the warehouse.
 * Median over RUNS of:
 *   - local planning (floe_scan_open on the metadata file, this process),
 *   - POST .../plan over HTTP (libcurl, keep-alive; the server plans and
 *     writes every chunk), with the response bytes,
 *   - floe's REST client with scan-planning-mode=server end to end
 *     (floe_scan_open_table: POST .../plan, POST .../tasks per chunk,
 *     reading the tasks back),
 * for the full table and for one partition.
 *   bench_rest_plan [NFILES [NMAN [RUNS]]]   (default 10000 100 7)
 */
#include "../tests/unit/scan/gentable.h"
#include "bench_tables.h"
#include "floe/scan.h"
#include "floe/table.h"
#include "http_sink.h"
#include "rest/server.h"

#include "lazy/curl.h"
#include <stdio.h>
#include <stdlib.h>

static char base[128];

static long post(CURL *c, const char *path, const char *body, size_t *bytes)
{
    char url[512];
    snprintf(url, sizeof url, "%s%s", base, path);
    return http_call(c, "POST", url, body, NULL, bytes, NULL);
}

static void report(const char *what, const char *label, int64_t *ns, int runs)
{
    printf("BENCH rest_plan_%s_%s_median %.2f ms\n", what, label, bt_median_ms(ns, runs));
}

static int bench(const char *meta, floe_table *remote, CURL *c, const char *label,
                 const char *filter, const char *filter_json, int runs, int64_t *ns)
{
    size_t ntasks = 0;
    for (int i = 0; i < runs; i++) { /* local planning */
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.filter = filter;
        floe_scan *s = NULL;
        int64_t t0 = floe__mono_ns();
        if (floe_scan_open(&s, NULL, meta, &o) < 0)
            return -1;
        ns[i] = floe__mono_ns() - t0;
        ntasks = floe_scan_task_count(s);
        floe_scan_free(s);
    }
    printf("# %s: %zu tasks\n", label, ntasks);
    report("local", label, ns, runs);
    char body[256];
    snprintf(body, sizeof body, "{%s%s}", filter_json ? "\"filter\":" : "",
             filter_json ? filter_json : "");
    size_t bytes = 0;
    for (int i = 0; i < runs; i++) { /* the endpoint */
        int64_t t0 = floe__mono_ns();
        if (post(c, "/namespaces/bench/tables/t/plan", body, &bytes) != 200)
            return -1;
        ns[i] = floe__mono_ns() - t0;
    }
    report("endpoint", label, ns, runs);
    printf("BENCH rest_plan_endpoint_%s_bytes %zu bytes/response\n", label, bytes);
    for (int i = 0; i < runs; i++) { /* floe's REST client, end to end */
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.filter = filter;
        floe_scan *s = NULL;
        int64_t t0 = floe__mono_ns();
        if (floe_scan_open_table(&s, remote, &o) < 0)
            return -1;
        ns[i] = floe__mono_ns() - t0;
        if (floe_scan_task_count(s) != ntasks) {
            fprintf(stderr, "bench: %zu tasks through the server, %zu locally\n",
                    floe_scan_task_count(s), ntasks);
            floe_scan_free(s);
            return -1;
        }
        floe_scan_free(s);
    }
    report("client", label, ns, runs);
    return 0;
}

int main(int argc, char **argv)
{
    int nfiles = argc > 1 ? atoi(argv[1]) : 10000;
    int nman = argc > 2 ? atoi(argv[2]) : 100;
    int runs = argc > 3 ? atoi(argv[3]) : 7;
    if (nman < 1 || nfiles < nman || runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: %s [NFILES [NMAN [RUNS]]]\n", argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    char dir[] = "/tmp/floe-bench-rest-plan-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char tdir[600], meta[700], body[900];
    snprintf(tdir, sizeof tdir, "%s/bench.db/t", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", tdir);
    snprintf(body, sizeof body, "%s/bench.db", dir);
    mkdir(body, 0755);
    int rc = gt_make_table(tdir, nman, nfiles / nman, 1000, false, true);
    floe_rest_backend *b = NULL;
    floe_rest_server *s = NULL;
    floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
    if (rc < 0 || floe__rest_backend_sql_new(&b, dir, NULL) < 0 ||
        floe__rest_server_start(&s, b, &o) < 0) {
        fprintf(stderr, "bench: %s\n", floe_error_last() ? floe_error_last()->message : "?");
        return 1;
    }
    snprintf(base, sizeof base, "http://127.0.0.1:%d/v1", floe__rest_server_port(s));
    CURL *c = curl_easy_init();
    curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
    post(c, "/namespaces", "{\"namespace\":[\"bench\"]}", NULL);
    snprintf(body, sizeof body, "{\"name\":\"t\",\"metadata-location\":\"%s\"}", meta);
    if (post(c, "/namespaces/bench/register", body, NULL) != 200) {
        fprintf(stderr, "bench: register failed\n");
        rc = 1;
    }
    floe_catalog *cat = NULL;
    floe_table *remote = NULL;
    floe_rest_catalog_options ro = FLOE_REST_CATALOG_OPTIONS_INIT;
    ro.scan_planning_mode = "server";
    char uri[128];
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d", floe__rest_server_port(s));
    if (rc == 0 && (floe_catalog_open_rest(&cat, uri, &ro) < 0 ||
                    floe_table_load(&remote, cat, "bench.t", NULL) < 0)) {
        fprintf(stderr, "bench: %s\n", floe_error_last() ? floe_error_last()->message : "?");
        rc = 1;
    }
    int64_t *ns = calloc((size_t)runs, sizeof *ns);
    char filter[64], fjson[128];
    snprintf(filter, sizeof filter, "cat = 'c%05d'", nman / 2);
    snprintf(fjson, sizeof fjson, "{\"type\":\"eq\",\"term\":\"cat\",\"value\":\"c%05d\"}",
             nman / 2);
    printf("# %d data files in %d manifests, median of %d runs\n", nfiles, nman, runs);
    if (rc == 0 && ns &&
        (bench(meta, remote, c, "full", NULL, NULL, runs, ns) < 0 ||
         bench(meta, remote, c, "filtered", filter, fjson, runs, ns) < 0)) {
        fprintf(stderr, "bench: %s\n", floe_error_last() ? floe_error_last()->message : "?");
        rc = 1;
    }
    free(ns);
    floe_table_free(remote);
    floe_catalog_free(cat);
    curl_easy_cleanup(c);
    floe__rest_server_stop(s);
    floe__rest_backend_free(b);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    curl_global_cleanup();
    return rc;
}
