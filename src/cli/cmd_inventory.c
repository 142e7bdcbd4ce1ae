/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe inventory`: every object one pinned snapshot needs (seed 001), one
 * row each — kind, path, size, content, status — as an aligned table, CSV
 * or JSON lines, optionally copied into a self-contained backup whose
 * metadata names only the copy (--copy-to). The table comes from the warehouse's SQLite catalog
 * (<warehouse>/catalog.db, as `floe sql`). See docs/cli/floe-inventory.md.
 */
#include "cli.h"
#include "output.h"

#include "floe.h"
#include "util/time.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cli_usage_inventory[] =
    "usage: floe inventory [--warehouse DIR | --catalog-uri URI] [--catalog-name NAME]\n"
    "                      [--conf KEY=VALUE]...\n"
    "                      <ns.table> [--snapshot ID | --ref NAME | --timestamp TS]\n"
    "                      [--format table|csv|json] [--copy-to DIR] [--quiet]\n"
    "\n"
    "  --warehouse DIR      warehouse root (default $FLOE_WAREHOUSE or ./warehouse);\n"
    "                       the catalog is DIR/catalog.db\n"
    "  --catalog-name NAME  catalog name in the database (default local)\n" CLI_CATALOG_USAGE
    "  --snapshot ID        the snapshot to pin (default: the current one)\n"
    "  --ref NAME           the snapshot a branch or tag points at\n"
    "  --timestamp TS       the snapshot current at TS (ms since epoch or\n"
    "                       'YYYY-MM-DD[ HH:MM:SS[.fff]][+HH:MM]', UTC without an offset),\n"
    "                       from the snapshot log\n"
    "  --format F           table (default), csv or json (one object per line)\n"
    "  --copy-to DIR        also copy the snapshot into DIR as a self-contained\n"
    "                       backup (its metadata names only files under DIR)\n"
    "  -q, --quiet          no progress line on a terminal\n";

/* ms since epoch, or a time as floe sql reads one (util/time: UTC unless
 * it carries an offset; a 4-digit year, so never out of range). */
static int parse_time(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*s && !*end && errno == 0) {
        *out = v;
        return 0;
    }
    return floe__time_parse(s, NULL, out);
}

typedef struct out_ctx {
    const char *format;
    int64_t rows, bytes;
} out_ctx;

static void csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static int print_row(const floe_maint_inventory_row *r, void *payload)
{
    out_ctx *o = payload;
    o->rows++;
    if (r->size > 0)
        o->bytes += r->size;
    if (strcmp(o->format, "csv") == 0) {
        printf("%s,", r->kind_name);
        csv_field(r->path);
        printf(",%lld,%s,%s\n", (long long)r->size, r->content, r->status);
    } else if (strcmp(o->format, "json") == 0) {
        printf("{\"kind\":\"%s\",\"path\":", r->kind_name);
        json_string(r->path);
        printf(",\"size\":%lld,\"content\":\"%s\",\"status\":\"%s\"}\n", (long long)r->size,
               r->content, r->status);
    } else {
        printf("%-15s %12lld  %-16s %-8s  %s\n", r->kind_name, (long long)r->size,
               *r->content ? r->content : "-", *r->status ? r->status : "-", r->path);
    }
    return ferror(stdout) ? FLOE_EIO : 0;
}

int floe_cmd_inventory(int argc, char **argv)
{
    cli_catalog_opts cat_opts = {0};
    const char *ident = NULL, *format = "table";
    floe_maint_inventory_options o = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
    floe_props conf_store = FLOE_PROPS_INIT;
    int selectors = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = true;
            continue;
        }
        bool takes = a[0] == '-' && a[1] == '-' && strcmp(a, "--help") != 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(cli_usage_inventory, stdout);
            floe__props_free(&conf_store);
            return CLI_OK;
        }
        if (takes && !v) {
            fprintf(stderr, "floe inventory: %s needs a value\n%s", a, cli_usage_inventory);
            floe__props_free(&conf_store);
            return CLI_USAGE;
        }
        if (!takes) {
            if (ident) {
                fprintf(stderr, "floe inventory: unexpected argument '%s'\n%s", a,
                        cli_usage_inventory);
                floe__props_free(&conf_store);
                return CLI_USAGE;
            }
            ident = a;
            continue;
        }
        int taken = cli_catalog_opt(&cat_opts, argc, argv, &i);
        if (taken < 0) {
            fputs(cli_usage_inventory, stderr);
            return CLI_USAGE;
        }
        if (taken > 0)
            continue;
        i++;
        if (strcmp(a, "--format") == 0) {
            format = v;
        } else if (strcmp(a, "--copy-to") == 0) {
            o.copy_to = v;
        } else if (strcmp(a, "--ref") == 0) {
            o.ref = v;
            selectors++;
        } else if (strcmp(a, "--snapshot") == 0) {
            char *end;
            errno = 0;
            o.snapshot_id = strtoll(v, &end, 10);
            if (!*v || *end || errno) {
                fprintf(stderr, "floe inventory: bad snapshot id '%s'\n", v);
                floe__props_free(&conf_store);
                return CLI_USAGE;
            }
            o.has_snapshot_id = true;
            selectors++;
        } else if (strcmp(a, "--timestamp") == 0) {
            if (parse_time(v, &o.timestamp_ms) < 0) {
                fprintf(stderr, "floe inventory: %s\n%s", floe_error_last()->message,
                        cli_usage_inventory);
                floe__props_free(&conf_store);
                return CLI_USAGE;
            }
            o.has_timestamp = true;
            selectors++;
        } else {
            fprintf(stderr, "floe inventory: unknown option '%s'\n%s", a, cli_usage_inventory);
            floe__props_free(&conf_store);
            return CLI_USAGE;
        }
    }
    if (!ident || selectors > 1 ||
        (strcmp(format, "table") != 0 && strcmp(format, "csv") != 0 &&
         strcmp(format, "json") != 0)) {
        fprintf(stderr, "%s", cli_usage_inventory);
        floe__props_free(&conf_store);
        return CLI_USAGE;
    }
    if (cli_catalog_conf(&cat_opts, &conf_store) < 0) {
        floe__props_free(&conf_store);
        return cli_fail(NULL);
    }
    o.io_conf = cat_opts.nconf ? &conf_store : NULL;
    /* an absolute copy target, so that the backup's location map works
     * from anywhere */
    char *abs_copy = NULL;
    if (o.copy_to && o.copy_to[0] != '/') {
        char cwd[4096];
        if (getcwd(cwd, sizeof cwd))
            o.copy_to = abs_copy = floe__sprintf("%s/%s", cwd, o.copy_to);
    }
    floe_catalog *cat = NULL;
    int rc = cli_catalog_open(&cat_opts, &cat);
    if (rc < 0) {
        floe__free(abs_copy);
        floe__props_free(&conf_store);
        return cli_fail(NULL);
    }
    out_ctx out = {format, 0, 0};
    if (strcmp(format, "csv") == 0)
        printf("kind,path,size,content,status\n");
    else if (strcmp(format, "table") == 0)
        printf("%-15s %12s  %-16s %-8s  %s\n", "kind", "size", "content", "status", "path");
    cli_progress progress;
    cli_progress_init(&progress, quiet);
    o.progress = cli_progress_cb;
    o.progress_payload = &progress;
    char *backup = NULL;
    rc = floe_maint_inventory(&backup, cat, ident, &o, print_row, &out);
    if (rc == 0 && strcmp(format, "table") == 0)
        printf("%lld objects, %lld bytes\n", (long long)out.rows, (long long)out.bytes);
    if (rc == 0 && backup)
        fprintf(stderr,
                "backup written: metadata %s\nit names only files under %s: register it "
                "(CALL system.register_table) to read it (see %s/floe-backup.properties)\n",
                backup, o.copy_to, o.copy_to);
    floe_catalog_string_free(backup);
    floe__free(abs_copy);
    floe_catalog_free(cat);
    floe__props_free(&conf_store);
    if (rc < 0)
        return cli_fail(NULL);
    return CLI_OK;
}
