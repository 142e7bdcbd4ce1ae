/* SPDX-License-Identifier: Apache-2.0 */
/* Partition transforms: Appendix B hash vectors, bucket values recorded in
 * real fixtures, truncate/date transforms, human strings and paths. */
#include "harness.h"
#include "spec/transform.h"
#include "spec/value.h"
#include "util/civil.h"
#include "util/murmur3.h"

#include <math.h>

static floe_transform TR(floe_transform_kind k, int32_t p)
{
    floe_transform t = {k, p, "t"};
    return t;
}

static floe_type T(floe_type_id id)
{
    floe_type t;
    memset(&t, 0, sizeof t);
    t.id = id;
    return t;
}

static int32_t days(int y, unsigned m, unsigned d)
{
    return (int32_t)floe__days_from_civil(y, m, d);
}

static int64_t micros(int y, unsigned m, unsigned d, int hh, int mm, int ss)
{
    return ((int64_t)days(y, m, d) * 86400 + hh * 3600 + mm * 60 + ss) * 1000000;
}

static int32_t bucket_of(const floe_value *v, int32_t n)
{
    floe_transform t = TR(FLOE_TR_BUCKET, n);
    floe_value out;
    if (floe_transform_apply(&t, v, &out) < 0) {
        ft_fail(__FILE__, __LINE__, "bucket: %s", ft_floe_err());
        return -1;
    }
    FT_EQ_INT(out.type, FLOE_T_INT);
    return out.v.i32;
}

static int32_t hash_of(floe_value v)
{
    int32_t h = 0;
    if (floe_transform_bucket_hash(&v, &h) < 0)
        ft_fail(__FILE__, __LINE__, "hash: %s", ft_floe_err());
    return h;
}

static void test_murmur3_raw(void)
{
    /* Reference values of MurmurHash3_x86_32 itself. */
    FT_EQ_INT(floe__murmur3_32("", 0, 0), 0);
    FT_EQ_INT(floe__murmur3_32("", 0, 1), 0x514E28B7u);
    FT_EQ_INT(floe__murmur3_32("hello", 5, 0), 0x248BFA47u);
    FT_EQ_INT(floe__murmur3_32("The quick brown fox jumps over the lazy dog", 43, 0), 0x2E4FF723u);
}

static void test_appendix_b_vectors(void)
{
    static const uint8_t uuid[16] = {0xF7, 0x9C, 0x3E, 0x09, 0x67, 0x7C, 0x4B, 0xBD,
                                     0xA4, 0x79, 0x3F, 0x34, 0x9C, 0xB7, 0x85, 0xE7};
    static const uint8_t b4[4] = {0, 1, 2, 3};
    FT_EQ_INT(hash_of(floe_value_int(34)), 2017239379);
    FT_EQ_INT(hash_of(floe_value_long(34)), 2017239379);
    FT_EQ_INT(hash_of(floe_value_decimal(1420, 2)), -500754589);
    FT_EQ_INT(hash_of(floe_value_date(days(2017, 11, 16))), -653330422);
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIME, (22 * 3600 + 31 * 60 + 8) * INT64_C(1000000))),
              -662762989);
    int64_t ts = micros(2017, 11, 16, 22, 31, 8);
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIMESTAMP, ts)), -2047944441);
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIMESTAMP, ts + 1)), -1207196810);
    /* 2017-11-16T14:31:08-08:00 is the same instant. */
    int64_t tz = micros(2017, 11, 16, 14, 31, 8) + INT64_C(8) * 3600 * 1000000;
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIMESTAMPTZ, tz)), -2047944441);
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIMESTAMPTZ, tz + 1)), -1207196810);
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIMESTAMP_NS, ts * 1000)), -2047944441);
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIMESTAMP_NS, ts * 1000 + 1001)), -1207196810);
    FT_EQ_INT(hash_of(floe_value_i64(FLOE_T_TIMESTAMPTZ_NS, tz * 1000 + 1001)), -1207196810);
    FT_EQ_INT(hash_of(floe_value_bytes(FLOE_T_STRING, "iceberg", 7)), 1210000089);
    FT_EQ_INT(hash_of(floe_value_bytes(FLOE_T_UUID, uuid, 16)), 1488055340);
    FT_EQ_INT(hash_of(floe_value_bytes(FLOE_T_FIXED, b4, 4)), -188683207);
    FT_EQ_INT(hash_of(floe_value_bytes(FLOE_T_BINARY, b4, 4)), -188683207);
    /* int -> long promotion keeps buckets (note 1), negative values too */
    for (int32_t v = -1000; v <= 1000; v += 37)
        FT_EQ_INT(hash_of(floe_value_int(v)), hash_of(floe_value_long(v)));
    /* bucket: (hash & INT_MAX) % N */
    floe_value v34 = floe_value_int(34);
    FT_EQ_INT(bucket_of(&v34, 16), 3);
    FT_EQ_INT(bucket_of(&v34, 100), 79);
    floe_value d = floe_value_date(days(2017, 11, 16));
    FT_EQ_INT(bucket_of(&d, 10), 6);
    /* decimal: minimal bytes; negative and byte-boundary values */
    FT_EQ_INT(hash_of(floe_value_decimal(-1, 2)), floe__murmur3_bytes("\xff", 1));
    FT_EQ_INT(hash_of(floe_value_decimal(128, 0)), floe__murmur3_bytes("\x00\x80", 2));
    FT_EQ_INT(hash_of(floe_value_decimal(-129, 0)), floe__murmur3_bytes("\xff\x7f", 2));
    FT_EQ_INT(hash_of(floe_value_decimal(0, 0)), floe__murmur3_bytes("\x00", 1));
}

