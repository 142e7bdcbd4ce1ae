/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Projections of row filters through partition transforms (spec "Scan
 * Planning": "Scan predicates are converted to partition predicates using
 * an inclusive projection"; semantics of Java's Projections and the
 * per-transform project/projectStrict methods), and residuals (Java's
 * ResidualEvaluator).
 *
 * Inclusive: if a row matches p, its partition matches incl(p).
 * Strict: if a partition matches strict(p), every row in it matches p.
 */
#include "expr/expr.h"

#include "spec/transform.h"
#include "spec/value.h"

#include <string.h>

/* v + delta (delta is -1 or +1) in the value's own units; false on
 * overflow. */
static bool adjust(const floe_value *v, int delta, floe_value *out)
{
    *out = *v;
    switch (v->type) {
    case FLOE_T_INT:
    case FLOE_T_DATE:
        if ((delta < 0 && v->v.i32 == INT32_MIN) || (delta > 0 && v->v.i32 == INT32_MAX))
            return false;
        out->v.i32 += delta;
        return true;
    case FLOE_T_DECIMAL: out->v.dec += delta; return true;
    case FLOE_T_LONG:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        if ((delta < 0 && v->v.i64 == INT64_MIN) || (delta > 0 && v->v.i64 == INT64_MAX))
            return false;
        out->v.i64 += delta;
        return true;
    default: return false;
    }
}

typedef struct proj {
    floe_arena *a;
    const floe_partition_field *pf;
    const floe_type *rtype;
} proj;

static const floe_expr *mk(const proj *pj, floe_op op, const floe_value *lits, size_t n)
{
    floe_expr *e = floe__arena_calloc(pj->a, 1, sizeof *e);
    floe_value *l = n ? floe__arena_alloc(pj->a, n * sizeof *l) : NULL;
    if (!e || (n && !l)) {
        floe__error_nomem();
        return NULL;
    }
    if (n)
        memcpy(l, lits, n * sizeof *l);
    e->kind = FLOE_EXPR_PRED;
    e->op = op;
    e->name = pj->pf->name;
    e->field_id = pj->pf->field_id;
    e->type = pj->rtype;
    e->lits = l;
    e->nlits = n;
    return e;
}

/* Apply the transform to a literal (after an optional +-1 adjustment).
 * false when the adjustment overflows or the transform fails. */
static bool tlit(const proj *pj, const floe_value *v, int delta, floe_value *out)
{
    floe_value x;
    if (delta == 0)
        x = *v;
    else if (!adjust(v, delta, &x))
        return false;
    return floe_transform_apply(&pj->pf->transform, &x, out) == 0;
}

/* The transformed literal set of IN/NOT IN, without duplicates; extra adds
 * value+1 for negative results (Java's pre-1970 fix, inclusive only). */
static const floe_expr *set_pred(const proj *pj, floe_op op, const floe_expr *p,
                                 bool widen_negative)
{
    size_t cap = p->nlits * (widen_negative ? 2 : 1);
    floe_value *vals = floe__arena_alloc(pj->a, cap * sizeof *vals);
    if (!vals) {
        floe__error_nomem();
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < p->nlits; i++) {
        floe_value t[2];
        size_t k = 0;
        if (!tlit(pj, &p->lits[i], 0, &t[0]))
            return op == FLOE_OP_IN ? floe_expr_true() : floe_expr_false();
        k = 1;
        if (widen_negative && t[0].v.i32 < 0) {
            t[1] = t[0];
            t[1].v.i32 += 1;
            k = 2;
        }
        for (size_t j = 0; j < k; j++) {
            bool dup = false;
            for (size_t m = 0; m < n && !dup; m++)
                dup = floe_expr_value_compare(&vals[m], &t[j]) == 0;
            if (!dup)
                vals[n++] = t[j];
        }
    }
    return mk(pj, n == 1 ? (op == FLOE_OP_IN ? FLOE_OP_EQ : FLOE_OP_NOT_EQ) : op, vals, n);
}

static const floe_expr *cmp_pred(const proj *pj, floe_op op, const floe_value *v, int delta,
                                 bool overflow_result)
{
    floe_value t;
    if (!tlit(pj, v, delta, &t))
        return overflow_result ? floe_expr_true() : floe_expr_false();
    return mk(pj, op, &t, 1);
}

static bool is_date_kind(floe_transform_kind k)
{
    return k == FLOE_TR_YEAR || k == FLOE_TR_MONTH || k == FLOE_TR_DAY || k == FLOE_TR_HOUR;
}

