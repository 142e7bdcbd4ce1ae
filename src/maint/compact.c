/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/compact: rewrite_data_files with the binpack strategy
 * (include/floe/maint.h), Java's RewriteDataFilesSparkAction over
 * BinPackRewriteFilePlanner / SizeBasedFileRewritePlanner (read, not
 * copied): the same options, defaults, checks and messages.
 *
 * Planning: the live data files of the branch head matching `where` (whole
 * files: residuals are ignored, as Java's planner does), grouped by
 * partition; in each partition the candidates — outside
 * [min-file-size-bytes, max-file-size-bytes], or with at least
 * delete-file-threshold delete files, or all of them with rewrite-all —
 * are packed in order into groups of at most max-file-group-size-bytes,
 * and a group is rewritten when it has enough input files (> 1 and >=
 * min-input-files), enough content (> 1 file and more than the target
 * size), too much content (more than max-file-size-bytes) or a file with
 * too many deletes.
 *
 * Rewriting: the rows of a group's files are read with their position and
 * equality deletes and deletion vectors applied (the scan's readers) and
 * written by the table layer's writer, rolling at target-file-size-bytes;
 * the commit is a `replace` snapshot (FLOE_ROWLEVEL_REWRITE) validated
 * against what was committed since the planned snapshot. Without
 * partial-progress.enabled every group goes into one commit and a failed
 * validation fails the call; with it, the groups are spread over at most
 * partial-progress.max-commits commits and a failed one counts its files
 * in failed_data_files_count. With remove-dangling-deletes, one more
 * commit removes the delete files that no longer apply to any live data
 * file (removed_delete_files_count).
 *
 * rewrite_manifests (the snapshot producer is table/rewrite_manifests.c)
 * lives here too: the procedure's entry point on a catalog and identifier.
 */
#include "maint.h"
#include "expr/expr.h"
#include "scan/scan.h"
#include "table/rowdelta.h"
#include "table/table.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct cgroup {
    floe_vec tasks; /* const floe_scan_task* */
    int64_t bytes;
} cgroup;

typedef struct cplan {
    int64_t target, min, max, max_group;
    int min_inputs, delete_threshold, max_commits;
    bool rewrite_all, partial;
} cplan;

static const char *const known_options[] = {
    "target-file-size-bytes", "min-file-size-bytes", "max-file-size-bytes", "min-input-files",
    "rewrite-all", "max-file-group-size-bytes", "delete-file-threshold",
    "partial-progress.enabled", "partial-progress.max-commits",
    "max-concurrent-file-group-rewrites", "use-starting-sequence-number",
    "rewrite-job-order", "delete-ratio-threshold", "max-file-group-input-files", "output-spec-id",
    "remove-dangling-deletes", "partial-progress.max-failed-commits"};

static int opt_long(const floe_props *o, const char *k, int64_t def, int64_t *out)
{
    const char *v = o ? floe__props_get(o, k) : NULL;
    if (!v) {
        *out = def;
        return 0;
    }
    char *end;
    long long x = strtoll(v, &end, 10);
    if (!*v || *end)
        return floe__error(FLOE_EINVALID, "maint", "For input string: \"%s\"", v);
    *out = x;
    return 0;
}

static int opt_bool(const floe_props *o, const char *k, bool def, bool *out)
{
    const char *v = o ? floe__props_get(o, k) : NULL;
    *out = v ? strcasecmp(v, "true") == 0 : def;
    return 0;
}

/* SizeBasedFileRewritePlanner.init with Java's checks and messages. */
static int plan_options(const floe_table_metadata *m, const floe_props *o, cplan *p)
{
    for (size_t i = 0; o && i < o->n; i++) {
        bool ok = false;
        for (size_t k = 0; k < FLOE_ARRAY_LEN(known_options) && !ok; k++)
            ok = strcmp(o->items[i].key, known_options[k]) == 0;
        if (!ok)
            return floe__error(FLOE_EINVALID, "maint",
                               "Cannot use options [%s], they are not supported by the action "
                               "or the rewriter BIN-PACK",
                               o->items[i].key);
    }
    int64_t def_target, v;
    FLOE_TRY(floe__props_get_int64(&m->properties, "write.target-file-size-bytes", 536870912,
                                   &def_target));
    FLOE_TRY(opt_long(o, "target-file-size-bytes", def_target, &p->target));
    FLOE_TRY(opt_long(o, "min-file-size-bytes", (int64_t)((double)p->target * 0.75), &p->min));
    FLOE_TRY(opt_long(o, "max-file-size-bytes", (int64_t)((double)p->target * 1.80), &p->max));
    if (p->target <= 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be > 0",
                           "target-file-size-bytes", (long long)p->target);
    if (p->min < 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be >= 0",
                           "min-file-size-bytes", (long long)p->min);
    if (!(p->target > p->min))
        return floe__error(FLOE_EINVALID, "maint",
                           "'%s' (%lld) must be > '%s' (%lld), all new files will be smaller "
                           "than the min threshold",
                           "target-file-size-bytes", (long long)p->target, "min-file-size-bytes",
                           (long long)p->min);
    if (!(p->target < p->max))
        return floe__error(FLOE_EINVALID, "maint",
                           "'%s' (%lld) must be < '%s' (%lld), all new files will be larger "
                           "than the max threshold",
                           "target-file-size-bytes", (long long)p->target, "max-file-size-bytes",
                           (long long)p->max);
    FLOE_TRY(opt_long(o, "min-input-files", 5, &v));
    if (v <= 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be > 0",
                           "min-input-files", (long long)v);
    p->min_inputs = (int)v;
    FLOE_TRY(opt_long(o, "max-file-group-size-bytes", 100LL * 1024 * 1024 * 1024, &p->max_group));
    if (p->max_group <= 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be > 0",
                           "max-file-group-size-bytes", (long long)p->max_group);
    FLOE_TRY(opt_long(o, "delete-file-threshold", 2147483647, &v));
    if (v < 1)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be >= 1",
                           "delete-file-threshold", (long long)v);
    p->delete_threshold = (int)v;
    FLOE_TRY(opt_bool(o, "rewrite-all", false, &p->rewrite_all));
    FLOE_TRY(opt_bool(o, "partial-progress.enabled", false, &p->partial));
    FLOE_TRY(opt_long(o, "partial-progress.max-commits", 10, &v));
    if (v < 1)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot set partial-progress.max-commits to %lld, the value must be "
                           "positive when partial-progress.enabled is true",
                           (long long)v);
    p->max_commits = (int)v;
    FLOE_TRY(opt_long(o, "max-concurrent-file-group-rewrites", 5, &v));
    if (v < 1)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot set max-concurrent-file-group-rewrites to %lld, the value "
                           "must be positive.",
                           (long long)v);
    return 0;
}

