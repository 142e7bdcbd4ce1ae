#!/usr/bin/env bash
# Install the pinned npm verifiers the interop tests use (tests/interop/package.json)
# into tests/interop/node_modules. Offline-safe: if npm cannot reach its
# registry, interop tests report as skipped (never passed).
set -euo pipefail
cd "$(dirname "$0")/../tests/interop"
[ -f package.json ] || exit 0
if [ -d node_modules ] && [ node_modules/.stamp -nt package.json ]; then exit 0; fi
npm install --no-audit --no-fund --loglevel=error >/dev/null
touch node_modules/.stamp
