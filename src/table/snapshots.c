/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/snapshots: snapshot selection for reads (by id, by ref, as of a
 * time through the snapshot-log; ancestry) and the metadata-only snapshot
 * operations — rollback to a snapshot or a time, set-current, cherry-pick
 * (fast-forward case), fast-forward of a branch, branch and tag DDL, and
 * table properties (spec "Snapshots", "Snapshot References",
 * "Table Metadata Fields": snapshot-log).
 *
 * Behaviour and messages follow Java Iceberg (SetSnapshotOperation,
 * CherryPickOperation, UpdateSnapshotReferencesOperation, WapUtil) and the
 * Spark 3.5 DDL/procedures built on them. Every operation is a `prepare`
 * callback run by the commit protocol, so a retry after a lost
 * compare-and-set validates again on the new state, as Java's apply() does.
 */
#include "table/table.h"

#include "manifest/manifest.h"
#include "table/writer.h"
#include "util/time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

static void fill_info(const floe_table *t, const floe_snapshot *s, floe_snapshot_info *out)
{
    out->snapshot_id = s->snapshot_id;
    out->has_parent = s->has_parent;
    out->parent_snapshot_id = s->parent_snapshot_id;
    out->sequence_number = s->sequence_number;
    out->timestamp_ms = s->timestamp_ms;
    out->manifest_list = floe__table_manifest_list(t, s);
    out->operation = s->operation;
}

static const floe_snapshot *parent_of(const floe_table_metadata *m, const floe_snapshot *s)
{
    return s && s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id) : NULL;
}

/* Is `ancestor` on the parent chain of `snapshot_id` (inclusive)? The chain
 * ends at a missing parent (expired snapshots), as in Java's SnapshotUtil. */
static bool is_ancestor(const floe_table_metadata *m, int64_t snapshot_id, int64_t ancestor)
{
    size_t guard = m->nsnapshots + 1;
    for (const floe_snapshot *s = floe__metadata_snapshot(m, snapshot_id); s && guard--;
         s = parent_of(m, s))
        if (s->snapshot_id == ancestor)
            return true;
    return false;
}

static bool is_current_ancestor(const floe_table_metadata *m, int64_t id)
{
    return m->has_current_snapshot && is_ancestor(m, m->current_snapshot_id, id);
}

static const char *summary_get(const floe_snapshot *s, const char *key)
{
    return s ? floe__snapshot_summary(s, key) : NULL;
}

/* Iceberg's two kinds of refusal: a bad argument (Preconditions.checkArgument,
 * IllegalArgumentException) and a table state the operation does not allow
 * (ValidationException). */
