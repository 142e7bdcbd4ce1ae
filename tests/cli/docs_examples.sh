#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The docs: every example in a ```console test block of docs/**/*.md and
# README.md runs as written and prints what the page shows; every other
# fenced block that runs floe (```sh, ```console, plain ```) must be one of
# the exclusions listed below with the reason it cannot run here, so an
# example nobody checks fails this test (synopsis blocks, under a
# "## Synopsis" heading, are not examples). Also: every command of
# `floe --help` has a page; the man pages generate and format without
# warnings.
set -u
: "${FLOE_BIN:?}" "${FLOE_BUILD_DIR:?}" "${FLOE_SOURCE_DIR:?}"
FIXTURE="$FLOE_BUILD_DIR/cli_test_log"
[ -x "$FIXTURE" ] || { echo "skipped: no $FIXTURE"; exit 77; }
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# The examples' world: ./warehouse with the tables of docs_warehouse.txt, and
# `floe` on PATH. A block opened with ```console test needs=PROGRAM (or
# needs=PATH, relative to ./) is skipped when that is missing.
mkdir -p "$T/run" "$T/bin"
ln -s "$FLOE_BIN" "$T/bin/floe"
"$FIXTURE" --build "$T/run/warehouse" <"$FLOE_SOURCE_DIR/tests/cli/docs_warehouse.txt" ||
    { echo "FAIL: docs warehouse"; exit 1; }
# ../shared from the examples' directory is the shared fixtures; there, the
# Spark table registered as db.bunnies. Blocks marked `needs=../shared` are
# skipped without them.
SH="${FLOE_SHARED_DIR:-$FLOE_SOURCE_DIR/../shared}"
if [ -d "$SH/fixtures/spark_bunnies" ]; then
    ln -s "$(cd "$SH" && pwd)" "$T/shared"
    (cd "$T/run" && "$FLOE_BIN" sql -c "CREATE NAMESPACE db" \
        -c "CALL system.register_table('db.bunnies', '../shared/fixtures/spark_bunnies/metadata/v5.metadata.json')" \
        >/dev/null) || { echo "FAIL: register db.bunnies"; exit 1; }
fi

cat >"$T/run_examples.py" <<'PYEOF'
import os, re, shutil, subprocess, sys
pages, rundir, env_path = sys.argv[1:-2], sys.argv[-2], sys.argv[-1]
# Blocks running floe that cannot run here: (page, text of the block's first
# line) -> why. Each must still exist (a stale exclusion fails too).
EXCLUDED = {
    ("floe-serve.md", "floe serve --memory --port 0 --token-file ~/.floe-token"):
        "a server until killed, reading ~/.floe-token; the console test after it runs "
        "the same server on a free port and talks to it over REST",
    ("rest.md", "mkdir -p /data/wh"):
        "servers on port 8181 and /data, until killed; floe-serve.md's console test and "
        "tests/cli/serve.sh, serve_warehouse.sh run them",
    ("s3.md", "floe sql --warehouse s3://warehouse/ \\"):
        "needs an S3 endpoint and keys; tests/interop/sql_s3_warehouse.sh runs it "
        "against a local S3 server",
    ("README.md", "make demo                                              # the seed's story; leaves build/demo-warehouse"):
        "the tour (a shell session, placeholders, a server on port 8181): "
        "tests/cli/readme_tour.sh runs it from the README, placeholders filled in",
    ("README.md", "make build && scripts/peers-test.sh build/dev/floe"):
        "the reference-engine peer suite itself (minutes of Spark); make check runs it "
        "(scripts/check.sh stage_peers)",
    ("interop.md", "make build"):
        "the reference-engine peer suite itself (minutes of Spark); make check runs it "
        "(scripts/check.sh stage_peers)",
}
used = set()
unchecked = 0
env = dict(os.environ, PATH=env_path + os.pathsep + os.environ["PATH"], NO_COLOR="1")
env.pop("FLOE_WAREHOUSE", None)
passed = failed = skipped = 0

def matches(expected, actual):
    # "..." on a line of its own stands for any number of lines
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])

