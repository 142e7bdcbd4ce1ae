/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared pieces of the table benchmarks (header-only, bench/ only):
 *   - bt_chain_metadata: v2 table metadata JSON with n snapshots in one
 *     parent chain (Spark-like summaries, a snapshot-log entry each), main
 *     at the last, every snapshot pointing at one manifest list;
 *   - bt_counting_io: a FileIO wrapper counting opens (by kind of file) and
 *     created outputs, to prove what an operation touches;
 *   - bt_write_chain_table: such a table written under a location (its
 *     metadata file and one real, empty manifest list);
 *   - bt_decode_manifest: decode every entry of a manifest in memory;
 *   - bt_median_ms: median of nanosecond samples, in ms.
 * Used by bench/avro_manifest.c, bench/table_commit.c, bench/table_rollback_size.c and
 * bench/native_ops.c.
 */
#ifndef FLOE_BENCH_TABLES_H
#define FLOE_BENCH_TABLES_H

#include "floe/io.h"
#include "floe/sys/fileio.h"
#include "manifest/manifest.h"
#include "util/util.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BT_BASE_ID 1000000007LL
#define BT_TS0 1700000000000LL

#define BT_SCHEMA_JSON                                                                             \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"     \
    "false,\"type\":\"long\"},{\"id\":2,\"name\":\"d\",\"required\":false,\"type\":\"date\"}]}"

/* Metadata JSON of a v2 table at `loc` (unpartitioned; schema `schema_json`
 * with `last_column_id`, or NULL: BT_SCHEMA_JSON) with n >= 2 snapshots
 * BT_BASE_ID .. BT_BASE_ID + n - 1 in one chain, each "adding" one file of
 * `bytes_per_snap` bytes and 10 rows to the summary totals; every
 * snapshot's manifest list is `list`. */

static inline int bt_chain_metadata(floe_buf *b, const char *loc, int n, const char *list,
                                    int64_t bytes_per_snap, const char *schema_json,
                                    int last_column_id)
{
    floe__buf_printf(
        b,
        "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
        "\"location\":\"%s\",\"last-sequence-number\":%d,\"last-updated-ms\":%lld,"
        "\"last-column-id\":%d,\"current-schema-id\":0,\"schemas\":[%s],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,"
        "\"fields\":[]}],\"last-partition-id\":999,\"default-sort-order-id\":0,"
        "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
        "\"current-snapshot-id\":%lld,\"refs\":{\"main\":{\"snapshot-id\":%lld,"
        "\"type\":\"branch\"}},\"snapshots\":[",
        loc, n, (long long)(BT_TS0 + n), schema_json ? last_column_id : 2,
        schema_json ? schema_json : BT_SCHEMA_JSON, (long long)(BT_BASE_ID + n - 1),
        (long long)(BT_BASE_ID + n - 1));
    for (int i = 0; i < n; i++) {
        if (i)
            floe__buf_putc(b, ',');
        floe__buf_printf(b, "{\"sequence-number\":%d,\"snapshot-id\":%lld,", i + 1,
                         (long long)(BT_BASE_ID + i));
        if (i)
            floe__buf_printf(b, "\"parent-snapshot-id\":%lld,", (long long)(BT_BASE_ID + i - 1));
        floe__buf_printf(
            b,
            "\"timestamp-ms\":%lld,\"summary\":{\"operation\":\"append\",\"spark.app.id\":"
            "\"local-1700000000000\",\"added-data-files\":\"1\",\"added-records\":\"10\","
            "\"added-files-size\":\"%lld\",\"changed-partition-count\":\"1\",\"total-records\":"
            "\"%d\",\"total-files-size\":\"%lld\",\"total-data-files\":\"%d\",\"total-delete-"
            "files\":"
            "\"0\",\"total-position-deletes\":\"0\",\"total-equality-deletes\":\"0\"},"
            "\"manifest-list\":\"%s\",\"schema-id\":0}",
            (long long)(BT_TS0 + i), (long long)bytes_per_snap, (i + 1) * 10,
            (long long)((i + 1) * bytes_per_snap), i + 1, list);
    }
    floe__buf_puts(b, "],\"statistics\":[],\"snapshot-log\":[");
    for (int i = 0; i < n; i++)
        floe__buf_printf(b, "%s{\"timestamp-ms\":%lld,\"snapshot-id\":%lld}", i ? "," : "",
                         (long long)(BT_TS0 + i), (long long)(BT_BASE_ID + i));
    return floe__buf_puts(b, "],\"metadata-log\":[]}");
}

/* Write a table of n snapshots (bt_chain_metadata, 1 KB per snapshot) at
 * local path `loc`: `loc`/metadata/00000-<uuid>.metadata.json (the name Go and Rust parse), whose
 * path goes to `file`, and the one empty manifest list every snapshot shares (a real one, so that
 * appends and expiry can read their parent's). */
