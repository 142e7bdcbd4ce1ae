-- Queries over tables: filters, aggregates, ordering, joins, subqueries, CTEs, windows.
-- case: select_star
SELECT * FROM db.t
-- case: select_cols
SELECT id, s FROM db.t
-- case: where_eq
SELECT id FROM db.t WHERE i = 20
-- case: where_null
SELECT id FROM db.t WHERE i IS NULL
-- case: where_bool_col
SELECT id FROM db.t WHERE b
-- case: where_not_bool
SELECT id FROM db.t WHERE NOT b
-- case: bool_column
SELECT id, b FROM db.t
-- case: bool_expr_column
SELECT id, i > 10 AS big FROM db.t
-- case: like_column
SELECT id FROM db.t WHERE s LIKE 'a%'
-- case: ilike_column
SELECT id FROM db.t WHERE s ILIKE 'b%'
-- case: in_column
SELECT id FROM db.t WHERE i IN (10, 30)
-- case: between_column
SELECT id FROM db.t WHERE d BETWEEN 0 AND 5
-- case: order_asc_nulls ordered
SELECT id, i FROM db.t ORDER BY i, id
-- case: order_desc_nulls ordered
SELECT id, i FROM db.t ORDER BY i DESC, id
-- case: order_nulls_last ordered
SELECT id, i FROM db.t ORDER BY i ASC NULLS LAST, id
-- case: order_desc_nulls_first ordered
SELECT id, i FROM db.t ORDER BY i DESC NULLS FIRST, id
-- case: order_string ordered
SELECT s FROM db.t ORDER BY s
-- case: order_limit ordered
SELECT id FROM db.t ORDER BY id DESC LIMIT 2
-- case: order_offset ordered
SELECT id FROM db.t ORDER BY id LIMIT 2 OFFSET 1
-- case: order_by_ordinal ordered
SELECT id, s FROM db.t ORDER BY 1 DESC
-- case: count_star
SELECT count(*) AS n FROM db.t
-- case: count_col
SELECT count(i) AS n, count(DISTINCT i) AS d FROM db.t
-- case: sum_int
SELECT sum(i) AS s FROM db.t
-- case: sum_decimal
SELECT sum(dec) AS s FROM db.t
-- case: avg_int
SELECT avg(i) AS a FROM db.t
-- case: avg_decimal
SELECT avg(dec) AS a FROM db.t
-- case: min_max
SELECT min(i) AS a, max(i) AS b, min(s) AS c, max(dt) AS d FROM db.t
-- case: sum_double
SELECT sum(d) AS s FROM db.t
-- case: group_by
SELECT i, count(*) AS n FROM db.t GROUP BY i
-- case: group_having
SELECT i, count(*) AS n FROM db.t GROUP BY i HAVING count(*) > 1
-- case: group_by_bool
SELECT b, count(*) AS n FROM db.t GROUP BY b
-- case: count_distinct_multi
SELECT count(DISTINCT i, b) AS n FROM db.t
-- case: agg_empty
SELECT count(*) AS n, sum(i) AS s, max(i) AS m FROM db.t WHERE id > 100
-- case: agg_filter
SELECT count(*) FILTER (WHERE i > 10) AS n FROM db.t
-- case: distinct
SELECT DISTINCT i FROM db.t
-- case: collect_list_size
SELECT size(collect_list(i)) AS n FROM db.t
-- case: bool_and_or_agg
SELECT bool_and(b) AS a, bool_or(b) AS o FROM db.t
-- case: any_agg
SELECT any(b) AS a, every(b) AS e, some(b) AS s FROM db.t
-- case: stddev
SELECT round(stddev(i), 4) AS a, round(variance(i), 4) AS b FROM db.t
-- case: first_last
SELECT first(id) AS a, last(id) AS b FROM (SELECT id FROM db.t ORDER BY id)
-- case: count_if
SELECT count_if(i > 10) AS n FROM db.t
-- case: stddev_one_value
SELECT stddev(i) AS a, stddev_pop(i) AS b, var_samp(i) AS c, var_pop(i) AS d FROM db.t WHERE id = 1
-- case: stddev_pop
SELECT round(stddev_pop(i), 4) AS a, var_pop(i) AS b, round(stddev_samp(d), 4) AS c FROM db.t
-- case: first_last_nulls
SELECT first(i) AS a, first(i, true) AS b, last(s) AS c FROM (SELECT id, i, s FROM db.t WHERE id >= 3 ORDER BY id)
-- case: agg_empty_more
SELECT count_if(i > 100) AS n, max_by(id, i) AS m, percentile(i, 0.5) AS p, stddev(i) AS s, approx_count_distinct(i) AS c FROM db.t WHERE id > 100
-- case: max_by_group
SELECT grp, max_by(name, id) AS a, min_by(name, id) AS b FROM db.u GROUP BY grp
-- case: percentile_interp
SELECT percentile(i, 0.3) AS p, percentile(id, 0) AS q, percentile(id, 1) AS r FROM db.t
-- case: approx_count_distinct_str
SELECT approx_count_distinct(grp) AS n FROM db.u
-- case: inner_join
SELECT t.id, u.name FROM db.t t JOIN db.u u ON t.id = u.id
-- case: left_join
SELECT t.id, u.name FROM db.t t LEFT JOIN db.u u ON t.id = u.id
-- case: right_join
SELECT t.id, u.name FROM db.t t RIGHT JOIN db.u u ON t.id = u.id
-- case: full_join
SELECT t.id AS a, u.id AS b FROM db.t t FULL OUTER JOIN db.u u ON t.id = u.id
-- case: right_join_where
SELECT t.id, u.name FROM db.t t RIGHT JOIN db.u u ON t.id = u.id WHERE u.id > 1
-- case: right_join_on_filter
SELECT u.grp, count(t.id) AS n FROM db.t t RIGHT JOIN db.u u ON t.id = u.id AND t.i > 10 GROUP BY u.grp
-- case: full_join_using
SELECT id, name, s FROM db.u FULL JOIN db.t USING (id)
-- case: cross_join_count
SELECT count(*) AS n FROM db.t CROSS JOIN db.u
-- case: join_using
SELECT id, name FROM db.t JOIN db.u USING (id)
-- case: left_semi
SELECT id FROM db.t LEFT SEMI JOIN db.u ON t.id = u.id
-- case: left_anti
SELECT id FROM db.t LEFT ANTI JOIN db.u ON t.id = u.id
-- case: in_subquery
SELECT id FROM db.t WHERE id IN (SELECT id FROM db.u)
-- case: not_in_subquery
SELECT id FROM db.t WHERE id NOT IN (SELECT id FROM db.u)
-- case: exists_subquery
SELECT id FROM db.t t WHERE EXISTS (SELECT 1 FROM db.u u WHERE u.id = t.id)
-- case: scalar_subquery
SELECT id, (SELECT max(id) FROM db.u) AS m FROM db.t WHERE id < 3
-- case: from_subquery
SELECT x FROM (SELECT id * 2 AS x FROM db.t) q WHERE x > 6
-- case: cte
WITH c AS (SELECT id FROM db.t WHERE id > 3) SELECT count(*) AS n FROM c
-- case: cte_two
WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT y FROM b
-- case: cte_named_year
WITH year AS (SELECT 2024 AS y) SELECT y FROM year
-- case: cte_named_month
WITH month AS (SELECT 1 AS m) SELECT m FROM month
-- case: alias_partition
SELECT id AS partition FROM db.u
-- case: alias_keywords
SELECT 1 AS year, 2 AS `order`, 3 AS value
-- case: union_all
SELECT id FROM db.t WHERE id < 3 UNION ALL SELECT id FROM db.u
-- case: union_distinct
SELECT id FROM db.t UNION SELECT id FROM db.u
-- case: intersect
SELECT id FROM db.t INTERSECT SELECT id FROM db.u
-- case: except
SELECT id FROM db.t EXCEPT SELECT id FROM db.u
-- case: row_number ordered
SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM db.t ORDER BY id
-- case: rank_partition
SELECT id, rank() OVER (PARTITION BY i ORDER BY id) AS r FROM db.t
-- case: dense_rank
SELECT id, dense_rank() OVER (ORDER BY i) AS r FROM db.t
-- case: running_sum ordered
SELECT id, sum(id) OVER (ORDER BY id) AS s FROM db.t ORDER BY id
-- case: window_count_partition
SELECT id, count(*) OVER (PARTITION BY b) AS n FROM db.t
-- case: lag_lead ordered
SELECT id, lag(id) OVER (ORDER BY id) AS p, lead(id, 2) OVER (ORDER BY id) AS n FROM db.t ORDER BY id
-- case: window_frame ordered
SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s FROM db.t ORDER BY id
-- case: window_frame_following ordered
SELECT id, sum(i) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS s FROM db.t ORDER BY id
-- case: window_frame_empty ordered
SELECT id, sum(i) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS s FROM db.t ORDER BY id
-- case: window_sum_partition ordered
SELECT id, sum(i) OVER (PARTITION BY b ORDER BY id) AS s FROM db.t ORDER BY id
-- case: window_sum_range ordered
SELECT id, sum(id) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM db.t ORDER BY id
-- case: window_sum_decimal ordered
SELECT id, sum(dec) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM db.t ORDER BY id
-- case: window_sum_wide ordered
SELECT id, sum(big) OVER (ORDER BY id ROWS 1 PRECEDING) AS s FROM db.w ORDER BY id
-- case: ntile ordered
SELECT id, ntile(2) OVER (ORDER BY id) AS t FROM db.t ORDER BY id
-- case: case_column
SELECT id, CASE WHEN i > 15 THEN 'big' WHEN i IS NULL THEN 'none' ELSE 'small' END AS c FROM db.t
-- case: coalesce_column
SELECT id, coalesce(s, 'none') AS s FROM db.t
-- case: arith_columns
SELECT id, i * 2 AS a, i / 4 AS b FROM db.t
-- case: int_col_division
SELECT id, i / 3 AS q FROM db.t WHERE i IS NOT NULL
-- case: decimal_column_arith
SELECT id, dec * 2 AS a FROM db.t
-- case: decimal_column_add
SELECT id, dec + 1 AS a FROM db.t
-- case: string_fn_column
SELECT id, upper(s) AS u, length(s) AS l FROM db.t
-- case: table_stmt
TABLE db.u
-- case: group_decimal_scale
SELECT k, sum(x) AS s, min(x) AS lo, max(x) AS hi, avg(x) AS a FROM VALUES (1, CAST(5.00 AS DECIMAL(10,2))), (1, CAST(3.00 AS DECIMAL(10,2))), (2, CAST(1.50 AS DECIMAL(10,2))), (2, CAST(2.50 AS DECIMAL(10,2))) AS v(k, x) GROUP BY k ORDER BY k
-- case: decimal_division_sum_scale
SELECT sum((id % 100) / 100.0) AS s FROM range(1000)
-- case: group_decimal_division_scale
SELECT k, sum((id % 100) / 100.0) AS s FROM (SELECT id, id % 2 AS k FROM range(1000)) GROUP BY k ORDER BY k
-- case: group_by_alias
SELECT i AS k, count(*) AS n FROM db.t GROUP BY k
-- case: group_by_ordinal
SELECT i, count(*) AS n FROM db.t GROUP BY 1
-- case: limit_only
SELECT count(*) AS n FROM (SELECT id FROM db.t LIMIT 3)
-- case: qualified_star
SELECT u.* FROM db.u u WHERE id = 1
-- case: column_case_insensitive
SELECT ID, S FROM db.t WHERE Id = 1
-- case: ambiguous_column
SELECT id FROM db.t JOIN db.u ON t.id = u.id
-- case: unknown_column
SELECT nope FROM db.t
-- case: unknown_table
SELECT * FROM db.nope
-- case: syntax_error
SELECT FROM WHERE
-- case: range_tvf
SELECT * FROM range(3)
-- case: range_tvf_start_end
SELECT * FROM range(2, 5)
-- case: range_tvf_step
SELECT id FROM range(0, 10, 3)
-- case: range_count
SELECT count(*) AS n FROM range(100)
-- case: nulls_in_group_order ordered
SELECT s FROM db.t ORDER BY s DESC
-- case: having_no_group
SELECT count(*) AS n FROM db.t HAVING count(*) > 2
-- case: max_by_min_by
SELECT max_by(id, i) AS a, min_by(id, i) AS b FROM db.t
-- case: percentile
SELECT percentile(i, 0.5) AS p FROM db.t
-- case: approx_count_distinct
SELECT approx_count_distinct(i) AS n FROM db.t
-- case: float_column
SELECT id, f FROM db.w
-- case: wide_decimal_column
SELECT id, big, small FROM db.w
-- case: wide_decimal_sum
SELECT sum(big) AS s, sum(small) AS t FROM db.w
-- case: wide_decimal_compare
SELECT id FROM db.w WHERE big > 0
-- case: range_negative_step
SELECT id FROM range(5, 0, -2)
-- case: range_alias_join
SELECT u.id, r.id AS r FROM db.u u JOIN range(3) AS r ON u.id = r.id + 1
-- case: range_where
SELECT sum(id) AS s FROM range(1, 101) WHERE id % 2 = 0
-- case: avg_decimal_wide
SELECT avg(big) AS a, avg(small) AS b FROM db.w
-- case: decimal_column_wide ordered
SELECT id, big * 2 AS a, big + small AS b, small / 3 AS c FROM db.w ORDER BY id
-- case: typeof_columns
SELECT typeof(dec * dec) AS a, typeof(dec / 3) AS b, typeof(i + 1) AS c, typeof(round(dec, 1)) AS d FROM db.t WHERE id = 1
-- case: cast_bool_column ordered
SELECT id, CAST(b AS STRING) AS s FROM db.t ORDER BY id
-- case: int_column_wrap ordered
SELECT id, i * 2147483647 AS a FROM db.t ORDER BY id
-- case: decimal_subquery_scale
SELECT x, x + 1 AS y FROM (SELECT 12.50 AS x) q
