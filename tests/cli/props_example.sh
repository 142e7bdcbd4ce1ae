#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/namespace_props.c (public floe_props API, linked against
# libfloe.so): create a namespace with properties, update one, remove one,
# read them back; run twice (rerunnable), output checked line by line.
set -uo pipefail
ex="$FLOE_BUILD_DIR/example_namespace_props"
[ -x "$ex" ] || { echo "example not built; skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() { if eval "$2"; then pass=$((pass+1)); echo "ok   $1"; else fail=$((fail+1)); echo "FAIL $1"; echo "$out"; fi; }
want='sales has 2 properties
  comment = orders and refunds
  owner = bo
retention: (not set)
loading nope: Namespace does not exist: nope'
out=$("$ex" "$tmp/wh" 2>&1); rc=$?
check "example exits 0" '[ $rc -eq 0 ]'
check "properties as set, updated and removed" '[ "$out" = "$want" ]'
out=$("$ex" "$tmp/wh" 2>&1); rc=$?
check "second run: same output" '[ $rc -eq 0 ] && [ "$out" = "$want" ]'
out=$("$FLOE_BIN" sql --warehouse "$tmp/wh" -c "SHOW NAMESPACES" 2>&1); rc=$?
check "floe sql sees the namespace" '[ $rc -eq 0 ] && grep -q "^|sales *|$" <<<"$out"'
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
