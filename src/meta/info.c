/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/info: per-table facts the manifest-reading metadata tables need —
 * the unified partition type (Java's Partitioning.partitionType: every
 * spec's fields by field id, sorted by id, names from the newest spec), the
 * readable_metrics columns (every primitive column of the current schema by
 * dotted name, sorted, as Java's MetricsUtil.readableMetricsSchema) — and
 * the JSON text of the nested cells built from a manifest entry: partition,
 * data_file, metric maps and readable_metrics (spec "Manifests", "Appendix
 * D" for decoding bounds).
 */
#include "meta/scan.h"

#include "spec/spec.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <stdlib.h>
#include <string.h>

const char *const floe__meta_df_names[DF_NCOLS] = {
    "content",
    "file_path",
    "file_format",
    "spec_id",
    "partition",
    "record_count",
    "file_size_in_bytes",
    "column_sizes",
    "value_counts",
    "null_value_counts",
    "nan_value_counts",
    "lower_bounds",
    "upper_bounds",
    "key_metadata",
    "split_offsets",
    "equality_ids",
    "sort_order_id",
    "first_row_id",
    "referenced_data_file",
    "content_offset",
    "content_size_in_bytes",
    "readable_metrics",
};

/* ---------------------------------------------------------------- partition type */

static const floe_field *source_field(const floe_table_metadata *m, int32_t id)
{
    const floe_schema *cur = floe__metadata_current_schema(m);
    const floe_field *f = cur ? floe__schema_field_by_id(cur, id) : NULL;
    for (size_t i = 0; !f && i < m->nschemas; i++)
        f = floe__schema_field_by_id(m->schemas[i], id);
    return f;
}

static int cmp_part(const void *a, const void *b)
{
    int32_t x = ((const meta_part_field *)a)->field_id, y = ((const meta_part_field *)b)->field_id;
    return x < y ? -1 : x > y;
}

static int build_partition(meta_info *info)
{
    const floe_table_metadata *m = info->m;
    size_t total = 0;
    for (size_t i = 0; i < m->nspecs; i++)
        total += m->specs[i]->nfields;
    info->part = floe__arena_calloc(info->arena, total + 1, sizeof *info->part);
    if (!info->part)
        return floe__error_nomem();
    /* newest spec first: its names win */
    const floe_partition_spec **specs =
        floe__arena_calloc(info->arena, m->nspecs + 1, sizeof(floe_partition_spec *));
    if (!specs)
        return floe__error_nomem();
    for (size_t i = 0; i < m->nspecs; i++)
        specs[i] = m->specs[i];
    for (size_t i = 1; i < m->nspecs; i++)
        for (size_t j = i; j > 0 && specs[j - 1]->spec_id < specs[j]->spec_id; j--) {
            const floe_partition_spec *t = specs[j];
            specs[j] = specs[j - 1];
            specs[j - 1] = t;
        }
    for (size_t s = 0; s < m->nspecs; s++) {
        for (size_t k = 0; k < specs[s]->nfields; k++) {
            const floe_partition_field *pf = &specs[s]->fields[k];
            bool seen = false;
            for (size_t j = 0; j < info->npart && !seen; j++)
                seen = info->part[j].field_id == pf->field_id;
            if (seen)
                continue;
            const floe_field *src = source_field(m, pf->source_id);
            const floe_type *t = src ? floe_transform_result_type(&pf->transform, src->type) : NULL;
            meta_part_field *out = &info->part[info->npart++];
            out->field_id = pf->field_id;
            out->name = pf->name;
            out->type = t ? t : &floe__rs_t_string;
        }
    }
    qsort(info->part, info->npart, sizeof *info->part, cmp_part);
    floe_field *fields = floe__arena_calloc(info->arena, info->npart + 1, sizeof *fields);
    floe_type *st = floe__arena_calloc(info->arena, 1, sizeof *st);
    if (!fields || !st)
        return floe__error_nomem();
    for (size_t i = 0; i < info->npart; i++) {
        fields[i].id = info->part[i].field_id;
        fields[i].name = info->part[i].name;
        fields[i].type = info->part[i].type;
    }
    st->id = FLOE_T_STRUCT;
    st->nfields = info->npart;
    st->fields = fields;
    info->part_type = st;
    return 0;
}

/* ---------------------------------------------------------------- readable metrics */

typedef struct metric_walk {
    meta_info *info;
    floe_vec cols; /* meta_metric_col */
} metric_walk;

static int walk_type(metric_walk *w, const floe_field *f, const char *prefix, int depth)
{
    if (depth > FLOE_MAX_TYPE_DEPTH)
        return 0;
    char *name = prefix ? floe__arena_sprintf(w->info->arena, "%s.%s", prefix, f->name)
                        : floe__arena_strdup(w->info->arena, f->name);
    if (!name)
        return floe__error_nomem();
    const floe_type *t = f->type;
    switch (t->id) {
    case FLOE_T_STRUCT:
        for (size_t i = 0; i < t->nfields; i++)
            FLOE_TRY(walk_type(w, &t->fields[i], name, depth + 1));
        return 0;
    case FLOE_T_LIST: return walk_type(w, t->element, name, depth + 1);
    case FLOE_T_MAP:
        FLOE_TRY(walk_type(w, t->key, name, depth + 1));
        return walk_type(w, t->value, name, depth + 1);
    default: {
        meta_metric_col *c = floe__vec_push(&w->cols);
        if (!c)
            return floe__error_nomem();
        c->name = name;
        c->field = f;
        return 0;
    }
    }
}

static int cmp_metric(const void *a, const void *b)
{
    return strcmp(((const meta_metric_col *)a)->name, ((const meta_metric_col *)b)->name);
}

static const char *const metric_names[] = {"column_size",     "value_count", "null_value_count",
                                           "nan_value_count", "lower_bound", "upper_bound"};

static int build_metrics(meta_info *info)
{
    metric_walk w = {info, FLOE_VEC_INIT(meta_metric_col)};
    const floe_schema *s = floe__metadata_current_schema(info->m);
    int rc = 0;
    for (size_t i = 0; s && rc == 0 && i < s->root->nfields; i++)
        rc = walk_type(&w, &s->root->fields[i], NULL, 0);
    if (rc == 0) {
        info->nmetric = w.cols.len;
        /* one spare slot: never a zero-size allocation (no overread of the vector) */
        info->metric = floe__arena_calloc(info->arena, w.cols.len + 1, sizeof(meta_metric_col));
        if (!info->metric)
            rc = floe__error_nomem();
        else if (w.cols.len)
            memcpy(info->metric, w.cols.items, w.cols.len * sizeof(meta_metric_col));
    }
    floe__vec_free(&w.cols);
    FLOE_TRY(rc);
    qsort(info->metric, info->nmetric, sizeof *info->metric, cmp_metric);
    /* struct<name: struct<column_size long, ..., lower_bound T, upper_bound T>> */
    floe_field *cols = floe__arena_calloc(info->arena, info->nmetric + 1, sizeof *cols);
    floe_type *st = floe__arena_calloc(info->arena, 1, sizeof *st);
    if (!cols || !st)
        return floe__error_nomem();
    int32_t next_id = 1;
    for (size_t i = 0; i < info->nmetric; i++) {
        floe_field *mf = floe__arena_calloc(info->arena, 6, sizeof *mf);
        floe_type *mt = floe__arena_calloc(info->arena, 1, sizeof *mt);
        if (!mf || !mt)
            return floe__error_nomem();
        for (int k = 0; k < 6; k++) {
            mf[k].id = next_id++;
            mf[k].name = metric_names[k];
            mf[k].type = k < 4 ? &floe__rs_t_long : info->metric[i].field->type;
        }
        mt->id = FLOE_T_STRUCT;
        mt->nfields = 6;
        mt->fields = mf;
        cols[i].id = next_id++;
        cols[i].name = info->metric[i].name;
        cols[i].type = mt;
    }
    st->id = FLOE_T_STRUCT;
    st->nfields = info->nmetric;
    st->fields = cols;
    info->metrics_type = st;
    return 0;
}

/* ---------------------------------------------------------------- data_file type */

static const floe_type *df_col_type(const meta_info *info, int col)
{
    switch (col) {
    case DF_CONTENT:
    case DF_SPEC_ID:
    case DF_SORT_ORDER_ID: return &floe__rs_t_int;
    case DF_FILE_PATH:
    case DF_FILE_FORMAT:
    case DF_REFERENCED_DATA_FILE: return &floe__rs_t_string;
    case DF_PARTITION: return info->part_type;
    case DF_COLUMN_SIZES:
    case DF_VALUE_COUNTS:
    case DF_NULL_VALUE_COUNTS:
    case DF_NAN_VALUE_COUNTS: return &floe__rs_t_map_int_long;
    case DF_LOWER_BOUNDS:
    case DF_UPPER_BOUNDS: return &floe__rs_t_map_int_bin;
    case DF_KEY_METADATA: return &floe__rs_t_binary;
    case DF_SPLIT_OFFSETS: return &floe__rs_t_list_long;
    case DF_EQUALITY_IDS: return &floe__rs_t_list_int;
    case DF_READABLE_METRICS: return info->metrics_type;
    default: return &floe__rs_t_long;
    }
}

static int build_data_file_type(meta_info *info)
{
    floe_field *f = floe__arena_calloc(info->arena, DF_NCOLS, sizeof *f);
    floe_type *t = floe__arena_calloc(info->arena, 1, sizeof *t);
    if (!f || !t)
        return floe__error_nomem();
    static const int32_t ids[DF_NCOLS] = {134, 100, 101, 141, 102, 103, 104, 108, 109, 110, 137,
                                          125, 128, 131, 132, 135, 140, 142, 143, 144, 145, 0};
    size_t n = 0;
    for (int c = 0; c < DF_READABLE_METRICS; c++) {
        if (c == DF_PARTITION && info->npart == 0)
            continue;
        f[n].id = ids[c];
        f[n].name = floe__meta_df_names[c];
        f[n].required = c == DF_FILE_PATH || c == DF_FILE_FORMAT || c == DF_RECORD_COUNT ||
                        c == DF_FILE_SIZE || c == DF_PARTITION;
        f[n].type = df_col_type(info, c);
        n++;
    }
    t->id = FLOE_T_STRUCT;
    t->nfields = n;
    t->fields = f;
    info->data_file_type = t;
    return 0;
}

const floe_type *floe__meta_df_type(const meta_info *info, int col)
{
    return df_col_type(info, col);
}

static int precompute_keys(meta_info *info);

int floe__meta_info_new(meta_info **out, const floe_table_metadata *m)
{
    *out = NULL;
    meta_info *info = floe__calloc(1, sizeof *info);
    if (!info)
        return floe__error_nomem();
    info->arena = floe__arena_new(0);
    info->m = m;
    int rc = info->arena ? 0 : floe__error_nomem();
    if (rc == 0)
        rc = build_partition(info);
    if (rc == 0)
        rc = build_metrics(info);
    if (rc == 0)
        rc = build_data_file_type(info);
    if (rc == 0)
        rc = precompute_keys(info);
    if (rc < 0) {
        floe__meta_info_free(info);
        return rc;
    }
    *out = info;
    return 0;
}

void floe__meta_info_free(meta_info *info)
{
    if (info) {
        floe__arena_free(info->arena);
        floe__free(info);
    }
}

/* ---------------------------------------------------------------- JSON */

/* One pass into the cell's buffer: room for each piece is reserved once
 * and filled with plain stores. Only text from outside the library is
 * escaped (partition and column names once, in precompute_keys; paths and
 * string bounds per row); numbers, field ids and hex are written as is. */

/* Room for n more bytes at the end of b in *p. */
static int room(floe_buf *b, size_t n, char **p)
{
    if (b->cap < b->len + n + 1)
        FLOE_TRY(floe__buf_reserve(b, n));
    *p = b->ptr + b->len;
    return 0;
}

/* The bytes up to `end` are written: count them and terminate. */
static int commit(floe_buf *b, char *end)
{
    b->len = (size_t)(end - b->ptr);
    b->ptr[b->len] = 0;
    return 0;
}

enum { I64_CHARS = 20 }; /* "-9223372036854775808" */

/* Decimal text of v at p; returns the end. Two digits a step from a
 * table: a files row holds ~40 numbers. */
static char *put_i64(char *p, int64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0)
        *p++ = '-';
    if (u < 10) {
        *p = (char)('0' + u);
        return p + 1;
    }
    size_t n = 2;
    for (uint64_t t = u / 100; t; t /= 10)
        n++;
    char *end = p + n, *q = end;
    while (u >= 100) {
        unsigned d = (unsigned)(u % 100) * 2;
        u /= 100;
        *--q = pairs[d + 1];
        *--q = pairs[d];
    }
    if (u >= 10) {
        *--q = pairs[u * 2 + 1];
        *--q = pairs[u * 2];
    } else {
        *--q = (char)('0' + u);
    }
    return end;
}

static char *put_lit(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}
#define PUT_LIT(p, s) put_lit((p), (s), sizeof(s) - 1)

static int buf_i64(floe_buf *b, int64_t v)
{
    char *p;
    FLOE_TRY(room(b, I64_CHARS, &p));
    return commit(b, put_i64(p, v));
}

static int buf_opt_i64(floe_buf *b, bool has, int64_t v)
{
    return has ? buf_i64(b, v) : floe__buf_put(b, "null", 4);
}

/* `,"<escaped s>":` into the info arena (the leading comma is skipped for
 * a first member). */
static int precompute_key(meta_info *info, const char *s, const char *tail, meta_key *out)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_put(&b, ",\"", 2);
    if (rc == 0)
        rc = floe__buf_put_json_escaped(&b, s, strlen(s));
    if (rc == 0)
        rc = floe__buf_puts(&b, tail);
    if (rc == 0 && !(out->text = floe__arena_strndup(info->arena, b.ptr, b.len)))
        rc = floe__error_nomem();
    out->len = b.len;
    floe__buf_free(&b);
    return rc;
}

static int precompute_keys(meta_info *info)
{
    info->part_key = floe__arena_calloc(info->arena, info->npart + 1, sizeof *info->part_key);
    info->metric_key = floe__arena_calloc(info->arena, info->nmetric + 1, sizeof *info->metric_key);
    if (!info->part_key || !info->metric_key)
        return floe__error_nomem();
    for (size_t i = 0; i < info->npart; i++)
        FLOE_TRY(precompute_key(info, info->part[i].name, "\":", &info->part_key[i]));
    for (size_t i = 0; i < info->nmetric; i++)
        FLOE_TRY(precompute_key(info, info->metric[i].name,
                                "\":{\"column_size\":", &info->metric_key[i]));
    return 0;
}

/* A key precomputed with its comma, without it for the first member. */
static int put_key(floe_buf *b, const meta_key *k, bool first)
{
    return first ? floe__buf_put(b, k->text + 1, k->len - 1) : floe__buf_put(b, k->text, k->len);
}

int floe__meta_json_partition(const meta_info *info, const floe_partition_value *pv,
                              const int32_t *ids, size_t nids, floe_buf *out)
{
    FLOE_TRY(floe__buf_putc(out, '{'));
    for (size_t i = 0; i < info->npart; i++) {
        FLOE_TRY(put_key(out, &info->part_key[i], i == 0));
        const floe_value *v = NULL;
        for (size_t j = 0; j < nids && j < pv->n && !v; j++)
            if (ids[j] == info->part[i].field_id)
                v = &pv->values[j];
        FLOE_TRY(v ? floe__rs_json_value(v, out) : floe__buf_put(out, "null", 4));
    }
    return floe__buf_putc(out, '}');
}

/* `"<field id>":`, after a ',' unless it is the first. */
static char *put_id_key(char *p, bool first, int32_t id)
{
    if (!first)
        *p++ = ',';
    *p++ = '"';
    p = put_i64(p, id);
    *p++ = '"';
    *p++ = ':';
    return p;
}

enum { ID_KEY_CHARS = 15 }; /* ,"-2147483648": */

int floe__meta_json_longs(const floe_col_longs *m, floe_buf *out)
{
    if (!m->set)
        return floe__buf_put(out, "null", 4);
    char *p;
    FLOE_TRY(room(out, m->n * (ID_KEY_CHARS + I64_CHARS) + 2, &p));
    *p++ = '{';
    for (size_t i = 0; i < m->n; i++)
        p = put_i64(put_id_key(p, i == 0, m->items[i].field_id), m->items[i].value);
    *p++ = '}';
    return commit(out, p);
}

static char *put_hex(char *p, const uint8_t *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        *p++ = hex[s[i] >> 4];
        *p++ = hex[s[i] & 15];
    }
    *p++ = '"';
    return p;
}

