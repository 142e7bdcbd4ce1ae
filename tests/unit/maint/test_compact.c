/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rewrite_data_files (maint/compact.c) through the SQL session: result
 * columns, deletes applied while rewriting, a delete committed while the
 * compaction commits (it must fail, never resurrect the deleted row),
 * branches, partial progress, Java's option checks, rewrite_manifests, and
 * random histories (appends, deletes, updates, branches, tags) with
 * compactions and manifest rewrites interleaved: every snapshot reads the
 * same rows before and after.
 */
#define _XOPEN_SOURCE 700
#include "harness.h"

#include "floe/maint.h"
#include "floe/sql.h"
#include "io/io.h"
#include "scan/scan.h"
#include "table/rowdelta.h"
#include "table/table.h"
#include "util/util.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static floe_sql_session *open_session(const char *name)
{
    floe_sql_open_options o = FLOE_SQL_OPEN_OPTIONS_INIT;
    o.warehouse = ft_tmp(name);
    floe_sql_session *s = NULL;
    FT_CHECK(floe_sql_open(&s, &o) == 0);
    return s;
}

/* Run statements; the last one's rows as CSV (caller frees), or NULL with
 * the error class and message in *err when one fails. */
static char *run(floe_sql_session *s, const char *sql, char **err)
{
    floe_sql_result *r = NULL;
    if (err)
        *err = NULL;
    int rc = floe_sql_execute(&r, s, sql);
    if (rc < 0) {
        if (err)
            *err = floe__sprintf("%s: %s", floe_sql_error_class(s) ? floe_sql_error_class(s) : "",
                                 floe_error_last()->message ? floe_error_last()->message : "");
        return NULL;
    }
    char *out = NULL;
    if (r && floe_sql_result_render(&out, r, FLOE_SQL_RENDER_CSV) < 0)
        out = NULL;
    floe_sql_result_free(r);
    char *copy = floe__strdup(out ? out : "");
    floe_string_free(out);
    return copy;
}

static char *must(floe_sql_session *s, const char *sql)
{
    char *err = NULL;
    char *out = run(s, sql, &err);
    if (!out) {
        fprintf(stderr, "    sql failed: %s\n    %s\n", sql, err ? err : "");
        FT_CHECK(out != NULL);
        floe__free(err);
        return floe__strdup("");
    }
    return out;
}

static void exec_ok(floe_sql_session *s, const char *sql)
{
    floe__free(must(s, sql));
}

/* v3 rounds of the random histories: rows are read with their lineage. */
static const char *row_cols = "*";

/* Rows of every snapshot, of every ref, in one text. */
static char *read_everything(floe_sql_session *s)
{
    floe_buf b = FLOE_BUF_INIT;
    char *ids =
        must(s, "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at, snapshot_id");
    char *save = NULL;
    for (char *line = strtok_r(ids, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strcmp(line, "snapshot_id") == 0)
            continue;
        char q[256];
        snprintf(q, sizeof q, "SELECT %s FROM db.t VERSION AS OF %s ORDER BY id, s", row_cols,
                 line);
        char *rows = must(s, q);
        floe__buf_printf(&b, "== %s\n%s", line, rows);
        floe__free(rows);
    }
    floe__free(ids);
    return floe__buf_detach(&b);
}

/* One CSV cell: row `row` (1 = first data row), column `col`. */
static long long cell(const char *csv, int row, int col)
{
    const char *p = csv;
    for (int i = 0; i < row && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    for (int c = 0; c < col && p; c++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return p ? atoll(p) : -1;
}

/* Six inserts of two rows each: ids 0..11, s 'a<i>' / 'b<i>'. */
static void insert_pairs(floe_sql_session *s)
{
    for (int i = 0; i < 6; i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'a%d'), (%d, 'b%d')", 2 * i, i,
                 2 * i + 1, i);
        exec_ok(s, q);
    }
}

#define SETUP                                                                                      \
    "CREATE NAMESPACE db;"                                                                         \
    "CREATE TABLE db.t (id bigint, s string) USING iceberg PARTITIONED BY (bucket(2, id)) "        \
    "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', "                   \
    "'write.update.mode'='merge-on-read')"

static void test_binpack_applies_deletes(void)
{
    floe_sql_session *s = open_session("binpack");
    exec_ok(s, SETUP);
    insert_pairs(s);
    exec_ok(s, "DELETE FROM db.t WHERE id = 4");
    exec_ok(s, "UPDATE db.t SET s = 'z' WHERE id = 7");
    char *before = read_everything(s);
    char *head = must(s, "SELECT * FROM db.t ORDER BY id, s");
    char *files = must(s, "SELECT count(*), sum(file_size_in_bytes) FROM db.t.data_files");
    long long nfiles = cell(files, 1, 0), nbytes = cell(files, 1, 1);
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                        "map('min-input-files', '2'))");
    FT_CHECK(strncmp(out,
                     "rewritten_data_files_count,added_data_files_count,"
                     "rewritten_bytes_count,failed_data_files_count,"
                     "removed_delete_files_count\n",
                     120) == 0);
    /* every file is small and each bucket holds >= 2: all of them, one per bucket */
    FT_EQ_INT(cell(out, 1, 0), nfiles);
    FT_EQ_INT(cell(out, 1, 1), 2);
    FT_EQ_INT(cell(out, 1, 2), nbytes);
    FT_EQ_INT(cell(out, 1, 3), 0);
    floe__free(out);
    char *op = must(s, "SELECT operation FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    FT_EQ_STR(op, "operation\nreplace\n");
    floe__free(op);
    /* the new head reads the rows the old head read, deletes applied */
    char *after_head = must(s, "SELECT * FROM db.t ORDER BY id, s");
    FT_EQ_STR(after_head, head);
    FT_CHECK(strstr(after_head, "4,") == NULL && strstr(after_head, "7,z") != NULL);
    /* older snapshots are untouched */
    char *after = read_everything(s);
    FT_CHECK(strncmp(after, before, strlen(before)) == 0);
    /* nothing left to do: a second run rewrites nothing */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t')");
    FT_EQ_INT(cell(out, 1, 0), 0);
    floe__free(out);
    floe__free(before);
    floe__free(after);
    floe__free(head);
    floe__free(after_head);
    floe__free(files);
    floe_sql_close(s);
}

static void test_options_and_where(void)
{
    floe_sql_session *s = open_session("options");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, p int) USING iceberg "
               "PARTITIONED BY (p)");
    for (int i = 0; i < 4; i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 0), (%d, 1)", 2 * i, 2 * i + 1);
        exec_ok(s, q);
    }
    /* 4 files per partition: below min-input-files (5), nothing happens */
    char *out = must(s, "CALL local.system.rewrite_data_files('db.t')");
    FT_EQ_INT(cell(out, 1, 0), 0);
    floe__free(out);
    /* where: only partition p = 0 */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', where => 'p = 0', "
                  "options => map('min-input-files', '2'))");
    FT_EQ_INT(cell(out, 1, 0), 4);
    FT_EQ_INT(cell(out, 1, 1), 1);
    floe__free(out);
    out = must(s, "SELECT count(*) FROM db.t.data_files");
    FT_EQ_STR(out, "count(*)\n5\n");
    floe__free(out);
    /* Java's checks */
    char *err = NULL;
    FT_CHECK(run(s,
                 "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                 "map('target-file-size-bytes', '100', 'min-file-size-bytes', '200'))",
                 &err) == NULL);
    FT_CHECK(err && strstr(err, "IllegalArgumentException: 'target-file-size-bytes' (100) must "
                                "be > 'min-file-size-bytes' (200), all new files will be smaller "
                                "than the min threshold"));
    floe__free(err);
    FT_CHECK(run(s,
                 "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                 "map('bogus', '1'))",
                 &err) == NULL);
    FT_CHECK(err && strstr(err, "Cannot use options [bogus], they are not supported"));
    floe__free(err);
    FT_CHECK(run(s, "CALL local.system.rewrite_data_files(table => 'db.t', strategy => 'foo')",
                 &err) == NULL);
    FT_CHECK(err && strstr(err, "unsupported strategy: foo. Only binpack or sort is supported"));
    floe__free(err);
    FT_CHECK(run(s,
                 "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                 "map('min-input-files', '0'))",
                 &err) == NULL);
    FT_CHECK(err && strstr(err, "'min-input-files' is set to 0 but must be > 0"));
    floe__free(err);
    /* rewrite-all, partial progress over two commits */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                  "map('rewrite-all', 'true', 'partial-progress.enabled', 'true', "
                  "'partial-progress.max-commits', '2'))");
    FT_EQ_INT(cell(out, 1, 0), 5);
    FT_EQ_INT(cell(out, 1, 1), 2);
    floe__free(out);
    /* two groups (one per partition), two commits */
    out = must(s, "SELECT count(*) FROM db.t.snapshots WHERE operation = 'replace'");
    FT_EQ_INT(cell(out, 1, 0), 3);
    floe__free(out);
    out = must(s, "SELECT count(*), count(DISTINCT id) FROM db.t");
    FT_EQ_STR(out, "count(*),count(DISTINCT id)\n8,8\n");
    floe__free(out);
    floe_sql_close(s);
}