/* Expected values recorded in ../shared/fixtures/PROVENANCE.md. */
static void test_trino_bucket_partitioning(void)
{
    static const uint8_t uuid[16] = {0x12, 0x15, 0x1f, 0xd2, 0x75, 0x86, 0x11, 0xe9,
                                     0x8f, 0x9e, 0x2a, 0x86, 0xe4, 0x08, 0x5a, 0x59};
    floe_value v;
    v = floe_value_int(1);
    FT_EQ_INT(bucket_of(&v, 2), 0);
    v = floe_value_long(2);
    FT_EQ_INT(bucket_of(&v, 3), 0);
    v = floe_value_decimal(300, 2); /* 3.00 in decimal(12,2) */
    FT_EQ_INT(bucket_of(&v, 4), 3);
    v = floe_value_date(days(2025, 3, 3));
    FT_EQ_INT(bucket_of(&v, 5), 2);
    v = floe_value_i64(FLOE_T_TIME, INT64_C(17) * 3600 * 1000000);
    FT_EQ_INT(bucket_of(&v, 6), 2);
    v = floe_value_i64(FLOE_T_TIMESTAMP, micros(2025, 3, 3, 0, 0, 0));
    FT_EQ_INT(bucket_of(&v, 100), 99);
    v = floe_value_i64(FLOE_T_TIMESTAMPTZ, micros(2025, 3, 3, 0, 0, 0));
    FT_EQ_INT(bucket_of(&v, 123), 75);
    v = floe_value_bytes(FLOE_T_STRING, "some-string", 11);
    FT_EQ_INT(bucket_of(&v, 42), 13);
    v = floe_value_bytes(FLOE_T_UUID, uuid, 16);
    FT_EQ_INT(bucket_of(&v, 55), 5);
    v = floe_value_bytes(FLOE_T_BINARY, "some-varbinary", 14);
    FT_EQ_INT(bucket_of(&v, 812), 724);
}

static void test_spark_rename_column_buckets(void)
{
    static const int32_t ids[] = {1, 2, 3, 4}, want[] = {0, 0, 3, 2};
    for (size_t i = 0; i < 4; i++) {
        floe_value v = floe_value_int(ids[i]);
        FT_EQ_INT(bucket_of(&v, 4), want[i]);
        v = floe_value_long(ids[i]);
        FT_EQ_INT(bucket_of(&v, 4), want[i]);
    }
}

