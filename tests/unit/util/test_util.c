/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of util/: errors, allocation failure, arena, buffers, maps, ids, pool. */
#include "harness.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>

static void test_error_slot(void)
{
    floe_error_clear();
    FT_CHECK(floe_error_last() == NULL);
    int rc = floe__error(FLOE_ENOTFOUND, "spec", "Cannot find snapshot with ID %d", 42);
    FT_EQ_INT(rc, FLOE_ENOTFOUND);
    FT_EQ_STR(floe_error_last()->message, "Cannot find snapshot with ID 42");
    FT_EQ_STR(floe_error_last()->subsystem, "spec");
    floe__error_context("loading %s", "t1");
    FT_EQ_STR(floe_error_last()->message, "loading t1: Cannot find snapshot with ID 42");
    FT_EQ_INT(floe_error_last()->code, FLOE_ENOTFOUND);
    FT_EQ_STR(floe_error_code_name(FLOE_ECOMMITUNKNOWN), "FLOE_ECOMMITUNKNOWN");
    /* A positive code is coerced to a failure. */
    FT_EQ_INT(floe__error(3, "x", "y"), FLOE_ERROR);
}

static void test_alloc_fail(void)
{
    floe__alloc_fail_at(2);
    void *a = floe__malloc(10);
    void *b = floe__malloc(10);
    FT_CHECK(a != NULL);
    FT_CHECK(b == NULL);
    FT_EQ_INT(floe_error_last()->code, FLOE_ENOMEM);
    floe__alloc_fail_at(0);
    floe__free(a);
    /* calloc overflow is an error, not a wrap-around */
    FT_CHECK(floe__calloc(SIZE_MAX / 2, 4) == NULL);
}

static void test_arena(void)
{
    floe_arena *a = floe__arena_new(64);
    FT_ASSERT(a);
    char *s = floe__arena_strdup(a, "hello");
    FT_EQ_STR(s, "hello");
    /* big allocations and many small ones */
    for (int i = 0; i < 1000; i++) {
        int *p = floe__arena_alloc(a, sizeof(int) * (size_t)(i % 50 + 1));
        FT_ASSERT(p);
        FT_CHECK(((uintptr_t)p & 15) == 0);
        p[0] = i;
    }
    char *big = floe__arena_calloc(a, 1, 100000);
    FT_ASSERT(big);
    FT_CHECK(big[99999] == 0);
    FT_EQ_STR(floe__arena_sprintf(a, "%s-%d", "v", 12), "v-12");
    FT_EQ_STR(s, "hello");
    floe__arena_reset(a);
    FT_EQ_INT(floe__arena_bytes(a), 0);
    FT_EQ_STR(floe__arena_strdup(a, "again"), "again");
    floe__arena_free(a);
    floe__arena_free(NULL);
}

static void test_buf(void)
{
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__buf_puts(&b, "a"));
    FT_OK(floe__buf_printf(&b, "%05d", 42));
    FT_EQ_STR(b.ptr, "a00042");
    floe__buf_clear(&b);
    FT_OK(floe__buf_put_json_escaped(&b, "q\"\\\n\x01z", 6));
    FT_EQ_STR(b.ptr, "q\\\"\\\\\\n\\u0001z");
    floe__buf_clear(&b);
    for (int i = 0; i < 1000; i++)
        FT_OK(floe__buf_printf(&b, "%d,", i));
    FT_CHECK(b.len > 3000);
    char *d = floe__buf_detach(&b);
    FT_CHECK(strncmp(d, "0,1,2,", 6) == 0);
    FT_CHECK(b.ptr == NULL);
    floe__free(d);
    floe_buf e = FLOE_BUF_INIT;
    char *empty = floe__buf_detach(&e);
    FT_EQ_STR(empty, "");
    floe__free(empty);

    floe_vec v = FLOE_VEC_INIT(int64_t);
    for (int64_t i = 0; i < 100; i++)
        *(int64_t *)floe__vec_push(&v) = i * 3;
    FT_EQ_INT(v.len, 100);
    FT_EQ_INT(*(int64_t *)floe__vec_at(&v, 99), 297);
    FT_CHECK(floe__vec_at(&v, 100) == NULL);
    floe__vec_free(&v);
}

