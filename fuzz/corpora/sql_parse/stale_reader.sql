CREATE TABLE ice.shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2)) USING iceberg;
INSERT INTO ice.shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25);
INSERT INTO ice.shop.orders_cache VALUES (1003, 310.25), (1004, -1.00);
CALL ice.system.rollback_to_snapshot('shop.orders_cache', 1);
REFRESH TABLE ice.shop.orders_cache;
