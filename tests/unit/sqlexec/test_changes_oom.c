/* SPDX-License-Identifier: Apache-2.0 */
/* sql/exec_changes and exec_rowlevel: results through the session API and
 * every allocation failure while reading incremental_append(...),
 * and a changelog view (table_changes shares its row source) ends cleanly (no leak, no crash;
 * the ASan build checks leaks). */
#include "session_fixture.h"

#include <string.h>

static void test_oom_changes(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
    FT_ASSERT(s);
    int rc = floe__sql_session_run(s,
                                   "CREATE NAMESPACE IF NOT EXISTS m; "
                                   "CREATE TABLE m.t (a BIGINT, b STRING); "
                                   "INSERT INTO m.t VALUES (1, 'x'), (2, 'y'); "
                                   "INSERT INTO m.t VALUES (3, 'z'); "
                                   "DELETE FROM m.t WHERE a = 3; "
                                   "UPDATE m.t SET b = upper(b) WHERE a = 1",
                                   NULL);
    floe__sql_session_free(s);
    FT_OK(rc);
    const char *script =
        "SELECT count(*) FROM incremental_append('m.t', NULL, NULL, 'append-only'); "
        "CALL system.create_changelog_view(table => 'm.t', changelog_view => 'cv', "
        "net_changes => true); SELECT a, b, _change_type FROM cv ORDER BY a";
    const char *want = "count(*)\n3\n"
                       "changelog_view\ncv\n"
                       "a,b,_change_type\n1,X,INSERT\n2,y,INSERT\n";
    oom_loop(script, want, true, __FILE__, __LINE__);
}

static const ft_case cases[] = {{"oom_changes", test_oom_changes}};

int main(int argc, char **argv) { return ft_main(argc, argv, cases, FT_N(cases)); }
