#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# INTERVAL literals in expressions and TIMESTAMP AS OF <expression> in
# `floe sql` (src/sql/parser.c, print.c, exec_spark.c floe_add_interval,
# exec_refs.c; issue #22). Every expected value and error text is what
# Spark 3.5 prints (spark.sql.ansi.enabled=false, session zone UTC).
set -u
: "${FLOE_BIN:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
E() { "$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "$1" 2>&1; }
Q() { "$FLOE_BIN" sql --quiet --warehouse "$T/wh" --format csv -c "$1" 2>&1 | tail -n +2 | tr '\n' ' '; }

# ---- INTERVAL arithmetic
eq "timestamp + day" "$(Q "SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 DAY")" "2024-01-16 10:30:00 "
eq "timestamp - hours" "$(Q "SELECT TIMESTAMP'2024-01-15 10:30:00' - INTERVAL 2 HOURS")" "2024-01-15 08:30:00 "
eq "quoted value" "$(Q "SELECT DATE'2024-01-31' + INTERVAL '3' DAY, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL '-1' DAY")" \
  "2024-02-03,2024-02-28 10:00:00 "
eq "multi-unit" "$(Q "SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 DAY 2 HOURS 3 MINUTES 4 SECONDS")" \
  "2024-03-01 12:03:04 "
eq "date + whole days stays a date" "$(Q "SELECT DATE'2024-01-31' + INTERVAL 1 DAY, DATE'2024-01-31' + INTERVAL 1 WEEK")" \
  "2024-02-01,2024-02-07 "
eq "date + hours is a timestamp" "$(Q "SELECT DATE'2024-01-31' + INTERVAL 2 HOURS, DATE'2024-01-31' + INTERVAL 1 DAY 2 HOURS")" \
  "2024-01-31 02:00:00,2024-02-01 02:00:00 "
eq "month end clamps" "$(Q "SELECT DATE'2024-01-31' + INTERVAL 1 MONTH, DATE'2024-03-31' - INTERVAL 1 MONTH, DATE'2024-01-31' + INTERVAL 13 MONTHS")" \
  "2024-02-29,2024-02-29,2025-02-28 "
eq "timestamp + month" "$(Q "SELECT TIMESTAMP'2024-01-31 10:00:00' + INTERVAL 1 MONTH")" "2024-02-29 10:00:00 "
eq "year" "$(Q "SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 YEAR, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 YEAR 1 MONTH")" \
  "2025-02-28 10:00:00,2025-03-29 10:00:00 "
eq "negative" "$(Q "SELECT DATE'2024-01-31' + INTERVAL -2 MONTHS, TIMESTAMP'2024-02-29 10:00:00' - INTERVAL -1 DAY, -INTERVAL 1 DAY + TIMESTAMP'2024-01-15 10:30:00'")" \
  "2023-11-30,2024-03-01 10:00:00,2024-01-14 10:30:00 "
eq "a negative unit inside" "$(Q "SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 DAY -2 HOURS")" "2024-01-16 08:30:00 "
eq "small units" "$(Q "SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 90 MINUTES, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1.5 SECONDS, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 SECOND 500 MILLISECONDS, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 7 MICROSECONDS")" \
  "2024-02-29 11:30:00,2024-02-29 10:00:01.5,2024-02-29 10:00:01.5,2024-02-29 10:00:00.000007 "
eq "NULL operand" "$(Q "SELECT CAST(NULL AS TIMESTAMP) + INTERVAL 1 DAY IS NULL, CAST(NULL AS DATE) + INTERVAL 1 MONTH IS NULL")" \
  "true,true "
eq "interval first" "$(Q "SELECT INTERVAL 1 MONTH + DATE'2024-01-31'")" "2024-02-29 "
eq "string operand reads as a timestamp" "$(Q "SELECT '2024-01-15' + INTERVAL 1 DAY")" "2024-01-16 00:00:00 "
eq "chained and summed" "$(Q "SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 DAY - INTERVAL 1 MONTH, TIMESTAMP'2024-01-15 10:30:00' + (INTERVAL 1 DAY + INTERVAL 1 HOUR)")" \
  "2023-12-16 10:30:00,2024-01-16 11:30:00 "
has "year-month and day-time do not mix" "$(E "SELECT DATE'2024-01-31' + INTERVAL 1 MONTH 2 DAYS")" \
  "ParseException: Cannot mix year-month and day-time fields: INTERVAL 1 MONTH 2 DAYS."
has "unknown unit" "$(E "SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 FORTNIGHT")" \
  "Syntax error at or near 'FORTNIGHT'"
has "a bare interval value is unsupported" "$(E "SELECT INTERVAL 1 DAY")" "unsupported: an interval value"
has "unit TO unit is unsupported" "$(E "SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL '1-2' YEAR TO MONTH")" \
  "unsupported: INTERVAL '...' unit TO unit"

# on columns
"$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "CREATE NAMESPACE s" \
  -c "CREATE TABLE s.c (id INT, d DATE, ts TIMESTAMP)" \
  -c "INSERT INTO s.c VALUES (1, DATE'2024-01-31', TIMESTAMP'2024-01-31 23:30:00'), (2, NULL, NULL)" >/dev/null
eq "columns" "$(Q "SELECT id, d + INTERVAL 1 MONTH, d + INTERVAL 36 HOURS, ts + INTERVAL 1 HOUR FROM s.c ORDER BY id")" \
  "1,2024-02-29,2024-02-01 12:00:00,2024-02-01 00:30:00 2,,, "
eq "in WHERE" "$(Q "SELECT id FROM s.c WHERE ts + INTERVAL 1 DAY > TIMESTAMP'2024-02-01 00:00:00'")" "1 "

# ---- TIMESTAMP AS OF <expression>
"$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "CREATE TABLE s.tt (id INT)" -c "INSERT INTO s.tt VALUES (1)" >/dev/null
sleep 0.1
"$FLOE_BIN" sql --quiet --warehouse "$T/wh" -c "INSERT INTO s.tt VALUES (2)" >/dev/null
c1=$(Q "SELECT committed_at FROM s.tt.snapshots ORDER BY committed_at LIMIT 1" | tr -d ' ')
c2=$(Q "SELECT committed_at FROM s.tt.snapshots ORDER BY committed_at DESC LIMIT 1" | tr -d ' ' | sed 's/^\(....-..-..\)/\1 /')
c1=$(sed 's/^\(....-..-..\)/\1 /' <<<"$c1")
s1=$(date -u -d "$c1" +%s.%3N)
eq "cast(string as timestamp) picks the first snapshot" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF cast('$c1' as timestamp)")" "1 "
eq "a string expression" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF concat('$c1', '')")" "1 "
eq "timestamp + interval picks the second" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF TIMESTAMP'$c2' + INTERVAL 1 MILLISECOND")" "2 "
eq "seconds since the epoch" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF $s1")" "1 "
eq "an arithmetic number" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF $s1 + 86400")" "2 "
eq "current_timestamp() - interval reads a day" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF current_timestamp() + INTERVAL 1 MINUTE")" "2 "
eq "date_add(current_date(), 1)" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF date_add(current_date(), 1)")" "2 "
eq "a scalar subquery" "$(Q "SELECT count(*) FROM s.tt TIMESTAMP AS OF (SELECT current_timestamp())")" "2 "
eq "an alias after the expression" "$(Q "SELECT x.id FROM s.tt TIMESTAMP AS OF now() + INTERVAL 1 DAY x ORDER BY x.id")" "1 2 "
has "before the first snapshot" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF TIMESTAMP'$c1' - INTERVAL 1 MILLISECOND")" \
  "IllegalArgumentException: Cannot find a snapshot older than"
has "date_sub(current_date(), 1000)" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF date_sub(current_date(), 1000)")" \
  "IllegalArgumentException: Cannot find a snapshot older than"
has "epoch second 1" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF 1")" \
  "Cannot find a snapshot older than 1970-01-01T00:00:01+00:00"
has "a column" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF current_timestamp() - id")" \
  "ParseException: Invalid time travel spec: timestamp expression cannot refer to any columns."
has "rand()" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF rand()")" \
  'AnalysisException: [INVALID_TIME_TRAVEL_TIMESTAMP_EXPR.NON_DETERMINISTIC] The time travel timestamp expression "rand()" is invalid. Must be deterministic.'
has "not a timestamp" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF 'garbage'")" \
  'AnalysisException: [INVALID_TIME_TRAVEL_TIMESTAMP_EXPR.INPUT] The time travel timestamp expression "garbage" is invalid. Cannot be casted to the "TIMESTAMP" type.'
has "NULL" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF NULL")" \
  '[INVALID_TIME_TRAVEL_TIMESTAMP_EXPR.INPUT] The time travel timestamp expression "NULL" is invalid.'
has "a boolean" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF true")" \
  '[INVALID_TIME_TRAVEL_TIMESTAMP_EXPR.INPUT] The time travel timestamp expression "true" is invalid.'
# (Spark shows the expression as its plan prints it, CAST(garbage AS TIMESTAMP); floe as written)
has "a failed cast" "$(E "SELECT count(*) FROM s.tt TIMESTAMP AS OF cast('garbage' as timestamp)")" \
  "AnalysisException: [INVALID_TIME_TRAVEL_TIMESTAMP_EXPR.INPUT] The time travel timestamp expression"
eq "VERSION AS OF is unchanged" "$(Q "SELECT count(*) FROM s.tt VERSION AS OF $(Q "SELECT snapshot_id FROM s.tt.snapshots ORDER BY committed_at LIMIT 1" | tr -d ' ')")" "1 "

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
