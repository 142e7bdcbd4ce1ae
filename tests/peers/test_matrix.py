# SPDX-License-Identifier: Apache-2.0
"""The two-way operation matrix (issue #19 item 5): one table at a time, the sides
interleaved (floe, Spark, PyIceberg, floe, ...), all on one warehouse: floe's SQLite
catalog (catalog.db) opened by floe sql, by Spark's JDBC catalog and by PyIceberg's
SqlCatalog under the same catalog name.

After every step every side reads every snapshot of the table and the rows are compared
exactly with what the test wrote (decimals at their scale, timestamps with zone, binary,
nested values). The tests run in file order and share the table: a failure in one step
is reported on that step. docs/interop.md records the result of each step.
"""
import datetime as dtm
from decimal import Decimal

import pytest

from conftest import arrow_rows, canon_rows, floe_json_rows, key, shared_catalog, spark_rows

NAME = "mx"
T = "db.types"
COLS = ("id BIGINT, i INT, f FLOAT, d DOUBLE, dec DECIMAL(10,2), big DECIMAL(38,6), dt DATE, "
        "dt2 DATE, ts TIMESTAMP, tsn TIMESTAMP_NTZ, s STRING, b BOOLEAN, bin BINARY, "
        "arr ARRAY<INT>, m MAP<STRING,INT>, st STRUCT<x:INT,y:STRING>")
PARTS = "i, bucket(4, id), truncate(3, s), years(dt), months(dt2), days(ts), hours(tsn)"


def row(n):
    """Row n of the test data, as Python values (the expected side of every comparison)."""
    return {
        "id": n, "i": n % 3, "f": 1.5 + n, "d": 2.25 * n, "dec": Decimal(f"{n}.{n % 100:02d}"),
        "big": Decimal(f"1234567890123456789012345678901{n % 10}.12345{n % 10}"),
        "dt": dtm.date(2020 + n % 5, 1 + n % 12, 1 + n % 28),
        "dt2": dtm.date(2025, 1 + n % 12, 15),
        "ts": dtm.datetime(2026, 1, 1 + n % 28, n % 24, 4, 5, 123456, tzinfo=dtm.timezone.utc),
        "tsn": dtm.datetime(2026, 2, 1 + n % 28, n % 24, 30, 0, 500001),
        "s": f"str-{n:04d}-é", "b": n % 2 == 0, "bin": bytes([n % 256, 0xca, 0xfe]),
        "arr": [n, n + 1] if n % 4 else None, "m": {"k": n, "z": -n},
        "st": {"x": n, "y": f"y{n}"},
    }


def lit(r, spark=False):
    """Row r as a Spark SQL VALUES tuple, the same text for Spark and floe: decimals
    as exact `1.23BD` literals (`spark` only documents the call site)."""
    ts = r["ts"].strftime("%Y-%m-%d %H:%M:%S.%f")
    tsn = r["tsn"].strftime("%Y-%m-%d %H:%M:%S.%f")
    dec, big = f"{r['dec']}BD", f"{r['big']}BD"
    arr = "NULL" if r["arr"] is None else \
        "array(" + ", ".join(map(str, r["arr"])) + ")"
    return (f"({r['id']}, {r['i']}, CAST({r['f']} AS FLOAT), CAST({r['d']} AS DOUBLE), "
            f"{dec}, {big}, "
            f"DATE'{r['dt']}', DATE'{r['dt2']}', TIMESTAMP'{ts}+00:00', TIMESTAMP_NTZ'{tsn}', "
            f"'{r['s']}', {str(r['b']).lower()}, X'{r['bin'].hex()}', {arr}, "
            f"map('k', {r['m']['k']}, 'z', {r['m']['z']}), "
            f"named_struct('x', {r['st']['x']}, 'y', '{r['st']['y']}'))")


