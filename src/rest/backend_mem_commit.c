/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/backend_mem_commit: the in-memory backend's commit semantics on table
 * metadata JSON — TableRequirement checks (messages in Iceberg's wording,
 * "Requirement failed: ...") and TableUpdate application, following the
 * metadata fields of format/spec.md "Table Metadata" and the update semantics
 * of the REST spec (ids of -1 mean "the last one added"). It is a test double
 * for the real transaction layer, not a replacement: it checks references
 * (snapshots, schemas, specs, sort orders exist) but not schema evolution
 * rules.
 */
#include "backend_mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int64_t get_i(json_t *o, const char *key, int64_t def)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : def;
}

static int failed(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int failed(const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return floe__error(FLOE_ECONFLICT, "commit", "Requirement failed: %s", msg);
}

/* Snapshot id a ref points at, or -1 with *exists = false. */
static int64_t ref_snapshot(json_t *md, const char *ref, bool *exists, const char **type)
{
    json_t *r = json_object_get(json_object_get(md, "refs"), ref);
    *type = "branch";
    if (json_is_object(r)) {
        *exists = true;
        json_t *t = json_object_get(r, "type");
        if (json_is_string(t))
            *type = json_string_value(t);
        return get_i(r, "snapshot-id", -1);
    }
    /* v1 metadata may carry only current-snapshot-id for main. */
    int64_t cur = get_i(md, "current-snapshot-id", -1);
    *exists = strcmp(ref, "main") == 0 && cur != -1;
    return *exists ? cur : -1;
}

int floe__rest_mem_check(json_t *base, const floe_rest_commit_table_req *req)
{
    for (size_t i = 0; i < req->n_requirements; i++) {
        const floe_rest_requirement *q = &req->requirements[i];
        if (q->kind == FLOE_REST_ASSERT_CREATE) {
            if (base)
                return failed("table already exists");
            continue;
        }
        if (!base)
            return failed("table does not exist");
        int64_t have;
        const char *what;
        switch (q->kind) {
        case FLOE_REST_ASSERT_TABLE_UUID: {
            json_t *u = json_object_get(base, "table-uuid");
            const char *us = json_is_string(u) ? json_string_value(u) : "";
            if (strcasecmp(us, q->uuid) != 0)
                return failed("UUID does not match: expected %s != %s", us, q->uuid);
            continue;
        }
        case FLOE_REST_ASSERT_REF_SNAPSHOT_ID: {
            bool exists;
            const char *type;
            have = ref_snapshot(base, q->ref, &exists, &type);
            if (exists && q->snapshot_id_null)
                return failed("%s %s was created concurrently", type, q->ref);
            if (!exists && !q->snapshot_id_null)
                return failed("branch or tag %s is missing, expected %lld", q->ref,
                              (long long)q->snapshot_id);
            if (exists && have != q->snapshot_id)
                return failed("%s %s has changed: expected id %lld != %lld", type, q->ref,
                              (long long)q->snapshot_id, (long long)have);
            continue;
        }
        case FLOE_REST_ASSERT_LAST_ASSIGNED_FIELD_ID:
            have = get_i(base, "last-column-id", -1);
            what = "last assigned field id changed";
            break;
        case FLOE_REST_ASSERT_CURRENT_SCHEMA_ID:
            have = get_i(base, "current-schema-id", -1);
            what = "current schema changed";
            break;
        case FLOE_REST_ASSERT_LAST_ASSIGNED_PARTITION_ID:
            have = get_i(base, "last-partition-id", -1);
            what = "last assigned partition id changed";
            break;
        case FLOE_REST_ASSERT_DEFAULT_SPEC_ID:
            have = get_i(base, "default-spec-id", -1);
            what = "default partition spec changed";
            break;
        case FLOE_REST_ASSERT_DEFAULT_SORT_ORDER_ID:
            have = get_i(base, "default-sort-order-id", -1);
            what = "default sort order changed";
            break;
        default:
            return floe__error(FLOE_EINVALID, "commit", "unknown requirement");
        }
        if (have != q->id)
            return failed("%s: expected id %lld != %lld", what, (long long)q->id,
                          (long long)have);
    }
    return 0;
}

/* ---------------------------------------------------------------- updates */

static json_t *array_field(json_t *md, const char *key)
{
    json_t *a = json_object_get(md, key);
    if (!json_is_array(a)) {
        a = json_array();
        json_object_set_new(md, key, a);
    }
    return a;
}

static json_t *object_field(json_t *md, const char *key)
{
    json_t *o = json_object_get(md, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(md, key, o);
    }
    return o;
}

static json_t *find_by_id(json_t *arr, const char *key, int64_t id)
{
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) if (get_i(e, key, INT64_MIN) == id) return e;
    return NULL;
}

