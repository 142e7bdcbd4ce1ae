# SPDX-License-Identifier: Apache-2.0
"""The matrix cells of issue #19 item 5 that need a table of their own: the void
transform, write-audit-publish by `spark.wap.branch`, remove_orphan_files, Spark's
rewrite_data_files / rewrite_manifests, v3 tables Spark writes (deletion vectors, row
lineage) and time travel across a schema change.

Each test has its own table on one shared warehouse (floe's catalog.db, opened by
`floe sql`, Spark's JDBC catalog and PyIceberg's SqlCatalog under one name), the sides
interleaved. After every step the readers read every snapshot of the table
(`VERSION AS OF` / `scan(snapshot_id=)`) and the rows are compared exactly with the
model the test keeps (snapshot id -> rows, written by the test, never by a reader).
The Spark session is the suite's one session (conftest).
"""
import os
import time

import pytest

from conftest import (FloeError, arrow_rows, canon_rows, floe_json_rows, key, shared_catalog,
                      spark_rows)

NAME = "cells"
DAY = 86400


class Cells:
    """The shared warehouse and its three clients."""

    def __init__(self, spark, wh, name=NAME):
        """`name`: the catalog name (another module's warehouse needs its own)."""
        self.spark, self.wh = spark, wh
        self.floe, self.cat, self.py = shared_catalog(spark, wh, name)


@pytest.fixture(scope="module")
def cells(spark, floe_bin, tmp_path_factory):
    return Cells(spark, str(tmp_path_factory.mktemp("cells")))


class Table:
    """One table of a cell: the model is snapshot id -> canonical rows."""

    def __init__(self, c, name):
        self.c, self.t = c, "db." + name
        self.model = {}

    def sql(self, q):
        """Spark SQL with {T} for the table in Spark's catalog."""
        return self.c.spark.sql(q.replace("{T}", f"{self.c.cat}.{self.t}"))

    def fsql(self, *stmts):
        """floe sql with {T} for the table."""
        return self.c.floe.sql(*(s.replace("{T}", self.t) for s in stmts))

    def frows(self, q):
        return self.c.floe.rows(q.replace("{T}", self.t))

    def ref(self, name="main"):
        r = self.frows(f"SELECT snapshot_id FROM {{T}}.refs WHERE name = '{name}'")
        return int(r[0]["snapshot_id"]) if r else None

    def snapshots(self):
        return [int(r["snapshot_id"]) for r in
                self.frows("SELECT snapshot_id FROM {T}.snapshots ORDER BY committed_at")]

    def record(self, rows, ref="main"):
        sid = self.ref(ref)
        self.model[sid] = canon_rows(rows)
        return sid

    def rows_at(self, sid):
        return self.model[sid]

    def check(self, floe=True, spark=True, py=True):
        """Every side reads every snapshot of the model, and main."""
        assert set(self.model) <= set(self.snapshots())
        main = self.ref()
        if floe:
            for sid, want in self.model.items():
                out = self.fsql(f"SELECT * FROM {{T}} VERSION AS OF {sid}").stdout
                assert sorted(floe_json_rows(out), key=key) == want, f"floe, snapshot {sid}"
            out = self.fsql("SELECT * FROM {T}").stdout
            assert sorted(floe_json_rows(out), key=key) == self.model[main], "floe, main"
        if spark:
            self.sql("REFRESH TABLE {T}")
            for sid, want in self.model.items():
                got = spark_rows(self.sql(f"SELECT * FROM {{T}} VERSION AS OF {sid}"))
                assert got == want, f"Spark, snapshot {sid}"
            assert spark_rows(self.sql("SELECT * FROM {T}")) == self.model[main], "Spark, main"
        if py:
            t = self.c.py.load_table(self.t)
            for sid, want in self.model.items():
                got = arrow_rows(t.scan(snapshot_id=sid).to_arrow())
                assert got == want, f"PyIceberg, snapshot {sid}"


def r(i, s=None, dec=None):
    """A row of the (id BIGINT, s STRING, dec DECIMAL(10,2)) tables."""
    from decimal import Decimal
    return {"id": i, "s": s if s is not None else f"s{i % 3}",
            "dec": Decimal(dec if dec is not None else f"{i}.{i % 100:02d}")}


