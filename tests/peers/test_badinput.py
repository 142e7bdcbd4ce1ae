# SPDX-License-Identifier: Apache-2.0
"""Bad input (issue #19 item 7): a table Spark wrote with a feature floe does not support
(ORC or Avro data files) gives a clear error naming the feature, never wrong rows."""
import os

import pytest

from conftest import Floe, add_catalog, jdbc_props, uniq


@pytest.mark.parametrize("fmt", ["orc", "avro"])
def test_spark_table_with_unsupported_data_format(spark, warehouse, fmt):
    name = uniq("bad")
    fl = Floe(warehouse, name)
    fl.sql("CREATE NAMESPACE shop")
    cat = add_catalog(spark, name, jdbc_props(os.path.join(warehouse, "catalog.db"), warehouse))
    spark.sql(f"CREATE TABLE {cat}.shop.t (id BIGINT, s STRING) USING iceberg "
              f"TBLPROPERTIES ('write.format.default'='{fmt}')")
    spark.sql(f"INSERT INTO {cat}.shop.t VALUES (1, 'a'), (2, 'b')")
    p = fl.sql("SELECT * FROM shop.t", check=False)
    assert p.returncode != 0, "floe returned rows from a table it cannot read: " + p.stdout
    assert p.stdout.strip() == ""
    assert fmt.upper() in p.stderr.upper(), p.stderr
    # the class Iceberg Java raises for a format its reader does not support
    assert p.stderr.startswith("UnsupportedOperationException: "), p.stderr
    # the metadata stays readable: floe names what is there
    files = fl.rows("SELECT file_format FROM shop.t.files")
    assert {r["file_format"] for r in files} == {fmt.upper()}
