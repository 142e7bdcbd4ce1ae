#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every table command (floe log, suspects, inventory, retention) opens its
# catalog as `floe sql` does: --catalog-uri http://... (an Iceberg REST
# catalog, here a local `floe serve`) with --conf token=, or --conf uri=;
# the catalog keys are checked with floe sql's messages; a thrift:// uri is
# a Hive Metastore (an unreachable one fails at open). The real metastore
# runs in tests/peers/test_hms.py.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

mkdir -p "$T/wh"
printf 'sekrit\n' >"$T/tok"
serve_start "$T" --warehouse "$T/wh" --token-file "$T/tok"
cd "$T" || exit 1

"$FLOE_BIN" sql --warehouse "$T/client" --catalog-uri "$U" --conf token=sekrit -c \
  "CREATE NAMESPACE shop; CREATE TABLE shop.t (id BIGINT, s STRING);
   INSERT INTO shop.t VALUES (1, 'a'), (2, 'b'); INSERT INTO shop.t VALUES (3, 'c')" >/dev/null 2>"$T/sqlerr" ||
  bad "setup over rest: $(cat "$T/sqlerr")"
# the snapshots as the REST catalog has them (read through floe sql, the reference)
want=$("$FLOE_BIN" sql --warehouse "$T/client" --catalog-uri "$U" --conf token=sekrit --format csv \
  -c "SELECT snapshot_id FROM shop.t.snapshots ORDER BY committed_at DESC")
want=$(printf '%s\n' "$want" | sed 1d)
[ "$(printf '%s\n' "$want" | wc -l)" -eq 2 ] && ok || bad "two snapshots expected: $want"

# there is no SQLite catalog here: only the REST catalog has the table
out=$("$FLOE_BIN" log --format csv shop.t 2>&1)
has "no local catalog" "$out" "no catalog at"

out=$("$FLOE_BIN" log --catalog-uri "$U" --conf token=sekrit --format csv shop.t 2>&1)
eq "log over rest" "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1)" "$want"
out=$("$FLOE_BIN" log --conf "uri=$U" --conf token=sekrit --format csv shop.t 2>&1)
eq "log with --conf uri=" "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1)" "$want"
out=$("$FLOE_BIN" log "--catalog-uri=$U" --conf=token=sekrit --format csv shop.t 2>&1)
eq "log with --opt=value" "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1)" "$want"

out=$("$FLOE_BIN" suspects --catalog-uri "$U" --conf token=sekrit shop.t 2>&1)
eq "suspects over rest" "$out" "no suspect snapshots among 2 checked"

out=$("$FLOE_BIN" inventory --quiet --catalog-uri "$U" --conf token=sekrit --format csv shop.t 2>&1)
eq "inventory over rest: data files" "$(printf '%s\n' "$out" | grep -c '^data_file,')" 2
has "inventory over rest: files of the served warehouse" "$out" "$T/wh/shop"

out=$("$FLOE_BIN" retention --catalog-uri "$U" --conf token=sekrit --format json shop.t 2>&1)
has "retention over rest" "$out" "\"table\":\"shop.t\""
has "retention over rest: both snapshots" "$out" "$(printf '%s\n' "$want" | tail -1)"

# the REST catalog's own refusal (no token): the command fails with it
out=$("$FLOE_BIN" log --catalog-uri "$U" shop.t 2>&1)
[ $? -eq 1 ] && ok || bad "no token accepted: $out"

# keys are checked as floe sql checks them
out=$("$FLOE_BIN" log --conf hadoop.iceberg.hive.lock-timeout-ms=5 shop.t 2>&1)
eq "hive key without a metastore" "$out" "IllegalArgumentException: catalog 'local': hadoop.iceberg.hive.lock-timeout-ms is a property of a Hive Metastore catalog (type=hive, uri=thrift://...)"
out=$("$FLOE_BIN" suspects --conf type=hive shop.t 2>&1)
has "type=hive without uri" "$out" "type=hive needs uri=thrift://host:port"
out=$("$FLOE_BIN" retention --catalog-uri "$U" --conf token=sekrit --conf spark.sql.foo=1 shop.t 2>&1)
has "unknown spark key" "$out" "--conf spark.sql.foo: a Spark property floe does not implement"
out=$("$FLOE_BIN" inventory --conf novalue shop.t 2>&1)
st=$?
[ $st -eq 2 ] && ok || bad "--conf without = is a usage error ($st)"
has "--conf without =" "$out" "--conf needs KEY=VALUE, got 'novalue'"

# thrift:// is a Hive Metastore: an unreachable one fails at open
dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
out=$("$FLOE_BIN" log --catalog-uri "thrift://127.0.0.1:$dead" shop.t 2>&1)
has "unreachable metastore" "$out" "Could not connect to Hive Metastore 127.0.0.1:$dead"
out=$("$FLOE_BIN" inventory --catalog-uri "thrift://127.0.0.1:$dead" --conf hadoop.hive.metastore.client.socket.timeout=x shop.t 2>&1)
has "hive key value checked" "$out" "hadoop.hive.metastore.client.socket.timeout=x: expected a time"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
