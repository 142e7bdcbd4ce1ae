#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/table_append.c: create, two appends, rollback, snapshots and
# history; its output and the files it leaves are checked.
set -uo pipefail
ex="$FLOE_BUILD_DIR/example_table_append"
[ -x "$ex" ] || { echo "example not built; skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() { if eval "$2"; then pass=$((pass+1)); echo "ok   $1"; else fail=$((fail+1)); echo "FAIL $1"; fi; }
out=$("$ex" "$tmp/wh" 2>&1); rc=$?
check "example exits 0" '[ $rc -eq 0 ]'
check "two snapshots listed" '[ $(grep -c "  append  added-records=" <<<"$out") -eq 2 ]'
check "totals 2 and 5" 'grep -q "added-records=2  total=2" <<<"$out" && grep -q "added-records=3  total=5" <<<"$out"'
check "history has 3 entries, one abandoned" '[ $(grep -cE "  (true|false)$" <<<"$out") -eq 3 ] && [ $(grep -c "  false$" <<<"$out") -eq 1 ]'
check "forward rollback refused" 'grep -q "Cannot roll back to snapshot, not an ancestor of the current state: " <<<"$out"'
t="$tmp/wh/shop.db/orders"
check "3 data files in day partitions" '[ $(find "$t/data" -name "*.parquet" | wc -l) -eq 3 ] && [ -d "$t/data/order_date_day=2026-09-20" ]'
check "4 metadata.json, 2 manifests, 2 manifest lists" '[ $(ls "$t/metadata" | grep -c "\.metadata\.json$") -eq 4 ] && [ $(ls "$t/metadata" | grep -c "^snap-") -eq 2 ] && [ $(ls "$t/metadata" | grep -c -- "-m0\.avro$") -eq 2 ]'
out2=$("$ex" "$tmp/wh" 2>&1); rc=$?
check "rerun (drop + purge first) works" '[ $rc -eq 0 ] && [ $(ls "$t/metadata" | grep -c "\.metadata\.json$") -eq 4 ] && [ $(find "$t" -type f | wc -l) -eq 11 ]'
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
