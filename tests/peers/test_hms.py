# SPDX-License-Identifier: Apache-2.0
"""floe's Hive Metastore catalog (issue #26) against a real metastore, with Spark 3.5 +
Iceberg 1.11's HiveCatalog on the same metastore.

The metastore is Apache Hive 2.3.9's HiveMetaStore (the jars of the pyspark wheel that
scripts/peers-setup.sh pins) with embedded Derby, started by tests/peers/hms/HmsLauncher.java
on a free port of 127.0.0.1. Data lives on the suite's S3Proxy (s3a://warehouse/), as in the
seed. Under CI=true a metastore that cannot be started is a failure, not a skip.
"""
import glob
import json
import os
import signal
import subprocess
import threading
import time

import pytest

from conftest import (PEERS_DIR, ROOT, Floe, FloeError, add_catalog, floe_run, free_port, uniq,
                      unavailable, wait_port)
from test_seed import ID, expected, facts, mask, spark_submit

HMS_TXN_TIMEOUT_S = 8  # hive.txn.timeout: how long a lock outlives its last heartbeat
HMS_REAPER_S = 2  # hive.timedout.txn.reaper.interval (HmsLauncher.java)


def pyspark_jars():
    d = glob.glob(os.path.join(PEERS_DIR, "venv", "lib", "python3*", "site-packages", "pyspark",
                               "jars"))
    return d[0] if d and glob.glob(os.path.join(d[0], "hive-metastore-*.jar")) else None


