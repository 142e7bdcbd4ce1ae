/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tokenizer, statement splitting, floe__sql_is_complete, error
 * positions, out-of-memory behaviour, and the rewritten SQL run by the real
 * SQLite: Spark functions give Spark's answers, and SQL injection attempts in
 * identifiers and string literals stay data.
 */
#include "dump.h"
#include "sql/sqlfront_int.h"

#include <sqlite3.h>

static void test_tokens(void)
{
    floe_arena *a = floe__arena_new(0);
    const char *s = "SELECT `a``b`, \"c\"\"d\", 'e\\'f', 12.5e3, X'0A', a=>b <=> c -- x\n"
                    "/* y */ ; next";
    sql_tok *t;
    size_t n, next;
    FT_OK(floe__sql_lex_stmt(a, s, 0, &t, &n, &next));
    static const struct {
        sql_tok_kind kind;
        const char *text;
        size_t pos;
    } exp[] = {{TK_WORD, "SELECT", 0},  {TK_QIDENT, "a`b", 7},     {TK_OP, ",", 13},
               {TK_QIDENT, "c\"d", 15}, {TK_OP, ",", 21},          {TK_STRING, "e'f", 23},
               {TK_OP, ",", 29},        {TK_NUMBER, "12.5e3", 31}, {TK_OP, ",", 37},
               {TK_BLOB, "0A", 39},     {TK_OP, ",", 44},          {TK_WORD, "a", 46},
               {TK_OP, "=>", 47},       {TK_WORD, "b", 49},        {TK_OP, "<=>", 51},
               {TK_WORD, "c", 55}};
    FT_EQ_INT(n, FT_N(exp));
    for (size_t k = 0; k < n && k < FT_N(exp); k++) {
        FT_EQ_INT(t[k].kind, exp[k].kind);
        FT_EQ_STR(t[k].text, exp[k].text);
        FT_EQ_INT(t[k].pos, exp[k].pos);
    }
    FT_EQ_INT(t[n].kind, TK_EOF);
    FT_EQ_STR(s + next, " next");
    floe__arena_free(a);
}

static void test_lex_errors(void)
{
    EXPECT_ERROR("SELECT 'abc", FLOE_EINVALID, 7, "unterminated string literal");
    EXPECT_ERROR("SELECT `abc", FLOE_EINVALID, 7, "unterminated quoted identifier");
    EXPECT_ERROR("SELECT \"abc", FLOE_EINVALID, 7, "unterminated quoted identifier");
    EXPECT_ERROR("SELECT 1 /* x /* y */", FLOE_EINVALID, 9, "unterminated comment");
    EXPECT_ERROR("SELECT @x", FLOE_EINVALID, 7, "unexpected character");
    EXPECT_ERROR("SELECT 12abc", FLOE_EUNSUPPORTED, 7, "numeric literal");
    EXPECT_ERROR("SELECT X'0G'", FLOE_EINVALID, 7, "invalid blob literal");
    EXPECT_ERROR("SELECT X'0'", FLOE_EINVALID, 7, "invalid blob literal");
    EXPECT_ERROR("SELECT ``", FLOE_EINVALID, 7, "empty identifier");
}

