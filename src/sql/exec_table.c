/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_table: table statements of `floe sql` (CREATE/DROP/ALTER TABLE,
 * DESCRIBE, REFRESH, INSERT, branch and tag DDL).
 */
#include "sql/session_int.h"

int floe__sql_exec_table_stmt(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    FLOE_UNUSED(s);
    FLOE_UNUSED(st);
    FLOE_UNUSED(a);
    return 1;
}
