/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Striped scans (scan/read.c: a table of fewer data files than threads is
 * read by every thread, each in its own stripes of one file, parquet/reader.c
 * stripe mode) against the one-thread scan they replace: the same batches'
 * rows in the same order, byte for byte, for one large file (several row
 * groups, nulls, strings) and one under a stripe, without deletes, with
 * position-delete files (v2 merge-on-read) and deletion vectors (v3), with
 * a residual filter, and with the metadata columns `_pos`, `_file` and
 * `_row_id` (positions counted from the file's first row in every stripe).
 */
#include "harness.h"

#include "arrow/arrow.h"
#include "floe/catalog.h"
#include "floe/scan.h"
#include "floe/table.h"
#include "spec/value.h"

#include <stdio.h>
#include <string.h>

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"v\",\"required\":true,\"type\":\"long\"},"                               \
    "{\"id\":3,\"name\":\"x\",\"required\":false,\"type\":\"double\"},"                            \
    "{\"id\":4,\"name\":\"s\",\"required\":false,\"type\":\"string\"}]}"

static const floe_type t_long = {.id = FLOE_T_LONG};
static const floe_type t_double = {.id = FLOE_T_DOUBLE};
static const floe_type t_string = {.id = FLOE_T_STRING};
static const floe_field fields[] = {{.id = 1, .name = "id", .required = true, .type = &t_long},
                                    {.id = 2, .name = "v", .required = true, .type = &t_long},
                                    {.id = 3, .name = "x", .type = &t_double},
                                    {.id = 4, .name = "s", .type = &t_string}};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 4, .fields = fields};

