/* SPDX-License-Identifier: Apache-2.0 */
/* table/append: real appends (Parquet data files, manifest, manifest list):
 * file layout and names, Java's snapshot summary, manifest reuse by fast
 * append, merge append, file rolling, partition routing, re-apply after a
 * lost race, branch and WAP writes, the seed's script 1 with row counts, and
 * crash safety (every I/O step fails in turn: old or new state, only
 * unreferenced files left, next append works). */
#include "append_fixture.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const fx_order LOAD1[] = {{1001, 501, 12050, "PLACED", 2026, 9, 20},
                                 {1002, 502, 7500, "PLACED", 2026, 9, 20}};
static const fx_order LOAD2[] = {{1003, 503, 31025, "PLACED", 2026, 9, 21}};
static const fx_order BAD[] = {{1003, 503, 31025, "PLACED", 2026, 9, 21},
                               {1004, 504, -100, "PLACED", 2026, 9, 21}};

typedef struct names {
    int data, manifests, lists, metadata, other;
    char last_data[1024];
} names;

static int name_cb(const floe_file_info *info, void *p)
{
    names *n = p;
    const char *u = info->uri;
    if (strstr(u, "/data/") && strstr(u, ".parquet")) {
        n->data++;
        snprintf(n->last_data, sizeof n->last_data, "%s", u);
    } else if (strstr(u, "/metadata/snap-") && strstr(u, ".avro")) {
        n->lists++;
    } else if (strstr(u, "/metadata/") && strstr(u, "-m") && strstr(u, ".avro")) {
        n->manifests++;
    } else if (strstr(u, ".metadata.json")) {
        n->metadata++;
    } else {
        n->other++;
    }
    return 0;
}

static names list_names(floe_table *t)
{
    names n;
    memset(&n, 0, sizeof n);
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/", floe_table_location(t));
    floe_fileio_list(floe_table_io(t), prefix, name_cb, &n);
    return n;
}

