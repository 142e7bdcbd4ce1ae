/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table maintenance: snapshot expiry, orphan-file removal, the inventory of
 * one pinned snapshot and a retention report. These are the only floe
 * operations that delete files a commit once wrote, so each follows the
 * Iceberg reachability rules exactly (spec "Snapshots", "Manifests":
 * "Note that for any snapshot, all file paths marked with ADDED or EXISTING
 * may appear at most once across all manifest files in the snapshot"; a
 * file may be removed from storage once no retained snapshot references
 * it). docs/maint.md explains the algorithms.
 *
 * Every function opens the table through a catalog (`ident` is "ns.table")
 * and a FileIO: the options' `io` when set (borrowed), otherwise one opened
 * for the table location with `io_conf` (io.location-map, s3.*). Counts and
 * rows use the column names of the Spark procedures so that the SQL shell
 * can return them as they are.
 */
#ifndef FLOE_MAINT_H
#define FLOE_MAINT_H

#include "floe/catalog.h"
#include "floe/common.h"
#include "floe/evolve.h"
#include "floe/io.h"
#include "floe/progress.h"
#include "floe/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- expire_snapshots */

/* Kinds of file an expiry or orphan sweep may delete (callback argument). */
typedef enum floe_maint_file_kind {
    FLOE_MAINT_DATA_FILE = 0,
    FLOE_MAINT_POSITION_DELETE_FILE,
    FLOE_MAINT_EQUALITY_DELETE_FILE,
    FLOE_MAINT_MANIFEST,
    FLOE_MAINT_MANIFEST_LIST,
    FLOE_MAINT_STATISTICS_FILE,
    FLOE_MAINT_METADATA_FILE,
    FLOE_MAINT_OTHER,
} floe_maint_file_kind;

/* "data_file", "position_delete_file", ..., never NULL. */
FLOE_EXTERN const char *floe_maint_file_kind_name(floe_maint_file_kind kind);

typedef struct floe_maint_expire_options {
    unsigned version; /* FLOE_MAINT_EXPIRE_OPTIONS_VERSION */
    /* Expire snapshots older than this (ms since epoch). Unset: now minus
     * history.expire.max-snapshot-age-ms (default 5 days). Branches with
     * their own max-snapshot-age-ms use theirs. */
    bool has_older_than;
    int64_t older_than_ms;
    /* Keep at least this many ancestors of each branch. 0: the table's
     * history.expire.min-snapshots-to-keep (default 1); branches with their
     * own min-snapshots-to-keep use theirs. */
    int retain_last;
    /* Also expire exactly these snapshots (borrowed). A snapshot a retained
     * ref points at cannot be named: FLOE_EINVALID "Cannot expire <id>.
     * Still referenced by refs: [<names>]". Unknown ids are ignored. */
    const int64_t *snapshot_ids;
    size_t nsnapshot_ids;
    /* Compute and report, commit and delete nothing. */
    bool dry_run;
    /* Accepted for Spark compatibility; unused specs/schemas are kept. */
    bool clean_expired_metadata;
    /* Called for every file deleted (or, with dry_run, that would be) with
     * its kind and location; a negative return stops (after the commit, so
     * some files may stay as orphans) and is returned. May be NULL. */
    int (*on_file)(floe_maint_file_kind kind, const char *location, void *payload);
    void *payload;
    int64_t now_ms;            /* 0: the wall clock */
    floe_fileio *io;           /* borrowed; NULL: opened for the table location */
    const floe_props *io_conf; /* for the FileIO opened when io is NULL */
    /* Progress reports (include/floe/progress.h) while the work runs; NULL:
     * none. The payload is passed back as it is. */
    floe_progress_fn progress;
    void *progress_payload;
    /* The per-file report, before anything is deleted: every file that
     * goes (or, with dry_run, would), with the reason "expired snapshot
     * <id>" (manifest lists, manifests and files of the snapshot that
     * listed them; "dropped from the metadata log" for metadata files),
     * then every file an expired snapshot listed that stays (kept = true),
     * with "kept: referenced by ref <name> (snapshot <id>)" or "kept:
     * snapshot <id> is retained". A negative return stops before any
     * deletion and is returned. May be NULL. */
    int (*on_report)(floe_maint_file_kind kind, const char *location, const char *reason, bool kept,
                     void *payload);
    /* Write that report as CSV (status,kind,path,reason; status "delete",
     * "would delete" or "kept") to this new file (through the FileIO),
     * before deleting. NULL: none. */
    const char *report_path;
} floe_maint_expire_options;

