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
 *
 * The binder's typed forms (bind.c, print.c) use the same representation:
 *  - floe_decimal_op(op, a, b, p, s): a op b (+ - * / %) computed exactly
 *    on the operands' decimal values and rounded HALF_UP to decimal(p, s),
 *    as Spark's CheckOverflow does (NULL on overflow and on a zero
 *    divisor, ANSI mode off); the remainder takes the dividend's sign;
 *  - floe_decimal_round(x, t, mode, p): round (HALF_UP), bround
 *    (HALF_EVEN), ceil and floor of x to t fraction digits (t < 0: to
 *    10^-t), a decimal of precision p, or a double when p is 0;
 *  - floe_int_fit(x, bits): x when it fits a signed integer of that width,
 *    else NULL (try_add and friends on INT operands).
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

enum { R_HALF_UP, R_HALF_EVEN, R_CEIL, R_FLOOR };

/* Does rounding away the digits of d from index k on increase |d|? `kept`
 * is the last digit kept ('0' when none). */
static bool round_up(const floe_dec_num *d, int64_t k, char kept, int mode)
{
    bool rest = false; /* a nonzero digit after index k */
    for (int64_t j = k + 1 > (int64_t)d->first ? k + 1 : (int64_t)d->first; j < (int64_t)d->last;
         j++)
        rest = rest || floe__vtab_dec_digit(d, (size_t)j) != '0';
    char first =
        k >= (int64_t)d->first && k < (int64_t)d->last ? floe__vtab_dec_digit(d, (size_t)k) : '0';
    switch (mode) {
    case R_HALF_EVEN: return first > '5' || (first == '5' && (rest || (kept - '0') % 2 == 1));
    case R_CEIL: return d->sign > 0 && (first != '0' || rest);
    case R_FLOOR: return d->sign < 0 && (first != '0' || rest);
    default: return first >= '5';
    }
}

/* d rounded (mode, HALF_UP for casts) to `scale` fraction digits into out
 * ("-123.45"); false when more than precision - scale integer digits
 * remain. */
