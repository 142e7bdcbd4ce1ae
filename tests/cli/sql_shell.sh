#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql`: command line, output formats, catalog statements, session state
# across -c/-f, variables, stdin through a pipe, errors and exit statuses.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
eq() { # description, actual, expected
    if [ "$2" == "$3" ]; then ok; else bad "$1"; printf -- '--- expected\n%s\n--- got\n%s\n' "$3" "$2"; fi
}
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }

# ---- warehouse and catalog created on first use; default ./warehouse
out=$("$FLOE_BIN" sql -c "SELECT 1 AS one" 2>&1)
eq "default warehouse" "$(test -f warehouse/catalog.db && echo yes)" "yes"
out=$(FLOE_WAREHOUSE="$T/envwh" "$FLOE_BIN" sql -c "SELECT 1" 2>&1)
eq "FLOE_WAREHOUSE" "$(test -f "$T/envwh/catalog.db" && echo yes)" "yes"

# ---- table output: Spark show(truncate=False)
out=$(F -c "SELECT 1 AS a, 'x,y' AS b, NULL AS c, 2.5 AS d, 3.0 AS e, 9223372036854775807 AS f")
eq "table box" "$out" "+---+---+----+---+---+-------------------+
|a  |b  |c   |d  |e  |f                  |
+---+---+----+---+---+-------------------+
|1  |x,y|NULL|2.5|3.0|9223372036854775807|
+---+---+----+---+---+-------------------+"
out=$(F -c "SELECT 1 AS a WHERE 0")
eq "empty result keeps the header" "$out" "+---+
|a  |
+---+
+---+"
out=$(F -c "SELECT TIMESTAMP'2026-09-20 01:02:03.5' AS ts, DATE'2026-9-1' AS d")
has "timestamp as Spark prints it" "$out" "|2026-09-20 01:02:03.5|2026-09-01|"