static void test_maps(void)
{
    floe_strmap *m = floe__strmap_new();
    char keys[500][16];
    for (int i = 0; i < 500; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        FT_OK(floe__strmap_put(m, keys[i], (void *)(intptr_t)(i + 1)));
    }
    FT_EQ_INT(floe__strmap_len(m), 500);
    FT_EQ_INT((intptr_t)floe__strmap_get(m, "k377"), 378);
    FT_CHECK(floe__strmap_get(m, "nope") == NULL);
    FT_CHECK(floe__strmap_del(m, "k10"));
    FT_CHECK(!floe__strmap_has(m, "k10"));
    FT_CHECK(!floe__strmap_del(m, "k10"));
    FT_OK(floe__strmap_put(m, "k11", (void *)(intptr_t)7));
    FT_EQ_INT((intptr_t)floe__strmap_get(m, "k11"), 7);
    size_t it = 0, n = 0;
    const char *k;
    while (floe__strmap_next(m, &it, &k, NULL))
        n++;
    FT_EQ_INT(n, 499);
    floe__strmap_free(m);

    floe_intmap *im = floe__intmap_new();
    for (int64_t i = 0; i < 10000; i++)
        FT_OK(floe__intmap_put(im, i * 7919 + INT64_C(4611686018427387904), (void *)(intptr_t)i));
    FT_EQ_INT((intptr_t)floe__intmap_get(im, 5 * 7919 + INT64_C(4611686018427387904)), 5);
    for (int64_t i = 0; i < 10000; i += 2)
        FT_CHECK(floe__intmap_del(im, i * 7919 + INT64_C(4611686018427387904)));
    FT_EQ_INT(floe__intmap_len(im), 5000);
    FT_CHECK(!floe__intmap_has(im, 4611686018427387904));
    FT_CHECK(floe__intmap_has(im, 7919 + INT64_C(4611686018427387904)));
    floe__intmap_free(im);
}

static void test_ids(void)
{
    char u[37];
    FT_OK(floe__uuid4(u));
    FT_EQ_INT(strlen(u), 36);
    FT_CHECK(u[14] == '4');
    FT_CHECK(strchr("89ab", u[19]) != NULL);
    uint8_t b[16];
    FT_OK(floe__uuid_parse(u, b));
    char back[37];
    floe__uuid_format(b, back);
    FT_EQ_STR(back, u);
    FT_CHECK(floe__uuid_parse("12151fd2-7586-11e9-8f9e-2a86e4085a5", b) < 0);
    FT_CHECK(floe__uuid_parse("12151fd2-7586-11e9-8f9e-2a86e4085a5g", b) < 0);
    int64_t prev = -1;
    for (int i = 0; i < 1000; i++) {
        int64_t id;
        FT_OK(floe__snapshot_id(&id));
        FT_CHECK(id > 0);
        FT_CHECK(id != prev);
        prev = id;
    }
    FT_CHECK(floe__now_ms() > INT64_C(1700000000000));
}

static int square_into(size_t i, void *payload)
{
    int64_t *out = payload;
    out[i] = (int64_t)(i * i);
    if (i == 77)
        return floe__error(FLOE_EINVALID, "test", "item %zu refused", i);
    return 0;
}

static void test_pool(void)
{
    floe_pool *p = floe__pool_new(4);
    FT_ASSERT(p);
    int64_t out[1000] = {0};
    for (int round = 0; round < 20; round++) {
        floe_error_clear();
        int rc = floe__pool_for(p, 1000, square_into, out);
        FT_EQ_INT(rc, FLOE_EINVALID);
        FT_ERR_CONTAINS("item 77 refused");
    }
    FT_EQ_INT(out[999], 998001);
    FT_EQ_INT(out[0], 0);
    floe__pool_free(p);
    int64_t out2[3];
    FT_EQ_INT(floe__pool_for(NULL, 3, square_into, out2), 0);
    FT_EQ_INT(out2[2], 4);
}

static void test_props(void)
{
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "commit.retry.num-retries", "4"));
    FT_OK(floe__props_set(&p, "write.wap.enabled", "TRUE"));
    FT_OK(floe__props_set(&p, "a", "x"));
    FT_OK(floe__props_set(&p, "commit.retry.num-retries", "5"));
    FT_EQ_INT(p.n, 3);
    FT_EQ_STR(p.items[0].key, "commit.retry.num-retries"); /* order kept on replace */
    int64_t n;
    FT_OK(floe__props_get_int64(&p, "commit.retry.num-retries", 0, &n));
    FT_EQ_INT(n, 5);
    FT_OK(floe__props_get_int64(&p, "missing", 77, &n));
    FT_EQ_INT(n, 77);
    FT_EQ_INT(floe__props_get_int64(&p, "a", 0, &n), FLOE_EINVALID);
    FT_ERR_CONTAINS("property a: not an integer");
    bool b;
    FT_OK(floe__props_get_bool(&p, "write.wap.enabled", false, &b));
    FT_CHECK(b);
    FT_CHECK(floe__props_del(&p, "write.wap.enabled"));
    FT_CHECK(floe__props_get(&p, "write.wap.enabled") == NULL);
    FT_EQ_STR(p.items[1].key, "a");
    floe_props q = FLOE_PROPS_INIT;
    FT_OK(floe__props_copy(&q, &p));
    FT_EQ_STR(floe__props_get(&q, "a"), "x");
    floe__props_free(&p);
    floe__props_free(&q);
}

