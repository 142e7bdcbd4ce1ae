/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util/murmur3: the 32-bit Murmur3 hash, x86 variant, that the spec's
 * Appendix B ("32-bit Hash Requirements") mandates for the bucket[N]
 * partition transform, plus the per-type input encodings of that appendix.
 */
#ifndef FLOE_UTIL_MURMUR3_H
#define FLOE_UTIL_MURMUR3_H

#include <stddef.h>
#include <stdint.h>

/* MurmurHash3_x86_32 of `len` bytes with `seed` (Iceberg uses seed 0). */
uint32_t floe__murmur3_32(const void *data, size_t len, uint32_t seed);

/* Appendix B encodings, all seeded with 0, results as Java's signed int.
 * hash_long: 8 little-endian bytes. Ints are hashed as longs (note [1]) so
 * that int -> long promotion keeps bucket values. */
int32_t floe__murmur3_long(int64_t v);
static inline int32_t floe__murmur3_int(int32_t v)
{
    return floe__murmur3_long((int64_t)v);
}
int32_t floe__murmur3_bytes(const void *p, size_t len);

#endif