def vals(rows, spark=False):
    """VALUES of rows, the same text for both engines (decimals as BD literals); `spark`
    only documents the call site."""
    return ", ".join(f"({x['id']}, '{x['s']}', {x['dec']}BD)" for x in rows)


COLS = "id BIGINT, s STRING, dec DECIMAL(10,2)"


def specs(t):
    """The partition specs of the table's current metadata, as PyIceberg reads them."""
    tbl = t.c.py.load_table(t.t)
    return {sid: [(f.name, str(f.transform)) for f in spec.fields]
            for sid, spec in tbl.specs().items()}


# --- a. the void transform -------------------------------------------------------------------

def test_a1_void_from_v1_partition_drop(cells):
    """Spark drops a partition field of a v1 table: v1 keeps it as a void field. floe writes
    in the spec with void, Spark writes after floe; everyone reads every snapshot."""
    t = Table(cells, "void1")
    t.sql(f"CREATE TABLE {{T}} ({COLS}) USING iceberg PARTITIONED BY (s, bucket(2, id)) "
          "TBLPROPERTIES ('format-version'='1')")
    t.sql("INSERT INTO {T} VALUES " + vals([r(1), r(2)], True))
    rows = [r(1), r(2)]
    t.record(rows)
    t.sql("ALTER TABLE {T} DROP PARTITION FIELD s")
    sp = specs(t)
    assert sp[1] == [("s", "void"), ("id_bucket", "bucket[2]")], sp
    t.fsql("INSERT INTO {T} VALUES " + vals([r(3), r(4)]))
    rows += [r(3), r(4)]
    t.record(rows)
    t.check()
    t.sql("INSERT INTO {T} VALUES " + vals([r(5)], True))
    rows += [r(5)]
    t.record(rows)
    t.check()
    files = {(int(x["spec_id"]), x["partition"]["s"] if "s" in x["partition"] else "absent")
             for x in t.frows("SELECT spec_id, partition FROM {T}.files")}
    sfiles = {(x.spec_id, x.partition["s"]) for x in t.sql("SELECT * FROM {T}.files").collect()}
    # a void field's partition value is null; floe's files table says so as Spark does
    assert {s for s, _ in files} == {0, 1}
    assert sorted(files, key=str) == sorted(((s, v) for s, v in sfiles), key=str)


def test_a2_void_in_a_v2_spec_from_pyiceberg(cells):
    """PyIceberg creates a v2 table whose spec has a void field (Spark SQL cannot say
    void); floe writes, Spark writes, everyone reads."""
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import IdentityTransform, VoidTransform
    from pyiceberg.types import DecimalType, LongType, NestedField, StringType
    schema = Schema(NestedField(1, "id", LongType(), required=False),
                    NestedField(2, "s", StringType(), required=False),
                    NestedField(3, "dec", DecimalType(10, 2), required=False))
    spec = PartitionSpec(PartitionField(2, 1000, VoidTransform(), "s_void"),
                         PartitionField(2, 1001, IdentityTransform(), "s"))
    cells.py.create_table("db.void2", schema=schema, partition_spec=spec,
                          properties={"format-version": "2"})
    t = Table(cells, "void2")
    t.fsql("INSERT INTO {T} VALUES " + vals([r(1), r(2), r(3)]))
    rows = [r(1), r(2), r(3)]
    t.record(rows)
    t.check()
    t.sql("INSERT INTO {T} VALUES " + vals([r(4)], True))
    rows += [r(4)]
    t.record(rows)
    t.fsql("DELETE FROM {T} WHERE id = 2")
    rows = [x for x in rows if x["id"] != 2]
    t.record(rows)
    t.check()
    parts = [x.partition.asDict() for x in t.sql("SELECT partition FROM {T}.files").collect()]
    assert all(p["s_void"] is None for p in parts) and len(parts) == 3


# --- b. write-audit-publish by spark.wap.branch -------------------------------------------