static void test_append_layout_summary(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    int64_t s1 = fx_append_rows(t, LOAD1, 2);
    FT_ASSERT(s1 > 0);
    names n = list_names(t);
    FT_EQ_INT(n.data, 1);
    FT_EQ_INT(n.manifests, 1);
    FT_EQ_INT(n.lists, 1);
    FT_EQ_INT(n.metadata, 2);
    FT_EQ_INT(n.other, 0);
    FT_CHECK(strstr(n.last_data, "/data/order_date=2026-09-20/00000-0-") != NULL);
    const floe_snapshot *s = floe__metadata_snapshot(t->metadata, s1);
    FT_ASSERT(s);
    char expect[64];
    snprintf(expect, sizeof expect, "/metadata/snap-%lld-1-", (long long)s1);
    FT_CHECK(strstr(floe__table_manifest_list(t, s), expect) != NULL);
    FT_EQ_INT(s->sequence_number, 1);
    /* Java's SnapshotSummary keys, in Java's order */
    const char *keys[] = {"operation",          "added-data-files",      "added-records",
                          "added-files-size",   "changed-partition-count", "total-records",
                          "total-files-size",   "total-data-files",      "total-delete-files",
                          "total-position-deletes", "total-equality-deletes"};
    FT_ASSERT(s->n_summary == FLOE_ARRAY_LEN(keys));
    const uint8_t *it = s->summary_packed;
    const char *k, *v;
    for (size_t i = 0; i < FLOE_ARRAY_LEN(keys) && floe__summary_next(&it, &k, &v); i++)
        FT_EQ_STR(k, keys[i]);
    FT_EQ_STR(floe_table_snapshot_summary(t, s1, "added-records"), "2");
    FT_EQ_STR(floe_table_snapshot_summary(t, s1, "total-records"), "2");
    FT_EQ_STR(floe_table_snapshot_summary(t, s1, "changed-partition-count"), "1");
    FT_EQ_STR(floe_table_snapshot_summary(t, s1, "added-files-size"),
              floe_table_snapshot_summary(t, s1, "total-files-size"));
    FT_EQ_STR(floe_table_snapshot_summary(t, s1, "total-delete-files"), "0");
    FT_EQ_INT(fx_rows(t, s1), 2);

    /* the manifest entry: partition value, counts, metrics */
    floe_buf lb = FLOE_BUF_INIT, mb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    floe_manifest *m = NULL;
    FT_OK(fx_read_list(t, floe__table_manifest_list(t, s), &lb, &l));
    FT_ASSERT(l->nentries == 1);
    FT_EQ_INT(l->entries[0].added_files_count, 1);
    FT_EQ_INT(l->entries[0].added_rows_count, 2);
    FT_EQ_INT(l->entries[0].sequence_number, 1);
    FT_EQ_INT(l->entries[0].added_snapshot_id, s1);
    FT_OK(floe__io_read_all(floe_table_io(t), l->entries[0].manifest_path, 1 << 24, &mb));
    FT_OK(floe_manifest_read(&m, (const uint8_t *)mb.ptr, mb.len, "m", &l->entries[0]));
    FT_ASSERT(m->nentries == 1);
    const floe_manifest_entry *e = &m->entries[0];
    FT_EQ_INT(e->status, FLOE_ENTRY_ADDED);
    FT_EQ_INT(e->snapshot_id, s1);
    FT_EQ_INT(e->sequence_number, 1);
    FT_EQ_STR(e->data_file.file_format, "PARQUET");
    FT_EQ_INT(e->data_file.record_count, 2);
    FT_ASSERT(e->data_file.partition.n == 1);
    FT_EQ_INT(e->data_file.partition.values[0].v.i32, floe__days_from_civil(2026, 9, 20));
    FT_CHECK(e->data_file.value_counts.n == 5 && e->data_file.lower_bounds.n >= 4);
    floe_manifest_free(m);
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    floe__buf_free(&mb);

    /* second append: one new manifest, the parent's reused */
    int64_t s2 = fx_append_rows(t, LOAD2, 1);
    n = list_names(t);
    FT_EQ_INT(n.data, 2);
    FT_EQ_INT(n.manifests, 2);
    FT_EQ_INT(n.lists, 2);
    size_t nm = 0;
    int64_t rows = 0, files = 0;
    FT_OK(fx_count(t, s2, &rows, &files, &nm));
    FT_EQ_INT(nm, 2);
    FT_EQ_INT(rows, 3);
    FT_EQ_INT(files, 2);
    FT_EQ_STR(floe_table_snapshot_summary(t, s2, "total-records"), "3");
    FT_EQ_STR(floe_table_snapshot_summary(t, s2, "total-data-files"), "2");

    /* one batch, two partitions: two files, changed-partition-count 2 */
    const fx_order mixed[] = {{1, 1, 100, "A", 2026, 1, 1}, {2, 2, 200, "B", 2026, 1, 2},
                              {3, 3, 300, "C", 2026, 1, 1}};
    int64_t s3 = fx_append_rows(t, mixed, 3);
    FT_EQ_STR(floe_table_snapshot_summary(t, s3, "added-data-files"), "2");
    FT_EQ_STR(floe_table_snapshot_summary(t, s3, "changed-partition-count"), "2");
    FT_EQ_STR(floe_table_snapshot_summary(t, s3, "total-records"), "6");
    FT_EQ_INT(fx_rows(t, s3), 6);

    /* an empty append commits nothing */
    floe_append *a = NULL;
    int64_t id = 0;
    FT_OK(floe_append_new(&a, t));
    FT_OK(floe_append_commit(&id, a));
    FT_EQ_INT(id, -1);
    floe_append_free(a);
    FT_EQ_INT(fx_main(t), s3);

    /* DROP TABLE ... PURGE deletes every reachable file: nothing is left */
    floe_fileio *io = NULL;
    FT_OK(floe_fileio_local_new(&io));
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/", floe_table_location(t));
    floe_table_free(t);
    FT_OK(floe_table_drop(c, "shop.orders", true, NULL));
    int left = 0;
    FT_OK(floe_fileio_list(io, prefix, fx_count_cb, &left));
    FT_EQ_INT(left, 0);
    floe_fileio_free(io);
    floe_catalog_free(c);
}

