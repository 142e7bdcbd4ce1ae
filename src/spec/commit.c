/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/commit: the REST commit model (OpenAPI `TableRequirement`,
 * `TableUpdate`, `CommitTableRequest`; Java UpdateRequirement and
 * MetadataUpdateParser) — parser, serializer, requirement checker and
 * applier, each written once (see commit.h). Field names are the OpenAPI
 * document's; snapshots, refs and statistics use the metadata file's
 * emitters and readers.
 */
#include "spec/commit.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define TRY FLOE_TRY

static const char *const ACTIONS[] = {
    [FLOE_UPD_ADD_SNAPSHOT] = "add-snapshot",
    [FLOE_UPD_SET_SNAPSHOT_REF] = "set-snapshot-ref",
    [FLOE_UPD_REMOVE_SNAPSHOTS] = "remove-snapshots",
    [FLOE_UPD_REMOVE_SNAPSHOT_REF] = "remove-snapshot-ref",
    [FLOE_UPD_SET_PROPERTIES] = "set-properties",
    [FLOE_UPD_REMOVE_PROPERTIES] = "remove-properties",
    [FLOE_UPD_SET_LOCATION] = "set-location",
    [FLOE_UPD_ASSIGN_UUID] = "assign-uuid",
    [FLOE_UPD_UPGRADE_FORMAT_VERSION] = "upgrade-format-version",
    [FLOE_UPD_ADD_SCHEMA] = "add-schema",
    [FLOE_UPD_SET_CURRENT_SCHEMA] = "set-current-schema",
    [FLOE_UPD_ADD_SPEC] = "add-spec",
    [FLOE_UPD_SET_DEFAULT_SPEC] = "set-default-spec",
    [FLOE_UPD_ADD_SORT_ORDER] = "add-sort-order",
    [FLOE_UPD_SET_DEFAULT_SORT_ORDER] = "set-default-sort-order",
    [FLOE_UPD_SET_STATISTICS] = "set-statistics",
    [FLOE_UPD_REMOVE_STATISTICS] = "remove-statistics",
    [FLOE_UPD_SET_PARTITION_STATISTICS] = "set-partition-statistics",
    [FLOE_UPD_REMOVE_PARTITION_STATISTICS] = "remove-partition-statistics",
    [FLOE_UPD_REMOVE_PARTITION_SPECS] = "remove-partition-specs",
    [FLOE_UPD_REMOVE_SCHEMAS] = "remove-schemas",
    [FLOE_UPD_ADD_ENCRYPTION_KEY] = "add-encryption-key",
    [FLOE_UPD_REMOVE_ENCRYPTION_KEY] = "remove-encryption-key",
};

static const struct {
    const char *name;
    const char *key; /* the int field of the id asserts */
} REQS[] = {
    [FLOE_REQ_ASSERT_CREATE] = {"assert-create", NULL},
    [FLOE_REQ_ASSERT_TABLE_UUID] = {"assert-table-uuid", NULL},
    [FLOE_REQ_ASSERT_REF_SNAPSHOT_ID] = {"assert-ref-snapshot-id", NULL},
    [FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID] = {"assert-last-assigned-field-id",
                                                "last-assigned-field-id"},
    [FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID] = {"assert-current-schema-id", "current-schema-id"},
    [FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID] = {"assert-last-assigned-partition-id",
                                                    "last-assigned-partition-id"},
    [FLOE_REQ_ASSERT_DEFAULT_SPEC_ID] = {"assert-default-spec-id", "default-spec-id"},
    [FLOE_REQ_ASSERT_DEFAULT_SORT_ORDER_ID] = {"assert-default-sort-order-id",
                                               "default-sort-order-id"},
};

const char *floe__update_action(floe_update_type t)
{
    return (size_t)t < FLOE_ARRAY_LEN(ACTIONS) ? ACTIONS[t] : "?";
}

const char *floe__requirement_name(floe_requirement_type t)
{
    return (size_t)t < FLOE_ARRAY_LEN(REQS) ? REQS[t].name : "?";
}