static void test_branch(void)
{
    floe_sql_session *s = open_session("branch");
    exec_ok(s, SETUP);
    exec_ok(s, "INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
    exec_ok(s, "ALTER TABLE db.t CREATE BRANCH dev");
    for (int i = 0; i < 5; i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t.branch_dev VALUES (%d, 'd')", 10 + 2 * i);
        exec_ok(s, q);
    }
    char *main_before = must(s, "SELECT snapshot_id FROM db.t.refs WHERE name = 'main'");
    char *dev_rows = must(s, "SELECT * FROM db.t.branch_dev ORDER BY id");
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', branch => 'dev')");
    FT_CHECK(cell(out, 1, 0) >= 5);
    floe__free(out);
    char *main_after = must(s, "SELECT snapshot_id FROM db.t.refs WHERE name = 'main'");
    FT_EQ_STR(main_after, main_before);
    char *dev_after = must(s, "SELECT * FROM db.t.branch_dev ORDER BY id");
    FT_EQ_STR(dev_after, dev_rows);
    out = must(s, "SELECT operation FROM db.t.snapshots s JOIN db.t.refs r ON s.snapshot_id = "
                  "r.snapshot_id WHERE r.name = 'dev'");
    FT_EQ_STR(out, "operation\nreplace\n");
    floe__free(out);
    char *err = NULL;
    FT_CHECK(run(s, "CALL local.system.rewrite_data_files(table => 'db.t', branch => 'nope')",
                 &err) == NULL);
    FT_CHECK(err && strstr(err, "Cannot use branch (does not exist): nope"));
    floe__free(err);
    floe__free(main_before);
    floe__free(main_after);
    floe__free(dev_rows);
    floe__free(dev_after);
    floe_sql_close(s);
}

/* ---------------------------------------------------------------- a concurrent delete */

static floe_sql_session *g_other;
static const char *g_stmt;
static int g_fired;

static void concurrent_hook(const char *step)
{
    if (strcmp(step, "swap") != 0 || g_fired || !g_other)
        return;
    g_fired = 1; /* before our compare-and-set: another writer commits first */
    floe_sql_session *o = g_other;
    g_other = NULL;
    exec_ok(o, g_stmt);
}

static void concurrent_case(const char *name, const char *mode, const char *expect)
{
    floe_sql_session *s = open_session(name);
    exec_ok(s, SETUP);
    char q[256];
    snprintf(q, sizeof q, "ALTER TABLE db.t SET TBLPROPERTIES ('write.delete.mode'='%s')", mode);
    exec_ok(s, q);
    for (int i = 0; i < 5; i++) {
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'v'), (%d, 'w')", 2 * i, 2 * i + 1);
        exec_ok(s, q);
    }
    floe_sql_open_options oo = FLOE_SQL_OPEN_OPTIONS_INIT;
    oo.warehouse = ft_tmp(name);
    floe_sql_session *other = NULL;
    FT_OK(floe_sql_open(&other, &oo));
    g_other = other;
    g_stmt = "DELETE FROM db.t WHERE id = 3";
    g_fired = 0;
    floe__table_set_step_hook(concurrent_hook);
    char *err = NULL;
    char *out = run(s,
                    "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                    "map('min-input-files', '2'))",
                    &err);
    floe__table_set_step_hook(NULL);
    FT_CHECK(g_fired == 1);
    if (out)
        fprintf(stderr, "    compaction succeeded: %s\n", out);
    FT_CHECK(out == NULL);
    FT_CHECK(err && strstr(err, expect));
    if (err && !strstr(err, expect))
        fprintf(stderr, "    got: %s\n", err);
    floe__free(err);
    floe__free(out);
    /* the deleted row stays deleted; the other rows are all there */
    out = must(s, "SELECT count(*), sum(id) FROM db.t");
    FT_EQ_STR(out, "count(*),sum(id)\n9,42\n");
    floe__free(out);
    out = must(s, "SELECT count(*) FROM db.t.snapshots WHERE operation = 'replace'");
    FT_EQ_INT(cell(out, 1, 0), 0);
    floe__free(out);
    /* run again: it compacts what is there now */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                  "map('min-input-files', '2'))");
    FT_CHECK(cell(out, 1, 0) > 0);
    floe__free(out);
    out = must(s, "SELECT count(*), sum(id) FROM db.t");
    FT_EQ_STR(out, "count(*),sum(id)\n9,42\n");
    floe__free(out);
    floe_sql_close(other);
    floe_sql_close(s);
}

static void test_concurrent_delete_file(void)
{
    /* copy-on-write: the file holding id 3 is removed meanwhile */
    concurrent_case("cc_cow", "copy-on-write",
                    "ValidationException: Missing required files to delete");
}

static void test_concurrent_position_delete(void)
{
    /* merge-on-read: a position delete for a rewritten file appears meanwhile */
    concurrent_case("cc_mor", "merge-on-read",
                    "ValidationException: Cannot commit, found new delete for replaced data file");
}

static void test_remove_dangling_deletes(void)
{
    floe_sql_session *s = open_session("dangling");
    exec_ok(s, SETUP);
    for (int i = 0; i < 4; i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'v'), (%d, 'w')", 2 * i, 2 * i + 1);
        exec_ok(s, q);
    }
    exec_ok(s, "DELETE FROM db.t WHERE id = 3");
    exec_ok(s, "UPDATE db.t SET s = 'u' WHERE id = 6");
    char *rows = must(s, "SELECT * FROM db.t ORDER BY id");
    char *out = must(s, "SELECT count(*) FROM db.t.delete_files");
    long long ndel = cell(out, 1, 0);
    FT_CHECK(ndel >= 2);
    floe__free(out);
    /* without the option the rewritten files' delete files stay */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                  "map('min-input-files', '2'))");
    FT_EQ_INT(cell(out, 1, 4), 0);
    floe__free(out);
    out = must(s, "SELECT count(*) FROM db.t.delete_files");
    FT_EQ_INT(cell(out, 1, 0), ndel);
    floe__free(out);
    /* with it (and nothing left to compact) they go, in a replace snapshot */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                  "map('min-input-files', '2', 'remove-dangling-deletes', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 0);
    FT_EQ_INT(cell(out, 1, 4), ndel);
    floe__free(out);
    out = must(s, "SELECT count(*) FROM db.t.delete_files");
    FT_EQ_STR(out, "count(*)\n0\n");
    floe__free(out);
    out = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(out, rows);
    floe__free(out);
    out = must(s, "SELECT summary['removed-delete-files'], summary['total-delete-files'] FROM "
                  "db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    char want[128];
    snprintf(want, sizeof want, "%lld,0\n", ndel);
    FT_CHECK(strstr(out, want) != NULL);
    floe__free(out);
    floe__free(rows);
    floe_sql_close(s);
}

/* ---------------------------------------------------------------- position deletes */

/* The first cell of a query's result. */
static long long count_of(floe_sql_session *s, const char *q)
{
    char *out = must(s, q);
    long long n = cell(out, 1, 0);
    floe__free(out);
    return n;
}

static long long sum_delete_bytes(floe_sql_session *s)
{
    return count_of(s, "SELECT coalesce(sum(file_size_in_bytes), 0) FROM db.t.delete_files");
}