/* The seed's script 1 with real rows: counts 2/3/5/3. */
static void test_script1_rows(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    int64_t g1 = fx_append_rows(t, LOAD1, 2);
    int64_t g2 = fx_append_rows(t, LOAD2, 1);
    FT_EQ_INT(fx_rows(t, fx_main(t)), 3);
    FT_EQ_INT(fx_rows(t, g1), 2);
    int64_t bad = fx_append_rows(t, BAD, 2);
    FT_EQ_INT(fx_rows(t, fx_main(t)), 5);
    names before = list_names(t);
    fx_sleep_ms(3); /* distinct snapshot-log times for TIMESTAMP AS OF below */
    int64_t prev = 0, cur = 0;
    FT_OK(floe_table_rollback_to_snapshot(&prev, &cur, t, g2));
    FT_EQ_INT(prev, bad);
    FT_EQ_INT(fx_rows(t, fx_main(t)), 3);
    /* VERSION AS OF the first snapshot: 2; TIMESTAMP AS OF a moment inside
     * the bad window still reads the 5 bad rows (snapshot-log) */
    floe_snapshot_info bi, at;
    FT_OK(floe_table_snapshot_by_id(&bi, t, bad));
    FT_OK(floe_table_snapshot_as_of_time(&at, t, bi.timestamp_ms));
    FT_EQ_INT(fx_rows(t, at.snapshot_id), 5);
    FT_OK(floe_table_snapshot_by_id(&at, t, g1));
    FT_EQ_INT(fx_rows(t, at.snapshot_id), 2);
    names after = list_names(t);
    FT_EQ_INT(after.metadata, before.metadata + 1);
    FT_EQ_INT(after.data, before.data);
    FT_EQ_INT(after.manifests, before.manifests);
    FT_EQ_INT(after.lists, before.lists);
    FT_OK(floe_table_set_current_snapshot(NULL, NULL, t, bad));
    FT_EQ_INT(fx_rows(t, fx_main(t)), 5);
    FT_OK(floe_table_set_current_snapshot(NULL, NULL, t, g2));
    FT_EQ_INT(fx_rows(t, fx_main(t)), 3);
    FT_EQ_INT(floe_table_history_count(t), 6);
    /* files vs all files: 2 data files in main, 3 on storage */
    int64_t rows, files;
    FT_OK(fx_count(t, fx_main(t), &rows, &files, NULL));
    FT_EQ_INT(files, 2);
    FT_EQ_INT(list_names(t).data, 3);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_merge_append(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "commit.manifest.min-count-to-merge", "3");
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.merge", &p));
    floe__props_free(&p);
    size_t nm = 0;
    int64_t rows, files;
    fx_append_rows(t, LOAD1, 2);
    int64_t s2 = fx_append_rows(t, LOAD2, 1);
    FT_OK(fx_count(t, s2, &rows, &files, &nm));
    FT_EQ_INT(nm, 2);
    int64_t s3 = fx_append_rows(t, BAD, 2);
    FT_OK(fx_count(t, s3, &rows, &files, &nm));
    FT_EQ_INT(nm, 1); /* 3 manifests reached min-count: merged into one */
    FT_EQ_INT(rows, 5);
    FT_EQ_INT(files, 3);
    FT_EQ_STR(floe_table_snapshot_summary(t, s3, "total-records"), "5");
    /* the merged manifest: this snapshot's file ADDED, older ones EXISTING */
    const floe_snapshot *s = floe__metadata_snapshot(t->metadata, s3);
    floe_buf lb = FLOE_BUF_INIT, mb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    floe_manifest *m = NULL;
    FT_OK(fx_read_list(t, floe__table_manifest_list(t, s), &lb, &l));
    FT_OK(floe__io_read_all(floe_table_io(t), l->entries[0].manifest_path, 1 << 24, &mb));
    FT_OK(floe_manifest_read(&m, (const uint8_t *)mb.ptr, mb.len, "m", &l->entries[0]));
    int added = 0, existing = 0;
    for (size_t i = 0; i < m->nentries; i++) {
        if (m->entries[i].status == FLOE_ENTRY_ADDED) {
            added++;
            FT_EQ_INT(m->entries[i].sequence_number, 3);
        } else if (m->entries[i].status == FLOE_ENTRY_EXISTING) {
            existing++;
            FT_CHECK(m->entries[i].sequence_number == 1 || m->entries[i].sequence_number == 2);
        }
    }
    FT_EQ_INT(added, 1);
    FT_EQ_INT(existing, 2);
    FT_EQ_INT(l->entries[0].added_files_count, 1);
    FT_EQ_INT(l->entries[0].existing_files_count, 2);
    floe_manifest_free(m);
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    floe__buf_free(&mb);
    /* older snapshots still read their own manifests */
    FT_EQ_INT(fx_rows(t, s2), 3);

    /* merging disabled: the list just grows */
    floe_props q = FLOE_PROPS_INIT;
    floe__props_set(&q, "commit.manifest-merge.enabled", "false");
    FT_OK(floe_table_update_properties(t, &q, NULL, 0));
    floe__props_free(&q);
    int64_t s4 = fx_append_rows(t, LOAD2, 1);
    int64_t s5 = fx_append_rows(t, LOAD2, 1);
    FT_OK(fx_count(t, s4, &rows, &files, &nm));
    FT_EQ_INT(nm, 2);
    FT_OK(fx_count(t, s5, &rows, &files, &nm));
    FT_EQ_INT(nm, 3);
    FT_EQ_INT(rows, 7);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_rolling(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.target-file-size-bytes", "1");
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.roll", &p));
    floe__props_free(&p);
    floe_append *a = NULL;
    FT_OK(floe_append_new(&a, t));
    for (int i = 0; i < 3; i++) {
        struct ArrowArray arr;
        FT_OK(fx_batch(t, LOAD1, 2, &arr));
        FT_OK(floe_append_write(a, &arr));
        arr.release(&arr);
    }
    int64_t id = 0;
    FT_OK(floe_append_commit(&id, a));
    floe_append_free(a);
    FT_EQ_STR(floe_table_snapshot_summary(t, id, "added-data-files"), "3");
    FT_EQ_INT(list_names(t).data, 3);
    FT_EQ_INT(fx_rows(t, id), 6);
    /* a batch with the wrong column count */
    FT_OK(floe_append_new(&a, t));
    struct ArrowArray arr;
    FT_OK(fx_batch(t, LOAD1, 2, &arr));
    arr.n_children = 3;
    FT_CHECK(floe_append_write(a, &arr) == FLOE_EINVALID);
    arr.n_children = 5;
    arr.release(&arr);
    floe_append_free(a);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* A stale handle's append loses the race, refreshes and re-applies on the
 * new parent: attempt 2's manifest list, attempt 1's deleted. */
static void test_reapply(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL, *stale = NULL;
    FT_OK(fx_create(&t, c, "shop.race", NULL));
    fx_append_rows(t, LOAD1, 2);
    FT_OK(floe_table_load(&stale, c, "shop.race", NULL));
    int64_t s2 = fx_append_rows(t, LOAD2, 1);
    int64_t s3 = fx_append_rows(stale, BAD, 2);
    FT_ASSERT(s3 > 0);
    FT_OK(floe_table_refresh(t));
    floe_snapshot_info i3;
    FT_OK(floe_table_snapshot_by_id(&i3, t, s3));
    FT_EQ_INT(i3.parent_snapshot_id, s2);
    FT_EQ_INT(i3.sequence_number, 3);
    char expect[64];
    snprintf(expect, sizeof expect, "/metadata/snap-%lld-2-", (long long)s3);
    FT_CHECK(strstr(i3.manifest_list, expect) != NULL);
    FT_EQ_STR(floe_table_snapshot_summary(t, s3, "total-records"), "5");
    FT_EQ_INT(fx_rows(t, s3), 5);
    names n = list_names(t);
    FT_EQ_INT(n.lists, 3); /* attempt 1's list was deleted */
    FT_EQ_INT(n.manifests, 3);
    floe_table_free(stale);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* v3: the retry re-assigns row ids from the new base (spec "Row Lineage":
 * first-row-id is the table's next-row-id when the snapshot is committed). */
static void test_reapply_v3_row_ids(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "format-version", "3");
    floe_table *t = NULL, *stale = NULL;
    FT_OK(fx_create(&t, c, "shop.race3", &p));
    floe__props_free(&p);
    FT_ASSERT(t);
    int64_t s1 = fx_append_rows(t, LOAD1, 2);
    FT_OK(floe_table_load(&stale, c, "shop.race3", NULL));
    int64_t s2 = fx_append_rows(t, LOAD2, 1);
    int64_t s3 = fx_append_rows(stale, BAD, 2); /* loses, retries on s2 */
    FT_ASSERT(s3 > 0);
    FT_OK(floe_table_refresh(t));
    const floe_snapshot *a = floe__metadata_snapshot(t->metadata, s1),
                        *b = floe__metadata_snapshot(t->metadata, s2),
                        *d = floe__metadata_snapshot(t->metadata, s3);
    FT_ASSERT(a && b && d);
    FT_CHECK(a->has_first_row_id && a->first_row_id == 0 && a->added_rows == 2);
    FT_CHECK(b->has_first_row_id && b->first_row_id == 2 && b->added_rows == 1);
    FT_CHECK(d->has_first_row_id && d->first_row_id == 3 && d->added_rows == 2);
    FT_CHECK(t->metadata->has_next_row_id && t->metadata->next_row_id == 5);
    floe_table_free(stale);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* Writes to a branch are a property of the handle; WAP staging. */
static void test_branch_and_wap(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders_wap", NULL));
    int64_t m1 = fx_append_rows(t, LOAD1, 2);
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE, NULL));
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.branch = "audit";
    floe_table *audit = NULL;
    FT_OK(floe_table_load(&audit, c, "shop.orders_wap", &o));
    int64_t a1 = fx_append_rows(audit, LOAD2, 1);
    floe_snapshot_info bh;
    FT_EQ_STR(floe_table_branch(audit), "audit");
    FT_CHECK(floe_table_branch_snapshot(&bh, audit) && bh.snapshot_id == a1);
    FT_CHECK(floe_table_current_snapshot(&bh, audit) && bh.snapshot_id == m1);
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(fx_main(t), m1);
    floe_ref_info r;
    FT_OK(floe_table_ref(&r, t, "audit"));
    FT_EQ_INT(r.snapshot_id, a1);
    FT_EQ_INT(fx_rows(t, r.snapshot_id), 3);
    FT_EQ_INT(fx_rows(t, fx_main(t)), 2);
    int64_t prev, upd;
    FT_OK(floe_table_fast_forward(&prev, &upd, t, "main", "audit"));
    FT_EQ_INT(upd, a1);
    floe_table_free(audit);
    o.branch = "nope";
    FT_CHECK(floe_table_load(&audit, c, "shop.orders_wap", &o) == FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot use branch (does not exist): nope");
    /* create_branch (Spark's spark.wap.branch): the first write creates the
     * branch, its snapshot's parent main's head; main does not move */
    o.create_branch = true;
    FT_OK(floe_table_load(&audit, c, "shop.orders_wap", &o));
    int64_t n1 = fx_append_rows(audit, LOAD2, 1);
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(fx_main(t), a1);
    FT_OK(floe_table_ref(&r, t, "nope"));
    FT_EQ_INT(r.snapshot_id, n1);
    floe_snapshot_info ni;
    FT_OK(floe_table_snapshot_by_id(&ni, t, n1));
    FT_EQ_INT(ni.parent_snapshot_id, a1);
    FT_EQ_INT(fx_rows(t, n1), 4);
    int64_t n2 = fx_append_rows(audit, LOAD2, 1); /* then an ordinary branch */
    FT_OK(floe_table_snapshot_by_id(&ni, audit, n2));
    FT_EQ_INT(ni.parent_snapshot_id, n1);
    floe_table_free(audit);
    FT_OK(floe_table_drop_branch(t, "nope", false));
    o.create_branch = false;

    /* write.wap.enabled + wap.id: staged, then published by cherry-pick */
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.wap.enabled", "true");
    FT_OK(floe_table_update_properties(t, &p, NULL, 0));
    floe__props_free(&p);
    floe_table_options w = FLOE_TABLE_OPTIONS_INIT;
    w.wap_id = "nightly-0921";
    floe_table *wap = NULL;
    FT_OK(floe_table_load(&wap, c, "shop.orders_wap", &w));
    int64_t staged = fx_append_rows(wap, BAD, 2);
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(fx_main(t), a1);
    FT_EQ_STR(floe_table_snapshot_summary(t, staged, "wap.id"), "nightly-0921");
    FT_EQ_INT(fx_rows(t, staged), 5);
    FT_OK(floe_table_cherrypick_snapshot(NULL, NULL, t, staged));
    FT_EQ_INT(fx_main(t), staged);
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, staged) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID,
              "Duplicate request to cherry pick wap id that was published already: nightly-0921");
    floe_table_free(wap);

    /* not a fast-forward: main moved after staging; the pick is a new
     * snapshot re-adding the staged files, linked by source-snapshot-id */
    w.wap_id = "nightly-0922";
    FT_OK(floe_table_load(&wap, c, "shop.orders_wap", &w));
    int64_t staged2 = fx_append_rows(wap, LOAD2, 1);
    floe_table_free(wap);
    FT_OK(floe_table_refresh(t));
    int64_t head = fx_append_rows(t, LOAD1, 2);
    int64_t rows_before = fx_rows(t, head);
    int64_t cur = 0;
    FT_OK(floe_table_cherrypick_snapshot(&prev, &cur, t, staged2));
    FT_EQ_INT(prev, head);
    FT_CHECK(cur != staged2 && cur == fx_main(t));
    floe_snapshot_info ci;
    FT_OK(floe_table_snapshot_by_id(&ci, t, cur));
    FT_EQ_INT(ci.parent_snapshot_id, head);
    FT_EQ_STR(ci.operation, "append");
    char idtext[24];
    snprintf(idtext, sizeof idtext, "%lld", (long long)staged2);
    FT_EQ_STR(floe_table_snapshot_summary(t, cur, "source-snapshot-id"), idtext);
    FT_EQ_STR(floe_table_snapshot_summary(t, cur, "published-wap-id"), "nightly-0922");
    FT_EQ_STR(floe_table_snapshot_summary(t, cur, "added-records"), "1");
    FT_EQ_INT(fx_rows(t, cur), rows_before + 1);
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, staged2) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID,
              "Duplicate request to cherry pick wap id that was published already: nightly-0922");

    /* a plain staged append (no wap.id) picked twice */
    floe_props off = FLOE_PROPS_INIT;
    floe__props_set(&off, "write.wap.enabled", "false");
    FT_OK(floe_table_update_properties(t, &off, NULL, 0));
    floe__props_free(&off);
    FT_OK(floe_table_create_branch(t, "side", FLOE_REF_CREATE, NULL));
    floe_table_options so = FLOE_TABLE_OPTIONS_INIT;
    so.branch = "side";
    floe_table *side = NULL;
    FT_OK(floe_table_load(&side, c, "shop.orders_wap", &so));
    int64_t sp = fx_append_rows(side, LOAD2, 1);
    floe_table_free(side);
    FT_OK(floe_table_refresh(t));
    fx_append_rows(t, LOAD2, 1);
    FT_OK(floe_table_cherrypick_snapshot(NULL, &cur, t, sp));
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, sp) == FLOE_EINVALID);
    char msg[200];
    snprintf(msg, sizeof msg, "Cannot cherrypick snapshot %lld: already picked to create ancestor %lld",
             (long long)sp, (long long)cur);
    FT_ERR_IS(FLOE_EINVALID, msg);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* ---------------------------------------------------------------- crash safety */

