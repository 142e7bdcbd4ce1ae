/* SPDX-License-Identifier: Apache-2.0 */
/* meta: the nested cells of the files and entries families (partition,
 * metric maps, bounds, split_offsets, equality_ids, data_file,
 * readable_metrics) are byte-identical to what floe wrote before the
 * one-pass writer of info.c (issue 28). The reference encoders below are
 * the previous implementation, kept here as the oracle; every entry of the
 * real tables in ../shared/fixtures (v1, v2 and v3; partitioned and
 * evolved; position, equality and DV deletes; every primitive bound type)
 * and a hand-made entry with text needing escapes, binary bounds, NaN
 * counts and every optional field are encoded both ways, through the row
 * sources and through the encoders directly. */
#include "arrow/arrow.h"
#include "fixture.h"
#include "floe/arrow.h"
#include "floe/io.h"
#include "io/io.h"
#include "meta/scan.h"
#include "spec/spec.h"

/* ---------------------------------------------------------------- reference (before) */

static int ref_put_key(floe_buf *b, bool *first, const char *key)
{
    if (!*first)
        FLOE_TRY(floe__buf_putc(b, ','));
    *first = false;
    FLOE_TRY(floe__json_put_str(b, key));
    return floe__buf_putc(b, ':');
}

static int ref_put_id_key(floe_buf *b, bool first, int64_t id)
{
    FLOE_TRY(first ? floe__buf_putc(b, '"') : floe__buf_put(b, ",\"", 2));
    FLOE_TRY(floe__rs_put_i64(b, id));
    return floe__buf_put(b, "\":", 2);
}

static int ref_partition(const meta_info *info, const floe_partition_value *pv, const int32_t *ids,
                         size_t nids, floe_buf *out)
{
    FLOE_TRY(floe__buf_putc(out, '{'));
    bool first = true;
    for (size_t i = 0; i < info->npart; i++) {
        FLOE_TRY(ref_put_key(out, &first, info->part[i].name));
        const floe_value *v = NULL;
        for (size_t j = 0; j < nids && j < pv->n && !v; j++)
            if (ids[j] == info->part[i].field_id)
                v = &pv->values[j];
        FLOE_TRY(v ? floe__rs_json_value(v, out) : floe__buf_puts(out, "null"));
    }
    return floe__buf_putc(out, '}');
}

static int ref_longs(const floe_col_longs *m, floe_buf *out)
{
    if (!m->set)
        return floe__buf_puts(out, "null");
    FLOE_TRY(floe__buf_putc(out, '{'));
    for (size_t i = 0; i < m->n; i++) {
        FLOE_TRY(ref_put_id_key(out, i == 0, m->items[i].field_id));
        FLOE_TRY(floe__rs_put_i64(out, m->items[i].value));
    }
    return floe__buf_putc(out, '}');
}

static int ref_hex(floe_buf *out, const uint8_t *p, size_t n)
{
    FLOE_TRY(floe__buf_putc(out, '"'));
    for (size_t i = 0; i < n; i++)
        FLOE_TRY(floe__buf_printf(out, "%02x", p[i]));
    return floe__buf_putc(out, '"');
}

static int ref_bytes_map(const floe_col_bytes_map *m, floe_buf *out)
{
    if (!m->set)
        return floe__buf_puts(out, "null");
    FLOE_TRY(floe__buf_putc(out, '{'));
    for (size_t i = 0; i < m->n; i++) {
        FLOE_TRY(ref_put_id_key(out, i == 0, m->items[i].field_id));
        FLOE_TRY(ref_hex(out, m->items[i].ptr, m->items[i].len));
    }
    return floe__buf_putc(out, '}');
}

static int ref_opt_long(floe_buf *out, bool has, int64_t v)
{
    return has ? floe__rs_put_i64(out, v) : floe__buf_puts(out, "null");
}

static int ref_split_offsets(const floe_data_file *df, floe_buf *out)
{
    if (!df->has_split_offsets)
        return floe__buf_puts(out, "null");
    FLOE_TRY(floe__buf_putc(out, '['));
    for (size_t i = 0; i < df->nsplit_offsets; i++)
        FLOE_TRY(floe__buf_printf(out, "%s%lld", i ? "," : "", (long long)df->split_offsets[i]));
    return floe__buf_putc(out, ']');
}

