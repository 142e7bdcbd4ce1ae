/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Single values: the spec's Appendix D binary single-value serialization
 * (manifest lower/upper bounds, partition field summaries), a total order,
 * and text formatting for inspect and metadata tables.
 */
#include "spec/value.h"

#include "util/civil.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

floe_value floe_value_null(floe_type_id t)
{
    floe_value v;
    memset(&v, 0, sizeof v);
    v.type = t;
    v.is_null = true;
    return v;
}

static floe_value mk(floe_type_id t)
{
    floe_value v;
    memset(&v, 0, sizeof v);
    v.type = t;
    return v;
}

floe_value floe_value_bool(bool b)
{
    floe_value v = mk(FLOE_T_BOOLEAN);
    v.v.b = b;
    return v;
}
floe_value floe_value_int(int32_t x)
{
    floe_value v = mk(FLOE_T_INT);
    v.v.i32 = x;
    return v;
}
floe_value floe_value_long(int64_t x)
{
    floe_value v = mk(FLOE_T_LONG);
    v.v.i64 = x;
    return v;
}
floe_value floe_value_float(float x)
{
    floe_value v = mk(FLOE_T_FLOAT);
    v.v.f32 = x;
    return v;
}
floe_value floe_value_double(double x)
{
    floe_value v = mk(FLOE_T_DOUBLE);
    v.v.f64 = x;
    return v;
}
floe_value floe_value_date(int32_t days)
{
    floe_value v = mk(FLOE_T_DATE);
    v.v.i32 = days;
    return v;
}
floe_value floe_value_i64(floe_type_id t, int64_t x)
{
    floe_value v = mk(t);
    v.v.i64 = x;
    return v;
}
floe_value floe_value_decimal(floe_i128 unscaled, int32_t scale)
{
    floe_value v = mk(FLOE_T_DECIMAL);
    v.v.dec = unscaled;
    v.scale = scale;
    return v;
}
floe_value floe_value_bytes(floe_type_id t, const void *p, size_t len)
{
    floe_value v = mk(t);
    v.v.bytes.ptr = p;
    v.v.bytes.len = len;
    return v;
}

static uint64_t le_load(const uint8_t *p, size_t n)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}

static void le_store(uint8_t *p, uint64_t x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}

static int bad_len(const floe_type *t, size_t len)
{
    return floe__error(FLOE_ECORRUPT, "value",
                       "single-value bytes of length %zu do not fit type id %d", len, (int)t->id);
}

int floe_value_from_single(const floe_type *t, const uint8_t *p, size_t len, floe_value *out)
{
    *out = mk(t->id);
    switch (t->id) {
    case FLOE_T_BOOLEAN:
        if (len != 1)
            return bad_len(t, len);
        out->v.b = p[0] != 0;
        return 0;
    case FLOE_T_INT:
    case FLOE_T_DATE:
        if (len != 4)
            return bad_len(t, len);
        out->v.i32 = (int32_t)(uint32_t)le_load(p, 4);
        return 0;
    case FLOE_T_LONG:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        /* Java writes an int-typed bound as 4 bytes when a column was promoted
         * from int to long: accept both widths. */
        if (len == 4 && t->id == FLOE_T_LONG) {
            out->v.i64 = (int32_t)(uint32_t)le_load(p, 4);
            return 0;
        }
        if (len != 8)
            return bad_len(t, len);
        out->v.i64 = (int64_t)le_load(p, 8);
        return 0;
    case FLOE_T_FLOAT: {
        if (len != 4)
            return bad_len(t, len);
        uint32_t u = (uint32_t)le_load(p, 4);
        memcpy(&out->v.f32, &u, 4);
        return 0;
    }
    case FLOE_T_DOUBLE: {
        if (len == 4) { /* promoted float -> double */
            uint32_t u = (uint32_t)le_load(p, 4);
            float f;
            memcpy(&f, &u, 4);
            out->v.f64 = f;
            return 0;
        }
        if (len != 8)
            return bad_len(t, len);
        uint64_t u = le_load(p, 8);
        memcpy(&out->v.f64, &u, 8);
        return 0;
    }
    case FLOE_T_DECIMAL: {
        if (len == 0 || len > 16)
            return bad_len(t, len);
        floe_i128 x = (p[0] & 0x80) ? -1 : 0;
        for (size_t i = 0; i < len; i++)
            x = (floe_i128)(((floe_u128)x << 8) | p[i]);
        out->v.dec = x;
        out->scale = t->scale;
        return 0;
    }
    case FLOE_T_UUID:
        if (len != 16)
            return bad_len(t, len);
        /* fallthrough */
    case FLOE_T_STRING:
    case FLOE_T_BINARY:
    case FLOE_T_FIXED:
        out->v.bytes.ptr = p;
        out->v.bytes.len = len;
        return 0;
    default:
        return floe__error(FLOE_EUNSUPPORTED, "value",
                           "no single-value serialization for type id %d", (int)t->id);
    }
}

