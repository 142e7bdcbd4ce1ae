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