static void test_truncate(void)
{
    floe_transform t10 = TR(FLOE_TR_TRUNCATE, 10);
    floe_value in, out;
    static const int32_t iv[][2] = {{1, 0},     {-1, -10}, {0, 0},     {10, 10},
                                    {-10, -10}, {19, 10},  {-11, -20}, {INT32_MAX, 2147483640}};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(iv); i++) {
        in = floe_value_int(iv[i][0]);
        FT_OK(floe_transform_apply(&t10, &in, &out));
        FT_EQ_INT(out.type, FLOE_T_INT);
        FT_EQ_INT(out.v.i32, iv[i][1]);
        in = floe_value_long(iv[i][0]);
        FT_OK(floe_transform_apply(&t10, &in, &out));
        FT_EQ_INT(out.v.i64, iv[i][1]);
    }
    /* decimal W=50, s=2: 10.65 -> 10.50; -0.05 -> -0.50 */
    floe_transform t50 = TR(FLOE_TR_TRUNCATE, 50);
    in = floe_value_decimal(1065, 2);
    FT_OK(floe_transform_apply(&t50, &in, &out));
    FT_CHECK(out.v.dec == 1050 && out.scale == 2);
    in = floe_value_decimal(-5, 2);
    FT_OK(floe_transform_apply(&t50, &in, &out));
    FT_CHECK(out.v.dec == -50);
    /* strings by code points */
    floe_transform t3 = TR(FLOE_TR_TRUNCATE, 3);
    in = floe_value_bytes(FLOE_T_STRING, "iceberg", 7);
    FT_OK(floe_transform_apply(&t3, &in, &out));
    FT_EQ_INT(out.v.bytes.len, 3);
    const char *u = "\xc3\xa9t\xc3\xa9\xf0\x9f\x90\x87"; /* "été🐇" */
    in = floe_value_bytes(FLOE_T_STRING, u, strlen(u));
    FT_OK(floe_transform_apply(&t3, &in, &out));
    FT_EQ_INT(out.v.bytes.len, 5);
    floe_transform t4 = TR(FLOE_TR_TRUNCATE, 4);
    FT_OK(floe_transform_apply(&t4, &in, &out));
    FT_EQ_INT(out.v.bytes.len, 9);
    in = floe_value_bytes(FLOE_T_STRING, "ab", 2);
    FT_OK(floe_transform_apply(&t3, &in, &out));
    FT_EQ_INT(out.v.bytes.len, 2);
    /* binary by bytes */
    in = floe_value_bytes(FLOE_T_BINARY, "\x01\x02\x03\x04\x05", 5);
    FT_OK(floe_transform_apply(&t3, &in, &out));
    FT_EQ_INT(out.v.bytes.len, 3);
    FT_EQ_INT(out.type, FLOE_T_BINARY);
}

