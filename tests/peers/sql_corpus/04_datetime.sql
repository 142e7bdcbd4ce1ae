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
