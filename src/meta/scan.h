/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/scan: private to the meta module — what the manifest-reading
 * metadata tables share: the table's unified partition type and
 * readable_metrics columns (info.c), the JSON encoders of data_file,
 * partition tuples and readable metrics (info.c), and the manifest walker
 * that streams (snapshot, manifest) pairs and manifest entries (walk.c).
 */
#ifndef FLOE_META_SCAN_H
#define FLOE_META_SCAN_H

#include "manifest/manifest.h"
#include "meta/meta.h"

/* Largest manifest list / manifest read into memory. */
#define FLOE_META_MAX_MANIFEST_BYTES ((size_t)1 << 30)

/* One field of the table's partition type: the union of every spec's
 * fields by field id, sorted by id, named as in the newest spec (Java's
 * Partitioning.partitionType). */
typedef struct meta_part_field {
    int32_t field_id;
    const char *name;
    const floe_type *type; /* transform result type */
} meta_part_field;

/* A primitive column of the current schema, by its dotted name. */
typedef struct meta_metric_col {
    const char *name;
    const floe_field *field;
} meta_metric_col;

/* A JSON object key written once per table: `,"<escaped name>":` (plus,
 * for metrics, `{"column_size":`); a first member skips the comma. */
typedef struct meta_key {
    const char *text;
    size_t len;
} meta_key;

typedef struct meta_info {
    floe_arena *arena;
    const floe_table_metadata *m;
    size_t npart;
    meta_part_field *part;
    const floe_type *part_type; /* struct of part (npart may be 0) */
    size_t nmetric;
    meta_metric_col *metric; /* sorted by name */
    const floe_type *metrics_type;
    const floe_type *data_file_type; /* struct of the data_file columns */
    meta_key *part_key;              /* per part field */
    meta_key *metric_key;            /* per metric column */
} meta_info;

int floe__meta_info_new(meta_info **out, const floe_table_metadata *m);
void floe__meta_info_free(meta_info *info);

/* Partition tuple of `df` (written with the fields `ids` of its manifest)
 * as a JSON object over the unified partition fields. */
int floe__meta_json_partition(const meta_info *info, const floe_partition_value *pv,
                              const int32_t *ids, size_t nids, floe_buf *out);
/* The data_file struct as JSON (partition included when npart > 0). */
int floe__meta_json_data_file(const meta_info *info, const floe_data_file *df, int32_t spec_id,
                              const int32_t *ids, size_t nids, floe_buf *out);
/* readable_metrics: {"col":{"column_size":..,...,"lower_bound":..},...}. */
int floe__meta_json_readable_metrics(const meta_info *info, const floe_data_file *df,
                                     floe_buf *out);
int floe__meta_json_longs(const floe_col_longs *m, floe_buf *out);
int floe__meta_json_bytes_map(const floe_col_bytes_map *m, floe_buf *out);
/* split_offsets and equality_ids as JSON arrays (null when absent). */
int floe__meta_json_split_offsets(const floe_data_file *df, floe_buf *out);
int floe__meta_json_equality_ids(const floe_data_file *df, floe_buf *out);

/* The files-table columns (Java DataFile.getType + readable_metrics),
 * partition left out when the table is unpartitioned. */
typedef enum meta_df_col {
    DF_CONTENT,
    DF_FILE_PATH,
    DF_FILE_FORMAT,
    DF_SPEC_ID,
    DF_PARTITION,
    DF_RECORD_COUNT,
    DF_FILE_SIZE,
    DF_COLUMN_SIZES,
    DF_VALUE_COUNTS,
    DF_NULL_VALUE_COUNTS,
    DF_NAN_VALUE_COUNTS,
    DF_LOWER_BOUNDS,
    DF_UPPER_BOUNDS,
    DF_KEY_METADATA,
    DF_SPLIT_OFFSETS,
    DF_EQUALITY_IDS,
    DF_SORT_ORDER_ID,
    DF_FIRST_ROW_ID,
    DF_REFERENCED_DATA_FILE,
    DF_CONTENT_OFFSET,
    DF_CONTENT_SIZE,
    DF_READABLE_METRICS,
    DF_NCOLS
} meta_df_col;
extern const char *const floe__meta_df_names[DF_NCOLS];
/* Iceberg type of a files-table column. */
const floe_type *floe__meta_df_type(const meta_info *info, int col);

/* ---------------------------------------------------------------- walker */

typedef enum meta_walk_mode {
    WALK_SNAPSHOT, /* the manifests of one snapshot */
    WALK_ALL,      /* every retained snapshot's manifests, each manifest once */
    WALK_ALL_PAIRS /* every (snapshot, manifest) pair, duplicates kept */
} meta_walk_mode;

/* Which manifests to read: bit 0 data, bit 1 deletes. */
enum { WALK_DATA = 1, WALK_DELETES = 2 };

typedef struct meta_walker meta_walker;

/* `snapshot` is used by WALK_SNAPSHOT (NULL: no rows). */
int floe__meta_walker_new(meta_walker **out, const floe_meta_options *o, meta_walk_mode mode,
                          const floe_snapshot *snapshot, unsigned contents);
void floe__meta_walker_free(meta_walker *w);
/* Skip manifests whose list entry says they hold no entry of these
 * statuses (bits 1 << FLOE_ENTRY_*). */
void floe__meta_walker_want_statuses(meta_walker *w, unsigned statuses);
/* Next manifest-list entry and the snapshot whose list holds it;
 * FLOE_ITEROVER at the end. Valid until the next call. */
int floe__meta_walker_next_manifest(meta_walker *w, const floe_manifest_file **mf,
                                    const floe_snapshot **snap);
/* Next entry of the walk's manifests (opening them in turn); the manifest
 * it belongs to in *mf and the partition field ids of that manifest. */
int floe__meta_walker_next_entry(meta_walker *w, const floe_manifest_entry **e,
                                 const floe_manifest_file **mf, const floe_manifest_info **info);

/* Snapshot the time-travel options select (opts->snapshot_id or the
 * current one); NULL when the table has none. */
const floe_snapshot *floe__meta_selected_snapshot(const floe_meta_options *o);

/* Families (files.c, manifests.c, partitions.c). */
typedef enum meta_files_kind {
    MF_FILES,
    MF_DATA_FILES,
    MF_DELETE_FILES,
    MF_ALL_FILES,
    MF_ALL_DATA_FILES,
    MF_ALL_DELETE_FILES,
    MF_ENTRIES,
    MF_ALL_ENTRIES,
} meta_files_kind;
int floe__meta_open_files(floe_rowsource **out, const floe_meta_options *o, meta_files_kind kind,
                          const char *name);
int floe__meta_open_manifests(floe_rowsource **out, const floe_meta_options *o, bool all);
int floe__meta_open_partitions(floe_rowsource **out, const floe_meta_options *o);
int floe__meta_open_position_deletes(floe_rowsource **out, const floe_meta_options *o);

#endif
