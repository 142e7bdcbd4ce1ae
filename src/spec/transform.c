/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Partition transforms applied to single values (spec "Partition
 * Transforms", "Bucket Transform Details", "Truncate Transform Details",
 * Appendix B), and the human-readable partition values and paths that Java's
 * Transform.toHumanString / PartitionSpec.partitionToPath produce, so that
 * floe writes the same directory names as Spark and Trino.
 */
#include "spec/transform.h"

#include "spec/value.h"
#include "util/civil.h"
#include "util/murmur3.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const floe_type type_int = {.id = FLOE_T_INT};
static const floe_type type_date = {.id = FLOE_T_DATE};

#define US_PER_SEC INT64_C(1000000)
#define NS_PER_SEC INT64_C(1000000000)

static bool is_ts(floe_type_id id)
{
    return id == FLOE_T_TIMESTAMP || id == FLOE_T_TIMESTAMPTZ || id == FLOE_T_TIMESTAMP_NS ||
           id == FLOE_T_TIMESTAMPTZ_NS;
}

static bool is_ns(floe_type_id id)
{
    return id == FLOE_T_TIMESTAMP_NS || id == FLOE_T_TIMESTAMPTZ_NS;
}

static bool is_primitive(floe_type_id id)
{
    return id > FLOE_T_INVALID && id < FLOE_T_STRUCT;
}

static bool can_apply_id(const floe_transform *t, floe_type_id id)
{
    switch (t->kind) {
    case FLOE_TR_IDENTITY:
        return is_primitive(id) && id != FLOE_T_VARIANT && id != FLOE_T_GEOMETRY &&
               id != FLOE_T_GEOGRAPHY;
    case FLOE_TR_BUCKET:
        if (t->param <= 0)
            return false;
        switch (id) {
        case FLOE_T_INT:
        case FLOE_T_LONG:
        case FLOE_T_DECIMAL:
        case FLOE_T_DATE:
        case FLOE_T_TIME:
        case FLOE_T_STRING:
        case FLOE_T_UUID:
        case FLOE_T_FIXED:
        case FLOE_T_BINARY: return true;
        default: return is_ts(id);
        }
    case FLOE_TR_TRUNCATE:
        return t->param > 0 && (id == FLOE_T_INT || id == FLOE_T_LONG || id == FLOE_T_DECIMAL ||
                                id == FLOE_T_STRING || id == FLOE_T_BINARY);
    case FLOE_TR_YEAR:
    case FLOE_TR_MONTH:
    case FLOE_TR_DAY: return id == FLOE_T_DATE || is_ts(id);
    case FLOE_TR_HOUR: return is_ts(id);
    case FLOE_TR_VOID: return id != FLOE_T_INVALID;
    default: return false;
    }
}

bool floe_transform_can_apply(const floe_transform *t, const floe_type *source)
{
    return source && can_apply_id(t, source->id);
}

const floe_type *floe_transform_result_type(const floe_transform *t, const floe_type *source)
{
    if (!floe_transform_can_apply(t, source))
        return NULL;
    switch (t->kind) {
    case FLOE_TR_BUCKET:
    case FLOE_TR_YEAR:
    case FLOE_TR_MONTH:
    case FLOE_TR_HOUR: return &type_int;
    case FLOE_TR_DAY: return &type_date;
    default: return source;
    }
}

/* ---------------------------------------------------------------- bucket */

/* Minimum big-endian two's-complement bytes of a decimal's unscaled value
 * (Appendix B note 2: like Java's BigInteger.toByteArray). */
static size_t decimal_min_bytes(floe_i128 v, uint8_t out[16])
{
    uint8_t be[16];
    floe_u128 u = (floe_u128)v;
    for (int i = 15; i >= 0; i--) {
        be[i] = (uint8_t)u;
        u >>= 8;
    }
    size_t start = 0;
    while (start < 15) {
        bool redundant = (be[start] == 0x00 && !(be[start + 1] & 0x80)) ||
                         (be[start] == 0xff && (be[start + 1] & 0x80));
        if (!redundant)
            break;
        start++;
    }
    memcpy(out, be + start, 16 - start);
    return 16 - start;
}

