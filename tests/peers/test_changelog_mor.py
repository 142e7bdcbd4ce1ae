# SPDX-License-Identifier: Apache-2.0
"""floe's changelog over merge-on-read tables Spark wrote (issue #24), with Spark's
snapshot reads as the oracle, and Spark reading floe's merged deletion vectors.

Iceberg's changelog scan refuses snapshots that add delete files ("Delete files are
currently not supported in changelog scans"); floe's does not (docs/changelog.md
"Merge-on-read snapshots"). For a Spark-written merge-on-read table (v2: position
delete files; v3: deletion vectors, replaced DVs, row lineage) with INSERT, DELETE,
UPDATE and MERGE commits:

* for every pair of consecutive snapshots, floe's `table_changes` is exactly the
  multiset difference of Spark's `VERSION AS OF` reads of the two snapshots (DELETEs
  and INSERTs, `_change_ordinal` 0, `_commit_snapshot_id` the later snapshot);
* `create_changelog_view(net_changes => true)` over the whole history is the
  difference between the first and the last snapshot;
* compute_updates pairs Spark's UPDATE: by identifier column on v2, by `_row_id`
  without identifier columns on v3 (Spark's UPDATE keeps the row's `_row_id`);
* Spark's own create_changelog_view over the same range refuses.

And the deletion vectors floe merged when two of its writers raced on one data file
(tests/unit/rowlevel/test_conflict.c `concurrent_dv_merge`, run with
FLOE_DV_MERGE_WAREHOUSE): Spark reads both deletes applied, at every snapshot.
"""
import os
import subprocess
from collections import Counter

import pytest

from conftest import (FLOE, add_catalog, floe_json_rows, jdbc_props, key, shared_catalog,
                      spark_rows, uniq)

COLS = "id BIGINT, s STRING, dec DECIMAL(10,2)"


class Cl:
    def __init__(self, spark, wh):
        self.spark, self.wh = spark, wh
        self.floe, self.cat, _ = shared_catalog(spark, wh, uniq("cl"))


@pytest.fixture(scope="module")
def cl(spark, floe_bin, tmp_path_factory):
    return Cl(spark, str(tmp_path_factory.mktemp("changelog")))


def vals(rows):
    return ", ".join(f"({i}, '{s}', {d}BD)" for i, s, d in rows)


def freeze(rows):
    return Counter(key(r) for r in rows)


def build(cl, name, version):
    """A Spark-written merge-on-read history; returns (table, [snapshot ids])."""
    t = f"{cl.cat}.db.{name}"
    sp = cl.spark.sql
    sp(f"CREATE TABLE {t} ({COLS}) USING iceberg PARTITIONED BY (s) "
       f"TBLPROPERTIES ('format-version'='{version}', 'write.delete.mode'='merge-on-read', "
       "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')")
    sp(f"INSERT INTO {t} VALUES " + vals([(i, f"s{i % 3}", f"{i}.00") for i in range(1, 9)]))
    sp(f"INSERT INTO {t} VALUES " + vals([(i, f"s{i % 3}", f"{i}.00") for i in range(9, 13)]))
    sp(f"DELETE FROM {t} WHERE id IN (2, 5)")
    sp(f"DELETE FROM {t} WHERE id = 8")  # a second delete on a file with one (v3: DV replaced)
    sp(f"UPDATE {t} SET dec = 77.70BD WHERE id = 4")
    sp(f"MERGE INTO {t} x USING (SELECT * FROM VALUES (3, 's0', 33.30BD), (13, 's1', 13.00BD) "
       "AS v(id, s, dec)) v ON x.id = v.id "
       "WHEN MATCHED THEN UPDATE SET x.dec = v.dec WHEN NOT MATCHED THEN INSERT *")
    sp(f"DELETE FROM {t} WHERE id = 1")
    snaps = [r.snapshot_id for r in
             sp(f"SELECT snapshot_id FROM {t}.snapshots ORDER BY committed_at").collect()]
    deletes = sp(f"SELECT file_format FROM {t}.delete_files").collect()
    assert deletes and all(d.file_format == ("PUFFIN" if version == 3 else "PARQUET")
                           for d in deletes)
    return t, snaps


def spark_at(cl, t, sid):
    return spark_rows(cl.spark.sql(f"SELECT * FROM {t} VERSION AS OF {sid}"))


def floe_changes(cl, q):
    """floe's changelog rows of `q` (a CALL's own result rows before them dropped)."""
    out = cl.floe.sql(q).stdout
    return [r for r in floe_json_rows(out) if "_change_type" in r]


def split(changes):
    """(rows, type, ordinal, snapshot id) of floe's changelog rows."""
    return [({k: v for k, v in c.items() if not k.startswith("_")}, c["_change_type"],
             int(c["_change_ordinal"]), int(c["_commit_snapshot_id"])) for c in changes]


