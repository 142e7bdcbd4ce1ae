#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Format v3 writes (spec "Row Lineage", Appendix E): CREATE TABLE with
# 'format-version'='3', the upgrade of a v2 table by SET TBLPROPERTIES (Java's
# TableMetadata.replaceProperties: reserved key, downgrade refused), next-row-id,
# snapshot first-row-id / added-rows, v3 manifest lists (first_row_id handed
# to data manifests in list order, each reserving added + existing rows) and
# the _row_id / _last_updated_sequence_number values readers derive from them.
set -u
: "${FLOE_BIN:?}"
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }
# the table's newest metadata.json
meta() { ls -t "$T"/wh/n.db/"$1"/metadata/*.metadata.json | head -1; }

# ---- a new v3 table: row ids 0.. in commit order
C -c "CREATE NAMESPACE n;
CREATE TABLE n.t (id BIGINT, s STRING) TBLPROPERTIES ('format-version'='3');
INSERT INTO n.t VALUES (1, 'a'), (2, 'b');
INSERT INTO n.t VALUES (3, 'c')" >/dev/null
eq "v3 lineage" "$(C -c "SELECT _row_id, _last_updated_sequence_number AS seq, id FROM n.t ORDER BY id")" \
"_row_id,seq,id
0,1,1
1,1,2
2,2,3"
out=$("$PY" - "$(meta t)" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
print(m["format-version"], m["next-row-id"], "format-version" in m["properties"])
for s in sorted(m["snapshots"], key=lambda s: s["sequence-number"]):
    print(s["sequence-number"], s["first-row-id"], s["added-rows"])
EOF
)
eq "v3 metadata" "$out" "3 3 False
1 0 2
2 2 1"
list=$(ls -t "$T"/wh/n.db/t/metadata/snap-*.avro | head -1)
out=$("$FLOE_BIN" inspect --json "$list" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print(d["metadata"]["format-version"], d["metadata"]["first-row-id"])
for e in d["entries"]:
    print(e["first_row_id"], e["added_rows_count"])')
eq "v3 manifest list" "$out" "3 2
2 1
0 2"
man=$(ls -t "$T"/wh/n.db/t/metadata/*-m0.avro | head -1)
has "v3 manifest" "$("$FLOE_BIN" inspect --json "$man")" '"format-version": "3"'

# ---- upgrade of a v2 table: the first v3 commit numbers the old rows too
C -c "CREATE TABLE n.u (id BIGINT) TBLPROPERTIES ('format-version'='2');
INSERT INTO n.u VALUES (1), (2);
ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='3', 'k'='v');
INSERT INTO n.u VALUES (3)" >/dev/null
eq "upgraded" "$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["format-version"], m["next-row-id"], m["properties"].get("k"), "format-version" in m["properties"])' "$(meta u)")" \
   "3 3 v False"
# new manifest first in the list (0), the v2 one after it (1, 2)
eq "upgraded lineage" "$(C -c "SELECT _row_id, id FROM n.u ORDER BY id")" "_row_id,id
1,1
2,2
0,3"
out=$(C -c "ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='2')" 2>&1)
eq "downgrade" "$out" "IllegalArgumentException: Cannot downgrade v3 table to v2"
out=$(C -c "ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='4')" 2>&1)
eq "unsupported" "$out" "IllegalArgumentException: Cannot upgrade table to unsupported format version: v4 (supported: v3)"
eq "same version: nothing to commit" "$(C -c "ALTER TABLE n.u SET TBLPROPERTIES ('format-version'='3'); SELECT count(*) AS n FROM n.u.snapshots")" "n
2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
