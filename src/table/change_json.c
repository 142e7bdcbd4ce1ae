/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/change_json: a commit attempt's change (requirements + updates) as
 * the REST catalog's `CommitTableRequest` JSON (OpenAPI `TableRequirement`,
 * `TableUpdate`; snapshots in the spec's "Snapshots" JSON form). This is
 * what the table layer sends to a catalog that applies changes itself (the
 * REST client) instead of writing metadata and swapping the pointer.
 */
#include "table/table.h"

#include "spec/spec.h"

#include <stdio.h>
#include <string.h>

static int put_i64(floe_buf *b, int64_t v)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    return floe__buf_put(b, tmp, (size_t)n);
}

static int key(floe_buf *b, const char *k)
{
    FLOE_TRY(floe__buf_puts(b, ",\""));
    FLOE_TRY(floe__buf_puts(b, k));
    return floe__buf_puts(b, "\":");
}

static int kint(floe_buf *b, const char *k, int64_t v)
{
    FLOE_TRY(key(b, k));
    return put_i64(b, v);
}

static int kstr(floe_buf *b, const char *k, const char *v)
{
    FLOE_TRY(key(b, k));
    return floe__json_put_str(b, v);
}

/* Any floe_json tree back to text (FLOE_UPD_JSON updates). */
static int put_json(floe_buf *b, const floe_json *j, int depth)
{
    if (depth > 64)
        return floe__error(FLOE_EINVALID, "table", "update JSON nested too deeply");
    char tmp[40];
    switch (j->type) {
    case FLOE_JSON_NULL: return floe__buf_puts(b, "null");
    case FLOE_JSON_TRUE: return floe__buf_puts(b, "true");
    case FLOE_JSON_FALSE: return floe__buf_puts(b, "false");
    case FLOE_JSON_INTEGER: return put_i64(b, j->u.i);
    case FLOE_JSON_REAL:
        return floe__buf_put(b, tmp, (size_t)snprintf(tmp, sizeof tmp, "%.17g", j->u.d));
    case FLOE_JSON_STRING: return floe__json_put_str(b, j->u.s);
    case FLOE_JSON_ARRAY:
    case FLOE_JSON_OBJECT: {
        bool obj = j->type == FLOE_JSON_OBJECT;
        FLOE_TRY(floe__buf_putc(b, obj ? '{' : '['));
        for (uint32_t i = 0; i < j->n; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(b, ','));
            if (obj) {
                FLOE_TRY(floe__json_put_str(b, j->keys[i]));
                FLOE_TRY(floe__buf_putc(b, ':'));
            }
            FLOE_TRY(put_json(b, &j->u.items[i], depth + 1));
        }
        return floe__buf_putc(b, obj ? '}' : ']');
    }
    default: return floe__error(FLOE_EUNSUPPORTED, "table", "lazy JSON in an update");
    }
}

static int put_snapshot(floe_buf *b, const floe_table_metadata *base, const floe_snapshot *s)
{
    FLOE_TRY(floe__buf_puts(b, "{\"snapshot-id\":"));
    FLOE_TRY(put_i64(b, s->snapshot_id));
    if (s->has_parent)
        FLOE_TRY(kint(b, "parent-snapshot-id", s->parent_snapshot_id));
    if (!base || base->format_version >= 2 || s->sequence_number != 0)
        FLOE_TRY(kint(b, "sequence-number", s->sequence_number));
    FLOE_TRY(kint(b, "timestamp-ms", s->timestamp_ms));
    FLOE_TRY(floe__buf_puts(b, ",\"summary\":{"));
    const uint8_t *it = s->summary_packed;
    const char *k, *v;
    bool any = false;
    for (bool first = true; floe__summary_next(&it, &k, &v); first = false) {
        if (!first)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(floe__json_put_str(b, k));
        FLOE_TRY(floe__buf_putc(b, ':'));
        FLOE_TRY(floe__json_put_str(b, v));
        any = true;
    }
    if (!any) /* the REST model requires summary.operation */
        FLOE_TRY(floe__buf_puts(b, "\"operation\":\"append\""));
    FLOE_TRY(floe__buf_putc(b, '}'));
    if (s->manifest_list_packed) {
        FLOE_TRY(key(b, "manifest-list"));
        FLOE_TRY(floe__snapshot_manifest_list_json(s, b));
    }
    if (s->has_schema_id)
        FLOE_TRY(kint(b, "schema-id", s->schema_id));
    if (s->has_first_row_id)
        FLOE_TRY(kint(b, "first-row-id", s->first_row_id));
    if (s->has_added_rows)
        FLOE_TRY(kint(b, "added-rows", s->added_rows));
    if (s->key_id)
        FLOE_TRY(kstr(b, "key-id", s->key_id));
    return floe__buf_putc(b, '}');
}

static const char *req_name(floe_requirement_type t)
{
    switch (t) {
    case FLOE_REQ_ASSERT_TABLE_UUID: return "assert-table-uuid";
    case FLOE_REQ_ASSERT_REF_SNAPSHOT_ID: return "assert-ref-snapshot-id";
    case FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID: return "assert-last-assigned-field-id";
    case FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID: return "assert-current-schema-id";
    case FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID: return "assert-last-assigned-partition-id";
    case FLOE_REQ_ASSERT_DEFAULT_SPEC_ID: return "assert-default-spec-id";
    case FLOE_REQ_ASSERT_DEFAULT_SORT_ORDER_ID: return "assert-default-sort-order-id";
    }
    return "?";
}

static const char *req_key(floe_requirement_type t)
{
    switch (t) {
    case FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID: return "last-assigned-field-id";
    case FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID: return "current-schema-id";
    case FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID: return "last-assigned-partition-id";
    case FLOE_REQ_ASSERT_DEFAULT_SPEC_ID: return "default-spec-id";
    case FLOE_REQ_ASSERT_DEFAULT_SORT_ORDER_ID: return "default-sort-order-id";
    default: return "?";
    }
}

