/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reader's streamed decoding (batch_rows > 0: a row group decoded a
 * few pages at a time into reused buffers, parquet/column.c
 * floe__pq_chunk_more) against the whole-row-group decoding it replaces in
 * scans: for files of every primitive type (the round-trip fixture: nulls in
 * all but two columns, strings, binary, fixed, decimals on int32 / int64 /
 * fixed bytes, booleans), every codec, dictionary on and off, data pages v1
 * and v2, many pages and row groups, and batch sizes that fall inside pages,
 * on page boundaries and across row groups, the concatenated batches must
 * hold byte for byte the values (and validity) of the whole decoding; so
 * must the stripes of two or three striped readers (stripe mode, the
 * scan's two-core read of one file) taken in turn. Then the streamed and
 * striped reads under an allocation-failure loop.
 */
#include "pqtest.h"

static int write_file(floe_buf *out, int64_t nrows, const char *codec, int page_version,
                      bool no_dict, const char *rg_bytes)
{
    floe_props p = FLOE_PROPS_INIT;
    int rc = floe__props_set(&p, "write.parquet.compression-codec", codec);
    if (rc == 0)
        rc = floe__props_set(&p, "write.parquet.row-group-size-bytes", rg_bytes);
    if (rc == 0)
        rc = floe__props_set(&p, "write.parquet.page-size-bytes", "2048");
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = pt_sink;
    o.sink_payload = out;
    o.data_page_version = page_version;
    o.dictionary_disabled = no_dict;
    floe_pq_writer *w = NULL;
    if (rc == 0)
        rc = floe__pq_writer_new(&w, &pt_schema, &o);
    for (int64_t at = 0; at < nrows && rc == 0; at += 500) {
        struct ArrowArray a;
        int64_t n = nrows - at < 500 ? nrows - at : 500;
        rc = pt_batch(at, n, &a);
        if (rc == 0) {
            rc = floe__pq_writer_write(w, &a);
            a.release(&a);
        }
    }
    if (rc == 0)
        rc = floe__pq_writer_close(w, NULL);
    floe__pq_writer_free(w);
    floe__props_free(&p);
    return rc;
}

/* Append slot i of primitive column a to fp: a validity byte, then (when
 * valid) the value's bytes as the Arrow buffers hold them. */
static int fingerprint_slot(floe_buf *fp, const struct ArrowArray *a, const floe_type *t, int64_t i)
{
    bool valid = floe__arrow_is_valid(a, i);
    FLOE_TRY(floe__buf_putc(fp, valid ? 1 : 0));
    if (!valid)
        return 0;
    int64_t k = i + a->offset;
    const uint8_t *vals = a->buffers[1];
    switch (t->id) {
    case FLOE_T_BOOLEAN: return floe__buf_putc(fp, floe__arrow_bit_get(vals, k) ? 1 : 0);
    case FLOE_T_STRING:
    case FLOE_T_BINARY: {
        const int32_t *off = (const int32_t *)vals;
        int32_t len = off[k + 1] - off[k];
        FLOE_TRY(floe__buf_put(fp, &len, 4));
        return floe__buf_put(fp, (const char *)a->buffers[2] + off[k], (size_t)len);
    }
    default: {
        size_t w = t->id == FLOE_T_INT || t->id == FLOE_T_DATE || t->id == FLOE_T_FLOAT ? 4
                   : t->id == FLOE_T_DECIMAL || t->id == FLOE_T_UUID                   ? 16
                   : t->id == FLOE_T_FIXED                                               ? (size_t)t->length
                                                                                         : 8;
        return floe__buf_put(fp, vals + (size_t)k * w, w);
    }
    }
}

/* Read the file with `batch_rows`; fp[c] gets column c's slots in order.
 * Returns the rows read or a negative error. */
static int64_t read_all(const floe_buf *file, int64_t batch_rows, floe_buf fp[PT_NCOLS],
                        int64_t *batches)
{
    floe_input *in;
    FLOE_TRY(floe__pq_input_memory(&in, file->ptr, file->len, "stream.parquet"));
    floe_pq_read_options o = {0};
    o.projection = &pt_schema;
    o.batch_rows = batch_rows;
    floe_pq_reader *r = NULL;
    int64_t rows = 0;
    int rc = floe__pq_reader_open(&r, in, &o);
    *batches = 0;
    while (rc == 0) {
        struct ArrowArray a;
        rc = floe__pq_reader_next(r, &a);
        if (rc == FLOE_ITEROVER) {
            rc = 0;
            break;
        }
        if (rc < 0)
            break;
        if (batch_rows > 0 && a.length > batch_rows)
            rc = floe__error(FLOE_EINVALID, "test", "batch of %lld rows", (long long)a.length);
        for (size_t c = 0; c < PT_NCOLS && rc == 0; c++)
            for (int64_t i = 0; i < a.length && rc == 0; i++)
                rc = fingerprint_slot(&fp[c], a.children[c], pt_fields[c].type, i);
        rows += a.length;
        (*batches)++;
        a.release(&a);
    }
    floe__pq_reader_free(r);
    in->close(in);
    return rc < 0 ? rc : rows;
}

/* Stripe mode: `count` readers of the file, stripes of `srows` rows,
 * asked in turn (reader 0, 1, ..., 0, ...); their batches must come in the
 * file's row order (each batch's first row is the next row, empty ones
 * included) and end together. */
static int64_t read_striped(const floe_buf *file, int count, int64_t srows, floe_buf fp[PT_NCOLS])
{
    floe_input *in;
    FLOE_TRY(floe__pq_input_memory(&in, file->ptr, file->len, "striped.parquet"));
    floe_pq_reader *r[4] = {0};
    int rc = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        floe_pq_read_options o = {0};
        o.projection = &pt_schema;
        o.stripe_rows = srows;
        o.stripe_index = i;
        o.stripe_count = count;
        rc = floe__pq_reader_open(&r[i], in, &o);
    }
    int64_t rows = 0;
    int ended = 0;
    for (int i = 0; rc == 0 && ended < count; i = (i + 1) % count) {
        struct ArrowArray a;
        rc = floe__pq_reader_next(r[i], &a);
        if (rc == FLOE_ITEROVER) {
            rc = 0;
            ended++;
            continue;
        }
        if (rc < 0)
            break;
        if (ended)
            rc = floe__error(FLOE_EINVALID, "test", "reader %d goes on after another ended", i);
        else if (a.length && floe__pq_reader_batch_row(r[i]) != rows)
            rc = floe__error(FLOE_EINVALID, "test", "batch at row %lld, expected %lld",
                             (long long)floe__pq_reader_batch_row(r[i]), (long long)rows);
        else if (a.length > srows)
            rc = floe__error(FLOE_EINVALID, "test", "stripe of %lld rows", (long long)a.length);
        for (size_t c = 0; c < PT_NCOLS && rc == 0; c++)
            for (int64_t k = 0; k < a.length && rc == 0; k++)
                rc = fingerprint_slot(&fp[c], a.children[c], pt_fields[c].type, k);
        rows += a.length;
        a.release(&a);
    }
    for (int i = 0; i < count; i++)
        floe__pq_reader_free(r[i]);
    in->close(in);
    return rc < 0 ? rc : rows;
}

