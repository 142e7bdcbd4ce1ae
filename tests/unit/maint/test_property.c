/* SPDX-License-Identifier: Apache-2.0 */
/* maint/expire, property test: random histories of appends, copy-on-write
 * deletes, overwrites, merge-on-read (position) deletes, branches, tags,
 * rollbacks, ref drops and expiries with random options, on the memory
 * FileIO. After every expiry: each retained snapshot lists exactly the live
 * files it listed before and they are all on storage; and storage holds
 * exactly what the retained snapshots reach (manifest lists, manifests, live
 * files) — metadata.json files aside, which the metadata-log governs. */
#include "fixture.h"
#include "maint/maint.h"

#define HISTORIES 220
#define T0 1800000000000LL

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return n ? (uint32_t)(rng_state >> 33) % n : 0;
}

typedef struct mem_commit {
    fx_table *t;
} mem_commit;

/* Commit without a catalog: the fixture's table is the pointer. */
static int commit_mem(const floe_table_metadata *base, const char *base_location,
                      const floe_expire_plan *plan, floe_table_metadata **committed,
                      char **location, void *payload)
{
    fx_table *t = ((mem_commit *)payload)->t;
    floe_metadata_builder *b = NULL;
    FLOE_TRY(floe__metadata_builder_new(&b, base, base_location));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < plan->remove_refs.len; i++)
        rc = floe__mb_remove_snapshot_ref(b, *(const char **)floe__vec_at(&plan->remove_refs, i));
    if (rc == 0 && plan->remove_ids.len)
        rc = floe__mb_remove_snapshots(b, (const int64_t *)plan->remove_ids.items,
                                       plan->remove_ids.len);
    if (rc < 0) {
        floe__metadata_builder_free(b);
        return rc;
    }
    t->clock += 10;
    FLOE_TRY(fx_commit_built(t, b));
    /* hand the caller its own copies; the fixture keeps the table state */
    *location = floe__strdup(t->meta_loc);
    floe_buf text = FLOE_BUF_INIT;
    rc = floe__metadata_write(t->m, &text);
    if (rc == 0)
        rc = floe__metadata_parse(committed, text.ptr, text.len, "committed");
    floe__buf_free(&text);
    return rc;
}

/* Manifest lists and manifests are immutable: their contents are read once
 * per history and cached by path (keeps the suite fast under ASan). */
typedef struct cache {
    floe_strmap *lists; /* list path -> "manifest\n..." */
    floe_strmap *mans;  /* manifest path -> "live file\n..." */
} cache;

static cache g_cache;

static void cache_put(floe_strmap *m, const char *key, char *value)
{
    char *k = floe__strdup(key);
    floe__strmap_put(m, k, value);
}

static const char *cached_list(fx_table *t, const floe_snapshot *s)
{
    floe_buf pb = FLOE_BUF_INIT;
    const char *lp = "";
    floe__snapshot_manifest_list(s, &pb, &lp);
    char *list_path = floe__strdup(lp ? lp : "");
    floe__buf_free(&pb);
    const char *hit = floe__strmap_get(g_cache.lists, list_path);
    if (hit) {
        floe__free(list_path);
        return hit;
    }
    floe_buf bytes = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    if (fx_manifests(t, s->snapshot_id, &bytes, &l) == 0 && l)
        for (size_t k = 0; k < l->nentries; k++)
            floe__buf_printf(&out, "%s\n", l->entries[k].manifest_path);
    floe__buf_puts(&out, "");
    floe_manifest_list_free(l);
    floe__buf_free(&bytes);
    char *v = floe__buf_detach(&out);
    cache_put(g_cache.lists, list_path, v);
    floe__free(list_path);
    return v;
}