# ---- csv (RFC 4180 quoting, header) and json (one object per row)
out=$(F --format csv -c "SELECT 1 AS a, 'x,\"y' AS b, NULL AS c, '' AS d UNION ALL SELECT 2, 'multi
line', 3, 'z'")
eq "csv" "$out" 'a,b,c,d
1,"x,""y",,""
2,"multi
line",3,z'
out=$(F --format=json -c "SELECT -9223372036854775808 AS id, 'q\"' AS s, NULL AS n, 1.5 AS r, json_object('k', 1) AS j")
eq "json" "$out" '{"id":-9223372036854775808,"s":"q\"","n":null,"r":1.5,"j":{"k":1}}'
out=$(F -c "SET floe.format = csv; SELECT 7 AS x")
eq "SET floe.format" "$out" "x
7"

# ---- namespaces, SHOW TABLES, USE
out=$(F -c "CREATE NAMESPACE shop; CREATE NAMESPACE IF NOT EXISTS shop; CREATE DATABASE ops COMMENT 'x'; SHOW NAMESPACES")
eq "show namespaces" "$out" "+---------+
|namespace|
+---------+
|ops      |
|shop     |
+---------+"
out=$(F -c "CREATE NAMESPACE shop" 2>&1); rc=$?
eq "duplicate namespace rc" "$rc" 1
eq "duplicate namespace msg" "$out" "AlreadyExistsException: Namespace already exists: shop"
out=$(F -c "DROP NAMESPACE nope" 2>&1); rc=$?
eq "drop unknown namespace" "$rc:$out" "1:NoSuchNamespaceException: Namespace does not exist: nope"
out=$(F -c "DROP NAMESPACE IF EXISTS nope; DROP NAMESPACE ops; SHOW NAMESPACES" 2>&1)
has "drop namespace" "$out" "|shop     |"
if grep -q "|ops" <<<"$out"; then bad "ops still listed"; else ok; fi
out=$(F -c "USE nope" 2>&1); rc=$?
eq "use unknown" "$rc:$out" "1:NoSuchNamespaceException: Namespace does not exist: nope"
out=$(F --format csv -c "USE shop; CREATE TEMP VIEW v AS SELECT 1 AS one; SHOW TABLES")
eq "show tables lists temp views" "$out" 'namespace,tableName,isTemporary
"",v,true'
out=$(F -c "SHOW TABLES IN nope" 2>&1); rc=$?
eq "show tables unknown ns" "$rc:$out" "1:NoSuchNamespaceException: Namespace does not exist: nope"

# ---- -c and -f in order, one session (views and SET persist)
printf 'SELECT one + ${k} AS two FROM v;\n' >"$T/a.sql"
out=$(F --format csv -c "CREATE TEMP VIEW v AS SELECT 1 AS one; SET k = 1" -f "$T/a.sql" -c "SELECT count(*) AS n FROM v")
eq "-c -f -c order" "$out" "two
2
n
1"

# ---- variables
out=$(F --format csv -c "SET VAR x = (SELECT 40 + 2); SET VAR s = 'abc'; SELECT \${x} AS x, '\${s}' AS s")
eq "SET VAR" "$out" "x,s
42,abc"
out=$(F -c "SELECT \${nope}" 2>&1); rc=$?
has "unknown variable" "$rc:$out" "1:ParseException: Variable \${nope} is not set"

# ---- SET / RESET / SET TIME ZONE
out=$(F --format csv -c "SET spark.wap.id = w1; SET spark.wap.id; RESET spark.wap.id; SET spark.wap.id")
eq "set reset" "$out" "key,value
spark.wap.id,w1
key,value
spark.wap.id,<undefined>"
out=$(F --format csv -c "SET TIME ZONE 'Europe/Paris'; SET spark.sql.session.timeZone")
eq "set time zone" "$out" "key,value
spark.sql.session.timeZone,Europe/Paris"
out=$(F -c "SET TIME ZONE 'Mars/Olympus'" 2>&1); rc=$?
has "bad zone" "$rc:$out" "1:IllegalArgumentException: Cannot resolve the given timezone"
out=$(F --conf cache-enabled=false --format csv -c "SET")
eq "--conf shows in SET" "$out" "key,value
cache-enabled,false"

# ---- errors: first failing statement stops, exit 1; syntax error class
out=$(F --format csv -c "SELECT 1 AS a; SELECT nope(); SELECT 2 AS b" 2>"$T/err"); rc=$?
eq "stop at first failure" "$rc:$out" "1:a
1"
has "sqlite error" "$(cat "$T/err")" "AnalysisException: no such function: nope"
out=$(F -c "SELEC 1" 2>&1); rc=$?
has "syntax error" "$rc:$out" "1:ParseException:"
out=$(F -c "SELECT * FROM shop.orders" 2>&1); rc=$?
eq "unknown table" "$rc:$out" "1:NoSuchTableException: Table does not exist: shop.orders"
out=$(F -c "CALL local.system.nope('x')" 2>&1); rc=$?
has "unknown procedure" "$rc:$out" "1:"
out=$(F -c "CALL other.system.rollback_to_snapshot('x', 1)" 2>&1); rc=$?
has "other catalog" "$rc" "1"

out=$(F --format csv -c "SET floe.continue-on-error = true; SELECT nope(); SELEC; SELECT 2 AS b" 2>"$T/err"); rc=$?
eq "continue-on-error" "$rc:$out" "0:b
2"
has "continue-on-error reports" "$(cat "$T/err")" "AnalysisException: no such function: nope"
has "continue-on-error reports parse errors" "$(cat "$T/err")" "ParseException:"

# ---- usage errors: exit 2
F --bogus >/dev/null 2>&1; eq "unknown option" "$?" 2
F -c >/dev/null 2>&1; eq "missing value" "$?" 2
F --format xml -c "SELECT 1" >/dev/null 2>&1; eq "bad format" "$?" 2
F --conf nokey -c "SELECT 1" >/dev/null 2>&1; eq "bad conf" "$?" 2

# ---- injection attempts stay data
out=$(F --format csv -c "CREATE NAMESPACE \`x'; DROP TABLE y; --\`; SHOW NAMESPACES" 2>&1); rc=$?
has "odd namespace name refused or kept as a name" "$rc:$out" ":"
out=$(F --format csv -c "SELECT 'a\\'); DROP TABLE t; --' AS s")
eq "string literal" "$out" "s
a'); DROP TABLE t; --"
# Spark reads '' as two adjacent literals (concatenated), not a quote
out=$(F --format csv -c "SELECT 'a''); DROP TABLE t; --' AS s")
eq "adjacent string literals" "$out" "s
a); DROP TABLE t; --"
out=$(F -c "SELECT * FROM shop.\"o\"\"; DROP TABLE x\"" 2>&1); rc=$?
has "quoted name" "$rc:$out" "1:NoSuchTableException"
out=$(F --format csv -c "SHOW NAMESPACES")
has "namespaces untouched" "$out" "shop"

# ---- stdin through a pipe: statement by statement, results flushed early
out=$(printf 'SELECT 1 AS a;\nSELECT\n  2 AS b;\nSELECT 3 AS c\n' | F --format csv)
eq "pipe" "$out" "a
1
b
2
c
3"
out=$(printf 'SELECT 1 AS a;\nSELECT nope();\nSELECT 3 AS c;\n' | F --format csv 2>/dev/null); rc=$?
eq "pipe stops at the first error" "$rc:$out" "1:a
1"
# a long-lived session driven through a fifo: the answer arrives before EOF
mkfifo "$T/in"
F --format csv <"$T/in" >"$T/out" 2>&1 &
pid=$!
exec 3>"$T/in"
printf 'SELECT 41 + 1 AS answer;\n' >&3
got=""
for _ in $(seq 1 50); do
    got=$(cat "$T/out"); [ -n "$got" ] && break; sleep 0.1
done
eq "fifo answer before EOF" "$got" "answer
42"
exec 3>&-
wait "$pid"; eq "fifo exit" "$?" 0

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