static bool too_many_deletes(const cplan *p, const floe_scan_task *t)
{
    return t->ndeletes > 0 && (int64_t)t->ndeletes >= p->delete_threshold;
}

static bool candidate(const cplan *p, const floe_scan_task *t)
{
    int64_t len = t->file->file_size_in_bytes;
    return p->rewrite_all || len < p->min || len > p->max || too_many_deletes(p, t);
}

static bool keep_group(const cplan *p, const cgroup *g)
{
    size_t n = g->tasks.len;
    if (p->rewrite_all)
        return n > 0;
    bool deletes = false;
    for (size_t i = 0; i < n && !deletes; i++)
        deletes = too_many_deletes(p, *(const floe_scan_task **)floe__vec_at(&g->tasks, i));
    return (n > 1 && (int64_t)n >= p->min_inputs) || (n > 1 && g->bytes > p->target) ||
           g->bytes > p->max || deletes;
}

typedef struct cpart {
    floe_vec groups; /* cgroup */
} cpart;

static void groups_free(floe_vec *groups)
{
    for (size_t i = 0; i < groups->len; i++)
        floe__vec_free(&((cgroup *)floe__vec_at(groups, i))->tasks);
    floe__vec_free(groups);
}

/* Partition -> candidates packed in order into groups (Java's ListPacker
 * with lookback 1: a new group when the next file does not fit); the
 * groups kept are appended to `out`. */
