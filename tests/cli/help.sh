#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe --help` lists every command; `floe <cmd> --help` / `-h` / `floe help
# <cmd>` print the command's full usage (synopsis and every option of the
# synopsis described) on stdout and exit 0; a usage error prints a message
# and the same text on stderr and exits 2 (issue #21 item 12).
set -u
: "${FLOE_BIN:?}" "${FLOE_SOURCE_DIR:?}"
source "$FLOE_SOURCE_DIR/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

"$FLOE_BIN" --help >"$T/top" 2>"$T/top.err"
eq "floe --help exits 0" "$?" 0
eq "floe --help: nothing on stderr" "$(cat "$T/top.err")" ""
commands=$(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' "$T/top")
eq "floe --help lists the commands" "$(echo $commands)" \
    "version inspect inventory retention log suspects serve sql"
"$FLOE_BIN" >/dev/null 2>"$T/none"
eq "floe without a command exits 2" "$?" 2
has "floe without a command: the command list on stderr" "$(cat "$T/none")" "commands:"

for c in $commands; do
    "$FLOE_BIN" "$c" --help >"$T/$c.out" 2>"$T/$c.err"
    eq "floe $c --help exits 0" "$?" 0
    eq "floe $c --help: nothing on stderr" "$(cat "$T/$c.err")" ""
    out=$(cat "$T/$c.out")
    has "floe $c --help: synopsis" "$out" "usage: floe $c"
    "$FLOE_BIN" "$c" -h >"$T/$c.h" 2>/dev/null
    eq "floe $c -h exits 0" "$?" 0
    eq "floe $c -h is --help" "$(cat "$T/$c.h")" "$out"
    "$FLOE_BIN" help "$c" >"$T/$c.help" 2>/dev/null
    eq "floe help $c is --help" "$(cat "$T/$c.help")" "$out"
    # every option of the synopsis is described on a line of its own
    synopsis=$(awk '/^usage:/ { on = 1 } on && /^$/ { exit } on' "$T/$c.out")
    for o in $(grep -o -- '--[a-z][a-z-]*' <<<"$synopsis" | sort -u); do
        if grep -qE -- "^  (-[a-zA-Z], )?$o( |$)" "$T/$c.out"; then ok; else
            bad "floe $c --help: option $o of the synopsis is not described"; fi
    done
    # the synopsis is no stub: no "..." standing for options
    if grep -qE -- '(^|[^]])\.\.\.' <<<"$synopsis"; then bad "floe $c --help: stub synopsis"; else ok; fi
done
# every described option is a real one: the commands that parse options
# reject an unknown one with the usage text on stderr and exit 2
for c in inspect inventory retention log suspects serve sql; do
    "$FLOE_BIN" "$c" --no-such-option >"$T/$c.uout" 2>"$T/$c.uerr"
    eq "floe $c --no-such-option exits 2" "$?" 2
    eq "floe $c usage error: nothing on stdout" "$(cat "$T/$c.uout")" ""
    has "floe $c usage error names the option" "$(cat "$T/$c.uerr")" "--no-such-option"
    has "floe $c usage error prints the usage" "$(cat "$T/$c.uerr")" "$(head -1 "$T/$c.out")"
done
# --help after other options still prints the usage
"$FLOE_BIN" sql --format csv --help >"$T/late" 2>&1
eq "floe sql --format csv --help exits 0" "$?" 0
has "floe sql --format csv --help" "$(cat "$T/late")" "usage: floe sql"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
