/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of loadTable freshness on `floe serve --warehouse DIR` (the
 * SQLite backend, in process, loopback, one keep-alive libcurl client): a
 * table of 10,000 snapshots (its metadata.json written here and registered)
 * loaded with snapshots=all, with snapshots=refs, and with If-None-Match of
 * the last ETag (304: the pointer alone is read); then append commits on a
 * small table with and without an Idempotency-Key per commit. Prints
 * requests/s and bytes per response.
 * usage: bench_rest_etag [snapshots] (default 10000)
 */
#include "bench_tables.h"
#include "http_sink.h"
#include "rest/server.h"

#include "lazy/curl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char base[128];
static char etag[128];

static size_t on_header(char *p, size_t sz, size_t n, void *u)
{
    (void)u;
    size_t len = sz * n;
    if (len > 6 && strncasecmp(p, "etag:", 5) == 0) {
        size_t k = len - 5;
        const char *v = p + 5;
        while (k && *v == ' ') {
            v++;
            k--;
        }
        while (k && (v[k - 1] == '\r' || v[k - 1] == '\n'))
            k--;
        if (k < sizeof etag) {
            memcpy(etag, v, k);
            etag[k] = '\0';
        }
    }
    return len;
}

/* One request to base + path; *bytes = response body size. */
static long request(CURL *c, const char *method, const char *path, const char *body,
                    const char *hdr, size_t *bytes)
{
    char url[512];
    snprintf(url, sizeof url, "%s%s", base, path);
    return http_call(c, method, url, body, hdr, bytes, on_header);
}

/* n loads of `path` with header `hdr`; prints req/s and bytes/response. */
static void loads(CURL *c, const char *name, const char *path, const char *hdr, long n, long want)
{
    size_t bytes = 0;
    long bad = 0;
    int64_t *ns = calloc((size_t)n, sizeof *ns);
    if (!ns)
        return;
    int64_t t0 = floe__mono_ns();
    for (long i = 0; i < n; i++) {
        int64_t r0 = floe__mono_ns();
        bad += request(c, "GET", path, NULL, hdr, &bytes) != want;
        ns[i] = floe__mono_ns() - r0;
    }
    double secs = (double)(floe__mono_ns() - t0) / 1e9;
    printf("BENCH rest_load_%s_rps %.0f req/s\n", name, (double)n / secs);
    printf("BENCH rest_load_%s_median %.3f ms\n", name, bt_median_ms(ns, (int)n));
    free(ns);
    printf("BENCH rest_load_%s_bytes %zu bytes/response\n", name, bytes);
    if (bad)
        printf("BENCH rest_load_%s_errors %ld requests\n", name, bad);
}

/* The metadata.json of a table with `n` snapshots on main's chain. */
static int write_metadata(const char *path, const char *location, long n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "{\"format-version\":2,\"table-uuid\":\"5f8e5b2a-3c1d-4e8f-9a7b-2c4d6e8f0a1b\","
            "\"location\":\"%s\",\"last-sequence-number\":%ld,\"last-updated-ms\":%lld,"
            "\"last-column-id\":3,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
            "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":"
            "\"long\"},{\"id\":2,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz\"},"
            "{\"id\":3,\"name\":\"payload\",\"required\":false,\"type\":\"string\"}]}],"
            "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
            "\"last-partition-id\":999,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":"
            "0,\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":%ld,"
            "\"refs\":{\"main\":{\"snapshot-id\":%ld,\"type\":\"branch\"}},\"snapshots\":[",
            location, n, 1700000000000LL + n, n, n);
    for (long i = 1; i <= n; i++) {
        fprintf(f, "%s{\"snapshot-id\":%ld,", i > 1 ? "," : "", i);
        if (i > 1)
            fprintf(f, "\"parent-snapshot-id\":%ld,", i - 1);
        fprintf(f,
                "\"sequence-number\":%ld,\"timestamp-ms\":%lld,\"manifest-list\":"
                "\"%s/metadata/snap-%ld-1-0c5a1c52-1f0d-4c0a-9d5e-%012ld.avro\",\"summary\":"
                "{\"operation\":\"append\",\"added-data-files\":\"1\",\"added-records\":"
                "\"100\",\"total-records\":\"%ld\"},\"schema-id\":0}",
                i, 1700000000000LL + i, location, i, i, i * 100);
    }
    fprintf(f, "],\"snapshot-log\":[");
    for (long i = 1; i <= n; i++)
        fprintf(f, "%s{\"timestamp-ms\":%lld,\"snapshot-id\":%ld}", i > 1 ? "," : "",
                1700000000000LL + i, i);
    fprintf(f, "],\"metadata-log\":[]}");
    return fclose(f) == 0 ? 0 : -1;
}

