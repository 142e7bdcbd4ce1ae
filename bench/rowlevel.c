/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/rowlevel: DELETE of 1% of the rows, spread over every data file of
 * a large table (v = id % 100, DELETE WHERE v = 7), in copy-on-write and in
 * merge-on-read: wall time of the operation (find rows + write files +
 * commit), bytes of data/delete files written, and the full-scan read time
 * before and after the merge-on-read delete (the cost of applying position
 * deletes on read), and the same merge-on-read delete on a format v3 table,
 * where it writes deletion vectors (one Puffin DV per data file; `mor_dv`).
 *
 *   bench_rowlevel [ROWS] [FILES]      default 10,000,000 rows in 10 files
 *
 * Tables live in a fresh directory under $TMPDIR (/tmp); SQLite catalog.
 * Output: BENCH <name> <value> <unit>.
 */
#include "arrow/arrow.h"
#include "floe/scan.h"
#include "floe/table.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"v\",\"required\":true,\"type\":\"long\"},"                               \
    "{\"id\":3,\"name\":\"x\",\"required\":false,\"type\":\"double\"}]}"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const floe_type t_long = {.id = FLOE_T_LONG};
static const floe_type t_double = {.id = FLOE_T_DOUBLE};
static const floe_field fields[] = {{.id = 1, .name = "id", .required = true, .type = &t_long},
                                    {.id = 2, .name = "v", .required = true, .type = &t_long},
                                    {.id = 3, .name = "x", .type = &t_double}};
static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 3, .fields = fields};

static int batch(int64_t from, int64_t n, struct ArrowArray *out)
{
    floe_arrow_builder *b = NULL;
    if (floe__arrow_builder_new(&b, &root) < 0)
        return -1;
    int rc = 0;
    for (int64_t i = from; rc == 0 && i < from + n; i++) {
        floe_value a = floe_value_long(i), v = floe_value_long(i % 100),
                   x = floe_value_double((double)i * 0.5);
        rc = floe__arrow_builder_append(b->children[0], &a);
        rc |= floe__arrow_builder_append(b->children[1], &v);
        rc |= floe__arrow_builder_append(b->children[2], &x);
        rc |= floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

static floe_table *make_table(floe_catalog *c, const char *ident, const char *mode,
                              const char *format, int64_t rows, int files)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.delete.mode", mode);
    floe__props_set(&p, "format-version", format);
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = SCHEMA;
    co.properties = &p;
    floe_table *t = NULL;
    int rc = floe_table_create(&t, c, ident, &co, NULL);
    floe__props_free(&p);
    int64_t per = rows / files;
    for (int f = 0; rc == 0 && f < files; f++) {
        floe_append *a = NULL;
        rc = floe_append_new(&a, t);
        for (int64_t off = 0; rc == 0 && off < per; off += 1000000) {
            struct ArrowArray arr;
            int64_t n = per - off < 1000000 ? per - off : 1000000;
            rc = batch((int64_t)f * per + off, n, &arr);
            if (rc == 0) {
                rc = floe_append_write(a, &arr);
                arr.release(&arr);
            }
        }
        if (rc == 0)
            rc = floe_append_commit(a, NULL);
        floe_append_free(a);
    }
    if (rc < 0) {
        fprintf(stderr, "make_table: %s\n", floe_error_last()->message);
        floe_table_free(t);
        return NULL;
    }
    return t;
}

static double scan_all(floe_table *t, int64_t *rows)
{
    double t0 = now_s();
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.threads = 1;
    floe_scan *s = NULL;
    *rows = 0;
    if (floe_scan_open(&s, floe_table_io(t), floe_table_metadata_location(t), &o) < 0)
        return -1;
    struct ArrowArrayStream st;
    if (floe_scan_to_stream(s, &st) == 0) {
        for (;;) {
            struct ArrowArray b;
            if (st.get_next(&st, &b) != 0 || !b.release)
                break;
            *rows += b.length;
            b.release(&b);
        }
        st.release(&st);
    }
    floe_scan_free(s);
    return now_s() - t0;
}

int main(int argc, char **argv)
{
    int64_t rows = argc > 1 ? atoll(argv[1]) : 10000000;
    int files = argc > 2 ? atoi(argv[2]) : 10;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char dir[512], db[600];
    snprintf(dir, sizeof dir, "%s/floe-bench-rowlevel-XXXXXX", tmp);
    if (!mkdtemp(dir))
        return 1;
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = dir;
    floe_catalog *c = NULL;
    if (floe_catalog_open_sql(&c, db, &co) < 0)
        return 1;
    floe_catalog_create_namespace(c, "b", NULL);
    printf("# %lld rows in %d files, DELETE WHERE v = 7 (1%%)\n", (long long)rows, files);
    const char *modes[] = {"copy-on-write", "merge-on-read", "merge-on-read"};
    const char *formats[] = {"2", "2", "3"};
    const char *tags[] = {"cow", "mor", "mor_dv"};
    for (int m = 0; m < 3; m++) {
        char ident[32];
        snprintf(ident, sizeof ident, "b.t_%s", tags[m]);
        floe_table *t = make_table(c, ident, modes[m], formats[m], rows, files);
        if (!t)
            return 1;
        int64_t n0 = 0, n1 = 0;
        double before = scan_all(t, &n0);
        double t0 = now_s();
        floe_rowlevel *op = NULL;
        floe_rowlevel_stats st;
        int rc = floe_rowlevel_new(&op, t, NULL);
        if (rc == 0)
            rc = floe_rowlevel_delete_where(op, "v = 7");
        if (rc == 0)
            rc = floe_rowlevel_commit(op, NULL, &st);
        floe_rowlevel_free(op);
        double wall = now_s() - t0;
        if (rc < 0) {
            fprintf(stderr, "delete: %s\n", floe_error_last()->message);
            return 1;
        }
        double after = scan_all(t, &n1);
        printf("# %s (v%s): %lld rows deleted, %lld -> %lld rows read, %lld data files removed, "
               "%lld data + %lld delete files written\n",
               modes[m], formats[m], (long long)st.rows_deleted, (long long)n0, (long long)n1,
               (long long)st.data_files_removed, (long long)st.data_files_added,
               (long long)st.delete_files_added);
        printf("BENCH rowlevel_delete_%s_wall %.3f s\n", tags[m], wall);
        printf("BENCH rowlevel_delete_%s_bytes_written %lld bytes\n", tags[m],
               (long long)st.bytes_written);
        printf("BENCH rowlevel_read_before_%s %.3f s\n", tags[m], before);
        printf("BENCH rowlevel_read_after_%s %.3f s\n", tags[m], after);
        if (m > 0)
            printf("BENCH rowlevel_read_slowdown_%s %.2f x\n", tags[m],
                   before > 0 ? after / before : 0);
        floe_table_free(t);
    }
    floe_catalog_free(c);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return 0;
}
