/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statement structs for every statement form of the dialect beyond the
 * seed's: namespaces, CREATE TABLE with every type and transform, CTAS,
 * ALTER TABLE (properties, rename, branch/tag DDL), SET/RESET/USE, SHOW,
 * INSERT/DELETE/UPDATE/MERGE, CALL argument forms, views, and their errors.
 */
#include "dump.h"

static void test_namespaces(void)
{
    EXPECT_PARSE("CREATE DATABASE db1", NULL, "CREATE_NAMESPACE\nns: db1\n");
    EXPECT_PARSE("CREATE SCHEMA IF NOT EXISTS local.a.b COMMENT 'c' LOCATION '/w/a' "
                 "WITH DBPROPERTIES ('k' = 'v')",
                 NULL,
                 "CREATE_NAMESPACE\nns: a b\nflags: if_not_exists\ncomment: c\nlocation: /w/a\n"
                 "prop: k=v\n");
    EXPECT_PARSE("DROP NAMESPACE IF EXISTS shop CASCADE", NULL,
                 "DROP_NAMESPACE\nns: shop\nflags: if_exists cascade\n");
    EXPECT_PARSE("DROP DATABASE ice.shop", "ice", "DROP_NAMESPACE\nns: shop\n");
    EXPECT_PARSE("SHOW NAMESPACES", NULL, "SHOW_NAMESPACES\n");
    EXPECT_PARSE("SHOW DATABASES IN a", NULL, "SHOW_NAMESPACES\nns: a\n");
    EXPECT_PARSE("SHOW TABLES", NULL, "SHOW_TABLES\n");
    EXPECT_PARSE("SHOW TABLES IN ice.shop", "ice", "SHOW_TABLES\nns: shop\n");
    EXPECT_PARSE("SHOW TABLES FROM shop", "ice", "SHOW_TABLES\nns: shop\n");
    EXPECT_PARSE("USE shop", "ice", "USE\nns: shop\n");
    EXPECT_PARSE("USE NAMESPACE ice.shop", "ice", "USE\nns: shop\n");
    EXPECT_PARSE("USE ice", "ice", "USE\nns:\n");
}

