/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_refs: the Iceberg side of a session — resolving each reference
 * the front end found in a statement (a table at main or at a time-travel
 * point, a branch, a tag, a metadata table, a table-valued function) to a
 * SQLite virtual table named after the reference (floe_ref_N), and
 * dropping those tables after the statement. Metadata tables are meta's
 * row sources, data tables exec_data.c's; both go through the "floe_rows"
 * virtual-table module (sql/vtab.h). Unknown tables fail with Iceberg's
 * NoSuchTableException text. Also the session's table cache.
 */
#include "io/io.h"
#include "meta/meta.h"
#include "rows/rowsource.h"
#include "sql/exec_data.h"
#include "sql/exec_int.h"
#include "sql/vtab.h"
#include "table/table.h"

#include <string.h>

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
    bool expiring; /* cache-enabled=true: handles keep their state (Java's Table) */
    floe_vtab_registry *reg;
    floe_strmap *live; /* sqlite name -> floe_rowsource* of live virtual tables */
    floe_vec names;    /* char*: keys of `live` the session owns (floe__sql_live_create) */
};

/* Result columns read straight from a virtual table column: booleans show
 * as true/false, decimals with their scale (SQLite holds 0/1 and text). */
static int column_hint(const char *table, const char *column, void *payload)
{
    struct floe_sql_engine *e = payload;
    const floe_rowsource *rs = e->live ? floe__strmap_get(e->live, table) : NULL;
    if (!rs)
        return FLOE_SQL_HINT_NONE;
    int h = floe__sql_data_hint(rs, column);
    if (h != FLOE_SQL_HINT_NONE - 1)
        return h;
    for (size_t i = 0; i < rs->ncolumns; i++) {
        if (strcmp(rs->columns[i].name, column) != 0)
            continue;
        const floe_type *t = rs->columns[i].type;
        if (t->id == FLOE_T_BOOLEAN)
            return FLOE_SQL_HINT_BOOL;
        if (t->id == FLOE_T_DECIMAL)
            return t->scale;
        break;
    }
    return FLOE_SQL_HINT_NONE;
}

/* The Spark type text of a nested column read straight from a virtual
 * table (table output shows its values as Spark's show()). */
static int column_type_text(const char *table, const char *column, void *payload, floe_buf *out)
{
    struct floe_sql_engine *e = payload;
    const floe_rowsource *rs = e->live ? floe__strmap_get(e->live, table) : NULL;
    const floe_type *t = rs ? floe__sql_data_type(rs, column) : NULL;
    for (size_t i = 0; rs && !t && i < rs->ncolumns; i++)
        if (strcmp(rs->columns[i].name, column) == 0)
            t = rs->columns[i].type;
    return t && floe_type_is_nested(t) ? floe__sql_spark_type(t, false, out) : 0;
}

