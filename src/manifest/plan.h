/* SPDX-License-Identifier: Apache-2.0 */
/*
 * manifest/plan: resolution of a writer's Avro record schema against the
 * fields floe knows (by field id, else by name), shared by the manifest and
 * manifest-list readers. Private to the manifest module.
 */
#ifndef FLOE_MANIFEST_PLAN_H
#define FLOE_MANIFEST_PLAN_H

#include "manifest/manifest.h"

/* Value classes a known field may have. */
typedef enum mf_vk {
    MF_VK_INT,       /* int (long accepted, range-checked) */
    MF_VK_LONG,      /* long or int */
    MF_VK_BOOL,
    MF_VK_STRING,    /* string or bytes */
    MF_VK_BYTES,     /* bytes or fixed */
    MF_VK_LONGMAP,   /* array<record{key:int, value:long}> */
    MF_VK_BYTESMAP,  /* array<record{key:int, value:bytes}> */
    MF_VK_LONGLIST,  /* array<long> */
    MF_VK_INTLIST,   /* array<int> */
    MF_VK_RECORD,    /* a nested known record (data_file, field summary) */
    MF_VK_PARTITION, /* data_file.partition: any record of primitives */
    MF_VK_SUMMARIES, /* array<field_summary record> */
} mf_vk;

/* A field floe knows: id, current name, older name (or NULL), class. */
typedef struct mf_known {
    int32_t id;
    const char *name;
    const char *old_name;
    int target;
    mf_vk vk;
    bool required;
} mf_known;

typedef struct mf_field_plan {
    int target; /* -1: skip */
    mf_vk vk;
    int null_index;                /* -1: not an optional union */
    const floe_avro_schema *full;  /* writer type */
    const floe_avro_schema *type;  /* writer type without the null branch */
    bool key_first;                /* maps: key field precedes value */
    const struct mf_record_plan *sub; /* MF_VK_RECORD / MF_VK_SUMMARIES element */
} mf_field_plan;

typedef struct mf_record_plan {
    size_t nfields;
    mf_field_plan *fields;
} mf_record_plan;

/* Resolve `rec` (an Avro record) against `known`. Every required known
 * field must be present; a known field with an incompatible type is
 * FLOE_ECORRUPT ("schema/metadata mismatch"). `sub_for` maps a target with
 * MF_VK_RECORD / MF_VK_SUMMARIES to its nested known table. */
typedef struct mf_sub {
    int target;
    const mf_known *known;
    size_t nknown;
} mf_sub;

int mf_plan_record(mf_record_plan *out, floe_arena *arena, const floe_avro_schema *rec,
                   const mf_known *known, size_t nknown, const mf_sub *subs, size_t nsubs,
                   const char *source, const char *what);

/* Read a (possibly optional) field's union branch: *is_null true for null. */
static inline int mf_read_null(floe_avro_cursor *c, const mf_field_plan *f, bool *is_null)
{
    *is_null = false;
    if (f->null_index < 0)
        return 0;
    int64_t b;
    FLOE_TRY(floe_avro_read_long(c, &b));
    if (FLOE_UNLIKELY(b != 0 && b != 1))
        return floe_avro_cursor_error(c, "union branch %lld out of range", (long long)b);
    *is_null = b == f->null_index;
    return 0;
}

/* Iceberg type of a primitive Avro partition field (logical types, fixed
 * decimal/uuid, adjust-to-utc); FLOE_T_INVALID when not a primitive. */
floe_type_id mf_avro_to_type(const floe_avro_schema *s);

/* Decode one primitive datum of Avro type `s` as a value of `t`. Byte
 * values are borrowed from the cursor's buffer, or copied into `copy_to`
 * when non-NULL. */
int mf_read_value(floe_avro_cursor *c, const floe_avro_schema *s, floe_type_id t,
                  floe_arena *copy_to, floe_value *out);

/* Metrics maps and lists into `arena`. */
int mf_read_longmap(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, floe_col_longs *out);
int mf_read_bytesmap(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, bool copy,
                     floe_col_bytes_map *out);
int mf_read_longlist(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, size_t *n,
                     const int64_t **items);
int mf_read_intlist(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, size_t *n,
                    const int32_t **items);
int mf_read_opt_bytes(floe_avro_cursor *c, const floe_avro_schema *t, floe_arena *a, bool copy,
                      floe_opt_bytes *out);

/* Header integer (decimal text) -> value; false when absent or malformed. */
bool mf_meta_int64(floe_avro_file *f, const char *key, int64_t *out);

#endif