static int ref_equality_ids(const floe_data_file *df, floe_buf *out)
{
    if (!df->has_equality_ids)
        return floe__buf_puts(out, "null");
    FLOE_TRY(floe__buf_putc(out, '['));
    for (size_t i = 0; i < df->nequality_ids; i++)
        FLOE_TRY(floe__buf_printf(out, "%s%d", i ? "," : "", (int)df->equality_ids[i]));
    return floe__buf_putc(out, ']');
}

static int ref_data_file(const meta_info *info, const floe_data_file *df, int32_t spec_id,
                         const int32_t *ids, size_t nids, floe_buf *out)
{
    bool first = true;
    FLOE_TRY(floe__buf_putc(out, '{'));
    FLOE_TRY(ref_put_key(out, &first, "content"));
    FLOE_TRY(floe__buf_printf(out, "%d", (int)df->content));
    FLOE_TRY(ref_put_key(out, &first, "file_path"));
    FLOE_TRY(floe__json_put_str(out, df->file_path));
    FLOE_TRY(ref_put_key(out, &first, "file_format"));
    FLOE_TRY(floe__json_put_str(out, df->file_format));
    FLOE_TRY(ref_put_key(out, &first, "spec_id"));
    FLOE_TRY(floe__buf_printf(out, "%d", (int)spec_id));
    if (info->npart) {
        FLOE_TRY(ref_put_key(out, &first, "partition"));
        FLOE_TRY(ref_partition(info, &df->partition, ids, nids, out));
    }
    FLOE_TRY(ref_put_key(out, &first, "record_count"));
    FLOE_TRY(floe__buf_printf(out, "%lld", (long long)df->record_count));
    FLOE_TRY(ref_put_key(out, &first, "file_size_in_bytes"));
    FLOE_TRY(floe__buf_printf(out, "%lld", (long long)df->file_size_in_bytes));
    const floe_col_longs *longs[] = {&df->column_sizes, &df->value_counts, &df->null_value_counts,
                                     &df->nan_value_counts};
    static const char *const long_names[] = {"column_sizes", "value_counts", "null_value_counts",
                                             "nan_value_counts"};
    for (int k = 0; k < 4; k++) {
        FLOE_TRY(ref_put_key(out, &first, long_names[k]));
        FLOE_TRY(ref_longs(longs[k], out));
    }
    FLOE_TRY(ref_put_key(out, &first, "lower_bounds"));
    FLOE_TRY(ref_bytes_map(&df->lower_bounds, out));
    FLOE_TRY(ref_put_key(out, &first, "upper_bounds"));
    FLOE_TRY(ref_bytes_map(&df->upper_bounds, out));
    FLOE_TRY(ref_put_key(out, &first, "key_metadata"));
    FLOE_TRY(df->key_metadata.set ? ref_hex(out, df->key_metadata.ptr, df->key_metadata.len)
                                  : floe__buf_puts(out, "null"));
    FLOE_TRY(ref_put_key(out, &first, "split_offsets"));
    FLOE_TRY(ref_split_offsets(df, out));
    FLOE_TRY(ref_put_key(out, &first, "equality_ids"));
    FLOE_TRY(ref_equality_ids(df, out));
    FLOE_TRY(ref_put_key(out, &first, "sort_order_id"));
    FLOE_TRY(ref_opt_long(out, df->has_sort_order_id, df->sort_order_id));
    FLOE_TRY(ref_put_key(out, &first, "first_row_id"));
    FLOE_TRY(ref_opt_long(out, df->has_first_row_id, df->first_row_id));
    FLOE_TRY(ref_put_key(out, &first, "referenced_data_file"));
    FLOE_TRY(df->referenced_data_file ? floe__json_put_str(out, df->referenced_data_file)
                                      : floe__buf_puts(out, "null"));
    FLOE_TRY(ref_put_key(out, &first, "content_offset"));
    FLOE_TRY(ref_opt_long(out, df->has_content_offset, df->content_offset));
    FLOE_TRY(ref_put_key(out, &first, "content_size_in_bytes"));
    FLOE_TRY(ref_opt_long(out, df->has_content_size_in_bytes, df->content_size_in_bytes));
    return floe__buf_putc(out, '}');
}