static void test_create_table(void)
{
    EXPECT_PARSE("CREATE TABLE IF NOT EXISTS s.e (id INT NOT NULL COMMENT 'the id', "
                 "ts TIMESTAMP, tn TIMESTAMP_NTZ, sm SMALLINT, ti TINYINT, b BOOLEAN, f FLOAT, "
                 "r REAL, d DOUBLE, v VARCHAR(10), c CHAR(3), bin BINARY, l LONG, i INTEGER, "
                 "bi bigint, st string, dt date, dc decimal(38, 0), dd DECIMAL) "
                 "USING ICEBERG "
                 "PARTITIONED BY (years(ts), months(ts), days(ts), hours(ts), bucket(16, id), "
                 "truncate(4, v), sm, truncate(st, 2)) "
                 "LOCATION 's3://b/p' COMMENT 'tbl' "
                 "TBLPROPERTIES ('format-version'='2', write.format.default = 'parquet', "
                 "'n' = 5, 'flag' = true)",
                 NULL,
                 "CREATE_TABLE\ntarget: local.s.e\nflags: if_not_exists\n"
                 "col: id int not_null comment=the id\ncol: ts timestamptz\ncol: tn timestamp\n"
                 "col: sm int\ncol: ti int\ncol: b boolean\ncol: f float\ncol: r float\n"
                 "col: d double\ncol: v string\ncol: c string\ncol: bin binary\ncol: l long\n"
                 "col: i int\ncol: bi long\ncol: st string\ncol: dt date\n"
                 "col: dc decimal(38,0)\ncol: dd decimal(10,0)\n"
                 "using: ICEBERG\n"
                 "part: year(ts)\npart: month(ts)\npart: day(ts)\npart: hour(ts)\n"
                 "part: bucket[16](id)\npart: truncate[4](v)\npart: identity(sm)\n"
                 "part: truncate[2](st)\n"
                 "location: s3://b/p\ncomment: tbl\n"
                 "prop: format-version=2\nprop: write.format.default=parquet\nprop: n=5\n"
                 "prop: flag=true\n");
    EXPECT_PARSE("CREATE TABLE s.c USING iceberg PARTITIONED BY (d) AS "
                 "SELECT * FROM s.o VERSION AS OF 3",
                 NULL,
                 "CREATE_TABLE\ntarget: local.s.c\nusing: iceberg\npart: identity(d)\n"
                 "query: SELECT * FROM \"floe_ref_1\" AS \"o\"\n"
                 "ref: floe_ref_1 = local.s.o @snapshot:3\n");
    EXPECT_PARSE("CREATE OR REPLACE TABLE s.c (a int)", NULL,
                 "CREATE_TABLE\ntarget: local.s.c\nflags: or_replace\ncol: a int\n");
    EXPECT_PARSE("REPLACE TABLE s.c AS SELECT 1 AS a", NULL,
                 "CREATE_TABLE\ntarget: local.s.c\nflags: or_replace\n"
                 "query: SELECT 1 AS a\n");
    /* column types as Spark's Iceberg catalog maps them */
    floe_arena *a = floe__arena_new(0);
    FT_EQ_STR(floe__sql_iceberg_type(a, "BIGINT"), "long");
    FT_EQ_STR(floe__sql_iceberg_type(a, "decimal( 9 , 3 )"), "decimal(9,3)");
    FT_EQ_STR(floe__sql_iceberg_type(a, "timestamp"), "timestamptz");
    FT_EQ_STR(floe__sql_iceberg_type(a, "TIMESTAMP_NTZ"), "timestamp");
    FT_CHECK(floe__sql_iceberg_type(a, "decimal(39,0)") == NULL);
    FT_CHECK(floe__sql_iceberg_type(a, "decimal(5,6)") == NULL);
    FT_CHECK(floe__sql_iceberg_type(a, "varchar") == NULL);
    FT_CHECK(floe__sql_iceberg_type(a, "int(3)") == NULL);
    FT_CHECK(floe__sql_iceberg_type(a, "uuid") == NULL);
    floe__arena_free(a);
}

static void test_create_table_errors(void)
{
    EXPECT_ERROR("CREATE TABLE t (a ARRAY<>)", FLOE_EINVALID, 24, "expected a column type");
    EXPECT_ERROR("CREATE TABLE t (a MAP<STRING>)", FLOE_EINVALID, 28, "expected ','");
    EXPECT_ERROR("CREATE TABLE t (a ARRAY<FOO>)", FLOE_EUNSUPPORTED, 24,
                 "unsupported column type FOO");
    EXPECT_ERROR("CREATE TABLE t (a LIST<INT>)", FLOE_EUNSUPPORTED, 18, "LIST<...>");
    EXPECT_ERROR("CREATE TABLE t (a FOO)", FLOE_EUNSUPPORTED, 18, "unsupported column type FOO");
    EXPECT_ERROR("CREATE TABLE t (a DECIMAL(40,2))", FLOE_EUNSUPPORTED, 18, "DECIMAL(40,2)");
    EXPECT_ERROR("CREATE TABLE t (a INT) USING parquet", FLOE_EUNSUPPORTED, 29, "USING parquet");
    EXPECT_ERROR("CREATE TABLE t (a INT) PARTITIONED BY (foo(a))", FLOE_EUNSUPPORTED, 39,
                 "partition transform");
    EXPECT_ERROR("CREATE TABLE t (a INT) PARTITIONED BY (bucket(0, a))", FLOE_EINVALID, 39,
                 "invalid bucket width 0");
    EXPECT_ERROR("CREATE TABLE t (a INT) PARTITIONED BY (b STRING)", FLOE_EUNSUPPORTED, 41,
                 "Hive-style");
    /* DEFAULT parses; the executor refuses it with Spark's message */
    EXPECT_ERROR("CREATE TABLE t (a INT DEFAULT)", FLOE_EINVALID, 29, "expected a literal");
    EXPECT_ERROR("CREATE TABLE t (a INT GENERATED ALWAYS AS (1))", FLOE_EUNSUPPORTED, 22,
                 "GENERATED");
    EXPECT_ERROR("CREATE TABLE t", FLOE_EINVALID, 14, "expected a column list");
    EXPECT_ERROR("CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1", FLOE_EINVALID, 23,
                 "both IF NOT EXISTS and REPLACE");
    EXPECT_ERROR("CREATE VIEW s.v (a COMMENT) AS SELECT 1", FLOE_EINVALID, 26, "string");
    EXPECT_ERROR("CREATE VIEW s.v SELECT 1", FLOE_EINVALID, 16, "expected AS");
    EXPECT_ERROR("CREATE INDEX i ON t(a)", FLOE_EUNSUPPORTED, 7, "CREATE of this kind");
}

