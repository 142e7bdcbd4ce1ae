/* SPDX-License-Identifier: Apache-2.0 */
/* Concurrent row-level writers on two handles of one table: overlapping
 * DELETE/UPDATE -> the second fails with Java's conflict message and
 * changes nothing (no snapshot, no file left behind); non-overlapping
 * changes and a concurrent append both commit; isolation levels; no lost
 * update over 100 rounds in both modes. */
#include "rlfixture.h"
#include "scan/scan.h"

#include <unistd.h>

static floe_rowlevel *start(floe_table *t, floe_rowlevel_kind kind, const char *filter,
                            floe_isolation iso)
{
    floe_rowlevel *op = NULL;
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    o.kind = kind;
    o.isolation = iso;
    if (floe_rowlevel_new(&op, t, &o) < 0 || floe_rowlevel_delete_where(op, filter) < 0) {
        ft_fail(__FILE__, __LINE__, "start: %s", ft_floe_err());
        floe_rowlevel_free(op);
        return NULL;
    }
    return op;
}

static int add_rows(floe_rowlevel *op, floe_table *t, const fx_order *rows, size_t n)
{
    struct ArrowArray arr;
    FLOE_TRY(fx_batch(t, rows, n, &arr));
    int rc = floe_rowlevel_write(op, &arr);
    arr.release(&arr);
    return rc;
}

static void overlap(const char *mode, floe_isolation iso, const char *expect_msg)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t1 = rl_orders(c, "shop.orders", mode);
    FT_ASSERT(t1);
    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    /* writer 1: UPDATE 1001; writer 2: DELETE 1001, both from the same base */
    floe_rowlevel *a = start(t1, FLOE_ROWLEVEL_UPDATE, "order_id = 1001", iso);
    floe_rowlevel *b = start(t2, FLOE_ROWLEVEL_DELETE, "order_id = 1001", iso);
    FT_ASSERT(a && b);
    FT_OK(add_rows(a, t1, RL_1001_SHIPPED, 1));
    FT_OK(floe_rowlevel_commit(NULL, NULL, a));
    size_t nsnap = floe_table_snapshot_count(t1);
    int files = fx_count_files(t1);
    int rc = floe_rowlevel_commit(NULL, NULL, b);
    FT_EQ_INT(rc, FLOE_EINVALID);
    FT_ERR_CONTAINS(expect_msg);
    FT_ERR_CONTAINS("order_id");
    floe_rowlevel_free(b);
    floe_rowlevel_free(a);
    FT_OK(floe_table_refresh(t1));
    FT_EQ_INT((int)floe_table_snapshot_count(t1), (int)nsnap);
    FT_EQ_INT(fx_count_files(t1), files);
    RL_ROWS_EQ(t1, -1, "1001:SHIPPED,1002:PLACED,1003:PLACED,1004:PLACED");
    floe_table_free(t2);
    floe_table_free(t1);
    floe_catalog_free(c);
}

static void test_overlap_cow(void)
{
    overlap(NULL, FLOE_ISOLATION_TABLE,
            "Found conflicting files that can contain records matching");
}

static void test_overlap_mor(void)
{
    overlap("merge-on-read", FLOE_ISOLATION_TABLE,
            "Found conflicting files that can contain records matching");
}

static void test_overlap_cow_snapshot_isolation(void)
{
    overlap(NULL, FLOE_ISOLATION_SNAPSHOT,
            "Found conflicting deleted files that can contain records matching");
}

static void test_overlap_mor_snapshot_isolation(void)
{
    overlap("merge-on-read", FLOE_ISOLATION_SNAPSHOT,
            "Found new conflicting delete files that can apply to records matching");
}

