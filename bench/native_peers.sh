#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# floe vs the Iceberg libraries users would pick instead, on the same generated files, in
# the same run (issue #28): iceberg-go (v0.7.0), iceberg-rust (0.10.1), the Iceberg Java
# 1.11 core API and PyIceberg 0.12. floe's benches write the files (FLOE_BENCH_KEEP,
# FLOE_BENCH_SCAN_DIR), then bench_native_ops (floe), floe-peer-go and floe-peer-rust
# (bench/go, bench/rust, built by scripts/peers-setup.sh), bench/java/FloePeerJava.java
# (compiled here against the core jars peers-setup copies, cached) and
# `bench/python_vs_pyiceberg.py peer` (the peer venv) each run every operation to warm up
# (Java: 3 runs, for the JIT; the others once), then RUNS times (Java at least 5), timed
# inside the process (JVM and interpreter start-up excluded), and report medians of wall
# and process CPU time. Prints per implementation
#   BENCH native_<op>_<impl> <wall ms> ms      BENCH native_<op>_<impl>_cpu <cpu ms> ms
# and RATIO native_<op> <floe CPU time / peer CPU time> iceberg-go|iceberg-rust|iceberg-java|pyiceberg
# (CPU time: the machine is shared). A peer without the operation says so; a peer that is
# not installed is skipped with a line saying so, and under CI=true that is a failure.
#   bench/native_peers.sh [build/release]
#   FLOE_PEERS="go java" bench/native_peers.sh    only these peers
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$root/build/release}" && pwd)
DIR=${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers}
bin=$DIR/native/bin
unavailable() {
  echo "BENCH native_peers peer unavailable: $1 (scripts/peers-setup.sh)"
  [ "${CI:-}" = true ] && exit 1
}
# java_peer: compile bench/java/FloePeerJava.java against the core jars into
# $DIR/native/java, again only when the source, the jars or the JDK change.
java_peer() {
  local jdir=$DIR/native/java src=$root/bench/java/FloePeerJava.java sum
  command -v javac >/dev/null && command -v java >/dev/null || { echo "no JDK (javac, java)"; return 1; }
  [ -f "$DIR/core-jars/.stamp" ] || { echo "no Iceberg core jars in $DIR/core-jars"; return 1; }
  sum=$( (cat "$src" "$DIR/core-jars/.stamp"; javac -version 2>&1) | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$jdir/.stamp" 2>/dev/null)" != "$sum" ]; then
    rm -rf "$jdir" && mkdir -p "$jdir" &&
      javac -nowarn -d "$jdir" -cp "$DIR/core-jars/*" "$src" >"$jdir/javac.log" 2>&1 ||
      { echo "javac failed: $(tail -3 "$jdir/javac.log")"; return 1; }
    echo "$sum" >"$jdir/.stamp"
  fi
}
py=$DIR/venv/bin/python
# invoke IMPL OP RUNS ARGS...: one implementation's program. Java keeps its JIT threads
# alive (their CPU time stays in the per-thread sum FloePeerJava reports).
invoke() {
  local i=$1
  shift
  case $i in
  floe) "$BUILD/bench_native_ops" "$@" ;;
  go | rust) "$bin/floe-peer-$i" "$@" ;;
  java) java -XX:-UseDynamicNumberOfCompilerThreads -cp "$DIR/native/java:$DIR/core-jars/*" \
    org.apache.iceberg.FloePeerJava "$@" ;;
  pyiceberg) "$py" "$root/bench/python_vs_pyiceberg.py" peer "$@" ;;
  esac
}
declare -A label=([go]=iceberg-go [rust]=iceberg-rust [java]=iceberg-java [pyiceberg]=pyiceberg)
impls=floe
for p in ${FLOE_PEERS:-go rust java pyiceberg}; do
  case $p in
  go | rust) [ -x "$bin/floe-peer-$p" ] || { unavailable "no $bin/floe-peer-$p"; continue; } ;;
  java) why=$(java_peer) || { unavailable "iceberg-java: $why"; continue; } ;;
  pyiceberg) "$py" -c 'import pyiceberg' 2>/dev/null || { unavailable "no pyiceberg in $DIR/venv"; continue; } ;;
  *) echo "BENCH native_peers unknown peer $p"; exit 1 ;;
  esac
  impls+=" $p"
done
[ "$impls" = floe ] && exit 0
T=$(mktemp -d /tmp/floe-native-peers-XXXXXX)
trap 'rm -rf "$T"' EXIT
# FLOE_NATIVE_CASES=REGEX: only the cases whose names match (and only their files are made).
want() { [ -z "${FLOE_NATIVE_CASES:-}" ] || [[ $1 =~ $FLOE_NATIVE_CASES ]]; }
{ ! want manifest_decode_ || FLOE_BENCH_KEEP=$T FLOE_BENCH_NO_PEERS=1 FLOE_BENCH_REPS=1 \
  "$BUILD/bench_avro_manifest" >/dev/null; } &&
  { ! want metadata_parse_10k || FLOE_BENCH_KEEP=$T "$BUILD/bench_metadata_json" >/dev/null; } &&
  { ! want scan_plan_files_table_1m || FLOE_BENCH_SCAN_DIR=$T/scan "$BUILD/bench_scan_plan" >/dev/null; } &&
  m1k=$("$BUILD/bench_native_ops" chain "$T/wh/b.db/t1000" 1000) &&
  m10k=$("$BUILD/bench_native_ops" chain "$T/wh/b.db/t10000" 10000) &&
  xmeta=$("$BUILD/bench_native_ops" expire-table "$T/wh/b.db/texpire" 10000) ||
  { echo "BENCH native_peers failed (generating the files)"; exit 1; }
