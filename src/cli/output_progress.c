/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/output_progress: the progress line of long commands on stderr, fed by
 * the library's progress callbacks (<floe/progress.h>):
 *
 *   reading metadata  1.2 MiB / 48.0 MiB  3.1 MiB/s  ETA 15s
 *   expiring  1200/4000 (30%)  ...
 *
 * Redrawn in place with a carriage return and "erase to end of line"; only
 * when stderr is a terminal (scripts and pipes get nothing), not with
 * --quiet, and only once the phase has run for the delay
 * ($FLOE_PROGRESS_DELAY_MS, default 1000 ms) so quick commands never flash a
 * line. The final report leaves the line on screen, ended by a newline.
 */
#include "output.h"

#include <stdlib.h>
#include <unistd.h>

void cli_progress_init(cli_progress *p, bool quiet)
{
    p->out = stderr;
    p->shown = false;
    p->enabled = !quiet && isatty(fileno(stderr));
    p->delay_ms = 1000;
    const char *d = getenv("FLOE_PROGRESS_DELAY_MS");
    if (d && *d) {
        char *end;
        long long v = strtoll(d, &end, 10);
        if (*end == '\0' && v >= 0)
            p->delay_ms = v;
    }
}

static void human_bytes(char *buf, size_t len, double v)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%.0f B", v);
    else
        snprintf(buf, len, "%.1f %s", v, unit[u]);
}

static void human_secs(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    if (t < 60)
        snprintf(buf, len, "%lds", t);
    else if (t < 3600)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
}

void cli_progress_cb(const floe_progress_info *info, void *payload)
{
    cli_progress *p = payload;
    if (!p || !p->enabled)
        return;
    if (!p->shown && info->elapsed_ms < p->delay_ms)
        return;
    double secs = info->elapsed_ms > 0 ? info->elapsed_ms / 1000.0 : 0.001;
    char a[32], b[32], r[32], e[32];
    fprintf(p->out, "\r%s", info->phase);
    double remaining = -1;
    if (info->total || info->done) {
        fprintf(p->out, " %llu", (unsigned long long)info->done);
        if (info->total) {
            fprintf(p->out, "/%llu (%.0f%%)", (unsigned long long)info->total,
                    100.0 * (double)info->done / (double)info->total);
            if (info->done)
                remaining = secs * (double)(info->total - (info->done < info->total ? info->done : info->total)) /
                            (double)info->done;
        }
        fprintf(p->out, "  %.0f/s", (double)info->done / secs);
    }
    if (info->bytes || info->bytes_total) {
        human_bytes(a, sizeof a, (double)info->bytes);
        fprintf(p->out, "  %s", a);
        if (info->bytes_total) {
            human_bytes(b, sizeof b, (double)info->bytes_total);
            fprintf(p->out, " / %s", b);
            if (!info->total && info->bytes)
                remaining = secs *
                            (double)(info->bytes_total -
                                     (info->bytes < info->bytes_total ? info->bytes : info->bytes_total)) /
                            (double)info->bytes;
        }
        human_bytes(r, sizeof r, (double)info->bytes / secs);
        fprintf(p->out, "  %s/s", r);
    }
    if (info->finished) {
        human_secs(e, sizeof e, secs);
        fprintf(p->out, "  done in %s\x1b[K\n", e);
        p->shown = false;
    } else {
        if (remaining >= 0) {
            human_secs(e, sizeof e, remaining);
            fprintf(p->out, "  ETA %s", e);
        }
        fputs("\x1b[K", p->out);
        p->shown = true;
    }
    fflush(p->out);
}
