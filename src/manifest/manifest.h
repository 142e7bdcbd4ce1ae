/* SPDX-License-Identifier: Apache-2.0 */
/*
 * manifest: Iceberg manifest lists and manifests (spec "Manifests",
 * "Manifest Lists", "Manifest Entry Fields", "Sequence Number Inheritance",
 * Appendix C) read and written over floe's Avro codec, format v1, v2 and v3
 * (first_row_id, referenced_data_file, content_offset and
 * content_size_in_bytes).
 *
 * Readers take the file's bytes (from FileIO) and a `source` name for error
 * messages; they resolve the writer's schema by field id (falling back to
 * names for writers that dropped field ids), skip unknown fields and leave
 * missing optional ones null. The manifest reader streams: an entry and what
 * it points to is valid until the next call of floe_manifest_reader_next().
 *
 * Writers take everything they need from the caller (format version,
 * content, partition spec id, partition field ids / names / result types,
 * the `schema` and `partition-spec` JSON header strings, snapshot id,
 * sequence number) and produce the file's bytes in a floe_buf plus, for a
 * manifest, the finished manifest-list entry (counts, partition summaries).
 */
#ifndef FLOE_MANIFEST_H
#define FLOE_MANIFEST_H

#include "avro/avro.h"
#include "spec/types.h"

/* A sequence number not yet assigned (written as null, inherited on read). */
#define FLOE_SEQ_UNASSIGNED (-1)

/* Manifest entry status (spec: 0 EXISTING, 1 ADDED, 2 DELETED). ADDED and
 * EXISTING are live in a snapshot that lists the manifest; DELETED is a
 * logical removal in that snapshot, never evidence the object is gone. */
enum {
    FLOE_ENTRY_EXISTING = 0,
    FLOE_ENTRY_ADDED = 1,
    FLOE_ENTRY_DELETED = 2,
};

/* Live in the snapshot whose manifest list names this manifest? */
#define FLOE_ENTRY_IS_LIVE(status) ((status) == FLOE_ENTRY_ADDED || (status) == FLOE_ENTRY_EXISTING)

/* data_file.content */
enum {
    FLOE_FILE_DATA = 0,
    FLOE_FILE_POSITION_DELETES = 1,
    FLOE_FILE_EQUALITY_DELETES = 2,
};

/* manifest content (manifest list `content`, manifest header `content`) */
enum {
    FLOE_MANIFEST_DATA = 0,
    FLOE_MANIFEST_DELETES = 1,
};

/* Optional binary value: `set` false means null. Bytes are borrowed. */
typedef struct floe_opt_bytes {
    const uint8_t *ptr;
    size_t len;
    bool set;
} floe_opt_bytes;

/* ---------------------------------------------------------------- manifest list */

typedef struct floe_field_summary {
    bool contains_null;
    bool has_contains_nan; /* false: null (unknown) */
    bool contains_nan;
    floe_opt_bytes lower_bound; /* Appendix D bytes of the partition field's type */
    floe_opt_bytes upper_bound;
} floe_field_summary;

/* One manifest-list entry (the spec's `manifest_file` struct). */
typedef struct floe_manifest_file {
    const char *manifest_path;
    int64_t manifest_length;
    int32_t partition_spec_id;
    int32_t content;             /* FLOE_MANIFEST_*; v1: data */
    int64_t sequence_number;     /* v1: 0; FLOE_SEQ_UNASSIGNED before a commit assigns it */
    int64_t min_sequence_number; /* same */
    int64_t added_snapshot_id;   /* -1 when null (v1 optional) */
    /* counts: -1 when null (optional in v1) */
    int32_t added_files_count;
    int32_t existing_files_count;
    int32_t deleted_files_count;
    int64_t added_rows_count;
    int64_t existing_rows_count;
    int64_t deleted_rows_count;
    bool has_partitions; /* false: null */
    size_t npartitions;
    const floe_field_summary *partitions; /* one per partition field, spec order */
    floe_opt_bytes key_metadata;
    bool has_first_row_id; /* v3 */
    int64_t first_row_id;
} floe_manifest_file;

