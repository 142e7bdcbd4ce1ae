#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the reference-engine peers of tests/peers (issue #19), pinned and cached:
#   - a Python venv with pyspark 3.5, pyiceberg (SQL catalog + pyarrow) and pytest;
#   - the Iceberg Spark runtime, the Iceberg AWS bundle (S3FileIO) and sqlite-jdbc from
#     Maven Central (tests/peers/pom.xml), copied into the cache's jars/ folder;
#   - S3Proxy (Apache-2.0, tests/peers/s3proxy/pom.xml), the SigV4-verifying S3 server;
#   - the iceberg-go and iceberg-rust bench programs (bench/go, bench/rust; go and cargo).
# Everything lives under ${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers} (outside the repo);
# a warm run only compares stamps and exits in well under a second.
# Exit status: 0 ready; 1 failed. Under CI=true a failure is always exit 1; outside CI
# tests/peers skip with a message when the cache is not ready.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DIR=${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers}
PYSPARK_VERSION=3.5.9
PYICEBERG_VERSION=0.12.0
PYTEST_VERSION=8.4.2
mkdir -p "$DIR"

fail() { echo "peers-setup: $*" >&2; exit 1; }
command -v java >/dev/null || fail "java not found (Java 17 is needed for Spark 3.5)"
command -v mvn >/dev/null || fail "mvn not found (apt-get install maven)"
PY=${PYTHON:-python3}
command -v "$PY" >/dev/null || fail "python3 not found"

# --- Python venv -------------------------------------------------------------------------
want_py="pyspark==$PYSPARK_VERSION pyiceberg[sql-sqlite,pyarrow,pyiceberg-core]==$PYICEBERG_VERSION pytest==$PYTEST_VERSION"
if [ "$(cat "$DIR/venv/.stamp" 2>/dev/null)" != "$want_py" ]; then
  echo "peers-setup: installing into $DIR/venv ($want_py)"
  [ -x "$DIR/venv/bin/python" ] || "$PY" -m venv "$DIR/venv" || fail "python3 -m venv failed"
  # shellcheck disable=SC2086
  "$DIR/venv/bin/pip" install --quiet --disable-pip-version-check $want_py \
    || fail "pip install failed"
  echo "$want_py" >"$DIR/venv/.stamp"
fi

# --- Maven jars --------------------------------------------------------------------------
copy_jars() { # pom dest
  local pom=$1 dest=$2 sum
  sum=$(sha256sum "$pom" | cut -d' ' -f1)
  if [ "$(cat "$dest/.stamp" 2>/dev/null)" != "$sum" ]; then
    echo "peers-setup: copying jars of ${pom#"$ROOT"/} into $dest"
    rm -rf "$dest"
    mvn -q -B -f "$pom" dependency:copy-dependencies -DoutputDirectory="$dest" \
      -DincludeScope=runtime || fail "mvn dependency:copy-dependencies failed for $pom"
    echo "$sum" >"$dest/.stamp"
  fi
}
copy_jars "$ROOT/tests/peers/pom.xml" "$DIR/jars"
copy_jars "$ROOT/tests/peers/s3proxy/pom.xml" "$DIR/s3proxy"
# --- Go and Rust peers (bench/native_peers.sh) -------------------------------------------
# bench/go (iceberg-go, pinned by go.sum) and bench/rust (iceberg-rust, pinned by Cargo.lock)
# built into $DIR/native/bin/floe-peer-{go,rust}; rebuilt only when their sources or the
# toolchain change (a stamp of both).
native_peer() { # name tool build-args...
  local name=$1 tool=$2 src=$ROOT/bench/$1 sum
  shift 2
  command -v "$tool" >/dev/null || fail "$tool not found (needed for bench/$name)"
  sum=$( (cd "$src" && find . -type f -print | LC_ALL=C sort | xargs sha256sum; "$tool" version) |
    sha256sum | cut -d' ' -f1)
  [ "$(cat "$DIR/native/.stamp-$name" 2>/dev/null)" = "$sum" ] &&
    [ -x "$DIR/native/bin/floe-peer-$name" ] && return 0
  echo "peers-setup: building bench/$name into $DIR/native/bin (log: $DIR/native/$name-build.log)"
  (cd "$src" && "$tool" "$@") >"$DIR/native/$name-build.log" 2>&1 ||
    fail "building bench/$name failed: $(tail -5 "$DIR/native/$name-build.log")"
  echo "$sum" >"$DIR/native/.stamp-$name"
}
mkdir -p "$DIR/native/bin"
native_peer go go build -mod=readonly -trimpath -o "$DIR/native/bin/floe-peer-go" .
native_peer rust cargo install --quiet --locked --force --path . --root "$DIR/native" \
  --target-dir "$DIR/native/rust-target"
# --- end of Go and Rust peers
# --- begin: Iceberg Java core-API bench jars (issue #28, bench/java/pom.xml) -------------
# bench/native_peers.sh compiles bench/java/FloePeerJava.java against them (cached).
copy_jars "$ROOT/bench/java/pom.xml" "$DIR/core-jars"
# --- end: Iceberg Java core-API bench jars ------------------------------------------------
echo "peers-setup: ready in $DIR"
