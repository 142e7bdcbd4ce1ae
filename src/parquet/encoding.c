/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/encoding: the RLE / bit-packing hybrid, DELTA_BINARY_PACKED,
 * DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT
 * (parquet-format Encodings.md). Bit-packed values are little-endian,
 * least significant bit first.
 */
#include "parquet/encoding.h"

#include <stdio.h>
#include <string.h>

/* (floe__pq_corrupt): not the analyzer's macro (encoding.h) */
int(floe__pq_corrupt)(const floe_pq_where *w, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return floe__error(FLOE_ECORRUPT, "parquet", "%s at offset %lld in %s", msg,
                       (long long)(w ? w->offset : 0), w && w->file ? w->file : "parquet");
}

int floe__pq_bit_width(uint64_t max)
{
    int w = 0;
    while (max) {
        w++;
        max >>= 1;
    }
    return w;
}

static int read_uleb(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*p >= end)
            return -1;
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* Bit unpacking, fast path: groups of 8 values of a compile-time width W
 * (one specialised loop per width 1..32), each value taken from an
 * unaligned 64-bit load. A group starts on a byte boundary (8 * W bits) and
 * its last load reads up to 8 bytes from bit 7 * W, past the group, so
 * groups are decoded this way only while W + 8 bytes remain; the rest goes
 * through the general loop. Returns how many values were unpacked. */
#define UNPACK_ONE(T, W, K)                                                                        \
    do {                                                                                           \
        uint64_t word_;                                                                            \
        memcpy(&word_, p + off + (((size_t)(K) * (W)) >> 3), 8);                                   \
        out[done + (K)] = (T)((word_ >> (((size_t)(K) * (W)) & 7)) & mask_);                      \
    } while (0)

#define UNPACK_GROUPS(T, W)                                                                        \
    do {                                                                                           \
        const uint64_t mask_ = (W) == 32 ? 0xffffffffu : ((1ull << (W)) - 1);                      \
        for (; done + 8 <= n && off + (W) + 8 <= nbytes; done += 8, off += (W)) {                  \
            UNPACK_ONE(T, W, 0);                                                                   \
            UNPACK_ONE(T, W, 1);                                                                   \
            UNPACK_ONE(T, W, 2);                                                                   \
            UNPACK_ONE(T, W, 3);                                                                   \
            UNPACK_ONE(T, W, 4);                                                                   \
            UNPACK_ONE(T, W, 5);                                                                   \
            UNPACK_ONE(T, W, 6);                                                                   \
            UNPACK_ONE(T, W, 7);                                                                   \
        }                                                                                          \
    } while (0)

#define UNPACK_CASE(T, W)                                                                          \
    case W: UNPACK_GROUPS(T, W); break;

#define UNPACK_FAST_BODY(T)                                                                        \
    do {                                                                                           \
        size_t done = 0, off = 0;                                                                  \
        switch (w) {                                                                               \
            UNPACK_CASE(T, 1) UNPACK_CASE(T, 2) UNPACK_CASE(T, 3) UNPACK_CASE(T, 4)                \
            UNPACK_CASE(T, 5) UNPACK_CASE(T, 6) UNPACK_CASE(T, 7) UNPACK_CASE(T, 8)                \
            UNPACK_CASE(T, 9) UNPACK_CASE(T, 10) UNPACK_CASE(T, 11) UNPACK_CASE(T, 12)             \
            UNPACK_CASE(T, 13) UNPACK_CASE(T, 14) UNPACK_CASE(T, 15) UNPACK_CASE(T, 16)            \
            UNPACK_CASE(T, 17) UNPACK_CASE(T, 18) UNPACK_CASE(T, 19) UNPACK_CASE(T, 20)            \
            UNPACK_CASE(T, 21) UNPACK_CASE(T, 22) UNPACK_CASE(T, 23) UNPACK_CASE(T, 24)            \
            UNPACK_CASE(T, 25) UNPACK_CASE(T, 26) UNPACK_CASE(T, 27) UNPACK_CASE(T, 28)            \
            UNPACK_CASE(T, 29) UNPACK_CASE(T, 30) UNPACK_CASE(T, 31) UNPACK_CASE(T, 32)            \
        default: break;                                                                            \
        }                                                                                          \
        return done;                                                                               \
    } while (0)

