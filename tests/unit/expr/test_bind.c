/* SPDX-License-Identifier: Apache-2.0 */
/* Expressions: construction, NOT rewriting, binding (names, nested fields,
 * case, literal conversion, errors) and row evaluation. */
#include "fixture.h"

static floe_arena *A;

static const floe_expr *bind_ok(const floe_expr *e, bool cs)
{
    const floe_expr *out = NULL;
    if (floe_expr_bind(&out, A, &fx_schema, e, cs) < 0) {
        ft_fail(__FILE__, __LINE__, "bind %s: %s", fx_fmt(e), ft_floe_err());
        return floe_expr_false();
    }
    return out;
}

static int bind_rc(const floe_expr *e)
{
    const floe_expr *out = NULL;
    return floe_expr_bind(&out, A, &fx_schema, e, true);
}

static bool eval(const floe_expr *bound, fx_row *r)
{
    bool m = false;
    if (floe_expr_eval(&m, bound, fx_get, r) < 0)
        ft_fail(__FILE__, __LINE__, "eval: %s", ft_floe_err());
    return m;
}

static void setup(void)
{
    A = floe__arena_new(4096);
}

static void teardown(void)
{
    floe__arena_free(A);
    A = NULL;
}

static void test_construct_and_format(void)
{
    setup();
    const floe_expr *e =
        floe_expr_and(A, floe_expr_cmp(A, FLOE_OP_GT, "id", floe_value_long(5)),
                      floe_expr_or(A, floe_expr_cmp(A, FLOE_OP_STARTS_WITH, "name", S("ab")),
                                   floe_expr_unary(A, FLOE_OP_IS_NULL, "d")));
    FT_EQ_STR(fx_fmt(e), "(id > 5 AND (name STARTS WITH 'ab' OR d IS NULL))");
    floe_value in[3] = {floe_value_int(1), floe_value_int(2), floe_value_int(3)};
    FT_EQ_STR(fx_fmt(floe_expr_set(A, FLOE_OP_NOT_IN, "i", in, 3)), "i NOT IN (1, 2, 3)");
    /* constant folding */
    FT_CHECK(floe_expr_and(A, floe_expr_true(), e) == e);
    FT_CHECK(floe_expr_and(A, floe_expr_false(), e) == floe_expr_false());
    FT_CHECK(floe_expr_or(A, e, floe_expr_true()) == floe_expr_true());
    FT_CHECK(floe_expr_not(A, floe_expr_not(A, e)) == e);
    /* wrong arity and null literals */
    FT_CHECK(floe_expr_pred(A, FLOE_OP_LT, "id", NULL, 0) == NULL);
    FT_ERR_CONTAINS("takes one literal");
    FT_CHECK(floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_null(FLOE_T_LONG)) == NULL);
    FT_ERR_CONTAINS("null");
    FT_CHECK(floe_expr_and(A, NULL, e) == NULL);
    teardown();
}

static void test_rewrite_not(void)
{
    setup();
    const floe_expr *e = floe_expr_not(
        A, floe_expr_and(A, floe_expr_cmp(A, FLOE_OP_LT, "id", floe_value_long(5)),
                         floe_expr_not(A, floe_expr_or(A, floe_expr_unary(A, FLOE_OP_IS_NULL, "d"),
                                                       floe_expr_cmp(A, FLOE_OP_STARTS_WITH, "name",
                                                                     S("x"))))));
    const floe_expr *r;
    FT_OK(floe_expr_rewrite_not(&r, A, e));
    FT_EQ_STR(fx_fmt(r), "(id >= 5 OR (d IS NULL OR name STARTS WITH 'x'))");
    static const floe_op ops[] = {FLOE_OP_IS_NULL, FLOE_OP_IS_NAN, FLOE_OP_LT_EQ,
                                  FLOE_OP_GT,      FLOE_OP_EQ,     FLOE_OP_NOT_STARTS_WITH,
                                  FLOE_OP_IN};
    static const char *want[] = {"score IS NOT NULL", "score IS NOT NAN", "score > 1",
                                 "score <= 1",        "score != 1",       "score STARTS WITH 1",
                                 "score NOT IN (1)"};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(ops); i++) {
        floe_value one = floe_value_double(1);
        const floe_expr *p =
            floe_expr_pred(A, ops[i], "score", &one,
                           ops[i] == FLOE_OP_IS_NULL || ops[i] == FLOE_OP_IS_NAN ? 0 : 1);
        FT_OK(floe_expr_rewrite_not(&r, A, floe_expr_not(A, p)));
        FT_EQ_STR(fx_fmt(r), want[i]);
    }
    teardown();
}