class Env:
    """The warehouse, its three clients and the model: snapshot id -> expected rows."""

    def __init__(self, spark, wh):
        self.spark, self.wh = spark, wh
        self.floe, self.cat, self.py = shared_catalog(spark, wh, NAME)
        self.model = {}  # snapshot id -> canonical rows
        self.current = []

    def sql(self, q):
        return self.spark.sql(q.replace("{T}", f"{self.cat}.{T}"))

    def main(self):
        return self.floe.scalar(f"SELECT snapshot_id FROM {T}.refs WHERE name = 'main'")

    def record(self, rows):
        """The state after a step: the new main snapshot holds `rows`."""
        self.current = canon_rows(rows)
        sid = int(self.main())
        self.model[sid] = self.current
        return sid

    # -- every side reads every snapshot --------------------------------------------------
    def check_floe(self):
        stmts = [f"SELECT * FROM {T} VERSION AS OF {sid}" for sid in self.model]
        for sid, stmt in zip(self.model, stmts):
            got = sorted(floe_json_rows(self.floe.sql(stmt).stdout), key=key)
            assert got == self.model[sid], f"floe, snapshot {sid}"
        got = sorted(floe_json_rows(self.floe.sql(f"SELECT * FROM {T}").stdout), key=key)
        assert got == self.current, "floe, current"

    def check_spark(self):
        self.sql(f"REFRESH TABLE {{T}}")
        for sid, want in self.model.items():
            assert spark_rows(self.sql(f"SELECT * FROM {{T}} VERSION AS OF {sid}")) == want, \
                f"Spark, snapshot {sid}"
        assert spark_rows(self.sql("SELECT * FROM {T}")) == self.current, "Spark, current"

    def check_pyiceberg(self):
        t = self.py.load_table(T)
        for sid, want in self.model.items():
            assert arrow_rows(t.scan(snapshot_id=sid).to_arrow()) == want, \
                f"PyIceberg, snapshot {sid}"
        assert arrow_rows(t.scan().to_arrow()) == self.current, "PyIceberg, current"

    def check_all(self):
        self.check_floe()
        self.check_spark()
        self.check_pyiceberg()


@pytest.fixture(scope="module")
def env(spark, floe_bin, tmp_path_factory):
    return Env(spark, str(tmp_path_factory.mktemp("matrix")))


DIFFS = []


def rows(*ns):
    return [row(n) for n in ns]


def test_01_floe_create_every_type_and_transform_append(env):
    env.floe.sql(f"CREATE TABLE {T} ({COLS}) USING iceberg PARTITIONED BY ({PARTS})",
                 f"INSERT INTO {T} VALUES " + ", ".join(lit(r) for r in rows(1, 2, 3, 4)))
    env.record(rows(1, 2, 3, 4))
    env.check_all()
    spec = [r["col_name"] for r in env.floe.rows(f"DESCRIBE {T}") if r["col_name"].startswith("Part")]
    assert len(spec) == 7
    parts = [r[0] for r in env.sql("DESCRIBE {T}").collect() if r[0].startswith("Part")]
    assert len(parts) == 7


def test_02_spark_append(env):
    env.sql("INSERT INTO {T} VALUES " + ", ".join(lit(r, True) for r in rows(5, 6)))
    env.record(rows(1, 2, 3, 4, 5, 6))
    env.check_all()


def test_03_pyiceberg_append(env):
    import pyarrow as pa
    t = env.py.load_table(T)
    data = rows(7, 8)
    for r in data:
        r["m"] = list(r["m"].items())
    t.append(pa.Table.from_pylist(data, schema=t.schema().as_arrow()))
    env.record(rows(*range(1, 9)))
    env.check_all()


def test_04_floe_append_after_peers(env):
    env.floe.sql(f"INSERT INTO {T} VALUES " + lit(row(9)))
    env.record(rows(*range(1, 10)))
    env.check_all()


def test_05_spark_insert_overwrite_dynamic(env):
    # dynamic overwrite: replaces the partitions the new rows fall into
    env.spark.conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
    try:
        env.sql("INSERT OVERWRITE {T} VALUES " + lit(row(3), True))
    finally:
        env.spark.conf.unset("spark.sql.sources.partitionOverwriteMode")
    env.record(rows(*range(1, 10)))
    env.check_all()


def test_06_floe_insert_overwrite_static(env):
    env.floe.sql(f"INSERT OVERWRITE {T} SELECT * FROM {T} WHERE id <> 9")
    env.record(rows(*range(1, 9)))
    env.check_all()


def test_07_floe_delete_copy_on_write(env):
    env.floe.sql(f"DELETE FROM {T} WHERE id = 1")
    env.record(rows(*range(2, 9)))
    env.check_all()


