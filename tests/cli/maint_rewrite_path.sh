#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CALL system.rewrite_table_path and `floe inventory --copy-to` on a table
# floe writes (appends, merge-on-read deletes and updates, a branch, a tag,
# a delete file left dangling by a copy-on-write delete, an expiry): the
# files of the file list are copied, the original is removed, and every
# snapshot of the copy reads the rows the original read.
set -u
: "${FLOE_BIN:?}"
pass=0 fail=0
check() { # description, text, expected substring
    if grep -qF -- "$3" <<<"$2"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1: missing '$3'"; echo "$2" | head -20; fi
}
eq() { # description, actual, expected
    if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1: got '$2', want '$3'"; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
W="$tmp/w"
sql() { "$FLOE_BIN" sql --warehouse "$1" --format csv -c "$2" 2>&1; }
LOC="$W/db.db/t"

sql "$W" "CREATE NAMESPACE db;
CREATE TABLE db.t (id bigint, s string) USING iceberg PARTITIONED BY (bucket(2, id))
  TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read',
                 'write.update.mode'='merge-on-read');
INSERT INTO db.t VALUES (1,'a'),(2,'b'),(3,'c'),(4,'d');
INSERT INTO db.t VALUES (5,'e'),(6,'f');
DELETE FROM db.t WHERE id = 2;
ALTER TABLE db.t CREATE BRANCH b;
INSERT INTO db.t.branch_b VALUES (7,'g');
ALTER TABLE db.t CREATE TAG t1;
UPDATE db.t SET s = 'z' WHERE id = 3;
ALTER TABLE db.t SET TBLPROPERTIES ('write.delete.mode'='copy-on-write');
DELETE FROM db.t WHERE id IN (1, 3, 4);" >/dev/null
# the last delete removed whole data files whose position deletes stay live
# (dangling); an expiry then deletes what only old snapshots needed
out=$(sql "$W" "SELECT count(*) FROM db.t.delete_files")
check "dangling deletes live" "$out" "2"
total=$(sql "$W" "SELECT count(*) FROM db.t.snapshots" | tail -1)
sql "$W" "CALL local.system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)" >/dev/null

snapshots() { sql "$1" "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at" | tail -n +2; }
read_all() { # warehouse -> every snapshot's rows, branch and tag
    for id in $(snapshots "$1"); do
        echo "== $id"; sql "$1" "SELECT * FROM db.t VERSION AS OF $id ORDER BY id"
    done
    sql "$1" "SELECT * FROM db.t.branch_b ORDER BY id; SELECT * FROM db.t VERSION AS OF 't1' ORDER BY id"
}
read_all "$W" >"$tmp/before.txt"
n=$(grep -c '^== ' "$tmp/before.txt")
[ "$n" -lt "$total" ]; eq "expiry removed snapshots ($n of $total kept)" "$?" 0

# argument checks (Java's messages)
out=$(sql "$W" "CALL local.system.rewrite_table_path(table => 'db.t', source_prefix => '', target_prefix => '/x')")
check "empty source" "$out" "IllegalArgumentException: Source prefix('') cannot be empty."
out=$(sql "$W" "CALL local.system.rewrite_table_path(table => 'db.t', source_prefix => '/a', target_prefix => '/a')")
check "same prefix" "$out" "Source prefix cannot be the same as target prefix (/a)"
out=$(sql "$W" "CALL local.system.rewrite_table_path(table => 'db.t', source_prefix => '$LOC', target_prefix => '/x', end_version => 'v9.metadata.json')")
check "unknown version" "$out" "Cannot find provided version file v9.metadata.json in metadata log."
out=$(sql "$W" "CALL local.system.rewrite_table_path(table => 'db.t', source_prefix => '/elsewhere', target_prefix => '/x', staging_location => '$tmp/bad')")
check "outside prefix" "$out" "not under the source prefix /elsewhere"

