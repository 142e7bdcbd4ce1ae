# SPDX-License-Identifier: Apache-2.0
"""Schema and partition evolution (issue #23) against Spark 3.5 + Iceberg 1.11.

One engine evolves a table (add / drop / rename / promote / reorder columns, partition
spec changes, a write order), writing a snapshot after each change; the other reads every
snapshot (VERSION AS OF: that snapshot's schema) and a branch (the current schema); rows
must be identical. Bad input gets Spark's error class and message, and commits nothing."""
import os
import re

import pytest

from conftest import Floe, add_catalog, floe_json_rows, jdbc_props, key, spark_rows, uniq

STEPS = [
    "ALTER TABLE {t} ADD COLUMNS (price DECIMAL(9,2) COMMENT 'p', pt STRUCT<x: INT, y: INT>)",
    "ALTER TABLE {t} RENAME COLUMN data TO payload",
    "ALTER TABLE {t} ALTER COLUMN n TYPE BIGINT",
    "ALTER TABLE {t} ALTER COLUMN price TYPE DECIMAL(12,2)",
    "ALTER TABLE {t} ALTER COLUMN f TYPE DOUBLE",
    "ALTER TABLE {t} ALTER COLUMN n FIRST",
    "ALTER TABLE {t} ALTER COLUMN price AFTER id",
    "ALTER TABLE {t} ADD COLUMN pt.z STRING",
    "ALTER TABLE {t} DROP COLUMN f",
    "ALTER TABLE {t} ADD PARTITION FIELD bucket(4, id)",
    "ALTER TABLE {t} DROP PARTITION FIELD cat",
    "ALTER TABLE {t} WRITE ORDERED BY n DESC, id",
]
# a row after each step, in the schema of that step (column order as written)
ROWS = [
    "(3, 'c', 'x', 30, 3.5, 3.25, named_struct('x', 1, 'y', 2))",
    "(4, 'd', 'y', 40, 4.5, 4.25, named_struct('x', 3, 'y', 4))",
    "(5, 'e', 'x', 5000000000, 5.5, 5.25, NULL)",
    "(6, 'f', 'z', 60, 6.5, 1234567890.12, named_struct('x', 5, 'y', 6))",
    "(7, 'g', 'x', 70, 7.125, 7.5, NULL)",
    "(80, 8, 'h', 'y', 8.25, 8.5, NULL)",
    "(90, 9, 9.5, 'i', 'x', 9.75, named_struct('x', 7, 'y', 8))",
    "(100, 10, 10.5, 'j', 'z', 10.75, named_struct('x', 9, 'y', 10, 'z', 'zz'))",
    "(110, 11, 11.5, 'k', 'x', named_struct('x', 11, 'y', 12, 'z', NULL))",
    "(120, 12, 12.5, 'l', 'y', NULL)",
    "(130, 13, 13.5, 'm', 'q', named_struct('x', 13, 'y', 14, 'z', 'w'))",
    "(140, 14, 14.5, 'n', 'x', NULL)",
]
CREATE = "CREATE TABLE {t} (id BIGINT NOT NULL, data STRING, cat STRING, n INT, f FLOAT) " \
         "USING iceberg PARTITIONED BY (cat)"
FIRST = "INSERT INTO {t} VALUES (1, 'a', 'x', 10, 1.5), (2, 'b', 'y', 20, 2.5)"


def env(spark, warehouse):
    name = uniq("ev")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE s")
    cat = add_catalog(spark, name, jdbc_props(os.path.join(warehouse, "catalog.db"), warehouse))
    return fl, cat


def snapshots(fl):
    return [r["snapshot_id"] for r in fl.rows(
        "SELECT snapshot_id FROM s.t.snapshots ORDER BY committed_at")]


def floe_read(fl, q):
    return sorted(floe_json_rows(fl.sql(q).stdout), key=key)


def evolve(run, t):
    run(CREATE.format(t=t))
    run(FIRST.format(t=t))
    run(f"ALTER TABLE {t} CREATE BRANCH before_evolution")
    for step, row in zip(STEPS, ROWS):
        run(step.format(t=t))
        run(f"INSERT INTO {t} VALUES {row}")


