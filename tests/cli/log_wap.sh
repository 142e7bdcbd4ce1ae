#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# floe log on a write-audit-publish story written by floe sql (issue #21
# item 15): staged snapshots show as staged, the published ones as
# published, each naming its wap id, never as abandoned.
set -u
: "${FLOE_BIN:?}" "${FLOE_SOURCE_DIR:?}"
source "$FLOE_SOURCE_DIR/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
W="$T/wh"
sql() { "$FLOE_BIN" sql --warehouse "$W" --format csv "$@"; }
states() { "$FLOE_BIN" log --warehouse "$W" --all --format csv db.t | cut -d, -f9-11 | tail -n +2; }
sql -c "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint) USING iceberg
        TBLPROPERTIES ('write.wap.enabled'='true'); INSERT INTO db.t VALUES (1);
        SET spark.wap.id = w1; INSERT INTO db.t VALUES (2);
        SET spark.wap.id = w2; INSERT INTO db.t VALUES (3)" >/dev/null || bad "setup"
eq "two staged writes" "$(states)" ",staged,w2
,staged,w1
main,current,"
id() { sql -c "SELECT snapshot_id FROM db.t.snapshots WHERE summary['wap.id'] = '$1'" | tail -1; }
w1=$(id w1) w2=$(id w2)
# publishing w1 fast-forwards main onto it
sql -c "CALL system.cherrypick_snapshot('db.t', $w1)" >/dev/null || bad "cherrypick w1"
eq "w1 published by fast-forward" "$(states)" ",staged,w2
main,current,w1
,main,"
# main moved: publishing w2 is a new snapshot recording published-wap-id
sql -c "CALL system.cherrypick_snapshot('db.t', $w2)" >/dev/null || bad "cherrypick w2"
eq "w2 published by cherry-pick" "$(states)" "main,current,w2
,published,w2
,main,w1
,main,"
graph=$("$FLOE_BIN" log --warehouse "$W" --all --graph --ascii db.t)
has "graph names the published staged snapshot" "$graph" "$w2  "
if grep -q abandoned <<<"$graph"; then bad "graph calls a wap snapshot abandoned: $graph"; else ok; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