#define FLOE_MAINT_EXPIRE_OPTIONS_VERSION 2
#define FLOE_MAINT_EXPIRE_OPTIONS_INIT                                                             \
    {                                                                                              \
        FLOE_MAINT_EXPIRE_OPTIONS_VERSION, false, 0, 0, NULL, 0, false, false, NULL, NULL, 0,      \
            NULL, NULL, NULL, NULL, NULL, NULL                                                     \
    }

/* Output of expire_snapshots: the first six are the Spark procedure's
 * columns, in its order. */
typedef struct floe_maint_expire_result {
    int64_t deleted_data_files_count;
    int64_t deleted_position_delete_files_count;
    int64_t deleted_equality_delete_files_count;
    int64_t deleted_manifest_files_count;
    int64_t deleted_manifest_lists_count;
    int64_t deleted_statistics_files_count;
    /* floe extras */
    int64_t deleted_metadata_files_count; /* old metadata.json (delete-after-commit) */
    int64_t expired_snapshots_count;
    int64_t removed_refs_count;
    int64_t manifests_read;       /* each manifest is read at most once */
    int64_t failed_deletes_count; /* deletions storage refused (left as orphans) */
} floe_maint_expire_result;

/* Expire snapshots of `ident` following the options and the table's
 * retention properties, commit the change (remove-snapshot-ref for refs
 * past their max-ref-age-ms, never `main`; remove-snapshots), and only then
 * delete the manifest lists, manifests, data, delete and statistics files
 * no retained snapshot references, plus old metadata files when
 * write.metadata.delete-after-commit.enabled. If the commit fails nothing
 * is deleted. If the cleanup cannot read what a retained snapshot references
 * (its manifest list or a manifest), the committed expiry stands but nothing
 * is deleted and that error is returned (the files are left for
 * remove_orphan_files); an expired snapshot's list or manifest that is
 * already gone is skipped. *out is filled (zeroed first). Errors: FLOE_ENOTFOUND (table),
 * FLOE_EINVALID (options), FLOE_ECONFLICT (the table changed concurrently:
 * run again), FLOE_ECOMMITUNKNOWN (nothing deleted), FLOE_ECORRUPT,
 * FLOE_EIO, FLOE_ENOMEM. Failed deletions are counted, not returned. */
FLOE_EXTERN int floe_maint_expire_snapshots(floe_maint_expire_result *out, floe_catalog *catalog,
                                            const char *ident,
                                            const floe_maint_expire_options *opts);

/* The same on a loaded table handle (refreshed first per its freshness
 * mode); the commit goes through the table layer's protocol (requirements +
 * updates, create-new metadata, compare-and-set, retries per
 * commit.retry.*, each retry planning again on the fresh state). The handle
 * ends at the committed state. opts->io, when set, is used for reading and
 * deleting; the commit uses the handle's FileIO. */
FLOE_EXTERN int floe_maint_table_expire_snapshots(floe_maint_expire_result *out, floe_table *table,
                                                  const floe_maint_expire_options *opts);

/* ---------------------------------------------------------------- remove_orphan_files */

