/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tables: a handle on one Iceberg table of a catalog, the commit protocol
 * (requirements + updates, metadata.json written create-new, catalog
 * compare-and-set, retry with backoff), snapshot management (rollback,
 * set-current, cherry-pick, fast-forward, branches and tags), snapshot
 * selection for reads, and a table cache (Java's CachingCatalog semantics
 * or a "freshness" mode that never serves a replaced state).
 *
 * Ownership: a floe_table is the caller's (floe_table_free). It borrows the
 * catalog (and the FileIO when one is passed in the options): keep them
 * alive while the table lives. Strings and structs returned by accessors are
 * borrowed from the table's current metadata and stay valid until the next
 * call that may change it (refresh, ensure_fresh, any commit on the handle).
 *
 * Errors: every fallible function returns 0 or a negative FLOE_E* code with
 * floe_error_last() set. User-facing messages keep Iceberg's (Java and
 * Spark) wording, e.g. "Cannot roll back to snapshot, not an ancestor of
 * the current state: 42". Validation failures of snapshot operations are
 * FLOE_EINVALID; unknown snapshots and refs FLOE_ENOTFOUND where Java throws
 * for a missing object and FLOE_EINVALID where Java throws a validation
 * error (the message is what matters; each function lists its codes).
 */
#ifndef FLOE_TABLE_H
#define FLOE_TABLE_H

#include "floe/arrow.h"
#include "floe/catalog.h"
#include "floe/io.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct floe_table floe_table;

/* How a handle decides whether its metadata is current. */
typedef enum floe_table_freshness {
    /* Check before each use (floe_table_ensure_fresh): one indexed catalog
     * lookup; reload only when the metadata location changed. The default
     * for the SQLite catalog. */
    FLOE_FRESHNESS_CHECK = 0,
    /* Keep the loaded state until floe_table_refresh (Java's cached Table). */
    FLOE_FRESHNESS_CACHED = 1,
} floe_table_freshness;

typedef struct floe_table_options {
    unsigned version;        /* FLOE_TABLE_OPTIONS_VERSION */
    floe_fileio *io;         /* borrowed FileIO; NULL = open one from io_conf */
    const floe_props *io_conf; /* FileIO configuration (io.location-map, s3.*) */
    floe_table_freshness freshness;
    /* The branch writes of this handle go to (NULL = "main"); the session's
     * wap.branch. A write target, never an option a write may ignore: the
     * branch must exist when the handle is loaded (FLOE_ENOTFOUND "Cannot
     * use branch (does not exist): <b>") unless create_branch is set. */
    const char *branch;
    /* The session's wap.id: with table property write.wap.enabled=true,
     * appends are staged (committed without moving any branch, wap.id in
     * the summary) for floe_table_cherrypick_snapshot to publish. */
    const char *wap_id;
    /* The branch need not exist: the first write creates it from main's
     * head (Spark's spark.wap.branch; Java's SnapshotUtil.latestSnapshot
     * falls back to the current snapshot for a missing branch). */
    bool create_branch;
} floe_table_options;

#define FLOE_TABLE_OPTIONS_VERSION 1
#define FLOE_TABLE_OPTIONS_INIT                                                                    \
    {                                                                                              \
        FLOE_TABLE_OPTIONS_VERSION, NULL, NULL, FLOE_FRESHNESS_CHECK, NULL, NULL, false            \
    }

/* ---------------------------------------------------------------- load, create, drop */

/* Load `ident` ("ns.table") from the catalog: look up the metadata
 * location, read it through the FileIO (location map honoured) and parse
 * it. `opts` may be NULL. Errors: FLOE_ENOTFOUND "Table does not exist:
 * ident", FLOE_ECORRUPT / FLOE_EINVALID (bad metadata file, named),
 * FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_table_load(floe_table **out, floe_catalog *catalog, const char *ident,
                                const floe_table_options *opts);

/* What a new table looks like. Schema, spec and sort order are JSON in the
 * spec's Appendix C form ({"type":"struct","fields":[...]}, {"fields":[...]}
 * with "source-id"/"transform"/"name", {"fields":[...]} sort fields);
 * spec and sort order may be NULL (unpartitioned, unsorted). Field ids of
 * the schema are kept as given; partition field ids are assigned from 1000
 * when absent. `properties` may be NULL; the reserved "format-version"
 * property selects 1 or 2 (default 2) and is not stored. `location` NULL =
 * floe_catalog_default_location. A location that already holds table
 * metadata (a `*.metadata.json` file in `<location>/metadata`, e.g. a table
 * of another catalog in the same warehouse) is refused; the reserved
 * property FLOE_ALLOW_EXISTING_LOCATION = "true" (not stored) creates the
 * table there anyway. */
typedef struct floe_table_create_options {
    unsigned version; /* FLOE_TABLE_CREATE_OPTIONS_VERSION */
    const char *schema_json;
    const char *partition_spec_json;
    const char *sort_order_json;
    const floe_props *properties;
    const char *location;
} floe_table_create_options;

