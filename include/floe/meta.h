/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Metadata tables as Arrow C streams: Spark's `SELECT * FROM t.snapshots`,
 * `t.files`, ... (Iceberg 1.11's *Table classes), with Spark's column names,
 * order and types (docs/meta.md): timestamps as Arrow timestamp[us, UTC]
 * (`committed_at`, `made_current_at`, `timestamp`), `summary` as
 * map<string,string>, ids as int64, `partition` and `readable_metrics` as
 * structs built from the table's specs and current schema, `column_sizes` as
 * map<int32,int64>, bounds as map<int32,binary>.
 *
 * Streaming: the stream reads manifests one at a time and builds batches of
 * at most `batch_rows` rows, so memory does not grow with the number of
 * files. Decimal bounds inside `readable_metrics` go through a double.
 */
#ifndef FLOE_META_H
#define FLOE_META_H

#include "floe/arrow.h"
#include "floe/common.h"
#include "floe/table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FLOE_METADATA_TABLE_OPTIONS_VERSION 1u

/* Initialise with FLOE_METADATA_TABLE_OPTIONS_INIT (NULL options: the
 * defaults). Time travel as floe_scan_options: a snapshot id, else a ref,
 * else a time; none reads the table's current snapshot. Only the tables
 * Spark allows it on accept time travel (files, data_files, delete_files,
 * entries, manifests, partitions, position_deletes). */
typedef struct floe_metadata_table_options {
    unsigned version; /* FLOE_METADATA_TABLE_OPTIONS_VERSION */
    bool has_snapshot_id;
    int64_t snapshot_id;
    const char *ref; /* branch or tag name, NULL for none */
    bool has_as_of_timestamp;
    int64_t as_of_timestamp_ms;
    size_t batch_rows; /* rows per batch at most; 0: 8192 */
} floe_metadata_table_options;

#define FLOE_METADATA_TABLE_OPTIONS_INIT                                                           \
    {                                                                                              \
        FLOE_METADATA_TABLE_OPTIONS_VERSION, false, 0, NULL, false, 0, 0                           \
    }

/* The i-th metadata table name (snapshots, history, refs,
 * metadata_log_entries, files, data_files, delete_files, all_files,
 * all_data_files, all_delete_files, manifests, all_manifests, entries,
 * all_entries, partitions, position_deletes); NULL past the end. */
FLOE_EXTERN const char *floe_metadata_table_name(size_t i);

/* Metadata table `name` of `table` as an ArrowArrayStream of struct batches
 * (one child per column). The stream reads its own copy of the table's
 * current metadata file, so the handle may refresh or commit while it is
 * read; it reads manifests through the handle's FileIO (floe_table_io),
 * which must stay open until the stream is released (keep the handle, or
 * the FileIO it borrows, alive). Release the stream with out->release. Errors: FLOE_ENOTFOUND
 * "Unknown metadata table: x", "Cannot find snapshot with ID n" (and the
 * other messages of floe_table_snapshot_by_id / _by_ref / _as_of_time);
 * FLOE_EINVALID "Cannot select snapshot in table: HISTORY" for time travel
 * on a table without it, bad options; errors reading the metadata file;
 * FLOE_ENOMEM. Errors while reading manifests come from get_next
 * (errno-style code, get_last_error() gives floe's message). */
FLOE_EXTERN int floe_metadata_table_stream(struct ArrowArrayStream *out, floe_table *table,
                                           const char *name,
                                           const floe_metadata_table_options *opts);

#ifdef __cplusplus
}
#endif

#endif
