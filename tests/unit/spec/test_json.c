/* SPDX-License-Identifier: Apache-2.0 */
/* spec/json: the arena JSON parser — values, escapes, exact 64-bit integers,
 * order of members, malformed input and limits. */
#include "harness.h"
#include "spec/spec.h"

static floe_json *parse(const char *s)
{
    floe_json *j = NULL;
    if (floe__json_parse(&j, s, strlen(s), "test") < 0)
        return NULL;
    return j;
}

static void test_values(void)
{
    floe_json *j = parse(" {\"a\": [1, -2, 3.5, 1e3, true, false, null, \"x\"], \"b\": {}, \"c\": []} ");
    FT_ASSERT(j != NULL);
    FT_EQ_INT(floe__json_len(j), 3);
    floe_json *a = floe__json_get(j, "a");
    FT_EQ_INT(floe__json_len(a), 8);
    FT_EQ_INT(floe__json_ival(floe__json_at(a, 0)), 1);
    FT_EQ_INT(floe__json_ival(floe__json_at(a, 1)), -2);
    FT_CHECK(floe__json_num(floe__json_at(a, 2)) == 3.5);
    FT_CHECK(!floe__json_is_integer(floe__json_at(a, 3)) && floe__json_num(floe__json_at(a, 3)) == 1000);
    FT_CHECK(floe__json_is_true(floe__json_at(a, 4)));
    FT_CHECK(floe__json_is_boolean(floe__json_at(a, 5)) && !floe__json_is_true(floe__json_at(a, 5)));
    FT_CHECK(floe__json_is_null(floe__json_at(a, 6)));
    FT_EQ_STR(floe__json_sval(floe__json_at(a, 7)), "x");
    FT_CHECK(floe__json_at(a, 8) == NULL);
    FT_CHECK(floe__json_is_object(floe__json_get(j, "b")));
    FT_CHECK(floe__json_is_array(floe__json_get(j, "c")));
    FT_CHECK(floe__json_get(j, "zz") == NULL);
    FT_CHECK(floe__json_get(NULL, "a") == NULL);
    const char *k;
    floe_json *v;
    const char *order = "abc";
    size_t i = 0;
    FLOE_JSON_FOREACH(j, k, v) {
        FT_CHECK(k[0] == order[i++]);
        (void)v;
    }
    FT_EQ_INT(i, 3);
    floe__json_free(j);
}

