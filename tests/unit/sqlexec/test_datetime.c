/* SPDX-License-Identifier: Apache-2.0 */
/* sql/fn_datetime: Spark 3.5's datetime patterns ("Datetime Patterns for
 * Formatting and Parsing") in date_format, from_unixtime, to_timestamp,
 * to_date, unix_timestamp and to_unix_timestamp, in a session (its time
 * zone), with the results java.time gives for Locale.US. */
#include "session_fixture.h"

#include <string.h>

/* Run `q` (csv) and compare its output with `want` (header included). */
#define EXPECT_CSV(s, out, q, want)                                                                \
    do {                                                                                           \
        (out).len = 0;                                                                             \
        FT_OK(floe__sql_session_run((s), (q), NULL));                                              \
        FT_EQ_STR((out).len ? (out).ptr : "", (want));                                             \
    } while (0)

static void test_format(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    EXPECT_CSV(s, out,
               "SELECT date_format(TIMESTAMP'2024-01-15 13:05:09.123456', 'hh:mm:ss a') AS a, "
               "date_format(TIMESTAMP'2024-01-15 13:05:09.123456', 'EEEE d MMMM yyyy') AS b, "
               "date_format(TIMESTAMP'2024-01-15 13:05:09.123456', 'EEE MMM yy H:m:s.SSS') AS c, "
               "date_format(TIMESTAMP'2024-01-15 13:05:09.123456', 'SSSSSSSS S') AS d",
               "a,b,c,d\n01:05:09 PM,Monday 15 January 2024,Mon Jan 24 13:5:9.123,12345600 1\n");
    /* the four hour letters at midnight and noon, day of year, quarter */
    EXPECT_CSV(s, out,
               "SELECT date_format(TIMESTAMP'2024-02-29 00:07:00', 'H k K h a D DDD') AS a, "
               "date_format(TIMESTAMP'2024-12-31 12:00:00', 'HH kk KK hh a D Q QQQ QQQQ') AS b",
               "a,b\n0 24 0 12 AM 60 060,12 12 00 12 PM 366 4 Q4 4th quarter\n");
    /* quoted text and '' */
    EXPECT_CSV(s, out,
               "SELECT date_format(DATE'2024-01-05', \"yyyy'T'MM 'o''clock' '' d\") AS a, "
               "date_format(DATE'2024-01-05', 'yyyyy G GGGG') AS b",
               "a,b\n2024T01 o'clock ' 5,02024 AD Anno Domini\n");
    /* offsets in UTC */
    EXPECT_CSV(s, out,
               "SELECT date_format(DATE'2024-01-05', 'X XX XXX x xxx Z ZZZZ ZZZZZ O VV z') AS a",
               "a\nZ Z Z +00 +00:00 +0000 GMT Z GMT UTC UTC\n");
    EXPECT_CSV(s, out,
               "SELECT from_unixtime(0) AS a, from_unixtime(1705314600, 'yyyy/MM/dd hh a') AS b, "
               "from_unixtime(NULL) AS c, date_format(NULL, 'yyyy') AS d, "
               "date_format(DATE'2024-01-05', NULL) AS e, date_format('garbage', 'yyyy') AS f",
               "a,b,c,d,e,f\n1970-01-01 00:00:00,2024/01/15 10 AM,,,,\n");
    floe__sql_session_free(s);
}

