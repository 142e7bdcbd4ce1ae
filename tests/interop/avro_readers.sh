#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The floe-written manifests and manifest lists kept as fuzz seeds
# (fuzz/corpora/manifest*/ — v1 and v2, all four codecs, partitioned and
# not, data and delete manifests) read by two independent Avro readers:
# python3-avro (Apache's reference implementation, via avro_check.py: Iceberg
# header keys, a field-id on every record field) and avsc (avro_dump.mjs);
# both must decode the same records. The full floe-vs-readers comparison of
# freshly written files is tests/unit/manifest/test_interop.c.
# Exit 77 (skipped) when neither reader is installed.
set -uo pipefail
SRC=${FLOE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3
have_py=0; have_node=0
[ -x "$PY" ] && "$PY" -c 'import avro.datafile' 2>/dev/null && have_py=1
command -v node >/dev/null && [ -d "$SRC/tests/interop/node_modules/avsc" ] && have_node=1
if [ $have_py -eq 0 ]; then echo "python3-avro not installed: skipped"; exit 77; fi
tmp=$(mktemp -d /tmp/floe-avro-readers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in "$SRC"/fuzz/corpora/manifest/*.avro "$SRC"/fuzz/corpora/manifest_list/*.avro; do
  name=$(basename "$f")
  other=""
  if [ $have_node -eq 1 ]; then
    if (cd "$SRC/tests/interop" && node avro_dump.mjs "$f") > "$tmp/$name.jsonl" 2> "$tmp/err"; then
      other="$tmp/$name.jsonl"
    else
      echo "FAIL $name: avsc: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
    fi
  fi
  out=$("$PY" "$SRC/tests/interop/avro_check.py" "$f" $other 2>&1)
  case "$out" in
    OK*) pass=$((pass + 1)) ;;
    *) echo "FAIL $name: $out"; fail=$((fail + 1)) ;;
  esac
done
[ $have_node -eq 0 ] && echo "note: avsc not installed, python3-avro only"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
