/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Property tests: for random rows, random filters and random partition
 * specs, pruning never loses a matching row:
 *   - a matching row's partition satisfies the inclusive projection,
 *   - a manifest whose summaries cover the row's partition might match,
 *   - a file containing the row might match by its metrics (with string
 *     bounds truncated like writers do, and metrics randomly missing),
 *   - the residual for the row's partition gives the same answer as the
 *     filter on every row of that partition.
 */
#include "fixture.h"

#include <stdlib.h>

#define rnd fx_rnd
#define rnd_range fx_rnd_range

/* Columns used by the generator. */
static const int32_t cols[] = {1, 2, 3, 4, 5, 6, 8, 9, 20, 21};
#define NCOLS (sizeof cols / sizeof cols[0])

static const floe_type *col_type(int32_t id)
{
    for (size_t i = 0; i < fx_root.nfields; i++)
        if (fx_root.fields[i].id == id)
            return fx_root.fields[i].type;
    return NULL;
}

static const char *col_name(int32_t id)
{
    for (size_t i = 0; i < fx_root.nfields; i++)
        if (fx_root.fields[i].id == id)
            return fx_root.fields[i].name;
    return NULL;
}

static const char *const pieces[] = {"a", "b", "\xc3\xa9", "\xf0\x9f\x90\x87", "z"};

/* Random non-null value of type t; strings/binary are written into arena. */
static floe_value rnd_value(floe_arena *a, const floe_type *t, bool allow_nan)
{
    switch (t->id) {
    case FLOE_T_INT: return floe_value_int((int32_t)rnd_range(-30, 30));
    case FLOE_T_LONG: return floe_value_long(rnd() % 8 == 0 ? (int64_t)rnd() : rnd_range(-30, 30));
    case FLOE_T_DATE: return floe_value_date((int32_t)rnd_range(-800, 800));
    case FLOE_T_DECIMAL: return floe_value_decimal(rnd_range(-400, 400), t->scale);
    case FLOE_T_DOUBLE: {
        static const double ds[] = {-1.5, 0.0, 1.0, 2.5, 100.0, -7.25, -0.0};
        if (allow_nan && rnd() % 6 == 0)
            return floe_value_double(NAN);
        return floe_value_double(ds[rnd() % 7]);
    }
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS: {
        int64_t us =
            rnd_range(-800, 800) * INT64_C(86400000000) + rnd_range(0, 23) * INT64_C(3600000000);
        switch (rnd() % 4) {
        case 0: us += 1; break;
        case 1: us -= 1; break;
        case 2: us += rnd_range(0, 3599999999); break;
        default: break;
        }
        if (t->id == FLOE_T_TIMESTAMP_NS)
            return floe_value_i64(t->id, us * 1000 + rnd_range(-1, 1));
        return floe_value_i64(t->id, us);
    }
    case FLOE_T_STRING:
    case FLOE_T_BINARY: {
        char buf[32];
        size_t n = 0;
        int k = (int)rnd_range(0, 4);
        for (int i = 0; i < k; i++) {
            const char *p = pieces[rnd() % 5];
            size_t l = strlen(p);
            if (t->id == FLOE_T_BINARY)
                l = 1; /* raw bytes incl. 0xc3, 0xf0 */
            memcpy(buf + n, p, l);
            n += l;
        }
        uint8_t *copy = floe__arena_memdup(a, n ? buf : "", n ? n : 1);
        return floe_value_bytes(t->id, copy, n);
    }
    default: return floe_value_null(t->id);
    }
}

static floe_value rnd_cell(floe_arena *a, const floe_type *t)
{
    if (rnd() % 7 == 0)
        return floe_value_null(t->id);
    return rnd_value(a, t, true);
}

