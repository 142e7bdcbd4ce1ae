/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/thrift: the Thrift compact protocol, the only serialization the
 * Parquet footer (FileMetaData) and page headers use (parquet.thrift). Hand
 * written, bounded: every length is checked against the remaining input and
 * nesting depth is capped, so a hostile footer can never make us allocate or
 * recurse without limit.
 */
#ifndef FLOE_PARQUET_THRIFT_H
#define FLOE_PARQUET_THRIFT_H

#include "util/util.h"

/* Compact protocol element types (field header low nibble). */
enum {
    FLOE_TC_STOP = 0,
    FLOE_TC_TRUE = 1,
    FLOE_TC_FALSE = 2,
    FLOE_TC_I8 = 3,
    FLOE_TC_I16 = 4,
    FLOE_TC_I32 = 5,
    FLOE_TC_I64 = 6,
    FLOE_TC_DOUBLE = 7,
    FLOE_TC_BINARY = 8,
    FLOE_TC_LIST = 9,
    FLOE_TC_SET = 10,
    FLOE_TC_MAP = 11,
    FLOE_TC_STRUCT = 12,
};

#define FLOE_THRIFT_MAX_DEPTH 32

typedef struct floe_tdec {
    const uint8_t *base; /* start of the buffer (offsets in messages) */
    const uint8_t *p;
    const uint8_t *end;
    int64_t file_offset; /* file offset of base, for error messages */
    const char *what;    /* file name for error messages */
    int depth;
    int16_t last_id[FLOE_THRIFT_MAX_DEPTH + 1];
} floe_tdec;

void floe__tdec_init(floe_tdec *d, const void *buf, size_t len, int64_t file_offset,
                     const char *what);
/* Raise FLOE_ECORRUPT naming the file and current offset. */
int floe__tdec_corrupt(floe_tdec *d, const char *why);
/* Struct framing: begin resets the field id delta; next_field returns the
 * field id and type (type FLOE_TC_STOP at the end of the struct). */
int floe__tdec_struct_begin(floe_tdec *d);
int floe__tdec_struct_end(floe_tdec *d);
int floe__tdec_field(floe_tdec *d, int16_t *id, int *type);
int floe__tdec_varint(floe_tdec *d, uint64_t *out);
int floe__tdec_i32(floe_tdec *d, int type, int32_t *out);
int floe__tdec_i64(floe_tdec *d, int type, int64_t *out);
int floe__tdec_bool(floe_tdec *d, int type, bool *out);
/* Binary: borrowed pointer into the buffer. */
int floe__tdec_binary(floe_tdec *d, int type, const uint8_t **p, size_t *len);
/* List header: element type and count (count bounded by remaining bytes). */
int floe__tdec_list(floe_tdec *d, int type, int *elem_type, uint32_t *n);
int floe__tdec_skip(floe_tdec *d, int type);

/* Encoder: appends to a floe_buf. */
typedef struct floe_tenc {
    floe_buf *out;
    int depth;
    int16_t last_id[FLOE_THRIFT_MAX_DEPTH + 1];
} floe_tenc;

void floe__tenc_init(floe_tenc *e, floe_buf *out);
int floe__tenc_struct_begin(floe_tenc *e);
int floe__tenc_struct_end(floe_tenc *e); /* writes STOP */
int floe__tenc_field(floe_tenc *e, int16_t id, int type);
int floe__tenc_varint(floe_tenc *e, uint64_t v);
int floe__tenc_i32(floe_tenc *e, int16_t id, int32_t v);
int floe__tenc_i64(floe_tenc *e, int16_t id, int64_t v);
int floe__tenc_bool(floe_tenc *e, int16_t id, bool v);
int floe__tenc_binary(floe_tenc *e, int16_t id, const void *p, size_t len);
int floe__tenc_list_begin(floe_tenc *e, int16_t id, int elem_type, uint32_t n);
/* Raw element writers inside lists. */
int floe__tenc_raw_i32(floe_tenc *e, int32_t v);
int floe__tenc_raw_binary(floe_tenc *e, const void *p, size_t len);

#endif
