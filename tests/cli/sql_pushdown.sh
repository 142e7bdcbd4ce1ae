#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` virtual tables: constraints pushed into the scan never change a
# result (each WHERE is compared with the same comparison inside CASE, which
# SQLite cannot hand to the virtual table but evaluates with the column's
# affinity), including DATE, DOUBLE, FLOAT,
# DECIMAL and BOOLEAN columns with NULLs, NaN, negative decimals and
# literals of another scale; EXPLAIN shows the pushed filter, pruned files
# and the columns read; count(*) is answered from the manifests only when
# exact (not with delete files, also on a time-travel read).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
C() { F --format csv "$@"; }
# consistent TABLE SETUP PRED...: each WHERE PRED keeps exactly the rows of
# the same comparison inside CASE (which SQLite cannot push); SETUP runs first
consistent() {
  local t=$1 pre=$2 p got want
  shift 2
  for p in "$@"; do
    got=$(C -c "$pre SELECT id FROM $t WHERE $p ORDER BY id" 2>&1)
    want=$(C -c "$pre SELECT id FROM $t WHERE CASE WHEN $p THEN 1 ELSE 0 END ORDER BY id" 2>&1)
    eq "pushdown $t ${pre:-}: $p" "$got" "$want"
  done
}
# plan DESCRIPTION SCRIPT NEEDLE...: EXPLAIN of the SCRIPT's (first) SELECT
# shows each NEEDLE
plan() {
  local d=$1 out n
  out=$(C -c "${2/SELECT/EXPLAIN SELECT}")
  shift 2
  for n in "$@"; do has "$d" "$out" "$n"; done
}

out=$(F -c "CREATE NAMESPACE p; CREATE TABLE p.t (id BIGINT, d DATE, x DOUBLE, f FLOAT, amount DECIMAL(10,2), ok BOOLEAN, s STRING)" 2>&1)
if grep -q "not supported yet" <<<"$out"; then echo "skipped: $out"; exit 77; fi
# three INSERTs: three data files with distinct ranges (pruning by metrics)
F -c "INSERT INTO p.t VALUES
  (1, DATE'2024-01-01', 1.5, 1.1, 1.50, true, 'a'),
  (2, DATE'2024-01-15', -2.25, -0.5, -1.005, false, 'b'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL)"
F -c "INSERT INTO p.t VALUES
  (4, DATE'2024-02-01', 'NaN', 'NaN', 1.55, true, 'c'),
  (5, DATE'2024-02-29', 0.0, 2.0, -0.01, false, 'd'),
  (6, DATE'2024-03-01', 1e300, 1.0000001, 12345678.99, true, 'e')"
F -c "INSERT INTO p.t VALUES
  (7, DATE'2023-12-31', -0.0, 3.25, 0.00, false, 'f'),
  (8, DATE'2024-01-02', 2.0, -1.1, 1.56, NULL, 'g')"
eq "rows" "$(C -c "SELECT count(*) FROM p.t" | tail -1)" "8"

