# SPDX-License-Identifier: Apache-2.0
"""v3 types floe writes (issue #24): timestamp_ns and timestamptz_ns (Parquet
TIMESTAMP(NANOS), manifest bounds as nanosecond longs, day/hour/identity/bucket
partitions), and unknown (Spark's VOID: never written to Parquet, an identity
partition typed Avro "null" in manifests). PyIceberg 0.12 reads v3 tables (it cannot write their metadata) and gives
timestamp[ns] columns; Spark 3.5 has no nanosecond type: what Iceberg 1.11's Spark
reader does with them is pinned here.
"""
import pytest

from test_cells import Cells, Table

NAME = "typesv3"


@pytest.fixture(scope="module")
def cells(spark, floe_bin, tmp_path_factory):
    return Cells(spark, str(tmp_path_factory.mktemp("typesv3")), NAME)


ROWS = [
    (1, "2024-01-02 03:04:05.123456789", "2024-01-02 03:04:05.123456789"),
    (2, "1969-12-31 23:59:59.999999999", "1970-01-01 00:00:00.000000001"),
    (3, "2024-01-02 23:00:00.000000001", None),
]


def ns(text):
    """'YYYY-MM-DD HH:MM:SS.fffffffff' (UTC) -> nanoseconds since the epoch."""
    import datetime
    base, frac = text.split(".")
    d = datetime.datetime.strptime(base, "%Y-%m-%d %H:%M:%S").replace(
        tzinfo=datetime.timezone.utc)
    return int(d.timestamp()) * 1_000_000_000 + int(frac)


@pytest.mark.parametrize("part", ["days(ts)", "hours(tz)", "bucket(4, ts)", "ts"])
def test_timestamp_ns_written_by_floe(cells, part):
    t = Table(cells, "ns_" + "".join(c for c in part if c.isalnum()))
    t.fsql("CREATE TABLE {T} (id BIGINT, ts TIMESTAMP_NS, tz TIMESTAMPTZ_NS) "
           f"PARTITIONED BY ({part}) TBLPROPERTIES ('format-version'='3')")
    vals = ", ".join(f"({i}, '{a}', " + (f"'{b}Z'" if b else "NULL") + ")" for i, a, b in ROWS)
    t.fsql("INSERT INTO {T} VALUES " + vals)
    # PyIceberg: the schema's types, the exact nanoseconds, partition pruning by ts
    from pyiceberg.types import TimestampNanoType, TimestamptzNanoType
    tbl = t.c.py.load_table(t.t)
    assert tbl.metadata.format_version == 3
    assert isinstance(tbl.schema().find_field("ts").field_type, TimestampNanoType)
    assert isinstance(tbl.schema().find_field("tz").field_type, TimestamptzNanoType)
    if part == "ts":
        # an identity partition on timestamp_ns: the manifest's Avro schema types the
        # partition value as Java does (long, logicalType timestamp-nanos, adjust-to-utc
        # false), which PyIceberg 0.12's Avro reader does not know
        with pytest.raises(ValueError, match="timestamp-nanos"):
            tbl.scan().to_arrow()
        return
    at = tbl.scan().to_arrow()
    assert str(at.schema.field("ts").type) == "timestamp[ns]"
    assert str(at.schema.field("tz").type) == "timestamp[ns, tz=UTC]"
    cols = [at.column(c).cast("int64").to_pylist() for c in ("id", "ts", "tz")]
    got = sorted(zip(*cols), key=lambda x: x[0])
    want = sorted((i, ns(a), ns(b) if b else None) for i, a, b in ROWS)
    # floe reads its own nanoseconds back (the text has nine digits)
    back = t.frows("SELECT id, ts, tz FROM {T} ORDER BY id")
    assert [(int(x["id"]), x["ts"], x["tz"]) for x in back] == \
        [(i, a, b) for i, a, b in sorted(ROWS)]
    assert got == want
    # floe filters on its nanosecond bounds (PyIceberg 0.12 cannot bind a literal to
    # timestamp_ns: "Cannot convert StringLiteral into timestamp_ns")
    hit = t.frows("SELECT id FROM {T} WHERE ts > '2024-01-02 03:04:05.123456788' ORDER BY id")
    assert [int(x["id"]) for x in hit] == [1, 3]
    files = t.frows("SELECT partition, record_count FROM {T}.files")
    assert sum(int(x["record_count"]) for x in files) == 3
    if part.startswith("bucket"):
        # spec Appendix B: a nanosecond timestamp hashes as its microseconds; PyIceberg's
        # transform is the oracle
        from pyiceberg.transforms import BucketTransform
        fn = BucketTransform(4).transform(TimestampNanoType())
        want_b = sorted({fn(ns(a)) for _, a, _ in ROWS})
        got_b = sorted({int(x["partition"]["ts_bucket"]) for x in files})
        assert got_b == want_b