static const floe_expr *rnd_pred(floe_arena *a)
{
    int32_t id = cols[rnd() % NCOLS];
    const floe_type *t = col_type(id);
    const char *name = col_name(id);
    static const floe_op base[] = {FLOE_OP_IS_NULL, FLOE_OP_NOT_NULL, FLOE_OP_LT, FLOE_OP_LT_EQ,
                                   FLOE_OP_GT,      FLOE_OP_GT_EQ,    FLOE_OP_EQ, FLOE_OP_NOT_EQ,
                                   FLOE_OP_IN,      FLOE_OP_NOT_IN,   FLOE_OP_EQ, FLOE_OP_IN};
    floe_op op = base[rnd() % FLOE_ARRAY_LEN(base)];
    if (t->id == FLOE_T_STRING && rnd() % 3 == 0)
        op = rnd() % 2 ? FLOE_OP_STARTS_WITH : FLOE_OP_NOT_STARTS_WITH;
    if (t->id == FLOE_T_DOUBLE && rnd() % 4 == 0)
        op = rnd() % 2 ? FLOE_OP_IS_NAN : FLOE_OP_NOT_NAN;
    if (op == FLOE_OP_IS_NULL || op == FLOE_OP_NOT_NULL || op == FLOE_OP_IS_NAN ||
        op == FLOE_OP_NOT_NAN)
        return floe_expr_unary(a, op, name);
    floe_value lits[3];
    size_t n = (op == FLOE_OP_IN || op == FLOE_OP_NOT_IN) ? (size_t)rnd_range(1, 3) : 1;
    for (size_t i = 0; i < n; i++)
        lits[i] = rnd_value(a, t, false);
    return floe_expr_pred(a, op, name, lits, n);
}

static const floe_expr *rnd_expr(floe_arena *a, int depth)
{
    return fx_rnd_expr(a, depth, rnd_pred);
}

/* A random partition spec of 1..3 fields over the generator's columns. */
static void rnd_spec(floe_partition_field *f, floe_partition_spec *spec)
{
    size_t n = (size_t)rnd_range(1, 3), k = 0;
    for (int tries = 0; k < n && tries < 50; tries++) {
        int32_t id = cols[rnd() % NCOLS];
        const floe_type *t = col_type(id);
        floe_transform tr = {FLOE_TR_IDENTITY, 0, "t"};
        switch (rnd() % 9) {
        case 0: tr.kind = FLOE_TR_IDENTITY; break;
        case 1:
            tr.kind = FLOE_TR_BUCKET;
            tr.param = (int32_t)rnd_range(1, 8);
            break;
        case 2:
        case 3:
            tr.kind = FLOE_TR_TRUNCATE;
            tr.param = (int32_t)rnd_range(1, 5);
            break;
        case 4: tr.kind = FLOE_TR_YEAR; break;
        case 5: tr.kind = FLOE_TR_MONTH; break;
        case 6: tr.kind = FLOE_TR_DAY; break;
        case 7: tr.kind = FLOE_TR_HOUR; break;
        default: tr.kind = FLOE_TR_VOID; break;
        }
        if (!floe_transform_can_apply(&tr, t))
            continue;
        f[k].source_id = id;
        f[k].field_id = 1000 + (int32_t)k;
        f[k].name = "p";
        f[k].transform = tr;
        k++;
    }
    if (k == 0) {
        f[0] = (floe_partition_field){4, 1000, "p", {FLOE_TR_DAY, 0, "day"}};
        k = 1;
    }
    spec->spec_id = 0;
    spec->nfields = k;
    spec->fields = f;
}

static bool check_eval(const floe_expr *e, fx_row *r)
{
    bool m = false;
    if (floe_expr_eval(&m, e, fx_get, r) < 0)
        ft_fail(__FILE__, __LINE__, "eval: %s", ft_floe_err());
    return m;
}

static void partition_of(const floe_partition_spec *spec, const fx_row *r, floe_value *out)
{
    for (size_t i = 0; i < spec->nfields; i++) {
        const floe_partition_field *pf = &spec->fields[i];
        floe_value v = r->set[pf->source_id] ? r->v[pf->source_id]
                                             : floe_value_null(col_type(pf->source_id)->id);
        if (floe_transform_apply(&pf->transform, &v, &out[i]) < 0)
            ft_fail(__FILE__, __LINE__, "transform: %s", ft_floe_err());
    }
}

static bool is_nan_value(const floe_value *v)
{
    return v->type == FLOE_T_DOUBLE && isnan(v->v.f64);
}

/* Writers truncate string bounds: lower = prefix, upper = prefix with its
 * last byte incremented (still >= every value with that prefix). */