static int bad(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__verror(FLOE_EINVALID, "metadata", fmt, ap);
    va_end(ap);
    return rc;
}

/* ---------------------------------------------------------------- parse: requirements */

int floe__requirement_parse(const floe_json *j, floe_arena *a, floe_requirement *q)
{
    memset(q, 0, sizeof *q);
    const char *type = floe__json_sval(floe__json_get(j, "type"));
    if (!floe__json_is_object(j) || !type)
        return bad("a requirement needs a string \"type\"");
    size_t k = 0;
    while (k < FLOE_ARRAY_LEN(REQS) && strcmp(type, REQS[k].name) != 0)
        k++;
    if (k == FLOE_ARRAY_LEN(REQS))
        return floe__error(FLOE_EUNSUPPORTED, "metadata", "unknown requirement type %s", type);
    q->type = (floe_requirement_type)k;
    switch (q->type) {
    case FLOE_REQ_ASSERT_CREATE: return 0;
    case FLOE_REQ_ASSERT_TABLE_UUID: {
        const char *uuid = floe__json_sval(floe__json_get(j, "uuid"));
        if (!uuid)
            return bad("requirement assert-table-uuid needs a string uuid");
        return (q->uuid = floe__arena_strdup(a, uuid)) ? 0 : floe__error_nomem();
    }
    case FLOE_REQ_ASSERT_REF_SNAPSHOT_ID: {
        const char *ref = floe__json_sval(floe__json_get(j, "ref"));
        const floe_json *id = floe__json_get(j, "snapshot-id");
        if (!ref)
            return bad("requirement assert-ref-snapshot-id needs a string ref");
        if (id && !floe__json_is_null(id) && !floe__json_is_integer(id))
            return bad("requirement assert-ref-snapshot-id: snapshot-id must be a long or null");
        q->has_snapshot_id = floe__json_is_integer(id);
        q->snapshot_id = q->has_snapshot_id ? id->u.i : 0;
        return (q->ref = floe__arena_strdup(a, ref)) ? 0 : floe__error_nomem();
    }
    default: {
        const floe_json *v = floe__json_get(j, REQS[k].key);
        if (!floe__json_is_integer(v) || v->u.i < INT32_MIN || v->u.i > INT32_MAX)
            return bad("requirement %s needs an integer %s", type, REQS[k].key);
        q->id = (int32_t)v->u.i;
        return 0;
    }
    }
}

/* ---------------------------------------------------------------- parse: updates */

static int member_obj(const floe_json *u, const char *key, const char *action,
                      const floe_json **out)
{
    *out = floe__json_get(u, key);
    if (!floe__json_is_object(*out))
        return bad("%s field '%s' in update '%s'", *out ? "wrong type of" : "missing required",
                   key, action);
    return 0;
}

static int member_str(const floe_json *u, const char *key, const char *action, floe_arena *a,
                      const char **out)
{
    const floe_json *v = floe__json_get(u, key);
    if (!floe__json_is_string(v))
        return bad("%s field '%s' in update '%s'",
                   v && !floe__json_is_null(v) ? "wrong type of" : "missing required", key,
                   action);
    return (*out = floe__arena_strdup(a, floe__json_sval(v))) ? 0 : floe__error_nomem();
}

static int member_ids(const floe_json *u, const char *key, const char *action, floe_arena *a,
                      const int64_t **out, size_t *n)
{
    const floe_json *ids = floe__json_get(u, key);
    if (!floe__json_is_array(ids))
        return bad("missing required field '%s' in update '%s'", key, action);
    *n = floe__json_len(ids);
    int64_t *v = floe__arena_calloc(a, *n ? *n : 1, sizeof *v);
    if (!v)
        return floe__error_nomem();
    for (size_t i = 0; i < *n; i++) {
        if (!floe__json_is_integer(floe__json_at(ids, i)))
            return bad("%s in update '%s' must be integers", key, action);
        v[i] = floe__json_ival(floe__json_at(ids, i));
    }
    *out = v;
    return 0;
}

