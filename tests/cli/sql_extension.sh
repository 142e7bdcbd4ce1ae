#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# floe_sqlite.so, the SQLite loadable extension: Debian's sqlite3 shell
# `.load`s it and reads a table `floe sql` created, with exact results
# (rows, count(*), sum, pushed filters, time travel, a later commit seen by
# the same virtual table, errors). Skipped (77) without the sqlite3 binary
# or the extension (the fuzz preset does not build it).
set -u
: "${FLOE_BIN:?}"
EXT="${FLOE_BUILD_DIR:-$(dirname "$FLOE_BIN")}/floe_sqlite.so"
command -v sqlite3 >/dev/null || { echo "skipped: no sqlite3 binary"; exit 77; }
[ -f "$EXT" ] || { echo "skipped: $EXT not built"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }
S() { ext_run "$EXT" sqlite3 "$@"; }
# sqlite3 with the extension and one virtual table per argument list
Q() { local using=$1; shift; S -batch -csv "$T/x.db" ".load ${EXT%.so}" \
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING floe($using)" "$@" 2>&1; }

out=$(F -c "CREATE NAMESPACE shop; CREATE TABLE shop.orders (id BIGINT, amount DECIMAL(10,2), d DATE, ok BOOLEAN, note STRING)" 2>&1)
if grep -q "not supported yet" <<<"$out"; then echo "skipped: $out"; exit 77; fi
F -c "INSERT INTO shop.orders VALUES (1, 10.50, DATE'2026-01-01', true, 'first'), (2, -3.25, DATE'2026-01-02', false, NULL)"
F -c "INSERT INTO shop.orders VALUES (3, 100.00, NULL, NULL, 'it\\'s')"  # Spark's escape
W="warehouse='$T/wh', table='shop.orders'"

eq "rows" "$(Q "$W" "SELECT * FROM v ORDER BY id")" "1,10.5,2026-01-01,1,first
2,-3.25,2026-01-02,0,
3,100.0,,,\"it's\""
eq "count" "$(Q "$W" "SELECT count(*) FROM v")" "3"
eq "count = floe sql" "$(Q "$W" "SELECT count(*) FROM v")" "$(F -c "SELECT count(*) FROM shop.orders" | tail -1)"
eq "sum" "$(Q "$W" "SELECT sum(amount) FROM v")" "107.25"
eq "pushed date" "$(Q "$W" "SELECT id FROM v WHERE d >= '2026-01-02'")" "2"
eq "pushed decimal" "$(Q "$W" "SELECT id FROM v WHERE amount > 10.4 ORDER BY id")" "1
3"
eq "pushed boolean" "$(Q "$W" "SELECT id FROM v WHERE ok = 0")" "2"
eq "string" "$(Q "$W" "SELECT id FROM v WHERE note = 'it''s'")" "3"
eq "join with a local table" "$(Q "$W" "CREATE TEMP TABLE k(id); INSERT INTO k VALUES (2),(3); SELECT sum(v.amount) FROM v JOIN k USING (id)")" "96.75"

# time travel: the first snapshot
first=$(F -c "SELECT snapshot_id FROM shop.orders.snapshots ORDER BY committed_at LIMIT 1" | tail -1)
eq "snapshot_id" "$(Q "$W, snapshot_id=$first" "SELECT count(*), sum(amount) FROM v")" "2,7.25"

# a persistent virtual table sees later commits
S "$T/p.db" ".load ${EXT%.so}" "CREATE VIRTUAL TABLE orders USING floe($W)"
eq "persistent" "$(S -csv "$T/p.db" ".load ${EXT%.so}" "SELECT count(*) FROM orders")" "3"
F -c "INSERT INTO shop.orders VALUES (4, 1.00, DATE'2026-02-01', true, 'late')"
eq "later commit" "$(S -csv "$T/p.db" ".load ${EXT%.so}" "SELECT count(*), max(id) FROM orders")" "4,4"
F -c "ALTER TABLE shop.orders SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read'); DELETE FROM shop.orders WHERE id = 1"
eq "after delete" "$(S -csv "$T/p.db" ".load ${EXT%.so}" "SELECT count(*), sum(amount) FROM orders")" "3,97.75"

# errors
has "unknown table" "$(Q "warehouse='$T/wh', table='shop.nope'" "SELECT 1")" "Table does not exist: shop.nope"
has "bad argument" "$(Q "warehouse='$T/wh', tabel='shop.orders'" "SELECT 1")" "unknown argument"
has "usage" "$(Q "table='shop.orders'" "SELECT 1")" "usage: USING floe("
has "read only" "$(Q "$W" "DELETE FROM v")" "may not be modified"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
