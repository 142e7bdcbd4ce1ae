#!/usr/bin/env bash
# floe sql reads a table whose files live elsewhere than its metadata says
# (../shared/fixtures/spark_bunnies, written at s3a://hyperparam-iceberg/...)
# through --conf io.location-map, for data reads as well as metadata tables.
# Rows per snapshot from shared/fixtures/PROVENANCE.md: 21, 20, 20.
set -u
SHARED=${FLOE_SHARED_DIR:-$FLOE_SOURCE_DIR/../shared}
F="$SHARED/fixtures/spark_bunnies"
[ -d "$F" ] || { echo "skip: ../shared/fixtures absent"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() { if [ "$2" = "$3" ]; then pass=$((pass+1)); echo "ok   $1"; else fail=$((fail+1)); echo "FAIL $1: got [$2] expected [$3]"; fi; }
run() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv \
          --conf "io.location-map=s3a://hyperparam-iceberg/spark/bunnies=$F" "$@"; }
run -c "CREATE NAMESPACE db" \
    -c "CALL system.register_table(table => 'db.bunnies', metadata_file => '$F/metadata/v5.metadata.json')" >/dev/null
check "current rows" "$(run -c "SELECT count(*) AS n FROM db.bunnies" | tail -1)" "20"
check "first snapshot" "$(run -c "SELECT count(*) AS n FROM db.bunnies VERSION AS OF 7505300640432048841" | tail -1)" "21"
check "after the position delete" "$(run -c "SELECT count(*) AS n FROM db.bunnies VERSION AS OF 469881615898633426" | tail -1)" "20"
check "metadata table" "$(run -c "SELECT count(*) AS n FROM db.bunnies.snapshots" | tail -1)" "3"
check "files through the map" "$(run -c "SELECT count(*) AS n FROM db.bunnies.all_data_files" | tail -1)" "2"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
