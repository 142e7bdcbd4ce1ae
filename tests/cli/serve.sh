#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe serve`: option errors exit 2; --memory serves /v1/config on 127.0.0.1
# with a token file; wrong/missing token -> 401; SIGINT stops it with status 0.
set -uo pipefail
bin=${FLOE_BIN:?}
[ -x "$bin" ] || { echo "no floe binary; skipped"; exit 77; }
command -v curl >/dev/null || { echo "curl not found; skipped"; exit 77; }
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok   $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; }
tmp=$(mktemp -d); pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT

"$bin" serve >/dev/null 2>&1; [ $? -eq 2 ] && ok "no catalog -> usage" || bad "no catalog"
"$bin" serve --memory --port abc >/dev/null 2>&1; [ $? -eq 2 ] && ok "bad port -> usage" || bad "bad port"
"$bin" serve --memory --token a --token-file b >/dev/null 2>&1; [ $? -eq 2 ] && ok "token + token-file -> usage" || bad "exclusive tokens"
"$bin" serve --memory --token-file "$tmp/none" >/dev/null 2>&1; [ $? -eq 1 ] && ok "missing token file -> 1" || bad "missing token file"
"$bin" serve --memory --prefix namespaces --port 0 >/dev/null 2>&1; [ $? -eq 1 ] && ok "reserved prefix -> 1" || bad "reserved prefix"

printf 'cli-secret-%s\n' "$RANDOM" > "$tmp/tok"; chmod 600 "$tmp/tok"; tok=$(head -1 "$tmp/tok")
"$bin" serve --memory --port 0 --token-file "$tmp/tok" >"$tmp/out" 2>"$tmp/err" &
pid=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/out"); [ -n "$port" ] && break; sleep 0.05
done
if [ -z "$port" ]; then bad "server start"; echo "$pass passed, $fail failed"; exit 1; fi
ok "listening on 127.0.0.1:$port"
code=$(curl -s -o "$tmp/cfg" -w '%{http_code} %{content_type}' -H "Authorization: Bearer $tok" "http://127.0.0.1:$port/v1/config")
[ "$code" = "200 application/json" ] && grep -q '"defaults"' "$tmp/cfg" && ok "config with token" || bad "config: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/v1/config")
[ "$code" = 401 ] && ok "no token -> 401" || bad "no token: $code"
code=$(curl -s -o "$tmp/e" -w '%{http_code}' -H "Authorization: Bearer nope" "http://127.0.0.1:$port/v1/namespaces")
[ "$code" = 401 ] && grep -q NotAuthorizedException "$tmp/e" && ok "wrong token -> 401" || bad "wrong token: $code"
code=$(curl -s -o "$tmp/e" -w '%{http_code}' -H "Authorization: Bearer $tok" "http://127.0.0.1:$port/v1/namespaces/%2e%2e")
[ "$code" = 400 ] && ok "%2e%2e -> 400" || bad "%2e%2e: $code"
kill -INT $pid
for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
wait $pid; st=$?; pid=
[ $st -eq 0 ] && ok "SIGINT -> exit 0" || bad "exit status $st"
grep -q "$tok" "$tmp/err" "$tmp/out" && bad "token in output" || ok "token never printed"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