static bool ref_find_long(const floe_col_longs *m, int32_t id, int64_t *v)
{
    for (size_t i = 0; m->set && i < m->n; i++)
        if (m->items[i].field_id == id) {
            *v = m->items[i].value;
            return true;
        }
    return false;
}

static int ref_bound(floe_buf *out, const floe_col_bytes_map *m, const floe_field *f)
{
    for (size_t i = 0; m->set && i < m->n; i++) {
        if (m->items[i].field_id != f->id)
            continue;
        floe_value v;
        if (floe_value_from_single(f->type, m->items[i].ptr, m->items[i].len, &v) < 0) {
            floe_error_clear();
            return floe__buf_puts(out, "null");
        }
        return floe__rs_json_value(&v, out);
    }
    return floe__buf_puts(out, "null");
}

static int ref_readable_metrics(const meta_info *info, const floe_data_file *df, floe_buf *out)
{
    static const char *const names[] = {"column_size", "value_count", "null_value_count",
                                        "nan_value_count"};
    FLOE_TRY(floe__buf_putc(out, '{'));
    bool first = true;
    for (size_t i = 0; i < info->nmetric; i++) {
        const floe_field *f = info->metric[i].field;
        FLOE_TRY(ref_put_key(out, &first, info->metric[i].name));
        const floe_col_longs *maps[4] = {&df->column_sizes, &df->value_counts,
                                         &df->null_value_counts, &df->nan_value_counts};
        FLOE_TRY(floe__buf_putc(out, '{'));
        bool first_metric = true;
        for (int k = 0; k < 4; k++) {
            int64_t v = 0;
            bool has = ref_find_long(maps[k], f->id, &v);
            FLOE_TRY(ref_put_key(out, &first_metric, names[k]));
            FLOE_TRY(ref_opt_long(out, has, v));
        }
        FLOE_TRY(floe__buf_puts(out, ",\"lower_bound\":"));
        FLOE_TRY(ref_bound(out, &df->lower_bounds, f));
        FLOE_TRY(floe__buf_puts(out, ",\"upper_bound\":"));
        FLOE_TRY(ref_bound(out, &df->upper_bounds, f));
        FLOE_TRY(floe__buf_putc(out, '}'));
    }
    return floe__buf_putc(out, '}');
}

/* ---------------------------------------------------------------- comparison */

static int ncompared;

/* The reference text of files-table column `col` (DF_*) of an entry, or
 * NULL in *null for a SQL NULL cell; false when col is not nested. */
static bool ref_df_cell(const meta_info *info, const floe_manifest_entry *e,
                        const floe_manifest_info *mi, int col, floe_buf *b, bool *null)
{
    const floe_data_file *df = &e->data_file;
    *null = false;
    floe__buf_clear(b);
    int rc;
    switch (col) {
    case DF_PARTITION:
        rc = ref_partition(info, &df->partition, mi->partition_field_ids, mi->npartition_fields, b);
        break;
    case DF_COLUMN_SIZES:
        *null = !df->column_sizes.set;
        rc = ref_longs(&df->column_sizes, b);
        break;
    case DF_VALUE_COUNTS:
        *null = !df->value_counts.set;
        rc = ref_longs(&df->value_counts, b);
        break;
    case DF_NULL_VALUE_COUNTS:
        *null = !df->null_value_counts.set;
        rc = ref_longs(&df->null_value_counts, b);
        break;
    case DF_NAN_VALUE_COUNTS:
        *null = !df->nan_value_counts.set;
        rc = ref_longs(&df->nan_value_counts, b);
        break;
    case DF_LOWER_BOUNDS:
        *null = !df->lower_bounds.set;
        rc = ref_bytes_map(&df->lower_bounds, b);
        break;
    case DF_UPPER_BOUNDS:
        *null = !df->upper_bounds.set;
        rc = ref_bytes_map(&df->upper_bounds, b);
        break;
    case DF_SPLIT_OFFSETS:
        *null = !df->has_split_offsets;
        rc = ref_split_offsets(df, b);
        break;
    case DF_EQUALITY_IDS:
        *null = !df->has_equality_ids;
        rc = ref_equality_ids(df, b);
        break;
    case DF_READABLE_METRICS: rc = ref_readable_metrics(info, df, b); break;
    default: return false;
    }
    if (rc < 0)
        ft_fail(__FILE__, __LINE__, "reference: %s", ft_floe_err());
    return true;
}

