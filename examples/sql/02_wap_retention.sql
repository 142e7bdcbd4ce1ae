-- Write-audit-publish and retention (shared/seeds/000, script 2, as far as
-- floe supports it today: DELETE/UPDATE and expire_snapshots arrive with
-- their issues; the incremental read is the incremental_append(...) TVF).
-- Run: floe sql --warehouse /tmp/demo -f examples/sql/02_wap_retention.sql

CREATE NAMESPACE IF NOT EXISTS shop;
DROP TABLE IF EXISTS shop.orders_wap PURGE;
CREATE TABLE shop.orders_wap (
    order_id BIGINT NOT NULL, customer_id BIGINT NOT NULL, amount DECIMAL(10,2) NOT NULL,
    status STRING NOT NULL, order_date DATE NOT NULL)
USING iceberg PARTITIONED BY (order_date);

INSERT INTO shop.orders_wap VALUES
    (1001, 501, 120.50, 'PLACED', DATE'2026-09-20'),
    (1002, 502, 75.00, 'PLACED', DATE'2026-09-20');
INSERT INTO shop.orders_wap VALUES (1003, 503, 310.25, 'PLACED', DATE'2026-09-21');

-- == 3. write-audit-publish ==
ALTER TABLE shop.orders_wap CREATE BRANCH audit;
INSERT INTO shop.orders_wap.branch_audit VALUES
    (1006, 506, 99.99, 'PLACED', DATE'2026-09-22'),
    (1007, 507, -5.00, 'PLACED', DATE'2026-09-22');
SELECT (SELECT count(*) FROM shop.orders_wap) AS main_rows,
       (SELECT count(*) FROM shop.orders_wap VERSION AS OF 'audit') AS audit_rows;
SELECT count(*) AS non_positive_amounts FROM shop.orders_wap VERSION AS OF 'audit'
WHERE amount <= 0;
CALL local.system.fast_forward('shop.orders_wap', 'main', 'audit');
SELECT count(*) AS main_rows_after_publish FROM shop.orders_wap;
ALTER TABLE shop.orders_wap DROP BRANCH audit;

-- == 4. retention: a tag keeps a snapshot alive ==
SET VAR month_end = (SELECT snapshot_id FROM shop.orders_wap.refs WHERE name = 'main');
ALTER TABLE shop.orders_wap CREATE TAG `close-2026-09` AS OF VERSION ${month_end} RETAIN 365 DAYS;
INSERT INTO shop.orders_wap VALUES (2000, 600, 10.00, 'PLACED', DATE'2026-10-01');
ALTER TABLE shop.orders_wap SET TBLPROPERTIES (
    'history.expire.max-snapshot-age-ms' = '1',
    'history.expire.min-snapshots-to-keep' = '2');
SELECT count(*) AS tag_rows FROM shop.orders_wap VERSION AS OF 'close-2026-09';
SELECT name, type FROM shop.orders_wap.refs ORDER BY name;

DROP TABLE shop.orders_wap PURGE;
