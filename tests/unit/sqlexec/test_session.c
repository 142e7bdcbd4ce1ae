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
    FT_OK(
        floe__sql_session_run(s, "SELECT X'0AFF' AS b, 0.1D + 0.2D AS r, 'tab\there' AS t", NULL));
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

/* The class of an error raised with `kind` (the last error, code `code`). */
static const char *raised_class(int code, floe_error_kind kind)
{
    floe__error_as(code, kind, "test", "some message of Iceberg's");
    return floe__sql_error_class(code);
}

static void test_error_classes(void)
{
    FT_EQ_STR(raised_class(FLOE_ENOTFOUND, FLOE_KIND_ILLEGAL_ARGUMENT), "IllegalArgumentException");
    FT_EQ_STR(raised_class(FLOE_EINVALID, FLOE_KIND_VALIDATION), "ValidationException");
    FT_EQ_STR(raised_class(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE), "NoSuchTableException");
    FT_EQ_STR(raised_class(FLOE_EINVALID, FLOE_KIND_DUPLICATE_WAP_COMMIT),
              "DuplicateWAPCommitException");
    /* no kind: the class of the error code (never none) */
    FT_EQ_STR(raised_class(FLOE_EIO, FLOE_KIND_NONE), "RuntimeIOException");
    FT_EQ_STR(raised_class(FLOE_ENOTFOUND, FLOE_KIND_NONE), "NotFoundException");
    FT_EQ_STR(raised_class(FLOE_EINVALID, FLOE_KIND_NONE), "IllegalArgumentException");
    /* a kind survives the context prepended while unwinding (a message
     * prefix would not) */
    floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_VALIDATION, "table",
                   "Cannot use branch (does not exist): b");
    floe__error_context("reading shop.orders");
    FT_EQ_STR(floe__sql_error_class(FLOE_ENOTFOUND), "ValidationException");
    FT_EQ_STR(floe_error_exception(floe_error_last()), "ValidationException");
    /* a later helper raising again with a plain error drops the kind */
    floe__error(FLOE_EINVALID, "sql", "something else");
    FT_EQ_STR(floe_error_exception(floe_error_last()), "IllegalArgumentException");
    /* asked for another code than the last error's: the code decides */
    raised_class(FLOE_EINVALID, FLOE_KIND_VALIDATION);
    FT_EQ_STR(floe__sql_error_class(FLOE_EIO), "RuntimeIOException");
    FT_EQ_STR(floe_error_exception(NULL), "RuntimeException");
    FT_CHECK(floe__error_kind_named("NoSuchNamespaceException") == FLOE_KIND_NO_SUCH_NAMESPACE);
    FT_CHECK(floe__error_kind_named("BadRequestException") == FLOE_KIND_NONE);

    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    (void)FT_CHECK(floe__sql_session_run(s, "SELECT 1; SELEC 2; SELECT 3", NULL) < 0);
    FT_EQ_STR(floe__sql_session_error_class(s), "ParseException");
    FT_EQ_STR(out.ptr, "1\n1\n");
    (void)FT_CHECK(floe__sql_session_run(s, "DROP NAMESPACE nope", NULL) == FLOE_ENOTFOUND);
    FT_EQ_STR(floe__sql_session_error_class(s), "NoSuchNamespaceException");
    /* the library's errors, classed where they are raised (Spark's classes
     * for the same statements) */
    static const struct {
        const char *sql, *cls;
    } cases[] = {
        {"SELECT * FROM nope.t", "NoSuchTableException"},
        {"CALL system.rollback_to_snapshot('db.t', 42)", "ValidationException"},
        {"SELECT * FROM db.t VERSION AS OF 42", "IllegalArgumentException"},
        {"SELECT * FROM db.t.branch_nope", "ValidationException"},
        {"CALL system.fast_forward('db.t', 'main', 'nope')", "IllegalArgumentException"},
        {"CALL system.no_such_thing('db.t')", "NoSuchProcedureException"},
        {"CREATE TABLE db.t (id bigint)", "AlreadyExistsException"},
    };
    FT_OK(floe__sql_session_run(s, "CREATE NAMESPACE db; CREATE TABLE db.t (id bigint); INSERT INTO db.t VALUES (1)",
                                NULL));
    for (size_t i = 0; i < FLOE_ARRAY_LEN(cases); i++) {
        (void)FT_CHECK(floe__sql_session_run(s, cases[i].sql, NULL) < 0);
        FT_EQ_STR(floe__sql_session_error_class(s), cases[i].cls);
    }
    floe__sql_session_free(s);
}

static void test_exact_sum(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    /* 10^6 values of x.xx: a double sum drifts, the decimal sum does not;
     * INT / 100.0 is Spark's decimal(17,6), its sum decimal(27,6) */
    FT_OK(floe__sql_session_run(s,
                                "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c "
                                "WHERE i < 1000000) SELECT sum((i % 10000) / 100.0) AS s, "
                                "sum(i) AS n, sum(NULL) AS z FROM c",
                                NULL));
    FT_EQ_STR(out.ptr, "s,n,z\n49995000.000000,500000500000,\n");
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
