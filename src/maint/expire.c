/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/expire: expire_snapshots (spec "Snapshots", "Snapshot Retention
 * Policy" under "Snapshot References", and the garbage-collection note of
 * "Manifests": a file may be deleted once no retained snapshot needs it).
 *
 * Which snapshots stay follows Java's RemoveSnapshots: a ref other than
 * `main` older than its max-ref-age-ms goes; every retained ref keeps its
 * snapshot; a retained branch keeps its ancestors while fewer than
 * min-snapshots-to-keep are kept or they are younger than its
 * max-snapshot-age-ms; a snapshot no retained ref reaches is kept while it
 * is younger than the table default. Explicit snapshot ids are expired
 * unless a retained ref points at them.
 *
 * Which files go is computed by reachability only, never incrementally
 * from snapshot summaries or DELETED entries (Java's incremental cleanup
 * deleted files still referenced by a branch or tag: apache/iceberg#10982,
 * #13568, #14319): first the manifests of every retained snapshot (on every
 * ref) are collected, then the candidates are the expired snapshots'
 * manifests not among them; candidate files are the live entries of
 * candidate manifests, minus the live entries of retained manifests. Each
 * manifest is read at most once, and retained manifests are read only when
 * there are candidate files to check.
 */
#include "maint.h"
#include "table/table.h"
#include "util/progress.h"

#include <stdint.h>
#include <string.h>

void floe__expire_plan_free(floe_expire_plan *p)
{
    if (!p)
        return;
    floe__vec_free(&p->remove_ids);
    floe__vec_free(&p->remove_refs);
    floe__vec_free(&p->remove_specs);
    floe__vec_free(&p->remove_schemas);
    floe__intmap_free(p->retained);
    memset(p, 0, sizeof *p);
}

static int push_id(floe_vec *v, int64_t id)
{
    v->item_size = sizeof(int64_t);
    int64_t *slot = floe__vec_push(v);
    if (!slot)
        return floe__error_nomem();
    *slot = id;
    return 0;
}

int floe__expire_plan_metadata(floe_expire_plan *p, floe_fileio *io,
                               const floe_table_metadata *base)
{
    floe_intmap *specs = floe__intmap_new(), *schemas = floe__intmap_new();
    floe_arena *a = floe__arena_new(4096);
    int rc = specs && schemas && a ? 0 : floe__error_nomem();
    if (rc == 0)
        rc = floe__intmap_put(specs, base->default_spec_id, (void *)1);
    if (rc == 0)
        rc = floe__intmap_put(schemas, base->current_schema_id, (void *)1);
    floe_buf lb = FLOE_BUF_INIT;
    for (size_t i = 0; rc == 0 && i < base->nsnapshots; i++) {
        const floe_snapshot *s = &base->snapshots[i];
        if (!floe__intmap_has(p->retained, s->snapshot_id))
            continue;
        if (s->has_schema_id)
            rc = floe__intmap_put(schemas, s->schema_id, (void *)1);
        if (rc < 0 || base->nspecs < 2 || floe__intmap_len(specs) >= base->nspecs)
            continue;
        floe_manifest_list *l = NULL;
        const floe_manifest_file *mfs = NULL;
        size_t n = 0;
        rc = floe__maint_snapshot_manifests(io, s, &lb, &l, a, &mfs, &n);
        for (size_t k = 0; rc == 0 && k < n; k++)
            rc = floe__intmap_put(specs, mfs[k].partition_spec_id, (void *)1);
        floe_manifest_list_free(l);
    }
    for (size_t i = 0; rc == 0 && i < base->nspecs; i++)
        if (!floe__intmap_has(specs, base->specs[i]->spec_id))
            rc = push_id(&p->remove_specs, base->specs[i]->spec_id);
    for (size_t i = 0; rc == 0 && i < base->nschemas; i++)
        if (!floe__intmap_has(schemas, base->schemas[i]->schema_id))
            rc = push_id(&p->remove_schemas, base->schemas[i]->schema_id);
    floe__buf_free(&lb);
    floe__arena_free(a);
    floe__intmap_free(specs);
    floe__intmap_free(schemas);
    return rc;
}

