/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/format: the in-memory model of parquet.thrift's footer
 * (FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData,
 * Statistics, KeyValue) and PageHeader, with their compact-protocol decoders
 * and encoders (footer.c). Decoded footers live in an arena; binary fields
 * (names, statistics) are copied into it.
 */
#ifndef FLOE_PARQUET_FORMAT_H
#define FLOE_PARQUET_FORMAT_H

#include "util/util.h"

/* parquet.thrift enums */
enum {
    FLOE_PQ_BOOLEAN = 0,
    FLOE_PQ_INT32 = 1,
    FLOE_PQ_INT64 = 2,
    FLOE_PQ_INT96 = 3,
    FLOE_PQ_FLOAT = 4,
    FLOE_PQ_DOUBLE = 5,
    FLOE_PQ_BYTE_ARRAY = 6,
    FLOE_PQ_FIXED_LEN_BYTE_ARRAY = 7,
};
enum { FLOE_PQ_REQUIRED = 0, FLOE_PQ_OPTIONAL = 1, FLOE_PQ_REPEATED = 2 };
enum {
    FLOE_PQ_CT_UTF8 = 0,
    FLOE_PQ_CT_MAP = 1,
    FLOE_PQ_CT_MAP_KEY_VALUE = 2,
    FLOE_PQ_CT_LIST = 3,
    FLOE_PQ_CT_ENUM = 4,
    FLOE_PQ_CT_DECIMAL = 5,
    FLOE_PQ_CT_DATE = 6,
    FLOE_PQ_CT_TIME_MILLIS = 7,
    FLOE_PQ_CT_TIME_MICROS = 8,
    FLOE_PQ_CT_TIMESTAMP_MILLIS = 9,
    FLOE_PQ_CT_TIMESTAMP_MICROS = 10,
    FLOE_PQ_CT_UINT_8 = 11,
    FLOE_PQ_CT_UINT_16 = 12,
    FLOE_PQ_CT_UINT_32 = 13,
    FLOE_PQ_CT_UINT_64 = 14,
    FLOE_PQ_CT_INT_8 = 15,
    FLOE_PQ_CT_INT_16 = 16,
    FLOE_PQ_CT_INT_32 = 17,
    FLOE_PQ_CT_INT_64 = 18,
    FLOE_PQ_CT_JSON = 19,
    FLOE_PQ_CT_BSON = 20,
};
/* LogicalType union member ids */
enum {
    FLOE_PQ_LT_NONE = 0,
    FLOE_PQ_LT_STRING = 1,
    FLOE_PQ_LT_MAP = 2,
    FLOE_PQ_LT_LIST = 3,
    FLOE_PQ_LT_ENUM = 4,
    FLOE_PQ_LT_DECIMAL = 5,
    FLOE_PQ_LT_DATE = 6,
    FLOE_PQ_LT_TIME = 7,
    FLOE_PQ_LT_TIMESTAMP = 8,
    FLOE_PQ_LT_INTEGER = 10,
    FLOE_PQ_LT_UNKNOWN = 11,
    FLOE_PQ_LT_JSON = 12,
    FLOE_PQ_LT_BSON = 13,
    FLOE_PQ_LT_UUID = 14,
    FLOE_PQ_LT_FLOAT16 = 15,
};
enum { FLOE_PQ_UNIT_MILLIS = 1, FLOE_PQ_UNIT_MICROS = 2, FLOE_PQ_UNIT_NANOS = 3 };
enum {
    FLOE_PQ_ENC_PLAIN = 0,
    FLOE_PQ_ENC_PLAIN_DICTIONARY = 2,
    FLOE_PQ_ENC_RLE = 3,
    FLOE_PQ_ENC_BIT_PACKED = 4,
    FLOE_PQ_ENC_DELTA_BINARY_PACKED = 5,
    FLOE_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
    FLOE_PQ_ENC_DELTA_BYTE_ARRAY = 7,
    FLOE_PQ_ENC_RLE_DICTIONARY = 8,
    FLOE_PQ_ENC_BYTE_STREAM_SPLIT = 9,
};
enum {
    FLOE_PQ_CODEC_UNCOMPRESSED = 0,
    FLOE_PQ_CODEC_SNAPPY = 1,
    FLOE_PQ_CODEC_GZIP = 2,
    FLOE_PQ_CODEC_LZO = 3,
    FLOE_PQ_CODEC_BROTLI = 4,
    FLOE_PQ_CODEC_LZ4 = 5,
    FLOE_PQ_CODEC_ZSTD = 6,
    FLOE_PQ_CODEC_LZ4_RAW = 7,
};
enum {
    FLOE_PQ_PAGE_DATA = 0,
    FLOE_PQ_PAGE_INDEX = 1,
    FLOE_PQ_PAGE_DICTIONARY = 2,
    FLOE_PQ_PAGE_DATA_V2 = 3,
};