C="$tmp/copy/t"
out=$(sql "$W" "CALL local.system.rewrite_table_path(table => 'db.t', source_prefix => '$LOC', target_prefix => '$C', staging_location => '$tmp/staging')")
check "columns" "$out" "latest_version,file_list_location,rewritten_manifest_file_paths_count,rewritten_delete_file_paths_count"
latest=$(sed -n 2p <<<"$out" | cut -d, -f1)
list=$(sed -n 2p <<<"$out" | cut -d, -f2)
eq "latest version" "$latest" "$(basename "$(sqlite3 "$W/catalog.db" 'SELECT metadata_location FROM iceberg_tables' 2>/dev/null || ls -t "$LOC"/metadata/*.metadata.json | head -1)")"
eq "file list location" "$list" "$tmp/staging/file-list"
ndel=$(sed -n 2p <<<"$out" | cut -d, -f4)
eq "delete files rewritten" "$ndel" 2
# every target is under the copy; every staged file exists
bad=$(cut -d, -f2 "$list" | grep -vc "^$C/")
eq "targets under the copy" "$bad" 0
while IFS=, read -r from to; do
    mkdir -p "$(dirname "$to")" && cp "$from" "$to" || fail=$((fail + 1))
done <"$list"
# every live data and delete file of every retained snapshot is in the list
for id in $(snapshots "$W"); do
    for f in $(sql "$W" "SELECT file_path FROM db.t.all_files" | tail -n +2); do
        grep -qE ",${C}${f#"$LOC"}\$" "$list" || { fail=$((fail + 1)); echo "FAIL: not in the list: $f"; }
    done
done
pass=$((pass + 1))

# the original goes away; the copy reads alone
mv "$LOC" "$tmp/gone"
sql "$tmp/w2" "CREATE NAMESPACE db; CALL local.system.register_table('db.t', '$C/metadata/$latest')" >/dev/null
read_all "$tmp/w2" >"$tmp/after.txt"
eq "every snapshot reads the same" "$(md5sum <"$tmp/after.txt")" "$(md5sum <"$tmp/before.txt")"
check "rows read" "$(cat "$tmp/after.txt")" "5,e"
out=$(sql "$tmp/w2" "SELECT file_path FROM db.t.all_files UNION ALL SELECT path FROM db.t.all_manifests")
eq "no path into the original" "$(grep -c "$LOC" <<<"$out")" 0
mv "$tmp/gone" "$LOC"

# incremental: after one more commit, from the copied version on
sql "$W" "INSERT INTO db.t VALUES (8,'h')" >/dev/null
out=$(sql "$W" "CALL local.system.rewrite_table_path(table => 'db.t', source_prefix => '$LOC', target_prefix => '$C', start_version => '$latest', staging_location => '$tmp/staging2')")
latest2=$(sed -n 2p <<<"$out" | cut -d, -f1)
n=$(wc -l <"$tmp/staging2/file-list")
[ "$n" -lt "$(wc -l <"$list")" ]; eq "incremental list is shorter" "$?" 0
while IFS=, read -r from to; do
    mkdir -p "$(dirname "$to")" && cp -n "$from" "$to"
done <"$tmp/staging2/file-list"
mv "$LOC" "$tmp/gone"
sql "$tmp/w3" "CREATE NAMESPACE db; CALL local.system.register_table('db.t', '$C/metadata/$latest2')" >/dev/null
out=$(sql "$tmp/w3" "SELECT * FROM db.t ORDER BY id")
eq "incremental copy reads" "$(tr '\n' ' ' <<<"$out")" "id,s 5,e 6,f 8,h "
mv "$tmp/gone" "$LOC"

# floe inventory --copy-to: a backup of one snapshot that reads alone
tag=$(sql "$W" "SELECT snapshot_id FROM db.t.refs WHERE name = 't1'" | tail -1)
expect=$(sql "$W" "SELECT * FROM db.t VERSION AS OF 't1' ORDER BY id")
"$FLOE_BIN" inventory --warehouse "$W" db.t --ref t1 --copy-to "$tmp/backup" --quiet >/dev/null
eq "inventory copy exit" "$?" 0
bmeta=$(sed -n 's/^metadata-location=//p' "$tmp/backup/floe-backup.properties")
check "backup metadata" "$bmeta" "$tmp/backup/metadata/"
mv "$LOC" "$tmp/gone"
sql "$tmp/w4" "CREATE NAMESPACE db; CALL local.system.register_table('db.t', '$bmeta')" >/dev/null
eq "backup reads the tag's rows" "$(sql "$tmp/w4" "SELECT * FROM db.t ORDER BY id")" "$expect"
eq "backup snapshot" "$(sql "$tmp/w4" "SELECT snapshot_id FROM db.t.snapshots" | tail -1)" "$tag"
mv "$tmp/gone" "$LOC"

# format v3: deletion vectors (Puffin) are rewritten — entries and the
# footer's referenced-data-file — and row lineage survives the copy
W5="$tmp/w5"; L5="$W5/db.db/v"; C5="$tmp/copy5/v"
sql "$W5" "CREATE NAMESPACE db;
CREATE TABLE db.v (id bigint, s string) USING iceberg
  TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read');
INSERT INTO db.v VALUES (1,'a'),(2,'b'),(3,'c');
INSERT INTO db.v VALUES (4,'d'),(5,'e');
DELETE FROM db.v WHERE id IN (2, 4);" >/dev/null
q5="SELECT id, s, _row_id, _last_updated_sequence_number FROM db.v ORDER BY id"
before5=$(sql "$W5" "$q5")
eq "v3 rows before" "$(sed -n 2p <<<"$before5")" "1,a,0,1"
out=$(sql "$W5" "CALL local.system.rewrite_table_path(table => 'db.v', source_prefix => '$L5', target_prefix => '$C5', staging_location => '$tmp/staging5')")
latest5=$(sed -n 2p <<<"$out" | cut -d, -f1)
eq "v3 delete files rewritten" "$(sed -n 2p <<<"$out" | cut -d, -f4)" 1
while IFS=, read -r from to; do
    mkdir -p "$(dirname "$to")" && cp "$from" "$to" || fail=$((fail + 1))
done <"$tmp/staging5/file-list"
npuffin=0
for f in $(grep -l -a "deletion-vector-v1" -r "$C5/data"); do
    npuffin=$((npuffin + 1))
    eq "puffin footer names the copy ($f)" "$(grep -a -c "$L5" "$f")" 0
    check "puffin footer ($f)" "$(tail -c 600 "$f" | tr -d '\0')" "\"referenced-data-file\":\"$C5/data/"
done
eq "v3 puffin files copied" "$npuffin" 1
mv "$L5" "$tmp/gone5"
sql "$tmp/w6" "CREATE NAMESPACE db; CALL local.system.register_table('db.v', '$C5/metadata/$latest5')" >/dev/null
eq "v3 copy reads the same rows and lineage" "$(sql "$tmp/w6" "$q5")" "$before5"
out=$(sql "$tmp/w6" "SELECT file_path FROM db.v.all_files UNION ALL SELECT path FROM db.v.all_manifests")
eq "v3: no path into the original" "$(grep -c "$L5" <<<"$out")" 0
mv "$tmp/gone5" "$L5"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
