/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/fn_scalar: Spark 3.5's scalar math, string, hash and conversion
 * functions (spark.sql.ansi.enabled=false) that SQLite lacks or computes
 * differently, registered under their Spark names so the printer passes
 * calls through (docs/sql.md "Scalar functions").
 *
 * Strings are UTF-8 and counted in code points, as Spark's UTF8String;
 * a NULL argument gives NULL unless Spark says otherwise (nvl2, isnull).
 * Integers are 64-bit (Spark's INT arithmetic wraps at 32 bits: floe
 * computes as BIGINT). Hashes use libcrypto through src/lazy.
 */
#include "sql/exec_int.h"

#include "lazy/crypto.h"
#include "util/json_writer.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#define NUL_OUT(ctx, argv, n)                                                                      \
    do {                                                                                           \
        for (int i_ = 0; i_ < (n); i_++)                                                           \
            if (sqlite3_value_type((argv)[i_]) == SQLITE_NULL) {                                   \
                sqlite3_result_null(ctx);                                                          \
                return;                                                                            \
            }                                                                                      \
    } while (0)

/* Bytes of the UTF-8 sequence that starts with byte c. */
static size_t cp_len(unsigned char c)
{
    return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

/* Code points of s[0..n). */
static int64_t nchars(const char *s, size_t n)
{
    int64_t k = 0;
    for (size_t i = 0; i < n; i += cp_len((unsigned char)s[i]))
        k++;
    return k;
}

/* Byte offset of code point `c` (clamped to n). */
static size_t char_off(const char *s, size_t n, int64_t c)
{
    size_t i = 0;
    for (; i < n && c > 0; c--)
        i += cp_len((unsigned char)s[i]);
    return i < n ? i : n;
}

static const char *text(sqlite3_value *v, size_t *n)
{
    const char *s = (const char *)sqlite3_value_text(v);
    *n = (size_t)sqlite3_value_bytes(v);
    return s ? s : "";
}

static void result_buf(sqlite3_context *ctx, int rc, floe_buf *b)
{
    if (rc < 0)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, b->ptr ? b->ptr : "", (int)b->len, SQLITE_TRANSIENT);
    floe__buf_free(b);
}

/* ------------------------------------------------------------- math */

static bool is_int(sqlite3_value *v)
{
    return sqlite3_value_numeric_type(v) == SQLITE_INTEGER;
}

static void pmod_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    if (is_int(argv[0]) && is_int(argv[1])) {
        int64_t a = sqlite3_value_int64(argv[0]), n = sqlite3_value_int64(argv[1]);
        if (n == 0) {
            sqlite3_result_null(ctx);
            return;
        }
        int64_t r = n == -1 ? 0 : a % n;
        sqlite3_result_int64(ctx, r < 0 ? (r + n) % n : r);
        return;
    }
    double a = sqlite3_value_double(argv[0]), n = sqlite3_value_double(argv[1]);
    if (n == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    double r = fmod(a, n);
    sqlite3_result_double(ctx, r < 0 ? fmod(r + n, n) : r);
}

/* Spark's ordering of two non-NULL values: numbers by value, text and
 * blobs by bytes (numbers first). */
static int cmp_values(sqlite3_value *a, sqlite3_value *b)
{
    int ta = sqlite3_value_type(a), tb = sqlite3_value_type(b);
    bool na = ta == SQLITE_INTEGER || ta == SQLITE_FLOAT,
         nb = tb == SQLITE_INTEGER || tb == SQLITE_FLOAT;
    if (na && nb) {
        if (ta == SQLITE_INTEGER && tb == SQLITE_INTEGER) {
            int64_t x = sqlite3_value_int64(a), y = sqlite3_value_int64(b);
            return x < y ? -1 : x > y;
        }
        double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
        return x < y ? -1 : x > y;
    }
    if (na != nb)
        return na ? -1 : 1;
    size_t n1, n2;
    const char *s1 = text(a, &n1), *s2 = text(b, &n2);
    int c = memcmp(s1, s2, n1 < n2 ? n1 : n2);
    return c ? c : n1 < n2 ? -1 : n1 > n2;
}

