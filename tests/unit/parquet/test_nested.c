/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Nested values: struct, list, map, list<struct>, list<list> with nulls at
 * every level, written by floe (repetition/definition levels, 3-level lists,
 * key_value maps) and read back by floe and by DuckDB with identical values.
 */
#include "pqengines.h"
#include "spec/spec.h"

static const floe_type nt_long = {.id = FLOE_T_LONG}, nt_int = {.id = FLOE_T_INT},
                       nt_str = {.id = FLOE_T_STRING}, nt_dbl = {.id = FLOE_T_DOUBLE};
static const floe_field s_fields[2] = {{21, "a", true, &nt_int, NULL, NULL, NULL},
                                       {22, "b", false, &nt_str, NULL, NULL, NULL}};
static const floe_type nt_struct = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = s_fields};
static const floe_field l_elem = {4, "element", false, &nt_long, NULL, NULL, NULL};
static const floe_type nt_list = {.id = FLOE_T_LIST, .element = &l_elem};
static const floe_field m_key = {6, "key", true, &nt_str, NULL, NULL, NULL};
static const floe_field m_val = {7, "value", false, &nt_int, NULL, NULL, NULL};
static const floe_type nt_map = {.id = FLOE_T_MAP, .key = &m_key, .value = &m_val};
static const floe_field x_fields[1] = {{10, "x", false, &nt_dbl, NULL, NULL, NULL}};
static const floe_type nt_xstruct = {.id = FLOE_T_STRUCT, .nfields = 1, .fields = x_fields};
static const floe_field ls_elem = {9, "element", true, &nt_xstruct, NULL, NULL, NULL};
static const floe_type nt_lstruct = {.id = FLOE_T_LIST, .element = &ls_elem};
static const floe_field inner_elem = {13, "element", true, &nt_int, NULL, NULL, NULL};
static const floe_type nt_inner = {.id = FLOE_T_LIST, .element = &inner_elem};
static const floe_field outer_elem = {12, "element", false, &nt_inner, NULL, NULL, NULL};
static const floe_type nt_ll = {.id = FLOE_T_LIST, .element = &outer_elem};
static const floe_field n_fields[6] = {
    {1, "id", true, &nt_long, NULL, NULL, NULL},   {2, "s", false, &nt_struct, NULL, NULL, NULL},
    {3, "l", false, &nt_list, NULL, NULL, NULL},   {5, "m", false, &nt_map, NULL, NULL, NULL},
    {8, "ls", true, &nt_lstruct, NULL, NULL, NULL}, {11, "ll", false, &nt_ll, NULL, NULL, NULL},
};
static const floe_type n_root = {.id = FLOE_T_STRUCT, .nfields = 6, .fields = n_fields};
static const floe_schema n_schema = {0, &n_root, 0, NULL, 22, NULL, NULL};

