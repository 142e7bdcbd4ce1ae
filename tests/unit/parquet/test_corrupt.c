/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hostile input: truncated, bit-flipped and malformed Parquet files fail
 * with FLOE_ECORRUPT naming the file and an offset (never a crash, never an
 * unbounded allocation); out-of-memory at every allocation site of the
 * reader and writer returns FLOE_ENOMEM and leaks nothing (ASan).
 */
#include "pqtest.h"

static int make_file(floe_buf *file, int64_t rows, const char *codec)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.parquet.compression-codec", codec);
    floe__props_set(&p, "write.parquet.row-group-size-bytes", "3000");
    floe__props_set(&p, "write.parquet.page-size-bytes", "512");
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = pt_sink;
    o.sink_payload = file;
    floe_pq_writer *w;
    int rc = floe__pq_writer_new(&w, &pt_schema, &o);
    if (rc == 0) {
        struct ArrowArray a;
        rc = pt_batch(0, rows, &a);
        if (rc == 0) {
            rc = floe__pq_writer_write(w, &a);
            a.release(&a);
        }
        if (rc == 0)
            rc = floe__pq_writer_close(w, NULL);
        floe__pq_writer_free(w);
    }
    floe__props_free(&p);
    return rc;
}

/* Open + read everything; returns 0 or the first error. */
static int read_bytes(const void *data, size_t len)
{
    floe_input *in;
    int rc = floe__pq_input_memory(&in, data, len, "bad.parquet");
    if (rc < 0)
        return rc;
    floe_pq_reader *r;
    rc = floe__pq_reader_open(&r, in, NULL);
    if (rc == 0) {
        for (;;) {
            struct ArrowArray a;
            rc = floe__pq_reader_next(r, &a);
            if (rc < 0)
                break;
            a.release(&a);
        }
        if (rc == FLOE_ITEROVER)
            rc = 0;
        floe__pq_reader_free(r);
    }
    in->close(in);
    return rc;
}

static void test_truncated(void)
{
    floe_buf f = FLOE_BUF_INIT;
    FT_OK(make_file(&f, 200, "snappy"));
    FT_OK(read_bytes(f.ptr, f.len));
    for (size_t n = 0; n < f.len; n += (n < 64 || n > f.len - 64) ? 1 : 7) {
        int rc = read_bytes(f.ptr, n);
        if (rc != FLOE_ECORRUPT) {
            ft_fail(__FILE__, __LINE__, "truncated at %zu: rc %d (%s)", n, rc, ft_floe_err());
            break;
        }
        FT_ERR_CONTAINS("bad.parquet");
        FT_ERR_CONTAINS("offset");
    }
    floe__buf_free(&f);
}

static void test_bad_magic_and_footer_length(void)
{
    floe_buf f = FLOE_BUF_INIT;
    FT_OK(make_file(&f, 10, "zstd"));
    char *copy = malloc(f.len);
    memcpy(copy, f.ptr, f.len);
    copy[f.len - 1] = 'X';
    FT_EQ_INT(read_bytes(copy, f.len), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("PAR1");
    memcpy(copy, f.ptr, f.len);
    uint32_t huge = 0x7fffffff;
    memcpy(copy + f.len - 8, &huge, 4);
    FT_EQ_INT(read_bytes(copy, f.len), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("footer length");
    free(copy);
    floe__buf_free(&f);
}

/* Flip bytes everywhere: any outcome but a crash, a leak or a wrong code. */
static void test_bit_flips(void)
{
    const char *codecs[] = {"uncompressed", "zstd", "gzip"};
    for (int c = 0; c < 3; c++) {
        floe_buf f = FLOE_BUF_INIT;
        FT_OK(make_file(&f, 120, codecs[c]));
        char *copy = malloc(f.len);
        for (size_t i = 0; i < f.len; i += 3) {
            memcpy(copy, f.ptr, f.len);
            copy[i] ^= (char)(0x5a + i);
            int rc = read_bytes(copy, f.len);
            if (rc != 0 && rc != FLOE_ECORRUPT && rc != FLOE_EUNSUPPORTED && rc != FLOE_EINVALID) {
                ft_fail(__FILE__, __LINE__, "%s flip at %zu: rc %d (%s)", codecs[c], i, rc,
                        ft_floe_err());
                break;
            }
        }
        free(copy);
        floe__buf_free(&f);
    }
}

static void test_oom_reader(void)
{
    floe_buf f = FLOE_BUF_INIT;
    FT_OK(make_file(&f, 300, "zstd"));
    for (long n = 1; n < 100000; n++) {
        floe__alloc_fail_at(n);
        int rc = read_bytes(f.ptr, f.len);
        long seen = floe__alloc_count();
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_CHECK(seen < n);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d (%s)", n, rc, ft_floe_err());
            break;
        }
    }
    floe__buf_free(&f);
}

static void test_oom_writer(void)
{
    for (long n = 1; n < 100000; n++) {
        floe_buf f = FLOE_BUF_INIT;
        floe__alloc_fail_at(n);
        int rc = make_file(&f, 150, "snappy");
        long seen = floe__alloc_count();
        floe__alloc_fail_at(0);
        floe__buf_free(&f);
        if (rc == 0) {
            FT_CHECK(seen < n);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d (%s)", n, rc, ft_floe_err());
            break;
        }
    }
}

static void test_hostile_page_counts(void)
{
    /* A DuckDB-style all-null page claiming 2^31-1 values in a few bytes must
     * be refused before allocating for it: patch num_values of a real file. */
    floe_buf f = FLOE_BUF_INIT;
    FT_OK(make_file(&f, 50, "uncompressed"));
    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, f.ptr, f.len, "bad.parquet"));
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, NULL));
    const floe_pq_file_meta *fm = floe__pq_reader_meta(r);
    int64_t off = fm->row_groups[0].columns[0].meta_data.data_page_offset;
    floe__pq_reader_free(r);
    in->close(in);
    floe_pq_page_header ph;
    size_t hl;
    FT_OK(floe__pq_decode_page_header(&ph, f.ptr + off, f.len - (size_t)off, off, "t", &hl));
    ph.num_values = 0x7fffffff;
    floe_buf nh = FLOE_BUF_INIT;
    FT_OK(floe__pq_encode_page_header(&ph, &nh));
    floe_buf g = FLOE_BUF_INIT;
    FT_OK(floe__buf_put(&g, f.ptr, (size_t)off));
    FT_OK(floe__buf_put(&g, nh.ptr, nh.len));
    FT_OK(floe__buf_put(&g, f.ptr + off + hl, f.len - (size_t)off - hl));
    /* the footer's offsets are now off by the header growth: still corrupt,
     * never a 4 GiB allocation */
    int rc = read_bytes(g.ptr, g.len);
    FT_CHECK(rc == FLOE_ECORRUPT);
    floe__buf_free(&nh);
    floe__buf_free(&g);
    floe__buf_free(&f);
}

static const ft_case cases[] = {
    {"truncated", test_truncated},
    {"bad_magic_and_footer_length", test_bad_magic_and_footer_length},
    {"bit_flips", test_bit_flips},
    {"oom_reader", test_oom_reader},
    {"oom_writer", test_oom_writer},
    {"hostile_page_counts", test_hostile_page_counts},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