static void non_overlap(const char *mode)
{
    floe_catalog *c = fx_catalog();
    floe_table *t1 = rl_orders(c, "shop.orders", mode);
    FT_ASSERT(t1);
    floe_table *t2 = NULL, *t3 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    FT_OK(floe_table_load(&t3, c, "shop.orders", NULL));
    floe_rowlevel *a = start(t1, FLOE_ROWLEVEL_DELETE, "order_id = 1004", FLOE_ISOLATION_TABLE);
    floe_rowlevel *b = start(t2, FLOE_ROWLEVEL_UPDATE, "order_id = 1001", FLOE_ISOLATION_TABLE);
    FT_ASSERT(a && b);
    FT_OK(add_rows(b, t2, RL_1001_SHIPPED, 1));
    /* a concurrent append of a row neither touches */
    static const fx_order R1005[] = {{1005, 505, 4200, "PLACED", 2026, 9, 23}};
    fx_append_rows(t3, R1005, 1);
    int64_t ida = 0, idb = 0;
    FT_OK(floe_rowlevel_commit(&idb, NULL, b));
    FT_OK(floe_rowlevel_commit(&ida, NULL, a));
    FT_CHECK(ida > 0 && idb > 0);
    floe_rowlevel_free(a);
    floe_rowlevel_free(b);
    FT_OK(floe_table_refresh(t3));
    RL_ROWS_EQ(t3, -1, "1001:SHIPPED,1002:PLACED,1003:PLACED,1005:PLACED");
    /* a concurrent append of a matching row fails a serializable delete but
     * not a snapshot-isolated one */
    for (int iso = 0; iso < 2; iso++) {
        floe_rowlevel *d = start(t1, FLOE_ROWLEVEL_DELETE, "order_id = 1003",
                                 iso ? FLOE_ISOLATION_SNAPSHOT : FLOE_ISOLATION_SERIALIZABLE);
        FT_ASSERT(d);
        FT_OK(floe_table_refresh(t3));
        fx_append_rows(t3, RL_LOAD2, 1);
        int rc = floe_rowlevel_commit(NULL, NULL, d);
        if (iso == 0) {
            FT_EQ_INT(rc, FLOE_EINVALID);
            FT_ERR_CONTAINS("Found conflicting files that can contain records matching");
        } else {
            FT_OK(rc);
        }
        floe_rowlevel_free(d);
    }
    FT_OK(floe_table_refresh(t3));
    /* serializable failed (two 1003 then); the snapshot-isolated delete
     * removed the two of its base, the third arrived concurrently */
    RL_ROWS_EQ(t3, -1, "1001:SHIPPED,1002:PLACED,1003:PLACED,1005:PLACED");
    floe_table_free(t3);
    floe_table_free(t2);
    floe_table_free(t1);
    floe_catalog_free(c);
}

static void test_non_overlap_cow(void)
{
    non_overlap(NULL);
}

static void test_non_overlap_mor(void)
{
    non_overlap("merge-on-read");
}

/* INSERT OVERWRITE of a partition: a concurrent append into that partition
 * conflicts (serializable); one into another partition does not. */
static void test_overwrite_dynamic_conflict(void)
{
    floe_catalog *c = fx_catalog();
    floe_table *t1 = rl_orders(c, "shop.orders", NULL);
    FT_ASSERT(t1);
    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    static const fx_order NEW[] = {{3001, 1, 100, "OVER", 2026, 9, 21}};
    static const fx_order OTHER[] = {{3002, 1, 100, "OTHER", 2026, 9, 24}};
    static const fx_order SAME[] = {{3003, 1, 100, "SAME", 2026, 9, 21}};
    for (int round = 0; round < 2; round++) {
        floe_rowlevel *op = NULL;
        floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
        o.kind = FLOE_ROWLEVEL_OVERWRITE_DYNAMIC;
        FT_OK(floe_rowlevel_new(&op, t1, &o));
        FT_OK(add_rows(op, t1, NEW, 1));
        FT_OK(floe_table_refresh(t2));
        fx_append_rows(t2, round ? SAME : OTHER, 1);
        int rc = floe_rowlevel_commit(NULL, NULL, op);
        if (round == 0) {
            FT_OK(rc);
        } else {
            FT_EQ_INT(rc, FLOE_EINVALID);
            FT_ERR_CONTAINS("Found conflicting files that can contain records matching");
        }
        floe_rowlevel_free(op);
    }
    FT_OK(floe_table_refresh(t1));
    RL_ROWS_EQ(t1, -1, "1001:PLACED,1002:PLACED,1004:PLACED,3001:OVER,3002:OTHER,3003:SAME");
    floe_table_free(t2);
    floe_table_free(t1);
    floe_catalog_free(c);
}

