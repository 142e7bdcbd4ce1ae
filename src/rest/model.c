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

#include "spec/spec.h"

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

/* (floe__rest_bad): not the analyzer's macro (model_internal.h) */
int(floe__rest_bad)(const char *path, const char *fmt, ...)
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

/* ---------------------------------------------------------------- commits */

/* CommitTableRequest / CommitTransactionRequest are parsed once, with
 * floe's JSON parser, straight into spec/commit.h's typed requirements and
 * updates (its one parser); the backend applies them through its one
 * requirement checker and applier. Only the envelope is checked here. */

/* Java's parsers read a commit whatever the table's format version
 * (SnapshotParser: sequence-number optional); the builder enforces the
 * version's rules when the change is applied. */
#define COMMIT_PARSE_FORMAT 1

/* Strict JSON: no object repeats a key (as the jansson parsers of the other
 * requests, JSON_REJECT_DUPLICATES). */
static int no_duplicate_keys(const floe_json *j, int depth)
{
    if (depth > 64)
        return floe__rest_bad("", "JSON nested too deeply");
    if (j->type == FLOE_JSON_OBJECT) {
        floe_strmap *seen = j->n > 8 ? floe__strmap_new() : NULL;
        if (j->n > 8 && !seen)
            return floe__error_nomem();
        int rc = 0;
        for (uint32_t i = 0; rc == 0 && i < j->n; i++) {
            bool dup = false;
            if (seen) {
                dup = floe__strmap_get(seen, j->keys[i]) != NULL;
                if (!dup && floe__strmap_put(seen, j->keys[i], (void *)j->keys[i]) < 0)
                    rc = floe__error_nomem();
            } else {
                for (uint32_t k = 0; k < i && !dup; k++)
                    dup = strcmp(j->keys[k], j->keys[i]) == 0;
            }
            if (dup)
                rc = floe__rest_bad("", "duplicate object key \"%s\"", j->keys[i]);
            if (rc == 0)
                rc = no_duplicate_keys(&j->u.items[i], depth + 1);
        }
        floe__strmap_free(seen);
        return rc;
    }
    if (j->type == FLOE_JSON_ARRAY)
        for (uint32_t i = 0; i < j->n; i++)
            FLOE_TRY(no_duplicate_keys(&j->u.items[i], depth + 1));
    return 0;
}

static int ident_from(floe_arena *a, const floe_json *v, const char *path, floe_rest_ident *out)
{
    if (!floe__json_is_object(v))
        return floe__rest_bad(path, "expected a table identifier object");
    const floe_json *ns = floe__json_get(v, "namespace"), *name = floe__json_get(v, "name");
    if (!ns)
        return floe__rest_bad(path, "missing required field 'namespace'");
    if (!floe__json_is_array(ns) || floe__json_len(ns) == 0)
        return floe__rest_bad(path, "field 'namespace': expected a namespace (array of strings)");
    size_t n = floe__json_len(ns);
    if (n > FLOE_REST_MAX_NS_DEPTH)
        return floe__rest_bad(path, "more than %d namespace levels", FLOE_REST_MAX_NS_DEPTH);
    if (!(out->ns.parts = floe__arena_calloc(a, n, sizeof *out->ns.parts)))
        return floe__error_nomem();
    char what[300];
    for (size_t i = 0; i < n; i++) {
        const floe_json *e = floe__json_at(ns, i);
        snprintf(what, sizeof what, "%.200s.namespace[%zu]", path, i);
        if (!floe__json_is_string(e))
            return floe__rest_bad(what, "expected a string");
        FLOE_TRY(floe__rest_check_name(floe__json_sval(e), floe__json_slen(e), what));
        out->ns.parts[i] = (char *)floe__json_sval(e);
    }
    out->ns.n = n;
    if (!name)
        return floe__rest_bad(path, "missing required field 'name'");
    snprintf(what, sizeof what, "%.200s.name", path);
    if (!floe__json_is_string(name))
        return floe__rest_bad(what, "expected a string");
    FLOE_TRY(floe__rest_check_name(floe__json_sval(name), floe__json_slen(name), what));
    out->name = (char *)floe__json_sval(name);
    return 0;
}

/* What the OpenAPI document requires beyond Java's lenient parsers:
 * assert-ref-snapshot-id carries snapshot-id (null: the ref must not
 * exist), and a snapshot a summary whose operation is one of the four. */
