/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/thrift: Thrift compact protocol decoder and encoder (the wire
 * format of parquet.thrift structures: FileMetaData, PageHeader).
 *
 * Field headers carry a 4-bit id delta and the element type; varints are
 * ULEB128 and signed integers are zigzag encoded. Booleans in struct fields
 * live in the type nibble (1 true, 2 false).
 */
#include "parquet/thrift.h"

#include <string.h>

void floe__tdec_init(floe_tdec *d, const void *buf, size_t len, int64_t file_offset,
                     const char *what)
{
    memset(d, 0, sizeof(*d));
    d->base = buf;
    d->p = buf;
    d->end = d->base + len;
    d->file_offset = file_offset;
    d->what = what ? what : "parquet";
}

int floe__tdec_corrupt(floe_tdec *d, const char *why)
{
    return floe__error(FLOE_ECORRUPT, "parquet", "corrupt thrift (%s) at offset %lld in %s", why,
                       (long long)(d->file_offset + (d->p - d->base)), d->what);
}

int floe__tdec_varint(floe_tdec *d, uint64_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (d->p >= d->end)
            return floe__tdec_corrupt(d, "truncated varint");
        uint8_t b = *d->p++;
        if (shift == 63 && (b & 0x7e))
            return floe__tdec_corrupt(d, "varint overflow");
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return floe__tdec_corrupt(d, "varint too long");
}

static int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

int floe__tdec_struct_begin(floe_tdec *d)
{
    if (d->depth >= FLOE_THRIFT_MAX_DEPTH)
        return floe__tdec_corrupt(d, "nesting too deep");
    d->depth++;
    d->last_id[d->depth] = 0;
    return 0;
}

int floe__tdec_struct_end(floe_tdec *d)
{
    if (d->depth > 0)
        d->depth--;
    return 0;
}

int floe__tdec_field(floe_tdec *d, int16_t *id, int *type)
{
    if (d->p >= d->end)
        return floe__tdec_corrupt(d, "truncated struct");
    uint8_t b = *d->p++;
    int t = b & 0x0f;
    if (t == FLOE_TC_STOP) {
        *type = FLOE_TC_STOP;
        *id = 0;
        return 0;
    }
    int delta = b >> 4;
    if (delta) {
        *id = (int16_t)(d->last_id[d->depth] + delta);
    } else {
        uint64_t v;
        FLOE_TRY(floe__tdec_varint(d, &v));
        *id = (int16_t)unzigzag(v);
    }
    if (t > FLOE_TC_STRUCT)
        return floe__tdec_corrupt(d, "bad field type");
    d->last_id[d->depth] = *id;
    *type = t;
    return 0;
}

int floe__tdec_i32(floe_tdec *d, int type, int32_t *out)
{
    if (type == FLOE_TC_I8) {
        if (d->p >= d->end)
            return floe__tdec_corrupt(d, "truncated byte");
        *out = (int32_t)(int8_t)*d->p++;
        return 0;
    }
    if (type != FLOE_TC_I32 && type != FLOE_TC_I16)
        return floe__tdec_corrupt(d, "expected i32");
    uint64_t v;
    FLOE_TRY(floe__tdec_varint(d, &v));
    int64_t s = unzigzag(v);
    if (s < INT32_MIN || s > INT32_MAX)
        return floe__tdec_corrupt(d, "i32 out of range");
    *out = (int32_t)s;
    return 0;
}

int floe__tdec_i64(floe_tdec *d, int type, int64_t *out)
{
    if (type == FLOE_TC_I32 || type == FLOE_TC_I16 || type == FLOE_TC_I8) {
        int32_t v;
        FLOE_TRY(floe__tdec_i32(d, type, &v));
        *out = v;
        return 0;
    }
    if (type != FLOE_TC_I64)
        return floe__tdec_corrupt(d, "expected i64");
    uint64_t v;
    FLOE_TRY(floe__tdec_varint(d, &v));
    *out = unzigzag(v);
    return 0;
}

int floe__tdec_bool(floe_tdec *d, int type, bool *out)
{
    if (type == FLOE_TC_TRUE || type == FLOE_TC_FALSE) {
        *out = type == FLOE_TC_TRUE;
        return 0;
    }
    return floe__tdec_corrupt(d, "expected bool");
}

int floe__tdec_binary(floe_tdec *d, int type, const uint8_t **p, size_t *len)
{
    if (type != FLOE_TC_BINARY)
        return floe__tdec_corrupt(d, "expected binary");
    uint64_t n;
    FLOE_TRY(floe__tdec_varint(d, &n));
    if (n > (uint64_t)(d->end - d->p))
        return floe__tdec_corrupt(d, "binary length past end");
    *p = d->p;
    *len = (size_t)n;
    d->p += n;
    return 0;
}

int floe__tdec_list(floe_tdec *d, int type, int *elem_type, uint32_t *n)
{
    if (type != FLOE_TC_LIST && type != FLOE_TC_SET)
        return floe__tdec_corrupt(d, "expected list");
    if (d->p >= d->end)
        return floe__tdec_corrupt(d, "truncated list");
    uint8_t b = *d->p++;
    uint64_t count = b >> 4;
    if (count == 15)
        FLOE_TRY(floe__tdec_varint(d, &count));
    /* Every element takes at least one byte, except bool-less empty structs
     * which still need a STOP byte: so count <= remaining bytes. */
    if (count > (uint64_t)(d->end - d->p))
        return floe__tdec_corrupt(d, "list count past end");
    *elem_type = b & 0x0f;
    *n = (uint32_t)count;
    return 0;
}

