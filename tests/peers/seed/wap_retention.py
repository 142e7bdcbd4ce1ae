# SPDX-License-Identifier: Apache-2.0
# The seed's script as written (shared/seeds/000); only the catalog block is changed.
"""Incremental reads, write-audit-publish and retention on an Iceberg orders table.

Run inside datalake-playground:
  docker cp wap_retention.py spark-master:/tmp/
  docker exec spark-master bash -c \
    '$SPARK_HOME/bin/spark-submit --master "local[2]" \
       --jars $(ls $ICEBERG_HOME/iceberg-spark-runtime*.jar) \
       /tmp/wap_retention.py'
"""
import json
import os
from datetime import date
from decimal import Decimal

from pyspark.sql import SparkSession
from pyspark.sql.types import (DateType, DecimalType, LongType, StringType,
                               StructField, StructType)

spark = (
    SparkSession.builder.appName("iceberg-wap-retention")
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
TABLE = "ice.shop.orders_wap"

SCHEMA = StructType([
    StructField("order_id", LongType(), False),
    StructField("customer_id", LongType(), False),
    StructField("amount", DecimalType(10, 2), False),
    StructField("status", StringType(), False),
    StructField("order_date", DateType(), False),
])


def orders(*rows):
    return spark.createDataFrame(list(rows), SCHEMA)


def count(suffix=""):
    return sql(f"SELECT count(*) FROM {TABLE} {suffix}").collect()[0][0]


def main_snapshot():
    return sql(f"SELECT snapshot_id FROM {TABLE}.refs WHERE name = 'main'").collect()[0][0]


def changes_since(start_exclusive, end_inclusive):
    return (spark.read.format("iceberg")
            .option("start-snapshot-id", str(start_exclusive))
            .option("end-snapshot-id", str(end_inclusive))
            .load(TABLE))


sql("CREATE NAMESPACE IF NOT EXISTS ice.shop")
sql(f"DROP TABLE IF EXISTS {TABLE} PURGE")
sql(f"""
    CREATE TABLE {TABLE} (
        order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2),
        status STRING, order_date DATE)
    USING iceberg
    PARTITIONED BY (order_date)
""")

orders((1001, 501, Decimal("120.50"), "PLACED", date(2026, 9, 20)),
       (1002, 502, Decimal("75.00"), "PLACED", date(2026, 9, 20))).writeTo(TABLE).append()
watermark = main_snapshot()  # what a downstream job stored after its last run

print("== 1. incremental reads ==")
orders((1003, 503, Decimal("310.25"), "PLACED", date(2026, 9, 21))).writeTo(TABLE).append()
orders((1004, 504, Decimal("42.00"), "PLACED", date(2026, 9, 21))).writeTo(TABLE).append()
now = main_snapshot()
print("appended since watermark:",
      sorted(r.order_id for r in changes_since(watermark, now).collect()))

sql(f"DELETE FROM {TABLE} WHERE order_id = 1004")
sql(f"UPDATE {TABLE} SET status = 'SHIPPED' WHERE order_id = 1001")
after = main_snapshot()
sql(f"""SELECT snapshot_id, operation FROM {TABLE}.snapshots
        ORDER BY committed_at DESC LIMIT 2""").show(truncate=False)
print("rows the incremental read returns across that delete and update:",
      changes_since(now, after).count())

print("\n== 2. the branch write that lands on main ==")
sql(f"ALTER TABLE {TABLE} CREATE BRANCH audit")
before = (count(), count("VERSION AS OF 'audit'"))
orders((1005, 505, Decimal("18.00"), "PLACED", date(2026, 9, 22))) \
    .writeTo(TABLE).option("branch", "audit").append()
print("main, audit before:", before, "after writeTo(...).option('branch'):",
      (count(), count("VERSION AS OF 'audit'")))
sql(f"ALTER TABLE {TABLE} DROP BRANCH audit")
sql(f"DELETE FROM {TABLE} WHERE order_id = 1005")

print("\n== 3. write-audit-publish ==")
sql(f"ALTER TABLE {TABLE} CREATE BRANCH audit")
orders((1006, 506, Decimal("99.99"), "PLACED", date(2026, 9, 22)),
       (1007, 507, Decimal("-5.00"), "PLACED", date(2026, 9, 22))) \
    .writeTo(f"{TABLE}.branch_audit").append()
print("main rows:", count(), " audit rows:", count("VERSION AS OF 'audit'"))

bad_rows = sql(f"SELECT count(*) FROM {TABLE} VERSION AS OF 'audit' "
               f"WHERE amount <= 0").collect()[0][0]
print("audit check, non-positive amounts:", bad_rows)
if bad_rows:
    sql(f"DELETE FROM {TABLE}.branch_audit WHERE amount <= 0")
    print("fixed on the branch, audit rows now:", count("VERSION AS OF 'audit'"))
sql(f"CALL ice.system.fast_forward('shop.orders_wap', 'main', 'audit')").show(truncate=False)
print("main rows after publish:", count())
sql(f"ALTER TABLE {TABLE} DROP BRANCH audit")

print("== 4. retention ==")
month_end = main_snapshot()
sql(f"ALTER TABLE {TABLE} CREATE TAG `close-2026-09` AS OF VERSION {month_end} RETAIN 365 DAYS")
for i in range(3):
    orders((2000 + i, 600 + i, Decimal("10.00"), "PLACED", date(2026, 10, 1))).writeTo(TABLE).append()
oldest = sql(f"SELECT snapshot_id FROM {TABLE}.history ORDER BY made_current_at LIMIT 1").collect()[0][0]
print("snapshots before expiry:", sql(f"SELECT count(*) FROM {TABLE}.snapshots").collect()[0][0])

print("expire with the defaults (nothing is 5 days old yet):")
sql(f"CALL ice.system.expire_snapshots(table => 'shop.orders_wap')") \
    .select("deleted_data_files_count", "deleted_manifest_lists_count").show()

sql(f"""ALTER TABLE {TABLE} SET TBLPROPERTIES (
        'history.expire.max-snapshot-age-ms' = '1',
        'history.expire.min-snapshots-to-keep' = '2')""")
print("expire with max age 1 ms, keep at least 2:")
sql(f"CALL ice.system.expire_snapshots(table => 'shop.orders_wap')") \
    .select("deleted_data_files_count", "deleted_manifest_lists_count").show()
sql(f"""SELECT s.snapshot_id, r.name AS ref
        FROM {TABLE}.snapshots s LEFT JOIN {TABLE}.refs r ON s.snapshot_id = r.snapshot_id
        ORDER BY s.committed_at""").show(truncate=False)
print("tag still readable:", count("VERSION AS OF 'close-2026-09'"), "rows")
try:
    count(f"VERSION AS OF {oldest}")
except Exception as e:
    print("oldest snapshot:", type(e).__name__, "-", str(e).splitlines()[0])

sql(f"DROP TABLE {TABLE} PURGE")
spark.stop()
