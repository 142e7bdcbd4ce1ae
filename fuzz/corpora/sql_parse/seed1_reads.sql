SELECT count(*) FROM ice.shop.orders ;
SELECT count(*) FROM ice.shop.orders VERSION AS OF 3657524344527679724;
SELECT count(*) FROM ice.shop.orders TIMESTAMP AS OF '2026-09-20 22:04:11.532000';
SELECT snapshot_id, parent_id, operation,
       summary['added-records'] AS added, summary['total-records'] AS total
FROM ice.shop.orders.snapshots ORDER BY committed_at;
SELECT made_current_at, snapshot_id, parent_id, is_current_ancestor
FROM ice.shop.orders.history ORDER BY made_current_at;
SELECT snapshot_id FROM ice.shop.orders.refs WHERE name = 'main';
SELECT count(*) FROM ice.shop.orders.files;
SELECT count(*) FROM ice.shop.orders.all_data_files;
SELECT count(*) FROM ice.shop.orders.metadata_log_entries;
DESCRIBE TABLE EXTENDED ice.shop.orders;
