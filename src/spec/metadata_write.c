/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata_write: TableMetadata -> JSON with the spec's field names
 * (spec "Table Metadata Fields", "Appendix C"), in the order Java's
 * TableMetadataParser uses so files diff cleanly against Java-written ones.
 * Written with util/json_writer; the snapshot, ref and statistics
 * emitters are shared with the REST commit serializer (spec/commit.c).
 */
#include "spec/metadata.h"

#include "spec/spec.h"

#include <string.h>

#define TRY FLOE_TRY

int floe__snapshot_write(floe_jw *w, const floe_snapshot *s, int format_version, bool rest)
{
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kint(w, "snapshot-id", s->snapshot_id));
    if (s->has_parent)
        TRY(floe__jw_kint(w, "parent-snapshot-id", s->parent_snapshot_id));
    if (format_version == 0 || format_version >= 2 || s->sequence_number != 0)
        TRY(floe__jw_kint(w, "sequence-number", s->sequence_number));
    TRY(floe__jw_kint(w, "timestamp-ms", s->timestamp_ms));
    if (s->n_summary || rest) {
        TRY(floe__jw_key(w, "summary"));
        TRY(floe__jw_obj(w));
        const uint8_t *it = s->summary_packed;
        const char *k, *v;
        bool any = false;
        while (floe__summary_next(&it, &k, &v)) {
            TRY(floe__jw_kstr(w, k, v));
            any = true;
        }
        if (!any) /* the REST model requires summary.operation */
            TRY(floe__jw_kstr(w, "operation", "append"));
        TRY(floe__jw_obj_end(w));
    }
    if (s->manifest_list_packed) {
        TRY(floe__jw_key(w, "manifest-list"));
        TRY(floe__jw_begin_raw(w));
        TRY(floe__snapshot_manifest_list_json(s, w->out));
    } else if (!rest) {
        TRY(floe__jw_key(w, "manifests"));
        TRY(floe__jw_arr(w));
        for (size_t i = 0; i < s->n_manifests; i++)
            TRY(floe__jw_str(w, s->manifests[i]));
        TRY(floe__jw_arr_end(w));
    }
    if (s->has_schema_id)
        TRY(floe__jw_kint(w, "schema-id", s->schema_id));
    if (s->has_first_row_id)
        TRY(floe__jw_kint(w, "first-row-id", s->first_row_id));
    if (s->has_added_rows)
        TRY(floe__jw_kint(w, "added-rows", s->added_rows));
    if (s->key_id)
        TRY(floe__jw_kstr(w, "key-id", s->key_id));
    return floe__jw_obj_end(w);
}

int floe__ref_fields_write(floe_jw *w, const floe_snapshot_ref *r)
{
    TRY(floe__jw_kint(w, "snapshot-id", r->snapshot_id));
    TRY(floe__jw_kstr(w, "type", r->type == FLOE_REF_TAG ? "tag" : "branch"));
    if (r->has_min_snapshots_to_keep)
        TRY(floe__jw_kint(w, "min-snapshots-to-keep", r->min_snapshots_to_keep));
    if (r->has_max_snapshot_age_ms)
        TRY(floe__jw_kint(w, "max-snapshot-age-ms", r->max_snapshot_age_ms));
    if (r->has_max_ref_age_ms)
        TRY(floe__jw_kint(w, "max-ref-age-ms", r->max_ref_age_ms));
    return 0;
}

int floe__statistics_write(floe_jw *w, const floe_statistics_file *s)
{
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kint(w, "snapshot-id", s->snapshot_id));
    TRY(floe__jw_kstr(w, "statistics-path", s->statistics_path));
    TRY(floe__jw_kint(w, "file-size-in-bytes", s->file_size_in_bytes));
    TRY(floe__jw_kint(w, "file-footer-size-in-bytes", s->file_footer_size_in_bytes));
    if (s->key_metadata)
        TRY(floe__jw_kstr(w, "key-metadata", s->key_metadata));
    TRY(floe__jw_key(w, "blob-metadata"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < s->nblobs; i++) {
        const floe_blob_metadata *bm = &s->blob_metadata[i];
        TRY(floe__jw_obj(w));
        TRY(floe__jw_kstr(w, "type", bm->type));
        TRY(floe__jw_kint(w, "snapshot-id", bm->snapshot_id));
        TRY(floe__jw_kint(w, "sequence-number", bm->sequence_number));
        TRY(floe__jw_key(w, "fields"));
        TRY(floe__jw_arr(w));
        for (size_t k = 0; k < bm->nfields; k++)
            TRY(floe__jw_int(w, bm->fields[k]));
        TRY(floe__jw_arr_end(w));
        if (bm->nproperties) {
            TRY(floe__jw_key(w, "properties"));
            TRY(floe__jw_kv_object(w, bm->properties, bm->nproperties));
        }
        TRY(floe__jw_obj_end(w));
    }
    TRY(floe__jw_arr_end(w));
    return floe__jw_obj_end(w);
}

int floe__partition_statistics_write(floe_jw *w, const floe_partition_statistics_file *s)
{
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kint(w, "snapshot-id", s->snapshot_id));
    TRY(floe__jw_kstr(w, "statistics-path", s->statistics_path));
    TRY(floe__jw_kint(w, "file-size-in-bytes", s->file_size_in_bytes));
    return floe__jw_obj_end(w);
}

