#!/usr/bin/env bash
# make bench: run every bench/ program from the release build; each prints
# `BENCH <name> <value> <unit>` and, where a peer runs here, `RATIO ...` lines.
set -uo pipefail
BUILD=${1:-build/release}
bash "$(dirname "$0")/interop-setup.sh" || true
for b in "$BUILD"/bench_*; do
  [ -x "$b" ] || continue
  [ "$(basename "$b")" = bench_hms_catalog ] && continue # needs a metastore: below
  echo "== $(basename "$b")"
  "$b" || echo "BENCH $(basename "$b") failed"
done
# remove_orphan_files over 100,000 real files, floe vs Spark (bench/maint_orphans.c; Spark at
# 1 M files takes minutes on this machine)
echo "== maint_orphans_disk"
FLOE_BENCH_ORPHANS_DISK=100000 "$BUILD/bench_maint_orphans" || echo "BENCH maint_orphans_disk failed"
# floe vs Iceberg Java's HiveCatalog through one Hive Metastore (bench/hms_vs_hivecatalog.sh)
echo "== hms_vs_hivecatalog"
bash "$(dirname "$0")/../bench/hms_vs_hivecatalog.sh" "$BUILD" || echo "BENCH hms_vs_hivecatalog failed"
# floe-python vs PyIceberg (bench/python_vs_pyiceberg.py) in the peer venv
venv=${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers}/venv
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import pyiceberg, cffi' 2>/dev/null; then
  echo "== python_vs_pyiceberg"
  root=$(cd "$(dirname "$0")/.." && pwd)
  rm -rf "$root/python/build"
  if FLOE_BUILD_DIR=$(cd "$BUILD" && pwd) "$venv/bin/pip" install -q --no-build-isolation \
      --force-reinstall --no-deps "$root/python" >/dev/null 2>&1; then
    (cd /tmp && "$venv/bin/python" "$root/bench/python_vs_pyiceberg.py") ||
      echo "BENCH python_vs_pyiceberg failed"
  else
    echo "BENCH python_vs_pyiceberg failed (pip install ./python)"
  fi
  rm -rf "$root/python/build" "$root"/python/*.egg-info
else
  echo "BENCH python_vs_pyiceberg skipped (no peer venv with pyiceberg and cffi: scripts/python-test.sh)"
fi
# --- Iceberg library peers: floe vs iceberg-go, iceberg-rust, Iceberg Java core and PyIceberg on the same files (bench/native_peers.sh)
echo "== native_peers"
bash "$(dirname "$0")/../bench/native_peers.sh" "$BUILD" || echo "BENCH native_peers failed"
# --- end of Iceberg library peers
