DELETE FROM ice.shop.orders_wap WHERE order_id = 1004;
UPDATE ice.shop.orders_wap SET status = 'SHIPPED' WHERE order_id = 1001;
ALTER TABLE ice.shop.orders_wap CREATE BRANCH audit;
SELECT count(*) FROM ice.shop.orders_wap VERSION AS OF 'audit' WHERE amount <= 0;
DELETE FROM ice.shop.orders_wap.branch_audit WHERE amount <= 0;
CALL ice.system.fast_forward('shop.orders_wap', 'main', 'audit');
ALTER TABLE ice.shop.orders_wap DROP BRANCH audit;
