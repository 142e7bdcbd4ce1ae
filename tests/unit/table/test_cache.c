/* SPDX-License-Identifier: Apache-2.0 */
/* table: the seed's stale dashboard. Another process rolls the table back;
 * a reader with Java's CachingCatalog semantics keeps the old state until
 * REFRESH or until idle for the expiration interval (since last access),
 * while a freshness-mode reader sees the rollback on its next use. */
#include "fixture.h"

#include <sys/wait.h>
#include <unistd.h>

static int64_t g_now = 1000000;

static int64_t fake_clock(void)
{
    return g_now;
}

/* Roll back in a separate process (the on-call engineer's session). */
static bool other_process_sets(int64_t id)
{
    pid_t pid = fork();
    if (pid == 0) {
        floe_catalog *c = fx_catalog();
        floe_table *t = NULL;
        if (!c || floe_table_load(&t, c, "shop.orders_cache", NULL) < 0 ||
            floe_table_set_current_snapshot(NULL, NULL, t, id) < 0)
            _exit(1);
        _exit(0);
    }
    int st = 0;
    return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int64_t main_of(floe_table_cache *cache)
{
    floe_table *t = NULL;
    if (floe_table_cache_get(&t, cache, "shop.orders_cache") < 0) {
        ft_fail(__FILE__, __LINE__, "cache get: %s", ft_floe_err());
        return 0;
    }
    return fx_main(t);
}

static void test_stale_reader(void)
{
    floe__table_cache_set_clock(fake_clock);
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *w = NULL;
    FT_OK(fx_create(&w, c, "shop.orders_cache", NULL));
    int64_t good = fx_append(w, 3);
    int64_t bad = fx_append(w, 2);

    floe_table_cache_options eo = FLOE_TABLE_CACHE_OPTIONS_INIT;
    eo.mode = FLOE_CACHE_EXPIRING; /* Spark's default catalog: cache-enabled=true */
    floe_table_cache_options fo = FLOE_TABLE_CACHE_OPTIONS_INIT; /* floe's default */
    floe_table_cache_options dopt = FLOE_TABLE_CACHE_OPTIONS_INIT;
    dopt.mode = FLOE_CACHE_DISABLED;
    floe_table_cache *dash = NULL, *fresh = NULL, *ops = NULL;
    FT_OK(floe_table_cache_new(&dash, c, &eo));
    FT_OK(floe_table_cache_new(&fresh, c, &fo));
    FT_OK(floe_table_cache_new(&ops, c, &dopt));
    FT_EQ_INT(main_of(dash), bad);
    FT_EQ_INT(main_of(fresh), bad);

    FT_ASSERT(other_process_sets(good));
    FT_EQ_INT(main_of(ops), good);   /* on-call sees 3 */
    FT_EQ_INT(main_of(dash), bad);   /* dashboard still sees 5 */
    FT_EQ_INT(main_of(fresh), good); /* freshness: next use sees the rollback */

    /* polled every 10 s the entry never expires (expiry since last access) */
    for (int i = 0; i < 6; i++) {
        g_now += 10000;
        FT_EQ_INT(main_of(dash), bad);
    }
    /* idle for 35 s: expired, reloaded */
    g_now += 35000;
    FT_EQ_INT(main_of(dash), good);

    /* REFRESH TABLE */
    FT_ASSERT(other_process_sets(bad));
    FT_EQ_INT(main_of(dash), good);
    FT_OK(floe_table_cache_refresh(dash, "shop.orders_cache"));
    FT_EQ_INT(main_of(dash), bad);
    FT_EQ_INT(main_of(fresh), bad);

    /* plain handles: a CACHED handle ignores ensure_fresh, CHECK reloads */
    floe_table_options co = FLOE_TABLE_OPTIONS_INIT;
    co.freshness = FLOE_FRESHNESS_CACHED;
    floe_table *cached = NULL, *checked = NULL;
    FT_OK(floe_table_load(&cached, c, "shop.orders_cache", &co));
    FT_OK(floe_table_load(&checked, c, "shop.orders_cache", NULL));
    FT_EQ_INT(floe_table_ensure_fresh(checked), 0);
    FT_ASSERT(other_process_sets(good));
    FT_EQ_INT(floe_table_ensure_fresh(cached), 0);
    FT_EQ_INT(fx_main(cached), bad);
    FT_EQ_INT(floe_table_ensure_fresh(checked), 1);
    FT_EQ_INT(fx_main(checked), good);
    FT_EQ_INT(floe_table_ensure_fresh(checked), 0);
    FT_OK(floe_table_refresh(cached));
    FT_EQ_INT(fx_main(cached), good);

    /* a dropped table: the freshness check reports it */
    floe_table_cache_invalidate(fresh, "shop.nope");
    floe_table *x = NULL;
    FT_CHECK(floe_table_cache_get(&x, fresh, "shop.nope") == FLOE_ENOTFOUND);

    floe_table_free(cached);
    floe_table_free(checked);
    floe_table_cache_free(dash);
    floe_table_cache_free(fresh);
    floe_table_cache_free(ops);
    floe_table_free(w);
    floe_catalog_free(c);
    floe__table_cache_set_clock(NULL);
}

/* A commit through another handle (the SQL session's write target) is
 * taken by the expiring cache's entry: the session reads its own write,
 * as Java's cached Table is the object that committed. */
static void test_committed(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *w = NULL;
    FT_OK(fx_create(&w, c, "shop.own", NULL));
    int64_t first = fx_append(w, 3);
    floe_table_cache_options eo = FLOE_TABLE_CACHE_OPTIONS_INIT;
    eo.mode = FLOE_CACHE_EXPIRING;
    floe_table_cache *dash = NULL;
    FT_OK(floe_table_cache_new(&dash, c, &eo));
    floe_table *t = NULL;
    FT_OK(floe_table_cache_get(&t, dash, "shop.own"));
    FT_EQ_INT(fx_main(t), first);
    int64_t second = fx_append(w, 2);
    FT_OK(floe_table_cache_get(&t, dash, "shop.own"));
    FT_EQ_INT(fx_main(t), first); /* someone else's commit: stale */
    FT_OK(floe_table_cache_committed(dash, w));
    FT_OK(floe_table_cache_get(&t, dash, "shop.own"));
    FT_EQ_INT(fx_main(t), second);
    FT_EQ_STR(floe_table_metadata_location(t), floe_table_metadata_location(w));
    /* no entry: nothing to do */
    floe_table_cache_invalidate(dash, "shop.own");
    FT_OK(floe_table_cache_committed(dash, w));
    floe_table_cache_free(dash);
    floe_table_free(w);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"stale_reader", test_stale_reader},
    {"committed", test_committed},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