int floe__ref_policy(const floe_table_metadata *base, const floe_maint_expire_options *o,
                     int64_t now_ms, const floe_snapshot_ref *ref, floe_ref_policy *out)
{
    int64_t max_age, min_keep, max_ref_age;
    FLOE_TRY(floe__props_get_int64(&base->properties, FLOE_PROP_MAX_SNAPSHOT_AGE,
                                   FLOE_DEFAULT_MAX_SNAPSHOT_AGE_MS, &max_age));
    FLOE_TRY(floe__props_get_int64(&base->properties, FLOE_PROP_MIN_SNAPSHOTS,
                                   FLOE_DEFAULT_MIN_SNAPSHOTS, &min_keep));
    FLOE_TRY(
        floe__props_get_int64(&base->properties, FLOE_PROP_MAX_REF_AGE, INT64_MAX, &max_ref_age));
    if (o && o->retain_last > 0)
        min_keep = o->retain_last;
    out->max_snapshot_age_ms = max_age;
    out->expire_older_than_ms = o && o->has_older_than
                                    ? o->older_than_ms
                                    : (max_age > now_ms ? INT64_MIN : now_ms - max_age);
    out->min_snapshots_to_keep = min_keep;
    out->max_ref_age_ms = max_ref_age;
    if (!ref)
        return 0;
    if (ref->type == FLOE_REF_BRANCH) {
        if (ref->has_min_snapshots_to_keep)
            out->min_snapshots_to_keep = ref->min_snapshots_to_keep;
        if (ref->has_max_snapshot_age_ms) {
            out->max_snapshot_age_ms = ref->max_snapshot_age_ms;
            out->expire_older_than_ms = now_ms - ref->max_snapshot_age_ms;
        }
    }
    if (ref->has_max_ref_age_ms)
        out->max_ref_age_ms = ref->max_ref_age_ms;
    return 0;
}

static int keep(floe_intmap *m, int64_t id)
{
    return floe__intmap_put(m, id, (void *)1);
}

static bool ref_retained(const floe_table_metadata *base, const floe_snapshot_ref *ref,
                         const floe_ref_policy *pol, int64_t now_ms)
{
    if (strcmp(ref->name, "main") == 0)
        return true;
    const floe_snapshot *s = floe__metadata_snapshot(base, ref->snapshot_id);
    if (!s)
        return false; /* a dangling ref is removed */
    return now_ms - s->timestamp_ms <= pol->max_ref_age_ms;
}

int floe__expire_plan(floe_expire_plan *p, const floe_table_metadata *base,
                      const floe_maint_expire_options *o, int64_t now_ms)
{
    memset(p, 0, sizeof *p);
    p->remove_ids = (floe_vec)FLOE_VEC_INIT(int64_t);
    p->remove_refs = (floe_vec)FLOE_VEC_INIT(const char *);
    floe_intmap *referenced = floe__intmap_new();
    p->retained = floe__intmap_new();
    int rc = 0;
    if (!referenced || !p->retained) {
        rc = FLOE_ENOMEM;
        goto done;
    }
    floe_ref_policy def;
    if ((rc = floe__ref_policy(base, o, now_ms, NULL, &def)) < 0)
        goto done;
    bool *ref_kept = floe__calloc(base->nrefs ? base->nrefs : 1, sizeof *ref_kept);
    if (!ref_kept) {
        rc = FLOE_ENOMEM;
        goto done;
    }
    for (size_t i = 0; rc == 0 && i < base->nrefs; i++) {
        const floe_snapshot_ref *ref = &base->refs[i];
        floe_ref_policy pol;
        if ((rc = floe__ref_policy(base, o, now_ms, ref, &pol)) < 0)
            break;
        ref_kept[i] = ref_retained(base, ref, &pol, now_ms);
        if (!ref_kept[i]) {
            const char **slot = floe__vec_push(&p->remove_refs);
            if (!slot) {
                rc = FLOE_ENOMEM;
                break;
            }
            *slot = ref->name;
        }
    }
    /* a snapshot a retained ref points at cannot be expired explicitly */
    for (size_t k = 0; rc == 0 && o && k < o->nsnapshot_ids; k++) {
        floe_buf names = FLOE_BUF_INIT;
        for (size_t i = 0; rc == 0 && i < base->nrefs; i++)
            if (ref_kept[i] && base->refs[i].snapshot_id == o->snapshot_ids[k])
                rc = floe__buf_printf(&names, "%s%s", names.len ? ", " : "", base->refs[i].name);
        if (rc == 0 && names.len)
            rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_ILLEGAL_ARGUMENT, "maint",
                                "Cannot expire %lld. Still referenced by refs: [%s]",
                                (long long)o->snapshot_ids[k], names.ptr);
        floe__buf_free(&names);
    }
    /* retained refs: their heads, and each branch's ancestors per policy */
    for (size_t i = 0; rc == 0 && i < base->nrefs; i++) {
        if (!ref_kept[i])
            continue;
        const floe_snapshot_ref *ref = &base->refs[i];
        floe_ref_policy pol;
        if ((rc = floe__ref_policy(base, o, now_ms, ref, &pol)) < 0)
            break;
        if ((rc = keep(p->retained, ref->snapshot_id)) < 0)
            break;
        int64_t kept = 0;
        bool in_window = true;
        const floe_snapshot *s = floe__metadata_snapshot(base, ref->snapshot_id);
        /* bounded by the snapshot count (a hostile parent cycle ends) */
        for (size_t steps = 0; rc == 0 && s && steps <= base->nsnapshots; steps++) {
            if ((rc = keep(referenced, s->snapshot_id)) < 0)
                break;
            if (ref->type == FLOE_REF_BRANCH && in_window) {
                if (kept < pol.min_snapshots_to_keep ||
                    s->timestamp_ms >= pol.expire_older_than_ms) {
                    rc = keep(p->retained, s->snapshot_id);
                    kept++;
                } else {
                    in_window = false;
                }
            }
            s = s->has_parent ? floe__metadata_snapshot(base, s->parent_snapshot_id) : NULL;
        }
    }
    floe__free(ref_kept);
    /* snapshots no retained ref reaches: kept while young */
    for (size_t i = 0; rc == 0 && i < base->nsnapshots; i++) {
        const floe_snapshot *s = &base->snapshots[i];
        if (!floe__intmap_has(referenced, s->snapshot_id) &&
            s->timestamp_ms >= def.expire_older_than_ms)
            rc = keep(p->retained, s->snapshot_id);
    }
    for (size_t k = 0; rc == 0 && o && k < o->nsnapshot_ids; k++)
        floe__intmap_del(p->retained, o->snapshot_ids[k]);
    for (size_t i = 0; rc == 0 && i < base->nsnapshots; i++) {
        int64_t id = base->snapshots[i].snapshot_id;
        if (floe__intmap_has(p->retained, id))
            continue;
        int64_t *slot = floe__vec_push(&p->remove_ids);
        if (!slot)
            rc = FLOE_ENOMEM;
        else
            *slot = id;
    }
