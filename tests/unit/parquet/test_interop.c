/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parquet interop with independent engines (tests/interop/parquet_engines.mjs):
 *  - files floe writes are read by DuckDB and hyparquet with the values,
 *    types, field ids and statistics floe meant;
 *  - files DuckDB writes (every codec, dictionary on/off, pages v1/v2, nulls,
 *    many row groups, nested types) are read by floe with exactly the values
 *    DuckDB prints.
 * Skipped when node or the npm modules are missing.
 */
#include "pqengines.h"

/* ---------------------------------------------------------------- floe -> engines */

static int write_pt(const char *path, int64_t nrows, const char *codec, int version, bool no_dict)
{
    floe_buf file = FLOE_BUF_INIT;
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.parquet.compression-codec", codec);
    floe__props_set(&p, "write.parquet.row-group-size-bytes", "40000");
    floe__props_set(&p, "write.parquet.page-size-bytes", "8192");
    floe_pq_write_options o = {0};
    o.props = &p;
    o.sink = pt_sink;
    o.sink_payload = &file;
    o.data_page_version = version;
    o.dictionary_disabled = no_dict;
    o.iceberg_schema_json = "{\"type\":\"struct\"}";
    floe_pq_writer *w;
    int rc = floe__pq_writer_new(&w, &pt_schema, &o);
    for (int64_t at = 0; rc == 0 && at < nrows; at += 500) {
        struct ArrowArray a;
        rc = pt_batch(at, nrows - at < 500 ? nrows - at : 500, &a);
        if (rc == 0) {
            rc = floe__pq_writer_write(w, &a);
            a.release(&a);
        }
    }
    if (rc == 0)
        rc = floe__pq_writer_close(w, NULL);
    floe__pq_writer_free(w);
    floe__props_free(&p);
    if (rc == 0 && ft_write_file(path, file.ptr, file.len) != 0)
        rc = FLOE_EIO;
    floe__buf_free(&file);
    return rc;
}

static const char *const duck_types[PT_NCOLS] = {
    "BIGINT", "VARCHAR", "DECIMAL(10,2)", "DATE",    "TIMESTAMP WITH TIME ZONE", "BOOLEAN",
    "DOUBLE", "UUID",    "INTEGER",       "DECIMAL(25,3)", "FLOAT", "TIME", "BLOB", "BLOB",
    "TIMESTAMP", "DECIMAL(4,1)"};

static void duckdb_reads(const char *codec, int version, bool no_dict)
{
    const char *js = engines();
    if (!js)
        return;
    const char *path = ft_tmp("floe.parquet");
    FT_OK(write_pt(path, 3000, codec, version, no_dict));
    json_t *d = run_json("node %s duckdb-read %s", js, path);
    FT_ASSERT(d);
    json_t *cols = json_object_get(d, "columns");
    FT_EQ_INT(json_array_size(cols), PT_NCOLS);
    for (int c = 0; c < PT_NCOLS; c++) {
        json_t *col = json_array_get(cols, c);
        FT_EQ_STR(json_string_value(json_object_get(col, "name")), pt_fields[c].name);
        FT_EQ_STR(json_string_value(json_object_get(col, "type")), duck_types[c]);
    }
    json_t *rows = json_object_get(d, "rows");
    FT_EQ_INT(json_array_size(rows), 3000);
    int bad = 0;
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *r = json_array_get(rows, i);
        for (int c = 0; c < PT_NCOLS; c++) {
            uint8_t scratch[32];
            floe_value v = pt_value((int64_t)i, c, scratch);
            if (!same(&v, json_array_get(r, (size_t)c), false) && bad++ < 5) {
                char *w = json_dumps(json_array_get(r, (size_t)c), JSON_ENCODE_ANY);
                ft_fail(__FILE__, __LINE__, "row %zu col %s: DuckDB %s floe wrote %s", i,
                        pt_fields[c].name, w, v.is_null ? "null" : pt_fmt(&v));
                free(w);
            }
        }
    }
    /* field ids on every element */
    json_t *ids = json_object_get(d, "field_ids");
    int seen = 0;
    for (size_t i = 0; i < json_array_size(ids); i++) {
        json_t *e = json_array_get(ids, i);
        const char *nm = json_string_value(json_array_get(e, 0));
        for (int c = 0; c < PT_NCOLS; c++)
            if (!strcmp(nm, pt_fields[c].name)) {
                char want[16];
                snprintf(want, sizeof(want), "%d", pt_fields[c].id);
                FT_EQ_STR(json_string_value(json_array_get(e, 1)), want);
                seen++;
            }
    }
    FT_EQ_INT(seen, PT_NCOLS);
    /* statistics of `id` (column 0) per row group: min/max of the rows in it */
    json_t *st = json_object_get(d, "stats");
    int64_t groups = 0, first_row = 0;
    for (size_t i = 0; i < json_array_size(st); i++) {
        json_t *e = json_array_get(st, i);
        if (strcmp(json_string_value(json_array_get(e, 1)), "id"))
            continue;
        FT_CHECK(!strcasecmp(json_string_value(json_array_get(e, 5)),
                             !strcmp(codec, "uncompressed") ? "UNCOMPRESSED" : codec));
        long long mn = atoll(json_string_value(json_array_get(e, 2)));
        FT_EQ_INT(mn, first_row * 1000003LL - 5000);
        long long mx = atoll(json_string_value(json_array_get(e, 3)));
        FT_CHECK(mx > mn);
        first_row = (mx + 5000) / 1000003LL + 1;
        groups++;
    }
    FT_EQ_INT(first_row, 3000);
    FT_CHECK(groups > 1);
    json_decref(d);
}