typedef enum floe_maint_prefix_mismatch_mode {
    FLOE_MAINT_PREFIX_MISMATCH_ERROR = 0, /* fail listing the conflicting locations */
    FLOE_MAINT_PREFIX_MISMATCH_IGNORE,    /* keep such files */
    FLOE_MAINT_PREFIX_MISMATCH_DELETE,    /* treat such files as orphans */
} floe_maint_prefix_mismatch_mode;

typedef struct floe_maint_orphan_options {
    unsigned version; /* FLOE_MAINT_ORPHAN_OPTIONS_VERSION */
    /* Only files last modified before this are removed. Unset: now - 3 days
     * (Java's default). Any value is taken, as by Java's Action API; the
     * SQL procedure refuses one less than 24 hours ago (docs/maint.md). */
    bool has_older_than;
    int64_t older_than_ms;
    const char *location; /* where to list; NULL: the table location */
    bool dry_run;
    /* Extra scheme equivalences "from=to[,from=to]" (Spark's map
     * equal_schemes, e.g. "gs=gcs"). s3, s3a and s3n are always equal, and
     * so are file: URIs and plain paths. NULL: none. */
    const char *equal_schemes;
    /* Authority equivalences "from=to[,from=to]" (e.g. "b.host=b"). */
    const char *equal_authorities;
    floe_maint_prefix_mismatch_mode prefix_mismatch_mode;
    /* One call per orphan (orphan_file_location), deleted or (dry run)
     * not. A negative return stops and is returned. May be NULL. */
    int (*on_orphan)(const char *orphan_file_location, void *payload);
    void *payload;
    /* Bytes of one in-memory sort run before spilling to a temporary file
     * (0: 8 MiB). Memory stays bounded whatever the object count. */
    size_t sort_run_bytes;
    int64_t now_ms;
    floe_fileio *io;
    const floe_props *io_conf;
    /* Progress reports (include/floe/progress.h) while the work runs; NULL:
     * none. The payload is passed back as it is. */
    floe_progress_fn progress;
    void *progress_payload;
} floe_maint_orphan_options;

#define FLOE_MAINT_ORPHAN_OPTIONS_VERSION 1
#define FLOE_MAINT_ORPHAN_OPTIONS_INIT                                                             \
    {                                                                                              \
        FLOE_MAINT_ORPHAN_OPTIONS_VERSION, false, 0, NULL, false, NULL, NULL,                      \
            FLOE_MAINT_PREFIX_MISMATCH_ERROR, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL             \
    }

typedef struct floe_maint_orphan_result {
    int64_t orphan_files_count;    /* rows reported */
    int64_t listed_files_count;    /* objects listed (all ages) */
    int64_t reachable_files_count; /* manifest entries read (repeats counted) */
    int64_t failed_deletes_count;
} floe_maint_orphan_result;

/* List storage under the location, subtract everything the table's
 * retained metadata reaches (the current metadata.json and every one in its
 * metadata-log, their snapshots' manifest lists, manifests, data and delete
 * files, statistics and partition-statistics files, version-hint.text) and
 * delete what is left and older than older_than. Leftover temporary files
 * of interrupted local writes (".<name>.floe-tmp-<uuid>") count as objects
 * too. Locations are compared after normalisation (scheme equivalences,
 * percent-decoding, "//", "." and ".." segments), so a live file spelled
 * differently is never an orphan. If the listing holds another table's
 * metadata file (a *.metadata.json with another table-uuid), nothing is
 * deleted: FLOE_EINVALID "Cannot remove orphan files: <file> is the
 * metadata of another table ...". Errors: FLOE_ENOTFOUND, FLOE_EINVALID
 * (that, or "Unable to determine whether certain files are orphan..." for
 * a scheme/authority mismatch in ERROR mode), FLOE_ECORRUPT, FLOE_EIO,
 * FLOE_ENOMEM. */
FLOE_EXTERN int floe_maint_remove_orphan_files(floe_maint_orphan_result *out, floe_catalog *catalog,
                                               const char *ident,
                                               const floe_maint_orphan_options *opts);

/* ---------------------------------------------------------------- inventory */