def test_timestamp_ns_in_spark(cells):
    """Iceberg 1.11's Spark 3.5 integration has no Spark type for timestamp_ns: reading
    the table fails with its message (floe reads it)."""
    t = Table(cells, "ns_spark")
    t.fsql("CREATE TABLE {T} (id BIGINT, ts TIMESTAMP_NS) TBLPROPERTIES ('format-version'='3')",
           "INSERT INTO {T} VALUES (1, '2024-01-02 03:04:05.123456789')")
    with pytest.raises(Exception, match="Cannot convert unsupported type to Spark: "
                                         "timestamp_ns"):
        t.sql("SELECT * FROM {T}").collect()
    assert [int(x["id"]) for x in t.frows("SELECT id FROM {T}")] == [1]


def test_defaults_written_by_floe(cells):
    """floe's ADD COLUMN ... DEFAULT (extension floe.column-defaults: Spark 3.5 refuses
    DEFAULT) sets initial-default and write-default; old files read the initial-default in
    floe, Spark and PyIceberg; floe's INSERT of a column list writes the write-default."""
    t = Table(cells, "defaults")
    t.fsql("CREATE TABLE {T} (id BIGINT) TBLPROPERTIES ('format-version'='3')",
           "INSERT INTO {T} VALUES (1)")
    t.fsql("SET floe.column-defaults = true",
           "ALTER TABLE {T} ADD COLUMNS (c INT DEFAULT 5, d DECIMAL(5,2) DEFAULT 1.5, "
           "s STRING DEFAULT 'x')",
           "INSERT INTO {T} (id) VALUES (2)",
           "INSERT INTO {T} (id, c, s) VALUES (3, 30, 'y')")
    from decimal import Decimal
    want = [(1, 5, Decimal("1.50"), "x"), (2, 5, Decimal("1.50"), "x"),
            (3, 30, Decimal("1.50"), "y")]
    got = sorted((int(x["id"]), int(x["c"]), Decimal(x["d"]), x["s"])
                 for x in t.frows("SELECT * FROM {T}"))
    assert got == want
    t.sql("REFRESH TABLE {T}")
    assert sorted(tuple(x) for x in t.sql("SELECT * FROM {T}").collect()) == want
    at = t.c.py.load_table(t.t).scan().to_arrow()
    assert sorted(tuple(r.values()) for r in at.to_pylist()) == want
    # Spark 3.5 does not know Iceberg's write-default: its INSERT of a column list that
    # omits a column fails (pinned; floe follows the spec and writes the default)
    with pytest.raises(Exception, match="Cannot find data for the output column `c`"):
        t.sql("INSERT INTO {T} (id) VALUES (4)")


def test_nested_initial_defaults(cells):
    """A field added with a default inside a struct, a list's element struct and a map's
    value struct: old files read the initial-default at every level, in floe, Spark and
    PyIceberg alike."""
    t = Table(cells, "ndefaults")
    t.fsql("CREATE TABLE {T} (id BIGINT, s STRUCT<a: INT>, l ARRAY<STRUCT<a: INT>>, "
           "m MAP<STRING, STRUCT<a: INT>>) TBLPROPERTIES ('format-version'='3')",
           "INSERT INTO {T} VALUES (1, named_struct('a', 1), array(named_struct('a', 2)), "
           "map('k', named_struct('a', 3)))")
    t.fsql("SET floe.column-defaults = true",
           "ALTER TABLE {T} ADD COLUMNS (s.x INT DEFAULT 7, l.element.y STRING DEFAULT 'e', "
           "m.value.z BOOLEAN DEFAULT true)")
    want = (1, {"a": 1, "x": 7}, [{"a": 2, "y": "e"}], {"k": {"a": 3, "z": True}})
    import json
    f = t.frows("SELECT * FROM {T}")[0]
    conv = [lambda v: int(v)] + [lambda v: json.loads(v) if isinstance(v, str) else v] * 3
    got = tuple(c(f[k]) for c, k in zip(conv, ("id", "s", "l", "m")))
    assert got == want, got
    t.sql("REFRESH TABLE {T}")
    r = t.sql("SELECT * FROM {T}").collect()[0].asDict(recursive=True)
    assert (r["id"], r["s"], r["l"], r["m"]) == want, r
    p = t.c.py.load_table(t.t).scan().to_arrow().to_pylist()[0]
    assert (p["id"], p["s"], p["l"], dict(p["m"])) == want, p


