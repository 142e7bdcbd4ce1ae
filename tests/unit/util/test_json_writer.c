/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of util/json_writer: nesting and separators, string escaping,
 * integer and double forms, misuse and allocation failure. */
#include "harness.h"
#include "util/json_writer.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static void test_nesting(void)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    floe__jw_obj(&w);
    floe__jw_kstr(&w, "a", "x");
    floe__jw_key(&w, "list");
    floe__jw_arr(&w);
    floe__jw_int(&w, 1);
    floe__jw_obj(&w);
    floe__jw_obj_end(&w);
    floe__jw_arr(&w);
    floe__jw_arr_end(&w);
    floe__jw_null(&w);
    floe__jw_bool(&w, true);
    floe__jw_arr_end(&w);
    floe__jw_kbool(&w, "f", false);
    floe__jw_key(&w, "raw");
    floe__jw_raw(&w, "{\"k\":[1]}", 9);
    floe__jw_kstr(&w, "n", NULL);
    floe__jw_obj_end(&w);
    FT_EQ_INT(floe__jw_finish(&w), 0);
    FT_EQ_STR(b.ptr,
              "{\"a\":\"x\",\"list\":[1,{},[],null,true],\"f\":false,\"raw\":{\"k\":[1]},\"n\":null}");
    floe__buf_free(&b);
}

static void test_escaping(void)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    floe__jw_arr(&w);
    floe__jw_str(&w, "q\"b\\s/\n\r\t\b\f\x01\x1f");
    floe__jw_str(&w, "caf\xc3\xa9");
    floe__jw_strn(&w, "a\0b", 3);
    floe__jw_arr_end(&w);
    FT_EQ_INT(floe__jw_finish(&w), 0);
    FT_EQ_STR(b.ptr, "[\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\",\"caf\xc3\xa9\",\"a\\u0000b\"]");
    /* keys are escaped too */
    floe__buf_clear(&b);
    floe__jw_init(&w, &b);
    floe__jw_obj(&w);
    floe__jw_kint(&w, "k\"", 1);
    floe__jw_obj_end(&w);
    FT_EQ_STR(b.ptr, "{\"k\\\"\":1}");
    floe__buf_free(&b);
}

static void test_numbers(void)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    floe__jw_arr(&w);
    floe__jw_int(&w, INT64_MIN);
    floe__jw_int(&w, INT64_MAX);
    floe__jw_int(&w, 0);
    floe__jw_double(&w, 0.1);
    floe__jw_double(&w, 1.0);
    floe__jw_double(&w, -2.5e-300);
    floe__jw_double(&w, 1e21);
    floe__jw_double(&w, 0.30000000000000004);
    floe__jw_arr_end(&w);
    FT_EQ_INT(floe__jw_finish(&w), 0);
    FT_EQ_STR(b.ptr, "[-9223372036854775808,9223372036854775807,0,0.1,1.0,-2.5e-300,1e+21,"
                     "0.30000000000000004]");
    floe__buf_free(&b);
}

static void test_misuse(void)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    floe__jw_obj(&w);
    FT_EQ_INT(floe__jw_int(&w, 1), FLOE_EINVALID); /* no key */
    FT_EQ_INT(floe__jw_obj_end(&w), FLOE_EINVALID); /* sticky */
    FT_EQ_INT(floe__jw_finish(&w), FLOE_EINVALID);

    floe__buf_clear(&b);
    floe__jw_init(&w, &b);
    FT_EQ_INT(floe__jw_key(&w, "k"), FLOE_EINVALID); /* key outside an object */

    floe__jw_init(&w, &b);
    floe__jw_arr(&w);
    FT_EQ_INT(floe__jw_obj_end(&w), FLOE_EINVALID);

    floe__jw_init(&w, &b);
    FT_EQ_INT(floe__jw_double(&w, NAN), FLOE_EINVALID);
    floe__jw_init(&w, &b);
    FT_EQ_INT(floe__jw_double(&w, INFINITY), FLOE_EINVALID);

    floe__jw_init(&w, &b);
    floe__jw_arr(&w);
    FT_EQ_INT(floe__jw_finish(&w), FLOE_EINVALID); /* left open */

    floe__jw_init(&w, &b);
    int rc = 0;
    for (int i = 0; i <= FLOE_JW_MAX_DEPTH && rc == 0; i++)
        rc = floe__jw_arr(&w);
    FT_EQ_INT(rc, FLOE_EINVALID);
    floe__buf_free(&b);
}

static void test_oom(void)
{
    long n;
    for (n = 1; n < 1000; n++) {
        floe_buf b = FLOE_BUF_INIT;
        floe_jw w;
        floe__jw_init(&w, &b);
        floe__alloc_fail_at(n);
        floe__jw_obj(&w);
        for (int i = 0; i < 200; i++)
            floe__jw_kstr(&w, "key", "a value long enough to make the buffer grow \"x\"");
        floe__jw_obj_end(&w);
        int rc = floe__jw_finish(&w);
        floe__alloc_fail_at(0);
        floe__buf_free(&b);
        if (rc == 0)
            break;
        FT_EQ_INT(rc, FLOE_ENOMEM);
    }
    FT_CHECK(n > 1 && n < 1000);
}

static const ft_case cases[] = {
    {"nesting", test_nesting}, {"escaping", test_escaping}, {"numbers", test_numbers},
    {"misuse", test_misuse},   {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
