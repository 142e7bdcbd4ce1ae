#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Static analysis of src/ over the build's compile_commands.json:
#   check-static.sh cppcheck   cppcheck --enable=warning,portability, the
#                              suppressions (each with its reason) of
#                              scripts/cppcheck-suppressions.txt
#   check-static.sh tidy       clang-tidy with the checked-in .clang-tidy, on
#                              every file of src/
# Exit 0 clean, 1 findings, 77 (skipped) when the tool is not installed
# (scripts/deps.sh installs clang-tidy and cppcheck). ctest entries cppcheck
# and tidy (label lint) run it with FLOE_BUILD_DIR set.
set -uo pipefail
src="${FLOE_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
build="${FLOE_BUILD_DIR:-$src/build/dev}"
tool="${1:-}"
db="$build/compile_commands.json"
[ -f "$db" ] || { echo "missing $db (configure with CMAKE_EXPORT_COMPILE_COMMANDS)"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
# The compile database of src/ only (not tests, bench, fuzz).
subset() {
  python3 - "$db" "$src" > "$tmp/compile_commands.json" <<'PY'
import json, os, sys
db, src = sys.argv[1], sys.argv[2]
out = []
for e in json.load(open(db)):
    rel = os.path.relpath(os.path.join(e["directory"], e["file"]), src)
    parts = rel.split(os.sep)
    if parts[0] == "src" and len(parts) > 2:
        out.append(e)
json.dump(out, sys.stdout)
PY
}
case "$tool" in
cppcheck)
  command -v cppcheck >/dev/null || { echo "skipped: cppcheck not installed"; exit 77; }
  subset
  grep -vE '^(#|$)' "$src/scripts/cppcheck-suppressions.txt" > "$tmp/suppressions"
  if cppcheck --project="$tmp/compile_commands.json" --enable=warning,portability \
       --suppressions-list="$tmp/suppressions" --inline-suppr \
       --error-exitcode=1 -q -j"$jobs" 2>&1; then
    echo "ok   cppcheck clean on src/"; echo "1 passed, 0 failed"
  else
    echo "FAIL cppcheck findings above"; echo "0 passed, 1 failed"; exit 1
  fi ;;
tidy)
  rt=$(command -v run-clang-tidy || command -v run-clang-tidy-14 || true)
  command -v clang-tidy >/dev/null && [ -n "$rt" ] || { echo "skipped: clang-tidy not installed"; exit 77; }
  subset
  if "$rt" -p "$tmp" -j "$jobs" -quiet 2>&1 | sed "s/\x1b\\[[0-9;]*m//g" >"$tmp/out" && [ "${PIPESTATUS[0]}" -eq 0 ] &&
     ! grep -qE '(warning|error): ' "$tmp/out"; then
    echo "ok   clang-tidy clean on src/"
    echo "1 passed, 0 failed"
  else
    grep -vE '^(clang-tidy|[0-9]+ warnings? (and [0-9]+ errors? )?generated|Suppressed|Use -header-filter)' "$tmp/out"
    echo "FAIL clang-tidy findings above"; echo "0 passed, 1 failed"; exit 1
  fi ;;
*) echo "usage: $0 cppcheck|tidy" >&2; exit 2 ;;
esac
