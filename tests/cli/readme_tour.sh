#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README.md's "A quick tour", run as written (issue #21 item 16): the block
# is read from the README, `make demo`'s story (scripts/demo.sh) builds the
# warehouse, the SQL lines run in one floe sql session, every command runs
# with build/dev/floe and build/demo-warehouse replaced by the build under
# test and a temporary warehouse. Filled in: `<snapshot id>` (an ancestor of
# main), the read_parquet path (the table's own data files), FILE (the
# table's metadata.json); the server listens on a free port instead of
# 8181 and answers a request before it is stopped. Not run: the S3 line
# (tests/interop/sql_s3_warehouse.sh), the sqlite3 line without sqlite3 or
# floe_sqlite.so (not built with sanitizers).
set -u
: "${FLOE_BIN:?}" "${FLOE_BUILD_DIR:?}" "${FLOE_SOURCE_DIR:?}"
source "$FLOE_SOURCE_DIR/tests/lib.sh"
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$T"' EXIT
WH="$T/demo-warehouse"

# The tour's commands, one per line (continuations joined, comments cut);
# the SQL lines (indented) as one script.
"$PY" - "$FLOE_SOURCE_DIR/README.md" "$T" <<'PYEOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"## A quick tour\n\n```sh\n(.*?)\n```", text, re.S)
if not m:
    sys.exit("README.md has no '## A quick tour' sh block")
cmds, sql, cur = [], [], ""
for line in m.group(1).split("\n"):
    if cur:
        cur += " " + line.strip()
    elif line.startswith("  "):
        sql.append(line.strip())
        continue
    else:
        cur = line
    if cur.endswith("\\"):
        cur = cur[:-1].rstrip()
        continue
    cmds.append(re.sub(r"\s+#.*$", "", cur).strip())
    cur = ""
open(sys.argv[2] + "/cmds", "w").write("\n".join(cmds) + "\n")
open(sys.argv[2] + "/tour.sql", "w").write("\n".join(sql) + "\n")
PYEOF
[ -s "$T/cmds" ] && ok || { bad "no tour in README.md"; echo "$pass passed, $fail failed"; exit 1; }

ran=0
while IFS= read -r cmd; do
    cmd=${cmd//build\/dev\/floe_sqlite/@EXT@}
    cmd=${cmd//build\/dev\/floe/$FLOE_BIN}
    cmd=${cmd//@EXT@/$FLOE_BUILD_DIR\/floe_sqlite}
    cmd=${cmd//build\/demo-warehouse/$WH}
    case "$cmd" in
    "make demo")
        FLOE_DEMO_WAREHOUSE="$WH" bash "$FLOE_SOURCE_DIR/scripts/demo.sh" "$FLOE_BIN" >"$T/demo.log" 2>&1
        eq "make demo's story" "$?" 0
        # the placeholders, from the table the story leaves
        sid=$("$FLOE_BIN" sql --warehouse "$WH" --format csv -c \
            "SELECT snapshot_id FROM shop.orders.history WHERE is_current_ancestor ORDER BY made_current_at LIMIT 1" | tail -1)
        meta=$(ls "$WH"/shop.db/orders/metadata/*.metadata.json | tail -1)
        sed -e "s/<snapshot id>/$sid/" -e "s#/data/orders/\*\.parquet#$WH/shop.db/orders/data/*/*.parquet#" \
            "$T/tour.sql" >"$T/tour-filled.sql"
        ;;
    "$FLOE_BIN sql --warehouse $WH")
        out=$("$FLOE_BIN" sql --warehouse "$WH" -f "$T/tour-filled.sql" 2>&1)
        eq "the tour's SQL session: $out" "$?" 0
        ;;
    *"s3://"*) echo "not run here (needs S3): $cmd"; continue ;;
    sqlite3*)
        if ! command -v sqlite3 >/dev/null || [ ! -f "$FLOE_BUILD_DIR/floe_sqlite.so" ]; then
            echo "not run here (no sqlite3 or floe_sqlite.so): $cmd"
            continue
        fi
        out=$(ext_run "$FLOE_BUILD_DIR/floe_sqlite.so" bash -c "$cmd" 2>&1)
        eq "the sqlite3 line: $out" "$?" 0
        ;;
    *" serve "*)
        bash -c "${cmd/--port 8181/--port 0}" >"$T/serve.log" 2>&1 &
        server=$!
        url=
        for _ in $(seq 100); do
            url=$(grep -so 'http://[0-9.]*:[0-9]*' "$T/serve.log") && break
            sleep 0.1
        done
        out=$(curl -s "$url/v1/namespaces" 2>&1)
        eq "the REST catalog serves the warehouse" "$out" '{"namespaces":[["shop"]]}'
        kill "$server"
        wait "$server" 2>/dev/null
        server=
        ;;
    *" inspect FILE")
        "$FLOE_BIN" inspect "$meta" >/dev/null
        eq "floe inspect FILE" "$?" 0
        ;;
    *)
        out=$(bash -c "$cmd" 2>&1)
        eq "$cmd: $out" "$?" 0
        ;;
    esac
    ran=$((ran + 1))
done <"$T/cmds"
[ "$ran" -ge 8 ] && ok || bad "only $ran tour commands ran"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
