/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/codec: page compression codecs (Compression.md): UNCOMPRESSED,
 * SNAPPY (raw snappy blocks), GZIP (RFC 1952 members, via zlib) and ZSTD
 * (frames, via libzstd). LZO, BROTLI and LZ4 are recognised and refused.
 */
#include "parquet/encoding.h"
#include "parquet/format.h"

#include "lazy/snappy.h"
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

int floe__pq_codec_from_name(const char *name, int *codec)
{
    if (!name || !strcasecmp(name, "zstd"))
        *codec = FLOE_PQ_CODEC_ZSTD;
    else if (!strcasecmp(name, "snappy"))
        *codec = FLOE_PQ_CODEC_SNAPPY;
    else if (!strcasecmp(name, "gzip"))
        *codec = FLOE_PQ_CODEC_GZIP;
    else if (!strcasecmp(name, "uncompressed") || !strcasecmp(name, "none"))
        *codec = FLOE_PQ_CODEC_UNCOMPRESSED;
    else
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "Unsupported compression codec: %s",
                           name);
    return 0;
}

int floe__pq_compress(int codec, const void *src, size_t n, floe_buf *out)
{
    return floe__pq_compress_level(codec, -1, src, n, out);
}

int floe__pq_compress_level(int codec, int level, const void *src, size_t n, floe_buf *out)
{
    switch (codec) {
    case FLOE_PQ_CODEC_UNCOMPRESSED:
        return floe__buf_put(out, src, n);
    case FLOE_PQ_CODEC_ZSTD: {
        size_t bound = ZSTD_compressBound(n);
        FLOE_TRY(floe__buf_reserve(out, bound));
        if (level < 0)
            level = 3;
        if (level > ZSTD_maxCLevel())
            level = ZSTD_maxCLevel();
        size_t r = ZSTD_compress(out->ptr + out->len, bound, src, n, level);
        if (ZSTD_isError(r))
            return floe__error(FLOE_ERROR, "parquet", "zstd: %s", ZSTD_getErrorName(r));
        out->len += r;
        return 0;
    }
    case FLOE_PQ_CODEC_SNAPPY: {
        size_t bound = snappy_max_compressed_length(n);
        FLOE_TRY(floe__buf_reserve(out, bound));
        size_t got = bound;
        if (snappy_compress(src, n, out->ptr + out->len, &got) != SNAPPY_OK)
            return floe__error(FLOE_ERROR, "parquet", "snappy compression failed");
        out->len += got;
        return 0;
    }
    case FLOE_PQ_CODEC_GZIP: {
        z_stream z = {0};
        if (deflateInit2(&z, level < 0 ? 6 : level > 9 ? 9 : level, Z_DEFLATED, 15 + 16, 8,
                         Z_DEFAULT_STRATEGY) != Z_OK)
            return floe__error_nomem();
        size_t bound = deflateBound(&z, (uLong)n);
        int rc = floe__buf_reserve(out, bound);
        if (rc < 0) {
            deflateEnd(&z);
            return rc;
        }
        z.next_in = (Bytef *)(uintptr_t)src;
        z.avail_in = (uInt)n;
        z.next_out = (Bytef *)out->ptr + out->len;
        z.avail_out = (uInt)bound;
        int zr = deflate(&z, Z_FINISH);
        size_t produced = bound - z.avail_out;
        deflateEnd(&z);
        if (zr != Z_STREAM_END)
            return floe__error(FLOE_ERROR, "parquet", "gzip compression failed");
        out->len += produced;
        return 0;
    }
    default:
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported codec %s",
                           floe__pq_codec_name(codec));
    }
}

int floe__pq_decompress(int codec, const void *src, size_t n, void *dst, size_t dst_len,
                        const floe_pq_where *w)
{
    return floe__pq_decompress_ctx(codec, NULL, src, n, dst, dst_len, w);
}

void *floe__pq_zstd_dctx_new(void)
{
    return ZSTD_createDCtx();
}

void floe__pq_zstd_dctx_free(void *zctx)
{
    ZSTD_freeDCtx(zctx);
}

int floe__pq_decompress_ctx(int codec, void *zctx, const void *src, size_t n, void *dst,
                            size_t dst_len, const floe_pq_where *w)
{
    switch (codec) {
    case FLOE_PQ_CODEC_UNCOMPRESSED:
        if (n != dst_len)
            return floe__pq_corrupt(w, "uncompressed page size %zu != %zu", n, dst_len);
        memcpy(dst, src, n);
        return 0;
    case FLOE_PQ_CODEC_ZSTD: {
        /* a reused context: ZSTD_decompress would allocate (and fault in)
         * a fresh ~100 KiB context for every page */
        size_t r = zctx ? ZSTD_decompressDCtx(zctx, dst, dst_len, src, n)
                        : ZSTD_decompress(dst, dst_len, src, n);
        if (ZSTD_isError(r) || r != dst_len)
            return floe__pq_corrupt(w, "zstd: %s",
                                    ZSTD_isError(r) ? ZSTD_getErrorName(r) : "size mismatch");
        return 0;
    }
    case FLOE_PQ_CODEC_SNAPPY: {
        size_t ulen;
        if (snappy_uncompressed_length(src, n, &ulen) != SNAPPY_OK || ulen != dst_len)
            return floe__pq_corrupt(w, "snappy: bad length");
        size_t got = dst_len;
        if (snappy_uncompress(src, n, dst, &got) != SNAPPY_OK || got != dst_len)
            return floe__pq_corrupt(w, "snappy: bad data");
        return 0;
    }
    case FLOE_PQ_CODEC_GZIP: {
        z_stream z = {0};
        if (inflateInit2(&z, 15 + 32) != Z_OK)
            return floe__error_nomem();
        z.next_in = (Bytef *)(uintptr_t)src;
        z.avail_in = (uInt)n;
        z.next_out = dst;
        z.avail_out = (uInt)dst_len;
        int zr;
        /* Some writers emit several concatenated gzip members. */
        for (;;) {
            zr = inflate(&z, Z_FINISH);
            if (zr == Z_STREAM_END && z.avail_in > 0 && z.avail_out > 0) {
                inflateReset(&z);
                continue;
            }
            break;
        }
        size_t got = dst_len - z.avail_out;
        inflateEnd(&z);
        if ((zr != Z_STREAM_END && zr != Z_BUF_ERROR) || got != dst_len)
            return floe__pq_corrupt(w, "gzip: bad data");
        return 0;
    }
    default:
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported codec %s in %s",
                           floe__pq_codec_name(codec), w->file);
    }
}
