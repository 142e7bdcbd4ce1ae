# SPDX-License-Identifier: Apache-2.0
"""Metadata tables as Arrow (floe_metadata_table_stream, include/floe/meta.h):
Spark's column names and types (Iceberg 1.11's *Table schemas, written out
here by hand), values equal to what PyIceberg 0.12's ``inspect`` returns for
the same table, time travel with Iceberg's messages, and streaming."""
import datetime
import os

import pyarrow as pa
import pytest

import floe
from conftest import ORDERS_DDL, orders

if os.environ.get("CI") == "true":
    import pyiceberg  # noqa: F401
else:
    pyiceberg = pytest.importorskip("pyiceberg")
from pyiceberg.catalog.sql import SqlCatalog  # noqa: E402

TSTZ = pa.timestamp("us", tz="UTC")
I32, I64, STR, BOOL, BIN = pa.int32(), pa.int64(), pa.string(), pa.bool_(), pa.binary()


def m(k, v):
    return pa.map_(k, v)


# Spark's types of the orders table's metadata tables (ORDERS_DDL: partitioned by order_date).
PARTITION = pa.struct([("order_date", pa.date32())])


def metrics(t):
    return pa.struct([("column_size", I64), ("value_count", I64), ("null_value_count", I64),
                      ("nan_value_count", I64), ("lower_bound", t), ("upper_bound", t)])


READABLE = pa.struct([("amount", metrics(pa.decimal128(10, 2))), ("customer", metrics(STR)),
                      ("order_date", metrics(pa.date32())), ("order_id", metrics(I64))])
DATA_FILE = [("content", I32), ("file_path", STR), ("file_format", STR), ("spec_id", I32),
             ("partition", PARTITION), ("record_count", I64), ("file_size_in_bytes", I64),
             ("column_sizes", m(I32, I64)), ("value_counts", m(I32, I64)),
             ("null_value_counts", m(I32, I64)), ("nan_value_counts", m(I32, I64)),
             ("lower_bounds", m(I32, BIN)), ("upper_bounds", m(I32, BIN)),
             ("key_metadata", BIN), ("split_offsets", pa.list_(I64)),
             ("equality_ids", pa.list_(I32)), ("sort_order_id", I32), ("first_row_id", I64),
             ("referenced_data_file", STR), ("content_offset", I64),
             ("content_size_in_bytes", I64)]
SPARK_TYPES = {
    "snapshots": [("committed_at", TSTZ), ("snapshot_id", I64), ("parent_id", I64),
                  ("operation", STR), ("manifest_list", STR), ("summary", m(STR, STR))],
    "history": [("made_current_at", TSTZ), ("snapshot_id", I64), ("parent_id", I64),
                ("is_current_ancestor", BOOL)],
    "refs": [("name", STR), ("type", STR), ("snapshot_id", I64), ("max_reference_age_in_ms", I64),
             ("min_snapshots_to_keep", I32), ("max_snapshot_age_in_ms", I64)],
    "metadata_log_entries": [("timestamp", TSTZ), ("file", STR), ("latest_snapshot_id", I64),
                             ("latest_schema_id", I32), ("latest_sequence_number", I64)],
    "files": DATA_FILE + [("readable_metrics", READABLE)],
    "manifests": [("content", I32), ("path", STR), ("length", I64), ("partition_spec_id", I32),
                  ("added_snapshot_id", I64), ("added_data_files_count", I32),
                  ("existing_data_files_count", I32), ("deleted_data_files_count", I32),
                  ("added_delete_files_count", I32), ("existing_delete_files_count", I32),
                  ("deleted_delete_files_count", I32),
                  ("partition_summaries", pa.list_(pa.struct([
                      ("contains_null", BOOL), ("contains_nan", BOOL), ("lower_bound", STR),
                      ("upper_bound", STR)])))],
    "entries": [("status", I32), ("snapshot_id", I64), ("sequence_number", I64),
                ("file_sequence_number", I64), ("data_file", pa.struct(DATA_FILE)),
                ("readable_metrics", READABLE)],
    "partitions": [("partition", PARTITION), ("spec_id", I32), ("record_count", I64),
                   ("file_count", I32), ("total_data_file_size_in_bytes", I64),
                   ("position_delete_record_count", I64), ("position_delete_file_count", I32),
                   ("equality_delete_record_count", I64), ("equality_delete_file_count", I32),
                   ("last_updated_at", TSTZ), ("last_updated_snapshot_id", I64)],
}
SPARK_TYPES["data_files"] = SPARK_TYPES["all_files"] = SPARK_TYPES["files"]
SPARK_TYPES["all_manifests"] = SPARK_TYPES["manifests"] + [("reference_snapshot_id", I64)]