static int build_rows(int64_t n, struct ArrowArray *out)
{
    floe_arrow_builder *b;
    FLOE_TRY(floe__arrow_builder_new(&b, &n_root));
    int rc = 0;
#define T(x)                                                                                       \
    if ((rc = (x)) < 0)                                                                            \
    goto done
    for (int64_t i = 0; i < n; i++) {
        floe_value v = floe_value_long(i);
        T(floe__arrow_builder_append(b->children[0], &v));
        /* s */
        floe_arrow_builder *s = b->children[1];
        if (i % 5 == 0) {
            T(floe__arrow_builder_append_null(s));
        } else {
            floe_value a = floe_value_int((int32_t)i);
            T(floe__arrow_builder_append(s->children[0], &a));
            char txt[32];
            snprintf(txt, sizeof(txt), "x%lld", (long long)i);
            floe_value bs = floe_value_bytes(FLOE_T_STRING, txt, strlen(txt));
            T(floe__arrow_builder_append(s->children[1], i % 2 ? &bs : NULL));
            T(floe__arrow_builder_struct_append(s, true));
        }
        /* l */
        floe_arrow_builder *l = b->children[2];
        if (i % 6 == 0) {
            T(floe__arrow_builder_append_null(l));
        } else {
            for (int k = 0; k < i % 4; k++) {
                floe_value e = floe_value_long(i * 10 + k);
                T(floe__arrow_builder_append(l->children[0], k == 1 ? NULL : &e));
            }
            T(floe__arrow_builder_list_append(l, true, i % 4));
        }
        /* m */
        floe_arrow_builder *m = b->children[3];
        if (i % 7 == 3) {
            T(floe__arrow_builder_append_null(m));
        } else {
            for (int k = 0; k < i % 3; k++) {
                char key[16];
                snprintf(key, sizeof(key), "k%d", k);
                floe_value kv = floe_value_bytes(FLOE_T_STRING, key, strlen(key));
                floe_value vv = floe_value_int((int32_t)(i + k));
                T(floe__arrow_builder_append(m->children[0], &kv));
                T(floe__arrow_builder_append(m->children[1], k == 1 ? NULL : &vv));
            }
            T(floe__arrow_builder_list_append(m, true, i % 3));
        }
        /* ls: list<struct<x>> (required list, required struct elements) */
        floe_arrow_builder *ls = b->children[4];
        for (int k = 0; k < i % 3; k++) {
            floe_value x = floe_value_double(i + k / 2.0);
            T(floe__arrow_builder_append(ls->children[0]->children[0], k == 0 && i % 2 ? NULL : &x));
            T(floe__arrow_builder_struct_append(ls->children[0], true));
        }
        T(floe__arrow_builder_list_append(ls, true, i % 3));
        /* ll: [[i], [], null][:i%4] */
        floe_arrow_builder *ll = b->children[5], *inner = ll->children[0];
        int64_t nouter = i % 4;
        for (int k = 0; k < nouter; k++) {
            if (k == 0) {
                floe_value e = floe_value_int((int32_t)i);
                T(floe__arrow_builder_append(inner->children[0], &e));
                T(floe__arrow_builder_list_append(inner, true, 1));
            } else if (k == 1) {
                T(floe__arrow_builder_list_append(inner, true, 0));
            } else {
                T(floe__arrow_builder_append_null(inner));
            }
        }
        T(floe__arrow_builder_list_append(ll, true, nouter));
        T(floe__arrow_builder_struct_append(b, true));
    }
    rc = floe__arrow_builder_finish(b, out);
done:
#undef T
    floe__arrow_builder_free(b);
    return rc;
}

static int write_nested(floe_buf *file, const struct ArrowArray *batch, int version, bool no_dict)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.parquet.row-group-size-bytes", "3000");
    floe__props_set(&p, "write.parquet.page-size-bytes", "300");
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = pt_sink;
    o.sink_payload = file;
    o.data_page_version = version;
    o.dictionary_disabled = no_dict;
    floe_pq_writer *w;
    int rc = floe__pq_writer_new(&w, &n_schema, &o);
    if (rc == 0) {
        /* four slices through struct offsets (exercises ArrowArray.offset) */
        for (int64_t at = 0; rc == 0 && at < batch->length; at += batch->length / 4) {
            struct ArrowArray view = *batch;
            view.offset = at;
            view.length = batch->length / 4;
            rc = floe__pq_writer_write(w, &view);
        }
        if (rc == 0)
            rc = floe__pq_writer_close(w, NULL);
        floe__pq_writer_free(w);
    }
    floe__props_free(&p);
    return rc;
}

#define NROWS 400

/* hyparquet prints INT64 as strings: compare integers and integer strings,
 * numbers numerically, containers recursively. */
static bool loose_equal(json_t *a, json_t *b)
{
    if (json_is_integer(a) && json_is_string(b)) {
        char t[32];
        snprintf(t, sizeof(t), "%lld", (long long)json_integer_value(a));
        return !strcmp(t, json_string_value(b));
    }
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b);
    if (json_is_array(a) && json_is_array(b)) {
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!loose_equal(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    }
    if (json_is_object(a) && json_is_object(b)) {
        if (json_object_size(a) != json_object_size(b))
            return false;
        const char *k;
        json_t *v;
        json_object_foreach(a, k, v)
        {
            if (!loose_equal(v, json_object_get(b, k)))
                return false;
        }
        return true;
    }
    return json_equal(a, b);
}