typedef struct refs {
    int n;
    char names[256][600];
} refs;

static void add_ref(refs *r, const char *s)
{
    if (r->n < 256)
        snprintf(r->names[r->n++], sizeof r->names[0], "%s", s);
}

/* Every file the current metadata reaches (metadata-log, manifest lists,
 * manifests, data files). */
static void reachable(floe_table *t, refs *r)
{
    add_ref(r, floe_table_metadata_location(t));
    for (size_t i = 0; i < t->metadata->n_metadata_log; i++)
        add_ref(r, t->metadata->metadata_log[i].metadata_file);
    for (size_t i = 0; i < t->metadata->nsnapshots; i++) {
        const char *lp = floe__table_manifest_list(t, &t->metadata->snapshots[i]);
        add_ref(r, lp);
        floe_buf lb = FLOE_BUF_INIT;
        floe_manifest_list *l = NULL;
        if (fx_read_list(t, lp, &lb, &l) == 0) {
            for (size_t k = 0; k < l->nentries; k++) {
                add_ref(r, l->entries[k].manifest_path);
                floe_buf mb = FLOE_BUF_INIT;
                floe_manifest *m = NULL;
                if (floe__io_read_all(floe_table_io(t), l->entries[k].manifest_path, 1 << 24,
                                      &mb) == 0 &&
                    floe_manifest_read(&m, (const uint8_t *)mb.ptr, mb.len, "m",
                                       &l->entries[k]) == 0)
                    for (size_t e = 0; e < m->nentries; e++)
                        add_ref(r, m->entries[e].data_file.file_path);
                floe_manifest_free(m);
                floe__buf_free(&mb);
            }
        }
        floe_manifest_list_free(l);
        floe__buf_free(&lb);
    }
}

