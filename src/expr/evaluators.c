/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The two pruning levels of scan planning (spec "Scan Planning", "Manifest
 * Lists" field_summary, "Manifests" data_file metrics 108-128):
 *   - manifest list: partition field summaries (contains_null, contains_nan,
 *     lower/upper bound) against the inclusive projection of the filter
 *     (semantics of Java's ManifestEvaluator);
 *   - manifest entries: a data file's value/null/NaN counts and lower/upper
 *     bounds against the bound row filter (Java's InclusiveMetricsEvaluator).
 * Both answer "rows might match"; anything unknown means "might".
 */
#include "expr/expr.h"

#include "spec/value.h"

#include <math.h>
#include <string.h>

#define MIGHT 1
#define CANNOT 0

static bool is_nan_value(const floe_value *v)
{
    return (v->type == FLOE_T_FLOAT && isnan(v->v.f32)) ||
           (v->type == FLOE_T_DOUBLE && isnan(v->v.f64));
}

/* Decode bound bytes by `t`; bounds written before a type promotion (int
 * for long, float for double, date for timestamp is not a promotion) are
 * widened. */
static int decode_bound(const floe_type *t, const uint8_t *p, size_t len, floe_value *out,
                        const char *what, int32_t id)
{
    if (t->id == FLOE_T_LONG && len == 4) {
        floe_type it = {.id = FLOE_T_INT};
        FLOE_TRY(floe_value_from_single(&it, p, len, out));
        *out = floe_value_long(out->v.i32);
        return 0;
    }
    if (t->id == FLOE_T_DOUBLE && len == 4) {
        floe_type ft = {.id = FLOE_T_FLOAT};
        FLOE_TRY(floe_value_from_single(&ft, p, len, out));
        *out = floe_value_double((double)out->v.f32);
        return 0;
    }
    if (floe_value_from_single(t, p, len, out) < 0)
        return floe__error_context("%s for field %d", what, (int)id);
    return 0;
}

/* Signed zeros: the spec asks writers for a lower bound of -0.0 and an
 * upper bound of +0.0 when either zero occurs, and floe orders -0.0 < +0.0
 * (like Java). Widen zero bounds so a writer that ignored the rule cannot
 * make a file with -0.0 look like it holds only +0.0 (or the reverse). */
static void widen_zero(floe_value *v, bool upper)
{
    if (v->type == FLOE_T_FLOAT && v->v.f32 == 0)
        v->v.f32 = upper ? 0.0f : -0.0f;
    else if (v->type == FLOE_T_DOUBLE && v->v.f64 == 0)
        v->v.f64 = upper ? 0.0 : -0.0;
}

/* Bytes-prefix comparison of a (possibly truncated) bound with a prefix:
 * compare the first min(len) bytes. */
static int cmp_prefix(const floe_value *bound, const floe_value *prefix)
{
    size_t n = bound->v.bytes.len < prefix->v.bytes.len ? bound->v.bytes.len : prefix->v.bytes.len;
    int c = n ? memcmp(bound->v.bytes.ptr, prefix->v.bytes.ptr, n) : 0;
    return c < 0 ? -1 : c > 0;
}

static bool has_prefix(const floe_value *v, const floe_value *prefix)
{
    return v->v.bytes.len >= prefix->v.bytes.len &&
           (prefix->v.bytes.len == 0 ||
            memcmp(v->v.bytes.ptr, prefix->v.bytes.ptr, prefix->v.bytes.len) == 0);
}

/* Range tests shared by both evaluators: given non-null, non-NaN lower and
 * upper bounds (either may be absent), can any value in [lower, upper]
 * satisfy p? */
static bool range_might(const floe_expr *p, const floe_value *lo, const floe_value *hi)
{
    if (!p->nlits)
        return true; /* every operator below compares with a literal */
    const floe_value *lit = &p->lits[0];
    switch (p->op) {
    case FLOE_OP_LT: return !lo || floe_expr_value_compare(lo, lit) < 0;
    case FLOE_OP_LT_EQ: return !lo || floe_expr_value_compare(lo, lit) <= 0;
    case FLOE_OP_GT: return !hi || floe_expr_value_compare(hi, lit) > 0;
    case FLOE_OP_GT_EQ: return !hi || floe_expr_value_compare(hi, lit) >= 0;
    case FLOE_OP_EQ:
        return (!lo || floe_expr_value_compare(lo, lit) <= 0) &&
               (!hi || floe_expr_value_compare(hi, lit) >= 0);
    case FLOE_OP_IN:
        for (size_t i = 0; i < p->nlits; i++)
            if ((!lo || floe_expr_value_compare(lo, &p->lits[i]) <= 0) &&
                (!hi || floe_expr_value_compare(hi, &p->lits[i]) >= 0))
                return true;
        return false;
    case FLOE_OP_STARTS_WITH:
        /* Bounds may be truncated: compare only the common prefix length. */
        if (lo && cmp_prefix(lo, lit) > 0)
            return false;
        if (hi && cmp_prefix(hi, lit) < 0)
            return false;
        return true;
    case FLOE_OP_NOT_STARTS_WITH:
        /* Every value starts with the prefix only if both bounds do (a
         * truncated upper bound that was incremented will not). */
        return !(lo && hi && has_prefix(lo, lit) && has_prefix(hi, lit));
    default: return true;
    }
}

/* ---------------------------------------------------------------- manifests */

static int summary_might(bool *out, const floe_expr *p, const floe_expr_field_summary *s)
{
    floe_value lo, hi;
    bool has_lo = s->lower_bound != NULL, has_hi = s->upper_bound != NULL;
    if (has_lo) {
        FLOE_TRY(decode_bound(p->type, s->lower_bound, s->lower_len, &lo,
                              "partition summary lower_bound", p->field_id));
        widen_zero(&lo, false);
    }
    if (has_hi) {
        FLOE_TRY(decode_bound(p->type, s->upper_bound, s->upper_len, &hi,
                              "partition summary upper_bound", p->field_id));
        widen_zero(&hi, true);
    }
    bool fp = p->type->id == FLOE_T_FLOAT || p->type->id == FLOE_T_DOUBLE;
    /* Bounds cover non-null, non-NaN values: no lower bound means every
     * value is null or NaN. Bounds that are NaN (old writers) are useless. */
    if ((has_lo && is_nan_value(&lo)) || (has_hi && is_nan_value(&hi))) {
        has_lo = has_hi = false;
        if (p->op != FLOE_OP_IS_NULL && p->op != FLOE_OP_IS_NAN) {
            *out = MIGHT;
            return 0;
        }
    }
    bool all_null = s->contains_null && !has_lo;
    if (all_null && fp)
        all_null = s->contains_nan == 0;
    bool nan_only = s->contains_nan == 1 && !s->contains_null && !has_lo && !has_hi;
    switch (p->op) {
    case FLOE_OP_IS_NULL: *out = s->contains_null; return 0;
    case FLOE_OP_NOT_NULL: *out = !all_null; return 0;
    case FLOE_OP_IS_NAN: *out = s->contains_nan != 0 && !all_null; return 0;
    case FLOE_OP_NOT_NAN: *out = !nan_only; return 0;
    case FLOE_OP_NOT_EQ:
    case FLOE_OP_NOT_IN: *out = MIGHT; return 0;
    case FLOE_OP_NOT_STARTS_WITH:
        if (s->contains_null) {
            *out = MIGHT;
            return 0;
        }
        *out = range_might(p, has_lo ? &lo : NULL, has_hi ? &hi : NULL);
        return 0;
    default:
        /* <, <=, >, >=, =, IN, STARTS WITH need a non-null, non-NaN value. */
        if (!has_lo && !has_hi) {
            /* Absent bounds with no nulls or NaNs recorded: v1 writers may
             * omit bounds, so only prune when the summary says all-null. */
            *out = !(s->contains_null || s->contains_nan == 1) ? MIGHT : CANNOT;
            return 0;
        }
        *out = range_might(p, has_lo ? &lo : NULL, has_hi ? &hi : NULL);
        return 0;
    }
}

static int manifest_eval(bool *out, const floe_expr *e, const floe_partition_spec *spec,
                         const floe_expr_field_summary *sum)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE: *out = true; return 0;
    case FLOE_EXPR_FALSE: *out = false; return 0;
    case FLOE_EXPR_AND:
        FLOE_TRY(manifest_eval(out, e->left, spec, sum));
        return *out ? manifest_eval(out, e->right, spec, sum) : 0;
    case FLOE_EXPR_OR:
        FLOE_TRY(manifest_eval(out, e->left, spec, sum));
        return *out ? 0 : manifest_eval(out, e->right, spec, sum);
    case FLOE_EXPR_NOT:
        return floe__error(FLOE_EINVALID, "expr", "manifest evaluator needs NOT rewritten");
    case FLOE_EXPR_PRED: break;
    }
    for (size_t i = 0; i < spec->nfields; i++)
        if (spec->fields[i].field_id == e->field_id)
            return summary_might(out, e, &sum[i]);
    *out = MIGHT; /* not a field of this spec */
    return 0;
}

int floe_expr_manifest_might_match(bool *out, const floe_expr *projected,
                                   const floe_partition_spec *spec,
                                   const floe_expr_field_summary *summaries, size_t n)
{
    if (n != spec->nfields)
        return floe__error(FLOE_EINVALID, "expr",
                           "manifest has %zu partition summaries but spec %d has %zu fields", n,
                           (int)spec->spec_id, spec->nfields);
    return manifest_eval(out, projected, spec, summaries);
}

/* ---------------------------------------------------------------- data files */

static bool find_count(const floe_metric_count *a, size_t n, int32_t id, int64_t *out)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].field_id == id) {
            *out = a[i].count;
            return true;
        }
    return false;
}