RUNS_FLOE = re.compile(r"(^|\$ |[|;&(]\s*|\bbuild/dev/)floe\b")
for page in pages:
    lines = open(page, encoding="utf-8").read().split("\n")
    i = 0
    heading = ""
    while i < len(lines):
        if lines[i].startswith("#"):
            heading = lines[i]
        fence = re.match(r"^```(\S*)", lines[i])
        if not fence:
            i += 1
            continue
        m = re.match(r"^```console test(?:\s+needs=(\S+))?\s*$", lines[i])
        start = i + 1
        i += 1
        block = []
        while i < len(lines) and not lines[i].startswith("```"):
            block.append(lines[i])
            i += 1
        i += 1  # past the closing fence
        if not m:
            if fence.group(1) not in ("", "sh", "bash", "console", "shell"):
                continue
            if heading.lower().startswith("## synopsis") or not any(RUNS_FLOE.search(l) for l in block):
                continue
            key = (os.path.basename(page), block[0] if block else "")
            if key in EXCLUDED:
                used.add(key)
                print(f"excluded: {key[0]}:{start}: {EXCLUDED[key]}")
            else:
                unchecked += 1
                print(f"FAIL: {key[0]}:{start}: an example running floe that no test runs "
                      "(make it a ```console test block, or list it in EXCLUDED with the reason)")
            continue
        need = m.group(1)
        if need and "/" in need:
            if not os.path.exists(os.path.join(rundir, need)):
                skipped += 1
                print(f"skip: {os.path.basename(page)}:{start}: needs {need}")
                continue
        elif need and not shutil.which(need):
            skipped += 1
            print(f"skip: {os.path.basename(page)}:{start}: needs {m.group(1)}")
            continue
        steps = []
        for line in block:
            if line.startswith("$ "):
                steps.append([line[2:], []])
            elif steps:
                steps[-1][1].append(line)
        for cmd, expected in steps:
            p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=rundir, env=env,
                               capture_output=True, text=True)
            actual = p.stdout.split("\n")
            if actual and actual[-1] == "":
                actual.pop()
            if p.returncode == 0 and matches(expected, actual):
                passed += 1
            else:
                failed += 1
                print(f"FAIL: {os.path.basename(page)}:{start}: $ {cmd} (exit {p.returncode})")
                print("  expected:\n    " + "\n    ".join(expected))
                print("  got:\n    " + "\n    ".join(actual))
                if p.stderr:
                    print("  stderr: " + p.stderr.strip())
for key in sorted(set(EXCLUDED) - used):
    unchecked += 1
    print(f"FAIL: exclusion {key[0]}: '{key[1]}' matches no block any more")
failed += unchecked
print(f"EXAMPLES {passed} {failed} {skipped}")
PYEOF
shopt -s globstar
res=$("$PY" "$T/run_examples.py" "$FLOE_SOURCE_DIR"/docs/**/*.md "$FLOE_SOURCE_DIR/README.md" \
    "$T/run" "$T/bin")
grep -v '^EXAMPLES ' <<<"$res"
read -r _ p f s <<<"$(grep '^EXAMPLES ' <<<"$res")"
pass=$((pass + p))
fail=$((fail + f))
[ "$p" -gt 10 ] && ok || bad "too few examples ran ($p)"

# One page per command (`version` is described in floe(1)).
cmds=$("$FLOE_BIN" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$cmds" ] && ok || bad "no commands in floe --help"
for c in $cmds; do
    [ "$c" = version ] && continue
    if [ -f "$FLOE_SOURCE_DIR/docs/cli/floe-$c.md" ]; then ok; else bad "no docs/cli/floe-$c.md"; fi
    "$FLOE_BIN" help "$c" >/dev/null && ok || bad "floe help $c"
    "$FLOE_BIN" "$c" --help >/dev/null && ok || bad "floe $c --help"
done
"$FLOE_BIN" help no-such-command 2>/dev/null
[ $? -eq 2 ] && ok || bad "floe help <unknown> exits 2"
"$FLOE_BIN" no-such-command 2>/dev/null
[ $? -eq 2 ] && ok || bad "floe <unknown> exits 2"
"$FLOE_BIN" --version | grep -q '^floe [0-9]' && ok || bad "floe --version"

# Man pages: one per page plus floe.1, listing every command page.
sh "$FLOE_SOURCE_DIR/scripts/gen-man.sh" --out "$T/man" >/dev/null && ok || bad "gen-man.sh"
for md in "$FLOE_SOURCE_DIR"/docs/cli/floe-*.md; do
    b=$(basename "$md" .md)
    [ -s "$T/man/$b.1" ] && ok || bad "no $b.1"
    grep -q "^\.BR $b (1)" "$T/man/floe.1" && ok || bad "floe.1 does not list $b"
done
if command -v groff >/dev/null; then
    for m in "$T"/man/*.1; do
        w=$(groff -k -man -Tutf8 -ww -z "$m" 2>&1)
        [ -z "$w" ] && ok || bad "groff warnings in $(basename "$m"): $w"
    done
    groff -k -man -Tutf8 "$T/man/floe-log.1" 2>/dev/null | grep -q "abandoned" && ok ||
        bad "floe-log.1 renders"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
