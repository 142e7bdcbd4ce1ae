/* SPDX-License-Identifier: Apache-2.0 */
/* sql/vtab + exec_data + exec_fast: a projected scan with a pushed date
 * filter and count(*) from manifests (also with a delete file, where rows
 * are read) give the right results through the session API, and every allocation failure on the way ends cleanly (no leak, no
 * crash; the ASan build checks leaks). */
#include "session_fixture.h"

#include <string.h>

static void test_oom_vtab(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    int rc = floe__sql_session_run(
        s,
        "CREATE NAMESPACE IF NOT EXISTS m; "
        "CREATE TABLE m.t (a BIGINT, amount DECIMAL(10,2), d DATE, ok BOOLEAN, x DOUBLE); "
        "INSERT INTO m.t VALUES (1, 1.50, DATE'2024-01-01', true, 0.5), "
        "(2, -2.25, DATE'2024-01-02', false, -0.0); "
        "INSERT INTO m.t VALUES (3, 1.56, DATE'2024-02-01', NULL, 2.0); "
        "CREATE TABLE m.u (a BIGINT); INSERT INTO m.u VALUES (1), (2), (3); "
        "ALTER TABLE m.u SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read'); "
        "DELETE FROM m.u WHERE a = 2",
        NULL);
    floe__sql_session_free(s);
    FT_OK(rc);
    const char *script = "SELECT count(*) FROM m.t; "
                         "SELECT sum(amount) FROM m.t WHERE d >= '2024-01-02'; "
                         "SELECT count(*) FROM m.u";
    const char *want = "count(*)\n3\n"
                       "sum(amount)\n-0.69\n"
                       "count(*)\n2\n";
    oom_loop(script, want, true, __FILE__, __LINE__);
}

static const ft_case cases[] = {{"oom_vtab", test_oom_vtab}};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