#define FLOE_ALLOW_EXISTING_LOCATION "floe.create.allow-existing-location"

#define FLOE_TABLE_CREATE_OPTIONS_VERSION 1
#define FLOE_TABLE_CREATE_OPTIONS_INIT                                                             \
    {                                                                                              \
        FLOE_TABLE_CREATE_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL                            \
    }

/* Create a table: write <location>/metadata/00000-<uuid>.metadata.json
 * (create-new) and register it in the catalog. On failure the written file
 * is removed. *out (may be NULL if the handle is not wanted) is the
 * caller's. Errors: FLOE_EEXISTS "Table already exists: ident" or
 * "Table already exists at location: <location>",
 * FLOE_ENOTFOUND (namespace), FLOE_EINVALID (bad schema/spec/order JSON,
 * bad format-version), FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_table_create(floe_table **out, floe_catalog *catalog, const char *ident,
                                  const floe_table_create_options *create,
                                  const floe_table_options *opts);

/* Replace an existing table's definition in one commit, as Spark's
 * REPLACE TABLE / CREATE OR REPLACE TABLE on an Iceberg catalog (Java's
 * TableMetadata.buildReplacement; spec "Schemas", "Partition Specs",
 * "Snapshot References"). The table keeps its uuid, snapshots, history,
 * metadata log and refs other than `main`, which is removed
 * (current-snapshot-id -1: the table reads empty until rows are appended;
 * old snapshots stay readable by id). The schema of `create` becomes
 * current: a column whose dotted name exists in the current schema keeps
 * its field id, new columns get ids after last-column-id; an identical
 * existing schema is reused, otherwise the next schema id is added. The
 * partition spec becomes the default (a field whose source column and
 * transform occur in an existing spec keeps that field id, others get ids
 * after last-partition-id; an identical existing spec is reused), the sort
 * order becomes unsorted, the properties are set over the old ones
 * (`format-version` may upgrade, never downgrade) and `location`, when
 * given, becomes the table location. The handle ends at the new state.
 * Errors: FLOE_EINVALID (bad schema/spec JSON, partition source missing,
 * format downgrade), FLOE_EUNSUPPORTED (format-version 1 tables, a sort
 * order), commit errors (FLOE_ECONFLICT after retries, FLOE_EIO). */
FLOE_EXTERN int floe_table_replace(floe_table *table, const floe_table_create_options *create);

/* A staged replacement: REPLACE TABLE ... AS SELECT as ONE commit (Java's
 * replace transaction, what Spark's atomic RTAS commits). *staged (the
 * caller's, floe_table_free) is a handle whose metadata is `table`'s with
 * the replacement of floe_table_replace applied — new schema, partition
 * spec and location, no `main` — and nothing is committed. Write rows
 * through it (floe_append_new(&a, *staged), floe_append_write,
 * floe_append_commit): the data files use the new schema and spec, and
 * floe_append_commit makes one commit on `table` of the replacement plus
 * the new snapshot (operation "append", no parent, totals from zero) with
 * `main` pointing at it: exactly one new metadata file. A lost
 * compare-and-set is retried on the refreshed table as any commit; when
 * the refreshed table would give the replacement other schema or spec ids
 * than the files were written for, the commit fails with FLOE_ECONFLICT
 * (nothing committed). floe_table_replace_commit commits the replacement
 * alone when nothing was committed through the handle yet (no rows). A
 * staged handle cannot be refreshed or replaced, commits once, and
 * `table` (borrowed: it must outlive *staged) ends at the committed state.
 * Freeing *staged without a commit leaves the table untouched. Errors: as
 * floe_table_replace; FLOE_EINVALID for a second commit. */
FLOE_EXTERN int floe_table_replace_begin(floe_table **staged, floe_table *table,
                                         const floe_table_create_options *create);
/* Commit a staged replacement by itself if nothing was committed through
 * it yet (0 and no commit otherwise). Errors: FLOE_EINVALID (not a staged
 * handle), commit errors as floe_table_replace. */
FLOE_EXTERN int floe_table_replace_commit(floe_table *staged);

/* Commit changes to several tables atomically: all of them or none.
 * changes[i] is table idents[i]'s change as the REST catalog's
 * CommitTableRequest JSON, {"requirements":[...],"updates":[...]} (the
 * spec's TableRequirement and TableUpdate objects, e.g.
 * {"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":42} and
 * {"action":"set-properties","updates":{"k":"v"}}). On a SQLite catalog
 * every requirement is checked against its table's current metadata, each
 * next metadata file is written, and every pointer is swapped in one
 * database transaction; on a REST catalog the changes go as one
 * POST /v1/{prefix}/transactions/commit (the server guarantees atomicity);
 * a Hive Metastore catalog, which swaps one table at a time, is
 * FLOE_EUNSUPPORTED. `opts` (may be NULL) is used to load the tables
 * (FileIO). A table named twice is FLOE_EINVALID. Errors: FLOE_ECONFLICT
 * ("Requirement failed: ..." or a concurrent commit: nothing changed;
 * reload and retry), FLOE_ENOTFOUND, FLOE_EINVALID (malformed JSON, an
 * update that cannot apply), FLOE_ECOMMITUNKNOWN (the outcome is unknown:
 * keep every file), FLOE_EUNSUPPORTED. */
