/* SPDX-License-Identifier: Apache-2.0 */
/*
 * catalog: the backend vtable behind include/floe/catalog.h. catalog.c checks
 * arguments and identifiers and splits "ns.table" into a validated namespace
 * string and table name; a backend (sql.c: SQLite in the JDBC schema; a REST
 * client later) implements the operations on those. Namespace levels never
 * contain '.', so a backend needing levels splits the namespace on '.'.
 */
#ifndef FLOE_CATALOG_CATALOG_H
#define FLOE_CATALOG_CATALOG_H

#include "floe/catalog.h"
#include "spec/metadata.h"
#include "util/util.h"

/* Longest namespace string / table name (VARCHAR(255) in the JDBC schema). */
#define FLOE_CATALOG_NAME_MAX 255
/* Longest metadata location (VARCHAR(1000) in the JDBC schema). */
#define FLOE_CATALOG_LOCATION_MAX 1000

typedef struct floe_catalog_ops {
    unsigned version; /* FLOE_CATALOG_OPS_VERSION */
    int (*create_namespace)(floe_catalog *c, const char *ns, const floe_props *props);
    int (*namespace_exists)(floe_catalog *c, const char *ns); /* 1 / 0 / < 0 */
    int (*load_namespace)(floe_catalog *c, const char *ns, floe_props *out);
    /* Direct children of `parent` ("" = top level), sorted, full dotted names. */
    int (*list_namespaces)(floe_catalog *c, const char *parent, floe_vec *out /* char* */);
    int (*update_namespace)(floe_catalog *c, const char *ns, const floe_props *updates,
                            const char *const *removals, size_t nremovals);
    int (*drop_namespace)(floe_catalog *c, const char *ns);
    int (*register_table)(floe_catalog *c, const char *ns, const char *name,
                          const char *metadata_location);
    int (*load_table)(floe_catalog *c, const char *ns, const char *name, char **location,
                      char **previous);
    /* Table names of `ns`, sorted. */
    int (*list_tables)(floe_catalog *c, const char *ns, floe_vec *out /* char* */);
    int (*rename_table)(floe_catalog *c, const char *from_ns, const char *from_name,
                        const char *to_ns, const char *to_name);
    int (*drop_table)(floe_catalog *c, const char *ns, const char *name);
    int (*commit_table)(floe_catalog *c, const char *ns, const char *name, const char *expected,
                        const char *new_location);
    void (*free)(floe_catalog *c);
    /* Optional (NULL for catalogs that only swap pointers, like sql.c):
     * the catalog applies a change itself — REST `POST .../tables/{table}`
     * with `body` = a CommitTableRequest {"requirements":[...],
     * "updates":[...]} — and reports the new metadata location. The table
     * layer then sends its requirements + updates instead of writing
     * metadata and compare-and-setting. Errors: FLOE_ECONFLICT (a
     * requirement failed: refresh and retry), FLOE_ENOTFOUND,
     * FLOE_ECOMMITUNKNOWN (never delete written files), FLOE_EINVALID. */
    int (*commit)(floe_catalog *c, const char *ns, const char *name, const char *body,
                  size_t len, char **new_location);
    /* Optional: create a table from create options on the catalog side
     * (REST createTable); *new_location = its first metadata file. */
    int (*create_table)(floe_catalog *c, const char *ns, const char *name, const char *schema_json,
                        const char *spec_json, const char *order_json, const char *location,
                        const floe_props *props, char **new_location);
    /* Optional: drop with the catalog deleting the files (REST
     * purgeRequested=true). */
    int (*purge_table)(floe_catalog *c, const char *ns, const char *name);
    /* Optional: compare-and-set n tables' pointers atomically (one database
     * transaction): every ns[i].names[i] from expected[i] to locations[i],
     * or none. FLOE_ECONFLICT (naming the first table that moved; nothing
     * changed), FLOE_ENOTFOUND, FLOE_ECOMMITUNKNOWN. */
    int (*commit_tables)(floe_catalog *c, size_t n, const char *const *ns,
                         const char *const *names, const char *const *expected,
                         const char *const *locations);
    /* Optional (REST): commit changes[i] (CommitTableRequest JSON) to table
     * ns[i].names[i], all atomically (POST /transactions/commit). Errors as
     * commit. */
    int (*commit_transaction)(floe_catalog *c, size_t n, const char *const *ns,
                              const char *const *names, const char *const *changes);
    /* Optional (REST): server-side scan planning of ns.name with a
     * PlanTableScanRequest JSON `request`. Returns 1 when the catalog does
     * not plan on the server (scan-planning-mode is not "server" or the
     * server does not advertise the endpoint: plan locally), 0 with
     * *bodies = the completed response and one FetchScanTasksResponse per
     * plan task (a floe_vec of char*, each NUL-terminated; free with
     * floe__catalog_strvec_free). Errors: FLOE_ENOTFOUND, FLOE_EINVALID,
     * FLOE_EUNSUPPORTED (a failed or cancelled plan), FLOE_EIO. */
    int (*plan_scan)(floe_catalog *c, const char *ns, const char *name, const char *request,
                     size_t len, floe_vec *bodies);
} floe_catalog_ops;

