/* SPDX-License-Identifier: Apache-2.0 */
/* table: create/load/drop, the seed's script 1 pointer moves (rollback,
 * history, set-current back and forth) with storage listed around every
 * move, snapshot selection, refs, fast-forward, cherry-pick, properties and
 * the metadata-log settings; every error message compared exactly. */
#include "fixture.h"

static void test_create_load(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    FT_EQ_INT(floe_table_format_version(t), 2);
    char expect_loc[4096];
    snprintf(expect_loc, sizeof expect_loc, "%s/shop.db/orders", ft_tmp("wh"));
    FT_EQ_STR(floe_table_location(t), expect_loc);
    const char *ml = floe_table_metadata_location(t);
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s/metadata/00000-", expect_loc);
    FT_CHECK(strncmp(ml, prefix, strlen(prefix)) == 0);
    FT_CHECK(strstr(ml, ".metadata.json") && !strstr(ml, ".gz."));
    FT_EQ_INT(fx_count_files(t), 1);
    FT_CHECK(!floe_table_current_snapshot(NULL, t));

    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    FT_EQ_STR(floe_table_uuid(t2), floe_table_uuid(t));
    FT_EQ_STR(floe_table_metadata_location(t2), ml);
    floe_table_free(t2);

    FT_CHECK(fx_create(NULL, c, "shop.orders", NULL) == FLOE_EEXISTS);
    FT_ERR_IS(FLOE_EEXISTS, "Table already exists: shop.orders");
    FT_CHECK(floe_table_load(&t2, c, "shop.nope", NULL) == FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Table does not exist: shop.nope");

    /* format-version=1 and gzip-compressed metadata */
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "format-version", "1");
    floe__props_set(&p, "write.metadata.compression-codec", "gzip");
    floe_table *v1 = NULL;
    FT_OK(fx_create(&v1, c, "shop.v1", &p));
    FT_EQ_INT(floe_table_format_version(v1), 1);
    FT_CHECK(strstr(floe_table_metadata_location(v1), ".gz.metadata.json") != NULL);
    FT_CHECK(floe_table_property(v1, "format-version") == NULL);
    int64_t s1 = fx_append(v1, 2);
    FT_CHECK(strstr(floe_table_metadata_location(v1), "/00001-") != NULL);
    floe_table *v1b = NULL;
    FT_OK(floe_table_load(&v1b, c, "shop.v1", NULL));
    FT_EQ_INT(fx_main(v1b), s1);
    floe_table_free(v1b);
    floe_table_free(v1);
    floe__props_set(&p, "format-version", "7");
    FT_CHECK(fx_create(NULL, c, "shop.v7", &p) == FLOE_EINVALID);
    floe__props_free(&p);

    /* bad schema: nothing registered, nothing written */
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = "{\"type\":\"struct\",\"fields\":[{\"id\":1}]}";
    FT_CHECK(floe_table_create(NULL, c, "shop.bad", &co, NULL) < 0);
    FT_CHECK(floe_catalog_load_table(&(char *){NULL}, NULL, c, "shop.bad") == FLOE_ENOTFOUND);

    floe_table_free(t);
    floe_catalog_free(c);
}

/* Two catalogs (catalog_name ice and local) on one catalog.db and one
 * warehouse: the second CREATE of shop.orders would land in the first's
 * directory. It is refused with Java's HadoopTables wording, unless the
 * reserved property allows it (and that property is not stored). */
