/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Encodings and wire formats against the examples of parquet-format
 * (Encodings.md): RLE/bit-packed hybrid, DELTA_BINARY_PACKED,
 * DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT; thrift compact round trips and
 * skipping of unknown fields; INT96 timestamps; row-group skipping by
 * statistics.
 */
#include "parquet/encoding.h"
#include "parquet/thrift.h"
#include "pqtest.h"

static const floe_pq_where W = {"test", 0};

static void test_rle_roundtrip(void)
{
    uint16_t vals[3000], back[3000];
    uint32_t seed = 12345;
    for (int width = 0; width <= 16; width++) {
        uint16_t max = (uint16_t)(width ? (1u << width) - 1 : 0);
        for (int i = 0; i < 3000; i++) {
            seed = seed * 1103515245u + 12345u;
            /* runs and noise */
            vals[i] = (i / 50) % 3 == 0 ? (uint16_t)((i / 50) & max) : (uint16_t)((seed >> 16) & max);
        }
        floe_buf b = FLOE_BUF_INIT;
        FT_OK(floe__pq_rle_encode16(vals, 3000, width, &b));
        int64_t used = floe__pq_rle_decode16((const uint8_t *)b.ptr, b.len, width, back, 3000, &W);
        FT_CHECK(used > 0 || width == 0);
        FT_CHECK(used <= (int64_t)b.len);
        FT_CHECK(!memcmp(vals, back, sizeof(vals)));
        floe__buf_free(&b);
    }
    /* truncated stream -> corrupt */
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__pq_rle_encode16(vals, 100, 16, &b));
    FT_EQ_INT(floe__pq_rle_decode16((const uint8_t *)b.ptr, b.len / 2, 16, back, 100, &W),
              FLOE_ECORRUPT);
    floe__buf_free(&b);
}

static void test_delta_binary_packed_examples(void)
{
    /* Encodings.md example 1: 1, 2, 3, 4, 5 */
    static const uint8_t ex1[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0};
    int64_t out[8];
    size_t n;
    FT_EQ_INT(floe__pq_delta_decode(ex1, sizeof(ex1), out, 8, &n, &W), sizeof(ex1));
    FT_EQ_INT(n, 5);
    for (int i = 0; i < 5; i++)
        FT_EQ_INT(out[i], i + 1);
    /* example 2: 7, 5, 3, 1, 2, 3, 4, 5 (min delta -2, width 2) */
    uint8_t ex2[64] = {0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0, 0, 0, 0xc0, 0x3f};
    FT_CHECK(floe__pq_delta_decode(ex2, 10 + 8, out, 8, &n, &W) > 0);
    FT_EQ_INT(n, 8);
    const int64_t want[8] = {7, 5, 3, 1, 2, 3, 4, 5};
    for (int i = 0; i < 8; i++)
        FT_EQ_INT(out[i], want[i]);
    /* more values than the page holds -> corrupt */
    FT_EQ_INT(floe__pq_delta_decode(ex2, 18, out, 4, &n, &W), FLOE_ECORRUPT);
    /* truncated miniblock -> corrupt */
    FT_EQ_INT(floe__pq_delta_decode(ex2, 12, out, 8, &n, &W), FLOE_ECORRUPT);
}

