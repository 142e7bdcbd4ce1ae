#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Interop: iceberg-js 0.8.1 against `floe serve --memory` (bearer token, prefix).
# Also checks the access log never holds the token and SIGTERM stops cleanly.
set -u
src=${FLOE_SOURCE_DIR:?}
bin=${FLOE_BIN:-}
[ -x "$bin" ] || { echo "floe binary not found; skipped"; exit 77; }
command -v node >/dev/null || { echo "node not found; skipped"; exit 77; }
[ -d "$src/tests/interop/node_modules/iceberg-js" ] || { echo "iceberg-js not installed; skipped"; exit 77; }

tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
token="tok-$RANDOM-$RANDOM-secret"
printf '%s\n' "$token" > "$tmp/token"
chmod 600 "$tmp/token"
"$bin" serve --memory --port 0 --prefix wh --token-file "$tmp/token" >"$tmp/out" 2>"$tmp/err" &
pid=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/out")
  [ -n "$port" ] && break
  sleep 0.05
done
passed=0; failed=0
if [ -z "$port" ]; then
  echo "FAIL server did not start"; cat "$tmp/err"; echo "0 passed, 1 failed"; exit 1
fi
node "$src/tests/interop/rest_iceberg_js.mjs" "http://127.0.0.1:$port" "$token" | tee "$tmp/node"
rc=${PIPESTATUS[0]}
passed=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' "$tmp/node"); passed=${passed:-0}
failed=$(sed -n 's/.* \([0-9]*\) failed$/\1/p' "$tmp/node"); failed=${failed:-1}
[ "$rc" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1

if grep -q "$token" "$tmp/err" "$tmp/out"; then echo "FAIL token appears in the server output"; failed=$((failed+1))
else echo "PASS token never logged"; passed=$((passed+1)); fi
if grep -q '"GET /v1/wh/namespaces" 200' "$tmp/err"; then echo "PASS access log lines"; passed=$((passed+1))
else echo "FAIL no access log line"; failed=$((failed+1)); fi

kill -TERM $pid
for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
if kill -0 $pid 2>/dev/null; then echo "FAIL server still running after SIGTERM"; failed=$((failed+1))
else
  wait $pid; st=$?
  if [ $st -eq 0 ] && grep -q "stopped" "$tmp/err"; then echo "PASS SIGTERM stops cleanly"; passed=$((passed+1))
  else echo "FAIL exit status $st after SIGTERM"; failed=$((failed+1)); fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
