#!/usr/bin/env bash
# libfloe.so exports only the public API: every defined dynamic symbol is a
# floe_ function (FLOE_EXTERN), never a floe__ internal or a dependency's.
set -uo pipefail
lib="$FLOE_BUILD_DIR/libfloe.so"
pass=0; fail=0
if [ ! -f "$lib" ]; then echo "missing $lib"; echo "0 passed, 1 failed"; exit 1; fi
syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBR]/ {print $3}' | grep -vE '^(_init|_fini|_edata|_end|__bss_start)$')
bad=$(grep -vE '^floe_[a-z0-9]' <<<"$syms" || true)
internal=$(grep -E '^floe__' <<<"$syms" || true)
if [ -z "$bad" ] && [ -z "$internal" ]; then pass=$((pass+1)); echo "ok   only floe_ symbols exported"; else fail=$((fail+1)); echo "FAIL unexpected exports:"; echo "$bad $internal"; fi
if grep -qx floe_error_last <<<"$syms"; then pass=$((pass+1)); echo "ok   floe_error_last exported"; else fail=$((fail+1)); echo "FAIL floe_error_last missing"; fi
soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
if [ "$soname" = "libfloe.so.0" ]; then pass=$((pass+1)); echo "ok   SONAME $soname"; else fail=$((fail+1)); echo "FAIL SONAME '$soname'"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