/* Two writers race to update the same row 50 times per mode: exactly one
 * wins each round, the loser retries from the new state, and the final
 * value is the retry's (no update is ever lost or applied twice). A fresh
 * table every 10 rounds keeps the manifest count (never merged by
 * row-level commits) and so the test's cost bounded. */
static void test_no_lost_update(void)
{
    floe_catalog *c = fx_catalog();
    for (int m = 0; m < 10; m++) {
        char ident[32];
        snprintf(ident, sizeof ident, "shop.race%d", m);
        floe_table *t1 = rl_orders(c, ident, (m & 1) ? "merge-on-read" : NULL);
        FT_ASSERT(t1);
        floe_table *t2 = NULL;
        FT_OK(floe_table_load(&t2, c, ident, NULL));
        int failures = 0;
        for (int i = 0; i < 10; i++) {
            char sa[16], sb[16];
            snprintf(sa, sizeof sa, "A%d", i);
            snprintf(sb, sizeof sb, "B%d", i);
            fx_order ra = {1002, 502, 7500, sa, 2026, 9, 20};
            fx_order rb = {1002, 502, 7500, sb, 2026, 9, 20};
            floe_table *first = (i & 1) ? t2 : t1, *second = (i & 1) ? t1 : t2;
            floe_rowlevel *a =
                start(first, FLOE_ROWLEVEL_UPDATE, "order_id = 1002", FLOE_ISOLATION_TABLE);
            floe_rowlevel *b =
                start(second, FLOE_ROWLEVEL_UPDATE, "order_id = 1002", FLOE_ISOLATION_TABLE);
            FT_ASSERT(a && b);
            FT_OK(add_rows(a, first, &ra, 1));
            FT_OK(add_rows(b, second, &rb, 1));
            FT_OK(floe_rowlevel_commit(NULL, NULL, a));
            if (floe_rowlevel_commit(NULL, NULL, b) == FLOE_EINVALID) {
                failures++;
                floe_rowlevel_free(b);
                b = start(second, FLOE_ROWLEVEL_UPDATE, "order_id = 1002", FLOE_ISOLATION_TABLE);
                FT_ASSERT(b);
                FT_OK(add_rows(b, second, &rb, 1));
                FT_OK(floe_rowlevel_commit(NULL, NULL, b));
            }
            floe_rowlevel_free(a);
            floe_rowlevel_free(b);
        }
        FT_EQ_INT(failures, 10);
        FT_OK(floe_table_refresh(t1));
        RL_ROWS_EQ(t1, -1, "1001:PLACED,1002:B9,1003:PLACED,1004:PLACED");
        floe_table_free(t2);
        floe_table_free(t1);
    }
    floe_catalog_free(c);
}

/* Rows named by position (SQL subqueries, MERGE) with the conflict-all
 * flag: a concurrent append fails a serializable commit ("matching true",
 * as Java's conflict filter `true`) but not a snapshot-isolated one. */
