#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` row-level statements: DELETE FROM and UPDATE in copy-on-write
# and merge-on-read modes (one statement = one snapshot, operations delete /
# overwrite as Spark writes them), on branch targets and spark.wap.branch,
# INSERT OVERWRITE (dynamic), and the refusals (unknown column, bad subquery).
# WHERE clauses beyond the row-filter grammar: tests/cli/sql_merge.sh.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }

C -c "CREATE NAMESPACE shop;
CREATE TABLE shop.orders (order_id BIGINT, status STRING, amount DECIMAL(10,2));
INSERT INTO shop.orders VALUES (1001, 'NEW', 10.00), (1002, 'NEW', 20.00);
INSERT INTO shop.orders VALUES (1004, 'NEW', 5.00)" >/dev/null

# ---- copy-on-write (the default), as the seed's script 2
out=$(C -c "DELETE FROM shop.orders WHERE order_id = 1004;
UPDATE shop.orders SET status = 'SHIPPED' WHERE order_id = 1001;
SELECT * FROM shop.orders ORDER BY order_id" 2>&1)
eq "cow rows" "$out" "order_id,status,amount
1001,SHIPPED,10.00
1002,NEW,20.00"
out=$(C -c "SELECT operation, summary['added-records'] AS a, summary['deleted-records'] AS d FROM shop.orders.snapshots" 2>&1)
eq "cow operations" "$out" "operation,a,d
append,2,
append,1,
delete,,1
overwrite,2,2"
eq "cow: no delete files" "$(C -c "SELECT count(*) AS n FROM shop.orders.delete_files")" "n
0"
eq "no match: no snapshot" "$(C -c "DELETE FROM shop.orders WHERE order_id = 99; UPDATE shop.orders SET amount = 0 WHERE status = 'x'; SELECT count(*) AS n FROM shop.orders.snapshots")" "n
4"

# ---- merge-on-read
C -c "CREATE TABLE shop.m (id BIGINT, status STRING) TBLPROPERTIES ('format-version'='2',
 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read');
INSERT INTO shop.m VALUES (1, 'a'), (2, 'b'), (3, 'c')" >/dev/null
out=$(C -c "DELETE FROM shop.m WHERE id = 2;
UPDATE shop.m AS x SET status = upper(x.status) || '!' WHERE id IN (1);
SELECT * FROM shop.m ORDER BY id" 2>&1)
eq "mor rows" "$out" "id,status
1,A!
3,c"
eq "mor operations" "$(C -c "SELECT operation, summary['added-delete-files'] AS df FROM shop.m.snapshots")" "operation,df
append,
delete,1
overwrite,1"
eq "mor files" "$(C -c "SELECT content, record_count FROM shop.m.files ORDER BY content, record_count")" "content,record_count
0,1
0,3
1,1
1,1"

# ---- branches and write-audit-publish
out=$(C -c "ALTER TABLE shop.m CREATE BRANCH b1;
DELETE FROM shop.m.branch_b1 WHERE id = 3;
SELECT count(*) AS main FROM shop.m; SELECT count(*) AS b1 FROM shop.m.branch_b1;
ALTER TABLE shop.m SET TBLPROPERTIES ('write.wap.enabled' = 'true');
SET spark.wap.branch = b1; UPDATE shop.m SET status = 'z'; RESET spark.wap.branch;
ALTER TABLE shop.m UNSET TBLPROPERTIES ('write.wap.enabled');
SELECT * FROM shop.m.branch_b1; SELECT * FROM shop.m ORDER BY id" 2>&1)
eq "branch targets" "$out" "main
2
b1
1
id,status
1,z
id,status
1,A!
3,c"

# ---- no WHERE, refusals
eq "delete all" "$(C -c "DELETE FROM shop.m; SELECT count(*) AS n FROM shop.m")" "n
0"
out=$(C -c "UPDATE shop.orders SET nope = 1" 2>&1); eq "unknown column" "$?:$out" "1:AnalysisException: Cannot find column 'nope' of table shop.orders"
out=$(C -c "DELETE FROM shop.orders WHERE order_id IN (SELECT nope FROM shop.orders)" 2>&1)
has "bad subquery column" "$?:$out" "1:AnalysisException: no such column: nope"
eq "refusal changed nothing" "$(C -c "SELECT count(*) AS n FROM shop.orders")" "n
2"
out=$(C -c "DELETE FROM shop.orders.tag_x" 2>&1); [ $? -ne 0 ] && ok || bad "tag target accepted: $out"

# ---- qualified column names in WHERE (alias or table name; not inside strings)
out=$(C -c "CREATE TABLE shop.q (id BIGINT, s STRING);
INSERT INTO shop.q VALUES (1, 'it''s q.x'), (2, 'b'), (3, 'c'), (4, 'd');
UPDATE shop.q AS x SET s = 'u' WHERE x.id = 2;
DELETE FROM shop.q q WHERE q.id = 3 OR s = 'it''s q.x';
DELETE FROM shop.q WHERE \"q\".\"id\" = 4; SELECT * FROM shop.q" 2>&1)
eq "qualified names" "$out" "id,s
2,u"

# ---- INSERT OVERWRITE: static (Spark's default: the whole table) and dynamic
# (spark.sql.sources.partitionOverwriteMode=dynamic: the partitions written)
out=$(C -c "CREATE TABLE shop.ps (id BIGINT, d DATE) PARTITIONED BY (d);
INSERT INTO shop.ps VALUES (1, DATE'2026-01-01'), (2, DATE'2026-01-02'), (3, DATE'2026-01-02');
INSERT OVERWRITE shop.ps VALUES (9, DATE'2026-01-02');
SELECT * FROM shop.ps ORDER BY id;
SELECT operation, summary['replace-partitions'] AS rp, summary['deleted-records'] AS del
FROM shop.ps.snapshots" 2>&1)
eq "insert overwrite partitioned, static" "$out" "id,d
9,2026-01-02
operation,rp,del
append,,
overwrite,,3"
out=$(C -c "SET spark.sql.sources.partitionOverwriteMode = nope; INSERT OVERWRITE shop.ps VALUES (1, DATE'2026-01-01')" 2>&1)
eq "bad overwrite mode" "$out" "IllegalArgumentException: The value of spark.sql.sources.partitionOverwriteMode should be one of STATIC, DYNAMIC, but was nope"
out=$(C -c "CREATE TABLE shop.p (id BIGINT, d DATE) PARTITIONED BY (d);
INSERT INTO shop.p VALUES (1, DATE'2026-01-01'), (2, DATE'2026-01-02'), (3, DATE'2026-01-02');
SET spark.sql.sources.partitionOverwriteMode = dynamic;
INSERT OVERWRITE shop.p VALUES (9, DATE'2026-01-02');
SELECT * FROM shop.p ORDER BY id;
SELECT operation, summary['replace-partitions'] AS rp FROM shop.p.snapshots" 2>&1)
eq "insert overwrite partitioned, dynamic" "$out" "id,d
1,2026-01-01
9,2026-01-02
operation,rp
append,
overwrite,true"
out=$(C -c "CREATE TABLE shop.u (id BIGINT); INSERT INTO shop.u VALUES (1), (2);
INSERT OVERWRITE TABLE shop.u SELECT id * 10 FROM shop.u; SELECT * FROM shop.u ORDER BY id" 2>&1)
eq "insert overwrite unpartitioned" "$out" "id
10
20"

# ---- an append whose manifest merge meets a delete manifest: the delete
# manifest is carried over, never written into a merged data manifest
out=$(C -c "CREATE TABLE shop.mm (id BIGINT, d DATE) PARTITIONED BY (d) TBLPROPERTIES (
  'write.delete.mode'='merge-on-read', 'commit.manifest.min-count-to-merge'='2');
INSERT INTO shop.mm VALUES (1, DATE'2026-01-01'), (2, DATE'2026-01-01');
DELETE FROM shop.mm WHERE id = 1;
INSERT INTO shop.mm VALUES (4, DATE'2026-01-02');
SELECT * FROM shop.mm ORDER BY id;
SELECT content, added_data_files_count + existing_data_files_count AS data,
       added_delete_files_count + existing_delete_files_count AS dels FROM shop.mm.manifests" 2>&1)
eq "manifest merge keeps delete manifests apart" "$out" "id,d
2,2026-01-01
4,2026-01-02
content,data,dels
0,2,0
1,0,1"

# ---- a WHERE / ON on a column added after the last snapshot (rows as Spark 3.5 +
# Iceberg 1.11 give for the same statements: the base scan reads with the table's schema)
out=$(C -c "CREATE TABLE shop.added (id INT, v STRING);
INSERT INTO shop.added VALUES (1, 'a'), (2, 'b');
ALTER TABLE shop.added ADD COLUMN c INT;
UPDATE shop.added SET v = 'x' WHERE c = 1;
SELECT * FROM shop.added ORDER BY id;
UPDATE shop.added SET c = 1 WHERE id = 1;
UPDATE shop.added SET v = 'y' WHERE c = 1;
SELECT * FROM shop.added ORDER BY id" 2>&1)
eq "added column in UPDATE WHERE" "$out" "id,v,c
1,a,
2,b,
id,v,c
1,y,1
2,b,"
out=$(C -c "CREATE TABLE shop.added_m (id INT, v STRING);
INSERT INTO shop.added_m VALUES (1, 'a'), (2, 'b');
ALTER TABLE shop.added_m ADD COLUMN c INT;
MERGE INTO shop.added_m t USING (SELECT 1 AS id, 5 AS c) s ON t.id = s.id AND t.c IS NULL
  WHEN MATCHED THEN UPDATE SET c = s.c;
MERGE INTO shop.added_m t USING (SELECT 1 AS id) s ON t.id = s.id AND t.c = 5
  WHEN MATCHED THEN UPDATE SET v = 'z';
DELETE FROM shop.added_m WHERE c IS NULL;
SELECT * FROM shop.added_m ORDER BY id" 2>&1)
eq "added column in MERGE ON and DELETE WHERE" "$out" "id,v,c
1,z,5"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
