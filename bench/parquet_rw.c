/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark: Parquet decode and encode, floe vs DuckDB (single thread) on
 * the same file: long, double, decimal(10,2), date and a dictionary-friendly
 * string column, zstd.
 *
 *   bench_parquet_rw [ROWS]      (default 10,000,000; FLOE_BENCH_ROWS too)
 *
 * DuckDB (tests/interop/parquet_engines.mjs duckdb-bench, SET threads=1)
 * materialises the rows in a table (untimed), writes the file with COPY
 * (timed) and decodes it with an aggregate over every column. floe decodes the same file to Arrow
 * batches (touching every value) and writes the same rows from Arrow batches (batch generation
 * excluded from the timing). Prints BENCH rows/s and RATIO (floe time / DuckDB time).
 */
#include "parquet/parquet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const floe_type b_long = {.id = FLOE_T_LONG}, b_double = {.id = FLOE_T_DOUBLE},
                       b_dec = {.id = FLOE_T_DECIMAL, .precision = 10, .scale = 2},
                       b_date = {.id = FLOE_T_DATE}, b_str = {.id = FLOE_T_STRING};
static const floe_field b_fields[5] = {{1, "l", false, &b_long, NULL, NULL, NULL},
                                       {2, "d", false, &b_double, NULL, NULL, NULL},
                                       {3, "dec", false, &b_dec, NULL, NULL, NULL},
                                       {4, "dt", false, &b_date, NULL, NULL, NULL},
                                       {5, "s", false, &b_str, NULL, NULL, NULL}};
static const floe_type b_root = {.id = FLOE_T_STRUCT, .nfields = 5, .fields = b_fields};
static const floe_schema b_schema = {0, &b_root, 0, NULL, 5, NULL, NULL};

typedef struct sink_file {
    FILE *f;
} sink_file;

static int file_sink(const void *data, size_t len, void *payload)
{
    sink_file *s = payload;
    return fwrite(data, 1, len, s->f) == len ? 0 : floe__error(FLOE_EIO, "bench", "write failed");
}

/* Rows [from, from+n) of the generated table, built directly in buffers. */
static int make_batch(int64_t from, int64_t n, struct ArrowArray *out)
{
    floe_arrow_builder *b;
    FLOE_TRY(floe__arrow_builder_new(&b, &b_root));
    int rc = 0;
    floe_arrow_builder *c[5];
    for (int k = 0; k < 5; k++) {
        c[k] = b->children[k];
        if ((rc = floe__arrow_validity_reserve(c[k], n)) < 0)
            goto done;
        memset(c[k]->validity.ptr, 0xff, c[k]->validity.len);
    }
    if ((rc = floe__buf_reserve(&c[0]->values, (size_t)n * 8)) < 0 ||
        (rc = floe__buf_reserve(&c[1]->values, (size_t)n * 8)) < 0 ||
        (rc = floe__buf_reserve(&c[2]->values, (size_t)n * 16)) < 0 ||
        (rc = floe__buf_reserve(&c[3]->values, (size_t)n * 4)) < 0 ||
        (rc = floe__buf_reserve(&c[4]->offsets, (size_t)n * 4)) < 0 ||
        (rc = floe__buf_reserve(&c[4]->data, (size_t)n * 10)) < 0)
        goto done;
    for (int64_t i = from; i < from + n; i++) {
        int64_t l = i;
        double d = (double)i * 0.5;
        floe_i128 dec = (floe_i128)(i % 100000);
        int32_t dt = 10957 + (int32_t)(i % 10000);
        memcpy(c[0]->values.ptr + c[0]->values.len, &l, 8), c[0]->values.len += 8;
        memcpy(c[1]->values.ptr + c[1]->values.len, &d, 8), c[1]->values.len += 8;
        memcpy(c[2]->values.ptr + c[2]->values.len, &dec, 16), c[2]->values.len += 16;
        memcpy(c[3]->values.ptr + c[3]->values.len, &dt, 4), c[3]->values.len += 4;
        char s[24];
        int sl = snprintf(s, sizeof(s), "name-%d", (int)(i % 1000));
        if ((rc = floe__buf_put(&c[4]->data, s, (size_t)sl)) < 0)
            goto done;
        int32_t end = (int32_t)c[4]->data.len;
        if ((rc = floe__buf_put(&c[4]->offsets, &end, 4)) < 0)
            goto done;
    }
    for (int k = 0; k < 5; k++)
        c[k]->length = n;
    b->length = n;
    if ((rc = floe__arrow_validity_reserve(b, 0)) < 0)
        goto done;
    rc = floe__arrow_builder_finish(b, out);
done:
    floe__arrow_builder_free(b);
    return rc;
}

static double now_s(void)
{
    return (double)floe__mono_ns() / 1e9;
}

