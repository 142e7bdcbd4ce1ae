/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/dv: v3 deletion vectors (spec "Deletion Vectors", Puffin spec blob
 * type `deletion-vector-v1`). A DV is one Puffin blob, located by the
 * manifest entry's content_offset / content_size_in_bytes, holding the
 * deleted row positions of the single data file named by
 * referenced_data_file:
 *
 *   u32 BE  length of magic + vector
 *   4 bytes magic D1 D3 39 64
 *   vector  Roaring bitmap, 64-bit "portable" serialization:
 *             u64 LE number of 32-bit bitmaps, then per bitmap a u32 LE key
 *             (the high 32 bits of its positions) and a 32-bit Roaring
 *             bitmap in the portable format (cookie, container keys and
 *             cardinalities, optional offsets, array / bitmap / run
 *             containers)
 *   u32 BE  CRC-32 of magic + vector
 *
 * Every count and length is checked against the blob size before use.
 */
#include "scan/scan.h"

#include <string.h>
#include <zlib.h>

#define SERIAL_COOKIE_NO_RUN 12346
#define SERIAL_COOKIE 12347
#define NO_OFFSET_THRESHOLD 4

typedef struct rd {
    const uint8_t *p;
    size_t n, at;
    const char *file;
    int64_t base; /* file offset of p[0], for messages */
} rd;

static int bad(const rd *r, const char *what)
{
    return floe__error(FLOE_ECORRUPT, "scan", "deletion vector: %s at offset %lld in %s", what,
                       (long long)(r->base + (int64_t)r->at), r->file);
}

static int need(rd *r, size_t k)
{
    if (r->n - r->at < k)
        return bad(r, "truncated");
    return 0;
}

static uint16_t u16le(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint32_t u32be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int push(floe_vec *out, int64_t v, uint64_t limit)
{
    if ((uint64_t)v >= limit)
        return 0;
    int64_t *s = floe__vec_push(out);
    if (!s)
        return floe__error_nomem();
    *s = v;
    return 0;
}

/* One 32-bit portable Roaring bitmap; positions get `high` << 32. */
static int roaring32(rd *r, uint64_t high, floe_vec *out, uint64_t limit)
{
    FLOE_TRY(need(r, 4));
    uint32_t cookie = u32le(r->p + r->at);
    r->at += 4;
    uint32_t size;
    const uint8_t *runs = NULL;
    bool has_offsets;
    if ((cookie & 0xFFFF) == SERIAL_COOKIE) {
        size = (cookie >> 16) + 1;
        size_t rb = (size + 7) / 8;
        FLOE_TRY(need(r, rb));
        runs = r->p + r->at;
        r->at += rb;
        has_offsets = size >= NO_OFFSET_THRESHOLD;
    } else if (cookie == SERIAL_COOKIE_NO_RUN) {
        FLOE_TRY(need(r, 4));
        size = u32le(r->p + r->at);
        r->at += 4;
        has_offsets = true;
    } else {
        return bad(r, "unknown Roaring cookie");
    }
    if (size > 65536)
        return bad(r, "too many containers");
    FLOE_TRY(need(r, (size_t)size * 4));
    const uint8_t *hdr = r->p + r->at;
    r->at += (size_t)size * 4;
    if (has_offsets) {
        FLOE_TRY(need(r, (size_t)size * 4));
        r->at += (size_t)size * 4;
    }
    for (uint32_t c = 0; c < size; c++) {
        uint64_t key = u16le(hdr + (size_t)4 * c);
        uint32_t card = (uint32_t)u16le(hdr + (size_t)4 * c + 2) + 1;
        uint64_t hi = (high << 32) | (key << 16);
        if (runs && (runs[c / 8] >> (c % 8)) & 1) {
            FLOE_TRY(need(r, 2));
            uint32_t nruns = u16le(r->p + r->at);
            r->at += 2;
            FLOE_TRY(need(r, (size_t)nruns * 4));
            for (uint32_t k = 0; k < nruns; k++) {
                uint32_t start = u16le(r->p + r->at + (size_t)4 * k);
                uint32_t len = (uint32_t)u16le(r->p + r->at + (size_t)4 * k + 2) + 1;
                if (start + len > 65536)
                    return bad(r, "run past the container end");
                for (uint32_t v = start; v < start + len && (hi | v) < limit; v++)
                    FLOE_TRY(push(out, (int64_t)(hi | v), limit));
            }
            r->at += (size_t)nruns * 4;
        } else if (card <= 4096) {
            FLOE_TRY(need(r, (size_t)card * 2));
            for (uint32_t k = 0; k < card; k++)
                FLOE_TRY(push(out, (int64_t)(hi | u16le(r->p + r->at + (size_t)2 * k)), limit));
            r->at += (size_t)card * 2;
        } else {
            FLOE_TRY(need(r, 8192));
            const uint8_t *bits = r->p + r->at;
            for (uint32_t v = 0; v < 65536; v++)
                if ((bits[v >> 3] >> (v & 7)) & 1)
                    FLOE_TRY(push(out, (int64_t)(hi | v), limit));
            r->at += 8192;
        }
    }
    return 0;
}

int floe__scan_dv_decode(const uint8_t *blob, size_t n, const char *file, int64_t base,
                         uint64_t limit, floe_vec *out)
{
    rd r = {blob, n, 0, file, base};
    FLOE_TRY(need(&r, 12));
    uint32_t len = u32be(blob);
    if ((size_t)len + 8 != n)
        return bad(&r, "length does not match the blob size");
    static const uint8_t magic[4] = {0xD1, 0xD3, 0x39, 0x64};
    if (memcmp(blob + 4, magic, 4) != 0) {
        r.at = 4;
        return bad(&r, "bad magic");
    }
    uint32_t crc = (uint32_t)crc32(0L, blob + 4, (uInt)len);
    if (crc != u32be(blob + 4 + len)) {
        r.at = 4 + len;
        return bad(&r, "CRC mismatch");
    }
    rd v = {blob + 8, len - 4, 0, file, base + 8};
    FLOE_TRY(need(&v, 8));
    uint64_t nmaps = (uint64_t)u32le(v.p) | ((uint64_t)u32le(v.p + 4) << 32);
    v.at = 8;
    if (nmaps > v.n / 8)
        return bad(&v, "bitmap count larger than the blob");
    for (uint64_t i = 0; i < nmaps; i++) {
        FLOE_TRY(need(&v, 4));
        uint64_t key = u32le(v.p + v.at);
        v.at += 4;
        FLOE_TRY(roaring32(&v, key, out, limit));
    }
    return 0;
}
