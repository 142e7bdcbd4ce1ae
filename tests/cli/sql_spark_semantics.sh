#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` answers as Spark 3.5 does where SQLite would answer otherwise
# (src/sql/exec_spark.c, parser.c, print.c; issue #22). Every expected value is
# what Spark 3.5 prints (spark.sql.ansi.enabled=false), as recorded by the
# differential corpus tests/peers/sql_corpus/*.sql.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
E() { "$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "$1" 2>&1; }
Q() { "$FLOE_BIN" sql --quiet --warehouse "$T/wh" --format csv -c "$1" 2>&1 | tail -n +2 | tr '\n' ' '; }

eq "division is a double" "$(Q "SELECT 7/2, -7/2, 6/3, 1/0, 2 * 3 / 4")" "3.5,-3.5,2.0,,1.5 "
eq "div is integral" "$(Q "SELECT 7 div 2, -7 div 2, 5 div 0")" "3,-3, "
eq "booleans print true/false" "$(Q "SELECT true, 1 = 1 AS a, NULL = 1 AS b, 1 < 0 c, 2 IN (1, 2), NULL IS NULL")" \
  "true,true,,false,true,true "
eq "CASE over a comparison is not a boolean" "$(Q "SELECT CASE WHEN 1 > 0 THEN 5 END")" "5 "
eq "LIKE is case-sensitive" "$(Q "SELECT 'Apple' LIKE 'a%', 'apple' LIKE 'a%', 'abc' LIKE 'a_c', 'abbc' LIKE 'a_c'")" \
  "false,true,true,false "
eq "LIKE _ is one character" "$(Q "SELECT 'héllo' LIKE 'h_llo'")" "true "
eq "ILIKE" "$(Q "SELECT 'Apple' ILIKE 'a%', 'xyz' ILIKE 'A%'")" "true,false "
eq "LIKE ANY" "$(Q "SELECT 'banana' LIKE ANY ('a%', 'b%'), 'cherry' LIKE ANY ('a%', 'b%')")" "true,false "
eq "LIKE ALL" "$(Q "SELECT 'abc' LIKE ALL ('a%', '%c'), 'abd' LIKE ALL ('a%', '%c')")" "true,false "
eq "NOT LIKE ANY" "$(Q "SELECT 'abc' NOT LIKE ANY ('a%', 'x%'), 'abc' NOT LIKE ANY ('a%', '%c')")" "true,false "
eq "LIKE ANY with NULL" "$(Q "SELECT 'a' LIKE ANY ('x%', NULL), 'a' LIKE ANY ('a%', NULL)")" ",true "
eq "ILIKE ANY" "$(Q "SELECT 'Banana' ILIKE ANY ('x%', 'B%')")" "true "
eq "RLIKE is case-sensitive" "$(Q "SELECT 'Apple' RLIKE '^a', 'apple' RLIKE '^a', 'abc123' REGEXP '[0-9]+'")" \
  "false,true,true "
eq "try_cast" "$(Q "SELECT try_cast('abc' AS INT), try_cast('42' AS INT)")" ",42 "
eq "CAST text to int without ANSI" "$(Q "SELECT CAST('abc' AS INT), CAST('12abc' AS INT), CAST(' 12 ' AS INT), CAST('1.9' AS INT)")" \
  ",,12,1 "
eq "CAST wraps integers" "$(Q "SELECT CAST(3000000000 AS INT), CAST(40000 AS SMALLINT), CAST(200 AS TINYINT)")" \
  "-1294967296,-25536,-56 "
eq "CAST double to int truncates" "$(Q "SELECT CAST(1.9 AS INT), CAST(-1.9 AS INT)")" "1,-1 "
eq "CAST text to double" "$(Q "SELECT CAST('x1' AS DOUBLE), CAST('1.5e2' AS DOUBLE)")" ",150.0 "
eq "CAST to boolean" "$(Q "SELECT CAST('true' AS BOOLEAN), CAST('no' AS BOOLEAN), CAST('x' AS BOOLEAN), CAST(0 AS BOOLEAN), CAST(5 AS BOOLEAN)")" \
  "true,false,,false,true "
eq "CAST to date" "$(Q "SELECT CAST('2024-02-29' AS DATE), CAST('2024-02-30' AS DATE), CAST('hello' AS DATE), CAST(TIMESTAMP'2024-01-15 10:30:00' AS DATE)")" \
  "2024-02-29,,,2024-01-15 "
eq "CAST to timestamp" "$(Q "SELECT CAST(DATE'2024-01-15' AS TIMESTAMP), CAST('nope' AS TIMESTAMP)")" "2024-01-15 00:00:00, "
eq "range(n)" "$(Q "SELECT * FROM range(3)")" "0 1 2 "
eq "range(start, end, step)" "$(Q "SELECT id FROM range(0, 10, 3)")" "0 3 6 9 "
eq "range with a negative step" "$(Q "SELECT id FROM range(5, 0, -2)")" "5 3 1 "
eq "range joined" "$(Q "SELECT r.id + 1 FROM range(2) AS r JOIN range(1, 3) s ON s.id = r.id")" "2 "
eq "sequence" "$(Q "SELECT size(sequence(1, 5)), size(sequence(1, 10, 3)), sequence(5, 1)[0]")" "5,4,5 "

# TIMESTAMP AS OF with a constant expression (Spark evaluates it once)
"$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "CREATE NAMESPACE s; CREATE TABLE s.tt (id INT); INSERT INTO s.tt VALUES (1), (2)" >/dev/null
eq "TIMESTAMP AS OF now + 1 day" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF current_timestamp() + INTERVAL 1 DAY")" "2 "
eq "FOR SYSTEM_TIME AS OF with intervals" "$(Q "SELECT count(*) FROM s.tt FOR SYSTEM_TIME AS OF now() + INTERVAL 2 HOURS - INTERVAL '30' MINUTES")" "2 "
has "TIMESTAMP AS OF before the first snapshot" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF current_timestamp() - INTERVAL 1000 DAYS")" \
  "IllegalArgumentException: Cannot find a snapshot older than"
has "TIMESTAMP AS OF literal minus interval" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF TIMESTAMP '2000-01-08 00:00:00' - INTERVAL 1 WEEK")" \
  "Cannot find a snapshot older than 2000-01-01T00:00"
has "TIMESTAMP AS OF with a month interval" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF TIMESTAMP '2000-03-31 00:00:00' - INTERVAL 1 MONTH")" \
  "Cannot find a snapshot older than 2000-02-29T00:00"

# SHOW TBLPROPERTIES (Spark: key, value sorted by key; Iceberg adds current-snapshot-id,
# format and format-version)
"$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "CREATE TABLE s.p (id INT) TBLPROPERTIES ('k' = 'v')" >/dev/null
eq "SHOW TBLPROPERTIES" "$(Q "SHOW TBLPROPERTIES s.p")" "current-snapshot-id,none format,iceberg/parquet format-version,2 k,v "
eq "SHOW TBLPROPERTIES key" "$(Q "SHOW TBLPROPERTIES s.p ('k')")" "k,v "
eq "SHOW TBLPROPERTIES missing key" "$(Q "SHOW TBLPROPERTIES s.p ('nope')")" "nope,Table local.s.p does not have property: nope "
has "SHOW TBLPROPERTIES without a table" "$(E "SHOW TBLPROPERTIES s.nope")" "NoSuchTableException"

# a table named like a metadata table (Spark loads the whole name as a table first)
eq "table db.history" "$(Q "CREATE NAMESPACE db; CREATE TABLE db.history (id INT); INSERT INTO db.history VALUES (1), (2); DELETE FROM db.history WHERE id = 1; SELECT * FROM db.history")" "2 "
eq "metadata table history still" "$(Q "SELECT count(*) FROM s.p.history")" "0 "

# the syntax tree (src/sql/parser.c, print.c): Spark 3.5's answers, as the
# differential corpus (tests/peers/sql_corpus/08_syntax.sql) records them
"$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "CREATE TABLE s.u (id INT, grp STRING); INSERT INTO s.u VALUES (1, 'a'), (2, 'a'), (4, 'b'), (7, NULL)" >/dev/null
eq "LEFT SEMI JOIN" "$(Q "SELECT u.id FROM s.u u LEFT SEMI JOIN s.tt t ON u.id = t.id ORDER BY u.id")" "1 2 "
eq "LEFT ANTI JOIN" "$(Q "SELECT id FROM s.u u ANTI JOIN s.tt t ON u.id = t.id ORDER BY id")" "4 7 "
eq "count(DISTINCT a, b)" "$(Q "SELECT count(DISTINCT grp, id) FROM s.u")" "3 "
eq "INTERSECT binds tighter than UNION" "$(Q "SELECT count(*) FROM (SELECT id FROM s.u UNION SELECT id FROM s.tt INTERSECT SELECT 3)")" "4 "
eq "CTE named year, alias partition" "$(Q "WITH year AS (SELECT 1 AS partition) SELECT partition FROM year")" "1 "
eq "precedence" "$(Q "SELECT 1 + 2 * 3, 1 + 2 || 'x', 6 & 3 | 8, 5 ^ 3, NOT 1 = 2")" "7,3x,10,6,true "
eq "string escapes" "$(Q "SELECT 'it\\'s', 'it''s', 'a' 'b', '\\u00e9'")" "it's,its,ab,é "
eq "doubles print as Spark" "$(Q "SELECT 1.5D, 2D, 1e20, 1e-5, 12345678.9D")" "1.5,2.0,1.0E20,1.0E-5,1.23456789E7 "
eq "VALUES as a relation" "$(Q "SELECT sum(x) FROM VALUES (1), (2) AS v(x)")" "3 "
eq "syntax error as Spark prints it" "$(E "SELECT 1 FROM s.u WHERE" | head -1)" \
  "ParseException: [PARSE_SYNTAX_ERROR] Syntax error at or near end of input.(line 1, pos 23)"
# docs/sql.md "Types": the binder's example (also the corpus case doc_types_example)
eq "binder types" "$(Q "SELECT 12.50 AS a, 1.10 + 2.20 AS b, 2147483647 + 1 AS c, typeof(1.5) AS d, round(2.5) AS e, avg(CAST(x AS DECIMAL(4,2))) AS f FROM VALUES (1.25), (2.50) AS v(x)")" \
  "12.50,3.30,-2147483648,\"decimal(2,1)\",3,1.875000 "
eq "window ORDER BY" "$(Q "SELECT id, row_number() OVER (ORDER BY id DESC) FROM s.u ORDER BY id")" "1,4 2,3 4,2 7,1 "
# format_number: half-even on the exact value (a double's binary value, a
# decimal's digits), the sign kept on a rounded zero, NULL for d < 0
eq "format_number" "$(Q "SELECT format_number(1234567.891, 2), format_number(0.125d, 2), format_number(CAST(1.015 AS DECIMAL(4,3)), 2), format_number(-0.004, 2), format_number(12345, 1), format_number(1, -1)")" \
  '"1,234,567.89",0.12,1.02,-0.00,"12,345.0", '
eq "format_number of a wide decimal" "$(Q "SELECT format_number(CAST('123456789012345678.125' AS DECIMAL(21,3)), 2)")" \
  '"123,456,789,012,345,678.12" '
eq "format_string" "$(Q "SELECT format_string('%d-%s', 5, 'x'), format_string('%5.2f|%-4s|%04d|%x|%,d|%S|%b|%%|%2\$s', 3.14159d, 'ab', 7, 255, 1234567, 'hi', NULL)")" \
  '5-x," 3.14|ab  |0007|ff|1,234,567|HI|false|%|ab" '
has "format_string: a double for %d" "$(E "SELECT format_string('%d', 1.5d)")" "d != java.lang.Double"
eq "collect_list and collect_set leave NULLs out" "$(Q "SELECT size(collect_list(x)), size(collect_set(x)), size(collect_list(x) FILTER (WHERE x > 1)) FROM VALUES (1), (2), (NULL), (2), (3) AS t(x)")" \
  "4,3,3 "

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
