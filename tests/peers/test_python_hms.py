# SPDX-License-Identifier: Apache-2.0
"""floe-python (python/, issue #29) on the Hive Metastore catalog: the suite's Hive 2.3.9
metastore (conftest.hms) with data on S3Proxy (s3a://warehouse/), and Spark 3.5 + Iceberg 1.11's
HiveCatalog on the same metastore. floe-python writes and Spark reads every snapshot; Spark
writes and floe-python reads every snapshot; metadata tables have Spark's types and values;
errors are Iceberg's.

The package is built from this tree against the build of FLOE_BIN (pip install --target a
temporary directory, so the shared venv is left alone); under CI=true a failed build fails.
"""
import datetime
import os
import subprocess
import sys

import pytest

from conftest import FLOE, ROOT, S3_KEY, S3_SECRET, free_port, unavailable, uniq
from test_hms import spark_cat


@pytest.fixture(scope="module")
def floe_py(tmp_path_factory):
    """The floe Python package, built and installed for this run only."""
    try:
        import cffi  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        unavailable("cffi/pyarrow not in the peer venv (scripts/python-test.sh installs them)")
    build = os.path.dirname(FLOE)
    if not os.path.exists(os.path.join(build, "libfloe.a")):
        unavailable(f"no libfloe.a next to {FLOE}")
    target = str(tmp_path_factory.mktemp("floe-python"))
    env = dict(os.environ, FLOE_BUILD_DIR=build)
    p = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                        "--no-deps", "--target", target, "./python"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=900)
    subprocess.run(["rm", "-rf", "python/build", "python/floe.egg-info"], cwd=ROOT)
    if p.returncode != 0:
        pytest.fail("pip install ./python failed: " + (p.stdout + p.stderr)[-3000:])
    sys.path.insert(0, target)
    for name in [m for m in sys.modules if m == "floe" or m.startswith("floe.")]:
        del sys.modules[name]
    import floe
    assert floe.__file__.startswith(target), floe.__file__
    yield floe
    sys.path.remove(target)


def s3_props(s3):
    return {"s3.endpoint": s3.endpoint, "s3.path-style-access": "true",
            "s3.access-key-id": S3_KEY, "s3.secret-access-key": S3_SECRET,
            "s3.region": "us-east-1"}


def hive_catalog(floe, hms, s3, **extra):
    """floe.catalog on the metastore, as Spark's type=hive catalog block."""
    return floe.catalog(uri=hms.uri, warehouse="s3a://warehouse/", name="ice",
                        **s3_props(s3), **extra)


def ids(t):
    return sorted(t.column("id").to_pylist())


def spark_ids(spark, table, sid=None):
    q = f"SELECT id FROM {table}" + (f" VERSION AS OF {sid}" if sid is not None else "")
    return sorted(r[0] for r in spark.sql(q).collect())


