/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet: floe's Parquet reader and writer for Iceberg data and delete
 * files (parquet-format; Iceberg spec "Parquet" type mapping, "Column
 * Metrics", Appendix D bounds).
 *
 * Writer: Arrow struct batches (one child per schema field, as built by
 * floe__arrow_schema_from_struct) -> Parquet bytes streamed to a sink
 * callback; close() returns the Iceberg metrics of the file.
 * Reader: a floe_input -> Arrow struct batches (one per row group),
 * projected by field id.
 */
#ifndef FLOE_PARQUET_H
#define FLOE_PARQUET_H

#include "arrow/arrow.h"
#include "floe/sys/fileio.h"
#include "parquet/format.h"
#include "spec/types.h"

/* ---------------------------------------------------------------- schema tree */

/* One node of a Parquet schema (SchemaElement tree) with its max levels. */
typedef struct floe_pq_node floe_pq_node;
struct floe_pq_node {
    const floe_pq_schema_element *el;
    floe_pq_node *parent;
    floe_pq_node **children;
    size_t nchildren;
    int16_t max_def; /* definition level when this node is present */
    int16_t max_rep; /* number of repeated nodes from the root to here */
    int leaf;        /* column index for leaves, -1 for groups */
    int depth;
};

typedef struct floe_pq_tree {
    floe_pq_node *root;
    size_t nleaves;
    floe_pq_node **leaves; /* column order */
} floe_pq_tree;

/* Build the tree of a footer's flat schema (depth-first, num_children).
 * Nodes live in `arena`. FLOE_ECORRUPT when children counts are inconsistent. */
int floe__pq_tree_build(floe_pq_tree *out, floe_arena *arena, const floe_pq_schema_element *els,
                        size_t n, const char *what);

/* The Iceberg schema of a Parquet file (from field ids; elements without ids
 * get ids above the highest present one). Used when the caller has no
 * projection and by `floe inspect`. Lives in `arena`. */
int floe__pq_infer_schema(floe_schema **out, floe_arena *arena, const floe_pq_tree *tree);

/* Parquet SchemaElements (in `arena`) for an Iceberg schema: field_id on
 * every element, 3-level lists and maps (spec "Parquet" section). */
int floe__pq_schema_from_iceberg(floe_pq_schema_element **out, size_t *n, floe_arena *arena,
                                 const floe_schema *schema);

/* Decode a Statistics min/max value of leaf `el` as a value of the leaf's
 * Iceberg type (written to *type). Bytes are borrowed. FLOE_ECORRUPT when
 * the length does not fit the type; FLOE_EUNSUPPORTED for unmapped types. */
int floe__pq_stat_value(const floe_pq_schema_element *el, const floe_pq_bytes *b, floe_type *type,
                        floe_value *out);

/* Minimum bytes for an unscaled decimal of precision p (FIXED_LEN_BYTE_ARRAY). */
int floe__pq_decimal_bytes(int precision);

/* ---------------------------------------------------------------- writer */

typedef struct floe_pq_field_metrics {
    int32_t field_id;
    bool has_column_size;
    int64_t column_size;
    bool has_counts;
    int64_t value_count;
    int64_t null_value_count;
    bool has_nan_count; /* float/double only */
    int64_t nan_value_count;
    uint8_t *lower_bound; /* Appendix D single-value bytes, NULL if none */
    size_t lower_bound_len;
    uint8_t *upper_bound;
    size_t upper_bound_len;
} floe_pq_field_metrics;

typedef struct floe_pq_metrics {
    int64_t record_count;
    int64_t file_size_in_bytes;
    size_t nfields;                 /* leaf fields, sorted by field id */
    floe_pq_field_metrics *fields;
    size_t nsplit_offsets;          /* row group start offsets */
    int64_t *split_offsets;
} floe_pq_metrics;

void floe__pq_metrics_free(floe_pq_metrics *m);

/* Metrics modes (spec "Column Metrics"; table properties
 * write.metadata.metrics.default / .column.<name> /
 * .max-inferred-column-defaults). */
enum { FLOE_PQ_MM_NONE, FLOE_PQ_MM_COUNTS, FLOE_PQ_MM_TRUNCATE, FLOE_PQ_MM_FULL };

/* The mode (and truncate length) of leaf column `name` (dotted Iceberg
 * name), the `index`-th leaf in schema order, under properties `p` (may be
 * NULL), as the writer applies it. FLOE_EINVALID for a bad mode string. */
int floe__pq_metrics_mode(const floe_props *p, const char *name, size_t index, int *mode,
                          int *trunc);
/* Set m's lower/upper bound (Appendix D bytes, heap) from a column's
 * minimum and maximum under `mode`: none and counts give no bounds,
 * truncate(N) shortens strings (N code points, upper bound incremented) and
 * binary (N bytes), full keeps them whole. */
int floe__pq_metrics_bounds(const floe_value *lo, const floe_value *hi, int mode, int trunc,
                            floe_pq_field_metrics *m);

typedef struct floe_pq_write_options {
    /* Table properties: write.parquet.compression-codec (zstd),
     * write.parquet.row-group-size-bytes (128 MiB),
     * write.parquet.page-size-bytes (1 MiB), write.parquet.page-row-limit
     * (20000), write.parquet.dict-size-bytes (2 MiB),
     * write.metadata.metrics.default (truncate(16)),
     * write.metadata.metrics.column.<name>,
     * write.metadata.metrics.max-inferred-column-defaults (100). May be NULL. */
    const floe_props *props;
    /* Written as the `iceberg.schema` key/value (Java does); may be NULL. */
    const char *iceberg_schema_json;
    /* Extra key/values (e.g. delete file markers); may be NULL. */
    const floe_props *extra_kv;
    /* Every byte of the file goes through sink, in order. */
    int (*sink)(const void *data, size_t len, void *payload);
    void *sink_payload;
    int data_page_version; /* 1 (default) or 2 */
    bool dictionary_disabled;
} floe_pq_write_options;

typedef struct floe_pq_writer floe_pq_writer;

/* Start a file for `schema` (borrowed until free). Writes the magic. */
int floe__pq_writer_new(floe_pq_writer **out, const floe_schema *schema,
                        const floe_pq_write_options *opts);
/* Append rows: a struct array whose children follow the schema's top-level
 * fields in order, in the layout floe__arrow_schema_from_struct describes.
 * The batch stays the caller's. FLOE_EINVALID on a layout mismatch or a null
 * in a required field. */
int floe__pq_writer_write(floe_pq_writer *w, const struct ArrowArray *batch);
/* Bytes written to the sink plus bytes buffered (for rolling to a new file
 * at write.target-file-size-bytes). */
int64_t floe__pq_writer_bytes(const floe_pq_writer *w);
/* Flush, write the footer; fill metrics (may be NULL). */
int floe__pq_writer_close(floe_pq_writer *w, floe_pq_metrics *metrics);
void floe__pq_writer_free(floe_pq_writer *w);

/* ---------------------------------------------------------------- reader */

typedef struct floe_pq_reader floe_pq_reader;

/* Column chunk statistics of one field in one row group, decoded to values
 * of the projected Iceberg type (min/max only when present and exact
 * enough to prune with). */
typedef struct floe_pq_chunk_stats {
    bool has_min_max;
    floe_value min, max; /* bytes borrowed from the footer */
    bool has_null_count;
    int64_t null_count;
    int64_t num_values;
    bool present;                  /* the field has a column in the file */
    int64_t total_compressed_size; /* of the column chunk */
} floe_pq_chunk_stats;

typedef struct floe_pq_read_options {
    /* Fields to read, with their Iceberg types (struct type of the output).
     * NULL: every column of the file, with the inferred schema. */
    const floe_schema *projection;
    /* For files without field ids: map a column path to a field id (the
     * table's schema.name-mapping.default); return 0 when unmapped. NULL:
     * match by name. */
    int32_t (*name_mapping)(const char *const *path, size_t depth, void *payload);
    void *name_mapping_payload;
    /* Row-group skipping: return false to skip row group `rg`. */
    bool (*keep_row_group)(floe_pq_reader *r, size_t rg, void *payload);
    void *keep_row_group_payload;
    /* Rows per batch (0: one batch per row group). A row group is decoded
     * once and handed out in slices of this many rows. */
    int64_t batch_rows;
    /* Stripe mode (stripe_count > 1, flat columns only): the file's rows
     * in stripes of stripe_rows rows, numbered across row groups (a row
     * group's last stripe may be shorter); this reader returns stripes
     * stripe_index, stripe_index + stripe_count, ... one batch each (an
     * empty batch for a stripe whose row group keep_row_group skipped), so
     * stripe_count readers of one file, asked in turn, give its rows in
     * order. Pages wholly in other stripes are not decompressed. */
    int64_t stripe_rows;
    int stripe_index, stripe_count;
} floe_pq_read_options;

/* Open: reads the footer from the real size of `in` (never trusts a size
 * from elsewhere). `in` is borrowed until free. FLOE_ECORRUPT (file,
 * offset) on a bad footer. */
int floe__pq_reader_open(floe_pq_reader **out, floe_input *in, const floe_pq_read_options *opts);
const floe_pq_file_meta *floe__pq_reader_meta(const floe_pq_reader *r);
/* The output schema (the projection, or the inferred file schema). */
const floe_schema *floe__pq_reader_schema(const floe_pq_reader *r);
const floe_pq_tree *floe__pq_reader_tree(const floe_pq_reader *r);
/* Statistics of field `field_id` (a primitive, at top level or inside
 * structs; not inside lists/maps) in row group `rg`; has_* false when absent
 * or the field is not in the file. */
int floe__pq_reader_chunk_stats(floe_pq_reader *r, size_t rg, int32_t field_id,
                                floe_pq_chunk_stats *out);
/* Next batch (one per row group kept, or slices of batch_rows rows):
 * FLOE_ITEROVER at the end. */
int floe__pq_reader_next(floe_pq_reader *r, struct ArrowArray *out);
/* The file row position of the last batch's first row. */
int64_t floe__pq_reader_batch_row(const floe_pq_reader *r);
/* ArrowSchema of the batches. */
int floe__pq_reader_arrow_schema(floe_pq_reader *r, struct ArrowSchema *out);
/* Wrap as an ArrowArrayStream that owns the reader (and closes `in` with
 * in->close when `own_input`). */
int floe__pq_reader_stream(floe_pq_reader *r, bool own_input, struct ArrowArrayStream *out);
void floe__pq_reader_free(floe_pq_reader *r);

/* A floe_input over a memory buffer (borrowed) or a local file, for tests,
 * tools and fuzzers. close() frees it. */
int floe__pq_input_memory(floe_input **out, const void *data, size_t len, const char *name);
int floe__pq_input_file(floe_input **out, const char *path);

#endif
