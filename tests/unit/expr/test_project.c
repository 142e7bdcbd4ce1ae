/* SPDX-License-Identifier: Apache-2.0 */
/* Inclusive and strict projections through every transform, and residuals
 * (the expected partition predicates follow Java's Projections). */
#include "fixture.h"

static floe_arena *A;

static floe_transform TR(floe_transform_kind k, int32_t p, const char *name)
{
    floe_transform t = {k, p, name};
    return t;
}

static const floe_expr *bind(const floe_expr *e)
{
    const floe_expr *out = NULL;
    if (floe_expr_bind(&out, A, &fx_schema, e, true) < 0) {
        ft_fail(__FILE__, __LINE__, "bind: %s", ft_floe_err());
        return floe_expr_false();
    }
    return out;
}

static const char *incl(const floe_expr *e, const floe_partition_spec *spec)
{
    const floe_expr *p = NULL;
    if (floe_expr_project_inclusive(&p, A, bind(e), spec) < 0)
        return ft_floe_err();
    return fx_fmt(p);
}

static const char *strict(const floe_expr *e, const floe_partition_spec *spec)
{
    const floe_expr *p = NULL;
    if (floe_expr_project_strict(&p, A, bind(e), spec) < 0)
        return ft_floe_err();
    return fx_fmt(p);
}

#define CMP(op, col, lit) floe_expr_cmp(A, op, col, lit)

static void test_identity_and_void(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{4, 1000, "d", TR(FLOE_TR_IDENTITY, 0, "identity")},
                                {2, 1001, "name_void", TR(FLOE_TR_VOID, 0, "void")},
                                {8, 1002, "i_unknown", TR(FLOE_TR_UNKNOWN, 0, "zorder")}};
    floe_partition_spec spec = {1, 3, f};
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "d", S("2026-09-20")), &spec), "d < '2026-09-20'");
    FT_EQ_STR(incl(floe_expr_unary(A, FLOE_OP_IS_NULL, "d"), &spec), "d IS NULL");
    FT_EQ_STR(incl(CMP(FLOE_OP_NOT_EQ, "d", S("2026-09-20")), &spec), "d != '2026-09-20'");
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "name", S("x")), &spec), "true");
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "i", floe_value_int(1)), &spec), "true");
    FT_EQ_STR(strict(CMP(FLOE_OP_EQ, "i", floe_value_int(1)), &spec), "false");
    FT_EQ_STR(incl(floe_expr_and(A, CMP(FLOE_OP_EQ, "id", floe_value_int(1)),
                                 CMP(FLOE_OP_GT_EQ, "d", S("2026-01-01"))),
                   &spec),
              "d >= '2026-01-01'");
    FT_EQ_STR(incl(floe_expr_or(A, CMP(FLOE_OP_EQ, "id", floe_value_int(1)),
                                CMP(FLOE_OP_GT_EQ, "d", S("2026-01-01"))),
                   &spec),
              "true");
    FT_EQ_STR(strict(CMP(FLOE_OP_EQ, "d", S("2026-01-01")), &spec), "d = '2026-01-01'");
    floe__arena_free(A);
}

static void test_bucket(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{1, 1000, "id_bucket", TR(FLOE_TR_BUCKET, 16, "bucket[16]")}};
    floe_partition_spec spec = {0, 1, f};
    /* bucket[16](34) = 3, bucket[16](1) = ? computed through the transform */
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "id", floe_value_long(34)), &spec), "id_bucket = 3");
    floe_value in[3] = {floe_value_long(34), floe_value_long(34), floe_value_long(1)};
    floe_value b1;
    floe_transform t = f[0].transform;
    FT_OK(floe_transform_apply(&t, &in[2], &b1));
    char want[64];
    snprintf(want, sizeof want, "id_bucket IN (3, %d)", b1.v.i32);
    FT_EQ_STR(incl(floe_expr_set(A, FLOE_OP_IN, "id", in, 3), &spec), want);
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "id", floe_value_long(34)), &spec), "true");
    FT_EQ_STR(incl(CMP(FLOE_OP_NOT_EQ, "id", floe_value_long(34)), &spec), "true");
    FT_EQ_STR(strict(CMP(FLOE_OP_NOT_EQ, "id", floe_value_long(34)), &spec), "id_bucket != 3");
    FT_EQ_STR(strict(CMP(FLOE_OP_EQ, "id", floe_value_long(34)), &spec), "false");
    snprintf(want, sizeof want, "id_bucket NOT IN (3, %d)", b1.v.i32);
    FT_EQ_STR(strict(floe_expr_set(A, FLOE_OP_NOT_IN, "id", in, 3), &spec), want);
    floe__arena_free(A);
}