done:
    floe__intmap_free(referenced);
    if (rc < 0)
        floe__expire_plan_free(p);
    return rc;
}

/* ---------------------------------------------------------------- cleanup */

typedef struct cand_file {
    floe_maint_file_kind kind;
    int64_t size;
    int64_t snap; /* the expired snapshot whose manifest listed it */
} cand_file;

typedef struct doomed {
    floe_maint_file_kind kind;
    const char *path;
    const char *reason; /* arena; "expired snapshot S", "kept: ..." */
    bool kept;          /* reported only: a candidate a retained snapshot still needs */
} doomed;

typedef struct cleanup {
    floe_fileio *io;
    floe_arena *arena;
    floe_buf bytes;
    floe_strmap *retained_manifests; /* path -> floe_manifest_file* (arena) */
    floe_strmap *retained_lists;     /* path -> 1 */
    floe_strmap *candidates;         /* path -> floe_manifest_file* */
    floe_vec candidate_order;        /* floe_manifest_file* in discovery order */
    floe_vec candidate_snap;         /* int64_t: the expired snapshot listing each */
    floe_vec retained_order;
    floe_vec retained_snap; /* int64_t: the retained snapshot listing each */
    const floe_table_metadata *base;
    bool report;        /* reasons wanted (on_report / report_path) */
    floe_vec kept;      /* doomed with kept = true */
    floe_strmap *files; /* path -> cand_file* */
    floe_vec doomed;    /* doomed */
    floe_maint_expire_result *r;
} cleanup;

static floe_manifest_file *copy_mf(floe_arena *a, const floe_manifest_file *mf)
{
    floe_manifest_file *c = floe__arena_memdup(a, mf, sizeof *mf);
    if (!c || !(c->manifest_path = floe__arena_strdup(a, mf->manifest_path)))
        return NULL;
    c->has_partitions = false; /* summaries point into freed bytes */
    c->npartitions = 0;
    c->partitions = NULL;
    c->key_metadata.set = false;
    c->key_metadata.ptr = NULL;
    return c;
}

/* Read the manifest-list entries of `s` into `into` (dedup by path). */
static int collect_manifests(cleanup *c, const floe_snapshot *s, floe_strmap *into, floe_vec *order,
                             floe_vec *owners, const floe_strmap *exclude)
{
    floe_manifest_list *list = NULL;
    const floe_manifest_file *mfs;
    size_t n;
    int rc = floe__maint_snapshot_manifests(c->io, s, &c->bytes, &list, c->arena, &mfs, &n);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *path = mfs[i].manifest_path;
        if (floe__strmap_has(into, path) || (exclude && floe__strmap_has(exclude, path)))
            continue;
        floe_manifest_file *cp = copy_mf(c->arena, &mfs[i]);
        floe_manifest_file **slot = cp ? floe__vec_push(order) : NULL;
        int64_t *own = slot ? floe__vec_push(owners) : NULL;
        if (!own) {
            rc = FLOE_ENOMEM;
            break;
        }
        *slot = cp;
        *own = s->snapshot_id;
        rc = floe__strmap_put(into, cp->manifest_path, cp);
    }
    floe_manifest_list_free(list);
    if (rc < 0)
        floe__error_context("reading the manifest list of snapshot %lld",
                            (long long)s->snapshot_id);
    return rc;
}

static floe_maint_file_kind file_kind(int32_t content)
{
    if (content == FLOE_FILE_POSITION_DELETES)
        return FLOE_MAINT_POSITION_DELETE_FILE;
    if (content == FLOE_FILE_EQUALITY_DELETES)
        return FLOE_MAINT_EQUALITY_DELETE_FILE;
    return FLOE_MAINT_DATA_FILE;
}

/* Stream one manifest: add (add=true) or strike (add=false) its live files. */
static int keep_reason(cleanup *c, int64_t snap, const char **out);

