/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table scans: which files hold the rows of a snapshot that may match a
 * filter (planning), and those rows as Arrow batches (reading).
 *
 * Planning follows the Iceberg spec "Scan Planning": the snapshot's manifest
 * list is read, manifests whose partition summaries cannot match the filter
 * are skipped, the remaining manifests are read in parallel, and data files
 * are skipped by partition value and by column metrics (min/max, null
 * counts). Each remaining data file becomes a task paired with the delete
 * files that apply to it by the spec's sequence-number rules, and with a
 * residual: the part of the filter still to be checked on its rows.
 *
 * Reading produces an ArrowArrayStream (include/floe/arrow.h) of struct
 * batches, one child per projected column, with position and equality
 * deletes applied, the residual filter applied to rows, and the table's
 * schema evolution resolved by field id (renamed and dropped columns, added
 * columns as null or their initial-default, int->long, float->double,
 * decimal widening, identity partition values for files that lack the
 * column, `schema.name-mapping.default` for files without field ids).
 *
 * v3 deletion vectors (Puffin `deletion-vector-v1` blobs) are applied like
 * position deletes. Not supported: ORC and Avro data files
 * (FLOE_EUNSUPPORTED when one is read).
 */
#ifndef FLOE_SCAN_H
#define FLOE_SCAN_H

#include "floe/arrow.h"
#include "floe/common.h"
#include "floe/io.h"
#include "floe/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

struct floe_expr;

#define FLOE_SCAN_OPTIONS_VERSION 2u

/* How to scan. Initialise with FLOE_SCAN_OPTIONS_INIT and set what you need:
 * later library versions append fields and bump `version`. */
typedef struct floe_scan_options {
    unsigned version; /* FLOE_SCAN_OPTIONS_VERSION */
    /* Row filter in text form, NULL for every row. Grammar (keywords in any
     * case; identifiers bare, "double-quoted" or `back-quoted`; dotted names
     * reach struct fields):
     *   expr  := expr OR expr | expr AND expr | NOT expr | ( expr ) | pred
     *   pred  := col (= | == | != | <> | < | <= | > | >=) lit
     *          | col IS [NOT] NULL | col IS [NOT] NAN
     *          | col [NOT] IN ( lit, ... ) | col [NOT] STARTS WITH 'text'
     *   lit   := 'text' ('' escapes a quote) | integer | decimal | TRUE | FALSE
     * Text literals convert to the column's type on binding (dates
     * '2026-09-20', timestamps '2026-09-20T10:00:00', uuids, decimals). */
    const char *filter;
    /* Or a floe expression (private API of libfloe, for in-tree callers such
     * as the SQL front end); used when `filter` is NULL. Borrowed. */
    const struct floe_expr *filter_expr;
    bool case_sensitive; /* column names in the filter and projection */
    /* Projection by top-level column name, in output order; NULL / 0: every
     * column of the schema, in schema order. The metadata columns `_file`
     * (string: the data file's path) and `_pos` (long: the row's 0-based
     * position in that file, counted before deletes) may be named too
     * (reserved field ids 2147483646 / 2147483645; docs/scan.md), and the
     * v3 row lineage columns `_row_id` / `_last_updated_sequence_number`
     * (longs, ids 2147483540 / 2147483539: stored, else inherited). */
    const char *const *columns;
    size_t ncolumns;
    /* Snapshot: a snapshot id (has_snapshot_id), else a ref (branch or tag
     * name), else the current snapshot. A pinned snapshot (id or ref) reads
     * with the schema that snapshot was written with, the current snapshot
     * with the current schema (Java's rules). */
    bool has_snapshot_id;
    int64_t snapshot_id;
    const char *ref;
    /* Threads for reading manifests and data files: 0 = online CPUs, 1 = the
     * calling thread. With more than one, batches of different data files
     * arrive interleaved (the order within a file is kept). */
    int threads;
    /* Disable manifest and file pruning (results are the same, only slower):
     * for comparisons and tests. */
    bool no_pruning;
    /* FileIO configuration when floe_scan_open() opens its own FileIO
     * (e.g. io.location-map); NULL for none. */
    const floe_props *io_conf;
    /* Time travel: the snapshot that was current at this time (ms since
     * the epoch), resolved through the snapshot-log (latest entry at or
     * before it); used when neither a snapshot id nor a ref is given.
     * FLOE_ENOTFOUND "Cannot find a snapshot older than <ISO-8601>". */
    bool has_as_of_timestamp;
    int64_t as_of_timestamp_ms;
    /* Version 2. Progress of planning (include/floe/progress.h): phase
     * "reading manifests", items = manifests read of those that survived
     * the manifest list's pruning, bytes = manifest bytes read; NULL for
     * none. Called from the planning threads, one call at a time. */
    floe_progress_fn progress;
    void *progress_payload;
} floe_scan_options;

