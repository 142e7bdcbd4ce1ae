# SPDX-License-Identifier: Apache-2.0
"""The Spark side of bench/maint_compact.c, bench/maint_manifests.c and
bench/rowlevel.c.

    maint_vs_spark.py WAREHOUSE TABLE SNAPSHOT_ID "STATEMENT" ["STATEMENT" ...]

Opens the floe warehouse's SQLite catalog (catalog name `local`) in Spark
local[2] with the peer suite's settings (tests/peers/conftest.py), rolls
TABLE back to SNAPSHOT_ID (the state floe's run started from, so both
engines do the same work on the same files), runs each statement once in
order (a statement prefixed `warmup:` runs untimed first: JIT and caches),
and prints `SPARK_SECONDS_<i> <wall seconds>` and `SPARK_RESULT_<i> <first
row>` and `SPARK_ROWS_<i> <row count>` for the i-th timed statement.
Session start-up is not timed. SNAPSHOT_ID 0: no rollback.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "peers"))
from conftest import add_catalog, jdbc_props, spark_base_conf  # noqa: E402


def main():
    wh, table, snap, stmts = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    from pyspark.sql import SparkSession
    b = SparkSession.builder.appName("floe-bench")
    for k, v in spark_base_conf().items():
        b = b.config(k, v)
    b = b.config("spark.driver.memory", "2g").config("spark.ui.showConsoleProgress", "false")
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    add_catalog(spark, "local", jdbc_props(os.path.join(wh, "catalog.db"), wh))
    if snap:
        spark.sql(f"CALL local.system.rollback_to_snapshot('{table}', {snap})").collect()
    spark.sql(f"REFRESH TABLE local.{table}")
    timed = 0
    for stmt in stmts:
        warmup = stmt.startswith("warmup:")
        sql = stmt[len("warmup:"):] if warmup else stmt
        t0 = time.monotonic()
        try:
            rows = spark.sql(sql).collect()
        except Exception as e:  # noqa: BLE001
            print("SPARK_ERROR", str(e).splitlines()[0])
            return 1
        secs = time.monotonic() - t0
        if warmup:
            continue
        print("SPARK_SECONDS_%d %.3f" % (timed, secs), flush=True)
        print("SPARK_RESULT_%d" % timed, rows[0].asDict() if rows else {}, flush=True)
        print("SPARK_ROWS_%d %d" % (timed, len(rows)), flush=True)
        timed += 1
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
