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

#ifdef __cplusplus
extern "C" {
#endif

struct floe_expr;

#define FLOE_SCAN_OPTIONS_VERSION 1u

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
     * column of the schema, in schema order. */
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
} floe_scan_options;

#define FLOE_SCAN_OPTIONS_INIT                                                                     \
    {FLOE_SCAN_OPTIONS_VERSION, NULL, NULL, true, NULL, 0, false, 0, NULL, 0, false, NULL, false, 0}

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
FLOE_EXTERN int floe_scan_to_stream(floe_scan *scan, struct ArrowArrayStream *out);

/* Free a scan (NULL is fine). */
FLOE_EXTERN void floe_scan_free(floe_scan *scan);

#ifdef __cplusplus
}
#endif
#endif