static void test_dates(void)
{
    floe_transform y = TR(FLOE_TR_YEAR, 0), m = TR(FLOE_TR_MONTH, 0), d = TR(FLOE_TR_DAY, 0),
                   h = TR(FLOE_TR_HOUR, 0);
    floe_value in, out;
    in = floe_value_date(days(2026, 9, 20));
    FT_OK(floe_transform_apply(&y, &in, &out));
    FT_EQ_INT(out.v.i32, 56);
    FT_EQ_INT(out.type, FLOE_T_INT);
    FT_OK(floe_transform_apply(&m, &in, &out));
    FT_EQ_INT(out.v.i32, 56 * 12 + 8);
    FT_OK(floe_transform_apply(&d, &in, &out));
    FT_EQ_INT(out.v.i32, days(2026, 9, 20));
    FT_EQ_INT(out.type, FLOE_T_DATE);
    FT_CHECK(floe_transform_apply(&h, &in, &out) == FLOE_EINVALID);
    /* pre-epoch timestamps floor: 1969-12-31T23:59:59.999999 */
    in = floe_value_i64(FLOE_T_TIMESTAMP, -1);
    FT_OK(floe_transform_apply(&y, &in, &out));
    FT_EQ_INT(out.v.i32, -1);
    FT_OK(floe_transform_apply(&m, &in, &out));
    FT_EQ_INT(out.v.i32, -1);
    FT_OK(floe_transform_apply(&d, &in, &out));
    FT_EQ_INT(out.v.i32, -1);
    FT_OK(floe_transform_apply(&h, &in, &out));
    FT_EQ_INT(out.v.i32, -1);
    in = floe_value_i64(FLOE_T_TIMESTAMPTZ_NS, micros(2026, 9, 20, 10, 30, 0) * 1000 + 5);
    FT_OK(floe_transform_apply(&h, &in, &out));
    FT_EQ_INT(out.v.i32, (int64_t)days(2026, 9, 20) * 24 + 10);
    FT_OK(floe_transform_apply(&d, &in, &out));
    FT_EQ_INT(out.v.i32, days(2026, 9, 20));
    in = floe_value_date(days(1969, 1, 1));
    FT_OK(floe_transform_apply(&m, &in, &out));
    FT_EQ_INT(out.v.i32, -12);
    /* nulls, void */
    in = floe_value_null(FLOE_T_TIMESTAMP);
    FT_OK(floe_transform_apply(&d, &in, &out));
    FT_CHECK(out.is_null && out.type == FLOE_T_DATE);
    floe_transform v = TR(FLOE_TR_VOID, 0);
    in = floe_value_long(5);
    FT_OK(floe_transform_apply(&v, &in, &out));
    FT_CHECK(out.is_null);
    floe_transform unk = {FLOE_TR_UNKNOWN, 0, "zorder"};
    FT_CHECK(floe_transform_apply(&unk, &in, &out) == FLOE_EUNSUPPORTED);
    FT_ERR_CONTAINS("zorder");
}

/* Timestamps at the ends of int64 (issue #21 item 17): the transforms give
 * Java's values, the hour count narrowed like Java's (int) cast. Expected:
 * Spark's range -290308-12-21T19:59:05.224192 .. +294247-01-10T04:00:54.775807. */
static void test_extremes(void)
{
    floe_transform y = TR(FLOE_TR_YEAR, 0), m = TR(FLOE_TR_MONTH, 0), d = TR(FLOE_TR_DAY, 0),
                   h = TR(FLOE_TR_HOUR, 0);
    floe_value in, out;
    floe_type_id us_types[] = {FLOE_T_TIMESTAMP, FLOE_T_TIMESTAMPTZ};
    for (size_t i = 0; i < FT_N(us_types); i++) {
        in = floe_value_i64(us_types[i], INT64_MAX);
        FT_OK(floe_transform_apply(&y, &in, &out));
        FT_EQ_INT(out.v.i32, 294247 - 1970);
        FT_OK(floe_transform_apply(&m, &in, &out));
        FT_EQ_INT(out.v.i32, (294247 - 1970) * 12);
        FT_OK(floe_transform_apply(&d, &in, &out));
        FT_EQ_INT(out.v.i32, 106751991);
        FT_OK(floe_transform_apply(&h, &in, &out));
        FT_EQ_INT(out.v.i32, -1732919508); /* (int) 2562047788L */
        in = floe_value_i64(us_types[i], INT64_MIN);
        FT_OK(floe_transform_apply(&y, &in, &out));
        FT_EQ_INT(out.v.i32, -290308 - 1970);
        FT_OK(floe_transform_apply(&m, &in, &out));
        FT_EQ_INT(out.v.i32, (-290308 - 1970) * 12 + 11);
        FT_OK(floe_transform_apply(&d, &in, &out));
        FT_EQ_INT(out.v.i32, -106751992);
        FT_OK(floe_transform_apply(&h, &in, &out));
        FT_EQ_INT(out.v.i32, 1732919507); /* (int) -2562047789L */
    }
    /* nanoseconds: 1677-09-21T00:12:43.145224192 .. 2262-04-11T23:47:16.854775807 */
    in = floe_value_i64(FLOE_T_TIMESTAMP_NS, INT64_MIN);
    FT_OK(floe_transform_apply(&y, &in, &out));
    FT_EQ_INT(out.v.i32, 1677 - 1970 - 0);
    FT_OK(floe_transform_apply(&d, &in, &out));
    FT_EQ_INT(out.v.i32, days(1677, 9, 21));
    in = floe_value_i64(FLOE_T_TIMESTAMPTZ_NS, INT64_MAX);
    FT_OK(floe_transform_apply(&m, &in, &out));
    FT_EQ_INT(out.v.i32, (2262 - 1970) * 12 + 3);
    FT_OK(floe_transform_apply(&h, &in, &out));
    FT_EQ_INT(out.v.i32, (int64_t)days(2262, 4, 11) * 24 + 23);
    /* dates at the ends of int32 */
    in = floe_value_date(INT32_MAX);
    FT_OK(floe_transform_apply(&d, &in, &out));
    FT_EQ_INT(out.v.i32, INT32_MAX);
    FT_OK(floe_transform_apply(&y, &in, &out));
    FT_EQ_INT(out.v.i32, 5881580 - 1970);
    FT_OK(floe_transform_apply(&m, &in, &out));
    FT_EQ_INT(out.v.i32, (5881580 - 1970) * 12 + 6);
    in = floe_value_date(INT32_MIN);
    FT_OK(floe_transform_apply(&d, &in, &out));
    FT_EQ_INT(out.v.i32, INT32_MIN);
    FT_OK(floe_transform_apply(&y, &in, &out));
    FT_EQ_INT(out.v.i32, -5877641 - 1970);
    FT_OK(floe_transform_apply(&m, &in, &out));
    FT_EQ_INT(out.v.i32, (-5877641 - 1970) * 12 + 5);
    /* and their human strings */
    floe_buf b = FLOE_BUF_INIT;
    in = floe_value_i64(FLOE_T_TIMESTAMP, INT64_MIN);
    FT_OK(floe_value_format(&in, &b));
    FT_EQ_STR(b.ptr, "-290308-12-21T19:59:05.224192");
    b.len = 0;
    in = floe_value_i64(FLOE_T_TIMESTAMP, INT64_MAX);
    FT_OK(floe_value_format(&in, &b));
    FT_EQ_STR(b.ptr, "294247-01-10T04:00:54.775807");
    floe__buf_free(&b);
}