static void test_create_location_taken(void)
{
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh-shared");
    o.name = "ice";
    floe_catalog *ice = NULL, *local = NULL;
    FT_OK(floe_catalog_open_sql(&ice, ft_tmp("shared.db"), &o));
    o.name = "local";
    FT_OK(floe_catalog_open_sql(&local, ft_tmp("shared.db"), &o));
    FT_OK(floe_catalog_create_namespace(ice, "shop", NULL));
    FT_OK(floe_catalog_create_namespace(local, "shop", NULL));
    floe_table *a = NULL, *b = NULL;
    FT_OK(fx_create(&a, ice, "shop.orders", NULL));
    fx_append(a, 1);
    int nfiles = fx_count_files(a);
    char msg[4200];
    snprintf(msg, sizeof msg, "Table already exists at location: %s", floe_table_location(a));
    FT_CHECK(fx_create(&b, local, "shop.orders", NULL) == FLOE_EEXISTS);
    FT_ERR_IS(FLOE_EEXISTS, msg);
    FT_CHECK(floe_catalog_load_table(&(char *){NULL}, NULL, local, "shop.orders") == FLOE_ENOTFOUND);
    FT_EQ_INT(fx_count_files(a), nfiles); /* nothing written at the location */
    /* an explicit LOCATION there is refused the same way */
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = ORDERS_SCHEMA;
    co.location = floe_table_location(a);
    FT_CHECK(floe_table_create(NULL, local, "shop.other", &co, NULL) == FLOE_EEXISTS);
    FT_ERR_IS(FLOE_EEXISTS, msg);
    /* the documented override */
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, FLOE_ALLOW_EXISTING_LOCATION, "true");
    FT_OK(fx_create(&b, local, "shop.orders", &p));
    FT_EQ_STR(floe_table_location(b), floe_table_location(a));
    FT_CHECK(floe_table_property(b, FLOE_ALLOW_EXISTING_LOCATION) == NULL);
    floe__props_free(&p);
    floe_table_free(a);
    floe_table_free(b);
    floe_catalog_free(ice);
    floe_catalog_free(local);
}

/* The seed's script 1: three loads, rollback, forward-rollback error,
 * set-current back and forth; 4 history entries for 3 snapshots. */