static int string_map(const floe_json *o, const char *action, floe_arena *a, const floe_kv **out,
                      size_t *n)
{
    floe_kv *kv = floe__arena_calloc(a, floe__json_len(o) + 1, sizeof *kv);
    if (!kv)
        return floe__error_nomem();
    const char *key;
    floe_json *val;
    size_t k = 0;
    FLOE_JSON_FOREACH(o, key, val) {
        if (!floe__json_is_string(val))
            return bad("property '%s' in update '%s' must be a string", key, action);
        if (!(kv[k].key = floe__arena_strdup(a, key)) ||
            !(kv[k].value = floe__arena_strdup(a, floe__json_sval(val))))
            return floe__error_nomem();
        k++;
    }
    *out = kv;
    *n = k;
    return 0;
}

/* The metadata context the snapshot / statistics readers need: an arena
 * and the format version whose rules apply. */
static void reader_ctx(floe_table_metadata *m, floe_arena *a, int format_version)
{
    memset(m, 0, sizeof *m);
    m->arena = a;
    m->format_version = format_version ? format_version : 2;
}

static int parse_ref(const floe_json *u, const char *action, floe_arena *a, floe_snapshot_ref *r)
{
    char ctx[96];
    snprintf(ctx, sizeof ctx, "update '%s'", action);
    const char *type;
    int64_t v;
    TRY(floe__json_str(u, "ref-name", ctx, a, &r->name));
    TRY(floe__json_int(u, "snapshot-id", ctx, &r->snapshot_id));
    TRY(floe__json_str(u, "type", ctx, a, &type));
    if (strcmp(type, "branch") != 0 && strcmp(type, "tag") != 0)
        return bad("field 'type' in %s must be 'branch' or 'tag'", ctx);
    r->type = type[0] == 't' ? FLOE_REF_TAG : FLOE_REF_BRANCH;
    TRY(floe__json_int_opt(u, "min-snapshots-to-keep", ctx, &v, &r->has_min_snapshots_to_keep));
    r->min_snapshots_to_keep = (int32_t)v;
    TRY(floe__json_int_opt(u, "max-snapshot-age-ms", ctx, &r->max_snapshot_age_ms,
                           &r->has_max_snapshot_age_ms));
    return floe__json_int_opt(u, "max-ref-age-ms", ctx, &r->max_ref_age_ms,
                              &r->has_max_ref_age_ms);
}

static int member_i64(const floe_json *u, const char *key, const char *action, int64_t *out)
{
    char ctx[96];
    snprintf(ctx, sizeof ctx, "update '%s'", action);
    return floe__json_int(u, key, ctx, out);
}

static int parse_encryption_key(const floe_json *o, const char *action, floe_arena *a,
                                floe_encryption_key *k)
{
    TRY(member_str(o, "key-id", action, a, &k->key_id));
    TRY(member_str(o, "encrypted-key-metadata", action, a, &k->encrypted_key_metadata));
    if (floe__json_get(o, "encrypted-by-id"))
        TRY(member_str(o, "encrypted-by-id", action, a, &k->encrypted_by_id));
    const floe_json *p = floe__json_get(o, "properties");
    if (p && !floe__json_is_object(p))
        return bad("wrong type of field 'properties' in update '%s'", action);
    if (p)
        TRY(string_map(p, action, a, &k->properties, &k->nproperties));
    return 0;
}

