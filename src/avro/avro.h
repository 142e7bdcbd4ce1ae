/* SPDX-License-Identifier: Apache-2.0 */
/*
 * avro: floe's own Apache Avro 1.11 codec, just enough for Iceberg metadata
 * (spec "Manifests", "Manifest Lists", Appendix C): schemas parsed from and
 * emitted as JSON keeping Iceberg's `field-id` / `element-id` / `key-id` /
 * `value-id` attributes and logical types; the binary encoding (zig-zag
 * varints, length-prefixed bytes, blocked arrays and maps, unions); and the
 * Object Container File format (magic, header metadata map, 16-byte sync
 * marker, blocks) with the null, deflate, zstandard and snappy codecs.
 *
 * Everything reads from memory buffers supplied by the caller (who got them
 * from FileIO); every length, count and nesting depth taken from the input is
 * checked, and bad bytes fail with FLOE_ECORRUPT naming the `source` and the
 * byte offset.
 */
#ifndef FLOE_AVRO_H
#define FLOE_AVRO_H

#include "util/util.h"

#include <string.h>

/* Hard limits on what a file may ask of us. */
#define FLOE_AVRO_MAX_DEPTH 32           /* schema and datum nesting */
#define FLOE_AVRO_MAX_BLOCK (256u << 20) /* decoded block bytes */
#define FLOE_AVRO_MAX_META (64u << 20)   /* header metadata value bytes */

/* ---------------------------------------------------------------- schemas */

typedef enum floe_avro_kind {
    FLOE_AVRO_NULL = 0,
    FLOE_AVRO_BOOLEAN,
    FLOE_AVRO_INT,
    FLOE_AVRO_LONG,
    FLOE_AVRO_FLOAT,
    FLOE_AVRO_DOUBLE,
    FLOE_AVRO_BYTES,
    FLOE_AVRO_STRING,
    FLOE_AVRO_RECORD,
    FLOE_AVRO_ENUM,
    FLOE_AVRO_ARRAY,
    FLOE_AVRO_MAP,
    FLOE_AVRO_UNION,
    FLOE_AVRO_FIXED,
} floe_avro_kind;

typedef struct floe_avro_schema floe_avro_schema;

#define FLOE_AVRO_NO_ID INT32_MIN /* an absent field-id / element-id / ... */

typedef struct floe_avro_field {
    const char *name;
    int32_t field_id; /* FLOE_AVRO_NO_ID when absent */
    const floe_avro_schema *type;
    const char *doc;  /* NULL if none */
    bool has_default; /* only `null` and scalar defaults are kept as JSON text */
    const char *default_json;
} floe_avro_field;

struct floe_avro_schema {
    floe_avro_kind kind;
    const char *name;         /* record, enum, fixed (full name as written) */
    const char *logical_type; /* NULL if none: "date", "decimal", "map", ... */
    int32_t precision, scale; /* decimal */
    bool adjust_to_utc;       /* Iceberg's "adjust-to-utc" on timestamps */
    bool has_adjust_to_utc;
    size_t size; /* fixed */
    /* record */
    size_t nfields;
    const floe_avro_field *fields;
    /* array items / map values */
    const floe_avro_schema *items;
    int32_t element_id; /* array "element-id" */
    int32_t key_id;     /* map "key-id" */
    int32_t value_id;   /* map "value-id" */
    /* union */
    size_t nbranches;
    const floe_avro_schema *const *branches;
    /* enum */
    size_t nsymbols;
    const char *const *symbols;
};

/* Parse an Avro schema from JSON text into `arena`. FLOE_ECORRUPT (message
 * names `source`) on invalid JSON or an invalid schema. */
int floe_avro_schema_parse(const floe_avro_schema **out, floe_arena *arena, const char *json,
                           size_t len, const char *source);

/* Emit `s` as compact JSON (attributes kept: field-id, element-id, key-id,
 * value-id, logicalType, precision, scale, adjust-to-utc, doc, default). */
int floe_avro_schema_emit(const floe_avro_schema *s, floe_buf *out);

/* For an optional field written as a union of null and one type: the type
 * and the branch index of null (-1 when `s` is not such a union). */
const floe_avro_schema *floe_avro_unwrap_optional(const floe_avro_schema *s, int *null_index);

const char *floe_avro_kind_name(floe_avro_kind k);

/* ---------------------------------------------------------------- decoding */

/* A read position inside a decoded block (or the header). Errors name
 * `source` and the file offset: for uncompressed data `file_offset` is the
 * offset of `start` in the file; for a decompressed block `block_offset` is
 * the file offset of the block and messages give the byte inside it. */
typedef struct floe_avro_cursor {
    const uint8_t *p;
    const uint8_t *end;
    const uint8_t *start;
    const char *source;
    int64_t file_offset;  /* >= 0: offset of `start` in the file */
    int64_t block_offset; /* >= 0 when decoding a decompressed block */
} floe_avro_cursor;