int floe__sql_engine_init(floe_sql_session *s)
{
    struct floe_sql_engine *e = floe__calloc(1, sizeof *e);
    if (!e)
        return floe__error_nomem();
    s->engine = e;
    e->names = (floe_vec)FLOE_VEC_INIT(char *);
    /* One FileIO for the session: a router over every scheme, behind the
     * location map when `io.location-map` is set (floe_fileio_open does both). */
    const char *map = floe__props_get(&s->conf, "io.location-map");
    if (map && *map)
        FLOE_TRY(floe_fileio_open(&e->io, "file", &s->conf));
    else
        FLOE_TRY(floe__fileio_router_new(&e->io, &s->conf));
    e->topts = (floe_table_options)FLOE_TABLE_OPTIONS_INIT;
    e->topts.io = e->io;
    e->topts.io_conf = &s->conf;
    for (size_t i = 0; i < s->ncats; i++) {
        floe_sql_catalog *c = &s->cats[i];
        floe_table_cache_options co = FLOE_TABLE_CACHE_OPTIONS_INIT;
        co.table = e->topts;
        /* a catalog defined Spark-style has Spark's default, cache-enabled=true */
        if (c->spark || floe__props_get(&c->props, "cache-enabled")) {
            bool on = true;
            FLOE_TRY(floe__props_get_bool(&c->props, "cache-enabled", true, &on));
            co.mode = on ? FLOE_CACHE_EXPIRING : FLOE_CACHE_DISABLED;
            int64_t ms = 0;
            FLOE_TRY(floe__props_get_int64(&c->props, "cache.expiration-interval-ms", 30000, &ms));
            co.expiration_ms = ms;
            if (on)
                co.table.freshness = FLOE_FRESHNESS_CACHED;
            c->expiring = on;
        } else if (floe__props_get(&c->props, "cache.expiration-interval-ms")) {
            return floe__error(FLOE_EINVALID, "sql",
                               "catalog '%s': cache.expiration-interval-ms applies to "
                               "cache-enabled=true (floe's default is freshness mode)",
                               c->name);
        }
        FLOE_TRY(floe_table_cache_new(&c->cache, c->catalog, &co));
    }
    floe__sql_engine_catalog_changed(s);
    if (!(e->live = floe__strmap_new()))
        return floe__error_nomem();
    floe__sql_out_set_hint(s->out, column_hint, e);
    floe__sql_out_set_type_text(s->out, column_type_text);
    floe_vtab_registry *reg = NULL;
    FLOE_TRY(floe__vtab_register(s->db, &reg));
    e->reg = reg;
    return 0;
}

void floe__sql_engine_fini(floe_sql_session *s)
{
    struct floe_sql_engine *e = s->engine;
    if (!e)
        return;
    for (size_t i = 0; i < s->ncats; i++) {
        floe_table_cache_free(s->cats[i].cache);
        s->cats[i].cache = NULL;
    }
    floe__strmap_free(e->live);
    for (size_t i = 0; i < e->names.len; i++)
        floe__free(*(char **)floe__vec_at(&e->names, i));
    floe__vec_free(&e->names);
    if (e->io)
        floe_fileio_free(e->io);
    floe__free(e);
    s->engine = NULL;
}

const floe_table_options *floe__sql_table_options(floe_sql_session *s)
{
    return &s->engine->topts;
}

void floe__sql_engine_catalog_changed(floe_sql_session *s)
{
    struct floe_sql_engine *e = s->engine;
    if (!e)
        return;
    e->cache = s->cats[s->cur].cache;
    e->expiring = s->cats[s->cur].expiring;
    e->topts.freshness = e->expiring ? FLOE_FRESHNESS_CACHED : FLOE_FRESHNESS_CHECK;
}

int floe__sql_get_table_in(floe_sql_session *s, size_t cat, const char *ident, floe_table **out)
{
    /* the catalogs raise a missing table as FLOE_KIND_NO_SUCH_TABLE */
    return floe__sql_classify(
        s, floe_table_cache_get(out, s->cats[cat < s->ncats ? cat : s->cur].cache, ident));
}

int floe__sql_get_table(floe_sql_session *s, const char *ident, floe_table **out)
{
    return floe__sql_classify(s, floe_table_cache_get(out, s->engine->cache, ident));
}

void floe__sql_forget_table(floe_sql_session *s, const char *ident)
{
    floe_table_cache_invalidate(s->engine->cache, ident);
}

int floe__sql_refresh_table(floe_sql_session *s, const char *ident)
{
    return floe__sql_classify(s, floe_table_cache_refresh(s->engine->cache, ident));
}

int floe__sql_table_committed(floe_sql_session *s, const floe_table *written)
{
    return floe_table_cache_committed(s->engine->cache, written);
}

