/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/transaction: multi-table commits (include/floe/table.h,
 * floe_catalog_commit_transaction; the REST CommitTransactionRequest).
 *
 * Over a catalog that applies changes itself (REST) the changes go as one
 * POST /v1/{prefix}/transactions/commit. Over a catalog that swaps several
 * pointers in one database transaction (SQLite) every change is checked
 * against its table's current metadata and its next metadata file is
 * written, then all pointers are compare-and-set at once: every table
 * changes or none does (a failed requirement or a lost swap is
 * FLOE_ECONFLICT and the written files are removed). Other catalogs (the
 * Hive Metastore locks and swaps one table at a time) are
 * FLOE_EUNSUPPORTED. No retry: the caller refreshes and rebuilds its
 * changes, as a REST client does.
 */
#include "table/table.h"

#include "catalog/catalog.h"
#include "spec/commit.h"
#include "spec/spec.h"

#include <string.h>

int floe__table_commit_tables(floe_catalog *cat, const floe_table_options *opts, size_t n,
                              const char *const *idents, floe_change_fill_fn fill, void *payload,
                              size_t *failed)
{
    *failed = 0;
    if (n == 0)
        return 0;
    char **locs = floe__calloc(n, sizeof *locs);
    const char **bases = floe__calloc(n, sizeof *bases);
    floe_table **tables = floe__calloc(n, sizeof(floe_table *));
    int rc = locs && bases && tables ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        *failed = i;
        rc = floe_table_load(&tables[i], cat, idents[i], opts);
        floe_table_change change;
        memset(&change, 0, sizeof change);
        if (rc == 0)
            rc = fill(i, tables[i]->metadata, &change, payload);
        floe_table_metadata *m = NULL;
        if (rc == 0)
            rc = floe__table_commit_write(tables[i]->io, tables[i]->metadata,
                                          tables[i]->metadata_location, &change, &locs[i], &m);
        if (rc == 0)
            bases[i] = tables[i]->metadata_location;
        floe__metadata_free(m);
        if (change.arena) /* owned by the fill, else borrowed */
            floe__change_free(&change);
    }
    if (rc == 0) {
        *failed = n;
        rc = floe__catalog_commit_tables(cat, n, idents, bases, (const char *const *)locs);
    }
    /* on a sure failure the new files are garbage; on an unknown outcome
     * they may be live */
    for (size_t i = 0; rc < 0 && rc != FLOE_ECOMMITUNKNOWN && locs && tables && i < n; i++)
        if (locs[i])
            floe__table_remove_quietly(tables[i]->io, (const char *const *)&locs[i], 1);
    for (size_t i = 0; locs && i < n; i++)
        floe__free(locs[i]);
    for (size_t i = 0; tables && i < n; i++)
        floe_table_free(tables[i]);
    floe__free(locs);
    floe__free(bases);
    floe__free(tables);
    return rc;
}

/* The public form: each change a CommitTableRequest JSON text, parsed for
 * its table's format version. */
typedef struct json_changes {
    floe_json **roots;
} json_changes;

static int fill_json(size_t i, const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    json_changes *j = payload;
    FLOE_TRY(floe__change_init(c));
    return floe__commit_parse(j->roots[i], base->format_version, c->arena, &c->requirements,
                              &c->updates);
}

int floe_catalog_commit_transaction(floe_catalog *catalog, size_t n, const char *const *idents,
                                    const char *const *changes, const floe_table_options *opts)
{
    if (!catalog || (n && (!idents || !changes)))
        return floe__error(FLOE_EINVALID, "table", "floe_catalog_commit_transaction: NULL argument");
    for (size_t i = 0; i < n; i++) {
        if (!idents[i] || !changes[i])
            return floe__error(FLOE_EINVALID, "table",
                               "floe_catalog_commit_transaction: NULL identifier or change");
        for (size_t k = 0; k < i; k++)
            if (strcmp(idents[k], idents[i]) == 0)
                return floe__error(FLOE_EINVALID, "table",
                                   "a transaction changes table %s more than once", idents[i]);
    }
    if (n == 0)
        return 0;
    if (floe__catalog_commits_changes(catalog))
        return floe__catalog_commit_transaction(catalog, n, idents, changes);
    if (!floe__catalog_commits_tables(catalog))
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "catalog '%s' cannot commit several tables atomically (it swaps one "
                           "table's pointer at a time)",
                           floe_catalog_name(catalog));
    json_changes j = {floe__calloc(n, sizeof(floe_json *))};
    int rc = j.roots ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = floe__json_parse(&j.roots[i], changes[i], strlen(changes[i]), "CommitTableRequest");
        if (rc == 0 && !floe__json_is_object(j.roots[i]))
            rc = floe__error(FLOE_EINVALID, "table",
                             "change of %s: a CommitTableRequest must be a JSON object",
                             idents[i]);
    }
    size_t failed = 0;
    if (rc == 0)
        rc = floe__table_commit_tables(catalog, opts, n, idents, fill_json, &j, &failed);
    for (size_t i = 0; j.roots && i < n; i++)
        floe__json_free(j.roots[i]);
    floe__free(j.roots);
    return rc;
}