static const char *cached_manifest(fx_table *t, const char *path)
{
    const char *hit = floe__strmap_get(g_cache.mans, path);
    if (hit)
        return hit;
    floe_buf mb = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    floe_manifest *man = NULL;
    if (floe__io_read_all(t->io, path, (size_t)1 << 30, &mb) == 0 &&
        floe_manifest_read(&man, (const uint8_t *)mb.ptr, mb.len, path, NULL) == 0)
        for (size_t k = 0; k < man->nentries; k++)
            if (man->entries[k].status != FLOE_ENTRY_DELETED)
                floe__buf_printf(&out, "%s\n", man->entries[k].data_file.file_path);
    floe__buf_puts(&out, "");
    floe_manifest_free(man);
    floe__buf_free(&mb);
    char *v = floe__buf_detach(&out);
    cache_put(g_cache.mans, path, v);
    return v;
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted live files of a snapshot (caller frees). */
static char *live_of(fx_table *t, int64_t id)
{
    const floe_snapshot *s = floe__metadata_snapshot(t->m, id);
    floe_vec lines = FLOE_VEC_INIT(char *);
    const char *ml = s ? cached_list(t, s) : "";
    for (const char *p = ml, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
        char *mp = floe__strndup(p, (size_t)(nl - p));
        const char *files = cached_manifest(t, mp);
        floe__free(mp);
        for (const char *q = files, *nq; (nq = strchr(q, '\n')); q = nq + 1)
            *(char **)floe__vec_push(&lines) = floe__strndup(q, (size_t)(nq - q));
    }
    if (lines.len)
        qsort(lines.items, lines.len, sizeof(char *), cmp_line);
    floe_buf out = FLOE_BUF_INIT;
    floe__buf_puts(&out, "");
    for (size_t i = 0; i < lines.len; i++) {
        floe__buf_printf(&out, "%s\n", *(char **)floe__vec_at(&lines, i));
        floe__free(*(char **)floe__vec_at(&lines, i));
    }
    floe__vec_free(&lines);
    return floe__buf_detach(&out);
}

static void cache_clear(void)
{
    floe_strmap *ms[] = {g_cache.lists, g_cache.mans};
    for (int i = 0; i < 2; i++) {
        size_t it = 0;
        const char *k;
        void *v;
        while (ms[i] && floe__strmap_next(ms[i], &it, &k, &v)) {
            floe__free((char *)k);
            floe__free(v);
        }
        floe__strmap_free(ms[i]);
    }
    g_cache.lists = floe__strmap_new();
    g_cache.mans = floe__strmap_new();
}

typedef struct live_rec {
    int64_t id;
    char *live;
} live_rec;

static int collect(const floe_file_info *info, void *payload)
{
    floe_strmap *m = payload;
    if (strstr(info->uri, ".metadata.json"))
        return 0;
    char *k = floe__strdup(info->uri);
    return k ? floe__strmap_put(m, k, (void *)1) : FLOE_ENOMEM;
}

static void free_keys(floe_strmap *m)
{
    size_t it = 0;
    const char *k;
    void *v;
    while (floe__strmap_next(m, &it, &k, &v))
        floe__free((char *)k);
    floe__strmap_free(m);
}

/* Storage == what retained snapshots reach (lists, manifests, live files). */
static bool storage_exact(fx_table *t, const char *prefix)
{
    floe_strmap *on = floe__strmap_new();
    if (floe_fileio_list(t->io, prefix, collect, on) < 0)
        return ft_fail(__FILE__, __LINE__, "list: %s", ft_floe_err());
    floe_strmap *want = floe__strmap_new();
    floe_vec owned = FLOE_VEC_INIT(char *);
    bool ok = true;
    for (size_t i = 0; i < t->m->nsnapshots; i++) {
        const floe_snapshot *s = &t->m->snapshots[i];
        floe_buf pb = FLOE_BUF_INIT;
        const char *lp = NULL;
        floe__snapshot_manifest_list(s, &pb, &lp);
        char *lpc = floe__strdup(lp);
        floe__buf_free(&pb);
        *(char **)floe__vec_push(&owned) = lpc;
        floe__strmap_put(want, lpc, (void *)1);
        const char *ml = cached_list(t, s);
        for (const char *q = ml, *nq; (nq = strchr(q, '\n')); q = nq + 1) {
            char *p = floe__strndup(q, (size_t)(nq - q));
            *(char **)floe__vec_push(&owned) = p;
            floe__strmap_put(want, p, (void *)1);
        }
        char *live = live_of(t, s->snapshot_id);
        for (char *line = live, *nl; line && (nl = strchr(line, '\n')); line = nl + 1) {
            char *p = floe__strndup(line, (size_t)(nl - line));
            *(char **)floe__vec_push(&owned) = p;
            floe__strmap_put(want, p, (void *)1);
        }
        floe__free(live);
    }
    size_t it = 0;
    const char *k;
    void *v;
    while (ok && floe__strmap_next(want, &it, &k, &v))
        if (!floe__strmap_has(on, k))
            ok = ft_fail(__FILE__, __LINE__, "reachable object deleted: %s", k);
    it = 0;
    while (ok && floe__strmap_next(on, &it, &k, &v))
        if (!floe__strmap_has(want, k))
            ok = ft_fail(__FILE__, __LINE__, "unreferenced object left: %s", k);
    for (size_t i = 0; i < owned.len; i++)
        floe__free(*(char **)floe__vec_at(&owned, i));
    floe__vec_free(&owned);
    floe__strmap_free(want);
    free_keys(on);
    return ok;
}

static int64_t random_snapshot(fx_table *t)
{
    if (!t->m->nsnapshots)
        return -1;
    return t->m->snapshots[rnd((uint32_t)t->m->nsnapshots)].snapshot_id;
}

static const char *random_branch(fx_table *t)
{
    size_t nb = 0;
    for (size_t i = 0; i < t->m->nrefs; i++)
        nb += t->m->refs[i].type == FLOE_REF_BRANCH;
    if (!nb)
        return "main";
    size_t pick = rnd((uint32_t)nb);
    for (size_t i = 0; i < t->m->nrefs; i++)
        if (t->m->refs[i].type == FLOE_REF_BRANCH && pick-- == 0)
            return t->m->refs[i].name;
    return "main";
}

static bool run_expire(fx_table *t, floe_fileio *io, const char *prefix, int *expiries)
{
    /* record every snapshot's live set */
    size_t n = t->m->nsnapshots;
    live_rec *rec = floe__calloc(n ? n : 1, sizeof *rec);
    for (size_t i = 0; i < n; i++) {
        rec[i].id = t->m->snapshots[i].snapshot_id;
        rec[i].live = live_of(t, rec[i].id);
    }
    floe_strmap *mans = floe__strmap_new();
    floe_vec owned = FLOE_VEC_INIT(char *);
    for (size_t i = 0; i < n; i++) {
        const char *ml = cached_list(t, &t->m->snapshots[i]);
        for (const char *q = ml, *nq; (nq = strchr(q, '\n')); q = nq + 1) {
            char *p = floe__strndup(q, (size_t)(nq - q));
            *(char **)floe__vec_push(&owned) = p;
            floe__strmap_put(mans, p, (void *)1);
        }
    }
    size_t distinct = floe__strmap_len(mans);
    floe__strmap_free(mans);
    for (size_t i = 0; i < owned.len; i++)
        floe__free(*(char **)floe__vec_at(&owned, i));
    floe__vec_free(&owned);
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t->clock + 1 + rnd(3) * 86400000LL * 3;
    if (rnd(2)) {
        o.has_older_than = true;
        o.older_than_ms = T0 + (int64_t)rnd((uint32_t)(t->clock - T0 + 2));
    }
    o.retain_last = (int)rnd(4); /* 0 = table default */
    int64_t ids[2];
    size_t nids = rnd(3);
    for (size_t i = 0; i < nids; i++)
        ids[i] = random_snapshot(t);
    /* named ids must not be heads of retained refs: keep only safe ones */
    size_t k = 0;
    for (size_t i = 0; i < nids; i++) {
        bool head = false;
        for (size_t r = 0; r < t->m->nrefs; r++)
            head |= t->m->refs[r].snapshot_id == ids[i];
        if (!head && ids[i] >= 0)
            ids[k++] = ids[i];
    }
    o.snapshot_ids = ids;
    o.nsnapshot_ids = k;
    mem_commit mc = {t};
    floe_maint_expire_result r;
    char *base_loc = floe__strdup(t->meta_loc);
    floe_table_metadata *base = t->m;
    t->m = NULL; /* the commit builds the next state into the fixture */
    floe_table_metadata *keep_base = base;
    /* fx_commit_built frees t->m; give it a copy */
    floe_buf text = FLOE_BUF_INIT;
    floe__metadata_write(base, &text);
    floe__metadata_parse(&t->m, text.ptr, text.len, "copy");
    floe__buf_free(&text);
    int rc = floe__expire_run(io, keep_base, base_loc, &o, commit_mem, &mc, &r);
    floe__metadata_free(keep_base);
    floe__free(base_loc);
    bool ok = true;
    if (rc < 0)
        ok = ft_fail(__FILE__, __LINE__, "expire: %s", ft_floe_err());
    (*expiries)++;
    for (size_t i = 0; ok && i < n; i++) {
        if (!floe__metadata_snapshot(t->m, rec[i].id))
            continue;
        char *now = live_of(t, rec[i].id);
        if (strcmp(now, rec[i].live) != 0)
            ok = ft_fail(__FILE__, __LINE__, "snapshot %lld changed its live files",
                         (long long)rec[i].id);
        floe__free(now);
    }
    for (size_t i = 0; i < n; i++)
        floe__free(rec[i].live);
    floe__free(rec);
    /* each manifest at most once: never more reads than manifests */
    if (ok && r.manifests_read > (int64_t)distinct)
        ok = ft_fail(__FILE__, __LINE__, "%lld manifest reads for %zu manifests",
                     (long long)r.manifests_read, distinct);
    return ok && storage_exact(t, prefix);
}

static bool one_history(unsigned seed, floe_fileio *io, int *expiries)
{
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    char loc[64], prefix[72], ident[64];
    snprintf(loc, sizeof loc, "mem://wh/h%u", seed);
    snprintf(prefix, sizeof prefix, "%s/", loc);
    snprintf(ident, sizeof ident, "db.h%u", seed);
    cache_clear();
    fx_table t;
    if (fx_create(&t, NULL, io, ident, loc, T0) < 0)
        return ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
    int ops = 10 + (int)rnd(14);
    bool ok = true;
    int names = 0;
    for (int i = 0; ok && i < ops; i++) {
        int rc = 0;
        char name[16];
        switch (rnd(12)) {
        case 0:
        case 1:
        case 2: rc = fx_append(&t, "main", 1 + (int)rnd(3), NULL); break;
        case 3: rc = fx_append(&t, random_branch(&t), 1 + (int)rnd(2), NULL); break;
        case 4: rc = fx_delete(&t, random_branch(&t), rnd(100), NULL); break;
        case 5: rc = fx_rewrite(&t, random_branch(&t), rnd(100), NULL, 1, NULL); break;
        case 6:
            if (fx_head(&t, "main") >= 0)
                rc = fx_pos_delete(&t, random_branch(&t), NULL);
            break;
        case 7:
            snprintf(name, sizeof name, "b%d", names++);
            if (t.m->nsnapshots)
                rc = fx_set_ref(&t, name, FLOE_REF_BRANCH, random_snapshot(&t),
                                rnd(2) ? 0 : 1 + rnd(3) * 86400000LL);
            break;
        case 8:
            snprintf(name, sizeof name, "t%d", names++);
            if (t.m->nsnapshots)
                rc = fx_set_ref(&t, name, FLOE_REF_TAG, random_snapshot(&t),
                                rnd(2) ? 0 : 1 + rnd(3) * 86400000LL);
            break;
        case 9:
            if (t.m->nsnapshots) /* rollback / set-current */
                rc = fx_set_ref(&t, "main", FLOE_REF_BRANCH, random_snapshot(&t), 0);
            break;
        case 10:
            if (t.m->nrefs > 1) {
                const char *r = t.m->refs[rnd((uint32_t)t.m->nrefs)].name;
                if (strcmp(r, "main") != 0) {
                    char *copy = floe__strdup(r);
                    rc = fx_drop_ref(&t, copy);
                    floe__free(copy);
                }
            }
            break;
        default:
            t.clock += (int64_t)rnd(4) * 86400000LL;
            ok = run_expire(&t, io, prefix, expiries);
            break;
        }
        if (rc < 0)
            ok = ft_fail(__FILE__, __LINE__, "history %u op %d: %s", seed, i, ft_floe_err());
    }
    if (ok) {
        t.clock += 7 * 86400000LL;
        ok = run_expire(&t, io, prefix, expiries);
    }
    fx_free(&t);
    return ok;
}

static void test_random_histories(void)
{
    floe_fileio *io;
    FT_OK(floe_fileio_memory_new(&io));
    int expiries = 0;
    for (unsigned h = 1; h <= HISTORIES; h++)
        if (!one_history(h, io, &expiries)) {
            ft_fail(__FILE__, __LINE__, "history %u failed", h);
            break;
        }
    FT_CHECK(expiries >= HISTORIES);
    cache_clear();
    floe__strmap_free(g_cache.lists);
    floe__strmap_free(g_cache.mans);
    floe_fileio_free(io);
}

static const ft_case cases[] = {
    {"random_histories", test_random_histories},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
