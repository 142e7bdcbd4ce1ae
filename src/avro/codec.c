/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Avro container block codecs (Avro 1.11 "Required Codecs" / "Optional
 * Codecs"): null; deflate as raw RFC 1951 data without zlib header (what
 * every Java writer produces); zstandard frames; snappy blocks followed by the
 * 4-byte big-endian CRC32 of the uncompressed data. Decompression never grows
 * beyond FLOE_AVRO_MAX_BLOCK, so a hostile ratio cannot exhaust memory.
 *
 * Deflate blocks are inflated whole by libdeflate (about twice zlib's speed:
 * no window copy, no streaming state) into the caller's reused buffer, whose
 * capacity from the previous block is the first guess of the output size;
 * when the library is not installed zlib's streaming inflate does it.
 */
#include "avro.h"

#include "lazy/deflate.h"
#include "lazy/snappy.h"
#include <string.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

int floe_avro_codec_from_name(const char *name, size_t len, floe_avro_codec *out)
{
    static const struct {
        const char *name;
        floe_avro_codec c;
    } names[] = {{"null", FLOE_AVRO_CODEC_NULL},
                 {"deflate", FLOE_AVRO_CODEC_DEFLATE},
                 {"zstandard", FLOE_AVRO_CODEC_ZSTD},
                 {"zstd", FLOE_AVRO_CODEC_ZSTD},
                 {"snappy", FLOE_AVRO_CODEC_SNAPPY}};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(names); i++)
        if (strlen(names[i].name) == len && memcmp(names[i].name, name, len) == 0) {
            *out = names[i].c;
            return 0;
        }
    return FLOE_EUNSUPPORTED;
}

const char *floe_avro_codec_name(floe_avro_codec c)
{
    switch (c) {
    case FLOE_AVRO_CODEC_NULL: return "null";
    case FLOE_AVRO_CODEC_DEFLATE: return "deflate";
    case FLOE_AVRO_CODEC_ZSTD: return "zstandard";
    case FLOE_AVRO_CODEC_SNAPPY: return "snappy";
    }
    return "?";
}

/* zlib / zstd allocate through floe's allocator too (fail-injection sees them). */
static voidpf z_alloc(voidpf opaque, uInt n, uInt size)
{
    (void)opaque;
    return floe__calloc(n, size);
}
static void z_free(voidpf opaque, voidpf p)
{
    (void)opaque;
    floe__free(p);
}
static void *zs_alloc(void *opaque, size_t size)
{
    (void)opaque;
    return floe__malloc(size);
}
static void zs_free(void *opaque, void *p)
{
    (void)opaque;
    floe__free(p);
}
static const ZSTD_customMem zs_mem = {zs_alloc, zs_free, NULL};

static int deflate_block(int level, const uint8_t *in, size_t len, floe_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = z_alloc;
    z.zfree = z_free;
    int zr = deflateInit2(&z, level < 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, -15, 8,
                          Z_DEFAULT_STRATEGY);
    if (zr == Z_MEM_ERROR)
        return floe__error_nomem();
    if (zr != Z_OK)
        return floe__error(FLOE_ERROR, "avro", "deflateInit2 failed: %d", zr);
    uLong bound = deflateBound(&z, (uLong)len);
    int rc = floe__buf_reserve(out, bound);
    if (rc < 0) {
        deflateEnd(&z);
        return rc;
    }
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out->ptr + out->len;
    z.avail_out = (uInt)bound;
    zr = deflate(&z, Z_FINISH);
    if (zr != Z_STREAM_END) {
        deflateEnd(&z);
        return zr == Z_MEM_ERROR ? floe__error_nomem()
                                 : floe__error(FLOE_ERROR, "avro", "deflate failed: %d", zr);
    }
    out->len += z.total_out;
    out->ptr[out->len] = 0;
    deflateEnd(&z);
    return 0;
}

