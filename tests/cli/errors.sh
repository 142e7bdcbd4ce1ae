#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every failure the floe command reports names its Java class as Spark
# prints an exception, `<Class>: <message>` on stderr, through one function
# (cli_error), whatever the command (issue #21 item 13); times in messages
# are ISO as in floe sql.
set -u
: "${FLOE_BIN:?}" "${FLOE_SOURCE_DIR:?}"
source "$FLOE_SOURCE_DIR/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
W="$T/wh"
floe() { "$FLOE_BIN" "$@"; }
# err DESCRIPTION EXPECTED-STDERR-LINE COMMAND...: exit 1 and exactly that line
err() {
    local what=$1 want=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    eq "$what: exit 1" "$?" 1
    eq "$what: stderr" "$(cat "$T/err")" "$want"
}
floe sql --warehouse "$W" -c "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint) USING iceberg;
    INSERT INTO db.t VALUES (1); INSERT INTO db.t VALUES (2)" || bad "setup"
sid=$(floe sql --warehouse "$W" --format csv -c "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1" | tail -1)

# RemoveSnapshots' precondition (IllegalArgumentException in Java)
err "expire a referenced snapshot" \
    "IllegalArgumentException: Cannot expire $sid. Still referenced by refs: [main]" \
    floe sql --warehouse "$W" -c "CALL local.system.expire_snapshots(table => 'db.t', snapshot_ids => array($sid))"
# SparkTable: a branch selector naming no branch is a ValidationException
err "read a missing branch" "ValidationException: Cannot use branch (does not exist): nope" \
    floe sql --warehouse "$W" -c "SELECT * FROM db.t.branch_nope"
err "write a missing branch" "ValidationException: Cannot use branch (does not exist): nope" \
    floe sql --warehouse "$W" -c "INSERT INTO db.t.branch_nope VALUES (3)"
# the catalog raises the kind; the shell prints the class it names
err "drop a namespace with a table" "NamespaceNotEmptyException: Namespace db is not empty. Contains 1 table(s)." \
    floe sql --warehouse "$W" -c "DROP NAMESPACE db"
err "missing table (sql)" "NoSuchTableException: Table does not exist: db.nope" \
    floe sql --warehouse "$W" -c "SELECT * FROM db.nope"
# the same class and format from the other commands
for c in log suspects inventory retention; do
    err "missing table ($c)" "NoSuchTableException: Table does not exist: db.nope" \
        floe "$c" --warehouse "$W" db.nope
done
# time travel before the first commit: ISO time, from sql and inventory alike
want="IllegalArgumentException: Cannot find a snapshot older than 2020-01-01T00:00:00+00:00"
err "timestamp before the first commit (sql)" "$want" \
    floe sql --warehouse "$W" -c "SELECT * FROM db.t TIMESTAMP AS OF '2020-01-01 00:00:00'"
err "timestamp before the first commit (inventory)" "$want" \
    floe inventory --warehouse "$W" --timestamp 2020-01-01 db.t
# a year no int64 of milliseconds holds: a usage error, not an overflow
floe inventory --warehouse "$W" --timestamp 2000000000-01-01 db.t >/dev/null 2>"$T/err"
eq "timestamp out of range: exit 2" "$?" 2
has "timestamp out of range: says so" "$(cat "$T/err")" "floe inventory: invalid timestamp '2000000000-01-01'"
err "inspect a missing file" \
    "NotFoundException: Failed to open input file: $T/none.avro: No such file or directory" \
    floe inspect "$T/none.avro"
# a manifest list that is gone: Iceberg's NotFoundException, from every command
for f in "$W"/db.db/t/metadata/snap-*.avro; do rm "$f"; done
floe sql --warehouse "$W" -c "SELECT * FROM db.t" >/dev/null 2>"$T/err"
has "missing manifest list (sql)" "$(cat "$T/err")" "NotFoundException: reading manifest list of snapshot"
floe inventory --warehouse "$W" db.t >/dev/null 2>"$T/err"
has "missing manifest list (inventory)" "$(cat "$T/err")" "NotFoundException: opening $W/db.db/t/metadata/snap-"
# no command prints an unclassed "Error:" or "floe: <message>"
grep -rnE '"(Error|floe): %s\\n"' "$FLOE_SOURCE_DIR/src/cli" >"$T/grep" && bad "unclassed error printing left: $(cat "$T/grep")" || ok
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