static int openapi_shape(const floe_json *reqs, const floe_json *ups, const char *path)
{
    for (size_t i = 0; i < floe__json_len(reqs); i++) {
        const floe_json *q = floe__json_at(reqs, i);
        const char *type = floe__json_sval(floe__json_get(q, "type"));
        if (type && strcmp(type, "assert-ref-snapshot-id") == 0 &&
            !floe__json_get(q, "snapshot-id"))
            return floe__rest_bad(path, "requirements[%zu]: missing required field 'snapshot-id'",
                                  i);
    }
    static const char *const ops[] = {"append", "replace", "overwrite", "delete"};
    for (size_t i = 0; i < floe__json_len(ups); i++) {
        const floe_json *u = floe__json_at(ups, i);
        const char *action = floe__json_sval(floe__json_get(u, "action"));
        if (!action || strcmp(action, "add-snapshot") != 0)
            continue;
        const floe_json *sum = floe__json_get(floe__json_get(u, "snapshot"), "summary");
        if (!floe__json_is_object(sum))
            return floe__rest_bad(path, "updates[%zu].snapshot: missing required field 'summary'",
                                  i);
        const char *op = floe__json_sval(floe__json_get(sum, "operation"));
        size_t k = 0;
        while (op && k < FLOE_ARRAY_LEN(ops) && strcmp(op, ops[k]) != 0)
            k++;
        if (!op || k == FLOE_ARRAY_LEN(ops))
            return floe__rest_bad(path, "updates[%zu].snapshot.summary: unknown operation \"%s\"",
                                  i, op ? op : "(missing)");
    }
    return 0;
}

/* One CommitTableRequest object into `c` (allocations in `a`). */
static int commit_from(floe_arena *a, const floe_json *o, const char *path,
                       floe_rest_commit_table_req *c)
{
    c->requirements = (floe_vec)FLOE_VEC_INIT(floe_requirement);
    c->updates = (floe_vec)FLOE_VEC_INIT(floe_table_update);
    if (!floe__json_is_object(o))
        return floe__rest_bad(path, "expected a table commit object");
    const floe_json *id = floe__json_get(o, "identifier");
    if (id && !floe__json_is_null(id)) {
        char p[300];
        snprintf(p, sizeof p, "%s%sidentifier", path, *path ? "." : "");
        FLOE_TRY(ident_from(a, id, p, &c->identifier));
        c->has_identifier = true;
    }
    const floe_json *reqs = floe__json_get(o, "requirements"), *ups = floe__json_get(o, "updates");
    if (!reqs)
        return floe__rest_bad(path, "missing required field 'requirements'");
    if (!floe__json_is_array(reqs))
        return floe__rest_bad(path, "field 'requirements': expected an array");
    if (!ups)
        return floe__rest_bad(path, "missing required field 'updates'");
    if (!floe__json_is_array(ups))
        return floe__rest_bad(path, "field 'updates': expected an array");
    if (floe__json_len(reqs) > FLOE_REST_MAX_ITEMS || floe__json_len(ups) > FLOE_REST_MAX_ITEMS)
        return floe__rest_bad(path, "too many requirements or updates");
    FLOE_TRY(openapi_shape(reqs, ups, path));
    int rc = floe__commit_parse(o, COMMIT_PARSE_FORMAT, a, &c->requirements, &c->updates);
    if (rc == FLOE_EUNSUPPORTED) {
        /* an unknown type or action is a bad request (Java's parsers throw
         * IllegalArgumentException), not an unsupported operation */
        const floe_error *e = floe_error_last();
        char *msg = floe__strdup(e && e->message ? e->message : "unknown update");
        rc = floe__rest_bad(path, "%s", msg ? msg : "unknown update");
        floe__free(msg);
    } else if (rc == FLOE_EINVALID && *path) {
        floe__error_context("%s", path);
    }
    return rc;
}

static void commit_release(floe_rest_commit_table_req *c)
{
    floe__commit_release(c->updates.items, c->updates.len);
    floe__vec_free(&c->requirements);
    floe__vec_free(&c->updates);
}

/* Parse `text` and allocate the request struct (`size` bytes, starting
 * with { floe_arena *arena; floe_json *root; }) in a fresh arena. */
