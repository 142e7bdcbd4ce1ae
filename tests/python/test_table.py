# SPDX-License-Identifier: Apache-2.0
"""Table scans and writes over the Arrow C stream interface; bad input."""
import datetime
import os
import subprocess
import sys

import pyarrow as pa
import pytest

import floe
from conftest import orders


def test_append_scan_roundtrip(table):
    assert table.current_snapshot_id() is None
    assert table.to_arrow().num_rows == 0
    s1 = table.append(orders([1, 2, 3]))
    assert s1 == table.current_snapshot_id()
    s2 = table.append(orders([4, 5], day="2026-09-21").to_pandas())
    out = table.scan().to_arrow().sort_by("order_id")
    assert out.column("order_id").to_pylist() == [1, 2, 3, 4, 5]
    assert out.schema.field("amount").type == pa.decimal128(10, 2)
    assert table.scan(snapshot_id=s1).to_arrow().num_rows == 3
    assert table.scan(filter="order_date = '2026-09-21'").to_arrow().num_rows == 2
    r = table.scan(filter="order_id >= 4", columns=["customer"]).to_arrow()
    assert r.column_names == ["customer"] and sorted(r.column(0).to_pylist()) == ["c4", "c5"]
    assert table.scan(limit=2).to_arrow().num_rows == 2
    assert sum(b.num_rows for b in table.scan().to_batches()) == 5
    assert table.scan(filter="order_id = 1").plan_files() and len(table.scan().plan_files()) == 2
    assert s2 in table.snapshot_ids()


def test_append_reader_and_empty(table):
    reader = pa.RecordBatchReader.from_batches(orders([1]).schema, orders([1, 2]).to_batches())
    table.append(reader)
    assert table.append(orders([])) is None  # nothing to commit
    assert len(table.snapshot_ids()) == 1


def test_append_casts_and_rejects(table):
    t = pa.table({"order_id": pa.array([1], pa.int32()), "customer": ["x"],
                  "amount": pa.array([1.5]), "order_date": [datetime.date(2026, 9, 20)]})
    table.append(t)  # int32 -> long, double -> decimal(10,2)
    assert table.to_arrow().column("order_id").type == pa.int64()
    before = table.snapshot_ids()
    with pytest.raises(floe.IllegalArgumentException, match="unknown columns"):
        table.append(pa.table({"nope": [1]}))
    with pytest.raises(TypeError):
        table.append([1, 2, 3])
    with pytest.raises(floe.IllegalArgumentException):
        table.append(pa.table({"order_id": ["not a number"]}))
    assert table.refresh().snapshot_ids() == before  # nothing committed


def test_overwrite_and_delete(table):
    table.append(orders([1, 2]))
    table.append(orders([3], day="2026-09-21"))
    table.overwrite(orders([9], day="2026-09-21"), filter="order_date = '2026-09-21'")
    assert sorted(table.to_arrow().column("order_id").to_pylist()) == [1, 2, 9]
    assert table.delete("order_id = 1") is not None
    assert sorted(table.to_arrow().column("order_id").to_pylist()) == [2, 9]
    assert table.delete("order_id = 12345") is None  # nothing matched: no snapshot
    table.overwrite(orders([7]))
    assert table.to_arrow().column("order_id").to_pylist() == [7]
    with pytest.raises(floe.ValidationException):  # Java Binder: Cannot find field ...
        table.delete("no_such_column = 1")
    with pytest.raises(TypeError):
        table.delete(5)


def test_scan_bad_input(table):
    sid = table.append(orders([1]))
    with pytest.raises(floe.FloeError, match="Cannot find snapshot with ID 42"):
        table.scan(snapshot_id=42).to_arrow()
    with pytest.raises(floe.FloeError, match="reference name for version nope"):
        table.scan(ref="nope").to_arrow()
    with pytest.raises(floe.FloeError, match="Cannot find a snapshot older than"):
        table.scan(as_of=datetime.datetime(2000, 1, 1)).to_arrow()
    with pytest.raises(floe.IllegalArgumentException):
        table.scan(filter="order_id >").to_arrow()
    with pytest.raises(floe.IllegalArgumentException):
        table.scan(columns=["nope"]).to_arrow()
    with pytest.raises(TypeError):
        table.scan(snapshot_id="1")
    with pytest.raises(TypeError):
        table.scan(columns="order_id")
    with pytest.raises(TypeError):
        table.scan(limit=-1)
    assert table.current_snapshot_id() == sid


def test_closed_table(table, cat):
    table.append(orders([1]))
    t2 = cat.load_table("shop.orders")
    t2.close()
    with pytest.raises(floe.IllegalStateException, match="closed"):
        t2.scan().to_arrow()
    with pytest.raises(floe.IllegalStateException):
        t2.append(orders([2]))
    with pytest.raises(floe.IllegalStateException):
        t2.history()
    assert table.refresh().to_arrow().num_rows == 1


def test_refresh_sees_other_writers(table, warehouse):
    other = floe.catalog(warehouse=warehouse)
    ot = other.load_table("shop.orders")
    ot.append(orders([1]))
    assert table.current_snapshot_id() is None
    assert table.refresh().current_snapshot_id() == ot.current_snapshot_id()
    other.close()


_LEAK_LOOP = """
import gc, sys
import floe
def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
cat = floe.catalog(warehouse=sys.argv[1])
t = cat.load_table("big.t")
early, late = [], []
for i in range(200):
    got = t.scan().to_arrow()
    assert got.num_rows == 1_000_000
    del got
    if 20 <= i < 40 or 180 <= i:
        gc.collect()
        (early if i < 40 else late).append(rss_kb())
print(min(late) - max(early), early, late)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_million_row_scan_does_not_leak(cat, warehouse):
    cat.sql("CREATE NAMESPACE big")
    cat.sql("CREATE TABLE big.t (id BIGINT, v DOUBLE) USING iceberg")
    t = cat.load_table("big.t")
    n = 1_000_000
    t.append(pa.table({"id": pa.array(range(n), pa.int64()), "v": pa.array([0.5] * n)}))
    # 200 scans in a fresh interpreter with one malloc arena: glibc gives
    # each decode thread an arena of its own otherwise, and their freed pages
    # step RSS up and down by up to 12 MB without any leak. Flat after
    # warm-up: the late window's floor against the early window's ceiling
    # grows less than 1/4 of one scan's data (16 MB) over 140 scans, so a
    # leak of 30 KB a scan fails.
    env = dict(os.environ, MALLOC_ARENA_MAX="1")
    out = subprocess.run([sys.executable, "-c", _LEAK_LOOP, str(warehouse)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    growth = int(out.stdout.split()[0])
    assert growth < 4 * 1024, out.stdout


def test_append_many_partitions_bounded_open_files(cat):
    # one append over more partitions than the process may open files: the
    # writer keeps a bounded number of partition files open at once
    import resource
    cat.sql("CREATE NAMESPACE IF NOT EXISTS p")
    cat.sql("CREATE TABLE p.t (id BIGINT, p BIGINT) USING iceberg PARTITIONED BY (p)")
    t = cat.load_table("p.t")
    n = 800
    ids = pa.array(range(n), pa.int64())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(500, hard), hard))
    try:
        t.append(pa.table({"id": ids, "p": ids}))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert t.files().num_rows == n  # still one file per partition
    assert sorted(t.to_arrow().column("id").to_pylist()) == list(range(n))