int floe_value_to_single(const floe_value *v, floe_buf *out)
{
    uint8_t tmp[16];
    switch (v->type) {
    case FLOE_T_BOOLEAN:
        tmp[0] = v->v.b ? 1 : 0;
        return floe__buf_put(out, tmp, 1);
    case FLOE_T_INT:
    case FLOE_T_DATE:
        le_store(tmp, (uint32_t)v->v.i32, 4);
        return floe__buf_put(out, tmp, 4);
    case FLOE_T_LONG:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        le_store(tmp, (uint64_t)v->v.i64, 8);
        return floe__buf_put(out, tmp, 8);
    case FLOE_T_FLOAT: {
        uint32_t u;
        memcpy(&u, &v->v.f32, 4);
        le_store(tmp, u, 4);
        return floe__buf_put(out, tmp, 4);
    }
    case FLOE_T_DOUBLE: {
        uint64_t u;
        memcpy(&u, &v->v.f64, 8);
        le_store(tmp, u, 8);
        return floe__buf_put(out, tmp, 8);
    }
    case FLOE_T_DECIMAL: {
        floe_u128 u = (floe_u128)v->v.dec;
        for (int i = 15; i >= 0; i--) {
            tmp[i] = (uint8_t)u;
            u >>= 8;
        }
        /* Minimum bytes: drop leading bytes that are pure sign extension. */
        size_t start = 0;
        while (start < 15) {
            bool neg_next = (tmp[start + 1] & 0x80) != 0;
            if ((tmp[start] == 0x00 && !neg_next) || (tmp[start] == 0xff && neg_next))
                start++;
            else
                break;
        }
        return floe__buf_put(out, tmp + start, 16 - start);
    }
    case FLOE_T_STRING:
    case FLOE_T_UUID:
    case FLOE_T_FIXED:
    case FLOE_T_BINARY:
        return floe__buf_put(out, v->v.bytes.ptr, v->v.bytes.len);
    default:
        return floe__error(FLOE_EUNSUPPORTED, "value",
                           "no single-value serialization for type id %d", (int)v->type);
    }
}

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* Map a double to an integer whose order is the spec's float sort order
 * (-NaN < -inf < ... < -0 < 0 < ... < inf < NaN). */
static int64_t double_key(double d)
{
    int64_t bits;
    memcpy(&bits, &d, 8);
    return bits < 0 ? (int64_t)(bits ^ INT64_MAX) : bits;
}

static int cmp_bytes(const floe_value *a, const floe_value *b)
{
    size_t n = a->v.bytes.len < b->v.bytes.len ? a->v.bytes.len : b->v.bytes.len;
    int c = n ? memcmp(a->v.bytes.ptr, b->v.bytes.ptr, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return cmp_i64((int64_t)a->v.bytes.len, (int64_t)b->v.bytes.len);
}

int floe_value_compare(const floe_value *a, const floe_value *b)
{
    if (a->type != b->type)
        return cmp_i64(a->type, b->type);
    switch (a->type) {
    case FLOE_T_BOOLEAN: return cmp_i64(a->v.b, b->v.b);
    case FLOE_T_INT:
    case FLOE_T_DATE: return cmp_i64(a->v.i32, b->v.i32);
    case FLOE_T_FLOAT: return cmp_i64(double_key(a->v.f32), double_key(b->v.f32));
    case FLOE_T_DOUBLE: return cmp_i64(double_key(a->v.f64), double_key(b->v.f64));
    case FLOE_T_DECIMAL: {
        floe_i128 x = a->v.dec, y = b->v.dec;
        /* Align scales (both normally equal the column's scale). */
        for (int32_t s = a->scale; s < b->scale; s++)
            x *= 10;
        for (int32_t s = b->scale; s < a->scale; s++)
            y *= 10;
        return x < y ? -1 : x > y;
    }
    case FLOE_T_STRING:
    case FLOE_T_UUID:
    case FLOE_T_FIXED:
    case FLOE_T_BINARY: return cmp_bytes(a, b);
    default: return cmp_i64(a->v.i64, b->v.i64);
    }
}

int floe_decimal_format(floe_i128 unscaled, int32_t scale, floe_buf *out)
{
    char digits[64];
    size_t n = 0;
    bool neg = unscaled < 0;
    floe_u128 u = neg ? (floe_u128)0 - (floe_u128)unscaled
                              : (floe_u128)unscaled;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u && n < sizeof digits);
    while ((int32_t)n <= scale && n < sizeof digits - 1)
        digits[n++] = '0';
    if (neg)
        FLOE_TRY(floe__buf_putc(out, '-'));
    for (size_t i = n; i-- > 0;) {
        FLOE_TRY(floe__buf_putc(out, digits[i]));
        if (scale > 0 && i == (size_t)scale)
            FLOE_TRY(floe__buf_putc(out, '.'));
    }
    return 0;
}

