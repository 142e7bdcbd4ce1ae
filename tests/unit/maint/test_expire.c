/* SPDX-License-Identifier: Apache-2.0 */
/* maint/expire: expire_snapshots on the history of seed 000 script 2 (12
 * snapshots, a tag, retention properties), explicit ids, ref ages, dry
 * runs, commit failures and old metadata files. */
#include "fixture.h"
#include "maint/maint.h"

#include <sys/stat.h>
#include <unistd.h>

#define T0 1800000000000LL

typedef struct seed_hist {
    fx_table t;
    floe_catalog *cat;
    floe_fileio *io;
    int64_t s[13]; /* s[1..12] */
    char *f[13];   /* data files by name in the seed story */
} seed_hist;

static char *dup_last(fx_table *t)
{
    return floe__strdup(t->last_path);
}

/* Seed 000 script 2, steps 1-4, as file-level operations. */
static int build_seed(seed_hist *h, const char *dir)
{
    memset(h, 0, sizeof *h);
    char db[4096], loc[4096];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    snprintf(loc, sizeof loc, "%s/wh/shop.db/orders_wap", dir);
    mkdir(dir, 0755);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.name = "local";
    FLOE_TRY(floe_catalog_open_sql(&h->cat, db, &co));
    FLOE_TRY(floe_fileio_local_new(&h->io));
    fx_table *t = &h->t;
    FLOE_TRY(fx_create(t, h->cat, h->io, "shop.orders_wap", loc, T0));
    FLOE_TRY(fx_append(t, "main", 1, &h->s[1])); /* 1001, 1002 */
    h->f[1] = dup_last(t);
    FLOE_TRY(fx_append(t, "main", 1, &h->s[2])); /* 1003 */
    h->f[2] = dup_last(t);
    FLOE_TRY(fx_append(t, "main", 1, &h->s[3])); /* 1004 */
    h->f[3] = dup_last(t);
    FLOE_TRY(fx_rewrite(t, "main", 0, h->f[3], 0, &h->s[4])); /* DELETE 1004 */
    FLOE_TRY(fx_rewrite(t, "main", 0, h->f[1], 1, &h->s[5])); /* UPDATE 1001 */
    h->f[5] = dup_last(t);
    FLOE_TRY(fx_set_ref(t, "audit", FLOE_REF_BRANCH, h->s[5], 0));
    FLOE_TRY(fx_append(t, "main", 1, &h->s[6])); /* 1005 lands on main */
    h->f[6] = dup_last(t);
    FLOE_TRY(fx_drop_ref(t, "audit"));
    FLOE_TRY(fx_rewrite(t, "main", 0, h->f[6], 0, &h->s[7])); /* DELETE 1005 */
    FLOE_TRY(fx_set_ref(t, "audit", FLOE_REF_BRANCH, h->s[7], 0));
    FLOE_TRY(fx_append(t, "audit", 1, &h->s[8])); /* 1006, 1007 */
    h->f[8] = dup_last(t);
    FLOE_TRY(fx_rewrite(t, "audit", 0, h->f[8], 1, &h->s[9])); /* DELETE amount <= 0 */
    h->f[9] = dup_last(t);
    FLOE_TRY(fx_set_ref(t, "main", FLOE_REF_BRANCH, h->s[9], 0)); /* fast_forward */
    FLOE_TRY(fx_drop_ref(t, "audit"));
    FLOE_TRY(fx_set_ref(t, "close-2026-09", FLOE_REF_TAG, h->s[9], 365LL * 86400000));
    for (int i = 0; i < 3; i++) {
        FLOE_TRY(fx_append(t, "main", 1, &h->s[10 + i]));
        h->f[10 + i] = dup_last(t);
    }
    return 0;
}

static void free_seed(seed_hist *h)
{
    fx_free(&h->t);
    for (int i = 0; i < 13; i++)
        floe__free(h->f[i]);
    floe_fileio_free(h->io);
    floe_catalog_free(h->cat);
}

static bool exists(const char *p)
{
    return access(p, F_OK) == 0;
}

