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
 * With FLOE_BENCH_ORPHANS_DISK=N the same table is written to the local
 * file system instead, every object a real (empty) file, N objects in all
 * (data files in folders of 1,000), in a SQLite-catalog warehouse; floe's
 * dry run lists the real tree, and Spark 3.5 + Iceberg 1.11 (local[2],
 * bench/maint_vs_spark.py, the peer venv) runs
 * `CALL system.remove_orphan_files(..., dry_run => true)` on the same table
 * unless FLOE_BENCH_ORPHANS_SPARK=0: RATIO orphans_disk_<N> floe wall /
 * Spark wall, the orphan counts compared.
 *
 * Usage: bench_maint_orphans [objects]   (default 1000000)
 */
#include "bench_mem.h"
#include "bench_setup.h"
#include "floe/catalog.h"
#include "io/io.h"
#include "maint/maint.h"
#include "manifest/manifest.h"
#include "spec/metadata.h"
#include "util/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"     \
    "true,\"type\":\"long\"}]}"
#define T0 1800000000000LL
#define SNAPSHOTS 100

static long g_objects = 1000000;
static char g_loc[600] = "mem://wh/t"; /* the table location */
static bool g_disk;                    /* real files under g_loc */

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
    snprintf(out, n, "%s/data/%04ld/%07ld-0-4f1c2d3e-5a6b-4c7d-8e9f-%012ld-00001.parquet", g_loc,
             i / 1000, i, i);
}

static int w_open(floe_input **out, floe_fileio *io, const char *uri)
{
    return floe_fileio_open_input(out, io->impl, uri);
}
static int w_create(floe_output **out, floe_fileio *io, const char *uri)
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
    if (g_disk)
        return 0; /* the real tree was listed */
    char name[800];
    long ndata = g_objects - 300; /* the rest are metadata objects */
    for (long i = 0; i < ndata; i++) {
        data_name(name, sizeof name, i);
        floe_file_info info = {name, 4096, T0};
        FLOE_TRY(cb(&info, payload));
    }
    return 0;
}
static int w_stat(floe_file_info *out, floe_fileio *io, const char *uri)
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

