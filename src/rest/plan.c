/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/plan: server-side scan planning (open-api planTableScan,
 * fetchPlanningResult, cancelPlanning, fetchScanTasks), backed by floe's
 * planner with its pruning:
 *
 *   POST   .../tables/{t}/plan            PlanTableScanRequest -> completed
 *   GET    .../tables/{t}/plan/{plan-id}  the same result again
 *   DELETE .../tables/{t}/plan/{plan-id}  forget the plan (204)
 *   POST   .../tables/{t}/tasks           {"plan-task": ...} -> ScanTasks
 *
 * Planning is synchronous: the answer is "completed" with a plan-id (or,
 * with floe__rest_plans_defer, "submitted" and the completed result from
 * GET .../plan/{plan-id}, for testing clients' polling).
 * A plan of at most `tasks_per_chunk` file scan tasks comes back whole; a
 * larger one carries its first chunk inline and one opaque plan task per
 * further chunk, which the client fetches from /tasks. Chunks are rendered
 * at planning time and kept in memory (no table stays open) until the plan
 * is cancelled or `lifetime_ms` passes; at most FLOE_REST_MAX_PLANS plans
 * and FLOE_REST_MAX_PLAN_BYTES of chunks are kept (the oldest is dropped
 * first).
 *
 * Request fields: snapshot-id (else main's current snapshot), filter (REST
 * expression JSON, floe_expr_from_json), case-sensitive (default true),
 * use-snapshot-schema (bind the filter to the snapshot's schema rather than
 * the table's), start-snapshot-id + end-snapshot-id (an incremental append
 * scan: the data files added by the append snapshots after start up to
 * end; the filter is the residual of every task, no file pruning). select,
 * stats-fields and min-rows-requested are accepted and checked for shape;
 * planning does not depend on the projection, and tasks carry no column
 * stats.
 */
#include "plan.h"

#include "model_internal.h"

#include "expr/expr.h"
#include "scan/incremental.h"
#include "scan/scan.h"
#include "spec/spec.h"
#include "table/table.h"

#include <pthread.h>
#include <string.h>

#define FLOE_REST_MAX_PLANS 256
/* Rendered chunks kept at most (older plans are dropped for a new one). */
#define FLOE_REST_MAX_PLAN_BYTES ((size_t)512 << 20)

typedef struct plan_entry {
    char id[48];
    char *table; /* the table key (namespace levels and name, 0x1F-joined) */
    int64_t created_ms;
    size_t nchunks;
    char **chunks; /* ScanTasks members of each chunk, without braces */
    size_t *lens;
    size_t bytes; /* sum of lens */
} plan_entry;

struct floe_rest_plans {
    pthread_mutex_t lock;
    floe_strmap *by_id; /* plan-id -> plan_entry */
    size_t bytes;       /* of every entry */
    size_t tasks_per_chunk;
    int64_t lifetime_ms;
    bool defer; /* answer POST with "submitted" (floe__rest_plans_defer) */
};

static void entry_free(plan_entry *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->nchunks; i++)
        floe__free(e->chunks[i]);
    floe__free(e->chunks);
    floe__free(e->lens);
    floe__free(e->table);
    floe__free(e);
}

int floe__rest_plans_new(floe_rest_plans **out, size_t tasks_per_chunk, int64_t lifetime_ms)
{
    floe_rest_plans *p = floe__calloc(1, sizeof *p);
    if (!p || !(p->by_id = floe__strmap_new())) {
        floe__free(p);
        return floe__error_nomem();
    }
    pthread_mutex_init(&p->lock, NULL);
    p->tasks_per_chunk = tasks_per_chunk ? tasks_per_chunk : FLOE_REST_PLAN_TASKS_PER_CHUNK;
    p->lifetime_ms = lifetime_ms > 0 ? lifetime_ms : (int64_t)1800 * 1000;
    *out = p;
    return 0;
}

