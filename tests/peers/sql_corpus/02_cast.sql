-- CAST and try_cast (spark.sql.ansi.enabled=false, Spark 3.5's default).
-- case: try_cast_bad_int
SELECT try_cast('abc' AS INT) AS a
-- case: try_cast_good_int
SELECT try_cast('42' AS INT) AS a
-- case: cast_bad_int
SELECT CAST('abc' AS INT) AS a
-- case: cast_partial_int
SELECT CAST('12abc' AS INT) AS a
-- case: cast_space_int
SELECT CAST(' 12 ' AS INT) AS a
-- case: cast_decimal_text_int
SELECT CAST('1.9' AS INT) AS a
-- case: cast_double_int
SELECT CAST(1.9 AS INT) AS a, CAST(-1.9 AS INT) AS b
-- case: cast_int_overflow
SELECT CAST(3000000000 AS INT) AS a
-- case: cast_string_bigint
SELECT CAST('9223372036854775807' AS BIGINT) AS a
-- case: cast_bad_double
SELECT CAST('x1' AS DOUBLE) AS a
-- case: cast_string_double
SELECT CAST('1.5e2' AS DOUBLE) AS a
-- case: cast_int_string
SELECT CAST(12 AS STRING) AS a
-- case: cast_double_string
SELECT CAST(1.5d AS STRING) AS a
-- case: cast_bool_string
SELECT CAST(true AS STRING) AS a
-- case: cast_string_bool
SELECT CAST('true' AS BOOLEAN) AS a, CAST('no' AS BOOLEAN) AS b, CAST('x' AS BOOLEAN) AS c
-- case: cast_int_bool
SELECT CAST(0 AS BOOLEAN) AS a, CAST(5 AS BOOLEAN) AS b
-- case: cast_bool_int
SELECT CAST(true AS INT) AS a
-- case: cast_decimal
SELECT CAST('12.345' AS DECIMAL(10,2)) AS a
-- case: cast_decimal_round
SELECT CAST(2.555 AS DECIMAL(10,2)) AS a
-- case: cast_decimal_overflow
SELECT CAST(12345.6 AS DECIMAL(4,1)) AS a
-- case: cast_bad_decimal
SELECT CAST('abc' AS DECIMAL(5,2)) AS a
-- case: cast_date
SELECT CAST('2024-02-29' AS DATE) AS a
-- case: cast_bad_date
SELECT CAST('2024-02-30' AS DATE) AS a
-- case: cast_date_garbage
SELECT CAST('hello' AS DATE) AS a
-- case: cast_timestamp
SELECT CAST('2024-01-15 10:30:00' AS TIMESTAMP) AS a
-- case: cast_timestamp_date
SELECT CAST(TIMESTAMP'2024-01-15 10:30:00' AS DATE) AS a
-- case: cast_date_timestamp
SELECT CAST(DATE'2024-01-15' AS TIMESTAMP) AS a
-- case: cast_bad_timestamp
SELECT CAST('nope' AS TIMESTAMP) AS a
-- case: cast_null_int
SELECT CAST(NULL AS INT) AS a
-- case: cast_colons
SELECT '5'::INT AS a
-- case: try_cast_date
SELECT try_cast('2024-13-01' AS DATE) AS a
-- case: cast_smallint
SELECT CAST(40000 AS SMALLINT) AS a
-- case: cast_tinyint
SELECT CAST(200 AS TINYINT) AS a
-- case: cast_string_arith
SELECT '3' + 4 AS a
-- case: cast_string_compare
SELECT '10' > 9 AS a
-- case: try_add
SELECT try_add(2147483647, 1) AS a
-- case: try_divide
SELECT try_divide(1, 0) AS a, try_divide(7, 2) AS b
