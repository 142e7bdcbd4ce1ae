/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of the REST catalog server (rest/server.c) over the in-memory
 * backend on loopback: 8 concurrent libcurl clients (keep-alive) doing
 * loadTable, then append commits (assert-ref-snapshot-id + add-snapshot +
 * set-snapshot-ref) on one table per client, then append commits all on one
 * table with refresh-and-retry on 409. Prints requests/s and p50/p99 latency.
 * Commits make each table's metadata grow (one snapshot per commit), so the
 * loadTable phase reads tables of `commits` snapshots (~100 by default) and
 * the per-request cost includes serialising them, as in a real catalog.
 * The same phases then run against the SQLite warehouse backend (`floe
 * serve --warehouse DIR`, a temporary directory): loads read the
 * metadata.json file and pass it through; commits go through the table
 * layer (requirements checked, metadata written create-new, pointer swapped
 * in SQLite). Names: rest_* (memory), rest_wh_* (warehouse).
 * usage: bench_rest_serve [loads-per-client] (default 1000 loads, 100 commits)
 */
#include "http_sink.h"
#include "rest/server.h"

#include "lazy/curl.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLIENTS 8

static char base[128];
static const char *tag = "rest";
static long per_client_loads = 1000, per_client_commits = 100;

typedef struct client {
    int id;
    int mode; /* 0 load, 1 commit own table, 2 commit shared table */
    CURL *c;
    double *lat_ms;
    long n, conflicts, errors;
} client;

static long request(client *cl, const char *method, const char *path, const char *body, sink *out)
{
    char url[512];
    snprintf(url, sizeof url, "%s%s", base, path);
    CURL *c = cl->c;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, body ? (long)strlen(body) : 0L);
    if (!body)
        curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
    long status = 0;
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

/* last-sequence-number of a LoadTableResult / CommitTableResponse body */
static long long last_seq(const char *body)
{
    const char *p = body ? strstr(body, "\"last-sequence-number\":") : NULL;
    return p ? strtoll(p + 23, NULL, 10) : 0;
}

/* current-snapshot-id of a LoadTableResult / CommitTableResponse body */
static long long current_snapshot(const char *body)
{
    const char *p = body ? strstr(body, "\"current-snapshot-id\":") : NULL;
    return p ? strtoll(p + 22, NULL, 10) : -1;
}