static size_t unpack32_fast(const uint8_t *p, size_t nbytes, int w, uint32_t *out, size_t n)
{
    UNPACK_FAST_BODY(uint32_t);
}

static size_t unpack16_fast(const uint8_t *p, size_t nbytes, int w, uint16_t *out, size_t n)
{
    if (w > 16)
        return 0;
    UNPACK_FAST_BODY(uint16_t);
}

/* Unpack `n` values of width w from p (which holds at least ceil(n*w/8)
 * bytes). */
#define UNPACK_BODY(T, FAST)                                                                       \
    do {                                                                                           \
        if (w == 0) {                                                                              \
            memset(out, 0, n * sizeof(T));                                                         \
            break;                                                                                 \
        }                                                                                          \
        size_t nbytes = (n * (size_t)w + 7) / 8;                                                   \
        size_t i = FAST(p, nbytes, w, out, n);                                                     \
        if (w == 1) {                                                                              \
            for (; i < n; i++)                                                                     \
                out[i] = (T)((p[i >> 3] >> (i & 7)) & 1);                                          \
            break;                                                                                 \
        }                                                                                          \
        if (w == 8) {                                                                              \
            for (; i < n; i++)                                                                     \
                out[i] = (T)p[i];                                                                  \
            break;                                                                                 \
        }                                                                                          \
        uint64_t mask = (w == 32) ? 0xffffffffu : ((1ull << w) - 1);                               \
        for (; i < n; i++) {                                                                       \
            size_t bit = i * (size_t)w;                                                            \
            size_t byte = bit >> 3;                                                                \
            uint64_t word = 0;                                                                     \
            size_t avail = nbytes - byte;                                                          \
            if (avail >= 8)                                                                        \
                memcpy(&word, p + byte, 8);                                                        \
            else                                                                                   \
                memcpy(&word, p + byte, avail);                                                    \
            out[i] = (T)((word >> (bit & 7)) & mask);                                              \
        }                                                                                          \
    } while (0)

static void unpack32(const uint8_t *p, int w, uint32_t *out, size_t n)
{
    UNPACK_BODY(uint32_t, unpack32_fast);
}

static void unpack16(const uint8_t *p, int w, uint16_t *out, size_t n)
{
    UNPACK_BODY(uint16_t, unpack16_fast);
}

#define RLE_DECODE_BODY(T, UNPACK)                                                                 \
    do {                                                                                           \
        const uint8_t *p = buf, *end = buf + len;                                                  \
        size_t got = 0;                                                                            \
        if (bit_width < 0 || bit_width > 32)                                                       \
            return floe__pq_corrupt(w, "bad bit width %d", bit_width);                             \
        size_t vbytes = (size_t)(bit_width + 7) / 8;                                               \
        while (got < n) {                                                                          \
            uint64_t h;                                                                            \
            if (read_uleb(&p, end, &h) < 0)                                                        \
                return floe__pq_corrupt(w, "truncated RLE header");                                \
            if (h & 1) {                                                                           \
                uint64_t groups = h >> 1;                                                          \
                if (groups == 0 || groups > ((uint64_t)(end - p) + 1) * 8)                         \
                    return floe__pq_corrupt(w, "bad bit-packed run");                              \
                size_t count = (size_t)groups * 8;                                                 \
                size_t bytes = (size_t)groups * (size_t)bit_width;                                 \
                size_t take = count < n - got ? count : n - got;                                   \
                size_t need = (take * (size_t)bit_width + 7) / 8;                                  \
                if (need > (size_t)(end - p))                                                      \
                    return floe__pq_corrupt(w, "bit-packed run past end");                         \
                UNPACK(p, bit_width, out + got, take);                                             \
                got += take;                                                                       \
                p += bytes <= (size_t)(end - p) ? bytes : (size_t)(end - p);                       \
            } else {                                                                               \
                uint64_t count = h >> 1;                                                           \
                if ((size_t)(end - p) < vbytes)                                                    \
                    return floe__pq_corrupt(w, "truncated RLE run");                               \
                uint32_t v = 0;                                                                    \
                for (size_t b = 0; b < vbytes; b++)                                                \
                    v |= (uint32_t)p[b] << (8 * b);                                                \
                p += vbytes;                                                                       \
                if (count == 0)                                                                    \
                    return floe__pq_corrupt(w, "empty RLE run");                                   \
                size_t take = count < n - got ? (size_t)count : n - got;                           \
                for (size_t i = 0; i < take; i++)                                                  \
                    out[got + i] = (T)v;                                                           \
                got += take;                                                                       \
            }                                                                                      \
        }                                                                                          \
        return (int64_t)(p - buf);                                                                 \
    } while (0)