preds=(
  "d = '2024-01-15'" "d > '2024-01-15'" "d >= '2024-01-15'" "d < '2024-02-01'" "d <= '2024-02-29'"
  "d < '2024-1-5'" "d > '2024-01-01 10:00'" "d = '2024-02-30'" "d > 5"
  "x > 1" "x >= 1.5" "x >= 0" "x <= 0" "x > 0" "x < 0.0" "x >= -0.0" "x = -0.0" "x < 0" "x <= -2.25" "x = 2" "x = 0" "x > -1e308" "x < '1.75'" "x > 'abc'"
  "f > 1.1" "f >= 1.1" "f < 1.1" "f = 1.100000023841858" "f = 1.1" "f <= -1.1" "f > 1" "f < 1.0000001"
  "amount > 1.555" "amount >= 1.55" "amount = 1.5" "amount = 1.50" "amount = 1.505" "amount < -1"
  "amount <= -1.005" "amount >= -1.0050" "amount > -0.01" "amount < 0" "amount = 0" "amount > 1"
  "amount < 12345678.99" "amount >= 99999999.995" "amount > -1e20" "amount = '1.5'"
  "ok = 1" "ok = 0" "ok = true" "ok = false" "ok > 0" "ok >= 1" "ok < 1" "ok <= 0" "ok > 0.5"
  "ok = 2" "ok < 2" "ok >= 0" "ok = 'x'"
  "s > 'b'" "s = 'c'" "id > 3"
)
consistent p.t "" "${preds[@]}"
# spot checks of the values themselves (not only self-consistency)
eq "decimal mixed scale" "$(C -c "SELECT id FROM p.t WHERE amount > 1.555 ORDER BY id" | tr '\n' ' ')" "id 6 8 "
eq "negative decimal" "$(C -c "SELECT id FROM p.t WHERE amount <= -1.005 ORDER BY id" | tr '\n' ' ')" "id 2 "
eq "date range" "$(C -c "SELECT id FROM p.t WHERE d >= '2024-01-15' AND d < '2024-03-01' ORDER BY id" | tr '\n' ' ')" "id 2 4 5 "
eq "float bound" "$(C -c "SELECT id FROM p.t WHERE f > 1.1 ORDER BY id" | tr '\n' ' ')" "id 1 5 7 "
eq "boolean" "$(C -c "SELECT id FROM p.t WHERE ok < 1 ORDER BY id" | tr '\n' ' ')" "id 2 5 7 "
eq "double NaN excluded" "$(C -c "SELECT id FROM p.t WHERE x > -1e308 ORDER BY id" | tr '\n' ' ')" "id 1 2 5 6 7 8 "
eq "double zero" "$(C -c "SELECT id FROM p.t WHERE x = 0 ORDER BY id" | tr '\n' ' ')" "id 5 7 "
eq "double >= zero" "$(C -c "SELECT id FROM p.t WHERE x >= 0 AND x < 1 ORDER BY id" | tr '\n' ' ')" "id 5 7 "

# EXPLAIN: pushed filters (widened to the column's type), pruning, columns read
out=$(C -c "EXPLAIN SELECT id FROM p.t WHERE d > '2024-02-15'")
has "date pushed" "$out" "[filters=d > '2024-02-15']"
has "date prunes files" "$out" "files=1/3"
has "date reads" "$out" "read=[id,d]"
out=$(C -c "EXPLAIN SELECT id FROM p.t WHERE amount > 1.555")
has "decimal widened" "$out" "[filters=amount >= 1.55]"
out=$(C -c "EXPLAIN SELECT id FROM p.t WHERE amount = 1.5")
has "decimal eq at scale" "$out" "[filters=amount = 1.50]"
out=$(C -c "EXPLAIN SELECT id FROM p.t WHERE amount = 1.505")
has "decimal eq off scale not pushed" "$out" "[filters=]"
out=$(C -c "EXPLAIN SELECT id FROM p.t WHERE ok > 0")
has "boolean pushed" "$out" "[filters=ok = true]"
out=$(C -c "EXPLAIN SELECT id FROM p.t WHERE x >= 2")
has "double pushed" "$out" "[filters=x >= 2]"
has "double prunes" "$out" "files=2/3"
out=$(C -c "EXPLAIN SELECT id FROM p.t WHERE f > 1.1")
has "float widened" "$out" "[filters=f >= 1.0999999]"
out=$(C -c "EXPLAIN SELECT sum(amount) FROM p.t")
has "projection" "$out" "read=[amount]"
out=$(C -c "EXPLAIN SELECT count(*) FROM p.t")
has "count from manifests" "$out" "read=[count from manifests]"

# count(*): exact from manifests; with delete files it reads (and is right)
eq "count fast" "$(C -c "SELECT count(*) FROM p.t")" "count(*)
8"
eq "count where" "$(C -c "SELECT count(*) FROM p.t WHERE id > 2" | tail -1)" "6"
eq "count(1) alias" "$(C -c "SELECT count(1) FROM p.t AS q" | tail -1)" "8"
first=$(C -c "SELECT snapshot_id FROM p.t.snapshots ORDER BY committed_at LIMIT 1" | tail -1)
eq "count time travel" "$(C -c "SELECT count(*) FROM p.t VERSION AS OF $first" | tail -1)" "3"
F -c "ALTER TABLE p.t SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read')"
F -c "DELETE FROM p.t WHERE id = 5"
files=$(C -c "SELECT count(*) FROM p.t.delete_files" 2>/dev/null | tail -1)
eq "count after delete" "$(C -c "SELECT count(*) FROM p.t" | tail -1)" "7"
eq "count(*) with deletes = count of rows" "$(C -c "SELECT count(*) FROM p.t" | tail -1)" "$(C -c "SELECT count(id) FROM p.t" | tail -1)"
if [ "${files:-0}" != "0" ]; then
  out=$(C -c "EXPLAIN SELECT count(*) FROM p.t")
  has "deletes: rows are read" "$out" "read=[id]"
