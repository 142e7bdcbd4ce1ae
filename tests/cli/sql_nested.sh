#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` nested column types (issue #10): CREATE TABLE with ARRAY/MAP/
# STRUCT (fresh field ids in Iceberg's assignFreshIds order), DESCRIBE's
# Spark type strings, INSERT from array()/map()/named_struct()/struct() and
# JSON text with nulls at every level, reads as Spark-shaped JSON, access by
# col[i], col['k'], col.field, json functions, errors (nothing committed),
# malformed types with positions, CTAS / INSERT SELECT round trips,
# UPDATE/DELETE keeping nested values, and the Spark-written fixture
# spark_all_types (list<string> ["item1","item2"], PROVENANCE.md #7).
# Every expected value below is written by hand.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
# rows without the header, cells joined by '|' (CSV quoting undone)
Q() {
    F --format csv -c "$1" | tail -n +2 |
        python3 -c 'import csv, sys; [print("|".join(r)) for r in csv.reader(sys.stdin)]'
}
SNAPS="SELECT count(*) FROM n.t.snapshots"

F -c "CREATE NAMESPACE n; CREATE TABLE n.t (id BIGINT, tags ARRAY<STRING>,
  attrs MAP<STRING, INT>, addr STRUCT<street: STRING, zip: INT NOT NULL COMMENT 'c'>,
  nested ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<DOUBLE>>>>)" >/dev/null

eq "describe" "$(Q "DESCRIBE n.t")" "id|bigint|
tags|array<string>|
attrs|map<string,int>|
addr|struct<street:string,zip:int>|
nested|array<struct<a:int,b:map<string,array<double>>>>|"