static void test_split(void)
{
    floe_arena *a = floe__arena_new(0);
    const char *script = "  -- leading comment\n;; SELECT 'a;b' AS \"x;y\" ; /* ; */ "
                         "SHOW TABLES;CALL system.x(`p;q` => 1)\n-- trailing ; comment\n";
    const char *p = script;
    floe_sql_stmt *st;
    FT_OK(floe__sql_parse(a, p, NULL, &st, &p));
    FT_ASSERT(st != NULL);
    FT_EQ_INT(st->kind, FLOE_SQL_QUERY);
    FT_EQ_STR(st->text, "SELECT 'a;b' AS \"x;y\"");
    FT_EQ_INT(st->pos, 24);
    FT_EQ_STR(st->query->sql, "SELECT 'a;b' AS \"x;y\"");
    FT_OK(floe__sql_parse(a, p, NULL, &st, &p));
    FT_ASSERT(st != NULL);
    FT_EQ_INT(st->kind, FLOE_SQL_SHOW_TABLES);
    FT_OK(floe__sql_parse(a, p, NULL, &st, &p));
    FT_ASSERT(st != NULL);
    FT_EQ_INT(st->kind, FLOE_SQL_CALL);
    FT_EQ_STR(st->call.args[0].name, "p;q");
    FT_OK(floe__sql_parse(a, p, NULL, &st, &p));
    FT_CHECK(st == NULL);
    FT_EQ_INT(*p, 0);
    /* empty input and comments only */
    FT_OK(floe__sql_parse(a, "", NULL, &st, &p));
    FT_CHECK(st == NULL);
    FT_OK(floe__sql_parse(a, " ; ;\n-- x", NULL, &st, &p));
    FT_CHECK(st == NULL);
    floe__arena_free(a);
}

static void test_error_then_continue(void)
{
    /* after a failing statement, *rest points at the next one */
    floe_arena *a = floe__arena_new(0);
    const char *script = "SELECT 1;\nSELECT x::int; SELECT 3";
    const char *p = script;
    floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
    opt.script = script;
    floe_sql_stmt *st;
    FT_OK(floe__sql_parse(a, p, &opt, &st, &p));
    FT_EQ_INT(floe__sql_parse(a, p, &opt, &st, &p), FLOE_EUNSUPPORTED);
    FT_EQ_INT(floe__sql_error_pos(), 18);
    FT_ERR_CONTAINS("at line 2, column 9");
    FT_OK(floe__sql_parse(a, p, &opt, &st, &p));
    FT_ASSERT(st != NULL);
    FT_EQ_INT(st->pos, 25);
    FT_EQ_INT(st->query->pos, 25);
    /* without opt.script positions count from the string passed */
    p = script + 9;
    FT_EQ_INT(floe__sql_parse(a, p, NULL, &st, &p), FLOE_EUNSUPPORTED);
    FT_EQ_INT(floe__sql_error_pos(), 9);
    FT_OK(floe__sql_parse(a, p, NULL, &st, &p));
    FT_ASSERT(st != NULL);
    FT_EQ_STR(st->query->sql, "SELECT 3");
    /* a lexical error also skips to the next statement */
    p = "SELECT @; SELECT 4";
    FT_EQ_INT(floe__sql_parse(a, p, NULL, &st, &p), FLOE_EINVALID);
    FT_OK(floe__sql_parse(a, p, NULL, &st, &p));
    FT_ASSERT(st != NULL);
    FT_EQ_STR(st->query->sql, "SELECT 4");
    floe__arena_free(a);
}

static void test_is_complete(void)
{
    FT_CHECK(floe__sql_is_complete("SELECT 1;"));
    FT_CHECK(floe__sql_is_complete("SELECT 1;  \n"));
    FT_CHECK(floe__sql_is_complete("SELECT 1; -- done\n"));
    FT_CHECK(floe__sql_is_complete("SELECT 1 /* x */;/* y */"));
    FT_CHECK(floe__sql_is_complete("SELECT 1; SELECT 2;"));
    FT_CHECK(floe__sql_is_complete("SELECT\n  1\n;"));
    FT_CHECK(!floe__sql_is_complete(""));
    FT_CHECK(!floe__sql_is_complete("   \n"));
    FT_CHECK(!floe__sql_is_complete(NULL));
    FT_CHECK(!floe__sql_is_complete("SELECT 1"));
    FT_CHECK(!floe__sql_is_complete("SELECT 1; SELECT 2"));
    FT_CHECK(!floe__sql_is_complete("SELECT ';"));
    FT_CHECK(!floe__sql_is_complete("SELECT 'a;' || '"));
    FT_CHECK(!floe__sql_is_complete("SELECT `a;"));
    FT_CHECK(!floe__sql_is_complete("SELECT \"a;"));
    FT_CHECK(!floe__sql_is_complete("SELECT 1 -- ;"));
    FT_CHECK(!floe__sql_is_complete("SELECT 1 /* ; */"));
    FT_CHECK(!floe__sql_is_complete("SELECT 1; /* open"));
    FT_CHECK(floe__sql_is_complete("SELECT 'it''s;';"));
}

