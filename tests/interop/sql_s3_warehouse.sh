#!/usr/bin/env bash
# The seed's script 1 (examples/sql/01_time_travel_rollback.sql) on a
# warehouse on S3 gives the same results as on local disk. The S3 server is
# s3rver behind floe's loopback proxy that recomputes every SigV4 signature
# (tests/interop/s3_server.mjs), started here on 127.0.0.1 only.
set -u
SRC=${FLOE_SOURCE_DIR:?}
NM="$SRC/tests/interop/node_modules"
command -v node >/dev/null && [ -d "$NM/s3rver" ] || { echo "skip: node or s3rver absent"; exit 77; }
T=$(mktemp -d)
cleanup() { exec 9>&- 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
pass=0; fail=0
check() { if [ "$2" = "$3" ]; then pass=$((pass+1)); echo "ok   $1"; else fail=$((fail+1)); echo "FAIL $1: got [$2] expected [$3]"; fi; }
mkfifo "$T/ctl"
node --openssl-legacy-provider "$SRC/tests/interop/s3_server.mjs" "$T/data" <"$T/ctl" >"$T/port.json" 2>"$T/server.log" &
exec 9>"$T/ctl"   # the server runs until this pipe closes
for _ in $(seq 1 100); do [ -s "$T/port.json" ] && break; sleep 0.1; done
P=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$T/port.json")
[ -n "$P" ] || { echo "FAIL s3 server did not start"; cat "$T/server.log"; echo "0 passed, 1 failed"; exit 1; }
S3=(--conf "s3.endpoint=http://127.0.0.1:$P" --conf s3.access-key-id=FLOETESTKEY
    --conf "s3.secret-access-key=floe/test+SECRET=key" --conf s3.path-style-access=true
    --conf s3.region=us-east-1 --conf "catalog.db=$T/s3-catalog.db")
mask() { sed -E 's/[0-9]{12,}/ID/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+/TS/g' | grep -v '^Location,'; }
"$FLOE_BIN" sql --warehouse "$T/local" --format csv -f "$SRC/examples/sql/01_time_travel_rollback.sql" >"$T/local.out" 2>&1
rc_local=$?
"$FLOE_BIN" sql --warehouse s3://bucket/wh "${S3[@]}" --format csv -f "$SRC/examples/sql/01_time_travel_rollback.sql" >"$T/s3.out" 2>&1
rc_s3=$?
check "local run exit" "$rc_local" "0"
check "s3 run exit" "$rc_s3" "0"
if diff <(mask <"$T/local.out") <(mask <"$T/s3.out") >"$T/diff"; then check "same results" same same
else check "same results" "$(head -20 "$T/diff")" same; fi
check "table location on S3" "$(grep '^Location,' "$T/s3.out" | cut -d, -f2)" "s3://bucket/wh/shop.db/orders"
# the data really is in the bucket: metadata files, manifests and Parquet data
n_meta=$(find "$T/data/bucket/wh/shop.db/orders/metadata" -name '*.metadata.json._S3rver_object' | wc -l)
check "7 metadata.json objects in the bucket" "$n_meta" "7"
n_data=$(find "$T/data/bucket/wh/shop.db/orders/data" -name '*.parquet._S3rver_object' | wc -l)
check "3 data files in the bucket" "$n_data" "3"
# icebird reads the same table over the same endpoint (signed GETs)
loc=$(sqlite3 "$T/s3-catalog.db" "SELECT metadata_location FROM iceberg_tables WHERE table_name='orders'")
out=$(cd "$SRC/tests/interop" && node s3_icebird.mjs "$P" "$loc" order_id 0 1 2 current 2>&1)
check "icebird: first snapshot" "$(sed -n 1p <<<"$out")" "0 2 1001,1002"
check "icebird: second snapshot" "$(sed -n 2p <<<"$out")" "1 3 1001,1002,1003"
check "icebird: the bad load" "$(sed -n 3p <<<"$out")" "2 5 1001,1002,1003,1003,1004"
check "icebird: current (rolled back)" "$(sed -n 4p <<<"$out")" "current 3 1001,1002,1003"
# read_parquet and add_files through the session's S3 FileIO (listing + globs)
out=$("$FLOE_BIN" sql --warehouse s3://bucket/wh "${S3[@]}" --format csv -c "
SELECT count(*) AS n FROM read_parquet('s3://bucket/wh/shop.db/orders/data/*/*.parquet');
CREATE TABLE shop.adopted (order_id BIGINT NOT NULL, customer_id BIGINT NOT NULL,
  amount DECIMAL(10,2) NOT NULL, status STRING NOT NULL, order_date DATE NOT NULL)
  PARTITIONED BY (order_date);
CALL system.add_files(table => 'shop.adopted',
  source_table => '\`parquet\`.\`s3://bucket/wh/shop.db/orders/data\`');
SELECT count(*) AS n, sum(amount) AS s FROM shop.adopted" 2>&1)
check "read_parquet over an s3:// glob" "$(sed -n 2p <<<"$out")" "5"
check "add_files from s3://" "$(sed -n 4p <<<"$out" | cut -d, -f1)" "3"
check "adopted rows" "$(sed -n 6p <<<"$out" | cut -d, -f1)" "5"
stats=$(curl -s "http://127.0.0.1:$P/__floe/stats")
rej=$(sed -E 's/.*"rejected":([0-9]+).*/\1/' <<<"$stats")
check "no request failed signature verification" "$rej" "0"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