int floe_transform_bucket_hash(const floe_value *v, int32_t *hash_out)
{
    switch (v->type) {
    case FLOE_T_INT:
    case FLOE_T_DATE: *hash_out = floe__murmur3_int(v->v.i32); return 0;
    case FLOE_T_LONG:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ: *hash_out = floe__murmur3_long(v->v.i64); return 0;
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        /* Note [3]: nanoseconds hash as their microsecond value. */
        *hash_out = floe__murmur3_long(floe__floordiv(v->v.i64, 1000));
        return 0;
    case FLOE_T_DECIMAL: {
        uint8_t b[16];
        size_t n = decimal_min_bytes(v->v.dec, b);
        *hash_out = floe__murmur3_bytes(b, n);
        return 0;
    }
    case FLOE_T_STRING:
    case FLOE_T_UUID:
    case FLOE_T_FIXED:
    case FLOE_T_BINARY: *hash_out = floe__murmur3_bytes(v->v.bytes.ptr, v->v.bytes.len); return 0;
    default:
        return floe__error(FLOE_EINVALID, "transform", "cannot bucket a value of type id %d",
                           (int)v->type);
    }
}

/* ---------------------------------------------------------------- truncate */

size_t floe_utf8_prefix_len(const uint8_t *s, size_t len, size_t n)
{
    size_t i = 0, cps = 0;
    while (i < len) {
        if ((s[i] & 0xc0) != 0x80) {
            if (cps == n)
                return i;
            cps++;
        }
        i++;
    }
    return len;
}

size_t floe_utf8_count(const uint8_t *s, size_t len)
{
    size_t cps = 0;
    for (size_t i = 0; i < len; i++)
        cps += (s[i] & 0xc0) != 0x80;
    return cps;
}

static int truncate_value(int32_t w, const floe_value *in, floe_value *out)
{
    *out = *in;
    switch (in->type) {
    case FLOE_T_INT: {
        int64_t v = in->v.i32;
        out->v.i32 = (int32_t)(v - floe__floormod(v, w));
        return 0;
    }
    case FLOE_T_LONG: {
        /* Wrap like Java for values within W of INT64_MIN. */
        int64_t r = floe__floormod(in->v.i64, w);
        out->v.i64 = (int64_t)((uint64_t)in->v.i64 - (uint64_t)r);
        return 0;
    }
    case FLOE_T_DECIMAL: {
        /* Note [2]: W applies to the unscaled value (the column's scale). */
        floe_i128 r = in->v.dec % w;
        if (r < 0)
            r += w;
        out->v.dec = in->v.dec - r;
        return 0;
    }
    case FLOE_T_STRING:
        /* Note [3]: L code points, never a split UTF-8 sequence. */
        out->v.bytes.len = floe_utf8_prefix_len(in->v.bytes.ptr, in->v.bytes.len, (size_t)w);
        return 0;
    case FLOE_T_BINARY:
        if (in->v.bytes.len > (size_t)w)
            out->v.bytes.len = (size_t)w;
        return 0;
    default:
        return floe__error(FLOE_EINVALID, "transform", "cannot truncate a value of type id %d",
                           (int)in->type);
    }
}

/* ---------------------------------------------------------------- dates */

/* Days since epoch and microsecond/nanosecond of day of a date/timestamp. */
static int64_t epoch_days(const floe_value *v)
{
    if (v->type == FLOE_T_DATE)
        return v->v.i32;
    int64_t per_day = (is_ns(v->type) ? NS_PER_SEC : US_PER_SEC) * 86400;
    return floe__floordiv(v->v.i64, per_day);
}

static int64_t epoch_hours(const floe_value *v)
{
    int64_t per_hour = (is_ns(v->type) ? NS_PER_SEC : US_PER_SEC) * 3600;
    return floe__floordiv(v->v.i64, per_hour);
}

int floe_transform_apply(const floe_transform *t, const floe_value *in, floe_value *out)
{
    if (t->kind == FLOE_TR_UNKNOWN || t->kind < FLOE_TR_IDENTITY || t->kind > FLOE_TR_UNKNOWN)
        return floe__error(FLOE_EUNSUPPORTED, "transform", "cannot apply unknown transform %s",
                           t->name ? t->name : "?");
    if (!can_apply_id(t, in->type))
        return floe__error(FLOE_EINVALID, "transform",
                           "transform %s cannot be applied to type id %d", t->name ? t->name : "?",
                           (int)in->type);
    floe_type_id rt = in->type;
    switch (t->kind) {
    case FLOE_TR_BUCKET:
    case FLOE_TR_YEAR:
    case FLOE_TR_MONTH:
    case FLOE_TR_HOUR: rt = FLOE_T_INT; break;
    case FLOE_TR_DAY: rt = FLOE_T_DATE; break;
    default: break;
    }
    if (in->is_null || t->kind == FLOE_TR_VOID) {
        *out = floe_value_null(rt);
        out->scale = in->scale;
        return 0;
    }
    switch (t->kind) {
    case FLOE_TR_IDENTITY: *out = *in; return 0;
    case FLOE_TR_BUCKET: {
        int32_t h;
        FLOE_TRY(floe_transform_bucket_hash(in, &h));
        *out = floe_value_int((int32_t)((h & INT32_MAX) % t->param));
        return 0;
    }
    case FLOE_TR_TRUNCATE: return truncate_value(t->param, in, out);
    case FLOE_TR_YEAR:
    case FLOE_TR_MONTH: {
        int64_t y;
        unsigned m, d;
        floe__civil_from_days(epoch_days(in), &y, &m, &d);
        int64_t r = t->kind == FLOE_TR_YEAR ? y - 1970 : (y - 1970) * 12 + (int64_t)m - 1;
        *out = floe_value_int((int32_t)r);
        return 0;
    }
    case FLOE_TR_DAY: *out = floe_value_date((int32_t)epoch_days(in)); return 0;
    case FLOE_TR_HOUR:
        /* Past year 246953 the hour count leaves int32: Java narrows it
         * with (int), so does floe. */
        *out = floe_value_int(floe__wrap_i32(epoch_hours(in)));
        return 0;
    default: break;
    }
    return floe__error(FLOE_EUNSUPPORTED, "transform", "unsupported transform kind %d",
                       (int)t->kind);
}

