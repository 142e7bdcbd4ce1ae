/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta: Iceberg's metadata tables as Spark (Iceberg 1.11) shows them, as row
 * sources (rowsource.h). Column names, order and types follow Java's
 * *Table classes (SnapshotsTable, HistoryTable, RefsTable,
 * MetadataLogEntriesTable, the files/entries/manifests families and
 * PartitionsTable); docs/meta.md lists them and the few places floe differs.
 *
 * Tables from the metadata file alone: snapshots, history, refs,
 * metadata_log_entries. Tables that read manifest lists and manifests
 * through FileIO: files, data_files, delete_files, all_files,
 * all_data_files, all_delete_files, manifests, all_manifests, entries,
 * all_entries, partitions, and position_deletes (which also reads the
 * Parquet position-delete files).
 *
 * Time travel: files, data_files, delete_files, entries, manifests,
 * partitions and position_deletes read the snapshot given by `snapshot_id` (already resolved by
 * the caller from VERSION AS OF / TIMESTAMP AS OF / a ref); the others
 * reject one.
 */
#ifndef FLOE_META_META_H
#define FLOE_META_META_H

#include "floe/sys/fileio.h"
#include "rows/rowsource.h"
#include "spec/metadata.h"

typedef struct floe_meta_options {
    unsigned version; /* FLOE_META_OPTIONS_VERSION */
    /* The table's metadata (borrowed: must outlive the row source). */
    const floe_table_metadata *metadata;
    /* Location of that metadata file: the last row of metadata_log_entries
     * (NULL: the table has no current file yet, and that row is left out). */
    const char *metadata_location;
    /* FileIO for manifest lists and manifests (borrowed); NULL is only
     * accepted by the tables that read the metadata file alone. */
    floe_fileio *io;
    /* Time travel: read this snapshot instead of the current one. */
    bool has_snapshot_id;
    int64_t snapshot_id;
} floe_meta_options;

#define FLOE_META_OPTIONS_VERSION 1
#define FLOE_META_OPTIONS_INIT                                                                     \
    {                                                                                              \
        FLOE_META_OPTIONS_VERSION, NULL, NULL, NULL, false, 0                                      \
    }

/* The metadata table names, in docs order; NULL-terminated. */
extern const char *const floe__meta_table_names[];

/* True for a metadata table name (case-sensitive, lowercase as Spark). */
bool floe__meta_is_table(const char *name);
/* True when `name` accepts a time-travel snapshot. */
bool floe__meta_supports_time_travel(const char *name);

/* Open metadata table `name` over opts. The column list is fixed at open
 * (partition and readable_metrics types come from the table's specs and
 * current schema). *out is the caller's (floe__rs_free). Errors:
 * FLOE_ENOTFOUND "Unknown metadata table: x" or "Cannot find snapshot with
 * ID n"; FLOE_EINVALID (bad options, time travel on a table without it,
 * no FileIO for a table that needs one); FLOE_ENOMEM. */
int floe__meta_open(floe_rowsource **out, const char *name, const floe_meta_options *opts);

/* Bytes held only by snapshots other than the one `files` reads (the
 * current one, or opts->snapshot_id): sum(file_size_in_bytes) over
 * all_data_files minus the same over data_files. Errors as for reading
 * the tables. */
int floe__meta_retained_bytes(const floe_meta_options *opts, int64_t *out);

/* ---------------------------------------------------------------- internals */

/* Table families, one .c file each. */
int floe__meta_open_snapshots(floe_rowsource **out, const floe_meta_options *o);
int floe__meta_open_history(floe_rowsource **out, const floe_meta_options *o);
int floe__meta_open_refs(floe_rowsource **out, const floe_meta_options *o);
int floe__meta_open_metadata_log_entries(floe_rowsource **out, const floe_meta_options *o);

/* Ids of the snapshots that are ancestors of `snapshot_id` (itself
 * included) in a fresh map (values unused). */
int floe__meta_ancestors(const floe_table_metadata *m, int64_t snapshot_id, floe_intmap **out);

#endif
