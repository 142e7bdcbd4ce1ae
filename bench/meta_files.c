/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark: the `files` and `all_files` metadata tables over a synthetic
 * table of 1,000,000 data files (10 fast-append snapshots, each adding 10
 * manifests of 10,000 files; deflate-compressed manifests with metrics for
 * 3 columns, as Java writes them), plus a 100,000-file table to show that
 * memory does not grow with the file count. Each scan runs in a fresh
 * process (this binary re-executed with --scan) that reads file_path and
 * file_size_in_bytes of every row through the row-source interface, and
 * reports its wall time and peak RSS. A second pass reads every column,
 * readable_metrics JSON included, and the seed's retained-storage query
 * (all_data_files - files) runs through SQLite and the floe_rows module
 * ("sql": two manifest walks plus SQLite's per-row work).
 *
 * Usage: bench_meta_files [dir]  (default: a fresh directory under /tmp,
 * removed afterwards). Target: <= 2 s for 1 M files, streaming.
 */
#include "io/io.h"
#include "manifest/manifest.h"
#include "meta/meta.h"
#include "sql/vtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { FILES_PER_MANIFEST = 10000, MANIFESTS_PER_SNAPSHOT = 10 };

static const char schema_json[] =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"
    "false,\"type\":\"long\"},{\"id\":2,\"name\":\"ts\",\"required\":false,\"type\":\"long\"},"
    "{\"id\":3,\"name\":\"v\",\"required\":false,\"type\":\"long\"}]}";

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(p, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

static void le64(uint8_t *b, int64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)((uint64_t)v >> (8 * i));
}

/* CPU time of this process (user + system): the machine is shared, so
 * wall time also measures the other processes. */
static int64_t cpu_ns(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
           ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

/* One manifest of FILES_PER_MANIFEST added files. */
static int write_manifest(const char *dir, int snap, int k, int64_t snapshot_id,
                          floe_manifest_file *out_mf)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/metadata/m-%d-%d.avro", dir, snap, k);
    floe_manifest_writer_options o = {0};
    o.format_version = 2;
    o.content = FLOE_MANIFEST_DATA;
    o.schema_json = schema_json;
    o.partition_spec_json = "[]";
    o.snapshot_id = snapshot_id;
    o.sequence_number = FLOE_SEQ_UNASSIGNED;
    o.manifest_path = path;
    o.codec = FLOE_AVRO_CODEC_DEFLATE;
    o.compression_level = -1;
    floe_buf buf = FLOE_BUF_INIT;
    floe_manifest_writer *w;
    if (floe_manifest_writer_new(&w, &o, &buf) < 0)
        return -1;
    char fp[8400];
    uint8_t lo[3][8], hi[3][8];
    floe_col_long sizes[3], counts[3], nulls[3];
    floe_col_bytes lower[3], upper[3];
    for (int i = 0; i < FILES_PER_MANIFEST; i++) {
        int64_t n = (int64_t)snap * 1000000 + k * FILES_PER_MANIFEST + i;
        snprintf(fp, sizeof fp, "%s/data/00000-%d-5b4b5b1c-3a4b-4e55-9d0a-%012lld-00001.parquet",
                 dir, k, (long long)n);
        for (int c = 0; c < 3; c++) {
            sizes[c] = (floe_col_long){c + 1, 4000 + c};
            counts[c] = (floe_col_long){c + 1, 1000};
            nulls[c] = (floe_col_long){c + 1, 0};
            le64(lo[c], n * 1000);
            le64(hi[c], n * 1000 + 999);
            lower[c] = (floe_col_bytes){c + 1, lo[c], 8};
            upper[c] = (floe_col_bytes){c + 1, hi[c], 8};
        }
        floe_manifest_entry e;
        memset(&e, 0, sizeof e);
        e.status = FLOE_ENTRY_ADDED;
        e.has_snapshot_id = true;
        e.snapshot_id = snapshot_id;
        e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
        floe_data_file *df = &e.data_file;
        df->content = FLOE_FILE_DATA;
        df->file_path = fp;
        df->file_format = "PARQUET";
        df->record_count = 1000;
        df->file_size_in_bytes = 12345 + (n % 1000);
        df->block_size_in_bytes = -1;
        df->column_sizes = (floe_col_longs){3, sizes, true};
        df->value_counts = (floe_col_longs){3, counts, true};
        df->null_value_counts = (floe_col_longs){3, nulls, true};
        df->lower_bounds = (floe_col_bytes_map){3, lower, true};
        df->upper_bounds = (floe_col_bytes_map){3, upper, true};
        if (floe_manifest_writer_add(w, &e) < 0)
            return -1;
    }
    floe_manifest_file mf;
    if (floe_manifest_writer_finish(w, &mf) < 0 || write_file(path, buf.ptr, buf.len) < 0)
        return -1;
    *out_mf = mf;
    out_mf->manifest_path = strdup(path);
    out_mf->partitions = NULL;
    out_mf->npartitions = 0;
    out_mf->has_partitions = false;
    floe_manifest_writer_free(w);
    floe__buf_free(&buf);
    return 0;
}

/* A table of `nsnap` snapshots in dir; returns 0 or -1. */
static int generate(const char *dir, int nsnap)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/metadata", dir);
    mkdir(dir, 0755);
    mkdir(path, 0755);
    floe_manifest_file *all = calloc((size_t)nsnap * MANIFESTS_PER_SNAPSHOT, sizeof *all);
    floe_buf meta = FLOE_BUF_INIT;
    floe__buf_printf(
        &meta,
        "{\"format-version\":2,\"table-uuid\":\"5b4b5b1c-3a4b-4e55-9d0a-6b7d1f2e3a4b\","
        "\"location\":\"%s\",\"last-sequence-number\":%d,\"last-updated-ms\":%lld,"
        "\"last-column-id\":3,\"current-schema-id\":0,\"schemas\":[%s],"
        "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
        "\"last-partition-id\":999,\"default-sort-order-id\":0,\"sort-orders\":"
        "[{\"order-id\":0,\"fields\":[]}],\"properties\":{},"
        "\"current-snapshot-id\":%d,\"refs\":{\"main\":{\"snapshot-id\":%d,"
        "\"type\":\"branch\"}},\"snapshots\":[",
        dir, nsnap, 1700000000000LL + nsnap, schema_json, nsnap, nsnap);
    for (int s = 1; s <= nsnap; s++) {
        for (int k = 0; k < MANIFESTS_PER_SNAPSHOT; k++) {
            floe_manifest_file *mf = &all[(s - 1) * MANIFESTS_PER_SNAPSHOT + k];
            if (write_manifest(dir, s, k, s, mf) < 0)
                return -1;
            mf->sequence_number = mf->min_sequence_number = s;
        }
        floe_manifest_list_writer_options lo = {0};
        lo.format_version = 2;
        lo.snapshot_id = s;
        lo.has_parent_snapshot_id = s > 1;
        lo.parent_snapshot_id = s - 1;
        lo.sequence_number = s;
        lo.codec = FLOE_AVRO_CODEC_DEFLATE;
        lo.compression_level = -1;
        floe_buf lb = FLOE_BUF_INIT;
        floe_manifest_list_writer *lw;
        if (floe_manifest_list_writer_new(&lw, &lo, &lb) < 0)
            return -1;
        for (int i = s * MANIFESTS_PER_SNAPSHOT - 1; i >= 0; i--)
            if (floe_manifest_list_writer_add(lw, &all[i]) < 0)
                return -1;
        snprintf(path, sizeof path, "%s/metadata/snap-%d.avro", dir, s);
        if (floe_manifest_list_writer_finish(lw) < 0 || write_file(path, lb.ptr, lb.len) < 0)
            return -1;
        floe_manifest_list_writer_free(lw);
        floe__buf_free(&lb);
        floe__buf_printf(&meta, "%s{\"snapshot-id\":%d,", s > 1 ? "," : "", s);
        if (s > 1)
            floe__buf_printf(&meta, "\"parent-snapshot-id\":%d,", s - 1);
        floe__buf_printf(&meta,
                         "\"sequence-number\":%d,\"timestamp-ms\":%lld,\"summary\":"
                         "{\"operation\":\"append\"},\"manifest-list\":\"%s\",\"schema-id\":0}",
                         s, 1700000000000LL + s, path);
    }
    floe__buf_puts(&meta, "]}");
    snprintf(path, sizeof path, "%s/metadata/v1.metadata.json", dir);
    int rc = write_file(path, meta.ptr, meta.len);
    for (int i = 0; i < nsnap * MANIFESTS_PER_SNAPSHOT; i++)
        free((char *)all[i].manifest_path);
    free(all);
    floe__buf_free(&meta);
    return rc;
}

