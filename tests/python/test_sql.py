# SPDX-License-Identifier: Apache-2.0
"""floe.catalog / cat.sql: results, show(), params, errors (floe_sql_* C API)."""
import threading

import pyarrow as pa
import pytest

import floe


def test_sql_roundtrip_and_show(cat, capsys):
    cat.sql("CREATE NAMESPACE shop")
    cat.sql("CREATE TABLE shop.t (id BIGINT, name STRING, ok BOOLEAN, x DOUBLE) USING iceberg")
    r = cat.sql("INSERT INTO shop.t VALUES (1, 'a', true, 1.5), (2, NULL, false, NULL)")
    assert not r.has_rows
    r = cat.sql("SELECT * FROM shop.t ORDER BY id")
    assert r.columns == ["id", "name", "ok", "x"]
    assert r.fetchall() == [(1, "a", True, 1.5), (2, None, False, None)]
    assert r.fetchall()[0].name == "a" and r.first()["id"] == 1
    t = r.to_arrow()
    assert t.schema == pa.schema([("id", pa.int64()), ("name", pa.string()), ("ok", pa.bool_()),
                                  ("x", pa.float64())])
    assert r.to_pandas()["id"].tolist() == [1, 2]
    r.show(truncate=False)
    assert capsys.readouterr().out == (
        "+---+----+-----+----+\n"
        "|id |name|ok   |x   |\n"
        "+---+----+-----+----+\n"
        "|1  |a   |true |1.5 |\n"
        "|2  |NULL|false|NULL|\n"
        "+---+----+-----+----+\n")


def test_params(cat):
    assert cat.sql("SELECT :a + 1 AS v, :s AS s", params={"a": 41, "s": "it's"}).fetchall() == [(42, "it's")]
    assert cat.sql("SELECT ? AS a, ? AS b, ':x' AS c", params=[1, None]).fetchall() == [(1, None, ":x")]
    # quotes and backslashes survive Spark's string-literal escapes; a marker inside a
    # literal with an escaped quote is not substituted
    tricky = "back\\slash 'q' \\"
    assert cat.sql("SELECT :s AS s", params={"s": tricky}).fetchall() == [(tricky,)]
    assert cat.sql("SELECT 'it\\'s :s' AS t, :s AS s", params={"s": "x"}).fetchall() == \
        [("it's :s", "x")]
    with pytest.raises(floe.IllegalArgumentException, match="unbound parameter: b"):
        cat.sql("SELECT :b", params={"a": 1})
    with pytest.raises(TypeError):
        cat.sql("SELECT ?", params=[object()])
    with pytest.raises(TypeError):
        cat.sql("SELECT ?", params=5)


def test_errors_are_iceberg_exceptions(cat):
    with pytest.raises(floe.NoSuchTableException, match="nope"):
        cat.sql("SELECT * FROM db.nope")
    with pytest.raises(floe.ParseException):
        cat.sql("SELEC 1")
    with pytest.raises(floe.NoSuchTableException):
        cat.load_table("db.nope")
    with pytest.raises(TypeError):
        cat.sql(42)
    with pytest.raises(TypeError):
        floe.catalog(warehouse=3)
    e = None
    try:
        cat.sql("SELECT * FROM db.nope")
    except floe.FloeError as ex:
        e = ex
    assert e.code == "FLOE_ENOTFOUND" and isinstance(e, LookupError)


def test_closed_catalog(warehouse):
    c = floe.catalog(warehouse=warehouse)
    c.close()
    c.close()  # twice is fine
    with pytest.raises(floe.IllegalStateException, match="closed"):
        c.sql("SELECT 1")


def test_namespaces_and_tables(cat):
    cat.create_namespace("a")
    cat.sql("CREATE TABLE a.t1 (i INT) USING iceberg")
    assert "a" in cat.list_namespaces()
    assert cat.list_tables("a") == ["a.t1"]
    cat.drop_table("a.t1")
    assert cat.list_tables("a") == []


def test_threads_one_catalog_each(warehouse):
    c0 = floe.catalog(warehouse=warehouse)
    c0.sql("CREATE NAMESPACE s")
    for i in range(4):
        c0.sql("CREATE TABLE s.t%d (i BIGINT) USING iceberg" % i)
    errors = []

    def work(i):
        try:
            c = floe.catalog(warehouse=warehouse)
            t = c.load_table("s.t%d" % i)
            for k in range(5):
                t.append(pa.table({"i": pa.array([k] * 100, pa.int64())}))
            assert c.sql("SELECT count(*) FROM s.t%d" % i).fetchall()[0][0] == 500
            c.close()
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    th = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for x in th:
        x.start()
    for x in th:
        x.join()
    assert errors == []
    c0.close()