static int format_date(int64_t days, floe_buf *out)
{
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(days, &y, &m, &d);
    return floe__buf_printf(out, "%04" PRId64 "-%02u-%02u", y, m, d);
}

static int format_ts(int64_t units, int64_t per_sec, bool tz, floe_buf *out)
{
    int64_t secs = floe__floordiv(units, per_sec);
    int64_t frac = floe__floormod(units, per_sec);
    int64_t days = floe__floordiv(secs, 86400);
    int64_t sod = floe__floormod(secs, 86400);
    FLOE_TRY(format_date(days, out));
    FLOE_TRY(floe__buf_printf(out, "T%02d:%02d:%02d", (int)(sod / 3600), (int)(sod / 60 % 60),
                              (int)(sod % 60)));
    if (per_sec == 1000000)
        FLOE_TRY(floe__buf_printf(out, ".%06" PRId64, frac));
    else
        FLOE_TRY(floe__buf_printf(out, ".%09" PRId64, frac));
    return tz ? floe__buf_puts(out, "+00:00") : 0;
}

int floe_value_format(const floe_value *v, floe_buf *out)
{
    static const char hex[] = "0123456789abcdef";
    if (v->is_null)
        return floe__buf_puts(out, "null");
    switch (v->type) {
    case FLOE_T_BOOLEAN: return floe__buf_puts(out, v->v.b ? "true" : "false");
    case FLOE_T_INT: return floe__buf_printf(out, "%" PRId32, v->v.i32);
    case FLOE_T_LONG: return floe__buf_printf(out, "%" PRId64, v->v.i64);
    case FLOE_T_FLOAT:
        if (isnan(v->v.f32))
            return floe__buf_puts(out, "NaN");
        return floe__buf_printf(out, "%.9g", (double)v->v.f32);
    case FLOE_T_DOUBLE:
        if (isnan(v->v.f64))
            return floe__buf_puts(out, "NaN");
        return floe__buf_printf(out, "%.17g", v->v.f64);
    case FLOE_T_DECIMAL: return floe_decimal_format(v->v.dec, v->scale, out);
    case FLOE_T_DATE: return format_date(v->v.i32, out);
    case FLOE_T_TIME: {
        int64_t us = v->v.i64;
        return floe__buf_printf(out, "%02d:%02d:%02d.%06d", (int)(us / 3600000000LL),
                                (int)(us / 60000000LL % 60), (int)(us / 1000000 % 60),
                                (int)(us % 1000000));
    }
    case FLOE_T_TIMESTAMP: return format_ts(v->v.i64, 1000000, false, out);
    case FLOE_T_TIMESTAMPTZ: return format_ts(v->v.i64, 1000000, true, out);
    case FLOE_T_TIMESTAMP_NS: return format_ts(v->v.i64, 1000000000, false, out);
    case FLOE_T_TIMESTAMPTZ_NS: return format_ts(v->v.i64, 1000000000, true, out);
    case FLOE_T_STRING: return floe__buf_put(out, v->v.bytes.ptr, v->v.bytes.len);
    case FLOE_T_UUID: {
        if (v->v.bytes.len != 16)
            return floe__error(FLOE_EINVALID, "value", "uuid of %zu bytes", v->v.bytes.len);
        char s[37];
        floe__uuid_format(v->v.bytes.ptr, s);
        return floe__buf_puts(out, s);
    }
    case FLOE_T_FIXED:
    case FLOE_T_BINARY:
        for (size_t i = 0; i < v->v.bytes.len; i++) {
            char h[2] = {hex[v->v.bytes.ptr[i] >> 4], hex[v->v.bytes.ptr[i] & 15]};
            FLOE_TRY(floe__buf_put(out, h, 2));
        }
        return 0;
    default: return floe__buf_printf(out, "<type %d>", (int)v->type);
    }
}

int floe__value_copy(floe_arena *a, floe_value *d, const floe_value *s)
{
    *d = *s;
    bool bytes = s->type == FLOE_T_STRING || s->type == FLOE_T_BINARY ||
                 s->type == FLOE_T_FIXED || s->type == FLOE_T_UUID;
    if (bytes && !s->is_null && s->v.bytes.len &&
        !(d->v.bytes.ptr = floe__arena_memdup(a, s->v.bytes.ptr, s->v.bytes.len)))
        return floe__error_nomem();
    return 0;
}
