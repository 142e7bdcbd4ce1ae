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
#include "catalog/catalog.h"
#include "expr/expr.h"
#include "scan/scan.h"

#include <string.h>

/* Server-side planning (a REST catalog with scan-planning-mode=server):
 * the PlanTableScanRequest for the chosen snapshot, then a scan over the
 * tasks the server returns. 1: the catalog plans locally. */
static int plan_on_server(floe_scan **out, struct floe_table *t, const floe_snapshot *snap,
                          bool pinned, const floe_scan_options *o)
{
    const floe_schema *schema = floe__metadata_current_schema(t->metadata);
    if (pinned && snap->has_schema_id && floe__metadata_schema(t->metadata, snap->schema_id))
        schema = floe__metadata_schema(t->metadata, snap->schema_id);
    floe_arena *a = floe__arena_new(1024);
    if (!a)
        return floe__error_nomem();
    const floe_expr *filter = o->filter_expr;
    int rc = o->filter ? floe__scan_filter_parse(&filter, a, o->filter, schema) : 0;
    floe_buf req = FLOE_BUF_INIT;
    if (rc == 0)
        rc = floe__buf_printf(&req, "{\"snapshot-id\":%lld,\"use-snapshot-schema\":%s,"
                                    "\"case-sensitive\":%s",
                              (long long)snap->snapshot_id, pinned ? "true" : "false",
                              o->case_sensitive ? "true" : "false");
    if (rc == 0 && filter) {
        rc = floe__buf_puts(&req, ",\"filter\":");
        if (rc == 0)
            rc = floe_expr_to_json(filter, &req);
    }
    for (size_t i = 0; rc == 0 && o->columns && i < o->ncolumns; i++) {
        rc = floe__buf_puts(&req, i ? ",\"" : ",\"select\":[\"");
        if (rc == 0 && o->columns[i])
            rc = floe__buf_put_json_escaped(&req, o->columns[i], strlen(o->columns[i]));
        if (rc == 0)
            rc = floe__buf_puts(&req, i + 1 == o->ncolumns ? "\"]" : "\"");
    }
    if (rc == 0)
        rc = floe__buf_putc(&req, '}');
    floe_vec bodies = FLOE_VEC_INIT(char *);
    if (rc == 0)
        rc = floe__catalog_plan_scan(t->catalog, t->ident, req.ptr, req.len, &bodies);
    size_t *lens = rc == 0 ? floe__calloc(bodies.len ? bodies.len : 1, sizeof *lens) : NULL;
    if (rc == 0 && !lens)
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < bodies.len; i++)
        lens[i] = strlen(*(char **)floe__vec_at(&bodies, i));
    if (rc == 0)
        rc = floe__scan_open_remote(out, floe_table_io(t), t->metadata, snap, pinned, o,
                                    (const char *const *)bodies.items, lens, bodies.len);
    floe__free(lens);
    floe__catalog_strvec_free(&bodies);
    floe__buf_free(&req);
    floe__arena_free(a);
    return rc;
}

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
        if (floe_table_branch_snapshot(&info, t))
            snap = floe__metadata_snapshot(t->metadata, info.snapshot_id);
    }
    bool pinned = selected && floe__snapshot_selector_pins_schema(t->metadata, &sel);
    if (snap && t->catalog && !o->no_pruning) {
        int rc = plan_on_server(out, t, snap, pinned, o);
        if (rc != 1)
            return rc;
    }
    return floe__scan_open_snapshot(out, floe_table_io(t), t->metadata, snap, pinned, o);
}
