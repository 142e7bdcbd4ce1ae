# SPDX-License-Identifier: Apache-2.0
"""Table maintenance against Spark 3.5 + Iceberg 1.11 (issue #25).

- Spark reads every snapshot of a table floe wrote, compacted
  (rewrite_data_files) and whose manifests floe rewrote (rewrite_manifests).
- floe compacts a table Spark wrote (with Spark's position deletes), and the
  result columns of floe's rewrite_data_files / rewrite_manifests equal
  Spark's on a twin table written by the same statements.
- Spark reads the copy made by floe's rewrite_table_path after the original
  is moved away.
"""
import os
import shutil

from conftest import Floe, add_catalog, floe_json_rows, jdbc_props, key, spark_rows, uniq

COLS = "id bigint, s string, p int"


def floe_rows(floe, q):
    return sorted(floe_json_rows(floe.sql(q).stdout), key=key)


def snapshots(floe, t):
    return [r["snapshot_id"] for r in floe.rows(f"SELECT snapshot_id FROM {t}.snapshots")]


def setup(tmp_path, spark):
    wh = str(tmp_path / "wh")
    os.makedirs(wh)
    name = uniq("m")
    floe = Floe(wh, name)
    floe.sql("CREATE NAMESPACE db")
    cat = add_catalog(spark, name, jdbc_props(os.path.join(wh, "catalog.db"), wh))
    return wh, floe, cat


def test_spark_reads_floe_compacted(spark, floe_bin, tmp_path):
    wh, floe, cat = setup(tmp_path, spark)
    t = "db.t"
    floe.sql(f"CREATE TABLE {t} ({COLS}) USING iceberg PARTITIONED BY (p) TBLPROPERTIES "
             "('format-version'='2', 'write.delete.mode'='merge-on-read', "
             "'write.update.mode'='merge-on-read')")
    for i in range(6):
        floe.sql(f"INSERT INTO {t} VALUES ({2 * i}, 'a{i}', 0), ({2 * i + 1}, 'b{i}', 1)")
    floe.sql(f"DELETE FROM {t} WHERE id = 4", f"UPDATE {t} SET s = 'z' WHERE id = 7")
    before = {sid: floe_rows(floe, f"SELECT * FROM {t} VERSION AS OF {sid}")
              for sid in snapshots(floe, t)}
    out = floe.rows(f"CALL {floe.name}.system.rewrite_data_files(table => '{t}', "
                    "options => map('min-input-files', '2'))")
    assert out[0]["rewritten_data_files_count"] >= 12
    out = floe.rows(f"CALL {floe.name}.system.rewrite_manifests('{t}')")
    assert out[0]["rewritten_manifests_count"] > 1
    spark.sql(f"REFRESH TABLE {cat}.{t}")
    for sid in snapshots(floe, t):
        want = before.get(sid) or floe_rows(floe, f"SELECT * FROM {t} VERSION AS OF {sid}")
        assert spark_rows(spark.sql(f"SELECT * FROM {cat}.{t} VERSION AS OF {sid}")) == want
    ops = [r[0] for r in spark.sql(
        f"SELECT operation FROM {cat}.{t}.snapshots ORDER BY committed_at").collect()]
    assert ops[-2:] == ["replace", "replace"]
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.{t}")) == \
        floe_rows(floe, f"SELECT * FROM {t}")


def spark_twin(spark, cat, t):
    spark.sql(f"CREATE TABLE {cat}.{t} ({COLS}) USING iceberg PARTITIONED BY (p) TBLPROPERTIES "
              "('format-version'='2', 'write.delete.mode'='merge-on-read')")
    for i in range(6):
        spark.sql(f"INSERT INTO {cat}.{t} VALUES ({3 * i}, 'x{i}', 0), ({3 * i + 1}, 'y{i}', 1), "
                  f"({3 * i + 2}, 'z{i}', 2)")
    spark.sql(f"DELETE FROM {cat}.{t} WHERE id = 4")


