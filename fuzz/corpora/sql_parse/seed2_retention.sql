ALTER TABLE ice.shop.orders_wap CREATE TAG `close-2026-09` AS OF VERSION 7848268967418525682 RETAIN 365 DAYS;
CALL ice.system.expire_snapshots(table => 'shop.orders_wap');
ALTER TABLE ice.shop.orders_wap SET TBLPROPERTIES (
        'history.expire.max-snapshot-age-ms' = '1',
        'history.expire.min-snapshots-to-keep' = '2');
SELECT s.snapshot_id, r.name AS ref
        FROM ice.shop.orders_wap.snapshots s LEFT JOIN ice.shop.orders_wap.refs r ON s.snapshot_id = r.snapshot_id
        ORDER BY s.committed_at;
DROP TABLE ice.shop.orders_wap PURGE;
