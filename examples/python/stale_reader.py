# SPDX-License-Identifier: Apache-2.0
"""A long-running session keeps reading a table after another job rolled it back.

The seed's PySpark script 3 (shared/seeds/000, stale_reader.py), ported line
by line with two catalog objects in one process: `ice`, a dashboard's
catalog with Java's table cache (cache-enabled=true), and `ops`, the on-call
engineer's, with the cache off. Both open the same SQLite catalog, whose
JDBC-style rows carry the catalog name, so both are named `ice` in SQL;
rows() picks the catalog object instead of a SQL prefix. Without
cache-enabled, floe's default (freshness mode) never serves the rolled-back
state.

Run: python examples/python/stale_reader.py [WAREHOUSE]
"""
import sys

import floe

WAREHOUSE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/floe-examples"
CATALOG = {"warehouse": WAREHOUSE, "name": "ice"}
# `ice` is a dashboard's catalog with the default table cache.
# `ops` is the on-call engineer's catalog with the cache off.
catalogs = {
    "ice": floe.catalog(**CATALOG, **{"cache-enabled": "true"}),
    "ops": floe.catalog(**CATALOG, **{"cache-enabled": "false"}),
}
sql = catalogs["ice"].sql


def rows(catalog):
    return catalogs[catalog].sql("SELECT count(*) FROM ice.shop.orders_cache").collect()[0][0]


sql("CREATE NAMESPACE IF NOT EXISTS ice.shop")
sql("DROP TABLE IF EXISTS ice.shop.orders_cache PURGE")
sql("CREATE TABLE ice.shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2)) USING iceberg")
sql("INSERT INTO ice.shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25)")
good = sql("SELECT snapshot_id FROM ice.shop.orders_cache.refs WHERE name = 'main'").collect()[0][0]
sql("INSERT INTO ice.shop.orders_cache VALUES (1003, 310.25), (1004, -1.00)")

print("dashboard sees          :", rows("ice"))
catalogs["ops"].sql(f"CALL ice.system.rollback_to_snapshot('shop.orders_cache', {good})").collect()
print("on-call sees            :", rows("ops"))
print("dashboard sees          :", rows("ice"))
sql("REFRESH TABLE ice.shop.orders_cache")
print("dashboard after REFRESH :", rows("ice"))

sql("DROP TABLE ice.shop.orders_cache PURGE")
for c in catalogs.values():
    c.close()