int floe__sql_table_changed(floe_sql_session *s, const char *ident)
{
    floe_table *t = NULL;
    int rc = floe_table_cache_get(&t, s->engine->cache, ident);
    if (rc == 0)
        rc = floe_table_refresh(t);
    if (rc == FLOE_ENOTFOUND) { /* gone meanwhile: nothing to show */
        floe_error_clear();
        floe_table_cache_invalidate(s->engine->cache, ident);
        rc = 0;
    }
    return rc;
}

int floe__sql_wap_enabled(floe_sql_session *s, const char *ident, bool *out)
{
    floe_table *t = NULL;
    *out = false;
    FLOE_TRY(floe__sql_get_table(s, ident, &t));
    return floe__props_get_bool(&t->metadata->properties, "write.wap.enabled", false, out);
}

int floe__sql_write_base(floe_sql_session *s, const char *ident, floe_table *t)
{
    if (!s->engine->expiring)
        return 0; /* the cache serves the catalog's state: t already has it */
    floe_table *cached = NULL;
    FLOE_TRY(floe__sql_get_table(s, ident, &cached));
    return floe__table_adopt(t, floe_table_metadata_location(cached));
}

void floe__sql_engine_time_zone_changed(floe_sql_session *s)
{
    if (s->engine && s->engine->reg)
        floe__vtab_set_time_zone(s->engine->reg, s->tz);
}

#include "table/table.h"

/* A metadata-table row source that owns the table metadata it reads: the
 * cached table handle may be reloaded while a temporary view still uses
 * the virtual table, so the wrapper keeps its own copy of the state the
 * statement resolved (the same metadata file, re-read) and delegates to
 * the inner source through its own cursors. */
typedef struct owned_rs {
    floe_rowsource pub;
    floe_rowsource *inner;
    floe_table_metadata *m;
    char *location;
    floe_strmap *live; /* the engine's map of live tables (borrowed) */
    char *sqlite_name;
} owned_rs;

typedef struct owned_cursor {
    floe_rowcursor hdr; /* points at the wrapper */
    floe_rowcursor *inner;
} owned_cursor;

static int owned_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                      floe_rowcursor **out)
{
    owned_rs *o = rs->impl;
    owned_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    int rc = floe__rs_open(o->inner, cons, ncons, &c->inner);
    if (rc < 0) {
        floe__free(c);
        return rc;
    }
    c->hdr.rs = rs;
    *out = &c->hdr;
    return 0;
}
static int owned_next(floe_rowcursor *c) { return floe__rs_next(((owned_cursor *)c)->inner); }
static int owned_column(floe_rowcursor *c, size_t col, floe_rs_cell *out)
{
    return floe__rs_column(((owned_cursor *)c)->inner, col, out);
}
static void owned_close(floe_rowcursor *c)
{
    floe__rs_close(((owned_cursor *)c)->inner);
    floe__free(c);
}
static void owned_free(floe_rowsource *rs)
{
    owned_rs *o = rs->impl;
    if (o->live && o->sqlite_name && floe__strmap_get(o->live, o->sqlite_name) == rs)
        floe__strmap_del(o->live, o->sqlite_name);
    floe__free(o->sqlite_name);
    floe__rs_free(o->inner);
    floe__metadata_free(o->m);
    floe__free(o->location);
    floe__free(o);
}
static const floe_rowsource_ops owned_ops = {owned_open, owned_next, owned_column, owned_close,
                                             owned_free};

/* Time travel of a reference -> snapshot id (false: none requested). */
static int travel_snapshot(floe_sql_session *s, floe_table *t, const floe_sql_tref *r, bool *has,
                           int64_t *id)
{
    floe_snapshot_info si = {0};
    int rc = 0;
    *has = true;
    switch (r->travel.kind) {
    case FLOE_SQLTT_NONE: *has = false; return 0;
    case FLOE_SQLTT_SNAPSHOT: rc = floe_table_snapshot_by_id(&si, t, r->travel.snapshot_id); break;
    case FLOE_SQLTT_REF: rc = floe_table_snapshot_by_ref(&si, t, r->travel.ref); break;
    case FLOE_SQLTT_TIMESTAMP: {
        int64_t ms = 0;
        rc = floe__time_parse(r->travel.timestamp, r->travel.timestamp_utc ? NULL : s->tz, &ms);
        if (rc == 0)
            rc = floe_table_snapshot_as_of_time(&si, t, ms);
        break;
    }
    }
    if (rc < 0) /* snapshot selection raises FLOE_KIND_ILLEGAL_ARGUMENT, as Java's */
        return floe__sql_classify(s, rc);
    *id = si.snapshot_id;
    return 0;
}

