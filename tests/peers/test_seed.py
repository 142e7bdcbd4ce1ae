# SPDX-License-Identifier: Apache-2.0
"""The seed's three scripts (shared/seeds/000), as written, on Spark 3.5 + Iceberg 1.11
against floe-managed warehouses, and the same stories in `floe sql`.

- time_travel_rollback.py: Spark's JDBC catalog on floe's catalog.db, tables on S3Proxy
  (s3a://warehouse/, as in the seed); floe then reads what Spark wrote.
- wap_retention.py: Spark's REST catalog against `floe serve`.
- stale_reader.py: Spark's REST catalog against `floe serve`, two catalogs in one session.

Spark's output must be the seed's (snapshot ids and timestamps masked, table padding
normalised); floe's examples/sql stories must print the same counts, tables and messages.
Where floe deliberately differs, both behaviours are asserted side by side.
"""
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import (JAVA_OPTS, ROOT, Floe, floe_run, jdbc_props, rest_props, spark_jars,
                      unavailable)

SEED = os.path.join(ROOT, "tests", "peers", "seed")
EXAMPLES = os.path.join(ROOT, "examples", "sql")

ID = re.compile(r"\b\d{10,}\b")
TS = re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?\b")


def mask(text):
    """Snapshot ids -> <ID>, timestamps -> <TS>, box cells stripped, blank lines dropped."""
    out = []
    for line in text.splitlines():
        line = TS.sub("<TS>", ID.sub("<ID>", line.rstrip()))
        if line.startswith("+") and set(line) <= set("+-"):
            line = "+"
        elif line.startswith("|"):
            line = "|" + "|".join(c.strip() for c in line.strip("|").split("|")) + "|"
        if line:
            out.append(line)
    return out


def boxes(text):
    """The result boxes of an output: [(header, rows)], cells stripped."""
    res, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].startswith("+-") and i + 2 < len(lines) and lines[i + 1].startswith("|"):
            hdr = [c.strip() for c in lines[i + 1].strip("|").split("|")]
            rows, i = [], i + 3
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip("|").split("|")])
                i += 1
            res.append((hdr, rows))
        i += 1
    return res


def masked_rows(rows):
    return [[TS.sub("<TS>", ID.sub("<ID>", c)) for c in r] for r in rows]


def facts(text):
    """`label : value` lines of the Spark scripts, label -> value (masked)."""
    d = {}
    for line in text.splitlines():
        m = re.match(r"^([^|+=:][^:]*?)\s*:\s*(.*)$", line)
        if m:
            d[m.group(1).strip()] = ID.sub("<ID>", m.group(2).strip())
    return d


def floe_facts(text):
    """One-cell result boxes of floe's table output, alias -> value (masked)."""
    return {h[0]: ID.sub("<ID>", r[0][0]) for h, r in boxes(text) if len(h) == 1 and len(r) == 1}


def same_tables(spark_out, floe_out):
    """Every multi-column box Spark printed appears, in order, in floe's output
    (floe may print more boxes and more columns; Spark's columns are compared)."""
    fl = [(h, r) for h, r in boxes(floe_out) if len(h) > 1]
    j = 0
    for hdr, rows in [(h, r) for h, r in boxes(spark_out) if len(h) > 1]:
        while j < len(fl) and not set(hdr) <= set(fl[j][0]):
            j += 1
        assert j < len(fl), f"floe printed no table with columns {hdr}:\n{floe_out}"
        fh, fr = fl[j]
        proj = [[row[fh.index(c)] for c in hdr] for row in fr]
        assert masked_rows(proj) == masked_rows(rows), (hdr, proj, rows)
        j += 1


def spark_submit(script, props, tmp_path):
    """Run a seed script with spark-submit (a fresh JVM, as the seed does)."""
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    if not os.access(submit, os.X_OK):
        unavailable("spark-submit not found next to " + sys.executable)
    env = dict(os.environ, FLOE_PEER_CATALOG=json.dumps(props), TZ="UTC",
               PYSPARK_PYTHON=sys.executable)
    p = subprocess.run([submit, "--master", "local[2]", "--jars", ",".join(spark_jars()),
                        "--driver-java-options", JAVA_OPTS,
                        "--conf", "spark.driver.host=127.0.0.1",
                        "--conf", "spark.driver.bindAddress=127.0.0.1",
                        "--conf", "spark.sql.session.timeZone=UTC",
                        os.path.join(SEED, script)],
                       capture_output=True, text=True, env=env, timeout=600, cwd=str(tmp_path))
    (tmp_path / (script + ".out")).write_text(p.stdout)
    (tmp_path / (script + ".err")).write_text(p.stderr)
    assert p.returncode == 0, f"{script} failed:\n{p.stdout}\n{p.stderr[-4000:]}"
    return p.stdout


