/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Expression trees: construction, NOT push-down (Java's rewriteNot), text
 * form, and evaluation on rows and on partition tuples (Java's Evaluator).
 * See expr.h for the null and NaN semantics.
 */
#include "expr/expr.h"

#include "spec/value.h"

#include <math.h>
#include <string.h>

static const floe_expr expr_true = {.kind = FLOE_EXPR_TRUE};
static const floe_expr expr_false = {.kind = FLOE_EXPR_FALSE};

const floe_expr *floe_expr_true(void)
{
    return &expr_true;
}

const floe_expr *floe_expr_false(void)
{
    return &expr_false;
}

static floe_expr *node(floe_arena *a, floe_expr_kind kind)
{
    floe_expr *e = floe__arena_calloc(a, 1, sizeof *e);
    if (!e) {
        floe__error_nomem();
        return NULL;
    }
    e->kind = kind;
    return e;
}

const floe_expr *floe_expr_and(floe_arena *a, const floe_expr *l, const floe_expr *r)
{
    if (!l || !r)
        return NULL;
    if (l->kind == FLOE_EXPR_FALSE || r->kind == FLOE_EXPR_FALSE)
        return &expr_false;
    if (l->kind == FLOE_EXPR_TRUE)
        return r;
    if (r->kind == FLOE_EXPR_TRUE)
        return l;
    floe_expr *e = node(a, FLOE_EXPR_AND);
    if (e) {
        e->left = l;
        e->right = r;
    }
    return e;
}

const floe_expr *floe_expr_or(floe_arena *a, const floe_expr *l, const floe_expr *r)
{
    if (!l || !r)
        return NULL;
    if (l->kind == FLOE_EXPR_TRUE || r->kind == FLOE_EXPR_TRUE)
        return &expr_true;
    if (l->kind == FLOE_EXPR_FALSE)
        return r;
    if (r->kind == FLOE_EXPR_FALSE)
        return l;
    floe_expr *e = node(a, FLOE_EXPR_OR);
    if (e) {
        e->left = l;
        e->right = r;
    }
    return e;
}

const floe_expr *floe_expr_not(floe_arena *a, const floe_expr *x)
{
    if (!x)
        return NULL;
    if (x->kind == FLOE_EXPR_TRUE)
        return &expr_false;
    if (x->kind == FLOE_EXPR_FALSE)
        return &expr_true;
    if (x->kind == FLOE_EXPR_NOT)
        return x->left;
    floe_expr *e = node(a, FLOE_EXPR_NOT);
    if (e)
        e->left = x;
    return e;
}

static int op_arity(floe_op op)
{
    switch (op) {
    case FLOE_OP_IS_NULL:
    case FLOE_OP_NOT_NULL:
    case FLOE_OP_IS_NAN:
    case FLOE_OP_NOT_NAN: return 0;
    case FLOE_OP_IN:
    case FLOE_OP_NOT_IN: return -1;
    default: return 1;
    }
}

const floe_expr *floe_expr_pred(floe_arena *a, floe_op op, const char *name, const floe_value *lits,
                                size_t n)
{
    if (!name)
        return NULL;
    int ar = op_arity(op);
    if ((ar == 0 && n != 0) || (ar == 1 && n != 1) || (ar < 0 && n == 0) || op < FLOE_OP_IS_NULL ||
        op > FLOE_OP_NOT_IN) {
        floe__error(FLOE_EINVALID, "expr", "%s takes %s literal(s), got %zu", floe_op_name(op),
                    ar == 0   ? "no"
                    : ar == 1 ? "one"
                              : "at least one",
                    n);
        return NULL;
    }
    floe_expr *e = node(a, FLOE_EXPR_PRED);
    if (!e)
        return NULL;
    e->op = op;
    e->name = floe__arena_strdup(a, name);
    if (!e->name) {
        floe__error_nomem();
        return NULL;
    }
    if (n) {
        floe_value *v = floe__arena_alloc(a, n * sizeof *v);
        if (!v) {
            floe__error_nomem();
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            v[i] = lits[i];
            if (v[i].type <= FLOE_T_INVALID || v[i].type >= FLOE_T_UNKNOWN) {
                floe__error(FLOE_EINVALID, "expr", "literal of type id %d is not a primitive value",
                            (int)v[i].type);
                return NULL;
            }
            if (v[i].is_null) {
                floe__error(FLOE_EINVALID, "expr",
                            "Cannot create expression literal from null (use IS NULL)");
                return NULL;
            }
            switch (v[i].type) {
            case FLOE_T_STRING:
            case FLOE_T_UUID:
            case FLOE_T_FIXED:
            case FLOE_T_BINARY:
                if (v[i].v.bytes.len) {
                    v[i].v.bytes.ptr =
                        floe__arena_memdup(a, lits[i].v.bytes.ptr, lits[i].v.bytes.len);
                    if (!v[i].v.bytes.ptr) {
                        floe__error_nomem();
                        return NULL;
                    }
                } else {
                    v[i].v.bytes.ptr = (const uint8_t *)"";
                }
                break;
            default: break;
            }
        }
        e->lits = v;
        e->nlits = n;
    }
    return e;
}

const floe_expr *floe_expr_unary(floe_arena *a, floe_op op, const char *name)
{
    return floe_expr_pred(a, op, name, NULL, 0);
}

const floe_expr *floe_expr_cmp(floe_arena *a, floe_op op, const char *name, floe_value lit)
{
    return floe_expr_pred(a, op, name, &lit, 1);
}

const floe_expr *floe_expr_set(floe_arena *a, floe_op op, const char *name, const floe_value *lits,
                               size_t n)
{
    return floe_expr_pred(a, op, name, lits, n);
}

/* ---------------------------------------------------------------- NOT */

floe_op floe__expr_negate_op(floe_op op)
{
    switch (op) {
    case FLOE_OP_IS_NULL: return FLOE_OP_NOT_NULL;
    case FLOE_OP_NOT_NULL: return FLOE_OP_IS_NULL;
    case FLOE_OP_IS_NAN: return FLOE_OP_NOT_NAN;
    case FLOE_OP_NOT_NAN: return FLOE_OP_IS_NAN;
    case FLOE_OP_LT: return FLOE_OP_GT_EQ;
    case FLOE_OP_LT_EQ: return FLOE_OP_GT;
    case FLOE_OP_GT: return FLOE_OP_LT_EQ;
    case FLOE_OP_GT_EQ: return FLOE_OP_LT;
    case FLOE_OP_EQ: return FLOE_OP_NOT_EQ;
    case FLOE_OP_NOT_EQ: return FLOE_OP_EQ;
    case FLOE_OP_STARTS_WITH: return FLOE_OP_NOT_STARTS_WITH;
    case FLOE_OP_NOT_STARTS_WITH: return FLOE_OP_STARTS_WITH;
    case FLOE_OP_IN: return FLOE_OP_NOT_IN;
    case FLOE_OP_NOT_IN: return FLOE_OP_IN;
    }
    return op;
}

static const floe_expr *negated_pred(floe_arena *a, const floe_expr *p)
{
    floe_expr *e = node(a, FLOE_EXPR_PRED);
    if (e) {
        *e = *p;
        e->op = floe__expr_negate_op(p->op);
    }
    return e;
}

/* Push NOT down; `neg` says whether an odd number of NOTs is pending. */
static const floe_expr *rewrite(floe_arena *a, const floe_expr *e, bool neg)
{
    if (!e)
        return NULL;
    switch (e->kind) {
    case FLOE_EXPR_TRUE: return neg ? &expr_false : &expr_true;
    case FLOE_EXPR_FALSE: return neg ? &expr_true : &expr_false;
    case FLOE_EXPR_NOT: return rewrite(a, e->left, !neg);
    case FLOE_EXPR_AND:
    case FLOE_EXPR_OR: {
        const floe_expr *l = rewrite(a, e->left, neg);
        const floe_expr *r = l ? rewrite(a, e->right, neg) : NULL;
        bool is_and = (e->kind == FLOE_EXPR_AND) != neg;
        return is_and ? floe_expr_and(a, l, r) : floe_expr_or(a, l, r);
    }
    case FLOE_EXPR_PRED: return neg ? negated_pred(a, e) : e;
    }
    floe__error(FLOE_EINVALID, "expr", "bad expression kind %d", (int)e->kind);
    return NULL;
}

int floe_expr_rewrite_not(const floe_expr **out, floe_arena *a, const floe_expr *e)
{
    const floe_expr *r = rewrite(a, e, false);
    if (!r)
        return floe__error_code() ? floe__error_code() : floe__error_nomem();
    *out = r;
    return 0;
}

/* ---------------------------------------------------------------- text */

const char *floe_op_name(floe_op op)
{
    switch (op) {
    case FLOE_OP_IS_NULL: return "IS NULL";
    case FLOE_OP_NOT_NULL: return "IS NOT NULL";
    case FLOE_OP_IS_NAN: return "IS NAN";
    case FLOE_OP_NOT_NAN: return "IS NOT NAN";
    case FLOE_OP_LT: return "<";
    case FLOE_OP_LT_EQ: return "<=";
    case FLOE_OP_GT: return ">";
    case FLOE_OP_GT_EQ: return ">=";
    case FLOE_OP_EQ: return "=";
    case FLOE_OP_NOT_EQ: return "!=";
    case FLOE_OP_STARTS_WITH: return "STARTS WITH";
    case FLOE_OP_NOT_STARTS_WITH: return "NOT STARTS WITH";
    case FLOE_OP_IN: return "IN";
    case FLOE_OP_NOT_IN: return "NOT IN";
    }
    return "?";
}

static int format_lit(const floe_value *v, floe_buf *out)
{
    bool quote = v->type == FLOE_T_STRING || v->type == FLOE_T_DATE || v->type == FLOE_T_TIME ||
                 v->type == FLOE_T_TIMESTAMP || v->type == FLOE_T_TIMESTAMPTZ ||
                 v->type == FLOE_T_TIMESTAMP_NS || v->type == FLOE_T_TIMESTAMPTZ_NS ||
                 v->type == FLOE_T_UUID;
    if (v->type == FLOE_T_BINARY || v->type == FLOE_T_FIXED)
        FLOE_TRY(floe__buf_puts(out, "X'"));
    else if (quote)
        FLOE_TRY(floe__buf_putc(out, '\''));
    FLOE_TRY(floe_value_format(v, out));
    return quote || v->type == FLOE_T_BINARY || v->type == FLOE_T_FIXED ? floe__buf_putc(out, '\'')
                                                                        : 0;
}

int floe_expr_format(const floe_expr *e, floe_buf *out)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE: return floe__buf_puts(out, "true");
    case FLOE_EXPR_FALSE: return floe__buf_puts(out, "false");
    case FLOE_EXPR_NOT:
        FLOE_TRY(floe__buf_puts(out, "NOT "));
        return floe_expr_format(e->left, out);
    case FLOE_EXPR_AND:
    case FLOE_EXPR_OR:
        FLOE_TRY(floe__buf_putc(out, '('));
        FLOE_TRY(floe_expr_format(e->left, out));
        FLOE_TRY(floe__buf_puts(out, e->kind == FLOE_EXPR_AND ? " AND " : " OR "));
        FLOE_TRY(floe_expr_format(e->right, out));
        return floe__buf_putc(out, ')');
    case FLOE_EXPR_PRED:
        FLOE_TRY(floe__buf_printf(out, "%s %s", e->name, floe_op_name(e->op)));
        if (e->op == FLOE_OP_IN || e->op == FLOE_OP_NOT_IN) {
            FLOE_TRY(floe__buf_puts(out, " ("));
            for (size_t i = 0; i < e->nlits; i++) {
                if (i)
                    FLOE_TRY(floe__buf_puts(out, ", "));
                FLOE_TRY(format_lit(&e->lits[i], out));
            }
            return floe__buf_putc(out, ')');
        }
        if (e->nlits) {
            FLOE_TRY(floe__buf_putc(out, ' '));
            return format_lit(&e->lits[0], out);
        }
        return 0;
    }
    return floe__error(FLOE_EINVALID, "expr", "bad expression kind %d", (int)e->kind);
}