def test_lifecycle_spark_reads_every_snapshot(floe_py, spark, s3, hms):
    """create / append / overwrite / delete / time travel / rollback / tag through the
    metastore from Python; Spark's HiveCatalog reads each snapshot with the same rows."""
    import pyarrow as pa
    ns = uniq("py")
    cat = hive_catalog(floe_py, hms, s3)
    cat.create_namespace(ns)
    cat.sql(f"CREATE TABLE {ns}.t (id BIGINT, day DATE) USING iceberg PARTITIONED BY (day)")
    assert cat.list_tables(ns) == [f"{ns}.t"]
    t = cat.load_table(f"{ns}.t")
    assert t.location == f"s3a://warehouse/{ns}.db/t"

    def rows(xs, day):
        return pa.table({"id": pa.array(xs, pa.int64()),
                         "day": pa.array([datetime.date.fromisoformat(day)] * len(xs))})

    want = {}
    want[t.append(rows([1, 2], "2026-09-20"))] = [1, 2]
    want[t.append(rows([3], "2026-09-21"))] = [1, 2, 3]
    want[t.delete("id = 2")] = [1, 3]
    want[t.overwrite(rows([7, 8], "2026-09-21"), filter="day = '2026-09-21'")] = [1, 7, 8]
    sids = list(want)
    assert ids(t.to_arrow()) == [1, 7, 8]
    for sid, w in want.items():
        assert ids(t.scan(snapshot_id=sid).to_arrow()) == w
    # Spark on the same metastore: the same snapshots, the same rows at each
    c = spark_cat(spark, hms, s3)
    spark.sql(f"REFRESH TABLE {c}.{ns}.t")
    got = sorted(r[0] for r in spark.sql(f"SELECT snapshot_id FROM {c}.{ns}.t.snapshots").collect())
    assert got == sorted(sids)
    for sid, w in want.items():
        assert spark_ids(spark, f"{c}.{ns}.t", sid) == w, sid
    # time travel by time and rollback, seen by Spark
    ts = {r["snapshot_id"]: r["made_current_at"] for r in t.history().to_pylist()}
    assert ids(t.scan(as_of=ts[sids[1]]).to_arrow()) == [1, 2, 3]
    assert t.rollback_to(sids[1]) == (sids[3], sids[1])
    t.create_tag("before_delete", snapshot_id=sids[1])
    spark.sql(f"REFRESH TABLE {c}.{ns}.t")
    assert spark_ids(spark, f"{c}.{ns}.t") == [1, 2, 3]
    assert spark_ids(spark, f"{c}.{ns}.t", "'before_delete'") == [1, 2, 3]
    hist = [r[0] for r in spark.sql(f"SELECT is_current_ancestor FROM {c}.{ns}.t.history "
                                    "ORDER BY made_current_at").collect()]
    assert hist == [r["is_current_ancestor"] for r in t.history().to_pylist()]
    assert hist == [True, True, False, False, True]
    t.close()
    cat.close()


def test_reads_every_snapshot_spark_wrote(floe_py, spark, s3, hms):
    """Spark writes through HiveCatalog; floe-python reads each snapshot, and its metadata
    tables give Spark's values."""
    ns = uniq("sp")
    c = spark_cat(spark, hms, s3)
    spark.sql(f"CREATE NAMESPACE {c}.{ns}")
    spark.sql(f"CREATE TABLE {c}.{ns}.t (id bigint, who string) USING iceberg")
    want = {}
    for stmt in [f"INSERT INTO {c}.{ns}.t VALUES (1, 'a'), (2, 'b')",
                 f"INSERT INTO {c}.{ns}.t VALUES (3, 'c')",
                 f"DELETE FROM {c}.{ns}.t WHERE id = 1",
                 f"UPDATE {c}.{ns}.t SET id = 20 WHERE id = 2"]:
        spark.sql(stmt)
        sid = spark.sql(f"SELECT snapshot_id FROM {c}.{ns}.t.snapshots "
                        "ORDER BY committed_at DESC LIMIT 1").collect()[0][0]
        want[sid] = spark_ids(spark, f"{c}.{ns}.t", sid)
    cat = hive_catalog(floe_py, hms, s3)
    t = cat.load_table(f"{ns}.t")
    assert t.current_snapshot_id() == list(want)[-1]
    for sid, w in want.items():
        assert ids(t.scan(snapshot_id=sid).to_arrow()) == w, sid
    assert cat.sql(f"SELECT count(*) FROM {ns}.t").fetchall()[0][0] == len(list(want.values())[-1])
    snaps = spark.sql(f"SELECT snapshot_id, parent_id, operation FROM {c}.{ns}.t.snapshots").collect()
    assert sorted((r[0], r[1], r[2]) for r in snaps) == sorted(
        (r["snapshot_id"], r["parent_id"], r["operation"]) for r in t.snapshots().to_pylist())
    sf = spark.sql(f"SELECT file_path, record_count FROM {c}.{ns}.t.files").collect()
    assert sorted((r[0], r[1]) for r in sf) == sorted(
        (r["file_path"], r["record_count"]) for r in t.files().to_pylist())
    # floe-python commits on top; Spark reads it
    import pyarrow as pa
    sid = t.append(pa.table({"id": pa.array([9], pa.int64()), "who": ["floe"]}))
    spark.sql(f"REFRESH TABLE {c}.{ns}.t")
    assert spark_ids(spark, f"{c}.{ns}.t", sid) == sorted(list(want.values())[-1] + [9])
    cat.close()


