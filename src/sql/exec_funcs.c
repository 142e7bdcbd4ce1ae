/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_funcs: SQL functions the session registers on its SQLite
 * connection.
 *
 * sum(x): SQLite's sum over REAL values rounds at every step, so the sum of
 * a DECIMAL(10,2) column (exposed to SQLite as doubles that read back as
 * their exact decimal text) would print 499950000.00000006 where Spark
 * prints 499950000.00. This sum keeps an exact 128-bit decimal
 * accumulator: each REAL is taken at its shortest exact decimal text (at
 * most 15 significant digits and 9 fraction digits, which every decimal
 * of precision <= 15 satisfies), each INTEGER as is. The result is the
 * correctly rounded double of the exact sum, tagged with a subtype that
 * carries its scale so the output shows it with that many fraction digits
 * (decimal display). A value without such a representation (a computed
 * double like 0.1 + 0.2), or an accumulator past 10^72, falls back to
 * SQLite's behaviour (Kahan-compensated double sum). Wide decimal cells
 * (exact text with the column's scale as subtype, vtab.c) are added from
 * their text and the sum is their exact text at that scale (NULL beyond 38
 * digits, as Spark's decimal overflow without ANSI mode). All-INTEGER input
 * gives an INTEGER result ("integer overflow" beyond 64 bits, as SQLite).
 * It is a window function too: a row leaving the frame is subtracted (every
 * path negates exactly), and a frame without non-NULL values is NULL.
 */
#include "sql/exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;

typedef floe_sql_dsum dsum;

static const i128 LIMIT = (i128)1000000000000000000 * (i128)1000000000000000000; /* 1e36 */

static void kahan(dsum *s, double x)
{
    double t = s->d + x;
    if (fabs(s->d) >= fabs(x))
        s->c += (s->d - t) + x;
    else
        s->c += (x - t) + s->d;
    s->d = t;
}

/* x as an exact decimal: the smallest scale s <= 9 such that r / 10^s
 * reads back as x for an integer r below 2^53 (so r * 10^-s is the shortest
 * decimal that rounds to x); false when there is none. No text formatting:
 * this runs once per row. */
static bool exact_decimal(double x, i128 *out, int *scale)
{
    static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    if (!isfinite(x))
        return false;
    for (int sc = 0; sc < 10; sc++) {
        double r = nearbyint(x * p10[sc]);
        if (fabs(r) >= 9007199254740992.0)
            return false;
        if (r / p10[sc] == x) {
            *out = (i128)(int64_t)r;
            *scale = sc;
            return true;
        }
    }
    return false;
}

static i128 acc_get(const dsum *s)
{
    i128 v;
    memcpy(&v, s->acc_bytes, sizeof v);
    return v;
}

static void acc_set(dsum *s, i128 v) { memcpy(s->acc_bytes, &v, sizeof v); }

static i128 hi_get(const dsum *s)
{
    i128 v;
    memcpy(&v, s->hi_bytes, sizeof v);
    return v;
}

/* Keep |acc| <= 10^36: what is beyond moves to hi (units of 10^36), so the
 * sum stays exact up to 10^72 (then inexact: doubles). */
static void spill(dsum *s, i128 acc)
{
    if (acc <= LIMIT && acc >= -LIMIT) {
        acc_set(s, acc);
        return;
    }
    i128 hi = hi_get(s) + acc / LIMIT;
    acc %= LIMIT;
    acc_set(s, acc);
    memcpy(s->hi_bytes, &hi, sizeof hi);
    if (hi > LIMIT || hi < -LIMIT)
        s->inexact = true;
}

static bool rescale(dsum *s, int scale)
{
    while (s->scale < scale) {
        i128 hi = hi_get(s);
        if (hi > LIMIT / 10 || hi < -LIMIT / 10)
            return false;
        hi *= 10;
        memcpy(s->hi_bytes, &hi, sizeof hi);
        spill(s, acc_get(s) * 10);
        s->scale++;
    }
    return true;
}

/* Add v * 10^-sc to the exact accumulator (inexact from then on when the
 * scale or the magnitude no longer fits). |v| < 10^38. */
static void add_scaled(floe_sql_dsum *s, i128 v, int sc)
{
    if (!rescale(s, sc)) {
        s->inexact = true;
        return;
    }
    for (int k = sc; k < s->scale; k++) {
        if (v > LIMIT * 10 || v < -LIMIT * 10) {
            s->inexact = true;
            return;
        }
        v *= 10;
    }
    spill(s, acc_get(s) + v);
}

void floe__sql_dsum_step(floe_sql_dsum *s, int t, int64_t iv, double x)
{
    s->any = true;
    kahan(s, x);
    if (s->inexact)
        return;
    i128 v;
    int sc;
    if (t == SQLITE_FLOAT && s->real && s->scale <= 9) {
        /* fast path: x at the accumulator's scale. Below 2^51 two decimals
         * of that scale are more than two ulps apart, so an r that reads
         * back as x is the one decimal of that scale rounding to x: the
         * shortest decimal scaled up (what exact_decimal would give). */
        static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
        double r = nearbyint(x * p10[s->scale]);
        if (fabs(r) < 2251799813685248.0 && r / p10[s->scale] == x) {
            spill(s, acc_get(s) + (i128)(int64_t)r);
            return;
        }
    }
    if (t == SQLITE_INTEGER) {
        v = iv;
        sc = 0;
    } else if (t == SQLITE_FLOAT && exact_decimal(x, &v, &sc)) {
        s->real = true;
    } else {
        /* text that is not a number counts as 0 in SQLite's sum; a double
         * without a short decimal form: fall back */
        s->real = true;
        if (t != SQLITE_FLOAT)
            return;
        s->inexact = true;
        return;
    }
    add_scaled(s, v, sc);
}

static bool dsum_text(floe_sql_dsum *s, const char *text, size_t n, int scale, int sign);

/* sum()'s state: the exact sum and its count of non-NULL values (a window
 * frame that all its values left is NULL again). */
typedef struct sum_ctx {
    dsum s;
    int64_t n;
} sum_ctx;

/* Add argv[0] (sign 1) or take it away again (sign -1: a window frame's
 * row leaving, xInverse). Negating a value is exact in every path below. */
static void sum_add(sqlite3_context *ctx, sqlite3_value *v, int sign)
{
    sum_ctx *c = sqlite3_aggregate_context(ctx, sizeof *c);
    if (!c)
        return;
    dsum *s = &c->s;
    unsigned st = sqlite3_value_subtype(v);
    if (sqlite3_value_type(v) == SQLITE_NULL)
        return;
    c->n += sign;
    if (sqlite3_value_type(v) == SQLITE_TEXT && st >= FLOE_SQL_SUBTYPE_SCALE &&
        st <= FLOE_SQL_SUBTYPE_SCALE + 38 &&
        dsum_text(s, (const char *)sqlite3_value_text(v), (size_t)sqlite3_value_bytes(v),
                  (int)(st - FLOE_SQL_SUBTYPE_SCALE), sign))
        return; /* a wide decimal cell: its exact text (before it becomes a double) */
    int t = sqlite3_value_numeric_type(v);
    if (t == SQLITE_FLOAT && st >= FLOE_SQL_SUBTYPE_SCALE && st <= FLOE_SQL_SUBTYPE_SCALE + 18)
        floe__sql_dsum_add_exact(s, 0, (int)(st - FLOE_SQL_SUBTYPE_SCALE), true); /* the column's scale */
    if (sign < 0 && t == SQLITE_INTEGER) {
        /* -INT64_MIN does not fit an int64: the exact part takes the i128 */
        sqlite3_int64 iv = sqlite3_value_int64(v);
        kahan(s, -(double)iv);
        floe__sql_dsum_add_exact(s, -(i128)iv, 0, false);
        return;
    }
    floe__sql_dsum_step(s, t, t == SQLITE_INTEGER ? sqlite3_value_int64(v) : 0,
                        sign * sqlite3_value_double(v));
}

static void sum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    sum_add(ctx, argv[0], 1);
}

static void sum_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    sum_add(ctx, argv[0], -1);
}