int64_t floe__pq_rle_decode(const uint8_t *buf, size_t len, int bit_width, uint32_t *out, size_t n,
                            const floe_pq_where *w)
{
    RLE_DECODE_BODY(uint32_t, unpack32);
}

int64_t floe__pq_rle_decode16(const uint8_t *buf, size_t len, int bit_width, uint16_t *out,
                              size_t n, const floe_pq_where *w)
{
    if (bit_width > 16)
        return floe__pq_corrupt(w, "level bit width %d", bit_width);
    RLE_DECODE_BODY(uint16_t, unpack16);
}

/* ---------------------------------------------------------------- RLE encoder */

static int put_uleb(floe_buf *out, uint64_t v)
{
    uint8_t tmp[10];
    int n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
    } while (v);
    return floe__buf_put(out, tmp, (size_t)n);
}

static int put_packed(floe_buf *out, const uint32_t *vals, size_t n, int w)
{
    /* n is a multiple of 8 (the caller pads) */
    size_t nbytes = n * (size_t)w / 8;
    FLOE_TRY(put_uleb(out, ((uint64_t)(n / 8) << 1) | 1));
    FLOE_TRY(floe__buf_reserve(out, nbytes + 8));
    uint8_t *p = (uint8_t *)out->ptr + out->len;
    memset(p, 0, nbytes + 8);
    for (size_t i = 0; i < n; i++) {
        size_t bit = i * (size_t)w;
        uint64_t word;
        memcpy(&word, p + (bit >> 3), 8);
        word |= (uint64_t)vals[i] << (bit & 7);
        memcpy(p + (bit >> 3), &word, 8);
    }
    out->len += nbytes;
    return 0;
}

