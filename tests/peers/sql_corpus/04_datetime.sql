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
