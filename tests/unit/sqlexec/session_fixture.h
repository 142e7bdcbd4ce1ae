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

/* Run `script` in a fresh session (csv) failing allocation n = 1, 2, ...
 * in turn: every failing run must end with an out-of-memory error (no
 * crash; the ASan build checks leaks), and the first run that succeeds must
 * print exactly `want` (or, when not `exact`, output containing it). */
static void oom_loop(const char *script, const char *want, bool exact, const char *file, int line)
{
    floe_buf out = FLOE_BUF_INIT;
    for (long n = 1; n < 20000; n++) {
        out.len = 0;
        floe__alloc_fail_at(n);
        floe_sql_session *s = open_session(&out, FLOE_SQLFMT_CSV);
        int rc = s ? floe__sql_session_run(s, script, NULL) : FLOE_ENOMEM;
        floe__alloc_fail_at(0);
        floe__sql_session_free(s);
        if (rc == 0) {
            const char *got = out.ptr ? out.ptr : "";
            if (exact ? strcmp(got, want) != 0 : !strstr(got, want))
                ft_fail(file, line, "output %s, want %s", got, want);
            return;
        }
        const char *m = floe_error_last() ? floe_error_last()->message : "";
        if (rc != FLOE_ENOMEM && floe__error_code() != FLOE_ENOMEM && !strstr(m, "memory")) {
            ft_fail(file, line, "n=%ld rc=%d %s", n, rc, ft_floe_err());
            return;
        }
    }
    ft_fail(file, line, "never succeeded");
}

#endif
