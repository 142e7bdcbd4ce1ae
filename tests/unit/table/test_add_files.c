/* SPDX-License-Identifier: Apache-2.0 */
/* table/add_files: adopting Parquet files that floe wrote for another table
 * (Hive directories order_date=...), the data-file entries (path in place,
 * partition tuple from the directory, `__HIVE_DEFAULT_PARTITION__` as null,
 * metrics equal to the writer's), the name mapping, the duplicate check,
 * and out-of-memory at every allocation. */
#include "append_fixture.h"

static const fx_order ROWS[] = {{1001, 501, 12050, "PLACED", 2026, 9, 20},
                                {1002, 502, 7500, "PLACED", 2026, 9, 20},
                                {1003, 503, 31025, "PLACED", 2026, 9, 21}};

/* Every live entry of the current snapshot, in manifest order. */
static int entries(floe_table *t, floe_manifest **ms, size_t max, size_t *n, floe_buf *bufs)
{
    const floe_snapshot *s = floe__metadata_current_snapshot(t->metadata);
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    *n = 0;
    int rc = s ? fx_read_list(t, floe__table_manifest_list(t, s), &lb, &l) : FLOE_ENOTFOUND;
    for (size_t i = 0; rc == 0 && i < l->nentries && *n < max; i++) {
        rc = floe__io_read_all(floe_table_io(t), l->entries[i].manifest_path, 1 << 24, &bufs[*n]);
        if (rc == 0)
            rc = floe_manifest_read(&ms[*n], (const uint8_t *)bufs[*n].ptr, bufs[*n].len, "m",
                                    &l->entries[i]);
        if (rc == 0)
            ++*n;
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    return rc;
}

static const floe_data_file *find_file(floe_manifest **ms, size_t n, const char *part)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < ms[i]->nentries; k++)
            if (strstr(ms[i]->entries[k].data_file.file_path, part))
                return &ms[i]->entries[k].data_file;
    return NULL;
}

static bool same_longs(const floe_col_longs *a, const floe_col_longs *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->items[i].field_id != b->items[i].field_id || a->items[i].value != b->items[i].value)
            return false;
    return true;
}

static bool same_bounds(const floe_col_bytes_map *a, const floe_col_bytes_map *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->items[i].field_id != b->items[i].field_id || a->items[i].len != b->items[i].len ||
            memcmp(a->items[i].ptr, b->items[i].ptr, a->items[i].len) != 0)
            return false;
    return true;
}

static int copy_object(floe_fileio *io, const char *from, const char *to)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__io_read_all(io, from, 1 << 24, &b);
    if (rc == 0)
        rc = floe_fileio_write_new(io, to, b.ptr, b.len);
    floe__buf_free(&b);
    return rc;
}

typedef struct first_cb {
    char path[2048];
} first_cb;

static int remember(const floe_file_info *info, void *p)
{
    first_cb *f = p;
    if (!f->path[0] && strstr(info->uri, "order_date=2026-09-21/"))
        snprintf(f->path, sizeof f->path, "%s", info->uri);
    return 0;
}

