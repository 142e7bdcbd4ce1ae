#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Each public header compiles on its own: a translation unit of just
# `#include <floe/X.h>` (twice, for the include guard) for every
# include/floe/*.h and include/floe/sys/*.h, with -Wall -Wextra -Wpedantic
# -Werror -std=c11 and nothing else on the include path. And include/floe.h,
# the umbrella, includes every include/floe/*.h (include/floe/sys/ holds the
# interfaces for backend implementers and is included explicitly, as in
# libgit2's git2/sys/). A ctest entry (headers); FLOE_SOURCE_DIR and CC
# override the defaults.
set -uo pipefail
src="${FLOE_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
cc="${CC:-cc}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
cd "$src/include" || exit 1
for h in floe/*.h floe/sys/*.h floe.h; do
  [ -f "$h" ] || continue
  printf '#include <%s>\n#include <%s>\nint floe_header_check_(void);\nint floe_header_check_(void) { return 0; }\n' "$h" "$h" > "$tmp/t.c"
  if out=$("$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I "$src/include" "$tmp/t.c" 2>&1); then
    pass=$((pass+1)); echo "ok   $h compiles alone"
  else
    fail=$((fail+1)); echo "FAIL $h does not compile alone:"; echo "$out" | sed 's/^/       /'
  fi
done
for h in floe/*.h; do
  if grep -qE "^#include [<\"]$h[>\"]" floe.h; then pass=$((pass+1)); echo "ok   floe.h includes $h"
  else fail=$((fail+1)); echo "FAIL include/floe.h does not include $h"; fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
