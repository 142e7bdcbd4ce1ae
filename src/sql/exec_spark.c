/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_spark: SQL functions with Spark 3.5's semantics where SQLite's
 * differ (spark.sql.ansi.enabled=false, Spark's default). The SQL printer
 * (print.c) emits calls to them; docs/sql.md lists what
 * each construct becomes.
 *
 * like(pattern, value [, escape]): replaces SQLite's LIKE operator, which
 * ignores ASCII case. Spark's LIKE is case-sensitive, `_` is one
 * character (not one byte), `%` any run, `\` escapes the next character.
 * A pattern made by floe_like_pattern(mode, p1, ...) (text tagged with the
 * subtype FLOE_SQL_SUBTYPE_LIKE) carries ILIKE (case-insensitive) and
 * LIKE ANY / LIKE ALL over several patterns, with SQL's three-valued
 * logic (a NULL pattern or value makes the result NULL unless another
 * pattern decides it).
 *
 * regexp(pattern, value): the REGEXP operator (Spark's RLIKE): a POSIX
 * extended regular expression found anywhere in the value (Spark uses
 * Java regexes: the common subset agrees).
 *
 * floe_cast(x, 'kind'): CAST without ANSI mode for the kinds int, bigint,
 * smallint, tinyint, double, boolean, date, timestamp: text that does not
 * parse is NULL (SQLite's CAST gives 0 or the text itself), integers wrap
 * to the target width, doubles truncate toward zero and saturate.
 *
 * floe_add_interval(x, months, us, mode): a date or timestamp plus an
 * INTERVAL literal (Spark's DateAdd, DateAddYMInterval, TimeAdd,
 * TimestampAddYMInterval).
 */
#include "sql/exec_int.h"
#include "sql/sqlfront_int.h"

#include "rows/rowsource.h"
#include "util/civil.h"
#include "util/time.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#define FLOE_SQL_SUBTYPE_LIKE 0x4C /* 'L' */
enum { LIKE_ANY = 1, LIKE_ALL = 2, LIKE_CI = 4 };

/* ------------------------------------------------------------- LIKE */

/* Next code point of UTF-8 text (invalid bytes stand for themselves). */
static unsigned next_cp(const unsigned char **s, const unsigned char *end)
{
    const unsigned char *p = *s;
    unsigned c = *p++;
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (more && end - p >= more) {
        c &= 0x3Fu >> more;
        for (int k = 0; k < more; k++)
            c = (c << 6) | (p[k] & 0x3Fu);
        p += more;
    }
    *s = p;
    return c;
}

static unsigned fold(unsigned c, bool ci)
{
    return ci && c < 128 ? (unsigned)tolower((int)c) : c;
}

/* Does value v match pattern p (Spark LIKE)? Iterative wildcard match with
 * one backtrack point at the last '%'. */
static bool like_match(const unsigned char *p, size_t np, const unsigned char *v, size_t nv,
                       unsigned esc, bool ci)
{
    const unsigned char *pe = p + np, *ve = v + nv;
    const unsigned char *star_p = NULL, *star_v = NULL;
    while (v < ve) {
        if (p < pe) {
            unsigned c = next_cp(&p, pe);
            if (c == '%') {
                star_p = p;
                star_v = v;
                continue;
            }
            const unsigned char *v0 = v;
            unsigned x = next_cp(&v, ve);
            if (c == esc && p < pe)
                c = next_cp(&p, pe);
            else if (c == '_')
                continue;
            if (fold(c, ci) == fold(x, ci))
                continue;
            v = v0;
        }
        if (!star_p)
            return false;
        p = star_p;
        next_cp(&star_v, ve);
        v = star_v;
    }
    while (p < pe && *p == '%')
        p++;
    return p == pe;
}

/* One pattern against the value: 1, 0, or -1 for NULL. */
static int like_one(const unsigned char *p, size_t np, bool pnull, sqlite3_value *val,
                    unsigned esc, bool ci)
{
    if (pnull || sqlite3_value_type(val) == SQLITE_NULL)
        return -1;
    const unsigned char *v = sqlite3_value_text(val);
    size_t nv = (size_t)sqlite3_value_bytes(val);
    return like_match(p, np, v ? v : (const unsigned char *)"", nv, esc, ci);
}

static void like_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    unsigned esc = '\\';
    if (argc == 3) {
        const unsigned char *e = sqlite3_value_text(argv[2]);
        if (!e || next_cp(&e, e + strlen((const char *)e)) == 0 || *e) {
            sqlite3_result_error(ctx, "ESCAPE expression must be a single character", -1);
            return;
        }
        e = sqlite3_value_text(argv[2]);
        esc = next_cp(&e, e + strlen((const char *)e));
    }
    const unsigned char *p = sqlite3_value_text(argv[0]);
    size_t np = (size_t)sqlite3_value_bytes(argv[0]);
    if (sqlite3_value_subtype(argv[0]) != FLOE_SQL_SUBTYPE_LIKE || !p || np < 1) {
        int r = like_one(p ? p : (const unsigned char *)"", np,
                         sqlite3_value_type(argv[0]) == SQLITE_NULL, argv[1], esc, false);
        if (r < 0)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_int(ctx, r);
        return;
    }
    /* floe_like_pattern's encoding: mode digit, then per pattern 'N' or
     * 'S' <8 hex digits length> <bytes> */
    int mode = p[0] - '0';
    bool ci = mode & LIKE_CI, all = mode & LIKE_ALL, any = mode & LIKE_ANY;
    bool saw_null = false, decided = false;
    int out = all ? 1 : 0;
    for (size_t k = 1; k < np && !decided;) {
        int r;
        if (p[k] == 'N') {
            r = -1;
            k++;
        } else {
            if (k + 9 > np)
                break;
            char hex[9];
            memcpy(hex, p + k + 1, 8);
            hex[8] = 0;
            size_t len = (size_t)strtoul(hex, NULL, 16);
            if (k + 9 + len > np)
                break;
            r = like_one(p + k + 9, len, false, argv[1], esc, ci);
            k += 9 + len;
        }
        if (r < 0)
            saw_null = true;
        else if (any && r == 1)
            out = 1, decided = true;
        else if ((all || !any) && r == 0)
            out = 0, decided = true;
        else if (!any && !all)
            out = r;
    }
    if (!decided && saw_null)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_int(ctx, out);
}

static void like_pattern_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_putc(&b, (char)('0' + (sqlite3_value_int(argv[0]) & 7)));
    for (int k = 1; k < argc && rc == 0; k++) {
        if (sqlite3_value_type(argv[k]) == SQLITE_NULL) {
            rc = floe__buf_putc(&b, 'N');
            continue;
        }
        const char *s = (const char *)sqlite3_value_text(argv[k]);
        int n = sqlite3_value_bytes(argv[k]);
        rc = floe__buf_printf(&b, "S%08x", (unsigned)n);
        if (rc == 0 && n)
            rc = floe__buf_put(&b, s, (size_t)n);
    }
    if (rc < 0) {
        floe__buf_free(&b);
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, b.ptr, (int)b.len, SQLITE_TRANSIENT);
    sqlite3_result_subtype(ctx, FLOE_SQL_SUBTYPE_LIKE);
    floe__buf_free(&b);
}

/* ------------------------------------------------------------- REGEXP */

static void regexp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    regex_t *re = floe__sql_regex(ctx, argv, 0);
    if (!re)
        return;
    const char *v = (const char *)sqlite3_value_text(argv[1]);
    sqlite3_result_int(ctx, regexec(re, v ? v : "", 0, NULL, 0) == 0);
}

/* ------------------------------------------------------------- CAST */

/* Text with surrounding whitespace (<= ' ', as Spark's trim) removed, in buf. */
static const char *trimmed(sqlite3_value *v, char *buf, size_t cap)
{
    const char *s = (const char *)sqlite3_value_text(v);
    if (!s)
        return NULL;
    size_t n = (size_t)sqlite3_value_bytes(v);
    while (n && (unsigned char)*s <= ' ')
        s++, n--;
    while (n && (unsigned char)s[n - 1] <= ' ')
        n--;
    if (n >= cap)
        return NULL;
    memcpy(buf, s, n);
    buf[n] = 0;
    return buf;
}

/* Spark's UTF8String.toLong: [+-]digits[.digits], the fraction dropped;
 * false on anything else or overflow of [lo, hi]. */
static bool text_to_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    bool neg = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
        return false;
    uint64_t acc = 0;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (acc > (UINT64_MAX - d) / 10)
            return false;
        acc = acc * 10 + d;
    }
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++)
            ;
    if (*s)
        return false;
    int64_t v;
    if (neg) {
        if (acc > (uint64_t)INT64_MAX + 1)
            return false;
        v = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc;
    } else {
        if (acc > (uint64_t)INT64_MAX)
            return false;
        v = (int64_t)acc;
    }
    if (v < lo || v > hi)
        return false;
    *out = (int64_t)v;
    return true;
}

static int64_t wrap(int64_t v, int bits)
{
    switch (bits) {
    case 32: return (int32_t)(uint32_t)(uint64_t)v;
    case 16: return (int16_t)(uint16_t)(uint64_t)v;
    case 8: return (int8_t)(uint8_t)(uint64_t)v;
    default: return v;
    }
}

static void cast_int(sqlite3_context *ctx, sqlite3_value *x, int bits)
{
    int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    char buf[128] = {0};
    int64_t v;
    switch (sqlite3_value_type(x)) {
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, wrap(sqlite3_value_int64(x), bits)); return;
    case SQLITE_FLOAT: {
        double d = sqlite3_value_double(x);
        /* Scala's Double.toInt / toLong: truncate, NaN 0, saturate at the
         * int (long) range; short and byte wrap from the int */
        int64_t top = bits == 64 ? INT64_MAX : INT32_MAX, bot = bits == 64 ? INT64_MIN : INT32_MIN;
        if (isnan(d))
            v = 0;
        else if (d >= (double)top)
            v = top;
        else if (d <= (double)bot)
            v = bot;
        else
            v = (int64_t)d;
        sqlite3_result_int64(ctx, wrap(v, bits));
        return;
    }
    case SQLITE_TEXT: {
        const char *s = trimmed(x, buf, sizeof buf);
        if (s && text_to_int(s, lo, hi, &v))
            sqlite3_result_int64(ctx, v);
        else
            sqlite3_result_null(ctx);
        return;
    }
    default: sqlite3_result_null(ctx); return;
    }
}

static void cast_double(sqlite3_context *ctx, sqlite3_value *x)
{
    char buf[128];
    if (sqlite3_value_type(x) == SQLITE_INTEGER || sqlite3_value_type(x) == SQLITE_FLOAT) {
        sqlite3_result_double(ctx, sqlite3_value_double(x));
        return;
    }
    const char *s = sqlite3_value_type(x) == SQLITE_TEXT ? trimmed(x, buf, sizeof buf) : NULL;
    char *end = NULL;
    errno = 0;
    double d = s && *s ? strtod(s, &end) : 0;
    if (!s || !*s || *end)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_double(ctx, d);
}

static void cast_bool(sqlite3_context *ctx, sqlite3_value *x)
{
    static const char *const yes[] = {"t", "true", "y", "yes", "1"};
    static const char *const no[] = {"f", "false", "n", "no", "0"};
    char buf[16];
    switch (sqlite3_value_type(x)) {
    case SQLITE_INTEGER: sqlite3_result_int(ctx, sqlite3_value_int64(x) != 0); return;
    case SQLITE_FLOAT: sqlite3_result_int(ctx, sqlite3_value_double(x) != 0); return;
    case SQLITE_TEXT: {
        const char *s = trimmed(x, buf, sizeof buf);
        for (size_t k = 0; s && k < FLOE_ARRAY_LEN(yes); k++) {
            if (strcasecmp(s, yes[k]) == 0) {
                sqlite3_result_int(ctx, 1);
                return;
            }
            if (strcasecmp(s, no[k]) == 0) {
                sqlite3_result_int(ctx, 0);
                return;
            }
        }
        sqlite3_result_null(ctx);
        return;
    }
    default: sqlite3_result_null(ctx); return;
    }
}

/* Text as a timestamp, the literal grammar (parse_literal.c): the session
 * zone's wall clock "YYYY-MM-DD HH:MM:SS[.ffffff]" in `a` (a timestamp with
 * a zone becomes the session zone's wall clock, as TIMESTAMP '...'
 * literals do). FLOE_EINVALID when it is not a timestamp. */
static int wall_clock(floe_arena *a, const char *s, const floe_tz *tz, const char **out)
{
    bool utc = false;
    FLOE_TRY(floe__sql_norm_timestamp(a, s, out, &utc));
    if (!utc)
        return 0;
    int64_t us;
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__time_parse_us(*out, NULL, &us);
    if (rc == 0)
        rc = floe__rs_format_timestamp_us(us, tz, &b);
    *out = rc == 0 ? floe__arena_strdup(a, b.ptr) : NULL;
    floe__buf_free(&b);
    return rc == 0 && !*out ? floe__error_nomem() : rc;
}

/* date and timestamp: NULL when the text is not a date / timestamp. */
void floe__sql_cast_datetime(sqlite3_context *ctx, sqlite3_value *x, bool ts)
{
    char buf[128];
    const char *s = sqlite3_value_type(x) == SQLITE_TEXT ? trimmed(x, buf, sizeof buf) : NULL;
    if (!s) {
        sqlite3_result_null(ctx);
        return;
    }
    floe_sql_session *ses = sqlite3_user_data(ctx);
    floe_arena *a = floe__arena_new(256);
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    const char *v = NULL;
    int rc = wall_clock(a, s, ses ? ses->tz : NULL, &v);
    if (rc == 0 && !ts)
        v = floe__arena_sprintf(a, "%.10s", v);
    floe__sql_result_text(ctx, rc, v);
    floe__arena_free(a);
}

void floe__sql_result_text(sqlite3_context *ctx, int rc, const char *text)
{
    if (rc == FLOE_ENOMEM || (rc == 0 && !text))
        sqlite3_result_error_nomem(ctx);
    else if (rc < 0)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
}

/* ------------------------------------------------------------- intervals */

#define US_PER_DAY 86400000000LL

/* floe_add_interval(x, months, us, mode): x plus an interval (print.c).
 * mode 'd': a date 'YYYY-MM-DD' stays a date (the interval is months or
 * whole days); otherwise x reads as a timestamp (a date at midnight) and
 * the result is one: the months move the session zone's wall clock (day
 * of month clamped), the microseconds the instant, as Spark's
 * TimestampAddYMInterval and TimeAdd. NULL when x is NULL or no date /
 * timestamp. */
static void add_interval_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *mode = (const char *)sqlite3_value_text(argv[3]);
    char buf[128];
    const char *s =
        sqlite3_value_type(argv[0]) == SQLITE_TEXT ? trimmed(argv[0], buf, sizeof buf) : NULL;
    if (!s || !mode || sqlite3_value_type(argv[1]) == SQLITE_NULL ||
        sqlite3_value_type(argv[2]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t months = sqlite3_value_int64(argv[1]), us = sqlite3_value_int64(argv[2]);
    floe_sql_session *ses = sqlite3_user_data(ctx);
    const floe_tz *tz = ses ? ses->tz : NULL;
    floe_arena *a = floe__arena_new(256);
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    floe_buf b = FLOE_BUF_INIT;
    const char *v = NULL, *date = NULL;
    int64_t wall = 0, days, inst = 0;
    bool ok;
    int rc = mode[0] == 'd' && floe__sql_norm_date(a, s, &date) == 0 && strlen(s) <= 10 ? 0 : 1;
    if (rc == 0) { /* a date */
        ok = floe__time_parse_us(date, NULL, &wall) == 0 &&
             floe__days_add_months(floe__floordiv(wall, US_PER_DAY), months, &days) &&
             !__builtin_add_overflow(days, us / US_PER_DAY, &days) &&
             !__builtin_mul_overflow(days, US_PER_DAY, &wall);
        rc = ok ? floe__rs_format_timestamp_us(wall, NULL, &b) : -1;
        if (rc == 0 && b.len >= 10)
            b.ptr[10] = 0;
    } else {
        rc = wall_clock(a, s, tz, &v);
        ok = rc == 0 && floe__time_parse_us(v, NULL, &wall) == 0 &&
             floe__days_add_months(floe__floordiv(wall, US_PER_DAY), months, &days) &&
             !__builtin_mul_overflow(days, US_PER_DAY, &inst) &&
             !__builtin_add_overflow(inst, floe__floormod(wall, US_PER_DAY), &wall);
        if (ok && tz) { /* the wall clock in the zone -> the instant */
            int64_t sec = floe__floordiv(wall, 1000000);
            wall = floe__tz_local_to_utc(tz, sec) * 1000000 + floe__floormod(wall, 1000000);
        }
        ok = ok && !__builtin_add_overflow(wall, us, &inst);
        rc = rc == FLOE_ENOMEM ? rc : ok ? floe__rs_format_timestamp_us(inst, tz, &b) : -1;
    }
    floe__sql_result_text(ctx, rc, b.ptr);
    floe__buf_free(&b);
    floe__arena_free(a);
}

static void cast_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *k = (const char *)sqlite3_value_text(argv[1]);
    if (!k) {
        sqlite3_result_error(ctx, "floe_cast: no target type", -1);
        return;
    }
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        sqlite3_result_null(ctx);
    else if (!strcmp(k, "int"))
        cast_int(ctx, argv[0], 32);
    else if (!strcmp(k, "bigint"))
        cast_int(ctx, argv[0], 64);
    else if (!strcmp(k, "smallint"))
        cast_int(ctx, argv[0], 16);
    else if (!strcmp(k, "tinyint"))
        cast_int(ctx, argv[0], 8);
    else if (!strcmp(k, "double"))
        cast_double(ctx, argv[0]);
    else if (!strcmp(k, "boolean"))
        cast_bool(ctx, argv[0]);
    else if (!strcmp(k, "date"))
        floe__sql_cast_datetime(ctx, argv[0], false);
    else if (!strcmp(k, "timestamp"))
        floe__sql_cast_datetime(ctx, argv[0], true);
    else
        sqlite3_result_error(ctx, "floe_cast: unknown target type", -1);
}

int floe__sql_register_spark_functions(floe_sql_session *s)
{
    const int det = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    static const struct {
        const char *name;
        int nargs, flags;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        {"like", 2, SQLITE_SUBTYPE, like_fn},
        {"like", 3, SQLITE_SUBTYPE, like_fn},
        {"floe_like_pattern", -1, 0, like_pattern_fn},
        {"regexp", 2, 0, regexp_fn},
        {"floe_cast", 2, 0, cast_fn},
        {"floe_add_interval", 4, 0, add_interval_fn},
    };
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fns); k++)
        if (sqlite3_create_function(s->db, fns[k].name, fns[k].nargs, det | fns[k].flags, s,
                                    fns[k].fn, NULL, NULL) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[k].name,
                               sqlite3_errmsg(s->db));
    return 0;
}
