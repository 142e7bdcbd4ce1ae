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
 * double like 0.1 + 0.2), or an accumulator past 10^36, falls back to
 * SQLite's behaviour (Kahan-compensated double sum). All-INTEGER input
 * gives an INTEGER result ("integer overflow" beyond 64 bits, as SQLite).
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

static bool rescale(dsum *s, int scale)
{
    i128 acc = acc_get(s);
    while (s->scale < scale) {
        if (acc > LIMIT / 10 || acc < -LIMIT / 10)
            return false;
        acc *= 10;
        s->scale++;
    }
    acc_set(s, acc);
    return true;
}

/* Add v * 10^-sc to the exact accumulator (inexact from then on when the
 * scale or the magnitude no longer fits). */
static void add_scaled(floe_sql_dsum *s, i128 v, int sc)
{
    if (!rescale(s, sc)) {
        s->inexact = true;
        return;
    }
    for (int k = sc; k < s->scale; k++)
        v *= 10;
    i128 acc = acc_get(s) + v;
    acc_set(s, acc);
    if (acc > LIMIT || acc < -LIMIT)
        s->inexact = true;
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
            i128 acc = acc_get(s) + (i128)(int64_t)r;
            acc_set(s, acc);
            if (acc > LIMIT || acc < -LIMIT)
                s->inexact = true;
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

static void sum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    dsum *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s)
        return;
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t == SQLITE_NULL)
        return;
    unsigned st = sqlite3_value_subtype(argv[0]);
    if (t == SQLITE_FLOAT && st >= FLOE_SQL_SUBTYPE_SCALE && st <= FLOE_SQL_SUBTYPE_SCALE + 18)
        floe__sql_dsum_add_exact(s, 0, (int)(st - FLOE_SQL_SUBTYPE_SCALE), true); /* the column's scale */
    floe__sql_dsum_step(s, t, t == SQLITE_INTEGER ? sqlite3_value_int64(argv[0]) : 0,
                        sqlite3_value_double(argv[0]));
}

void floe__sql_dsum_add_exact(floe_sql_dsum *s, floe_i128 v, int sc, bool real)
{
    s->any = true;
    if (real)
        s->real = true;
    if (!s->inexact)
        add_scaled(s, v, sc);
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
        if (acc > INT64_MAX || acc < INT64_MIN)
            return FLOE_SQL_DSUM_OVERFLOW;
        *i = (int64_t)acc;
        return FLOE_SQL_DSUM_INT;
    }
    /* the exact decimal text, then its correctly rounded double */
    char buf[64];
    i128 a = acc < 0 ? -acc : acc;
    char digits[48];
    int n = 0;
    do {
        digits[n++] = (char)('0' + (int)(a % 10));
        a /= 10;
    } while (a > 0 || n <= s->scale);
    int k = 0;
    if (acc < 0)
        buf[k++] = '-';
    for (int j = n - 1; j >= 0; j--) {
        buf[k++] = digits[j];
        if (j == s->scale && s->scale > 0)
            buf[k++] = '.';
    }
    buf[k] = '\0';
    *d = strtod(buf, NULL);
    *scale = s->scale;
    return FLOE_SQL_DSUM_DECIMAL;
}

static void sum_final(sqlite3_context *ctx)
{
    dsum *s = sqlite3_aggregate_context(ctx, 0);
    int64_t i = 0;
    double d = 0;
    int scale = 0;
    switch (floe__sql_dsum_result(s, &i, &d, &scale)) {
    case FLOE_SQL_DSUM_NULL: sqlite3_result_null(ctx); return;
    case FLOE_SQL_DSUM_REAL: sqlite3_result_double(ctx, d); return;
    case FLOE_SQL_DSUM_OVERFLOW: sqlite3_result_error(ctx, "integer overflow", -1); return;
    case FLOE_SQL_DSUM_INT: sqlite3_result_int64(ctx, (sqlite3_int64)i); return;
    default:
        sqlite3_result_double(ctx, d);
        sqlite3_result_subtype(ctx, (unsigned)(FLOE_SQL_SUBTYPE_SCALE + scale));
        return;
    }
}

int floe__sql_register_functions(floe_sql_session *s)
{
    if (sqlite3_create_function(s->db, "sum", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_SUBTYPE,
                                NULL, NULL,
                                sum_step, sum_final) != SQLITE_OK)
        return floe__error(FLOE_ENOMEM, "sql", "cannot register sum(): %s", sqlite3_errmsg(s->db));
    return 0;
}
