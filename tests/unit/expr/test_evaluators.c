/* SPDX-License-Identifier: Apache-2.0 */
/* Manifest-list (partition summaries) and data-file (column metrics)
 * pruning, following the rules of the spec and Java's evaluators. */
#include "fixture.h"

static floe_arena *A;

static const floe_expr *bind(const floe_expr *e)
{
    const floe_expr *out = NULL;
    if (floe_expr_bind(&out, A, &fx_schema, e, true) < 0) {
        ft_fail(__FILE__, __LINE__, "bind: %s", ft_floe_err());
        return floe_expr_false();
    }
    return out;
}

/* Encoded single values live in a small pool for the test's duration. */
static uint8_t pool[64][64];
static size_t pool_len[64];
static int npool;

static const uint8_t *enc(floe_value v, size_t *len)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe_value_to_single(&v, &b) < 0 || b.len > 64 || npool >= 64) {
        ft_fail(__FILE__, __LINE__, "encode failed");
        floe__buf_free(&b);
        *len = 0;
        return NULL;
    }
    memcpy(pool[npool], b.ptr, b.len);
    pool_len[npool] = b.len;
    *len = b.len;
    floe__buf_free(&b);
    return pool[npool++];
}

#define CMP(op, col, lit) floe_expr_cmp(A, op, col, lit)

/* ---------------------------------------------------------------- metrics */

typedef struct file {
    floe_metric_count vc[4], nc[4], nanc[4];
    floe_metric_bound lo[4], hi[4];
    floe_file_metrics m;
} file;

static void file_init(file *f, int64_t records)
{
    memset(f, 0, sizeof *f);
    f->m.record_count = records;
    f->m.value_counts = f->vc;
    f->m.null_value_counts = f->nc;
    f->m.nan_value_counts = f->nanc;
    f->m.lower_bounds = f->lo;
    f->m.upper_bounds = f->hi;
}

static void file_col(file *f, int32_t id, int64_t values, int64_t nulls, int64_t nans,
                     const floe_value *lo, const floe_value *hi)
{
    size_t i = f->m.n_value_counts++;
    f->vc[i] = (floe_metric_count){id, values};
    f->nc[f->m.n_null_value_counts++] = (floe_metric_count){id, nulls};
    if (nans >= 0)
        f->nanc[f->m.n_nan_value_counts++] = (floe_metric_count){id, nans};
    if (lo) {
        size_t k = f->m.n_lower_bounds++;
        f->lo[k].field_id = id;
        f->lo[k].ptr = enc(*lo, &f->lo[k].len);
    }
    if (hi) {
        size_t k = f->m.n_upper_bounds++;
        f->hi[k].field_id = id;
        f->hi[k].ptr = enc(*hi, &f->hi[k].len);
    }
}

static bool might(const floe_expr *e, const file *f)
{
    bool m = false;
    if (floe_expr_metrics_might_match(&m, bind(e), &f->m) < 0)
        ft_fail(__FILE__, __LINE__, "metrics: %s", ft_floe_err());
    return m;
}