static int scan_manifest(cleanup *c, const floe_manifest_file *mf, bool add, int64_t owner)
{
    floe_manifest_reader *rd = NULL;
    int rc = floe__maint_open_manifest(c->io, mf, &c->bytes, &rd);
    if (rc == 0)
        c->r->manifests_read++;
    const floe_manifest_entry *e;
    while (rc == 0 && (rc = floe_manifest_reader_next(rd, &e)) == 0) {
        if (e->status == FLOE_ENTRY_DELETED)
            continue;
        const char *path = e->data_file.file_path;
        if (!path)
            continue;
        if (!add) {
            cand_file *was = c->report ? floe__strmap_get(c->files, path) : NULL;
            doomed *k = was ? floe__vec_push(&c->kept) : NULL;
            if (was && (!k || !(k->path = floe__arena_strdup(c->arena, path)))) {
                rc = FLOE_ENOMEM;
                break;
            }
            if (k) {
                k->kind = was->kind;
                k->kept = true;
                if ((rc = keep_reason(c, owner, &k->reason)) < 0)
                    break;
            }
            floe__strmap_del(c->files, path);
            continue;
        }
        if (floe__strmap_has(c->files, path))
            continue;
        cand_file *cf = floe__arena_alloc(c->arena, sizeof *cf);
        char *key = cf ? floe__arena_strdup(c->arena, path) : NULL;
        if (!key) {
            rc = FLOE_ENOMEM;
            break;
        }
        cf->kind = file_kind(e->data_file.content);
        cf->size = e->data_file.file_size_in_bytes;
        cf->snap = owner;
        rc = floe__strmap_put(c->files, key, cf);
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    floe_manifest_reader_free(rd);
    if (rc < 0)
        floe__error_context("reading manifest %s", mf->manifest_path);
    return rc;
}

static int doom(cleanup *c, floe_maint_file_kind kind, const char *path, int64_t snap)
{
    doomed *d = floe__vec_push(&c->doomed);
    if (!d)
        return FLOE_ENOMEM;
    d->kind = kind;
    d->path = path;
    d->kept = false;
    d->reason = NULL;
    if (c->report) {
        d->reason = snap >= 0
                        ? floe__arena_sprintf(c->arena, "expired snapshot %lld", (long long)snap)
                        : "dropped from the metadata log";
        if (!d->reason)
            return FLOE_ENOMEM;
    }
    return 0;
}

/* Why a retained snapshot stays: the first ref (main first) whose history
 * reaches it, else its age. */
static int keep_reason(cleanup *c, int64_t snap, const char **out)
{
    const floe_table_metadata *m = c->base;
    const char *ref = NULL;
    /* a ref pointing at it, else one whose history reaches it; main first */
    for (int pass = 0; pass < 4 && !ref; pass++)
        for (size_t i = 0; i < m->nrefs && !ref; i++) {
            const floe_snapshot_ref *r = &m->refs[i];
            if ((strcmp(r->name, "main") == 0) != (pass % 2 == 0))
                continue;
            const floe_snapshot *s = floe__metadata_snapshot(m, r->snapshot_id);
            for (size_t hops = 0; s && hops <= m->nsnapshots && !ref; hops++) {
                if (s->snapshot_id == snap)
                    ref = r->name;
                s = pass >= 2 && s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id)
                                               : NULL;
            }
        }
    *out = ref ? floe__arena_sprintf(c->arena, "kept: referenced by ref %s (snapshot %lld)", ref,
                                     (long long)snap)
               : floe__arena_sprintf(c->arena, "kept: snapshot %lld is retained", (long long)snap);
    return *out ? 0 : FLOE_ENOMEM;
}

static bool in_stats(const floe_table_metadata *m, const floe_intmap *ids, const char *path)
{
    for (size_t i = 0; i < m->nstatistics; i++)
        if (floe__intmap_has(ids, m->statistics[i].snapshot_id) &&
            strcmp(m->statistics[i].statistics_path, path) == 0)
            return true;
    for (size_t i = 0; i < m->npartition_statistics; i++)
        if (floe__intmap_has(ids, m->partition_statistics[i].snapshot_id) &&
            strcmp(m->partition_statistics[i].statistics_path, path) == 0)
            return true;
    return false;
}

static bool in_metadata_log(const floe_table_metadata *m, const char *location, const char *path)
{
    if (location && strcmp(location, path) == 0)
        return true;
    for (size_t i = 0; i < m->n_metadata_log; i++)
        if (strcmp(m->metadata_log[i].metadata_file, path) == 0)
            return true;
    return false;
}

static void count(floe_maint_expire_result *r, floe_maint_file_kind k, int64_t by)
{
    switch (k) {
    case FLOE_MAINT_DATA_FILE: r->deleted_data_files_count += by; break;
    case FLOE_MAINT_POSITION_DELETE_FILE: r->deleted_position_delete_files_count += by; break;
    case FLOE_MAINT_EQUALITY_DELETE_FILE: r->deleted_equality_delete_files_count += by; break;
    case FLOE_MAINT_MANIFEST: r->deleted_manifest_files_count += by; break;
    case FLOE_MAINT_MANIFEST_LIST: r->deleted_manifest_lists_count += by; break;
    case FLOE_MAINT_STATISTICS_FILE: r->deleted_statistics_files_count += by; break;
    case FLOE_MAINT_METADATA_FILE: r->deleted_metadata_files_count += by; break;
    default: break;
    }
}