static void same_cell(const char *what, const char *col, const floe_rs_cell *cell, bool null,
                      const floe_buf *want)
{
    ncompared++;
    if (null) {
        if (cell->json || !cell->value.is_null)
            ft_fail(__FILE__, __LINE__, "%s %s: want NULL, got %s", what, col,
                    cell->json ? cell->json : "a value");
        return;
    }
    if (!cell->json || cell->json_len != want->len || memcmp(cell->json, want->ptr, want->len) != 0)
        ft_fail(__FILE__, __LINE__, "%s %s:\n got  %s\n want %s", what, col,
                cell->json ? cell->json : "(null)", want->ptr ? want->ptr : "");
}

static void compare_arrow(floe_table_metadata *m, floe_fileio *io, const char *table,
                          const char *name);

/* Every entry of every reachable manifest of the table: all_entries and
 * all_files cells (read twice, the second read from the row's cache)
 * against the reference, and the encoders against it directly. */
static void compare_table(const char *name, const char *metadata_file, const char *location)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    char dir[1024], path[2048], map[2200];
    snprintf(dir, sizeof dir, "%s/fixtures/%s", sh, name);
    snprintf(path, sizeof path, "%s/metadata/%s", dir, metadata_file);
    floe_table_metadata *m;
    FT_OK(floe__metadata_read_file(&m, path));
    snprintf(map, sizeof map, "%s=%s", location, dir);
    floe_props conf = FLOE_PROPS_INIT;
    floe__props_set(&conf, "io.location-map", map);
    floe_fileio *io;
    int rc = floe_fileio_open(&io, "file", &conf);
    floe__props_free(&conf);
    FT_OK(rc);
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    o.io = io;
    meta_info *info;
    FT_OK(floe__meta_info_new(&info, m));
    meta_walker *w;
    FT_OK(floe__meta_walker_new(&w, &o, WALK_ALL, NULL, WALK_DATA | WALK_DELETES));
    floe_rowsource *ents, *files;
    FT_OK(floe__meta_open(&ents, "all_entries", &o));
    FT_OK(floe__meta_open(&files, "all_files", &o));
    floe_rowcursor *ce, *cf;
    FT_OK(floe__rs_open(ents, NULL, 0, &ce));
    FT_OK(floe__rs_open(files, NULL, 0, &cf));
    floe_buf want = FLOE_BUF_INIT, got = FLOE_BUF_INIT;
    const floe_manifest_entry *e;
    const floe_manifest_file *mf;
    const floe_manifest_info *mi;
    size_t nentries = 0;
    while ((rc = floe__meta_walker_next_entry(w, &e, &mf, &mi)) == 0) {
        nentries++;
        char what[1200];
        snprintf(what, sizeof what, "%s %s", name, e->data_file.file_path);
        int32_t spec_id =
            mf->partition_spec_id >= 0 ? mf->partition_spec_id : mi->partition_spec_id;
        /* all_entries: data_file and readable_metrics */
        FT_OK(floe__rs_next(ce));
        floe_rs_cell cell;
        floe__buf_clear(&want);
        FT_OK(ref_data_file(info, &e->data_file, spec_id, mi->partition_field_ids,
                            mi->npartition_fields, &want));
        FT_OK(floe__rs_column(ce, (size_t)floe__rs_column_index(ents, "data_file"), &cell));
        same_cell(what, "data_file", &cell, false, &want);
        floe__buf_clear(&got);
        FT_OK(floe__meta_json_data_file(info, &e->data_file, spec_id, mi->partition_field_ids,
                                        mi->npartition_fields, &got));
        FT_CHECK(got.len == want.len && memcmp(got.ptr, want.ptr, got.len) == 0);
        floe__buf_clear(&want);
        FT_OK(ref_readable_metrics(info, &e->data_file, &want));
        FT_OK(floe__rs_column(ce, (size_t)floe__rs_column_index(ents, "readable_metrics"), &cell));
        same_cell(what, "readable_metrics", &cell, false, &want);
        /* all_files: the live entries not shown by the snapshot that added them */
        if (e->status == FLOE_ENTRY_DELETED ||
            (e->status == FLOE_ENTRY_EXISTING && e->has_snapshot_id &&
             floe__metadata_snapshot(m, e->snapshot_id)))
            continue;
        FT_OK(floe__rs_next(cf));
        for (int pass = 0; pass < 2; pass++)
            for (int col = 0; col < DF_NCOLS; col++) {
                int idx = floe__rs_column_index(files, floe__meta_df_names[col]);
                bool null;
                if (idx < 0 || !ref_df_cell(info, e, mi, col, &want, &null))
                    continue;
                FT_OK(floe__rs_column(cf, (size_t)idx, &cell));
                same_cell(what, floe__meta_df_names[col], &cell, null, &want);
            }
    }
    FT_EQ_INT(rc, FLOE_ITEROVER);
    FT_CHECK(nentries > 0);
    FT_EQ_INT(floe__rs_next(ce), FLOE_ITEROVER);
    FT_EQ_INT(floe__rs_next(cf), FLOE_ITEROVER);
    floe__buf_free(&want);
    floe__buf_free(&got);
    static const char *const arrow_tables[] = {"files",     "data_files", "delete_files",
                                               "all_files", "entries",    "all_entries"};
    for (size_t i = 0; i < FT_N(arrow_tables); i++)
        compare_arrow(m, io, name, arrow_tables[i]);
    floe__rs_close(ce);
    floe__rs_close(cf);
    floe__rs_free(ents);
    floe__rs_free(files);
    floe__meta_walker_free(w);
    floe__meta_info_free(info);
    floe_fileio_free(io);
    floe__metadata_free(m);
}

