/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Catalogs: where a table's name points to its current metadata.json.
 *
 * A catalog stores pointers only. Writing metadata files is the table
 * layer's job; the catalog makes a new metadata file current with one
 * compare-and-set (floe_catalog_commit_table), which is the single moment a
 * commit becomes visible to readers.
 *
 * The `sql` catalog is a SQLite file in the schema of Apache Iceberg's JDBC
 * catalog and PyIceberg's SqlCatalog (tables iceberg_tables and
 * iceberg_namespace_properties), so those tools can open floe's warehouse
 * and floe can open theirs.
 *
 * Names: a namespace is a dotted string of one or more levels ("db",
 * "prod.sales"); a table identifier is a namespace plus the table name
 * ("prod.sales.orders"). Every level must be non-empty and free of '/', '\\',
 * "..", NUL and control characters; a namespace string and a table name are
 * at most 255 bytes. Bad names fail with FLOE_EINVALID naming the part.
 *
 * All functions return 0 or a negative FLOE_E* code with floe_error_last()
 * set. Strings returned through `char **` are the caller's; free them with
 * floe_string_free().
 */
#ifndef FLOE_CATALOG_H
#define FLOE_CATALOG_H

#include "floe/common.h"
#include "floe/sys/fileio.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct floe_catalog floe_catalog;

/* The catalog name used when none is given, everywhere in floe (the
 * library, `floe sql`, `floe serve`, `floe log`, ...): Iceberg's Spark
 * quickstart name (`spark.sql.catalog.local`). It is the catalog_name
 * column of the JDBC catalog schema and the first part of three-part SQL
 * names. */
#define FLOE_CATALOG_DEFAULT_NAME "local"

typedef struct floe_catalog_options {
    unsigned version;      /* FLOE_CATALOG_OPTIONS_VERSION */
    const char *name;      /* catalog_name column; NULL = FLOE_CATALOG_DEFAULT_NAME */
    const char *warehouse; /* root of default table locations; NULL = none */
    int busy_timeout_ms;   /* wait for a locked database; 0 = 30000 */
    bool no_create;        /* fail instead of creating the file and tables */
} floe_catalog_options;

#define FLOE_CATALOG_OPTIONS_VERSION 1
#define FLOE_CATALOG_OPTIONS_INIT                                                                  \
    {                                                                                              \
        FLOE_CATALOG_OPTIONS_VERSION, NULL, NULL, 0, false                                         \
    }

/* Open (creating if needed) a SQLite catalog. `path` is a file path,
 * "sqlite:///relative.db", "sqlite:////absolute.db" (SQLAlchemy form, as
 * PyIceberg's `uri`) or "jdbc:sqlite:/path" (Java form). The database runs
 * in WAL mode with synchronous=FULL; a table created by Java's V0 schema
 * (without iceberg_type) is used as is. `opts` may be NULL. Strings in opts
 * are copied. Errors: FLOE_EIO (cannot open / not a catalog database),
 * FLOE_EINVALID, FLOE_ENOMEM. */
FLOE_EXTERN int floe_catalog_open_sql(floe_catalog **out, const char *path,
                                      const floe_catalog_options *opts);

/* ---------------------------------------------------------------- REST */

/* Options of a client for an Iceberg REST catalog
 * (open-api/rest-catalog-open-api.yaml). Every string is copied. */
