/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util/progress: throttled progress reports (see progress.h). Counters are
 * atomics so that pool workers can count without a lock; the time check is
 * a compare-and-swap on the next due time, so of several threads crossing
 * the deadline together exactly one reports.
 */
#include "util/progress.h"

#include "util/util.h"

static void fill(const floe__progress *p, floe_progress_info *info, int64_t now, bool finished)
{
    info->phase = p->phase;
    info->done = atomic_load(&p->done);
    info->total = p->total;
    info->bytes = atomic_load(&p->bytes);
    info->bytes_total = p->bytes_total;
    info->elapsed_ms = (now - p->start_ns) / 1000000;
    info->finished = finished;
}

void floe__progress_init(floe__progress *p, floe_progress_fn fn, void *payload, const char *phase,
                         uint64_t total, uint64_t bytes_total)
{
    p->fn = fn;
    p->payload = payload;
    p->phase = phase ? phase : "";
    p->total = total;
    p->bytes_total = bytes_total;
    p->start_ns = floe__mono_ns();
    atomic_init(&p->done, 0);
    atomic_init(&p->bytes, 0);
    atomic_init(&p->next_ns, p->start_ns);
    atomic_flag_clear(&p->busy);
}

void floe__progress_set_total(floe__progress *p, uint64_t total, uint64_t bytes_total)
{
    if (total > p->total)
        p->total = total;
    if (bytes_total > p->bytes_total)
        p->bytes_total = bytes_total;
}

void floe__progress_add(floe__progress *p, uint64_t items, uint64_t bytes)
{
    if (!p)
        return;
    atomic_fetch_add(&p->done, items);
    atomic_fetch_add(&p->bytes, bytes);
    if (!p->fn)
        return;
    int64_t now = floe__mono_ns();
    int64_t due = atomic_load(&p->next_ns);
    if (now < due)
        return;
    if (!atomic_compare_exchange_strong(&p->next_ns, &due,
                                        now + (int64_t)FLOE_PROGRESS_INTERVAL_MS * 1000000))
        return;
    if (atomic_flag_test_and_set(&p->busy))
        return;
    floe_progress_info info;
    fill(p, &info, now, false);
    p->fn(&info, p->payload);
    atomic_flag_clear(&p->busy);
}

void floe__progress_finish(floe__progress *p)
{
    if (!p || !p->fn)
        return;
    /* Wait out a report in flight on another thread (they are short). */
    while (atomic_flag_test_and_set(&p->busy))
        ;
    floe_progress_info info;
    fill(p, &info, floe__mono_ns(), true);
    p->fn(&info, p->payload);
    atomic_flag_clear(&p->busy);
}
