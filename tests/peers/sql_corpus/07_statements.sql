-- Statements other than queries.
-- case: show_namespaces
SHOW NAMESPACES
-- case: show_tables
SHOW TABLES IN db
-- case: show_tables_like
SHOW TABLES IN db LIKE 'u*'
-- case: show_tables_like_alternatives
SHOW TABLES IN db LIKE 'nope*|HIST*| e '
-- case: show_tables_like_regex
SHOW TABLES IN db LIKE 'h.st[o]ry|  '
-- case: show_tblproperties_key
SHOW TBLPROPERTIES db.u ('format-version')
-- case: describe_cols
DESCRIBE db.u
-- case: show_columns
SHOW COLUMNS IN db.u
-- case: snapshots_count
SELECT count(*) AS n FROM db.u.snapshots
-- case: history_count
SELECT count(*) AS n FROM db.u.history
-- case: files_count
SELECT count(*) AS n FROM db.t.files
-- case: refs
SELECT name, type FROM db.u.refs
-- case: timestamp_as_of_expr
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF current_timestamp() + INTERVAL 1 DAY
-- case: timestamp_as_of_past
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF current_timestamp() - INTERVAL 1000 DAYS
-- case: timestamp_as_of_date_fn
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF date_add(current_date(), 1)
-- case: timestamp_as_of_cast
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF cast('2999-01-01' as timestamp)
-- case: timestamp_as_of_seconds
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF 32503680000
-- case: timestamp_as_of_seconds_past
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF 1
-- case: timestamp_as_of_month
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF now() + INTERVAL 1 MONTH
-- case: timestamp_as_of_string_expr
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF concat('2999', '-01-01')
-- case: timestamp_as_of_column
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF id
-- case: timestamp_as_of_rand
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF rand()
-- case: timestamp_as_of_bad_input
SELECT count(*) AS n FROM db.u TIMESTAMP AS OF 'garbage'
-- case: show_tblproperties_all
SHOW TBLPROPERTIES db.t
-- case: show_tblproperties_missing
SHOW TBLPROPERTIES db.t ('nope')
-- case: show_tblproperties_version
SHOW TBLPROPERTIES db.w ('format-version')
-- case: show_tblproperties_empty_table
SHOW TBLPROPERTIES db.e
-- case: empty_table_count
SELECT count(*) AS n FROM db.e
-- case: table_named_history
SELECT * FROM db.history
-- case: metadata_history_still
SELECT count(*) AS n FROM db.t.history
