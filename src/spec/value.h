/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/value: single values of primitive types — the spec's single-value
 * binary serialization (Appendix D, used for manifest bounds and partition
 * summaries), ordering, and human-readable formatting.
 */
#ifndef FLOE_SPEC_VALUE_H
#define FLOE_SPEC_VALUE_H

#include "spec/types.h"

/* Constructors (no allocation; bytes are borrowed). */
floe_value floe_value_null(floe_type_id t);
floe_value floe_value_bool(bool b);
floe_value floe_value_int(int32_t v);
floe_value floe_value_long(int64_t v);
floe_value floe_value_float(float v);
floe_value floe_value_double(double v);
floe_value floe_value_date(int32_t days);
floe_value floe_value_i64(floe_type_id t, int64_t v); /* time, timestamp(tz)(_ns) */
floe_value floe_value_decimal(floe_i128 unscaled, int32_t scale);
floe_value floe_value_bytes(floe_type_id t, const void *p, size_t len); /* string, uuid, fixed, binary */

/* Decode Appendix D single-value bytes for primitive type `t`. Bytes are
 * borrowed from `p` for string/uuid/fixed/binary. FLOE_ECORRUPT on a length
 * that does not fit the type. */
int floe_value_from_single(const floe_type *t, const uint8_t *p, size_t len, floe_value *out);

/* Append the Appendix D encoding of `v` to `out`. Decimals use the minimum
 * number of big-endian two's-complement bytes. */
int floe_value_to_single(const floe_value *v, floe_buf *out);

/* *d = *s with the bytes of a string/binary/fixed/uuid value copied into
 * `a` (so d outlives s's buffers). FLOE_ENOMEM. */
int floe__value_copy(floe_arena *a, floe_value *d, const floe_value *s);

/* Total order for two non-null values of the same type (strings and binary
 * compare as unsigned bytes, which for UTF-8 is code point order; floats order
 * -NaN < -inf < ... < -0 < 0 < ... < inf < NaN as the spec's sort order).
 * Returns <0, 0, >0. Values of different types compare by type id. */
int floe_value_compare(const floe_value *a, const floe_value *b);

/* Human-readable text: dates `2026-09-20`, timestamps
 * `2026-09-20T10:00:00.123456` (tz: `+00:00` suffix), decimals with their
 * scale, uuid canonical, binary/fixed as lowercase hex, null as `null`. */
int floe_value_format(const floe_value *v, floe_buf *out);

/* Decimal helpers: unscaled value to text with `scale` digits after the point. */
int floe_decimal_format(floe_i128 unscaled, int32_t scale, floe_buf *out);

#endif