static void test_delta_byte_array_example(void)
{
    /* "axis", "axle", "babble", "babyhood": prefixes 0,2,0,3; suffixes
     * "axis","le","babble","yhood" */
    uint8_t buf[128];
    size_t at = 0;
    const uint8_t pre[] = {0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0, 0, 0, 0x44, 0x01};
    const uint8_t suf[] = {0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0, 0, 0, 0x70, 0x00};
    memcpy(buf + at, pre, sizeof(pre)), at += sizeof(pre);
    memset(buf + at, 0, 10), at += 10;
    memcpy(buf + at, suf, sizeof(suf)), at += sizeof(suf);
    memset(buf + at, 0, 10), at += 10;
    memcpy(buf + at, "axislebabbleyhood", 17), at += 17;
    floe_pq_binvals v = {0};
    FT_OK(floe__pq_decode_bytes(FLOE_PQ_ENC_DELTA_BYTE_ARRAY, buf, at, 4, 0, &v, &W));
    FT_EQ_INT(v.n, 4);
    const char *want[4] = {"axis", "axle", "babble", "babyhood"};
    for (int i = 0; i < 4; i++) {
        FT_EQ_INT(v.offsets[i + 1] - v.offsets[i], strlen(want[i]));
        FT_CHECK(!memcmp(v.data.ptr + v.offsets[i], want[i], strlen(want[i])));
    }
    floe__pq_binvals_free(&v);
    /* DELTA_LENGTH_BYTE_ARRAY: the suffix part alone with lengths 4,2,6,5 */
    FT_OK(floe__pq_decode_bytes(FLOE_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY, buf + 22, at - 22, 4, 0, &v, &W));
    FT_EQ_INT(v.n, 4);
    FT_CHECK(!memcmp(v.data.ptr, "axislebabbleyhood", 17));
    floe__pq_binvals_free(&v);
    /* a prefix longer than the previous value -> corrupt */
    buf[10] = 0x47; /* first relative delta 7: prefix 5 of "axis" */
    FT_EQ_INT(floe__pq_decode_bytes(FLOE_PQ_ENC_DELTA_BYTE_ARRAY, buf, at, 4, 0, &v, &W),
              FLOE_ECORRUPT);
    floe__pq_binvals_free(&v);
}

static void test_byte_stream_split(void)
{
    float f[3] = {1.5f, -2.25f, 1e30f};
    uint8_t src[12], enc[12], dec[12];
    memcpy(src, f, 12);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            enc[k * 3 + i] = src[i * 4 + k];
    FT_OK(floe__pq_bss_decode(enc, 12, 3, 4, dec, &W));
    FT_CHECK(!memcmp(src, dec, 12));
    FT_EQ_INT(floe__pq_bss_decode(enc, 11, 3, 4, dec, &W), FLOE_ECORRUPT);
}

static void test_thrift_page_header_roundtrip_and_skip(void)
{
    floe_pq_page_header ph = {0};
    ph.type = FLOE_PQ_PAGE_DATA_V2;
    ph.uncompressed_page_size = 1000;
    ph.compressed_page_size = 700;
    ph.num_values = 300;
    ph.num_nulls = 7;
    ph.num_rows = 300;
    ph.encoding = FLOE_PQ_ENC_RLE_DICTIONARY;
    ph.def_levels_byte_length = 12;
    ph.rep_levels_byte_length = 0;
    ph.is_compressed = false;
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__pq_encode_page_header(&ph, &b));
    floe_pq_page_header back;
    size_t hl;
    FT_OK(floe__pq_decode_page_header(&back, b.ptr, b.len, 0, "t", &hl));
    FT_EQ_INT(hl, b.len);
    FT_EQ_INT(back.type, FLOE_PQ_PAGE_DATA_V2);
    FT_EQ_INT(back.num_nulls, 7);
    FT_EQ_INT(back.def_levels_byte_length, 12);
    FT_CHECK(!back.is_compressed);
    FT_EQ_INT(back.encoding, FLOE_PQ_ENC_RLE_DICTIONARY);
    /* unknown fields of every type before the known ones are skipped */
    floe_buf u = FLOE_BUF_INIT;
    floe_tenc e;
    floe__tenc_init(&e, &u);
    FT_OK(floe__tenc_struct_begin(&e));
    FT_OK(floe__tenc_i32(&e, 1, FLOE_PQ_PAGE_DICTIONARY));
    FT_OK(floe__tenc_i32(&e, 2, 10));
    FT_OK(floe__tenc_i32(&e, 3, 10));
    FT_OK(floe__tenc_field(&e, 6, FLOE_TC_STRUCT)); /* index_page_header: skipped */
    FT_OK(floe__tenc_struct_begin(&e));
    FT_OK(floe__tenc_binary(&e, 1, "xyz", 3));
    FT_OK(floe__tenc_list_begin(&e, 2, FLOE_TC_I64, 20));
    for (int i = 0; i < 20; i++)
        FT_OK(floe__tenc_varint(&e, (uint64_t)i * 1000));
    FT_OK(floe__tenc_field(&e, 3, FLOE_TC_DOUBLE));
    FT_OK(floe__buf_put(&u, "\0\0\0\0\0\0\xf0\x3f", 8));
    FT_OK(floe__tenc_bool(&e, 4, true));
    FT_OK(floe__tenc_struct_end(&e));
    FT_OK(floe__tenc_field(&e, 7, FLOE_TC_STRUCT));
    FT_OK(floe__tenc_struct_begin(&e));
    FT_OK(floe__tenc_i32(&e, 1, 42));
    FT_OK(floe__tenc_i32(&e, 2, FLOE_PQ_ENC_PLAIN));
    FT_OK(floe__tenc_i32(&e, 300, 5)); /* long-form field header */
    FT_OK(floe__tenc_struct_end(&e));
    FT_OK(floe__tenc_struct_end(&e));
    FT_OK(floe__pq_decode_page_header(&back, u.ptr, u.len, 0, "t", &hl));
    FT_EQ_INT(back.type, FLOE_PQ_PAGE_DICTIONARY);
    FT_EQ_INT(back.dict_num_values, 42);
    FT_EQ_INT(hl, u.len);
    /* every truncation is corrupt */
    for (size_t n = 0; n < u.len; n++)
        FT_EQ_INT(floe__pq_decode_page_header(&back, u.ptr, n, 100, "t", &hl), FLOE_ECORRUPT);
    floe__buf_free(&u);
    floe__buf_free(&b);
}