static void *run(void *p)
{
    client *cl = p;
    cl->c = curl_easy_init();
    struct curl_slist *h = curl_slist_append(NULL, "Authorization: Bearer bench-token");
    h = curl_slist_append(h, "Content-Type: application/json");
    curl_easy_setopt(cl->c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(cl->c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(cl->c, CURLOPT_TCP_NODELAY, 1L);
    char path[128], body[1024];
    const char *table = cl->mode == 2 ? "shared" : NULL;
    char own[32];
    snprintf(own, sizeof own, "t%d", cl->id);
    snprintf(path, sizeof path, "/namespaces/bench/tables/%s", table ? table : own);
    long total = cl->mode == 0 ? per_client_loads : per_client_commits;
    long long cur = -1, seq = 0;
    unsigned seed = (unsigned)cl->id * 2654435761u;
    long long next_id = (long long)(cl->id + 1) * 1000000000LL + (cl->mode == 2 ? 500000000 : 0);
    if (cl->mode) {
        sink s = {0};
        request(cl, "GET", path, NULL, &s);
        cur = current_snapshot(s.buf);
        seq = last_seq(s.buf);
        free(s.buf);
    }
    for (long i = 0; i < total; i++) {
        sink s = {0};
        int64_t t0 = floe__mono_ns();
        long st;
        if (cl->mode == 0) {
            st = request(cl, "GET", path, NULL, &s);
        } else {
            for (;;) {
                char req[32];
                if (cur < 0)
                    snprintf(req, sizeof req, "null");
                else
                    snprintf(req, sizeof req, "%lld", cur);
                long long sid = ++next_id;
                snprintf(body, sizeof body,
                         "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\","
                         "\"snapshot-id\":%s}],\"updates\":[{\"action\":\"add-snapshot\","
                         "\"snapshot\":{\"snapshot-id\":%lld,\"sequence-number\":%lld,"
                         "\"timestamp-ms\":1700000000000,"
                         "\"manifest-list\":\"s3://wh/bench/snap-%lld.avro\",\"summary\":"
                         "{\"operation\":\"append\",\"added-records\":\"10\"}}},"
                         "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":"
                         "\"branch\",\"snapshot-id\":%lld}]}",
                         req, sid, seq + 1, sid, sid);
                free(s.buf);
                s.buf = NULL;
                s.len = 0;
                st = request(cl, "POST", path, body, &s);
                if (st == 200) {
                    cur = sid;
                    seq = last_seq(s.buf);
                    break;
                }
                if (st != 409)
                    break;
                /* lost the race: back off a little (jittered), refresh and
                 * retry, as Iceberg clients do */
                cl->conflicts++;
                struct timespec ts = {0, (long)(rand_r(&seed) % 2000000)};
                nanosleep(&ts, NULL);
                free(s.buf);
                s.buf = NULL;
                s.len = 0;
                request(cl, "GET", path, NULL, &s);
                cur = current_snapshot(s.buf);
                seq = last_seq(s.buf);
            }
        }
        cl->lat_ms[cl->n++] = (double)(floe__mono_ns() - t0) / 1e6;
        if (st != 200)
            cl->errors++;
        free(s.buf);
    }
    curl_slist_free_all(h);
    curl_easy_cleanup(cl->c);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void phase(const char *name, int mode)
{
    client cl[CLIENTS];
    pthread_t th[CLIENTS];
    long each = mode == 0 ? per_client_loads : per_client_commits;
    for (int i = 0; i < CLIENTS; i++) {
        memset(&cl[i], 0, sizeof cl[i]);
        cl[i].id = i;
        cl[i].mode = mode;
        cl[i].lat_ms = calloc((size_t)each, sizeof(double));
    }
    int64_t t0 = floe__mono_ns();
    for (int i = 0; i < CLIENTS; i++)
        pthread_create(&th[i], NULL, run, &cl[i]);
    for (int i = 0; i < CLIENTS; i++)
        pthread_join(th[i], NULL);
    double secs = (double)(floe__mono_ns() - t0) / 1e9;
    size_t n = 0;
    long conflicts = 0, errors = 0;
    double *all = calloc((size_t)(each * CLIENTS), sizeof(double));
    for (int i = 0; i < CLIENTS; i++) {
        memcpy(all + n, cl[i].lat_ms, (size_t)cl[i].n * sizeof(double));
        n += (size_t)cl[i].n;
        conflicts += cl[i].conflicts;
        errors += cl[i].errors;
        free(cl[i].lat_ms);
    }
    qsort(all, n, sizeof *all, cmp_double);
    printf("BENCH %s_%s_rps %.0f req/s\n", tag, name, (double)n / secs);
    printf("BENCH %s_%s_p50 %.3f ms\n", tag, name, n ? all[n / 2] : 0.0);
    printf("BENCH %s_%s_p99 %.3f ms\n", tag, name, n ? all[(n * 99) / 100] : 0.0);
    if (mode == 2)
        printf("BENCH %s_%s_conflicts %ld retries\n", tag, name, conflicts);
    if (errors)
        printf("BENCH %s_%s_errors %ld requests\n", tag, name, errors);
    free(all);
}

static void metadata_size(void)
{
    client cl = {.c = curl_easy_init()};
    struct curl_slist *h = curl_slist_append(NULL, "Authorization: Bearer bench-token");
    curl_easy_setopt(cl.c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(cl.c, CURLOPT_WRITEFUNCTION, on_body);
    sink s = {0};
    request(&cl, "GET", "/namespaces/bench/tables/t0", NULL, &s);
    printf("BENCH %s_load_table_body %zu bytes\n", tag, s.len);
    free(s.buf);
    curl_slist_free_all(h);
    curl_easy_cleanup(cl.c);
}

static int run_backend(const char *name, const char *warehouse);

int main(int argc, char **argv)
{
    if (argc > 1) {
        per_client_loads = atol(argv[1]);
        per_client_commits = per_client_loads / 5 > 0 ? per_client_loads / 5 : 1;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    char dir[] = "/tmp/floe-bench-rest-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    int rc = run_backend("rest", NULL);
    if (rc == 0)
        rc = run_backend("rest_wh", dir);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    curl_global_cleanup();
    return rc;
}

/* One backend: the memory mock (`warehouse` NULL) or the SQLite warehouse. */
static int run_backend(const char *label, const char *warehouse)
{
    tag = label;
    floe_rest_backend *b = NULL;
    floe_rest_server *s = NULL;
    floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
    o.token = "bench-token";
    o.threads = 4;
    if ((warehouse ? floe__rest_backend_sql_new(&b, warehouse, NULL)
                   : floe__rest_backend_memory_new(&b, "s3://wh")) < 0 ||
        floe__rest_server_start(&s, b, &o) < 0) {
        fprintf(stderr, "bench: %s\n", floe_error_last() ? floe_error_last()->message : "?");
        floe__rest_backend_free(b);
        return 1;
    }
    snprintf(base, sizeof base, "http://127.0.0.1:%d/v1", floe__rest_server_port(s));
    /* setup: a namespace, one table per client and a shared one, with a
     * realistic schema */
    client setup = {.id = 0, .mode = 0, .c = curl_easy_init()};
    struct curl_slist *h = curl_slist_append(NULL, "Authorization: Bearer bench-token");
    curl_easy_setopt(setup.c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(setup.c, CURLOPT_WRITEFUNCTION, on_body);
    sink sk = {0};
    request(&setup, "POST", "/namespaces", "{\"namespace\":[\"bench\"]}", &sk);
    static const char schema[] =
        "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"id\",\"type\":\"long\","
        "\"required\":true},{\"id\":2,\"name\":\"ts\",\"type\":\"timestamptz\",\"required\":"
        "false},{\"id\":3,\"name\":\"payload\",\"type\":\"string\",\"required\":false}]}";
    char body[1024];
    for (int i = 0; i <= CLIENTS; i++) {
        char name[16];
        if (i < CLIENTS)
            snprintf(name, sizeof name, "t%d", i);
        else
            snprintf(name, sizeof name, "shared");
        snprintf(body, sizeof body, "{\"name\":\"%s\",\"schema\":%s}", name, schema);
        request(&setup, "POST", "/namespaces/bench/tables", body, &sk);
    }
    free(sk.buf);
    curl_slist_free_all(h);
    curl_easy_cleanup(setup.c);

    phase("commit", 1); /* tables now hold snapshots: loads below are not trivial */
    metadata_size();
    phase("load_table", 0); /* loadTable of each client's table */
    phase("commit_contended", 2);

    floe__rest_server_stop(s);
    floe__rest_backend_free(b);
    return 0;
}
