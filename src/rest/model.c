/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/model: strict parsers and serialisers of the REST catalog request
 * bodies (CreateNamespaceRequest, UpdateNamespacePropertiesRequest,
 * CreateTableRequest, RegisterTableRequest, RenameTableRequest,
 * CommitTableRequest with its TableRequirement and TableUpdate kinds,
 * CommitTransactionRequest) from open-api/rest-catalog-open-api.yaml.
 * Responses live in model_response.c; names and paths in ident.c.
 */
#include "model.h"
#include "model_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

/* base + suffix, truncated to n - 1 bytes (paths only name fields in errors). */
static void subpath(char *dst, size_t n, const char *base, const char *suffix)
{
    size_t bl = strnlen(base, n - 1);
    memcpy(dst, base, bl);
    size_t sl = strnlen(suffix, n - 1 - bl);
    memcpy(dst + bl, suffix, sl);
    dst[bl + sl] = '\0';
}


int floe__rest_bad(const char *path, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return floe__error(FLOE_EINVALID, "rest", "%s%s%s", path, *path ? ": " : "", msg);
}

int floe__rest_load(json_t **out, const char *text, size_t len, const char *what)
{
    json_error_t err;
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!j)
        return floe__error(FLOE_EINVALID, "rest", "%s: malformed JSON at line %d column %d: %s",
                           what, err.line, err.column, err.text);
    if (!json_is_object(j)) {
        json_decref(j);
        return floe__error(FLOE_EINVALID, "rest", "%s: expected a JSON object", what);
    }
    *out = j;
    return 0;
}

/* Field lookup: `required` missing -> error; wrong type -> error. The path
 * names the enclosing object ("updates[2]"). */
static json_t *field(json_t *obj, const char *key)
{
    return json_object_get(obj, key);
}

int floe__rest_get_str(json_t *obj, const char *path, const char *key, bool required,
                       const char **out)
{
    json_t *v = field(obj, key);
    if (!v || (!required && json_is_null(v))) {
        if (required)
            return floe__rest_bad(path, "missing required field '%s'", key);
        *out = NULL;
        return 0;
    }
    if (!json_is_string(v))
        return floe__rest_bad(path, "field '%s': expected a string", key);
    *out = json_string_value(v);
    return 1;
}

int floe__rest_get_int(json_t *obj, const char *path, const char *key, bool required,
                       int64_t *out)
{
    json_t *v = field(obj, key);
    if (!v || (!required && json_is_null(v))) {
        if (required)
            return floe__rest_bad(path, "missing required field '%s'", key);
        return 0;
    }
    if (!json_is_integer(v))
        return floe__rest_bad(path, "field '%s': expected an integer", key);
    *out = (int64_t)json_integer_value(v);
    return 1;
}

static int get_bool(json_t *obj, const char *path, const char *key, bool *out)
{
    json_t *v = field(obj, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v))
        return floe__rest_bad(path, "field '%s': expected a boolean", key);
    *out = json_is_true(v);
    return 1;
}

int floe__rest_get_obj(json_t *obj, const char *path, const char *key, bool required,
                       json_t **out)
{
    json_t *v = field(obj, key);
    if (!v || (!required && json_is_null(v))) {
        if (required)
            return floe__rest_bad(path, "missing required field '%s'", key);
        *out = NULL;
        return 0;
    }
    if (!json_is_object(v))
        return floe__rest_bad(path, "field '%s': expected an object", key);
    *out = v;
    return 1;
}

/* A string -> string map into props (request order kept). */
int floe__rest_get_map(json_t *obj, const char *path, const char *key, floe_props *out)
{
    json_t *m;
    int rc = floe__rest_get_obj(obj, path, key, false, &m);
    if (rc <= 0)
        return rc;
    if (json_object_size(m) > FLOE_REST_MAX_ITEMS)
        return floe__rest_bad(path, "field '%s': too many entries", key);
    const char *k;
    json_t *v;
    json_object_foreach(m, k, v)
    {
        if (!json_is_string(v))
            return floe__rest_bad(path, "field '%s': value of '%s' must be a string", key, k);
        if (floe__props_set(out, k, json_string_value(v)) < 0)
            return floe__error_nomem();
    }
    return 1;
}

/* An array of strings into the arena. */
static int get_str_array(floe_arena *a, json_t *obj, const char *path, const char *key,
                         bool required, const char ***out, size_t *n)
{
    json_t *v = field(obj, key);
    *out = NULL;
    *n = 0;
    if (!v) {
        if (required)
            return floe__rest_bad(path, "missing required field '%s'", key);
        return 0;
    }
    if (!json_is_array(v))
        return floe__rest_bad(path, "field '%s': expected an array of strings", key);
    size_t len = json_array_size(v);
    if (len > FLOE_REST_MAX_ITEMS)
        return floe__rest_bad(path, "field '%s': too many entries", key);
    const char **items = floe__arena_calloc(a, len ? len : 1, sizeof *items);
    if (!items)
        return floe__error_nomem();
    for (size_t i = 0; i < len; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_string(e))
            return floe__rest_bad(path, "field '%s[%zu]': expected a string", key, i);
        items[i] = json_string_value(e);
    }
    *out = items;
    *n = len;
    return 1;
}

