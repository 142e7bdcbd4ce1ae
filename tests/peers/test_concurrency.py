# SPDX-License-Identifier: Apache-2.0
"""Concurrency across engines (issue #19 item 6): floe processes and Spark append to one
table at the same time, through the JDBC catalog (floe's catalog.db) and through
`floe serve` (floe sql as a REST client, Spark's REST catalog). 3 floe writers and one
Spark writer, 25 commits each: no commit is lost, each writer's rows are all there, and
the history is one linear chain (every snapshot's parent is the one made current before).
"""
import os
import subprocess
import threading

from conftest import FLOE, Floe, add_catalog, jdbc_props, rest_props, uniq

WRITERS, COMMITS = 3, 25


def run_race(spark, cat, fl, table):
    fl.sql("CREATE NAMESPACE IF NOT EXISTS shop",
           f"CREATE TABLE shop.{table} (w INT, i INT) USING iceberg "
           "TBLPROPERTIES ('commit.retry.num-retries'='100', 'commit.retry.min-wait-ms'='20', "
           "'commit.retry.max-wait-ms'='500')")
    procs = []
    for w in range(WRITERS):
        args = [FLOE] + fl.args()
        for i in range(COMMITS):
            args += ["-c", f"INSERT INTO shop.{table} VALUES ({w}, {i})"]
        procs.append(subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True))
    errors = []

    def spark_writer():
        try:
            for i in range(COMMITS):
                spark.sql(f"INSERT INTO {cat}.shop.{table} VALUES ({WRITERS}, {i})")
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    th = threading.Thread(target=spark_writer)
    th.start()
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    th.join(600)
    assert not errors, errors

    n = WRITERS + 1
    got = fl.rows(f"SELECT w, count(*) AS n, count(DISTINCT i) AS d FROM shop.{table} "
                  "GROUP BY w ORDER BY w")
    assert [(r["w"], r["n"], r["d"]) for r in got] == [(w, COMMITS, COMMITS) for w in range(n)]
    hist = fl.rows(f"SELECT snapshot_id, parent_id, is_current_ancestor FROM shop.{table}.history "
                   "ORDER BY made_current_at")
    assert len(hist) == n * COMMITS
    assert hist[0]["parent_id"] is None
    for a, b in zip(hist, hist[1:]):
        assert b["parent_id"] == a["snapshot_id"]
    assert all(r["is_current_ancestor"] for r in hist)
    seqs = sorted(r["s"] for r in fl.rows(f"SELECT DISTINCT sequence_number AS s "
                                          f"FROM shop.{table}.entries"))
    assert seqs == list(range(1, n * COMMITS + 1))  # one data sequence number per commit
    spark.sql(f"REFRESH TABLE {cat}.shop.{table}")
    assert spark.sql(f"SELECT count(*) FROM {cat}.shop.{table}").collect()[0][0] == n * COMMITS
    assert spark.sql(f"SELECT count(*) FROM {cat}.shop.{table}.snapshots").collect()[0][0] == \
        n * COMMITS


def test_jdbc_catalog_floe_and_spark_append_at_once(spark, warehouse):
    name = uniq("cj")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE shop")
    cat = add_catalog(spark, name, jdbc_props(os.path.join(warehouse, "catalog.db"), warehouse))
    run_race(spark, cat, fl, "race")


def test_floe_serve_floe_and_spark_append_at_once(spark, floe_serve, warehouse):
    name = uniq("cr")
    Floe(warehouse, name).sql("CREATE NAMESPACE shop")
    srv = floe_serve(warehouse, name)
    cat = add_catalog(spark, name, rest_props(srv.url))
    run_race(spark, cat, Floe(None, name, uri=srv.url), "race")