void floe__sql_dsum_add_exact(floe_sql_dsum *s, floe_i128 v, int sc, bool real)
{
    s->any = true;
    if (real)
        s->real = true;
    if (!s->inexact)
        add_scaled(s, v, sc);
}

static bool dsum_text(floe_sql_dsum *s, const char *text, size_t n, int scale, int sign)
{
    size_t i = 0;
    bool neg = sign < 0, dot = false;
    int digits = 0, sc = 0;
    i128 v = 0;
    if (!text)
        return false;
    if (i < n && text[i] == '-') {
        neg = !neg;
        i++;
    }
    for (; i < n; i++) {
        if (text[i] == '.' && !dot) {
            dot = true;
            continue;
        }
        if (text[i] < '0' || text[i] > '9' || ++digits > 38)
            return false;
        v = v * 10 + (text[i] - '0');
        sc += dot;
    }
    if (digits == 0)
        return false;
    s->wide = true;
    kahan(s, sign * strtod(text, NULL));
    floe__sql_dsum_add_exact(s, 0, scale, true); /* the column's scale */
    floe__sql_dsum_add_exact(s, neg ? -v : v, sc, true);
    return true;
}

bool floe__sql_dsum_add_text(floe_sql_dsum *s, const char *text, size_t n, int scale)
{
    return dsum_text(s, text, n, scale, 1);
}

