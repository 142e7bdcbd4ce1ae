# SPDX-License-Identifier: Apache-2.0
"""`floe serve --catalog-uri thrift://HOST:PORT --warehouse DIR`: the REST catalog in front of a
real Hive Metastore (Apache Hive 2.3.9, the session fixture `hms` of conftest.py). PyIceberg's
RestCatalog and Spark's REST catalog work through floe serve; Spark's HiveCatalog on the same
metastore sees the same tables and snapshots (and floe serve sees what it writes).
"""
import logging
import re
import subprocess

import pytest

from conftest import add_catalog, rest_props, uniq, unavailable


@pytest.fixture
def serve_hms(floe_bin, hms, tmp_path):
    wh = tmp_path / "wh"
    wh.mkdir()
    log = open(tmp_path / "serve.log", "w+")
    p = subprocess.Popen([floe_bin, "serve", "--catalog-uri", hms.uri, "--warehouse", str(wh),
                          "--port", "0", "--quiet"],
                         stdout=subprocess.PIPE, stderr=log, text=True)
    line = p.stdout.readline()
    m = re.search(r"http://[0-9.]+:[0-9]+", line)
    if not m:
        p.kill()
        log.seek(0)
        pytest.fail("floe serve did not start: " + line + log.read())
    assert "(hive catalog" in line
    yield m.group(0), str(wh)
    p.terminate()
    p.wait(15)


def test_pyiceberg_and_spark_rest_over_hms(spark, hms, serve_hms, caplog):
    try:
        import pyarrow as pa
        from pyiceberg.catalog.rest import RestCatalog
    except ImportError:
        unavailable("pyiceberg not importable")
    url, wh = serve_hms
    import json
    import urllib.request
    cfg = json.load(urllib.request.urlopen(url + "/v1/config"))
    # a metastore swaps one table at a time: no multi-table transactions advertised
    assert "POST /v1/{prefix}/transactions/commit" not in cfg["endpoints"]
    assert "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}" in cfg["endpoints"]
    db = uniq("sh")
    rc = RestCatalog("svc", uri=url)
    rc.create_namespace(db)
    assert (db,) in rc.list_namespaces()
    t = rc.create_table(f"{db}.events", schema=pa.schema([("id", pa.int64()), ("s", pa.string())]))
    assert wh in t.location() and t.location().rstrip("/").endswith("/events")
    t.append(pa.table({"id": pa.array([1, 2], pa.int64()), "s": ["py", "py"]}))
    py_snap = rc.load_table(f"{db}.events").current_snapshot().snapshot_id

    # Spark's REST catalog through floe serve reads PyIceberg's rows and appends
    rest = add_catalog(spark, uniq("rs"), rest_props(url))
    assert [tuple(r) for r in spark.sql(f"SELECT id, s FROM {rest}.{db}.events ORDER BY id")
            .collect()] == [(1, "py"), (2, "py")]
    spark.sql(f"INSERT INTO {rest}.{db}.events VALUES (3, 'spark-rest')")

    # Spark's HiveCatalog on the same metastore: same table, same snapshots
    hive = add_catalog(spark, uniq("hv"), {"type": "hive", "uri": hms.uri,
                                           "warehouse": "file://" + wh, "cache-enabled": "false"})
    assert [tuple(r) for r in spark.sql(f"SELECT id, s FROM {hive}.{db}.events ORDER BY id")
            .collect()] == [(1, "py"), (2, "py"), (3, "spark-rest")]
    snaps = [r[0] for r in spark.sql(f"SELECT snapshot_id FROM {hive}.{db}.events.snapshots "
                                     "ORDER BY committed_at").collect()]
    assert snaps[0] == py_snap and len(snaps) == 2
    # the HiveCatalog writes; floe serve (and PyIceberg through it) sees the new snapshot
    spark.sql(f"INSERT INTO {hive}.{db}.events VALUES (4, 'spark-hive')")
    t = rc.load_table(f"{db}.events")
    assert len(t.metadata.snapshots) == 3
    assert sorted(r["id"] for r in t.scan().to_arrow().to_pylist()) == [1, 2, 3, 4]
    # a table Spark's HiveCatalog creates is listed and loadable through REST
    spark.sql(f"CREATE TABLE {hive}.{db}.made_by_hive (x INT) USING iceberg")
    assert (db, "made_by_hive") in rc.list_tables(db)
    assert rc.load_table(f"{db}.made_by_hive").schema().find_field("x").field_id == 1

    # commits are compare-and-set through the metastore: a stale base gets a 409, on which
    # PyIceberg refreshes and retries (its log says so); both rows land exactly once
    stale = rc.load_table(f"{db}.events")
    rc.load_table(f"{db}.events").append(pa.table({"id": pa.array([5], pa.int64()), "s": ["a"]}))
    with caplog.at_level(logging.WARNING, logger="pyiceberg"):
        stale.append(pa.table({"id": pa.array([6], pa.int64()), "s": ["b"]}))
    assert "concurrent update" in caplog.text
    assert sorted(r["id"] for r in rc.load_table(f"{db}.events").scan().to_arrow()
                  .to_pylist()) == [1, 2, 3, 4, 5, 6]

    # drop through REST: gone for the HiveCatalog too
    rc.drop_table(f"{db}.made_by_hive")
    assert "made_by_hive" not in [r[1] for r in spark.sql(f"SHOW TABLES IN {hive}.{db}").collect()]