class Hms:
    def __init__(self, tmp):
        self.tmp = tmp
        self.port = free_port()
        self.uri = f"thrift://127.0.0.1:{self.port}"
        self.proc = None
        self.compiled = False

    def start(self):
        """Start (or start again, on the same port and Derby database) the metastore."""
        jars = pyspark_jars()
        if not jars:
            unavailable("Hive metastore jars not found in the peers' pyspark (scripts/peers-setup.sh)")
        cls = os.path.join(self.tmp, "classes")
        os.makedirs(cls, exist_ok=True)
        if not self.compiled:
            p = subprocess.run(["javac", "-nowarn", "-cp", os.path.join(jars, "*"), "-d", cls,
                                os.path.join(ROOT, "tests", "peers", "hms", "HmsLauncher.java")],
                               capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                unavailable("cannot compile the metastore launcher: " + p.stderr[-2000:])
            self.compiled = True
        data = os.path.join(self.tmp, "hms")
        os.makedirs(data, exist_ok=True)
        self.log = open(os.path.join(self.tmp, "hms.log"), "a")
        self.proc = subprocess.Popen(
            ["java", "-Xmx768m", f"-Dhms.txn.timeout={HMS_TXN_TIMEOUT_S}",
             f"-Dhive.log.dir={self.tmp}", "-cp", cls + ":" + os.path.join(jars, "*"),
             "HmsLauncher", str(self.port), data],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=self.tmp)
        if not wait_port(self.port, self.proc, "hive-metastore", timeout=240):
            self.proc.kill()
            unavailable("the Hive Metastore did not start: " +
                        open(os.path.join(self.tmp, "hms.log")).read()[-3000:])

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


# the `hms` fixture (one metastore per run, shared with test_python_hms.py) is in conftest.py


class FloeHms(Floe):
    """`floe sql --catalog-uri thrift://... --warehouse s3a://warehouse/`."""

    def __init__(self, hms, s3, name="ice", extra=()):
        super().__init__("s3a://warehouse/", name, uri=hms.uri, s3=s3)
        self.extra = list(extra)

    def args(self):
        return super().args() + ["--warehouse", self.warehouse] + self.extra


def hive_props(hms, s3):
    """The seed's catalog block (type=hive, uri, warehouse) with S3Proxy's settings."""
    p = {"type": "hive", "uri": hms.uri, "warehouse": "s3a://warehouse/",
         "cache-enabled": "false"}
    p.update(s3.iceberg_props())
    return p


def spark_cat(spark, hms, s3):
    return add_catalog(spark, "hms", hive_props(hms, s3))


def snapshot_ids_spark(spark, table):
    return sorted(r[0] for r in spark.sql(f"SELECT snapshot_id FROM {table}.snapshots").collect())


def snapshot_ids_floe(fl, table):
    return sorted(int(r["snapshot_id"]) for r in fl.rows(f"SELECT snapshot_id FROM {table}.snapshots"))


# --- the seed's script on type=hive, floe on the same metastore ------------------------------

def test_seed_time_travel_rollback_on_hive(spark, s3, hms, floe_bin, tmp_path):
    """Script 1 exactly as the seed runs it (type=hive, s3a://warehouse/): Spark's output is the
    seed's; floe then reads every snapshot Spark wrote and commits on top, and Spark reads
    floe's snapshot."""
    out = spark_submit("time_travel_rollback.py", hive_props(hms, s3), tmp_path)
    assert mask(out) == mask(expected("time_travel_rollback.py"))
    fl = FloeHms(hms, s3)
    assert fl.scalar("SELECT count(*) FROM shop.orders") == 3
    hist = fl.rows("SELECT is_current_ancestor AS a FROM shop.orders.history "
                   "ORDER BY made_current_at")
    assert [r["a"] for r in hist] == [True, True, False, True, False, True]
    assert fl.scalar("SELECT count(*) FROM shop.orders.metadata_log_entries") == 7
    assert fl.scalar("SELECT sum(amount) FROM shop.orders") in (505.75, "505.75")
    # every snapshot Spark wrote reads in floe with Spark's row count
    cat = spark_cat(spark, hms, s3)
    for sid in snapshot_ids_spark(spark, f"{cat}.shop.orders"):
        want = spark.sql(f"SELECT count(*) FROM {cat}.shop.orders VERSION AS OF {sid}").collect()[0][0]
        assert fl.scalar(f"SELECT count(*) FROM shop.orders VERSION AS OF {sid}") == want
    loc = [r["data_type"] for r in fl.rows("DESCRIBE TABLE EXTENDED shop.orders")
           if r.get("col_name") == "Location"]
    assert loc == ["s3a://warehouse/shop.db/orders"]
    # floe commits on top; Spark sees floe's snapshot and rows
    fl.sql("INSERT INTO shop.orders VALUES (1009, 509, 1.25, 'PLACED', DATE'2026-09-22')")
    assert spark.sql(f"SELECT count(*) FROM {cat}.shop.orders").collect()[0][0] == 4
    assert snapshot_ids_spark(spark, f"{cat}.shop.orders") == snapshot_ids_floe(fl, "shop.orders")


def test_floe_story_on_hive(s3, hms, floe_bin, tmp_path):
    """`floe sql` runs the seed's story 1 against the metastore with the seed's counts."""
    ns = uniq("story")
    fl = FloeHms(hms, s3, name="local")  # the story CALLs local.system.*
    story = open(os.path.join(ROOT, "examples", "sql", "01_time_travel_rollback.sql")).read()
    f = tmp_path / "story.sql"
    f.write_text(story.replace("shop.", ns + ".").replace("EXISTS shop;", f"EXISTS {ns};"))
    p = floe_run(fl.args() + ["--format", "table", "-f", str(f)], check=False)
    assert p.returncode == 0, p.stderr
    from test_seed import floe_facts
    ff = floe_facts(p.stdout)
    sf = facts(expected("time_travel_rollback.py"))
    for sl, fa in {"current rows": "current_rows", "rows after bad load": "rows_after_bad_load",
                   "rows after rollback": "rows_after_rollback",
                   "data files in any snapshot": "data_files_in_any_snapshot",
                   "metadata.json files written": "metadata_json_files_written"}.items():
        assert sf[sl].split()[0] == ff[fa], (sl, sf[sl], ff[fa])


def test_interleaved_commits(spark, s3, hms, floe_bin):
    """floe and Spark take turns on one HMS table; each side reads every snapshot the other
    wrote, and the HMS parameters are Iceberg's HiveCatalog ones."""
    ns = uniq("mix")
    cat = spark_cat(spark, hms, s3)
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns} WITH DBPROPERTIES ('owner.team' = 'lake')",
           f"CREATE TABLE {ns}.t (id bigint, who string) USING iceberg")
    counts = {}
    for i in range(3):
        fl.sql(f"INSERT INTO {ns}.t VALUES ({10 * i}, 'floe')")
        spark.sql(f"INSERT INTO {cat}.{ns}.t VALUES ({10 * i + 1}, 'spark')")
    spark_ids = snapshot_ids_spark(spark, f"{cat}.{ns}.t")
    assert len(spark_ids) == 6 and spark_ids == snapshot_ids_floe(fl, f"{ns}.t")
    for sid in spark_ids:
        a = spark.sql(f"SELECT count(*) FROM {cat}.{ns}.t VERSION AS OF {sid}").collect()[0][0]
        b = fl.scalar(f"SELECT count(*) FROM {ns}.t VERSION AS OF {sid}")
        counts[sid] = a
        assert a == b
    assert sorted(counts.values()) == [1, 2, 3, 4, 5, 6]
    # the metastore's view of the table: Iceberg's HiveCatalog parameters
    client = hms_client(spark, hms)
    t = client.getTable(ns, "t")
    params = dict(t.getParameters())
    assert params["table_type"] == "ICEBERG" and params["EXTERNAL"] == "TRUE"
    assert t.getTableType() == "EXTERNAL_TABLE"
    assert params["metadata_location"].startswith(f"s3a://warehouse/{ns}.db/t/metadata/")
    assert params["previous_metadata_location"].startswith(f"s3a://warehouse/{ns}.db/t/metadata/")
    assert t.getSd().getLocation() == f"s3a://warehouse/{ns}.db/t"
    # namespace properties are database parameters
    db = client.getDatabase(ns)
    assert dict(db.getParameters())["owner.team"] == "lake"
    assert db.getLocationUri() == f"s3a://warehouse/{ns}.db"


