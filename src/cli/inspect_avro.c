/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe inspect FILE.avro`: recognise a manifest list or a manifest (spec
 * "Manifest Lists", "Manifests") from its Avro schema and print its header
 * keys and entries, with the spec's current field names. With --json:
 *   {"kind": "manifest_list"|"manifest", "metadata": {header keys},
 *    "entries": [...]}
 * 64-bit ids are JSON integers; manifest bounds are decoded (Appendix D)
 * with the column types of the `schema` header key; partition values are
 * typed by the manifest's Avro schema. Manifest-list partition summaries
 * carry no types, so their bounds stay "0x<hex>".
 */
#include "cli.h"

#include "manifest/manifest.h"
#include "spec/value.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The CLI reads a local file itself (the library only sees the bytes). */
static int slurp(const char *path, uint8_t **out, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return floe__error(FLOE_EIO, "cli", "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 0) {
        close(fd);
        return floe__error(FLOE_EIO, "cli", "cannot stat %s", path);
    }
    size_t n = (size_t)st.st_size, got = 0;
    uint8_t *buf = floe__malloc(n ? n : 1);
    if (!buf) {
        close(fd);
        return floe__error_nomem();
    }
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) {
            floe__free(buf);
            close(fd);
            return floe__error(FLOE_EIO, "cli", "cannot read %s", path);
        }
        got += (size_t)r;
    }
    close(fd);
    *out = buf;
    *len = n;
    return 0;
}

/* ---------------------------------------------------------------- column types */

typedef struct col_type {
    int32_t id;
    floe_type type;
} col_type;

typedef struct col_types {
    col_type *items;
    size_t n, cap;
} col_types;

static floe_type parse_prim(const char *s)
{
    floe_type t;
    memset(&t, 0, sizeof t);
    static const struct {
        const char *name;
        floe_type_id id;
    } names[] = {{"boolean", FLOE_T_BOOLEAN},
                 {"int", FLOE_T_INT},
                 {"long", FLOE_T_LONG},
                 {"float", FLOE_T_FLOAT},
                 {"double", FLOE_T_DOUBLE},
                 {"date", FLOE_T_DATE},
                 {"time", FLOE_T_TIME},
                 {"timestamp", FLOE_T_TIMESTAMP},
                 {"timestamptz", FLOE_T_TIMESTAMPTZ},
                 {"timestamp_ns", FLOE_T_TIMESTAMP_NS},
                 {"timestamptz_ns", FLOE_T_TIMESTAMPTZ_NS},
                 {"string", FLOE_T_STRING},
                 {"uuid", FLOE_T_UUID},
                 {"binary", FLOE_T_BINARY}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            t.id = names[i].id;
            return t;
        }
    int p, sc, len;
    if (sscanf(s, "decimal(%d ,%d)", &p, &sc) == 2 || sscanf(s, "decimal(%d,%d)", &p, &sc) == 2) {
        t.id = FLOE_T_DECIMAL;
        t.precision = p;
        t.scale = sc;
    } else if (sscanf(s, "fixed[%d]", &len) == 1) {
        t.id = FLOE_T_FIXED;
        t.length = len;
    }
    return t;
}

static void collect(col_types *ct, json_t *type, int depth);

static void add_field(col_types *ct, json_t *id, json_t *type, int depth)
{
    if (json_is_integer(id) && json_is_string(type)) {
        floe_type t = parse_prim(json_string_value(type));
        if (t.id != FLOE_T_INVALID) {
            if (ct->n == ct->cap) {
                size_t nc = ct->cap ? ct->cap * 2 : 32;
                col_type *g = floe__realloc(ct->items, nc * sizeof *g);
                if (!g)
                    return;
                ct->items = g;
                ct->cap = nc;
            }
            ct->items[ct->n].id = (int32_t)json_integer_value(id);
            ct->items[ct->n].type = t;
            ct->n++;
        }
    } else {
        collect(ct, type, depth + 1);
    }
}

static void collect(col_types *ct, json_t *type, int depth)
{
    if (!json_is_object(type) || depth > 64)
        return;
    const char *kind = json_string_value(json_object_get(type, "type"));
    if (!kind)
        return;
    if (strcmp(kind, "struct") == 0) {
        json_t *fields = json_object_get(type, "fields");
        for (size_t i = 0; i < json_array_size(fields); i++) {
            json_t *f = json_array_get(fields, i);
            add_field(ct, json_object_get(f, "id"), json_object_get(f, "type"), depth);
        }
    } else if (strcmp(kind, "list") == 0) {
        add_field(ct, json_object_get(type, "element-id"), json_object_get(type, "element"), depth);
    } else if (strcmp(kind, "map") == 0) {
        add_field(ct, json_object_get(type, "key-id"), json_object_get(type, "key"), depth);
        add_field(ct, json_object_get(type, "value-id"), json_object_get(type, "value"), depth);
    }
}

static const floe_type *col_lookup(const col_types *ct, int32_t id)
{
    for (size_t i = 0; i < ct->n; i++)
        if (ct->items[i].id == id)
            return &ct->items[i].type;
    return NULL;
}

/* ---------------------------------------------------------------- JSON output */

static void jstr(floe_buf *b, const char *s, size_t n)
{
    floe__buf_putc(b, '"');
    floe__buf_put_json_escaped(b, s, n);
    floe__buf_putc(b, '"');
}

static void jhex(floe_buf *b, const uint8_t *p, size_t n)
{
    floe__buf_puts(b, "\"0x");
    for (size_t i = 0; i < n; i++)
        floe__buf_printf(b, "%02x", p[i]);
    floe__buf_putc(b, '"');
}

static void jopt_bytes(floe_buf *b, const floe_opt_bytes *v)
{
    if (v->set)
        jhex(b, v->ptr, v->len);
    else
        floe__buf_puts(b, "null");
}

static void jvalue(floe_buf *b, const floe_value *v)
{
    if (v->is_null) {
        floe__buf_puts(b, "null");
        return;
    }
    switch (v->type) {
    case FLOE_T_BOOLEAN: floe__buf_puts(b, v->v.b ? "true" : "false"); return;
    case FLOE_T_INT: floe__buf_printf(b, "%" PRId32, v->v.i32); return;
    case FLOE_T_LONG: floe__buf_printf(b, "%" PRId64, v->v.i64); return;
    default: {
        floe_buf t = FLOE_BUF_INIT;
        if (floe_value_format(v, &t) == 0)
            jstr(b, t.ptr ? t.ptr : "", t.len);
        else
            floe__buf_puts(b, "null");
        floe__buf_free(&t);
    }
    }
}

static void jlongs(floe_buf *b, const floe_col_longs *m)
{
    if (!m->set) {
        floe__buf_puts(b, "null");
        return;
    }
    floe__buf_putc(b, '{');
    for (size_t i = 0; i < m->n; i++)
        floe__buf_printf(b, "%s\"%d\": %" PRId64, i ? ", " : "", (int)m->items[i].field_id,
                         m->items[i].value);
    floe__buf_putc(b, '}');
}

static void jbounds(floe_buf *b, const floe_col_bytes_map *m, const col_types *ct)
{
    if (!m->set) {
        floe__buf_puts(b, "null");
        return;
    }
    floe__buf_putc(b, '{');
    for (size_t i = 0; i < m->n; i++) {
        const floe_col_bytes *it = &m->items[i];
        floe__buf_printf(b, "%s\"%d\": ", i ? ", " : "", (int)it->field_id);
        const floe_type *t = col_lookup(ct, it->field_id);
        floe_value v;
        if (t && floe_value_from_single(t, it->ptr, it->len, &v) == 0)
            jvalue(b, &v);
        else
            jhex(b, it->ptr, it->len);
    }
    floe__buf_putc(b, '}');
}

static void jopt_i64(floe_buf *b, bool set, int64_t v)
{
    if (set)
        floe__buf_printf(b, "%" PRId64, v);
    else
        floe__buf_puts(b, "null");
}

static void json_metadata(floe_buf *b, const floe_avro_file *f)
{
    floe__buf_puts(b, "\"metadata\": {");
    for (size_t i = 0; i < f->nmeta; i++) {
        const floe_avro_meta *m = &f->meta[i];
        if (i)
            floe__buf_puts(b, ", ");
        jstr(b, m->key, strlen(m->key));
        floe__buf_puts(b, ": ");
        /* JSON-valued keys (schemas, partition-spec) are embedded as JSON */
        json_t *j = NULL;
        if (m->len && (m->value[0] == '{' || m->value[0] == '['))
            j = json_loadb((const char *)m->value, m->len, 0, NULL);
        if (j) {
            char *txt = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
            floe__buf_puts(b, txt ? txt : "null");
            free(txt);
            json_decref(j);
        } else {
            jstr(b, (const char *)m->value, m->len);
        }
    }
    floe__buf_putc(b, '}');
}

static int show_list(floe_buf *b, const uint8_t *data, size_t len, const char *path, bool json)
{
    floe_manifest_list *l;
    FLOE_TRY(floe_manifest_list_read(&l, data, len, path));
    if (json) {
        floe__buf_puts(b, "{\"kind\": \"manifest_list\", ");
        json_metadata(b, l->file);
        floe__buf_puts(b, ", \"entries\": [");
    } else {
        floe__buf_printf(b, "manifest list, format v%d, %zu manifests", l->format_version,
                         l->nentries);
        if (l->has_snapshot_id)
            floe__buf_printf(b, ", snapshot %" PRId64, l->snapshot_id);
        floe__buf_putc(b, '\n');
    }
    for (size_t i = 0; i < l->nentries; i++) {
        const floe_manifest_file *m = &l->entries[i];
        if (!json) {
            floe__buf_printf(b,
                             "%s  %s spec=%d seq=%" PRId64 " snapshot=%" PRId64
                             " added=%d existing=%d deleted=%d\n",
                             m->manifest_path, m->content ? "deletes" : "data",
                             (int)m->partition_spec_id, m->sequence_number, m->added_snapshot_id,
                             (int)m->added_files_count, (int)m->existing_files_count,
                             (int)m->deleted_files_count);
            continue;
        }
        floe__buf_puts(b, i ? ", {\"manifest_path\": " : "{\"manifest_path\": ");
        jstr(b, m->manifest_path, strlen(m->manifest_path));
        floe__buf_printf(b,
                         ", \"manifest_length\": %" PRId64 ", \"partition_spec_id\": %d"
                         ", \"content\": %d, \"sequence_number\": %" PRId64
                         ", \"min_sequence_number\": %" PRId64 ", \"added_snapshot_id\": ",
                         m->manifest_length, (int)m->partition_spec_id, (int)m->content,
                         m->sequence_number, m->min_sequence_number);
        jopt_i64(b, m->added_snapshot_id >= 0, m->added_snapshot_id);
        const struct {
            const char *name;
            int64_t v;
        } counts[] = {{"added_files_count", m->added_files_count},
                      {"existing_files_count", m->existing_files_count},
                      {"deleted_files_count", m->deleted_files_count},
                      {"added_rows_count", m->added_rows_count},
                      {"existing_rows_count", m->existing_rows_count},
                      {"deleted_rows_count", m->deleted_rows_count}};
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            floe__buf_printf(b, ", \"%s\": ", counts[k].name);
            jopt_i64(b, counts[k].v >= 0, counts[k].v);
        }
        floe__buf_puts(b, ", \"partitions\": ");
        if (!m->has_partitions) {
            floe__buf_puts(b, "null");
        } else {
            floe__buf_putc(b, '[');
            for (size_t k = 0; k < m->npartitions; k++) {
                const floe_field_summary *s = &m->partitions[k];
                floe__buf_printf(b,
                                 "%s{\"contains_null\": %s, \"contains_nan\": %s, "
                                 "\"lower_bound\": ",
                                 k ? ", " : "", s->contains_null ? "true" : "false",
                                 !s->has_contains_nan ? "null"
                                 : s->contains_nan    ? "true"
                                                      : "false");
                jopt_bytes(b, &s->lower_bound);
                floe__buf_puts(b, ", \"upper_bound\": ");
                jopt_bytes(b, &s->upper_bound);
                floe__buf_putc(b, '}');
            }
            floe__buf_putc(b, ']');
        }
        floe__buf_puts(b, ", \"key_metadata\": ");
        jopt_bytes(b, &m->key_metadata);
        if (l->format_version >= 3) {
            floe__buf_puts(b, ", \"first_row_id\": ");
            jopt_i64(b, m->has_first_row_id, m->first_row_id);
        }
        floe__buf_putc(b, '}');
    }
    if (json)
        floe__buf_puts(b, "]}\n");
    floe_manifest_list_free(l);
    return 0;
}

static const char *status_name(int s)
{
    return s == FLOE_ENTRY_ADDED ? "ADDED" : s == FLOE_ENTRY_DELETED ? "DELETED" : "EXISTING";
}

static void json_entry(floe_buf *b, const floe_manifest_entry *e, const floe_manifest_info *info,
                       const col_types *ct)
{
    const floe_data_file *df = &e->data_file;
    floe__buf_printf(b, "{\"status\": %d, \"snapshot_id\": ", (int)e->status);
    jopt_i64(b, e->has_snapshot_id, e->snapshot_id);
    floe__buf_puts(b, ", \"sequence_number\": ");
    jopt_i64(b, e->sequence_number != FLOE_SEQ_UNASSIGNED, e->sequence_number);
    floe__buf_puts(b, ", \"file_sequence_number\": ");
    jopt_i64(b, e->file_sequence_number != FLOE_SEQ_UNASSIGNED, e->file_sequence_number);
    floe__buf_printf(b, ", \"data_file\": {\"content\": %d, \"file_path\": ", (int)df->content);
    jstr(b, df->file_path, strlen(df->file_path));
    floe__buf_puts(b, ", \"file_format\": ");
    jstr(b, df->file_format, strlen(df->file_format));
    floe__buf_puts(b, ", \"partition\": {");
    for (size_t i = 0; i < df->partition.n; i++) {
        if (i)
            floe__buf_puts(b, ", ");
        const char *name = i < info->npartition_fields ? info->partition_field_names[i] : "?";
        jstr(b, name, strlen(name));
        floe__buf_puts(b, ": ");
        jvalue(b, &df->partition.values[i]);
    }
    floe__buf_printf(b, "}, \"record_count\": %" PRId64 ", \"file_size_in_bytes\": %" PRId64,
                     df->record_count, df->file_size_in_bytes);
    if (df->block_size_in_bytes >= 0)
        floe__buf_printf(b, ", \"block_size_in_bytes\": %" PRId64, df->block_size_in_bytes);
    floe__buf_puts(b, ", \"column_sizes\": ");
    jlongs(b, &df->column_sizes);
    floe__buf_puts(b, ", \"value_counts\": ");
    jlongs(b, &df->value_counts);
    floe__buf_puts(b, ", \"null_value_counts\": ");
    jlongs(b, &df->null_value_counts);
    floe__buf_puts(b, ", \"nan_value_counts\": ");
    jlongs(b, &df->nan_value_counts);
    floe__buf_puts(b, ", \"lower_bounds\": ");
    jbounds(b, &df->lower_bounds, ct);
    floe__buf_puts(b, ", \"upper_bounds\": ");
    jbounds(b, &df->upper_bounds, ct);
    floe__buf_puts(b, ", \"key_metadata\": ");
    jopt_bytes(b, &df->key_metadata);
    floe__buf_puts(b, ", \"split_offsets\": ");
    if (df->has_split_offsets) {
        floe__buf_putc(b, '[');
        for (size_t i = 0; i < df->nsplit_offsets; i++)
            floe__buf_printf(b, "%s%" PRId64, i ? ", " : "", df->split_offsets[i]);
        floe__buf_putc(b, ']');
    } else {
        floe__buf_puts(b, "null");
    }
    floe__buf_puts(b, ", \"equality_ids\": ");
    if (df->has_equality_ids) {
        floe__buf_putc(b, '[');
        for (size_t i = 0; i < df->nequality_ids; i++)
            floe__buf_printf(b, "%s%d", i ? ", " : "", (int)df->equality_ids[i]);
        floe__buf_putc(b, ']');
    } else {
        floe__buf_puts(b, "null");
    }
    floe__buf_puts(b, ", \"sort_order_id\": ");
    jopt_i64(b, df->has_sort_order_id, df->sort_order_id);
    if (info->format_version >= 3) {
        floe__buf_puts(b, ", \"first_row_id\": ");
        jopt_i64(b, df->has_first_row_id, df->first_row_id);
    }
    if (info->format_version >= 2) {
        floe__buf_puts(b, ", \"referenced_data_file\": ");
        if (df->referenced_data_file)
            jstr(b, df->referenced_data_file, strlen(df->referenced_data_file));
        else
            floe__buf_puts(b, "null");
    }
    if (info->format_version >= 3) {
        floe__buf_puts(b, ", \"content_offset\": ");
        jopt_i64(b, df->has_content_offset, df->content_offset);
        floe__buf_puts(b, ", \"content_size_in_bytes\": ");
        jopt_i64(b, df->has_content_size_in_bytes, df->content_size_in_bytes);
    }
    floe__buf_puts(b, "}}");
}

static int show_manifest(floe_buf *b, const uint8_t *data, size_t len, const char *path, bool json)
{
    floe_manifest_reader *r;
    FLOE_TRY(floe_manifest_reader_open(&r, data, len, path, NULL));
    const floe_manifest_info *info = floe_manifest_reader_info(r);
    col_types ct = {NULL, 0, 0};
    if (info->schema_json) {
        json_t *j = json_loads(info->schema_json, 0, NULL);
        collect(&ct, j, 0);
        json_decref(j);
    }
    if (json) {
        floe__buf_puts(b, "{\"kind\": \"manifest\", ");
        json_metadata(b, floe_manifest_reader_file(r));
        floe__buf_puts(b, ", \"entries\": [");
    } else {
        floe__buf_printf(b, "manifest, format v%d, %s, partition spec %d\n", info->format_version,
                         info->content ? "deletes" : "data", (int)info->partition_spec_id);
    }
    const floe_manifest_entry *e;
    int rc;
    size_t n = 0;
    while ((rc = floe_manifest_reader_next(r, &e)) == 0) {
        if (json) {
            if (n)
                floe__buf_puts(b, ", ");
            json_entry(b, e, info, &ct);
        } else {
            floe__buf_printf(b, "%-8s %s %s records=%" PRId64 " size=%" PRId64 "\n",
                             status_name(e->status), e->data_file.file_path,
                             e->data_file.file_format, e->data_file.record_count,
                             e->data_file.file_size_in_bytes);
        }
        n++;
    }
    if (json)
        floe__buf_puts(b, "]}\n");
    floe__free(ct.items);
    floe_manifest_reader_free(r);
    return rc == FLOE_ITEROVER ? 0 : rc;
}

int floe_cli_inspect_avro(const char *path, bool json)
{
    uint8_t *data = NULL;
    size_t len = 0;
    if (slurp(path, &data, &len) < 0)
        return cli_fail(NULL);
    floe_avro_file *f;
    int rc = floe_avro_file_open(&f, data, len, path);
    if (rc < 0) {
        floe__free(data);
        return cli_fail(NULL);
    }
    floe_manifest_kind kind = floe_manifest_detect(f);
    floe_buf out = FLOE_BUF_INIT;
    if (kind == FLOE_KIND_MANIFEST_LIST) {
        rc = show_list(&out, data, len, path, json);
    } else if (kind == FLOE_KIND_MANIFEST) {
        rc = show_manifest(&out, data, len, path, json);
    } else {
        /* any other container: header and records as generic JSON */
        floe__buf_puts(&out, json ? "{\"kind\": \"avro\", " : "");
        if (json)
            json_metadata(&out, f);
        floe__buf_puts(&out, json ? ", \"entries\": [" : "");
        floe_avro_cursor c;
        int64_t cnt;
        size_t n = 0;
        while (rc == 0 && (rc = floe_avro_file_next_block(f, &c, &cnt)) == 0)
            for (int64_t i = 0; i < cnt && rc == 0; i++) {
                if (n++)
                    floe__buf_puts(&out, json ? ", " : "\n");
                rc = floe_avro_datum_to_json(&c, f->schema, &out, 0);
            }
        if (rc == FLOE_ITEROVER)
            rc = 0;
        floe__buf_puts(&out, json ? "]}\n" : "\n");
    }
    floe_avro_file_free(f);
    floe__free(data);
    if (rc < 0) {
        floe__buf_free(&out);
        return cli_fail(NULL);
    }
    fwrite(out.ptr ? out.ptr : "", 1, out.len, stdout);
    floe__buf_free(&out);
    return CLI_OK;
}
