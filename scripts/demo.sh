#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make demo`: the time-travel-and-rollback story of shared/seeds/000
# (script 1) on an empty warehouse, with the same counts as the seed:
# 3, 2, 2, 5, 3, 5, 3, files 2 / 3, metadata files 7.
set -u
FLOE=${1:-build/dev/floe}
HERE=$(cd "$(dirname "$0")/.." && pwd)
WH=${FLOE_DEMO_WAREHOUSE:-$HERE/build/demo-warehouse}
[ -x "$FLOE" ] || { echo "demo: $FLOE not built (run make build)" >&2; exit 2; }
rm -rf "$WH"
mkdir -p "$WH"
echo "== floe demo: time travel and rollback (warehouse $WH)"
echo
if ! "$FLOE" sql --warehouse "$WH" -f "$HERE/examples/sql/01_time_travel_rollback.sql"; then
    echo
    echo "demo: stopped at the statement above (see docs/sql.md, 'Status')." >&2
    exit 1
fi
echo
echo "Open the shell on the demo warehouse with:"
echo "  $FLOE sql --warehouse $WH"
echo "and try:  SELECT * FROM shop.orders.history;"