/* greatest / least: NULLs are skipped (NULL only when all are). */
static void extreme_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int sign = sqlite3_user_data(ctx) ? 1 : -1;
    sqlite3_value *best = NULL;
    bool real = false; /* a double among numbers: the result is a double */
    for (int k = 0; k < argc; k++) {
        real = real || sqlite3_value_type(argv[k]) == SQLITE_FLOAT;
        if (sqlite3_value_type(argv[k]) != SQLITE_NULL &&
            (!best || cmp_values(argv[k], best) * sign > 0))
            best = argv[k];
    }
    if (best && real && sqlite3_value_type(best) == SQLITE_INTEGER)
        sqlite3_result_double(ctx, sqlite3_value_double(best));
    else if (best)
        sqlite3_result_value(ctx, best);
    else
        sqlite3_result_null(ctx);
}

/* sign / signum: a double. */
static void sign_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    double x = sqlite3_value_double(argv[0]);
    sqlite3_result_double(ctx, x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
}

static void nvl2_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_value(ctx, argv[sqlite3_value_type(argv[0]) == SQLITE_NULL ? 2 : 1]);
}

static void isnull_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    bool want_null = sqlite3_user_data(ctx) != NULL;
    sqlite3_result_int(ctx, (sqlite3_value_type(argv[0]) == SQLITE_NULL) == want_null);
}

/* shiftleft / shiftright / shiftrightunsigned on a BIGINT (Java masks the
 * count to 6 bits). */
static void shift_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    uint64_t v = (uint64_t)sqlite3_value_int64(argv[0]);
    unsigned n = (unsigned)(sqlite3_value_int64(argv[1]) & 63);
    int kind = (int)(intptr_t)sqlite3_user_data(ctx);
    int64_t r = kind == 0   ? (int64_t)(v << n)
                : kind == 1 ? (int64_t)v >> n /* arithmetic (gcc, clang) */
                            : (int64_t)(v >> n);
    sqlite3_result_int64(ctx, r);
}

static void factorial_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    int64_t n = sqlite3_value_int64(argv[0]), r = 1;
    if (n < 0 || n > 20) {
        sqlite3_result_null(ctx);
        return;
    }
    for (int64_t k = 2; k <= n; k++)
        r *= k;
    sqlite3_result_int64(ctx, r);
}

/* ln / log10 / log2 / log(x) (natural) / log(base, x): NULL for x <= 0. */
static void log_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    int kind = (int)(intptr_t)sqlite3_user_data(ctx);
    double x = sqlite3_value_double(argv[argc - 1]);
    if (x <= 0 || (argc == 2 && sqlite3_value_double(argv[0]) <= 0)) {
        sqlite3_result_null(ctx);
        return;
    }
    if (argc == 2)
        sqlite3_result_double(ctx, log(x) / log(sqlite3_value_double(argv[0])));
    else
        sqlite3_result_double(ctx, kind == 10 ? log10(x) : kind == 2 ? log2(x) : log(x));
}

static void try_divide_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    double d = sqlite3_value_double(argv[1]);
    if (d == 0)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_double(ctx, sqlite3_value_double(argv[0]) / d);
}

/* try_add / try_subtract / try_multiply: NULL on BIGINT overflow. */
static void try_arith_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    int op = (int)(intptr_t)sqlite3_user_data(ctx);
    if (is_int(argv[0]) && is_int(argv[1])) {
        int64_t a = sqlite3_value_int64(argv[0]), b = sqlite3_value_int64(argv[1]), r;
        bool ovf = op == 0   ? __builtin_add_overflow(a, b, &r)
                   : op == 1 ? __builtin_sub_overflow(a, b, &r)
                             : __builtin_mul_overflow(a, b, &r);
        if (ovf)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_int64(ctx, r);
        return;
    }
    double a = sqlite3_value_double(argv[0]), b = sqlite3_value_double(argv[1]);
    sqlite3_result_double(ctx, op == 0 ? a + b : op == 1 ? a - b : a * b);
}

/* ------------------------------------------------------------- conversion */

