/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public SQL API (include/floe/sql.h): open a session on a warehouse
 * with conf pairs, run statements, read typed result values column by
 * column, render Spark's boxes / CSV / JSON, the error class of a failing
 * statement, bad options.
 */
#include "harness.h"

#include "floe/sql.h"
#include "floe/table.h"

#include <stdio.h>
#include <string.h>

static floe_sql_session *open_session(void)
{
    static const char *const conf[] = {"floe.format", "table", "spark.sql.session.timeZone", "UTC"};
    floe_sql_open_options o = FLOE_SQL_OPEN_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    o.conf = conf;
    o.nconf = 2;
    floe_sql_session *s = NULL;
    if (floe_sql_open(&s, &o) < 0)
        return NULL;
    return s;
}

static void test_query_values(void)
{
    floe_sql_session *s = open_session();
    FT_ASSERT(s);
    FT_ASSERT(floe_sql_session_catalog(s) != NULL);
    FT_OK(floe_sql_execute(NULL, s,
                           "CREATE NAMESPACE shop; CREATE TABLE shop.t (id BIGINT, x DOUBLE, "
                           "b BOOLEAN, s STRING) USING iceberg"));
    floe_sql_result *r = NULL;
    FT_OK(floe_sql_execute(&r, s,
                           "INSERT INTO shop.t VALUES (1, 1.5, true, 'a'), (2, NULL, false, 'b')"));
    FT_CHECK(!floe_sql_result_has_rows(r)); /* INSERT shows nothing */
    floe_sql_result_free(r);
    FT_OK(floe_sql_execute(&r, s, "SELECT 0 AS z; SELECT id, x, b, s FROM shop.t ORDER BY id"));
    /* the last result set wins */
    FT_ASSERT(floe_sql_result_has_rows(r));
    FT_EQ_INT(floe_sql_result_ncols(r), 4);
    FT_EQ_INT(floe_sql_result_nrows(r), 2);
    FT_EQ_STR(floe_sql_result_column(r, 3), "s");
    FT_CHECK(floe_sql_result_column(r, 4) == NULL);
    floe_sql_datum d;
    FT_OK(floe_sql_result_get(&d, r, 1, 0));
    FT_EQ_INT(d.kind, FLOE_SQL_DATUM_INT);
    FT_EQ_INT(d.i, 2);
    FT_OK(floe_sql_result_get(&d, r, 1, 1));
    FT_EQ_INT(d.kind, FLOE_SQL_DATUM_NULL);
    FT_OK(floe_sql_result_get(&d, r, 0, 1));
    FT_EQ_INT(d.kind, FLOE_SQL_DATUM_REAL);
    FT_CHECK(d.d == 1.5);
    FT_OK(floe_sql_result_get(&d, r, 0, 2));
    FT_EQ_INT(d.kind, FLOE_SQL_DATUM_BOOL);
    FT_EQ_INT(d.i, 1);
    const floe_sql_datum *col = floe_sql_result_column_values(r, 3);
    FT_ASSERT(col);
    FT_EQ_STR(col[0].s, "a");
    FT_EQ_STR(col[1].s, "b");
    FT_CHECK(floe_sql_result_get(&d, r, 2, 0) == FLOE_EINVALID);
    char *text = NULL;
    FT_OK(floe_sql_result_render(&text, r, FLOE_SQL_RENDER_TABLE));
    FT_EQ_STR(text, "+---+----+-----+---+\n"
                    "|id |x   |b    |s  |\n"
                    "+---+----+-----+---+\n"
                    "|1  |1.5 |true |a  |\n"
                    "|2  |NULL|false|b  |\n"
                    "+---+----+-----+---+\n");
    floe_string_free(text);
    FT_OK(floe_sql_result_render(&text, r, FLOE_SQL_RENDER_CSV));
    FT_EQ_STR(text, "id,x,b,s\n1,1.5,true,a\n2,,false,b\n");
    floe_string_free(text);
    FT_CHECK(floe_sql_result_render(&text, r, (floe_sql_render)9) == FLOE_EINVALID);
    floe_sql_close(s);
    /* results outlive their session */
    FT_OK(floe_sql_result_get(&d, r, 0, 0));
    FT_EQ_INT(d.i, 1);
    floe_sql_result_free(r);
}