def hms_client(spark, hms):
    jvm = spark._jvm
    conf = jvm.org.apache.hadoop.hive.conf.HiveConf()
    conf.set("hive.metastore.uris", hms.uri)
    return jvm.org.apache.hadoop.hive.metastore.HiveMetaStoreClient(conf)


def test_metastore_errors(spark, s3, hms, floe_bin):
    ns = uniq("err")
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (a int) USING iceberg")
    assert "Table does not exist: %s.nope" % ns in fl.error(f"SELECT * FROM {ns}.nope")
    assert f"Namespace {ns} is not empty. One or more tables exist." in fl.error(
        f"DROP NAMESPACE {ns}")
    assert f"Namespace already exists: {ns}" in fl.error(f"CREATE NAMESPACE {ns}")
    assert "Cannot support multi part namespace in Hive Metastore: a.b" in fl.error(
        "CREATE NAMESPACE a.b")
    # a plain Hive table (no table_type=ICEBERG) is not an Iceberg table
    jvm = spark._jvm
    api = jvm.org.apache.hadoop.hive.metastore.api
    t = api.Table()
    t.setDbName(ns)
    t.setTableName("plain")
    sd = api.StorageDescriptor()
    sd.setCols(jvm.java.util.ArrayList())
    sd.setLocation(f"s3a://warehouse/{ns}.db/plain")
    serde = api.SerDeInfo()
    serde.setParameters(jvm.java.util.HashMap())
    sd.setSerdeInfo(serde)
    t.setSd(sd)
    t.setPartitionKeys(jvm.java.util.ArrayList())
    params = jvm.java.util.HashMap()
    params.put("EXTERNAL", "TRUE")
    t.setParameters(params)
    t.setTableType("EXTERNAL_TABLE")
    hms_client(spark, hms).createTable(t)
    assert f"Not an iceberg table: ice.{ns}.plain (type=null)" in fl.error(
        f"SELECT * FROM {ns}.plain")
    # SHOW TABLES lists the Iceberg ones only, as HiveCatalog.listTables
    assert [r["tableName"] for r in fl.rows(f"SHOW TABLES IN {ns}")] == ["t"]
    fl.sql(f"DROP TABLE {ns}.t")
    assert "Table does not exist" in fl.error(f"SELECT * FROM {ns}.t")
    # an unreachable metastore is a clear error at open
    bad = Floe("s3a://warehouse/", "ice", uri=f"thrift://127.0.0.1:{free_port()}", s3=s3)
    assert "Could not connect to Hive Metastore" in bad.error("SHOW NAMESPACES")