/* Java's fixInclusiveTimeProjection / fixStrictTimeProjection: before
 * Iceberg 0.11 date and timestamp transforms rounded pre-1970 values
 * towards zero (day(1969-12-31T10:00) gave 0, not -1), so projections
 * accept both the correct value and the one above it. The day transform of
 * a date is the date itself and never had the bug. */
static bool fix_pre_epoch(const proj *pj, const floe_expr *p)
{
    floe_transform_kind k = pj->pf->transform.kind;
    return is_date_kind(k) && !(k == FLOE_TR_DAY && p->type->id == FLOE_T_DATE);
}

static size_t lit_units(const floe_value *v)
{
    return v->type == FLOE_T_STRING ? floe_utf8_count(v->v.bytes.ptr, v->v.bytes.len)
                                    : v->v.bytes.len;
}

/* Inclusive projection of one bound predicate through one partition field. */
static const floe_expr *incl_one(const proj *pj, const floe_expr *p)
{
    floe_transform_kind k = pj->pf->transform.kind;
    if (k == FLOE_TR_IDENTITY)
        return mk(pj, p->op, p->lits, p->nlits);
    if (k == FLOE_TR_VOID || k == FLOE_TR_UNKNOWN)
        return floe_expr_true();
    if (p->op == FLOE_OP_IS_NULL || p->op == FLOE_OP_NOT_NULL)
        return mk(pj, p->op, NULL, 0);
    if (!p->nlits)
        return floe_expr_true(); /* IS_NAN / NOT_NAN: no projection */
    const floe_value *v = &p->lits[0];
    bool bytes = p->type->id == FLOE_T_STRING || p->type->id == FLOE_T_BINARY;
    if (k == FLOE_TR_BUCKET) {
        if (p->op == FLOE_OP_EQ)
            return cmp_pred(pj, FLOE_OP_EQ, v, 0, true);
        if (p->op == FLOE_OP_IN)
            return set_pred(pj, FLOE_OP_IN, p, false);
        return floe_expr_true();
    }
    if (k == FLOE_TR_TRUNCATE && bytes) {
        switch (p->op) {
        case FLOE_OP_LT:
        case FLOE_OP_LT_EQ: return cmp_pred(pj, FLOE_OP_LT_EQ, v, 0, true);
        case FLOE_OP_GT:
        case FLOE_OP_GT_EQ: return cmp_pred(pj, FLOE_OP_GT_EQ, v, 0, true);
        case FLOE_OP_EQ: return cmp_pred(pj, FLOE_OP_EQ, v, 0, true);
        case FLOE_OP_IN: return set_pred(pj, FLOE_OP_IN, p, false);
        case FLOE_OP_STARTS_WITH:
            if (lit_units(v) >= (size_t)pj->pf->transform.param)
                return cmp_pred(pj, FLOE_OP_EQ, v, 0, true);
            return mk(pj, FLOE_OP_STARTS_WITH, v, 1);
        case FLOE_OP_NOT_STARTS_WITH:
            if (lit_units(v) <= (size_t)pj->pf->transform.param)
                return mk(pj, FLOE_OP_NOT_STARTS_WITH, v, 1);
            return floe_expr_true();
        default: return floe_expr_true();
        }
    }
    if (k == FLOE_TR_TRUNCATE || is_date_kind(k)) {
        bool widen = fix_pre_epoch(pj, p);
        const floe_expr *r;
        floe_value t;
        switch (p->op) {
        case FLOE_OP_LT: r = cmp_pred(pj, FLOE_OP_LT_EQ, v, -1, false); break;
        case FLOE_OP_LT_EQ: r = cmp_pred(pj, FLOE_OP_LT_EQ, v, 0, true); break;
        case FLOE_OP_GT: r = cmp_pred(pj, FLOE_OP_GT_EQ, v, +1, false); break;
        case FLOE_OP_GT_EQ: r = cmp_pred(pj, FLOE_OP_GT_EQ, v, 0, true); break;
        case FLOE_OP_EQ:
            if (widen && tlit(pj, v, 0, &t) && t.v.i32 < 0)
                return set_pred(pj, FLOE_OP_IN, p, true);
            return cmp_pred(pj, FLOE_OP_EQ, v, 0, true);
        case FLOE_OP_IN: return set_pred(pj, FLOE_OP_IN, p, widen);
        default: return floe_expr_true();
        }
        /* Java's fixInclusiveTimeProjection: files written before 1970 by
         * old writers rounded towards zero, so an upper bound on a negative
         * partition value is widened by one. */
        if (widen && r && r->kind == FLOE_EXPR_PRED && r->op == FLOE_OP_LT_EQ &&
            r->lits[0].v.i32 < 0) {
            floe_value w = r->lits[0];
            w.v.i32 += 1;
            r = mk(pj, FLOE_OP_LT_EQ, &w, 1);
        }
        return r;
    }
    return floe_expr_true();
}

