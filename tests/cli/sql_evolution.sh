#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` schema and partition evolution: ALTER TABLE column DDL,
# partition fields, write order, identifier fields; reads of old files
# after each change, time travel with each snapshot's schema, pruning
# across specs; refused changes (Java's / Spark's messages) commit nothing.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
C() { F --format csv "$@"; }
meta() { ls "$T/wh/s.db/t/metadata" | grep -c metadata.json; }

F -c "CREATE NAMESPACE s; CREATE TABLE s.t (id BIGINT NOT NULL, data STRING, cat STRING, n INT, f FLOAT) USING iceberg PARTITIONED BY (cat)"
F -c "INSERT INTO s.t VALUES (1, 'a', 'x', 10, 1.5), (2, 'b', 'y', 20, 2.5)"
eq "setup" "$?" 0

# ---- column DDL
F -c "ALTER TABLE s.t ADD COLUMNS (price DECIMAL(9,2) COMMENT 'the price' AFTER id, pt STRUCT<x: INT, y: INT>)"
eq "add columns" "$?" 0
F -c "ALTER TABLE s.t ADD COLUMN pt.z DOUBLE FIRST"
F -c "ALTER TABLE s.t RENAME COLUMN data TO payload"
F -c "ALTER TABLE s.t ALTER COLUMN n TYPE BIGINT"
F -c "ALTER TABLE s.t ALTER COLUMN f TYPE DOUBLE"
F -c "ALTER TABLE s.t ALTER COLUMN price TYPE DECIMAL(12,2)"
F -c "ALTER TABLE s.t ALTER COLUMN payload COMMENT 'the text'"
F -c "ALTER TABLE s.t ALTER COLUMN f FIRST"
F -c "ALTER TABLE s.t ALTER COLUMN id DROP NOT NULL"
out=$(C -c "DESCRIBE s.t")
eq "describe" "$out" 'col_name,data_type,comment
f,double,
id,bigint,
price,"decimal(12,2)",the price
payload,string,the text
cat,string,
n,bigint,
pt,"struct<z:double,x:int,y:int>",
# Partition Information,"",""
# col_name,data_type,comment
cat,string,'

F -c "INSERT INTO s.t VALUES (0.5, 3, 1.25, 'c', 'x', 30, named_struct('z', 3.5, 'x', 1, 'y', 2))"
out=$(C -c "SELECT id, f, price, payload, n, pt.z AS z, pt.x AS x FROM s.t ORDER BY id")
eq "read old and new files" "$out" "id,f,price,payload,n,z,x
1,1.5,,a,10,,
2,2.5,,b,20,,
3,0.5,1.25,c,30,3.5,1"

# ---- time travel uses each snapshot's schema
S1=$(C -c "SELECT snapshot_id FROM s.t.snapshots ORDER BY committed_at LIMIT 1" | tail -1)
out=$(C -c "SELECT * FROM s.t VERSION AS OF $S1 ORDER BY id")
eq "version as of: old schema" "$out" "id,data,cat,n,f
1,a,x,10,1.5
2,b,y,20,2.5"

# ---- partition evolution: old files keep their spec, pruning spans both
F -c "ALTER TABLE s.t ADD PARTITION FIELD bucket(4, id) AS id_b"
F -c "ALTER TABLE s.t REPLACE PARTITION FIELD cat WITH truncate(2, payload)"
F -c "INSERT INTO s.t VALUES (4.5, 4, 9.99, 'dd', 'x', 40, NULL)"
out=$(C -c "SELECT spec_id, count(*) AS files FROM s.t.files GROUP BY spec_id ORDER BY spec_id")
eq "files per spec" "$out" "spec_id,files
0,3
2,1"
out=$(C -c "SELECT id FROM s.t WHERE cat = 'x' ORDER BY id")
eq "filter across specs" "$out" "id
1
3
4"
out=$(C -c "DESCRIBE s.t" | grep '^Part')
eq "describe spec" "$out" 'Part 0,"bucket(4, id)",""
Part 1,"truncate(2, payload)",""'
F -c "ALTER TABLE s.t DROP PARTITION FIELD id_b"
out=$(C -c "DESCRIBE s.t" | grep '^Part')
eq "drop partition field by name" "$out" 'Part 0,"truncate(2, payload)",""'