# The expire table (bench/native_ops.c, "the expire table"): kept as a template; before every
# run (warm-up included, untimed) each implementation runs $T/expire-reset, which puts a fresh
# copy of it at the table's location; after an implementation's last run, expire_check
# compares the files it deleted with floe's.
xloc=$T/wh/b.db/texpire
mv "$xloc" "$T/texpire-template" && (cd "$T/texpire-template" && find . -type f | LC_ALL=C sort) >"$T/expire-before" ||
  { echo "BENCH native_peers failed (the expire table template)"; exit 1; }
printf '#!/bin/sh\nrm -rf "%s" && exec cp -al "%s" "%s"\n' "$xloc" "$T/texpire-template" "$xloc" >"$T/expire-reset"
chmod +x "$T/expire-reset"
scan=$T/scan/metadata/v1.metadata.json
mkdir -p "$T/cat-commit-1k" "$T/cat-commit-10k" "$T/cat-expire"
echo "# same files for every implementation ($impls); medians after warm-up; load: $(cut -d' ' -f1-3 /proc/loadavg)"

# expire_check NAME IMPL: the files IMPL's last expire run deleted from the expire table
# (the template's files the location no longer has), by kind, compared with floe's.
expire_check() {
  local name=$1 i=$2 n d m l
  (cd "$xloc" && find . -type f | LC_ALL=C sort) | LC_ALL=C comm -23 "$T/expire-before" - >"$T/deleted-$i"
  n=$(wc -l <"$T/deleted-$i")
  d=$(grep -c '^\./data/' "$T/deleted-$i")
  m=$(grep -c '^\./metadata/[md]-' "$T/deleted-$i")
  l=$(grep -c '^\./metadata/snap-' "$T/deleted-$i")
  echo "# native_$name: ${label[$i]:-floe} deleted $n of the table's $(wc -l <"$T/expire-before") files ($d data files, $m manifests, $l manifest lists)"
  echo "BENCH native_${name}_${i}_deleted_files $n files"
  if [ "$i" != floe ] && ! cmp -s "$T/deleted-floe" "$T/deleted-$i"; then
    echo "# native_$name: MISMATCH: ${label[$i]} deleted $(comm -13 "$T/deleted-floe" "$T/deleted-$i" | wc -l) files floe kept and kept $(comm -23 "$T/deleted-floe" "$T/deleted-$i" | wc -l) floe deleted"
    [ "${CI:-}" = true ] && exit 1
  fi
}
declare -A lacks=()
# run NAME RUNS HAVE -- OP ARGS...: HAVE is the list of implementations that have OP
# (lacks[IMPL], when set, says why one does not); after each implementation, $after NAME IMPL
# runs when set.
run() {
  local name=$1 runs=$2 have=$3 i n line fcpu="" fcount=""
  shift 4
  want "$name" || return 0
  for i in $impls; do
    if [[ " $have " != *" $i "* ]]; then
      echo "BENCH native_${name}_$i peer lacks the operation (${label[$i]}${lacks[$i]:+: ${lacks[$i]}})"
      continue
    fi
    n=$runs
    [ "$i" = java ] && [ "$n" -lt 5 ] && n=5 # the JIT-warmed median of at least 5
    [ "$i" = pyiceberg ] && [ -n "${FLOE_BENCH_PY_RUNS:-}" ] && [ "$n" -gt "$FLOE_BENCH_PY_RUNS" ] &&
      n=$FLOE_BENCH_PY_RUNS
    line=$(invoke "$i" "$1" "$n" "${@:2}" 2>"$T/err" | grep '^PEER ') ||
      { echo "BENCH native_${name}_$i failed: $(tail -1 "$T/err")"; continue; }
    read -r _ _ wall cpu count <<<"$line"
    echo "BENCH native_${name}_$i $wall ms"
    echo "BENCH native_${name}_${i}_cpu $cpu ms"
    [ -n "${after:-}" ] && "$after" "$name" "$i"
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
  run "manifest_decode_$c" 5 "floe go rust java pyiceberg" -- manifest "$T/m-$c.avro"
  run "manifest_decode_${c}_unpartitioned" 3 "floe go rust java pyiceberg" -- manifest "$T/m-$c-unpartitioned.avro"
done
run metadata_parse_10k 5 "floe go rust java pyiceberg" -- metadata "$T/metadata-10k.json"
run scan_plan_filtered 5 "floe go rust java pyiceberg" -- plan "$scan" c00500
run scan_plan_full 3 "floe go rust java pyiceberg" -- plan "$scan"
run files_table_1m 3 "floe go java pyiceberg" -- files "$scan"
run commit_metadata_only_1k 9 "floe go rust java pyiceberg" -- commit "$m1k" "$T/cat-commit-1k"
run commit_metadata_only_10k 5 "floe go rust java pyiceberg" -- commit "$m10k" "$T/cat-commit-10k"
# expire_snapshots with file deletion: 10,000 snapshots (100,000 data files) down to 1,000.
lacks=([rust]="expire_snapshots rewrites metadata only, no file cleanup"
  [pyiceberg]="expire_snapshots rewrites metadata only, no file cleanup")
after=expire_check run expire_snapshots_10k_keep_1k 3 "floe go java" -- expire "$xmeta" "$T/cat-expire" 1000 "$T/expire-reset"
lacks=()