static void roundtrip(int version, bool no_dict, int64_t batch_rows)
{
    struct ArrowArray src;
    FT_OK(build_rows(NROWS, &src));
    floe_buf file = FLOE_BUF_INIT;
    int rc = write_nested(&file, &src, version, no_dict);
    if (rc < 0) {
        src.release(&src);
        floe__buf_free(&file);
        FT_OK(rc);
    }
    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, file.ptr, file.len, "nested.parquet"));
    floe_pq_read_options o = {0};
    o.projection = &n_schema;
    o.batch_rows = batch_rows;
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, &o));
    int64_t row = 0;
    int bad = 0;
    struct ArrowArray a;
    while ((rc = floe__pq_reader_next(r, &a)) == 0) {
        for (int64_t i = 0; i < a.length; i++, row++) {
            for (size_t c = 0; c < n_root.nfields; c++) {
                json_t *want = to_json_value(src.children[c], n_fields[c].type, row);
                json_t *got = to_json_value(a.children[c], n_fields[c].type, i);
                if (!json_equal(want, got) && bad++ < 5) {
                    char *ws = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
                    char *gs = json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY);
                    ft_fail(__FILE__, __LINE__, "row %lld %s: wrote %s read %s", (long long)row,
                            n_fields[c].name, ws, gs);
                    free(ws);
                    free(gs);
                }
                json_decref(want);
                json_decref(got);
            }
        }
        a.release(&a);
    }
    FT_EQ_INT(rc, FLOE_ITEROVER);
    FT_EQ_INT(row, NROWS);
    FT_CHECK(floe__pq_reader_meta(r)->nrow_groups > 1);
    /* statistics of a field inside a struct (s.a, id 21); none for list
     * elements (id 4) */
    floe_pq_chunk_stats st;
    FT_OK(floe__pq_reader_chunk_stats(r, 0, 21, &st));
    FT_CHECK(st.has_min_max && st.min.type == FLOE_T_INT && st.min.v.i32 == 1);
    FT_OK(floe__pq_reader_chunk_stats(r, 0, 4, &st));
    FT_CHECK(!st.has_min_max);
    floe__pq_reader_free(r);
    in->close(in);

    const char *js = engines();
    if (js) {
        const char *path = ft_tmp("nested.parquet");
        FT_ASSERT(ft_write_file(path, file.ptr, file.len) == 0);
        json_t *d = run_json("node %s duckdb-read %s", js, path);
        json_t *rows = json_object_get(d, "rows");
        FT_EQ_INT(json_array_size(rows), NROWS);
        for (size_t i = 0; i < json_array_size(rows); i++) {
            for (size_t c = 1; c < n_root.nfields; c++) {
                json_t *cell = json_array_get(json_array_get(rows, i), c);
                json_t *duck = json_is_string(cell) ? json_loads(json_string_value(cell), 0, NULL)
                                                    : json_null();
                json_t *want = to_json_value(src.children[c], n_fields[c].type, (int64_t)i);
                if (!json_equal(want, duck) && bad++ < 5) {
                    char *ws = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
                    ft_fail(__FILE__, __LINE__, "DuckDB row %zu %s: wrote %s DuckDB read %s", i,
                            n_fields[c].name, ws, json_string_value(cell));
                    free(ws);
                }
                json_decref(duck);
                json_decref(want);
            }
        }
        json_decref(d);
        /* hyparquet too */
        json_t *h = run_json("node %s hyparquet-read %s", js, path);
        rows = json_object_get(h, "rows");
        FT_EQ_INT(json_array_size(rows), NROWS);
        for (size_t i = 0; i < json_array_size(rows); i++) {
            for (size_t c = 0; c < n_root.nfields; c++) {
                json_t *cell = json_array_get(json_array_get(rows, i), c);
                json_t *want = to_json_value(src.children[c], n_fields[c].type, (int64_t)i);
                if (!loose_equal(want, cell) && bad++ < 5) {
                    char *ws = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
                    char *hs = json_dumps(cell, JSON_COMPACT | JSON_ENCODE_ANY);
                    ft_fail(__FILE__, __LINE__, "hyparquet row %zu %s: wrote %s read %s", i,
                            n_fields[c].name, ws, hs);
                    free(ws);
                    free(hs);
                }
                json_decref(want);
            }
        }
        json_decref(h);
    }
    src.release(&src);
    floe__buf_free(&file);
}