def expected(script):
    with open(os.path.join(SEED, script.replace(".py", ".expected"))) as f:
        return f.read()


def floe_story(example, args):
    p = floe_run(args + ["--format", "table", "-f", os.path.join(EXAMPLES, example)],
                 check=False)
    assert p.returncode == 0, p.stderr
    return p.stdout, p.stderr


def test_time_travel_rollback_jdbc_s3(spark, s3, floe_bin, tmp_path):
    """Script 1 on Spark's JDBC catalog over floe's catalog.db, data on S3Proxy."""
    db = str(tmp_path / "catalog.db")
    wh = "s3a://warehouse/"
    fl = Floe(wh, "ice", db=db, s3=s3)
    fl.sql("CREATE NAMESPACE shop")  # floe creates the catalog file and the namespace
    out = spark_submit("time_travel_rollback.py", jdbc_props(db, wh, s3), tmp_path)
    # Iceberg's JdbcCatalog lays a table out at <warehouse>/<ns>/<table>; the seed's
    # HiveCatalog (and floe, PyIceberg) at <warehouse>/<ns>.db/<table>.
    want = expected("time_travel_rollback.py").replace("warehouse/shop.db/", "warehouse/shop/")
    assert mask(out) == mask(want)
    assert "shop/orders/metadata/00006-" in "\n".join(s3.objects("shop/orders"))

    # floe reads what Spark wrote: the same counts, history and files
    assert fl.scalar("SELECT count(*) FROM shop.orders") == 3
    hist = fl.rows("SELECT is_current_ancestor AS a FROM shop.orders.history "
                   "ORDER BY made_current_at")
    assert [r["a"] for r in hist] == [True, True, False, True, False, True]
    assert fl.scalar("SELECT count(*) FROM shop.orders.files") == 2
    assert fl.scalar("SELECT count(*) FROM shop.orders.all_data_files") == 3
    assert fl.scalar("SELECT count(*) FROM shop.orders.metadata_log_entries") == 7
    assert fl.scalar("SELECT sum(amount) FROM shop.orders") in (505.75, "505.75")

    # the same story in floe sql, on its own warehouse in the same bucket
    fdb = str(tmp_path / "floe-catalog.db")
    fout, ferr = floe_story("01_time_travel_rollback.sql",
                            Floe("s3a://warehouse/floe-story", "local", db=fdb, s3=s3).args())
    same_tables(out, fout)
    sf, ff = facts(out), floe_facts(fout)
    pairs = {"current rows": "current_rows", "VERSION AS OF first snapshot": "version_as_of_first",
             "TIMESTAMP AS OF its commit": "timestamp_as_of_its_commit",
             "rows after bad load": "rows_after_bad_load",
             "rows after rollback": "rows_after_rollback",
             "newest by committed_at": "newest_by_committed_at",
             "main points at": "main_points_at",
             "set_current_snapshot to bad -> rows": "set_current_to_bad",
             "set_current_snapshot to good -> rows": "set_current_to_good",
             "data files in current snapshot": "data_files_in_current_snapshot",
             "data files in any snapshot": "data_files_in_any_snapshot",
             "metadata.json files written": "metadata_json_files_written"}
    for sl, fa in pairs.items():
        assert sf[sl].split()[0] == ff[fa], (sl, sf[sl], ff[fa])
    assert sf["TIMESTAMP AS OF the bad commit still reads"] == ff["timestamp_as_of_bad_commit"] + " rows"
    # the forward rollback: same exception class and message
    m = re.search(r"rollback_to_snapshot: org\.apache\.iceberg\.exceptions\.(\w+) - (.*)", out)
    assert m and ID.sub("<ID>", f"{m.group(1)}: {m.group(2)}") in ID.sub("<ID>", ferr)
    loc = [r for h, rows in boxes(fout) for r in rows if h[0] == "col_name" and r[0] == "Location"]
    assert loc and loc[0][1] == "s3a://warehouse/floe-story/shop.db/orders"
    # and Spark reads the table floe wrote, through the same JDBC catalog type
    # (the JDBC catalog's name is the catalog_name column: floe's story wrote `local`)
    from conftest import add_catalog
    cat = add_catalog(spark, "local", jdbc_props(fdb, "s3a://warehouse/floe-story", s3))
    assert spark.sql(f"SELECT count(*) FROM {cat}.shop.orders").collect()[0][0] == 3
    flags = [r[0] for r in spark.sql(f"SELECT is_current_ancestor FROM {cat}.shop.orders.history "
                                     "ORDER BY made_current_at").collect()]
    assert flags == [True, True, False, True, False, True]
    assert spark.sql(f"SELECT count(*) FROM {cat}.shop.orders.all_data_files").collect()[0][0] == 3


