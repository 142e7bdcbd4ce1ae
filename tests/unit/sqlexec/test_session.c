/* SPDX-License-Identifier: Apache-2.0 */
/* sql/exec: the session API (no process), output formats, error classes,
 * variables, and out-of-memory handling of a whole script. */
#include "session_fixture.h"

#include <string.h>

static void test_table_format(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_TABLE);
    FT_ASSERT(s);
    FT_OK(floe__sql_session_run(s, "SELECT 'héllo' AS w, NULL AS n, 1e308 * 10 AS big", NULL));
    FT_EQ_STR(out.ptr, "+-----+----+--------+\n"
                       "|w    |n   |big     |\n"
                       "+-----+----+--------+\n"
                       "|héllo|NULL|Infinity|\n"
                       "+-----+----+--------+\n");
    floe__sql_session_free(s);
}

static void test_csv_json(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    FT_OK(floe__sql_session_run(s, "SELECT 'a\"b' AS \"x,y\", X'0AFF' AS b", NULL));
    FT_EQ_STR(out.ptr, "\"x,y\",b\n\"a\"\"b\",[0A FF]\n");
    out.len = 0;
    floe__sql_session_set_format(s, FLOE_SQLFMT_JSON);
    FT_OK(floe__sql_session_run(s, "SELECT X'0AFF' AS b, 0.1 + 0.2 AS r, 'tab\there' AS t", NULL));
    FT_EQ_STR(out.ptr, "{\"b\":\"0aff\",\"r\":0.30000000000000004,\"t\":\"tab\\there\"}\n");
    floe__sql_session_free(s);
}

static void test_variables_and_state(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    FT_OK(floe__sql_session_run(s, "SET VAR v = (SELECT 6 * 7); SET spark.wap.id = 'x1'", NULL));
    FT_EQ_STR(floe__sql_session_var(s, "v"), "42");
    FT_EQ_STR(floe__sql_session_option(s, "spark.wap.id"), "x1");
    FT_OK(floe__sql_session_run(s, "SELECT ${v} + 1 AS w", NULL));
    FT_EQ_STR(out.ptr, "w\n43\n");
    (void)FT_CHECK(floe__sql_session_run(s, "SELECT ${nope}", NULL) < 0);
    FT_ERR_CONTAINS("Variable ${nope} is not set");
    (void)FT_CHECK(floe__sql_session_run(s, "SET VAR bad-name = 1", NULL) < 0);
    floe__sql_session_free(s);
}

static void test_error_classes(void)
{
    FT_EQ_STR(floe__sql_error_class(FLOE_ENOTFOUND, "Cannot find snapshot with ID 42"),
              "IllegalArgumentException");
    FT_EQ_STR(floe__sql_error_class(FLOE_EINVALID, "Cannot roll back to snapshot, not an ancestor "
                                                   "of the current state: 7"),
              "ValidationException");
    FT_EQ_STR(floe__sql_error_class(FLOE_EINVALID, "Cannot fast-forward: main is not an ancestor "
                                                   "of audit"),
              "IllegalArgumentException");
    FT_EQ_STR(floe__sql_error_class(FLOE_ENOTFOUND, "Table does not exist: a.b"),
              "NoSuchTableException");
    /* no message of Iceberg's: the class of the error code (never none) */
    FT_EQ_STR(floe__sql_error_class(FLOE_EIO, "disk on fire"), "RuntimeIOException");
    FT_EQ_STR(floe__sql_error_class(FLOE_ENOTFOUND, "opening x: not found"), "NotFoundException");
    FT_EQ_STR(floe__sql_error_class(FLOE_EINVALID, NULL), "IllegalArgumentException");
    FT_EQ_STR(floe__sql_error_class(FLOE_ENOTFOUND, "Cannot use branch (does not exist): b"),
              "ValidationException");
    FT_EQ_STR(
        floe__sql_error_class(FLOE_EINVALID, "Cannot expire 7. Still referenced by refs: [main]"),
        "IllegalArgumentException");

    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    (void)FT_CHECK(floe__sql_session_run(s, "SELECT 1; SELEC 2; SELECT 3", NULL) < 0);
    FT_EQ_STR(floe__sql_session_error_class(s), "ParseException");
    FT_EQ_STR(out.ptr, "1\n1\n");
    (void)FT_CHECK(floe__sql_session_run(s, "DROP NAMESPACE nope", NULL) == FLOE_ENOTFOUND);
    FT_EQ_STR(floe__sql_session_error_class(s), "NoSuchNamespaceException");
    floe__sql_session_free(s);
}

