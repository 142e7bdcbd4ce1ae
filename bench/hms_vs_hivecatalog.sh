#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# floe vs Iceberg Java's HiveCatalog (Spark's) through one Hive Metastore, in the same run:
# starts Hive 2.3.9's metastore (tests/peers/hms/HmsLauncher.java, the pyspark jars of the
# peer cache) on a free 127.0.0.1 port with a local warehouse, runs bench_hms_catalog (floe)
# and bench/hms/HiveCatalogBench.java (Java), and prints their BENCH lines and
#   RATIO hms_commit <floe / java> spark      RATIO hms_load_table <floe / java> spark
# Without the peer (scripts/peers-setup.sh) it says so; under CI=true that is a failure.
#   bench/hms_vs_hivecatalog.sh [build/release]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$root/build/release}" && pwd)
peers=${FLOE_PEERS_DIR:-$HOME/.cache/floe-peers}
jars=$(ls -d "$peers"/venv/lib/python3*/site-packages/pyspark/jars 2>/dev/null | head -1)
runtime=$(ls "$peers"/jars/iceberg-spark-runtime-*.jar 2>/dev/null | head -1)
unavailable() {
  echo "BENCH hms_vs_hivecatalog peer unavailable: $1 (scripts/peers-setup.sh)"
  [ "${CI:-}" = true ] && exit 1
  exit 0
}
[ -n "$jars" ] && ls "$jars"/hive-metastore-*.jar >/dev/null 2>&1 || unavailable "no Hive metastore jars"
[ -n "$runtime" ] || unavailable "no iceberg-spark-runtime jar"
command -v javac >/dev/null || unavailable "no javac"
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
javac -nowarn -cp "$jars/*" -d "$T/classes" "$root/tests/peers/hms/HmsLauncher.java" 2>"$T/javac.err" ||
  unavailable "cannot compile the metastore launcher: $(tail -3 "$T/javac.err")"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$T/hms" "$T/wh"
(cd "$T" && exec java -Xmx768m -Dhive.log.dir="$T" -cp "$T/classes:$jars/*" HmsLauncher "$port" "$T/hms") \
  >"$T/hms.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 1
done
(exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null || unavailable "the metastore did not start: $(tail -3 "$T/hms.log")"
uri="thrift://127.0.0.1:$port"
echo "# one Hive 2.3.9 metastore ($uri, Derby), warehouse on local disk; medians of 100 after 20 warm-up rounds"
f=$("$BUILD/bench_hms_catalog" "$uri" "$T/wh") || { echo "BENCH hms_vs_hivecatalog failed (floe): $f"; exit 1; }
j=$(java -cp "$runtime:$jars/*" "$root/bench/hms/HiveCatalogBench.java" "$uri" "file:$T/wh" 2>"$T/java.err" | grep '^BENCH') ||
  { echo "BENCH hms_vs_hivecatalog failed (java): $(grep -v WARN "$T/java.err" | tail -3)"; exit 1; }
printf '%s\n%s\n' "$f" "$j"
for op in commit load_table; do
  a=$(awk -v n="hms_${op}_floe" '$2 == n {print $3}' <<<"$f")
  b=$(awk -v n="hms_${op}_java" '$2 == n {print $3}' <<<"$j")
  [ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" -v n="hms_$op" 'BEGIN {printf "RATIO %s %.3f spark\n", n, a / b}'
done
