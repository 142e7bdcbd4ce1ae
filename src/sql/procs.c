/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/procs: CALL <catalog>.system.<procedure>(...) — Iceberg's Spark
 * procedures (docs/sql.md, "Procedures"): argument binding with Spark's
 * rules (all positional or all `name => value`, required parameters,
 * argument types), dispatch to the table layer, and one result row in the
 * procedure's Spark output columns.
 *
 *   rollback_to_snapshot(table, snapshot_id)      previous_snapshot_id, current_snapshot_id
 *   rollback_to_timestamp(table, timestamp)       previous_snapshot_id, current_snapshot_id
 *   set_current_snapshot(table, snapshot_id|ref)  previous_snapshot_id, current_snapshot_id
 *   cherrypick_snapshot(table, snapshot_id)       source_snapshot_id, current_snapshot_id
 *   publish_changes(table, wap_id)                source_snapshot_id, current_snapshot_id
 *   fast_forward(table, branch, to)               branch_updated, previous_ref, updated_ref
 *   register_table(table, metadata_file)          current_snapshot_id, total_records_count,
 *                                                 total_data_files_count
 *   expire_snapshots(table, older_than, retain_last, snapshot_ids, ...)
 *                                                 deleted_*_count (Spark's six columns)
 *   remove_orphan_files(table, older_than, location, dry_run, prefix_mismatch_mode)
 *                                                 orphan_file_location (one row per file)
 *   add_files(table, source_table => '`parquet`.`<path>`', partition_filter,
 *             check_duplicate_files, parallelism)  added_files_count, changed_partition_count
 *   rewrite_table_path(table, source_prefix, target_prefix, start_version, end_version,
 *             staging_location, create_file_list)  latest_version, file_list_location,
 *                                                 rewritten_manifest_file_paths_count,
 *                                                 rewritten_delete_file_paths_count
 *   rewrite_data_files(table, strategy, sort_order, options, where, branch)
 *                                                 rewritten_data_files_count,
 *                                                 added_data_files_count, rewritten_bytes_count,
 *                                                 failed_data_files_count,
 *                                                 removed_delete_files_count
 *   rewrite_manifests(table, use_caching, spec_id) rewritten_manifests_count,
 *                                                 added_manifests_count
 *   rewrite_position_delete_files(table, options, where)
 *                                                 rewritten_delete_files_count,
 *                                                 added_delete_files_count,
 *                                                 rewritten_bytes_count, added_bytes_count
 *   remove_dangling_deletes(table)                removed_delete_files_count (floe's: Spark
 *                                                 has the action, not a procedure)
 */
#include "floe/maint.h"
#include "sql/exec_int.h"
#include "table/table.h"
#include "util/time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum ptype {
    P_STRING = 1,
    P_LONG,
    P_TIMESTAMP,
    P_INT,
    P_BOOL,
    P_LONG_ARRAY,
    P_MAP,
    P_STRING_ARRAY
} ptype;

typedef struct param {
    const char *name;
    ptype type;
    bool required;
} param;

typedef struct proc {
    const char *name;
    const param *params;
    size_t nparams;
} proc;

static const param p_rollback[] = {{"table", P_STRING, true}, {"snapshot_id", P_LONG, true}};
static const param p_rollback_ts[] = {{"table", P_STRING, true}, {"timestamp", P_TIMESTAMP, true}};
static const param p_set_current[] = {
    {"table", P_STRING, true}, {"snapshot_id", P_LONG, false}, {"ref", P_STRING, false}};
static const param p_cherrypick[] = {{"table", P_STRING, true}, {"snapshot_id", P_LONG, true}};
static const param p_publish[] = {{"table", P_STRING, true}, {"wap_id", P_STRING, true}};
static const param p_ff[] = {
    {"table", P_STRING, true}, {"branch", P_STRING, true}, {"to", P_STRING, true}};
static const param p_register[] = {{"table", P_STRING, true}, {"metadata_file", P_STRING, true}};
static const param p_expire[] = {{"table", P_STRING, true},
                                 {"older_than", P_TIMESTAMP, false},
                                 {"retain_last", P_INT, false},
                                 {"max_concurrent_deletes", P_INT, false},
                                 {"stream_results", P_BOOL, false},
                                 {"snapshot_ids", P_LONG_ARRAY, false},
                                 {"clean_expired_metadata", P_BOOL, false},
                                 /* floe's: the per-file report */
                                 {"dry_run", P_BOOL, false},
                                 {"report_location", P_STRING, false}};
static const param p_orphans[] = {{"table", P_STRING, true},
                                  {"older_than", P_TIMESTAMP, false},
                                  {"location", P_STRING, false},
                                  {"dry_run", P_BOOL, false},
                                  {"max_concurrent_deletes", P_INT, false},
                                  {"prefix_mismatch_mode", P_STRING, false},
                                  {"equal_schemes", P_MAP, false},
                                  {"equal_authorities", P_MAP, false}};
static const param p_changelog[] = {{"table", P_STRING, true},
                                    {"changelog_view", P_STRING, false},
                                    {"options", P_MAP, false},
                                    {"compute_updates", P_BOOL, false},
                                    {"identifier_columns", P_STRING_ARRAY, false},
                                    {"net_changes", P_BOOL, false}};

static const param p_add_files[] = {{"table", P_STRING, true},
                                    {"source_table", P_STRING, true},
                                    {"partition_filter", P_MAP, false},
                                    {"check_duplicate_files", P_BOOL, false},
                                    {"parallelism", P_INT, false}};

