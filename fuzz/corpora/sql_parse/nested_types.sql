CREATE TABLE n.t (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, addr STRUCT<street: STRING, zip: INT NOT NULL COMMENT 'c'>, nested ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<DOUBLE>>>>);
CREATE TABLE n.u (s struct<`x y` decimal(10, 2), ts timestamp NULL>, m MAP<DATE, ARRAY<VARCHAR(3)>> NOT NULL, a ARRAY<ARRAY<ARRAY<INT>>>);
