#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` table output of nested values in Spark's show() form (issue #22):
# arrays [1, 2], strings unquoted, NULL inside, maps {k -> v}, structs by
# position {1, a}, for literals, table columns (straight and through
# subqueries) and function results; --format json keeps JSON. Then Spark's
# array and map functions (fn_array.c): size(NULL) = -1, array_contains of a
# NULL array, element_at, map_keys/values, array_join, sorting, set
# functions, slice, flatten, arrays_zip, concat_ws of an array;
# collect_list/collect_set without NULLs. Expected
# values are Spark 3.5's (Dataset.show, spark.sql.ansi.enabled=false).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
# table output's data rows (each result set's), cells joined by '|' (no header, no box)
S() {
    F -c "$1" | awk '/^\+/ { n++; next } n % 3 == 2 { sub(/^\|/, ""); sub(/\|$/, ""); print }' |
        sed 's/ *|/|/g; s/ *$//'
}

eq "array literals" "$(S "SELECT array(1, 2, 3), array('a', 'b'), array(1, NULL), array(array(1), array(2, 3)), array()")" \
   "[1, 2, 3]|[a, b]|[1, NULL]|[[1], [2, 3]]|[]"
eq "map and struct literals" "$(S "SELECT map('a', 1), map('k', 1, 'z', -1), named_struct('x', 1, 'y', 'a'), struct(2, NULL)")" \
   "{a -> 1}|{k -> 1, z -> -1}|{1, a}|{2, NULL}"
eq "leaves by type" "$(S "SELECT array(1.5D, 2D), array(true, false), array(DATE '2026-01-02'), array(TIMESTAMP '2026-01-02 03:04:05')")" \
   "[1.5, 2.0]|[true, false]|[2026-01-02]|[2026-01-02 03:04:05]"
eq "nested inside" "$(S "SELECT array(named_struct('a', 1, 'm', map('k', array(2, 3)))), map('x', named_struct('p', 'q'))")" \
   "[{1, {k -> [2, 3]}}]|{x -> {q}}"
eq "sequence and split" "$(S "SELECT sequence(1, 5), sequence(1, 10, 3), split('a,b,c', ',')")" \
   "[1, 2, 3, 4, 5]|[1, 4, 7, 10]|[a, b, c]"
eq "json keeps json" "$(F --format json -c "SELECT array('a', 'b') AS a, map('k', 1) AS m, named_struct('x', 1) AS s")" \
   '{"a":["a","b"],"m":{"k":1},"s":{"x":1}}'

F -c "CREATE NAMESPACE n; CREATE TABLE n.t (id INT, arr ARRAY<INT>, m MAP<STRING, INT>,
  st STRUCT<x: INT, y: STRING>, deep ARRAY<STRUCT<a: INT, b: MAP<STRING, INT>>>);
INSERT INTO n.t VALUES
  (1, array(1, 2, 3), map('k', 1, 'z', -1), named_struct('x', 1, 'y', 'one'),
   array(named_struct('a', 1, 'b', map('k', 2)))),
  (2, array(), map('k', 2), named_struct('x', 2, 'y', NULL), array()),
  (3, NULL, NULL, NULL, NULL)" >/dev/null
TABLE_ROWS="1|[1, 2, 3]|{k -> 1, z -> -1}|{1, one}|[{1, {k -> 2}}]
2|[]|{k -> 2}|{2, NULL}|[]
3|NULL|NULL|NULL|NULL"
eq "table columns" "$(S "SELECT * FROM n.t ORDER BY id")" "$TABLE_ROWS"
eq "through a subquery" "$(S "SELECT * FROM (SELECT id, arr, m, st, deep FROM n.t) ORDER BY id")" "$TABLE_ROWS"
eq "through a CTE" "$(S "WITH c AS (SELECT id, st, m FROM n.t) SELECT st, m FROM c ORDER BY id")" \
   "{1, one}|{k -> 1, z -> -1}
{2, NULL}|{k -> 2}
NULL|NULL"
eq "CTE and temporary view columns" "$(S "WITH c AS (SELECT map('k', 1) AS m) SELECT m FROM c")|$(S "CREATE TEMP VIEW v AS SELECT array(1, 2) AS a, named_struct('x', 1, 'y', 'b') AS s; SELECT a, s, x.s FROM v AS x; CREATE OR REPLACE TEMP VIEW v AS SELECT map('a', 1) AS a; SELECT a FROM v")" \
   "{k -> 1}|[1, 2]|{1, b}|{1, b}
{a -> 1}"
eq "parts of columns" "$(S "SELECT deep[0], deep[0].b, map_keys(m), map_values(m) FROM n.t WHERE id = 1")" \
   "{1, {k -> 2}}|{k -> 2}|[k, z]|[1, -1]"
eq "size of columns" "$(S "SELECT id, size(arr), size(m) FROM n.t ORDER BY id")" "1|3|2
2|0|1
3|-1|-1"
eq "array_contains of a NULL column" "$(S "SELECT id, array_contains(arr, 2) FROM n.t ORDER BY id")" "1|true
2|false
3|NULL"