static int put_run(floe_buf *out, uint32_t v, size_t count, int w)
{
    FLOE_TRY(put_uleb(out, (uint64_t)count << 1));
    uint8_t b[4];
    size_t vb = (size_t)(w + 7) / 8;
    for (size_t i = 0; i < vb; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    return floe__buf_put(out, b, vb);
}

/* Literal values are staged in a small array flushed in multiples of 8. */
typedef struct rle_enc {
    floe_buf *out;
    int w;
    uint32_t lit[512];
    size_t nlit;
} rle_enc;

static int lit_flush(rle_enc *e, bool final)
{
    if (!e->nlit)
        return 0;
    if (final)
        while (e->nlit % 8)
            e->lit[e->nlit++] = 0;
    size_t n = e->nlit - e->nlit % 8;
    if (!n)
        return 0;
    FLOE_TRY(put_packed(e->out, e->lit, n, e->w));
    memmove(e->lit, e->lit + n, (e->nlit - n) * sizeof(uint32_t));
    e->nlit -= n;
    return 0;
}

static int lit_push(rle_enc *e, uint32_t v)
{
    e->lit[e->nlit++] = v;
    if (e->nlit == FLOE_ARRAY_LEN(e->lit))
        return lit_flush(e, false);
    return 0;
}

#define RLE_ENCODE_BODY                                                                            \
    do {                                                                                           \
        rle_enc e;                                                                                 \
        e.out = out;                                                                               \
        e.w = bit_width;                                                                           \
        e.nlit = 0;                                                                                \
        size_t i = 0;                                                                              \
        while (i < n) {                                                                            \
            uint32_t v = vals[i];                                                                  \
            size_t r = 1;                                                                          \
            while (i + r < n && vals[i + r] == v)                                                  \
                r++;                                                                               \
            if (r >= 8 + (8 - e.nlit % 8) % 8) {                                                   \
                /* pad the pending literals to a group boundary from the run */                    \
                size_t pad = (8 - e.nlit % 8) % 8;                                                 \
                for (size_t k = 0; k < pad; k++)                                                   \
                    FLOE_TRY(lit_push(&e, v));                                                     \
                FLOE_TRY(lit_flush(&e, false));                                                    \
                FLOE_TRY(put_run(out, v, r - pad, bit_width));                                     \
            } else {                                                                               \
                for (size_t k = 0; k < r; k++)                                                     \
                    FLOE_TRY(lit_push(&e, v));                                                     \
            }                                                                                      \
            i += r;                                                                                \
        }                                                                                          \
        return lit_flush(&e, true);                                                                \
    } while (0)

int floe__pq_rle_encode16(const uint16_t *vals, size_t n, int bit_width, floe_buf *out)
{
    RLE_ENCODE_BODY;
}

int floe__pq_rle_encode32(const uint32_t *vals, size_t n, int bit_width, floe_buf *out)
{
    RLE_ENCODE_BODY;
}

/* ---------------------------------------------------------------- delta */

int64_t floe__pq_delta_decode(const uint8_t *buf, size_t len, int64_t *out, size_t max,
                              size_t *count, const floe_pq_where *w)
{
    const uint8_t *p = buf, *end = buf + len;
    uint64_t block_size, miniblocks, total, first;
    if (read_uleb(&p, end, &block_size) < 0 || read_uleb(&p, end, &miniblocks) < 0 ||
        read_uleb(&p, end, &total) < 0 || read_uleb(&p, end, &first) < 0)
        return floe__pq_corrupt(w, "truncated DELTA_BINARY_PACKED header");
    if (block_size == 0 || block_size % 128 || miniblocks == 0 || block_size % miniblocks ||
        (block_size / miniblocks) % 32 || block_size > (1u << 20))
        return floe__pq_corrupt(w, "bad DELTA_BINARY_PACKED block");
    if (total > max)
        return floe__pq_corrupt(w, "DELTA_BINARY_PACKED holds %llu values, expected at most %zu",
                                (unsigned long long)total, max);
    *count = (size_t)total;
    if (total == 0)
        return (int64_t)(p - buf);
    int64_t v = (int64_t)(first >> 1) ^ -(int64_t)(first & 1);
    out[0] = v;
    size_t got = 1;
    size_t per_mini = (size_t)(block_size / miniblocks);
    uint64_t tmp[64];
    while (got < total) {
        uint64_t zz;
        if (read_uleb(&p, end, &zz) < 0)
            return floe__pq_corrupt(w, "truncated DELTA_BINARY_PACKED block");
        int64_t min_delta = (int64_t)(zz >> 1) ^ -(int64_t)(zz & 1);
        if ((uint64_t)(end - p) < miniblocks)
            return floe__pq_corrupt(w, "truncated DELTA_BINARY_PACKED widths");
        const uint8_t *widths = p;
        p += miniblocks;
        for (uint64_t m = 0; m < miniblocks && got < total; m++) {
            int bw = widths[m];
            if (bw > 64)
                return floe__pq_corrupt(w, "bad delta bit width %d", bw);
            size_t mbytes = per_mini * (size_t)bw / 8;
            if ((size_t)(end - p) < mbytes)
                return floe__pq_corrupt(w, "truncated DELTA_BINARY_PACKED miniblock");
            for (size_t i = 0; i < per_mini && got < total; i += 64) {
                size_t k = per_mini - i < 64 ? per_mini - i : 64;
                for (size_t j = 0; j < k; j++) {
                    size_t bit = (i + j) * (size_t)bw;
                    uint64_t val = 0;
                    for (int b = 0; b < bw;) {
                        size_t byte = (bit + (size_t)b) >> 3;
                        int off = (int)((bit + (size_t)b) & 7);
                        int take = 8 - off < bw - b ? 8 - off : bw - b;
                        val |= (uint64_t)((p[byte] >> off) & ((1u << take) - 1)) << b;
                        b += take;
                    }
                    tmp[j] = val;
                }
                for (size_t j = 0; j < k && got < total; j++) {
                    v = (int64_t)((uint64_t)v + (uint64_t)min_delta + tmp[j]);
                    out[got++] = v;
                }
            }
            p += mbytes;
        }
    }
    return (int64_t)(p - buf);
}

/* ---------------------------------------------------------------- byte arrays */

int floe__pq_binvals_reserve(floe_pq_binvals *b, size_t extra)
{
    if (b->n + extra <= b->cap && b->offsets)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + extra)
        cap *= 2;
    int32_t *o = floe__realloc(b->offsets, (cap + 1) * sizeof(int32_t));
    if (!o)
        return floe__error_nomem();
    if (!b->offsets)
        o[0] = 0;
    b->offsets = o;
    b->cap = cap;
    return 0;
}

