/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fast aggregates (src/sql/exec_fast.c) under allocation failure: with
 * every allocation of the library failing in turn, a fast aggregate with
 * pushed and row-checked WHERE terms, plain and grouped (GROUP BY one
 * column), either answers exactly what SQLite answers (SET
 * floe.fast-aggregates = false) or fails with FLOE_ENOMEM, never a crash,
 * a leak (ASan) or a wrong answer. The byte-for-byte
 * comparisons over every type are tests/cli/sql_aggfast.sh.
 */
#include "harness.h"

#include "floe/sql.h"
#include "util/util.h"

#include <string.h>

static const char *const query =
    "SELECT count(*), sum(amount), min(w), max(x), avg(x), sum(id), max(d) FROM f.t "
    "WHERE id > 1 AND x < 100 AND amount <> 1.555 AND d >= '2024-01-01'";

/* GROUP BY: pushed and row-checked terms, NaN and NULL values */
static const char *const group_query =
    "SELECT id, count(*), sum(amount), min(x), avg(x), max(amount), sum(x), count(x) FROM f.t "
    "WHERE id > 1 AND amount <> 1.555 GROUP BY id";

static floe_sql_session *open_session(void)
{
    floe_sql_open_options o = FLOE_SQL_OPEN_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    floe_sql_session *s = NULL;
    if (floe_sql_open(&s, &o) < 0)
        return NULL;
    return s;
}

/* The query's CSV rendering (NULL on failure; *rc says why). */
static char *run(floe_sql_session *s, const char *sql, int *rc)
{
    floe_sql_result *r = NULL;
    char *text = NULL;
    *rc = floe_sql_execute(&r, s, sql);
    if (*rc == 0)
        *rc = floe_sql_result_render(&text, r, FLOE_SQL_RENDER_CSV);
    floe_sql_result_free(r);
    return *rc == 0 ? text : NULL;
}

/* Every allocation failing in turn: `q` answers `want` or fails cleanly. */
static void oom_loop(floe_sql_session *s, const char *q, const char *want)
{
    int rc;
    for (long n = 1;; n++) {
        floe__alloc_fail_at(n);
        char *got = run(s, q, &rc);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_EQ_STR(got, want);
            floe_string_free(got);
            break;
        }
        /* outside the fast path, two places report a failed allocation
         * under another code: SQLite's "out of memory" (prepare, as any
         * SQLite error) and the result collector's write (output.c) */
        const floe_error *e = floe_error_last();
        const char *m = e && e->message ? e->message : "";
        FT_CHECK(rc == FLOE_ENOMEM || (rc == FLOE_EINVALID && !strcmp(m, "out of memory")) ||
                 (rc == FLOE_EIO && !strcmp(m, "cannot write the result")));
        if (n > 5000) {
            ft_fail(__FILE__, __LINE__, "no success after 5000 allocations");
            break;
        }
    }
}

static void test_oom(void)
{
    floe_sql_session *s = open_session();
    FT_ASSERT(s);
    FT_OK(floe_sql_execute(
        NULL, s,
        "CREATE NAMESPACE f; CREATE TABLE f.t (id BIGINT, amount DECIMAL(10,2), "
        "w DECIMAL(18,3), x DOUBLE, d DATE) TBLPROPERTIES ('write.delete.mode'='merge-on-read'); "
        "INSERT INTO f.t VALUES (1, 1.50, 1.001, 1.5, DATE'2024-01-01'), "
        "(2, -2.25, 123456789012345.678, 'NaN', DATE'2024-02-01'), (3, NULL, NULL, NULL, NULL), "
        "(4, 7.00, -5.5, 99.5, DATE'2024-03-01'), (5, 1.56, 2, -0.0, DATE'2023-12-31'); "
        "DELETE FROM f.t WHERE id = 4"));
    int rc;
    const char *const queries[] = {query, group_query};
    for (size_t i = 0; i < FT_N(queries); i++) {
        FT_OK(floe_sql_execute(NULL, s, "SET floe.fast-aggregates = false"));
        char *want = run(s, queries[i], &rc);
        FT_OK(rc);
        FT_OK(floe_sql_execute(NULL, s, "SET floe.fast-aggregates = true"));
        FT_ASSERT(want);
        if (i == 0)
            FT_CHECK(strstr(want, "NULL") == NULL); /* the WHERE keeps rows 2 and 5 */
        oom_loop(s, queries[i], want);
        floe_string_free(want);
    }
    /* the fast path answered (EXPLAIN names it) */
    const char *const explain[] = {"EXPLAIN SELECT count(*) FROM f.t WHERE id > 1",
                                   "EXPLAIN SELECT id, count(*) FROM f.t GROUP BY id"};
    for (size_t i = 0; i < FT_N(explain); i++) {
        char *ex = run(s, explain[i], &rc);
        FT_OK(rc);
        FT_CHECK(ex && strstr(ex, "Fast aggregate") != NULL);
        floe_string_free(ex);
    }
    floe_sql_close(s);
}

static const ft_case cases[] = {
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
