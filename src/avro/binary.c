/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Avro binary encoding (Avro 1.11 "Binary Encoding"): zig-zag varints,
 * IEEE floats little-endian, length-prefixed bytes and strings, arrays and
 * maps in counted blocks, unions as a branch index then the value. Here:
 * errors with file offsets, skipping a datum, rendering any datum as JSON
 * (for `floe inspect` and for comparing with other Avro readers), and the
 * encoders used by the writers.
 */
#include "avro.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#undef floe_avro_cursor_error
int floe_avro_cursor_error(const floe_avro_cursor *c, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    long long at = (long long)(c->p - c->start);
    if (c->block_offset >= 0)
        return floe__error(FLOE_ECORRUPT, "avro",
                           "%s at byte %lld of the block at offset %lld in %s", what, at,
                           (long long)c->block_offset, c->source ? c->source : "(memory)");
    return floe__error(FLOE_ECORRUPT, "avro", "%s at offset %lld in %s", what,
                       (long long)c->file_offset + at, c->source ? c->source : "(memory)");
}

int floe_avro_read_long_slow(floe_avro_cursor *c, int64_t *out)
{
    const uint8_t *p = c->p;
    uint64_t v = 0;
    unsigned shift = 0;
    *out = 0;
    for (;;) {
        if (p >= c->end)
            return floe_avro_cursor_error(c, "truncated varint");
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
        shift += 7;
        if (shift > 63)
            return floe_avro_cursor_error(c, "varint longer than 10 bytes");
    }
    c->p = p;
    *out = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
    return 0;
}

int floe_avro_read_bool(floe_avro_cursor *c, bool *out)
{
    *out = false;
    if (c->p >= c->end)
        return floe_avro_cursor_error(c, "truncated boolean");
    uint8_t b = *c->p;
    if (b > 1)
        return floe_avro_cursor_error(c, "invalid boolean byte %u", (unsigned)b);
    c->p++;
    *out = b == 1;
    return 0;
}

int floe_avro_read_float(floe_avro_cursor *c, float *out)
{
    const uint8_t *p;
    *out = 0;
    FLOE_TRY(floe_avro_read_raw(c, 4, &p));
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    memcpy(out, &u, 4);
    return 0;
}

int floe_avro_read_double(floe_avro_cursor *c, double *out)
{
    const uint8_t *p;
    *out = 0;
    FLOE_TRY(floe_avro_read_raw(c, 8, &p));
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--)
        u = u << 8 | p[i];
    memcpy(out, &u, 8);
    return 0;
}

int floe_avro_read_block_count_slow(floe_avro_cursor *c, int64_t n, size_t min_item, int64_t *count)
{
    *count = 0;
    if (n < 0) {
        if (n == INT64_MIN)
            return floe_avro_cursor_error(c, "invalid block count");
        n = -n;
        int64_t size;
        FLOE_TRY(floe_avro_read_long(c, &size));
        if (size < 0 || size > c->end - c->p)
            return floe_avro_cursor_error(c, "invalid block byte size %lld", (long long)size);
    }
    if (min_item > 0 && (uint64_t)n > (uint64_t)(c->end - c->p) / min_item)
        return floe_avro_cursor_error(c, "block count %lld exceeds the remaining bytes",
                                      (long long)n);
    /* zero-size items (null, empty records): still cap to keep loops bounded */
    if (n > (int64_t)1 << 28)
        return floe_avro_cursor_error(c, "block count %lld too large", (long long)n);
    *count = n;
    return 0;
}

/* Smallest encoded size of a datum (0 for null and records with no fields). */
static size_t min_size(const floe_avro_schema *s)
{
    switch (s->kind) {
    case FLOE_AVRO_NULL: return 0;
    case FLOE_AVRO_FLOAT: return 4;
    case FLOE_AVRO_DOUBLE: return 8;
    case FLOE_AVRO_FIXED: return s->size;
    case FLOE_AVRO_RECORD: return 0; /* conservative: all fields might be null */
    default: return 1;
    }
}

size_t floe_avro_min_size(const floe_avro_schema *s)
{
    size_t m = min_size(s);
    if (s->kind == FLOE_AVRO_RECORD) {
        m = 0;
        for (size_t i = 0; i < s->nfields; i++)
            m += min_size(s->fields[i].type);
    }
    return m;
}