int floe__meta_json_bytes_map(const floe_col_bytes_map *m, floe_buf *out)
{
    if (!m->set)
        return floe__buf_put(out, "null", 4);
    size_t need = 2;
    for (size_t i = 0; i < m->n; i++) {
        if (m->items[i].len > (SIZE_MAX - need) / 2 - ID_KEY_CHARS - 2)
            return floe__error_nomem();
        need += ID_KEY_CHARS + 2 * m->items[i].len + 2;
    }
    char *p;
    FLOE_TRY(room(out, need, &p));
    *p++ = '{';
    for (size_t i = 0; i < m->n; i++)
        p = put_hex(put_id_key(p, i == 0, m->items[i].field_id), m->items[i].ptr, m->items[i].len);
    *p++ = '}';
    return commit(out, p);
}

/* A JSON array of n integers (int64_t when wide, else int32_t), or null. */
static int json_ints(floe_buf *out, bool has, size_t n, const void *vals, bool wide)
{
    if (!has)
        return floe__buf_put(out, "null", 4);
    if (n > (SIZE_MAX - 2) / (I64_CHARS + 1))
        return floe__error_nomem();
    char *p;
    FLOE_TRY(room(out, n * (I64_CHARS + 1) + 2, &p));
    *p++ = '[';
    for (size_t k = 0; k < n; k++) {
        if (k)
            *p++ = ',';
        p = put_i64(p, wide ? ((const int64_t *)vals)[k] : ((const int32_t *)vals)[k]);
    }
    *p++ = ']';
    return commit(out, p);
}

