#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` and plain Parquet files: read_parquet('path' | 'glob' | array(...))
# in FROM (SELECT, INSERT ... SELECT, CTAS; schema mismatch, missing and
# broken files) and CALL system.add_files (unpartitioned and Hive-partitioned
# sources, partition_filter, duplicate check, metrics from footers equal to
# the writer's, errors leave the table unchanged). Files written by floe
# itself, so the core runs anywhere; DuckDB-written fixtures (../shared) and
# independent readers (icebird, DuckDB through tests/interop/node_modules)
# add checks when present.
set -u
: "${FLOE_BIN:?}"
SRC=${FLOE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
SHARED=${FLOE_SHARED_DIR:-$SRC/../shared}
NM=$SRC/tests/interop/node_modules
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }
nsnap() { C -c "SELECT count(*) AS n FROM $1.snapshots" | tail -1; }
have_node() { command -v node >/dev/null && [ -d "$NM/icebird" ] && [ -d "$NM/@duckdb/node-api" ]; }

# ---------------------------------------------------------------- floe-written files
C -c "CREATE NAMESPACE db;
CREATE TABLE db.src (id BIGINT, name STRING, amount DECIMAL(10,2), d DATE, ts TIMESTAMP_NTZ, ok BOOLEAN, x DOUBLE);
INSERT INTO db.src VALUES (1, 'a', 1.50, DATE '2024-01-01', TIMESTAMP_NTZ '2024-01-01 10:00:00', true, 0.5),
                          (2, 'b', NULL, DATE '2024-01-02', NULL, false, NULL);
