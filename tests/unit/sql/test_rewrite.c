/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The query rewriter: table references (time travel in all its spellings,
 * branch/tag/metadata suffixes, TVFs), what stays untouched (CTEs, subquery
 * aliases, SQLite's tables and functions, temporary views), quoting,
 * comments, strings containing keywords, nested subqueries, Spark-only
 * expression syntax, and errors with their byte position.
 */
#include "dump.h"

static void q(const char *sql, const char *expected)
{
    char *d = parse_dump(sql, "ice", NULL);
    if (!d)
        ft_fail(__FILE__, __LINE__, "parse failed: %s\n  %s", ft_floe_err(), sql);
    else if (strcmp(d, expected))
        ft_fail(__FILE__, __LINE__, "for %s\n--- got:\n%s--- expected:\n%s", sql, d, expected);
    free(d);
}

static void test_time_travel_spellings(void)
{
    const char *exp_snap = "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
                           "ref: floe_ref_1 = ice.db.t @snapshot:42\n";
    q("SELECT * FROM db.t VERSION AS OF 42", exp_snap);
    q("SELECT * FROM db.t FOR VERSION AS OF 42", exp_snap);
    q("SELECT * FROM db.t FOR SYSTEM_VERSION AS OF 42", exp_snap);
    q("SELECT * FROM db.t system_version as of 42", exp_snap);
    /* Iceberg parses a quoted number as a snapshot id */
    q("SELECT * FROM db.t VERSION AS OF '42'", exp_snap);
    q("SELECT * FROM db.t VERSION AS OF 'audit'",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.db.t @ref:audit\n");
    const char *exp_ts = "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
                         "ref: floe_ref_1 = ice.db.t @ts:2026-09-20 01:02:03.000000\n";
    q("SELECT * FROM db.t TIMESTAMP AS OF '2026-09-20 01:02:03'", exp_ts);
    q("SELECT * FROM db.t TIMESTAMP AS OF TIMESTAMP '2026-09-20 01:02:03'", exp_ts);
    q("SELECT * FROM db.t FOR SYSTEM_TIME AS OF '2026-09-20T01:02:03'", exp_ts);
    q("SELECT * FROM db.t FOR TIMESTAMP AS OF '2026-09-20 01:02:03.000'", exp_ts);
    /* an explicit zone is converted to UTC and flagged */
    q("SELECT * FROM db.t TIMESTAMP AS OF '2026-09-20 01:02:03+02:00'",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.db.t @ts:2026-09-19 23:02:03.000000 utc\n");
    q("SELECT * FROM db.t TIMESTAMP AS OF '2026-09-20'",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.db.t @ts:2026-09-20 00:00:00.000000\n");
    /* any other expression is printed as SQLite, evaluated when the statement runs */
    q("SELECT * FROM db.t TIMESTAMP AS OF current_timestamp() - INTERVAL 1 DAY",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.db.t @ts-expr:floe_add_interval(strftime('%Y-%m-%d %H:%M:%f000', "
      "'now'), 0, -86400000000, 'd')\n");
    q("SELECT * FROM db.t TIMESTAMP AS OF 1 + 1",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.db.t @ts-expr:1 + 1\n");
    q("SELECT * FROM db.t TIMESTAMP AS OF 'x'",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.db.t @ts-expr:'x'\n");
    q("SELECT * FROM db.t TIMESTAMP AS OF (true) o",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS o\n"
      "ref: floe_ref_1 = ice.db.t @ts-expr:(TRUE) bad-type\n");
    q("SELECT * FROM db.t TIMESTAMP AS OF date_add(now(), cast(rand() AS INT))",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.db.t @ts-expr:date(strftime('%Y-%m-%d %H:%M:%f000', 'now'), "
      "((floe_cast(rand(), 'int'))) || ' days') nondeterministic\n");
    /* with an alias after the clause */
    q("SELECT o.x FROM db.t VERSION AS OF 42 o", "QUERY\n"
      "query: SELECT o.x FROM \"floe_ref_1\" AS o\n"
      "ref: floe_ref_1 = ice.db.t @snapshot:42\n");
    q("SELECT o.x FROM db.t VERSION AS OF 42 AS o",
      "QUERY\nquery: SELECT o.x FROM \"floe_ref_1\" AS o\n"
      "ref: floe_ref_1 = ice.db.t @snapshot:42\n");
    /* time travel on a metadata table */
    q("SELECT * FROM db.t.files VERSION AS OF 7",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"files\"\n"
      "ref: floe_ref_1 = ice.db.t meta:files @snapshot:7\n");
}

static void test_suffixes(void)
{
    q("SELECT * FROM ice.db.t.branch_audit",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"branch_audit\"\n"
      "ref: floe_ref_1 = ice.db.t branch:audit\n");
    q("SELECT * FROM db.t.tag_v1", "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"tag_v1\"\n"
                                   "ref: floe_ref_1 = ice.db.t tag:v1\n");
    q("SELECT * FROM db.t.`branch_wap-1`",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"branch_wap-1\"\n"
      "ref: floe_ref_1 = ice.db.t branch:wap-1\n");
    static const char *const metas[] = {"snapshots",   "history",        "refs",
                                        "files",       "data_files",     "delete_files",
                                        "all_files",   "all_data_files", "all_delete_files",
                                        "manifests",   "all_manifests",  "entries",
                                        "all_entries", "partitions",     "metadata_log_entries"};
    for (size_t k = 0; k < sizeof metas / sizeof metas[0]; k++) {
        char sql[128], exp[256];
        snprintf(sql, sizeof sql, "SELECT * FROM ice.db.t.%s", metas[k]);
        snprintf(exp, sizeof exp,
                 "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"%s\"\n"
                 "ref: floe_ref_1 = ice.db.t meta:%s\n",
                 metas[k], metas[k]);
        q(sql, exp);
    }
    /* metadata table names are case-insensitive and reported lower-case */
    q("SELECT * FROM db.t.SNAPSHOTS",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"SNAPSHOTS\"\n"
      "ref: floe_ref_1 = ice.db.t meta:snapshots\n");
    /* multi-level namespace; a non-catalog first part stays a namespace */
    q("SELECT * FROM other.a.b.t", "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
                                   "ref: floe_ref_1 = ice.other.a.b.t\n");
    q("SELECT * FROM ICE.db.t", "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\n"
                                "ref: floe_ref_1 = ice.db.t\n");
}

static void test_current_namespace(void)
{
    char *d = parse_dump("SELECT * FROM orders JOIN orders.snapshots s ON 1 = 1", "ice", "shop");
    FT_ASSERT(d != NULL);
    FT_EQ_STR(d, "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"orders\" JOIN \"floe_ref_2\" AS s "
                 "ON 1 = 1\n"
                 "ref: floe_ref_1 = ice.shop.orders\n"
                 "ref: floe_ref_2 = ice.shop.orders meta:snapshots\n");
    free(d);
    d = parse_dump("SELECT * FROM a.b", "ice", "x.y");
    FT_ASSERT(d != NULL);
    FT_EQ_STR(d,
              "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"b\"\nref: floe_ref_1 = ice.a.b\n");
    free(d);
}

static void test_dedup_and_numbering(void)
{
    q("SELECT * FROM db.t a JOIN db.t b ON a.id = b.id JOIN db.t VERSION AS OF 1 c ON 1 = 1",
      "QUERY\n"
      "query: SELECT * FROM \"floe_ref_1\" AS a JOIN \"floe_ref_1\" AS b ON a.id = b.id JOIN \"floe_ref_2\" AS c ON 1 = 1\n"
      "ref: floe_ref_1 = ice.db.t\n"
      "ref: floe_ref_2 = ice.db.t @snapshot:1\n");
    floe_arena *a = floe__arena_new(0);
    floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
    opt.ref_base = 41;
    floe_sql_stmt *st;
    FT_OK(floe__sql_parse(a, "SELECT * FROM db.t", &opt, &st, NULL));
    FT_EQ_STR(st->query->sql, "SELECT * FROM \"floe_ref_42\" AS \"t\"");
    FT_EQ_STR(st->refs[0].sqlite_name, "floe_ref_42");
    floe__arena_free(a);
}

static void test_untouched(void)
{
    q("WITH s AS (SELECT * FROM db.t), u(x) AS (SELECT 1) SELECT * FROM s, u",
      "QUERY\n"
      "query: WITH s AS (SELECT * FROM \"floe_ref_1\" AS \"t\"), u(\"x\") AS (SELECT 1) SELECT * FROM s, u\n"
      "ref: floe_ref_1 = ice.db.t\n");
    q("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r",
      "QUERY\n"
      "query: WITH RECURSIVE r(\"n\") AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r\n");
    q("SELECT * FROM sqlite_master, sqlite_schema, main.sqlite_master",
      "QUERY\nquery: SELECT * FROM sqlite_master, sqlite_schema, main.sqlite_master\n");
    q("SELECT value FROM json_each('[1,2]'), pragma_table_info('x')",
      "QUERY\nquery: SELECT value FROM json_each('[1,2]'), pragma_table_info('x')\n");
    q("SELECT sub.x FROM (SELECT x FROM db.t) sub",
      "QUERY\n"
      "query: SELECT sub.x FROM (SELECT x FROM \"floe_ref_1\" AS \"t\") AS sub\n"
      "ref: floe_ref_1 = ice.db.t\n");
    q("SELECT 1", "QUERY\nquery: SELECT 1\n");
    q("VALUES (1, 'a'), (2, 'b')", "QUERY\nquery: VALUES (1, 'a'), (2, 'b')\n");
}

static bool views_local(const char *name, void *payload)
{
    (void)payload;
    return !strcmp(name, "v1");
}

static void test_temp_views_local(void)
{
    floe_arena *a = floe__arena_new(0);
    floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
    opt.is_local = views_local;
    floe_sql_stmt *st;
    FT_OK(floe__sql_parse(a, "SELECT * FROM v1 JOIN v2 ON 1", &opt, &st, NULL));
    FT_EQ_STR(st->query->sql, "SELECT * FROM v1 JOIN \"floe_ref_1\" AS \"v2\" ON 1");
    FT_EQ_INT(st->nrefs, 1);
    floe__arena_free(a);
}

static void test_tvfs(void)
{
    q("SELECT * FROM read_parquet('/data/a.parquet')",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"read_parquet\"\n"
      "ref: floe_ref_1 = tvf:read_parquet ('/data/a.parquet')\n");
    q("SELECT * FROM READ_PARQUET('/d/*.parquet', union_by_name => true, n => 3) AS p",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS p\n"
      "ref: floe_ref_1 = tvf:read_parquet ('/d/*.parquet', union_by_name => true, n => 3)\n");
    q("SELECT * FROM incremental_append('shop.orders', 1, 2)",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"incremental_append\"\n"
      "ref: floe_ref_1 = tvf:incremental_append ('shop.orders', 1, 2)\n");
    q("SELECT * FROM table_changes('shop.orders', TIMESTAMP '2026-01-01 00:00:00')",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"table_changes\"\n"
      "ref: floe_ref_1 = tvf:table_changes ('shop.orders', ts:2026-01-01 00:00:00.000000)\n");
    /* two identical TVF calls are two references */
    q("SELECT * FROM read_parquet('a') x, read_parquet('a') y",
      "QUERY\n"
      "query: SELECT * FROM \"floe_ref_1\" AS x, \"floe_ref_2\" AS y\n"
      "ref: floe_ref_1 = tvf:read_parquet ('a')\n"
      "ref: floe_ref_2 = tvf:read_parquet ('a')\n");
}

static void test_quoting_and_comments(void)
{
    q("SELECT `a b`, \"c\"\"d\", `e``f` FROM `my db`.`my-table`",
      "QUERY\nquery: SELECT \"a b\", \"c\"\"d\", \"e`f\" FROM \"floe_ref_1\" AS \"my-table\"\n"
      "ref: floe_ref_1 = ice.my db.my-table\n");
    /* keywords inside strings and comments are data */
    q("SELECT 'VERSION AS OF 1', 'FROM x.y' /* FROM a.b VERSION AS OF 2 */ -- FROM c.d\n"
      "FROM db.t WHERE s = 'x TIMESTAMP AS OF ''y'''",
      "QUERY\nquery: SELECT 'VERSION AS OF 1', 'FROM x.y' FROM \"floe_ref_1\" AS \"t\" "
      "WHERE s = 'x TIMESTAMP AS OF y'\n"
      "ref: floe_ref_1 = ice.db.t\n");
    q("SELECT /* nested /* comment */ still */ 1", "QUERY\nquery: SELECT 1\n");
    q("SELECT X'0aFF', 1e3, .5, 10L",
      "QUERY\n"
      "query: SELECT X'0aFF', 1e3, floe_cast_decimal(.5, 1, 1) AS \".5\", 10 AS \"10L\"\n");
}

static void test_nested(void)
{
    q("SELECT * FROM db.a WHERE id IN (SELECT id FROM db.b WHERE x > (SELECT max(x) FROM db.c "
      "VERSION AS OF 'tag1')) AND EXISTS (SELECT 1 FROM db.d.snapshots)",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"a\" WHERE id IN (SELECT id FROM "
      "\"floe_ref_2\" AS \"b\" WHERE x > (SELECT max(x) FROM \"floe_ref_3\" AS \"c\")) AND "
      "EXISTS (SELECT 1 FROM \"floe_ref_4\" AS \"snapshots\")\n"
      "ref: floe_ref_1 = ice.db.a\n"
      "ref: floe_ref_2 = ice.db.b\n"
      "ref: floe_ref_3 = ice.db.c @ref:tag1\n"
      "ref: floe_ref_4 = ice.db.d meta:snapshots\n");
    q("SELECT * FROM (db.a JOIN db.b ON a.x = b.x) LEFT OUTER JOIN db.c USING (x), db.d",
      "QUERY\n"
      "query: SELECT * FROM (\"floe_ref_1\" AS \"a\" JOIN \"floe_ref_2\" AS \"b\" ON a.x = b.x) "
      "LEFT JOIN \"floe_ref_3\" AS \"c\" USING (\"x\"), \"floe_ref_4\" AS \"d\"\n"
      "ref: floe_ref_1 = ice.db.a\n"
      "ref: floe_ref_2 = ice.db.b\n"
      "ref: floe_ref_3 = ice.db.c\n"
      "ref: floe_ref_4 = ice.db.d\n");
    /* the preserved side of a RIGHT/FULL JOIN is read through a subquery
     * (SQLite tracks its matched rows by rowid, which a virtual table's
     * constrained scans do not keep) */
    q("SELECT * FROM db.a RIGHT JOIN db.b ON a.x = b.x FULL JOIN db.c c ON c.x = b.x",
      "QUERY\n"
      "query: SELECT * FROM \"floe_ref_1\" AS \"a\" RIGHT JOIN (SELECT * FROM \"floe_ref_2\") AS "
      "\"b\" ON a.x = b.x FULL JOIN (SELECT * FROM \"floe_ref_3\") AS c ON c.x = b.x\n"
      "ref: floe_ref_1 = ice.db.a\n"
      "ref: floe_ref_2 = ice.db.b\n"
      "ref: floe_ref_3 = ice.db.c\n");
    q("SELECT x FROM db.a UNION ALL SELECT x FROM db.b ORDER BY 1",
      "QUERY\nquery: SELECT x FROM \"floe_ref_1\" AS \"a\" UNION ALL SELECT x FROM "
      "\"floe_ref_2\" AS \"b\" ORDER BY 1\n"
      "ref: floe_ref_1 = ice.db.a\n"
      "ref: floe_ref_2 = ice.db.b\n");
    /* FROM inside function syntax and IS DISTINCT FROM is not a table; Spark's
     * TRIM(BOTH .. FROM ..) is SQLite's trim(s, chars), IS NOT DISTINCT FROM its IS */
    q("SELECT trim(BOTH ' ' FROM s) FROM db.t WHERE a IS NOT DISTINCT FROM b",
      "QUERY\n"
      "query: SELECT trim(s, ' ') AS \"trim(BOTH ' ' FROM s)\" FROM \"floe_ref_1\" AS \"t\" WHERE a IS b\n"
      "ref: floe_ref_1 = ice.db.t\n");
    q("TABLE db.t",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\"\nref: floe_ref_1 = ice.db.t\n");
}

static void test_expressions(void)
{
    q("SELECT summary['added-records'], m['a']['b'], arr[0], f(x)['k'], m[k || 'x']",
      "QUERY\n"
      "query: SELECT json_extract(summary, '$.\"added-records\"') AS \"summary['added-records']\", json_extract(m, '$.\"a\".\"b\"') AS \"m['a']['b']\", json_extract(arr, '$[0]') AS \"arr[0]\", json_extract(f(x), '$.\"k\"') AS \"f(x)['k']\", json_extract(m, '$' || '.\"' || (k || 'x') || '\"') AS \"m[k || 'x']\"\n");
    /* chains of subscripts and fields become one path; integer keys of the
     * metadata tables' maps are object keys */
    q("SELECT partition_summaries[0].lower_bound, value_counts[1], lower_bounds[2], arr[1][2], "
      "m[k].x FROM t",
      "QUERY\n"
      "query: SELECT json_extract(partition_summaries, '$[0].\"lower_bound\"') AS \"partition_summaries[0].lower_bound\", json_extract(value_counts, '$.\"1\"') AS \"value_counts[1]\", json_extract(lower_bounds, '$.\"2\"') AS \"lower_bounds[2]\", json_extract(arr, '$[1][2]') AS \"arr[1][2]\", json_extract(m, '$' || '.\"' || (k) || '\"' || '.\"x\"') AS \"m[k].x\" FROM \"floe_ref_1\" AS \"t\"\n"
      "ref: floe_ref_1 = ice.t\n");
    q("SELECT s.summary['k'] FROM db.t.snapshots s",
      "QUERY\n"
      "query: SELECT json_extract(s.summary, '$.\"k\"') AS \"s.summary['k']\" FROM \"floe_ref_1\" AS s\n"
      "ref: floe_ref_1 = ice.db.t meta:snapshots\n");
    q("SELECT partition.order_date, f.partition.d, readable_metrics.amount.lower_bound, "
      "data_file.partition.x, f.partition FROM db.t.files f",
      "QUERY\n"
      "query: SELECT json_extract(\"partition\", '$.\"order_date\"') AS \"order_date\", json_extract(f.\"partition\", '$.\"d\"') AS \"d\", json_extract(\"readable_metrics\", '$.\"amount\".\"lower_bound\"') AS \"lower_bound\", json_extract(\"data_file\", '$.\"partition\".\"x\"') AS \"x\", f.\"partition\" FROM \"floe_ref_1\" AS f\n"
      "ref: floe_ref_1 = ice.db.t meta:files\n");
    q("SELECT x + INTERVAL 1 DAY 2 HOURS, INTERVAL 1 MONTH + x, x - INTERVAL '3' DAY, "
      "x - (INTERVAL 1 YEAR - INTERVAL 2 MONTHS), -INTERVAL 1 WEEK + x",
      "QUERY\n"
      "query: SELECT floe_add_interval(x, 0, 93600000000, 't') AS \"x + INTERVAL 1 DAY 2 HOURS\", floe_add_interval(x, 1, 0, 'd') AS \"INTERVAL 1 MONTH + x\", floe_add_interval(x, 0, -259200000000, 'd') AS \"x - INTERVAL '3' DAY\", floe_add_interval(x, -10, 0, 'd') AS \"x - (INTERVAL 1 YEAR - INTERVAL 2 MONTHS)\", floe_add_interval(x, 0, -604800000000, 'd') AS \"-INTERVAL 1 WEEK + x\"\n");
    q("SELECT DATE'2026-09-20', DATE '2026-9-1', TIMESTAMP'2026-09-20 01:02:03.5', "
      "TIMESTAMP_NTZ '2026-09-20 01:02', TIMESTAMP '2026-09-20T00:30:00Z'",
      "QUERY\n"
      "query: SELECT '2026-09-20' AS \"DATE'2026-09-20'\", '2026-09-01' AS \"DATE '2026-9-1'\", '2026-09-20 01:02:03.500000' AS \"TIMESTAMP'2026-09-20 01:02:03.5'\", '2026-09-20 01:02:00.000000' AS \"TIMESTAMP_NTZ '2026-09-20 01:02'\", '2026-09-20 00:30:00.000000' AS \"TIMESTAMP '2026-09-20T00:30:00Z'\"\n");
    q("SELECT array(1, 'a'), map('k', 1), named_struct('a', 1), size(array(1, 2)), "
      "cardinality(x), nvl(a, b), if(c, 1, 2), lcase(s), ucase(s), collect_list(x), "
      "to_date(s), get_json_object(j, '$.a')",
      "QUERY\n"
      "query: SELECT json_array(1, 'a') AS \"array(1, 'a')\", json_object('k', 1) AS \"map('k', "
      "1)\", json_object('a', 1) AS \"named_struct('a', 1)\", size(json_array(1, 2)) AS "
      "\"size(array(1, 2))\", cardinality(x), ifnull(a, b) AS \"nvl(a, b)\", iif(c, 1, 2) AS "
      "\"if(c, 1, 2)\", lower(s) AS \"lcase(s)\", upper(s) AS \"ucase(s)\", json_group_array(x) "
      "FILTER "
      "(WHERE (x) IS NOT NULL) AS \"collect_list(x)\", to_date(s), json_extract(j, '$.a') AS "
      "\"get_json_object(j, '$.a')\"\n");
    q("SELECT current_timestamp(), now(), current_timestamp, current_date(), current_date",
      "QUERY\n"
      "query: SELECT strftime('%Y-%m-%d %H:%M:%f000', 'now') AS \"current_timestamp()\", strftime('%Y-%m-%d %H:%M:%f000', 'now') AS \"now()\", strftime('%Y-%m-%d %H:%M:%f000', 'now') AS \"current_timestamp\", date('now') AS \"current_date()\", date('now') AS \"current_date\"\n");
    q("SELECT year(d), month(d), day(d), hour(ts), date_add(d, 2), date_sub(d, 1), "
      "datediff(a, b)",
      "QUERY\n"
      "query: SELECT CAST(strftime('%Y', d) AS INTEGER) AS \"year(d)\", CAST(strftime('%m', d) AS "
      "INTEGER) AS \"month(d)\", CAST(strftime('%d', d) AS INTEGER) AS \"day(d)\", "
      "CAST(strftime('%H', ts) AS INTEGER) AS \"hour(ts)\", date(d, ((2)) || ' days') AS "
      "\"date_add(d, 2)\", date(d, (-(1)) || ' days') AS \"date_sub(d, 1)\", "
      "CAST(julianday(date(a)) - julianday(date(b)) AS INTEGER) AS \"datediff(a, b)\"\n");
    q("SELECT concat(a, 'x', b), concat_ws('-', a, b), date_format(ts, 'yyyy-MM-dd HH:mm'), "
      "array_contains(arr, 3)",
      "QUERY\n"
      "query: SELECT ((a) || ('x') || (b)) AS \"concat(a, 'x', b)\", substr('' || coalesce(('-') "
      "|| (a), '') || coalesce(('-') || (b), ''), length('-') + 1) AS \"concat_ws('-', a, b)\", "
      "date_format(ts, 'yyyy-MM-dd HH:mm'), CASE WHEN (arr) IS NOT NULL THEN ((3) IN (SELECT value "
      "FROM json_each(arr))) END AS \"array_contains(arr, 3)\"\n");
    q("SELECT CAST(a AS STRING), CAST(b AS BIGINT), CAST(c AS DECIMAL(10, 2)), CAST(d AS DATE), "
      "CAST(e AS DOUBLE), try_cast(f AS INT), CAST(g AS TIMESTAMP)",
      "QUERY\n"
      "query: SELECT CAST(a AS TEXT) AS \"CAST(a AS STRING)\", floe_cast(b, 'bigint') AS \"CAST(b AS BIGINT)\", floe_cast_decimal(c, 10, 2) AS \"CAST(c AS DECIMAL(10, 2))\", floe_cast(d, 'date') AS \"CAST(d AS DATE)\", floe_cast(e, 'double') AS \"CAST(e AS DOUBLE)\", floe_cast(f, 'int') AS \"try_cast(f AS INT)\", floe_cast(g, 'timestamp') AS \"CAST(g AS TIMESTAMP)\"\n");
    /* a typed null of a nested type is NULL (Spark's CAST(NULL AS ARRAY<INT>)) */
    q("SELECT CAST(NULL AS ARRAY<INT>), CAST(NULL AS MAP<STRING, ARRAY<INT>>), "
      "CAST(NULL AS STRUCT<x: INT>)",
      "QUERY\n"
      "query: SELECT NULL AS \"CAST(NULL AS ARRAY<INT>)\", NULL AS \"CAST(NULL AS MAP<STRING, ARRAY<INT>>)\", NULL AS \"CAST(NULL AS STRUCT<x: INT>)\"\n");
    q("SELECT a <=> b, !c, a != b, a <> b, a == b, s RLIKE 'x', s ILIKE 'y'",
      "QUERY\n"
      "query: SELECT a IS b AS \"a <=> b\", NOT c AS \"!c\", a <> b AS \"a != b\", a <> b, a = b AS \"a == b\", s REGEXP 'x' AS \"s RLIKE 'x'\", s LIKE floe_like_pattern(4, 'y') AS \"s ILIKE 'y'\"\n");
    /* expression rewrites apply inside subqueries and DML parts too */
    q("DELETE FROM db.t WHERE d < DATE'2026-01-01' AND id IN (SELECT id FROM db.u.branch_b)",
      "DELETE\ntarget: ice.db.t\nwhere: d < '2026-01-01' AND id IN (SELECT id FROM "
      "\"floe_ref_1\" AS \"branch_b\")\n"
      "ref: floe_ref_1 = ice.db.u branch:b\n");
}

/* Decimal literals SQLite cannot hold exactly (more than 15 significant
 * digits, integers past 64 bits) become their text, a unary minus joining
 * them; others stay numbers. */
static void test_wide_literals(void)
{
    q("SELECT 3.14159265358979323846264, -3.14159265358979323846264, 1 - 0.1234567890123456",
      "QUERY\n"
      "query: SELECT floe_cast_decimal('3.14159265358979323846264', 24, 23) AS "
      "\"3.14159265358979323846264\", floe_cast_decimal('-3.14159265358979323846264', 24, 23) AS "
      "\"-3.14159265358979323846264\", floe_decimal_op('-', 1, '0.1234567890123456', 18, 16) AS "
      "\"1 - 0.1234567890123456\"\n");
    q("SELECT (-12345678901234567890), 1.500000000000000000000, 0.000000000000000012345, "
      "123456789012345, -9223372036854775808, 1.2345678901234567e3",
      "QUERY\n"
      "query: SELECT floe_cast_decimal(('-12345678901234567890'), 20, 0) AS "
      "\"(-12345678901234567890)\", floe_cast_decimal(1.500000000000000000000, 22, 21) AS "
      "\"1.500000000000000000000\", floe_cast_decimal(0.000000000000000012345, 21, 21) AS "
      "\"0.000000000000000012345\", 123456789012345, -9223372036854775808, 1.2345678901234567e3\n");
    q("SELECT * FROM db.t WHERE c = -1234567890.1234567 AND x IN (1, -99999999999999999999)",
      "QUERY\nquery: SELECT * FROM \"floe_ref_1\" AS \"t\" WHERE c = '-1234567890.1234567' AND x "
      "IN (1, '-99999999999999999999')\n"
      "ref: floe_ref_1 = ice.db.t\n");
}

static void test_errors(void)
{
    EXPECT_ERROR("SELECT * FROM t VERSION AS OF x", FLOE_EINVALID, 30, "VERSION AS OF expects");
    EXPECT_ERROR("SELECT * FROM t.branch_a VERSION AS OF 1", FLOE_EINVALID, 25,
                 "Cannot do time-travel based on both table identifier and AS OF");
    EXPECT_ERROR("SELECT * FROM t FOR x", FLOE_EINVALID, 20,
                 "[PARSE_SYNTAX_ERROR] Syntax error at or near 'x'.(line 1, pos 20)");
    /* constant expressions are evaluated (Spark accepts them); a column is not one */
    EXPECT_ERROR("SELECT * FROM t TIMESTAMP AS OF x", FLOE_EINVALID, 32,
                 "Invalid time travel spec: timestamp expression cannot refer to any columns.");
    EXPECT_ERROR("SELECT * FROM t TIMESTAMP AS OF now() - t.a", FLOE_EINVALID, 32,
                 "cannot refer to any columns");
    EXPECT_ERROR("SELECT * FROM t TIMESTAMP AS OF now() - INTERVAL 1 MONTH 1 DAY", FLOE_EINVALID,
                 40, "Cannot mix year-month and day-time fields: INTERVAL 1 MONTH 1 DAY.");
    EXPECT_ERROR("SELECT * FROM t VERSION AS OF 99999999999999999999", FLOE_EINVALID, 30,
                 "out of range");
    EXPECT_ERROR("WITH c AS (SELECT 1) SELECT * FROM c VERSION AS OF 1", FLOE_EINVALID, 37,
                 "time travel on a view, CTE or SQLite table");
    EXPECT_ERROR("SELECT * FROM a LEFT SEMI JOIN b", FLOE_EINVALID, 32, "end of input");
    EXPECT_ERROR("SELECT x::int", FLOE_EUNSUPPORTED, 8, "'::'");
    EXPECT_ERROR("SELECT INTERVAL 1 DAY", FLOE_EUNSUPPORTED, 7, "unsupported: an interval value");
    EXPECT_ERROR("SELECT d + INTERVAL '1-2' YEAR TO MONTH", FLOE_EUNSUPPORTED, 20,
                 "unsupported: INTERVAL '...' unit TO unit");
    EXPECT_ERROR("SELECT d + INTERVAL '1 day'", FLOE_EUNSUPPORTED, 20,
                 "unsupported: INTERVAL '...' with a string of units");
    EXPECT_ERROR("SELECT d + INTERVAL 1 FORTNIGHT", FLOE_EINVALID, 22, "near 'FORTNIGHT'");
    EXPECT_ERROR("SELECT d + INTERVAL 1.5 MONTHS", FLOE_EINVALID, 20, "invalid interval value");
    EXPECT_ERROR("SELECT * FROM LATERAL (SELECT 1)", FLOE_EUNSUPPORTED, 14, "LATERAL");
    EXPECT_ERROR("SELECT * FROM t TABLESAMPLE (10 PERCENT)", FLOE_EUNSUPPORTED, 16, "TABLESAMPLE");
    EXPECT_ERROR("SELECT * FROM t DISTRIBUTE BY x", FLOE_EUNSUPPORTED, 16, "DISTRIBUTE");
    EXPECT_ERROR("SELECT DATE '2026-02-30'", FLOE_EINVALID, 7, "invalid DATE literal");
    EXPECT_ERROR("SELECT TIMESTAMP '2026-02-01 25:00'", FLOE_EINVALID, 7,
                 "invalid TIMESTAMP literal");
    /* syntax errors are Spark's ParseException text (pos counts from 0) */
    EXPECT_ERROR("SELECT (1", FLOE_EINVALID, 9,
                 "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input.(line 1, pos 9)");
    EXPECT_ERROR("SELECT 1)", FLOE_EINVALID, 8, "Syntax error at or near ')'.(line 1, pos 8)");
    EXPECT_ERROR("SELECT m['a'", FLOE_EINVALID, 12, "end of input");
    EXPECT_ERROR("SELECT 1 FROM\n  t WHERE", FLOE_EINVALID, 23, "end of input.(line 2, pos 9)");
    EXPECT_ERROR("SELECT FROM t", FLOE_EINVALID, 7, "near 'FROM'.(line 1, pos 7)");
    EXPECT_ERROR("SELECT m['a\"b']", FLOE_EUNSUPPORTED, 9, "key containing");
    EXPECT_ERROR("SELECT ?", FLOE_EUNSUPPORTED, 7, "unsupported: operator");
    EXPECT_ERROR("SELECT CAST(x AS ARRAY<INT>)", FLOE_EUNSUPPORTED, 17, "CAST to this type");
    EXPECT_ERROR("SELECT * FROM read_parquet(path_column)", FLOE_EINVALID, 27,
                 "expected a literal");
    /* lambdas and generators (issue #22): malformed ones are Spark's ParseException,
     * misused ones its analyzer's error classes */
    EXPECT_ERROR("SELECT transform(a, x -> )", FLOE_EINVALID, 25, "near ')'");
    EXPECT_ERROR("SELECT transform(a, (x) -> x)", FLOE_EINVALID, 24, "near '->'");
    EXPECT_ERROR("SELECT transform(a, (x, 1) -> x)", FLOE_EINVALID, 27, "near '->'");
    EXPECT_ERROR("SELECT transform(a, x -> y -> 1)", FLOE_EINVALID, 27, "near '->'");
    EXPECT_ERROR("SELECT transform(a, (x, X) -> 1)", FLOE_EINVALID, 24, "DUPLICATE_ARG_NAMES");
    EXPECT_ERROR("SELECT x -> 1", FLOE_EINVALID, 9, "near '->'");
    EXPECT_ERROR("SELECT abs(x -> 1)", FLOE_EINVALID, 7, "NON_HIGHER_ORDER_FUNCTION");
    EXPECT_ERROR("SELECT filter(a)", FLOE_EINVALID, 7, "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION]");
    EXPECT_ERROR("SELECT aggregate(a, 0, x -> x)", FLOE_EINVALID, 23,
                 "expects 2 arguments, but got 1");
    EXPECT_ERROR("SELECT * FROM t LATERAL VIEW explode(a)", FLOE_EINVALID, 39, "end of input");
    EXPECT_ERROR("SELECT * FROM t LATERAL VIEW explode a", FLOE_EINVALID, 37, "near 'a'");
    EXPECT_ERROR("SELECT * FROM t LATERAL VIEW OUTER e AS x", FLOE_EINVALID, 37, "near 'AS'");
    EXPECT_ERROR("SELECT * FROM t LATERAL VIEW explode(a) e AS", FLOE_EINVALID, 44, "end of input");
    EXPECT_ERROR("SELECT explode(a) AS ()", FLOE_EINVALID, 22, "near ')'");
    EXPECT_ERROR("SELECT 1 + explode(a) FROM t", FLOE_EINVALID, 11, "NESTED_IN_EXPRESSIONS");
    EXPECT_ERROR("SELECT explode(a), posexplode(b) FROM t", FLOE_EINVALID, 19, "MULTI_GENERATOR");
    EXPECT_ERROR("SELECT * FROM t WHERE explode(a)", FLOE_EINVALID, 22, "OUTSIDE_SELECT");
    EXPECT_ERROR("SELECT a FROM t GROUP BY explode(a)", FLOE_EINVALID, 25, "OUTSIDE_SELECT");
    EXPECT_ERROR("SELECT posexplode(a) AS x FROM t", FLOE_EINVALID, 7,
                 "UDTF_ALIAS_NUMBER_MISMATCH");
    EXPECT_ERROR("SELECT 1 AS (a, b)", FLOE_EINVALID, 7, "UDTF_ALIAS_NUMBER_MISMATCH");
    EXPECT_ERROR("SELECT * FROM t LATERAL VIEW abs(a) e AS x", FLOE_EUNSUPPORTED, 29,
                 "LATERAL VIEW of this function");
    EXPECT_ERROR("SELECT *, explode(collect_list(a)) FROM t", FLOE_EUNSUPPORTED, 7,
                 "* with a generator over aggregated rows");
    /* the error message names line and column */
    EXPECT_ERROR("SELECT 1,\n  2,\n  x::int", FLOE_EUNSUPPORTED, 18, "at line 3, column 4");
}

static void test_generators_lambdas(void)
{
    /* a generator in the select list joins floe_explode over the row */
    q("SELECT id, explode(arr) AS x FROM t",
      "QUERY\nquery: SELECT id, floe_g1.floe_val AS \"x\" FROM \"floe_ref_1\" AS \"t\", "
      "floe_explode(arr) AS floe_g1\nref: floe_ref_1 = ice.t\n");
    q("SELECT explode_outer(m) AS (k, v)", "QUERY\nquery: SELECT floe_g1.floe_key AS \"k\", "
                                           "floe_g1.floe_val AS \"v\" FROM (SELECT 1) AS "
                                           "floe_one LEFT JOIN floe_explode(m) AS floe_g1 ON 1\n");
    /* over aggregated rows: the aggregating select, then its rows' generator */
    q("SELECT g, explode(collect_list(a)) FROM t GROUP BY g",
      "QUERY\nquery: SELECT floe_q.floe_c0 AS \"g\", floe_g1.floe_val AS \"col\" FROM (SELECT g AS "
      "floe_c0, json_group_array(a) FILTER (WHERE (a) IS NOT NULL) AS floe_garg FROM "
      "\"floe_ref_1\" AS \"t\" GROUP BY g) AS "
      "floe_q, floe_explode(floe_q.floe_garg) AS floe_g1\nref: floe_ref_1 = ice.t\n");
    /* LATERAL VIEW columns by name, table.name and fields after them, in
     * WHERE and ORDER BY */
    q("SELECT e.x, y.f FROM t LATERAL VIEW OUTER posexplode(a) e AS p, x "
      "LATERAL VIEW explode(b) t2 AS y WHERE p > 0 ORDER BY x",
      "QUERY\nquery: SELECT floe_g1.floe_val AS \"x\", json_extract(floe_g2.floe_val, '$.\"f\"') "
      "AS \"f\" "
      "FROM \"floe_ref_1\" AS \"t\" LEFT JOIN floe_explode(a) AS floe_g1 ON 1, floe_explode(b) AS "
      "floe_g2 WHERE floe_g1.floe_pos > 0 ORDER BY floe_g1.floe_val\nref: floe_ref_1 = ice.t\n");
    /* lambda parameters shadow the column of the same name; others stay columns */
    q("SELECT filter(a, (x, i) -> x > i + b) AS f FROM t",
      "QUERY\nquery: SELECT CASE WHEN (a) IS NULL THEN NULL ELSE (SELECT "
      "json_group_array(floe_l1.floe_val) FROM floe_explode(a) AS floe_l1 WHERE (floe_l1.floe_val "
      "> floe_l1.floe_pos + b)) END AS f FROM \"floe_ref_1\" AS \"t\"\nref: floe_ref_1 = ice.t\n");
}

static const ft_case cases[] = {
    {"generators_lambdas", test_generators_lambdas},
    {"time_travel_spellings", test_time_travel_spellings},
    {"suffixes", test_suffixes},
    {"current_namespace", test_current_namespace},
    {"dedup_and_numbering", test_dedup_and_numbering},
    {"untouched", test_untouched},
    {"temp_views_local", test_temp_views_local},
    {"tvfs", test_tvfs},
    {"quoting_and_comments", test_quoting_and_comments},
    {"nested", test_nested},
    {"expressions", test_expressions},
    {"wide_literals", test_wide_literals},
    {"errors", test_errors},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