int floe_avro_skip(floe_avro_cursor *c, const floe_avro_schema *s, int depth)
{
    if (depth > FLOE_AVRO_MAX_DEPTH)
        return floe_avro_cursor_error(c, "datum nested too deep");
    int64_t v;
    size_t len;
    const uint8_t *p;
    bool b;
    switch (s->kind) {
    case FLOE_AVRO_NULL: return 0;
    case FLOE_AVRO_BOOLEAN: return floe_avro_read_bool(c, &b);
    case FLOE_AVRO_INT:
    case FLOE_AVRO_LONG:
    case FLOE_AVRO_ENUM:
        FLOE_TRY(floe_avro_read_long(c, &v));
        if (s->kind == FLOE_AVRO_ENUM && (v < 0 || (uint64_t)v >= s->nsymbols))
            return floe_avro_cursor_error(c, "enum index %lld out of range", (long long)v);
        return 0;
    case FLOE_AVRO_FLOAT: return floe_avro_read_raw(c, 4, &p);
    case FLOE_AVRO_DOUBLE: return floe_avro_read_raw(c, 8, &p);
    case FLOE_AVRO_BYTES:
    case FLOE_AVRO_STRING: return floe_avro_read_bytes(c, &p, &len);
    case FLOE_AVRO_FIXED: return floe_avro_read_raw(c, s->size, &p);
    case FLOE_AVRO_RECORD:
        for (size_t i = 0; i < s->nfields; i++)
            FLOE_TRY(floe_avro_skip(c, s->fields[i].type, depth + 1));
        return 0;
    case FLOE_AVRO_ARRAY:
    case FLOE_AVRO_MAP: {
        size_t bound = floe_avro_min_size(s->items) + (s->kind == FLOE_AVRO_MAP ? 1 : 0);
        for (;;) {
            int64_t n;
            FLOE_TRY(floe_avro_read_block_count(c, bound, &n));
            if (n == 0)
                return 0;
            for (int64_t i = 0; i < n; i++) {
                if (s->kind == FLOE_AVRO_MAP)
                    FLOE_TRY(floe_avro_read_bytes(c, &p, &len));
                FLOE_TRY(floe_avro_skip(c, s->items, depth + 1));
            }
        }
    }
    case FLOE_AVRO_UNION:
        FLOE_TRY(floe_avro_read_long(c, &v));
        if (v < 0 || (uint64_t)v >= s->nbranches)
            return floe_avro_cursor_error(c, "union branch %lld out of range", (long long)v);
        return floe_avro_skip(c, s->branches[v], depth + 1);
    }
    return floe_avro_cursor_error(c, "invalid schema kind");
}

static int put_hex(floe_buf *out, const uint8_t *p, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    FLOE_TRY(floe__buf_reserve(out, 4 + 2 * n));
    out->ptr[out->len++] = '"';
    out->ptr[out->len++] = '0';
    out->ptr[out->len++] = 'x';
    for (size_t i = 0; i < n; i++) {
        out->ptr[out->len++] = hx[p[i] >> 4];
        out->ptr[out->len++] = hx[p[i] & 15];
    }
    out->ptr[out->len++] = '"';
    out->ptr[out->len] = 0;
    return 0;
}