static void test_exact_sum(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    /* 10^6 values of x.xx: a double sum drifts, the decimal sum does not */
    FT_OK(floe__sql_session_run(s,
                                "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c "
                                "WHERE i < 1000000) SELECT sum((i % 10000) / 100.0) AS s, "
                                "sum(i) AS n, sum(NULL) AS z FROM c",
                                NULL));
    FT_EQ_STR(out.ptr, "s,n,z\n49995000.00,500000500000,\n");
    out.len = 0;
    FT_CHECK(floe__sql_session_run(s, "SELECT sum(a) FROM (SELECT 9223372036854775807 AS a "
                                      "UNION ALL SELECT 1)",
                                   NULL) < 0);
    FT_ERR_CONTAINS("integer overflow");
    floe__sql_session_free(s);
}

static void test_oom(void)
{
    /* every allocation failure in a session's life ends cleanly */
    for (long n = 1; n < 5000; n++) {
        floe_buf out = FLOE_BUF_INIT;
        floe__alloc_fail_at(n);
        floe_sql_session *s = open_session(&out, FLOE_SQLFMT_TABLE);
        int rc = s ? floe__sql_session_run(s, "CREATE NAMESPACE IF NOT EXISTS m; SHOW NAMESPACES; "
                                              "SET VAR x = (SELECT 1); SELECT ${x} AS y",
                                           NULL)
                   : FLOE_ENOMEM;
        floe__alloc_fail_at(0);
        floe__sql_session_free(s);
            if (rc == 0)
            return;
        if (rc != FLOE_ENOMEM && floe__error_code() != FLOE_ENOMEM) {
            /* SQLite's own allocator is not hooked: its failures never
             * happen here, so any other error is a bug */
            ft_fail(__FILE__, __LINE__, "n=%ld rc=%d %s", n, rc, ft_floe_err());
            return;
        }
    }
    (void)FT_CHECK(!"never succeeded");
}

/* Every allocation failure while reading a table (table load through the
 * cache, metadata-table and data virtual tables, the scan, exact sum,
 * DESCRIBE) ends cleanly: no leak, no crash. The table is written once
 * without fault injection (appends have their own OOM tests in the table
 * module). */
static void test_oom_tables(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    int rc = floe__sql_session_run(s,
                                   "CREATE NAMESPACE IF NOT EXISTS m; "
                                   "CREATE TABLE m.t (a BIGINT, b DECIMAL(5,2)) PARTITIONED BY (a); "
                                   "INSERT INTO m.t VALUES (1, 1.50), (2, -0.25)",
                                   NULL);
    floe__sql_session_free(s);
    if (rc == FLOE_EUNSUPPORTED) {
        ft_skip("tables are not in this build");
        return;
    }
    FT_OK(rc);
    const char *script = "SELECT count(*), sum(b) FROM m.t WHERE a >= 1; "
                         "SELECT snapshot_id, summary FROM m.t.snapshots; "
                         "SELECT count(*) FROM m.t.files; DESCRIBE EXTENDED m.t";
    /* failures inside SQLite callbacks come back as SQLite errors that
     * carry floe's message */
    oom_loop(script, "2,1.25", false, __FILE__, __LINE__);
}

static const ft_case cases[] = {
    {"table_format", test_table_format}, {"csv_json", test_csv_json},
    {"variables_and_state", test_variables_and_state}, {"error_classes", test_error_classes},
    {"exact_sum", test_exact_sum}, {"oom", test_oom},
    {"oom_tables", test_oom_tables},
};

int main(int argc, char **argv) { return ft_main(argc, argv, cases, FT_N(cases)); }