static void test_bind_names(void)
{
    setup();
    const floe_expr *b = bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, "loc.zip", floe_value_int(7)), true);
    FT_EQ_INT(b->field_id, 13);
    b = bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, "a.b", floe_value_int(7)), true);
    FT_EQ_INT(b->field_id, 19);
    b = bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, "LOC.City", S("x")), false);
    FT_EQ_INT(b->field_id, 12);
    FT_EQ_INT(bind_rc(floe_expr_cmp(A, FLOE_OP_EQ, "LOC.City", S("x"))), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot find field 'LOC.City' in struct: struct<id, name");
    FT_EQ_INT(bind_rc(floe_expr_cmp(A, FLOE_OP_EQ, "nope", S("x"))), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot find field 'nope'");
    FT_EQ_INT(bind_rc(floe_expr_unary(A, FLOE_OP_IS_NULL, "loc")), FLOE_EINVALID);
    FT_ERR_CONTAINS("nested column loc");
    FT_EQ_INT(bind_rc(floe_expr_unary(A, FLOE_OP_IS_NULL, "tags")), FLOE_EINVALID);
    /* required columns fold IS NULL / NOT NULL */
    FT_CHECK(bind_ok(floe_expr_unary(A, FLOE_OP_IS_NULL, "id"), true) == floe_expr_false());
    FT_CHECK(bind_ok(floe_expr_unary(A, FLOE_OP_NOT_NULL, "id"), true) == floe_expr_true());
    /* binding pushes NOT down */
    b = bind_ok(floe_expr_not(A, floe_expr_cmp(A, FLOE_OP_LT, "i", floe_value_int(3))), true);
    FT_EQ_INT(b->kind, FLOE_EXPR_PRED);
    FT_EQ_INT(b->op, FLOE_OP_GT_EQ);
    teardown();
}

static void lit_ok(const char *col, floe_value lit, const char *want)
{
    const floe_expr *b = bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, col, lit), true);
    FT_EQ_STR(fx_fmt(b), want);
}

static void lit_err(const char *col, floe_value lit, const char *msg)
{
    FT_EQ_INT(bind_rc(floe_expr_cmp(A, FLOE_OP_EQ, col, lit)), FLOE_EINVALID);
    FT_ERR_CONTAINS(msg);
}