static void test_positions_conflict_all(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t1 = rl_orders(c, "shop.orders", NULL);
    FT_ASSERT(t1);
    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    floe_scan_options so = FLOE_SCAN_OPTIONS_INIT;
    so.filter = "order_id = 1003";
    floe_scan *sc = NULL;
    FT_OK(floe_scan_open_table(&sc, t1, &so));
    FT_ASSERT(floe_scan_task_count(sc) == 1);
    char *path = floe__strdup(floe_scan_task_path(sc, 0));
    floe_scan_free(sc);
    FT_ASSERT(path);
    static const fx_order R1005[] = {{1005, 505, 4200, "PLACED", 2026, 9, 23}};
    for (int iso = 0; iso < 2; iso++) {
        FT_OK(floe_table_refresh(t1));
        floe_rowlevel *op = NULL;
        floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
        o.kind = FLOE_ROWLEVEL_MERGE;
        o.isolation = iso ? FLOE_ISOLATION_SNAPSHOT : FLOE_ISOLATION_SERIALIZABLE;
        FT_OK(floe_rowlevel_new(&op, t1, &o));
        int64_t zero = 0;
        FT_OK(floe_rowlevel_delete_positions(op, path, &zero, 1));
        floe__rowlevel_conflict_all(op);
        FT_OK(floe_table_refresh(t2));
        fx_append_rows(t2, R1005, 1);
        int rc = floe_rowlevel_commit(NULL, NULL, op);
        if (iso == 0) {
            FT_EQ_INT(rc, FLOE_EINVALID);
            FT_ERR_CONTAINS("Found conflicting files that can contain records matching true");
        } else {
            FT_OK(rc);
        }
        floe_rowlevel_free(op);
    }
    FT_OK(floe_table_refresh(t1));
    RL_ROWS_EQ(t1, -1, "1001:PLACED,1002:PLACED,1004:PLACED,1005:PLACED,1005:PLACED");
    floe__free(path);
    floe_table_free(t2);
    floe_table_free(t1);
    floe_catalog_free(c);
}


/* ---------------------------------------------------------------- concurrent DVs (v3) */

static floe_table *v3_orders(floe_catalog *c, const char *ident)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "format-version", "3");
    floe__props_set(&p, "write.delete.mode", "merge-on-read");
    floe__props_set(&p, "write.update.mode", "merge-on-read");
    floe__props_set(&p, "commit.retry.min-wait-ms", "1");
    floe_table *t = NULL;
    if (fx_create(&t, c, ident, &p) < 0)
        ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
    floe__props_free(&p);
    return t;
}

/* The current snapshot's plan: every data file has at most one delete
 * file, a DV; *cardinality gets the sum of the DVs' record counts. */
static int dvs_per_file(floe_table *t, int64_t *cardinality)
{
    floe_snapshot_info si;
    *cardinality = 0;
    if (!floe_table_current_snapshot(&si, t))
        return -1;
    const floe_snapshot *s = floe__metadata_snapshot(t->metadata, si.snapshot_id);
    floe_scan_plan_options po;
    memset(&po, 0, sizeof po);
    po.threads = 1;
    floe_scan_plan *plan = NULL;
    if (floe__scan_plan(&plan, t->metadata, floe_table_io(t), s, NULL, &po) < 0)
        return -1;
    int most = 0;
    for (size_t i = 0; i < plan->ntasks; i++) {
        const floe_scan_task *k = &plan->tasks[i];
        if ((int)k->ndeletes > most)
            most = (int)k->ndeletes;
        for (size_t d = 0; d < k->ndeletes; d++) {
            if (strcmp(k->deletes[d]->format, "PUFFIN") != 0)
                most = 99;
            *cardinality += k->deletes[d]->record_count;
        }
    }
    floe__scan_plan_free(plan);
    return most;
}

/* v3: two merge-on-read deletes of different rows of one data file, from
 * the same base, under both isolation levels: each writes a DV for the
 * file; the second's first attempt loses the race, its retry finds the
 * first's DV (Java would fail: "Found concurrently added DV for …",
 * apache/iceberg#17754) and, both commits deleting positions only, merges
 * it into its own: both deletes visible, one DV for the file. */
