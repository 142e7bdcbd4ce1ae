#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe inspect` on real table metadata (plain and gzip) from ../shared.
set -u
: "${FLOE_BIN:?}" "${FLOE_SOURCE_DIR:?}"
FIX="${FLOE_SHARED_DIR:-$FLOE_SOURCE_DIR/../shared}/fixtures"
[ -d "$FIX" ] || { echo "skipped: no shared fixtures"; exit 77; }
pass=0 fail=0
check() { # description, command output, expected substring
    if grep -qF -- "$3" <<<"$2"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1: missing '$3'"; fi
}

out=$("$FLOE_BIN" inspect "$FIX/java_bunnies/metadata/v5.metadata.json")
check "exit status" "rc=$?" "rc=0"
check "version" "$out" "format version: 2"
check "location" "$out" "location: s3a://hyperparam-iceberg/java/bunnies"
check "current" "$out" "current snapshot: 9158179788527662767"
check "ref" "$out" "main: branch -> 9158179788527662767"
check "snapshots" "$out" "snapshots: 3"
check "schema" "$out" "9: __happy__ boolean"

out=$("$FLOE_BIN" inspect "$FIX/lineitem_iceberg_gz/metadata/v2.gz.metadata.json")
check "gz version" "$out" "format version: 1"
check "gz location" "$out" "location: ./lineitem_iceberg_gz"

out=$("$FLOE_BIN" inspect "$FIX/trino_bucket_partitioning/metadata/00002-53948f10-cced-409f-8dd9-6dea096895e8.metadata.json")
check "spec" "$out" "bucket[812]"

out=$("$FLOE_BIN" inspect --json "$FIX/vectors/metadata/java-branch-and-tag.java_evolved.metadata.json")
check "json refs" "$out" '"refs":{'
check "json tag" "$out" '"type":"tag"'
# ids stay exact 64-bit integers in --json output
out=$("$FLOE_BIN" inspect --json "$FIX/java_bunnies/metadata/v5.metadata.json")
check "json id" "$out" '"current-snapshot-id":9158179788527662767'
if command -v python3 >/dev/null; then
    ok=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["format-version"], len(d["snapshots"]))' <<<"$out")
    check "json parses" "$ok" "2 3"
fi

err=$("$FLOE_BIN" inspect "$FLOE_SOURCE_DIR/tests/data/invalid/metadata/missing_location.json" 2>&1)
check "invalid status" "rc=$?" "rc=1"
check "invalid message" "$err" "missing required field 'location'"
printf 'PAR1xxxx' >"${TMPDIR:-/tmp}/floe-inspect-$$.parquet"
err=$("$FLOE_BIN" inspect "${TMPDIR:-/tmp}/floe-inspect-$$.parquet" 2>&1)
check "parquet dispatch" "$err" "not a Parquet file"
rm -f "${TMPDIR:-/tmp}/floe-inspect-$$.parquet"
"$FLOE_BIN" inspect >/dev/null 2>&1
check "usage status" "rc=$?" "rc=2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