/* ---------------------------------------------------------------- values */

enum rep { REP_OTHER, REP_I32, REP_I64 };

static enum rep rep_of(floe_type_id t)
{
    switch (t) {
    case FLOE_T_INT:
    case FLOE_T_DATE: return REP_I32;
    case FLOE_T_LONG:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: return REP_I64;
    default: return REP_OTHER;
    }
}

int floe_expr_value_compare(const floe_value *a, const floe_value *b)
{
    if (a->type != b->type) {
        enum rep ra = rep_of(a->type), rb = rep_of(b->type);
        if (ra == REP_I32 && rb == REP_I32)
            return a->v.i32 < b->v.i32 ? -1 : a->v.i32 > b->v.i32;
        if (ra == REP_I64 && rb == REP_I64)
            return a->v.i64 < b->v.i64 ? -1 : a->v.i64 > b->v.i64;
        /* A file written before int -> long or float -> double promotion
         * hands over values of the old type. */
        if ((a->type == FLOE_T_INT && b->type == FLOE_T_LONG) ||
            (a->type == FLOE_T_LONG && b->type == FLOE_T_INT)) {
            int64_t x = a->type == FLOE_T_INT ? a->v.i32 : a->v.i64;
            int64_t y = b->type == FLOE_T_INT ? b->v.i32 : b->v.i64;
            return x < y ? -1 : x > y;
        }
        if ((a->type == FLOE_T_FLOAT && b->type == FLOE_T_DOUBLE) ||
            (a->type == FLOE_T_DOUBLE && b->type == FLOE_T_FLOAT)) {
            floe_value x = floe_value_double(a->type == FLOE_T_FLOAT ? a->v.f32 : a->v.f64);
            floe_value y = floe_value_double(b->type == FLOE_T_FLOAT ? b->v.f32 : b->v.f64);
            return floe_value_compare(&x, &y);
        }
    }
    return floe_value_compare(a, b);
}

