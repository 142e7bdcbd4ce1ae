/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Manifest writer (spec "Manifests", Appendix C): `manifest_entry` records
 * with the v1 or v2 field set Iceberg Java writes, and the header keys
 * `schema`, `partition-spec`, `partition-spec-id`, `format-version`,
 * `content` (v2) and `iceberg.schema`. While writing it keeps the counts and
 * the partition field summaries (contains_null, contains_nan, lower and upper
 * bound as Appendix D bytes) that the manifest-list entry needs.
 */
#include "gen.h"

#include "spec/value.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DF_COMMON_METRICS                                                                          \
    {108,  "column_sizes", "Map of column id to total size on disk",                               \
     true, G_LONGMAP,      117,                                                                    \
     118,  NULL,           NULL,                                                                   \
     0},                                                                                           \
        {109,  "value_counts", "Map of column id to total count, including null and NaN",          \
         true, G_LONGMAP,      119,                                                                \
         120,  NULL,           NULL,                                                               \
         0},                                                                                       \
        {110,                                                                                      \
         "null_value_counts",                                                                      \
         "Map of column id to null value count",                                                   \
         true,                                                                                     \
         G_LONGMAP,                                                                                \
         121,                                                                                      \
         122,                                                                                      \
         NULL,                                                                                     \
         NULL,                                                                                     \
         0},                                                                                       \
        {137,                                                                                      \
         "nan_value_counts",                                                                       \
         "Map of column id to number of NaN values in the column",                                 \
         true,                                                                                     \
         G_LONGMAP,                                                                                \
         138,                                                                                      \
         139,                                                                                      \
         NULL,                                                                                     \
         NULL,                                                                                     \
         0},                                                                                       \
        {125,  "lower_bounds", "Map of column id to lower bound",                                  \
         true, G_BYTESMAP,     126,                                                                \
         127,  NULL,           NULL,                                                               \
         0},                                                                                       \
        {128,  "upper_bounds", "Map of column id to upper bound",                                  \
         true, G_BYTESMAP,     129,                                                                \
         130,  NULL,           NULL,                                                               \
         0},                                                                                       \
        {131, "key_metadata", "Encryption key metadata blob", true, G_BYTES, 0, 0, NULL, NULL, 0}, \
    {                                                                                              \
        132, "split_offsets", "Splittable offsets", true, G_LONGLIST, 133, 0, NULL, NULL, 0        \
    }

#define F(id, name, doc, opt, kind)                                                                \
    {                                                                                              \
        id, name, doc, opt, kind, 0, 0, NULL, NULL, 0                                              \
    }

/* The fields v2 and v3 share up to sort_order_id. */
#define DF_V2_HEAD                                                                                 \
    F(134, "content", "Contents of the file: 0=data, 1=position deletes, 2=equality deletes",      \
      false, G_INT),                                                                               \
        F(100, "file_path", "Location URI with FS scheme", false, G_STRING),                       \
        F(101, "file_format", "File format name: avro, orc, or parquet", false, G_STRING),         \
        F(102, "partition", "Partition data tuple, schema based on the partition spec", false,     \
          G_PARTITION),                                                                            \
        F(103, "record_count", "Number of records in the file", false, G_LONG),                    \
        F(104, "file_size_in_bytes", "Total file size in bytes", false, G_LONG),                   \
        DF_COMMON_METRICS,                                                                         \
        {135, "equality_ids", "Equality comparison field IDs", true, G_INTLIST, 136, 0, NULL,      \
         NULL, 0},                                                                                 \
        F(140, "sort_order_id", "Sort order ID", true, G_INT)

#define DF_REFERENCED                                                                              \
    F(143, "referenced_data_file",                                                                 \
      "Fully qualified location (URI with FS scheme) of a data file that all deletes reference",   \
      true, G_STRING)

static const gen_field data_file_v2[] = {DF_V2_HEAD, DF_REFERENCED};

static const gen_field data_file_v3[] = {
    DF_V2_HEAD,
    F(142, "first_row_id", "The first row ID assigned to the first row in the data file", true,
      G_LONG),
    DF_REFERENCED,
    F(144, "content_offset", "The offset in the file where the content starts", true, G_LONG),
    F(145, "content_size_in_bytes", "The length of referenced content stored in the file", true,
      G_LONG),
};

