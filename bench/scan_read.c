/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scan reading benchmark (issue 6): rows/s of a table of NROWS rows
 * (default 10,000,000 in 10 Parquet files written by floe's writer; columns
 * id long, cat string, v long) through the public scan API's Arrow stream,
 * and DuckDB read_parquet over the same files in the same run (node +
 * tests/interop/node_modules/@duckdb/node-api, when present). Both sides
 * touch every value (sum of id and v, total string length).
 *
 *   bench_scan_read [NROWS [NFILES]]
 *
 * Prints BENCH lines (rows/s, wall, CPU seconds) and
 * `RATIO scan_read <floe time / duckdb time> duckdb` (per row read; below
 * 1, floe is faster: bench/README.md).
 */
#include "../tests/unit/scan/gentable.h"
#include "floe/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static double cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
           (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

/* Write the table: NFILES files of rows/NFILES rows, unpartitioned. */
static int make(const char *dir, int64_t nrows, int nfiles)
{
    gt_mkdirs(dir);
    const floe_schema *schema = gt_schema();
    floe_buf out = FLOE_BUF_INIT;
    char mpath[1200], list[1200], meta[1200];
    snprintf(mpath, sizeof mpath, "%s/metadata/m0.avro", dir);
    snprintf(list, sizeof list, "%s/metadata/snap-1.avro", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_manifest_writer *w;
    FLOE_TRY(gt_manifest_new(&w, &out, false, FLOE_MANIFEST_DATA, 1, mpath));
    int rc = 0;
    int64_t per = nrows / nfiles;
    floe_arena *a = floe__arena_new(4096);
    for (int f = 0; rc == 0 && f < nfiles; f++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/data/part-%03d.parquet", dir, f);
        gt_rows r = {(int64_t)f * per, f % 2 ? "odd-category" : "even"};
        floe_pq_metrics m;
        memset(&m, 0, sizeof m);
        int64_t n = f == nfiles - 1 ? nrows - per * (nfiles - 1) : per;
        if ((rc = gt_write_parquet(path, schema, n, gt_fill_rows, &r, &m)) == 0) {
            floe_manifest_entry e;
            memset(&e, 0, sizeof e);
            e.status = FLOE_ENTRY_ADDED;
            e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
            e.data_file.file_path = path;
            e.data_file.file_format = "PARQUET";
            e.data_file.block_size_in_bytes = -1;
            if ((rc = gt_metrics_to_entry(&m, a, &e.data_file)) == 0)
                rc = floe_manifest_writer_add(w, &e);
        }
        floe__pq_metrics_free(&m);
    }
    floe_manifest_file mf;
    if (rc == 0 && (rc = floe_manifest_writer_finish(w, &mf)) == 0 &&
        (rc = gt_write_bytes(mpath, out.ptr, out.len)) == 0 &&
        (rc = gt_write_list(list, 1, 1, &mf, 1)) == 0) {
        int64_t id = 1;
        const char *lists[1] = {list};
        rc = gt_write_metadata(meta, dir, false, 1, &id, lists);
    }
    floe_manifest_writer_free(w);
    floe__buf_free(&out);
    floe__arena_free(a);
    return rc;
}

static int run_floe(const char *meta, int64_t *rows, double *wall, double *cpu)
{
    double c0 = cpu_s();
    int64_t t0 = floe__mono_ns();
    floe_scan *s;
    FLOE_TRY(floe_scan_open(&s, NULL, meta, NULL));
    struct ArrowArrayStream st;
    int rc = floe_scan_to_stream(&st, s);
    int64_t n = 0, sum = 0, slen = 0;
    while (rc == 0) {
        struct ArrowArray b;
        if (st.get_next(&st, &b) != 0) {
            fprintf(stderr, "read: %s\n", st.get_last_error(&st));
            rc = FLOE_EIO;
            break;
        }
        if (!b.release)
            break;
        const int64_t *id = (const int64_t *)b.children[0]->buffers[1];
        const int32_t *off = (const int32_t *)b.children[1]->buffers[1];
        const int64_t *v = (const int64_t *)b.children[2]->buffers[1];
        for (int64_t i = 0; i < b.length; i++)
            sum += id[i] + v[i];
        slen += off[b.length] - off[0];
        n += b.length;
        b.release(&b);
    }
    if (st.release)
        st.release(&st);
    floe_scan_free(s);
    *wall = (double)(floe__mono_ns() - t0) / 1e9;
    *cpu = cpu_s() - c0;
    *rows = n;
    printf("floe: %lld rows, checksum %lld, string bytes %lld\n", (long long)n, (long long)sum,
           (long long)slen);
    return rc;
}

/* DuckDB through node; returns its query wall time in seconds or < 0. */
static double run_duckdb(const char *dir, int64_t *rows)
{
    const char *src = getenv("FLOE_SOURCE_DIR");
#ifdef FLOE_SOURCE_DIR
    if (!src)
        src = FLOE_SOURCE_DIR;
#endif
    char nm[1200], script[1300], cmd[4000];
    snprintf(nm, sizeof nm, "%s/tests/interop/node_modules/@duckdb/node-api", src ? src : ".");
    if (access(nm, R_OK) != 0)
        return -1;
    snprintf(script, sizeof script, "%s/duck.cjs", dir);
    FILE *f = fopen(script, "w");
    if (!f)
        return -1;
    fprintf(f,
            "const d = require(%s%s%s);\n"
            "(async () => {\n"
            "  const inst = await d.DuckDBInstance.create(':memory:');\n"
            "  const c = await inst.connect();\n"
            "  const q = \"SELECT count(*)::BIGINT AS n, (sum(id) + sum(v))::BIGINT AS s, "
            "sum(length(cat))::BIGINT AS l FROM read_parquet('%s/data/*.parquet')\";\n"
            "  await c.runAndReadAll(\"SELECT 1\");\n"
            "  const t0 = process.hrtime.bigint();\n"
            "  const r = await c.runAndReadAll(q);\n"
            "  const t1 = process.hrtime.bigint();\n"
            "  const row = r.getRows()[0];\n"
            "  console.log(`${row[0]} ${Number(t1 - t0) / 1e9}`);\n"
            "})().catch(e => { console.error(e); process.exit(1); });\n",
            "'", nm, "'", dir);
    fclose(f);
    snprintf(cmd, sizeof cmd, "node '%s'", script);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    long long n = 0;
    double secs = -1;
    if (fscanf(p, "%lld %lf", &n, &secs) != 2)
        secs = -1;
    if (pclose(p) != 0)
        return -1;
    *rows = n;
    return secs;
}

int main(int argc, char **argv)
{
    int64_t nrows = argc > 1 ? atoll(argv[1]) : 10000000;
    int nfiles = argc > 2 ? atoi(argv[2]) : 10;
    if (nrows < 1 || nfiles < 1 || nfiles > nrows)
        return 2;
    char dir[] = "/tmp/floe-bench-scan-read-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    int64_t t0 = floe__mono_ns();
    int rc = make(dir, nrows, nfiles);
    printf("wrote %lld rows in %d files in %.1f s\n", (long long)nrows, nfiles,
           (double)(floe__mono_ns() - t0) / 1e9);
    int64_t rows = 0, drows = 0;
    double wall = 0, cpu = 0;
    char meta[1300];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    /* the second pass is measured (files in the page cache for both engines) */
    if (rc == 0)
        rc = run_floe(meta, &rows, &wall, &cpu);
    if (rc == 0)
        rc = run_floe(meta, &rows, &wall, &cpu);
    if (rc == 0) {
        printf("BENCH scan_read_rows_per_s %.0f rows/s\n", (double)rows / wall);
        printf("BENCH scan_read_wall %.3f s\n", wall);
        printf("BENCH scan_read_cpu %.3f s\n", cpu);
        double ds = run_duckdb(dir, &drows);
        if (ds > 0) {
            printf("duckdb: %lld rows in %.3f s\n", (long long)drows, ds);
            printf("BENCH scan_read_duckdb_rows_per_s %.0f rows/s\n", (double)drows / ds);
            printf("RATIO scan_read %.3f duckdb\n", (wall / (double)rows) / (ds / (double)drows));
        } else {
            printf("duckdb: not available (node or @duckdb/node-api missing)\n");
        }
    } else {
        fprintf(stderr, "scan failed: %s\n", floe_error_last() ? floe_error_last()->message : "?");
    }
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc == 0 ? 0 : 1;
}