static bool is_nan_value(const floe_value *v)
{
    return (v->type == FLOE_T_FLOAT && isnan(v->v.f32)) ||
           (v->type == FLOE_T_DOUBLE && isnan(v->v.f64));
}

static bool starts_with(const floe_value *v, const floe_value *prefix)
{
    if (v->type != FLOE_T_STRING && v->type != FLOE_T_BINARY)
        return false;
    size_t n = prefix->v.bytes.len;
    return v->v.bytes.len >= n && (n == 0 || memcmp(v->v.bytes.ptr, prefix->v.bytes.ptr, n) == 0);
}

bool floe_expr_test_value(const floe_expr *p, const floe_value *v)
{
    switch (p->op) {
    case FLOE_OP_IS_NULL: return v->is_null;
    case FLOE_OP_NOT_NULL: return !v->is_null;
    case FLOE_OP_IS_NAN: return !v->is_null && is_nan_value(v);
    case FLOE_OP_NOT_NAN: return v->is_null || !is_nan_value(v);
    default: break;
    }
    bool negative =
        p->op == FLOE_OP_NOT_EQ || p->op == FLOE_OP_NOT_IN || p->op == FLOE_OP_NOT_STARTS_WITH;
    if (v->is_null || is_nan_value(v))
        return negative;
    switch (p->op) {
    case FLOE_OP_LT: return floe_expr_value_compare(v, &p->lits[0]) < 0;
    case FLOE_OP_LT_EQ: return floe_expr_value_compare(v, &p->lits[0]) <= 0;
    case FLOE_OP_GT: return floe_expr_value_compare(v, &p->lits[0]) > 0;
    case FLOE_OP_GT_EQ: return floe_expr_value_compare(v, &p->lits[0]) >= 0;
    case FLOE_OP_EQ: return floe_expr_value_compare(v, &p->lits[0]) == 0;
    case FLOE_OP_NOT_EQ: return floe_expr_value_compare(v, &p->lits[0]) != 0;
    case FLOE_OP_STARTS_WITH: return starts_with(v, &p->lits[0]);
    case FLOE_OP_NOT_STARTS_WITH: return !starts_with(v, &p->lits[0]);
    case FLOE_OP_IN:
    case FLOE_OP_NOT_IN: {
        bool found = false;
        for (size_t i = 0; i < p->nlits && !found; i++)
            found = floe_expr_value_compare(v, &p->lits[i]) == 0;
        return found == (p->op == FLOE_OP_IN);
    }
    default: return false;
    }
}