/* Child: the seed's retained-storage query through SQLite over 1M files. */
static int scan_sql(const char *dir)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/metadata/v1.metadata.json", dir);
    floe_table_metadata *m;
    floe_fileio *io;
    sqlite3 *db;
    floe_vtab_registry *reg;
    if (floe__metadata_read_file(&m, path) < 0 || floe_fileio_local_new(&io) < 0 ||
        sqlite3_open(":memory:", &db) != SQLITE_OK || floe__vtab_register(db, &reg) < 0)
        return 1;
    int64_t t0 = floe__mono_ns(), c0 = cpu_ns();
    static const char *const tables[] = {"files", "all_data_files"};
    for (int i = 0; i < 2; i++) {
        floe_meta_options o = FLOE_META_OPTIONS_INIT;
        o.metadata = m;
        o.io = io;
        floe_rowsource *rs;
        if (floe__meta_open(&rs, tables[i], &o) < 0 ||
            floe__vtab_create(reg, NULL, tables[i], rs) < 0)
            return 1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT (SELECT count(*) FROM files), (SELECT sum(file_size_in_bytes) "
                           "FROM all_data_files) - (SELECT sum(file_size_in_bytes) FROM files)",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        fprintf(stderr, "sql: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    long long rows = sqlite3_column_int64(st, 0), retained = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    double ms = (double)(floe__mono_ns() - t0) / 1e6, cpu = (double)(cpu_ns() - c0) / 1e6;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%lld %.1f %.1f %.1f %lld\n", rows, ms, cpu, ru.ru_maxrss / 1024.0, retained);
    sqlite3_close(db);
    floe_fileio_free(io);
    floe__metadata_free(m);
    return 0;
}

/* Child: scan `table` of the table in dir; prints one line. */
static int scan(const char *dir, const char *table, bool all_columns)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/metadata/v1.metadata.json", dir);
    floe_table_metadata *m;
    floe_fileio *io;
    if (floe__metadata_read_file(&m, path) < 0 || floe_fileio_local_new(&io) < 0) {
        fprintf(stderr, "scan setup: %s\n", floe_error_last()->message);
        return 1;
    }
    int64_t t0 = floe__mono_ns(), c0 = cpu_ns();
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    o.io = io;
    floe_rowsource *rs;
    floe_rowcursor *c;
    if (floe__meta_open(&rs, table, &o) < 0 || floe__rs_open(rs, NULL, 0, &c) < 0) {
        fprintf(stderr, "open: %s\n", floe_error_last()->message);
        return 1;
    }
    int path_col = floe__rs_column_index(rs, "file_path");
    int size_col = floe__rs_column_index(rs, "file_size_in_bytes");
    int64_t rows = 0, bytes = 0, chars = 0;
    int rc;
    while ((rc = floe__rs_next(c)) == 0) {
        floe_rs_cell cell;
        if (all_columns) {
            for (size_t i = 0; i < rs->ncolumns; i++) {
                if (floe__rs_column(c, i, &cell) < 0)
                    return 1;
                chars += cell.json ? (int64_t)cell.json_len : 1;
            }
        }
        if (floe__rs_column(c, (size_t)path_col, &cell) < 0)
            return 1;
        chars += (int64_t)cell.value.v.bytes.len;
        if (floe__rs_column(c, (size_t)size_col, &cell) < 0)
            return 1;
        bytes += cell.value.v.i64;
        rows++;
    }
    if (rc != FLOE_ITEROVER) {
        fprintf(stderr, "scan: %s\n", floe_error_last()->message);
        return 1;
    }
    double ms = (double)(floe__mono_ns() - t0) / 1e6, cpu = (double)(cpu_ns() - c0) / 1e6;
    floe__rs_close(c);
    floe__rs_free(rs);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%lld %.1f %.1f %.1f %lld\n", (long long)rows, ms, cpu, ru.ru_maxrss / 1024.0,
           (long long)(bytes + chars));
    floe_fileio_free(io);
    floe__metadata_free(m);
    return 0;
}

