/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/vfilter: the residual filter on a whole decoded batch, and the
 * compaction of the rows it keeps (read.c's filtered path).
 *
 * floe__scan_filter_rows answers exactly what floe_expr_eval with
 * floe__arrow_row_value answers row by row, a column at a time: AND narrows
 * the mask, OR evaluates its right side only on rows the left side did not
 * match, and a predicate on a top-level column runs one loop over its Arrow
 * buffers. Comparisons and IN on 32- and 64-bit integer columns (int, date,
 * long, time, timestamps) whose literals have the column's type compare the
 * raw values (Java's null rules: a null matches only !=, NOT IN); IS NULL /
 * NOT NULL read the validity bitmap; every other predicate (floats with
 * their NaN and signed-zero order, decimals, strings, binary, booleans,
 * fields inside structs) tests each value with floe_expr_test_value, so
 * the two paths cannot disagree on semantics.
 *
 * floe__scan_take copies the kept rows of a flat column (fixed-width,
 * boolean, string/binary) buffer to buffer; nested columns go through the
 * builder slot by slot. floe__scan_compact does the same inside the
 * column's own buffers (a batch the scan owns): no new buffer is allocated
 * or faulted in, and runs of kept rows move with one memmove each, so a
 * batch losing 1 % of its rows to deletes costs little more than one that
 * loses none.
 */
#include "scan/scan.h"

#include "arrow/arrow.h"
#include "expr/expr.h"
#include "spec/value.h"

#include <string.h>

typedef struct vctx {
    const floe_type *root;
    const struct ArrowArray *batch;
    int64_t n;
} vctx;

static bool valid_at(const uint8_t *bits, int64_t off, int64_t i)
{
    return !bits || floe__arrow_bit_get(bits, i + off);
}

/* Rows of m (still 1) get m[i] = pred(row i), through the row getter:
 * the slow path's own answer, for fields not at the top level. */
static int pred_rows(uint8_t *m, const floe_expr *e, const vctx *c)
{
    floe_arrow_row g = {c->root, c->batch, 0};
    for (int64_t i = 0; i < c->n; i++) {
        if (!m[i])
            continue;
        floe_value v = floe_value_null(e->type ? e->type->id : FLOE_T_INT);
        g.row = i;
        FLOE_TRY(floe__arrow_row_value(e->field_id, &v, &g));
        m[i] = floe_expr_test_value(e, &v);
    }
    return 0;
}

/* One value at a time from the column (same values as the row getter). */
static int pred_values(uint8_t *m, const floe_expr *e, const struct ArrowArray *a,
                       const floe_type *t, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (!m[i])
            continue;
        floe_value v;
        FLOE_TRY(floe__arrow_value_at(a, t, i, &v));
        m[i] = floe_expr_test_value(e, &v);
    }
    return 0;
}

static bool is_negative(floe_op op) { return op == FLOE_OP_NOT_EQ || op == FLOE_OP_NOT_IN; }

/* Comparison / IN over raw integers; `nul` is what a null row gives. */
#define INT_LOOP(T, FIELD)                                                                        \
    do {                                                                                          \
        const T *v = (const T *)a->buffers[1] + a->offset;                                        \
        T x = (T)e->lits[0].v.FIELD;                                                              \
        switch (e->op) {                                                                          \
        case FLOE_OP_LT:                                                                          \
            for (int64_t i = 0; i < n; i++)                                                       \
                m[i] &= (uint8_t)(v[i] < x);                                                      \
            break;                                                                                \
        case FLOE_OP_LT_EQ:                                                                       \
            for (int64_t i = 0; i < n; i++)                                                       \
                m[i] &= (uint8_t)(v[i] <= x);                                                     \
            break;                                                                                \
        case FLOE_OP_GT:                                                                          \
            for (int64_t i = 0; i < n; i++)                                                       \
                m[i] &= (uint8_t)(v[i] > x);                                                      \
            break;                                                                                \
        case FLOE_OP_GT_EQ:                                                                       \
            for (int64_t i = 0; i < n; i++)                                                       \
                m[i] &= (uint8_t)(v[i] >= x);                                                     \
            break;                                                                                \
        case FLOE_OP_EQ:                                                                          \
            for (int64_t i = 0; i < n; i++)                                                       \
                m[i] &= (uint8_t)(v[i] == x);                                                     \
            break;                                                                                \
        case FLOE_OP_NOT_EQ:                                                                      \
            for (int64_t i = 0; i < n; i++)                                                       \
                m[i] &= (uint8_t)(v[i] != x || !valid_at(bits, a->offset, i));                     \
            break;                                                                                \
        default: /* IN, NOT IN */                                                                 \
            for (int64_t i = 0; i < n; i++) {                                                     \
                if (!m[i])                                                                        \
                    continue;                                                                     \
                bool found = false;                                                               \
                for (size_t k = 0; k < e->nlits && !found; k++)                                   \
                    found = v[i] == (T)e->lits[k].v.FIELD;                                        \
                m[i] = found == (e->op == FLOE_OP_IN) ||                                          \
                       (e->op == FLOE_OP_NOT_IN && !valid_at(bits, a->offset, i));                \
            }                                                                                     \
            break;                                                                                \
        }                                                                                         \
    } while (0)

static bool int_op(floe_op op)
{
    return op == FLOE_OP_LT || op == FLOE_OP_LT_EQ || op == FLOE_OP_GT || op == FLOE_OP_GT_EQ ||
           op == FLOE_OP_EQ || op == FLOE_OP_NOT_EQ || op == FLOE_OP_IN || op == FLOE_OP_NOT_IN;
}

static int rep_bits(floe_type_id id)
{
    switch (id) {
    case FLOE_T_INT:
    case FLOE_T_DATE: return 32;
    case FLOE_T_LONG:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: return 64;
    default: return 0;
    }
}

static int pred_mask(uint8_t *m, const floe_expr *e, const vctx *c)
{
    if (e->field_id == 0)
        return floe__error(FLOE_EINVALID, "expr", "cannot evaluate unbound predicate on %s",
                           e->name);
    const floe_type *t = NULL;
    const struct ArrowArray *a = NULL;
    for (size_t k = 0; k < c->root->nfields; k++)
        if (c->root->fields[k].id == e->field_id) {
            t = c->root->fields[k].type;
            a = c->batch->children[k];
            break;
        }
    if (!t || floe_type_is_nested(t))
        return pred_rows(m, e, c);
    int64_t n = c->n;
    if (a->length < n)
        return floe__error(FLOE_EINVALID, "arrow", "row %lld out of range", (long long)a->length);
    const uint8_t *bits = a->n_buffers > 0 && a->null_count != 0 ? a->buffers[0] : NULL;
    if (e->op == FLOE_OP_IS_NULL || e->op == FLOE_OP_NOT_NULL) {
        bool want = e->op == FLOE_OP_NOT_NULL;
        for (int64_t i = 0; bits && i < n; i++)
            m[i] &= (uint8_t)(valid_at(bits, a->offset, i) == want);
        if (!bits && !want)
            memset(m, 0, (size_t)n);
        return 0;
    }
    int w = rep_bits(t->id);
    bool raw = w != 0 && int_op(e->op) && e->nlits > 0 && a->n_buffers > 1 && a->buffers[1];
    for (size_t k = 0; raw && k < e->nlits; k++)
        raw = e->lits[k].type == t->id && !e->lits[k].is_null;
    if (!raw)
        return pred_values(m, e, a, t, n);
    if (w == 32)
        INT_LOOP(int32_t, i32);
    else
        INT_LOOP(int64_t, i64);
    /* a null matches only the negative ops, which the loops handled */
    if (bits && !is_negative(e->op))
        for (int64_t i = 0; i < n; i++)
            m[i] &= (uint8_t)valid_at(bits, a->offset, i);
    return 0;
}

static int eval_mask(uint8_t *m, const floe_expr *e, const vctx *c)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE: return 0;
    case FLOE_EXPR_FALSE: memset(m, 0, (size_t)c->n); return 0;
    case FLOE_EXPR_AND:
        FLOE_TRY(eval_mask(m, e->left, c));
        return eval_mask(m, e->right, c);
    case FLOE_EXPR_OR:
    case FLOE_EXPR_NOT: {
        uint8_t *l = floe__malloc((size_t)c->n);
        if (!l)
            return floe__error_nomem();
        memcpy(l, m, (size_t)c->n);
        int rc = eval_mask(l, e->left, c);
        if (rc == 0 && e->kind == FLOE_EXPR_NOT) {
            for (int64_t i = 0; i < c->n; i++)
                m[i] &= (uint8_t)!l[i];
        } else if (rc == 0) {
            /* the right side on the rows the left side left out */
            for (int64_t i = 0; i < c->n; i++)
                m[i] &= (uint8_t)!l[i];
            rc = eval_mask(m, e->right, c);
            for (int64_t i = 0; rc == 0 && i < c->n; i++)
                m[i] |= l[i];
        }
        floe__free(l);
        return rc;
    }
    case FLOE_EXPR_PRED: return pred_mask(m, e, c);
    }
    return floe__error(FLOE_EINVALID, "expr", "bad expression kind %d", (int)e->kind);
}

