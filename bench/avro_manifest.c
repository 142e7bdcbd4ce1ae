/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark: decode a 100,000-entry manifest (7 partition fields, metrics
 * for 10 columns: sizes, value/null/NaN counts, lower/upper bounds) with the
 * streaming manifest reader, single-threaded, for the null and deflate
 * codecs (CPU time of the decoding thread, best of 5). In the same run the
 * same files are decoded by avsc (node) and python3-avro (the first 5,000
 * entries: it reads ~1,000/s) when present, also in CPU time; RATIO lines
 * are floe's time / the peer's time per entry decoded (bench/README.md:
 * below 1, floe is faster). FLOE_BENCH_KEEP=DIR keeps the two manifests
 * there (DIR/m-null.avro, DIR/m-deflate.avro) for bench/native_peers.sh,
 * with unpartitioned twins (DIR/m-null-unpartitioned.avro, ...: iceberg-rust
 * cannot decode the uuid partition field of the others).
 */
#include "../tests/unit/manifest/gen_fixture.h"
#include "bench_tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define N_ENTRIES 100000

/* CPU time of this thread: the machine is shared, so wall time mostly
 * measures the other processes; the peers report CPU time too. */
static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double decode_once(const floe_buf *b, int64_t *rows)
{
    int64_t t0 = cpu_ns();
    *rows = bt_decode_manifest(b->ptr, b->len, "bench.avro");
    return *rows < 0 ? -1 : (double)(cpu_ns() - t0) / 1e9;
}

/* python3-avro decodes ~1,000 entries/s here: it gets the first N_PY
 * entries (same generator, same shape) and its rate is compared. */
#define N_PY 5000

/* Run a peer timing script; returns its self-reported milliseconds or -1. */
static double peer_ms(const char *cmd, long want)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    double ms = -1;
    long n = 0;
    if (fscanf(p, "%lf %ld", &ms, &n) != 2 || n != want)
        ms = -1;
    pclose(p);
    return ms;
}

int main(void)
{
    char tmp[] = "/tmp/floe-bench-XXXXXX";
    const char *keep = getenv("FLOE_BENCH_KEEP");
    const char *dir = keep ? keep : mkdtemp(tmp);
    if (!dir)
        return 1;
    const char *src = FLOE_SOURCE_DIR;
    bool node = !getenv("FLOE_BENCH_NO_PEERS") &&
                access(FLOE_SOURCE_DIR "/tests/interop/node_modules/avsc", R_OK) == 0;
    bool py = !getenv("FLOE_BENCH_NO_PEERS") && access("/usr/bin/python3", X_OK) == 0 &&
              system("/usr/bin/python3 -c 'import avro.datafile' 2>/dev/null") == 0;
    const floe_avro_codec codecs[2] = {FLOE_AVRO_CODEC_NULL, FLOE_AVRO_CODEC_DEFLATE};
    int ncodecs = getenv("FLOE_BENCH_ONLY_NULL") ? 1 : 2;
    for (int c = 0; c < ncodecs; c++) {
        gt_opts o = {2, codecs[c], true, FLOE_MANIFEST_DATA, N_ENTRIES, 1234567890123LL, 5};
        floe_buf b = FLOE_BUF_INIT;
        floe_manifest_file mf;
        if (gt_write_manifest(&o, &b, &mf, NULL) < 0) {
            fprintf(stderr, "write failed: %s\n", floe_error_last()->message);
            return 1;
        }
        const char *cn = floe_avro_codec_name(codecs[c]);
        double best = 1e9;
        int64_t rows = 0;
        int reps = getenv("FLOE_BENCH_REPS") ? atoi(getenv("FLOE_BENCH_REPS")) : 5;
        for (int rep = 0; rep < reps; rep++) {
            double t = decode_once(&b, &rows);
            if (t < 0 || rows != N_ENTRIES) {
                fprintf(stderr, "decode failed: %s\n", floe_error_last()->message);
                return 1;
            }
            if (t < best)
                best = t;
        }
        printf("BENCH avro_manifest_decode_%s %.0f entries/s\n", cn, N_ENTRIES / best);
        printf("BENCH avro_manifest_decode_%s_cpu_time %.2f ms\n", cn, best * 1e3);
        printf("BENCH avro_manifest_file_%s %zu bytes\n", cn, b.len);
        char path[1200], cmd[2048];
        snprintf(path, sizeof path, "%s/m-%s.avro", dir, cn);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(b.ptr, 1, b.len, f);
            fclose(f);
        }
        if (node) {
            snprintf(cmd, sizeof cmd, "cd %s/tests/interop && node avro_dump.mjs %s --time", src,
                     path);
            double ms = peer_ms(cmd, N_ENTRIES);
            if (ms > 0) {
                printf("BENCH avro_manifest_decode_%s_avsc %.0f entries/s\n", cn,
                       N_ENTRIES / (ms / 1e3));
                printf("RATIO avro_manifest_decode_%s %.4f avsc\n", cn, best / (ms / 1e3));
            }
        }
        if (py) {
            gt_opts po = o;
            po.n = N_PY;
            floe_buf pb = FLOE_BUF_INIT;
            floe_manifest_file pmf;
            char ppath[1200];
            snprintf(ppath, sizeof ppath, "%s/py-%s.avro", dir, cn);
            FILE *pf = gt_write_manifest(&po, &pb, &pmf, NULL) == 0 ? fopen(ppath, "wb") : NULL;
            if (pf) {
                fwrite(pb.ptr, 1, pb.len, pf);
                fclose(pf);
                snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/tests/interop/avro_time.py %s", src,
                         ppath);
                double ms = peer_ms(cmd, N_PY);
                if (ms > 0) {
                    double rate = N_PY / (ms / 1e3);
                    printf("BENCH avro_manifest_decode_%s_python_avro %.0f entries/s "
                           "(first %d entries)\n",
                           cn, rate, N_PY);
                    /* per entry: python3-avro decodes the first N_PY only */
                    printf("RATIO avro_manifest_decode_%s %.5f python3-avro\n", cn,
                           (best / N_ENTRIES) / (1.0 / rate));
                }
                unlink(ppath);
            }
            floe__buf_free(&pb);
        }
        if (keep) {
            gt_opts uo = o;
            uo.partitioned = false;
            floe_buf ub = FLOE_BUF_INIT;
            snprintf(path, sizeof path, "%s/m-%s-unpartitioned.avro", dir, cn);
            FILE *uf = gt_write_manifest(&uo, &ub, &mf, NULL) == 0 ? fopen(path, "wb") : NULL;
            if (!uf || fwrite(ub.ptr, 1, ub.len, uf) != ub.len || fclose(uf) != 0)
                fprintf(stderr, "could not write %s\n", path);
            floe__buf_free(&ub);
        } else {
            unlink(path);
        }
        floe__buf_free(&b);
    }
    if (!keep)
        rmdir(dir);
    return 0;
}