static void test_seed_script2(void)
{
    seed_hist h;
    FT_OK(build_seed(&h, ft_tmp("seed")));
    fx_table *t = &h.t;
    FT_EQ_INT(t->m->nsnapshots, 12);
    char *tag_live = fx_live(t, h.s[9], 0);
    int64_t now = t->clock + 60000;

    /* defaults: 5 days, keep 1 -> nothing is old enough */
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = now;
    floe_maint_expire_result r;
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(r.deleted_data_files_count, 0);
    FT_EQ_INT(r.deleted_manifest_lists_count, 0);
    FT_EQ_INT(r.expired_snapshots_count, 0);
    FT_EQ_INT(r.manifests_read, 0);
    FT_OK(fx_reload(t));
    FT_EQ_INT(t->m->nsnapshots, 12);

    floe_kv props[] = {{"history.expire.max-snapshot-age-ms", "1"},
                       {"history.expire.min-snapshots-to-keep", "2"}};
    FT_OK(fx_set_props(t, props, 2));
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(r.deleted_data_files_count, 4);
    FT_EQ_INT(r.deleted_manifest_lists_count, 9);
    FT_EQ_INT(r.deleted_manifest_files_count, 4);
    FT_EQ_INT(r.deleted_position_delete_files_count, 0);
    FT_EQ_INT(r.deleted_equality_delete_files_count, 0);
    FT_EQ_INT(r.deleted_statistics_files_count, 0);
    FT_EQ_INT(r.expired_snapshots_count, 9);
    /* 14 distinct manifests in the history, each read exactly once */
    FT_EQ_INT(r.manifests_read, 14);
    FT_OK(fx_reload(t));
    FT_EQ_INT(t->m->nsnapshots, 3);
    FT_CHECK(floe__metadata_snapshot(t->m, h.s[9]) != NULL);  /* the tag */
    FT_CHECK(floe__metadata_snapshot(t->m, h.s[11]) != NULL); /* min-snapshots-to-keep */
    FT_CHECK(floe__metadata_snapshot(t->m, h.s[12]) != NULL);
    FT_EQ_INT(fx_head(t, "main"), h.s[12]);
    FT_EQ_INT(fx_head(t, "close-2026-09"), h.s[9]);
    /* the tag still reads the same files, all on storage */
    char *after = fx_live(t, h.s[9], 0);
    FT_EQ_STR(after, tag_live);
    floe__free(after);
    FT_CHECK(exists(h.f[2]) && exists(h.f[5]) && exists(h.f[9]) && exists(h.f[12]));
    /* files only expired snapshots held are gone */
    FT_CHECK(!exists(h.f[1]) && !exists(h.f[3]) && !exists(h.f[6]) && !exists(h.f[8]));
    /* an expired id fails like a bogus one */
    const floe_snapshot *s;
    FT_EQ_INT(floe__maint_select(t->m, true, h.s[1], NULL, false, 0, &s), FLOE_ENOTFOUND);
    char want[96];
    snprintf(want, sizeof want, "Cannot find snapshot with ID %lld", (long long)h.s[1]);
    FT_ERR_CONTAINS(want);
    floe_maint_inventory_options io = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
    io.has_snapshot_id = true;
    io.snapshot_id = h.s[1];
    FT_EQ_INT(floe_maint_inventory(NULL, h.cat, t->ident, &io, NULL, NULL), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS(want);

    /* a second run has nothing left to do */
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(r.expired_snapshots_count, 0);
    FT_EQ_INT(r.deleted_data_files_count, 0);
    floe__free(tag_live);
    free_seed(&h);
}

static void test_missing_expired_objects(void)
{
    /* an expired snapshot's list and a candidate manifest already gone
     * (deleted by hand, or a crashed older tool): skipped, the rest of the
     * cleanup proceeds; what they named stays for remove_orphan_files */
    seed_hist h;
    FT_OK(build_seed(&h, ft_tmp("missing")));
    fx_table *t = &h.t;
    floe_buf pb = FLOE_BUF_INIT;
    const char *lp;
    FT_OK(floe__snapshot_manifest_list(floe__metadata_snapshot(t->m, h.s[1]), &pb, &lp));
    FT_EQ_INT(unlink(lp), 0);
    floe__buf_free(&pb);
    /* M3: the manifest listing f3 ADDED (s3's newest) */
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    FT_OK(fx_manifests(t, h.s[3], &bytes, &l));
    FT_EQ_INT(unlink(l->entries[0].manifest_path), 0);
    floe_manifest_list_free(l);
    floe__buf_free(&bytes);
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t->clock + 60000;
    o.has_older_than = true;
    o.older_than_ms = t->clock + 1;
    o.retain_last = 2;
    floe_maint_expire_result r;
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(r.expired_snapshots_count, 9);
    FT_EQ_INT(r.deleted_manifest_lists_count, 8);
    FT_EQ_INT(r.deleted_data_files_count, 3); /* f1, f6, f8; f3 stays an orphan */
    FT_CHECK(exists(h.f[3]) && !exists(h.f[1]));
    /* but a retained snapshot's missing list stops everything */
    FT_OK(fx_reload(t));
    FT_OK(fx_append(t, "main", 1, NULL));
    FT_OK(fx_append(t, "main", 1, NULL));
    FT_OK(floe__snapshot_manifest_list(floe__metadata_snapshot(t->m, h.s[9]), &pb, &lp));
    FT_EQ_INT(unlink(lp), 0);
    floe__buf_free(&pb);
    FT_EQ_INT(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o), FLOE_ENOTFOUND);
    FT_EQ_INT(r.deleted_data_files_count + r.deleted_manifest_files_count, 0);
    FT_CHECK(exists(h.f[11])); /* s11 expired (committed), its files stay */
    free_seed(&h);
}

