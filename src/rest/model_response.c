/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/model_response: the REST catalog response bodies
 * (open-api/rest-catalog-open-api.yaml: CatalogConfig, ListNamespacesResponse,
 * CreateNamespaceResponse / GetNamespaceResponse,
 * UpdateNamespacePropertiesResponse, ListTablesResponse, LoadTableResult,
 * CommitTableResponse and the IcebergErrorResponse/ErrorModel wrapper):
 * serialisers for the server and strict parsers for the client.
 */
#include "model.h"
#include "model_internal.h"

#include <stdio.h>
#include <string.h>

void floe__rest_config_free(floe_rest_config *c)
{
    if (!c)
        return;
    floe__props_free(&c->defaults);
    floe__props_free(&c->overrides);
    floe__rest_strlist_free(&c->endpoints);
    floe__free(c->idempotency_key_lifetime);
    c->idempotency_key_lifetime = NULL;
}

void floe__rest_table_result_free(floe_rest_table_result *r)
{
    if (!r)
        return;
    floe__free(r->metadata_location);
    floe__free(r->metadata_text);
    json_decref(r->metadata);
    floe__props_free(&r->config);
    memset(r, 0, sizeof *r);
}

void floe__rest_namespace_result_free(floe_rest_namespace_result *r)
{
    if (r)
        floe__props_free(&r->properties);
}

void floe__rest_update_namespace_props_result_free(floe_rest_update_namespace_props_result *r)
{
    if (!r)
        return;
    floe__rest_strlist_free(&r->updated);
    floe__rest_strlist_free(&r->removed);
    floe__rest_strlist_free(&r->missing);
}

void floe__rest_error_free(floe_rest_error *e)
{
    if (!e)
        return;
    floe__free(e->message);
    floe__free(e->type);
    e->message = e->type = NULL;
}

/* ---------------------------------------------------------------- serialisers */