static int skip_depth(floe_tdec *d, int type, int depth)
{
    if (depth > FLOE_THRIFT_MAX_DEPTH)
        return floe__tdec_corrupt(d, "nesting too deep");
    uint64_t v;
    switch (type) {
    case FLOE_TC_TRUE:
    case FLOE_TC_FALSE:
        return 0;
    case FLOE_TC_I8:
        if (d->p >= d->end)
            return floe__tdec_corrupt(d, "truncated byte");
        d->p++;
        return 0;
    case FLOE_TC_I16:
    case FLOE_TC_I32:
    case FLOE_TC_I64:
        return floe__tdec_varint(d, &v);
    case FLOE_TC_DOUBLE:
        if (d->end - d->p < 8)
            return floe__tdec_corrupt(d, "truncated double");
        d->p += 8;
        return 0;
    case FLOE_TC_BINARY: {
        const uint8_t *p;
        size_t n;
        return floe__tdec_binary(d, type, &p, &n);
    }
    case FLOE_TC_LIST:
    case FLOE_TC_SET: {
        int et;
        uint32_t n;
        FLOE_TRY(floe__tdec_list(d, type, &et, &n));
        for (uint32_t i = 0; i < n; i++) {
            /* bool elements in lists are one byte each */
            if (et == FLOE_TC_TRUE || et == FLOE_TC_FALSE) {
                if (d->p >= d->end)
                    return floe__tdec_corrupt(d, "truncated bool");
                d->p++;
            } else {
                FLOE_TRY(skip_depth(d, et, depth + 1));
            }
        }
        return 0;
    }
    case FLOE_TC_MAP: {
        FLOE_TRY(floe__tdec_varint(d, &v));
        if (v == 0)
            return 0;
        if (v > (uint64_t)(d->end - d->p))
            return floe__tdec_corrupt(d, "map count past end");
        if (d->p >= d->end)
            return floe__tdec_corrupt(d, "truncated map");
        uint8_t kv = *d->p++;
        for (uint64_t i = 0; i < v; i++) {
            FLOE_TRY(skip_depth(d, kv >> 4, depth + 1));
            FLOE_TRY(skip_depth(d, kv & 15, depth + 1));
        }
        return 0;
    }
    case FLOE_TC_STRUCT: {
        FLOE_TRY(floe__tdec_struct_begin(d));
        for (;;) {
            int16_t id;
            int t;
            FLOE_TRY(floe__tdec_field(d, &id, &t));
            if (t == FLOE_TC_STOP)
                break;
            FLOE_TRY(skip_depth(d, t, depth + 1));
        }
        return floe__tdec_struct_end(d);
    }
    default:
        return floe__tdec_corrupt(d, "bad type");
    }
}

int floe__tdec_skip(floe_tdec *d, int type)
{
    return skip_depth(d, type, d->depth);
}

/* ---------------------------------------------------------------- encoder */

void floe__tenc_init(floe_tenc *e, floe_buf *out)
{
    memset(e, 0, sizeof(*e));
    e->out = out;
}

int floe__tenc_varint(floe_tenc *e, uint64_t v)
{
    uint8_t tmp[10];
    int n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
    } while (v);
    return floe__buf_put(e->out, tmp, (size_t)n);
}

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ -(uint64_t)(v < 0);
}

int floe__tenc_struct_begin(floe_tenc *e)
{
    if (e->depth >= FLOE_THRIFT_MAX_DEPTH)
        return floe__error(FLOE_EINVALID, "parquet", "thrift nesting too deep");
    e->depth++;
    e->last_id[e->depth] = 0;
    return 0;
}

int floe__tenc_struct_end(floe_tenc *e)
{
    if (e->depth > 0)
        e->depth--;
    return floe__buf_putc(e->out, 0);
}

int floe__tenc_field(floe_tenc *e, int16_t id, int type)
{
    int delta = id - e->last_id[e->depth];
    e->last_id[e->depth] = id;
    if (delta > 0 && delta <= 15)
        return floe__buf_putc(e->out, (char)((delta << 4) | type));
    FLOE_TRY(floe__buf_putc(e->out, (char)type));
    return floe__tenc_varint(e, zigzag(id));
}

int floe__tenc_i32(floe_tenc *e, int16_t id, int32_t v)
{
    FLOE_TRY(floe__tenc_field(e, id, FLOE_TC_I32));
    return floe__tenc_varint(e, zigzag(v));
}

int floe__tenc_i64(floe_tenc *e, int16_t id, int64_t v)
{
    FLOE_TRY(floe__tenc_field(e, id, FLOE_TC_I64));
    return floe__tenc_varint(e, zigzag(v));
}

int floe__tenc_bool(floe_tenc *e, int16_t id, bool v)
{
    return floe__tenc_field(e, id, v ? FLOE_TC_TRUE : FLOE_TC_FALSE);
}

int floe__tenc_raw_binary(floe_tenc *e, const void *p, size_t len)
{
    FLOE_TRY(floe__tenc_varint(e, len));
    return floe__buf_put(e->out, p, len);
}

int floe__tenc_binary(floe_tenc *e, int16_t id, const void *p, size_t len)
{
    FLOE_TRY(floe__tenc_field(e, id, FLOE_TC_BINARY));
    return floe__tenc_raw_binary(e, p, len);
}

int floe__tenc_raw_i32(floe_tenc *e, int32_t v)
{
    return floe__tenc_varint(e, zigzag(v));
}

int floe__tenc_list_begin(floe_tenc *e, int16_t id, int elem_type, uint32_t n)
{
    FLOE_TRY(floe__tenc_field(e, id, FLOE_TC_LIST));
    if (n < 15)
        return floe__buf_putc(e->out, (char)((n << 4) | (uint32_t)elem_type));
    FLOE_TRY(floe__buf_putc(e->out, (char)(0xf0 | elem_type)));
    return floe__tenc_varint(e, n);
}