static int64_t max_id(json_t *arr, const char *key)
{
    int64_t best = -1;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e)
    {
        int64_t v = get_i(e, key, -1);
        best = v > best ? v : best;
    }
    return best;
}

/* Append a copy of `item` to md[list] with a fresh id in `id_key`
 * (the given one when unused), returning the id. */
static int64_t add_with_id(json_t *md, const char *list, const char *id_key, json_t *item)
{
    json_t *arr = array_field(md, list);
    json_t *copy = json_deep_copy(item);
    int64_t id = get_i(item, id_key, -1);
    if (id < 0 || find_by_id(arr, id_key, id))
        id = max_id(arr, id_key) + 1;
    json_object_set_new(copy, id_key, json_integer(id));
    json_array_append_new(arr, copy);
    return id;
}

static int64_t max_field_id(json_t *type)
{
    int64_t best = 0;
    if (!json_is_object(type))
        return 0;
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(type, "fields"), i, f)
    {
        int64_t id = get_i(f, "id", 0), sub = max_field_id(json_object_get(f, "type"));
        best = id > best ? id : best;
        best = sub > best ? sub : best;
    }
    static const char *const ids[] = {"element-id", "key-id", "value-id"};
    static const char *const subs[] = {"element", "key", "value"};
    for (size_t k = 0; k < 3; k++) {
        int64_t id = get_i(type, ids[k], 0), sub = max_field_id(json_object_get(type, subs[k]));
        best = id > best ? id : best;
        best = sub > best ? sub : best;
    }
    return best;
}

static int set_default(json_t *md, const char *list, const char *id_key, const char *field,
                       int64_t id, int64_t last_added, const char *what)
{
    if (id == -1) {
        if (last_added < 0)
            return floe__error(FLOE_EINVALID, "commit",
                               "Cannot set last added %s: no %s has been added", what, what);
        id = last_added;
    }
    if (!find_by_id(json_object_get(md, list), id_key, id))
        return floe__error(FLOE_EINVALID, "commit", "Cannot set default %s to unknown id: %lld",
                           what, (long long)id);
    json_object_set_new(md, field, json_integer(id));
    return 0;
}

static void remove_snapshot(json_t *md, int64_t id)
{
    json_t *snaps = json_object_get(md, "snapshots");
    for (size_t i = json_array_size(snaps); i-- > 0;)
        if (get_i(json_array_get(snaps, i), "snapshot-id", INT64_MIN) == id)
            json_array_remove(snaps, i);
    json_t *refs = json_object_get(md, "refs");
    const char *k;
    json_t *r;
    void *tmp;
    json_object_foreach_safe(refs, tmp, k, r)
    {
        if (get_i(r, "snapshot-id", INT64_MIN) == id) {
            if (strcmp(k, "main") == 0)
                json_object_set_new(md, "current-snapshot-id", json_integer(-1));
            json_object_del(refs, k);
        }
    }
}