static int orphan_cb(const floe_file_info *info, void *p)
{
    refs *r = ((refs **)p)[0];
    int *orphans = ((int **)p)[1];
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->names[i], info->uri) == 0)
            return 0;
    ++*orphans;
    return 0;
}

static int count_orphans(floe_table *t)
{
    static refs r;
    r.n = 0;
    reachable(t, &r);
    int orphans = 0;
    void *payload[2] = {&r, &orphans};
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/", floe_table_location(t));
    floe_fileio_list(floe_table_io(t), prefix, orphan_cb, payload);
    return orphans;
}

static void append_fault_loop(bool after)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t0 = NULL;
    FT_OK(fx_create(&t0, c, "shop.crash", NULL));
    fx_append_rows(t0, LOAD1, 2);
    floe_table_free(t0);
    floe_fileio *local = NULL, *io = NULL;
    FT_OK(floe_fileio_local_new(&local));
    FT_OK(floe__fileio_fault_new(&io, local, NULL));
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = io;
    long n;
    for (n = 1; n < 200; n++) {
        floe_table *t = NULL;
        FT_OK(floe_table_load(&t, c, "shop.crash", &o));
        int64_t before_rows = fx_rows(t, fx_main(t));
        floe_fault_options f = FLOE_FAULT_OPTIONS_INIT;
        f.fail_nth = n;
        f.after = after;
        floe__fileio_fault_set(io, &f);
        floe_append *a = NULL;
        struct ArrowArray arr;
        int rc = floe_append_new(&a, t);
        if (rc == 0)
            rc = fx_batch(t, LOAD2, 1, &arr);
        if (rc == 0) {
            rc = floe_append_write(a, &arr);
            arr.release(&arr);
        }
        if (rc == 0)
            rc = floe_append_commit(NULL, a);
        floe_append_free(a);
        long injected = floe__fileio_fault_injected(io);
        floe__fileio_fault_set(io, NULL);
        floe_table *check = NULL;
        FT_OK(floe_table_load(&check, c, "shop.crash", NULL));
        int64_t now_rows = fx_rows(check, fx_main(check));
        if (rc == 0)
            FT_EQ_INT(now_rows, before_rows + 1);
        else if (rc != FLOE_ECOMMITUNKNOWN)
            FT_EQ_INT(now_rows, before_rows);
        if (rc != FLOE_ECOMMITUNKNOWN && !after)
            FT_EQ_INT(count_orphans(check), 0);
        floe_table_free(check);
        floe_table_free(t);
        if (injected == 0) {
            FT_OK(rc);
            break;
        }
    }
    FT_CHECK(n > 8); /* data file, manifest, list, metadata: several steps each */
    floe_fileio_free(io);
    floe_catalog_free(c);
}