/* ---- table maintenance procedures (maint/: issue 25), one block */
static const param p_rewrite_path[] = {
    {"table", P_STRING, true},          {"source_prefix", P_STRING, true},
    {"target_prefix", P_STRING, true},  {"start_version", P_STRING, false},
    {"end_version", P_STRING, false},   {"staging_location", P_STRING, false},
    {"create_file_list", P_BOOL, false}};
static const param p_rewrite_data[] = {
    {"table", P_STRING, true}, {"strategy", P_STRING, false}, {"sort_order", P_STRING, false},
    {"options", P_MAP, false}, {"where", P_STRING, false},    {"branch", P_STRING, false}};
static const param p_rewrite_manifests[] = {
    {"table", P_STRING, true}, {"use_caching", P_BOOL, false}, {"spec_id", P_INT, false}};
static const param p_rewrite_deletes[] = {
    {"table", P_STRING, true}, {"options", P_MAP, false}, {"where", P_STRING, false}};
static const param p_dangling[] = {{"table", P_STRING, true}};
/* ---- end of the maintenance block */

#define PROC(n, p)                                                                                 \
    {                                                                                              \
        n, p, FLOE_ARRAY_LEN(p)                                                                    \
    }
static const proc procs[] = {
    PROC("rollback_to_snapshot", p_rollback),
    PROC("rollback_to_timestamp", p_rollback_ts),
    PROC("set_current_snapshot", p_set_current),
    PROC("cherrypick_snapshot", p_cherrypick),
    PROC("publish_changes", p_publish),
    PROC("fast_forward", p_ff),
    PROC("register_table", p_register),
    PROC("expire_snapshots", p_expire),
    PROC("remove_orphan_files", p_orphans),
    PROC("create_changelog_view", p_changelog),
    PROC("add_files", p_add_files),
    /* maintenance (issue 25) */
    PROC("rewrite_table_path", p_rewrite_path),
    PROC("rewrite_data_files", p_rewrite_data),
    PROC("rewrite_manifests", p_rewrite_manifests),
    PROC("rewrite_position_delete_files", p_rewrite_deletes),
    PROC("remove_dangling_deletes", p_dangling),
};

/* Bound arguments, by parameter index. */
typedef struct bound {
    const floe_sql_value *v[12];
} bound;

static const char *ptype_name(ptype t)
{
    switch (t) {
    case P_STRING: return "StringType";
    case P_LONG: return "LongType";
    case P_TIMESTAMP: return "TimestampType";
    case P_INT: return "IntegerType";
    case P_BOOL: return "BooleanType";
    case P_LONG_ARRAY: return "ArrayType(LongType)";
    case P_MAP: return "MapType(StringType,StringType)";
    case P_STRING_ARRAY: return "ArrayType(StringType)";
    }
    return "?";
}

static const char *vkind_name(floe_sql_value_kind k)
{
    switch (k) {
    case FLOE_SQLV_NULL: return "NullType";
    case FLOE_SQLV_BOOL: return "BooleanType";
    case FLOE_SQLV_INT: return "LongType";
    case FLOE_SQLV_NUMBER: return "DecimalType";
    case FLOE_SQLV_STRING: return "StringType";
    case FLOE_SQLV_DATE: return "DateType";
    case FLOE_SQLV_TIMESTAMP: return "TimestampType";
    case FLOE_SQLV_ARRAY: return "ArrayType";
    case FLOE_SQLV_MAP: return "MapType";
    }
    return "?";
}

/* An ARRAY(...) literal whose items all have `kind`. */
static bool array_of(const floe_sql_value *v, floe_sql_value_kind kind)
{
    if (v->kind != FLOE_SQLV_ARRAY)
        return false;
    for (size_t i = 0; i < v->nitems; i++)
        if (v->items[i].kind != kind)
            return false;
    return true;
}

static bool type_ok(ptype t, const floe_sql_value *v)
{
    switch (t) {
    case P_STRING: return v->kind == FLOE_SQLV_STRING;
    case P_LONG:
        /* Spark casts a string of digits to a long implicitly */
        if (v->kind == FLOE_SQLV_STRING) {
            const char *p = v->text;
            if (*p == '-')
                p++;
            if (!*p)
                return false;
            for (; *p; p++)
                if (*p < '0' || *p > '9')
                    return false;
            return true;
        }
        return v->kind == FLOE_SQLV_INT;
    case P_TIMESTAMP:
        return v->kind == FLOE_SQLV_TIMESTAMP || v->kind == FLOE_SQLV_STRING ||
               v->kind == FLOE_SQLV_DATE || v->kind == FLOE_SQLV_INT;
    case P_INT: return v->kind == FLOE_SQLV_INT && v->i >= INT32_MIN && v->i <= INT32_MAX;
    case P_BOOL: return v->kind == FLOE_SQLV_BOOL;
    case P_LONG_ARRAY: return array_of(v, FLOE_SQLV_INT);
    case P_MAP: return v->kind == FLOE_SQLV_MAP;
    case P_STRING_ARRAY: return array_of(v, FLOE_SQLV_STRING);
    }
    return false;
}

