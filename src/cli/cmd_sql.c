/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe sql [--warehouse DIR] [--catalog-name NAME] [--conf KEY=VALUE]...
 *           [--format table|csv|json] [--quiet] [-c SQL]... [-f FILE]...`
 *
 * The SQL shell (docs/cli/floe-sql.md). -c and -f run in the order given,
 * in one session; with neither, statements come from standard input: an
 * interactive REPL on a terminal (repl.c), otherwise statement by statement
 * as they arrive (each result is flushed before the next statement is
 * read), so a long-lived session can be driven through a pipe.
 * Long statements (planning a big table's scan, INSERT / CTAS / INSERT
 * OVERWRITE of many rows) draw a progress line on stderr when it is a
 * terminal (output_progress.c), unless --quiet.
 * Exit status: 0, 1 at the first failing statement, 2 on usage errors.
 */
#include "cli.h"
#include "output.h"

#include "sql/exec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cli_usage_sql[] =
    "usage: floe sql [--warehouse DIR | --catalog-uri URI] [--catalog-name NAME]\n"
    "                [--conf KEY=VALUE]... [--format table|csv|json] [--quiet]\n"
    "                [-c SQL]... [-f FILE]...\n"
    "\n"
    "  --warehouse DIR      warehouse root (default $FLOE_WAREHOUSE or ./warehouse);\n"
    "                       the catalog is DIR/catalog.db, created on first use\n"
    "  --catalog-name NAME  catalog name in identifiers and CALL (default local)\n"
    "  --catalog-uri URI    catalog: http(s)://... an Iceberg REST catalog (--conf\n"
    "                       warehouse=, token=, credential=), else a SQLite file\n"
    "  --conf KEY=VALUE     catalog/session property (cache-enabled=false, ...)\n"
    "  --format FMT         table (Spark show boxes), csv or json\n"
    "  -c SQL               run statements (several, ';'-separated)\n"
    "  -f FILE              run a script file ('-' = standard input)\n"
    "  -q, --quiet          no progress line on a terminal (planning, long inserts)\n"
    "\n"
    "With neither -c nor -f: a REPL on a terminal, else statements from stdin.\n";

static int write_stdout(const char *data, size_t len, void *payload)
{
    FLOE_UNUSED(payload);
    return fwrite(data, 1, len, stdout) == len ? 0 : -1;
}

void cli_sql_report(floe_sql_session *s)
{
    const floe_error *e = floe_error_last();
    cli_error(floe__sql_session_error_class(s), "%s",
              e && e->message ? e->message : "unknown error");
}

static void report_and_continue(floe_sql_session *s, void *payload)
{
    FLOE_UNUSED(payload);
    cli_sql_report(s);
}

static int read_file(const char *path, floe_buf *out)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return floe__error(FLOE_EIO, "sql", "cannot open %s: %s", path, strerror(errno));
    char chunk[65536];
    size_t n;
    int rc = 0;
    while (rc == 0 && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = floe__buf_put(out, chunk, n);
    if (rc == 0 && ferror(f))
        rc = floe__error(FLOE_EIO, "sql", "cannot read %s", path);
    if (rc == 0 && !out->ptr)
        rc = floe__buf_puts(out, "");
    if (f != stdin)
        fclose(f);
    return rc;
}

/* Non-interactive stdin: run each statement once it is complete. */
static int run_stream(floe_sql_session *s, FILE *in)
{
    floe_buf stmt = FLOE_BUF_INIT;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&line, &cap, in)) >= 0) {
        rc = floe__buf_put(&stmt, line, (size_t)n);
        if (rc == 0 && floe__sql_is_complete(stmt.ptr)) {
            rc = floe__sql_session_run(s, stmt.ptr, "stdin");
            fflush(stdout);
            floe__buf_clear(&stmt);
        }
    }
    if (rc == 0 && stmt.len > 0)
        rc = floe__sql_session_run(s, stmt.ptr, "stdin");
    free(line);
    floe__buf_free(&stmt);
    return rc;
}

int floe_cmd_sql(int argc, char **argv)
{
    const char *warehouse = getenv("FLOE_WAREHOUSE");
    const char *catalog = NULL;
    const char *catalog_uri = NULL;
    floe_sql_format fmt = FLOE_SQLFMT_TABLE;
    floe_props conf = FLOE_PROPS_INIT;
    bool quiet = false;
    /* -c / -f in order: kind 'c' or 'f' + text */
    char *kinds = calloc((size_t)argc + 1, 1);
    const char **items = calloc((size_t)argc + 1, sizeof *items);
    size_t nitems = 0;
    int status = CLI_OK;
    if (!kinds || !items) {
        fprintf(stderr, "floe sql: out of memory\n");
        status = CLI_FAIL;
        goto done;
    }
    if (!warehouse || !*warehouse)
        warehouse = "warehouse";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        const char *opt = a;
        char optbuf[32];
        /* --opt=value */
        if (strncmp(a, "--", 2) == 0 && strchr(a, '=')) {
            size_t k = (size_t)(strchr(a, '=') - a);
            if (k < sizeof optbuf) {
                memcpy(optbuf, a, k);
                optbuf[k] = '\0';
                opt = optbuf;
                val = a + k + 1;
            }
        }
        bool takes = strcmp(opt, "--warehouse") == 0 || strcmp(opt, "--catalog-name") == 0 ||
                     strcmp(opt, "--catalog-uri") == 0 || strcmp(opt, "--conf") == 0 || strcmp(opt, "--format") == 0 ||
                     strcmp(opt, "-c") == 0 || strcmp(opt, "-f") == 0;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(cli_usage_sql, stdout);
            goto done;
        }
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = true;
            continue;
        }
        if (!takes) {
            fprintf(stderr, "floe sql: unknown option '%s'\n%s", a, cli_usage_sql);
            status = CLI_USAGE;
            goto done;
        }
        if (!val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "floe sql: %s needs a value\n%s", a, cli_usage_sql);
                status = CLI_USAGE;
                goto done;
            }
            val = argv[++i];
        }
        if (strcmp(opt, "--warehouse") == 0) {
            warehouse = val;
        } else if (strcmp(opt, "--catalog-name") == 0) {
            catalog = val;
        } else if (strcmp(opt, "--catalog-uri") == 0) {
            catalog_uri = val;
        } else if (strcmp(opt, "--format") == 0) {
            if (floe__sql_format_parse(val, &fmt) < 0) {
                fprintf(stderr, "floe sql: %s\n%s", floe_error_last()->message, cli_usage_sql);
                status = CLI_USAGE;
                goto done;
            }
        } else if (strcmp(opt, "--conf") == 0) {
            const char *eq = strchr(val, '=');
            if (!eq || eq == val) {
                fprintf(stderr, "floe sql: --conf needs KEY=VALUE, got '%s'\n", val);
                status = CLI_USAGE;
                goto done;
            }
            char *key = floe__strndup(val, (size_t)(eq - val));
            int rc = key ? floe__props_set(&conf, key, eq + 1) : FLOE_ENOMEM;
            floe__free(key);
            if (rc < 0) {
                status = cli_fail(NULL);
                goto done;
            }
        } else {
            kinds[nitems] = opt[1];
            items[nitems++] = val;
        }
    }
    if (!*warehouse || (catalog && !*catalog)) {
        fprintf(stderr, "floe sql: empty --warehouse or --catalog-name\n");
        status = CLI_USAGE;
        goto done;
    }

    floe_sql_session_options so = FLOE_SQL_SESSION_OPTIONS_INIT;
    so.warehouse = warehouse;
    so.catalog_name = catalog;
    so.catalog_uri = catalog_uri;
    so.conf = &conf;
    so.format = fmt;
    so.write = write_stdout;
    so.on_error = report_and_continue;
    cli_progress progress;
    cli_progress_init(&progress, quiet);
    so.progress = cli_progress_cb;
    so.progress_payload = &progress;
    floe_sql_session *s = NULL;
    if (floe__sql_session_open(&s, &so) < 0) {
        status = cli_fail(NULL);
        goto done;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nitems; i++) {
        if (kinds[i] == 'c') {
            rc = floe__sql_session_run(s, items[i], "-c");
        } else {
            floe_buf text = FLOE_BUF_INIT;
            rc = read_file(items[i], &text);
            if (rc == 0)
                rc = floe__sql_session_run(s, text.ptr, items[i]);
            floe__buf_free(&text);
        }
    }
    if (nitems == 0) {
        if (isatty(STDIN_FILENO))
            rc = cli_sql_repl(s);
        else
            rc = run_stream(s, stdin);
    }
    if (rc < 0) {
        cli_sql_report(s);
        status = CLI_FAIL;
    }
    fflush(stdout);
    floe__sql_session_free(s);
done:
    floe__props_free(&conf);
    free(kinds);
    free(items);
    return status;
}