static void test_add_files_partitioned(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *src = NULL, *dst = NULL;
    FT_OK(fx_create(&src, c, "shop.src", NULL));
    FT_ASSERT(fx_append_rows(src, ROWS, 3) > 0);
    FT_OK(fx_create(&dst, c, "shop.dst", NULL));
    char data[2048];
    snprintf(data, sizeof data, "%s/data", floe_table_location(src));
    /* a copy of the 09-21 file in the null partition */
    first_cb f = {{0}};
    FT_OK(floe_fileio_list(floe_table_io(src), data, remember, &f));
    FT_ASSERT(f.path[0]);
    char nullp[2100];
    snprintf(nullp, sizeof nullp, "%s/order_date=__HIVE_DEFAULT_PARTITION__/x.parquet", data);
    FT_OK(copy_object(floe_table_io(src), f.path, nullp));

    floe_add_files_options o = FLOE_ADD_FILES_OPTIONS_INIT;
    floe_add_files_result r;
    FT_OK(floe_table_add_files(&r, dst, data, &o));
    FT_EQ_INT(r.added_files_count, 3);
    FT_EQ_INT(r.changed_partition_count, 3);
    FT_CHECK(r.snapshot_id > 0);
    FT_EQ_INT(fx_rows(dst, r.snapshot_id), 4);
    const floe_snapshot *s = floe__metadata_current_snapshot(dst->metadata);
    FT_ASSERT(s && s->snapshot_id == r.snapshot_id);
    FT_EQ_STR(fx_summary(s, "operation"), "append");
    FT_EQ_STR(fx_summary(s, "added-data-files"), "3");
    FT_EQ_STR(fx_summary(s, "added-records"), "4");
    const char *nm = floe_table_property(dst, "schema.name-mapping.default");
    FT_ASSERT(nm);
    FT_CHECK(strstr(nm, "{\"field-id\":5,\"names\":[\"order_date\"]}") != NULL);

    floe_manifest *ms[8] = {0}, *sm[8] = {0};
    floe_buf bufs[8], sbufs[8];
    for (int i = 0; i < 8; i++)
        bufs[i] = sbufs[i] = (floe_buf)FLOE_BUF_INIT;
    size_t n = 0, sn = 0;
    FT_OK(entries(dst, ms, 8, &n, bufs));
    FT_OK(entries(src, sm, 8, &sn, sbufs));
    const floe_data_file *a = find_file(ms, n, "order_date=2026-09-21/");
    const floe_data_file *w = find_file(sm, sn, "order_date=2026-09-21/");
    const floe_data_file *z = find_file(ms, n, "__HIVE_DEFAULT_PARTITION__");
    FT_ASSERT(a && w && z);
    FT_EQ_STR(a->file_path, w->file_path); /* adopted in place */
    FT_EQ_INT(a->record_count, 1);
    FT_EQ_INT(a->file_size_in_bytes, w->file_size_in_bytes);
    FT_ASSERT(a->partition.n == 1);
    FT_EQ_INT(a->partition.values[0].type, FLOE_T_DATE);
    FT_EQ_INT(a->partition.values[0].v.i32, (int32_t)floe__days_from_civil(2026, 9, 21));
    FT_CHECK(z->partition.n == 1 && z->partition.values[0].is_null);
    FT_CHECK(same_longs(&a->column_sizes, &w->column_sizes));
    FT_CHECK(same_longs(&a->value_counts, &w->value_counts));
    FT_CHECK(same_longs(&a->null_value_counts, &w->null_value_counts));
    FT_CHECK(same_bounds(&a->lower_bounds, &w->lower_bounds));
    FT_CHECK(same_bounds(&a->upper_bounds, &w->upper_bounds));
    FT_CHECK(a->has_sort_order_id && a->sort_order_id == 0);
    FT_CHECK(!a->has_split_offsets);
    for (size_t i = 0; i < n; i++)
        floe_manifest_free(ms[i]);
    for (size_t i = 0; i < sn; i++)
        floe_manifest_free(sm[i]);
    for (int i = 0; i < 8; i++) {
        floe__buf_free(&bufs[i]);
        floe__buf_free(&sbufs[i]);
    }

    /* a second time: refused, nothing committed */
    size_t before = dst->metadata->nsnapshots;
    FT_CHECK(floe_table_add_files(&r, dst, data, &o) == FLOE_EEXISTS);
    FT_CHECK(strstr(floe_error_last()->message,
                    "Cannot complete import because data files to be imported already exist "
                    "within the target table: ") != NULL);
    /* Java's Preconditions.checkState in SparkTableUtil.importSparkPartitions */
    FT_EQ_STR(floe_error_exception(floe_error_last()), "IllegalStateException");
    FT_EQ_INT(r.added_files_count, 0);
    FT_EQ_INT(dst->metadata->nsnapshots, before);
    /* a filter keeps one directory; check off */
    floe_props filter = FLOE_PROPS_INIT;
    floe__props_set(&filter, "order_date", "2026-09-20");
    o.partition_filter = &filter;
    o.check_duplicate_files = false;
    FT_OK(floe_table_add_files(&r, dst, data, &o));
    FT_EQ_INT(r.added_files_count, 1);
    FT_EQ_INT(fx_rows(dst, r.snapshot_id), 6);
    floe__props_free(&filter);
    floe_table_free(src);
    floe_table_free(dst);
    floe_catalog_free(c);
}