static void test_duckdb_reads_zstd_v1(void) { duckdb_reads("zstd", 1, false); }
static void test_duckdb_reads_snappy_v2(void) { duckdb_reads("snappy", 2, false); }
static void test_duckdb_reads_gzip_plain(void) { duckdb_reads("gzip", 1, true); }
static void test_duckdb_reads_uncompressed_v2_plain(void) { duckdb_reads("uncompressed", 2, true); }

static void test_hyparquet_reads(void)
{
    const char *js = engines();
    if (!js)
        return;
    const char *path = ft_tmp("floe.parquet");
    FT_OK(write_pt(path, 1200, "zstd", 1, false));
    json_t *h = run_json("node %s hyparquet-read %s", js, path);
    FT_ASSERT(h);
    json_t *schema = json_object_get(h, "schema");
    FT_EQ_INT(json_array_size(schema), PT_NCOLS + 1);
    for (int c = 0; c < PT_NCOLS; c++) {
        json_t *e = json_array_get(schema, (size_t)c + 1);
        FT_EQ_STR(json_string_value(json_object_get(e, "name")), pt_fields[c].name);
        FT_EQ_INT(json_integer_value(json_object_get(e, "field_id")), pt_fields[c].id);
        FT_EQ_STR(json_string_value(json_object_get(e, "repetition_type")),
                  pt_fields[c].required ? "REQUIRED" : "OPTIONAL");
    }
    json_t *ts = json_object_get(json_array_get(schema, 5), "logical_type");
    FT_EQ_STR(json_string_value(json_object_get(ts, "type")), "TIMESTAMP");
    FT_CHECK(json_is_true(json_object_get(ts, "isAdjustedToUTC")));
    json_t *tsl = json_object_get(json_array_get(schema, 15), "logical_type");
    FT_CHECK(json_is_false(json_object_get(tsl, "isAdjustedToUTC")));
    FT_EQ_STR(json_string_value(json_object_get(json_array_get(schema, 3), "converted_type")), "DECIMAL");
    FT_EQ_STR(json_string_value(json_object_get(json_object_get(json_array_get(schema, 8), "logical_type"), "type")), "UUID");
    json_t *kv = json_object_get(h, "key_value_metadata");
    FT_EQ_STR(json_string_value(json_object_get(json_array_get(kv, 0), "key")), "iceberg.schema");
    json_t *rows = json_object_get(h, "rows");
    FT_EQ_INT(json_array_size(rows), 1200);
    int bad = 0;
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *r = json_array_get(rows, i);
        for (int c = 0; c < PT_NCOLS; c++) {
            uint8_t scratch[32];
            floe_value v = pt_value((int64_t)i, c, scratch);
            if (!same(&v, json_array_get(r, (size_t)c), true) && bad++ < 5) {
                char *w = json_dumps(json_array_get(r, (size_t)c), JSON_ENCODE_ANY);
                ft_fail(__FILE__, __LINE__, "row %zu col %s: hyparquet %s floe wrote %s", i,
                        pt_fields[c].name, w, v.is_null ? "null" : pt_fmt(&v));
                free(w);
            }
        }
    }
    json_decref(h);
}

/* ---------------------------------------------------------------- engines -> floe */