int floe__meta_json_split_offsets(const floe_data_file *df, floe_buf *out)
{
    return json_ints(out, df->has_split_offsets, df->nsplit_offsets, df->split_offsets, true);
}

int floe__meta_json_equality_ids(const floe_data_file *df, floe_buf *out)
{
    return json_ints(out, df->has_equality_ids, df->nequality_ids, df->equality_ids, false);
}

static int json_str_or_null(floe_buf *out, const char *s)
{
    return s ? floe__json_put_str(out, s) : floe__buf_put(out, "null", 4);
}

int floe__meta_json_data_file(const meta_info *info, const floe_data_file *df, int32_t spec_id,
                              const int32_t *ids, size_t nids, floe_buf *out)
{
    FLOE_TRY(floe__buf_puts(out, "{\"content\":"));
    FLOE_TRY(buf_i64(out, df->content));
    FLOE_TRY(floe__buf_puts(out, ",\"file_path\":"));
    FLOE_TRY(floe__json_put_str(out, df->file_path));
    FLOE_TRY(floe__buf_puts(out, ",\"file_format\":"));
    FLOE_TRY(floe__json_put_str(out, df->file_format));
    FLOE_TRY(floe__buf_puts(out, ",\"spec_id\":"));
    FLOE_TRY(buf_i64(out, spec_id));
    if (info->npart) {
        FLOE_TRY(floe__buf_puts(out, ",\"partition\":"));
        FLOE_TRY(floe__meta_json_partition(info, &df->partition, ids, nids, out));
    }
    FLOE_TRY(floe__buf_puts(out, ",\"record_count\":"));
    FLOE_TRY(buf_i64(out, df->record_count));
    FLOE_TRY(floe__buf_puts(out, ",\"file_size_in_bytes\":"));
    FLOE_TRY(buf_i64(out, df->file_size_in_bytes));
    FLOE_TRY(floe__buf_puts(out, ",\"column_sizes\":"));
    FLOE_TRY(floe__meta_json_longs(&df->column_sizes, out));
    FLOE_TRY(floe__buf_puts(out, ",\"value_counts\":"));
    FLOE_TRY(floe__meta_json_longs(&df->value_counts, out));
    FLOE_TRY(floe__buf_puts(out, ",\"null_value_counts\":"));
    FLOE_TRY(floe__meta_json_longs(&df->null_value_counts, out));
    FLOE_TRY(floe__buf_puts(out, ",\"nan_value_counts\":"));
    FLOE_TRY(floe__meta_json_longs(&df->nan_value_counts, out));
    FLOE_TRY(floe__buf_puts(out, ",\"lower_bounds\":"));
    FLOE_TRY(floe__meta_json_bytes_map(&df->lower_bounds, out));
    FLOE_TRY(floe__buf_puts(out, ",\"upper_bounds\":"));
    FLOE_TRY(floe__meta_json_bytes_map(&df->upper_bounds, out));
    FLOE_TRY(floe__buf_puts(out, ",\"key_metadata\":"));
    if (df->key_metadata.set) {
        char *p;
        FLOE_TRY(room(out, 2 * df->key_metadata.len + 2, &p));
        FLOE_TRY(commit(out, put_hex(p, df->key_metadata.ptr, df->key_metadata.len)));
    } else {
        FLOE_TRY(floe__buf_put(out, "null", 4));
    }
    FLOE_TRY(floe__buf_puts(out, ",\"split_offsets\":"));
    FLOE_TRY(floe__meta_json_split_offsets(df, out));
    FLOE_TRY(floe__buf_puts(out, ",\"equality_ids\":"));
    FLOE_TRY(floe__meta_json_equality_ids(df, out));
    FLOE_TRY(floe__buf_puts(out, ",\"sort_order_id\":"));
    FLOE_TRY(buf_opt_i64(out, df->has_sort_order_id, df->sort_order_id));
    FLOE_TRY(floe__buf_puts(out, ",\"first_row_id\":"));
    FLOE_TRY(buf_opt_i64(out, df->has_first_row_id, df->first_row_id));
    FLOE_TRY(floe__buf_puts(out, ",\"referenced_data_file\":"));
    FLOE_TRY(json_str_or_null(out, df->referenced_data_file));
    FLOE_TRY(floe__buf_puts(out, ",\"content_offset\":"));
    FLOE_TRY(buf_opt_i64(out, df->has_content_offset, df->content_offset));
    FLOE_TRY(floe__buf_puts(out, ",\"content_size_in_bytes\":"));
    FLOE_TRY(buf_opt_i64(out, df->has_content_size_in_bytes, df->content_size_in_bytes));
    return floe__buf_putc(out, '}');
}