static void test_int64_exact(void)
{
    floe_json *j = parse("[9223372036854775807, -9223372036854775808, 9158179788527662767]");
    FT_ASSERT(j != NULL);
    FT_EQ_INT(floe__json_ival(floe__json_at(j, 0)), INT64_MAX);
    FT_EQ_INT(floe__json_ival(floe__json_at(j, 1)), INT64_MIN);
    FT_EQ_INT(floe__json_ival(floe__json_at(j, 2)), 9158179788527662767LL);
    floe__json_free(j);
    floe_json *bad = NULL;
    FT_EQ_INT(floe__json_parse(&bad, "9223372036854775808", 19, "t"), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("integer too big");
}

static void test_strings(void)
{
    floe_json *j = parse("[\"a\\\"b\\\\c\\/d\\n\", \"\\u00e9\\u20ac\", \"\\ud83d\\udc07\", \"caf\xc3\xa9\"]");
    FT_ASSERT(j != NULL);
    FT_EQ_STR(floe__json_sval(floe__json_at(j, 0)), "a\"b\\c/d\n");
    FT_EQ_STR(floe__json_sval(floe__json_at(j, 1)), "\xc3\xa9\xe2\x82\xac");
    FT_EQ_STR(floe__json_sval(floe__json_at(j, 2)), "\xf0\x9f\x90\x87");
    FT_EQ_INT(floe__json_slen(floe__json_at(j, 2)), 4);
    FT_EQ_STR(floe__json_sval(floe__json_at(j, 3)), "caf\xc3\xa9");
    floe__json_free(j);
}

static void test_malformed(void)
{
    const char *bad[] = {"", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "tru", "nul",
                         "01", "1.", "-", "1e", "\"abc", "\"\\x\"", "\"\\ud800\"", "[1] x",
                         "{\"a\":\"\x01\"}", "+1", "NaN", "1e999"};
    for (size_t i = 0; i < FT_N(bad); i++) {
        floe_json *j = NULL;
        int rc = floe__json_parse(&j, bad[i], strlen(bad[i]), "case");
        if (rc != FLOE_ECORRUPT)
            ft_fail(__FILE__, __LINE__, "'%s' gave %d", bad[i], rc);
        FT_ERR_CONTAINS("case: malformed JSON at line 1");
        FT_CHECK(j == NULL);
    }
    floe_json *j = NULL;
    FT_EQ_INT(floe__json_parse(&j, "{\n\"a\":\n  x}", 11, "f"), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("line 3 column 3");
}

static void test_depth(void)
{
    char deep[2 * FLOE_JSON_MAX_DEPTH + 10];
    size_t n = FLOE_JSON_MAX_DEPTH + 1;
    for (size_t i = 0; i < n; i++) {
        deep[i] = '[';
        deep[n + i] = ']';
    }
    floe_json *j = NULL;
    FT_EQ_INT(floe__json_parse(&j, deep, 2 * n, "d"), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("nesting too deep");
    FT_OK(floe__json_parse(&j, deep + 1, 2 * n - 2, "d"));
    floe__json_free(j);
}

static void test_oom(void)
{
    const char *s = "{\"a\":[1,2,{\"b\":\"\\u00e9xx\"}],\"c\":\"long string value here\"}";
    for (long n = 1; n < 1000; n++) {
        floe_json *j = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__json_parse(&j, s, strlen(s), "oom");
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_EQ_STR(floe__json_sval(floe__json_get(floe__json_at(floe__json_get(j, "a"), 2), "b")),
                      "\xc3\xa9xx");
            floe__json_free(j);
            return;
        }
        FT_EQ_INT(rc, FLOE_ENOMEM);
    }
    ft_fail(__FILE__, __LINE__, "never succeeded");
}

static int sum_cb(const floe_json *e, size_t i, void *payload)
{
    int64_t *sum = payload;
    if (!floe__json_is_object(e))
        return floe__error(FLOE_EINVALID, "test", "element %zu not an object", i);
    *sum += floe__json_ival(floe__json_get(e, "v"));
    return 0;
}

static void test_lazy(void)
{
    static const char *const keys[] = {"big", "empty"};
    const char *doc = "{\"big\": [{\"v\": 1, \"s\": \"]},[\\\"\"}, {\"v\": 2}, {\"v\": 40}],"
                      " \"empty\": [ ], \"small\": [{\"v\": 5}], \"nested\": {\"big\": [1]}}";
    floe_json *j = NULL;
    FT_OK(floe__json_parse_lazy(&j, doc, strlen(doc), "lazy", keys, 2));
    floe_json *big = floe__json_get(j, "big");
    FT_EQ_INT(big->type, FLOE_JSON_LAZY);
    FT_EQ_INT(floe__json_count(big), 3);
    int64_t sum = 0;
    FT_OK(floe__json_each(big, "lazy", sum_cb, &sum));
    FT_EQ_INT(sum, 43);
    FT_EQ_INT(floe__json_count(floe__json_get(j, "empty")), 0);
    sum = 0;
    FT_OK(floe__json_each(floe__json_get(j, "empty"), "lazy", sum_cb, &sum));
    FT_EQ_INT(sum, 0);
    /* only root members are lazy; other arrays are ordinary */
    FT_CHECK(floe__json_is_array(floe__json_get(j, "small")));
    FT_CHECK(floe__json_is_array(floe__json_get(floe__json_get(j, "nested"), "big")));
    sum = 0;
    FT_OK(floe__json_each(floe__json_get(j, "small"), "lazy", sum_cb, &sum));
    FT_EQ_INT(sum, 5);
    floe__json_free(j);

    /* malformed elements are found while iterating, with document offsets */
    const char *bad[] = {"{\"big\": [{\"v\": 1},, {\"v\": 2}]}", "{\"big\": [{\"v\": 1} {\"v\": 2}]}",
                         "{\"big\": [{\"v\": 1},]}", "{\"big\": [{\"v\": tru}]}"};
    for (size_t i = 0; i < FT_N(bad); i++) {
        FT_OK(floe__json_parse_lazy(&j, bad[i], strlen(bad[i]), "bad", keys, 2));
        sum = 0;
        FT_EQ_INT(floe__json_each(floe__json_get(j, "big"), "bad", sum_cb, &sum), FLOE_ECORRUPT);
        FT_ERR_CONTAINS("bad: malformed JSON at line 1");
        floe__json_free(j);
    }
    const char *unterminated = "{\"big\": [{\"v\": \"]}";
    FT_EQ_INT(floe__json_parse_lazy(&j, unterminated, strlen(unterminated), "u", keys, 2),
              FLOE_ECORRUPT);
    /* a callback error stops the iteration and is returned */
    const char *notobj = "{\"big\": [1, 2]}";
    FT_OK(floe__json_parse_lazy(&j, notobj, strlen(notobj), "n", keys, 2));
    FT_EQ_INT(floe__json_each(floe__json_get(j, "big"), "n", sum_cb, &sum), FLOE_EINVALID);
    floe__json_free(j);
}

static const ft_case cases[] = {
    {"lazy", test_lazy},
    {"values", test_values},       {"int64_exact", test_int64_exact}, {"strings", test_strings},
    {"malformed", test_malformed}, {"depth", test_depth},             {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
