# SPDX-License-Identifier: Apache-2.0
"""Fixtures of floe-python's tests: a fresh SQLite-catalog warehouse per test."""
import datetime
import decimal

import pyarrow as pa
import pytest

import floe


@pytest.fixture
def warehouse(tmp_path):
    return str(tmp_path / "wh")


@pytest.fixture
def cat(warehouse):
    c = floe.catalog(warehouse=warehouse)
    yield c
    c.close()


ORDERS_DDL = ("CREATE TABLE shop.orders (order_id BIGINT, customer STRING, amount DECIMAL(10,2), "
              "order_date DATE) USING iceberg PARTITIONED BY (order_date)")


def orders(ids, day="2026-09-20"):
    """A pyarrow table of orders with the given ids."""
    return pa.table({
        "order_id": pa.array(ids, pa.int64()),
        "customer": pa.array(["c%d" % i for i in ids]),
        "amount": pa.array([decimal.Decimal("%d.50" % i) for i in ids], pa.decimal128(10, 2)),
        "order_date": pa.array([datetime.date.fromisoformat(day)] * len(ids), pa.date32()),
    })


@pytest.fixture
def table(cat):
    cat.sql("CREATE NAMESPACE IF NOT EXISTS shop")
    cat.sql(ORDERS_DDL)
    t = cat.load_table("shop.orders")
    yield t
    t.close()
