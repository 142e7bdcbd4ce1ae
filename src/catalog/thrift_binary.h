/* SPDX-License-Identifier: Apache-2.0 */
/*
 * catalog/thrift_binary: the Thrift *binary* protocol (TBinaryProtocol, strict
 * message headers), the wire format of the Hive Metastore. parquet/thrift.c
 * is the *compact* protocol of Parquet footers: the two share no encoding
 * (compact packs field-id deltas and zigzag varints, binary writes fixed
 * big-endian widths), so only the idea is shared: bounded, hand-written,
 * every length checked against the bytes left and nesting capped.
 *
 * Encoding appends to a floe_buf with a sticky error (check `rc` once at the
 * end). Decoding builds a small tree of values in an arena, which the HMS
 * client reads by field id; a message that is cut short reports `truncated`
 * so the unframed transport can read more and try again.
 */
#ifndef FLOE_CATALOG_THRIFT_BINARY_H
#define FLOE_CATALOG_THRIFT_BINARY_H

#include "util/util.h"

/* TType codes of the binary protocol. */
enum {
    FLOE_TB_STOP = 0,
    FLOE_TB_BOOL = 2,
    FLOE_TB_BYTE = 3,
    FLOE_TB_DOUBLE = 4,
    FLOE_TB_I16 = 6,
    FLOE_TB_I32 = 8,
    FLOE_TB_I64 = 10,
    FLOE_TB_STRING = 11,
    FLOE_TB_STRUCT = 12,
    FLOE_TB_MAP = 13,
    FLOE_TB_SET = 14,
    FLOE_TB_LIST = 15,
};

/* Message types. */
enum { FLOE_TB_CALL = 1, FLOE_TB_REPLY = 2, FLOE_TB_EXCEPTION = 3, FLOE_TB_ONEWAY = 4 };

#define FLOE_TB_MAX_DEPTH 64

/* ---------------------------------------------------------------- encoder */

typedef struct floe_tbenc {
    floe_buf *out;
    int rc; /* first error (FLOE_ENOMEM), sticky */
} floe_tbenc;

void floe__tbenc_init(floe_tbenc *e, floe_buf *out);
void floe__tbenc_message(floe_tbenc *e, const char *name, int type, int32_t seqid);
void floe__tbenc_field(floe_tbenc *e, int type, int16_t id);
void floe__tbenc_stop(floe_tbenc *e);
void floe__tbenc_i32(floe_tbenc *e, int32_t v);
void floe__tbenc_i64(floe_tbenc *e, int64_t v);
void floe__tbenc_bool(floe_tbenc *e, bool v);
void floe__tbenc_string(floe_tbenc *e, const char *s); /* NULL writes "" */
void floe__tbenc_map_begin(floe_tbenc *e, int ktype, int vtype, uint32_t n);
void floe__tbenc_list_begin(floe_tbenc *e, int etype, uint32_t n);
/* Field helpers: header + value; the string one writes nothing for NULL
 * (an unset optional field). */
void floe__tbenc_field_string(floe_tbenc *e, int16_t id, const char *s);
void floe__tbenc_field_i32(floe_tbenc *e, int16_t id, int32_t v);
void floe__tbenc_field_i64(floe_tbenc *e, int16_t id, int64_t v);
void floe__tbenc_field_bool(floe_tbenc *e, int16_t id, bool v);
/* A map<string,string> field from props (always written, possibly empty). */
void floe__tbenc_field_props(floe_tbenc *e, int16_t id, const floe_props *p);

/* Write a decoded value again, as it came (fields of an object read from
 * the metastore that floe does not change travel back unchanged); the
 * fields variant writes a struct's fields except the ids in `skip`, without
 * the closing STOP. Defined below the decoder's types. */
struct floe_tbval;
void floe__tbenc_value(floe_tbenc *e, const struct floe_tbval *v);
void floe__tbenc_fields_except(floe_tbenc *e, const struct floe_tbval *st, const int16_t *skip,
                               int nskip);

/* ---------------------------------------------------------------- decoder */

typedef struct floe_tbval floe_tbval;
struct floe_tbval {
    uint8_t type;   /* FLOE_TB_* */
    int16_t id;     /* field id when the value is a struct field */
    int64_t i;      /* bool, byte, i16, i32, i64; the bits of a double */
    const char *s;  /* string: arena copy, NUL-terminated (may hold NULs) */
    uint32_t len;   /* string length */
    uint8_t ktype;  /* map key type */
    uint8_t etype;  /* list/set element type, map value type */
    uint32_t n;     /* struct: fields; list/set: elements; map: 2 * pairs */
    floe_tbval *items; /* map items alternate key, value */
};

typedef struct floe_tbmsg {
    const char *name;
    int type;
    int32_t seqid;
    floe_tbval body; /* the result (or TApplicationException) struct */
} floe_tbmsg;

/* Decode one message from buf[0..len). *used = bytes consumed. Errors:
 * FLOE_ECORRUPT naming `what` and the offset (*truncated = true when the
 * input ended inside the message, false for bad bytes), FLOE_ENOMEM. */
int floe__tbdec_message(const uint8_t *buf, size_t len, floe_arena *a, const char *what,
                        floe_tbmsg *out, size_t *used, bool *truncated);

/* The field `id` of struct `st` when it has type `type`, else NULL. */
const floe_tbval *floe__tb_field(const floe_tbval *st, int16_t id, int type);
/* Field string / i64 helpers (NULL / `def` when absent). */
const char *floe__tb_string(const floe_tbval *st, int16_t id);
int64_t floe__tb_int(const floe_tbval *st, int16_t id, int type, int64_t def);
/* A map<string,string> field appended to props (no-op when absent). */
int floe__tb_props(const floe_tbval *st, int16_t id, floe_props *out);

#endif
