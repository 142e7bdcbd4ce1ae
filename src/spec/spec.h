/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec: functions over the type model of spec/types.h — type strings,
 * schema / partition spec / sort order JSON (spec "Appendix C: JSON
 * serialization"), single values in JSON (spec "JSON single-value
 * serialization"), transforms as strings, and field lookup.
 *
 * Everything parsed is allocated in the caller's arena; the schema lookup
 * maps (floe_schema.by_id / parent_of) are heap maps released with
 * floe__schema_release(). JSON is parsed by our own small arena parser
 * (json.c), see below.
 */
#ifndef FLOE_SPEC_SPEC_H
#define FLOE_SPEC_SPEC_H

#include "spec/types.h"


/* Maximum nesting of struct/list/map accepted from outside. */
#define FLOE_MAX_TYPE_DEPTH 64

/* ---------------------------------------------------------------- JSON (json.c) */

/* A small JSON tree built in one arena by our own parser: metadata files
 * with 10,000+ snapshots are parsed on every commit, and jansson (one malloc
 * and one hash table per object) was 3-4x slower than the budget. Objects
 * keep their members in file order (summaries and properties round-trip in
 * order); lookup is linear, which is fine for the small objects of the spec.
 * Every accessor accepts NULL (and then answers false / 0 / NULL). */
typedef enum floe_json_type {
    FLOE_JSON_NULL = 0,
    FLOE_JSON_TRUE,
    FLOE_JSON_FALSE,
    FLOE_JSON_INTEGER,
    FLOE_JSON_REAL,
    FLOE_JSON_STRING,
    FLOE_JSON_ARRAY,
    FLOE_JSON_OBJECT,
    FLOE_JSON_LAZY, /* an array left unparsed by floe__json_parse_lazy */
} floe_json_type;

/* Where a lazy array lies in the (caller-owned) input text. */
typedef struct floe_json_raw {
    const char *doc;   /* start of the whole document (for error positions) */
    const char *start; /* the '[' */
    const char *end;   /* one past the ']' */
    size_t count;      /* number of elements (checked while iterating) */
} floe_json_raw;

typedef struct floe_json floe_json;
struct floe_json {
    floe_json_type type;
    uint32_t n;        /* string length, array or object member count */
    const char **keys; /* object member names (n) */
    union {
        int64_t i;
        double d;
        const char *s; /* NUL-terminated (may contain NUL if escaped \u0000) */
        floe_json *items;
        const floe_json_raw *raw; /* FLOE_JSON_LAZY */
    } u;
};

/* Byte-packed strings on top of an arena (arena allocations are 16-byte
 * aligned, which doubles the cost of the many short strings of snapshot
 * summaries). Returns a NUL-terminated copy; NULL on OOM (error set). */
typedef struct floe_strpool {
    floe_arena *a;
    char *cur;
    size_t left;
} floe_strpool;
char *floe__strpool_dup(floe_strpool *p, const char *s, size_t n);
/* n uninitialized bytes (byte-aligned) from the pool. */
char *floe__strpool_alloc(floe_strpool *p, size_t n);

/* Snapshot packing (snapshot_pack.c) with a reader's pool; `dir` is the
 * interned directory of `path` (its first bytes up to the last '/'), or NULL. */
struct floe_snapshot;
int floe__summary_pack_pool(struct floe_snapshot *s, floe_strpool *pool, const floe_kv *kv,
                            size_t n);
int floe__manifest_list_pack_pool(struct floe_snapshot *s, floe_strpool *pool, const char *path,
                                  size_t len, const char *dir);

/* Limits on input from outside. */
#define FLOE_JSON_MAX_DEPTH 256

/* Parse JSON text; FLOE_ECORRUPT naming `what`, line, column and offset when
 * malformed; FLOE_ENOMEM. Free the tree with floe__json_free (NULL ok). */
int floe__json_parse(floe_json **out, const void *data, size_t len, const char *what);
void floe__json_free(floe_json *root);
/* Like floe__json_parse, but arrays that are members `lazy_keys` of the root
 * object are only scanned (brackets and strings) and kept as FLOE_JSON_LAZY
 * nodes pointing into `data`, which must outlive the tree. Their elements are
 * parsed one at a time by floe__json_each, so a 100,000-snapshot file never
 * exists as one tree (peak memory) . */
int floe__json_parse_lazy(floe_json **out, const void *data, size_t len, const char *what,
                          const char *const *lazy_keys, size_t nlazy);
/* Number of elements of an array or lazy array (0 otherwise). */
/* Parse one value into a reusable scratch (arena reset and stack kept from
 * call to call): the tree in *out lives until the next call or
 * floe__json_scratch_free. Same errors as floe__json_parse. */
typedef struct floe_json_scratch {
    floe_arena *a;
    floe_json *stack;
    const char **kstack;
    size_t cap;
} floe_json_scratch;
int floe__json_parse_scratch(floe_json *out, floe_json_scratch *sc, const void *data, size_t len,
                             const char *what);
void floe__json_scratch_free(floe_json_scratch *sc);
size_t floe__json_count(const floe_json *j);
/* Call fn for each element of an array or lazy array, in order. Elements of
 * a lazy array live only during their call. Stops at the first negative
 * return; FLOE_ECORRUPT for malformed elements. */
int floe__json_each(const floe_json *j, const char *what,
                    int (*fn)(const floe_json *elem, size_t i, void *payload), void *payload);
floe_json *floe__json_get(const floe_json *o, const char *key); /* object member */

static inline size_t floe__json_len(const floe_json *j)
{
    return j && (j->type == FLOE_JSON_ARRAY || j->type == FLOE_JSON_OBJECT) ? j->n : 0;
}
static inline floe_json *floe__json_at(const floe_json *j, size_t i)
{
    return j && (j->type == FLOE_JSON_ARRAY || j->type == FLOE_JSON_OBJECT) && i < j->n
               ? &j->u.items[i]
               : NULL;
}
static inline bool floe__json_is_null(const floe_json *j) { return j && j->type == FLOE_JSON_NULL; }
static inline bool floe__json_is_true(const floe_json *j) { return j && j->type == FLOE_JSON_TRUE; }
static inline bool floe__json_is_boolean(const floe_json *j)
{
    return j && (j->type == FLOE_JSON_TRUE || j->type == FLOE_JSON_FALSE);
}
static inline bool floe__json_is_integer(const floe_json *j)
{
    return j && j->type == FLOE_JSON_INTEGER;
}
static inline bool floe__json_is_number(const floe_json *j)
{
    return j && (j->type == FLOE_JSON_INTEGER || j->type == FLOE_JSON_REAL);
}
static inline bool floe__json_is_string(const floe_json *j) { return j && j->type == FLOE_JSON_STRING; }
static inline bool floe__json_is_array(const floe_json *j) { return j && j->type == FLOE_JSON_ARRAY; }
static inline bool floe__json_is_object(const floe_json *j) { return j && j->type == FLOE_JSON_OBJECT; }
static inline const char *floe__json_sval(const floe_json *j)
{
    return floe__json_is_string(j) ? j->u.s : NULL;
}
static inline size_t floe__json_slen(const floe_json *j)
{
    return floe__json_is_string(j) ? j->n : 0;
}
static inline int64_t floe__json_ival(const floe_json *j)
{
    return floe__json_is_integer(j) ? j->u.i : 0;
}
static inline double floe__json_num(const floe_json *j)
{
    return !j ? 0 : j->type == FLOE_JSON_INTEGER ? (double)j->u.i
                  : j->type == FLOE_JSON_REAL    ? j->u.d
                                                 : 0;
}
/* for (members of object o) { key, value } in file order */
#define FLOE_JSON_FOREACH(o, key, value)                                                           \
    for (size_t floe__ji = 0;                                                                      \
         floe__json_is_object(o) && floe__ji < (o)->n &&                                           \
         ((key) = (o)->keys[floe__ji], (value) = &(o)->u.items[floe__ji], 1);                      \
         floe__ji++)

/* Typed member access. `ctx` names the object in messages ("snapshot 3").
 * Missing required member: FLOE_EINVALID "missing required field 'key' in ctx";
 * wrong JSON type: FLOE_EINVALID "field 'key' in ctx must be ...". The _opt
 * forms leave *out untouched and set *present=false when the key is absent
 * or JSON null. */
int floe__json_int(const floe_json *o, const char *key, const char *ctx, int64_t *out);
int floe__json_int_opt(const floe_json *o, const char *key, const char *ctx, int64_t *out,
                       bool *present);
int floe__json_i32(const floe_json *o, const char *key, const char *ctx, int32_t *out);
int floe__json_str(const floe_json *o, const char *key, const char *ctx, floe_arena *a,
                   const char **out);
int floe__json_str_opt(const floe_json *o, const char *key, const char *ctx, floe_arena *a,
                       const char **out);
int floe__json_bool_opt(const floe_json *o, const char *key, const char *ctx, bool *out,
                        bool *present);
/* Member that must be an array/object when present (NULL when absent). */
int floe__json_array_opt(const floe_json *o, const char *key, const char *ctx, floe_json **out);
int floe__json_object_opt(const floe_json *o, const char *key, const char *ctx, floe_json **out);

/* Write a parsed value back as compact JSON (a lazy array as its text). */
struct floe_jw;
int floe__json_write(struct floe_jw *w, const floe_json *j);

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
int floe__schema_from_json(floe_schema **out, const floe_json *j, int32_t default_id,
                           floe_arena *a);
/* Append the schema as JSON (spec Appendix C). */
int floe__schema_to_json(const floe_schema *s, floe_buf *out);
/* Java's Schema.checkCompatibility for types: a v1/v2 table cannot hold
 * timestamp_ns, timestamptz_ns, unknown, variant, geometry or geography
 * ("Invalid schema for v2:\n- Invalid type for ts: timestamp_ns is not
 * supported until v3", FLOE_EINVALID; nested fields by dotted name), and
 * in every version Java's NestedField rule that an unknown field is optional
 * ("Cannot create required field with unknown type: u"). */
int floe__schema_check_format(const floe_schema *s, int format_version);
/* Free the lookup maps (the schema itself lives in its arena). */
void floe__schema_release(floe_schema *s);
/* Lookup by field id (any depth) and by dotted name ("location.lat";
 * list element "a.element", map "m.key"/"m.value"). NULL when absent. */
const floe_field *floe__schema_field_by_id(const floe_schema *s, int32_t id);
const floe_field *floe__schema_field_by_name(const floe_schema *s, const char *name);
/* Parse a type (string or nested object) from JSON; exposed for tests. */
int floe__type_from_json(const floe_type **out, const floe_json *j, floe_arena *a, int depth);

/* Single value <-> JSON (spec "JSON single-value serialization"), primitives
 * only. Bytes of the result are copied into `a`. */
int floe__value_from_json(floe_value *out, const floe_json *j, const floe_type *t, floe_arena *a);
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
int floe__partition_spec_from_json(floe_partition_spec **out, const floe_json *j, int32_t spec_id,
                                   bool ids_required, floe_arena *a);
int floe__partition_spec_to_json(const floe_partition_spec *s, floe_buf *out);
int floe__sort_order_from_json(floe_sort_order **out, const floe_json *j, floe_arena *a);
int floe__sort_order_to_json(const floe_sort_order *o, floe_buf *out);

#endif