/* A buffer emitter (schema, spec, sort order) as one value of `w`. */
static int raw_value(floe_jw *w, int (*fn)(const void *, floe_buf *), const void *obj)
{
    TRY(floe__jw_begin_raw(w));
    int rc = fn(obj, w->out);
    if (rc < 0 && !w->err)
        w->err = rc;
    return rc;
}

static int schema_fn(const void *o, floe_buf *b) { return floe__schema_to_json(o, b); }
static int spec_fn(const void *o, floe_buf *b) { return floe__partition_spec_to_json(o, b); }
static int order_fn(const void *o, floe_buf *b) { return floe__sort_order_to_json(o, b); }

int floe__schema_write(floe_jw *w, const floe_schema *s) { return raw_value(w, schema_fn, s); }
int floe__partition_spec_write(floe_jw *w, const floe_partition_spec *s)
{
    return raw_value(w, spec_fn, s);
}
int floe__sort_order_write(floe_jw *w, const floe_sort_order *o) { return raw_value(w, order_fn, o); }

/* The legacy v1 `partition-spec`: the bare field list of the default spec. */
static int legacy_spec(floe_jw *w, const floe_partition_spec *spec)
{
    floe_buf tmp = FLOE_BUF_INIT;
    int rc = floe__partition_spec_to_json(spec, &tmp);
    const char *arr = rc == 0 ? strchr(tmp.ptr, '[') : NULL;
    if (arr) {
        rc = floe__jw_key(w, "partition-spec");
        if (rc == 0)
            rc = floe__jw_raw(w, arr, strlen(arr) - 1); /* drop the closing '}' */
    }
    floe__buf_free(&tmp);
    return rc;
}

int floe__metadata_write(const floe_table_metadata *m, floe_buf *b)
{
    const floe_schema *cur = floe__metadata_current_schema(m);
    const floe_partition_spec *spec = floe__metadata_spec(m, m->default_spec_id);
    floe_jw jw, *w = &jw;
    floe__jw_init(w, b);
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kint(w, "format-version", m->format_version));
    if (m->table_uuid)
        TRY(floe__jw_kstr(w, "table-uuid", m->table_uuid));
    TRY(floe__jw_kstr(w, "location", m->location));
    if (m->format_version >= 2)
        TRY(floe__jw_kint(w, "last-sequence-number", m->last_sequence_number));
    TRY(floe__jw_kint(w, "last-updated-ms", m->last_updated_ms));
    TRY(floe__jw_kint(w, "last-column-id", m->last_column_id));
    if (m->format_version == 1 && cur) {
        TRY(floe__jw_key(w, "schema"));
        TRY(floe__schema_write(w, cur));
    }
    TRY(floe__jw_kint(w, "current-schema-id", m->current_schema_id));
    TRY(floe__jw_key(w, "schemas"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nschemas; i++)
        TRY(floe__schema_write(w, m->schemas[i]));
    TRY(floe__jw_arr_end(w));
    if (m->format_version == 1 && spec)
        TRY(legacy_spec(w, spec));
    TRY(floe__jw_kint(w, "default-spec-id", m->default_spec_id));
    TRY(floe__jw_key(w, "partition-specs"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nspecs; i++)
        TRY(floe__partition_spec_write(w, m->specs[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_kint(w, "last-partition-id", m->last_partition_id));
    TRY(floe__jw_kint(w, "default-sort-order-id", m->default_sort_order_id));
    TRY(floe__jw_key(w, "sort-orders"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nsort_orders; i++)
        TRY(floe__sort_order_write(w, m->sort_orders[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "properties"));
    TRY(floe__jw_kv_object(w, m->properties.items, m->properties.n));
    TRY(floe__jw_kint(w, "current-snapshot-id",
                      m->has_current_snapshot ? m->current_snapshot_id : -1));
    TRY(floe__jw_key(w, "refs"));
    TRY(floe__jw_obj(w));
    for (size_t i = 0; i < m->nrefs; i++) {
        TRY(floe__jw_key(w, m->refs[i].name));
        TRY(floe__jw_obj(w));
        TRY(floe__ref_fields_write(w, &m->refs[i]));
        TRY(floe__jw_obj_end(w));
    }
    TRY(floe__jw_obj_end(w));
    TRY(floe__jw_key(w, "snapshots"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nsnapshots; i++)
        TRY(floe__snapshot_write(w, &m->snapshots[i], m->format_version < 2 ? 1 : 2, false));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "statistics"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nstatistics; i++)
        TRY(floe__statistics_write(w, &m->statistics[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "partition-statistics"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->npartition_statistics; i++)
        TRY(floe__partition_statistics_write(w, &m->partition_statistics[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "snapshot-log"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->n_snapshot_log; i++) {
        TRY(floe__jw_obj(w));
        TRY(floe__jw_kint(w, "timestamp-ms", m->snapshot_log[i].timestamp_ms));
        TRY(floe__jw_kint(w, "snapshot-id", m->snapshot_log[i].snapshot_id));
        TRY(floe__jw_obj_end(w));
    }
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "metadata-log"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->n_metadata_log; i++) {
        TRY(floe__jw_obj(w));
        TRY(floe__jw_kint(w, "timestamp-ms", m->metadata_log[i].timestamp_ms));
        TRY(floe__jw_kstr(w, "metadata-file", m->metadata_log[i].metadata_file));
        TRY(floe__jw_obj_end(w));
    }
    TRY(floe__jw_arr_end(w));
    if (m->has_next_row_id)
        TRY(floe__jw_kint(w, "next-row-id", m->next_row_id));
    TRY(floe__jw_obj_end(w));
    return floe__jw_finish(w);
}
