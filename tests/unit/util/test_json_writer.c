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

/* The writer scans strings eight bytes at a time: an escape at every
 * position of strings up to 40 bytes, high bytes (UTF-8) next to it, as
 * values and as keys (after a comma), against an escaper written here. */
static void expect_escaped(floe_buf *want, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            floe__buf_printf(want, "\\%c", c);
        else if (c == '\n')
            floe__buf_puts(want, "\\n");
        else if (c < 0x20)
            floe__buf_printf(want, "\\u%04x", c);
        else
            floe__buf_putc(want, (char)c);
    }
}

static void test_escape_positions(void)
{
    static const char specials[] = {'"', '\\', '\n', 0x01, 0x1f};
    for (size_t len = 1; len <= 40; len++)
        for (size_t at = 0; at < len; at++)
            for (size_t k = 0; k < sizeof specials; k++) {
                char s[48];
                for (size_t i = 0; i < len; i++)
                    s[i] = (char)(i % 3 == 0 ? 0xc3 : i % 3 == 1 ? 0xa9 : 'a' + (int)(i % 26));
                s[at] = specials[k];
                s[len] = '\0';
                floe_buf got = FLOE_BUF_INIT, want = FLOE_BUF_INIT;
                floe_jw w;
                floe__jw_init(&w, &got);
                floe__jw_obj(&w);
                floe__jw_kint(&w, "first", 1);
                floe__jw_key(&w, s);
                floe__jw_strn(&w, s, len);
                floe__jw_obj_end(&w);
                FT_EQ_INT(floe__jw_finish(&w), 0);
                floe__buf_puts(&want, "{\"first\":1,\"");
                expect_escaped(&want, s, len);
                floe__buf_puts(&want, "\":\"");
                expect_escaped(&want, s, len);
                floe__buf_puts(&want, "\"}");
                bool same = got.len == want.len && strcmp(got.ptr, want.ptr) == 0;
                FT_CHECK(same);
                floe__buf_free(&got);
                floe__buf_free(&want);
                if (!same)
                    return; /* one report is enough */
            }
}

static const ft_case cases[] = {
    {"nesting", test_nesting}, {"escaping", test_escaping}, {"numbers", test_numbers},
    {"escape_positions", test_escape_positions},
    {"misuse", test_misuse},   {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