static json_t *strlist_to_json(const floe_rest_strlist *l)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < l->n; i++)
        if (json_array_append_new(a, json_string(l->items[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *floe__rest_config_to_json(const floe_rest_config *c)
{
    json_t *o = json_pack("{s:o,s:o}", "defaults", floe__rest_props_to_json(&c->defaults),
                          "overrides", floe__rest_props_to_json(&c->overrides));
    if (o && c->endpoints.n &&
        json_object_set_new(o, "endpoints", strlist_to_json(&c->endpoints))) {
        json_decref(o);
        return NULL;
    }
    if (o && c->idempotency_key_lifetime &&
        json_object_set_new(o, "idempotency-key-lifetime",
                            json_string(c->idempotency_key_lifetime))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static int put_token(json_t *o, const char *token, bool omit)
{
    if (omit)
        return 0;
    return json_object_set_new(o, "next-page-token", token ? json_string(token) : json_null());
}

json_t *floe__rest_list_namespaces_to_json(const floe_rest_namespace *items, size_t count,
                                           const char *next_page_token, bool omit_token)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < count; i++)
        if (json_array_append_new(a, floe__rest_namespace_to_json(&items[i]))) {
            json_decref(a);
            return NULL;
        }
    json_t *o = a ? json_pack("{s:o}", "namespaces", a) : NULL;
    if (o && put_token(o, next_page_token, omit_token)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *floe__rest_list_tables_to_json(const floe_rest_ident *items, size_t count,
                                       const char *next_page_token, bool omit_token)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < count; i++)
        if (json_array_append_new(a, floe__rest_ident_to_json(&items[i]))) {
            json_decref(a);
            return NULL;
        }
    json_t *o = a ? json_pack("{s:o}", "identifiers", a) : NULL;
    if (o && put_token(o, next_page_token, omit_token)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *floe__rest_namespace_response_to_json(const floe_rest_namespace *ns,
                                              const floe_props *properties)
{
    return json_pack("{s:o,s:o}", "namespace", floe__rest_namespace_to_json(ns), "properties",
                     floe__rest_props_to_json(properties));
}

json_t *floe__rest_update_namespace_props_result_to_json(
    const floe_rest_update_namespace_props_result *r)
{
    json_t *o = json_pack("{s:o,s:o}", "updated", strlist_to_json(&r->updated), "removed",
                          strlist_to_json(&r->removed));
    if (o && json_object_set_new(o, "missing",
                                 r->missing.n ? strlist_to_json(&r->missing) : json_null())) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *floe__rest_table_result_to_json(const floe_rest_table_result *r, bool commit)
{
    if (!r->metadata || (commit && !r->metadata_location)) {
        floe__error(FLOE_EINVALID, "rest", "table result without metadata%s",
                    commit ? " location" : "");
        return NULL;
    }
    json_t *o = json_pack("{s:O}", "metadata", r->metadata);
    if (!o)
        return NULL;
    int rc = json_object_set_new(o, "metadata-location", r->metadata_location
                                                             ? json_string(r->metadata_location)
                                                             : json_null());
    if (!commit)
        rc |= json_object_set_new(o, "config", floe__rest_props_to_json(&r->config));
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *floe__rest_table_result_dump(const floe_rest_table_result *r, bool commit, size_t *len)
{
    if (!r->metadata_text)
        return floe__rest_dump(floe__rest_table_result_to_json(r, commit), len);
    if (commit && !r->metadata_location) {
        floe__error(FLOE_EINVALID, "rest", "table result without metadata location");
        return NULL;
    }
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, "{\"metadata-location\":");
    if (r->metadata_location) {
        rc |= floe__buf_putc(&b, '"');
        rc |= floe__buf_put_json_escaped(&b, r->metadata_location, strlen(r->metadata_location));
        rc |= floe__buf_putc(&b, '"');
    } else {
        rc |= floe__buf_puts(&b, "null");
    }
    rc |= floe__buf_puts(&b, ",\"metadata\":");
    rc |= floe__buf_put(&b, r->metadata_text, r->metadata_text_len);
    if (!commit) {
        char *cfg = floe__rest_dump(floe__rest_props_to_json(&r->config), NULL);
        rc |= cfg ? 0 : -1;
        rc |= floe__buf_puts(&b, ",\"config\":");
        rc |= cfg ? floe__buf_puts(&b, cfg) : -1;
        floe__free(cfg);
    }
    rc |= floe__buf_putc(&b, '}');
    if (rc < 0) {
        floe__buf_free(&b);
        floe__error_nomem();
        return NULL;
    }
    if (len)
        *len = b.len;
    return floe__buf_detach(&b);
}

json_t *floe__rest_error_to_json(int code, const char *type, const char *message)
{
    return json_pack("{s:{s:s,s:s,s:i}}", "error", "message", message ? message : "", "type",
                     type ? type : "RESTException", "code", code);
}

int floe__rest_error_status(floe_error_kind kind, const char **type)
{
    int status;
    switch (kind) {
    case FLOE_KIND_VALIDATION:
    case FLOE_KIND_ILLEGAL_ARGUMENT: status = 400; break;
    case FLOE_KIND_NO_SUCH_TABLE:
    case FLOE_KIND_NO_SUCH_NAMESPACE:
    case FLOE_KIND_NO_SUCH_VIEW: status = 404; break;
    case FLOE_KIND_ALREADY_EXISTS:
    case FLOE_KIND_NAMESPACE_NOT_EMPTY:
    case FLOE_KIND_COMMIT_FAILED:
    case FLOE_KIND_DUPLICATE_WAP_COMMIT: status = 409; break; /* a CommitFailedException */
    default: *type = NULL; return 0;
    }
    floe_error e = {.code = FLOE_ERROR, .kind = kind};
    *type = floe_error_exception(&e);
    return status;
}

bool floe__rest_raised(int rc, floe_error_kind kind)
{
    const floe_error *e = floe_error_last();
    return rc < 0 && e && e->code == rc && e->kind == kind;
}

/* ---------------------------------------------------------------- parsers */

static int strlist_from(json_t *o, const char *key, bool required, floe_rest_strlist *out)
{
    json_t *a = json_object_get(o, key);
    if (!a || json_is_null(a)) {
        if (required)
            return floe__rest_bad("", "missing required field '%s'", key);
        return 0;
    }
    if (!json_is_array(a))
        return floe__rest_bad("", "field '%s': expected an array of strings", key);
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *e = json_array_get(a, i);
        if (!json_is_string(e))
            return floe__rest_bad("", "field '%s[%zu]': expected a string", key, i);
        FLOE_TRY(floe__rest_strlist_add(out, json_string_value(e)));
    }
    return 1;
}

int floe__rest_parse_config(floe_rest_config *out, const char *text, size_t len)
{
    json_t *j;
    FLOE_TRY(floe__rest_load(&j, text, len, "CatalogConfig"));
    memset(out, 0, sizeof *out);
    int rc = 0;
    if (!json_is_object(json_object_get(j, "defaults")) ||
        !json_is_object(json_object_get(j, "overrides")))
        rc = floe__rest_bad("CatalogConfig", "'defaults' and 'overrides' must be objects");
    if (rc >= 0)
        rc = floe__rest_get_map(j, "CatalogConfig", "defaults", &out->defaults);
    if (rc >= 0)
        rc = floe__rest_get_map(j, "CatalogConfig", "overrides", &out->overrides);
    if (rc >= 0)
        rc = strlist_from(j, "endpoints", false, &out->endpoints);
    const char *life = NULL;
    if (rc >= 0)
        rc = floe__rest_get_str(j, "CatalogConfig", "idempotency-key-lifetime", false, &life);
    if (rc >= 0 && life && !(out->idempotency_key_lifetime = floe__strdup(life)))
        rc = floe__error_nomem();
    json_decref(j);
    if (rc < 0) {
        floe__rest_config_free(out);
        return rc;
    }
    return 0;
}

static int check_metadata(json_t *m)
{
    int64_t v;
    const char *s;
    FLOE_TRY(floe__rest_get_int(m, "metadata", "format-version", true, &v));
    if (v < 1 || v > 3)
        return floe__rest_bad("metadata", "unsupported format-version %lld", (long long)v);
    FLOE_TRY(floe__rest_get_str(m, "metadata", "table-uuid", true, &s));
    return 0;
}

int floe__rest_parse_table_result(floe_rest_table_result *out, const char *text, size_t len,
                                  bool commit)
{
    json_t *j;
    const char *what = commit ? "CommitTableResponse" : "LoadTableResult";
    FLOE_TRY(floe__rest_load(&j, text, len, what));
    memset(out, 0, sizeof *out);
    json_t *m = NULL;
    const char *loc = NULL;
    int rc = floe__rest_get_obj(j, what, "metadata", true, &m);
    if (rc >= 0)
        rc = check_metadata(m);
    if (rc >= 0)
        rc = floe__rest_get_str(j, what, "metadata-location", commit, &loc);
    if (rc >= 0 && !commit)
        rc = floe__rest_get_map(j, what, "config", &out->config);
    if (rc >= 0 && loc && !(out->metadata_location = floe__strdup(loc)))
        rc = floe__error_nomem();
    if (rc < 0) {
        json_decref(j);
        floe__rest_table_result_free(out);
        return rc;
    }
    out->metadata = json_incref(m);
    json_decref(j);
    return 0;
}

static int page_token(json_t *j, char **next)
{
    json_t *t = json_object_get(j, "next-page-token");
    *next = NULL;
    if (!t || json_is_null(t))
        return 0;
    if (!json_is_string(t))
        return floe__rest_bad("", "field 'next-page-token': expected a string or null");
    *next = floe__strdup(json_string_value(t));
    return *next ? 0 : floe__error_nomem();
}

int floe__rest_parse_list_namespaces(floe_rest_namespace_list *out, char **next_page_token,
                                     const char *text, size_t len)
{
    json_t *j;
    FLOE_TRY(floe__rest_load(&j, text, len, "ListNamespacesResponse"));
    memset(out, 0, sizeof *out);
    *next_page_token = NULL;
    int rc = 0;
    json_t *a = json_object_get(j, "namespaces");
    floe_arena *tmp = floe__arena_new(1024);
    if (!tmp)
        rc = floe__error_nomem();
    else if (a && !json_is_array(a))
        rc = floe__rest_bad("", "field 'namespaces': expected an array");
    for (size_t i = 0; rc >= 0 && a && i < json_array_size(a); i++) {
        floe_rest_namespace ns;
        char p[64];
        snprintf(p, sizeof p, "namespaces[%zu]", i);
        rc = floe__rest_parse_namespace(tmp, json_array_get(a, i), p, &ns);
        if (rc >= 0)
            rc = floe__rest_namespace_list_add(out, &ns);
    }
    if (rc >= 0)
        rc = page_token(j, next_page_token);
    floe__arena_free(tmp);
    json_decref(j);
    if (rc < 0)
        floe__rest_namespace_list_free(out);
    return rc < 0 ? rc : 0;
}

int floe__rest_parse_list_tables(floe_rest_ident_list *out, char **next_page_token,
                                 const char *text, size_t len)
{
    json_t *j;
    FLOE_TRY(floe__rest_load(&j, text, len, "ListTablesResponse"));
    memset(out, 0, sizeof *out);
    *next_page_token = NULL;
    int rc = 0;
    json_t *a = json_object_get(j, "identifiers");
    floe_arena *tmp = floe__arena_new(1024);
    if (!tmp)
        rc = floe__error_nomem();
    else if (a && !json_is_array(a))
        rc = floe__rest_bad("", "field 'identifiers': expected an array");
    for (size_t i = 0; rc >= 0 && a && i < json_array_size(a); i++) {
        floe_rest_ident id;
        char p[64];
        snprintf(p, sizeof p, "identifiers[%zu]", i);
        rc = floe__rest_parse_ident(tmp, json_array_get(a, i), p, &id);
        if (rc >= 0)
            rc = floe__rest_ident_list_add(out, &id);
    }
    if (rc >= 0)
        rc = page_token(j, next_page_token);
    floe__arena_free(tmp);
    json_decref(j);
    if (rc < 0)
        floe__rest_ident_list_free(out);
    return rc < 0 ? rc : 0;
}

int floe__rest_parse_namespace_response(floe_rest_namespace_list *ns_out,
                                        floe_rest_namespace_result *out, const char *text,
                                        size_t len)
{
    json_t *j;
    FLOE_TRY(floe__rest_load(&j, text, len, "GetNamespaceResponse"));
    memset(out, 0, sizeof *out);
    memset(ns_out, 0, sizeof *ns_out);
    floe_arena *tmp = floe__arena_new(512);
    floe_rest_namespace ns;
    json_t *n = json_object_get(j, "namespace");
    int rc = !tmp ? floe__error_nomem()
             : n  ? floe__rest_parse_namespace(tmp, n, "namespace", &ns)
                  : floe__rest_bad("", "missing required field 'namespace'");
    if (rc >= 0)
        rc = floe__rest_namespace_list_add(ns_out, &ns);
    if (rc >= 0)
        rc = floe__rest_get_map(j, "", "properties", &out->properties);
    floe__arena_free(tmp);
    json_decref(j);
    if (rc < 0) {
        floe__rest_namespace_list_free(ns_out);
        floe__rest_namespace_result_free(out);
        return rc;
    }
    return 0;
}

int floe__rest_parse_update_namespace_props_result(floe_rest_update_namespace_props_result *out,
                                                   const char *text, size_t len)
{
    json_t *j;
    FLOE_TRY(floe__rest_load(&j, text, len, "UpdateNamespacePropertiesResponse"));
    memset(out, 0, sizeof *out);
    int rc = strlist_from(j, "updated", true, &out->updated);
    if (rc >= 0)
        rc = strlist_from(j, "removed", true, &out->removed);
    if (rc >= 0)
        rc = strlist_from(j, "missing", false, &out->missing);
    json_decref(j);
    if (rc < 0) {
        floe__rest_update_namespace_props_result_free(out);
        return rc;
    }
    return 0;
}

int floe__rest_parse_error(floe_rest_error *out, const char *text, size_t len)
{
    json_t *j;
    FLOE_TRY(floe__rest_load(&j, text, len, "IcebergErrorResponse"));
    memset(out, 0, sizeof *out);
    json_t *e = NULL;
    const char *msg = NULL, *type = NULL;
    int64_t code = 0;
    int rc = floe__rest_get_obj(j, "", "error", true, &e);
    if (rc >= 0)
        rc = floe__rest_get_str(e, "error", "message", true, &msg);
    if (rc >= 0)
        rc = floe__rest_get_str(e, "error", "type", true, &type);
    if (rc >= 0)
        rc = floe__rest_get_int(e, "error", "code", true, &code);
    if (rc >= 0 && (code < 400 || code > 600))
        rc = floe__rest_bad("error", "field 'code': %lld is not an HTTP error status",
                            (long long)code);
    if (rc >= 0) {
        out->message = floe__strdup(msg);
        out->type = floe__strdup(type);
        out->code = (int)code;
        if (!out->message || !out->type)
            rc = floe__error_nomem();
    }
    json_decref(j);
    if (rc < 0) {
        floe__rest_error_free(out);
        return rc;
    }
    return 0;
}
