#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A small HTTP proxy on 127.0.0.1 in front of `floe serve`, for fault tests of floe's REST
client: it logs every exchange (method, path, status, If-None-Match, Idempotency-Key) and can
drop the response of the Nth table commit (POST .../tables/{table}) after the server applied
it, or hide idempotency-key-lifetime in /v1/config (a server without Idempotency-Key).

usage: rest_proxy.py UPSTREAM_PORT LOG [--drop-commit N] [--fail-commit N] [--no-idempotency]
(--fail-commit: answer the Nth commit with a 503 after the server applied it)
Prints "port P" on stdout once listening.
"""
import http.client
import json
import re
import socket
import socketserver
import sys
import threading

upstream = int(sys.argv[1])
log_path = sys.argv[2]
drop_commit = int(sys.argv[sys.argv.index("--drop-commit") + 1]) if "--drop-commit" in sys.argv else 0
fail_commit = int(sys.argv[sys.argv.index("--fail-commit") + 1]) if "--fail-commit" in sys.argv else 0
no_idem = "--no-idempotency" in sys.argv
lock = threading.Lock()
commits = 0
COMMIT = re.compile(r"^/v1/(?:[^/]+/)?namespaces/[^/]+/tables/[^/?]+$")


def log(line):
    with lock, open(log_path, "a") as f:
        f.write(line + "\n")


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        global commits
        while True:
            line = self.rfile.readline()
            if not line:
                return
            method, path, _ = line.decode("latin-1").split(" ", 2)
            headers = {}
            while True:
                h = self.rfile.readline().decode("latin-1")
                if h in ("\r\n", "\n", ""):
                    break
                k, v = h.split(":", 1)
                headers[k.strip()] = v.strip()
            n = int(next((v for k, v in headers.items() if k.lower() == "content-length"), "0"))
            body = self.rfile.read(n) if n else None
            up = http.client.HTTPConnection("127.0.0.1", upstream, timeout=60)
            fwd = {k: v for k, v in headers.items() if k.lower() not in ("host", "connection")}
            up.request(method, path, body=body, headers=fwd)
            r = up.getresponse()
            data = r.read()
            rh = [(k, v) for k, v in r.getheaders()
                  if k.lower() not in ("transfer-encoding", "connection", "content-length")]
            up.close()
            if no_idem and path.split("?")[0].endswith("/v1/config") and r.status == 200:
                cfg = json.loads(data)
                cfg.pop("idempotency-key-lifetime", None)
                data = json.dumps(cfg).encode()
            get = {k.lower(): v for k, v in headers.items()}
            dropped = failed = False
            if method == "POST" and COMMIT.match(path.split("?")[0]):
                with lock:
                    commits += 1
                    dropped = commits == drop_commit
                    failed = commits == fail_commit
            if failed:
                r.status, r.reason, rh = 503, "Service Unavailable", []
                data = b'{"error":{"message":"proxy","type":"ServiceUnavailableException","code":503}}'

            log(f"{method} {path} {r.status} inm={get.get('if-none-match', '-')} "
                f"key={get.get('idempotency-key', '-')} bytes={len(data)}"
                f"{' DROPPED' if dropped else ''}{' FAILED' if failed else ''}")
            if dropped:
                # the server applied it; the client never hears back
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            out = [f"HTTP/1.1 {r.status} {r.reason}\r\n"]
            out += [f"{k}: {v}\r\n" for k, v in rh]
            out.append(f"Content-Length: {len(data)}\r\n\r\n")
            self.wfile.write("".join(out).encode("latin-1") + data)
            self.wfile.flush()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server(("127.0.0.1", 0), Handler)
print(f"port {srv.server_address[1]}", flush=True)
srv.serve_forever()
