#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` over Iceberg tables: CREATE/DESCRIBE/INSERT, metadata tables,
# procedures with Iceberg's errors, branches and tags, properties, rename,
# drop; bad input leaves the table unchanged. Skipped (77) while the build
# has no table layer.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }
C() { F --format csv "$@"; }

out=$(F -c "CREATE NAMESPACE shop; CREATE TABLE shop.t (id BIGINT NOT NULL COMMENT 'the id', amount DECIMAL(10,2), d DATE, ts TIMESTAMP, ok BOOLEAN, s STRING) USING iceberg PARTITIONED BY (days(ts), bucket(4, id)) TBLPROPERTIES ('owner' = 'me')" 2>&1)
if grep -q "not supported yet" <<<"$out"; then echo "skipped: $out"; exit 77; fi
eq "create" "$out" ""

out=$(C -c "DESCRIBE TABLE EXTENDED shop.t")
has "describe column" "$out" "id,bigint,the id"
has "describe decimal" "$out" 'amount,"decimal(10,2)",'
has "describe timestamp" "$out" "ts,timestamp,"
has "describe partition 0" "$out" 'Part 0,days(ts),""'
has "describe partition 1" "$out" 'Part 1,"bucket(4, id)",""'
has "describe location" "$out" "Location,$T/wh/shop.db/t"
has "describe owner" "$out" 'Owner,me,""'
case "$out" in *owner=me*) bad "owner is reserved: not in Table Properties";; *) ok;; esac
out=$(F -c "CREATE TABLE shop.t (x INT)" 2>&1); eq "create twice" "$?:$out" "1:AlreadyExistsException: Table already exists: shop.t"
F -c "CREATE TABLE IF NOT EXISTS shop.t (x INT)"; eq "create if not exists" "$?" 0

# ---- INSERT: one statement = one snapshot; exact conversions
F -c "INSERT INTO shop.t VALUES (1, 1.5, DATE'2026-01-02', TIMESTAMP'2026-01-02 03:04:05.123', true, 'a'), (2, -1, '2026-01-03', '2026-01-03 00:00:00', false, NULL)"
eq "insert" "$?" 0
F -c "INSERT INTO shop.t (id, s) SELECT 3, 'c'"
out=$(C -c "SELECT operation, summary['added-records'] AS added, summary['total-records'] AS total FROM shop.t.snapshots ORDER BY committed_at")
eq "snapshots" "$out" "operation,added,total
append,2,2
append,1,3"

# ---- bad input changes nothing
before=$(ls "$T/wh/shop.db/t/metadata" | sort)
for q in "INSERT INTO shop.t VALUES ('x', 1, NULL, NULL, NULL, NULL)" \
         "INSERT INTO shop.t (nope) VALUES (1)" \
         "INSERT INTO shop.t VALUES (1)" \
         "INSERT INTO shop.t VALUES (NULL, 1, NULL, NULL, NULL, NULL)" \
         "INSERT INTO shop.t VALUES (9, 123456789012.5, NULL, NULL, NULL, NULL)" \
         "INSERT INTO shop.t VALUES (9, 1, 'not a date', NULL, NULL, NULL)" \
         "INSERT INTO shop.t.tag_x VALUES (9, 1, NULL, NULL, NULL, NULL)" \
         "INSERT INTO shop.nope VALUES (1)" \
         "CALL local.system.rollback_to_snapshot('shop.t', 42)" \
         "CALL local.system.rollback_to_snapshot('shop.t', 'abc')" \
         "CALL local.system.rollback_to_snapshot(table => 'shop.t')" \
         "CALL local.system.rollback_to_snapshot(table => 'shop.t', snapshot => 1)" \
         "CALL local.system.rollback_to_snapshot('shop.t; DROP TABLE shop.t', 1)" \
         "CALL local.system.nope('shop.t')" \
         "CALL local.system.fast_forward('shop.t', 'main', 'nope')" \
         "ALTER TABLE shop.t DROP BRANCH nope" \
         "ALTER TABLE shop.t UNSET TBLPROPERTIES ('nope')" \
         "SELECT * FROM shop.t.files VERSION AS OF 42" \
         "SELECT nope FROM shop.t.snapshots" \
         "SELECT * FROM shop.\"t'; DROP TABLE shop.t; --\".snapshots"; do
    out=$(F -c "$q" 2>&1); rc=$?
    [ $rc -eq 1 ] && ok || bad "expected failure: $q -> $rc $out"