int floe__scan_filter_rows(uint8_t *keep, const floe_expr *res, const floe_type *root,
                           const struct ArrowArray *batch, int64_t n)
{
    vctx c = {root, batch, n};
    return eval_mask(keep, res, &c);
}

/* ---------------------------------------------------------------- compaction */

static int take_flat(floe_arrow_builder *b, const struct ArrowArray *in, const int64_t *idx,
                     int64_t kept)
{
    FLOE_TRY(floe__arrow_validity_reserve(b, kept));
    uint8_t *vb = (uint8_t *)b->validity.ptr;
    const uint8_t *bits = in->n_buffers > 0 && in->null_count != 0 ? in->buffers[0] : NULL;
    int64_t off = in->offset, nulls = 0;
    if (bits) {
        for (int64_t j = 0; j < kept; j++) {
            bool ok = floe__arrow_bit_get(bits, idx[j] + off);
            floe__arrow_bit_set(vb, j, ok);
            nulls += !ok;
        }
    } else if (kept > 0) {
        memset(vb, 0xff, (size_t)(kept + 7) / 8);
    }
    if (b->kind == FLOE_AK_BOOL) {
        size_t bytes = (size_t)(kept + 7) / 8;
        FLOE_TRY(floe__buf_reserve(&b->values, bytes));
        uint8_t *dst = (uint8_t *)b->values.ptr;
        memset(dst, 0, bytes);
        const uint8_t *src = in->buffers[1];
        for (int64_t j = 0; j < kept; j++)
            floe__arrow_bit_set(dst, j, floe__arrow_bit_get(src, idx[j] + off));
        b->values.len = bytes;
    } else if (b->kind == FLOE_AK_FIXED) {
        size_t wd = (size_t)b->width;
        FLOE_TRY(floe__buf_reserve(&b->values, (size_t)kept * wd));
        char *dst = b->values.ptr;
        const char *src = (const char *)in->buffers[1] + (size_t)off * wd;
        if (wd == 8) {
            for (int64_t j = 0; j < kept; j++)
                memcpy(dst + 8 * (size_t)j, src + 8 * (size_t)idx[j], 8);
        } else if (wd == 4) {
            for (int64_t j = 0; j < kept; j++)
                memcpy(dst + 4 * (size_t)j, src + 4 * (size_t)idx[j], 4);
        } else {
            for (int64_t j = 0; j < kept; j++)
                memcpy(dst + wd * (size_t)j, src + wd * (size_t)idx[j], wd);
        }
        b->values.len = (size_t)kept * wd;
    } else {
        const int32_t *o = (const int32_t *)in->buffers[1] + off;
        const char *data = in->n_buffers > 2 ? in->buffers[2] : NULL;
        size_t total = 0;
        for (int64_t j = 0; j < kept; j++) {
            int64_t i = idx[j];
            if (o[i + 1] < o[i] || (!data && o[i + 1] > o[i]))
                return floe__error(FLOE_EINVALID, "arrow", "bad Arrow offsets at row %lld",
                                   (long long)i);
            total += (size_t)(o[i + 1] - o[i]);
        }
        if (total > INT32_MAX)
            return floe__error(FLOE_EUNSUPPORTED, "arrow", "binary column over 2 GiB");
        FLOE_TRY(floe__buf_reserve(&b->offsets, (size_t)(kept + 1) * 4));
        FLOE_TRY(floe__buf_reserve(&b->data, total));
        int32_t *dof = (int32_t *)b->offsets.ptr;
        char *dd = b->data.ptr;
        int32_t at = 0;
        dof[0] = 0;
        for (int64_t j = 0; j < kept; j++) {
            int64_t i = idx[j];
            int32_t len = o[i + 1] - o[i];
            if (len && dd && data) /* both set when total > 0: checked above */
                memcpy(dd + at, data + o[i], (size_t)len);
            at += len;
            dof[j + 1] = at;
        }
        b->offsets.len = (size_t)(kept + 1) * 4;
        b->data.len = total;
    }
    b->length = kept;
    b->null_count = nulls;
    return 0;
}