static void test_append_faults(void)
{
    append_fault_loop(false);
}

static void test_append_faults_after(void)
{
    append_fault_loop(true);
}

static const char *g_kill_step;

static void kill_hook(const char *step)
{
    if (g_kill_step && strcmp(step, g_kill_step) == 0)
        raise(SIGKILL);
}

/* SIGKILL a child appending at each commit step: the table loads at the
 * old or the new state, only unreferenced files are left, and the next
 * append works. */
static void test_append_sigkill(void)
{
    const char *steps[] = {"write-metadata", "swap", "committed"};
    for (size_t i = 0; i < FT_N(steps); i++) {
        floe_catalog *c = fx_catalog();
        FT_ASSERT(c);
        char ident[64];
        snprintf(ident, sizeof ident, "shop.kill%zu", i);
        floe_table *t = NULL;
        FT_OK(fx_create(&t, c, ident, NULL));
        fx_append_rows(t, LOAD1, 2);
        floe_table_free(t);
        pid_t pid = fork();
        if (pid == 0) {
            floe_table *ct = NULL;
            if (floe_table_load(&ct, c, ident, NULL) < 0)
                _exit(2);
            g_kill_step = steps[i];
            floe__table_set_step_hook(kill_hook);
            fx_append_rows(ct, LOAD2, 1);
            _exit(3);
        }
        int st = 0;
        FT_ASSERT(waitpid(pid, &st, 0) == pid);
        FT_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
        FT_OK(floe_table_load(&t, c, ident, NULL));
        bool after_swap = strcmp(steps[i], "committed") == 0;
        FT_EQ_INT(fx_rows(t, fx_main(t)), after_swap ? 3 : 2);
        /* before the swap: data file, manifest, list (and at "swap" the
         * metadata file) are unreferenced; after it nothing is */
        int orphans = count_orphans(t);
        FT_EQ_INT(orphans, after_swap ? 0 : strcmp(steps[i], "swap") == 0 ? 4 : 3);
        int64_t s = fx_append_rows(t, LOAD2, 1);
        FT_CHECK(s > 0);
        FT_EQ_INT(fx_rows(t, s), after_swap ? 4 : 3);
        floe_table_free(t);
        floe_catalog_free(c);
    }
}