static void test_errors(void)
{
    floe_sql_session *s = open_session();
    FT_ASSERT(s);
    floe_sql_result *r = (floe_sql_result *)1;
    FT_CHECK(floe_sql_execute(&r, s, "SELECT * FROM nope.t") < 0);
    FT_CHECK(r == NULL);
    FT_EQ_STR(floe_sql_error_class(s), "NoSuchTableException");
    FT_CHECK(floe_sql_execute(NULL, s, "SELEC 1") < 0);
    FT_EQ_STR(floe_sql_error_class(s), "ParseException");
    /* a good statement afterwards clears the class */
    FT_OK(floe_sql_execute(NULL, s, "SELECT 1"));
    FT_CHECK(floe_sql_error_class(s) == NULL);
    FT_CHECK(floe_table_load(&(floe_table *){NULL}, floe_sql_session_catalog(s), "nowhere.t",
                             NULL) == FLOE_ENOTFOUND);
    FT_EQ_STR(floe_error_exception(floe_error_last()), "NoSuchTableException");
    FT_CHECK(floe_sql_execute(NULL, s, NULL) == FLOE_EINVALID);
    floe_sql_close(s);
}

static void test_bad_options(void)
{
    floe_sql_open_options o = FLOE_SQL_OPEN_OPTIONS_INIT;
    floe_sql_session *s = (floe_sql_session *)1;
    o.version = 99;
    FT_CHECK(floe_sql_open(&s, &o) == FLOE_EINVALID);
    FT_CHECK(s == NULL);
    static const char *const conf[] = {"k", NULL};
    o = (floe_sql_open_options)FLOE_SQL_OPEN_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh2");
    o.conf = conf;
    o.nconf = 1;
    FT_CHECK(floe_sql_open(&s, &o) == FLOE_EINVALID);
    floe_sql_close(NULL);
    floe_sql_result_free(NULL);
}

static void test_table_api_on_session_catalog(void)
{
    floe_sql_session *s = open_session();
    FT_ASSERT(s);
    FT_OK(floe_sql_execute(NULL, s,
                           "CREATE NAMESPACE IF NOT EXISTS n; CREATE TABLE n.t (id INT) "
                           "USING iceberg; INSERT INTO n.t VALUES (7)"));
    floe_table *t = NULL;
    FT_OK(floe_table_load(&t, floe_sql_session_catalog(s), "n.t", NULL));
    floe_snapshot_info info;
    FT_CHECK(floe_table_current_snapshot(&info, t));
    floe_table_free(t);
    floe_sql_close(s);
}

/* floe_sql_session_fileio: the table API reaches storage as the session's
 * statements do. With io.location-map every table file lands under the
 * mapped directory, so a handle with its own FileIO cannot read the table
 * while one on the session's FileIO can. */
static void test_session_fileio(void)
{
    FT_CHECK(floe_sql_session_fileio(NULL) == NULL);
    char map[600];
    snprintf(map, sizeof map, "%s=%s", ft_tmp("wh"), ft_tmp("moved"));
    const char *conf[] = {"io.location-map", map};
    floe_sql_open_options o = FLOE_SQL_OPEN_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    o.conf = conf;
    o.nconf = 1;
    floe_sql_session *s = NULL;
    FT_OK(floe_sql_open(&s, &o));
    FT_ASSERT(floe_sql_session_fileio(s) != NULL);
    FT_OK(floe_sql_execute(NULL, s,
                           "CREATE NAMESPACE n; CREATE TABLE n.t (id INT) USING iceberg; "
                           "INSERT INTO n.t VALUES (7)"));
    floe_table *t = NULL;
    FT_CHECK(floe_table_load(&t, floe_sql_session_catalog(s), "n.t", NULL) < 0);
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = floe_sql_session_fileio(s);
    FT_OK(floe_table_load(&t, floe_sql_session_catalog(s), "n.t", &to));
    floe_snapshot_info info;
    FT_CHECK(floe_table_current_snapshot(&info, t));
    FT_CHECK(floe_table_io(t) == floe_sql_session_fileio(s));
    floe_table_free(t);
    floe_sql_close(s);
}

static const ft_case cases[] = {
    {"query_values", test_query_values},
    {"session_fileio", test_session_fileio},
    {"errors", test_errors},
    {"bad_options", test_bad_options},
    {"table_api_on_session_catalog", test_table_api_on_session_catalog},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