int floe__rest_parse_namespace(floe_arena *a, json_t *v, const char *path,
                               floe_rest_namespace *out)
{
    if (!json_is_array(v))
        return floe__rest_bad(path, "expected a namespace (array of strings)");
    size_t n = json_array_size(v);
    if (n == 0)
        return floe__rest_bad(path, "empty namespace");
    if (n > FLOE_REST_MAX_NS_DEPTH)
        return floe__rest_bad(path, "more than %d namespace levels", FLOE_REST_MAX_NS_DEPTH);
    out->parts = floe__arena_calloc(a, n, sizeof *out->parts);
    if (!out->parts)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_string(e))
            return floe__rest_bad(path, "level %zu: expected a string", i);
        char what[300];
        snprintf(what, sizeof what, "%s[%zu]", path, i);
        FLOE_TRY(floe__rest_check_name(json_string_value(e), json_string_length(e), what));
        out->parts[i] = (char *)json_string_value(e);
    }
    out->n = n;
    return 0;
}

int floe__rest_parse_ident(floe_arena *a, json_t *v, const char *path, floe_rest_ident *out)
{
    char p[300];
    if (!json_is_object(v))
        return floe__rest_bad(path, "expected a table identifier object");
    json_t *ns = field(v, "namespace");
    if (!ns)
        return floe__rest_bad(path, "missing required field 'namespace'");
    subpath(p, sizeof p, path, ".namespace");
    FLOE_TRY(floe__rest_parse_namespace(a, ns, p, &out->ns));
    const char *name;
    FLOE_TRY(floe__rest_get_str(v, path, "name", true, &name));
    subpath(p, sizeof p, path, ".name");
    FLOE_TRY(floe__rest_check_name(name, strlen(name), p));
    out->name = (char *)name;
    return 0;
}

/* ---------------------------------------------------------------- payload shapes */

/* The model keeps schemas, specs, sort orders, snapshots and statistics as
 * JSON for the spec module; here only their shape is checked, so that a
 * malformed payload is a 400 naming the field instead of a later failure. */
static int check_list(json_t *o, const char *path, const char *key, int (*item)(json_t *,
                                                                                const char *))
{
    json_t *f = field(o, key);
    if (!f)
        return floe__rest_bad(path, "missing required field '%s'", key);
    if (!json_is_array(f))
        return floe__rest_bad(path, "field '%s': expected an array", key);
    if (json_array_size(f) > FLOE_REST_MAX_ITEMS)
        return floe__rest_bad(path, "field '%s': too many entries", key);
    for (size_t i = 0; i < json_array_size(f); i++) {
        char p[300];
        snprintf(p, sizeof p, "%s.%s[%zu]", path, key, i);
        json_t *e = json_array_get(f, i);
        if (!json_is_object(e))
            return floe__rest_bad(p, "expected an object");
        FLOE_TRY(item(e, p));
    }
    return 0;
}

static int check_struct_field(json_t *f, const char *p)
{
    int64_t id;
    const char *name;
    FLOE_TRY(floe__rest_get_int(f, p, "id", true, &id));
    FLOE_TRY(floe__rest_get_str(f, p, "name", true, &name));
    json_t *req = field(f, "required");
    if (!req || !json_is_boolean(req))
        return floe__rest_bad(p, req ? "field 'required': expected a boolean"
                                     : "missing required field 'required'");
    json_t *t = field(f, "type");
    if (!t || !(json_is_string(t) || json_is_object(t)))
        return floe__rest_bad(p, t ? "field 'type': expected a string or an object"
                                   : "missing required field 'type'");
    return 0;
}

int floe__rest_check_schema(json_t *s, const char *path)
{
    if (!json_is_object(s))
        return floe__rest_bad(path, "expected a schema object");
    const char *type;
    FLOE_TRY(floe__rest_get_str(s, path, "type", true, &type));
    if (strcmp(type, "struct") != 0)
        return floe__rest_bad(path, "field 'type': expected \"struct\"");
    int64_t id;
    FLOE_TRY(floe__rest_get_int(s, path, "schema-id", false, &id));
    return check_list(s, path, "fields", check_struct_field);
}

static int check_partition_field(json_t *f, const char *p)
{
    int64_t v;
    const char *s;
    if (!field(f, "source-ids"))
        FLOE_TRY(floe__rest_get_int(f, p, "source-id", true, &v));
    FLOE_TRY(floe__rest_get_int(f, p, "field-id", false, &v));
    FLOE_TRY(floe__rest_get_str(f, p, "name", true, &s));
    FLOE_TRY(floe__rest_get_str(f, p, "transform", true, &s));
    return 0;
}

int floe__rest_check_spec(json_t *s, const char *path)
{
    if (!json_is_object(s))
        return floe__rest_bad(path, "expected a partition spec object");
    int64_t id;
    FLOE_TRY(floe__rest_get_int(s, path, "spec-id", false, &id));
    return check_list(s, path, "fields", check_partition_field);
}

static int check_sort_field(json_t *f, const char *p)
{
    int64_t v;
    const char *s;
    if (!field(f, "source-ids"))
        FLOE_TRY(floe__rest_get_int(f, p, "source-id", true, &v));
    FLOE_TRY(floe__rest_get_str(f, p, "transform", true, &s));
    FLOE_TRY(floe__rest_get_str(f, p, "direction", true, &s));
    if (strcmp(s, "asc") != 0 && strcmp(s, "desc") != 0)
        return floe__rest_bad(p, "field 'direction': expected \"asc\" or \"desc\"");
    FLOE_TRY(floe__rest_get_str(f, p, "null-order", true, &s));
    if (strcmp(s, "nulls-first") != 0 && strcmp(s, "nulls-last") != 0)
        return floe__rest_bad(p, "field 'null-order': expected \"nulls-first\" or \"nulls-last\"");
    return 0;
}

