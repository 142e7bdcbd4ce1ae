/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/fn_datetime: Spark 3.5's date and timestamp functions as SQLite
 * functions of the same name (spark.sql.ansi.enabled=false: an input that
 * is not a date / timestamp, or a result out of range, is NULL).
 *
 * Values are floe sql's text forms inside SQLite (parse_literal.c): dates
 * 'YYYY-MM-DD', timestamps 'YYYY-MM-DD HH:MM:SS.ffffff', the wall clock of
 * the session time zone. An argument is read with the TIMESTAMP literal
 * grammar (a date is its midnight); functions that cross to instants
 * (timestamp_seconds) use the session zone as cast_datetime does.
 *
 *   date_trunc(unit, ts)   YEAR|YYYY|YY, QUARTER, MONTH|MM|MON, WEEK (Monday),
 *                          DAY|DD, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND
 *   trunc(date, unit)      YEAR|YYYY|YY, QUARTER, MONTH|MM|MON, WEEK -> date
 *   dayofweek quarter weekofyear (ISO) last_day add_months months_between
 *   make_date make_timestamp next_day date_part unix_date date_from_unix_date
 *   timestamp_seconds
 */
#include "sql/exec_int.h"
#include "sql/sqlfront_int.h"

#include "rows/rowsource.h"
#include "util/civil.h"
#include "util/time.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* A civil date and time of day (microseconds). */
typedef struct dt {
    int64_t days; /* since 1970-01-01 */
    int64_t y;
    unsigned m, d;
    int64_t tod_us; /* time of day */
} dt;

static void dt_from_days(dt *v, int64_t days, int64_t tod_us)
{
    v->days = days;
    v->tod_us = tod_us;
    floe__civil_from_days(days, &v->y, &v->m, &v->d);
}

/* Read a date or timestamp argument; false for NULL or unparsable text. */
static bool arg_dt(sqlite3_value *x, dt *out)
{
    if (sqlite3_value_type(x) != SQLITE_TEXT)
        return false;
    const char *s = (const char *)sqlite3_value_text(x);
    floe_arena *a = floe__arena_new(128);
    if (!a || !s)
        return floe__arena_free(a), false;
    const char *v = NULL;
    bool utc = false;
    long y, mo, d, h, mi, sec, us;
    bool ok = floe__sql_norm_timestamp(a, s, &v, &utc) == 0 &&
              sscanf(v, "%4ld-%2ld-%2ld %2ld:%2ld:%2ld.%6ld", &y, &mo, &d, &h, &mi, &sec, &us) == 7;
    floe__arena_free(a);
    if (!ok)
        return false;
    dt_from_days(out, floe__days_from_civil(y, (unsigned)mo, (unsigned)d),
                 ((h * 60 + mi) * 60 + sec) * 1000000LL + us);
    return true;
}

static bool valid_year(int64_t y)
{
    return y >= 1 && y <= 9999;
}

static void result_date(sqlite3_context *ctx, int64_t days)
{
    dt v;
    dt_from_days(&v, days, 0);
    if (!valid_year(v.y)) {
        sqlite3_result_null(ctx);
        return;
    }
    char buf[16];
    snprintf(buf, sizeof buf, "%04d-%02u-%02u", (int)v.y, v.m, v.d);
    sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

static void result_ts(sqlite3_context *ctx, int64_t days, int64_t tod_us)
{
    days += floe__floordiv(tod_us, 86400000000LL);
    tod_us = floe__floormod(tod_us, 86400000000LL);
    dt v;
    dt_from_days(&v, days, tod_us);
    if (!valid_year(v.y)) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t s = tod_us / 1000000;
    char buf[40];
    snprintf(buf, sizeof buf, "%04d-%02u-%02u %02d:%02d:%02d.%06d", (int)v.y, v.m, v.d,
             (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60), (int)(tod_us % 1000000));
    sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

static bool any_null(int argc, sqlite3_value **argv)
{
    for (int k = 0; k < argc; k++)
        if (sqlite3_value_type(argv[k]) == SQLITE_NULL)
            return true;
    return false;
}

static bool is_unit(const char *u, const char *const *names)
{
    for (; *names; names++)
        if (!strcasecmp(u, *names))
            return true;
    return false;
}

static const char *const U_YEAR[] = {"YEAR", "YYYY", "YY", NULL};
static const char *const U_QUARTER[] = {"QUARTER", NULL};
static const char *const U_MONTH[] = {"MONTH", "MM", "MON", NULL};
static const char *const U_WEEK[] = {"WEEK", NULL};

static int days_in_month(int64_t y, unsigned m)
{
    int64_t next =
        m == 12 ? floe__days_from_civil(y + 1, 1, 1) : floe__days_from_civil(y, m + 1, 1);
    return (int)(next - floe__days_from_civil(y, m, 1));
}

/* Monday = 0 .. Sunday = 6 (1970-01-01 was a Thursday). */
static int weekday_mon0(int64_t days)
{
    return (int)floe__floormod(days + 3, 7);
}

/* The first day of v's year, quarter, month or week; false for another unit. */
static bool trunc_days(const dt *v, const char *u, int64_t *out)
{
    if (is_unit(u, U_YEAR))
        *out = floe__days_from_civil(v->y, 1, 1);
    else if (is_unit(u, U_QUARTER))
        *out = floe__days_from_civil(v->y, (v->m - 1) / 3 * 3 + 1, 1);
    else if (is_unit(u, U_MONTH))
        *out = floe__days_from_civil(v->y, v->m, 1);
    else if (is_unit(u, U_WEEK))
        *out = v->days - weekday_mon0(v->days);
    else
        return false;
    return true;
}

static void date_trunc_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    dt v;
    const char *u = (const char *)sqlite3_value_text(argv[0]);
    if (!u || !arg_dt(argv[1], &v)) {
        sqlite3_result_null(ctx);
        return;
    }
    static const struct {
        const char *name;
        int64_t us;
    } fine[] = {{"DAY", 86400000000LL}, {"DD", 86400000000LL}, {"HOUR", 3600000000LL},
                {"MINUTE", 60000000LL}, {"SECOND", 1000000LL}, {"MILLISECOND", 1000LL},
                {"MICROSECOND", 1LL}};
    int64_t days;
    if (trunc_days(&v, u, &days)) {
        result_ts(ctx, days, 0);
        return;
    }
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fine); k++)
        if (!strcasecmp(u, fine[k].name)) {
            result_ts(ctx, v.days, v.tod_us - v.tod_us % fine[k].us);
            return;
        }
    sqlite3_result_null(ctx);
}