/* hex(x): a BIGINT's two's complement digits, else the bytes; upper case. */
static void hex_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    char num[24];
    int t = sqlite3_value_type(argv[0]);
    if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
        int64_t v = t == SQLITE_INTEGER ? sqlite3_value_int64(argv[0])
                                        : (int64_t)sqlite3_value_double(argv[0]);
        snprintf(num, sizeof num, "%llX", (unsigned long long)v);
        sqlite3_result_text(ctx, num, -1, SQLITE_TRANSIENT);
        return;
    }
    const unsigned char *p = sqlite3_value_blob(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]);
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_reserve(&b, 2 * n + 1);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = floe__buf_printf(&b, "%02X", p[i]);
    result_buf(ctx, rc, &b);
}

/* conv(num, from_base, to_base): Spark's NumberConverter. The longest
 * prefix of digits in from_base as an unsigned 64-bit value (-1 on
 * overflow); a leading '-' negates; a negative to_base prints signed. */
static void conv_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    size_t n;
    const char *s = text(argv[0], &n);
    int64_t from = sqlite3_value_int64(argv[1]), to = sqlite3_value_int64(argv[2]);
    int64_t ato = to < 0 ? -to : to;
    if (from < 2 || from > 36 || ato < 2 || ato > 36 || n == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    bool neg = s[0] == '-';
    uint64_t v = 0;
    for (size_t i = neg; i < n; i++) {
        int c = tolower((unsigned char)s[i]);
        int d = isdigit(c) ? c - '0' : isalpha(c) ? c - 'a' + 10 : 99;
        if (d >= from)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)from) {
            v = UINT64_MAX;
            break;
        }
        v = v * (uint64_t)from + (uint64_t)d;
    }
    if (neg && to > 0)
        v = (int64_t)v < 0 ? UINT64_MAX : (uint64_t)(-(int64_t)v);
    bool minus = neg && to < 0;
    if (to < 0 && (int64_t)v < 0) {
        v = (uint64_t)(-(int64_t)v);
        minus = true;
    }
    char out[70], *o = out + sizeof out;
    *--o = 0;
    do {
        unsigned d = (unsigned)(v % (uint64_t)ato);
        *--o = (char)(d < 10 ? '0' + d : 'A' + d - 10);
        v /= (uint64_t)ato;
    } while (v);
    if (minus)
        *--o = '-';
    sqlite3_result_text(ctx, o, -1, SQLITE_TRANSIENT);
}

/* ------------------------------------------------------------- strings */

/* Spark's substring(s, pos[, len]): 1-based, 0 is 1, negative from the
 * end; counted in characters (bytes for a BLOB). */
static void substr_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    bool blob = sqlite3_value_type(argv[0]) == SQLITE_BLOB;
    size_t n;
    const char *s = blob ? sqlite3_value_blob(argv[0]) : text(argv[0], &n);
    if (blob) {
        n = (size_t)sqlite3_value_bytes(argv[0]);
        s = s ? s : "";
    }
    int64_t len = blob ? (int64_t)n : nchars(s, n);
    int64_t pos = sqlite3_value_int64(argv[1]);
    int64_t l = argc > 2 ? sqlite3_value_int64(argv[2]) : INT64_MAX / 4;
    if (pos > INT32_MAX || pos < INT32_MIN)
        pos = pos > 0 ? INT32_MAX : INT32_MIN;
    if (l > INT32_MAX || l < INT32_MIN)
        l = l > 0 ? INT32_MAX : INT32_MIN;
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? len + pos : 0;
    int64_t end = start + l;
    if (start < 0)
        start = 0;
    if (end > len)
        end = len;
    if (start >= end) {
        if (blob)
            sqlite3_result_zeroblob(ctx, 0);
        else
            sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    size_t a = blob ? (size_t)start : char_off(s, n, start);
    size_t e = blob ? (size_t)end : a + char_off(s + a, n - a, end - start);
    if (blob)
        sqlite3_result_blob(ctx, s + a, (int)(e - a), SQLITE_TRANSIENT);
    else
        sqlite3_result_text(ctx, s + a, (int)(e - a), SQLITE_TRANSIENT);
}

/* left(s, n) / right(s, n): "" for n <= 0. */
static void left_right_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    size_t n;
    const char *s = text(argv[0], &n);
    int64_t k = sqlite3_value_int64(argv[1]), len = nchars(s, n);
    if (k <= 0) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    if (k > len)
        k = len;
    size_t a = sqlite3_user_data(ctx) ? char_off(s, n, len - k) : 0;
    size_t e = sqlite3_user_data(ctx) ? n : char_off(s, n, k);
    sqlite3_result_text(ctx, s + a, (int)(e - a), SQLITE_TRANSIENT);
}

