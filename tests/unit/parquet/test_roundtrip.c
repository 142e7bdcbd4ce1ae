/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parquet writer -> reader round trips over every primitive Iceberg type,
 * every codec, dictionary on/off, data pages v1/v2, many row groups and
 * pages; Iceberg metrics of the written file.
 */
#include "pqtest.h"

static int write_file(floe_buf *out, int64_t nrows, int64_t batch, const floe_props *props,
                      int page_version, bool no_dict, floe_pq_metrics *m)
{
    floe_pq_write_options o = {0};
    o.props = props;
    o.sink = pt_sink;
    o.sink_payload = out;
    o.data_page_version = page_version;
    o.dictionary_disabled = no_dict;
    o.iceberg_schema_json = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}";
    floe_pq_writer *w;
    int rc = floe__pq_writer_new(&w, &pt_schema, &o);
    if (rc < 0)
        return rc;
    for (int64_t at = 0; at < nrows && rc == 0; at += batch) {
        struct ArrowArray a;
        int64_t n = nrows - at < batch ? nrows - at : batch;
        rc = pt_batch(at, n, &a);
        if (rc == 0) {
            rc = floe__pq_writer_write(w, &a);
            a.release(&a);
        }
    }
    if (rc == 0)
        rc = floe__pq_writer_close(w, m);
    floe__pq_writer_free(w);
    return rc;
}

/* Read everything back and compare with pt_value. Returns rows seen. */
static int64_t check_file(const floe_buf *file, const floe_pq_read_options *opts)
{
    floe_input *in;
    if (floe__pq_input_memory(&in, file->ptr, file->len, "roundtrip.parquet") < 0)
        return -1;
    floe_pq_reader *r;
    if (floe__pq_reader_open(&r, in, opts) < 0) {
        ft_fail(__FILE__, __LINE__, "open: %s", ft_floe_err());
        in->close(in);
        return -1;
    }
    const floe_schema *s = floe__pq_reader_schema(r);
    int64_t row = 0;
    int bad = 0;
    for (;;) {
        struct ArrowArray a;
        int rc = floe__pq_reader_next(r, &a);
        if (rc == FLOE_ITEROVER)
            break;
        if (rc < 0) {
            ft_fail(__FILE__, __LINE__, "next: %s", ft_floe_err());
            row = -1;
            break;
        }
        for (int64_t i = 0; i < a.length; i++, row++) {
            for (size_t c = 0; c < s->root->nfields; c++) {
                const floe_field *f = &s->root->fields[c];
                int col = f->id - 1;
                uint8_t scratch[32];
                floe_value want = pt_value(row, col, scratch);
                floe_value got = pt_arrow_value(a.children[c], f->type, i);
                bool same = want.is_null == got.is_null &&
                            (want.is_null || floe_value_compare(&want, &got) == 0);
                if (!same && bad++ < 5)
                    ft_fail(__FILE__, __LINE__, "row %lld col %s: want %s got %s", (long long)row,
                            f->name, pt_fmt(&want), pt_fmt(&got));
            }
        }
        a.release(&a);
    }
    floe__pq_reader_free(r);
    in->close(in);
    return bad ? -1 : row;
}

static int64_t check_file_values(const floe_buf *file)
{
    floe_input *in;
    if (floe__pq_input_memory(&in, file->ptr, file->len, "f.parquet") < 0)
        return -1;
    floe_pq_reader *r;
    int64_t rows = -1;
    if (floe__pq_reader_open(&r, in, NULL) == 0) {
        struct ArrowArray a;
        if (floe__pq_reader_next(r, &a) == 0) {
            const double *v = a.children[0]->buffers[1];
            rows = a.length;
            for (int64_t i = 0; i < a.length; i++)
                if (isnan(v[i]) != (i == 1 || i == 4) || (i == 2 && !signbit(v[i])))
                    rows = -1;
            a.release(&a);
        }
        floe__pq_reader_free(r);
    }
    in->close(in);
    return rows;
}

