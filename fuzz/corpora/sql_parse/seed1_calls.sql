CALL ice.system.rollback_to_snapshot('shop.orders', 5270420720687731067);
CALL ice.system.set_current_snapshot('shop.orders', 23499723825440384);
EXPLAIN SELECT * FROM ice.shop.orders VERSION AS OF 3657524344527679724
        WHERE order_date = DATE'2026-09-20';
