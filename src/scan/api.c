/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/api: the public scan API (include/floe/scan.h): load the table
 * metadata through FileIO, pick the snapshot (id, ref or current) and the
 * schema rows are read with (Java's rule: a pinned snapshot reads with its
 * own schema, the current snapshot with the current schema), parse the
 * filter, plan, and hand out streams. Opening a scan from a table handle
 * (floe_scan_open_table) is table/scan.c, above this layer.
 */
#include "scan/scan.h"

#include "floe/io.h"
#include "util/time.h"
#include "expr/expr.h"

#include <string.h>

struct floe_scan {
    floe_fileio *io;
    bool own_io;
    floe_table_metadata *meta;
    bool own_meta;
    floe_arena *arena;
    floe_scan_plan *plan;
    size_t ncolumns;
    char **columns;
    int threads;
};

/* Server-side planning's responses a scan is built from instead of
 * planning (floe__scan_open_remote). */
typedef struct remote_tasks {
    const char *const *bodies;
    const size_t *lens;
    size_t n;
} remote_tasks;

static int plan(floe_scan *s, const floe_snapshot *snap, bool pinned, const floe_scan_options *o,
                const remote_tasks *remote);

void floe_scan_free(floe_scan *s)
{
    if (!s)
        return;
    floe__scan_plan_free(s->plan);
    if (s->own_meta)
        floe__metadata_free(s->meta);
    floe__arena_free(s->arena);
    if (s->own_io)
        floe_fileio_free(s->io);
    floe__free(s);
}

/* Pick the schema (pinned snapshot: its own), parse the filter, plan (or
 * take the tasks of `remote`). */
static int plan(floe_scan *s, const floe_snapshot *snap, bool pinned, const floe_scan_options *o,
                const remote_tasks *remote)
{
    const floe_table_metadata *m = s->meta;
    const floe_schema *schema = floe__metadata_current_schema(m);
    if (pinned && snap && snap->has_schema_id) {
        const floe_schema *ss = floe__metadata_schema(m, snap->schema_id);
        if (ss)
            schema = ss;
    }
    if (!(s->arena = floe__arena_new(1024)))
        return floe__error_nomem();
    s->threads = o->threads;
    const floe_expr *filter = o->filter_expr;
    if (o->filter)
        FLOE_TRY(floe__scan_filter_parse(&filter, s->arena, o->filter, schema));
    floe_scan_plan_options po = {filter, o->case_sensitive, o->no_pruning, o->threads, NULL, NULL};
    if (o->version >= 2) { /* version 1 callers have no progress fields */
        po.progress = o->progress;
        po.progress_payload = o->progress_payload;
    }
    if (remote)
        FLOE_TRY(floe__scan_plan_from_responses(&s->plan, m, snap, schema, filter,
                                                o->case_sensitive, remote->bodies, remote->lens,
                                                remote->n));
    else
        FLOE_TRY(floe__scan_plan(&s->plan, m, s->io, snap, schema, &po));
    if (o->columns && o->ncolumns) {
        s->columns = floe__arena_calloc(s->arena, o->ncolumns, sizeof(char *));
        if (!s->columns)
            return floe__error_nomem();
        for (size_t i = 0; i < o->ncolumns; i++)
            if (!o->columns[i] || !(s->columns[i] = floe__arena_strdup(s->arena, o->columns[i])))
                return o->columns[i] ? floe__error_nomem()
                                     : floe__error(FLOE_EINVALID, "scan", "NULL column name");
        s->ncolumns = o->ncolumns;
        /* validate the projection now rather than at the first batch */
        struct ArrowArrayStream st;
        FLOE_TRY(floe__scan_stream(s->plan, s->io, (const char *const *)s->columns, s->ncolumns,
                                   1, &st));
        st.release(&st);
    }
    return 0;
}

static int load(floe_scan *s, const char *loc, const floe_scan_options *o)
{
    uint8_t *data;
    size_t len;
    FLOE_TRY(floe__scan_read_object(s->io, loc, &data, &len));
    int rc = floe__metadata_parse(&s->meta, data, len, loc);
    floe__free(data);
    FLOE_TRY(rc);
    s->own_meta = true;
    floe_snapshot_selector sel;
    bool pinned = floe__scan_options_selector(o, &sel);
    const floe_snapshot *snap;
    FLOE_TRY(floe__snapshot_select(&snap, s->meta, &sel, "scan"));
    pinned = pinned && floe__snapshot_selector_pins_schema(s->meta, &sel);
    return plan(s, snap, pinned, o, NULL);
}

