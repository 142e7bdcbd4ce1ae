/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/output: result sets as table / csv / json, time and colour helpers,
 * and the warehouse options plus table loading shared by the listing
 * commands (see output.h).
 */
#include "output.h"

#include "floe/io.h"
#include "floe/table.h"
#include "io/io.h"
#include "sql/exec.h"
#include "table/table.h"
#include "util/civil.h"
#include "util/progress.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool cli_format_parse(const char *s, unsigned mask, cli_format *out)
{
    static const char *const names[] = {"text", "table", "csv", "json", "dot"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((mask & (1u << i)) && strcmp(s, names[i]) == 0) {
            *out = (cli_format)i;
            return true;
        }
    return false;
}

void cli_rows_init(cli_rows *r, const cli_col *cols, size_t ncols)
{
    r->cols = cols;
    r->ncols = ncols;
    r->cells = (floe_vec)FLOE_VEC_INIT(char *);
}

void cli_rows_free(cli_rows *r)
{
    for (size_t i = 0; i < r->cells.len; i++)
        floe__free(*(char **)floe__vec_at(&r->cells, i));
    floe__vec_free(&r->cells);
}

int cli_rows_add(cli_rows *r, const char *const *cells)
{
    for (size_t i = 0; i < r->ncols; i++) {
        char *c = NULL;
        if (cells[i] && !(c = floe__strdup(cells[i])))
            return floe__error_nomem();
        char **slot = floe__vec_push(&r->cells);
        if (!slot) {
            floe__free(c);
            return floe__error_nomem();
        }
        *slot = c;
    }
    return 0;
}

static const char *cell(const cli_rows *r, size_t row, size_t col)
{
    return *(char **)floe__vec_at(&r->cells, row * r->ncols + col);
}

static int to_file(const char *data, size_t len, void *payload)
{
    return fwrite(data, 1, len, payload) == len ? 0 : -1;
}

/* Listings print through the SQL shell's formatter (sql/output.c), so every
 * command's table, csv and json look the same as `floe sql`'s: text columns
 * as strings, numeric ones as their digits. */
int cli_rows_print(const cli_rows *r, cli_format fmt, FILE *out)
{
    floe_sql_format f = fmt == CLI_FMT_CSV    ? FLOE_SQLFMT_CSV
                        : fmt == CLI_FMT_JSON ? FLOE_SQLFMT_JSON
                                              : FLOE_SQLFMT_TABLE;
    size_t nrows = r->ncols ? r->cells.len / r->ncols : 0;
    const char **names = floe__calloc(r->ncols ? r->ncols : 1, sizeof *names);
    floe_sql_cell *cells = floe__calloc(r->ncols ? r->ncols : 1, sizeof *cells);
    floe_sql_out *o = NULL;
    int rc = names && cells ? floe__sql_out_new(&o, f, to_file, out) : floe__error_nomem();
    for (size_t c = 0; rc == 0 && c < r->ncols; c++)
        names[c] = r->cols[c].name;
    if (rc == 0)
        rc = floe__sql_out_begin(o, names, r->ncols);
    for (size_t i = 0; rc == 0 && i < nrows; i++) {
        for (size_t c = 0; c < r->ncols; c++) {
            cells[c] = floe__sql_cell_text(cell(r, i, c));
            if (cells[c].kind == FLOE_SQLC_TEXT && r->cols[c].type != CLI_COL_STR)
                cells[c].kind = FLOE_SQLC_JSON; /* digits, unquoted in json */
        }
        rc = floe__sql_out_row(o, cells);
    }
    if (rc == 0)
        rc = floe__sql_out_end(o);
    floe__sql_out_free(o);
    floe__free(names);
    floe__free(cells);
    return rc;
}

void cli_format_time(int64_t ms, char *buf, size_t len)
{
    int64_t days = floe__floordiv(ms, 86400000);
    int64_t rem = floe__floormod(ms, 86400000);
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(days, &y, &m, &d);
    snprintf(buf, len, "%04lld-%02u-%02u %02u:%02u:%02u.%03u", (long long)y, m, d,
             (unsigned)(rem / 3600000), (unsigned)(rem / 60000 % 60), (unsigned)(rem / 1000 % 60),
             (unsigned)(rem % 1000));
}

bool cli_color_parse(const char *when, FILE *out, bool *color)
{
    if (strcmp(when, "always") == 0)
        *color = true;
    else if (strcmp(when, "never") == 0)
        *color = false;
    else if (strcmp(when, "auto") == 0) {
        const char *nc = getenv("NO_COLOR");
        *color = isatty(fileno(out)) && !(nc && *nc);
    } else
        return false;
    return true;
}

/* ---------------------------------------------------------------- tables */

static int opt_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "floe: %s needs a value\n", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int cli_catalog_opt(cli_catalog_opts *o, int argc, char **argv, int *i)
{
    int rc = opt_value(argc, argv, i, "--warehouse", &o->warehouse);
    if (!rc)
        rc = opt_value(argc, argv, i, "--catalog-name", &o->catalog_name);
    if (!rc)
        rc = opt_value(argc, argv, i, "--catalog-uri", &o->catalog_uri);
    if (rc)
        return rc;
    const char *kv = NULL;
    if ((rc = opt_value(argc, argv, i, "--conf", &kv)) <= 0)
        return rc;
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv) {
        fprintf(stderr, "floe: --conf needs KEY=VALUE, got '%s'\n", kv);
        return -1;
    }
    if (o->nconf == CLI_MAX_CONF) {
        fprintf(stderr, "floe: more than %d --conf options\n", CLI_MAX_CONF);
        return -1;
    }
    o->conf[o->nconf++] = kv;
    return 1;
}