static void concurrent_dv_merge(floe_isolation iso)
{
    /* tests/peers/test_changelog_mor.py has Spark read the result: the
     * table then lives in $FLOE_DV_MERGE_WAREHOUSE (catalog.db there) */
    const char *keep = iso == FLOE_ISOLATION_SNAPSHOT ? getenv("FLOE_DV_MERGE_WAREHOUSE") : NULL;
    floe_catalog *c = NULL;
    if (keep) {
        char db[4096];
        snprintf(db, sizeof db, "%s/catalog.db", keep);
        floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
        co.warehouse = keep;
        co.name = "dvmerge";
        FT_OK(floe_catalog_open_sql(&c, db, &co));
        FT_OK(floe_catalog_create_namespace(c, "shop", NULL));
    } else {
        c = fx_catalog();
    }
    FT_ASSERT(c);
    floe_table *t1 = v3_orders(c, "shop.orders"), *t2 = NULL;
    FT_ASSERT(t1);
    fx_append_rows(t1, RL_LOAD1, 2); /* 1001 and 1002 in one data file */
    fx_append_rows(t1, RL_LOAD2, 1);
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    floe_rowlevel *a = start(t1, FLOE_ROWLEVEL_DELETE, "order_id = 1001", iso);
    floe_rowlevel *b = start(t2, FLOE_ROWLEVEL_DELETE, "order_id = 1002", iso);
    FT_ASSERT(a && b);
    int64_t sa = -1, sb = -1;
    FT_OK(floe_rowlevel_commit(&sa, NULL, a));
    FT_OK(floe_rowlevel_commit(&sb, NULL, b));
    floe_rowlevel_free(b);
    floe_rowlevel_free(a);
    FT_OK(floe_table_refresh(t1));
    RL_ROWS_EQ(t1, -1, "1003:PLACED");
    RL_ROWS_EQ(t1, sa, "1002:PLACED,1003:PLACED");
    int64_t card = 0;
    FT_EQ_INT(dvs_per_file(t1, &card), 1);
    FT_EQ_INT(card, 2);
    FT_EQ_STR(rl_sum(t1, sb, "added-dvs"), "1");
    FT_EQ_STR(rl_sum(t1, sb, "removed-dvs"), "1"); /* the first writer's */
    FT_EQ_STR(rl_sum(t1, sb, "total-position-deletes"), "2");
    FT_EQ_INT(fx_count_files_ending(t1, ".puffin"), 2); /* the superseded attempt's file is gone */
    floe_table_free(t2);
    floe_table_free(t1);
    floe_catalog_free(c);
}

static void test_concurrent_dv_merge(void)
{
    concurrent_dv_merge(FLOE_ISOLATION_SNAPSHOT);
}

static void test_concurrent_dv_merge_serializable(void)
{
    concurrent_dv_merge(FLOE_ISOLATION_SERIALIZABLE);
}

/* Three deletes from one base on a file that already has a DV: each retry
 * merges the newest concurrent DV (which holds the older ones). */
static void test_concurrent_dv_chain(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t[3] = {v3_orders(c, "shop.orders"), NULL, NULL};
    FT_ASSERT(t[0]);
    static const fx_order five[] = {{1, 1, 100, "P", 2026, 9, 20}, {2, 1, 100, "P", 2026, 9, 20},
                                    {3, 1, 100, "P", 2026, 9, 20}, {4, 1, 100, "P", 2026, 9, 20},
                                    {5, 1, 100, "P", 2026, 9, 20}};
    fx_append_rows(t[0], five, 5);
    FT_OK(rl_delete(t[0], "order_id = 1", NULL)); /* the DV every writer reads */
    for (int i = 1; i < 3; i++)
        FT_OK(floe_table_load(&t[i], c, "shop.orders", NULL));
    floe_rowlevel *op[3];
    const char *filters[3] = {"order_id = 2", "order_id = 3", "order_id = 4"};
    for (int i = 0; i < 3; i++) {
        op[i] = start(t[i], FLOE_ROWLEVEL_DELETE, filters[i], FLOE_ISOLATION_SERIALIZABLE);
        FT_ASSERT(op[i]);
    }
    for (int i = 0; i < 3; i++) {
        FT_OK(floe_rowlevel_commit(NULL, NULL, op[i]));
        floe_rowlevel_free(op[i]);
    }
    FT_OK(floe_table_refresh(t[0]));
    RL_ROWS_EQ(t[0], -1, "5:P");
    int64_t card = 0;
    FT_EQ_INT(dvs_per_file(t[0], &card), 1);
    FT_EQ_INT(card, 4);
    for (int i = 0; i < 3; i++)
        floe_table_free(t[i]);
    floe_catalog_free(c);
}