# ---- write order and identifier fields
F -c "ALTER TABLE s.t WRITE ORDERED BY n DESC, id"
out=$(C -c "DESCRIBE EXTENDED s.t" | grep 'Table Properties')
has "sort-order" "$out" "sort-order=n DESC NULLS LAST, id ASC NULLS FIRST"
has "range distribution" "$out" "write.distribution-mode=range"
F -c "ALTER TABLE s.t WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY payload NULLS LAST"
out=$(C -c "DESCRIBE EXTENDED s.t" | grep 'Table Properties')
has "hash distribution" "$out" "write.distribution-mode=hash"
has "local order" "$out" "sort-order=payload ASC NULLS LAST"
F -c "ALTER TABLE s.t WRITE UNORDERED"
out=$(C -c "DESCRIBE EXTENDED s.t" | grep 'Table Properties')
has "unordered" "$out" "write.distribution-mode=none"
case "$out" in *sort-order*) bad "unordered keeps no sort-order: $out" ;; *) ok ;; esac

F -c "CREATE TABLE s.k (id BIGINT NOT NULL, region STRING NOT NULL, v DOUBLE NOT NULL) USING iceberg"
F -c "ALTER TABLE s.k SET IDENTIFIER FIELDS id, region"
F -c "ALTER TABLE s.k DROP IDENTIFIER FIELDS region"
out=$(C -c "DESCRIBE EXTENDED s.k" | grep 'Table Properties')
has "identifier fields" "$out" "identifier-fields=[id]"

# ---- a write order sorts the rows of every file written after it
F -c "CREATE TABLE s.o (id BIGINT, n INT, g STRING) USING iceberg PARTITIONED BY (g)"
F -c "ALTER TABLE s.o WRITE ORDERED BY n DESC NULLS LAST, id"
F -c "INSERT INTO s.o VALUES (1, 5, 'a'), (2, NULL, 'a'), (3, 9, 'b'), (4, 7, 'a'), (5, 7, 'a'), (6, 1, 'b'), (7, 8, 'a')"
out=$(C -c "SELECT id, n FROM s.o WHERE g = 'a'")
eq "sorted within the file" "$out" "id,n
7,8
4,7
5,7
1,5
2,"
out=$(C -c "SELECT id FROM s.o WHERE g = 'b'")
eq "sorted within the other file" "$out" "id
3
6"
F -c "ALTER TABLE s.o WRITE UNORDERED"
F -c "INSERT INTO s.o VALUES (10, 1, 'c'), (11, 2, 'c')"
out=$(C -c "SELECT id FROM s.o WHERE g = 'c'")
eq "unordered keeps insert order" "$out" "id
10
11"

# ---- refused changes: Java's messages, nothing committed
before=$(meta)
chk() { out=$(F -c "$1" 2>&1); eq "$1" "$?:$out" "1:$2"; }
chk "ALTER TABLE s.t DROP COLUMN payload" \
    "ValidationException: Cannot find source column for partition field: 1002: payload_trunc_2: truncate[2](2)"
chk "ALTER TABLE s.t ALTER COLUMN n TYPE INT" \
    'AnalysisException: [NOT_SUPPORTED_CHANGE_COLUMN] ALTER TABLE ALTER/CHANGE COLUMN is not supported for changing `local`.`s`.`t`'"'"'s column `n` with type "BIGINT" to `n` with type "INT".'
chk "ALTER TABLE s.t ALTER COLUMN n TYPE STRING" \
    "IllegalArgumentException: Cannot change column type: n: long -> string"
chk "ALTER TABLE s.t ALTER COLUMN payload SET NOT NULL" \
    "AnalysisException: Cannot change nullable column to non-nullable: payload."
