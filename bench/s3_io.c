/* SPDX-License-Identifier: Apache-2.0 */
/*
 * S3 FileIO throughput against the local S3 of tests/interop/s3_server.mjs
 * (s3rver behind the SigV4-verifying proxy, 127.0.0.1 only): upload and
 * download of 1 MB and 64 MB objects (64 MB goes multipart with 8 MB parts),
 * and 1,000 small GETs sequential vs parallel (floe__s3_get_many) — the
 * access pattern of planning a table with many manifests.
 *
 * Absolute figures measure the emulator (node, files on local disk) more
 * than floe; the parallel/sequential ratio is the meaningful number.
 * Prints `BENCH <name> <value> <unit>`.
 */
#include "../tests/unit/s3/s3srv.h"
#include "io/s3.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now_s(void)
{
    return (double)floe__mono_ns() / 1e9;
}

static int put(floe_fileio *io, const char *uri, const void *data, size_t len)
{
    floe_output *out;
    FLOE_TRY(io->ops->create_output(&out, io, uri));
    int rc = out->write(out, data, len);
    if (rc < 0) {
        out->abort(out);
        return rc;
    }
    return out->commit(out); /* frees the output either way */
}

static int get(floe_fileio *io, const char *uri, void *buf, size_t len)
{
    floe_input *in;
    FLOE_TRY(io->ops->open_input(&in, io, uri));
    int rc = (size_t)in->size == len ? in->read_at(in, 0, buf, len) : FLOE_ECORRUPT;
    in->close(in);
    return rc;
}

static int fail(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "s3_io: %s: %s\n", what, e ? e->message : "?");
    return 1;
}

typedef struct put_ctx {
    floe_fileio *io;
} put_ctx;

static int put_small(size_t i, void *payload)
{
    put_ctx *c = payload;
    char uri[64], body[256];
    snprintf(uri, sizeof uri, "s3://bucket/bench/small/m%04zu.avro", i);
    memset(body, 'a' + (int)(i % 26), sizeof body);
    return put(c->io, uri, body, sizeof body);
}

int main(void)
{
    if (!s3srv_available()) {
        printf("s3_io: skipped (node or tests/interop/node_modules absent)\n");
        return 0;
    }
    s3srv srv;
    if (s3srv_start(&srv) != 0) {
        fprintf(stderr, "s3_io: could not start the local S3\n");
        return 1;
    }
    floe_props p = FLOE_PROPS_INIT;
    s3srv_props(&srv, &p);
    floe__props_set(&p, "s3.multipart.size", "8388608");
    floe_fileio *io = NULL;
    int rc = 1;
    if (floe__s3_fileio_new(&p, &io) < 0) {
        fail("open");
        goto out;
    }
    static const size_t sizes[] = {1 << 20, 64 << 20};
    static const char *names[] = {"1mb", "64mb"};
    for (size_t s = 0; s < 2; s++) {
        size_t n = sizes[s];
        char *data = malloc(n), *back = malloc(n);
        for (size_t i = 0; i < n; i++)
            data[i] = (char)(i * 2654435761u >> 13);
        int reps = s == 0 ? 8 : 1;
        char uri[64];
        snprintf(uri, sizeof uri, "s3://bucket/bench/obj-%s", names[s]);
        double t0 = now_s();
        for (int r = 0; r < reps; r++)
            if (put(io, uri, data, n) < 0) {
                free(data);
                free(back);
                fail("put");
                goto out;
            }
        double t1 = now_s();
        for (int r = 0; r < reps; r++)
            if (get(io, uri, back, n) < 0) {
                free(data);
                free(back);
                fail("get");
                goto out;
            }
        double t2 = now_s();
        if (memcmp(data, back, n) != 0) {
            fprintf(stderr, "s3_io: %s read back differs\n", names[s]);
            free(data);
            free(back);
            goto out;
        }
        double mb = (double)n * reps / 1048576.0;
        printf("BENCH s3_put_%s %.1f MB/s\n", names[s], mb / (t1 - t0));
        printf("BENCH s3_get_%s %.1f MB/s\n", names[s], mb / (t2 - t1));
        free(data);
        free(back);
    }

    enum { N = 1000 };
    floe_pool *pool = floe__pool_new(8);
    put_ctx pc = {io};
    if (floe__pool_for(pool, N, put_small, &pc) < 0) {
        floe__pool_free(pool);
        fail("put small");
        goto out;
    }
    floe__pool_free(pool);
    static char uris[N][64];
    static floe_s3_get gets[N];
    for (size_t i = 0; i < N; i++)
        snprintf(uris[i], sizeof uris[i], "s3://bucket/bench/small/m%04zu.avro", i);
    /* Pass 0: loopback as is. Pass 1: the proxy delays every GET by 2 ms,
     * a stand-in for the round trip to a real object store. */
    for (int pass = 0; pass < 2; pass++) {
        double seq = 0, par = 0;
        if (pass == 1) {
            char buf[4096];
            s3srv_control(&srv, "/__floe/fault?mode=slow&ms=2&count=100000&method=GET", buf);
        }
        for (int mode = 0; mode < 2; mode++) {
            for (size_t i = 0; i < N; i++)
                gets[i] = (floe_s3_get){.uri = uris[i], .offset = 0, .length = -1};
            double t0 = now_s();
            int r = floe__s3_get_many(io, gets, N, mode == 0 ? 1 : 16);
            double t = now_s() - t0;
            for (size_t i = 0; i < N; i++)
                floe__free(gets[i].data);
            if (r < 0) {
                fail("get_many");
                goto out;
            }
            if (mode == 0)
                seq = t;
            else
                par = t;
        }
        const char *sfx = pass ? "_rtt2ms" : "";
        printf("BENCH s3_get_1000_small_sequential%s %.0f ms\n", sfx, seq * 1000);
        printf("BENCH s3_get_1000_small_parallel16%s %.0f ms\n", sfx, par * 1000);
        printf("BENCH s3_get_1000_small_parallel_speedup%s %.2f x\n", sfx, seq / par);
    }
    rc = 0;
out:
    if (io)
        io->ops->free(io);
    floe__props_free(&p);
    s3srv_stop(&srv);
    return rc;
}