static void roundtrip(const char *codec, int page_version, bool no_dict, int64_t rg_bytes)
{
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "write.parquet.compression-codec", codec));
    char tmp[32];
    snprintf(tmp, sizeof(tmp), "%lld", (long long)rg_bytes);
    FT_OK(floe__props_set(&p, "write.parquet.row-group-size-bytes", tmp));
    FT_OK(floe__props_set(&p, "write.parquet.page-size-bytes", "4096"));
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_metrics m;
    int rc = write_file(&file, 5000, 700, &p, page_version, no_dict, &m);
    floe__props_free(&p);
    if (rc < 0) {
        floe__buf_free(&file);
        FT_OK(rc);
    }
    FT_EQ_INT(m.record_count, 5000);
    FT_EQ_INT(m.file_size_in_bytes, (long long)file.len);
    FT_CHECK(m.nsplit_offsets >= 1);
    FT_EQ_INT(m.split_offsets[0], 4);
    if (rg_bytes < 100000)
        FT_CHECK(m.nsplit_offsets > 1);
    FT_EQ_INT(check_file(&file, NULL), 5000);
    /* projection by id, reordered and with a missing column */
    static const floe_type t_long = {.id = FLOE_T_LONG};
    floe_field pf[3] = {pt_fields[2], pt_fields[0], {99, "missing", false, &t_long, NULL, NULL, NULL}};
    floe_type proot = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = pf};
    floe_schema ps = {0, &proot, 0, NULL, 99, NULL, NULL};
    floe_pq_read_options ro = {0};
    ro.projection = &ps;
    FT_EQ_INT(check_file(&file, &ro), 5000);
    /* slices of row groups */
    ro.batch_rows = 333;
    FT_EQ_INT(check_file(&file, &ro), 5000);
    ro.projection = NULL;
    ro.batch_rows = 1;
    FT_EQ_INT(check_file(&file, &ro), 5000);
    floe__pq_metrics_free(&m);
    floe__buf_free(&file);
}

static void test_zstd_v1(void) { roundtrip("zstd", 1, false, 128 << 20); }
static void test_snappy_v2(void) { roundtrip("snappy", 2, false, 20000); }
static void test_gzip_nodict(void) { roundtrip("gzip", 1, true, 30000); }
static void test_uncompressed_v2_nodict(void) { roundtrip("uncompressed", 2, true, 128 << 20); }

static const floe_pq_field_metrics *find_metrics(const floe_pq_metrics *m, int32_t id)
{
    for (size_t i = 0; i < m->nfields; i++)
        if (m->fields[i].field_id == id)
            return &m->fields[i];
    return NULL;
}

static void test_metrics(void)
{
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "write.metadata.metrics.column.score", "counts"));
    FT_OK(floe__props_set(&p, "write.metadata.metrics.column.bin", "none"));
    FT_OK(floe__props_set(&p, "write.metadata.metrics.column.price", "full"));
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_metrics m;
    int rc = write_file(&file, 100, 100, &p, 1, false, &m);
    floe__props_free(&p);
    floe__buf_free(&file);
    FT_OK(rc);
    FT_EQ_INT(m.nfields, PT_NCOLS);
    const floe_pq_field_metrics *id = find_metrics(&m, 1);
    FT_ASSERT(id && id->has_counts);
    FT_EQ_INT(id->value_count, 100);
    FT_EQ_INT(id->null_value_count, 0);
    FT_ASSERT(id->lower_bound && id->lower_bound_len == 8);
    int64_t lo, hi;
    memcpy(&lo, id->lower_bound, 8);
    memcpy(&hi, id->upper_bound, 8);
    FT_EQ_INT(lo, -5000);
    FT_EQ_INT(hi, 99 * 1000003LL - 5000);
    /* name: rows where (i+1)%7==0 are null: i = 6, 13, ... 97 -> 14 */
    const floe_pq_field_metrics *name = find_metrics(&m, 2);
    FT_EQ_INT(name->null_value_count, 14);
    /* lower "" ; upper truncated to 16 code points and incremented */
    FT_EQ_INT(name->lower_bound_len, 0);
    FT_ASSERT(name->upper_bound);
    FT_EQ_INT(name->upper_bound_len, 16);
    /* "a longer string " + increment of the last code point (' ' -> '!') */
    FT_CHECK(!memcmp(name->upper_bound, "a longer string!", 16));
    const floe_pq_field_metrics *score = find_metrics(&m, 7);
    FT_CHECK(score->has_counts && score->has_nan_count && !score->lower_bound);
    FT_EQ_INT(score->nan_value_count, 0);
    const floe_pq_field_metrics *bin = find_metrics(&m, 13);
    FT_CHECK(!bin->has_counts && !bin->has_column_size && !bin->lower_bound);
    const floe_pq_field_metrics *price = find_metrics(&m, 3);
    FT_ASSERT(price->lower_bound);
    /* decimal bounds: minimal big-endian two's complement of -9999 */
    FT_EQ_INT(price->lower_bound_len, 2);
    FT_EQ_INT(price->lower_bound[0], 0xd8);
    FT_EQ_INT(price->lower_bound[1], 0xf1);
    floe__pq_metrics_free(&m);
}