int floe__update_parse(const floe_json *u, int *format_version, floe_arena *a,
                       floe_table_update *out)
{
    memset(out, 0, sizeof *out);
    const char *action = floe__json_sval(floe__json_get(u, "action"));
    if (!floe__json_is_object(u) || !action)
        return bad("missing required field 'action' in table update");
    size_t k = 0;
    while (k < FLOE_ARRAY_LEN(ACTIONS) && strcmp(action, ACTIONS[k]) != 0)
        k++;
    if (k == FLOE_ARRAY_LEN(ACTIONS))
        return floe__error(FLOE_EUNSUPPORTED, "metadata", "unsupported table update '%s'",
                           action);
    out->type = (floe_update_type)k;
    const floe_json *o;
    floe_table_metadata ctx;
    switch (out->type) {
    case FLOE_UPD_ADD_SNAPSHOT:
        TRY(member_obj(u, "snapshot", action, &o));
        reader_ctx(&ctx, a, *format_version);
        return floe__snapshot_from_json(&out->snapshot, o, &ctx);
    case FLOE_UPD_SET_SNAPSHOT_REF: return parse_ref(u, action, a, &out->ref);
    case FLOE_UPD_REMOVE_SNAPSHOTS:
        return member_ids(u, "snapshot-ids", action, a, &out->ids, &out->nids);
    case FLOE_UPD_REMOVE_SNAPSHOT_REF: return member_str(u, "ref-name", action, a, &out->name);
    case FLOE_UPD_SET_PROPERTIES:
        TRY(member_obj(u, "updates", action, &o));
        return string_map(o, action, a, &out->kv, &out->nkv);
    case FLOE_UPD_REMOVE_PROPERTIES: {
        const floe_json *keys = floe__json_get(u, "removals");
        if (!floe__json_is_array(keys))
            return bad("missing required field 'removals' in update '%s'", action);
        size_t n = floe__json_len(keys);
        const char **v = floe__arena_calloc(a, n + 1, sizeof *v);
        if (!v)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            const char *key = floe__json_sval(floe__json_at(keys, i));
            if (!key)
                return bad("removals in update '%s' must be strings", action);
            if (!(v[i] = floe__arena_strdup(a, key)))
                return floe__error_nomem();
        }
        out->keys = v;
        out->nkeys = n;
        return 0;
    }
    case FLOE_UPD_SET_LOCATION: return member_str(u, "location", action, a, &out->name);
    case FLOE_UPD_ASSIGN_UUID: return member_str(u, "uuid", action, a, &out->name);
    case FLOE_UPD_UPGRADE_FORMAT_VERSION:
        TRY(member_i64(u, "format-version", action, &out->id));
        if (out->id < 1 || out->id > INT32_MAX)
            return bad("invalid format-version %lld in update '%s'", (long long)out->id, action);
        if (out->id > *format_version)
            *format_version = (int)out->id;
        return 0;
    case FLOE_UPD_ADD_SCHEMA: {
        TRY(member_obj(u, "schema", action, &o));
        TRY(floe__schema_from_json(&out->schema, o, 0, a));
        int64_t v;
        bool has;
        char c[96];
        snprintf(c, sizeof c, "update '%s'", action);
        TRY(floe__json_int_opt(u, "last-column-id", c, &v, &has));
        out->has_last_column_id = has;
        out->last_column_id = (int32_t)v;
        return 0;
    }
    case FLOE_UPD_SET_CURRENT_SCHEMA: return member_i64(u, "schema-id", action, &out->id);
    case FLOE_UPD_ADD_SPEC:
        TRY(member_obj(u, "spec", action, &o));
        /* REST clients may omit spec-id (the server assigns it) */
        if (!floe__json_get(o, "spec-id"))
            return floe__partition_spec_from_json(&out->spec, floe__json_get(o, "fields"), 0,
                                                  true, a);
        return floe__partition_spec_from_json(&out->spec, o, 0, true, a);
    case FLOE_UPD_SET_DEFAULT_SPEC: return member_i64(u, "spec-id", action, &out->id);
    case FLOE_UPD_ADD_SORT_ORDER:
        TRY(member_obj(u, "sort-order", action, &o));
        return floe__sort_order_from_json(&out->order, o, a);
    case FLOE_UPD_SET_DEFAULT_SORT_ORDER: return member_i64(u, "sort-order-id", action, &out->id);
    case FLOE_UPD_SET_STATISTICS:
        TRY(member_obj(u, "statistics", action, &o));
        reader_ctx(&ctx, a, *format_version);
        return floe__statistics_from_json(&out->stats, o, &ctx);
    case FLOE_UPD_REMOVE_STATISTICS:
    case FLOE_UPD_REMOVE_PARTITION_STATISTICS:
        return member_i64(u, "snapshot-id", action, &out->id);
    case FLOE_UPD_SET_PARTITION_STATISTICS: {
        char c[96];
        snprintf(c, sizeof c, "update '%s'", action);
        floe_partition_statistics_file *st = &out->pstats;
        TRY(member_obj(u, "partition-statistics", action, &o));
        TRY(floe__json_int(o, "snapshot-id", c, &st->snapshot_id));
        TRY(floe__json_str(o, "statistics-path", c, a, &st->statistics_path));
        return floe__json_int(o, "file-size-in-bytes", c, &st->file_size_in_bytes);
    }
    case FLOE_UPD_REMOVE_PARTITION_SPECS:
        return member_ids(u, "spec-ids", action, a, &out->ids, &out->nids);
    case FLOE_UPD_REMOVE_SCHEMAS:
        return member_ids(u, "schema-ids", action, a, &out->ids, &out->nids);
    case FLOE_UPD_ADD_ENCRYPTION_KEY:
        TRY(member_obj(u, "encryption-key", action, &o));
        return parse_encryption_key(o, action, a, &out->key);
    case FLOE_UPD_REMOVE_ENCRYPTION_KEY: return member_str(u, "key-id", action, a, &out->name);
    }
    return 0;
}

