/* SPDX-License-Identifier: Apache-2.0 */
/* Shared helpers of the meta tests: the seed's script-1 history built with
 * the metadata builder, and draining a row source into text rows. */
#ifndef FLOE_TEST_META_FIXTURE_H
#define FLOE_TEST_META_FIXTURE_H

#include "harness.h"
#include "meta/meta.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>

#define LOC "s3a://warehouse/shop.db/orders"
#define S1 3657524344527679724LL
#define S2 5270420720687731067LL
#define S3 23499723825440384LL
#define T0 1790601300000LL /* 2026-09-28 13:15:00 UTC, CREATE TABLE */
#define T1 (T0 + 19839)
#define T2 (T0 + 22058)
#define T3 (T0 + 26352)
#define T4 (T0 + 30086) /* rollback_to_snapshot(S2) */
#define T5 (T0 + 31000) /* set_current_snapshot(S3) */
#define T6 (T0 + 32000) /* set_current_snapshot(S2) */

static const char base_json[] =
    "{\"format-version\":2,\"table-uuid\":\"5b4b5b1c-3a4b-4e55-9d0a-6b7d1f2e3a4b\","
    "\"location\":\"" LOC "\",\"last-sequence-number\":0,\"last-updated-ms\":1790601300000,"
    "\"last-column-id\":5,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
    "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"order_id\",\"required\":false,"
    "\"type\":\"long\"},{\"id\":2,\"name\":\"customer_id\",\"required\":false,\"type\":"
    "\"long\"},{\"id\":3,\"name\":\"amount\",\"required\":false,\"type\":\"decimal(10, 2)\"},"
    "{\"id\":4,\"name\":\"status\",\"required\":false,\"type\":\"string\"},{\"id\":5,\"name\":"
    "\"order_date\",\"required\":false,\"type\":\"date\"}]}],\"default-spec-id\":0,"
    "\"partition-specs\":[{\"spec-id\":0,\"fields\":[{\"name\":\"order_date\",\"transform\":"
    "\"identity\",\"source-id\":5,\"field-id\":1000}]}],\"last-partition-id\":1000,"
    "\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],"
    "\"properties\":{\"owner\":\"spark\"},\"snapshots\":[],\"snapshot-log\":[],"
    "\"metadata-log\":[]}";

static inline const char *meta_file(int n)
{
    static char buf[8][160];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 160, LOC "/metadata/%05d-0000000%d-aaaa-bbbb-cccc-dddddddddddd.metadata.json", n,
             n);
    return b;
}

/* One append: snapshot `id` with parent, main moved to it. */
static inline int append(floe_table_metadata **m, int n, int64_t id, int64_t parent, int64_t seq,
                         int64_t ts, const char *added, const char *total)
{
    floe_kv summary[] = {{"operation", "append"},
                         {"spark.app.id", "local-1"},
                         {"added-data-files", "1"},
                         {"added-records", (char *)added},
                         {"total-records", (char *)total}};
    char ml[200];
    snprintf(ml, sizeof ml, LOC "/metadata/snap-%lld-1-x.avro", (long long)id);
    floe_snapshot s = {0};
    s.snapshot_id = id;
    s.has_parent = parent != 0;
    s.parent_snapshot_id = parent;
    s.sequence_number = seq;
    s.timestamp_ms = ts;
    s.has_schema_id = true;
    s.schema_id = 0;
    floe_arena *a = floe__arena_new(0);
    if (!a)
        return FLOE_ENOMEM;
    int prc = floe__snapshot_pack_summary(&s, a, summary, FLOE_ARRAY_LEN(summary));
    if (prc == 0)
        prc = floe__snapshot_pack_manifest_list(&s, a, ml);
    floe_metadata_builder *b = NULL;
    if (prc == 0)
        prc = floe__metadata_builder_new(&b, *m, meta_file(n - 1));
    if (prc < 0) {
        floe__arena_free(a);
        return prc;
    }
    floe_snapshot_ref main_ref = {.name = "main", .snapshot_id = id, .type = FLOE_REF_BRANCH};
    floe_table_metadata *next = NULL;
    int rc = floe__mb_add_snapshot(b, &s);
    if (rc == 0)
        rc = floe__mb_set_snapshot_ref(b, &main_ref);
    if (rc == 0)
        rc = floe__metadata_builder_build(b, ts, &next);
    floe__metadata_builder_free(b);
    floe__arena_free(a);
    FLOE_TRY(rc);
    floe__metadata_free(*m);
    *m = next;
    return 0;
}