done
eq "nothing changed" "$(ls "$T/wh/shop.db/t/metadata" | sort)" "$before"
out=$(F -c "CALL local.system.rollback_to_snapshot('shop.t', 42)" 2>&1)
has "unknown snapshot" "$out" "ValidationException: Cannot roll back to unknown snapshot id: 42"
out=$(F -c "SELECT * FROM shop.t.files VERSION AS OF 42" 2>&1)
eq "time travel unknown id" "$out" "IllegalArgumentException: Cannot find snapshot with ID 42"
out=$(F -c "SELECT count(*) FROM shop.t.files TIMESTAMP AS OF '2020-01-01 00:00:00'" 2>&1)
eq "time travel too old" "$out" "IllegalArgumentException: Cannot find a snapshot older than 2020-01-01T00:00:00+00:00"
out=$(F -c "CALL local.system.rollback_to_snapshot('shop.t', 'abc')" 2>&1)
eq "wrong arg type" "$out" "AnalysisException: Wrong arg type for snapshot_id: cannot cast StringType to LongType"
out=$(F -c "CALL local.system.rollback_to_snapshot(table => 'shop.t')" 2>&1)
eq "missing arg" "$out" "AnalysisException: Missing required parameters: [snapshot_id]"
out=$(F -c "CALL local.system.nope('shop.t')" 2>&1)
eq "unknown procedure" "$out" "NoSuchProcedureException: Procedure system.nope not found"
out=$(F -c "INSERT INTO shop.nope VALUES (1)" 2>&1)
eq "unknown table" "$out" "NoSuchTableException: Table does not exist: shop.nope"

# ---- procedures
SQL="SET VAR s1 = (SELECT snapshot_id FROM shop.t.snapshots ORDER BY committed_at LIMIT 1);
SET VAR s2 = (SELECT snapshot_id FROM shop.t.refs WHERE name = 'main');"
out=$(C -c "$SQL CALL local.system.rollback_to_snapshot('shop.t', \${s1}); SELECT \${s1} AS s1, \${s2} AS s2")
prev=$(sed -n 2p <<<"$out" | cut -d, -f1); cur=$(sed -n 2p <<<"$out" | cut -d, -f2)
s1=$(sed -n 4p <<<"$out" | cut -d, -f1); s2=$(sed -n 4p <<<"$out" | cut -d, -f2)
eq "rollback output" "$(sed -n 1p <<<"$out")" "previous_snapshot_id,current_snapshot_id"
eq "rollback ids" "$prev,$cur" "$s2,$s1"
out=$(F -c "CALL local.system.rollback_to_snapshot('shop.t', $s2)" 2>&1)
eq "rollback forward" "$out" "ValidationException: Cannot roll back to snapshot, not an ancestor of the current state: $s2"
out=$(C -c "CALL local.system.set_current_snapshot(snapshot_id => $s2, table => 'shop.t'); SELECT is_current_ancestor FROM shop.t.history")
eq "set_current_snapshot + history" "$out" "previous_snapshot_id,current_snapshot_id
$s1,$s2
is_current_ancestor
true
true
true
true"
out=$(C -c "CALL local.system.rollback_to_timestamp('shop.t', TIMESTAMP '2020-01-01 00:00:00')" 2>&1)
eq "rollback_to_timestamp too old" "$out" "IllegalArgumentException: Cannot roll back, no valid snapshot older than: 1577836800000"