FLOE_EXTERN int floe_catalog_commit_transaction(floe_catalog *catalog, size_t n,
                                                const char *const *idents,
                                                const char *const *changes,
                                                const floe_table_options *opts);

/* Drop a table from the catalog. With `purge`, afterwards delete every file
 * reachable from its metadata (Java's dropTableData): the manifest lists of
 * all snapshots, their manifests, the data and delete files those list,
 * statistics files, the current metadata file and those of its
 * metadata-log. Unreadable manifests are skipped (their files stay).
 * Errors: FLOE_ENOTFOUND, FLOE_EIO (the catalog entry is gone by then). */
FLOE_EXTERN int floe_table_drop(floe_catalog *catalog, const char *ident, bool purge,
                                const floe_table_options *opts);

FLOE_EXTERN void floe_table_free(floe_table *table);

/* Re-read the catalog pointer and the metadata (always). Errors as load. */
FLOE_EXTERN int floe_table_refresh(floe_table *table);

/* Freshness check: compare the catalog's current metadata location with
 * the loaded one (one lookup) and reload only if it changed. Returns 1 if
 * reloaded, 0 if the handle was current, negative on error. Handles in
 * FLOE_FRESHNESS_CACHED mode return 0 without looking. */
FLOE_EXTERN int floe_table_ensure_fresh(floe_table *table);

/* ---------------------------------------------------------------- accessors */

FLOE_EXTERN const char *floe_table_ident(const floe_table *table);
FLOE_EXTERN const char *floe_table_metadata_location(const floe_table *table);
FLOE_EXTERN const char *floe_table_location(const floe_table *table);
FLOE_EXTERN const char *floe_table_uuid(const floe_table *table);
FLOE_EXTERN int floe_table_format_version(const floe_table *table);
/* NULL when absent. */
FLOE_EXTERN const char *floe_table_property(const floe_table *table, const char *key);
/* The handle's FileIO (borrowed). */
FLOE_EXTERN floe_fileio *floe_table_io(const floe_table *table);

/* A snapshot as seen through the public API (strings borrowed). */
typedef struct floe_snapshot_info {
    int64_t snapshot_id;
    bool has_parent;
    int64_t parent_snapshot_id;
    int64_t sequence_number;
    int64_t timestamp_ms;
    const char *manifest_list; /* NULL for v1 inline manifests */
    const char *operation;     /* NULL when the snapshot has no summary */
} floe_snapshot_info;

/* true and *out filled when main has a snapshot. */
FLOE_EXTERN bool floe_table_current_snapshot(floe_snapshot_info *out, const floe_table *table);
/* The handle's branch ("main" unless opened on another one: the session's
 * wap.branch) and its head: what unqualified reads and writes of this
 * handle use. false when the branch has no snapshot. */
FLOE_EXTERN const char *floe_table_branch(const floe_table *table);
FLOE_EXTERN bool floe_table_branch_snapshot(floe_snapshot_info *out, const floe_table *table);
FLOE_EXTERN size_t floe_table_snapshot_count(const floe_table *table);
/* i-th snapshot in metadata order (0 <= i < count). */
FLOE_EXTERN void floe_table_snapshot_at(floe_snapshot_info *out, const floe_table *table, size_t i);
/* Summary value of a snapshot (NULL if the snapshot or key is absent). */
FLOE_EXTERN const char *floe_table_snapshot_summary(const floe_table *table, int64_t snapshot_id,
                                                    const char *key);

/* One row of the snapshot-log (the `history` metadata table). */
typedef struct floe_history_entry {
    int64_t made_current_at_ms;
    int64_t snapshot_id;
    bool has_parent;
    int64_t parent_id;
    bool is_current_ancestor;
} floe_history_entry;

FLOE_EXTERN size_t floe_table_history_count(const floe_table *table);
FLOE_EXTERN void floe_table_history_at(floe_history_entry *out, const floe_table *table, size_t i);

/* Refs. */
typedef struct floe_ref_info {
    const char *name;
    int64_t snapshot_id;
    bool is_tag;
    bool has_max_ref_age_ms;
    int64_t max_ref_age_ms;
    bool has_min_snapshots_to_keep;
    int32_t min_snapshots_to_keep;
    bool has_max_snapshot_age_ms;
    int64_t max_snapshot_age_ms;
} floe_ref_info;

FLOE_EXTERN size_t floe_table_ref_count(const floe_table *table);
FLOE_EXTERN void floe_table_ref_at(floe_ref_info *out, const floe_table *table, size_t i);
/* FLOE_ENOTFOUND when there is no such ref (message names it). */
FLOE_EXTERN int floe_table_ref(floe_ref_info *out, const floe_table *table, const char *name);

/* ---------------------------------------------------------------- snapshot selection */