/* lpad / rpad(s, len[, pad=' ']): cut to len when longer (or the pad is
 * empty), else padded with the pad repeated. */
static void pad_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    bool right = sqlite3_user_data(ctx) != NULL;
    size_t n, np = 1;
    const char *s = text(argv[0], &n), *p = argc > 2 ? text(argv[2], &np) : " ";
    int64_t len = sqlite3_value_int64(argv[1]), have = nchars(s, n);
    if (len <= 0) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    if (len > sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1)) {
        sqlite3_result_error_toobig(ctx);
        return;
    }
    if (have >= len || np == 0) {
        sqlite3_result_text(ctx, s, (int)char_off(s, n, len), SQLITE_TRANSIENT);
        return;
    }
    floe_buf b = FLOE_BUF_INIT;
    int rc = right ? floe__buf_put(&b, s, n) : 0;
    int64_t pchars = nchars(p, np);
    for (int64_t k = len - have; k > 0 && rc == 0; k -= pchars)
        rc = floe__buf_put(&b, p, k >= pchars ? np : char_off(p, np, k));
    if (rc == 0 && !right)
        rc = floe__buf_put(&b, s, n);
    result_buf(ctx, rc, &b);
}

/* Character index (0-based) of needle in s from character `from`, -1 when
 * absent; 0 for an empty needle (UTF8String.indexOf). */
static int64_t index_of(const char *s, size_t n, const char *t, size_t nt, int64_t from)
{
    if (nt == 0)
        return 0;
    size_t i = char_off(s, n, from);
    for (int64_t c = from; i + nt <= n; c++) {
        if (memcmp(s + i, t, nt) == 0)
            return c;
        i += cp_len((unsigned char)s[i]);
    }
    return -1;
}

/* locate(substr, str[, pos]): 1-based, 0 when absent or pos < 1; a NULL
 * pos gives 0 (as Spark, after Hive). */
static void locate_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (argc > 2 && sqlite3_value_type(argv[2]) == SQLITE_NULL) {
        sqlite3_result_int(ctx, 0);
        return;
    }
    NUL_OUT(ctx, argv, 2);
    int64_t pos = argc > 2 ? sqlite3_value_int64(argv[2]) : 1;
    if (pos < 1) {
        sqlite3_result_int(ctx, 0);
        return;
    }
    size_t n, nt;
    const char *t = text(argv[0], &nt), *s = text(argv[1], &n);
    sqlite3_result_int64(ctx, index_of(s, n, t, nt, pos - 1) + 1);
}

/* The string of argument 0 rewritten into one of the same byte length by
 * fill(out, s, n): reverse and initcap. */
static void same_length(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                        void (*fill)(char *o, const char *s, size_t n))
{
    NUL_OUT(ctx, argv, argc);
    size_t n;
    const char *s = text(argv[0], &n);
    char *o = sqlite3_malloc64(n + 1);
    if (!o) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    fill(o, s, n);
    sqlite3_result_text(ctx, o, (int)n, sqlite3_free);
}

static void reverse_fill(char *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t l = cp_len((unsigned char)s[i]);
        if (l > n - i)
            l = n - i;
        memcpy(o + n - i - l, s + i, l);
        i += l;
    }
}

static void reverse_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    same_length(ctx, argc, argv, reverse_fill);
}

static void repeat_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    size_t n;
    const char *s = text(argv[0], &n);
    int64_t k = sqlite3_value_int64(argv[1]);
    if (k <= 0 || n == 0) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    if ((uint64_t)k >
        (uint64_t)sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1) / n) {
        sqlite3_result_error_toobig(ctx);
        return;
    }
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_reserve(&b, (size_t)k * n + 1);
    for (int64_t i = 0; i < k && rc == 0; i++)
        rc = floe__buf_put(&b, s, n);
    result_buf(ctx, rc, &b);
}