/* Strict projection of one bound predicate through one partition field. */
static const floe_expr *strict_one(const proj *pj, const floe_expr *p)
{
    floe_transform_kind k = pj->pf->transform.kind;
    if (k == FLOE_TR_IDENTITY)
        return mk(pj, p->op, p->lits, p->nlits);
    if (k == FLOE_TR_VOID || k == FLOE_TR_UNKNOWN)
        return floe_expr_false();
    if (p->op == FLOE_OP_IS_NULL || p->op == FLOE_OP_NOT_NULL)
        return mk(pj, p->op, NULL, 0);
    if (!p->nlits)
        return floe_expr_false(); /* IS_NAN / NOT_NAN: no projection */
    const floe_value *v = &p->lits[0];
    bool bytes = p->type->id == FLOE_T_STRING || p->type->id == FLOE_T_BINARY;
    bool fix = fix_pre_epoch(pj, p);
    floe_value t;
    if (p->op == FLOE_OP_NOT_EQ) {
        if (fix && tlit(pj, v, 0, &t) && t.v.i32 < 0)
            return set_pred(pj, FLOE_OP_NOT_IN, p, true);
        return cmp_pred(pj, FLOE_OP_NOT_EQ, v, 0, false);
    }
    if (p->op == FLOE_OP_NOT_IN)
        return set_pred(pj, FLOE_OP_NOT_IN, p, fix);
    if (k == FLOE_TR_BUCKET)
        return floe_expr_false();
    if (k == FLOE_TR_TRUNCATE && bytes) {
        size_t w = (size_t)pj->pf->transform.param;
        switch (p->op) {
        case FLOE_OP_LT:
        case FLOE_OP_LT_EQ: return cmp_pred(pj, FLOE_OP_LT, v, 0, false);
        case FLOE_OP_GT:
        case FLOE_OP_GT_EQ: return cmp_pred(pj, FLOE_OP_GT, v, 0, false);
        case FLOE_OP_STARTS_WITH:
            return lit_units(v) <= w ? mk(pj, FLOE_OP_STARTS_WITH, v, 1) : floe_expr_false();
        case FLOE_OP_NOT_STARTS_WITH:
            if (lit_units(v) <= w)
                return mk(pj, FLOE_OP_NOT_STARTS_WITH, v, 1);
            return cmp_pred(pj, FLOE_OP_NOT_EQ, v, 0, false);
        default: return floe_expr_false();
        }
    }
    if (k == FLOE_TR_TRUNCATE || is_date_kind(k)) {
        const floe_expr *r;
        switch (p->op) {
        case FLOE_OP_LT: return cmp_pred(pj, FLOE_OP_LT, v, 0, false);
        case FLOE_OP_LT_EQ: return cmp_pred(pj, FLOE_OP_LT, v, +1, false);
        case FLOE_OP_GT: r = cmp_pred(pj, FLOE_OP_GT, v, 0, false); break;
        case FLOE_OP_GT_EQ: r = cmp_pred(pj, FLOE_OP_GT, v, -1, false); break;
        default: return floe_expr_false();
        }
        /* A partition value p <= 0 may hold old rows of p-1: demand one more. */
        if (fix && r && r->kind == FLOE_EXPR_PRED && r->lits[0].v.i32 <= 0) {
            t = r->lits[0];
            t.v.i32 += 1;
            r = mk(pj, FLOE_OP_GT, &t, 1);
        }
        return r;
    }
    return floe_expr_false();
}