static int bind_args(floe_sql_session *s, const proc *p, const floe_sql_call *c, bound *b)
{
    memset(b, 0, sizeof *b);
    if (c->nargs > p->nparams)
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql",
                                          "Too many arguments for procedure %s: %zu given, at most "
                                          "%zu",
                                          p->name, c->nargs, p->nparams),
                              "AnalysisException");
    for (size_t i = 0; i < c->nargs; i++) {
        size_t k = i;
        if (c->args[i].name) {
            for (k = 0; k < p->nparams; k++)
                if (strcasecmp(p->params[k].name, c->args[i].name) == 0)
                    break;
            if (k == p->nparams)
                return floe__sql_fail(
                    s,
                    floe__error(FLOE_EINVALID, "sql",
                                "Unknown argument: %s (procedure %s takes %s%s%s%s%s)",
                                c->args[i].name, p->name, p->params[0].name,
                                p->nparams > 1 ? ", " : "", p->nparams > 1 ? p->params[1].name : "",
                                p->nparams > 2 ? ", " : "",
                                p->nparams > 2 ? p->params[2].name : ""),
                    "AnalysisException");
            if (b->v[k])
                return floe__sql_fail(s,
                                      floe__error(FLOE_EINVALID, "sql",
                                                  "Duplicate procedure argument: %s",
                                                  p->params[k].name),
                                      "AnalysisException");
        }
        const floe_sql_value *v = &c->args[i].value;
        if (v->kind == FLOE_SQLV_NULL)
            continue;
        if (!type_ok(p->params[k].type, v))
            return floe__sql_fail(
                s,
                floe__error(FLOE_EINVALID, "sql", "Wrong arg type for %s: cannot cast %s to %s",
                            p->params[k].name, vkind_name(v->kind), ptype_name(p->params[k].type)),
                "AnalysisException");
        b->v[k] = v;
    }
    for (size_t k = 0; k < p->nparams; k++)
        if (p->params[k].required && !b->v[k])
            return floe__sql_fail(s,
                                  floe__error(FLOE_EINVALID, "sql",
                                              "Missing required parameters: [%s]",
                                              p->params[k].name),
                                  "AnalysisException");
    return 0;
}

static int64_t arg_long(const floe_sql_value *v)
{
    return v->kind == FLOE_SQLV_INT ? v->i : strtoll(v->text, NULL, 10);
}

/* The `table` argument: "[catalog.]ns.t" with `quoted` parts allowed. */
static int table_arg(floe_sql_session *s, const char *text, floe_arena *a, const char **out)
{
    floe_vec parts = FLOE_VEC_INIT(char *);
    floe_buf cur = FLOE_BUF_INIT;
    int rc = 0;
    bool quoted = false;
    for (const char *p = text;; p++) {
        if (*p == '`') {
            if (quoted && p[1] == '`') {
                rc = floe__buf_putc(&cur, '`');
                p++;
            } else {
                quoted = !quoted;
            }
        } else if ((*p == '.' && !quoted) || *p == '\0') {
            char **slot = floe__vec_push(&parts);
            if (!slot || !(*slot = floe__arena_strdup(a, cur.ptr ? cur.ptr : "")))
                rc = floe__error_nomem();
            floe__buf_clear(&cur);
            if (*p == '\0')
                break;
        } else {
            rc = floe__buf_putc(&cur, *p);
        }
        if (rc < 0)
            break;
    }
    floe__buf_free(&cur);
    if (rc == 0) {
        char **v = parts.items;
        size_t n = parts.len, first = 0;
        if (n >= 3 && strcasecmp(v[0], s->catalog_name) == 0)
            first = 1;
        if (n - first == 1) {
            const char *ns = s->current_ns ? s->current_ns : FLOE_SQL_DEFAULT_NAMESPACE;
            *out = floe__arena_sprintf(a, "%s.%s", ns, v[first]);
        } else {
            *out = floe__sql_join(a, (const char *const *)v + first, n - first);
        }
        if (!*out)
            rc = floe__error_nomem();
        else if (floe_catalog_check_identifier(*out) < 0)
            rc = floe__sql_fail(s,
                                floe__error(FLOE_EINVALID, "sql",
                                            "Cannot parse identifier for arg table: %s", text),
                                "IllegalArgumentException");
    }
    floe__vec_free(&parts);
    return rc;
}

static int out2(floe_sql_session *s, const char *n1, const char *n2, int64_t a, bool has_a,
                int64_t b)
{
    const char *names[2] = {n1, n2};
    floe_sql_cell cells[2] = {has_a ? floe__sql_cell_int(a) : floe__sql_cell_null(),
                              floe__sql_cell_int(b)};
    return floe__sql_emit(s, names, 2, cells, 1);
}

static int current_id(floe_table *t, int64_t *id)
{
    floe_snapshot_info si;
    if (!floe_table_current_snapshot(&si, t))
        return 0;
    *id = si.snapshot_id;
    return 1;
}

/* older_than: a timestamp literal or text in the session zone, or millis */
static int arg_time(floe_sql_session *s, const floe_sql_value *v, int64_t *ms)
{
    if (v->kind == FLOE_SQLV_INT) {
        *ms = v->i;
        return 0;
    }
    return floe__time_parse(v->text, s->tz, ms);
}

/* Spark's equal_schemes / equal_authorities map: each key is a
 * comma-separated list of names equal to the value, e.g. map('s3a,s3n', 's3').
 * Becomes the library's "from=to[,from=to]" list. */
static int equivalences(floe_arena *a, const floe_sql_value *map, const char **out)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i + 1 < map->nitems; i += 2) {
        const char *k = map->items[i].text ? map->items[i].text : "";
        const char *to = map->items[i + 1].text ? map->items[i + 1].text : "";
        while (rc == 0 && *k) {
            size_t n = strcspn(k, ",");
            if (n)
                rc = floe__buf_printf(&b, "%s%.*s=%s", b.len ? "," : "", (int)n, k, to);
            k += n + (k[n] == ',');
        }
    }
    if (rc == 0 && !(*out = floe__arena_strdup(a, b.ptr ? b.ptr : "")))
        rc = floe__error_nomem();
    floe__buf_free(&b);
    return rc;
}

