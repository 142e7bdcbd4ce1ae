/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/native_ops: floe's side of bench/native_peers.sh, the same
 * operations as its iceberg-go and iceberg-rust programs (bench/go,
 * bench/rust) with the same protocol: one warm-up run, then RUNS runs, and
 * one line
 *
 *   PEER <op> <median wall ms> <median process CPU ms> <count>
 *
 * (count: entries, snapshots, tasks or rows, compared with the peers').
 *
 *   bench_native_ops manifest RUNS FILE            decode every entry of a manifest
 *   bench_native_ops metadata RUNS FILE            parse a metadata.json held in memory
 *   bench_native_ops plan RUNS METADATA [CAT]      floe_scan_open (filter cat = 'CAT')
 *   bench_native_ops files RUNS METADATA           the files metadata table, every column
 *   bench_native_ops commit RUNS METADATA DIR      set one table property (SQLite catalog)
 *   bench_native_ops expire RUNS METADATA DIR KEEP [RESET]
 *                                                  expire_snapshots keeping KEEP, deleting files
 *                                                  (RESET: a program run, untimed, before each
 *                                                  run: it restores the table's files)
 *   bench_native_ops chain LOCATION N              write a table of N snapshots, print its file
 *   bench_native_ops expire-table LOCATION N       write the expire table of N snapshots (below)
 *
 * Without arguments (as scripts/bench.sh runs every bench_*) it only says
 * where it is used.
 */
#include "bench_tables.h"
#include "floe/maint.h"
#include "floe/scan.h"
#include "floe/table.h"
#include "io/io.h"
#include "meta/meta.h"
#include "spec/metadata.h"
#include "table/table.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int die(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "bench_native_ops: %s: %s\n", what, e ? e->message : "?");
    exit(1);
}

typedef int64_t (*op_fn)(int run, void *payload);
typedef void (*setup_fn)(int run, void *payload);

/* Warm-up plus `runs` timed runs of fn (setup, untimed, before each). */
static void measure(const char *op, int runs, setup_fn setup, op_fn fn, void *payload)
{
    int64_t *wall = calloc((size_t)runs, sizeof *wall), *cpu = calloc((size_t)runs, sizeof *cpu);
    int64_t count = -1;
    if (!wall || !cpu)
        die("calloc");
    for (int i = 0; i <= runs; i++) {
        if (setup)
            setup(i, payload);
        int64_t t0 = floe__mono_ns(), c0 = cpu_ns();
        int64_t n = fn(i, payload);
        int64_t w = floe__mono_ns() - t0, c = cpu_ns() - c0;
        if (n < 0)
            die(op);
        if (i > 0 && n != count) {
            fprintf(stderr, "bench_native_ops: %s: count %lld then %lld\n", op, (long long)count,
                    (long long)n);
            exit(1);
        }
        count = n;
        if (i > 0) {
            wall[i - 1] = w;
            cpu[i - 1] = c;
        }
    }
    printf("PEER %s %.3f %.3f %lld\n", op, bt_median_ms(wall, runs), bt_median_ms(cpu, runs),
           (long long)count);
    free(wall);
    free(cpu);
}

typedef struct job {
    char **arg;
    floe_buf data;
    floe_catalog *cat;
    floe_table *table;
    char dir[1024];
} job;

static int64_t op_manifest(int run, void *p)
{
    (void)run;
    job *j = p;
    return bt_decode_manifest(j->data.ptr, j->data.len, j->arg[0]);
}

static int64_t op_metadata(int run, void *p)
{
    (void)run;
    job *j = p;
    floe_table_metadata *m;
    if (floe__metadata_parse(&m, j->data.ptr, j->data.len, j->arg[0]) < 0)
        return -1;
    int64_t n = (int64_t)m->nsnapshots;
    floe__metadata_free(m);
    return n;
}

static int64_t op_plan(int run, void *p)
{
    (void)run;
    job *j = p;
    char filter[256];
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    if (j->arg[1]) {
        snprintf(filter, sizeof filter, "cat = '%s'", j->arg[1]);
        o.filter = filter;
    }
    floe_scan *s;
    if (floe_scan_open(&s, NULL, j->arg[0], &o) < 0)
        return -1;
    int64_t n = floe_scan_get_report(s)->tasks;
    floe_scan_free(s);
    return n;
}

/* Every column of every row, as iceberg-go's Inspect().Files builds them. */
static int64_t op_files(int run, void *p)
{
    (void)run;
    job *j = p;
    floe_table_metadata *m;
    floe_fileio *io;
    if (floe__metadata_read_file(&m, j->arg[0]) < 0 || floe_fileio_local_new(&io) < 0)
        return -1;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    o.io = io;
    floe_rowsource *rs;
    floe_rowcursor *c;
    if (floe__meta_open(&rs, "files", &o) < 0 || floe__rs_open(rs, NULL, 0, &c) < 0)
        return -1;
    int64_t rows = 0;
    int rc;
    while ((rc = floe__rs_next(c)) == 0) {
        floe_rs_cell cell;
        for (size_t i = 0; i < rs->ncolumns; i++)
            if (floe__rs_column(c, i, &cell) < 0)
                return -1;
        rows++;
    }
    floe__rs_close(c);
    floe__rs_free(rs);
    floe_fileio_free(io);
    floe__metadata_free(m);
    return rc == FLOE_ITEROVER ? rows : -1;
}

static void open_catalog(job *j)
{
    char db[1200];
    snprintf(db, sizeof db, "%s/floe-catalog.db", j->dir);
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = j->dir;
    if (floe_catalog_open_sql(&j->cat, db, &o) < 0)
        die("catalog");
    if (floe_catalog_namespace_exists(j->cat, "b") == 0 &&
        floe_catalog_create_namespace(j->cat, "b", NULL) < 0)
        die("namespace");
}

/* Register the table of arg[0] as b.<name><run> and load it. */
static void register_table(job *j, const char *name, int run)
{
    char ident[64];
    snprintf(ident, sizeof ident, "b.%s%d", name, run);
    floe_table_free(j->table);
    j->table = NULL;
    if (floe_catalog_register_table(j->cat, ident, j->arg[0]) < 0 ||
        floe_table_load(&j->table, j->cat, ident, NULL) < 0)
        die("register");
}

static int64_t op_commit(int run, void *p)
{
    job *j = p;
    char v[32];
    snprintf(v, sizeof v, "%d", run);
    floe_props set = FLOE_PROPS_INIT;
    if (floe__props_set(&set, "bench.n", v) < 0 ||
        floe_table_update_properties(j->table, &set, NULL, 0) < 0)
        return -1;
    floe__props_free(&set);
    return (int64_t)j->table->metadata->nsnapshots;
}

static void setup_expire(int run, void *p)
{
    job *j = p;
    if (j->arg[3]) {
        fflush(NULL);
        if (system(j->arg[3]) != 0) {
            fprintf(stderr, "bench_native_ops: %s failed\n", j->arg[3]);
            exit(1);
        }
    }
    register_table(p, "expire", run);
}

static int64_t op_expire(int run, void *p)
{
    (void)run;
    job *j = p;
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.retain_last = atoi(j->arg[2]);
    o.has_older_than = true;
    o.older_than_ms = INT64_MAX / 2;
    floe_maint_expire_result res;
    if (floe_maint_table_expire_snapshots(&res, j->table, &o) < 0)
        return -1;
    return (int64_t)j->table->metadata->nsnapshots;
}

/* ---------------------------------------------------------------- the expire table */
/*
 * expire-table LOCATION N: a v2 table of N snapshots (N >= 20, one chain on
 * main) with real files on the local file system, each snapshot with its
 * own manifest list. Snapshot i appends 10 empty data files in one new
 * manifest (metadata/m-<i>.avro); every 10th (i % 10 == 9, i >= 19) is a
 * retention overwrite that also deletes the 100 files of the 10 oldest live
 * manifests: they leave the list, and one manifest (metadata/d-<i>.avro)
 * lists their files as DELETED entries (what Java's manifest filtering
 * writes when every entry of a manifest goes). So a list holds 10-20 live
 * manifests (plus that snapshot's delete manifest), and the snapshots
 * together reference 10 * N data files. Expiring all but the last K
 * snapshots (K a multiple of 10, so the oldest kept one is a plain
 * append) keeps the older manifests the kept snapshots still list and
 * deletes the rest; each implementation's cleanup then removes the same
 * files: the incremental way (Java: DELETED entries of expired snapshots)
 * and the reachability way (floe, iceberg-go: live entries of manifests no
 * kept snapshot lists, minus those kept ones list live) agree.
 * Prints the metadata file's path.
 */
#define XT_FILES 10
#define XT_EVERY 10

typedef struct xt_manifest {
    floe_manifest_file mf;
    int snap; /* the snapshot that added its files */
} xt_manifest;

static void xt_data_path(char *out, size_t n, const char *loc, int snap, int k)
{
    snprintf(out, n, "%s/data/%04d/%05d-%d.parquet", loc, snap / 100, snap, k);
}

static void xt_entry(floe_manifest_entry *e, const char *path, int32_t status, int64_t snap,
                     int64_t seq)
{
    memset(e, 0, sizeof *e);
    e->status = status;
    e->has_snapshot_id = true;
    e->snapshot_id = snap;
    e->sequence_number = e->file_sequence_number = seq;
    e->data_file.file_path = (char *)path;
    e->data_file.file_format = "PARQUET";
    e->data_file.record_count = 10;
    e->data_file.file_size_in_bytes = 1024;
    e->data_file.block_size_in_bytes = -1;
}

/* Write the manifest `path` of the entries of `snaps` (status ADDED: those
 * snapshots' files; DELETED: deleted by snapshot `snap`) into *mf. */
static int xt_manifest_write(floe_fileio *io, const char *loc, const char *path, int snap,
                             const int *snaps, int nsnaps, int32_t status, floe_manifest_file *mf)
{
    floe_manifest_writer_options wo;
    memset(&wo, 0, sizeof wo);
    wo.format_version = 2;
    wo.content = FLOE_MANIFEST_DATA;
    wo.schema_json = BT_SCHEMA_JSON;
    wo.partition_spec_json = "[]";
    wo.snapshot_id = BT_BASE_ID + snap;
    wo.sequence_number = FLOE_SEQ_UNASSIGNED;
    wo.manifest_path = path;
    wo.compression_level = -1;
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_writer *w = NULL;
    char name[1200];
    int rc = floe_manifest_writer_new(&w, &wo, &out);
    for (int s = 0; rc == 0 && s < nsnaps; s++)
        for (int k = 0; rc == 0 && k < XT_FILES; k++) {
            floe_manifest_entry e;
            xt_data_path(name, sizeof name, loc, snaps[s], k);
            if (status == FLOE_ENTRY_ADDED)
                xt_entry(&e, name, status, BT_BASE_ID + snap, FLOE_SEQ_UNASSIGNED);
            else
                xt_entry(&e, name, status, BT_BASE_ID + snap, snaps[s] + 1);
            rc = floe_manifest_writer_add(w, &e);
        }
    if (rc == 0)
        rc = floe_manifest_writer_finish(w, mf);
    if (rc == 0) {
        mf->manifest_path = floe__strdup(path);
        mf->sequence_number = mf->min_sequence_number = snap + 1;
        mf->has_partitions = false;
        mf->npartitions = 0;
        mf->partitions = NULL;
        mf->key_metadata = (floe_opt_bytes){0};
        rc = mf->manifest_path ? 0 : floe__error_nomem();
    }
    floe_manifest_writer_free(w);
    if (rc == 0)
        rc = floe__io_write_new(io, path, out.ptr, out.len);
    floe__buf_free(&out);
    return rc;
}

static int xt_mkdirs(const char *loc, int n)
{
    char d[1200];
    snprintf(d, sizeof d, "%s/data", loc);
    if (mkdir(loc, 0755) < 0 || mkdir(d, 0755) < 0)
        return floe__error(FLOE_EIO, "bench", "mkdir %s: exists or cannot be made", loc);
    for (int i = 0; i < n; i += 100) {
        snprintf(d, sizeof d, "%s/data/%04d", loc, i / 100);
        if (mkdir(d, 0755) < 0)
            return floe__error(FLOE_EIO, "bench", "mkdir %s", d);
    }
    snprintf(d, sizeof d, "%s/metadata", loc);
    return mkdir(d, 0755) < 0 ? floe__error(FLOE_EIO, "bench", "mkdir %s", d) : 0;
}

static int write_expire_table(const char *loc, int n, char *file, size_t filesz)
{
    if (n < 2 * XT_EVERY)
        return floe__error(FLOE_EINVALID, "bench", "expire-table needs at least 20 snapshots");
    FLOE_TRY(xt_mkdirs(loc, n));
    floe_fileio *io = NULL;
    FLOE_TRY(floe_fileio_local_new(&io));
    xt_manifest *live = calloc(2 * XT_EVERY + 1, sizeof *live);
    floe_buf js = FLOE_BUF_INIT, list = FLOE_BUF_INIT;
    size_t nlive = 0;
    int64_t total = 0;
    char path[1200];
    int rc = live ? 0 : floe__error_nomem();
    for (int i = 0; rc == 0 && i < n; i++) {
        for (int k = 0; rc == 0 && k < XT_FILES; k++) {
            xt_data_path(path, sizeof path, loc, i, k);
            int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
            rc = fd < 0 ? floe__error(FLOE_EIO, "bench", "create %s", path) : close(fd);
        }
        snprintf(path, sizeof path, "%s/metadata/m-%05d.avro", loc, i);
        if (rc == 0)
            rc = xt_manifest_write(io, loc, path, i, &i, 1, FLOE_ENTRY_ADDED, &live[nlive].mf);
        live[nlive++].snap = i;
        total += XT_FILES;
        /* a retention overwrite: the 10 oldest live manifests' files go */
        bool del = i % XT_EVERY == XT_EVERY - 1 && i >= 2 * XT_EVERY - 1;
        floe_manifest_file dmf;
        if (rc == 0 && del) {
            int gone[XT_EVERY];
            for (int g = 0; g < XT_EVERY; g++)
                gone[g] = live[g].snap;
            snprintf(path, sizeof path, "%s/metadata/d-%05d.avro", loc, i);
            rc = xt_manifest_write(io, loc, path, i, gone, XT_EVERY, FLOE_ENTRY_DELETED, &dmf);
            for (int g = 0; g < XT_EVERY; g++)
                free((char *)live[g].mf.manifest_path);
            memmove(live, live + XT_EVERY, (nlive - XT_EVERY) * sizeof *live);
            nlive -= XT_EVERY;
            total -= XT_EVERY * XT_FILES;
        }
        /* the list: the new manifest first (as Java writes it), the delete
         * manifest, then the older live ones */
        floe_manifest_list_writer_options lo = {.format_version = 2,
                                                .snapshot_id = BT_BASE_ID + i,
                                                .has_parent_snapshot_id = i > 0,
                                                .parent_snapshot_id = BT_BASE_ID + i - 1,
                                                .sequence_number = i + 1,
                                                .compression_level = -1};
        floe_manifest_list_writer *lw = NULL;
        list.len = 0;
        if (rc == 0)
            rc = floe_manifest_list_writer_new(&lw, &lo, &list);
        if (rc == 0)
            rc = floe_manifest_list_writer_add(lw, &live[nlive - 1].mf);
        if (rc == 0 && del)
            rc = floe_manifest_list_writer_add(lw, &dmf);
        for (size_t m = nlive - 1; rc == 0 && m-- > 0;)
            rc = floe_manifest_list_writer_add(lw, &live[m].mf);
        if (rc == 0)
            rc = floe_manifest_list_writer_finish(lw);
        floe_manifest_list_writer_free(lw);
        if (del)
            free((char *)dmf.manifest_path);
        snprintf(path, sizeof path, "%s/metadata/snap-%05d.avro", loc, i);
        if (rc == 0)
            rc = floe__io_write_new(io, path, list.ptr, list.len);
        if (rc == 0 && i)
            rc = floe__buf_putc(&js, ',');
        if (rc == 0)
            rc = floe__buf_printf(&js, "{\"sequence-number\":%d,\"snapshot-id\":%lld,", i + 1,
                                  (long long)(BT_BASE_ID + i));
        if (rc == 0 && i)
            rc = floe__buf_printf(&js, "\"parent-snapshot-id\":%lld,",
                                  (long long)(BT_BASE_ID + i - 1));
        if (rc == 0)
            rc = floe__buf_printf(
                &js,
                "\"timestamp-ms\":%lld,\"summary\":{\"operation\":\"%s\",\"added-data-files\":"
                "\"%d\",\"deleted-data-files\":\"%d\",\"added-records\":\"%d\",\"total-records\":"
                "\"%lld\",\"total-data-files\":\"%lld\",\"total-delete-files\":\"0\"},"
                "\"manifest-list\":\"%s\",\"schema-id\":0}",
                (long long)(BT_TS0 + i), del ? "overwrite" : "append", XT_FILES,
                del ? XT_EVERY * XT_FILES : 0, XT_FILES * 10, (long long)total * 10,
                (long long)total, path);
    }
    for (size_t m = 0; m < nlive; m++)
        free((char *)live[m].mf.manifest_path);
    free(live);
    floe_buf b = FLOE_BUF_INIT;
    if (rc == 0)
        rc = floe__buf_printf(
            &b,
            "{\"format-version\":2,\"table-uuid\":\"3a4c6e1f-7d2b-4e59-9a0c-5b8d1f2e3c4a\","
            "\"location\":\"%s\",\"last-sequence-number\":%d,\"last-updated-ms\":%lld,"
            "\"last-column-id\":2,\"current-schema-id\":0,\"schemas\":[%s],"
            "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
            "\"last-partition-id\":999,\"default-sort-order-id\":0,"
            "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
            "\"current-snapshot-id\":%lld,\"refs\":{\"main\":{\"snapshot-id\":%lld,"
            "\"type\":\"branch\"}},\"snapshots\":[",
            loc, n, (long long)(BT_TS0 + n), BT_SCHEMA_JSON, (long long)(BT_BASE_ID + n - 1),
            (long long)(BT_BASE_ID + n - 1));
    if (rc == 0)
        rc = floe__buf_put(&b, js.ptr, js.len);
    if (rc == 0)
        rc = floe__buf_puts(&b, "],\"statistics\":[],\"snapshot-log\":[");
    for (int i = 0; rc == 0 && i < n; i++)
        rc = floe__buf_printf(&b, "%s{\"timestamp-ms\":%lld,\"snapshot-id\":%lld}", i ? "," : "",
                              (long long)(BT_TS0 + i), (long long)(BT_BASE_ID + i));
    if (rc == 0)
        rc = floe__buf_puts(&b, "],\"metadata-log\":[]}");
    snprintf(file, filesz, "%s/metadata/00000-8e2f0a5c-1b3d-4c6e-9f70-2a4b6c8d0e1f.metadata.json",
             loc);
    if (rc == 0)
        rc = floe__io_write_new(io, file, b.ptr, b.len);
    floe__buf_free(&b);
    floe__buf_free(&js);
    floe__buf_free(&list);
    floe_fileio_free(io);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("# bench_native_ops is run by bench/native_peers.sh (floe vs iceberg-go, "
               "iceberg-rust)\n");
        return 0;
    }
    const char *op = argv[1];
    if (strcmp(op, "chain") == 0 && argc == 4) {
        char file[1200];
        if (bt_write_chain_table(argv[2], atoi(argv[3]), file, sizeof file) < 0)
            die("chain");
        printf("%s\n", file);
        return 0;
    }
    if (strcmp(op, "expire-table") == 0 && argc == 4) {
        char file[1200];
        if (write_expire_table(argv[2], atoi(argv[3]), file, sizeof file) < 0)
            die("expire-table");
        printf("%s\n", file);
        return 0;
    }
    int runs = argc > 3 ? atoi(argv[2]) : 0;
    if (runs < 1) {
        fprintf(stderr, "usage: bench_native_ops <op> <runs> <args...> (see bench/native_ops.c)\n");
        return 2;
    }
    job j = {.arg = argv + 3, .data = FLOE_BUF_INIT};
    int nargs = argc - 3;
    if (strcmp(op, "manifest") == 0 || strcmp(op, "metadata") == 0) {
        floe_fileio *io;
        if (floe_fileio_local_new(&io) < 0 || floe__io_read_all(io, argv[3], SIZE_MAX, &j.data) < 0)
            die(argv[3]);
        floe_fileio_free(io);
        measure(op, runs, NULL, op[1] == 'a' ? op_manifest : op_metadata, &j);
    } else if (strcmp(op, "plan") == 0) {
        measure(op, runs, NULL, op_plan, &j);
    } else if (strcmp(op, "files") == 0) {
        measure(op, runs, NULL, op_files, &j);
    } else if (strcmp(op, "commit") == 0 && nargs == 2) {
        snprintf(j.dir, sizeof j.dir, "%s", argv[4]);
        open_catalog(&j);
        register_table(&j, "commit", 0);
        measure(op, runs, NULL, op_commit, &j);
    } else if (strcmp(op, "expire") == 0 && (nargs == 3 || nargs == 4)) {
        snprintf(j.dir, sizeof j.dir, "%s", argv[4]);
        open_catalog(&j);
        measure(op, runs, setup_expire, op_expire, &j);
    } else {
        fprintf(stderr, "bench_native_ops: unknown operation or arguments: %s\n", op);
        return 2;
    }
    floe_table_free(j.table);
    floe_catalog_free(j.cat);
    floe__buf_free(&j.data);
    return 0;
}