#define FLOE_SCAN_OPTIONS_INIT                                                                     \
    {FLOE_SCAN_OPTIONS_VERSION, NULL, NULL, true, NULL, 0, false, 0, NULL, 0, false, NULL, false, 0, \
     NULL, NULL}

/* What planning did. */
typedef struct floe_scan_report {
    int64_t snapshot_id; /* -1: the table has no snapshot (nothing to read) */
    int64_t manifests_total;          /* data and delete manifests in the list */
    int64_t manifests_skipped;        /* by partition summaries */
    int64_t data_files_total;         /* live data files in the manifests read */
    int64_t data_files_skipped;       /* by partition value or metrics */
    int64_t delete_files_total;       /* live delete files in the manifests read */
    int64_t delete_files_applied;     /* distinct delete files paired with a task */
    int64_t tasks;                    /* data files to read */
    int64_t records_planned;          /* sum of record_count over tasks (before deletes) */
    int64_t plan_ns;                  /* wall time of planning */
} floe_scan_report;

typedef struct floe_scan floe_scan;

/* Plan a scan of the table whose metadata file is `metadata_location`,
 * read through `io` (borrowed; it must outlive the scan). With io == NULL
 * the scan opens its own FileIO for the location's scheme with
 * opts->io_conf. opts may be NULL (defaults). On success *out is the
 * caller's (floe_scan_free).
 * Errors: FLOE_ENOTFOUND (metadata file; "Cannot find snapshot with ID <id>";
 * "Cannot find matching snapshot ID or reference name for version <name>";
 * "Cannot find a snapshot older than <ISO-8601>"), FLOE_EINVALID (filter syntax or binding, e.g.
 * "Cannot find field 'x' in struct: ..."; unknown projected column),
 * FLOE_ECORRUPT (metadata or manifest bytes, naming the file),
 * FLOE_EUNSUPPORTED (delete files that are neither Parquet nor deletion
 * vectors), FLOE_EIO,
 * FLOE_ENOMEM. */
FLOE_EXTERN int floe_scan_open(floe_scan **out, floe_fileio *io, const char *metadata_location,
                               const floe_scan_options *opts);

struct floe_table;

/* Plan a scan of an open table handle (include/floe/table.h): its current
 * metadata and FileIO are borrowed (keep the handle unchanged and alive
 * until the scan is freed). Snapshot selection uses the table's rules and
 * messages (floe_table_snapshot_by_id / _by_ref / _as_of_time); with none
 * given, the handle's branch head. Errors as floe_scan_open(). */
FLOE_EXTERN int floe_scan_open_table(floe_scan **out, struct floe_table *table,
                                     const floe_scan_options *opts);

/* The plan report (owned by the scan). */
FLOE_EXTERN const floe_scan_report *floe_scan_get_report(const floe_scan *scan);

/* Number of tasks and the data file path of task i (borrowed). */
FLOE_EXTERN size_t floe_scan_task_count(const floe_scan *scan);
FLOE_EXTERN const char *floe_scan_task_path(const floe_scan *scan, size_t i);