static void trunc_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    dt v;
    int64_t days;
    const char *u = (const char *)sqlite3_value_text(argv[1]);
    if (!u || !arg_dt(argv[0], &v) || !trunc_days(&v, u, &days)) {
        sqlite3_result_null(ctx);
        return;
    }
    result_date(ctx, days);
}

/* ISO-8601 week of the year (weeks start Monday; week 1 holds the year's
 * first Thursday), as Spark's weekofyear. */
static int iso_week(const dt *v)
{
    int64_t thursday = v->days - weekday_mon0(v->days) + 3;
    dt t;
    dt_from_days(&t, thursday, 0);
    return (int)((thursday - floe__days_from_civil(t.y, 1, 1)) / 7 + 1);
}

enum { F_DOW, F_QUARTER, F_WEEK, F_UNIX_DATE, F_LAST_DAY };

static void field_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    dt v;
    if (!arg_dt(argv[0], &v)) {
        sqlite3_result_null(ctx);
        return;
    }
    switch ((int)(intptr_t)sqlite3_user_data(ctx)) {
    case F_DOW: sqlite3_result_int(ctx, (weekday_mon0(v.days) + 1) % 7 + 1); return;
    case F_QUARTER: sqlite3_result_int(ctx, (int)(v.m - 1) / 3 + 1); return;
    case F_WEEK: sqlite3_result_int(ctx, iso_week(&v)); return;
    case F_UNIX_DATE: sqlite3_result_int64(ctx, v.days); return;
    default:
        result_date(ctx, floe__days_from_civil(v.y, v.m, (unsigned)days_in_month(v.y, v.m)));
        return;
    }
}

static void add_months_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    dt v;
    if (any_null(2, argv) || !arg_dt(argv[0], &v)) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t n = sqlite3_value_int64(argv[1]);
    if (n > 120000 || n < -120000) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t days = 0;
    if (floe__days_add_months(v.days, n, &days))
        result_date(ctx, days);
    else
        sqlite3_result_null(ctx);
}

/* Spark's DateTimeUtils.monthsBetween: whole months when both days of
 * month agree or both are month ends, else the difference in seconds over
 * a 31-day month; rounded to 8 digits unless roundOff is false. */
static void months_between_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    dt a, b;
    if (any_null(argc, argv) || !arg_dt(argv[0], &a) || !arg_dt(argv[1], &b)) {
        sqlite3_result_null(ctx);
        return;
    }
    bool round_off = argc < 3 || sqlite3_value_int(argv[2]);
    int64_t months = (a.y * 12 + a.m) - (b.y * 12 + b.m);
    bool a_end = a.d == (unsigned)days_in_month(a.y, a.m);
    bool b_end = b.d == (unsigned)days_in_month(b.y, b.m);
    if (a.d == b.d || (a_end && b_end)) {
        sqlite3_result_double(ctx, (double)months);
        return;
    }
    double sa = (double)(a.d - 1) * 86400 + (double)a.tod_us / 1e6;
    double sb = (double)(b.d - 1) * 86400 + (double)b.tod_us / 1e6;
    double r = (double)months + (sa - sb) / (31.0 * 86400);
    if (round_off)
        r = round(r * 1e8) / 1e8;
    sqlite3_result_double(ctx, r);
}

/* An integer argument (INTEGER, or a REAL / text with an integral value). */
static bool arg_int(sqlite3_value *x, int64_t *out)
{
    int t = sqlite3_value_numeric_type(x);
    if (t == SQLITE_INTEGER) {
        *out = sqlite3_value_int64(x);
        return true;
    }
    if (t == SQLITE_FLOAT) {
        double d = sqlite3_value_double(x);
        if (d != floor(d) || fabs(d) > 1e15)
            return false;
        *out = (int64_t)d;
        return true;
    }
    return false;
}

/* y-m-d as days when it is a real date of years 1..9999. */
static bool civil_ok(int64_t y, int64_t m, int64_t d, int64_t *days)
{
    if (!valid_year(y) || m < 1 || m > 12 || d < 1 || d > days_in_month(y, (unsigned)m))
        return false;
    *days = floe__days_from_civil(y, (unsigned)m, (unsigned)d);
    return true;
}

static void make_date_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int64_t y, m, d, days;
    if (arg_int(argv[0], &y) && arg_int(argv[1], &m) && arg_int(argv[2], &d) &&
        civil_ok(y, m, d, &days))
        result_date(ctx, days);
    else
        sqlite3_result_null(ctx);
}

/* make_timestamp(y, mo, d, h, mi, sec): sec may carry a fraction (up to
 * microseconds); 60 with no fraction is the next minute, as Spark. */
static void make_timestamp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int64_t f[5], days;
    if (argc != 6 || any_null(argc, argv)) {
        sqlite3_result_null(ctx);
        return;
    }
    for (int k = 0; k < 5; k++)
        if (!arg_int(argv[k], &f[k])) {
            sqlite3_result_null(ctx);
            return;
        }
    double sec = sqlite3_value_double(argv[5]);
    int64_t sec_us = (int64_t)llround(sec * 1e6);
    if (!civil_ok(f[0], f[1], f[2], &days) || f[3] < 0 || f[3] > 23 || f[4] < 0 || f[4] > 59 ||
        sec_us < 0 || (sec_us >= 60000000 && sec_us != 60000000)) {
        sqlite3_result_null(ctx);
        return;
    }
    result_ts(ctx, days, (f[3] * 3600 + f[4] * 60) * 1000000 + sec_us);
}

static void date_from_unix_date_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int64_t n;
    if (!arg_int(argv[0], &n) || n > 3000000 || n < -3000000)
        sqlite3_result_null(ctx);
    else
        result_date(ctx, n);
}

/* timestamp_seconds(n): the instant n seconds after the epoch, as the
 * session zone's wall clock. */
static void timestamp_seconds_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) {
        sqlite3_result_null(ctx);
        return;
    }
    double d = sqlite3_value_double(argv[0]);
    if (!(fabs(d) < 2.5e11)) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t us =
        t == SQLITE_INTEGER ? sqlite3_value_int64(argv[0]) * 1000000 : (int64_t)llround(d * 1e6);
    floe_sql_session *ses = sqlite3_user_data(ctx);
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__rs_format_timestamp_us(us, ses ? ses->tz : NULL, &b);
    floe__sql_result_text(ctx, rc, b.ptr);
    floe__buf_free(&b);
}