fi
eq "count time travel after delete" "$(C -c "SELECT count(*) FROM p.t VERSION AS OF $first" | tail -1)" "3"
# Spark: ParseException ([PARSE_SYNTAX_ERROR] ... end of input)
eq "count syntax error surfaces" "$(C -c "SELECT count(*) FROM p.t WHERE" 2>&1 | head -1 | cut -c1-14)" "ParseException"

# timestamps (timestamptz `ts`, hour-partitioned, and timestamp_ntz `nt`):
# text 'YYYY-MM-DD HH:MM:SS.ffffff' inside SQLite, compared as text with
# any text literal; the pushed bound must keep every row SQLite keeps, to
# the microsecond, for canonical and shorter literals, 'T' and zones,
# TIMESTAMP '...' literals and values that are not text
F -c "CREATE TABLE p.e (id INT, ts TIMESTAMP, nt TIMESTAMP_NTZ) PARTITIONED BY (hours(ts))"
F -c "INSERT INTO p.e VALUES (1, TIMESTAMP '2026-01-01 00:00:00', TIMESTAMP_NTZ '2026-01-01 00:00:00')"
F -c "INSERT INTO p.e VALUES (2, TIMESTAMP '2026-01-01 00:00:00.000001', TIMESTAMP_NTZ '2026-01-01 00:00:00.000001'), (3, TIMESTAMP '2025-12-31 23:59:59.999999', TIMESTAMP_NTZ '2025-12-31 23:59:59.999999')"
F -c "INSERT INTO p.e VALUES (4, TIMESTAMP '2026-09-28 13:15:19.839', TIMESTAMP_NTZ '2026-09-28 13:15:19.839'), (5, NULL, NULL)"
F -c "INSERT INTO p.e VALUES (6, TIMESTAMP '2026-11-01 05:30:00Z', TIMESTAMP_NTZ '2026-11-01 05:30:00'), (7, TIMESTAMP '2026-11-01 06:10:00Z', TIMESTAMP_NTZ '2026-11-01 06:10:00'), (8, TIMESTAMP '2026-11-01 06:30:00Z', TIMESTAMP_NTZ '2026-11-01 06:30:00')"
tpreds=()
for c in ts nt; do
  tpreds+=(
    "$c = '2026-01-01 00:00:00.000001'" "$c = '2026-01-01 00:00:00.000000'" "$c = '2026-01-01 00:00:00'"
    "$c = '2026-01-01'" "$c > '2026-01-01'" "$c >= '2026-01-01'" "$c < '2026-01-01'" "$c <= '2026-01-01'"
    "$c > '2026-01-01 00:00:00'" "$c >= '2026-01-01 00:00:00.000001'" "$c > '2026-01-01 00:00:00.000001'"
    "$c < '2026-01-01 00:00:00.000001'" "$c <= '2026-01-01 00:00:00.000001'" "$c <= '2026-01-01 00:00:00'"
    "$c < '2026-01-01 00:00:00.0000005'" "$c > '2026-01-01 00:00:00.0000001'" "$c <= '2026-01-01 00:00:00.0000001'"
    "$c = '2026-01-01 00:00:00.0000001'" "$c < '2026-01-01 01'" "$c >= '2025-12-31 23:59:59.9'" "$c < '2026-09'"
    "$c > '2026-01-01T00:00:00'" "$c < '2026-01-01T00:00:00'" "$c > '2026-01-01 00:00:00+02:00'"
    "$c < '2026-01-01 00:00:00Z'" "$c > '2026-02-30'" "$c > '2026-1-1'" "$c > 5" "$c < 'z'" "$c > ''" "$c >= '2026'"
    "$c = TIMESTAMP '2026-01-01 00:00:00.000001'" "$c >= TIMESTAMP '2026-01-01 01:00:00+01:00'"
    "$c < TIMESTAMP '2026-09-28 13:15:19.839'" "$c <= TIMESTAMP '2026-09-28 13:15:19.839'"
    "$c BETWEEN '2026-01-01' AND '2026-01-02'" "$c >= '2026-11-01 01:20' AND $c < '2026-11-01 01:40'"
  )