/* The rows: an ArrowArrayStream of struct batches (one child per projected
 * column, with `PARQUET:field_id` metadata). The stream borrows the scan:
 * release the stream before floe_scan_free(). May be called again for a
 * fresh pass. Errors during reading come from get_next (errno-style code,
 * get_last_error() gives the floe message). FLOE_EINVALID for an unknown
 * projected column, FLOE_ENOMEM. */
FLOE_EXTERN int floe_scan_to_stream(struct ArrowArrayStream *out, floe_scan *scan);

/* Free a scan (NULL is fine). */
FLOE_EXTERN void floe_scan_free(floe_scan *scan);


/* ================================================================ incremental reads
 *
 * Reads of what changed between two snapshots of `main`'s lineage (see
 * docs/changelog.md). A range is `start` (exclusive) .. `end` (inclusive):
 * the snapshots reached by walking the parents of `end` back to `start`.
 * `end` defaults to main's current snapshot; without a start the range
 * begins at the first snapshot of end's lineage. Either end may be given
 * as a timestamp (ms since the epoch): the range then holds the ancestors
 * of the end committed after start_timestamp_ms and at or before
 * end_timestamp_ms (Spark's start-timestamp / end-timestamp).
 *
 * Errors common to both reads: FLOE_ENOTFOUND "Cannot find the starting
 * snapshot: <id>", "Cannot find end snapshot: <id>", "Cannot find a
 * snapshot older than <iso-8601>" (an end timestamp before the first
 * commit); FLOE_EINVALID "Starting snapshot (exclusive) <start> is not a
 * parent ancestor of end snapshot <end>" (Java's message: a stored
 * watermark abandoned by a rollback gets it; the consumer must reset);
 * FLOE_ECORRUPT / FLOE_EIO / FLOE_ENOTFOUND reading files; FLOE_ENOMEM. */

typedef enum floe_incremental_mode {
    /* Default. A `delete` or `overwrite` snapshot in the range fails the
     * append scan (FLOE_EINVALID naming the snapshot and its operation and
     * pointing to table_changes); `replace` (compaction) is skipped. */
    FLOE_INCREMENTAL_STRICT = 0,
    /* Spark's append scan: every snapshot whose operation is not `append`
     * is skipped without a word. */
    FLOE_INCREMENTAL_APPEND_ONLY = 1,
} floe_incremental_mode;

#define FLOE_INCREMENTAL_OPTIONS_VERSION 1u

typedef struct floe_incremental_options {
    unsigned version; /* FLOE_INCREMENTAL_OPTIONS_VERSION */
    bool has_start_snapshot_id; /* exclusive */
    int64_t start_snapshot_id;
    bool has_end_snapshot_id; /* inclusive; default main's current snapshot */
    int64_t end_snapshot_id;
    bool has_start_timestamp_ms; /* snapshots committed strictly after it */
    int64_t start_timestamp_ms;
    bool has_end_timestamp_ms; /* the snapshot current at that time */
    int64_t end_timestamp_ms;
    floe_incremental_mode mode; /* append scan only */
    /* Changelog only. compute_updates: a DELETE and an INSERT of the same
     * identifier in one snapshot become UPDATE_BEFORE / UPDATE_AFTER.
     * identifier_columns (top-level names; NULL: the schema's
     * identifier-field-ids). net_changes: collapse the whole range (a row
     * inserted then deleted disappears); not with compute_updates. */
    bool compute_updates;
    bool net_changes;
    const char *const *identifier_columns;
    size_t nidentifier_columns;
    int threads; /* as floe_scan_options.threads */
    const floe_props *io_conf; /* when the read opens its own FileIO */
} floe_incremental_options;

#define FLOE_INCREMENTAL_OPTIONS_INIT                                                              \
    {FLOE_INCREMENTAL_OPTIONS_VERSION, false, 0, false, 0, false, 0, false, 0,                     \
     FLOE_INCREMENTAL_STRICT, false, false, NULL, 0, 0, NULL}

