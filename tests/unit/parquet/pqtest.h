/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared helpers for the parquet tests: a 15-column schema covering every
 * primitive Iceberg type, deterministic row values, an Arrow batch builder
 * for them, a memory sink, and value formatting for comparisons.
 */
#ifndef FLOE_TEST_PQTEST_H
#define FLOE_TEST_PQTEST_H

#include "harness.h"
#include "parquet/parquet.h"
#include "spec/value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const floe_type pt_long = {.id = FLOE_T_LONG};
static const floe_type pt_int = {.id = FLOE_T_INT};
static const floe_type pt_string = {.id = FLOE_T_STRING};
static const floe_type pt_dec = {.id = FLOE_T_DECIMAL, .precision = 10, .scale = 2};
static const floe_type pt_dec4 = {.id = FLOE_T_DECIMAL, .precision = 4, .scale = 1};
static const floe_type pt_bigdec = {.id = FLOE_T_DECIMAL, .precision = 25, .scale = 3};
static const floe_type pt_date = {.id = FLOE_T_DATE};
static const floe_type pt_tstz = {.id = FLOE_T_TIMESTAMPTZ};
static const floe_type pt_ts = {.id = FLOE_T_TIMESTAMP};
static const floe_type pt_bool = {.id = FLOE_T_BOOLEAN};
static const floe_type pt_double = {.id = FLOE_T_DOUBLE};
static const floe_type pt_float = {.id = FLOE_T_FLOAT};
static const floe_type pt_uuid = {.id = FLOE_T_UUID};
static const floe_type pt_time = {.id = FLOE_T_TIME};
static const floe_type pt_binary = {.id = FLOE_T_BINARY};
static const floe_type pt_fixed = {.id = FLOE_T_FIXED, .length = 3};

#define PT_NCOLS 16
static const floe_field pt_fields[PT_NCOLS] = {
    {1, "id", true, &pt_long, NULL, NULL, NULL},
    {2, "name", false, &pt_string, NULL, NULL, NULL},
    {3, "price", false, &pt_dec, NULL, NULL, NULL},
    {4, "day", false, &pt_date, NULL, NULL, NULL},
    {5, "ts", false, &pt_tstz, NULL, NULL, NULL},
    {6, "flag", false, &pt_bool, NULL, NULL, NULL},
    {7, "score", false, &pt_double, NULL, NULL, NULL},
    {8, "u", false, &pt_uuid, NULL, NULL, NULL},
    {9, "small", true, &pt_int, NULL, NULL, NULL},
    {10, "big", false, &pt_bigdec, NULL, NULL, NULL},
    {11, "fl", false, &pt_float, NULL, NULL, NULL},
    {12, "t", false, &pt_time, NULL, NULL, NULL},
    {13, "bin", false, &pt_binary, NULL, NULL, NULL},
    {14, "fx", false, &pt_fixed, NULL, NULL, NULL},
    {15, "tsl", false, &pt_ts, NULL, NULL, NULL},
    {16, "d4", false, &pt_dec4, NULL, NULL, NULL},
};
static const floe_type pt_root = {.id = FLOE_T_STRUCT, .nfields = PT_NCOLS, .fields = pt_fields};
static const floe_schema pt_schema = {0, &pt_root, 0, NULL, 16, NULL, NULL};

static const char *const pt_names[] = {"Flopsy 🐇", "Mopsy–Naïve", "Cottontail", "Thumper", "",
                                       "a longer string value that exceeds sixteen characters"};

