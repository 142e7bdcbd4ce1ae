# SPDX-License-Identifier: Apache-2.0
"""Iceberg views between floe and PyIceberg 0.12 through `floe serve` (PyIceberg's
REST catalog): a view floe creates, PyIceberg lists, loads (SQL, dialect, schema) and
drops; a view PyIceberg creates, floe lists and queries.
"""
import time

from conftest import Floe, floe_json_rows, uniq, unavailable


def test_views_pyiceberg_on_floe_serve(floe_serve, warehouse):
    try:
        import pyarrow as pa
        from pyiceberg.catalog.rest import RestCatalog
        from pyiceberg.view.metadata import SQLViewRepresentation, ViewVersion
    except ImportError:
        unavailable("pyiceberg not importable")
    name = uniq("pyv")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE db",
           "CREATE TABLE db.t (id BIGINT, s STRING) USING iceberg",
           "INSERT INTO db.t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
           "CREATE VIEW db.fv AS SELECT id, s FROM db.t WHERE id < 3")
    srv = floe_serve(warehouse, name)
    cat = RestCatalog(name, uri=srv.url)
    # floe's view, seen by PyIceberg
    assert cat.list_views("db") == [("db", "fv")]
    assert cat.view_exists("db.fv") and not cat.view_exists("db.nope")
    v = cat.load_view("db.fv")
    rep = v.metadata.versions[-1].representations[0].root
    assert (rep.dialect, rep.sql) == ("spark", "SELECT id, s FROM db.t WHERE id < 3")
    assert [f.name for f in v.schema().fields] == ["id", "s"]
    assert cat.list_tables("db") == [("db", "t")]  # a view is not a table
    # PyIceberg's view, seen and queried by floe
    version = ViewVersion(
        version_id=1, schema_id=0, timestamp_ms=int(time.time() * 1000),
        summary={"engine-name": "pyiceberg"}, default_namespace=["db"],
        representations=[SQLViewRepresentation(type="sql", sql="SELECT id FROM db.t WHERE id > 1",
                                               dialect="spark")])
    cat.create_view("db.pv", pa.schema([pa.field("id", pa.int64())]), version)
    got = [(r["namespace"], r["viewName"]) for r in fl.rows("SHOW VIEWS IN db")]
    assert sorted(got) == [("db", "fv"), ("db", "pv")]
    rows = floe_json_rows(fl.sql("SELECT * FROM db.pv ORDER BY id").stdout)
    assert rows == [{"id": "2"}, {"id": "3"}]
    # dropped by PyIceberg, gone for floe
    cat.drop_view("db.fv")
    assert "does not exist: db.fv" in fl.error("SELECT * FROM db.fv")
    assert cat.list_views("db") == [("db", "pv")]
