#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql --catalog-uri http://...` (and --conf uri=...) against a local
# `floe serve --warehouse` REST catalog on 127.0.0.1: DDL, INSERT, DELETE,
# UPDATE, REPLACE TABLE AS SELECT, metadata tables and a second session
# seeing the same tables; a bearer token is sent with --conf token=.
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

mkdir -p "$T/wh"
printf 'sekrit\n' >"$T/tok"
serve_start "$T" --warehouse "$T/wh" --token-file "$T/tok"
C() { "$FLOE_BIN" sql --warehouse "$T/client" --format csv --conf token=sekrit "$@"; }

out=$(C --catalog-uri "$U" -c "CREATE NAMESPACE shop; CREATE TABLE shop.t (id BIGINT, s STRING);
INSERT INTO shop.t VALUES (1, 'a'), (2, 'b'); INSERT INTO shop.t VALUES (3, 'c');
DELETE FROM shop.t WHERE id = 3; UPDATE shop.t SET s = 'z' WHERE id = 1;
SELECT * FROM shop.t ORDER BY id; SHOW TABLES IN shop" 2>&1)
eq "rest session" "$out" "id,s
1,z
2,b
namespace,tableName,isTemporary
shop,t,false"
eq "second session via --conf uri" "$(C --conf "uri=$U" -c "SELECT operation FROM shop.t.snapshots")" "operation
append
append
delete
overwrite"
out=$("$FLOE_BIN" sql --warehouse "$T/client" --catalog-uri "$U" -c "SHOW NAMESPACES" 2>&1)
[ $? -ne 0 ] && ok || bad "no token accepted: $out"
has "table files are in the served warehouse" "$(ls "$T/wh"/shop* 2>/dev/null; find "$T/wh" -name '*.parquet' | head -1)" ".parquet"

# REPLACE TABLE ... AS SELECT over REST: one CommitTableRequest (replace
# updates + snapshot), one new metadata file on the server
metas() { find "$T/wh" -path '*/t/metadata/*.metadata.json' | wc -l; }
m0=$(metas)
out=$(C --catalog-uri "$U" -c "REPLACE TABLE shop.t (id BIGINT, n INT) PARTITIONED BY (n) AS
SELECT id + 10 AS id, 7 AS n FROM shop.t; SELECT * FROM shop.t ORDER BY id;
SELECT operation, summary['total-records'] AS t, parent_id IS NULL AS root FROM shop.t.snapshots" 2>&1)
eq "rtas over rest" "$out" "id,n
11,7
12,7
operation,t,root
append,2,true
append,3,false
delete,2,false
overwrite,2,false
append,2,true"
eq "rtas over rest is one commit" "$(metas)" "$((m0 + 1))"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