def test_floe_compacts_spark_written_same_columns(spark, floe_bin, tmp_path):
    wh, floe, cat = setup(tmp_path, spark)
    spark_twin(spark, cat, "db.a")
    spark_twin(spark, cat, "db.b")
    want_rows = spark_rows(spark.sql(f"SELECT * FROM {cat}.db.a"))
    cols = ["rewritten_data_files_count", "added_data_files_count", "rewritten_bytes_count",
            "failed_data_files_count"]
    s = spark.sql(f"CALL {cat}.system.rewrite_data_files(table => 'db.a', "
                  "options => map('min-input-files', '2'))").collect()[0].asDict()
    f = floe.rows(f"CALL {floe.name}.system.rewrite_data_files(table => 'db.b', "
                  "options => map('min-input-files', '2'))")[0]
    assert {c: int(f[c]) for c in cols} == {c: int(s[c]) for c in cols}
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.b")) == want_rows
    assert floe_rows(floe, "SELECT * FROM db.b") == want_rows
    s = spark.sql(f"CALL {cat}.system.rewrite_manifests('db.a')").collect()[0].asDict()
    f = floe.rows(f"CALL {floe.name}.system.rewrite_manifests('db.b')")[0]
    mcols = ["rewritten_manifests_count", "added_manifests_count"]
    assert {c: int(f[c]) for c in mcols} == {c: int(s[c]) for c in mcols}
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.b")) == want_rows


def test_spark_reads_rewrite_table_path_copy(spark, floe_bin, tmp_path):
    wh, floe, cat = setup(tmp_path, spark)
    spark_twin(spark, cat, "db.src")
    want = spark_rows(spark.sql(f"SELECT * FROM {cat}.db.src"))
    meta = spark.sql(f"SELECT file FROM {cat}.db.src.metadata_log_entries "
                     "ORDER BY timestamp DESC LIMIT 1").collect()[0][0]
    loc = meta.rsplit("/metadata/", 1)[0]
    src = loc[len("file:"):] if loc.startswith("file:") else loc
    target = str(tmp_path / "copy" / "src")
    out = floe.rows(f"CALL {floe.name}.system.rewrite_table_path(table => 'db.src', "
                    f"source_prefix => '{loc}', target_prefix => '{target}', "
                    f"staging_location => '{tmp_path / 'staging'}')")[0]
    for line in open(out["file_list_location"]):
        a, b = line.rstrip("\n").split(",")
        a = a[len("file:"):] if a.startswith("file:") else a
        os.makedirs(os.path.dirname(b), exist_ok=True)
        shutil.copyfile(a, b)
    shutil.move(src, str(tmp_path / "gone"))
    spark.sql(f"CALL {cat}.system.register_table('db.copy', "
              f"'{target}/metadata/{out['latest_version']}')")
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.copy")) == want


def file_order(spark, table):
    """Rows (id, s) of each partition p in the order its one data file holds them."""
    out = {}
    for r in spark.sql(f"SELECT p, id, s FROM {table}").collect():
        out.setdefault(r[0], []).append((r[1], r[2]))
    return out


def test_sort_and_zorder_same_columns_and_order(spark, floe_bin, tmp_path):
    """floe's sort and z-order rewrites give Spark's result columns on twin tables,
    and each rewritten file holds its rows in the order Spark's rewrite wrote them."""
    wh, floe, cat = setup(tmp_path, spark)
    cols = ["rewritten_data_files_count", "added_data_files_count", "rewritten_bytes_count",
            "failed_data_files_count"]
    for n, order in enumerate(["id DESC NULLS LAST", "s ASC NULLS FIRST, id DESC",
                               "zorder(id, s)"]):
        a, b = f"db.a{n}", f"db.b{n}"
        spark_twin(spark, cat, a)
        spark_twin(spark, cat, b)
        for t in (a, b):  # strings of several lengths for the z-order's 8-byte cut
            spark.sql(f"INSERT INTO {cat}.{t} VALUES (100, 'a-longer-string', 0), "
                      "(101, 'é', 1), (-5, NULL, 2), (102, 'zz', 0)")
        args = (f"sort_order => '{order}', options => map('min-input-files', '2')")
        s = spark.sql(f"CALL {cat}.system.rewrite_data_files(table => '{a}', {args})"
                      ).collect()[0].asDict()
        f = floe.rows(f"CALL {floe.name}.system.rewrite_data_files(table => '{b}', {args})")[0]
        assert {c: int(f[c]) for c in cols} == {c: int(s[c]) for c in cols}, order
        spark.sql(f"REFRESH TABLE {cat}.{b}")
        assert file_order(spark, f"{cat}.{b}") == file_order(spark, f"{cat}.{a}"), order