typedef enum floe_maint_inventory_kind {
    FLOE_MAINT_INV_METADATA = 0,
    FLOE_MAINT_INV_MANIFEST_LIST,
    FLOE_MAINT_INV_MANIFEST,
    FLOE_MAINT_INV_DATA_FILE,
    FLOE_MAINT_INV_DELETE_FILE,
    FLOE_MAINT_INV_STATISTICS_FILE,
} floe_maint_inventory_kind;

/* One object a pinned snapshot needs. Strings are borrowed for the call. */
typedef struct floe_maint_inventory_row {
    floe_maint_inventory_kind kind;
    const char *kind_name; /* "metadata", "manifest_list", "manifest", "data_file", ... */
    const char *path;
    int64_t size;        /* bytes; -1 when unknown */
    const char *content; /* data|position_deletes|equality_deletes (files), data|deletes
                            (manifests), "" otherwise */
    const char *status;  /* ADDED|EXISTING (files), "" otherwise */
} floe_maint_inventory_row;

typedef struct floe_maint_inventory_options {
    unsigned version; /* FLOE_MAINT_INVENTORY_OPTIONS_VERSION */
    /* Which snapshot: at most one of these; none = the current snapshot. */
    bool has_snapshot_id;
    int64_t snapshot_id;
    const char *ref; /* branch or tag */
    bool has_timestamp;
    int64_t timestamp_ms; /* the snapshot current at that time (snapshot-log) */
    /* Copy every object into this local directory as a self-contained
     * backup (see floe_maint_inventory docs); NULL: list only. */
    const char *copy_to;
    floe_fileio *io;
    const floe_props *io_conf;
    /* Progress reports (include/floe/progress.h) while the work runs (items: manifests
     * read; bytes: bytes copied with copy_to); NULL:
     * none. The payload is passed back as it is. */
    floe_progress_fn progress;
    void *progress_payload;
} floe_maint_inventory_options;

#define FLOE_MAINT_INVENTORY_OPTIONS_VERSION 1
#define FLOE_MAINT_INVENTORY_OPTIONS_INIT                                                          \
    {                                                                                              \
        FLOE_MAINT_INVENTORY_OPTIONS_VERSION, false, 0, NULL, false, 0, NULL, NULL, NULL, NULL,    \
            NULL                                                                                   \
    }

/* Call cb once per object the selected snapshot needs: the metadata file,
 * its manifest list, every manifest the list names (data and delete, even
 * one without live entries), every ADDED or EXISTING data and delete file
 * (DELETED entries are skipped, no pruning), its statistics files. With
 * copy_to, a self-contained backup of that snapshot is written there: a
 * new metadata file holding only it (as `main`) in copy_to/metadata/, and
 * floe_maint_rewrite_table_path's rewrite from the table location to copy_to of
 * its manifest list, manifests and position delete files, with the data,
 * equality delete and statistics files copied byte for byte to copy_to/<path
 * relative to the table location>; nothing in it names the original
 * (copy_to/floe-backup.properties records its metadata location). The
 * backup's metadata location is
 * returned in *backup_metadata when not NULL (free with
 * floe_string_free). Errors: FLOE_ENOTFOUND ("Cannot find snapshot
 * with ID <id>", unknown ref, no snapshot at the time, no current
 * snapshot), FLOE_EINVALID, FLOE_EEXISTS (copy target exists),
 * FLOE_EINVALID (a file outside the table location), FLOE_EUNSUPPORTED
 * (what rewrite_table_path cannot rewrite yet), FLOE_EIO,
 * FLOE_ECORRUPT, FLOE_ENOMEM, or the callback's negative return. */
FLOE_EXTERN int floe_maint_inventory(char **backup_metadata, floe_catalog *catalog,
                                     const char *ident, const floe_maint_inventory_options *opts,
                                     int (*cb)(const floe_maint_inventory_row *row, void *payload),
                                     void *payload);

