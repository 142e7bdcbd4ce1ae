#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `floe serve --warehouse DIR`: the security checks of --memory repeated over
# the SQLite warehouse backend (401s, 413, 400 with an ErrorModel for bad
# JSON, `..` and encoded variants in names, metadata files and table
# locations outside the warehouse), plus catalog.db created in DIR, a commit
# with a failed requirement -> 409 CommitFailedException, and SIGTERM.
set -uo pipefail
bin=${FLOE_BIN:?}
[ -x "$bin" ] || { echo "no floe binary; skipped"; exit 77; }
command -v curl >/dev/null || { echo "curl not found; skipped"; exit 77; }
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok   $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; }
tmp=$(mktemp -d); pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

"$bin" serve --warehouse "$tmp/missing" --port 0 >/dev/null 2>&1; [ $? -eq 1 ] && ok "missing warehouse -> 1" || bad "missing warehouse"
mkdir -p "$tmp/wh"
printf 'wh-secret-%s\n' "$RANDOM" > "$tmp/tok"; chmod 600 "$tmp/tok"; tok=$(head -1 "$tmp/tok")
"$bin" serve --warehouse "$tmp/wh" --catalog-name cat1 --port 0 --max-body 4096 --token-file "$tmp/tok" >"$tmp/out" 2>"$tmp/err" &
pid=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/out"); [ -n "$port" ] && break; sleep 0.05
done
if [ -z "$port" ]; then bad "server start"; cat "$tmp/err"; echo "$pass passed, $fail failed"; exit 1; fi
grep -q "warehouse catalog" "$tmp/out" && ok "listening (warehouse catalog)" || bad "banner"
[ -f "$tmp/wh/catalog.db" ] && ok "catalog.db in the warehouse" || bad "catalog.db"
u="http://127.0.0.1:$port/v1"
A=(-H "Authorization: Bearer $tok")
req() { curl -s -o "$tmp/body" -w '%{http_code}' "$@"; }
has() { grep -q "$1" "$tmp/body"; }

[ "$(req "$u/namespaces")" = 401 ] && ok "no token -> 401" || bad "no token"
[ "$(req -H 'Authorization: Bearer nope' "$u/namespaces")" = 401 ] && ok "wrong token -> 401" || bad "wrong token"
[ "$(req "${A[@]}" -X POST -d '{"namespace":["db"]}' "$u/namespaces")" = 200 ] && ok "create namespace" || bad "create namespace"
schema='{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","type":"long","required":false}]}'
[ "$(req "${A[@]}" -X POST -d "{\"name\":\"t\",\"schema\":$schema}" "$u/namespaces/db/tables")" = 200 ] && has '"metadata-location":"'"$tmp"'/wh/db.db/t/metadata/00000-' && ok "create table in the warehouse" || bad "create table $(cat "$tmp/body")"
big=$(head -c 5000 /dev/zero | tr '\0' 'x')
[ "$(req "${A[@]}" -X POST -d "{\"namespace\":[\"$big\"]}" "$u/namespaces")" = 413 ] && ok "oversize body -> 413" || bad "413"
[ "$(req "${A[@]}" -X POST -d '{"namespace":' "$u/namespaces")" = 400 ] && has '"BadRequestException"' && ok "malformed JSON -> 400 ErrorModel" || bad "malformed JSON"
for name in '..' '%2e%2e' '%2E%2e' '%252e%252e' 'a%2Fb' 'a%5Cb' '%00' '%c0%ae'; do
  [ "$(req --path-as-is "${A[@]}" "$u/namespaces/db/tables/$name")" = 400 ] && ok "table name $name -> 400" || bad "table name $name"
done
[ "$(req "${A[@]}" -X POST -d '{"namespace":[".."]}' "$u/namespaces")" = 400 ] && ok "namespace .. in body -> 400" || bad "ns .."
[ "$(req "${A[@]}" -X POST -d '{"name":"p","metadata-location":"/etc/passwd"}' "$u/namespaces/db/register")" = 400 ] && ! has root: && ok "register /etc/passwd -> 400, content not echoed" || bad "register outside"
[ "$(req "${A[@]}" -X POST -d "{\"name\":\"p\",\"metadata-location\":\"$tmp/wh/../tok\"}" "$u/namespaces/db/register")" = 400 ] && ok "register ../ -> 400" || bad "register ../"
ln -s /etc "$tmp/wh/etc"
[ "$(req "${A[@]}" -X POST -d "{\"name\":\"p\",\"metadata-location\":\"$tmp/wh/etc/passwd\"}" "$u/namespaces/db/register")" = 400 ] && ok "register through a symlink -> 400" || bad "register symlink"
[ "$(req "${A[@]}" -X POST -d "{\"name\":\"o\",\"location\":\"/tmp/elsewhere\",\"schema\":$schema}" "$u/namespaces/db/tables")" = 400 ] && ok "table location outside -> 400" || bad "location outside"
[ "$(req "${A[@]}" -X POST -d "{\"name\":\"o\",\"location\":\"$tmp/wh/../x\",\"schema\":$schema}" "$u/namespaces/db/tables")" = 400 ] && ok "table location with .. -> 400" || bad "location .."
[ "$(req "${A[@]}" -X POST -d "{\"requirements\":[],\"updates\":[{\"action\":\"set-location\",\"location\":\"/tmp/x\"}]}" "$u/namespaces/db/tables/t")" = 400 ] && ok "set-location outside -> 400" || bad "set-location"
[ "$(req "${A[@]}" -X POST -d '{"requirements":[],"updates":[{"action":"set-properties","updates":{"write.metadata.path":"/tmp/m"}}]}' "$u/namespaces/db/tables/t")" = 400 ] && ok "write.metadata.path outside -> 400" || bad "metadata path"
[ "$(req "${A[@]}" -X POST -d '{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":1}],"updates":[]}' "$u/namespaces/db/tables/t")" = 409 ] && has CommitFailedException && ok "failed requirement -> 409 CommitFailedException" || bad "409"
[ "$(req "${A[@]}" "$u/namespaces/db/tables/nope")" = 404 ] && has NoSuchTableException && ok "missing table -> 404" || bad "404"
grep -q "$tok" "$tmp/err" "$tmp/out" && bad "token logged" || ok "token never logged"
kill -TERM $pid; for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
wait $pid; st=$?; pid=
[ $st -eq 0 ] && ok "SIGTERM -> 0" || bad "exit $st"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
