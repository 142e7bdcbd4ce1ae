/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/output: what the listing commands of `floe` share.
 *
 *  - Result sets as `table` (the box `floe sql` and Spark's show() print),
 *    `csv` (RFC 4180, header row) or `json` (one object per line). Kept
 *    small on purpose: src/sql/output.c (floe sql) formats SQL result sets
 *    with type hints; the two may be unified later.
 *  - Colour decisions (a terminal, NO_COLOR unset, --color).
 *  - The warehouse / catalog options every table command takes
 *    (--warehouse DIR, env FLOE_WAREHOUSE, default ./warehouse; catalog file
 *    DIR/catalog.db; --catalog-name NAME, default `local`: the convention of
 *    `floe sql`) and loading a table's current metadata through them.
 *  - The progress line on stderr (output_progress.c).
 */
#ifndef FLOE_CLI_OUTPUT_H
#define FLOE_CLI_OUTPUT_H

#include "floe/catalog.h"
#include "floe/io.h"
#include "floe/progress.h"
#include "spec/metadata.h"
#include "util/util.h"

#include <stdbool.h>
#include <stdio.h>

typedef enum cli_format {
    CLI_FMT_TEXT,
    CLI_FMT_TABLE,
    CLI_FMT_CSV,
    CLI_FMT_JSON,
    CLI_FMT_DOT
} cli_format;

/* Parse "table", "csv", "json" (and "text", "dot" when allowed by `mask`,
 * a bit per cli_format). false for anything else. */
bool cli_format_parse(const char *s, unsigned mask, cli_format *out);

/* ---------------------------------------------------------------- result sets */

typedef enum cli_col_type { CLI_COL_STR, CLI_COL_INT, CLI_COL_BOOL } cli_col_type;

typedef struct cli_col {
    const char *name;
    cli_col_type type;
} cli_col;

typedef struct cli_rows {
    const cli_col *cols;
    size_t ncols;
    floe_vec cells; /* char* (owned, NULL = null), row-major */
} cli_rows;

void cli_rows_init(cli_rows *r, const cli_col *cols, size_t ncols);
void cli_rows_free(cli_rows *r);
/* Append one row of ncols cells (copied; NULL = null). FLOE_ENOMEM. */
int cli_rows_add(cli_rows *r, const char *const *cells);
/* Write the rows in `fmt` (table, csv or json). */
int cli_rows_print(const cli_rows *r, cli_format fmt, FILE *out);

/* ---------------------------------------------------------------- text helpers */

/* "YYYY-MM-DD HH:MM:SS.fff" (UTC) into buf (at least 32 bytes). */
void cli_format_time(int64_t ms, char *buf, size_t len);

/* Colour: `when` is "auto" (a terminal and NO_COLOR unset), "always" or
 * "never". false for another word. */
bool cli_color_parse(const char *when, FILE *out, bool *color);

/* ---------------------------------------------------------------- tables */

#define CLI_MAX_CONF 128

/* The usage lines of --catalog-uri and --conf (every table command). */
#define CLI_CATALOG_USAGE                                                                          \
    "  --catalog-uri URI    the catalog: thrift://HOST:PORT a Hive Metastore,\n"                 \
    "                       http(s)://... an Iceberg REST catalog (default: the\n"               \
    "                       SQLite catalog DIR/catalog.db)\n"                                     \
    "  --conf KEY=VALUE     catalog or FileIO property, as floe sql --conf: type, uri,\n"        \
    "                       warehouse, hadoop.iceberg.hive.*, token, credential, s3.*,\n"       \
    "                       io.location-map=s3a://b/t=/srv/copy, ...\n"

typedef struct cli_catalog_opts {
    const char *warehouse;    /* NULL: $FLOE_WAREHOUSE, else ./warehouse */
    const char *catalog_name; /* NULL: "local" */
    const char *catalog_uri;  /* --catalog-uri: thrift:// (HMS), http(s):// (REST), SQLite */
    const char *conf[CLI_MAX_CONF]; /* --conf KEY=VALUE as given (into argv) */
    size_t nconf;
} cli_catalog_opts;

/* If argv[*i] is --warehouse, --catalog-name, --catalog-uri or --conf (or
 * --x=VALUE), consume it. Returns 1 when consumed, 0 when not ours, -1 on a
 * usage error (message printed: a missing value, --conf without KEY=). */
int cli_catalog_opt(cli_catalog_opts *o, int argc, char **argv, int *i);

/* The --conf pairs as properties (appended to *out). FLOE_ENOMEM. */
int cli_catalog_conf(const cli_catalog_opts *o, floe_props *out);

/* Open the catalog the options name, as `floe sql` opens its session's
 * (floe__sql_catalog_open: the same --catalog-uri and --conf keys): a Hive
 * Metastore for thrift://, a REST catalog for http(s)://; without a uri the
 * warehouse's SQLite catalog (<warehouse>/catalog.db, never created here;
 * FLOE_ENOTFOUND "no catalog at ..." when it is missing). */
int cli_catalog_open(const cli_catalog_opts *o, floe_catalog **out);

/* The catalog name used in statements (`local` by default). */
const char *cli_catalog_name(const cli_catalog_opts *o);

/* An open table: the catalog, a FileIO that counts the bytes it reads for
 * the progress line, and the table handle (include/floe/table.h). */
typedef struct cli_table {
    floe_catalog *catalog;
    floe_fileio *io;
    struct floe_table *table;
    const floe_table_metadata *m; /* borrowed from `table` */
    void *progress;               /* the byte counter behind `io` */
} cli_table;

/* Open the catalog DIR/catalog.db (never creating it) and load `ident`
 * with floe_table_load; `progress` (may be NULL) hears about the metadata
 * bytes read. Errors: FLOE_ENOTFOUND (no catalog, "Table does not exist:
 * ident"), those of floe_table_load. */
int cli_table_open(cli_table *t, const cli_catalog_opts *o, const char *ident,
                   floe_progress_fn progress, void *progress_payload);
void cli_table_close(cli_table *t);

/* ---------------------------------------------------------------- progress line */

/* The progress line on stderr: drawn only when stderr is a terminal and
 * not `quiet`, after the phase has run for $FLOE_PROGRESS_DELAY_MS
 * (default 1000) so that quick commands print nothing. Use cli_progress_cb
 * with the cli_progress as payload. */
typedef struct cli_progress {
    bool enabled;
    bool shown; /* a line is on screen */
    int64_t delay_ms;
    FILE *out;
} cli_progress;

void cli_progress_init(cli_progress *p, bool quiet);
void cli_progress_cb(const floe_progress_info *info, void *payload);

#endif