void floe__commit_release(floe_table_update *u, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (u[i].type == FLOE_UPD_ADD_SCHEMA && u[i].schema) {
            floe__schema_release(u[i].schema);
            u[i].schema = NULL;
        }
}

int floe__commit_parse(const floe_json *body, int format_version, floe_arena *a, floe_vec *reqs,
                       floe_vec *updates)
{
    const floe_json *rj = floe__json_get(body, "requirements");
    const floe_json *uj = floe__json_get(body, "updates");
    if (!floe__json_is_object(body) || (rj && !floe__json_is_array(rj)) ||
        !floe__json_is_array(uj))
        return bad("a CommitTableRequest is an object with an \"updates\" array and an optional "
                   "\"requirements\" array");
    for (size_t i = 0; i < floe__json_len(rj); i++) {
        floe_requirement *q = floe__vec_push(reqs);
        if (!q)
            return floe__error_nomem();
        int rc = floe__requirement_parse(floe__json_at(rj, i), a, q);
        if (rc < 0) {
            reqs->len--;
            return rc;
        }
    }
    int fv = format_version;
    for (size_t i = 0; i < floe__json_len(uj); i++) {
        floe_table_update *u = floe__vec_push(updates);
        if (!u)
            return floe__error_nomem();
        int rc = floe__update_parse(floe__json_at(uj, i), &fv, a, u);
        if (rc < 0) {
            floe__commit_release(u, 1);
            updates->len--;
            return rc;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- serialize */

int floe__requirement_write(floe_jw *w, const floe_requirement *r)
{
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kstr(w, "type", floe__requirement_name(r->type)));
    switch (r->type) {
    case FLOE_REQ_ASSERT_CREATE: break;
    case FLOE_REQ_ASSERT_TABLE_UUID: TRY(floe__jw_kstr(w, "uuid", r->uuid)); break;
    case FLOE_REQ_ASSERT_REF_SNAPSHOT_ID:
        TRY(floe__jw_kstr(w, "ref", r->ref));
        TRY(floe__jw_key(w, "snapshot-id"));
        TRY(r->has_snapshot_id ? floe__jw_int(w, r->snapshot_id) : floe__jw_null(w));
        break;
    default: TRY(floe__jw_kint(w, REQS[r->type].key, r->id));
    }
    return floe__jw_obj_end(w);
}

static int write_ids(floe_jw *w, const char *key, const int64_t *ids, size_t n)
{
    TRY(floe__jw_key(w, key));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < n; i++)
        TRY(floe__jw_int(w, ids[i]));
    return floe__jw_arr_end(w);
}

int floe__update_write(floe_jw *w, const floe_table_update *u, int format_version)
{
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kstr(w, "action", floe__update_action(u->type)));
    switch (u->type) {
    case FLOE_UPD_ADD_SNAPSHOT:
        TRY(floe__jw_key(w, "snapshot"));
        TRY(floe__snapshot_write(w, &u->snapshot, format_version, true));
        break;
    case FLOE_UPD_SET_SNAPSHOT_REF:
        TRY(floe__jw_kstr(w, "ref-name", u->ref.name));
        TRY(floe__ref_fields_write(w, &u->ref));
        break;
    case FLOE_UPD_REMOVE_SNAPSHOTS: TRY(write_ids(w, "snapshot-ids", u->ids, u->nids)); break;
    case FLOE_UPD_REMOVE_SNAPSHOT_REF: TRY(floe__jw_kstr(w, "ref-name", u->name)); break;
    case FLOE_UPD_SET_PROPERTIES:
        TRY(floe__jw_key(w, "updates"));
        TRY(floe__jw_kv_object(w, u->kv, u->nkv));
        break;
    case FLOE_UPD_REMOVE_PROPERTIES:
        TRY(floe__jw_key(w, "removals"));
        TRY(floe__jw_arr(w));
        for (size_t i = 0; i < u->nkeys; i++)
            TRY(floe__jw_str(w, u->keys[i]));
        TRY(floe__jw_arr_end(w));
        break;
    case FLOE_UPD_SET_LOCATION: TRY(floe__jw_kstr(w, "location", u->name)); break;
    case FLOE_UPD_ASSIGN_UUID: TRY(floe__jw_kstr(w, "uuid", u->name)); break;
    case FLOE_UPD_UPGRADE_FORMAT_VERSION: TRY(floe__jw_kint(w, "format-version", u->id)); break;
    case FLOE_UPD_ADD_SCHEMA:
        TRY(floe__jw_key(w, "schema"));
        TRY(floe__schema_write(w, u->schema));
        if (u->has_last_column_id)
            TRY(floe__jw_kint(w, "last-column-id", u->last_column_id));
        break;
    case FLOE_UPD_SET_CURRENT_SCHEMA: TRY(floe__jw_kint(w, "schema-id", u->id)); break;
    case FLOE_UPD_ADD_SPEC:
        TRY(floe__jw_key(w, "spec"));
        TRY(floe__partition_spec_write(w, u->spec));
        break;
    case FLOE_UPD_SET_DEFAULT_SPEC: TRY(floe__jw_kint(w, "spec-id", u->id)); break;
    case FLOE_UPD_ADD_SORT_ORDER:
        TRY(floe__jw_key(w, "sort-order"));
        TRY(floe__sort_order_write(w, u->order));
        break;
    case FLOE_UPD_SET_DEFAULT_SORT_ORDER: TRY(floe__jw_kint(w, "sort-order-id", u->id)); break;
    case FLOE_UPD_SET_STATISTICS:
        TRY(floe__jw_key(w, "statistics"));
        TRY(floe__statistics_write(w, &u->stats));
        break;
    case FLOE_UPD_REMOVE_STATISTICS:
    case FLOE_UPD_REMOVE_PARTITION_STATISTICS:
        TRY(floe__jw_kint(w, "snapshot-id", u->id));
        break;
    case FLOE_UPD_SET_PARTITION_STATISTICS:
        TRY(floe__jw_key(w, "partition-statistics"));
        TRY(floe__partition_statistics_write(w, &u->pstats));
        break;
    case FLOE_UPD_REMOVE_PARTITION_SPECS: TRY(write_ids(w, "spec-ids", u->ids, u->nids)); break;
    case FLOE_UPD_REMOVE_SCHEMAS: TRY(write_ids(w, "schema-ids", u->ids, u->nids)); break;
    case FLOE_UPD_ADD_ENCRYPTION_KEY:
        TRY(floe__jw_key(w, "encryption-key"));
        TRY(floe__jw_obj(w));
        TRY(floe__jw_kstr(w, "key-id", u->key.key_id));
        TRY(floe__jw_kstr(w, "encrypted-key-metadata", u->key.encrypted_key_metadata));
        if (u->key.encrypted_by_id)
            TRY(floe__jw_kstr(w, "encrypted-by-id", u->key.encrypted_by_id));
        if (u->key.properties) {
            TRY(floe__jw_key(w, "properties"));
            TRY(floe__jw_kv_object(w, u->key.properties, u->key.nproperties));
        }
        TRY(floe__jw_obj_end(w));
        break;
    case FLOE_UPD_REMOVE_ENCRYPTION_KEY: TRY(floe__jw_kstr(w, "key-id", u->name)); break;
    }
    return floe__jw_obj_end(w);
}