done
NY="SET TIME ZONE 'America/New_York';"
consistent p.e "" "${tpreds[@]}"
# a zone with daylight saving: 2026-11-01 01:00-02:00 happens twice in New York
consistent p.e "$NY" "${tpreds[@]}"
eq "ts exact microsecond" "$(C -c "SELECT id FROM p.e WHERE ts = '2026-01-01 00:00:00.000001'" | tail -1)" "2"
eq "ts date literal" "$(C -c "SELECT id FROM p.e WHERE ts >= '2026-01-01' AND ts < '2026-01-02' ORDER BY id" | tr '\n' ' ')" "id 1 2 "
eq "ts micro below" "$(C -c "SELECT id FROM p.e WHERE ts < '2026-01-01 00:00:00.000001' ORDER BY id" | tr '\n' ' ')" "id 1 3 "
eq "ts new york wall clock" "$(C -c "$NY SELECT id FROM p.e WHERE ts >= '2026-11-01 01:20' AND ts < '2026-11-01 01:40' ORDER BY id" | tr '\n' ' ')" "id 6 8 "
eq "zoned TIMESTAMP literal is an instant" "$(C -c "$NY SELECT id FROM p.e WHERE ts >= TIMESTAMP '2026-09-28 13:15:19.839Z' ORDER BY id" | tr '\n' ' ')" "id 4 6 7 8 "
eq "zoned TIMESTAMP literal is an instant (after)" "$(C -c "$NY SELECT id FROM p.e WHERE ts > TIMESTAMP '2026-09-28 09:15:19.839-04:00' ORDER BY id" | tr '\n' ' ')" "id 6 7 8 "
eq "zoned TIMESTAMP literal equality" "$(C -c "SET TIME ZONE '+05:30'; SELECT id FROM p.e WHERE ts = TIMESTAMP '2026-01-01 02:00:00.000001+02:00'" | tail -1)" "2"
plan "ts equality pushed" "SELECT id FROM p.e WHERE ts = '2026-01-01 00:00:00.000001'" "[filters=ts = '2026-01-01T00:00:00.000001+00:00']" "files=1/"
plan "ts date literal widened" "SELECT id FROM p.e WHERE ts > '2026-01-01'" "[filters=ts >= '2026-01-01T00:00:00.000000+00:00']"
plan "ts prefix upper bound" "SELECT id FROM p.e WHERE ts <= '2026-01-01 00'" "[filters=ts < '2026-01-01T00:00:00.000000+00:00']"
plan "TIMESTAMP literal pushed" "SELECT id FROM p.e WHERE ts >= TIMESTAMP '2026-09-28 13:00:00'" "[filters=ts >= '2026-09-28T13:00:00.000000+00:00']" "manifests=2/4 files=3/4"
plan "timestamp_ntz pushed" "SELECT id FROM p.e WHERE nt > '2026-09-28 13:15:19.839000'" "[filters=nt > '2026-09-28T13:15:19.839000']"
plan "non-canonical equality not pushed" "SELECT id FROM p.e WHERE ts = '2026-01-01'" "[filters=]"
# COLLATE is SQLite's, not Spark's: the parser refuses it (no filter can carry one)
eq "COLLATE is not Spark SQL" "$(C -c "SELECT id FROM p.e WHERE ts > 'x' COLLATE NOCASE" 2>&1 | head -1 | cut -c1-14)" "ParseException"
plan "ts in a DST zone widened by its offsets" "$NY SELECT id FROM p.e WHERE ts >= '2026-11-01 01:30:00'" "[filters=ts >= '2026-11-01T05:30:00.000000+00:00']"
plan "ts in a fixed zone exact" "SET TIME ZONE '+02:00'; SELECT id FROM p.e WHERE ts = '2026-01-01 02:00:00.000001'" "[filters=ts = '2026-01-01T00:00:00.000001+00:00']"
# Spark prints timestamps with their microseconds, trailing zeros dropped
eq "timestamp display" "$(C -c "SELECT ts, nt FROM p.e WHERE id IN (1, 2, 4) ORDER BY id")" "ts,nt
2026-01-01 00:00:00,2026-01-01 00:00:00
2026-01-01 00:00:00.000001,2026-01-01 00:00:00.000001
2026-09-28 13:15:19.839,2026-09-28 13:15:19.839"
eq "timestamp display json" "$(F --format json -c "SELECT ts, max(nt) AS m FROM p.e WHERE id = 2")" '{"ts":"2026-01-01 00:00:00.000001","m":"2026-01-01 00:00:00.000001"}'
eq "timestamp display half" "$(C -c "SELECT TIMESTAMP '2026-09-20 01:02:03.5' AS t" | tail -1)" "2026-09-20 01:02:03.5"
F -c "CREATE TABLE p.n (id INT, s STRUCT<a: TIMESTAMP, b: TIMESTAMP_NTZ>, l ARRAY<TIMESTAMP>)"
F -c "INSERT INTO p.n VALUES (1, named_struct('a', TIMESTAMP '2026-01-01 00:00:00', 'b', TIMESTAMP_NTZ '2026-01-01 00:00:00.000001'), array(TIMESTAMP '2026-09-28 13:15:19.839'))"
eq "nested timestamps" "$(F --format json -c "SELECT s, l FROM p.n")" '{"s":{"a":"2026-01-01 00:00:00","b":"2026-01-01 00:00:00.000001"},"l":["2026-09-28 13:15:19.839"]}'
eq "nested timestamp compares with a column" "$(C -c "SELECT s['a'] = e.nt AS same FROM p.n JOIN p.e AS e ON e.id = 1" | tail -1)" "true"
eq "nested timestamp table display" "$(C -c "SELECT s FROM p.n" | tail -1)" '"{""a"":""2026-01-01 00:00:00"",""b"":""2026-01-01 00:00:00.000001""}"'