static void test_fixture_tables(void)
{
    static const struct {
        const char *name, *file, *location;
    } tables[] = {
        {"spark_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/spark/bunnies"},
        {"java_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/java/bunnies"},
        {"spark_rename_column", "v3.metadata.json", "s3a://hyperparam-iceberg/spark/rename_column"},
        {"trino_deletion_vectors_v3", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json",
         "s3a://warehouse/deletion_vectors"},
        {"trino_partition_evolution", "00005-218c3743-5886-48b9-88d6-86c202862e0f.metadata.json",
         "s3a://warehouse/partition_evolution"},
        {"spark_all_types", "00000-4f9d7c78-62f9-48c6-b869-f25172b45b32.metadata.json",
         "s3://warehouse/types/all_spark_types"},
        {"spark_v1_legacy_fields", "v2.metadata.json",
         "data/persistent/iceberg_v1_deprecated/default/legacy_v1"},
    };
    for (size_t t = 0; t < FT_N(tables); t++)
        compare_table(tables[t].name, tables[t].file, tables[t].location);
    FT_CHECK(ncompared > 100);
}

/* ---------------------------------------------------------------- Arrow */

static bool same_bits(const void *a, const void *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (floe__arrow_bit_get(a, i) != floe__arrow_bit_get(b, i))
            return false;
    return true;
}

/* Two arrays of type t (offset 0, as floe builds them) hold the same
 * values: validity, values, offsets, bytes and children. */