static void test_can_apply_and_result_types(void)
{
    floe_type ti = T(FLOE_T_INT), tf = T(FLOE_T_FLOAT), ts = T(FLOE_T_STRING),
              tt = T(FLOE_T_TIMESTAMP), td = T(FLOE_T_DATE), tb = T(FLOE_T_BOOLEAN),
              tu = T(FLOE_T_UUID), tfx = T(FLOE_T_FIXED), tst = T(FLOE_T_STRUCT),
              tv = T(FLOE_T_VARIANT);
    floe_transform b = TR(FLOE_TR_BUCKET, 8), tr = TR(FLOE_TR_TRUNCATE, 3),
                   id = TR(FLOE_TR_IDENTITY, 0), y = TR(FLOE_TR_YEAR, 0), h = TR(FLOE_TR_HOUR, 0),
                   d = TR(FLOE_TR_DAY, 0), vo = TR(FLOE_TR_VOID, 0), b0 = TR(FLOE_TR_BUCKET, 0);
    FT_CHECK(floe_transform_can_apply(&b, &ti));
    FT_CHECK(!floe_transform_can_apply(&b, &tf));
    FT_CHECK(!floe_transform_can_apply(&b, &tb));
    FT_CHECK(floe_transform_can_apply(&b, &tu));
    FT_CHECK(floe_transform_can_apply(&b, &tfx));
    FT_CHECK(!floe_transform_can_apply(&b0, &ti));
    FT_CHECK(floe_transform_can_apply(&tr, &ts));
    FT_CHECK(!floe_transform_can_apply(&tr, &tu));
    FT_CHECK(!floe_transform_can_apply(&tr, &tfx));
    FT_CHECK(floe_transform_can_apply(&id, &tf));
    FT_CHECK(!floe_transform_can_apply(&id, &tst));
    FT_CHECK(!floe_transform_can_apply(&id, &tv));
    FT_CHECK(floe_transform_can_apply(&y, &td));
    FT_CHECK(!floe_transform_can_apply(&h, &td));
    FT_CHECK(floe_transform_can_apply(&h, &tt));
    FT_CHECK(!floe_transform_can_apply(&y, &ts));
    FT_CHECK(floe_transform_can_apply(&vo, &tf));
    FT_EQ_INT(floe_transform_result_type(&b, &ts)->id, FLOE_T_INT);
    FT_EQ_INT(floe_transform_result_type(&tr, &ts)->id, FLOE_T_STRING);
    FT_EQ_INT(floe_transform_result_type(&d, &tt)->id, FLOE_T_DATE);
    FT_EQ_INT(floe_transform_result_type(&h, &tt)->id, FLOE_T_INT);
    FT_CHECK(floe_transform_result_type(&h, &ts) == NULL);
    FT_CHECK(floe_transform_result_type(&id, &tf) == &tf);
}

