/* SPDX-License-Identifier: Apache-2.0 */
/* util/time: epoch ms <-> text in UTC, fixed offsets and IANA zones (TZif). */
#include "harness.h"
#include "util/time.h"

#include <stdio.h>
#include <unistd.h>

static char *fmt(int64_t ms, const floe_tz *tz, bool iso)
{
    static char s[64];
    floe_buf b = FLOE_BUF_INIT;
    int rc = iso ? floe__time_format_iso(ms, tz, &b) : floe__time_format(ms, tz, &b);
    snprintf(s, sizeof s, "%s", rc == 0 && b.ptr ? b.ptr : "(error)");
    floe__buf_free(&b);
    return s;
}

static void test_utc_format(void)
{
    FT_EQ_STR(fmt(0, NULL, false), "1970-01-01 00:00:00");
    FT_EQ_STR(fmt(0, NULL, true), "1970-01-01T00:00:00Z");
    FT_EQ_STR(fmt(1790000000123, NULL, false), "2026-09-21 14:13:20.123");
    FT_EQ_STR(fmt(-1, NULL, false), "1969-12-31 23:59:59.999");
    FT_EQ_STR(fmt(-2208988800000, NULL, true), "1900-01-01T00:00:00Z");
}

static void test_parse_forms(void)
{
    int64_t ms;
    FT_OK(floe__time_parse("2026-09-21T10:15:30.123+02:00", NULL, &ms));
    FT_EQ_INT(ms, 1789978530123);
    FT_OK(floe__time_parse("2026-09-21 14:13:20.123", NULL, &ms));
    FT_EQ_INT(ms, 1790000000123);
    FT_OK(floe__time_parse("2026-09-21T14:13:20.123Z", NULL, &ms));
    FT_EQ_INT(ms, 1790000000123);
    FT_OK(floe__time_parse("2026-09-21T16:13:20.123456+0200", NULL, &ms));
    FT_EQ_INT(ms, 1790000000123);
    FT_OK(floe__time_parse("1970-01-01", NULL, &ms));
    FT_EQ_INT(ms, 0);
    FT_OK(floe__time_parse("1969-12-31 23:59:59.999", NULL, &ms));
    FT_EQ_INT(ms, -1);
    int64_t us;
    FT_OK(floe__time_parse_us("1970-01-01T00:00:00.012345", NULL, &us));
    FT_EQ_INT(us, 12345);
    /* nine fraction digits: truncated to micros, exact in nanoseconds */
    FT_OK(floe__time_parse_us("1970-01-01T00:00:00.012345678", NULL, &us));
    FT_EQ_INT(us, 12345);
    int64_t ns;
    FT_OK(floe__time_parse_ns("1970-01-01T00:00:00.012345678", NULL, &ns));
    FT_EQ_INT(ns, 12345678);
    FT_OK(floe__time_parse_ns("1969-12-31 23:59:59.999999999", NULL, &ns));
    FT_EQ_INT(ns, -1);
    FT_OK(floe__time_parse_ns("2024-01-02 05:04:05.123456789+02:00", NULL, &ns));
    FT_EQ_INT(ns, INT64_C(1704164645123456789));
    FT_OK(floe__time_parse_ns("2262-04-11", NULL, &ns)); /* the last whole day */
    FT_EQ_INT(floe__time_parse_ns("2300-01-01", NULL, &ns), FLOE_EINVALID);
    FT_ERR_CONTAINS("nanosecond range");
    FT_EQ_INT(floe__time_parse_ns("1600-01-01", NULL, &ns), FLOE_EINVALID);
    FT_EQ_INT(floe__time_parse_ns("1970-01-01 00:00:00.1234567891", NULL, &ns), FLOE_EINVALID);
}

