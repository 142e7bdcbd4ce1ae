/* SPDX-License-Identifier: Apache-2.0 */
/* Proleptic Gregorian calendar arithmetic (days since 1970-01-01 <-> y/m/d),
 * after Howard Hinnant's public-domain algorithms, and the floor division
 * every epoch split uses. All of them are defined over the whole int64
 * range (no intermediate overflows): a timestamp of INT64_MIN or INT64_MAX
 * micro- or nanoseconds splits into days and a time of day like any other. */
#ifndef FLOE_UTIL_CIVIL_H
#define FLOE_UTIL_CIVIL_H

#include <stdbool.h>
#include <stdint.h>

/* Days since 1970-01-01 of y-m-d (m 1..12, d 1..31; d past the month's end
 * runs into the next month, which callers use to reject it by round trip).
 * Every y: a day count beyond the int64 range saturates to INT64_MIN/MAX. */
int64_t floe__days_from_civil(int64_t y, unsigned m, unsigned d);
/* y-m-d of z days since 1970-01-01, for every int64 z. */
void floe__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);
/* Day `days` moved by `months` calendar months, the day of month clamped
 * to the target month's last day (Java's LocalDate.plusMonths, Spark's
 * add_months and year-month intervals). False when |months| exceeds
 * 12,000,000 (a million years). */
bool floe__days_add_months(int64_t days, int64_t months, int64_t *out);

/* Floor division and its non-negative remainder, for b > 0 and any a
 * (INT64_MIN included): floordiv(a, b) * b + floormod(a, b) == a. */
static inline int64_t floe__floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b < 0) ? q - 1 : q;
}
static inline int64_t floe__floormod(int64_t a, int64_t b)
{
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

/* Java's (int) cast of a long: the low 32 bits, two's complement (how
 * Iceberg's transforms narrow an hour count that does not fit an int). */
static inline int32_t floe__wrap_i32(int64_t v)
{
    uint32_t u = (uint32_t)(uint64_t)v;
    return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

#endif
