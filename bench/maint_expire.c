/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of expire_snapshots on a synthetic table: 10,000 snapshots and
 * 100,000 data files on the memory FileIO. Each snapshot appends 10 files in
 * a new manifest; every 100 snapshots the 100 small manifests are merged
 * into one segment manifest (as manifest merging does), which drops 10% of
 * their files (DELETED entries), so expiring old snapshots frees manifest
 * lists, small manifests and those dropped files. The expiry keeps the last
 * 1,000 snapshots. Reports wall time, manifests read (each must be read at
 * most once: compared with the number of distinct manifests) and peak RSS
 * (whole process, and the increase during the expiry alone).
 *
 * Usage: bench_maint_expire [snapshots]   (default 10000)
 */
#include "bench_mem.h"
#include "io/io.h"
#include "maint/maint.h"
#include "manifest/manifest.h"
#include "spec/metadata.h"
#include "spec/spec.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"     \
    "true,\"type\":\"long\"}]}"
#define T0 1800000000000LL
#define FILES_PER_SNAPSHOT 10
#define MERGE_EVERY 100

static int die(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "bench_maint_expire: %s: %s\n", what, e ? e->message : "?");
    return 1;
}

static int write_manifest(floe_fileio *io, const char *path, int64_t snap,
                          const floe_manifest_entry *es, size_t n, floe_manifest_file *mf)
{
    floe_manifest_writer_options wo;
    memset(&wo, 0, sizeof wo);
    wo.format_version = 2;
    wo.content = FLOE_MANIFEST_DATA;
    wo.schema_json = SCHEMA;
    wo.partition_spec_json = "[]";
    wo.snapshot_id = snap;
    wo.sequence_number = FLOE_SEQ_UNASSIGNED;
    wo.manifest_path = path;
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_writer *w = NULL;
    int rc = floe_manifest_writer_new(&w, &wo, &out);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = floe_manifest_writer_add(w, &es[i]);
    if (rc == 0)
        rc = floe_manifest_writer_finish(w, mf);
    mf->has_partitions = false;
    mf->npartitions = 0;
    mf->partitions = NULL;
    floe_manifest_writer_free(w);
    if (rc == 0)
        rc = floe__io_write_new(io, path, out.ptr, out.len);
    floe__buf_free(&out);
    return rc;
}

/* The memory FileIO's remove scans the whole store per object (O(n) each);
 * deletion cost is the storage's, not the expiry's, so removals are only
 * counted here. Everything else goes to the memory store. */
static long g_removed;

static int w_open(floe_fileio *io, const char *uri, floe_input **out)
{
    return floe_fileio_open_input(out, io->impl, uri);
}
static int w_create(floe_fileio *io, const char *uri, floe_output **out)
{
    return floe_fileio_create_output(out, io->impl, uri);
}
static int w_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    (void)io, (void)uris;
    g_removed += (long)n;
    return 0;
}
static int w_list(floe_fileio *io, const char *prefix,
                  int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    return floe_fileio_list(io->impl, prefix, cb, payload);
}
static int w_stat(floe_fileio *io, const char *uri, floe_file_info *out)
{
    return floe_fileio_stat(out, io->impl, uri);
}
static void w_free(floe_fileio *io)
{
    floe_fileio_free(io->impl);
    free(io);
}
static const floe_fileio_ops wrap_ops = {
    FLOE_FILEIO_OPS_VERSION, w_open, w_create, w_remove, w_list, w_stat, w_free};

typedef struct commit_ctx {
    int dummy;
} commit_ctx;