int floe__rest_check_sort_order(json_t *s, const char *path)
{
    if (!json_is_object(s))
        return floe__rest_bad(path, "expected a sort order object");
    int64_t id;
    FLOE_TRY(floe__rest_get_int(s, path, "order-id", true, &id));
    return check_list(s, path, "fields", check_sort_field);
}

int floe__rest_check_snapshot(json_t *s, const char *path)
{
    if (!json_is_object(s))
        return floe__rest_bad(path, "expected a snapshot object");
    int64_t v;
    const char *str;
    FLOE_TRY(floe__rest_get_int(s, path, "snapshot-id", true, &v));
    FLOE_TRY(floe__rest_get_int(s, path, "parent-snapshot-id", false, &v));
    FLOE_TRY(floe__rest_get_int(s, path, "sequence-number", false, &v));
    FLOE_TRY(floe__rest_get_int(s, path, "timestamp-ms", true, &v));
    FLOE_TRY(floe__rest_get_int(s, path, "schema-id", false, &v));
    FLOE_TRY(floe__rest_get_str(s, path, "manifest-list", true, &str));
    json_t *summary;
    FLOE_TRY(floe__rest_get_obj(s, path, "summary", true, &summary));
    char p[300];
    subpath(p, sizeof p, path, ".summary");
    FLOE_TRY(floe__rest_get_str(summary, p, "operation", true, &str));
    if (strcmp(str, "append") != 0 && strcmp(str, "replace") != 0 &&
        strcmp(str, "overwrite") != 0 && strcmp(str, "delete") != 0)
        return floe__rest_bad(p, "field 'operation': unknown operation \"%s\"", str);
    const char *k;
    json_t *e;
    json_object_foreach(summary, k, e)
    {
        if (!json_is_string(e))
            return floe__rest_bad(p, "value of '%s' must be a string", k);
    }
    return 0;
}

static int check_statistics(json_t *s, const char *path)
{
    if (!json_is_object(s))
        return floe__rest_bad(path, "expected a statistics file object");
    int64_t v;
    const char *str;
    FLOE_TRY(floe__rest_get_int(s, path, "snapshot-id", true, &v));
    FLOE_TRY(floe__rest_get_str(s, path, "statistics-path", true, &str));
    FLOE_TRY(floe__rest_get_int(s, path, "file-size-in-bytes", true, &v));
    FLOE_TRY(floe__rest_get_int(s, path, "file-footer-size-in-bytes", true, &v));
    json_t *b = field(s, "blob-metadata");
    if (!b || !json_is_array(b))
        return floe__rest_bad(path, b ? "field 'blob-metadata': expected an array"
                                      : "missing required field 'blob-metadata'");
    return 0;
}

/* ---------------------------------------------------------------- requirements */

static const char *const requirement_names[] = {
    "assert-create",
    "assert-table-uuid",
    "assert-ref-snapshot-id",
    "assert-last-assigned-field-id",
    "assert-current-schema-id",
    "assert-last-assigned-partition-id",
    "assert-default-spec-id",
    "assert-default-sort-order-id",
};

/* The id field of each kind (NULL where the kind has none). */
static const char *const requirement_id_field[] = {
    NULL, NULL, NULL, "last-assigned-field-id", "current-schema-id", "last-assigned-partition-id",
    "default-spec-id", "default-sort-order-id",
};

const char *floe__rest_requirement_name(floe_rest_requirement_kind k)
{
    if ((unsigned)k >= FLOE_ARRAY_LEN(requirement_names))
        return NULL;
    return requirement_names[k];
}

static int parse_requirement(json_t *o, const char *path, floe_rest_requirement *q)
{
    if (!json_is_object(o))
        return floe__rest_bad(path, "expected a requirement object");
    const char *type;
    FLOE_TRY(floe__rest_get_str(o, path, "type", true, &type));
    size_t k;
    for (k = 0; k < FLOE_ARRAY_LEN(requirement_names); k++)
        if (strcmp(type, requirement_names[k]) == 0)
            break;
    if (k == FLOE_ARRAY_LEN(requirement_names))
        return floe__rest_bad(path, "unknown requirement type \"%s\"", type);
    memset(q, 0, sizeof *q);
    q->kind = (floe_rest_requirement_kind)k;
    switch (q->kind) {
    case FLOE_REST_ASSERT_CREATE:
        return 0;
    case FLOE_REST_ASSERT_TABLE_UUID:
        return floe__rest_get_str(o, path, "uuid", true, &q->uuid) < 0 ? FLOE_EINVALID : 0;
    case FLOE_REST_ASSERT_REF_SNAPSHOT_ID: {
        FLOE_TRY(floe__rest_get_str(o, path, "ref", true, &q->ref));
        json_t *v = field(o, "snapshot-id");
        /* Required but nullable: null means "the ref must not exist yet". */
        if (!v)
            return floe__rest_bad(path, "missing required field 'snapshot-id'");
        if (json_is_null(v)) {
            q->snapshot_id_null = true;
            return 0;
        }
        if (!json_is_integer(v))
            return floe__rest_bad(path, "field 'snapshot-id': expected an integer or null");
        q->snapshot_id = (int64_t)json_integer_value(v);
        return 0;
    }
    default:
        return floe__rest_get_int(o, path, requirement_id_field[k], true, &q->id) < 0
                   ? FLOE_EINVALID
                   : 0;
    }
}