static void test_alter(void)
{
    EXPECT_PARSE("ALTER TABLE s.t SET TBLPROPERTIES ('a'='1', 'b' '2')", NULL,
                 "SET_PROPS\ntarget: local.s.t\nprop: a=1\nprop: b=2\n");
    EXPECT_PARSE("ALTER TABLE s.t UNSET TBLPROPERTIES ('a', 'b.c')", NULL,
                 "UNSET_PROPS\ntarget: local.s.t\nprop: a\nprop: b.c\n");
    EXPECT_PARSE("ALTER TABLE s.t UNSET TBLPROPERTIES IF EXISTS (x.y)", NULL,
                 "UNSET_PROPS\ntarget: local.s.t\nflags: if_exists\nprop: x.y\n");
    EXPECT_PARSE("ALTER TABLE local.s.t RENAME TO s.u", NULL,
                 "RENAME_TABLE\ntarget: local.s.t\nnew: local.s.u\n");
    EXPECT_PARSE("ALTER TABLE s.t CREATE BRANCH IF NOT EXISTS b1", NULL,
                 "CREATE_REF\ntarget: local.s.t\nflags: if_not_exists\nbranch: b1 op=create\n");
    EXPECT_PARSE("ALTER TABLE s.t CREATE OR REPLACE BRANCH b1 AS OF VERSION 7 RETAIN 7 DAYS "
                 "WITH SNAPSHOT RETENTION 3 SNAPSHOTS 2 HOURS",
                 NULL,
                 "CREATE_REF\ntarget: local.s.t\nbranch: b1 op=create_or_replace snapshot=7 "
                 "max_ref_age_ms=604800000 min_snapshots=3 max_snapshot_age_ms=7200000\n");
    EXPECT_PARSE("ALTER TABLE s.t REPLACE BRANCH b1 AS OF VERSION 8", NULL,
                 "CREATE_REF\ntarget: local.s.t\nbranch: b1 op=replace snapshot=8\n");
    EXPECT_PARSE("ALTER TABLE s.t CREATE BRANCH b2 WITH SNAPSHOT RETENTION 30 MINUTES", NULL,
                 "CREATE_REF\ntarget: local.s.t\nbranch: b2 op=create "
                 "max_snapshot_age_ms=1800000\n");
    EXPECT_PARSE("ALTER TABLE s.t CREATE BRANCH b3 WITH SNAPSHOT RETENTION 5 SNAPSHOTS", NULL,
                 "CREATE_REF\ntarget: local.s.t\nbranch: b3 op=create min_snapshots=5\n");
    EXPECT_PARSE("ALTER TABLE s.t CREATE BRANCH b4 RETAIN 12 HOURS", NULL,
                 "CREATE_REF\ntarget: local.s.t\nbranch: b4 op=create max_ref_age_ms=43200000\n");
    EXPECT_PARSE("ALTER TABLE s.t REPLACE TAG `v-1` AS OF VERSION 9", NULL,
                 "CREATE_REF\ntarget: local.s.t\ntag: v-1 op=replace snapshot=9\n");
    EXPECT_PARSE("ALTER TABLE s.t CREATE OR REPLACE TAG t1 RETAIN 1 MINUTES", NULL,
                 "CREATE_REF\ntarget: local.s.t\ntag: t1 op=create_or_replace "
                 "max_ref_age_ms=60000\n");
    EXPECT_PARSE("ALTER TABLE s.t DROP TAG IF EXISTS `close-2026-09`", NULL,
                 "DROP_REF\ntarget: local.s.t\nflags: if_exists\ntag: close-2026-09\n");
    EXPECT_PARSE("ALTER TABLE s.t DROP BRANCH audit", NULL,
                 "DROP_REF\ntarget: local.s.t\nbranch: audit\n");
    EXPECT_ERROR("ALTER TABLE s.t CREATE TAG t WITH SNAPSHOT RETENTION 1 SNAPSHOTS", FLOE_EINVALID,
                 29, "tags have no snapshot retention");
    EXPECT_ERROR("ALTER TABLE s.t CREATE BRANCH b RETAIN 3 WEEKS", FLOE_EINVALID, 41,
                 "expected DAYS, HOURS or MINUTES");
    EXPECT_ERROR("ALTER TABLE s.t CREATE BRANCH b WITH SNAPSHOT RETENTION 0 SNAPSHOTS",
                 FLOE_EINVALID, 56, "at least 1");
    EXPECT_ERROR("ALTER TABLE s.t CREATE BRANCH b RETAIN 999999999999999 DAYS", FLOE_EINVALID, 39,
                 "out of range");
    EXPECT_PARSE("ALTER TABLE s.t ADD COLUMN x INT", NULL, "ALTER_SCHEMA\ntarget: local.s.t\n");
    EXPECT_PARSE("ALTER TABLE s.t ALTER COLUMN x SET DEFAULT 1", NULL,
                 "ALTER_SCHEMA\ntarget: local.s.t\n");
    EXPECT_ERROR("ALTER TABLE s.t ALTER COLUMN x SET DEFAULT", FLOE_EINVALID, 42,
                 "expected a literal");
    EXPECT_ERROR("ALTER TABLE s.t CLUSTER BY (x)", FLOE_EUNSUPPORTED, 16, "ALTER TABLE");
    EXPECT_ERROR("ALTER TABLE s.t REPLACE BRANCH IF NOT EXISTS b", FLOE_EINVALID, 31,
                 "IF NOT EXISTS is allowed only with CREATE");
}