/* space(n): n spaces, "" for n <= 0. */
static void space_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    int64_t k = sqlite3_value_int64(argv[0]);
    if (k <= 0) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    if (k > sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1)) {
        sqlite3_result_error_toobig(ctx);
        return;
    }
    char *o = sqlite3_malloc64((sqlite3_uint64)k + 1);
    if (!o) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    memset(o, ' ', (size_t)k);
    sqlite3_result_text(ctx, o, (int)k, sqlite3_free);
}

/* initcap: lower case, then the first letter after each space upper case
 * (ASCII letters; others are kept, as lower() / upper() do). */
static void initcap_fill(char *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        o[i] = (char)(c < 128 ? (i == 0 || s[i - 1] == ' ' ? toupper(c) : tolower(c)) : c);
    }
}

static void initcap_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    same_length(ctx, argc, argv, initcap_fill);
}

/* startswith / endswith / contains: byte comparison; an empty needle matches. */
static void affix_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    int kind = (int)(intptr_t)sqlite3_user_data(ctx);
    size_t n, nt;
    const char *s = text(argv[0], &n), *t = text(argv[1], &nt);
    bool r = false;
    if (nt <= n) {
        if (kind == 0)
            r = memcmp(s, t, nt) == 0;
        else if (kind == 1)
            r = memcmp(s + n - nt, t, nt) == 0;
        else
            for (size_t i = 0; i + nt <= n && !r; i++)
                r = memcmp(s + i, t, nt) == 0;
    }
    sqlite3_result_int(ctx, r);
}

/* One code point at s (bytes consumed in *len). */
static unsigned cp_at(const char *s, size_t n, size_t *len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t l = cp_len(p[0]);
    if (l > n)
        l = n;
    unsigned c = l == 1 ? p[0] : p[0] & (0x3Fu >> (l - 1));
    for (size_t k = 1; k < l; k++)
        c = (c << 6) | (p[k] & 0x3Fu);
    *len = l;
    return c;
}

/* translate(s, from, to): each character of `from` becomes the one at the
 * same place in `to`, or is dropped when `to` is shorter; the first
 * occurrence of a repeated character counts. */
static void translate_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    size_t n, nf, nt;
    const char *s = text(argv[0], &n), *f = text(argv[1], &nf), *t = text(argv[2], &nt);
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0, l; i < n && rc == 0; i += l) {
        unsigned c = cp_at(s + i, n - i, &l);
        int64_t at = -1, k = 0;
        for (size_t j = 0, lf; j < nf && at < 0; j += lf, k++)
            if (cp_at(f + j, nf - j, &lf) == c)
                at = k;
        if (at < 0) {
            rc = floe__buf_put(&b, s + i, l);
            continue;
        }
        size_t o = char_off(t, nt, at);
        if (o < nt) {
            size_t lt;
            cp_at(t + o, nt - o, &lt);
            rc = floe__buf_put(&b, t + o, lt);
        }
    }
    result_buf(ctx, rc, &b);
}

/* ascii(s): the first character's code point, 0 for "". */
static void ascii_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    size_t n, l;
    const char *s = text(argv[0], &n);
    sqlite3_result_int64(ctx, n ? (int64_t)cp_at(s, n, &l) : 0);
}

/* chr(n) / char(n): "" for n < 0, else the character n mod 256. */
static void chr_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    int64_t v = sqlite3_value_int64(argv[0]);
    if (v < 0) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    unsigned c = (unsigned)(v & 0xFF);
    char o[2] = {(char)c, 0};
    if (c >= 0x80) {
        o[0] = (char)(0xC0 | (c >> 6));
        o[1] = (char)(0x80 | (c & 0x3F));
    }
    sqlite3_result_text(ctx, o, c >= 0x80 ? 2 : 1, SQLITE_TRANSIENT);
}

/* split_part(s, delim, n): the n-th part (negative: from the end) of s
 * split at the literal delimiter; "" out of range; n = 0 is an error. */
