/* SPDX-License-Identifier: Apache-2.0 */
/* util/progress: throttled, thread-safe progress reports. */
#include "harness.h"
#include "util/progress.h"
#include "util/util.h"

#include <stdatomic.h>

typedef struct seen {
    _Atomic int calls;
    _Atomic int finished;
    uint64_t last_done, last_bytes;
} seen;

static void cb(const floe_progress_info *info, void *payload)
{
    seen *s = payload;
    atomic_fetch_add(&s->calls, 1);
    if (info->finished)
        atomic_fetch_add(&s->finished, 1);
    s->last_done = info->done;
    s->last_bytes = info->bytes;
}

static void test_throttled_and_final(void)
{
    seen s = {0};
    floe__progress p;
    floe__progress_init(&p, cb, &s, "phase", 100000, 0);
    for (int i = 0; i < 100000; i++)
        floe__progress_add(&p, 1, 10);
    /* the first add reports (nothing was shown yet), the rest are throttled */
    FT_CHECK(atomic_load(&s.calls) >= 1);
    FT_CHECK(atomic_load(&s.calls) < 50);
    FT_EQ_INT(atomic_load(&s.finished), 0);
    floe__progress_finish(&p);
    FT_EQ_INT(atomic_load(&s.finished), 1);
    FT_EQ_INT(s.last_done, 100000);
    FT_EQ_INT(s.last_bytes, 1000000);
}

static void test_null_callback(void)
{
    floe__progress p;
    floe__progress_init(&p, NULL, NULL, NULL, 0, 0);
    floe__progress_add(&p, 3, 4);
    floe__progress_add(NULL, 1, 1);
    floe__progress_finish(&p);
    floe__progress_finish(NULL);
    FT_EQ_INT(atomic_load(&p.done), 3);
    FT_EQ_INT(atomic_load(&p.bytes), 4);
}

static floe__progress shared;

static int work(size_t i, void *payload)
{
    (void)payload;
    for (int k = 0; k < 10000; k++)
        floe__progress_add(&shared, 1, i);
    return 0;
}

static void test_threads(void)
{
    seen s = {0};
    floe__progress_init(&shared, cb, &s, "threads", 80000, 0);
    floe_pool *pool = floe__pool_new(4);
    FT_ASSERT(pool != NULL);
    FT_OK(floe__pool_for(pool, 8, work, NULL));
    floe__pool_free(pool);
    floe__progress_finish(&shared);
    FT_EQ_INT(s.last_done, 80000);
    FT_EQ_INT(s.last_bytes, 10000 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7));
    FT_EQ_INT(atomic_load(&s.finished), 1);
}

static const ft_case cases[] = {
    {"throttled_and_final", test_throttled_and_final},
    {"null_callback", test_null_callback},
    {"threads", test_threads},
};

int main(int argc, char **argv) { return ft_main(argc, argv, cases, FT_N(cases)); }
