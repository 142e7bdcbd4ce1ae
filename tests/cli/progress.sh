#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The progress line: drawn on stderr when stderr is a terminal (a
# pseudo-terminal from python3's pty module here), never into a pipe or a
# file, never with --quiet, and never on stdout. FLOE_PROGRESS_DELAY_MS=0
# removes the one-second grace period quick commands normally get.
set -u
: "${FLOE_BIN:?}" "${FLOE_BUILD_DIR:?}"
FIXTURE="$FLOE_BUILD_DIR/cli_test_log"
[ -x "$FIXTURE" ] || { echo "skipped: no $FIXTURE"; exit 77; }
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# A table with a few thousand snapshots (a metadata file of ~1 MiB).
"$PY" - >"$T/big.txt" <<'PYEOF'
print("table db.big")
parent = "-"
for sid in range(1, 2001):
    print(f"snap {sid} {parent} {1790600000000 + sid * 1000} append added-records=100 "
          f"added-data-files=1 total-records={sid * 100} total-data-files={sid}")
    print(f"ref main {sid} branch")
    parent = sid
PYEOF
"$FIXTURE" --build "$T/wh" <"$T/big.txt" || { echo "FAIL: fixture"; exit 1; }


ON_TTY="$(dirname "${BASH_SOURCE[0]}")/../on_tty.py" # stderr on a pseudo-terminal
run_pty() { FLOE_PROGRESS_DELAY_MS=0 "$PY" "$ON_TTY" "$@"; }

out=$(run_pty "$FLOE_BIN" log --warehouse "$T/wh" --limit 1 --format csv db.big)
grep -qF "RC:0" <<<"$out" && ok || bad "pty: exit status: $out"
grep -q "TTY:.*reading metadata .*MiB.*done in" <<<"$out" && ok || bad "pty: progress line: $out"
grep -q "TTY:.*\\\\x1b\[K" <<<"$out" && ok || bad "pty: line erased in place: $out"
grep -q "STDOUT:.*2000,1999" <<<"$out" && ok || bad "pty: stdout has the listing: $out"
grep -q "STDOUT:.*reading metadata" <<<"$out" && bad "pty: progress on stdout" || ok

out=$(run_pty "$FLOE_BIN" suspects --warehouse "$T/wh" db.big)
grep -q "TTY:.*reading metadata" <<<"$out" && ok || bad "pty suspects: progress line: $out"

out=$(run_pty "$FLOE_BIN" log --quiet --warehouse "$T/wh" --limit 1 db.big)
grep -q "TTY:''" <<<"$out" && ok || bad "pty --quiet: nothing on the terminal: $out"

# The grace period: a command quicker than the delay draws nothing even on a
# terminal (a long explicit delay, so a slow sanitizer build cannot cross it).
out=$(FLOE_PROGRESS_DELAY_MS=600000 "$PY" "$ON_TTY" "$FLOE_BIN" log --warehouse "$T/wh" --limit 1 db.big)
grep -q "TTY:''" <<<"$out" && ok || bad "pty, default delay: $out"

# Piped / redirected stderr: nothing.
FLOE_PROGRESS_DELAY_MS=0 "$FLOE_BIN" log --warehouse "$T/wh" --limit 1 db.big 2>"$T/err" | cat >/dev/null
[ ! -s "$T/err" ] && ok || bad "stderr to a file: $(cat "$T/err")"
err=$(FLOE_PROGRESS_DELAY_MS=0 "$FLOE_BIN" log --warehouse "$T/wh" --limit 1 db.big 2>&1 >/dev/null | cat)
[ -z "$err" ] && ok || bad "stderr to a pipe: $err"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
