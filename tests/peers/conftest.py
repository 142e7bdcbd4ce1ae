# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the reference-engine peer suite (issue #19).

The peers are Spark 3.5 with the Iceberg 1.11 runtime (one long-lived session
for the whole pytest run, `local[2]`, UI and event log off as in the seed),
PyIceberg 0.12, and S3Proxy as a SigV4-verifying S3 server on 127.0.0.1.
floe is driven through its CLI (`floe sql`, `floe serve`) as subprocesses.

Installed by scripts/peers-setup.sh into ${FLOE_PEERS_DIR:-~/.cache/floe-peers}.
Under CI=true a peer that cannot be found or started fails the run; outside
CI the tests that need it are skipped with the reason.
"""
import contextlib
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import uuid

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEERS_DIR = os.environ.get("FLOE_PEERS_DIR", os.path.expanduser("~/.cache/floe-peers"))
FLOE = os.environ.get("FLOE_BIN", os.path.join(ROOT, "build", "dev", "floe"))
CI = os.environ.get("CI") == "true"
S3_KEY = "FLOEPEERKEY"
S3_SECRET = "floe/peer+SECRET=key"
BUCKET = "warehouse"
# Everything on loopback (Spark otherwise binds the host's outside address), UTC, and the
# AWS SDK's CRC trailers off: S3Proxy verifies plain SigV4 payload hashes.
PEER_ENV = {"SPARK_LOCAL_IP": "127.0.0.1", "TZ": "UTC",
            "AWS_REQUEST_CHECKSUM_CALCULATION": "when_required",
            "AWS_RESPONSE_CHECKSUM_VALIDATION": "when_required"}
os.environ.update(PEER_ENV)
JAVA_OPTS = ("-Duser.timezone=UTC -Daws.requestChecksumCalculation=WHEN_REQUIRED "
             "-Daws.responseChecksumValidation=WHEN_REQUIRED")


def unavailable(msg):
    """A peer is missing: a failure in CI, a skip elsewhere."""
    if CI:
        pytest.fail("peer unavailable (CI=true): " + msg, pytrace=False)
    pytest.skip(msg)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, what, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return True
        time.sleep(0.1)
    return False


# --- floe ----------------------------------------------------------------------------------

class FloeError(Exception):
    def __init__(self, rc, stderr):
        super().__init__(stderr.strip())
        self.rc = rc
        self.stderr = stderr


def floe_run(args, check=True, env=None, timeout=300):
    p = subprocess.run([FLOE] + list(args), capture_output=True, text=True, env=env,
                       timeout=timeout)
    if check and p.returncode != 0:
        raise FloeError(p.returncode, p.stderr)
    return p


class Floe:
    """`floe sql` on one catalog: a warehouse (local dir or s3a://...), a catalog
    name, optionally a separate catalog.db and S3 settings, or a REST URI."""

    def __init__(self, warehouse, name, db=None, s3=None, uri=None):
        self.warehouse, self.name, self.db, self.s3, self.uri = warehouse, name, db, s3, uri

    def args(self):
        a = ["sql", "--quiet", "--catalog-name", self.name]
        if self.uri:
            a += ["--catalog-uri", self.uri]
        else:
            a += ["--warehouse", self.warehouse]
        if self.db:
            a += ["--conf", "catalog.db=" + self.db]
        if self.s3:
            a += self.s3.floe_conf()
        return a

    def sql(self, *stmts, fmt="json", check=True):
        a = self.args() + ["--format", fmt]
        for s in stmts:
            a += ["-c", s]
        return floe_run(a, check=check)

    def rows(self, query):
        """Result of one query as a list of dicts (floe's --format json)."""
        out = self.sql(query).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def scalar(self, query):
        r = self.rows(query)
        return list(r[0].values())[0]

    def error(self, *stmts):
        p = self.sql(*stmts, check=False)
        assert p.returncode != 0, "expected an error, got: " + p.stdout
        return p.stderr.strip()


@pytest.fixture(scope="session")
def floe_bin():
    if not os.access(FLOE, os.X_OK):
        unavailable(f"floe binary {FLOE} not built")
    return FLOE


# --- S3Proxy -------------------------------------------------------------------------------

class S3:
    def __init__(self, port, basedir):
        self.port, self.basedir = port, basedir
        self.endpoint = f"http://127.0.0.1:{port}"

    def floe_conf(self):
        return ["--conf", "s3.endpoint=" + self.endpoint, "--conf", "s3.path-style-access=true",
                "--conf", "s3.access-key-id=" + S3_KEY, "--conf", "s3.secret-access-key=" + S3_SECRET,
                "--conf", "s3.region=us-east-1"]

    def iceberg_props(self):
        """Iceberg S3FileIO properties (Spark catalogs and PyIceberg alike)."""
        return {"io-impl": "org.apache.iceberg.aws.s3.S3FileIO", "s3.endpoint": self.endpoint,
                "s3.path-style-access": "true", "s3.access-key-id": S3_KEY,
                "s3.secret-access-key": S3_SECRET, "client.region": "us-east-1"}

    def objects(self, prefix=""):
        """Keys stored under the bucket (S3Proxy's filesystem backend)."""
        root = os.path.join(self.basedir, BUCKET)
        out = []
        for d, _, files in os.walk(os.path.join(root, prefix)):
            for f in files:
                out.append(os.path.relpath(os.path.join(d, f), root))
        return sorted(out)


@pytest.fixture(scope="session")
def s3(tmp_path_factory):
    jars = os.path.join(PEERS_DIR, "s3proxy")
    if not glob.glob(os.path.join(jars, "s3proxy-*.jar")):
        unavailable(f"S3Proxy not installed in {jars} (run scripts/peers-setup.sh)")
    base = tmp_path_factory.mktemp("s3proxy")
    os.makedirs(base / "data" / BUCKET)
    port = free_port()
    props = base / "s3proxy.conf"
    props.write_text("\n".join([
        f"s3proxy.endpoint=http://127.0.0.1:{port}",
        "s3proxy.authorization=aws-v2-or-v4",
        f"s3proxy.identity={S3_KEY}",
        f"s3proxy.credential={S3_SECRET}",
        "jclouds.provider=filesystem",
        f"jclouds.filesystem.basedir={base / 'data'}",
        ""]))
    log = open(base / "s3proxy.log", "w")
    proc = subprocess.Popen(["java", "-Xmx512m", "-cp", os.path.join(jars, "*"),
                             "org.gaul.s3proxy.Main", "--properties", str(props)],
                            stdout=log, stderr=subprocess.STDOUT)
    if not wait_port(port, proc, "s3proxy"):
        proc.kill()
        unavailable("S3Proxy did not start: " + (base / "s3proxy.log").read_text()[-2000:])
    yield S3(port, str(base / "data"))
    proc.terminate()
    proc.wait(20)
    log.close()


# --- Spark ---------------------------------------------------------------------------------

def spark_jars():
    jars = sorted(glob.glob(os.path.join(PEERS_DIR, "jars", "*.jar")))
    return jars


def spark_base_conf():
    """The seed's session settings plus the peer suite's (local[2], UTC)."""
    return {
        "spark.master": "local[2]",
        "spark.sql.extensions":
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        "spark.serializer": "org.apache.spark.serializer.KryoSerializer",
        "spark.eventLog.enabled": "false",
        "spark.ui.enabled": "false",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.shuffle.partitions": "2",
        "spark.driver.extraJavaOptions": JAVA_OPTS,
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.jars": ",".join(spark_jars()),
    }


@pytest.fixture(scope="session")
def spark():
    if not any("iceberg-spark-runtime" in j for j in spark_jars()):
        unavailable("Iceberg Spark runtime not installed (run scripts/peers-setup.sh)")
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        unavailable("pyspark not importable (run the suite with the peers venv)")
    b = SparkSession.builder.appName("floe-peers")
    for k, v in spark_base_conf().items():
        b = b.config(k, v)
    try:
        s = b.getOrCreate()
    except Exception as e:  # noqa: BLE001
        unavailable(f"Spark did not start: {e}")
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def add_catalog(spark, name, props):
    """Register an Iceberg catalog in the running session (catalogs load lazily)."""
    spark.conf.set(f"spark.sql.catalog.{name}", "org.apache.iceberg.spark.SparkCatalog")
    for k, v in props.items():
        spark.conf.set(f"spark.sql.catalog.{name}.{k}", v)
    return name


def jdbc_props(db, warehouse, s3=None):
    p = {"type": "jdbc", "uri": "jdbc:sqlite:" + db, "warehouse": warehouse,
         "jdbc.busy_timeout": "30000", "cache-enabled": "false"}
    if s3:
        p.update(s3.iceberg_props())
    return p


def shared_catalog(spark, wh, name):
    """One warehouse as the matrix tests use it: floe's catalog.db (with namespace `db`)
    opened by `floe sql`, by Spark's JDBC catalog and by PyIceberg's SqlCatalog, all
    under catalog name `name`. Returns (Floe, Spark catalog name, PyIceberg catalog)."""
    db = os.path.join(wh, "catalog.db")
    fl = Floe(wh, name)
    fl.sql("CREATE NAMESPACE db")
    cat = add_catalog(spark, name, jdbc_props(db, wh))
    try:
        from pyiceberg.catalog.sql import SqlCatalog
    except ImportError:
        unavailable("pyiceberg not importable")
    return fl, cat, SqlCatalog(name, uri="sqlite:///" + db, warehouse="file://" + wh)


def rest_props(uri):
    return {"type": "rest", "uri": uri, "cache-enabled": "false"}


def uniq(prefix="c"):
    return prefix + uuid.uuid4().hex[:8]


# --- Hive Metastore -----------------------------------------------------------------------

@pytest.fixture(scope="session")
def hms(tmp_path_factory, spark):
    """One Hive 2.3.9 metastore for the run (test_hms.Hms, tests/peers/hms/HmsLauncher.java),
    shared by test_hms.py and test_python_hms.py."""
    from test_hms import Hms
    h = Hms(str(tmp_path_factory.mktemp("hms")))
    h.start()
    yield h
    h.stop()


# --- floe serve ----------------------------------------------------------------------------

class Serve:
    def __init__(self, proc, url, log):
        self.proc, self.url, self.log = proc, url, log

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def floe_serve(floe_bin, tmp_path):
    started = []

    def start(warehouse, catalog_name, extra=(), quiet=True):
        log = open(tmp_path / f"serve{len(started)}.log", "w+")
        p = subprocess.Popen([floe_bin, "serve", "--warehouse", str(warehouse), "--catalog-name",
                              catalog_name, "--port", "0", *(["--quiet"] if quiet else []),
                              *extra],
                             stdout=subprocess.PIPE, stderr=log, text=True)
        line = p.stdout.readline()
        m = re.search(r"http://[0-9.]+:[0-9]+", line)
        if not m:
            p.kill()
            log.seek(0)
            pytest.fail("floe serve did not start: " + line + log.read())
        s = Serve(p, m.group(0), log)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def warehouse(tmp_path):
    w = tmp_path / "wh"
    w.mkdir()
    return str(w)


# --- rows in one canonical form ----------------------------------------------------------
# Spark rows, PyIceberg (pyarrow) rows and floe's --format json rows become the same
# Python structure: numbers and decimals as their exact text (decimals at their scale),
# dates 'YYYY-MM-DD', timestamps 'YYYY-MM-DD HH:MM:SS.ffffff' in UTC, binary as hex,
# maps as dicts, structs as dicts by field name, lists as lists.

def canon(v):
    import datetime
    import decimal
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, (int, decimal.Decimal)):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, uuid.UUID):
        return str(v)
    if hasattr(v, "asDict"):  # pyspark Row (a struct)
        return {k: canon(x) for k, x in v.asDict(recursive=False).items()}
    if isinstance(v, dict):
        return {str(canon(k)): canon(x) for k, x in v.items()}
    if isinstance(v, list) and v and all(isinstance(e, tuple) and len(e) == 2 for e in v):
        return {str(canon(k)): canon(x) for k, x in v}  # pyarrow map
    if isinstance(v, (list, tuple)):
        return [canon(x) for x in v]
    return str(v)