static void test_metrics_ranges(void)
{
    A = floe__arena_new(4096);
    npool = 0;
    file f;
    file_init(&f, 10);
    floe_value lo = floe_value_long(30), hi = floe_value_long(79);
    file_col(&f, 1, 10, 0, -1, &lo, &hi);
    FT_CHECK(!might(CMP(FLOE_OP_LT, "id", floe_value_long(30)), &f));
    FT_CHECK(might(CMP(FLOE_OP_LT, "id", floe_value_long(31)), &f));
    FT_CHECK(!might(CMP(FLOE_OP_LT_EQ, "id", floe_value_long(29)), &f));
    FT_CHECK(might(CMP(FLOE_OP_LT_EQ, "id", floe_value_long(30)), &f));
    FT_CHECK(!might(CMP(FLOE_OP_GT, "id", floe_value_long(79)), &f));
    FT_CHECK(might(CMP(FLOE_OP_GT, "id", floe_value_long(78)), &f));
    FT_CHECK(!might(CMP(FLOE_OP_GT_EQ, "id", floe_value_long(80)), &f));
    FT_CHECK(might(CMP(FLOE_OP_GT_EQ, "id", floe_value_long(79)), &f));
    FT_CHECK(!might(CMP(FLOE_OP_EQ, "id", floe_value_long(80)), &f));
    FT_CHECK(!might(CMP(FLOE_OP_EQ, "id", floe_value_long(29)), &f));
    FT_CHECK(might(CMP(FLOE_OP_EQ, "id", floe_value_long(50)), &f));
    FT_CHECK(might(CMP(FLOE_OP_NOT_EQ, "id", floe_value_long(50)), &f));
    floe_value in[2] = {floe_value_long(1), floe_value_long(90)};
    FT_CHECK(!might(floe_expr_set(A, FLOE_OP_IN, "id", in, 2), &f));
    in[1] = floe_value_long(79);
    FT_CHECK(might(floe_expr_set(A, FLOE_OP_IN, "id", in, 2), &f));
    FT_CHECK(might(floe_expr_set(A, FLOE_OP_NOT_IN, "id", in, 2), &f));
    FT_CHECK(!might(floe_expr_and(A, CMP(FLOE_OP_GT, "id", floe_value_long(10)),
                                  CMP(FLOE_OP_LT, "id", floe_value_long(20))),
                    &f));
    FT_CHECK(might(floe_expr_or(A, CMP(FLOE_OP_LT, "id", floe_value_long(10)),
                                CMP(FLOE_OP_GT, "id", floe_value_long(70))),
                   &f));
    /* NOT is pushed down: NOT(id < 90) = id >= 90 */
    FT_CHECK(!might(floe_expr_not(A, CMP(FLOE_OP_LT, "id", floe_value_long(90))), &f));
    /* columns without metrics might match */
    FT_CHECK(might(CMP(FLOE_OP_EQ, "i", floe_value_int(5)), &f));
    FT_CHECK(might(floe_expr_unary(A, FLOE_OP_IS_NULL, "i"), &f));
    /* an empty file never matches */
    f.m.record_count = 0;
    FT_CHECK(!might(CMP(FLOE_OP_NOT_EQ, "id", floe_value_long(50)), &f));
    /* int bounds (4 bytes) for a column promoted to long are widened */
    file g;
    file_init(&g, 5);
    floe_value ilo = floe_value_int(1), ihi = floe_value_int(3);
    file_col(&g, 1, 5, 0, -1, &ilo, &ihi);
    FT_CHECK(!might(CMP(FLOE_OP_GT, "id", floe_value_long(3)), &g));
    FT_CHECK(might(CMP(FLOE_OP_EQ, "id", floe_value_long(2)), &g));
    /* corrupt bound */
    g.lo[0].len = 3;
    bool m;
    FT_EQ_INT(
        floe_expr_metrics_might_match(&m, bind(CMP(FLOE_OP_EQ, "id", floe_value_long(2))), &g.m),
        FLOE_ECORRUPT);
    FT_ERR_CONTAINS("lower_bound for field 1");
    floe__arena_free(A);
}