static int invalid(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int invalid(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    floe__verror(FLOE_EINVALID, "table", fmt, ap);
    va_end(ap);
    return floe__error_set_kind(FLOE_KIND_ILLEGAL_ARGUMENT);
}

static int validation(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int validation(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    floe__verror(FLOE_EINVALID, "table", fmt, ap);
    va_end(ap);
    return floe__error_set_kind(FLOE_KIND_VALIDATION);
}

/* ---------------------------------------------------------------- accessors */

bool floe_table_current_snapshot(floe_snapshot_info *out, const floe_table *t)
{
    const floe_snapshot *s = floe__metadata_current_snapshot(t->metadata);
    if (s && out)
        fill_info(t, s, out);
    return s != NULL;
}

const char *floe_table_branch(const floe_table *t)
{
    return t->branch;
}

bool floe_table_branch_snapshot(floe_snapshot_info *out, const floe_table *t)
{
    const floe_snapshot_ref *r = floe__metadata_ref(t->metadata, t->branch);
    const floe_snapshot *s = r ? floe__metadata_snapshot(t->metadata, r->snapshot_id) : NULL;
    if (s && out)
        fill_info(t, s, out);
    return s != NULL;
}

size_t floe_table_snapshot_count(const floe_table *t)
{
    return t->metadata->nsnapshots;
}

void floe_table_snapshot_at(floe_snapshot_info *out, const floe_table *t, size_t i)
{
    fill_info(t, &t->metadata->snapshots[i], out);
}

const char *floe_table_snapshot_summary(const floe_table *t, int64_t id, const char *key)
{
    return summary_get(floe__metadata_snapshot(t->metadata, id), key);
}

size_t floe_table_history_count(const floe_table *t)
{
    return t->metadata->n_snapshot_log;
}

/* The set of main's ancestors, built once per metadata state so listing
 * the history is linear (NULL when out of memory: callers walk instead). */
static const floe_intmap *ancestor_set(const floe_table *t)
{
    floe_table *mt = (floe_table *)t; /* a cache, not observable state */
    if (mt->ancestors)
        return mt->ancestors;
    const floe_table_metadata *m = t->metadata;
    floe_intmap *set = floe__intmap_new();
    size_t guard = m->nsnapshots + 1;
    for (const floe_snapshot *s = floe__metadata_current_snapshot(m); set && s && guard--;
         s = parent_of(m, s))
        if (floe__intmap_put(set, s->snapshot_id, (void *)s) < 0) {
            floe__intmap_free(set);
            set = NULL;
        }
    mt->ancestors = set;
    return set;
}

void floe_table_history_at(floe_history_entry *out, const floe_table *t, size_t i)
{
    const floe_table_metadata *m = t->metadata;
    const floe_snapshot_log_entry *e = &m->snapshot_log[i];
    const floe_snapshot *s = floe__metadata_snapshot(m, e->snapshot_id);
    out->made_current_at_ms = e->timestamp_ms;
    out->snapshot_id = e->snapshot_id;
    out->has_parent = s && s->has_parent;
    out->parent_id = s && s->has_parent ? s->parent_snapshot_id : 0;
    const floe_intmap *set = ancestor_set(t);
    out->is_current_ancestor = set ? floe__intmap_has(set, e->snapshot_id)
                                   : is_current_ancestor(m, e->snapshot_id);
}

static void fill_ref(const floe_snapshot_ref *r, floe_ref_info *out)
{
    out->name = r->name;
    out->snapshot_id = r->snapshot_id;
    out->is_tag = r->type == FLOE_REF_TAG;
    out->has_max_ref_age_ms = r->has_max_ref_age_ms;
    out->max_ref_age_ms = r->max_ref_age_ms;
    out->has_min_snapshots_to_keep = r->has_min_snapshots_to_keep;
    out->min_snapshots_to_keep = r->min_snapshots_to_keep;
    out->has_max_snapshot_age_ms = r->has_max_snapshot_age_ms;
    out->max_snapshot_age_ms = r->max_snapshot_age_ms;
}

size_t floe_table_ref_count(const floe_table *t)
{
    return t->metadata->nrefs;
}

void floe_table_ref_at(floe_ref_info *out, const floe_table *t, size_t i)
{
    fill_ref(&t->metadata->refs[i], out);
}

int floe_table_ref(floe_ref_info *out, const floe_table *t, const char *name)
{
    const floe_snapshot_ref *r = name ? floe__metadata_ref(t->metadata, name) : NULL;
    if (!r)
        return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_ILLEGAL_ARGUMENT, "table",
                              "Ref does not exist: %s", name ? name : "");
    if (out)
        fill_ref(r, out);
    return 0;
}

/* ---------------------------------------------------------------- selection */

static int select_info(const floe_table *t, const floe_snapshot_selector *sel,
                       floe_snapshot_info *out)
{
    const floe_snapshot *s;
    FLOE_TRY(floe__snapshot_select(&s, t->metadata, sel, "table"));
    if (out)
        fill_info(t, s, out);
    return 0;
}

int floe_table_snapshot_by_id(floe_snapshot_info *out, const floe_table *t, int64_t id)
{
    floe_snapshot_selector sel = {FLOE_SNAP_ID, id, NULL, 0};
    return select_info(t, &sel, out);
}

int floe_table_snapshot_by_ref(floe_snapshot_info *out, const floe_table *t, const char *ref)
{
    floe_snapshot_selector sel = {FLOE_SNAP_REF, 0, ref, 0};
    return select_info(t, &sel, out);
}

int floe_table_snapshot_as_of_time(floe_snapshot_info *out, const floe_table *t, int64_t ts)
{
    floe_snapshot_selector sel = {FLOE_SNAP_AS_OF, 0, NULL, ts};
    return select_info(t, &sel, out);
}

int floe_table_is_ancestor_of(const floe_table *t, int64_t snapshot, int64_t ancestor)
{
    return is_ancestor(t->metadata, snapshot, ancestor) ? 1 : 0;
}

int floe_table_ancestors_of(const floe_table *t, int64_t id,
                            int (*cb)(const floe_snapshot_info *s, void *payload), void *payload)
{
    const floe_table_metadata *m = t->metadata;
    const floe_snapshot *s = NULL;
    floe_snapshot_selector sel = {.kind = FLOE_SNAP_ID, .snapshot_id = id};
    FLOE_TRY(floe__snapshot_select(&s, m, &sel, "table"));
    size_t guard = m->nsnapshots + 1;
    for (; s && guard--; s = parent_of(m, s)) {
        floe_snapshot_info info;
        fill_info(t, s, &info);
        int rc = cb(&info, payload);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ---------------------------------------------------------------- operations */

typedef enum op_kind {
    OP_ROLLBACK,
    OP_ROLLBACK_TIME,
    OP_SET_CURRENT,
    OP_SET_CURRENT_REF,
    OP_CHERRYPICK,
    OP_FAST_FORWARD,
    OP_BRANCH,
    OP_TAG,
    OP_DROP_BRANCH,
    OP_DROP_TAG,
    OP_PROPERTIES,
} op_kind;

typedef struct op {
    op_kind kind;
    const char *ident;
    int64_t id;
    const char *name, *to;
    floe_ref_mode mode;
    floe_ref_options ref;
    bool if_exists;
    const floe_props *set;
    const char *const *remove;
    size_t nremove;
    /* outputs */
    int64_t previous, current;
    bool needs_new; /* cherry-pick: not a fast-forward */
} op;

/* main -> `id`, keeping main's retention settings (SnapshotRef.builderFrom). */
static int move_main(const floe_table_metadata *base, floe_table_change *c, int64_t id)
{
    floe_snapshot_ref r = {0};
    const floe_snapshot_ref *old = floe__metadata_ref(base, "main");
    if (old)
        r = *old;
    r.name = "main";
    r.type = FLOE_REF_BRANCH;
    r.snapshot_id = id;
    FLOE_TRY(floe__change_assert_ref(c, base, "main"));
    return floe__change_set_ref(c, &r);
}

static int64_t main_id(const floe_table_metadata *m)
{
    const floe_snapshot_ref *r = floe__metadata_ref(m, "main");
    return r ? r->snapshot_id : -1;
}

static int prepare_set_current(const floe_table_metadata *base, floe_table_change *c, op *o,
                               int64_t target)
{
    o->previous = main_id(base);
    o->current = target;
    if (o->previous == target)
        return 0; /* Java: nothing to commit */
    return move_main(base, c, target);
}

static int prepare_rollback_time(const floe_table_metadata *base, floe_table_change *c, op *o)
{
    const floe_snapshot *best = NULL;
    size_t guard = base->nsnapshots + 1;
    for (const floe_snapshot *s = floe__metadata_current_snapshot(base); s && guard--;
         s = parent_of(base, s))
        if (s->timestamp_ms < o->id && (!best || s->timestamp_ms > best->timestamp_ms))
            best = s;
    if (!best || best->timestamp_ms <= 0)
        return invalid("Cannot roll back, no valid snapshot older than: %lld", (long long)o->id);
    return prepare_set_current(base, c, o, best->snapshot_id);
}

static bool wap_published(const floe_table_metadata *m, const char *wap_id)
{
    size_t guard = m->nsnapshots + 1;
    for (const floe_snapshot *s = floe__metadata_current_snapshot(m); s && guard--;
         s = parent_of(m, s)) {
        const char *staged = summary_get(s, "wap.id");
        const char *published = summary_get(s, "published-wap-id");
        if ((staged && strcmp(staged, wap_id) == 0) ||
            (published && strcmp(published, wap_id) == 0))
            return true;
    }
    return false;
}

/* Java's cherry-pick rules on `base`. *fast_forward: main can simply move
 * to the picked snapshot; otherwise the pick needs a new snapshot that
 * re-adds the picked files (checked here not to be a duplicate). */
static int cherrypick_rules(const floe_table_metadata *base, int64_t id, bool *fast_forward,
                            bool *is_append)
{
    const floe_snapshot *pick = floe__metadata_snapshot(base, id);
    if (!pick)
        return validation("Cannot cherry-pick unknown snapshot ID: %lld", (long long)id);
    const char *operation = pick->operation ? pick->operation : "";
    const char *rp = summary_get(pick, "replace-partitions");
    *is_append = strcmp(operation, "append") == 0;
    bool is_dyn_overwrite = strcmp(operation, "overwrite") == 0 && rp && strcmp(rp, "true") == 0;
    const floe_snapshot *cur = floe__metadata_current_snapshot(base);
    *fast_forward = cur ? pick->has_parent && pick->parent_snapshot_id == cur->snapshot_id
                        : !pick->has_parent;
    if (*is_append || is_dyn_overwrite) {
        if (is_dyn_overwrite && pick->has_parent &&
            !is_current_ancestor(base, pick->parent_snapshot_id))
            return invalid("Cannot cherry-pick overwrite not based on an ancestor of the current "
                           "state: %lld",
                           (long long)id);
        const char *wap_id = summary_get(pick, "wap.id");
        if (wap_id && *wap_id && wap_published(base, wap_id))
            return floe__error_as(
                FLOE_EINVALID, FLOE_KIND_DUPLICATE_WAP_COMMIT, "table",
                "Duplicate request to cherry pick wap id that was published already: %s", wap_id);
    } else if (!*fast_forward) {
        return invalid("Cannot cherry-pick snapshot %lld: not append, dynamic overwrite, or "
                       "fast-forward",
                       (long long)id);
    }
    if (*fast_forward)
        return 0;
    if (is_current_ancestor(base, id))
        return validation("Cannot cherrypick snapshot %lld: already an ancestor", (long long)id);
    char idtext[24];
    snprintf(idtext, sizeof idtext, "%lld", (long long)id);
    size_t guard = base->nsnapshots + 1;
    for (const floe_snapshot *s = cur; s && guard--; s = parent_of(base, s)) {
        const char *src = summary_get(s, "source-snapshot-id");
        if (src && strcmp(src, idtext) == 0)
            return validation("Cannot cherrypick snapshot %lld: already picked to create ancestor "
                              "%lld",
                              (long long)id, (long long)s->snapshot_id);
    }
    if (!*is_append)
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "cherry-picking a dynamic overwrite onto a different parent is not "
                           "supported yet");
    return 0;
}

static int prepare_cherrypick(const floe_table_metadata *base, floe_table_change *c, op *o)
{
    bool ff = false, is_append = false;
    FLOE_TRY(cherrypick_rules(base, o->id, &ff, &is_append));
    if (ff)
        return prepare_set_current(base, c, o, o->id);
    /* a new snapshot is needed: done by floe_table_cherrypick_snapshot */
    o->needs_new = true;
    o->previous = main_id(base);
    return 0;
}

static int prepare_fast_forward(const floe_table_metadata *base, floe_table_change *c, op *o)
{
    const floe_snapshot_ref *target = floe__metadata_ref(base, o->name);
    const floe_snapshot_ref *source = floe__metadata_ref(base, o->to);
    if (!target)
        return invalid("Target branch does not exist: %s", o->name);
    if (!source)
        return invalid("Ref does not exist: %s", o->to);
    if (target->type != FLOE_REF_BRANCH)
        return invalid("Ref %s is a tag not a branch", o->name);
    o->previous = target->snapshot_id;
    o->current = source->snapshot_id;
    if (source->snapshot_id == target->snapshot_id)
        return 0;
    if (!is_ancestor(base, source->snapshot_id, target->snapshot_id))
        return invalid("Cannot fast-forward: %s is not an ancestor of %s", o->name, o->to);
    floe_snapshot_ref r = *target;
    r.snapshot_id = source->snapshot_id;
    FLOE_TRY(floe__change_assert_ref(c, base, o->name));
    return floe__change_set_ref(c, &r);
}

static int check_retention(const floe_ref_options *r, bool tag)
{
    if (tag && r->has_min_snapshots_to_keep)
        return invalid("Tags do not support setting minSnapshotsToKeep");
    if (tag && r->has_max_snapshot_age_ms)
        return invalid("Tags do not support setting maxSnapshotAgeMs");
    if (r->has_min_snapshots_to_keep && r->min_snapshots_to_keep <= 0)
        return invalid("Min snapshots to keep must be greater than 0");
    if (r->has_max_snapshot_age_ms && r->max_snapshot_age_ms <= 0)
        return invalid("Max snapshot age must be greater than 0 ms");
    if (r->has_max_ref_age_ms && r->max_ref_age_ms <= 0)
        return invalid("Max reference age must be greater than 0");
    return 0;
}

/* CREATE [OR REPLACE] BRANCH|TAG [IF NOT EXISTS] (Spark's
 * CreateOrReplaceBranchExec / CreateOrReplaceTagExec over Java's
 * UpdateSnapshotReferencesOperation). */
static int prepare_ref(const floe_table_metadata *base, floe_table_change *c, op *o)
{
    bool tag = o->kind == OP_TAG;
    const char *what = tag ? "tag" : "branch";
    FLOE_TRY(check_retention(&o->ref, tag));
    const floe_snapshot_ref *existing = floe__metadata_ref(base, o->name);
    bool have_id = o->ref.has_snapshot_id || base->has_current_snapshot;
    int64_t id = o->ref.has_snapshot_id ? o->ref.snapshot_id : base->current_snapshot_id;
    bool replace = o->mode == FLOE_REF_REPLACE || o->mode == FLOE_REF_CREATE_OR_REPLACE;
    bool create_new = !existing && (o->mode != FLOE_REF_REPLACE);
    if (o->mode == FLOE_REF_CREATE_IF_NOT_EXISTS && existing)
        return 0;
    if (!have_id) {
        if (tag || replace)
            return invalid("Cannot complete %s %s operation on %s, main has no snapshot",
                           o->mode == FLOE_REF_REPLACE ? "replace" : "create or replace", what,
                           o->ident);
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "creating a branch on a table without snapshots needs an empty "
                           "snapshot (not yet supported)");
    }
    if (!floe__metadata_snapshot(base, id))
        return invalid("Cannot set %s to unknown snapshot: %lld", o->name, (long long)id);
    floe_snapshot_ref r = {0};
    if (create_new) {
        if (existing)
            return invalid("Ref %s already exists", o->name);
    } else if (o->mode == FLOE_REF_CREATE) {
        return invalid("Ref %s already exists", o->name);
    } else {
        if (!existing)
            return invalid("%s does not exist: %s", tag ? "Tag" : "Branch", o->name);
        if (tag && existing->type != FLOE_REF_TAG)
            return invalid("Ref %s is a branch not a tag", o->name);
        if (!tag && existing->type != FLOE_REF_BRANCH)
            return invalid("Ref %s is a tag not a branch", o->name);
        r = *existing; /* builderFrom(ref, id): keeps retention */
    }
    r.name = o->name;
    r.type = tag ? FLOE_REF_TAG : FLOE_REF_BRANCH;
    r.snapshot_id = id;
    if (o->ref.has_min_snapshots_to_keep) {
        r.has_min_snapshots_to_keep = true;
        r.min_snapshots_to_keep = o->ref.min_snapshots_to_keep;
    }
    if (o->ref.has_max_snapshot_age_ms) {
        r.has_max_snapshot_age_ms = true;
        r.max_snapshot_age_ms = o->ref.max_snapshot_age_ms;
    }
    if (o->ref.has_max_ref_age_ms) {
        r.has_max_ref_age_ms = true;
        r.max_ref_age_ms = o->ref.max_ref_age_ms;
    }
    if (existing && existing->snapshot_id == r.snapshot_id && existing->type == r.type &&
        existing->has_min_snapshots_to_keep == r.has_min_snapshots_to_keep &&
        existing->min_snapshots_to_keep == r.min_snapshots_to_keep &&
        existing->has_max_snapshot_age_ms == r.has_max_snapshot_age_ms &&
        existing->max_snapshot_age_ms == r.max_snapshot_age_ms &&
        existing->has_max_ref_age_ms == r.has_max_ref_age_ms &&
        existing->max_ref_age_ms == r.max_ref_age_ms)
        return 0; /* unchanged: Java commits nothing */
    FLOE_TRY(floe__change_assert_ref(c, base, o->name));
    return floe__change_set_ref(c, &r);
}

static int prepare_drop_ref(const floe_table_metadata *base, floe_table_change *c, op *o)
{
    bool tag = o->kind == OP_DROP_TAG;
    const floe_snapshot_ref *existing = floe__metadata_ref(base, o->name);
    if (!existing && o->if_exists)
        return 0;
    if (!tag && strcmp(o->name, "main") == 0)
        return invalid("Cannot remove main branch");
    if (!existing)
        return invalid("%s does not exist: %s", tag ? "Tag" : "Branch", o->name);
    if (!tag && existing->type != FLOE_REF_BRANCH)
        return invalid("Ref %s is a tag not a branch", o->name);
    if (tag && existing->type != FLOE_REF_TAG)
        return invalid("Ref %s is a branch not a tag", o->name);
    FLOE_TRY(floe__change_assert_ref(c, base, o->name));
    floe_table_update *u = floe__change_update(c, FLOE_UPD_REMOVE_SNAPSHOT_REF);
    if (!u || !(u->name = floe__arena_strdup(c->arena, o->name)))
        return floe__error_nomem();
    return 0;
}

/* Java's TableMetadata.replaceProperties: `format-version` is reserved; a
 * new value upgrades the table (upgrade-format-version; the builder refuses
 * downgrades and versions above 3 with Java's messages) and is not stored. */
static int prepare_properties(const floe_table_metadata *base, floe_table_change *c, op *o)
{
    size_t n = o->set ? o->set->n : 0, kept = 0;
    floe_kv *kv = n ? floe__arena_alloc(c->arena, n * sizeof *kv) : NULL;
    if (n && !kv)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_kv *p = &o->set->items[i];
        if (strcmp(p->key, "format-version") != 0) {
            kv[kept++] = *p;
            continue;
        }
        char *end = NULL;
        long v = strtol(p->value, &end, 10);
        if (!*p->value || *end || v < 1 || v > 1000)
            return invalid("For input string: \"%s\"", p->value);
        if (v == base->format_version)
            continue;
        floe_table_update *u = floe__change_update(c, FLOE_UPD_UPGRADE_FORMAT_VERSION);
        if (!u)
            return floe__error_nomem();
        u->id = v;
    }
    if (kept) {
        floe_table_update *u = floe__change_update(c, FLOE_UPD_SET_PROPERTIES);
        if (!u)
            return floe__error_nomem();
        u->kv = kv;
        u->nkv = kept;
    }
    if (o->nremove) {
        floe_table_update *u = floe__change_update(c, FLOE_UPD_REMOVE_PROPERTIES);
        if (!u)
            return floe__error_nomem();
        u->keys = o->remove;
        u->nkeys = o->nremove;
    }
    return 0;
}

