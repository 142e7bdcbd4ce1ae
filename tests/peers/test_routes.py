# SPDX-License-Identifier: Apache-2.0
"""The ways the peers reach floe's tables (issue #19 item 3), each both directions:
(a) Spark's REST catalog against `floe serve --warehouse W`;
(b) Spark's JDBC catalog on floe's W/catalog.db (floe committing to the file meanwhile is
    tests/peers/test_concurrency.py);
(c) PyIceberg's SqlCatalog on the same catalog.db and its RestCatalog against floe serve;
plus floe's S3 FileIO and Spark's S3FileIO on one S3Proxy bucket.
"""
import os

from conftest import (Floe, add_catalog, floe_json_rows, jdbc_props, rest_props, uniq,
                      unavailable)


def story(fl, spark_sql, spark_rows_of, name):
    """floe writes, the peer reads; the peer writes, floe reads."""
    fl.sql("CREATE NAMESPACE IF NOT EXISTS shop",
           f"CREATE TABLE shop.{name} (id BIGINT, amount DECIMAL(10,2), s STRING) USING iceberg",
           f"INSERT INTO shop.{name} VALUES (1, '1.10', 'floe'), (2, '2.20', 'floe')")
    assert spark_rows_of(f"SELECT id, CAST(amount AS STRING) AS a, s FROM {{c}}.shop.{name} "
                         "ORDER BY id") == [(1, "1.10", "floe"), (2, "2.20", "floe")]
    spark_sql(f"INSERT INTO {{c}}.shop.{name} VALUES (3, 3.30BD, 'spark')")
    got = floe_json_rows(fl.sql(f"SELECT * FROM shop.{name} ORDER BY id").stdout)
    assert got == [{"id": "1", "amount": "1.10", "s": "floe"},
                   {"id": "2", "amount": "2.20", "s": "floe"},
                   {"id": "3", "amount": "3.30", "s": "spark"}]
    ops = [r["operation"] for r in fl.rows(f"SELECT operation FROM shop.{name}.snapshots "
                                            "ORDER BY committed_at")]
    assert ops == ["append", "append"]


def spark_helpers(spark, cat):
    def run(q):
        return spark.sql(q.replace("{c}", cat))

    def rows(q):
        return [tuple(r) for r in run(q).collect()]
    return run, rows


def test_a_spark_rest_on_floe_serve(spark, floe_serve, warehouse):
    name = uniq("rest")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE shop")
    srv = floe_serve(warehouse, name)
    cat = add_catalog(spark, name, rest_props(srv.url))
    run, rows = spark_helpers(spark, cat)
    story(fl, run, rows, "r")
    # Spark creates through REST, floe (on the file) reads and writes it
    run("CREATE TABLE {c}.shop.made_by_spark (id INT, d DATE) USING iceberg PARTITIONED BY (d)")
    run("INSERT INTO {c}.shop.made_by_spark VALUES (1, DATE'2026-09-20')")
    fl.sql("INSERT INTO shop.made_by_spark VALUES (2, DATE'2026-09-21')")
    assert rows("SELECT id FROM {c}.shop.made_by_spark ORDER BY id") == [(1,), (2,)]
    loc = fl.rows("DESCRIBE TABLE EXTENDED shop.made_by_spark")
    where = [r["data_type"] for r in loc if r["col_name"] == "Location"][0]
    assert where.rstrip("/").endswith("shop.db/made_by_spark")


def test_b_spark_jdbc_on_floe_catalog_db(spark, warehouse):
    name = uniq("jdbc")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE shop")
    cat = add_catalog(spark, name, jdbc_props(os.path.join(warehouse, "catalog.db"), warehouse))
    run, rows = spark_helpers(spark, cat)
    story(fl, run, rows, "j")


def test_b_spark_jdbc_on_s3(spark, s3, tmp_path):
    """floe's S3 FileIO and Spark's S3FileIO on one S3Proxy bucket (SigV4 verified)."""
    name = uniq("s3")
    db = str(tmp_path / "catalog.db")
    wh = f"s3://warehouse/{name}"
    fl = Floe(wh, name, db=db, s3=s3)
    fl.sql("CREATE NAMESPACE shop")
    cat = add_catalog(spark, name, jdbc_props(db, wh, s3))
    run, rows = spark_helpers(spark, cat)
    story(fl, run, rows, "s")
    keys = s3.objects(name)
    assert any(k.endswith(".parquet") for k in keys) and any(k.endswith(".metadata.json")
                                                            for k in keys)
    # a wrong secret is refused by the server: the signature is really checked
    bad = Floe(wh, name, db=db, s3=s3)
    bad_args = bad.args()
    i = bad_args.index("s3.secret-access-key=" + "floe/peer+SECRET=key")
    bad_args[i] = "s3.secret-access-key=wrong"
    from conftest import floe_run
    p = floe_run(bad_args + ["-c", "SELECT count(*) FROM shop.s"], check=False)
    assert p.returncode != 0 and ("403" in p.stderr or "SignatureDoesNotMatch" in p.stderr), \
        p.stderr