static void test_rewrite_position_deletes(void)
{
    floe_sql_session *s = open_session("posdeletes");
    exec_ok(s, SETUP);
    for (int i = 0; i < 4; i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'v'), (%d, 'w')", 2 * i, 2 * i + 1);
        exec_ok(s, q);
    }
    static const int gone[] = {1, 2, 5, 6, 7};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(gone); i++) {
        char q[64];
        snprintf(q, sizeof q, "DELETE FROM db.t WHERE id = %d", gone[i]);
        exec_ok(s, q);
    }
    char *rows = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(rows, "id,s\n0,v\n3,w\n4,v\n");
    char *out = must(s, "SELECT count(*), count(DISTINCT partition) FROM db.t.delete_files");
    long long ndel = cell(out, 1, 0), nparts = cell(out, 1, 1);
    FT_EQ_INT(ndel, 5);
    floe__free(out);
    long long bytes = sum_delete_bytes(s);
    /* Java's option check (the runner is BIN-PACK) */
    char *err = NULL;
    FT_CHECK(run(s,
                 "CALL local.system.rewrite_position_delete_files(table => 'db.t', "
                 "options => map('bogus', '1'))",
                 &err) == NULL);
    FT_EQ_STR(err, "IllegalArgumentException: Cannot use options [bogus], they are not supported "
                   "by the action or the rewriter BIN-PACK");
    floe__free(err);
    /* fewer than min-input-files (5) per partition: nothing */
    out = must(s, "CALL local.system.rewrite_position_delete_files('db.t')");
    FT_EQ_STR(out, "rewritten_delete_files_count,added_delete_files_count,rewritten_bytes_count,"
                   "added_bytes_count\n0,0,0,0\n");
    floe__free(out);
    /* all of them, with write.delete.granularity partition: one new file per
     * partition (the default, file, is tested below), same rows */
    exec_ok(s, "ALTER TABLE db.t SET TBLPROPERTIES ('write.delete.granularity'='partition')");
    out = must(s, "CALL local.system.rewrite_position_delete_files(table => 'db.t', "
                  "options => map('rewrite-all', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 5);
    FT_EQ_INT(cell(out, 1, 1), nparts);
    FT_EQ_INT(cell(out, 1, 2), bytes);
    FT_EQ_INT(cell(out, 1, 3), sum_delete_bytes(s));
    floe__free(out);
    out = must(s, "SELECT count(*), sum(record_count) FROM db.t.delete_files");
    char want[64];
    snprintf(want, sizeof want, "count(*),sum(record_count)\n%lld,5\n", nparts);
    FT_EQ_STR(out, want);
    floe__free(out);
    out = must(s, "SELECT operation FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    FT_EQ_STR(out, "operation\nreplace\n");
    floe__free(out);
    out = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(out, rows);
    floe__free(out);
    /* compacting the data files leaves every delete dangling: a rewrite drops them all */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                  "map('rewrite-all', 'true'))");
    floe__free(out);
    out = must(s, "CALL local.system.rewrite_position_delete_files(table => 'db.t', "
                  "options => map('rewrite-all', 'true'))");
    snprintf(want, sizeof want, "%lld,0,", nparts);
    FT_CHECK(strstr(out, want) != NULL);
    FT_EQ_INT(cell(out, 1, 3), 0);
    floe__free(out);
    out = must(s, "SELECT count(*) FROM db.t.delete_files");
    FT_EQ_STR(out, "count(*)\n0\n");
    floe__free(out);
    out = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(out, rows);
    floe__free(out);
    floe__free(rows);
    floe_sql_close(s);
}

/* A live data file keeps its deletes, a rewritten one's go: one group
 * mixing both keeps exactly the live file's positions. */
static void test_rewrite_position_deletes_partly_dangling(void)
{
    floe_sql_session *s = open_session("posdeletes_partly");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, p int) USING iceberg "
               "PARTITIONED BY (p) TBLPROPERTIES ('write.delete.mode'='merge-on-read')");
    exec_ok(s, "INSERT INTO db.t VALUES (1, 0), (2, 0), (3, 0)");
    exec_ok(s, "INSERT INTO db.t VALUES (4, 0), (5, 0), (6, 0)");
    exec_ok(s, "INSERT INTO db.t VALUES (7, 1), (8, 1)");
    exec_ok(s, "DELETE FROM db.t WHERE id IN (1, 4)");
    exec_ok(s, "DELETE FROM db.t WHERE id IN (2, 5)");
    exec_ok(s, "DELETE FROM db.t WHERE id = 7");
    /* compact only partition 1's data file: its delete dangles */
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', where => 'p = 1', "
                        "options => map('rewrite-all', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 1);
    floe__free(out);
    char *rows = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(rows, "id,p\n3,0\n6,0\n8,1\n");
    /* where: only the deletes applying to p = 0 rows; each of the two
     * covers both data files, the new ones one data file each
     * (write.delete.granularity file, Spark's default) */
    out = must(s, "CALL local.system.rewrite_position_delete_files(table => 'db.t', where => "
                  "'p = 0', options => map('rewrite-all', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 2);
    FT_EQ_INT(cell(out, 1, 1), 2);
    floe__free(out);
    out = must(s, "SELECT count(*), sum(record_count) FROM db.t.delete_files");
    FT_EQ_STR(out, "count(*),sum(record_count)\n3,5\n");
    floe__free(out);
    /* the standalone procedure removes partition 1's dangling file */
    out = must(s, "CALL local.system.remove_dangling_deletes('db.t')");
    FT_EQ_STR(out, "removed_delete_files_count\n1\n");
    floe__free(out);
    out = must(s, "CALL local.system.remove_dangling_deletes(table => 'db.t')");
    FT_EQ_STR(out, "removed_delete_files_count\n0\n");
    floe__free(out);
    out = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(out, rows);
    floe__free(out);
    /* compact p = 0's first file only: the merged delete file is partly dangling */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', where => 'id < 4', "
                  "options => map('rewrite-all', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 1);
    floe__free(out);
    out = must(s, "CALL local.system.rewrite_position_delete_files(table => 'db.t', "
                  "options => map('rewrite-all', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 2);
    FT_EQ_INT(cell(out, 1, 1), 1);
    floe__free(out);
    out = must(s, "SELECT count(*), sum(record_count) FROM db.t.delete_files");
    FT_EQ_STR(out, "count(*),sum(record_count)\n1,2\n");
    floe__free(out);
    out = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(out, rows);
    floe__free(out);
    floe__free(rows);
    floe_sql_close(s);
}

/* A v2 table upgraded to v3: its position delete files become deletion
 * vectors (Java's testRewriteV2PositionDeletesToV3DVs), one per data file
 * holding every position that applies to it: those of a delete file
 * covering several data files, and of the DV a v3 delete wrote meanwhile,
 * which the new one replaces. A second call has nothing to do. */
static void test_rewrite_position_deletes_to_dvs(void)
{
    floe_sql_session *s = open_session("posdeletes_dvs");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, s string) USING iceberg "
               "TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read')");
    for (int i = 0; i < 4; i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'v'), (%d, 'w')", 2 * i, 2 * i + 1);
        exec_ok(s, q);
    }
    /* one file of positions in three data files, one of a fourth */
    exec_ok(s, "DELETE FROM db.t WHERE id IN (1, 2, 5)");
    exec_ok(s, "DELETE FROM db.t WHERE id = 6");
    char *out = must(s, "SELECT count(*), sum(record_count) FROM db.t.delete_files WHERE "
                        "file_format = 'PARQUET'");
    FT_EQ_STR(out, "count(*),sum(record_count)\n2,4\n");
    floe__free(out);
    exec_ok(s, "ALTER TABLE db.t SET TBLPROPERTIES ('format-version'='3')");
    /* v3: the DV of id 0's file carries id 1's position; the v2 file stays */
    exec_ok(s, "DELETE FROM db.t WHERE id = 0");
    out = must(s, "SELECT file_format, record_count FROM db.t.delete_files ORDER BY file_format, "
                  "record_count");
    FT_EQ_STR(out, "file_format,record_count\nPARQUET,1\nPARQUET,3\nPUFFIN,2\n");
    floe__free(out);
    char *rows = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(rows, "id,s\n3,w\n4,v\n7,w\n");
    out = must(s, "SELECT sum(CASE WHEN file_format = 'PUFFIN' THEN content_size_in_bytes ELSE "
                  "file_size_in_bytes END) FROM db.t.delete_files");
    long long in_bytes = cell(out, 1, 0);
    floe__free(out);
    /* Java's planner: two small files are too few without rewrite-all */
    out = must(s, "CALL local.system.rewrite_position_delete_files('db.t')");
    FT_EQ_STR(out, "rewritten_delete_files_count,added_delete_files_count,rewritten_bytes_count,"
                   "added_bytes_count\n0,0,0,0\n");
    floe__free(out);
    out = must(s, "CALL local.system.rewrite_position_delete_files(table => 'db.t', "
                  "options => map('rewrite-all', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 3); /* the two Parquet files and the replaced DV */
    FT_EQ_INT(cell(out, 1, 1), 4); /* a DV for each data file with deletes */
    FT_EQ_INT(cell(out, 1, 2), in_bytes);
    long long added_bytes = cell(out, 1, 3);
    floe__free(out);
    out = must(s, "SELECT file_format, count(*), count(DISTINCT referenced_data_file), "
                  "sum(record_count), sum(content_size_in_bytes), min(content_offset) >= 4 AS "
                  "past_magic FROM db.t.delete_files GROUP BY file_format");
    char want[256];
    snprintf(want, sizeof want,
             "file_format,count(*),count(DISTINCT referenced_data_file),sum(record_count),"
             "sum(content_size_in_bytes),past_magic\nPUFFIN,4,4,5,%lld,true\n",
             added_bytes);
    FT_EQ_STR(out, want);
    floe__free(out);
    out = must(s, "SELECT operation FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    FT_EQ_STR(out, "operation\nreplace\n");
    floe__free(out);
    out = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(out, rows);
    floe__free(out);
    /* only DVs left: nothing to do (Java: "v2 deletes ... have already been rewritten") */
    out = must(s, "CALL local.system.rewrite_position_delete_files(table => 'db.t', "
                  "options => map('rewrite-all', 'true'))");
    FT_EQ_STR(out, "rewritten_delete_files_count,added_delete_files_count,rewritten_bytes_count,"
                   "added_bytes_count\n0,0,0,0\n");
    floe__free(out);
    /* a later delete merges into the new DV */
    exec_ok(s, "DELETE FROM db.t WHERE id = 4");
    out = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(out, "id,s\n3,w\n7,w\n");
    floe__free(out);
    out = must(s, "SELECT count(*), count(DISTINCT referenced_data_file), sum(record_count) FROM "
                  "db.t.delete_files");
    FT_EQ_STR(out, "count(*),count(DISTINCT referenced_data_file),sum(record_count)\n4,4,6\n");
    floe__free(out);
    floe__free(rows);
    floe_sql_close(s);
}

/* ---------------------------------------------------------------- dangling deletion vectors */

/* Java's TestRewritePositionDeleteFilesAction tables: three files of
 * bucket(8, id) = one bucket, deletes by s merge into one DV per file. */
#define DV_SETUP                                                                                   \
    "CREATE NAMESPACE db; CREATE TABLE db.t (s string, id string) USING iceberg "                 \
    "PARTITIONED BY (bucket(8, id)) TBLPROPERTIES ('format-version'='3', "                         \
    "'write.update.mode'='merge-on-read', 'write.delete.mode'='merge-on-read', "                   \
    "'write.merge.mode'='merge-on-read');"                                                        \
    "INSERT INTO db.t VALUES ('foo', '1'), ('bar', '1');"                                          \
    "INSERT INTO db.t VALUES ('foo', '1'), ('bat', '1');"                                          \
    "INSERT INTO db.t VALUES ('bar', '1'), ('bat', '1')"

/* testRemoveDanglingDVsAfterCompaction: every data file rewritten, so
 * every DV goes with it, counted in removed_delete_files_count. */
static void test_dangling_dvs_after_compaction(void)
{
    floe_sql_session *s = open_session("dangling_dvs");
    exec_ok(s, DV_SETUP);
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.files"), 3);
    exec_ok(s, "DELETE FROM db.t WHERE s = 'foo'");
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.files"), 5);
    exec_ok(s, "DELETE FROM db.t WHERE s = 'bar'");
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.files"), 6);
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.data_files"), 3);
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.delete_files WHERE file_format = 'PUFFIN'"),
              3);
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                        "map('rewrite-all', 'true', 'remove-dangling-deletes', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 3); /* rewritten */
    FT_EQ_INT(cell(out, 1, 1), 1); /* added */
    FT_EQ_INT(cell(out, 1, 3), 0); /* failed */
    FT_EQ_INT(cell(out, 1, 4), 3); /* removed: every DV before */
    floe__free(out);
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.delete_files"), 0);
    out = must(s, "SELECT * FROM db.t ORDER BY s");
    FT_EQ_STR(out, "s,id\nbat,1\nbat,1\n");
    floe__free(out);
    floe_sql_close(s);
}

