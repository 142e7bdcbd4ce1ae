/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/change_json: a commit attempt's change (requirements + updates) as
 * the REST catalog's `CommitTableRequest` JSON (OpenAPI `TableRequirement`,
 * `TableUpdate`; snapshots in the spec's "Snapshots" JSON form). This is
 * what the table layer sends to a catalog that applies changes itself (the
 * REST client) instead of writing metadata and swapping the pointer. The
 * JSON is spec/commit's one serializer; this adds the table-uuid pin.
 */
#include "table/table.h"

#include "spec/spec.h"

#include <string.h>

int floe__change_to_json(const floe_table_metadata *base, const floe_table_change *c, floe_buf *out)
{
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(floe__jw_obj(&w));
    const floe_requirement *reqs = c->requirements.items;
    size_t nr = c->requirements.len;
    bool has_uuid = false;
    for (size_t i = 0; i < nr; i++)
        has_uuid |= reqs[i].type == FLOE_REQ_ASSERT_TABLE_UUID;
    /* Always pin the table: a table dropped and re-created under the same
     * name between load and commit must not receive this change. */
    floe_requirement *all = NULL;
    if (!has_uuid && base && base->table_uuid) {
        if (!(all = floe__calloc(nr + 1, sizeof *all)))
            return floe__error_nomem();
        if (nr)
            memcpy(all, reqs, nr * sizeof *all);
        all[nr].type = FLOE_REQ_ASSERT_TABLE_UUID;
        all[nr].uuid = base->table_uuid;
        reqs = all;
        nr++;
    }
    int rc = floe__commit_write(&w, reqs, nr, c->updates.items, c->updates.len,
                                base ? base->format_version : 0);
    floe__free(all);
    FLOE_TRY(rc);
    FLOE_TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
}
