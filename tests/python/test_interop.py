# SPDX-License-Identifier: Apache-2.0
"""Interop with PyIceberg 0.12 on one SQLite (JDBC-schema) catalog: PyIceberg
reads what floe-python writes and floe-python reads what PyIceberg writes,
at every snapshot."""
import os

import pyarrow as pa
import pytest

import floe
from conftest import ORDERS_DDL, orders

if os.environ.get("CI") == "true":
    import pyiceberg  # noqa: F401  (under CI a missing peer is a failure, never a skip)
else:
    pyiceberg = pytest.importorskip("pyiceberg")
from pyiceberg.catalog.sql import SqlCatalog  # noqa: E402


def py_catalog(warehouse):
    return SqlCatalog("local", uri="sqlite:///%s/catalog.db" % warehouse,
                      warehouse="file://%s" % warehouse)


def rows(t):
    return sorted(t.column("order_id").to_pylist())


def test_pyiceberg_reads_floe_writes(cat, warehouse):
    cat.sql("CREATE NAMESPACE shop")
    cat.sql(ORDERS_DDL)
    t = cat.load_table("shop.orders")
    want = {}
    want[t.append(orders([1, 2]))] = [1, 2]
    want[t.append(orders([3], day="2026-09-21"))] = [1, 2, 3]
    want[t.delete("order_id = 2")] = [1, 3]
    want[t.overwrite(orders([7, 8]), filter="order_date = '2026-09-21'")] = [1, 7, 8]
    pt = py_catalog(warehouse).load_table("shop.orders")
    assert pt.metadata.current_snapshot_id == t.current_snapshot_id()
    for sid, ids in want.items():
        got = pt.scan(snapshot_id=sid).to_arrow()
        assert rows(got) == ids, sid
        assert got.schema.field("amount").type == pa.decimal128(10, 2)
    assert rows(pt.scan(row_filter="order_id >= 7").to_arrow()) == [7, 8]


def test_floe_reads_pyiceberg_writes(cat, warehouse):
    pc = py_catalog(warehouse)
    pc.create_namespace("shop")
    schema = orders([1]).schema
    pt = pc.create_table("shop.orders", schema=schema)
    want = {}
    pt.append(orders([1, 2]))
    want[pt.metadata.current_snapshot_id] = [1, 2]
    pt.append(orders([3], day="2026-09-21"))
    want[pt.metadata.current_snapshot_id] = [1, 2, 3]
    pt.delete("order_id == 2")
    want[pt.metadata.current_snapshot_id] = [1, 3]
    pt.overwrite(orders([9]))
    want[pt.metadata.current_snapshot_id] = [9]
    t = cat.load_table("shop.orders")
    assert t.current_snapshot_id() == pt.metadata.current_snapshot_id
    for sid, ids in want.items():
        assert rows(t.scan(snapshot_id=sid).to_arrow()) == ids, sid
        assert cat.sql("SELECT count(*) FROM shop.orders VERSION AS OF %d" % sid).fetchall()[0][0] == len(ids)
    # and floe writes on top of PyIceberg's table, PyIceberg reads it back
    sid = t.append(orders([10]))
    assert rows(pc.load_table("shop.orders").scan(snapshot_id=sid).to_arrow()) == [9, 10]