/* next_day(date, 'Mon'|'Monday'|'MO', ...): the first later date on that
 * day of the week. */
static void next_day_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    static const char *const names[7][3] = {{"MO", "MON", "MONDAY"},    {"TU", "TUE", "TUESDAY"},
                                            {"WE", "WED", "WEDNESDAY"}, {"TH", "THU", "THURSDAY"},
                                            {"FR", "FRI", "FRIDAY"},    {"SA", "SAT", "SATURDAY"},
                                            {"SU", "SUN", "SUNDAY"}};
    dt v;
    const char *w = (const char *)sqlite3_value_text(argv[1]);
    if (!w || !arg_dt(argv[0], &v)) {
        sqlite3_result_null(ctx);
        return;
    }
    for (int k = 0; k < 7; k++)
        for (int j = 0; j < 3; j++)
            if (!strcasecmp(w, names[k][j])) {
                int ahead = (k - weekday_mon0(v.days) + 7) % 7;
                result_date(ctx, v.days + (ahead ? ahead : 7));
                return;
            }
    sqlite3_result_null(ctx);
}

/* date_part(field, source) / extract: the integer fields. */
static void date_part_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    dt v;
    const char *f = (const char *)sqlite3_value_text(argv[0]);
    if (!f || !arg_dt(argv[1], &v)) {
        sqlite3_result_null(ctx);
        return;
    }
    static const struct {
        const char *name;
        int which;
    } m[] = {{"YEAR", 0}, {"Y", 0},      {"YEARS", 0}, {"YR", 0},   {"YRS", 0},    {"QUARTER", 1},
             {"QTR", 1},  {"MONTH", 2},  {"MON", 2},   {"MONS", 2}, {"MONTHS", 2}, {"WEEK", 3},
             {"W", 3},    {"WEEKS", 3},  {"DAY", 4},   {"D", 4},    {"DAYS", 4},   {"DAYOFWEEK", 5},
             {"DOW", 5},  {"DOY", 6},    {"HOUR", 7},  {"H", 7},    {"HOURS", 7},  {"HR", 7},
             {"HRS", 7},  {"MINUTE", 8}, {"M", 8},     {"MIN", 8},  {"MINS", 8},   {"MINUTES", 8}};
    for (size_t k = 0; k < FLOE_ARRAY_LEN(m); k++) {
        if (strcasecmp(f, m[k].name) != 0)
            continue;
        int64_t r;
        switch (m[k].which) {
        case 0: r = v.y; break;
        case 1: r = (v.m - 1) / 3 + 1; break;
        case 2: r = v.m; break;
        case 3: r = iso_week(&v); break;
        case 4: r = v.d; break;
        case 5: r = (weekday_mon0(v.days) + 1) % 7 + 1; break;
        case 6: r = v.days - floe__days_from_civil(v.y, 1, 1) + 1; break;
        case 7: r = v.tod_us / 3600000000LL; break;
        default: r = v.tod_us / 60000000LL % 60; break;
        }
        sqlite3_result_int64(ctx, r);
        return;
    }
    sqlite3_result_error(ctx, "[INVALID_EXTRACT_FIELD] Cannot extract from the source", -1);
}

/* ------------------------------------------------- datetime patterns */

/* Spark 3.5's datetime patterns ("Datetime Patterns for Formatting and
 * Parsing"; java.time's DateTimeFormatter with Locale.US, y read as the
 * proleptic year, parsing case-insensitive with the STRICT resolver) compiled
 * once per statement: a list of fields (a letter repeated `count` times),
 * literal texts and optional sections ([ ]). */
typedef struct pat_el {
    char letter; /* 0: literal text; '[' and ']': optional section */
    uint8_t count;
    uint16_t off, len; /* literal: its bytes in dt_pattern.text */
} pat_el;

typedef struct dt_pattern {
    size_t n;
    pat_el *el;
    char *text;
} dt_pattern;

static const char *const MONTHS[12] = {"January",   "February", "March",    "April",
                                       "May",       "June",     "July",     "August",
                                       "September", "October",  "November", "December"};
static const char *const WEEKDAYS[7] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                        "Friday", "Saturday", "Sunday"};

/* The largest count of each letter java.time accepts (Spark: 4 for text). */
static int max_count(char c)
{
    switch (c) {
    case 'd':
    case 'H':
    case 'h':
    case 'K':
    case 'k':
    case 'm':
    case 's': return 2;
    case 'D': return 3;
    case 'a': return 1;
    case 'y': return 10;
    case 'S': return 9;
    case 'G':
    case 'M':
    case 'L':
    case 'E':
    case 'Q':
    case 'q':
    case 'z': return 4;
    case 'V': return 2;
    case 'O': return 4;
    case 'X':
    case 'x':
    case 'Z': return 5;
    default: return 0; /* not a letter floe supports */
    }
}

/* Compile `p`; on a bad pattern sets ctx's error (Spark's message) and
 * returns NULL (also on no memory). */
