/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/commit: the commit of an expiry for the SQLite catalog
 * (ARCHITECTURE.md "The commit protocol", steps 3-5): apply the REST
 * updates remove-snapshot-ref and remove-snapshots to the base with the
 * metadata builder, write the next `NNNNN-<uuid>.metadata.json` create-new
 * and swap the catalog pointer with compare-and-set. There is no retry: a
 * lost race (FLOE_ECONFLICT) deletes only the metadata file it wrote and
 * asks the caller to run the expiry again on the fresh state, so a plan is
 * never applied to a base it was not computed from. Once the table layer
 * lands this becomes a prepare callback of its commit protocol.
 */
#include "maint.h"

#include "floe/catalog.h"

#include <stdlib.h>
#include <string.h>

static int metadata_version(const char *location)
{
    const char *slash = strrchr(location, '/');
    const char *name = slash ? slash + 1 : location;
    int v = 0, digits = 0;
    while (name[digits] >= '0' && name[digits] <= '9' && digits < 9)
        v = v * 10 + (name[digits++] - '0');
    if (digits == 0 || name[digits] != '-')
        return -1;
    return v;
}

int floe__expire_commit_sql(const floe_table_metadata *base, const char *base_location,
                            const floe_expire_plan *plan, floe_table_metadata **committed,
                            char **location, void *payload)
{
    const floe_expire_sql_commit *sc = payload;
    *committed = NULL;
    *location = NULL;
    floe_metadata_builder *b = NULL;
    floe_table_metadata *m = NULL;
    floe_buf text = FLOE_BUF_INIT;
    char *path = NULL;
    int rc = floe__metadata_builder_new(&b, base, base_location);
    for (size_t i = 0; rc == 0 && i < plan->remove_refs.len; i++)
        rc = floe__mb_remove_snapshot_ref(b, *(const char **)floe__vec_at(&plan->remove_refs, i));
    if (rc == 0 && plan->remove_ids.len)
        rc = floe__mb_remove_snapshots(b, (const int64_t *)plan->remove_ids.items,
                                       plan->remove_ids.len);
    if (rc == 0)
        rc = floe__metadata_builder_build(b, floe__now_ms(), &m);
    floe__metadata_builder_free(b);
    if (rc == 0)
        rc = floe__metadata_write(m, &text);
    if (rc == 0) {
        char uuid[37];
        int v = metadata_version(base_location);
        const char *dir = floe__props_get(&m->properties, "write.metadata.path");
        rc = floe__uuid4(uuid);
        if (rc == 0) {
            if (dir)
                path = floe__sprintf("%s/%05d-%s.metadata.json", dir, v < 0 ? 1 : v + 1, uuid);
            else
                path = floe__sprintf("%s/metadata/%05d-%s.metadata.json", m->location,
                                     v < 0 ? 1 : v + 1, uuid);
            if (!path)
                rc = FLOE_ENOMEM;
        }
    }
    if (rc == 0)
        rc = floe__io_write_new(sc->io, path, text.ptr, text.len);
    if (rc == 0) {
        rc = floe_catalog_commit_table(sc->catalog, sc->ident, base_location, path);
        if (rc < 0 && rc != FLOE_ECOMMITUNKNOWN) {
            /* the swap did not happen: the new file is unreachable */
            int code = rc;
            floe_fileio_remove(sc->io, (const char *const *)&path, 1);
            rc = code;
        }
    }
    floe__buf_free(&text);
    if (rc < 0) {
        floe__metadata_free(m);
        floe__free(path);
        return rc;
    }
    *committed = m;
    *location = path;
    return 0;
}