def test_08_spark_delete_merge_on_read(env):
    env.sql("ALTER TABLE {T} SET TBLPROPERTIES ('write.delete.mode'='merge-on-read', "
            "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')")
    env.record(rows(*range(2, 9)))
    env.sql("DELETE FROM {T} WHERE id = 2")
    env.record(rows(*range(3, 9)))
    env.check_all()


def test_09_spark_update_merge_on_read(env):
    env.sql("UPDATE {T} SET s = 'upd' WHERE id = 3")
    r3 = row(3)
    r3["s"] = "upd"
    env.record([r3] + rows(*range(4, 9)))
    env.check_all()


def test_10_floe_update_merge_on_read(env):
    env.floe.sql(f"UPDATE {T} SET dec = CAST('99.99' AS DECIMAL(10,2)) WHERE id = 4")
    r3, r4 = row(3), row(4)
    r3["s"], r4["dec"] = "upd", Decimal("99.99")
    env.record([r3, r4] + rows(*range(5, 9)))
    env.check_all()


def _state_after_10():
    r3, r4 = row(3), row(4)
    r3["s"], r4["dec"] = "upd", Decimal("99.99")
    return [r3, r4] + rows(*range(5, 9))


def test_11_spark_merge_merge_on_read(env):
    env.sql("CREATE OR REPLACE TEMPORARY VIEW src AS SELECT * FROM VALUES "
            + lit(row(5), True).replace("str-0005", "merged") + ", " + lit(row(10), True)
            + " AS v(" + ", ".join(c.split()[0] for c in COLS.split(", ")) + ")")
    env.sql("MERGE INTO {T} t USING src ON t.id = src.id "
            "WHEN MATCHED THEN UPDATE SET t.s = src.s WHEN NOT MATCHED THEN INSERT *")
    want = _state_after_10()
    want[2]["s"] = "merged-é"
    env.record(want + rows(10))
    env.check_all()


def test_12_floe_merge_copy_on_write(env):
    env.floe.sql(f"ALTER TABLE {T} SET TBLPROPERTIES ('write.merge.mode'='copy-on-write')",
                 f"MERGE INTO {T} t USING (SELECT 6 AS id) s ON t.id = s.id "
                 f"WHEN MATCHED THEN DELETE")
    want = _state_after_10()
    want[2]["s"] = "merged-é"
    want = [r for r in want if r["id"] != 6] + rows(10)
    env.record(want)
    env.check_all()


def _snapshots(env):
    return [int(r["snapshot_id"]) for r in
            env.floe.rows(f"SELECT snapshot_id FROM {T}.snapshots ORDER BY committed_at")]


def test_13_floe_rollback_spark_set_current(env):
    snaps = _snapshots(env)
    target, head = snaps[3], snaps[-1]
    env.floe.sql(f"CALL {NAME}.system.rollback_to_snapshot('{T}', {target})")
    env.current = env.model[target]
    env.check_all()
    env.sql(f"CALL {env.cat}.system.set_current_snapshot('{T}', {head})")
    env.current = env.model[head]
    env.check_all()


def test_14_branches_and_tags(env):
    head = int(env.main())
    env.sql("ALTER TABLE {T} CREATE BRANCH dev RETAIN 7 DAYS")
    env.floe.sql(f"ALTER TABLE {T} CREATE TAG v1 AS OF VERSION {head} RETAIN 30 DAYS")
    env.floe.sql(f"INSERT INTO {T}.branch_dev VALUES " + lit(row(11)))
    env.sql("INSERT INTO {T}.branch_dev VALUES " + lit(row(12), True))
    want = env.current + canon_rows(rows(11, 12))
    want.sort(key=key)
    dev = env.sql("SELECT * FROM {T} VERSION AS OF 'dev'")
    assert spark_rows(dev) == want
    got = floe_json_rows(env.floe.sql(f"SELECT * FROM {T} VERSION AS OF 'dev'").stdout)
    assert sorted(got, key=key) == want
    t = env.py.load_table(T)
    assert arrow_rows(t.scan(snapshot_id=t.snapshot_by_name("dev").snapshot_id).to_arrow()) == want
    assert spark_rows(env.sql("SELECT * FROM {T} VERSION AS OF 'v1'")) == env.current
    refs = {r["name"]: r for r in env.floe.rows(f"SELECT * FROM {T}.refs")}
    srefs = {r.name: r for r in env.sql("SELECT * FROM {T}.refs").collect()}
    assert set(refs) == set(srefs) == {"main", "dev", "v1"}
    for n in refs:
        assert int(refs[n]["snapshot_id"]) == srefs[n].snapshot_id
        assert refs[n]["type"] == srefs[n].type
        assert refs[n]["max_reference_age_in_ms"] == srefs[n].max_reference_age_in_ms
    # main is unchanged, and fast_forward publishes the branch (floe), cherrypick (Spark)
    env.check_all()
    env.floe.sql(f"CALL {NAME}.system.fast_forward('{T}', 'main', 'dev')")
    env.current = want
    env.model[int(env.main())] = want
    env.check_all()


