/* SPDX-License-Identifier: Apache-2.0 */
/* Row-level operations: the seed's DELETE and UPDATE (script 2) in
 * copy-on-write and merge-on-read, time travel around them, the delete
 * manifests and files merge-on-read writes, deleting on a branch, position
 * lists, equality deletes (sequence-number rule), INSERT OVERWRITE. */
#include "rlfixture.h"

static const char *ALL4 = "1001:PLACED,1002:PLACED,1003:PLACED,1004:PLACED";

/* Contents of the live entries of a snapshot: counts per file content. */
static void content_counts(floe_table *t, int64_t id, int *data, int *pos, int *eq,
                           int *delete_manifests, char *pos_path, size_t pos_path_len)
{
    *data = *pos = *eq = *delete_manifests = 0;
    const floe_snapshot *s = floe__metadata_snapshot(t->metadata, id);
    FT_ASSERT(s);
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    FT_OK(fx_read_list(t, floe__table_manifest_list(t, s), &lb, &l));
    for (size_t i = 0; l && i < l->nentries; i++) {
        if (l->entries[i].content == FLOE_MANIFEST_DELETES)
            ++*delete_manifests;
        floe_buf mb = FLOE_BUF_INIT;
        floe_manifest *m = NULL;
        FT_OK(floe__io_read_all(floe_table_io(t), l->entries[i].manifest_path, 1 << 24, &mb));
        FT_OK(floe_manifest_read(&m, (const uint8_t *)mb.ptr, mb.len, "m", &l->entries[i]));
        for (size_t k = 0; m && k < m->nentries; k++) {
            const floe_manifest_entry *e = &m->entries[k];
            if (e->status == FLOE_ENTRY_DELETED)
                continue;
            if (e->data_file.content == FLOE_FILE_DATA)
                ++*data;
            else if (e->data_file.content == FLOE_FILE_POSITION_DELETES) {
                ++*pos;
                FT_CHECK(l->entries[i].content == FLOE_MANIFEST_DELETES);
                if (pos_path)
                    snprintf(pos_path, pos_path_len, "%s", e->data_file.file_path);
            } else
                ++*eq;
        }
        floe_manifest_free(m);
        floe__buf_free(&mb);
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
}

static void seed_step(const char *mode)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = rl_orders(c, "shop.orders", mode);
    FT_ASSERT(t);
    bool mor = mode && strcmp(mode, "merge-on-read") == 0;
    floe_snapshot_info before;
    FT_ASSERT(floe_table_current_snapshot(&before, t));
    RL_ROWS_EQ(t, -1, ALL4);

    int64_t del = -1;
    FT_OK(rl_delete(t, "order_id = 1004", &del));
    FT_CHECK(del > 0);
    FT_EQ_STR(rl_sum(t, del, "operation"), "delete");
    int d, p, e, dm;
    content_counts(t, del, &d, &p, &e, &dm, NULL, 0);
    if (mor) {
        FT_EQ_STR(rl_sum(t, del, "added-position-deletes"), "1");
        FT_EQ_STR(rl_sum(t, del, "added-delete-files"), "1");
        FT_EQ_STR(rl_sum(t, del, "added-position-delete-files"), "1");
        FT_EQ_STR(rl_sum(t, del, "total-delete-files"), "1");
        FT_EQ_STR(rl_sum(t, del, "total-position-deletes"), "1");
        FT_EQ_STR(rl_sum(t, del, "deleted-data-files"), "");
        FT_EQ_INT(d, 3);
        FT_EQ_INT(p, 1);
        FT_EQ_INT(dm, 1);
    } else {
        FT_EQ_STR(rl_sum(t, del, "deleted-data-files"), "1");
        FT_EQ_STR(rl_sum(t, del, "deleted-records"), "1");
        FT_CHECK(atoll(rl_sum(t, del, "removed-files-size")) > 0);
        FT_EQ_STR(rl_sum(t, del, "total-records"), "3");
        FT_EQ_STR(rl_sum(t, del, "total-data-files"), "2");
        FT_EQ_INT(d, 2);
        FT_EQ_INT(p, 0);
    }
    FT_EQ_STR(rl_sum(t, del, "changed-partition-count"), "1");
    RL_ROWS_EQ(t, -1, "1001:PLACED,1002:PLACED,1003:PLACED");

    int64_t upd = -1;
    FT_OK(rl_update(t, "order_id = 1001", RL_1001_SHIPPED, 1, &upd));
    FT_CHECK(upd > 0);
    FT_EQ_STR(rl_sum(t, upd, "operation"), "overwrite");
    /* copy-on-write: the kept 1002 and the new 1001 share the partition
     * writer, so one file either way */
    FT_EQ_STR(rl_sum(t, upd, "added-data-files"), "1");
    if (mor) {
        FT_EQ_STR(rl_sum(t, upd, "added-position-deletes"), "1");
        FT_EQ_STR(rl_sum(t, upd, "added-records"), "1");
        FT_EQ_STR(rl_sum(t, upd, "total-position-deletes"), "2");
    } else {
        /* the two-row file goes; its neighbour 1002 is rewritten */
        FT_EQ_STR(rl_sum(t, upd, "deleted-data-files"), "1");
        FT_EQ_STR(rl_sum(t, upd, "deleted-records"), "2");
        FT_EQ_STR(rl_sum(t, upd, "added-records"), "2");
        FT_EQ_STR(rl_sum(t, upd, "total-records"), "3");
    }
    RL_ROWS_EQ(t, -1, "1001:SHIPPED,1002:PLACED,1003:PLACED");
    /* time travel: before both, between, after */
    RL_ROWS_EQ(t, before.snapshot_id, ALL4);
    RL_ROWS_EQ(t, del, "1001:PLACED,1002:PLACED,1003:PLACED");
    RL_ROWS_EQ(t, upd, "1001:SHIPPED,1002:PLACED,1003:PLACED");
    /* the handle and a fresh load agree */
    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    RL_ROWS_EQ(t2, -1, "1001:SHIPPED,1002:PLACED,1003:PLACED");
    floe_table_free(t2);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_seed_cow(void)
{
    seed_step(NULL);
}

static void test_seed_mor(void)
{
    seed_step("merge-on-read");
}

static void test_nothing_matches(void)
{
    floe_catalog *c = fx_catalog();
    floe_table *t = rl_orders(c, "shop.orders", "merge-on-read");
    FT_ASSERT(t);
    size_t n = floe_table_snapshot_count(t);
    int64_t id = 0;
    FT_OK(rl_delete(t, "order_id = 4242", &id));
    FT_EQ_INT(id, -1);
    FT_EQ_INT((int)floe_table_snapshot_count(t), (int)n);
    floe_rowlevel *op = NULL;
    FT_OK(floe_rowlevel_new(&op, t, NULL));
    FT_CHECK(floe_rowlevel_delete_where(op, "nope = 1") == FLOE_EINVALID);
    FT_CHECK(floe_rowlevel_delete_where(op, "order_id = ") == FLOE_EINVALID);
    floe_rowlevel_free(op);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* The in-tree path of the SQL front end: an unbound floe_expr. */
static void test_expr_filter(void)
{
    floe_catalog *c = fx_catalog();
    floe_table *t = rl_orders(c, "shop.orders", "merge-on-read");
    FT_ASSERT(t);
    floe_arena *a = floe__arena_new(1024);
    FT_ASSERT(a);
    floe_value lits[] = {floe_value_long(1003), floe_value_long(1004)};
    const floe_expr *e =
        floe_expr_or(a, floe_expr_set(a, FLOE_OP_IN, "order_id", lits, 2),
                     floe_expr_not(a, floe_expr_unary(a, FLOE_OP_NOT_NULL, "status")));
    FT_ASSERT(e);
    floe_rowlevel *op = NULL;
    FT_OK(floe_rowlevel_new(&op, t, NULL));
    FT_OK(floe__rowlevel_delete_where_expr(op, e));
    floe__arena_free(a); /* the operation holds its own copy */
    int64_t id = 0;
    floe_rowlevel_stats st;
    FT_OK(floe_rowlevel_commit(&id, &st, op));
    floe_rowlevel_free(op);
    FT_EQ_INT((int)st.rows_deleted, 2);
    FT_EQ_INT((int)st.delete_files_added, 2); /* two partitions */
    RL_ROWS_EQ(t, -1, "1001:PLACED,1002:PLACED");
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_delete_all_and_partition(void)
{
    floe_catalog *c = fx_catalog();
    floe_table *t = rl_orders(c, "shop.orders", NULL);
    FT_ASSERT(t);
    int64_t id = 0;
    /* a whole partition: files removed without being rewritten */
    FT_OK(rl_delete(t, "order_date = '2026-09-20'", &id));
    FT_EQ_STR(rl_sum(t, id, "operation"), "delete");
    FT_EQ_STR(rl_sum(t, id, "deleted-records"), "2");
    FT_EQ_STR(rl_sum(t, id, "added-data-files"), "");
    RL_ROWS_EQ(t, -1, "1003:PLACED,1004:PLACED");
    FT_OK(rl_delete(t, NULL, &id));
    RL_ROWS_EQ(t, -1, "");
    FT_EQ_STR(rl_sum(t, id, "total-records"), "0");
    FT_EQ_STR(rl_sum(t, id, "total-data-files"), "0");
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_positions(void)
{
    floe_catalog *c = fx_catalog();
    floe_table *t = rl_orders(c, "shop.orders", "merge-on-read");
    FT_ASSERT(t);
    /* the file of 1001/1002: find it through the scan */
    floe_scan_options so = FLOE_SCAN_OPTIONS_INIT;
    so.filter = "order_id = 1002";
    floe_scan *s = NULL;
    FT_OK(floe_scan_open(&s, floe_table_io(t), floe_table_metadata_location(t), &so));
    FT_EQ_INT((int)floe_scan_task_count(s), 1);
    char path[2048];
    snprintf(path, sizeof path, "%s", floe_scan_task_path(s, 0));
    floe_scan_free(s);
    for (int mode = 1; mode <= 2; mode++) {
        floe_rowlevel *op = NULL;
        floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
        o.kind = FLOE_ROWLEVEL_MERGE;
        o.mode = mode == 1 ? FLOE_ROWLEVEL_MODE_MERGE_ON_READ : FLOE_ROWLEVEL_MODE_COPY_ON_WRITE;
        FT_OK(floe_rowlevel_new(&op, t, &o));
        FT_EQ_INT(floe_rowlevel_mode_of(op), o.mode);
        int64_t pos[] = {1, 1};
        int64_t bad = -1;
        FT_CHECK(floe_rowlevel_delete_positions(op, path, &bad, 1) == FLOE_EINVALID);
        FT_OK(floe_rowlevel_delete_positions(op, path, pos, 2));
        int64_t id = 0;
        floe_rowlevel_stats st;
        FT_OK(floe_rowlevel_commit(&id, &st, op));
        floe_rowlevel_free(op);
        if (mode == 1) {
            FT_CHECK(id > 0);
            FT_EQ_INT((int)st.rows_deleted, 1);
            FT_EQ_INT((int)st.delete_files_added, 1);
            RL_ROWS_EQ(t, -1, "1001:PLACED,1003:PLACED,1004:PLACED");
        } else {
            /* already deleted by the position delete: nothing changes */
            FT_EQ_INT((int)id, -1);
        }
    }
    /* copy-on-write over merge-on-read deletes: rewriting keeps only live rows */
    floe_rowlevel *op = NULL;
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    o.mode = FLOE_ROWLEVEL_MODE_COPY_ON_WRITE;
    FT_OK(floe_rowlevel_new(&op, t, &o));
    FT_OK(floe_rowlevel_delete_where(op, "order_id = 1003"));
    int64_t id = 0;
    FT_OK(floe_rowlevel_commit(&id, NULL, op));
    floe_rowlevel_free(op);
    RL_ROWS_EQ(t, -1, "1001:PLACED,1004:PLACED");
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_branch(void)
{
    floe_catalog *c = fx_catalog();
    floe_table *t = rl_orders(c, "shop.orders", NULL);
    FT_ASSERT(t);
    floe_snapshot_info main0;
    FT_ASSERT(floe_table_current_snapshot(&main0, t));
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE, NULL));
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.branch = "audit";
    floe_table *b = NULL;
    FT_OK(floe_table_load(&b, c, "shop.orders", &to));
    int64_t id = 0;
    FT_OK(rl_delete(b, "amount <= 10", &id)); /* 1004: 9.90 */
    FT_CHECK(id > 0);
    FT_OK(floe_table_refresh(t));
    floe_snapshot_info main1, audit;
    FT_ASSERT(floe_table_current_snapshot(&main1, t));
    FT_CHECK(main1.snapshot_id == main0.snapshot_id);
    floe_ref_info ri;
    FT_OK(floe_table_ref(&ri, t, "audit"));
    FT_CHECK(ri.snapshot_id == id);
    FT_OK(floe_table_snapshot_by_ref(&audit, t, "audit"));
    FT_CHECK(audit.parent_snapshot_id == main0.snapshot_id);
    RL_ROWS_EQ(t, -1, ALL4);
    char *r = rl_rows_ref(t, -1, "audit");
    FT_EQ_STR(r ? r : "", "1001:PLACED,1002:PLACED,1003:PLACED");
    free(r);
    floe_table_free(b);
    floe_table_free(t);
    floe_catalog_free(c);
}

#define PLAIN_SCHEMA                                                                               \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"order_id\",\"required\":false,\"type\":\"long\"},"                       \
    "{\"id\":2,\"name\":\"customer_id\",\"required\":false,\"type\":\"long\"},"                    \
    "{\"id\":3,\"name\":\"amount\",\"required\":false,\"type\":\"decimal(10, 2)\"},"               \
    "{\"id\":4,\"name\":\"status\",\"required\":false,\"type\":\"string\"},"                       \
    "{\"id\":5,\"name\":\"order_date\",\"required\":false,\"type\":\"date\"}]}"

static void test_equality_deletes(void)
{
    floe_catalog *c = fx_catalog();
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = PLAIN_SCHEMA;
    floe_table *t = NULL;
    FT_OK(floe_table_create(&t, c, "shop.plain", &co, NULL));
    fx_append_rows(t, RL_LOAD1, 2);
    fx_append_rows(t, RL_LOAD2, 1);
    /* delete key 1002 and, in the same commit, add a new 1002: the new row
     * has the delete's sequence number, so it stays (data seq < delete seq) */
    static const fx_order NEW1002[] = {{1002, 502, 100, "NEW", 2026, 9, 23}};
    floe_rowlevel *op = NULL;
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    o.kind = FLOE_ROWLEVEL_MERGE;
    FT_OK(floe_rowlevel_new(&op, t, &o));
    struct ArrowArray keys, rows;
    int64_t k[] = {1002, 1003};
    FT_OK(rl_key_batch(k, 2, &keys));
    int32_t ids[] = {1};
    int32_t bad[] = {99};
    FT_CHECK(floe_rowlevel_write_equality_deletes(op, bad, 1, &keys) == FLOE_EINVALID);
    FT_OK(floe_rowlevel_write_equality_deletes(op, ids, 1, &keys));
    keys.release(&keys);
    FT_OK(fx_batch(t, NEW1002, 1, &rows));
    FT_OK(floe_rowlevel_write(op, &rows));
    rows.release(&rows);
    int64_t id = 0;
    FT_OK(floe_rowlevel_commit(&id, NULL, op));
    floe_rowlevel_free(op);
    FT_EQ_STR(rl_sum(t, id, "operation"), "overwrite");
    FT_EQ_STR(rl_sum(t, id, "added-equality-delete-files"), "1");
    FT_EQ_STR(rl_sum(t, id, "added-equality-deletes"), "2");
    FT_EQ_STR(rl_sum(t, id, "total-equality-deletes"), "2");
    int d, p, e, dm;
    content_counts(t, id, &d, &p, &e, &dm, NULL, 0);
    FT_EQ_INT(e, 1);
    FT_EQ_INT(d, 3);
    RL_ROWS_EQ(t, -1, "1001:PLACED,1002:NEW");
    /* a later append of key 1003 is not deleted */
    fx_append_rows(t, RL_LOAD2, 1);
    RL_ROWS_EQ(t, -1, "1001:PLACED,1002:NEW,1003:PLACED");
    /* then a DELETE through the filter on top of equality deletes */
    FT_OK(rl_delete(t, "order_id = 1002", &id));
    RL_ROWS_EQ(t, -1, "1001:PLACED,1003:PLACED");
    /* partitioned tables are refused for now */
    floe_table *pt = rl_orders(c, "shop.orders", "merge-on-read");
    FT_ASSERT(pt);
    FT_OK(floe_rowlevel_new(&op, pt, NULL));
    FT_OK(rl_key_batch(k, 1, &keys));
    FT_CHECK(floe_rowlevel_write_equality_deletes(op, ids, 1, &keys) == FLOE_EUNSUPPORTED);
    keys.release(&keys);
    floe_rowlevel_free(op);
    floe_table_free(pt);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_overwrite_dynamic(void)
{
    floe_catalog *c = fx_catalog();
    floe_table *t = rl_orders(c, "shop.orders", NULL);
    FT_ASSERT(t);
    static const fx_order ROWS[] = {{2001, 1, 100, "REPLACED", 2026, 9, 20},
                                    {2002, 2, 200, "NEWDAY", 2026, 9, 25}};
    floe_rowlevel *op = NULL;
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    o.kind = FLOE_ROWLEVEL_OVERWRITE_DYNAMIC;
    FT_OK(floe_rowlevel_new(&op, t, &o));
    struct ArrowArray arr;
    FT_OK(fx_batch(t, ROWS, 2, &arr));
    FT_OK(floe_rowlevel_write(op, &arr));
    arr.release(&arr);
    int64_t id = 0;
    FT_OK(floe_rowlevel_commit(&id, NULL, op));
    floe_rowlevel_free(op);
    FT_EQ_STR(rl_sum(t, id, "operation"), "overwrite");
    FT_EQ_STR(rl_sum(t, id, "replace-partitions"), "true");
    FT_EQ_STR(rl_sum(t, id, "deleted-data-files"), "1");
    FT_EQ_STR(rl_sum(t, id, "changed-partition-count"), "2");
    RL_ROWS_EQ(t, -1, "1003:PLACED,1004:PLACED,2001:REPLACED,2002:NEWDAY");
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"seed_cow", test_seed_cow},
    {"seed_mor", test_seed_mor},
    {"nothing_matches", test_nothing_matches},
    {"expr_filter", test_expr_filter},
    {"delete_all_and_partition", test_delete_all_and_partition},
    {"positions", test_positions},
    {"branch", test_branch},
    {"equality_deletes", test_equality_deletes},
    {"overwrite_dynamic", test_overwrite_dynamic},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
