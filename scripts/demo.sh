#!/usr/bin/env bash
# make demo: the seed's time-travel-and-rollback story (grows with the SQL shell).
set -euo pipefail
FLOE=${1:-build/dev/floe}
"$FLOE" --version