/* testValidDVsAreNotRemovedDuringDanglingDeletesRemoval: nothing is
 * compacted, and the DVs (of live files, in one Puffin file) stay. */
static void test_valid_dvs_not_removed(void)
{
    floe_sql_session *s = open_session("valid_dvs");
    exec_ok(s, DV_SETUP);
    exec_ok(s, "DELETE FROM db.t WHERE s = 'foo'");
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.files"), 5);
    const char *q = "SELECT file_path, content_offset, referenced_data_file, record_count FROM "
                    "db.t.delete_files ORDER BY referenced_data_file";
    char *before = must(s, q);
    FT_EQ_INT(count_of(s, "SELECT count(DISTINCT file_path) FROM db.t.delete_files"), 1);
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.delete_files"), 2);
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                        "map('remove-dangling-deletes', 'true', 'min-file-size-bytes', '0', "
                        "'delete-ratio-threshold', '1.0'))");
    FT_EQ_STR(out, "rewritten_data_files_count,added_data_files_count,rewritten_bytes_count,"
                   "failed_data_files_count,removed_delete_files_count\n0,0,0,0,0\n");
    floe__free(out);
    out = must(s, q);
    FT_EQ_STR(out, before);
    floe__free(out);
    out = must(s, "CALL local.system.remove_dangling_deletes('db.t')");
    FT_EQ_STR(out, "removed_delete_files_count\n0\n");
    floe__free(out);
    out = must(s, q);
    FT_EQ_STR(out, before);
    floe__free(out);
    floe__free(before);
    floe_sql_close(s);
}

/* A deletion vector is one blob of a Puffin file that may hold others: a
 * dangling DV next to a valid one in the same file goes, the valid one
 * stays (the DV is keyed by file and offset, not by file). floe's own
 * commits drop the DVs of the data files they remove (as Java's), so the
 * dangling one is written as another writer could leave it: a DV of a
 * data file the table does not have. */
static void test_dangling_dv_shares_puffin(void)
{
    floe_sql_session *s = open_session("dangling_dv_shared");
    exec_ok(s, DV_SETUP);
    exec_ok(s, "DELETE FROM db.t WHERE s = 'foo'"); /* DVs of the first two files */
    char *paths = must(s, "SELECT file_path, record_count FROM db.t.data_files WHERE "
                          "file_path NOT IN (SELECT referenced_data_file FROM db.t.delete_files)");
    char *third = strchr(paths, '\n') + 1;
    *strchr(third, ',') = '\0'; /* the third file: ('bar', 1), ('bat', 1) */
    floe_table *t = NULL;
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    FT_OK(floe_table_load(&t, floe_sql_session_catalog(s), "db.t", &to));
    floe_rowlevel *op = NULL;
    floe_rowlevel_options ro = FLOE_ROWLEVEL_OPTIONS_INIT;
    ro.kind = FLOE_ROWLEVEL_REWRITE;
    FT_OK(floe_rowlevel_new(&op, t, &ro));
    floe_value bucket;
    memset(&bucket, 0, sizeof bucket);
    bucket.type = FLOE_T_INT;
    char *b = must(s, "SELECT DISTINCT partition.id_bucket FROM db.t.data_files");
    bucket.v.i32 = (int32_t)cell(b, 1, 0);
    floe__free(b);
    floe_scan_file live = {0}, gone = {0};
    live.path = third;
    live.content = FLOE_FILE_DATA;
    live.record_count = 2;
    live.partition.n = 1;
    live.partition.values = &bucket;
    gone = live;
    gone.path = "/nowhere/data/gone.parquet";
    int64_t *p1 = floe__malloc(sizeof *p1), *p2 = floe__malloc(2 * sizeof *p2);
    p1[0] = 0; /* ('bar', 1) */
    p2[0] = 0, p2[1] = 1;
    FT_OK(floe__rowlevel_add_dv(op, &live, p1, 1));
    FT_OK(floe__rowlevel_add_dv(op, &gone, p2, 2));
    FT_OK(floe__rl_write_dvs(op));
    int64_t committed = -1;
    FT_OK(floe_rowlevel_commit(&committed, NULL, op));
    floe_rowlevel_free(op);
    floe_table_free(t);
    floe__free(paths);
    exec_ok(s, "REFRESH TABLE db.t");
    char *rows = must(s, "SELECT * FROM db.t ORDER BY s");
    FT_EQ_STR(rows, "s,id\nbar,1\nbat,1\nbat,1\n");
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.delete_files"), 4);
    FT_EQ_INT(count_of(s, "SELECT count(DISTINCT file_path) FROM db.t.delete_files"), 2);
    char *out = must(s, "CALL local.system.remove_dangling_deletes('db.t')");
    FT_EQ_STR(out, "removed_delete_files_count\n1\n");
    floe__free(out);
    out = must(s, "SELECT count(*), count(DISTINCT file_path), sum(record_count) FROM "
                  "db.t.delete_files WHERE referenced_data_file IN (SELECT file_path FROM "
                  "db.t.data_files)");
    FT_EQ_STR(out, "count(*),count(DISTINCT file_path),sum(record_count)\n3,2,3\n");
    floe__free(out);
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.delete_files"), 3);
    out = must(s, "SELECT * FROM db.t ORDER BY s");
    FT_EQ_STR(out, rows);
    floe__free(out);
    out = must(s, "CALL local.system.remove_dangling_deletes('db.t')");
    FT_EQ_STR(out, "removed_delete_files_count\n0\n");
    floe__free(out);
    floe__free(rows);
    floe_sql_close(s);
}

/* A copy-on-write delete that removes data files with DVs removes their DVs
 * too (Java's removeDanglingDeletesFor), and only theirs. */