/* set_current_snapshot / rollback: only `main` moves. */
static inline int move_main(floe_table_metadata **m, int n, int64_t id, int64_t ts)
{
    floe_metadata_builder *b;
    FLOE_TRY(floe__metadata_builder_new(&b, *m, meta_file(n - 1)));
    floe_snapshot_ref main_ref = {.name = "main", .snapshot_id = id, .type = FLOE_REF_BRANCH};
    floe_table_metadata *next = NULL;
    int rc = floe__mb_set_snapshot_ref(b, &main_ref);
    if (rc == 0)
        rc = floe__metadata_builder_build(b, ts, &next);
    floe__metadata_builder_free(b);
    FLOE_TRY(rc);
    floe__metadata_free(*m);
    *m = next;
    return 0;
}

/* The seed's script 1 up to metadata file `upto` (0..6). */
static inline floe_table_metadata *script1(int upto)
{
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, base_json, strlen(base_json), "base") < 0)
        return NULL;
    int rc = 0;
    if (upto >= 1)
        rc = append(&m, 1, S1, 0, 1, T1, "2", "2");
    if (rc == 0 && upto >= 2)
        rc = append(&m, 2, S2, S1, 2, T2, "1", "3");
    if (rc == 0 && upto >= 3)
        rc = append(&m, 3, S3, S2, 3, T3, "2", "5");
    if (rc == 0 && upto >= 4)
        rc = move_main(&m, 4, S2, T4);
    if (rc == 0 && upto >= 5)
        rc = move_main(&m, 5, S3, T5);
    if (rc == 0 && upto >= 6)
        rc = move_main(&m, 6, S2, T6);
    if (rc < 0) {
        floe__metadata_free(m);
        return NULL;
    }
    return m;
}

/* Text of one cell: JSON as is, null as "null", timestamps in UTC text. */
static inline int cell_text(const floe_rs_cell *c, floe_buf *out)
{
    if (c->json)
        return floe__buf_put(out, c->json, c->json_len);
    if (c->value.is_null)
        return floe__buf_puts(out, "null");
    if (c->value.type == FLOE_T_TIMESTAMPTZ || c->value.type == FLOE_T_TIMESTAMP)
        return floe__rs_format_timestamp_us(c->value.v.i64, NULL, out);
    return floe_value_format(&c->value, out);
}

/* All rows of a source as "a|b|c\n" lines (malloc'd; NULL on error). */
static inline char *drain(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                          size_t *nrows)
{
    floe_rowcursor *c;
    *nrows = 0;
    if (floe__rs_open(rs, cons, ncons, &c) < 0)
        return NULL;
    floe_buf b = FLOE_BUF_INIT;
    int rc;
    while ((rc = floe__rs_next(c)) == 0) {
        for (size_t i = 0; rc == 0 && i < rs->ncolumns; i++) {
            floe_rs_cell cell;
            if (i)
                rc = floe__buf_putc(&b, '|');
            if (rc == 0)
                rc = floe__rs_column(c, i, &cell);
            if (rc == 0)
                rc = cell_text(&cell, &b);
        }
        if (rc == 0)
            rc = floe__buf_putc(&b, '\n');
        if (rc < 0)
            break;
        (*nrows)++;
    }
    floe__rs_close(c);
    if (rc != FLOE_ITEROVER) {
        floe__buf_free(&b);
        return NULL;
    }
    if (!b.ptr)
        return floe__strdup("");
    return floe__buf_detach(&b);
}

/* Column names joined with ','. */
static inline char *column_names(const floe_rowsource *rs)
{
    floe_buf b = FLOE_BUF_INIT;
    for (size_t i = 0; i < rs->ncolumns; i++) {
        if (i)
            floe__buf_putc(&b, ',');
        floe__buf_puts(&b, rs->columns[i].name);
    }
    return floe__buf_detach(&b);
}

#endif