/* Rows [from, from + n): x null on every 13th row, s on every 7th. */
static int batch(int64_t from, int64_t n, struct ArrowArray *out)
{
    floe_arrow_builder *b = NULL;
    FLOE_TRY(floe__arrow_builder_new(&b, &root));
    int rc = 0;
    char text[32];
    for (int64_t i = from; rc == 0 && i < from + n; i++) {
        floe_value v[4] = {floe_value_long(i), floe_value_long(i % 100),
                           i % 13 ? floe_value_double((double)i * 0.5) : floe_value_null(FLOE_T_DOUBLE),
                           floe_value_null(FLOE_T_STRING)};
        if (i % 7) {
            int len = snprintf(text, sizeof text, "row-%lld", (long long)(i % 1000));
            v[3] = floe_value_bytes(FLOE_T_STRING, text, (size_t)len);
        }
        for (size_t c = 0; rc == 0 && c < 4; c++)
            rc = floe__arrow_builder_append(b->children[c], &v[c]);
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

/* A table of `files` files of `per` rows each (row groups of ~200k rows). */
static floe_table *make(floe_catalog *c, const char *ident, const char *format, int files,
                        int64_t per)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.delete.mode", "merge-on-read");
    floe__props_set(&p, "format-version", format);
    floe__props_set(&p, "write.parquet.row-group-size-bytes", "3000000");
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = SCHEMA;
    co.properties = &p;
    floe_table *t = NULL;
    int rc = floe_table_create(&t, c, ident, &co, NULL);
    floe__props_free(&p);
    for (int f = 0; rc == 0 && f < files; f++) {
        floe_append *a = NULL;
        rc = floe_append_new(&a, t);
        struct ArrowArray arr;
        if (rc == 0 && (rc = batch((int64_t)f * per, per, &arr)) == 0) {
            rc = floe_append_write(a, &arr);
            arr.release(&arr);
        }
        if (rc == 0)
            rc = floe_append_commit(NULL, a);
        floe_append_free(a);
    }
    if (rc < 0) {
        ft_fail(__FILE__, __LINE__, "make %s: %s", ident, ft_floe_err());
        floe_table_free(t);
        return NULL;
    }
    return t;
}

#define MAXC 8

/* The rows of every batch, in order, as bytes (validity + values): out[c]
 * for column c (batch boundaries do not show). */
static int scan_bytes(floe_table *t, int threads, const char *filter, const char *const *cols,
                      size_t ncols, floe_buf out[MAXC], int64_t *rows)
{
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.threads = threads;
    o.filter = filter;
    o.columns = cols;
    o.ncolumns = ncols;
    floe_scan *s = NULL;
    FLOE_TRY(floe_scan_open(&s, floe_table_io(t), floe_table_metadata_location(t), &o));
    struct ArrowArrayStream st;
    int rc = floe_scan_to_stream(&st, s);
    *rows = 0;
    while (rc == 0) {
        struct ArrowArray b;
        if (st.get_next(&st, &b) != 0) {
            const char *e = st.get_last_error(&st);
            rc = floe__error(e && !strncmp(e, "FLOE_ENOMEM", 11) ? FLOE_ENOMEM : FLOE_EIO, "test",
                             "%s", e ? e : "?");
            break;
        }
        if (!b.release)
            break;
        FT_CHECK(b.length > 0);
        for (int64_t c = 0; rc == 0 && c < b.n_children && c < MAXC; c++) {
            const struct ArrowArray *a = b.children[c];
            for (int64_t i = 0; rc == 0 && i < b.length; i++) {
                bool valid = floe__arrow_is_valid(a, i);
                rc = floe__buf_putc(&out[c], valid ? 1 : 0);
                if (rc || !valid)
                    continue;
                if (a->n_buffers == 3) {
                    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
                    rc = floe__buf_put(&out[c], (const char *)a->buffers[2] + off[i],
                                       (size_t)(off[i + 1] - off[i]));
                } else {
                    rc = floe__buf_put(&out[c], (const char *)a->buffers[1] + 8 * (i + a->offset),
                                       8);
                }
            }
        }
        *rows += b.length;
        b.release(&b);
    }
    if (st.release)
        st.release(&st);
    floe_scan_free(s);
    return rc;
}

static void same_scans(floe_table *t, const char *filter, const char *const *cols, size_t ncols,
                       int64_t want_rows)
{
    floe_buf one[MAXC], two[MAXC];
    memset(one, 0, sizeof one);
    memset(two, 0, sizeof two);
    int64_t r1 = 0, r2 = 0;
    FT_OK(scan_bytes(t, 1, filter, cols, ncols, one, &r1));
    FT_OK(scan_bytes(t, 2, filter, cols, ncols, two, &r2));
    if (want_rows >= 0)
        FT_EQ_INT(r1, want_rows);
    FT_EQ_INT(r2, r1);
    FT_CHECK(r1 > 0);
    for (size_t c = 0; c < MAXC; c++) {
        if (one[c].len != two[c].len || (one[c].len && memcmp(one[c].ptr, two[c].ptr, one[c].len)))
            ft_fail(__FILE__, __LINE__, "striped scan differs in column %zu (filter %s)", c,
                    filter ? filter : "none");
        floe__buf_free(&one[c]);
        floe__buf_free(&two[c]);
    }
}

static int del(floe_table *t, const char *filter)
{
    floe_rowlevel *op = NULL;
    int rc = floe_rowlevel_new(&op, t, NULL);
    if (rc == 0)
        rc = floe_rowlevel_delete_where(op, filter);
    if (rc == 0)
        rc = floe_rowlevel_commit(NULL, NULL, op);
    floe_rowlevel_free(op);
    return rc;
}

static void check_table(const char *format, int files, int64_t per)
{
    char db[1024], ident[64];
    snprintf(db, sizeof db, "%s/catalog-%s-%d.db", ft_tmpdir(), format, files);
    snprintf(ident, sizeof ident, "b.t%s_%d", format, files);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = ft_tmpdir();
    floe_catalog *c = NULL;
    FT_OK(floe_catalog_open_sql(&c, db, &co));
    if (floe_catalog_create_namespace(c, "b", NULL) < 0)
        floe_error_clear();
    floe_table *t = make(c, ident, format, files, per);
    FT_ASSERT(t != NULL);
    static const char *const meta[] = {"_pos", "id", "_file", "s"};
    static const char *const lineage[] = {"_row_id", "v", "_pos"};
    int64_t total = (int64_t)files * per;
    same_scans(t, NULL, NULL, 0, total);
    same_scans(t, NULL, meta, 4, total);
    same_scans(t, "v < 3 OR id >= 500000", NULL, 0, -1);
    FT_OK(del(t, "v = 7"));
    FT_OK(del(t, "id >= 300000 AND id < 330000"));
    same_scans(t, NULL, NULL, 0, -1);
    same_scans(t, NULL, meta, 4, -1);
    same_scans(t, "x IS NULL OR v = 8", meta, 4, -1);
    if (!strcmp(format, "3"))
        same_scans(t, NULL, lineage, 3, -1);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_one_file_v2_position_deletes(void) { check_table("2", 1, 700000); }
static void test_one_file_v3_deletion_vectors(void) { check_table("3", 1, 700000); }
/* a file of less than a stripe: read by one lane, same answer */
static void test_small_file_v3(void) { check_table("3", 1, 200000); }

/* Every allocation of a striped scan with deletion vectors failing in turn
 * (in either thread): FLOE_ENOMEM from the stream, or the one-thread
 * scan's rows; never a crash or a leak. */
static void test_oom_striped(void)
{
    char db[1024];
    snprintf(db, sizeof db, "%s/catalog-oom.db", ft_tmpdir());
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = ft_tmpdir();
    floe_catalog *c = NULL;
    FT_OK(floe_catalog_open_sql(&c, db, &co));
    FT_OK(floe_catalog_create_namespace(c, "b", NULL));
    floe_table *t = make(c, "b.oom", "3", 1, 270000);
    FT_ASSERT(t != NULL);
    FT_OK(del(t, "v = 7"));
    floe_buf want[MAXC], got[MAXC];
    memset(want, 0, sizeof want);
    int64_t rows = 0;
    FT_OK(scan_bytes(t, 1, NULL, NULL, 0, want, &rows));
    bool done = false;
    long failures = 0;
    for (long nth = 1; nth < 20000 && !done; nth += nth < 300 ? 1 : 13) {
        memset(got, 0, sizeof got);
        int64_t n = 0;
        floe__alloc_fail_at(nth);
        int rc = scan_bytes(t, 2, NULL, NULL, 0, got, &n);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            done = true;
            FT_EQ_INT(n, rows);
            for (size_t k = 0; k < MAXC; k++)
                FT_CHECK(got[k].len == want[k].len &&
                         (!want[k].len || !memcmp(got[k].ptr, want[k].ptr, want[k].len)));
        } else {
            failures++;
            if (rc != FLOE_ENOMEM)
                ft_fail(__FILE__, __LINE__, "allocation %ld: %s", nth, ft_floe_err());
            floe_error_clear();
        }
        for (size_t k = 0; k < MAXC; k++)
            floe__buf_free(&got[k]);
    }
    FT_CHECK(done);
    FT_CHECK(failures > 100);
    for (size_t k = 0; k < MAXC; k++)
        floe__buf_free(&want[k]);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"one_file_v2_position_deletes", test_one_file_v2_position_deletes},
    {"one_file_v3_deletion_vectors", test_one_file_v3_deletion_vectors},
    {"small_file_v3", test_small_file_v3},
    {"oom_striped", test_oom_striped},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
