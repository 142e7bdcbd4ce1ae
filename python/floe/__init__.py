# SPDX-License-Identifier: Apache-2.0
"""floe for Python: Apache Iceberg on libfloe (C), no JVM.

    import floe
    cat = floe.catalog(warehouse="/tmp/wh")
    cat.sql("CREATE TABLE shop.orders (id BIGINT, amount DOUBLE) USING iceberg")
    t = cat.load_table("shop.orders")
    t.append(pyarrow_table)
    t.scan(filter="amount > 10").to_arrow()

See python/README.md for the API reference.
"""
from ._ffi import ffi as _ffi_mod, lib as _lib
from .catalog import Catalog, Row, SqlResult, catalog
from .errors import *  # noqa: F401,F403
from .errors import FloeError
from .table import Scan, Table

__version__ = _ffi_mod.string(_lib.floe_version()).decode()

__all__ = ["catalog", "Catalog", "SqlResult", "Row", "Table", "Scan", "FloeError"] + [
    n for n in dir() if n.endswith("Exception")]