int64_t floe__scan_kept_rows(const uint8_t *keep, int64_t n, int64_t *idx)
{
    int64_t j = 0;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, keep + i, 8);
        if (!w)
            continue;
        for (int64_t k = i; k < i + 8; k++) {
            idx[j] = k;
            j += keep[k] != 0;
        }
    }
    for (; i < n; i++) {
        idx[j] = i;
        j += keep[i] != 0;
    }
    return j;
}

int floe__scan_take(struct ArrowArray *out, const struct ArrowArray *in, const floe_type *t,
                    const int64_t *idx, int64_t kept)
{
    floe_arrow_builder *b;
    FLOE_TRY(floe__arrow_builder_new(&b, t));
    int rc = 0;
    if (kept > 0 && idx[kept - 1] >= in->length)
        rc = floe__error(FLOE_EINVALID, "arrow", "row %lld out of range", (long long)idx[kept - 1]);
    else if (!floe_type_is_nested(t) && in->n_buffers > 1 && in->buffers[1] &&
             (b->kind == FLOE_AK_BOOL || b->kind == FLOE_AK_FIXED || b->kind == FLOE_AK_BINARY))
        rc = take_flat(b, in, idx, kept);
    else
        for (int64_t j = 0; j < kept && rc == 0; j++)
            rc = floe__scan_copy_slot(b, in, t, idx[j]);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

/* Rows idx[j] -> j of a validity or boolean bitmap, in place (idx
 * ascending, idx[j] >= j: every bit read lies at or after the bit
 * written). */
static void compact_bits(uint8_t *bits, const int64_t *idx, int64_t kept, int64_t from)
{
    for (int64_t j = from; j < kept; j++)
        floe__arrow_bit_set(bits, j, floe__arrow_bit_get(bits, idx[j]));
}

/* The length of the run of consecutive rows starting at idx[j]. */
static int64_t run_at(const int64_t *idx, int64_t j, int64_t kept)
{
    int64_t len = 1;
    while (j + len < kept && idx[j + len] == idx[j] + len)
        len++;
    return len;
}

int floe__scan_compact(struct ArrowArray *a, const floe_type *t, const int64_t *idx, int64_t kept)
{
    if (floe_type_is_nested(t) || a->offset != 0 || a->n_children != 0 || a->n_buffers < 2 ||
        !a->buffers[1] || kept > a->length || (kept > 0 && idx[kept - 1] >= a->length))
        return 1;
    floe_arrow_kind kind;
    int width = 0;
    if (floe__arrow_kind_of(t, &kind, &width) < 0) {
        floe_error_clear();
        return 1;
    }
    if (kind == FLOE_AK_FIXED && width <= 0)
        return 1;
    if (kind == FLOE_AK_BINARY && (a->n_buffers < 3 || ((const int32_t *)a->buffers[1])[0] != 0))
        return 1;
    /* rows before the first dropped one stay where they are */
    int64_t from = 0;
    while (from < kept && idx[from] == from)
        from++;
    if (kind == FLOE_AK_BINARY) {
        int32_t *o = (int32_t *)(uintptr_t)a->buffers[1];
        char *data = (char *)(uintptr_t)a->buffers[2];
        for (int64_t i = from; i < kept; i++)
            if (o[idx[i] + 1] < o[idx[i]] || (!data && o[idx[i] + 1] > o[idx[i]]))
                return floe__error(FLOE_EINVALID, "arrow", "bad Arrow offsets at row %lld",
                                   (long long)idx[i]);
        for (int64_t j = from; j < kept;) {
            int64_t len = run_at(idx, j, kept), i = idx[j];
            int32_t at = o[j], src = o[i], bytes = o[i + len] - src;
            if (bytes && data) /* set when any value has bytes: checked above */
                memmove(data + at, data + src, (size_t)bytes);
            /* o[i..i+len] are read before o[j+1..j+len] are written:
             * i > j, and the copy goes downwards */
            for (int64_t k = 1; k <= len; k++)
                o[j + k] = at + (o[i + k] - src);
            j += len;
        }
    } else if (kind == FLOE_AK_BOOL) {
        compact_bits((uint8_t *)(uintptr_t)a->buffers[1], idx, kept, from);
    } else {
        char *v = (char *)(uintptr_t)a->buffers[1];
        size_t w = (size_t)width;
        for (int64_t j = from; j < kept;) {
            int64_t len = run_at(idx, j, kept);
            memmove(v + (size_t)j * w, v + (size_t)idx[j] * w, (size_t)len * w);
            j += len;
        }
    }
    if (a->null_count != 0 && a->buffers[0]) {
        uint8_t *bits = (uint8_t *)(uintptr_t)a->buffers[0];
        compact_bits(bits, idx, kept, from);
        int64_t nulls = 0;
        for (int64_t j = 0; j < kept; j++)
            nulls += !floe__arrow_bit_get(bits, j);
        a->null_count = nulls;
    } else {
        a->null_count = 0;
    }
    a->length = kept;
    return 0;
}