def check_every_snapshot(fl, spark, cat):
    sids = snapshots(fl)
    assert len(sids) == 1 + len(STEPS)
    for sid in sids:
        want = spark_rows(spark.sql(f"SELECT * FROM {cat}.s.t VERSION AS OF {sid}"))
        got = floe_read(fl, f"SELECT * FROM s.t VERSION AS OF {sid}")
        assert got == want, f"snapshot {sid}"
    # a branch reads with the table's current schema (SparkTable of a branch)
    want = spark_rows(spark.sql(f"SELECT * FROM {cat}.s.t.branch_before_evolution"))
    assert floe_read(fl, "SELECT * FROM s.t.branch_before_evolution") == want
    assert set(want[0]) == {"n", "id", "price", "payload", "cat", "pt"}
    # current state: columns in the evolved order, every row
    want = spark_rows(spark.sql(f"SELECT * FROM {cat}.s.t"))
    assert floe_read(fl, "SELECT * FROM s.t") == want
    assert len(want) == 2 + len(ROWS)
    assert {"id": "5", "n": "5000000000"}.items() <= next(r for r in want if r["id"] == "5").items()
    # partition pruning across specs gives the same rows
    for q in ("cat = 'x'", "id = 120", "id > 100 AND cat = 'x'"):
        want = spark_rows(spark.sql(f"SELECT id FROM {cat}.s.t WHERE {q}"))
        assert floe_read(fl, f"SELECT id FROM s.t WHERE {q}") == want, q
    # the metadata both engines left behind describes the same table
    want = spark_rows(spark.sql(f"SELECT spec_id, count(*) AS c FROM {cat}.s.t.files GROUP BY spec_id"))
    assert floe_read(fl, "SELECT spec_id, count(*) AS c FROM s.t.files GROUP BY spec_id") == want
    # the partitions table: the unified partition type over every spec, as Spark
    q = "SELECT partition, spec_id, record_count, file_count FROM {}.partitions"
    want = spark_rows(spark.sql(q.format(f"{cat}.s.t")))
    assert floe_read(fl, q.format("s.t")) == want


def test_floe_evolves_spark_reads(spark, warehouse):
    fl, cat = env(spark, warehouse)
    evolve(lambda q: fl.sql(q), "s.t")
    spark.sql(f"REFRESH TABLE {cat}.s.t")
    check_every_snapshot(fl, spark, cat)
    order = spark.sql(f"DESCRIBE TABLE EXTENDED {cat}.s.t").collect()
    props = next(r.data_type for r in order if r.col_name == "Table Properties")
    assert "sort-order=n DESC NULLS LAST, id ASC NULLS FIRST" in props


def test_spark_evolves_floe_reads(spark, warehouse):
    fl, cat = env(spark, warehouse)
    evolve(lambda q: spark.sql(q), f"{cat}.s.t")
    check_every_snapshot(fl, spark, cat)
    got = floe_json_rows(fl.sql("DESCRIBE TABLE EXTENDED s.t").stdout)
    props = next(r["data_type"] for r in got if r["col_name"] == "Table Properties")
    assert "sort-order=n DESC NULLS LAST, id ASC NULLS FIRST" in props


def test_rollback_keeps_the_current_schema(spark, warehouse):
    """rollback_to_snapshot moves main only, in floe as in Spark: both read the old rows
    through the current schema, and the old snapshot with its own by VERSION AS OF."""
    for engine in ("floe", "spark"):
        fl, cat = env(spark, warehouse)
        run = (lambda q: fl.sql(q.format(t="s.t", c=fl.name))) if engine == "floe" else \
            (lambda q: spark.sql(q.format(t=f"{cat}.s.t", c=cat)))
        run("CREATE TABLE {t} (id INT, qty INT) USING iceberg")
        run("INSERT INTO {t} VALUES (1, 10)")
        first = snapshots(fl)[0]
        run("ALTER TABLE {t} ADD COLUMN note STRING")
        run("ALTER TABLE {t} RENAME COLUMN qty TO quantity")
        run("INSERT INTO {t} VALUES (2, 20, 'x')")
        run("CALL {c}.system.rollback_to_snapshot('s.t', %d)" % int(first))
        spark.sql(f"REFRESH TABLE {cat}.s.t")
        want = spark_rows(spark.sql(f"SELECT * FROM {cat}.s.t"))
        assert want == [{"id": "1", "quantity": "10", "note": None}], engine
        assert floe_read(fl, "SELECT * FROM s.t") == want, engine
        want = spark_rows(spark.sql(f"SELECT * FROM {cat}.s.t VERSION AS OF {first}"))
        assert want == [{"id": "1", "qty": "10"}], engine
        assert floe_read(fl, f"SELECT * FROM s.t VERSION AS OF {first}") == want, engine


