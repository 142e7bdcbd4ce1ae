-- Tables of the differential corpus (tests/peers/test_sql_diff.py), written by floe.
CREATE NAMESPACE db;
CREATE TABLE db.t (id BIGINT, i INT, d DOUBLE, dec DECIMAL(10,2), s STRING, b BOOLEAN,
  dt DATE, ts TIMESTAMP) USING iceberg;
INSERT INTO db.t VALUES
  (1, 10, 1.5, '12.50', 'apple', true, DATE'2024-01-15', TIMESTAMP'2024-01-15 10:30:00+00:00'),
  (2, 20, -2.25, '-3.75', 'Banana', false, DATE'2024-02-29', TIMESTAMP'2024-02-29 23:59:59.5+00:00'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 20, 0.0, '0.00', 'cherry', true, DATE'2023-12-31', TIMESTAMP'2023-12-31 00:00:00+00:00'),
  (5, -5, 100.125, '999.99', 'apricot pie', false, DATE'2000-03-01', TIMESTAMP'2000-03-01 12:00:00.123456+00:00'),
  (6, 30, 3.0, '1.01', '', true, DATE'1999-12-31', TIMESTAMP'1999-12-31 23:00:00+00:00');
CREATE TABLE db.u (id BIGINT, name STRING, grp STRING) USING iceberg;
INSERT INTO db.u VALUES (1, 'one', 'a'), (2, 'two', 'a'), (4, 'four', 'b'), (7, 'seven', NULL);
CREATE TABLE db.n (id BIGINT, arr ARRAY<INT>, tags ARRAY<STRING>, m MAP<STRING,INT>,
  st STRUCT<x:INT,y:STRING>) USING iceberg;
INSERT INTO db.n VALUES
  (1, array(1, 2, 3), array('a', 'b'), map('k', 1, 'z', -1), named_struct('x', 1, 'y', 'one')),
  (2, array(), array('c'), map('k', 2), named_struct('x', 2, 'y', NULL)),
  (3, NULL, NULL, NULL, NULL);
CREATE TABLE db.w (id BIGINT, big DECIMAL(38,6), small DECIMAL(4,1), f FLOAT) USING iceberg;
INSERT INTO db.w VALUES (1, '12345.678901', '123.4', CAST(1.5 AS FLOAT)),
  (2, '-0.000001', '-0.5', CAST(-2.25 AS FLOAT)), (3, NULL, NULL, NULL);
CREATE TABLE db.e (id INT) USING iceberg;
CREATE TABLE db.history (id INT, what STRING) USING iceberg;
INSERT INTO db.history VALUES (1, 'written by floe');