/* Delete in batches; a batch the storage refuses is retried one by one so
 * that the counts say exactly what went. */
static int delete_all(cleanup *c, const floe_maint_expire_options *o)
{
    enum { BATCH = 1000 };
    const char *paths[BATCH];
    size_t n = c->doomed.len;
    floe__progress pr;
    floe__progress_init(&pr, o ? o->progress : NULL, o ? o->progress_payload : NULL,
                        o && o->dry_run ? "listing files to delete" : "deleting files", (uint64_t)n,
                        0);
    for (size_t i = 0; i < n; i += BATCH) {
        size_t m = n - i < BATCH ? n - i : BATCH;
        if (i)
            floe__progress_add(&pr, BATCH, 0);
        for (size_t k = 0; k < m; k++) {
            const doomed *d = floe__vec_at(&c->doomed, i + k);
            paths[k] = d->path;
            if (o && o->on_file) {
                int rc = o->on_file(d->kind, d->path, o->payload);
                if (rc < 0) {
                    floe__progress_finish(&pr);
                    return rc;
                }
            }
        }
        if (o && o->dry_run) {
            for (size_t k = 0; k < m; k++)
                count(c->r, ((const doomed *)floe__vec_at(&c->doomed, i + k))->kind, 1);
            continue;
        }
        if (floe_fileio_remove(c->io, paths, m) == 0) {
            for (size_t k = 0; k < m; k++)
                count(c->r, ((const doomed *)floe__vec_at(&c->doomed, i + k))->kind, 1);
            continue;
        }
        for (size_t k = 0; k < m; k++) {
            const doomed *d = floe__vec_at(&c->doomed, i + k);
            if (floe_fileio_remove(c->io, &d->path, 1) == 0)
                count(c->r, d->kind, 1);
            else
                c->r->failed_deletes_count++;
        }
        floe_error_clear();
    }
    if (n)
        floe__progress_add(&pr, (uint64_t)(n - (n - 1) / BATCH * BATCH), 0);
    floe__progress_finish(&pr);
    return 0;
}

/* The per-file report: every file that goes with its expired snapshot,
 * then every candidate a retained snapshot keeps, to on_report and as CSV
 * (status,kind,path,reason) to report_path — written before anything is
 * deleted, so a failed report deletes nothing. */
static int report(cleanup *c, const floe_maint_expire_options *o)
{
    floe_buf csv = FLOE_BUF_INIT;
    int rc = o->report_path ? floe__buf_printf(&csv, "status,kind,path,reason\n") : 0;
    for (int pass = 0; rc == 0 && pass < 2; pass++) {
        const floe_vec *v = pass == 0 ? &c->doomed : &c->kept;
        for (size_t i = 0; rc == 0 && i < v->len; i++) {
            const doomed *d = floe__vec_at(v, i);
            const char *status = d->kept ? "kept" : o->dry_run ? "would delete" : "delete";
            if (o->on_report)
                rc = o->on_report(d->kind, d->path, d->reason, d->kept, o->payload);
            if (rc == 0 && o->report_path) {
                bool q = strpbrk(d->path, ",\"\n") != NULL;
                rc = floe__buf_printf(&csv, "%s,%s,%s", status, floe_maint_file_kind_name(d->kind),
                                      q ? "\"" : "");
                for (const char *p = d->path; rc == 0 && q && *p; p++)
                    rc = *p == '"' ? floe__buf_printf(&csv, "\"\"") : floe__buf_putc(&csv, *p);
                if (rc == 0)
                    rc = floe__buf_printf(&csv, "%s%s,%s\n", q ? "\"" : "", q ? "" : d->path,
                                          d->reason);
            }
        }
    }
    if (rc == 0 && o->report_path) {
        floe_output *out = NULL;
        rc = floe_fileio_create_output(&out, c->io, o->report_path);
        if (rc == 0)
            rc = out->write(out, csv.ptr, csv.len);
        if (rc == 0)
            rc = out->commit(out);
        else if (out)
            out->abort(out);
    }
    floe__buf_free(&csv);
    return rc;
}

