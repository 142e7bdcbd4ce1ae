/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deletion-vector blobs (spec "Deletion Vectors"): array, bitmap and run
 * containers, several 32-bit buckets, the position limit, and corrupt
 * blobs (length, magic, CRC, truncation) rejected as FLOE_ECORRUPT.
 */
#include "harness.h"
#include "scan/scan.h"

#include <string.h>
#include <zlib.h>

static void put16(floe_buf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    floe__buf_put(b, x, 2);
}

static void put32(floe_buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    floe__buf_put(b, x, 4);
}

static void put32be(floe_buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    floe__buf_put(b, x, 4);
}

/* Wrap a Roaring64 vector into a DV blob. */
static void blob(floe_buf *out, const floe_buf *vec)
{
    floe_buf mv = FLOE_BUF_INIT;
    static const uint8_t magic[4] = {0xD1, 0xD3, 0x39, 0x64};
    floe__buf_put(&mv, magic, 4);
    floe__buf_put(&mv, vec->ptr, vec->len);
    put32be(out, (uint32_t)mv.len);
    floe__buf_put(out, mv.ptr, mv.len);
    put32be(out, (uint32_t)crc32(0L, (const Bytef *)mv.ptr, (uInt)mv.len));
    floe__buf_free(&mv);
}

/* bucket 0: array {0,3,6} (key 0), bitmap of every even value (key 1);
 * bucket 1 (high 1): run [10, 14] (key 0, with the run cookie). */
static void sample(floe_buf *vec)
{
    uint8_t n[8] = {2, 0, 0, 0, 0, 0, 0, 0};
    floe__buf_put(vec, n, 8);
    put32(vec, 0); /* high key 0 */
    put32(vec, 12346);
    put32(vec, 2);
    put16(vec, 0), put16(vec, 2);         /* key 0, card 3 */
    put16(vec, 1), put16(vec, 32768 - 1); /* key 1, card 32768 */
    put32(vec, 0), put32(vec, 0);         /* offsets (not used) */
    put16(vec, 0), put16(vec, 3), put16(vec, 6);
    uint8_t bits[8192];
    memset(bits, 0x55, sizeof bits);
    floe__buf_put(vec, bits, sizeof bits);
    put32(vec, 1); /* high key 1 */
    put32(vec, 12347 | (0u << 16)); /* run cookie, 1 container */
    uint8_t runbits = 1;
    floe__buf_put(vec, &runbits, 1);
    put16(vec, 0), put16(vec, 4); /* key 0, card 5 */
    put16(vec, 1);                /* one run */
    put16(vec, 10), put16(vec, 4);
}

static void test_decode(void)
{
    floe_buf vec = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
    sample(&vec);
    blob(&b, &vec);
    floe_vec pos = FLOE_VEC_INIT(int64_t);
    FT_OK(floe__scan_dv_decode((const uint8_t *)b.ptr, b.len, "dv.puffin", 4, UINT64_MAX, &pos));
    FT_EQ_INT((long)pos.len, 3 + 32768 + 5);
    const int64_t *p = pos.items;
    FT_EQ_INT(p[0], 0);
    FT_EQ_INT(p[1], 3);
    FT_EQ_INT(p[2], 6);
    FT_EQ_INT(p[3], 65536);
    FT_EQ_INT(p[4], 65538);
    FT_EQ_INT(p[3 + 32768], ((int64_t)1 << 32) + 10);
    FT_EQ_INT(p[3 + 32768 + 4], ((int64_t)1 << 32) + 14);
    floe__vec_free(&pos);
    /* positions at or beyond the data file's row count are ignored */
    FT_OK(floe__scan_dv_decode((const uint8_t *)b.ptr, b.len, "dv.puffin", 4, 5, &pos));
    FT_EQ_INT((long)pos.len, 2);
    floe__vec_free(&pos);
    floe__buf_free(&b);
    floe__buf_free(&vec);
}

static void test_corrupt(void)
{
    floe_buf vec = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
    sample(&vec);
    blob(&b, &vec);
    floe_vec pos = FLOE_VEC_INIT(int64_t);
    /* every truncation fails cleanly */
    for (size_t n = 0; n < b.len; n += (n < 64 ? 1 : 997)) {
        FT_EQ_INT(floe__scan_dv_decode((const uint8_t *)b.ptr, n, "dv.puffin", 0, UINT64_MAX, &pos),
                  FLOE_ECORRUPT);
        floe__vec_free(&pos);
    }
    b.ptr[5] ^= 1; /* magic */
    FT_EQ_INT(floe__scan_dv_decode((const uint8_t *)b.ptr, b.len, "dv.puffin", 0, UINT64_MAX, &pos),
              FLOE_ECORRUPT);
    FT_ERR_CONTAINS("bad magic");
    b.ptr[5] ^= 1;
    b.ptr[20] ^= 1; /* payload: CRC catches it */
    FT_EQ_INT(floe__scan_dv_decode((const uint8_t *)b.ptr, b.len, "dv.puffin", 0, UINT64_MAX, &pos),
              FLOE_ECORRUPT);
    FT_ERR_CONTAINS("CRC mismatch");
    floe__vec_free(&pos);
    /* a valid CRC over a bad structure: a container count beyond the blob */
    floe_buf v2 = FLOE_BUF_INIT, b2 = FLOE_BUF_INIT;
    uint8_t n[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    floe__buf_put(&v2, n, 8);
    put32(&v2, 0);
    put32(&v2, 12346);
    put32(&v2, 60000);
    blob(&b2, &v2);
    FT_EQ_INT(floe__scan_dv_decode((const uint8_t *)b2.ptr, b2.len, "dv.puffin", 0, UINT64_MAX, &pos),
              FLOE_ECORRUPT);
    FT_ERR_CONTAINS("dv.puffin");
    floe__vec_free(&pos);
    floe__buf_free(&v2);
    floe__buf_free(&b2);
    floe__buf_free(&b);
    floe__buf_free(&vec);
}

static const ft_case cases[] = {
    {"decode", test_decode},
    {"corrupt", test_corrupt},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
