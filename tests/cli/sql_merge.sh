#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` row-level statements beyond simple filters: DELETE / UPDATE
# with subqueries, EXISTS and functions in WHERE (rows found by SQLite
# through the hidden _file/_pos columns), the _file/_pos metadata columns in
# SELECT, MERGE INTO (update + delete + insert, NOT MATCHED BY SOURCE, the
# cardinality error, branch targets, copy-on-write and merge-on-read,
# sources: table, subquery, temporary view, VALUES), and REPLACE TABLE /
# CREATE OR REPLACE TABLE [AS SELECT] keeping the table's history.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }
snaps() { C -c "SELECT operation, summary['added-records'] AS a, summary['deleted-records'] AS d, summary['added-position-deletes'] AS pd FROM $1.snapshots"; }
count_snaps() { C -c "SELECT count(*) AS n FROM $1.snapshots" | tail -1; }
# metadata files of table directory $1 and the newest one (%05d- names sort)
metas() { find "$T/wh" -path "*/$1/metadata/*.metadata.json" | wc -l; }
latest() { find "$T/wh" -path "*/$1/metadata/*.metadata.json" | sort | tail -1; }

C -c "CREATE NAMESPACE s;
CREATE TABLE s.t (id BIGINT, v STRING, n INT);
INSERT INTO s.t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30);
INSERT INTO s.t VALUES (4, 'd', 40), (5, 'e', 50);
CREATE TABLE s.gone (id BIGINT);
INSERT INTO s.gone VALUES (2), (5)" >/dev/null

# ---- _file / _pos metadata columns
out=$(C -c "SELECT id, _pos, _file LIKE '%.parquet' AS pq FROM s.t ORDER BY id" 2>&1)
eq "_pos per file" "$out" "id,_pos,pq
1,0,true
2,1,true
3,2,true
4,0,true
5,1,true"
eq "SELECT * hides them" "$(C -c "SELECT * FROM s.t WHERE id = 1")" "id,v,n
1,a,10"
eq "_file is a data file" "$(C -c "SELECT count(DISTINCT t._file) AS n FROM s.t t JOIN s.t.files f ON f.file_path = t._file")" "n
2"

