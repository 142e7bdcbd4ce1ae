/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/scan: floe_scan_open_table (include/floe/scan.h), a scan of a
 * loaded table handle. The handle picks the snapshot (id, ref, as-of time
 * or the branch's current one, with the table layer's messages); scan/
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
    floe_snapshot_info info;
    bool have = true, pinned = true;
    if (o->has_snapshot_id)
        FLOE_TRY(floe_table_snapshot_by_id(t, o->snapshot_id, &info));
    else if (o->ref) {
        FLOE_TRY(floe_table_snapshot_by_ref(t, o->ref, &info));
        /* Java's SnapshotUtil.schemaFor: a branch reads with the table's
         * current schema, a tag with its snapshot's */
        const floe_snapshot_ref *r = floe__metadata_ref(t->metadata, o->ref);
        pinned = !(r && r->type == FLOE_REF_BRANCH);
    } else if (o->has_as_of_timestamp)
        FLOE_TRY(floe_table_snapshot_as_of_time(t, o->as_of_timestamp_ms, &info));
    else {
        have = floe_table_branch_snapshot(t, &info);
        pinned = false;
    }
    const floe_snapshot *snap =
        have ? floe__metadata_snapshot(t->metadata, info.snapshot_id) : NULL;
    return floe__scan_open_snapshot(out, floe_table_io(t), t->metadata, snap, pinned, o);
}
