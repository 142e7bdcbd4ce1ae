/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe suspects`: finding the snapshot before the bad write (seed 000).
 *
 * Two signals, read from snapshot summaries only (no data file is opened):
 *
 *  - the operation does not fit the table's history: an `overwrite` or
 *    `delete` on a table whose earlier commits (at least two, within the
 *    window) were only appends or rewrites (`replace`);
 *  - the commit's size deviates strongly from the table's typical commit of
 *    the same operation: added-records, added-data-files or deleted-records
 *    (for tables that regularly delete or overwrite) compared with
 *    the median of the previous commits on its lineage (up to --window),
 *    scaled by the median absolute deviation (MAD x 1.4826, the normal
 *    consistency constant) — robust statistics, so one earlier bad load
 *    does not hide the next. A snapshot is flagged when its robust z-score
 *    passes --threshold (3.5, Iglewicz and Hoaglin's cut-off) and it is at
 *    least 1.5x above or below the median; the scale never drops below 10%
 *    of the median or one, so a perfectly steady table does not turn a
 *    one-record difference into an alarm.
 *
 * For each suspect it prints the rollback target — the parent, when the
 * suspect is an ancestor of main — and the statement that undoes it:
 * CALL <catalog>.system.rollback_to_snapshot('<ns.table>', <parent id>).
 */
#include "cli.h"
#include "lineage.h"
#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cli_usage_suspects[] =
    "usage: floe suspects [--window N] [--min-history N] [--threshold Z]\n"
    "                     [--format text|table|csv|json] [--warehouse DIR]\n"
    "                     [--catalog-uri URI] [--catalog-name NAME]\n"
    "                     [--conf KEY=VALUE]... [--quiet] <ns.table>\n"
    "\n"
    "  --window N           previous commits that form the baseline (default 50)\n"
    "  --min-history N      fewest previous commits of the same operation for the\n"
    "                       size check (default 5)\n"
    "  --threshold Z        robust z-score above which a size is suspect (default 3.5)\n"
    "  --format F           text (default): a report per suspect; table, csv or json:\n"
    "                       one row per suspect\n"
    "  --warehouse DIR      warehouse root (default $FLOE_WAREHOUSE or ./warehouse)\n"
    "  --catalog-name NAME  catalog name in the database and the statement (default local)\n"
    CLI_CATALOG_USAGE
    "  -q, --quiet          no progress line on a terminal\n";

typedef struct suspect_opts {
    size_t window;
    size_t min_history;
    double threshold;
} suspect_opts;

static int usage_error(const char *msg, const char *arg)
{
    if (msg)
        fprintf(stderr, "floe suspects: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fputs(cli_usage_suspects, stderr);
    return CLI_USAGE;
}

static bool summary_num(const floe_snapshot *s, const char *key, double *out)
{
    const char *v = floe__snapshot_summary(s, key);
    if (!v || !*v)
        return false;
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (*end != '\0' || errno || !isfinite(d))
        return false;
    *out = d;
    return true;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (sorts v). */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, dcmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool same_op(const floe_snapshot *a, const floe_snapshot *b)
{
    return a->operation && b->operation && strcmp(a->operation, b->operation) == 0;
}

static bool changes_rows(const char *op)
{
    return op && (strcmp(op, "overwrite") == 0 || strcmp(op, "delete") == 0);
}

/* Check one metric of snapshot i against its ancestors in the window. */
static int check_metric(const cli_lineage *l, size_t i, const char *key, const char *what,
                        const suspect_opts *o, double *scratch, floe_buf *why)
{
    const floe_snapshot *s = l->nodes[i].s;
    double x;
    if (!summary_num(s, key, &x))
        return 0;
    size_t n = 0, steps = 0;
    for (size_t p = l->nodes[i].parent; p != CLI_LIN_NONE && steps < o->window;
         p = l->nodes[p].parent, steps++) {
        double v;
        if (same_op(l->nodes[p].s, s) && summary_num(l->nodes[p].s, key, &v))
            scratch[n++] = v;
    }
    if (n < o->min_history)
        return 0;
    double med = median(scratch, n);
    for (size_t k = 0; k < n; k++)
        scratch[k] = fabs(scratch[k] - med);
    double mad = median(scratch, n);
    double scale = fmax(fmax(1.4826 * mad, 0.1 * fabs(med)), 1.0);
    double z = fabs(x - med) / scale;
    bool big = x >= 1.5 * med || x * 1.5 <= med;
    if (z <= o->threshold || !big)
        return 0;
    char ratio[48];
    if (med > 0)
        snprintf(ratio, sizeof ratio, "%.1fx", x / med);
    else
        snprintf(ratio, sizeof ratio, "far from");
    return floe__buf_printf(why,
                            "%s%s %.0f is %s the median %.0f of the %zu previous %ss "
                            "(robust z %.1f)",
                            why->len ? "; " : "", what, x, ratio, med, n, s->operation, z);
}

static int check_operation(const cli_lineage *l, size_t i, const suspect_opts *o, floe_buf *why)
{
    const floe_snapshot *s = l->nodes[i].s;
    if (!changes_rows(s->operation))
        return 0;
    size_t n = 0, appends = 0, steps = 0;
    for (size_t p = l->nodes[i].parent; p != CLI_LIN_NONE && steps < o->window;
         p = l->nodes[p].parent, steps++) {
        const char *op = l->nodes[p].s->operation;
        n++;
        if (changes_rows(op))
            return 0;
        if (op && strcmp(op, "append") == 0)
            appends++;
    }
    if (n < 2 || appends == 0)
        return 0;
    return floe__buf_printf(why,
                            "%s%s on an append-only table (the %zu previous commits only "
                            "appended)",
                            why->len ? "; " : "", s->operation, n);
}

typedef struct suspect {
    size_t node;
    char *why;
    bool has_target;
    int64_t target;
    size_t later; /* snapshots of main the rollback also drops */
} suspect;

static void target_of(const cli_lineage *l, suspect *sp)
{
    const cli_lnode *nd = &l->nodes[sp->node];
    if (!(nd->flags & CLI_LIN_MAIN) || nd->parent == CLI_LIN_NONE)
        return;
    sp->has_target = true;
    sp->target = l->nodes[nd->parent].s->snapshot_id;
    /* Count main's snapshots above the suspect. */
    for (size_t i = 0; i < l->n; i++)
        if (l->nodes[i].flags & CLI_LIN_CURRENT) {
            for (size_t p = i, steps = 0; p != sp->node && p != CLI_LIN_NONE && steps <= l->n;
                 p = l->nodes[p].parent, steps++)
                sp->later++;
            break;
        }
}

static char *statement(const cli_catalog_opts *cat, const char *ident, const suspect *sp)
{
    return floe__sprintf("CALL %s.system.rollback_to_snapshot('%s', %lld)", cli_catalog_name(cat),
                         ident, (long long)sp->target);
}

static const char *note_of(const cli_lineage *l, const suspect *sp)
{
    const cli_lnode *nd = &l->nodes[sp->node];
    if (sp->has_target)
        return NULL;
    if (!(nd->flags & CLI_LIN_MAIN))
        return cli_lineage_abandoned(l, sp->node)
                   ? "not an ancestor of main: already rolled back (abandoned snapshot)"
                   : "not an ancestor of main: only on another branch or tag";
    return "the table's first snapshot (or its parent was expired): no earlier state to roll "
           "back to";
}

static int print_text(const cli_lineage *l, const cli_catalog_opts *cat, const char *ident,
                      const suspect *sp, size_t nsp, size_t checked)
{
    if (nsp == 0) {
        printf("no suspect snapshots among %zu checked\n", checked);
        return 0;
    }
    for (size_t k = 0; k < nsp; k++) {
        const floe_snapshot *s = l->nodes[sp[k].node].s;
        char t[40];
        cli_format_time(s->timestamp_ms, t, sizeof t);
        printf("%ssuspect %lld  %s  %s%s\n", k ? "\n" : "", (long long)s->snapshot_id, t,
               s->operation ? s->operation : "?",
               cli_lineage_abandoned(l, sp[k].node) ? "  [abandoned]" : "");
        printf("  why:      %s\n", sp[k].why);
        if (sp[k].has_target) {
            char *st = statement(cat, ident, &sp[k]);
            if (!st)
                return floe__error_nomem();
            printf("  target:   %lld (its parent)\n  undo:     %s\n", (long long)sp[k].target, st);
            if (sp[k].later)
                printf("            (also undoes the %zu later snapshot%s of main)\n", sp[k].later,
                       sp[k].later == 1 ? "" : "s");
            floe__free(st);
        } else
            printf("  undo:     %s\n", note_of(l, &sp[k]));
    }
    return 0;
}

static int print_rows(const cli_lineage *l, const cli_catalog_opts *cat, const char *ident,
                      const suspect *sp, size_t nsp, cli_format fmt)
{
    static const cli_col cols[] = {
        {"snapshot_id", CLI_COL_INT}, {"committed_at", CLI_COL_STR}, {"operation", CLI_COL_STR},
        {"state", CLI_COL_STR},       {"reason", CLI_COL_STR},       {"rollback_to", CLI_COL_INT},
        {"statement", CLI_COL_STR},
    };
    cli_rows rows;
    cli_rows_init(&rows, cols, sizeof cols / sizeof cols[0]);
    int rc = 0;
    for (size_t k = 0; k < nsp && rc == 0; k++) {
        const cli_lnode *nd = &l->nodes[sp[k].node];
        char id[24], target[24], t[40];
        snprintf(id, sizeof id, "%lld", (long long)nd->s->snapshot_id);
        snprintf(target, sizeof target, "%lld", (long long)sp[k].target);
        cli_format_time(nd->s->timestamp_ms, t, sizeof t);
        char *st = sp[k].has_target ? statement(cat, ident, &sp[k]) : NULL;
        if (sp[k].has_target && !st) {
            rc = floe__error_nomem();
            break;
        }
        const char *state = nd->flags & CLI_LIN_MAIN               ? "main"
                            : cli_lineage_abandoned(l, sp[k].node) ? "abandoned"
                                                                   : "ref";
        const char *cells[] = {
            id, t, nd->s->operation, state, sp[k].why, sp[k].has_target ? target : NULL, st};
        rc = cli_rows_add(&rows, cells);
        floe__free(st);
    }
    if (rc == 0)
        rc = cli_rows_print(&rows, fmt, stdout);
    cli_rows_free(&rows);
    return rc;
}

static bool parse_size(const char *v, size_t *out)
{
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (*v == '\0' || *end != '\0' || n < 0 || errno)
        return false;
    *out = (size_t)n;
    return true;
}

int floe_cmd_suspects(int argc, char **argv)
{
    cli_catalog_opts cat = {0};
    suspect_opts o = {50, 5, 3.5};
    cli_format fmt = CLI_FMT_TEXT;
    bool quiet = false;
    const char *ident = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int c = cli_catalog_opt(&cat, argc, argv, &i);
        if (c < 0)
            return usage_error(NULL, NULL);
        if (c > 0)
            continue;
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            quiet = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(cli_usage_suspects, stdout);
            return CLI_OK;
        } else if (strcmp(a, "--window") == 0 || strcmp(a, "--min-history") == 0 ||
                   strcmp(a, "--threshold") == 0 || strcmp(a, "--format") == 0) {
            if (i + 1 >= argc)
                return usage_error("missing value for", a);
            const char *v = argv[++i];
            if (strcmp(a, "--window") == 0) {
                if (!parse_size(v, &o.window) || o.window == 0)
                    return usage_error("--window needs a positive number", v);
            } else if (strcmp(a, "--min-history") == 0) {
                if (!parse_size(v, &o.min_history) || o.min_history == 0)
                    return usage_error("--min-history needs a positive number", v);
            } else if (strcmp(a, "--threshold") == 0) {
                char *end;
                o.threshold = strtod(v, &end);
                if (*v == '\0' || *end != '\0' || !(o.threshold > 0))
                    return usage_error("--threshold needs a positive number", v);
            } else if (!cli_format_parse(v,
                                         1u << CLI_FMT_TEXT | 1u << CLI_FMT_TABLE |
                                             1u << CLI_FMT_CSV | 1u << CLI_FMT_JSON,
                                         &fmt))
                return usage_error("unknown format", v);
        } else if (a[0] == '-' && a[1] != '\0')
            return usage_error("unknown option", a);
        else if (ident)
            return usage_error("more than one table given", a);
        else
            ident = a;
    }
    if (!ident)
        return usage_error("no table given", NULL);

    cli_progress progress;
    cli_progress_init(&progress, quiet);
    cli_table t;
    if (cli_table_open(&t, &cat, ident, cli_progress_cb, &progress) < 0)
        return cli_fail(NULL);
    const floe_table_metadata *m = t.m;
    cli_lineage l;
    if (cli_lineage_build(&l, m, NULL, true) < 0) {
        cli_table_close(&t);
        return cli_fail(NULL);
    }
    double *scratch = floe__calloc(o.window + 1, sizeof *scratch);
    suspect *sp = floe__calloc(l.norder ? l.norder : 1, sizeof *sp);
    size_t nsp = 0;
    floe_buf why = FLOE_BUF_INIT;
    int rc = scratch && sp ? 0 : floe__error_nomem();
    for (size_t k = 0; k < l.norder && rc == 0; k++) {
        size_t i = l.order[k];
        floe__buf_clear(&why);
        rc = check_operation(&l, i, &o, &why);
        if (rc == 0)
            rc = check_metric(&l, i, "added-records", "added-records", &o, scratch, &why);
        if (rc == 0)
            rc = check_metric(&l, i, "added-data-files", "added-data-files", &o, scratch, &why);
        if (rc == 0)
            rc = check_metric(&l, i, "deleted-records", "deleted-records", &o, scratch, &why);
        if (rc == 0 && why.len) {
            sp[nsp].node = i;
            if (!(sp[nsp].why = floe__strdup(why.ptr)))
                rc = floe__error_nomem();
            else
                target_of(&l, &sp[nsp++]);
        }
    }
    if (rc == 0)
        rc = fmt == CLI_FMT_TEXT ? print_text(&l, &cat, ident, sp, nsp, l.norder)
                                 : print_rows(&l, &cat, ident, sp, nsp, fmt);
    for (size_t k = 0; k < nsp; k++)
        floe__free(sp[k].why);
    floe__free(sp);
    floe__free(scratch);
    floe__buf_free(&why);
    cli_lineage_free(&l);
    cli_table_close(&t);
    return rc < 0 ? cli_fail(NULL) : CLI_OK;
}
