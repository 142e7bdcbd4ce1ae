/* SPDX-License-Identifier: Apache-2.0 */
/* A schema and row helpers shared by the expr tests (built directly from
 * spec/types.h structs, independent of the JSON parser). */
#ifndef FLOE_TEST_EXPR_FIXTURE_H
#define FLOE_TEST_EXPR_FIXTURE_H

#include "expr/expr.h"
#include "harness.h"
#include "spec/transform.h"
#include "spec/value.h"
#include "util/civil.h"

#include <math.h>
#include <stdio.h>

static const floe_type fx_long = {.id = FLOE_T_LONG};
static const floe_type fx_int = {.id = FLOE_T_INT};
static const floe_type fx_string = {.id = FLOE_T_STRING};
static const floe_type fx_tstz = {.id = FLOE_T_TIMESTAMPTZ};
static const floe_type fx_ts = {.id = FLOE_T_TIMESTAMP};
static const floe_type fx_date = {.id = FLOE_T_DATE};
static const floe_type fx_dec = {.id = FLOE_T_DECIMAL, .precision = 10, .scale = 2};
static const floe_type fx_double = {.id = FLOE_T_DOUBLE};
static const floe_type fx_float = {.id = FLOE_T_FLOAT};
static const floe_type fx_binary = {.id = FLOE_T_BINARY};
static const floe_type fx_uuid = {.id = FLOE_T_UUID};
static const floe_type fx_time = {.id = FLOE_T_TIME};
static const floe_type fx_fixed = {.id = FLOE_T_FIXED, .length = 4};
static const floe_type fx_bool = {.id = FLOE_T_BOOLEAN};
static const floe_type fx_tsns = {.id = FLOE_T_TIMESTAMP_NS};

static const floe_field fx_loc_fields[] = {
    {12, "city", false, &fx_string, NULL, NULL, NULL},
    {13, "zip", false, &fx_int, NULL, NULL, NULL},
};
static const floe_type fx_loc = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = fx_loc_fields};
static const floe_field fx_elem = {15, "element", false, &fx_string, NULL, NULL, NULL};
static const floe_type fx_list = {.id = FLOE_T_LIST, .element = &fx_elem};

static const floe_field fx_fields[] = {
    {1, "id", true, &fx_long, NULL, NULL, NULL},
    {2, "name", false, &fx_string, NULL, NULL, NULL},
    {3, "ts", false, &fx_tstz, NULL, NULL, NULL},
    {4, "d", false, &fx_date, NULL, NULL, NULL},
    {5, "price", false, &fx_dec, NULL, NULL, NULL},
    {6, "score", false, &fx_double, NULL, NULL, NULL},
    {7, "f", false, &fx_float, NULL, NULL, NULL},
    {8, "i", false, &fx_int, NULL, NULL, NULL},
    {9, "b", false, &fx_binary, NULL, NULL, NULL},
    {10, "u", false, &fx_uuid, NULL, NULL, NULL},
    {11, "loc", false, &fx_loc, NULL, NULL, NULL},
    {14, "tags", false, &fx_list, NULL, NULL, NULL},
    {16, "t", false, &fx_time, NULL, NULL, NULL},
    {17, "fx", false, &fx_fixed, NULL, NULL, NULL},
    {18, "flag", false, &fx_bool, NULL, NULL, NULL},
    {19, "a.b", false, &fx_int, NULL, NULL, NULL},
    {20, "lts", false, &fx_ts, NULL, NULL, NULL},
    {21, "nts", false, &fx_tsns, NULL, NULL, NULL},
};
static const floe_type fx_root = {
    .id = FLOE_T_STRUCT, .nfields = sizeof fx_fields / sizeof fx_fields[0], .fields = fx_fields};
static const floe_schema fx_schema = {.schema_id = 0, .root = &fx_root, .highest_field_id = 21};

/* A row: values indexed by field id (0..31), missing = null. */
typedef struct fx_row {
    floe_value v[32];
    bool set[32];
} fx_row;

static inline int fx_get(int32_t id, floe_value *out, void *payload)
{
    const fx_row *r = payload;
    if (id >= 0 && id < 32 && r->set[id])
        *out = r->v[id];
    else
        out->is_null = true;
    return 0;
}

static inline void fx_set(fx_row *r, int32_t id, floe_value v)
{
    r->v[id] = v;
    r->set[id] = true;
}

static inline floe_value S(const char *s)
{
    return floe_value_bytes(FLOE_T_STRING, s, strlen(s));
}

static inline int32_t fx_days(int y, unsigned m, unsigned d)
{
    return (int32_t)floe__days_from_civil(y, m, d);
}

static inline int64_t fx_micros(int y, unsigned m, unsigned d, int hh, int mm, int ss)
{
    return ((int64_t)fx_days(y, m, d) * 86400 + hh * 3600 + mm * 60 + ss) * 1000000;
}

/* xorshift64: the random generator of the property tests (seed by
 * assigning fx_rng_state). */
static uint64_t fx_rng_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t fx_rnd(void)
{
    fx_rng_state ^= fx_rng_state << 13;
    fx_rng_state ^= fx_rng_state >> 7;
    fx_rng_state ^= fx_rng_state << 17;
    return fx_rng_state;
}

static inline int64_t fx_rnd_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(fx_rnd() % (uint64_t)(hi - lo + 1));
}

/* A random AND / OR / NOT tree of up to `depth` levels over pred(a). */
static inline const floe_expr *fx_rnd_expr(floe_arena *a, int depth,
                                           const floe_expr *(*pred)(floe_arena *a))
{
    if (depth == 0 || fx_rnd() % 3 == 0)
        return pred(a);
    switch (fx_rnd() % 3) {
    case 0:
        return floe_expr_and(a, fx_rnd_expr(a, depth - 1, pred), fx_rnd_expr(a, depth - 1, pred));
    case 1:
        return floe_expr_or(a, fx_rnd_expr(a, depth - 1, pred), fx_rnd_expr(a, depth - 1, pred));
    default: return floe_expr_not(a, fx_rnd_expr(a, depth - 1, pred));
    }
}

/* Format an expression into a static buffer ring (for FT_EQ_STR). */
static inline const char *fx_fmt(const floe_expr *e)
{
    static char ring[8][512];
    static int k;
    char *out = ring[k++ & 7];
    floe_buf b = FLOE_BUF_INIT;
    if (!e)
        snprintf(out, 512, "(null: %s)", ft_floe_err());
    else if (floe_expr_format(e, &b) < 0)
        snprintf(out, 512, "(format error)");
    else
        snprintf(out, 512, "%s", b.ptr ? b.ptr : "");
    floe__buf_free(&b);
    return out;
}

#endif
