CREATE NAMESPACE IF NOT EXISTS ice.shop;
DROP TABLE IF EXISTS ice.shop.orders PURGE;
CREATE TABLE ice.shop.orders (
    order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2),
    status STRING, order_date DATE)
USING iceberg
PARTITIONED BY (order_date);