static void test_bind_literals(void)
{
    setup();
    lit_ok("id", floe_value_int(5), "id = 5");
    FT_EQ_INT(bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(5)), true)->lits[0].type,
              FLOE_T_LONG);
    lit_ok("d", S("2026-09-20"), "d = '2026-09-20'");
    lit_ok("d", floe_value_int(fx_days(2026, 9, 20)), "d = '2026-09-20'");
    lit_ok("ts", S("2026-09-20T10:00:00+02:00"), "ts = '2026-09-20T08:00:00.000000+00:00'");
    lit_ok("ts", S("2026-09-20T10:00:00.5Z"), "ts = '2026-09-20T10:00:00.500000+00:00'");
    lit_ok("ts", S("2026-09-20 10:00"), "ts = '2026-09-20T10:00:00.000000+00:00'");
    lit_ok("ts", S("2026-09-20"), "ts = '2026-09-20T00:00:00.000000+00:00'");
    lit_ok("lts", S("1969-12-31T23:59:59.999999"), "lts = '1969-12-31T23:59:59.999999'");
    lit_ok("nts", S("2026-09-20T10:00:00.000000001"), "nts = '2026-09-20T10:00:00.000000001'");
    lit_ok("lts", floe_value_date(fx_days(2026, 1, 2)), "lts = '2026-01-02T00:00:00.000000'");
    lit_ok("t", S("10:30:01.25"), "t = '10:30:01.250000'");
    lit_ok("price", S("14.2"), "price = 14.20");
    lit_ok("price", floe_value_decimal(1420, 2), "price = 14.20");
    lit_ok("price", floe_value_decimal(142000, 4), "price = 14.20");
    lit_ok("price", floe_value_int(3), "price = 3.00");
    lit_ok("score", floe_value_int(3), "score = 3");
    lit_ok("score", floe_value_float(1.5f), "score = 1.5");
    lit_ok("u", S("f79c3e09-677c-4bbd-a479-3f349cb785e7"),
           "u = 'f79c3e09-677c-4bbd-a479-3f349cb785e7'");
    lit_ok("b", floe_value_bytes(FLOE_T_BINARY, "\x01\x02", 2), "b = X'0102'");
    lit_ok("fx", floe_value_bytes(FLOE_T_BINARY, "abcd", 4), "fx = X'61626364'");
    lit_ok("flag", floe_value_bool(true), "flag = true");

    lit_err("d", S("2026-02-30"), "not an ISO-8601 date");
    lit_err("d", S("yesterday"), "Invalid value for conversion to type date");
    lit_err("i", S("5"), "Invalid value for conversion to type int: 5 (string) for column i");
    lit_err("price", floe_value_decimal(14205, 3), "scale would be lost");
    lit_err("price", S("1.2.3"), "not a decimal");
    /* a scale past 38 digits: only zero converts (no overflow computing 10^scale) */
    lit_err("price", S("0.0000000000000000000000000000000000000000001"), "scale would be lost");
    lit_ok("price", S("0.0000000000000000000000000000000000000000000"), "price = 0.00");
    lit_err("lts", S("2026-09-20T10:00:00+02:00"), "cannot have an offset");
    lit_err("ts", S("2026-09-20T25:00:00Z"), "not an ISO-8601 timestamp");
    lit_err("ts", S("2026-09-20T10:00:00.0000001Z"), "sub-microsecond");
    lit_err("u", S("not-a-uuid"), "not a UUID");
    lit_err("fx", floe_value_bytes(FLOE_T_BINARY, "abc", 3), "length does not match");
    lit_err("flag", floe_value_int(1), "type boolean");
    lit_err("score", floe_value_double(NAN), "use isNaN or notNaN");
    FT_EQ_INT(bind_rc(floe_expr_unary(A, FLOE_OP_IS_NAN, "i")), FLOE_EINVALID);
    FT_ERR_CONTAINS("IsNaN cannot be used with a non-floating-point column");
    FT_EQ_INT(bind_rc(floe_expr_cmp(A, FLOE_OP_STARTS_WITH, "i", S("1"))), FLOE_EINVALID);
    FT_ERR_CONTAINS("string column");
    teardown();
}

static void test_bind_out_of_range(void)
{
    setup();
    int64_t big = INT64_C(1) << 40;
    /* int column vs. a long literal beyond int range (Java AboveMax/BelowMin) */
    FT_EQ_STR(fx_fmt(bind_ok(floe_expr_cmp(A, FLOE_OP_LT, "i", floe_value_long(big)), true)),
              "i IS NOT NULL");
    FT_CHECK(bind_ok(floe_expr_cmp(A, FLOE_OP_GT, "i", floe_value_long(big)), true) ==
             floe_expr_false());
    FT_CHECK(bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, "i", floe_value_long(big)), true) ==
             floe_expr_false());
    FT_CHECK(bind_ok(floe_expr_cmp(A, FLOE_OP_NOT_EQ, "i", floe_value_long(big)), true) ==
             floe_expr_true());
    FT_EQ_STR(fx_fmt(bind_ok(floe_expr_cmp(A, FLOE_OP_GT_EQ, "i", floe_value_long(-big)), true)),
              "i IS NOT NULL");
    FT_CHECK(bind_ok(floe_expr_cmp(A, FLOE_OP_LT_EQ, "i", floe_value_long(-big)), true) ==
             floe_expr_false());
    FT_EQ_STR(fx_fmt(bind_ok(floe_expr_cmp(A, FLOE_OP_LT, "f", floe_value_double(1e300)), true)),
              "(f IS NOT NULL AND f IS NOT NAN)");
    floe_value in[3] = {floe_value_long(big), floe_value_long(3), floe_value_long(3)};
    FT_EQ_STR(fx_fmt(bind_ok(floe_expr_set(A, FLOE_OP_IN, "i", in, 3), true)), "i = 3");
    FT_CHECK(bind_ok(floe_expr_set(A, FLOE_OP_IN, "i", in, 1), true) == floe_expr_false());
    FT_CHECK(bind_ok(floe_expr_set(A, FLOE_OP_NOT_IN, "i", in, 1), true) == floe_expr_true());
    /* price decimal(10,2): 10^8 does not fit */
    FT_CHECK(bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, "price", floe_value_long(100000000)), true) ==
             floe_expr_false());
    teardown();
}

