/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata_write: TableMetadata -> JSON with the spec's field names
 * (spec "Table Metadata Fields", "Appendix C"), in the order Java's
 * TableMetadataParser uses so files diff cleanly against Java-written ones.
 * Numbers are written with a small integer formatter instead of printf: a
 * table with 10,000 snapshots writes ~100,000 integers per commit.
 */
#include "spec/metadata.h"

#include "spec/spec.h"

#include <string.h>

static int put_i64(floe_buf *b, int64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return floe__buf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

/* ,"key":<int> */
static int field_int(floe_buf *b, const char *key, int64_t v)
{
    FLOE_TRY(floe__buf_puts(b, ",\""));
    FLOE_TRY(floe__buf_puts(b, key));
    FLOE_TRY(floe__buf_puts(b, "\":"));
    return put_i64(b, v);
}

static int field_str(floe_buf *b, const char *key, const char *v)
{
    FLOE_TRY(floe__buf_puts(b, ",\""));
    FLOE_TRY(floe__buf_puts(b, key));
    FLOE_TRY(floe__buf_puts(b, "\":"));
    return floe__json_put_str(b, v);
}

static int put_kv_object(floe_buf *b, const floe_kv *kv, size_t n)
{
    FLOE_TRY(floe__buf_putc(b, '{'));
    for (size_t i = 0; i < n; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(floe__json_put_str(b, kv[i].key));
        FLOE_TRY(floe__buf_putc(b, ':'));
        FLOE_TRY(floe__json_put_str(b, kv[i].value));
    }
    return floe__buf_putc(b, '}');
}

static int put_snapshot(floe_buf *b, const floe_table_metadata *m, const floe_snapshot *s)
{
    FLOE_TRY(floe__buf_puts(b, "{\"snapshot-id\":"));
    FLOE_TRY(put_i64(b, s->snapshot_id));
    if (s->has_parent)
        FLOE_TRY(field_int(b, "parent-snapshot-id", s->parent_snapshot_id));
    if (m->format_version >= 2 || s->sequence_number != 0)
        FLOE_TRY(field_int(b, "sequence-number", s->sequence_number));
    FLOE_TRY(field_int(b, "timestamp-ms", s->timestamp_ms));
    if (s->n_summary) {
        FLOE_TRY(floe__buf_puts(b, ",\"summary\":{"));
        const uint8_t *it = s->summary_packed;
        const char *k, *v;
        for (bool first = true; floe__summary_next(&it, &k, &v); first = false) {
            if (!first)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(floe__json_put_str(b, k));
            FLOE_TRY(floe__buf_putc(b, ':'));
            FLOE_TRY(floe__json_put_str(b, v));
        }
        FLOE_TRY(floe__buf_putc(b, '}'));
    }
    if (s->manifest_list_packed) {
        FLOE_TRY(floe__buf_puts(b, ",\"manifest-list\":"));
        FLOE_TRY(floe__snapshot_manifest_list_json(s, b));
    } else {
        FLOE_TRY(floe__buf_puts(b, ",\"manifests\":["));
        for (size_t i = 0; i < s->n_manifests; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(floe__json_put_str(b, s->manifests[i]));
        }
        FLOE_TRY(floe__buf_putc(b, ']'));
    }
    if (s->has_schema_id)
        FLOE_TRY(field_int(b, "schema-id", s->schema_id));
    if (s->has_first_row_id)
        FLOE_TRY(field_int(b, "first-row-id", s->first_row_id));
    if (s->has_added_rows)
        FLOE_TRY(field_int(b, "added-rows", s->added_rows));
    if (s->key_id)
        FLOE_TRY(field_str(b, "key-id", s->key_id));
    return floe__buf_putc(b, '}');
}

static int put_ref(floe_buf *b, const floe_snapshot_ref *r)
{
    FLOE_TRY(floe__json_put_str(b, r->name));
    FLOE_TRY(floe__buf_puts(b, ":{\"snapshot-id\":"));
    FLOE_TRY(put_i64(b, r->snapshot_id));
    FLOE_TRY(field_str(b, "type", r->type == FLOE_REF_TAG ? "tag" : "branch"));
    if (r->has_min_snapshots_to_keep)
        FLOE_TRY(field_int(b, "min-snapshots-to-keep", r->min_snapshots_to_keep));
    if (r->has_max_snapshot_age_ms)
        FLOE_TRY(field_int(b, "max-snapshot-age-ms", r->max_snapshot_age_ms));
    if (r->has_max_ref_age_ms)
        FLOE_TRY(field_int(b, "max-ref-age-ms", r->max_ref_age_ms));
    return floe__buf_putc(b, '}');
}

static int put_statistics(floe_buf *b, const floe_statistics_file *s)
{
    FLOE_TRY(floe__buf_puts(b, "{\"snapshot-id\":"));
    FLOE_TRY(put_i64(b, s->snapshot_id));
    FLOE_TRY(field_str(b, "statistics-path", s->statistics_path));
    FLOE_TRY(field_int(b, "file-size-in-bytes", s->file_size_in_bytes));
    FLOE_TRY(field_int(b, "file-footer-size-in-bytes", s->file_footer_size_in_bytes));
    if (s->key_metadata)
        FLOE_TRY(field_str(b, "key-metadata", s->key_metadata));
    FLOE_TRY(floe__buf_puts(b, ",\"blob-metadata\":["));
    for (size_t i = 0; i < s->nblobs; i++) {
        const floe_blob_metadata *bm = &s->blob_metadata[i];
        FLOE_TRY(floe__buf_puts(b, i ? ",{\"type\":" : "{\"type\":"));
        FLOE_TRY(floe__json_put_str(b, bm->type));
        FLOE_TRY(field_int(b, "snapshot-id", bm->snapshot_id));
        FLOE_TRY(field_int(b, "sequence-number", bm->sequence_number));
        FLOE_TRY(floe__buf_puts(b, ",\"fields\":["));
        for (size_t k = 0; k < bm->nfields; k++) {
            if (k)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(put_i64(b, bm->fields[k]));
        }
        FLOE_TRY(floe__buf_putc(b, ']'));
        if (bm->nproperties) {
            FLOE_TRY(floe__buf_puts(b, ",\"properties\":"));
            FLOE_TRY(put_kv_object(b, bm->properties, bm->nproperties));
        }
        FLOE_TRY(floe__buf_putc(b, '}'));
    }
    return floe__buf_puts(b, "]}");
}

int floe__metadata_write(const floe_table_metadata *m, floe_buf *b)
{
    const floe_schema *cur = floe__metadata_current_schema(m);
    const floe_partition_spec *spec = floe__metadata_spec(m, m->default_spec_id);
    FLOE_TRY(floe__buf_puts(b, "{\"format-version\":"));
    FLOE_TRY(put_i64(b, m->format_version));
    if (m->table_uuid)
        FLOE_TRY(field_str(b, "table-uuid", m->table_uuid));
    FLOE_TRY(field_str(b, "location", m->location));
    if (m->format_version >= 2)
        FLOE_TRY(field_int(b, "last-sequence-number", m->last_sequence_number));
    FLOE_TRY(field_int(b, "last-updated-ms", m->last_updated_ms));
    FLOE_TRY(field_int(b, "last-column-id", m->last_column_id));
    if (m->format_version == 1 && cur) {
        FLOE_TRY(floe__buf_puts(b, ",\"schema\":"));
        FLOE_TRY(floe__schema_to_json(cur, b));
    }
    FLOE_TRY(field_int(b, "current-schema-id", m->current_schema_id));
    FLOE_TRY(floe__buf_puts(b, ",\"schemas\":["));
    for (size_t i = 0; i < m->nschemas; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(floe__schema_to_json(m->schemas[i], b));
    }
    FLOE_TRY(floe__buf_putc(b, ']'));
    if (m->format_version == 1 && spec) {
        /* the legacy field is the bare field list of the default spec */
        floe_buf tmp = FLOE_BUF_INIT;
        int rc = floe__partition_spec_to_json(spec, &tmp);
        const char *arr = rc == 0 ? strchr(tmp.ptr, '[') : NULL;
        if (arr) {
            rc = floe__buf_puts(b, ",\"partition-spec\":");
            if (rc == 0)
                rc = floe__buf_put(b, arr, strlen(arr) - 1); /* drop the closing '}' */
        }
        floe__buf_free(&tmp);
        FLOE_TRY(rc);
    }
    FLOE_TRY(field_int(b, "default-spec-id", m->default_spec_id));
    FLOE_TRY(floe__buf_puts(b, ",\"partition-specs\":["));
    for (size_t i = 0; i < m->nspecs; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(floe__partition_spec_to_json(m->specs[i], b));
    }
    FLOE_TRY(floe__buf_putc(b, ']'));
    FLOE_TRY(field_int(b, "last-partition-id", m->last_partition_id));
    FLOE_TRY(field_int(b, "default-sort-order-id", m->default_sort_order_id));
    FLOE_TRY(floe__buf_puts(b, ",\"sort-orders\":["));
    for (size_t i = 0; i < m->nsort_orders; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(floe__sort_order_to_json(m->sort_orders[i], b));
    }
    FLOE_TRY(floe__buf_puts(b, "],\"properties\":"));
    FLOE_TRY(put_kv_object(b, m->properties.items, m->properties.n));
    FLOE_TRY(field_int(b, "current-snapshot-id",
                       m->has_current_snapshot ? m->current_snapshot_id : -1));
    FLOE_TRY(floe__buf_puts(b, ",\"refs\":{"));
    for (size_t i = 0; i < m->nrefs; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(put_ref(b, &m->refs[i]));
    }
    FLOE_TRY(floe__buf_puts(b, "},\"snapshots\":["));
    for (size_t i = 0; i < m->nsnapshots; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(put_snapshot(b, m, &m->snapshots[i]));
    }
    FLOE_TRY(floe__buf_puts(b, "],\"statistics\":["));
    for (size_t i = 0; i < m->nstatistics; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(put_statistics(b, &m->statistics[i]));
    }
    FLOE_TRY(floe__buf_puts(b, "],\"partition-statistics\":["));
    for (size_t i = 0; i < m->npartition_statistics; i++) {
        const floe_partition_statistics_file *s = &m->partition_statistics[i];
        FLOE_TRY(floe__buf_puts(b, i ? ",{\"snapshot-id\":" : "{\"snapshot-id\":"));
        FLOE_TRY(put_i64(b, s->snapshot_id));
        FLOE_TRY(field_str(b, "statistics-path", s->statistics_path));
        FLOE_TRY(field_int(b, "file-size-in-bytes", s->file_size_in_bytes));
        FLOE_TRY(floe__buf_putc(b, '}'));
    }
    FLOE_TRY(floe__buf_puts(b, "],\"snapshot-log\":["));
    for (size_t i = 0; i < m->n_snapshot_log; i++) {
        FLOE_TRY(floe__buf_puts(b, i ? ",{\"timestamp-ms\":" : "{\"timestamp-ms\":"));
        FLOE_TRY(put_i64(b, m->snapshot_log[i].timestamp_ms));
        FLOE_TRY(field_int(b, "snapshot-id", m->snapshot_log[i].snapshot_id));
        FLOE_TRY(floe__buf_putc(b, '}'));
    }
    FLOE_TRY(floe__buf_puts(b, "],\"metadata-log\":["));
    for (size_t i = 0; i < m->n_metadata_log; i++) {
        FLOE_TRY(floe__buf_puts(b, i ? ",{\"timestamp-ms\":" : "{\"timestamp-ms\":"));
        FLOE_TRY(put_i64(b, m->metadata_log[i].timestamp_ms));
        FLOE_TRY(field_str(b, "metadata-file", m->metadata_log[i].metadata_file));
        FLOE_TRY(floe__buf_putc(b, '}'));
    }
    FLOE_TRY(floe__buf_putc(b, ']'));
    if (m->has_next_row_id)
        FLOE_TRY(field_int(b, "next-row-id", m->next_row_id));
    return floe__buf_putc(b, '}');
}