/* A map argument (string keys; string or integer values) as properties;
 * IllegalArgumentException "<what> keys and values must not be null". */
static int map_props(floe_sql_session *s, const floe_sql_value *m, const char *what,
                     floe_props *out)
{
    int rc = 0;
    for (size_t i = 0; m && rc == 0 && i + 1 < m->nitems; i += 2) {
        const floe_sql_value *k = &m->items[i], *v = &m->items[i + 1];
        char num[32];
        const char *vt = v->text;
        if (v->kind == FLOE_SQLV_INT) {
            snprintf(num, sizeof num, "%lld", (long long)v->i);
            vt = num;
        }
        if (!k->text || !vt)
            rc = floe__sql_fail(
                s, floe__error(FLOE_EINVALID, "sql", "%s keys and values must not be null", what),
                "IllegalArgumentException");
        else
            rc = floe__props_set(out, k->text, vt);
    }
    return rc;
}

static int collect_orphan(const char *location, void *payload)
{
    floe_vec *v = payload;
    char **slot = floe__vec_push(v);
    if (!slot || !(*slot = floe__strdup(location)))
        return floe__error_nomem();
    return 0;
}

/* remove_orphan_files refuses an older_than less than 24 hours ago (or in
 * the future), as Java's RemoveOrphanFilesProcedure: a file that young may
 * belong to a write still in progress. A dry run deletes nothing and is
 * allowed; SET floe.remove-orphan-files.validate-interval = false lifts the
 * check for the session (Java skips it under spark.testing; its Action API,
 * like floe_maint_remove_orphan_files, has no such check). */
#define ORPHAN_MIN_INTERVAL_MS (24LL * 3600 * 1000)
static const char orphan_interval_msg[] =
    "Cannot remove orphan files with an interval less than 24 hours. Executing this procedure "
    "with a short interval may corrupt the table if other operations are happening at the same "
    "time. If you are absolutely confident that no concurrent operations will be affected by "
    "removing orphan files with such a short interval, you can use the Action API to remove "
    "orphan files with an arbitrary interval.";

static bool orphan_interval_checked(const floe_sql_session *s)
{
    const char *v = floe__sql_session_option(s, "floe.remove-orphan-files.validate-interval");
    return !v || strcasecmp(v, "false") != 0;
}

/* expire_snapshots and remove_orphan_files (the maintenance module). */
/* expire_snapshots(dry_run => true): one row per file of the report. */
typedef struct expire_report {
    floe_arena *a;
    floe_vec cells; /* floe_sql_cell, 4 per row */
} expire_report;

static int collect_report(floe_maint_file_kind kind, const char *location, const char *reason,
                          bool kept, void *payload)
{
    expire_report *r = payload;
    const char *text[4] = {kept ? "kept" : "would delete", floe_maint_file_kind_name(kind),
                           floe__arena_strdup(r->a, location), floe__arena_strdup(r->a, reason)};
    for (int i = 0; i < 4; i++) {
        floe_sql_cell *c = text[i] ? floe__vec_push(&r->cells) : NULL;
        if (!c)
            return floe__error_nomem();
        *c = floe__sql_cell_text(text[i]);
    }
    return 0;
}

