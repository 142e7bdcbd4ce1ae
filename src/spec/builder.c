/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/builder: the next TableMetadata of a commit, built by applying the
 * REST TableCommit update kinds (spec "Table Metadata", "Snapshot
 * References"; REST catalog OpenAPI `TableUpdate`) to a base, with the
 * bookkeeping Java's TableMetadata.Builder does: last-sequence-number,
 * last-column-id, last-partition-id, next-row-id, the snapshot-log when
 * `main` moves and the metadata-log with write.metadata.previous-versions-max.
 *
 * The builder starts from a deep copy of the parsed base (metadata_copy.c;
 * no JSON round trip). Updates then replace arrays inside the copy's arena
 * (arenas do not free, so a builder's memory grows with the number of
 * updates, which is small).
 */
#include "spec/metadata.h"

#include "spec/spec.h"

#include <stdio.h>
#include <string.h>

#define LOG_TS_PENDING INT64_MIN /* snapshot-log time filled in at build */

struct floe_metadata_builder {
    floe_table_metadata *m;
    char *base_location;
    int64_t base_last_updated_ms;
    bool has_last_schema, has_last_spec, has_last_order;
    int32_t last_schema, last_spec, last_order;
    bool snapshot_added;
    int64_t added_timestamp_ms;
};

static int bad(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__verror(FLOE_EINVALID, "metadata", fmt, ap);
    va_end(ap);
    return rc;
}

static void *grow(floe_arena *a, const void *old, size_t n, size_t size)
{
    void *p = floe__arena_alloc(a, (n + 1) * size);
    if (p && n)
        memcpy(p, old, n * size);
    return p;
}

/* ref_by_name points into m->refs: rebuilt whenever refs change. */
static int index_refs(floe_table_metadata *m)
{
    floe_strmap *by_name = floe__strmap_new();
    if (!by_name)
        return floe__error_nomem();
    for (size_t i = 0; i < m->nrefs; i++)
        if (floe__strmap_put(by_name, m->refs[i].name, &m->refs[i]) < 0) {
            floe__strmap_free(by_name);
            return floe__error_nomem();
        }
    floe__strmap_free(m->ref_by_name);
    m->ref_by_name = by_name;
    return 0;
}

static int reindex(floe_table_metadata *m)
{
    FLOE_TRY(floe__metadata_index_snapshots(m));
    return index_refs(m);
}

/* The snapshot just appended at the end of m->snapshots joins the sorted id
 * index (its id is known to be new): one insertion, not a sort of 10,000. */
static int index_added_snapshot(floe_table_metadata *m)
{
    size_t n = m->nsnapshots, k = n - 1;
    if (n > UINT32_MAX)
        return bad("too many snapshots");
    uint32_t *o = floe__realloc(m->snapshot_order, n * sizeof *o);
    if (!o)
        return floe__error_nomem();
    m->snapshot_order = o;
    int64_t id = m->snapshots[k].snapshot_id;
    size_t lo = 0, hi = k;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->snapshots[o[mid]].snapshot_id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(&o[lo + 1], &o[lo], (k - lo) * sizeof *o);
    o[lo] = (uint32_t)k;
    return 0;
}

int floe__metadata_builder_new(floe_metadata_builder **out, const floe_table_metadata *base,
                               const char *base_location)
{
    *out = NULL;
    if (!base)
        return bad("a metadata builder needs a base table metadata");
    floe_metadata_builder *b = floe__calloc(1, sizeof *b);
    if (!b)
        return floe__error_nomem();
    int rc = floe__metadata_copy(&b->m, base);
    if (rc == 0 && base_location && !(b->base_location = floe__strdup(base_location)))
        rc = floe__error_nomem();
    if (rc < 0) {
        floe__metadata_builder_free(b);
        return rc;
    }
    b->base_last_updated_ms = base->last_updated_ms;
    *out = b;
    return 0;
}

void floe__metadata_builder_free(floe_metadata_builder *b)
{
    if (!b)
        return;
    floe__metadata_free(b->m);
    floe__free(b->base_location);
    floe__free(b);
}

const floe_table_metadata *floe__metadata_builder_peek(const floe_metadata_builder *b)
{
    return b->m;
}

/* ---------------------------------------------------------------- snapshots and refs */

static const char *dup(floe_arena *a, const char *s)
{
    return s ? floe__arena_strdup(a, s) : NULL;
}

int floe__mb_add_snapshot(floe_metadata_builder *b, const floe_snapshot *s)
{
    floe_table_metadata *m = b->m;
    if (floe__metadata_snapshot(m, s->snapshot_id))
        return bad("Snapshot already exists for id: %lld", (long long)s->snapshot_id);
    if (m->format_version >= 2) {
        if (!s->manifest_list_packed)
            return bad("cannot add snapshot %lld: missing manifest-list", (long long)s->snapshot_id);
        if (!s->operation)
            return bad("cannot add snapshot %lld: missing summary.operation",
                       (long long)s->snapshot_id);
        if (s->sequence_number <= m->last_sequence_number && s->has_parent)
            return bad("Cannot add snapshot with sequence number %lld older than last sequence "
                       "number %lld",
                       (long long)s->sequence_number, (long long)m->last_sequence_number);
    }
    if (m->format_version >= 3) {
        if (!s->has_first_row_id || !s->has_added_rows)
            return bad("cannot add snapshot %lld: v3 snapshots need first-row-id and added-rows",
                       (long long)s->snapshot_id);
        if (s->first_row_id < m->next_row_id)
            return bad("cannot add snapshot %lld: first-row-id %lld is behind next-row-id %lld",
                       (long long)s->snapshot_id, (long long)s->first_row_id,
                       (long long)m->next_row_id);
    }
    floe_snapshot copy;
    FLOE_TRY(floe__snapshot_copy(&copy, s, m->arena));
    floe_snapshot *arr = floe__realloc(m->snapshots, (m->nsnapshots + 1) * sizeof *arr);
    if (!arr)
        return floe__error_nomem();
    arr[m->nsnapshots] = copy;
    m->snapshots = arr;
    m->nsnapshots++;
    if (s->sequence_number > m->last_sequence_number)
        m->last_sequence_number = s->sequence_number;
    if (m->format_version >= 3) {
        m->next_row_id = s->first_row_id + s->added_rows;
        m->has_next_row_id = true;
    }
    b->snapshot_added = true;
    b->added_timestamp_ms = s->timestamp_ms;
    return index_added_snapshot(m);
}

int floe__mb_set_snapshot_ref(floe_metadata_builder *b, const floe_snapshot_ref *ref)
{
    floe_table_metadata *m = b->m;
    if (!ref->name || !*ref->name)
        return bad("a ref needs a name");
    if (!floe__metadata_snapshot(m, ref->snapshot_id))
        return bad("Cannot set %s to unknown snapshot: %lld", ref->name, (long long)ref->snapshot_id);
    if (ref->type == FLOE_REF_TAG &&
        (ref->has_min_snapshots_to_keep || ref->has_max_snapshot_age_ms))
        return bad("tags do not support setting minSnapshotsToKeep or maxSnapshotAgeMs (ref %s)",
                   ref->name);
    bool is_main = strcmp(ref->name, "main") == 0;
    if (is_main && ref->type != FLOE_REF_BRANCH)
        return bad("the main ref must be a branch");
    floe_snapshot_ref copy = *ref;
    if (!(copy.name = dup(m->arena, ref->name)))
        return floe__error_nomem();
    const floe_snapshot_ref *old = floe__metadata_ref(m, ref->name);
    bool moved = !old || old->snapshot_id != ref->snapshot_id;
    if (old) {
        m->refs[old - m->refs] = copy;
    } else {
        floe_snapshot_ref *arr = grow(m->arena, m->refs, m->nrefs, sizeof *arr);
        if (!arr)
            return floe__error_nomem();
        arr[m->nrefs] = copy;
        m->refs = arr;
        m->nrefs++;
    }
    if (is_main && moved) {
        m->current_snapshot_id = ref->snapshot_id;
        m->has_current_snapshot = true;
        floe_snapshot_log_entry *log =
            floe__realloc(m->snapshot_log, (m->n_snapshot_log + 1) * sizeof *log);
        if (!log)
            return floe__error_nomem();
        log[m->n_snapshot_log].snapshot_id = ref->snapshot_id;
        log[m->n_snapshot_log].timestamp_ms =
            b->snapshot_added ? b->added_timestamp_ms : LOG_TS_PENDING;
        m->snapshot_log = log;
        m->n_snapshot_log++;
    }
    return index_refs(m);
}

int floe__mb_remove_snapshot_ref(floe_metadata_builder *b, const char *name)
{
    floe_table_metadata *m = b->m;
    const floe_snapshot_ref *r = floe__metadata_ref(m, name);
    if (!r)
        return 0; /* removing a missing ref is a no-op, as in Java */
    size_t i = (size_t)(r - m->refs);
    memmove(&m->refs[i], &m->refs[i + 1], (m->nrefs - i - 1) * sizeof *m->refs);
    m->nrefs--;
    if (strcmp(name, "main") == 0)
        m->has_current_snapshot = false;
    return index_refs(m);
}

static bool in_ids(int64_t id, const int64_t *ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

int floe__mb_remove_snapshots(floe_metadata_builder *b, const int64_t *ids, size_t n)
{
    floe_table_metadata *m = b->m;
    size_t k = 0;
    for (size_t i = 0; i < m->nsnapshots; i++)
        if (!in_ids(m->snapshots[i].snapshot_id, ids, n))
            m->snapshots[k++] = m->snapshots[i];
    m->nsnapshots = k;
    /* refs to removed snapshots go too (Java removes them the same way) */
    k = 0;
    for (size_t i = 0; i < m->nrefs; i++) {
        if (!in_ids(m->refs[i].snapshot_id, ids, n))
            m->refs[k++] = m->refs[i];
        else if (strcmp(m->refs[i].name, "main") == 0)
            m->has_current_snapshot = false;
    }
    m->nrefs = k;
    k = 0;
    for (size_t i = 0; i < m->nstatistics; i++)
        if (!in_ids(m->statistics[i].snapshot_id, ids, n))
            m->statistics[k++] = m->statistics[i];
    m->nstatistics = k;
    k = 0;
    for (size_t i = 0; i < m->npartition_statistics; i++)
        if (!in_ids(m->partition_statistics[i].snapshot_id, ids, n))
            m->partition_statistics[k++] = m->partition_statistics[i];
    m->npartition_statistics = k;
    return reindex(m);
}

/* ---------------------------------------------------------------- properties, location */

int floe__mb_set_properties(floe_metadata_builder *b, const floe_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        FLOE_TRY(floe__props_set(&b->m->properties, kv[i].key, kv[i].value));
    return 0;
}

int floe__mb_remove_properties(floe_metadata_builder *b, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        floe__props_del(&b->m->properties, keys[i]);
    return 0;
}

int floe__mb_set_location(floe_metadata_builder *b, const char *location)
{
    if (!location || !*location)
        return bad("the table location cannot be empty");
    const char *c = dup(b->m->arena, location);
    if (!c)
        return floe__error_nomem();
    b->m->location = c;
    return 0;
}

/* ---------------------------------------------------------------- schemas, specs, orders */

int floe__mb_remove_schemas(floe_metadata_builder *b, const int64_t *ids, size_t n)
{
    floe_table_metadata *m = b->m;
    if (in_ids(m->current_schema_id, ids, n))
        return bad("Cannot remove the current schema");
    size_t k = 0;
    for (size_t i = 0; i < m->nschemas; i++) {
        if (in_ids(m->schemas[i]->schema_id, ids, n))
            floe__schema_release(m->schemas[i]); /* its lookup maps; the schema is the arena's */
        else
            m->schemas[k++] = m->schemas[i];
    }
    m->nschemas = k;
    return 0;
}

int floe__mb_remove_specs(floe_metadata_builder *b, const int64_t *ids, size_t n)
{
    floe_table_metadata *m = b->m;
    if (in_ids(m->default_spec_id, ids, n))
        return bad("Cannot remove the default partition spec");
    size_t k = 0;
    for (size_t i = 0; i < m->nspecs; i++)
        if (!in_ids(m->specs[i]->spec_id, ids, n))
            m->specs[k++] = m->specs[i];
    m->nspecs = k;
    return 0;
}

int floe__mb_add_schema(floe_metadata_builder *b, const floe_schema *s, int32_t *schema_id)
{
    floe_table_metadata *m = b->m;
    int32_t id = 0;
    for (size_t i = 0; i < m->nschemas; i++)
        if (m->schemas[i]->schema_id >= id)
            id = m->schemas[i]->schema_id + 1;
    floe_schema **arr = grow(m->arena, m->schemas, m->nschemas, sizeof(floe_schema *));
    if (!arr)
        return floe__error_nomem();
    FLOE_TRY(floe__schema_check_format(s, m->format_version));
    floe_schema *copy = NULL;
    FLOE_TRY(floe__schema_copy(&copy, s, m->arena));
    copy->schema_id = id;
    arr[m->nschemas] = copy;
    m->schemas = arr;
    m->nschemas++;
    if (copy->highest_field_id > m->last_column_id)
        m->last_column_id = copy->highest_field_id;
    b->has_last_schema = true;
    b->last_schema = id;
    if (schema_id)
        *schema_id = id;
    return 0;
}

int floe__mb_set_current_schema(floe_metadata_builder *b, int32_t id)
{
    if (id == -1) {
        if (!b->has_last_schema)
            return bad("Cannot set last added schema: no schema has been added");
        id = b->last_schema;
    }
    if (!floe__metadata_schema(b->m, id))
        return bad("Cannot set current schema to unknown schema: %d", (int)id);
    b->m->current_schema_id = id;
    return 0;
}

int floe__mb_add_spec(floe_metadata_builder *b, const floe_partition_spec *spec, int32_t *spec_id)
{
    floe_table_metadata *m = b->m;
    int32_t id = 0;
    for (size_t i = 0; i < m->nspecs; i++)
        if (m->specs[i]->spec_id >= id)
            id = m->specs[i]->spec_id + 1;
    floe_partition_spec **arr = grow(m->arena, m->specs, m->nspecs, sizeof(floe_partition_spec *));
    if (!arr)
        return floe__error_nomem();
    floe_partition_spec *copy = NULL;
    FLOE_TRY(floe__partition_spec_copy(&copy, spec, m->arena));
    copy->spec_id = id;
    arr[m->nspecs] = copy;
    m->specs = arr;
    m->nspecs++;
    for (size_t i = 0; i < copy->nfields; i++)
        if (copy->fields[i].field_id > m->last_partition_id)
            m->last_partition_id = copy->fields[i].field_id;
    b->has_last_spec = true;
    b->last_spec = id;
    if (spec_id)
        *spec_id = id;
    return 0;
}

int floe__mb_set_default_spec(floe_metadata_builder *b, int32_t id)
{
    if (id == -1) {
        if (!b->has_last_spec)
            return bad("Cannot set last added spec: no spec has been added");
        id = b->last_spec;
    }
    if (!floe__metadata_spec(b->m, id))
        return bad("Cannot set default partition spec to unknown spec: %d", (int)id);
    b->m->default_spec_id = id;
    return 0;
}

int floe__mb_add_sort_order(floe_metadata_builder *b, const floe_sort_order *o, int32_t *order_id)
{
    floe_table_metadata *m = b->m;
    int32_t id = 0; /* the unsorted order is always 0 */
    if (o->nfields == 0 && floe__metadata_sort_order(m, 0)) {
        b->has_last_order = true;
        b->last_order = 0;
        if (order_id)
            *order_id = 0;
        return 0;
    }
    if (o->nfields) {
        id = 1;
        for (size_t i = 0; i < m->nsort_orders; i++)
            if (m->sort_orders[i]->order_id >= id)
                id = m->sort_orders[i]->order_id + 1;
    }
    floe_sort_order **arr =
        grow(m->arena, m->sort_orders, m->nsort_orders, sizeof(floe_sort_order *));
    if (!arr)
        return floe__error_nomem();
    floe_sort_order *copy = NULL;
    FLOE_TRY(floe__sort_order_copy(&copy, o, m->arena));
    copy->order_id = id;
    arr[m->nsort_orders] = copy;
    m->sort_orders = arr;
    m->nsort_orders++;
    b->has_last_order = true;
    b->last_order = id;
    if (order_id)
        *order_id = id;
    return 0;
}

int floe__mb_set_default_sort_order(floe_metadata_builder *b, int32_t id)
{
    if (id == -1) {
        if (!b->has_last_order)
            return bad("Cannot set last added sort order: no sort order has been added");
        id = b->last_order;
    }
    if (!floe__metadata_sort_order(b->m, id))
        return bad("Cannot set default sort order to unknown order: %d", (int)id);
    b->m->default_sort_order_id = id;
    return 0;
}

/* ---------------------------------------------------------------- statistics */

int floe__mb_set_statistics(floe_metadata_builder *b, const floe_statistics_file *st)
{
    floe_table_metadata *m = b->m;
    floe_arena *a = m->arena;
    floe_statistics_file c;
    FLOE_TRY(floe__statistics_copy(&c, st, a));
    for (size_t i = 0; i < m->nstatistics; i++) {
        if (m->statistics[i].snapshot_id == st->snapshot_id) {
            m->statistics[i] = c;
            return 0;
        }
    }
    floe_statistics_file *arr = grow(a, m->statistics, m->nstatistics, sizeof *arr);
    if (!arr)
        return floe__error_nomem();
    arr[m->nstatistics] = c;
    m->statistics = arr;
    m->nstatistics++;
    return 0;
}

int floe__mb_remove_statistics(floe_metadata_builder *b, int64_t snapshot_id)
{
    floe_table_metadata *m = b->m;
    size_t k = 0;
    for (size_t i = 0; i < m->nstatistics; i++)
        if (m->statistics[i].snapshot_id != snapshot_id)
            m->statistics[k++] = m->statistics[i];
    m->nstatistics = k;
    return 0;
}

int floe__mb_set_partition_statistics(floe_metadata_builder *b,
                                      const floe_partition_statistics_file *st)
{
    floe_table_metadata *m = b->m;
    floe_partition_statistics_file c;
    FLOE_TRY(floe__partition_statistics_copy(&c, st, m->arena));
    for (size_t i = 0; i < m->npartition_statistics; i++) {
        if (m->partition_statistics[i].snapshot_id == st->snapshot_id) {
            m->partition_statistics[i] = c;
            return 0;
        }
    }
    floe_partition_statistics_file *arr =
        grow(m->arena, m->partition_statistics, m->npartition_statistics, sizeof *arr);
    if (!arr)
        return floe__error_nomem();
    arr[m->npartition_statistics] = c;
    m->partition_statistics = arr;
    m->npartition_statistics++;
    return 0;
}

int floe__mb_remove_partition_statistics(floe_metadata_builder *b, int64_t snapshot_id)
{
    floe_table_metadata *m = b->m;
    size_t k = 0;
    for (size_t i = 0; i < m->npartition_statistics; i++)
        if (m->partition_statistics[i].snapshot_id != snapshot_id)
            m->partition_statistics[k++] = m->partition_statistics[i];
    m->npartition_statistics = k;
    return 0;
}

/* ---------------------------------------------------------------- version and uuid */

int floe__mb_upgrade_format_version(floe_metadata_builder *b, int format_version)
{
    floe_table_metadata *m = b->m;
    if (format_version > FLOE_MAX_FORMAT_VERSION)
        return bad("Cannot upgrade table to unsupported format version: v%d (supported: v%d)",
                   format_version, FLOE_MAX_FORMAT_VERSION);
    if (format_version < m->format_version)
        return bad("Cannot downgrade v%d table to v%d", m->format_version, format_version);
    if (format_version == m->format_version)
        return 0;
    if (format_version >= 3 && !m->has_next_row_id) {
        /* spec Appendix E, row lineage: "When a table is upgraded to v3,
         * next_row_id should be initialized to 0" */
        m->has_next_row_id = true;
        m->next_row_id = 0;
    }
    m->format_version = format_version;
    return 0;
}

int floe__mb_assign_uuid(floe_metadata_builder *b, const char *uuid)
{
    if (!uuid || !*uuid)
        return bad("Cannot set uuid to null");
    const char *c = dup(b->m->arena, uuid);
    if (!c)
        return floe__error_nomem();
    b->m->table_uuid = c;
    return 0;
}

/* ---------------------------------------------------------------- build */

int floe__metadata_builder_build(floe_metadata_builder *b, int64_t now_ms,
                                 floe_table_metadata **out)
{
    *out = NULL;
    floe_table_metadata *m = b->m;
    if (!m)
        return bad("metadata builder already built");
    /* checked before anything changes, so the caller may fix it and retry */
    if (m->format_version >= 2 && !m->table_uuid)
        return bad("UUID is required in format v%d", m->format_version);
    m->last_updated_ms = b->snapshot_added ? b->added_timestamp_ms : now_ms;
    if (m->last_updated_ms < b->base_last_updated_ms)
        m->last_updated_ms = now_ms;
    /* snapshot-log: pending times, then drop history before any entry whose
     * snapshot no longer exists (Java's updateSnapshotLog) */
    size_t k = 0;
    for (size_t i = 0; i < m->n_snapshot_log; i++) {
        floe_snapshot_log_entry e = m->snapshot_log[i];
        if (e.timestamp_ms == LOG_TS_PENDING)
            e.timestamp_ms = m->last_updated_ms;
        if (floe__metadata_snapshot(m, e.snapshot_id))
            m->snapshot_log[k++] = e;
        else
            k = 0;
    }
    m->n_snapshot_log = k;
    if (b->base_location) {
        floe_metadata_log_entry *log =
            grow(m->arena, m->metadata_log, m->n_metadata_log, sizeof *log);
        if (!log)
            return floe__error_nomem();
        log[m->n_metadata_log].timestamp_ms = b->base_last_updated_ms;
        if (!(log[m->n_metadata_log].metadata_file = dup(m->arena, b->base_location)))
            return floe__error_nomem();
        m->metadata_log = log;
        m->n_metadata_log++;
        int64_t max;
        FLOE_TRY(floe__props_get_int64(&m->properties, "write.metadata.previous-versions-max",
                                       100, &max));
        if (max < 1)
            max = 1;
        if (m->n_metadata_log > (size_t)max) {
            size_t drop = m->n_metadata_log - (size_t)max;
            m->metadata_log += drop;
            m->n_metadata_log = (size_t)max;
        }
    }
    if (m->has_current_snapshot && !floe__metadata_snapshot(m, m->current_snapshot_id))
        return bad("current snapshot %lld is not in snapshots", (long long)m->current_snapshot_id);
    *out = m;
    b->m = NULL;
    return 0;
}

/* ---------------------------------------------------------------- new tables */

static int new_table_json(floe_buf *out, const floe_schema *s0, const floe_partition_spec *p0,
                          const floe_sort_order *o, int32_t last_pid, const char *uuid,
                          const char *location, const floe_props *properties,
                          int format_version, int64_t now_ms)
{
    floe_jw jw, *w = &jw;
    floe__jw_init(w, out);
    FLOE_TRY(floe__jw_obj(w));
    FLOE_TRY(floe__jw_kint(w, "format-version", format_version));
    FLOE_TRY(floe__jw_kstr(w, "table-uuid", uuid));
    FLOE_TRY(floe__jw_kstr(w, "location", location));
    FLOE_TRY(floe__jw_kint(w, "last-sequence-number", 0));
    FLOE_TRY(floe__jw_kint(w, "last-updated-ms", now_ms));
    FLOE_TRY(floe__jw_kint(w, "last-column-id", s0->highest_field_id));
    FLOE_TRY(floe__jw_kint(w, "current-schema-id", 0));
    FLOE_TRY(floe__jw_key(w, "schemas"));
    FLOE_TRY(floe__jw_arr(w));
    FLOE_TRY(floe__schema_write(w, s0));
    FLOE_TRY(floe__jw_arr_end(w));
    FLOE_TRY(floe__jw_kint(w, "default-spec-id", 0));
    FLOE_TRY(floe__jw_key(w, "partition-specs"));
    FLOE_TRY(floe__jw_arr(w));
    FLOE_TRY(floe__partition_spec_write(w, p0));
    FLOE_TRY(floe__jw_arr_end(w));
    FLOE_TRY(floe__jw_kint(w, "last-partition-id", last_pid));
    FLOE_TRY(floe__jw_kint(w, "default-sort-order-id", o->order_id));
    FLOE_TRY(floe__jw_key(w, "sort-orders"));
    FLOE_TRY(floe__jw_arr(w));
    FLOE_TRY(floe__sort_order_write(w, o));
    FLOE_TRY(floe__jw_arr_end(w));
    FLOE_TRY(floe__jw_key(w, "properties"));
    FLOE_TRY(floe__jw_kv_object(w, properties ? properties->items : NULL,
                                properties ? properties->n : 0));
    if (format_version >= 3)
        FLOE_TRY(floe__jw_kint(w, "next-row-id", 0));
    FLOE_TRY(floe__jw_obj_end(w));
    return floe__jw_finish(w);
}

int floe__metadata_new(floe_table_metadata **out, const floe_schema *schema,
                       const floe_partition_spec *spec, const floe_sort_order *order,
                       const char *location, const floe_props *properties, int format_version,
                       int64_t now_ms)
{
    *out = NULL;
    if (!location || !*location)
        return bad("a new table needs a location");
    if (format_version < 2 || format_version > FLOE_MAX_FORMAT_VERSION)
        return floe__error(FLOE_EUNSUPPORTED, "metadata",
                           "cannot create a table with format version %d", format_version);
    FLOE_TRY(floe__schema_check_format(schema, format_version));
    char uuid[37];
    FLOE_TRY(floe__uuid4(uuid));
    /* Built as JSON and parsed: the reader then validates it like any file. */
    floe_schema s0 = *schema;
    s0.schema_id = 0;
    floe_partition_spec p0 = {0, 0, NULL};
    if (spec) {
        p0 = *spec;
        p0.spec_id = 0;
    }
    floe_sort_order o = {0, 0, NULL};
    if (order && order->nfields) {
        o = *order;
        o.order_id = 1;
    }
    int32_t last_pid = 999;
    for (size_t i = 0; i < p0.nfields; i++)
        if (p0.fields[i].field_id > last_pid)
            last_pid = p0.fields[i].field_id;
    floe_buf j = FLOE_BUF_INIT;
    int rc = new_table_json(&j, &s0, &p0, &o, last_pid, uuid, location, properties,
                            format_version, now_ms);
    if (rc == 0)
        rc = floe__metadata_parse(out, j.ptr, j.len, "new table metadata");
    floe__buf_free(&j);
    return rc;
}