static void test_string_upper_bound_increment(void)
{
    /* 17 chars "aaaaaaaaaaaaaaa\xF4\x8F\xBF\xBF" + x: the max code point can't
     * be incremented, so the previous one is. */
    static const floe_type ts = {.id = FLOE_T_STRING};
    static const floe_field f[1] = {{1, "s", false, &ts, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 1, .fields = f};
    static const floe_schema sch = {0, &root, 0, NULL, 1, NULL, NULL};
    const char *vals[] = {"aaaaaaaaaaaaaaa\xF4\x8F\xBF\xBFzzz", "b"};
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &root));
    for (int i = 0; i < 2; i++) {
        floe_value v = floe_value_bytes(FLOE_T_STRING, vals[i], strlen(vals[i]));
        FT_OK(floe__arrow_builder_append(b->children[0], &v));
        FT_OK(floe__arrow_builder_struct_append(b, true));
    }
    struct ArrowArray a;
    FT_OK(floe__arrow_builder_finish(b, &a));
    floe__arrow_builder_free(b);
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_write_options o = {0};
    o.sink = pt_sink;
    o.sink_payload = &file;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &sch, &o));
    FT_OK(floe__pq_writer_write(w, &a));
    a.release(&a);
    floe_pq_metrics m;
    FT_OK(floe__pq_writer_close(w, &m));
    floe__pq_writer_free(w);
    floe__buf_free(&file);
    FT_ASSERT(m.nfields == 1 && m.fields[0].lower_bound);
    /* lower: "aaaaaaaaaaaaaaa\xF4\x8F\xBF\xBF" (16 code points) */
    FT_EQ_INT(m.fields[0].lower_bound_len, 19);
    /* upper: max is "b" (short, untruncated) */
    FT_EQ_INT(m.fields[0].upper_bound_len, 1);
    FT_EQ_INT(m.fields[0].upper_bound[0], 'b');
    floe__pq_metrics_free(&m);
}

static void test_required_null_rejected(void)
{
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &pt_root));
    for (int c = 0; c < PT_NCOLS; c++)
        FT_OK(floe__arrow_builder_append_null(b->children[c]));
    FT_OK(floe__arrow_builder_struct_append(b, true));
    struct ArrowArray a;
    FT_OK(floe__arrow_builder_finish(b, &a));
    floe__arrow_builder_free(b);
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_write_options o = {0};
    o.sink = pt_sink;
    o.sink_payload = &file;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &pt_schema, &o));
    FT_EQ_INT(floe__pq_writer_write(w, &a), FLOE_EINVALID);
    FT_ERR_CONTAINS("Null value in required field: id");
    a.release(&a);
    floe__pq_writer_free(w);
    floe__buf_free(&file);
}

/* Past write.parquet.dict-size-bytes the chunk falls back to PLAIN pages of
 * normal size (a regression once flushed one page per value). */
