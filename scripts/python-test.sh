#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# floe-python's tests (tests/python, pytest) in the peer setup's virtual
# environment: build and install ./python against BUILD_DIR's libfloe.a
# (pip install ./python), then run pytest. Closes with one line
# `python: N passed, N failed, N skipped`. Without the venv the run is
# skipped, except under CI=true where that is a failure.
# Usage: scripts/python-test.sh [BUILD_DIR] [pytest args...]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
shift || true
venv=${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers}/venv
py=$venv/bin/python
if [ ! -x "$py" ] || ! "$py" -c 'import pyarrow, pytest' 2>/dev/null; then
  if [ "${CI:-}" = true ]; then
    echo "python: no peer venv with pyarrow and pytest at $venv (scripts/peers-setup.sh)"
    echo "python: 0 passed, 1 failed, 0 skipped"
    exit 1
  fi
  echo "python: no peer venv at $venv: skipped (run scripts/peers-setup.sh)"
  echo "python: 0 passed, 0 failed, 1 skipped"
  exit 0
fi
# build requirements of ./python and the pandas interop (pinned)
if ! "$py" -c 'import cffi, wheel, pandas' 2>/dev/null; then
  "$venv/bin/pip" install -q "cffi==1.17.1" "wheel==0.45.1" "pandas==2.2.3" || {
    echo "python: cannot install cffi/wheel/pandas"; echo "python: 0 passed, 1 failed, 0 skipped"; exit 1; }
fi
log=$(mktemp)
rm -rf python/build python/*.egg-info
if ! FLOE_BUILD_DIR="$PWD/$build" "$venv/bin/pip" install -q --no-build-isolation --force-reinstall \
    --no-deps ./python >"$log" 2>&1; then
  cat "$log"; rm -f "$log"
  echo "python: pip install ./python failed"
  echo "python: 0 passed, 1 failed, 0 skipped"
  exit 1
fi
rm -rf python/build python/*.egg-info
FLOE_BUILD_DIR="$PWD/$build" FLOE_BIN="$PWD/$build/floe" "$py" -m pytest -q -p no:cacheprovider \
  tests/python "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
summary=$(grep -E "^(=+ )?[0-9]+ (passed|failed|skipped|error)" "$log" | tail -1)
count() { grep -oE "[0-9]+ $1" <<<"$summary" | grep -oE "[0-9]+" || echo 0; }
pass=$(count passed); fail=$(( $(count failed) + $(count error) )); skip=$(count skipped)
rm -f "$log"
[ "$rc" -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "python: ${pass} passed, ${fail} failed, ${skip} skipped"
[ "$fail" -eq 0 ]