static inline int bt_write_chain_table(const char *loc, int n, char *file, size_t filesz)
{
    char lpath[1024];
    snprintf(file, filesz, "%s/metadata/00000-4f9d7c78-62f9-48c6-b869-f25172b45b32.metadata.json",
             loc);
    snprintf(lpath, sizeof lpath, "%s/metadata/snap-empty.avro", loc);
    floe_buf b = FLOE_BUF_INIT, list = FLOE_BUF_INIT;
    bt_chain_metadata(&b, loc, n, lpath, 1024, NULL, 0);
    floe_fileio *io = NULL;
    int rc = floe_fileio_local_new(&io);
    if (rc == 0)
        rc = floe_fileio_write_new(io, file, b.ptr, b.len);
    floe_manifest_list_writer_options lo = {.format_version = 2,
                                            .snapshot_id = BT_BASE_ID,
                                            .sequence_number = 1,
                                            .compression_level = -1};
    floe_manifest_list_writer *lw = NULL;
    if (rc == 0)
        rc = floe_manifest_list_writer_new(&lw, &lo, &list);
    if (rc == 0)
        rc = floe_manifest_list_writer_finish(lw);
    floe_manifest_list_writer_free(lw);
    if (rc == 0)
        rc = floe_fileio_write_new(io, lpath, list.ptr, list.len);
    floe__buf_free(&list);
    floe_fileio_free(io);
    floe__buf_free(&b);
    return rc;
}

/* Decode every entry of the manifest in `data` (touching each entry's
 * record count and bounds); returns the number of entries or -1. */
static inline int64_t bt_decode_manifest(const void *data, size_t len, const char *name)
{
    floe_manifest_reader *r;
    if (floe_manifest_reader_open(&r, (const uint8_t *)data, len, name, NULL) < 0)
        return -1;
    const floe_manifest_entry *e;
    int64_t sum = 0, n = 0;
    while (floe_manifest_reader_next(r, &e) == 0) {
        sum += e->data_file.record_count + (int64_t)e->data_file.lower_bounds.n;
        n++;
    }
    floe_manifest_reader_free(r);
    (void)sum;
    return n;
}

static inline int bt_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static inline double bt_median_ms(int64_t *ns, int n)
{
    qsort(ns, (size_t)n, sizeof *ns, bt_cmp_i64);
    return (double)ns[n / 2] / 1e6;
}

/* ---------------------------------------------------------------- counting FileIO */

typedef struct bt_counts {
    _Atomic long opens;          /* open_input, any object */
    _Atomic long opens_data;     /* open_input of a URI containing "/data/" */
    _Atomic long opens_manifest; /* open_input of an .avro object */
    _Atomic long outputs;        /* create_output */
    _Atomic long outputs_json;   /* create_output of a .metadata.json */
    _Atomic long stats;
} bt_counts;

typedef struct bt_counting {
    floe_fileio *inner;
    bt_counts n;
} bt_counting;

static inline bool bt_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !memcmp(s + a - b, suffix, b);
}

static inline int bt_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    bt_counting *c = io->impl;
    atomic_fetch_add(&c->n.opens, 1);
    if (strstr(uri, "/data/"))
        atomic_fetch_add(&c->n.opens_data, 1);
    if (bt_ends_with(uri, ".avro"))
        atomic_fetch_add(&c->n.opens_manifest, 1);
    return c->inner->ops->open_input(out, c->inner, uri);
}

static inline int bt_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    bt_counting *c = io->impl;
    atomic_fetch_add(&c->n.outputs, 1);
    if (bt_ends_with(uri, ".metadata.json"))
        atomic_fetch_add(&c->n.outputs_json, 1);
    return c->inner->ops->create_output(out, c->inner, uri);
}

static inline int bt_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    bt_counting *c = io->impl;
    return c->inner->ops->remove(c->inner, uris, n);
}

static inline int bt_list(floe_fileio *io, const char *prefix,
                          int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    bt_counting *c = io->impl;
    return c->inner->ops->list(c->inner, prefix, cb, payload);
}

static inline int bt_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    bt_counting *c = io->impl;
    atomic_fetch_add(&c->n.stats, 1);
    return c->inner->ops->stat(out, c->inner, uri);
}

static inline void bt_free_io(floe_fileio *io)
{
    (void)io; /* the bt_counting owns nothing it did not get */
}

static const floe_fileio_ops bt_counting_ops = {
    .version = FLOE_FILEIO_OPS_VERSION,
    .open_input = bt_open_input,
    .create_output = bt_create_output,
    .remove = bt_remove,
    .list = bt_list,
    .stat = bt_stat,
    .free = bt_free_io,
};

/* Wrap `inner` (borrowed): `io` forwards every call and counts them in c->n. */
static inline void bt_counting_init(bt_counting *c, floe_fileio *io, floe_fileio *inner)
{
    memset(c, 0, sizeof *c);
    c->inner = inner;
    io->ops = &bt_counting_ops;
    io->impl = c;
}

static inline void bt_counts_reset(bt_counting *c)
{
    atomic_store(&c->n.opens, 0);
    atomic_store(&c->n.opens_data, 0);
    atomic_store(&c->n.opens_manifest, 0);
    atomic_store(&c->n.outputs, 0);
    atomic_store(&c->n.outputs_json, 0);
    atomic_store(&c->n.stats, 0);
}

#endif