static void test_nested_v1(void) { roundtrip(1, false, 0); }
static void test_nested_v2_plain(void) { roundtrip(2, true, 7); }

/* The file written with n_schema read through a later schema (spec
 * "Default values", "Column Projection"): members added to a struct, to the
 * struct elements of a list, and new struct, list and map columns read their
 * initial-default; a new struct with `{}` takes its members' defaults, one
 * without a default is null; a struct read only through new members keeps
 * the file's nulls. */
static const char evolved_json[] =
    "{\"type\":\"struct\",\"schema-id\":1,\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"s\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["
    " {\"id\":21,\"name\":\"a\",\"required\":true,\"type\":\"int\"},"
    " {\"id\":22,\"name\":\"b\",\"required\":false,\"type\":\"string\"},"
    " {\"id\":30,\"name\":\"c\",\"required\":false,\"type\":\"int\",\"initial-default\":7},"
    " {\"id\":43,\"name\":\"u\",\"required\":false,\"type\":\"uuid\","
    "  \"initial-default\":\"f79c3e09-677c-4bbd-a479-3f349cb785e7\"}]}},"
    "{\"id\":8,\"name\":\"ls\",\"required\":true,\"type\":{\"type\":\"list\",\"element-id\":9,"
    " \"element-required\":true,\"element\":{\"type\":\"struct\",\"fields\":["
    "  {\"id\":10,\"name\":\"x\",\"required\":false,\"type\":\"double\"},"
    "  {\"id\":31,\"name\":\"y\",\"required\":false,\"type\":\"string\",\"initial-default\":\"hi\"}]}}},"
    "{\"id\":32,\"name\":\"p\",\"required\":false,\"initial-default\":{},\"type\":{\"type\":\"struct\","
    " \"fields\":[{\"id\":33,\"name\":\"x\",\"required\":false,\"type\":\"int\",\"initial-default\":0},"
    " {\"id\":34,\"name\":\"y\",\"required\":false,\"type\":\"long\",\"initial-default\":-1}]}},"
    "{\"id\":35,\"name\":\"tags\",\"required\":false,\"initial-default\":[\"a\",\"b\"],"
    " \"type\":{\"type\":\"list\",\"element-id\":36,\"element\":\"string\",\"element-required\":false}},"
    "{\"id\":37,\"name\":\"mm\",\"required\":false,\"initial-default\":{\"keys\":[\"k\"],\"values\":[1]},"
    " \"type\":{\"type\":\"map\",\"key-id\":38,\"key\":\"string\",\"value-id\":39,\"value\":\"int\","
    " \"value-required\":false}},"
    "{\"id\":40,\"name\":\"q\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["
    " {\"id\":41,\"name\":\"z\",\"required\":false,\"type\":\"int\",\"initial-default\":3}]}},"
    "{\"id\":44,\"name\":\"lp\",\"required\":false,\"initial-default\":[{\"45\":5},{}],"
    " \"type\":{\"type\":\"list\",\"element-id\":46,\"element-required\":false,\"element\":"
    " {\"type\":\"struct\",\"fields\":[{\"id\":45,\"name\":\"v\",\"required\":false,\"type\":\"int\"},"
    " {\"id\":47,\"name\":\"w\",\"required\":false,\"type\":\"int\",\"initial-default\":9}]}}}"
    "]}";

static char *json_of(const struct ArrowArray *a, const floe_type *t, int64_t i)
{
    json_t *v = to_json_value(a, t, i);
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
    json_decref(v);
    return s;
}

static void read_evolved(const floe_buf *file, const char *schema_json, int64_t *rows,
                         void (*check)(const struct ArrowArray *, const floe_schema *, int64_t,
                                       int64_t))
{
    floe_arena *ar = floe__arena_new(0);
    floe_json *j = NULL;
    floe_schema *sc = NULL;
    FT_OK(floe__json_parse(&j, schema_json, strlen(schema_json), "schema"));
    FT_OK(floe__schema_from_json(&sc, j, 0, ar));
    floe__json_free(j);
    floe_input *in;
    FT_OK(floe__pq_input_memory(&in, file->ptr, file->len, "nested.parquet"));
    floe_pq_read_options o = {0};
    o.projection = sc;
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, &o));
    struct ArrowArray a;
    int rc;
    *rows = 0;
    while ((rc = floe__pq_reader_next(r, &a)) == 0) {
        for (int64_t i = 0; i < a.length; i++, (*rows)++)
            check(&a, sc, i, *rows);
        a.release(&a);
    }
    FT_EQ_INT(rc, FLOE_ITEROVER);
    floe__pq_reader_free(r);
    in->close(in);
    floe__schema_release(sc);
    floe__arena_free(ar);
}