static void test_dictionary_fallback(void)
{
    static const floe_type tl = {.id = FLOE_T_LONG};
    static const floe_field f[1] = {{1, "v", true, &tl, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 1, .fields = f};
    static const floe_schema sch = {0, &root, 0, NULL, 1, NULL, NULL};
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &root));
    for (int64_t i = 0; i < 50000; i++) {
        floe_value v = floe_value_long(i * 7919 % 100003);
        FT_OK(floe__arrow_builder_append(b->children[0], &v));
        FT_OK(floe__arrow_builder_struct_append(b, true));
    }
    struct ArrowArray a;
    FT_OK(floe__arrow_builder_finish(b, &a));
    floe__arrow_builder_free(b);
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "write.parquet.dict-size-bytes", "4000"));
    FT_OK(floe__props_set(&p, "write.parquet.compression-codec", "uncompressed"));
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = pt_sink;
    o.sink_payload = &file;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &sch, &o));
    FT_OK(floe__pq_writer_write(w, &a));
    a.release(&a);
    FT_OK(floe__pq_writer_close(w, NULL));
    floe__pq_writer_free(w);
    floe__props_free(&p);
    /* 50000 PLAIN longs = 400 kB; tiny pages would add a header per value */
    FT_CHECK(file.len < 420000);
    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, file.ptr, file.len, "fallback.parquet"));
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, NULL));
    const floe_pq_column_meta *m = &floe__pq_reader_meta(r)->row_groups[0].columns[0].meta_data;
    FT_CHECK(m->encodings & (1u << FLOE_PQ_ENC_PLAIN_DICTIONARY));
    FT_CHECK(m->encodings & (1u << FLOE_PQ_ENC_PLAIN));
    FT_OK(floe__pq_reader_next(r, &a));
    const int64_t *v = a.children[0]->buffers[1];
    for (int64_t i = 0; i < 50000; i++)
        if (v[i] != i * 7919 % 100003) {
            FT_EQ_INT(v[i], i * 7919 % 100003);
            break;
        }
    a.release(&a);
    floe__pq_reader_free(r);
    in->close(in);
    floe__buf_free(&file);
}

/* Float bounds: NaN is counted not bounded; -0.0 is below +0.0. */
static void test_float_bounds(void)
{
    static const floe_type td = {.id = FLOE_T_DOUBLE};
    static const floe_field f[1] = {{1, "x", false, &td, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 1, .fields = f};
    static const floe_schema sch = {0, &root, 0, NULL, 1, NULL, NULL};
    const double vals[5] = {0.0, NAN, -0.0, 0.0, NAN};
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &root));
    for (int i = 0; i < 5; i++) {
        floe_value v = floe_value_double(vals[i]);
        FT_OK(floe__arrow_builder_append(b->children[0], &v));
        FT_OK(floe__arrow_builder_struct_append(b, true));
    }
    struct ArrowArray a;
    FT_OK(floe__arrow_builder_finish(b, &a));
    floe__arrow_builder_free(b);
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "write.parquet.compression-level", "19"));
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = pt_sink;
    o.sink_payload = &file;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &sch, &o));
    FT_OK(floe__pq_writer_write(w, &a));
    a.release(&a);
    floe_pq_metrics m;
    FT_OK(floe__pq_writer_close(w, &m));
    floe__pq_writer_free(w);
    floe__props_free(&p);
    FT_EQ_INT(m.fields[0].nan_value_count, 2);
    FT_EQ_INT(m.fields[0].value_count, 5);
    FT_ASSERT(m.fields[0].lower_bound_len == 8 && m.fields[0].upper_bound_len == 8);
    double lo, hi;
    memcpy(&lo, m.fields[0].lower_bound, 8);
    memcpy(&hi, m.fields[0].upper_bound, 8);
    FT_CHECK(lo == 0.0 && signbit(lo));
    FT_CHECK(hi == 0.0 && !signbit(hi));
    floe__pq_metrics_free(&m);
    FT_EQ_INT(check_file_values(&file), 5);
    floe__buf_free(&file);
}

static const ft_case cases[] = {
    {"float_bounds", test_float_bounds},
    {"dictionary_fallback", test_dictionary_fallback},
    {"zstd_v1", test_zstd_v1},
    {"snappy_v2", test_snappy_v2},
    {"gzip_nodict", test_gzip_nodict},
    {"uncompressed_v2_nodict", test_uncompressed_v2_nodict},
    {"metrics", test_metrics},
    {"string_upper_bound_increment", test_string_upper_bound_increment},
    {"required_null_rejected", test_required_null_rejected},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