/* The exact sum's decimal text at its scale; its count of digits. */
static int digits_text(const dsum *s, char buf[96])
{
    i128 hi = hi_get(s), acc = acc_get(s);
    if (hi > 0 && acc < 0) {
        hi -= 1;
        acc += LIMIT;
    } else if (hi < 0 && acc > 0) {
        hi += 1;
        acc -= LIMIT;
    }
    bool neg = hi < 0 || (hi == 0 && acc < 0);
    char digits[96];
    int n = 0;
    i128 a = acc < 0 ? -acc : acc, h = hi < 0 ? -hi : hi;
    do { /* reversed: acc's 36 digits (when hi), then hi's */
        digits[n++] = (char)('0' + (int)(a % 10));
        a /= 10;
    } while (h != 0 ? n < 36 : a > 0);
    while (h > 0) {
        digits[n++] = (char)('0' + (int)(h % 10));
        h /= 10;
    }
    while (n <= s->scale)
        digits[n++] = '0';
    int k = 0;
    if (neg)
        buf[k++] = '-';
    for (int j = n - 1; j >= 0; j--) {
        buf[k++] = digits[j];
        if (j == s->scale && s->scale > 0)
            buf[k++] = '.';
    }
    buf[k] = '\0';
    int sig = n; /* digits of the unscaled value, without leading zeros */
    while (sig > 1 && digits[sig - 1] == '0')
        sig--;
    return sig;
}

bool floe__sql_dsum_text(const floe_sql_dsum *s, char buf[64])
{
    char t[96];
    if (digits_text(s, t) > 38)
        return false;
    memcpy(buf, t, strlen(t) + 1);
    return true;
}

int floe__sql_dsum_result(const floe_sql_dsum *s, int64_t *i, double *d, int *scale)
{
    if (!s || !s->any)
        return FLOE_SQL_DSUM_NULL;
    if (s->inexact) {
        *d = s->d + s->c;
        return FLOE_SQL_DSUM_REAL;
    }
    i128 acc = acc_get(s);
    if (!s->real) {
        if (hi_get(s) != 0 || acc > INT64_MAX || acc < INT64_MIN)
            return FLOE_SQL_DSUM_OVERFLOW;
        *i = (int64_t)acc;
        return FLOE_SQL_DSUM_INT;
    }
    *scale = s->scale;
    if (s->wide)
        return FLOE_SQL_DSUM_TEXT;
    /* the exact decimal text, then its correctly rounded double */
    char buf[96];
    digits_text(s, buf);
    *d = strtod(buf, NULL);
    return FLOE_SQL_DSUM_DECIMAL;
}

static void sum_value(sqlite3_context *ctx)
{
    sum_ctx *c = sqlite3_aggregate_context(ctx, 0);
    dsum *s = c && c->n > 0 ? &c->s : NULL;
    int64_t i = 0;
    double d = 0;
    int scale = 0;
    switch (floe__sql_dsum_result(s, &i, &d, &scale)) {
    case FLOE_SQL_DSUM_NULL: sqlite3_result_null(ctx); return;
    case FLOE_SQL_DSUM_REAL: sqlite3_result_double(ctx, d); return;
    case FLOE_SQL_DSUM_OVERFLOW: sqlite3_result_error(ctx, "integer overflow", -1); return;
    case FLOE_SQL_DSUM_INT: sqlite3_result_int64(ctx, (sqlite3_int64)i); return;
    case FLOE_SQL_DSUM_TEXT: {
        /* Spark: sum(decimal(p, s)) is decimal(min(38, p + 10), s), NULL
         * when the sum does not fit 38 digits */
        char buf[64];
        if (!floe__sql_dsum_text(s, buf)) {
            sqlite3_result_null(ctx);
            return;
        }
        sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
        sqlite3_result_subtype(ctx, (unsigned)(FLOE_SQL_SUBTYPE_SCALE + scale));
        return;
    }
    default:
        sqlite3_result_double(ctx, d);
        sqlite3_result_subtype(ctx, (unsigned)(FLOE_SQL_SUBTYPE_SCALE + scale));
        return;
    }
}

int floe__sql_register_functions(floe_sql_session *s)
{
    if (sqlite3_create_window_function(
            s->db, "sum", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_SUBTYPE, NULL, sum_step,
            sum_value, sum_value, sum_inverse, NULL) != SQLITE_OK)
        return floe__error(FLOE_ENOMEM, "sql", "cannot register sum(): %s", sqlite3_errmsg(s->db));
    FLOE_TRY(floe__sql_register_decimal(s->db));
    FLOE_TRY(floe__sql_register_scalar_functions(s));
    FLOE_TRY(floe__sql_register_array_functions(s));
    FLOE_TRY(floe__sql_register_aggregate_functions(s));
    FLOE_TRY(floe__sql_register_datetime_functions(s));
    FLOE_TRY(floe__sql_register_format_functions(s));
    FLOE_TRY(floe__sql_register_explode(s->db));
    return floe__sql_register_spark_functions(s);
}
