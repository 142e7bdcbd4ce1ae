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
# ext_run EXT CMD ARGS...: run CMD (the sqlite3 shell, or a shell that runs it) so
# that it can `.load` the loadable extension EXT. An extension built with ASan
# needs the ASan runtime loaded first by its uninstrumented host process; leak
# checks are off there (the host's own allocations are not ours to check).
ext_run() {
  local ext=$1 pre
  shift
  pre=$(ldd "$ext" 2>/dev/null | awk '/libasan/ {print $3}')
  if [ -n "$pre" ]; then
    LD_PRELOAD="$pre" ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$@"
  else
    "$@"
  fi
}
# serve_start DIR ARGS...: `floe serve ARGS --port 0` in the background (output in
# DIR/serve.out, DIR/serve.err); sets pid (kill it in the EXIT trap) and U, the
# http://127.0.0.1:PORT it listens on; a server that does not start fails the test.
serve_start() {
  local d=$1 port=
  shift
  "$FLOE_BIN" serve "$@" --port 0 >"$d/serve.out" 2>"$d/serve.err" &
  pid=$!
  for _ in $(seq 1 100); do
    port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$d/serve.out"); [ -n "$port" ] && break; sleep 0.05
  done
  if [ -z "$port" ]; then echo "FAIL floe serve did not start: $(cat "$d/serve.err")"; echo "0 passed, 1 failed"; exit 1; fi
  U="http://127.0.0.1:$port"
}