static void fp_free(floe_buf fp[PT_NCOLS])
{
    for (size_t c = 0; c < PT_NCOLS; c++)
        floe__buf_free(&fp[c]);
}

static void compare_modes(const char *codec, int page_version, bool no_dict, const char *rg_bytes)
{
    enum { ROWS = 3000 };
    floe_buf file = FLOE_BUF_INIT;
    FT_OK(write_file(&file, ROWS, codec, page_version, no_dict, rg_bytes));
    floe_buf whole[PT_NCOLS], part[PT_NCOLS];
    memset(whole, 0, sizeof whole);
    int64_t nb = 0;
    FT_EQ_INT(read_all(&file, 0, whole, &nb), ROWS);
    static const int64_t sizes[] = {1, 7, 64, 333, 1024, 2999, 3000, 65536};
    for (size_t k = 0; k < FT_N(sizes); k++) {
        memset(part, 0, sizeof part);
        int64_t pb = 0;
        FT_EQ_INT(read_all(&file, sizes[k], part, &pb), ROWS);
        FT_CHECK(pb >= nb);
        for (size_t c = 0; c < PT_NCOLS; c++)
            if (part[c].len != whole[c].len || memcmp(part[c].ptr, whole[c].ptr, whole[c].len))
                ft_fail(__FILE__, __LINE__, "%s v%d%s: column %s differs with batches of %lld",
                        codec, page_version, no_dict ? " plain" : "", pt_fields[c].name,
                        (long long)sizes[k]);
        fp_free(part);
    }
    static const int64_t stripes[] = {1, 100, 777, 1500, 4000};
    for (size_t k = 0; k < FT_N(stripes); k++)
        for (int count = 2; count <= 3; count++) {
            memset(part, 0, sizeof part);
            int64_t got = read_striped(&file, count, stripes[k], part);
            if (got != ROWS)
                ft_fail(__FILE__, __LINE__, "%d stripes of %lld: %lld rows (%s)", count,
                        (long long)stripes[k], (long long)got, got < 0 ? ft_floe_err() : "");
            for (size_t c = 0; c < PT_NCOLS && got == ROWS; c++)
                if (part[c].len != whole[c].len || memcmp(part[c].ptr, whole[c].ptr, whole[c].len))
                    ft_fail(__FILE__, __LINE__, "%s v%d: column %s differs in %d stripes of %lld",
                            codec, page_version, pt_fields[c].name, count, (long long)stripes[k]);
            fp_free(part);
        }
    fp_free(whole);
    floe__buf_free(&file);
}

