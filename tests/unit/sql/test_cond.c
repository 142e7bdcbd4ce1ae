/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/cond.c: DELETE/UPDATE conditions as floe expressions. Each operator,
 * NULL handling (three-valued logic onto floe's two-valued predicates), IN
 * lists with NULL members, NOT, BETWEEN, LIKE prefixes, casts, literal
 * typing with Spark's implicit casts, what is left to SQLite (inexact) and
 * evaluation of the translated expressions on rows with nulls and NaN.
 */
#include "../expr/fixture.h"
#include "sql/ast.h"
#include "util/time.h"

#include <string.h>

/* Translate the WHERE of "DELETE FROM db.t t WHERE <cond>". */
static const floe_expr *tr(floe_arena *a, const char *cond, const floe_tz *tz, bool *exact)
{
    char sql[512];
    snprintf(sql, sizeof sql, "DELETE FROM db.t t WHERE %s", cond);
    floe_sql_stmt *st = NULL;
    const char *rest;
    if (floe__sql_parse(a, sql, NULL, &st, &rest) < 0 || !st || !st->where || !st->where->tree) {
        ft_fail(__FILE__, __LINE__, "parse failed: %s (%s)", sql, ft_floe_err());
        return NULL;
    }
    sql_cond_scope sc = {&fx_schema, "t", tz};
    const floe_expr *e = NULL;
    if (floe__sql_cond_expr(&e, exact, a, st->where->tree, &sc) < 0) {
        ft_fail(__FILE__, __LINE__, "translation failed: %s (%s)", cond, ft_floe_err());
        return NULL;
    }
    return e;
}

static void check(int line, const char *cond, const char *want, bool want_exact)
{
    floe_arena *a = floe__arena_new(4096);
    bool exact = false;
    const floe_expr *e = tr(a, cond, NULL, &exact);
    floe_buf b = FLOE_BUF_INIT;
    if (e && floe_expr_format(e, &b) == 0) {
        if (strcmp(b.ptr, want) != 0)
            ft_fail(__FILE__, line, "%s\n  got:      %s\n  expected: %s", cond, b.ptr, want);
        if (exact != want_exact)
            ft_fail(__FILE__, line, "%s: exact is %d, expected %d", cond, exact, want_exact);
    }
    floe__buf_free(&b);
    floe__arena_free(a);
}

#define EXACT(cond, want) check(__LINE__, cond, want, true)
#define INEXACT(cond, want) check(__LINE__, cond, want, false)

static void test_comparisons(void)
{
    EXACT("id = 5", "id = 5");
    EXACT("id == 5", "id = 5");
    EXACT("id < 5", "id < 5");
    EXACT("id <= 5", "id <= 5");
    EXACT("id > 5", "id > 5");
    EXACT("id >= 5", "id >= 5");
    /* floe's != holds on null, Spark's <> is NULL there */
    EXACT("id <> 5", "(id IS NOT NULL AND id != 5)");
    EXACT("id != 5", "(id IS NOT NULL AND id != 5)");
    /* literal first */
    EXACT("5 < id", "id > 5");
    EXACT("5 >= id", "id <= 5");
    EXACT("-3 = id", "id = -3");
    /* qualified, any case, parenthesised */
    EXACT("t.id = 5", "id = 5");
    EXACT("T.ID = 5", "id = 5");
    EXACT("(id) = (5)", "id = 5");
    /* null-safe equality */
    EXACT("id <=> 5", "id = 5");
    EXACT("id <=> NULL", "id IS NULL");
    EXACT("NOT (id <=> 5)", "id != 5");
    EXACT("NOT (id <=> NULL)", "id IS NOT NULL");
    /* a comparison with NULL is never TRUE, nor is its negation */
    EXACT("id = NULL", "false");
    EXACT("NOT (id = NULL)", "false");
    /* column-to-column and expressions are SQLite's */
    INEXACT("id = i", "true");
    INEXACT("id + 1 = 5", "true");
    INEXACT("abs(id) = 5", "true");
    INEXACT("x.id = 5", "true"); /* not the target's qualifier */
    INEXACT("nope = 5", "true");
}

static void test_not_and_or(void)
{
    EXACT("NOT (id = 5)", "(id IS NOT NULL AND id != 5)");
    EXACT("NOT id > 5", "id <= 5");
    EXACT("NOT NOT id > 5", "id > 5");
    EXACT("id = 1 AND name = 'a'", "(id = 1 AND name = 'a')");
    EXACT("id = 1 OR name = 'a'", "(id = 1 OR name = 'a')");
    /* De Morgan with Spark's FALSE sets */
    EXACT("NOT (id = 1 AND i = 2)", "((id IS NOT NULL AND id != 1) OR (i IS NOT NULL AND i != 2))");
    EXACT("NOT (id = 1 OR i < 2)", "((id IS NOT NULL AND id != 1) AND i >= 2)");
    /* an untranslatable conjunct still prunes; a disjunct does not */
    INEXACT("id = 1 AND length(name) = 2", "id = 1");
    INEXACT("id = 1 OR length(name) = 2", "true");
    INEXACT("NOT (id = 1 OR length(name) = 2)", "(id IS NOT NULL AND id != 1)");
    INEXACT("NOT (id = 1 AND length(name) = 2)", "true");
    INEXACT("id = 1 AND id IN (SELECT 1)", "id = 1");
    INEXACT("id = 1 AND EXISTS (SELECT 1)", "id = 1");
    /* constants */
    EXACT("TRUE", "true");
    EXACT("FALSE", "false");
    EXACT("NULL", "false");
    EXACT("NOT NULL", "false");
    EXACT("id = 1 AND TRUE", "id = 1");
    EXACT("id = 1 OR FALSE", "id = 1");
}

static void test_null_in_between(void)
{
    EXACT("name IS NULL", "name IS NULL");
    EXACT("name IS NOT NULL", "name IS NOT NULL");
    EXACT("NOT (name IS NOT NULL)", "name IS NULL");
    EXACT("id IN (1, 2, 3)", "id IN (1, 2, 3)");
    EXACT("id IN (1)", "id IN (1)");
    /* a NULL member never makes IN true, and NOT IN is then never TRUE */
    EXACT("id IN (1, NULL)", "id IN (1)");
    EXACT("id IN (NULL)", "false");
    EXACT("id NOT IN (1, 2)", "(id IS NOT NULL AND id NOT IN (1, 2))");
    EXACT("NOT (id IN (1, 2))", "(id IS NOT NULL AND id NOT IN (1, 2))");
    EXACT("id NOT IN (1, NULL)", "false");
    EXACT("NOT (id IN (1, NULL))", "false");
    EXACT("name IN ('a', 'b')", "name IN ('a', 'b')");
    INEXACT("id IN (1, i)", "true");
    INEXACT("id IN (SELECT 1)", "true");
    INEXACT("score IN (1.5)", "true"); /* NaN members: SQLite's */
    EXACT("id BETWEEN 1 AND 3", "(id >= 1 AND id <= 3)");
    EXACT("id NOT BETWEEN 1 AND 3", "(id < 1 OR id > 3)");
    EXACT("NOT (id BETWEEN 1 AND 3)", "(id < 1 OR id > 3)");
    EXACT("d BETWEEN '2024-01-01' AND DATE '2024-01-31'",
          "(d >= '2024-01-01' AND d <= '2024-01-31')");
    INEXACT("id BETWEEN 1 AND NULL", "true");
    INEXACT("id BETWEEN i AND 3", "true");
}

static void test_like(void)
{
    EXACT("name LIKE 'ab%'", "name STARTS WITH 'ab'");
    EXACT("name NOT LIKE 'ab%'", "(name IS NOT NULL AND name NOT STARTS WITH 'ab')");
    EXACT("NOT (name LIKE 'ab%')", "(name IS NOT NULL AND name NOT STARTS WITH 'ab')");
    EXACT("name LIKE 'abc'", "name = 'abc'");
    EXACT("name NOT LIKE 'abc'", "(name IS NOT NULL AND name != 'abc')");
    EXACT("name LIKE '%'", "name IS NOT NULL");
    EXACT("name NOT LIKE '%'", "false");
    /* Spark's escape character: a\_b% is the prefix a_b */
    EXACT("name LIKE 'a\\\\_b%'", "name STARTS WITH 'a_b'");
    EXACT("name LIKE '50\\\\%%'", "name STARTS WITH '50%'");
    INEXACT("name LIKE 'a%c'", "true");
    INEXACT("name LIKE 'a_'", "true");
    INEXACT("name LIKE '%a'", "true");
    INEXACT("name ILIKE 'a%'", "true");
    INEXACT("name RLIKE '^a'", "true");
    INEXACT("name LIKE ANY ('a%', 'b%')", "true");
    INEXACT("name LIKE 'a%' ESCAPE '#'", "true");
    INEXACT("id LIKE '1%'", "true"); /* Spark casts the long to a string */
}

static void test_literal_typing(void)
{
    /* integers and decimals on integral columns */
    EXACT("i = 5", "i = 5");
    EXACT("i = 5.0", "i = 5");
    INEXACT("i = 5.5", "true");
    EXACT("id = 5L", "id = 5");
    EXACT("id = 9223372036854775807", "id = 9223372036854775807");
    INEXACT("i = '5'", "true"); /* string to int: Spark's cast rules, SQLite's */
    INEXACT("i = 1e3", "true");
    /* decimal(10,2): exact at the column's scale */
    EXACT("price = 1.5", "price = 1.50");
    EXACT("price = 1.500", "price = 1.50");
    EXACT("price < 2", "price < 2.00");
    EXACT("price > -0.25", "price > -0.25");
    INEXACT("price = 1.505", "true");
    INEXACT("price = 1e0", "true");
    /* doubles: Spark's NaN is above every number */
    EXACT("score > 1.5", "(score > 1.5 OR score IS NAN)");
    EXACT("score >= 2", "(score >= 2 OR score IS NAN)");
    EXACT("score < 1.5", "score < 1.5");
    EXACT("NOT (score < 1.5)", "(score >= 1.5 OR score IS NAN)");
    EXACT("NOT (score > 1.5)", "score <= 1.5");
    EXACT("score = 1e3", "score = 1000");
    EXACT("score = 2.5D", "score = 2.5");
    INEXACT("score = 0", "true"); /* -0.0 = 0.0 in Spark only */
    INEXACT("score = 0.0", "true");
    /* floats: exact only when the literal is a float */
    EXACT("f = 1.5", "f = 1.5");
    INEXACT("f = 0.1", "true");
    /* strings, booleans */
    EXACT("name = 'it\\'s'", "name = 'it's'");
    INEXACT("name = 5", "true");
    EXACT("flag = true", "flag = true");
    INEXACT("flag = 1", "true");
    /* dates from DATE literals, strings and casts */
    EXACT("d = '2024-01-05'", "d = '2024-01-05'");
    EXACT("d >= DATE '2024-01-05'", "d >= '2024-01-05'");
    EXACT("d = CAST('2024-1-5' AS DATE)", "d = '2024-01-05'");
    INEXACT("d = 'not a date'", "true");
    INEXACT("d = TIMESTAMP '2024-01-05 00:00:00'", "true");
    /* unsupported column types */
    INEXACT("b = X'00'", "true");
    INEXACT("u = 'f79c3e09-677c-4a0e-8a44-9c8d3c4e6f1a'", "true");
    INEXACT("nts = '2024-01-01 00:00:00'", "true");
    /* the literals carry the column's type */
    static const struct {
        const char *cond;
        floe_type_id type;
    } types[] = {{"score = 2", FLOE_T_DOUBLE},      {"f = 2", FLOE_T_FLOAT},
                 {"price = 2", FLOE_T_DECIMAL},     {"i = 2", FLOE_T_LONG},
                 {"d = '2024-01-05'", FLOE_T_DATE}, {"flag = false", FLOE_T_BOOLEAN}};
    floe_arena *a = floe__arena_new(1024);
    for (size_t k = 0; k < FT_N(types); k++) {
        bool exact = false;
        const floe_expr *e = tr(a, types[k].cond, NULL, &exact);
        FT_ASSERT(e && e->kind == FLOE_EXPR_PRED && exact);
        FT_EQ_INT(e->lits[0].type, types[k].type);
    }
    floe__arena_free(a);
}

static void test_casts_columns_nested(void)
{
    /* a cast to the column's own type is the column */
    EXACT("CAST(id AS BIGINT) = 5", "id = 5");
    EXACT("CAST(i AS INT) = 5", "i = 5");
    EXACT("CAST(price AS DECIMAL(10, 2)) = 1", "price = 1.00");
    INEXACT("CAST(i AS BIGINT) = 5", "true");
    INEXACT("CAST(price AS DECIMAL(12, 2)) = 1", "true");
    INEXACT("TRY_CAST(id AS BIGINT) = 5", "true");
    /* casts of literals */
    EXACT("id = CAST('42' AS BIGINT)", "id = 42");
    EXACT("id = CAST(-42 AS INT)", "id = -42");
    EXACT("name = CAST('x' AS STRING)", "name = 'x'");
    EXACT("score = CAST(2 AS DOUBLE)", "score = 2");
    INEXACT("id = CAST('4x' AS BIGINT)", "true");
    INEXACT("id = CAST(3000000000 AS INT)", "true"); /* Spark wraps */
    /* boolean columns as predicates */
    EXACT("flag", "flag = true");
    EXACT("NOT flag", "flag = false");
    EXACT("t.flag AND id = 1", "(flag = true AND id = 1)");
    EXACT("flag IS TRUE", "flag = true");
    EXACT("flag IS NOT TRUE", "(flag IS NULL OR flag != true)");
    EXACT("flag IS FALSE", "flag = false");
    INEXACT("name", "true");
    INEXACT("id IS DISTINCT FROM 1", "true");
    /* struct fields, with and without the qualifier; lists are SQLite's */
    EXACT("loc.city = 'x'", "loc.city = 'x'");
    EXACT("t.LOC.Zip = 1", "loc.zip = 1");
    INEXACT("loc = 'x'", "true");
    INEXACT("tags = 'a'", "true");
    INEXACT("`a.b` = 1", "true"); /* a name with a dot is not a path */
}

/* Timestamps are read in the session time zone; a timestamp without zone
 * equals the literal's wall clock only when that zone is UTC. */
static void test_timestamps(void)
{
    floe_arena *a = floe__arena_new(4096);
    bool exact = false;
    const floe_expr *e = tr(a, "ts = TIMESTAMP '2024-01-01 10:00:00'", NULL, &exact);
    FT_ASSERT(e && e->kind == FLOE_EXPR_PRED && exact);
    FT_EQ_INT(e->lits[0].type, FLOE_T_TIMESTAMPTZ);
    FT_CHECK(e->lits[0].v.i64 == fx_micros(2024, 1, 1, 10, 0, 0));
    e = tr(a, "ts < '2024-01-01 10:00:00.5+02:00'", NULL, &exact);
    FT_ASSERT(e && e->kind == FLOE_EXPR_PRED && exact);
    FT_CHECK(e->lits[0].v.i64 == fx_micros(2024, 1, 1, 8, 0, 0) + 500000);
    e = tr(a, "lts >= '2024-01-01 10:00:00'", NULL, &exact);
    FT_ASSERT(e && e->kind == FLOE_EXPR_PRED && exact);
    FT_EQ_INT(e->lits[0].type, FLOE_T_TIMESTAMP);
    FT_CHECK(e->lits[0].v.i64 == fx_micros(2024, 1, 1, 10, 0, 0));
    e = tr(a, "lts = '2024-01-01 10:00:00+02:00'", NULL, &exact);
    FT_ASSERT(e && e->kind == FLOE_EXPR_TRUE && !exact);
    /* in a +02:00 session: the wall clock 10:00 is 08:00 UTC */
    floe_tz *tz = NULL;
    FT_OK(floe__tz_load(&tz, "+02:00"));
    e = tr(a, "ts = '2024-01-01 10:00:00'", tz, &exact);
    FT_ASSERT(e && e->kind == FLOE_EXPR_PRED && exact);
    FT_CHECK(e->lits[0].v.i64 == fx_micros(2024, 1, 1, 8, 0, 0));
    e = tr(a, "lts = '2024-01-01 10:00:00'", tz, &exact);
    FT_ASSERT(e && e->kind == FLOE_EXPR_TRUE && !exact);
    floe__tz_free(tz);
    floe__arena_free(a);
}

/* The translated expressions on rows: Spark's answer for nulls and NaN. */
static bool matches(floe_arena *a, const char *cond, const fx_row *r)
{
    bool exact = false, m = false;
    const floe_expr *e = tr(a, cond, NULL, &exact), *b = NULL;
    if (!e || floe_expr_bind(&b, a, &fx_schema, e, false) < 0 ||
        floe_expr_eval(&m, b, fx_get, (void *)r) < 0)
        ft_fail(__FILE__, __LINE__, "%s: %s", cond, ft_floe_err());
    return m;
}

static void test_eval_rows(void)
{
    floe_arena *a = floe__arena_new(4096);
    fx_row nul, one, nan;
    memset(&nul, 0, sizeof nul);
    memset(&one, 0, sizeof one);
    memset(&nan, 0, sizeof nan);
    fx_set(&nul, 1, floe_value_long(7));
    fx_set(&one, 1, floe_value_long(1));
    fx_set(&one, 2, S("abc"));
    fx_set(&one, 6, floe_value_double(1.0));
    fx_set(&nan, 1, floe_value_long(2));
    fx_set(&nan, 6, floe_value_double(NAN));
    /* name and score are null in `nul`: neither a predicate nor its NOT */
    static const char *const both_false[] = {
        "name = 'x'",        "NOT (name = 'x')",      "name <> 'x'",
        "name IN ('x')",     "name NOT IN ('x')",     "NOT (name IN ('x'))",
        "name LIKE 'a%'",    "name NOT LIKE 'a%'",    "score > 0.5",
        "NOT (score > 0.5)", "score BETWEEN 1 AND 2", "score NOT BETWEEN 1 AND 2",
    };
    for (size_t k = 0; k < FT_N(both_false); k++)
        if (matches(a, both_false[k], &nul))
            ft_fail(__FILE__, __LINE__, "%s holds on a null row", both_false[k]);
    FT_CHECK(matches(a, "name IS NULL", &nul));
    FT_CHECK(matches(a, "NOT (name IS NOT NULL)", &nul));
    FT_CHECK(matches(a, "NOT (name <=> 'x')", &nul));
    FT_CHECK(matches(a, "name LIKE 'ab%'", &one));
    FT_CHECK(!matches(a, "name NOT LIKE 'ab%'", &one));
    FT_CHECK(matches(a, "name NOT LIKE 'x%'", &one));
    FT_CHECK(matches(a, "id NOT IN (2, 3)", &one));
    FT_CHECK(!matches(a, "id NOT IN (2, NULL)", &one));
    FT_CHECK(matches(a, "id IN (1, NULL)", &one));
    FT_CHECK(matches(a, "NOT (id = 1 AND name = 'x')", &one));
    /* NaN is greater than every number, and not between two of them */
    FT_CHECK(matches(a, "score > 1e300", &nan));
    FT_CHECK(matches(a, "score >= 1.5", &nan));
    FT_CHECK(!matches(a, "score < 1.5", &nan));
    FT_CHECK(matches(a, "NOT (score < 1.5)", &nan));
    FT_CHECK(!matches(a, "NOT (score > 1.5)", &nan));
    FT_CHECK(matches(a, "score <> 1.5", &nan));
    FT_CHECK(!matches(a, "score BETWEEN 1 AND 2", &nan));
    FT_CHECK(matches(a, "score NOT BETWEEN 1 AND 2", &nan));
    FT_CHECK(matches(a, "score BETWEEN 1 AND 2", &one));
    floe__arena_free(a);
}

/* Out of memory: every allocation failing in turn is FLOE_ENOMEM, never a
 * crash or a wrong answer. */
static void test_oom(void)
{
    floe_arena *pa = floe__arena_new(4096);
    floe_sql_stmt *st = NULL;
    const char *rest;
    FT_OK(floe__sql_parse(pa,
                          "DELETE FROM db.t t WHERE NOT (id IN (1, 2) AND name LIKE 'a%') OR "
                          "price BETWEEN 1 AND 2 OR d = '2024-01-05'",
                          NULL, &st, &rest));
    sql_cond_scope sc = {&fx_schema, "t", NULL};
    for (long n = 1;; n++) {
        floe_arena *a = floe__arena_new(64);
        FT_ASSERT(a);
        floe__alloc_fail_at(n);
        const floe_expr *e = NULL;
        bool exact = false;
        int rc = floe__sql_cond_expr(&e, &exact, a, st->where->tree, &sc);
        floe__alloc_fail_at(0);
        floe__arena_free(a);
        if (rc == 0) {
            FT_CHECK(exact);
            break;
        }
        FT_EQ_INT(rc, FLOE_ENOMEM);
        if (n > 500) {
            ft_fail(__FILE__, __LINE__, "no success after 500 allocations");
            break;
        }
    }
    floe__arena_free(pa);
}

static const ft_case cases[] = {
    {"comparisons", test_comparisons},
    {"not_and_or", test_not_and_or},
    {"null_in_between", test_null_in_between},
    {"like", test_like},
    {"literal_typing", test_literal_typing},
    {"casts_columns_nested", test_casts_columns_nested},
    {"timestamps", test_timestamps},
    {"eval_rows", test_eval_rows},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
