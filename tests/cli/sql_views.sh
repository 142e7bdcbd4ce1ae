#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Iceberg views in `floe sql` (src/sql/exec_view.c): CREATE [OR REPLACE] VIEW
# [IF NOT EXISTS] with column aliases and comments, COMMENT and TBLPROPERTIES;
# querying a view (filters, joins, a view of a view, one-part names resolved in
# the view's default namespace); SHOW VIEWS [IN] [LIKE] with temporary views;
# DROP VIEW [IF EXISTS]; a view and a table never share a name; a view over a
# dropped table; the metadata file written (view-spec fields); the same over
# REST (`floe serve` + `floe sql --catalog-uri`).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }

F -c "CREATE NAMESPACE db; CREATE NAMESPACE other" \
  -c "CREATE TABLE db.t (id BIGINT, name STRING, amount DECIMAL(10,2))" \
  -c "INSERT INTO db.t VALUES (1, 'a', 1.50), (2, 'b', 2.25), (3, 'c', NULL)"
eq "setup" "$?" 0

# ---- create and query
out=$(F -c "CREATE VIEW db.v (id COMMENT 'the id', nm) COMMENT 'big ids' TBLPROPERTIES ('owner' = 'ana') AS SELECT id, name FROM db.t WHERE id > 1" 2>&1)
eq "create view" "$?:$out" "0:"
eq "query view" "$(F -c "SELECT * FROM db.v ORDER BY id")" "id,nm
2,b
3,c"
eq "filter on a view column" "$(F -c "SELECT nm FROM db.v WHERE id = 3")" "nm
c"
eq "join a view with its table" "$(F -c "SELECT v.nm, t.amount FROM db.v v JOIN db.t t ON v.id = t.id ORDER BY v.id")" "nm,amount
b,2.25
c,"
eq "one-part name after USE" "$(F -c "USE db" -c "SELECT count(*) AS n FROM v")" "n
2"
# the view's own one-part names resolve in its default namespace (USE db at creation)
F -c "USE db" -c "CREATE VIEW other.names AS SELECT name FROM t WHERE id = 1"
eq "default namespace" "$(F -c "SELECT * FROM other.names")" "name
a"
F -c "CREATE VIEW db.vv AS SELECT count(*) AS n FROM db.v"
eq "view of a view" "$(F -c "SELECT n FROM db.vv")" "n
2"
eq "view in a subquery" "$(F -c "SELECT count(*) AS k FROM db.t WHERE id IN (SELECT id FROM db.v)")" "k
2"

# ---- DESCRIBE (Spark's DescribeV2ViewExec)
eq "describe" "$(F -c "DESCRIBE db.v")" 'col_name,data_type,comment
id,bigint,the id
nm,string,""'
ext=$(F -c "DESCRIBE TABLE EXTENDED db.v")
eq "describe extended" "$(grep -v '^View Properties' <<<"$ext" | tail -5)" '# Detailed View Information,"",""
Comment,big ids,""
View Catalog and Namespace,local.db,""
View Query Output Columns,"[id, name]",""
Created By,"",""'
has "describe extended properties" "$ext" "View Properties,\"['format-version' = '1', 'location' = '$T/wh/db.db/v', 'provider' = 'iceberg']\""
out=$(F -c "DESCRIBE db.nope" 2>&1); eq "describe neither" "$?:$out" "1:NoSuchTableException: Table does not exist: db.nope"

# ---- the metadata file: view-spec fields, gzip as Java writes views
meta=$(ls "$T"/wh/db.db/v/metadata/00000-*.gz.metadata.json 2>/dev/null | head -1)
[ -n "$meta" ] && ok || bad "no 00000-*.gz.metadata.json under db.db/v/metadata"
js=$(gzip -dc "$meta" 2>/dev/null)
has "format-version" "$js" '"format-version":1'
has "sql representation" "$js" '"representations":[{"type":"sql","sql":"SELECT id, name FROM db.t WHERE id > 1","dialect":"spark"}]'
has "default namespace" "$js" '"default-namespace":["default"]'
has "column comment" "$js" '{"id":1,"name":"id","required":false,"type":"long","doc":"the id"}'
has "comment property" "$js" '"comment":"big ids"'
has "owner property" "$js" '"owner":"ana"'
has "query column names" "$js" '"spark.query-column-names":"id,name"'

# ---- SHOW VIEWS
F -c "CREATE TEMPORARY VIEW tv AS SELECT 1 AS x" -c "SHOW VIEWS IN db" >"$T/show"
eq "show views" "$(cat "$T/show")" "namespace,viewName,isTemporary
db,v,false
db,vv,false
\"\",tv,true"
eq "show views like" "$(F -c "SHOW VIEWS IN db LIKE 'vv|nope*'")" "namespace,viewName,isTemporary
db,vv,false"
eq "show tables lists no view" "$(F -c "SHOW TABLES IN db")" "namespace,tableName,isTemporary
db,t,false"
out=$(F -c "SHOW VIEWS IN nope" 2>&1); eq "show views of a missing namespace" "$?:$out" "1:NoSuchNamespaceException: Namespace does not exist: nope"
# a temporary view over an Iceberg view lives through the session
eq "temp view over a view" "$(F -c "CREATE TEMPORARY VIEW tv2 AS SELECT nm FROM db.v" -c "SELECT * FROM tv2 ORDER BY nm" -c "SELECT count(*) AS c FROM tv2")" "nm
b
c
c
2"

