#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` on a table whose column names differ only in case (`user_id`
# and `uSeR_Id`: Iceberg names are case-sensitive, SQLite's are not): the
# table reads (count, SELECT *, json keys and csv headers with the original
# names), an unquoted or wrong-case reference is Spark's [AMBIGUOUS_REFERENCE]
# error, an exact-case quoted reference reads, filters (pushed down),
# aggregates, updates and deletes that one column. Such a table cannot be
# created from Spark SQL, so the test renames a column in a metadata file
# and registers it (what another writer could have committed).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
C() { F --format csv "$@"; }

F -c "CREATE NAMESPACE d; CREATE TABLE d.t (user_id INT, zzzzzzz INT, v STRING)" >/dev/null
F -c "INSERT INTO d.t VALUES (1, 2, 'a')"
F -c "INSERT INTO d.t VALUES (3, 4, 'b')"
m=$(ls "$T"/wh/d.db/t/metadata/*.metadata.json | sort | tail -1)
sed 's/"zzzzzzz"/"uSeR_Id"/g' "$m" >"$T/renamed.metadata.json"
F -c "CALL system.register_table('d.u', '$T/renamed.metadata.json')" >/dev/null

eq "count" "$(C -c "SELECT count(*) FROM d.u" | tail -1)" "2"
eq "select star keeps the names" "$(C -c "SELECT * FROM d.u ORDER BY v")" "user_id,uSeR_Id,v
1,2,a
3,4,b"
eq "json keys" "$(F --format json -c "SELECT * FROM d.u WHERE v = 'a'")" '{"user_id":1,"uSeR_Id":2,"v":"a"}'
eq "table header" "$(F -c "SELECT * FROM d.u WHERE v = 'a'" | sed -n 2p)" "|user_id|uSeR_Id|v  |"
amb='AnalysisException: [AMBIGUOUS_REFERENCE] Reference `user_id` is ambiguous, could be: [`local`.`d`.`u`.`user_id`, `local`.`d`.`u`.`uSeR_Id`].'
eq "unquoted reference is ambiguous" "$(C -c "SELECT user_id FROM d.u" 2>&1)" "$amb"
has "unquoted exact case too (Spark resolves case-insensitively)" "$(C -c "SELECT uSeR_Id FROM d.u" 2>&1)" "AnalysisException: [AMBIGUOUS_REFERENCE] Reference \`uSeR_Id\` is ambiguous"
has "qualified reference" "$(C -c "SELECT x.USER_ID FROM d.u AS x" 2>&1)" 'Reference `x`.`USER_ID` is ambiguous, could be: ['
eq "quoted exact case" "$(C -c "SELECT \`uSeR_Id\`, \`user_id\` FROM d.u ORDER BY \`uSeR_Id\` DESC")" "uSeR_Id,user_id
4,3
2,1"
eq "quoted exact case in WHERE" "$(C -c "SELECT v FROM d.u WHERE \`uSeR_Id\` > 2" | tail -1)" "b"
has "pushed down" "$(C -c "EXPLAIN SELECT v FROM d.u WHERE \`uSeR_Id\` > 2")" "[filters=uSeR_Id > 2]"
eq "aggregate over one twin" "$(C -c "SELECT sum(\`uSeR_Id\`) AS s, max(\`user_id\`) AS m FROM d.u")" "s,m
6,3"
eq "other columns" "$(C -c "SELECT v FROM d.u WHERE v = 'b'" | tail -1)" "b"
F -c "UPDATE d.u SET \`uSeR_Id\` = 7 WHERE v = 'a'"
eq "update one twin" "$(C -c "SELECT * FROM d.u ORDER BY v")" "user_id,uSeR_Id,v
1,7,a
3,4,b"
F -c "DELETE FROM d.u WHERE \`user_id\` = 3"
eq "delete by one twin" "$(C -c "SELECT * FROM d.u")" "user_id,uSeR_Id,v
1,7,a"
has "CTAS of both names is refused as Spark" "$(C -c "CREATE TABLE d.c AS SELECT * FROM d.u" 2>&1)" "duplicate columns"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