static void test_cow_delete_drops_dvs(void)
{
    floe_sql_session *s = open_session("cow_dvs");
    exec_ok(s, DV_SETUP);
    exec_ok(s, "DELETE FROM db.t WHERE s = 'foo'");
    exec_ok(s, "DELETE FROM db.t WHERE s = 'bar'");
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.delete_files"), 3);
    exec_ok(s, "ALTER TABLE db.t SET TBLPROPERTIES ('write.delete.mode'='copy-on-write')");
    /* removes the two files holding 'bat' (the first holds no live row) */
    exec_ok(s, "DELETE FROM db.t WHERE s = 'bat'");
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.data_files"), 1);
    char *out = must(s, "SELECT count(*) FROM db.t.delete_files WHERE referenced_data_file IN "
                        "(SELECT file_path FROM db.t.data_files)");
    FT_EQ_STR(out, "count(*)\n1\n");
    floe__free(out);
    FT_EQ_INT(count_of(s, "SELECT count(*) FROM db.t.delete_files"), 1);
    out = must(s, "SELECT summary['removed-dvs'], summary['total-delete-files'] FROM "
                  "db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    FT_EQ_STR(out, "summary['removed-dvs'],summary['total-delete-files']\n2,1\n");
    floe__free(out);
    out = must(s, "SELECT count(*) FROM db.t");
    FT_EQ_STR(out, "count(*)\n0\n");
    floe__free(out);
    out = must(s, "CALL local.system.remove_dangling_deletes('db.t')");
    FT_EQ_STR(out, "removed_delete_files_count\n0\n");
    floe__free(out);
    floe_sql_close(s);
}

/* ---------------------------------------------------------------- expiry under faults */

static floe_buf g_files;

static int collect_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_F)
        floe__buf_printf(&g_files, "%s\n", path);
    return 0;
}

/* Every regular file under `dir`, one per line (caller frees). */
static char *list_files(const char *dir)
{
    floe__buf_clear(&g_files);
    nftw(dir, collect_file, 16, FTW_PHYS);
    char *out = floe__strdup(g_files.ptr ? g_files.ptr : "");
    floe__buf_free(&g_files);
    return out;
}

/* A history whose expiry deletes files: appends, a tag on an old snapshot
 * (its manifests stay retained), a manifest rewrite, a merge-on-read
 * delete, a compaction. */
static floe_sql_session *expiry_table(const char *name)
{
    floe_sql_session *s = open_session(name);
    exec_ok(s, SETUP);
    for (int i = 0; i < 3; i++) {
        char q[96];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'a'), (%d, 'b')", 2 * i, 2 * i + 1);
        exec_ok(s, q);
    }
    exec_ok(s, "ALTER TABLE db.t CREATE TAG old");
    /* manifests only expired snapshots list, naming files the tag keeps */
    floe__free(must(s, "CALL local.system.rewrite_manifests('db.t')"));
    exec_ok(s, "DELETE FROM db.t WHERE id = 2");
    exec_ok(s, "INSERT INTO db.t VALUES (10, 'c')");
    floe__free(must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                       "map('rewrite-all', 'true'))"));
    return s;
}

/* Fail each I/O step of an expiry in turn (a read of a retained manifest
 * list or manifest among them): an expiry that fails deletes nothing, and
 * whatever happens, main and the tag read the same rows. */
static void test_expire_io_faults(void)
{
    floe_sql_session *s = expiry_table("expire_faults");
    const char *wh = ft_tmp("expire_faults");
    char *main_rows = must(s, "SELECT * FROM db.t ORDER BY id, s");
    char *tag_rows = must(s, "SELECT * FROM db.t VERSION AS OF 'old' ORDER BY id, s");
    floe_fileio *local = NULL, *io = NULL;
    FT_OK(floe_fileio_local_new(&local));
    floe_fault_options fo = FLOE_FAULT_OPTIONS_INIT;
    FT_OK(floe__fileio_fault_new(&io, local, &fo));
    floe_maint_expire_options eo = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    eo.has_older_than = true;
    eo.older_than_ms = floe__now_ms() + 365LL * 86400000; /* however slow the loop (ASan) */
    eo.retain_last = 1;
    eo.io = io;
    floe_maint_expire_result base;
    FT_OK(floe_maint_expire_snapshots(&base, floe_sql_session_catalog(s), "db.t", &eo));
    long steps = floe__fileio_fault_count(io);
    int64_t base_deleted = base.deleted_data_files_count + base.deleted_manifest_files_count +
                           base.deleted_manifest_lists_count +
                           base.deleted_position_delete_files_count;
    FT_CHECK(base.deleted_data_files_count > 0 && base.deleted_manifest_lists_count > 0);
    FT_CHECK(steps > 5);
    floe_sql_close(s);
    int failed_runs = 0;
    for (long n = 1; n <= steps; n++) {
        char name[64];
        snprintf(name, sizeof name, "expire_faults_%ld", n);
        s = expiry_table(name);
        const char *dir = ft_tmp(name);
        char *before = list_files(dir);
        fo.fail_nth = n;
        floe__fileio_fault_set(io, &fo);
        floe_maint_expire_result r;
        int rc = floe_maint_expire_snapshots(&r, floe_sql_session_catalog(s), "db.t", &eo);
        floe_error_clear();
        if (rc < 0) {
            failed_runs++;
            /* nothing that existed before is gone */
            char *save = NULL;
            for (char *f = strtok_r(before, "\n", &save); f; f = strtok_r(NULL, "\n", &save)) {
                if (access(f, F_OK) != 0)
                    fprintf(stderr, "    step %ld failed the expiry, yet %s was deleted\n", n, f);
                FT_CHECK(access(f, F_OK) == 0);
            }
        } else {
            int64_t deleted = r.deleted_data_files_count + r.deleted_manifest_files_count +
                              r.deleted_manifest_lists_count +
                              r.deleted_position_delete_files_count;
            FT_EQ_INT(deleted + r.failed_deletes_count, base_deleted);
        }
        char *m = must(s, "SELECT * FROM db.t ORDER BY id, s");
        char *tg = must(s, "SELECT * FROM db.t VERSION AS OF 'old' ORDER BY id, s");
        FT_EQ_STR(m, main_rows);
        FT_EQ_STR(tg, tag_rows);
        floe__free(m);
        floe__free(tg);
        floe__free(before);
        floe_sql_close(s);
    }
    (void)wh;
    FT_CHECK(failed_runs > 0);
    floe_fileio_free(io);
    floe__free(main_rows);
    floe__free(tag_rows);
}

/* expire_snapshots(dry_run => true): a reason per file, nothing committed;
 * report_location: the same report as CSV. */
static void test_expire_reasons(void)
{
    floe_sql_session *s = expiry_table("expire_reasons");
    char *first = must(s, "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at LIMIT 1");
    char *tag = must(s, "SELECT snapshot_id FROM db.t.refs WHERE name = 'old'");
    char *nsnap = must(s, "SELECT count(*) FROM db.t.snapshots");
    const char *call = "CALL local.system.expire_snapshots(table => 'db.t', older_than => "
                       "TIMESTAMP '2099-01-01 00:00:00', retain_last => 1, dry_run => true)";
    char *out = must(s, call);
    FT_CHECK(strncmp(out, "status,kind,path,reason\n", 24) == 0);
    char want[256];
    /* the first snapshot's manifest list goes, because that snapshot expires */
    snprintf(want, sizeof want, "would delete,manifest_list,");
    FT_CHECK(strstr(out, want) != NULL);
    snprintf(want, sizeof want, ",expired snapshot %lld\n", cell(first, 1, 0));
    FT_CHECK(strstr(out, want) != NULL);
    /* the tag's data files stay, for the tag */
    snprintf(want, sizeof want, ",kept: referenced by ref old (snapshot %lld)\n", cell(tag, 1, 0));
    FT_CHECK(strstr(out, want) != NULL);
    FT_CHECK(strstr(out, "kept,data_file,") != NULL);
    FT_CHECK(strstr(out, "would delete,data_file,") != NULL);
    floe__free(out);
    out = must(s, "SELECT count(*) FROM db.t.snapshots");
    FT_EQ_STR(out, nsnap);
    floe__free(out);
    /* the real run writes its report first */
    char path[4200];
    snprintf(path, sizeof path, "%s/report.csv", ft_tmp("expire_reasons"));
    char q[4400];
    snprintf(q, sizeof q,
             "CALL local.system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP "
             "'2099-01-01 00:00:00', retain_last => 1, report_location => '%s')",
             path);
    out = must(s, q);
    FT_CHECK(cell(out, 1, 0) > 0);
    floe__free(out);
    FILE *f = fopen(path, "r");
    FT_ASSERT(f != NULL);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    FT_CHECK(strncmp(buf, "status,kind,path,reason\n", 24) == 0);
    FT_CHECK(strstr(buf, "\ndelete,data_file,") != NULL);
    FT_CHECK(strstr(buf, "\nkept,data_file,") != NULL);
    snprintf(want, sizeof want, ",expired snapshot %lld\n", cell(first, 1, 0));
    FT_CHECK(strstr(buf, want) != NULL);
    floe__free(first);
    floe__free(tag);
    floe__free(nsnap);
    floe_sql_close(s);
}

/* ---------------------------------------------------------------- rewrites under faults */

static void fault_table(floe_sql_session *s)
{
    exec_ok(s, SETUP);
    for (int i = 0; i < 4; i++) {
        char q[96];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'a'), (%d, 'b')", 2 * i, 2 * i + 1);
        exec_ok(s, q);
    }
    exec_ok(s, "DELETE FROM db.t WHERE id = 3");
}