def test_rewrite_position_deletes_same_columns(spark, floe_bin, tmp_path):
    """floe's rewrite_position_delete_files gives Spark's result columns on twin
    Spark-written tables, Spark reads the result, and floe's remove_dangling_deletes
    leaves a table Spark reads the same."""
    wh, floe, cat = setup(tmp_path, spark)
    for t in ("db.a", "db.b"):  # files of several rows: a DELETE writes position deletes
        spark.sql(f"CREATE TABLE {cat}.{t} ({COLS}) USING iceberg PARTITIONED BY (p) "
                  "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')")
        for k in range(2):
            rows = ", ".join(f"({k * 30 + i}, 's{i}', {i % 3})" for i in range(30))
            spark.sql(f"INSERT INTO {cat}.{t} VALUES {rows}")
        for i in (1, 7, 10, 13, 0, 3, 31, 44):
            spark.sql(f"DELETE FROM {cat}.{t} WHERE id = {i}")
    want = spark_rows(spark.sql(f"SELECT * FROM {cat}.db.a"))
    # Spark's delete files of the twins differ by a few bytes: bytes are checked per table
    b_bytes = spark.sql(f"SELECT sum(file_size_in_bytes) FROM {cat}.db.b.delete_files"
                        ).collect()[0][0]
    cols = ["rewritten_delete_files_count", "added_delete_files_count"]
    args = "options => map('rewrite-all', 'true')"
    s = spark.sql(f"CALL {cat}.system.rewrite_position_delete_files(table => 'db.a', {args})"
                  ).collect()[0].asDict()
    f = floe.rows(f"CALL {floe.name}.system.rewrite_position_delete_files(table => 'db.b', "
                  f"{args})")[0]
    assert {c: int(f[c]) for c in cols} == {c: int(s[c]) for c in cols}
    assert int(s["rewritten_delete_files_count"]) == 4  # Spark keeps one per data file
    assert int(f["rewritten_bytes_count"]) == b_bytes
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert int(f["added_bytes_count"]) == spark.sql(
        f"SELECT sum(file_size_in_bytes) FROM {cat}.db.b.delete_files").collect()[0][0]
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.b")) == want
    # compact the data: every delete dangles; floe removes them, Spark reads the same rows
    floe.sql(f"CALL {floe.name}.system.rewrite_data_files(table => 'db.b', "
             "options => map('rewrite-all', 'true'))")
    out = floe.rows(f"CALL {floe.name}.system.remove_dangling_deletes('db.b')")[0]
    assert int(out["removed_delete_files_count"]) == int(f["added_delete_files_count"])
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.b")) == want
    assert spark.sql(f"SELECT count(*) FROM {cat}.db.b.delete_files").collect()[0][0] == 0


LINEAGE = "SELECT id, s, p, _row_id, _last_updated_sequence_number FROM {}"


def lineage_rows(spark, table):
    return sorted(tuple(r) for r in spark.sql(LINEAGE.format(table)).collect())


