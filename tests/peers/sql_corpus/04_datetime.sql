-- Dates, timestamps (session time zone UTC), intervals.
-- case: date_literal
SELECT DATE'2024-02-29' AS a
-- case: timestamp_literal
SELECT TIMESTAMP'2024-01-15 10:30:00' AS a, TIMESTAMP'2024-01-15 10:30:00.120' AS b
-- case: timestamp_zone_literal
SELECT TIMESTAMP'2024-01-15 10:30:00+02:00' AS a
-- case: timestamp_zone_z
SELECT TIMESTAMP'2024-01-15T10:30:00Z' AS a
-- case: date_add
SELECT date_add(DATE'2024-02-28', 1) AS a, date_add(DATE'2024-12-31', 1) AS b
-- case: date_sub
SELECT date_sub(DATE'2024-03-01', 1) AS a
-- case: date_add_neg
SELECT date_add(DATE'2024-01-01', -1) AS a
-- case: datediff
SELECT datediff(DATE'2024-03-01', DATE'2024-02-01') AS a, datediff('2024-01-01', '2024-01-10') AS b
-- case: date_trunc_month
SELECT date_trunc('MONTH', TIMESTAMP'2024-02-29 13:14:15') AS a
-- case: date_trunc_year
SELECT date_trunc('year', TIMESTAMP'2024-02-29 13:14:15') AS a
-- case: date_trunc_hour
SELECT date_trunc('HOUR', TIMESTAMP'2024-02-29 13:14:15.5') AS a
-- case: date_trunc_day
SELECT date_trunc('DAY', TIMESTAMP'2024-02-29 13:14:15') AS a
-- case: trunc_date
SELECT trunc(DATE'2024-02-29', 'MM') AS a
-- case: year_month_day
SELECT year(DATE'2024-02-29') AS a, month(DATE'2024-02-29') AS b, day(DATE'2024-02-29') AS c
-- case: hour_minute_second
SELECT hour(TIMESTAMP'2024-01-15 10:30:45') AS a, minute(TIMESTAMP'2024-01-15 10:30:45') AS b, second(TIMESTAMP'2024-01-15 10:30:45') AS c
-- case: dayofweek
SELECT dayofweek(DATE'2024-01-15') AS a, dayofyear(DATE'2024-02-29') AS b
-- case: quarter_weekofyear
SELECT quarter(DATE'2024-05-01') AS a, weekofyear(DATE'2024-01-15') AS b
-- case: last_day
SELECT last_day(DATE'2024-02-10') AS a
-- case: add_months
SELECT add_months(DATE'2024-01-31', 1) AS a
-- case: months_between
SELECT months_between(DATE'2024-03-01', DATE'2024-01-01') AS a
-- case: make_date
SELECT make_date(2024, 2, 29) AS a
-- case: make_date_bad
SELECT make_date(2023, 2, 29) AS a
-- case: to_date
SELECT to_date('2024-01-15') AS a
-- case: to_date_fmt
SELECT to_date('15/01/2024', 'dd/MM/yyyy') AS a
-- case: to_date_bad
SELECT to_date('garbage') AS a
-- case: to_timestamp
SELECT to_timestamp('2024-01-15 10:30:00') AS a
-- case: to_timestamp_fmt
SELECT to_timestamp('15.01.2024 10:30', 'dd.MM.yyyy HH:mm') AS a
-- case: unix_timestamp
SELECT unix_timestamp('2024-01-15 10:30:00') AS a
-- case: unix_timestamp_fmt
SELECT unix_timestamp('2024-01-15', 'yyyy-MM-dd') AS a
-- case: from_unixtime
SELECT from_unixtime(0) AS a, from_unixtime(1705314600) AS b
-- case: from_unixtime_fmt
SELECT from_unixtime(1705314600, 'yyyy/MM/dd') AS a
-- case: to_unix_timestamp
SELECT to_unix_timestamp('2024-01-15 10:30:00') AS a
-- case: date_format
SELECT date_format(TIMESTAMP'2024-01-15 10:30:05', 'yyyy-MM-dd HH:mm:ss') AS a
-- case: date_format_parts
SELECT date_format(DATE'2024-01-05', 'yyyyMMdd') AS a, date_format(DATE'2024-01-05', 'MM/dd/yy') AS b
-- case: timestamp_plus_interval
SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 DAY AS a
-- case: timestamp_minus_interval_hours
SELECT TIMESTAMP'2024-01-15 10:30:00' - INTERVAL 2 HOURS AS a
-- case: date_plus_interval
SELECT DATE'2024-01-31' + INTERVAL 1 MONTH AS a
-- case: interval_quoted_value
SELECT DATE'2024-01-31' + INTERVAL '3' DAY AS a, TIMESTAMP'2024-01-15 10:30:00' + INTERVAL '1' HOUR AS b
-- case: interval_multi_unit
SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 DAY 2 HOURS 3 MINUTES 4 SECONDS AS a, TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 HOUR '30' MINUTE AS b
-- case: interval_date_whole_days
SELECT DATE'2024-01-31' + INTERVAL 1 DAY AS a, DATE'2024-01-31' + INTERVAL 1 WEEK AS b, DATE'2024-01-31' + INTERVAL 0 DAY AS c
-- case: interval_date_subday
SELECT DATE'2024-01-31' + INTERVAL 2 HOURS AS a, DATE'2024-01-31' + INTERVAL 1 DAY 2 HOURS AS b, DATE'2024-01-31' + INTERVAL 24 HOURS AS c
-- case: interval_date_fraction
SELECT DATE'2024-01-31' + INTERVAL 1 MILLISECOND AS a, DATE'2024-01-31' + INTERVAL 1 MICROSECOND AS b
-- case: interval_month_end
SELECT TIMESTAMP'2024-01-31 10:00:00' + INTERVAL 1 MONTH AS a, TIMESTAMP'2024-03-31 10:00:00' - INTERVAL 1 MONTH AS b, DATE'2024-01-31' + INTERVAL 13 MONTHS AS c, DATE'2024-03-31' - INTERVAL 1 MONTH AS d
-- case: interval_year
SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 YEAR AS a, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 YEAR 1 MONTH AS b, TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 2 YEARS AS c
-- case: interval_negative
SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL -1 DAY AS a, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL '-1' DAY AS b, TIMESTAMP'2024-02-29 10:00:00' - INTERVAL -1 DAY AS c, DATE'2024-01-31' + INTERVAL -2 MONTHS AS d
-- case: interval_negated
SELECT -INTERVAL 1 DAY + TIMESTAMP'2024-01-15 10:30:00' AS a, TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 DAY -2 HOURS AS b, TIMESTAMP'2024-01-15 10:30:00' + INTERVAL - 1 DAY AS c
-- case: interval_null
SELECT CAST(NULL AS TIMESTAMP) + INTERVAL 1 DAY AS a, CAST(NULL AS DATE) + INTERVAL 1 MONTH AS b
-- case: interval_small_units
SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 90 MINUTES AS a, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1.5 SECONDS AS b, TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 SECOND 500 MILLISECONDS AS c, TIMESTAMP'2024-01-15 10:30:00.123456' + INTERVAL 1 MICROSECOND AS d
-- case: interval_week
SELECT TIMESTAMP'2024-02-29 10:00:00' + INTERVAL 1 WEEK AS a, TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 100000 DAYS AS b
-- case: interval_first
SELECT INTERVAL 1 DAY + TIMESTAMP'2024-02-29 10:00:00' AS a, INTERVAL 1 MONTH + DATE'2024-01-31' AS b
-- case: interval_string_operand
SELECT '2024-01-15 10:30:00' + INTERVAL 1 DAY AS a, '2024-01-15' + INTERVAL 1 DAY AS b
-- case: interval_chain
SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 DAY - INTERVAL 1 MONTH AS a, TIMESTAMP'2024-01-15 10:30:00' + (INTERVAL 1 DAY + INTERVAL 1 HOUR) AS b
-- case: interval_compare
SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 DAY < TIMESTAMP'2024-01-17 00:00:00' AS a
-- case: interval_mixed_fields
SELECT DATE'2024-01-31' + INTERVAL 1 MONTH 2 DAYS AS a
-- case: interval_unknown_unit
SELECT TIMESTAMP'2024-01-15 10:30:00' + INTERVAL 1 FORTNIGHT AS a
-- case: interval_columns
SELECT id, dt + INTERVAL 1 MONTH AS a, dt - INTERVAL 1 DAY AS b, dt + INTERVAL 36 HOURS AS c, ts + INTERVAL 1 DAY 1 HOUR AS d, ts - INTERVAL 1 YEAR AS e FROM db.t
-- case: interval_column_filter
SELECT id FROM db.t WHERE ts + INTERVAL 1 MONTH > TIMESTAMP'2024-02-01 00:00:00'
-- case: date_compare
SELECT DATE'2024-01-01' < DATE'2024-01-02' AS a
-- case: timestamp_compare_zone
SELECT TIMESTAMP'2024-01-15 10:30:00+02:00' = TIMESTAMP'2024-01-15 08:30:00' AS a
-- case: current_date_type
SELECT typeof(current_date()) AS a, typeof(current_timestamp()) AS b
-- case: current_date_sane
SELECT current_date() > DATE'2020-01-01' AS a
-- case: date_minus_date
SELECT datediff(DATE'2024-03-01', DATE'2023-03-01') AS a
-- case: timestamp_seconds
SELECT timestamp_seconds(1705314600) AS a
-- case: unix_date
SELECT unix_date(DATE'1970-01-11') AS a
-- case: date_from_unix_date
SELECT date_from_unix_date(10) AS a
-- case: cast_ts_string
SELECT CAST(TIMESTAMP'2024-01-15 10:30:00.5' AS STRING) AS a
-- case: extract_year
SELECT extract(YEAR FROM DATE'2024-02-29') AS a
-- case: date_part
SELECT date_part('month', DATE'2024-02-29') AS a
-- case: next_day
SELECT next_day(DATE'2024-01-15', 'Fri') AS a
-- case: make_timestamp
SELECT make_timestamp(2024, 1, 15, 10, 30, 0) AS a
-- case: ts_column_filter
SELECT id FROM db.t WHERE ts >= TIMESTAMP'2024-01-01 00:00:00'
-- case: ts_column_hour
SELECT id, hour(ts) AS h FROM db.t WHERE ts IS NOT NULL
-- case: date_column_add
SELECT id, date_add(dt, 30) AS d FROM db.t WHERE dt IS NOT NULL
-- case: date_column_trunc
SELECT id, date_trunc('MONTH', ts) AS m FROM db.t WHERE ts IS NOT NULL
-- case: year_group
SELECT year(dt) AS y, count(*) AS n FROM db.t GROUP BY year(dt)
-- case: add_months_ends
SELECT add_months(DATE'2024-02-29', 12) AS a, add_months(DATE'2023-03-31', -1) AS b, add_months(DATE'2024-01-31', 13) AS c, add_months(DATE'2024-05-31', -3) AS d
-- case: months_between_frac
SELECT months_between(TIMESTAMP'2024-03-15 12:00:00', DATE'2024-01-01') AS a, months_between(DATE'2024-02-29', DATE'2024-01-31') AS b, months_between(DATE'2024-01-01', DATE'2024-03-15') AS c, months_between(DATE'2024-03-15', DATE'2024-01-01', false) AS d
-- case: date_trunc_week_quarter
SELECT date_trunc('WEEK', TIMESTAMP'2024-01-03 10:00:00') AS a, date_trunc('QUARTER', TIMESTAMP'2024-05-03 10:00:00') AS b, date_trunc('bogus', TIMESTAMP'2024-05-03 10:00:00') AS c, date_trunc('MINUTE', TIMESTAMP'1969-12-31 23:59:59.5') AS d
-- case: weekofyear_edges
SELECT weekofyear(DATE'2021-01-01') AS a, weekofyear(DATE'2024-12-30') AS b, dayofweek(DATE'1969-12-31') AS c, quarter(DATE'2024-12-31') AS d
-- case: unix_date_negative
SELECT date_from_unix_date(-1) AS a, unix_date(DATE'1969-12-31') AS b, timestamp_seconds(-1) AS c, timestamp_seconds(1.5) AS d
-- case: datetime_fn_nulls
SELECT last_day(NULL) AS a, add_months(NULL, 1) AS b, next_day(DATE'2024-01-15', 'xx') AS c, make_date(2024, 13, 1) AS d, trunc(DATE'2024-02-29', 'DAY') AS e
-- case: last_day_leap
SELECT last_day(DATE'2023-02-01') AS a, last_day(DATE'2000-02-15') AS b, last_day(DATE'1900-02-01') AS c, last_day(TIMESTAMP'2024-04-30 23:00:00') AS d
-- case: date_part_fields
SELECT date_part('doy', DATE'2024-12-31') AS a, date_part('dow', DATE'2024-01-15') AS b, date_part('week', DATE'2024-01-15') AS c, date_part('YEAR', TIMESTAMP'2024-01-15 10:30:00') AS d, date_part('hour', TIMESTAMP'2024-01-15 10:30:00') AS e
-- case: make_timestamp_edges
SELECT make_timestamp(2024, 1, 15, 10, 30, 45.5) AS a, make_timestamp(2024, 1, 15, 10, 30, 60) AS b, make_timestamp(2024, 2, 30, 0, 0, 0) AS c
-- case: next_day_names
SELECT next_day(DATE'2024-01-19', 'FRIDAY') AS a, next_day(DATE'2024-01-15', 'mo') AS b, next_day(DATE'2024-12-31', 'wed') AS c
-- case: date_format_12h
SELECT date_format(TIMESTAMP'2024-01-15 13:05:09', 'hh:mm:ss a') AS a, date_format(TIMESTAMP'2024-01-15 00:30:00', 'h:mm a') AS b, date_format(TIMESTAMP'2024-01-15 12:00:00', 'K k a') AS c, date_format(TIMESTAMP'2024-01-15 00:00:00', 'H k') AS d
-- case: date_format_names
SELECT date_format(DATE'2024-02-29', 'EEEE, MMMM d, yyyy') AS a, date_format(DATE'2024-02-29', 'EEE MMM dd') AS b, date_format(DATE'2024-02-29', 'D') AS c, date_format(DATE'2024-09-01', 'MMMM M') AS d
-- case: date_format_fraction
SELECT date_format(TIMESTAMP'2024-01-15 10:30:05.123456', 'HH:mm:ss.SSS') AS a, date_format(TIMESTAMP'2024-01-15 10:30:05.123456', 'ss.SSSSSS') AS b, date_format(TIMESTAMP'2024-01-15 10:30:05.5', 'S') AS c, date_format(TIMESTAMP'2024-01-15 10:30:05', 'ss.SS') AS d
-- case: date_format_literal
SELECT date_format(TIMESTAMP'2024-01-15 10:30:05', "yyyy-MM-dd'T'HH:mm:ss'Z'") AS a, date_format(DATE'2024-01-15', "'week of' d MMM ''yy") AS b, date_format(DATE'2024-01-15', 'yyyy.MM.dd / HH') AS c
-- case: date_format_offsets
SELECT date_format(TIMESTAMP'2024-01-15 10:30:05', 'XXX xx Z O') AS a, date_format(TIMESTAMP'2024-01-15 10:30:05', 'yy QQQ G') AS b
-- case: date_format_string_arg
SELECT date_format('2024-01-15 10:30:05', 'MMM d, HH:mm') AS a, date_format('nonsense', 'yyyy') AS b
-- case: date_format_column ordered
SELECT id, date_format(ts, 'yyyy/MM/dd hh:mm a') AS f, date_format(dt, 'EEE d MMM') AS g FROM db.t ORDER BY id
-- case: to_timestamp_12h
SELECT to_timestamp('01/15/2024 01:05:09 PM', 'MM/dd/yyyy hh:mm:ss a') AS a, to_timestamp('2024-01-15 12:30 AM', 'yyyy-MM-dd hh:mm a') AS b, to_timestamp('2024-01-15 12:30 pm', 'yyyy-MM-dd hh:mm a') AS c
-- case: to_date_month_name
SELECT to_date('Feb 29 2024', 'MMM d yyyy') AS a, to_date('29 february 2024', 'd MMMM yyyy') AS b, to_date('20240105', 'yyyyMMdd') AS c
-- case: to_timestamp_fraction
SELECT to_timestamp('2024-01-15 10:30:05.12', 'yyyy-MM-dd HH:mm:ss.SSS') AS a, to_timestamp('2024-01-15 10:30:05.123456', 'yyyy-MM-dd HH:mm:ss.SSSSSS') AS b
-- case: to_timestamp_literal
SELECT to_timestamp('2024-01-15T10:30:05', "yyyy-MM-dd'T'HH:mm:ss") AS a, to_timestamp('at 10h30 on 15.01.2024', "'at' HH'h'mm 'on' dd.MM.yyyy") AS b
-- case: to_timestamp_offset
SELECT to_timestamp('2024-01-15 10:30:00+02:00', 'yyyy-MM-dd HH:mm:ssXXX') AS a, to_timestamp('2024-01-15 10:30:00 -0130', 'yyyy-MM-dd HH:mm:ss Z') AS b
-- case: datetime_parse_fail
SELECT to_timestamp('garbage', 'yyyy-MM-dd') AS a, unix_timestamp('xx', 'yyyy') AS b, to_date('2024/01/15', 'yyyy-MM-dd') AS c, to_timestamp('2024-01-15 10:30', 'yyyy-MM-dd HH:mm:ss') AS d
-- case: datetime_fmt_nulls
SELECT date_format(NULL, 'yyyy') AS a, to_timestamp(NULL, 'yyyy') AS b, from_unixtime(NULL) AS c, unix_timestamp(NULL) AS d, to_date(NULL, 'yyyy') AS e, date_format(DATE'2024-01-15', NULL) AS f
-- case: from_unixtime_names
SELECT from_unixtime(1705314600, 'EEE, d MMM yyyy hh:mm a') AS a, from_unixtime(-86400, 'yyyy-MM-dd') AS b
-- case: unix_timestamp_12h
SELECT unix_timestamp('01/15/2024 10:30 AM', 'MM/dd/yyyy hh:mm a') AS a, to_unix_timestamp('15 Jan 2024', 'd MMM yyyy') AS b
-- case: unix_timestamp_column ordered
SELECT id, unix_timestamp(ts) AS a, unix_timestamp(dt) AS b FROM db.t ORDER BY id