/* By id. FLOE_ENOTFOUND "Cannot find snapshot with ID <id>". */
FLOE_EXTERN int floe_table_snapshot_by_id(floe_snapshot_info *out, const floe_table *table,
                                          int64_t snapshot_id);
/* By ref name (branch head or tagged snapshot). FLOE_ENOTFOUND "Cannot find
 * matching snapshot ID or reference name for version <name>". */
FLOE_EXTERN int floe_table_snapshot_by_ref(floe_snapshot_info *out, const floe_table *table,
                                           const char *ref);
/* What was current at `timestamp_ms`: the latest snapshot-log entry at or
 * before it. FLOE_ENOTFOUND "Cannot find a snapshot older than
 * 2020-01-01T00:00:00+00:00" (ISO-8601, UTC offset). */
FLOE_EXTERN int floe_table_snapshot_as_of_time(floe_snapshot_info *out, const floe_table *table,
                                               int64_t timestamp_ms);
/* 1 if `ancestor` is `snapshot` or one of its parents, else 0. */
FLOE_EXTERN int floe_table_is_ancestor_of(const floe_table *table, int64_t snapshot,
                                          int64_t ancestor);
/* Ancestors of `snapshot_id` starting with itself, newest first: calls
 * cb(info) for each; a negative cb return stops and is returned.
 * FLOE_ENOTFOUND when `snapshot_id` is unknown. */
FLOE_EXTERN int floe_table_ancestors_of(const floe_table *table, int64_t snapshot_id,
                                        int (*cb)(const floe_snapshot_info *s, void *payload),
                                        void *payload);

/* ---------------------------------------------------------------- snapshot management */
/* Each writes exactly one metadata.json and swaps the catalog pointer; on a
 * lost compare-and-set the handle refreshes, re-validates on the new state
 * and retries per commit.retry.*. The handle ends at the committed state. */

/* Move main to an ancestor of the current state. *previous / *current
 * (may be NULL) get the ids before and after. Errors: FLOE_EINVALID
 * "Cannot roll back to unknown snapshot id: <id>", "Cannot roll back to
 * snapshot, not an ancestor of the current state: <id>". */
FLOE_EXTERN int floe_table_rollback_to_snapshot(int64_t *previous, int64_t *current,
                                                floe_table *table, int64_t snapshot_id);
/* Move main to the latest ancestor strictly older than `timestamp_ms`.
 * Errors: FLOE_EINVALID "Cannot roll back, no valid snapshot older than:
 * <millis>". */
FLOE_EXTERN int floe_table_rollback_to_timestamp(int64_t *previous, int64_t *current,
                                                 floe_table *table, int64_t timestamp_ms);
/* Move main to any snapshot (no ancestry check). Errors: FLOE_EINVALID
 * "Cannot roll back to unknown snapshot id: <id>". */
FLOE_EXTERN int floe_table_set_current_snapshot(int64_t *previous, int64_t *current,
                                                floe_table *table, int64_t snapshot_id);
/* Same, to the snapshot a ref names. Errors: FLOE_ENOTFOUND "Cannot find
 * matching snapshot ID or reference name for version <ref>". */
FLOE_EXTERN int floe_table_set_current_ref(int64_t *previous, int64_t *current, floe_table *table,
                                           const char *ref);
/* Publish a staged snapshot onto main, as Java's cherrypick. The
 * fast-forward case (its parent is main's head, or both are empty) moves
 * main to it (no new snapshot, as Java). An append on another parent
 * becomes a new snapshot on main re-adding the picked snapshot's data files
 * (one manifest, the summary records source-snapshot-id and, for a WAP
 * snapshot, published-wap-id); *current is then the new id. Errors:
 * FLOE_EINVALID "Cannot cherry-pick unknown snapshot ID: <id>", "Duplicate
 * request to cherry pick wap id that was published already: <wap.id>",
 * "Cannot cherrypick snapshot <id>: already an ancestor", "Cannot
 * cherrypick snapshot <id>: already picked to create ancestor <id>",
 * "Cannot cherry-pick snapshot <id>: not append, dynamic overwrite, or
 * fast-forward"; FLOE_EUNSUPPORTED for a dynamic overwrite that is not a
 * fast-forward; errors reading the picked snapshot's manifests. */
FLOE_EXTERN int floe_table_cherrypick_snapshot(int64_t *previous, int64_t *current,
                                               floe_table *table, int64_t snapshot_id);
/* Move `branch` to the head of ref `to` when `branch` is its ancestor.
 * *previous_ref / *updated_ref are the branch's ids before and after.
 * Errors: FLOE_EINVALID "Target branch does not exist: <b>", "Ref does not
 * exist: <to>", "Ref <b> is a tag not a branch", "Cannot fast-forward: <b>
 * is not an ancestor of <to>". */
FLOE_EXTERN int floe_table_fast_forward(int64_t *previous_ref, int64_t *updated_ref,
                                        floe_table *table, const char *branch, const char *to);

