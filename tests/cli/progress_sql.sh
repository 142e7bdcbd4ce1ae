#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The progress line of `floe sql` (issue 15): a large INSERT ... SELECT /
# CTAS / INSERT OVERWRITE draws "writing rows N ... done in" and planning a
# table with many manifests draws "reading manifests k/N (100%)" on stderr
# when stderr is a terminal (python3's pty module here); nothing when piped,
# nothing with --quiet, never on stdout, and the query result is the same
# either way. FLOE_PROGRESS_DELAY_MS=0 removes the one-second grace period.
set -u
: "${FLOE_BIN:?}"
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
W="$T/wh"
ROWS=100000
NMAN=40

ON_TTY="$(dirname "${BASH_SOURCE[0]}")/../on_tty.py" # stderr on a pseudo-terminal
run_pty() { FLOE_PROGRESS_DELAY_MS=0 "$PY" "$ON_TTY" "$@"; }
sql() { "$FLOE_BIN" sql --warehouse "$W" "$@"; }

GEN="WITH RECURSIVE r(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM r WHERE id < $ROWS) SELECT id"
sql -c "CREATE NAMESPACE db; CREATE TABLE db.big (id bigint, s string) USING iceberg" ||
    { echo "FAIL: setup"; exit 1; }

# A large INSERT ... SELECT under a terminal: rows counted, bytes, rate, done.
out=$(run_pty "$FLOE_BIN" sql --warehouse "$W" --format csv \
    -c "INSERT INTO db.big SELECT id, 'row ' || id FROM ($GEN FROM r)")
grep -qF "RC:0" <<<"$out" && ok || bad "insert: exit status: $out"
grep -q "TTY:.*writing rows $ROWS  [0-9]*/s  [0-9.]* [KM]iB  .*/s  done in" <<<"$out" && ok ||
    bad "insert: progress line with rows, bytes and rate: $out"
grep -q "TTY:.*ETA" <<<"$out" && bad "insert: an ETA without a known total: $out" || ok
grep -q "TTY:.*\\\\x1b\[K" <<<"$out" && ok || bad "insert: line erased in place: $out"
grep -q "STDOUT:.*writing rows" <<<"$out" && bad "insert: progress on stdout" || ok

# CTAS and INSERT OVERWRITE go through the same loop.
out=$(run_pty "$FLOE_BIN" sql --warehouse "$W" \
    -c "CREATE TABLE db.copy USING iceberg AS SELECT id, s FROM db.big")
grep -q "TTY:.*writing rows $ROWS .*done in" <<<"$out" && ok || bad "ctas: $out"
out=$(run_pty "$FLOE_BIN" sql --warehouse "$W" \
    -c "INSERT OVERWRITE db.copy SELECT id, s FROM db.big WHERE id <= 5000")
grep -q "TTY:.*writing rows 5000 .*done in" <<<"$out" && ok || bad "insert overwrite: $out"

# A table of NMAN manifests (one per INSERT): planning counts them.
script=""
for i in $(seq 1 $NMAN); do script="$script INSERT INTO db.many VALUES ($i, 'm$i');"; done
sql -c "CREATE TABLE db.many (id bigint, s string) USING iceberg; $script" ||
    { echo "FAIL: setup many"; exit 1; }
Q="SELECT count(*) AS n, sum(id) AS total FROM db.many"
out=$(run_pty "$FLOE_BIN" sql --warehouse "$W" --format csv -c "$Q")
grep -qF "RC:0" <<<"$out" && ok || bad "plan: exit status: $out"
grep -q "TTY:.*reading manifests $NMAN/$NMAN (100%).*B.*done in" <<<"$out" && ok ||
    bad "plan: manifests read / total: $out"
grep -q "STDOUT:.*reading manifests" <<<"$out" && bad "plan: progress on stdout" || ok
# the result on stdout is the same as without a terminal
want=$(sql --format csv -c "$Q" 2>/dev/null)
[ "$want" = "n,total
$NMAN,$((NMAN * (NMAN + 1) / 2))" ] && ok || bad "plan: piped result: $want"
got=$("$PY" -c 'import ast,sys; t=sys.stdin.read(); print(ast.literal_eval(t.split("STDOUT:",1)[1].split("\nTTY:",1)[0]), end="")' <<<"$out")
[ "$got" = "$want
" ] || [ "$got" = "$want" ] && ok || bad "plan: stdout under a terminal differs: '$got' vs '$want'"

# --quiet and -q: nothing on the terminal, same result.
out=$(run_pty "$FLOE_BIN" sql --quiet --warehouse "$W" --format csv -c "$Q")
grep -q "TTY:''" <<<"$out" && ok || bad "--quiet plan: $out"
grep -qF "$NMAN,$((NMAN * (NMAN + 1) / 2))" <<<"$out" && ok || bad "--quiet: result: $out"
out=$(run_pty "$FLOE_BIN" sql -q --warehouse "$W" \
    -c "INSERT INTO db.big SELECT id, s FROM db.big WHERE id <= 3000")
grep -q "TTY:''" <<<"$out" && ok || bad "-q insert: $out"

# stderr piped or redirected: nothing, even with no delay.
err=$(FLOE_PROGRESS_DELAY_MS=0 "$FLOE_BIN" sql --warehouse "$W" --format csv -c "$Q" 2>&1 >/dev/null | cat)
[ -z "$err" ] && ok || bad "plan, stderr to a pipe: $err"
FLOE_PROGRESS_DELAY_MS=0 "$FLOE_BIN" sql --warehouse "$W" \
    -c "INSERT INTO db.big SELECT id, s FROM db.big WHERE id <= 3000" 2>"$T/err" >/dev/null
[ ! -s "$T/err" ] && ok || bad "insert, stderr to a file: $(cat "$T/err")"

# the default grace period: quick statements draw nothing even on a terminal
out=$(FLOE_PROGRESS_DELAY_MS=600000 "$PY" "$ON_TTY" "$FLOE_BIN" sql --warehouse "$W" -c "$Q")
grep -q "TTY:''" <<<"$out" && ok || bad "default delay: $out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