# --- locks --------------------------------------------------------------------------------

def dead_holder_lock(spark, hms, ns, table):
    """An EXCLUSIVE table lock taken the way HiveCatalog takes it, by a client that then goes
    away without unlocking or heartbeating (the metastore's view of a SIGKILLed writer)."""
    api = spark._jvm.org.apache.hadoop.hive.metastore.api
    comp = api.LockComponent(api.LockType.EXCLUSIVE, api.LockLevel.TABLE, ns)
    comp.setTablename(table)
    comps = spark._jvm.java.util.ArrayList()
    comps.add(comp)
    req = api.LockRequest(comps, "ghost", "localhost")
    client = hms_client(spark, hms)
    resp = client.lock(req)
    assert str(resp.getState()) == "ACQUIRED"
    client.close()
    return resp.getLockid()


def test_lock_held_by_dead_writer_times_out(spark, s3, hms, floe_bin):
    """A lock whose holder died: with a short iceberg.hive.lock-timeout-ms floe gives up with
    HiveCatalog's message (a failed commit, the table unchanged) before the metastore expires
    it (test_sigkill_while_holding_lock waits for that)."""
    ns = uniq("lock")
    fl = FloeHms(hms, s3)
    # one attempt: a lock timeout is a failed commit, which the table layer retries (as Java's
    # commit.retry.num-retries); retried, the dead lock would expire meanwhile
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (a int) USING iceberg "
           "TBLPROPERTIES ('commit.retry.num-retries'='0')",
           f"INSERT INTO {ns}.t VALUES (1)")
    dead_holder_lock(spark, hms, ns, "t")
    quick = FloeHms(hms, s3, extra=["--conf", "hadoop.iceberg.hive.lock-timeout-ms=1500",
                                    "--conf", "hadoop.iceberg.hive.lock-check-max-wait-ms=200"])
    err = quick.error(f"INSERT INTO {ns}.t VALUES (2)")
    assert f"waiting for lock on {ns}.t" in err and "Timed out after" in err
    assert fl.scalar(f"SELECT count(*) FROM {ns}.t") == 1


def test_concurrent_floe_and_spark(spark, s3, hms, floe_bin):
    """floe and Spark commit to one HMS table at once (locks contended): no commit is lost."""
    ns = uniq("race")
    cat = spark_cat(spark, hms, s3)
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (who string, i int) USING iceberg")
    n = 4
    errors = []

    def floe_side():
        for i in range(n):
            try:
                fl.sql(f"INSERT INTO {ns}.t VALUES ('floe', {i})")
            except FloeError as e:  # pragma: no cover - reported below
                errors.append(str(e))

    th = threading.Thread(target=floe_side)
    th.start()
    for i in range(n):
        spark.sql(f"INSERT INTO {cat}.{ns}.t VALUES ('spark', {i})")
    th.join(600)
    assert not errors, errors
    rows = spark.sql(f"SELECT who, count(*) FROM {cat}.{ns}.t GROUP BY who ORDER BY who").collect()
    assert [(r[0], r[1]) for r in rows] == [("floe", n), ("spark", n)]
    assert fl.scalar(f"SELECT count(*) FROM {ns}.t") == 2 * n
    assert len(snapshot_ids_floe(fl, f"{ns}.t")) == 2 * n


# --- every floe command over the metastore ---------------------------------------------------

def cli_args(hms, s3):
    return ["--catalog-uri", hms.uri, "--warehouse", "s3a://warehouse/"] + s3.floe_conf()