int cli_catalog_conf(const cli_catalog_opts *o, floe_props *out)
{
    for (size_t i = 0; i < o->nconf; i++) {
        const char *eq = strchr(o->conf[i], '=');
        char *key = floe__strndup(o->conf[i], (size_t)(eq - o->conf[i]));
        int rc = key ? floe__props_set(out, key, eq + 1) : floe__error_nomem();
        floe__free(key);
        FLOE_TRY(rc);
    }
    return 0;
}

const char *cli_catalog_name(const cli_catalog_opts *o)
{
    return o->catalog_name && *o->catalog_name ? o->catalog_name : FLOE_CATALOG_DEFAULT_NAME;
}

static const char *warehouse(const cli_catalog_opts *o)
{
    if (o->warehouse && *o->warehouse)
        return o->warehouse;
    const char *env = getenv("FLOE_WAREHOUSE");
    return env && *env ? env : "./warehouse";
}

/* A FileIO wrapper whose inputs count what they read for the progress
 * line (the table layer reads metadata through whatever FileIO it is
 * given, so this is how a command sees those bytes). */
typedef struct counting_io {
    floe_fileio base;
    floe_fileio *inner;
    floe__progress progress;
} counting_io;

typedef struct counting_input {
    floe_input base;
    floe_input *inner;
    floe__progress *progress;
} counting_input;

static int counting_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    counting_input *c = (counting_input *)in;
    int rc = c->inner->read_at(c->inner, offset, buf, len);
    if (rc == 0)
        floe__progress_add(c->progress, 0, len);
    return rc;
}

static void counting_close(floe_input *in)
{
    counting_input *c = (counting_input *)in;
    c->inner->close(c->inner);
    floe__free(c);
}

static int cio_open_input(floe_fileio *io, const char *uri, floe_input **out)
{
    counting_io *c = io->impl;
    floe_input *inner = NULL;
    FLOE_TRY(floe_fileio_open_input(&inner, c->inner, uri));
    counting_input *ci = floe__calloc(1, sizeof *ci);
    if (!ci) {
        inner->close(inner);
        return floe__error_nomem();
    }
    ci->base = (floe_input){inner->uri, inner->size, counting_read_at, counting_close};
    ci->inner = inner;
    ci->progress = &c->progress;
    if (inner->size > 0)
        floe__progress_set_total(&c->progress, 0, c->progress.bytes_total + (uint64_t)inner->size);
    *out = &ci->base;
    return 0;
}