int floe__scan_options_get(const floe_scan_options *opts, floe_scan_options *defaults,
                           const floe_scan_options **out)
{
    *defaults = (floe_scan_options)FLOE_SCAN_OPTIONS_INIT;
    const floe_scan_options *o = opts ? opts : defaults;
    if (o->version < 1 || o->version > FLOE_SCAN_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "scan", "unknown floe_scan_options version %u",
                           o->version);
    *out = o;
    return 0;
}

bool floe__scan_options_selector(const floe_scan_options *o, floe_snapshot_selector *sel)
{
    *sel = (floe_snapshot_selector){FLOE_SNAP_CURRENT, 0, NULL, 0};
    if (o->has_snapshot_id) {
        sel->kind = FLOE_SNAP_ID;
        sel->snapshot_id = o->snapshot_id;
    } else if (o->ref) {
        sel->kind = FLOE_SNAP_REF;
        sel->ref = o->ref;
    } else if (o->has_as_of_timestamp) {
        sel->kind = FLOE_SNAP_AS_OF;
        sel->timestamp_ms = o->as_of_timestamp_ms;
    }
    return sel->kind != FLOE_SNAP_CURRENT;
}

static int open_snapshot(floe_scan **out, floe_fileio *io, floe_table_metadata *meta,
                         const floe_snapshot *snap, bool pinned, const floe_scan_options *o,
                         const remote_tasks *remote)
{
    *out = NULL;
    floe_scan *s = floe__calloc(1, sizeof(*s));
    if (!s)
        return floe__error_nomem();
    s->io = io;
    s->meta = meta;
    int rc = plan(s, snap, pinned, o, remote);
    if (rc < 0) {
        floe_scan_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int floe__scan_open_snapshot(floe_scan **out, floe_fileio *io, floe_table_metadata *meta,
                             const floe_snapshot *snap, bool pinned, const floe_scan_options *o)
{
    return open_snapshot(out, io, meta, snap, pinned, o, NULL);
}

int floe__scan_open_remote(floe_scan **out, floe_fileio *io, floe_table_metadata *meta,
                           const floe_snapshot *snap, bool pinned, const floe_scan_options *o,
                           const char *const *bodies, const size_t *lens, size_t n)
{
    remote_tasks r = {bodies, lens, n};
    return open_snapshot(out, io, meta, snap, pinned, o, &r);
}

const floe_scan_plan *floe__scan_get_plan(const floe_scan *s)
{
    return s->plan;
}

int floe_scan_open(floe_scan **out, floe_fileio *io, const char *metadata_location,
                   const floe_scan_options *opts)
{
    if (!out || !metadata_location)
        return floe__error(FLOE_EINVALID, "scan", "floe_scan_open: NULL argument");
    *out = NULL;
    floe_scan_options defaults;
    const floe_scan_options *o = NULL;
    FLOE_TRY(floe__scan_options_get(opts, &defaults, &o));
    floe_scan *s = floe__calloc(1, sizeof(*s));
    if (!s)
        return floe__error_nomem();
    int rc = 0;
    if (io) {
        s->io = io;
    } else {
        s->own_io = true;
        rc = floe_fileio_open(&s->io, metadata_location, o->io_conf);
    }
    if (rc == 0)
        rc = load(s, metadata_location, o);
    if (rc < 0) {
        floe_scan_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

const floe_scan_report *floe_scan_get_report(const floe_scan *s)
{
    return &s->plan->report;
}

size_t floe_scan_task_count(const floe_scan *s)
{
    return s->plan->ntasks;
}

const char *floe_scan_task_path(const floe_scan *s, size_t i)
{
    return i < s->plan->ntasks ? s->plan->tasks[i].file->path : NULL;
}

int floe_scan_to_stream(struct ArrowArrayStream *out, floe_scan *s)
{
    if (!s || !out)
        return floe__error(FLOE_EINVALID, "scan", "floe_scan_to_stream: NULL argument");
    return floe__scan_stream(s->plan, s->io, (const char *const *)s->columns, s->ncolumns,
                             s->threads, out);
}
