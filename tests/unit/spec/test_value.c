/* SPDX-License-Identifier: Apache-2.0 */
/* Single-value serialization (spec Appendix D), ordering and formatting. */
#include "harness.h"
#include "spec/value.h"
#include "util/civil.h"

#include <math.h>

static floe_type T(floe_type_id id)
{
    floe_type t;
    memset(&t, 0, sizeof t);
    t.id = id;
    return t;
}

static void roundtrip(const floe_value *v, const char *hex_expected, const char *text)
{
    floe_buf b = FLOE_BUF_INIT, h = FLOE_BUF_INIT, s = FLOE_BUF_INIT;
    if (floe_value_to_single(v, &b) < 0) {
        ft_fail(__FILE__, __LINE__, "encode: %s", ft_floe_err());
        return;
    }
    for (size_t i = 0; i < b.len; i++)
        floe__buf_printf(&h, "%02x", (unsigned char)b.ptr[i]);
    FT_EQ_STR(h.len ? h.ptr : "", hex_expected);
    floe_type t = T(v->type);
    t.scale = v->scale;
    floe_value back;
    if (floe_value_from_single(&t, (const uint8_t *)b.ptr, b.len, &back) < 0) {
        ft_fail(__FILE__, __LINE__, "decode: %s", ft_floe_err());
    } else {
        FT_EQ_INT(floe_value_compare(v, &back), 0);
        floe_value_format(&back, &s);
        FT_EQ_STR(s.ptr, text);
    }
    floe__buf_free(&b);
    floe__buf_free(&h);
    floe__buf_free(&s);
}

static void test_single_value(void)
{
    floe_value v;
    v = floe_value_bool(true);
    roundtrip(&v, "01", "true");
    v = floe_value_int(-2);
    roundtrip(&v, "feffffff", "-2");
    v = floe_value_long(1);
    roundtrip(&v, "0100000000000000", "1");
    v = floe_value_double(1.5);
    roundtrip(&v, "000000000000f83f", "1.5");
    v = floe_value_float(1.0f);
    roundtrip(&v, "0000803f", "1");
    v = floe_value_date(20351); /* 2025-09-20? computed below */
    floe_buf s = FLOE_BUF_INIT;
    floe_value_format(&v, &s);
    FT_EQ_STR(s.ptr, "2025-09-20");
    floe__buf_free(&s);
    /* decimals: minimum big-endian two's complement */
    v = floe_value_decimal(999999999, 2);
    roundtrip(&v, "3b9ac9ff", "9999999.99");
    v = floe_value_decimal(-500, 2);
    roundtrip(&v, "fe0c", "-5.00");
    v = floe_value_decimal(128, 2);
    roundtrip(&v, "0080", "1.28");
    v = floe_value_decimal(-128, 0);
    roundtrip(&v, "80", "-128");
    v = floe_value_decimal(0, 2);
    roundtrip(&v, "00", "0.00");
    v = floe_value_decimal(5, 3);
    roundtrip(&v, "05", "0.005");
    v = floe_value_bytes(FLOE_T_STRING, "abc", 3);
    roundtrip(&v, "616263", "abc");
    uint8_t u[16] = {0x12, 0x15, 0x1f, 0xd2, 0x75, 0x86, 0x11, 0xe9,
                     0x8f, 0x9e, 0x2a, 0x86, 0xe4, 0x08, 0x5a, 0x59};
    v = floe_value_bytes(FLOE_T_UUID, u, 16);
    roundtrip(&v, "12151fd2758611e98f9e2a86e4085a59", "12151fd2-7586-11e9-8f9e-2a86e4085a59");
    v = floe_value_i64(FLOE_T_TIMESTAMPTZ, INT64_C(1741000000000000));
    roundtrip(&v, "00d08d266e2f0600", "2025-03-03T11:06:40.000000+00:00");
    v = floe_value_i64(FLOE_T_TIMESTAMP, -1);
    roundtrip(&v, "ffffffffffffffff", "1969-12-31T23:59:59.999999");
    v = floe_value_i64(FLOE_T_TIME, INT64_C(61200000000));
    roundtrip(&v, "00e4cd3f0e000000", "17:00:00.000000");
}

static void test_bad_lengths(void)
{
    floe_type t = T(FLOE_T_INT);
    floe_value v;
    uint8_t b[17] = {0};
    FT_EQ_INT(floe_value_from_single(&t, b, 3, &v), FLOE_ECORRUPT);
    t = T(FLOE_T_UUID);
    FT_EQ_INT(floe_value_from_single(&t, b, 15, &v), FLOE_ECORRUPT);
    t = T(FLOE_T_DECIMAL);
    FT_EQ_INT(floe_value_from_single(&t, b, 17, &v), FLOE_ECORRUPT);
    FT_EQ_INT(floe_value_from_single(&t, b, 0, &v), FLOE_ECORRUPT);
    /* int bound on a promoted long column */
    t = T(FLOE_T_LONG);
    uint8_t four[4] = {0xfe, 0xff, 0xff, 0xff};
    FT_OK(floe_value_from_single(&t, four, 4, &v));
    FT_EQ_INT(v.v.i64, -2);
}

static void test_order(void)
{
    floe_value a = floe_value_double(-0.0), b = floe_value_double(0.0);
    FT_CHECK(floe_value_compare(&a, &b) < 0);
    floe_value n = floe_value_double(NAN), inf = floe_value_double(INFINITY);
    FT_CHECK(floe_value_compare(&inf, &n) < 0);
    floe_value s1 = floe_value_bytes(FLOE_T_STRING, "ab", 2);
    floe_value s2 = floe_value_bytes(FLOE_T_STRING, "abc", 3);
    floe_value s3 = floe_value_bytes(FLOE_T_STRING, "\xc3\xa9", 2);
    FT_CHECK(floe_value_compare(&s1, &s2) < 0);
    FT_CHECK(floe_value_compare(&s3, &s2) > 0);
    floe_value d1 = floe_value_decimal(150, 2), d2 = floe_value_decimal(15, 1);
    FT_EQ_INT(floe_value_compare(&d1, &d2), 0);
    FT_EQ_INT(floe__days_from_civil(1970, 1, 1), 0);
    FT_EQ_INT(floe__days_from_civil(2025, 3, 3), 20150);
    FT_EQ_INT(floe__floordiv(-1, 1000), -1);
}

static const ft_case cases[] = {
    {"single_value", test_single_value},
    {"bad_lengths", test_bad_lengths},
    {"order", test_order},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
