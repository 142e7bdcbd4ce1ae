/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scan's batch filter and compaction (src/scan/vfilter.c) against the
 * row-at-a-time slow path they replace: for random batches of the expr
 * fixture's schema (every primitive type, nulls, NaN and signed zeros,
 * sliced columns, a struct and a list column) and random bound filters
 * (AND / OR / NOT of every operator), the mask must be floe_expr_eval's
 * answer row by row, and the compacted
 * columns must hold the slots floe__scan_copy_slot copies, value by value.
 * The in-place compaction (floe__scan_compact, the scan's delete path) must
 * give the same slots for every flat type, with and without nulls, for
 * sparse and dense deletes, and allocate nothing. Then both under an
 * allocation-failure loop: FLOE_ENOMEM, never a crash or a wrong answer.
 */
#include "../expr/fixture.h"

#include "arrow/arrow.h"
#include "scan/scan.h"

#include <stdlib.h>

#define rnd fx_rnd
#define rnd_range fx_rnd_range

/* predicate columns: every top-level primitive and the nested loc.zip */
static const int32_t pcols[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 18, 20, 21};

static const floe_type *type_of(int32_t id, const char **name)
{
    if (id == 13) {
        *name = "loc.zip";
        return &fx_int;
    }
    for (size_t i = 0; i < FT_N(fx_fields); i++)
        if (fx_fields[i].id == id) {
            *name = fx_fields[i].name;
            return fx_fields[i].type;
        }
    return NULL;
}

static const char *const pieces[] = {"a", "b", "\xc3\xa9", "z"};

static floe_value rnd_value(floe_arena *a, const floe_type *t, bool nan)
{
    switch (t->id) {
    case FLOE_T_INT: return floe_value_int((int32_t)rnd_range(-20, 20));
    case FLOE_T_DATE: return floe_value_date((int32_t)rnd_range(-20, 20));
    case FLOE_T_LONG: return floe_value_long(rnd() % 9 == 0 ? (int64_t)rnd() : rnd_range(-20, 20));
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS: return floe_value_i64(t->id, rnd_range(-20, 20) * 1000 - 1);
    case FLOE_T_DECIMAL: return floe_value_decimal(rnd_range(-30, 30), t->scale);
    case FLOE_T_DOUBLE: {
        static const double ds[] = {-1.5, 0.0, -0.0, 1.0, 2.5};
        return floe_value_double(nan && rnd() % 6 == 0 ? NAN : ds[rnd() % 5]);
    }
    case FLOE_T_FLOAT: {
        static const float fs[] = {-1.5f, 0.0f, -0.0f, 1.0f};
        return floe_value_float(nan && rnd() % 6 == 0 ? NAN : fs[rnd() % 4]);
    }
    case FLOE_T_BOOLEAN: return floe_value_bool(rnd() % 2);
    case FLOE_T_STRING:
    case FLOE_T_BINARY: {
        char buf[16];
        size_t n = 0;
        for (int k = (int)rnd_range(0, 3); k > 0; k--) {
            const char *p = pieces[rnd() % 4];
            memcpy(buf + n, p, strlen(p));
            n += strlen(p);
        }
        return floe_value_bytes(t->id, floe__arena_memdup(a, n ? buf : "", n ? n : 1), n);
    }
    case FLOE_T_FIXED:
    case FLOE_T_UUID: {
        size_t w = t->id == FLOE_T_UUID ? 16 : (size_t)t->length;
        uint8_t *p = floe__arena_alloc(a, w);
        for (size_t k = 0; k < w; k++)
            p[k] = (uint8_t)(rnd() % 3);
        return floe_value_bytes(t->id, p, w);
    }
    default: return floe_value_null(t->id);
    }
}

static const floe_expr *rnd_pred(floe_arena *a)
{
    const char *name = NULL;
    const floe_type *t = type_of(pcols[rnd() % FT_N(pcols)], &name);
    static const floe_op ops[] = {FLOE_OP_IS_NULL, FLOE_OP_NOT_NULL, FLOE_OP_LT,    FLOE_OP_LT_EQ,
                                  FLOE_OP_GT,      FLOE_OP_GT_EQ,    FLOE_OP_EQ,    FLOE_OP_NOT_EQ,
                                  FLOE_OP_IN,      FLOE_OP_NOT_IN,   FLOE_OP_EQ,    FLOE_OP_LT};
    floe_op op = ops[rnd() % FT_N(ops)];
    if (t->id == FLOE_T_STRING && rnd() % 3 == 0)
        op = rnd() % 2 ? FLOE_OP_STARTS_WITH : FLOE_OP_NOT_STARTS_WITH;
    if ((t->id == FLOE_T_DOUBLE || t->id == FLOE_T_FLOAT) && rnd() % 4 == 0)
        op = rnd() % 2 ? FLOE_OP_IS_NAN : FLOE_OP_NOT_NAN;
    if (op == FLOE_OP_IS_NULL || op == FLOE_OP_NOT_NULL || op == FLOE_OP_IS_NAN ||
        op == FLOE_OP_NOT_NAN)
        return floe_expr_unary(a, op, name);
    floe_value lits[3];
    size_t n = op == FLOE_OP_IN || op == FLOE_OP_NOT_IN ? (size_t)rnd_range(1, 3) : 1;
    for (size_t i = 0; i < n; i++)
        lits[i] = rnd_value(a, t, false);
    return floe_expr_pred(a, op, name, lits, n);
}

static floe_value rnd_cell(floe_arena *a, const floe_type *t, int null_pct)
{
    if ((int)(rnd() % 100) < null_pct)
        return floe_value_null(t->id);
    return rnd_value(a, t, true);
}

/* A batch of n rows built from pre + n: the top-level primitive columns
 * are sliced to start at row `pre` (Arrow offset); the struct and list
 * columns keep offset 0 (the reader never slices nested columns). */
static void make_batch(floe_arena *a, struct ArrowArray *out, int64_t n, int64_t pre,
                       int null_pct)
{
    floe_arrow_builder *b;
    FT_OK(floe__arrow_builder_new(&b, &fx_root));
    for (int64_t r = 0; r < n + pre; r++) {
        for (size_t k = 0; k < FT_N(fx_fields); k++) {
            const floe_type *t = fx_fields[k].type;
            floe_arrow_builder *c = b->children[k];
            if (t->id == FLOE_T_LIST) {
                int64_t len = rnd_range(0, 2);
                for (int64_t j = 0; j < len; j++) {
                    floe_value v = rnd_cell(a, t->element->type, null_pct);
                    FT_OK(floe__arrow_builder_append(c->children[0], &v));
                }
                FT_OK(floe__arrow_builder_list_append(c, (int)(rnd() % 100) >= null_pct, len));
                continue;
            }
            if (t->id == FLOE_T_STRUCT) {
                for (size_t j = 0; j < t->nfields; j++) {
                    floe_value v = rnd_cell(a, t->fields[j].type, null_pct);
                    FT_OK(floe__arrow_builder_append(c->children[j], &v));
                }
                FT_OK(floe__arrow_builder_struct_append(c, (int)(rnd() % 100) >= null_pct));
                continue;
            }
            floe_value v = rnd_cell(a, t, null_pct);
            FT_OK(floe__arrow_builder_append(c, &v));
        }
        FT_OK(floe__arrow_builder_struct_append(b, true));
    }
    FT_OK(floe__arrow_builder_finish(b, out));
    floe__arrow_builder_free(b);
    out->length = n;
    for (size_t k = 0; k < FT_N(fx_fields); k++) {
        out->children[k]->length = n;
        if (!floe_type_is_nested(fx_fields[k].type))
            out->children[k]->offset = pre;
    }
}

/* The slow path: floe_expr_eval row by row on the rows of m0. */
static int slow_mask(uint8_t *m, const uint8_t *m0, const floe_expr *e,
                     const struct ArrowArray *batch, int64_t n)
{
    floe_arrow_row g = {&fx_root, batch, 0};
    for (int64_t i = 0; i < n; i++) {
        bool ok = false;
        g.row = i;
        if (m0[i])
            FLOE_TRY(floe_expr_eval(&ok, e, floe__arrow_row_value, &g));
        m[i] = ok;
    }
    return 0;
}

/* The slow compaction: builder + floe__scan_copy_slot per kept row. */
static int slow_take(struct ArrowArray *out, const struct ArrowArray *in, const floe_type *t,
                     const uint8_t *keep, int64_t n)
{
    floe_arrow_builder *b;
    FLOE_TRY(floe__arrow_builder_new(&b, t));
    int rc = 0;
    for (int64_t i = 0; i < n && rc == 0; i++)
        if (keep[i])
            rc = floe__scan_copy_slot(b, in, t, i);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

/* Same slots: validity and, where valid, the value (bytes for strings). */
static bool same_column(const struct ArrowArray *x, const struct ArrowArray *y, const floe_type *t)
{
    if (x->length != y->length || x->null_count != y->null_count)
        return false;
    for (int64_t i = 0; i < x->length; i++) {
        bool vx = floe__arrow_is_valid(x, i), vy = floe__arrow_is_valid(y, i);
        if (vx != vy)
            return false;
        if (!vx)
            continue;
        if (t->id == FLOE_T_LIST) {
            const int32_t *ox = (const int32_t *)x->buffers[1] + x->offset;
            const int32_t *oy = (const int32_t *)y->buffers[1] + y->offset;
            if (ox[i + 1] - ox[i] != oy[i + 1] - oy[i])
                return false;
            for (int32_t j = 0; j < ox[i + 1] - ox[i]; j++) {
                floe_value a, b;
                if (floe__arrow_value_at(x->children[0], t->element->type, ox[i] + j, &a) < 0 ||
                    floe__arrow_value_at(y->children[0], t->element->type, oy[i] + j, &b) < 0 ||
                    a.is_null != b.is_null || (!a.is_null && floe_value_compare(&a, &b) != 0))
                    return false;
            }
            continue;
        }
        if (t->id == FLOE_T_STRUCT) {
            for (size_t k = 0; k < t->nfields; k++) {
                floe_value a, b;
                if (floe__arrow_value_at(x->children[k], t->fields[k].type, i, &a) < 0 ||
                    floe__arrow_value_at(y->children[k], t->fields[k].type, i, &b) < 0 ||
                    a.is_null != b.is_null || (!a.is_null && floe_value_compare(&a, &b) != 0))
                    return false;
            }
            continue;
        }
        floe_value a, b;
        if (floe__arrow_value_at(x, t, i, &a) < 0 || floe__arrow_value_at(y, t, i, &b) < 0)
            return false;
        if (floe_value_compare(&a, &b) != 0)
            return false;
        /* floe_value_compare orders NaN payloads alike: compare the bits too */
        if ((t->id == FLOE_T_DOUBLE && memcmp(&a.v.f64, &b.v.f64, 8) != 0) ||
            (t->id == FLOE_T_FLOAT && memcmp(&a.v.f32, &b.v.f32, 4) != 0))
            return false;
    }
    return true;
}

static void test_filter_matches_slow_path(void)
{
    long exprs = 0, rows = 0, kept_total = 0, fast_preds = 0;
    fx_rng_state = 0x2545f4914f6cdd1dull;
    for (int round = 0; round < 60; round++) {
        floe_arena *a = floe__arena_new(0);
        FT_ASSERT(a != NULL);
        int64_t n = rnd_range(1, 300), pre = round % 3 ? rnd_range(0, 17) : 0;
        int null_pct = round % 4 == 0 ? 0 : (int)rnd_range(5, 40);
        struct ArrowArray batch;
        make_batch(a, &batch, n, pre, null_pct);
        uint8_t *m0 = malloc((size_t)n), *fast = malloc((size_t)n), *slow = malloc((size_t)n);
        int64_t *idx = malloc((size_t)n * sizeof *idx);
        FT_ASSERT(m0 && fast && slow && idx);
        for (int q = 0; q < 40; q++) {
            const floe_expr *e = fx_rnd_expr(a, 3, rnd_pred), *bound = NULL;
            FT_ASSERT(e != NULL);
            if (floe_expr_bind(&bound, a, &fx_schema, e, true) < 0) {
                floe_error_clear();
                continue;
            }
            if (bound->kind == FLOE_EXPR_PRED && bound->field_id != 13)
                fast_preds++;
            for (int64_t i = 0; i < n; i++)
                m0[i] = rnd() % 5 != 0;
            memcpy(fast, m0, (size_t)n);
            FT_OK(floe__scan_filter_rows(fast, bound, &fx_root, &batch, n));
            FT_OK(slow_mask(slow, m0, bound, &batch, n));
            if (memcmp(fast, slow, (size_t)n) != 0) {
                ft_fail(__FILE__, __LINE__, "filter %s disagrees with the slow path (round %d)",
                        fx_fmt(bound), round);
                break;
            }
            exprs++;
            rows += n;
            int64_t kept = floe__scan_kept_rows(fast, n, idx);
            int64_t want = 0;
            for (int64_t i = 0; i < n; i++)
                if (fast[i])
                    FT_CHECK(idx[want++] == i);
            FT_EQ_INT(kept, want);
            kept_total += kept;
            for (size_t k = 0; k < FT_N(fx_fields); k++) {
                struct ArrowArray x, y;
                FT_OK(floe__scan_take(&x, batch.children[k], fx_fields[k].type, idx, kept));
                FT_OK(slow_take(&y, batch.children[k], fx_fields[k].type, fast, n));
                if (!same_column(&x, &y, fx_fields[k].type))
                    ft_fail(__FILE__, __LINE__, "take of column %s differs (round %d, %s)",
                            fx_fields[k].name, round, fx_fmt(bound));
                x.release(&x);
                y.release(&y);
            }
        }
        free(m0);
        free(fast);
        free(slow);
        free(idx);
        batch.release(&batch);
        floe__arena_free(a);
    }
    printf("    %ld filters on %ld rows, %ld rows kept, %ld single predicates\n", exprs, rows,
           kept_total, fast_preds);
    /* the generator must exercise both outcomes */
    FT_CHECK(exprs > 1500);
    FT_CHECK(kept_total > rows / 10 && kept_total < rows * 9 / 10);
    FT_CHECK(fast_preds > 300);
}

/* floe__scan_compact against the slow path: an owned copy of each column
 * (floe__scan_take of every row: offset 0, as the reader's batches) is
 * compacted in place under an allocator that fails every call, and must
 * hold the slots floe__scan_copy_slot copies. */
static void test_compact_matches_slow_path(void)
{
    long compacted = 0, nested = 0;
    fx_rng_state = 0x9e3779b97f4a7c15ull;
    static const int drop_pct[] = {0, 1, 10, 50, 90, 100};
    for (int round = 0; round < 48; round++) {
        floe_arena *a = floe__arena_new(0);
        FT_ASSERT(a != NULL);
        int64_t n = rnd_range(1, 400), pre = round % 2 ? rnd_range(0, 9) : 0;
        int null_pct = round % 3 == 0 ? 0 : (int)rnd_range(5, 40);
        struct ArrowArray batch;
        make_batch(a, &batch, n, pre, null_pct);
        uint8_t *keep = malloc((size_t)n);
        int64_t *idx = malloc((size_t)n * sizeof *idx), *all = malloc((size_t)n * sizeof *all);
        FT_ASSERT(keep && idx && all);
        for (int64_t i = 0; i < n; i++)
            all[i] = i;
        int pct = drop_pct[round % FT_N(drop_pct)];
        for (int64_t i = 0; i < n; i++)
            keep[i] = (int)(rnd() % 100) >= pct;
        if (round % 5 == 4) /* runs of deleted rows */
            for (int64_t i = 0; i < n; i++)
                keep[i] = (i / 7) % 3 != 1;
        int64_t kept = floe__scan_kept_rows(keep, n, idx);
        for (size_t k = 0; k < FT_N(fx_fields); k++) {
            const floe_type *t = fx_fields[k].type;
            struct ArrowArray x, y;
            FT_OK(floe__scan_take(&x, batch.children[k], t, all, n));
            FT_OK(slow_take(&y, batch.children[k], t, keep, n));
            floe__alloc_fail_at(1); /* the compaction must not allocate */
            int rc = floe__scan_compact(&x, t, idx, kept);
            floe__alloc_fail_at(0);
            FT_CHECK(rc == 0 || rc == 1);
            if (rc == 1) {
                FT_CHECK(floe_type_is_nested(t));
                FT_EQ_INT(x.length, n); /* untouched */
                nested++;
            } else if (!same_column(&x, &y, t)) {
                ft_fail(__FILE__, __LINE__, "compaction of column %s differs (round %d)",
                        fx_fields[k].name, round);
            } else {
                compacted++;
            }
            /* a sliced column (offset) is left to floe__scan_take */
            if (!floe_type_is_nested(t) && batch.children[k]->offset > 0)
                FT_EQ_INT(floe__scan_compact(batch.children[k], t, idx, kept), 1);
            x.release(&x);
            y.release(&y);
        }
        free(keep);
        free(idx);
        free(all);
        batch.release(&batch);
        floe__arena_free(a);
    }
    printf("    %ld columns compacted in place, %ld nested ones left to take\n", compacted, nested);
    FT_CHECK(compacted > 500);
    FT_CHECK(nested > 0);
}

/* Every allocation of the filter (OR / NOT masks) and of the compaction
 * failing in turn: FLOE_ENOMEM or the right answer, never a crash. */
static void test_oom(void)
{
    floe_arena *a = floe__arena_new(0);
    FT_ASSERT(a != NULL);
    struct ArrowArray batch;
    int64_t n = 100;
    make_batch(a, &batch, n, 3, 20);
    const floe_expr *e = floe_expr_or(
        a, floe_expr_cmp(a, FLOE_OP_LT, "id", floe_value_long(0)),
        floe_expr_not(a, floe_expr_cmp(a, FLOE_OP_STARTS_WITH, "name", S("a"))));
    const floe_expr *bound = NULL;
    FT_OK(floe_expr_bind(&bound, a, &fx_schema, e, true));
    uint8_t m0[100], want[100], got[100];
    int64_t idx[100];
    memset(m0, 1, sizeof m0);
    FT_OK(slow_mask(want, m0, bound, &batch, n));
    int64_t kept = floe__scan_kept_rows(want, n, idx);
    int done = 0;
    for (long nth = 1; nth < 200 && !done; nth++) {
        memcpy(got, m0, sizeof got);
        struct ArrowArray x = {0};
        floe__alloc_fail_at(nth);
        int rc = floe__scan_filter_rows(got, bound, &fx_root, &batch, n);
        if (rc == 0)
            rc = floe__scan_take(&x, batch.children[1], &fx_string, idx, kept);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            done = 1;
            FT_CHECK(memcmp(got, want, sizeof got) == 0);
            FT_EQ_INT(x.length, kept);
            x.release(&x);
        } else {
            FT_EQ_INT(rc, FLOE_ENOMEM);
            floe_error_clear();
        }
    }
    FT_CHECK(done);
    batch.release(&batch);
    floe__arena_free(a);
}

static const ft_case cases[] = {
    {"filter_matches_slow_path", test_filter_matches_slow_path},
    {"compact_matches_slow_path", test_compact_matches_slow_path},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