static void human(floe_transform t, floe_value v, const char *want)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe_transform_human_string(&t, &v, &b) < 0)
        ft_fail(__FILE__, __LINE__, "human: %s", ft_floe_err());
    else
        FT_EQ_STR(b.ptr ? b.ptr : "", want);
    floe__buf_free(&b);
}

static void test_human_strings(void)
{
    floe_transform id = TR(FLOE_TR_IDENTITY, 0);
    human(TR(FLOE_TR_YEAR, 0), floe_value_int(56), "2026");
    human(TR(FLOE_TR_YEAR, 0), floe_value_int(-1), "1969");
    human(TR(FLOE_TR_MONTH, 0), floe_value_int(56 * 12 + 8), "2026-09");
    human(TR(FLOE_TR_MONTH, 0), floe_value_int(-1), "1969-12");
    human(TR(FLOE_TR_DAY, 0), floe_value_date(days(2026, 9, 20)), "2026-09-20");
    human(TR(FLOE_TR_DAY, 0), floe_value_int(days(2026, 9, 20)), "2026-09-20");
    human(TR(FLOE_TR_HOUR, 0), floe_value_int(days(2026, 9, 20) * 24 + 10), "2026-09-20-10");
    human(TR(FLOE_TR_HOUR, 0), floe_value_int(-1), "1969-12-31-23");
    human(TR(FLOE_TR_BUCKET, 16), floe_value_int(3), "3");
    human(TR(FLOE_TR_TRUNCATE, 3), floe_value_bytes(FLOE_T_STRING, "ice", 3), "ice");
    human(id, floe_value_null(FLOE_T_DATE), "null");
    human(id, floe_value_date(days(2022, 1, 2)), "2022-01-02");
    human(id, floe_value_i64(FLOE_T_TIME, INT64_C(17) * 3600000000), "17:00");
    human(id, floe_value_i64(FLOE_T_TIME, INT64_C(17) * 3600000000 + 1000000), "17:00:01");
    human(id, floe_value_i64(FLOE_T_TIME, INT64_C(17) * 3600000000 + 500000), "17:00:00.500");
    human(id, floe_value_i64(FLOE_T_TIME, 1), "00:00:00.000001");
    human(id, floe_value_i64(FLOE_T_TIMESTAMP, micros(2025, 3, 3, 0, 0, 0)), "2025-03-03T00:00");
    human(id, floe_value_i64(FLOE_T_TIMESTAMPTZ, micros(2025, 3, 3, 10, 0, 5)),
          "2025-03-03T10:00:05Z");
    human(id, floe_value_i64(FLOE_T_TIMESTAMP_NS, micros(2025, 3, 3, 0, 0, 0) * 1000 + 1),
          "2025-03-03T00:00:00.000000001");
    human(id, floe_value_double(42), "42.0");
    human(id, floe_value_double(-50), "-50.0");
    human(id, floe_value_double(1.5), "1.5");
    human(id, floe_value_double(0.1), "0.1");
    human(id, floe_value_double(0.001), "0.001");
    human(id, floe_value_double(0.0001), "1.0E-4");
    human(id, floe_value_double(1e7), "1.0E7");
    human(id, floe_value_double(1234567.0), "1234567.0");
    human(id, floe_value_double(12345678.9), "1.23456789E7");
    human(id, floe_value_float(0.1f), "0.1");
    human(id, floe_value_double(0.0), "0.0");
    human(id, floe_value_double(NAN), "NaN");
    human(id, floe_value_decimal(999999999, 2), "9999999.99");
    human(id, floe_value_decimal(-500, 2), "-5.00");
    human(id, floe_value_bool(true), "true");
    human(id, floe_value_bytes(FLOE_T_BINARY, "\x00\x01\x02\x03", 4), "AAECAw==");
    human(id, floe_value_bytes(FLOE_T_BINARY, "abc", 3), "YWJj");
    human(id, floe_value_bytes(FLOE_T_FIXED, "ab", 2), "YWI=");
}