def test_b_wap_branch_both_ways(cells):
    t = Table(cells, "wapb")
    t.fsql(f"CREATE TABLE {{T}} ({COLS}) USING iceberg "
           "TBLPROPERTIES ('write.wap.enabled'='true')",
           "INSERT INTO {T} VALUES " + vals([r(1), r(2)]))
    rows = [r(1), r(2)]
    base = t.record(rows)
    # floe stages on a branch by spark.wap.branch (created from main's head)
    t.fsql("SET spark.wap.branch = audit1", "INSERT INTO {T} VALUES " + vals([r(3)]))
    assert t.ref() == base
    staged = t.record(rows + [r(3)], "audit1")
    t.check()
    assert spark_rows(t.sql("SELECT * FROM {T} VERSION AS OF 'audit1'")) == t.model[staged]
    # Spark audits the branch by spark.wap.branch, then publishes by fast_forward
    cells.spark.conf.set("spark.wap.branch", "audit1")
    try:
        assert spark_rows(t.sql("SELECT * FROM {T}")) == t.model[staged]
    finally:
        cells.spark.conf.unset("spark.wap.branch")
    t.sql(f"CALL {cells.cat}.system.fast_forward('{t.t}', 'main', 'audit1')")
    assert t.ref() == staged
    rows = rows + [r(3)]
    t.check()
    # Spark stages by spark.wap.branch on a branch floe made; floe reads it and
    # publishes it by cherrypick_snapshot
    t.fsql("ALTER TABLE {T} CREATE BRANCH audit2")
    cells.spark.conf.set("spark.wap.branch", "audit2")
    try:
        t.sql("INSERT INTO {T} VALUES " + vals([r(4), r(5)], True))
    finally:
        cells.spark.conf.unset("spark.wap.branch")
    assert t.ref() == staged
    sid = t.record(rows + [r(4), r(5)], "audit2")
    got = floe_json_rows(t.fsql("SET spark.wap.branch = audit2", "SELECT * FROM {T}").stdout)
    assert sorted(got, key=key) == t.model[sid]
    t.check()
    t.fsql(f"CALL {NAME}.system.cherrypick_snapshot('{{T}}', {sid})")
    rows = rows + [r(4), r(5)]
    t.record(rows)
    t.check()
    refs = {x.name: x.snapshot_id for x in t.sql("SELECT * FROM {T}.refs").collect()}
    assert refs["audit1"] == staged and refs["audit2"] == sid and refs["main"] == sid


# --- c. remove_orphan_files --------------------------------------------------------------

def _tree(t):
    root = t.c.py.load_table(t.t).location().replace("file://", "")
    out = set()
    for d, _, files in os.walk(root):
        for f in files:
            out.add(os.path.join(d, f))
    return root, out


def _age_everything(paths, days):
    old = time.time() - days * DAY
    for p in paths:
        os.utime(p, (old, old))


def _plant(root):
    """Real orphans, 3 days old: a copy of a data file, of a manifest, and of a metadata
    file under a new version name (an uncommitted version of this table); plus one fresh
    orphan that must stay (younger than older_than)."""
    def first(d, suffix):
        for dd, _, files in sorted(os.walk(os.path.join(root, d))):
            for f in sorted(files):
                if f.endswith(suffix) and not f.startswith("."):
                    return os.path.join(dd, f)
    copies = {os.path.join(root, "data", "orphan-00000.parquet"): first("data", ".parquet"),
              os.path.join(root, "metadata", "orphan-m0.avro"): first("metadata", "-m0.avro"),
              os.path.join(root, "metadata", "99999-orphan.metadata.json"):
                  first("metadata", ".metadata.json")}
    fresh = os.path.join(root, "data", "fresh-orphan.parquet")
    copies[fresh] = copies[os.path.join(root, "data", "orphan-00000.parquet")]
    for dst, src in copies.items():
        assert src, dst
        with open(src, "rb") as f, open(dst, "wb") as g:
            g.write(f.read())
    return set(copies) - {fresh}, fresh


GARBAGE = "00000-garbage.metadata.json"


