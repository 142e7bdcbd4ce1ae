/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/scan: floe_scan_open_table (include/floe/scan.h), a scan of a
 * loaded table handle. A snapshot named by the options (id, ref, as-of
 * time) is picked by spec/snapshot_select, else the head of the handle's
 * branch is read; scan/
 * plans it over the handle's metadata and FileIO. It lives here, not in
 * scan/, because scans depend only on metadata and FileIO (the layer order
 * of docs/architecture.md).
 */
#include "table/table.h"

#include "floe/scan.h"
#include "scan/scan.h"

int floe_scan_open_table(floe_scan **out, struct floe_table *t, const floe_scan_options *opts)
{
    if (!out || !t)
        return floe__error(FLOE_EINVALID, "scan", "floe_scan_open_table: NULL argument");
    *out = NULL;
    floe_scan_options defaults;
    const floe_scan_options *o = NULL;
    FLOE_TRY(floe__scan_options_get(opts, &defaults, &o));
    floe_snapshot_selector sel;
    bool selected = floe__scan_options_selector(o, &sel);
    const floe_snapshot *snap = NULL;
    if (selected) {
        FLOE_TRY(floe__snapshot_select(&snap, t->metadata, &sel, "table"));
    } else {
        /* the head of the handle's branch; none yet (a branch the first
         * write creates) reads as an empty table */
        floe_snapshot_info info;
        if (floe_table_branch_snapshot(t, &info))
            snap = floe__metadata_snapshot(t->metadata, info.snapshot_id);
    }
    bool pinned = selected && floe__snapshot_selector_pins_schema(t->metadata, &sel);
    return floe__scan_open_snapshot(out, floe_table_io(t), t->metadata, snap, pinned, o);
}
