/* SPDX-License-Identifier: Apache-2.0 */
/*
 * manifest/gen: one table per written struct (manifest_file, field summary,
 * manifest_entry, data_file) from which both the Avro schema (`avro.schema`)
 * and the Iceberg schema (`iceberg.schema`) JSON are generated, so the two
 * can never disagree. Private to the manifest module.
 */
#ifndef FLOE_MANIFEST_GEN_H
#define FLOE_MANIFEST_GEN_H

#include "manifest/manifest.h"

typedef enum gen_kind {
    G_INT,
    G_LONG,
    G_BOOL,
    G_STRING,
    G_BYTES,
    G_LONGMAP,  /* a = key id, b = value id */
    G_BYTESMAP, /* a = key id, b = value id */
    G_LONGLIST, /* a = element id */
    G_INTLIST,  /* a = element id */
    G_RECORD,   /* sub / nsub, record name rname */
    G_PARTITION,
    G_SUMMARIES, /* a = element id, sub = summary fields */
} gen_kind;

typedef struct gen_field {
    int32_t id;
    const char *name;
    const char *doc;
    bool optional;
    gen_kind kind;
    int32_t a, b;
    const char *rname;
    const struct gen_field *sub;
    size_t nsub;
} gen_field;

typedef struct gen_ctx {
    /* partition struct, for G_PARTITION */
    size_t npart;
    const floe_manifest_partition_field *part;
} gen_ctx;

/* Emit the Avro record schema / the Iceberg struct schema for `fields`. */
int floe__gen_avro_record(floe_buf *b, const gen_ctx *ctx, const char *rname,
                          const gen_field *fields, size_t n);
int floe__gen_iceberg_struct(floe_buf *b, const gen_ctx *ctx, const gen_field *fields, size_t n,
                             bool root);

/* Bytes of a fixed holding an unscaled decimal of `precision` digits. */
int floe__gen_decimal_bytes(int32_t precision);

#endif