/* A delete racing an UPDATE of the same data file does not commute (the
 * UPDATE re-inserts rows): Java's conflict, either way round, and the
 * loser changes nothing. */
static void test_concurrent_dv_update_conflicts(void)
{
    for (int way = 0; way < 2; way++) {
        floe_catalog *c = fx_catalog();
        FT_ASSERT(c);
        char ident[32];
        snprintf(ident, sizeof ident, "shop.orders%d", way);
        floe_table *t1 = v3_orders(c, ident), *t2 = NULL;
        FT_ASSERT(t1);
        fx_append_rows(t1, RL_LOAD1, 2);
        FT_OK(floe_table_load(&t2, c, ident, NULL));
        floe_rowlevel *upd = start(way ? t2 : t1, FLOE_ROWLEVEL_UPDATE, "order_id = 1001",
                                   FLOE_ISOLATION_SNAPSHOT);
        floe_rowlevel *del = start(way ? t1 : t2, FLOE_ROWLEVEL_DELETE, "order_id = 1002",
                                   FLOE_ISOLATION_SNAPSHOT);
        FT_ASSERT(upd && del);
        FT_OK(add_rows(upd, way ? t2 : t1, RL_1001_SHIPPED, 1));
        FT_OK(floe_rowlevel_commit(NULL, NULL, way ? del : upd));
        size_t nsnap = floe_table_snapshot_count(way ? t1 : t1);
        int files = fx_count_files(t1);
        FT_EQ_INT(floe_rowlevel_commit(NULL, NULL, way ? upd : del), FLOE_EINVALID);
        FT_ERR_CONTAINS("Found concurrently added DV for ");
        FT_ERR_CONTAINS("DV{location=");
        floe_rowlevel_free(del);
        floe_rowlevel_free(upd);
        FT_OK(floe_table_refresh(t1));
        FT_EQ_INT((int)floe_table_snapshot_count(t1), (int)(nsnap + (way ? 0 : 0)));
        FT_EQ_INT(fx_count_files(t1), files);
        RL_ROWS_EQ(t1, -1, way ? "1001:PLACED" : "1001:SHIPPED,1002:PLACED");
        floe_table_free(t2);
        floe_table_free(t1);
        floe_catalog_free(c);
    }
}

static const ft_case cases[] = {
    {"concurrent_dv_merge", test_concurrent_dv_merge},
    {"concurrent_dv_merge_serializable", test_concurrent_dv_merge_serializable},
    {"concurrent_dv_chain", test_concurrent_dv_chain},
    {"concurrent_dv_update_conflicts", test_concurrent_dv_update_conflicts},
    {"positions_conflict_all", test_positions_conflict_all},
    {"overlap_cow", test_overlap_cow},
    {"overlap_mor", test_overlap_mor},
    {"overlap_cow_snapshot_isolation", test_overlap_cow_snapshot_isolation},
    {"overlap_mor_snapshot_isolation", test_overlap_mor_snapshot_isolation},
    {"non_overlap_cow", test_non_overlap_cow},
    {"non_overlap_mor", test_non_overlap_mor},
    {"overwrite_dynamic_conflict", test_overwrite_dynamic_conflict},
    {"no_lost_update", test_no_lost_update},
};

int main(int argc, char **argv)
{
    /* hundreds of commits, each fsyncing files and the SQLite catalog: on a
     * tmpfs when there is one (the semantics do not depend on the disk) */
    if (!getenv("TMPDIR") && access("/dev/shm", W_OK) == 0)
        setenv("TMPDIR", "/dev/shm", 1);
    return ft_main(argc, argv, cases, FT_N(cases));
}