int floe_avro_compress(floe_avro_codec codec, int level, const uint8_t *in, size_t len,
                       floe_buf *out)
{
    switch (codec) {
    case FLOE_AVRO_CODEC_NULL: return floe__buf_put(out, in, len);
    case FLOE_AVRO_CODEC_DEFLATE: return deflate_block(level, in, len, out);
    case FLOE_AVRO_CODEC_ZSTD: {
        size_t bound = ZSTD_compressBound(len);
        FLOE_TRY(floe__buf_reserve(out, bound));
        ZSTD_CCtx *cc = ZSTD_createCCtx_advanced(zs_mem);
        if (!cc)
            return floe__error_nomem();
        size_t n =
            ZSTD_compressCCtx(cc, out->ptr + out->len, bound, in, len, level < 0 ? 3 : level);
        ZSTD_freeCCtx(cc);
        if (ZSTD_isError(n))
            return floe__error(FLOE_ERROR, "avro", "zstd compression failed: %s",
                               ZSTD_getErrorName(n));
        out->len += n;
        out->ptr[out->len] = 0;
        return 0;
    }
    case FLOE_AVRO_CODEC_SNAPPY: {
        size_t bound = snappy_max_compressed_length(len);
        FLOE_TRY(floe__buf_reserve(out, bound + 4));
        size_t n = bound;
        if (snappy_compress((const char *)in, len, out->ptr + out->len, &n) != SNAPPY_OK)
            return floe__error(FLOE_ERROR, "avro", "snappy compression failed");
        out->len += n;
        uint32_t crc = (uint32_t)crc32(0L, in, (uInt)len);
        uint8_t be[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8),
                         (uint8_t)crc};
        return floe__buf_put(out, be, 4);
    }
    }
    return floe__error(FLOE_EINVALID, "avro", "unknown codec %d", (int)codec);
}

static int corrupt(const char *source, int64_t offset, const char *what)
{
    return floe__error(FLOE_ECORRUPT, "avro", "%s in the block at offset %lld in %s", what,
                       (long long)offset, source ? source : "(memory)");
}

/* Grow `out` for streaming decoders, never past the block limit. */
static int grow(floe_buf *out, const char *source, int64_t offset)
{
    size_t want = out->cap < 65536 ? 65536 : out->cap * 2;
    if (want > FLOE_AVRO_MAX_BLOCK + 1)
        want = FLOE_AVRO_MAX_BLOCK + 1;
    if (out->len >= FLOE_AVRO_MAX_BLOCK)
        return corrupt(source, offset, "decompressed block larger than the 256 MiB limit");
    return floe__buf_reserve(out, want - out->len);
}

/* Room for streaming decoders: the buffer's free bytes, at most one past the
 * block limit (a block that reaches it is refused). */
static size_t room_in(const floe_buf *out)
{
    size_t room = out->cap - out->len - 1;
    size_t left = FLOE_AVRO_MAX_BLOCK + 1 - out->len;
    return room < left ? room : left;
}

static int check_limit(floe_buf *out, const char *source, int64_t offset)
{
    if (out->len > FLOE_AVRO_MAX_BLOCK)
        return corrupt(source, offset, "decompressed block larger than the 256 MiB limit");
    if (out->ptr)
        out->ptr[out->len] = 0;
    return 0;
}

int floe_avro_inflate_zlib(const uint8_t *in, size_t len, floe_buf *out, const char *source,
                           int64_t offset)
{
    floe__buf_clear(out);
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = z_alloc;
    z.zfree = z_free;
    int zr = inflateInit2(&z, -15);
    if (zr != Z_OK)
        return zr == Z_MEM_ERROR ? floe__error_nomem()
                                 : floe__error(FLOE_ERROR, "avro", "inflateInit2 failed");
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    int rc = 0;
    for (;;) {
        if (out->cap - out->len < 2 && (rc = grow(out, source, offset)) < 0)
            break;
        size_t room = room_in(out);
        z.next_out = (Bytef *)out->ptr + out->len;
        z.avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
        uInt before = z.avail_out;
        zr = inflate(&z, Z_NO_FLUSH);
        out->len += before - z.avail_out;
        if (zr == Z_STREAM_END)
            break;
        if (zr == Z_MEM_ERROR) {
            rc = floe__error_nomem();
            break;
        }
        if (zr == Z_BUF_ERROR && z.avail_in == 0) {
            rc = corrupt(source, offset, "truncated deflate data");
            break;
        }
        if (zr != Z_OK && zr != Z_BUF_ERROR) {
            rc = corrupt(source, offset, z.msg ? z.msg : "invalid deflate data");
            break;
        }
        if (z.avail_out == 0 && (rc = grow(out, source, offset)) < 0)
            break;
    }
    inflateEnd(&z);
    return rc < 0 ? rc : check_limit(out, source, offset);
}

/* Whole-block inflate; 1 when libdeflate cannot be used (not installed, or
 * its decompressor could not be allocated: zlib then reports the OOM). */
