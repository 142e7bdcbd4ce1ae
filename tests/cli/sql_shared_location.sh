#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two catalogs (catalog_name ice and local) sharing one warehouse and one
# catalog.db: the second CREATE TABLE shop.orders would land in the first's
# directory and is refused (Java's "Table already exists at location");
# with the documented override both tables live there, and
# remove_orphan_files on either refuses instead of listing the other's live
# files as orphans. Nothing of either table is deleted.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
ICE() { "$FLOE_BIN" sql --warehouse "$T/wh" --catalog-name ice --format csv "$@"; }
LOC() { "$FLOE_BIN" sql --warehouse "$T/wh" --catalog-name local --format csv "$@"; }
L="$T/wh/shop.db/orders"

ICE -c "CREATE NAMESPACE shop; CREATE TABLE shop.orders (id BIGINT); INSERT INTO shop.orders VALUES (1), (2)" >/dev/null
before=$(cd "$L" && find . -type f | sort)
out=$(LOC -c "CREATE NAMESPACE shop; CREATE TABLE shop.orders (id BIGINT)" 2>&1); rc=$?
eq "second create refused" "$rc:$out" "1:AlreadyExistsException: Table already exists at location: $L"
out=$(LOC -c "SHOW TABLES IN shop")
eq "nothing registered" "$out" "namespace,tableName,isTemporary"
eq "nothing written" "$(cd "$L" && find . -type f | sort)" "$before"
out=$(LOC -c "CREATE TABLE shop.x (id BIGINT) LOCATION '$L'" 2>&1)
eq "explicit location refused" "$out" "AlreadyExistsException: Table already exists at location: $L"
out=$(ICE -c "CREATE TABLE IF NOT EXISTS shop.orders (id BIGINT)" 2>&1)
eq "if not exists on the same catalog" "$out" ""

# the override: both tables in one directory
LOC -c "CREATE TABLE shop.orders (id BIGINT) TBLPROPERTIES ('floe.create.allow-existing-location' = 'true'); INSERT INTO shop.orders VALUES (3)" >/dev/null
out=$(LOC -c "SELECT * FROM shop.orders")
eq "override creates" "$out" "id
3"
out=$(LOC -c "DESCRIBE TABLE EXTENDED shop.orders" | grep "^Table Properties")
if grep -q "allow-existing" <<<"$out"; then bad "override stored: $out"; else ok; fi
all=$(cd "$L" && find . -type f | sort)
for cat in ICE LOC; do
    for dry in true false; do
        out=$($cat -c "SET floe.remove-orphan-files.validate-interval = false" -c "CALL system.remove_orphan_files(table => 'shop.orders', older_than => TIMESTAMP '2099-01-01 00:00:00', dry_run => $dry)" 2>&1); rc=$?
        eq "$cat dry_run=$dry refused" "$rc" 1
        has "$cat dry_run=$dry names the other table" "$out" "ValidationException: Cannot remove orphan files: $L/metadata/"
        has "$cat dry_run=$dry says why" "$out" "is the metadata of another table"
        if grep -q "orphan_file_location" <<<"$out"; then bad "$cat dry_run=$dry listed orphans: $out"; else ok; fi
    done
done
eq "nothing deleted" "$(cd "$L" && find . -type f | sort)" "$all"
out=$(ICE -c "SELECT * FROM shop.orders ORDER BY id")
eq "ice table intact" "$out" "id
1
2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
