/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `floe` command: one file per subcommand (cmd_<name>.c), each exposing
 * `int floe_cmd_<name>(int argc, char **argv)` and registered in main.c's
 * table. Exit status: 0 success, 1 operation failed, 2 usage error.
 */
#ifndef FLOE_CLI_H
#define FLOE_CLI_H

#include <stdbool.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;
    const char *usage; /* the command's cli_usage_<name> */
} cli_command;

/* Each command's one usage text: the synopsis ("usage: floe <cmd> ...")
 * and every option described. `floe <cmd> --help` (or -h, or `floe help
 * <cmd>`) prints it on stdout and exits 0; a usage error prints a line
 * naming the problem and then this text on stderr, and exits 2. */
extern const char cli_usage_version[];
extern const char cli_usage_inspect[];
extern const char cli_usage_inventory[];
extern const char cli_usage_retention[];
extern const char cli_usage_log[];
extern const char cli_usage_suspects[];
extern const char cli_usage_serve[];
extern const char cli_usage_sql[];

/* The one way the floe command reports a failure: `<JavaClass>: <message>`
 * on stderr, as Spark prints an exception (floe sql, every other command).
 * cls NULL: the class floe__sql_error_class gives the last floe error.
 * Returns CLI_FAIL. */
int cli_error(const char *cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_error for the last floe error; `what` (a file, or NULL) goes before
 * its message. */
int cli_fail(const char *what);

/* Subcommands. */
int floe_cmd_version(int argc, char **argv);
int floe_cmd_inspect(int argc, char **argv);
int floe_cmd_sql(int argc, char **argv);

/* floe sql (cmd_sql.c, repl.c): the interactive loop on a terminal, and
 * the error report of a failed statement ("<JavaClass>: <message>"). */
struct floe_sql_session;
int cli_sql_repl(struct floe_sql_session *s);
void cli_sql_report(struct floe_sql_session *s);
int floe_cmd_log(int argc, char **argv);      /* cmd_log.c */
int floe_cmd_suspects(int argc, char **argv); /* cmd_suspects.c */

/* `floe inspect [--json] FILE.parquet`: print a Parquet footer (schema with
 * field ids, row groups, column chunks, statistics). Returns CLI_OK or
 * CLI_FAIL (error printed). */
int floe_cli_inspect_parquet(const char *path, bool json);
int floe_cmd_serve(int argc, char **argv);
int floe_cmd_inventory(int argc, char **argv);
int floe_cmd_retention(int argc, char **argv);

/* `floe inspect [--json] FILE.avro` for Avro files: detects manifest lists
 * and manifests and prints header keys and entries (inspect_avro.c). */
int floe_cli_inspect_avro(const char *path, bool json);

#endif