/* The public side (include/floe/common.h): new/set/get/remove/iterate/free,
 * NULL arguments, and every allocation failing in turn. */
static void test_props_public(void)
{
    floe_props *p = NULL;
    FT_OK(floe_props_new(&p));
    FT_EQ_INT(floe_props_count(p), 0);
    FT_CHECK(floe_props_get(p, "owner") == NULL);
    FT_CHECK(floe_props_key_at(p, 0) == NULL);
    FT_OK(floe_props_set(p, "owner", "ana"));
    FT_OK(floe_props_set(p, "comment", "sales data"));
    FT_OK(floe_props_set(p, "owner", "bo")); /* replaced in place */
    FT_EQ_INT(floe_props_count(p), 2);
    FT_EQ_STR(floe_props_key_at(p, 0), "owner");
    FT_EQ_STR(floe_props_value_at(p, 0), "bo");
    FT_EQ_STR(floe_props_key_at(p, 1), "comment");
    FT_EQ_STR(floe_props_get(p, "comment"), "sales data");
    FT_CHECK(floe_props_value_at(p, 2) == NULL);
    /* values are copies */
    char buf[8] = "x";
    FT_OK(floe_props_set(p, "k", buf));
    buf[0] = 'y';
    FT_EQ_STR(floe_props_get(p, "k"), "x");
    FT_CHECK(floe_props_remove(p, "owner"));
    FT_CHECK(!floe_props_remove(p, "owner"));
    FT_EQ_INT(floe_props_count(p), 2);
    FT_EQ_STR(floe_props_key_at(p, 0), "comment");
    /* bad arguments: errors, never crashes */
    FT_EQ_INT(floe_props_set(p, NULL, "v"), FLOE_EINVALID);
    FT_ERR_CONTAINS("key is NULL");
    FT_EQ_INT(floe_props_set(p, "k", NULL), FLOE_EINVALID);
    FT_EQ_INT(floe_props_set(NULL, "k", "v"), FLOE_EINVALID);
    FT_EQ_INT(floe_props_new(NULL), FLOE_EINVALID);
    FT_CHECK(floe_props_get(NULL, "k") == NULL);
    FT_CHECK(floe_props_get(p, NULL) == NULL);
    FT_EQ_INT(floe_props_count(NULL), 0);
    FT_CHECK(!floe_props_remove(NULL, "k"));
    floe_props_free(p);
    floe_props_free(NULL);

    /* allocation failure at every step: FLOE_ENOMEM, the map unchanged */
    long n;
    for (n = 1; n < 1000; n++) {
        floe_props *q = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_props_new(&q);
        if (rc == 0)
            rc = floe_props_set(q, "a", "1");
        if (rc == 0)
            rc = floe_props_set(q, "b", "2");
        if (rc == 0)
            rc = floe_props_set(q, "a", "3");
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_EQ_INT(floe_props_count(q), 2);
            FT_EQ_STR(floe_props_get(q, "a"), "3");
            floe_props_free(q);
            break;
        }
        FT_EQ_INT(rc, FLOE_ENOMEM);
        FT_EQ_INT(floe_error_last()->code, FLOE_ENOMEM);
        if (q) {
            /* what was set before the failure is there and intact */
            FT_CHECK(floe_props_count(q) <= 2);
            if (floe_props_count(q) == 2)
                FT_EQ_STR(floe_props_get(q, "a"), "1");
        }
        floe_props_free(q);
    }
    FT_CHECK(n > 3);
}

static const ft_case cases[] = {
    {"props", test_props},
    {"props_public", test_props_public},
    {"error_slot", test_error_slot},
    {"alloc_fail", test_alloc_fail},
    {"arena", test_arena},
    {"buf", test_buf},
    {"maps", test_maps},
    {"ids", test_ids},
    {"pool", test_pool},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