def test_v3_spark_reads_floe_compacted_lineage(spark, floe_bin, tmp_path):
    """A v3 table floe wrote with deletion vectors, compacted by floe: Spark reads
    the same rows with the same _row_id / _last_updated_sequence_number, and the
    DVs of the rewritten files are gone."""
    wh, floe, cat = setup(tmp_path, spark)
    t = "db.t"
    floe.sql(f"CREATE TABLE {t} ({COLS}) USING iceberg PARTITIONED BY (p) TBLPROPERTIES "
             "('format-version'='3', 'write.delete.mode'='merge-on-read')")
    for i in range(6):
        floe.sql(f"INSERT INTO {t} VALUES ({2 * i}, 'a{i}', 0), ({2 * i + 1}, 'b{i}', 1), "
                 f"({100 + i}, 'c{i}', 0)")
    floe.sql(f"DELETE FROM {t} WHERE id IN (4, 7, 102)")
    spark.sql(f"REFRESH TABLE {cat}.{t}")
    before = lineage_rows(spark, f"{cat}.{t}")
    assert all(r[3] is not None and r[4] is not None for r in before)
    ndvs = spark.sql(f"SELECT count(*) FROM {cat}.{t}.delete_files "
                     "WHERE file_format = 'PUFFIN'").collect()[0][0]
    assert ndvs >= 2
    out = floe.rows(f"CALL {floe.name}.system.rewrite_data_files(table => '{t}', "
                    "options => map('min-input-files', '2'))")[0]
    assert int(out["added_data_files_count"]) == 2
    assert int(out["removed_delete_files_count"]) == ndvs
    spark.sql(f"REFRESH TABLE {cat}.{t}")
    assert lineage_rows(spark, f"{cat}.{t}") == before
    assert spark.sql(f"SELECT count(*) FROM {cat}.{t}.delete_files").collect()[0][0] == 0
    # Spark's view of the replace snapshot: first-row-id and added-rows as Java writes them
    snap = spark.sql(f"SELECT operation FROM {cat}.{t}.snapshots ORDER BY committed_at DESC "
                     "LIMIT 1").collect()[0][0]
    assert snap == "replace"
    # a Spark write after floe's compaction gets fresh ids; old rows keep theirs
    spark.sql(f"INSERT INTO {cat}.{t} VALUES (500, 'new', 1)")
    after = lineage_rows(spark, f"{cat}.{t}")
    assert [r for r in after if r[0] != 500] == before
    new = [r for r in after if r[0] == 500][0]
    assert new[3] > max(r[3] for r in before)


def spark_v3_twin(spark, cat, t):
    spark.sql(f"CREATE TABLE {cat}.{t} ({COLS}) USING iceberg PARTITIONED BY (p) TBLPROPERTIES "
              "('format-version'='3', 'write.delete.mode'='merge-on-read')")
    for k in range(4):
        rows = ", ".join(f"({k * 10 + i}, 's{i}', {i % 2})" for i in range(10))
        spark.sql(f"INSERT INTO {cat}.{t} VALUES {rows}")
    spark.sql(f"DELETE FROM {cat}.{t} WHERE id IN (1, 12, 25, 33)")


def test_v3_floe_compacts_spark_written_same_columns(spark, floe_bin, tmp_path):
    """Spark-written v3 twins with DVs: floe's rewrite_data_files result columns
    equal Spark's, and both keep every row's lineage (read by Spark)."""
    wh, floe, cat = setup(tmp_path, spark)
    spark_v3_twin(spark, cat, "db.a")
    spark_v3_twin(spark, cat, "db.b")
    before_a = lineage_rows(spark, f"{cat}.db.a")
    before_b = lineage_rows(spark, f"{cat}.db.b")
    cols = ["rewritten_data_files_count", "added_data_files_count", "rewritten_bytes_count",
            "failed_data_files_count", "removed_delete_files_count"]
    s = spark.sql(f"CALL {cat}.system.rewrite_data_files(table => 'db.a', "
                  "options => map('min-input-files', '2'))").collect()[0].asDict()
    f = floe.rows(f"CALL {floe.name}.system.rewrite_data_files(table => 'db.b', "
                  "options => map('min-input-files', '2'))")[0]
    assert {c: int(f[c]) for c in cols} == {c: int(s[c]) for c in cols}
    assert int(s["removed_delete_files_count"]) > 0
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert lineage_rows(spark, f"{cat}.db.a") == before_a
    assert lineage_rows(spark, f"{cat}.db.b") == before_b
    # the replace snapshots take row ids alike (added-rows) in both tables
    def v3_fields(t):
        meta = spark.sql(f"SELECT file FROM {cat}.{t}.metadata_log_entries "
                         "ORDER BY timestamp DESC LIMIT 1").collect()[0][0]
        import json
        m = json.load(open(meta[len("file:"):] if meta.startswith("file:") else meta))
        head = [x for x in m["snapshots"] if x["snapshot-id"] == m["current-snapshot-id"]][0]
        return head["added-rows"], m["next-row-id"]
    assert v3_fields("db.b") == v3_fields("db.a")
    # rewrite_position_delete_files on v3 with DVs only: nothing to do, as Spark
    s = spark.sql(f"CALL {cat}.system.rewrite_position_delete_files(table => 'db.a', "
                  "options => map('rewrite-all', 'true'))").collect()[0].asDict()
    f = floe.rows(f"CALL {floe.name}.system.rewrite_position_delete_files(table => 'db.b', "
                  "options => map('rewrite-all', 'true'))")[0]
    pcols = ["rewritten_delete_files_count", "added_delete_files_count"]
    assert {c: int(f[c]) for c in pcols} == {c: int(s[c]) for c in pcols} == \
        {c: 0 for c in pcols}


