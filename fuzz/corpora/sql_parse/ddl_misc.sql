CREATE TABLE IF NOT EXISTS s.e (id INT NOT NULL COMMENT 'c', ts TIMESTAMP, v VARCHAR(3))
PARTITIONED BY (bucket(16, id), truncate(4, v), days(ts)) LOCATION '/w' TBLPROPERTIES ('a'='b');
ALTER TABLE s.e CREATE OR REPLACE BRANCH b AS OF VERSION 1 RETAIN 2 HOURS WITH SNAPSHOT RETENTION 3 SNAPSHOTS 4 MINUTES;
SET spark.wap.branch = audit; SET TIME ZONE 'UTC'; RESET; USE ice.shop; SHOW TABLES IN shop;
CREATE OR REPLACE TEMPORARY VIEW v AS SELECT * FROM s.e.branch_b;
CALL system.add_files(table => 's.e', partition_filter => map('p', 1), a => array(1, -2.5), t => TIMESTAMP '2026-01-01 00:00:00');
