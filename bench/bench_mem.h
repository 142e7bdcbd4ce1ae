/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory figures for the benchmarks (Linux /proc): a "VmRSS:" / "VmHWM:"
 * line of /proc/self/status in kB, and resetting the peak (VmHWM) so one
 * phase's peak can be measured on its own (Linux >= 4.0: write 5 to
 * /proc/self/clear_refs).
 */
#ifndef FLOE_BENCH_MEM_H
#define FLOE_BENCH_MEM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of `key` ("VmRSS:", "VmHWM:") in kB, -1 when unavailable. */
static inline long bm_status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0)
            v = atol(line + n);
    fclose(f);
    return v;
}

static inline void bm_reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

#endif