def plain(t):
    """A type without field names of list/map children, nullability or metadata."""
    if pa.types.is_struct(t):
        return pa.struct([(f.name, plain(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(plain(t.key_type), plain(t.item_type))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(plain(t.value_type))
    if pa.types.is_large_string(t):
        return pa.string()
    if pa.types.is_dictionary(t):
        return plain(t.value_type)
    return t


def canon(v):
    """Values in one form: maps and structs as dicts, timestamps as naive UTC."""
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return v
    if isinstance(v, dict):  # key order aside (readable_metrics: Spark sorts by name)
        return {k: canon(v[k]) for k in sorted(v)}
    if isinstance(v, list) and v and all(isinstance(e, tuple) and len(e) == 2 for e in v):
        return {k: canon(x) for k, x in sorted(v)}
    if isinstance(v, list):
        return [canon(x) for x in v]
    return v


def rows(tbl, cols):
    return sorted((repr({c: canon(r[c]) for c in cols}) for r in tbl.to_pylist()))


@pytest.fixture
def story(cat, warehouse):
    """Three commits (two appends, a delete), a tag and a branch with retention."""
    cat.sql("CREATE NAMESPACE shop")
    cat.sql(ORDERS_DDL)
    t = cat.load_table("shop.orders")
    ids = [t.append(orders([1, 2])), t.append(orders([3], day="2026-09-21")),
           t.delete("order_id = 2")]
    t.create_tag("v1", snapshot_id=ids[0])
    t.create_branch("audit", retain=datetime.timedelta(hours=1), min_snapshots=2)
    py = SqlCatalog("local", uri="sqlite:///%s/catalog.db" % warehouse,
                    warehouse="file://%s" % warehouse).load_table("shop.orders")
    return t, ids, py


@pytest.mark.parametrize("name", sorted(SPARK_TYPES))
def test_spark_types(story, name):
    t, _, _ = story
    got = t.metadata_table(name).schema
    want = SPARK_TYPES[name]
    assert got.names == [n for n, _ in want]
    for (n, ty), f in zip(want, got):
        assert plain(f.type) == ty, (name, n, f.type)


@pytest.mark.parametrize("name", ["snapshots", "history", "refs", "metadata_log_entries", "files",
                                  "data_files", "all_files", "manifests", "all_manifests",
                                  "entries", "partitions"])
def test_values_equal_pyiceberg(story, name):
    """Every column both libraries have, row for row (PyIceberg's timestamps are
    naive milliseconds; Spark's and floe's are UTC microseconds)."""
    t, _, py = story
    f = t.metadata_table(name)
    p = getattr(py.inspect, name)()
    assert f.num_rows == p.num_rows > 0
    common = [c for c in f.column_names if c in p.column_names]
    # what PyIceberg leaves out of Iceberg's 1.11 schema: the v3 columns of DataFile
    assert set(f.column_names) - set(common) <= {"first_row_id", "referenced_data_file",
                                                  "content_offset", "content_size_in_bytes"}
    if name == "entries":  # PyIceberg's data_file struct has no spec_id and no v3 fields
        common.remove("data_file")
        pf = [{k: v for k, v in r["data_file"].items() if k in p.schema.field("data_file").type.names
               and k != "content"} for r in f.to_pylist()]
        pp = [{k: v for k, v in r["data_file"].items() if k != "content"} for r in p.to_pylist()]
        assert sorted(map(repr, canon(pf))) == sorted(map(repr, canon(pp)))
    assert rows(f, common) == rows(p, common)


def test_values_known(story):
    t, (s1, s2, s3), _ = story
    snaps = t.snapshots().to_pylist()
    assert [r["snapshot_id"] for r in snaps] == [s1, s2, s3]
    assert [r["operation"] for r in snaps] == ["append", "append", "overwrite"]
    assert dict(snaps[0]["summary"])["added-records"] == "2"
    assert snaps[0]["committed_at"].tzinfo is not None
    assert [r["parent_id"] for r in t.history().to_pylist()] == [None, s1, s2]
    refs = {r["name"]: r for r in t.refs().to_pylist()}
    assert refs["v1"]["type"] == "TAG" and refs["v1"]["snapshot_id"] == s1
    assert refs["audit"]["max_reference_age_in_ms"] == 3600000
    assert refs["audit"]["min_snapshots_to_keep"] == 2
    files = t.files().to_pylist()
    assert sorted(r["record_count"] for r in files) == [1, 1]
    rm = {r["partition"]["order_date"]: r["readable_metrics"] for r in files}
    assert rm[datetime.date(2026, 9, 21)]["order_id"]["lower_bound"] == 3
    assert str(rm[datetime.date(2026, 9, 21)]["amount"]["upper_bound"]) == "3.50"
    parts = {r["partition"]["order_date"]: r for r in t.partitions().to_pylist()}
    assert parts[datetime.date(2026, 9, 20)]["record_count"] == 1
    assert parts[datetime.date(2026, 9, 20)]["last_updated_snapshot_id"] == s3


def test_time_travel(story):
    t, (s1, s2, s3), py = story
    assert t.files(snapshot_id=s1).num_rows == 1
    assert t.files(ref="v1").num_rows == 1
    ts = [r["made_current_at"] for r in t.history().to_pylist()]
    assert t.files(as_of=ts[1]).num_rows == 2
    assert t.entries(snapshot_id=s2).num_rows == py.inspect.entries(snapshot_id=s2).num_rows == 2
    assert t.partitions(snapshot_id=s1).column("record_count").to_pylist() == [2]
    with pytest.raises(floe.IllegalArgumentException, match="^Cannot select snapshot in table: HISTORY$"):
        t.metadata_table("history", snapshot_id=s1)
    with pytest.raises(floe.FloeError, match="^Cannot find snapshot with ID 42$"):
        t.files(snapshot_id=42)
    with pytest.raises(floe.FloeError, match="reference name for version nope"):
        t.files(ref="nope")
    with pytest.raises(floe.NotFoundException, match="^Unknown metadata table: nope$"):
        t.metadata_table("nope")
    with pytest.raises(TypeError):
        t.metadata_table(42)
    with pytest.raises(TypeError):
        t.files(snapshot_id="1")


def test_reader_streams_and_outlives_changes(story):
    """metadata_reader() yields bounded batches and keeps its own metadata copy:
    a rollback (or closing the table) while it is read changes nothing."""
    t, (s1, s2, s3), _ = story
    r = t.metadata_reader("history", batch_rows=1)
    t.rollback_to(s1)
    t.close()
    batches = list(r)
    assert [b.num_rows for b in batches] == [1, 1, 1]
    assert pa.Table.from_batches(batches).column("snapshot_id").to_pylist() == [s1, s2, s3]
    with pytest.raises(floe.IllegalStateException):
        t.files()