#define CMP_ID_EQ7() floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_long(7))

static void test_eval_rows(void)
{
    setup();
    fx_row r;
    memset(&r, 0, sizeof r);
    fx_set(&r, 1, floe_value_long(7));
    fx_set(&r, 2, S("Flopsy \xf0\x9f\x90\x87"));
    fx_set(&r, 4, floe_value_date(fx_days(2022, 1, 1)));
    fx_set(&r, 6, floe_value_double(NAN));
    fx_set(&r, 13, floe_value_int(75001));
    struct {
        const floe_expr *e;
        bool want;
    } cases[] = {
        {floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(7)), true},
        {floe_expr_cmp(A, FLOE_OP_LT, "id", floe_value_int(7)), false},
        {floe_expr_cmp(A, FLOE_OP_LT_EQ, "id", floe_value_int(7)), true},
        {floe_expr_cmp(A, FLOE_OP_GT, "id", floe_value_int(6)), true},
        {floe_expr_cmp(A, FLOE_OP_GT_EQ, "id", floe_value_int(8)), false},
        {floe_expr_cmp(A, FLOE_OP_NOT_EQ, "id", floe_value_int(7)), false},
        {floe_expr_cmp(A, FLOE_OP_STARTS_WITH, "name", S("Flop")), true},
        {floe_expr_cmp(A, FLOE_OP_STARTS_WITH, "name", S("flop")), false},
        {floe_expr_cmp(A, FLOE_OP_NOT_STARTS_WITH, "name", S("Mop")), true},
        {floe_expr_cmp(A, FLOE_OP_EQ, "d", S("2022-01-01")), true},
        {floe_expr_cmp(A, FLOE_OP_GT, "d", S("2022-01-01")), false},
        {floe_expr_unary(A, FLOE_OP_IS_NULL, "ts"), true},
        {floe_expr_unary(A, FLOE_OP_NOT_NULL, "d"), true},
        /* null semantics: comparisons false, negations true */
        {floe_expr_cmp(A, FLOE_OP_LT, "ts", S("2030-01-01T00:00:00Z")), false},
        {floe_expr_cmp(A, FLOE_OP_NOT_EQ, "ts", S("2030-01-01T00:00:00Z")), true},
        {floe_expr_cmp(A, FLOE_OP_STARTS_WITH, "loc.city", S("a")), false},
        {floe_expr_cmp(A, FLOE_OP_NOT_STARTS_WITH, "loc.city", S("a")), true},
        {floe_expr_unary(A, FLOE_OP_NOT_NAN, "f"), true},
        {floe_expr_unary(A, FLOE_OP_IS_NAN, "f"), false},
        /* NaN: only IS NAN and != match */
        {floe_expr_unary(A, FLOE_OP_IS_NAN, "score"), true},
        {floe_expr_unary(A, FLOE_OP_NOT_NAN, "score"), false},
        {floe_expr_cmp(A, FLOE_OP_GT, "score", floe_value_double(1)), false},
        {floe_expr_cmp(A, FLOE_OP_LT, "score", floe_value_double(1)), false},
        {floe_expr_cmp(A, FLOE_OP_NOT_EQ, "score", floe_value_double(1)), true},
        {floe_expr_cmp(A, FLOE_OP_EQ, "loc.zip", floe_value_long(75001)), true},
        {floe_expr_not(A, floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(7))), false},
        {floe_expr_not(A, floe_expr_and(A, floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(7)),
                                        floe_expr_unary(A, FLOE_OP_IS_NULL, "ts"))),
         false},
        {floe_expr_or(A, floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(8)),
                      floe_expr_unary(A, FLOE_OP_IS_NULL, "ts")),
         true},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(cases); i++) {
        const floe_expr *b = bind_ok(cases[i].e, true);
        bool got = eval(b, &r);
        if (got != cases[i].want)
            ft_fail(__FILE__, __LINE__, "case %zu %s: got %d", i, fx_fmt(b), got);
    }
    floe_value in[3] = {floe_value_long(1), floe_value_long(7), floe_value_long(9)};
    FT_CHECK(eval(bind_ok(floe_expr_set(A, FLOE_OP_IN, "id", in, 3), true), &r));
    FT_CHECK(!eval(bind_ok(floe_expr_set(A, FLOE_OP_NOT_IN, "id", in, 3), true), &r));
    FT_CHECK(!eval(bind_ok(floe_expr_set(A, FLOE_OP_IN, "id", in, 1), true), &r));
    FT_CHECK(!eval(bind_ok(floe_expr_set(A, FLOE_OP_IN, "i", in, 3), true), &r)); /* null */
    FT_CHECK(eval(bind_ok(floe_expr_set(A, FLOE_OP_NOT_IN, "i", in, 3), true), &r));
    /* values of a promoted column's old type (int file, long column) */
    fx_row old;
    memset(&old, 0, sizeof old);
    fx_set(&old, 1, floe_value_int(7));
    fx_set(&old, 6, floe_value_float(2.5f));
    FT_CHECK(eval(bind_ok(CMP_ID_EQ7(), true), &old));
    FT_CHECK(
        eval(bind_ok(floe_expr_cmp(A, FLOE_OP_GT, "score", floe_value_double(2.25)), true), &old));
    FT_CHECK(
        !eval(bind_ok(floe_expr_cmp(A, FLOE_OP_GT, "score", floe_value_double(2.5)), true), &old));
    /* unbound predicates are refused */
    bool m;
    FT_EQ_INT(floe_expr_eval(&m, floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(1)), fx_get, &r),
              FLOE_EINVALID);
    teardown();
}