static const floe_metric_bound *find_bound(const floe_metric_bound *a, size_t n, int32_t id)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].field_id == id && a[i].ptr)
            return &a[i];
    return NULL;
}

static int metrics_pred(bool *out, const floe_expr *p, const floe_file_metrics *m)
{
    int32_t id = p->field_id;
    int64_t values = 0, nulls = 0, nans = 0;
    bool has_values = find_count(m->value_counts, m->n_value_counts, id, &values);
    bool has_nulls = find_count(m->null_value_counts, m->n_null_value_counts, id, &nulls);
    bool has_nans = find_count(m->nan_value_counts, m->n_nan_value_counts, id, &nans);
    bool nulls_only = has_values && has_nulls && nulls == values;
    bool nans_only = has_values && has_nans && nans == values;
    bool nulls_or_nans_only =
        has_values && has_nulls && has_nans ? nulls + nans == values : nulls_only || nans_only;
    bool fp = p->type->id == FLOE_T_FLOAT || p->type->id == FLOE_T_DOUBLE;

    switch (p->op) {
    case FLOE_OP_IS_NULL: *out = !(has_nulls && nulls == 0); return 0;
    case FLOE_OP_NOT_NULL: *out = !nulls_only; return 0;
    case FLOE_OP_IS_NAN: *out = !((has_nans && nans == 0) || nulls_only); return 0;
    case FLOE_OP_NOT_NAN: *out = !nans_only; return 0;
    case FLOE_OP_NOT_EQ:
    case FLOE_OP_NOT_IN: *out = MIGHT; return 0;
    case FLOE_OP_NOT_STARTS_WITH:
        /* Nulls satisfy NOT STARTS WITH. */
        if (!has_nulls || nulls > 0) {
            *out = MIGHT;
            return 0;
        }
        break;
    default:
        if (nulls_or_nans_only) {
            *out = CANNOT;
            return 0;
        }
        break;
    }

    const floe_metric_bound *lb = find_bound(m->lower_bounds, m->n_lower_bounds, id);
    const floe_metric_bound *ub = find_bound(m->upper_bounds, m->n_upper_bounds, id);
    floe_value lo, hi;
    if (lb) {
        FLOE_TRY(decode_bound(p->type, lb->ptr, lb->len, &lo, "lower_bound", id));
        widen_zero(&lo, false);
    }
    if (ub) {
        FLOE_TRY(decode_bound(p->type, ub->ptr, ub->len, &hi, "upper_bound", id));
        widen_zero(&hi, true);
    }
    /* The spec excludes NaN from float bounds, but older writers stored
     * it: a NaN bound tells nothing. */
    if (fp && ((lb && is_nan_value(&lo)) || (ub && is_nan_value(&hi)))) {
        *out = MIGHT;
        return 0;
    }
    *out = range_might(p, lb ? &lo : NULL, ub ? &hi : NULL);
    return 0;
}

static int metrics_eval(bool *out, const floe_expr *e, const floe_file_metrics *m)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE: *out = true; return 0;
    case FLOE_EXPR_FALSE: *out = false; return 0;
    case FLOE_EXPR_AND:
        FLOE_TRY(metrics_eval(out, e->left, m));
        return *out ? metrics_eval(out, e->right, m) : 0;
    case FLOE_EXPR_OR:
        FLOE_TRY(metrics_eval(out, e->left, m));
        return *out ? 0 : metrics_eval(out, e->right, m);
    case FLOE_EXPR_NOT:
        return floe__error(FLOE_EINVALID, "expr", "metrics evaluator needs NOT rewritten");
    case FLOE_EXPR_PRED: break;
    }
    if (e->field_id == 0 || !e->type)
        return floe__error(FLOE_EINVALID, "expr", "metrics of unbound predicate on %s", e->name);
    return metrics_pred(out, e, m);
}

int floe_expr_metrics_might_match(bool *out, const floe_expr *bound, const floe_file_metrics *m)
{
    if (m->record_count == 0) {
        *out = CANNOT; /* an empty file has no matching row */
        return 0;
    }
    return metrics_eval(out, bound, m);
}