static int plan_groups(const cplan *p, const floe_scan_plan *plan, floe_vec *out)
{
    floe_strmap *parts = floe__strmap_new();
    floe_vec order = FLOE_VEC_INIT(floe_vec *);
    floe_buf key = FLOE_BUF_INIT;
    int rc = parts ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < plan->ntasks; i++) {
        const floe_scan_task *t = &plan->tasks[i];
        if (!candidate(p, t))
            continue;
        floe__buf_clear(&key);
        rc = floe__buf_printf(&key, "%d|", (int)t->file->spec_id);
        if (rc == 0)
            rc = floe__scan_key(&key, t->file->partition.values, t->file->partition.n);
        if (rc < 0)
            break;
        floe_vec *groups = floe__strmap_get(parts, key.ptr);
        if (!groups) {
            groups = floe__calloc(1, sizeof *groups);
            floe_vec **slot = groups ? floe__vec_push(&order) : NULL;
            char *k = slot ? floe__strndup(key.ptr, key.len) : NULL;
            if (!k || floe__strmap_put(parts, k, groups) < 0) {
                floe__free(k);
                floe__free(groups);
                rc = floe__error_nomem();
                break;
            }
            groups->item_size = sizeof(cgroup);
            *slot = groups;
        }
        int64_t len = t->file->file_size_in_bytes;
        cgroup *g = groups->len ? floe__vec_at(groups, groups->len - 1) : NULL;
        if (!g || (g->tasks.len && g->bytes + len > p->max_group)) {
            g = floe__vec_push(groups);
            if (!g) {
                rc = floe__error_nomem();
                break;
            }
            g->tasks.item_size = sizeof(const floe_scan_task *);
        }
        const floe_scan_task **ts = floe__vec_push(&g->tasks);
        if (!ts) {
            rc = floe__error_nomem();
            break;
        }
        *ts = t;
        g->bytes += len;
    }
    for (size_t i = 0; i < order.len; i++) {
        floe_vec *groups = *(floe_vec **)floe__vec_at(&order, i);
        for (size_t k = 0; k < groups->len; k++) {
            cgroup *g = floe__vec_at(groups, k);
            cgroup *slot = rc == 0 && keep_group(p, g) ? floe__vec_push(out) : NULL;
            if (slot) {
                *slot = *g;
                memset(g, 0, sizeof *g);
            } else if (rc == 0 && keep_group(p, g)) {
                rc = floe__error_nomem();
            }
        }
        groups_free(groups);
        floe__free(groups);
    }
    /* the map's keys were allocated here */
    size_t it = 0;
    const char *k;
    void *v;
    while (parts && floe__strmap_next(parts, &it, &k, &v))
        floe__free((char *)k);
    floe__strmap_free(parts);
    floe__vec_free(&order);
    floe__buf_free(&key);
    return rc;
}

/* Rewrite the groups [from, to) in one replace commit. */
/* A replace operation that starts at `base` (the planned snapshot or this
 * rewrite's last commit); FLOE_ECONFLICT when someone committed in between,
 * since the operation's validation starts at its own base. */
static int start_op(floe_table *t, int64_t base, floe_rowlevel **out)
{
    floe_rowlevel_options ro = FLOE_ROWLEVEL_OPTIONS_INIT;
    ro.kind = FLOE_ROWLEVEL_REWRITE;
    int rc = floe_rowlevel_new(out, t, &ro);
    if (rc == 0 && floe_rowlevel_base_snapshot(*out) != base)
        rc = floe__error(FLOE_ECONFLICT, "maint",
                         "Cannot commit rewrite: branch %s moved from %lld to %lld since the "
                         "rewrite was planned",
                         floe_table_branch(t), (long long)base,
                         (long long)floe_rowlevel_base_snapshot(*out));
    return rc;
}