# ---- errors
out=$(F -c "CREATE VIEW db.v AS SELECT 1 AS x" 2>&1); eq "create twice" "$?:$out" "1:AlreadyExistsException: View already exists: db.v"
F -c "CREATE VIEW IF NOT EXISTS db.v AS SELECT 1 AS x"; eq "if not exists" "$?" 0
eq "if not exists kept the view" "$(F -c "SELECT count(*) AS n FROM db.v")" "n
2"
out=$(F -c "CREATE VIEW db.t AS SELECT 1 AS x" 2>&1); eq "view named like a table" "$?:$out" "1:AlreadyExistsException: Table with same name already exists: db.t"
out=$(F -c "CREATE TABLE db.v (x INT)" 2>&1); eq "table named like a view" "$?:$out" "1:AlreadyExistsException: View with same name already exists: db.v"
out=$(F -c "CREATE VIEW db.w (a, b) AS SELECT 1 AS x" 2>&1); eq "alias count" "$?" 1
has "alias count message" "$out" "CREATE_VIEW_COLUMN_ARITY_MISMATCH"
out=$(F -c "CREATE OR REPLACE VIEW IF NOT EXISTS db.w AS SELECT 1" 2>&1); eq "replace + if not exists" "$?" 1
has "replace + if not exists message" "$out" "CREATE VIEW with both IF NOT EXISTS and REPLACE is not allowed."
out=$(F -c "CREATE VIEW nope.w AS SELECT 1 AS x" 2>&1); eq "missing namespace" "$?:$out" "1:NoSuchNamespaceException: Namespace does not exist: nope"
out=$(F -c "CREATE VIEW db.w AS SELECT * FROM db.missing" 2>&1); eq "view over a missing table" "$?:$out" "1:NoSuchTableException: Table does not exist: db.missing"
eq "nothing left by the failures" "$(F -c "SHOW VIEWS IN db")" "namespace,viewName,isTemporary
db,v,false
db,vv,false"

# ---- replace: a new version, same view
F -c "CREATE OR REPLACE VIEW db.v AS SELECT id * 10 AS id FROM db.t"
eq "replaced" "$(F -c "SELECT * FROM db.v ORDER BY id")" "id
10
20
30"
eq "dependent view follows" "$(F -c "SELECT n FROM db.vv")" "n
3"
ls "$T"/wh/db.db/v/metadata/00001-*.gz.metadata.json >/dev/null 2>&1 && ok || bad "no version 00001 file"
uuid0=$(gzip -dc "$T"/wh/db.db/v/metadata/00000-*.gz.metadata.json | grep -o '"view-uuid":"[^"]*"')
uuid1=$(gzip -dc "$T"/wh/db.db/v/metadata/00001-*.gz.metadata.json | grep -o '"view-uuid":"[^"]*"')
eq "same uuid" "$uuid1" "$uuid0"
has "two versions" "$(gzip -dc "$T"/wh/db.db/v/metadata/00001-*.gz.metadata.json)" '"current-version-id":2'

# ---- drop
F -c "DROP VIEW db.v"; eq "drop" "$?" 0
out=$(F -c "SELECT * FROM db.v" 2>&1); eq "query a dropped view" "$?:$out" "1:NoSuchTableException: Table does not exist: db.v"
out=$(F -c "SELECT * FROM db.vv" 2>&1); eq "view over a dropped view" "$?:$out" "1:NoSuchTableException: Table does not exist: db.v"
out=$(F -c "DROP VIEW db.v" 2>&1); eq "drop twice" "$?:$out" "1:NoSuchViewException: View does not exist: db.v"
F -c "DROP VIEW IF EXISTS db.v"; eq "drop if exists" "$?" 0
F -c "DROP TABLE db.t"
out=$(F -c "SELECT * FROM other.names" 2>&1); eq "view over a dropped table" "$?:$out" "1:NoSuchTableException: Table does not exist: db.t"

# ---- over REST: floe serve + floe sql --catalog-uri, the same catalog.db
serve_start "$T" --warehouse "$T/wh" --quiet
R() { "$FLOE_BIN" sql --catalog-uri "$U" --format csv "$@"; }
R -c "CREATE TABLE db.r (id BIGINT)" -c "INSERT INTO db.r VALUES (7), (8)" \
  -c "CREATE VIEW db.rv AS SELECT max(id) AS m FROM db.r"
eq "rest create" "$?" 0
eq "rest query" "$(R -c "SELECT m FROM db.rv")" "m
8"
eq "rest show views" "$(R -c "SHOW VIEWS IN db")" "namespace,viewName,isTemporary
db,rv,false
db,vv,false"
R -c "CREATE OR REPLACE VIEW db.rv AS SELECT min(id) AS m FROM db.r"
eq "file catalog sees the rest replace" "$(F -c "SELECT m FROM db.rv")" "m
7"
out=$(R -c "CREATE VIEW db.rv AS SELECT 1 AS m" 2>&1); eq "rest create twice" "$?" 1
has "rest create twice message" "$out" "View already exists: db.rv"
R -c "DROP VIEW db.rv"; eq "rest drop" "$?" 0
out=$(F -c "DROP VIEW db.rv" 2>&1); eq "dropped over rest" "$?:$out" "1:NoSuchViewException: View does not exist: db.rv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
