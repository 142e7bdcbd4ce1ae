#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/floe-completion.bash: commands, options, option values and table
# names from the catalog, driven through bash's completion variables.
set -u
: "${FLOE_BIN:?}" "${FLOE_BUILD_DIR:?}" "${FLOE_SOURCE_DIR:?}"
FIXTURE="$FLOE_BUILD_DIR/cli_test_log"
[ -x "$FIXTURE" ] || { echo "skipped: no $FIXTURE"; exit 77; }
command -v sqlite3 >/dev/null || command -v python3 >/dev/null ||
    { echo "skipped: neither sqlite3 nor python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
"$FIXTURE" --build "$T/wh" <"$FLOE_SOURCE_DIR/tests/cli/docs_warehouse.txt" || { echo "FAIL: fixture"; exit 1; }
# shellcheck source=/dev/null
source "$FLOE_SOURCE_DIR/scripts/floe-completion.bash"

complete_line() { # words... (the last one is being completed)
    COMP_WORDS=("$FLOE_BIN" "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _floe
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() { # description, actual, expected
    if [ "$2" == "$3" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1: got [$2], expected [$3]"; fi
}

expect "commands" "$(complete_line l)" "log"
expect "commands s" "$(complete_line s)" "serve sql suspects"
expect "help topic" "$(complete_line help su)" "suspects"
expect "log options" "$(complete_line log --gr)" "--graph"
expect "log options a" "$(complete_line log --a)" "--all --ascii"
expect "log formats" "$(complete_line log --format "")" "csv dot json table"
expect "suspects formats" "$(complete_line suspects --format "")" "csv json table text"
expect "colour" "$(complete_line log --color a)" "always auto"
expect "tables" "$(complete_line log --warehouse "$T/wh" shop.)" "shop.nightly shop.orders"
expect "tables via env" "$(FLOE_WAREHOUSE=$T/wh complete_line suspects shop.n)" "shop.nightly"
expect "other catalog name" "$(complete_line log --warehouse "$T/wh" --catalog-name ice shop.)" ""
expect "no catalog" "$(complete_line log --warehouse "$T/none" s)" ""

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
