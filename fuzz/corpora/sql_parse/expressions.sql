WITH c AS (SELECT * FROM v) SELECT m['a']['b'], arr[0], partition.d, f.partition.x,
concat_ws('-', a, b), date_format(ts, 'yyyy-MM-dd'), CAST(x AS DECIMAL(10,2)), array(1, 2), map('k', 1),
a <=> b, TIMESTAMP '2026-09-20T01:02:03+02:00' FROM c JOIN read_parquet('/x.parquet', n => 1) r ON 1 = 1
WHERE d IN (SELECT d FROM t FOR SYSTEM_TIME AS OF '2026-01-01');
