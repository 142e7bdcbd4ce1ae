/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/incremental: private side of the incremental-read section of
 * include/floe/scan.h — range resolution (start exclusive, end inclusive,
 * by snapshot id or timestamp, Java's ancestry rule), the incremental
 * append scan and the changelog, and their row sources for the SQL shell
 * (src/rows/rowsource.h: the interface is shared; this module only fills
 * the struct, it calls nothing of meta/).
 *
 *   incremental.c  range resolution, append scan, watermark, row source
 *   changelog.c    per-snapshot changes (before/after multiset), compute
 *                  updates, net changes, row source
 */
#ifndef FLOE_SCAN_INCREMENTAL_H
#define FLOE_SCAN_INCREMENTAL_H

#include "floe/scan.h"
#include "rows/rowsource.h"
#include "scan/scan.h"

/* A resolved range: the snapshots after `start` (exclusive) up to `end`
 * (inclusive), oldest first. */
typedef struct floe_incr_range {
    bool has_start; /* false: from the first snapshot of end's lineage */
    int64_t start;
    bool has_end; /* false: the table has no snapshot (empty range) */
    int64_t end;
    size_t n;
    const floe_snapshot **snaps; /* heap; oldest first */
} floe_incr_range;

/* Resolve opts against `m`. Errors: FLOE_ENOTFOUND "Cannot find the
 * starting snapshot: <id>", "Cannot find end snapshot: <id>", "Cannot find
 * a snapshot older than <iso>" (end timestamp before the first commit);
 * FLOE_EINVALID "Starting snapshot (exclusive) <start> is not a parent
 * ancestor of end snapshot <end>"; FLOE_ENOMEM. */
int floe__incr_range_resolve(floe_incr_range *out, const floe_table_metadata *m,
                             const floe_incremental_options *opts);
void floe__incr_range_free(floe_incr_range *r);

/* Row sources (borrow `m` and `io`: keep them alive while the source and
 * its cursors live). Columns: the current schema's top-level columns (only
 * primitive types; FLOE_EUNSUPPORTED otherwise), plus for the changelog
 * `_change_type` (string), `_change_ordinal` (int), `_commit_snapshot_id`
 * (long). The range is resolved (and strict mode validated) here, so
 * errors surface at creation. opts may be NULL; its strings are copied. */
int floe__incremental_rowsource(floe_rowsource **out, const floe_table_metadata *m,
                                floe_fileio *io, const floe_incremental_options *opts);
int floe__changelog_rowsource(floe_rowsource **out, const floe_table_metadata *m,
                              floe_fileio *io, const floe_incremental_options *opts);

/* The same, owning everything: the metadata is read from
 * `metadata_location` (a snapshot of the table at call time: later commits
 * and handle refreshes do not affect the source), through `io` (borrowed)
 * or, when io is NULL, through a FileIO the source opens for the location
 * with opts->io_conf and owns. What the SQL shell should use. */
int floe__incremental_rowsource_open(floe_rowsource **out, floe_fileio *io,
                                     const char *metadata_location,
                                     const floe_incremental_options *opts);
int floe__changelog_rowsource_open(floe_rowsource **out, floe_fileio *io,
                                   const char *metadata_location,
                                   const floe_incremental_options *opts);

/* Owned resources released with a row source (either may be NULL). */
typedef struct floe_incr_owned {
    floe_table_metadata *meta;
    floe_fileio *io;
} floe_incr_owned;
/* Load metadata (and open a FileIO when io is NULL) into *own; *io_out and
 * *meta_out are what to use. */
int floe__incr_own(floe_incr_owned *own, floe_fileio *io, const char *metadata_location,
                   const floe_props *io_conf, floe_fileio **io_out,
                   const floe_table_metadata **meta_out);
void floe__incr_owned_free(floe_incr_owned *own);

/* The added-file plan of the append snapshots of a range (what the append
 * scan reads; no delete files, as Java's IncrementalAppendScan). Strict
 * mode fails here on a delete/overwrite snapshot. */
int floe__incremental_plan(floe_scan_plan **out, const floe_table_metadata *m, floe_fileio *io,
                           const floe_incremental_options *opts, int64_t *start, int64_t *end);

/* Advance over an Arrow stream one row at a time: 0 with (*batch, *row)
 * ready, FLOE_ITEROVER at the end, negative on error. *have says whether
 * *batch holds a batch to release. */
int floe__incr_stream_next(struct ArrowArrayStream *s, struct ArrowArray *batch, bool *have,
                           int64_t *row);
/* Row-source columns for the current schema's top-level fields (primitive
 * only: FLOE_EUNSUPPORTED naming a nested one) plus `extra` zeroed slots;
 * heap array. */
int floe__incr_schema_columns(const floe_schema *schema, size_t extra, floe_rs_column **out);

/* Load a metadata file through FileIO. */
int floe__incr_load_metadata(floe_fileio *io, const char *location, floe_table_metadata **out);

#endif
