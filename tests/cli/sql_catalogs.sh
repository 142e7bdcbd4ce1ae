#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe sql` sessions with several catalogs, defined as Spark does
# (--conf spark.sql.catalog.<name>=org.apache.iceberg.spark.SparkCatalog
# and spark.sql.catalog.<name>.<key>): three-part names, CALL
# <cat>.system.*, REFRESH TABLE <cat>.ns.t, USE <cat>, per-catalog
# cache-enabled; and the audit of session and catalog keys: every key is
# honoured or refused, never accepted and ignored (SET cache-enabled
# mid-session, unknown catalog properties, Spark properties floe lacks).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
S=org.apache.iceberg.spark.SparkCatalog
C() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv "$@"; }

# ---- refused keys: SET of catalog properties mid-session, unknown keys
out=$(C -c "SET cache-enabled = false" 2>&1); rc=$?
eq "SET cache-enabled refused" "$out,$rc" "IllegalArgumentException: Cannot set 'cache-enabled' in a running session: catalog and FileIO properties are read when the session opens (floe sql --conf cache-enabled=..., or --conf spark.sql.catalog.<name>.<key>=... for a catalog),1"
out=$(C -c "RESET cache.expiration-interval-ms" 2>&1); rc=$?
has "RESET of a catalog property refused" "$out,$rc" "Cannot set 'cache.expiration-interval-ms' in a running session"
out=$(C -c "SET spark.sql.catalog.ops.cache-enabled = false" 2>&1); rc=$?
has "SET spark.sql.catalog.* refused" "$out,$rc" "Cannot set 'spark.sql.catalog.ops.cache-enabled' in a running session"
out=$(C -c "SET spark.sql.shuffle.partitions = 4" 2>&1); rc=$?
eq "SET of a Spark property floe lacks" "$out,$rc" "IllegalArgumentException: Cannot set 'spark.sql.shuffle.partitions': floe does not implement this Spark property (setting it would change nothing),1"
out=$(C -c "SET floe.formt = csv" 2>&1); rc=$?
has "SET of an unknown floe key" "$out,$rc" "Cannot set 'floe.formt': not a floe session property"
eq "a plain key is a variable" "$(C -c 'SET x = 41; SELECT ${x} + 1 AS y')" "y
42"
out=$(C --conf spark.sql.catalog.ops.cache-enabled=false -c "SELECT 1" 2>&1); rc=$?
eq "catalog property of an undefined catalog" "$out,$rc" "IllegalArgumentException: --conf spark.sql.catalog.ops.cache-enabled: catalog 'ops' is not defined (--conf spark.sql.catalog.ops=$S),1"
out=$(C --conf spark.sql.catalog.ops=com.example.Other -c "SELECT 1" 2>&1); rc=$?
has "another catalog class" "$out,$rc" "floe's catalogs are Iceberg catalogs ($S),1"
out=$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.io-impl=x -c "SELECT 1" 2>&1); rc=$?
has "unknown catalog property" "$out,$rc" "unknown catalog property 'io-impl'"
out=$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.type=glue -c "SELECT 1" 2>&1); rc=$?
has "catalog type floe lacks" "$out,$rc" "type 'glue' is not supported"
out=$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.type=hive -c "SELECT 1" 2>&1); rc=$?
has "type=hive without a thrift uri" "$out,$rc" "type=hive needs uri=thrift://host:port"
out=$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.hadoop.iceberg.hive.lock-timeout-ms=5 -c "SELECT 1" 2>&1); rc=$?
has "hive key on another catalog" "$out,$rc" "is a property of a Hive Metastore catalog"
out=$(C --conf token=abc -c "SELECT 1" 2>&1); rc=$?
has "a REST property on the SQLite catalog" "$out,$rc" "catalog 'local': token is a property of a REST catalog"
out=$(C --conf spark.serializer=org.apache.spark.serializer.KryoSerializer -c "SELECT 1" 2>&1); rc=$?
has "--conf of a Spark property floe lacks" "$out,$rc" "--conf spark.serializer: a Spark property floe does not implement"
eq "Iceberg's extensions: always on" "$(C --conf spark.sql.extensions=org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions -c "SELECT 1 AS a")" "a
1"
out=$(C --conf spark.sql.extensions=com.example.Ext -c "SELECT 1" 2>&1); rc=$?
has "other extensions refused" "$out,$rc" "floe has Iceberg's SQL extensions"
out=$(C -c "SET spark.sql.extensions = x" 2>&1); rc=$?
eq "spark.sql.extensions is static" "$out,$rc" "AnalysisException: Cannot modify the value of a static config: spark.sql.extensions,1"
# honoured through --conf: session options as SET would set them
eq "--conf spark.sql.session.timeZone" "$(C --conf spark.sql.session.timeZone=Europe/Paris -c "SET TIME ZONE 'UTC'; RESET spark.sql.session.timeZone; SET spark.sql.session.timeZone" | sed -n 2p)" "spark.sql.session.timeZone,Europe/Paris"
eq "--conf floe.format" "$(C --conf floe.format=json -c "SELECT 1 AS a")" '{"a":1}'