void floe__rest_plans_free(floe_rest_plans *p)
{
    if (!p)
        return;
    size_t it = 0;
    const char *k;
    void *v;
    while (floe__strmap_next(p->by_id, &it, &k, &v))
        entry_free(v);
    floe__strmap_free(p->by_id);
    pthread_mutex_destroy(&p->lock);
    floe__free(p);
}

void floe__rest_plans_defer(floe_rest_plans *p, bool defer)
{
    p->defer = defer;
}

size_t floe__rest_plans_count(floe_rest_plans *p)
{
    pthread_mutex_lock(&p->lock);
    size_t n = floe__strmap_len(p->by_id);
    pthread_mutex_unlock(&p->lock);
    return n;
}

static char *table_key(const floe_rest_ident *id)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe__rest_namespace_join(&b, &id->ns, FLOE_REST_NS_SEP) < 0 ||
        floe__buf_putc(&b, FLOE_REST_NS_SEP) < 0 || floe__buf_puts(&b, id->name) < 0) {
        floe__buf_free(&b);
        floe__error_nomem();
        return NULL;
    }
    return floe__buf_detach(&b);
}

static void drop(floe_rest_plans *p, const char *id, plan_entry *e)
{
    floe__strmap_del(p->by_id, id);
    p->bytes -= e->bytes;
    entry_free(e);
}

/* Drop expired plans, and the oldest while the store is full (count, or
 * bytes with `incoming` more to come); lock held. */
static void evict(floe_rest_plans *p, int64_t now, size_t incoming)
{
    for (;;) {
        size_t it = 0;
        const char *k, *oldest = NULL;
        void *v;
        int64_t oldest_ms = INT64_MAX;
        bool removed = false;
        while (floe__strmap_next(p->by_id, &it, &k, &v)) {
            plan_entry *e = v;
            if (now - e->created_ms > p->lifetime_ms) {
                drop(p, k, e);
                removed = true;
                break; /* the iteration is invalid after a removal */
            }
            if (e->created_ms < oldest_ms) {
                oldest_ms = e->created_ms;
                oldest = k;
            }
        }
        if (removed)
            continue;
        if (oldest && (floe__strmap_len(p->by_id) >= FLOE_REST_MAX_PLANS ||
                       p->bytes + incoming > FLOE_REST_MAX_PLAN_BYTES)) {
            drop(p, oldest, floe__strmap_get(p->by_id, oldest));
            continue;
        }
        return;
    }
}

/* ---------------------------------------------------------------- the request */

/* A request body as a JSON tree (a malformed one is the client's error). */
static int parse_body(floe_json **root, const char *body, size_t len, const char *what)
{
    int rc = floe__json_parse(root, body && len ? body : "{}", body && len ? len : 2, what);
    if (rc == FLOE_ECORRUPT) {
        const floe_error *e = floe_error_last();
        rc = floe__error(FLOE_EINVALID, "rest", "%s", e && e->message ? e->message : what);
    }
    return rc;
}

typedef struct plan_req {
    bool has_snapshot_id, has_start, has_end;
    int64_t snapshot_id, start, end;
    const floe_json *filter;
    bool case_sensitive;
    bool use_snapshot_schema;
} plan_req;

static int opt_i64(const floe_json *o, const char *key, bool *has, int64_t *v)
{
    const floe_json *j = floe__json_get(o, key);
    *has = j && !floe__json_is_null(j);
    if (!*has)
        return 0;
    if (!floe__json_is_integer(j))
        return floe__error(FLOE_EINVALID, "rest", "%s must be an integer", key);
    *v = floe__json_ival(j);
    return 0;
}

static int opt_bool(const floe_json *o, const char *key, bool dflt, bool *v)
{
    const floe_json *j = floe__json_get(o, key);
    *v = dflt;
    if (!j || floe__json_is_null(j))
        return 0;
    if (!floe__json_is_boolean(j))
        return floe__error(FLOE_EINVALID, "rest", "%s must be a boolean", key);
    *v = floe__json_is_true(j);
    return 0;
}

