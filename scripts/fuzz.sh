#!/usr/bin/env bash
# Run a libFuzzer campaign: scripts/fuzz.sh TARGET SECONDS
# New interesting inputs are added to fuzz/corpora/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}; secs=${2:-60}
cmake --preset fuzz >/dev/null && cmake --build --preset fuzz --target "fuzz_$target"
mkdir -p "fuzz/corpora/$target"
exec "build/fuzz/fuzz_$target" -max_total_time="$secs" -max_len=1048576 "fuzz/corpora/$target"