INSERT INTO db.src VALUES (5, 'e', 120.25, DATE '2025-06-30', TIMESTAMP_NTZ '2025-06-30 23:59:59.5', true, 1e10)" >/dev/null
DATA=$T/wh/db.db/src/data
mapfile -t FILES < <(ls "$DATA"/*.parquet | sort)
eq "two files written" "${#FILES[@]}" 2
P1=$(for f in "${FILES[@]}"; do if [ "$(C -c "SELECT count(*) AS n FROM read_parquet('$f')" | tail -1)" = 2 ]; then echo "$f"; fi; done)
[ -n "$P1" ] || P1=${FILES[0]}

eq "read_parquet one file" "$(C -c "SELECT * FROM read_parquet('$P1') ORDER BY id")" "id,name,amount,d,ts,ok,x
1,a,1.50,2024-01-01,2024-01-01 10:00:00,true,0.5
2,b,,2024-01-02,,false,"
eq "glob over both files" "$(C -c "SELECT count(*) AS n, sum(id) AS s, max(amount) AS m FROM read_parquet('$DATA/*.parquet')")" "n,s,m
3,8,120.25"
eq "several path arguments" "$(C -c "SELECT count(*) AS n FROM read_parquet('${FILES[0]}', '${FILES[1]}')")" "n
3"
eq "array of paths" "$(C -c "SELECT count(*) AS n FROM read_parquet(array('${FILES[0]}', '${FILES[1]}'))")" "n
3"
eq "** glob" "$(C -c "SELECT count(*) AS n FROM read_parquet('$T/wh/**/*.parquet')")" "n
3"
eq "filter and join with a table" "$(C -c "SELECT p.id, s.name FROM read_parquet('$DATA/*.parquet') p JOIN db.src s ON s.id = p.id WHERE p.amount > 1 ORDER BY 1")" "id,name
1,a
5,e"

# INSERT INTO ... SELECT FROM read_parquet: exactly the source rows
C -c "CREATE TABLE db.dst (id BIGINT, name STRING, amount DECIMAL(10,2), d DATE, ts TIMESTAMP_NTZ, ok BOOLEAN, x DOUBLE);
INSERT INTO db.dst SELECT * FROM read_parquet('$DATA/*.parquet')" >/dev/null
eq "INSERT ... SELECT FROM read_parquet" "$(C -c "SELECT * FROM db.dst ORDER BY id")" "$(C -c "SELECT * FROM db.src ORDER BY id")"
eq "one snapshot" "$(nsnap db.dst)" 1
C -c "CREATE TABLE db.ctas AS SELECT * FROM read_parquet('$DATA/*.parquet')" >/dev/null
eq "CTAS columns take the file schema" "$(C -c "DESCRIBE db.ctas")" "$(C -c "DESCRIBE db.src")"
eq "CTAS rows" "$(C -c "SELECT * FROM db.ctas ORDER BY id")" "$(C -c "SELECT * FROM db.src ORDER BY id")"

# schema mismatch, missing files, not Parquet: clear errors, nothing changes
C -c "CREATE TABLE db.other (id BIGINT, z STRING); INSERT INTO db.other VALUES (9, 'z')" >/dev/null
Q=$(ls "$T"/wh/db.db/other/data/*.parquet)
out=$(C -c "SELECT * FROM read_parquet('$P1', '$Q')" 2>&1)
has "schema mismatch refused" "$?:$out" "1:AnalysisException: read_parquet: schema of $Q (id long, z string) does not match"
out=$(C -c "INSERT INTO db.dst SELECT * FROM read_parquet(array('$P1', '$Q'))" 2>&1)
has "mismatch in INSERT" "$?:$out" "does not match"
eq "mismatch: no snapshot" "$(nsnap db.dst)" 1
out=$(C -c "INSERT INTO db.dst SELECT * FROM read_parquet('$T/nope.parquet')" 2>&1)
has "missing file" "$?:$out" "1:AnalysisException: read_parquet: cannot open $T/nope.parquet"
eq "missing file: no snapshot" "$(nsnap db.dst)" 1
out=$(C -c "SELECT * FROM read_parquet('$T/none/*.parquet')" 2>&1)
has "glob without match" "$?:$out" "1:AnalysisException: No files found that match the pattern \"$T/none/*.parquet\""
echo "not parquet" >"$T/bad.parquet"
out=$(C -c "SELECT * FROM read_parquet('$T/bad.parquet')" 2>&1)
has "not a Parquet file" "$?:$out" "is not a readable Parquet file"
out=$(C -c "SELECT * FROM read_parquet('$P1', binary_as_string => true)" 2>&1)
has "unknown option" "$?:$out" "1:UnsupportedOperationException: read_parquet: option binary_as_string is not supported"
out=$(C -c "SELECT * FROM read_parquet(1)" 2>&1)
has "path must be a string" "$?:$out" "read_parquet expects file paths as strings"

# ---------------------------------------------------------------- add_files, unpartitioned
mkdir -p "$T/flat/sub"
cp "$P1" "$T/flat/a.parquet"
echo x >"$T/flat/_SUCCESS"
echo x >"$T/flat/.a.parquet.crc"
cp "$P1" "$T/flat/sub/skipped.parquet"   # not a partition directory: not listed (Java lists one level)
C -c "CREATE TABLE db.t (id BIGINT, name STRING, amount DECIMAL(10,2), d DATE, ts TIMESTAMP_NTZ, ok BOOLEAN, x DOUBLE)" >/dev/null
eq "add_files output" "$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$T/flat\`')")" "added_files_count,changed_partition_count
1,1"
eq "adopted rows" "$(C -c "SELECT * FROM db.t ORDER BY id")" "$(C -c "SELECT * FROM read_parquet('$P1') ORDER BY id")"
eq "append snapshot" "$(C -c "SELECT operation, summary['added-data-files'] AS f, summary['added-records'] AS r, summary['total-data-files'] AS tf FROM db.t.snapshots")" "operation,f,r,tf
append,1,2,1"
eq "file adopted in place" "$(C -c "SELECT file_path, record_count, file_size_in_bytes, sort_order_id, split_offsets FROM db.t.files")" "file_path,record_count,file_size_in_bytes,sort_order_id,split_offsets
$T/flat/a.parquet,2,$(stat -c %s "$P1"),0,"
M="column_sizes, value_counts, null_value_counts, lower_bounds, upper_bounds"
eq "footer metrics equal the writer's" "$(C -c "SELECT $M FROM db.t.files")" "$(C -c "SELECT $M FROM db.src.files WHERE file_path = '$P1'")"
has "name mapping committed" "$(C -c "DESCRIBE EXTENDED db.t")" 'schema.name-mapping.default=[{""field-id"":1,""names"":[""id""]}'

n=$(nsnap db.t)
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$T/flat/a.parquet\`')" 2>&1)
has "duplicate refused" "$?:$out" "1:IllegalStateException: Cannot complete import because data files to be imported already exist within the target table: $T/flat/a.parquet.  This is disabled by default"
eq "duplicate: table unchanged" "$(nsnap db.t)" "$n"
eq "check_duplicate_files => false" "$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$T/flat/a.parquet\`', check_duplicate_files => false); SELECT count(*) AS n FROM db.t")" "added_files_count,changed_partition_count
1,1
n
4"
n=$(nsnap db.t)
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$T/flat\`', partition_filter => map('id', 1))" 2>&1)
has "filter on unpartitioned" "$?:$out" "1:IllegalArgumentException: Cannot use partition filter with an unpartitioned table"
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$T/nowhere\`')" 2>&1)
has "missing source" "$?:$out" "1:AnalysisException: Path does not exist: $T/nowhere"
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$T/bad.parquet\`')" 2>&1)
has "not Parquet" "$?:$out" "1:"
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => 'db.src')" 2>&1)
has "catalog source" "$?:$out" "1:UnsupportedOperationException: add_files: source_table must be \`parquet\`.\`<path>\`"
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`orc\`.\`$T/flat\`')" 2>&1)
has "orc" "$?:$out" "only Parquet files are supported"
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$T/flat\`', parallelism => 0)" 2>&1)
has "parallelism" "$?:$out" "Parallelism should be larger than 0"
out=$(C -c "CALL system.add_files(table => 'db.t')" 2>&1)
has "source_table required" "$?:$out" "Missing required parameters: [source_table]"
eq "errors: table unchanged" "$(nsnap db.t)" "$n"

# ---------------------------------------------------------------- add_files, Hive-partitioned
C -c "CREATE TABLE db.ps (id BIGINT, cat STRING) PARTITIONED BY (cat);
INSERT INTO db.ps VALUES (1, 'x'), (2, 'x'), (3, 'y');
CREATE TABLE db.ids (id BIGINT); INSERT INTO db.ids VALUES (4);
CREATE TABLE db.pt (id BIGINT, cat STRING) PARTITIONED BY (cat);
CREATE TABLE db.pid (id BIGINT, cat STRING) PARTITIONED BY (id)" >/dev/null
PS=$T/wh/db.db/ps/data
eq "partition dirs" "$(cd "$PS" && ls | sort | tr '\n' ' ')" "cat=x cat=y "
# a Hive directory as Spark/Hive escape it (%3D is '='), holding a file
# without the partition column: its value comes from the directory
mkdir -p "$T/hv/cat=z%3Dw"
cp "$T"/wh/db.db/ids/data/*.parquet "$T/hv/cat=z%3Dw/"
out=$(C -c "CALL system.add_files(table => 'db.pt', source_table => '\`parquet\`.\`$PS\`', partition_filter => map('cat', 'x'));
SELECT id, cat FROM db.pt ORDER BY id")
eq "partition_filter" "$out" "added_files_count,changed_partition_count
1,1
id,cat
1,x
2,x"
out=$(C -c "CALL system.add_files(table => 'db.pt', source_table => '\`parquet\`.\`$PS\`')" 2>&1)
has "duplicates within a partitioned import" "$?:$out" "1:IllegalStateException: Cannot complete import because data files to be imported already exist within the target table: $PS/cat=x/"
out=$(C -c "CALL system.add_files(table => 'db.pt', source_table => '\`parquet\`.\`$PS/cat=y\`')" 2>&1)
has "partition dir alone is no partition" "$?:$out" "1:IllegalArgumentException: Cannot find any matching partitions in table"
out=$(C -c "CALL system.add_files(table => 'db.pt', source_table => '\`parquet\`.\`$PS\`', partition_filter => map('cat', 'y', 'id', '1'));" 2>&1)
has "too many filter columns" "$?:$out" "the number of columns in the provided partition filter (2) is greater than the number of partitioned columns in table (1)"
out=$(C -c "CALL system.add_files(table => 'db.pt', source_table => '\`parquet\`.\`$PS\`', partition_filter => map('id', '1'));" 2>&1)
has "filter on a non-partition column" "$?:$out" "specified partition filter refers to columns that are not partitioned: id . Valid partition columns: [cat]"
out=$(C -c "CALL system.add_files(table => 'db.pid', source_table => '\`parquet\`.\`$PS\`')" 2>&1)
has "no matching spec" "$?:$out" "1:IllegalArgumentException: Cannot find a partition spec in Iceberg table db.pid that matches the partition columns (cat) in input table"
out=$(C -c "CALL system.add_files(table => 'db.t', source_table => '\`parquet\`.\`$PS\`')" 2>&1)
has "partitioned files into an unpartitioned table" "$?:$out" "Cannot add partitioned files to an unpartitioned table"
eq "errors: db.pt unchanged" "$(nsnap db.pt)" 1
out=$(C -c "CALL system.add_files(table => 'db.pt', source_table => '\`parquet\`.\`$PS\`', partition_filter => map('cat', 'y'));
CALL system.add_files(table => 'db.pt', source_table => '\`parquet\`.\`$T/hv\`', partition_filter => map('cat', 'z=w'));
SELECT id, cat FROM db.pt ORDER BY id;
SELECT partition.cat AS c, record_count FROM db.pt.files ORDER BY 1;
SELECT id FROM db.pt WHERE cat = 'z=w'")
eq "escaped partition value, pruning" "$out" "added_files_count,changed_partition_count
1,1
added_files_count,changed_partition_count
1,1
id,cat
1,x
2,x
3,y
4,z=w
c,record_count
x,2
y,1
z=w,1
id
4"
eq "EXPLAIN prunes by the adopted partitions" "$(C -c "EXPLAIN SELECT id FROM db.pt WHERE cat = 'y'" | grep -o 'manifests=[0-9]*/[0-9]* files=[0-9]*/[0-9]*')" "manifests=1/3 files=1/1"

# ---------------------------------------------------------------- DuckDB-written fixtures
HIVE=$SHARED/fixtures/spark_hive_partition_evolution/data
if [ -d "$HIVE" ]; then
  eq "read_parquet over DuckDB files" "$(C -c "SELECT user_id FROM read_parquet('$HIVE/event_date=2024-01-0[34]/*/*.parquet') ORDER BY 1")" "user_id
13579
24680
86420
97531"
  mkdir -p "$T/hive"
  cp -r "$HIVE"/event_date=2024-01-03 "$HIVE"/event_date=2024-01-04 "$T/hive/"
  out=$(C -c "CREATE TABLE db.ev (event_date DATE, user_id BIGINT, event_type STRING) PARTITIONED BY (event_date, event_type);
CALL system.add_files(table => 'db.ev', source_table => '\`parquet\`.\`$T/hive\`');
SELECT event_date, user_id, event_type FROM db.ev ORDER BY event_date, user_id")
  eq "add_files of DuckDB-written Hive directories" "$out" "added_files_count,changed_partition_count
4,4
event_date,user_id,event_type
2024-01-03,13579,view
2024-01-03,24680,click
2024-01-04,86420,view
2024-01-04,97531,purchase"
else
  echo "note: $HIVE absent, DuckDB fixture checks skipped"
fi

# ---------------------------------------------------------------- independent readers
if have_node; then
  ice() { node "$SRC/tests/interop/table_icebird.mjs" "$(ls -t "$T/wh/db.db/$1/metadata/"*.metadata.json | head -1)" "$2" current 2>&1; }
  eq "icebird reads the adopted file" "$(ice t name)" "current 4 a,a,b,b"
  eq "icebird reads the partitioned adoption" "$(ice pt id)" "current 4 1,2,3,4"
  # a DuckDB file has no field ids: columns map by name (and the name mapping)
  mkdir -p "$T/duck"
  FLOE_SOURCE_DIR=$SRC node "$SRC/tests/interop/sql_duckdb_query.mjs" "COPY (SELECT * FROM (VALUES
    (3::BIGINT, 'c', 2.25::DECIMAL(10,2), DATE '2024-02-01', true, 1.5::DOUBLE),
    (4, 'dd', -7.10, DATE '2023-12-31', NULL, -2.0)) v(id, name, amount, d, ok, x))
    TO '$T/duck/f.parquet' (FORMAT parquet)" >/dev/null
  eq "read_parquet of a DuckDB file" "$(C -c "SELECT * FROM read_parquet('$T/duck/f.parquet') ORDER BY id")" "id,name,amount,d,ok,x
3,c,2.25,2024-02-01,true,1.5
4,dd,-7.10,2023-12-31,,-2.0"
  out=$(C -c "CREATE TABLE db.nm (x DOUBLE, missing STRING, name STRING, id BIGINT);
CALL system.add_files(table => 'db.nm', source_table => '\`parquet\`.\`$T/duck\`');
SELECT * FROM db.nm ORDER BY id;
SELECT lower_bounds, upper_bounds, null_value_counts FROM db.nm.files")
  eq "add_files maps a file without ids by name" "$out" 'added_files_count,changed_partition_count
1,1
x,missing,name,id
1.5,,c,3
-2.0,,dd,4
lower_bounds,upper_bounds,null_value_counts
"{""3"":""63"",""4"":""0300000000000000""}","{""3"":""6464"",""4"":""0400000000000000""}","{""1"":0,""3"":0,""4"":0}"'
  eq "icebird reads it through the name mapping" "$(ice nm name)" "current 2 c,dd"
else
  echo "note: node or tests/interop/node_modules absent, reader checks skipped"
fi

# ---------------------------------------------------------------- nested columns
C -c "CREATE TABLE db.nest (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, addr STRUCT<street: STRING, zip: INT>);
INSERT INTO db.nest VALUES (1, array('a', 'b'), map('x', 1), named_struct('street', 's', 'zip', 7)), (2, NULL, map(), NULL)" >/dev/null
NF=$(ls "$T"/wh/db.db/nest/data/*.parquet | head -1)
eq "read_parquet nested" "$(C -c "SELECT id, tags, attrs, addr, tags[1] AS t1 FROM read_parquet('$NF') ORDER BY id")" 'id,tags,attrs,addr,t1
1,"[""a"",""b""]","{""x"":1}","{""street"":""s"",""zip"":7}",b
2,,{},,'
C -c "CREATE TABLE db.nest2 AS SELECT * FROM read_parquet('$NF'); INSERT INTO db.nest SELECT * FROM read_parquet('$NF')" >/dev/null
eq "CTAS keeps nested types" "$(C -c "DESCRIBE db.nest2" | sed -n 3,4p)" 'tags,array<string>,
attrs,"map<string,int>",'
eq "insert nested from file" "$(C -c "SELECT count(*) AS n, sum(addr.zip) AS z FROM db.nest" | tail -1)" "4,14"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