static dt_pattern *pattern_compile(sqlite3_context *ctx, const char *p, bool parsing)
{
    size_t len = strlen(p);
    if (len > 4096) {
        sqlite3_result_error(ctx, "datetime pattern too long", -1);
        return NULL;
    }
    dt_pattern *d = floe__calloc(1, sizeof *d + (len + 2) * sizeof(pat_el) + len + 1);
    if (!d) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    d->el = (pat_el *)(d + 1);
    d->text = (char *)(d->el + len + 2);
    size_t tl = 0;
    char msg[160];
    int depth = 0;
    for (size_t i = 0; i < len;) {
        char c = p[i];
        if (isalpha((unsigned char)c)) {
            size_t j = i;
            while (p[j] == c)
                j++;
            size_t count = j - i;
            int mx = max_count(c);
            if (c == 'u')
                snprintf(msg, sizeof msg,
                         "Pattern letter 'u'(Day number of week) is not supported since Spark "
                         "3.0. Please use 'e' or 'E'(day-of-week) instead.");
            else if (strchr("AcnNp", c) || (parsing && strchr("YWwEeFqQ", c)))
                snprintf(msg, sizeof msg, "Illegal pattern character: %c", c);
            else if (count >= 5 && strchr("GMLEeQq", c))
                snprintf(msg, sizeof msg, "Too many pattern letters: %c", c);
            else if (!mx)
                snprintf(msg, sizeof msg,
                         strchr("YwWeFgB", c) ? "unsupported: datetime pattern letter %c"
                                              : "Unknown pattern letter: %c",
                         c);
            else if (c == 'V' && count != 2)
                snprintf(msg, sizeof msg, "Pattern letter count must be 2: V");
            else if (c == 'O' && count != 1 && count != 4)
                snprintf(msg, sizeof msg, "Pattern letter count must be 1 or 4: O");
            else if (count > (size_t)mx)
                snprintf(msg, sizeof msg, "Too many pattern letters: %c", c);
            else
                msg[0] = '\0';
            if (msg[0]) {
                floe__free(d);
                sqlite3_result_error(ctx, msg, -1);
                return NULL;
            }
            d->el[d->n++] = (pat_el){c == 'L' ? 'M' : c == 'q' ? 'Q' : c, (uint8_t)count, 0, 0};
            i = j;
            continue;
        }
        if (c == '[' || c == ']') {
            if (c == ']' && depth == 0) {
                floe__free(d);
                sqlite3_result_error(ctx, "Pattern invalid as it contains ] without previous [",
                                     -1);
                return NULL;
            }
            depth += c == '[' ? 1 : -1;
            d->el[d->n++] = (pat_el){c, 0, 0, 0};
            i++;
            continue;
        }
        if (c == '{' || c == '}' || c == '#') {
            floe__free(d);
            snprintf(msg, sizeof msg, "Pattern includes reserved character: '%c'", c);
            sqlite3_result_error(ctx, msg, -1);
            return NULL;
        }
        /* literal text: one byte, or '...' with '' for a quote */
        size_t start = tl;
        if (c != '\'') {
            d->text[tl++] = c;
            i++;
        } else if (p[i + 1] == '\'') {
            d->text[tl++] = '\'';
            i += 2;
        } else {
            for (i++;; i++) {
                if (!p[i]) {
                    floe__free(d);
                    snprintf(msg, sizeof msg,
                             "Pattern ends with an incomplete string literal: %.100s", p);
                    sqlite3_result_error(ctx, msg, -1);
                    return NULL;
                }
                if (p[i] == '\'' && p[i + 1] != '\'')
                    break;
                if (p[i] == '\'')
                    i++;
                d->text[tl++] = p[i];
            }
            i++;
        }
        if (d->n && d->el[d->n - 1].letter == 0 &&
            d->el[d->n - 1].off + d->el[d->n - 1].len == start)
            d->el[d->n - 1].len = (uint16_t)(d->el[d->n - 1].len + tl - start);
        else
            d->el[d->n++] = (pat_el){0, 0, (uint16_t)start, (uint16_t)(tl - start)};
    }
    while (depth-- > 0) /* an optional section ends with the pattern */
        d->el[d->n++] = (pat_el){']', 0, 0, 0};
    return d;
}

/* The compiled pattern of argv[k] (NULL: the argument is NULL, or ctx's
 * error is set; *is_null tells). Cached for the statement when constant. */
static dt_pattern *pattern_arg(sqlite3_context *ctx, sqlite3_value **argv, int k, bool parsing,
                               bool *is_null)
{
    *is_null = false;
    dt_pattern *d = sqlite3_get_auxdata(ctx, k);
    if (d)
        return d;
    const char *p = (const char *)sqlite3_value_text(argv[k]);
    if (!p) {
        *is_null = true;
        return NULL;
    }
    d = pattern_compile(ctx, p, parsing);
    if (!d)
        return NULL;
    sqlite3_set_auxdata(ctx, k, d, floe__free);
    if (!(d = sqlite3_get_auxdata(ctx, k)))
        sqlite3_result_error_nomem(ctx);
    return d;
}

/* A wall-clock time to format: its fields, the zone's offset then (seconds)
 * and the zone's name. */
typedef struct fmt_in {
    dt v;
    int32_t off;
    const char *zone;
} fmt_in;

static int put_num(floe_buf *b, int64_t v, int width)
{
    return floe__buf_printf(b, "%0*" PRId64, width, v);
}

/* An offset as java.time's offset printers: X/x (count 1-5), Z, O. */
static int put_offset(floe_buf *b, char letter, int count, int32_t off)
{
    if (letter == 'O' || (letter == 'Z' && count == 4)) {
        FLOE_TRY(floe__buf_puts(b, "GMT"));
        if (!off)
            return 0;
        int32_t a = off < 0 ? -off : off;
        FLOE_TRY(floe__buf_putc(b, off < 0 ? '-' : '+'));
        if (letter == 'O' && count == 1) {
            FLOE_TRY(floe__buf_printf(b, "%d", a / 3600));
            if (a % 3600)
                FLOE_TRY(floe__buf_printf(b, ":%02d", a / 60 % 60));
        } else {
            FLOE_TRY(floe__buf_printf(b, "%02d:%02d", a / 3600, a / 60 % 60));
        }
        return a % 60 ? floe__buf_printf(b, ":%02d", a % 60) : 0;
    }
    if (letter == 'Z' && count <= 3)
        count = 2; /* +HHMM, +0000 for zero */
    else if (letter == 'Z')
        letter = 'X'; /* ZZZZZ: +HH:MM[:SS], Z for zero */
    if (!off && letter == 'X')
        return floe__buf_putc(b, 'Z');
    int32_t a = off < 0 ? -off : off;
    bool colon = count == 3 || count == 5;
    FLOE_TRY(floe__buf_printf(b, "%c%02d", off < 0 ? '-' : '+', a / 3600));
    if (count > 1 || a / 60 % 60)
        FLOE_TRY(floe__buf_printf(b, "%s%02d", colon ? ":" : "", a / 60 % 60));
    if (count >= 4 && a % 60)
        FLOE_TRY(floe__buf_printf(b, "%s%02d", colon ? ":" : "", a % 60));
    return 0;
}

