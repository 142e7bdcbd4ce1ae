/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/rest_commit: a REST catalog `CommitTableRequest` (OpenAPI
 * `CommitTableRequest`, `TableRequirement`, `TableUpdate`) committed to a
 * table of a SQLite catalog through the same commit path as floe's own
 * operations (floe__table_commit_sql): the seam that lets `floe serve`
 * accept commits from Spark, Trino or PyIceberg for tables floe manages,
 * and lets a REST client send floe's requirements + updates instead of
 * writing metadata itself.
 */
#include "table/table.h"

#include "spec/spec.h"

#include <string.h>

int floe__table_commit_request(floe_catalog *cat, floe_fileio *io, const char *ident,
                               const char *body, size_t len, char **new_location)
{
    if (new_location)
        *new_location = NULL;
    floe_json *root = NULL;
    FLOE_TRY(floe__json_parse(&root, body, len, "CommitTableRequest"));
    floe_table_change change;
    int rc = floe__change_init(&change);
    if (rc < 0) {
        floe__json_free(root);
        return rc;
    }
    floe_table *t = NULL;
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = io;
    rc = floe_table_load(&t, cat, ident, &o);
    if (rc == 0)
        rc = floe__commit_parse(root, t->metadata->format_version, change.arena,
                                &change.requirements, &change.updates);
    char *loc = NULL;
    floe_table_metadata *m = NULL;
    if (rc == 0)
        rc = floe__table_commit_sql(cat, t->io, t->ident, t->metadata, t->metadata_location,
                                    &change, &loc, &m);
    floe__metadata_free(m);
    if ((rc == 0 || rc == FLOE_ECOMMITUNKNOWN) && new_location)
        *new_location = loc;
    else
        floe__free(loc);
    floe_table_free(t);
    floe__change_free(&change);
    floe__json_free(root);
    return rc;
}