@pytest.mark.parametrize("version", [2, 3])
def test_changelog_equals_spark_snapshot_difference(cl, version):
    name = f"mor{version}"
    t, snaps = build(cl, name, version)
    ft = f"db.{name}"
    at = {sid: spark_at(cl, t, sid) for sid in snaps}
    cols = "id, s, dec, _change_type, _change_ordinal, _commit_snapshot_id"
    for a, b in zip(snaps, snaps[1:]):
        got = split(floe_changes(cl, f"SELECT {cols} FROM table_changes('{ft}', {a}, {b})"))
        assert all(o == 0 and sid == b for _, _, o, sid in got), got
        ins = freeze(r for r, ty, _, _ in got if ty == "INSERT")
        dels = freeze(r for r, ty, _, _ in got if ty == "DELETE")
        assert all(ty in ("INSERT", "DELETE") for _, ty, _, _ in got)
        before, after = freeze(at[a]), freeze(at[b])
        assert ins == after - before and dels == before - after, (a, b, got)
    # the whole history, net: first -> last
    view = f"{name}_net"
    got = split(floe_changes(cl, f"CALL system.create_changelog_view(table => '{ft}', "
                             f"options => map('start-snapshot-id', '{snaps[0]}', "
                             f"'end-snapshot-id', '{snaps[-1]}'), changelog_view => '{view}', "
                             f"net_changes => true); SELECT {cols} FROM {view}"))
    before, after = freeze(at[snaps[0]]), freeze(at[snaps[-1]])
    assert freeze(r for r, ty, _, _ in got if ty == "INSERT") == after - before
    assert freeze(r for r, ty, _, _ in got if ty == "DELETE") == before - after
    # compute_updates: Spark's UPDATE of id 4 is a pair (v2 by id, v3 by _row_id alone)
    upd = snaps[4]
    ids = "" if version == 3 else ", identifier_columns => array('id')"
    view = f"{name}_upd"
    got = split(floe_changes(cl, f"CALL system.create_changelog_view(table => '{ft}', "
                             f"options => map('start-snapshot-id', '{snaps[3]}', "
                             f"'end-snapshot-id', '{upd}'), changelog_view => '{view}', "
                             f"compute_updates => true{ids}); SELECT {cols} FROM {view}"))
    assert [(r["id"], ty) for r, ty, _, _ in got] == [("4", "UPDATE_BEFORE"),
                                                      ("4", "UPDATE_AFTER")], got
    assert got[0][0]["dec"] == "4.00" and got[1][0]["dec"] == "77.70"


def test_spark_changelog_refuses_delete_files(cl):
    """What floe goes beyond: Iceberg's changelog scan on a merge-on-read range."""
    t, snaps = build(cl, "mor_refused", 3)
    cl.spark.sql(f"CALL {cl.cat}.system.create_changelog_view(table => 'db.mor_refused', "
                 f"options => map('start-snapshot-id', '{snaps[1]}', 'end-snapshot-id', "
                 f"'{snaps[2]}'), changelog_view => 'mor_refused_changes')")
    with pytest.raises(Exception) as e:
        cl.spark.sql("SELECT * FROM mor_refused_changes").collect()
    assert "Delete files are currently not supported in changelog scans" in str(e.value)
    # floe answers the same range: the two rows the DELETE removed
    got = split(floe_changes(cl, f"SELECT id, s, dec, _change_type, _change_ordinal, "
                             f"_commit_snapshot_id FROM table_changes('db.mor_refused', "
                             f"{snaps[1]}, {snaps[2]})"))
    assert sorted((r["id"], ty) for r, ty, _, _ in got) == [("2", "DELETE"), ("5", "DELETE")]


def test_spark_reads_floe_merged_dvs(spark, floe_bin, tmp_path):
    """Two floe writers raced on one data file; the second's retry merged the first's DV
    into its own (beyond Java's 'Found concurrently added DV'). Spark reads every
    snapshot with both deletes applied, and one DV per data file."""
    binary = os.path.join(os.path.dirname(FLOE), "rowlevel_test_conflict")
    if not os.access(binary, os.X_OK):
        pytest.skip("no rowlevel_test_conflict next to " + FLOE)
    wh = str(tmp_path / "wh")
    os.makedirs(wh)
    env = dict(os.environ, FLOE_DV_MERGE_WAREHOUSE=wh)
    p = subprocess.run([binary, "concurrent_dv_merge"], capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0 and "0 failed" in p.stdout, p.stdout + p.stderr
    name = "dvmerge"  # the unit test's catalog name (catalog_name column)
    add_catalog(spark, name, jdbc_props(os.path.join(wh, "catalog.db"), wh))
    t = f"{name}.shop.orders"
    snaps = [r.snapshot_id for r in
             spark.sql(f"SELECT snapshot_id FROM {t}.snapshots ORDER BY committed_at").collect()]
    assert len(snaps) == 4  # two appends, then the two racing deletes
    want = {snaps[1]: [1001, 1002, 1003], snaps[2]: [1002, 1003], snaps[3]: [1003]}
    for sid, ids in want.items():
        got = sorted(r.order_id for r in
                     spark.sql(f"SELECT order_id FROM {t} VERSION AS OF {sid}").collect())
        assert got == ids, (sid, got)
    dvs = spark.sql(f"SELECT file_format, referenced_data_file, record_count "
                    f"FROM {t}.delete_files").collect()
    assert [(d.file_format, d.record_count) for d in dvs] == [("PUFFIN", 2)], dvs
    # and Spark writes on top of the merged DV (merging it once more)
    spark.sql(f"DELETE FROM {t} WHERE order_id = 1003")
    assert spark.sql(f"SELECT count(*) AS n FROM {t}").collect()[0].n == 0