static void test_session(void)
{
    EXPECT_PARSE("SET spark.wap.id = abc123", NULL, "SET\nkey: spark.wap.id\nvalue: abc123\n");
    EXPECT_PARSE("SET spark.wap.branch = 'audit'", NULL,
                 "SET\nkey: spark.wap.branch\nvalue: audit\n");
    EXPECT_PARSE("SET spark.wap.branch=audit", NULL, "SET\nkey: spark.wap.branch\nvalue: audit\n");
    EXPECT_PARSE("SET TIME ZONE 'America/New_York'", NULL,
                 "SET\nkey: spark.sql.session.timeZone\nvalue: America/New_York\n");
    EXPECT_PARSE("SET TIME ZONE LOCAL", NULL,
                 "SET\nkey: spark.sql.session.timeZone\nvalue: LOCAL\n");
    EXPECT_PARSE("SET cache.expiration-interval-ms = 30000", NULL,
                 "SET\nkey: cache.expiration-interval-ms\nvalue: 30000\n");
    EXPECT_PARSE("SET `odd key` = 'a b'", NULL, "SET\nkey: odd key\nvalue: a b\n");
    EXPECT_PARSE("SET spark.wap.id", NULL, "SET\nkey: spark.wap.id\n");
    EXPECT_PARSE("SET", NULL, "SET\n");
    EXPECT_PARSE("RESET", NULL, "RESET\n");
    EXPECT_PARSE("RESET spark.wap.branch", NULL, "RESET\nkey: spark.wap.branch\n");
    EXPECT_PARSE("REFRESH s.t", NULL, "REFRESH\ntarget: local.s.t\n");
    EXPECT_PARSE("DESC s.t", NULL, "DESCRIBE\ntarget: local.s.t\n");
    EXPECT_PARSE("DESCRIBE FORMATTED s.t.snapshots", NULL,
                 "DESCRIBE\ntarget: local.s.t meta:snapshots\nflags: extended\n");
    EXPECT_PARSE("EXPLAIN EXTENDED WITH c AS (SELECT 1) SELECT * FROM c", NULL,
                 "EXPLAIN\nflags: extended\nquery: WITH c AS (SELECT 1) SELECT * FROM c\n");
    EXPECT_ERROR("EXPLAIN DELETE FROM t", FLOE_EINVALID, 8, "expected a query");
    EXPECT_ERROR("SET = 1", FLOE_EINVALID, 4, "expected a key");
    EXPECT_ERROR("GRANT SELECT ON t TO u", FLOE_EUNSUPPORTED, 0, "unsupported: statement");
    EXPECT_ERROR("SHOW FUNCTIONS", FLOE_EUNSUPPORTED, 5, "SHOW of this kind");
    EXPECT_ERROR("DROP TABLE t PURGE extra", FLOE_EINVALID, 19, "unexpected text");
}