/* ---------------------------------------------------------------- human strings */

static int put_date(int64_t days, floe_buf *out)
{
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(days, &y, &m, &d);
    return floe__buf_printf(out, "%04" PRId64 "-%02u-%02u", y, m, d);
}

/* java.time.LocalTime.toString: HH:mm, then :ss if seconds or fraction are
 * non-zero, then the fraction in groups of 3 digits. */
static int put_time(int64_t nanos_of_day, floe_buf *out)
{
    int64_t secs = nanos_of_day / NS_PER_SEC, nano = nanos_of_day % NS_PER_SEC;
    FLOE_TRY(floe__buf_printf(out, "%02d:%02d", (int)(secs / 3600), (int)(secs / 60 % 60)));
    if (secs % 60 == 0 && nano == 0)
        return 0;
    FLOE_TRY(floe__buf_printf(out, ":%02d", (int)(secs % 60)));
    if (nano == 0)
        return 0;
    if (nano % 1000000 == 0)
        return floe__buf_printf(out, ".%03d", (int)(nano / 1000000));
    if (nano % 1000 == 0)
        return floe__buf_printf(out, ".%06d", (int)(nano / 1000));
    return floe__buf_printf(out, ".%09d", (int)nano);
}

static int put_timestamp(int64_t v, bool ns, bool tz, floe_buf *out)
{
    int64_t per_day = (ns ? NS_PER_SEC : US_PER_SEC) * 86400;
    int64_t days = floe__floordiv(v, per_day);
    int64_t rem = floe__floormod(v, per_day);
    FLOE_TRY(put_date(days, out));
    FLOE_TRY(floe__buf_putc(out, 'T'));
    FLOE_TRY(put_time(ns ? rem : rem * 1000, out));
    return tz ? floe__buf_putc(out, 'Z') : 0;
}

/* Java's Double.toString / Float.toString: the shortest digits that read
 * back to the same value, plain for 1e-3 <= |x| < 1e7, else d.dddE<exp>. */
int floe__java_float_text(double x, bool single, floe_buf *out)
{
    if (isnan(x))
        return floe__buf_puts(out, "NaN");
    if (isinf(x))
        return floe__buf_puts(out, x > 0 ? "Infinity" : "-Infinity");
    if (x == 0)
        return floe__buf_puts(out, signbit(x) ? "-0.0" : "0.0");
    char s[64];
    int maxp = single ? 9 : 17;
    for (int p = 1; p <= maxp; p++) {
        snprintf(s, sizeof s, "%.*e", p - 1, x);
        if (single ? strtof(s, NULL) == (float)x : strtod(s, NULL) == x)
            break;
    }
    /* s is [-]d[.ddd]e[+-]XX: split into digits and exponent. */
    char digits[32] = {0}; /* [0, nd) set below (cppcheck cannot tell) */
    size_t nd = 0;
    const char *p = s;
    bool neg = *p == '-';
    if (neg)
        p++;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && nd < sizeof digits - 1)
            digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = 0;
    int e = atoi(p + 1);
    if (neg)
        FLOE_TRY(floe__buf_putc(out, '-'));
    if (e >= -3 && e < 7) {
        if (e < 0) {
            FLOE_TRY(floe__buf_puts(out, "0."));
            for (int i = -1; i > e; i--)
                FLOE_TRY(floe__buf_putc(out, '0'));
            return floe__buf_puts(out, digits);
        }
        for (int i = 0; i <= e; i++)
            FLOE_TRY(floe__buf_putc(out, (size_t)i < nd ? digits[i] : '0'));
        FLOE_TRY(floe__buf_putc(out, '.'));
        if ((size_t)e + 1 >= nd)
            return floe__buf_putc(out, '0');
        return floe__buf_puts(out, digits + e + 1);
    }
    FLOE_TRY(floe__buf_putc(out, digits[0]));
    FLOE_TRY(floe__buf_putc(out, '.'));
    FLOE_TRY(floe__buf_puts(out, nd > 1 ? digits + 1 : "0"));
    return floe__buf_printf(out, "E%d", e);
}

