#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` REPL on a pseudo-terminal: prompts, a statement over several
# lines, an error that does not end the session, history written to
# $FLOE_HISTORY (recalled with the Up arrow in a second session), Ctrl-D.
set -u
: "${FLOE_BIN:?}"
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/drive.py" <<'PYEOF'
import os, pty, sys, time, select

def run(argv, keys, env):
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    out = b""
    def pump(t):
        nonlocal out
        end = time.time() + t
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    return False
                if not data:
                    return False
                out += data
        return True
    pump(0.5)
    for k in keys:
        os.write(fd, k)
        pump(0.4)
    deadline = time.time() + 5
    status = None
    while time.time() < deadline:
        pump(0.1)
        wpid, st = os.waitpid(pid, os.WNOHANG)
        if wpid:
            status = os.waitstatus_to_exitcode(st)
            break
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        status = "timeout"
    return out.decode("utf-8", "replace").replace("\r", ""), status

floe, wh, hist, which = sys.argv[1:5]
env = dict(os.environ, FLOE_HISTORY=hist, TERM="dumb")
argv = [floe, "sql", "--warehouse", wh]
if which == "1":
    keys = [b"SELECT 40\n", b"  + 2 AS answer;\n", b"SELECT nope();\n",
            b"CREATE NAMESPACE repl_ns;\n", b"\x04"]
else:
    keys = [b"\x1b[A", b"\x1b[A", b"\n", b"\x04"]   # Up Up: the earlier statement
out, status = run(argv, keys, env)
sys.stdout.write(out)
sys.stdout.write("\nEXIT=%s\n" % status)
PYEOF
pass=0 fail=0
has() { if grep -qF -- "$3" <<<"$2"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1: missing '$3'"; echo "$2"; fi; }

out=$("$PY" "$T/drive.py" "$FLOE_BIN" "$T/wh" "$T/hist" 1)
has "prompt" "$out" "floe> "
has "continuation prompt" "$out" "   -> "
has "multi-line result" "$out" "|42    |"
has "error reported" "$out" "AnalysisException: no such function: nope"
has "session continues" "$out" "CREATE NAMESPACE repl_ns"
has "Ctrl-D exits 0" "$out" "EXIT=0"
has "history file" "$(cat "$T/hist" 2>/dev/null)" "SELECT nope();"
has "multi-line history entry" "$(cat "$T/hist" 2>/dev/null)" "+ 2 AS answer;"
has "statement ran" "$("$FLOE_BIN" sql --warehouse "$T/wh" --format csv -c "SHOW NAMESPACES")" "repl_ns"

out=$("$PY" "$T/drive.py" "$FLOE_BIN" "$T/wh" "$T/hist" 2)
has "history recalled" "$out" "no such function: nope"
has "second session exits" "$out" "EXIT=0"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
