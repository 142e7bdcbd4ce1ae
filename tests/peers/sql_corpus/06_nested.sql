-- Arrays, maps, structs; explode, sequence.
-- case: array_literal
SELECT array(1, 2, 3) AS a
-- case: array_empty
SELECT size(array()) AS a
-- case: array_index
SELECT array(10, 20, 30)[1] AS a
-- case: array_index_out
SELECT array(10, 20)[5] AS a
-- case: element_at
SELECT element_at(array(10, 20, 30), 1) AS a, element_at(array(10, 20, 30), -1) AS b
-- case: element_at_map
SELECT element_at(map('a', 1, 'b', 2), 'b') AS a
-- case: size
SELECT size(array(1, 2)) AS a, cardinality(array(1)) AS b
-- case: size_null
SELECT size(NULL) AS a
-- case: array_contains
SELECT array_contains(array(1, 2, 3), 2) AS a, array_contains(array(1, 2), 5) AS b
-- case: array_contains_null_arr
SELECT array_contains(CAST(NULL AS ARRAY<INT>), 1) AS a
-- case: map_literal
SELECT map('a', 1) AS m
-- case: map_access
SELECT map('a', 1, 'b', 2)['b'] AS a
-- case: map_keys_values
SELECT map_keys(map('a', 1, 'b', 2)) AS k, map_values(map('a', 1, 'b', 2)) AS v
-- case: struct_literal
SELECT named_struct('x', 1, 'y', 'a') AS s
-- case: struct_field
SELECT named_struct('x', 1, 'y', 'a').y AS a
-- case: array_column
SELECT id, arr FROM db.n
-- case: array_column_size
SELECT id, size(arr) AS n FROM db.n
-- case: array_column_index
SELECT id, arr[0] AS a FROM db.n
-- case: array_column_contains
SELECT id FROM db.n WHERE array_contains(tags, 'a')
-- case: map_column_access
SELECT id, m['k'] AS k FROM db.n
-- case: struct_column_field
SELECT id, st.x AS x, st.y AS y FROM db.n
-- case: struct_column
SELECT id, st FROM db.n
-- case: map_column
SELECT id, m FROM db.n
-- case: explode_array
SELECT explode(array(1, 2, 3)) AS x
-- case: explode_column
SELECT id, explode(arr) AS x FROM db.n
-- case: explode_lateral
SELECT id, x FROM db.n LATERAL VIEW explode(arr) e AS x
-- case: explode_map
SELECT explode(map('a', 1, 'b', 2))
-- case: posexplode
SELECT posexplode(array('a', 'b'))
-- case: sequence
SELECT sequence(1, 5) AS s
-- case: sequence_step
SELECT sequence(1, 10, 3) AS s
-- case: explode_sequence
SELECT explode(sequence(1, 3)) AS x
-- case: array_join
SELECT array_join(array('a', 'b', 'c'), '-') AS a
-- case: array_distinct
SELECT array_distinct(array(1, 1, 2)) AS a
-- case: array_sort
SELECT array_sort(array(3, 1, 2)) AS a
-- case: sort_array_desc
SELECT sort_array(array(3, 1, 2), false) AS a
-- case: array_max_min
SELECT array_max(array(3, 1, 2)) AS a, array_min(array(3, 1, 2)) AS b
-- case: array_position
SELECT array_position(array(3, 1, 2), 1) AS a
-- case: array_union
SELECT array_union(array(1, 2), array(2, 3)) AS a
-- case: array_except
SELECT array_except(array(1, 2, 3), array(2)) AS a
-- case: array_remove
SELECT array_remove(array(1, 2, 1), 1) AS a
-- case: slice
SELECT slice(array(1, 2, 3, 4), 2, 2) AS a
-- case: flatten
SELECT flatten(array(array(1, 2), array(3))) AS a
-- case: arrays_zip_size
SELECT size(arrays_zip(array(1, 2), array('a', 'b'))) AS a
-- case: transform_lambda
SELECT transform(array(1, 2, 3), x -> x * 2) AS a
-- case: filter_lambda
SELECT filter(array(1, 2, 3), x -> x > 1) AS a
-- case: aggregate_lambda
SELECT aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x) AS a
-- case: exists_lambda
SELECT exists(array(1, 2, 3), x -> x > 2) AS a
-- case: collect_set_size
SELECT size(collect_set(i)) AS n FROM db.t
-- case: struct_null_field
SELECT id, st.y IS NULL AS n FROM db.n
-- case: to_json_struct
SELECT to_json(named_struct('a', 1, 'b', 'x')) AS j
-- case: from_json_field
SELECT from_json('{"a":1}', 'a INT').a AS a
-- case: array_nested_print
SELECT array(array(1), array(2, 3)) AS a
-- case: array_strings_print
SELECT array('a', 'b') AS a
-- case: array_null_elem
SELECT array(1, NULL) AS a
-- case: sequence_desc_size
SELECT size(sequence(5, 1)) AS n, sequence(5, 1)[0] AS f
-- case: sequence_contains
SELECT array_contains(sequence(1, 10, 2), 7) AS a