static void test_truncate_numbers(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{8, 1000, "i_trunc", TR(FLOE_TR_TRUNCATE, 10, "truncate[10]")},
                                {5, 1001, "p_trunc", TR(FLOE_TR_TRUNCATE, 50, "truncate[50]")}};
    floe_partition_spec spec = {0, 2, f};
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "i", floe_value_int(100)), &spec), "i_trunc <= 90");
    FT_EQ_STR(incl(CMP(FLOE_OP_LT_EQ, "i", floe_value_int(100)), &spec), "i_trunc <= 100");
    FT_EQ_STR(incl(CMP(FLOE_OP_GT, "i", floe_value_int(99)), &spec), "i_trunc >= 100");
    FT_EQ_STR(incl(CMP(FLOE_OP_GT_EQ, "i", floe_value_int(-1)), &spec), "i_trunc >= -10");
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "i", floe_value_int(-1)), &spec), "i_trunc = -10");
    FT_EQ_STR(incl(CMP(FLOE_OP_NOT_EQ, "i", floe_value_int(-1)), &spec), "true");
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "i", floe_value_int(INT32_MIN)), &spec), "false");
    FT_EQ_STR(strict(CMP(FLOE_OP_LT, "i", floe_value_int(100)), &spec), "i_trunc < 100");
    FT_EQ_STR(strict(CMP(FLOE_OP_LT_EQ, "i", floe_value_int(100)), &spec), "i_trunc < 100");
    FT_EQ_STR(strict(CMP(FLOE_OP_LT_EQ, "i", floe_value_int(99)), &spec), "i_trunc < 100");
    FT_EQ_STR(strict(CMP(FLOE_OP_GT, "i", floe_value_int(99)), &spec), "i_trunc > 90");
    FT_EQ_STR(strict(CMP(FLOE_OP_GT_EQ, "i", floe_value_int(100)), &spec), "i_trunc > 90");
    FT_EQ_STR(strict(CMP(FLOE_OP_NOT_EQ, "i", floe_value_int(15)), &spec), "i_trunc != 10");
    /* decimal: W applies to the unscaled value (10.65 -> 10.50) */
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "price", S("10.65")), &spec), "p_trunc = 10.50");
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "price", S("10.50")), &spec), "p_trunc <= 10.00");
    FT_EQ_STR(incl(CMP(FLOE_OP_GT, "price", S("10.49")), &spec), "p_trunc >= 10.50");
    floe__arena_free(A);
}

