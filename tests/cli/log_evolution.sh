#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe log` and `floe suspects` show schema, partition-spec and sort-order
# changes (found along the metadata log: they commit no snapshot) at their
# place in time, with what changed; a suspect written with another schema
# than its parent says so. Expected text written by hand; ids and times
# vary per run and are replaced by ID / TIME.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
L() { "$FLOE_BIN" log --warehouse "$T/wh" "$@"; }
mask() { sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}(\.[0-9]{3})?/TIME/g; s/[0-9]{12,19}/ID/g'; }
gmask() { mask | sed -E 's/ {2,}/  /g'; } # graph columns: widths follow the ids

F -c "CREATE NAMESPACE s; CREATE TABLE s.t (id BIGINT NOT NULL, qty INT, pt STRUCT<x: INT>, day DATE) PARTITIONED BY (day)"
F -c "ALTER TABLE s.t ALTER COLUMN qty COMMENT 'before any data'"
F -c "INSERT INTO s.t VALUES (1, 2, named_struct('x', 1), DATE'2026-01-01')"
F -c "ALTER TABLE s.t ADD COLUMN discount DECIMAL(10,2) AFTER id" -c "ALTER TABLE s.t RENAME COLUMN qty TO quantity" \
  -c "ALTER TABLE s.t ADD COLUMN pt.y STRING"
F -c "INSERT INTO s.t VALUES (2, 1.5, 3, named_struct('x', 2, 'y', 'b'), DATE'2026-01-02')"
F -c "ALTER TABLE s.t ADD PARTITION FIELD bucket(4, id)" -c "ALTER TABLE s.t DROP PARTITION FIELD day" \
  -c "ALTER TABLE s.t WRITE ORDERED BY id DESC" -c "ALTER TABLE s.t ALTER COLUMN quantity TYPE BIGINT" \
  -c "ALTER TABLE s.t ALTER COLUMN discount FIRST" -c "ALTER TABLE s.t ALTER COLUMN pt.x DROP NOT NULL"
F -c "INSERT INTO s.t VALUES (1.0, 3, 4, named_struct('x', 3, 'y', 'c'), DATE'2026-01-03')"
F -c "ALTER TABLE s.t DROP COLUMN discount" -c "ALTER TABLE s.t SET IDENTIFIER FIELDS id"
eq "setup" "$?" 0

out=$(L s.t --graph --ascii | gmask)
eq "graph" "$out" '|  TIME  schema 7 -> 8: identifier fields [] -> [id]
|  TIME  schema 6 -> 7: dropped column discount
@  ID  TIME  append  +1 -0 records, 3 total, 3 files  (main)
|  TIME  schema 5 -> 6: moved discount
|  TIME  schema 4 -> 5: promoted quantity int -> bigint
|  TIME  sort order 0 -> 1: id DESC NULLS LAST
|  TIME  partition spec 1 -> 2: removed field day
|  TIME  partition spec 0 -> 1: added field id_bucket_4: bucket[4](id)
*  ID  TIME  append  +1 -0 records, 2 total, 2 files
|  TIME  schema 3 -> 4: added column pt.y string
|  TIME  schema 2 -> 3: renamed qty -> quantity
|  TIME  schema 1 -> 2: added column discount decimal(10,2)
*  ID  TIME  append  +1 -0 records, 1 total, 1 files
  TIME  schema 0 -> 1: comment on qty '"'"'before any data'"'"
