# SPDX-License-Identifier: Apache-2.0
"""Iceberg views (format/view-spec.md) between floe and Spark 3.5 + Iceberg 1.11, both
ways, through Spark's REST catalog on `floe serve` and through Spark's JDBC catalog on
floe's catalog.db: a view one side creates, the other lists, loads and queries; SHOW
VIEWS equal; CREATE OR REPLACE and DROP VIEW seen by the other side; a view of a view.
"""
import os

import pytest

from conftest import Floe, add_catalog, floe_json_rows, jdbc_props, rest_props, uniq


def show_views(rows):
    """Spark's SHOW VIEWS rows without its temporary views: Spark lists the
    session's temporary views in every namespace, and the shared session
    holds other tests' (floe's catalog has none)."""
    return sorted((r[0], r[1], bool(r[2])) for r in rows if not r[2])


def floe_show_views(fl, ns):
    return sorted((r["namespace"], r["viewName"], r["isTemporary"] in (True, "true"))
                  for r in fl.rows(f"SHOW VIEWS IN {ns}"))


def story(spark, fl, c):
    def run(q):
        return spark.sql(q.replace("{c}", c))

    def rows(q):
        return [tuple(r) for r in run(q).collect()]

    fl.sql("CREATE TABLE db.t (id BIGINT, s STRING) USING iceberg",
           "INSERT INTO db.t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    # Spark creates a view; floe lists, loads and queries it
    run("CREATE VIEW {c}.db.sv AS SELECT id, s FROM {c}.db.t WHERE id >= 2")
    assert floe_show_views(fl, "db") == [("db", "sv", False)]
    got = floe_json_rows(fl.sql("SELECT * FROM db.sv ORDER BY id").stdout)
    assert got == [{"id": "2", "s": "b"}, {"id": "3", "s": "c"}]
    assert [r["tableName"] for r in fl.rows("SHOW TABLES IN db")] == ["t"]
    # DESCRIBE [EXTENDED] as Spark's DescribeV2ViewExec
    for q in ("DESCRIBE {c}.db.sv", "DESCRIBE TABLE EXTENDED {c}.db.sv"):
        theirs = [tuple(r) for r in rows(q)]
        ours = [(r["col_name"], r["data_type"], r["comment"])
                for r in fl.rows(q.replace("{c}.", ""))]
        assert ours == theirs, q
    # floe creates one (column alias with a comment, a view comment); Spark queries it
    fl.sql("CREATE VIEW db.fv (ident COMMENT 'the id', s) COMMENT 'made by floe' "
           "AS SELECT id, s FROM db.t WHERE id < 3")
    assert rows("SELECT * FROM {c}.db.fv ORDER BY ident") == [(1, "a"), (2, "b")]
    assert show_views(rows("SHOW VIEWS IN {c}.db")) == floe_show_views(fl, "db") == \
        [("db", "fv", False), ("db", "sv", False)]
    desc = {r[0]: r[1] for r in rows("DESCRIBE TABLE EXTENDED {c}.db.fv")}
    assert desc.get("Comment") == "made by floe"
    cols = [(r[0], r[1], r[2]) for r in rows("DESCRIBE {c}.db.fv")][:2]
    assert cols[0] == ("ident", "bigint", "the id") and cols[1][0] == "s"
    # a view of a view, across engines
    fl.sql("CREATE VIEW db.vv AS SELECT count(*) AS n FROM db.sv")
    assert rows("SELECT n FROM {c}.db.vv") == [(2,)]
    # replace both ways
    run("CREATE OR REPLACE VIEW {c}.db.fv AS SELECT count(*) AS n FROM {c}.db.t")
    assert floe_json_rows(fl.sql("SELECT * FROM db.fv").stdout) == [{"n": "3"}]
    fl.sql("CREATE OR REPLACE VIEW db.sv AS SELECT s FROM db.t WHERE id = 1")
    assert rows("SELECT * FROM {c}.db.sv") == [("a",)]
    assert floe_json_rows(fl.sql("SELECT n FROM db.vv").stdout) == [{"n": "1"}]
    # drop both ways
    run("DROP VIEW {c}.db.sv")
    err = fl.error("SELECT * FROM db.sv")
    assert "does not exist: db.sv" in err
    fl.sql("DROP VIEW db.fv", "DROP VIEW db.vv")
    assert show_views(rows("SHOW VIEWS IN {c}.db")) == []
    assert floe_show_views(fl, "db") == []
    # a view and a table cannot share a name
    assert "already exists" in fl.error("CREATE VIEW db.t AS SELECT 1 AS x")
    with pytest.raises(Exception):
        run("CREATE VIEW {c}.db.t AS SELECT 1 AS x")


def test_views_spark_rest_on_floe_serve(spark, floe_serve, warehouse):
    name = uniq("rv")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE db")
    srv = floe_serve(warehouse, name)
    cat = add_catalog(spark, name, rest_props(srv.url))
    # floe through its REST client too
    story(spark, fl, cat)
    fr = Floe(warehouse, name, uri=srv.url)
    fr.sql("CREATE VIEW db.over_rest AS SELECT id FROM db.t WHERE id = 3")
    assert [tuple(r) for r in spark.sql(f"SELECT * FROM {cat}.db.over_rest").collect()] == [(3,)]
    assert floe_json_rows(fr.sql("SELECT * FROM db.over_rest").stdout) == [{"id": "3"}]
    assert floe_show_views(fr, "db") == [("db", "over_rest", False)]


def test_views_spark_jdbc_on_floe_catalog_db(spark, warehouse):
    name = uniq("jv")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE db")
    cat = add_catalog(spark, name, jdbc_props(os.path.join(warehouse, "catalog.db"), warehouse))
    story(spark, fl, cat)