/* ---------------------------------------------------------------- rewrite_data_files */

typedef struct floe_maint_rewrite_data_files_options {
    unsigned version;     /* FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_VERSION */
    const char *strategy; /* "binpack" (NULL: binpack, or sort when sort_order/zorder is set)
                           * or "sort" */
    const char *where;    /* filter (the scan API's text form, e.g. "id > 5"); NULL: all */
    const char *branch;   /* NULL: main */
    /* Spark's `options` map: target-file-size-bytes (default: the table's
     * write.target-file-size-bytes, 512 MiB), min-file-size-bytes (75% of
     * the target), max-file-size-bytes (180%), min-input-files (5),
     * rewrite-all (false), max-file-group-size-bytes (100 GiB),
     * delete-file-threshold (none), partial-progress.enabled (false),
     * partial-progress.max-commits (10), remove-dangling-deletes (false:
     * true removes, in one more commit, the delete files that apply to no
     * live data file), max-concurrent-file-group-rewrites (5: files read
     * in parallel, at most the online CPUs); sort: compression-factor,
     * shuffle-partitions-per-file (1); z-order: also max-output-size,
     * var-length-contribution (8). use-starting-sequence-number is
     * accepted. NULL: defaults. */
    const floe_props *options;
    floe_fileio *io;
    const floe_props *io_conf;
    /* Strategy sort: the order (Spark's sort_order argument, parsed);
     * NULL with nsort_order 0: the table's sort order. */
    const floe_sort_term *sort_order;
    size_t nsort_order;
    /* Strategy sort by z-order: the columns of zorder(c1, c2, ...). */
    const char *const *zorder;
    size_t nzorder;
} floe_maint_rewrite_data_files_options;

#define FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_VERSION 2
#define FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_INIT                                                 \
    {                                                                                              \
        FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL,   \
            0, NULL, 0                                                                             \
    }

/* Spark's result columns (RewriteDataFilesProcedure). */
typedef struct floe_maint_rewrite_data_files_result {
    int64_t rewritten_data_files_count;
    int64_t added_data_files_count;
    int64_t rewritten_bytes_count;
    int64_t failed_data_files_count;
    int64_t removed_delete_files_count; /* with remove-dangling-deletes */
} floe_maint_rewrite_data_files_result;

/* Compact the data files of a branch (bin-packing small or oversized
 * files per partition, docs/maint.md): their rows, with position and
 * equality deletes and deletion vectors applied, are written into new
 * files of the target size and a `replace` snapshot swaps them in. A commit
 * whose files were removed, or got new delete files, since the rewrite was
 * planned fails (with partial progress: counted in failed_data_files_count)
 * rather than resurrect rows. Errors: FLOE_ENOTFOUND (table, branch),
 * FLOE_EINVALID (Java's option messages, "Missing required files to
 * delete: [..]", "Cannot commit, found new delete for replaced data file:
 * [..]"), FLOE_ECONFLICT, FLOE_EUNSUPPORTED, FLOE_EIO, FLOE_ECORRUPT,
 * FLOE_ENOMEM. */
FLOE_EXTERN int floe_maint_rewrite_data_files(floe_maint_rewrite_data_files_result *out,
                                              floe_catalog *catalog, const char *ident,
                                              const floe_maint_rewrite_data_files_options *opts);

/* ---------------------------------------------------------------- rewrite_position_delete_files */

typedef struct floe_maint_rewrite_position_deletes_options {
    unsigned version;  /* FLOE_MAINT_REWRITE_POSITION_DELETES_OPTIONS_VERSION */
    const char *where; /* the delete files applying to rows matching it; NULL: all */
    /* Spark's options: target-file-size-bytes (the table's
     * write.delete.target-file-size-bytes, 64 MiB), min-file-size-bytes
     * (75%), max-file-size-bytes (180%), min-input-files (5), rewrite-all,
     * max-file-group-size-bytes (100 GiB), partial-progress.enabled,
     * partial-progress.max-commits (10); max-concurrent-file-group-rewrites,
     * max-file-group-input-files and rewrite-job-order are accepted. */
    const floe_props *options;
    floe_fileio *io;
    const floe_props *io_conf;
} floe_maint_rewrite_position_deletes_options;

