/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test helper shared by the manifest tests: builds floe-written manifests
 * and manifest lists with a known content (several partition types, metrics
 * for 10 columns, all three statuses). Header-only, included by test files.
 */
#ifndef FLOE_TEST_GEN_FIXTURE_H
#define FLOE_TEST_GEN_FIXTURE_H

#include "manifest/manifest.h"
#include "spec/value.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const floe_type gt_int = {.id = FLOE_T_INT};
static const floe_type gt_date = {.id = FLOE_T_DATE};
static const floe_type gt_string = {.id = FLOE_T_STRING};
static const floe_type gt_dec = {.id = FLOE_T_DECIMAL, .precision = 9, .scale = 2};
static const floe_type gt_uuid = {.id = FLOE_T_UUID};
static const floe_type gt_double = {.id = FLOE_T_DOUBLE};
static const floe_type gt_ts = {.id = FLOE_T_TIMESTAMPTZ};

static const floe_manifest_partition_field gt_parts[] = {
    {1000, "id_bucket", &gt_int}, {1001, "ts_day", &gt_date}, {1002, "name", &gt_string},
    {1003, "price", &gt_dec},     {1004, "u", &gt_uuid},      {1005, "d", &gt_double},
    {1006, "ts", &gt_ts},
};
#define GT_NPARTS (sizeof gt_parts / sizeof gt_parts[0])

/* id is a long: its bounds below are 8-byte little-endian values (spec
 * "Binary single-value serialization"), which iceberg-rust checks. */
#define GT_SCHEMA                                                                                  \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"     \
    "false,\"type\":\"long\"}]}"

typedef struct gt_opts {
    int version;
    floe_avro_codec codec;
    bool partitioned;
    int content; /* FLOE_MANIFEST_* */
    int n;
    int64_t snapshot_id;
    int64_t sequence_number;
} gt_opts;

/* Fill entry i (storage in the caller's scratch). */
typedef struct gt_scratch {
    char path[128];
    char name[32];
    uint8_t uuid[16];
    floe_value pv[GT_NPARTS];
    floe_col_long sizes[10], counts[10], nulls[10];
    floe_col_bytes lower[10], upper[10];
    uint8_t lb[10][8], ub[10][8];
    int64_t split[2];
    int32_t eq[1];
} gt_scratch;

