#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` incremental reads: incremental_append(...) (strict and
# append-only modes, ranges by snapshot id), table_changes(...), and
# CALL system.create_changelog_view (compute_updates, net_changes, default
# view name, replacement, DROP VIEW).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }

C -c "CREATE NAMESPACE shop;
CREATE TABLE shop.orders (order_id BIGINT, status STRING);
INSERT INTO shop.orders VALUES (1001, 'NEW'), (1002, 'NEW');
INSERT INTO shop.orders VALUES (1004, 'NEW');
DELETE FROM shop.orders WHERE order_id = 1004;
UPDATE shop.orders SET status = 'SHIPPED' WHERE order_id = 1001" >/dev/null
V="SET VAR s1 = (SELECT snapshot_id FROM shop.orders.snapshots LIMIT 1);
SET VAR s2 = (SELECT snapshot_id FROM shop.orders.snapshots LIMIT 1 OFFSET 1);"

eq "append range" "$(C -c "$V SELECT * FROM incremental_append('shop.orders', \${s1}, \${s2})")" "order_id,status
1004,NEW"
eq "append from the start" "$(C -c "$V SELECT order_id FROM incremental_append('local.shop.orders', NULL, \${s2}) ORDER BY 1")" "order_id
1001
1002
1004"
out=$(C -c "SELECT * FROM incremental_append('shop.orders', NULL, NULL)" 2>&1)
has "strict refuses a delete" "$?:$out" "1:IllegalArgumentException: Snapshot"
has "strict names table_changes" "$out" "table_changes"
eq "append-only skips" "$(C -c "SELECT count(*) AS n FROM incremental_append('shop.orders', NULL, NULL, 'append-only')")" "n
3"
out=$(C -c "SELECT * FROM incremental_append('shop.orders', NULL, NULL, 'nope')" 2>&1)
has "bad mode" "$out" "'strict' or 'append-only'"
eq "table_changes" "$(C -c "$V SELECT order_id, status, _change_type, _change_ordinal FROM table_changes('shop.orders', \${s2}, NULL) ORDER BY _change_ordinal, _change_type, order_id")" "order_id,status,_change_type,_change_ordinal
1004,NEW,DELETE,0
1001,NEW,DELETE,1
1001,SHIPPED,INSERT,1"
out=$(C -c "SELECT * FROM table_changes('shop.nope', NULL, NULL)" 2>&1)
has "unknown table" "$?:$out" "1:NoSuchTableException"

out=$(C -c "$V CALL system.create_changelog_view(table => 'shop.orders', options => map('start-snapshot-id', '\${s2}'),
  changelog_view => 'cv', compute_updates => true, identifier_columns => array('order_id'));
SELECT order_id, status, _change_type FROM cv ORDER BY _change_ordinal, order_id, _change_type")
eq "changelog view with updates" "$out" "changelog_view
cv
order_id,status,_change_type
1004,NEW,DELETE
1001,SHIPPED,UPDATE_AFTER
1001,NEW,UPDATE_BEFORE"
out=$(C -c "CALL system.create_changelog_view(table => 'shop.orders', net_changes => true);
CALL system.create_changelog_view(table => 'shop.orders', net_changes => true);
SELECT order_id, status, _change_type FROM orders_changes ORDER BY order_id; DROP VIEW orders_changes")
eq "net changes, default name, replaced" "$out" "changelog_view
orders_changes
changelog_view
orders_changes
order_id,status,_change_type
1001,SHIPPED,INSERT
1002,NEW,INSERT"
out=$(C -c "CALL system.create_changelog_view(table => 'shop.orders', net_changes => true, compute_updates => true)" 2>&1)
has "net + updates refused" "$?:$out" "1:IllegalArgumentException"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