/* v1 as Java writes it: no docs on partition and block_size_in_bytes */
static const gen_field data_file_v1[] = {
    F(100, "file_path", "Location URI with FS scheme", false, G_STRING),
    F(101, "file_format", "File format name: avro, orc, or parquet", false, G_STRING),
    F(102, "partition", NULL, false, G_PARTITION),
    F(103, "record_count", "Number of records in the file", false, G_LONG),
    F(104, "file_size_in_bytes", "Total file size in bytes", false, G_LONG),
    F(105, "block_size_in_bytes", NULL, false, G_LONG),
    DF_COMMON_METRICS,
    F(140, "sort_order_id", "Sort order ID", true, G_INT),
};

static const gen_field entry_v2[] = {
    F(0, "status", NULL, false, G_INT),
    F(1, "snapshot_id", NULL, true, G_LONG),
    F(3, "sequence_number", NULL, true, G_LONG),
    F(4, "file_sequence_number", NULL, true, G_LONG),
    {2, "data_file", NULL, false, G_RECORD, 0, 0, "r2", data_file_v2, FLOE_ARRAY_LEN(data_file_v2)},
};

static const gen_field entry_v3[] = {
    F(0, "status", NULL, false, G_INT),
    F(1, "snapshot_id", NULL, true, G_LONG),
    F(3, "sequence_number", NULL, true, G_LONG),
    F(4, "file_sequence_number", NULL, true, G_LONG),
    {2, "data_file", NULL, false, G_RECORD, 0, 0, "r2", data_file_v3, FLOE_ARRAY_LEN(data_file_v3)},
};

static const gen_field entry_v1[] = {
    F(0, "status", NULL, false, G_INT),
    F(1, "snapshot_id", NULL, true, G_LONG),
    {2, "data_file", NULL, false, G_RECORD, 0, 0, "r2", data_file_v1, FLOE_ARRAY_LEN(data_file_v1)},
};

/* Java's default block_size_in_bytes for v1 (the field is required there). */
#define V1_BLOCK_SIZE ((int64_t)64 * 1024 * 1024)

typedef struct summary_acc {
    bool contains_null;
    bool contains_nan;
    bool has_bounds;
    floe_value lower, upper; /* byte payloads copied into the writer arena */
} summary_acc;

struct floe_manifest_writer {
    floe_manifest_writer_options o;
    floe_buf *dst;
    size_t start;
    floe_arena *arena;
    floe_manifest_partition_field *part;
    summary_acc *acc;
    floe_avro_writer *avro;
    int32_t added_files, existing_files, deleted_files;
    int64_t added_rows, existing_rows, deleted_rows;
    int64_t min_seq;
    bool finished;
};

void floe_manifest_writer_free(floe_manifest_writer *w)
{
    if (!w)
        return;
    floe_avro_writer_free(w->avro);
    floe__arena_free(w->arena);
    floe__free(w);
}

/* A partition type: a primitive, or unknown (an identity partition of an
 * unknown column, Avro "null" as Java's TypeToSchema writes it). */
static bool is_primitive(const floe_type *t)
{
    return t && t->id != FLOE_T_INVALID && !floe_type_is_nested(t) && t->id != FLOE_T_VARIANT &&
           t->id != FLOE_T_GEOMETRY && t->id != FLOE_T_GEOGRAPHY;
}