static bool same_array(const floe_type *t, const struct ArrowArray *x, const struct ArrowArray *y,
                       const char *where)
{
    floe_arrow_kind k;
    int w;
    if (floe__arrow_kind_of(t, &k, &w) < 0)
        return ft_fail(__FILE__, __LINE__, "%s: no Arrow kind", where);
    int64_t n = x->length;
    if (n != y->length || x->null_count != y->null_count)
        return ft_fail(__FILE__, __LINE__, "%s: length %lld/%lld nulls %lld/%lld", where,
                       (long long)n, (long long)y->length, (long long)x->null_count,
                       (long long)y->null_count);
    if (x->null_count && !same_bits(x->buffers[0], y->buffers[0], n))
        return ft_fail(__FILE__, __LINE__, "%s: validity differs", where);
    switch (k) {
    case FLOE_AK_BOOL:
        if (!same_bits(x->buffers[1], y->buffers[1], n))
            return ft_fail(__FILE__, __LINE__, "%s: booleans differ", where);
        return true;
    case FLOE_AK_FIXED:
        if (n && memcmp(x->buffers[1], y->buffers[1], (size_t)(n * w)) != 0)
            return ft_fail(__FILE__, __LINE__, "%s: values differ", where);
        return true;
    case FLOE_AK_BINARY: {
        const int32_t *ox = x->buffers[1], *oy = y->buffers[1];
        if (memcmp(ox, oy, (size_t)(n + 1) * 4) != 0 ||
            (ox[n] && memcmp(x->buffers[2], y->buffers[2], (size_t)ox[n]) != 0))
            return ft_fail(__FILE__, __LINE__, "%s: bytes differ", where);
        return true;
    }
    case FLOE_AK_STRUCT:
        for (size_t i = 0; i < t->nfields; i++) {
            char sub[512];
            snprintf(sub, sizeof sub, "%s.%s", where, t->fields[i].name);
            if (!same_array(t->fields[i].type, x->children[i], y->children[i], sub))
                return false;
        }
        return true;
    case FLOE_AK_LIST:
    case FLOE_AK_MAP: {
        if (memcmp(x->buffers[1], y->buffers[1], (size_t)(n + 1) * 4) != 0)
            return ft_fail(__FILE__, __LINE__, "%s: offsets differ", where);
        if (k == FLOE_AK_LIST)
            return same_array(t->element->type, x->children[0], y->children[0], where);
        const struct ArrowArray *ex = x->children[0], *ey = y->children[0];
        return same_array(t->key->type, ex->children[0], ey->children[0], where) &&
               same_array(t->value->type, ex->children[1], ey->children[1], where);
    }
    default: return true;
    }
}

/* Table `name` as an Arrow stream twice: nested cells appended by the
 * source (column_arrow) and rebuilt from their JSON text; same batches. */
static void compare_arrow(floe_table_metadata *m, floe_fileio *io, const char *table,
                          const char *name)
{
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    o.io = io;
    floe_rowsource *direct, *text;
    FT_OK(floe__meta_open(&direct, name, &o));
    FT_OK(floe__meta_open(&text, name, &o));
    FT_CHECK(direct->column_arrow != NULL);
    text->column_arrow = NULL;
    struct ArrowArrayStream sd, st;
    FT_OK(floe__rs_arrow_stream(direct, NULL, 0, 3, &sd));
    FT_OK(floe__rs_arrow_stream(text, NULL, 0, 3, &st));
    floe_type root = {0};
    floe_field *fields = floe__calloc(direct->ncolumns + 1, sizeof *fields);
    FT_ASSERT(fields);
    for (size_t i = 0; i < direct->ncolumns; i++) {
        fields[i].name = direct->columns[i].name;
        fields[i].type = direct->columns[i].type;
    }
    root.id = FLOE_T_STRUCT;
    root.nfields = direct->ncolumns;
    root.fields = fields;
    char where[256];
    snprintf(where, sizeof where, "%s %s", table, name);
    for (;;) {
        struct ArrowArray ad, at;
        FT_EQ_INT(sd.get_next(&sd, &ad), 0);
        FT_EQ_INT(st.get_next(&st, &at), 0);
        bool ed = !ad.release, et = !at.release;
        if (ed || et) {
            FT_CHECK(ed && et);
            if (!ed)
                ad.release(&ad);
            if (!et)
                at.release(&at);
            break;
        }
        ncompared++;
        same_array(&root, &ad, &at, where);
        ad.release(&ad);
        at.release(&at);
    }
    floe__free(fields);
    sd.release(&sd);
    st.release(&st);
    floe__rs_free(direct);
    floe__rs_free(text);
}

/* Names and bounds that need escaping, binary and fixed bounds, NaN
 * counts, negative and extreme numbers, every optional field set. */
