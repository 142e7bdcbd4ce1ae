/* SPDX-License-Identifier: Apache-2.0 */
/* Proleptic Gregorian calendar arithmetic (days since 1970-01-01 <-> y/m/d),
 * after Howard Hinnant's public-domain algorithms. */
#ifndef FLOE_UTIL_CIVIL_H
#define FLOE_UTIL_CIVIL_H

#include <stdint.h>

int64_t floe__days_from_civil(int64_t y, unsigned m, unsigned d);
void floe__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);
/* Floor division helpers for negative epochs. */
static inline int64_t floe__floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t floe__floormod(int64_t a, int64_t b)
{
    return a - floe__floordiv(a, b) * b;
}

#endif
