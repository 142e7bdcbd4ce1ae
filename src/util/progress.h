/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util/progress: the reporting side of <floe/progress.h>. An operation
 * keeps one floe__progress per phase, bumps its counters from any thread
 * and the reporter calls the user's callback at most every
 * FLOE_PROGRESS_INTERVAL_MS (and once at the end). A reporter whose callback
 * is NULL costs two atomic adds per call and never calls anything, so
 * library code can report unconditionally.
 */
#ifndef FLOE_UTIL_PROGRESS_H
#define FLOE_UTIL_PROGRESS_H

#include "floe/progress.h"

#include <stdatomic.h>
#include <stdint.h>

#define FLOE_PROGRESS_INTERVAL_MS 100

typedef struct floe__progress {
    floe_progress_fn fn;
    void *payload;
    const char *phase;
    uint64_t total;
    uint64_t bytes_total;
    int64_t start_ns;
    _Atomic uint64_t done;
    _Atomic uint64_t bytes;
    _Atomic int64_t next_ns; /* earliest time of the next report */
    atomic_flag busy;        /* one callback at a time */
} floe__progress;

/* Start a phase (`fn` may be NULL: nothing is reported). `phase` must live
 * until floe__progress_finish. Totals of 0 mean unknown. */
void floe__progress_init(floe__progress *p, floe_progress_fn fn, void *payload, const char *phase,
                         uint64_t total, uint64_t bytes_total);
/* Count `items` and `bytes` more (thread-safe); reports when due. */
void floe__progress_add(floe__progress *p, uint64_t items, uint64_t bytes);
/* Raise the expected totals (when discovered late). */
void floe__progress_set_total(floe__progress *p, uint64_t total, uint64_t bytes_total);
/* The final report (always delivered when fn is set). */
void floe__progress_finish(floe__progress *p);

#endif
