/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/model: the Iceberg REST catalog protocol objects
 * (open-api/rest-catalog-open-api.yaml, components/schemas) as C structs, with
 * strict parsers (jansson; commit bodies with floe's JSON parser into
 * spec/commit.h's typed change) and serialisers in both directions, so that
 * the server (rest/server.c) and the REST client (catalog/) share one model.
 *
 * Ownership. Every parsed request or response owns one arena (`arena`) and a
 * reference to the parsed JSON document (`json`); strings point into the arena
 * and payloads the model does not interpret (schema, partition spec, sort
 * order, snapshot, statistics file, table metadata) are borrowed jansson nodes
 * of `json`. One `floe__rest_*_free()` releases everything; all accept NULL.
 *
 * Validation. Parsers reject wrong JSON types, missing required fields,
 * unknown requirement/update kinds and unsafe identifiers with FLOE_EINVALID
 * and a message naming the field ("updates[2].snapshot.snapshot-id: expected
 * an integer"). 64-bit ids are kept exact (json_int_t is long long).
 */
#ifndef FLOE_REST_MODEL_H
#define FLOE_REST_MODEL_H

#include "spec/commit.h"
#include "util/util.h"

#include <jansson.h>

/* Hard caps on what a request may contain. */
#define FLOE_REST_MAX_NAME 512        /* bytes in one namespace level or table name */
#define FLOE_REST_MAX_NS_DEPTH 16     /* namespace levels */
#define FLOE_REST_MAX_ITEMS 100000    /* requirements, updates, ids, removals ... */
#define FLOE_REST_NS_SEP '\x1f'       /* namespace separator in paths (%1F) */

/* ---------------------------------------------------------------- identifiers */

typedef struct floe_rest_namespace {
    char **parts;
    size_t n;
} floe_rest_namespace;

typedef struct floe_rest_ident {
    floe_rest_namespace ns;
    char *name;
} floe_rest_ident;

/* One namespace level or table name is acceptable: 1..FLOE_REST_MAX_NAME bytes
 * of valid UTF-8, not "." or "..", without '/', '\\', '%', or control
 * characters (U+0000..U+001F, U+007F). `what` names the field in the error. */
int floe__rest_check_name(const char *s, size_t len, const char *what);

/* Percent-decode a path segment or query value into the arena ('+' is a space
 * only when `plus_is_space`). Rejects malformed escapes. *out_len excludes the
 * NUL (decoded text may contain NUL: callers check with check_name). */
int floe__rest_percent_decode(floe_arena *a, const char *s, bool plus_is_space, char **out,
                              size_t *out_len);
/* Split a decoded namespace string on 0x1F (and `extra_sep` if not NUL) and
 * check every level. */
int floe__rest_namespace_split(floe_arena *a, const char *s, size_t len, char extra_sep,
                               floe_rest_namespace *out);
/* Join levels with `sep` into buf (no escaping). */
int floe__rest_namespace_join(floe_buf *b, const floe_rest_namespace *ns, char sep);
/* Path form: each level percent-encoded, joined with "%1F". */
int floe__rest_namespace_encode(floe_buf *b, const floe_rest_namespace *ns);
/* Percent-encode one path segment (RFC 3986 unreserved kept). */
int floe__rest_encode_segment(floe_buf *b, const char *s);
int floe__rest_namespace_copy(floe_arena *a, floe_rest_namespace *dst,
                              const floe_rest_namespace *src);
bool floe__rest_namespace_eq(const floe_rest_namespace *x, const floe_rest_namespace *y);

/* ---------------------------------------------------------------- small lists */

/* Owned string list (floe__malloc'd). */
typedef struct floe_rest_strlist {
    char **items;
    size_t n, cap;
} floe_rest_strlist;

int floe__rest_strlist_add(floe_rest_strlist *l, const char *s);
void floe__rest_strlist_free(floe_rest_strlist *l);

/* Namespaces / identifiers collected by a backend; own their arena. */
typedef struct floe_rest_namespace_list {
    floe_arena *arena;
    floe_rest_namespace *items;
    size_t n, cap;
} floe_rest_namespace_list;

typedef struct floe_rest_ident_list {
    floe_arena *arena;
    floe_rest_ident *items;
    size_t n, cap;
} floe_rest_ident_list;

int floe__rest_namespace_list_add(floe_rest_namespace_list *l, const floe_rest_namespace *ns);
void floe__rest_namespace_list_free(floe_rest_namespace_list *l);
int floe__rest_ident_list_add(floe_rest_ident_list *l, const floe_rest_ident *id);
void floe__rest_ident_list_free(floe_rest_ident_list *l);

/* ---------------------------------------------------------------- commits */

/* Requirements and updates are spec/commit.h's typed floe_requirement and
 * floe_table_update (its one parser and serializer). */

/* ---------------------------------------------------------------- requests */

typedef struct floe_rest_create_namespace_req {
    floe_arena *arena;
    json_t *json;
    floe_rest_namespace ns;
    floe_props properties;
} floe_rest_create_namespace_req;

typedef struct floe_rest_update_namespace_props_req {
    floe_arena *arena;
    json_t *json;
    const char **removals;
    size_t n_removals;
    floe_props updates;
} floe_rest_update_namespace_props_req;

typedef struct floe_rest_create_table_req {
    floe_arena *arena;
    json_t *json;
    const char *name;
    const char *location;      /* NULL = server chooses */
    json_t *schema;            /* required */
    json_t *partition_spec;    /* NULL = unpartitioned */
    json_t *write_order;       /* NULL = unsorted */
    bool stage_create;
    floe_props properties;
} floe_rest_create_table_req;

typedef struct floe_rest_register_table_req {
    floe_arena *arena;
    json_t *json;
    const char *name;
    const char *metadata_location;
    bool overwrite;
} floe_rest_register_table_req;

typedef struct floe_rest_rename_table_req {
    floe_arena *arena;
    json_t *json;
    floe_rest_ident source, destination;
} floe_rest_rename_table_req;

/* CommitTableRequest, parsed once with floe's JSON parser straight into
 * the typed change. In a transaction each change shares the transaction's
 * arena and root (its own are NULL). */
typedef struct floe_rest_commit_table_req {
    floe_arena *arena;
    floe_json *root; /* the parsed body (strings of the change point into it) */
    bool has_identifier;
    floe_rest_ident identifier;
    floe_vec requirements; /* floe_requirement */
    floe_vec updates;      /* floe_table_update */
} floe_rest_commit_table_req;

typedef struct floe_rest_commit_transaction_req {
    floe_arena *arena;
    floe_json *root;
    floe_rest_commit_table_req *changes; /* each has_identifier */
    size_t n_changes;
} floe_rest_commit_transaction_req;

/* Parsers: `text` need not be NUL-terminated. Strict JSON (duplicate keys
 * rejected). On failure *out is untouched and FLOE_EINVALID is returned. */
int floe__rest_parse_create_namespace(floe_rest_create_namespace_req **out, const char *text,
                                      size_t len);
int floe__rest_parse_update_namespace_props(floe_rest_update_namespace_props_req **out,
                                            const char *text, size_t len);
int floe__rest_parse_create_table(floe_rest_create_table_req **out, const char *text, size_t len);
int floe__rest_parse_register_table(floe_rest_register_table_req **out, const char *text,
                                    size_t len);
int floe__rest_parse_rename_table(floe_rest_rename_table_req **out, const char *text, size_t len);
int floe__rest_parse_commit_table(floe_rest_commit_table_req **out, const char *text, size_t len);
int floe__rest_parse_commit_transaction(floe_rest_commit_transaction_req **out, const char *text,
                                        size_t len);

void floe__rest_create_namespace_free(floe_rest_create_namespace_req *r);
void floe__rest_update_namespace_props_free(floe_rest_update_namespace_props_req *r);
void floe__rest_create_table_free(floe_rest_create_table_req *r);
void floe__rest_register_table_free(floe_rest_register_table_req *r);
void floe__rest_rename_table_free(floe_rest_rename_table_req *r);
void floe__rest_commit_table_free(floe_rest_commit_table_req *r);
void floe__rest_commit_transaction_free(floe_rest_commit_transaction_req *r);

/* A commit / transaction body appended to `out` (spec/commit's writer). */
int floe__rest_commit_table_write(floe_buf *out, const floe_rest_commit_table_req *r);
int floe__rest_commit_transaction_write(floe_buf *out, const floe_rest_commit_transaction_req *r);

/* Serialisers (new references; NULL on out-of-memory with the error set). */
json_t *floe__rest_create_namespace_to_json(const floe_rest_create_namespace_req *r);
json_t *floe__rest_update_namespace_props_to_json(const floe_rest_update_namespace_props_req *r);
json_t *floe__rest_create_table_to_json(const floe_rest_create_table_req *r);
json_t *floe__rest_register_table_to_json(const floe_rest_register_table_req *r);
json_t *floe__rest_rename_table_to_json(const floe_rest_rename_table_req *r);
json_t *floe__rest_namespace_to_json(const floe_rest_namespace *ns);
json_t *floe__rest_ident_to_json(const floe_rest_ident *id);
json_t *floe__rest_props_to_json(const floe_props *p);

/* ---------------------------------------------------------------- responses */

/* CatalogConfig. */
typedef struct floe_rest_config {
    floe_props defaults;
    floe_props overrides;
    floe_rest_strlist endpoints;
    /* idempotency-key-lifetime (ISO-8601 duration, "PT30M"; floe__malloc'd,
     * NULL if absent: the server does not support Idempotency-Key) */
    char *idempotency_key_lifetime;
} floe_rest_config;

/* LoadTableResult / CommitTableResponse (metadata_location required there). */
typedef struct floe_rest_table_result {
    char *metadata_location;   /* floe__malloc'd; NULL for a staged create */
    json_t *metadata;          /* owned reference */
    /* Optional: the metadata as JSON text (floe__malloc'd, owned). When set
     * the server sends it verbatim instead of serialising `metadata`, so a
     * backend can pass a metadata.json file's bytes through unparsed. The
     * backend guarantees it is one valid JSON object. */
    char *metadata_text;
    size_t metadata_text_len;
    floe_props config;
} floe_rest_table_result;

/* GetNamespaceResponse / CreateNamespaceResponse properties. */
typedef struct floe_rest_namespace_result {
    floe_props properties;
} floe_rest_namespace_result;

/* UpdateNamespacePropertiesResponse. */
typedef struct floe_rest_update_namespace_props_result {
    floe_rest_strlist updated, removed, missing;
} floe_rest_update_namespace_props_result;

/* ErrorModel. */
typedef struct floe_rest_error {
    char *message;
    char *type;
    int code;
} floe_rest_error;

void floe__rest_config_free(floe_rest_config *c);
void floe__rest_table_result_free(floe_rest_table_result *r);
void floe__rest_namespace_result_free(floe_rest_namespace_result *r);
void floe__rest_update_namespace_props_result_free(floe_rest_update_namespace_props_result *r);
void floe__rest_error_free(floe_rest_error *e);

json_t *floe__rest_config_to_json(const floe_rest_config *c);
/* ListNamespacesResponse over items[first, first+count); next_page_token NULL
 * writes null (omit_token: leave the field out). */
json_t *floe__rest_list_namespaces_to_json(const floe_rest_namespace *items, size_t count,
                                           const char *next_page_token, bool omit_token);
json_t *floe__rest_list_tables_to_json(const floe_rest_ident *items, size_t count,
                                       const char *next_page_token, bool omit_token);
json_t *floe__rest_namespace_response_to_json(const floe_rest_namespace *ns,
                                              const floe_props *properties);
json_t *floe__rest_update_namespace_props_result_to_json(
    const floe_rest_update_namespace_props_result *r);
/* LoadTableResult (commit = false) or CommitTableResponse (commit = true). */
json_t *floe__rest_table_result_to_json(const floe_rest_table_result *r, bool commit);
/* The LoadTableResult / CommitTableResponse body as text (floe__malloc'd),
 * splicing metadata_text when present. NULL on OOM or without metadata. */
char *floe__rest_table_result_dump(const floe_rest_table_result *r, bool commit, size_t *len);
/* {"error":{"message","type","code"}} */
json_t *floe__rest_error_to_json(int code, const char *type, const char *message);
/* The HTTP status and IcebergErrorResponse type of an error of `kind`, as
 * Iceberg's REST server answers the Java exception (RESTCatalogAdapter:
 * NoSuchTableException 404, NamespaceNotEmptyException 409, ...); the type
 * names the exception, so floe__error_kind_named() gives `kind` back. 0 (and
 * *type NULL) for FLOE_KIND_NONE and kinds REST has no answer for. */
int floe__rest_error_status(floe_error_kind kind, const char **type);
/* Whether `rc` is the error last raised on this thread and has `kind`
 * (which exception a callee's FLOE_ENOTFOUND is, say). */
bool floe__rest_raised(int rc, floe_error_kind kind);

/* Response parsers (for the REST client). Same strictness as requests. */
int floe__rest_parse_config(floe_rest_config *out, const char *text, size_t len);
int floe__rest_parse_table_result(floe_rest_table_result *out, const char *text, size_t len,
                                  bool commit);
int floe__rest_parse_list_namespaces(floe_rest_namespace_list *out, char **next_page_token,
                                     const char *text, size_t len);
int floe__rest_parse_list_tables(floe_rest_ident_list *out, char **next_page_token,
                                 const char *text, size_t len);
int floe__rest_parse_namespace_response(floe_rest_namespace_list *ns_out,
                                        floe_rest_namespace_result *out, const char *text,
                                        size_t len);
int floe__rest_parse_update_namespace_props_result(floe_rest_update_namespace_props_result *out,
                                                   const char *text, size_t len);
int floe__rest_parse_error(floe_rest_error *out, const char *text, size_t len);

/* Serialise compactly into a floe__malloc'd string (NULL on OOM). Consumes
 * the reference to `j` (so `floe__rest_dump(floe__rest_x_to_json(...))`). */
char *floe__rest_dump(json_t *j, size_t *len);

#endif