static void test_truncate_strings(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{2, 1000, "name_trunc", TR(FLOE_TR_TRUNCATE, 3, "truncate[3]")}};
    floe_partition_spec spec = {0, 1, f};
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "name", S("iceberg")), &spec), "name_trunc = 'ice'");
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "name", S("iceberg")), &spec), "name_trunc <= 'ice'");
    FT_EQ_STR(incl(CMP(FLOE_OP_GT, "name", S("iceberg")), &spec), "name_trunc >= 'ice'");
    FT_EQ_STR(incl(CMP(FLOE_OP_STARTS_WITH, "name", S("ic")), &spec),
              "name_trunc STARTS WITH 'ic'");
    FT_EQ_STR(incl(CMP(FLOE_OP_STARTS_WITH, "name", S("iceberg")), &spec), "name_trunc = 'ice'");
    /* code points, not bytes: 3 code points of "été🐇x" */
    FT_EQ_STR(
        incl(CMP(FLOE_OP_STARTS_WITH, "name", S("\xc3\xa9t\xc3\xa9\xf0\x9f\x90\x87x")), &spec),
        "name_trunc = '\xc3\xa9t\xc3\xa9'");
    FT_EQ_STR(incl(CMP(FLOE_OP_STARTS_WITH, "name", S("\xc3\xa9t")), &spec),
              "name_trunc STARTS WITH '\xc3\xa9t'");
    FT_EQ_STR(incl(CMP(FLOE_OP_NOT_STARTS_WITH, "name", S("ic")), &spec),
              "name_trunc NOT STARTS WITH 'ic'");
    FT_EQ_STR(incl(CMP(FLOE_OP_NOT_STARTS_WITH, "name", S("iceberg")), &spec), "true");
    FT_EQ_STR(strict(CMP(FLOE_OP_STARTS_WITH, "name", S("ic")), &spec),
              "name_trunc STARTS WITH 'ic'");
    FT_EQ_STR(strict(CMP(FLOE_OP_STARTS_WITH, "name", S("iceberg")), &spec), "false");
    FT_EQ_STR(strict(CMP(FLOE_OP_NOT_STARTS_WITH, "name", S("iceberg")), &spec),
              "name_trunc != 'ice'");
    FT_EQ_STR(strict(CMP(FLOE_OP_LT, "name", S("iceberg")), &spec), "name_trunc < 'ice'");
    FT_EQ_STR(strict(CMP(FLOE_OP_GT_EQ, "name", S("iceberg")), &spec), "name_trunc > 'ice'");
    floe__arena_free(A);
}

static void test_dates(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{3, 1000, "ts_day", TR(FLOE_TR_DAY, 0, "day")},
                                {3, 1001, "ts_hour", TR(FLOE_TR_HOUR, 0, "hour")},
                                {4, 1002, "d_month", TR(FLOE_TR_MONTH, 0, "month")},
                                {4, 1003, "d_year", TR(FLOE_TR_YEAR, 0, "year")}};
    floe_partition_spec spec = {0, 4, f};
    /* two fields on ts: the inclusive projection is their AND */
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "ts", S("2026-09-20T10:30:00Z")), &spec),
              "(ts_day = '2026-09-20' AND ts_hour = 497194)");
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "ts", S("2026-09-20T00:00:00Z")), &spec),
              "(ts_day <= '2026-09-19' AND ts_hour <= 497183)");
    FT_EQ_STR(incl(CMP(FLOE_OP_GT_EQ, "d", S("2026-09-20")), &spec),
              "(d_month >= 680 AND d_year >= 56)");
    FT_EQ_STR(incl(CMP(FLOE_OP_GT, "d", S("2026-12-31")), &spec),
              "(d_month >= 684 AND d_year >= 57)");
    /* pre-epoch values are widened like Java's fixInclusiveTimeProjection */
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "d", S("1969-12-31")), &spec),
              "(d_month IN (-1, 0) AND d_year IN (-1, 0))");
    FT_EQ_STR(incl(CMP(FLOE_OP_LT_EQ, "d", S("1969-06-01")), &spec),
              "(d_month <= -6 AND d_year <= 0)");
    FT_EQ_STR(strict(CMP(FLOE_OP_LT, "d", S("2026-09-20")), &spec),
              "(d_month < 680 OR d_year < 56)");
    FT_EQ_STR(strict(CMP(FLOE_OP_GT_EQ, "ts", S("2026-09-20T00:00:00Z")), &spec),
              "(ts_day > '2026-09-19' OR ts_hour > 497183)");
    FT_EQ_STR(strict(CMP(FLOE_OP_NOT_EQ, "d", S("2026-09-20")), &spec),
              "(d_month != 680 OR d_year != 56)");
    /* strict, pre-epoch: demand one more (Java's fixStrictTimeProjection) */
    FT_EQ_STR(strict(CMP(FLOE_OP_GT, "d", S("1969-11-30")), &spec), "(d_month > -1 OR d_year > 0)");
    FT_EQ_STR(strict(CMP(FLOE_OP_NOT_EQ, "d", S("1969-12-31")), &spec),
              "(d_month NOT IN (-1, 0) OR d_year NOT IN (-1, 0))");
    FT_EQ_STR(incl(floe_expr_unary(A, FLOE_OP_NOT_NULL, "d"), &spec),
              "(d_month IS NOT NULL AND d_year IS NOT NULL)");
    floe__arena_free(A);
}

