/* SPDX-License-Identifier: Apache-2.0 */
/* Entry point of the `floe` command: dispatches to subcommands. */
#include "cli.h"

#include "floe.h"

#include "sql/exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char cli_usage_version[] = "usage: floe version\n"
                                 "\n"
                                 "Prints `floe <version>`; `floe --version` and `floe -V` do too.\n";

static const cli_command commands[] = {
    {"version", floe_cmd_version, "print the version", cli_usage_version},
    {"inspect", floe_cmd_inspect, "describe a metadata.json, manifest, manifest list or Parquet file",
     cli_usage_inspect},
    {"inventory", floe_cmd_inventory, "list (and back up) every object a pinned snapshot needs",
     cli_usage_inventory},
    {"retention", floe_cmd_retention, "report recovery windows and what expiry would delete",
     cli_usage_retention},
    {"log", floe_cmd_log, "list a table's snapshots newest first; --graph draws the lineage",
     cli_usage_log},
    {"suspects", floe_cmd_suspects,
     "find the snapshots behind a bad write and the statement that undoes them", cli_usage_suspects},
    {"serve", floe_cmd_serve, "run the Iceberg REST catalog server", cli_usage_serve},
    {"sql", floe_cmd_sql, "the SQL shell (Spark/Iceberg dialect on SQLite)", cli_usage_sql},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: floe <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`floe help <command>` or `floe <command> --help` for details.\n");
}

/* `floe <cmd> --help`, `floe help <cmd>`: the command's usage text, as the
 * command prints it for a --help among its other options. */
static int help(const cli_command *c)
{
    fputs(c->usage, stdout);
    return CLI_OK;
}

static const cli_command *find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int cli_error(const char *cls, const char *fmt, ...)
{
    const floe_error *e = floe_error_last();
    fflush(stdout);
    fprintf(stderr, "%s: ", cls ? cls : floe_error_exception(e));
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}

int cli_fail(const char *what)
{
    const floe_error *e = floe_error_last();
    const char *msg = e && e->message ? e->message : "unknown error";
    return what ? cli_error(NULL, "%s: %s", what, msg) : cli_error(NULL, "%s", msg);
}

int floe_cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("floe %s\n", floe_version());
    return CLI_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0)
        return floe_cmd_version(argc - 1, argv + 1);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return CLI_OK;
        }
        const cli_command *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "floe: unknown command '%s'\n", argv[2]);
            return CLI_USAGE;
        }
        return help(c);
    }
    const cli_command *c = find(cmd);
    if (!c) {
        fprintf(stderr, "floe: unknown command '%s'\n", cmd);
        usage(stderr);
        return CLI_USAGE;
    }
    if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        return help(c);
    }
    return c->run(argc - 1, argv + 1);
}