int floe__commit_write(floe_jw *w, const floe_requirement *r, size_t nr,
                       const floe_table_update *u, size_t nu, int format_version)
{
    TRY(floe__jw_key(w, "requirements"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < nr; i++)
        TRY(floe__requirement_write(w, &r[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "updates"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < nu; i++) {
        TRY(floe__update_write(w, &u[i], format_version));
        if (u[i].type == FLOE_UPD_UPGRADE_FORMAT_VERSION && u[i].id > format_version)
            format_version = (int)u[i].id;
    }
    return floe__jw_arr_end(w);
}

/* ---------------------------------------------------------------- check */

static int req_failed(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int req_failed(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return floe__error(FLOE_ECONFLICT, "table", "Requirement failed: %s", msg);
}

static int check_id(const char *what, int32_t expected, int32_t actual)
{
    if (expected != actual)
        return req_failed("%s changed: expected id %d != %d", what, (int)expected, (int)actual);
    return 0;
}

int floe__commit_check(const floe_table_metadata *m, const floe_requirement *reqs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const floe_requirement *r = &reqs[i];
        if (r->type == FLOE_REQ_ASSERT_CREATE) {
            if (m)
                return req_failed("table already exists");
            continue;
        }
        if (!m) /* Java validates these against a base only */
            continue;
        switch (r->type) {
        case FLOE_REQ_ASSERT_CREATE: break;
        case FLOE_REQ_ASSERT_TABLE_UUID:
            if (!m->table_uuid || strcasecmp(m->table_uuid, r->uuid) != 0)
                return req_failed("UUID does not match: expected %s != %s",
                                  m->table_uuid ? m->table_uuid : "null", r->uuid);
            break;
        case FLOE_REQ_ASSERT_REF_SNAPSHOT_ID: {
            const floe_snapshot_ref *ref = floe__metadata_ref(m, r->ref);
            const char *kind = ref && ref->type == FLOE_REF_TAG ? "tag" : "branch";
            if (ref && !r->has_snapshot_id)
                return req_failed("%s %s was created concurrently", kind, r->ref);
            if (!ref && r->has_snapshot_id)
                return req_failed("branch or tag %s is missing, expected %lld", r->ref,
                                  (long long)r->snapshot_id);
            if (ref && ref->snapshot_id != r->snapshot_id)
                return req_failed("%s %s has changed: expected id %lld != %lld", kind, r->ref,
                                  (long long)r->snapshot_id, (long long)ref->snapshot_id);
            break;
        }
        case FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID:
            TRY(check_id("last assigned field id", r->id, m->last_column_id));
            break;
        case FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID:
            TRY(check_id("current schema", r->id, m->current_schema_id));
            break;
        case FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID:
            TRY(check_id("last assigned partition id", r->id, m->last_partition_id));
            break;
        case FLOE_REQ_ASSERT_DEFAULT_SPEC_ID:
            TRY(check_id("default partition spec", r->id, m->default_spec_id));
            break;
        case FLOE_REQ_ASSERT_DEFAULT_SORT_ORDER_ID:
            TRY(check_id("default sort order", r->id, m->default_sort_order_id));
            break;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- apply */

static int apply_one(floe_metadata_builder *b, const floe_table_update *u)
{
    switch (u->type) {
    case FLOE_UPD_ADD_SNAPSHOT: return floe__mb_add_snapshot(b, &u->snapshot);
    case FLOE_UPD_SET_SNAPSHOT_REF: return floe__mb_set_snapshot_ref(b, &u->ref);
    case FLOE_UPD_REMOVE_SNAPSHOTS: return floe__mb_remove_snapshots(b, u->ids, u->nids);
    case FLOE_UPD_REMOVE_SNAPSHOT_REF: return floe__mb_remove_snapshot_ref(b, u->name);
    case FLOE_UPD_SET_PROPERTIES: return floe__mb_set_properties(b, u->kv, u->nkv);
    case FLOE_UPD_REMOVE_PROPERTIES: return floe__mb_remove_properties(b, u->keys, u->nkeys);
    case FLOE_UPD_SET_LOCATION: return floe__mb_set_location(b, u->name);
    case FLOE_UPD_ASSIGN_UUID: return floe__mb_assign_uuid(b, u->name);
    case FLOE_UPD_UPGRADE_FORMAT_VERSION: return floe__mb_upgrade_format_version(b, (int)u->id);
    case FLOE_UPD_ADD_SCHEMA: return floe__mb_add_schema(b, u->schema, NULL);
    case FLOE_UPD_SET_CURRENT_SCHEMA: return floe__mb_set_current_schema(b, (int32_t)u->id);
    case FLOE_UPD_ADD_SPEC: return floe__mb_add_spec(b, u->spec, NULL);
    case FLOE_UPD_SET_DEFAULT_SPEC: return floe__mb_set_default_spec(b, (int32_t)u->id);
    case FLOE_UPD_ADD_SORT_ORDER: return floe__mb_add_sort_order(b, u->order, NULL);
    case FLOE_UPD_SET_DEFAULT_SORT_ORDER:
        return floe__mb_set_default_sort_order(b, (int32_t)u->id);
    case FLOE_UPD_SET_STATISTICS: return floe__mb_set_statistics(b, &u->stats);
    case FLOE_UPD_REMOVE_STATISTICS: return floe__mb_remove_statistics(b, u->id);
    case FLOE_UPD_SET_PARTITION_STATISTICS:
        return floe__mb_set_partition_statistics(b, &u->pstats);
    case FLOE_UPD_REMOVE_PARTITION_STATISTICS:
        return floe__mb_remove_partition_statistics(b, u->id);
    case FLOE_UPD_REMOVE_PARTITION_SPECS: return floe__mb_remove_specs(b, u->ids, u->nids);
    case FLOE_UPD_REMOVE_SCHEMAS: return floe__mb_remove_schemas(b, u->ids, u->nids);
    case FLOE_UPD_ADD_ENCRYPTION_KEY:
    case FLOE_UPD_REMOVE_ENCRYPTION_KEY: break;
    }
    return floe__error(FLOE_EUNSUPPORTED, "metadata", "unsupported table update '%s'",
                       floe__update_action(u->type));
}

int floe__commit_apply(floe_metadata_builder *b, const floe_table_update *u, size_t n)
{
    for (size_t i = 0; i < n; i++)
        TRY(apply_one(b, &u[i]));
    return 0;
}

int floe__commit_apply_json(floe_metadata_builder *b, const floe_json *j)
{
    floe_arena *a = floe__arena_new(1024);
    if (!a)
        return floe__error_nomem();
    floe_table_update u;
    int fv = floe__metadata_builder_peek(b)->format_version;
    int rc = floe__update_parse(j, &fv, a, &u);
    if (rc == 0)
        rc = apply_one(b, &u);
    floe__commit_release(&u, 1);
    floe__arena_free(a);
    return rc;
}