/* Optional (floe_catalog.md, NULL for most): register_table / commit_table
 * told the metadata of the new file (`m`) and of the base (`base`, NULL at
 * creation), for a catalog that mirrors table state into its own objects
 * (the Hive Metastore: columns and parameters, HiveTableOperations). */
typedef struct floe_catalog_md_ops {
    int (*register_table_md)(floe_catalog *c, const char *ns, const char *name,
                             const char *metadata_location, const floe_table_metadata *m);
    int (*commit_table_md)(floe_catalog *c, const char *ns, const char *name, const char *expected,
                           const char *new_location, const floe_table_metadata *base,
                           const floe_table_metadata *m);
} floe_catalog_md_ops;

#define FLOE_CATALOG_OPS_VERSION 1

/* Views (optional: NULL = the catalog has none). A pointer catalog (sql.c)
 * has register/commit (compare-and-set, as tables) and floe writes the view
 * metadata files; a change catalog (REST) has create/replace instead and
 * the server writes them. `body` is a REST CreateViewRequest (create) or
 * CommitViewRequest (replace); *location is the new metadata file. */
typedef struct floe_catalog_view_ops {
    int (*list_views)(floe_catalog *c, const char *ns, floe_vec *out /* char* */);
    int (*load_view)(floe_catalog *c, const char *ns, const char *name, char **location);
    int (*register_view)(floe_catalog *c, const char *ns, const char *name, const char *location);
    int (*commit_view)(floe_catalog *c, const char *ns, const char *name, const char *expected,
                       const char *new_location);
    int (*create_view)(floe_catalog *c, const char *ns, const char *name, const char *body,
                       size_t len, char **location);
    int (*replace_view)(floe_catalog *c, const char *ns, const char *name, const char *body,
                        size_t len, char **location);
    int (*rename_view)(floe_catalog *c, const char *from_ns, const char *from_name,
                       const char *to_ns, const char *to_name);
    int (*drop_view)(floe_catalog *c, const char *ns, const char *name);
} floe_catalog_view_ops;

struct floe_catalog {
    const floe_catalog_ops *ops;
    char *name;      /* catalog name */
    char *warehouse; /* without trailing '/', or NULL */
    void *impl;
    const floe_catalog_md_ops *md; /* NULL: the plain ops */
    const floe_catalog_view_ops *views; /* NULL: no views */
};

/* Validate one identifier part (len bytes, may contain NUL when coming from
 * a length-delimited source such as REST JSON). `what` names it in the
 * message ("namespace", "table name"). */
int floe__catalog_check_part(const char *part, size_t len, const char *what, const char *whole);

/* Split "a.b.t" into namespace "a.b" and name "t" (fresh strings). */
int floe__catalog_split_ident(const char *ident, char **ns, char **name);

/* FLOE_ENOTFOUND "Namespace does not exist: ns", telling (SQLite catalog)
 * when the database holds the namespace under another catalog_name. */
int floe__catalog_namespace_missing(floe_catalog *c, const char *ns);

