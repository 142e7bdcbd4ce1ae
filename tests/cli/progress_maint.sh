#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The progress line of maintenance commands: `floe inventory --copy-to`
# (manifests read, bytes copied) and `floe retention` (snapshots read) draw it on stderr when stderr is a
# terminal (a pseudo-terminal from python3's pty module), never with
# --quiet, never into a pipe, never on stdout. FLOE_PROGRESS_DELAY_MS=0
# removes the grace period. The table is the Spark fixture of ../shared.
set -u
: "${FLOE_BIN:?}" "${FLOE_SOURCE_DIR:?}"
FIX="${FLOE_SHARED_DIR:-$FLOE_SOURCE_DIR/../shared}/fixtures"
[ -d "$FIX/spark_bunnies" ] || { echo "skipped: no shared fixtures"; exit 77; }
command -v sqlite3 >/dev/null || { echo "skipped: no sqlite3"; exit 77; }
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

W="$T/wh"
mkdir -p "$W"
sqlite3 "$W/catalog.db" "CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), iceberg_type VARCHAR(5), PRIMARY KEY (catalog_name, table_namespace, table_name)); CREATE TABLE iceberg_namespace_properties (catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255), property_value VARCHAR(1000), PRIMARY KEY (catalog_name, namespace, property_key)); INSERT INTO iceberg_tables VALUES ('local', 'db', 'bunnies', '$FIX/spark_bunnies/metadata/v5.metadata.json', NULL, 'TABLE');"
MAP="io.location-map=s3a://hyperparam-iceberg/spark/bunnies=$FIX/spark_bunnies"

ON_TTY="$(dirname "${BASH_SOURCE[0]}")/../on_tty.py" # stderr on a pseudo-terminal
run_pty() { FLOE_PROGRESS_DELAY_MS=0 "$PY" "$ON_TTY" "$@"; }

out=$(run_pty "$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --ref main \
    --format csv --copy-to "$T/b1")
grep -qF "RC:0" <<<"$out" && ok || bad "pty: exit status: $out"
grep -q "TTY:.*copying [0-9]*/[0-9]* (100%).*B.*done in" <<<"$out" && ok ||
    bad "pty: progress line with manifests and bytes: $out"
grep -q "TTY:.*\\\\x1b\[K" <<<"$out" && ok || bad "pty: line erased in place: $out"
grep -q "STDOUT:.*data_file," <<<"$out" && ok || bad "pty: stdout has the listing: $out"
grep -q "STDOUT:.*copying" <<<"$out" && bad "pty: progress on stdout" || ok
[ -s "$T/b1/floe-backup.properties" ] && ok || bad "pty: backup written"

# listing only: the phase reads manifests
out=$(run_pty "$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies --format csv)
grep -q "TTY:.*reading manifests [0-9]*/[0-9]*" <<<"$out" && ok || bad "pty listing: $out"

out=$(run_pty "$FLOE_BIN" inventory --quiet --warehouse "$W" --conf "$MAP" db.bunnies \
    --format csv --copy-to "$T/b2")
grep -q "TTY:.*copying" <<<"$out" && bad "pty --quiet: progress drawn: $out" || ok
grep -qF "RC:0" <<<"$out" && ok || bad "pty --quiet: exit status: $out"

# floe retention: the snapshots read (and the dry-run expiry's files)
out=$(run_pty "$FLOE_BIN" retention --warehouse "$W" --conf "$MAP" db.bunnies)
grep -qF "RC:0" <<<"$out" && ok || bad "pty retention: exit status: $out"
grep -q "TTY:.*reading snapshots 3/3 (100%).*done in" <<<"$out" && ok || bad "pty retention: $out"
grep -q "STDOUT:.*reading snapshots" <<<"$out" && bad "pty retention: progress on stdout" || ok
out=$(run_pty "$FLOE_BIN" retention --quiet --warehouse "$W" --conf "$MAP" db.bunnies)
grep -q "TTY:''" <<<"$out" && ok || bad "pty retention --quiet: $out"
err=$(FLOE_PROGRESS_DELAY_MS=0 "$FLOE_BIN" retention --warehouse "$W" --conf "$MAP" db.bunnies 2>&1 >/dev/null | cat)
[ -z "$err" ] && ok || bad "retention, stderr to a pipe: $err"

# Piped stderr: the backup note only, no progress line.
err=$(FLOE_PROGRESS_DELAY_MS=0 "$FLOE_BIN" inventory --warehouse "$W" --conf "$MAP" db.bunnies \
    --copy-to "$T/b3" 2>&1 >/dev/null | cat)
grep -q "backup written" <<<"$err" && ok || bad "pipe: backup note: $err"
grep -q "copying\|done in" <<<"$err" && bad "pipe: progress line: $err" || ok

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
