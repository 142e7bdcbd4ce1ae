/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of remove_orphan_files over 1,000,000 listed objects: a table of
 * 100 append snapshots whose manifests reference 900,000 data files, and a
 * listing that yields those plus 100,000 unreferenced ones interleaved. The
 * listing is synthetic (a FileIO that generates the data-file names on the
 * fly; metadata, manifest lists and manifests live in the memory FileIO):
 * creating a real directory tree of a million files is too slow on this
 * machine and would measure the file system, not the sweep. Reports wall
 * and CPU time, orphans found, and the peak RSS increase during the sweep
 * per listed object (target: at most 200 bytes).
 *
 * Usage: bench_maint_orphans [objects]   (default 1000000)
 */
#include "bench_mem.h"
#include "floe/catalog.h"
#include "io/io.h"
#include "maint/maint.h"
#include "manifest/manifest.h"
#include "spec/metadata.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"     \
    "true,\"type\":\"long\"}]}"
#define T0 1800000000000LL
#define SNAPSHOTS 100

static long g_objects = 1000000;

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int die(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "bench_maint_orphans: %s: %s\n", what, e ? e->message : "?");
    return 1;
}

/* data file number i (every 10th is an orphan) */
static void data_name(char *out, size_t n, long i)
{
    snprintf(out, n, "mem://wh/t/data/%07ld-0-4f1c2d3e-5a6b-4c7d-8e9f-%012ld-00001.parquet", i, i);
}

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
    (void)io, (void)uris, (void)n;
    return 0;
}
static int w_list(floe_fileio *io, const char *prefix,
                  int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    FLOE_TRY(floe_fileio_list(io->impl, prefix, cb, payload));
    char name[160];
    long ndata = g_objects - 300; /* the rest are metadata objects */
    for (long i = 0; i < ndata; i++) {
        data_name(name, sizeof name, i);
        floe_file_info info = {name, 4096, T0};
        FLOE_TRY(cb(&info, payload));
    }
    return 0;
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
static const floe_fileio_ops synth_ops = {
    FLOE_FILEIO_OPS_VERSION, w_open, w_create, w_remove, w_list, w_stat, w_free};

static int write_manifest(floe_fileio *io, const char *path, int64_t snap, long first, long last,
                          floe_manifest_file *mf)
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
    char name[160];
    for (long i = first; rc == 0 && i < last; i++) {
        if (i % 10 == 9)
            continue; /* an orphan */
        data_name(name, sizeof name, i);
        floe_manifest_entry e;
        memset(&e, 0, sizeof e);
        e.status = FLOE_ENTRY_ADDED;
        e.has_snapshot_id = true;
        e.snapshot_id = snap;
        e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
        e.data_file.file_path = name;
        e.data_file.file_format = "PARQUET";
        e.data_file.record_count = 1;
        e.data_file.file_size_in_bytes = 4096;
        e.data_file.block_size_in_bytes = -1;
        rc = floe_manifest_writer_add(w, &e);
    }
    if (rc == 0)
        rc = floe_manifest_writer_finish(w, mf);
    mf->has_partitions = false;
    mf->partitions = NULL;
    mf->npartitions = 0;
    floe_manifest_writer_free(w);
    if (rc == 0)
        rc = floe__io_write_new(io, path, out.ptr, out.len);
    floe__buf_free(&out);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        g_objects = atol(argv[1]);
    if (g_objects < 10000)
        g_objects = 10000;
    char dir[] = "/tmp/floe-bench-orphans-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    floe_fileio *mem, *io = calloc(1, sizeof *io);
    if (floe_fileio_memory_new(&mem) < 0 || !io)
        return die("io");
    io->ops = &synth_ops;
    io->impl = mem;
    /* the table: SNAPSHOTS appends, each one manifest of ndata/SNAPSHOTS files */
    long ndata = g_objects - 300, per = ndata / SNAPSHOTS;
    floe_manifest_file *mfs = calloc(SNAPSHOTS, sizeof *mfs);
    char **mpaths = calloc(SNAPSHOTS, sizeof *mpaths);
    floe_buf snaps = FLOE_BUF_INIT, json = FLOE_BUF_INIT;
    char path[256];
    int64_t tset = floe__mono_ns();
    for (int k = 0; k < SNAPSHOTS; k++) {
        int64_t snap = k + 1;
        snprintf(path, sizeof path, "mem://wh/t/metadata/%04d-m0.avro", k);
        mpaths[k] = strdup(path);
        long last = k == SNAPSHOTS - 1 ? ndata : (k + 1) * per;
        if (write_manifest(mem, mpaths[k], snap, k * per, last, &mfs[k]) < 0)
            return die("manifest");
        mfs[k].manifest_path = mpaths[k];
        mfs[k].sequence_number = mfs[k].min_sequence_number = snap;
        floe_manifest_list_writer_options lo;
        memset(&lo, 0, sizeof lo);
        lo.format_version = 2;
        lo.snapshot_id = snap;
        lo.has_parent_snapshot_id = k > 0;
        lo.parent_snapshot_id = snap - 1;
        lo.sequence_number = snap;
        floe_buf out = FLOE_BUF_INIT;
        floe_manifest_list_writer *lw = NULL;
        int rc = floe_manifest_list_writer_new(&lw, &lo, &out);
        for (int i = 0; rc == 0 && i <= k; i++)
            rc = floe_manifest_list_writer_add(lw, &mfs[i]);
        if (rc == 0)
            rc = floe_manifest_list_writer_finish(lw);
        floe_manifest_list_writer_free(lw);
        snprintf(path, sizeof path, "mem://wh/t/metadata/snap-%d-1.avro", k);
        if (rc == 0)
            rc = floe__io_write_new(mem, path, out.ptr, out.len);
        floe__buf_free(&out);
        if (rc < 0)
            return die("list");
        floe__buf_printf(&snaps,
                         "%s{\"snapshot-id\":%lld,%s\"sequence-number\":%lld,\"timestamp-ms\":%lld,"
                         "\"manifest-list\":\"%s\",\"summary\":{\"operation\":\"append\"}}",
                         k ? "," : "", (long long)snap, "", (long long)snap, (long long)(T0 + k),
                         path);
    }
    floe__buf_printf(
        &json,
        "{\"format-version\":2,\"table-uuid\":\"9b0f1b9e-1c1e-4b33-9a8e-0b1b7c9d0e11\","
        "\"location\":\"mem://wh/t\",\"last-sequence-number\":%d,\"last-updated-ms\":%lld,"
        "\"last-column-id\":1,\"current-schema-id\":0,\"schemas\":[%s],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
        "\"last-partition-id\":999,\"default-sort-order-id\":0,"
        "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
        "\"current-snapshot-id\":%d,\"refs\":{\"main\":{\"snapshot-id\":%d,"
        "\"type\":\"branch\"}},\"snapshots\":[",
        SNAPSHOTS, (long long)(T0 + SNAPSHOTS), SCHEMA, SNAPSHOTS, SNAPSHOTS);
    floe__buf_puts(&json, snaps.ptr);
    floe__buf_puts(&json, "],\"snapshot-log\":[],\"metadata-log\":[]}");
    const char *meta = "mem://wh/t/metadata/00001-x.metadata.json";
    if (floe__io_write_new(mem, meta, json.ptr, strlen(json.ptr)) < 0)
        return die("metadata");
    floe__buf_free(&json);
    floe__buf_free(&snaps);
    char db[256];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog *cat;
    if (floe_catalog_open_sql(&cat, db, NULL) < 0 ||
        floe_catalog_create_namespace(cat, "db", NULL) < 0 ||
        floe_catalog_register_table(cat, "db.t", meta) < 0)
        return die("catalog");
    double setup_s = (double)(floe__mono_ns() - tset) / 1e9;

    floe_maint_orphan_options o = FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    o.io = io;
    o.dry_run = true;
    o.has_older_than = true;
    o.older_than_ms = T0 + 1000;
    floe_maint_orphan_result r;
    long rss0 = bm_status_kb("VmRSS:");
    bm_reset_peak();
    int64_t t0 = floe__mono_ns();
    double c0 = cpu_ms();
    if (floe_maint_remove_orphan_files(&r, cat, "db.t", &o) < 0)
        return die("sweep");
    double wall = (double)(floe__mono_ns() - t0) / 1e6, cpu = cpu_ms() - c0;
    long hwm = bm_status_kb("VmHWM:");
    fprintf(stderr, "setup %.1f s; listed %lld, reachable %lld, orphans %lld\n", setup_s,
            (long long)r.listed_files_count, (long long)r.reachable_files_count,
            (long long)r.orphan_files_count);
    printf("BENCH maint_orphans_wall %.1f ms\n", wall);
    printf("BENCH maint_orphans_cpu %.1f ms\n", cpu);
    printf("BENCH maint_orphans_listed %lld objects\n", (long long)r.listed_files_count);
    printf("BENCH maint_orphans_found %lld objects\n", (long long)r.orphan_files_count);
    if (hwm > 0 && rss0 > 0) {
        printf("BENCH maint_orphans_peak_rss_increase %.1f MiB\n", (double)(hwm - rss0) / 1024.0);
        printf("BENCH maint_orphans_bytes_per_object %.1f bytes\n",
               (double)(hwm - rss0) * 1024.0 / (double)r.listed_files_count);
    }
    floe_catalog_free(cat);
    floe_fileio_free(io);
    for (int k = 0; k < SNAPSHOTS; k++)
        free(mpaths[k]);
    free(mpaths);
    free(mfs);
    remove(db);
    char wal[300];
    snprintf(wal, sizeof wal, "%s-wal", db);
    remove(wal);
    snprintf(wal, sizeof wal, "%s-shm", db);
    remove(wal);
    rmdir(dir);
    return 0;
}
