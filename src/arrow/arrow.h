/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow: producing Arrow C Data Interface values (include/floe/arrow.h).
 *  - floe__arrow_schema_from_type(): an Iceberg type / schema as an
 *    ArrowSchema, with `PARQUET:field_id` metadata on every field;
 *  - floe_arrow_builder: a column under construction (validity bitmap,
 *    values, offsets, bytes, children) that can be appended to value by value
 *    (floe_value) or filled in bulk by decoders, then finished into an
 *    ArrowArray whose release callback frees everything.
 *
 * Arrow types used for Iceberg types: boolean `b`, int `i`, long `l`, float
 * `f`, double `g`, decimal(P,S) `d:P,S` (decimal128), date `tdD`, time `ttu`,
 * timestamp `tsu:`, timestamptz `tsu:UTC`, timestamp_ns `tsn:` / `tsn:UTC`,
 * string `u`, binary `z`, uuid `w:16`, fixed[L] `w:L`, struct `+s`, list `+l`
 * (child "element"), map `+m` (child "entries" `+s` with "key", "value").
 */
#ifndef FLOE_ARROW_ARROW_H
#define FLOE_ARROW_ARROW_H

#include "floe/arrow.h"
#include "spec/types.h"

typedef enum floe_arrow_kind {
    FLOE_AK_BOOL = 1,
    FLOE_AK_FIXED,  /* fixed-width values of `width` bytes: ints, floats, decimal128, w:N */
    FLOE_AK_BINARY, /* int32 offsets + data: string, binary */
    FLOE_AK_STRUCT,
    FLOE_AK_LIST,
    FLOE_AK_MAP,
    FLOE_AK_NULL, /* Arrow null (Iceberg v3 unknown): a length, no buffers */
} floe_arrow_kind;

typedef struct floe_arrow_builder floe_arrow_builder;
struct floe_arrow_builder {
    const floe_type *type;
    floe_arrow_kind kind;
    int width;          /* FLOE_AK_FIXED: bytes per value */
    int64_t length;
    int64_t null_count;
    floe_buf validity;  /* bitmap, one bit per slot (always maintained) */
    floe_buf values;    /* FIXED values / BOOL bits */
    floe_buf offsets;   /* int32: BINARY, LIST, MAP (length + 1 entries) */
    floe_buf data;      /* BINARY bytes */
    size_t nchildren;
    floe_arrow_builder **children; /* struct fields; list: [element]; map: [key, value] */
};

/* Arrow format string of an Iceberg primitive or nested type (static). */
const char *floe__arrow_format(const floe_type *t, char buf[32]);

/* Fill `out` with the ArrowSchema of a struct type's fields (root `+s`,
 * name ""). Caller releases with out->release. */
int floe__arrow_schema_from_struct(struct ArrowSchema *out, const floe_type *struct_type);
/* One field. */
int floe__arrow_schema_from_field(struct ArrowSchema *out, const floe_field *f);

/* The builder kind and value width (FLOE_AK_FIXED) of an Iceberg type;
 * FLOE_EUNSUPPORTED for types without one, FLOE_EINVALID for a bad fixed
 * length. */
int floe__arrow_kind_of(const floe_type *t, floe_arrow_kind *kind, int *width);

/* Builders. The type is borrowed. */
int floe__arrow_builder_new(floe_arrow_builder **out, const floe_type *t);
void floe__arrow_builder_free(floe_arrow_builder *b);
/* Drop contents, keep allocations and children. */
void floe__arrow_builder_reset(floe_arrow_builder *b);
/* Primitive: append one value (NULL or is_null -> null). The value's type
 * must match the builder's (ints may widen; decimals are rescaled never). */
int floe__arrow_builder_append(floe_arrow_builder *b, const floe_value *v);
int floe__arrow_builder_append_null(floe_arrow_builder *b);
/* Append field f's initial-default (spec "Default values"), of any type:
 * null when it has none; a struct default gives the members it names and
 * every other member its own initial-default (the spec's stored `{}`). */
int floe__arrow_builder_append_default(floe_arrow_builder *b, const floe_field *f);
/* The same with f's write-default and its members' write-defaults: the value
 * of a field a writer was not given (INSERT omitting it). */
int floe__arrow_builder_append_write_default(floe_arrow_builder *b, const floe_field *f);
/* Nested: struct_append after appending one slot to every child; list/map
 * append after appending `n` elements (entries) to the children. A null
 * struct/list still needs its children to get a (null) slot for structs. */
int floe__arrow_builder_struct_append(floe_arrow_builder *b, bool valid);
int floe__arrow_builder_list_append(floe_arrow_builder *b, bool valid, int64_t n);
/* Validity helpers for bulk fillers: reserve `n` more slots, set one bit. */
int floe__arrow_validity_reserve(floe_arrow_builder *b, int64_t n);
static inline void floe__arrow_bit_set(uint8_t *bits, int64_t i, bool v)
{
    if (v)
        bits[i >> 3] |= (uint8_t)(1u << (i & 7));
    else
        bits[i >> 3] &= (uint8_t)~(1u << (i & 7));
}
static inline bool floe__arrow_bit_get(const uint8_t *bits, int64_t i)
{
    return (bits[i >> 3] >> (i & 7)) & 1;
}
/* Move the builder's contents into `out` (the builder is reset). */
int floe__arrow_builder_finish(floe_arrow_builder *b, struct ArrowArray *out);

/* An empty ArrowArray with n_buffers / n_children slots whose release frees
 * every non-NULL buffer with floe__free and releases the children. */
int floe__arrow_array_alloc(struct ArrowArray *out, int64_t n_buffers, int64_t n_children);

/* Bytes of one value of an Arrow array at index i (for readers of arrays:
 * writer, tests). */
bool floe__arrow_is_valid(const struct ArrowArray *a, int64_t i);

/* Map a floe error code to an errno value for the stream interface. */
int floe__arrow_errno(int floe_code);

/* The value of row `i` of a primitive Arrow column of Iceberg type `t`
 * (bytes borrowed from the array), checked against the array's length and
 * offsets. FLOE_EINVALID for a bad array, FLOE_EUNSUPPORTED for nested
 * types. */
int floe__arrow_value_at(const struct ArrowArray *arr, const floe_type *t, int64_t i,
                         floe_value *out);

/* A row of a struct batch, for evaluating expressions on it: root is the
 * batch's Iceberg struct type, row the row index. */
typedef struct floe_arrow_row {
    const floe_type *root;
    const struct ArrowArray *batch;
    int64_t row;
} floe_arrow_row;

/* Expression getter (floe_expr_eval) over a floe_arrow_row payload: the
 * value of field `field_id`, searched through nested structs (null when a
 * struct on the way is null, or when the field is absent). */
int floe__arrow_row_value(int32_t field_id, floe_value *out, void *payload);

#endif