def spark_arrow(dt):
    """A Spark SQL type as the pyarrow type floe-python gives for it."""
    import pyarrow as pa
    from pyspark.sql import types as T
    simple = {T.LongType: pa.int64(), T.IntegerType: pa.int32(), T.StringType: pa.string(),
              T.BooleanType: pa.bool_(), T.BinaryType: pa.binary(), T.DateType: pa.date32(),
              T.TimestampType: pa.timestamp("us", tz="UTC"), T.DoubleType: pa.float64()}
    for k, v in simple.items():
        if isinstance(dt, k):
            return v
    if isinstance(dt, T.DecimalType):
        return pa.decimal128(dt.precision, dt.scale)
    if isinstance(dt, T.ArrayType):
        return pa.list_(spark_arrow(dt.elementType))
    if isinstance(dt, T.MapType):
        return pa.map_(spark_arrow(dt.keyType), spark_arrow(dt.valueType))
    if isinstance(dt, T.StructType):
        return pa.struct([(f.name, spark_arrow(f.dataType)) for f in dt.fields])
    raise AssertionError("unmapped Spark type %s" % dt)


def plain(t):
    import pyarrow as pa
    if pa.types.is_struct(t):
        return pa.struct([(f.name, plain(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(plain(t.key_type), plain(t.item_type))
    if pa.types.is_list(t):
        return pa.list_(plain(t.value_type))
    return t


@pytest.mark.parametrize("name", ["snapshots", "history", "refs", "metadata_log_entries", "files",
                                  "manifests", "entries", "partitions", "all_data_files"])
def test_metadata_tables_have_spark_types(floe_py, spark, s3, hms, name):
    """Column names and types of each metadata table equal Spark's for the same table."""
    ns = uniq("mt")
    cat = hive_catalog(floe_py, hms, s3)
    cat.create_namespace(ns)
    cat.sql(f"CREATE TABLE {ns}.t (id BIGINT, amount DECIMAL(10,2), day DATE, s STRING) "
            "USING iceberg PARTITIONED BY (day)")
    cat.sql(f"INSERT INTO {ns}.t VALUES (1, 1.50, DATE'2026-09-20', 'x')")
    t = cat.load_table(f"{ns}.t")
    t.create_tag("v1")
    got = t.metadata_table(name).schema
    c = spark_cat(spark, hms, s3)
    want = spark.table(f"{c}.{ns}.t.{name}").schema
    assert got.names == [f.name for f in want.fields]
    for f in want.fields:
        assert plain(got.field(f.name).type) == spark_arrow(f.dataType), (name, f.name)
    cat.close()


def test_errors(floe_py, s3, hms):
    ns = uniq("pe")
    cat = hive_catalog(floe_py, hms, s3)
    cat.create_namespace(ns)
    with pytest.raises(floe_py.NoSuchTableException, match=f"^Table does not exist: {ns}.nope$"):
        cat.load_table(f"{ns}.nope")
    with pytest.raises(floe_py.NoSuchTableException, match=f"Table does not exist: {ns}.nope"):
        cat.sql(f"SELECT * FROM {ns}.nope")
    with pytest.raises(floe_py.NoSuchNamespaceException):
        cat.sql("CREATE TABLE nons_%s.t (a INT) USING iceberg" % uniq())
    with pytest.raises(floe_py.AlreadyExistsException, match=f"Namespace already exists: {ns}"):
        cat.sql(f"CREATE NAMESPACE {ns}")
    cat.sql(f"CREATE TABLE {ns}.t (a INT) USING iceberg")
    t = cat.load_table(f"{ns}.t")
    with pytest.raises(floe_py.ValidationException, match="Cannot roll back to unknown snapshot id: 7"):
        t.rollback_to(7)
    assert t.current_snapshot_id() is None  # nothing committed
    cat.close()
    with pytest.raises(floe_py.FloeError, match="Could not connect to Hive Metastore"):
        floe_py.catalog(uri=f"thrift://127.0.0.1:{free_port()}", warehouse="s3a://warehouse/",
                        **s3_props(s3))