int floe__expire_cleanup(floe_fileio *io, const floe_table_metadata *base,
                         const char *base_location, const floe_table_metadata *committed,
                         const char *committed_location, const floe_intmap *retained_ids,
                         const floe_maint_expire_options *o, floe_maint_expire_result *r,
                         int64_t *freed_bytes)
{
    cleanup c;
    memset(&c, 0, sizeof c);
    c.io = io;
    c.r = r;
    c.arena = floe__arena_new(0);
    c.retained_manifests = floe__strmap_new();
    c.retained_lists = floe__strmap_new();
    c.candidates = floe__strmap_new();
    c.files = floe__strmap_new();
    c.candidate_order = (floe_vec)FLOE_VEC_INIT(floe_manifest_file *);
    c.retained_order = (floe_vec)FLOE_VEC_INIT(floe_manifest_file *);
    c.candidate_snap = (floe_vec)FLOE_VEC_INIT(int64_t);
    c.retained_snap = (floe_vec)FLOE_VEC_INIT(int64_t);
    c.doomed = (floe_vec)FLOE_VEC_INIT(doomed);
    c.kept = (floe_vec)FLOE_VEC_INIT(doomed);
    c.base = committed ? committed : base;
    c.report = o && (o->on_report || o->report_path);
    int rc = 0;
    if (freed_bytes)
        *freed_bytes = 0;
    if (!c.arena || !c.retained_manifests || !c.retained_lists || !c.candidates || !c.files) {
        rc = FLOE_ENOMEM;
        goto done;
    }
    /* 1. everything retained snapshots reach, first */
    bool any_expired = false;
    for (size_t i = 0; rc == 0 && i < base->nsnapshots; i++) {
        const floe_snapshot *s = &base->snapshots[i];
        if (!floe__intmap_has(retained_ids, s->snapshot_id)) {
            any_expired = true;
            continue;
        }
        const char *lp = NULL;
        rc = floe__maint_list_path(s, c.arena, &lp);
        if (rc == 0 && lp)
            rc = floe__strmap_put(c.retained_lists, lp, (void *)1);
        if (rc == 0)
            rc = collect_manifests(&c, s, c.retained_manifests, &c.retained_order, &c.retained_snap,
                                   NULL);
    }
    /* 2. candidates: expired snapshots' manifests no retained one lists */
    for (size_t i = 0; rc == 0 && any_expired && i < base->nsnapshots; i++) {
        const floe_snapshot *s = &base->snapshots[i];
        if (floe__intmap_has(retained_ids, s->snapshot_id))
            continue;
        rc = collect_manifests(&c, s, c.candidates, &c.candidate_order, &c.candidate_snap,
                               c.retained_manifests);
        if (rc == FLOE_ENOTFOUND) {
            /* an expired snapshot's list already gone: what it named can no
             * longer be enumerated here (remove_orphan_files finds it) */
            floe_error_clear();
            rc = 0;
            continue;
        }
        const char *lp = NULL;
        if (rc == 0)
            rc = floe__maint_list_path(s, c.arena, &lp);
        if (rc == 0 && lp && !floe__strmap_has(c.retained_lists, lp)) {
            rc = floe__strmap_put(c.retained_lists, lp, (void *)1); /* dedup */
            if (rc == 0)
                rc = doom(&c, FLOE_MAINT_MANIFEST_LIST, lp, s->snapshot_id);
        }
    }
    /* 3. candidate files: live entries of candidate manifests (one that is
     * already gone is skipped; a retained one missing fails the whole
     * cleanup below, before anything is deleted) */
    for (size_t i = 0; rc == 0 && i < c.candidate_order.len; i++) {
        rc = scan_manifest(&c, *(floe_manifest_file **)floe__vec_at(&c.candidate_order, i), true,
                           *(int64_t *)floe__vec_at(&c.candidate_snap, i));
        if (rc == FLOE_ENOTFOUND) {
            floe_error_clear();
            rc = 0;
        }
    }
    /* 4. strike what a retained manifest still lists live */
    for (size_t i = 0; rc == 0 && floe__strmap_len(c.files) && i < c.retained_order.len; i++)
        rc = scan_manifest(&c, *(floe_manifest_file **)floe__vec_at(&c.retained_order, i), false,
                           *(int64_t *)floe__vec_at(&c.retained_snap, i));
    if (rc < 0)
        goto done;
    /* data and delete files first, in a stable order (manifest order) */
    size_t it = 0;
    const char *key;
    void *val;
    while (floe__strmap_next(c.files, &it, &key, &val)) {
        const cand_file *cf = val;
        if (freed_bytes && cf->size > 0)
            *freed_bytes += cf->size;
        if ((rc = doom(&c, cf->kind, key, cf->snap)) < 0)
            goto done;
    }
    for (size_t i = 0; i < c.candidate_order.len; i++) {
        const floe_manifest_file *mf = *(floe_manifest_file **)floe__vec_at(&c.candidate_order, i);
        if ((rc = doom(&c, FLOE_MAINT_MANIFEST, mf->manifest_path,
                       *(int64_t *)floe__vec_at(&c.candidate_snap, i))) < 0)
            goto done;
    }
    /* 5. statistics of expired snapshots that no retained snapshot shares */
    for (size_t i = 0; i < base->nstatistics; i++) {
        const floe_statistics_file *st = &base->statistics[i];
        if (!floe__intmap_has(retained_ids, st->snapshot_id) &&
            !in_stats(base, retained_ids, st->statistics_path) &&
            (rc = doom(&c, FLOE_MAINT_STATISTICS_FILE, st->statistics_path, st->snapshot_id)) < 0)
            goto done;
    }
    for (size_t i = 0; i < base->npartition_statistics; i++) {
        const floe_partition_statistics_file *st = &base->partition_statistics[i];
        if (!floe__intmap_has(retained_ids, st->snapshot_id) &&
            !in_stats(base, retained_ids, st->statistics_path) &&
            (rc = doom(&c, FLOE_MAINT_STATISTICS_FILE, st->statistics_path, st->snapshot_id)) < 0)
            goto done;
    }
    /* 6. metadata files the committed metadata-log dropped */
    bool del_meta = false;
    if ((rc = floe__props_get_bool(&base->properties, "write.metadata.delete-after-commit.enabled",
                                   false, &del_meta)) < 0)
        goto done;
    if (del_meta && committed) {
        for (size_t i = 0; i <= base->n_metadata_log; i++) {
            const char *p =
                i < base->n_metadata_log ? base->metadata_log[i].metadata_file : base_location;
            if (p && !in_metadata_log(committed, committed_location, p) &&
                (rc = doom(&c, FLOE_MAINT_METADATA_FILE, p, -1)) < 0)
                goto done;
        }
    }
    if (o && c.report) /* c.report implies o (the analyzer loses that) */
        rc = report(&c, o);
    if (rc == 0)
        rc = delete_all(&c, o);
done:
    floe__buf_free(&c.bytes);
    floe__strmap_free(c.retained_manifests);
    floe__strmap_free(c.retained_lists);
    floe__strmap_free(c.candidates);
    floe__strmap_free(c.files);
    floe__vec_free(&c.candidate_order);
    floe__vec_free(&c.retained_order);
    floe__vec_free(&c.candidate_snap);
    floe__vec_free(&c.retained_snap);
    floe__vec_free(&c.doomed);
    floe__vec_free(&c.kept);
    floe__arena_free(c.arena);
    return rc;
}

