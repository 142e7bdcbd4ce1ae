# SPDX-License-Identifier: Apache-2.0
# The seed's script as written (shared/seeds/000); only the catalog block is changed.
"""Time travel and rollback on an Iceberg orders table.

Run inside datalake-playground:
  docker cp time_travel_rollback.py spark-master:/tmp/
  docker exec spark-master bash -c \
    '$SPARK_HOME/bin/spark-submit --master "local[2]" \
       --jars $(ls $ICEBERG_HOME/iceberg-spark-runtime*.jar) \
       /tmp/time_travel_rollback.py'
"""
import json
import os
import time
from datetime import date
from decimal import Decimal

from pyspark.sql import SparkSession
from pyspark.sql.types import (DateType, DecimalType, LongType, StringType,
                               StructField, StructType)

spark = (
    SparkSession.builder.appName("iceberg-time-travel")
    .config("spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
    .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
    .config("spark.sql.catalog.ice", "org.apache.iceberg.spark.SparkCatalog")
    # floe peers: the catalog block. REST (floe serve) or JDBC (floe's catalog.db) instead of
    # type=hive, S3Proxy instead of MinIO; the properties come from tests/peers/test_seed.py.
    .config(map={f"spark.sql.catalog.ice.{k}": v
                 for k, v in json.loads(os.environ["FLOE_PEER_CATALOG"]).items()})
    .config("spark.eventLog.enabled", "false")
    .config("spark.ui.enabled", "false")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
sql = spark.sql
TABLE = "ice.shop.orders"

SCHEMA = StructType([
    StructField("order_id", LongType(), False),
    StructField("customer_id", LongType(), False),
    StructField("amount", DecimalType(10, 2), False),
    StructField("status", StringType(), False),
    StructField("order_date", DateType(), False),
])


def load(rows):
    """Append one batch of orders, as a nightly job would."""
    spark.createDataFrame(rows, SCHEMA).writeTo(TABLE).append()
    time.sleep(1.2)  # keep commit timestamps distinct for TIMESTAMP AS OF


def count(suffix=""):
    return sql(f"SELECT count(*) FROM {TABLE} {suffix}").collect()[0][0]


def current_snapshot():
    # The current snapshot is whatever `main` points at. Never "the newest
    # committed_at": after a rollback that is the abandoned snapshot.
    return sql(f"SELECT snapshot_id FROM {TABLE}.refs WHERE name = 'main'").collect()[0][0]


sql("CREATE NAMESPACE IF NOT EXISTS ice.shop")
sql(f"DROP TABLE IF EXISTS {TABLE} PURGE")
sql(f"""
    CREATE TABLE {TABLE} (
        order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2),
        status STRING, order_date DATE)
    USING iceberg
    PARTITIONED BY (order_date)
""")

# Two good nightly loads
load([(1001, 501, Decimal("120.50"), "PLACED", date(2026, 9, 20)),
      (1002, 502, Decimal("75.00"), "PLACED", date(2026, 9, 20))])
load([(1003, 503, Decimal("310.25"), "PLACED", date(2026, 9, 21))])
good_1 = sql(f"SELECT snapshot_id FROM {TABLE}.snapshots ORDER BY committed_at").collect()[0][0]
good_2 = current_snapshot()
good_1_ts = sql(f"SELECT committed_at FROM {TABLE}.snapshots "
                f"WHERE snapshot_id = {good_1}").collect()[0][0]

print("== 1. time travel ==")
print("current rows                 :", count())
print("VERSION AS OF first snapshot :", count(f"VERSION AS OF {good_1}"))
print("TIMESTAMP AS OF its commit   :", count(f"TIMESTAMP AS OF '{good_1_ts}'"))

# A bad load: a replayed order and a negative amount
load([(1003, 503, Decimal("310.25"), "PLACED", date(2026, 9, 21)),
      (1004, 504, Decimal("-1.00"), "PLACED", date(2026, 9, 21))])
bad = current_snapshot()
bad_ts = sql(f"SELECT committed_at FROM {TABLE}.snapshots "
             f"WHERE snapshot_id = {bad}").collect()[0][0]
print("\n== 2. the bad write ==")
print("rows after bad load:", count())
sql(f"""
    SELECT snapshot_id, parent_id, operation,
           summary['added-records'] AS added, summary['total-records'] AS total
    FROM {TABLE}.snapshots ORDER BY committed_at
""").show(truncate=False)

print("== 3. rollback ==")
sql(f"CALL ice.system.rollback_to_snapshot('shop.orders', {good_2})").show(truncate=False)
print("rows after rollback:", count())
sql(f"""
    SELECT made_current_at, snapshot_id, parent_id, is_current_ancestor
    FROM {TABLE}.history ORDER BY made_current_at
""").show(truncate=False)

newest = sql(f"SELECT snapshot_id FROM {TABLE}.snapshots "
             f"ORDER BY committed_at DESC LIMIT 1").collect()[0][0]
print("newest by committed_at:", newest, "(the abandoned bad snapshot)")
print("main points at        :", current_snapshot())
print("TIMESTAMP AS OF the bad commit still reads:",
      count(f"TIMESTAMP AS OF '{bad_ts}'"), "rows")

print("\n== 4. going forward again ==")
try:
    sql(f"CALL ice.system.rollback_to_snapshot('shop.orders', {bad})").collect()
except Exception as e:  # rollback only moves to an ancestor
    print("rollback_to_snapshot:", e.java_exception.getClass().getName(), "-",
          e.java_exception.getMessage())
sql(f"CALL ice.system.set_current_snapshot('shop.orders', {bad})").collect()
print("set_current_snapshot to bad -> rows:", count())
sql(f"CALL ice.system.set_current_snapshot('shop.orders', {good_2})").collect()
print("set_current_snapshot to good -> rows:", count())

print("\n== 5. files ==")
print("data files in current snapshot:", sql(f"SELECT count(*) FROM {TABLE}.files").collect()[0][0])
print("data files in any snapshot    :", sql(f"SELECT count(*) FROM {TABLE}.all_data_files").collect()[0][0])
print("metadata.json files written   :", sql(f"SELECT count(*) FROM {TABLE}.metadata_log_entries").collect()[0][0])
print("table location                :", sql(f"DESCRIBE TABLE EXTENDED {TABLE}")
      .where("col_name = 'Location'").collect()[0][1])

spark.stop()