/* Out of memory at every allocation: FLOE_ENOMEM, nothing leaked (ASan),
 * the table's rows unchanged, then success. */
static void test_add_files_oom(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_fileio *mem = NULL;
    FT_OK(floe_fileio_memory_new(&mem));
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = mem;
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = ORDERS_SCHEMA;
    co.partition_spec_json = ORDERS_SPEC;
    co.location = "mem://wh/shop.db/src";
    floe_table *src = NULL, *dst = NULL;
    FT_OK(floe_table_create(&src, c, "shop.src", &co, &to));
    FT_ASSERT(fx_append_rows(src, ROWS, 3) > 0);
    co.location = "mem://wh/shop.db/dst";
    FT_OK(floe_table_create(&dst, c, "shop.dst", &co, &to));
    long n;
    for (n = 1; n < 100000; n++) {
        floe_add_files_result r;
        floe__alloc_fail_at(n);
        int rc = floe_table_add_files(&r, dst, "mem://wh/shop.db/src/data", NULL);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_EQ_INT(r.added_files_count, 2);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
            break;
        }
        FT_OK(floe_table_refresh(dst));
        FT_CHECK(!floe__metadata_current_snapshot(dst->metadata));
    }
    FT_CHECK(n > 20);
    FT_OK(floe_table_refresh(dst));
    FT_EQ_INT(fx_rows(dst, fx_main(dst)), 3);
    floe_table_free(src);
    floe_table_free(dst);
    floe_fileio_free(mem);
    floe_catalog_free(c);
}

static void test_add_files_errors(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *dst = NULL;
    FT_OK(fx_create(&dst, c, "shop.dst", NULL));
    FT_CHECK(floe_table_add_files(NULL, dst, ft_tmp("nowhere"), NULL) == FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Path does not exist: ");
    /* files directly in the directory of a partitioned table */
    char p[2048];
    snprintf(p, sizeof p, "%s/x.parquet", ft_tmp("flat"));
    FT_OK(floe_fileio_write_new(floe_table_io(dst), p, "PAR1", 4));
    FT_CHECK(floe_table_add_files(NULL, dst, ft_tmp("flat"), NULL) == FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot find any matching partitions in table shop.dst");
    /* not Parquet */
    snprintf(p, sizeof p, "%s/order_date=2026-01-01/x.parquet", ft_tmp("bad"));
    FT_OK(floe_fileio_write_new(floe_table_io(dst), p, "not parquet at all", 18));
    FT_CHECK(floe_table_add_files(NULL, dst, ft_tmp("bad"), NULL) == FLOE_ECORRUPT);
    FT_ERR_CONTAINS("x.parquet");
    /* a value that is not a date */
    snprintf(p, sizeof p, "%s/order_date=soon/x.parquet", ft_tmp("baddate"));
    FT_OK(floe_fileio_write_new(floe_table_io(dst), p, "x", 1));
    FT_CHECK(floe_table_add_files(NULL, dst, ft_tmp("baddate"), NULL) < 0);
    FT_CHECK(!floe__metadata_current_snapshot(dst->metadata));
    floe_table_free(dst);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"add_files_partitioned", test_add_files_partitioned},
    {"add_files_oom", test_add_files_oom},
    {"add_files_errors", test_add_files_errors},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