typedef struct floe_rest_catalog_options {
    unsigned version;      /* FLOE_REST_CATALOG_OPTIONS_VERSION */
    const char *name;      /* the catalog's name in floe; NULL = "rest" */
    const char *warehouse; /* sent as GET /v1/config?warehouse=...; NULL = none */
    const char *token;     /* bearer token (Authorization: Bearer ...) */
    /* OAuth2 client credentials "client_id:client_secret" (or just a
     * secret): exchanged for a token at oauth2_server_uri (NULL =
     * <uri>/v1/oauth/tokens) with grant_type=client_credentials and
     * `scope` (NULL = "catalog"). Ignored when `token` is set. */
    const char *credential;
    const char *oauth2_server_uri;
    const char *scope;
    /* Value of X-Iceberg-Access-Delegation (e.g. "vended-credentials");
     * NULL = header not sent (the default: floe reads files itself). */
    const char *access_delegation;
    bool snapshots_refs; /* loadTable with snapshots=refs instead of all */
    long timeout_ms;     /* per request; 0 = 60000 */
    /* Version 2. Java's catalog property `scan-planning-mode`: "server"
     * plans table scans on the server (POST .../plan, when /v1/config
     * advertises it; the file scan tasks it returns are read by floe),
     * "client" or NULL plans locally from the manifests. The server's
     * /v1/config overrides win, its defaults apply when this is NULL. */
    const char *scan_planning_mode;
} floe_rest_catalog_options;

#define FLOE_REST_CATALOG_OPTIONS_VERSION 2
#define FLOE_REST_CATALOG_OPTIONS_INIT                                                             \
    {                                                                                              \
        FLOE_REST_CATALOG_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false, 0,     \
            NULL                                                                                   \
    }

/* Open a client for the REST catalog at `uri` ("http://host:port", or
 * with a path prefix "http://host/api/catalog"; the "/v1/..." routes are
 * appended). Fetches GET /v1/config first (defaults, then the options,
 * then overrides; `prefix` selects /v1/{prefix}/...; "warehouse" becomes
 * floe_catalog_warehouse()). With it, every floe_catalog_* and floe_table_*
 * call goes over HTTP: table changes are sent as requirements + updates
 * (POST .../tables/{table}), creates as createTable, purges as DELETE with
 * purgeRequested=true; floe_catalog_commit_table (a raw pointer swap) is
 * FLOE_EUNSUPPORTED. Errors from the server map to: 400 FLOE_EINVALID,
 * 401/403 FLOE_EINVALID "not authorized", 404 FLOE_ENOTFOUND, 409
 * FLOE_EEXISTS (commits: FLOE_ECONFLICT, which the table layer retries),
 * 406/501 FLOE_EUNSUPPORTED, 5xx FLOE_EIO (commits: 500/502/503/504 and
 * transport failures after sending FLOE_ECOMMITUNKNOWN); the message is the
 * server's ErrorModel message. Data and metadata files are read and written
 * by floe's FileIO (floe_table_options.io). `opts` may be NULL. */
FLOE_EXTERN int floe_catalog_open_rest(floe_catalog **out, const char *uri,
                                       const floe_rest_catalog_options *opts);

/* ---------------------------------------------------------------- Hive Metastore */
/* Options of a Hive Metastore client (Iceberg's HiveCatalog; Spark's
 * spark.sql.catalog.<name>.type=hive). Every string is copied. */
typedef struct floe_hive_catalog_options {
    unsigned version; /* FLOE_HIVE_CATALOG_OPTIONS_VERSION */
    const char *name; /* the catalog's name in floe; NULL = "hive" */
    /* Root of new databases' locations (<warehouse>/<db>.db) when a
     * namespace is created without a location; NULL = the metastore's
     * hive.metastore.warehouse.dir. Tables default to <db location>/<table>. */
    const char *warehouse;
    long timeout_ms; /* connect and per-call read timeout; 0 = 60000 */
    bool framed;     /* TFramedTransport instead of the buffered default */
    /* engine.hive.lock-enabled=false: commit without an HMS lock, relying on
     * the metastore's expected-parameter check (Hive 4; older metastores
     * do not check, so only one writer may commit at a time). */
    bool lock_disabled;
    long lock_timeout_ms;            /* iceberg.hive.lock-timeout-ms; 0 = 180000 */
    long lock_check_min_wait_ms;     /* iceberg.hive.lock-check-min-wait-ms; 0 = 50 */
    long lock_check_max_wait_ms;     /* iceberg.hive.lock-check-max-wait-ms; 0 = 5000 */
    long lock_heartbeat_interval_ms; /* iceberg.hive.lock-heartbeat-interval-ms; 0 = 240000 */
    /* iceberg.hive.table-property-max-size: longest current-schema,
     * current-snapshot-summary, default-partition-spec, default-sort-order
     * mirrored into the HMS table parameters; 0 = 32672, < 0 = none of them
     * (and no current-snapshot-id / -timestamp-ms). */
    long table_property_max_size;
} floe_hive_catalog_options;
#define FLOE_HIVE_CATALOG_OPTIONS_VERSION 1
#define FLOE_HIVE_CATALOG_OPTIONS_INIT                                                             \
    {                                                                                              \
        FLOE_HIVE_CATALOG_OPTIONS_VERSION, NULL, NULL, 0, false, false, 0, 0, 0, 0, 0              \
    }