def test_wap_retention_rest(floe_bin, floe_serve, warehouse, tmp_path):
    """Script 2 on Spark's REST catalog against floe serve."""
    fl = Floe(warehouse, "ice")
    fl.sql("CREATE NAMESPACE shop")
    srv = floe_serve(warehouse, "ice")
    out = spark_submit("wap_retention.py", rest_props(srv.url), tmp_path)
    assert mask(out) == mask(expected("wap_retention.py"))

    fout, ferr = floe_story("02_wap_retention.sql", Floe(str(tmp_path / "floe-wh"), "local").args())
    same_tables(out, fout)
    sf, ff = facts(out), floe_facts(fout)
    assert sf["appended since watermark"] == "[1003, 1004]"
    assert [r[0] for r in boxes(fout)[0][1]] == ["1003", "1004"]
    assert sf["rows the incremental read returns across that delete and update"] == \
        ff["incremental_rows_across_delete_and_update"] == "0"
    assert sf["audit check, non-positive amounts"] == ff["non_positive_amounts"] == "1"
    assert sf["fixed on the branch, audit rows now"] == ff["audit_rows_after_fix"] == "4"
    assert sf["main rows after publish"] == ff["main_rows_after_publish"] == "4"
    assert sf["snapshots before expiry"] == ff["snapshots_before_expiry"] == "12"
    assert sf["tag still readable"] == ff["tag_rows"] + " rows"
    mains = [r for h, r in boxes(fout) if h == ["main_rows", "audit_rows"]]
    assert [tuple(int(c) for c in r[0]) for r in mains] == [(4, 3), (3, 5)]
    m = re.search(r"oldest snapshot: (\w+) - (.*)", out)
    assert m and ID.sub("<ID>", f"{m.group(1)}: {m.group(2)}") in ID.sub("<ID>", ferr)


def test_wap_deliberate_differences(floe_bin, spark, floe_serve, warehouse):
    """floe's documented differences, next to Spark's behaviour on the same table:
    strict incremental reads, and branch writes that never land on main."""
    from conftest import add_catalog
    fl = Floe(warehouse, "ice")
    fl.sql("CREATE NAMESPACE shop",
           "CREATE TABLE shop.d (id BIGINT, s STRING) USING iceberg",
           "INSERT INTO shop.d VALUES (1, 'a'), (2, 'b')")
    srv = floe_serve(warehouse, "ice")
    cat = add_catalog(spark, "rd" + os.urandom(3).hex(), rest_props(srv.url))
    start = fl.scalar("SELECT snapshot_id FROM shop.d.refs WHERE name = 'main'")
    spark.sql(f"DELETE FROM {cat}.shop.d WHERE id = 2")
    spark.sql(f"INSERT INTO {cat}.shop.d VALUES (3, 'c')")
    end = fl.scalar("SELECT snapshot_id FROM shop.d.refs WHERE name = 'main'")
    # Spark: the append scan skips the delete silently
    got = (spark.read.format("iceberg").option("start-snapshot-id", str(start))
           .option("end-snapshot-id", str(end)).load(f"{cat}.shop.d").collect())
    assert [r.id for r in got] == [3]
    # floe: strict by default, append-only on request
    err = fl.error(f"SELECT * FROM incremental_append('shop.d', {start}, {end})")
    assert "IllegalArgumentException" in err and "table_changes" in err
    assert [r["id"] for r in fl.rows(f"SELECT id FROM incremental_append('shop.d', {start}, "
                                     f"{end}, 'append-only')")] == [3]
    # Spark: writeTo(...).option("branch") lands on main; floe's t.branch_b never does
    spark.sql(f"ALTER TABLE {cat}.shop.d CREATE BRANCH audit")
    df = spark.createDataFrame([(4, "d")], "id BIGINT, s STRING")
    df.writeTo(f"{cat}.shop.d").option("branch", "audit").append()
    counts = lambda: (fl.scalar("SELECT count(*) FROM shop.d"),  # noqa: E731
                      fl.scalar("SELECT count(*) FROM shop.d VERSION AS OF 'audit'"))
    assert counts() == (3, 2)
    fl.sql("INSERT INTO shop.d.branch_audit VALUES (5, 'e')")
    assert counts() == (3, 3)