/* Decode with floe; returns seconds or < 0. */
static double floe_read(const char *path, int64_t *rows_out, double *checksum)
{
    floe_input *in;
    if (floe__pq_input_file(&in, path) < 0)
        return -1;
    double t0 = now_s();
    floe_pq_reader *r;
    if (floe__pq_reader_open(&r, in, NULL) < 0) {
        in->close(in);
        return -1;
    }
    int64_t rows = 0;
    double sum = 0;
    struct ArrowArray a;
    int rc;
    while ((rc = floe__pq_reader_next(r, &a)) == 0) {
        /* touch every value of every column */
        const int64_t *l = a.children[0]->buffers[1];
        const double *d = a.children[1]->buffers[1];
        const floe_i128 *dec = a.children[2]->buffers[1];
        const int32_t *dt = a.children[3]->buffers[1];
        const int32_t *so = a.children[4]->buffers[1];
        for (int64_t i = 0; i < a.length; i++)
            sum += (double)l[i] + d[i] + (double)dec[i] + dt[i] + (so[i + 1] - so[i]);
        rows += a.length;
        a.release(&a);
    }
    double t = now_s() - t0;
    floe__pq_reader_free(r);
    in->close(in);
    *rows_out = rows;
    *checksum = sum;
    return rc == FLOE_ITEROVER ? t : -1;
}

int main(int argc, char **argv)
{
    int64_t rows = 10000000;
    const char *env = getenv("FLOE_BENCH_ROWS");
    if (argc > 1)
        rows = atoll(argv[1]);
    else if (env)
        rows = atoll(env);
    char duck[256], mine[256], cmd[1024];
    snprintf(duck, sizeof(duck), "/tmp/floe_bench_duck_%d.parquet", (int)getpid());
    snprintf(mine, sizeof(mine), "/tmp/floe_bench_floe_%d.parquet", (int)getpid());
    snprintf(cmd, sizeof(cmd), "node %s/tests/interop/parquet_engines.mjs duckdb-bench %lld %s",
             FLOE_SOURCE_DIR, (long long)rows, duck);
    double duck_write = -1, duck_read = -1;
    FILE *p = popen(cmd, "r");
    if (p) {
        char line[512];
        if (fgets(line, sizeof(line), p)) {
            const char *w = strstr(line, "\"write_ns\":"), *r = strstr(line, "\"read_ns\":");
            if (w && r) {
                duck_write = atof(w + 11) / 1e9;
                duck_read = atof(r + 10) / 1e9;
            }
        }
        pclose(p);
    }
    if (duck_write < 0)
        fprintf(stderr, "DuckDB (node + tests/interop/node_modules) unavailable: floe only\n");

    /* write: floe encodes the same rows (batches prepared outside the clock) */
    floe_props props = FLOE_PROPS_INIT;
    floe__props_set(&props, "write.parquet.compression-codec", "zstd");
    sink_file sf = {fopen(mine, "wb")};
    if (!sf.f)
        return 1;
    floe_pq_write_options o = {0};
    o.props = &props;
    o.sink = file_sink;
    o.sink_payload = &sf;
    floe_pq_writer *w;
    if (floe__pq_writer_new(&w, &b_schema, &o) < 0)
        return 1;
    double write_t = 0;
    const int64_t batch = 65536;
    for (int64_t at = 0; at < rows; at += batch) {
        struct ArrowArray a;
        int64_t n = rows - at < batch ? rows - at : batch;
        if (make_batch(at, n, &a) < 0)
            return 1;
        double t0 = now_s();
        int rc = floe__pq_writer_write(w, &a);
        write_t += now_s() - t0;
        a.release(&a);
        if (rc < 0) {
            fprintf(stderr, "write: %s\n", floe_error_last()->message);
            return 1;
        }
    }
    double t0 = now_s();
    floe_pq_metrics m;
    if (floe__pq_writer_close(w, &m) < 0) {
        fprintf(stderr, "close: %s\n", floe_error_last()->message);
        return 1;
    }
    fclose(sf.f);
    write_t += now_s() - t0;
    floe__pq_writer_free(w);
    floe__props_free(&props);
    long long fsize = m.file_size_in_bytes;
    floe__pq_metrics_free(&m);

    int64_t nread = 0;
    double sum = 0;
    const char *read_path = duck_write >= 0 ? duck : mine;
    double read_t = floe_read(read_path, &nread, &sum);
    if (read_t < 0 || nread != rows) {
        fprintf(stderr, "read: %s\n", floe_error_last() ? floe_error_last()->message : "?");
        return 1;
    }
    int64_t nread2 = 0;
    double sum2 = 0;
    double read_own_t = floe_read(mine, &nread2, &sum2);
    if (duck_write >= 0 && sum2 != sum)
        fprintf(stderr, "checksum mismatch: floe file %.17g, DuckDB file %.17g\n", sum2, sum);

    printf("# rows %lld, floe file %lld bytes, single thread\n", (long long)rows, fsize);
    printf("BENCH parquet_read_floe %.0f rows/s\n", (double)rows / read_t);
    printf("BENCH parquet_read_floe_own_file %.0f rows/s\n", (double)rows / read_own_t);
    printf("BENCH parquet_write_floe %.0f rows/s\n", (double)rows / write_t);
    if (duck_write >= 0) {
        printf("BENCH parquet_read_duckdb %.0f rows/s\n", (double)rows / duck_read);
        printf("BENCH parquet_write_duckdb %.0f rows/s\n", (double)rows / duck_write);
        printf("RATIO parquet_read %.3f duckdb\n", read_t / duck_read);
        printf("RATIO parquet_write %.3f duckdb\n", write_t / duck_write);
    }
    remove(duck);
    remove(mine);
    return 0;
}