# ---- branches and tags, fast_forward (write-audit-publish)
out=$(C -c "ALTER TABLE shop.t CREATE BRANCH audit; INSERT INTO shop.t.branch_audit VALUES (7, 5, NULL, NULL, NULL, NULL);
SELECT name, type FROM shop.t.refs ORDER BY name;
CALL local.system.fast_forward('shop.t', 'main', 'audit');
ALTER TABLE shop.t CREATE TAG \`close-2026-09\` AS OF VERSION $s1 RETAIN 365 DAYS;
SELECT name, type, snapshot_id = $s1 AS at_s1, max_reference_age_in_ms FROM shop.t.refs WHERE type = 'TAG'")
has "branch listed" "$out" "audit,BRANCH"
has "fast_forward output" "$out" "branch_updated,previous_ref,updated_ref
main,$s2,"
has "tag" "$out" "close-2026-09,TAG,true,31536000000"
out=$(F -c "ALTER TABLE shop.t CREATE BRANCH audit" 2>&1)
eq "branch exists" "$out" "IllegalArgumentException: Ref audit already exists"
out=$(C -c "ALTER TABLE shop.t DROP BRANCH audit; ALTER TABLE shop.t DROP TAG \`close-2026-09\`; SELECT count(*) AS n FROM shop.t.refs")
eq "drop refs" "$out" "n
1"

# ---- expire_snapshots / remove_orphan_files
out=$(C -c "CALL local.system.expire_snapshots(table => 'shop.t', older_than => TIMESTAMP '2099-01-01 00:00:00', retain_last => 1); SELECT count(*) AS n FROM shop.t.snapshots")
has "expire columns" "$out" "deleted_data_files_count,deleted_position_delete_files_count,deleted_equality_delete_files_count,deleted_manifest_files_count,deleted_manifest_lists_count,deleted_statistics_files_count"
has "expired to one snapshot" "$out" "n
1"
out=$(F -c "CALL local.system.expire_snapshots(table => 'shop.t', retain_last => 'x')" 2>&1)
eq "expire wrong type" "$out" "AnalysisException: Wrong arg type for retain_last: cannot cast StringType to IntegerType"
touch "$T/wh/shop.db/t/data/stray.parquet"
out=$(C -c "CALL local.system.remove_orphan_files(table => 'shop.t', older_than => TIMESTAMP '2099-01-01 00:00:00', dry_run => true)")
has "orphan listed" "$out" "stray.parquet"
[ -e "$T/wh/shop.db/t/data/stray.parquet" ] && ok || bad "dry run deleted"
# no older_than: now - 3 days, so a file written a moment ago is no orphan yet
out=$(C -c "CALL system.remove_orphan_files(table => 'shop.t', dry_run => true)")
eq "default older_than is 3 days ago" "$out" "orphan_file_location"
# deleting with an interval under 24 hours (or in the future) is refused, as in Java
SHORT="Cannot remove orphan files with an interval less than 24 hours. Executing this procedure with a short interval may corrupt the table if other operations are happening at the same time. If you are absolutely confident that no concurrent operations will be affected by removing orphan files with such a short interval, you can use the Action API to remove orphan files with an arbitrary interval."
out=$(F -c "CALL system.remove_orphan_files(table => 'shop.t', older_than => TIMESTAMP '2099-01-01 00:00:00')" 2>&1)
eq "future older_than refused" "$out" "IllegalArgumentException: $SHORT"
recent=$(date -u -d '-2 hours' '+%Y-%m-%d %H:%M:%S')
out=$(F -c "SET TIME ZONE 'UTC'; CALL system.remove_orphan_files(table => 'shop.t', older_than => TIMESTAMP '$recent')" 2>&1)
eq "older_than 2 hours ago refused" "$out" "IllegalArgumentException: $SHORT"
[ -e "$T/wh/shop.db/t/data/stray.parquet" ] && ok || bad "refused call deleted"
older=$(date -u -d '-25 hours' '+%Y-%m-%d %H:%M:%S')
out=$(C -c "SET TIME ZONE 'UTC'; CALL system.remove_orphan_files(table => 'shop.t', older_than => TIMESTAMP '$older')")
eq "older_than 25 hours ago accepted" "$out" "orphan_file_location"
C -c "SET floe.remove-orphan-files.validate-interval = false; CALL system.remove_orphan_files(table => 'shop.t', older_than => TIMESTAMP '2099-01-01 00:00:00')" >/dev/null
[ -e "$T/wh/shop.db/t/data/stray.parquet" ] && bad "orphan kept" || ok
# equal_authorities: the table lives at s3://b/wh (mapped to a local dir); listed
# through s3://other/wh (same dir), every file conflicts until declared equal
M="io.location-map=s3://b/wh=$T/d,s3://other/wh=$T/d"
G() { "$FLOE_BIN" sql --warehouse "$T/wh2" --conf "$M" --format csv "$@"; }
G -c "CREATE NAMESPACE shop; CREATE TABLE shop.m (id BIGINT) LOCATION 's3://b/wh/shop/m'; INSERT INTO shop.m VALUES (1), (2)" >/dev/null
touch "$T/d/shop/m/data/stray.parquet"
ORPH="CALL system.remove_orphan_files(table => 'shop.m', older_than => TIMESTAMP '2099-01-01 00:00:00', dry_run => true, location => 's3://other/wh/shop/m'"
out=$(G -c "$ORPH)" 2>&1)
has "prefix conflict" "$out" "Conflicting authorities/schemes (1): (s3://other vs s3://b)"
out=$(G -c "$ORPH, equal_authorities => map('x,other', 'b'))" 2>&1)
eq "equal_authorities" "$out" "orphan_file_location
s3://other/wh/shop/m/data/stray.parquet"
out=$(G -c "$ORPH, equal_schemes => map('s3', 'gs'))" 2>&1)
has "equal_schemes does not cover authorities" "$out" "Conflicting authorities/schemes"
out=$(G -c "$ORPH, equal_authorities => 'b')" 2>&1)
eq "equal_authorities type" "$out" "AnalysisException: Wrong arg type for equal_authorities: cannot cast StringType to MapType(StringType,StringType)"

# ---- properties, rename, refresh, drop
out=$(C -c "ALTER TABLE shop.t SET TBLPROPERTIES ('a' = '1', 'b' = '2'); ALTER TABLE shop.t UNSET TBLPROPERTIES ('a'); ALTER TABLE shop.t UNSET TBLPROPERTIES IF EXISTS ('zz'); DESCRIBE EXTENDED shop.t" | grep "^Table Properties")
has "props set" "$out" "b=2"
if grep -q "a=1" <<<"$out"; then bad "a still set"; else ok; fi
out=$(C -c "ALTER TABLE shop.t RENAME TO t2; REFRESH TABLE shop.t2; SHOW TABLES IN shop")
has "renamed" "$out" "shop,t2,false"
F -c "DROP TABLE shop.t2 PURGE; DROP TABLE IF EXISTS shop.t2"; eq "drop purge" "$?" 0
out=$(F -c "DROP TABLE shop.t2" 2>&1); eq "drop missing" "$?:$out" "1:NoSuchTableException: Table does not exist: shop.t2"
[ -e "$T/wh/shop.db/t/metadata/00000"* ] 2>/dev/null && bad "purge left metadata" || ok

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