int floe_expr_eval(bool *out, const floe_expr *e, floe_expr_getter get, void *payload)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE: *out = true; return 0;
    case FLOE_EXPR_FALSE: *out = false; return 0;
    case FLOE_EXPR_NOT:
        FLOE_TRY(floe_expr_eval(out, e->left, get, payload));
        *out = !*out;
        return 0;
    case FLOE_EXPR_AND:
        FLOE_TRY(floe_expr_eval(out, e->left, get, payload));
        return *out ? floe_expr_eval(out, e->right, get, payload) : 0;
    case FLOE_EXPR_OR:
        FLOE_TRY(floe_expr_eval(out, e->left, get, payload));
        return *out ? 0 : floe_expr_eval(out, e->right, get, payload);
    case FLOE_EXPR_PRED: {
        if (e->field_id == 0)
            return floe__error(FLOE_EINVALID, "expr", "cannot evaluate unbound predicate on %s",
                               e->name);
        floe_value v = floe_value_null(e->type ? e->type->id : FLOE_T_INT);
        FLOE_TRY(get(e->field_id, &v, payload));
        *out = floe_expr_test_value(e, &v);
        return 0;
    }
    }
    return floe__error(FLOE_EINVALID, "expr", "bad expression kind %d", (int)e->kind);
}