def test_unknown_written_by_floe(cells):
    """floe's VOID column (v3 unknown) and an identity partition on it: Spark reads nulls,
    DESCRIBE says void, the data files have no such column; Spark then appends to the
    table and floe reads both writers' rows."""
    t = Table(cells, "unknown_floe")
    t.fsql("CREATE TABLE {T} (a INT, u VOID, s STRUCT<x: INT, v: VOID>) PARTITIONED BY (u) "
           "TBLPROPERTIES ('format-version'='3')",
           "INSERT INTO {T} VALUES (1, NULL, named_struct('x', 10, 'v', NULL))",
           "INSERT INTO {T} (a) VALUES (2)")
    t.sql("REFRESH TABLE {T}")
    desc = [(r.col_name, r.data_type) for r in t.sql("DESCRIBE TABLE {T}").collect()]
    assert desc[:3] == [("a", "int"), ("u", "void"), ("s", "struct<x:int,v:void>")], desc
    rows = t.sql("SELECT a, u, s FROM {T} ORDER BY a").collect()
    assert [(r.a, r.u, r.s.asDict() if r.s else None) for r in rows] == \
        [(1, None, {"x": 10, "v": None}), (2, None, None)]
    assert [r.n for r in t.sql("SELECT count(*) AS n FROM {T} WHERE u IS NULL").collect()] == [2]
    parts = t.sql("SELECT partition.u AS u, record_count FROM {T}.partitions").collect()
    assert [(r.u, r.record_count) for r in parts] == [(None, 2)]
    # the Parquet files floe wrote hold neither u nor s.v (pyarrow reads the footers)
    import pyarrow.parquet as pq
    for f in t.frows("SELECT file_path FROM {T}.files"):
        sch = pq.read_schema(f["file_path"])
        assert sch.names == ["a", "s"], sch
        assert [c.name for c in sch.field("s").type] == ["x"], sch
    t.sql("INSERT INTO {T} SELECT 3, NULL, named_struct('x', 30, 'v', NULL)")
    got = [(int(r["a"]), r["u"]) for r in t.frows("SELECT a, u FROM {T} ORDER BY a")]
    assert got == [(1, None), (2, None), (3, None)]


def test_unknown_written_by_spark(cells):
    """Spark's v3 table with a void column, partitioned by it (its manifests type the
    partition Avro "null"): floe reads it, DESCRIBE says void, floe appends and Spark reads
    floe's rows."""
    t = Table(cells, "unknown_spark")
    t.sql("CREATE TABLE {T} (a INT, u VOID) USING iceberg PARTITIONED BY (u) "
          "TBLPROPERTIES ('format-version'='3')")
    t.sql("INSERT INTO {T} VALUES (1, NULL)")
    assert [(r["col_name"], r["data_type"]) for r in t.frows("DESCRIBE {T}")][:2] == \
        [("a", "int"), ("u", "void")]
    assert [(int(r["a"]), r["u"]) for r in t.frows("SELECT a, u FROM {T}")] == [(1, None)]
    t.fsql("INSERT INTO {T} VALUES (2, NULL)")
    t.sql("REFRESH TABLE {T}")
    assert [(r.a, r.u) for r in t.sql("SELECT a, u FROM {T} ORDER BY a").collect()] == \
        [(1, None), (2, None)]
    # Spark's refusals floe shares: a v2 table cannot hold unknown (Java's message)
    with pytest.raises(Exception, match="Invalid type for u: unknown is not supported until v3"):
        t.sql("CREATE TABLE {T}_v2 (a INT, u VOID) USING iceberg "
              "TBLPROPERTIES ('format-version'='2')")
    err = t.c.floe.error("CREATE TABLE db.unknown_spark_v2 (a INT, u VOID) "
                         "TBLPROPERTIES ('format-version'='2')")
    assert "Invalid type for u: unknown is not supported until v3" in err


def test_nested_write_defaults(cells):
    """A struct value that omits a member with a write-default (in a struct column and in a
    list's element struct): floe writes the default into the data file (pyarrow reads it
    there) and Spark and PyIceberg read it. Spark 3.5 refuses the same INSERT
    (STRUCT_MISSING_FIELDS: it does not know Iceberg's write-default) - pinned, as is
    its refusal without the column list's struct."""
    t = Table(cells, "nwdefaults")
    t.fsql("CREATE TABLE {T} (id BIGINT, s STRUCT<a: INT>, l ARRAY<STRUCT<a: INT>>) "
           "TBLPROPERTIES ('format-version'='3')")
    t.fsql("SET floe.column-defaults = true",
           "ALTER TABLE {T} ADD COLUMNS (s.x INT DEFAULT 7, l.element.y STRING DEFAULT 'e')",
           "INSERT INTO {T} VALUES (1, named_struct('a', 1), array(named_struct('a', 2), "
           "named_struct('a', 3, 'y', 'given')))")
    want = [(1, {"a": 1, "x": 7}, [{"a": 2, "y": "e"}, {"a": 3, "y": "given"}])]
    import pyarrow.parquet as pq
    files = t.frows("SELECT file_path FROM {T}.files")
    assert len(files) == 1
    pa_rows = pq.read_table(files[0]["file_path"]).to_pylist()
    assert [(r["id"], r["s"], r["l"]) for r in pa_rows] == want, pa_rows
    t.sql("REFRESH TABLE {T}")
    r = t.sql("SELECT * FROM {T}").collect()[0].asDict(recursive=True)
    assert [(r["id"], r["s"], r["l"])] == want, r
    p = t.c.py.load_table(t.t).scan().to_arrow().to_pylist()
    assert [(x["id"], x["s"], x["l"]) for x in p] == want, p
    with pytest.raises(Exception, match=r"STRUCT_MISSING_FIELDS.*Struct `s` missing fields: `x`"):
        t.sql("INSERT INTO {T} VALUES (2, named_struct('a', 2), array())")
    with pytest.raises(Exception, match="Cannot find data for the output column `s`"):
        t.sql("INSERT INTO {T} (id) VALUES (2)")
