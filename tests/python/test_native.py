# SPDX-License-Identifier: Apache-2.0
"""The native boundary: REST catalogs, the GIL around libfloe calls, commit
conflicts as CommitFailedException."""
import faulthandler
import http.server
import json
import os
import shutil
import subprocess
import threading

import pyarrow as pa
import pytest

import floe
from conftest import ORDERS_DDL, orders


def floe_bin():
    b = os.environ.get("FLOE_BIN") or shutil.which("floe")
    if not b:
        if os.environ.get("CI") == "true":
            pytest.fail("FLOE_BIN is not set (scripts/python-test.sh sets it)")
        pytest.skip("no floe binary (set FLOE_BIN)")
    return b


@pytest.fixture
def rest_uri(tmp_path):
    """`floe serve` over a fresh warehouse on a free port of 127.0.0.1."""
    wh = tmp_path / "served"
    wh.mkdir()
    p = subprocess.Popen([floe_bin(), "serve", "--warehouse", str(wh), "--port", "0", "--quiet"],
                         stdout=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        assert " on http://127.0.0.1:" in line, line
        yield line.split(" on ")[1].split()[0]
    finally:
        p.terminate()
        p.wait(timeout=30)


def test_rest_catalog_api(rest_uri):
    cat = floe.catalog(uri=rest_uri, name="rest")
    cat.sql("CREATE NAMESPACE shop")
    cat.sql(ORDERS_DDL)
    t = cat.load_table("shop.orders")
    s1 = t.append(orders([1, 2]))
    t.append(orders([3], day="2026-09-21"))
    assert sorted(t.scan().to_arrow().column("order_id").to_pylist()) == [1, 2, 3]
    assert t.scan(snapshot_id=s1).to_arrow().num_rows == 2
    assert cat.sql("SELECT count(*) FROM rest.shop.orders").fetchall() == [(3,)]
    assert t.rollback_to(s1)[1] == s1
    # a second client of the same server sees the rollback
    other = floe.catalog(uri=rest_uri, name="other")
    assert other.load_table("shop.orders").current_snapshot_id() == s1
    assert other.sql("SELECT count(*) FROM other.shop.orders").fetchall() == [(2,)]
    with pytest.raises(floe.NoSuchTableException):
        cat.load_table("shop.nope")
    assert cat.list_tables("shop") == ["shop.orders"]
    other.close()
    cat.close()


class _ConfigOnly(http.server.BaseHTTPRequestHandler):
    """A REST catalog that answers /v1/config and an empty namespace list."""

    seen: list = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.seen.append(self.path)
        if self.path.startswith("/v1/config"):
            body = {"defaults": {}, "overrides": {}}
        elif self.path.startswith("/v1/namespaces"):
            body = {"namespaces": []}
        else:
            self.send_error(404)
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_gil_released_during_native_calls():
    # The REST server below is Python code in this process: libfloe's HTTP
    # calls can only be answered if the GIL is free while they block (a held
    # GIL would deadlock; the watchdog then fails the run instead of hanging).
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _ConfigOnly)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    faulthandler.dump_traceback_later(120, exit=True)
    try:
        _ConfigOnly.seen = []
        cat = floe.catalog(uri="http://127.0.0.1:%d" % srv.server_address[1], name="py")
        assert cat.list_namespaces() == []
        cat.close()
        assert any(p.startswith("/v1/config") for p in _ConfigOnly.seen), _ConfigOnly.seen
        assert any(p.startswith("/v1/namespaces") for p in _ConfigOnly.seen), _ConfigOnly.seen
    finally:
        faulthandler.cancel_dump_traceback_later()
        srv.shutdown()
        srv.server_close()


def test_commit_conflict_is_commit_failed(cat):
    cat.sql("CREATE NAMESPACE s")
    cat.sql("CREATE TABLE s.t (i BIGINT) USING iceberg "
            "TBLPROPERTIES ('commit.retry.num-retries'='0')")
    a = cat.load_table("s.t")
    b = cat.load_table("s.t")  # loaded before a's commit: stale after it
    a.append(pa.table({"i": pa.array([1], pa.int64())}))
    with pytest.raises(floe.CommitFailedException, match="failed after 1 attempts"):
        b.append(pa.table({"i": pa.array([2], pa.int64())}))
    assert b.refresh().to_arrow().column("i").to_pylist() == [1]  # nothing committed
    assert isinstance(floe.CommitFailedException("x"), floe.FloeError)
