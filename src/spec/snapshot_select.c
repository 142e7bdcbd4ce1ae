/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/snapshot_select: "which snapshot" — by id, by ref, by branch, as of a
 * time through the snapshot-log, or the current one (spec "Snapshots",
 * "Snapshot References", `snapshot-log`), with the messages of Java's
 * SnapshotScan / SnapshotUtil and Spark's SparkTable / SparkCatalog. Scans,
 * metadata tables, procedures, the SQL front end and the CLI all select
 * through here, so one question has one answer.
 */
#include "spec/metadata.h"

#include "util/time.h"

#include <string.h>

bool floe__snapshot_log_as_of(const floe_table_metadata *m, int64_t ts_ms, int64_t *id)
{
    /* Java's SnapshotUtil.nullableSnapshotIdAsOfTime: the last entry at or
     * before the time. The log is in commit order; its timestamps may step
     * back a little (clock skew), so the walk does not stop early. */
    bool found = false;
    for (size_t i = 0; i < m->n_snapshot_log; i++) {
        if (m->snapshot_log[i].timestamp_ms <= ts_ms) {
            *id = m->snapshot_log[i].snapshot_id;
            found = true;
        }
    }
    return found;
}

static int no_id(const char *subsystem, int64_t id)
{
    return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_ILLEGAL_ARGUMENT, subsystem,
                          "Cannot find snapshot with ID %lld", (long long)id);
}

static int by_id(const floe_snapshot **out, const floe_table_metadata *m, int64_t id,
                 const char *subsystem)
{
    *out = floe__metadata_snapshot(m, id);
    return *out ? 0 : no_id(subsystem, id);
}

int floe__snapshot_select(const floe_snapshot **out, const floe_table_metadata *m,
                          const floe_snapshot_selector *sel, const char *subsystem)
{
    *out = NULL;
    const floe_snapshot_ref *r = NULL;
    int64_t id = 0;
    switch (sel->kind) {
    case FLOE_SNAP_CURRENT:
        *out = floe__metadata_current_snapshot(m);
        return 0;
    case FLOE_SNAP_ID:
        return by_id(out, m, sel->snapshot_id, subsystem);
    case FLOE_SNAP_REF:
        r = sel->ref ? floe__metadata_ref(m, sel->ref) : NULL;
        if (!r)
            return floe__error_as(
                FLOE_ENOTFOUND, FLOE_KIND_ILLEGAL_ARGUMENT, subsystem,
                "Cannot find matching snapshot ID or reference name for version %s",
                sel->ref ? sel->ref : "");
        return by_id(out, m, r->snapshot_id, subsystem);
    case FLOE_SNAP_BRANCH:
        /* SparkTable.create: main may have no snapshot yet; any other name
         * must be a ref of the table */
        r = sel->ref ? floe__metadata_ref(m, sel->ref) : NULL;
        if (r)
            return by_id(out, m, r->snapshot_id, subsystem);
        if (sel->ref && strcmp(sel->ref, "main") == 0)
            return 0;
        return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_VALIDATION, subsystem,
                              "Cannot use branch (does not exist): %s", sel->ref ? sel->ref : "");
    case FLOE_SNAP_AS_OF:
        if (!floe__snapshot_log_as_of(m, sel->timestamp_ms, &id))
            return floe__time_error_no_snapshot_older(subsystem, sel->timestamp_ms);
        /* an entry whose snapshot is gone (not from a Java writer, whose
         * expiry drops the history before it) fails as Java's scan does */
        return by_id(out, m, id, subsystem);
    }
    return floe__error(FLOE_EINVALID, subsystem, "unknown snapshot selector %d", (int)sel->kind);
}

bool floe__snapshot_selector_pins_schema(const floe_table_metadata *m,
                                         const floe_snapshot_selector *sel)
{
    switch (sel->kind) {
    case FLOE_SNAP_CURRENT:
    case FLOE_SNAP_BRANCH:
        return false;
    case FLOE_SNAP_REF: {
        const floe_snapshot_ref *r = floe__metadata_ref(m, sel->ref);
        return !(r && r->type == FLOE_REF_BRANCH);
    }
    default:
        return true;
    }
}