# decimals wider than 15 digits: exact text inside SQLite with a numeric
# collation, so WHERE, ORDER BY, GROUP BY, DISTINCT, min/max, joins and
# sum() work by value, exactly; bounds are pushed at the column's scale
F -c "CREATE TABLE p.w (id INT, c DECIMAL(36,23), m DECIMAL(38,2), z DECIMAL(20,0))"
F -c "INSERT INTO p.w VALUES (1, 3.14159265358979323846264, 12345678901234567890123456789012345.67, 12345678901234567890), (2, 999.5, -0.01, -5), (3, NULL, NULL, NULL)"
F -c "INSERT INTO p.w VALUES (4, 1000, 1000.00, 1000), (5, 1000.00000000000000000001, 99999999999999999999999999999999999.99, 99999999999999999999), (6, 20000, 2.50, 0)"
F -c "INSERT INTO p.w VALUES (7, -5, -99999999999999999999999999999999999.99, -99999999999999999999), (8, -3.14159265358979323846264, 0, 20000), (9, 123456789012.5, 1000.01, 1)"
wpreds=(
  "c = 3.14159265358979323846264" "c = -3.14159265358979323846264" "c > 1000" "c >= 1000" "c < 1000" "c <= 1000"
  "c = 1000" "c = 1000.0" "c = '1000'" "c > 1000.000000000000000000000005" "c < 1000.000000000000000000000005"
  "c = 1000.000000000000000000000005" "c > -3.14159265358979323846265" "c < -3.141592653589793238462635" "c > 999.49"
  "c <= 999.5" "c > 1e3" "c < 1.5e4" "c > 0.1" "c = 3.14159265358979" "c < 'abc'" "c > 'abc'" "c > x'00'"
  "c BETWEEN 3 AND 1000" "c IN (1000, 20000)" "c <> 1000"
  "m > 1000" "m >= 1000.01" "m = 1000.010" "m < -99999999999999999999999999999999999.98" "m = 0" "m > 0.005" "m < 0"
  "m >= 12345678901234567890123456789012345.67" "m > 9999999999999999999999999999999999999.99"
  "z > 12345678901234567889" "z = 12345678901234567890" "z < -99999999999999999998" "z >= 0.5" "z <= -0.5" "z = 1"
)
consistent p.w "" "${wpreds[@]}"
eq "wide decimal equality" "$(C -c "SELECT id FROM p.w WHERE c = 3.14159265358979323846264" | tail -1)" "1"
eq "wide decimal negative equality" "$(C -c "SELECT id FROM p.w WHERE c = -3.14159265358979323846264" | tail -1)" "8"
eq "wide decimal range" "$(C -c "SELECT id FROM p.w WHERE c > 1000 ORDER BY id" | tr '\n' ' ')" "id 5 6 9 "
eq "wide decimal vs string" "$(C -c "SELECT id FROM p.w WHERE c >= '1000' ORDER BY id" | tr '\n' ' ')" "id 4 5 6 9 "
eq "wide decimal order" "$(C -c "SELECT id FROM p.w ORDER BY c DESC, id" | tr '\n' ' ')" "id 9 6 5 4 2 1 8 7 3 "
eq "wide decimal min max" "$(C -c "SELECT min(c), max(c), min(m), max(m), min(z), max(z) FROM p.w" | tail -1)" \
  "-5.00000000000000000000000,123456789012.50000000000000000000000,-99999999999999999999999999999999999.99,99999999999999999999999999999999999.99,-99999999999999999999,99999999999999999999"
