/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/cache: a cache of loaded tables over one catalog.
 *
 * FLOE_CACHE_EXPIRING reproduces Iceberg's CachingCatalog (Spark's default,
 * cache-enabled=true): an entry is served as loaded until it has not been
 * accessed for cache.expiration-interval-ms (30 s by default; expiry is
 * measured since the last access, so a table queried more often never
 * expires) or until REFRESH TABLE. That is why a dashboard keeps serving a
 * rolled-back state (seed 000, "A dashboard keeps serving the bad rows").
 * FLOE_CACHE_FRESHNESS, floe's default, compares the catalog pointer on
 * every get (one indexed SQLite lookup) and reloads only when it moved.
 * FLOE_CACHE_DISABLED loads on every get (cache-enabled=false).
 * In every mode a commit the cache's owner made through another handle
 * replaces the cached state (floe_table_cache_committed): Java's cached
 * Table is the object that committed, so a session sees its own writes.
 */
#include "table/table.h"

#include <string.h>

typedef struct entry {
    floe_table *table;
    int64_t last_access_ms;
} entry;

struct floe_table_cache {
    floe_catalog *catalog;
    floe_table_cache_options opts;
    floe_strmap *entries; /* ident (owned by the entry's table) -> entry* */
};

static int64_t (*clock_hook)(void);

void floe__table_cache_set_clock(int64_t (*now_ms)(void))
{
    clock_hook = now_ms;
}

static int64_t now_ms(void)
{
    return clock_hook ? clock_hook() : floe__mono_ns() / 1000000;
}

int floe_table_cache_new(floe_table_cache **out, floe_catalog *catalog,
                         const floe_table_cache_options *opts)
{
    *out = NULL;
    if (!catalog)
        return floe__error(FLOE_EINVALID, "table", "NULL catalog");
    if (opts && opts->version != FLOE_TABLE_CACHE_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "table", "unknown floe_table_cache_options version %u",
                           opts->version);
    floe_table_cache *c = floe__calloc(1, sizeof *c);
    if (!c || !(c->entries = floe__strmap_new())) {
        floe__free(c);
        return floe__error_nomem();
    }
    c->catalog = catalog;
    if (opts) {
        c->opts = *opts;
    } else {
        floe_table_cache_options d = FLOE_TABLE_CACHE_OPTIONS_INIT;
        c->opts = d;
    }
    if (c->opts.expiration_ms == 0)
        c->opts.expiration_ms = 30000;
    /* handles of an expiring cache never check the pointer themselves */
    c->opts.table.freshness =
        c->opts.mode == FLOE_CACHE_EXPIRING ? FLOE_FRESHNESS_CACHED : FLOE_FRESHNESS_CHECK;
    *out = c;
    return 0;
}

static void entry_free(entry *e)
{
    if (e) {
        floe_table_free(e->table);
        floe__free(e);
    }
}

void floe_table_cache_invalidate(floe_table_cache *c, const char *ident)
{
    if (!c || !ident)
        return;
    entry *e = floe__strmap_get(c->entries, ident);
    if (e) {
        floe__strmap_del(c->entries, ident);
        entry_free(e);
    }
}

void floe_table_cache_free(floe_table_cache *c)
{
    if (!c)
        return;
    size_t it = 0;
    const char *k;
    void *v;
    while (floe__strmap_next(c->entries, &it, &k, &v))
        entry_free(v);
    floe__strmap_free(c->entries);
    floe__free(c);
}

static int load_entry(floe_table_cache *c, const char *ident, entry **out)
{
    entry *e = floe__calloc(1, sizeof *e);
    if (!e)
        return floe__error_nomem();
    int rc = floe_table_load(&e->table, c->catalog, ident, &c->opts.table);
    if (rc == 0)
        rc = floe__strmap_put(c->entries, floe_table_ident(e->table), e);
    if (rc < 0) {
        entry_free(e);
        return rc;
    }
    *out = e;
    return 0;
}

int floe_table_cache_get(floe_table **out, floe_table_cache *c, const char *ident)
{
    *out = NULL;
    if (!c || !ident)
        return floe__error(FLOE_EINVALID, "table", "NULL cache or identifier");
    entry *e = floe__strmap_get(c->entries, ident);
    int64_t now = now_ms();
    if (e) {
        switch (c->opts.mode) {
        case FLOE_CACHE_EXPIRING:
            if (c->opts.expiration_ms > 0 && now - e->last_access_ms >= c->opts.expiration_ms) {
                floe_table_cache_invalidate(c, ident);
                e = NULL;
            }
            break;
        case FLOE_CACHE_FRESHNESS: {
            int rc = floe_table_ensure_fresh(e->table);
            if (rc < 0) {
                floe_table_cache_invalidate(c, ident);
                return rc;
            }
            break;
        }
        case FLOE_CACHE_DISABLED:
            floe_table_cache_invalidate(c, ident);
            e = NULL;
            break;
        }
    }
    if (!e)
        FLOE_TRY(load_entry(c, ident, &e));
    e->last_access_ms = now;
    *out = e->table;
    return 0;
}

int floe_table_cache_refresh(floe_table_cache *c, const char *ident)
{
    if (!c || !ident)
        return floe__error(FLOE_EINVALID, "table", "NULL cache or identifier");
    entry *e = floe__strmap_get(c->entries, ident);
    if (!e) {
        FLOE_TRY(load_entry(c, ident, &e));
        e->last_access_ms = now_ms();
        return 0;
    }
    return floe_table_refresh(e->table);
}

int floe_table_cache_committed(floe_table_cache *c, const floe_table *written)
{
    if (!c || !written)
        return floe__error(FLOE_EINVALID, "table", "NULL cache or table");
    entry *e = floe__strmap_get(c->entries, floe_table_ident(written));
    const char *loc = floe_table_metadata_location(written);
    if (!e || !loc)
        return 0;
    int rc = floe__table_adopt(e->table, loc);
    if (rc < 0)
        floe_table_cache_invalidate(c, floe_table_ident(written));
    return rc;
}