chk "ALTER TABLE s.t ADD COLUMN pt.x INT" \
    'AnalysisException: [FIELDS_ALREADY_EXISTS] Cannot add column, because `x` already exists in "STRUCT<z: DOUBLE, x: INT, y: INT>".'
chk "ALTER TABLE s.t ADD COLUMN r INT NOT NULL" \
    "IllegalArgumentException: Incompatible change: cannot add required column: r"
chk "ALTER TABLE s.t DROP COLUMN nope" \
    "IllegalArgumentException: Cannot delete missing column: nope"
chk "ALTER TABLE s.t RENAME COLUMN nope TO x" \
    "IllegalArgumentException: Cannot rename missing column: nope"
chk "ALTER TABLE s.t RENAME COLUMN n TO cat" \
    'AnalysisException: [FIELDS_ALREADY_EXISTS] Cannot rename column, because `cat` already exists in "STRUCT<f: DOUBLE, id: BIGINT, price: DECIMAL(12,2) COMMENT '"'"'the price'"'"', payload: STRING COMMENT '"'"'the text'"'"', cat: STRING, n: BIGINT, pt: STRUCT<z: DOUBLE, x: INT, y: INT>>".'
chk "ALTER TABLE s.t ALTER COLUMN n AFTER nope" \
    "IllegalArgumentException: Cannot move n after missing column: nope"
chk "ALTER TABLE s.t ADD PARTITION FIELD truncate(2, payload)" \
    "IllegalArgumentException: Cannot add duplicate partition field null=truncate[2](ref(name=\"payload\")), conflicts with 1002: payload_trunc_2: truncate[2](2)"
chk "ALTER TABLE s.t ADD PARTITION FIELD days(payload)" \
    "ValidationException: Cannot bind: day cannot transform string values from 'payload'"
chk "ALTER TABLE s.t DROP PARTITION FIELD nope" \
    "IllegalArgumentException: Cannot find partition field to remove: nope"
chk "ALTER TABLE s.t WRITE ORDERED BY nope" \
    "ValidationException: Cannot find field 'nope' in struct: struct<5: f: optional double, 1: id: optional long, 6: price: optional decimal(12, 2) (the price), 2: payload: optional string (the text), 3: cat: optional string, 4: n: optional long, 7: pt: optional struct<10: z: optional double, 8: x: optional int, 9: y: optional int>>"
chk "ALTER TABLE s.k SET IDENTIFIER FIELDS v" \
    "IllegalArgumentException: Cannot add field v as an identifier field: must not be float or double field"
chk "ALTER TABLE s.k DROP COLUMN id" \
    "IllegalArgumentException: Cannot delete identifier field 1: id: required long. To force deletion, also call setIdentifierFields to update identifier fields."
chk "ALTER TABLE s.k DROP IDENTIFIER FIELDS v" \
    "IllegalArgumentException: Cannot complete drop identifier fields operation: v is not an identifier field"
eq "nothing committed" "$(meta)" "$before"
out=$(C -c "SELECT count(*) AS n FROM s.t")
eq "table readable" "$out" "n
4"

# ---- rollback moves main only: the current schema stays (Java's
# rollbackTo / SetSnapshotOperation), old rows read through it
F -c "CREATE TABLE s.rb (id INT, qty INT)" -c "INSERT INTO s.rb VALUES (1, 10)"
first=$(C -c "SELECT snapshot_id FROM s.rb.snapshots" | tail -1)
F -c "ALTER TABLE s.rb ADD COLUMN note STRING" -c "ALTER TABLE s.rb RENAME COLUMN qty TO quantity" \
  -c "INSERT INTO s.rb VALUES (2, 20, 'x')" -c "CALL local.system.rollback_to_snapshot('s.rb', $first)" >/dev/null
out=$(C -c "SELECT * FROM s.rb")
eq "rollback keeps the schema" "$out" "id,quantity,note
1,10,"
out=$(C -c "SELECT * FROM s.rb VERSION AS OF $first")
eq "the old snapshot's schema by VERSION AS OF" "$out" "id,qty
1,10"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
