/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/fn_agg: Spark 3.5 aggregate functions SQLite lacks, registered on the
 * session's connection (Spark's org.apache.spark.sql.catalyst.expressions.
 * aggregate package; ANSI mode off):
 *
 *   stddev/std/stddev_samp, stddev_pop, variance/var_samp, var_pop: doubles
 *     from Welford's running mean; the sample forms are NULL below two
 *     values (spark.sql.legacy.statisticalAggregate=false), the population
 *     forms NULL without values;
 *   first(x [, ignoreNulls]), last(x [, ignoreNulls]): the first / last
 *     value in input order (NULL counts unless ignoreNulls is true);
 *   count_if(cond): the rows where cond is true;
 *   max_by(x, y), min_by(x, y): x of the row with the largest / smallest
 *     non-NULL y (the first such row on ties);
 *   percentile(x, p): the exact percentile with linear interpolation
 *     between the closest ranks (Spark's Percentile), a double;
 *   approx_count_distinct(x): the exact count of distinct non-NULL values
 *     (Spark estimates with HyperLogLog++; exact is within any error bound).
 *
 * Values are SQLite's: numbers compare numerically, text bytewise.
 */
#include "sql/exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- stddev */

typedef struct moments {
    int64_t n;
    double mean, m2;
} moments;

static void moments_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
        return;
    moments *m = sqlite3_aggregate_context(ctx, sizeof *m);
    if (!m)
        return;
    double x = sqlite3_value_double(argv[0]);
    m->n++;
    double d = x - m->mean;
    m->mean += d / (double)m->n;
    m->m2 += d * (x - m->mean);
}

/* user data: bit 0 population (else sample), bit 1 square root */
static void moments_final(sqlite3_context *ctx)
{
    moments *m = sqlite3_aggregate_context(ctx, 0);
    intptr_t how = (intptr_t)sqlite3_user_data(ctx);
    bool pop = how & 1;
    if (!m || m->n == 0 || (!pop && m->n < 2)) {
        sqlite3_result_null(ctx);
        return;
    }
    double v = m->m2 / (double)(pop ? m->n : m->n - 1);
    sqlite3_result_double(ctx, how & 2 ? sqrt(v) : v);
}

/* ---------------------------------------------------------------- first, last */

typedef struct pick {
    sqlite3_value *v; /* the kept value (a copy); NULL: none or SQL NULL */
    sqlite3_value *key;
    bool set;
} pick;

static void pick_keep(sqlite3_context *ctx, pick *p, sqlite3_value *v, sqlite3_value *key)
{
    sqlite3_value *nv = sqlite3_value_dup(v), *nk = key ? sqlite3_value_dup(key) : NULL;
    if (!nv || (key && !nk)) {
        sqlite3_value_free(nv);
        sqlite3_value_free(nk);
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_value_free(p->v);
    sqlite3_value_free(p->key);
    p->v = nv;
    p->key = nk;
    p->set = true;
}

/* user data: 1 last (else first) */
static void first_last_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    bool last = sqlite3_user_data(ctx) != NULL;
    bool ignore_nulls = argc > 1 && sqlite3_value_int(argv[1]) != 0;
    if (ignore_nulls && sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return;
    pick *p = sqlite3_aggregate_context(ctx, sizeof *p);
    if (!p || (p->set && !last))
        return;
    pick_keep(ctx, p, argv[0], NULL);
}

static void pick_final(sqlite3_context *ctx)
{
    pick *p = sqlite3_aggregate_context(ctx, 0);
    if (!p || !p->v) {
        sqlite3_result_null(ctx);
        return;
    }
    sqlite3_result_value(ctx, p->v);
    sqlite3_value_free(p->v);
    sqlite3_value_free(p->key);
    p->v = p->key = NULL;
}

/* ---------------------------------------------------------------- max_by, min_by */

/* SQLite's order of two non-NULL values: numbers before text before blobs,
 * numbers by value, text and blobs bytewise. */
static int value_cmp(sqlite3_value *a, sqlite3_value *b)
{
    int ta = sqlite3_value_type(a), tb = sqlite3_value_type(b);
    int ca = ta == SQLITE_INTEGER || ta == SQLITE_FLOAT ? 0 : ta == SQLITE_TEXT ? 1 : 2;
    int cb = tb == SQLITE_INTEGER || tb == SQLITE_FLOAT ? 0 : tb == SQLITE_TEXT ? 1 : 2;
    if (ca != cb)
        return ca < cb ? -1 : 1;
    if (ca == 0) {
        if (ta == SQLITE_INTEGER && tb == SQLITE_INTEGER) {
            sqlite3_int64 x = sqlite3_value_int64(a), y = sqlite3_value_int64(b);
            return x < y ? -1 : x > y;
        }
        double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
        return x < y ? -1 : x > y;
    }
    int na = sqlite3_value_bytes(a), nb = sqlite3_value_bytes(b);
    const void *pa = ca == 1 ? (const void *)sqlite3_value_text(a) : sqlite3_value_blob(a);
    const void *pb = cb == 1 ? (const void *)sqlite3_value_text(b) : sqlite3_value_blob(b);
    int c = memcmp(pa ? pa : "", pb ? pb : "", (size_t)(na < nb ? na : nb));
    return c ? c : na < nb ? -1 : na > nb;
}

/* user data: 1 max_by (else min_by) */
static void by_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL)
        return;
    pick *p = sqlite3_aggregate_context(ctx, sizeof *p);
    if (!p)
        return;
    int c = p->set ? value_cmp(argv[1], p->key) : 0;
    if (!p->set || (sqlite3_user_data(ctx) ? c > 0 : c < 0))
        pick_keep(ctx, p, argv[0], argv[1]);
}