static void test_oom(void)
{
    const char *sql =
        "WITH c AS (SELECT * FROM ice.shop.orders VERSION AS OF 'audit') "
        "SELECT c.x, summary['a'], partition.d, concat_ws('-', a, b), CAST(x AS DATE) "
        "FROM c JOIN ice.shop.orders.snapshots s ON 1 = 1, read_parquet('p', n => array(1)) r "
        "WHERE d = DATE'2026-01-01' AND t > TIMESTAMP '2026-01-01 00:00:00+01:00'";
    floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
    opt.catalog_name = "ice";
    int ok = 0;
    for (long nth = 1; nth < 5000 && !ok; nth++) {
        floe_arena *a = floe__arena_new(256);
        if (!a)
            continue;
        floe_sql_stmt *st = NULL;
        floe__alloc_fail_at(nth);
        int rc = floe__sql_parse(a, sql, &opt, &st, NULL);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            ok = 1;
            FT_ASSERT(st != NULL);
            FT_EQ_INT(st->nrefs, 3);
        } else if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d (%s)", nth, rc, ft_floe_err());
            floe__arena_free(a);
            return;
        }
        floe__arena_free(a);
    }
    FT_CHECK(ok);
}

/* ---------------------------------------------------------------- SQLite */

static sqlite3 *open_db(void)
{
    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        return NULL;
    return db;
}

/* Rewrite `spark` and run it; return the first column of the first row as
 * text (malloc'd) or NULL. */
static char *run1(sqlite3 *db, const char *spark)
{
    floe_arena *a = floe__arena_new(0);
    floe_sql_stmt *st;
    char *out = NULL;
    if (floe__sql_parse(a, spark, NULL, &st, NULL) < 0 || !st || !st->query) {
        ft_fail(__FILE__, __LINE__, "parse %s: %s", spark, ft_floe_err());
        floe__arena_free(a);
        return NULL;
    }
    sqlite3_stmt *s = NULL;
    const char *tail = NULL;
    if (sqlite3_prepare_v2(db, st->query->sql, -1, &s, &tail) != SQLITE_OK) {
        ft_fail(__FILE__, __LINE__, "sqlite rejects %s: %s", st->query->sql, sqlite3_errmsg(db));
    } else {
        if (tail && *tail)
            ft_fail(__FILE__, __LINE__, "rewritten SQL holds more than one statement: %s",
                    st->query->sql);
        if (sqlite3_step(s) == SQLITE_ROW) {
            const unsigned char *v = sqlite3_column_text(s, 0);
            out = strdup(v ? (const char *)v : "NULL");
        }
    }
    sqlite3_finalize(s);
    floe__arena_free(a);
    return out;
}

#define EXPECT_SQLITE(db, spark, expected)                                                         \
    do {                                                                                           \
        char *v__ = run1((db), (spark));                                                           \
        if (v__ && strcmp(v__, (expected)))                                                        \
            ft_fail(__FILE__, __LINE__, "%s -> \"%s\", expected \"%s\"", (spark), v__,             \
                    (expected));                                                                   \
        free(v__);                                                                                 \
    } while (0)