/* `*base` is the snapshot the groups were planned on, or the one this
 * rewrite committed last: the operation must start there, so that its
 * validation covers every commit since the plan (a delete committed in
 * between would otherwise be undone); it is moved to the new snapshot. */
static int rewrite_commit(floe_table *t, const floe_scan_plan *plan, const cplan *p,
                          const floe_vec *groups, size_t from, size_t to, int64_t *base,
                          floe_rewrite_data_files_result *r)
{
    floe_rowlevel *op = NULL;
    int rc = start_op(t, *base, &op);
    floe_append *w = NULL;
    if (rc == 0)
        rc = floe__rowlevel_writer(op, &w);
    if (rc == 0)
        floe__append_set_target_size(w, p->target);
    size_t ntasks = 0;
    for (size_t g = from; g < to; g++)
        ntasks += ((const cgroup *)floe__vec_at(groups, g))->tasks.len;
    floe_scan_task *tasks = rc == 0 ? floe__calloc(ntasks ? ntasks : 1, sizeof *tasks) : NULL;
    if (rc == 0 && !tasks)
        rc = floe__error_nomem();
    size_t n = 0;
    int64_t bytes = 0;
    for (size_t g = from; rc == 0 && g < to; g++) {
        const cgroup *grp = floe__vec_at(groups, g);
        for (size_t i = 0; rc == 0 && i < grp->tasks.len; i++) {
            const floe_scan_task *st = *(const floe_scan_task **)floe__vec_at(&grp->tasks, i);
            tasks[n] = *st;
            tasks[n].residual = floe_expr_true(); /* whole files (ignoreResiduals) */
            n++;
            bytes += st->file->file_size_in_bytes;
            rc = floe__rowlevel_remove_file(op, st->file);
        }
    }
    /* the rows of the group's files, deletes applied */
    floe_scan_plan sub = *plan;
    sub.tasks = tasks;
    sub.ntasks = n;
    struct ArrowArrayStream stream;
    memset(&stream, 0, sizeof stream);
    if (rc == 0)
        rc = floe__scan_stream(&sub, t->io, NULL, 0, 1, &stream);
    while (rc == 0) {
        struct ArrowArray batch;
        memset(&batch, 0, sizeof batch);
        int e = stream.get_next(&stream, &batch);
        if (e != 0) {
            const char *msg = stream.get_last_error(&stream);
            rc = floe__error(FLOE_EIO, "maint", "reading the files to rewrite: %s",
                             msg ? msg : "stream error");
            break;
        }
        if (!batch.release)
            break;
        if (batch.length > 0)
            rc = floe_rowlevel_write(op, &batch);
        batch.release(&batch);
    }
    if (stream.release)
        stream.release(&stream);
    floe_rowlevel_stats st;
    memset(&st, 0, sizeof st);
    int64_t committed = -1;
    if (rc == 0)
        rc = floe_rowlevel_commit(op, &committed, &st);
    if (rc == 0 && committed >= 0)
        *base = committed;
    if (rc == 0) {
        r->rewritten_data_files_count += (int64_t)n;
        r->added_data_files_count += st.data_files_added;
        r->rewritten_bytes_count += bytes;
    } else if (p->partial) {
        r->failed_data_files_count += (int64_t)n;
    }
    floe__free(tasks);
    floe_rowlevel_free(op);
    return rc;
}

/* remove-dangling-deletes: every live delete file of the branch head that
 * the scan planner pairs with no live data file applies to no row, so
 * removing it changes no read (the planner's sequence-number, partition
 * and referenced-file rules decide, as they do for reads). One more
 * replace commit, from `*base`. */