int floe_manifest_writer_new(floe_manifest_writer **out, const floe_manifest_writer_options *o,
                             floe_buf *dst)
{
    *out = NULL;
    if (o->format_version < 1 || o->format_version > 3)
        return floe__error(FLOE_EINVALID, "manifest",
                           "cannot write a format v%d manifest (only 1, 2 and 3)",
                           o->format_version);
    if (o->format_version == 1 && o->content != FLOE_MANIFEST_DATA)
        return floe__error(FLOE_EINVALID, "manifest", "format v1 has no delete manifests");
    if (o->content != FLOE_MANIFEST_DATA && o->content != FLOE_MANIFEST_DELETES)
        return floe__error(FLOE_EINVALID, "manifest", "invalid manifest content %d",
                           (int)o->content);
    if (!o->schema_json || !o->partition_spec_json)
        return floe__error(FLOE_EINVALID, "manifest",
                           "a manifest needs the schema and partition-spec header JSON");
    for (size_t i = 0; i < o->npartition_fields; i++)
        if (!is_primitive(o->partition_fields[i].type) || !o->partition_fields[i].name)
            return floe__error(FLOE_EINVALID, "manifest",
                               "partition field %zu has no name or a non-primitive type", i);
    floe_manifest_writer *w = floe__calloc(1, sizeof *w);
    if (!w)
        return floe__error_nomem();
    floe_buf avro = FLOE_BUF_INIT, ice = FLOE_BUF_INIT;
    int rc = 0;
    w->o = *o;
    w->dst = dst;
    w->start = dst->len;
    w->min_seq = INT64_MAX;
    if (!(w->arena = floe__arena_new(4096))) {
        rc = floe__error_nomem();
        goto done;
    }
    size_t np = o->npartition_fields;
    if (np) {
        w->part = floe__arena_memdup(w->arena, o->partition_fields, np * sizeof *w->part);
        w->acc = floe__arena_calloc(w->arena, np, sizeof *w->acc);
        if (!w->part || !w->acc) {
            rc = floe__error_nomem();
            goto done;
        }
        for (size_t i = 0; i < np; i++)
            if (!(w->part[i].name = floe__arena_strdup(w->arena, o->partition_fields[i].name))) {
                rc = floe__error_nomem();
                goto done;
            }
    }
    w->o.partition_fields = w->part;
    if (o->manifest_path &&
        !(w->o.manifest_path = floe__arena_strdup(w->arena, o->manifest_path))) {
        rc = floe__error_nomem();
        goto done;
    }
    w->o.schema_json = w->o.partition_spec_json = NULL; /* not kept */

    gen_ctx ctx = {np, w->part};
    const gen_field *fields = o->format_version == 1   ? entry_v1
                              : o->format_version == 2 ? entry_v2
                                                       : entry_v3;
    size_t nf = o->format_version == 1   ? FLOE_ARRAY_LEN(entry_v1)
                : o->format_version == 2 ? FLOE_ARRAY_LEN(entry_v2)
                                         : FLOE_ARRAY_LEN(entry_v3);
    if ((rc = floe__gen_avro_record(&avro, &ctx, "manifest_entry", fields, nf)) < 0 ||
        (rc = floe__gen_iceberg_struct(&ice, &ctx, fields, nf, true)) < 0)
        goto done;
    char spec_id[16], fv[8];
    snprintf(spec_id, sizeof spec_id, "%d", (int)o->partition_spec_id);
    snprintf(fv, sizeof fv, "%d", o->format_version);
    floe_kv meta[6];
    size_t nmeta = 0;
    meta[nmeta++] = (floe_kv){(char *)"schema", (char *)o->schema_json};
    meta[nmeta++] = (floe_kv){(char *)"partition-spec", (char *)o->partition_spec_json};
    meta[nmeta++] = (floe_kv){(char *)"partition-spec-id", spec_id};
    meta[nmeta++] = (floe_kv){(char *)"format-version", fv};
    if (o->format_version >= 2)
        meta[nmeta++] = (floe_kv){
            (char *)"content", (char *)(o->content == FLOE_MANIFEST_DELETES ? "deletes" : "data")};
    meta[nmeta++] = (floe_kv){(char *)"iceberg.schema", ice.ptr};
    rc = floe_avro_writer_new(&w->avro, dst, avro.ptr, o->codec, o->compression_level, meta, nmeta);
done:
    floe__buf_free(&avro);
    floe__buf_free(&ice);
    if (rc < 0) {
        floe_manifest_writer_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

/* ---------------------------------------------------------------- encoding */

static int put_null(floe_buf *b)
{
    return floe_avro_put_long(b, 0);
}

static int put_some(floe_buf *b)
{
    return floe_avro_put_long(b, 1);
}

static int put_opt_long(floe_buf *b, bool set, int64_t v)
{
    if (!set)
        return put_null(b);
    FLOE_TRY(put_some(b));
    return floe_avro_put_long(b, v);
}

static int put_longs(floe_buf *b, const floe_col_longs *m)
{
    if (!m->set)
        return put_null(b);
    FLOE_TRY(put_some(b));
    if (m->n) {
        FLOE_TRY(floe_avro_put_long(b, (int64_t)m->n));
        for (size_t i = 0; i < m->n; i++) {
            FLOE_TRY(floe_avro_put_int(b, m->items[i].field_id));
            FLOE_TRY(floe_avro_put_long(b, m->items[i].value));
        }
    }
    return floe_avro_put_long(b, 0);
}

static int put_bytes_map(floe_buf *b, const floe_col_bytes_map *m)
{
    if (!m->set)
        return put_null(b);
    FLOE_TRY(put_some(b));
    if (m->n) {
        FLOE_TRY(floe_avro_put_long(b, (int64_t)m->n));
        for (size_t i = 0; i < m->n; i++) {
            FLOE_TRY(floe_avro_put_int(b, m->items[i].field_id));
            FLOE_TRY(floe_avro_put_bytes(b, m->items[i].ptr, m->items[i].len));
        }
    }
    return floe_avro_put_long(b, 0);
}

static int put_opt_bytes(floe_buf *b, const floe_opt_bytes *v)
{
    if (!v->set)
        return put_null(b);
    FLOE_TRY(put_some(b));
    return floe_avro_put_bytes(b, v->ptr, v->len);
}

static int type_mismatch(const floe_manifest_partition_field *pf)
{
    return floe__error(FLOE_EINVALID, "manifest",
                       "partition value for field %s (id %d) does not match its type", pf->name,
                       (int)pf->field_id);
}

static int put_partition_value(floe_buf *b, const floe_manifest_partition_field *pf,
                               const floe_value *v)
{
    const floe_type *t = pf->type;
    if (t->id == FLOE_T_UNKNOWN) /* Avro "null", not a union: no bytes */
        return v->is_null ? 0 : type_mismatch(pf);
    if (v->is_null)
        return put_null(b);
    if (v->type != t->id)
        return type_mismatch(pf);
    FLOE_TRY(put_some(b));
    switch (t->id) {
    case FLOE_T_BOOLEAN: return floe_avro_put_bool(b, v->v.b);
    case FLOE_T_INT:
    case FLOE_T_DATE: return floe_avro_put_int(b, v->v.i32);
    case FLOE_T_LONG:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: return floe_avro_put_long(b, v->v.i64);
    case FLOE_T_FLOAT: return floe_avro_put_float(b, v->v.f32);
    case FLOE_T_DOUBLE: return floe_avro_put_double(b, v->v.f64);
    case FLOE_T_STRING:
    case FLOE_T_BINARY: return floe_avro_put_bytes(b, v->v.bytes.ptr, v->v.bytes.len);
    case FLOE_T_UUID:
    case FLOE_T_FIXED: {
        size_t want = t->id == FLOE_T_UUID ? 16 : (size_t)t->length;
        if (v->v.bytes.len != want)
            return type_mismatch(pf);
        return floe__buf_put(b, v->v.bytes.ptr, want);
    }
    case FLOE_T_DECIMAL: {
        if (v->scale != t->scale)
            return type_mismatch(pf);
        int n = floe__gen_decimal_bytes(t->precision);
        uint8_t tmp[16];
        floe_u128 u = (floe_u128)v->v.dec;
        for (int i = n - 1; i >= 0; i--) {
            tmp[i] = (uint8_t)u;
            u >>= 8;
        }
        return floe__buf_put(b, tmp, (size_t)n);
    }
    default: return type_mismatch(pf);
    }
}

/* Track one partition value in the field's summary. */
static int summarize(floe_manifest_writer *w, size_t i, const floe_value *v)
{
    summary_acc *s = &w->acc[i];
    if (v->is_null) {
        s->contains_null = true;
        return 0;
    }
    if ((v->type == FLOE_T_FLOAT && isnan(v->v.f32)) ||
        (v->type == FLOE_T_DOUBLE && isnan(v->v.f64))) {
        s->contains_nan = true;
        return 0;
    }
    bool is_bytes = v->type == FLOE_T_STRING || v->type == FLOE_T_BINARY ||
                    v->type == FLOE_T_UUID || v->type == FLOE_T_FIXED;
    floe_value *slots[2] = {&s->lower, &s->upper};
    for (int k = 0; k < 2; k++) {
        bool replace = !s->has_bounds;
        if (!replace) {
            int c = floe_value_compare(v, slots[k]);
            replace = k == 0 ? c < 0 : c > 0;
        }
        if (!replace)
            continue;
        *slots[k] = *v;
        if (is_bytes) {
            void *copy =
                floe__arena_memdup(w->arena, v->v.bytes.ptr, v->v.bytes.len ? v->v.bytes.len : 1);
            if (!copy)
                return floe__error_nomem();
            slots[k]->v.bytes.ptr = copy;
        }
    }
    s->has_bounds = true;
    return 0;
}

static int encode_entry(floe_manifest_writer *w, floe_buf *b, const floe_manifest_entry *e)
{
    const floe_data_file *df = &e->data_file;
    bool v1 = w->o.format_version == 1;
    FLOE_TRY(floe_avro_put_int(b, e->status));
    bool has_snap = e->has_snapshot_id || e->status == FLOE_ENTRY_ADDED;
    FLOE_TRY(put_opt_long(b, has_snap, e->has_snapshot_id ? e->snapshot_id : w->o.snapshot_id));
    if (!v1) {
        FLOE_TRY(put_opt_long(b, e->sequence_number != FLOE_SEQ_UNASSIGNED, e->sequence_number));
        FLOE_TRY(put_opt_long(b, e->file_sequence_number != FLOE_SEQ_UNASSIGNED,
                              e->file_sequence_number));
        FLOE_TRY(floe_avro_put_int(b, df->content));
    }
    FLOE_TRY(floe_avro_put_string(b, df->file_path));
    FLOE_TRY(floe_avro_put_string(b, df->file_format));
    for (size_t i = 0; i < w->o.npartition_fields; i++)
        FLOE_TRY(put_partition_value(b, &w->part[i], &df->partition.values[i]));
    FLOE_TRY(floe_avro_put_long(b, df->record_count));
    FLOE_TRY(floe_avro_put_long(b, df->file_size_in_bytes));
    if (v1)
        FLOE_TRY(floe_avro_put_long(b, df->block_size_in_bytes > 0 ? df->block_size_in_bytes
                                                                   : V1_BLOCK_SIZE));
    FLOE_TRY(put_longs(b, &df->column_sizes));
    FLOE_TRY(put_longs(b, &df->value_counts));
    FLOE_TRY(put_longs(b, &df->null_value_counts));
    FLOE_TRY(put_longs(b, &df->nan_value_counts));
    FLOE_TRY(put_bytes_map(b, &df->lower_bounds));
    FLOE_TRY(put_bytes_map(b, &df->upper_bounds));
    FLOE_TRY(put_opt_bytes(b, &df->key_metadata));
    if (df->has_split_offsets) {
        FLOE_TRY(put_some(b));
        if (df->nsplit_offsets) {
            FLOE_TRY(floe_avro_put_long(b, (int64_t)df->nsplit_offsets));
            for (size_t i = 0; i < df->nsplit_offsets; i++)
                FLOE_TRY(floe_avro_put_long(b, df->split_offsets[i]));
        }
        FLOE_TRY(floe_avro_put_long(b, 0));
    } else {
        FLOE_TRY(put_null(b));
    }
    if (!v1) {
        if (df->has_equality_ids) {
            FLOE_TRY(put_some(b));
            if (df->nequality_ids) {
                FLOE_TRY(floe_avro_put_long(b, (int64_t)df->nequality_ids));
                for (size_t i = 0; i < df->nequality_ids; i++)
                    FLOE_TRY(floe_avro_put_int(b, df->equality_ids[i]));
            }
            FLOE_TRY(floe_avro_put_long(b, 0));
        } else {
            FLOE_TRY(put_null(b));
        }
    }
    FLOE_TRY(put_opt_long(b, df->has_sort_order_id, df->sort_order_id));
    if (w->o.format_version >= 3) {
        /* null: inherited from the manifest's first_row_id on read */
        FLOE_TRY(put_opt_long(b, df->content == FLOE_FILE_DATA && df->has_first_row_id,
                              df->first_row_id));
    }
    if (!v1) {
        if (df->referenced_data_file) {
            FLOE_TRY(put_some(b));
            FLOE_TRY(floe_avro_put_string(b, df->referenced_data_file));
        } else {
            FLOE_TRY(put_null(b));
        }
    }
    if (w->o.format_version >= 3) {
        FLOE_TRY(put_opt_long(b, df->has_content_offset, df->content_offset));
        FLOE_TRY(put_opt_long(b, df->has_content_size_in_bytes, df->content_size_in_bytes));
    }
    return 0;
}

int floe_manifest_writer_add(floe_manifest_writer *w, const floe_manifest_entry *e)
{
    const floe_data_file *df = &e->data_file;
    bool v1 = w->o.format_version == 1;
    if (w->finished)
        return floe__error(FLOE_EINVALID, "manifest", "manifest writer already finished");
    if (e->status < 0 || e->status > 2)
        return floe__error(FLOE_EINVALID, "manifest", "invalid entry status %d", (int)e->status);
    if (!df->file_path || !df->file_format)
        return floe__error(FLOE_EINVALID, "manifest", "data file without path or format");
    if (df->partition.n != w->o.npartition_fields || (df->partition.n && !df->partition.values))
        return floe__error(FLOE_EINVALID, "manifest",
                           "data file %s has %zu partition values, the spec has %zu fields",
                           df->file_path, df->partition.n, w->o.npartition_fields);
    if (v1 && df->content != FLOE_FILE_DATA)
        return floe__error(FLOE_EINVALID, "manifest", "format v1 has no delete files");
    if (!v1 && e->status != FLOE_ENTRY_ADDED && e->sequence_number == FLOE_SEQ_UNASSIGNED)
        return floe__error(
            FLOE_EINVALID, "manifest", "%s entry for %s needs an explicit sequence number",
            e->status == FLOE_ENTRY_EXISTING ? "EXISTING" : "DELETED", df->file_path);
    if ((w->o.content == FLOE_MANIFEST_DATA) != (df->content == FLOE_FILE_DATA))
        return floe__error(FLOE_EINVALID, "manifest", "%s file %s in a %s manifest",
                           df->content == FLOE_FILE_DATA ? "data" : "delete", df->file_path,
                           w->o.content == FLOE_MANIFEST_DATA ? "data" : "delete");
    floe_buf *b = floe_avro_writer_buf(w->avro);
    size_t mark = b->len;
    int rc = encode_entry(w, b, e);
    if (rc < 0) {
        b->len = mark;
        return rc;
    }
    for (size_t i = 0; i < w->o.npartition_fields; i++)
        if ((rc = summarize(w, i, &df->partition.values[i])) < 0) {
            b->len = mark;
            return rc;
        }
    switch (e->status) {
    case FLOE_ENTRY_ADDED:
        w->added_files++;
        w->added_rows += df->record_count;
        break;
    case FLOE_ENTRY_EXISTING:
        w->existing_files++;
        w->existing_rows += df->record_count;
        break;
    default:
        w->deleted_files++;
        w->deleted_rows += df->record_count;
        break;
    }
    if (e->sequence_number != FLOE_SEQ_UNASSIGNED && e->sequence_number < w->min_seq)
        w->min_seq = e->sequence_number;
    return floe_avro_writer_commit(w->avro);
}

int floe_manifest_writer_finish(floe_manifest_writer *w, floe_manifest_file *mf)
{
    FLOE_TRY(floe_avro_writer_finish(w->avro));
    w->finished = true;
    memset(mf, 0, sizeof *mf);
    size_t np = w->o.npartition_fields;
    floe_field_summary *sums = np ? floe__arena_calloc(w->arena, np, sizeof *sums) : NULL;
    if (np && !sums)
        return floe__error_nomem();
    for (size_t i = 0; i < np; i++) {
        const summary_acc *s = &w->acc[i];
        sums[i].contains_null = s->contains_null;
        sums[i].has_contains_nan = true;
        sums[i].contains_nan = s->contains_nan;
        if (!s->has_bounds)
            continue;
        const floe_value *vals[2] = {&s->lower, &s->upper};
        floe_opt_bytes *dst[2] = {&sums[i].lower_bound, &sums[i].upper_bound};
        for (int k = 0; k < 2; k++) {
            floe_buf tmp = FLOE_BUF_INIT;
            int rc = floe_value_to_single(vals[k], &tmp);
            if (rc < 0) {
                floe__buf_free(&tmp);
                return rc;
            }
            dst[k]->ptr =
                floe__arena_memdup(w->arena, tmp.ptr ? tmp.ptr : "", tmp.len ? tmp.len : 1);
            dst[k]->len = tmp.len;
            dst[k]->set = true;
            floe__buf_free(&tmp);
            if (!dst[k]->ptr)
                return floe__error_nomem();
        }
    }
    mf->manifest_path = w->o.manifest_path;
    mf->manifest_length = (int64_t)(w->dst->len - w->start);
    mf->partition_spec_id = w->o.partition_spec_id;
    mf->content = w->o.content;
    mf->sequence_number = w->o.sequence_number;
    mf->min_sequence_number = w->min_seq != INT64_MAX ? w->min_seq : w->o.sequence_number;
    if (w->o.format_version == 1)
        mf->sequence_number = mf->min_sequence_number = 0;
    mf->added_snapshot_id = w->o.snapshot_id;
    mf->added_files_count = w->added_files;
    mf->existing_files_count = w->existing_files;
    mf->deleted_files_count = w->deleted_files;
    mf->added_rows_count = w->added_rows;
    mf->existing_rows_count = w->existing_rows;
    mf->deleted_rows_count = w->deleted_rows;
    mf->has_partitions = true;
    mf->npartitions = np;
    mf->partitions = sums;
    return 0;
}