/* Run the rewrite `which` (0 data files, 1 manifests) through `io`. */
static int run_rewrite(floe_sql_session *s, int which, floe_fileio *io)
{
    if (which == 0) {
        floe_props opts = FLOE_PROPS_INIT;
        floe__props_set(&opts, "rewrite-all", "true");
        floe_maint_rewrite_data_files_options o = FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_INIT;
        o.io = io;
        o.options = &opts;
        floe_maint_rewrite_data_files_result r;
        int rc = floe_maint_rewrite_data_files(&r, floe_sql_session_catalog(s), "db.t", &o);
        floe__props_free(&opts);
        return rc;
    }
    floe_maint_rewrite_manifests_options o = FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_INIT;
    o.io = io;
    floe_maint_rewrite_manifests_result r;
    return floe_maint_rewrite_manifests(&r, floe_sql_session_catalog(s), "db.t", &o);
}

/* Fail (after = false) or perform-then-fail (after = true: a crash right
 * after the step) each I/O step of rewrite_data_files and
 * rewrite_manifests in turn: afterwards every snapshot there was reads the
 * rows it read (nothing another snapshot needs is gone), the head reads
 * the same rows, and at most one new snapshot exists. */
static void test_rewrite_io_faults(void)
{
    floe_fileio *local = NULL, *io = NULL;
    FT_OK(floe_fileio_local_new(&local));
    floe_fault_options fo = FLOE_FAULT_OPTIONS_INIT;
    FT_OK(floe__fileio_fault_new(&io, local, &fo));
    for (int which = 0; which < 2; which++) {
        char name[64];
        snprintf(name, sizeof name, "rewrite_faults_%d", which);
        floe_sql_session *s = open_session(name);
        fault_table(s);
        fo.fail_nth = 0;
        fo.after = false;
        floe__fileio_fault_set(io, &fo);
        FT_OK(run_rewrite(s, which, io));
        long steps = floe__fileio_fault_count(io);
        FT_CHECK(steps > 5);
        floe_sql_close(s);
        int failures = 0;
        for (int after = 0; after < 2; after++)
            for (long n = 1; n <= steps; n++) {
                snprintf(name, sizeof name, "rewrite_faults_%d_%d_%ld", which, after, n);
                s = open_session(name);
                fault_table(s);
                char *before = read_everything(s);
                char *head = must(s, "SELECT * FROM db.t ORDER BY id, s");
                char *nsnap = must(s, "SELECT count(*) FROM db.t.snapshots");
                fo.fail_nth = n;
                fo.after = after;
                floe__fileio_fault_set(io, &fo);
                int rc = run_rewrite(s, which, io);
                floe_error_clear();
                failures += rc < 0;
                floe_sql_close(s);
                s = open_session(name); /* a fresh reader */
                char *all = read_everything(s);
                if (strncmp(all, before, strlen(before)) != 0)
                    fprintf(stderr, "    %s step %ld (after=%d) changed an old snapshot\n",
                            which ? "rewrite_manifests" : "rewrite_data_files", n, after);
                FT_CHECK(strncmp(all, before, strlen(before)) == 0);
                char *now = must(s, "SELECT * FROM db.t ORDER BY id, s");
                FT_EQ_STR(now, head);
                char *ns = must(s, "SELECT count(*) FROM db.t.snapshots");
                FT_CHECK(cell(ns, 1, 0) == cell(nsnap, 1, 0) ||
                         cell(ns, 1, 0) == cell(nsnap, 1, 0) + 1);
                floe__free(ns);
                floe__free(now);
                floe__free(all);
                floe__free(before);
                floe__free(head);
                floe__free(nsnap);
                floe_sql_close(s);
            }
        FT_CHECK(failures > 0);
    }
    floe_fileio_free(io);
}

/* ---------------------------------------------------------------- rewrite_manifests */

static void test_rewrite_manifests(void)
{
    floe_sql_session *s = open_session("manifests");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, s int) USING iceberg "
               "PARTITIONED BY (s) TBLPROPERTIES ('write.delete.mode'='merge-on-read')");
    for (int i = 0; i < 6; i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 0), (%d, 1), (%d, 2)", 3 * i, 3 * i + 1,
                 3 * i + 2);
        exec_ok(s, q);
    }
    exec_ok(s, "DELETE FROM db.t WHERE id = 4");
    exec_ok(s, "DELETE FROM db.t WHERE id = 5");
    char *before = read_everything(s);
    char *out =
        must(s, "SELECT content, count(*) FROM db.t.manifests GROUP BY content ORDER BY content");
    FT_EQ_STR(out, "content,count(*)\n0,6\n1,2\n");
    floe__free(out);
    /* a target of about two manifests' bytes: 6 data manifests of ~7 KB
     * become ceil(43 KB / 15 KB) = 3, each one partition (6 files each);
     * the 2 delete manifests become 1 (Java's arithmetic) */
    exec_ok(s, "ALTER TABLE db.t SET TBLPROPERTIES ('commit.manifest.target-size-bytes'='15000')");
    out = must(s, "CALL local.system.rewrite_manifests('db.t')");
    FT_EQ_STR(out, "rewritten_manifests_count,added_manifests_count\n8,4\n");
    floe__free(out);
    out = must(s, "SELECT operation FROM db.t.snapshots ORDER BY committed_at DESC LIMIT 1");
    FT_EQ_STR(out, "operation\nreplace\n");
    floe__free(out);
    /* clustered: no data manifest spans two partitions */
    out = must(s, "SELECT count(*) FROM db.t.manifests WHERE content = 0 AND "
                  "partition_summaries[0].lower_bound <> partition_summaries[0].upper_bound");
    FT_EQ_STR(out, "count(*)\n0\n");
    floe__free(out);
    char *after = read_everything(s);
    FT_CHECK(strncmp(after, before, strlen(before)) == 0);
    /* the new head reads the old head's rows */
    FT_CHECK(strstr(after, "== ") != NULL);
    floe__free(after);
    floe__free(before);
    /* the default target (8 MiB): the 3 data manifests become 1; the one
     * delete manifest stays */
    exec_ok(s, "ALTER TABLE db.t UNSET TBLPROPERTIES ('commit.manifest.target-size-bytes')");
    out = must(s, "CALL local.system.rewrite_manifests(table => 'db.t', use_caching => false)");
    FT_EQ_STR(out, "rewritten_manifests_count,added_manifests_count\n3,1\n");
    floe__free(out);
    out = must(s, "CALL local.system.rewrite_manifests('db.t')");
    FT_EQ_STR(out, "rewritten_manifests_count,added_manifests_count\n0,0\n");
    floe__free(out);
    out = must(s, "SELECT count(*), sum(id) FROM db.t");
    FT_EQ_STR(out, "count(*),sum(id)\n16,144\n");
    floe__free(out);
    char *err = NULL;
    FT_CHECK(run(s, "CALL local.system.rewrite_manifests(table => 'db.t', spec_id => 7)", &err) ==
             NULL);
    FT_CHECK(err && strstr(err, "Cannot find partition spec with ID 7"));
    floe__free(err);
    floe_sql_close(s);
}

/* ---------------------------------------------------------------- random histories */

static void test_random_histories(void)
{
    unsigned seed = 20261202;
    for (int round = 0; round < 5; round++) {
        char name[32];
        snprintf(name, sizeof name, "random%d", round);
        floe_sql_session *s = open_session(name);
        /* rounds 3 and 4: format v3 (deletion vectors, row lineage kept by
         * compaction and manifest rewrites) */
        bool v3 = round >= 3;
        row_cols = v3 ? "id, s, _row_id, _last_updated_sequence_number" : "*";
        exec_ok(s, SETUP);
        if (v3)
            exec_ok(s, "ALTER TABLE db.t SET TBLPROPERTIES ('format-version'='3')");
        exec_ok(s, "INSERT INTO db.t VALUES (0, 'seed')");
        int next = 1, branches = 0, tags = 0;
        for (int step = 0; step < 24; step++) {
            char q[256];
            unsigned r = (seed = seed * 1103515245u + 12345u) >> 16;
            const char *target = branches && (r & 16) ? "db.t.branch_b0" : "db.t";
            switch (r % 8) {
            case 0:
            case 1:
            case 2:
                snprintf(q, sizeof q, "INSERT INTO %s VALUES (%d, 'r%u'), (%d, 'q')", target, next,
                         r % 97, next + 1);
                next += 2;
                break;
            case 3:
                snprintf(q, sizeof q, "DELETE FROM %s WHERE id %% 7 = %u", target, r % 7);
                break;
            case 4:
                snprintf(q, sizeof q, "UPDATE %s SET s = 'u%u' WHERE id %% 5 = %u", target, r % 13,
                         r % 5);
                break;
            case 5:
                if (branches == 0) {
                    snprintf(q, sizeof q, "ALTER TABLE db.t CREATE BRANCH b0");
                    branches++;
                } else {
                    snprintf(q, sizeof q, "ALTER TABLE db.t CREATE TAG tag%d", tags++);
                }
                break;
            case 6: snprintf(q, sizeof q, "CALL local.system.rewrite_manifests('db.t')"); break;
            default:
                snprintf(q, sizeof q,
                         "CALL local.system.rewrite_data_files(table => 'db.t'%s, options => "
                         "map('min-input-files', '2'))",
                         strcmp(target, "db.t") ? ", branch => 'b0'" : "");
                break;
            }
            char *before = read_everything(s);
            exec_ok(s, q);
            if (r % 8 >= 6) {
                /* compaction: the old snapshots read as before, the new head as the old */
                char *after = read_everything(s);
                FT_CHECK(strncmp(after, before, strlen(before)) == 0);
                floe__free(after);
            }
            floe__free(before);
        }
        /* a final compaction of each branch, all files */
        char *before = read_everything(s);
        char hq[160];
        snprintf(hq, sizeof hq, "SELECT %s FROM db.t ORDER BY id, s", row_cols);
        char *mh = must(s, hq);
        exec_ok(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                   "map('rewrite-all', 'true'))");
        char *after = read_everything(s);
        FT_CHECK(strncmp(after, before, strlen(before)) == 0);
        char *mh2 = must(s, hq);
        FT_EQ_STR(mh2, mh);
        floe__free(before);
        floe__free(after);
        floe__free(mh);
        floe__free(mh2);
        floe_sql_close(s);
    }
    row_cols = "*";
}

