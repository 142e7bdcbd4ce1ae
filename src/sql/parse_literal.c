/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DATE and TIMESTAMP literal text as Spark accepts it, normalised to the
 * text representation floe sql uses inside SQLite: dates 'YYYY-MM-DD',
 * timestamps 'YYYY-MM-DD HH:MM:SS.ffffff' (microseconds, Iceberg's
 * timestamp precision). A literal with an explicit zone (Z, +hh:mm, +hhmm,
 * +hh, UTC) is converted to UTC; without one it is a wall-clock time in the
 * session time zone, left for the executor to interpret.
 */
#include "sql/sqlfront_int.h"
#include "util/civil.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Read 1..maxd digits; returns the count read (0 = none). */
static int digits(const char **s, int maxd, long *out)
{
    long v = 0;
    int k = 0;
    while (k < maxd && isdigit((unsigned char)**s)) {
        v = v * 10 + (**s - '0');
        (*s)++;
        k++;
    }
    *out = v;
    return k;
}

static int days_in_month(long y, long m)
{
    static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return dm[m - 1];
}

/* YYYY-M[M]-D[D]; advances *s. */
static int parse_ymd(const char **s, long *y, long *m, long *d)
{
    if (digits(s, 4, y) != 4 || **s != '-')
        return -1;
    (*s)++;
    if (!digits(s, 2, m) || **s != '-')
        return -1;
    (*s)++;
    if (!digits(s, 2, d))
        return -1;
    if (*y < 1 || *m < 1 || *m > 12 || *d < 1 || *d > days_in_month(*y, *m))
        return -1;
    return 0;
}

int floe__sql_norm_date(floe_arena *a, const char *s, const char **out)
{
    long y, m, d;
    while (*s == ' ')
        s++;
    if (parse_ymd(&s, &y, &m, &d) < 0)
        return FLOE_EINVALID;
    while (*s == ' ')
        s++;
    if (*s)
        return FLOE_EINVALID;
    *out = floe__arena_sprintf(a, "%04ld-%02ld-%02ld", y, m, d);
    return *out ? 0 : floe__error_nomem();
}

int floe__sql_norm_timestamp(floe_arena *a, const char *s, const char **out, bool *utc)
{
    long y, mo, d, h = 0, mi = 0, sec = 0, frac = 0;
    *utc = false;
    while (*s == ' ')
        s++;
    if (parse_ymd(&s, &y, &mo, &d) < 0)
        return FLOE_EINVALID;
    if (*s == ' ' || *s == 'T') {
        s++;
        if (!digits(&s, 2, &h) || *s != ':')
            return FLOE_EINVALID;
        s++;
        if (digits(&s, 2, &mi) != 2)
            return FLOE_EINVALID;
        if (*s == ':') {
            s++;
            if (digits(&s, 2, &sec) != 2)
                return FLOE_EINVALID;
            if (*s == '.') {
                s++;
                int k = 0;
                while (isdigit((unsigned char)*s)) {
                    if (k < 6) /* beyond microseconds: truncated */
                        frac = frac * 10 + (*s - '0');
                    k++;
                    s++;
                }
                if (!k || k > 9)
                    return FLOE_EINVALID;
                for (; k < 6; k++)
                    frac *= 10;
            }
        }
    }
    if (h > 23 || mi > 59 || sec > 59)
        return FLOE_EINVALID;
    long off_min = 0;
    while (*s == ' ')
        s++;
    if (*s == 'Z' || *s == 'z') {
        *utc = true;
        s++;
    } else if (!strncmp(s, "UTC", 3)) {
        *utc = true;
        s += 3;
    } else if (*s == '+' || *s == '-') {
        int sign = *s == '-' ? -1 : 1;
        s++;
        long oh, om = 0;
        if (digits(&s, 2, &oh) != 2)
            return FLOE_EINVALID;
        if (*s == ':')
            s++;
        if (isdigit((unsigned char)*s) && digits(&s, 2, &om) != 2)
            return FLOE_EINVALID;
        if (oh > 18 || om > 59)
            return FLOE_EINVALID;
        off_min = sign * (oh * 60 + om);
        *utc = true;
    }
    while (*s == ' ')
        s++;
    if (*s)
        return FLOE_EINVALID;
    if (off_min) {
        int64_t days = floe__days_from_civil(y, (unsigned)mo, (unsigned)d);
        int64_t mins = days * 1440 + h * 60 + mi - off_min;
        days = floe__floordiv(mins, 1440);
        mins = floe__floormod(mins, 1440);
        int64_t yy;
        unsigned um, ud;
        floe__civil_from_days(days, &yy, &um, &ud);
        if (yy < 1 || yy > 9999)
            return FLOE_EINVALID;
        y = (long)yy;
        mo = um;
        d = ud;
        h = (long)(mins / 60);
        mi = (long)(mins % 60);
    }
    *out = floe__arena_sprintf(a, "%04ld-%02ld-%02ld %02ld:%02ld:%02ld.%06ld", y, mo, d, h, mi, sec,
                               frac);
    return *out ? 0 : floe__error_nomem();
}