static void gt_entry(const gt_opts *o, int i, gt_scratch *s, floe_manifest_entry *e)
{
    memset(e, 0, sizeof *e);
    int kind = o->version == 1 ? 0 : i % 3;
    e->status = kind == 0 ? FLOE_ENTRY_ADDED : kind == 1 ? FLOE_ENTRY_EXISTING : FLOE_ENTRY_DELETED;
    e->sequence_number = e->file_sequence_number = FLOE_SEQ_UNASSIGNED;
    if (e->status != FLOE_ENTRY_ADDED) {
        e->has_snapshot_id = true;
        e->snapshot_id = 1000 + i;
        e->sequence_number = 1 + i % 4;
        e->file_sequence_number = 1 + i % 4;
    }
    floe_data_file *df = &e->data_file;
    df->content = o->content == FLOE_MANIFEST_DELETES
                      ? (i % 2 ? FLOE_FILE_EQUALITY_DELETES : FLOE_FILE_POSITION_DELETES)
                      : FLOE_FILE_DATA;
    snprintf(s->path, sizeof s->path, "s3://bucket/db/t/data/%05d-0-%08x.parquet", i,
             (unsigned)(i * 2654435761u));
    df->file_path = s->path;
    df->file_format = "PARQUET";
    df->record_count = 1000 + i;
    df->file_size_in_bytes = 40000 + 7 * i;
    if (o->partitioned) {
        snprintf(s->name, sizeof s->name, "n%03d", i % 50);
        for (int k = 0; k < 16; k++)
            s->uuid[k] = (uint8_t)(i * 31 + k);
        s->pv[0] = floe_value_int(i % 4);
        s->pv[1] = i % 7 == 0 ? floe_value_null(FLOE_T_DATE) : floe_value_date(20000 + i % 3);
        s->pv[2] = floe_value_bytes(FLOE_T_STRING, s->name, strlen(s->name));
        s->pv[3] = floe_value_decimal((floe_i128)(i * 125 - 300), 2);
        s->pv[4] = floe_value_bytes(FLOE_T_UUID, s->uuid, 16);
        s->pv[5] = i % 5 == 0 ? floe_value_double(NAN) : floe_value_double(i * 0.5 - 3);
        s->pv[6] = floe_value_i64(FLOE_T_TIMESTAMPTZ, INT64_C(1741000000000000) + i);
        df->partition.n = GT_NPARTS;
        df->partition.values = s->pv;
    }
    for (int c = 0; c < 10; c++) {
        s->sizes[c] = (floe_col_long){c + 1, 100 + c + i};
        s->counts[c] = (floe_col_long){c + 1, df->record_count};
        s->nulls[c] = (floe_col_long){c + 1, c % 3};
        int64_t lo = (int64_t)i * 10 + c, hi = lo + 1000;
        for (int b = 0; b < 8; b++) {
            s->lb[c][b] = (uint8_t)(lo >> (8 * b));
            s->ub[c][b] = (uint8_t)(hi >> (8 * b));
        }
        s->lower[c] = (floe_col_bytes){c + 1, s->lb[c], 8};
        s->upper[c] = (floe_col_bytes){c + 1, s->ub[c], 8};
    }
    df->column_sizes = (floe_col_longs){10, s->sizes, true};
    df->value_counts = (floe_col_longs){10, s->counts, true};
    df->null_value_counts = (floe_col_longs){10, s->nulls, true};
    df->nan_value_counts = (floe_col_longs){0, NULL, i % 2 == 0};
    df->lower_bounds = (floe_col_bytes_map){10, s->lower, true};
    df->upper_bounds = (floe_col_bytes_map){10, s->upper, true};
    s->split[0] = 4;
    s->split[1] = 4 + 1000 * i;
    df->has_split_offsets = true;
    df->nsplit_offsets = i % 2 ? 2 : 1;
    df->split_offsets = s->split;
    df->has_sort_order_id = i % 4 != 3;
    df->sort_order_id = 0;
    if (df->content == FLOE_FILE_EQUALITY_DELETES) {
        s->eq[0] = 1;
        df->has_equality_ids = true;
        df->nequality_ids = 1;
        df->equality_ids = s->eq;
    }
    if (df->content == FLOE_FILE_POSITION_DELETES && i % 4 == 0)
        df->referenced_data_file = "s3://bucket/db/t/data/ref.parquet";
}

static int gt_write_manifest(const gt_opts *o, floe_buf *out, floe_manifest_file *mf,
                             floe_manifest_writer **keep)
{
    floe_manifest_writer_options wo;
    memset(&wo, 0, sizeof wo);
    wo.format_version = o->version;
    wo.content = o->content;
    wo.partition_spec_id = o->partitioned ? 1 : 0;
    wo.npartition_fields = o->partitioned ? GT_NPARTS : 0;
    wo.partition_fields = gt_parts;
    wo.schema_json = GT_SCHEMA;
    wo.partition_spec_json = o->partitioned
                                 ? "[{\"name\":\"id_bucket\",\"transform\":\"bucket[4]\","
                                   "\"source-id\":1,\"field-id\":1000}]"
                                 : "[]";
    wo.snapshot_id = o->snapshot_id;
    wo.sequence_number = o->sequence_number;
    wo.manifest_path = "s3://bucket/db/t/metadata/m0.avro";
    wo.codec = o->codec;
    wo.compression_level = -1;
    floe_manifest_writer *w;
    int rc = floe_manifest_writer_new(&w, &wo, out);
    if (rc < 0)
        return rc;
    gt_scratch s;
    for (int i = 0; i < o->n && rc == 0; i++) {
        floe_manifest_entry e;
        gt_entry(o, i, &s, &e);
        rc = floe_manifest_writer_add(w, &e);
    }
    if (rc == 0)
        rc = floe_manifest_writer_finish(w, mf);
    if (rc == 0 && keep) {
        *keep = w;
        return 0;
    }
    floe_manifest_writer_free(w);
    return rc;
}

#endif