static void test_sqlite_semantics(void)
{
    sqlite3 *db = open_db();
    FT_ASSERT(db != NULL);
    EXPECT_SQLITE(db, "SELECT concat_ws('-', 'a', NULL, 'b')", "a-b");
    EXPECT_SQLITE(db, "SELECT concat_ws(', ', NULL, 'x')", "x");
    EXPECT_SQLITE(db, "SELECT concat('a', 'b', 'c')", "abc");
    EXPECT_SQLITE(db, "SELECT concat('a', NULL)", "NULL");
    EXPECT_SQLITE(db, "SELECT datediff(DATE '2026-09-21', DATE '2026-09-01')", "20");
    EXPECT_SQLITE(db, "SELECT date_add(DATE '2026-02-27', 2)", "2026-03-01");
    EXPECT_SQLITE(db, "SELECT date_sub(DATE '2026-03-01', 1)", "2026-02-28");
    EXPECT_SQLITE(db, "SELECT year(DATE '2026-09-20') + month(DATE '2026-09-20')", "2035");
    EXPECT_SQLITE(db, "SELECT array_contains(array(1, 2, 3), 2)", "1");
    EXPECT_SQLITE(db, "SELECT array_contains(array(1, 2, 3), 5)", "0");
    EXPECT_SQLITE(db, "SELECT array_contains(CAST(NULL AS ARRAY<INT>), 1)", "NULL");
    /* size() is the session's function (fn_array.c): size(NULL) is -1 */
    EXPECT_SQLITE(db, "SELECT map('k', 'v')['k']", "v");
    EXPECT_SQLITE(db, "SELECT array(10, 20)[1]", "20");
    EXPECT_SQLITE(db, "SELECT map('k', array(1, 2))['k'][1]", "2");
    EXPECT_SQLITE(db, "SELECT map('ab', 5)[concat('a', 'b')]", "5");
    EXPECT_SQLITE(db, "SELECT CAST('007' AS STRING)", "007");
    /* CAST to DATE and the numeric types calls floe_cast() (the session's
     * function, exec_spark.c): the differential corpus checks it */
    EXPECT_SQLITE(db, "SELECT NULL <=> NULL", "1");
    EXPECT_SQLITE(db, "SELECT if(1 > 2, 'y', 'n')", "n");
    EXPECT_SQLITE(db, "SELECT nvl(NULL, 'd')", "d");
    EXPECT_SQLITE(db, "SELECT length(current_timestamp())", "26");
    EXPECT_SQLITE(db, "SELECT DATE'2026-09-20' < TIMESTAMP '2026-09-20 00:00:01'", "1");
    sqlite3_close(db);
}

/* The syntax tree keeps Spark's precedence and meaning through SQLite's
 * (every expected value is Spark 3.5's, see tests/peers/sql_corpus/08_syntax.sql). */