static int count_cb(floe_maint_file_kind kind, const char *location, void *payload)
{
    (void)location;
    int *counts = payload;
    counts[kind]++;
    return 0;
}

static void test_dry_run(void)
{
    seed_hist h;
    FT_OK(build_seed(&h, ft_tmp("dry")));
    fx_table *t = &h.t;
    char *before = floe__strdup(t->meta_loc);
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t->clock + 60000;
    o.has_older_than = true;
    o.older_than_ms = t->clock + 1;
    o.retain_last = 2;
    o.dry_run = true;
    int counts[8] = {0};
    o.on_file = count_cb;
    o.payload = counts;
    floe_maint_expire_result r;
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(r.deleted_data_files_count, 4);
    FT_EQ_INT(r.deleted_manifest_lists_count, 9);
    FT_EQ_INT(counts[FLOE_MAINT_DATA_FILE], 4);
    FT_EQ_INT(counts[FLOE_MAINT_MANIFEST_LIST], 9);
    FT_OK(fx_reload(t));
    FT_EQ_STR(t->meta_loc, before); /* nothing committed */
    FT_EQ_INT(t->m->nsnapshots, 12);
    FT_CHECK(exists(h.f[1]) && exists(h.f[8]));
    floe__free(before);
    free_seed(&h);
}

static void test_explicit_ids(void)
{
    seed_hist h;
    FT_OK(build_seed(&h, ft_tmp("ids")));
    fx_table *t = &h.t;
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t->clock + 60000;
    int64_t head = h.s[12];
    o.snapshot_ids = &head;
    o.nsnapshot_ids = 1;
    floe_maint_expire_result r;
    FT_EQ_INT(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o), FLOE_EINVALID);
    char want[96];
    snprintf(want, sizeof want, "Cannot expire %lld. Still referenced by refs: [main]",
             (long long)head);
    FT_ERR_CONTAINS(want);
    /* s[3] (1004 appended) is young but named: it goes, and f3 with it
     * only if nothing retained still lists it live -> f3 is live in s3 only */
    int64_t ids[] = {h.s[3], 42};
    o.snapshot_ids = ids;
    o.nsnapshot_ids = 2;
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(r.expired_snapshots_count, 1);
    FT_EQ_INT(r.deleted_manifest_lists_count, 1);
    FT_EQ_INT(r.deleted_data_files_count, 1);
    FT_EQ_INT(r.deleted_manifest_files_count, 1); /* M3 (f3 ADDED) */
    FT_CHECK(!exists(h.f[3]));
    FT_OK(fx_reload(t));
    FT_EQ_INT(t->m->nsnapshots, 11);
    free_seed(&h);
}

