/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rows/rowsource: dispatch wrappers of the row-source interface, the static
 * Iceberg types metadata tables use for their columns, the JSON encoding of
 * primitive values inside nested cells, timestamp text, and the "indexed"
 * row source that metadata tables over in-memory arrays are built on.
 */
#include "rows/rowsource.h"

#include "spec/value.h"
#include "util/civil.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int floe__rs_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                  floe_rowcursor **out)
{
    *out = NULL;
    FLOE_TRY(rs->ops->open(rs, cons, ncons, out));
    (*out)->rs = rs;
    return 0;
}

int floe__rs_open_projected(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                            uint64_t used, floe_rowcursor **out)
{
    if (!rs->ext || !rs->ext->open_projected)
        return floe__rs_open(rs, cons, ncons, out);
    *out = NULL;
    FLOE_TRY(rs->ext->open_projected(rs, cons, ncons, used, out));
    (*out)->rs = rs;
    return 0;
}

int floe__rs_count(floe_rowsource *rs, int64_t *out)
{
    *out = 0;
    return rs->ext && rs->ext->count ? rs->ext->count(rs, out) : 1;
}

int floe__rs_next(floe_rowcursor *c)
{
    return c->rs->ops->next(c);
}

int floe__rs_column(floe_rowcursor *c, size_t col, floe_rs_cell *out)
{
    if (col >= c->rs->ncolumns)
        return floe__error(FLOE_EINVALID, "meta", "column %zu out of range", col);
    return c->rs->ops->column(c, col, out);
}

void floe__rs_close(floe_rowcursor *c)
{
    if (c)
        c->rs->ops->close(c);
}

void floe__rs_free(floe_rowsource *rs)
{
    if (rs)
        rs->ops->free(rs);
}

int floe__rs_column_index(const floe_rowsource *rs, const char *name)
{
    for (size_t i = 0; i < rs->ncolumns; i++)
        if (strcmp(rs->columns[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* ---------------------------------------------------------------- static types */

const floe_type floe__rs_t_boolean = {.id = FLOE_T_BOOLEAN};
const floe_type floe__rs_t_int = {.id = FLOE_T_INT};
const floe_type floe__rs_t_long = {.id = FLOE_T_LONG};
const floe_type floe__rs_t_string = {.id = FLOE_T_STRING};
const floe_type floe__rs_t_binary = {.id = FLOE_T_BINARY};
const floe_type floe__rs_t_timestamptz = {.id = FLOE_T_TIMESTAMPTZ};

static const floe_field f_key_str = {
    .id = 1, .name = "key", .required = true, .type = &floe__rs_t_string};
static const floe_field f_val_str = {
    .id = 2, .name = "value", .required = true, .type = &floe__rs_t_string};
static const floe_field f_key_int = {
    .id = 1, .name = "key", .required = true, .type = &floe__rs_t_int};
static const floe_field f_val_long = {
    .id = 2, .name = "value", .required = true, .type = &floe__rs_t_long};
static const floe_field f_val_bin = {
    .id = 2, .name = "value", .required = true, .type = &floe__rs_t_binary};
static const floe_field f_elem_long = {
    .id = 1, .name = "element", .required = true, .type = &floe__rs_t_long};
static const floe_field f_elem_int = {
    .id = 1, .name = "element", .required = true, .type = &floe__rs_t_int};

const floe_type floe__rs_t_map_str_str = {.id = FLOE_T_MAP, .key = &f_key_str, .value = &f_val_str};
const floe_type floe__rs_t_map_int_long = {
    .id = FLOE_T_MAP, .key = &f_key_int, .value = &f_val_long};
const floe_type floe__rs_t_map_int_bin = {.id = FLOE_T_MAP, .key = &f_key_int, .value = &f_val_bin};
const floe_type floe__rs_t_list_long = {.id = FLOE_T_LIST, .element = &f_elem_long};
const floe_type floe__rs_t_list_int = {.id = FLOE_T_LIST, .element = &f_elem_int};

/* ---------------------------------------------------------------- text */

int floe__rs_put_i64(floe_buf *out, int64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    size_t n = (size_t)(tmp + sizeof tmp - p);
    if (out->cap < out->len + n + 1)
        FLOE_TRY(floe__buf_reserve(out, n));
    memcpy(out->ptr + out->len, p, n);
    out->len += n;
    out->ptr[out->len] = 0;
    return 0;
}

static int format_civil(int64_t secs, int64_t frac, int digits, floe_buf *out)
{
    int64_t days = floe__floordiv(secs, 86400), sod = floe__floormod(secs, 86400);
    int64_t y;
    unsigned mo, d;
    floe__civil_from_days(days, &y, &mo, &d);
    return floe__buf_printf(out, "%04" PRId64 "-%02u-%02u %02d:%02d:%02d.%0*" PRId64, y, mo, d,
                            (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60), digits, frac);
}

int floe__rs_format_timestamp_us(int64_t us, const floe_tz *tz, floe_buf *out)
{
    int64_t s = floe__floordiv(us, 1000000), frac = floe__floormod(us, 1000000);
    if (tz)
        s += floe__tz_offset_at(tz, s);
    return format_civil(s, frac, 6, out);
}

int floe__rs_format_timestamp_ns(int64_t ns, const floe_tz *tz, floe_buf *out)
{
    int64_t s = floe__floordiv(ns, 1000000000), frac = floe__floormod(ns, 1000000000);
    if (tz)
        s += floe__tz_offset_at(tz, s);
    return format_civil(s, frac, 9, out);
}

/* Shortest text that reads back as the same value, with a ".0" on
 * integral values as Java prints doubles (2.0, not 2). */
static int json_real(double d, int max_digits, floe_buf *out)
{
    if (isnan(d))
        return floe__buf_puts(out, "\"NaN\"");
    if (isinf(d))
        return floe__buf_puts(out, d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    char s[40];
    for (int digits = 6; digits <= max_digits; digits++) {
        snprintf(s, sizeof s, "%.*g", digits, d);
        if (max_digits == 9 ? (float)strtod(s, NULL) == (float)d : strtod(s, NULL) == d)
            break;
    }
    FLOE_TRY(floe__buf_puts(out, s));
    return strpbrk(s, ".en") ? 0 : floe__buf_puts(out, ".0");
}

int floe__rs_json_value(const floe_value *v, floe_buf *out)
{
    if (v->is_null)
        return floe__buf_puts(out, "null");
    switch (v->type) {
    case FLOE_T_BOOLEAN: return floe__buf_puts(out, v->v.b ? "true" : "false");
    case FLOE_T_INT: return floe__rs_put_i64(out, v->v.i32);
    case FLOE_T_LONG: return floe__rs_put_i64(out, v->v.i64);
    case FLOE_T_FLOAT: return json_real((double)v->v.f32, 9, out);
    case FLOE_T_DOUBLE: return json_real(v->v.f64, 17, out);
    case FLOE_T_DECIMAL: return floe_decimal_format(v->v.dec, v->scale, out);
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe__rs_format_timestamp_us(v->v.i64, NULL, out));
        return floe__buf_putc(out, '"');
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe__rs_format_timestamp_ns(v->v.i64, NULL, out));
        return floe__buf_putc(out, '"');
    case FLOE_T_STRING:
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe__buf_put_json_escaped(out, (const char *)v->v.bytes.ptr, v->v.bytes.len));
        return floe__buf_putc(out, '"');
    default:
        /* date, time, uuid, fixed, binary: their text form is JSON-safe */
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe_value_format(v, out));
        return floe__buf_putc(out, '"');
    }
}

/* ---------------------------------------------------------------- indexed sources */

typedef struct indexed {
    const floe_rs_indexed_ops *ops;
    void *state;
} indexed;

typedef struct indexed_cursor {
    floe_rowcursor base;
    indexed *ix;
    size_t row, count;
    bool started;
    floe_arena *scratch;
} indexed_cursor;

static int ix_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                   floe_rowcursor **out)
{
    FLOE_UNUSED(cons);
    FLOE_UNUSED(ncons);
    indexed_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    c->scratch = floe__arena_new(0);
    if (!c->scratch) {
        floe__free(c);
        return floe__error_nomem();
    }
    c->ix = rs->impl;
    c->count = c->ix->ops->count(c->ix->state);
    *out = &c->base;
    return 0;
}