static void split_part_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    size_t n, nd;
    const char *s = text(argv[0], &n), *d = text(argv[1], &nd);
    int64_t want = sqlite3_value_int64(argv[2]);
    if (want == 0) {
        sqlite3_result_error(ctx,
                             "[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be "
                             "either < 0 or > 0 (the first element has index 1).",
                             -1);
        return;
    }
    int64_t parts = 1;
    for (size_t i = 0; nd && i + nd <= n;) {
        if (memcmp(s + i, d, nd) == 0)
            parts++, i += nd;
        else
            i++;
    }
    int64_t k = want > 0 ? want - 1 : parts + want;
    if (k < 0 || k >= parts) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    size_t a = 0, i = 0;
    for (int64_t p = 0; nd && p < k; i++)
        if (i + nd <= n && memcmp(s + i, d, nd) == 0)
            p++, i += nd - 1, a = i + 1;
    size_t e = a;
    while (nd && e + nd <= n && memcmp(s + e, d, nd) != 0)
        e++;
    if (!nd || e + nd > n)
        e = n;
    sqlite3_result_text(ctx, s + a, (int)(e - a), SQLITE_TRANSIENT);
}

/* ------------------------------------------------------------- hashes */

static void lowhex(const unsigned char *p, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[p[i] >> 4];
        out[2 * i + 1] = digits[p[i] & 15];
    }
    out[2 * n] = 0;
}

static void digest(sqlite3_context *ctx, sqlite3_value *v, const EVP_MD *md)
{
    unsigned char h[64];
    unsigned hn = 0;
    char out[129];
    const void *p = sqlite3_value_blob(v);
    size_t n = (size_t)sqlite3_value_bytes(v);
    if (!md || !EVP_Digest(p ? p : "", n, h, &hn, md, NULL) || hn > 64) {
        sqlite3_result_error(ctx, "hash functions need libcrypto, which is not available", -1);
        return;
    }
    lowhex(h, hn, out);
    sqlite3_result_text(ctx, out, -1, SQLITE_TRANSIENT);
}

static void md5_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    digest(ctx, argv[0], EVP_md5());
}

/* sha2(s, bits): 0 and 256 are SHA-256; other lengths Spark knows (224,
 * 384, 512) are not available here; unknown ones are NULL, as Spark. */
static void sha2_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    int64_t bits = sqlite3_value_int64(argv[1]);
    if (bits == 0 || bits == 256)
        digest(ctx, argv[0], EVP_sha256());
    else if (bits == 224 || bits == 384 || bits == 512)
        sqlite3_result_error(ctx, "unsupported: sha2 with 224, 384 or 512 bits", -1);
    else
        sqlite3_result_null(ctx);
}

static void base64_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    const unsigned char *p = sqlite3_value_blob(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]);
    if (n > (size_t)INT32_MAX / 2) {
        sqlite3_result_error_toobig(ctx);
        return;
    }
    unsigned char *o = sqlite3_malloc64(4 * ((n + 2) / 3) + 1);
    if (!o) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    int len = n ? EVP_EncodeBlock(o, p, (int)n) : 0;
    if (n && len <= 0) {
        sqlite3_free(o);
        sqlite3_result_error(ctx, "base64 needs libcrypto, which is not available", -1);
        return;
    }
    sqlite3_result_text(ctx, (char *)o, len, sqlite3_free);
}

/* ------------------------------------------------------------- regexps */

static void re_free(void *p)
{
    regfree(p);
    floe__free(p);
}

regex_t *floe__sql_regex(sqlite3_context *ctx, sqlite3_value **argv, int k)
{
    regex_t *re = sqlite3_get_auxdata(ctx, k);
    if (re)
        return re;
    const char *pat = (const char *)sqlite3_value_text(argv[k]);
    if (!(re = floe__calloc(1, sizeof *re))) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    int rc = regcomp(re, pat ? pat : "", REG_EXTENDED);
    if (rc != 0) {
        char msg[128];
        regerror(rc, re, msg, sizeof msg);
        floe__free(re);
        char *m = sqlite3_mprintf("invalid regular expression '%s': %s", pat, msg);
        sqlite3_result_error(ctx, m ? m : "invalid regular expression", -1);
        sqlite3_free(m);
        return NULL;
    }
    sqlite3_set_auxdata(ctx, k, re, re_free);
    if (!(re = sqlite3_get_auxdata(ctx, k)))
        sqlite3_result_error_nomem(ctx);
    return re;
}

/* regexp_replace(s, re, rep[, pos]): every match from character pos on
 * replaced; in rep `$n` is group n and `\x` is x (Java's replaceAll). */