static void test_ref_ages(void)
{
    seed_hist h;
    FT_OK(build_seed(&h, ft_tmp("refs")));
    fx_table *t = &h.t;
    /* a branch at s5 that may live 1 s, and main with a 1 ms default */
    FT_OK(fx_set_ref(t, "old", FLOE_REF_BRANCH, h.s[5], 1000));
    floe_kv props[] = {{"history.expire.max-ref-age-ms", "1"}};
    FT_OK(fx_set_props(t, props, 1));
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t->clock + 60000;
    floe_maint_expire_result r;
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(r.removed_refs_count, 1); /* `old`; the tag has 365 days; main never */
    FT_OK(fx_reload(t));
    FT_CHECK(floe__metadata_ref(t->m, "old") == NULL);
    FT_CHECK(floe__metadata_ref(t->m, "main") != NULL);
    FT_CHECK(floe__metadata_ref(t->m, "close-2026-09") != NULL);
    FT_EQ_INT(t->m->nsnapshots, 12); /* all younger than 5 days */
    free_seed(&h);
}

static int fail_commit(const floe_table_metadata *base, const char *base_location,
                       const floe_expire_plan *plan, floe_table_metadata **committed,
                       char **location, void *payload)
{
    (void)base, (void)base_location, (void)plan, (void)committed, (void)location;
    return floe__error(*(int *)payload, "test", "injected commit failure");
}

static void test_commit_failure_deletes_nothing(void)
{
    seed_hist h;
    FT_OK(build_seed(&h, ft_tmp("fail")));
    fx_table *t = &h.t;
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t->clock + 60000;
    o.has_older_than = true;
    o.older_than_ms = t->clock + 1;
    int codes[] = {FLOE_ECONFLICT, FLOE_ECOMMITUNKNOWN, FLOE_EIO};
    for (size_t i = 0; i < 3; i++) {
        floe_maint_expire_result r;
        FT_EQ_INT(floe__expire_run(h.io, t->m, t->meta_loc, &o, fail_commit, &codes[i], &r),
                  codes[i]);
        FT_EQ_INT(r.deleted_data_files_count + r.deleted_manifest_lists_count, 0);
        FT_CHECK(exists(h.f[1]) && exists(h.f[3]) && exists(h.f[8]));
    }
    free_seed(&h);
}

/* A FileIO that lets another writer commit (an append) right before the
 * expiry writes its metadata file, once: the expiry's compare-and-set loses
 * and it must plan again on the fresh state. */
typedef struct racer {
    floe_fileio *inner;
    fx_table *other;
    int fired;
} racer;

static int r_open(floe_fileio *io, const char *uri, floe_input **out)
{
    return floe_fileio_open_input(out, ((racer *)io->impl)->inner, uri);
}
static int r_create(floe_fileio *io, const char *uri, floe_output **out)
{
    racer *r = io->impl;
    if (!r->fired && strstr(uri, ".metadata.json")) {
        r->fired = 1;
        FLOE_TRY(fx_reload(r->other));
        FLOE_TRY(fx_append(r->other, "main", 1, NULL));
    }
    return floe_fileio_create_output(out, r->inner, uri);
}
static int r_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    return floe_fileio_remove(((racer *)io->impl)->inner, uris, n);
}
static int r_list(floe_fileio *io, const char *prefix,
                  int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    return floe_fileio_list(((racer *)io->impl)->inner, prefix, cb, payload);
}
static int r_stat(floe_fileio *io, const char *uri, floe_file_info *out)
{
    return floe_fileio_stat(out, ((racer *)io->impl)->inner, uri);
}
static void r_free(floe_fileio *io)
{
    (void)io;
}
static const floe_fileio_ops racer_ops = {
    FLOE_FILEIO_OPS_VERSION, r_open, r_create, r_remove, r_list, r_stat, r_free};