static floe_value trunc_bound(floe_arena *a, floe_value v, bool upper)
{
    if ((v.type != FLOE_T_STRING && v.type != FLOE_T_BINARY) || v.v.bytes.len <= 2)
        return v;
    size_t n = v.type == FLOE_T_STRING ? floe_utf8_prefix_len(v.v.bytes.ptr, v.v.bytes.len, 2) : 2;
    if (n >= v.v.bytes.len)
        return v;
    uint8_t *p = floe__arena_memdup(a, v.v.bytes.ptr, n);
    if (upper) {
        size_t k = n;
        while (k > 0 && p[k - 1] == 0xff)
            k--;
        if (k == 0)
            return v;
        p[k - 1]++;
        n = k;
    }
    return floe_value_bytes(v.type, p, n);
}

typedef struct agg {
    bool has;
    floe_value lo, hi;
    int64_t nulls, nans, values;
} agg;

static void agg_add(agg *g, const floe_value *v)
{
    g->values++;
    if (v->is_null) {
        g->nulls++;
        return;
    }
    if (is_nan_value(v)) {
        g->nans++;
        return;
    }
    if (!g->has || floe_expr_value_compare(v, &g->lo) < 0)
        g->lo = *v;
    if (!g->has || floe_expr_value_compare(v, &g->hi) > 0)
        g->hi = *v;
    g->has = true;
}

static uint8_t bytes_pool[4096];
static size_t bytes_used;

static const uint8_t *encode(const floe_value *v, size_t *len)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe_value_to_single(v, &b) < 0 || bytes_used + b.len > sizeof bytes_pool) {
        floe__buf_free(&b);
        *len = 0;
        return NULL;
    }
    uint8_t *p = bytes_pool + bytes_used;
    if (b.len)
        memcpy(p, b.ptr, b.len);
    bytes_used += b.len;
    *len = b.len;
    floe__buf_free(&b);
    return p;
}

#define NROWS 8