static int commit_mem(const floe_table_metadata *base, const char *base_location,
                      const floe_expire_plan *plan, floe_table_metadata **committed,
                      char **location, void *payload)
{
    (void)payload;
    floe_metadata_builder *b = NULL;
    FLOE_TRY(floe__metadata_builder_new(&b, base, base_location));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < plan->remove_refs.len; i++)
        rc = floe__mb_remove_snapshot_ref(b, *(const char **)floe__vec_at(&plan->remove_refs, i));
    if (rc == 0)
        rc = floe__mb_remove_snapshots(b, (const int64_t *)plan->remove_ids.items,
                                       plan->remove_ids.len);
    if (rc == 0)
        rc = floe__metadata_builder_build(b, T0, committed);
    floe__metadata_builder_free(b);
    if (rc == 0)
        *location = floe__strdup("mem://wh/t/metadata/00001-x.metadata.json");
    return rc;
}

int main(int argc, char **argv)
{
    int nsnap = argc > 1 ? atoi(argv[1]) : 10000;
    if (nsnap < MERGE_EVERY)
        nsnap = MERGE_EVERY;
    floe_fileio *mem, *io = calloc(1, sizeof *io);
    if (floe_fileio_memory_new(&mem) < 0 || !io)
        return die("memory io");
    io->ops = &wrap_ops;
    io->impl = mem;
    floe_arena *a = floe__arena_new(0);
    floe_json *j = NULL;
    floe_schema *schema = NULL;
    floe_table_metadata *m0 = NULL;
    if (floe__json_parse(&j, SCHEMA, strlen(SCHEMA), "schema") < 0 ||
        floe__schema_from_json(&schema, j, 0, a) < 0 ||
        floe__metadata_new(&m0, schema, NULL, NULL, "mem://wh/t", NULL, 2, T0) < 0)
        return die("metadata");
    floe__json_free(j);
    /* the metadata is written as JSON text and parsed once: building it
     * with 10,000 builder updates would copy the snapshot array each time */
    floe_buf json = FLOE_BUF_INIT, snaps = FLOE_BUF_INIT, log = FLOE_BUF_INIT;
    int64_t t_setup = floe__mono_ns();
    /* state: segment manifests and the small ones since the last merge */
    floe_manifest_file *segments = calloc((size_t)nsnap / MERGE_EVERY + 2, sizeof *segments);
    floe_manifest_file *smalls = calloc(MERGE_EVERY, sizeof *smalls);
    floe_manifest_entry *pending = calloc(MERGE_EVERY * FILES_PER_SNAPSHOT, sizeof *pending);
    char **pending_paths = calloc(MERGE_EVERY * FILES_PER_SNAPSHOT, sizeof *pending_paths);
    int64_t *pending_seq = calloc(MERGE_EVERY * FILES_PER_SNAPSHOT, sizeof *pending_seq);
    int64_t *pending_snap = calloc(MERGE_EVERY * FILES_PER_SNAPSHOT, sizeof *pending_snap);
    size_t nseg = 0, nsmall = 0, npend = 0, distinct = 0;
    int64_t parent = -1;
    char path[256];
    for (int k = 0; k < nsnap; k++) {
        int64_t snap = k + 1, seq = k + 1;
        floe_manifest_entry es[FILES_PER_SNAPSHOT];
        memset(es, 0, sizeof es);
        for (int i = 0; i < FILES_PER_SNAPSHOT; i++) {
            snprintf(path, sizeof path, "mem://wh/t/data/%06d-%02d-00001.parquet", k, i);
            if (floe__io_write_new(io, path, "PAR1....PAR1", 12) < 0)
                return die("data file");
            char *p = floe__arena_strdup(a, path);
            es[i].status = FLOE_ENTRY_ADDED;
            es[i].has_snapshot_id = true;
            es[i].snapshot_id = snap;
            es[i].sequence_number = es[i].file_sequence_number = FLOE_SEQ_UNASSIGNED;
            es[i].data_file.file_path = p;
            es[i].data_file.file_format = "PARQUET";
            es[i].data_file.record_count = 1;
            es[i].data_file.file_size_in_bytes = 12;
            es[i].data_file.block_size_in_bytes = -1;
            pending[npend] = es[i];
            pending_paths[npend] = p;
            pending_seq[npend] = seq;
            pending_snap[npend] = snap;
            npend++;
        }
        snprintf(path, sizeof path, "mem://wh/t/metadata/small-%06d-m0.avro", k);
        char *mp = floe__arena_strdup(a, path);
        if (write_manifest(io, mp, snap, es, FILES_PER_SNAPSHOT, &smalls[nsmall]) < 0)
            return die("manifest");
        smalls[nsmall].manifest_path = mp;
        smalls[nsmall].sequence_number = smalls[nsmall].min_sequence_number = seq;
        nsmall++;
        distinct++;
        if (nsmall == MERGE_EVERY) {
            /* merge: one segment, 10% of the files dropped */
            for (size_t i = 0; i < npend; i++) {
                pending[i].status = i % 10 == 0 ? FLOE_ENTRY_DELETED : FLOE_ENTRY_EXISTING;
                pending[i].snapshot_id = i % 10 == 0 ? snap : pending_snap[i];
                pending[i].sequence_number = pending[i].file_sequence_number = pending_seq[i];
            }
            snprintf(path, sizeof path, "mem://wh/t/metadata/segment-%06d-m0.avro", k);
            char *sp = floe__arena_strdup(a, path);
            if (write_manifest(io, sp, snap, pending, npend, &segments[nseg]) < 0)
                return die("segment");
            segments[nseg].manifest_path = sp;
            segments[nseg].sequence_number = segments[nseg].min_sequence_number = seq;
            nseg++;
            distinct++;
            nsmall = 0;
            npend = 0;
        }
        /* the manifest list: segments + smalls */
        floe_manifest_list_writer_options lo;
        memset(&lo, 0, sizeof lo);
        lo.format_version = 2;
        lo.snapshot_id = snap;
        lo.has_parent_snapshot_id = parent >= 0;
        lo.parent_snapshot_id = parent;
        lo.sequence_number = seq;
        floe_buf out = FLOE_BUF_INIT;
        floe_manifest_list_writer *lw = NULL;
        int rc = floe_manifest_list_writer_new(&lw, &lo, &out);
        for (size_t i = 0; rc == 0 && i < nseg; i++)
            rc = floe_manifest_list_writer_add(lw, &segments[i]);
        for (size_t i = 0; rc == 0 && i < nsmall; i++)
            rc = floe_manifest_list_writer_add(lw, &smalls[i]);
        if (rc == 0)
            rc = floe_manifest_list_writer_finish(lw);
        floe_manifest_list_writer_free(lw);
        snprintf(path, sizeof path, "mem://wh/t/metadata/snap-%06d-1.avro", k);
        char *lp = floe__arena_strdup(a, path);
        if (rc == 0)
            rc = floe__io_write_new(io, lp, out.ptr, out.len);
        floe__buf_free(&out);
        int64_t ts = T0 + (int64_t)k * 1000;
        if (rc == 0 && parent >= 0)
            rc = floe__buf_printf(&snaps, "{\"snapshot-id\":%lld,\"parent-snapshot-id\":%lld,",
                                  (long long)snap, (long long)parent);
        else if (rc == 0)
            rc = floe__buf_printf(&snaps, "{\"snapshot-id\":%lld,", (long long)snap);
        if (rc == 0)
            rc =
                floe__buf_printf(&snaps,
                                 "\"sequence-number\":%lld,\"timestamp-ms\":%lld,\"manifest-list\":"
                                 "\"%s\",\"summary\":{\"operation\":\"append\"},\"schema-id\":0}%s",
                                 (long long)seq, (long long)ts, lp, k + 1 < nsnap ? "," : "");
        if (rc == 0)
            rc = floe__buf_printf(&log, "{\"timestamp-ms\":%lld,\"snapshot-id\":%lld}%s",
                                  (long long)ts, (long long)snap, k + 1 < nsnap ? "," : "");
        if (rc < 0)
            return die("snapshot");
        parent = snap;
    }
    floe_table_metadata *m = NULL;
    floe__buf_printf(&json,
                     "{\"format-version\":2,\"table-uuid\":\"%s\",\"location\":\"mem://wh/t\","
                     "\"last-sequence-number\":%d,\"last-updated-ms\":%lld,\"last-column-id\":1,"
                     "\"current-schema-id\":0,\"schemas\":[%s],\"default-spec-id\":0,"
                     "\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
                     "\"last-partition-id\":999,\"default-sort-order-id\":0,"
                     "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
                     "\"current-snapshot-id\":%d,\"refs\":{\"main\":{\"snapshot-id\":%d,"
                     "\"type\":\"branch\"}},\"snapshots\":[",
                     m0->table_uuid, nsnap, (long long)(T0 + (int64_t)nsnap * 1000), SCHEMA, nsnap,
                     nsnap);
    floe__buf_put(&json, snaps.ptr, snaps.len);
    floe__buf_puts(&json, "],\"snapshot-log\":[");
    floe__buf_put(&json, log.ptr, log.len);
    floe__buf_puts(&json, "],\"metadata-log\":[]}");
    floe__buf_free(&snaps);
    floe__buf_free(&log);
    if (floe__metadata_parse(&m, json.ptr, json.len, "synthetic") < 0)
        return die("parse");
    floe__buf_free(&json);
    double setup_s = (double)(floe__mono_ns() - t_setup) / 1e9;

    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = T0 + (int64_t)nsnap * 1000 + 1;
    o.has_older_than = true;
    o.older_than_ms = T0 + (int64_t)(nsnap - nsnap / 10) * 1000;
    commit_ctx cc = {0};
    floe_maint_expire_result r;
    long rss0 = bm_status_kb("VmRSS:");
    bm_reset_peak();
    int64_t t0 = floe__mono_ns();
    double c0 = cpu_ms();
    if (floe__expire_run(io, m, "mem://wh/t/metadata/00000-x.metadata.json", &o, commit_mem, &cc,
                         &r) < 0)
        return die("expire");
    double wall_ms = (double)(floe__mono_ns() - t0) / 1e6;
    double cpu = cpu_ms() - c0;
    long hwm = bm_status_kb("VmHWM:");
    fprintf(
        stderr,
        "setup %.1f s: %d snapshots, %d data files, %zu manifests (%zu segments)\n"
        "expired %lld snapshots: deleted %lld data files, %lld manifests, %lld manifest lists\n",
        setup_s, nsnap, nsnap * FILES_PER_SNAPSHOT, distinct, nseg,
        (long long)r.expired_snapshots_count, (long long)r.deleted_data_files_count,
        (long long)r.deleted_manifest_files_count, (long long)r.deleted_manifest_lists_count);
    printf("BENCH maint_expire_wall %.1f ms\n", wall_ms);
    printf("BENCH maint_expire_cpu %.1f ms\n", cpu);
    printf("BENCH maint_expire_manifests_read %lld manifests\n", (long long)r.manifests_read);
    printf("BENCH maint_expire_manifests_distinct %zu manifests\n", distinct);
    printf("BENCH maint_expire_deleted_files %lld files\n",
           (long long)(r.deleted_data_files_count + r.deleted_manifest_files_count +
                       r.deleted_manifest_lists_count));
    if (hwm > 0 && rss0 > 0) {
        printf("BENCH maint_expire_peak_rss_increase %.1f MiB\n", (double)(hwm - rss0) / 1024.0);
        printf("BENCH maint_expire_peak_rss %.1f MiB\n", (double)hwm / 1024.0);
    }
    if (r.manifests_read > (int64_t)distinct) {
        fprintf(stderr, "a manifest was read more than once\n");
        return 1;
    }
    floe__metadata_free(m);
    floe__metadata_free(m0);
    floe__schema_release(schema);
    floe__arena_free(a);
    free(segments);
    free(smalls);
    free(pending);
    free(pending_paths);
    free(pending_seq);
    free(pending_snap);
    floe_fileio_free(io);
    return 0;
}