static int maint_proc(floe_sql_session *s, const proc *p, const bound *b, const char *ident,
                      floe_arena *a)
{
    int rc = 0;
    if (strcmp(p->name, "expire_snapshots") == 0) {
        floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
        o.io_conf = &s->conf;
        if (b->v[1])
            rc = arg_time(s, b->v[1], &o.older_than_ms), o.has_older_than = rc == 0;
        if (b->v[2])
            o.retain_last = (int)b->v[2]->i;
        if (b->v[6])
            o.clean_expired_metadata = b->v[6]->b;
        int64_t *ids = NULL;
        if (b->v[5] && b->v[5]->nitems) {
            ids = floe__arena_calloc(a, b->v[5]->nitems, sizeof *ids);
            if (!ids)
                return floe__error_nomem();
            for (size_t i = 0; i < b->v[5]->nitems; i++)
                ids[i] = b->v[5]->items[i].i;
            o.snapshot_ids = ids;
            o.nsnapshot_ids = b->v[5]->nitems;
        }
        floe_maint_expire_result r = {0};
        expire_report rep = {a, FLOE_VEC_INIT(floe_sql_cell)};
        o.dry_run = b->v[7] && b->v[7]->b;
        o.report_path = b->v[8] ? b->v[8]->text : NULL;
        if (o.dry_run) {
            o.on_report = collect_report;
            o.payload = &rep;
        }
        if (rc == 0)
            rc = floe__sql_classify(s, floe_maint_expire_snapshots(&r, s->catalog, ident, &o));
        if (rc == 0 && o.dry_run) {
            static const char *const cols[] = {"status", "kind", "path", "reason"};
            rc = floe__sql_emit(s, cols, 4, rep.cells.items, rep.cells.len / 4);
        }
        floe__vec_free(&rep.cells);
        if (rc < 0 || o.dry_run)
            return rc;
        floe__sql_forget_table(s, ident);
        static const char *const names[] = {"deleted_data_files_count",
                                            "deleted_position_delete_files_count",
                                            "deleted_equality_delete_files_count",
                                            "deleted_manifest_files_count",
                                            "deleted_manifest_lists_count",
                                            "deleted_statistics_files_count"};
        floe_sql_cell cells[6] = {floe__sql_cell_int(r.deleted_data_files_count),
                                  floe__sql_cell_int(r.deleted_position_delete_files_count),
                                  floe__sql_cell_int(r.deleted_equality_delete_files_count),
                                  floe__sql_cell_int(r.deleted_manifest_files_count),
                                  floe__sql_cell_int(r.deleted_manifest_lists_count),
                                  floe__sql_cell_int(r.deleted_statistics_files_count)};
        return floe__sql_emit(s, names, 6, cells, 1);
    }
    floe_maint_orphan_options o = FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    o.io_conf = &s->conf;
    if (b->v[1])
        rc = arg_time(s, b->v[1], &o.older_than_ms), o.has_older_than = rc == 0;
    if (b->v[2])
        o.location = b->v[2]->text;
    if (b->v[3])
        o.dry_run = b->v[3]->b;
    if (rc == 0 && o.has_older_than && !o.dry_run && orphan_interval_checked(s) &&
        floe__now_ms() - o.older_than_ms < ORPHAN_MIN_INTERVAL_MS)
        return floe__sql_fail(s, floe__error(FLOE_EINVALID, "sql", "%s", orphan_interval_msg),
                              "IllegalArgumentException");
    if (b->v[5]) {
        const char *m = b->v[5]->text;
        if (strcasecmp(m, "error") == 0)
            o.prefix_mismatch_mode = FLOE_MAINT_PREFIX_MISMATCH_ERROR;
        else if (strcasecmp(m, "ignore") == 0)
            o.prefix_mismatch_mode = FLOE_MAINT_PREFIX_MISMATCH_IGNORE;
        else if (strcasecmp(m, "delete") == 0)
            o.prefix_mismatch_mode = FLOE_MAINT_PREFIX_MISMATCH_DELETE;
        else
            return floe__sql_fail(
                s, floe__error(FLOE_EINVALID, "sql", "Invalid prefix_mismatch_mode: %s", m),
                "IllegalArgumentException");
    }
    if (rc == 0 && b->v[6])
        rc = equivalences(a, b->v[6], &o.equal_schemes);
    if (rc == 0 && b->v[7])
        rc = equivalences(a, b->v[7], &o.equal_authorities);
    floe_vec found = FLOE_VEC_INIT(char *);
    o.on_orphan = collect_orphan;
    o.payload = &found;
    floe_maint_orphan_result r = {0};
    /* Java's ValidationException for the prefix mismatch and another
     * table's metadata: raised as FLOE_KIND_VALIDATION by the sweep */
    if (rc == 0)
        rc = floe__sql_classify(s, floe_maint_remove_orphan_files(&r, s->catalog, ident, &o));
    floe_sql_cell *cells = NULL;
    if (rc == 0) {
        cells = floe__arena_calloc(a, found.len + 1, sizeof *cells);
        if (!cells)
            rc = floe__error_nomem();
        for (size_t i = 0; cells && i < found.len; i++)
            cells[i] = floe__sql_cell_text(*(char **)floe__vec_at(&found, i));
    }
    if (rc == 0) {
        static const char *const names[] = {"orphan_file_location"};
        rc = floe__sql_emit(s, names, 1, cells, found.len);
    }
    for (size_t i = 0; i < found.len; i++)
        floe__free(*(char **)floe__vec_at(&found, i));
    floe__vec_free(&found);
    return rc;
}

/* ---- table maintenance procedures (maint/: issue 25), one block */

/* rewrite_table_path: Java's RewriteTablePathProcedure over
 * floe_maint_rewrite_table_path; its four output columns. */
static int rewrite_path_proc(floe_sql_session *s, const bound *b, const char *ident)
{
    floe_maint_rewrite_path_options o = FLOE_MAINT_REWRITE_PATH_OPTIONS_INIT;
    o.io_conf = &s->conf;
    o.source_prefix = b->v[1]->text;
    o.target_prefix = b->v[2]->text;
    o.start_version = b->v[3] ? b->v[3]->text : NULL;
    o.end_version = b->v[4] ? b->v[4]->text : NULL;
    o.staging_location = b->v[5] ? b->v[5]->text : NULL;
    if (b->v[6])
        o.create_file_list = b->v[6]->b;
    floe_maint_rewrite_path_result r = {0};
    int rc = floe__sql_classify(s, floe_maint_rewrite_table_path(&r, s->catalog, ident, &o));
    if (rc < 0)
        return rc;
    static const char *const names[] = {"latest_version", "file_list_location",
                                        "rewritten_manifest_file_paths_count",
                                        "rewritten_delete_file_paths_count"};
    floe_sql_cell cells[4] = {floe__sql_cell_text(r.latest_version),
                              floe__sql_cell_text(r.file_list_location),
                              floe__sql_cell_int(r.rewritten_manifest_file_paths_count),
                              floe__sql_cell_int(r.rewritten_delete_file_paths_count)};
    rc = floe__sql_emit(s, names, 4, cells, 1);
    floe_maint_rewrite_path_result_free(&r);
    return rc;
}

/* RewriteDataFilesProcedure.checkAndApplyStrategy: the sort_order text
 * as sort terms or z-order columns, never both. */