static void test_thrift_depth_bound(void)
{
    /* 100 nested structs in an unknown field: refused, no stack overflow */
    floe_buf u = FLOE_BUF_INIT;
    FT_OK(floe__buf_putc(&u, 0x1c)); /* field 1, struct */
    for (int i = 0; i < 100; i++)
        FT_OK(floe__buf_putc(&u, 0x1c));
    for (int i = 0; i < 102; i++)
        FT_OK(floe__buf_putc(&u, 0));
    floe_pq_page_header ph;
    size_t hl;
    FT_EQ_INT(floe__pq_decode_page_header(&ph, u.ptr, u.len, 0, "t", &hl), FLOE_ECORRUPT);
    floe__buf_free(&u);
}

/* INT96 (legacy Spark/Impala timestamps): write fixed[12] values, then
 * re-type the column as INT96 in the footer; PLAIN bytes are identical. */
static void test_int96_timestamps(void)
{
    static const floe_type tf = {.id = FLOE_T_FIXED, .length = 12};
    static const floe_field f[1] = {{1, "ts", false, &tf, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 1, .fields = f};
    static const floe_schema sch = {0, &root, 0, NULL, 1, NULL, NULL};
    /* 2020-01-01T00:00:01.5 UTC = julian day 2458850, 1.5 s into the day;
     * 1969-12-31T23:59:59.999999 = day 2440587, nanos 86399999999000 */
    const int64_t nanos[2] = {1500000000LL, 86399999999000LL};
    const int32_t days[2] = {2458850, 2440587};
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &root));
    for (int i = 0; i < 2; i++) {
        uint8_t v[12];
        memcpy(v, &nanos[i], 8);
        memcpy(v + 8, &days[i], 4);
        floe_value fv = floe_value_bytes(FLOE_T_FIXED, v, 12);
        FT_OK(floe__arrow_builder_append(b->children[0], &fv));
        FT_OK(floe__arrow_builder_struct_append(b, true));
    }
    struct ArrowArray a;
    FT_OK(floe__arrow_builder_finish(b, &a));
    floe__arrow_builder_free(b);
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_write_options o = {0};
    o.sink = pt_sink;
    o.sink_payload = &file;
    o.dictionary_disabled = true;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &sch, &o));
    FT_OK(floe__pq_writer_write(w, &a));
    a.release(&a);
    FT_OK(floe__pq_writer_close(w, NULL));
    floe__pq_writer_free(w);
    uint32_t flen;
    memcpy(&flen, file.ptr + file.len - 8, 4);
    size_t at = file.len - 8 - flen;
    floe_arena *ar = floe__arena_new(1024);
    floe_pq_file_meta fm;
    FT_OK(floe__pq_decode_file_meta(&fm, ar, file.ptr + at, flen, (int64_t)at, "t"));
    fm.schema[1].type = FLOE_PQ_INT96;
    fm.row_groups[0].columns[0].meta_data.type = FLOE_PQ_INT96;
    fm.row_groups[0].columns[0].meta_data.has_statistics = false;
    file.len = at;
    FT_OK(floe__pq_encode_file_meta(&fm, &file));
    floe__arena_free(ar);
    uint32_t nl = (uint32_t)(file.len - at);
    FT_OK(floe__buf_put(&file, &nl, 4));
    FT_OK(floe__buf_put(&file, "PAR1", 4));
    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, file.ptr, file.len, "int96.parquet"));
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, NULL));
    FT_EQ_INT(floe__pq_reader_schema(r)->root->fields[0].type->id, FLOE_T_TIMESTAMPTZ);
    FT_OK(floe__pq_reader_next(r, &a));
    const int64_t *us = a.children[0]->buffers[1];
    FT_EQ_INT(us[0], 1577836801500000LL);
    FT_EQ_INT(us[1], -1);
    a.release(&a);
    floe__pq_reader_free(r);
    in->close(in);
    floe__buf_free(&file);
}