static void test_views(void)
{
    EXPECT_PARSE("CREATE TEMPORARY VIEW v AS SELECT * FROM s.t.branch_audit", NULL,
                 "CREATE_VIEW\nview: v\nquery: SELECT * FROM \"floe_ref_1\" AS \"branch_audit\"\n"
                 "ref: floe_ref_1 = local.s.t branch:audit\n");
    EXPECT_PARSE("CREATE OR REPLACE TEMP VIEW v (a, b) AS SELECT 1, 2", NULL,
                 "CREATE_VIEW\nflags: or_replace\nview: v\ncolumn: a\ncolumn: b\n"
                 "query: SELECT 1, 2\n");
    EXPECT_PARSE("CREATE GLOBAL TEMPORARY VIEW IF NOT EXISTS v AS SELECT 1", NULL,
                 "CREATE_VIEW\nflags: if_not_exists\nview: v\nquery: SELECT 1\n");
    EXPECT_PARSE("DROP VIEW IF EXISTS v", NULL,
                 "DROP_VIEW\ntarget: local.v\nflags: if_exists\nview: v\n");
    EXPECT_PARSE("DROP VIEW s.v", NULL, "DROP_VIEW\ntarget: local.s.v\n");
    /* Iceberg views: the target, column comments, COMMENT, TBLPROPERTIES */
    EXPECT_PARSE("CREATE OR REPLACE VIEW s.v (a COMMENT 'the a', b) COMMENT 'c' TBLPROPERTIES "
                 "('k'='1') AS SELECT x, y FROM s.t",
                 NULL,
                 "CREATE_VIEW\ntarget: local.s.v\nflags: or_replace\ncomment: c\nprop: k=1\n"
                 "query: SELECT x, y FROM \"floe_ref_1\" AS \"t\"\nref: floe_ref_1 = local.s.t\n");
    EXPECT_PARSE("CREATE VIEW IF NOT EXISTS v AS SELECT 1", NULL,
                 "CREATE_VIEW\ntarget: local.v\nflags: if_not_exists\nquery: SELECT 1\n");
    EXPECT_PARSE("SHOW VIEWS IN s LIKE 'v*'", NULL, "SHOW_VIEWS\nns: s\nkey: v*\n");
    EXPECT_PARSE("SHOW VIEWS", NULL, "SHOW_VIEWS\n");
}