out=$(L s.t --format csv | cut -d, -f1,4,9- | mask)
eq "csv" "$out" 'snapshot_id,operation,refs,state,wap_id,change
,schema,,,,schema 7 -> 8: identifier fields [] -> [id]
,schema,,,,schema 6 -> 7: dropped column discount
ID,append,main,current,,
,schema,,,,schema 5 -> 6: moved discount
,schema,,,,schema 4 -> 5: promoted quantity int -> bigint
,sort-order,,,,sort order 0 -> 1: id DESC NULLS LAST
,partition-spec,,,,partition spec 1 -> 2: removed field day
,partition-spec,,,,partition spec 0 -> 1: added field id_bucket_4: bucket[4](id)
ID,append,,main,,
,schema,,,,schema 3 -> 4: added column pt.y string
,schema,,,,schema 2 -> 3: renamed qty -> quantity
,schema,,,,"schema 1 -> 2: added column discount decimal(10,2)"
ID,append,,main,,
,schema,,,,schema 0 -> 1: comment on qty '"'"'before any data'"'"
# --limit: changes older than the listed snapshots are left out with them
out=$(L s.t --limit 1 --format json | mask)
eq "json limit" "$out" '{"snapshot_id":null,"parent_id":null,"committed_at":"TIME","operation":"schema","added_records":null,"deleted_records":null,"total_records":null,"total_files":null,"refs":null,"state":null,"wap_id":null,"change":"schema 7 -> 8: identifier fields [] -> [id]"}
{"snapshot_id":null,"parent_id":null,"committed_at":"TIME","operation":"schema","added_records":null,"deleted_records":null,"total_records":null,"total_files":null,"refs":null,"state":null,"wap_id":null,"change":"schema 6 -> 7: dropped column discount"}
{"snapshot_id":ID,"parent_id":ID,"committed_at":"TIME","operation":"append","added_records":1,"deleted_records":0,"total_records":3,"total_files":3,"refs":"main","state":"current","wap_id":null,"change":null}'

# ---- the metadata log gone (expired, deleted): a snapshot written with
# another schema than its parent still shows the change, at its commit
F -c "CREATE TABLE s.g (id INT)" -c "INSERT INTO s.g VALUES (1)" -c "ALTER TABLE s.g ADD COLUMN note STRING" \
  -c "INSERT INTO s.g VALUES (2, 'x')"
for f in "$T"/wh/s.db/g/metadata/*.metadata.json; do
    [ "$f" = "$(ls "$T"/wh/s.db/g/metadata/*.metadata.json | sort | tail -1)" ] || rm "$f"
done
out=$(L s.g --graph --ascii | gmask)
eq "graph without the metadata log" "$out" '@  ID  TIME  append  +1 -0 records, 2 total, 2 files  (main)
|  TIME  schema 0 -> 1: added column note string
*  ID  TIME  append  +1 -0 records, 1 total, 1 files'

# ---- floe suspects: a load 20x the usual one, written after a schema change
F -c "CREATE TABLE s.n (id INT, v INT)"
for i in 1 2 3 4 5 6; do F -c "INSERT INTO s.n VALUES ($i, $i)"; done
F -c "ALTER TABLE s.n ADD COLUMN extra STRING" -c "ALTER TABLE s.n RENAME COLUMN v TO value"
F -c "INSERT INTO s.n VALUES $(for i in $(seq 20); do printf '(%d, %d, NULL),' $i $i; done | sed 's/,$//')"
out=$("$FLOE_BIN" suspects --warehouse "$T/wh" s.n | mask)
eq "suspects" "$out" 'suspect ID  TIME  append
  why:      added-records 20 is 20.0x the median 1 of the 6 previous appends (robust z 19.0); written with schema 2, its parent with schema 0 (renamed v -> value; added column extra string)
  target:   ID (its parent)
  undo:     CALL local.system.rollback_to_snapshot('"'"'s.n'"'"', ID)'
out=$("$FLOE_BIN" suspects --warehouse "$T/wh" s.n --format csv | tail -1 | mask)
eq "suspects csv" "$out" 'ID,TIME,append,main,"added-records 20 is 20.0x the median 1 of the 6 previous appends (robust z 19.0); written with schema 2, its parent with schema 0 (renamed v -> value; added column extra string)",ID,"CALL local.system.rollback_to_snapshot('"'"'s.n'"'"', ID)"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
