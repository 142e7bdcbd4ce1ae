#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# floe vs iceberg-go (v0.7.0) and iceberg-rust (0.10.1) on the same generated files, in the
# same run. floe's benches write the files (FLOE_BENCH_KEEP, FLOE_BENCH_SCAN_DIR), then
# bench_native_ops (floe), floe-peer-go and floe-peer-rust (bench/go, bench/rust, built by
# scripts/peers-setup.sh) each run every operation once to warm up, then RUNS times, and
# report medians of wall and process CPU time. Prints per implementation
#   BENCH native_<op>_<impl> <wall ms> ms      BENCH native_<op>_<impl>_cpu <cpu ms> ms
# and RATIO native_<op> <floe CPU time / peer CPU time> iceberg-go|iceberg-rust
# (CPU time: the machine is shared). A peer without the operation says so; without the
# peers it says they are unavailable, and under CI=true that is a failure.
#   bench/native_peers.sh [build/release]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$root/build/release}" && pwd)
bin=${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers}/native/bin
unavailable() {
  echo "BENCH native_peers peer unavailable: $1 (scripts/peers-setup.sh)"
  [ "${CI:-}" = true ] && exit 1
  exit 0
}
for p in go rust; do [ -x "$bin/floe-peer-$p" ] || unavailable "no $bin/floe-peer-$p"; done
T=$(mktemp -d /tmp/floe-native-peers-XXXXXX)
trap 'rm -rf "$T"' EXIT
FLOE_BENCH_KEEP=$T FLOE_BENCH_NO_PEERS=1 FLOE_BENCH_REPS=1 "$BUILD/bench_avro_manifest" >/dev/null &&
  FLOE_BENCH_KEEP=$T "$BUILD/bench_metadata_json" >/dev/null &&
  FLOE_BENCH_SCAN_DIR=$T/scan "$BUILD/bench_scan_plan" >/dev/null &&
  m1k=$("$BUILD/bench_native_ops" chain "$T/wh/b.db/t1000" 1000) &&
  m10k=$("$BUILD/bench_native_ops" chain "$T/wh/b.db/t10000" 10000) ||
  { echo "BENCH native_peers failed (generating the files)"; exit 1; }
scan=$T/scan/metadata/v1.metadata.json
mkdir -p "$T/cat-commit-1k" "$T/cat-commit-10k" "$T/cat-expire"
echo "# same files for all three; medians after one warm-up run; load: $(cut -d' ' -f1-3 /proc/loadavg)"

declare -A peer=([floe]="$BUILD/bench_native_ops" [go]="$bin/floe-peer-go" [rust]="$bin/floe-peer-rust")
declare -A label=([go]=iceberg-go [rust]=iceberg-rust)
# run NAME RUNS IMPLS -- OP ARGS...: IMPLS is the list of implementations that have OP.
run() {
  local name=$1 runs=$2 impls=$3 i line fcpu="" fcount=""
  shift 4
  for i in floe go rust; do
    if [[ " $impls " != *" $i "* ]]; then
      echo "BENCH native_${name}_$i peer lacks the operation (${label[$i]})"
      continue
    fi
    line=$("${peer[$i]}" "$1" "$runs" "${@:2}" 2>"$T/err" | grep '^PEER ') ||
      { echo "BENCH native_${name}_$i failed: $(tail -1 "$T/err")"; continue; }
    read -r _ _ wall cpu count <<<"$line"
    echo "BENCH native_${name}_$i $wall ms"
    echo "BENCH native_${name}_${i}_cpu $cpu ms"
    if [ "$i" = floe ]; then
      fcpu=$cpu fcount=$count
    elif [ -n "$fcpu" ]; then
      [ "$count" = "$fcount" ] || echo "# native_$name: ${label[$i]} counted $count, floe $fcount"
      awk -v a="$fcpu" -v b="$cpu" -v n="native_$name" -v p="${label[$i]}" \
        'BEGIN { if (b > 0) printf "RATIO %s %.4f %s\n", n, a / b, p }'
    fi
  done
}
for c in null deflate; do
  run "manifest_decode_$c" 5 "floe go rust" -- manifest "$T/m-$c.avro"
  run "manifest_decode_${c}_unpartitioned" 3 "floe go rust" -- manifest "$T/m-$c-unpartitioned.avro"
done
run metadata_parse_10k 5 "floe go rust" -- metadata "$T/metadata-10k.json"
run scan_plan_filtered 5 "floe go rust" -- plan "$scan" c00500
run scan_plan_full 3 "floe go rust" -- plan "$scan"
run files_table_1m 3 "floe go" -- files "$scan"
run commit_metadata_only_1k 9 "floe go rust" -- commit "$m1k" "$T/cat-commit-1k"
run commit_metadata_only_10k 5 "floe go rust" -- commit "$m10k" "$T/cat-commit-10k"
run expire_snapshots_10k_keep_1k 3 "floe go rust" -- expire "$m10k" "$T/cat-expire" 1000