int floe_avro_cursor_error(const floe_avro_cursor *c, const char *fmt, ...) FLOE_PRINTF(2, 3);
#ifdef __clang_analyzer__
/* As floe__error in util.h: the analyzer sees the (negative) code returned. */
#define floe_avro_cursor_error(c, ...) (floe_avro_cursor_error((c), __VA_ARGS__), FLOE_ECORRUPT)
#endif

int floe_avro_read_long_slow(floe_avro_cursor *c, int64_t *out);

/* Zig-zag varint. Fast path when 10 bytes remain (no per-byte bounds check). */
static inline int floe_avro_read_long(floe_avro_cursor *c, int64_t *out)
{
    const uint8_t *p = c->p;
    if (FLOE_LIKELY(c->end - p >= 10)) {
        uint64_t b = *p++;
        uint64_t v = b & 0x7f;
        unsigned shift = 7;
        while (b & 0x80) {
            if (FLOE_UNLIKELY(shift > 63))
                return floe_avro_read_long_slow(c, out); /* reports the error */
            b = *p++;
            v |= (b & 0x7f) << shift;
            shift += 7;
        }
        c->p = p;
        *out = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
        return 0;
    }
    return floe_avro_read_long_slow(c, out);
}

static inline int floe_avro_read_int(floe_avro_cursor *c, int32_t *out)
{
    int64_t v;
    *out = 0;
    FLOE_TRY(floe_avro_read_long(c, &v));
    if (FLOE_UNLIKELY(v < INT32_MIN || v > INT32_MAX))
        return floe_avro_cursor_error(c, "int out of range: %lld", (long long)v);
    *out = (int32_t)v;
    return 0;
}

/* A length prefix (bytes, string, fixed-free): non-negative and within the
 * remaining input. */
static inline int floe_avro_read_len(floe_avro_cursor *c, size_t *out)
{
    int64_t v;
    *out = 0;
    FLOE_TRY(floe_avro_read_long(c, &v));
    if (FLOE_UNLIKELY(v < 0))
        return floe_avro_cursor_error(c, "negative length %lld", (long long)v);
    if (FLOE_UNLIKELY((uint64_t)v > (uint64_t)(c->end - c->p)))
        return floe_avro_cursor_error(c, "length %lld exceeds the %lld remaining bytes",
                                      (long long)v, (long long)(c->end - c->p));
    *out = (size_t)v;
    return 0;
}

static inline int floe_avro_read_bytes(floe_avro_cursor *c, const uint8_t **ptr, size_t *len)
{
    *ptr = NULL;
    FLOE_TRY(floe_avro_read_len(c, len));
    *ptr = c->p;
    c->p += *len;
    return 0;
}

static inline int floe_avro_read_raw(floe_avro_cursor *c, size_t n, const uint8_t **ptr)
{
    if (FLOE_UNLIKELY((size_t)(c->end - c->p) < n)) {
        *ptr = NULL;
        return floe_avro_cursor_error(c, "truncated: need %zu bytes", n);
    }
    *ptr = c->p;
    c->p += n;
    return 0;
}

int floe_avro_read_bool(floe_avro_cursor *c, bool *out);
int floe_avro_read_float(floe_avro_cursor *c, float *out);
int floe_avro_read_double(floe_avro_cursor *c, double *out);

/* Array / map block header: item count of the next block (0 = end). A
 * negative count is followed by the block's byte size (read and ignored).
 * The count is bounded by the remaining bytes (each item takes >= min_item
 * bytes, min_item >= 1 except for null items, where 0 means "no bound"). */
int floe_avro_read_block_count_slow(floe_avro_cursor *c, int64_t n, size_t min_item,
                                    int64_t *count);

static inline int floe_avro_read_block_count(floe_avro_cursor *c, size_t min_item, int64_t *count)
{
    int64_t n;
    FLOE_TRY(floe_avro_read_long(c, &n));
    if (FLOE_LIKELY(n >= 0 && n <= (1 << 20) && min_item <= 4096 &&
                    (uint64_t)n * min_item <= (uint64_t)(c->end - c->p))) {
        *count = n;
        return 0;
    }
    return floe_avro_read_block_count_slow(c, n, min_item, count);
}

/* Lower bound of the encoded size of one datum of `s` (0 when it can be empty). */
size_t floe_avro_min_size(const floe_avro_schema *s);

/* Skip one datum of schema `s` (depth-limited). */
int floe_avro_skip(floe_avro_cursor *c, const floe_avro_schema *s, int depth);

/* Decode one datum of schema `s` as JSON text: records as objects, maps as
 * objects, arrays, bytes/fixed as "0x<hex>" strings, unions as the bare
 * value, enums as their symbol, NaN/inf floats as "NaN"/"Infinity" strings
 * (the rendering of shared/verify/avro-dump.py). */
int floe_avro_datum_to_json(floe_avro_cursor *c, const floe_avro_schema *s, floe_buf *out,
                            int depth);

/* ---------------------------------------------------------------- encoding */