static int project(const floe_expr **out, floe_arena *a, const floe_expr *e,
                   const floe_partition_spec *spec, bool strict)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE:
    case FLOE_EXPR_FALSE: *out = e; return 0;
    case FLOE_EXPR_AND:
    case FLOE_EXPR_OR: {
        const floe_expr *l, *r;
        FLOE_TRY(project(&l, a, e->left, spec, strict));
        FLOE_TRY(project(&r, a, e->right, spec, strict));
        *out = e->kind == FLOE_EXPR_AND ? floe_expr_and(a, l, r) : floe_expr_or(a, l, r);
        return *out ? 0 : floe__error_nomem();
    }
    case FLOE_EXPR_NOT:
        return floe__error(FLOE_EINVALID, "expr", "cannot project NOT: rewrite it first");
    case FLOE_EXPR_PRED: break;
    }
    if (e->field_id == 0 || !e->type)
        return floe__error(FLOE_EINVALID, "expr", "cannot project unbound predicate on %s",
                           e->name);
    /* Inclusive: every field of the source must agree (AND); strict: any
     * field that proves the predicate suffices (OR). */
    const floe_expr *acc = strict ? floe_expr_false() : floe_expr_true();
    for (size_t i = 0; i < spec->nfields; i++) {
        const floe_partition_field *pf = &spec->fields[i];
        if (pf->source_id != e->field_id)
            continue;
        proj pj = {a, pf, floe_transform_result_type(&pf->transform, e->type)};
        const floe_expr *r;
        if (!pj.rtype)
            r = strict ? floe_expr_false() : floe_expr_true();
        else
            r = strict ? strict_one(&pj, e) : incl_one(&pj, e);
        acc = strict ? floe_expr_or(a, acc, r) : floe_expr_and(a, acc, r);
        if (!acc)
            return floe__error_or_nomem();
    }
    *out = acc;
    return 0;
}

int floe_expr_project_inclusive(const floe_expr **out, floe_arena *a, const floe_expr *bound,
                                const floe_partition_spec *spec)
{
    return project(out, a, bound, spec, false);
}

int floe_expr_project_strict(const floe_expr **out, floe_arena *a, const floe_expr *bound,
                             const floe_partition_spec *spec)
{
    return project(out, a, bound, spec, true);
}

/* ---------------------------------------------------------------- residuals */

static bool eval_on(const floe_expr *e, const floe_value *pval)
{
    if (e->kind == FLOE_EXPR_TRUE)
        return true;
    if (e->kind == FLOE_EXPR_FALSE)
        return false;
    return floe_expr_test_value(e, pval);
}

static int residual(const floe_expr **out, floe_arena *a, const floe_expr *e,
                    const floe_partition_spec *spec, const floe_partition_value *pv)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE:
    case FLOE_EXPR_FALSE: *out = e; return 0;
    case FLOE_EXPR_AND:
    case FLOE_EXPR_OR: {
        const floe_expr *l, *r;
        FLOE_TRY(residual(&l, a, e->left, spec, pv));
        FLOE_TRY(residual(&r, a, e->right, spec, pv));
        *out = e->kind == FLOE_EXPR_AND ? floe_expr_and(a, l, r) : floe_expr_or(a, l, r);
        return *out ? 0 : floe__error_nomem();
    }
    case FLOE_EXPR_NOT:
        return floe__error(FLOE_EINVALID, "expr", "cannot compute residual of NOT: rewrite first");
    case FLOE_EXPR_PRED: break;
    }
    if (e->field_id == 0 || !e->type)
        return floe__error(FLOE_EINVALID, "expr", "residual of unbound predicate on %s", e->name);
    for (size_t i = 0; i < spec->nfields; i++) {
        const floe_partition_field *pf = &spec->fields[i];
        if (pf->source_id != e->field_id)
            continue;
        proj pj = {a, pf, floe_transform_result_type(&pf->transform, e->type)};
        if (!pj.rtype)
            continue;
        const floe_expr *s = strict_one(&pj, e);
        if (!s)
            return floe__error_or_nomem();
        if (s->kind != FLOE_EXPR_FALSE && eval_on(s, &pv->values[i])) {
            *out = floe_expr_true();
            return 0;
        }
        const floe_expr *in = incl_one(&pj, e);
        if (!in)
            return floe__error_or_nomem();
        if (!eval_on(in, &pv->values[i])) {
            *out = floe_expr_false();
            return 0;
        }
    }
    *out = e;
    return 0;
}

int floe_expr_residual(const floe_expr **out, floe_arena *a, const floe_expr *bound,
                       const floe_partition_spec *spec, const floe_partition_value *pv)
{
    if (pv->n != spec->nfields)
        return floe__error(FLOE_EINVALID, "expr",
                           "partition tuple has %zu values but spec %d has %zu fields", pv->n,
                           (int)spec->spec_id, spec->nfields);
    return residual(out, a, bound, spec, pv);
}