static const char odd_json[] =
    "{\"format-version\":3,\"table-uuid\":\"5b4b5b1c-3a4b-4e55-9d0a-6b7d1f2e3a4b\","
    "\"location\":\"/t\",\"last-sequence-number\":0,\"last-updated-ms\":1,\"next-row-id\":0,"
    "\"last-column-id\":6,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
    "\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"s\\\"q\\\\b\\tx\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":2,\"name\":\"bin\",\"required\":false,\"type\":\"binary\"},"
    "{\"id\":3,\"name\":\"d\",\"required\":false,\"type\":\"double\"},"
    "{\"id\":4,\"name\":\"n\",\"required\":false,\"type\":\"long\"},"
    "{\"id\":5,\"name\":\"i\",\"required\":false,\"type\":\"int\"},"
    "{\"id\":6,\"name\":\"fx\",\"required\":false,\"type\":\"fixed[3]\"}]}],"
    "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[{\"name\":"
    "\"p\\\"art\\u0001\",\"transform\":\"identity\",\"source-id\":1,\"field-id\":1000},"
    "{\"name\":\"nb\",\"transform\":\"bucket[4]\",\"source-id\":4,\"field-id\":1001}]}],"
    "\"last-partition-id\":1001,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,"
    "\"fields\":[]}],\"properties\":{},\"snapshots\":[],\"snapshot-log\":[],\"metadata-log\":[]}";

