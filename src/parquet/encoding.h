/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/encoding: value and level encodings of Parquet (Encodings.md):
 * the RLE / bit-packing hybrid (levels, dictionary indices, booleans),
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT, and the page codecs (codec.c). Decoders never read past
 * the buffer they are given and report FLOE_ECORRUPT otherwise.
 */
#ifndef FLOE_PARQUET_ENCODING_H
#define FLOE_PARQUET_ENCODING_H

#include "util/util.h"

/* Context for error messages: file name and file offset of the buffer. */
typedef struct floe_pq_where {
    const char *file;
    int64_t offset;
} floe_pq_where;

int floe__pq_corrupt(const floe_pq_where *w, const char *fmt, ...) FLOE_PRINTF(2, 3);
#ifdef __clang_analyzer__
/* For clang's static analyzer only (as util.h does for floe__error): it is
 * FLOE_ECORRUPT, which the analyzer does not see (it does not follow a
 * variadic call), so that it stops taking a decode error for a success. */
#define floe__pq_corrupt(...) (floe__pq_corrupt(__VA_ARGS__), FLOE_ECORRUPT)
#endif

/* Bits needed for values 0..max. */
int floe__pq_bit_width(uint64_t max);

/* RLE/bit-packed hybrid: decode exactly `n` values of `bit_width` bits
 * (<= 32) from buf[0..len) into out (uint32). Returns bytes consumed or a
 * negative error. A stream that ends early is corrupt. */
int64_t floe__pq_rle_decode(const uint8_t *buf, size_t len, int bit_width, uint32_t *out, size_t n,
                            const floe_pq_where *w);
/* Same into uint16 (levels). */
int64_t floe__pq_rle_decode16(const uint8_t *buf, size_t len, int bit_width, uint16_t *out,
                              size_t n, const floe_pq_where *w);
/* Append the hybrid encoding of values (no length prefix). */
int floe__pq_rle_encode16(const uint16_t *vals, size_t n, int bit_width, floe_buf *out);
int floe__pq_rle_encode32(const uint32_t *vals, size_t n, int bit_width, floe_buf *out);

/* DELTA_BINARY_PACKED: decode up to `max` values into out (int64). *count
 * receives the total count the header declares (must be <= max). Returns
 * bytes consumed. */
int64_t floe__pq_delta_decode(const uint8_t *buf, size_t len, int64_t *out, size_t max,
                              size_t *count, const floe_pq_where *w);

/* Byte array output: Arrow-style int32 offsets (n+1) and data. */
typedef struct floe_pq_binvals {
    int32_t *offsets; /* offsets[0] = 0; capacity cap+1 */
    size_t n, cap;
    floe_buf data;
} floe_pq_binvals;

int floe__pq_binvals_reserve(floe_pq_binvals *b, size_t extra);
int floe__pq_binvals_push(floe_pq_binvals *b, const void *p, size_t len);
void floe__pq_binvals_free(floe_pq_binvals *b);

/* Decode `n` byte arrays with the given encoding (PLAIN,
 * DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY) appending to out. For
 * FIXED_LEN_BYTE_ARRAY pass fixed_len > 0 (PLAIN only here). */
int floe__pq_decode_bytes(int encoding, const uint8_t *buf, size_t len, size_t n, int32_t fixed_len,
                          floe_pq_binvals *out, const floe_pq_where *w);

/* BYTE_STREAM_SPLIT: n values of `width` bytes into out (n * width). */
int floe__pq_bss_decode(const uint8_t *buf, size_t len, size_t n, int width, uint8_t *out,
                        const floe_pq_where *w);

/* Page codecs (codec.c). */
int floe__pq_compress(int codec, const void *src, size_t n, floe_buf *out);
/* With a level (zstd 1..22, gzip 0..9); level < 0: the codec's default
 * (zstd 3, gzip 6). */
int floe__pq_compress_level(int codec, int level, const void *src, size_t n, floe_buf *out);
/* Decompress into dst which must be exactly dst_len bytes long. */
int floe__pq_decompress(int codec, const void *src, size_t n, void *dst, size_t dst_len,
                        const floe_pq_where *w);
/* Same with a reusable zstd decompression context (from
 * floe__pq_zstd_dctx_new; NULL: a one-shot context). */
int floe__pq_decompress_ctx(int codec, void *zctx, const void *src, size_t n, void *dst,
                            size_t dst_len, const floe_pq_where *w);
/* A zstd decompression context (NULL when out of memory) and its release. */
void *floe__pq_zstd_dctx_new(void);
void floe__pq_zstd_dctx_free(void *zctx);
/* Codec from `write.parquet.compression-codec` value (case-insensitive). */
int floe__pq_codec_from_name(const char *name, int *codec);

#endif