def test_commands_over_hms(spark, s3, hms, floe_bin):
    """floe log, suspects, inventory and retention open the metastore with --catalog-uri
    thrift:// (and --conf type=hive,uri=...), on a table Spark and floe both wrote."""
    ns = uniq("cmds")
    cat = spark_cat(spark, hms, s3)
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (id bigint, who string) USING iceberg",
           f"INSERT INTO {ns}.t VALUES (1, 'floe')")
    spark.sql(f"INSERT INTO {cat}.{ns}.t VALUES (2, 'spark')")
    want = [str(r[0]) for r in spark.sql(
        f"SELECT snapshot_id FROM {cat}.{ns}.t.snapshots ORDER BY committed_at DESC").collect()]
    p = floe_run(["log", "--format", "csv"] + cli_args(hms, s3) + [f"{ns}.t"])
    assert [ln.split(",")[0] for ln in p.stdout.splitlines()[1:]] == want
    # the same through --conf type=hive and uri=, as floe sql takes them
    p = floe_run(["log", "--format", "csv", "--conf", "type=hive", "--conf", "uri=" + hms.uri]
                 + s3.floe_conf() + [f"{ns}.t"])
    assert [ln.split(",")[0] for ln in p.stdout.splitlines()[1:]] == want
    p = floe_run(["suspects"] + cli_args(hms, s3) + [f"{ns}.t"])
    assert p.stdout.strip() == "no suspect snapshots among 2 checked"
    p = floe_run(["inventory", "--quiet", "--format", "csv"] + cli_args(hms, s3) + [f"{ns}.t"])
    data = [ln for ln in p.stdout.splitlines() if ln.startswith("data_file,")]
    files = sorted(r[0] for r in spark.sql(
        f"SELECT file_path FROM {cat}.{ns}.t.data_files").collect())
    assert sorted(ln.split(",")[1] for ln in data) == files
    p = floe_run(["retention", "--format", "json"] + cli_args(hms, s3) + [f"{ns}.t"])
    r = json.loads(p.stdout)
    assert r["table"] == f"{ns}.t"
    # a missing table is the metastore's answer mapped to Iceberg's message
    p = floe_run(["log"] + cli_args(hms, s3) + [f"{ns}.nope"], check=False)
    assert p.returncode == 1 and f"Table does not exist: {ns}.nope" in p.stderr


# --- HMS columns and parameters as Java writes them ---------------------------------------

MIRRORED = ["table_type", "EXTERNAL", "snapshot-count", "numRows", "numFiles",
            "external.table.purge", "p1", "p2", "DO_NOT_UPDATE_STATS", "storage_handler",
            "COLUMN_STATS_ACCURATE", "default-sort-order"]