TS_TEXT = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d{1,6}))?$")


def canon_floe(v):
    """floe's JSON cells (parsed with numbers as text): timestamps print as Spark's show()
    does (the fraction without trailing zeros, none when zero); canon() writes six digits."""
    m = isinstance(v, str) and TS_TEXT.match(v)
    if m:
        return f"{m.group(1)}.{(m.group(2) or '').ljust(6, '0')}"
    if isinstance(v, dict):
        return {k: canon_floe(x) for k, x in v.items()}
    if isinstance(v, list):
        return [canon_floe(x) for x in v]
    return v


def key(row):
    return json.dumps(row, sort_keys=True)


def canon_rows(rows):
    """Rows of Python values (the expected side) in canonical form, sorted."""
    return sorted(({k: canon(v) for k, v in r.items()} for r in rows), key=key)


def spark_rows(df):
    return sorted(({k: canon(v) for k, v in r.asDict(recursive=False).items()}
                   for r in df.collect()), key=key)


def arrow_rows(tbl):
    return sorted(({k: canon(v) for k, v in r.items()} for r in tbl.to_pylist()), key=key)


def floe_json_rows(out, drop=()):
    rows = []
    for line in out.splitlines():
        if line.strip():
            r = json.loads(line, parse_float=str, parse_int=str)
            rows.append({k: canon_floe(v) for k, v in r.items() if k not in drop})
    return rows
