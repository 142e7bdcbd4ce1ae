#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/scan.c (public API, linked against libfloe.so) over real fixture
# tables: plan report, filtered and projected rows, deletion vectors, and
# the error for an unknown snapshot.
set -uo pipefail
ex="$FLOE_BUILD_DIR/example_scan"
[ -x "$ex" ] || { echo "example not built; skipped"; exit 77; }
fx="${FLOE_SHARED_DIR:-${FLOE_SOURCE_DIR:-.}/../shared}/fixtures"
[ -d "$fx/spark_bunnies" ] || { echo "fixtures missing; skipped"; exit 77; }
pass=0; fail=0
check() { if eval "$2"; then pass=$((pass+1)); echo "ok   $1"; else fail=$((fail+1)); echo "FAIL $1"; echo "$out"; fi; }
b="$fx/spark_bunnies"
out=$("$ex" "$b/metadata/v5.metadata.json" -m "s3a://hyperparam-iceberg/spark/bunnies=$b" \
      -f '"Popularity Rank" < 5' -c "Breed Name,Popularity Rank" 2>&1); rc=$?
check "filtered scan exits 0" '[ $rc -eq 0 ]'
check "plan report line" 'grep -q "^snapshot 2701171901096418979: manifests 3" <<<"$out"'
check "three rows, projected" 'grep -q "^3 rows in" <<<"$out" && grep -q "  Netherland Dwarf | 2" <<<"$out"'
out=$("$ex" "$b/metadata/v5.metadata.json" -m "s3a://hyperparam-iceberg/spark/bunnies=$b" -s 7505300640432048841 2>&1); rc=$?
check "time travel to the first snapshot: 21 rows" '[ $rc -eq 0 ] && grep -q "^21 rows in" <<<"$out"'
out=$("$ex" "$b/metadata/v5.metadata.json" -m "s3a://hyperparam-iceberg/spark/bunnies=$b" -s 42 2>&1); rc=$?
check "unknown snapshot" '[ $rc -ne 0 ] && grep -q "Cannot find snapshot with ID 42" <<<"$out"'
d="$fx/trino_deletion_vectors_v3"
out=$("$ex" "$d/metadata/00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json" -m "s3a://warehouse/deletion_vectors=$d" 2>&1); rc=$?
check "deletion vectors applied: 8 rows" '[ $rc -eq 0 ] && grep -q "^8 rows in" <<<"$out" && grep -q "delete files applied 2" <<<"$out"'
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