static int cio_create_output(floe_fileio *io, const char *uri, floe_output **out)
{
    return floe_fileio_create_output(out, ((counting_io *)io->impl)->inner, uri);
}

static int cio_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    return floe_fileio_remove(((counting_io *)io->impl)->inner, uris, n);
}

static int cio_list(floe_fileio *io, const char *prefix,
                    int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    return floe_fileio_list(((counting_io *)io->impl)->inner, prefix, cb, payload);
}

static int cio_stat(floe_fileio *io, const char *uri, floe_file_info *out)
{
    return floe_fileio_stat(out, ((counting_io *)io->impl)->inner, uri);
}

static void cio_free(floe_fileio *io)
{
    counting_io *c = io->impl;
    floe_fileio_free(c->inner);
    floe__free(c);
}

static const floe_fileio_ops counting_ops = {FLOE_FILEIO_OPS_VERSION,
                                             cio_open_input,
                                             cio_create_output,
                                             cio_remove,
                                             cio_list,
                                             cio_stat,
                                             cio_free};

int cli_catalog_open(const cli_catalog_opts *o, floe_catalog **out)
{
    *out = NULL;
    floe_props conf = FLOE_PROPS_INIT;
    int crc = cli_catalog_conf(o, &conf);
    if (crc == 0) {
        const char *env = getenv("FLOE_WAREHOUSE");
        const char *wh = o->warehouse && *o->warehouse ? o->warehouse : env && *env ? env : NULL;
        crc = floe__sql_catalog_open(out, cli_catalog_name(o), o->catalog_uri, &conf, wh);
    }
    floe__props_free(&conf);
    if (crc < 0 || *out)
        return crc;
    const char *wh = warehouse(o);
    char *db = floe__sprintf("%s/catalog.db", wh);
    if (!db)
        return floe__error_nomem();
    if (access(db, F_OK) != 0) {
        int rc = floe__error(FLOE_ENOTFOUND, "cli",
                             "no catalog at %s (set --warehouse or FLOE_WAREHOUSE)", db);
        floe__free(db);
        return rc;
    }
    floe_catalog_options copts = FLOE_CATALOG_OPTIONS_INIT;
    copts.name = cli_catalog_name(o);
    copts.warehouse = wh;
    copts.no_create = true;
    int rc = floe_catalog_open_sql(out, db, &copts);
    floe__free(db);
    return rc;
}

int cli_table_open(cli_table *t, const cli_catalog_opts *o, const char *ident,
                   floe_progress_fn progress, void *progress_payload)
{
    memset(t, 0, sizeof *t);
    int rc = cli_catalog_open(o, &t->catalog);
    if (rc < 0)
        return rc;
    counting_io *c = floe__calloc(1, sizeof *c);
    if (!c) {
        cli_table_close(t);
        return floe__error_nomem();
    }
    floe_props conf = FLOE_PROPS_INIT;
    rc = cli_catalog_conf(o, &conf); /* FileIO keys (s3.*, io.location-map) */
    if (rc == 0)
        rc = floe__fileio_router_new(&c->inner, &conf);
    floe__props_free(&conf);
    if (rc < 0) {
        floe__free(c);
        cli_table_close(t);
        return rc;
    }
    c->base.ops = &counting_ops;
    c->base.impl = c;
    t->io = &c->base;
    t->progress = &c->progress;
    floe__progress_init(&c->progress, progress, progress_payload, "reading metadata", 0, 0);
    floe_table_options topts = FLOE_TABLE_OPTIONS_INIT;
    topts.io = t->io;
    topts.freshness = FLOE_FRESHNESS_CACHED;
    rc = floe_table_load(&t->table, t->catalog, ident, &topts);
    floe__progress_finish(&c->progress);
    if (rc < 0) {
        cli_table_close(t);
        return rc;
    }
    t->m = t->table->metadata;
    return 0;
}

void cli_table_close(cli_table *t)
{
    floe_table_free(t->table);
    floe_fileio_free(t->io);
    floe_catalog_free(t->catalog);
    memset(t, 0, sizeof *t);
}