static int remove_dangling(floe_table *t, int64_t *base, floe_rewrite_data_files_result *r)
{
    floe_rowlevel *op = NULL;
    int rc = start_op(t, *base, &op);
    const floe_snapshot *snap =
        rc == 0 && *base >= 0 ? floe__metadata_snapshot(t->metadata, *base) : NULL;
    floe_scan_plan *plan = NULL;
    if (rc == 0 && snap) {
        floe_scan_plan_options po;
        memset(&po, 0, sizeof po);
        po.threads = 1;
        rc = floe__scan_plan(&plan, t->metadata, t->io, snap, NULL, &po);
    }
    floe_strmap *used = rc == 0 ? floe__strmap_new() : NULL;
    if (rc == 0 && !used)
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && plan && i < plan->ntasks; i++)
        for (size_t k = 0; rc == 0 && k < plan->tasks[i].ndeletes; k++)
            rc = floe__strmap_put(used, plan->tasks[i].deletes[k]->path, (void *)1);
    floe_arena *a = floe__arena_new(4096);
    floe_buf lb = FLOE_BUF_INIT, mb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    const floe_manifest_file *mfs = NULL;
    size_t n = 0;
    if (rc == 0 && !a)
        rc = floe__error_nomem();
    if (rc == 0 && snap)
        rc = floe__maint_snapshot_manifests(t->io, snap, &lb, &l, a, &mfs, &n);
    int64_t removed = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (mfs[i].content != FLOE_MANIFEST_DELETES)
            continue;
        floe_manifest_reader *rd = NULL;
        rc = floe__maint_open_manifest(t->io, &mfs[i], &mb, &rd);
        const floe_manifest_entry *e;
        while (rc == 0 && (rc = floe_manifest_reader_next(rd, &e)) == 0) {
            if (!FLOE_ENTRY_IS_LIVE(e->status) || floe__strmap_has(used, e->data_file.file_path))
                continue;
            floe_scan_file f;
            memset(&f, 0, sizeof f);
            f.path = e->data_file.file_path;
            f.content = e->data_file.content;
            f.spec_id = mfs[i].partition_spec_id;
            f.partition = e->data_file.partition;
            f.record_count = e->data_file.record_count;
            f.file_size_in_bytes = e->data_file.file_size_in_bytes;
            rc = floe__rowlevel_remove_file(op, &f);
            if (rc == 0)
                rc = floe__strmap_put(used, floe__arena_strdup(a, f.path), (void *)1);
            removed++;
        }
        if (rc == FLOE_ITEROVER)
            rc = 0;
        floe_manifest_reader_free(rd);
    }
    /* the plan points into the handle's metadata, which the commit replaces */
    floe__scan_plan_free(plan);
    plan = NULL;
    floe__strmap_free(used);
    used = NULL;
    int64_t committed = -1;
    if (rc == 0 && removed)
        rc = floe_rowlevel_commit(op, &committed, NULL);
    if (rc == 0 && removed) {
        r->removed_delete_files_count += removed;
        *base = committed;
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    floe__buf_free(&mb);
    floe__arena_free(a);
    floe__strmap_free(used);
    floe__scan_plan_free(plan);
    floe_rowlevel_free(op);
    return rc;
}