static int prepare(const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    op *o = payload;
    switch (o->kind) {
    case OP_ROLLBACK:
        if (!floe__metadata_snapshot(base, o->id))
            return validation("Cannot roll back to unknown snapshot id: %lld", (long long)o->id);
        if (!is_current_ancestor(base, o->id))
            return validation("Cannot roll back to snapshot, not an ancestor of the current state: "
                              "%lld",
                              (long long)o->id);
        return prepare_set_current(base, c, o, o->id);
    case OP_ROLLBACK_TIME:
        return prepare_rollback_time(base, c, o);
    case OP_SET_CURRENT:
        if (!floe__metadata_snapshot(base, o->id))
            return validation("Cannot roll back to unknown snapshot id: %lld", (long long)o->id);
        return prepare_set_current(base, c, o, o->id);
    case OP_SET_CURRENT_REF: {
        floe_snapshot_selector sel = {FLOE_SNAP_REF, 0, o->name, 0};
        const floe_snapshot *s;
        FLOE_TRY(floe__snapshot_select(&s, base, &sel, "table"));
        return prepare_set_current(base, c, o, s->snapshot_id);
    }
    case OP_CHERRYPICK:
        return prepare_cherrypick(base, c, o);
    case OP_FAST_FORWARD:
        return prepare_fast_forward(base, c, o);
    case OP_BRANCH:
    case OP_TAG:
        return prepare_ref(base, c, o);
    case OP_DROP_BRANCH:
    case OP_DROP_TAG:
        return prepare_drop_ref(base, c, o);
    case OP_PROPERTIES:
        return prepare_properties(base, c, o);
    }
    return invalid("unknown operation");
}

