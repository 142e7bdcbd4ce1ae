#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` evolution edge cases as Spark 3.5 + Iceberg 1.11 treat them
# (checked on Spark): columns named like metadata columns are allowed in
# CREATE TABLE / ADD COLUMN / RENAME COLUMN but a read of one fails with
# SparkSchemaUtil's ValidationException; column DEFAULTs are refused with
# Spark's messages and commit nothing.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
C() { F --format csv "$@"; }
meta() { ls "$T/wh/s.db/$1/metadata" | grep -c metadata.json; }
chk() { out=$(F -c "$1" 2>&1); eq "$1" "$?:$out" "1:$2"; }
conflict() {
    printf '%s\n%s' "ValidationException: Table column names conflict with names reserved for Iceberg metadata columns: [$1]." \
        "Please, use ALTER TABLE statements to rename the conflicting table columns."
}

# ---- reserved names: allowed in DDL and writes
F -c "CREATE NAMESPACE s; CREATE TABLE s.r (id INT, _file STRING)"
eq "create with _file" "$?" 0
F -c "INSERT INTO s.r VALUES (1, 'mine')"
eq "insert" "$?" 0
F -c "ALTER TABLE s.r ADD COLUMN _pos BIGINT" -c "ALTER TABLE s.r ADD COLUMN _deleted BOOLEAN" \
  -c "ALTER TABLE s.r ADD COLUMN _spec_id INT" -c "ALTER TABLE s.r ADD COLUMN _partition STRING" \
  -c "ALTER TABLE s.r ADD COLUMN _row_id BIGINT" -c "ALTER TABLE s.r ADD COLUMN _last_updated_sequence_number BIGINT" \
  -c "ALTER TABLE s.r ADD COLUMN _change_type STRING"
eq "add reserved names" "$?" 0
out=$(C -c "DESCRIBE s.r")
eq "describe" "$out" 'col_name,data_type,comment
id,int,
_file,string,
_pos,bigint,
_deleted,boolean,
_spec_id,int,
_partition,string,
_row_id,bigint,
_last_updated_sequence_number,bigint,
_change_type,string,'
# ---- ... but reading one fails, naming the ones read in table order
chk "SELECT id, _file FROM s.r" "$(conflict _file)"
chk "SELECT _spec_id, _pos FROM s.r" "$(conflict '_pos, _spec_id')"
chk "SELECT * FROM s.r" "$(conflict '_file, _pos, _deleted, _spec_id, _partition, _row_id, _last_updated_sequence_number')"
out=$(C -c "SELECT id, _change_type FROM s.r")
eq "unreserved name reads" "$out" "id,_change_type
1,"
out=$(C -c "SELECT count(*) AS n FROM s.r")
eq "count reads no column" "$out" "n
1"
# ---- renaming the column away gives the metadata column back
F -c "ALTER TABLE s.r RENAME COLUMN _file TO f" -c "ALTER TABLE s.r DROP COLUMNS _pos, _deleted, _spec_id, _partition, _row_id, _last_updated_sequence_number"
out=$(C -c "SELECT f, _file LIKE '%/s.db/r/data/%.parquet' AS meta, _pos FROM s.r")
eq "metadata column after rename" "$out" "f,meta,_pos
mine,true,0"
F -c "ALTER TABLE s.r RENAME COLUMN id TO _row_id"
eq "rename to a reserved name" "$?" 0
chk "SELECT _row_id FROM s.r" "$(conflict _row_id)"

# ---- column defaults: Spark refuses them in DDL
F -c "CREATE TABLE s.d (id INT)"
before=$(meta d)
chk "CREATE TABLE s.d2 (id INT, c INT DEFAULT 5)" \
    'AnalysisException: [UNSUPPORTED_FEATURE.TABLE_OPERATION] The feature is not supported: Table `local`.`s`.`d2` does not support column default value. Please check the current catalog and namespace to make sure the qualified table name is expected, and also check the catalog implementation which is configured by "spark.sql.catalog".'
out=$(C -c "SHOW TABLES IN s")
eq "nothing created" "$out" "namespace,tableName,isTemporary
s,d,false
s,r,false"
chk "ALTER TABLE s.d ADD COLUMN c INT DEFAULT 5" \
    "UnsupportedOperationException: Cannot add column c since setting default values in Spark is currently unsupported"