int floe__pq_binvals_push(floe_pq_binvals *b, const void *p, size_t len)
{
    if (b->n >= b->cap || !b->offsets)
        FLOE_TRY(floe__pq_binvals_reserve(b, 1));
    if (b->data.len + len > INT32_MAX)
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "byte array batch over 2 GiB");
    if (len)
        FLOE_TRY(floe__buf_put(&b->data, p, len));
    b->n++;
    b->offsets[b->n] = (int32_t)b->data.len;
    return 0;
}

void floe__pq_binvals_free(floe_pq_binvals *b)
{
    floe__free(b->offsets);
    floe__buf_free(&b->data);
    memset(b, 0, sizeof(*b));
}

static int decode_dlba(const uint8_t *buf, size_t len, size_t n, floe_pq_binvals *out,
                       const floe_pq_where *w, int64_t *consumed, const int64_t *prefix)
{
    int64_t *lens = floe__malloc((n ? n : 1) * sizeof(int64_t));
    if (!lens)
        return floe__error_nomem();
    size_t cnt;
    int64_t used = floe__pq_delta_decode(buf, len, lens, n, &cnt, w);
    int rc = 0;
    if (used < 0) {
        rc = (int)used;
        goto done;
    }
    if (cnt != n) {
        rc = floe__pq_corrupt(w, "DELTA_LENGTH_BYTE_ARRAY holds %zu lengths, expected %zu", cnt, n);
        goto done;
    }
    const uint8_t *p = buf + used, *end = buf + len;
    if ((rc = floe__pq_binvals_reserve(out, n)) < 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        if (lens[i] < 0 || lens[i] > end - p) {
            rc = floe__pq_corrupt(w, "byte array length past end");
            goto done;
        }
        if (prefix) {
            /* DELTA_BYTE_ARRAY: prefix of the previous value + suffix */
            int64_t pre = prefix[i];
            size_t prev_len = i ? (size_t)(out->offsets[out->n] - out->offsets[out->n - 1]) : 0;
            if (pre < 0 || (size_t)pre > prev_len) {
                rc = floe__pq_corrupt(w, "bad DELTA_BYTE_ARRAY prefix");
                goto done;
            }
            size_t start = out->data.len - prev_len;
            if ((rc = floe__buf_reserve(&out->data, (size_t)pre + (size_t)lens[i])) < 0)
                goto done;
            memmove(out->data.ptr + out->data.len, out->data.ptr + start, (size_t)pre);
            out->data.len += (size_t)pre;
            if ((rc = floe__buf_put(&out->data, p, (size_t)lens[i])) < 0)
                goto done;
            if (out->data.len > INT32_MAX) {
                rc = floe__error(FLOE_EUNSUPPORTED, "parquet", "byte array batch over 2 GiB");
                goto done;
            }
            out->n++;
            out->offsets[out->n] = (int32_t)out->data.len;
        } else if ((rc = floe__pq_binvals_push(out, p, (size_t)lens[i])) < 0) {
            goto done;
        }
        p += lens[i];
    }
    *consumed = p - buf;
done:
    floe__free(lens);
    return rc;
}

