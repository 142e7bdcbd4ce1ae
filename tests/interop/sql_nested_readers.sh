#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A table with nested columns written by `floe sql` (list, map, struct, list
# of struct of map of list; nulls at every level) is read back by DuckDB
# (read_parquet + to_json) and hyparquet with the same values, and its
# Parquet schema carries the Iceberg field ids of every nested field (spec
# "Parquet": field_id on each element). Expected values are written by hand.
set -u
SRC=${FLOE_SOURCE_DIR:?}
: "${FLOE_BIN:?}"
NM="$SRC/tests/interop/node_modules"
command -v node >/dev/null && [ -d "$NM/@duckdb/node-api" ] && [ -d "$NM/hyparquet" ] ||
    { echo "skip: node, @duckdb/node-api or hyparquet absent"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() { if [ "$2" = "$3" ]; then pass=$((pass+1)); echo "ok   $1"; else fail=$((fail+1)); printf 'FAIL %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$3" "$2"; fi; }
N() { FLOE_SOURCE_DIR="$SRC" node "$SRC/tests/interop/sql_nested_readers.mjs" "$@"; }

"$FLOE_BIN" sql --warehouse "$T/wh" -c "CREATE NAMESPACE n;
CREATE TABLE n.t (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, INT>,
  addr STRUCT<street: STRING, zip: INT NOT NULL>,
  nested ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<DOUBLE>>>>);
INSERT INTO n.t VALUES
 (1, array('a', 'b'), map('x', 1, 'y', 2), named_struct('street', 'Main', 'zip', 12345),
     array(named_struct('a', 1, 'b', map('k', array(1.5, 2.25))))),
 (2, array(), map(), NULL, NULL),
 (3, NULL, NULL, named_struct('street', NULL, 'zip', 0), array(NULL, named_struct('a', NULL, 'b', NULL))),
 (4, array(NULL, 'c'), map('z', NULL), named_struct('street', 'S', 'zip', 7),
     array(named_struct('a', 5, 'b', map('q', array(NULL, -3.5), 'r', NULL))))" >/dev/null ||
    { echo "FAIL floe sql"; echo "0 passed, 1 failed"; exit 1; }
FILE=$(ls "$T"/wh/n.db/t/data/*.parquet)
check "one data file" "$(wc -l <<<"$FILE")" "1"

check "duckdb values" "$(N duckdb "$FILE")" '1|["a","b"]|{"x":1,"y":2}|{"street":"Main","zip":12345}|[{"a":1,"b":{"k":[1.5,2.25]}}]
2|[]|{}|NULL|NULL
3|NULL|NULL|{"street":null,"zip":0}|[null,{"a":null,"b":null}]
4|[null,"c"]|{"z":null}|{"street":"S","zip":7}|[{"a":5,"b":{"q":[null,-3.5],"r":null}}]'

check "hyparquet values" "$(N hyparquet "$FILE")" '{"id":1,"tags":["a","b"],"attrs":{"x":1,"y":2},"addr":{"street":"Main","zip":12345},"nested":[{"a":1,"b":{"k":[1.5,2.25]}}]}
{"id":2,"tags":[],"attrs":{},"addr":null,"nested":null}
{"id":3,"tags":null,"attrs":null,"addr":{"street":null,"zip":0},"nested":[null,{"a":null,"b":null}]}
{"id":4,"tags":[null,"c"],"attrs":{"z":null},"addr":{"street":"S","zip":7},"nested":[{"a":5,"b":{"q":[null,-3.5],"r":null}}]}'

# field ids: top level 1..5, then assignFreshIds order (tags.element 6,
# attrs key 7 / value 8, addr fields 9 10, nested element 11, a 12, b 13,
# b key 14 / value 15, value element 16)
check "field ids" "$(N field-ids "$FILE" | sed 's/^.*=//' | sort -n | tr '\n' ' ')" \
    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 "
check "field id names" "$(N field-ids "$FILE" | grep -E '^(street|zip|a|b)=' | sort | tr '\n' ' ')" \
    "a=12 b=13 street=9 zip=10 "

# and floe reads what it wrote the same way
check "floe values" "$("$FLOE_BIN" sql --warehouse "$T/wh" --format csv -c "SELECT id, nested FROM n.t WHERE id = 4" | tail -1)" \
    '4,"[{""a"":5,""b"":{""q"":[null,-3.5],""r"":null}}]"'
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