def test_v3_rewrite_position_deletes_to_dvs(spark, floe_bin, tmp_path):
    """Twin v2 tables with Spark's position deletes (partition granularity: a
    file covers several data files), upgraded to v3 by Spark: floe's
    rewrite_position_delete_files turns them into one DV per data file, with
    Spark's result columns (Java's testRewriteV2PositionDeletesToV3DVs);
    Spark reads the same rows through the DVs, and a second call is a no-op."""
    wh, floe, cat = setup(tmp_path, spark)
    for t in ("db.a", "db.b"):
        spark.sql(f"CREATE TABLE {cat}.{t} ({COLS}) USING iceberg PARTITIONED BY (p) "
                  "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', "
                  "'write.delete.granularity'='partition')")
        for k in range(3):
            rows = ", ".join(f"({k * 20 + i}, 's{i}', {i % 2})" for i in range(20))
            spark.sql(f"INSERT INTO {cat}.{t} VALUES {rows}")
        spark.sql(f"DELETE FROM {cat}.{t} WHERE id IN (1, 2, 22, 41, 44, 59)")
        spark.sql(f"DELETE FROM {cat}.{t} WHERE id IN (3, 24)")
        spark.sql(f"ALTER TABLE {cat}.{t} SET TBLPROPERTIES ('format-version'='3')")
    want = spark_rows(spark.sql(f"SELECT * FROM {cat}.db.a"))
    assert len(want) == 52
    nfiles, formats = spark.sql(
        f"SELECT count(*), collect_set(file_format) FROM {cat}.db.b.delete_files").collect()[0]
    assert formats == ["PARQUET"] and nfiles == 4  # two deletes x two partitions
    b_bytes = spark.sql(f"SELECT sum(file_size_in_bytes) FROM {cat}.db.b.delete_files"
                        ).collect()[0][0]
    args = "options => map('rewrite-all', 'true')"
    s = spark.sql(f"CALL {cat}.system.rewrite_position_delete_files(table => 'db.a', {args})"
                  ).collect()[0].asDict()
    f = floe.rows(f"CALL {floe.name}.system.rewrite_position_delete_files(table => 'db.b', "
                  f"{args})")[0]
    cols = ["rewritten_delete_files_count", "added_delete_files_count", "added_bytes_count"]
    assert {c: int(f[c]) for c in cols} == {c: int(s[c]) for c in cols}
    assert int(f["rewritten_delete_files_count"]) == 4
    assert int(f["added_delete_files_count"]) == 5  # the data files with deletes (not k=1, p=1)
    assert int(f["rewritten_bytes_count"]) == b_bytes
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.b")) == want
    dvs = spark.sql(f"SELECT file_format, referenced_data_file, content_offset, "
                    f"content_size_in_bytes, record_count FROM {cat}.db.b.delete_files").collect()
    assert len(dvs) == 5 and all(r[0] == "PUFFIN" and r[2] is not None for r in dvs)
    assert len({r[1] for r in dvs}) == 5 and sum(r[4] for r in dvs) == 8
    assert sum(r[3] for r in dvs) == int(f["added_bytes_count"])
    # the same DVs as Spark's rewrite of the twin (data file positions alike)
    twin = spark.sql(f"SELECT record_count, content_size_in_bytes FROM {cat}.db.a.delete_files"
                     ).collect()
    assert sorted(tuple(r) for r in twin) == sorted((r[4], r[3]) for r in dvs)
    # DVs only: nothing left to rewrite, for floe and for Spark
    again = floe.rows(f"CALL {floe.name}.system.rewrite_position_delete_files(table => 'db.b', "
                      f"{args})")[0]
    assert [int(again[c]) for c in cols[:2]] == [0, 0]
    s = spark.sql(f"CALL {cat}.system.rewrite_position_delete_files(table => 'db.b', {args})"
                  ).collect()[0].asDict()
    assert [int(s[c]) for c in cols[:2]] == [0, 0]
    # Spark deletes on top of floe's DVs: it merges into them, rows as expected
    spark.sql(f"DELETE FROM {cat}.db.b WHERE id IN (0, 5)")
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.b")) == \
        [r for r in want if int(r["id"]) not in (0, 5)]
    assert floe_rows(floe, "SELECT * FROM db.b") == \
        [r for r in want if int(r["id"]) not in (0, 5)]


