/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec: functions over the type model of spec/types.h — type strings,
 * schema / partition spec / sort order JSON (spec "Appendix C: JSON
 * serialization"), single values in JSON (spec "JSON single-value
 * serialization"), transforms as strings, and field lookup.
 *
 * Everything parsed is allocated in the caller's arena; the schema lookup
 * maps (floe_schema.by_id / parent_of) are heap maps released with
 * floe__schema_release(). JSON goes through jansson, whose allocation is
 * routed through floe__malloc (floe__json_init) so out-of-memory tests work.
 */
#ifndef FLOE_SPEC_SPEC_H
#define FLOE_SPEC_SPEC_H

#include "spec/types.h"

#include <jansson.h>

/* Maximum nesting of struct/list/map accepted from outside. */
#define FLOE_MAX_TYPE_DEPTH 64

/* ---------------------------------------------------------------- JSON helpers (json.c) */

/* Route jansson's allocation through floe__malloc/floe__free (idempotent). */
void floe__json_init(void);
/* Parse JSON text; FLOE_ECORRUPT naming `what`, line and column when malformed. */
int floe__json_parse(json_t **out, const void *data, size_t len, const char *what);

/* Typed member access. `ctx` names the object in messages ("snapshot 3").
 * Missing required member: FLOE_EINVALID "missing required field 'key' in ctx";
 * wrong JSON type: FLOE_EINVALID "field 'key' in ctx must be ...". The _opt
 * forms leave *out untouched and set *present=false when the key is absent
 * or JSON null. */
int floe__json_int(const json_t *o, const char *key, const char *ctx, int64_t *out);
int floe__json_int_opt(const json_t *o, const char *key, const char *ctx, int64_t *out,
                       bool *present);
int floe__json_i32(const json_t *o, const char *key, const char *ctx, int32_t *out);
int floe__json_str(const json_t *o, const char *key, const char *ctx, floe_arena *a,
                   const char **out);
int floe__json_str_opt(const json_t *o, const char *key, const char *ctx, floe_arena *a,
                       const char **out);
int floe__json_bool_opt(const json_t *o, const char *key, const char *ctx, bool *out,
                        bool *present);
/* Member that must be an array/object when present (NULL when absent). */
int floe__json_array_opt(const json_t *o, const char *key, const char *ctx, json_t **out);
int floe__json_object_opt(const json_t *o, const char *key, const char *ctx, json_t **out);

/* Append `"s"` with JSON escaping. */
int floe__json_put_str(floe_buf *b, const char *s);

/* ---------------------------------------------------------------- types (schema.c) */

/* Name of a primitive type id ("long", "timestamptz", ...); "struct" etc. */
const char *floe__type_name(floe_type_id id);
/* Parse a primitive type string: "int", "decimal(10, 2)", "fixed[16]".
 * Primitives without parameters return static storage. FLOE_EINVALID for an
 * unknown type or bad parameters (decimal precision 1..38, 0 <= scale <= P). */
int floe__type_parse(const char *s, floe_arena *a, const floe_type **out);
/* Append the spec's string for a primitive type, or "struct"/"list"/"map". */
int floe__type_format(const floe_type *t, floe_buf *out);

/* ---------------------------------------------------------------- schemas (schema.c) */

/* Parse one schema object ({"type":"struct","schema-id":..,"fields":[..]}).
 * `default_id` is used when "schema-id" is absent (v1 `schema`). Builds the
 * lookup index; rejects duplicate field ids. */
int floe__schema_from_json(floe_schema **out, const json_t *j, int32_t default_id,
                           floe_arena *a);
/* Append the schema as JSON (spec Appendix C). */
int floe__schema_to_json(const floe_schema *s, floe_buf *out);
/* Free the lookup maps (the schema itself lives in its arena). */
void floe__schema_release(floe_schema *s);
/* Lookup by field id (any depth) and by dotted name ("location.lat";
 * list element "a.element", map "m.key"/"m.value"). NULL when absent. */
const floe_field *floe__schema_field_by_id(const floe_schema *s, int32_t id);
const floe_field *floe__schema_field_by_name(const floe_schema *s, const char *name);
/* Parse a type (string or nested object) from JSON; exposed for tests. */
int floe__type_from_json(const floe_type **out, const json_t *j, floe_arena *a, int depth);

/* Single value <-> JSON (spec "JSON single-value serialization"), primitives
 * only. Bytes of the result are copied into `a`. */
int floe__value_from_json(floe_value *out, const json_t *j, const floe_type *t, floe_arena *a);
int floe__value_to_json(const floe_value *v, floe_buf *out);

/* ---------------------------------------------------------------- partitioning (partition.c) */

/* "identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour",
 * "void"; any other plain identifier is kept as FLOE_TR_UNKNOWN (name
 * verbatim, never applied). A malformed known transform ("bucket[x]",
 * "bucket[0]") or an empty string: FLOE_EINVALID "unknown transform '...'". */
int floe__transform_parse(const char *s, floe_arena *a, floe_transform *out);
int floe__transform_format(const floe_transform *t, floe_buf *out);

/* {"spec-id":N,"fields":[...]}. `v1_fields` (a bare array, v1 `partition-spec`)
 * may be passed instead with spec_id 0; missing field ids are assigned from
 * 1000 upward (v1). */
int floe__partition_spec_from_json(floe_partition_spec **out, const json_t *j, int32_t spec_id,
                                   bool ids_required, floe_arena *a);
int floe__partition_spec_to_json(const floe_partition_spec *s, floe_buf *out);
int floe__sort_order_from_json(floe_sort_order **out, const json_t *j, floe_arena *a);
int floe__sort_order_to_json(const floe_sort_order *o, floe_buf *out);

#endif
