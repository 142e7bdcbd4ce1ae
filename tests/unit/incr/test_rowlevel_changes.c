/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 000 script 2 step 1 with real DELETE and UPDATE commits of the table
 * layer (src/table rowlevel), copy-on-write and merge-on-read: appends since
 * the watermark, the append scan in both modes across the DELETE and the
 * UPDATE, table_changes with and without compute_updates, and the same
 * changelog from both write modes.
 */
#include "../rowlevel/rlfixture.h"
#include "floe/scan.h"

typedef struct lines {
    size_t n;
    char *row[64];
} lines;

static void lines_free(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->row[i]);
    l->n = 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rows as "order_id:status:_change_type:_change_ordinal" (changelog) or
 * "order_id:status" (append scan), sorted. */
static int drain_lines(struct ArrowArrayStream *st, bool changelog, lines *out)
{
    struct ArrowSchema sch;
    int rc = st->get_schema(st, &sch);
    if (rc)
        return rc;
    int ct = -1, ord = -1;
    for (int64_t i = 0; i < sch.n_children; i++) {
        if (!strcmp(sch.children[i]->name, "_change_type"))
            ct = (int)i;
        if (!strcmp(sch.children[i]->name, "_change_ordinal"))
            ord = (int)i;
    }
    for (;;) {
        struct ArrowArray b;
        if ((rc = st->get_next(st, &b)) != 0)
            break;
        if (!b.release)
            break;
        for (int64_t r = 0; r < b.length && out->n < 64; r++) {
            const int64_t *ids = (const int64_t *)b.children[0]->buffers[1] + b.children[0]->offset;
            const struct ArrowArray *sc = b.children[3];
            const int32_t *off = (const int32_t *)sc->buffers[1] + sc->offset;
            char buf[160];
            int k = snprintf(buf, sizeof buf, "%lld:%.*s", (long long)ids[r],
                             (int)(off[r + 1] - off[r]), (const char *)sc->buffers[2] + off[r]);
            if (changelog && ct >= 0 && ord >= 0) {
                const struct ArrowArray *ta = b.children[ct];
                const int32_t *to = (const int32_t *)ta->buffers[1] + ta->offset;
                const int32_t *oa = (const int32_t *)b.children[ord]->buffers[1] +
                                    b.children[ord]->offset;
                snprintf(buf + k, sizeof buf - (size_t)k, ":%.*s:%d", (int)(to[r + 1] - to[r]),
                         (const char *)ta->buffers[2] + to[r], oa[r]);
            }
            out->row[out->n++] = strdup(buf);
        }
        b.release(&b);
    }
    sch.release(&sch);
    if (out->n)
        qsort(out->row, out->n, sizeof(char *), cmp);
    return rc;
}

static int appended(floe_table *t, int64_t start, int64_t end, floe_incremental_mode mode,
                    lines *out)
{
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    o.has_start_snapshot_id = true;
    o.start_snapshot_id = start;
    o.has_end_snapshot_id = end > 0;
    o.end_snapshot_id = end;
    o.mode = mode;
    o.threads = 1;
    floe_incremental *inc;
    int rc = floe_incremental_append_open(&inc, floe_table_io(t), floe_table_metadata_location(t),
                                          &o);
    if (rc < 0)
        return rc;
    struct ArrowArrayStream st;
    if ((rc = floe_incremental_to_stream(&st, inc)) == 0) {
        rc = drain_lines(&st, false, out);
        st.release(&st);
    }
    floe_incremental_free(inc);
    return rc;
}

static int changes(floe_table *t, int64_t start, int64_t end, bool updates, lines *out)
{
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    o.has_start_snapshot_id = true;
    o.start_snapshot_id = start;
    o.has_end_snapshot_id = true;
    o.end_snapshot_id = end;
    o.compute_updates = updates;
    static const char *ids[] = {"order_id"};
    o.identifier_columns = ids;
    o.nidentifier_columns = 1;
    o.threads = 1;
    floe_changelog *cl;
    int rc = floe_changelog_open(&cl, floe_table_io(t), floe_table_metadata_location(t), &o);
    if (rc < 0)
        return rc;
    struct ArrowArrayStream st;
    if ((rc = floe_changelog_to_stream(&st, cl)) == 0) {
        rc = drain_lines(&st, true, out);
        st.release(&st);
    }
    floe_changelog_free(cl);
    return rc;
}

