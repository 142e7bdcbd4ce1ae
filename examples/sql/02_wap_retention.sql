-- Incremental reads, write-audit-publish and retention (shared/seeds/000,
-- script 2). Spark's DataFrame reads become SQL: the incremental read with
-- start-snapshot-id / end-snapshot-id is incremental_append(...) in mode
-- 'append-only' (Spark's append scan: it skips deletes and overwrites
-- silently), and step 2's writeTo(...).option("branch") trap, which lands
-- the row on main, is written as the plain INSERT it turns into.
-- Run: floe sql --warehouse /tmp/demo -f examples/sql/02_wap_retention.sql

CREATE NAMESPACE IF NOT EXISTS shop;
DROP TABLE IF EXISTS shop.orders_wap PURGE;
CREATE TABLE shop.orders_wap (
    order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2),
    status STRING, order_date DATE)
USING iceberg PARTITIONED BY (order_date);

INSERT INTO shop.orders_wap VALUES
    (1001, 501, 120.50, 'PLACED', DATE'2026-09-20'),
    (1002, 502, 75.00, 'PLACED', DATE'2026-09-20');
-- what a downstream job stored after its last run
SET VAR watermark = (SELECT snapshot_id FROM shop.orders_wap.refs WHERE name = 'main');

-- == 1. incremental reads ==
INSERT INTO shop.orders_wap VALUES (1003, 503, 310.25, 'PLACED', DATE'2026-09-21');
INSERT INTO shop.orders_wap VALUES (1004, 504, 42.00, 'PLACED', DATE'2026-09-21');
SET VAR now = (SELECT snapshot_id FROM shop.orders_wap.refs WHERE name = 'main');
SELECT order_id AS appended_since_watermark
FROM incremental_append('shop.orders_wap', ${watermark}, ${now}, 'append-only') ORDER BY order_id;
DELETE FROM shop.orders_wap WHERE order_id = 1004;
UPDATE shop.orders_wap SET status = 'SHIPPED' WHERE order_id = 1001;
SET VAR after = (SELECT snapshot_id FROM shop.orders_wap.refs WHERE name = 'main');
SELECT snapshot_id, operation FROM shop.orders_wap.snapshots ORDER BY committed_at DESC LIMIT 2;
SELECT count(*) AS incremental_rows_across_delete_and_update
FROM incremental_append('shop.orders_wap', ${now}, ${after}, 'append-only');
-- what the append scan does not show (floe's strict default refuses the range):
SELECT order_id, status, _change_type FROM table_changes('shop.orders_wap', ${now}, ${after})
ORDER BY _change_ordinal, order_id, _change_type;

-- == 2. the branch write that lands on main ==
ALTER TABLE shop.orders_wap CREATE BRANCH audit;
INSERT INTO shop.orders_wap VALUES (1005, 505, 18.00, 'PLACED', DATE'2026-09-22');
SELECT (SELECT count(*) FROM shop.orders_wap) AS main_rows,
       (SELECT count(*) FROM shop.orders_wap VERSION AS OF 'audit') AS audit_rows;
ALTER TABLE shop.orders_wap DROP BRANCH audit;
DELETE FROM shop.orders_wap WHERE order_id = 1005;

-- == 3. write-audit-publish ==
ALTER TABLE shop.orders_wap CREATE BRANCH audit;
INSERT INTO shop.orders_wap.branch_audit VALUES
    (1006, 506, 99.99, 'PLACED', DATE'2026-09-22'),
    (1007, 507, -5.00, 'PLACED', DATE'2026-09-22');
SELECT (SELECT count(*) FROM shop.orders_wap) AS main_rows,
       (SELECT count(*) FROM shop.orders_wap VERSION AS OF 'audit') AS audit_rows;
SELECT count(*) AS non_positive_amounts FROM shop.orders_wap VERSION AS OF 'audit'
WHERE amount <= 0;
DELETE FROM shop.orders_wap.branch_audit WHERE amount <= 0;
SELECT count(*) AS audit_rows_after_fix FROM shop.orders_wap VERSION AS OF 'audit';
CALL local.system.fast_forward('shop.orders_wap', 'main', 'audit');
SELECT count(*) AS main_rows_after_publish FROM shop.orders_wap;
ALTER TABLE shop.orders_wap DROP BRANCH audit;

-- == 4. retention: a tag keeps a snapshot alive ==
SET VAR month_end = (SELECT snapshot_id FROM shop.orders_wap.refs WHERE name = 'main');
ALTER TABLE shop.orders_wap CREATE TAG `close-2026-09` AS OF VERSION ${month_end} RETAIN 365 DAYS;
INSERT INTO shop.orders_wap VALUES (2000, 600, 10.00, 'PLACED', DATE'2026-10-01');
INSERT INTO shop.orders_wap VALUES (2001, 601, 10.00, 'PLACED', DATE'2026-10-01');
INSERT INTO shop.orders_wap VALUES (2002, 602, 10.00, 'PLACED', DATE'2026-10-01');
SET VAR oldest = (SELECT snapshot_id FROM shop.orders_wap.history ORDER BY made_current_at LIMIT 1);
SELECT count(*) AS snapshots_before_expiry FROM shop.orders_wap.snapshots;
-- expire with the defaults (nothing is 5 days old yet)
CALL local.system.expire_snapshots(table => 'shop.orders_wap');
ALTER TABLE shop.orders_wap SET TBLPROPERTIES (
    'history.expire.max-snapshot-age-ms' = '1',
    'history.expire.min-snapshots-to-keep' = '2');
-- expire with max age 1 ms, keep at least 2
CALL local.system.expire_snapshots(table => 'shop.orders_wap');
SELECT s.snapshot_id, r.name AS ref
FROM shop.orders_wap.snapshots s LEFT JOIN shop.orders_wap.refs r ON s.snapshot_id = r.snapshot_id
ORDER BY s.committed_at;
SELECT count(*) AS tag_rows FROM shop.orders_wap VERSION AS OF 'close-2026-09';
-- the oldest snapshot is gone:
--   IllegalArgumentException: Cannot find snapshot with ID <oldest>
SET floe.continue-on-error = true;
SELECT count(*) FROM shop.orders_wap VERSION AS OF ${oldest};
RESET floe.continue-on-error;

DROP TABLE shop.orders_wap PURGE;
