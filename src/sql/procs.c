/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/procs: CALL <catalog>.system.<procedure>(...) — argument binding
 * (positional or `name => value`, Spark's rules) and dispatch.
 */
#include "sql/session_int.h"

int floe__sql_exec_call(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    FLOE_UNUSED(a);
    return floe__sql_fail(s,
                          floe__error(FLOE_EUNSUPPORTED, "sql", "Procedure %s is not supported yet",
                                      st->call.procedure),
                          "UnsupportedOperationException");
}