static void test_insert(void)
{
    EXPECT_PARSE("INSERT INTO s.t VALUES (1, 'a', DATE '2026-09-20', NULL)", NULL,
                 "INSERT\ntarget: local.s.t\n"
                 "query: VALUES (1, 'a', '2026-09-20', NULL)\n");
    EXPECT_PARSE("INSERT INTO TABLE s.t (b, a) SELECT x, y FROM s.u WHERE z > 0", NULL,
                 "INSERT\ntarget: local.s.t\ncolumn: b\ncolumn: a\n"
                 "query: SELECT x, y FROM \"floe_ref_1\" AS \"u\" WHERE z > 0\n"
                 "ref: floe_ref_1 = local.s.u\n");
    EXPECT_PARSE("INSERT OVERWRITE s.t.branch_audit SELECT * FROM read_parquet('/in/x.parquet')",
                 NULL,
                 "INSERT\ntarget: local.s.t branch:audit\nflags: overwrite\n"
                 "query: SELECT * FROM \"floe_ref_1\" AS \"read_parquet\"\n"
                 "ref: floe_ref_1 = tvf:read_parquet ('/in/x.parquet')\n");
    EXPECT_PARSE("INSERT OVERWRITE TABLE s.t (SELECT 1)", NULL,
                 "INSERT\n"
      "target: local.s.t\n"
      "flags: overwrite\n"
      "query: SELECT 1\n");
    EXPECT_PARSE("INSERT INTO s.t WITH c AS (SELECT 1) SELECT * FROM c", NULL,
                 "INSERT\ntarget: local.s.t\nquery: WITH c AS (SELECT 1) SELECT * FROM c\n");
    EXPECT_ERROR("INSERT INTO s.t.snapshots VALUES (1)", FLOE_EINVALID, 12,
                 "cannot write to metadata table snapshots");
    EXPECT_ERROR("INSERT INTO s.t.tag_x VALUES (1)", FLOE_EINVALID, 12, "cannot write to tag x");
    EXPECT_ERROR("INSERT INTO s.t PARTITION (d='x') VALUES (1)", FLOE_EUNSUPPORTED, 16,
                 "PARTITION");
    EXPECT_ERROR("INSERT INTO s.t DEFAULT VALUES", FLOE_EINVALID, 16, "expected VALUES");
}

static void test_delete_update(void)
{
    EXPECT_PARSE("DELETE FROM s.t", NULL, "DELETE\ntarget: local.s.t\n");
    EXPECT_PARSE("DELETE FROM s.t AS x WHERE x.a IN (SELECT a FROM s.u VERSION AS OF 'b')", NULL,
                 "DELETE\ntarget: local.s.t\nalias: x\n"
                 "where: x.a IN (SELECT a FROM \"floe_ref_1\" AS \"u\")\n"
                 "ref: floe_ref_1 = local.s.u @ref:b\n");
    EXPECT_PARSE("UPDATE s.t.branch_b u SET u.a = a + 1, b = CASE WHEN c THEN 'x' ELSE 'y' END, "
                 "c = concat(c, 'z') WHERE d = DATE'2026-01-01'",
                 NULL,
                 "UPDATE\ntarget: local.s.t branch:b\nalias: u\nset: a = a + 1\n"
                 "set: b = CASE WHEN c THEN 'x' ELSE 'y' END\nset: c = ((c) || ('z'))\n"
                 "where: d = '2026-01-01'\n");
    EXPECT_PARSE("UPDATE s.t SET a = (SELECT max(a) FROM s.t.snapshots)", NULL,
                 "UPDATE\ntarget: local.s.t\n"
                 "set: a = (SELECT max(a) FROM \"floe_ref_1\" AS \"snapshots\")\n"
                 "ref: floe_ref_1 = local.s.t meta:snapshots\n");
    EXPECT_ERROR("UPDATE s.t SET a = WHERE b", FLOE_EINVALID, 19, "expected an expression");
    EXPECT_ERROR("UPDATE s.t SET a", FLOE_EINVALID, 16, "expected '='");
    EXPECT_ERROR("DELETE s.t", FLOE_EINVALID, 7, "expected FROM");
}