static void test_day_of_date_not_widened(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{4, 1000, "d_day", TR(FLOE_TR_DAY, 0, "day")},
                                {3, 1001, "ts_day", TR(FLOE_TR_DAY, 0, "day")}};
    floe_partition_spec spec = {0, 2, f};
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "d", S("1969-12-31")), &spec), "d_day = '1969-12-31'");
    FT_EQ_STR(strict(CMP(FLOE_OP_GT, "d", S("1969-12-31")), &spec), "d_day > '1969-12-31'");
    /* timestamps keep the fix: day -1 also matches partition 0 */
    FT_EQ_STR(incl(CMP(FLOE_OP_EQ, "ts", S("1969-12-31T10:00:00Z")), &spec),
              "ts_day IN ('1969-12-31', '1970-01-01')");
    FT_EQ_STR(incl(CMP(FLOE_OP_LT, "ts", S("1969-12-31T00:00:00Z")), &spec),
              "ts_day <= '1969-12-31'");
    floe__arena_free(A);
}

static void test_residuals(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{4, 1000, "d", TR(FLOE_TR_IDENTITY, 0, "identity")},
                                {3, 1001, "ts_day", TR(FLOE_TR_DAY, 0, "day")}};
    floe_partition_spec spec = {0, 2, f};
    floe_value pvals[2] = {floe_value_date(fx_days(2026, 9, 20)),
                           floe_value_date(fx_days(2026, 9, 20))};
    floe_partition_value pv = {2, pvals};
    const floe_expr *r;
    const floe_expr *e =
        bind(floe_expr_and(A, CMP(FLOE_OP_EQ, "d", S("2026-09-20")),
                           floe_expr_and(A, CMP(FLOE_OP_GT_EQ, "ts", S("2026-09-20T10:00:00Z")),
                                         CMP(FLOE_OP_EQ, "id", floe_value_long(5)))));
    FT_OK(floe_expr_residual(&r, A, e, &spec, &pv));
    FT_EQ_STR(fx_fmt(r), "(ts >= '2026-09-20T10:00:00.000000+00:00' AND id = 5)");
    /* a whole day after the bound: ts predicate is true for the partition */
    pvals[1] = floe_value_date(fx_days(2026, 9, 21));
    FT_OK(floe_expr_residual(&r, A, e, &spec, &pv));
    FT_EQ_STR(fx_fmt(r), "id = 5");
    /* partition that cannot match: false */
    pvals[0] = floe_value_date(fx_days(2026, 9, 19));
    FT_OK(floe_expr_residual(&r, A, e, &spec, &pv));
    FT_EQ_STR(fx_fmt(r), "false");
    /* OR folds to true */
    const floe_expr *o = bind(floe_expr_or(A, CMP(FLOE_OP_EQ, "d", S("2026-09-19")),
                                           CMP(FLOE_OP_EQ, "id", floe_value_long(5))));
    FT_OK(floe_expr_residual(&r, A, o, &spec, &pv));
    FT_EQ_STR(fx_fmt(r), "true");
    /* null partition: IS NULL is decided */
    pvals[0] = floe_value_null(FLOE_T_DATE);
    FT_OK(floe_expr_residual(&r, A, bind(floe_expr_unary(A, FLOE_OP_IS_NULL, "d")), &spec, &pv));
    FT_EQ_STR(fx_fmt(r), "true");
    FT_OK(floe_expr_residual(&r, A, bind(CMP(FLOE_OP_EQ, "d", S("2026-09-19"))), &spec, &pv));
    FT_EQ_STR(fx_fmt(r), "false");
    pv.n = 1;
    FT_EQ_INT(floe_expr_residual(&r, A, e, &spec, &pv), FLOE_EINVALID);
    floe__arena_free(A);
}

