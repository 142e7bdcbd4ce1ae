# SPDX-License-Identifier: Apache-2.0
# Assertions shared by the shell tests (tests/cli/*.sh, tests/interop/*.sh):
# source it, check with ok/bad/eq/has, and end with
#   echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# eq DESCRIPTION ACTUAL EXPECTED
eq() { if [ "$2" == "$3" ]; then ok; else bad "$1"; printf -- '--- expected\n%s\n--- got\n%s\n' "$3" "$2"; fi; }
# has DESCRIPTION TEXT NEEDLE (fixed string)
has() { if grep -qF -- "$3" <<<"$2"; then ok; else bad "$1: missing '$3' in: $2"; fi; }