/* keep_row_group sees per-row-group statistics and skips row groups. */
static bool keep_if_overlaps(floe_pq_reader *r, size_t rg, void *payload)
{
    int *calls = payload;
    (*calls)++;
    floe_pq_chunk_stats st;
    if (floe__pq_reader_chunk_stats(r, rg, 1, &st) < 0 || !st.has_min_max)
        return true;
    /* keep row groups that may hold id in [200000000, 300000000] */
    return !(st.max.v.i64 < 200000000LL || st.min.v.i64 > 300000000LL);
}

static void test_row_group_skipping(void)
{
    floe_buf file = FLOE_BUF_INIT;
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "write.parquet.row-group-size-bytes", "8000"));
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = pt_sink;
    o.sink_payload = &file;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &pt_schema, &o));
    for (int64_t at = 0; at < 1000; at += 100) {
        struct ArrowArray a;
        FT_OK(pt_batch(at, 100, &a));
        FT_OK(floe__pq_writer_write(w, &a));
        a.release(&a);
    }
    FT_OK(floe__pq_writer_close(w, NULL));
    floe__pq_writer_free(w);
    floe__props_free(&p);
    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, file.ptr, file.len, "rg.parquet"));
    int calls = 0;
    floe_pq_read_options ro = {0};
    ro.keep_row_group = keep_if_overlaps;
    ro.keep_row_group_payload = &calls;
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, &ro));
    size_t ngroups = floe__pq_reader_meta(r)->nrow_groups;
    FT_CHECK(ngroups > 3);
    /* statistics decode to the column's type */
    floe_pq_chunk_stats st;
    FT_OK(floe__pq_reader_chunk_stats(r, 0, 1, &st));
    FT_CHECK(st.has_min_max && st.min.type == FLOE_T_LONG);
    FT_EQ_INT(st.min.v.i64, -5000);
    FT_OK(floe__pq_reader_chunk_stats(r, 0, 2, &st));
    FT_CHECK(st.has_null_count && st.null_count > 0);
    int64_t rows = 0, lo = INT64_MAX, hi = INT64_MIN;
    struct ArrowArray a;
    while (floe__pq_reader_next(r, &a) == 0) {
        const int64_t *ids = a.children[0]->buffers[1];
        for (int64_t i = 0; i < a.length; i++) {
            lo = ids[i] < lo ? ids[i] : lo;
            hi = ids[i] > hi ? ids[i] : hi;
        }
        rows += a.length;
        a.release(&a);
    }
    FT_EQ_INT(calls, ngroups);
    FT_CHECK(rows > 0 && rows < 1000);
    FT_CHECK(lo <= 200000000LL && hi >= 300000000LL);
    floe__pq_reader_free(r);
    in->close(in);
    floe__buf_free(&file);
}

static const ft_case cases[] = {
    {"rle_roundtrip", test_rle_roundtrip},
    {"delta_binary_packed_examples", test_delta_binary_packed_examples},
    {"delta_byte_array_example", test_delta_byte_array_example},
    {"byte_stream_split", test_byte_stream_split},
    {"thrift_page_header_roundtrip_and_skip", test_thrift_page_header_roundtrip_and_skip},
    {"thrift_depth_bound", test_thrift_depth_bound},
    {"int96_timestamps", test_int96_timestamps},
    {"row_group_skipping", test_row_group_skipping},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
