/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arrow C Data Interface: ArrowSchema from Iceberg types (formats, names,
 * nullability, PARQUET:field_id metadata), builders and release callbacks,
 * and the ArrowArrayStream produced by the Parquet reader.
 */
#include "arrow/arrow.h"
#include "harness.h"
#include "parquet/parquet.h"
#include "spec/value.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const floe_type t_int = {.id = FLOE_T_INT}, t_str = {.id = FLOE_T_STRING},
                       t_dec = {.id = FLOE_T_DECIMAL, .precision = 38, .scale = 9},
                       t_tsz = {.id = FLOE_T_TIMESTAMPTZ}, t_fix = {.id = FLOE_T_FIXED, .length = 7},
                       t_uuid = {.id = FLOE_T_UUID};
static const floe_field el = {5, "element", false, &t_str, NULL, NULL, NULL};
static const floe_type t_list = {.id = FLOE_T_LIST, .element = &el};
static const floe_field mk = {7, "key", true, &t_str, NULL, NULL, NULL};
static const floe_field mv = {8, "value", true, &t_int, NULL, NULL, NULL};
static const floe_type t_map = {.id = FLOE_T_MAP, .key = &mk, .value = &mv};
static const floe_field fields[7] = {
    {1, "i", true, &t_int, NULL, NULL, NULL},     {2, "d", false, &t_dec, NULL, NULL, NULL},
    {3, "ts", false, &t_tsz, NULL, NULL, NULL},   {4, "l", false, &t_list, NULL, NULL, NULL},
    {6, "m", false, &t_map, NULL, NULL, NULL},    {9, "f", false, &t_fix, NULL, NULL, NULL},
    {10, "u", false, &t_uuid, NULL, NULL, NULL},
};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 7, .fields = fields};

/* Read PARQUET:field_id from an ArrowSchema metadata blob. */
static int field_id_of(const struct ArrowSchema *s)
{
    if (!s->metadata)
        return -1;
    const char *p = s->metadata;
    int32_t n, kl, vl;
    memcpy(&n, p, 4), p += 4;
    for (int32_t i = 0; i < n; i++) {
        memcpy(&kl, p, 4), p += 4;
        const char *k = p;
        p += kl;
        memcpy(&vl, p, 4), p += 4;
        if (kl == 16 && !memcmp(k, "PARQUET:field_id", 16)) {
            char tmp[16] = {0};
            memcpy(tmp, p, (size_t)vl < 15 ? (size_t)vl : 15);
            return atoi(tmp);
        }
        p += vl;
    }
    return -1;
}

static void test_schema(void)
{
    struct ArrowSchema s;
    FT_OK(floe__arrow_schema_from_struct(&s, &root));
    FT_EQ_STR(s.format, "+s");
    FT_EQ_INT(s.n_children, 7);
    const char *formats[7] = {"i", "d:38,9", "tsu:UTC", "+l", "+m", "w:7", "w:16"};
    for (int i = 0; i < 7; i++) {
        FT_EQ_STR(s.children[i]->format, formats[i]);
        FT_EQ_STR(s.children[i]->name, fields[i].name);
        FT_EQ_INT(field_id_of(s.children[i]), fields[i].id);
        FT_EQ_INT(s.children[i]->flags & ARROW_FLAG_NULLABLE, fields[i].required ? 0 : ARROW_FLAG_NULLABLE);
    }
    const struct ArrowSchema *l = s.children[3];
    FT_EQ_INT(l->n_children, 1);
    FT_EQ_STR(l->children[0]->name, "element");
    FT_EQ_STR(l->children[0]->format, "u");
    FT_EQ_INT(field_id_of(l->children[0]), 5);
    const struct ArrowSchema *m = s.children[4];
    FT_EQ_STR(m->children[0]->format, "+s");
    FT_EQ_STR(m->children[0]->name, "entries");
    FT_EQ_INT(m->children[0]->flags & ARROW_FLAG_NULLABLE, 0);
    FT_EQ_STR(m->children[0]->children[0]->name, "key");
    FT_EQ_INT(m->children[0]->children[0]->flags & ARROW_FLAG_NULLABLE, 0);
    FT_EQ_INT(field_id_of(m->children[0]->children[1]), 8);
    s.release(&s);
    FT_CHECK(s.release == NULL);
}

