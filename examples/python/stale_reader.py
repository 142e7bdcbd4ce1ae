# SPDX-License-Identifier: Apache-2.0
"""A long-running session keeps reading a table after another job rolled it back.

The seed's PySpark script 3 (shared/seeds/000, stale_reader.py), ported line
by line with two catalog objects in one process: `ice`, a dashboard's
catalog with Spark's default table cache (cache-enabled=true), and `ops`,
the on-call engineer's, with the cache off. The seed's two catalogs share
one Hive metastore; here they share one catalog server, `floe serve` (an
Iceberg REST catalog over WAREHOUSE) on a free port of 127.0.0.1, started
by the script as the seed's docker compose starts hive-metastore. A REST
catalog's name is the client's own, so the SQL names `ice` and `ops` are the
seed's.

Run: python examples/python/stale_reader.py [WAREHOUSE]
(the floe binary: $FLOE_BIN, else `floe` on PATH)
"""
import os
import shutil
import subprocess
import sys

import floe

WAREHOUSE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/floe-examples"
os.makedirs(WAREHOUSE, exist_ok=True)
server = subprocess.Popen([os.environ.get("FLOE_BIN") or shutil.which("floe") or "floe", "serve",
                           "--warehouse", WAREHOUSE, "--port", "0", "--quiet"],
                          stdout=subprocess.PIPE, text=True)
uri = server.stdout.readline().split(" on ")[1].split()[0]  # "floe serve: listening on URI (...)"

CATALOG = {"uri": uri}
# `ice` is a dashboard's catalog with the default table cache.
# `ops` is the on-call engineer's catalog with the cache off.
catalogs = {}
for name in ("ice", "ops"):
    catalogs[name] = floe.catalog(name=name, **CATALOG,
                                  **{"cache-enabled": "false" if name == "ops" else "true"})
sql = catalogs["ice"].sql


def rows(catalog):
    return catalogs[catalog].sql(f"SELECT count(*) FROM {catalog}.shop.orders_cache").collect()[0][0]


sql("CREATE NAMESPACE IF NOT EXISTS ice.shop")
sql("DROP TABLE IF EXISTS ice.shop.orders_cache PURGE")
sql("CREATE TABLE ice.shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2)) USING iceberg")
sql("INSERT INTO ice.shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25)")
good = sql("SELECT snapshot_id FROM ice.shop.orders_cache.refs WHERE name = 'main'").collect()[0][0]
sql("INSERT INTO ice.shop.orders_cache VALUES (1003, 310.25), (1004, -1.00)")

print("dashboard sees          :", rows("ice"))
catalogs["ops"].sql(f"CALL ops.system.rollback_to_snapshot('shop.orders_cache', {good})").collect()
print("on-call sees            :", rows("ops"))
print("dashboard sees          :", rows("ice"))
sql("REFRESH TABLE ice.shop.orders_cache")
print("dashboard after REFRESH :", rows("ice"))

sql("DROP TABLE ice.shop.orders_cache PURGE")
for c in catalogs.values():
    c.close()
server.terminate()
server.wait()