/* Rows of the table in the order the (single) data file holds them. */
static char *physical(floe_sql_session *s, const char *cols)
{
    char *n = must(s, "SELECT count(*) FROM db.t.data_files");
    FT_EQ_STR(n, "count(*)\n1\n");
    floe__free(n);
    char q[128];
    snprintf(q, sizeof q, "SELECT %s FROM db.t", cols);
    return must(s, q);
}

static void test_sort_strategy(void)
{
    floe_sql_session *s = open_session("sort");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, s string) USING iceberg");
    static const int ids[] = {5, 1, 9, 3, 7, 2};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(ids); i++) {
        char q[128];
        snprintf(q, sizeof q, "INSERT INTO db.t VALUES (%d, 'v%d'), (NULL, 'n%zu')", ids[i], ids[i],
                 i);
        exec_ok(s, q);
    }
    exec_ok(s, "DELETE FROM db.t WHERE s IN ('n1', 'n2', 'n3', 'n4', 'n5')");
    char *files = must(s, "SELECT count(*) FROM db.t.data_files");
    long long nfiles = cell(files, 1, 0);
    floe__free(files);
    FT_CHECK(nfiles >= 2);
    /* an explicit order: id DESC NULLS LAST */
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', sort_order => "
                        "'id DESC NULLS LAST', options => map('min-input-files', '2'))");
    FT_EQ_INT(cell(out, 1, 0), nfiles);
    FT_EQ_INT(cell(out, 1, 1), 1);
    floe__free(out);
    out = physical(s, "id"); /* CSV: a null is empty */
    FT_EQ_STR(out, "id\n9\n7\n5\n3\n2\n1\n\n");
    floe__free(out);
    /* no table order is id DESC NULLS LAST: marked unsorted (Java) */
    out = must(s, "SELECT sort_order_id FROM db.t.data_files");
    FT_EQ_STR(out, "sort_order_id\n0\n");
    floe__free(out);
    /* the table's order (strategy sort without sort_order): s ASC */
    exec_ok(s, "ALTER TABLE db.t WRITE ORDERED BY s");
    exec_ok(s, "INSERT INTO db.t VALUES (0, 'a')");
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', strategy => 'sort', "
                  "options => map('rewrite-all', 'true'))");
    FT_EQ_INT(cell(out, 1, 0), 2);
    FT_EQ_INT(cell(out, 1, 1), 1);
    floe__free(out);
    out = physical(s, "s");
    FT_EQ_STR(out, "s\na\nn0\nv1\nv2\nv3\nv5\nv7\nv9\n");
    floe__free(out);
    /* the table's order: its id on the output file */
    out = must(s, "SELECT sort_order_id FROM db.t.data_files");
    FT_EQ_STR(out, "sort_order_id\n1\n");
    floe__free(out);
    /* a transform term, parenthesized list */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', sort_order => "
                  "'(truncate(1, s) DESC, id ASC NULLS FIRST)', "
                  "options => map('rewrite-all', 'true'))");
    floe__free(out);
    out = physical(s, "id");
    FT_EQ_STR(out, "id\n1\n2\n3\n5\n7\n9\n\n0\n");
    floe__free(out);
    floe_sql_close(s);
}

static void test_sort_errors(void)
{
    floe_sql_session *s = open_session("sort_errors");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, x int, y int, p int) USING "
               "iceberg PARTITIONED BY (p); INSERT INTO db.t VALUES (1, 1, 1, 0)");
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"strategy => 'sort'", "IllegalArgumentException: Cannot sort data without a valid sort "
                               "order, table 'db.t' is unsorted and no sort order is provided"},
        {"strategy => 'binpack', sort_order => 'id'",
         "IllegalArgumentException: Cannot set rewrite mode, it has already been set to BIN-PACK"},
        {"sort_order => 'id,zorder(x,y)'", "IllegalArgumentException: Cannot mix identity sort "
                                           "columns and a Zorder sort expression: id,zorder(x,y)"},
        {"sort_order => 'id DESC NULLS SOMETIMES'",
         "IllegalArgumentException: Unable to parse sortOrder: id DESC NULLS SOMETIMES"},
        {"sort_order => 'nope'", "IllegalArgumentException: Cannot find field 'nope' in struct: "
                                 "struct<1: id: optional long, 2: x: optional int, 3: y: "
                                 "optional int, 4: p: optional int>"},
        {"sort_order => 'zorder(x, nope)'",
         "IllegalArgumentException: Cannot find column 'nope' in table schema (case sensitive = "
         "false): struct<1: id: optional long, 2: x: optional int, 3: y: optional int, 4: p: "
         "optional int>"},
        {"sort_order => 'zorder(p)'", "IllegalArgumentException: Cannot ZOrder, all columns "
                                      "provided were identity partition columns and cannot be "
                                      "used"},
        {"sort_order => 'id', options => map('max-output-size', '3')",
         "IllegalArgumentException: Cannot use options [max-output-size], they are not supported "
         "by the action or the rewriter SORT"},
        {"sort_order => 'zorder(x)', options => map('var-length-contribution', '0')",
         "IllegalArgumentException: Cannot use less than 1 byte for variable length types with "
         "ZOrder, 'var-length-contribution' was set to 0"},
        {"sort_order => 'zorder(x)', options => map('max-output-size', '0')",
         "IllegalArgumentException: Cannot have the interleaved ZOrder value use less than 1 "
         "byte, 'max-output-size' was set to 0"},
        {"sort_order => 'id', options => map('compression-factor', '0')",
         "IllegalArgumentException: 'compression-factor' is set to 0 but must be > 0"},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(cases); i++) {
        char q[512], *err = NULL;
        snprintf(q, sizeof q, "CALL local.system.rewrite_data_files(table => 'db.t', %s)",
                 cases[i].args);
        FT_CHECK(run(s, q, &err) == NULL);
        if (!err || strcmp(err, cases[i].want) != 0)
            fprintf(stderr, "    %s\n    got  %s\n    want %s\n", q, err ? err : "(ok)",
                    cases[i].want);
        FT_CHECK(err && strcmp(err, cases[i].want) == 0);
        floe__free(err);
    }
    floe_sql_close(s);
}

/* Morton order of small non-negative (x, y), x's bit first at each level:
 * what Java's interleaving gives for ints in [0, 4) (both sign bits flip
 * to 1 and every higher bit is 0). */
static int morton(int x, int y)
{
    return ((x >> 1 & 1) << 3) | ((y >> 1 & 1) << 2) | ((x & 1) << 1) | (y & 1);
}

static void test_zorder(void)
{
    floe_sql_session *s = open_session("zorder");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (x int, y int, s string) USING iceberg");
    /* the 16 points of a 4x4 grid in a scrambled order, 4 files, and x = -1 */
    int order[16];
    for (int i = 0; i < 16; i++)
        order[i] = (i * 7 + 3) % 16;
    for (int f = 0; f < 4; f++) {
        floe_buf q = FLOE_BUF_INIT;
        floe__buf_printf(&q, "INSERT INTO db.t VALUES ");
        for (int k = 0; k < 4; k++) {
            int pt = order[f * 4 + k];
            floe__buf_printf(&q, "%s(%d, %d, 'p')", k ? ", " : "", pt / 4, pt % 4);
        }
        exec_ok(s, q.ptr);
        floe__buf_free(&q);
    }
    exec_ok(s, "INSERT INTO db.t VALUES (-1, 2, 'n'), (-1, 0, 'n')");
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', sort_order => "
                        "'zorder(x, y)', options => map('min-input-files', '2'))");
    FT_EQ_INT(cell(out, 1, 0), 5);
    FT_EQ_INT(cell(out, 1, 1), 1);
    floe__free(out);
    /* expected: x = -1 first (its sign bit flips to 0), by y; then Morton */
    floe_buf want = FLOE_BUF_INIT;
    floe__buf_printf(&want, "x,y\n-1,0\n-1,2\n");
    for (int m = 0; m < 16; m++)
        for (int x = 0; x < 4; x++)
            for (int y = 0; y < 4; y++)
                if (morton(x, y) == m)
                    floe__buf_printf(&want, "%d,%d\n", x, y);
    out = physical(s, "x, y");
    FT_EQ_STR(out, want.ptr);
    floe__free(out);
    floe__buf_free(&want);
    floe_sql_close(s);
}

