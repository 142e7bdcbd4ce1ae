#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cmake --install` (what `make install PREFIX=...` runs) into a temporary
# prefix: the command, the library, and the man pages (floe(1) and one page
# per command, scripts/gen-man.sh from docs/cli/), found by `man` through
# MANPATH=PREFIX/share/man and rendered by `man -l` (issue #21 item 12).
set -u
: "${FLOE_BIN:?}" "${FLOE_BUILD_DIR:?}" "${FLOE_SOURCE_DIR:?}"
source "$FLOE_SOURCE_DIR/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P="$T/prefix"
cmake --install "$FLOE_BUILD_DIR" --prefix "$P" >"$T/install.log" 2>&1
eq "cmake --install exits 0" "$?" 0
[ -x "$P/bin/floe" ] && ok || bad "no $P/bin/floe"
"$P/bin/floe" --version >/dev/null && ok || bad "installed floe does not run"
ls "$P"/lib*/libfloe.a >/dev/null 2>&1 && ok || bad "no libfloe.a installed"
[ -f "$P/include/floe.h" ] && ok || bad "no floe.h installed"
man1="$P/share/man/man1"
pages="floe"
for md in "$FLOE_SOURCE_DIR"/docs/cli/floe-*.md; do pages="$pages $(basename "$md" .md)"; done
for p in $pages; do
    [ -f "$man1/$p.1" ] && ok || bad "man page $p.1 not installed"
done
if command -v man >/dev/null; then
    for p in $pages; do
        out=$(MANWIDTH=80 man -l "$man1/$p.1" 2>"$T/man.err")
        eq "man -l $p.1 exits 0" "$?" 0
        eq "man -l $p.1: no warnings" "$(cat "$T/man.err")" ""
        has "man -l $p.1: NAME section" "$out" "NAME"
        has "man -l $p.1: names the page" "$out" "$p"
    done
    out=$(MANPATH="$P/share/man" MANWIDTH=80 man floe-sql 2>&1)
    has "man floe-sql through MANPATH" "$out" "floe sql"
    eq "man -w floe through MANPATH" "$(MANPATH="$P/share/man" man -w floe 2>&1)" "$man1/floe.1"
    out=$(MANPATH="$P/share/man" MANWIDTH=80 man floe 2>&1)
    has "man floe lists the command pages" "$out" "floe-sql(1)"
else
    echo "man not installed: rendering not checked"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