static int sort_order_arg(floe_arena *a, const char *text, floe_maint_rewrite_data_files_options *o)
{
    const floe_sql_sort_item *items = NULL;
    size_t n = 0;
    floe_sql_zorder z;
    FLOE_TRY(floe__sql_parse_sort_order(a, text, &items, &n, &z));
    if (z.terms && n)
        return floe__error(FLOE_EINVALID, "sql",
                           "Cannot mix identity sort columns and a Zorder sort expression: %s",
                           text);
    floe_sort_term *terms = floe__sql_sort_terms(a, items, n);
    if (!terms)
        return floe__error_nomem();
    o->sort_order = terms;
    o->nsort_order = n;
    o->zorder = z.columns;
    o->nzorder = z.ncolumns;
    return 0;
}

/* rewrite_data_files: Java's RewriteDataFilesProcedure over
 * floe_maint_rewrite_data_files; its five output columns. The options map's
 * values are text (numbers as written). */
static int rewrite_data_proc(floe_sql_session *s, const bound *b, const char *ident)
{
    floe_props opts = FLOE_PROPS_INIT;
    int rc = map_props(s, b->v[3], "options", &opts);
    floe_maint_rewrite_data_files_options o = FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_INIT;
    o.io_conf = &s->conf;
    o.strategy = b->v[1] ? b->v[1]->text : NULL;
    if (b->v[2] && !o.strategy)
        o.strategy = "sort"; /* Spark: a sort_order alone selects sort */
    floe_arena *a = floe__arena_new(1024);
    if (rc == 0 && !a)
        rc = floe__error_nomem();
    if (rc == 0 && b->v[2])
        rc = sort_order_arg(a, b->v[2]->text, &o);
    o.options = opts.n ? &opts : NULL;
    o.where = b->v[4] ? b->v[4]->text : NULL;
    o.branch = b->v[5] ? b->v[5]->text : NULL;
    floe_maint_rewrite_data_files_result r = {0};
    if (rc == 0)
        rc = floe_maint_rewrite_data_files(&r, s->catalog, ident, &o);
    floe__props_free(&opts);
    floe__arena_free(a);
    floe__sql_classify(s, rc);
    if (rc < 0)
        return rc;
    floe__sql_forget_table(s, ident);
    static const char *const names[] = {"rewritten_data_files_count", "added_data_files_count",
                                        "rewritten_bytes_count", "failed_data_files_count",
                                        "removed_delete_files_count"};
    floe_sql_cell cells[5] = {floe__sql_cell_int(r.rewritten_data_files_count),
                              floe__sql_cell_int(r.added_data_files_count),
                              floe__sql_cell_int(r.rewritten_bytes_count),
                              floe__sql_cell_int(r.failed_data_files_count),
                              floe__sql_cell_int(r.removed_delete_files_count)};
    return floe__sql_emit(s, names, 5, cells, 1);
}

/* rewrite_manifests: Java's RewriteManifestsProcedure over
 * floe_maint_rewrite_manifests; its two output columns. */
static int rewrite_manifests_proc(floe_sql_session *s, const bound *b, const char *ident)
{
    floe_maint_rewrite_manifests_options o = FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_INIT;
    o.io_conf = &s->conf;
    if (b->v[1])
        o.use_caching = b->v[1]->b;
    if (b->v[2])
        o.spec_id = (int32_t)b->v[2]->i;
    floe_maint_rewrite_manifests_result r = {0};
    int rc = floe__sql_classify(s, floe_maint_rewrite_manifests(&r, s->catalog, ident, &o));
    if (rc < 0)
        return rc;
    floe__sql_forget_table(s, ident);
    return out2(s, "rewritten_manifests_count", "added_manifests_count",
                r.rewritten_manifests_count, true, r.added_manifests_count);
}

/* rewrite_position_delete_files: Java's RewritePositionDeleteFilesProcedure
 * over floe_maint_rewrite_position_delete_files; its four output columns. */
static int rewrite_deletes_proc(floe_sql_session *s, const bound *b, const char *ident)
{
    floe_props opts = FLOE_PROPS_INIT;
    int rc = map_props(s, b->v[1], "options", &opts);
    floe_maint_rewrite_position_deletes_options o =
        FLOE_MAINT_REWRITE_POSITION_DELETES_OPTIONS_INIT;
    o.io_conf = &s->conf;
    o.options = opts.n ? &opts : NULL;
    o.where = b->v[2] ? b->v[2]->text : NULL;
    floe_maint_rewrite_position_deletes_result r = {0};
    if (rc == 0)
        rc = floe_maint_rewrite_position_delete_files(&r, s->catalog, ident, &o);
    floe__props_free(&opts);
    floe__sql_classify(s, rc);
    if (rc < 0)
        return rc;
    floe__sql_forget_table(s, ident);
    static const char *const names[] = {"rewritten_delete_files_count", "added_delete_files_count",
                                        "rewritten_bytes_count", "added_bytes_count"};
    floe_sql_cell cells[4] = {floe__sql_cell_int(r.rewritten_delete_files_count),
                              floe__sql_cell_int(r.added_delete_files_count),
                              floe__sql_cell_int(r.rewritten_bytes_count),
                              floe__sql_cell_int(r.added_bytes_count)};
    return floe__sql_emit(s, names, 4, cells, 1);
}

/* remove_dangling_deletes: RemoveDanglingDeletesSparkAction as a procedure
 * (floe's; the column is rewrite_data_files' removed_delete_files_count). */