def _orphan_case(t, run, garbage):
    """run() removes the orphans and returns their locations. `garbage`: what the
    engine does with a metadata file no table can own (not JSON) — floe refuses to
    sweep (it cannot tell which table the file belongs to), Spark deletes it."""
    root, before = _tree(t)
    _age_everything(before, 3)  # every real file old too: only reachability keeps it
    old, fresh = _plant(root)
    junk = os.path.join(root, "metadata", GARBAGE)
    with open(junk, "w") as f:
        f.write("not json")
    _age_everything(old | {junk}, 3)
    if garbage == "refuse":
        with pytest.raises(FloeError) as e:
            run()
        assert GARBAGE in str(e.value) and "cannot tell which table" in str(e.value)
        assert _tree(t)[1] == before | old | {fresh, junk}, "floe deleted files while refusing"
        os.unlink(junk)
    else:
        old.add(junk)
    removed = run()
    _, after = _tree(t)
    assert before - after == set(), "a reachable file was deleted"
    assert after == before | {fresh}, sorted((before | old | {fresh}) - after)
    assert {p.replace("file:", "") for p in removed} == old
    t.check()


OLDER = "TIMESTAMP '{}'".format(time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(time.time() - 2 * DAY)))


def _three_commits(t, write):
    """Two appends and a merge-on-read delete, each statement run by `write`."""
    write(f"CREATE TABLE {{T}} ({COLS}) USING iceberg PARTITIONED BY (s) "
          "TBLPROPERTIES ('write.delete.mode'='merge-on-read')")
    rows = []
    for stmt, after in [("INSERT INTO {T} VALUES " + vals([r(1), r(2), r(3)]), [1, 2, 3]),
                        ("INSERT INTO {T} VALUES " + vals([r(4)]), [1, 2, 3, 4]),
                        ("DELETE FROM {T} WHERE id = 2", [1, 3, 4])]:
        write(stmt)
        rows = [r(i) for i in after]
        t.record(rows)
    t.check()


def test_c1_floe_removes_orphans_of_a_spark_table(cells):
    t = Table(cells, "orph1")
    _three_commits(t, t.sql)

    def run():
        out = t.frows(f"CALL {NAME}.system.remove_orphan_files(table => '{{T}}', "
                      f"older_than => {OLDER})")
        return [x["orphan_file_location"] for x in out]
    _orphan_case(t, run, "refuse")


def test_c2_spark_removes_orphans_of_a_floe_table(cells):
    t = Table(cells, "orph2")
    _three_commits(t, t.fsql)

    def run():
        out = t.sql(f"CALL {cells.cat}.system.remove_orphan_files(table => '{t.t}', "
                    f"older_than => {OLDER})").collect()
        return [x.orphan_file_location for x in out]
    _orphan_case(t, run, "delete")


# --- d. Spark's rewrite_data_files and rewrite_manifests on a floe table -----------------

def test_d_spark_rewrites_a_floe_table(cells):
    t = Table(cells, "rewr")
    t.fsql(f"CREATE TABLE {{T}} ({COLS}) USING iceberg PARTITIONED BY (s) "
           "TBLPROPERTIES ('write.delete.mode'='merge-on-read')")
    rows = []
    for i in range(1, 4):  # three small commits: three files per partition at most
        t.fsql("INSERT INTO {T} VALUES " + vals([r(i), r(i + 10)]))
        rows += [r(i), r(i + 10)]
        t.record(rows)
    t.fsql("DELETE FROM {T} WHERE id = 3")
    rows = [x for x in rows if x["id"] != 3]
    t.record(rows)
    nfiles = len(t.frows("SELECT file_path FROM {T}.files"))
    nman = len(t.frows("SELECT path FROM {T}.manifests"))
    out = t.sql(f"CALL {cells.cat}.system.rewrite_data_files(table => '{t.t}', "
                "options => map('min-input-files', '2', 'delete-file-threshold', '1'))").collect()
    assert out[0].rewritten_data_files_count > 0
    t.record(rows)
    t.check()
    assert t.frows("SELECT operation FROM {T}.snapshots ORDER BY committed_at")[-1] == \
        {"operation": "replace"}
    after = len(t.frows("SELECT file_path FROM {T}.files WHERE content = 0"))
    assert after < nfiles
    out = t.sql(f"CALL {cells.cat}.system.rewrite_manifests('{t.t}')").collect()
    assert out[0].rewritten_manifests_count > 0
    t.record(rows)
    t.check()
    assert len(t.frows("SELECT path FROM {T}.manifests")) <= nman
    # floe writes on the rewritten table; Spark and PyIceberg read floe's write
    t.fsql("INSERT INTO {T} VALUES " + vals([r(30)]), "DELETE FROM {T} WHERE id = 11")
    rows = [x for x in rows if x["id"] != 11] + [r(30)]
    t.record(rows)
    t.check()