chk "ALTER TABLE s.d ADD COLUMNS (a INT, c2 STRING DEFAULT 'x')" \
    "UnsupportedOperationException: Cannot add column c2 since setting default values in Spark is currently unsupported"
chk "ALTER TABLE s.d ADD COLUMN c INT NOT NULL DEFAULT 5" \
    "IllegalArgumentException: Incompatible change: cannot add required column: c"
chk "ALTER TABLE s.d ALTER COLUMN id SET DEFAULT 3" \
    'UnsupportedOperationException: Cannot apply unknown table change: org.apache.spark.sql.connector.catalog.TableChange$UpdateColumnDefaultValue'
chk "ALTER TABLE s.d ALTER COLUMN id DROP DEFAULT" \
    'UnsupportedOperationException: Cannot apply unknown table change: org.apache.spark.sql.connector.catalog.TableChange$UpdateColumnDefaultValue'
out=$(F -c "ALTER TABLE s.d ADD COLUMN c INT DEFAULT" 2>&1)
eq "default without a value" "${out%% at line*}" "ParseException: syntax error: expected a literal (number, string, TIMESTAMP '...', DATE '...', true, false, NULL, array(), map())"
eq "nothing committed" "$(meta d)" "$before"

# ---- SHOW CREATE TABLE after evolution (text as Spark 3.5 printed it for
# the same table: tests/peers/test_evolution.py checks it against Spark)
F -c "CREATE TABLE s.c (id BIGINT NOT NULL COMMENT 'the id', \`my col\` STRING, ts TIMESTAMP, pt STRUCT<x: INT COMMENT 'it\'s x'>) PARTITIONED BY (days(ts), bucket(16, id)) COMMENT 'a table' TBLPROPERTIES ('k1'='v1', 'my.password'='hush')" \
  -c "ALTER TABLE s.c RENAME COLUMN \`my col\` TO payload" -c "ALTER TABLE s.c ADD PARTITION FIELD truncate(4, payload)" \
  -c "ALTER TABLE s.c WRITE ORDERED BY id DESC NULLS FIRST" -c "ALTER TABLE s.c SET IDENTIFIER FIELDS id" \
  -c "ALTER TABLE s.c ADD COLUMN \`1\` INT"
out=$(F --format csv -c "SHOW CREATE TABLE s.c")
eq "show create table" "$out" "createtab_stmt
\"CREATE TABLE local.s.c (
  id BIGINT NOT NULL COMMENT 'the id',
  payload STRING,
  ts TIMESTAMP,
  pt STRUCT<x: INT COMMENT 'it\\'s x'>,
  \`1\` INT)
USING iceberg
PARTITIONED BY (days(ts), truncate(4, payload))
CLUSTERED BY (id)
INTO 16 BUCKETS
COMMENT 'a table'
LOCATION '$T/wh/s.db/c'
TBLPROPERTIES (
  'current-snapshot-id' = 'none',
  'format' = 'iceberg/parquet',
  'format-version' = '2',
  'identifier-fields' = '[id]',
  'k1' = 'v1',
  'my.password' = '*********(redacted)',
  'sort-order' = 'id DESC NULLS FIRST',
  'write.distribution-mode' = 'range')
\""
out=$(F --format csv -c "DESCRIBE TABLE EXTENDED s.c" | sed -n '/# Partitioning/,$p')
eq "describe extended" "$out" '# Partitioning,"",""
Part 0,days(ts),""
Part 1,"bucket(16, id)",""
Part 2,"truncate(4, payload)",""
"","",""
# Detailed Table Information,"",""
Name,local.s.c,""
Type,MANAGED,""
Comment,a table,""
Location,'"$T/wh/s.db/c"',""
Provider,iceberg,""
Table Properties,"[current-snapshot-id=none,format=iceberg/parquet,format-version=2,identifier-fields=[id],k1=v1,my.password=*********(redacted),sort-order=id DESC NULLS FIRST,write.distribution-mode=range]",""'
out=$(F -c "SHOW CREATE TABLE s.c AS SERDE" 2>&1)
eq "as serde" "${out%% at line*}" "ParseException: unsupported: SHOW CREATE TABLE AS SERDE (v1 Hive tables only)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