def schemas_specs(spark, cat, t):
    import json
    meta = spark.sql(f"SELECT file FROM {cat}.{t}.metadata_log_entries "
                     "ORDER BY timestamp DESC LIMIT 1").collect()[0][0]
    m = json.load(open(meta[len("file:"):] if meta.startswith("file:") else meta))
    return (sorted(x["schema-id"] for x in m["schemas"]),
            sorted(x["spec-id"] for x in m["partition-specs"]))


def test_clean_expired_metadata_like_spark(spark, floe_bin, tmp_path):
    """expire_snapshots(clean_expired_metadata => true): floe leaves the schemas and
    partition specs Spark leaves on a twin table, before and after a compaction
    moved every row into the new spec."""
    wh, floe, cat = setup(tmp_path, spark)
    for t in ("db.a", "db.b"):
        spark.sql(f"CREATE TABLE {cat}.{t} (id bigint, s string) USING iceberg "
                  "TBLPROPERTIES ('format-version'='2')")
        spark.sql(f"INSERT INTO {cat}.{t} VALUES (1, 'a')")
        spark.sql(f"ALTER TABLE {cat}.{t} ADD COLUMN x int")
        spark.sql(f"INSERT INTO {cat}.{t} VALUES (2, 'b', 2)")
        spark.sql(f"ALTER TABLE {cat}.{t} ADD PARTITION FIELD bucket(2, id)")
        spark.sql(f"INSERT INTO {cat}.{t} VALUES (3, 'c', 3)")
    expire = ("CALL {}.system.expire_snapshots(table => '{}', older_than => "
              "TIMESTAMP '2999-01-01 00:00:00', retain_last => 1, "
              "clean_expired_metadata => true)")
    spark.sql(expire.format(cat, "db.a"))
    floe.sql(expire.format(floe.name, "db.b"))
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert schemas_specs(spark, cat, "db.b") == schemas_specs(spark, cat, "db.a") == \
        ([1], [0, 1])
    # compaction into spec 1, one more append (drops the manifests left with
    # DELETED entries only), expiry: spec 0 goes in both
    spark.sql(f"CALL {cat}.system.rewrite_data_files(table => 'db.a', "
              "options => map('rewrite-all', 'true'))")
    spark.sql(f"INSERT INTO {cat}.db.a VALUES (4, 'd', 4)")
    spark.sql(expire.format(cat, "db.a"))
    floe.sql(f"CALL {floe.name}.system.rewrite_data_files(table => 'db.b', "
             "options => map('rewrite-all', 'true'))",
             "INSERT INTO db.b VALUES (4, 'd', 4)", expire.format(floe.name, "db.b"))
    spark.sql(f"REFRESH TABLE {cat}.db.b")
    assert schemas_specs(spark, cat, "db.b") == schemas_specs(spark, cat, "db.a") == \
        ([1], [1])
    assert spark_rows(spark.sql(f"SELECT * FROM {cat}.db.b")) == \
        spark_rows(spark.sql(f"SELECT * FROM {cat}.db.a"))