eq "wide decimal sum exact at scale" "$(C -c "SELECT sum(c), sum(z) FROM p.w" | tail -1)" "123456812007.00000000000000000001000,12345678901234588886"
eq "wide decimal sum over 38 digits is NULL (Spark)" "$(C -c "SELECT sum(m) IS NULL, sum(m) FILTER (WHERE id < 5) FROM p.w" | tail -1)" "false,12345678901234567890123456789013345.66"
eq "wide decimal sum at 38 digits" "$(C -c "SELECT sum(m) FROM p.w WHERE id IN (1, 5)" | tail -1)" "112345678901234567890123456789012345.66"
eq "wide decimal sum past 38 digits" "$(C -c "SELECT sum(a.m) IS NULL FROM p.w AS a, p.w AS b, p.w AS c WHERE a.id = 5 AND b.id < 9 AND c.id < 4" | tail -1)" "true"
eq "wide decimal group by" "$(C -c "SELECT c, count(*) FROM (SELECT c FROM p.w UNION ALL SELECT c FROM p.w WHERE id > 4) GROUP BY c HAVING count(*) > 1 ORDER BY c" | tr '\n' ' ')" \
  "c,count(*) -5.00000000000000000000000,2 -3.14159265358979323846264,2 1000.00000000000000000001000,2 20000.00000000000000000000000,2 123456789012.50000000000000000000000,2 "
eq "wide decimal distinct" "$(C -c "SELECT count(DISTINCT z) FROM (SELECT z FROM p.w UNION ALL SELECT z FROM p.w)" | tail -1)" "8"
eq "wide decimal join" "$(C -c "SELECT a.id, b.id FROM p.w AS a JOIN p.w AS b ON a.z = b.m ORDER BY a.id, b.id" | tr '\n' ' ')" "id,id 4,4 6,8 "
eq "wide decimal json number" "$(F --format json -c "SELECT c, sum(z) AS s FROM p.w WHERE id = 1")" '{"c":3.14159265358979323846264,"s":12345678901234567890}'
eq "wide decimal exact insert" "$(C -c "SELECT m FROM p.w WHERE id = 1" | tail -1)" "12345678901234567890123456789012345.67"
plan "wide decimal equality pushed" "SELECT id FROM p.w WHERE c = 3.14159265358979323846264" "[filters=c = 3.14159265358979323846264]" "files=2/3"
plan "wide decimal lower bound rounds down" "SELECT id FROM p.w WHERE c > 1000.000000000000000000000005" "[filters=c >= 1000.00000000000000000000000]"
plan "wide decimal upper bound rounds up" "SELECT id FROM p.w WHERE m < 1000.005" "[filters=m <= 1000.01]"
plan "wide decimal scale 0" "SELECT id FROM p.w WHERE z > 12345678901234567889" "[filters=z > 12345678901234567889]"
plan "wide decimal off-scale equality not pushed" "SELECT id FROM p.w WHERE c = 1000.000000000000000000000005" "[filters=]"
plan "wide decimal non-number not pushed" "SELECT id FROM p.w WHERE c > 'abc'" "[filters=]"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