static int evolved_bad;

static void expect_col(const struct ArrowArray *a, const floe_schema *sc, size_t c, int64_t i,
                       int64_t row, const char *want)
{
    char *got = json_of(a->children[c], sc->root->fields[c].type, i);
    if (strcmp(got, want) != 0 && evolved_bad++ < 8)
        ft_fail(__FILE__, __LINE__, "row %lld %s: want %s got %s", (long long)row,
                sc->root->fields[c].name, want, got);
    free(got);
}

#define UUID_HEX "f79c3e09677c4bbda4793f349cb785e7" /* canon() prints uuids as hex */

static void check_evolved(const struct ArrowArray *a, const floe_schema *sc, int64_t i,
                          int64_t row)
{
    char want[512];
    if (row % 5 == 0)
        snprintf(want, sizeof want, "null");
    else if (row % 2)
        snprintf(want, sizeof want,
                 "{\"a\":%lld,\"b\":\"x%lld\",\"c\":7,\"u\":\"%s\"}",
                 (long long)row, (long long)row, UUID_HEX);
    else
        snprintf(want, sizeof want,
                 "{\"a\":%lld,\"b\":null,\"c\":7,\"u\":\"%s\"}",
                 (long long)row, UUID_HEX);
    expect_col(a, sc, 1, i, row, want);
    /* ls: i % 3 elements, each with y = "hi" */
    char *ls = json_of(a->children[2], sc->root->fields[2].type, i);
    int n = 0;
    for (const char *p = ls; (p = strstr(p, "\"y\":\"hi\"")); p++)
        n++;
    if (n != row % 3 || strstr(ls, "\"y\":null"))
        ft_fail(__FILE__, __LINE__, "row %lld ls: %s", (long long)row, ls);
    free(ls);
    expect_col(a, sc, 3, i, row, "{\"x\":0,\"y\":-1}");
    expect_col(a, sc, 4, i, row, "[\"a\",\"b\"]");
    expect_col(a, sc, 5, i, row, "{\"k\":1}");
    expect_col(a, sc, 6, i, row, "null");
    expect_col(a, sc, 7, i, row, "[{\"v\":5,\"w\":9},{\"v\":null,\"w\":9}]");
}

static const char only_new_json[] =
    "{\"type\":\"struct\",\"schema-id\":1,\"fields\":["
    "{\"id\":2,\"name\":\"s\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["
    " {\"id\":30,\"name\":\"c\",\"required\":false,\"type\":\"int\",\"initial-default\":7}]}}]}";

static void check_only_new(const struct ArrowArray *a, const floe_schema *sc, int64_t i,
                           int64_t row)
{
    expect_col(a, sc, 0, i, row, row % 5 == 0 ? "null" : "{\"c\":7}");
}

static void test_nested_defaults(void)
{
    struct ArrowArray src;
    FT_OK(build_rows(NROWS, &src));
    floe_buf file = FLOE_BUF_INIT;
    FT_OK(write_nested(&file, &src, 1, false));
    src.release(&src);
    int64_t rows;
    evolved_bad = 0;
    read_evolved(&file, evolved_json, &rows, check_evolved);
    FT_EQ_INT(rows, NROWS);
    read_evolved(&file, only_new_json, &rows, check_only_new);
    FT_EQ_INT(rows, NROWS);
    floe__buf_free(&file);
}

static const ft_case cases[] = {
    {"nested_v1", test_nested_v1},
    {"nested_v2_plain", test_nested_v2_plain},
    {"nested_defaults", test_nested_defaults},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