static int pattern_format(const dt_pattern *d, const fmt_in *in, floe_buf *b)
{
    const dt *v = &in->v;
    int64_t sec = v->tod_us / 1000000, hour = sec / 3600;
    for (size_t k = 0; k < d->n; k++) {
        const pat_el *e = &d->el[k];
        int c = e->count;
        switch (e->letter) {
        case 0: FLOE_TRY(floe__buf_put(b, d->text + e->off, e->len)); break;
        case '[':
        case ']': break;
        case 'G': FLOE_TRY(floe__buf_puts(b, c == 4 ? "Anno Domini" : "AD")); break;
        case 'y': FLOE_TRY(c == 2 ? put_num(b, v->y % 100, 2) : put_num(b, v->y, c)); break;
        case 'M':
            if (c >= 3)
                FLOE_TRY(floe__buf_printf(b, "%.*s", c == 3 ? 3 : 20, MONTHS[v->m - 1]));
            else
                FLOE_TRY(put_num(b, v->m, c));
            break;
        case 'd': FLOE_TRY(put_num(b, v->d, c)); break;
        case 'D': FLOE_TRY(put_num(b, v->days - floe__days_from_civil(v->y, 1, 1) + 1, c)); break;
        case 'Q': {
            int q = (int)(v->m - 1) / 3 + 1;
            static const char *const nth[] = {"1st", "2nd", "3rd", "4th"};
            FLOE_TRY(c == 3   ? floe__buf_printf(b, "Q%d", q)
                     : c == 4 ? floe__buf_printf(b, "%s quarter", nth[q - 1])
                              : put_num(b, q, c));
            break;
        }
        case 'E':
            FLOE_TRY(floe__buf_printf(b, "%.*s", c == 4 ? 20 : 3, WEEKDAYS[weekday_mon0(v->days)]));
            break;
        case 'a': FLOE_TRY(floe__buf_puts(b, hour < 12 ? "AM" : "PM")); break;
        case 'H': FLOE_TRY(put_num(b, hour, c)); break;
        case 'k': FLOE_TRY(put_num(b, hour ? hour : 24, c)); break;
        case 'K': FLOE_TRY(put_num(b, hour % 12, c)); break;
        case 'h': FLOE_TRY(put_num(b, hour % 12 ? hour % 12 : 12, c)); break;
        case 'm': FLOE_TRY(put_num(b, sec / 60 % 60, c)); break;
        case 's': FLOE_TRY(put_num(b, sec % 60, c)); break;
        case 'S': {
            char f[16];
            snprintf(f, sizeof f, "%06d000", (int)(v->tod_us % 1000000));
            FLOE_TRY(floe__buf_put(b, f, (size_t)c));
            break;
        }
        case 'V': FLOE_TRY(floe__buf_puts(b, in->zone)); break;
        case 'z':
            FLOE_TRY(floe__buf_puts(
                b, !strcmp(in->zone, "UTC") && c == 4 ? "Coordinated Universal Time" : in->zone));
            break;
        default: FLOE_TRY(put_offset(b, e->letter, c, in->off)); break;
        }
    }
    return 0;
}

/* The session and its zone's name as Spark shows it. */
static const floe_tz *session_tz(sqlite3_context *ctx)
{
    floe_sql_session *ses = sqlite3_user_data(ctx);
    return ses ? ses->tz : NULL;
}

static void result_formatted(sqlite3_context *ctx, const dt_pattern *d, const fmt_in *in)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, "");
    if (rc == 0)
        rc = pattern_format(d, in, &b);
    if (rc < 0)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, b.ptr, (int)b.len, SQLITE_TRANSIENT);
    floe__buf_free(&b);
}

/* The wall clock of instant `utc_s` (+ us) in the session zone. */
static void fmt_in_instant(fmt_in *in, const floe_tz *tz, int64_t utc_s, int64_t us)
{
    in->off = tz ? floe__tz_offset_at(tz, utc_s) : 0;
    in->zone = tz ? floe__tz_name(tz) : "UTC";
    int64_t local = utc_s + in->off;
    dt_from_days(&in->v, floe__floordiv(local, 86400), floe__floormod(local, 86400) * 1000000 + us);
}

/* date_format(ts, fmt): ts (a date, timestamp or timestamp text) in the
 * session zone. */
static void date_format_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    bool is_null;
    dt_pattern *d = pattern_arg(ctx, argv, 1, false, &is_null);
    fmt_in in;
    if (!d) {
        if (is_null)
            sqlite3_result_null(ctx);
        return;
    }
    if (!arg_dt(argv[0], &in.v)) {
        sqlite3_result_null(ctx);
        return;
    }
    const floe_tz *tz = session_tz(ctx);
    int64_t local = in.v.days * 86400 + in.v.tod_us / 1000000;
    in.off = tz ? floe__tz_offset_at(tz, floe__tz_local_to_utc(tz, local)) : 0;
    in.zone = tz ? floe__tz_name(tz) : "UTC";
    result_formatted(ctx, d, &in);
}

/* from_unixtime(seconds [, fmt]): default 'yyyy-MM-dd HH:mm:ss'. */
static void from_unixtime_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char DEFAULT[] = "yyyy-MM-dd HH:mm:ss";
    bool is_null = false;
    dt_pattern *d = NULL, *own = NULL;
    if (argc > 1)
        d = pattern_arg(ctx, argv, 1, false, &is_null);
    else
        d = own = pattern_compile(ctx, DEFAULT, false);
    int t = sqlite3_value_numeric_type(argv[0]);
    if (d && (t == SQLITE_INTEGER || t == SQLITE_FLOAT)) {
        double x = sqlite3_value_double(argv[0]);
        if (fabs(x) < 2.5e11) {
            fmt_in in;
            fmt_in_instant(&in, session_tz(ctx),
                           t == SQLITE_INTEGER ? sqlite3_value_int64(argv[0]) : (int64_t)x, 0);
            if (valid_year(in.v.y))
                result_formatted(ctx, d, &in);
            else
                sqlite3_result_null(ctx);
        } else {
            sqlite3_result_null(ctx);
        }
    } else if (d || is_null) {
        sqlite3_result_null(ctx);
    }
    floe__free(own);
}

/* -------- parsing */

enum { P_YEAR, P_YY, P_MONTH, P_DAY, P_DOY, P_H, P_k, P_K, P_h, P_AMPM, P_MIN, P_SEC, P_NANO, P_N };

typedef struct parsed {
    int64_t f[P_N];
    unsigned has; /* bit per field */
    bool has_off;
    int32_t off;
    floe_tz *zone; /* a zone named in the text (free it) */
} parsed;