static int put_requirement(floe_buf *b, const floe_requirement *r)
{
    FLOE_TRY(floe__buf_puts(b, "{\"type\":"));
    FLOE_TRY(floe__json_put_str(b, req_name(r->type)));
    switch (r->type) {
    case FLOE_REQ_ASSERT_TABLE_UUID: FLOE_TRY(kstr(b, "uuid", r->uuid)); break;
    case FLOE_REQ_ASSERT_REF_SNAPSHOT_ID:
        FLOE_TRY(kstr(b, "ref", r->ref));
        if (r->has_snapshot_id)
            FLOE_TRY(kint(b, "snapshot-id", r->snapshot_id));
        else
            FLOE_TRY(floe__buf_puts(b, ",\"snapshot-id\":null"));
        break;
    default: FLOE_TRY(kint(b, req_key(r->type), r->id));
    }
    return floe__buf_putc(b, '}');
}

static int put_update(floe_buf *b, const floe_table_metadata *base, const floe_table_update *u)
{
    if (u->type == FLOE_UPD_JSON)
        return put_json(b, u->json, 0);
    FLOE_TRY(floe__buf_puts(b, "{\"action\":"));
    switch (u->type) {
    case FLOE_UPD_ADD_SNAPSHOT:
        FLOE_TRY(floe__buf_puts(b, "\"add-snapshot\",\"snapshot\":"));
        FLOE_TRY(put_snapshot(b, base, &u->snapshot));
        break;
    case FLOE_UPD_SET_SNAPSHOT_REF: {
        const floe_snapshot_ref *r = &u->ref;
        FLOE_TRY(floe__buf_puts(b, "\"set-snapshot-ref\""));
        FLOE_TRY(kstr(b, "ref-name", r->name));
        FLOE_TRY(kstr(b, "type", r->type == FLOE_REF_TAG ? "tag" : "branch"));
        FLOE_TRY(kint(b, "snapshot-id", r->snapshot_id));
        if (r->has_min_snapshots_to_keep)
            FLOE_TRY(kint(b, "min-snapshots-to-keep", r->min_snapshots_to_keep));
        if (r->has_max_snapshot_age_ms)
            FLOE_TRY(kint(b, "max-snapshot-age-ms", r->max_snapshot_age_ms));
        if (r->has_max_ref_age_ms)
            FLOE_TRY(kint(b, "max-ref-age-ms", r->max_ref_age_ms));
        break;
    }
    case FLOE_UPD_REMOVE_SNAPSHOTS:
        FLOE_TRY(floe__buf_puts(b, "\"remove-snapshots\",\"snapshot-ids\":["));
        for (size_t i = 0; i < u->nids; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(put_i64(b, u->ids[i]));
        }
        FLOE_TRY(floe__buf_putc(b, ']'));
        break;
    case FLOE_UPD_REMOVE_SNAPSHOT_REF:
        FLOE_TRY(floe__buf_puts(b, "\"remove-snapshot-ref\""));
        FLOE_TRY(kstr(b, "ref-name", u->name));
        break;
    case FLOE_UPD_SET_PROPERTIES:
        FLOE_TRY(floe__buf_puts(b, "\"set-properties\",\"updates\":{"));
        for (size_t i = 0; i < u->nkv; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(floe__json_put_str(b, u->kv[i].key));
            FLOE_TRY(floe__buf_putc(b, ':'));
            FLOE_TRY(floe__json_put_str(b, u->kv[i].value));
        }
        FLOE_TRY(floe__buf_putc(b, '}'));
        break;
    case FLOE_UPD_REMOVE_PROPERTIES:
        FLOE_TRY(floe__buf_puts(b, "\"remove-properties\",\"removals\":["));
        for (size_t i = 0; i < u->nkeys; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(floe__json_put_str(b, u->keys[i]));
        }
        FLOE_TRY(floe__buf_putc(b, ']'));
        break;
    case FLOE_UPD_SET_LOCATION:
        FLOE_TRY(floe__buf_puts(b, "\"set-location\""));
        FLOE_TRY(kstr(b, "location", u->name));
        break;
    case FLOE_UPD_JSON: break;
    }
    return floe__buf_putc(b, '}');
}

int floe__change_to_json(const floe_table_metadata *base, const floe_table_change *c, floe_buf *out)
{
    FLOE_TRY(floe__buf_puts(out, "{\"requirements\":["));
    const floe_requirement *reqs = c->requirements.items;
    bool has_uuid = false;
    for (size_t i = 0; i < c->requirements.len; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(out, ','));
        FLOE_TRY(put_requirement(out, &reqs[i]));
        has_uuid |= reqs[i].type == FLOE_REQ_ASSERT_TABLE_UUID;
    }
    /* Always pin the table: a table dropped and re-created under the same
     * name between load and commit must not receive this change. */
    if (!has_uuid && base && base->table_uuid) {
        if (c->requirements.len)
            FLOE_TRY(floe__buf_putc(out, ','));
        FLOE_TRY(floe__buf_puts(out, "{\"type\":\"assert-table-uuid\",\"uuid\":"));
        FLOE_TRY(floe__json_put_str(out, base->table_uuid));
        FLOE_TRY(floe__buf_putc(out, '}'));
    }
    FLOE_TRY(floe__buf_puts(out, "],\"updates\":["));
    const floe_table_update *ups = c->updates.items;
    for (size_t i = 0; i < c->updates.len; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(out, ','));
        FLOE_TRY(put_update(out, base, &ups[i]));
    }
    return floe__buf_puts(out, "]}");
}