/* A whole manifest list, owned by one arena. */
typedef struct floe_manifest_list {
    int format_version; /* header `format-version`, else inferred from the schema */
    bool has_snapshot_id;
    int64_t snapshot_id;         /* header `snapshot-id` */
    bool has_parent_snapshot_id; /* header `parent-snapshot-id` ("null" -> false) */
    int64_t parent_snapshot_id;
    bool has_sequence_number;
    int64_t sequence_number; /* header `sequence-number` (v2) */
    size_t nentries;
    floe_manifest_file *entries;
    floe_avro_file *file; /* header metadata and schema (floe_avro_file_meta) */
    floe_arena *arena;
} floe_manifest_list;

/* Decode a manifest list from `data` (borrowed: it must outlive the result,
 * whose byte fields point into it). FLOE_ECORRUPT naming `source` and the
 * offset for bad bytes or a schema that does not fit; FLOE_ENOMEM. */
int floe_manifest_list_read(floe_manifest_list **out, const uint8_t *data, size_t len,
                            const char *source);
void floe_manifest_list_free(floe_manifest_list *l);

typedef struct floe_manifest_list_writer_options {
    int format_version; /* 1, 2 or 3 */
    int64_t snapshot_id;
    bool has_parent_snapshot_id;
    int64_t parent_snapshot_id;
    int64_t sequence_number; /* v2: the commit's; replaces FLOE_SEQ_UNASSIGNED in entries */
    floe_avro_codec codec;
    int compression_level; /* < 0: codec default */
    int64_t first_row_id;  /* v3: the table's next-row-id (header `first-row-id`) */
} floe_manifest_list_writer_options;

typedef struct floe_manifest_list_writer floe_manifest_list_writer;

/* Start a manifest list; bytes are appended to `dst` (the caller's). */
int floe_manifest_list_writer_new(floe_manifest_list_writer **out,
                                  const floe_manifest_list_writer_options *opts, floe_buf *dst);
/* Append one entry. v2: FLOE_SEQ_UNASSIGNED sequence numbers become the
 * list's sequence_number. FLOE_EINVALID for a missing path or snapshot id. */
int floe_manifest_list_writer_add(floe_manifest_list_writer *w, const floe_manifest_file *mf);
int floe_manifest_list_writer_finish(floe_manifest_list_writer *w);
/* v3: after the entries, the row id after the last one assigned. Each data
 * manifest without a first_row_id is given the next one and reserves its
 * added_rows_count + existing_rows_count (Java's V3Writer); the snapshot's
 * added-rows is this minus opts->first_row_id. */
int64_t floe_manifest_list_writer_next_row_id(const floe_manifest_list_writer *w);
void floe_manifest_list_writer_free(floe_manifest_list_writer *w);

/* ---------------------------------------------------------------- manifests */

typedef struct floe_col_long {
    int32_t field_id;
    int64_t value;
} floe_col_long;

typedef struct floe_col_longs { /* an int -> long metrics map; set false: null */
    size_t n;
    const floe_col_long *items;
    bool set;
} floe_col_longs;

typedef struct floe_col_bytes {
    int32_t field_id;
    const uint8_t *ptr; /* Appendix D bytes: decode with floe_value_from_single() */
    size_t len;
} floe_col_bytes;

typedef struct floe_col_bytes_map {
    size_t n;
    const floe_col_bytes *items;
    bool set;
} floe_col_bytes_map;