/* Format v3: deletion vectors applied while rewriting and removed with
 * their data files; every row keeps its _row_id and
 * _last_updated_sequence_number (written into the new files); the replace
 * snapshot takes row ids for its new files as Java's does (added-rows). */
static void test_v3_lineage_and_dvs(void)
{
    floe_sql_session *s = open_session("v3");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, s string) USING iceberg "
               "PARTITIONED BY (bucket(2, id)) TBLPROPERTIES ('format-version'='3', "
               "'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')");
    insert_pairs(s);
    exec_ok(s, "DELETE FROM db.t WHERE id IN (4, 9)");
    char *dvs = must(s, "SELECT count(*) FROM db.t.delete_files WHERE file_format = 'PUFFIN'");
    long long ndvs = cell(dvs, 1, 0);
    floe__free(dvs);
    FT_CHECK(ndvs >= 1);
    const char *q = "SELECT id, s, _row_id, _last_updated_sequence_number FROM db.t ORDER BY id";
    char *before = must(s, q);
    char *all_before = read_everything(s);
    floe_table *t = NULL;
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    FT_CHECK(floe_table_load(&t, floe_sql_session_catalog(s), "db.t", &to) == 0);
    int64_t next_before = t ? t->metadata->next_row_id : -1;
    floe_table_free(t);
    char *out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                        "map('min-input-files', '2'))");
    FT_EQ_INT(cell(out, 1, 1), 2);
    FT_EQ_INT(cell(out, 1, 4), ndvs); /* the DVs of the rewritten files */
    floe__free(out);
    char *after = must(s, q);
    FT_EQ_STR(after, before);
    FT_CHECK(strstr(after, "\n4,") == NULL && strstr(after, "\n9,") == NULL);
    char *all_after = read_everything(s);
    FT_CHECK(strncmp(all_after, all_before, strlen(all_before)) == 0);
    out = must(s, "SELECT count(*) FROM db.t.delete_files");
    FT_EQ_STR(out, "count(*)\n0\n");
    floe__free(out);
    /* the replace snapshot: first-row-id = the old next-row-id, added-rows =
     * the rows of its new files (10) */
    t = NULL;
    FT_CHECK(floe_table_load(&t, floe_sql_session_catalog(s), "db.t", &to) == 0);
    if (t) {
        const floe_snapshot *h =
            floe__metadata_snapshot(t->metadata, t->metadata->current_snapshot_id);
        FT_CHECK(h && h->has_first_row_id && h->first_row_id == next_before);
        FT_CHECK(h && h->has_added_rows && h->added_rows == 10);
        FT_EQ_INT(t->metadata->next_row_id, next_before + 10);
    }
    floe_table_free(t);
    /* again (every file): the lineage survives a second rewrite */
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                  "map('rewrite-all', 'true'))");
    floe__free(out);
    char *again = must(s, q);
    FT_EQ_STR(again, before);
    /* a new row gets a fresh id, the old ones keep theirs */
    exec_ok(s, "INSERT INTO db.t VALUES (100, 'new')");
    out = must(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
                  "map('rewrite-all', 'true'))");
    floe__free(out);
    char *last = must(s, q);
    FT_CHECK(strncmp(last, before, strlen(before)) == 0);
    FT_CHECK(strstr(last, "\n100,new,") != NULL);
    floe__free(last);
    floe__free(again);
    floe__free(after);
    floe__free(before);
    floe__free(all_before);
    floe__free(all_after);
    floe_sql_close(s);
}

/* The schema and partition-spec ids of the table's metadata, as text. */
static char *schemas_specs(floe_sql_session *s)
{
    floe_table *t = NULL;
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    FT_CHECK(floe_table_load(&t, floe_sql_session_catalog(s), "db.t", &to) == 0);
    floe_buf b = FLOE_BUF_INIT;
    floe__buf_puts(&b, "schemas");
    for (size_t i = 0; t && i < t->metadata->nschemas; i++)
        floe__buf_printf(&b, " %d", (int)t->metadata->schemas[i]->schema_id);
    floe__buf_puts(&b, " specs");
    for (size_t i = 0; t && i < t->metadata->nspecs; i++)
        floe__buf_printf(&b, " %d", (int)t->metadata->specs[i]->spec_id);
    floe_table_free(t);
    return floe__buf_detach(&b);
}

/* expire_snapshots(clean_expired_metadata => true): the schemas and
 * partition specs no retained snapshot uses go (Java 1.11), never the
 * current ones; without it they stay. */
static void test_clean_expired_metadata(void)
{
    floe_sql_session *s = open_session("clean_meta");
    exec_ok(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint, s string) USING iceberg;"
               "INSERT INTO db.t VALUES (1, 'a');"
               "ALTER TABLE db.t ADD COLUMN x int;"
               "INSERT INTO db.t VALUES (2, 'b', 2);"
               "ALTER TABLE db.t ADD PARTITION FIELD bucket(2, id);"
               "INSERT INTO db.t VALUES (3, 'c', 3)");
    const char *expire = "CALL local.system.expire_snapshots(table => 'db.t', older_than => "
                         "TIMESTAMP '2999-01-01 00:00:00', retain_last => 1%s)";
    char q[512];
    /* spec 0's files are still live: only schema 0 can go */
    snprintf(q, sizeof q, expire, "");
    exec_ok(s, q);
    char *got = schemas_specs(s);
    FT_EQ_STR(got, "schemas 0 1 specs 0 1");
    floe__free(got);
    snprintf(q, sizeof q, expire, ", clean_expired_metadata => true");
    exec_ok(s, q);
    got = schemas_specs(s);
    FT_EQ_STR(got, "schemas 1 specs 0 1");
    floe__free(got);
    /* compaction moves every row into spec 1; the next commit drops the
     * manifests left with DELETED entries only; then spec 0 goes too */
    exec_ok(s, "CALL local.system.rewrite_data_files(table => 'db.t', options => "
               "map('rewrite-all', 'true'))");
    exec_ok(s, "INSERT INTO db.t VALUES (4, 'd', 4)");
    exec_ok(s, q);
    got = schemas_specs(s);
    FT_EQ_STR(got, "schemas 1 specs 1");
    floe__free(got);
    char *rows = must(s, "SELECT * FROM db.t ORDER BY id");
    FT_EQ_STR(rows, "id,s,x\n1,a,\n2,b,2\n3,c,3\n4,d,4\n");
    floe__free(rows);
    /* nothing more to clean: no commit */
    char *before = must(s, "SELECT count(*) FROM db.t.metadata_log_entries");
    exec_ok(s, q);
    char *after = must(s, "SELECT count(*) FROM db.t.metadata_log_entries");
    FT_EQ_STR(after, before);
    floe__free(before);
    floe__free(after);
    floe_sql_close(s);
}

static const ft_case cases[] = {
    {"clean_expired_metadata", test_clean_expired_metadata},
    {"v3_lineage_and_dvs", test_v3_lineage_and_dvs},
    {"binpack_applies_deletes", test_binpack_applies_deletes},
    {"options_and_where", test_options_and_where},
    {"branch", test_branch},
    {"concurrent_delete_file", test_concurrent_delete_file},
    {"concurrent_position_delete", test_concurrent_position_delete},
    {"remove_dangling_deletes", test_remove_dangling_deletes},
    {"rewrite_manifests", test_rewrite_manifests},
    {"random_histories", test_random_histories},
    {"sort_strategy", test_sort_strategy},
    {"sort_errors", test_sort_errors},
    {"zorder", test_zorder},
    {"rewrite_position_deletes", test_rewrite_position_deletes},
    {"rewrite_position_deletes_partly_dangling", test_rewrite_position_deletes_partly_dangling},
    {"rewrite_position_deletes_to_dvs", test_rewrite_position_deletes_to_dvs},
    {"dangling_dvs_after_compaction", test_dangling_dvs_after_compaction},
    {"valid_dvs_not_removed", test_valid_dvs_not_removed},
    {"dangling_dv_shares_puffin", test_dangling_dv_shares_puffin},
    {"cow_delete_drops_dvs", test_cow_delete_drops_dvs},
    {"expire_io_faults", test_expire_io_faults},
    {"expire_reasons", test_expire_reasons},
    {"rewrite_io_faults", test_rewrite_io_faults},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