static void test_parse(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    /* 12-hour clock: 12 AM is midnight; a missing date is 1970-01-01 */
    EXPECT_CSV(s, out,
               "SELECT to_timestamp('01:05 PM', 'hh:mm a') AS a, "
               "to_timestamp('12:30 am 2024-01-15', 'hh:mm a yyyy-MM-dd') AS b, "
               "to_timestamp('12:30 PM 2024-01-15', 'hh:mm a yyyy-MM-dd') AS c, "
               "to_timestamp('2024-01-15 7', 'yyyy-MM-dd K') AS d",
               "a,b,c,d\n1970-01-01 13:05:00,2024-01-15 00:30:00,2024-01-15 12:30:00,"
               "2024-01-15 07:00:00\n");
    /* month names (any case), adjacent numbers, two-digit years */
    EXPECT_CSV(
        s, out,
        "SELECT to_date('Jan 5 2024', 'MMM d yyyy') AS a, "
        "to_date('5 FEBRUARY 2024', 'd MMMM yyyy') AS b, to_date('20240105', 'yyyyMMdd') AS c, "
        "to_date('05/01/24', 'dd/MM/yy') AS d, to_date('2024-060', 'yyyy-DDD') AS e",
        "a,b,c,d,e\n2024-01-05,2024-02-05,2024-01-05,2024-01-05,2024-02-29\n");
    /* fractions: 1 to the count of S digits */
    EXPECT_CSV(s, out,
               "SELECT to_timestamp('2024-01-15 10:30:00.12', 'yyyy-MM-dd HH:mm:ss.SSS') AS a, "
               "to_timestamp('2024-01-15 10:30:00.1234', 'yyyy-MM-dd HH:mm:ss.SSS') AS b, "
               "to_timestamp('2024-01-15 10:30:00.123456', 'yyyy-MM-dd HH:mm:ss.SSSSSS') AS c",
               "a,b,c\n2024-01-15 10:30:00.12,,2024-01-15 10:30:00.123456\n");
    /* unparsable (invalid date, hour, trailing text, a one-digit MM) is NULL */
    EXPECT_CSV(
        s, out,
        "SELECT to_date('2024-02-30', 'yyyy-MM-dd') AS a, "
        "to_timestamp('2024-01-15 24:00', 'yyyy-MM-dd HH:mm') AS b, "
        "to_date('2024-01-15x', 'yyyy-MM-dd') AS c, to_date('2024-1-15', 'yyyy-MM-dd') AS d, "
        "to_timestamp(NULL, 'yyyy') AS e, to_timestamp('2024', NULL) AS f, "
        "to_timestamp('13:00 AM', 'HH:mm a') AS g",
        "a,b,c,d,e,f,g\n,,,,,,\n");
    /* an offset or zone in the text wins over the session's */
    EXPECT_CSV(s, out,
               "SELECT to_timestamp('2024-01-15 10:30+01:00', 'yyyy-MM-dd HH:mmXXX') AS a, "
               "to_timestamp('2024-01-15 10:30 Z', 'yyyy-MM-dd HH:mm X') AS b, "
               "to_timestamp('2024-01-15 10:30 -0530', 'yyyy-MM-dd HH:mm Z') AS c, "
               "to_timestamp('2024-01-15 10:30 GMT+2', 'yyyy-MM-dd HH:mm O') AS d, "
               "to_timestamp('2024-07-15 10:30 Europe/Amsterdam', 'yyyy-MM-dd HH:mm VV') AS e",
               "a,b,c,d,e\n2024-01-15 09:30:00,2024-01-15 10:30:00,2024-01-15 16:00:00,"
               "2024-01-15 08:30:00,2024-07-15 08:30:00\n");
    /* the default pattern; a DATE / TIMESTAMP argument is taken as it is */
    EXPECT_CSV(s, out,
               "SELECT unix_timestamp('2024-01-15 10:30:00') AS a, "
               "to_unix_timestamp('2024-01-15', 'yyyy-MM-dd') AS b, "
               "unix_timestamp(TIMESTAMP'2024-01-15 10:30:00') AS c, "
               "unix_timestamp(DATE'1970-01-02') AS d, unix_timestamp('garbage') AS e, "
               "unix_timestamp() > 1700000000 AS f, to_timestamp('2024-01-15') AS g, "
               "to_date('2024-01-15 10:30:00') AS h",
               "a,b,c,d,e,f,g,h\n1705314600,1705276800,1705314600,86400,,true,2024-01-15 00:00:00,"
               "2024-01-15\n");
    floe__sql_session_free(s);
}

static void test_session_zone(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    FT_OK(floe__sql_session_run(s, "SET spark.sql.session.timeZone = America/Los_Angeles", NULL));
    EXPECT_CSV(s, out,
               "SELECT from_unixtime(0) AS a, unix_timestamp('1970-01-01 00:00:00') AS b, "
               "date_format(TIMESTAMP'2024-07-01 12:00:00', 'Z XXX x O OOOO VV') AS c, "
               "date_format(TIMESTAMP'2024-01-01 12:00:00', 'ZZZZZ') AS d, "
               "to_timestamp('2024-01-15 10:30 +0000', 'yyyy-MM-dd HH:mm Z') AS e, "
               "to_date('2024-01-15 02:00 +0000', 'yyyy-MM-dd HH:mm Z') AS f",
               "a,b,c,d,e,f\n1969-12-31 16:00:00,28800,-0700 -07:00 -07 GMT-7 GMT-07:00 "
               "America/Los_Angeles,-08:00,2024-01-15 02:30:00,2024-01-14\n");
    floe__sql_session_free(s);
}

static void test_bad_patterns(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    static const struct {
        const char *q, *msg;
    } bad[] = {
        {"SELECT date_format(DATE'2024-01-05', 'yyyy uu')", "Pattern letter 'u'"},
        {"SELECT to_timestamp('Mon', 'EEE')", "Illegal pattern character: E"},
        {"SELECT date_format(DATE'2024-01-05', 'ddd')", "Too many pattern letters: d"},
        {"SELECT date_format(DATE'2024-01-05', 'MMMMM')", "Too many pattern letters: M"},
        {"SELECT date_format(DATE'2024-01-05', \"yyyy 'T\")", "incomplete string literal"},
        {"SELECT date_format(DATE'2024-01-05', 'yyyy b')", "Unknown pattern letter: b"},
    };
    for (size_t k = 0; k < FT_N(bad); k++) {
        (void)FT_CHECK(floe__sql_session_run(s, bad[k].q, NULL) < 0);
        FT_ERR_CONTAINS(bad[k].msg);
    }
    floe__sql_session_free(s);
}

static void test_oom(void)
{
    oom_loop("SELECT date_format(TIMESTAMP'2024-01-15 13:05:09', 'EEE hh:mm a') AS a, "
             "to_timestamp('Jan 5 2024 1 PM', 'MMM d yyyy h a') AS b, "
             "from_unixtime(86400) AS c",
             "a,b,c\nMon 01:05 PM,2024-01-05 13:00:00,1970-01-02 00:00:00\n", true, __FILE__,
             __LINE__);
}

static const ft_case cases[] = {
    {"format", test_format},
    {"parse", test_parse},
    {"session_zone", test_session_zone},
    {"bad_patterns", test_bad_patterns},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