static void test_parse_invalid(void)
{
    const char *bad[] = {"2026-02-30", "2026-13-01", "abc", "2026-01-01T25:00",
                         "2026-01-01 10:00:00+", "2026-01-01 10:00:00.", "2026-1-01", ""};
    for (size_t i = 0; i < FT_N(bad); i++) {
        int64_t ms;
        FT_EQ_INT(floe__time_parse(bad[i], NULL, &ms), FLOE_EINVALID);
        FT_ERR_CONTAINS("invalid timestamp");
    }
    FT_OK(floe__time_parse("2024-02-29", NULL, &(int64_t){0}));
}

static void test_fixed_zone(void)
{
    floe_tz *tz;
    FT_OK(floe__tz_load(&tz, "+05:30"));
    FT_EQ_STR(fmt(0, tz, true), "1970-01-01T05:30:00+05:30");
    int64_t ms;
    FT_OK(floe__time_parse("1970-01-01 05:30:00", tz, &ms));
    FT_EQ_INT(ms, 0);
    floe__tz_free(tz);
}

static void test_named_zone(void)
{
    if (access("/usr/share/zoneinfo/Europe/Amsterdam", R_OK) != 0) {
        ft_skip("no zoneinfo");
        return;
    }
    floe_tz *tz;
    FT_OK(floe__tz_load(&tz, "Europe/Amsterdam"));
    FT_EQ_STR(fmt(1789978530123, tz, true), "2026-09-21T10:15:30.123+02:00");
    FT_EQ_STR(fmt(1789978530123, tz, false), "2026-09-21 10:15:30.123");
    FT_EQ_STR(fmt(0, tz, true), "1970-01-01T01:00:00+01:00");
    int64_t ms;
    FT_OK(floe__time_parse("2026-09-21 10:15:30.123", tz, &ms));
    FT_EQ_INT(ms, 1789978530123);
    /* spring-forward gap: 02:30 does not exist, shifted to 03:30 CEST */
    FT_OK(floe__time_parse("2026-03-29 02:30:00", tz, &ms));
    FT_EQ_INT(ms, 1774747800000);
    /* fall-back overlap: the earlier instant (CEST) */
    FT_OK(floe__time_parse("2026-10-25 02:30:00", tz, &ms));
    FT_EQ_INT(ms, 1792888200000);
    /* beyond the transition table: the POSIX footer rule */
    FT_EQ_STR(fmt(4118119200000, tz, true), "2100-07-01T12:00:00+02:00");
    FT_EQ_STR(fmt(4102484400000, tz, true), "2100-01-01T12:00:00+01:00");
    FT_OK(floe__time_parse("2100-07-01 12:00:00", tz, &ms));
    FT_EQ_INT(ms, 4118119200000);
    /* an explicit offset wins over the zone */
    FT_OK(floe__time_parse("1970-01-01T00:00:00Z", tz, &ms));
    FT_EQ_INT(ms, 0);
    floe__tz_free(tz);
}

static void test_zone_errors(void)
{
    floe_tz *tz = NULL;
    FT_EQ_INT(floe__tz_load(&tz, "Nowhere/Atlantis"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("unknown time zone");
    FT_EQ_INT(floe__tz_load(&tz, "../../etc/passwd"), FLOE_EINVALID);
    FT_EQ_INT(floe__tz_load(&tz, "/etc/passwd"), FLOE_EINVALID);
    FT_CHECK(tz == NULL);
    floe__tz_free(NULL);
}

static void test_oom(void)
{
    for (long n = 1; n < 50; n++) {
        floe_tz *tz = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__tz_load(&tz, "Europe/Amsterdam");
        floe__alloc_fail_at(0);
        if (rc == 0) {
            floe__tz_free(tz);
            return;
        }
        FT_CHECK(rc == FLOE_ENOMEM || rc == FLOE_ENOTFOUND);
        FT_CHECK(tz == NULL);
    }
}

static const ft_case cases[] = {
    {"utc_format", test_utc_format},     {"parse_forms", test_parse_forms},
    {"parse_invalid", test_parse_invalid}, {"fixed_zone", test_fixed_zone},
    {"named_zone", test_named_zone},     {"zone_errors", test_zone_errors},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
