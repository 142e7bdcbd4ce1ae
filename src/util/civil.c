/* SPDX-License-Identifier: Apache-2.0 */
/* Calendar arithmetic: see civil.h. Eras are 400 years (146097 days); the
 * day count is split into era and day of era by floor division first, so
 * no step adds an offset to a value that may be at the end of the range. */
#include "civil.h"

int64_t floe__days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 && y > INT64_MIN;
    const int64_t era = floe__floordiv(y, 400);
    const unsigned yoe = (unsigned)floe__floormod(y, 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    /* 128-bit: era * 146097 leaves int64 for |y| past ~2.5e16. */
    __extension__ __int128 z = (__int128)era * 146097 + (__int128)doe - 719468;
    return z > INT64_MAX ? INT64_MAX : z < INT64_MIN ? INT64_MIN : (int64_t)z;
}

void floe__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    /* Hinnant shifts the epoch to 0000-03-01 (z + 719468); done on the
     * remainder here, so z may be INT64_MAX. */
    int64_t era = floe__floordiv(z, 146097);
    int64_t r = floe__floormod(z, 146097) + 719468;
    era += r / 146097;
    const unsigned doe = (unsigned)(r % 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t yy = (int64_t)yoe + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yy + (*m <= 2);
}

bool floe__days_add_months(int64_t days, int64_t months, int64_t *out)
{
    if (months > 12 * 1000000LL || months < -12 * 1000000LL)
        return false;
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(days, &y, &m, &d);
    int64_t t = y * 12 + (m - 1) + months, y2 = floe__floordiv(t, 12);
    unsigned m2 = (unsigned)floe__floormod(t, 12) + 1;
    int64_t first = floe__days_from_civil(y2, m2, 1);
    int64_t next =
        m2 == 12 ? floe__days_from_civil(y2 + 1, 1, 1) : floe__days_from_civil(y2, m2 + 1, 1);
    *out = first + ((int64_t)d - 1 < next - first ? (int64_t)d - 1 : next - first - 1);
    return true;
}