int floe__expire_run(floe_fileio *io, const floe_table_metadata *base, const char *base_location,
                     const floe_maint_expire_options *o, floe_expire_commit_fn commit,
                     void *commit_payload, floe_maint_expire_result *r)
{
    memset(r, 0, sizeof *r);
    if (o && o->version != FLOE_MAINT_EXPIRE_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported expire options version %u",
                           o->version);
    if (o && o->retain_last < 0)
        return floe__error(FLOE_EINVALID, "maint", "retain_last must be at least 1");
    int64_t now = o && o->now_ms ? o->now_ms : floe__now_ms();
    floe_expire_plan plan;
    FLOE_TRY(floe__expire_plan(&plan, base, o, now));
    r->expired_snapshots_count = (int64_t)plan.remove_ids.len;
    r->removed_refs_count = (int64_t)plan.remove_refs.len;
    int rc = 0;
    floe_table_metadata *committed = NULL;
    char *committed_location = NULL;
    bool dry = o && o->dry_run;
    if (!dry && (plan.remove_ids.len || plan.remove_refs.len)) {
        /* commit first: until it succeeds nothing may be deleted */
        rc = commit ? commit(base, base_location, &plan, &committed, &committed_location,
                             commit_payload)
                    : floe__error(FLOE_EINVALID, "maint", "expire without a commit is a dry run");
        if (rc < 0)
            goto done;
    }
    if (plan.remove_ids.len || committed) {
        /* retained = what the committed state holds (its snapshots), or
         * the plan for a dry run */
        floe_intmap *ret = plan.retained;
        floe_intmap *own = NULL;
        if (committed) {
            own = floe__intmap_new();
            if (!own) {
                rc = FLOE_ENOMEM;
                goto done;
            }
            for (size_t i = 0; rc == 0 && i < committed->nsnapshots; i++)
                rc = keep(own, committed->snapshots[i].snapshot_id);
            ret = own;
        }
        if (rc == 0)
            rc = floe__expire_cleanup(io, base, base_location, committed, committed_location, ret,
                                      o, r, NULL);
        floe__intmap_free(own);
    }
done:
    floe__metadata_free(committed);
    floe__free(committed_location);
    floe__expire_plan_free(&plan);
    return rc;
}

/* ---------------------------------------------------------------- through the table layer */

/* The expiry as a prepare callback of the table layer's commit protocol:
 * each attempt (the first, and every retry after a lost compare-and-set)
 * plans again on the base it is given, so a plan is never applied to a
 * state it was not computed from. */
typedef struct expire_commit {
    floe_table *table;
    const floe_maint_expire_options *opts;
    int64_t now;
    floe_expire_plan plan;
    char *base_location; /* the metadata file the last attempt planned on */
} expire_commit;