static bool set_field(parsed *r, int f, int64_t v)
{
    if ((r->has >> f) & 1)
        return r->f[f] == v;
    r->f[f] = v;
    r->has |= 1u << f;
    return true;
}

/* Numeric widths (min, max) of a field as java.time parses it. */
static void num_width(const pat_el *e, int *mn, int *mx)
{
    int c = e->count;
    if (e->letter == 'y') {
        *mn = c == 2 ? 2 : c;
        *mx = c == 2 ? 2 : 19;
    } else if (e->letter == 'D' && c == 2) {
        *mn = 2;
        *mx = 3;
    } else {
        *mn = c;
        *mx = c == 1 ? 19 : c;
    }
}

static bool is_num_letter(char c)
{
    return c && strchr("yMdDHkKhms", c);
}

static bool is_num(const pat_el *e)
{
    return is_num_letter(e->letter) && !(e->letter == 'M' && e->count >= 3);
}

/* The digits the fixed-width numeric fields right after element k need
 * (java.time's adjacent value parsing: yyyyMMdd). */
static int reserved_width(const dt_pattern *d, size_t k)
{
    int w = 0;
    for (size_t j = k + 1; j < d->n && is_num(&d->el[j]); j++) {
        int mn, mx;
        num_width(&d->el[j], &mn, &mx);
        if (mn != mx)
            break;
        w += mn;
    }
    return w;
}

static size_t digit_run(const char *s)
{
    size_t n = 0;
    while (isdigit((unsigned char)s[n]))
        n++;
    return n;
}

/* One of `n` names (or their first 3 letters when `shrt`), case-insensitive. */
static int match_name(const char **s, const char *const *names, int n, bool shrt)
{
    for (int k = 0; k < n; k++) {
        size_t l = shrt ? 3 : strlen(names[k]);
        if (!strncasecmp(*s, names[k], l)) {
            *s += l;
            return k;
        }
    }
    return -1;
}

/* [+-]HH[[:]MM[[:]SS]] (minutes required when `need_min`). */
static bool parse_offset_num(const char **s, bool colon, bool need_min, int32_t *off)
{
    const char *p = *s;
    if (*p != '+' && *p != '-')
        return false;
    int sign = *p++ == '-' ? -1 : 1;
    if (digit_run(p) < 2)
        return false;
    int32_t h = (p[0] - '0') * 10 + (p[1] - '0'), m = 0, sec = 0;
    p += 2;
    for (int part = 0; part < 2; part++) {
        const char *q = p + (colon && *p == ':');
        if ((colon && *p != ':') || digit_run(q) < 2) {
            if (part == 0 && need_min)
                return false;
            break;
        }
        int32_t v = (q[0] - '0') * 10 + (q[1] - '0');
        if (v > 59)
            return false;
        *(part ? &sec : &m) = v;
        p = q + 2;
    }
    if (h > 18)
        return false;
    *off = sign * (h * 3600 + m * 60 + sec);
    *s = p;
    return true;
}

/* GMT[+H[H][:MM[:SS]]] (the localized offset, O / ZZZZ). */
static bool parse_offset_gmt(const char **s, int32_t *off)
{
    if (strncasecmp(*s, "GMT", 3) != 0)
        return false;
    const char *p = *s + 3;
    *off = 0;
    if (*p == '+' || *p == '-') {
        int sign = *p == '-' ? -1 : 1;
        size_t n = digit_run(p + 1);
        if (n < 1)
            return false;
        n = n > 2 ? 2 : n;
        int32_t h = 0;
        for (size_t k = 0; k < n; k++)
            h = h * 10 + (p[1 + k] - '0');
        p += 1 + n;
        int32_t ms[2] = {0, 0};
        for (int part = 0; part < 2 && *p == ':' && digit_run(p + 1) >= 2; part++) {
            ms[part] = (p[1] - '0') * 10 + (p[2] - '0');
            p += 3;
        }
        if (h > 18 || ms[0] > 59 || ms[1] > 59)
            return false;
        *off = sign * (h * 3600 + ms[0] * 60 + ms[1]);
    }
    *s = p;
    return true;
}

/* A zone name (UTC, Z, Europe/Amsterdam, +02:00). */
static bool parse_zone(const char **s, parsed *r)
{
    size_t n = 0;
    char name[64];
    while (n < sizeof name - 1 && (isalnum((unsigned char)(*s)[n]) || strchr("/_+-:", (*s)[n])) &&
           (*s)[n])
        n++;
    for (; n > 0; n--) { /* the longest prefix that names a zone */
        memcpy(name, *s, n);
        name[n] = '\0';
        floe_tz *tz = NULL;
        if (floe__tz_load(&tz, name) == 0) {
            floe__tz_free(r->zone);
            r->zone = tz;
            *s += n;
            return true;
        }
    }
    return false;
}

static bool parse_els(const dt_pattern *d, size_t *k, const char **sp, parsed *r);

/* Parse from element *k up to the end of the pattern or of the optional
 * section *k is in (consumed); false when the text does not match. */
