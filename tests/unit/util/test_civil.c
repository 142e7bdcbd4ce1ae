/* SPDX-License-Identifier: Apache-2.0 */
/* util/civil: floor division and the Gregorian day count at the ends of the
 * int64 range (issue #21 item 17: floormod(INT64_MIN, 10^6) overflowed).
 * Expected dates come from Python's datetime reduced by 400-year cycles and
 * from Spark's documented timestamp range (-290308-12-21T19:59:05.224192 to
 * +294247-01-10T04:00:54.775807). */
#include "harness.h"
#include "util/civil.h"

static void test_floor_extremes(void)
{
    FT_EQ_INT(floe__floordiv(INT64_MIN, 1000000), -9223372036855LL);
    FT_EQ_INT(floe__floormod(INT64_MIN, 1000000), 224192);
    FT_EQ_INT(floe__floordiv(INT64_MAX, 1000000), 9223372036854LL);
    FT_EQ_INT(floe__floormod(INT64_MAX, 1000000), 775807);
    FT_EQ_INT(floe__floordiv(INT64_MIN, 1), INT64_MIN);
    FT_EQ_INT(floe__floormod(INT64_MIN, 1), 0);
    FT_EQ_INT(floe__floordiv(INT64_MIN, INT64_MAX), -2);
    FT_EQ_INT(floe__floormod(INT64_MIN, INT64_MAX), INT64_MAX - 1);
    FT_EQ_INT(floe__floordiv(-1, 86400), -1);
    FT_EQ_INT(floe__floormod(-1, 86400), 86399);
    FT_EQ_INT(floe__floordiv(-86400, 86400), -1);
    FT_EQ_INT(floe__floormod(-86400, 86400), 0);
}

static void check_civil(int64_t z, int64_t ey, unsigned em, unsigned ed)
{
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(z, &y, &m, &d);
    FT_EQ_INT(y, ey);
    FT_EQ_INT(m, em);
    FT_EQ_INT(d, ed);
    FT_EQ_INT(floe__days_from_civil(ey, em, ed), z);
}

static void test_civil_extremes(void)
{
    check_civil(0, 1970, 1, 1);
    check_civil(-1, 1969, 12, 31);
    check_civil(INT64_MAX, 25252734927768524LL, 7, 27);
    check_civil(INT64_MIN, -25252734927764585LL, 6, 7);
    check_civil(INT32_MAX, 5881580, 7, 11);
    check_civil(INT32_MIN, -5877641, 6, 23);
    /* the days of the int64 microsecond timestamps' ends */
    check_civil(106751991, 294247, 1, 10);
    check_civil(-106751992, -290308, 12, 21);
    /* a day count that does not fit saturates */
    FT_EQ_INT(floe__days_from_civil(INT64_MAX, 12, 31), INT64_MAX);
    FT_EQ_INT(floe__days_from_civil(INT64_MIN, 1, 1), INT64_MIN);
}

static void test_wrap_i32(void)
{
    FT_EQ_INT(floe__wrap_i32(2562047788LL), -1732919508);
    FT_EQ_INT(floe__wrap_i32(-2562047789LL), 1732919507);
    FT_EQ_INT(floe__wrap_i32(-1), -1);
    FT_EQ_INT(floe__wrap_i32(INT32_MIN), INT32_MIN);
    FT_EQ_INT(floe__wrap_i32(INT64_MIN), 0);
}

/* Java's LocalDate.plusMonths (Spark's add_months): the day of month is
 * clamped to the target month's length, leap years included. */
static int64_t plus_months(int64_t y, unsigned m, unsigned d, int64_t months)
{
    int64_t out = 0;
    FT_CHECK(floe__days_add_months(floe__days_from_civil(y, m, d), months, &out));
    return out;
}

static void test_add_months(void)
{
    FT_EQ_INT(plus_months(2024, 1, 31, 1), floe__days_from_civil(2024, 2, 29));
    FT_EQ_INT(plus_months(2023, 1, 31, 1), floe__days_from_civil(2023, 2, 28));
    FT_EQ_INT(plus_months(2024, 3, 31, -1), floe__days_from_civil(2024, 2, 29));
    FT_EQ_INT(plus_months(2024, 2, 29, -12), floe__days_from_civil(2023, 2, 28));
    FT_EQ_INT(plus_months(2024, 2, 29, 48), floe__days_from_civil(2028, 2, 29));
    FT_EQ_INT(plus_months(2016, 8, 31, 1), floe__days_from_civil(2016, 9, 30)); /* Spark's doc */
    FT_EQ_INT(plus_months(1970, 1, 15, -13), floe__days_from_civil(1968, 12, 15));
    FT_EQ_INT(plus_months(2026, 12, 4, 0), floe__days_from_civil(2026, 12, 4));
    int64_t out = 0;
    FT_CHECK(!floe__days_add_months(0, 12 * 1000000LL + 1, &out));
    FT_CHECK(!floe__days_add_months(0, INT64_MIN, &out));
}

static const ft_case cases[] = {
    {"add_months", test_add_months},
    {"floor_extremes", test_floor_extremes},
    {"civil_extremes", test_civil_extremes},
    {"wrap_i32", test_wrap_i32},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