typedef struct floe_pq_bytes {
    const uint8_t *ptr;
    size_t len;
    bool set;
} floe_pq_bytes;

typedef struct floe_pq_statistics {
    floe_pq_bytes max, min;             /* deprecated fields 1/2 (signed order) */
    floe_pq_bytes max_value, min_value; /* fields 5/6 */
    bool has_null_count;
    int64_t null_count;
    bool has_distinct_count;
    int64_t distinct_count;
    bool has_nan_count;
    int64_t nan_count;
} floe_pq_statistics;

typedef struct floe_pq_schema_element {
    int type;           /* FLOE_PQ_* physical type, -1 for groups */
    int32_t type_length;
    int repetition;     /* -1 for the root */
    const char *name;
    int32_t num_children; /* 0 for leaves */
    int converted_type; /* -1 if absent */
    int32_t scale, precision;
    bool has_field_id;
    int32_t field_id;
    int logical;        /* FLOE_PQ_LT_* */
    bool lt_utc;        /* TIME/TIMESTAMP isAdjustedToUTC */
    int lt_unit;        /* FLOE_PQ_UNIT_* */
    int32_t lt_scale, lt_precision;
    int32_t lt_bit_width;
    bool lt_signed;
} floe_pq_schema_element;

typedef struct floe_pq_column_meta {
    int type;
    uint32_t encodings; /* bit mask of 1 << encoding */
    size_t npath;
    const char **path;
    int codec;
    int64_t num_values;
    int64_t total_uncompressed_size;
    int64_t total_compressed_size;
    int64_t data_page_offset;
    bool has_dictionary_page_offset;
    int64_t dictionary_page_offset;
    bool has_statistics;
    floe_pq_statistics statistics;
} floe_pq_column_meta;

typedef struct floe_pq_column_chunk {
    const char *file_path; /* NULL: this file */
    int64_t file_offset;
    bool has_meta_data;
    floe_pq_column_meta meta_data;
} floe_pq_column_chunk;

typedef struct floe_pq_row_group {
    size_t ncolumns;
    floe_pq_column_chunk *columns;
    int64_t total_byte_size;
    int64_t num_rows;
    bool has_file_offset;
    int64_t file_offset;
    bool has_total_compressed_size;
    int64_t total_compressed_size;
} floe_pq_row_group;

typedef struct floe_pq_key_value {
    const char *key;
    const char *value; /* NULL if absent */
} floe_pq_key_value;

typedef struct floe_pq_file_meta {
    int32_t version;
    size_t nschema;
    floe_pq_schema_element *schema;
    int64_t num_rows;
    size_t nrow_groups;
    floe_pq_row_group *row_groups;
    size_t nkv;
    floe_pq_key_value *kv;
    const char *created_by; /* NULL if absent */
    bool has_column_orders;
} floe_pq_file_meta;

typedef struct floe_pq_page_header {
    int type;
    int32_t uncompressed_page_size;
    int32_t compressed_page_size;
    bool has_crc;
    int32_t crc;
    /* DATA_PAGE */
    bool has_data;
    int32_t num_values;
    int encoding;
    int def_encoding, rep_encoding;
    /* DICTIONARY_PAGE */
    bool has_dict;
    int32_t dict_num_values;
    int dict_encoding;
    /* DATA_PAGE_V2 (num_values/encoding shared with v1) */
    bool has_v2;
    int32_t num_nulls, num_rows;
    int32_t def_levels_byte_length, rep_levels_byte_length;
    bool is_compressed;
} floe_pq_page_header;

/* Decode a FileMetaData from `buf` (the footer bytes, which begin at file
 * offset `file_offset` in `what`). Everything lands in `arena`.
 * FLOE_ECORRUPT naming file and offset on bad bytes. */
int floe__pq_decode_file_meta(floe_pq_file_meta *out, floe_arena *arena, const void *buf,
                              size_t len, int64_t file_offset, const char *what);
/* Decode a page header; *header_len receives its encoded size. */
int floe__pq_decode_page_header(floe_pq_page_header *out, const void *buf, size_t len,
                                int64_t file_offset, const char *what, size_t *header_len);

int floe__pq_encode_file_meta(const floe_pq_file_meta *fm, floe_buf *out);
int floe__pq_encode_page_header(const floe_pq_page_header *ph, floe_buf *out);

const char *floe__pq_type_name(int type);
const char *floe__pq_codec_name(int codec);
const char *floe__pq_encoding_name(int enc);

#endif