# ---- functions
eq "size and array_contains" "$(S "SELECT size(NULL), cardinality(array(1)), size(map('a', 1, 'b', 2)), array_contains(CAST(NULL AS ARRAY<INT>), 1), array_contains(array(1, NULL), 2), array_contains(array(1, NULL), 1)")" \
   "-1|1|2|NULL|NULL|true"
eq "element_at" "$(S "SELECT element_at(array(10, 20, 30), 1), element_at(array(10, 20, 30), -1), element_at(array(10, 20), 5), element_at(array(10, 20), -3), element_at(map('a', 1, 'b', 2), 'b'), element_at(map('a', 1), 'z')")" \
   "10|30|NULL|NULL|2|NULL"
out=$(F -c "SELECT element_at(array(1), 0)" 2>&1) && bad "element_at index 0 is an error" || has "element_at 0" "$out" "INVALID_INDEX_OF_ZERO"
eq "map_keys map_values array_join" "$(S "SELECT map_keys(map('a', 1, 'b', 2)), map_values(map('a', 1, 'b', 2)), array_join(array('a', 'b', 'c'), '-'), array_join(array('a', NULL, 'c'), '-'), array_join(array('a', NULL, 'c'), '-', 'x')")" \
   "[a, b]|[1, 2]|a-b-c|a-c|a-x-c"
eq "sorting" "$(S "SELECT array_sort(array(3, 1, 2)), array_sort(array(3, NULL, 1)), sort_array(array(3, NULL, 1)), sort_array(array(3, NULL, 1), false), array_sort(array('b', 'a', 'B'))")" \
   "[1, 2, 3]|[1, 3, NULL]|[NULL, 1, 3]|[3, 1, NULL]|[B, a, b]"
eq "max min position" "$(S "SELECT array_max(array(3, 1, 2)), array_min(array(3, NULL, 2)), array_max(array(CAST(NULL AS INT))), array_position(array(3, 1, 2), 1), array_position(array(3, 1, 2), 5), array_max(array('a', 'c', 'b'))")" \
   "3|2|NULL|2|0|c"
eq "set functions" "$(S "SELECT array_distinct(array(1, 1, 2)), array_distinct(array(1, NULL, 1, NULL)), array_union(array(1, 2, 2), array(3, 1)), array_except(array(1, 2, 2, 3), array(3)), array_intersect(array(1, 2, 3, 2), array(2, 1)), array_remove(array(1, NULL, 2, 1), 1)")" \
   "[1, 2]|[1, NULL]|[1, 2, 3]|[1, 2]|[1, 2]|[NULL, 2]"
eq "slice flatten zip" "$(S "SELECT slice(array(1, 2, 3, 4), 2, 2), slice(array(1, 2, 3, 4), -2, 5), slice(array(1, 2), 5, 1), flatten(array(array(1, 2), array(3))), flatten(array(array(1), NULL)), size(arrays_zip(array(1, 2), array('a', 'b'))), arrays_zip(array(1, 2), array('a'))")" \
   "[2, 3]|[3, 4]|[]|[1, 2, 3]|NULL|2|[{1, a}, {2, NULL}]"
eq "concat_ws of arrays" "$(S "SELECT concat_ws(',', array('x', 'y')), concat_ws('-', 'a', array('b', NULL, 'c'), 'd'), concat_ws(',', array(CAST(NULL AS STRING)))")" \
   "x,y|a-b-c-d|"
eq "typeof nested" "$(S "SELECT typeof(array(1)), typeof(map('a', 1)), typeof(named_struct('x', 1, 'y', 'a'))")" \
   "array<int>|map<string,int>|struct<x:int,y:string>"
eq "collect_list and collect_set skip NULLs" "$(S "SELECT collect_list(x), size(collect_list(x)), sort_array(collect_set(x)), collect_list(x) FILTER (WHERE x > 1) FROM VALUES (1), (NULL), (2), (2) AS v(x)")" \
   "[1, 2, 2]|3|[1, 2]|[2, 2]"
eq "collect_list of NULLs" "$(S "SELECT collect_list(x), size(collect_set(x)) FROM VALUES (CAST(NULL AS INT)) AS v(x)")" "[]|0"
eq "collect_list over a window" "$(S "SELECT x, collect_list(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM VALUES (1), (NULL), (2) AS v(x)")" \
   "NULL|[]
1|[1]
2|[1, 2]"
# higher-order functions' results (Spark 3.5: transform, filter, map_filter, ...)
eq "higher-order results" "$(S "SELECT transform(array(1, 2, 3), x -> x * 2), filter(array(1, 2, 3), x -> x > 1), transform(array('a', 'b'), x -> upper(x)), map_filter(map('a', 1, 'b', 2), (k, v) -> v > 1), transform_values(map('a', 1), (k, v) -> v + 1), zip_with(array(1, 2), array(3, 4), (x, y) -> x + y)")" \
   "[2, 4, 6]|[2, 3]|[A, B]|{b -> 2}|{a -> 2}|[4, 6]"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