static void *commit_doc(const char *text, size_t len, const char *what, size_t size)
{
    floe_json *root = NULL;
    int rc = floe__json_parse(&root, text, len, what);
    if (rc < 0) {
        if (rc != FLOE_ENOMEM)
            floe__rest_bad("", "%s", floe_error_last()->message);
        return NULL;
    }
    floe_arena *a = NULL;
    struct head {
        floe_arena *arena;
        floe_json *root;
    } *h = NULL;
    rc = no_duplicate_keys(root, 0);
    if (rc == 0 && (!(a = floe__arena_new(2048)) || !(h = floe__arena_calloc(a, 1, size))))
        rc = floe__error_nomem();
    if (rc != 0) { /* no_duplicate_keys: 0 or FLOE_EINVALID / FLOE_ENOMEM */
        floe__arena_free(a);
        floe__json_free(root);
        return NULL;
    }
    h->arena = a;
    h->root = root;
    return h;
}

int floe__rest_parse_commit_table(floe_rest_commit_table_req **out, const char *text, size_t len)
{
    floe_rest_commit_table_req *r = commit_doc(text, len, "CommitTableRequest", sizeof *r);
    if (!r)
        return floe__error_code();
    int rc = commit_from(r->arena, r->root, "", r);
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
    commit_release(r);
    floe_json *root = r->root;
    floe__arena_free(r->arena);
    floe__json_free(root);
}

static int ident_write(floe_jw *w, const floe_rest_ident *id)
{
    FLOE_TRY(floe__jw_key(w, "identifier"));
    FLOE_TRY(floe__jw_obj(w));
    FLOE_TRY(floe__jw_key(w, "namespace"));
    FLOE_TRY(floe__jw_arr(w));
    for (size_t i = 0; i < id->ns.n; i++)
        FLOE_TRY(floe__jw_str(w, id->ns.parts[i]));
    FLOE_TRY(floe__jw_arr_end(w));
    FLOE_TRY(floe__jw_kstr(w, "name", id->name));
    return floe__jw_obj_end(w);
}

static int commit_write(floe_jw *w, const floe_rest_commit_table_req *r)
{
    FLOE_TRY(floe__jw_obj(w));
    if (r->has_identifier)
        FLOE_TRY(ident_write(w, &r->identifier));
    FLOE_TRY(floe__commit_write(w, r->requirements.items, r->requirements.len, r->updates.items,
                                r->updates.len, 0));
    return floe__jw_obj_end(w);
}

int floe__rest_commit_table_write(floe_buf *out, const floe_rest_commit_table_req *r)
{
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(commit_write(&w, r));
    return floe__jw_finish(&w);
}

int floe__rest_parse_commit_transaction(floe_rest_commit_transaction_req **out, const char *text,
                                        size_t len)
{
    floe_rest_commit_transaction_req *r =
        commit_doc(text, len, "CommitTransactionRequest", sizeof *r);
    if (!r)
        return floe__error_code();
    floe_arena *a = r->arena;
    const floe_json *root = r->root;
    const floe_json *ch = floe__json_get(root, "table-changes");
    int rc = 0;
    if (!floe__json_is_object(root))
        rc = floe__rest_bad("", "expected a JSON object");
    else if (!ch)
        rc = floe__rest_bad("", "missing required field 'table-changes'");
    else if (!floe__json_is_array(ch))
        rc = floe__rest_bad("", "field 'table-changes': expected an array");
    else if (floe__json_len(ch) > FLOE_REST_MAX_ITEMS)
        rc = floe__rest_bad("", "field 'table-changes': too many entries");
    if (rc >= 0) {
        size_t n = floe__json_len(ch);
        r->changes = floe__arena_calloc(a, n ? n : 1, sizeof *r->changes);
        if (!r->changes)
            rc = floe__error_nomem();
        for (size_t i = 0; rc >= 0 && i < n; i++) {
            char p[64];
            snprintf(p, sizeof p, "table-changes[%zu]", i);
            r->n_changes++;
            rc = commit_from(a, floe__json_at(ch, i), p, &r->changes[i]);
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
        commit_release(&r->changes[i]);
    floe_json *root = r->root;
    floe__arena_free(r->arena);
    floe__json_free(root);
}

int floe__rest_commit_transaction_write(floe_buf *out, const floe_rest_commit_transaction_req *r)
{
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(floe__jw_obj(&w));
    FLOE_TRY(floe__jw_key(&w, "table-changes"));
    FLOE_TRY(floe__jw_arr(&w));
    for (size_t i = 0; i < r->n_changes; i++)
        FLOE_TRY(commit_write(&w, &r->changes[i]));
    FLOE_TRY(floe__jw_arr_end(&w));
    FLOE_TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
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