static int failing_get(int32_t id, floe_value *out, void *payload)
{
    (void)id, (void)out, (void)payload;
    return floe__error(FLOE_EIO, "test", "getter failed");
}

static void test_eval_getter_error(void)
{
    setup();
    bool m;
    const floe_expr *b = bind_ok(floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(1)), true);
    FT_EQ_INT(floe_expr_eval(&m, b, failing_get, NULL), FLOE_EIO);
    teardown();
}

static void test_bind_oom(void)
{
    /* Every allocation failing in turn returns FLOE_ENOMEM without leaks. */
    for (long n = 1;; n++) {
        floe_arena *a = floe__arena_new(256);
        FT_ASSERT(a);
        floe__alloc_fail_at(n);
        const floe_expr *e = floe_expr_not(
            a, floe_expr_and(a, floe_expr_cmp(a, FLOE_OP_EQ, "d", S("2026-09-20")),
                             floe_expr_cmp(a, FLOE_OP_STARTS_WITH, "name", S("abc"))));
        const floe_expr *out = NULL;
        int rc = e ? floe_expr_bind(&out, a, &fx_schema, e, false) : FLOE_ENOMEM;
        floe__alloc_fail_at(0);
        floe__arena_free(a);
        if (rc == 0)
            break;
        FT_EQ_INT(rc, FLOE_ENOMEM);
        if (n > 200) {
            ft_fail(__FILE__, __LINE__, "no success after 200 allocations");
            break;
        }
    }
}

static void test_field_ids(void)
{
    setup();
    const floe_expr *b = bind_ok(
        floe_expr_or(A,
                     floe_expr_and(A, floe_expr_cmp(A, FLOE_OP_EQ, "loc.zip", floe_value_int(1)),
                                   floe_expr_cmp(A, FLOE_OP_GT, "id", floe_value_long(3))),
                     floe_expr_cmp(A, FLOE_OP_LT, "loc.zip", floe_value_int(9))),
        true);
    floe_vec ids = FLOE_VEC_INIT(int32_t);
    FT_OK(floe_expr_field_ids(b, &ids));
    FT_EQ_INT(ids.len, 2);
    FT_EQ_INT(*(int32_t *)floe__vec_at(&ids, 0), 13);
    FT_EQ_INT(*(int32_t *)floe__vec_at(&ids, 1), 1);
    floe__vec_free(&ids);
    FT_OK(floe_expr_field_ids(floe_expr_true(), &ids));
    FT_EQ_INT(ids.len, 0);
    FT_EQ_INT(floe_expr_field_ids(floe_expr_cmp(A, FLOE_OP_EQ, "id", floe_value_int(1)), &ids),
              FLOE_EINVALID);
    floe__vec_free(&ids);
    teardown();
}

static const ft_case cases[] = {
    {"field_ids", test_field_ids},         {"construct_and_format", test_construct_and_format},
    {"rewrite_not", test_rewrite_not},     {"bind_names", test_bind_names},
    {"bind_literals", test_bind_literals}, {"bind_out_of_range", test_bind_out_of_range},
    {"eval_rows", test_eval_rows},         {"eval_getter_error", test_eval_getter_error},
    {"bind_oom", test_bind_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
