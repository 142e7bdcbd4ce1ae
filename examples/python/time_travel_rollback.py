# SPDX-License-Identifier: Apache-2.0
"""Time travel and rollback on an Iceberg orders table (floe-python).

The seed's PySpark script 1 (shared/seeds/000, time_travel_rollback.py),
ported line by line: same data, same steps, same prints. The catalog is a
floe SQLite catalog named `ice` in a local warehouse instead of Spark's
Hive catalog on MinIO.

Run: python examples/python/time_travel_rollback.py [WAREHOUSE]
"""
import sys
import time
from datetime import date
from decimal import Decimal

import pyarrow as pa

import floe

cat = floe.catalog(warehouse=sys.argv[1] if len(sys.argv) > 1 else "/tmp/floe-examples", name="ice")
sql = cat.sql
TABLE = "ice.shop.orders"

SCHEMA = pa.schema([
    pa.field("order_id", pa.int64(), False),
    pa.field("customer_id", pa.int64(), False),
    pa.field("amount", pa.decimal128(10, 2), False),
    pa.field("status", pa.string(), False),
    pa.field("order_date", pa.date32(), False),
])


def load(rows):
    """Append one batch of orders, as a nightly job would."""
    cat.load_table("shop.orders").append(pa.Table.from_pylist(
        [dict(zip(SCHEMA.names, r)) for r in rows], SCHEMA))
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
except floe.FloeError as e:  # rollback only moves to an ancestor
    print("rollback_to_snapshot:", e.java_name, "-",
          e.message)
sql(f"CALL ice.system.set_current_snapshot('shop.orders', {bad})").collect()
print("set_current_snapshot to bad -> rows:", count())
sql(f"CALL ice.system.set_current_snapshot('shop.orders', {good_2})").collect()
print("set_current_snapshot to good -> rows:", count())

print("\n== 5. files ==")
print("data files in current snapshot:", sql(f"SELECT count(*) FROM {TABLE}.files").collect()[0][0])
print("data files in any snapshot    :", sql(f"SELECT count(*) FROM {TABLE}.all_data_files").collect()[0][0])
print("metadata.json files written   :", sql(f"SELECT count(*) FROM {TABLE}.metadata_log_entries").collect()[0][0])
print("table location                :", [r for r in sql(f"DESCRIBE TABLE EXTENDED {TABLE}")
      .collect() if r.col_name == "Location"][0][1])

cat.close()