static void test_concurrent_commit_replans(void)
{
    seed_hist h;
    FT_OK(build_seed(&h, ft_tmp("race")));
    fx_table *t = &h.t;
    racer rc = {h.io, t, 0};
    floe_fileio rio = {&racer_ops, &rc};
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.io = &rio;
    o.now_ms = t->clock + 60000;
    o.has_older_than = true;
    o.older_than_ms = t->clock + 1;
    o.retain_last = 2;
    floe_maint_expire_result r;
    FT_OK(floe_maint_expire_snapshots(&r, h.cat, t->ident, &o));
    FT_EQ_INT(rc.fired, 1);
    /* planned again on 13 snapshots: the new head and its parent stay,
     * plus the tag; s11 now goes too */
    FT_EQ_INT(r.expired_snapshots_count, 10);
    FT_EQ_INT(r.deleted_data_files_count, 4);
    FT_OK(fx_reload(t));
    FT_EQ_INT(t->m->nsnapshots, 3);
    FT_CHECK(floe__metadata_snapshot(t->m, h.s[12]) != NULL);
    FT_CHECK(floe__metadata_snapshot(t->m, h.s[9]) != NULL);
    FT_CHECK(exists(t->last_path)); /* the concurrent append's file */
    FT_CHECK(exists(h.f[11]) && exists(h.f[12]) && exists(h.f[9]));
    free_seed(&h);
}

static void test_position_deletes_and_metadata_files(void)
{
    const char *dir = ft_tmp("posdel");
    char db[4096], loc[4096];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    snprintf(loc, sizeof loc, "%s/wh/db/t", dir);
    mkdir(dir, 0755);
    floe_catalog *cat;
    floe_fileio *io;
    FT_OK(floe_catalog_open_sql(&cat, db, NULL));
    FT_OK(floe_fileio_local_new(&io));
    fx_table t;
    FT_OK(fx_create(&t, cat, io, "db.t", loc, T0));
    floe_kv props[] = {{"write.metadata.delete-after-commit.enabled", "true"},
                       {"write.metadata.previous-versions-max", "2"}};
    FT_OK(fx_set_props(&t, props, 2));
    int64_t s1, s2;
    FT_OK(fx_append(&t, "main", 2, &s1));
    FT_OK(fx_set_ref(&t, "b", FLOE_REF_BRANCH, s1, 0));
    FT_OK(fx_pos_delete(&t, "b", &s2));
    char *posfile = floe__strdup(t.last_path);
    /* a statistics file for the branch snapshot, and one for main's head */
    char stats[4200], stats2[4200];
    snprintf(stats, sizeof stats, "%s/metadata/s2.stats", loc);
    snprintf(stats2, sizeof stats2, "%s/metadata/s1.stats", loc);
    FT_OK(ft_write_file(stats, "puffin", 6));
    FT_OK(ft_write_file(stats2, "puffin", 6));
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, t.m, t.meta_loc));
    floe_statistics_file st = {s2, stats, 6, 2, NULL, 0, NULL};
    floe_statistics_file st1 = {s1, stats2, 6, 2, NULL, 0, NULL};
    FT_OK(floe__mb_set_statistics(b, &st));
    FT_OK(floe__mb_set_statistics(b, &st1));
    FT_OK(fx_commit_built(&t, b));
    FT_OK(fx_drop_ref(&t, "b"));
    FT_CHECK(exists(posfile));
    FT_EQ_INT(t.m->n_metadata_log, 2);
    char *dropped = floe__strdup(t.m->metadata_log[0].metadata_file);
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t.clock + 10LL * 86400000; /* everything but main's head is old */
    floe_maint_expire_result r;
    FT_OK(floe_maint_expire_snapshots(&r, cat, "db.t", &o));
    FT_EQ_INT(r.expired_snapshots_count, 1);
    FT_EQ_INT(r.deleted_position_delete_files_count, 1);
    FT_EQ_INT(r.deleted_data_files_count, 0); /* s1's files are live in main */
    FT_EQ_INT(r.deleted_manifest_files_count, 1);
    FT_EQ_INT(r.deleted_manifest_lists_count, 1);
    FT_EQ_INT(r.deleted_statistics_files_count, 1);
    FT_CHECK(!exists(posfile));
    FT_CHECK(!exists(stats));
    FT_CHECK(exists(stats2));
    /* the metadata-log keeps 2 previous versions: the one this commit
     * pushed out is deleted (older ones were left by writers without
     * delete-after-commit: orphans, for remove_orphan_files) */
    FT_EQ_INT(r.deleted_metadata_files_count, 1);
    FT_CHECK(!exists(dropped));
    floe__free(dropped);
    FT_OK(fx_reload(&t));
    FT_EQ_INT(t.m->n_metadata_log, 2);
    for (size_t i = 0; i < t.m->n_metadata_log; i++)
        FT_CHECK(exists(t.m->metadata_log[i].metadata_file));
    floe__free(posfile);
    fx_free(&t);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

