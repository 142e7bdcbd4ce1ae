/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/backend: the catalog behind `floe serve`. The server (rest/server.c)
 * does HTTP, authentication, routing, JSON validation, pagination and error
 * mapping; a backend only implements catalog operations on parsed requests.
 * One implementation exists (backend_sql.c) over any floe_catalog: the
 * SQLite file of --warehouse, an in-memory SQLite database for --memory and
 * a Hive Metastore for --catalog-uri thrift://.
 *
 * Contract for every function:
 * - Called concurrently from the server's worker threads: a backend must be
 *   thread-safe (a mutex is enough; commits must be atomic per table).
 * - Requests are borrowed (valid during the call). Results are written into a
 *   zeroed struct the server owns and frees with the model's *_free().
 * - Return 0 or a negative FLOE_E* with the error raised (floe__error) — the
 *   message is sent to the client. An error raised with a kind
 *   (floe__error_as: FLOE_KIND_NO_SUCH_TABLE, _NO_SUCH_NAMESPACE,
 *   _NO_SUCH_VIEW, _ALREADY_EXISTS, _NAMESPACE_NOT_EMPTY, _COMMIT_FAILED,
 *   _VALIDATION, ...) is answered as Iceberg answers that exception
 *   (floe__rest_error_status: 404 NoSuchTableException, 409
 *   NamespaceNotEmptyException, ...), whatever its code. Without a kind the
 *   code and the route decide:
 *     FLOE_ENOTFOUND      404 NoSuchViewException on view routes,
 *                         NoSuchNamespaceException on namespace routes,
 *                         NoSuchTableException on the others
 *     FLOE_EEXISTS        409 AlreadyExistsException
 *     FLOE_ECONFLICT      409 CommitFailedException (a requirement failed or the
 *                         compare-and-set lost); on drop_namespace: 409
 *                         NamespaceNotEmptyException
 *     FLOE_EINVALID       400 BadRequestException
 *     FLOE_EUNSUPPORTED   406 UnsupportedOperationException
 *     FLOE_ECOMMITUNKNOWN 500 CommitStateUnknownException (never retry blindly)
 *     anything else       500 InternalServerError (on commit routes
 *                         CommitStateUnknownException: the outcome is unknown)
 * - Optional entries may be NULL: the server then answers 501/406 or falls
 *   back as documented per entry.
 */
#ifndef FLOE_REST_BACKEND_H
#define FLOE_REST_BACKEND_H

#include "floe/catalog.h"
#include "model.h"

/* How much of the snapshot list loadTable should return (query `snapshots`). */
typedef enum floe_rest_snapshots_mode {
    FLOE_REST_SNAPSHOTS_ALL = 0,
    FLOE_REST_SNAPSHOTS_REFS = 1 /* only snapshots referenced by branches or tags */
} floe_rest_snapshots_mode;

typedef struct floe_rest_backend floe_rest_backend;
struct floe_table;

#define FLOE_REST_BACKEND_VERSION 1

struct floe_rest_backend {
    int version; /* FLOE_REST_BACKEND_VERSION */

    /* Optional. Extra config for GET /v1/config (`warehouse` query value or
     * NULL). The server has already put "prefix" into overrides when serving
     * one, and fills "endpoints"; the backend adds defaults/overrides such
     * as "warehouse". */
    int (*config)(floe_rest_backend *b, const char *warehouse, floe_rest_config *out);

    /* Namespaces. `parent` NULL (or n == 0) = top level. List every child
     * namespace (full path, e.g. ["a","b"] under ["a"]) in any order: the
     * server sorts and paginates. ENOTFOUND if parent does not exist. */
    int (*list_namespaces)(floe_rest_backend *b, const floe_rest_namespace *parent,
                           floe_rest_namespace_list *out);
    /* EEXISTS if it exists; out = the stored properties. */
    int (*create_namespace)(floe_rest_backend *b, const floe_rest_create_namespace_req *req,
                            floe_rest_namespace_result *out);
    /* ENOTFOUND; also used for HEAD (namespaceExists). */
    int (*load_namespace)(floe_rest_backend *b, const floe_rest_namespace *ns,
                          floe_rest_namespace_result *out);
    /* ENOTFOUND; the server already rejected keys both updated and removed
     * (422). out lists updated, removed and missing keys. */
    int (*update_namespace_properties)(floe_rest_backend *b, const floe_rest_namespace *ns,
                                       const floe_rest_update_namespace_props_req *req,
                                       floe_rest_update_namespace_props_result *out);
    /* ENOTFOUND; ECONFLICT when it still holds tables or namespaces. */
    int (*drop_namespace)(floe_rest_backend *b, const floe_rest_namespace *ns);