static void test_tree_semantics(void)
{
    sqlite3 *db = open_db();
    FT_ASSERT(db != NULL);
    FT_EQ_INT(sqlite3_exec(db,
                           "CREATE TABLE floe_ref_1(id, grp); INSERT INTO floe_ref_1 VALUES "
                           "(1, 'a'), (2, 'a'), (4, 'b'), (7, NULL);"
                           "CREATE TABLE floe_ref_2(id); INSERT INTO floe_ref_2 VALUES (1), (2), (3);",
                           NULL, NULL, NULL),
              SQLITE_OK);
    EXPECT_SQLITE(db, "SELECT 1 + 2 * 3", "7");
    EXPECT_SQLITE(db, "SELECT 1 + 2 || 'x'", "3x");    /* Spark: (1 + 2) || 'x' */
    EXPECT_SQLITE(db, "SELECT 'x' || 1 * 2", "x2");
    EXPECT_SQLITE(db, "SELECT 6 & 3 | 8", "10");
    EXPECT_SQLITE(db, "SELECT 5 ^ 3", "6");
    EXPECT_SQLITE(db, "SELECT 1 | 2 = 3", "1");
    EXPECT_SQLITE(db, "SELECT NOT 1 = 2", "1");
    EXPECT_SQLITE(db, "SELECT 10 - 2 - 3", "5");
    EXPECT_SQLITE(db, "SELECT 10 - (2 - 3)", "11");
    EXPECT_SQLITE(db, "SELECT - -3", "3");
    EXPECT_SQLITE(db, "SELECT 7 / 2", "3.5");
    EXPECT_SQLITE(db, "SELECT 8 / 2 / 2", "2.0");
    EXPECT_SQLITE(db, "SELECT -7 div 2", "-3");
    EXPECT_SQLITE(db, "SELECT 1 IS DISTINCT FROM NULL", "1");
    EXPECT_SQLITE(db, "SELECT NULL IS NOT DISTINCT FROM NULL", "1");
    EXPECT_SQLITE(db, "SELECT 'it''s' 'x'", "itsx");
    EXPECT_SQLITE(db, "SELECT trim(LEADING 'x' FROM 'xxa')", "a");
    EXPECT_SQLITE(db, "SELECT position('b' IN 'abc')", "2");
    EXPECT_SQLITE(db, "SELECT substring('hello' FROM 2 FOR 3)", "ell");
    EXPECT_SQLITE(db, "WITH year AS (SELECT 5 AS x) SELECT x FROM year", "5");
    EXPECT_SQLITE(db, "SELECT count(*) FROM floe_ref_1 AS partition", "4");
    EXPECT_SQLITE(db, "SELECT max(id) AS history FROM floe_ref_1", "7");
    EXPECT_SQLITE(db, "SELECT id FROM VALUES (3), (1) AS v(id) ORDER BY id LIMIT 1", "1");
    EXPECT_SQLITE(db, "SELECT sum(col2) FROM VALUES (1, 10), (2, 20)", "30");
    EXPECT_SQLITE(db, "SELECT count(*) FROM (SELECT id FROM floe_ref_1 UNION SELECT id FROM "
                      "floe_ref_2 INTERSECT SELECT 3)", "5");
    EXPECT_SQLITE(db, "SELECT count(DISTINCT grp, id) FROM floe_ref_1", "3");
    EXPECT_SQLITE(db, "SELECT group_concat(a.id) FROM floe_ref_1 a LEFT SEMI JOIN floe_ref_2 b "
                      "ON a.id = b.id WHERE a.grp = 'a'", "1,2");
    EXPECT_SQLITE(db, "SELECT group_concat(id) FROM floe_ref_1 a ANTI JOIN floe_ref_2 b "
                      "ON a.id = b.id", "4,7");
    EXPECT_SQLITE(db, "SELECT * FROM floe_ref_1 a SEMI JOIN floe_ref_2 b ON a.id = b.id "
                      "ORDER BY a.id DESC", "2");
    sqlite3_close(db);
}

static void test_sqlite_metadata_columns(void)
{
    sqlite3 *db = open_db();
    FT_ASSERT(db != NULL);
    FT_EQ_INT(sqlite3_exec(db,
                           "CREATE TABLE floe_ref_1(snapshot_id, summary, partition, "
                           "readable_metrics);"
                           "INSERT INTO floe_ref_1 VALUES (1, '{\"added-records\":\"2\","
                           "\"total-records\":\"5\"}', '{\"order_date\":\"2026-09-20\"}', "
                           "'{\"amount\":{\"lower_bound\":\"-1.00\"}}');",
                           NULL, NULL, NULL),
              SQLITE_OK);
    EXPECT_SQLITE(db,
                  "SELECT summary['added-records'] + summary['total-records'] "
                  "FROM ice.shop.orders.snapshots",
                  "7");
    EXPECT_SQLITE(db, "SELECT s.partition.order_date FROM ice.shop.orders.files s", "2026-09-20");
    EXPECT_SQLITE(db, "SELECT readable_metrics.amount.lower_bound FROM ice.shop.orders.files",
                  "-1.00");
    EXPECT_SQLITE(db, "SELECT count(*) FROM ice.shop.orders.snapshots WHERE snapshot_id = 1", "1");
    sqlite3_close(db);
}