def lineage_matches(t):
    """Spark's and floe's _row_id / _last_updated_sequence_number agree at every snapshot."""
    t.sql("REFRESH TABLE {T}")
    lq = "SELECT id, _row_id, _last_updated_sequence_number FROM {T}"
    for sid in list(t.model) + [None]:
        q = lq + (f" VERSION AS OF {sid}" if sid else "")
        want = sorted((x.id, x._row_id, x._last_updated_sequence_number)
                      for x in t.sql(q).collect())
        got = sorted((int(x["id"]), x["_row_id"], x["_last_updated_sequence_number"])
                     for x in t.frows(q))
        assert got == want and all(v is not None for _, v, _ in want), (sid, got, want)


# --- e. v3 tables Spark writes: deletion vectors, row lineage ----------------------------

def test_e_spark_v3_deletion_vectors_and_row_lineage(cells):
    t = Table(cells, "v3")
    t.sql(f"CREATE TABLE {{T}} ({COLS}) USING iceberg PARTITIONED BY (s) "
          "TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read', "
          "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')")
    rows = [r(i) for i in range(1, 9)]
    t.sql("INSERT INTO {T} VALUES " + vals(rows, True))
    t.record(rows)
    t.sql("DELETE FROM {T} WHERE id IN (2, 5)")
    rows = [x for x in rows if x["id"] not in (2, 5)]
    t.record(rows)
    t.sql("DELETE FROM {T} WHERE id = 8")  # a second DV on a file that has one: merged
    rows = [x for x in rows if x["id"] != 8]
    t.record(rows)
    t.sql("UPDATE {T} SET dec = 77.70BD WHERE id = 4")
    rows = [x if x["id"] != 4 else r(4, dec="77.70") for x in rows]
    t.record(rows)
    t.sql("INSERT INTO {T} VALUES " + vals([r(9)], True))
    rows += [r(9)]
    t.record(rows)
    dvs = t.sql("SELECT file_format, content FROM {T}.delete_files").collect()
    assert dvs and all(x.file_format == "PUFFIN" for x in dvs)
    assert t.c.py.load_table(t.t).metadata.format_version == 3
    t.check()  # PyIceberg 0.12 reads deletion vectors too
    ffiles = sorted(x["file_format"] for x in t.frows("SELECT file_format FROM {T}.delete_files"))
    assert ffiles == sorted(x.file_format for x in dvs)
    # row lineage: every data file's first_row_id, inherited from its manifest where the
    # manifest entry has none, as Spark's files table shows it
    q = "SELECT file_path, first_row_id FROM {T}.files WHERE content = 0"
    sfr = sorted((x.file_path, x.first_row_id) for x in t.sql(q).collect())
    ffr = sorted((x["file_path"], x["first_row_id"]) for x in t.frows(q))
    assert ffr == sfr and all(v is not None for _, v in sfr), (ffr, sfr)
    # Spark's _row_id and _last_updated_sequence_number metadata columns, at every
    # snapshot: inherited from first_row_id + _pos and the data sequence number, or
    # stored in the file (the updated row keeps its _row_id)
    lineage_matches(t)
    lq = "SELECT id, _row_id, _last_updated_sequence_number FROM {T}"
    upd = [x for x in t.sql(lq).collect() if x.id == 4]
    assert upd and upd[0]._last_updated_sequence_number > 1, upd