/* Free a vector of owned strings. */
void floe__catalog_strvec_free(floe_vec *v);

/* Dispatch to the optional ops above (FLOE_EUNSUPPORTED when absent);
 * floe__catalog_commits_changes tells whether `commit` exists. */
bool floe__catalog_commits_changes(const floe_catalog *c);
int floe__catalog_commit(floe_catalog *c, const char *ident, const char *body, size_t len,
                         char **new_location);
bool floe__catalog_creates_tables(const floe_catalog *c);
int floe__catalog_create_table(floe_catalog *c, const char *ident, const char *schema_json,
                               const char *spec_json, const char *order_json, const char *location,
                               const floe_props *props, char **new_location);
bool floe__catalog_purges_tables(const floe_catalog *c);
/* floe_catalog_register_table / floe_catalog_commit_table with the new
 * file's metadata `m` (and the base's), for the catalogs that want it
 * (register_table_md / commit_table_md); `m` may be NULL. */
int floe__catalog_register_table_md(floe_catalog *c, const char *ident,
                                    const char *metadata_location, const floe_table_metadata *m);
int floe__catalog_commit_table_md(floe_catalog *c, const char *ident, const char *expected,
                                  const char *new_location, const floe_table_metadata *base,
                                  const floe_table_metadata *m);

/* Atomic multi-table pointer swap (ops->commit_tables; FLOE_EUNSUPPORTED
 * when absent): idents[i] from expected[i] to locations[i], all or none. */
bool floe__catalog_commits_tables(const floe_catalog *c);
int floe__catalog_commit_tables(floe_catalog *c, size_t n, const char *const *idents,
                                const char *const *expected, const char *const *locations);
int floe__catalog_purge_table(floe_catalog *c, const char *ident);
/* ops->commit_transaction (FLOE_EUNSUPPORTED when absent). */
int floe__catalog_commit_transaction(floe_catalog *c, size_t n, const char *const *idents,
                                     const char *const *changes);
/* ops->plan_scan; 1 (plan locally) when absent. */
int floe__catalog_plan_scan(floe_catalog *c, const char *ident, const char *request, size_t len,
                            floe_vec *bodies);

/* "View does not exist: ns.name" (FLOE_ENOTFOUND). */
int floe__catalog_no_view(const char *ns, const char *name);
/* View metadata files (catalog/view.c), shared with the REST server: read
 * one (`io` NULL: one for the location); write `m` as the file of version
 * `version` (<location>/metadata/<NNNNN>-<uuid>[.gz].metadata.json) and
 * report its path; the NNNNN of a metadata file name (-1 when none). */
struct floe_view_metadata;
int floe__catalog_view_read(struct floe_view_metadata **out, floe_fileio *io,
                            const char *location);
int floe__catalog_view_write(floe_fileio *io, const struct floe_view_metadata *m, int version,
                             char **path);
int floe__catalog_view_file_version(const char *location);
/* A pointer catalog's view commit: `body` (a CommitViewRequest, JSON) is
 * applied by spec/view.c to a fresh view (`create`; at `location`, NULL =
 * the default location) or to the current metadata, the next file is
 * written and registered / compare-and-set; *new_location is it. Errors as
 * floe_view_create and the applier (FLOE_ECONFLICT for a failed
 * requirement or a lost swap); FLOE_EUNSUPPORTED for a change catalog. */
int floe__catalog_view_commit(floe_catalog *c, const char *ident, floe_fileio *io,
                              const char *body, size_t len, bool create, const char *location,
                              char **new_location);
/* Record an existing view metadata file under `ident` (registerView). */
int floe__catalog_register_view(floe_catalog *c, const char *ident, const char *location);

/* The SQL backend. */
int floe__catalog_sql_open(floe_catalog **out, const char *path, const floe_catalog_options *o);
/* Test hook: make the next commit's UPDATE report SQLite result `sqlite_rc`
 * (e.g. SQLITE_IOERR, SQLITE_BUSY) — after really running it when `after`,
 * instead of running it otherwise. 0 disarms. */
void floe__catalog_sql_inject(floe_catalog *c, int sqlite_rc, bool after);

#endif
