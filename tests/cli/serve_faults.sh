#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# floe's REST client against `floe serve` through a fault proxy on 127.0.0.1
# (tests/cli/rest_proxy.py): the response of a commit is dropped after the
# server applied it; the client re-sends it with the same Idempotency-Key and
# the table gets exactly one snapshot. Against a server without
# Idempotency-Key the client reconciles by snapshot id instead. Freshness
# checks send the last ETag as If-None-Match and get 304 while nothing
# changed, 200 after a commit.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
PROXY="$(dirname "${BASH_SOURCE[0]}")/rest_proxy.py"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }

mkdir -p "$T/wh"
"$FLOE_BIN" serve --warehouse "$T/wh" --port 0 --quiet >"$T/out" 2>"$T/err" &
pids="$pids $!"
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$T/out"); [ -n "$port" ] && break; sleep 0.05
done
[ -n "$port" ] || { echo "skipped: floe serve did not start: $(cat "$T/err")"; exit 77; }

# start_proxy NAME ARGS...: a proxy in front of the server; sets $P (its URL)
start_proxy() {
  local name=$1; shift
  python3 "$PROXY" "$port" "$T/$name.log" "$@" >"$T/$name.port" 2>"$T/$name.err" &
  pids="$pids $!"
  local pp=
  for _ in $(seq 1 100); do pp=$(sed -n 's/^port //p' "$T/$name.port" 2>/dev/null); [ -n "$pp" ] && break; sleep 0.05; done
  P="http://127.0.0.1:$pp"
}

# 1. the server supports Idempotency-Key: the first table commit's response is dropped
start_proxy keyed --drop-commit 1
out=$("$FLOE_BIN" sql --warehouse "$T/c1" --catalog-uri "$P" --format csv -c "CREATE NAMESPACE shop;
CREATE TABLE shop.t (id BIGINT); INSERT INTO shop.t VALUES (1), (2)" 2>&1)
eq "insert succeeds though its response was lost" "$?" "0"
log=$(cat "$T/keyed.log")
has "the response was dropped" "$log" "DROPPED"
commits=$(grep -E '^POST /v1/namespaces/shop/tables/t ' "$T/keyed.log")
eq "the commit was sent twice" "$(wc -l <<<"$commits")" "2"
keys=$(sed 's/.*key=\([^ ]*\).*/\1/' <<<"$commits" | sort -u)
eq "with one Idempotency-Key" "$(wc -l <<<"$keys")" "1"
[[ "$keys" =~ ^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$ ]] && ok || bad "not a UUIDv7 key: $keys"
keys_all=$(grep -oE 'key=[0-9a-f-]{36}' "$T/keyed.log" | sort | uniq -d | wc -l)
eq "every other mutation has its own key" "$keys_all" "1"
eq "exactly one snapshot" "$("$FLOE_BIN" sql --warehouse "$T/c1" --catalog-uri "http://127.0.0.1:$port" --format csv -c "SELECT count(*) AS n FROM shop.t.snapshots; SELECT count(*) AS r FROM shop.t")" "n
1
r
2"

# 1b. a 503 after the server applied the commit: re-sent with the same key,
# the server replays its stored 200
start_proxy failed --fail-commit 1
out=$("$FLOE_BIN" sql --warehouse "$T/c1b" --catalog-uri "$P" --format csv -c "CREATE TABLE shop.u (id BIGINT);
INSERT INTO shop.u VALUES (1)" 2>&1)
eq "insert succeeds though it was answered 503" "$?" "0"
has "the answer was a 503" "$(cat "$T/failed.log")" "FAILED"
eq "re-sent once with the same key" "$(grep -E '^POST /v1/namespaces/shop/tables/u ' "$T/failed.log" | sed 's/.*key=\([^ ]*\).*/\1/' | sort | uniq -c | awk '{print $1}')" "2"
eq "one snapshot on shop.u" "$("$FLOE_BIN" sql --warehouse "$T/c1" --catalog-uri "http://127.0.0.1:$port" --format csv -c "SELECT count(*) AS n FROM shop.u.snapshots")" "n
1"

# 2. freshness: the second read of an unchanged table is a 304, after a commit a 200
start_proxy fresh
"$FLOE_BIN" sql --warehouse "$T/c2" --catalog-uri "$P" --format csv -c "SELECT count(*) FROM shop.t;
SELECT count(*) FROM shop.t; INSERT INTO shop.t VALUES (3); SELECT count(*) FROM shop.t" >"$T/fresh.out" 2>&1
eq "reads through ETags" "$(cat "$T/fresh.out")" "count(*)
2
count(*)
2
count(*)
3"
loads=$(grep -E '^GET /v1/namespaces/shop/tables/t\?' "$T/fresh.log")
has "a freshness check is a 304" "$loads" " 304 inm=\""
has "304s carry no metadata" "$(grep ' 304 ' <<<"$loads" | head -1)" "bytes=0"
first=$(head -1 <<<"$loads")
has "the first load sends no tag" "$first" "200 inm=- "

# 3. a server without Idempotency-Key: no keys sent; a lost response is
# reconciled by the snapshot id (one snapshot, the INSERT reported done)
start_proxy old --drop-commit 1 --no-idempotency
out=$("$FLOE_BIN" sql --warehouse "$T/c3" --catalog-uri "$P" --format csv -c "INSERT INTO shop.t VALUES (4)" 2>&1)
eq "insert reconciled by snapshot id" "$?" "0"
echo "$out" >"$T/old.out"
has "the response was dropped (old server)" "$(cat "$T/old.log")" "DROPPED"
eq "no Idempotency-Key to an old server" "$(grep -c 'key=[0-9a-f]' "$T/old.log")" "0"
eq "sent once, never re-sent blindly" "$(grep -cE '^POST /v1/namespaces/shop/tables/t ' "$T/old.log")" "1"
eq "one more snapshot" "$("$FLOE_BIN" sql --warehouse "$T/c1" --catalog-uri "http://127.0.0.1:$port" --format csv -c "SELECT count(*) AS n FROM shop.t.snapshots; SELECT count(*) AS r FROM shop.t")" "n
3
r
4"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