def test_e2_floe_v3_deletion_vectors_and_row_lineage(cells):
    """floe writes a v3 table (row ids, DVs merged per data file); Spark reads every
    snapshot with the same rows and _row_id values, then writes DVs on floe's files that
    floe merges again."""
    t = Table(cells, "fv3")
    t.fsql(f"CREATE TABLE {{T}} ({COLS}) USING iceberg PARTITIONED BY (s) "
           "TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read', "
           "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')")
    rows = [r(i) for i in range(1, 9)]
    t.fsql("INSERT INTO {T} VALUES " + vals(rows))
    t.record(rows)
    t.fsql("INSERT INTO {T} VALUES " + vals([r(9), r(10)]))
    rows += [r(9), r(10)]
    t.record(rows)
    t.fsql("DELETE FROM {T} WHERE id IN (2, 5)")
    rows = [x for x in rows if x["id"] not in (2, 5)]
    t.record(rows)
    t.fsql("DELETE FROM {T} WHERE id IN (8, 9)")  # DVs on files that have one: merged
    rows = [x for x in rows if x["id"] not in (8, 9)]
    t.record(rows)
    t.fsql("UPDATE {T} SET dec = 77.70BD WHERE id = 4")
    rows = [x if x["id"] != 4 else r(4, dec="77.70") for x in rows]
    t.record(rows)
    dvs = t.sql("SELECT file_format, referenced_data_file FROM {T}.delete_files").collect()
    assert dvs and all(x.file_format == "PUFFIN" for x in dvs)
    assert len({x.referenced_data_file for x in dvs}) == len(dvs)  # one DV per data file
    t.check()
    lineage_matches(t)
    # Spark deletes on floe's v3 table (merging floe's DVs); floe reads and writes again
    t.sql("DELETE FROM {T} WHERE id = 1")
    rows = [x for x in rows if x["id"] != 1]
    t.record(rows)
    t.fsql("DELETE FROM {T} WHERE id = 3", "INSERT INTO {T} VALUES " + vals([r(11)]))
    rows = [x for x in rows if x["id"] != 3] + [r(11)]
    t.record(rows)
    dvs = t.sql("SELECT referenced_data_file FROM {T}.delete_files").collect()
    assert len({x.referenced_data_file for x in dvs}) == len(dvs)
    t.check()
    lineage_matches(t)


def test_e3_floe_writes_a_spark_v3_table(cells):
    """Spark creates a v3 table with DVs; floe appends and deletes (merging Spark's DV);
    Spark reads every snapshot, _row_id values equal."""
    t = Table(cells, "sv3")
    t.sql(f"CREATE TABLE {{T}} ({COLS}) USING iceberg "
          "TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read')")
    rows = [r(i) for i in range(1, 7)]
    t.sql("INSERT INTO {T} VALUES " + vals(rows, True))
    t.record(rows)
    t.sql("DELETE FROM {T} WHERE id = 2")
    rows = [x for x in rows if x["id"] != 2]
    t.record(rows)
    t.fsql("INSERT INTO {T} VALUES " + vals([r(7), r(8)]))
    rows += [r(7), r(8)]
    t.record(rows)
    t.fsql("DELETE FROM {T} WHERE id IN (3, 7)")
    rows = [x for x in rows if x["id"] not in (3, 7)]
    t.record(rows)
    dvs = t.sql("SELECT file_format, referenced_data_file FROM {T}.delete_files").collect()
    assert dvs and all(x.file_format == "PUFFIN" for x in dvs)
    assert len({x.referenced_data_file for x in dvs}) == len(dvs)
    t.check()
    lineage_matches(t)


# --- f. time travel across a schema change -----------------------------------------------