static json_t *skeleton(const char *location)
{
    char uuid[37];
    if (floe__uuid4(uuid) < 0)
        return NULL;
    return json_pack("{s:i,s:s,s:s,s:i,s:I,s:i,s:[],s:i,s:[],s:i,s:i,s:{},s:i,s:{},s:[],s:[],"
                     "s:[],s:[],s:i}",
                     "format-version", 2, "table-uuid", uuid, "location", location,
                     "last-sequence-number", 0, "last-updated-ms", (json_int_t)floe__now_ms(),
                     "last-column-id", 0, "schemas", "current-schema-id", -1, "partition-specs",
                     "default-spec-id", 0, "last-partition-id", 999, "properties",
                     "current-snapshot-id", -1, "refs", "snapshots", "snapshot-log",
                     "metadata-log", "sort-orders", "default-sort-order-id", 0);
}

int floe__rest_mem_apply(json_t **md_inout, const char *default_location,
                         const floe_rest_commit_table_req *req)
{
    json_t *md = *md_inout;
    if (!md && !(md = *md_inout = skeleton(default_location)))
        return floe__error_nomem();
    int64_t last_schema = -1, last_spec = -1, last_order = -1;
    for (size_t i = 0; i < req->n_updates; i++) {
        const floe_rest_update *u = &req->updates[i];
        switch (u->kind) {
        case FLOE_REST_ASSIGN_UUID:
            json_object_set_new(md, "table-uuid", json_string(u->uuid));
            break;
        case FLOE_REST_UPGRADE_FORMAT_VERSION:
            if (u->format_version < get_i(md, "format-version", 1))
                return floe__error(FLOE_EINVALID, "commit",
                                   "Cannot downgrade v%lld table to v%lld",
                                   (long long)get_i(md, "format-version", 1),
                                   (long long)u->format_version);
            if (u->format_version > 3)
                return floe__error(FLOE_EINVALID, "commit",
                                   "Cannot upgrade table to unsupported format version: v%lld",
                                   (long long)u->format_version);
            json_object_set_new(md, "format-version", json_integer(u->format_version));
            break;
        case FLOE_REST_ADD_SCHEMA: {
            last_schema = add_with_id(md, "schemas", "schema-id", u->schema);
            int64_t last = get_i(md, "last-column-id", 0), f = max_field_id(u->schema);
            if (u->has_last_column_id && u->last_column_id > last)
                last = u->last_column_id;
            json_object_set_new(md, "last-column-id", json_integer(f > last ? f : last));
            break;
        }
        case FLOE_REST_SET_CURRENT_SCHEMA:
            FLOE_TRY(set_default(md, "schemas", "schema-id", "current-schema-id", u->id,
                                 last_schema, "schema"));
            break;
        case FLOE_REST_ADD_SPEC: {
            last_spec = add_with_id(md, "partition-specs", "spec-id", u->spec);
            int64_t last = get_i(md, "last-partition-id", 999);
            size_t k;
            json_t *f;
            json_array_foreach(json_object_get(u->spec, "fields"), k, f)
            {
                int64_t id = get_i(f, "field-id", 0);
                last = id > last ? id : last;
            }
            json_object_set_new(md, "last-partition-id", json_integer(last));
            break;
        }
        case FLOE_REST_SET_DEFAULT_SPEC:
            FLOE_TRY(set_default(md, "partition-specs", "spec-id", "default-spec-id", u->id,
                                 last_spec, "partition spec"));
            break;
        case FLOE_REST_ADD_SORT_ORDER:
            last_order = add_with_id(md, "sort-orders", "order-id", u->sort_order);
            break;
        case FLOE_REST_SET_DEFAULT_SORT_ORDER:
            FLOE_TRY(set_default(md, "sort-orders", "order-id", "default-sort-order-id", u->id,
                                 last_order, "sort order"));
            break;
        case FLOE_REST_ADD_SNAPSHOT: {
            json_t *snaps = array_field(md, "snapshots");
            int64_t id = get_i(u->snapshot, "snapshot-id", 0);
            if (find_by_id(snaps, "snapshot-id", id))
                return floe__error(FLOE_EINVALID, "commit", "Snapshot already exists for id: %lld",
                                   (long long)id);
            int64_t seq = get_i(u->snapshot, "sequence-number", -1);
            int64_t last_seq = get_i(md, "last-sequence-number", 0);
            if (seq >= 0 && seq <= last_seq && get_i(md, "format-version", 1) > 1)
                return floe__error(FLOE_EINVALID, "commit",
                                   "Cannot add snapshot with sequence number %lld older than "
                                   "last sequence number %lld",
                                   (long long)seq, (long long)last_seq);
            json_array_append_new(snaps, json_deep_copy(u->snapshot));
            if (seq > last_seq)
                json_object_set_new(md, "last-sequence-number", json_integer(seq));
            json_object_set_new(md, "last-updated-ms",
                                json_integer(get_i(u->snapshot, "timestamp-ms", 0)));
            break;
        }
        case FLOE_REST_SET_SNAPSHOT_REF: {
            json_t *snap =
                find_by_id(json_object_get(md, "snapshots"), "snapshot-id", u->snapshot_id);
            if (!snap)
                return floe__error(FLOE_EINVALID, "commit", "Cannot set %s to unknown snapshot: %lld",
                                   u->ref_name, (long long)u->snapshot_id);
            json_t *ref = json_pack("{s:I,s:s}", "snapshot-id", (json_int_t)u->snapshot_id,
                                    "type", u->ref_type);
            if (u->has_max_ref_age_ms)
                json_object_set_new(ref, "max-ref-age-ms", json_integer(u->max_ref_age_ms));
            if (u->has_max_snapshot_age_ms)
                json_object_set_new(ref, "max-snapshot-age-ms",
                                    json_integer(u->max_snapshot_age_ms));
            if (u->has_min_snapshots_to_keep)
                json_object_set_new(ref, "min-snapshots-to-keep",
                                    json_integer(u->min_snapshots_to_keep));
            json_object_set_new(object_field(md, "refs"), u->ref_name, ref);
            if (strcmp(u->ref_name, "main") == 0) {
                json_object_set_new(md, "current-snapshot-id", json_integer(u->snapshot_id));
                json_array_append_new(
                    array_field(md, "snapshot-log"),
                    json_pack("{s:I,s:I}", "timestamp-ms",
                              (json_int_t)get_i(snap, "timestamp-ms", floe__now_ms()),
                              "snapshot-id", (json_int_t)u->snapshot_id));
            }
            break;
        }
        case FLOE_REST_REMOVE_SNAPSHOTS:
            for (size_t k = 0; k < u->n_snapshot_ids; k++)
                remove_snapshot(md, u->snapshot_ids[k]);
            break;
        case FLOE_REST_REMOVE_SNAPSHOT_REF:
            json_object_del(object_field(md, "refs"), u->ref_name);
            if (strcmp(u->ref_name, "main") == 0)
                json_object_set_new(md, "current-snapshot-id", json_integer(-1));
            break;
        case FLOE_REST_SET_LOCATION:
            json_object_set_new(md, "location", json_string(u->location));
            break;
        case FLOE_REST_SET_PROPERTIES: {
            json_t *props = object_field(md, "properties");
            for (size_t k = 0; k < u->updates.n; k++)
                json_object_set_new(props, u->updates.items[k].key,
                                    json_string(u->updates.items[k].value));
            break;
        }
        case FLOE_REST_REMOVE_PROPERTIES: {
            json_t *props = object_field(md, "properties");
            for (size_t k = 0; k < u->n_removals; k++)
                json_object_del(props, u->removals[k]);
            break;
        }
        case FLOE_REST_SET_STATISTICS:
        case FLOE_REST_REMOVE_STATISTICS: {
            json_t *stats = array_field(md, "statistics");
            for (size_t k = json_array_size(stats); k-- > 0;)
                if (get_i(json_array_get(stats, k), "snapshot-id", INT64_MIN) == u->snapshot_id)
                    json_array_remove(stats, k);
            if (u->kind == FLOE_REST_SET_STATISTICS)
                json_array_append_new(stats, json_deep_copy(u->statistics));
            break;
        }
        }
    }
    /* Keep last-updated-ms monotonic across commits. */
    int64_t now = floe__now_ms();
    if (get_i(md, "last-updated-ms", 0) < now)
        json_object_set_new(md, "last-updated-ms", json_integer(now));
    return 0;
}