static void regexp_replace_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    regex_t *re = floe__sql_regex(ctx, argv, 1);
    if (!re)
        return;
    size_t n, nr;
    const char *s = text(argv[0], &n), *rep = text(argv[2], &nr);
    int64_t pos = argc > 3 ? sqlite3_value_int64(argv[3]) : 1;
    if (pos < 1) {
        sqlite3_result_error(ctx, "regexp_replace: the position must be positive", -1);
        return;
    }
    floe_buf b = FLOE_BUF_INIT;
    size_t at = char_off(s, n, pos - 1);
    int rc = floe__buf_put(&b, s, at);
    regmatch_t m[10];
    while (rc == 0 && at <= n) {
        if (regexec(re, s + at, 10, m, at ? REG_NOTBOL : 0) != 0)
            break;
        size_t ms = at + (size_t)m[0].rm_so, me = at + (size_t)m[0].rm_eo;
        rc = floe__buf_put(&b, s + at, ms - at);
        for (size_t i = 0; i < nr && rc == 0; i++) {
            if (rep[i] == '\\' && i + 1 < nr) {
                rc = floe__buf_putc(&b, rep[++i]);
            } else if (rep[i] == '$' && i + 1 < nr && isdigit((unsigned char)rep[i + 1])) {
                int g = rep[++i] - '0';
                if (g > (int)re->re_nsub) {
                    rc = -1;
                    break;
                }
                if (m[g].rm_so >= 0)
                    rc = floe__buf_put(&b, s + at + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
            } else {
                rc = floe__buf_putc(&b, rep[i]);
            }
        }
        if (me == ms) { /* an empty match: keep the next character */
            if (ms >= n)
                break;
            size_t l = cp_len((unsigned char)s[ms]);
            if (rc == 0)
                rc = floe__buf_put(&b, s + ms, l);
            me = ms + l;
        }
        at = me;
    }
    if (rc == -1) {
        floe__buf_free(&b);
        sqlite3_result_error(ctx, "regexp_replace: no group of that number", -1);
        return;
    }
    if (rc == 0 && at < n)
        rc = floe__buf_put(&b, s + at, n - at);
    result_buf(ctx, rc, &b);
}

/* regexp_extract(s, re[, idx=1]): group idx of the first match, "" when
 * nothing matches or the group did not take part. */
static void regexp_extract_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    regex_t *re = floe__sql_regex(ctx, argv, 1);
    if (!re)
        return;
    int64_t g = argc > 2 ? sqlite3_value_int64(argv[2]) : 1;
    if (g < 0 || g > (int64_t)re->re_nsub || g > 9) {
        char *msg =
            sqlite3_mprintf("Regex group count is %d, but the specified group index is %lld",
                            (int)re->re_nsub, (long long)g);
        sqlite3_result_error(ctx, msg ? msg : "regexp_extract: bad group index", -1);
        sqlite3_free(msg);
        return;
    }
    size_t n;
    const char *s = text(argv[0], &n);
    regmatch_t m[10];
    if (regexec(re, s, 10, m, 0) != 0 || m[g].rm_so < 0) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    sqlite3_result_text(ctx, s + m[g].rm_so, (int)(m[g].rm_eo - m[g].rm_so), SQLITE_TRANSIENT);
}

/* split(s, re[, limit]): the parts between matches as a JSON array (the
 * session's arrays); trailing empty parts are kept, a limit > 0 caps the
 * count (the last part holds the rest), an empty pattern splits into
 * characters. */