static void test_script1(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    int64_t good1 = fx_append(t, 2);
    fx_sleep_ms(3);
    int64_t good2 = fx_append(t, 1);
    fx_sleep_ms(3);
    int64_t bad = fx_append(t, 2);
    FT_ASSERT(good1 && good2 && bad);
    floe_snapshot_info bad_info;
    FT_OK(floe_table_snapshot_by_id(&bad_info, t, bad));
    FT_EQ_STR(floe_table_snapshot_summary(t, bad, "total-records"), "5");
    FT_EQ_INT(fx_count_files(t), 4);
    fx_sleep_ms(3);

    int64_t prev = 0, cur = 0;
    FT_OK(floe_table_rollback_to_snapshot(&prev, &cur, t, good2));
    FT_EQ_INT(prev, bad);
    FT_EQ_INT(cur, good2);
    FT_EQ_INT(fx_count_files(t), 5); /* exactly one metadata.json, nothing else */
    FT_CHECK(strstr(floe_table_metadata_location(t), "/metadata/00004-") != NULL);
    FT_EQ_INT(fx_main(t), good2);
    FT_EQ_STR(floe_table_snapshot_summary(t, fx_main(t), "total-records"), "3");

    /* history: 4 entries for 3 snapshots, the bad one not a current ancestor */
    FT_EQ_INT(floe_table_snapshot_count(t), 3);
    FT_ASSERT(floe_table_history_count(t) == 4);
    int64_t ids[4] = {good1, good2, bad, good2};
    bool anc[4] = {true, true, false, true};
    int64_t last_ts = 0;
    for (size_t i = 0; i < 4; i++) {
        floe_history_entry h;
        floe_table_history_at(&h, t, i);
        FT_EQ_INT(h.snapshot_id, ids[i]);
        FT_EQ_INT(h.is_current_ancestor, anc[i]);
        FT_CHECK(h.made_current_at_ms >= last_ts);
        last_ts = h.made_current_at_ms;
    }
    floe_history_entry h0;
    floe_table_history_at(&h0, t, 0);
    FT_CHECK(!h0.has_parent);

    /* newest by timestamp is the abandoned snapshot, not main */
    int64_t newest = 0, newest_ts = 0;
    for (size_t i = 0; i < floe_table_snapshot_count(t); i++) {
        floe_snapshot_info s;
        floe_table_snapshot_at(&s, t, i);
        if (s.timestamp_ms >= newest_ts) {
            newest_ts = s.timestamp_ms;
            newest = s.snapshot_id;
        }
    }
    FT_EQ_INT(newest, bad);
    FT_CHECK(newest != fx_main(t));

    /* TIMESTAMP AS OF inside the bad window still selects the bad snapshot */
    floe_snapshot_info at;
    FT_OK(floe_table_snapshot_as_of_time(&at, t, bad_info.timestamp_ms));
    FT_EQ_INT(at.snapshot_id, bad);
    FT_OK(floe_table_snapshot_as_of_time(&at, t, bad_info.timestamp_ms - 1));
    FT_EQ_INT(at.snapshot_id, good2);

    /* going forward again */
    char msg[200];
    FT_CHECK(floe_table_rollback_to_snapshot(NULL, NULL, t, bad) == FLOE_EINVALID);
    snprintf(msg, sizeof msg,
             "Cannot roll back to snapshot, not an ancestor of the current state: %lld",
             (long long)bad);
    FT_ERR_IS(FLOE_EINVALID, msg);
    FT_EQ_INT(fx_count_files(t), 5);
    FT_OK(floe_table_set_current_snapshot(&prev, &cur, t, bad));
    FT_EQ_INT(prev, good2);
    FT_EQ_INT(cur, bad);
    FT_EQ_STR(floe_table_snapshot_summary(t, fx_main(t), "total-records"), "5");
    FT_EQ_INT(fx_count_files(t), 6);
    FT_OK(floe_table_set_current_snapshot(NULL, NULL, t, good2));
    FT_EQ_INT(fx_main(t), good2);
    FT_EQ_INT(fx_count_files(t), 7);
    FT_EQ_INT(floe_table_history_count(t), 6);
    /* metadata_log_entries = metadata-log + current = 7 files written */
    FT_CHECK(strstr(floe_table_metadata_location(t), "/metadata/00006-") != NULL);
    floe_table *re = NULL;
    FT_OK(floe_table_load(&re, c, "shop.orders", NULL));
    FT_EQ_INT(re->metadata->n_metadata_log + 1, 7);
    floe_table_free(re);

    /* setting main to where it already is writes nothing (Java: no-op) */
    FT_OK(floe_table_set_current_snapshot(&prev, &cur, t, good2));
    FT_EQ_INT(prev, good2);
    FT_EQ_INT(fx_count_files(t), 7);

    /* rollback_to_timestamp: latest ancestor strictly older than ts */
    FT_OK(floe_table_rollback_to_timestamp(&prev, &cur, t, bad_info.timestamp_ms));
    FT_EQ_INT(cur, good2);
    floe_snapshot_info g1;
    FT_OK(floe_table_snapshot_by_id(&g1, t, good1));
    FT_CHECK(floe_table_rollback_to_timestamp(NULL, NULL, t, g1.timestamp_ms) == FLOE_EINVALID);
    snprintf(msg, sizeof msg, "Cannot roll back, no valid snapshot older than: %lld",
             (long long)g1.timestamp_ms);
    FT_ERR_IS(FLOE_EINVALID, msg);
    FT_OK(floe_table_rollback_to_timestamp(&prev, &cur, t, g1.timestamp_ms + 1));
    FT_EQ_INT(prev, good2);
    FT_EQ_INT(cur, good1);

    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_selection_errors(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    int64_t s1 = fx_append(t, 2);
    int64_t s2 = fx_append(t, 1);
    floe_snapshot_info i;
    FT_CHECK(floe_table_snapshot_by_id(&i, t, 42) == FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot find snapshot with ID 42");
    FT_CHECK(floe_table_snapshot_by_ref(&i, t, "nope") == FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot find matching snapshot ID or reference name for version nope");
    FT_OK(floe_table_snapshot_by_ref(&i, t, "main"));
    FT_EQ_INT(i.snapshot_id, s2);
    FT_CHECK(floe_table_snapshot_as_of_time(&i, t, 1577836800000LL) == FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot find a snapshot older than 2020-01-01T00:00:00+00:00");
    FT_CHECK(floe_table_snapshot_as_of_time(&i, t, 1577836800123LL) == FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot find a snapshot older than 2020-01-01T00:00:00.123+00:00");
    FT_EQ_INT(floe_table_is_ancestor_of(t, s2, s1), 1);
    FT_EQ_INT(floe_table_is_ancestor_of(t, s1, s2), 0);
    FT_EQ_INT(floe_table_is_ancestor_of(t, s2, s2), 1);
    FT_CHECK(floe_table_rollback_to_snapshot(NULL, NULL, t, 42) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot roll back to unknown snapshot id: 42");
    FT_CHECK(floe_table_set_current_snapshot(NULL, NULL, t, 42) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot roll back to unknown snapshot id: 42");
    FT_CHECK(floe_table_set_current_ref(NULL, NULL, t, "nope") == FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot find matching snapshot ID or reference name for version nope");
    FT_EQ_INT(fx_count_files(t), 3);
    floe_table_free(t);
    floe_catalog_free(c);
}

static int count_cb(const floe_snapshot_info *s, void *p)
{
    (void)s;
    ++*(int *)p;
    return 0;
}

static void test_refs(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    FT_CHECK(floe_table_create_tag(t, "x", FLOE_REF_CREATE, NULL) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID,
              "Cannot complete create or replace tag operation on shop.orders, main has no snapshot");
    int64_t s1 = fx_append(t, 2);
    int64_t s2 = fx_append(t, 1);
    int files = fx_count_files(t);

    floe_ref_options o = FLOE_REF_OPTIONS_INIT;
    o.has_min_snapshots_to_keep = true;
    o.min_snapshots_to_keep = 3;
    o.has_max_snapshot_age_ms = true;
    o.max_snapshot_age_ms = 2 * 86400000LL;
    o.has_max_ref_age_ms = true;
    o.max_ref_age_ms = 7 * 86400000LL;
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE, &o));
    FT_EQ_INT(fx_count_files(t), files + 1);
    floe_ref_info r;
    FT_OK(floe_table_ref(&r, t, "audit"));
    FT_EQ_INT(r.snapshot_id, s2);
    FT_CHECK(!r.is_tag && r.has_min_snapshots_to_keep && r.min_snapshots_to_keep == 3);
    FT_EQ_INT(r.max_snapshot_age_ms, 2 * 86400000LL);
    FT_EQ_INT(r.max_ref_age_ms, 7 * 86400000LL);

    FT_CHECK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE, NULL) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Ref audit already exists");
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE_IF_NOT_EXISTS, NULL));
    FT_EQ_INT(fx_count_files(t), files + 1);
    FT_CHECK(floe_table_create_branch(t, "nope", FLOE_REF_REPLACE, NULL) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Branch does not exist: nope");

    /* REPLACE ... AS OF VERSION keeps the retention settings */
    floe_ref_options asof = FLOE_REF_OPTIONS_INIT;
    asof.has_snapshot_id = true;
    asof.snapshot_id = s1;
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_REPLACE, &asof));
    FT_OK(floe_table_ref(&r, t, "audit"));
    FT_EQ_INT(r.snapshot_id, s1);
    FT_EQ_INT(r.min_snapshots_to_keep, 3);
    FT_OK(floe_table_create_branch(t, "dev", FLOE_REF_CREATE_OR_REPLACE, &asof));
    FT_OK(floe_table_create_branch(t, "dev", FLOE_REF_CREATE_OR_REPLACE, NULL));
    FT_OK(floe_table_ref(&r, t, "dev"));
    FT_EQ_INT(r.snapshot_id, s2);
    asof.snapshot_id = 42;
    FT_CHECK(floe_table_create_branch(t, "b42", FLOE_REF_CREATE, &asof) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot set b42 to unknown snapshot: 42");

    /* tags */
    floe_ref_options tg = FLOE_REF_OPTIONS_INIT;
    tg.has_snapshot_id = true;
    tg.snapshot_id = s1;
    tg.has_max_ref_age_ms = true;
    tg.max_ref_age_ms = 365 * 86400000LL;
    FT_OK(floe_table_create_tag(t, "close-2026-09", FLOE_REF_CREATE, &tg));
    FT_OK(floe_table_ref(&r, t, "close-2026-09"));
    FT_CHECK(r.is_tag && r.snapshot_id == s1 && r.max_ref_age_ms == 365 * 86400000LL);
    floe_snapshot_info si;
    FT_OK(floe_table_snapshot_by_ref(&si, t, "close-2026-09"));
    FT_EQ_INT(si.snapshot_id, s1);
    tg.has_min_snapshots_to_keep = true;
    tg.min_snapshots_to_keep = 1;
    FT_CHECK(floe_table_create_tag(t, "t2", FLOE_REF_CREATE, &tg) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Tags do not support setting minSnapshotsToKeep");
    FT_CHECK(floe_table_create_tag(t, "audit", FLOE_REF_REPLACE, NULL) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Ref audit is a branch not a tag");
    FT_CHECK(floe_table_create_tag(t, "nope", FLOE_REF_REPLACE, NULL) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Tag does not exist: nope");
    FT_CHECK(floe_table_create_branch(t, "close-2026-09", FLOE_REF_REPLACE, NULL) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Ref close-2026-09 is a tag not a branch");
    o = (floe_ref_options)FLOE_REF_OPTIONS_INIT;
    o.has_min_snapshots_to_keep = true;
    o.min_snapshots_to_keep = 0;
    FT_CHECK(floe_table_create_branch(t, "z", FLOE_REF_CREATE, &o) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Min snapshots to keep must be greater than 0");

    /* drops */
    int before = fx_count_files(t);
    FT_CHECK(floe_table_drop_branch(t, "main", false) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot remove main branch");
    FT_CHECK(floe_table_drop_branch(t, "main", true) == FLOE_EINVALID);
    FT_CHECK(floe_table_drop_branch(t, "nope", false) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Branch does not exist: nope");
    FT_OK(floe_table_drop_branch(t, "nope", true));
    FT_CHECK(floe_table_drop_tag(t, "nope", false) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Tag does not exist: nope");
    FT_CHECK(floe_table_drop_branch(t, "close-2026-09", false) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Ref close-2026-09 is a tag not a branch");
    FT_CHECK(floe_table_drop_tag(t, "audit", false) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Ref audit is a branch not a tag");
    FT_EQ_INT(fx_count_files(t), before);
    FT_OK(floe_table_drop_branch(t, "audit", false));
    FT_OK(floe_table_drop_tag(t, "close-2026-09", false));
    FT_EQ_INT(fx_count_files(t), before + 2);
    FT_CHECK(floe_table_ref(&r, t, "audit") == FLOE_ENOTFOUND);
    FT_EQ_INT(floe_table_ref_count(t), 2); /* main, dev */

    int n = 0;
    FT_OK(floe_table_ancestors_of(t, s2, count_cb, &n));
    FT_EQ_INT(n, 2);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* Script 2 step 3: write-audit-publish with a branch and fast_forward. */
static void test_fast_forward(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders_wap", NULL));
    int64_t m1 = fx_append(t, 3);
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE, NULL));
    fx_synth s = {.branch = "audit", .added = 2};
    FT_OK(floe__table_commit(t, fx_synth_prepare, &s));
    int64_t a1 = s.id;
    FT_EQ_INT(fx_main(t), m1); /* the branch write landed only on the branch */
    fx_synth fix = {.branch = "audit", .added = -1, .operation = "delete"};
    FT_OK(floe__table_commit(t, fx_synth_prepare, &fix));
    int64_t a2 = fix.id;
    FT_CHECK(a1 != a2);
    int files = fx_count_files(t);
    int64_t prev = 0, upd = 0;
    FT_OK(floe_table_fast_forward(&prev, &upd, t, "main", "audit"));
    FT_EQ_INT(prev, m1);
    FT_EQ_INT(upd, a2);
    FT_EQ_INT(fx_main(t), a2);
    FT_EQ_INT(fx_count_files(t), files + 1);
    FT_EQ_STR(floe_table_snapshot_summary(t, fx_main(t), "total-records"), "4");

    /* main moves on its own: fast-forward no longer possible */
    FT_OK(floe_table_create_branch(t, "audit2", FLOE_REF_CREATE, NULL));
    fx_synth s2 = {.branch = "audit2", .added = 1};
    FT_OK(floe__table_commit(t, fx_synth_prepare, &s2));
    fx_append(t, 1);
    FT_CHECK(floe_table_fast_forward(NULL, NULL, t, "main", "audit2") == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot fast-forward: main is not an ancestor of audit2");
    FT_CHECK(floe_table_fast_forward(NULL, NULL, t, "nope", "audit2") == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Target branch does not exist: nope");
    FT_CHECK(floe_table_fast_forward(NULL, NULL, t, "main", "nope") == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Ref does not exist: nope");
    floe_table_free(t);
    floe_catalog_free(c);
}

/* wap.id staging and cherry-pick (fast-forward case). */
static void test_cherrypick(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders_wap", NULL));
    int64_t m1 = fx_append(t, 3);
    fx_synth st = {.added = 2, .stage = true, .wap_id = "w-123"};
    FT_OK(floe__table_commit(t, fx_synth_prepare, &st));
    FT_EQ_INT(fx_main(t), m1); /* staged, not current */
    FT_EQ_STR(floe_table_snapshot_summary(t, st.id, "wap.id"), "w-123");
    int files = fx_count_files(t);
    int64_t prev = 0, cur = 0;
    FT_OK(floe_table_cherrypick_snapshot(&prev, &cur, t, st.id));
    FT_EQ_INT(prev, m1);
    FT_EQ_INT(cur, st.id);
    FT_EQ_INT(fx_main(t), st.id);
    FT_EQ_INT(fx_count_files(t), files + 1);
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, st.id) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID,
              "Duplicate request to cherry pick wap id that was published already: w-123");
    char msg[160];
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, m1) == FLOE_EINVALID);
    snprintf(msg, sizeof msg, "Cannot cherrypick snapshot %lld: already an ancestor",
             (long long)m1);
    FT_ERR_IS(FLOE_EINVALID, msg);
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, 42) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot cherry-pick unknown snapshot ID: 42");
    /* a staged delete whose parent is not the head */
    fx_synth del = {.added = 0, .stage = true, .operation = "delete"};
    FT_OK(floe__table_commit(t, fx_synth_prepare, &del));
    fx_append(t, 1);
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, del.id) == FLOE_EINVALID);
    snprintf(msg, sizeof msg,
             "Cannot cherry-pick snapshot %lld: not append, dynamic overwrite, or fast-forward",
             (long long)del.id);
    FT_ERR_IS(FLOE_EINVALID, msg);
    /* a staged append on an older parent needs its manifests (synthetic
     * snapshots have none: the read fails, nothing changes) */
    fx_synth old = {.added = 1, .stage = true};
    FT_OK(floe__table_commit(t, fx_synth_prepare, &old));
    int64_t head = fx_append(t, 1);
    files = fx_count_files(t);
    FT_CHECK(floe_table_cherrypick_snapshot(NULL, NULL, t, old.id) == FLOE_ENOTFOUND);
    FT_EQ_INT(fx_main(t), head);
    FT_EQ_INT(fx_count_files(t), files);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_properties_and_logs(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.metadata.previous-versions-max", "2");
    floe__props_set(&p, "write.metadata.delete-after-commit.enabled", "true");
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.logs", &p));
    floe__props_free(&p);
    for (int i = 0; i < 5; i++)
        fx_append(t, 1);
    FT_EQ_INT(t->metadata->n_metadata_log, 2);
    /* only the current file and the two the log names remain */
    FT_EQ_INT(fx_count_files(t), 3);
    for (size_t i = 0; i < t->metadata->n_metadata_log; i++)
        FT_EQ_INT(floe_fileio_exists(floe_table_io(t), t->metadata->metadata_log[i].metadata_file),
                  1);

    floe_props set = FLOE_PROPS_INIT;
    floe__props_set(&set, "owner", "ops");
    floe__props_set(&set, "write.metadata.delete-after-commit.enabled", "false");
    FT_OK(floe_table_update_properties(t, &set, NULL, 0));
    floe__props_free(&set);
    FT_EQ_STR(floe_table_property(t, "owner"), "ops");
    const char *rm[] = {"owner"};
    FT_OK(floe_table_update_properties(t, NULL, rm, 1));
    FT_CHECK(floe_table_property(t, "owner") == NULL);
    FT_EQ_INT(fx_count_files(t), 5); /* deletion now disabled (the new metadata decides, as Java) */

    /* drop + purge removes every metadata file it reaches */
    floe_fileio *io = NULL;
    FT_OK(floe_fileio_local_new(&io));
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/", floe_table_location(t));
    floe_table_free(t);
    FT_OK(floe_table_drop(c, "shop.logs", true, NULL));
    int n = 0;
    FT_OK(floe_fileio_list(io, prefix, fx_count_cb, &n));
    FT_EQ_INT(n, 2); /* the two files that fell out of the log after deletion was disabled */
    floe_fileio_free(io);
    FT_CHECK(floe_table_load(&t, c, "shop.logs", NULL) == FLOE_ENOTFOUND);
    floe_catalog_free(c);
}

/* Static requirements (the REST model): a failing assert is final. */
typedef struct req_payload {
    int64_t expect;
} req_payload;

static int req_prepare(const floe_table_metadata *base, floe_table_change *c, void *p)
{
    (void)base;
    req_payload *r = p;
    floe_requirement *q = floe__change_require(c, FLOE_REQ_ASSERT_REF_SNAPSHOT_ID);
    if (!q)
        return floe__error_nomem();
    q->ref = "main";
    q->has_snapshot_id = true;
    q->snapshot_id = r->expect;
    floe_table_update *u = floe__change_update(c, FLOE_UPD_SET_PROPERTIES);
    static floe_kv kv[] = {{"k", "v"}};
    if (!u)
        return floe__error_nomem();
    u->kv = kv;
    u->nkv = 1;
    return 0;
}

static void test_requirements(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.req", NULL));
    int64_t s1 = fx_append(t, 1);
    int files = fx_count_files(t);
    req_payload r = {.expect = 1};
    FT_CHECK(floe__table_commit(t, req_prepare, &r) == FLOE_ECONFLICT);
    char msg[160];
    snprintf(msg, sizeof msg, "Requirement failed: branch main has changed: expected id 1 != %lld",
             (long long)s1);
    FT_ERR_IS(FLOE_ECONFLICT, msg);
    FT_EQ_INT(fx_count_files(t), files);
    r.expect = s1;
    FT_OK(floe__table_commit(t, req_prepare, &r));
    FT_EQ_STR(floe_table_property(t, "k"), "v");
    floe_table_free(t);
    floe_catalog_free(c);
}

/* Out of memory at every allocation of a commit: FLOE_ENOMEM, the table
 * unchanged or committed, nothing leaked (ASan), and the next commit works. */
static void test_oom(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.oom", NULL));
    int64_t s1 = fx_append(t, 1);
    int64_t s2 = fx_append(t, 1);
    int64_t target = s1;
    bool done = false;
    for (long n = 1; n < 100000 && !done; n++) {
        floe__alloc_fail_at(n);
        int rc = floe_table_set_current_snapshot(NULL, NULL, t, target);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            done = fx_main(t) == target;
            FT_CHECK(done);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
            break;
        }
        /* the handle may have lost its state only if the swap happened */
        FT_OK(floe_table_refresh(t));
        if (fx_main(t) == target)
            target = target == s1 ? s2 : s1;
    }
    FT_CHECK(done);
    floe__alloc_fail_at(0);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"oom", test_oom},
    {"create_load", test_create_load},
    {"create_location_taken", test_create_location_taken},
    {"script1", test_script1},
    {"selection_errors", test_selection_errors},
    {"refs", test_refs},
    {"fast_forward", test_fast_forward},
    {"cherrypick", test_cherrypick},
    {"properties_and_logs", test_properties_and_logs},
    {"requirements", test_requirements},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
