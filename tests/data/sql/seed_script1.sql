CREATE NAMESPACE IF NOT EXISTS ice.shop;
DROP TABLE IF EXISTS ice.shop.orders PURGE;
CREATE TABLE ice.shop.orders (
    order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2),
    status STRING, order_date DATE)
USING iceberg
PARTITIONED BY (order_date);
INSERT INTO ice.shop.orders VALUES (1001, 501, 120.50, 'PLACED', DATE '2026-09-20'),
  (1002, 502, 75.00, 'PLACED', DATE '2026-09-20');
INSERT INTO ice.shop.orders VALUES (1003, 503, 310.25, 'PLACED', DATE '2026-09-21');
SELECT snapshot_id FROM ice.shop.orders.snapshots ORDER BY committed_at;
SELECT snapshot_id FROM ice.shop.orders.refs WHERE name = 'main';
SELECT committed_at FROM ice.shop.orders.snapshots WHERE snapshot_id = 3657524344527679724;
SELECT count(*) FROM ice.shop.orders ;
SELECT count(*) FROM ice.shop.orders VERSION AS OF 3657524344527679724;
SELECT count(*) FROM ice.shop.orders TIMESTAMP AS OF '2026-09-20 22:04:11.532000';
SELECT snapshot_id, parent_id, operation,
       summary['added-records'] AS added, summary['total-records'] AS total
FROM ice.shop.orders.snapshots ORDER BY committed_at;
CALL ice.system.rollback_to_snapshot('shop.orders', 5270420720687731067);
SELECT made_current_at, snapshot_id, parent_id, is_current_ancestor
FROM ice.shop.orders.history ORDER BY made_current_at;
SELECT snapshot_id FROM ice.shop.orders.snapshots ORDER BY committed_at DESC LIMIT 1;
CALL ice.system.rollback_to_snapshot('shop.orders', 23499723825440384);
CALL ice.system.set_current_snapshot('shop.orders', 23499723825440384);
CALL ice.system.set_current_snapshot('shop.orders', 5270420720687731067);
SELECT count(*) FROM ice.shop.orders.files;
SELECT count(*) FROM ice.shop.orders.all_data_files;
SELECT count(*) FROM ice.shop.orders.metadata_log_entries;
DESCRIBE TABLE EXTENDED ice.shop.orders;
EXPLAIN SELECT * FROM ice.shop.orders WHERE order_date = DATE'2026-09-20';
EXPLAIN SELECT * FROM ice.shop.orders VERSION AS OF 3657524344527679724
        WHERE order_date = DATE'2026-09-20';