static bool parse_els(const dt_pattern *d, size_t *k, const char **sp, parsed *r)
{
    const char *s = *sp;
    for (; *k < d->n; (*k)++) {
        const pat_el *e = &d->el[*k];
        int c = e->count;
        if (e->letter == ']')
            break;
        if (e->letter == '[') {
            size_t j = *k + 1;
            const char *t = s;
            parsed save = *r;
            save.zone = NULL;
            if (parse_els(d, &j, &t, r)) {
                s = t;
            } else { /* the section is missing: skip to its end */
                if (r->zone != save.zone)
                    floe__tz_free(r->zone);
                *r = save;
                int depth = 0;
                for (j = *k + 1; j < d->n; j++) {
                    if (d->el[j].letter == '[')
                        depth++;
                    else if (d->el[j].letter == ']' && depth-- == 0)
                        break;
                }
            }
            *k = j;
            continue;
        }
        if (e->letter == 0) {
            if (strncasecmp(s, d->text + e->off, e->len) != 0)
                return false;
            s += e->len;
            continue;
        }
        if (is_num(e)) {
            int mn, mx;
            num_width(e, &mn, &mx);
            int reserve = mn != mx ? reserved_width(d, *k) : 0;
            int run = (int)digit_run(s);
            if (run > mx + reserve)
                run = mx + reserve;
            int take = run - reserve < mn ? mn : run - reserve;
            if (take > mx)
                take = mx;
            if (take > run || take > 18)
                return false;
            int64_t v = 0;
            for (int j = 0; j < take; j++)
                v = v * 10 + (s[j] - '0');
            s += take;
            static const char letters[] = "yMdDHkKhms";
            static const int fields[] = {P_YEAR, P_MONTH, P_DAY, P_DOY, P_H,
                                         P_k,    P_K,     P_h,   P_MIN, P_SEC};
            int f = fields[strchr(letters, e->letter) - letters];
            if (f == P_YEAR && c == 2)
                f = P_YY;
            if (!set_field(r, f, v))
                return false;
            continue;
        }
        int32_t off;
        switch (e->letter) {
        case 'M': {
            int m = match_name(&s, MONTHS, 12, c == 3);
            if (m < 0 || !set_field(r, P_MONTH, m + 1))
                return false;
            break;
        }
        case 'a': {
            static const char *const ampm[] = {"AM", "PM"};
            int a = match_name(&s, ampm, 2, false);
            if (a < 0 || !set_field(r, P_AMPM, a))
                return false;
            break;
        }
        case 'G': {
            static const char *const era[] = {"Anno Domini", "AD"};
            if (match_name(&s, era + (c < 4), 1, false) < 0)
                return false;
            break;
        }
        case 'S': {
            int run = (int)digit_run(s);
            if (run < 1)
                return false;
            run = run > c ? c : run;
            int64_t ns = 0;
            for (int j = 0; j < 9; j++)
                ns = ns * 10 + (j < run ? s[j] - '0' : 0);
            s += run;
            if (!set_field(r, P_NANO, ns))
                return false;
            break;
        }
        case 'V':
        case 'z':
            if (!parse_zone(&s, r))
                return false;
            break;
        case 'O':
            if (!parse_offset_gmt(&s, &off))
                return false;
            r->has_off = true, r->off = off;
            break;
        default: /* X x Z */
            if ((e->letter == 'X' || (e->letter == 'Z' && c == 5)) && (*s == 'Z' || *s == 'z')) {
                s++;
                off = 0;
            } else if (e->letter == 'Z' && c == 4) {
                if (!parse_offset_gmt(&s, &off))
                    return false;
            } else if (!parse_offset_num(&s, c == 3 || c == 5 || (e->letter == 'Z' && c == 5),
                                         c == 2 || c == 3 || (e->letter == 'Z' && c < 4), &off)) {
                return false;
            }
            r->has_off = true, r->off = off;
            break;
        }
    }
    *sp = s;
    return true;
}

static bool has(const parsed *r, int f)
{
    return (r->has >> f) & 1;
}

/* The parsed fields as an instant (microseconds since the epoch), as
 * Spark's DateTimeFormatterHelper resolves them: missing date fields are
 * 1970-01-01, a missing hour 0 (12 for PM alone); then the STRICT checks. */
static bool resolve(parsed *r, const floe_tz *session, int64_t *us)
{
    int64_t y = has(r, P_YEAR) ? r->f[P_YEAR] : has(r, P_YY) ? 2000 + r->f[P_YY] : 1970;
    if (has(r, P_YEAR) && has(r, P_YY) && r->f[P_YEAR] != 2000 + r->f[P_YY])
        return false;
    int64_t days;
    if (has(r, P_DOY)) {
        int64_t len = floe__days_from_civil(y + 1, 1, 1) - floe__days_from_civil(y, 1, 1);
        if (!valid_year(y) || r->f[P_DOY] < 1 || r->f[P_DOY] > len)
            return false;
        days = floe__days_from_civil(y, 1, 1) + r->f[P_DOY] - 1;
        dt v;
        dt_from_days(&v, days, 0);
        if ((has(r, P_MONTH) && r->f[P_MONTH] != v.m) || (has(r, P_DAY) && r->f[P_DAY] != v.d))
            return false;
    } else if (!civil_ok(y, has(r, P_MONTH) ? r->f[P_MONTH] : 1, has(r, P_DAY) ? r->f[P_DAY] : 1,
                         &days)) {
        return false;
    }
    /* the hour: H, else k (1-24), else K / h (0-11 / 1-12) with a */
    int64_t hour, hoa = -1;
    if (has(r, P_k) && (r->f[P_k] < 1 || r->f[P_k] > 24))
        return false;
    if (has(r, P_h) && (r->f[P_h] < 1 || r->f[P_h] > 12))
        return false;
    if ((has(r, P_H) && r->f[P_H] > 23) || (has(r, P_K) && r->f[P_K] > 11))
        return false;
    if (has(r, P_k) && !set_field(r, P_H, r->f[P_k] % 24))
        return false;
    hour = has(r, P_H) ? r->f[P_H] : -1;
    if (has(r, P_h))
        hoa = r->f[P_h] % 12;
    if (has(r, P_K) && hoa >= 0 && hoa != r->f[P_K])
        return false;
    if (has(r, P_K))
        hoa = r->f[P_K];
    if (hoa >= 0) {
        int64_t h = has(r, P_AMPM) ? r->f[P_AMPM] * 12 + hoa : hoa;
        if (hour >= 0 && has(r, P_AMPM) && h != hour)
            return false;
        if (hour < 0)
            hour = h;
    } else if (hour >= 0) {
        if (has(r, P_AMPM) && r->f[P_AMPM] != (hour >= 12))
            return false;
    } else {
        hour = has(r, P_AMPM) && r->f[P_AMPM] ? 12 : 0;
    }
    int64_t mi = has(r, P_MIN) ? r->f[P_MIN] : 0, sec = has(r, P_SEC) ? r->f[P_SEC] : 0;
    if (mi > 59 || sec > 59)
        return false;
    int64_t local = days * 86400 + (hour * 60 + mi) * 60 + sec;
    int64_t utc = r->has_off ? local - r->off
                  : r->zone  ? floe__tz_local_to_utc(r->zone, local)
                  : session  ? floe__tz_local_to_utc(session, local)
                             : local;
    *us = utc * 1000000 + (has(r, P_NANO) ? r->f[P_NANO] / 1000 : 0);
    return true;
}

/* Is `s` a value in floe's own DATE ('YYYY-MM-DD') or TIMESTAMP
 * ('YYYY-MM-DD HH:MM:SS.ffffff') form? Such an argument stands for Spark's
 * DATE / TIMESTAMP argument, which the functions take as it is. */