/* Ref DDL (ALTER TABLE ... CREATE [OR REPLACE] BRANCH|TAG [IF NOT EXISTS]
 * ... [AS OF VERSION id] [RETAIN n unit] [WITH SNAPSHOT RETENTION ...],
 * DROP BRANCH|TAG [IF EXISTS]). */
typedef enum floe_ref_mode {
    FLOE_REF_CREATE = 0,          /* fails if the ref exists */
    FLOE_REF_CREATE_IF_NOT_EXISTS, /* no-op if it exists */
    FLOE_REF_REPLACE,             /* fails if it does not exist */
    FLOE_REF_CREATE_OR_REPLACE,
} floe_ref_mode;

typedef struct floe_ref_options {
    unsigned version; /* FLOE_REF_OPTIONS_VERSION */
    bool has_snapshot_id; /* AS OF VERSION; default: main's current snapshot */
    int64_t snapshot_id;
    bool has_max_ref_age_ms; /* RETAIN */
    int64_t max_ref_age_ms;
    bool has_min_snapshots_to_keep; /* WITH SNAPSHOT RETENTION n SNAPSHOTS (branches) */
    int32_t min_snapshots_to_keep;
    bool has_max_snapshot_age_ms; /* WITH SNAPSHOT RETENTION n DAYS (branches) */
    int64_t max_snapshot_age_ms;
} floe_ref_options;

#define FLOE_REF_OPTIONS_VERSION 1
#define FLOE_REF_OPTIONS_INIT                                                                      \
    {                                                                                              \
        FLOE_REF_OPTIONS_VERSION, false, 0, false, 0, false, 0, false, 0                           \
    }

/* Errors: FLOE_EINVALID "Ref <name> already exists", "Branch does not
 * exist: <name>", "Ref <name> is a tag not a branch", "Cannot complete
 * create or replace branch operation on <ident>, main has no snapshot",
 * "Cannot set <name> to unknown snapshot: <id>". */
FLOE_EXTERN int floe_table_create_branch(floe_table *table, const char *name, floe_ref_mode mode,
                                         const floe_ref_options *opts);
/* As branches, with "Tag does not exist", "Ref <name> is a branch not a
 * tag"; snapshot retention options are refused for tags. */
FLOE_EXTERN int floe_table_create_tag(floe_table *table, const char *name, floe_ref_mode mode,
                                      const floe_ref_options *opts);
/* Errors: FLOE_EINVALID "Cannot remove main branch", "Branch does not
 * exist: <name>" (unless if_exists), "Ref <name> is a tag not a branch". */
FLOE_EXTERN int floe_table_drop_branch(floe_table *table, const char *name, bool if_exists);
/* Errors: "Tag does not exist: <name>" (unless if_exists), "Ref <name> is a
 * branch not a tag". */
FLOE_EXTERN int floe_table_drop_tag(floe_table *table, const char *name, bool if_exists);

/* Set and remove table properties in one commit (either list may be empty). */
FLOE_EXTERN int floe_table_update_properties(floe_table *table, const floe_props *set,
                                             const char *const *remove, size_t nremove);

/* ---------------------------------------------------------------- appends */

/* An append: data written through it (Parquet files under the table's
 * data location, one open file per partition, rolled at
 * write.target-file-size-bytes) is committed as one new snapshot on the
 * handle's branch: a new manifest plus the parent's manifests in a new
 * manifest list (fast append), merged per commit.manifest.min-count-to-merge
 * / commit.manifest.target-size-bytes when commit.manifest-merge.enabled
 * (Java's MergeAppend, the default of table.newAppend()). The summary is
 * Java's SnapshotSummary (added-data-files, added-records,
 * added-files-size, changed-partition-count, total-*). On a lost
 * compare-and-set the append is re-applied on the new state. */
typedef struct floe_append floe_append;

/* Start an append on `table` (borrowed until floe_append_free).
 * Errors: FLOE_ENOMEM. */
FLOE_EXTERN int floe_append_new(floe_append **out, floe_table *table);

/* Write rows: `batch` is an Arrow struct array whose children are the
 * table's current schema's top-level fields in order, in the layout of
 * floe_table_arrow_schema (the batch stays the caller's). Rows are routed
 * to their partition's file. Errors: FLOE_EINVALID (layout mismatch, null
 * in a required field), FLOE_EUNSUPPORTED (a partitioned write of a batch
 * with rows of several partitions and nested columns), FLOE_EIO. */
FLOE_EXTERN int floe_append_write(floe_append *a, const struct ArrowArray *batch);

/* The Arrow schema of the table's current schema (what floe_append_write
 * expects). The caller releases *out. */
FLOE_EXTERN int floe_table_arrow_schema(struct ArrowSchema *out, const floe_table *table);

/* Add a custom snapshot summary property (copied). */
FLOE_EXTERN int floe_append_set(floe_append *a, const char *key, const char *value);

/* Close the data files, write manifest + manifest list, commit (retrying
 * per commit.retry.*). *snapshot_id (may be NULL) gets the new snapshot.
 * An append with no rows commits nothing and sets *snapshot_id to -1.
 * On failure every file the append wrote is deleted, except after
 * FLOE_ECOMMITUNKNOWN. The append cannot be committed twice. */