static void test_no_false_negatives(void)
{
    long matched = 0, pruned_files = 0, pruned_manifests = 0, checked = 0;
    /* FLOE_PROP_SEED / FLOE_PROP_ITERS explore further than the default run. */
    const char *seed = getenv("FLOE_PROP_SEED"), *iters = getenv("FLOE_PROP_ITERS");
    if (seed)
        fx_rng_state ^= strtoull(seed, NULL, 10) * 0x2545F4914F6CDD1Dull;
    int niter = iters ? atoi(iters) : 4000;
    for (int iter = 0; iter < niter; iter++) {
        floe_arena *a = floe__arena_new(8192);
        bytes_used = 0;
        const floe_expr *e = rnd_expr(a, 3), *bound;
        FT_ASSERT(e);
        if (floe_expr_bind(&bound, a, &fx_schema, e, true) < 0) {
            ft_fail(__FILE__, __LINE__, "bind %s: %s", fx_fmt(e), ft_floe_err());
            floe__arena_free(a);
            return;
        }
        floe_partition_field pf[3];
        floe_partition_spec spec;
        rnd_spec(pf, &spec);
        const floe_expr *proj;
        if (floe_expr_project_inclusive(&proj, a, bound, &spec) < 0) {
            ft_fail(__FILE__, __LINE__, "project: %s", ft_floe_err());
            floe__arena_free(a);
            return;
        }

        /* A "file" of NROWS random rows. */
        fx_row rows[NROWS];
        floe_value parts[NROWS][3];
        memset(rows, 0, sizeof rows);
        for (int r = 0; r < NROWS; r++) {
            for (size_t c = 0; c < NCOLS; c++)
                fx_set(&rows[r], cols[c], rnd_cell(a, col_type(cols[c])));
            partition_of(&spec, &rows[r], parts[r]);
        }

        /* Metrics over a file of the first `in_file` rows, some missing. */
        int in_file = (int)rnd_range(1, 4);
        floe_metric_count vc[NCOLS], nc[NCOLS], nanc[NCOLS];
        floe_metric_bound lo[NCOLS], hi[NCOLS];
        floe_file_metrics m = {in_file, vc, 0, nc, 0, nanc, 0, lo, 0, hi, 0};
        for (size_t c = 0; c < NCOLS; c++) {
            agg g = {0};
            for (int r = 0; r < in_file; r++)
                agg_add(&g, &rows[r].v[cols[c]]);
            if (rnd() % 5)
                vc[m.n_value_counts++] = (floe_metric_count){cols[c], g.values};
            if (rnd() % 5)
                nc[m.n_null_value_counts++] = (floe_metric_count){cols[c], g.nulls};
            if (col_type(cols[c])->id == FLOE_T_DOUBLE && rnd() % 5)
                nanc[m.n_nan_value_counts++] = (floe_metric_count){cols[c], g.nans};
            if (g.has && rnd() % 5) {
                floe_value l = trunc_bound(a, g.lo, false), h = trunc_bound(a, g.hi, true);
                lo[m.n_lower_bounds].field_id = cols[c];
                lo[m.n_lower_bounds].ptr = encode(&l, &lo[m.n_lower_bounds].len);
                m.n_lower_bounds++;
                hi[m.n_upper_bounds].field_id = cols[c];
                hi[m.n_upper_bounds].ptr = encode(&h, &hi[m.n_upper_bounds].len);
                m.n_upper_bounds++;
            }
        }
        /* Partition summaries over the partitions of all rows. */
        /* The manifest covers the partitions of the first `in_manifest` rows
         * (few, so that summaries are narrow enough to prune). */
        int in_manifest = (int)rnd_range(1, 3);
        bool manifest_match = false;
        floe_expr_field_summary sum[3];
        for (size_t i = 0; i < spec.nfields; i++) {
            agg g = {0};
            for (int r = 0; r < in_manifest; r++)
                agg_add(&g, &parts[r][i]);
            sum[i] = (floe_expr_field_summary){
                g.nulls > 0, (int8_t)(rnd() % 3 == 0 ? -1 : g.nans > 0), NULL, 0, NULL, 0};
            if (g.has) {
                sum[i].lower_bound = encode(&g.lo, &sum[i].lower_len);
                sum[i].upper_bound = encode(&g.hi, &sum[i].upper_len);
            }
        }

        bool any_match = false;
        for (int r = 0; r < NROWS; r++) {
            bool match = check_eval(bound, &rows[r]);
            floe_partition_value pv = {spec.nfields, parts[r]};
            /* residual agrees with the filter on every row of the partition */
            const floe_expr *res;
            if (floe_expr_residual(&res, a, bound, &spec, &pv) < 0) {
                ft_fail(__FILE__, __LINE__, "residual: %s", ft_floe_err());
                break;
            }
            if (check_eval(res, &rows[r]) != match) {
                ft_fail(__FILE__, __LINE__, "iter %d: residual %s of %s disagrees on row %d", iter,
                        fx_fmt(res), fx_fmt(bound), r);
                break;
            }
            checked++;
            if (!match)
                continue;
            any_match |= r < in_file;
            manifest_match |= r < in_manifest;
            matched++;
            bool pm;
            FT_OK(floe_expr_eval_partition(&pm, proj, &spec, &pv));
            if (!pm) {
                ft_fail(__FILE__, __LINE__, "iter %d: projection %s of %s rejects row %d", iter,
                        fx_fmt(proj), fx_fmt(bound), r);
                break;
            }
        }
        bool fm, mm;
        FT_OK(floe_expr_metrics_might_match(&fm, bound, &m));
        FT_OK(floe_expr_manifest_might_match(&mm, proj, &spec, sum, spec.nfields));
        if (any_match && !fm)
            ft_fail(__FILE__, __LINE__, "iter %d: metrics prune a file matching %s", iter,
                    fx_fmt(bound));
        if (manifest_match && !mm)
            ft_fail(__FILE__, __LINE__, "iter %d: manifest pruned for %s (projected %s)", iter,
                    fx_fmt(bound), fx_fmt(proj));
        pruned_files += !fm;
        pruned_manifests += !mm;
        floe__arena_free(a);
        if (ft_skipped())
            break;
    }
    /* The generator must exercise both outcomes, or the test proves little. */
    printf("    %ld rows checked, %ld matched, %ld files and %ld manifests pruned\n", checked,
           matched, pruned_files, pruned_manifests);
    FT_CHECK(matched > 5000);
    FT_CHECK(pruned_files > 300);
    FT_CHECK(pruned_manifests > 150);
    FT_CHECK(checked > 30000);
}

static const ft_case cases[] = {
    {"no_false_negatives", test_no_false_negatives},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