/* Open a client for the Hive Metastore at `uri` ("thrift://host:port", or
 * several comma-separated, tried in order), connecting at once. Namespaces
 * are HMS databases (one level); tables are HMS tables with Iceberg's
 * HiveCatalog parameters (table_type=ICEBERG, metadata_location,
 * previous_metadata_location, EXTERNAL=TRUE); a commit takes an HMS table
 * lock, checks metadata_location is still the base, alters the table and
 * unlocks (docs/catalog.md). Errors: FLOE_EIO (cannot connect), FLOE_EINVALID
 * (bad uri); later calls map the metastore's exceptions to Iceberg's
 * messages ("Table does not exist: db.t", "Not an iceberg table: ...",
 * "Namespace db is not empty. One or more tables exist."). `opts` may be NULL. */
FLOE_EXTERN int floe_catalog_open_hive(floe_catalog **out, const char *uri,
                                       const floe_hive_catalog_options *opts);
/* Close the catalog (NULL is fine). */
FLOE_EXTERN void floe_catalog_free(floe_catalog *catalog);

/* Borrowed: the catalog name and the warehouse (NULL if none). */
FLOE_EXTERN const char *floe_catalog_name(const floe_catalog *catalog);
FLOE_EXTERN const char *floe_catalog_warehouse(const floe_catalog *catalog);

/* ---------------------------------------------------------------- namespaces */

/* Create a namespace with properties (`props` may be NULL). The reserved key
 * "exists" is refused. Parents need not exist (as in the JDBC catalog).
 * Errors: FLOE_EEXISTS "Namespace already exists: ns", FLOE_EINVALID. */
FLOE_EXTERN int floe_catalog_create_namespace(floe_catalog *catalog, const char *ns,
                                              const floe_props *props);

/* 1 if the namespace exists (explicitly, or implied by a table or a nested
 * namespace under it), 0 if not, negative on error. */
FLOE_EXTERN int floe_catalog_namespace_exists(floe_catalog *catalog, const char *ns);

/* Append the namespace's properties to `out` (an empty floe_props).
 * Errors: FLOE_ENOTFOUND "Namespace does not exist: ns". */
FLOE_EXTERN int floe_catalog_load_namespace(floe_props *out, floe_catalog *catalog, const char *ns);

/* Call cb for each direct child of `parent` (NULL or "" = top level), in
 * ascending order, with the child's full dotted name. Errors: FLOE_ENOTFOUND
 * when `parent` does not exist; a negative cb return stops and is returned. */
FLOE_EXTERN int floe_catalog_list_namespaces(floe_catalog *catalog, const char *parent,
                                             int (*cb)(const char *ns, void *payload),
                                             void *payload);

/* Set `updates` and remove the keys `removals[0..nremovals)` in one
 * transaction (either may be empty). Errors: FLOE_ENOTFOUND, FLOE_EINVALID
 * (reserved key "exists"). */
FLOE_EXTERN int floe_catalog_update_namespace(floe_catalog *catalog, const char *ns,
                                              const floe_props *updates,
                                              const char *const *removals, size_t nremovals);