static int dangling_proc(floe_sql_session *s, const char *ident)
{
    floe_maint_remove_dangling_deletes_options o = FLOE_MAINT_REMOVE_DANGLING_DELETES_OPTIONS_INIT;
    o.io_conf = &s->conf;
    int64_t removed = 0;
    int rc = floe_maint_remove_dangling_deletes(&removed, s->catalog, ident, &o);
    floe__sql_classify(s, rc);
    if (rc < 0)
        return rc;
    floe__sql_forget_table(s, ident);
    static const char *const names[] = {"removed_delete_files_count"};
    floe_sql_cell cells[1] = {floe__sql_cell_int(removed)};
    return floe__sql_emit(s, names, 1, cells, 1);
}

/* Dispatch of the maintenance block; 1 when `p` is not one of them. */
static int maint_block_proc(floe_sql_session *s, const proc *p, const bound *b, const char *ident)
{
    if (strcmp(p->name, "rewrite_table_path") == 0)
        return rewrite_path_proc(s, b, ident);
    if (strcmp(p->name, "rewrite_data_files") == 0)
        return rewrite_data_proc(s, b, ident);
    if (strcmp(p->name, "rewrite_manifests") == 0)
        return rewrite_manifests_proc(s, b, ident);
    if (strcmp(p->name, "rewrite_position_delete_files") == 0)
        return rewrite_deletes_proc(s, b, ident);
    if (strcmp(p->name, "remove_dangling_deletes") == 0)
        return dangling_proc(s, ident);
    return 1;
}
/* ---- end of the maintenance block */

/* add_files: the source is Spark's file identifier `parquet`.`<path>` (a
 * one-part namespace naming the format); the work is the table layer's
 * floe_table_add_files. */
static int add_files_proc(floe_sql_session *s, floe_table *t, const bound *b, floe_arena *a)
{
    const char *src = b->v[1]->text;
    /* split "`fmt`.`path`" (back-quoted parts, `` inside) */
    const char *parts[2] = {NULL, NULL};
    size_t np = 0;
    floe_buf cur = FLOE_BUF_INIT;
    bool quoted = false;
    int rc = 0;
    for (const char *p = src; rc == 0; p++) {
        if (*p == '`' && quoted && p[1] == '`') {
            rc = floe__buf_putc(&cur, '`');
            p++;
        } else if (*p == '`') {
            quoted = !quoted;
        } else if ((*p == '.' && !quoted && np == 0) || *p == '\0') {
            if (np < 2 && !(parts[np++] = floe__arena_strdup(a, cur.ptr ? cur.ptr : "")))
                rc = floe__error_nomem();
            floe__buf_clear(&cur);
            if (*p == '\0')
                break;
        } else {
            rc = floe__buf_putc(&cur, *p);
        }
    }
    floe__buf_free(&cur);
    FLOE_TRY(rc);
    if (np != 2 || (strcasecmp(parts[0], "parquet") != 0 && strcasecmp(parts[0], "orc") != 0 &&
                    strcasecmp(parts[0], "avro") != 0))
        return floe__sql_fail(s,
                              floe__error(FLOE_EUNSUPPORTED, "sql",
                                          "add_files: source_table must be `parquet`.`<path>` "
                                          "(importing a catalog table is not supported): %s",
                                          src),
                              "UnsupportedOperationException");
    if (strcasecmp(parts[0], "parquet") != 0)
        return floe__sql_fail(s,
                              floe__error(FLOE_EUNSUPPORTED, "sql",
                                          "add_files: only Parquet files are supported, not %s",
                                          parts[0]),
                              "UnsupportedOperationException");
    if (b->v[4] && b->v[4]->i <= 0)
        return floe__sql_fail(
            s, floe__error(FLOE_EINVALID, "sql", "Parallelism should be larger than 0"),
            "IllegalArgumentException");
    floe_props filter = FLOE_PROPS_INIT;
    if (rc == 0)
        rc = map_props(s, b->v[2], "partition_filter", &filter);
    floe_add_files_options o = FLOE_ADD_FILES_OPTIONS_INIT;
    o.partition_filter = filter.n ? &filter : NULL;
    if (b->v[3])
        o.check_duplicate_files = b->v[3]->b;
    floe_add_files_result r = {0};
    if (rc == 0) {
        rc = floe_table_add_files(&r, t, parts[1], &o);
        /* a missing source path is Spark's to report (it resolves
         * `parquet`.`path` before the procedure runs); the rest are the
         * library's, named by their kind */
        if (rc == FLOE_ENOTFOUND)
            floe__sql_fail(s, rc, "AnalysisException");
    }
    floe__props_free(&filter);
    if (rc < 0)
        return rc;
    return out2(s, "added_files_count", "changed_partition_count", r.added_files_count, true,
                r.changed_partition_count);
}

