#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run the reference-engine peer suite (tests/peers: Spark 3.5 + Iceberg 1.11, PyIceberg,
# S3Proxy) once against a floe binary:  scripts/peers-test.sh [build/dev/floe] [pytest args]
# Installs the peers first (scripts/peers-setup.sh; cached, fast when warm).
# Closes with one line `peers: N passed, N failed, N skipped` (read by scripts/check.sh).
# Under CI=true a peer that cannot be installed or started, or a run that collected no
# test (pytest's exit 5), is a failure; elsewhere a missing peer skips the suite.
set -uo pipefail
cd "$(dirname "$0")/.."
FLOE=$(realpath "${1:-build/dev/floe}")
shift || true
DIR=${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers}
summary() { echo "peers: $1 passed, $2 failed, $3 skipped"; }
if ! bash scripts/peers-setup.sh; then
  if [ "${CI:-}" = true ]; then
    echo "peers: setup failed (CI=true: a failure, not a skip)"
    summary 0 1 0; exit 1
  fi
  echo "peers: setup failed: the peer suite is skipped (run scripts/peers-setup.sh)"
  summary 0 0 1; exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
FLOE_BIN=$FLOE FLOE_PEERS_DIR=$DIR "$DIR/venv/bin/python" -m pytest tests/peers -q \
  -p no:cacheprovider -rfEs "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
line=$(grep -E "^=*\s*[0-9]+ (passed|failed|skipped|error)" "$log" | tail -1)
count() { grep -oE "[0-9]+ $1" <<<"$line" | grep -oE "^[0-9]+" || echo 0; }
pass=$(count passed); fail=$(( $(count failed) + $(count error) )); skip=$(count skipped)
if [ "$rc" -eq 5 ]; then
  echo "peers: pytest collected no test"
  fail=$((fail + 1))
elif [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
  echo "peers: pytest exited $rc"
  fail=1
fi
if [ "${CI:-}" = true ] && [ "$skip" -gt 0 ]; then
  echo "peers: $skip skipped under CI=true: counted as failures"
  fail=$((fail + skip)); skip=0
fi
summary "$pass" "$fail" "$skip"
[ "$fail" -eq 0 ]