static int create_metadata_ref(floe_sql_session *s, const floe_sql_tref *r, floe_table *t)
{
    bool has = false;
    int64_t id = 0;
    FLOE_TRY(travel_snapshot(s, t, r, &has, &id));
    if (has && !floe__meta_supports_time_travel(r->name.suffix))
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql",
                                          "Cannot use time travel on metadata table %s",
                                          r->name.suffix),
                              "IllegalArgumentException");
    owned_rs *o = floe__calloc(1, sizeof *o);
    if (!o)
        return floe__error_nomem();
    int rc = floe__table_read_metadata(s->engine->io, t->metadata_location, &o->m);
    if (rc == 0 && !(o->location = floe__strdup(t->metadata_location)))
        rc = floe__error_nomem();
    if (rc == 0) {
        floe_meta_options mo = FLOE_META_OPTIONS_INIT;
        mo.metadata = o->m;
        mo.metadata_location = o->location;
        mo.io = s->engine->io;
        mo.has_snapshot_id = has;
        mo.snapshot_id = id;
        rc = floe__meta_open(&o->inner, r->name.suffix, &mo); /* its error kind names the class */
    }
    if (rc < 0) {
        floe__metadata_free(o->m);
        floe__free(o->location);
        floe__free(o);
        return rc;
    }
    o->pub.ops = &owned_ops;
    o->pub.name = o->inner->name;
    o->pub.ncolumns = o->inner->ncolumns;
    o->pub.columns = o->inner->columns;
    o->pub.impl = o;
    o->live = s->engine->live;
    if (!(o->sqlite_name = floe__strdup(r->sqlite_name))) {
        owned_free(&o->pub);
        return floe__error_nomem();
    }
    FLOE_TRY(floe__vtab_create(s->engine->reg, "temp", r->sqlite_name, &o->pub));
    /* keyed by the source's own copy: a temporary view outlives the statement */
    return floe__strmap_put(s->engine->live, o->sqlite_name, &o->pub);
}

/* Spark's INVALID_TIME_TRAVEL_TIMESTAMP_EXPR (an AnalysisException). */
static int travel_expr_error(floe_sql_session *s, const floe_sql_travel *tt, const char *sub,
                             const char *why)
{
    return floe__sql_fail(s,
                          floe__error(FLOE_EINVALID, "sql",
                                      "[INVALID_TIME_TRAVEL_TIMESTAMP_EXPR.%s] The time travel "
                                      "timestamp expression \"%s\" is invalid. %s",
                                      sub, tt->expr_text, why),
                          "AnalysisException");
}

/* TIMESTAMP AS OF <expression>, evaluated once as the statement runs (as
 * Spark does at analysis): a number is seconds since the epoch, anything
 * else is cast to a timestamp (floe_cast). Sets tt->timestamp (in a). */