typedef struct floe_data_file {
    int32_t content; /* FLOE_FILE_*; v1: data */
    const char *file_path;
    const char *file_format;        /* as written: "PARQUET", "AVRO", "ORC", "PUFFIN" */
    floe_partition_value partition; /* one value per partition field, spec order */
    int64_t record_count;
    int64_t file_size_in_bytes;
    int64_t block_size_in_bytes; /* v1 only; -1 when absent */
    floe_col_longs column_sizes;
    floe_col_longs value_counts;
    floe_col_longs null_value_counts;
    floe_col_longs nan_value_counts;
    floe_col_bytes_map lower_bounds;
    floe_col_bytes_map upper_bounds;
    floe_opt_bytes key_metadata;
    bool has_split_offsets;
    size_t nsplit_offsets;
    const int64_t *split_offsets;
    bool has_equality_ids;
    size_t nequality_ids;
    const int32_t *equality_ids;
    bool has_sort_order_id;
    int32_t sort_order_id;
    bool has_first_row_id; /* v3 */
    int64_t first_row_id;
    const char *referenced_data_file; /* NULL when null */
    bool has_content_offset;
    int64_t content_offset;
    bool has_content_size_in_bytes;
    int64_t content_size_in_bytes;
} floe_data_file;

typedef struct floe_manifest_entry {
    int32_t status; /* FLOE_ENTRY_* */
    bool has_snapshot_id;
    int64_t snapshot_id;
    int64_t sequence_number;      /* data sequence number; FLOE_SEQ_UNASSIGNED when null */
    int64_t file_sequence_number; /* same */
    floe_data_file data_file;
} floe_manifest_entry;

/* What a manifest's header and schema say about it. */
typedef struct floe_manifest_info {
    int format_version;
    int32_t content; /* FLOE_MANIFEST_* */
    int32_t partition_spec_id;
    const char *schema_json;         /* header `schema` (NULL if absent) */
    const char *partition_spec_json; /* header `partition-spec` (NULL if absent) */
    /* partition fields from the Avro schema of data_file.partition: ids,
     * names and result types (decimal precision/scale, fixed length) */
    size_t npartition_fields;
    const int32_t *partition_field_ids;
    const char *const *partition_field_names;
    const floe_type *partition_types;
} floe_manifest_info;

typedef struct floe_manifest_read_options {
    /* The manifest-list entry naming this manifest: enables inheritance of
     * null sequence numbers and snapshot ids (spec "Sequence Number
     * Inheritance"). NULL: no inheritance (v1 still reads as 0). */
    const floe_manifest_file *manifest;
    /* Copy every borrowed byte into the reader's arena and never reset it,
     * so all entries stay valid until the reader is freed. */
    bool keep_entries;
} floe_manifest_read_options;

typedef struct floe_manifest_reader floe_manifest_reader;

/* Open a manifest in `data` (borrowed; must outlive the reader). opts may be
 * NULL. FLOE_ECORRUPT (file + offset) for bad bytes or a schema that does
 * not fit the manifest_entry struct; FLOE_ENOMEM. */
int floe_manifest_reader_open(floe_manifest_reader **out, const uint8_t *data, size_t len,
                              const char *source, const floe_manifest_read_options *opts);
/* Next entry (borrowed: valid until the next call, or until the reader is
 * freed with keep_entries). FLOE_ITEROVER at the end; FLOE_ECORRUPT. */
int floe_manifest_reader_next(floe_manifest_reader *r, const floe_manifest_entry **entry);
const floe_manifest_info *floe_manifest_reader_info(const floe_manifest_reader *r);
/* From the next entry on, the metrics maps (column_sizes, value_counts,
 * null_value_counts, nan_value_counts, lower_bounds, upper_bounds) are
 * skipped, not decoded: they read as null until
 * floe_manifest_reader_metrics() decodes them for the current entry. For
 * scan planning, where most entries need none of them. Their structure is
 * checked while skipping; field ids only when decoded. */
void floe_manifest_reader_lazy_metrics(floe_manifest_reader *r);
/* After floe_manifest_reader_lazy_metrics(): decode the metrics maps of the
 * entry the last floe_manifest_reader_next() returned into it (valid as
 * the entry is). 0 at once when not lazy or already decoded;
 * FLOE_ECORRUPT, FLOE_ENOMEM. */