json_t *floe__rest_requirement_to_json(const floe_rest_requirement *q)
{
    const char *name = floe__rest_requirement_name(q->kind);
    if (!name)
        return NULL;
    json_t *o = json_pack("{s:s}", "type", name);
    if (!o)
        return NULL;
    int rc = 0;
    switch (q->kind) {
    case FLOE_REST_ASSERT_CREATE:
        break;
    case FLOE_REST_ASSERT_TABLE_UUID:
        rc = json_object_set_new(o, "uuid", json_string(q->uuid ? q->uuid : ""));
        break;
    case FLOE_REST_ASSERT_REF_SNAPSHOT_ID:
        rc = json_object_set_new(o, "ref", json_string(q->ref ? q->ref : "main"));
        rc |= json_object_set_new(o, "snapshot-id",
                                  q->snapshot_id_null ? json_null()
                                                      : json_integer((json_int_t)q->snapshot_id));
        break;
    default:
        rc = json_object_set_new(o, requirement_id_field[q->kind],
                                 json_integer((json_int_t)q->id));
    }
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ---------------------------------------------------------------- updates */

static const char *const update_names[] = {
    "assign-uuid",        "upgrade-format-version", "add-schema",
    "set-current-schema", "add-spec",               "set-default-spec",
    "add-sort-order",     "set-default-sort-order", "add-snapshot",
    "set-snapshot-ref",   "remove-snapshots",       "remove-snapshot-ref",
    "set-location",       "set-properties",         "remove-properties",
    "set-statistics",     "remove-statistics",
};

const char *floe__rest_update_name(floe_rest_update_kind k)
{
    if ((unsigned)k >= FLOE_ARRAY_LEN(update_names))
        return NULL;
    return update_names[k];
}

static int parse_update(floe_arena *a, json_t *o, const char *path, floe_rest_update *u)
{
    if (!json_is_object(o))
        return floe__rest_bad(path, "expected an update object");
    const char *action;
    FLOE_TRY(floe__rest_get_str(o, path, "action", true, &action));
    size_t k;
    for (k = 0; k < FLOE_ARRAY_LEN(update_names); k++)
        if (strcmp(action, update_names[k]) == 0)
            break;
    if (k == FLOE_ARRAY_LEN(update_names))
        return floe__rest_bad(path, "unknown update action \"%s\"", action);
    u->kind = (floe_rest_update_kind)k;
    u->raw = o;
    char p[300];
    int rc;
    switch (u->kind) {
    case FLOE_REST_ASSIGN_UUID:
        FLOE_TRY(floe__rest_get_str(o, path, "uuid", true, &u->uuid));
        break;
    case FLOE_REST_UPGRADE_FORMAT_VERSION:
        FLOE_TRY(floe__rest_get_int(o, path, "format-version", true, &u->format_version));
        break;
    case FLOE_REST_ADD_SCHEMA:
        FLOE_TRY(floe__rest_get_obj(o, path, "schema", true, &u->schema));
        subpath(p, sizeof p, path, ".schema");
        FLOE_TRY(floe__rest_check_schema(u->schema, p));
        rc = floe__rest_get_int(o, path, "last-column-id", false, &u->last_column_id);
        FLOE_TRY(rc);
        u->has_last_column_id = rc > 0;
        break;
    case FLOE_REST_SET_CURRENT_SCHEMA:
        FLOE_TRY(floe__rest_get_int(o, path, "schema-id", true, &u->id));
        break;
    case FLOE_REST_ADD_SPEC:
        FLOE_TRY(floe__rest_get_obj(o, path, "spec", true, &u->spec));
        subpath(p, sizeof p, path, ".spec");
        FLOE_TRY(floe__rest_check_spec(u->spec, p));
        break;
    case FLOE_REST_SET_DEFAULT_SPEC:
        FLOE_TRY(floe__rest_get_int(o, path, "spec-id", true, &u->id));
        break;
    case FLOE_REST_ADD_SORT_ORDER:
        FLOE_TRY(floe__rest_get_obj(o, path, "sort-order", true, &u->sort_order));
        subpath(p, sizeof p, path, ".sort-order");
        FLOE_TRY(floe__rest_check_sort_order(u->sort_order, p));
        break;
    case FLOE_REST_SET_DEFAULT_SORT_ORDER:
        FLOE_TRY(floe__rest_get_int(o, path, "sort-order-id", true, &u->id));
        break;
    case FLOE_REST_ADD_SNAPSHOT:
        FLOE_TRY(floe__rest_get_obj(o, path, "snapshot", true, &u->snapshot));
        subpath(p, sizeof p, path, ".snapshot");
        FLOE_TRY(floe__rest_check_snapshot(u->snapshot, p));
        break;
    case FLOE_REST_SET_SNAPSHOT_REF:
        FLOE_TRY(floe__rest_get_str(o, path, "ref-name", true, &u->ref_name));
        FLOE_TRY(floe__rest_get_str(o, path, "type", true, &u->ref_type));
        if (strcmp(u->ref_type, "branch") != 0 && strcmp(u->ref_type, "tag") != 0)
            return floe__rest_bad(path, "field 'type': expected \"branch\" or \"tag\"");
        FLOE_TRY(floe__rest_get_int(o, path, "snapshot-id", true, &u->snapshot_id));
        rc = floe__rest_get_int(o, path, "max-ref-age-ms", false, &u->max_ref_age_ms);
        FLOE_TRY(rc);
        u->has_max_ref_age_ms = rc > 0;
        rc = floe__rest_get_int(o, path, "max-snapshot-age-ms", false, &u->max_snapshot_age_ms);
        FLOE_TRY(rc);
        u->has_max_snapshot_age_ms = rc > 0;
        rc = floe__rest_get_int(o, path, "min-snapshots-to-keep", false,
                                &u->min_snapshots_to_keep);
        FLOE_TRY(rc);
        u->has_min_snapshots_to_keep = rc > 0;
        break;
    case FLOE_REST_REMOVE_SNAPSHOTS: {
        json_t *ids = field(o, "snapshot-ids");
        if (!ids)
            return floe__rest_bad(path, "missing required field 'snapshot-ids'");
        if (!json_is_array(ids))
            return floe__rest_bad(path, "field 'snapshot-ids': expected an array of integers");
        size_t n = json_array_size(ids);
        if (n > FLOE_REST_MAX_ITEMS)
            return floe__rest_bad(path, "field 'snapshot-ids': too many entries");
        u->snapshot_ids = floe__arena_calloc(a, n ? n : 1, sizeof *u->snapshot_ids);
        if (!u->snapshot_ids)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_array_get(ids, i);
            if (!json_is_integer(e))
                return floe__rest_bad(path, "field 'snapshot-ids[%zu]': expected an integer", i);
            u->snapshot_ids[i] = (int64_t)json_integer_value(e);
        }
        u->n_snapshot_ids = n;
        break;
    }
    case FLOE_REST_REMOVE_SNAPSHOT_REF:
        FLOE_TRY(floe__rest_get_str(o, path, "ref-name", true, &u->ref_name));
        break;
    case FLOE_REST_SET_LOCATION:
        FLOE_TRY(floe__rest_get_str(o, path, "location", true, &u->location));
        break;
    case FLOE_REST_SET_PROPERTIES:
        if (!field(o, "updates"))
            return floe__rest_bad(path, "missing required field 'updates'");
        FLOE_TRY(floe__rest_get_map(o, path, "updates", &u->updates));
        break;
    case FLOE_REST_REMOVE_PROPERTIES:
        FLOE_TRY(get_str_array(a, o, path, "removals", true, &u->removals, &u->n_removals));
        break;
    case FLOE_REST_SET_STATISTICS:
        FLOE_TRY(floe__rest_get_obj(o, path, "statistics", true, &u->statistics));
        subpath(p, sizeof p, path, ".statistics");
        FLOE_TRY(check_statistics(u->statistics, p));
        u->snapshot_id = (int64_t)json_integer_value(field(u->statistics, "snapshot-id"));
        break;
    case FLOE_REST_REMOVE_STATISTICS:
        FLOE_TRY(floe__rest_get_int(o, path, "snapshot-id", true, &u->snapshot_id));
        break;
    }
    return 0;
}

