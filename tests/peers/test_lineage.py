# SPDX-License-Identifier: Apache-2.0
"""Row lineage through copy-on-write (spec "Row Lineage", issue #24): the same UPDATE,
DELETE and MERGE statements run by floe on one v3 table and by Spark (the oracle) on a
twin, copy-on-write and merge-on-read; at every snapshot Spark reads both tables and
their `_row_id` / `_last_updated_sequence_number` agree (a surviving row keeps both, an
updated row keeps its id and takes the commit's sequence number, an inserted row gets a
new id). Then the engines swap tables: floe rewrites Spark's files (which store the
lineage columns) and Spark rewrites floe's.
"""
import pytest

from test_cells import COLS, Cells, Table, lineage_matches, r, vals

NAME = "lineage"


@pytest.fixture(scope="module")
def cells(spark, floe_bin, tmp_path_factory):
    return Cells(spark, str(tmp_path_factory.mktemp("lineage")), NAME)


def lineage(t, sid=None):
    """id -> (_row_id, _last_updated_sequence_number) as Spark reads the table."""
    q = "SELECT id, _row_id, _last_updated_sequence_number FROM {T}"
    q += f" VERSION AS OF {sid}" if sid else ""
    return {x.id: (x._row_id, x._last_updated_sequence_number) for x in t.sql(q).collect()}


STEPS = [
    "INSERT INTO {T} VALUES " + vals([r(i) for i in range(1, 7)]),
    "INSERT INTO {T} VALUES " + vals([r(7), r(8)]),
    "UPDATE {T} SET s = 'u' WHERE id = 2",
    "DELETE FROM {T} WHERE id = 7",
    "UPDATE {T} SET dec = dec + 1 WHERE id IN (3, 8)",
    "MERGE INTO {T} t USING (SELECT 4L AS id, 'm' AS s, 4.44BD AS dec UNION ALL "
    "SELECT 30L, 'i', 30.3BD) src ON t.id = src.id "
    "WHEN MATCHED THEN UPDATE SET s = src.s WHEN NOT MATCHED THEN INSERT *",
    "DELETE FROM {T} WHERE id = 5",
]
# after the swap: floe on Spark's table, Spark on floe's
SWAPPED = [
    "UPDATE {T} SET s = 'w' WHERE id IN (1, 2)",
    "DELETE FROM {T} WHERE id = 6",
    "MERGE INTO {T} t USING (SELECT 3L AS id, 'n' AS s, 3.33BD AS dec) src ON t.id = src.id "
    "WHEN MATCHED THEN UPDATE SET s = src.s",
]


@pytest.mark.parametrize("mode", ["copy-on-write", "merge-on-read"])
def test_lineage_same_as_spark(cells, mode):
    tag = "cow" if mode == "copy-on-write" else "mor"
    f, s = Table(cells, "lf" + tag), Table(cells, "ls" + tag)
    ddl = (f"CREATE TABLE {{T}} ({COLS}) USING iceberg TBLPROPERTIES ('format-version'='3', "
           f"'write.update.mode'='{mode}', 'write.delete.mode'='{mode}', "
           f"'write.merge.mode'='{mode}')")
    f.fsql(ddl)
    s.sql(ddl)

    before, alias = {}, {}

    def both(stmt, floe_on_f=True):
        old_ids = {v[0] for v in before.values()}
        if floe_on_f:
            f.fsql(stmt)
            s.sql(stmt)
        else:
            s.fsql(stmt)
            f.sql(stmt)
        f.sql("REFRESH TABLE {T}")
        s.sql("REFRESH TABLE {T}")
        want, got = lineage(s), lineage(f)
        # floe's ids of rows that were new in an earlier step, as Spark numbered them
        got = {i: (alias.get(v[0], v[0]), v[1]) for i, v in got.items()}
        # a row new in this statement gets first_row_id + its position in its new file,
        # and the engines order a MERGE's output differently: for those rows only the
        # sequence number is compared, and that every id is new and unique
        fresh = {i for i in want if i not in before}
        assert {i: v for i, v in got.items() if i not in fresh} == \
            {i: v for i, v in want.items() if i not in fresh}, (stmt, got, want)
        assert {i: got[i][1] for i in fresh} == {i: want[i][1] for i in fresh}, (stmt, got)
        assert set(got) == set(want)
        ids = [v[0] for v in got.values()]
        assert len(set(ids)) == len(ids) and None not in ids, got
        assert all(got[i][0] not in old_ids for i in fresh), (got, before)
        alias.update({got[i][0]: want[i][0] for i in fresh})
        before.clear()
        before.update(want)
        f.model[f.ref()] = None
        s.model[s.ref()] = None

    for stmt in STEPS:
        both(stmt)
    # an updated row keeps its id and carries the update's sequence number
    lin = lineage(f)
    assert lin[2][0] == 1 and lin[2][1] == 3, lin
    assert lin[1] == (0, 1), lin  # untouched, copied by CoW: kept as it was
    for stmt in SWAPPED:
        both(stmt, floe_on_f=False)
    # every snapshot of each table: floe reads the same lineage as Spark
    for t in (f, s):
        lineage_matches(t)