static int put_double(floe_buf *out, double d)
{
    if (isnan(d))
        return floe__buf_puts(out, "\"NaN\"");
    if (isinf(d))
        return floe__buf_puts(out, d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return floe__buf_printf(out, "%.17g", d);
}

int floe_avro_datum_to_json(floe_avro_cursor *c, const floe_avro_schema *s, floe_buf *out,
                            int depth)
{
    if (depth > FLOE_AVRO_MAX_DEPTH)
        return floe_avro_cursor_error(c, "datum nested too deep");
    int64_t v;
    size_t len;
    const uint8_t *p;
    bool b;
    switch (s->kind) {
    case FLOE_AVRO_NULL: return floe__buf_puts(out, "null");
    case FLOE_AVRO_BOOLEAN:
        FLOE_TRY(floe_avro_read_bool(c, &b));
        return floe__buf_puts(out, b ? "true" : "false");
    case FLOE_AVRO_INT:
    case FLOE_AVRO_LONG:
        FLOE_TRY(floe_avro_read_long(c, &v));
        if (s->kind == FLOE_AVRO_INT && (v < INT32_MIN || v > INT32_MAX))
            return floe_avro_cursor_error(c, "int out of range");
        return floe__buf_printf(out, "%" PRId64, v);
    case FLOE_AVRO_ENUM:
        FLOE_TRY(floe_avro_read_long(c, &v));
        if (v < 0 || (uint64_t)v >= s->nsymbols)
            return floe_avro_cursor_error(c, "enum index %lld out of range", (long long)v);
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe__buf_put_json_escaped(out, s->symbols[v], strlen(s->symbols[v])));
        return floe__buf_putc(out, '"');
    case FLOE_AVRO_FLOAT: {
        float f;
        FLOE_TRY(floe_avro_read_float(c, &f));
        if (isnan(f) || isinf(f))
            return put_double(out, f);
        return floe__buf_printf(out, "%.9g", (double)f);
    }
    case FLOE_AVRO_DOUBLE: {
        double d;
        FLOE_TRY(floe_avro_read_double(c, &d));
        return put_double(out, d);
    }
    case FLOE_AVRO_BYTES: FLOE_TRY(floe_avro_read_bytes(c, &p, &len)); return put_hex(out, p, len);
    case FLOE_AVRO_FIXED:
        FLOE_TRY(floe_avro_read_raw(c, s->size, &p));
        return put_hex(out, p, s->size);
    case FLOE_AVRO_STRING:
        FLOE_TRY(floe_avro_read_bytes(c, &p, &len));
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe__buf_put_json_escaped(out, (const char *)p, len));
        return floe__buf_putc(out, '"');
    case FLOE_AVRO_RECORD:
        FLOE_TRY(floe__buf_putc(out, '{'));
        for (size_t i = 0; i < s->nfields; i++) {
            FLOE_TRY(floe__buf_puts(out, i ? ", \"" : "\""));
            FLOE_TRY(floe__buf_put_json_escaped(out, s->fields[i].name, strlen(s->fields[i].name)));
            FLOE_TRY(floe__buf_puts(out, "\": "));
            FLOE_TRY(floe_avro_datum_to_json(c, s->fields[i].type, out, depth + 1));
        }
        return floe__buf_putc(out, '}');
    case FLOE_AVRO_ARRAY:
    case FLOE_AVRO_MAP: {
        bool map = s->kind == FLOE_AVRO_MAP;
        size_t bound = floe_avro_min_size(s->items) + (map ? 1 : 0);
        bool first = true;
        FLOE_TRY(floe__buf_putc(out, map ? '{' : '['));
        for (;;) {
            int64_t n;
            FLOE_TRY(floe_avro_read_block_count(c, bound, &n));
            if (n == 0)
                break;
            for (int64_t i = 0; i < n; i++) {
                if (!first)
                    FLOE_TRY(floe__buf_puts(out, ", "));
                first = false;
                if (map) {
                    FLOE_TRY(floe_avro_read_bytes(c, &p, &len));
                    FLOE_TRY(floe__buf_putc(out, '"'));
                    FLOE_TRY(floe__buf_put_json_escaped(out, (const char *)p, len));
                    FLOE_TRY(floe__buf_puts(out, "\": "));
                }
                FLOE_TRY(floe_avro_datum_to_json(c, s->items, out, depth + 1));
            }
        }
        return floe__buf_putc(out, map ? '}' : ']');
    }
    case FLOE_AVRO_UNION:
        FLOE_TRY(floe_avro_read_long(c, &v));
        if (v < 0 || (uint64_t)v >= s->nbranches)
            return floe_avro_cursor_error(c, "union branch %lld out of range", (long long)v);
        return floe_avro_datum_to_json(c, s->branches[v], out, depth + 1);
    }
    return floe_avro_cursor_error(c, "invalid schema kind");
}

/* ---------------------------------------------------------------- encoders */

int floe_avro_put_long(floe_buf *b, int64_t v)
{
    uint64_t z = ((uint64_t)v << 1) ^ -(uint64_t)(v < 0); /* zigzag */
    if (b->cap - b->len < 12)
        FLOE_TRY(floe__buf_reserve(b, 11));
    uint8_t *p = (uint8_t *)b->ptr + b->len;
    size_t n = 0;
    while (z >= 0x80) {
        p[n++] = (uint8_t)(z | 0x80);
        z >>= 7;
    }
    p[n++] = (uint8_t)z;
    b->len += n;
    b->ptr[b->len] = 0;
    return 0;
}

int floe_avro_put_bool(floe_buf *b, bool v)
{
    return floe__buf_putc(b, v ? 1 : 0);
}

int floe_avro_put_float(floe_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    uint8_t p[4] = {(uint8_t)u, (uint8_t)(u >> 8), (uint8_t)(u >> 16), (uint8_t)(u >> 24)};
    return floe__buf_put(b, p, 4);
}

int floe_avro_put_double(floe_buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    uint8_t p[8];
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(u >> (8 * i));
    return floe__buf_put(b, p, 8);
}

int floe_avro_put_bytes(floe_buf *b, const void *p, size_t len)
{
    FLOE_TRY(floe_avro_put_long(b, (int64_t)len));
    return len ? floe__buf_put(b, p, len) : 0;
}

int floe_avro_put_string(floe_buf *b, const char *s)
{
    if (!s)
        return floe__error(FLOE_EINVALID, "avro", "missing required string");
    return floe_avro_put_bytes(b, s, strlen(s));
}