/* Drop an empty namespace. Errors: FLOE_ENOTFOUND; FLOE_EINVALID
 * "Namespace ns is not empty. Contains N table(s)." (or namespace(s)). */
FLOE_EXTERN int floe_catalog_drop_namespace(floe_catalog *catalog, const char *ns);

/* ---------------------------------------------------------------- tables */

/* Record a new table whose current metadata is `metadata_location`.
 * Errors: FLOE_ENOTFOUND (namespace), FLOE_EEXISTS "Table already exists:
 * ident", FLOE_EINVALID. */
FLOE_EXTERN int floe_catalog_register_table(floe_catalog *catalog, const char *ident,
                                            const char *metadata_location);

/* The table's current metadata location (and, if `previous` is not NULL,
 * the previous one or NULL). Errors: FLOE_ENOTFOUND "Table does not exist:
 * ident". */
FLOE_EXTERN int floe_catalog_load_table(char **metadata_location, char **previous,
                                        floe_catalog *catalog, const char *ident);

/* Call cb(namespace, table_name) for every table of `ns`, sorted by name.
 * Errors: FLOE_ENOTFOUND (namespace). */
FLOE_EXTERN int floe_catalog_list_tables(floe_catalog *catalog, const char *ns,
                                         int (*cb)(const char *ns, const char *name, void *payload),
                                         void *payload);

/* Rename a table (possibly into another existing namespace).
 * Errors: FLOE_ENOTFOUND (table or target namespace), FLOE_EEXISTS. */
FLOE_EXTERN int floe_catalog_rename_table(floe_catalog *catalog, const char *from, const char *to);

/* Forget a table (its files are untouched). Errors: FLOE_ENOTFOUND. */
FLOE_EXTERN int floe_catalog_drop_table(floe_catalog *catalog, const char *ident);

/* Compare-and-set the table's pointer: make `new_location` current if the
 * current one is still `expected_location`, with previous_metadata_location
 * = expected_location, in one statement. Errors: FLOE_ECONFLICT (the
 * pointer moved: refresh and retry), FLOE_ENOTFOUND (no such table),
 * FLOE_ECOMMITUNKNOWN (the database failed mid-commit: the swap may or may
 * not have happened; never delete the new metadata), FLOE_EIO (the database
 * was busy past the timeout or unreadable; nothing changed). */
FLOE_EXTERN int floe_catalog_commit_table(floe_catalog *catalog, const char *ident,
                                          const char *expected_location, const char *new_location);

/* Default location of a new table: the namespace's "location" property +
 * "/<table>" when set, else "<warehouse>/<namespace>.db/<table>" (Spark's
 * layout). Errors: FLOE_EINVALID when the catalog has no warehouse. */
FLOE_EXTERN int floe_catalog_default_location(char **out, floe_catalog *catalog, const char *ident);

/* ---------------------------------------------------------------- views */
/* Iceberg views (format/view-spec.md): a name in the catalog pointing to a
 * view metadata file that holds the view's versions (SQL text per dialect,
 * schema, default namespace). In the `sql` catalog a view is a row of
 * iceberg_tables with iceberg_type = 'VIEW' (Java's JdbcCatalog); over REST
 * the /views routes are used. A view and a table cannot share a name. The
 * `hive` catalog has no views (FLOE_EUNSUPPORTED). */

typedef struct floe_view floe_view;

/* What a new view version says. Every string is copied. */
typedef struct floe_view_options {
    unsigned version;              /* FLOE_VIEW_OPTIONS_VERSION */
    const char *sql;               /* the SELECT (required) */
    const char *dialect;           /* NULL = "spark" */
    const char *schema_json;       /* Iceberg schema JSON of the result columns (required) */
    const char *default_catalog;   /* NULL = none (the view's own catalog) */
    const char *default_namespace; /* dotted; NULL = the view's namespace */
    const floe_props *properties;  /* set on the view (e.g. "comment"); may be NULL */
    const char *location;          /* NULL = the default location (as for tables) */
    const char *engine_name;       /* summary engine-name; NULL = "floe" */
    const char *engine_version;    /* summary engine-version; NULL = floe's version */
    floe_fileio *io;               /* borrowed; NULL = one for the location */
} floe_view_options;