static bool decimal_round_mode(const floe_dec_num *d, int precision, int scale, int mode,
                               char out[96])
{
    char dig[96] = {0}; /* the digits of round(|d| * 10^scale), most significant first */
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
        if (k < (int64_t)d->last && round_up(d, k, n ? dig[n - 1] : '0', mode)) {
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

/* The exact decimal value of v into *d (num: room for a double's text);
 * false for NULL, a BLOB, NaN, an infinity or text that is no number. */
static bool value_decimal(sqlite3_value *v, char num[40], floe_dec_num *d)
{
    const char *text;
    size_t len;
    switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
    case SQLITE_TEXT:
        text = (const char *)sqlite3_value_text(v);
        len = (size_t)sqlite3_value_bytes(v);
        break;
    case SQLITE_FLOAT: {
        double x = sqlite3_value_double(v);
        if (!isfinite(x))
            return false;
        shortest_double(x, num);
        text = num;
        len = strlen(num);
        break;
    }
    default: return false; /* NULL; a BLOB is no number */
    }
    return text && floe__vtab_decimal_parse(text, len, d);
}

/* A decimal(precision, scale) result: text out as the session holds it. */
static void result_decimal(sqlite3_context *ctx, const char *out, int precision, int scale)
{
    if (precision <= 15)
        sqlite3_result_double(ctx, strtod(out, NULL));
    else
        sqlite3_result_text(ctx, out, -1, SQLITE_TRANSIENT);
    sqlite3_result_subtype(ctx, (unsigned)(FLOE_SQL_SUBTYPE_SCALE + scale));
}

static bool valid_type(sqlite3_context *ctx, int precision, int scale, const char *fn)
{
    if (precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision)
        return true;
    char msg[96];
    snprintf(msg, sizeof msg, "%s: precision 1..38 and scale 0..precision", fn);
    sqlite3_result_error(ctx, msg, -1);
    return false;
}

static void cast_decimal(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int precision = sqlite3_value_int(argv[1]), scale = sqlite3_value_int(argv[2]);
    if (!valid_type(ctx, precision, scale, "floe_cast_decimal"))
        return;
    char num[40], out[96];
    floe_dec_num d;
    if (!value_decimal(argv[0], num, &d) ||
        !decimal_round_mode(&d, precision, scale, R_HALF_UP, out)) {
        sqlite3_result_null(ctx);
        return;
    }
    result_decimal(ctx, out, precision, scale);
}

bool floe__sql_decimal_round_double(double x, int scale, double *out)
{
    char num[40], text[96];
    floe_dec_num d;
    if (!isfinite(x) || scale < 0 || scale > 15)
        return false;
    shortest_double(x, num);
    if (!floe__vtab_decimal_parse(num, strlen(num), &d) ||
        !decimal_round_mode(&d, 38, scale, R_HALF_UP, text))
        return false;
    *out = strtod(text, NULL);
    return true;
}

/* ---------------------------------------------------------------- exact arithmetic */

/* An unsigned integer of up to BIG_DIGITS decimal digits, least
 * significant first: the unscaled value of a decimal. */
#define BIG_DIGITS 160
typedef struct big {
    unsigned char d[BIG_DIGITS];
    int n; /* digits in use (no leading zeros; 0 for zero) */
} big;

static void big_trim(big *x)
{
    while (x->n > 0 && x->d[x->n - 1] == 0)
        x->n--;
}

/* x * 10^k; false when it does not fit. */
static bool big_shift(big *x, int k)
{
    if (x->n == 0 || k == 0)
        return true;
    if (x->n + k > BIG_DIGITS)
        return false;
    memmove(x->d + k, x->d, (size_t)x->n);
    memset(x->d, 0, (size_t)k);
    x->n += k;
    return true;
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static bool big_add(big *o, const big *a, const big *b)
{
    int n = a->n > b->n ? a->n : b->n, carry = 0;
    if (n + 1 > BIG_DIGITS)
        return false;
    for (int i = 0; i < n; i++) {
        int v = (i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0) + carry;
        o->d[i] = (unsigned char)(v % 10);
        carry = v / 10;
    }
    o->d[n] = (unsigned char)carry;
    o->n = n + 1;
    big_trim(o);
    return true;
}

/* o = a - b, a >= b (o may be a) */
static void big_sub(big *o, const big *a, const big *b)
{
    int borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int v = a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        borrow = v < 0;
        o->d[i] = (unsigned char)(v + (borrow ? 10 : 0));
    }
    o->n = a->n;
    big_trim(o);
}

static bool big_mul(big *o, const big *a, const big *b)
{
    if (a->n + b->n > BIG_DIGITS)
        return false;
    int acc[BIG_DIGITS] = {0};
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            acc[i + j] += a->d[i] * b->d[j];
    int carry = 0, n = a->n + b->n;
    for (int i = 0; i < n; i++) {
        int v = acc[i] + carry;
        o->d[i] = (unsigned char)(v % 10);
        carry = v / 10;
    }
    o->n = n;
    big_trim(o);
    return true;
}

/* q = a / b, r = a % b (b nonzero) */
static void big_divmod(big *q, big *r, const big *a, const big *b)
{
    big rem = {{0}, 0};
    q->n = a->n;
    for (int i = a->n - 1; i >= 0; i--) {
        big_shift(&rem, 1); /* rem has fewer digits than b + 1: it fits */
        rem.d[0] = a->d[i];
        if (rem.n == 0 && a->d[i])
            rem.n = 1;
        int c = 0;
        while (big_cmp(&rem, b) >= 0) {
            big_sub(&rem, &rem, b);
            c++;
        }
        q->d[i] = (unsigned char)c;
    }
    big_trim(q);
    *r = rem;
}

/* A decimal value: sign, unscaled magnitude and scale (>= 0). */
typedef struct xdec {
    int sign;
    big m;
    int scale;
} xdec;

static bool to_xdec(const floe_dec_num *d, xdec *x)
{
    memset(x, 0, sizeof *x);
    x->sign = d->sign;
    if (d->sign == 0)
        return true;
    int64_t scale = (int64_t)d->last - d->point, zeros = 0;
    if (scale < 0) {
        zeros = -scale;
        scale = 0;
    }
    int64_t n = (int64_t)(d->last - d->first) + zeros;
    if (scale > 80 || n > 80)
        return false;
    x->scale = (int)scale;
    int k = 0;
    for (int64_t z = 0; z < zeros; z++)
        x->m.d[k++] = 0;
    for (size_t j = d->last; j-- > d->first;)
        x->m.d[k++] = (unsigned char)(floe__vtab_dec_digit(d, j) - '0');
    x->m.n = k;
    big_trim(&x->m);
    return true;
}

/* Bring a and b to the same scale. */
static bool align(xdec *a, xdec *b)
{
    if (a->scale < b->scale) {
        if (!big_shift(&a->m, b->scale - a->scale))
            return false;
        a->scale = b->scale;
    } else if (b->scale < a->scale) {
        if (!big_shift(&b->m, a->scale - b->scale))
            return false;
        b->scale = a->scale;
    }
    return true;
}

/* o = a + b (signed); a and b aligned. */
static bool xadd(xdec *o, const xdec *a, const xdec *b)
{
    o->scale = a->scale;
    if (a->sign == 0 || b->sign == 0) {
        *o = a->sign == 0 ? *b : *a;
        return true;
    }
    if (a->sign == b->sign) {
        o->sign = a->sign;
        return big_add(&o->m, &a->m, &b->m);
    }
    int c = big_cmp(&a->m, &b->m);
    if (c == 0) {
        memset(o, 0, sizeof *o);
        return true;
    }
    const xdec *hi = c > 0 ? a : b, *lo = c > 0 ? b : a;
    o->sign = hi->sign;
    big_sub(&o->m, &hi->m, &lo->m);
    return true;
}

/* x as text ("-12.340") into out (at least BIG_DIGITS + 4 bytes). */
static void xdec_text(const xdec *x, char *out)
{
    char *o = out;
    if (x->sign < 0 && x->m.n)
        *o++ = '-';
    int n = x->m.n > x->scale ? x->m.n : x->scale + 1;
    for (int i = n - 1; i >= 0; i--) {
        *o++ = (char)('0' + (i < x->m.n ? x->m.d[i] : 0));
        if (i == x->scale && i > 0)
            *o++ = '.';
    }
    *o = 0;
}

/* a op b exactly (the quotient to scale `scale` + 1, truncated, so that
 * HALF_UP rounding to `scale` is exact); false: a zero divisor or too many
 * digits. */
static bool xdec_op(char op, xdec *a, xdec *b, int scale, xdec *o)
{
    memset(o, 0, sizeof *o);
    switch (op) {
    case '+':
    case '-':
        if (op == '-')
            b->sign = -b->sign;
        return align(a, b) && xadd(o, a, b);
    case '*':
        o->sign = a->sign * b->sign;
        o->scale = a->scale + b->scale;
        return big_mul(&o->m, &a->m, &b->m);
    case '/': {
        if (b->sign == 0)
            return false;
        /* |a| / |b| = (ma * 10^k / mb) * 10^-(sa + k - sb), at scale + 1 */
        int k = scale + 1 - a->scale + b->scale;
        big num = a->m, den = b->m, r;
        if (!(k >= 0 ? big_shift(&num, k) : big_shift(&den, -k)))
            return false;
        big_divmod(&o->m, &r, &num, &den);
        o->sign = o->m.n ? a->sign * b->sign : 0;
        o->scale = scale + 1;
        return true;
    }
    case '%': {
        if (b->sign == 0 || !align(a, b))
            return false;
        big q;
        big_divmod(&q, &o->m, &a->m, &b->m);
        o->sign = o->m.n ? a->sign : 0;
        o->scale = a->scale;
        return true;
    }
    default: return false;
    }
}

static void decimal_op(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *op = (const char *)sqlite3_value_text(argv[0]);
    int precision = sqlite3_value_int(argv[3]), scale = sqlite3_value_int(argv[4]);
    if (!valid_type(ctx, precision, scale, "floe_decimal_op"))
        return;
    char n1[40], n2[40], text[BIG_DIGITS + 8], out[96];
    floe_dec_num d1, d2, r;
    xdec a, b, o;
    if (!op || !value_decimal(argv[1], n1, &d1) || !value_decimal(argv[2], n2, &d2) ||
        !to_xdec(&d1, &a) || !to_xdec(&d2, &b) || !xdec_op(op[0], &a, &b, scale, &o)) {
        sqlite3_result_null(ctx);
        return;
    }
    xdec_text(&o, text);
    if (!floe__vtab_decimal_parse(text, strlen(text), &r) ||
        !decimal_round_mode(&r, precision, scale, R_HALF_UP, out)) {
        sqlite3_result_null(ctx); /* overflow */
        return;
    }
    result_decimal(ctx, out, precision, scale);
}

static void decimal_round_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int t = sqlite3_value_int(argv[1]), mode = sqlite3_value_int(argv[2]);
    int precision = sqlite3_value_int(argv[3]);
    if (t < -38 || t > 38 ||
        (precision != 0 && !valid_type(ctx, precision, t > 0 ? t : 0, "floe_decimal_round")))
        return;
    char num[40], out[96];
    floe_dec_num d;
    if (!value_decimal(argv[0], num, &d)) {
        sqlite3_result_null(ctx);
        return;
    }
    /* t < 0: round d / 10^-t to an integer, then append -t zeros */
    floe_dec_num shifted = d;
    if (t < 0)
        shifted.point += t;
    if (!decimal_round_mode(&shifted, 38, t > 0 ? t : 0, mode, out)) {
        sqlite3_result_null(ctx);
        return;
    }
    if (t < 0 && strcmp(out, "0") != 0) {
        size_t len = strlen(out);
        memset(out + len, '0', (size_t)-t);
        out[len + (size_t)-t] = 0;
    }
    if (precision == 0) {
        sqlite3_result_double(ctx, strtod(out, NULL));
        return;
    }
    size_t ints = strcspn(out, "."), neg = out[0] == '-';
    if (ints - neg > (size_t)(precision - (t > 0 ? t : 0)) && strcmp(out, "0") != 0) {
        sqlite3_result_null(ctx);
        return;
    }
    result_decimal(ctx, out, precision, t > 0 ? t : 0);
}

static void int_fit(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int bits = sqlite3_value_int(argv[1]);
    if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER || bits < 2 || bits > 64) {
        sqlite3_result_null(ctx);
        return;
    }
    sqlite3_int64 v = sqlite3_value_int64(argv[0]);
    if (bits < 64 &&
        (v < -((sqlite3_int64)1 << (bits - 1)) || v >= ((sqlite3_int64)1 << (bits - 1)))) {
        sqlite3_result_null(ctx);
        return;
    }
    sqlite3_result_int64(ctx, v);
}

int floe__sql_register_decimal(sqlite3 *db)
{
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {{"floe_cast_decimal", 3, cast_decimal},
               {"floe_decimal_op", 5, decimal_op},
               {"floe_decimal_round", 4, decimal_round_fn},
               {"floe_int_fit", 2, int_fit}};
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fns); k++)
        if (sqlite3_create_function(db, fns[k].name, fns[k].nargs,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, fns[k].fn, NULL,
                                    NULL) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[k].name,
                               sqlite3_errmsg(db));
    return 0;
}