def test_f_time_travel_across_schema_change(cells):
    """Spark reads VERSION AS OF an old snapshot with that snapshot's schema; floe prints
    the same columns and rows for every snapshot, after ADD, DROP and RENAME COLUMN."""
    t = Table(cells, "ttsc")
    t.sql("CREATE TABLE {T} (id BIGINT, a STRING, b INT) USING iceberg")
    t.sql("INSERT INTO {T} VALUES (1, 'a1', 10), (2, 'a2', 20)")
    s1 = t.ref()
    t.sql("ALTER TABLE {T} ADD COLUMN c DOUBLE")
    t.fsql("INSERT INTO {T} VALUES (3, 'a3', 30, 3.5)")
    s2 = t.ref()
    t.sql("ALTER TABLE {T} DROP COLUMN b")
    t.sql("ALTER TABLE {T} RENAME COLUMN a TO a2")
    t.sql("INSERT INTO {T} VALUES (4, 'a4', 4.5)")
    s3 = t.ref()
    t.fsql("INSERT INTO {T} VALUES (5, 'a5', 5.5)")
    s4 = t.ref()
    want = {
        s1: (["id", "a", "b"], [{"id": 1, "a": "a1", "b": 10}, {"id": 2, "a": "a2", "b": 20}]),
        s2: (["id", "a", "b", "c"], [{"id": 1, "a": "a1", "b": 10, "c": None},
                                     {"id": 2, "a": "a2", "b": 20, "c": None},
                                     {"id": 3, "a": "a3", "b": 30, "c": 3.5}]),
        s3: (["id", "a2", "c"], [{"id": i, "a2": f"a{i}", "c": c}
                                 for i, c in [(1, None), (2, None), (3, 3.5), (4, 4.5)]]),
    }
    want[s4] = (["id", "a2", "c"], want[s3][1] + [{"id": 5, "a2": "a5", "c": 5.5}])
    t.sql("REFRESH TABLE {T}")
    for sid, (cols, rows) in want.items():
        sdf = t.sql(f"SELECT * FROM {{T}} VERSION AS OF {sid}")
        assert sdf.columns == cols, f"Spark, snapshot {sid}: {sdf.columns}"
        assert spark_rows(sdf) == canon_rows(rows), f"Spark, snapshot {sid}"
        out = t.fsql(f"SELECT * FROM {{T}} VERSION AS OF {sid}").stdout
        got = floe_json_rows(out)
        assert [list(x.keys()) for x in got] == [cols] * len(rows), f"floe, snapshot {sid}"
        assert sorted(got, key=key) == canon_rows(rows), f"floe, snapshot {sid}"
        py = t.c.py.load_table(t.t).scan(snapshot_id=sid).to_arrow()
        assert py.column_names == cols and arrow_rows(py) == canon_rows(rows), \
            f"PyIceberg, snapshot {sid}"


# --- h. the row-level grid the matrix leaves open --------------------------------------
# The matrix has DELETE copy-on-write (floe) and merge-on-read (Spark), UPDATE merge-on-read
# (both), MERGE merge-on-read (Spark) and copy-on-write (floe); here the rest, each by the
# engine that has not done it yet: DELETE copy-on-write (Spark), DELETE merge-on-read
# (floe), UPDATE copy-on-write (Spark, floe), MERGE copy-on-write (Spark), MERGE
# merge-on-read (floe).

def test_h_row_level_grid(cells):
    t = Table(cells, "grid")
    t.fsql(f"CREATE TABLE {{T}} ({COLS}) USING iceberg PARTITIONED BY (s)",
           "INSERT INTO {T} VALUES " + vals([r(i) for i in range(1, 9)]))
    rows = {i: r(i) for i in range(1, 9)}

    def step(engine, mode, stmt, change):
        props = ", ".join(f"'write.{op}.mode'='{mode}'" for op in ("delete", "update", "merge"))
        alter = "ALTER TABLE {T} SET TBLPROPERTIES (" + props + ")"
        if engine == "spark":
            t.sql(alter)
            t.sql(stmt)
        else:
            t.fsql(alter, stmt)
        change(rows)
        t.record(list(rows.values()))
        t.check()

    step("spark", "copy-on-write", "DELETE FROM {T} WHERE id = 1", lambda m: m.pop(1))
    step("floe", "merge-on-read", "DELETE FROM {T} WHERE id = 2", lambda m: m.pop(2))
    step("spark", "copy-on-write", "UPDATE {T} SET dec = 30.50BD WHERE id = 3",
         lambda m: m.update({3: r(3, dec="30.50")}))
    step("floe", "copy-on-write", "UPDATE {T} SET dec = 40.25BD WHERE id = 4",
         lambda m: m.update({4: r(4, dec="40.25")}))
    merge = ("MERGE INTO {{T}} t USING (SELECT {a} AS id, 'm' AS s, {d}BD AS dec UNION ALL "
             "SELECT {b}, 's0', 1.00BD) u ON t.id = u.id "
             "WHEN MATCHED THEN UPDATE SET t.dec = u.dec WHEN NOT MATCHED THEN INSERT *")
    step("spark", "copy-on-write", merge.format(a=5, d="50.50", b=20),
         lambda m: m.update({5: r(5, dec="50.50"), 20: r(20, s="s0", dec="1.00")}))
    step("floe", "merge-on-read", merge.format(a=6, d="60.60", b=21),
         lambda m: m.update({6: r(6, dec="60.60"), 21: r(21, s="s0", dec="1.00")}))
    assert len(t.snapshots()) == 7
    deletes = t.frows("SELECT count(*) AS n FROM {T}.delete_files")[0]["n"]
    assert deletes >= 2  # floe's merge-on-read DELETE and MERGE wrote delete files