/* Out of memory at every allocation of an append (data file, manifest,
 * manifest list, metadata, swap): FLOE_ENOMEM, nothing leaked (ASan), the
 * table at the old or the new state, and eventually the append succeeds. */
static void test_append_oom(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    /* in-memory objects: the loop runs the whole append hundreds of times */
    floe_fileio *mem = NULL;
    FT_OK(floe_fileio_memory_new(&mem));
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = mem;
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = ORDERS_SCHEMA;
    co.partition_spec_json = ORDERS_SPEC;
    co.location = "mem://wh/shop.db/oom";
    floe_table *t = NULL;
    FT_OK(floe_table_create(&t, c, "shop.oom", &co, &o));
    fx_append_rows(t, LOAD1, 2);
    long n;
    int64_t rows = fx_rows(t, fx_main(t));
    for (n = 1; n < 100000; n++) {
        floe_append *a = NULL;
        struct ArrowArray arr;
        memset(&arr, 0, sizeof arr);
        int rc = fx_batch(t, LOAD2, 1, &arr);
        FT_ASSERT(rc == 0);
        floe__alloc_fail_at(n);
        rc = floe_append_new(&a, t);
        if (rc == 0)
            rc = floe_append_write(a, &arr);
        if (rc == 0)
            rc = floe_append_commit(NULL, a);
        floe_append_free(a);
        floe__alloc_fail_at(0);
        arr.release(&arr);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
            break;
        }
        FT_OK(floe_table_refresh(t));
        int64_t now = fx_rows(t, fx_main(t));
        FT_CHECK(now == rows || now == rows + 1);
        rows = now;
    }
    FT_CHECK(n > 50);
    FT_OK(floe_table_refresh(t));
    FT_CHECK(fx_rows(t, fx_main(t)) >= 3);
    floe_table_free(t);
    floe_fileio_free(mem);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"append_oom", test_append_oom},
    {"append_sigkill", test_append_sigkill},
    {"layout_summary", test_append_layout_summary},
    {"script1_rows", test_script1_rows},
    {"merge_append", test_merge_append},
    {"rolling", test_rolling},
    {"reapply", test_reapply},
    {"reapply_v3_row_ids", test_reapply_v3_row_ids},
    {"branch_and_wap", test_branch_and_wap},
    {"append_faults", test_append_faults},
    {"append_faults_after", test_append_faults_after},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
