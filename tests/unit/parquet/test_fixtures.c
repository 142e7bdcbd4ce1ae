/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every Parquet file under ../shared/fixtures (Spark/parquet-mr, Trino,
 * PyIceberg/Arrow, DuckDB, Iceberg Java) reads completely; the values
 * PROVENANCE.md records come back; and, when node is available, every value
 * equals what DuckDB prints for the same file.
 */
#include "pqengines.h"

#include <ftw.h>

static floe_vec files = FLOE_VEC_INIT(char *);

static int collect(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)f;
    size_t n = strlen(path);
    if (flag == FTW_F && n > 8 && !strcmp(path + n - 8, ".parquet")) {
        char **slot = floe__vec_push(&files);
        if (slot)
            *slot = floe__strdup(path);
    }
    return 0;
}

static void free_files(void)
{
    for (size_t i = 0; i < files.len; i++)
        floe__free(*(char **)floe__vec_at(&files, i));
    floe__vec_free(&files);
}

static int64_t read_all(const char *path, const floe_pq_read_options *o)
{
    floe_input *in;
    if (floe__pq_input_file(&in, path) < 0)
        return -1;
    floe_pq_reader *r;
    if (floe__pq_reader_open(&r, in, o) < 0) {
        in->close(in);
        return -1;
    }
    int64_t rows = 0;
    int rc;
    for (;;) {
        struct ArrowArray a;
        rc = floe__pq_reader_next(r, &a);
        if (rc < 0)
            break;
        rows += a.length;
        a.release(&a);
    }
    int64_t want = floe__pq_reader_meta(r)->num_rows;
    floe__pq_reader_free(r);
    in->close(in);
    if (rc != FLOE_ITEROVER)
        return -1;
    if (rows != want)
        return ft_fail(__FILE__, __LINE__, "%s: %lld rows, footer says %lld", path,
                       (long long)rows, (long long)want), -1;
    return rows;
}

static void test_all_fixtures_read(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    FT_ASSERT(nftw(ft_path(sh, "fixtures"), collect, 16, FTW_PHYS) == 0);
    FT_CHECK(files.len >= 30);
    for (size_t i = 0; i < files.len; i++) {
        const char *p = *(char **)floe__vec_at(&files, i);
        if (read_all(p, NULL) < 0)
            ft_fail(__FILE__, __LINE__, "%s: %s", p, ft_floe_err());
    }
    free_files();
}

static void test_fixtures_match_duckdb(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    const char *js = engines();
    if (!js)
        return;
    FT_ASSERT(nftw(ft_path(sh, "fixtures"), collect, 16, FTW_PHYS) == 0);
    /* one node process for all files (one JSON document per line) */
    floe_buf cmd = FLOE_BUF_INIT;
    floe__buf_printf(&cmd, "node %s duckdb-read", js);
    for (size_t i = 0; i < files.len; i++)
        floe__buf_printf(&cmd, " '%s'", *(char **)floe__vec_at(&files, i));
    char *out = NULL;
    int st = ft_run(&out, "%s", cmd.ptr);
    floe__buf_free(&cmd);
    FT_CHECK(st == 0);
    size_t done = 0;
    for (char *line = out, *nl; st == 0 && line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        json_t *d = json_loads(line, 0, NULL);
        if (!d) {
            ft_fail(__FILE__, __LINE__, "bad JSON line from DuckDB");
            break;
        }
        /* whole row groups, and small slices of them */
        floe_matches_duckdb(json_string_value(json_object_get(d, "file")), d, 0);
        floe_matches_duckdb(json_string_value(json_object_get(d, "file")), d, 3);
        json_decref(d);
        done++;
    }
    free(out);
    FT_EQ_INT(done, files.len);
    free_files();
}

