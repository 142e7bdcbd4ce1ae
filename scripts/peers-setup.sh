#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the reference-engine peers of tests/peers (issue #19), pinned and cached:
#   - a Python venv with pyspark 3.5, pyiceberg (SQL catalog + pyarrow) and pytest;
#   - the Iceberg Spark runtime, the Iceberg AWS bundle (S3FileIO) and sqlite-jdbc from
#     Maven Central (tests/peers/pom.xml), copied into the cache's jars/ folder;
#   - S3Proxy (Apache-2.0, tests/peers/s3proxy/pom.xml), the SigV4-verifying S3 server.
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
# --- begin: Iceberg Java core-API bench jars (issue #28, bench/java/pom.xml) -------------
copy_jars "$ROOT/bench/java/pom.xml" "$DIR/core-jars"
# --- end: Iceberg Java core-API bench jars ------------------------------------------------
echo "peers-setup: ready in $DIR"
