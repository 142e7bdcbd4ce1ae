#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Format v3 writes (spec "Row Lineage", Appendix E): CREATE TABLE with
# 'format-version'='3', the upgrade of a v2 table by SET TBLPROPERTIES (Java's
# TableMetadata.replaceProperties: reserved key, downgrade refused), next-row-id,
# snapshot first-row-id / added-rows, v3 manifest lists (first_row_id handed
# to data manifests in list order, each reserving added + existing rows) and
# the _row_id / _last_updated_sequence_number values readers derive from them.
set -u
: "${FLOE_BIN:?}"
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }
# the table's newest metadata.json
meta() { ls -t "$T"/wh/n.db/"$1"/metadata/*.metadata.json | head -1; }

# ---- a new v3 table: row ids 0.. in commit order
C -c "CREATE NAMESPACE n;
CREATE TABLE n.t (id BIGINT, s STRING) TBLPROPERTIES ('format-version'='3');
INSERT INTO n.t VALUES (1, 'a'), (2, 'b');
INSERT INTO n.t VALUES (3, 'c')" >/dev/null
eq "v3 lineage" "$(C -c "SELECT _row_id, _last_updated_sequence_number AS seq, id FROM n.t ORDER BY id")" \
"_row_id,seq,id
0,1,1
1,1,2
2,2,3"
out=$("$PY" - "$(meta t)" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
print(m["format-version"], m["next-row-id"], "format-version" in m["properties"])
for s in sorted(m["snapshots"], key=lambda s: s["sequence-number"]):
    print(s["sequence-number"], s["first-row-id"], s["added-rows"])
EOF
)
eq "v3 metadata" "$out" "3 3 False
1 0 2
2 2 1"
list=$(ls -t "$T"/wh/n.db/t/metadata/snap-*.avro | head -1)
out=$("$FLOE_BIN" inspect --json "$list" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print(d["metadata"]["format-version"], d["metadata"]["first-row-id"])
for e in d["entries"]:
    print(e["first_row_id"], e["added_rows_count"])')
eq "v3 manifest list" "$out" "3 2
2 1
0 2"
man=$(ls -t "$T"/wh/n.db/t/metadata/*-m0.avro | head -1)
has "v3 manifest" "$("$FLOE_BIN" inspect --json "$man")" '"format-version": "3"'

# ---- upgrade of a v2 table: the first v3 commit numbers the old rows too
C -c "CREATE TABLE n.u (id BIGINT) TBLPROPERTIES ('format-version'='2');
INSERT INTO n.u VALUES (1), (2);
ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='3', 'k'='v');
INSERT INTO n.u VALUES (3)" >/dev/null
eq "upgraded" "$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["format-version"], m["next-row-id"], m["properties"].get("k"), "format-version" in m["properties"])' "$(meta u)")" \
   "3 3 v False"
# new manifest first in the list (0), the v2 one after it (1, 2)
eq "upgraded lineage" "$(C -c "SELECT _row_id, id FROM n.u ORDER BY id")" "_row_id,id
1,1
2,2
0,3"
out=$(C -c "ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='2')" 2>&1)
eq "downgrade" "$out" "IllegalArgumentException: Cannot downgrade v3 table to v2"
out=$(C -c "ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='4')" 2>&1)
eq "unsupported" "$out" "IllegalArgumentException: Cannot upgrade table to unsupported format version: v4 (supported: v3)"
eq "same version: nothing to commit" "$(C -c "ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='3'); SELECT count(*) AS n FROM n.u.snapshots")" "n
2"

# ---- deletion vectors (spec "Deletion Vectors"): merge-on-read DELETE /
# UPDATE write one Puffin DV per data file; a second delete of the same file
# merges the old DV into the new one and removes the old
C -c "CREATE TABLE n.m (id BIGINT, s STRING) TBLPROPERTIES ('format-version'='3',
 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read');
INSERT INTO n.m VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
INSERT INTO n.m VALUES (5, 'e'), (6, 'f');
DELETE FROM n.m WHERE id = 2" >/dev/null
eq "dv: one" "$(C -c "SELECT file_format, record_count, content_offset, content_size_in_bytes FROM n.m.delete_files")" \
"file_format,record_count,content_offset,content_size_in_bytes
PUFFIN,1,4,42"
C -c "DELETE FROM n.m WHERE id IN (3, 6)" >/dev/null
# file 1: {1} merged with {2}; file 2: {1}; the old DV gone
eq "dv: merged" "$(C -c "SELECT record_count FROM n.m.delete_files ORDER BY record_count")" "record_count
1
2"
# snapshot by sequence number (commits in one millisecond share committed_at)
snap() { "$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); s=sorted(m["snapshots"], key=lambda s: s["sequence-number"])[int(sys.argv[2])]; print(s["snapshot-id"] if sys.argv[3] == "id" else ",".join(s["summary"].get(k, "") for k in sys.argv[3].split(",")))' "$(meta "$1")" "$2" "$3"; }
eq "dv: summary" "$(snap m -1 added-dvs,removed-dvs,added-position-delete-files,total-delete-files,total-position-deletes)" "2,1,,2,3"
C -c "UPDATE n.m SET s = 'X' WHERE id = 1" >/dev/null
eq "dv: rows" "$(C -c "SELECT id, s FROM n.m ORDER BY id")" "id,s
1,X
4,d
5,e"
eq "dv: one per data file" "$(C -c "SELECT count(*) AS n, count(DISTINCT referenced_data_file) AS f, sum(record_count) AS r FROM n.m.delete_files")" "n,f,r
2,2,4"
# every snapshot still reads as it was
eq "dv: time travel" "$(C -c "SELECT count(*) AS n FROM n.m VERSION AS OF $(snap m 2 id)")" "n
5"
# a v2 table keeps Parquet position delete files
C -c "CREATE TABLE n.p (id BIGINT) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read');
INSERT INTO n.p VALUES (1), (2); DELETE FROM n.p WHERE id = 1" >/dev/null
eq "v2: parquet deletes" "$(C -c "SELECT file_format FROM n.p.delete_files")" "file_format
PARQUET"

# ---- row lineage through copy-on-write (spec "Row Lineage"): a copied row keeps
# _row_id and _last_updated_sequence_number, an updated row keeps its id and takes
# the commit's sequence number, a new row gets a new id
C -c "CREATE TABLE n.w (id BIGINT, s STRING) TBLPROPERTIES ('format-version'='3',
  'write.update.mode'='copy-on-write', 'write.delete.mode'='copy-on-write',
  'write.merge.mode'='copy-on-write');
INSERT INTO n.w VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO n.w VALUES (4, 'd'), (5, 'e');
UPDATE n.w SET s = 'B' WHERE id = 2" >/dev/null
L="SELECT id, _row_id, _last_updated_sequence_number AS seq FROM n.w ORDER BY id"
eq "cow lineage: update" "$(C -c "$L")" "id,_row_id,seq
1,0,1
2,1,3
3,2,1
4,3,2
5,4,2"
# the rewritten file stores the columns (the reserved ids), so it inherits nothing
eq "cow lineage: stored" "$(C -c "SELECT count(*) AS n FROM n.w.files WHERE record_count = 3 AND first_row_id = 5")" "n
1"
C -c "DELETE FROM n.w WHERE id = 4;
MERGE INTO n.w t USING (SELECT 1 AS id, 'A' AS s UNION ALL SELECT 9, 'z') src ON t.id = src.id
WHEN MATCHED THEN UPDATE SET s = src.s WHEN NOT MATCHED THEN INSERT *" >/dev/null
# DELETE (seq 4) copies 5 with (4, 2); MERGE (seq 5) rewrites 1's file: 1 keeps id 0, 3 is
# copied, 9 is new: next-row-id was 9 (5, + 3 rows of UPDATE's file, + 1 of DELETE's),
# so 9's id is 9 + its position in the MERGE's 4-row file
out=$(C -c "$L")
eq "cow lineage: merge" "$(sed '$d' <<<"$out")" "id,_row_id,seq
1,0,5
2,1,3
3,2,1
5,4,2"
nine=$(tail -1 <<<"$out")
id9=$(cut -d, -f2 <<<"$nine")
case "$nine" in 9,*,5) if [ "$id9" -ge 9 ] && [ "$id9" -le 12 ]; then ok; else bad "cow lineage: insert $nine"; fi ;;
  *) bad "cow lineage: insert $nine" ;; esac
# merge-on-read UPDATE: the new version keeps the row's id
C -c "ALTER TABLE n.w SET TBLPROPERTIES ('write.update.mode'='merge-on-read');
UPDATE n.w SET s = 'C' WHERE id = 3" >/dev/null
eq "mor lineage: update" "$(C -c "SELECT _row_id, _last_updated_sequence_number AS seq FROM n.w WHERE id = 3")" "_row_id,seq
2,6"

# ---- timestamp_ns / timestamptz_ns (floe's TIMESTAMP_NS extension; v3 only, Java's
# Schema.checkCompatibility message)
err=$(C -c "CREATE TABLE n.ns2 (id BIGINT, s STRUCT<a: TIMESTAMP_NS>)" 2>&1)
has "ns: v2 refused" "$err" "Invalid schema for v2:"
has "ns: v2 refused, nested name" "$err" "- Invalid type for s.a: timestamp_ns is not supported until v3"
C -c "CREATE TABLE n.ns (id BIGINT, ts TIMESTAMP_NS, tz TIMESTAMPTZ_NS) PARTITIONED BY (days(ts))
  TBLPROPERTIES ('format-version'='3');
INSERT INTO n.ns VALUES (1, '2024-01-02 03:04:05.123456789', '2024-01-02 03:04:05.123456789Z'),
  (2, '1969-12-31 23:59:59.999999999', NULL)" >/dev/null
eq "ns: rows" "$(C -c "SELECT * FROM n.ns ORDER BY id")" "id,ts,tz
1,2024-01-02 03:04:05.123456789,2024-01-02 03:04:05.123456789
2,1969-12-31 23:59:59.999999999,"
eq "ns: filter at the nanosecond" "$(C -c "SELECT id FROM n.ns WHERE ts > '2024-01-02 03:04:05.123456788'")" "id
1"
eq "ns: day partitions" "$(C -c "SELECT partition FROM n.ns.files ORDER BY partition")" 'partition
"{""ts_day"":""1969-12-31""}"
"{""ts_day"":""2024-01-02""}"'
# single-value serialization: nanoseconds as a little-endian long
want=$("$PY" -c 'import struct; print(struct.pack("<q", 1704164645123456789).hex())')
has "ns: bound" "$(C -c "SELECT lower_bounds FROM n.ns.files WHERE record_count = 1 AND partition LIKE '%2024%'")" "\"\"2\"\":\"\"$want\"\""
err=$(C -c "INSERT INTO n.ns VALUES (3, '2300-01-01 00:00:00', NULL)" 2>&1)
has "ns: out of range" "$err" "does not fit type timestamp_ns"

# ---- defaults: write-default on INSERT; ADD COLUMN ... DEFAULT behind floe.column-defaults
C -c "CREATE TABLE n.d (id BIGINT) TBLPROPERTIES ('format-version'='3'); INSERT INTO n.d VALUES (1)" >/dev/null
err=$(C -c "ALTER TABLE n.d ADD COLUMN c INT DEFAULT 5" 2>&1)
has "default: Spark's refusal" "$err" "Cannot add column c since setting default values in Spark is currently unsupported"
C -c "SET floe.column-defaults = true;
ALTER TABLE n.d ADD COLUMNS (c INT DEFAULT 5, dec DECIMAL(5,2) DEFAULT 1.5, s STRING NOT NULL DEFAULT 'x');
INSERT INTO n.d (id) VALUES (2); INSERT INTO n.d (id, c, s) VALUES (3, 30, 'y')" >/dev/null
eq "default: initial and write defaults" "$(C -c "SELECT * FROM n.d ORDER BY id")" "id,c,dec,s
1,5,1.50,x
2,5,1.50,x
3,30,1.50,y"
eq "default: in the schema" "$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); f=m["schemas"][-1]["fields"]; print([(x["name"], x.get("initial-default"), x.get("write-default"), x["required"]) for x in f[1:]])' "$(meta d)")" \
   "[('c', 5, 5, False), ('dec', '1.50', '1.50', False), ('s', 'x', 'x', True)]"
err=$(C -c "CREATE TABLE n.d2 (id BIGINT); SET floe.column-defaults = true; ALTER TABLE n.d2 ADD COLUMN c INT DEFAULT 5" 2>&1)
has "default: v2 refused" "$err" "non-null default is not supported until v3"

# initial-default at every nesting level: old rows read the new nested fields' defaults
C -c "CREATE TABLE n.nd (id BIGINT, s STRUCT<a: INT>, l ARRAY<STRUCT<a: INT>>, m MAP<STRING, STRUCT<a: INT>>)
  TBLPROPERTIES ('format-version'='3');
INSERT INTO n.nd VALUES (1, named_struct('a', 1), array(named_struct('a', 2)), map('k', named_struct('a', 3)));
SET floe.column-defaults = true;
ALTER TABLE n.nd ADD COLUMNS (s.x INT DEFAULT 7, l.element.y STRING DEFAULT 'e', m.value.z BOOLEAN DEFAULT true)" >/dev/null
eq "default: nested initial defaults" "$(C --format json -c "SELECT s, l, m FROM n.nd")" \
   '{"s":{"a":1,"x":7},"l":[{"a":2,"y":"e"}],"m":{"k":{"a":3,"z":true}}}'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