static int opt_strings(const floe_json *o, const char *key)
{
    const floe_json *j = floe__json_get(o, key);
    if (!j || floe__json_is_null(j))
        return 0;
    if (!floe__json_is_array(j))
        return floe__error(FLOE_EINVALID, "rest", "%s must be an array of field names", key);
    for (size_t i = 0; i < floe__json_len(j); i++)
        if (!floe__json_is_string(floe__json_at(j, i)))
            return floe__error(FLOE_EINVALID, "rest", "%s must be an array of field names", key);
    return 0;
}

static int parse_req(const floe_json *root, plan_req *r)
{
    memset(r, 0, sizeof *r);
    if (!floe__json_is_object(root))
        return floe__error(FLOE_EINVALID, "rest", "PlanTableScanRequest must be a JSON object");
    FLOE_TRY(opt_i64(root, "snapshot-id", &r->has_snapshot_id, &r->snapshot_id));
    FLOE_TRY(opt_i64(root, "start-snapshot-id", &r->has_start, &r->start));
    FLOE_TRY(opt_i64(root, "end-snapshot-id", &r->has_end, &r->end));
    bool has_min;
    int64_t min_rows;
    FLOE_TRY(opt_i64(root, "min-rows-requested", &has_min, &min_rows));
    FLOE_TRY(opt_bool(root, "case-sensitive", true, &r->case_sensitive));
    FLOE_TRY(opt_bool(root, "use-snapshot-schema", false, &r->use_snapshot_schema));
    FLOE_TRY(opt_strings(root, "select"));
    FLOE_TRY(opt_strings(root, "stats-fields"));
    const floe_json *f = floe__json_get(root, "filter");
    r->filter = f && !floe__json_is_null(f) ? f : NULL;
    if (r->has_start && !r->has_end)
        return floe__error(FLOE_EINVALID, "rest",
                           "Invalid scan: end-snapshot-id is required with start-snapshot-id");
    if (r->has_end && r->has_snapshot_id)
        return floe__error(FLOE_EINVALID, "rest",
                           "Invalid scan: snapshot-id cannot be combined with "
                           "start-snapshot-id/end-snapshot-id");
    return 0;
}

/* ---------------------------------------------------------------- planning */

/* The plan of the request over table `t`: a point-in-time scan (*scan) or
 * an incremental one (*incr). */
static int plan_scan(floe_table *t, const plan_req *r, floe_arena *a, floe_scan **scan,
                     floe_scan_plan **incr, const floe_scan_plan **out)
{
    floe_table_metadata *m = t->metadata;
    const floe_snapshot *snap = NULL;
    if (r->has_snapshot_id) {
        floe_snapshot_selector sel = {.kind = FLOE_SNAP_ID, .snapshot_id = r->snapshot_id};
        FLOE_TRY(floe__snapshot_select(&snap, m, &sel, "rest"));
    } else if (!r->has_end && m->current_snapshot_id >= 0) {
        snap = floe__metadata_snapshot(m, m->current_snapshot_id);
    }
    const floe_schema *schema = floe__metadata_current_schema(m);
    if (r->use_snapshot_schema && snap && snap->has_schema_id &&
        floe__metadata_schema(m, snap->schema_id))
        schema = floe__metadata_schema(m, snap->schema_id);
    const floe_expr *filter = NULL;
    if (r->filter)
        FLOE_TRY(floe_expr_from_json(&filter, a, r->filter, schema, r->case_sensitive));
    if (r->has_end) {
        floe_incremental_options io = FLOE_INCREMENTAL_OPTIONS_INIT;
        io.has_start_snapshot_id = r->has_start;
        io.start_snapshot_id = r->start;
        io.has_end_snapshot_id = true;
        io.end_snapshot_id = r->end;
        io.mode = FLOE_INCREMENTAL_APPEND_ONLY;
        int64_t s0, s1;
        FLOE_TRY(floe__incremental_plan(incr, m, floe_table_io(t), &io, &s0, &s1));
        floe_scan_plan *p = *incr;
        if (filter) {
            const floe_expr *bound;
            FLOE_TRY(floe_expr_bind(&bound, p->arena, p->schema, filter, r->case_sensitive));
            p->filter = bound;
            for (size_t i = 0; i < p->ntasks; i++)
                p->tasks[i].residual = bound;
        }
        *out = p;
        return 0;
    }
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.filter_expr = filter;
    o.case_sensitive = r->case_sensitive;
    FLOE_TRY(floe__scan_open_snapshot(scan, floe_table_io(t), m, snap, r->use_snapshot_schema, &o));
    *out = floe__scan_get_plan(*scan);
    return 0;
}

