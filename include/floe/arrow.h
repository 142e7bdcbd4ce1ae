/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Arrow C Data Interface and C Stream Interface: the columnar exchange
 * ABI shared by DuckDB, pyarrow, Polars, nanoarrow and others. Written here
 * from the Arrow specification ("The Arrow C data interface", "The Arrow C
 * stream interface"); the guards let it coexist with other copies of the same
 * definitions.
 *
 * floe produces scan results as `struct ArrowArrayStream`: each batch is a
 * struct array whose children are the projected columns. Field ids travel in
 * each child's metadata under the key `PARQUET:field_id` (the convention of
 * Arrow's Parquet implementation).
 */
#ifndef FLOE_ARROW_H
#define FLOE_ARROW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    /* Array type description */
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;

    /* Release callback */
    void (*release)(struct ArrowSchema *);
    /* Opaque producer-specific data */
    void *private_data;
};

struct ArrowArray {
    /* Array data description */
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;

    /* Release callback */
    void (*release)(struct ArrowArray *);
    /* Opaque producer-specific data */
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    /* Callbacks return 0 on success or an errno-compatible code. */
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    /* End of stream: `out` is released (out->release == NULL). */
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

#ifdef __cplusplus
}
#endif
#endif
