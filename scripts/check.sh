#!/usr/bin/env bash
# make check: build and run every test, first in the dev build, then under
# ASan+UBSan. Closes with one line `N passed, N failed` over both runs.
set -uo pipefail
cd "$(dirname "$0")/.."
total_pass=0; total_fail=0; total_skip=0
run_preset() {
  local preset=$1
  echo "== $preset: build"
  cmake --preset "$preset" >/dev/null || return 1
  cmake --build --preset "$preset" || return 1
  echo "== $preset: test"
  local log="build/$preset/ctest.log"
  ctest --preset "$preset" 2>&1 | tee "$log"
  local line pass fail total skip
  line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log" | tail -1)
  fail=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
  skip=$(grep -cE "\*\*\*Skipped|Not Run" "$log" || true)
  [ -n "$fail" ] && [ -n "$total" ] || { echo "could not read ctest summary"; return 1; }
  pass=$((total - fail - skip))
  total_pass=$((total_pass + pass)); total_fail=$((total_fail + fail)); total_skip=$((total_skip + skip))
}
bash scripts/interop-setup.sh || echo "interop setup failed: interop tests will report skipped"
rc=0
run_preset dev || rc=1
# the reference-engine peer suite (tests/peers) on the dev build, counted in the last line
run_peers() {
  [ -x build/dev/floe ] || return 1
  bash scripts/peers-test.sh build/dev/floe 2>&1 | tee build/dev/peers.log
  local line; line=$(grep -E "^peers: [0-9]+ passed" build/dev/peers.log | tail -1)
  [ -n "$line" ] || { total_fail=$((total_fail + 1)); return 1; }
  set -- $(grep -oE "[0-9]+" <<<"$line")
  total_pass=$((total_pass + $1)); total_fail=$((total_fail + $2)); total_skip=$((total_skip + $3))
}
run_peers || rc=1
run_preset asan || rc=1
echo "${total_pass} passed, ${total_fail} failed, ${total_skip} skipped"
[ $rc -eq 0 ] && [ $total_fail -eq 0 ]
