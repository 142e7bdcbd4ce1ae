#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe suspects`: the seed's bad nightly load (a replay of yesterday's
# file on top of today's), an overwrite injected at a random point of a
# random append-only history, and steady random histories that must raise
# no alarm. Tables are built with the fixture tool of tests/unit/cli
# (cli_test_log --build: spec builder + SQLite catalog).
set -u
: "${FLOE_BIN:?}" "${FLOE_BUILD_DIR:?}"
FIXTURE="$FLOE_BUILD_DIR/cli_test_log"
[ -x "$FIXTURE" ] || { echo "skipped: no $FIXTURE"; exit 77; }
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
expect_eq() { # description, actual, expected
    if [ "$2" == "$3" ]; then ok; else bad "$1: got [$2], expected [$3]"; fi
}

SEED=${SUSPECTS_SEED:-$RANDOM}
echo "random seed: $SEED (SUSPECTS_SEED=$SEED to replay)"

# --- the seed's story: 14 nightly loads of ~1000 orders, then a load that
# replays yesterday's file, then two good nights.
"$PY" - "$SEED" >"$T/nightly.txt" <<'PYEOF'
import random, sys
r = random.Random(int(sys.argv[1]))
print("table shop.orders")
ts, parent, total, files, sid = 1790600000000, "-", 0, 0, 1000
prev = 0
for night in range(17):
    sid += 1
    n = r.randint(950, 1050)
    added = n + prev if night == 14 else n     # the replayed file rides along
    f = 2 if night == 14 else 1
    total += added; files += f; ts += 86400000
    print(f"snap {sid} {parent} {ts} append added-records={added} added-data-files={f} "
          f"total-records={total} total-data-files={files}")
    print(f"ref main {sid} branch")
    parent, prev = sid, n
PYEOF
"$FIXTURE" --build "$T/wh1" <"$T/nightly.txt" || bad "fixture nightly"
out=$("$FLOE_BIN" suspects --warehouse "$T/wh1" --format csv shop.orders)
expect_eq "nightly: exit status" "$?" 0
expect_eq "nightly: one suspect, the replay" "$(tail -n +2 <<<"$out" | cut -d, -f1)" "1015"
grep -qF ",main,added-records " <<<"$out" && ok || bad "nightly: reason: $out"
grep -qF ",1014,\"CALL local.system.rollback_to_snapshot('shop.orders', 1014)\"" <<<"$out" &&
    ok || bad "nightly: target and statement: $out"
text=$("$FLOE_BIN" suspects --warehouse "$T/wh1" shop.orders)
grep -qF "undo:     CALL local.system.rollback_to_snapshot('shop.orders', 1014)" <<<"$text" &&
    ok || bad "nightly: text undo line: $text"
grep -qF "also undoes the 2 later snapshots of main" <<<"$text" && ok || bad "nightly: later count"
grep -qF "added-records" <<<"$text" && ok || bad "nightly: reason names added-records"

# --- the seed's table itself, with the bad write an overwrite (3 -> 5 rows):
cat >"$T/seed.txt" <<'EOF2'
table shop.orders
snap 3657524344527679724 - 1790601319839 append added-records=2 total-records=2
ref main 3657524344527679724 branch
snap 5270420720687731067 3657524344527679724 1790601322058 append added-records=1 total-records=3
ref main 5270420720687731067 branch
snap 23499723825440384 5270420720687731067 1790601326352 overwrite added-records=5 deleted-records=3 total-records=5
ref main 23499723825440384 branch
EOF2
"$FIXTURE" --build "$T/wh2" <"$T/seed.txt" || bad "fixture seed"
out=$("$FLOE_BIN" suspects --warehouse "$T/wh2" --format json shop.orders)
grep -qF '"snapshot_id":23499723825440384' <<<"$out" && ok || bad "seed: suspect: $out"
grep -qF '"rollback_to":5270420720687731067' <<<"$out" && ok || bad "seed: target: $out"
grep -qF "CALL local.system.rollback_to_snapshot('shop.orders', 5270420720687731067)" <<<"$out" &&
    ok || bad "seed: statement"
# after the rollback the suspect is abandoned: still reported, nothing to undo
echo "ref main 5270420720687731067 branch" >>"$T/seed.txt"
sed -i 's/^table shop.orders/table shop.orders_rolled_back/' "$T/seed.txt"
"$FIXTURE" --build "$T/wh2" <"$T/seed.txt" || bad "fixture seed rolled back"
text=$("$FLOE_BIN" suspects --warehouse "$T/wh2" shop.orders_rolled_back)
grep -qF "suspect 23499723825440384" <<<"$text" && grep -qF "[abandoned]" <<<"$text" &&
    grep -qF "already rolled back" <<<"$text" && ok || bad "seed rolled back: $text"