static void test_injection(void)
{
    sqlite3 *db = open_db();
    FT_ASSERT(db != NULL);
    FT_EQ_INT(sqlite3_exec(db,
                           "CREATE TABLE victim(x); CREATE TABLE floe_ref_1(v);"
                           "INSERT INTO floe_ref_1 VALUES (1);",
                           NULL, NULL, NULL),
              SQLITE_OK);
    /* string literals: the payload comes back as the value ('' is two
     * adjacent literals in Spark, \' an escaped quote) */
    EXPECT_SQLITE(db, "SELECT 'a''); DROP TABLE victim; --'", "a); DROP TABLE victim; --");
    EXPECT_SQLITE(db, "SELECT 'a\\'); DROP TABLE victim; --'", "a'); DROP TABLE victim; --");
    EXPECT_SQLITE(db, "SELECT 'x'' OR ''1''=''1'", "x OR 1=1");
    EXPECT_SQLITE(db, "SELECT 'x\\' OR \\'1\\'=\\'1'", "x' OR '1'='1");
    EXPECT_SQLITE(db, "SELECT summary['k''); DROP TABLE victim; --'] FROM (SELECT '{}' AS summary)",
                  "NULL");
    /* identifiers: a hostile table name is one quoted name in the rewrite,
     * and in the reference it is the name itself */
    floe_arena *a = floe__arena_new(0);
    floe_sql_stmt *st;
    FT_OK(floe__sql_parse(a, "SELECT * FROM `t\"; DROP TABLE victim; --`.`x'y`", NULL, &st, NULL));
    FT_EQ_STR(st->query->sql, "SELECT * FROM \"floe_ref_1\" AS \"x'y\"");
    FT_EQ_STR(st->refs[0].name.ns[0], "t\"; DROP TABLE victim; --");
    FT_EQ_STR(st->refs[0].name.table, "x'y");
    FT_OK(floe__sql_parse(a,
                          "SELECT `a\"\"; DROP TABLE victim; --` FROM (SELECT 1 AS "
                          "`a\"\"; DROP TABLE victim; --`)",
                          NULL, &st, NULL));
    sqlite3_stmt *s = NULL;
    const char *tail = NULL;
    FT_EQ_INT(sqlite3_prepare_v2(db, st->query->sql, -1, &s, &tail), SQLITE_OK);
    FT_CHECK(tail && !*tail);
    FT_EQ_INT(sqlite3_step(s), SQLITE_ROW);
    FT_EQ_STR(sqlite3_column_name(s, 0), "a\"\"; DROP TABLE victim; --");
    sqlite3_finalize(s);
    /* CALL arguments and property values are values, never SQL */
    FT_OK(floe__sql_parse(a, "CALL system.rollback_to_snapshot('t\\'; DROP TABLE victim; --', 1)",
                          NULL, &st, NULL));
    FT_EQ_STR(st->call.args[0].value.text, "t'; DROP TABLE victim; --");
    FT_OK(floe__sql_parse(a, "CALL system.rollback_to_snapshot('t''; DROP TABLE victim; --', 1)",
                          NULL, &st, NULL));
    FT_EQ_STR(st->call.args[0].value.text, "t; DROP TABLE victim; --");
    FT_OK(floe__sql_parse(a, "ALTER TABLE s.t SET TBLPROPERTIES ('k' = 'v\\'); DROP TABLE victim')",
                          NULL, &st, NULL));
    FT_EQ_STR(st->props[0].value, "v'); DROP TABLE victim");
    /* a second statement hidden after ';' is a separate statement, not part of this one */
    const char *rest;
    FT_OK(floe__sql_parse(a, "SELECT 1; DROP TABLE victim", NULL, &st, &rest));
    FT_EQ_STR(st->query->sql, "SELECT 1");
    FT_EQ_STR(rest, " DROP TABLE victim");
    floe__arena_free(a);
    /* the victim table still exists */
    EXPECT_SQLITE(db, "SELECT count(*) FROM sqlite_master WHERE name = 'victim'", "1");
    sqlite3_close(db);
}

static const ft_case cases[] = {
    {"tokens", test_tokens},
    {"lex_errors", test_lex_errors},
    {"split", test_split},
    {"error_then_continue", test_error_then_continue},
    {"is_complete", test_is_complete},
    {"oom", test_oom},
    {"sqlite_semantics", test_sqlite_semantics},
    {"tree_semantics", test_tree_semantics},
    {"sqlite_metadata_columns", test_sqlite_metadata_columns},
    {"injection", test_injection},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