static int ix_next(floe_rowcursor *base)
{
    indexed_cursor *c = (indexed_cursor *)base;
    if (c->started)
        c->row++;
    c->started = true;
    floe__arena_reset(c->scratch);
    return c->row < c->count ? 0 : FLOE_ITEROVER;
}

static int ix_column(floe_rowcursor *base, size_t col, floe_rs_cell *out)
{
    indexed_cursor *c = (indexed_cursor *)base;
    if (!c->started || c->row >= c->count)
        return floe__error(FLOE_EINVALID, "meta", "no current row");
    return c->ix->ops->cell(c->ix->state, c->row, col, c->scratch, out);
}

static void ix_close(floe_rowcursor *base)
{
    indexed_cursor *c = (indexed_cursor *)base;
    floe__arena_free(c->scratch);
    floe__free(c);
}

static void ix_free(floe_rowsource *rs)
{
    indexed *ix = rs->impl;
    if (ix->ops->free_state)
        ix->ops->free_state(ix->state);
    floe__free(ix);
    floe__free(rs);
}

static const floe_rowsource_ops indexed_ops = {ix_open, ix_next, ix_column, ix_close, ix_free};

int floe__rs_indexed_new(floe_rowsource **out, const char *name, const floe_rs_column *columns,
                         size_t ncolumns, const floe_rs_indexed_ops *ops, void *state)
{
    *out = NULL;
    floe_rowsource *rs = floe__calloc(1, sizeof *rs);
    indexed *ix = floe__calloc(1, sizeof *ix);
    if (!rs || !ix) {
        floe__free(rs);
        floe__free(ix);
        if (ops->free_state)
            ops->free_state(state);
        return floe__error_nomem();
    }
    ix->ops = ops;
    ix->state = state;
    rs->ops = &indexed_ops;
    rs->name = name;
    rs->columns = columns;
    rs->ncolumns = ncolumns;
    rs->impl = ix;
    rs->estimated_rows = (double)ops->count(state);
    rs->estimated_cost = rs->estimated_rows;
    *out = rs;
    return 0;
}