static void test_zstd_v1_dict(void) { compare_modes("zstd", 1, false, "134217728"); }
static void test_snappy_v2_dict_row_groups(void) { compare_modes("snappy", 2, false, "16000"); }
static void test_gzip_v1_plain_row_groups(void) { compare_modes("gzip", 1, true, "24000"); }
static void test_uncompressed_v2_plain(void) { compare_modes("uncompressed", 2, true, "134217728"); }

/* The streamed (batch_rows 100) or striped (2 readers, stripes of 150)
 * read of `file` into got. */
static int64_t read_mode(const floe_buf *file, bool striped, floe_buf got[PT_NCOLS])
{
    int64_t nb;
    return striped ? read_striped(file, 2, 150, got) : read_all(file, 100, got, &nb);
}

/* Every allocation of a streamed, then a striped read failing in turn:
 * FLOE_ENOMEM or the whole decoding's values, never a crash or a leak. */
static void test_oom_streamed(void)
{
    floe_buf file = FLOE_BUF_INIT;
    FT_OK(write_file(&file, 700, "zstd", 1, false, "12000"));
    floe_buf want[PT_NCOLS], got[PT_NCOLS];
    memset(want, 0, sizeof want);
    int64_t nb;
    FT_EQ_INT(read_all(&file, 0, want, &nb), 700);
    for (int striped = 0; striped < 2; striped++) {
        bool done = false;
        for (long nth = 1; nth < 5000 && !done; nth++) {
            memset(got, 0, sizeof got);
            floe__alloc_fail_at(nth);
            int64_t rows = read_mode(&file, striped, got);
            floe__alloc_fail_at(0);
            if (rows >= 0) {
                done = true;
                FT_EQ_INT(rows, 700);
                for (size_t c = 0; c < PT_NCOLS; c++)
                    FT_CHECK(got[c].len == want[c].len &&
                             !memcmp(got[c].ptr, want[c].ptr, want[c].len));
            } else {
                FT_EQ_INT(rows, FLOE_ENOMEM);
                floe_error_clear();
            }
            fp_free(got);
        }
        FT_CHECK(done);
    }
    fp_free(want);
    floe__buf_free(&file);
}

static const ft_case cases[] = {
    {"zstd_v1_dict", test_zstd_v1_dict},
    {"snappy_v2_dict_row_groups", test_snappy_v2_dict_row_groups},
    {"gzip_v1_plain_row_groups", test_gzip_v1_plain_row_groups},
    {"uncompressed_v2_plain", test_uncompressed_v2_plain},
    {"oom_streamed", test_oom_streamed},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
