-- Time travel and rollback on an Iceberg orders table
-- (shared/seeds/000, script 1, translated to floe SQL).
-- Run: floe sql --warehouse /tmp/demo -f examples/sql/01_time_travel_rollback.sql
-- Snapshot ids are random: the script keeps them in variables (SET VAR).

CREATE NAMESPACE IF NOT EXISTS shop;
DROP TABLE IF EXISTS shop.orders PURGE;
CREATE TABLE shop.orders (
    order_id BIGINT NOT NULL, customer_id BIGINT NOT NULL, amount DECIMAL(10,2) NOT NULL,
    status STRING NOT NULL, order_date DATE NOT NULL)
USING iceberg
PARTITIONED BY (order_date);

-- Two good nightly loads
INSERT INTO shop.orders VALUES
    (1001, 501, 120.50, 'PLACED', DATE'2026-09-20'),
    (1002, 502, 75.00, 'PLACED', DATE'2026-09-20');
INSERT INTO shop.orders VALUES (1003, 503, 310.25, 'PLACED', DATE'2026-09-21');
SET VAR good_1 = (SELECT snapshot_id FROM shop.orders.snapshots ORDER BY committed_at LIMIT 1);
SET VAR good_2 = (SELECT snapshot_id FROM shop.orders.refs WHERE name = 'main');
SET VAR good_1_ts = (SELECT committed_at FROM shop.orders.snapshots WHERE snapshot_id = ${good_1});

-- == 1. time travel ==
SELECT count(*) AS current_rows FROM shop.orders;
SELECT count(*) AS version_as_of_first FROM shop.orders VERSION AS OF ${good_1};
SELECT count(*) AS timestamp_as_of_its_commit FROM shop.orders TIMESTAMP AS OF '${good_1_ts}';

-- A bad load: a replayed order and a negative amount
INSERT INTO shop.orders VALUES
    (1003, 503, 310.25, 'PLACED', DATE'2026-09-21'),
    (1004, 504, -1.00, 'PLACED', DATE'2026-09-21');
SET VAR bad = (SELECT snapshot_id FROM shop.orders.refs WHERE name = 'main');
SET VAR bad_ts = (SELECT committed_at FROM shop.orders.snapshots WHERE snapshot_id = ${bad});

-- == 2. the bad write ==
SELECT count(*) AS rows_after_bad_load FROM shop.orders;
SELECT snapshot_id, parent_id, operation,
       summary['added-records'] AS added, summary['total-records'] AS total
FROM shop.orders.snapshots ORDER BY committed_at;

-- == 3. rollback ==
CALL local.system.rollback_to_snapshot('shop.orders', ${good_2});
SELECT count(*) AS rows_after_rollback FROM shop.orders;
SELECT made_current_at, snapshot_id, parent_id, is_current_ancestor
FROM shop.orders.history ORDER BY made_current_at;
SELECT snapshot_id AS newest_by_committed_at FROM shop.orders.snapshots
ORDER BY committed_at DESC LIMIT 1;
SELECT snapshot_id AS main_points_at FROM shop.orders.refs WHERE name = 'main';
SELECT count(*) AS timestamp_as_of_bad_commit FROM shop.orders TIMESTAMP AS OF '${bad_ts}';

-- == 4. going forward again ==
-- rollback_to_snapshot only moves to an ancestor: this one fails with
--   ValidationException: Cannot roll back to snapshot, not an ancestor of the current state: <bad>
-- (run it by hand; a script stops at its first error)
CALL local.system.set_current_snapshot('shop.orders', ${bad});
SELECT count(*) AS set_current_to_bad FROM shop.orders;
CALL local.system.set_current_snapshot('shop.orders', ${good_2});
SELECT count(*) AS set_current_to_good FROM shop.orders;

-- == 5. files ==
SELECT count(*) AS data_files_in_current_snapshot FROM shop.orders.files;
SELECT count(*) AS data_files_in_any_snapshot FROM shop.orders.all_data_files;
SELECT count(*) AS metadata_json_files_written FROM shop.orders.metadata_log_entries;
DESCRIBE TABLE EXTENDED shop.orders;
