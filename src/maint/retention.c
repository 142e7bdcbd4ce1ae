/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/retention: the retention report (seed 000, "Retention is your
 * storage bill and your undo button at once"). Per ref: the effective
 * policy (ref settings, else table properties, else Iceberg defaults), how
 * many snapshots it keeps and the oldest one — the start of its recovery
 * window. For the table: bytes of live files that only non-current
 * snapshots hold (all_data_files minus files, counted over data and delete
 * files alike), and what expire_snapshots with the current settings would
 * do: which snapshots become unrecoverable and the dry-run counts.
 */
#include "maint.h"
#include "meta/meta.h"
#include "util/progress.h"

#include <stdint.h>
#include <string.h>

typedef struct held {
    int64_t size;
    bool current;
} held;

static int live_bytes(floe_fileio *io, const floe_table_metadata *m, floe_maint_retention_report *r,
                      floe__progress *pr)
{
    floe_arena *a = floe__arena_new(0);
    floe_strmap *manifests = floe__strmap_new(); /* path -> (void*)1 or 2 (current) */
    floe_strmap *files = floe__strmap_new();
    floe_vec order = FLOE_VEC_INIT(floe_manifest_file *);
    floe_buf bytes = FLOE_BUF_INIT;
    int rc = a && manifests && files ? 0 : FLOE_ENOMEM;
    const floe_snapshot *cur = floe__metadata_current_snapshot(m);
    for (size_t i = 0; rc == 0 && i < m->nsnapshots; i++) {
        const floe_snapshot *s = &m->snapshots[i];
        floe_manifest_list *list = NULL;
        const floe_manifest_file *mfs;
        size_t n;
        rc = floe__maint_snapshot_manifests(io, s, &bytes, &list, a, &mfs, &n);
        floe__progress_add(pr, 1, 0);
        for (size_t k = 0; rc == 0 && k < n; k++) {
            floe_manifest_file **slot;
            floe_manifest_file *prev = floe__strmap_get(manifests, mfs[k].manifest_path);
            if (prev) {
                if (s == cur)
                    prev->has_first_row_id = true; /* reused as the "current" mark */
                continue;
            }
            floe_manifest_file *cp = floe__arena_memdup(a, &mfs[k], sizeof *cp);
            if (!cp || !(cp->manifest_path = floe__arena_strdup(a, mfs[k].manifest_path)) ||
                !(slot = floe__vec_push(&order))) {
                rc = FLOE_ENOMEM;
                break;
            }
            cp->has_partitions = false;
            cp->partitions = NULL;
            cp->key_metadata.set = false;
            cp->has_first_row_id = s == cur;
            *slot = cp;
            rc = floe__strmap_put(manifests, cp->manifest_path, cp);
        }
        floe_manifest_list_free(list);
    }
    for (size_t i = 0; rc == 0 && i < order.len; i++) {
        const floe_manifest_file *mf = *(floe_manifest_file **)floe__vec_at(&order, i);
        floe_manifest_reader *rd = NULL;
        rc = floe__maint_open_manifest(io, mf, &bytes, &rd);
        const floe_manifest_entry *e;
        while (rc == 0 && (rc = floe_manifest_reader_next(rd, &e)) == 0) {
            if (e->status == FLOE_ENTRY_DELETED || !e->data_file.file_path)
                continue;
            held *h = floe__strmap_get(files, e->data_file.file_path);
            if (!h) {
                h = floe__arena_calloc(a, 1, sizeof *h);
                char *k = h ? floe__arena_strdup(a, e->data_file.file_path) : NULL;
                if (!k || (rc = floe__strmap_put(files, k, h)) < 0) {
                    rc = rc < 0 ? rc : FLOE_ENOMEM;
                    break;
                }
                h->size = e->data_file.file_size_in_bytes;
            }
            if (mf->has_first_row_id)
                h->current = true;
        }
        if (rc == FLOE_ITEROVER)
            rc = 0;
        floe_manifest_reader_free(rd);
    }
    size_t it = 0;
    const char *key;
    void *val;
    while (rc == 0 && floe__strmap_next(files, &it, &key, &val)) {
        const held *h = val;
        r->all_files_bytes += h->size;
        if (h->current)
            r->current_files_bytes += h->size;
    }
    r->bytes_held_only_by_old_snapshots = r->all_files_bytes - r->current_files_bytes;
    floe__buf_free(&bytes);
    floe__vec_free(&order);
    floe__strmap_free(files);
    floe__strmap_free(manifests);
    floe__arena_free(a);
    return rc;
}

static int report_refs(const floe_table_metadata *m, int64_t now, floe_maint_retention_report *r)
{
    r->refs = floe__calloc(m->nrefs ? m->nrefs : 1, sizeof *r->refs);
    if (!r->refs)
        return FLOE_ENOMEM;
    r->nrefs = m->nrefs;
    for (size_t i = 0; i < m->nrefs; i++) {
        const floe_snapshot_ref *ref = &m->refs[i];
        floe_maint_retention_ref *o = &r->refs[i];
        floe_ref_policy pol;
        FLOE_TRY(floe__ref_policy(m, NULL, now, ref, &pol));
        o->name = ref->name;
        o->type = ref->type == FLOE_REF_TAG ? "tag" : "branch";
        o->snapshot_id = ref->snapshot_id;
        o->min_snapshots_to_keep = ref->type == FLOE_REF_TAG ? 1 : pol.min_snapshots_to_keep;
        o->max_snapshot_age_ms = ref->type == FLOE_REF_TAG ? -1 : pol.max_snapshot_age_ms;
        o->max_ref_age_ms = pol.max_ref_age_ms == INT64_MAX ? -1 : pol.max_ref_age_ms;
        const floe_snapshot *s = floe__metadata_snapshot(m, ref->snapshot_id);
        o->expires =
            strcmp(ref->name, "main") != 0 && (!s || now - s->timestamp_ms > pol.max_ref_age_ms);
        const floe_snapshot *oldest = NULL;
        int64_t kept = 0;
        for (size_t steps = 0; s && steps <= m->nsnapshots; steps++) {
            if (!(kept < pol.min_snapshots_to_keep || s->timestamp_ms >= pol.expire_older_than_ms))
                break;
            oldest = s;
            kept++;
            if (ref->type == FLOE_REF_TAG)
                break;
            s = s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id) : NULL;
        }
        o->retained_count = kept;
        if (oldest) {
            o->oldest_snapshot_id = oldest->snapshot_id;
            o->oldest_timestamp_ms = oldest->timestamp_ms;
            o->oldest_age_ms = now - oldest->timestamp_ms;
        }
    }
    return 0;
}