/* ---------------------------------------------------------------- count_if */

static void count_if_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    int64_t *n = sqlite3_aggregate_context(ctx, sizeof *n);
    if (n && sqlite3_value_type(argv[0]) != SQLITE_NULL && sqlite3_value_double(argv[0]) != 0)
        (*n)++;
}

static void count_if_final(sqlite3_context *ctx)
{
    int64_t *n = sqlite3_aggregate_context(ctx, 0);
    sqlite3_result_int64(ctx, n ? *n : 0);
}

/* ---------------------------------------------------------------- collected values */

typedef struct collect {
    sqlite3_value **v;
    size_t n, cap;
    double p; /* percentile: the fraction */
    bool bad; /* percentile: p outside [0, 1] */
} collect;

static void collect_add(sqlite3_context *ctx, collect *c, sqlite3_value *v)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        sqlite3_value **nv = sqlite3_realloc64(c->v, cap * sizeof(sqlite3_value *));
        if (!nv) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        c->v = nv;
        c->cap = cap;
    }
    if (!(c->v[c->n] = sqlite3_value_dup(v))) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    c->n++;
}

static void collect_free(collect *c)
{
    for (size_t i = 0; i < c->n; i++)
        sqlite3_value_free(c->v[i]);
    sqlite3_free(c->v);
    c->v = NULL;
    c->n = c->cap = 0;
}

static int cmp_values(const void *a, const void *b)
{
    return value_cmp(*(sqlite3_value *const *)a, *(sqlite3_value *const *)b);
}

static void distinct_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return;
    collect *c = sqlite3_aggregate_context(ctx, sizeof *c);
    if (c)
        collect_add(ctx, c, argv[0]);
}

static void distinct_final(sqlite3_context *ctx)
{
    collect *c = sqlite3_aggregate_context(ctx, 0);
    int64_t n = 0;
    if (c && c->n) {
        qsort(c->v, c->n, sizeof(sqlite3_value *), cmp_values);
        n = 1;
        for (size_t i = 1; i < c->n; i++)
            n += value_cmp(c->v[i - 1], c->v[i]) != 0;
        collect_free(c);
    }
    sqlite3_result_int64(ctx, n);
}

static void percentile_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    collect *c = sqlite3_aggregate_context(ctx, sizeof *c);
    if (!c)
        return;
    double p = sqlite3_value_double(argv[1]);
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL || !(p >= 0 && p <= 1))
        c->bad = true;
    c->p = p;
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t == SQLITE_INTEGER || t == SQLITE_FLOAT)
        collect_add(ctx, c, argv[0]);
}

static void percentile_final(sqlite3_context *ctx)
{
    collect *c = sqlite3_aggregate_context(ctx, 0);
    if (c && c->bad) {
        collect_free(c);
        sqlite3_result_error(ctx, "Percentage value must be between 0.0 and 1.0", -1);
        return;
    }
    if (!c || c->n == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    qsort(c->v, c->n, sizeof(sqlite3_value *), cmp_values);
    /* Spark: position p * (n - 1), interpolated between its floor and ceiling */
    double pos = c->p * (double)(c->n - 1);
    size_t lo = (size_t)floor(pos), hi = (size_t)ceil(pos);
    double a = sqlite3_value_double(c->v[lo]), b = sqlite3_value_double(c->v[hi]);
    collect_free(c);
    sqlite3_result_double(ctx, lo == hi ? a : a + (pos - (double)lo) * (b - a));
}

/* ---------------------------------------------------------------- registration */

int floe__sql_register_aggregate_functions(floe_sql_session *s)
{
    static const struct {
        const char *name;
        int nargs;
        intptr_t data;
        void (*step)(sqlite3_context *, int, sqlite3_value **);
        void (*final)(sqlite3_context *);
    } fns[] = {
        {"stddev", 1, 2, moments_step, moments_final},
        {"std", 1, 2, moments_step, moments_final},
        {"stddev_samp", 1, 2, moments_step, moments_final},
        {"stddev_pop", 1, 3, moments_step, moments_final},
        {"variance", 1, 0, moments_step, moments_final},
        {"var_samp", 1, 0, moments_step, moments_final},
        {"var_pop", 1, 1, moments_step, moments_final},
        {"first", 1, 0, first_last_step, pick_final},
        {"first", 2, 0, first_last_step, pick_final},
        {"last", 1, 1, first_last_step, pick_final},
        {"last", 2, 1, first_last_step, pick_final},
        {"max_by", 2, 1, by_step, pick_final},
        {"min_by", 2, 0, by_step, pick_final},
        {"count_if", 1, 0, count_if_step, count_if_final},
        {"approx_count_distinct", 1, 0, distinct_step, distinct_final},
        {"percentile", 2, 0, percentile_step, percentile_final},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(fns); i++)
        if (sqlite3_create_function(s->db, fns[i].name, fns[i].nargs, SQLITE_UTF8,
                                    (void *)fns[i].data, NULL, fns[i].step,
                                    fns[i].final) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[i].name,
                               sqlite3_errmsg(s->db));
    return 0;
}