static int run(floe_table *t, op *o)
{
    if (!t)
        return floe__error(FLOE_EINVALID, "table", "NULL table");
    o->ident = t->ident;
    return floe__table_commit(t, prepare, o);
}

static int run_ids(floe_table *t, op *o, int64_t *previous, int64_t *current)
{
    FLOE_TRY(run(t, o));
    if (previous)
        *previous = o->previous;
    if (current)
        *current = o->current;
    return 0;
}

int floe_table_rollback_to_snapshot(int64_t *previous, int64_t *current, floe_table *t, int64_t id)
{
    op o = {.kind = OP_ROLLBACK, .id = id};
    return run_ids(t, &o, previous, current);
}

int floe_table_rollback_to_timestamp(int64_t *previous, int64_t *current, floe_table *t, int64_t ts)
{
    op o = {.kind = OP_ROLLBACK_TIME, .id = ts};
    return run_ids(t, &o, previous, current);
}

int floe_table_set_current_snapshot(int64_t *previous, int64_t *current, floe_table *t, int64_t id)
{
    op o = {.kind = OP_SET_CURRENT, .id = id};
    return run_ids(t, &o, previous, current);
}

int floe_table_set_current_ref(int64_t *previous, int64_t *current, floe_table *t, const char *ref)
{
    if (!ref)
        return invalid("NULL ref");
    op o = {.kind = OP_SET_CURRENT_REF, .name = ref};
    return run_ids(t, &o, previous, current);
}