FLOE_EXTERN int floe_append_commit(int64_t *snapshot_id, floe_append *a);

/* Abort if not committed (deleting the files written so far) and free. */
FLOE_EXTERN void floe_append_free(floe_append *a);

/* ---------------------------------------------------------------- add_files */

/* Options of floe_table_add_files (Spark's CALL system.add_files). */
typedef struct floe_add_files_options {
    /* Hive partition column -> value text: only files whose directory
     * values equal every entry are added (NULL or empty: all). Refused on
     * an unpartitioned table. */
    const floe_props *partition_filter;
    /* Refuse files some live manifest entry of the table already names
     * (Java's check against the ENTRIES table, status != DELETED). */
    bool check_duplicate_files;
} floe_add_files_options;

#define FLOE_ADD_FILES_OPTIONS_INIT {NULL, true}

typedef struct floe_add_files_result {
    int64_t added_files_count;
    int64_t changed_partition_count; /* the summary's changed-partition-count */
    int64_t snapshot_id;             /* -1 when nothing was added */
} floe_add_files_result;

/* Add existing Parquet files to `table` without rewriting them, as one
 * `append` snapshot on the handle's branch (Spark's add_files with source
 * `parquet`.`<location>`). `location` is one file or a directory (read
 * through the table's FileIO); names starting with `_` or `.` are skipped.
 * For a partitioned table the files sit in Hive directories
 * `<col>=<value>/...` whose columns, in order, must be the identity
 * partition fields of one of the table's specs (the files use that spec);
 * `__HIVE_DEFAULT_PARTITION__` is null. Metrics (record count, column
 * sizes, value/null counts, bounds under the table's metrics modes) come
 * from each footer. Columns map by the file's field ids, else by name;
 * when the table has no schema.name-mapping.default, one built from the
 * current schema is committed first (as Java does), so readers can map the
 * files too. Errors (nothing committed): FLOE_ENOTFOUND (no such location,
 * no files), FLOE_EINVALID with Iceberg's messages (partition filter,
 * unmatched partition columns, "Cannot complete import because data files
 * to be imported already exist within the target table: <paths>..."),
 * FLOE_ECORRUPT (not a Parquet file), FLOE_EUNSUPPORTED (partition value
 * of a type without a Hive form), FLOE_EIO, FLOE_ENOMEM. `out` may be NULL. */
FLOE_EXTERN int floe_table_add_files(floe_add_files_result *out, floe_table *table,
                                     const char *location, const floe_add_files_options *opts);

/* ---------------------------------------------------------------- row-level changes */

/* DELETE / UPDATE / MERGE / INSERT OVERWRITE as one snapshot (spec
 * "Row-level Deletes", "Position Delete Files", "Equality Delete Files";
 * Java's OverwriteFiles, RowDelta, ReplacePartitions and their
 * MergingSnapshotProducer validation). See docs/rowlevel.md.
 *
 * An operation collects: rows to remove (a filter and/or per-file position
 * lists), new rows (Arrow batches, as floe_append_write), and, for callers
 * that have keys, equality deletes. floe_rowlevel_commit finds the affected
 * rows in the snapshot the operation started from (the handle's branch head
 * when it was created) and then either
 *  - copy-on-write (default): rewrites every data file holding a removed
 *    row with its other live rows and removes it (a file whose live rows
 *    all go is just removed);
 *  - merge-on-read (`write.delete.mode` / `write.update.mode` /
 *    `write.merge.mode` = merge-on-read, by kind): writes Parquet position
 *    delete files (file_path 2147483546, pos 2147483545, sorted) in a
 *    delete manifest, one per partition.
 * The snapshot's operation is `delete` when rows or files are only removed,
 * `overwrite` when rows are also added, `append` when only added; the
 * summary is Java's (deleted-data-files, deleted-records, removed-files-size,
 * added-delete-files, added-position-deletes, added-position-delete-files,
 * ...). A lost compare-and-set re-validates against every snapshot committed
 * on the branch since the start (isolation `write.delete.isolation-level` /
 * `write.update.isolation-level` / `write.merge.isolation-level`:
 * serializable (default) or snapshot) and fails with FLOE_EINVALID and
 * Java's messages: "Found conflicting files that can contain records
 * matching <filter>: [paths]" (serializable: a new data file may hold
 * matching rows), "Found conflicting deleted files that can contain records
 * matching <filter>: [paths]" (a file we read was removed), "Found new
 * conflicting delete files that can apply to records matching <filter>:
 * [paths]" (new deletes on a file we touch); nothing is changed then. */
typedef struct floe_rowlevel floe_rowlevel;