static bool find_long(const floe_col_longs *m, int32_t id, int64_t *v)
{
    for (size_t i = 0; m->set && i < m->n; i++)
        if (m->items[i].field_id == id) {
            *v = m->items[i].value;
            return true;
        }
    return false;
}

static int put_bound(floe_buf *out, const floe_col_bytes_map *m, const floe_field *f)
{
    for (size_t i = 0; m->set && i < m->n; i++) {
        if (m->items[i].field_id != f->id)
            continue;
        floe_value v;
        if (floe_value_from_single(f->type, m->items[i].ptr, m->items[i].len, &v) < 0) {
            /* a bound that does not decode as the column's type: shown as null */
            floe_error_clear();
            return floe__buf_put(out, "null", 4);
        }
        if (v.type == FLOE_T_LONG || v.type == FLOE_T_INT)
            return buf_i64(out, v.type == FLOE_T_LONG ? v.v.i64 : v.v.i32);
        return floe__rs_json_value(&v, out);
    }
    return floe__buf_put(out, "null", 4);
}

static char *put_opt_i64(char *p, bool has, int64_t v)
{
    return has ? put_i64(p, v) : PUT_LIT(p, "null");
}

int floe__meta_json_readable_metrics(const meta_info *info, const floe_data_file *df, floe_buf *out)
{
    FLOE_TRY(floe__buf_putc(out, '{'));
    const floe_col_longs *maps[4] = {&df->column_sizes, &df->value_counts, &df->null_value_counts,
                                     &df->nan_value_counts};
    for (size_t i = 0; i < info->nmetric; i++) {
        const floe_field *f = info->metric[i].field;
        const meta_key *k = &info->metric_key[i];
        int64_t v[4] = {0, 0, 0, 0};
        bool has[4];
        for (int j = 0; j < 4; j++)
            has[j] = find_long(maps[j], f->id, &v[j]);
        char *p;
        FLOE_TRY(room(out, k->len + (size_t)4 * I64_CHARS + 64, &p));
        p = i == 0 ? put_lit(p, k->text + 1, k->len - 1) : put_lit(p, k->text, k->len);
        p = put_opt_i64(p, has[0], v[0]);
        p = put_opt_i64(PUT_LIT(p, ",\"value_count\":"), has[1], v[1]);
        p = put_opt_i64(PUT_LIT(p, ",\"null_value_count\":"), has[2], v[2]);
        p = put_opt_i64(PUT_LIT(p, ",\"nan_value_count\":"), has[3], v[3]);
        FLOE_TRY(commit(out, PUT_LIT(p, ",\"lower_bound\":")));
        FLOE_TRY(put_bound(out, &df->lower_bounds, f));
        FLOE_TRY(floe__buf_put(out, ",\"upper_bound\":", 15));
        FLOE_TRY(put_bound(out, &df->upper_bounds, f));
        FLOE_TRY(floe__buf_putc(out, '}'));
    }
    return floe__buf_putc(out, '}');
}