int floe_maint_retention_report_compute(floe_maint_retention_report **out, floe_catalog *catalog,
                                        const char *ident, const floe_maint_retention_options *opts)
{
    *out = NULL;
    static const floe_maint_retention_options defaults = FLOE_MAINT_RETENTION_OPTIONS_INIT;
    const floe_maint_retention_options *o = opts ? opts : &defaults;
    if (o->version != FLOE_MAINT_RETENTION_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported retention options version %u",
                           o->version);
    floe_maint_table t;
    FLOE_TRY(floe__maint_table_load(&t, catalog, ident, o->io, o->io_conf));
    const floe_table_metadata *m = t.metadata;
    int64_t now = o->now_ms ? o->now_ms : floe__now_ms();
    floe_maint_retention_report *r = floe__calloc(1, sizeof *r);
    int rc = r ? 0 : FLOE_ENOMEM;
    floe_expire_plan plan;
    memset(&plan, 0, sizeof plan);
    if (rc == 0) {
        r->snapshots_count = (int64_t)m->nsnapshots;
        rc = report_refs(m, now, r);
    }
    floe__progress pr;
    floe__progress_init(&pr, o->progress, o->progress_payload, "reading snapshots",
                        (uint64_t)m->nsnapshots, 0);
    if (rc == 0)
        rc = live_bytes(t.io, m, r, &pr);
    floe__progress_finish(&pr);
    if (rc == 0 && floe__metadata_current_snapshot(m)) {
        floe_meta_options mo = FLOE_META_OPTIONS_INIT;
        mo.metadata = m;
        mo.metadata_location = t.metadata_location;
        mo.io = t.io;
        rc = floe__meta_retained_bytes(&mo, &r->all_data_files_minus_files_bytes);
    }
    if (rc == 0)
        rc = floe__expire_plan(&plan, m, NULL, now);
    if (rc == 0 && plan.remove_ids.len) {
        r->nexpiring = plan.remove_ids.len;
        r->expiring_snapshot_ids = floe__calloc(plan.remove_ids.len, sizeof(int64_t));
        r->expiring_timestamps_ms = floe__calloc(plan.remove_ids.len, sizeof(int64_t));
        if (!r->expiring_snapshot_ids || !r->expiring_timestamps_ms)
            rc = FLOE_ENOMEM;
        for (size_t i = 0; rc == 0 && i < plan.remove_ids.len; i++) {
            int64_t id = *(int64_t *)floe__vec_at(&plan.remove_ids, i);
            r->expiring_snapshot_ids[i] = id;
            r->expiring_timestamps_ms[i] = floe__metadata_snapshot(m, id)->timestamp_ms;
        }
        floe_maint_expire_options dry = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
        dry.dry_run = true;
        dry.progress = o->progress;
        dry.progress_payload = o->progress_payload;
        if (rc == 0)
            rc = floe__expire_cleanup(t.io, m, t.metadata_location, NULL, NULL, plan.retained, &dry,
                                      &r->would_delete, &r->would_free_bytes);
    }
    floe__expire_plan_free(&plan);
    if (rc < 0) {
        for (size_t i = 0; r && i < r->nrefs; i++)
            r->refs[i].name = NULL; /* still borrowed */
        floe_maint_retention_report_free(r);
        floe__maint_table_free(&t);
        return rc;
    }
    /* ref names point into the metadata: copy them before it goes */
    for (size_t i = 0; i < r->nrefs; i++) {
        r->refs[i].name = rc == 0 ? floe__strdup(r->refs[i].name) : NULL;
        if (!r->refs[i].name)
            rc = FLOE_ENOMEM;
    }
    floe__maint_table_free(&t);
    if (rc < 0) {
        floe_maint_retention_report_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

void floe_maint_retention_report_free(floe_maint_retention_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nrefs; i++)
        floe__free((char *)r->refs[i].name);
    floe__free(r->refs);
    floe__free(r->expiring_snapshot_ids);
    floe__free(r->expiring_timestamps_ms);
    floe__free(r);
}