static int cherry_validate(const floe_table_metadata *base, void *payload)
{
    const op *o = payload;
    bool ff = false, is_append = false;
    FLOE_TRY(cherrypick_rules(base, o->id, &ff, &is_append));
    if (ff) /* main moved onto the picked snapshot's parent meanwhile */
        return floe__error(FLOE_ECONFLICT, "table",
                           "Cannot cherry-pick snapshot %lld: the table changed, retry",
                           (long long)o->id);
    return 0;
}

/* Collect the data files the picked snapshot added (its own manifests'
 * ADDED entries) into the append. */
static int add_picked_files(floe_table *t, floe_append *a, const floe_snapshot *pick,
                            int32_t *spec_id)
{
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    const char *ml = floe__table_manifest_list(t, pick);
    if (!ml)
        return pick->manifest_list_packed
                   ? floe__error_nomem()
                   : floe__error(FLOE_EUNSUPPORTED, "table", "snapshot %lld has no manifest list",
                                 (long long)pick->snapshot_id);
    int rc = floe__io_read_all(t->io, ml, (size_t)1 << 31, &lb);
    if (rc == 0)
        rc = floe_manifest_list_read(&l, (const uint8_t *)lb.ptr, lb.len, ml);
    bool have_spec = false;
    for (size_t i = 0; rc == 0 && i < l->nentries; i++) {
        const floe_manifest_file *mf = &l->entries[i];
        if (mf->added_snapshot_id != pick->snapshot_id || mf->content != FLOE_MANIFEST_DATA)
            continue;
        if (have_spec && mf->partition_spec_id != *spec_id) {
            rc = floe__error(FLOE_EUNSUPPORTED, "table",
                             "cherry-picking files of several partition specs is not supported");
            break;
        }
        have_spec = true;
        *spec_id = mf->partition_spec_id;
        floe_buf mb = FLOE_BUF_INIT;
        floe_manifest *m = NULL;
        rc = floe__io_read_all(t->io, mf->manifest_path, (size_t)1 << 31, &mb);
        if (rc == 0)
            rc = floe_manifest_read(&m, (const uint8_t *)mb.ptr, mb.len, mf->manifest_path, mf);
        for (size_t k = 0; rc == 0 && k < m->nentries; k++) {
            const floe_manifest_entry *e = &m->entries[k];
            if (e->status == FLOE_ENTRY_ADDED && e->has_snapshot_id &&
                e->snapshot_id == pick->snapshot_id && e->data_file.content == FLOE_FILE_DATA)
                rc = floe__append_add_file(a, &e->data_file);
        }
        floe_manifest_free(m);
        floe__buf_free(&mb);
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    return rc;
}

int floe_table_cherrypick_snapshot(int64_t *previous, int64_t *current, floe_table *t, int64_t id)
{
    op o = {.kind = OP_CHERRYPICK, .id = id};
    FLOE_TRY(run(t, &o));
    if (o.needs_new) {
        /* Java's CherryPickOperation for an append: a new snapshot on main
         * re-adding the picked files, linked by source-snapshot-id */
        const floe_snapshot *pick = floe__metadata_snapshot(t->metadata, id);
        if (!pick)
            return validation("Cannot cherry-pick unknown snapshot ID: %lld", (long long)id);
        const char *wap_id = summary_get(pick, "wap.id");
        char idtext[24];
        snprintf(idtext, sizeof idtext, "%lld", (long long)id);
        floe_append *a = NULL;
        int32_t spec_id = t->metadata->default_spec_id;
        int64_t new_id = -1;
        int rc = floe_append_new(&a, t);
        if (rc == 0 && wap_id && *wap_id)
            rc = floe_append_set(a, "published-wap-id", wap_id);
        if (rc == 0)
            rc = floe_append_set(a, "source-snapshot-id", idtext);
        if (rc == 0)
            rc = add_picked_files(t, a, pick, &spec_id);
        if (rc == 0) {
            floe__append_configure(a, "main", true, spec_id, cherry_validate, &o);
            rc = floe_append_commit(&new_id, a);
        }
        floe_append_free(a);
        FLOE_TRY(rc);
        o.current = new_id;
    }
    if (previous)
        *previous = o.previous;
    if (current)
        *current = o.current;
    return 0;
}

int floe_table_fast_forward(int64_t *previous_ref, int64_t *updated_ref, floe_table *t,
                            const char *branch, const char *to)
{
    if (!branch)
        return invalid("Target branch cannot be null");
    if (!to)
        return invalid("Source ref cannot be null");
    op o = {.kind = OP_FAST_FORWARD, .name = branch, .to = to};
    return run_ids(t, &o, previous_ref, updated_ref);
}

static int ref_op(floe_table *t, op_kind kind, const char *name, floe_ref_mode mode,
                  const floe_ref_options *opts)
{
    if (!name || !*name)
        return invalid(kind == OP_TAG ? "Tag name cannot be null" : "Branch name cannot be null");
    if (opts && opts->version != FLOE_REF_OPTIONS_VERSION)
        return invalid("unknown floe_ref_options version %u", opts->version);
    op o = {.kind = kind, .name = name, .mode = mode};
    if (opts)
        o.ref = *opts;
    return run(t, &o);
}

int floe_table_create_branch(floe_table *t, const char *name, floe_ref_mode mode,
                             const floe_ref_options *opts)
{
    return ref_op(t, OP_BRANCH, name, mode, opts);
}

int floe_table_create_tag(floe_table *t, const char *name, floe_ref_mode mode,
                          const floe_ref_options *opts)
{
    return ref_op(t, OP_TAG, name, mode, opts);
}

int floe_table_drop_branch(floe_table *t, const char *name, bool if_exists)
{
    if (!name)
        return invalid("Branch name cannot be null");
    op o = {.kind = OP_DROP_BRANCH, .name = name, .if_exists = if_exists};
    return run(t, &o);
}

int floe_table_drop_tag(floe_table *t, const char *name, bool if_exists)
{
    if (!name)
        return invalid("Tag name cannot be null");
    op o = {.kind = OP_DROP_TAG, .name = name, .if_exists = if_exists};
    return run(t, &o);
}

int floe_table_update_properties(floe_table *t, const floe_props *set, const char *const *remove,
                                 size_t nremove)
{
    op o = {.kind = OP_PROPERTIES, .set = set, .remove = remove, .nremove = nremove};
    return run(t, &o);
}