static int travel_eval(floe_sql_session *s, floe_sql_travel *tt, floe_arena *a)
{
    if (tt->expr_nondeterministic)
        return travel_expr_error(s, tt, "NON_DETERMINISTIC", "Must be deterministic.");
    const char *input = "Cannot be casted to the \"TIMESTAMP\" type.";
    if (tt->expr_bad_type)
        return travel_expr_error(s, tt, "INPUT", input);
    char *sql = sqlite3_mprintf(
        "SELECT typeof(v), v, floe_cast(v, 'timestamp') FROM (SELECT (%s) AS v)", tt->expr_sql);
    if (!sql)
        return floe__error_nomem();
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) == SQLITE_OK && q
                 ? 0
                 : floe__sql_sqlite_fail(s);
    sqlite3_free(sql);
    int step = rc == 0 ? sqlite3_step(q) : SQLITE_DONE;
    if (rc == 0 && step != SQLITE_ROW && step != SQLITE_DONE)
        rc = floe__sql_sqlite_fail(s);
    const char *type = step == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
    const char *cast = step == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 2) : NULL;
    floe_buf b = FLOE_BUF_INIT;
    if (rc == 0 && type && (!strcmp(type, "integer") || !strcmp(type, "real"))) {
        /* seconds since the epoch (Spark's cast of a number to a timestamp) */
        double sec = sqlite3_column_double(q, 1);
        if (sec > -9.2e12 && sec < 9.2e12)
            rc = floe__rs_format_timestamp_us((int64_t)(sec * 1e6), NULL, &b);
        else
            rc = travel_expr_error(s, tt, "INPUT", input);
        tt->timestamp_utc = true;
        if (rc == 0 && !(tt->timestamp = floe__arena_strdup(a, b.ptr)))
            rc = floe__error_nomem();
    } else if (rc == 0 && cast) {
        tt->timestamp_utc = false; /* the session zone's wall clock */
        if (!(tt->timestamp = floe__arena_strdup(a, cast)))
            rc = floe__error_nomem();
    } else if (rc == 0) {
        rc = travel_expr_error(s, tt, "INPUT", input);
    }
    floe__buf_free(&b);
    sqlite3_finalize(q);
    return rc;
}

int floe__sql_refs_create(floe_sql_session *s, const floe_sql_stmt *st)
{
    floe_arena *a = floe__arena_new(0);
    if (!a)
        return floe__error_nomem();
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->nrefs; i++) {
        const floe_sql_tref *r = &st->refs[i];
        if (r->name.kind == FLOE_SQLREF_TVF) {
            floe_rowsource *rs = NULL;
            rc = floe__sql_tvf_source(s, r, &rs);
            if (rc == 0)
                rc = floe__sql_live_create(s, r->sqlite_name, rs);
            continue;
        }
        floe_sql_tref at;
        if (r->travel.kind == FLOE_SQLTT_TIMESTAMP && r->travel.expr_sql) {
            at = *r;
            if ((rc = travel_eval(s, &at.travel, a)) < 0)
                break;
            r = &at;
        }
        const char *ident = floe__sql_table_ident(s, &r->name, a);
        if (!ident) {
            rc = floe__error_nomem();
            break;
        }
        floe_table *t = NULL;
        rc = floe__sql_get_table(s, ident, &t);
        if (rc == FLOE_ENOTFOUND) { /* an Iceberg view of that name? */
            const floe_error *e = floe_error_last();
            char *msg = e && e->message ? floe__strdup(e->message) : NULL;
            floe_error_kind kind = e ? e->kind : FLOE_KIND_NONE;
            const char *cls = s->error_class;
            int v = floe__sql_view_ref(s, r, ident);
            if (v == 1) { /* no view either: the table's "not found" */
                floe__error_as(FLOE_ENOTFOUND, kind, "catalog", "%s", msg ? msg : ident);
                s->error_class = cls;
            }
            floe__free(msg);
            if (v == 0) {
                rc = 0;
                continue;
            }
            rc = v < 0 ? v : rc;
        }
        if (rc < 0)
            break;
        if (r->name.kind == FLOE_SQLREF_METADATA) {
            rc = create_metadata_ref(s, r, t);
            continue;
        }
        floe_rowsource *rs = NULL;
        rc = floe__sql_data_source(&rs, s, r, ident, t);
        if (rc == 0) /* the name outlives the statement (temporary views) */
            rc = floe__sql_live_create(s, r->sqlite_name, rs);
    }
    floe__arena_free(a);
    return rc;
}

