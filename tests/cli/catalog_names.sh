#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One default catalog name everywhere (`local`): `floe serve --warehouse W`
# serves the tables `floe sql --warehouse W` made, and a table or namespace
# missing under the session's catalog name but present under another in
# the same catalog database is reported with that name.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
wh=$T/wh

"$FLOE_BIN" sql --warehouse "$wh" -c "CREATE NAMESPACE shop; CREATE TABLE shop.orders (id BIGINT)" >/dev/null
if command -v sqlite3 >/dev/null; then
    eq "catalog_name recorded" "$(sqlite3 "$wh/catalog.db" "SELECT DISTINCT catalog_name FROM iceberg_tables")" "local"
fi

# ---- floe serve on the same warehouse, no --catalog-name: the same catalog
if command -v curl >/dev/null; then
    "$FLOE_BIN" serve --warehouse "$wh" --port 0 --quiet >"$T/serve.out" 2>&1 &
    pid=$!
    url=
    for _ in $(seq 100); do url=$(grep -so 'http://[0-9.]*:[0-9]*' "$T/serve.out") && break; sleep 0.05; done
    has "banner names the catalog" "$(cat "$T/serve.out")" "(warehouse catalog 'local')"
    eq "served namespaces" "$(curl -s "$url/v1/namespaces")" '{"namespaces":[["shop"]]}'
    has "served tables" "$(curl -s "$url/v1/namespaces/shop/tables")" '"name":"orders"'
    kill $pid; wait $pid 2>/dev/null; pid=
fi

# ---- a name that exists under another catalog_name: the error says which
"$FLOE_BIN" sql --warehouse "$T/wh2" --catalog-name ice -c "CREATE NAMESPACE shop; CREATE TABLE shop.t (id BIGINT)" >/dev/null
db=$(cd "$T/wh2" && pwd -P)/catalog.db
out=$("$FLOE_BIN" sql --warehouse "$T/wh2" -c "SELECT * FROM shop.t" 2>&1)
eq "sql: table in another catalog" "$out" "NoSuchTableException: Table does not exist: shop.t (the catalog database at $db has it in catalog 'ice': use --catalog-name ice)"
out=$("$FLOE_BIN" sql --warehouse "$T/wh2" -c "SHOW TABLES IN shop" 2>&1)
eq "sql: namespace in another catalog" "$out" "NoSuchNamespaceException: Namespace does not exist: shop (the catalog database at $db has it in catalog 'ice': use --catalog-name ice)"
out=$("$FLOE_BIN" log --warehouse "$T/wh2" shop.t 2>&1)
has "log: table in another catalog" "$out" "has it in catalog 'ice': use --catalog-name ice)"
out=$("$FLOE_BIN" sql --warehouse "$T/wh2" --catalog-name ice --format csv -c "SELECT count(*) AS n FROM shop.t" 2>&1)
eq "with --catalog-name ice" "$out" "n
0"
out=$("$FLOE_BIN" sql --warehouse "$T/wh2" -c "SELECT * FROM shop.nope" 2>&1)
eq "really missing: no hint" "$out" "NoSuchTableException: Table does not exist: shop.nope"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