BAD = [
    "ALTER TABLE {t} DROP COLUMN cat",                      # partition source
    "ALTER TABLE {t} ALTER COLUMN data TYPE INT",           # incompatible promotion
    "ALTER TABLE {t} ALTER COLUMN n TYPE DECIMAL(9,2)",
    "ALTER TABLE {t} ADD COLUMN data INT",                  # duplicate name
    "ALTER TABLE {t} RENAME COLUMN n TO data",
    "ALTER TABLE {t} ADD PARTITION FIELD cat",              # duplicate partition field
    "ALTER TABLE {t} ADD PARTITION FIELD days(data)",
    "ALTER TABLE {t} DROP PARTITION FIELD nope",
    "ALTER TABLE {t} ALTER COLUMN data SET NOT NULL",
    "ALTER TABLE {t} SET IDENTIFIER FIELDS data",
    "ALTER TABLE {t} WRITE ORDERED BY nope",
    "ALTER TABLE {t} ADD COLUMN c INT DEFAULT 5",           # column defaults
    "ALTER TABLE {t} ADD COLUMNS (c INT, d STRING DEFAULT 'x')",
    "CREATE TABLE {t}2 (a INT, b INT DEFAULT 1) USING iceberg",
]


def spark_error(spark, q, collect=False):
    """(Java class, first line of the message) Spark raised; the position suffix of an
    AnalysisException (floe's errors carry no position) removed. `collect`: run the query
    (a read fails when it runs, not when it is planned)."""
    try:
        df = spark.sql(q)
        if collect:
            df.collect()
    except Exception as e:  # pyspark's own classes, or Py4JJavaError for the others
        java = getattr(e, "java_exception", None)
        if java is not None and type(e).__name__ == "Py4JJavaError":
            cls, msg = java.getClass().getSimpleName(), java.getMessage()
        else:
            cls, msg = type(e).__name__, getattr(e, "desc", None) or str(e)
        return cls, re.sub(r"; line \d+ pos \d+;?$", "", msg.splitlines()[0])
    return None


@pytest.mark.parametrize("bad", BAD)
def test_bad_input_same_error_nothing_committed(spark, warehouse, bad):
    fl, cat = env(spark, warehouse)
    fl.sql(CREATE.format(t="s.t"), FIRST.format(t="s.t"))
    before = sorted(os.listdir(os.path.join(warehouse, "s.db", "t", "metadata")))
    want = spark_error(spark, bad.format(t=f"{cat}.s.t"))
    assert want is not None, "Spark accepted " + bad
    got = fl.error(bad.format(t="s.t"))
    assert got == f"{want[0]}: {want[1]}"
    assert sorted(os.listdir(os.path.join(warehouse, "s.db", "t", "metadata"))) == before


# SHOW CREATE TABLE and DESCRIBE of evolved tables: floe's text must be Spark's.
SHOWN = {
    "a": ["CREATE TABLE {t} (id BIGINT NOT NULL COMMENT 'the id', `my col` STRING, ts TIMESTAMP, "
          "d DATE, amt DECIMAL(10,2), pt STRUCT<x: INT COMMENT 'it\\'s x', y: STRING>, "
          "tags ARRAY<STRING>, m MAP<STRING, INT>) USING iceberg "
          "PARTITIONED BY (days(ts), bucket(16, id), truncate(4, `my col`)) "
          "COMMENT 'a table' TBLPROPERTIES ('k1'='v1', 'my.secret'='hush')",
          "ALTER TABLE {t} WRITE ORDERED BY id DESC NULLS FIRST, `my col`",
          "ALTER TABLE {t} ADD COLUMN discount DECIMAL(10,2) COMMENT 'disc'",
          "ALTER TABLE {t} RENAME COLUMN `my col` TO payload",
          "ALTER TABLE {t} ADD PARTITION FIELD years(d) AS yr",
          "ALTER TABLE {t} SET IDENTIFIER FIELDS id"],
    "b": ["CREATE TABLE {t} (a INT, ts TIMESTAMP_NTZ, h TIMESTAMP, s STRING) USING iceberg "
          "PARTITIONED BY (hours(h), a, years(ts))",
          "ALTER TABLE {t} DROP PARTITION FIELD a",
          "ALTER TABLE {t} ADD PARTITION FIELD bucket(4, a)",
          "ALTER TABLE {t} ADD PARTITION FIELD bucket(8, s)",
          "ALTER TABLE {t} WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY a",
          "ALTER TABLE {t} ALTER COLUMN a TYPE BIGINT",
          "ALTER TABLE {t} ALTER COLUMN s FIRST"],
    "c": ["CREATE TABLE {t} (a INT, b FLOAT, c DOUBLE, e BINARY, f BOOLEAN) USING iceberg "
          "TBLPROPERTIES ('format-version'='1')",
          "ALTER TABLE {t} ADD PARTITION FIELD a",
          "ALTER TABLE {t} ADD PARTITION FIELD truncate(2, e)",
          "ALTER TABLE {t} DROP PARTITION FIELD a",
          "ALTER TABLE {t} WRITE UNORDERED"],
}


