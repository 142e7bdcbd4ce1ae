/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 32-bit Murmur3 (x86 variant), as required by the spec's Appendix B for
 * bucket partitioning. Written from the algorithm's public description:
 * 4-byte little-endian blocks mixed with c1/c2, a tail of up to 3 bytes,
 * then the fmix32 finalizer over the length.
 */
#include "util/murmur3.h"

static inline uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

uint32_t floe__murmur3_32(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
    uint32_t h = seed;
    size_t nblocks = len / 4;

    for (size_t i = 0; i < nblocks; i++) {
        /* Blocks are read little-endian whatever the host order, so hashes
         * are portable (the spec's test values assume it). */
        uint32_t k = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
                     (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
        k *= c1;
        k = rotl32(k, 15);
        k *= c2;
        h ^= k;
        h = rotl32(h, 13);
        h = h * 5 + 0xe6546b64u;
    }

    const uint8_t *tail = p + nblocks * 4;
    uint32_t k = 0;
    switch (len & 3) {
    case 3: k ^= (uint32_t)tail[2] << 16; /* fall through */
    case 2: k ^= (uint32_t)tail[1] << 8;  /* fall through */
    case 1:
        k ^= tail[0];
        k *= c1;
        k = rotl32(k, 15);
        k *= c2;
        h ^= k;
        break;
    default: break;
    }

    h ^= (uint32_t)len;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

int32_t floe__murmur3_long(int64_t v)
{
    uint8_t b[8];
    uint64_t u = (uint64_t)v;
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(u >> (8 * i));
    return (int32_t)floe__murmur3_32(b, 8, 0);
}

int32_t floe__murmur3_bytes(const void *p, size_t len)
{
    return (int32_t)floe__murmur3_32(p, len, 0);
}