static void test_builders(void)
{
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &root));
    for (int r = 0; r < 3; r++) {
        floe_value i = floe_value_int(r * 10);
        FT_OK(floe__arrow_builder_append(b->children[0], &i));
        floe_value d = floe_value_decimal((floe_i128)r * 1000000000 + 1, 9);
        FT_OK(floe__arrow_builder_append(b->children[1], r == 1 ? NULL : &d));
        floe_value ts = floe_value_i64(FLOE_T_TIMESTAMPTZ, r);
        FT_OK(floe__arrow_builder_append(b->children[2], &ts));
        floe_arrow_builder *l = b->children[3];
        for (int k = 0; k < r; k++) {
            floe_value s = floe_value_bytes(FLOE_T_STRING, "ab", (size_t)k + 1);
            FT_OK(floe__arrow_builder_append(l->children[0], &s));
        }
        FT_OK(floe__arrow_builder_list_append(l, true, r));
        FT_OK(floe__arrow_builder_append_null(b->children[4]));
        floe_value f = floe_value_bytes(FLOE_T_FIXED, "1234567", 7);
        FT_OK(floe__arrow_builder_append(b->children[5], &f));
        FT_OK(floe__arrow_builder_append_null(b->children[6]));
        FT_OK(floe__arrow_builder_struct_append(b, true));
    }
    /* wrong fixed width is rejected */
    floe_value bad = floe_value_bytes(FLOE_T_FIXED, "12", 2);
    FT_EQ_INT(floe__arrow_builder_append(b->children[5], &bad), FLOE_EINVALID);
    struct ArrowArray a;
    FT_OK(floe__arrow_builder_finish(b, &a));
    FT_EQ_INT(a.length, 3);
    FT_EQ_INT(a.n_children, 7);
    FT_EQ_INT(a.children[0]->null_count, 0);
    FT_CHECK(a.children[0]->buffers[0] == NULL);
    FT_EQ_INT(a.children[1]->null_count, 1);
    FT_CHECK(!floe__arrow_is_valid(a.children[1], 1) && floe__arrow_is_valid(a.children[1], 2));
    const floe_i128 *dv = a.children[1]->buffers[1];
    FT_CHECK(dv[2] == (floe_i128)2000000001);
    const int32_t *lo = a.children[3]->buffers[1];
    FT_EQ_INT(lo[0], 0);
    FT_EQ_INT(lo[3], 3);
    const struct ArrowArray *le = a.children[3]->children[0];
    FT_EQ_INT(le->length, 3);
    FT_EQ_INT(((const int32_t *)le->buffers[1])[3], 1 + 1 + 2);
    FT_EQ_INT(a.children[4]->null_count, 3);
    FT_EQ_INT(a.children[4]->n_children, 1);
    FT_EQ_INT(a.children[4]->children[0]->n_children, 2);
    FT_EQ_INT(a.children[6]->null_count, 3);
    /* the builder is reusable after finish */
    floe_value i = floe_value_int(7);
    FT_OK(floe__arrow_builder_append(b->children[0], &i));
    FT_EQ_INT(b->children[0]->length, 1);
    floe__arrow_builder_free(b);
    a.release(&a);
    FT_CHECK(a.release == NULL);
}

static int sink(const void *p, size_t n, void *payload)
{
    return floe__buf_put(payload, p, n);
}

static void test_stream_from_reader(void)
{
    static const floe_field ff[2] = {{1, "i", true, &t_int, NULL, NULL, NULL},
                                     {2, "s", false, &t_str, NULL, NULL, NULL}};
    static const floe_type rt = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = ff};
    static const floe_schema sch = {0, &rt, 0, NULL, 2, NULL, NULL};
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &rt));
    for (int r = 0; r < 100; r++) {
        floe_value i = floe_value_int(r);
        floe_value s = floe_value_bytes(FLOE_T_STRING, "xyz", (size_t)(r % 4));
        FT_OK(floe__arrow_builder_append(b->children[0], &i));
        FT_OK(floe__arrow_builder_append(b->children[1], r % 5 ? &s : NULL));
        FT_OK(floe__arrow_builder_struct_append(b, true));
    }
    struct ArrowArray a;
    FT_OK(floe__arrow_builder_finish(b, &a));
    floe__arrow_builder_free(b);
    floe_buf file = FLOE_BUF_INIT;
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "write.parquet.row-group-size-bytes", "100"));
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = sink;
    o.sink_payload = &file;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &sch, &o));
    for (int k = 0; k < 4; k++) {
        struct ArrowArray v = a;
        v.offset = k * 25;
        v.length = 25;
        FT_OK(floe__pq_writer_write(w, &v));
    }
    a.release(&a);
    FT_OK(floe__pq_writer_close(w, NULL));
    floe__pq_writer_free(w);
    floe__props_free(&p);

    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, file.ptr, file.len, "stream.parquet"));
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, NULL));
    struct ArrowArrayStream st;
    FT_OK(floe__pq_reader_stream(r, true, &st));
    struct ArrowSchema s;
    FT_EQ_INT(st.get_schema(&st, &s), 0);
    FT_EQ_STR(s.format, "+s");
    FT_EQ_STR(s.children[1]->format, "u");
    FT_EQ_INT(field_id_of(s.children[1]), 2);
    s.release(&s);
    int batches = 0;
    int64_t rows = 0, nulls = 0;
    for (;;) {
        struct ArrowArray x;
        FT_EQ_INT(st.get_next(&st, &x), 0);
        if (!x.release)
            break;
        batches++;
        for (int64_t i = 0; i < x.length; i++) {
            FT_EQ_INT(((const int32_t *)x.children[0]->buffers[1])[i], rows + i);
        }
        rows += x.length;
        nulls += x.children[1]->null_count;
        x.release(&x);
    }
    FT_EQ_INT(rows, 100);
    FT_EQ_INT(nulls, 20);
    FT_CHECK(batches > 1);
    FT_CHECK(st.get_last_error(&st) == NULL);
    st.release(&st);
    FT_CHECK(st.release == NULL);
    floe__buf_free(&file);
}

static void test_stream_error(void)
{
    /* a footer that decodes but a chunk that does not: get_next returns an
     * errno and get_last_error names the file */
    const char junk[] = "PAR1garbage-garbage-garbage";
    floe_buf f = FLOE_BUF_INIT;
    FT_OK(floe__buf_put(&f, junk, sizeof(junk) - 1));
    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, f.ptr, f.len, "junk.parquet"));
    floe_pq_reader *r;
    FT_EQ_INT(floe__pq_reader_open(&r, in, NULL), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("junk.parquet");
    in->close(in);
    floe__buf_free(&f);
    FT_EQ_INT(floe__arrow_errno(FLOE_ENOMEM), ENOMEM);
    FT_EQ_INT(floe__arrow_errno(FLOE_ECORRUPT), EIO);
}

static const ft_case cases[] = {
    {"schema", test_schema},
    {"builders", test_builders},
    {"stream_from_reader", test_stream_from_reader},
    {"stream_error", test_stream_error},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