# positions count rows before deletes (merge-on-read keeps the file)
out=$(C -c "CREATE TABLE s.pos (id BIGINT) TBLPROPERTIES ('write.delete.mode'='merge-on-read');
INSERT INTO s.pos VALUES (1), (2), (3); DELETE FROM s.pos WHERE id = 1;
SELECT id, _pos FROM s.pos ORDER BY id" 2>&1)
eq "_pos after a position delete" "$out" "id,_pos
2,1
3,2"

# ---- DELETE with a subquery (positions), copy-on-write
out=$(C -c "DELETE FROM s.t WHERE id IN (SELECT id FROM s.gone); SELECT id FROM s.t ORDER BY id" 2>&1)
eq "subquery delete rows" "$out" "id
1
3
4"
eq "subquery delete snapshot" "$(snaps s.t | tail -1)" "overwrite,3,5,"

# ---- UPDATE with EXISTS and arithmetic
out=$(C -c "UPDATE s.t AS x SET v = upper(v) || '!' WHERE EXISTS (SELECT 1 FROM s.gone g WHERE g.id + 1 = x.id) OR x.n * 2 = 80;
SELECT * FROM s.t ORDER BY id" 2>&1)
eq "exists update rows" "$out" "id,v,n
1,a,10
3,C!,30
4,D!,40"
eq "exists update snapshot" "$(snaps s.t | tail -1)" "overwrite,3,3,"
n0=$(count_snaps s.t)
C -c "DELETE FROM s.t WHERE id IN (SELECT id FROM s.gone)" >/dev/null
eq "no match: no snapshot" "$(count_snaps s.t)" "$n0"
out=$(C -c "DELETE FROM s.t WHERE length(v) = 2; SELECT id FROM s.t ORDER BY id" 2>&1)
eq "function delete" "$out" "id
1"

# ---- MERGE: update + delete + insert (copy-on-write)
C -c "CREATE TABLE s.m (id BIGINT, v STRING, n INT);
INSERT INTO s.m VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3), (4, 'd', 4);
CREATE TABLE s.src (id BIGINT, v STRING, n INT, op STRING);
INSERT INTO s.src VALUES (1, 'A', 100, 'u'), (2, 'B', 200, 'd'), (9, 'I', 900, 'i'), (8, 'x', 0, 'skip')" >/dev/null
out=$(C -c "MERGE INTO s.m AS t USING s.src AS s ON t.id = s.id
WHEN MATCHED AND s.op = 'd' THEN DELETE
WHEN MATCHED THEN UPDATE SET v = s.v, n = t.n + s.n
WHEN NOT MATCHED AND s.op <> 'skip' THEN INSERT (id, v) VALUES (s.id, lower(s.v));
SELECT * FROM s.m ORDER BY id" 2>&1)
eq "merge rows" "$out" "id,v,n
1,A,101
3,c,3
4,d,4
9,i,"
eq "merge snapshot" "$(snaps s.m | tail -1)" "overwrite,4,4,"

# ---- NOT MATCHED BY SOURCE, SET *, INSERT *, subquery source
out=$(C -c "MERGE INTO s.m t USING (SELECT id, v, n FROM s.src WHERE op IN ('u', 'i')) s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET *
WHEN NOT MATCHED BY SOURCE AND t.id = 3 THEN DELETE
WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = 'stale'
WHEN NOT MATCHED THEN INSERT *;
SELECT * FROM s.m ORDER BY id" 2>&1)
eq "by source rows" "$out" "id,v,n
1,A,100
4,stale,4
9,I,900"

# ---- insert-only MERGE is an append; VALUES source with column aliases; temp view
out=$(C -c "MERGE INTO s.m t USING (VALUES (1, 'no', 0), (20, 'new', 2)) AS s(id, v, n) ON t.id = s.id
WHEN NOT MATCHED THEN INSERT *;
CREATE TEMPORARY VIEW fix AS SELECT 20 AS id, 'fixed' AS v;
MERGE INTO s.m t USING fix f ON t.id = f.id WHEN MATCHED THEN UPDATE SET v = f.v;
SELECT * FROM s.m WHERE id >= 9 ORDER BY id" 2>&1)
eq "values + view rows" "$out" "id,v,n
9,I,900
20,fixed,2"
eq "insert-only is append" "$(snaps s.m | tail -2 | head -1)" "append,1,,"

# ---- cardinality: a target row matched twice fails, table unchanged
n0=$(count_snaps s.m)
out=$(C -c "MERGE INTO s.m t USING (SELECT 1 AS id UNION ALL SELECT 1) s ON t.id = s.id
WHEN MATCHED THEN UPDATE SET v = 'twice'" 2>&1)
eq "cardinality error" "$?:$out" "1:SparkException: [MERGE_CARDINALITY_VIOLATION] The ON search condition of the MERGE statement matched a single row from the target table with multiple rows of the source table. This could result in the target row being operated on more than once with an update or delete operation and is not allowed."
eq "cardinality: unchanged" "$(count_snaps s.m):$(C -c "SELECT v FROM s.m WHERE id = 1" | tail -1)" "$n0:A"
# a single unconditional DELETE is not checked (Spark)
out=$(C -c "MERGE INTO s.m t USING (SELECT 20 AS id UNION ALL SELECT 20) s ON t.id = s.id
WHEN MATCHED THEN DELETE; SELECT count(*) AS n FROM s.m WHERE id = 20" 2>&1)
eq "duplicate delete allowed" "$out" "n
0"

# ---- bad input: nothing changes
n0=$(count_snaps s.m)
out=$(C -c "MERGE INTO s.m t USING s.src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET nope = 1" 2>&1)
eq "unknown SET column" "$?:$out" "1:AnalysisException: Cannot find column 'nope' of table s.m"
out=$(C -c "MERGE INTO s.m t USING s.src s ON t.id = s.nope WHEN MATCHED THEN DELETE" 2>&1)
eq "unknown ON column" "$?:$out" "1:AnalysisException: no such column: s.nope"
out=$(C -c "MERGE INTO s.m t USING s.src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, n) VALUES (s.id, 'abc')" 2>&1)
eq "type error" "$?:$out" "1:AnalysisException: Cannot safely cast 'n': value 'abc' does not fit type int"
out=$(C -c "MERGE INTO s.m t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *" 2>&1)
has "SET * needs every column" "$?:$out" "1:AnalysisException: Cannot resolve s.m.v in the source of MERGE"
out=$(C -c "MERGE INTO s.nope t USING s.src s ON t.id = s.id WHEN MATCHED THEN DELETE" 2>&1)
has "unknown target" "$?:$out" "1:NoSuchTableException"
eq "bad input: unchanged" "$(count_snaps s.m)" "$n0"

# ---- merge-on-read (write.merge.mode) and a branch target
C -c "CREATE TABLE s.r (id BIGINT, v STRING) TBLPROPERTIES ('format-version'='2', 'write.merge.mode'='merge-on-read');
INSERT INTO s.r VALUES (1, 'a'), (2, 'b'), (3, 'c')" >/dev/null
out=$(C -c "MERGE INTO s.r t USING (SELECT 2 AS id, 'B' AS v UNION ALL SELECT 3, NULL UNION ALL SELECT 4, 'D') s ON t.id = s.id
WHEN MATCHED AND s.v IS NULL THEN DELETE WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *;
SELECT * FROM s.r ORDER BY id" 2>&1)
eq "mor rows" "$out" "id,v
1,a
2,B
4,D"
eq "mor snapshot" "$(snaps s.r | tail -1)" "overwrite,2,,2"
eq "mor files" "$(C -c "SELECT content, record_count FROM s.r.files ORDER BY content, record_count")" "content,record_count
0,2
0,3
1,2"
out=$(C -c "ALTER TABLE s.r CREATE BRANCH audit;
MERGE INTO s.r.branch_audit t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = 'branch';
SELECT * FROM s.r ORDER BY id; SELECT * FROM s.r VERSION AS OF 'audit' ORDER BY id" 2>&1)
eq "branch target" "$out" "id,v
1,a
2,B
4,D
id,v
1,branch
2,B
4,D"

# ---- REPLACE TABLE ... AS SELECT keeps the history
C -c "CREATE TABLE s.rt (id BIGINT, v STRING) PARTITIONED BY (v) TBLPROPERTIES ('keep'='1');
INSERT INTO s.rt VALUES (1, 'a'), (2, 'b'); INSERT INTO s.rt VALUES (3, 'c')" >/dev/null
old=$(C -c "SELECT snapshot_id FROM s.rt.refs WHERE name = 'main'" | tail -1)
m0=$(metas rt)
C -c "REPLACE TABLE s.rt (id BIGINT, w DOUBLE) TBLPROPERTIES ('k'='v')
AS SELECT id * 10 AS id, id / 2.0 AS w FROM s.rt WHERE id < 3" >/dev/null
eq "rtas is one commit" "$(metas rt)" "$((m0 + 1))"
out=$(C -c "SELECT * FROM s.rt ORDER BY id; SELECT count(*) AS old_rows FROM s.rt VERSION AS OF $old;
SELECT count(*) AS h, sum(CASE WHEN is_current_ancestor THEN 1 ELSE 0 END) AS cur FROM s.rt.history;
SELECT operation, summary['added-records'] AS a, summary['total-records'] AS t, parent_id IS NULL AS root FROM s.rt.snapshots;
DESCRIBE s.rt" 2>&1)
eq "rtas" "$out" "id,w
10,0.5
20,1.0
old_rows
3
h,cur
3,1
operation,a,t,root
append,2,2,true
append,1,3,false
append,2,2,true
col_name,data_type,comment
id,bigint,
w,double,"
meta=$(ls -t $(find "$T/wh" -path '*rt/metadata/*.metadata.json') | head -1)
out=$(python3 -c "
import json,sys; m=json.load(open(sys.argv[1]))
print(m['current-schema-id'], m['last-column-id'], m['default-spec-id'], m['last-partition-id'], len(m['schemas']), sorted(m['refs']), sorted(m['properties'].items()))
print([(f['id'], f['name']) for f in m['schemas'][-1]['fields']], m['partition-specs'][-1]['fields'])" "$meta" 2>&1)
eq "rtas metadata" "$out" "1 3 1 1000 2 ['main'] [('k', 'v'), ('keep', '1')]
[(1, 'id'), (3, 'w')] []"
if command -v node >/dev/null && [ -d "${FLOE_SOURCE_DIR:-/nonexistent}/tests/interop/node_modules/icebird" ]; then
    out=$(node "$FLOE_SOURCE_DIR/tests/interop/table_icebird.mjs" "$meta" id current 1 2 2>&1)
    eq "icebird reads the replaced table" "$out" "current 2 10,20
1 3 1,2,3
2 2 10,20"
fi

# ---- REPLACE without AS SELECT: empty, same schema reused; CREATE OR REPLACE
m0=$(metas rt)
C -c "REPLACE TABLE s.rt (id BIGINT, w DOUBLE)" >/dev/null
eq "replace is one commit" "$(metas rt)" "$((m0 + 1))"
out=$(C -c "SELECT count(*) AS n FROM s.rt;
SELECT count(*) AS refs FROM s.rt.refs WHERE name = 'main'" 2>&1)
eq "replace empty" "$out" "n
0
refs
0"
meta=$(ls -t $(find "$T/wh" -path '*rt/metadata/*.metadata.json') | head -1)
eq "replace reuses the schema" "$(python3 -c "
import json,sys; m=json.load(open(sys.argv[1])); print(m['current-schema-id'], len(m['schemas']), m.get('current-snapshot-id', -1))" "$meta")" "1 2 -1"
out=$(C -c "CREATE OR REPLACE TABLE s.created (id INT) AS SELECT 5 AS id; SELECT * FROM s.created;
SELECT operation FROM s.created.snapshots" 2>&1)
eq "create or replace missing" "$out" "id
5
operation
append"
out=$(C -c "REPLACE TABLE s.missing (id INT)" 2>&1)
eq "replace missing" "$?:$out" "1:CannotReplaceMissingTableException: Table s.missing cannot be replaced as it did not exist. Use CREATE OR REPLACE TABLE to create the table."
n0=$(count_snaps s.created)
m0=$(metas created)
l0=$(latest created)
out=$(C -c "CREATE OR REPLACE TABLE s.created (id INT, s STRING) PARTITIONED BY (s) AS SELECT 'x' AS id, 'a' AS s" 2>&1)
eq "rtas type error" "$?:$out" "1:AnalysisException: Cannot safely cast 'id': value 'x' does not fit type int"
eq "rtas type error commits nothing" "$(metas created):$(latest created)" "$m0:$l0"
# a runtime failure after some rows were written (NULL into NOT NULL on
# the third row), a query error, a missing source: nothing committed
out=$(C -c "CREATE OR REPLACE TABLE s.created (id INT NOT NULL) AS
SELECT CASE WHEN x < 3 THEN x END AS id FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3)" 2>&1)
eq "rtas not null" "$?:$out" "1:AnalysisException: Cannot write nullable values to non-null column 'id'"
eq "rtas not null commits nothing" "$(metas created):$(latest created)" "$m0:$l0"
out=$(C -c "REPLACE TABLE s.created (id INT) AS SELECT id FROM s.nosuch" 2>&1)
eq "rtas bad source fails" "$?" "1"
out=$(C -c "REPLACE TABLE s.created (id INT) AS SELECT 1 AS id, 2 AS extra" 2>&1)
eq "rtas column count fails" "$?" "1"
eq "failed rtas commit nothing" "$(metas created):$(latest created)" "$m0:$l0"
# CREATE OR REPLACE ... AS SELECT of an existing table: one commit; no rows:
# the replacement alone (one commit, no snapshot)
C -c "CREATE OR REPLACE TABLE s.created (id INT) AS SELECT 6 AS id" >/dev/null
eq "create or replace as select is one commit" "$(metas created)" "$((m0 + 1))"
C -c "CREATE OR REPLACE TABLE s.created (id INT) AS SELECT 7 AS id WHERE 1 = 0" >/dev/null
eq "empty rtas is one commit" "$(metas created)" "$((m0 + 2))"
eq "empty rtas has no rows" "$(C -c "SELECT count(*) AS n FROM s.created; SELECT count(*) AS n FROM s.created.refs WHERE name = 'main'")" "n
0
n
0"
C -c "CREATE OR REPLACE TABLE s.created (id INT) AS SELECT 5 AS id" >/dev/null
n0=$(count_snaps s.created)
out=$(C -c "SELECT * FROM s.created; DESCRIBE s.created" 2>&1)
eq "rtas failure restores" "$(count_snaps s.created):$out" "$n0:id
5
col_name,data_type,comment
id,int,"

# ---- MERGE prunes the target by the ON conjuncts over the target alone
# (no WHEN NOT MATCHED BY SOURCE): a data file of a partition the ON
# excludes is made unreadable, so reading it fails the statement (the
# conditions are ones SQLite does not push into the virtual table itself)
C -c "CREATE TABLE s.pm (id BIGINT, day DATE, v STRING) PARTITIONED BY (day);
INSERT INTO s.pm VALUES (1, DATE'2024-01-01', 'a'), (2, DATE'2024-01-01', 'b'),
  (1, DATE'2024-01-02', 'c'), (3, DATE'2024-01-02', 'd')" >/dev/null
pf=$(find "$T/wh" -path '*/pm/data/day=2024-01-02/*.parquet')
eq "one file in the skipped partition" "$(wc -l <<<"$pf")" "1"
cp "$pf" "$T/pm-saved.parquet"
printf 'not a parquet file' >"$pf"
fails() { # fails DESCRIPTION SQL: the statement reads the unreadable file
  local o
  o=$(C -c "$2" 2>&1)
  eq "$1 fails" "$?" "1"
  has "$1 read the file" "$o" "day=2024-01-02"
}
fails "unpruned select" "SELECT count(*) AS n FROM s.pm WHERE v <> 'x'"
out=$(C -c "MERGE INTO s.pm t USING (SELECT 1 AS id, 'new' AS v UNION ALL SELECT 9, 'ins') s
ON t.id = s.id AND NOT (t.day > '2024-01-01')
WHEN MATCHED AND s.v <> 'zzz' THEN UPDATE SET v = s.v
WHEN NOT MATCHED THEN INSERT (id, day, v) VALUES (s.id, DATE'2024-01-01', s.v);
SELECT id, day, v FROM s.pm WHERE day = '2024-01-01' ORDER BY id" 2>&1)
eq "merge pruned by t.day" "$out" "id,day,v
1,2024-01-01,new
2,2024-01-01,b
9,2024-01-01,ins"
out=$(C -c "MERGE INTO s.pm AS t USING (SELECT 2 AS id) AS s
ON (CAST(t.day AS DATE) BETWEEN DATE'2023-12-31' AND DATE'2024-01-01' AND t.id = s.id) AND t.v IS NOT NULL
WHEN MATCHED THEN DELETE;
SELECT id FROM s.pm WHERE day = DATE'2024-01-01' ORDER BY id" 2>&1)
eq "merge pruned by a range, delete" "$out" "id
1
9"
# a target-only conjunct of an unqualified column prunes too (pm has no
# column of the source's names)
out=$(C -c "MERGE INTO s.pm t USING (SELECT 9 AS k) s ON t.id = s.k AND NOT (day >= '2024-01-02')
WHEN MATCHED THEN UPDATE SET v = 'k';
SELECT v FROM s.pm WHERE id = 9 AND day = '2024-01-01'" 2>&1)
eq "merge pruned by an unqualified target column" "$out" "v
k"
# no pruning: conditions of WHEN clauses, NOT MATCHED BY SOURCE, source
# columns (qualified or not), OR with a source column, subqueries
fails "merge, WHEN MATCHED AND on the target" "MERGE INTO s.pm t USING (SELECT 1 AS id) s ON t.id = s.id
WHEN MATCHED AND t.day = '2024-01-01' THEN UPDATE SET v = 'w'"
fails "merge with NOT MATCHED BY SOURCE" "MERGE INTO s.pm t USING (SELECT 1 AS id) s
ON t.id = s.id AND t.day = '2024-01-01'
WHEN MATCHED THEN UPDATE SET v = 'w' WHEN NOT MATCHED BY SOURCE AND t.id = 42 THEN DELETE"
fails "merge on a source column" "MERGE INTO s.pm t USING (SELECT 1 AS id, DATE'2024-01-01' AS day) s
ON t.id = s.id AND s.day = '2024-01-01' WHEN MATCHED THEN UPDATE SET v = 'w'"
fails "merge on an unqualified source column" "MERGE INTO s.pm t USING (SELECT 1 AS id, DATE'2024-01-01' AS sday) s
ON t.id = s.id AND sday = '2024-01-01' WHEN MATCHED THEN UPDATE SET v = 'w'"
fails "merge on OR with the source" "MERGE INTO s.pm t USING (SELECT 1 AS id) s
ON t.id = s.id AND (t.day = '2024-01-01' OR s.id = 3) WHEN MATCHED THEN UPDATE SET v = 'w'"
fails "merge on a subquery" "MERGE INTO s.pm t USING (SELECT 1 AS id) s
ON t.id = s.id AND EXISTS (SELECT 1 WHERE t.day = '2024-01-01') WHEN MATCHED THEN UPDATE SET v = 'w'"
cp "$T/pm-saved.parquet" "$pf"
eq "the skipped partition is untouched" "$(C -c "SELECT id, v FROM s.pm WHERE day = '2024-01-02' ORDER BY id")" "id,v
1,c
3,d"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