int floe_avro_put_long(floe_buf *b, int64_t v);
static inline int floe_avro_put_int(floe_buf *b, int32_t v)
{
    return floe_avro_put_long(b, v);
}
int floe_avro_put_bool(floe_buf *b, bool v);
int floe_avro_put_float(floe_buf *b, float v);
int floe_avro_put_double(floe_buf *b, double v);
int floe_avro_put_bytes(floe_buf *b, const void *p, size_t len);
int floe_avro_put_string(floe_buf *b, const char *s); /* NULL is an error */

/* ---------------------------------------------------------------- codecs */

typedef enum floe_avro_codec {
    FLOE_AVRO_CODEC_NULL = 0,
    FLOE_AVRO_CODEC_DEFLATE,
    FLOE_AVRO_CODEC_ZSTD,
    FLOE_AVRO_CODEC_SNAPPY,
} floe_avro_codec;

/* "null", "deflate", "zstandard", "snappy" (also accepts "zstd"). */
int floe_avro_codec_from_name(const char *name, size_t len, floe_avro_codec *out);
const char *floe_avro_codec_name(floe_avro_codec c);

/* Compress `in` appending to `out`. level < 0: the codec's default. */
int floe_avro_compress(floe_avro_codec codec, int level, const uint8_t *in, size_t len,
                       floe_buf *out);
/* Decompress into `out` (cleared first), at most FLOE_AVRO_MAX_BLOCK bytes.
 * Errors are FLOE_ECORRUPT naming `source` and `offset` (the block's). */
int floe_avro_decompress(floe_avro_codec codec, const uint8_t *in, size_t len, floe_buf *out,
                         const char *source, int64_t offset);
/* Deflate with zlib's streaming inflate, what floe_avro_decompress() does
 * when libdeflate (lazy/deflate.h) is not installed; same contract. */
int floe_avro_inflate_zlib(const uint8_t *in, size_t len, floe_buf *out, const char *source,
                           int64_t offset);

/* ---------------------------------------------------------------- container files */

typedef struct floe_avro_meta {
    const char *key;      /* NUL-terminated copy */
    const uint8_t *value; /* borrowed from the input buffer */
    size_t len;
} floe_avro_meta;

typedef struct floe_avro_file {
    const char *source;
    const uint8_t *data;
    size_t len;
    floe_arena *arena; /* schema, metadata keys */
    size_t nmeta;
    floe_avro_meta *meta;
    const floe_avro_schema *schema;
    const char *schema_json; /* NUL-terminated copy of avro.schema */
    floe_avro_codec codec;
    uint8_t sync[16];
    size_t header_len; /* offset of the first block */
    size_t pos;        /* offset of the next block */
    floe_buf block;    /* decompressed block (reused) */
    int64_t blocks;    /* blocks read so far */
} floe_avro_file;

/* Parse the header of the container file in `data` (borrowed: it must
 * outlive the file object). FLOE_ECORRUPT for bad magic, header, schema or an
 * unknown codec; FLOE_ENOMEM. */
int floe_avro_file_open(floe_avro_file **out, const uint8_t *data, size_t len, const char *source);
void floe_avro_file_free(floe_avro_file *f);

/* Header metadata value (borrowed, not NUL-terminated) or NULL. */
const uint8_t *floe_avro_file_meta(const floe_avro_file *f, const char *key, size_t *len);
/* Same, as a NUL-terminated copy in the file's arena (NULL if absent or OOM:
 * check floe__error_code()). */
const char *floe_avro_file_meta_str(floe_avro_file *f, const char *key);

/* Next data block: `cur` covers its decoded bytes, `count` its object count
 * (bounded by the decoded size). Returns FLOE_ITEROVER after the last block;
 * FLOE_ECORRUPT for a bad block header, sync marker or compressed data. The
 * previous block's bytes are invalid after this call. */
int floe_avro_file_next_block(floe_avro_file *f, floe_avro_cursor *cur, int64_t *count);

/* Writer: header with `meta` (n pairs, values NUL-terminated strings; the
 * `avro.schema` and `avro.codec` keys are added), then blocks. Bytes are
 * appended to `out` (owned by the caller). */
typedef struct floe_avro_writer floe_avro_writer;

int floe_avro_writer_new(floe_avro_writer **out, floe_buf *dst, const char *schema_json,
                         floe_avro_codec codec, int level, const floe_kv *meta, size_t nmeta);
/* The buffer to encode the next object into (append only). */
floe_buf *floe_avro_writer_buf(floe_avro_writer *w);
/* Mark one object complete (flushes the block when it is large). */
int floe_avro_writer_commit(floe_avro_writer *w);
/* Flush the last block; the writer stays valid until freed. */
int floe_avro_writer_finish(floe_avro_writer *w);
void floe_avro_writer_free(floe_avro_writer *w);
/* Block size threshold in bytes of encoded objects (default 64 KiB), for tests. */
void floe_avro_writer_set_block_size(floe_avro_writer *w, size_t bytes);

#endif
