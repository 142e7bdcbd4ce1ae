/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Progress callbacks: long operations (expiry, orphan scans, inventory
 * copies, large loads, planning) report how far they are through a
 * callback instead of printing. The library never writes to a terminal; the
 * `floe` command turns these reports into a status line on stderr.
 *
 * Reports are throttled by the operation (a few per second at most, plus
 * one final report with `finished` set) and may come from worker threads,
 * one at a time.
 */
#ifndef FLOE_PROGRESS_H
#define FLOE_PROGRESS_H

#include "floe/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct floe_progress_info {
    const char *phase;    /* what is being done ("reading metadata", "expiring") */
    uint64_t done;        /* items done */
    uint64_t total;       /* items expected; 0 = unknown */
    uint64_t bytes;       /* bytes done */
    uint64_t bytes_total; /* bytes expected; 0 = unknown */
    int64_t elapsed_ms;   /* since the phase started */
    bool finished;        /* the last report of this phase */
} floe_progress_info;

/* Called with a report; `payload` is the one given with the callback. The
 * info and its strings are valid during the call only. */
typedef void (*floe_progress_fn)(const floe_progress_info *info, void *payload);

#ifdef __cplusplus
}
#endif
#endif