static void test_escapes_and_extremes(void)
{
    floe_table_metadata *m;
    FT_OK(floe__metadata_parse(&m, odd_json, sizeof odd_json - 1, "odd"));
    meta_info *info;
    FT_OK(floe__meta_info_new(&info, m));
    static const uint8_t str_lo[] = "a\"b\\c\n\x01\x1f\xc3\xa9", str_hi[] = "zz\t";
    static const uint8_t bin[] = {0x00, 0xff, 0x10, 0xab}, fx[] = {1, 2, 3};
    uint8_t dlo[8], nlo[8], nhi[8], ilo[4];
    double dv = -1.5e-300;
    memcpy(dlo, &dv, 8);
    int64_t nmin = INT64_MIN, nmax = INT64_MAX;
    memcpy(nlo, &nmin, 8);
    memcpy(nhi, &nmax, 8);
    int32_t imin = INT32_MIN;
    memcpy(ilo, &imin, 4);
    floe_col_long sizes[] = {{1, 0}, {2, INT64_MAX}, {3, -1}, {99, 7}}, nans[] = {{3, 2}};
    floe_col_bytes lows[] = {{1, str_lo, sizeof str_lo - 1},
                             {2, bin, 4},
                             {3, dlo, 8},
                             {4, nlo, 8},
                             {5, ilo, 4},
                             {6, fx, 3},
                             {7, bin, 0}},
                   highs[] = {{4, nhi, 8}, {1, str_hi, 3}, {5, bin, 1} /* bad int: null */};
    int64_t splits[] = {4, 0, -9, INT64_MIN};
    int32_t eq[] = {1, INT32_MAX, -3};
    floe_value pvals[] = {floe_value_bytes(FLOE_T_STRING, "x\"\\y", 4), floe_value_int(-2)};
    int32_t pids[] = {1001, 1000};
    floe_data_file df;
    memset(&df, 0, sizeof df);
    df.content = FLOE_FILE_POSITION_DELETES;
    df.file_path = "/t/data/a\"b\\c.puffin";
    df.file_format = "PUFFIN";
    df.partition.n = 2;
    df.partition.values = pvals;
    df.record_count = INT64_MIN;
    df.file_size_in_bytes = 0;
    df.column_sizes = (floe_col_longs){4, sizes, true};
    df.value_counts = (floe_col_longs){0, NULL, true};
    df.nan_value_counts = (floe_col_longs){1, nans, true};
    df.lower_bounds = (floe_col_bytes_map){FT_N(lows), lows, true};
    df.upper_bounds = (floe_col_bytes_map){FT_N(highs), highs, true};
    df.key_metadata.set = true;
    df.key_metadata.ptr = bin;
    df.key_metadata.len = 4;
    df.has_split_offsets = true;
    df.nsplit_offsets = FT_N(splits);
    df.split_offsets = splits;
    df.has_equality_ids = true;
    df.nequality_ids = FT_N(eq);
    df.equality_ids = eq;
    df.has_sort_order_id = true;
    df.sort_order_id = -1;
    df.has_first_row_id = true;
    df.first_row_id = INT64_MAX;
    df.referenced_data_file = "/t/data/\"ref\"\x02.parquet";
    df.has_content_offset = true;
    df.content_offset = 4;
    df.has_content_size_in_bytes = true;
    df.content_size_in_bytes = 40;
    floe_buf want = FLOE_BUF_INIT, got = FLOE_BUF_INIT;
    for (int variant = 0; variant < 3; variant++) {
        if (variant == 1) { /* nothing optional, empty maps and lists */
            df.column_sizes.n = 0;
            df.lower_bounds.n = 0;
            df.nsplit_offsets = 0;
            df.nequality_ids = 0;
            df.key_metadata.len = 0;
            df.partition.n = 1;
        } else if (variant == 2) {
            memset(&df.column_sizes, 0, 6 * sizeof df.column_sizes);
            df.lower_bounds.set = df.upper_bounds.set = false;
            df.key_metadata.set = df.has_split_offsets = df.has_equality_ids = false;
            df.has_sort_order_id = df.has_first_row_id = df.has_content_offset = false;
            df.has_content_size_in_bytes = false;
            df.referenced_data_file = NULL;
            df.partition.n = 0;
        }
        floe__buf_clear(&want);
        floe__buf_clear(&got);
        FT_OK(ref_data_file(info, &df, 7, pids, 2, &want));
        FT_OK(floe__meta_json_data_file(info, &df, 7, pids, 2, &got));
        FT_EQ_STR(got.ptr, want.ptr);
        floe__buf_clear(&want);
        floe__buf_clear(&got);
        FT_OK(ref_readable_metrics(info, &df, &want));
        FT_OK(floe__meta_json_readable_metrics(info, &df, &got));
        FT_EQ_STR(got.ptr, want.ptr);
        if (variant == 0) /* the text really went through the escapes */
            FT_CHECK(strstr(got.ptr, "\"s\\\"q\\\\b\\tx\":{\"column_size\":0,") != NULL &&
                     strstr(got.ptr, "\"lower_bound\":\"a\\\"b\\\\c\\n\\u0001\\u001f\xc3\xa9\"") !=
                         NULL);
    }
    floe__buf_free(&want);
    floe__buf_free(&got);
    floe__meta_info_free(info);
    floe__metadata_free(m);
}

/* Every digit count and sign, the edges of each. */
static void test_numbers(void)
{
    floe_col_long items[80];
    size_t n = 0;
    int64_t p = 1;
    for (int d = 0; d < 19; d++) {
        items[n++] = (floe_col_long){(int32_t)p, p};
        items[n++] = (floe_col_long){-(int32_t)d, p - 1};
        items[n++] = (floe_col_long){(int32_t)(p + 1), -p};
        items[n++] = (floe_col_long){INT32_MIN + d, 1 - p};
        if (d < 18) /* 10^18 is the last power of ten in an int64_t */
            p *= 10;
    }
    items[n++] = (floe_col_long){INT32_MAX, INT64_MAX};
    items[n++] = (floe_col_long){INT32_MIN, INT64_MIN};
    floe_col_longs m = {n, items, true};
    floe_buf want = FLOE_BUF_INIT, got = FLOE_BUF_INIT;
    FT_OK(ref_longs(&m, &want));
    FT_OK(floe__meta_json_longs(&m, &got));
    FT_EQ_STR(got.ptr, want.ptr);
    FT_CHECK(strstr(got.ptr, "\"1000\":1000,\"-3\":999,") != NULL);
    floe__buf_free(&want);
    floe__buf_free(&got);
}

static const ft_case cases[] = {
    {"numbers", test_numbers},
    {"fixture_tables", test_fixture_tables},
    {"escapes_and_extremes", test_escapes_and_extremes},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
