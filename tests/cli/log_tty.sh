#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe log --graph` colours: on a terminal (stdout on a pseudo-terminal from
# python3's pty module) unless NO_COLOR is set or --color never; never into
# a pipe unless --color always.
set -u
: "${FLOE_BIN:?}" "${FLOE_BUILD_DIR:?}"
FIXTURE="$FLOE_BUILD_DIR/cli_test_log"
[ -x "$FIXTURE" ] || { echo "skipped: no $FIXTURE"; exit 77; }
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
"$FIXTURE" --seed "$T/wh" || { echo "FAIL: fixture"; exit 1; }

cat >"$T/stdout_tty.py" <<'PYEOF'
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
p.wait()
sys.stdout.write(out.decode())
PYEOF
esc=$'\x1b['
log() { "$FLOE_BIN" log --warehouse "$T/wh" --graph --all "$@" shop.orders; }

out=$(env -u NO_COLOR "$PY" "$T/stdout_tty.py" "$FLOE_BIN" log --warehouse "$T/wh" --graph --all shop.orders)
[[ $out == *"$esc"* ]] && ok || bad "terminal: colours expected"
[[ $out == *"◉"* && $out == *"[abandoned]"* ]] && ok || bad "terminal: graph drawn: $out"
out=$(NO_COLOR=1 "$PY" "$T/stdout_tty.py" "$FLOE_BIN" log --warehouse "$T/wh" --graph --all shop.orders)
[[ $out != *"$esc"* ]] && ok || bad "NO_COLOR on a terminal: no colours"
out=$(env -u NO_COLOR "$PY" "$T/stdout_tty.py" "$FLOE_BIN" log --warehouse "$T/wh" --graph --all --color never shop.orders)
[[ $out != *"$esc"* ]] && ok || bad "--color never on a terminal"
out=$(unset NO_COLOR; log | cat)
[[ $out == *"[abandoned]"* && $out != *"$esc"* ]] && ok || bad "pipe: no colours: $out"
out=$(NO_COLOR=1 log --color always | cat)
[[ $out == *"$esc"* ]] && ok || bad "--color always into a pipe"
log --color sometimes >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--color with a bad word exits 2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
