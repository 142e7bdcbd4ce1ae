# SPDX-License-Identifier: Apache-2.0
# The seed's script as written (shared/seeds/000); only the catalog block is changed.
"""A long-running session keeps reading a table after another job rolled it back.

Run inside datalake-playground:
  docker cp stale_reader.py spark-master:/tmp/
  docker exec spark-master bash -c \
    '$SPARK_HOME/bin/spark-submit --master "local[2]" \
       --jars $(ls $ICEBERG_HOME/iceberg-spark-runtime*.jar) \
       /tmp/stale_reader.py'
"""
import json
import os

from pyspark.sql import SparkSession

# floe peers: the catalog block. REST (floe serve) or JDBC (floe's catalog.db) instead of
# type=hive, S3Proxy instead of MinIO; the properties come from tests/peers/test_seed.py.
CATALOG = {"": "org.apache.iceberg.spark.SparkCatalog",
           **{"." + k: v for k, v in json.loads(os.environ["FLOE_PEER_CATALOG"]).items()}}
builder = (
    SparkSession.builder.appName("iceberg-stale-reader")
    .config("spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
    .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
    .config("spark.eventLog.enabled", "false")
    .config("spark.ui.enabled", "false")
)
# `ice` is a dashboard's catalog with the default table cache.
# `ops` is the on-call engineer's catalog with the cache off.
for name in ("ice", "ops"):
    for key, value in CATALOG.items():
        builder = builder.config(f"spark.sql.catalog.{name}{key}", value)
builder = builder.config("spark.sql.catalog.ops.cache-enabled", "false")
spark = builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
sql = spark.sql


def rows(catalog):
    return sql(f"SELECT count(*) FROM {catalog}.shop.orders_cache").collect()[0][0]


sql("CREATE NAMESPACE IF NOT EXISTS ice.shop")
sql("DROP TABLE IF EXISTS ice.shop.orders_cache PURGE")
sql("CREATE TABLE ice.shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2)) USING iceberg")
sql("INSERT INTO ice.shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25)")
good = sql("SELECT snapshot_id FROM ice.shop.orders_cache.refs WHERE name = 'main'").collect()[0][0]
sql("INSERT INTO ice.shop.orders_cache VALUES (1003, 310.25), (1004, -1.00)")

print("dashboard sees          :", rows("ice"))
sql(f"CALL ops.system.rollback_to_snapshot('shop.orders_cache', {good})").collect()
print("on-call sees            :", rows("ops"))
print("dashboard sees          :", rows("ice"))
sql("REFRESH TABLE ice.shop.orders_cache")
print("dashboard after REFRESH :", rows("ice"))

sql("DROP TABLE ice.shop.orders_cache PURGE")
spark.stop()