static const char *duck_select =
    "SELECT i::BIGINT AS l, CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 7 - 300)::INTEGER END AS n, "
    "(i % 120)::TINYINT AS ti, (i * 3)::SMALLINT AS si, "
    "CASE WHEN i % 3 = 0 THEN NULL ELSE 'str-' || (i % 50)::VARCHAR END AS s, "
    "'unique-' || i::VARCHAR || repeat('x', (i % 7)::INTEGER) AS u, "
    "(i / 7.0)::DOUBLE AS d, (i / 4.0)::FLOAT AS f, ((i % 20000) - 10000)::DECIMAL(9,2) AS d9, "
    "(i * 12345.678)::DECIMAL(18,3) AS d18, (i * -98765.4321)::DECIMAL(38,4) AS d38, "
    "DATE '1969-12-25' + (i % 500)::INTEGER AS dt, TIMESTAMP '2024-02-29 12:00:00' + "
    "to_microseconds(i * 1001) AS ts, TIMESTAMPTZ '1960-01-01 00:00:00+00' + to_seconds(i) AS tstz, "
    "TIME '01:02:03' + to_microseconds(i) AS tm, i % 2 = 0 AS b, "
    "CASE WHEN i % 4 = 0 THEN NULL ELSE ('\\xAA\\x00'::BLOB || (i % 9)::VARCHAR::BLOB) END AS bl, "
    "uuid_extract_timestamp IS NULL AS dummy, "
    "CASE WHEN i % 6 = 0 THEN NULL ELSE [i, i + 1, NULL][1:(i % 4)::INTEGER] END AS li, "
    "CASE WHEN i % 5 = 1 THEN NULL ELSE {'a': i::INTEGER, 'b': CASE WHEN i % 2 = 0 THEN NULL "
    "ELSE 'v' || i::VARCHAR END} END AS st, "
    "CASE WHEN i % 7 = 2 THEN NULL ELSE MAP {'k' || (i % 3)::VARCHAR: i::INTEGER} END AS mp, "
    "[[i::INTEGER], [], NULL][1:(i % 4)::INTEGER] AS ll, "
    "['a', NULL, 'ccc'][1:(i % 4)::INTEGER] AS ls "
    "FROM range(%d) t(i)";

static void floe_reads_duckdb(const char *options, int nrows)
{
    const char *js = engines();
    if (!js)
        return;
    const char *path = ft_tmp("duck.parquet");
    char sel[4096];
    snprintf(sel, sizeof(sel), duck_select, nrows);
    /* drop the dummy column (kept only to keep the SQL readable) */
    char *dummy = strstr(sel, "uuid_extract_timestamp IS NULL AS dummy, ");
    memmove(dummy, dummy + strlen("uuid_extract_timestamp IS NULL AS dummy, "),
            strlen(dummy + strlen("uuid_extract_timestamp IS NULL AS dummy, ")) + 1);
    char cmd[8192];
    snprintf(cmd, sizeof(cmd), "node %s duckdb-write %s \"%s\" \"%s\"", js, path, options, sel);
    char *out = NULL;
    int st = ft_run(&out, "%s 2>&1", cmd);
    if (st != 0) {
        ft_fail(__FILE__, __LINE__, "duckdb-write failed: %s", out ? out : "");
        free(out);
        return;
    }
    free(out);
    json_t *d = run_json("node %s duckdb-read %s", js, path);
    FT_ASSERT(d);
    floe_matches_duckdb(path, d, 0);
    floe_matches_duckdb(path, d, 777);
    json_decref(d);
}

static void test_floe_reads_duckdb_zstd(void) { floe_reads_duckdb("COMPRESSION zstd", 3000); }
static void test_floe_reads_duckdb_snappy_rg(void)
{
    floe_reads_duckdb("COMPRESSION snappy, ROW_GROUP_SIZE 500", 2600);
}
static void test_floe_reads_duckdb_gzip_v2(void)
{
    floe_reads_duckdb("COMPRESSION gzip, PARQUET_VERSION V2, ROW_GROUP_SIZE 1000", 3000);
}
static void test_floe_reads_duckdb_uncompressed_v2(void)
{
    floe_reads_duckdb("COMPRESSION uncompressed, PARQUET_VERSION V2", 2000);
}
static void test_floe_reads_duckdb_no_dictionary(void)
{
    floe_reads_duckdb("COMPRESSION zstd, DICTIONARY_SIZE_LIMIT 1", 2000);
}

static const ft_case cases[] = {
    {"duckdb_reads_zstd_v1", test_duckdb_reads_zstd_v1},
    {"duckdb_reads_snappy_v2", test_duckdb_reads_snappy_v2},
    {"duckdb_reads_gzip_plain", test_duckdb_reads_gzip_plain},
    {"duckdb_reads_uncompressed_v2_plain", test_duckdb_reads_uncompressed_v2_plain},
    {"hyparquet_reads", test_hyparquet_reads},
    {"floe_reads_duckdb_zstd", test_floe_reads_duckdb_zstd},
    {"floe_reads_duckdb_snappy_rg", test_floe_reads_duckdb_snappy_rg},
    {"floe_reads_duckdb_gzip_v2", test_floe_reads_duckdb_gzip_v2},
    {"floe_reads_duckdb_uncompressed_v2", test_floe_reads_duckdb_uncompressed_v2},
    {"floe_reads_duckdb_no_dictionary", test_floe_reads_duckdb_no_dictionary},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