int floe__sql_exec_call(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const floe_sql_call *c = &st->call;
    const proc *p = NULL;
    for (size_t i = 0; i < FLOE_ARRAY_LEN(procs); i++)
        if (strcmp(procs[i].name, c->procedure) == 0)
            p = &procs[i];
    if (!p)
        return floe__sql_fail(s,
                              floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_PROCEDURE, "sql",
                                             "Procedure system.%s not found", c->procedure),
                              "NoSuchProcedureException");
    bound b;
    FLOE_TRY(bind_args(s, p, c, &b));
    const char *ident = NULL;
    FLOE_TRY(table_arg(s, b.v[0]->text, a, &ident));

    if (strcmp(p->name, "register_table") == 0) {
        int rc = floe_catalog_register_table(s->catalog, ident, b.v[1]->text);
        floe_table *t = NULL;
        if (rc == 0)
            rc = floe__sql_get_table(s, ident, &t);
        if (rc < 0)
            return rc;
        int64_t id = 0;
        bool has = current_id(t, &id) == 1;
        const char *rec = has ? floe_table_snapshot_summary(t, id, "total-records") : NULL;
        const char *files = has ? floe_table_snapshot_summary(t, id, "total-data-files") : NULL;
        static const char *const names[] = {"current_snapshot_id", "total_records_count",
                                            "total_data_files_count"};
        floe_sql_cell cells[3] = {has ? floe__sql_cell_int(id) : floe__sql_cell_null(),
                                  floe__sql_cell_int(rec ? strtoll(rec, NULL, 10) : 0),
                                  floe__sql_cell_int(files ? strtoll(files, NULL, 10) : 0)};
        return floe__sql_emit(s, names, 3, cells, 1);
    }

    if (strcmp(p->name, "expire_snapshots") == 0 || strcmp(p->name, "remove_orphan_files") == 0)
        return maint_proc(s, p, &b, ident, a);
    int mrc = maint_block_proc(s, p, &b, ident);
    if (mrc <= 0)
        return mrc;
    if (strcmp(p->name, "create_changelog_view") == 0)
        return floe__sql_changelog_view(s, ident, b.v[1] ? b.v[1]->text : NULL, b.v[2],
                                        b.v[3] ? (b.v[3]->b ? 1 : 0) : -1, b.v[4],
                                        b.v[5] && b.v[5]->b);

    /* procedures act on the catalog's current state, never a cached one;
     * the cached table then takes what they committed */
    floe_table *t = NULL;
    int rc = floe_table_load(&t, s->catalog, ident, floe__sql_table_options(s));
    if (rc < 0)
        return floe__sql_classify(s, rc); /* the catalogs raise FLOE_KIND_NO_SUCH_TABLE */
    int64_t prev = 0, cur = 0;
    if (strcmp(p->name, "rollback_to_snapshot") == 0) {
        rc = floe_table_rollback_to_snapshot(&prev, &cur, t, arg_long(b.v[1]));
        if (rc == 0)
            rc = out2(s, "previous_snapshot_id", "current_snapshot_id", prev, true, cur);
    } else if (strcmp(p->name, "rollback_to_timestamp") == 0) {
        int64_t ms = 0;
        const floe_sql_value *v = b.v[1];
        if (v->kind == FLOE_SQLV_INT)
            ms = v->i;
        else
            rc = floe__time_parse(v->text, s->tz, &ms);
        if (rc == 0)
            rc = floe_table_rollback_to_timestamp(&prev, &cur, t, ms);
        if (rc == 0)
            rc = out2(s, "previous_snapshot_id", "current_snapshot_id", prev, true, cur);
    } else if (strcmp(p->name, "set_current_snapshot") == 0) {
        if ((b.v[1] != NULL) == (b.v[2] != NULL)) {
            rc = floe__sql_fail(s,
                                floe__error(FLOE_EINVALID, "sql",
                                            "Either snapshot_id or ref must be provided, not both"),
                                "IllegalArgumentException");
        } else {
            bool had = current_id(t, &prev) == 1;
            rc = b.v[1] ? floe_table_set_current_snapshot(NULL, &cur, t, arg_long(b.v[1]))
                        : floe_table_set_current_ref(NULL, &cur, t, b.v[2]->text);
            if (rc == 0)
                rc = out2(s, "previous_snapshot_id", "current_snapshot_id", prev, had, cur);
        }
    } else if (strcmp(p->name, "cherrypick_snapshot") == 0) {
        int64_t src = arg_long(b.v[1]);
        rc = floe_table_cherrypick_snapshot(&prev, &cur, t, src);
        if (rc == 0)
            rc = out2(s, "source_snapshot_id", "current_snapshot_id", src, true, cur);
    } else if (strcmp(p->name, "publish_changes") == 0) {
        const char *wap = b.v[1]->text;
        bool found = false;
        int64_t src = 0;
        for (size_t i = 0; i < floe_table_snapshot_count(t); i++) {
            floe_snapshot_info si;
            floe_table_snapshot_at(&si, t, i);
            const char *w = floe_table_snapshot_summary(t, si.snapshot_id, "wap.id");
            if (w && strcmp(w, wap) == 0) {
                found = true;
                src = si.snapshot_id;
            }
        }
        if (!found)
            rc = floe__sql_classify(s, floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "sql",
                                                      "Cannot apply unknown WAP ID '%s'", wap));
        else
            rc = floe_table_cherrypick_snapshot(&prev, &cur, t, src);
        if (rc == 0)
            rc = out2(s, "source_snapshot_id", "current_snapshot_id", src, true, cur);
    } else if (strcmp(p->name, "add_files") == 0) {
        rc = add_files_proc(s, t, &b, a);
    } else if (strcmp(p->name, "fast_forward") == 0) {
        rc = floe_table_fast_forward(&prev, &cur, t, b.v[1]->text, b.v[2]->text);
        if (rc == 0) {
            static const char *const names[] = {"branch_updated", "previous_ref", "updated_ref"};
            floe_sql_cell cells[3] = {floe__sql_cell_text(b.v[1]->text), floe__sql_cell_int(prev),
                                      floe__sql_cell_int(cur)};
            rc = floe__sql_emit(s, names, 3, cells, 1);
        }
    }
    if (rc == 0) /* the session sees what its procedure committed */
        rc = floe__sql_table_committed(s, t);
    floe_table_free(t);
    return rc;
}