#define FLOE_MAINT_REWRITE_POSITION_DELETES_OPTIONS_VERSION 1
#define FLOE_MAINT_REWRITE_POSITION_DELETES_OPTIONS_INIT                                           \
    {                                                                                              \
        FLOE_MAINT_REWRITE_POSITION_DELETES_OPTIONS_VERSION, NULL, NULL, NULL, NULL                \
    }

/* Spark's result columns (RewritePositionDeleteFilesProcedure). */
typedef struct floe_maint_rewrite_position_deletes_result {
    int64_t rewritten_delete_files_count;
    int64_t added_delete_files_count;
    int64_t rewritten_bytes_count;
    int64_t added_bytes_count;
} floe_maint_rewrite_position_deletes_result;

/* Compact the position delete files of main (bin-packing by partition, as
 * Java's BinPackRewritePositionDeletePlanner): each group becomes one new
 * position delete file holding the positions its files delete in live
 * data files; positions in data files that are no longer live (dangling)
 * are dropped, and a group left with none is only removed. One `replace`
 * commit (with partial progress: up to max-commits). Format v3: the
 * groups' files become deletion vectors instead, one per data file with
 * every position that applies to it (its old DV replaced), in one commit.
 * Errors: FLOE_ENOTFOUND, FLOE_EINVALID (Java's option messages,
 * validation), FLOE_ECONFLICT, FLOE_EIO, FLOE_ECORRUPT, FLOE_ENOMEM. */
FLOE_EXTERN int
floe_maint_rewrite_position_delete_files(floe_maint_rewrite_position_deletes_result *out,
                                         floe_catalog *catalog, const char *ident,
                                         const floe_maint_rewrite_position_deletes_options *opts);

/* ---------------------------------------------------------------- remove_dangling_deletes */

typedef struct floe_maint_remove_dangling_deletes_options {
    unsigned version; /* FLOE_MAINT_REMOVE_DANGLING_DELETES_OPTIONS_VERSION */
    floe_fileio *io;
    const floe_props *io_conf;
} floe_maint_remove_dangling_deletes_options;

#define FLOE_MAINT_REMOVE_DANGLING_DELETES_OPTIONS_VERSION 1
#define FLOE_MAINT_REMOVE_DANGLING_DELETES_OPTIONS_INIT                                            \
    {                                                                                              \
        FLOE_MAINT_REMOVE_DANGLING_DELETES_OPTIONS_VERSION, NULL, NULL                             \
    }

/* Java's RemoveDanglingDeletesSparkAction: remove, in one `replace` commit
 * on main, every live delete file that the scan planner pairs with no live
 * data file (no read changes); *removed gets how many (0: no commit). */
FLOE_EXTERN int
floe_maint_remove_dangling_deletes(int64_t *removed, floe_catalog *catalog, const char *ident,
                                   const floe_maint_remove_dangling_deletes_options *opts);

/* ---------------------------------------------------------------- rewrite_manifests */

typedef struct floe_maint_rewrite_manifests_options {
    unsigned version; /* FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_VERSION */
    int32_t spec_id;  /* -1: the table's default spec */
    /* Bytes per new manifest; 0: commit.manifest.target-size-bytes (8 MiB). */
    int64_t target_manifest_size_bytes;
    bool use_caching; /* accepted (Spark's); floe reads each manifest once */
    floe_fileio *io;
    const floe_props *io_conf;
} floe_maint_rewrite_manifests_options;

#define FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_VERSION 1
#define FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_INIT                                                  \
    {                                                                                              \
        FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_VERSION, -1, 0, true, NULL, NULL                      \
    }