/* Row i, column c -> value (null pattern depends on c). */
__attribute__((unused)) static floe_value pt_value(int64_t i, int c, uint8_t scratch[32])
{
    if (c != 0 && c != 8 && (i + c) % 7 == 0)
        return floe_value_null(pt_fields[c].type->id);
    switch (c) {
    case 0: return floe_value_long(i * 1000003LL - 5000);
    case 1: {
        const char *s = pt_names[i % 6];
        return floe_value_bytes(FLOE_T_STRING, s, strlen(s));
    }
    case 2: return floe_value_decimal((floe_i128)(i * 137 - 9999), 2);
    case 3: return floe_value_date((int32_t)(i % 3000) - 1000);
    case 4: return floe_value_i64(FLOE_T_TIMESTAMPTZ, 1700000000000000LL + i * 1234567LL);
    case 5: return floe_value_bool(i % 3 == 0);
    case 6: return floe_value_double(i * 0.25 - 3.5);
    case 7:
        for (int k = 0; k < 16; k++)
            scratch[k] = (uint8_t)(i * 31 + k * 7);
        return floe_value_bytes(FLOE_T_UUID, scratch, 16);
    case 8: return floe_value_int((int32_t)(i % 100) - 50);
    case 9: {
        floe_i128 v = (floe_i128)i * 1000000000000LL * 1000 + 123;
        return floe_value_decimal(i % 2 ? -v : v, 3);
    }
    case 10: return floe_value_float((float)i / 8.0f);
    case 11: return floe_value_i64(FLOE_T_TIME, (i % 86400) * 1000000LL + 5);
    case 12:
        for (int k = 0; k < (int)(i % 5); k++)
            scratch[k] = (uint8_t)(0xf0 + k + i);
        return floe_value_bytes(FLOE_T_BINARY, scratch, (size_t)(i % 5));
    case 13:
        scratch[0] = (uint8_t)i, scratch[1] = (uint8_t)(i >> 8), scratch[2] = 0xff;
        return floe_value_bytes(FLOE_T_FIXED, scratch, 3);
    case 14: return floe_value_i64(FLOE_T_TIMESTAMP, -86400000000LL + i * 1000LL);
    default: return floe_value_decimal((floe_i128)(i % 1999) - 999, 1);
    }
}

/* A batch of rows [from, from + n). */
__attribute__((unused)) static int pt_batch(int64_t from, int64_t n, struct ArrowArray *out)
{
    floe_arrow_builder *b;
    int rc = floe__arrow_builder_new(&b, &pt_root);
    if (rc < 0)
        return rc;
    for (int64_t i = from; i < from + n && rc == 0; i++) {
        for (int c = 0; c < PT_NCOLS && rc == 0; c++) {
            uint8_t scratch[32];
            floe_value v = pt_value(i, c, scratch);
            rc = floe__arrow_builder_append(b->children[c], &v);
        }
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

/* Value of an Arrow array slot (primitive), for comparisons. */
__attribute__((unused)) static floe_value pt_arrow_value(const struct ArrowArray *a, const floe_type *t, int64_t i)
{
    floe_value v;
    memset(&v, 0, sizeof(v));
    v.type = t->id;
    if (!floe__arrow_is_valid(a, i)) {
        v.is_null = true;
        return v;
    }
    int64_t j = i + a->offset;
    const uint8_t *vals = a->buffers[1];
    switch (t->id) {
    case FLOE_T_BOOLEAN: v.v.b = floe__arrow_bit_get(vals, j); break;
    case FLOE_T_INT:
    case FLOE_T_DATE: memcpy(&v.v.i32, vals + j * 4, 4); break;
    case FLOE_T_FLOAT: memcpy(&v.v.f32, vals + j * 4, 4); break;
    case FLOE_T_DOUBLE: memcpy(&v.v.f64, vals + j * 8, 8); break;
    case FLOE_T_DECIMAL:
        memcpy(&v.v.dec, vals + j * 16, 16);
        v.scale = t->scale;
        break;
    case FLOE_T_UUID: v.v.bytes.ptr = vals + j * 16; v.v.bytes.len = 16; break;
    case FLOE_T_FIXED:
        v.v.bytes.ptr = vals + j * t->length;
        v.v.bytes.len = (size_t)t->length;
        break;
    case FLOE_T_STRING:
    case FLOE_T_BINARY: {
        const int32_t *o = a->buffers[1];
        v.v.bytes.ptr = (const uint8_t *)a->buffers[2] + o[j];
        v.v.bytes.len = (size_t)(o[j + 1] - o[j]);
        break;
    }
    default: memcpy(&v.v.i64, vals + j * 8, 8); break;
    }
    return v;
}

/* Text of a value (static ring). */
__attribute__((unused)) static const char *pt_fmt(const floe_value *v)
{
    static char ring[8][512];
    static int k;
    char *o = ring[k++ & 7];
    floe_buf b = FLOE_BUF_INIT;
    if (floe_value_format(v, &b) < 0)
        snprintf(o, 512, "<format error>");
    else
        snprintf(o, 512, "%s", b.ptr ? b.ptr : "");
    floe__buf_free(&b);
    return o;
}

/* Sink into a floe_buf. */
__attribute__((unused)) static int pt_sink(const void *data, size_t len, void *payload)
{
    return floe__buf_put(payload, data, len);
}

#endif