# field ids: top level 1..5, then each column's nested fields in order
META=$(ls "$T"/wh/n.db/t/metadata/*.metadata.json | tail -1)
ids=$(python3 - "$META" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
s = [x for x in m["schemas"] if x["schema-id"] == m["current-schema-id"]][0]
out = []
def print(line):
    out.append(line)
def walk(t, path):
    if not isinstance(t, dict):
        return
    if t["type"] == "struct":
        for f in t["fields"]:
            print(f"{path}{f['name']} {f['id']} {'req' if f['required'] else 'opt'}")
            walk(f["type"], f"{path}{f['name']}.")
    elif t["type"] == "list":
        print(f"{path}element {t['element-id']} {'req' if t['element-required'] else 'opt'}")
        walk(t["element"], f"{path}element.")
    elif t["type"] == "map":
        print(f"{path}key {t['key-id']} req")
        print(f"{path}value {t['value-id']} {'req' if t['value-required'] else 'opt'}")
        walk(t["key"], f"{path}key.")
        walk(t["value"], f"{path}value.")
walk(s, "")
for line in sorted(out, key=lambda l: int(l.split()[1])):
    sys.stdout.write(line + "\n")
sys.stdout.write(f"last-column-id {m['last-column-id']}\n")
EOF
)
eq "field ids" "$ids" "id 1 opt
tags 2 opt
attrs 3 opt
addr 4 opt
nested 5 opt
tags.element 6 opt
attrs.key 7 req
attrs.value 8 opt
addr.street 9 opt
addr.zip 10 req
nested.element 11 opt
nested.element.a 12 opt
nested.element.b 13 opt
nested.element.b.key 14 req
nested.element.b.value 15 opt
nested.element.b.value.element 16 opt
last-column-id 16"

# ---- writes: nulls at every level, every constructor, JSON text
F -c "INSERT INTO n.t VALUES
 (1, array('a', 'b'), map('x', 1, 'y', 2), named_struct('street', 'Main', 'zip', 12345),
     array(named_struct('a', 1, 'b', map('k', array(1.5, 2.0))))),
 (2, array(), map(), NULL, NULL),
 (3, NULL, NULL, named_struct('street', NULL, 'zip', 0), array(NULL, named_struct('a', NULL, 'b', NULL))),
 (4, array(NULL, 'c'), map('z', NULL), struct('S', 7), '[{\"a\":5,\"b\":{\"q\":[null,3]}}]')" >/dev/null
F -c "INSERT INTO n.t VALUES (5, '[\"j\"]', '{\"m\":-1}', '{\"zip\":9}',
 array(named_struct('a', 2, 'b', map('e', array()))))" >/dev/null
ROWS='1|["a","b"]|{"x":1,"y":2}|{"street":"Main","zip":12345}|[{"a":1,"b":{"k":[1.5,2.0]}}]
2|[]|{}||
3|||{"street":null,"zip":0}|[null,{"a":null,"b":null}]
4|[null,"c"]|{"z":null}|{"street":"S","zip":7}|[{"a":5,"b":{"q":[null,3.0]}}]
5|["j"]|{"m":-1}|{"street":null,"zip":9}|[{"a":2,"b":{"e":[]}}]'
eq "rows" "$(Q "SELECT * FROM n.t ORDER BY id")" "$ROWS"
eq "json output embeds nested values" "$(F --format json -c "SELECT id, tags, addr, nested[0].a AS a FROM n.t WHERE id IN (2, 4) ORDER BY id")" '{"id":2,"tags":[],"addr":null,"a":null}
{"id":4,"tags":[null,"c"],"addr":{"street":"S","zip":7},"a":5}'
eq "null vs empty" "$(Q "SELECT id, tags IS NULL, json_array_length(tags), addr IS NULL FROM n.t WHERE id IN (2, 3) ORDER BY id")" "2|false|0|true
3|true||false"

# ---- access forms
eq "subscripts and fields" "$(Q "SELECT id, tags[1], attrs['y'], addr.street, t.addr.zip,
  nested[0].b['k'][0], size(tags) FROM n.t AS t ORDER BY id")" "1|b|2|Main|12345|1.5|2
2||||||0
3||||0||-1
4|c||S|7||2
5||||9||1"
eq "filter on a field" "$(Q "SELECT id FROM n.t WHERE addr.zip > 100 OR array_contains(tags, 'c') ORDER BY id")" "1
4"
eq "json_each" "$(Q "SELECT t.id, e.value FROM n.t AS t, json_each(t.tags) AS e ORDER BY t.id, e.key")" "1|a
1|b
4|
4|c
5|j"
eq "json_extract" "$(Q "SELECT json_extract(nested, '\$[0].b.k[1]') FROM n.t WHERE id = 1")" "2.0"
eq "struct value is JSON" "$(Q "SELECT json_object('s', addr) FROM n.t WHERE id = 4")" '{"s":{"street":"S","zip":7}}'

# ---- errors: clear message, nothing committed
before=$(Q "$SNAPS")
err() { out=$(F -c "$2" 2>&1); eq "$1" "$?:$out" "1:$3"; }
err "required field" "INSERT INTO n.t VALUES (9, NULL, NULL, named_struct('street', 'x', 'zip', NULL), NULL)" \
    "AnalysisException: Cannot write nullable values to non-null field 'addr.zip'"
err "required field missing" "INSERT INTO n.t VALUES (9, NULL, NULL, '{\"street\":\"x\"}', NULL)" \
    "AnalysisException: Cannot write nullable values to non-null field 'addr.zip'"
err "leaf cast" "INSERT INTO n.t VALUES (9, NULL, map('k', 'x'), NULL, NULL)" \
    "AnalysisException: Cannot safely cast 'attrs.value': value 'x' does not fit type int"
err "deep leaf cast" "INSERT INTO n.t VALUES (9, NULL, NULL, NULL, array(named_struct('a', 1, 'b', map('k', array('no')))))" \
    "AnalysisException: Cannot safely cast 'nested.element.b.value.element': value 'no' does not fit type double"
err "shape" "INSERT INTO n.t VALUES (9, '{\"a\":1}', NULL, NULL, NULL)" \
    "AnalysisException: Cannot write to 'tags': expected a list (a JSON array)"
err "not JSON" "INSERT INTO n.t VALUES (9, 'nope', NULL, NULL, NULL)" \
    "AnalysisException: Cannot write to 'tags': 'nope' is not a JSON value of type list"
err "duplicate key" "INSERT INTO n.t VALUES (9, NULL, map('k', 1, 'k', 2), NULL, NULL)" \
    "AnalysisException: Cannot write to 'attrs': duplicate map key 'k'"
err "struct arity" "INSERT INTO n.t VALUES (9, NULL, NULL, struct('x'), NULL)" \
    "AnalysisException: Cannot write to 'addr': the struct value has a different number of fields"
err "second row fails" "INSERT INTO n.t VALUES (9, array('ok'), NULL, NULL, NULL), (10, NULL, NULL, struct(NULL, NULL), NULL)" \
    "AnalysisException: Cannot write nullable values to non-null field 'addr.zip'"
eq "nothing committed" "$(Q "$SNAPS")" "$before"
eq "rows unchanged" "$(Q "SELECT * FROM n.t ORDER BY id")" "$ROWS"

# ---- malformed types: position of the offending token
err "ARRAY<>" "CREATE TABLE n.x (a ARRAY<>)" \
    'ParseException: syntax error: expected a column type at line 1, column 27 near ">)"'
err "MAP<STRING>" "CREATE TABLE n.x (a MAP<STRING>)" \
    "ParseException: syntax error: expected ',' at line 1, column 31 near \">)\""
err "unknown type" "CREATE TABLE n.x (a STRUCT<b: FOO>)" \
    'ParseException: unsupported column type FOO at line 1, column 31 near "FOO>)"'
err "unclosed" "CREATE TABLE n.x (a ARRAY<INT)" \
    "ParseException: syntax error: expected '>' at line 1, column 30 near \")\""

err "partition by a struct" "CREATE TABLE n.x (id INT, addr STRUCT<a: INT>) PARTITIONED BY (addr)" \
    "ValidationException: Cannot partition by non-primitive source field: addr"
err "bucket of a list" "CREATE TABLE n.x (id INT, tags ARRAY<INT>) PARTITIONED BY (bucket(4, tags))" \
    "ValidationException: Cannot partition by non-primitive source field: tags"
eq "no table left" "$(Q "SHOW TABLES IN n" | grep -c '|x|')" "0"

# ---- other leaf types; map keys that are not strings; session time zone
F -c "CREATE TABLE n.e (id INT, d ARRAY<DECIMAL(10,2)>, ts STRUCT<t: TIMESTAMP, dt: DATE>,
  mk MAP<DATE, BOOLEAN>, m MAP<INT, STRING>, r ARRAY<BIGINT> NOT NULL);
 INSERT INTO n.e VALUES (1, array(1.005, 2, '3.1'),
  named_struct('t', TIMESTAMP '2026-01-02 03:04:05.123456', 'dt', DATE '2026-01-02'),
  map(DATE '2026-01-02', true), map(1, 'a', 2, NULL), array(9007199254740993, -1))" >/dev/null
eq "leaf types" "$(Q "SELECT * FROM n.e")" '1|[1.01,2.00,3.10]|{"t":"2026-01-02 03:04:05.123456","dt":"2026-01-02"}|{"2026-01-02":true}|{"1":"a","2":null}|[9007199254740993,-1]'
eq "timestamptz in session zone" "$(Q "SET TIME ZONE 'Asia/Tokyo'; SELECT ts.t, m['1'] FROM n.e")" "2026-01-02 12:04:05.123456|a"
eq "integer map key" "$(Q "SELECT m[1], m[2] IS NULL, d[2], r[0] FROM n.e")" "a|true|3.1|9007199254740993"
err "required column" "INSERT INTO n.e (id) VALUES (2)" \
    "AnalysisException: Cannot write nullable values to non-null column 'r'"
err "required column null" "INSERT INTO n.e VALUES (2, NULL, NULL, NULL, NULL, NULL)" \
    "AnalysisException: Cannot write nullable values to non-null column 'r'"

# ---- a partitioned table: one batch's rows routed to two partitions
F -c "CREATE TABLE n.pp (id INT, d DATE, tags ARRAY<STRING>, s STRUCT<x: INT>, m MAP<STRING, ARRAY<INT>>)
  PARTITIONED BY (d);
 INSERT INTO n.pp VALUES (1, DATE '2026-01-01', array('a'), named_struct('x', 1), map('k', array(1, NULL))),
  (2, DATE '2026-01-02', array('b', NULL), NULL, NULL), (3, DATE '2026-01-01', NULL, named_struct('x', NULL), map())" >/dev/null
eq "partitioned rows" "$(Q "SELECT * FROM n.pp ORDER BY id")" '1|2026-01-01|["a"]|{"x":1}|{"k":[1,null]}
2|2026-01-02|["b",null]||
3|2026-01-01||{"x":null}|{}'
eq "partitioned files" "$(Q "SELECT count(*) FROM n.pp.files")" "2"

# ---- CTAS and INSERT SELECT keep nested types and values
F -c "CREATE TABLE n.c AS SELECT id, tags, addr FROM n.t" >/dev/null
eq "ctas describe" "$(Q "DESCRIBE n.c")" "id|bigint|
tags|array<string>|
addr|struct<street:string,zip:int>|"
F -c "INSERT INTO n.c SELECT id + 10, tags, addr FROM n.t WHERE id IN (1, 3)" >/dev/null
eq "ctas rows" "$(Q "SELECT * FROM n.c WHERE id IN (1, 3, 11, 13) ORDER BY id")" '1|["a","b"]|{"street":"Main","zip":12345}
3||{"street":null,"zip":0}
11|["a","b"]|{"street":"Main","zip":12345}
13||{"street":null,"zip":0}'

# ---- UPDATE / DELETE rewrite files with nested columns intact
F -c "UPDATE n.t SET tags = array('u'), addr = named_struct('street', 'X', 'zip', addr.zip + 1) WHERE id = 4;
      DELETE FROM n.t WHERE id = 3" >/dev/null
eq "after update/delete" "$(Q "SELECT * FROM n.t ORDER BY id")" '1|["a","b"]|{"x":1,"y":2}|{"street":"Main","zip":12345}|[{"a":1,"b":{"k":[1.5,2.0]}}]
2|[]|{}||
4|["u"]|{"z":null}|{"street":"X","zip":8}|[{"a":5,"b":{"q":[null,3.0]}}]
5|["j"]|{"m":-1}|{"street":null,"zip":9}|[{"a":2,"b":{"e":[]}}]'

# ---- a nested column written by Spark (fixture #7: list<string>, element-id 13)
SHARED=${FLOE_SHARED_DIR:-${FLOE_SOURCE_DIR:-.}/../shared}
FX="$SHARED/fixtures/spark_all_types"
if [ -d "$FX" ]; then
    R() { F --conf "io.location-map=s3://warehouse/types/all_spark_types=$FX" "$@"; }
    R -c "CALL system.register_table(table => 'n.spark', metadata_file => '$FX/metadata/00000-4f9d7c78-62f9-48c6-b869-f25172b45b32.metadata.json')" >/dev/null
    eq "fixture type" "$(R --format csv -c "DESCRIBE n.spark" | grep col11)" "col11,array<string>,"
    eq "fixture value" "$(R --format csv -c "SELECT col11, col11[1], size(col11) AS n FROM n.spark" | tail -1)" '"[""item1"",""item2""]",item2,2'
else
    echo "fixtures absent: fixture checks skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
