/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_refs: the Iceberg side of a session — resolving each reference
 * the front end found in a statement (a table at main or at a time-travel
 * point, a branch, a tag, a metadata table, a table-valued function) to a
 * SQLite virtual table named after the reference (floe_ref_N), and
 * dropping those tables after the statement.
 *
 * This build has no table reader yet: a reference to an existing table
 * fails with a clear "not supported yet" error; an unknown one with
 * Iceberg's NoSuchTableException text.
 */
#include "sql/session_int.h"

#include <string.h>

#if defined(__has_include)
#if __has_include("floe/table.h")
#define FLOE_SQL_HAVE_TABLE 1
#endif
#endif

#ifndef FLOE_SQL_HAVE_TABLE

struct floe_sql_engine {
    int unused;
};

int floe__sql_engine_init(floe_sql_session *s)
{
    s->engine = NULL;
    return 0;
}

void floe__sql_engine_fini(floe_sql_session *s) { FLOE_UNUSED(s); }

#else

#include "io/io.h"
#include "sql/exec_int.h"

/* The session's table cache, as Spark's SparkCatalog configures its
 * CachingCatalog: cache-enabled=false loads on every use;
 * cache-enabled=true keeps a table until it has been idle for
 * cache.expiration-interval-ms (Java's trap: a reader that polls more often
 * never sees a rollback until REFRESH TABLE). Without cache-enabled in
 * --conf, floe's default is freshness mode: one catalog lookup per use,
 * reloading only when the pointer moved. */
struct floe_sql_engine {
    floe_fileio *io;
    floe_table_options topts;
    floe_table_cache *cache;
};

int floe__sql_engine_init(floe_sql_session *s)
{
    struct floe_sql_engine *e = floe__calloc(1, sizeof *e);
    if (!e)
        return floe__error_nomem();
    s->engine = e;
    FLOE_TRY(floe__fileio_router_new(&e->io, &s->conf));
    e->topts = (floe_table_options)FLOE_TABLE_OPTIONS_INIT;
    e->topts.io = e->io;
    e->topts.io_conf = &s->conf;
    floe_table_cache_options co = FLOE_TABLE_CACHE_OPTIONS_INIT;
    co.table = e->topts;
    const char *enabled = floe__props_get(&s->conf, "cache-enabled");
    if (enabled) {
        bool on = true;
        FLOE_TRY(floe__props_get_bool(&s->conf, "cache-enabled", true, &on));
        co.mode = on ? FLOE_CACHE_EXPIRING : FLOE_CACHE_DISABLED;
        int64_t ms = 0;
        FLOE_TRY(floe__props_get_int64(&s->conf, "cache.expiration-interval-ms", 30000, &ms));
        co.expiration_ms = ms;
        if (on)
            co.table.freshness = FLOE_FRESHNESS_CACHED;
    }
    return floe_table_cache_new(&e->cache, s->catalog, &co);
}

void floe__sql_engine_fini(floe_sql_session *s)
{
    struct floe_sql_engine *e = s->engine;
    if (!e)
        return;
    floe_table_cache_free(e->cache);
    if (e->io)
        floe_fileio_free(e->io);
    floe__free(e);
    s->engine = NULL;
}

const floe_table_options *floe__sql_table_options(floe_sql_session *s)
{
    return &s->engine->topts;
}

int floe__sql_get_table(floe_sql_session *s, const char *ident, floe_table **out)
{
    int rc = floe_table_cache_get(out, s->engine->cache, ident);
    if (rc == FLOE_ENOTFOUND)
        s->error_class = "NoSuchTableException";
    return rc;
}

void floe__sql_forget_table(floe_sql_session *s, const char *ident)
{
    floe_table_cache_invalidate(s->engine->cache, ident);
}

int floe__sql_refresh_table(floe_sql_session *s, const char *ident)
{
    int rc = floe_table_cache_refresh(s->engine->cache, ident);
    if (rc == FLOE_ENOTFOUND)
        s->error_class = "NoSuchTableException";
    return rc;
}

#endif

void floe__sql_engine_time_zone_changed(floe_sql_session *s) { FLOE_UNUSED(s); }

int floe__sql_refs_create(floe_sql_session *s, const floe_sql_stmt *st)
{
    floe_arena *a = floe__arena_new(0);
    if (!a)
        return floe__error_nomem();
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->nrefs; i++) {
        const floe_sql_tref *r = &st->refs[i];
        if (r->name.kind == FLOE_SQLREF_TVF) {
            rc = floe__sql_fail(s,
                                floe__error(FLOE_EUNSUPPORTED, "sql",
                                            "%s(...) is not supported yet", r->name.suffix),
                                "UnsupportedOperationException");
            break;
        }
        const char *ident = floe__sql_table_ident(s, &r->name, a);
        if (!ident) {
            rc = floe__error_nomem();
            break;
        }
        char *loc = NULL;
        rc = floe_catalog_load_table(&loc, NULL, s->catalog, ident);
        floe_catalog_string_free(loc);
        if (rc < 0) {
            s->error_class = rc == FLOE_ENOTFOUND ? "NoSuchTableException" : NULL;
            break;
        }
        rc = floe__sql_fail(s,
                            floe__error(FLOE_EUNSUPPORTED, "sql",
                                        "reading Iceberg tables (%s) is not supported yet", ident),
                            "UnsupportedOperationException");
    }
    floe__arena_free(a);
    return rc;
}

void floe__sql_refs_drop(floe_sql_session *s, const floe_sql_stmt *st)
{
    for (size_t i = 0; i < st->nrefs; i++) {
        char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS temp.\"%w\"", st->refs[i].sqlite_name);
        if (sql)
            sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        sqlite3_free(sql);
    }
}

int floe__sql_explain_refs(floe_sql_session *s, const floe_sql_stmt *st, floe_vec *lines,
                           floe_arena *a)
{
    FLOE_UNUSED(s);
    FLOE_UNUSED(st);
    FLOE_UNUSED(lines);
    FLOE_UNUSED(a);
    return 0;
}