static void test_oom(void)
{
    /* every allocation failure inside the expiry (plan and cleanup, dry
     * run) returns FLOE_ENOMEM cleanly; the ASan build checks for leaks */
    floe_fileio *io;
    FT_OK(floe_fileio_memory_new(&io));
    fx_table t;
    FT_OK(fx_create(&t, NULL, io, "db.t", "mem://wh/t", T0));
    int64_t s1;
    FT_OK(fx_append(&t, "main", 2, &s1));
    FT_OK(fx_delete(&t, "main", 0, NULL));
    FT_OK(fx_set_ref(&t, "tag", FLOE_REF_TAG, s1, 0));
    FT_OK(fx_append(&t, "main", 1, NULL));
    FT_OK(fx_pos_delete(&t, "main", NULL));
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.now_ms = t.clock + 60000;
    o.has_older_than = true;
    o.older_than_ms = t.clock;
    o.dry_run = true;
    long n;
    for (n = 1; n < 100000; n++) {
        floe_maint_expire_result r;
        floe__alloc_fail_at(n);
        int rc = floe__expire_run(io, t.m, t.meta_loc, &o, NULL, NULL, &r);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_EQ_INT(r.expired_snapshots_count, 2);
            FT_EQ_INT(r.deleted_manifest_lists_count, 2);
            break;
        }
        FT_EQ_INT(rc, FLOE_ENOMEM);
    }
    FT_CHECK(n > 10);
    /* clean_expired_metadata's plan: schemas and specs nothing retained uses */
    for (n = 1; n < 100000; n++) {
        floe_expire_plan p;
        memset(&p, 0, sizeof p);
        floe__alloc_fail_at(n);
        int rc = floe__expire_plan(&p, t.m, &o, o.now_ms);
        if (rc == 0)
            rc = floe__expire_plan_metadata(&p, io, t.m);
        floe__alloc_fail_at(0);
        bool done = rc == 0;
        if (done) {
            FT_EQ_INT(p.remove_specs.len, 0);
            FT_EQ_INT(p.remove_schemas.len, 0);
        }
        floe__expire_plan_free(&p);
        if (done)
            break;
        FT_EQ_INT(rc, FLOE_ENOMEM);
    }
    fx_free(&t);
    floe_fileio_free(io);
}

static const ft_case cases[] = {
    {"seed_script2", test_seed_script2},
    {"dry_run", test_dry_run},
    {"missing_expired_objects", test_missing_expired_objects},
    {"explicit_ids", test_explicit_ids},
    {"ref_ages", test_ref_ages},
    {"commit_failure_deletes_nothing", test_commit_failure_deletes_nothing},
    {"concurrent_commit_replans", test_concurrent_commit_replans},
    {"position_deletes_and_metadata_files", test_position_deletes_and_metadata_files},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
