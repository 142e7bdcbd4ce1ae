-- The stale reader (shared/seeds/000, "A dashboard keeps serving the bad
-- rows after the rollback"): the seed's stale_reader.py as ONE floe sql
-- session with two catalogs over one catalog database, `ice` (a
-- dashboard's catalog, Spark's default table cache: cache-enabled=true)
-- and `ops` (the on-call engineer's, cache off), as the seed configures
-- its SparkSession:
--
--   floe sql --warehouse W --catalog-name ice \
--     --conf spark.sql.catalog.ice=org.apache.iceberg.spark.SparkCatalog \
--     --conf spark.sql.catalog.ops=org.apache.iceberg.spark.SparkCatalog \
--     --conf spark.sql.catalog.ops.cache-enabled=false \
--     -f examples/sql/03_stale_reader.sql
--
-- `ops` names no uri of its own, so it is the session catalog's database
-- and rows seen through its own settings (the seed's two Spark catalogs
-- over one Hive metastore). It prints what the seed printed: 5, 3, 5, 3
-- (tests/cli/sql_examples.sh compares the lines with the seed's output).
-- The dashboard sees its own INSERT at once (the cached table is the one
-- that committed), keeps serving 5 rows after the rollback the other
-- catalog committed, and sees 3 after REFRESH TABLE.
CREATE NAMESPACE IF NOT EXISTS ice.shop;
DROP TABLE IF EXISTS ice.shop.orders_cache PURGE;
CREATE TABLE ice.shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2)) USING iceberg;
INSERT INTO ice.shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25);
SET VAR good = (SELECT snapshot_id FROM ice.shop.orders_cache.refs WHERE name = 'main');
INSERT INTO ice.shop.orders_cache VALUES (1003, 310.25), (1004, -1.00);

SELECT printf('%-24s: %d', 'dashboard sees', count(*)) AS line FROM ice.shop.orders_cache;
CALL ops.system.rollback_to_snapshot('shop.orders_cache', ${good});
SELECT printf('%-24s: %d', 'on-call sees', count(*)) AS line FROM ops.shop.orders_cache;
SELECT printf('%-24s: %d', 'dashboard sees', count(*)) AS line FROM ice.shop.orders_cache;
REFRESH TABLE ice.shop.orders_cache;
SELECT printf('%-24s: %d', 'dashboard after REFRESH', count(*)) AS line FROM ice.shop.orders_cache;

DROP TABLE ice.shop.orders_cache PURGE;