#define FLOE_VIEW_OPTIONS_VERSION 1
#define FLOE_VIEW_OPTIONS_INIT                                                                     \
    {                                                                                              \
        FLOE_VIEW_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL      \
    }

/* Create a view (`replace` false), or replace it when it exists
 * (CREATE OR REPLACE: a new version becomes current, properties are set;
 * created when missing). Errors: FLOE_EEXISTS "View already exists: ident",
 * "Table with same name already exists: ident"; FLOE_ENOTFOUND (namespace);
 * FLOE_ECONFLICT (a concurrent replace won; retry); FLOE_EINVALID (bad
 * options or schema); FLOE_EUNSUPPORTED (catalog without views). */
FLOE_EXTERN int floe_view_create(floe_catalog *catalog, const char *ident,
                                 const floe_view_options *opts, bool replace);

/* Load a view. `io` may be NULL. Errors: FLOE_ENOTFOUND "View does not
 * exist: ident", FLOE_ECORRUPT / FLOE_EINVALID (bad metadata file). Free
 * with floe_view_free(). */
FLOE_EXTERN int floe_view_load(floe_view **out, floe_catalog *catalog, const char *ident,
                               floe_fileio *io);
FLOE_EXTERN void floe_view_free(floe_view *view);

/* Borrowed, live as long as the view: the metadata file, the current
 * version's SQL for `dialect` (case-insensitive; NULL = the first; NULL
 * when it has none), its default namespace (dotted, "" when empty) and
 * default catalog (NULL), a view property (NULL when absent). */
FLOE_EXTERN const char *floe_view_metadata_location(const floe_view *view);
FLOE_EXTERN const char *floe_view_sql(const floe_view *view, const char *dialect);
FLOE_EXTERN const char *floe_view_default_namespace(const floe_view *view);
FLOE_EXTERN const char *floe_view_default_catalog(const floe_view *view);
FLOE_EXTERN const char *floe_view_property(const floe_view *view, const char *key);
/* The current version's id, and the schema / the whole metadata as JSON
 * (caller's, free with floe_string_free). */
FLOE_EXTERN int floe_view_current_version_id(const floe_view *view);
FLOE_EXTERN int floe_view_schema_json(char **out, const floe_view *view);
FLOE_EXTERN int floe_view_metadata_json(char **out, const floe_view *view);

/* Call cb(namespace, view_name) for every view of `ns`, sorted by name.
 * Errors: FLOE_ENOTFOUND (namespace), FLOE_EUNSUPPORTED. */
FLOE_EXTERN int floe_catalog_list_views(floe_catalog *catalog, const char *ns,
                                        int (*cb)(const char *ns, const char *name, void *payload),
                                        void *payload);
/* 1 if the view exists, 0 if not, negative on error. */
FLOE_EXTERN int floe_catalog_view_exists(floe_catalog *catalog, const char *ident);
/* Rename a view. Errors: FLOE_ENOTFOUND "View does not exist: from" (or the
 * target namespace), FLOE_EEXISTS "Cannot rename a to b. View already
 * exists" / "... Table already exists". */
FLOE_EXTERN int floe_catalog_rename_view(floe_catalog *catalog, const char *from, const char *to);
/* Forget a view (its metadata files are untouched). FLOE_ENOTFOUND. */
FLOE_EXTERN int floe_catalog_drop_view(floe_catalog *catalog, const char *ident);

/* Check a table identifier / namespace without touching the catalog. */
FLOE_EXTERN int floe_catalog_check_identifier(const char *ident);
FLOE_EXTERN int floe_catalog_check_namespace(const char *ns);

#ifdef __cplusplus
}
#endif
#endif