/* Spark's result columns (RewriteManifestsProcedure). */
typedef struct floe_maint_rewrite_manifests_result {
    int64_t rewritten_manifests_count;
    int64_t added_manifests_count;
} floe_maint_rewrite_manifests_result;

/* Java's RewriteManifests action on the current snapshot: for data and for
 * delete manifests, those of the spec are replaced by ceil(their bytes /
 * target) manifests holding the live entries clustered by partition, in a
 * `replace` snapshot; nothing is committed when a content has no manifest
 * of the spec or one that stays one. Rows and files are unchanged.
 * Errors: FLOE_ENOTFOUND (table), FLOE_EINVALID ("Cannot find partition
 * spec with ID <id>"), FLOE_EUNSUPPORTED (v1 snapshots without a manifest
 * list, v3 manifests), FLOE_EIO, FLOE_ECORRUPT, FLOE_ENOMEM. */
FLOE_EXTERN int floe_maint_rewrite_manifests(floe_maint_rewrite_manifests_result *out,
                                             floe_catalog *catalog, const char *ident,
                                             const floe_maint_rewrite_manifests_options *opts);

/* ---------------------------------------------------------------- rewrite_table_path */

typedef struct floe_maint_rewrite_path_options {
    unsigned version;          /* FLOE_MAINT_REWRITE_PATH_OPTIONS_VERSION */
    const char *source_prefix; /* required: the prefix every path starts with */
    const char *target_prefix; /* required: what replaces it */
    /* File names (not paths) of metadata versions in the table's metadata
     * log: start_version's snapshots were copied by an earlier run (only
     * what came after it is rewritten); end_version is the last version
     * rewritten. NULL: from the first version / up to the current one. */
    const char *start_version;
    const char *end_version;
    /* Where the rewritten metadata files, manifest lists, manifests and
     * position delete files are written (each at its path relative to
     * source_prefix). NULL: <metadata dir>/copy-table-staging-<uuid>/. */
    const char *staging_location;
    bool create_file_list; /* write <staging>/file-list (default true) */
    /* floe extension: copy every planned file to its target location too
     * (staged files are moved when staging is not the target). */
    bool copy;
    floe_fileio *io;
    const floe_props *io_conf;
} floe_maint_rewrite_path_options;

#define FLOE_MAINT_REWRITE_PATH_OPTIONS_VERSION 1
#define FLOE_MAINT_REWRITE_PATH_OPTIONS_INIT                                                       \
    {                                                                                              \
        FLOE_MAINT_REWRITE_PATH_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, true, false, NULL,  \
            NULL                                                                                   \
    }

/* Spark's result columns (RewriteTablePathProcedure). Strings are the
 * caller's: free with floe_maint_rewrite_path_result_free. */
typedef struct floe_maint_rewrite_path_result {
    char *latest_version;     /* file name of the end version */
    char *file_list_location; /* "N/A" without create_file_list */
    char *staging_location;
    int64_t rewritten_manifest_file_paths_count;
    int64_t rewritten_delete_file_paths_count;
    int64_t copied_files_count; /* with copy: objects copied */
} floe_maint_rewrite_path_result;

/* Java's RewriteTablePath action: write a copy of the table's metadata in
 * which every path starting with source_prefix starts with target_prefix
 * instead — each metadata version from start_version (exclusive) to
 * end_version, the manifest list of every snapshot they hold, every
 * manifest those lists name, every live position delete file (its
 * file_path column) — into the staging location, and a file list
 * ("<from>,<to>" per line) of everything to copy: the staged files and
 * every live data, delete and statistics file of the copied snapshots
 * (whatever snapshot added it). Entries that are not live keep their
 * metadata but are not copied, so files expiry already deleted (a removed
 * delete file) do not stop it; a manifest list missing for a snapshot only
 * an older version holds (expired) is skipped. Errors: FLOE_EINVALID (Java's
 * messages: "Source prefix('') cannot be empty.", "Cannot find provided
 * version file <v> in metadata log.", "Encountered data file <p> not under
 * the source prefix <s>", ...), FLOE_ENOTFOUND (table), FLOE_EUNSUPPORTED
 * (deletion vectors, format v3 manifests), FLOE_EEXISTS (a staged file
 * exists), FLOE_ECORRUPT, FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_maint_rewrite_table_path(floe_maint_rewrite_path_result *out,
                                              floe_catalog *catalog, const char *ident,
                                              const floe_maint_rewrite_path_options *opts);
FLOE_EXTERN void floe_maint_rewrite_path_result_free(floe_maint_rewrite_path_result *r);

/* ---------------------------------------------------------------- retention report */