# --- random append-only histories with one injected overwrite, and steady ones.
for round in 1 2 3 4 5 6; do
    "$PY" - "$SEED" "$round" >"$T/r$round.txt" <<'PYEOF'
import random, sys
seed, rnd = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(seed * 100 + rnd)
n = r.randint(20, 80)
inject = r.randint(3, n - 1) if rnd <= 3 else -1   # rounds 4-6: steady
ts, parent, total, files = 1790600000000, "-", 0, 0
ids = r.sample(range(1, 2**62), n)
print("table db.events")
for k in range(n):
    sid = ids[k]
    ts += r.randint(60000, 7200000)
    added = r.randint(5000, 7000)
    f = r.randint(1, 3)
    if k == inject:
        op, extra = "overwrite", f" deleted-records={total} deleted-data-files={files}"
        total, files = added, f
    else:
        op, extra = "append", ""
        total += added; files += f
    print(f"snap {sid} {parent} {ts} {op} added-records={added} added-data-files={f} "
          f"total-records={total} total-data-files={files}{extra}")
    print(f"ref main {sid} branch")
    if k == inject:
        print(f"# expect {sid} {parent}", file=sys.stderr)
    parent = sid
PYEOF
done 2>"$T/expect.txt"
for round in 1 2 3 4 5 6; do
    "$FIXTURE" --build "$T/wr$round" <"$T/r$round.txt" || bad "fixture round $round"
    out=$("$FLOE_BIN" suspects --warehouse "$T/wr$round" --format csv db.events | tail -n +2)
    if [ "$round" -le 3 ]; then
        read -r _ _ sid parent <<<"$(sed -n "${round}p" "$T/expect.txt")"
        expect_eq "round $round: the overwrite" "$(cut -d, -f1,3 <<<"$out")" "$sid,overwrite"
        grep -qF ",$parent,\"CALL local.system.rollback_to_snapshot('db.events', $parent)\"" \
            <<<"$out" && ok || bad "round $round: target $parent: $out"
    else
        expect_eq "round $round: steady history, no alarm" "$out" ""
    fi
done

# --- a table that is rewritten nightly (overwrite of ~100 rows) until one
# night deletes 50 times as many: flagged by deleted-records, not by its
# operation.
"$PY" - >"$T/rewrite.txt" <<'PYEOF'
print("table db.rewritten")
parent, total = "-", 100000
for sid in range(1, 21):
    deleted = 5000 if sid == 17 else 90 + (sid * 7) % 20
    added = 100
    total += added - deleted
    print(f"snap {sid} {parent} {1790600000000 + sid * 86400000} overwrite added-records={added} "
          f"deleted-records={deleted} added-data-files=1 total-records={total}")
    print(f"ref main {sid} branch")
    parent = sid
PYEOF
"$FIXTURE" --build "$T/wrw" <"$T/rewrite.txt" || bad "fixture rewritten"
out=$("$FLOE_BIN" suspects --warehouse "$T/wrw" --format csv db.rewritten | tail -n +2)
expect_eq "rewritten: the mass delete" "$(cut -d, -f1,3 <<<"$out")" "17,overwrite"
grep -qF "deleted-records 5000" <<<"$out" && grep -qF ",16,\"CALL local.system.rollback_to_snapshot('db.rewritten', 16)\"" <<<"$out" &&
    ok || bad "rewritten: reason and target: $out"

# --- a long steady history: no false alarm anywhere along it.
"$PY" - "$SEED" >"$T/steady.txt" <<'PYEOF'
import random, sys
r = random.Random(int(sys.argv[1]))
print("table db.steady")
parent, ts, total = "-", 1790600000000, 0
for sid in range(1, 301):
    added = int(r.gauss(10000, 800))
    total += added; ts += 3600000
    print(f"snap {sid} {parent} {ts} append added-records={added} added-data-files={r.randint(1, 2)} total-records={total}")
    print(f"ref main {sid} branch")
    parent = sid
PYEOF
"$FIXTURE" --build "$T/ws" <"$T/steady.txt" || bad "fixture steady"
out=$("$FLOE_BIN" suspects --warehouse "$T/ws" db.steady)
expect_eq "steady 300 commits" "$out" "no suspect snapshots among 300 checked"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
