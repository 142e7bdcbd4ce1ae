/* SPDX-License-Identifier: Apache-2.0 */
/* A floe sql session on a fresh temporary warehouse whose output goes to a
 * static buffer: the sink never allocates through floe, so OOM loops fail
 * only the library's own allocations. Shared by the sqlexec tests. */
#ifndef FLOE_TEST_SQLEXEC_SESSION_FIXTURE_H
#define FLOE_TEST_SQLEXEC_SESSION_FIXTURE_H

#include "harness.h"
#include "sql/exec.h"

#include <string.h>

static char sink[65536];
static int collect(const char *data, size_t len, void *payload)
{
    floe_buf *b = payload;
    if (b->len + len + 1 > sizeof sink)
        return -1;
    memcpy(sink + b->len, data, len);
    b->len += len;
    sink[b->len] = '\0';
    b->ptr = sink;
    return 0;
}

/* NULL when the session cannot be opened (OOM included). */
static floe_sql_session *open_session(floe_buf *out, floe_sql_format fmt)
{
    floe_sql_session_options o = FLOE_SQL_SESSION_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    o.format = fmt;
    o.write = collect;
    o.payload = out;
    floe_sql_session *s = NULL;
    if (floe__sql_session_open(&s, &o) < 0)
        return NULL;
    return s;
}

#endif