def test_hms_columns_and_parameters_as_java(spark, s3, hms, floe_bin):
    """The same table created and written once by floe and once by Spark's HiveCatalog: the
    metastore holds the same columns (HiveSchemaUtil's types and comments) and the same
    mirrored parameters (HMSTablePropertyHelper); removed properties leave the HMS too."""
    ns = uniq("cols")
    cat = spark_cat(spark, hms, s3)
    ddl = ("(id bigint COMMENT 'the id', s string, d decimal(10,2), b boolean, f float, "
           "dd double, dt date, ts timestamp, bin binary, m map<string,int>, "
           "st struct<a:int,b:array<string>>) USING iceberg PARTITIONED BY (bucket(4, id)) "
           "TBLPROPERTIES ('gc.enabled'='false', 'p1'='v1', 'p2'='v2')")
    row = ("(1, 'a', 1.50, true, 1.5, 2.5, DATE'2026-01-01', TIMESTAMP'2026-01-01 00:00:00', "
           "X'00', map('x', 1), named_struct('a', 1, 'b', array('q')))")
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.f {ddl}", f"INSERT INTO {ns}.f VALUES {row}",
           f"ALTER TABLE {ns}.f UNSET TBLPROPERTIES ('p2')")
    spark.sql(f"CREATE TABLE {cat}.{ns}.j {ddl}")
    spark.sql(f"INSERT INTO {cat}.{ns}.j VALUES {row}")
    spark.sql(f"ALTER TABLE {cat}.{ns}.j UNSET TBLPROPERTIES ('p2')")
    client = hms_client(spark, hms)
    tf, tj = client.getTable(ns, "f"), client.getTable(ns, "j")

    def cols(t):
        return [(c.getName(), c.getType(), c.getComment()) for c in t.getSd().getCols()]

    assert cols(tf) == cols(tj)
    assert cols(tf)[0] == ("id", "bigint", "the id") and len(cols(tf)) == 11
    pf, pj = dict(tf.getParameters()), dict(tj.getParameters())
    assert {k: pf.get(k) for k in MIRRORED} == {k: pj.get(k) for k in MIRRORED}
    assert pf["p1"] == "v1" and "p2" not in pf and pf["external.table.purge"] == "false"
    for k in ("current-schema", "default-partition-spec"):
        assert json.loads(pf[k]) == json.loads(pj[k]), k
    for k in ("uuid", "current-snapshot-id", "current-snapshot-timestamp-ms",
              "current-snapshot-summary", "metadata_location", "previous_metadata_location"):
        assert (k in pf) == (k in pj), k
    # the summaries themselves differ (Spark adds app-id, engine-name, ...): each side mirrors
    # its own current snapshot's summary without "operation", as Jackson writes the map
    for t, p in (("f", pf), ("j", pj)):
        summary = spark.sql(f"SELECT summary FROM {cat}.{ns}.{t}.snapshots").collect()[0][0]
        want = {k: v for k, v in summary.items() if k != "operation"}
        assert json.loads(p["current-snapshot-summary"]) == want, t
    assert pf["current-snapshot-id"] == str(fl.scalar(
        f"SELECT snapshot_id FROM {ns}.f.snapshots ORDER BY committed_at DESC LIMIT 1"))
    assert len(pf["uuid"]) == 36
    assert tf.getSd().getLocation() == tj.getSd().getLocation().replace("/j", "/f")
    assert tf.getSd().getInputFormat() == tj.getSd().getInputFormat()
    assert tf.getSd().getSerdeInfo().getSerializationLib() == \
        tj.getSd().getSerdeInfo().getSerializationLib()
    # iceberg.hive.table-property-max-size: a small one leaves the JSON values out, as Java
    small = FloeHms(hms, s3, extra=["--conf", "hadoop.iceberg.hive.table-property-max-size=200"])
    small.sql(f"INSERT INTO {ns}.f VALUES {row}")
    pf = dict(client.getTable(ns, "f").getParameters())
    assert "current-schema" not in pf and "current-snapshot-summary" not in pf
    assert "default-partition-spec" in pf and pf["snapshot-count"] == "2"
    # a schema change reaches the HMS columns on the next commit
    fl.sql(f"ALTER TABLE {ns}.f ADD COLUMN extra string COMMENT 'new'")
    assert cols(client.getTable(ns, "f"))[-1] == ("extra", "string", "new")


# --- lock-free commits ----------------------------------------------------------------------

def test_lock_free_table_property(spark, s3, hms, floe_bin):
    """engine.hive.lock-enabled=false (the table property, as Java's hiveLockEnabled reads
    it, over the catalog's iceberg.engine.hive.lock-enabled): the commit takes no HMS lock,
    so a lock held by a dead writer does not stop it; Hive 2.3.9 does not check the
    expected_parameter_key/value the alter carries (HIVE-26882 is Hive 4), as Java's docs
    warn. With the property true the catalog setting is overridden and the lock is taken."""
    ns = uniq("nolock")
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}",
           f"CREATE TABLE {ns}.t (a int) USING iceberg TBLPROPERTIES ('engine.hive.lock-enabled'='false')",
           f"CREATE TABLE {ns}.l (a int) USING iceberg TBLPROPERTIES ('engine.hive.lock-enabled'='true', "
           "'commit.retry.num-retries'='0')")
    dead_holder_lock(spark, hms, ns, "t")
    dead_holder_lock(spark, hms, ns, "l")
    quick = ["--conf", "hadoop.iceberg.hive.lock-timeout-ms=1500",
             "--conf", "hadoop.iceberg.hive.lock-check-max-wait-ms=200"]
    FloeHms(hms, s3, extra=quick).sql(f"INSERT INTO {ns}.t VALUES (1)")
    assert fl.scalar(f"SELECT count(*) FROM {ns}.t") == 1
    # the table property wins over the catalog's lock-enabled=false
    err = FloeHms(hms, s3, extra=quick + ["--conf", "hadoop.iceberg.engine.hive.lock-enabled=false"]
                  ).error(f"INSERT INTO {ns}.l VALUES (1)")
    assert f"waiting for lock on {ns}.l" in err
    # and Spark reads the lock-free commit
    cat = spark_cat(spark, hms, s3)
    assert spark.sql(f"SELECT count(*) FROM {cat}.{ns}.t").collect()[0][0] == 1