/* One append commit on bench.small; returns its wall time in ns. */
static int64_t commit_once(CURL *c, bool keyed, long *bad)
{
    static long long next = 1;
    char body[1024], hdr[80], key[37];
    long long sid = next++;
    snprintf(body, sizeof body,
             "{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
             "{\"snapshot-id\":%lld,\"sequence-number\":%lld,\"timestamp-ms\":1700000000000,"
             "\"manifest-list\":\"m-%lld.avro\",\"summary\":{\"operation\":\"append\"}}},"
             "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
             "\"snapshot-id\":%lld}]}",
             sid, sid, sid, sid);
    if (keyed && floe__uuid4(key) == 0)
        snprintf(hdr, sizeof hdr, "Idempotency-Key: %s", key);
    int64_t t0 = floe__mono_ns();
    *bad +=
        request(c, "POST", "/namespaces/bench/tables/small", body, keyed ? hdr : NULL, NULL) != 200;
    return floe__mono_ns() - t0;
}

/* n commits each way, alternating (the table grows alike under both). */
static void commits(CURL *c, long n)
{
    int64_t t[2] = {0, 0};
    long bad[2] = {0, 0};
    for (long i = 0; i < 2 * n; i++)
        t[i & 1] += commit_once(c, i & 1, &bad[i & 1]);
    printf("BENCH rest_commit_no_key_rps %.1f commits/s\n", (double)n / ((double)t[0] / 1e9));
    printf("BENCH rest_commit_idempotency_key_rps %.1f commits/s\n",
           (double)n / ((double)t[1] / 1e9));
    if (bad[0] + bad[1])
        printf("BENCH rest_commit_errors %ld requests\n", bad[0] + bad[1]);
}

int main(int argc, char **argv)
{
    long nsnap = argc > 1 ? atol(argv[1]) : 10000;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    char dir[] = "/tmp/floe-bench-etag-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    floe_rest_backend *b = NULL;
    floe_rest_server *s = NULL;
    floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
    if (floe__rest_backend_sql_new(&b, dir, NULL) < 0 || floe__rest_server_start(&s, b, &o) < 0) {
        fprintf(stderr, "bench: %s\n", floe_error_last() ? floe_error_last()->message : "?");
        return 1;
    }
    snprintf(base, sizeof base, "http://127.0.0.1:%d/v1", floe__rest_server_port(s));
    CURL *c = curl_easy_init();
    curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
    request(c, "POST", "/namespaces", "{\"namespace\":[\"bench\"]}", NULL, NULL);
    char tdir[512], md[600], loc[520], body[800];
    snprintf(tdir, sizeof tdir, "%s/bench.db/big/metadata", dir);
    snprintf(loc, sizeof loc, "%s/bench.db/big", dir);
    snprintf(md, sizeof md, "%s/00000-5f8e5b2a-3c1d-4e8f-9a7b-2c4d6e8f0a1b.metadata.json", tdir);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tdir);
    int rc = system(cmd) == 0 && write_metadata(md, loc, nsnap) == 0 ? 0 : 1;
    snprintf(body, sizeof body, "{\"name\":\"big\",\"metadata-location\":\"%s\"}", md);
    if (rc == 0 && request(c, "POST", "/namespaces/bench/register", body, NULL, NULL) != 200) {
        fprintf(stderr, "bench: register failed\n");
        rc = 1;
    }
    if (rc == 0) {
        printf("# loadTable of a table with %ld snapshots\n", nsnap);
        const char *p = "/namespaces/bench/tables/big";
        long nl = getenv("BENCH_KEEP") ? 1 : 50;
        loads(c, "all", p, NULL, nl, 200);
        loads(c, "refs", "/namespaces/bench/tables/big?snapshots=refs", NULL, nl, 200);
        char inm[200];
        request(c, "GET", p, NULL, NULL, NULL); /* the current ETag */
        snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
        loads(c, "if_none_match", p, inm, 2000, 304);
        snprintf(body, sizeof body,
                 "{\"name\":\"small\",\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":1,"
                 "\"name\":\"id\",\"type\":\"long\",\"required\":true}]}}");
        request(c, "POST", "/namespaces/bench/tables", body, NULL, NULL);
        commits(c, 200);
    }
    curl_easy_cleanup(c);
    floe__rest_server_stop(s);
    floe__rest_backend_free(b);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (getenv("BENCH_KEEP"))
        printf("# kept %s\n", dir);
    else if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    curl_global_cleanup();
    return rc;
}