    /* Tables. list_tables: ENOTFOUND for a missing namespace; any order. */
    int (*list_tables)(floe_rest_backend *b, const floe_rest_namespace *ns,
                       floe_rest_ident_list *out);
    /* ENOTFOUND (namespace), EEXISTS. With req->stage_create nothing is
     * stored: out->metadata_location is NULL and the client later commits
     * with assert-create. */
    int (*create_table)(floe_rest_backend *b, const floe_rest_namespace *ns,
                        const floe_rest_create_table_req *req, floe_rest_table_result *out);
    /* ENOTFOUND. */
    int (*load_table)(floe_rest_backend *b, const floe_rest_ident *id,
                      floe_rest_snapshots_mode mode, floe_rest_table_result *out);
    /* Optional (NULL: the server calls load_table). 0 if it exists, ENOTFOUND. */
    int (*table_exists)(floe_rest_backend *b, const floe_rest_ident *id);
    /* Validate req->requirements against the current metadata (ECONFLICT with
     * the Iceberg message, e.g. "Requirement failed: branch main has changed:
     * expected id 1 != 2"), apply req->updates, write the new metadata and
     * swap it atomically (ECONFLICT if the swap lost). A missing table with an
     * assert-create requirement creates it (staged create). ENOTFOUND for a
     * missing table otherwise; EINVALID for updates that cannot apply.
     * out->metadata_location must be set. */
    int (*commit_table)(floe_rest_backend *b, const floe_rest_ident *id,
                        const floe_rest_commit_table_req *req, floe_rest_table_result *out);
    /* ENOTFOUND. purge_requested: delete data and metadata files as well. */
    int (*drop_table)(floe_rest_backend *b, const floe_rest_ident *id, bool purge_requested);
    /* ENOTFOUND (source table: floe__rest_no_such_table; destination
     * namespace: floe__rest_no_such_namespace), EEXISTS (destination). */
    int (*rename_table)(floe_rest_backend *b, const floe_rest_rename_table_req *req);
    /* ENOTFOUND (namespace), EEXISTS (unless req->overwrite), EINVALID/EIO
     * if the metadata file cannot be read. */
    int (*register_table)(floe_rest_backend *b, const floe_rest_namespace *ns,
                          const floe_rest_register_table_req *req, floe_rest_table_result *out);
    /* Optional: the current metadata location only (caller frees), for
     * the server's If-None-Match check without reading the metadata.
     * ENOTFOUND as load_table. */
    int (*table_location)(floe_rest_backend *b, const floe_rest_ident *id, char **location);
    /* Optional (NULL: 501). All changes commit atomically or none does. */
    int (*commit_transaction)(floe_rest_backend *b, const floe_rest_commit_transaction_req *req);

    /* Optional views (NULL: the view routes answer 406). list_views as
     * list_tables. The other view routes (rest/views.c) run on the
     * backend's catalog and FileIO, held exclusively between views_begin
     * and views_end; view_location_ok: FLOE_EINVALID unless `location` is a
     * view location inside the warehouse (`is_file`: an existing metadata
     * file there). */
    int (*list_views)(floe_rest_backend *b, const floe_rest_namespace *ns,
                      floe_rest_ident_list *out);
    int (*views_begin)(floe_rest_backend *b, floe_catalog **cat, floe_fileio **io);
    void (*views_end)(floe_rest_backend *b);
    int (*view_location_ok)(floe_rest_backend *b, const char *location, bool is_file);

    /* Optional (NULL: no server-side scan planning, 406): a table handle
     * over the backend's FileIO for planning (rest/plan.c), the caller's
     * (floe_table_free). ENOTFOUND as load_table. */
    int (*open_table)(floe_rest_backend *b, const floe_rest_ident *id, struct floe_table **out);

    /* Optional: release the backend (called by floe__rest_backend_free). */
    void (*free)(floe_rest_backend *b);

    void *payload; /* the backend's own state */
};

void floe__rest_backend_free(floe_rest_backend *b);

/* Raise FLOE_ENOTFOUND with Iceberg's wording and the kind
 * (NoSuchNamespaceException / NoSuchTableException). */
int floe__rest_no_such_namespace(const floe_rest_namespace *ns);
int floe__rest_no_such_table(const floe_rest_ident *id);
/* FLOE_EEXISTS, AlreadyExistsException: "Namespace already exists: a.b" /
 * "Table already exists: a.t". */
int floe__rest_namespace_exists(const floe_rest_namespace *ns);
int floe__rest_table_exists_error(const floe_rest_ident *id);

/* The backends of `floe serve` (backend_sql.c: one implementation over
 * any floe_catalog and the table layer).
 *
 * The SQLite catalog of `floe serve --warehouse DIR`: catalog at
 * DIR/catalog.db (created if needed; `catalog_name` NULL = "default"),
 * tables under DIR, commits on a pool of connections in parallel.
 * FLOE_EINVALID when DIR is not a directory, FLOE_EIO when the catalog
 * cannot be opened. */
int floe__rest_backend_sql_new(floe_rest_backend **out, const char *warehouse,
                               const char *catalog_name);

/* `floe serve --memory`: the same backend over an in-memory SQLite catalog
 * and the memory FileIO (everything lost on free). `warehouse` is the
 * location prefix of new tables (FLOE_REST_MEMORY_WAREHOUSE if NULL),
 * advertised as /v1/config defaults.warehouse. */
#define FLOE_REST_MEMORY_WAREHOUSE "mem://warehouse"
int floe__rest_backend_memory_new(floe_rest_backend **out, const char *warehouse);

/* Any other catalog (`floe serve --catalog-uri thrift://...`: a Hive
 * Metastore), taken also on failure, with local files under the existing
 * directory `warehouse`. Calls are serialised; multi-table transactions
 * are FLOE_EUNSUPPORTED unless the catalog swaps several pointers
 * atomically. */
int floe__rest_backend_catalog_new(floe_rest_backend **out, floe_catalog *cat,
                                   const char *warehouse);

#endif