static void test_partition_path(void)
{
    floe_partition_field f[3] = {
        {1, 1000, "id_bucket", TR(FLOE_TR_BUCKET, 4)},
        {3, 1001, "date", TR(FLOE_TR_IDENTITY, 0)},
        {2, 1002, "na me/é", TR(FLOE_TR_IDENTITY, 0)},
    };
    floe_partition_spec spec = {0, 3, f};
    floe_value vals[3] = {floe_value_int(2), floe_value_date(days(2022, 1, 2)),
                          floe_value_bytes(FLOE_T_STRING, "a b/c=d&é+%", 12)};
    floe_partition_value pv = {3, vals};
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe_partition_path(&spec, &pv, &b));
    FT_EQ_STR(b.ptr, "id_bucket=2/date=2022-01-02/na+me%2F%C3%A9=a+b%2Fc%3Dd%26%C3%A9%2B%25");
    floe__buf_clear(&b);
    vals[1] = floe_value_null(FLOE_T_DATE);
    pv.n = 2;
    spec.nfields = 2;
    FT_OK(floe_partition_path(&spec, &pv, &b));
    FT_EQ_STR(b.ptr, "id_bucket=2/date=null");
    floe__buf_clear(&b);
    /* day and hour partitions as Spark lays them out */
    floe_partition_field g[2] = {{4, 1000, "ts_day", TR(FLOE_TR_DAY, 0)},
                                 {4, 1001, "ts_hour", TR(FLOE_TR_HOUR, 0)}};
    floe_partition_spec s2 = {1, 2, g};
    floe_value ts = floe_value_i64(FLOE_T_TIMESTAMPTZ, micros(2026, 9, 20, 10, 30, 0));
    floe_value pvals[2];
    FT_OK(floe_transform_apply(&g[0].transform, &ts, &pvals[0]));
    FT_OK(floe_transform_apply(&g[1].transform, &ts, &pvals[1]));
    floe_partition_value pv2 = {2, pvals};
    FT_OK(floe_partition_path(&s2, &pv2, &b));
    FT_EQ_STR(b.ptr, "ts_day=2026-09-20/ts_hour=2026-09-20-10");
    pv2.n = 1;
    FT_CHECK(floe_partition_path(&s2, &pv2, &b) == FLOE_EINVALID);
    floe__buf_free(&b);
}

static void test_utf8(void)
{
    const uint8_t *s = (const uint8_t *)"a\xc3\xa9\xf0\x9f\x90\x87z";
    FT_EQ_INT(floe_utf8_count(s, 8), 4);
    FT_EQ_INT(floe_utf8_prefix_len(s, 8, 0), 0);
    FT_EQ_INT(floe_utf8_prefix_len(s, 8, 2), 3);
    FT_EQ_INT(floe_utf8_prefix_len(s, 8, 3), 7);
    FT_EQ_INT(floe_utf8_prefix_len(s, 8, 10), 8);
}

static const ft_case cases[] = {
    {"murmur3_raw", test_murmur3_raw},
    {"appendix_b_vectors", test_appendix_b_vectors},
    {"trino_bucket_partitioning", test_trino_bucket_partitioning},
    {"spark_rename_column_buckets", test_spark_rename_column_buckets},
    {"truncate", test_truncate},
    {"dates", test_dates},
    {"extremes", test_extremes},
    {"can_apply_and_result_types", test_can_apply_and_result_types},
    {"human_strings", test_human_strings},
    {"partition_path", test_partition_path},
    {"utf8", test_utf8},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