# --- a writer killed while holding the lock; a long commit's heartbeat --------------------------

def start_holding(fl, floe_bin, stmt, hold_ms, extra_env=None):
    """A floe process that stops once it holds the table lock (FLOE_HMS_TEST_HOLD_LOCK_MS);
    returns (process, time it reported holding the lock)."""
    env = dict(os.environ, FLOE_HMS_TEST_HOLD_LOCK_MS=str(hold_ms), **(extra_env or {}))
    p = subprocess.Popen([floe_bin] + fl.args() + ["--format", "json", "-c", stmt],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    got = []
    th = threading.Thread(target=lambda: got.append(p.stderr.readline()), daemon=True)
    th.start()
    th.join(120)
    assert got and "holding lock" in got[0], got
    return p, time.time()


def metadata_files(s3, ns, t):
    return {"s3a://warehouse/" + o for o in s3.objects(f"{ns}.db/{t}/metadata")
            if o.endswith(".metadata.json")}


def data_files(s3, ns, t):
    return {"s3a://warehouse/" + o for o in s3.objects(f"{ns}.db/{t}/data")}


def test_sigkill_while_holding_lock(spark, s3, hms, floe_bin):
    """A floe writer SIGKILLed while it holds the table lock: the metastore expires the lock
    (hive.txn.timeout without heartbeats, its timeout reaper), then floe and Spark commit; the
    table is the old version plus theirs, and the killed commit's files are referenced by
    nothing."""
    ns = uniq("kill")
    cat = spark_cat(spark, hms, s3)
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (i int, who string) USING iceberg",
           f"INSERT INTO {ns}.t VALUES (1, 'before')")
    p, held = start_holding(fl, floe_bin, f"INSERT INTO {ns}.t VALUES (2, 'killed')", 600000)
    os.kill(p.pid, signal.SIGKILL)
    p.wait(30)
    fl.sql(f"INSERT INTO {ns}.t VALUES (3, 'floe')")  # waits for the dead lock to expire
    waited = time.time() - held
    assert waited >= HMS_TXN_TIMEOUT_S - 1, waited  # it did wait: the lock was held, then expired
    spark.sql(f"INSERT INTO {cat}.{ns}.t VALUES (4, 'spark')")
    rows = spark.sql(f"SELECT i, who FROM {cat}.{ns}.t ORDER BY i").collect()
    assert [(r[0], r[1]) for r in rows] == [(1, "before"), (3, "floe"), (4, "spark")]
    assert fl.scalar(f"SELECT count(*) FROM {ns}.t") == 3
    # the killed commit wrote its metadata and data before taking the lock: both are orphans
    referenced = {r["file"] for r in fl.rows(f"SELECT file FROM {ns}.t.metadata_log_entries")}
    orphans = metadata_files(s3, ns, "t") - referenced
    assert len(orphans) == 1, orphans
    live = {r["file_path"] for r in fl.rows(f"SELECT file_path FROM {ns}.t.all_data_files")}
    dead = data_files(s3, ns, "t") - live
    assert len(dead) == 1 and len(live) == 3, (dead, live)


