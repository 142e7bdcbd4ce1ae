# SPDX-License-Identifier: Apache-2.0
"""Server-side scan planning of `floe serve` (issue #27): Spark 3.5 with the Iceberg 1.11
runtime and PyIceberg, both with the catalog property `scan-planning-mode=server` (Java's
RESTCatalogProperties.SCAN_PLANNING_MODE, PyIceberg's SCAN_PLANNING_MODE), read a
floe-served table through POST .../plan (+ POST .../tasks for the chunks of a large plan)
with the same rows as client-side planning; a filtered plan prunes files.
"""
import json
import urllib.request

from conftest import add_catalog, Floe, rest_props, spark_rows, uniq, unavailable


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, json.loads(r.read() or b"null")


def make_table(fl):
    fl.sql("CREATE NAMESPACE shop",
           "CREATE TABLE shop.t (id BIGINT, region STRING, amount DECIMAL(10,2), d DATE) "
           "USING iceberg PARTITIONED BY (region) "
           "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')",
           "INSERT INTO shop.t VALUES (1, 'eu', 1.10, DATE'2026-01-01'), "
           "(2, 'us', 2.20, DATE'2026-01-02'), (3, 'eu', 3.30, DATE'2026-01-03')",
           "INSERT INTO shop.t VALUES (4, 'ap', 4.40, DATE'2026-01-04')",
           "INSERT INTO shop.t VALUES (5, 'us', 5.50, DATE'2026-01-05')",
           "DELETE FROM shop.t WHERE id = 3")


def access_log_plans(srv):
    srv.log.flush()
    srv.log.seek(0)
    return sum(1 for line in srv.log if "POST" in line and "/tables/t/plan" in line)


def test_spark_server_side_planning(spark, floe_serve, warehouse):
    name = uniq("plan")
    fl = Floe(warehouse, name)
    make_table(fl)
    srv = floe_serve(warehouse, name, quiet=False)
    local = add_catalog(spark, name + "_client", rest_props(srv.url))
    remote = add_catalog(spark, name + "_server",
                         {**rest_props(srv.url), "scan-planning-mode": "server"})
    q = "SELECT id, region, CAST(amount AS STRING) AS a, d FROM {c}.shop.t"
    before = access_log_plans(srv)
    for where in ("", " WHERE region = 'us'", " WHERE id > 1 AND amount < 5",
                  " WHERE d >= DATE'2026-01-03'"):
        want = spark_rows(spark.sql(q.replace("{c}", local) + where))
        got = spark_rows(spark.sql(q.replace("{c}", remote) + where))
        assert got == want, where
        assert want, where
    # the server-planning catalog really planned on the server (client planning never
    # posts a plan)
    assert access_log_plans(srv) > before
    # a filtered plan prunes files: three partitions, one survives
    _, all_ = post(f"{srv.url}/v1/namespaces/shop/tables/t/plan", {})
    _, us = post(f"{srv.url}/v1/namespaces/shop/tables/t/plan",
                 {"filter": {"type": "eq", "term": "region", "value": "us"}})
    assert all_["status"] == "completed" and us["status"] == "completed"
    assert len(all_["file-scan-tasks"]) == 4
    assert len(us["file-scan-tasks"]) == 2
    assert {t["data-file"]["partition"][0] for t in us["file-scan-tasks"]} == {"us"}
    # the merge-on-read delete travels as a delete file referenced by its data file
    refs = [t for t in all_["file-scan-tasks"] if t.get("delete-file-references")]
    assert len(all_["delete-files"]) == 1 and len(refs) == 1
    assert all_["delete-files"][0]["content"] == "position-deletes"
    # Spark's time travel through the server (snapshot-id + use-snapshot-schema)
    snaps = [r["snapshot_id"] for r in fl.rows("SELECT snapshot_id FROM shop.t.snapshots "
                                                "ORDER BY committed_at")]
    tt = q + f" VERSION AS OF {snaps[1]}"
    assert spark_rows(spark.sql(tt.replace("{c}", remote))) == \
        spark_rows(spark.sql(tt.replace("{c}", local)))


def test_spark_paginated_plan(spark, floe_serve, warehouse):
    """A plan larger than one chunk: the first chunk inline, the rest as plan tasks that
    Spark fetches from POST .../tasks."""
    name = uniq("plantasks")
    fl = Floe(warehouse, name)
    make_table(fl)
    srv = floe_serve(warehouse, name, extra=("--plan-task-size", "1"), quiet=False)
    _, r = post(f"{srv.url}/v1/namespaces/shop/tables/t/plan", {})
    assert len(r["file-scan-tasks"]) == 1 and len(r["plan-tasks"]) == 3
    status, chunk = post(f"{srv.url}/v1/namespaces/shop/tables/t/tasks",
                         {"plan-task": r["plan-tasks"][0]})
    assert status == 200 and len(chunk["file-scan-tasks"]) == 1
    local = add_catalog(spark, name + "_client", rest_props(srv.url))
    remote = add_catalog(spark, name + "_server",
                         {**rest_props(srv.url), "scan-planning-mode": "server"})
    q = "SELECT id, region FROM {c}.shop.t"
    assert spark_rows(spark.sql(q.replace("{c}", remote))) == \
        spark_rows(spark.sql(q.replace("{c}", local)))
    srv.log.flush()
    srv.log.seek(0)
    assert any("/tables/t/tasks" in line for line in srv.log)


def test_pyiceberg_server_side_planning(floe_serve, warehouse):
    try:
        from pyiceberg.catalog.rest import RestCatalog
        from pyiceberg.expressions import EqualTo
    except ImportError:
        unavailable("pyiceberg not importable")
    name = uniq("pyplan")
    fl = Floe(warehouse, name)
    make_table(fl)
    srv = floe_serve(warehouse, name, extra=("--plan-task-size", "2"), quiet=False)
    client = RestCatalog(name, uri=srv.url)
    server = RestCatalog(name, uri=srv.url, **{"scan-planning-mode": "server"})
    assert server.supports_server_side_planning()
    for flt in (None, EqualTo("region", "us")):
        kw = {"row_filter": flt} if flt is not None else {}
        want = client.load_table("shop.t").scan(**kw).to_arrow().sort_by("id")
        got = server.load_table("shop.t").scan(**kw).to_arrow().sort_by("id")
        assert got.to_pylist() == want.to_pylist()
    tasks = list(server.load_table("shop.t").scan(row_filter=EqualTo("region", "us"))
                 .plan_files())
    assert len(tasks) == 2