typedef struct floe_incremental floe_incremental;

/* Incremental append scan: rows of the data files ADDED by each `append`
 * snapshot of the range (delete files are not applied, as Java's
 * IncrementalAppendScan). The table is the metadata file at
 * `metadata_location`, read through `io` (borrowed; NULL: open one for the
 * location with opts->io_conf). On success *out is the caller's
 * (floe_incremental_free). Errors: the common ones; strict mode
 * FLOE_EINVALID "Snapshot <id> (<operation>) in the incremental range
 * removes or rewrites rows, which an append scan cannot return: read the
 * range with table_changes, or use mode 'append-only' to skip it". */
FLOE_EXTERN int floe_incremental_append_open(floe_incremental **out, floe_fileio *io,
                                             const char *metadata_location,
                                             const floe_incremental_options *opts);
/* The resolved range (start -1 when open at the beginning; end -1 for a
 * table without snapshots). */
FLOE_EXTERN void floe_incremental_range(int64_t *start_exclusive, int64_t *end_inclusive,
                                        const floe_incremental *inc);
/* The rows as an ArrowArrayStream of struct batches with the current
 * schema's columns (borrows `inc`: release the stream first). */
FLOE_EXTERN int floe_incremental_to_stream(struct ArrowArrayStream *out, floe_incremental *inc);
FLOE_EXTERN void floe_incremental_free(floe_incremental *inc);

typedef struct floe_changelog floe_changelog;

/* Changelog of the range, Spark's changelog view: the current schema's
 * columns plus `_change_type` (string: INSERT, DELETE, UPDATE_BEFORE,
 * UPDATE_AFTER), `_change_ordinal` (int: 0 for the oldest snapshot of the
 * range) and `_commit_snapshot_id` (long). For each snapshot S of the
 * range the rows of every data file S touched (added, removed, or given
 * new delete files) are compared as they were at S's parent and at S; a
 * row present in both (a copy-on-write carry-over) never appears. So
 * appends, copy-on-write deletes/overwrites and merge-on-read position and
 * equality deletes all produce the same changes. Rows stream snapshot by
 * snapshot: memory is bounded by the rows of the files one snapshot
 * touched (net_changes: by the distinct changed rows of the range).
 * Errors: the common ones; FLOE_EINVALID "Cannot find identifier column
 * <c>", "Cannot compute updates without identifier columns", "Cannot
 * compute updates and net changes together"; FLOE_EUNSUPPORTED for nested
 * columns; FLOE_EINVALID "Cannot compute updates: several rows with the
 * same identifier <k> were <type>d in snapshot <id>" (from get_next). */
FLOE_EXTERN int floe_changelog_open(floe_changelog **out, floe_fileio *io,
                                    const char *metadata_location,
                                    const floe_incremental_options *opts);
FLOE_EXTERN void floe_changelog_range(int64_t *start_exclusive, int64_t *end_inclusive,
                                      const floe_changelog *cl);
/* Rows as an ArrowArrayStream (borrows `cl`; release the stream first). */
FLOE_EXTERN int floe_changelog_to_stream(struct ArrowArrayStream *out, floe_changelog *cl);
FLOE_EXTERN void floe_changelog_free(floe_changelog *cl);

/* Watermark: main's current snapshot id of the table at
 * `metadata_location` (*snapshot_id = -1 when main has none). A consumer
 * stores it after each run and passes it as start_snapshot_id next time;
 * FLOE_EINVALID "Starting snapshot (exclusive) ..." then means a rollback
 * abandoned it: reset (re-read from an ancestor or from scratch).
 * Errors: FLOE_ENOTFOUND, FLOE_ECORRUPT, FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_watermark_read(int64_t *snapshot_id, floe_fileio *io,
                                    const char *metadata_location, const floe_props *io_conf);

#ifdef __cplusplus
}
#endif
#endif
