#!/usr/bin/env bash
# make check (and .ci/run): build every preset and run every test. One
# function per stage:
#   stage_interop_setup   fetch what the interop tests need (else they skip)
#   stage_ctest dev       build the dev preset (gcc -O1), run ctest
#   stage_peers           the Spark / PyIceberg peer suite on the dev build
#   stage_ctest asan      the same under ASan + UBSan
#   stage_build release   build the release preset (gcc -O2: its warnings
#                         differ from -O1's), one check
#   stage_fuzz            build the fuzz preset (clang, libFuzzer + ASan +
#                         UBSan) and run each libFuzzer target for
#                         FLOE_FUZZ_SECONDS (default 4) on its corpus, one
#                         check per target
# Each stage adds to the totals; the last line is
# `N passed, N failed, N skipped` over everything.
set -uo pipefail
cd "$(dirname "$0")/.."
total_pass=0 total_fail=0 total_skip=0
count() { # pass fail skip
    total_pass=$((total_pass + $1)) total_fail=$((total_fail + $2)) total_skip=$((total_skip + $3))
}

build_preset() {
    local preset=$1
    echo "== $preset: build"
    cmake --preset "$preset" >/dev/null && cmake --build --preset "$preset"
}

stage_interop_setup() {
    bash scripts/interop-setup.sh && return 0
    # Under CI a missing verifier is a failure, never a skip.
    if [ "${CI:-}" = true ]; then
        echo "== interop setup FAILED"
        count 0 1 0
        return 1
    fi
    echo "interop setup failed: interop tests will report skipped"
}

# The reference-engine peer suite (tests/peers: Spark, PyIceberg, S3Proxy)
# against the dev build, once; scripts/peers-test.sh closes with
# `peers: N passed, N failed, N skipped`.
stage_peers() {
    [ -x build/dev/floe ] || { count 0 1 0; return 1; }
    echo "== peers: test"
    bash scripts/peers-test.sh build/dev/floe 2>&1 | tee build/dev/peers.log
    local line
    line=$(grep -E "^peers: [0-9]+ passed" build/dev/peers.log | tail -1)
    [ -n "$line" ] || { count 0 1 0; return 1; }
    # shellcheck disable=SC2046
    set -- $(grep -oE "[0-9]+" <<<"$line")
    count "$1" "$2" "$3"
    [ "$2" -eq 0 ]
}

stage_ctest() {
    local preset=$1
    if ! build_preset "$preset"; then
        echo "== $preset: build FAILED"
        count 0 1 0
        return 1
    fi
    echo "== $preset: test"
    local log="build/$preset/ctest.log"
    ctest --preset "$preset" 2>&1 | tee "$log"
    local line pass fail total skip
    line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log" | tail -1)
    fail=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
    skip=$(grep -cE "\*\*\*Skipped|Not Run" "$log" || true)
    if [ -z "$fail" ] || [ -z "$total" ]; then
        echo "could not read ctest summary"
        count 0 1 0
        return 1
    fi
    pass=$((total - fail - skip))
    count "$pass" "$fail" "$skip"
    [ "$fail" -eq 0 ]
}

stage_build() {
    local preset=$1
    if build_preset "$preset"; then
        count 1 0 0
    else
        echo "== $preset: build FAILED"
        count 0 1 0
        return 1
    fi
}

stage_fuzz() {
    if ! build_preset fuzz; then
        echo "== fuzz: build FAILED"
        count 0 1 0
        return 1
    fi
    local secs=${FLOE_FUZZ_SECONDS:-4} rc=0 dir name work
    echo "== fuzz: ${secs}s per libFuzzer target"
    work=$(mktemp -d)
    for dir in fuzz/corpora/*/; do
        name=$(basename "$dir")
        [ -x "build/fuzz/fuzz_$name" ] || continue
        # New inputs go to a scratch corpus: the checked-in one only grows
        # by hand (a crasher found here is added with its fix).
        mkdir -p "$work/$name"
        if "build/fuzz/fuzz_$name" -max_total_time="$secs" \
            -artifact_prefix="$work/$name-" "$work/$name" "$dir" >"$work/$name.log" 2>&1; then
            echo "fuzz_$name: ok ($(grep -oE '#[0-9]+' "$work/$name.log" | tail -1 | tr -d '#') runs)"
            count 1 0 0
        else
            echo "FAIL: fuzz_$name (crash input kept in $work):"
            grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$work/$name.log" | head -5
            count 0 1 0
            rc=1
        fi
    done
    [ $rc -eq 0 ] && rm -rf "$work"
    return $rc
}

# floe-python (tests/python, pytest in the peer venv) on the dev build;
# scripts/python-test.sh closes with `python: N passed, N failed, N skipped`.
stage_python() {
    echo "== python: test"
    bash scripts/python-test.sh build/dev 2>&1 | tee build/dev/python-test.log
    local line
    line=$(grep -E "^python: [0-9]+ passed" build/dev/python-test.log | tail -1)
    [ -n "$line" ] || { count 0 1 0; return 1; }
    # shellcheck disable=SC2046
    set -- $(grep -oE "[0-9]+" <<<"$line")
    count "$1" "$2" "$3"
    [ "$2" -eq 0 ]
}

rc=0
stage_interop_setup || rc=1
stage_ctest dev || rc=1
# The Python stage first: scripts/python-test.sh installs cffi and the floe
# package into the peer venv, which tests/peers/test_python_hms.py needs.
stage_python || rc=1
stage_peers || rc=1
stage_ctest asan || rc=1
stage_build release || rc=1
stage_fuzz || rc=1
echo "${total_pass} passed, ${total_fail} failed, ${total_skip} skipped"
[ $rc -eq 0 ] && [ $total_fail -eq 0 ]