static int inflate_whole(const uint8_t *in, size_t len, floe_buf *out, const char *source,
                         int64_t offset)
{
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!d)
        return 1;
    /* first guess: the buffer as the previous block left it, at least four
     * times the input; double on LIBDEFLATE_INSUFFICIENT_SPACE */
    size_t room = out->cap > 1 ? out->cap - 1 : 0;
    size_t guess = len > FLOE_AVRO_MAX_BLOCK / 4 ? FLOE_AVRO_MAX_BLOCK : len * 4;
    if (room < guess)
        room = guess < 4096 ? 4096 : guess;
    if (room > FLOE_AVRO_MAX_BLOCK)
        room = FLOE_AVRO_MAX_BLOCK;
    int rc;
    for (;;) {
        if ((rc = floe__buf_reserve(out, room)) < 0)
            break;
        size_t got = 0;
        enum libdeflate_result r =
            libdeflate_deflate_decompress(d, in, len, out->ptr, room, &got);
        if (r == LIBDEFLATE_SUCCESS) {
            out->len = got;
            out->ptr[got] = 0;
            break;
        }
        if (r != LIBDEFLATE_INSUFFICIENT_SPACE) {
            rc = corrupt(source, offset, "invalid or truncated deflate data");
            break;
        }
        if (room >= FLOE_AVRO_MAX_BLOCK) {
            rc = corrupt(source, offset, "decompressed block larger than the 256 MiB limit");
            break;
        }
        room = room > FLOE_AVRO_MAX_BLOCK / 2 ? FLOE_AVRO_MAX_BLOCK : room * 2;
    }
    libdeflate_free_decompressor(d);
    return rc;
}

static int zstd_block(const uint8_t *in, size_t len, floe_buf *out, const char *source,
                      int64_t offset)
{
    ZSTD_DCtx *dc = ZSTD_createDCtx_advanced(zs_mem);
    if (!dc)
        return floe__error_nomem();
    /* a frame may ask for a window of up to 2^27 bytes by default: cap it
     * (blocks are far smaller; an oversized window fails as corrupt) */
    ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 25);
    ZSTD_inBuffer ib = {in, len, 0};
    int rc = 0;
    size_t last = 1;
    while (ib.pos < ib.size || last != 0) {
        if (out->cap - out->len < 2 && (rc = grow(out, source, offset)) < 0)
            break;
        ZSTD_outBuffer ob = {out->ptr + out->len, room_in(out), 0};
        size_t before_in = ib.pos;
        last = ZSTD_decompressStream(dc, &ob, &ib);
        out->len += ob.pos;
        if (ZSTD_isError(last)) {
            rc = ZSTD_getErrorCode(last) == ZSTD_error_memory_allocation
                     ? floe__error_nomem()
                     : corrupt(source, offset, ZSTD_getErrorName(last));
            break;
        }
        if (last == 0 && ib.pos == ib.size)
            break;
        if (ob.pos == 0 && ib.pos == before_in && ob.size > 0) {
            rc = corrupt(source, offset, "truncated zstandard data");
            break;
        }
        if (ob.pos == ob.size && (rc = grow(out, source, offset)) < 0)
            break;
    }
    ZSTD_freeDCtx(dc);
    return rc < 0 ? rc : check_limit(out, source, offset);
}

static int snappy_block(const uint8_t *in, size_t len, floe_buf *out, const char *source,
                        int64_t offset)
{
    if (len < 4)
        return corrupt(source, offset, "snappy block shorter than its CRC32");
    size_t n;
    if (snappy_uncompressed_length((const char *)in, len - 4, &n) != SNAPPY_OK)
        return corrupt(source, offset, "invalid snappy data");
    if (n > FLOE_AVRO_MAX_BLOCK)
        return corrupt(source, offset, "decompressed block larger than the 256 MiB limit");
    FLOE_TRY(floe__buf_reserve(out, n));
    size_t got = n;
    if (snappy_uncompress((const char *)in, len - 4, out->ptr, &got) != SNAPPY_OK || got != n)
        return corrupt(source, offset, "invalid snappy data");
    out->len = n;
    out->ptr[n] = 0;
    uint32_t crc = (uint32_t)crc32(0L, (const Bytef *)out->ptr, (uInt)n);
    const uint8_t *t = in + len - 4;
    uint32_t want = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
    if (crc != want)
        return corrupt(source, offset, "snappy CRC32 mismatch");
    return 0;
}

int floe_avro_decompress(floe_avro_codec codec, const uint8_t *in, size_t len, floe_buf *out,
                         const char *source, int64_t offset)
{
    floe__buf_clear(out);
    switch (codec) {
    case FLOE_AVRO_CODEC_NULL:
        if (len > FLOE_AVRO_MAX_BLOCK)
            return corrupt(source, offset, "block larger than the 256 MiB limit");
        return floe__buf_put(out, in, len);
    case FLOE_AVRO_CODEC_DEFLATE: {
        int rc = inflate_whole(in, len, out, source, offset);
        return rc == 1 ? floe_avro_inflate_zlib(in, len, out, source, offset) : rc;
    }
    case FLOE_AVRO_CODEC_ZSTD: return zstd_block(in, len, out, source, offset);
    case FLOE_AVRO_CODEC_SNAPPY: return snappy_block(in, len, out, source, offset);
    }
    return corrupt(source, offset, "unknown codec");
}