typedef enum floe_rowlevel_kind {
    FLOE_ROWLEVEL_DELETE = 0, /* write.delete.mode / write.delete.isolation-level */
    FLOE_ROWLEVEL_UPDATE = 1, /* write.update.* */
    FLOE_ROWLEVEL_MERGE = 2,  /* write.merge.* */
    /* INSERT OVERWRITE: the new rows replace (copy-on-write always) every
     * live data file of the partitions they land in (Java ReplacePartitions,
     * dynamic mode; summary replace-partitions=true), plus what a filter
     * removes. On an unpartitioned table every file is replaced. */
    FLOE_ROWLEVEL_OVERWRITE_DYNAMIC = 3,
    /* Compaction (Java RewriteFiles, operation `replace`): the data files
     * named by the rewrite (maint's rewrite_data_files) are removed and the
     * rows written replace them; copy-on-write always. A concurrent commit
     * that removed one of them fails the commit ("Missing required files to
     * delete: [paths]"), as does a new delete file that may apply to one
     * ("Cannot commit, found new delete for replaced data file: [paths]"):
     * rows are never resurrected. Concurrent appends do not conflict. */
    FLOE_ROWLEVEL_REWRITE = 4,
} floe_rowlevel_kind;

typedef enum floe_rowlevel_mode {
    FLOE_ROWLEVEL_MODE_TABLE = 0, /* from the table property of the kind */
    FLOE_ROWLEVEL_MODE_COPY_ON_WRITE = 1,
    FLOE_ROWLEVEL_MODE_MERGE_ON_READ = 2,
} floe_rowlevel_mode;

typedef enum floe_isolation {
    FLOE_ISOLATION_TABLE = 0, /* from the table property of the kind */
    FLOE_ISOLATION_SERIALIZABLE = 1,
    FLOE_ISOLATION_SNAPSHOT = 2,
} floe_isolation;

typedef struct floe_rowlevel_options {
    unsigned version; /* FLOE_ROWLEVEL_OPTIONS_VERSION */
    floe_rowlevel_kind kind;
    floe_rowlevel_mode mode;
    floe_isolation isolation;
} floe_rowlevel_options;

#define FLOE_ROWLEVEL_OPTIONS_VERSION 1
#define FLOE_ROWLEVEL_OPTIONS_INIT                                                                 \
    {                                                                                              \
        FLOE_ROWLEVEL_OPTIONS_VERSION, FLOE_ROWLEVEL_DELETE, FLOE_ROWLEVEL_MODE_TABLE,             \
            FLOE_ISOLATION_TABLE                                                                   \
    }

/* Start an operation on the handle's branch (the handle is borrowed until
 * floe_rowlevel_free; it is brought up to date first unless cached). `opts`
 * may be NULL (DELETE, table's mode and isolation). Errors: FLOE_EINVALID
 * (bad options or mode/isolation property values, "Ref x is a tag not a
 * branch"), FLOE_EUNSUPPORTED (format version 1 with merge-on-read),
 * FLOE_ENOMEM, catalog errors of the freshness check. */
FLOE_EXTERN int floe_rowlevel_new(floe_rowlevel **out, floe_table *table,
                                  const floe_rowlevel_options *opts);

/* The snapshot the operation reads (the branch head at start; -1 when the
 * branch is empty). Callers computing new rows (UPDATE, MERGE) should scan
 * this snapshot (floe_scan_options.has_snapshot_id) so validation covers
 * exactly what they read. */
FLOE_EXTERN int64_t floe_rowlevel_base_snapshot(const floe_rowlevel *op);
/* Copy-on-write or merge-on-read, as resolved at start. */
FLOE_EXTERN floe_rowlevel_mode floe_rowlevel_mode_of(const floe_rowlevel *op);

/* Remove the live rows matching `filter` (the textual form of
 * floe_scan_options.filter, bound to the current schema; NULL or "" = every
 * row). May be called several times (rows matching any filter go). The
 * filter is also the conflict-detection filter. Errors: FLOE_EINVALID
 * (syntax, unknown column), FLOE_ENOMEM. */
FLOE_EXTERN int floe_rowlevel_delete_where(floe_rowlevel *op, const char *filter);

/* Remove rows by position (0-based row index in the data file, as the
 * spec's position deletes) of the live data file `data_file_path` of the
 * base snapshot. Positions are copied; order and duplicates do not matter.
 * Rows already deleted are ignored. The file must be live at commit
 * (FLOE_EINVALID "Cannot commit, missing data files: [path]" otherwise).
 * Errors: FLOE_EINVALID (negative position), FLOE_ENOMEM. */
FLOE_EXTERN int floe_rowlevel_delete_positions(floe_rowlevel *op, const char *data_file_path,
                                               const int64_t *positions, size_t n);

/* Add rows (UPDATE's new versions, MERGE's inserts, INSERT OVERWRITE's
 * rows): same layout and errors as floe_append_write. On a format v3
 * table a batch may also carry, after the schema's columns, the row
 * lineage columns `_row_id` and `_last_updated_sequence_number` (int64,
 * null = inherited: a new id, the commit's sequence number), as Spark's
 * UPDATE keeps a row's id with a null sequence number (spec "Row
 * Lineage"). */
FLOE_EXTERN int floe_rowlevel_write(floe_rowlevel *op, const struct ArrowArray *batch);