/* Collect "id|name|date|price|active" rows of spark_rename_column. */
static void test_spark_rename_column(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    FT_ASSERT(nftw(ft_path(sh, "fixtures/spark_rename_column/data"), collect, 16, FTW_PHYS) == 0);
    FT_EQ_INT(files.len, 3);
    /* the table's current schema: date renamed event_date (same id 3) */
    static const floe_type ti = {.id = FLOE_T_INT}, ts = {.id = FLOE_T_STRING},
                           td = {.id = FLOE_T_DATE},
                           tdec = {.id = FLOE_T_DECIMAL, .precision = 10, .scale = 2},
                           tb = {.id = FLOE_T_BOOLEAN};
    static const floe_field f[5] = {{1, "id", true, &ti, NULL, NULL, NULL},
                                    {2, "name", false, &ts, NULL, NULL, NULL},
                                    {3, "event_date", false, &td, NULL, NULL, NULL},
                                    {4, "price", false, &tdec, NULL, NULL, NULL},
                                    {5, "active", false, &tb, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 5, .fields = f};
    static const floe_schema sch = {1, &root, 0, NULL, 5, NULL, NULL};
    char got[4][256];
    int n = 0;
    for (size_t i = 0; i < files.len; i++) {
        floe_input *in;
        FT_OK(floe__pq_input_file(&in, *(char **)floe__vec_at(&files, i)));
        floe_pq_read_options o = {0};
        o.projection = &sch;
        floe_pq_reader *r;
        FT_OK(floe__pq_reader_open(&r, in, &o));
        struct ArrowArray a;
        while (floe__pq_reader_next(r, &a) == 0) {
            for (int64_t k = 0; k < a.length && n < 4; k++, n++) {
                got[n][0] = 0;
                for (int c = 0; c < 5; c++) {
                    floe_value v = pt_arrow_value(a.children[c], f[c].type, k);
                    strcat(got[n], c ? "|" : "");
                    strcat(got[n], pt_fmt(&v));
                }
            }
            a.release(&a);
        }
        floe__pq_reader_free(r);
        in->close(in);
    }
    free_files();
    FT_EQ_INT(n, 4);
    const char *want[4] = {"3|Cottontail|null|0.00|true", "4|Thumper|2022-01-02|99999999.99|false",
                           "1|Flopsy 🐇|2022-01-01|9.99|true",
                           "2|Mopsy–Naïve|2022-01-01|-5.00|false"};
    for (int w = 0; w < 4; w++) {
        bool found = false;
        for (int g = 0; g < n; g++)
            found |= !strcmp(got[g], want[w]);
        if (!found)
            ft_fail(__FILE__, __LINE__, "row %s not read (got %s / %s / %s / %s)", want[w], got[0],
                    got[1], got[2], got[3]);
    }
}

static void test_spark_all_types(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    FT_ASSERT(nftw(ft_path(sh, "fixtures/spark_all_types/data"), collect, 16, FTW_PHYS) == 0);
    FT_EQ_INT(files.len, 1);
    floe_input *in;
    FT_OK(floe__pq_input_file(&in, *(char **)floe__vec_at(&files, 0)));
    free_files();
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, NULL));
    const floe_schema *s = floe__pq_reader_schema(r);
    FT_EQ_INT(s->root->nfields, 12);
    const floe_type *lt = s->root->fields[11].type;
    FT_ASSERT(lt->id == FLOE_T_LIST);
    FT_EQ_INT(s->root->fields[11].id, 12);
    FT_EQ_INT(lt->element->id, 13);
    FT_CHECK(!lt->element->required);
    struct ArrowArray a;
    FT_OK(floe__pq_reader_next(r, &a));
    FT_EQ_INT(a.length, 1);
    const char *want[11] = {"true", "2147483647", "9223372036854775807", NULL, NULL, "12345.67",
                            "example", "737061726b", "2023-10-10",
                            "2023-10-10T12:34:56.000000+00:00", "2023-10-10T12:34:56.000000"};
    for (int c = 0; c < 11; c++) {
        floe_value v = pt_arrow_value(a.children[c], s->root->fields[c].type, 0);
        if (want[c])
            FT_EQ_STR(pt_fmt(&v), want[c]);
    }
    floe_value f3 = pt_arrow_value(a.children[3], s->root->fields[3].type, 0);
    FT_CHECK(f3.v.f32 == 3.40282347e+38f);
    floe_value f4 = pt_arrow_value(a.children[4], s->root->fields[4].type, 0);
    FT_CHECK(f4.v.f64 == 1.7976931348623157e+308);
    /* list<string>: ["item1", "item2"] */
    const struct ArrowArray *l = a.children[11];
    const int32_t *off = l->buffers[1];
    FT_EQ_INT(off[1] - off[0], 2);
    floe_value e0 = pt_arrow_value(l->children[0], lt->element->type, off[0]);
    floe_value e1 = pt_arrow_value(l->children[0], lt->element->type, off[0] + 1);
    FT_EQ_STR(pt_fmt(&e0), "item1");
    FT_EQ_STR(pt_fmt(&e1), "item2");
    a.release(&a);
    FT_EQ_INT(floe__pq_reader_next(r, &a), FLOE_ITEROVER);
    floe__pq_reader_free(r);
    in->close(in);
}