static int set_borrowed(json_t *o, const char *key, json_t *v)
{
    return v ? json_object_set(o, key, v) : 0;
}

json_t *floe__rest_props_to_json(const floe_props *p)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    for (size_t i = 0; p && i < p->n; i++)
        if (json_object_set_new(o, p->items[i].key, json_string(p->items[i].value))) {
            json_decref(o);
            return NULL;
        }
    return o;
}

static json_t *strs_to_json(const char *const *s, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_string(s[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *floe__rest_update_to_json(const floe_rest_update *u)
{
    const char *name = floe__rest_update_name(u->kind);
    if (!name)
        return NULL;
    json_t *o = json_pack("{s:s}", "action", name);
    if (!o)
        return NULL;
    int rc = 0;
    switch (u->kind) {
    case FLOE_REST_ASSIGN_UUID:
        rc = json_object_set_new(o, "uuid", json_string(u->uuid ? u->uuid : ""));
        break;
    case FLOE_REST_UPGRADE_FORMAT_VERSION:
        rc = json_object_set_new(o, "format-version", json_integer(u->format_version));
        break;
    case FLOE_REST_ADD_SCHEMA:
        rc = set_borrowed(o, "schema", u->schema);
        if (u->has_last_column_id)
            rc |= json_object_set_new(o, "last-column-id", json_integer(u->last_column_id));
        break;
    case FLOE_REST_SET_CURRENT_SCHEMA:
        rc = json_object_set_new(o, "schema-id", json_integer(u->id));
        break;
    case FLOE_REST_ADD_SPEC:
        rc = set_borrowed(o, "spec", u->spec);
        break;
    case FLOE_REST_SET_DEFAULT_SPEC:
        rc = json_object_set_new(o, "spec-id", json_integer(u->id));
        break;
    case FLOE_REST_ADD_SORT_ORDER:
        rc = set_borrowed(o, "sort-order", u->sort_order);
        break;
    case FLOE_REST_SET_DEFAULT_SORT_ORDER:
        rc = json_object_set_new(o, "sort-order-id", json_integer(u->id));
        break;
    case FLOE_REST_ADD_SNAPSHOT:
        rc = set_borrowed(o, "snapshot", u->snapshot);
        break;
    case FLOE_REST_SET_SNAPSHOT_REF:
        rc = json_object_set_new(o, "ref-name", json_string(u->ref_name ? u->ref_name : ""));
        rc |= json_object_set_new(o, "type", json_string(u->ref_type ? u->ref_type : "branch"));
        rc |= json_object_set_new(o, "snapshot-id", json_integer(u->snapshot_id));
        if (u->has_max_ref_age_ms)
            rc |= json_object_set_new(o, "max-ref-age-ms", json_integer(u->max_ref_age_ms));
        if (u->has_max_snapshot_age_ms)
            rc |= json_object_set_new(o, "max-snapshot-age-ms",
                                      json_integer(u->max_snapshot_age_ms));
        if (u->has_min_snapshots_to_keep)
            rc |= json_object_set_new(o, "min-snapshots-to-keep",
                                      json_integer(u->min_snapshots_to_keep));
        break;
    case FLOE_REST_REMOVE_SNAPSHOTS: {
        json_t *ids = json_array();
        for (size_t i = 0; ids && i < u->n_snapshot_ids; i++)
            rc |= json_array_append_new(ids, json_integer(u->snapshot_ids[i]));
        rc |= json_object_set_new(o, "snapshot-ids", ids);
        break;
    }
    case FLOE_REST_REMOVE_SNAPSHOT_REF:
        rc = json_object_set_new(o, "ref-name", json_string(u->ref_name ? u->ref_name : ""));
        break;
    case FLOE_REST_SET_LOCATION:
        rc = json_object_set_new(o, "location", json_string(u->location ? u->location : ""));
        break;
    case FLOE_REST_SET_PROPERTIES:
        rc = json_object_set_new(o, "updates", floe__rest_props_to_json(&u->updates));
        break;
    case FLOE_REST_REMOVE_PROPERTIES:
        rc = json_object_set_new(o, "removals", strs_to_json(u->removals, u->n_removals));
        break;
    case FLOE_REST_SET_STATISTICS:
        rc = set_borrowed(o, "statistics", u->statistics);
        break;
    case FLOE_REST_REMOVE_STATISTICS:
        rc = json_object_set_new(o, "snapshot-id", json_integer(u->snapshot_id));
        break;
    }
    if (rc) {
        json_decref(o);
        floe__error_nomem();
        return NULL;
    }
    return o;
}

/* ---------------------------------------------------------------- requests */

/* Allocate a request struct of `size` with its arena, and load the JSON. */
static void *new_req(size_t size, const char *text, size_t len, const char *what)
{
    json_t *j;
    if (floe__rest_load(&j, text, len, what) < 0)
        return NULL;
    floe_arena *a = floe__arena_new(2048);
    void *r = a ? floe__arena_calloc(a, 1, size) : NULL;
    if (!r) {
        floe__arena_free(a);
        json_decref(j);
        floe__error_nomem();
        return NULL;
    }
    /* Every request struct starts with { floe_arena *arena; json_t *json; }. */
    struct head {
        floe_arena *arena;
        json_t *json;
    } *h = r;
    h->arena = a;
    h->json = j;
    return r;
}

static void free_req(void *r)
{
    if (!r)
        return;
    struct head {
        floe_arena *arena;
        json_t *json;
    } *h = r;
    json_t *j = h->json;
    floe__arena_free(h->arena);
    json_decref(j);
}

int floe__rest_parse_create_namespace(floe_rest_create_namespace_req **out, const char *text,
                                      size_t len)
{
    floe_rest_create_namespace_req *r = new_req(sizeof *r, text, len, "CreateNamespaceRequest");
    if (!r)
        return floe__error_code();
    json_t *ns = field(r->json, "namespace");
    int rc = ns ? floe__rest_parse_namespace(r->arena, ns, "namespace", &r->ns)
                : floe__rest_bad("", "missing required field 'namespace'");
    if (rc >= 0)
        rc = floe__rest_get_map(r->json, "", "properties", &r->properties);
    if (rc < 0) {
        floe__rest_create_namespace_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe__rest_create_namespace_free(floe_rest_create_namespace_req *r)
{
    if (!r)
        return;
    floe__props_free(&r->properties);
    free_req(r);
}

json_t *floe__rest_create_namespace_to_json(const floe_rest_create_namespace_req *r)
{
    return json_pack("{s:o,s:o}", "namespace", floe__rest_namespace_to_json(&r->ns), "properties",
                     floe__rest_props_to_json(&r->properties));
}

int floe__rest_parse_update_namespace_props(floe_rest_update_namespace_props_req **out,
                                            const char *text, size_t len)
{
    floe_rest_update_namespace_props_req *r =
        new_req(sizeof *r, text, len, "UpdateNamespacePropertiesRequest");
    if (!r)
        return floe__error_code();
    int rc = get_str_array(r->arena, r->json, "", "removals", false, &r->removals, &r->n_removals);
    if (rc >= 0)
        rc = floe__rest_get_map(r->json, "", "updates", &r->updates);
    if (rc < 0) {
        floe__rest_update_namespace_props_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe__rest_update_namespace_props_free(floe_rest_update_namespace_props_req *r)
{
    if (!r)
        return;
    floe__props_free(&r->updates);
    free_req(r);
}

json_t *floe__rest_update_namespace_props_to_json(const floe_rest_update_namespace_props_req *r)
{
    return json_pack("{s:o,s:o}", "removals", strs_to_json(r->removals, r->n_removals), "updates",
                     floe__rest_props_to_json(&r->updates));
}

int floe__rest_parse_create_table(floe_rest_create_table_req **out, const char *text, size_t len)
{
    floe_rest_create_table_req *r = new_req(sizeof *r, text, len, "CreateTableRequest");
    if (!r)
        return floe__error_code();
    json_t *j = r->json;
    int rc = floe__rest_get_str(j, "", "name", true, &r->name);
    if (rc >= 0)
        rc = floe__rest_check_name(r->name, strlen(r->name), "name");
    if (rc >= 0)
        rc = floe__rest_get_str(j, "", "location", false, &r->location);
    if (rc >= 0)
        rc = floe__rest_get_obj(j, "", "schema", true, &r->schema);
    if (rc >= 0)
        rc = floe__rest_check_schema(r->schema, "schema");
    if (rc >= 0)
        rc = floe__rest_get_obj(j, "", "partition-spec", false, &r->partition_spec);
    if (rc >= 0 && r->partition_spec)
        rc = floe__rest_check_spec(r->partition_spec, "partition-spec");
    if (rc >= 0)
        rc = floe__rest_get_obj(j, "", "write-order", false, &r->write_order);
    if (rc >= 0 && r->write_order)
        rc = floe__rest_check_sort_order(r->write_order, "write-order");
    if (rc >= 0)
        rc = get_bool(j, "", "stage-create", &r->stage_create);
    if (rc >= 0)
        rc = floe__rest_get_map(j, "", "properties", &r->properties);
    if (rc < 0) {
        floe__rest_create_table_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe__rest_create_table_free(floe_rest_create_table_req *r)
{
    if (!r)
        return;
    floe__props_free(&r->properties);
    free_req(r);
}

json_t *floe__rest_create_table_to_json(const floe_rest_create_table_req *r)
{
    json_t *o = json_pack("{s:s,s:O,s:b,s:o}", "name", r->name, "schema", r->schema,
                          "stage-create", r->stage_create, "properties",
                          floe__rest_props_to_json(&r->properties));
    if (!o)
        return NULL;
    int rc = 0;
    if (r->location)
        rc |= json_object_set_new(o, "location", json_string(r->location));
    rc |= set_borrowed(o, "partition-spec", r->partition_spec);
    rc |= set_borrowed(o, "write-order", r->write_order);
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int floe__rest_parse_register_table(floe_rest_register_table_req **out, const char *text,
                                    size_t len)
{
    floe_rest_register_table_req *r = new_req(sizeof *r, text, len, "RegisterTableRequest");
    if (!r)
        return floe__error_code();
    int rc = floe__rest_get_str(r->json, "", "name", true, &r->name);
    if (rc >= 0)
        rc = floe__rest_check_name(r->name, strlen(r->name), "name");
    if (rc >= 0)
        rc = floe__rest_get_str(r->json, "", "metadata-location", true, &r->metadata_location);
    if (rc >= 0)
        rc = get_bool(r->json, "", "overwrite", &r->overwrite);
    if (rc < 0) {
        floe__rest_register_table_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe__rest_register_table_free(floe_rest_register_table_req *r)
{
    free_req(r);
}

json_t *floe__rest_register_table_to_json(const floe_rest_register_table_req *r)
{
    return json_pack("{s:s,s:s,s:b}", "name", r->name, "metadata-location", r->metadata_location,
                     "overwrite", r->overwrite);
}

int floe__rest_parse_rename_table(floe_rest_rename_table_req **out, const char *text, size_t len)
{
    floe_rest_rename_table_req *r = new_req(sizeof *r, text, len, "RenameTableRequest");
    if (!r)
        return floe__error_code();
    json_t *s = field(r->json, "source"), *d = field(r->json, "destination");
    int rc = s ? floe__rest_parse_ident(r->arena, s, "source", &r->source)
               : floe__rest_bad("", "missing required field 'source'");
    if (rc >= 0)
        rc = d ? floe__rest_parse_ident(r->arena, d, "destination", &r->destination)
               : floe__rest_bad("", "missing required field 'destination'");
    if (rc < 0) {
        floe__rest_rename_table_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe__rest_rename_table_free(floe_rest_rename_table_req *r)
{
    free_req(r);
}

json_t *floe__rest_rename_table_to_json(const floe_rest_rename_table_req *r)
{
    return json_pack("{s:o,s:o}", "source", floe__rest_ident_to_json(&r->source), "destination",
                     floe__rest_ident_to_json(&r->destination));
}

json_t *floe__rest_namespace_to_json(const floe_rest_namespace *ns)
{
    return strs_to_json((const char *const *)ns->parts, ns->n);
}

json_t *floe__rest_ident_to_json(const floe_rest_ident *id)
{
    return json_pack("{s:o,s:s}", "namespace", floe__rest_namespace_to_json(&id->ns), "name",
                     id->name);
}

/* One CommitTableRequest object into `c` (allocations in `a`). */
static int parse_commit_body(floe_arena *a, json_t *o, const char *path,
                             floe_rest_commit_table_req *c)
{
    char p[300];
    if (!json_is_object(o))
        return floe__rest_bad(path, "expected a table commit object");
    json_t *id = field(o, "identifier");
    if (id && !json_is_null(id)) {
        snprintf(p, sizeof p, "%s%sidentifier", path, *path ? "." : "");
        FLOE_TRY(floe__rest_parse_ident(a, id, p, &c->identifier));
        c->has_identifier = true;
    }
    json_t *reqs = field(o, "requirements"), *ups = field(o, "updates");
    if (!reqs)
        return floe__rest_bad(path, "missing required field 'requirements'");
    if (!json_is_array(reqs))
        return floe__rest_bad(path, "field 'requirements': expected an array");
    if (!ups)
        return floe__rest_bad(path, "missing required field 'updates'");
    if (!json_is_array(ups))
        return floe__rest_bad(path, "field 'updates': expected an array");
    size_t nq = json_array_size(reqs), nu = json_array_size(ups);
    if (nq > FLOE_REST_MAX_ITEMS || nu > FLOE_REST_MAX_ITEMS)
        return floe__rest_bad(path, "too many requirements or updates");
    c->requirements = floe__arena_calloc(a, nq ? nq : 1, sizeof *c->requirements);
    c->updates = floe__arena_calloc(a, nu ? nu : 1, sizeof *c->updates);
    if (!c->requirements || !c->updates)
        return floe__error_nomem();
    for (size_t i = 0; i < nq; i++) {
        snprintf(p, sizeof p, "%s%srequirements[%zu]", path, *path ? "." : "", i);
        FLOE_TRY(parse_requirement(json_array_get(reqs, i), p, &c->requirements[i]));
        c->n_requirements++;
    }
    for (size_t i = 0; i < nu; i++) {
        snprintf(p, sizeof p, "%s%supdates[%zu]", path, *path ? "." : "", i);
        /* Count first so that free() releases the props of a half-parsed update. */
        c->n_updates++;
        FLOE_TRY(parse_update(a, json_array_get(ups, i), p, &c->updates[i]));
    }
    return 0;
}

static void commit_body_free(floe_rest_commit_table_req *c)
{
    for (size_t i = 0; i < c->n_updates; i++)
        floe__props_free(&c->updates[i].updates);
}

int floe__rest_parse_commit_table(floe_rest_commit_table_req **out, const char *text, size_t len)
{
    floe_rest_commit_table_req *r = new_req(sizeof *r, text, len, "CommitTableRequest");
    if (!r)
        return floe__error_code();
    int rc = parse_commit_body(r->arena, r->json, "", r);
    if (rc < 0) {
        floe__rest_commit_table_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe__rest_commit_table_free(floe_rest_commit_table_req *r)
{
    if (!r)
        return;
    commit_body_free(r);
    free_req(r);
}

json_t *floe__rest_commit_table_to_json(const floe_rest_commit_table_req *r)
{
    json_t *reqs = json_array(), *ups = json_array();
    int rc = !reqs || !ups;
    for (size_t i = 0; !rc && i < r->n_requirements; i++) {
        json_t *q = floe__rest_requirement_to_json(&r->requirements[i]);
        rc = !q || json_array_append_new(reqs, q);
    }
    for (size_t i = 0; !rc && i < r->n_updates; i++) {
        json_t *u = floe__rest_update_to_json(&r->updates[i]);
        rc = !u || json_array_append_new(ups, u);
    }
    json_t *o = rc ? NULL : json_pack("{s:O,s:O}", "requirements", reqs, "updates", ups);
    json_decref(reqs);
    json_decref(ups);
    if (o && r->has_identifier &&
        json_object_set_new(o, "identifier", floe__rest_ident_to_json(&r->identifier))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int floe__rest_parse_commit_transaction(floe_rest_commit_transaction_req **out, const char *text,
                                        size_t len)
{
    floe_rest_commit_transaction_req *r =
        new_req(sizeof *r, text, len, "CommitTransactionRequest");
    if (!r)
        return floe__error_code();
    json_t *ch = field(r->json, "table-changes");
    int rc = 0;
    if (!ch)
        rc = floe__rest_bad("", "missing required field 'table-changes'");
    else if (!json_is_array(ch))
        rc = floe__rest_bad("", "field 'table-changes': expected an array");
    else if (json_array_size(ch) > FLOE_REST_MAX_ITEMS)
        rc = floe__rest_bad("", "field 'table-changes': too many entries");
    if (rc >= 0) {
        size_t n = json_array_size(ch);
        r->changes = floe__arena_calloc(r->arena, n ? n : 1, sizeof *r->changes);
        if (!r->changes)
            rc = floe__error_nomem();
        for (size_t i = 0; rc >= 0 && i < n; i++) {
            char p[64];
            snprintf(p, sizeof p, "table-changes[%zu]", i);
            r->n_changes++;
            rc = parse_commit_body(r->arena, json_array_get(ch, i), p, &r->changes[i]);
            if (rc >= 0 && !r->changes[i].has_identifier)
                rc = floe__rest_bad(p, "missing required field 'identifier'");
        }
    }
    if (rc < 0) {
        floe__rest_commit_transaction_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe__rest_commit_transaction_free(floe_rest_commit_transaction_req *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_changes; i++)
        commit_body_free(&r->changes[i]);
    free_req(r);
}

json_t *floe__rest_commit_transaction_to_json(const floe_rest_commit_transaction_req *r)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < r->n_changes; i++) {
        json_t *c = floe__rest_commit_table_to_json(&r->changes[i]);
        if (!c || json_array_append_new(a, c)) {
            json_decref(a);
            return NULL;
        }
    }
    return a ? json_pack("{s:o}", "table-changes", a) : NULL;
}

static int dump_to_buf(const char *data, size_t size, void *payload)
{
    return floe__buf_put(payload, data, size) < 0 ? -1 : 0;
}

char *floe__rest_dump(json_t *j, size_t *len)
{
    if (!j) {
        floe__error_nomem();
        return NULL;
    }
    /* One pass straight into a floe buffer (the response body). */
    floe_buf b = FLOE_BUF_INIT;
    int rc = json_dump_callback(j, dump_to_buf, &b, JSON_COMPACT);
    json_decref(j);
    if (rc != 0 || floe__buf_puts(&b, "") < 0) {
        floe__buf_free(&b);
        floe__error_nomem();
        return NULL;
    }
    if (len)
        *len = b.len;
    return floe__buf_detach(&b);
}