static void test_metrics_nulls_nans(void)
{
    A = floe__arena_new(4096);
    npool = 0;
    file f;
    file_init(&f, 10);
    file_col(&f, 8, 10, 10, -1, NULL, NULL); /* i: all null */
    floe_value lo = floe_value_double(1), hi = floe_value_double(2);
    file_col(&f, 6, 10, 0, 10, NULL, NULL); /* score: all NaN */
    file_col(&f, 7, 10, 2, 3, NULL, NULL);  /* f: some null, some NaN */
    floe_value dlo = floe_value_date(100), dhi = floe_value_date(200);
    file_col(&f, 4, 10, 0, -1, &dlo, &dhi); /* d: no nulls */
    FT_CHECK(might(floe_expr_unary(A, FLOE_OP_IS_NULL, "i"), &f));
    FT_CHECK(!might(floe_expr_unary(A, FLOE_OP_NOT_NULL, "i"), &f));
    FT_CHECK(!might(CMP(FLOE_OP_EQ, "i", floe_value_int(1)), &f));
    FT_CHECK(might(CMP(FLOE_OP_NOT_EQ, "i", floe_value_int(1)), &f));
    FT_CHECK(!might(floe_expr_unary(A, FLOE_OP_IS_NULL, "d"), &f));
    FT_CHECK(might(floe_expr_unary(A, FLOE_OP_NOT_NULL, "d"), &f));
    FT_CHECK(might(floe_expr_unary(A, FLOE_OP_IS_NAN, "score"), &f));
    FT_CHECK(!might(floe_expr_unary(A, FLOE_OP_NOT_NAN, "score"), &f));
    FT_CHECK(!might(CMP(FLOE_OP_LT, "score", floe_value_double(10)), &f));
    FT_CHECK(might(floe_expr_unary(A, FLOE_OP_IS_NAN, "f"), &f));
    FT_CHECK(might(CMP(FLOE_OP_LT, "f", floe_value_double(10)), &f));
    /* no NaN recorded: IS NAN cannot match */
    file g;
    file_init(&g, 4);
    file_col(&g, 6, 4, 0, 0, &lo, &hi);
    FT_CHECK(!might(floe_expr_unary(A, FLOE_OP_IS_NAN, "score"), &g));
    FT_CHECK(!might(CMP(FLOE_OP_GT, "score", floe_value_double(2)), &g));
    FT_CHECK(might(CMP(FLOE_OP_GT, "score", floe_value_double(1.5)), &g));
    /* NaN stored as a bound by an old writer: tells nothing */
    file h;
    file_init(&h, 4);
    floe_value nan = floe_value_double(NAN);
    file_col(&h, 6, 4, 0, -1, &nan, &hi);
    FT_CHECK(might(CMP(FLOE_OP_GT, "score", floe_value_double(100)), &h));
    FT_CHECK(might(CMP(FLOE_OP_LT, "score", floe_value_double(-100)), &h));
    /* a writer that stored +0.0 as both bounds of a file holding -0.0 */
    file z;
    file_init(&z, 1);
    floe_value pz = floe_value_double(0.0);
    file_col(&z, 6, 1, 0, 0, &pz, &pz);
    FT_CHECK(might(CMP(FLOE_OP_EQ, "score", floe_value_double(-0.0)), &z));
    FT_CHECK(might(CMP(FLOE_OP_LT, "score", floe_value_double(0.0)), &z));
    FT_CHECK(!might(CMP(FLOE_OP_GT, "score", floe_value_double(0.0)), &z));
    floe__arena_free(A);
}

static void test_metrics_strings(void)
{
    A = floe__arena_new(4096);
    npool = 0;
    file f;
    file_init(&f, 10);
    /* bounds truncated to 3 bytes: actual values within [abc..., abd...] */
    floe_value lo = S("abc"), hi = S("abd");
    file_col(&f, 2, 10, 0, -1, &lo, &hi);
    FT_CHECK(might(CMP(FLOE_OP_STARTS_WITH, "name", S("abcdef")), &f));
    FT_CHECK(might(CMP(FLOE_OP_STARTS_WITH, "name", S("ab")), &f));
    FT_CHECK(might(CMP(FLOE_OP_STARTS_WITH, "name", S("abd")), &f));
    FT_CHECK(!might(CMP(FLOE_OP_STARTS_WITH, "name", S("abb")), &f));
    FT_CHECK(!might(CMP(FLOE_OP_STARTS_WITH, "name", S("abe")), &f));
    FT_CHECK(!might(CMP(FLOE_OP_STARTS_WITH, "name", S("b")), &f));
    /* both bounds start with "ab": every value does */
    FT_CHECK(!might(CMP(FLOE_OP_NOT_STARTS_WITH, "name", S("ab")), &f));
    FT_CHECK(might(CMP(FLOE_OP_NOT_STARTS_WITH, "name", S("abc")), &f));
    FT_CHECK(might(CMP(FLOE_OP_EQ, "name", S("abcz")), &f));
    FT_CHECK(!might(CMP(FLOE_OP_LT, "name", S("abc")), &f));
    /* nulls satisfy NOT STARTS WITH */
    file g;
    file_init(&g, 10);
    file_col(&g, 2, 10, 1, -1, &lo, &hi);
    FT_CHECK(might(CMP(FLOE_OP_NOT_STARTS_WITH, "name", S("ab")), &g));
    file h;
    file_init(&h, 10);
    file_col(&h, 2, 10, 10, -1, NULL, NULL);
    FT_CHECK(!might(CMP(FLOE_OP_STARTS_WITH, "name", S("ab")), &h));
    FT_CHECK(might(CMP(FLOE_OP_NOT_STARTS_WITH, "name", S("ab")), &h));
    floe__arena_free(A);
}