static void test_eval_partition(void)
{
    A = floe__arena_new(4096);
    /* spark_rename_column: bucket[4](id), identity(date) with a null date */
    floe_partition_field f[] = {{1, 1000, "id_bucket", TR(FLOE_TR_BUCKET, 4, "bucket[4]")},
                                {4, 1001, "date", TR(FLOE_TR_IDENTITY, 0, "identity")}};
    floe_partition_spec spec = {0, 2, f};
    const floe_expr *p;
    FT_OK(
        floe_expr_project_inclusive(&p, A, bind(CMP(FLOE_OP_EQ, "id", floe_value_long(3))), &spec));
    FT_EQ_STR(fx_fmt(p), "id_bucket = 3");
    floe_value vals[2] = {floe_value_int(3), floe_value_null(FLOE_T_DATE)};
    floe_partition_value pv = {2, vals};
    bool m;
    FT_OK(floe_expr_eval_partition(&m, p, &spec, &pv));
    FT_CHECK(m);
    vals[0] = floe_value_int(2);
    FT_OK(floe_expr_eval_partition(&m, p, &spec, &pv));
    FT_CHECK(!m);
    FT_OK(
        floe_expr_project_inclusive(&p, A, bind(floe_expr_unary(A, FLOE_OP_IS_NULL, "d")), &spec));
    FT_OK(floe_expr_eval_partition(&m, p, &spec, &pv));
    FT_CHECK(m);
    /* partition values decoded as int for a day field still compare */
    floe_partition_field g[] = {{3, 1000, "ts_day", TR(FLOE_TR_DAY, 0, "day")}};
    floe_partition_spec s2 = {1, 1, g};
    FT_OK(floe_expr_project_inclusive(
        &p, A, bind(CMP(FLOE_OP_GT_EQ, "ts", S("2026-09-20T00:00:00Z"))), &s2));
    floe_value dv = floe_value_int(fx_days(2026, 9, 20));
    floe_partition_value pv2 = {1, &dv};
    FT_OK(floe_expr_eval_partition(&m, p, &s2, &pv2));
    FT_CHECK(m);
    dv = floe_value_int(fx_days(2026, 9, 19));
    FT_OK(floe_expr_eval_partition(&m, p, &s2, &pv2));
    FT_CHECK(!m);
    floe__arena_free(A);
}

static void test_project_oom(void)
{
    floe_partition_field f[] = {{3, 1000, "ts_day", TR(FLOE_TR_DAY, 0, "day")},
                                {2, 1001, "name_trunc", TR(FLOE_TR_TRUNCATE, 2, "truncate[2]")},
                                {1, 1002, "id_bucket", TR(FLOE_TR_BUCKET, 8, "bucket[8]")}};
    floe_partition_spec spec = {0, 3, f};
    floe_value pvals[3] = {floe_value_date(fx_days(2026, 9, 20)), S("ab"), floe_value_int(1)};
    floe_partition_value pv = {3, pvals};
    for (long n = 1;; n++) {
        A = floe__arena_new(256);
        FT_ASSERT(A);
        floe_value in[2] = {floe_value_long(1), floe_value_long(2)};
        const floe_expr *b =
            bind(floe_expr_and(A,
                               floe_expr_or(A, CMP(FLOE_OP_LT, "ts", S("1969-12-31T00:00:00Z")),
                                            CMP(FLOE_OP_STARTS_WITH, "name", S("abc"))),
                               floe_expr_set(A, FLOE_OP_IN, "id", in, 2)));
        const floe_expr *p1 = NULL, *p2 = NULL, *r = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_expr_project_inclusive(&p1, A, b, &spec);
        if (rc == 0)
            rc = floe_expr_project_strict(&p2, A, b, &spec);
        if (rc == 0)
            rc = floe_expr_residual(&r, A, b, &spec, &pv);
        floe__alloc_fail_at(0);
        floe__arena_free(A);
        if (rc == 0)
            break;
        FT_EQ_INT(rc, FLOE_ENOMEM);
        if (n > 500) {
            ft_fail(__FILE__, __LINE__, "no success after 500 allocations");
            break;
        }
    }
}

static const ft_case cases[] = {
    {"project_oom", test_project_oom},
    {"identity_and_void", test_identity_and_void},
    {"bucket", test_bucket},
    {"truncate_numbers", test_truncate_numbers},
    {"truncate_strings", test_truncate_strings},
    {"dates", test_dates},
    {"day_of_date_not_widened", test_day_of_date_not_widened},
    {"residuals", test_residuals},
    {"eval_partition", test_eval_partition},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