def test_c_pyiceberg_sql_and_rest(floe_serve, warehouse):
    try:
        import pyarrow as pa
        from pyiceberg.catalog.rest import RestCatalog
        from pyiceberg.catalog.sql import SqlCatalog
    except ImportError:
        unavailable("pyiceberg not importable")
    name = uniq("py")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE shop",
           "CREATE TABLE shop.p (id BIGINT, s STRING) USING iceberg PARTITIONED BY (bucket(2, id))",
           "INSERT INTO shop.p VALUES (1, 'floe'), (2, 'floe')")
    sqlc = SqlCatalog(name, uri="sqlite:///" + os.path.join(warehouse, "catalog.db"),
                      warehouse="file://" + warehouse)
    t = sqlc.load_table("shop.p")
    assert sorted(t.scan().to_arrow().to_pylist(), key=lambda r: r["id"]) == \
        [{"id": 1, "s": "floe"}, {"id": 2, "s": "floe"}]
    t.append(pa.table({"id": pa.array([3], pa.int64()), "s": ["pyiceberg-sql"]}))
    assert fl.scalar("SELECT count(*) FROM shop.p") == 3

    srv = floe_serve(warehouse, name)
    rc = RestCatalog(name, uri=srv.url)
    t = rc.load_table("shop.p")
    assert len(t.scan().to_arrow()) == 3
    t.append(pa.table({"id": pa.array([4], pa.int64()), "s": ["pyiceberg-rest"]}))
    got = fl.rows("SELECT id, s FROM shop.p ORDER BY id")
    assert [(r["id"], r["s"]) for r in got] == [(1, "floe"), (2, "floe"), (3, "pyiceberg-sql"),
                                                (4, "pyiceberg-rest")]
    # PyIceberg creates through REST; floe reads it
    rc.create_table("shop.made_by_py", schema=pa.schema([("x", pa.int32())]))
    rc.load_table("shop.made_by_py").append(pa.table({"x": pa.array([7], pa.int32())}))
    assert fl.scalar("SELECT sum(x) FROM shop.made_by_py") == 7


def test_c_pyiceberg_types_spark_sql_cannot_create(spark, warehouse):
    """uuid, fixed(3) and time columns written by PyIceberg: floe reads them exactly,
    Spark reads the uuid (as a string) and the fixed (as binary) the same."""
    try:
        import datetime
        import uuid as uuidlib

        import pyarrow as pa
        from pyiceberg.catalog.sql import SqlCatalog
        from pyiceberg.schema import Schema
        from pyiceberg.types import FixedType, LongType, NestedField, TimeType, UUIDType
    except ImportError:
        unavailable("pyiceberg not importable")
    name = uniq("ty")
    Floe(warehouse, name).sql("CREATE NAMESPACE db")
    c = SqlCatalog(name, uri="sqlite:///" + os.path.join(warehouse, "catalog.db"),
                   warehouse="file://" + warehouse)
    u = uuidlib.UUID("12345678-1234-5678-1234-567812345678")
    for tname, extra in (("with_time", [NestedField(4, "t", TimeType(), required=False)]),
                         ("no_time", [])):
        s = Schema(NestedField(1, "id", LongType(), required=False),
                   NestedField(2, "u", UUIDType(), required=False),
                   NestedField(3, "fx", FixedType(3), required=False), *extra)
        t = c.create_table(f"db.{tname}", schema=s)
        row = {"id": 1, "u": u.bytes, "fx": b"abc"}
        if extra:
            row["t"] = datetime.time(1, 2, 3, 456789)
        t.append(pa.Table.from_pylist([row], schema=t.schema().as_arrow()))
    fl = Floe(warehouse, name)
    assert fl.rows("SELECT * FROM db.with_time") == [
        {"id": 1, "u": str(u), "fx": "616263", "t": "01:02:03.456789"}]
    cat = add_catalog(spark, name, jdbc_props(os.path.join(warehouse, "catalog.db"), warehouse))
    got = [tuple(r) for r in spark.sql(f"SELECT id, u, hex(fx) FROM {cat}.db.no_time").collect()]
    assert got == [(1, str(u), "616263")]
    assert fl.rows("SELECT id, u, fx FROM db.no_time") == [{"id": 1, "u": str(u), "fx": "616263"}]
