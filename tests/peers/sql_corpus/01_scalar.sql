-- Literals, arithmetic, booleans, NULL.
-- case: int_literal
SELECT 1 AS a, -7 AS b, 0 AS c
-- case: bigint_literal
SELECT 9223372036854775807 AS a, 10L AS b
-- case: double_literal
SELECT 1.5d AS a, 2.0E3 AS b
-- case: decimal_literal
SELECT 12.50 AS a, 0.001 AS b, -3.10 AS c
-- case: string_literal
SELECT 'it''s' AS a, '' AS b
-- case: null_literal
SELECT NULL AS a
-- case: bool_true_false
SELECT true AS a, false AS b
-- case: bool_compare
SELECT 1 = 1 AS a, 1 < 0 AS b, NULL = 1 AS c
-- case: bool_and_or_not
SELECT true AND false AS a, true OR NULL AS b, NOT true AS c, false AND NULL AS d
-- case: int_division
SELECT 7/2 AS a
-- case: int_division_neg
SELECT -7/2 AS a, 7/-2 AS b
-- case: int_division_exact
SELECT 6/3 AS a
-- case: div_operator
SELECT 7 div 2 AS a, -7 div 2 AS b
-- case: division_by_zero
SELECT 1/0 AS a
-- case: div_by_zero
SELECT 5 div 0 AS a
-- case: modulo
SELECT 7 % 3 AS a, -7 % 3 AS b, 7 % -3 AS c
-- case: modulo_zero
SELECT 7 % 0 AS a
-- case: pmod
SELECT pmod(-7, 3) AS a, pmod(7, 3) AS b
-- case: int_mult
SELECT 6 * 7 AS a, 2 - 5 AS b, 2 + 3 AS c
-- case: double_arith
SELECT 1.5d * 2 AS a, 0.1d + 0.2d AS b
-- case: decimal_add
SELECT 1.10 + 2.20 AS a
-- case: decimal_mult
SELECT 1.5 * 2 AS a
-- case: unary_minus
SELECT -(3) AS a, - -3 AS b
-- case: abs
SELECT abs(-4) AS a, abs(2.5) AS b, abs(NULL) AS c
-- case: round
SELECT round(2.5) AS a, round(-2.5) AS b, round(1.2345, 2) AS c
-- case: round_double
SELECT round(2.5d) AS a, round(3.14159d, 3) AS b
-- case: bround
SELECT bround(2.5) AS a, bround(3.5) AS b
-- case: ceil_floor
SELECT ceil(1.2) AS a, floor(-1.2) AS b, ceil(2) AS c
-- case: sqrt_pow
SELECT sqrt(16) AS a, pow(2, 10) AS b, power(2, 0.5) AS c
-- case: exp_ln
SELECT exp(0) AS a, ln(1) AS b, log10(1000) AS c
-- case: greatest_least
SELECT greatest(1, 5, 3) AS a, least(4, 2, 8) AS b
-- case: greatest_null
SELECT greatest(1, NULL, 3) AS a, least(NULL, 2) AS b
-- case: sign
SELECT sign(-3) AS a, signum(0) AS b, sign(2.5) AS c
-- case: coalesce
SELECT coalesce(NULL, 2, 3) AS a, coalesce(NULL, NULL) AS b
-- case: nvl
SELECT nvl(NULL, 'x') AS a, nvl('y', 'x') AS b
-- case: nvl2
SELECT nvl2(NULL, 1, 2) AS a, nvl2(0, 1, 2) AS b
-- case: nullif
SELECT nullif(1, 1) AS a, nullif(1, 2) AS b
-- case: ifnull
SELECT ifnull(NULL, 5) AS a
-- case: if_fn
SELECT if(1 < 2, 'yes', 'no') AS a, if(NULL, 'yes', 'no') AS b
-- case: case_searched
SELECT CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' ELSE 'c' END AS a
-- case: case_simple
SELECT CASE 3 WHEN 1 THEN 'one' WHEN 3 THEN 'three' END AS a
-- case: case_no_else
SELECT CASE WHEN false THEN 1 END AS a
-- case: is_null
SELECT NULL IS NULL AS a, 1 IS NOT NULL AS b
-- case: null_safe_eq
SELECT NULL <=> NULL AS a, 1 <=> NULL AS b, 2 <=> 2 AS c
-- case: between
SELECT 5 BETWEEN 1 AND 10 AS a, 5 NOT BETWEEN 1 AND 3 AS b
-- case: in_list
SELECT 2 IN (1, 2, 3) AS a, 5 NOT IN (1, 2) AS b, 1 IN (NULL, 2) AS c
-- case: isnull_fn
SELECT isnull(NULL) AS a, isnotnull(1) AS b
-- case: bitwise
SELECT 5 & 3 AS a, 5 | 3 AS b, 5 ^ 3 AS c, ~5 AS d
-- case: shift
SELECT shiftleft(1, 4) AS a, shiftright(16, 2) AS b
-- case: int_overflow
SELECT 2147483647 + 1 AS a
-- case: typeof_int
SELECT typeof(1) AS a, typeof(1.5) AS b, typeof('x') AS c
-- case: values_inline ordered
SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(x, y) ORDER BY x
-- case: values_stmt
VALUES (1, 2), (3, 4)
-- case: select_no_from_expr
SELECT 1 + 2 * 3 AS a, (1 + 2) * 3 AS b
-- case: double_nan
SELECT CAST('NaN' AS DOUBLE) AS a
-- case: double_inf
SELECT CAST('Infinity' AS DOUBLE) AS a
-- case: double_print_large
SELECT 1e20d AS a, 1.0E-5d AS b
-- case: double_print_int
SELECT CAST(3 AS DOUBLE) AS a
-- case: float_print
SELECT CAST(1.1 AS FLOAT) AS a
-- case: hex_unhex
SELECT hex(255) AS a, hex('AB') AS b
-- case: conv
SELECT conv('ff', 16, 10) AS a
-- case: rand_seeded_type
SELECT typeof(rand()) AS a
-- case: factorial
SELECT factorial(5) AS a
-- case: nanvl
SELECT nanvl(CAST('NaN' AS DOUBLE), 1.0d) AS a
-- case: div_precedence
SELECT 2 * 3 / 4 AS a, 1 + 6 / 4 AS b, 12 / 2 / 4 AS c
-- case: bool_bare_alias
SELECT 1 < 2 x, 3 IS NULL y
-- case: bool_case_not_bool
SELECT CASE WHEN 1 > 0 THEN 5 END AS a
-- case: bool_in_subquery_col
SELECT (SELECT 1) = 1 AS a
-- case: pmod_edges
SELECT pmod(7, -3) AS a, pmod(-7, -3) AS b, pmod(7, 0) AS c, pmod(NULL, 3) AS d
-- case: greatest_least_edges
SELECT greatest(NULL, NULL) AS a, least('b', 'a', NULL) AS b, greatest(2, 1.5d) AS c
-- case: sign_null
SELECT sign(NULL) AS a, signum(-0.5d) AS b
-- case: nvl2_isnull_edges
SELECT nvl2('x', NULL, 2) AS a, isnull(1) AS b, isnotnull(NULL) AS c
-- case: shift_edges
SELECT shiftright(-16, 2) AS a, shiftleft(NULL, 1) AS b, shiftrightunsigned(-16, 60) AS c
-- case: conv_edges
SELECT conv('-10', 10, 16) AS a, conv('-10', 10, -16) AS b, conv('zz1', 36, 2) AS c, conv('12x', 10, 10) AS d, conv('5', 1, 10) AS e
-- case: factorial_edges
SELECT factorial(0) AS a, factorial(20) AS b, factorial(21) AS c, factorial(-1) AS d
-- case: log_edges
SELECT ln(0) AS a, log10(-1) AS b, log(2, 8) AS c, log2(8) AS d
-- case: try_arith_edges
SELECT try_add(9223372036854775807L, 1L) AS a, try_subtract(5, 7) AS b, try_multiply(3, 4) AS c, try_divide(NULL, 1) AS d
-- case: hex_edges
SELECT hex(-1) AS a, hex('') AS b, hex(NULL) AS c, hex('é') AS d
-- case: greatest_strings
SELECT greatest('10', '9') AS a, least('b', 'B') AS b
-- case: decimal_wide_add
SELECT 12345678901234567890.123456789012345678 + 1 AS a
-- case: decimal_mult_38
SELECT CAST(1.5 AS DECIMAL(38,6)) * CAST(2.25 AS DECIMAL(38,6)) AS a
-- case: decimal_div_mod
SELECT 1.00 / 3 AS a, 1.5 / 0 AS b, 10.5 % 3 AS c, -10.5 % 3 AS d
-- case: decimal_null_arith
SELECT 1.25 - NULL AS a, NULL * 2.5 AS b, CAST(NULL AS DECIMAL(5,2)) + 1 AS c
-- case: round_negative_scale
SELECT round(123.456, -1) AS a, round(155, -1) AS b, round(-0.5) AS c, round(5) AS d
-- case: ceil_floor_decimal
SELECT ceil(-0.5) AS a, floor(12.999) AS b, ceil(CAST(12345678901234567890.5 AS DECIMAL(38,1))) AS c
-- case: int_wrap_more
SELECT 65536 * 65536 AS a, -2147483648 - 1 AS b, CAST(32767 AS SMALLINT) + CAST(1 AS SMALLINT) AS c
-- case: typeof_literals
SELECT typeof(1L) AS a, typeof(2147483648) AS b, typeof(1.5d) AS c, typeof(1e3) AS d, typeof(12.50) AS e, typeof(CAST(1 AS DECIMAL(38,0))) AS f, typeof(true) AS g, typeof(NULL) AS h, typeof(DATE'2024-01-01') AS i
-- case: try_add_int_fits
SELECT try_add(2147483647, -1) AS a, try_add(CAST(NULL AS INT), 1) AS b
-- case: bround_decimal
SELECT bround(2.25, 1) AS a, bround(2.35, 1) AS b, bround(-2.5) AS c
-- case: doc_types_example
SELECT 12.50 AS a, 1.10 + 2.20 AS b, 2147483647 + 1 AS c, typeof(1.5) AS d, round(2.5) AS e, avg(CAST(x AS DECIMAL(4,2))) AS f FROM VALUES (1.25), (2.50) AS v(x)