typedef struct floe_maint_retention_ref {
    const char *name;
    const char *type; /* "branch" | "tag" */
    int64_t snapshot_id;
    int64_t retained_count;     /* snapshots this ref keeps */
    int64_t oldest_snapshot_id; /* oldest retained (recovery window start) */
    int64_t oldest_timestamp_ms;
    int64_t oldest_age_ms;
    int64_t min_snapshots_to_keep; /* effective policy (branches) */
    int64_t max_snapshot_age_ms;
    int64_t max_ref_age_ms; /* -1: forever */
    bool expires;           /* the ref itself would be removed */
} floe_maint_retention_ref;

typedef struct floe_maint_retention_report {
    size_t nrefs;
    floe_maint_retention_ref *refs;
    int64_t snapshots_count;
    int64_t current_files_bytes;              /* `files`: live data+delete files of main */
    int64_t all_files_bytes;                  /* `all_data_files`: every retained snapshot's */
    int64_t bytes_held_only_by_old_snapshots; /* distinct live files, data + delete */
    /* The seed's query as Spark runs it, from the metadata tables (src/meta):
     * sum(file_size_in_bytes) of all_data_files minus that of data_files —
     * data files only, a file listed by several manifests counted again. */
    int64_t all_data_files_minus_files_bytes;
    /* what expire_snapshots with the current settings would do */
    size_t nexpiring; /* snapshots that would become unrecoverable */
    int64_t *expiring_snapshot_ids;
    int64_t *expiring_timestamps_ms;
    floe_maint_expire_result would_delete; /* dry-run counts */
    int64_t would_free_bytes;              /* data + delete file bytes */
} floe_maint_retention_report;

typedef struct floe_maint_retention_options {
    unsigned version;          /* FLOE_MAINT_RETENTION_OPTIONS_VERSION */
    int64_t now_ms;            /* 0: the wall clock */
    floe_fileio *io;           /* borrowed; NULL: opened for the table location */
    const floe_props *io_conf; /* for the FileIO opened when io is NULL */
    /* Progress reports (include/floe/progress.h): snapshots read, then the
     * dry-run expiry's files; NULL: none. The payload is passed back as it is. */
    floe_progress_fn progress;
    void *progress_payload;
} floe_maint_retention_options;

#define FLOE_MAINT_RETENTION_OPTIONS_VERSION 1
#define FLOE_MAINT_RETENTION_OPTIONS_INIT                                                          \
    {                                                                                              \
        FLOE_MAINT_RETENTION_OPTIONS_VERSION, 0, NULL, NULL, NULL, NULL                            \
    }

/* Compute the report (reads every manifest of every snapshot once); opts
 * NULL: the defaults. *out is the caller's, freed with
 * floe_maint_retention_report_free. Errors: FLOE_ENOTFOUND (table),
 * FLOE_EINVALID (options version), FLOE_ECORRUPT, FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_maint_retention_report_compute(floe_maint_retention_report **out,
                                                    floe_catalog *catalog, const char *ident,
                                                    const floe_maint_retention_options *opts);
FLOE_EXTERN void floe_maint_retention_report_free(floe_maint_retention_report *r);

#ifdef __cplusplus
}
#endif
#endif
