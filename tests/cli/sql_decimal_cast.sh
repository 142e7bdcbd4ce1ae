#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql`: CAST(x AS DECIMAL(p,s)) and Spark's BD literal are exact, as in
# Spark 3.5 with ANSI mode off: HALF_UP to the scale, NULL on overflow or for
# a string that is no number, printed at the scale, 38 digits kept. Every
# expected value here is Spark's (tests/peers/test_cells.py DECIMAL_CASES
# runs the same expressions in Spark and floe).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
C() { F --format csv "$@"; }
one() { C -c "SELECT $1 AS v" | tail -n +2; }

while IFS='|' read -r expr want; do
    [ -n "$expr" ] || continue
    eq "$expr" "$(one "$expr" 2>&1)" "$want"
done <<'CASES'
CAST(1 AS DECIMAL(10,2))|1.00
CAST(2.345 AS DECIMAL(10,2))|2.35
CAST(-2.345 AS DECIMAL(10,2))|-2.35
CAST('12.5' AS DECIMAL(3,0))|13
CAST(12345.6 AS DECIMAL(3,1))|
CAST('12345678901234567890123456789012.1234565' AS DECIMAL(38,6))|12345678901234567890123456789012.123457
CAST(12345678901234567890123456789012.123456 AS DECIMAL(38,6))|12345678901234567890123456789012.123456
CAST('abc' AS DECIMAL(5,2))|
CAST(' 1e2 ' AS DECIMAL(5,1))|100.0
CAST(-0.001 AS DECIMAL(5,2))|0.00
CAST(99.995 AS DECIMAL(4,2))|
CAST(9.995 AS DECIMAL(4,2))|10.00
CAST(1.5 AS DECIMAL)|2
CAST(CAST(2.5 AS DOUBLE) AS DECIMAL(3,0))|3
CAST(CAST(0.125 AS DOUBLE) AS DECIMAL(5,2))|0.13
1.5BD|1.5
1.50BD|1.50
0.001BD|0.001
-12345678901234567890123456789012.123456BD|-12345678901234567890123456789012.123456
99999999999999999999999999999999999999BD|99999999999999999999999999999999999999
CASES

eq "json keeps the scale" "$(F --format json -c "SELECT CAST(1 AS DECIMAL(10,2)) AS a, 1.50BD AS b")" \
    '{"a":1.00,"b":1.50}'
eq "NULL in, NULL out" "$(one "CAST(NULL AS DECIMAL(5,2))")" ""
eq "narrow cast compares as a number" "$(one "CAST('2.345' AS DECIMAL(10,2)) = 2.35")" "true"

# stored exactly in a wide column, by CAST, by BD and read back
C -c "CREATE NAMESPACE db; CREATE TABLE db.t (id BIGINT, big DECIMAL(38,6), n DECIMAL(10,2))" >/dev/null
C -c "INSERT INTO db.t VALUES (1, CAST('12345678901234567890123456789012.1234565' AS DECIMAL(38,6)), CAST(2.345 AS DECIMAL(10,2))), (2, -12345678901234567890123456789012.123456BD, 0.5BD)" >/dev/null
eq "wide values stored exactly" "$(C -c "SELECT id, big, n FROM db.t ORDER BY id")" "id,big,n
1,12345678901234567890123456789012.123457,2.35
2,-12345678901234567890123456789012.123456,0.50"
eq "BD literal in a wide comparison" "$(C -c "SELECT id FROM db.t WHERE big = -12345678901234567890123456789012.123456BD")" "id
2"

# errors as Spark's
err=$(F -c "SELECT CAST(1 AS DECIMAL(39,2))" 2>&1)
has "precision above 38" "$err" "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 39 exceeds max precision 38."
err=$(F -c "SELECT CAST(1 AS DECIMAL(2,3))" 2>&1)
has "scale above precision" "$err" "Decimal scale (3) cannot be greater than precision (2)."
err=$(F -c "SELECT 123456789012345678901234567890123456789BD" 2>&1)
has "BD literal above 38 digits" "$err" "Decimal precision 39 exceeds max precision 38."
err=$(F -c "SELECT 1.5BDX" 2>&1)
has "BD must end the literal" "$err" "unsupported numeric literal"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
