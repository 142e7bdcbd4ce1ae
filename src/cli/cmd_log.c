/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe log`: a table's snapshots newest first, like `git log` (seed 000,
 * "Finding the snapshot before the bad write"): id, commit time, operation,
 * added / deleted / total records and data files from the snapshot summary
 * (spec "Snapshots", summary keys as Java writes them), refs pointing at
 * each. --graph draws the lineage (lineage_graph.c); --format dot writes
 * Graphviz DOT and --svg renders it with Graphviz's `dot` when installed.
 */
#include "cli.h"
#include "lineage.h"
#include "output.h"

#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char cli_usage_log[] =
    "usage: floe log [--graph] [--all] [--ref NAME] [--limit N] [--ascii]\n"
    "                [--format table|csv|json|dot] [--svg FILE] [--color auto|always|never]\n"
    "                [--warehouse DIR] [--catalog-uri URI] [--catalog-name NAME]\n"
    "                [--conf KEY=VALUE]... [--quiet] <ns.table>\n"
    "\n"
    "  --graph              draw the lineage (text, or DOT with --format dot)\n"
    "  --all                every snapshot: other branches, tags, abandoned ones\n"
    "  --ref NAME           start from branch or tag NAME instead of main\n"
    "  -n, --limit N        the newest N snapshots only\n"
    "  --ascii              plain ASCII graph\n"
    "  --format F           table (default), csv, json (one object per line) or dot\n"
    "  --svg FILE           render the graph to FILE through Graphviz's dot\n"
    "  --color WHEN         colour the graph: auto (default: on a terminal unless\n"
    "                       NO_COLOR is set), always or never\n"
    "  --warehouse DIR      warehouse root (default $FLOE_WAREHOUSE or ./warehouse)\n"
    "  --catalog-name NAME  catalog name in the database (default local)\n"
    CLI_CATALOG_USAGE
    "  -q, --quiet          no progress line on a terminal\n";

static int usage_error(const char *msg, const char *arg)
{
    if (msg)
        fprintf(stderr, "floe log: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fputs(cli_usage_log, stderr);
    return CLI_USAGE;
}

static const char *known(const char *v)
{
    return strcmp(v, "?") == 0 ? NULL : v;
}

static int print_rows(const cli_lineage *l, size_t limit, cli_format fmt)
{
    static const cli_col cols[] = {
        {"snapshot_id", CLI_COL_INT},   {"parent_id", CLI_COL_INT},
        {"committed_at", CLI_COL_STR},  {"operation", CLI_COL_STR},
        {"added_records", CLI_COL_INT}, {"deleted_records", CLI_COL_INT},
        {"total_records", CLI_COL_INT}, {"total_files", CLI_COL_INT},
        {"refs", CLI_COL_STR},          {"state", CLI_COL_STR},
        {"wap_id", CLI_COL_STR},
    };
    cli_rows rows;
    cli_rows_init(&rows, cols, sizeof cols / sizeof cols[0]);
    size_t n = limit && limit < l->norder ? limit : l->norder;
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        size_t i = l->order[k];
        const floe_snapshot *s = l->nodes[i].s;
        char id[24], parent[24], t[40];
        snprintf(id, sizeof id, "%lld", (long long)s->snapshot_id);
        snprintf(parent, sizeof parent, "%lld", (long long)s->parent_snapshot_id);
        cli_format_time(s->timestamp_ms, t, sizeof t);
        const char *cells[] = {id,
                               s->has_parent ? parent : NULL,
                               t,
                               s->operation,
                               known(cli_lineage_summary(l, i, "added-records")),
                               known(cli_lineage_summary(l, i, "deleted-records")),
                               known(cli_lineage_summary(l, i, "total-records")),
                               known(cli_lineage_summary(l, i, "total-data-files")),
                               l->nodes[i].decor,
                               cli_lineage_state(l, i),
                               l->nodes[i].wap_id};
        rc = cli_rows_add(&rows, cells);
    }
    if (rc == 0)
        rc = cli_rows_print(&rows, fmt, stdout);
    cli_rows_free(&rows);
    return rc;
}

static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        char buf[4096];
        if (len && len + strlen(prog) + 2 < sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, prog);
            if (access(buf, X_OK) == 0)
                return true;
        }
        path += len + (colon ? 1 : 0);
    }
    return false;
}

/* DOT through `dot -Tsvg -o FILE` (no shell: the file name is passed as is). */
static int render_svg(const cli_lineage *l, const char *name, size_t limit, const char *svg)
{
    if (!on_path("dot")) {
        return cli_error("UnsupportedOperationException",
                         "--svg needs Graphviz's `dot` on PATH (Debian/Ubuntu: apt-get install "
                         "graphviz)");
    }
    char tmpl[] = "/tmp/floe-log-XXXXXX";
    int fd = mkstemp(tmpl);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        return cli_error("RuntimeIOException", "cannot create a temporary file: %s", strerror(err));
    }
    int rc = cli_lineage_dot(l, name, limit, f);
    if (fclose(f) != 0 && rc == 0)
        rc = FLOE_EIO;
    if (rc < 0) {
        unlink(tmpl);
        return cli_fail(NULL);
    }
    char *args[] = {"dot", "-Tsvg", "-o", (char *)svg, tmpl, NULL};
    pid_t pid;
    int status = 0;
    int err = posix_spawnp(&pid, "dot", NULL, NULL, args, environ);
    if (err == 0 && waitpid(pid, &status, 0) < 0)
        err = errno;
    unlink(tmpl);
    if (err || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return cli_error("RuntimeIOException", "dot failed to write %s", svg);
    }
    return CLI_OK;
}

int floe_cmd_log(int argc, char **argv)
{
    cli_catalog_opts cat = {0};
    bool graph = false, all = false, ascii = false, quiet = false, have_format = false;
    const char *ref = NULL, *svg = NULL, *color_when = "auto", *ident = NULL;
    cli_format fmt = CLI_FMT_TABLE;
    size_t limit = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int c = cli_catalog_opt(&cat, argc, argv, &i);
        if (c < 0)
            return usage_error(NULL, NULL);
        if (c > 0)
            continue;
        if (strcmp(a, "--graph") == 0)
            graph = true;
        else if (strcmp(a, "--all") == 0)
            all = true;
        else if (strcmp(a, "--ascii") == 0)
            ascii = true;
        else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            quiet = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(cli_usage_log, stdout);
            return CLI_OK;
        } else if (strcmp(a, "--limit") == 0 || strcmp(a, "-n") == 0 || strcmp(a, "--ref") == 0 ||
                   strcmp(a, "--format") == 0 || strcmp(a, "--svg") == 0 ||
                   strcmp(a, "--color") == 0) {
            if (i + 1 >= argc)
                return usage_error("missing value for", a);
            const char *v = argv[++i];
            if (a[2] == 'l' || a[1] == 'n') {
                char *end;
                errno = 0;
                long long n = strtoll(v, &end, 10);
                if (*v == '\0' || *end != '\0' || n <= 0 || errno)
                    return usage_error("--limit needs a positive number", v);
                limit = (size_t)n;
            } else if (a[2] == 'r')
                ref = v;
            else if (a[2] == 'f') {
                if (!cli_format_parse(v,
                                      1u << CLI_FMT_TABLE | 1u << CLI_FMT_CSV | 1u << CLI_FMT_JSON |
                                          1u << CLI_FMT_DOT,
                                      &fmt))
                    return usage_error("unknown format", v);
                have_format = true;
            } else if (a[2] == 's')
                svg = v;
            else
                color_when = v;
        } else if (a[0] == '-' && a[1] != '\0')
            return usage_error("unknown option", a);
        else if (ident)
            return usage_error("more than one table given", a);
        else
            ident = a;
    }
    if (!ident)
        return usage_error("no table given", NULL);
    if (graph && have_format && fmt != CLI_FMT_DOT)
        return usage_error("--graph draws text or dot, not", argv[0]);
    bool color = false;
    if (!cli_color_parse(color_when, stdout, &color))
        return usage_error("--color takes auto, always or never", color_when);

    cli_progress progress;
    cli_progress_init(&progress, quiet);
    cli_table t;
    if (cli_table_open(&t, &cat, ident, cli_progress_cb, &progress) < 0)
        return cli_fail(NULL);
    const floe_table_metadata *m = t.m;
    cli_lineage l;
    if (cli_lineage_build(&l, m, ref, all) < 0) {
        cli_table_close(&t);
        return cli_fail(NULL);
    }
    int rc;
    if (svg)
        rc = render_svg(&l, ident, limit, svg) == CLI_OK ? 0 : -1;
    else if (fmt == CLI_FMT_DOT)
        rc = cli_lineage_dot(&l, ident, limit, stdout);
    else if (graph) {
        cli_graph_opts go = {ascii, color, limit};
        rc = cli_lineage_graph(&l, &go, stdout);
    } else
        rc = print_rows(&l, limit, fmt);
    cli_lineage_free(&l);
    cli_table_close(&t);
    if (rc < 0)
        return svg ? CLI_FAIL : cli_fail(NULL);
    return CLI_OK;
}