def test_stale_reader_rest(floe_bin, floe_serve, warehouse, tmp_path):
    """Script 3 on Spark's REST catalog: the cached catalog serves the rolled-back state
    until REFRESH TABLE. floe's default (freshness mode) never does; with
    cache-enabled=true it reproduces Spark's trap."""
    fl = Floe(warehouse, "ice")
    fl.sql("CREATE NAMESPACE shop")
    srv = floe_serve(warehouse, "ice")
    props = rest_props(srv.url)
    del props["cache-enabled"]  # the seed's `ice` keeps the default cache
    out = spark_submit("stale_reader.py", props, tmp_path)
    assert mask(out) == mask(expected("stale_reader.py"))

    # floe: two sessions as two processes fed through pipes
    fw = str(tmp_path / "floe-wh")
    base = Floe(fw, "local")
    # the seed's two catalogs in one session, as examples/sql/03_stale_reader.sql documents
    out = floe_run(["sql", "--quiet", "--warehouse", fw, "--catalog-name", "ice",
              "--conf", "spark.sql.catalog.ice=org.apache.iceberg.spark.SparkCatalog",
              "--conf", "spark.sql.catalog.ops=org.apache.iceberg.spark.SparkCatalog",
              "--conf", "spark.sql.catalog.ops.cache-enabled=false",
              "-f", os.path.join(EXAMPLES, "03_stale_reader.sql")])
    want = [l for l in expected("stale_reader.py").splitlines() if l.strip()]
    got = [l.strip("| ").rstrip() for l in out.stdout.splitlines() if " sees " in l
           or "after REFRESH" in l]
    assert got == want  # 5 / 3 / 5 / 3
    base = Floe(fw, "ice")
    base.sql("CREATE TABLE shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2))",
             "INSERT INTO shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25)")

    def session(*conf):
        return subprocess.Popen([floe_bin] + base.args() + ["--format", "csv", *conf],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(p, q):
        p.stdin.write(q + ";\n")
        p.stdin.flush()
        lines = []
        while len(lines) < 2:
            lines.append(p.stdout.readline().strip())
        return lines[1]

    good = base.scalar("SELECT snapshot_id FROM shop.orders_cache.refs WHERE name = 'main'")
    dash_cached = session("--conf", "cache-enabled=true")
    dash_fresh = session()
    try:
        q = "SELECT count(*) AS n FROM shop.orders_cache"
        assert ask(dash_cached, q) == "3" and ask(dash_fresh, q) == "3"
        base.sql("INSERT INTO shop.orders_cache VALUES (1003, 310.25), (1004, -1.00)")
        assert ask(dash_cached, q) == "3"  # cached as first loaded, like Spark's CachingCatalog
        dash_cached.stdin.write("REFRESH TABLE shop.orders_cache;\n")
        assert ask(dash_cached, q) == "5" and ask(dash_fresh, q) == "5"
        base.sql(f"CALL ice.system.rollback_to_snapshot('shop.orders_cache', {good})")
        assert base.scalar(q) == 3                 # on-call
        assert ask(dash_cached, q) == "5"          # Spark's trap, reproduced
        assert ask(dash_fresh, q) == "3"           # floe's default: fresh
        dash_cached.stdin.write("REFRESH TABLE shop.orders_cache;\n")
        assert ask(dash_cached, q) == "3"
    finally:
        for p in (dash_cached, dash_fresh):
            p.stdin.close()
            p.wait(30)
