/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The v3 `unknown` type in Parquet (spec "Primitive Types": unknown columns
 * are never written and read as null): a file written for a schema with an
 * unknown column and an unknown struct member holds neither, has no metrics
 * for them, and reads them back as Arrow null arrays; Java's
 * TypeToMessageType refusals (a list or map of unknown, a group left empty).
 */
#include "pqtest.h"

static const floe_type ut_long = {.id = FLOE_T_LONG}, ut_int = {.id = FLOE_T_INT},
                       ut_unknown = {.id = FLOE_T_UNKNOWN};
static const floe_field us_fields[2] = {{4, "x", false, &ut_int, NULL, NULL, NULL},
                                        {5, "v", false, &ut_unknown, NULL, NULL, NULL}};
static const floe_type ut_struct = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = us_fields};
static const floe_field u_fields[3] = {{1, "id", true, &ut_long, NULL, NULL, NULL},
                                       {2, "u", false, &ut_unknown, NULL, NULL, NULL},
                                       {3, "s", false, &ut_struct, NULL, NULL, NULL}};
static const floe_type u_root = {.id = FLOE_T_STRUCT, .nfields = 3, .fields = u_fields};
static const floe_schema u_schema = {0, &u_root, 0, NULL, 5, NULL, NULL};

#define NROWS 10

/* Rows i: id = i, u = null, s = null for i % 4 == 3, else {x: i * 10, v: null}. */
static int build(struct ArrowArray *out)
{
    floe_arrow_builder *b;
    FLOE_TRY(floe__arrow_builder_new(&b, &u_root));
    int rc = 0;
    for (int64_t i = 0; i < NROWS && rc == 0; i++) {
        floe_value id = floe_value_long(i), x = floe_value_int((int32_t)i * 10);
        floe_arrow_builder *s = b->children[2];
        if ((rc = floe__arrow_builder_append(b->children[0], &id)) < 0 ||
            (rc = floe__arrow_builder_append_null(b->children[1])) < 0)
            break;
        if (i % 4 == 3) {
            rc = floe__arrow_builder_append_null(s);
        } else if ((rc = floe__arrow_builder_append(s->children[0], &x)) == 0 &&
                   (rc = floe__arrow_builder_append_null(s->children[1])) == 0) {
            rc = floe__arrow_builder_struct_append(s, true);
        }
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

static int write(floe_buf *file, const floe_schema *schema, const struct ArrowArray *batch,
                 floe_pq_metrics *m)
{
    floe_pq_write_options o = {0};
    o.sink = pt_sink;
    o.sink_payload = file;
    floe_pq_writer *w;
    FLOE_TRY(floe__pq_writer_new(&w, schema, &o));
    int rc = floe__pq_writer_write(w, batch);
    if (rc == 0)
        rc = floe__pq_writer_close(w, m);
    floe__pq_writer_free(w);
    return rc;
}

/* An Arrow null array (C data interface: format "n", no buffers). */
static bool is_null_array(const struct ArrowArray *a, int64_t length)
{
    return a->n_buffers == 0 && a->n_children == 0 && a->length == length &&
           a->null_count == length;
}

static void test_not_written_read_as_null(void)
{
    struct ArrowArray src;
    FT_OK(build(&src));
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_metrics m = {0};
    int rc = write(&file, &u_schema, &src, &m);
    src.release(&src);
    FT_OK(rc);
    /* metrics only for the written leaves: id (1) and s.x (4) */
    FT_EQ_INT(m.record_count, NROWS);
    FT_EQ_INT(m.nfields, 2);
    if (m.nfields == 2) {
        FT_EQ_INT(m.fields[0].field_id, 1);
        FT_EQ_INT(m.fields[1].field_id, 4);
    }
    floe__pq_metrics_free(&m);

    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, file.ptr, file.len, "unknown.parquet"));
    floe_pq_read_options o = {0};
    o.projection = &u_schema;
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, &o));
    /* the footer: table { id, s { x } }, field ids 1, 3, 4 */
    const floe_pq_tree *tree = floe__pq_reader_tree(r);
    FT_EQ_INT(tree->nleaves, 2);
    FT_EQ_INT(tree->root->nchildren, 2);
    if (tree->root->nchildren == 2) {
        FT_EQ_STR(tree->root->children[0]->el->name, "id");
        FT_EQ_STR(tree->root->children[1]->el->name, "s");
        FT_EQ_INT(tree->root->children[1]->el->field_id, 3);
        FT_EQ_INT(tree->root->children[1]->nchildren, 1);
    }
    struct ArrowArray a;
    int64_t rows = 0;
    while ((rc = floe__pq_reader_next(r, &a)) == 0) {
        FT_CHECK(a.n_children == 3);
        if (a.n_children == 3) {
            FT_CHECK(is_null_array(a.children[1], a.length));
            const struct ArrowArray *s = a.children[2];
            FT_CHECK(s->n_children == 2 && is_null_array(s->children[1], a.length));
            for (int64_t i = 0; i < a.length; i++) {
                floe_value id, x, u;
                FT_OK(floe__arrow_value_at(a.children[0], &ut_long, i, &id));
                FT_OK(floe__arrow_value_at(a.children[1], &ut_unknown, i, &u));
                FT_EQ_INT(id.v.i64, rows + i);
                FT_CHECK(u.is_null);
                FT_CHECK(floe__arrow_is_valid(s, i) == ((rows + i) % 4 != 3));
                if (floe__arrow_is_valid(s, i)) {
                    FT_OK(floe__arrow_value_at(s->children[0], &ut_int, i, &x));
                    FT_EQ_INT(x.v.i32, (rows + i) * 10);
                }
            }
        }
        rows += a.length;
        a.release(&a);
    }
    FT_EQ_INT(rc, FLOE_ITEROVER);
    FT_EQ_INT(rows, NROWS);
    floe__pq_reader_free(r);
    in->close(in);
    floe__buf_free(&file);
}

