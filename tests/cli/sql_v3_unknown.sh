#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The v3 `unknown` type as Spark 3.5 + Iceberg 1.11 give it (Spark's VOID,
# NullType): CREATE / ALTER ... ADD COLUMNS, DESCRIBE and SHOW CREATE TABLE,
# INSERT of NULL only ("Cannot safely cast"), SELECT of nulls; the column is
# never written to Parquet (spec "Primitive Types"); an identity partition on
# it is the Avro type "null" in manifests; and Java's refusals: v1/v2 tables
# (Schema.checkCompatibility), NOT NULL (NestedField), list of unknown and a
# struct of unknown only (TypeToMessageType, parquet-mr). The expected rows and
# messages are those the peer Spark printed for the same statements.
set -u
: "${FLOE_BIN:?}"
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }
meta() { ls -t "$T"/wh/n.db/"$1"/metadata/*.metadata.json | head -1; }

C -c "CREATE NAMESPACE n;
CREATE TABLE n.v (a INT, u VOID) TBLPROPERTIES ('format-version'='3')" >/dev/null
eq "describe" "$(C -c "DESCRIBE n.v")" "col_name,data_type,comment
a,int,
u,void,"
eq "schema type" "$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); print([(f["name"], f["type"], f["required"]) for f in m["schemas"][-1]["fields"]])' "$(meta v)")" \
   "[('a', 'int', False), ('u', 'unknown', False)]"
C -c "INSERT INTO n.v VALUES (1, NULL); INSERT INTO n.v (a) VALUES (2); INSERT INTO n.v SELECT 4, NULL" >/dev/null
eq "select" "$(C -c "SELECT a, u, u IS NULL AS n FROM n.v ORDER BY a")" "a,u,n
1,,true
2,,true
4,,true"
eq "where" "$(C -c "SELECT count(*) AS c, count(u) AS cu FROM n.v WHERE u IS NULL")" "c,cu
3,0"
eq "where not null" "$(C -c "SELECT count(*) AS c FROM n.v WHERE u IS NOT NULL")" "c
0"
has "json null" "$(C --format json -c "SELECT a, u FROM n.v WHERE a = 1")" '{"a":1,"u":null}'
err=$(C -c "INSERT INTO n.v VALUES (3, 5)" 2>&1)
has "non-null refused" "$err" "AnalysisException: Cannot safely cast 'u'"
has "non-null refused: type" "$err" "void"
# the data files hold a only: no Parquet column, no metrics for u (id 2)
for f in "$T"/wh/n.db/v/data/*.parquet; do
    out=$("$FLOE_BIN" inspect --json "$f" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print([e["name"] for e in d["schema"]])')
    eq "parquet columns of $(basename "$f")" "$out" "['table', 'a']"
done
eq "no metrics for u" "$(C -c "SELECT DISTINCT value_counts, null_value_counts FROM n.v.files")" 'value_counts,null_value_counts
"{""1"":1}","{""1"":0}"'

# ADD COLUMNS, SHOW CREATE TABLE (Spark's text: VOID)
C -c "ALTER TABLE n.v ADD COLUMNS (w VOID)" >/dev/null
eq "describe after add" "$(C -c "DESCRIBE n.v")" "col_name,data_type,comment
a,int,
u,void,
w,void,"
has "show create" "$(C -c "SHOW CREATE TABLE n.v")" "  a INT,
  u VOID,
  w VOID)"
eq "old rows read the new column as null" "$(C -c "SELECT a, w FROM n.v ORDER BY a")" "a,w
1,
2,
4,"

# a struct member of type unknown: the struct's other members are written
C -c "CREATE TABLE n.s (a INT, s STRUCT<x: INT, u: VOID>) TBLPROPERTIES ('format-version'='3');
INSERT INTO n.s VALUES (1, named_struct('x', 1, 'u', NULL))" >/dev/null
eq "struct member" "$(C --format json -c "SELECT * FROM n.s")" '{"a":1,"s":{"x":1,"u":null}}'

# identity partition: Avro "null" in the manifest, Spark's u=null directory
C -c "CREATE TABLE n.p (a INT, u VOID) PARTITIONED BY (u) TBLPROPERTIES ('format-version'='3');
INSERT INTO n.p VALUES (1, NULL); INSERT INTO n.p VALUES (2, NULL)" >/dev/null
eq "partition: rows" "$(C -c "SELECT a, u FROM n.p ORDER BY a")" "a,u
1,
2,"
eq "partition: partitions" "$(C -c "SELECT partition, record_count, file_count FROM n.p.partitions")" 'partition,record_count,file_count
"{""u"":null}",2,2'
eq "partition: directory" "$(ls "$T"/wh/n.db/p/data)" "u=null"
man=$(ls -t "$T"/wh/n.db/p/metadata/*-m0.avro | head -1)
out=$("$FLOE_BIN" inspect --json "$man" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
s = d["metadata"]["avro.schema"]
df = [f for f in s["fields"] if f["name"] == "data_file"][0]["type"]
part = [f for f in df["fields"] if f["name"] == "partition"][0]["type"]
print(part["fields"])
print([e["data_file"]["partition"] for e in d["entries"]])')
eq "partition: manifest Avro type" "$out" "[{'name': 'u', 'type': 'null', 'default': None, 'field-id': 1000}]
[{'u': None}]"

# refusals, Java's messages
err=$(C -c "CREATE TABLE n.v2 (a INT, u VOID) TBLPROPERTIES ('format-version'='2')" 2>&1)
eq "v2 refused" "$err" "IllegalArgumentException: Invalid schema for v2:
- Invalid type for u: unknown is not supported until v3"
has "default version refused" "$(C -c "CREATE TABLE n.v0 (a INT, s STRUCT<u: VOID>)" 2>&1)" \
    "- Invalid type for s.u: unknown is not supported until v3"
err=$(C -c "CREATE TABLE n.w2 (a INT) TBLPROPERTIES ('format-version'='2'); ALTER TABLE n.w2 ADD COLUMNS (u VOID)" 2>&1)
has "v2 add column refused" "$err" "- Invalid type for u: unknown is not supported until v3"
eq "not null refused" "$(C -c "CREATE TABLE n.r (a INT, u VOID NOT NULL) TBLPROPERTIES ('format-version'='3')" 2>&1)" \
   "IllegalArgumentException: Cannot create required field with unknown type: u"
err=$(C -c "CREATE TABLE n.l (a INT, l ARRAY<VOID>) TBLPROPERTIES ('format-version'='3');
INSERT INTO n.l VALUES (1, array(NULL))" 2>&1)
has "list of unknown: no Parquet form" "$err" "Cannot convert element Parquet: unknown"
err=$(C -c "CREATE TABLE n.e (a INT, s STRUCT<u: VOID>) TBLPROPERTIES ('format-version'='3');
INSERT INTO n.e VALUES (1, named_struct('u', NULL))" 2>&1)
has "struct of unknown only: an empty group" "$err" "Cannot write a schema with an empty group: s"
eq "failed inserts commit nothing" "$(C -c "SELECT count(*) AS n FROM n.l.snapshots; SELECT count(*) AS n FROM n.e.snapshots")" "n
0
n
0"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
