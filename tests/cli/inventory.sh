#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe inventory` and `floe retention` on a real Spark table from ../shared
# (registered in a scratch warehouse's SQLite catalog, read through
# io.location-map), including a --copy-to backup registered and read back.
set -u
: "${FLOE_BIN:?}" "${FLOE_SOURCE_DIR:?}"
FIX="${FLOE_SHARED_DIR:-$FLOE_SOURCE_DIR/../shared}/fixtures"
[ -d "$FIX" ] || { echo "skipped: no shared fixtures"; exit 77; }
command -v sqlite3 >/dev/null || { echo "skipped: no sqlite3"; exit 77; }
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
register() { # warehouse, ident ns, table, metadata location
    mkdir -p "$1"
    sqlite3 "$1/catalog.db" "CREATE TABLE IF NOT EXISTS iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), iceberg_type VARCHAR(5), PRIMARY KEY (catalog_name, table_namespace, table_name)); CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255), property_value VARCHAR(1000), PRIMARY KEY (catalog_name, namespace, property_key)); INSERT INTO iceberg_tables VALUES ('local', '$2', '$3', '$4', NULL, 'TABLE');"
}
W="$tmp/wh"
register "$W" db bunnies "$FIX/spark_bunnies/metadata/v5.metadata.json"
MAP="io.location-map=s3a://hyperparam-iceberg/spark/bunnies=$FIX/spark_bunnies"

# the snapshot with a position delete: 1 data file + 1 delete file
out=$("$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --snapshot 469881615898633426 --format csv)
eq "exit status" "$?" 0
check "csv header" "$out" "kind,path,size,content,status"
eq "data files" "$(grep -c '^data_file,' <<<"$out")" 1
eq "delete files" "$(grep -c '^delete_file,.*,position_deletes,ADDED$' <<<"$out")" 1
eq "one manifest list" "$(grep -c '^manifest_list,' <<<"$out")" 1
check "delete manifest" "$out" ",deletes,"
check "metadata row" "$out" "metadata,$FIX/spark_bunnies/metadata/v5.metadata.json"
check "original locations" "$out" "s3a://hyperparam-iceberg/spark/bunnies/data/"

# current snapshot via the ref: the old delete file stays live, the data file was replaced
out=$("$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --ref main)
check "table header" "$out" "kind"
check "table total" "$out" "objects,"
eq "current data files" "$(grep -c '^data_file ' <<<"$out")" 1
eq "current delete files" "$(grep -c '^delete_file ' <<<"$out")" 1

# json lines parse
out=$("$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --snapshot 7505300640432048841 --format json)
n=$(python3 -c 'import json,sys; rows=[json.loads(l) for l in sys.stdin]; print(sum(r["kind"]=="data_file" and r["status"]=="ADDED" for r in rows))' <<<"$out")
eq "json data rows" "$n" 1

# timestamps resolve through the snapshot log; before the first: an error
out=$("$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --timestamp '2000-01-01 00:00:00' 2>&1)
eq "too early exit" "$?" 1
check "too early" "$out" "Cannot find a snapshot older than"
out=$("$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --snapshot 42 2>&1)
eq "bogus id exit" "$?" 1
check "bogus id" "$out" "Cannot find snapshot with ID 42"
"$FLOE_BIN" inventory --warehouse "$W" db.bunnies --snapshot 1 --ref main >/dev/null 2>&1
eq "two selectors" "$?" 2

# a backup of the snapshot with deletes, registered elsewhere, reads
# identically without any location map: its files name only the backup
"$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --snapshot 469881615898633426 \
    --format csv --copy-to "$tmp/backup" >"$tmp/orig.csv" 2>"$tmp/copy.err"
eq "copy exit" "$?" 0
props="$tmp/backup/floe-backup.properties"
[ -f "$props" ]; eq "properties written" "$?" 0
bmeta=$(sed -n 's/^metadata-location=//p' "$props")
check "backup metadata in the backup" "$bmeta" "$tmp/backup/metadata/"
register "$tmp/wh2" bk bunnies "$bmeta"
"$FLOE_BIN" inventory --warehouse "$tmp/wh2" bk.bunnies --format csv >"$tmp/copy.csv"
eq "backup exit" "$?" 0
eq "same objects" "$(grep -v '^metadata,' "$tmp/orig.csv" | cut -d, -f1,2,4,5 | sed "s|s3a://hyperparam-iceberg/spark/bunnies|$tmp/backup|" | md5sum)" \
    "$(grep -v '^metadata,' "$tmp/copy.csv" | cut -d, -f1,2,4,5 | md5sum)"
for f in $(grep -E '^data_file,' "$tmp/orig.csv" | cut -d, -f2); do
    rel=${f#s3a://hyperparam-iceberg/spark/bunnies/}
    cmp -s "$FIX/spark_bunnies/$rel" "$tmp/backup/$rel" || { fail=$((fail + 1)); echo "FAIL: bytes differ: $rel"; }
done
pass=$((pass + 1))
out=$("$FLOE_BIN" sql --warehouse "$tmp/wh2" --format csv -c "SELECT count(*) FROM bk.bunnies")
eq "backup reads (deletes applied)" "$(tail -1 <<<"$out")" 20

# retention: main keeps its head; far in the future the defaults expire 2 snapshots
out=$("$FLOE_BIN" retention --warehouse "$W" --conf "$MAP" db.bunnies)
eq "retention exit" "$?" 0
check "retention ref" "$out" "main"
check "retention bytes" "$out" "bytes held only by old snapshots:"
out=$("$FLOE_BIN" retention --warehouse "$W" --conf "$MAP" --now 4102444800000 --format json db.bunnies)
n=$(python3 -c 'import json,sys; r=json.load(sys.stdin); print(len(r["expiring"]), r["would_delete"]["deleted_manifest_lists_count"], r["bytes_held_only_by_old_snapshots"] > 0)' <<<"$out")
eq "retention json" "$n" "2 2 True"
out=$("$FLOE_BIN" retention --warehouse "$W" db.nope 2>&1)
eq "missing table exit" "$?" 1
check "missing table" "$out" "Table does not exist"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