static int put_base64(const uint8_t *p, size_t n, floe_buf *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        char q[4] = {tab[(v >> 18) & 63], tab[(v >> 12) & 63], i + 1 < n ? tab[(v >> 6) & 63] : '=',
                     i + 2 < n ? tab[v & 63] : '='};
        FLOE_TRY(floe__buf_put(out, q, 4));
    }
    return 0;
}

/* Identity-style human string of a source value. */
static int put_human_value(const floe_value *v, floe_buf *out)
{
    switch (v->type) {
    case FLOE_T_FLOAT: return floe__java_float_text(v->v.f32, true, out);
    case FLOE_T_DOUBLE: return floe__java_float_text(v->v.f64, false, out);
    case FLOE_T_DATE: return put_date(v->v.i32, out);
    case FLOE_T_TIME:
        /* A time outside one day is not valid; print it raw, never overflow. */
        if (v->v.i64 < 0 || v->v.i64 >= INT64_C(86400000000))
            return floe__buf_printf(out, "%" PRId64, v->v.i64);
        return put_time(v->v.i64 * 1000, out);
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        return put_timestamp(v->v.i64, is_ns(v->type),
                             v->type == FLOE_T_TIMESTAMPTZ || v->type == FLOE_T_TIMESTAMPTZ_NS,
                             out);
    case FLOE_T_FIXED:
    case FLOE_T_BINARY: return put_base64(v->v.bytes.ptr, v->v.bytes.len, out);
    default: return floe_value_format(v, out);
    }
}

int floe_transform_human_string(const floe_transform *t, const floe_value *v, floe_buf *out)
{
    if (v->is_null)
        return floe__buf_puts(out, "null");
    bool i32 = v->type == FLOE_T_INT || v->type == FLOE_T_DATE;
    switch (t->kind) {
    case FLOE_TR_YEAR:
        if (i32)
            return floe__buf_printf(out, "%04" PRId64, (int64_t)v->v.i32 + 1970);
        break;
    case FLOE_TR_MONTH:
        if (i32) {
            int64_t y = 1970 + floe__floordiv(v->v.i32, 12);
            return floe__buf_printf(out, "%04" PRId64 "-%02d", y,
                                    (int)floe__floormod(v->v.i32, 12) + 1);
        }
        break;
    case FLOE_TR_DAY:
        if (i32)
            return put_date(v->v.i32, out);
        break;
    case FLOE_TR_HOUR:
        if (i32) {
            int64_t h = v->v.i32;
            FLOE_TRY(put_date(floe__floordiv(h, 24), out));
            return floe__buf_printf(out, "-%02d", (int)floe__floormod(h, 24));
        }
        break;
    case FLOE_TR_BUCKET: return floe_value_format(v, out);
    default: break;
    }
    return put_human_value(v, out);
}

int floe_url_escape(const char *s, size_t len, floe_buf *out)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '.' || c == '-' || c == '*' || c == '_') {
            FLOE_TRY(floe__buf_putc(out, (char)c));
        } else if (c == ' ') {
            FLOE_TRY(floe__buf_putc(out, '+'));
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            FLOE_TRY(floe__buf_put(out, e, 3));
        }
    }
    return 0;
}

int floe_partition_path(const floe_partition_spec *spec, const floe_partition_value *pv,
                        floe_buf *out)
{
    if (pv->n != spec->nfields)
        return floe__error(FLOE_EINVALID, "transform",
                           "partition tuple has %zu values but spec %d has %zu fields", pv->n,
                           (int)spec->spec_id, spec->nfields);
    floe_buf tmp = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < spec->nfields && rc == 0; i++) {
        const floe_partition_field *f = &spec->fields[i];
        floe__buf_clear(&tmp);
        if (i > 0)
            rc = floe__buf_putc(out, '/');
        if (rc == 0)
            rc = floe_url_escape(f->name, strlen(f->name), out);
        if (rc == 0)
            rc = floe__buf_putc(out, '=');
        if (rc == 0)
            rc = floe_transform_human_string(&f->transform, &pv->values[i], &tmp);
        if (rc == 0)
            rc = floe_url_escape(tmp.ptr ? tmp.ptr : "", tmp.len, out);
    }
    floe__buf_free(&tmp);
    return rc;
}
