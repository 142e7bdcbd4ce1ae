MERGE INTO s.m AS t USING (SELECT id, v, n FROM s.src WHERE op IN ('u', 'i')) s ON t.id = s.id
WHEN MATCHED AND s.op = 'd' THEN DELETE
WHEN MATCHED THEN UPDATE SET *
WHEN NOT MATCHED BY SOURCE AND t.id = 3 THEN DELETE
WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = 'stale'
WHEN NOT MATCHED BY TARGET THEN INSERT *;
MERGE INTO s.m.branch_audit t USING (VALUES (1, 'no', 0), (20, 'new', 2)) AS s(id, v, n) ON t.id = s.id
WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, lower(s.v));
DELETE FROM s.t WHERE id IN (SELECT id FROM s.gone);
UPDATE s.t AS x SET v = upper(v) || '!' WHERE EXISTS (SELECT 1 FROM s.gone g WHERE g.id + 1 = x.id) OR x.n * 2 = 80;
SELECT _file, _pos, id FROM s.t WHERE _pos < 10;
