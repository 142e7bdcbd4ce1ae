#!/usr/bin/env bash
# What libfloe exports. libfloe.so: exactly the public API listed in
# tests/data/exports.txt (FLOE_EXTERN functions; never a floe__ internal or a
# dependency's symbol), so a new public function needs one line there.
# libfloe.a: every global definition is floe_ or floe__, so linking floe
# statically never replaces another library's function (the lazy-loading
# shims of src/lazy/ are floe__curl_easy_init, floe__SHA256, ...).
set -uo pipefail
so="$FLOE_BUILD_DIR/libfloe.so"
ar="$FLOE_BUILD_DIR/libfloe.a"
list="${FLOE_SOURCE_DIR:-$(dirname "$0")/../..}/tests/data/exports.txt"
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok   $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; }
for f in "$so" "$ar" "$list"; do
  if [ ! -f "$f" ]; then echo "missing $f"; echo "0 passed, 1 failed"; exit 1; fi
done
export LC_ALL=C
want=$(grep -vE '^(#|$)' "$list" | sort)
if [ "$want" = "$(grep -vE '^(#|$)' "$list")" ]; then ok "exports.txt is sorted"; else bad "exports.txt is not sorted (LC_ALL=C sort)"; fi

syms=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBRVWi]/ {print $3}' |
       grep -vE '^(_init|_fini|_edata|_end|__bss_start)$' | sort -u)
extra=$(comm -13 <(echo "$want") <(echo "$syms"))
missing=$(comm -23 <(echo "$want") <(echo "$syms"))
if [ -z "$extra" ]; then ok "libfloe.so exports nothing outside exports.txt"
else bad "libfloe.so exports names not in tests/data/exports.txt:"; echo "$extra" | sed 's/^/       /'; fi
if [ -z "$missing" ]; then ok "libfloe.so exports every name of exports.txt"
else bad "names of tests/data/exports.txt libfloe.so does not export:"; echo "$missing" | sed 's/^/       /'; fi
if grep -qx floe_error_last <<<"$syms"; then ok "floe_error_last exported"; else bad "floe_error_last missing"; fi

# nm prints "file.o:" headers and "addr T name" rows; upper-case types other
# than U (undefined) are global definitions, w/v weak ones.
globals=$(nm "$ar" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[A-TV-Z]$/ {print $3}' | sort -u)
if [ -n "$globals" ]; then ok "libfloe.a has global definitions"; else bad "nm found no global definition in libfloe.a"; fi
# An ASan build adds one __odr_asan.<global> guard per instrumented global.
foreign=$(grep -vE '^(floe_|__odr_asan\.floe_)' <<<"$globals" || true)
if [ -z "$foreign" ]; then ok "libfloe.a defines only floe_/floe__ globals"
else bad "libfloe.a defines globals outside floe_/floe__:"; echo "$foreign" | sed 's/^/       /'; fi
for s in curl_easy_init SHA256 HMAC xmlReadMemory MHD_start_daemon snappy_compress \
    libdeflate_deflate_decompress LZ4F_decompress; do
  if grep -qx "floe__$s" <<<"$globals"; then ok "the $s shim is floe__$s"; else bad "floe__$s not defined"; fi
done

soname=$(objdump -p "$so" | awk '/SONAME/ {print $2}')
if [ "$soname" = "libfloe.so.0" ]; then ok "SONAME $soname"; else bad "SONAME '$soname'"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
