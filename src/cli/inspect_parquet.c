/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe inspect FILE.parquet`: the footer of a Parquet file as text or JSON —
 * schema with field ids and types, row groups, column chunks (codec,
 * encodings, sizes, statistics), num_rows, created_by, key/value metadata.
 * Statistics are shown as values of the column's Iceberg type.
 */
#include "cli.h"

#include "parquet/parquet.h"
#include "spec/value.h"

#include <jansson.h>
#include <string.h>

static const char *repetition_name(int r)
{
    return r == FLOE_PQ_REQUIRED ? "REQUIRED" : r == FLOE_PQ_OPTIONAL ? "OPTIONAL"
           : r == FLOE_PQ_REPEATED ? "REPEATED" : NULL;
}

static const char *logical_name(int lt)
{
    static const char *const names[] = {NULL,      "STRING",  "MAP",  "LIST",    "ENUM",
                                        "DECIMAL", "DATE",    "TIME", "TIMESTAMP", NULL,
                                        "INTEGER", "UNKNOWN", "JSON", "BSON",    "UUID",
                                        "FLOAT16"};
    return lt > 0 && lt < (int)(sizeof names / sizeof names[0]) ? names[lt] : NULL;
}

static const char *converted_name(int ct)
{
    static const char *const names[] = {
        "UTF8",     "MAP",         "MAP_KEY_VALUE", "LIST",   "ENUM",   "DECIMAL",
        "DATE",     "TIME_MILLIS", "TIME_MICROS",   "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS",
        "UINT_8",   "UINT_16",     "UINT_32",       "UINT_64", "INT_8",  "INT_16",
        "INT_32",   "INT_64",      "JSON",          "BSON",   "INTERVAL"};
    return ct >= 0 && ct < (int)(sizeof names / sizeof names[0]) ? names[ct] : NULL;
}

static char *logical_text(const floe_pq_schema_element *e)
{
    const char *n = logical_name(e->logical);
    if (!n)
        return NULL;
    floe_buf b = FLOE_BUF_INIT;
    if (e->logical == FLOE_PQ_LT_DECIMAL)
        floe__buf_printf(&b, "DECIMAL(%d,%d)", e->lt_precision, e->lt_scale);
    else if (e->logical == FLOE_PQ_LT_TIME || e->logical == FLOE_PQ_LT_TIMESTAMP)
        floe__buf_printf(&b, "%s(%s,%s)", n,
                         e->lt_unit == FLOE_PQ_UNIT_MILLIS   ? "MILLIS"
                         : e->lt_unit == FLOE_PQ_UNIT_MICROS ? "MICROS"
                                                             : "NANOS",
                         e->lt_utc ? "UTC" : "local");
    else if (e->logical == FLOE_PQ_LT_INTEGER)
        floe__buf_printf(&b, "INTEGER(%d,%s)", e->lt_bit_width, e->lt_signed ? "signed" : "unsigned");
    else
        floe__buf_puts(&b, n);
    return floe__buf_detach(&b);
}

/* Statistic value as text (NULL when absent or undecodable). */
static char *stat_text(const floe_pq_schema_element *el, const floe_pq_bytes *b)
{
    if (!b->set)
        return NULL;
    floe_type t;
    floe_value v;
    if (floe__pq_stat_value(el, b, &t, &v) < 0) {
        floe_error_clear();
        return NULL;
    }
    floe_buf out = FLOE_BUF_INIT;
    if (floe_value_format(&v, &out) < 0) {
        floe__buf_free(&out);
        floe_error_clear();
        return NULL;
    }
    if (!out.ptr)
        floe__buf_puts(&out, "");
    return floe__buf_detach(&out);
}

static char *path_text(const floe_pq_column_meta *m)
{
    floe_buf b = FLOE_BUF_INIT;
    for (size_t i = 0; i < m->npath; i++)
        floe__buf_printf(&b, "%s%s", i ? "." : "", m->path[i]);
    if (!b.ptr)
        floe__buf_puts(&b, "");
    return floe__buf_detach(&b);
}

static json_t *encodings_json(uint32_t mask)
{
    json_t *a = json_array();
    for (int e = 0; e < 32; e++)
        if (mask >> e & 1)
            json_array_append_new(a, json_string(floe__pq_encoding_name(e)));
    return a;
}

static json_t *inspect_json(const char *path, const floe_input *in, const floe_pq_file_meta *fm,
                            const floe_pq_tree *tree)
{
    json_t *root = json_object();
    json_object_set_new(root, "file", json_string(path));
    json_object_set_new(root, "file_size", json_integer(in->size));
    json_object_set_new(root, "version", json_integer(fm->version));
    json_object_set_new(root, "num_rows", json_integer(fm->num_rows));
    json_object_set_new(root, "created_by", fm->created_by ? json_string(fm->created_by) : json_null());
    json_t *kv = json_object();
    for (size_t i = 0; i < fm->nkv; i++)
        json_object_set_new(kv, fm->kv[i].key, fm->kv[i].value ? json_string(fm->kv[i].value) : json_null());
    json_object_set_new(root, "key_value_metadata", kv);
    json_t *schema = json_array();
    for (size_t i = 0; i < fm->nschema; i++) {
        const floe_pq_schema_element *e = &fm->schema[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(e->name));
        if (e->type >= 0)
            json_object_set_new(o, "type", json_string(floe__pq_type_name(e->type)));
        if (e->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY)
            json_object_set_new(o, "type_length", json_integer(e->type_length));
        if (repetition_name(e->repetition))
            json_object_set_new(o, "repetition", json_string(repetition_name(e->repetition)));
        if (e->type < 0)
            json_object_set_new(o, "num_children", json_integer(e->num_children));
        if (converted_name(e->converted_type))
            json_object_set_new(o, "converted_type", json_string(converted_name(e->converted_type)));
        char *lt = logical_text(e);
        if (lt)
            json_object_set_new(o, "logical_type", json_string(lt));
        floe__free(lt);
        if (e->has_field_id)
            json_object_set_new(o, "field_id", json_integer(e->field_id));
        json_array_append_new(schema, o);
    }
    json_object_set_new(root, "schema", schema);
    json_t *rgs = json_array();
    for (size_t r = 0; r < fm->nrow_groups; r++) {
        const floe_pq_row_group *rg = &fm->row_groups[r];
        json_t *o = json_object();
        json_object_set_new(o, "num_rows", json_integer(rg->num_rows));
        json_object_set_new(o, "total_byte_size", json_integer(rg->total_byte_size));
        if (rg->has_total_compressed_size)
            json_object_set_new(o, "total_compressed_size", json_integer(rg->total_compressed_size));
        if (rg->has_file_offset)
            json_object_set_new(o, "file_offset", json_integer(rg->file_offset));
        json_t *cols = json_array();
        for (size_t c = 0; c < rg->ncolumns; c++) {
            const floe_pq_column_meta *m = &rg->columns[c].meta_data;
            const floe_pq_schema_element *el = c < tree->nleaves ? tree->leaves[c]->el : NULL;
            json_t *co = json_object();
            char *p = path_text(m);
            json_object_set_new(co, "path", json_string(p ? p : ""));
            floe__free(p);
            if (el && el->has_field_id)
                json_object_set_new(co, "field_id", json_integer(el->field_id));
            json_object_set_new(co, "type", json_string(floe__pq_type_name(m->type)));
            json_object_set_new(co, "codec", json_string(floe__pq_codec_name(m->codec)));
            json_object_set_new(co, "encodings", encodings_json(m->encodings));
            json_object_set_new(co, "num_values", json_integer(m->num_values));
            json_object_set_new(co, "total_compressed_size", json_integer(m->total_compressed_size));
            json_object_set_new(co, "total_uncompressed_size", json_integer(m->total_uncompressed_size));
            json_object_set_new(co, "data_page_offset", json_integer(m->data_page_offset));
            if (m->has_dictionary_page_offset)
                json_object_set_new(co, "dictionary_page_offset", json_integer(m->dictionary_page_offset));
            if (m->has_statistics) {
                const floe_pq_statistics *s = &m->statistics;
                json_t *so = json_object();
                bool bytes = m->type == FLOE_PQ_BYTE_ARRAY || m->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY;
                const floe_pq_bytes *mn = s->min_value.set ? &s->min_value : bytes ? &s->min_value : &s->min;
                const floe_pq_bytes *mx = s->max_value.set ? &s->max_value : bytes ? &s->max_value : &s->max;
                char *a = el ? stat_text(el, mn) : NULL, *b = el ? stat_text(el, mx) : NULL;
                if (a)
                    json_object_set_new(so, "min", json_string(a));
                if (b)
                    json_object_set_new(so, "max", json_string(b));
                floe__free(a);
                floe__free(b);
                if (s->has_null_count)
                    json_object_set_new(so, "null_count", json_integer(s->null_count));
                if (s->has_distinct_count)
                    json_object_set_new(so, "distinct_count", json_integer(s->distinct_count));
                if (s->has_nan_count)
                    json_object_set_new(so, "nan_count", json_integer(s->nan_count));
                json_object_set_new(co, "statistics", so);
            }
            json_array_append_new(cols, co);
        }
        json_object_set_new(o, "columns", cols);
        json_array_append_new(rgs, o);
    }
    json_object_set_new(root, "row_groups", rgs);
    return root;
}

static void print_node(const floe_pq_node *n, int indent)
{
    const floe_pq_schema_element *e = n->el;
    printf("%*s%s", indent, "", e->name);
    if (repetition_name(e->repetition))
        printf(" %s", repetition_name(e->repetition));
    if (e->type >= 0) {
        printf(" %s", floe__pq_type_name(e->type));
        if (e->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY)
            printf("(%d)", e->type_length);
    } else {
        printf(" group");
    }
    char *lt = logical_text(e);
    if (lt)
        printf(" %s", lt);
    else if (converted_name(e->converted_type))
        printf(" %s", converted_name(e->converted_type));
    floe__free(lt);
    if (e->has_field_id)
        printf(" id=%d", e->field_id);
    printf("\n");
    for (size_t i = 0; i < n->nchildren; i++)
        print_node(n->children[i], indent + 2);
}

static void inspect_text(const char *path, const floe_input *in, const floe_pq_file_meta *fm,
                         const floe_pq_tree *tree)
{
    printf("file: %s\nsize: %lld bytes\nversion: %d\nnum_rows: %lld\ncreated_by: %s\n", path,
           (long long)in->size, fm->version, (long long)fm->num_rows,
           fm->created_by ? fm->created_by : "(none)");
    for (size_t i = 0; i < fm->nkv; i++)
        printf("metadata: %s (%zu bytes)\n", fm->kv[i].key,
               fm->kv[i].value ? strlen(fm->kv[i].value) : 0);
    printf("schema:\n");
    print_node(tree->root, 2);
    for (size_t r = 0; r < fm->nrow_groups; r++) {
        const floe_pq_row_group *rg = &fm->row_groups[r];
        printf("row group %zu: %lld rows, %lld bytes\n", r, (long long)rg->num_rows,
               (long long)rg->total_byte_size);
        for (size_t c = 0; c < rg->ncolumns; c++) {
            const floe_pq_column_meta *m = &rg->columns[c].meta_data;
            const floe_pq_schema_element *el = c < tree->nleaves ? tree->leaves[c]->el : NULL;
            char *p = path_text(m);
            printf("  %s: %s %s values=%lld compressed=%lld uncompressed=%lld encodings=", p ? p : "",
                   floe__pq_type_name(m->type), floe__pq_codec_name(m->codec),
                   (long long)m->num_values, (long long)m->total_compressed_size,
                   (long long)m->total_uncompressed_size);
            floe__free(p);
            bool first = true;
            for (int e = 0; e < 32; e++)
                if (m->encodings >> e & 1) {
                    printf("%s%s", first ? "" : ",", floe__pq_encoding_name(e));
                    first = false;
                }
            if (m->has_statistics && el) {
                const floe_pq_statistics *s = &m->statistics;
                bool bytes = m->type == FLOE_PQ_BYTE_ARRAY || m->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY;
                char *a = stat_text(el, s->min_value.set || bytes ? &s->min_value : &s->min);
                char *b = stat_text(el, s->max_value.set || bytes ? &s->max_value : &s->max);
                if (a && b)
                    printf(" min=%s max=%s", a, b);
                if (s->has_null_count)
                    printf(" nulls=%lld", (long long)s->null_count);
                floe__free(a);
                floe__free(b);
            }
            printf("\n");
        }
    }
}

int floe_cli_inspect_parquet(const char *path, bool json)
{
    floe_input *in;
    if (floe__pq_input_file(&in, path) < 0)
        return cli_fail(NULL);
    floe_pq_read_options o = {0};
    floe_pq_reader *r;
    if (floe__pq_reader_open(&r, in, &o) < 0) {
        in->close(in);
        return cli_fail(NULL);
    }
    const floe_pq_file_meta *fm = floe__pq_reader_meta(r);
    const floe_pq_tree *tree = floe__pq_reader_tree(r);
    if (json) {
        json_t *j = inspect_json(path, in, fm, tree);
        char *s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (s)
            printf("%s\n", s);
        free(s);
        json_decref(j);
    } else {
        inspect_text(path, in, fm, tree);
    }
    floe__pq_reader_free(r);
    in->close(in);
    return CLI_OK;
}