def without_metadata_columns(rows):
    """Spark's DESCRIBE EXTENDED less its '# Metadata Columns' section (floe does not list
    them yet)."""
    out, skip = [], False
    for r in rows:
        if r["col_name"] == "# Metadata Columns":
            skip = True
            out.pop()  # the blank row before it
            continue
        if skip and r["col_name"] == "":
            skip = False
        if not skip:
            out.append(r)
    return out


@pytest.mark.parametrize("which", sorted(SHOWN))
def test_show_create_and_describe_as_spark(spark, warehouse, which):
    fl, cat = env(spark, warehouse)
    for q in SHOWN[which]:
        fl.sql(q.format(t="s.t"))
        spark.sql(f"REFRESH TABLE {cat}.s.t")
        want = spark.sql(f"SHOW CREATE TABLE {cat}.s.t").collect()[0][0]
        got = fl.rows("SHOW CREATE TABLE s.t")
        assert got == [{"createtab_stmt": want}], q
        for d in ("DESCRIBE TABLE", "DESCRIBE TABLE EXTENDED"):
            want = [r.asDict() for r in spark.sql(f"{d} {cat}.s.t").collect()]
            got = fl.rows(f"{d} s.t")
            assert got == without_metadata_columns(want), f"{d} after {q}"


RESERVED = ["_file", "_pos", "_deleted", "_spec_id", "_partition", "_row_id",
            "_last_updated_sequence_number"]


def test_reserved_names_as_spark(spark, warehouse):
    """Columns named like metadata columns: created and added by both engines, written,
    and any read of one fails with the same ValidationException; renamed away, the
    metadata column is back."""
    fl, cat = env(spark, warehouse)
    fl.sql("CREATE TABLE s.t (id INT, _file STRING) USING iceberg",
           "INSERT INTO s.t VALUES (1, 'mine')")
    for c in RESERVED[1:]:
        spark.sql(f"ALTER TABLE {cat}.s.t ADD COLUMN {c} STRING")
    spark.sql(f"INSERT INTO {cat}.s.t VALUES (2, 'b', 'c', 'd', 'e', 'f', 'g', 'h')")
    assert [r["col_name"] for r in fl.rows("DESCRIBE s.t")] == ["id"] + RESERVED
    for q in ("SELECT * FROM {t}", "SELECT id, _file FROM {t}", "SELECT _pos, _row_id FROM {t}"):
        want = spark_error(spark, q.format(t=f"{cat}.s.t"), collect=True)
        assert want is not None, q
        got = fl.error(q.format(t="s.t"))
        assert got.splitlines()[0] == f"{want[0]}: {want[1]}", q
    want = spark_rows(spark.sql(f"SELECT id FROM {cat}.s.t"))
    assert floe_read(fl, "SELECT id FROM s.t") == want
    fl.sql("ALTER TABLE s.t RENAME COLUMN _file TO f")
    spark.sql(f"REFRESH TABLE {cat}.s.t")
    q = "SELECT f, _file LIKE '%.parquet' AS p FROM {}"
    want = spark_rows(spark.sql(q.format(f"{cat}.s.t")))
    assert floe_read(fl, q.format("s.t")) == want