/* ---------------------------------------------------------------- manifests */

static floe_expr_field_summary summary(bool contains_null, int8_t contains_nan, const floe_value *lo,
                                  const floe_value *hi)
{
    floe_expr_field_summary s = {contains_null, contains_nan, NULL, 0, NULL, 0};
    if (lo)
        s.lower_bound = enc(*lo, &s.lower_len);
    if (hi)
        s.upper_bound = enc(*hi, &s.upper_len);
    return s;
}

static bool manifest_might(const floe_expr *e, const floe_partition_spec *spec,
                           const floe_expr_field_summary *s)
{
    const floe_expr *p;
    bool m = false;
    if (floe_expr_project_inclusive(&p, A, bind(e), spec) < 0 ||
        floe_expr_manifest_might_match(&m, p, spec, s, spec->nfields) < 0)
        ft_fail(__FILE__, __LINE__, "manifest: %s", ft_floe_err());
    return m;
}

static void test_manifest(void)
{
    A = floe__arena_new(4096);
    npool = 0;
    floe_partition_field f[] = {{4, 1000, "d", {FLOE_TR_IDENTITY, 0, "identity"}},
                                {3, 1001, "ts_day", {FLOE_TR_DAY, 0, "day"}},
                                {6, 1002, "score", {FLOE_TR_IDENTITY, 0, "identity"}},
                                {2, 1003, "name_trunc", {FLOE_TR_TRUNCATE, 2, "truncate[2]"}}};
    floe_partition_spec spec = {0, 4, f};
    floe_value dlo = floe_value_date(fx_days(2026, 9, 1)),
               dhi = floe_value_date(fx_days(2026, 9, 30));
    floe_value slo = floe_value_double(1), shi = floe_value_double(2);
    floe_value nlo = S("ab"), nhi = S("ad");
    floe_expr_field_summary s[4] = {summary(false, -1, &dlo, &dhi), summary(true, -1, &dlo, &dhi),
                               summary(false, 0, &slo, &shi), summary(false, -1, &nlo, &nhi)};
    FT_CHECK(manifest_might(CMP(FLOE_OP_EQ, "d", S("2026-09-20")), &spec, s));
    FT_CHECK(!manifest_might(CMP(FLOE_OP_EQ, "d", S("2026-10-01")), &spec, s));
    FT_CHECK(!manifest_might(CMP(FLOE_OP_LT, "d", S("2026-09-01")), &spec, s));
    FT_CHECK(manifest_might(CMP(FLOE_OP_LT_EQ, "d", S("2026-09-01")), &spec, s));
    FT_CHECK(!manifest_might(CMP(FLOE_OP_GT, "ts", S("2026-10-01T00:00:00Z")), &spec, s));
    FT_CHECK(manifest_might(CMP(FLOE_OP_GT, "ts", S("2026-09-30T23:00:00Z")), &spec, s));
    FT_CHECK(!manifest_might(floe_expr_unary(A, FLOE_OP_IS_NULL, "d"), &spec, s));
    FT_CHECK(manifest_might(floe_expr_unary(A, FLOE_OP_IS_NULL, "ts"), &spec, s));
    FT_CHECK(!manifest_might(floe_expr_unary(A, FLOE_OP_IS_NAN, "score"), &spec, s));
    FT_CHECK(manifest_might(floe_expr_unary(A, FLOE_OP_NOT_NAN, "score"), &spec, s));
    FT_CHECK(manifest_might(CMP(FLOE_OP_STARTS_WITH, "name", S("ac")), &spec, s));
    FT_CHECK(manifest_might(CMP(FLOE_OP_STARTS_WITH, "name", S("acxyz")), &spec, s));
    FT_CHECK(!manifest_might(CMP(FLOE_OP_STARTS_WITH, "name", S("ae")), &spec, s));
    FT_CHECK(!manifest_might(CMP(FLOE_OP_EQ, "name", S("zzz")), &spec, s));
    FT_CHECK(manifest_might(CMP(FLOE_OP_NOT_EQ, "d", S("2026-09-20")), &spec, s));
    FT_CHECK(manifest_might(CMP(FLOE_OP_EQ, "id", floe_value_long(1)), &spec, s));
    /* all-null partition (no bounds) */
    floe_expr_field_summary n[4] = {summary(true, -1, NULL, NULL), s[1], s[2], s[3]};
    FT_CHECK(!manifest_might(CMP(FLOE_OP_EQ, "d", S("2026-09-20")), &spec, n));
    FT_CHECK(!manifest_might(floe_expr_unary(A, FLOE_OP_NOT_NULL, "d"), &spec, n));
    FT_CHECK(manifest_might(floe_expr_unary(A, FLOE_OP_IS_NULL, "d"), &spec, n));
    FT_CHECK(manifest_might(CMP(FLOE_OP_NOT_EQ, "d", S("2026-09-20")), &spec, n));
    /* float partition all NaN */
    floe_expr_field_summary q[4] = {s[0], s[1], summary(false, 1, NULL, NULL), s[3]};
    FT_CHECK(!manifest_might(floe_expr_unary(A, FLOE_OP_NOT_NAN, "score"), &spec, q));
    FT_CHECK(!manifest_might(CMP(FLOE_OP_GT, "score", floe_value_double(0)), &spec, q));
    FT_CHECK(manifest_might(floe_expr_unary(A, FLOE_OP_IS_NAN, "score"), &spec, q));
    FT_CHECK(manifest_might(floe_expr_unary(A, FLOE_OP_NOT_NULL, "score"), &spec, q));
    /* v1 summaries: no bounds, nothing null -> unknown, might match */
    floe_expr_field_summary v1[4] = {summary(false, -1, NULL, NULL), s[1], s[2], s[3]};
    FT_CHECK(manifest_might(CMP(FLOE_OP_EQ, "d", S("2026-09-20")), &spec, v1));
    /* wrong count and corrupt bytes */
    bool m;
    const floe_expr *p;
    FT_OK(floe_expr_project_inclusive(&p, A, bind(CMP(FLOE_OP_EQ, "d", S("2026-09-20"))), &spec));
    FT_EQ_INT(floe_expr_manifest_might_match(&m, p, &spec, s, 3), FLOE_EINVALID);
    s[0].lower_len = 7;
    FT_EQ_INT(floe_expr_manifest_might_match(&m, p, &spec, s, 4), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("partition summary lower_bound for field 1000");
    floe__arena_free(A);
}

/* spark_rename_column (../shared/fixtures): spec bucket[4](id) as field
 * 1000, identity(date) as field 1001. The manifest list's partition
 * summaries and the three manifest entries' partition tuples, as written by
 * Spark (bytes copied from snap-5276958600260276572-...avro). Rows:
 * (1,2022-01-01) (2,2022-01-01) -> bucket 0; (4,2022-01-02) -> 2;
 * (3,NULL) -> 3. */
static const floe_field rc_fields[] = {
    {1, "id", false, &fx_int, NULL, NULL, NULL},
    {2, "name", false, &fx_string, NULL, NULL, NULL},
    {3, "event_date", false, &fx_date, NULL, NULL, NULL},
};
static const floe_type rc_root = {.id = FLOE_T_STRUCT, .nfields = 3, .fields = rc_fields};
static const floe_schema rc_schema = {.schema_id = 1, .root = &rc_root, .highest_field_id = 3};

static void test_spark_rename_column(void)
{
    A = floe__arena_new(4096);
    floe_partition_field f[] = {{1, 1000, "id_bucket", {FLOE_TR_BUCKET, 4, "bucket[4]"}},
                                {3, 1001, "date", {FLOE_TR_IDENTITY, 0, "identity"}}};
    floe_partition_spec spec = {0, 2, f};
    static const uint8_t b0[4] = {0, 0, 0, 0}, b3[4] = {3, 0, 0, 0};
    static const uint8_t d1[4] = {0x31, 0x4a, 0, 0}, d2[4] = {0x32, 0x4a, 0, 0};
    floe_expr_field_summary sum[2] = {{false, 0, b0, 4, b3, 4}, {true, 0, d1, 4, d2, 4}};
    floe_value parts[3][2] = {
        {floe_value_int(3), floe_value_null(FLOE_T_DATE)},
        {floe_value_int(2), floe_value_date(fx_days(2022, 1, 2))},
        {floe_value_int(0), floe_value_date(fx_days(2022, 1, 1))},
    };
    struct {
        const floe_expr *e;
        bool manifest;
        bool files[3];
    } cases[] = {
        {CMP(FLOE_OP_EQ, "id", floe_value_int(4)), true, {false, true, false}},
        {CMP(FLOE_OP_EQ, "id", floe_value_int(3)), true, {true, false, false}},
        {CMP(FLOE_OP_EQ, "id", floe_value_int(1)), true, {false, false, true}},
        {CMP(FLOE_OP_EQ, "event_date", S("2022-01-02")), true, {false, true, false}},
        {CMP(FLOE_OP_GT, "event_date", S("2022-01-02")), false, {false, false, false}},
        {CMP(FLOE_OP_LT, "event_date", S("2022-01-01")), false, {false, false, false}},
        {floe_expr_unary(A, FLOE_OP_IS_NULL, "event_date"), true, {true, false, false}},
        {floe_expr_and(A, CMP(FLOE_OP_EQ, "id", floe_value_int(4)),
                       CMP(FLOE_OP_EQ, "event_date", S("2022-01-01"))),
         true,
         {false, false, false}},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(cases); i++) {
        const floe_expr *b, *p;
        bool m;
        FT_OK(floe_expr_bind(&b, A, &rc_schema, cases[i].e, true));
        FT_OK(floe_expr_project_inclusive(&p, A, b, &spec));
        FT_OK(floe_expr_manifest_might_match(&m, p, &spec, sum, 2));
        if (m != cases[i].manifest)
            ft_fail(__FILE__, __LINE__, "case %zu manifest: %d for %s", i, m, fx_fmt(p));
        for (int k = 0; k < 3; k++) {
            floe_partition_value pv = {2, parts[k]};
            FT_OK(floe_expr_eval_partition(&m, p, &spec, &pv));
            if (m != cases[i].files[k])
                ft_fail(__FILE__, __LINE__, "case %zu file %d: %d for %s", i, k, m, fx_fmt(p));
        }
    }
    floe__arena_free(A);
}

static const ft_case cases[] = {
    {"spark_rename_column", test_spark_rename_column},
    {"metrics_ranges", test_metrics_ranges},
    {"metrics_nulls_nans", test_metrics_nulls_nans},
    {"metrics_strings", test_metrics_strings},
    {"manifest", test_manifest},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