int floe_rewrite_data_files(floe_rewrite_data_files_result *out, floe_catalog *catalog,
                            const char *ident, const floe_rewrite_data_files_options *opts)
{
    memset(out, 0, sizeof *out);
    if (!opts || opts->version != FLOE_REWRITE_DATA_FILES_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported rewrite_data_files options");
    const floe_rewrite_data_files_options *o = opts;
    if (o->strategy && strcasecmp(o->strategy, "binpack") != 0) {
        if (strcasecmp(o->strategy, "sort") == 0)
            return floe__error(FLOE_EUNSUPPORTED, "maint",
                               "rewrite_data_files: the sort strategy is not supported yet");
        return floe__error(FLOE_EINVALID, "maint",
                           "unsupported strategy: %s. Only binpack or sort is supported",
                           o->strategy);
    }
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = o->io;
    to.io_conf = o->io_conf;
    to.branch = o->branch;
    floe_table *t = NULL;
    FLOE_TRY(floe_table_load(&t, catalog, ident, &to));
    cplan p;
    memset(&p, 0, sizeof p);
    int rc = plan_options(t->metadata, o->options, &p);
    const floe_snapshot_ref *head = NULL;
    if (rc == 0)
        rc = floe__table_write_head(t->metadata, t->branch, false, &head);
    const floe_snapshot *snap = rc == 0 && head ? floe__metadata_snapshot(t->metadata,
                                                                          head->snapshot_id)
                                                : NULL;
    floe_arena *a = floe__arena_new(4096);
    if (rc == 0 && !a)
        rc = floe__error_nomem();
    const floe_expr *filter = NULL;
    if (rc == 0 && o->where && *o->where)
        rc = floe__scan_filter_parse(&filter, a, o->where,
                                     floe__metadata_current_schema(t->metadata));
    /* the plan keeps pointers into its metadata: a copy of our own, since
     * each commit replaces the handle's */
    floe_table_metadata *meta = NULL;
    if (rc == 0 && snap)
        rc = floe__table_read_metadata(t->io, t->metadata_location, &meta);
    if (rc == 0 && meta)
        snap = floe__metadata_snapshot(meta, snap->snapshot_id);
    floe_scan_plan *plan = NULL;
    if (rc == 0 && snap) {
        floe_scan_plan_options po;
        memset(&po, 0, sizeof po);
        po.filter = filter;
        po.threads = 1;
        rc = floe__scan_plan(&plan, meta, t->io, snap, NULL, &po);
    }
    floe_vec groups = FLOE_VEC_INIT(cgroup);
    if (rc == 0 && plan)
        rc = plan_groups(&p, plan, &groups);
    int64_t base = snap ? snap->snapshot_id : -1;
    if (rc == 0 && groups.len && !p.partial) {
        rc = rewrite_commit(t, plan, &p, &groups, 0, groups.len, &base, out);
    } else if (rc == 0 && groups.len) {
        size_t commits = groups.len < (size_t)p.max_commits ? groups.len : (size_t)p.max_commits;
        size_t per = (groups.len + commits - 1) / commits;
        for (size_t g = 0; g < groups.len; g += per) {
            size_t end = g + per < groups.len ? g + per : groups.len;
            if (rewrite_commit(t, plan, &p, &groups, g, end, &base, out) < 0)
                floe_error_clear(); /* counted in failed_data_files_count */
        }
    }
    bool dangling = false;
    if (rc == 0)
        rc = opt_bool(o->options, "remove-dangling-deletes", false, &dangling);
    if (rc == 0 && dangling && snap)
        rc = remove_dangling(t, &base, out);
    groups_free(&groups);
    floe__scan_plan_free(plan);
    floe__metadata_free(meta);
    floe__arena_free(a);
    floe_table_free(t);
    return rc;
}

/* ---------------------------------------------------------------- rewrite_manifests */

int floe_rewrite_manifests(floe_rewrite_manifests_result *out, floe_catalog *catalog,
                           const char *ident, const floe_rewrite_manifests_options *opts)
{
    memset(out, 0, sizeof *out);
    if (!opts || opts->version != FLOE_REWRITE_MANIFESTS_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported rewrite_manifests options");
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = opts->io;
    to.io_conf = opts->io_conf;
    floe_table *t = NULL;
    FLOE_TRY(floe_table_load(&t, catalog, ident, &to));
    floe_rewrite_manifests_stats st;
    int rc = floe__table_rewrite_manifests(t, opts->spec_id, opts->target_manifest_size_bytes, &st);
    if (rc == 0) {
        out->rewritten_manifests_count = st.rewritten_manifests_count;
        out->added_manifests_count = st.added_manifests_count;
    }
    floe_table_free(t);
    return rc;
}
