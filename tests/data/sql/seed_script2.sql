DROP TABLE IF EXISTS ice.shop.orders_wap PURGE;
DELETE FROM ice.shop.orders_wap WHERE order_id = 1004;
UPDATE ice.shop.orders_wap SET status = 'SHIPPED' WHERE order_id = 1001;
SELECT snapshot_id, operation FROM ice.shop.orders_wap.snapshots
        ORDER BY committed_at DESC LIMIT 2;
ALTER TABLE ice.shop.orders_wap CREATE BRANCH audit;
SELECT count(*) FROM ice.shop.orders_wap VERSION AS OF 'audit';
ALTER TABLE ice.shop.orders_wap DROP BRANCH audit;
INSERT INTO ice.shop.orders_wap.branch_audit VALUES
  (1006, 506, 99.99, 'PLACED', DATE '2026-09-22'), (1007, 507, -5.00, 'PLACED', DATE '2026-09-22');
SELECT count(*) FROM ice.shop.orders_wap VERSION AS OF 'audit' WHERE amount <= 0;
DELETE FROM ice.shop.orders_wap.branch_audit WHERE amount <= 0;
CALL ice.system.fast_forward('shop.orders_wap', 'main', 'audit');
ALTER TABLE ice.shop.orders_wap CREATE TAG `close-2026-09` AS OF VERSION 7848268967418525682 RETAIN 365 DAYS;
SELECT snapshot_id FROM ice.shop.orders_wap.history ORDER BY made_current_at LIMIT 1;
SELECT count(*) FROM ice.shop.orders_wap.snapshots;
CALL ice.system.expire_snapshots(table => 'shop.orders_wap');
ALTER TABLE ice.shop.orders_wap SET TBLPROPERTIES (
        'history.expire.max-snapshot-age-ms' = '1',
        'history.expire.min-snapshots-to-keep' = '2');
SELECT s.snapshot_id, r.name AS ref
        FROM ice.shop.orders_wap.snapshots s LEFT JOIN ice.shop.orders_wap.refs r ON s.snapshot_id = r.snapshot_id
        ORDER BY s.committed_at;
SELECT count(*) FROM ice.shop.orders_wap VERSION AS OF 'close-2026-09';
SELECT count(*) FROM ice.shop.orders_wap VERSION AS OF 9433222583856300;
SELECT (SELECT sum(file_size_in_bytes) FROM ice.shop.orders.all_data_files)
     - (SELECT sum(file_size_in_bytes) FROM ice.shop.orders.files)
       AS bytes_held_only_by_old_snapshots;
DROP TABLE ice.shop.orders_wap PURGE;