def test_heartbeat_keeps_lock_during_long_commit(s3, hms, floe_bin):
    """A commit that holds the lock longer than hive.txn.timeout heartbeats it
    (iceberg.hive.lock-heartbeat-interval-ms): past the timeout the lock is still held (a
    second writer times out waiting), and the long commit then succeeds."""
    ns = uniq("beat")
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (i int) USING iceberg "
           "TBLPROPERTIES ('commit.retry.num-retries'='0')",
           f"INSERT INTO {ns}.t VALUES (1)")
    hold_s = HMS_TXN_TIMEOUT_S + HMS_REAPER_S + 6
    beating = FloeHms(hms, s3, extra=["--conf", "hadoop.iceberg.hive.lock-heartbeat-interval-ms=1000"])
    p, held = start_holding(beating, floe_bin, f"INSERT INTO {ns}.t VALUES (2)", hold_s * 1000)
    time.sleep(max(0, held + HMS_TXN_TIMEOUT_S + HMS_REAPER_S + 1 - time.time()))
    quick = FloeHms(hms, s3, extra=["--conf", "hadoop.iceberg.hive.lock-timeout-ms=1500",
                                    "--conf", "hadoop.iceberg.hive.lock-check-max-wait-ms=200"])
    err = quick.error(f"INSERT INTO {ns}.t VALUES (3)")
    assert f"waiting for lock on {ns}.t" in err
    assert time.time() - held < hold_s, "the check ran after the long commit ended"
    out, errout = p.communicate(timeout=120)
    assert p.returncode == 0, errout
    assert sorted(r["i"] for r in fl.rows(f"SELECT i FROM {ns}.t")) == [1, 2]


# --- the metastore restarted mid-run ---------------------------------------------------------

def test_metastore_restarted_mid_run(spark, s3, floe_bin, tmp_path):
    """A metastore of its own, restarted between floe operations and under a commit holding
    its lock: floe reconnects and goes on; a commit whose metastore is gone fails with a clear
    error before the alter was sent, leaving no file behind and the table as it was."""
    h = Hms(str(tmp_path))
    h.start()
    try:
        ns = uniq("restart")
        fl = FloeHms(h, s3)
        fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (i int) USING iceberg",
               f"INSERT INTO {ns}.t VALUES (1)")
        h.stop()
        h.start()
        fl.sql(f"INSERT INTO {ns}.t VALUES (2)")  # between operations
        # during one: the commit holds the lock (kept in the metastore's database) while the
        # metastore restarts; its next call reconnects once and the commit completes
        gate = str(tmp_path / "metastore-is-back")
        p, _ = start_holding(fl, floe_bin, f"INSERT INTO {ns}.t VALUES (3)", 600000,
                             {"FLOE_HMS_TEST_HOLD_LOCK_UNTIL": gate})
        h.stop()
        h.start()
        open(gate, "w").close()
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert sorted(r["i"] for r in fl.rows(f"SELECT i FROM {ns}.t")) == [1, 2, 3]
        # in flight with the metastore gone: a clear error, nothing sent, nothing left
        before = metadata_files(s3, ns, "t")
        p, _ = start_holding(fl, floe_bin, f"INSERT INTO {ns}.t VALUES (4)", 2000)
        h.stop()
        out, err = p.communicate(timeout=300)
        assert p.returncode == 1 and "Could not connect to Hive Metastore" in err, err
        assert "outcome unknown" not in err
        h.start()
        assert sorted(r["i"] for r in fl.rows(f"SELECT i FROM {ns}.t")) == [1, 2, 3]
        assert metadata_files(s3, ns, "t") == before
    finally:
        h.stop()


def test_lock_lost_during_commit_fails_it(s3, hms, floe_bin):
    """A commit whose heartbeat comes too late (interval above hive.txn.timeout): the
    metastore expires the lock, the next heartbeat is refused, and the commit fails before
    its alter with Java's ensureActive message; the table is unchanged."""
    ns = uniq("lost")
    fl = FloeHms(hms, s3)
    fl.sql(f"CREATE NAMESPACE {ns}", f"CREATE TABLE {ns}.t (i int) USING iceberg "
           "TBLPROPERTIES ('commit.retry.num-retries'='0')", f"INSERT INTO {ns}.t VALUES (1)")
    late = (HMS_TXN_TIMEOUT_S + HMS_REAPER_S + 2) * 1000
    slow = FloeHms(hms, s3, extra=["--conf", f"hadoop.iceberg.hive.lock-heartbeat-interval-ms={late}"])
    p, _ = start_holding(slow, floe_bin, f"INSERT INTO {ns}.t VALUES (2)", late + 3000)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1, err
    assert "Failed to heartbeat for hive lock. Failed to heartbeat for lock:" in err, err
    assert [r["i"] for r in fl.rows(f"SELECT i FROM {ns}.t")] == [1]
