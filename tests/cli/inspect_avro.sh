#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe inspect [--json] FILE.avro` on the shared fixtures: manifest lists and
# manifests are recognised, the JSON parses, 64-bit ids are exact integers,
# bounds are decoded, and PROVENANCE.md facts show through.
# Skipped (77) until `floe inspect` is wired or when ../shared is absent.
set -uo pipefail
FLOE=${FLOE_BIN:-build/dev/floe}
SRC=${FLOE_SOURCE_DIR:-.}
FIX=${FLOE_SHARED_DIR:-$SRC/../shared}/fixtures
PY=python3
[ -d "$FIX" ] || { echo "no shared fixtures: skipped"; exit 77; }
"$FLOE" help inspect >/dev/null 2>&1 || { echo "floe inspect not wired yet: skipped"; exit 77; }
pass=0 fail=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}

list=$FIX/java_bunnies/metadata/snap-9158179788527662767-1-a01399a1-e864-4562-b921-c8cb56e6e4a9.avro
check list_kind_and_ids bash -c "'$FLOE' inspect --json '$list' | $PY -c '
import sys, json
d = json.load(sys.stdin)
assert d[\"kind\"] == \"manifest_list\", d[\"kind\"]
assert d[\"metadata\"][\"snapshot-id\"] == \"9158179788527662767\"
e = d[\"entries\"]
assert len(e) == 4
assert e[0][\"added_snapshot_id\"] == 9158179788527662767
assert sorted(x[\"content\"] for x in e) == [0, 0, 1, 1]
'"

m=$FIX/trino_bucket_partitioning/metadata/0ffce867-cc54-49f8-ac74-c89fc147015d-m0.avro
check manifest_bucket_values bash -c "'$FLOE' inspect --json '$m' | $PY -c '
import sys, json
d = json.load(sys.stdin)
assert d[\"kind\"] == \"manifest\"
for k in (\"schema\", \"partition-spec\", \"partition-spec-id\", \"format-version\", \"content\"):
    assert k in d[\"metadata\"], k
df = d[\"entries\"][0][\"data_file\"]
assert list(df[\"partition\"].values()) == [0, 0, 3, 2, 2, 99, 75, 13, 5, 724]
assert df[\"lower_bounds\"][\"8\"] == \"some-string\"
assert df[\"lower_bounds\"][\"4\"] == \"2025-03-03\"
'"

dv=$FIX/trino_deletion_vectors_v3/metadata/c670791d-ace7-4600-a57f-305823486daa-m0.avro
check dv_deleted_entry bash -c "'$FLOE' inspect --json '$dv' | $PY -c '
import sys, json
d = json.load(sys.stdin)
e = d[\"entries\"][0]
assert e[\"status\"] == 2 and e[\"data_file\"][\"file_format\"] == \"PUFFIN\"
assert e[\"data_file\"][\"referenced_data_file\"].endswith(\".parquet\")
'"

check text_mode bash -c "'$FLOE' inspect '$list' | grep -q 'manifest list, format v2, 4 manifests'"
check corrupt_file bash -c "head -c 100 '$m' > /tmp/floe-inspect-trunc.\$\$.avro; ! '$FLOE' inspect /tmp/floe-inspect-trunc.\$\$.avro 2>/dev/null; rc=\$?; rm -f /tmp/floe-inspect-trunc.\$\$.avro; exit \$rc"

n=0
for f in $(find "$FIX" -name '*.avro'); do
  if ! "$FLOE" inspect --json "$f" | $PY -c 'import sys, json; json.load(sys.stdin)'; then
    echo "FAIL all_fixtures $f"; n=$((n + 1))
  fi
done
if [ "$n" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