def test_15_wap_cherrypick(env):
    env.sql("ALTER TABLE {T} SET TBLPROPERTIES ('write.wap.enabled'='true')")
    env.spark.conf.set("spark.wap.id", "job-1")
    try:
        env.sql("INSERT INTO {T} VALUES " + lit(row(13), True))
    finally:
        env.spark.conf.unset("spark.wap.id")
    staged = [r for r in env.floe.rows(f"SELECT snapshot_id, summary FROM {T}.snapshots")
              if (r["summary"] or {}).get("wap.id") == "job-1"]
    assert len(staged) == 1
    sid = int(staged[0]["snapshot_id"])
    before = env.current
    env.check_floe()  # main did not move
    assert env.current == before
    env.floe.sql(f"CALL {NAME}.system.cherrypick_snapshot('{T}', {sid})")
    env.current = sorted(before + canon_rows(rows(13)), key=key)
    env.model[int(env.main())] = env.current
    env.check_all()


def test_16_metadata_tables_match_spark(env):
    """Spark is the oracle for the metadata tables' columns and values."""
    env.sql("REFRESH TABLE {T}")
    for mt, order in [("snapshots", "committed_at"), ("history", "made_current_at"),
                      ("refs", "name"), ("files", "file_path"), ("entries", "data_file.file_path"),
                      ("manifests", "path"), ("partitions", "partition"),
                      ("metadata_log_entries", "timestamp")]:
        sdf = env.sql(f"SELECT * FROM {{T}}.{mt}")
        scols = sdf.columns
        fl = env.floe.rows(f"SELECT * FROM {T}.{mt}")
        fcols = list(fl[0].keys()) if fl else []
        assert fcols == scols, f"{mt}: columns floe {fcols} vs Spark {scols}"
        srows = spark_rows(sdf)
        frows = sorted(floe_json_rows(env.floe.sql(f"SELECT * FROM {T}.{mt}").stdout), key=key)
        assert len(frows) == len(srows), f"{mt}: row count"
        for c in scols:
            sv = sorted((key(r[c]) for r in srows))
            fv = sorted((key(r[c]) for r in frows))
            if sv != fv:
                DIFFS.append((mt, c, sv[:2], fv[:2]))
    assert not DIFFS, "\n".join(map(str, DIFFS))


def test_17_expire_snapshots(env):
    env.sql("ALTER TABLE {T} SET TBLPROPERTIES ('write.wap.enabled'='false')")
    n_before = env.floe.scalar(f"SELECT count(*) FROM {T}.snapshots")
    out = env.sql(f"CALL {env.cat}.system.expire_snapshots(table => '{T}', "
                  f"older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 2)").collect()
    assert out
    n_after = env.floe.scalar(f"SELECT count(*) FROM {T}.snapshots")
    assert n_after < n_before
    live = {int(r["snapshot_id"]) for r in env.floe.rows(f"SELECT snapshot_id FROM {T}.snapshots")}
    env.model = {k: v for k, v in env.model.items() if k in live}
    env.check_all()
    env.floe.sql(f"INSERT INTO {T} VALUES " + lit(row(14)))
    env.current = sorted(env.current + canon_rows(rows(14)), key=key)
    env.model[int(env.main())] = env.current
    env.floe.sql(f"CALL {NAME}.system.expire_snapshots(table => '{T}', "
                 f"older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")
    live = {int(r["snapshot_id"]) for r in env.floe.rows(f"SELECT snapshot_id FROM {T}.snapshots")}
    env.model = {k: v for k, v in env.model.items() if k in live}
    env.check_all()