# --- CAST(x AS DECIMAL(p, s)) and the BD literal: Spark is the oracle ----------------------
# The same expressions and values are in tests/cli/sql_decimal_cast.sh (floe alone).

DECIMAL_CASES = [
    ("CAST(1 AS DECIMAL(10,2))", "1.00"),
    ("CAST(2.345 AS DECIMAL(10,2))", "2.35"),
    ("CAST(-2.345 AS DECIMAL(10,2))", "-2.35"),
    ("CAST('12.5' AS DECIMAL(3,0))", "13"),
    ("CAST(12345.6 AS DECIMAL(3,1))", None),
    ("CAST('12345678901234567890123456789012.1234565' AS DECIMAL(38,6))",
     "12345678901234567890123456789012.123457"),
    ("CAST(12345678901234567890123456789012.123456 AS DECIMAL(38,6))",
     "12345678901234567890123456789012.123456"),
    ("CAST('abc' AS DECIMAL(5,2))", None),
    ("CAST(' 1e2 ' AS DECIMAL(5,1))", "100.0"),
    ("CAST(-0.001 AS DECIMAL(5,2))", "0.00"),
    ("CAST(99.995 AS DECIMAL(4,2))", None),
    ("CAST(9.995 AS DECIMAL(4,2))", "10.00"),
    ("CAST(1.5 AS DECIMAL)", "2"),
    ("CAST(CAST(2.5 AS DOUBLE) AS DECIMAL(3,0))", "3"),
    ("CAST(CAST(0.125 AS DOUBLE) AS DECIMAL(5,2))", "0.13"),
    ("1.5BD", "1.5"),
    ("1.50BD", "1.50"),
    ("0.001BD", "0.001"),
    ("-12345678901234567890123456789012.123456BD", "-12345678901234567890123456789012.123456"),
    ("99999999999999999999999999999999999999BD", "99999999999999999999999999999999999999"),
]


def test_g_decimal_cast_and_bd_literal_match_spark(cells):
    sel = "SELECT " + ", ".join(f"{e} AS c{i}" for i, (e, _) in enumerate(DECIMAL_CASES))
    want = {f"c{i}": v for i, (_, v) in enumerate(DECIMAL_CASES)}
    assert spark_rows(cells.spark.sql(sel)) == [want]
    assert floe_json_rows(cells.floe.sql(sel).stdout) == [want]
    # and stored exactly in a DECIMAL(38,6) column, both ways
    t = Table(cells, "decs")
    t.fsql("CREATE TABLE {T} (id BIGINT, big DECIMAL(38,6))",
           "INSERT INTO {T} VALUES (1, CAST('12345678901234567890123456789012.1234565' AS "
           "DECIMAL(38,6))), (2, -12345678901234567890123456789012.123456BD)")
    t.sql("INSERT INTO {T} VALUES (3, CAST('0.0000005' AS DECIMAL(38,6)))")
    rows = [{"id": 1, "big": want["c5"]}, {"id": 2, "big": want["c18"]},
            {"id": 3, "big": "0.000001"}]
    t.model[t.ref()] = canon_rows(rows)
    t.check(py=False)


@pytest.mark.parametrize("expr,msg", [
    ("CAST(1 AS DECIMAL(39,2))", "Decimal precision 39 exceeds max precision 38."),
    ("CAST(1 AS DECIMAL(2,3))", "Decimal scale (3) cannot be greater than precision (2)."),
    ("123456789012345678901234567890123456789BD",
     "Decimal precision 39 exceeds max precision 38."),
])
def test_g_decimal_errors_match_spark(cells, expr, msg):
    with pytest.raises(Exception) as e:
        cells.spark.sql(f"SELECT {expr}").collect()
    assert msg in str(e.value), str(e.value)[:400]
    assert msg in cells.floe.error(f"SELECT {expr}")