# ---- cache-enabled per catalog: the session catalog (floe's freshness
# mode) and a Spark-defined catalog over the same database (Spark's
# default, cache-enabled=true) and one with it off
C -c "CREATE NAMESPACE shop; CREATE TABLE shop.t (id BIGINT); INSERT INTO shop.t VALUES (1), (2), (3)" >/dev/null
two=(--conf spark.sql.catalog.dash=$S --conf spark.sql.catalog.oncall=$S
     --conf spark.sql.catalog.oncall.cache-enabled=false)
out=$(C "${two[@]}" -c "SELECT count(*) AS n FROM dash.shop.t;
SET VAR head = (SELECT snapshot_id FROM oncall.shop.t.refs WHERE name = 'main');
INSERT INTO oncall.shop.t VALUES (4);
SELECT count(*) AS n FROM dash.shop.t; SELECT count(*) AS n FROM oncall.shop.t;
SELECT count(*) AS n FROM shop.t; SELECT count(*) AS n FROM local.shop.t;
REFRESH TABLE dash.shop.t; SELECT count(*) AS n FROM dash.shop.t;
CALL oncall.system.rollback_to_snapshot('shop.t', \${head});
SELECT count(*) AS n FROM dash.shop.t; SELECT count(*) AS n FROM oncall.shop.t" 2>&1 |
    grep -v '^n$\|^previous\|,' | tr '\n' ' ')
eq "caches per catalog" "$out" "3 3 4 4 4 4 4 3 "
has "SET lists the catalog definitions" "$(C "${two[@]}" -c "SET")" "spark.sql.catalog.oncall.cache-enabled,false"

# ---- a catalog with its own database: its rows carry its name
out=$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.warehouse="$T/wh2" \
    -c "CREATE NAMESPACE ops.shop; CREATE TABLE ops.shop.o (id BIGINT); INSERT INTO ops.shop.o VALUES (7);
USE ops.shop; SELECT count(*) AS n FROM o; SHOW TABLES;
USE local; SHOW TABLES IN shop;
SELECT count(*) AS n FROM shop.t; EXPLAIN SELECT * FROM ops.shop.o" 2>&1)
has "USE ops.shop: one-part names in ops" "$out" "n
1"
has "SHOW TABLES in ops" "$out" "shop,o,false"
has "USE local: back" "$out" "shop,t,false"
has "EXPLAIN names the catalog" "$out" "Iceberg scan ops.shop.o"
if command -v sqlite3 >/dev/null; then
    eq "ops' database" "$(sqlite3 "$T/wh2/catalog.db" "SELECT catalog_name || '.' || table_namespace || '.' || table_name FROM iceberg_tables")" "ops.shop.o"
fi
eq "SET VAR over another catalog's table" "$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.warehouse="$T/wh2" \
    -c 'SET VAR n = (SELECT count(*) FROM ops.shop.o); SELECT ${n} AS n')" "n
1"
# the session catalog's keys in Spark's spelling are its plain --conf keys
C -c "CREATE TABLE shop.c (id BIGINT); INSERT INTO shop.c VALUES (1)" >/dev/null
coproc CACHED { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv --conf spark.sql.catalog.local.cache-enabled=true 2>&1; }
printf 'SELECT count(*) AS n FROM shop.c;\n' >&"${CACHED[1]}"
IFS= read -r -t 20 h <&"${CACHED[0]}"; IFS= read -r -t 20 a <&"${CACHED[0]}"
C -c "INSERT INTO shop.c VALUES (2)" >/dev/null
printf 'SELECT count(*) AS n FROM shop.c;\n' >&"${CACHED[1]}"
IFS= read -r -t 20 h <&"${CACHED[0]}"; IFS= read -r -t 20 b <&"${CACHED[0]}"
exec {CACHED[1]}>&-
wait
eq "spark.sql.catalog.local.cache-enabled=true honoured" "$a $b" "1 1"

# ---- one statement over two catalogs: refused; a temporary view bridges
out=$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.warehouse="$T/wh2" \
    -c "SELECT * FROM ops.shop.o JOIN shop.t ON true" 2>&1); rc=$?
eq "two catalogs in one statement" "$out,$rc" "UnsupportedOperationException: A statement over tables of two catalogs (ops, local) is not supported yet: copy one side into a temporary view first,1"
out=$(C --conf spark.sql.catalog.ops=$S --conf spark.sql.catalog.ops.warehouse="$T/wh2" \
    -c "CREATE TEMP VIEW o AS SELECT * FROM ops.shop.o; SELECT count(*) AS n FROM o JOIN shop.t ON true" 2>&1)
eq "through a temporary view" "$out" "n
3"
out=$(C -c "CALL nope.system.rollback_to_snapshot('shop.t', 1)" 2>&1); rc=$?
has "CALL on an unknown catalog" "$out,$rc" "Catalog 'nope' not found"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