/* Render the plan's chunks into a new entry. */
static int render(floe_rest_plans *ps, const floe_scan_plan *p, plan_entry *e)
{
    size_t per = ps->tasks_per_chunk;
    size_t n = p->ntasks ? (p->ntasks + per - 1) / per : 1;
    if (!(e->chunks = floe__calloc(n, sizeof *e->chunks)) ||
        !(e->lens = floe__calloc(n, sizeof *e->lens)))
        return floe__error_nomem();
    e->nchunks = n;
    for (size_t i = 0; i < n; i++) {
        floe_buf b = FLOE_BUF_INIT;
        int rc = floe__scan_tasks_to_json(p, i * per, per, &b);
        if (rc < 0) {
            floe__buf_free(&b);
            return rc;
        }
        e->lens[i] = b.len;
        e->bytes += b.len;
        if (!(e->chunks[i] = floe__buf_detach(&b)))
            return floe__error_nomem();
    }
    return 0;
}

/* {"status":"completed"[,"plan-id"][,"plan-tasks":[...]], chunk 0} */
static int completed_body(const plan_entry *e, bool with_id, floe_buf *out)
{
    FLOE_TRY(floe__buf_puts(out, "{\"status\":\"completed\""));
    if (with_id)
        FLOE_TRY(floe__buf_printf(out, ",\"plan-id\":\"%s\"", e->id));
    if (e->nchunks > 1) {
        FLOE_TRY(floe__buf_puts(out, ",\"plan-tasks\":["));
        for (size_t i = 1; i < e->nchunks; i++)
            FLOE_TRY(floe__buf_printf(out, "%s\"%s:%zu\"", i > 1 ? "," : "", e->id, i));
        FLOE_TRY(floe__buf_putc(out, ']'));
    }
    FLOE_TRY(floe__buf_putc(out, ','));
    FLOE_TRY(floe__buf_put(out, e->chunks[0], e->lens[0]));
    return floe__buf_putc(out, '}');
}

static int submit(floe_rest_plans *ps, floe_rest_backend *b, const floe_rest_ident *id,
                  const char *body, size_t len, floe_buf *out)
{
    floe_json *root = NULL;
    plan_req r;
    FLOE_TRY(parse_body(&root, body, len, "PlanTableScanRequest"));
    int rc = parse_req(root, &r);
    floe_table *t = NULL;
    floe_scan *scan = NULL;
    floe_scan_plan *incr = NULL;
    const floe_scan_plan *p = NULL;
    floe_arena *a = NULL;
    plan_entry *e = NULL;
    if (rc == 0)
        rc = b->open_table(b, id, &t);
    if (rc == 0 && !(a = floe__arena_new(1024)))
        rc = floe__error_nomem();
    if (rc == 0)
        rc = plan_scan(t, &r, a, &scan, &incr, &p);
    if (rc == 0 && !(e = floe__calloc(1, sizeof *e)))
        rc = floe__error_nomem();
    if (rc == 0 && !(e->table = table_key(id)))
        rc = FLOE_ENOMEM;
    if (rc == 0) {
        char u[37];
        rc = floe__uuid4(u);
        snprintf(e->id, sizeof e->id, "floe-%s", u);
        e->created_ms = floe__now_ms();
    }
    if (rc == 0)
        rc = render(ps, p, e);
    if (rc == 0 && ps->defer)
        rc = floe__buf_printf(out, "{\"status\":\"submitted\",\"plan-id\":\"%s\"}", e->id);
    else if (rc == 0)
        rc = completed_body(e, true, out);
    floe_scan_free(scan);
    floe__scan_plan_free(incr);
    floe_table_free(t);
    floe__arena_free(a);
    floe__json_free(root);
    if (rc != 0) { /* each step returns 0 or a FLOE_E* (open_table: backend.h) */
        entry_free(e);
        return rc;
    }
    pthread_mutex_lock(&ps->lock);
    evict(ps, e->created_ms, e->bytes);
    rc = floe__strmap_put(ps->by_id, e->id, e);
    if (rc == 0)
        ps->bytes += e->bytes;
    pthread_mutex_unlock(&ps->lock);
    if (rc < 0)
        entry_free(e);
    return rc;
}