/* Disk mode: the table's folders and its ndata (empty) data files. */
static int make_files(long ndata)
{
    char name[800];
    snprintf(name, sizeof name, "%s/data", g_loc);
    if (mkdir(g_loc, 0755) < 0 || mkdir(name, 0755) < 0)
        return -1;
    snprintf(name, sizeof name, "%s/metadata", g_loc);
    if (mkdir(name, 0755) < 0)
        return -1;
    for (long i = 0; i < ndata; i++) {
        if (i % 1000 == 0) {
            snprintf(name, sizeof name, "%s/data/%04ld", g_loc, i / 1000);
            if (mkdir(name, 0755) < 0)
                return -1;
        }
        data_name(name, sizeof name, i);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
        /* two days old: Spark's procedure refuses an older_than within 24 hours */
        struct timespec ts[2] = {{time(NULL) - 2 * 86400, 0}, {time(NULL) - 2 * 86400, 0}};
        if (fd < 0 || futimens(fd, ts) < 0 || close(fd) < 0)
            return -1;
    }
    return 0;
}

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
    char name[800];
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
    const char *disk = getenv("FLOE_BENCH_ORPHANS_DISK");
    floe_catalog *cat = NULL;
    char dir[512] = "/tmp/floe-bench-orphans-XXXXXX";
    if (disk && *disk) {
        g_disk = true;
        g_objects = atol(disk);
        if (bs_warehouse("orphans-disk", dir, &cat) < 0)
            return die("warehouse");
        char ns[520];
        snprintf(ns, sizeof ns, "%s/b.db", dir);
        snprintf(g_loc, sizeof g_loc, "%s/t", ns);
        if (mkdir(ns, 0755) < 0)
            return die("mkdir");
    } else if (!mkdtemp(dir))
        return 1;
    if (g_objects < 10000)
        g_objects = 10000;
    floe_fileio *mem, *io = calloc(1, sizeof *io);
    if ((g_disk ? floe_fileio_local_new(&mem) : floe_fileio_memory_new(&mem)) < 0 || !io)
        return die("io");
    io->ops = &synth_ops;
    io->impl = mem;
    /* the table: SNAPSHOTS appends, each one manifest of ndata/SNAPSHOTS files */
    /* disk: the other objects are the 100 manifests, 100 lists and the metadata file */
    long ndata = g_objects - (g_disk ? 2 * SNAPSHOTS + 1 : 300), per = ndata / SNAPSHOTS;
    floe_manifest_file *mfs = calloc(SNAPSHOTS, sizeof *mfs);
    char **mpaths = calloc(SNAPSHOTS, sizeof *mpaths);
    floe_buf snaps = FLOE_BUF_INIT, json = FLOE_BUF_INIT;
    char path[800];
    int64_t tset = floe__mono_ns();
    if (g_disk && make_files(ndata) < 0)
        return die("data files");
    for (int k = 0; k < SNAPSHOTS; k++) {
        int64_t snap = k + 1;
        snprintf(path, sizeof path, "%s/metadata/%04d-m0.avro", g_loc, k);
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
        snprintf(path, sizeof path, "%s/metadata/snap-%d-1.avro", g_loc, k);
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
        "\"location\":\"%s\",\"last-sequence-number\":%d,\"last-updated-ms\":%lld,"
        "\"last-column-id\":1,\"current-schema-id\":0,\"schemas\":[%s],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
        "\"last-partition-id\":999,\"default-sort-order-id\":0,"
        "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
        "\"current-snapshot-id\":%d,\"refs\":{\"main\":{\"snapshot-id\":%d,"
        "\"type\":\"branch\"}},\"snapshots\":[",
        g_loc, SNAPSHOTS, (long long)(T0 + SNAPSHOTS), SCHEMA, SNAPSHOTS, SNAPSHOTS);
    floe__buf_puts(&json, snaps.ptr);
    floe__buf_puts(&json, "],\"snapshot-log\":[],\"metadata-log\":[]}");
    char meta[700];
    snprintf(meta, sizeof meta, "%s/metadata/00001-x.metadata.json", g_loc);
    if (floe__io_write_new(mem, meta, json.ptr, strlen(json.ptr)) < 0)
        return die("metadata");
    floe__buf_free(&json);
    floe__buf_free(&snaps);
    char db[600];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    const char *ident = g_disk ? "b.t" : "db.t";
    if (!g_disk && (floe_catalog_open_sql(&cat, db, NULL) < 0 ||
                    floe_catalog_create_namespace(cat, "db", NULL) < 0))
        return die("catalog");
    if (floe_catalog_register_table(cat, ident, meta) < 0)
        return die("register");
    double setup_s = (double)(floe__mono_ns() - tset) / 1e9;

    floe_maint_orphan_options o = FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    o.io = io;
    o.dry_run = true;
    o.has_older_than = true;
    /* disk: a day and a minute ago (the data files are two days old) */
    int64_t older = g_disk ? ((int64_t)time(NULL) - 86460) * 1000 : T0 + 1000;
    o.older_than_ms = older;
    floe_maint_orphan_result r;
    long rss0 = bm_status_kb("VmRSS:");
    bm_reset_peak();
    int64_t t0 = floe__mono_ns();
    double c0 = cpu_ms();
    if (floe_maint_remove_orphan_files(&r, cat, ident, &o) < 0)
        return die("sweep");
    double wall = (double)(floe__mono_ns() - t0) / 1e6, cpu = cpu_ms() - c0;
    long hwm = bm_status_kb("VmHWM:");
    fprintf(stderr, "setup %.1f s; listed %lld, reachable %lld, orphans %lld\n", setup_s,
            (long long)r.listed_files_count, (long long)r.reachable_files_count,
            (long long)r.orphan_files_count);
    if (g_disk) {
        long n = g_objects;
        printf("# disk: %ld real files under %s (setup %.1f s)\n", n, g_loc, setup_s);
        printf("BENCH orphans_disk_%ld_wall %.1f ms\n", n, wall);
        printf("BENCH orphans_disk_%ld_cpu %.1f ms\n", n, cpu);
        printf("BENCH orphans_disk_%ld_listed %lld objects\n", n, (long long)r.listed_files_count);
        printf("BENCH orphans_disk_%ld_found %lld objects\n", n, (long long)r.orphan_files_count);
        printf("# iceberg-go 0.7.0, iceberg-rust 0.10.1, the Iceberg Java core API and "
               "PyIceberg 0.12 have no orphan-file removal: Spark is the peer\n");
        const char *sp = getenv("FLOE_BENCH_ORPHANS_SPARK");
        if (!sp || strcmp(sp, "0") != 0) {
            /* floe's older_than, in UTC (the session time zone) */
            char call[300], when[64];
            time_t sec = (time_t)(older / 1000);
            struct tm tm;
            strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", gmtime_r(&sec, &tm));
            snprintf(call, sizeof call,
                     "CALL local.system.remove_orphan_files(table => 'b.t', dry_run => true, "
                     "older_than => TIMESTAMP '%s')",
                     when);
            double spark = bs_spark_seconds(dir, "b.t", 0, call);
            if (spark > 0) {
                printf("BENCH orphans_disk_%ld_spark_wall %.1f ms\n", n, spark * 1e3);
                printf("RATIO orphans_disk_%ld %.4f spark\n", n, wall / 1e3 / spark);
            } else if (getenv("CI") && strcmp(getenv("CI"), "true") == 0) {
                return 1; /* under CI a missing peer is a failure */
            }
        }
        floe_catalog_free(cat);
        floe_fileio_free(io);
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        return system(cmd) == 0 ? 0 : 1;
    }
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
    char wal[700];
    snprintf(wal, sizeof wal, "%s-wal", db);
    remove(wal);
    snprintf(wal, sizeof wal, "%s-shm", db);
    remove(wal);
    rmdir(dir);
    return 0;
}
