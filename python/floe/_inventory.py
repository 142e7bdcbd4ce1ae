# SPDX-License-Identifier: Apache-2.0
"""Table.inventory over floe_maint_inventory (include/floe/maint.h)."""
from typing import TYPE_CHECKING, Optional

import pyarrow as pa

from . import _ffi
from ._ffi import ffi, lib

if TYPE_CHECKING:
    from .table import Table, Timestamp


@ffi.def_extern()
def floe_py_inventory_row(row, payload):
    rows = ffi.from_handle(payload)
    rows.append((_ffi.text(row.kind_name), _ffi.text(row.path), row.size,
                 _ffi.text(row.content), _ffi.text(row.status)))
    return 0


def inventory(table: "Table", snapshot_id: Optional[int], ref: Optional[str],
              as_of: "Optional[Timestamp]") -> pa.Table:
    from .table import _snapshot_id, to_millis
    keep: list = []
    o = ffi.new("floe_maint_inventory_options *")
    o.version = lib.FLOE_MAINT_INVENTORY_OPTIONS_VERSION
    if snapshot_id is not None:
        o.has_snapshot_id = True
        o.snapshot_id = _snapshot_id(snapshot_id)
    o.ref = _ffi.cstr(ref, keep)
    o.io = table.catalog._fileio()
    if as_of is not None:
        o.has_timestamp = True
        o.timestamp_ms = to_millis(as_of)
    rows: list = []
    h = ffi.new_handle(rows)
    with table._lock:
        t = table._handle()
        with table.catalog._lock:
            _ffi.check(lib.floe_maint_inventory(ffi.NULL, table.catalog._catalog_handle(),
                                                lib.floe_table_ident(t), o, lib.floe_py_inventory_row, h))
    cols = list(zip(*rows)) if rows else [[], [], [], [], []]
    return pa.table({"kind": pa.array(cols[0], pa.string()), "path": pa.array(cols[1], pa.string()),
                     "size": pa.array(cols[2], pa.int64()), "content": pa.array(cols[3], pa.string()),
                     "status": pa.array(cols[4], pa.string())})
