# SPDX-License-Identifier: Apache-2.0
"""Incremental reads, write-audit-publish and retention (floe-python).

The seed's PySpark script 2 (shared/seeds/000, wap_retention.py), ported
line by line. Two places differ on purpose, as docs/sql.md documents:
- the incremental read (Spark's start-/end-snapshot-id append scan) is
  Table.incremental_append, whose default refuses a range holding a delete
  or overwrite instead of silently returning 0 rows (append_only=True gives
  Spark's behaviour);
- step 2's branch write goes to the branch (Spark's writeTo(...).option(
  "branch") is ignored and lands on main): main stays at 3, audit gets 4.
  The DELETE of 1005 on main then matches nothing and commits no snapshot,
  so step 4 counts 11 snapshots where Spark counts 12.

Run: python examples/python/wap_retention.py [WAREHOUSE]
"""
import sys
from datetime import date
from decimal import Decimal

import pyarrow as pa

import floe

cat = floe.catalog(warehouse=sys.argv[1] if len(sys.argv) > 1 else "/tmp/floe-examples", name="ice")
sql = cat.sql
TABLE = "ice.shop.orders_wap"

SCHEMA = pa.schema([
    pa.field("order_id", pa.int64(), False),
    pa.field("customer_id", pa.int64(), False),
    pa.field("amount", pa.decimal128(10, 2), False),
    pa.field("status", pa.string(), False),
    pa.field("order_date", pa.date32(), False),
])


def orders(*rows):
    return pa.Table.from_pylist([dict(zip(SCHEMA.names, r)) for r in rows], SCHEMA)


def count(suffix=""):
    return sql(f"SELECT count(*) FROM {TABLE} {suffix}").collect()[0][0]


def main_snapshot():
    return sql(f"SELECT snapshot_id FROM {TABLE}.refs WHERE name = 'main'").collect()[0][0]


def changes_since(start_exclusive, end_inclusive):
    return cat.load_table("shop.orders_wap").incremental_append(start_exclusive, end_inclusive)


sql("CREATE NAMESPACE IF NOT EXISTS ice.shop")
sql(f"DROP TABLE IF EXISTS {TABLE} PURGE")
sql(f"""
    CREATE TABLE {TABLE} (
        order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2),
        status STRING, order_date DATE)
    USING iceberg
    PARTITIONED BY (order_date)
""")
t = cat.load_table("shop.orders_wap")

t.append(orders((1001, 501, Decimal("120.50"), "PLACED", date(2026, 9, 20)),
                (1002, 502, Decimal("75.00"), "PLACED", date(2026, 9, 20))))
watermark = main_snapshot()  # what a downstream job stored after its last run

print("== 1. incremental reads ==")
t.append(orders((1003, 503, Decimal("310.25"), "PLACED", date(2026, 9, 21))))
t.append(orders((1004, 504, Decimal("42.00"), "PLACED", date(2026, 9, 21))))
now = main_snapshot()
print("appended since watermark:",
      sorted(changes_since(watermark, now).column("order_id").to_pylist()))

sql(f"DELETE FROM {TABLE} WHERE order_id = 1004")
sql(f"UPDATE {TABLE} SET status = 'SHIPPED' WHERE order_id = 1001")
after = main_snapshot()
sql(f"""SELECT snapshot_id, operation FROM {TABLE}.snapshots
        ORDER BY committed_at DESC LIMIT 2""").show(truncate=False)
try:
    print("rows the incremental read returns across that delete and update:",
          changes_since(now, after).num_rows)
except floe.IllegalArgumentException as e:  # floe refuses what Spark skips silently
    print("rows the incremental read returns across that delete and update:",
          type(e).__name__, "-", e.message)

print("\n== 2. the branch write that lands on main ==")
sql(f"ALTER TABLE {TABLE} CREATE BRANCH audit")
before = (count(), count("VERSION AS OF 'audit'"))
t.refresh().with_branch("audit") \
    .append(orders((1005, 505, Decimal("18.00"), "PLACED", date(2026, 9, 22))))
print("main, audit before:", before, "after writeTo(...).option('branch'):",
      (count(), count("VERSION AS OF 'audit'")))
sql(f"ALTER TABLE {TABLE} DROP BRANCH audit")
sql(f"DELETE FROM {TABLE} WHERE order_id = 1005")

print("\n== 3. write-audit-publish ==")
sql(f"ALTER TABLE {TABLE} CREATE BRANCH audit")
t.refresh().with_branch("audit").append(
    orders((1006, 506, Decimal("99.99"), "PLACED", date(2026, 9, 22)),
           (1007, 507, Decimal("-5.00"), "PLACED", date(2026, 9, 22))))
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
t.refresh()
for i in range(3):
    t.append(orders((2000 + i, 600 + i, Decimal("10.00"), "PLACED", date(2026, 10, 1))))
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
cat.close()
