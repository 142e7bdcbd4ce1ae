/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/rewrite_manifests: a `replace` snapshot that only reorganises the
 * manifests of a branch head (Java's RewriteManifestsSparkAction /
 * BaseRewriteManifests, read, not copied; spec "Manifests", "Manifest
 * Lists"). For data and for delete manifests separately: the manifests of
 * the partition spec (`spec_id`, default the table's) are replaced by
 * ceil(total bytes / target) new ones holding their live entries as
 * EXISTING (snapshot ids and sequence numbers kept), clustered by
 * partition: the entries are ordered by partition and cut into that many
 * consecutive runs. Nothing happens for a content with no matching
 * manifest, or with one that would be rewritten into one. Each commit
 * attempt redoes the work from its base, so a lost compare-and-set never
 * drops a concurrent change.
 */
#include "manifest/manifest.h"
#include "scan/scan.h"
#include "table/producer.h"

#include <stdlib.h>
#include <string.h>

typedef struct rm_entry {
    const floe_manifest_entry *e;
    char *key; /* partition key bytes (heap), then the path */
    size_t keylen;
} rm_entry;

typedef struct rm_op {
    floe_table *t;
    int32_t spec_id;
    int64_t target;
    floe_producer prod;
    floe_rewrite_manifests_stats stats;
} rm_op;

static int entry_cmp(const void *x, const void *y)
{
    const rm_entry *a = x, *b = y;
    size_t n = a->keylen < b->keylen ? a->keylen : b->keylen;
    int c = memcmp(a->key, b->key, n);
    return c ? c : (a->keylen > b->keylen) - (a->keylen < b->keylen);
}

/* Write entries [from, to) as one manifest like `model` (header schema,
 * spec, partition fields); its list entry goes into `out` (change arena). */
static int write_one(rm_op *op, const floe_table_metadata *base, floe_table_change *c,
                     const floe_manifest_info *model, int32_t content, const rm_entry *es,
                     size_t from, size_t to, floe_manifest_file **out)
{
    floe_producer_manifest mw;
    int rc = floe__producer_manifest_open_like(&op->prod, base, model, op->spec_id, content,
                                               c->arena, &mw);
    for (size_t i = from; rc == 0 && i < to; i++) {
        floe_manifest_entry e = *es[i].e;
        e.status = FLOE_ENTRY_EXISTING;
        rc = floe_manifest_writer_add(mw.w, &e);
    }
    if (rc == 0)
        rc = floe__producer_manifest_close(&mw, op->t->io, c, NULL, c->arena, out);
    floe__producer_manifest_free(&mw);
    return rc;
}

/* One content (data or deletes) of the head's list: the matching manifests
 * are marked in `replaced` and the new ones pushed to `added`. */
static int rewrite_content(rm_op *op, const floe_table_metadata *base, floe_table_change *c,
                           const floe_manifest_list *l, int32_t content, bool *replaced,
                           floe_vec *added)
{
    size_t nmatch = 0;
    int64_t total = 0;
    for (size_t i = 0; i < l->nentries; i++)
        if (l->entries[i].content == content && l->entries[i].partition_spec_id == op->spec_id) {
            nmatch++;
            total += l->entries[i].manifest_length > 0 ? l->entries[i].manifest_length : 0;
        }
    int64_t want = (total + op->target - 1) / op->target;
    if (want < 1)
        want = 1;
    if (nmatch == 0 || (want == 1 && nmatch == 1))
        return 0;
    floe_manifest **mans = floe__calloc(nmatch, sizeof(floe_manifest *));
    floe_buf *bufs = floe__calloc(nmatch, sizeof *bufs);
    floe_vec entries = FLOE_VEC_INIT(rm_entry);
    int rc = mans && bufs ? 0 : floe__error_nomem();
    const floe_manifest_info *model = NULL;
    floe_buf key = FLOE_BUF_INIT;
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < l->nentries; i++) {
        const floe_manifest_file *mf = &l->entries[i];
        if (mf->content != content || mf->partition_spec_id != op->spec_id)
            continue;
        replaced[i] = true;
        rc = floe__io_read_all(op->t->io, mf->manifest_path, (size_t)1 << 31, &bufs[k]);
        if (rc == 0)
            rc = floe_manifest_read(&mans[k], (const uint8_t *)bufs[k].ptr, bufs[k].len,
                                    mf->manifest_path, mf);
        if (rc < 0)
            break;
        const floe_manifest_info *info = floe_manifest_reader_info(mans[k]->reader);
        if (!model)
            model = info;
        if (info->format_version > 3 || !info->schema_json || !info->partition_spec_json)
            rc = floe__error(FLOE_EUNSUPPORTED, "table", "cannot rewrite manifest %s",
                             mf->manifest_path);
        for (size_t j = 0; rc == 0 && j < mans[k]->nentries; j++) {
            const floe_manifest_entry *e = &mans[k]->entries[j];
            op->stats.entries_processed++;
            if (!FLOE_ENTRY_IS_LIVE(e->status))
                continue;
            floe__buf_clear(&key);
            rc = floe__scan_key(&key, e->data_file.partition.values, e->data_file.partition.n);
            if (rc == 0)
                rc = floe__buf_put(&key, e->data_file.file_path, strlen(e->data_file.file_path));
            rm_entry *re = rc == 0 ? floe__vec_push(&entries) : NULL;
            if (rc == 0 && !re)
                rc = floe__error_nomem();
            if (rc == 0) {
                re->e = e;
                re->keylen = key.len;
                if (!(re->key = floe__malloc(key.len + 1)))
                    rc = floe__error_nomem();
                else
                    memcpy(re->key, key.ptr, key.len);
            }
        }
        k++;
        op->stats.rewritten_manifests_count++;
    }
    rm_entry *es = entries.items;
    if (rc == 0 && entries.len)
        qsort(es, entries.len, sizeof *es, entry_cmp);
    size_t n = entries.len, runs = (size_t)want < n ? (size_t)want : (n ? n : 0);
    for (size_t r = 0; rc == 0 && r < runs; r++) {
        size_t from = n * r / runs, to = n * (r + 1) / runs;
        floe_manifest_file *mf = NULL;
        rc = write_one(op, base, c, model, content, es, from, to, &mf);
        const floe_manifest_file **slot = rc == 0 ? floe__vec_push(added) : NULL;
        if (rc == 0 && !slot)
            rc = floe__error_nomem();
        if (slot)
            *slot = mf;
        if (rc == 0)
            op->stats.added_manifests_count++;
    }
    for (size_t i = 0; i < entries.len; i++)
        floe__free(es[i].key);
    floe__vec_free(&entries);
    for (size_t i = 0; mans && i < nmatch; i++)
        floe_manifest_free(mans[i]);
    for (size_t i = 0; bufs && i < nmatch; i++)
        floe__buf_free(&bufs[i]);
    floe__free(mans);
    floe__free(bufs);
    floe__buf_free(&key);
    return rc;
}

static int rm_prepare(const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    rm_op *op = payload;
    memset(&op->stats, 0, sizeof op->stats);
    const floe_snapshot_ref *head = NULL;
    FLOE_TRY(floe__table_write_head(base, op->t->branch, false, &head));
    const floe_snapshot *parent = head ? floe__metadata_snapshot(base, head->snapshot_id) : NULL;
    if (!parent)
        return 0;
    FLOE_TRY(floe__producer_begin(&op->prod, base));
    floe_buf ldata = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    int rc = floe__producer_read_list(&op->prod, parent, &ldata, &l);
    if (rc == 0 && !l)
        return 0; /* nothing to rewrite */
    bool *replaced = rc == 0 ? floe__arena_calloc(c->arena, l->nentries + 1, sizeof *replaced)
                             : NULL;
    if (rc == 0 && !replaced)
        rc = floe__error_nomem();
    floe_vec manifests = FLOE_VEC_INIT(const floe_manifest_file *);
    if (rc == 0)
        rc = rewrite_content(op, base, c, l, FLOE_MANIFEST_DATA, replaced, &manifests);
    if (rc == 0)
        rc = rewrite_content(op, base, c, l, FLOE_MANIFEST_DELETES, replaced, &manifests);
    int64_t kept = 0;
    for (size_t i = 0; rc == 0 && i < l->nentries; i++) {
        if (replaced[i])
            continue;
        const floe_manifest_file **slot = floe__vec_push(&manifests);
        if (!slot)
            rc = floe__error_nomem();
        else
            *slot = &l->entries[i];
        kept++;
    }
    floe_vec kv = FLOE_VEC_INIT(floe_kv);
    if (rc == 0 && op->stats.rewritten_manifests_count) {
        static const char *const carry[] = {"total-records",          "total-files-size",
                                            "total-data-files",       "total-delete-files",
                                            "total-position-deletes", "total-equality-deletes"};
        rc = floe__summary_put(c, &kv, "operation", "replace");
        if (rc == 0)
            rc = floe__summary_put(c, &kv, "manifests-created", "%lld",
                                   (long long)op->stats.added_manifests_count);
        if (rc == 0)
            rc = floe__summary_put(c, &kv, "manifests-kept", "%lld", (long long)kept);
        if (rc == 0)
            rc = floe__summary_put(c, &kv, "manifests-replaced", "%lld",
                                   (long long)op->stats.rewritten_manifests_count);
        if (rc == 0)
            rc = floe__summary_put(c, &kv, "entries-processed", "%lld",
                                   (long long)op->stats.entries_processed);
        for (size_t i = 0; rc == 0 && i < FLOE_ARRAY_LEN(carry); i++) {
            const char *v = floe__snapshot_summary(parent, carry[i]);
            if (v)
                rc = floe__summary_put(c, &kv, carry[i], "%s", v);
        }
        floe_producer_snapshot ps = {0};
        ps.parent = parent;
        ps.manifests = &manifests;
        ps.summary = &kv;
        ps.branch = op->t->branch;
        ps.head = head;
        if (rc == 0)
            rc = floe__producer_commit(&op->prod, c, base, &ps);
    }
    floe__vec_free(&kv);
    floe__vec_free(&manifests);
    floe_manifest_list_free(l);
    floe__buf_free(&ldata);
    return rc;
}

int floe__table_rewrite_manifests(floe_table *t, int32_t spec_id, int64_t target_bytes,
                                  floe_rewrite_manifests_stats *out)
{
    memset(out, 0, sizeof *out);
    FLOE_TRY(floe_table_ensure_fresh(t));
    rm_op op;
    memset(&op, 0, sizeof op);
    op.t = t;
    op.spec_id = spec_id >= 0 ? spec_id : t->metadata->default_spec_id;
    if (!floe__metadata_spec(t->metadata, op.spec_id))
        return floe__error(FLOE_EINVALID, "table", "Cannot find partition spec with ID %d",
                           (int)op.spec_id);
    op.target = target_bytes;
    if (op.target <= 0)
        FLOE_TRY(floe__props_get_int64(&t->metadata->properties,
                                       "commit.manifest.target-size-bytes", 8388608, &op.target));
    if (op.target <= 0)
        op.target = 8388608;
    FLOE_TRY(floe__producer_init(&op.prod, t->io));
    /* anything to do? (the manifest list only) */
    const floe_snapshot_ref *head = NULL;
    FLOE_TRY(floe__table_write_head(t->metadata, t->branch, false, &head));
    const floe_snapshot *s = head ? floe__metadata_snapshot(t->metadata, head->snapshot_id) : NULL;
    if (!s)
        return 0;
    floe_buf pb = FLOE_BUF_INIT, ldata = FLOE_BUF_INIT;
    const char *lpath = NULL;
    floe_manifest_list *l = NULL;
    int rc = floe__snapshot_manifest_list(s, &pb, &lpath);
    if (rc == 0 && lpath)
        rc = floe__io_read_all(t->io, lpath, (size_t)1 << 31, &ldata);
    if (rc == 0 && lpath)
        rc = floe_manifest_list_read(&l, (const uint8_t *)ldata.ptr, ldata.len, lpath);
    bool work = false;
    for (int32_t content = FLOE_MANIFEST_DATA; rc == 0 && l && content <= FLOE_MANIFEST_DELETES;
         content++) {
        size_t nmatch = 0;
        int64_t total = 0;
        for (size_t i = 0; i < l->nentries; i++)
            if (l->entries[i].content == content && l->entries[i].partition_spec_id == op.spec_id) {
                nmatch++;
                total += l->entries[i].manifest_length > 0 ? l->entries[i].manifest_length : 0;
            }
        work = work || nmatch > 1 || (nmatch == 1 && total > op.target);
    }
    floe_manifest_list_free(l);
    floe__buf_free(&ldata);
    floe__buf_free(&pb);
    if (rc < 0 || !work)
        return rc;
    rc = floe__table_commit(t, rm_prepare, &op);
    if (rc == 0)
        *out = op.stats;
    return rc;
}