static int expire_prepare(const floe_table_metadata *base, floe_table_change *change, void *payload)
{
    expire_commit *x = payload;
    floe__expire_plan_free(&x->plan);
    floe__free(x->base_location);
    x->base_location = floe__strdup(x->table->metadata_location);
    if (!x->base_location)
        return FLOE_ENOMEM;
    FLOE_TRY(floe__expire_plan(&x->plan, base, x->opts, x->now));
    for (size_t i = 0; i < x->plan.remove_refs.len; i++) {
        floe_table_update *u = floe__change_update(change, FLOE_UPD_REMOVE_SNAPSHOT_REF);
        if (!u || !(u->name = floe__arena_strdup(
                        change->arena, *(const char **)floe__vec_at(&x->plan.remove_refs, i))))
            return FLOE_ENOMEM;
    }
    if (x->plan.remove_ids.len) {
        floe_table_update *u = floe__change_update(change, FLOE_UPD_REMOVE_SNAPSHOTS);
        int64_t *ids = u ? floe__arena_memdup(change->arena, x->plan.remove_ids.items,
                                              x->plan.remove_ids.len * sizeof(int64_t))
                         : NULL;
        if (!ids)
            return FLOE_ENOMEM;
        u->ids = ids;
        u->nids = x->plan.remove_ids.len;
    }
    if (x->opts && x->opts->clean_expired_metadata)
        FLOE_TRY(
            floe__expire_plan_metadata(&x->plan, x->opts->io ? x->opts->io : x->table->io, base));
    const struct {
        floe_update_type type;
        const floe_vec *ids;
    } meta[] = {{FLOE_UPD_REMOVE_PARTITION_SPECS, &x->plan.remove_specs},
                {FLOE_UPD_REMOVE_SCHEMAS, &x->plan.remove_schemas}};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(meta); i++) {
        if (!meta[i].ids->len)
            continue;
        floe_table_update *u = floe__change_update(change, meta[i].type);
        int64_t *ids = u ? floe__arena_memdup(change->arena, meta[i].ids->items,
                                              meta[i].ids->len * sizeof(int64_t))
                         : NULL;
        if (!ids)
            return FLOE_ENOMEM;
        u->ids = ids;
        u->nids = meta[i].ids->len;
    }
    if (change->updates.len && base->table_uuid) {
        floe_requirement *q = floe__change_require(change, FLOE_REQ_ASSERT_TABLE_UUID);
        if (!q || !(q->uuid = floe__arena_strdup(change->arena, base->table_uuid)))
            return FLOE_ENOMEM;
    }
    return 0;
}

int floe_maint_table_expire_snapshots(floe_maint_expire_result *out, floe_table *table,
                                      const floe_maint_expire_options *opts)
{
    if (!out || !table)
        return floe__error(FLOE_EINVALID, "maint", "result and table are required");
    memset(out, 0, sizeof *out);
    if (opts && opts->version != FLOE_MAINT_EXPIRE_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported expire options version %u",
                           opts->version);
    if (opts && opts->retain_last < 0)
        return floe__error(FLOE_EINVALID, "maint", "retain_last must be at least 1");
    FLOE_TRY(floe_table_ensure_fresh(table));
    floe_fileio *io = opts && opts->io ? opts->io : table->io;
    if (opts && opts->dry_run)
        return floe__expire_run(io, table->metadata, table->metadata_location, opts, NULL, NULL,
                                out);
    expire_commit x;
    memset(&x, 0, sizeof x);
    x.table = table;
    x.opts = opts;
    x.now = opts && opts->now_ms ? opts->now_ms : floe__now_ms();
    /* commit first (retrying on conflicts); only then delete */
    int rc = floe__table_commit(table, expire_prepare, &x);
    out->expired_snapshots_count = (int64_t)x.plan.remove_ids.len;
    out->removed_refs_count = (int64_t)x.plan.remove_refs.len;
    if (rc == 0 && x.plan.remove_ids.len + x.plan.remove_refs.len > 0) {
        /* the base the committed plan was made on, and what is retained in
         * the committed state */
        floe_table_metadata *base = NULL;
        floe_intmap *retained = floe__intmap_new();
        rc = retained ? floe__maint_read_metadata(io, x.base_location, &base) : FLOE_ENOMEM;
        const floe_table_metadata *cm = table->metadata;
        for (size_t i = 0; rc == 0 && i < cm->nsnapshots; i++)
            rc = keep(retained, cm->snapshots[i].snapshot_id);
        if (rc == 0)
            rc = floe__expire_cleanup(io, base, x.base_location, cm, table->metadata_location,
                                      retained, opts, out, NULL);
        floe__intmap_free(retained);
        floe__metadata_free(base);
    }
    floe__expire_plan_free(&x.plan);
    floe__free(x.base_location);
    return rc;
}

int floe_maint_expire_snapshots(floe_maint_expire_result *out, floe_catalog *catalog,
                                const char *ident, const floe_maint_expire_options *opts)
{
    if (!out)
        return floe__error(FLOE_EINVALID, "maint", "result pointer is NULL");
    memset(out, 0, sizeof *out);
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = opts ? opts->io : NULL;
    to.io_conf = opts ? opts->io_conf : NULL;
    floe_table *t = NULL;
    FLOE_TRY(floe_table_load(&t, catalog, ident, &to));
    int rc = floe_maint_table_expire_snapshots(out, t, opts);
    floe_table_free(t);
    return rc;
}