static void split_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    NUL_OUT(ctx, argv, argc);
    size_t n, np;
    const char *s = text(argv[0], &n);
    text(argv[1], &np);
    int64_t limit = argc > 2 ? sqlite3_value_int64(argv[2]) : -1;
    regex_t *re = np ? floe__sql_regex(ctx, argv, 1) : NULL;
    if (np && !re)
        return;
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    floe__jw_arr(&w);
    int64_t count = 0;
    size_t start = 0, at = 0;
    while (n && (limit <= 0 || count < limit - 1)) {
        size_t ms, me;
        if (!np) {
            if (at >= n)
                break;
            ms = at + cp_len((unsigned char)s[at]);
            if (ms >= n)
                break;
            me = ms;
        } else {
            regmatch_t m[1];
            if (at > n || regexec(re, s + at, 1, m, at ? REG_NOTBOL : 0) != 0)
                break;
            ms = at + (size_t)m[0].rm_so;
            me = at + (size_t)m[0].rm_eo;
            if (me == ms && ms == 0) { /* no empty leading part for a zero-width match */
                at = cp_len((unsigned char)s[0]);
                continue;
            }
        }
        floe__jw_strn(&w, s + start, ms - start);
        count++;
        start = me;
        at = !np || me > ms ? me : ms < n ? ms + cp_len((unsigned char)s[ms]) : n + 1;
    }
    floe__jw_strn(&w, s + start, n - start);
    floe__jw_arr_end(&w);
    floe__sql_result_json(ctx, &w, &b);
}

/* ------------------------------------------------------------- registry */

int floe__sql_register_scalar_functions(floe_sql_session *s)
{
    const int det = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    static const struct {
        const char *name;
        int nargs;
        intptr_t data;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        {"pmod", 2, 0, pmod_fn},
        {"greatest", -1, 1, extreme_fn},
        {"least", -1, 0, extreme_fn},
        {"sign", 1, 0, sign_fn},
        {"signum", 1, 0, sign_fn},
        {"nvl2", 3, 0, nvl2_fn},
        {"isnull", 1, 1, isnull_fn},
        {"isnotnull", 1, 0, isnull_fn},
        {"shiftleft", 2, 0, shift_fn},
        {"shiftright", 2, 1, shift_fn},
        {"shiftrightunsigned", 2, 2, shift_fn},
        {"factorial", 1, 0, factorial_fn},
        {"ln", 1, 0, log_fn},
        {"log", 1, 0, log_fn},
        {"log", 2, 0, log_fn},
        {"log10", 1, 10, log_fn},
        {"log2", 1, 2, log_fn},
        {"try_divide", 2, 0, try_divide_fn},
        {"try_add", 2, 0, try_arith_fn},
        {"try_subtract", 2, 1, try_arith_fn},
        {"try_multiply", 2, 2, try_arith_fn},
        {"hex", 1, 0, hex_fn},
        {"conv", 3, 0, conv_fn},
        {"substr", 2, 0, substr_fn},
        {"substr", 3, 0, substr_fn},
        {"substring", 2, 0, substr_fn},
        {"substring", 3, 0, substr_fn},
        {"left", 2, 0, left_right_fn},
        {"right", 2, 1, left_right_fn},
        {"lpad", 2, 0, pad_fn},
        {"lpad", 3, 0, pad_fn},
        {"rpad", 2, 1, pad_fn},
        {"rpad", 3, 1, pad_fn},
        {"locate", 2, 0, locate_fn},
        {"locate", 3, 0, locate_fn},
        {"reverse", 1, 0, reverse_fn},
        {"repeat", 2, 0, repeat_fn},
        {"space", 1, 0, space_fn},
        {"initcap", 1, 0, initcap_fn},
        {"startswith", 2, 0, affix_fn},
        {"endswith", 2, 1, affix_fn},
        {"contains", 2, 2, affix_fn},
        {"translate", 3, 0, translate_fn},
        {"ascii", 1, 0, ascii_fn},
        {"chr", 1, 0, chr_fn},
        {"char", 1, 0, chr_fn},
        {"split_part", 3, 0, split_part_fn},
        {"md5", 1, 0, md5_fn},
        {"sha2", 2, 0, sha2_fn},
        {"base64", 1, 0, base64_fn},
        {"regexp_replace", 3, 0, regexp_replace_fn},
        {"regexp_replace", 4, 0, regexp_replace_fn},
        {"regexp_extract", 2, 0, regexp_extract_fn},
        {"regexp_extract", 3, 0, regexp_extract_fn},
        {"split", 2, 0, split_fn},
        {"split", 3, 0, split_fn},
    };
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fns); k++)
        if (sqlite3_create_function(s->db, fns[k].name, fns[k].nargs, det, (void *)fns[k].data,
                                    fns[k].fn, NULL, NULL) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[k].name,
                               sqlite3_errmsg(s->db));
    return 0;
}
