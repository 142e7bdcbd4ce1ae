/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe retention`: the retention report of one table (seed 000, "Retention
 * is your storage bill and your undo button at once"): per ref the
 * recovery window it keeps, the bytes only old snapshots hold, and what
 * expire_snapshots with the current settings would delete, including the
 * snapshots that would become unrecoverable. Reads only; never commits.
 * See docs/cli/floe-retention.md.
 */
#include "cli.h"
#include "output.h"

#include "floe.h"
#include "util/civil.h"
#include "util/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cli_usage_retention[] =
    "usage: floe retention [--warehouse DIR | --catalog-uri URI] [--catalog-name NAME]\n"
    "                      [--conf KEY=VALUE]...\n"
    "                      [--now MS] [--format text|json] [--quiet] <ns.table>\n"
    "\n"
    "  --warehouse DIR      warehouse root (default $FLOE_WAREHOUSE or ./warehouse)\n"
    "  --catalog-name NAME  catalog name in the database (default local)\n" CLI_CATALOG_USAGE
    "  --now MS             evaluate the policy at this time (ms since epoch)\n"
    "  --format F           text (default) or json\n"
    "  -q, --quiet          no progress line on a terminal\n";

static void fmt_time(int64_t ms, char *out, size_t n)
{
    int64_t days = floe__floordiv(ms, 86400000);
    int64_t rem = ms - days * 86400000;
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(days, &y, &m, &d);
    snprintf(out, n, "%04lld-%02u-%02u %02lld:%02lld:%02lld", (long long)y, m, d,
             (long long)(rem / 3600000), (long long)(rem / 60000 % 60),
             (long long)(rem / 1000 % 60));
}

static void fmt_age(int64_t ms, char *out, size_t n)
{
    if (ms < 0)
        ms = 0;
    if (ms >= 86400000)
        snprintf(out, n, "%lldd %lldh", (long long)(ms / 86400000), (long long)(ms / 3600000 % 24));
    else if (ms >= 3600000)
        snprintf(out, n, "%lldh %lldm", (long long)(ms / 3600000), (long long)(ms / 60000 % 60));
    else if (ms >= 60000)
        snprintf(out, n, "%lldm %llds", (long long)(ms / 60000), (long long)(ms / 1000 % 60));
    else
        snprintf(out, n, "%lld.%03llds", (long long)(ms / 1000), (long long)(ms % 1000));
}

static void fmt_dur(int64_t ms, char *out, size_t n)
{
    if (ms < 0)
        snprintf(out, n, "forever");
    else if (ms % 86400000 == 0 && ms)
        snprintf(out, n, "%lldd", (long long)(ms / 86400000));
    else if (ms % 3600000 == 0 && ms)
        snprintf(out, n, "%lldh", (long long)(ms / 3600000));
    else
        snprintf(out, n, "%lldms", (long long)ms);
}

static void print_text(const char *ident, const floe_maint_retention_report *r, int64_t now)
{
    char t[64], a[64], p1[32], p2[32];
    fmt_time(now, t, sizeof t);
    printf("table %s: %lld snapshots (evaluated at %s UTC)\n\n", ident,
           (long long)r->snapshots_count, t);
    printf("%-20s %-6s %20s %5s  %-20s %-19s %-9s  %s\n", "ref", "type", "snapshot", "keeps",
           "oldest retained", "committed (UTC)", "age", "policy");
    for (size_t i = 0; i < r->nrefs; i++) {
        const floe_maint_retention_ref *f = &r->refs[i];
        fmt_time(f->oldest_timestamp_ms, t, sizeof t);
        fmt_age(f->oldest_age_ms, a, sizeof a);
        fmt_dur(f->max_ref_age_ms, p2, sizeof p2);
        printf("%-20s %-6s %20lld %5lld  %-20lld %-19s %-9s  ", f->name, f->type,
               (long long)f->snapshot_id, (long long)f->retained_count,
               (long long)f->oldest_snapshot_id, t, a);
        if (strcmp(f->type, "branch") == 0) {
            fmt_dur(f->max_snapshot_age_ms, p1, sizeof p1);
            printf("keep >= %lld, max snapshot age %s, ref age %s",
                   (long long)f->min_snapshots_to_keep, p1, p2);
        } else {
            printf("ref age %s", p2);
        }
        printf("%s\n", f->expires ? "  (EXPIRES: ref past its max age)" : "");
    }
    printf("\nbytes in live files of the current snapshot (files): %lld\n",
           (long long)r->current_files_bytes);
    printf("bytes in live files of all snapshots (all_data_files): %lld\n",
           (long long)r->all_files_bytes);
    printf("bytes held only by old snapshots: %lld\n",
           (long long)r->bytes_held_only_by_old_snapshots);
    printf(
        "  (all_data_files - files over data files, as the metadata tables compute it: %lld)\n\n",
        (long long)r->all_data_files_minus_files_bytes);
    if (!r->nexpiring) {
        printf("expire_snapshots with the current settings would expire nothing.\n");
        return;
    }
    printf("expire_snapshots with the current settings would make %zu snapshot(s) "
           "unrecoverable:\n",
           r->nexpiring);
    for (size_t i = 0; i < r->nexpiring; i++) {
        fmt_time(r->expiring_timestamps_ms[i], t, sizeof t);
        fmt_age(now - r->expiring_timestamps_ms[i], a, sizeof a);
        printf("  %20lld  %s  (%s old)\n", (long long)r->expiring_snapshot_ids[i], t, a);
    }
    const floe_maint_expire_result *w = &r->would_delete;
    printf("and delete: %lld data files, %lld position delete files, %lld equality delete files, "
           "%lld manifests, %lld manifest lists, %lld statistics files (%lld bytes of data and "
           "delete files)\n",
           (long long)w->deleted_data_files_count,
           (long long)w->deleted_position_delete_files_count,
           (long long)w->deleted_equality_delete_files_count,
           (long long)w->deleted_manifest_files_count, (long long)w->deleted_manifest_lists_count,
           (long long)w->deleted_statistics_files_count, (long long)r->would_free_bytes);
}

static void print_json(const char *ident, const floe_maint_retention_report *r, int64_t now)
{
    printf("{\"table\":\"%s\",\"now_ms\":%lld,\"snapshots\":%lld,\"refs\":[", ident, (long long)now,
           (long long)r->snapshots_count);
    for (size_t i = 0; i < r->nrefs; i++) {
        const floe_maint_retention_ref *f = &r->refs[i];
        printf("%s{\"name\":\"%s\",\"type\":\"%s\",\"snapshot_id\":%lld,\"retained_count\":%lld,"
               "\"oldest_snapshot_id\":%lld,\"oldest_timestamp_ms\":%lld,\"oldest_age_ms\":%lld,"
               "\"min_snapshots_to_keep\":%lld,\"max_snapshot_age_ms\":%lld,"
               "\"max_ref_age_ms\":%lld,\"expires\":%s}",
               i ? "," : "", f->name, f->type, (long long)f->snapshot_id,
               (long long)f->retained_count, (long long)f->oldest_snapshot_id,
               (long long)f->oldest_timestamp_ms, (long long)f->oldest_age_ms,
               (long long)f->min_snapshots_to_keep, (long long)f->max_snapshot_age_ms,
               (long long)f->max_ref_age_ms, f->expires ? "true" : "false");
    }
    printf("],\"files_bytes\":%lld,\"all_files_bytes\":%lld,"
           "\"bytes_held_only_by_old_snapshots\":%lld,\"all_data_files_minus_files_bytes\":%lld,"
           "\"expiring\":[",
           (long long)r->current_files_bytes, (long long)r->all_files_bytes,
           (long long)r->bytes_held_only_by_old_snapshots,
           (long long)r->all_data_files_minus_files_bytes);
    for (size_t i = 0; i < r->nexpiring; i++)
        printf("%s{\"snapshot_id\":%lld,\"timestamp_ms\":%lld}", i ? "," : "",
               (long long)r->expiring_snapshot_ids[i], (long long)r->expiring_timestamps_ms[i]);
    const floe_maint_expire_result *w = &r->would_delete;
    printf("],\"would_delete\":{\"deleted_data_files_count\":%lld,"
           "\"deleted_position_delete_files_count\":%lld,"
           "\"deleted_equality_delete_files_count\":%lld,\"deleted_manifest_files_count\":%lld,"
           "\"deleted_manifest_lists_count\":%lld,\"deleted_statistics_files_count\":%lld,"
           "\"bytes\":%lld}}\n",
           (long long)w->deleted_data_files_count,
           (long long)w->deleted_position_delete_files_count,
           (long long)w->deleted_equality_delete_files_count,
           (long long)w->deleted_manifest_files_count, (long long)w->deleted_manifest_lists_count,
           (long long)w->deleted_statistics_files_count, (long long)r->would_free_bytes);
}

/* Keep a usage error's message and argument for the report; CLI_USAGE. */
static int usage_problem(const char *(*problem)[2], const char *msg, const char *arg)
{
    (*problem)[0] = msg;
    (*problem)[1] = arg;
    return CLI_USAGE;
}

int floe_cmd_retention(int argc, char **argv)
{
    const char *problem[2] = {NULL, NULL};
    cli_catalog_opts cat_opts = {0};
    const char *ident = NULL, *format = "text";
    int64_t now = 0;
    floe_props conf = FLOE_PROPS_INIT;
    bool have_conf = false;
    int rc = CLI_OK;
    bool quiet = false;
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = true;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(cli_usage_retention, stdout);
            floe__props_free(&conf);
            return CLI_OK;
        }
        if (a[0] != '-') {
            if (ident)
                rc = usage_problem(&problem, "more than one table given", a);
            ident = a;
            continue;
        }
        int taken = cli_catalog_opt(&cat_opts, argc, argv, &i);
        if (taken) {
            if (taken < 0)
                rc = usage_problem(&problem, "bad value for", a);
            continue;
        }
        if (!v) {
            rc = usage_problem(&problem, "missing value for", a);
            break;
        }
        i++;
        if (strcmp(a, "--format") == 0) {
            format = v;
        } else if (strcmp(a, "--now") == 0) {
            char *end;
            now = strtoll(v, &end, 10);
            if (!*v || *end)
                rc = usage_problem(&problem, "--now needs milliseconds since the epoch", v);
        } else {
            rc = usage_problem(&problem, "unknown option", a);
        }
    }
    if (rc == CLI_OK && !ident)
        rc = usage_problem(&problem, "no table given", NULL);
    if (rc == CLI_OK && strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        rc = usage_problem(&problem, "unknown format", format);
    if (rc != CLI_OK) {
        fprintf(stderr, "floe retention: %s%s%s\n%s", problem[0], problem[1] ? ": " : "",
                problem[1] ? problem[1] : "", cli_usage_retention);
        floe__props_free(&conf);
        return CLI_USAGE;
    }
    if (!now)
        now = floe__now_ms();
    have_conf = cat_opts.nconf > 0;
    if (cli_catalog_conf(&cat_opts, &conf) < 0) {
        floe__props_free(&conf);
        return cli_fail(NULL);
    }
    floe_catalog *cat = NULL;
    int err = cli_catalog_open(&cat_opts, &cat);
    floe_maint_retention_report *r = NULL;
    cli_progress progress;
    cli_progress_init(&progress, quiet);
    floe_maint_retention_options ro = FLOE_MAINT_RETENTION_OPTIONS_INIT;
    ro.now_ms = now;
    ro.io_conf = have_conf ? &conf : NULL;
    ro.progress = cli_progress_cb;
    ro.progress_payload = &progress;
    if (err == 0)
        err = floe_maint_retention_report_compute(&r, cat, ident, &ro);
    if (err == 0) {
        if (strcmp(format, "json") == 0)
            print_json(ident, r, now);
        else
            print_text(ident, r, now);
    }
    floe_maint_retention_report_free(r);
    floe_catalog_free(cat);
    floe__props_free(&conf);
    return err < 0 ? cli_fail(NULL) : CLI_OK;
}
