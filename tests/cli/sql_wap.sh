#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` session keys spark.wap.branch / spark.wap.id as Spark 3.5 with
# Iceberg 1.11 (SparkWriteConf.branch(), SparkReadConf.branch()): they
# apply only to tables with write.wap.enabled=true; a WAP branch with an
# explicit t.branch_x target, or with spark.wap.id, is a ValidationException;
# a WAP branch that does not exist is read as main and created from main's
# head by the first write.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }

C -c "CREATE NAMESPACE shop; CREATE TABLE shop.t (id BIGINT);
INSERT INTO shop.t VALUES (1), (2), (3); ALTER TABLE shop.t CREATE BRANCH audit;
ALTER TABLE shop.t CREATE BRANCH x" >/dev/null
n() { C -c "SELECT count(*) AS n FROM shop.t$1" | sed -n 2p; }

# ---- without write.wap.enabled the session keys do nothing (Spark)
out=$(C -c "SET spark.wap.branch = audit; INSERT INTO shop.t VALUES (4); SELECT count(*) AS n FROM shop.t" 2>&1)
eq "wap.branch ignored without write.wap.enabled: read" "$out" "n
4"
eq "... and the write went to main" "$(n ""),$(n .branch_audit)" "4,3"
out=$(C -c "SET spark.wap.branch = audit; INSERT INTO shop.t.branch_x VALUES (5)" 2>&1)
eq "explicit branch with wap.branch, WAP disabled" "$out" ""
eq "... went to x" "$(n .branch_x)" "4"

C -c "ALTER TABLE shop.t SET TBLPROPERTIES ('write.wap.enabled' = 'true')" >/dev/null
# ---- enabled: writes and unqualified reads use the WAP branch
out=$(C -c "SET spark.wap.branch = audit; INSERT INTO shop.t VALUES (6); SELECT count(*) AS n FROM shop.t; DELETE FROM shop.t WHERE id = 1; SELECT count(*) AS n FROM shop.t" 2>&1)
eq "wap.branch read and written" "$out" "n
4
n
3"
eq "main untouched" "$(n ""),$(n .branch_audit)" "4,3"

# ---- the two refusals, with Spark's messages
out=$(C -c "SET spark.wap.branch = audit; INSERT INTO shop.t.branch_x VALUES (7)" 2>&1); rc=$?
eq "branch and WAP branch" "$out,$rc" "ValidationException: Cannot write to both branch and WAP branch, but got branch [x] and WAP branch [audit],1"
out=$(C -c "SET spark.wap.branch = audit; SET spark.wap.id = w1; INSERT INTO shop.t VALUES (7)" 2>&1); rc=$?
eq "WAP ID and branch" "$out,$rc" "ValidationException: Cannot set both WAP ID and branch, but got ID [w1] and branch [audit],1"
out=$(C -c "SET spark.wap.branch = audit; SET spark.wap.id = w1; DELETE FROM shop.t WHERE id = 2" 2>&1); rc=$?
eq "WAP ID and branch (DELETE)" "$out,$rc" "ValidationException: Cannot set both WAP ID and branch, but got ID [w1] and branch [audit],1"
eq "nothing written" "$(n ""),$(n .branch_audit),$(n .branch_x)" "4,3,4"

# ---- a WAP branch that does not exist yet: reads see main, the first
# write creates it from main's head
out=$(C -c "SET spark.wap.branch = fresh; SELECT count(*) AS n FROM shop.t;
INSERT INTO shop.t VALUES (8); SELECT count(*) AS n FROM shop.t;
SELECT count(*) AS n FROM shop.t VERSION AS OF 'fresh'" 2>&1)
eq "missing WAP branch" "$out" "n
4
n
5
n
5"
out=$(C -c "SELECT r.name, s.parent_id = m.snapshot_id AS forked_from_main FROM shop.t.refs r
JOIN shop.t.snapshots s ON s.snapshot_id = r.snapshot_id
JOIN shop.t.refs m ON m.name = 'main' WHERE r.name = 'fresh'")
eq "created from main's head" "$out" "name,forked_from_main
fresh,true"
eq "main untouched by the new branch" "$(n "")" "4"

# ---- spark.wap.id alone stages the write (write.wap.enabled=true)
out=$(C -c "SET spark.wap.id = w2; INSERT INTO shop.t VALUES (9); SELECT count(*) AS n FROM shop.t;
SELECT count(*) AS staged FROM shop.t.snapshots WHERE summary['wap.id'] = 'w2'" 2>&1)
eq "wap.id stages" "$out" "n
4
staged
1"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