static void test_only_nulls(void)
{
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &ut_unknown));
    floe_value one = floe_value_int(1);
    FT_CHECK(floe__arrow_builder_append(b, &one) == FLOE_EINVALID);
    FT_ERR_CONTAINS("unknown holds only nulls");
    floe__arrow_builder_free(b);
}

/* Java's TypeToMessageType and parquet-mr refuse these schemas: so does floe. */
static void refused(const floe_type *col, bool alone, const char *msg)
{
    const floe_field f[2] = {{1, "id", true, &ut_long, NULL, NULL, NULL},
                             {2, "c", false, col, NULL, NULL, NULL}};
    const floe_type root = {
        .id = FLOE_T_STRUCT, .nfields = alone ? 1 : 2, .fields = alone ? f + 1 : f};
    const floe_schema sc = {0, &root, 0, NULL, 9, NULL, NULL};
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_write_options o = {0};
    o.sink = pt_sink;
    o.sink_payload = &file;
    floe_pq_writer *w = NULL;
    FT_CHECK(floe__pq_writer_new(&w, &sc, &o) == FLOE_EUNSUPPORTED);
    FT_ERR_CONTAINS(msg);
    FT_CHECK(w == NULL);
    floe__buf_free(&file);
}

static void test_refusals(void)
{
    const floe_field el = {6, "element", false, &ut_unknown, NULL, NULL, NULL};
    const floe_type list = {.id = FLOE_T_LIST, .element = &el};
    refused(&list, false, "Cannot convert element Parquet: unknown");
    const floe_field key = {7, "key", true, &ut_int, NULL, NULL, NULL};
    const floe_field val = {8, "value", false, &ut_unknown, NULL, NULL, NULL};
    const floe_type map = {.id = FLOE_T_MAP, .key = &key, .value = &val};
    refused(&map, false, "Cannot convert value Parquet: unknown");
    const floe_field only[1] = {{9, "v", false, &ut_unknown, NULL, NULL, NULL}};
    const floe_type st = {.id = FLOE_T_STRUCT, .nfields = 1, .fields = only};
    refused(&st, false, "Cannot write a schema with an empty group: c");
    /* a table of unknown columns only: an empty message */
    refused(&ut_unknown, true, "Cannot write a schema with an empty group: table");
}

static const ft_case cases[] = {
    {"not_written_read_as_null", test_not_written_read_as_null},
    {"only_nulls", test_only_nulls},
    {"refusals", test_refusals},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