/* ---------------------------------------------------------------- routes */

static int not_found(int *status, floe_buf *out, const char *type, const char *msg)
{
    size_t n;
    char *s = floe__rest_dump(floe__rest_error_to_json(404, type, msg), &n);
    if (!s)
        return floe__error_nomem();
    int rc = floe__buf_put(out, s, n);
    floe__free(s);
    *status = 404;
    return rc;
}

int floe__rest_plan_handle(floe_rest_plans *ps, floe_rest_backend *b, const floe_rest_ident *id,
                           floe_rest_plan_op op, const char *plan_id, const char *body,
                           size_t len, int *status, floe_buf *out)
{
    *status = 200;
    if (op == FLOE_REST_PLAN_SUBMIT)
        return submit(ps, b, id, body, len, out);
    /* the table must exist (NoSuchTable before NoSuchPlanId, as the spec's
     * 404 list orders them) */
    floe_table *t = NULL;
    FLOE_TRY(b->open_table(b, id, &t));
    floe_table_free(t);
    char *key = table_key(id);
    if (!key)
        return FLOE_ENOMEM;
    size_t chunk = 0;
    floe_json *root = NULL;
    int rc = 0;
    char *pid = NULL;
    if (op == FLOE_REST_PLAN_TASKS) {
        rc = parse_body(&root, body, len, "FetchScanTasksRequest");
        const char *task = rc == 0 ? floe__json_sval(floe__json_get(root, "plan-task")) : NULL;
        if (rc == 0 && (!floe__json_is_object(root) || !task))
            rc = floe__error(FLOE_EINVALID, "rest",
                             "FetchScanTasksRequest: missing required field plan-task (a string)");
        const char *colon = task ? strrchr(task, ':') : NULL;
        char *end = NULL;
        if (rc == 0 && colon) {
            unsigned long long k = strtoull(colon + 1, &end, 10);
            if (colon[1] && !*end && k > 0 && k < SIZE_MAX)
                chunk = (size_t)k;
            if (chunk && !(pid = floe__strndup(task, (size_t)(colon - task))))
                rc = floe__error_nomem();
        }
    } else if (!(pid = floe__strdup(plan_id))) {
        rc = floe__error_nomem();
    }
    floe__json_free(root);
    pthread_mutex_lock(&ps->lock);
    evict(ps, floe__now_ms(), 0);
    plan_entry *e = rc == 0 && pid ? floe__strmap_get(ps->by_id, pid) : NULL;
    if (e && strcmp(e->table, key) != 0)
        e = NULL; /* another table's plan does not exist here */
    if (rc < 0) {
        /* keep the parse error */
    } else if (op == FLOE_REST_PLAN_TASKS) {
        if (!e || chunk >= e->nchunks)
            rc = not_found(status, out, "NoSuchPlanTaskException", "The plan task does not exist");
        else if ((rc = floe__buf_putc(out, '{')) == 0 &&
                 (rc = floe__buf_put(out, e->chunks[chunk], e->lens[chunk])) == 0)
            rc = floe__buf_putc(out, '}');
    } else if (!e) {
        rc = not_found(status, out, "NoSuchPlanIdException", "The plan id does not exist");
    } else if (op == FLOE_REST_PLAN_CANCEL) {
        drop(ps, pid, e);
        *status = 204;
    } else {
        rc = completed_body(e, false, out);
    }
    pthread_mutex_unlock(&ps->lock);
    floe__free(pid);
    floe__free(key);
    return rc;
}