/* "Breed Name" is stored as Breed_x20Name: resolve by field id. */
static void test_spark_bunnies_field_ids(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    static const floe_type ts = {.id = FLOE_T_STRING}, tl = {.id = FLOE_T_LONG};
    static const floe_field f[2] = {{8, "Popularity Rank", false, &tl, NULL, NULL, NULL},
                                    {1, "Breed Name", false, &ts, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = f};
    static const floe_schema sch = {0, &root, 0, NULL, 9, NULL, NULL};
    floe_input *in;
    FT_OK(floe__pq_input_file(&in, ft_path(sh, "fixtures/spark_bunnies/data/"
                                               "00000-1-6cd7611f-0ceb-4cf3-8b8e-8c856356df3e-00001.parquet")));
    floe_pq_read_options o = {0};
    o.projection = &sch;
    floe_pq_reader *r;
    FT_OK(floe__pq_reader_open(&r, in, &o));
    struct ArrowArray a;
    FT_OK(floe__pq_reader_next(r, &a));
    FT_EQ_INT(a.length, 20);
    FT_EQ_INT(a.children[1]->null_count, 0);
    floe_value v = pt_arrow_value(a.children[1], &ts, 0);
    FT_CHECK(v.v.bytes.len > 0);
    a.release(&a);
    floe__pq_reader_free(r);
    in->close(in);
}

static void test_position_delete_files(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    static const floe_type ts = {.id = FLOE_T_STRING}, tl = {.id = FLOE_T_LONG};
    static const floe_field f[2] = {{2147483546, "file_path", true, &ts, NULL, NULL, NULL},
                                    {2147483545, "pos", true, &tl, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = f};
    static const floe_schema sch = {0, &root, 0, NULL, 2147483546, NULL, NULL};
    const char *paths[2] = {"fixtures/spark_bunnies/data/"
                            "00000-3-6fdcdaeb-591f-4ae0-a39a-75c7fba53907-00001-deletes.parquet",
                            "fixtures/java_bunnies/data/bunnies-pos-deletes.parquet"};
    const int64_t rows[2] = {1, 6};
    for (int k = 0; k < 2; k++) {
        floe_input *in;
        FT_OK(floe__pq_input_file(&in, ft_path(sh, paths[k])));
        floe_pq_read_options o = {0};
        o.projection = &sch;
        floe_pq_reader *r;
        FT_OK(floe__pq_reader_open(&r, in, &o));
        struct ArrowArray a;
        FT_OK(floe__pq_reader_next(r, &a));
        FT_EQ_INT(a.length, rows[k]);
        for (int64_t i = 0; i < a.length; i++) {
            floe_value p = pt_arrow_value(a.children[0], &ts, i);
            floe_value pos = pt_arrow_value(a.children[1], &tl, i);
            FT_CHECK(!p.is_null && p.v.bytes.len > 10 &&
                     !memcmp(p.v.bytes.ptr, "s3a://hyperparam-iceberg/", 25));
            FT_CHECK(!pos.is_null && pos.v.i64 >= 0);
        }
        a.release(&a);
        floe__pq_reader_free(r);
        in->close(in);
    }
}

/* DuckDB rewrote these files: the manifests' sizes are wrong. Reading uses
 * the real size; a reader given the manifest's size would find no footer. */
static void test_hive_partition_real_size(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    const char *p = ft_path(sh, "fixtures/spark_hive_partition_evolution/data/event_date=2024-01-01/"
                                "00000-3-249d8105-f013-47e6-8600-a855387633e5-00001.parquet");
    size_t len;
    char *data = ft_read_file(p, &len);
    FT_ASSERT(data && len < 921);
    FT_CHECK(read_all(p, NULL) > 0);
    free(data);
}

/* Files without field ids resolve through a name mapping (or by name). The
 * file: one floe writes, with its footer re-encoded without field ids. */
static int32_t map_names(const char *const *path, size_t depth, void *payload)
{
    (void)payload;
    if (depth == 1 && !strcmp(path[0], "name"))
        return 42;
    return 0;
}

static void test_name_mapping(void)
{
    floe_buf file = FLOE_BUF_INIT;
    floe_pq_write_options wo = {0};
    wo.sink = pt_sink;
    wo.sink_payload = &file;
    floe_pq_writer *w;
    FT_OK(floe__pq_writer_new(&w, &pt_schema, &wo));
    struct ArrowArray a;
    FT_OK(pt_batch(0, 50, &a));
    FT_OK(floe__pq_writer_write(w, &a));
    a.release(&a);
    FT_OK(floe__pq_writer_close(w, NULL));
    floe__pq_writer_free(w);
    uint32_t flen;
    memcpy(&flen, file.ptr + file.len - 8, 4);
    size_t at = file.len - 8 - flen;
    floe_arena *ar = floe__arena_new(4096);
    floe_pq_file_meta fm;
    FT_OK(floe__pq_decode_file_meta(&fm, ar, file.ptr + at, flen, (int64_t)at, "t"));
    for (size_t i = 0; i < fm.nschema; i++)
        fm.schema[i].has_field_id = false;
    file.len = at;
    FT_OK(floe__pq_encode_file_meta(&fm, &file));
    floe__arena_free(ar);
    uint32_t nlen = (uint32_t)(file.len - at);
    FT_OK(floe__buf_put(&file, &nlen, 4));
    FT_OK(floe__buf_put(&file, "PAR1", 4));

    static const floe_type ts = {.id = FLOE_T_STRING}, tl = {.id = FLOE_T_LONG};
    static const floe_field f[2] = {{42, "label", false, &ts, NULL, NULL, NULL},
                                    {7, "id", true, &tl, NULL, NULL, NULL}};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = f};
    static const floe_schema sch = {0, &root, 0, NULL, 42, NULL, NULL};
    for (int mode = 0; mode < 2; mode++) {
        floe_input *in;
        FT_OK(floe__pq_input_memory(&in, file.ptr, file.len, "noids.parquet"));
        floe_pq_read_options o = {0};
        o.projection = &sch;
        o.name_mapping = mode == 0 ? map_names : NULL;
        floe_pq_reader *r;
        FT_OK(floe__pq_reader_open(&r, in, &o));
        FT_OK(floe__pq_reader_next(r, &a));
        FT_EQ_INT(a.length, 50);
        for (int64_t i = 0; i < 50; i++) {
            uint8_t sc[32];
            floe_value want_name = pt_value(i, 1, sc);
            floe_value got_name = pt_arrow_value(a.children[0], &ts, i);
            floe_value got_id = pt_arrow_value(a.children[1], &tl, i);
            if (mode == 0) {
                /* mapping: "name" -> 42; "id" unmapped -> nulls */
                FT_CHECK(want_name.is_null == got_name.is_null &&
                         (want_name.is_null || floe_value_compare(&want_name, &got_name) == 0));
                FT_CHECK(got_id.is_null);
            } else {
                /* by name: "label" is absent, "id" matches */
                FT_CHECK(got_name.is_null);
                FT_CHECK(!got_id.is_null && got_id.v.i64 == i * 1000003LL - 5000);
            }
        }
        a.release(&a);
        floe__pq_reader_free(r);
        in->close(in);
    }
    floe__buf_free(&file);
}

static const ft_case cases[] = {
    {"all_fixtures_read", test_all_fixtures_read},
    {"fixtures_match_duckdb", test_fixtures_match_duckdb},
    {"spark_rename_column", test_spark_rename_column},
    {"spark_all_types", test_spark_all_types},
    {"spark_bunnies_field_ids", test_spark_bunnies_field_ids},
    {"position_delete_files", test_position_delete_files},
    {"hive_partition_real_size", test_hive_partition_real_size},
    {"name_mapping", test_name_mapping},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
