-- The stale reader (shared/seeds/000, "A dashboard keeps serving the bad
-- rows after the rollback"). Two sessions are two `floe sql` processes on
-- one warehouse; tests/cli/sql_examples.sh drives them through pipes:
--
--   dashboard: floe sql --warehouse W --conf cache-enabled=true   (Java's cache)
--   on-call:   floe sql --warehouse W --conf cache-enabled=false
--
-- This file is the setup, run once by the on-call session:
CREATE NAMESPACE IF NOT EXISTS shop;
DROP TABLE IF EXISTS shop.orders_cache PURGE;
CREATE TABLE shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2)) USING iceberg;
INSERT INTO shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25);
-- The dashboard then runs:   SELECT count(*) FROM shop.orders_cache;        -- 3
-- on-call:  INSERT INTO shop.orders_cache VALUES (1003, 310.25), (1004, -1.00);
-- dashboard:                 SELECT count(*) FROM shop.orders_cache;        -- 5
-- on-call:  CALL local.system.rollback_to_snapshot('shop.orders_cache', <good>);
--           SELECT count(*) FROM shop.orders_cache;                         -- 3
-- dashboard:                 SELECT count(*) FROM shop.orders_cache;        -- 5 (cached)
--                            REFRESH TABLE shop.orders_cache;
--                            SELECT count(*) FROM shop.orders_cache;        -- 3
-- Without --conf cache-enabled, floe's default (freshness mode) never
-- serves the rolled-back state: the dashboard sees 3 at once.
