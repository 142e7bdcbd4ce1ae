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

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

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
    int64_t mm = v.y * 12 + (v.m - 1) + n;
    int64_t y = floe__floordiv(mm, 12);
    unsigned m = (unsigned)floe__floormod(mm, 12) + 1;
    int dim = valid_year(y) ? days_in_month(y, m) : 31;
    result_date(ctx, floe__days_from_civil(y, m, v.d > (unsigned)dim ? (unsigned)dim : v.d));
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
    if (rc == FLOE_ENOMEM)
        sqlite3_result_error_nomem(ctx);
    else if (rc < 0)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_text(ctx, b.ptr, -1, SQLITE_TRANSIENT);
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
        if (strcasecmp(f, m[k].name))
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
    };
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fns); k++) {
        void *data = fns[k].data == -2  ? (void *)s
                     : fns[k].data >= 0 ? (void *)(intptr_t)fns[k].data
                                        : NULL;
        if (sqlite3_create_function(s->db, fns[k].name, fns[k].nargs, det, data, fns[k].fn, NULL,
                                    NULL) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[k].name,
                               sqlite3_errmsg(s->db));
    }
    return 0;
}