static bool internal_form(const char *s)
{
    static const char date[] = "dddd-dd-dd", ts[] = "dddd-dd-dd dd:dd:dd.dddddd";
    size_t n = strlen(s);
    const char *f = n == sizeof date - 1 ? date : n == sizeof ts - 1 ? ts : NULL;
    for (size_t k = 0; f && k < n; k++)
        if (f[k] == 'd' ? !isdigit((unsigned char)s[k]) : s[k] != f[k])
            return false;
    return f != NULL;
}

/* Parse argv[0] with the pattern argv[1] (default `dflt`, NULL = Spark's
 * CAST instead) into an instant. 1: parsed; 0: NULL result; -1: ctx's
 * error is set. */
static int parse_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv, const char *dflt,
                     int64_t *us)
{
    bool is_null = false;
    dt_pattern *d = NULL, *own = NULL;
    if (argc > 1)
        d = pattern_arg(ctx, argv, 1, true, &is_null);
    else
        d = own = pattern_compile(ctx, dflt, true);
    if (!d)
        return is_null ? 0 : -1;
    const floe_tz *tz = session_tz(ctx);
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    int ok = 0;
    if (s) {
        parsed r;
        memset(&r, 0, sizeof r);
        size_t k = 0;
        const char *p = s;
        ok = parse_els(d, &k, &p, &r) && !*p && resolve(&r, tz, us);
        floe__tz_free(r.zone);
        dt v;
        if (!ok && internal_form(s) && arg_dt(argv[0], &v)) {
            int64_t local = v.days * 86400 + v.tod_us / 1000000;
            *us = (tz ? floe__tz_local_to_utc(tz, local) : local) * 1000000 + v.tod_us % 1000000;
            ok = 1;
        }
    }
    floe__free(own);
    return ok;
}

static void result_instant(sqlite3_context *ctx, int64_t us, bool date)
{
    fmt_in in;
    fmt_in_instant(&in, session_tz(ctx), floe__floordiv(us, 1000000), floe__floormod(us, 1000000));
    if (date)
        result_date(ctx, in.v.days);
    else
        result_ts(ctx, in.v.days, in.v.tod_us);
}

/* to_timestamp(s [, fmt]), to_date(s [, fmt]): without a pattern Spark's
 * CAST; a number is seconds since the epoch for to_timestamp. */
static void to_datetime(sqlite3_context *ctx, int argc, sqlite3_value **argv, bool date)
{
    if (argc == 1 && !date && sqlite3_value_type(argv[0]) != SQLITE_TEXT &&
        sqlite3_value_type(argv[0]) != SQLITE_NULL) {
        timestamp_seconds_fn(ctx, argc, argv);
        return;
    }
    if (argc == 1) {
        floe__sql_cast_datetime(ctx, argv[0], !date);
        return;
    }
    int64_t us;
    int rc = parse_arg(ctx, argc, argv, NULL, &us);
    if (rc > 0)
        result_instant(ctx, us, date);
    else if (rc == 0)
        sqlite3_result_null(ctx);
}

static void to_timestamp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    to_datetime(ctx, argc, argv, false);
}

static void to_date_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    to_datetime(ctx, argc, argv, true);
}

/* unix_timestamp([s [, fmt]]), to_unix_timestamp(s [, fmt]): seconds since
 * the epoch; the pattern defaults to 'yyyy-MM-dd HH:mm:ss'. */
static void unix_timestamp_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (argc == 0) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        sqlite3_result_int64(ctx, (int64_t)now.tv_sec);
        return;
    }
    int64_t us;
    int rc = parse_arg(ctx, argc, argv, "yyyy-MM-dd HH:mm:ss", &us);
    if (rc > 0)
        sqlite3_result_int64(ctx, floe__floordiv(us, 1000000));
    else if (rc == 0)
        sqlite3_result_null(ctx);
}

int floe__sql_register_datetime_functions(floe_sql_session *s)
{
    const int det = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    static const struct {
        const char *name;
        int nargs, data;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        {"date_trunc", 2, -1, date_trunc_fn},
        {"trunc", 2, -1, trunc_fn},
        {"dayofweek", 1, F_DOW, field_fn},
        {"quarter", 1, F_QUARTER, field_fn},
        {"weekofyear", 1, F_WEEK, field_fn},
        {"unix_date", 1, F_UNIX_DATE, field_fn},
        {"last_day", 1, F_LAST_DAY, field_fn},
        {"add_months", 2, -1, add_months_fn},
        {"months_between", 2, -1, months_between_fn},
        {"months_between", 3, -1, months_between_fn},
        {"make_date", 3, -1, make_date_fn},
        {"make_timestamp", 6, -1, make_timestamp_fn},
        {"date_from_unix_date", 1, -1, date_from_unix_date_fn},
        {"timestamp_seconds", 1, -2, timestamp_seconds_fn},
        {"next_day", 2, -1, next_day_fn},
        {"date_part", 2, -1, date_part_fn},
        {"date_format", 2, -2, date_format_fn},
        {"from_unixtime", 1, -2, from_unixtime_fn},
        {"from_unixtime", 2, -2, from_unixtime_fn},
        {"to_timestamp", 1, -2, to_timestamp_fn},
        {"to_timestamp", 2, -2, to_timestamp_fn},
        {"to_date", 1, -2, to_date_fn},
        {"to_date", 2, -2, to_date_fn},
        {"unix_timestamp", 0, -2, unix_timestamp_fn},
        {"unix_timestamp", 1, -2, unix_timestamp_fn},
        {"unix_timestamp", 2, -2, unix_timestamp_fn},
        {"to_unix_timestamp", 1, -2, unix_timestamp_fn},
        {"to_unix_timestamp", 2, -2, unix_timestamp_fn},
    };
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fns); k++) {
        void *data = fns[k].data == -2  ? (void *)s
                     : fns[k].data >= 0 ? (void *)(intptr_t)fns[k].data
                                        : NULL;
        /* unix_timestamp() reads the clock */
        if (sqlite3_create_function(s->db, fns[k].name, fns[k].nargs,
                                    fns[k].nargs ? det : SQLITE_UTF8, data, fns[k].fn, NULL,
                                    NULL) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[k].name,
                               sqlite3_errmsg(s->db));
    }
    return 0;
}