int floe__sql_live_create(floe_sql_session *s, const char *sqlite_name, floe_rowsource *rs)
{
    /* the live map borrows its keys: keep a copy for the session */
    char *name = floe__strdup(sqlite_name);
    char **slot = name ? floe__vec_push(&s->engine->names) : NULL;
    if (!slot) {
        floe__free(name);
        floe__rs_free(rs);
        return floe__error_nomem();
    }
    *slot = name;
    int rc = floe__vtab_create(s->engine->reg, "temp", name, rs);
    if (rc == 0)
        rc = floe__strmap_put(s->engine->live, name, rs);
    return rc;
}

void floe__sql_refs_drop(floe_sql_session *s, const floe_sql_stmt *st)
{
    floe__sql_view_objects_drop(s); /* views expanded for the statement first */
    for (size_t i = 0; i < st->nrefs; i++) {
        char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS temp.\"%w\"", st->refs[i].sqlite_name);
        if (sql)
            sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        sqlite3_free(sql);
    }
}

const floe_type *floe__sql_live_column_type(floe_sql_session *s, const char *table,
                                            const char *column)
{
    const floe_rowsource *rs =
        table && column && s->engine->live ? floe__strmap_get(s->engine->live, table) : NULL;
    if (!rs)
        return NULL;
    const floe_type *t = floe__sql_data_type(rs, column);
    if (t)
        return t;
    for (size_t i = 0; i < rs->ncolumns; i++)
        if (strcmp(rs->columns[i].name, column) == 0)
            return rs->columns[i].type->id == FLOE_T_STRUCT ||
                           rs->columns[i].type->id == FLOE_T_LIST ||
                           rs->columns[i].type->id == FLOE_T_MAP
                       ? NULL
                       : rs->columns[i].type;
    return NULL;
}

int floe__sql_live_count(floe_sql_session *s, const char *sqlite_name, int64_t *out)
{
    *out = 0;
    floe_rowsource *rs = s->engine->live ? floe__strmap_get(s->engine->live, sqlite_name) : NULL;
    return rs ? floe__rs_count(rs, out) : 1;
}

floe_rowsource *floe__sql_live_source(floe_sql_session *s, const char *sqlite_name)
{
    return s->engine->live ? floe__strmap_get(s->engine->live, sqlite_name) : NULL;
}

void floe__sql_live_forget(floe_sql_session *s, const floe_rowsource *rs)
{
    if (!s->engine || !s->engine->live)
        return;
    size_t it = 0;
    const char *key;
    void *val;
    while (floe__strmap_next(s->engine->live, &it, &key, &val)) {
        if (val == rs) {
            floe__strmap_del(s->engine->live, key);
            return;
        }
    }
}

int floe__sql_explain_refs(floe_sql_session *s, const floe_sql_stmt *st, floe_vec *lines,
                           floe_arena *a)
{
    floe_buf b = FLOE_BUF_INIT;
    for (size_t i = 0; i < st->nrefs; i++) {
        const floe_rowsource *rs = floe__strmap_get(s->engine->live, st->refs[i].sqlite_name);
        const char *ident = floe__sql_table_ident(s, &st->refs[i].name, a);
        if (!rs || !ident)
            continue;
        floe__buf_clear(&b);
        int rc = floe__sql_data_explain(rs, ident, &b);
        if (rc < 0) {
            floe__buf_free(&b);
            return rc;
        }
        if (rc == 1)
            continue;
        const char **slot = floe__vec_push(lines);
        if (!slot || !(*slot = floe__arena_strdup(a, b.ptr))) {
            floe__buf_free(&b);
            return floe__error_nomem();
        }
    }
    floe__buf_free(&b);
    return 0;
}