/* Add an equality delete file (merge-on-read for callers that have keys):
 * `batch` is a struct array whose children are the fields `equality_ids`
 * of the current schema, in that order (their types' Arrow layout). Every
 * row of the table whose values on those columns equal a row of the batch
 * (null-safe), in a data file with a smaller data sequence number, is
 * deleted. Unpartitioned tables only for now. Errors: FLOE_EINVALID
 * (unknown or nested id, layout), FLOE_EUNSUPPORTED (partitioned table,
 * format version 1), FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_rowlevel_write_equality_deletes(floe_rowlevel *op,
                                                     const int32_t *equality_ids, size_t nids,
                                                     const struct ArrowArray *batch);

/* Add a custom snapshot summary property (copied). */
FLOE_EXTERN int floe_rowlevel_set(floe_rowlevel *op, const char *key, const char *value);

/* Find the rows, write files and manifests, commit (retrying per
 * commit.retry.*, re-validating each time). *snapshot_id (may be NULL) gets
 * the new snapshot, or -1 when nothing changed (no row matched and nothing
 * was written: no snapshot, like Spark's DELETE matching nothing). On
 * failure every file written is deleted (except after FLOE_ECOMMITUNKNOWN).
 * *stats (may be NULL) gets what the operation did. Errors: FLOE_EINVALID
 * (the conflicts above), FLOE_EUNSUPPORTED (non-Parquet data files, nested
 * columns in a rewritten file), errors of reading, writing and committing. */
typedef struct floe_rowlevel_stats {
    int64_t rows_deleted;        /* live rows removed */
    int64_t rows_added;          /* new rows written */
    int64_t data_files_removed;
    int64_t data_files_added;    /* rewritten + new */
    int64_t delete_files_added;
    int64_t bytes_written;       /* data + delete files (not metadata) */
    int64_t files_read;          /* data files scanned to find rows */
} floe_rowlevel_stats;

FLOE_EXTERN int floe_rowlevel_commit(int64_t *snapshot_id, floe_rowlevel_stats *stats,
                                     floe_rowlevel *op);

/* Abort if not committed (deleting files written) and free. NULL is fine. */
FLOE_EXTERN void floe_rowlevel_free(floe_rowlevel *op);

/* ---------------------------------------------------------------- table cache */

/* A cache of loaded tables over one catalog, like Iceberg's CachingCatalog
 * (cache-enabled, cache.expiration-interval-ms since last access, explicit
 * refresh), or in freshness mode (each get checks the catalog pointer and
 * reloads only on change). */
typedef struct floe_table_cache floe_table_cache;

typedef enum floe_table_cache_mode {
    FLOE_CACHE_FRESHNESS = 0, /* default: check the pointer on every get */
    FLOE_CACHE_EXPIRING = 1,  /* Java: keep until idle for expiration_ms or refreshed */
    FLOE_CACHE_DISABLED = 2,  /* cache-enabled=false: load on every get */
} floe_table_cache_mode;

typedef struct floe_table_cache_options {
    unsigned version; /* FLOE_TABLE_CACHE_OPTIONS_VERSION */
    floe_table_cache_mode mode;
    int64_t expiration_ms; /* FLOE_CACHE_EXPIRING: 0 = 30000 (Java's default); <0 = never */
    floe_table_options table; /* options for the handles it loads */
} floe_table_cache_options;

#define FLOE_TABLE_CACHE_OPTIONS_VERSION 1
#define FLOE_TABLE_CACHE_OPTIONS_INIT                                                              \
    {                                                                                              \
        FLOE_TABLE_CACHE_OPTIONS_VERSION, FLOE_CACHE_FRESHNESS, 0, FLOE_TABLE_OPTIONS_INIT         \
    }

/* The catalog is borrowed. Errors: FLOE_ENOMEM. */
FLOE_EXTERN int floe_table_cache_new(floe_table_cache **out, floe_catalog *catalog,
                                     const floe_table_cache_options *opts);
FLOE_EXTERN void floe_table_cache_free(floe_table_cache *cache);
/* The table for `ident` (borrowed; valid until the next get/refresh/
 * invalidate of the same ident or cache_free). Errors as floe_table_load. */
FLOE_EXTERN int floe_table_cache_get(floe_table **out, floe_table_cache *cache, const char *ident);
/* REFRESH TABLE: reload the cached entry now (loads it if absent). */
FLOE_EXTERN int floe_table_cache_refresh(floe_table_cache *cache, const char *ident);
/* Forget the entry (no error if absent). */
FLOE_EXTERN void floe_table_cache_invalidate(floe_table_cache *cache, const char *ident);
/* A commit of `written`'s table went through another handle (a write
 * target on a branch, a procedure): the cached entry, if any, takes the
 * state that commit produced, as Java's cached Table is the object that
 * committed (a session always sees its own writes, whatever the mode).
 * No entry: nothing to do. Errors: reading the metadata file. */
FLOE_EXTERN int floe_table_cache_committed(floe_table_cache *cache, const floe_table *written);

#ifdef __cplusplus
}
#endif
#endif