int floe_manifest_reader_metrics(floe_manifest_reader *r);
/* Bytes currently held for decoded entries (reset at each Avro block unless
 * keep_entries): lets tests check that streaming memory stays bounded. */
size_t floe_manifest_reader_memory(const floe_manifest_reader *r);
/* The underlying container (header metadata). */
floe_avro_file *floe_manifest_reader_file(floe_manifest_reader *r);
void floe_manifest_reader_free(floe_manifest_reader *r);

/* Whole-manifest convenience: every entry in one array. */
typedef struct floe_manifest {
    floe_manifest_reader *reader; /* owns the memory; info via floe_manifest_reader_info */
    size_t nentries;
    const floe_manifest_entry *entries;
} floe_manifest;

int floe_manifest_read(floe_manifest **out, const uint8_t *data, size_t len, const char *source,
                       const floe_manifest_file *manifest);
void floe_manifest_free(floe_manifest *m);

/* A partition field as the writer needs it: the result type of its
 * transform is computed by the caller. */
typedef struct floe_manifest_partition_field {
    int32_t field_id;
    const char *name;
    const floe_type *type;
} floe_manifest_partition_field;

typedef struct floe_manifest_writer_options {
    int format_version; /* 1, 2 or 3 */
    int32_t content;    /* FLOE_MANIFEST_DATA / _DELETES (v2) */
    int32_t partition_spec_id;
    size_t npartition_fields;
    const floe_manifest_partition_field *partition_fields;
    const char *schema_json;         /* header `schema`: the table schema JSON */
    const char *partition_spec_json; /* header `partition-spec`: JSON array of fields */
    int64_t snapshot_id;             /* added_snapshot_id; default for ADDED entries */
    int64_t sequence_number;         /* FLOE_SEQ_UNASSIGNED until the commit assigns it */
    const char *manifest_path;       /* copied into the resulting list entry */
    floe_avro_codec codec;
    int compression_level; /* < 0: codec default */
} floe_manifest_writer_options;

typedef struct floe_manifest_writer floe_manifest_writer;

/* Start a manifest; bytes are appended to `dst`. FLOE_EINVALID for bad
 * options (unsupported version, partition types that are not primitive). */
int floe_manifest_writer_new(floe_manifest_writer **out, const floe_manifest_writer_options *opts,
                             floe_buf *dst);
/* Append an entry. ADDED entries with FLOE_SEQ_UNASSIGNED sequence numbers
 * are written with nulls (inherited on read); EXISTING and DELETED need
 * explicit ones in v2 (FLOE_EINVALID otherwise). Partition values must
 * match the partition fields' types. */
int floe_manifest_writer_add(floe_manifest_writer *w, const floe_manifest_entry *e);
/* Flush and fill `mf` with the finished manifest-list entry: path, length
 * (bytes appended to `out` since _new), counts, partition summaries. Its
 * pointers live in the writer until floe_manifest_writer_free(). */
int floe_manifest_writer_finish(floe_manifest_writer *w, floe_manifest_file *mf);
void floe_manifest_writer_free(floe_manifest_writer *w);

/* What an Avro container holds, judged from its schema (field ids 500 /
 * manifest_path for lists, 2 / data_file for manifests). */
typedef enum floe_manifest_kind {
    FLOE_KIND_OTHER = 0,
    FLOE_KIND_MANIFEST_LIST,
    FLOE_KIND_MANIFEST,
} floe_manifest_kind;

floe_manifest_kind floe_manifest_detect(const floe_avro_file *f);

/* Iceberg type string of a primitive ("int", "decimal(9,2)", "fixed[16]",
 * "timestamptz", ...) written into `out`. */
int floe_manifest_type_string(const floe_type *t, floe_buf *out);

#endif