def _evolve(rows_, note=None):
    out = []
    for r in rows_:
        r = dict(r)
        r["label"] = r.pop("s")
        r["note"] = note
        out.append(r)
    return out


def _lit_note(r, note, spark=False):
    return lit(r, spark)[:-1] + f", '{note}')"


def test_18_spark_schema_evolution_floe_writes(env):
    """Spark adds and renames columns; floe and PyIceberg read old files by field id."""
    env.sql("ALTER TABLE {T} ADD COLUMN note STRING")
    env.sql("ALTER TABLE {T} RENAME COLUMN s TO label")
    cur = [dict(r) for r in env.current]
    for r in cur:
        r["label"] = r.pop("s")
        r["note"] = None
    env.model = {}  # older snapshots keep their own schema: only new states are compared
    env.sql("INSERT INTO {T} VALUES " + _lit_note(row(15), "from-spark", True))
    env.current = sorted(cur + canon_rows(_evolve(rows(15), "from-spark")), key=key)
    env.model[int(env.main())] = env.current
    env.check_all()
    env.floe.sql(f"INSERT INTO {T} VALUES " + _lit_note(row(16), "from-floe"))
    env.current = sorted(env.current + canon_rows(_evolve(rows(16), "from-floe")), key=key)
    env.model[int(env.main())] = env.current
    env.check_all()


def test_19_spark_partition_evolution_floe_writes(env):
    env.sql("ALTER TABLE {T} DROP PARTITION FIELD hours(tsn)")
    env.sql("ALTER TABLE {T} ADD PARTITION FIELD bucket(2, dec)")
    env.floe.sql(f"INSERT INTO {T} VALUES " + _lit_note(row(17), "floe-spec1"))
    env.sql("INSERT INTO {T} VALUES " + _lit_note(row(18), "spark-spec1", True))
    env.current = sorted(env.current + canon_rows(_evolve(rows(17), "floe-spec1"))
                         + canon_rows(_evolve(rows(18), "spark-spec1")), key=key)
    env.model[int(env.main())] = env.current
    env.check_all()
    specs = {r.spec_id for r in env.sql("SELECT spec_id FROM {T}.files").collect()}
    fspecs = {r["spec_id"] for r in env.floe.rows(f"SELECT spec_id FROM {T}.files")}
    assert specs == fspecs and len(specs) == 2


def test_20_wap_publish_changes_and_rollback_to_timestamp(env):
    env.floe.sql(f"ALTER TABLE {T} SET TBLPROPERTIES ('write.wap.enabled'='true')")
    env.floe.sql("SET spark.wap.id = job-2", f"INSERT INTO {T} VALUES " + _lit_note(row(19), "wap"))
    env.check_all()  # staged: main unchanged
    env.sql(f"CALL {env.cat}.system.publish_changes('{T}', 'job-2')")
    before = env.current
    env.current = sorted(before + canon_rows(_evolve(rows(19), "wap")), key=key)
    env.model[int(env.main())] = env.current
    env.check_all()
    env.sql("REFRESH TABLE {T}")
    ms = env.sql(f"SELECT unix_millis(committed_at) FROM {{T}}.snapshots "
                 f"WHERE snapshot_id = {env.main()}").collect()[0][0]
    # rollback_to_timestamp (millis) to just before the publish: the state before it
    env.floe.sql(f"CALL {NAME}.system.rollback_to_timestamp('{T}', {ms - 1})")
    env.current = before
    env.check_all()


def test_21_replace_and_drop_branch_and_tag(env):
    head = int(env.main())
    env.floe.sql(f"ALTER TABLE {T} CREATE OR REPLACE BRANCH dev AS OF VERSION {head}")
    env.sql("ALTER TABLE {T} REPLACE TAG v1 AS OF VERSION " + str(head))
    refs = {r.name: r.snapshot_id for r in env.sql("SELECT * FROM {T}.refs").collect()}
    assert refs["dev"] == refs["v1"] == head
    env.sql("ALTER TABLE {T} DROP BRANCH dev")
    env.floe.sql(f"ALTER TABLE {T} DROP TAG v1")
    assert {r["name"] for r in env.floe.rows(f"SELECT name FROM {T}.refs")} == {"main"}
    assert {r.name for r in env.sql("SELECT name FROM {T}.refs").collect()} == {"main"}
