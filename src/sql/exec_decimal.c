/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_decimal: CAST(x AS DECIMAL(p, s)) with Spark's semantics, as the
 * SQL function floe_cast_decimal(x, p, s) the printer (print.c) calls.
 *
 * Spark (ANSI mode off, its default): the value is taken exactly — an
 * integer as is, a string as the decimal it spells (spaces around and an
 * exponent allowed; anything else is NULL), a double as its shortest
 * decimal text (Java's Double.toString) — and rounded HALF_UP to s
 * fraction digits; a result with more than p - s integer digits is NULL
 * (overflow), as is NaN or an infinity. No double arithmetic is involved,
 * so DECIMAL(38, 6) keeps all 38 digits.
 *
 * The result follows the session's representation of decimal columns
 * (vtab.c): precision <= 15 is a REAL, wider is its exact text; both carry
 * the subtype FLOE_SQL_SUBTYPE_SCALE + s, so the output prints s fraction
 * digits (Spark prints CAST(1 AS DECIMAL(10,2)) as 1.00).
 */
#include "sql/exec_int.h"
#include "sql/vtab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest %g text of a finite x that reads back as x. */
static void shortest_double(double x, char buf[40])
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, 40, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

/* d rounded HALF_UP to `scale` fraction digits into out ("-123.45");
 * false when more than precision - scale integer digits remain. */
static bool decimal_round(const floe_dec_num *d, int precision, int scale, char out[96])
{
    char dig[96]; /* the digits of round(|d| * 10^scale), most significant first */
    size_t n = 0;
    if (d->sign != 0) {
        int64_t top = d->point - 1 - (int64_t)d->first; /* the first digit's power of ten */
        if (top >= 39)
            return false;
        int64_t hi = top > 0 ? top : 0;
        for (int64_t q = hi; q >= -(int64_t)scale; q--) {
            int64_t k = d->point - 1 - q;
            dig[n++] = k >= (int64_t)d->first && k < (int64_t)d->last
                           ? floe__vtab_dec_digit(d, (size_t)k) : '0';
        }
        int64_t k = d->point + scale; /* the first discarded digit */
        if (k >= (int64_t)d->first && k < (int64_t)d->last && floe__vtab_dec_digit(d, (size_t)k) >= '5') {
            size_t i = n;
            while (i > 0 && dig[i - 1] == '9')
                dig[--i] = '0';
            if (i == 0) {
                memmove(dig + 1, dig, n++);
                dig[0] = '1';
            } else {
                dig[i - 1]++;
            }
        }
    } else {
        for (int q = 0; q <= scale; q++)
            dig[n++] = '0';
    }
    size_t lead = 0, ilen = n - (size_t)scale;
    while (lead + 1 < ilen && dig[lead] == '0')
        lead++;
    bool zero = true;
    for (size_t i = lead; i < n; i++)
        zero = zero && dig[i] == '0';
    if (!(ilen - lead == 1 && dig[lead] == '0') && ilen - lead > (size_t)(precision - scale))
        return false;
    char *o = out;
    if (d->sign < 0 && !zero)
        *o++ = '-';
    memcpy(o, dig + lead, ilen - lead);
    o += ilen - lead;
    if (scale > 0) {
        *o++ = '.';
        memcpy(o, dig + ilen, (size_t)scale);
        o += scale;
    }
    *o = 0;
    return true;
}

static void cast_decimal(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int precision = sqlite3_value_int(argv[1]), scale = sqlite3_value_int(argv[2]);
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
        sqlite3_result_error(ctx, "floe_cast_decimal: precision 1..38 and scale 0..precision", -1);
        return;
    }
    char num[40];
    const char *text;
    size_t len;
    switch (sqlite3_value_type(argv[0])) {
    case SQLITE_INTEGER:
    case SQLITE_TEXT:
        text = (const char *)sqlite3_value_text(argv[0]);
        len = (size_t)sqlite3_value_bytes(argv[0]);
        break;
    case SQLITE_FLOAT: {
        double x = sqlite3_value_double(argv[0]);
        if (!isfinite(x)) {
            sqlite3_result_null(ctx);
            return;
        }
        shortest_double(x, num);
        text = num;
        len = strlen(num);
        break;
    }
    default: sqlite3_result_null(ctx); return; /* NULL; a BLOB is no number */
    }
    floe_dec_num d;
    char out[96];
    if (!text || !floe__vtab_decimal_parse(text, len, &d) ||
        !decimal_round(&d, precision, scale, out)) {
        sqlite3_result_null(ctx);
        return;
    }
    if (precision <= 15)
        sqlite3_result_double(ctx, strtod(out, NULL));
    else
        sqlite3_result_text(ctx, out, -1, SQLITE_TRANSIENT);
    sqlite3_result_subtype(ctx, (unsigned)(FLOE_SQL_SUBTYPE_SCALE + scale));
}

int floe__sql_register_decimal(sqlite3 *db)
{
    if (sqlite3_create_function(db, "floe_cast_decimal", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                NULL, cast_decimal, NULL, NULL) != SQLITE_OK)
        return floe__error(FLOE_ENOMEM, "sql", "cannot register floe_cast_decimal(): %s",
                           sqlite3_errmsg(db));
    return 0;
}
