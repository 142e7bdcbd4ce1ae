#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` with Java's table cache (cache-enabled=true, Iceberg's
# CachingCatalog): a session sees its own writes at once (the cached Table
# is the object that committed), and a row-level statement on a table
# another process changed starts from the cached state and commits against
# the catalog's current one (refresh, validate from that snapshot, retry),
# as Spark's SparkTable does with a cached table.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
wh=$T/wh
C() { "$FLOE_BIN" sql --warehouse "$wh" --format csv "$@"; }

# ---- one session: INSERT, DELETE, UPDATE and a rollback are read back at once
out=$(C --conf cache-enabled=true -c "CREATE NAMESPACE shop;
CREATE TABLE shop.o (id BIGINT, amount DECIMAL(10,2));
INSERT INTO shop.o VALUES (1, 1.0), (2, 2.0), (3, 3.0);
SET VAR good = (SELECT snapshot_id FROM shop.o.refs WHERE name = 'main');
SELECT count(*) AS n FROM shop.o;
INSERT INTO shop.o VALUES (4, 4.0), (5, -1.0);
SELECT count(*) AS n FROM shop.o;
DELETE FROM shop.o WHERE id = 5;
SELECT count(*) AS n FROM shop.o;
UPDATE shop.o SET amount = 0 WHERE id IN (SELECT 1);
SELECT sum(amount) AS s FROM shop.o;
CALL system.rollback_to_snapshot('shop.o', \${good});
SELECT count(*) AS n FROM shop.o;
SELECT snapshot_id = \${good} AS is_good FROM shop.o.refs WHERE name = 'main'" 2>&1 |
    grep -v '^previous_snapshot_id\|^[0-9]*,[0-9]*$' | tr '\n' ' ')
eq "own writes with cache-enabled=true" "$out" "n 3 n 5 n 4 s 9.00 n 3 is_good true "

# ---- a long-lived session with the cache; another process commits between
# its statements
C -c "DROP TABLE shop.o PURGE; CREATE TABLE shop.o (id BIGINT, amount DECIMAL(10,2));
INSERT INTO shop.o VALUES (1, 1.0), (2, 2.0), (3, 3.0)" >/dev/null
coproc DASH { "$FLOE_BIN" sql --warehouse "$wh" --conf cache-enabled=true --format csv 2>&1; }
ask() { # send one statement; print the next $2 lines of output, ';'-joined
    printf '%s\n' "$1" >&"${DASH[1]}"
    local i line got=""
    for ((i = 0; i < $2; i++)); do IFS= read -r -t 20 line <&"${DASH[0]}" || break; got+="$line;"; done
    echo "$got"
}
other() { C -c "$1" >/dev/null; }
ask "SET floe.continue-on-error = true;" 0 >/dev/null
eq "cached count" "$(ask "SELECT count(*) AS n FROM shop.o;" 2)" "n;3;"
other "INSERT INTO shop.o VALUES (4, 4.0), (5, 5.0)"
eq "the cache still serves the loaded state" "$(ask "SELECT count(*) AS n FROM shop.o;" 2)" "n;3;"
# UPDATE scans the cached snapshot and commits on the current one: the
# concurrent append does not match id = 1, so serializable validation passes
ask "UPDATE shop.o SET amount = 10 WHERE id = 1;" 0 >/dev/null
eq "UPDATE after another process's commit" "$(ask "SELECT count(*) AS n, sum(amount) AS s FROM shop.o;" 2)" "n,s;5,24.00;"
other "INSERT INTO shop.o VALUES (6, 6.0)"
ask "DELETE FROM shop.o WHERE id = 2;" 0 >/dev/null
eq "DELETE after another process's commit" "$(ask "SELECT count(*) AS n FROM shop.o;" 2)" "n;5;"
other "INSERT INTO shop.o VALUES (7, 7.0)"
# a subquery condition conflicts with any appended file (filter true), as in Spark
got=$(ask "DELETE FROM shop.o WHERE id IN (SELECT 3);" 1)
has "subquery DELETE validates against the concurrent append" "$got" \
    "Found conflicting files that can contain records matching true"
eq "nothing deleted" "$(ask "SELECT count(*) AS n FROM shop.o;" 2)" "n;5;"
ask "SET floe.continue-on-error = false;" 0 >/dev/null
# MERGE likewise; with snapshot isolation only a conflicting delete fails it
ask "ALTER TABLE shop.o SET TBLPROPERTIES ('write.merge.isolation-level' = 'snapshot');" 0 >/dev/null
other "INSERT INTO shop.o VALUES (8, 8.0)"
ask "MERGE INTO shop.o t USING (SELECT 3 AS id, 30.0 AS amount) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET amount = s.amount;" 0 >/dev/null
eq "MERGE after another process's commit" "$(ask "SELECT count(*) AS n, sum(amount) AS s FROM shop.o;" 2)" "n,s;7,70.00;"
exec {DASH[1]}>&-
wait
out=$(C -c "SELECT count(*) AS n, sum(amount) AS s FROM shop.o" | tr '\n' ' ')
eq "what the catalog holds" "$out" "n,s 7,70.00 "

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
