#!/usr/bin/env bash
# make bench: run every bench/ program from the release build; each prints
# `BENCH <name> <value> <unit>` and, where a peer runs here, `RATIO ...` lines.
set -uo pipefail
BUILD=${1:-build/release}
bash "$(dirname "$0")/interop-setup.sh" || true
for b in "$BUILD"/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b" || echo "BENCH $(basename "$b") failed"
done