static void seed(const char *mode, lines *all)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    char ident[64];
    snprintf(ident, sizeof ident, "shop.orders_%c", mode[0]);
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.delete.mode", mode);
    floe__props_set(&p, "write.update.mode", mode);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, ident, &p));
    floe__props_free(&p);
    FT_ASSERT(t);
    fx_append_rows(t, RL_LOAD1, 2);
    floe_snapshot_info s;
    FT_ASSERT(floe_table_current_snapshot(&s, t));
    int64_t watermark = s.snapshot_id;
    fx_append_rows(t, RL_LOAD2, 1);
    fx_append_rows(t, RL_LOAD3, 1);
    FT_ASSERT(floe_table_current_snapshot(&s, t));
    int64_t now = s.snapshot_id;
    lines l = {0};
    FT_OK(appended(t, watermark, now, FLOE_INCREMENTAL_STRICT, &l));
    FT_EQ_INT(l.n, 2);
    if (l.n == 2) {
        FT_EQ_STR(l.row[0], "1003:PLACED");
        FT_EQ_STR(l.row[1], "1004:PLACED");
    }
    lines_free(&l);
    int64_t del = -1, upd = -1;
    FT_OK(rl_delete(t, "order_id = 1004", &del));
    FT_OK(rl_update(t, "order_id = 1001", RL_1001_SHIPPED, 1, &upd));
    /* the append scan across them: Spark's 0 rows, or floe's refusal */
    FT_OK(appended(t, now, upd, FLOE_INCREMENTAL_APPEND_ONLY, &l));
    FT_EQ_INT(l.n, 0);
    lines_free(&l);
    FT_EQ_INT(appended(t, now, 0, FLOE_INCREMENTAL_STRICT, &l), FLOE_EINVALID);
    char want[128];
    snprintf(want, sizeof want, "Snapshot %lld (delete)", (long long)del);
    FT_ERR_CONTAINS(want);
    FT_ERR_CONTAINS("table_changes");
    lines_free(&l);
    /* table_changes: DELETE 1004, DELETE + INSERT 1001, nothing for 1002/1003 */
    FT_OK(changes(t, now, upd, false, &l));
    FT_EQ_INT(l.n, 3);
    if (l.n == 3) {
        FT_EQ_STR(l.row[0], "1001:PLACED:DELETE:1");
        FT_EQ_STR(l.row[1], "1001:SHIPPED:INSERT:1");
        FT_EQ_STR(l.row[2], "1004:PLACED:DELETE:0");
    }
    lines_free(&l);
    FT_OK(changes(t, now, upd, true, &l));
    FT_EQ_INT(l.n, 3);
    if (l.n == 3) {
        FT_EQ_STR(l.row[0], "1001:PLACED:UPDATE_BEFORE:1");
        FT_EQ_STR(l.row[1], "1001:SHIPPED:UPDATE_AFTER:1");
        FT_EQ_STR(l.row[2], "1004:PLACED:DELETE:0");
    }
    lines_free(&l);
    /* the whole history, to compare the two write modes */
    FT_OK(changes(t, watermark, upd, false, all));
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_cow_and_mor(void)
{
    lines cow = {0}, mor = {0};
    seed("copy-on-write", &cow);
    seed("merge-on-read", &mor);
    FT_EQ_INT(cow.n, 5); /* INSERT 1003, 1004; DELETE 1004; DELETE+INSERT 1001 */
    FT_EQ_INT(mor.n, cow.n);
    for (size_t i = 0; i < cow.n && i < mor.n; i++)
        FT_EQ_STR(mor.row[i], cow.row[i]);
    lines_free(&cow);
    lines_free(&mor);
}

static const ft_case cases[] = {
    {"seed_script2_rowlevel", test_cow_and_mor},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