static void test_merge(void)
{
    EXPECT_PARSE(
        "MERGE INTO s.orders t USING (SELECT * FROM s.updates VERSION AS OF 5) s "
        "ON t.id = s.id "
        "WHEN MATCHED AND s.op = 'd' THEN DELETE "
        "WHEN MATCHED THEN UPDATE SET t.status = s.status, amount = CASE WHEN s.a > 0 THEN s.a "
        "ELSE 0 END "
        "WHEN NOT MATCHED AND s.op <> 'd' THEN INSERT (id, status) VALUES (s.id, upper(s.status)) "
        "WHEN NOT MATCHED BY SOURCE THEN DELETE",
        NULL,
        "MERGE\ntarget: local.s.orders\nalias: t\n"
        "source: SELECT * FROM \"floe_ref_1\" AS \"updates\"\nsource_alias: s\n"
        "on: t.id = s.id\n"
        "when matched and [s.op = 'd'] delete\n"
        "when matched update\nset: status = s.status\n"
        "set: amount = CASE WHEN s.a > 0 THEN s.a ELSE 0 END\n"
        "when not_matched and [s.op <> 'd'] insert\n"
        "insert: id = s.id\ninsert: status = upper(s.status)\n"
        "when not_matched_by_source delete\n"
        "ref: floe_ref_1 = local.s.updates @snapshot:5\n");
    EXPECT_PARSE("MERGE INTO s.orders USING s.updates ON orders.id = updates.id "
                 "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED BY TARGET THEN INSERT *",
                 NULL,
                 "MERGE\ntarget: local.s.orders\n"
                 "source: SELECT * FROM \"floe_ref_1\" AS \"updates\"\nsource_alias: updates\n"
                 "on: orders.id = updates.id\n"
                 "when matched update *\nwhen not_matched insert *\n"
                 "ref: floe_ref_1 = local.s.updates\n");
    EXPECT_PARSE("MERGE INTO s.o.branch_b AS t USING s.u VERSION AS OF 'x' AS src ON t.k = src.k "
                 "WHEN NOT MATCHED BY SOURCE AND t.k > 1 THEN UPDATE SET flag = true",
                 NULL,
                 "MERGE\n"
      "target: local.s.o branch:b\n"
      "alias: t\n"
      "source: SELECT * FROM \"floe_ref_1\" AS src\n"
      "source_alias: src\n"
      "on: t.k = src.k\n"
      "when not_matched_by_source and [t.k > 1] update\n"
      "set: flag = TRUE\n"
      "ref: floe_ref_1 = local.s.u @ref:x\n");
    /* column aliases of a derived source become a CTE column list */
    EXPECT_PARSE("MERGE INTO s.o t USING (VALUES (1, 'a'), (2, 'b')) AS s(id, \"v\") ON t.id = s.id "
                 "WHEN MATCHED THEN DELETE",
                 NULL,
                 "MERGE\ntarget: local.s.o\nalias: t\n"
                 "source: WITH \"__floe_cols\"(\"id\", \"v\") AS (VALUES (1, 'a'), (2, 'b')) "
                 "SELECT * FROM \"__floe_cols\"\nsource_alias: s\n"
                 "on: t.id = s.id\n"
                 "when matched delete\n");
    EXPECT_ERROR("MERGE INTO s.o t USING (VALUES (1)) AS s(id, 1) ON t.id = s.id WHEN MATCHED THEN "
                 "DELETE",
                 FLOE_EINVALID, 45, "expected");
    EXPECT_ERROR("MERGE INTO s.t USING s.u ON 1 = 1", FLOE_EINVALID, 33, "expected WHEN");
    EXPECT_ERROR("MERGE INTO s.t USING s.u ON 1 = 1 WHEN NOT MATCHED THEN DELETE", FLOE_EINVALID,
                 56, "WHEN NOT MATCHED allows only INSERT");
    EXPECT_ERROR("MERGE INTO s.t USING s.u ON 1 = 1 WHEN MATCHED THEN INSERT *", FLOE_EINVALID, 52,
                 "INSERT is allowed only WHEN NOT MATCHED");
    EXPECT_ERROR("MERGE INTO s.t USING s.u ON 1 WHEN NOT MATCHED THEN INSERT (a, b) VALUES (1)",
                 FLOE_EINVALID, 75, "2 columns but 1 values");
    EXPECT_ERROR("MERGE INTO s.t USING s.u WHEN MATCHED THEN DELETE", FLOE_EINVALID, 21,
                 "expected USING <source> ON");
}