typedef struct partition_row {
    const floe_partition_spec *spec;
    const floe_partition_value *pv;
} partition_row;

static int partition_get(int32_t field_id, floe_value *out, void *payload)
{
    const partition_row *r = payload;
    for (size_t i = 0; i < r->spec->nfields; i++)
        if (r->spec->fields[i].field_id == field_id) {
            *out = r->pv->values[i];
            return 0;
        }
    return floe__error(FLOE_EINVALID, "expr", "partition field %d not in spec %d", (int)field_id,
                       (int)r->spec->spec_id);
}

int floe_expr_eval_partition(bool *out, const floe_expr *projected, const floe_partition_spec *spec,
                             const floe_partition_value *pv)
{
    if (pv->n != spec->nfields)
        return floe__error(FLOE_EINVALID, "expr",
                           "partition tuple has %zu values but spec %d has %zu fields", pv->n,
                           (int)spec->spec_id, spec->nfields);
    partition_row r = {spec, pv};
    return floe_expr_eval(out, projected, partition_get, &r);
}

int floe_expr_field_ids(const floe_expr *e, floe_vec *ids)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE:
    case FLOE_EXPR_FALSE: return 0;
    case FLOE_EXPR_NOT: return floe_expr_field_ids(e->left, ids);
    case FLOE_EXPR_AND:
    case FLOE_EXPR_OR:
        FLOE_TRY(floe_expr_field_ids(e->left, ids));
        return floe_expr_field_ids(e->right, ids);
    case FLOE_EXPR_PRED: break;
    }
    if (e->field_id == 0)
        return floe__error(FLOE_EINVALID, "expr", "unbound predicate on %s has no field id",
                           e->name);
    for (size_t i = 0; i < ids->len; i++)
        if (*(const int32_t *)floe__vec_at(ids, i) == e->field_id)
            return 0;
    int32_t *slot = floe__vec_push(ids);
    if (!slot)
        return floe__error_nomem();
    *slot = e->field_id;
    return 0;
}
