/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/types: Iceberg's type system (spec "Schemas and Data Types"), schemas,
 * partition specs with their transforms, and single values. These structs are
 * the shared vocabulary of avro/manifest/parquet/expr/scan: they are plain
 * data owned by an arena (usually the TableMetadata's), read-only once built.
 *
 * Functions over them (parsing type strings, JSON, transforms, lookup by id)
 * live in the spec module's .c files (spec.h, value.h).
 */
#ifndef FLOE_SPEC_TYPES_H
#define FLOE_SPEC_TYPES_H

#include "util/util.h"

/* Signed 128-bit integer: decimals up to precision 38 (unscaled value). */
__extension__ typedef __int128 floe_i128;
__extension__ typedef unsigned __int128 floe_u128;

typedef enum floe_type_id {
    FLOE_T_INVALID = 0,
    /* primitives */
    FLOE_T_BOOLEAN,
    FLOE_T_INT,
    FLOE_T_LONG,
    FLOE_T_FLOAT,
    FLOE_T_DOUBLE,
    FLOE_T_DECIMAL,      /* precision, scale */
    FLOE_T_DATE,         /* days since 1970-01-01 (int32) */
    FLOE_T_TIME,         /* microseconds since midnight (int64) */
    FLOE_T_TIMESTAMP,    /* microseconds since epoch, no zone (int64) */
    FLOE_T_TIMESTAMPTZ,  /* microseconds since epoch, UTC (int64) */
    FLOE_T_TIMESTAMP_NS, /* v3: nanoseconds, no zone */
    FLOE_T_TIMESTAMPTZ_NS,
    FLOE_T_STRING,  /* UTF-8 bytes */
    FLOE_T_UUID,    /* 16 bytes, big-endian */
    FLOE_T_FIXED,   /* length */
    FLOE_T_BINARY,
    FLOE_T_UNKNOWN, /* v3 "unknown": always null */
    FLOE_T_VARIANT, /* v3, read-only recognition */
    FLOE_T_GEOMETRY,
    FLOE_T_GEOGRAPHY,
    /* nested */
    FLOE_T_STRUCT,
    FLOE_T_LIST,
    FLOE_T_MAP,
} floe_type_id;

typedef struct floe_type floe_type;
typedef struct floe_value floe_value;
typedef struct floe_nested_value floe_nested_value;

/* A struct field, a list element (name "element") or a map key/value
 * (names "key"/"value"). */
typedef struct floe_field {
    int32_t id;
    const char *name;
    bool required;
    const floe_type *type;
    const char *doc;                  /* NULL if none */
    /* NULL if none (spec "Default values"); for a struct, list or map
     * field a value of that type (floe_value.v.nested). */
    const floe_value *initial_default;
    const floe_value *write_default;
} floe_field;

struct floe_type {
    floe_type_id id;
    int32_t precision; /* decimal */
    int32_t scale;     /* decimal */
    int32_t length;    /* fixed[L] */
    /* struct */
    size_t nfields;
    const floe_field *fields;
    /* list: element; map: key, value */
    const floe_field *element;
    const floe_field *key;
    const floe_field *value;
};

static inline bool floe_type_is_nested(const floe_type *t)
{
    return t->id == FLOE_T_STRUCT || t->id == FLOE_T_LIST || t->id == FLOE_T_MAP;
}

typedef struct floe_schema {
    int32_t schema_id;
    const floe_type *root; /* FLOE_T_STRUCT */
    size_t n_identifier_field_ids;
    const int32_t *identifier_field_ids;
    int32_t highest_field_id; /* max id over all nested fields */
    /* Lookup index built by floe_schema_index(): field id -> const floe_field*,
     * and the parent id of each field (0 for top level). */
    floe_intmap *by_id;
    floe_intmap *parent_of;
} floe_schema;

/* ---------------------------------------------------------------- values */

/* One value of a primitive type (partition values, bounds, literals,
 * defaults). Bytes are borrowed from the owner (arena or input buffer). */
struct floe_value {
    /* primitive type id; FLOE_T_INVALID never. Struct, list and map only
     * for default values (v.nested). */
    floe_type_id type;
    bool is_null;
    int32_t scale;     /* decimal: scale of `dec` */
    union {
        bool b;
        int32_t i32;   /* int, date */
        int64_t i64;   /* long, time, timestamp(tz)(_ns) */
        float f32;
        double f64;
        floe_i128 dec; /* decimal unscaled */
        struct {
            const uint8_t *ptr;
            size_t len;
        } bytes;       /* string, uuid (16), fixed, binary */
        const floe_nested_value *nested; /* struct, list, map */
    } v;
};

/* A struct, list or map value: a default of a nested field (spec "Default
 * values", read from the spec's "JSON single-value serialization"). A
 * struct names the members it gives by field id (the spec's stored form is
 * `{}`: every field takes its own default); a list has `n` elements; a map
 * `n` entries, key i at items[2i] and value i at items[2i+1]. */
struct floe_nested_value {
    size_t n;
    const int32_t *ids;       /* struct: field id of member i */
    const floe_value *items;  /* struct, list: n; map: 2n */
};

/* ---------------------------------------------------------------- partitioning */

typedef enum floe_transform_kind {
    FLOE_TR_IDENTITY = 1,
    FLOE_TR_BUCKET,   /* param = N */
    FLOE_TR_TRUNCATE, /* param = W */
    FLOE_TR_YEAR,
    FLOE_TR_MONTH,
    FLOE_TR_DAY,
    FLOE_TR_HOUR,
    FLOE_TR_VOID,
    FLOE_TR_UNKNOWN, /* kept verbatim (name), never applied */
} floe_transform_kind;

typedef struct floe_transform {
    floe_transform_kind kind;
    int32_t param;
    const char *name; /* the spec string: "bucket[16]", "day", ... */
} floe_transform;

typedef struct floe_partition_field {
    int32_t source_id;
    int32_t field_id; /* >= 1000 in v2 */
    const char *name;
    floe_transform transform;
} floe_partition_field;

typedef struct floe_partition_spec {
    int32_t spec_id;
    size_t nfields;
    const floe_partition_field *fields;
} floe_partition_spec;

/* A partition tuple: one value per spec field, in spec order. */
typedef struct floe_partition_value {
    size_t n;
    const floe_value *values;
} floe_partition_value;

/* ---------------------------------------------------------------- sort orders */

typedef struct floe_sort_field {
    int32_t source_id;
    floe_transform transform;
    bool descending;
    bool nulls_first;
} floe_sort_field;

typedef struct floe_sort_order {
    int32_t order_id;
    size_t nfields;
    const floe_sort_field *fields;
} floe_sort_order;

#endif