/* Run a scan in a fresh process and print BENCH lines. */
static int measure(const char *self, const char *dir, const char *table, const char *tag,
                   bool all_columns, int64_t want_rows)
{
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' --scan '%s' %s %s", self, dir, table,
             all_columns ? "all" : "two");
    FILE *p = popen(cmd, "r");
    if (!p)
        return 1;
    long long rows = 0, sum = 0;
    double ms = 0, cpu = 0, rss = 0;
    int n = fscanf(p, "%lld %lf %lf %lf %lld", &rows, &ms, &cpu, &rss, &sum);
    if (pclose(p) != 0 || n != 5 || rows != want_rows) {
        fprintf(stderr, "%s: scan failed (%lld rows)\n", table, rows);
        return 1;
    }
    const char *cols = all_columns ? "_allcols" : "";
    printf("BENCH meta_%s_%s%s_wall %.0f ms\n", table, tag, cols, ms);
    printf("BENCH meta_%s_%s%s_cpu %.0f ms\n", table, tag, cols, cpu);
    printf("BENCH meta_%s_%s%s_rate %.2f Mrows/s\n", table, tag, cols, rows / cpu / 1e3);
    printf("BENCH meta_%s_%s%s_peak_rss %.1f MB\n", table, tag, cols, rss);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--scan") == 0)
        return strcmp(argv[3], "sql") == 0 ? scan_sql(argv[2])
                                           : scan(argv[2], argv[3], strcmp(argv[4], "all") == 0);
    char base[1024];
    bool tmp = argc < 2;
    if (tmp) {
        snprintf(base, sizeof base, "/tmp/floe-bench-meta-XXXXXX");
        if (!mkdtemp(base))
            return 1;
    } else {
        snprintf(base, sizeof base, "%s", argv[1]);
    }
    char self[4096];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0)
        return 1;
    self[sl] = 0;
    static const struct {
        const char *tag;
        int snaps;
    } sizes[] = {{"100k", 1}, {"1m", 10}};
    int rc = 0;
    for (size_t i = 0; i < 2 && rc == 0; i++) {
        char dir[1100];
        snprintf(dir, sizeof dir, "%s/%s", base, sizes[i].tag);
        int64_t t0 = floe__mono_ns();
        char probe[1200];
        snprintf(probe, sizeof probe, "%s/metadata/v1.metadata.json", dir);
        struct stat st;
        if (!tmp && stat(probe, &st) == 0) {
            fprintf(stderr, "reusing %s\n", dir);
        } else {
            if (generate(dir, sizes[i].snaps) < 0) {
                fprintf(stderr, "generate: %s\n",
                        floe_error_last() ? floe_error_last()->message : "");
                return 1;
            }
            fprintf(stderr, "generated %s in %.1f s\n", dir, (double)(floe__mono_ns() - t0) / 1e9);
        }
        int64_t files = (int64_t)sizes[i].snaps * MANIFESTS_PER_SNAPSHOT * FILES_PER_MANIFEST;
        rc = measure(self, dir, "files", sizes[i].tag, false, files) ||
             measure(self, dir, "all_files", sizes[i].tag, false, files);
        if (rc == 0 && i == 1)
            rc = measure(self, dir, "files", sizes[i].tag, true, files) ||
                 measure(self, dir, "sql", sizes[i].tag, false, files);
    }
    if (tmp) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
        if (system(cmd) != 0)
            rc = 1;
    }
    return rc;
}