static void test_call(void)
{
    EXPECT_PARSE("CALL local.system.ROLLBACK_TO_TIMESTAMP(table => 's.t', "
                 "timestamp => TIMESTAMP '2026-09-20 01:00:00')",
                 NULL,
                 "CALL\ncall: local.system.rollback_to_timestamp\narg: table => 's.t'\n"
                 "arg: timestamp => ts:2026-09-20 01:00:00.000000\n");
    EXPECT_PARSE("CALL system.add_files(table => 's.t', source_table => '`parquet`.`/path`', "
                 "partition_filter => map('part', 'a', 'p2', 1), arr => array(1, -2, 3.5, 1e2), "
                 "d => DATE '2026-09-20', flag => false, n => NULL, big => 9223372036854775807, "
                 "huge => 9223372036854775808)",
                 NULL,
                 "CALL\ncall: local.system.add_files\narg: table => 's.t'\n"
                 "arg: source_table => '`parquet`.`/path`'\n"
                 "arg: partition_filter => map('part', 'a', 'p2', 1)\n"
                 "arg: arr => array(1, -2, num:3.5, num:1e2)\n"
                 "arg: d => date:2026-09-20\narg: flag => false\narg: n => NULL\n"
                 "arg: big => 9223372036854775807\narg: huge => num:9223372036854775808\n");
    EXPECT_PARSE("CALL system.publish_changes('s.t', 'wap-1')", NULL,
                 "CALL\ncall: local.system.publish_changes\narg: 's.t'\narg: 'wap-1'\n");
    EXPECT_PARSE("CALL system.remove_orphan_files()", NULL,
                 "CALL\ncall: local.system.remove_orphan_files\n");
    EXPECT_PARSE("CALL system.cherrypick_snapshot(`table` => 's.t', snapshot_id => -0)", NULL,
                 "CALL\ncall: local.system.cherrypick_snapshot\narg: table => 's.t'\n"
                 "arg: snapshot_id => 0\n");
    EXPECT_ERROR("CALL system.x(a => 1, 2)", FLOE_EINVALID, 22,
                 "Named and positional arguments cannot be mixed");
    EXPECT_ERROR("CALL system.x(1, a => 2)", FLOE_EINVALID, 17,
                 "Named and positional arguments cannot be mixed");
    EXPECT_ERROR("CALL system.x(a => 1, A => 2)", FLOE_EINVALID, 22,
                 "Duplicate procedure argument: A");
    EXPECT_ERROR("CALL other.system.x()", FLOE_ENOTFOUND, 5, "Catalog 'other' not found");
    EXPECT_ERROR("CALL x()", FLOE_EINVALID, 5, "expected [catalog.]system.<procedure>");
    EXPECT_ERROR("CALL foo.x()", FLOE_EINVALID, 5, "expected [catalog.]system.<procedure>");
    EXPECT_ERROR("CALL system.x(a => b)", FLOE_EINVALID, 19, "expected a literal");
    EXPECT_ERROR("CALL system.x(a => 1 + 2)", FLOE_EINVALID, 21, "expected ')'");
    EXPECT_ERROR("CALL system.x(map(1))", FLOE_EINVALID, 14, "even number");
    EXPECT_ERROR("CALL system.x(DATE '2026-1-32')", FLOE_EINVALID, 19, "invalid DATE literal");
}

static const ft_case cases[] = {
    {"namespaces", test_namespaces},
    {"create_table", test_create_table},
    {"create_table_errors", test_create_table_errors},
    {"alter", test_alter},
    {"session", test_session},
    {"views", test_views},
    {"insert", test_insert},
    {"delete_update", test_delete_update},
    {"merge", test_merge},
    {"call", test_call},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
