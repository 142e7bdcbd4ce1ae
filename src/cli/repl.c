/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The interactive loop of `floe sql` on a terminal: line editing and
 * history through GNU readline when built with it (history kept in
 * $FLOE_HISTORY or ~/.floe_history), statements spanning lines until a ';'
 * ends them (floe__sql_is_complete), errors reported without leaving the
 * session, Ctrl-D (end of input) to quit. Without readline a plain
 * line reader is used.
 */
#include "cli.h"

#include "sql/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FLOE_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

static const char prompt1[] = "floe> ";
static const char prompt2[] = "   -> ";

static char *history_path(void)
{
    const char *p = getenv("FLOE_HISTORY");
    if (p)
        return *p ? floe__strdup(p) : NULL;
    const char *home = getenv("HOME");
    return home && *home ? floe__sprintf("%s/.floe_history", home) : NULL;
}

static char *read_line(const char *prompt)
{
#ifdef FLOE_HAVE_READLINE
    return readline(prompt);
#else
    fputs(prompt, stdout);
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    if (n > 0 && line[n - 1] == '\n')
        line[n - 1] = '\0';
    return line;
#endif
}

int cli_sql_repl(floe_sql_session *s)
{
    char *hist = history_path();
#ifdef FLOE_HAVE_READLINE
    using_history();
    if (hist)
        read_history(hist);
#endif
    floe_buf stmt = FLOE_BUF_INIT;
    int rc = 0;
    for (;;) {
        char *line = read_line(stmt.len ? prompt2 : prompt1);
        if (!line) {
            /* Ctrl-D: run what is pending, then leave */
            fputc('\n', stdout);
            if (stmt.len && floe__sql_session_run(s, stmt.ptr, "stdin") < 0)
                cli_sql_report(s);
            break;
        }
        if (stmt.len == 0 && line[0] == '\0') {
            free(line);
            continue;
        }
        if ((stmt.len && floe__buf_putc(&stmt, '\n') < 0) || floe__buf_puts(&stmt, line) < 0) {
            free(line);
            rc = FLOE_ENOMEM;
            break;
        }
        free(line);
        if (!floe__sql_is_complete(stmt.ptr))
            continue;
#ifdef FLOE_HAVE_READLINE
        add_history(stmt.ptr);
        if (hist)
            if (append_history(1, hist) != 0)
                write_history(hist);
#endif
        if (floe__sql_session_run(s, stmt.ptr, "stdin") < 0)
            cli_sql_report(s);
        fflush(stdout);
        floe__buf_clear(&stmt);
    }
    floe__buf_free(&stmt);
    floe__free(hist);
    return rc < 0 ? floe__error_nomem() : 0;
}