int floe__pq_decode_bytes(int encoding, const uint8_t *buf, size_t len, size_t n, int32_t fixed_len,
                          floe_pq_binvals *out, const floe_pq_where *w)
{
    FLOE_TRY(floe__pq_binvals_reserve(out, n));
    if (encoding == 0) {
        const uint8_t *p = buf, *end = buf + len;
        if (fixed_len > 0) {
            if ((size_t)fixed_len * n > len)
                return floe__pq_corrupt(w, "PLAIN fixed values past end of page");
            FLOE_TRY(floe__buf_reserve(&out->data, (size_t)fixed_len * n));
            for (size_t i = 0; i < n; i++)
                FLOE_TRY(floe__pq_binvals_push(out, p + (size_t)fixed_len * i, (size_t)fixed_len));
            return 0;
        }
        /* validate and size first, then copy into reserved space */
        size_t total = 0;
        for (size_t i = 0; i < n; i++) {
            if (end - p < 4)
                return floe__pq_corrupt(w, "truncated PLAIN byte array");
            uint32_t l;
            memcpy(&l, p, 4);
            p += 4;
            if (l > (size_t)(end - p))
                return floe__pq_corrupt(w, "PLAIN byte array length %u past end", l);
            p += l;
            total += l;
        }
        if (out->data.len + total > INT32_MAX)
            return floe__error(FLOE_EUNSUPPORTED, "parquet", "byte array batch over 2 GiB");
        FLOE_TRY(floe__buf_reserve(&out->data, total));
        p = buf;
        size_t at = out->data.len;
        int32_t *off = out->offsets + out->n;
        for (size_t i = 0; i < n; i++) {
            uint32_t l;
            memcpy(&l, p, 4);
            memcpy(out->data.ptr + at, p + 4, l);
            p += 4 + l;
            at += l;
            off[i + 1] = (int32_t)at;
        }
        out->data.len = at;
        out->n += n;
        return 0;
    }
    int64_t used;
    if (encoding == 6)
        return decode_dlba(buf, len, n, out, w, &used, NULL);
    if (encoding == 7) {
        int64_t *pre = floe__malloc((n ? n : 1) * sizeof(int64_t));
        if (!pre)
            return floe__error_nomem();
        size_t cnt;
        int64_t u = floe__pq_delta_decode(buf, len, pre, n, &cnt, w);
        int rc;
        if (u < 0)
            rc = (int)u;
        else if (cnt != n)
            rc = floe__pq_corrupt(w, "DELTA_BYTE_ARRAY holds %zu prefixes, expected %zu", cnt, n);
        else
            rc = decode_dlba(buf + u, len - (size_t)u, n, out, w, &used, pre);
        floe__free(pre);
        return rc;
    }
    return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported byte array encoding %d in %s",
                       encoding, w->file);
}

int floe__pq_bss_decode(const uint8_t *buf, size_t len, size_t n, int width, uint8_t *out,
                        const floe_pq_where *w)
{
    if (len < n * (size_t)width)
        return floe__pq_corrupt(w, "BYTE_STREAM_SPLIT data past end");
    for (int k = 0; k < width; k++) {
        const uint8_t *s = buf + (size_t)k * n;
        for (size_t i = 0; i < n; i++)
            out[i * (size_t)width + (size_t)k] = s[i];
    }
    return 0;
}
