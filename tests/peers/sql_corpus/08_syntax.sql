-- The syntax tree (src/sql/parser.c, print.c): names Spark lets keywords be, CTEs,
-- subqueries, set operations, joins (SEMI/ANTI), windows, CASE, predicates and their
-- precedence, literals and escapes.
-- case: tree_cte_named_year
WITH year AS (SELECT 1 AS x) SELECT x FROM year
-- case: cte_named_partition
WITH `partition` AS (SELECT 2 AS x) SELECT x FROM `partition`
-- case: tree_alias_partition
SELECT id AS partition FROM db.t WHERE id < 3
-- case: tree_alias_keywords
SELECT 1 AS year, 2 AS month, 3 AS history, 4 AS `order`
-- case: history_alias
SELECT h.id, h.what FROM db.history h
-- case: history_join
SELECT t.id FROM db.t t JOIN db.history h ON t.id = h.id
-- case: cte_multi
WITH a AS (SELECT id FROM db.t WHERE id < 4), b AS (SELECT id FROM a WHERE id > 1) SELECT id FROM b
-- case: cte_columns
WITH c(x, y) AS (SELECT id, s FROM db.t) SELECT x FROM c WHERE y = 'apple'
-- case: cte_shadows_table
WITH t AS (SELECT 42 AS id) SELECT id FROM t
-- case: cte_nested
WITH a AS (WITH b AS (SELECT 1 AS x) SELECT x + 1 AS y FROM b) SELECT y FROM a
-- case: subquery_from
SELECT s.n FROM (SELECT count(*) AS n FROM db.t) s
-- case: subquery_from_no_alias
SELECT * FROM (SELECT id FROM db.u WHERE id > 2)
-- case: tree_scalar_subquery
SELECT id, (SELECT max(id) FROM db.u) AS m FROM db.t WHERE id = 1
-- case: correlated_subquery
SELECT id, (SELECT max(name) FROM db.u u WHERE u.id = t.id) AS name FROM db.t t
-- case: not_exists_subquery
SELECT id FROM db.t t WHERE NOT EXISTS (SELECT 1 FROM db.u u WHERE u.id = t.id)
-- case: not_in_subquery_null
SELECT id FROM db.t WHERE i NOT IN (SELECT 20 UNION ALL SELECT NULL)
-- case: tree_union_distinct
SELECT grp FROM db.u UNION SELECT 'z'
-- case: union_all_count
SELECT count(*) AS n FROM (SELECT id FROM db.t UNION ALL SELECT id FROM db.u)
-- case: minus_rows
SELECT id FROM db.t MINUS SELECT id FROM db.u
-- case: intersect_precedence
SELECT id FROM db.u UNION SELECT id FROM db.t INTERSECT SELECT 3
-- case: union_order_limit ordered
SELECT id FROM db.t UNION SELECT id FROM db.u ORDER BY id DESC LIMIT 3
-- case: parenthesised_setop
(SELECT id FROM db.t WHERE id < 3) UNION ALL (SELECT id FROM db.u WHERE id > 3)
-- case: left_outer_join_rows
SELECT t.id, u.name FROM db.t t LEFT OUTER JOIN db.u u ON t.id = u.id
-- case: comma_join
SELECT count(*) AS n FROM db.t, db.u WHERE t.id = u.id
-- case: semi_join
SELECT id FROM db.u u LEFT SEMI JOIN db.t t ON u.id = t.id
-- case: anti_join
SELECT id FROM db.u u LEFT ANTI JOIN db.t t ON u.id = t.id
-- case: semi_join_where
SELECT id FROM db.t t LEFT SEMI JOIN db.u u ON t.id = u.id WHERE t.i > 10
-- case: semi_join_bare
SELECT id FROM db.t t SEMI JOIN db.u u ON t.id = u.id
-- case: anti_join_bare
SELECT id FROM db.t t ANTI JOIN db.u u ON t.id = u.id
-- case: semi_join_star
SELECT * FROM db.u u LEFT SEMI JOIN db.t t ON u.id = t.id
-- case: anti_join_no_match
SELECT id FROM db.u u LEFT ANTI JOIN db.t t ON u.grp = t.s
-- case: join_three
SELECT t.id, u.name, h.what FROM db.t t JOIN db.u u ON t.id = u.id LEFT JOIN db.history h ON h.id = t.id
-- case: join_parenthesised
SELECT count(*) AS n FROM (db.t t JOIN db.u u ON t.id = u.id)
-- case: self_join
SELECT a.id, b.id AS bid FROM db.u a JOIN db.u b ON a.id + 1 = b.id
-- case: natural_join
SELECT id, name FROM db.t NATURAL JOIN db.u
-- case: join_on_and
SELECT t.id FROM db.t t JOIN db.u u ON t.id = u.id AND u.grp = 'a'
-- case: tree_group_having
SELECT grp, count(*) AS n FROM db.u GROUP BY grp HAVING count(*) > 1
-- case: group_by_expr
SELECT i % 2 AS m, count(*) AS n FROM db.t WHERE i IS NOT NULL GROUP BY i % 2
-- case: tree_group_by_ordinal
SELECT grp, count(*) AS n FROM db.u GROUP BY 1
-- case: having_alias
SELECT grp AS g, count(*) AS n FROM db.u GROUP BY grp HAVING n > 1
-- case: count_distinct_expr
SELECT count(DISTINCT i % 3) AS n FROM db.t
-- case: count_distinct_two
SELECT count(DISTINCT grp, name) AS n FROM db.u
-- case: sum_case
SELECT sum(CASE WHEN b THEN 1 ELSE 0 END) AS n FROM db.t
-- case: order_by_expression ordered
SELECT id FROM db.t ORDER BY -id LIMIT 2
-- case: order_by_alias ordered
SELECT id AS k FROM db.t ORDER BY k DESC
-- case: limit_expression ordered
SELECT id FROM db.t ORDER BY id LIMIT 1 + 1
-- case: window_row_number ordered
SELECT id, row_number() OVER (ORDER BY id DESC) AS r FROM db.t ORDER BY id
-- case: window_rank_partition ordered
SELECT id, grp, rank() OVER (PARTITION BY grp ORDER BY id) AS r FROM db.u ORDER BY id
-- case: window_lag ordered
SELECT id, lag(id) OVER (ORDER BY id) AS p FROM db.u ORDER BY id
-- case: window_named ordered
SELECT id, dense_rank() OVER w AS r FROM db.u WINDOW w AS (ORDER BY grp) ORDER BY id
-- case: tree_window_count_partition ordered
SELECT id, count(*) OVER (PARTITION BY grp) AS c FROM db.u ORDER BY id
-- case: window_max_rows ordered
SELECT id, max(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m FROM db.u ORDER BY id
-- case: tree_case_simple
SELECT CASE 2 WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END AS a
-- case: case_null_condition
SELECT CASE WHEN CAST(NULL AS BOOLEAN) THEN 1 ELSE 2 END AS a
-- case: tree_case_no_else
SELECT CASE WHEN 1 = 2 THEN 1 END AS a
-- case: tree_case_column
SELECT id, CASE WHEN i > 15 THEN 'big' WHEN i > 0 THEN 'small' ELSE 'other' END AS k FROM db.t
-- case: precedence_arith
SELECT 1 + 2 * 3 AS a, (1 + 2) * 3 AS b, 10 - 2 - 3 AS c, 2 * 3 % 4 AS d
-- case: precedence_logic
SELECT true OR false AND false AS a, NOT true = false AS b
-- case: precedence_concat
SELECT 1 + 2 || 'x' AS a
-- case: precedence_bit_cmp
SELECT 1 | 2 = 3 AS a, 6 & 3 | 8 AS b
-- case: tree_unary_minus
SELECT -(-3) AS a, - 2 * 3 AS b, -i AS c FROM db.t WHERE id = 1
-- case: div_integral
SELECT 7 div 2 AS a, -7 div 2 AS b, 9 div 3 AS c
-- case: tree_div_by_zero
SELECT 1 / 0 AS a, 1 div 0 AS b
-- case: mod_negative
SELECT -7 % 3 AS a, 7 % -3 AS b
-- case: division_column
SELECT id, i / 4 AS q FROM db.t WHERE id < 3
-- case: like_any_column
SELECT s FROM db.t WHERE s LIKE ANY ('a%', 'B%')
-- case: like_all_column
SELECT s FROM db.t WHERE s LIKE ALL ('a%', '%e')
-- case: not_like_any_column
SELECT s FROM db.t WHERE s NOT LIKE ANY ('a%', '%e')
-- case: not_like_all_column
SELECT s FROM db.t WHERE s NOT LIKE ALL ('a%', '%e')
-- case: ilike_any_column
SELECT s FROM db.t WHERE s ILIKE ANY ('b%', 'C%')
-- case: like_some
SELECT 'abc' LIKE SOME ('x%', 'a%') AS a
-- case: rlike_anchors
SELECT s FROM db.t WHERE s RLIKE '^a.*e$'
-- case: regexp_operator
SELECT 'abc' REGEXP 'b' AS a
-- case: not_rlike
SELECT s FROM db.t WHERE NOT s RLIKE 'a'
-- case: like_underscore_column
SELECT s FROM db.t WHERE s LIKE '_pple'
-- case: not_ilike
SELECT s FROM db.t WHERE s NOT ILIKE 'A%'
-- case: in_list_null
SELECT 1 IN (2, NULL) AS a, 2 IN (2, NULL) AS b, 1 NOT IN (2, NULL) AS c
-- case: not_in_list
SELECT id FROM db.t WHERE i NOT IN (10, 20)
-- case: not_between
SELECT id FROM db.t WHERE i NOT BETWEEN 0 AND 15
-- case: between_strings
SELECT 'b' BETWEEN 'a' AND 'c' AS a
-- case: is_true
SELECT id FROM db.t WHERE b IS TRUE
-- case: is_not_false
SELECT id FROM db.t WHERE b IS NOT FALSE
-- case: is_distinct_from
SELECT id FROM db.t WHERE i IS DISTINCT FROM 20
-- case: is_not_distinct_null
SELECT NULL IS NOT DISTINCT FROM NULL AS a, 1 IS DISTINCT FROM NULL AS b
-- case: null_safe_equal_column
SELECT id FROM db.t WHERE i <=> NULL
-- case: double_equals
SELECT id FROM db.t WHERE i == 10
-- case: try_cast_values
SELECT try_cast('abc' AS INT) AS a, try_cast('12' AS BIGINT) AS b
-- case: cast_string_column
SELECT CAST(s AS INT) AS a FROM db.t WHERE id = 1
-- case: tree_cast_bool_int
SELECT CAST(b AS INT) AS a FROM db.t WHERE id = 1
-- case: typed_literals
SELECT DATE '2024-03-01' AS a, TIMESTAMP '2024-03-01 12:00:00' AS b
-- case: date_literal_compare
SELECT id FROM db.t WHERE dt > DATE'2024-01-01'
-- case: timestamp_literal_compare
SELECT id FROM db.t WHERE ts < TIMESTAMP'2000-01-01 00:00:00'
-- case: string_escapes
SELECT 'x\'y' AS a, 'it''s' AS b
-- case: unicode_escape
SELECT '\u00e9' AS a
-- case: adjacent_strings
SELECT 'a' 'b' 'c' AS a
-- case: double_suffix
SELECT 2D AS a, 1.25d * 2 AS b
-- case: long_suffix
SELECT 10L + 1 AS a
-- case: backtick_columns
SELECT `id` FROM db.t WHERE `s` = 'apple'
-- case: backtick_alias
SELECT id AS `my col` FROM db.t WHERE id = 1
-- case: values_query
VALUES (1, 'a'), (2, 'b')
-- case: values_from_alias
SELECT x + 1 AS y FROM VALUES (1), (2) AS v(x)
-- case: values_in_cte
WITH v(a, b) AS (VALUES (1, 2), (3, 4)) SELECT a + b AS s FROM v
-- case: table_statement
TABLE db.history
-- case: version_as_of_branch
SELECT count(*) AS n FROM db.t VERSION AS OF 'main'
-- case: nested_parens
SELECT ((1 + 2)) * (((3))) AS a
-- case: subquery_plus_one
SELECT (SELECT count(*) FROM db.u) + 1 AS a
-- case: exists_empty
SELECT EXISTS (SELECT 1 FROM db.e) AS a
-- case: tree_coalesce_column
SELECT coalesce(i, -1) AS a, nvl(NULL, 5) AS b FROM db.t WHERE id = 3
-- case: if_column
SELECT if(i > 10, 'y', 'n') AS a FROM db.t WHERE id = 2
-- case: trim_forms
SELECT trim('  x  ') AS a, trim(BOTH 'x' FROM 'xxaxx') AS b, trim(LEADING 'x' FROM 'xxa') AS c, trim(TRAILING 'x' FROM 'axx') AS d
-- case: position_in
SELECT position('b' IN 'abc') AS a
-- case: substring_from_for
SELECT substring('hello' FROM 2 FOR 3) AS a, substring('hello' FROM 3) AS b
-- case: extract_month_day
SELECT extract(MONTH FROM DATE'2024-02-29') AS a, extract(DAY FROM DATE'2024-02-29') AS b
-- case: current_date_niladic
SELECT current_date = current_date() AS a
-- case: bool_through_star
SELECT * FROM (SELECT id, i > 10 AS big FROM db.t WHERE id < 3)
-- case: where_or_and
SELECT id FROM db.t WHERE i = 10 OR i = 30 AND b
-- case: where_not_comparison
SELECT id FROM db.t WHERE NOT i > 15
-- case: select_without_from
SELECT 1 + 1 AS a, 'x' AS b
-- case: tree_array_index
SELECT arr[0] AS a FROM db.n WHERE id = 1
-- case: map_key
SELECT m['k'] AS a FROM db.n WHERE id = 1
-- case: concat_operator_null
SELECT 'a' || 'b' || NULL AS a
-- case: syntax_error_end
SELECT 1 +
-- case: syntax_error_where
SELECT * FROM db.t WHERE id =
