/* SPDX-License-Identifier: Apache-2.0 */
/*
 * examples/table_append: the life of a table through libfloe's public API.
 * Opens (creates) a SQLite catalog, creates a partitioned table, appends
 * two Arrow batches as two snapshots, rolls back to the first and lists
 * the snapshots and the history (the snapshot-log).
 *
 *   example_table_append /tmp/wh        # warehouse directory (created)
 *
 * Build: part of the CMake build (`cmake --build --preset dev` makes
 * build/dev/example_table_append), or against an installed libfloe:
 *   cc table_append.c $(pkg-config --cflags --libs floe) -o table_append
 *
 * The Arrow batches are built by hand with the Arrow C Data Interface (a
 * real program would use nanoarrow, pyarrow, DuckDB, ...): a struct array
 * whose children are the table's columns in schema order.
 */
#include <floe.h>
#include <floe/table.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"fields\":["                                                            \
    "{\"id\":1,\"name\":\"order_id\",\"required\":true,\"type\":\"long\"},"                        \
    "{\"id\":2,\"name\":\"status\",\"required\":false,\"type\":\"string\"},"                       \
    "{\"id\":3,\"name\":\"order_date\",\"required\":true,\"type\":\"date\"}]}"
#define SPEC "{\"fields\":[{\"source-id\":3,\"transform\":\"day\",\"name\":\"order_date_day\"}]}"

/* ---------------------------------------------------------------- a tiny Arrow batch */

typedef struct batch_data {
    int64_t ids[4];
    int32_t offsets[5];
    char chars[64];
    int32_t days[4];
    const void *buffers[4][3];
    struct ArrowArray cols[3];
    struct ArrowArray *children[3];
} batch_data;

static void release_child(struct ArrowArray *a)
{
    a->release = NULL;
}

static void release_batch(struct ArrowArray *a)
{
    free(a->private_data);
    a->release = NULL;
}

/* n rows: ids[i], statuses[i], days since 1970-01-01. */
static void make_batch(struct ArrowArray *out, size_t n, const int64_t *ids,
                       const char *const *statuses, const int32_t *days)
{
    batch_data *d = calloc(1, sizeof *d);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        d->ids[i] = ids[i];
        d->days[i] = days[i];
        d->offsets[i] = (int32_t)pos;
        size_t len = strlen(statuses[i]);
        memcpy(d->chars + pos, statuses[i], len);
        pos += len;
    }
    d->offsets[n] = (int32_t)pos;
    const void *vals[3] = {d->ids, d->offsets, d->days};
    for (int c = 0; c < 3; c++) {
        d->buffers[c][0] = NULL; /* no nulls: no validity bitmap */
        d->buffers[c][1] = vals[c];
        d->buffers[c][2] = d->chars;
        d->cols[c] = (struct ArrowArray){.length = (int64_t)n,
                                         .n_buffers = c == 1 ? 3 : 2,
                                         .buffers = d->buffers[c],
                                         .release = release_child};
        d->children[c] = &d->cols[c];
    }
    d->buffers[3][0] = NULL;
    *out = (struct ArrowArray){.length = (int64_t)n,
                               .n_buffers = 1,
                               .n_children = 3,
                               .buffers = d->buffers[3],
                               .children = d->children,
                               .release = release_batch,
                               .private_data = d};
}

/* ---------------------------------------------------------------- the example */

static int fail(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "%s: %s\n", what, e ? e->message : "?");
    return 1;
}

static int append(floe_table *t, size_t n, const int64_t *ids, const char *const *st,
                  const int32_t *days, int64_t *snapshot_id)
{
    floe_append *a = NULL;
    struct ArrowArray batch;
    if (floe_append_new(&a, t) < 0)
        return -1;
    make_batch(&batch, n, ids, st, days);
    int rc = floe_append_write(a, &batch);
    batch.release(&batch);
    if (rc == 0)
        rc = floe_append_commit(snapshot_id, a);
    floe_append_free(a);
    return rc;
}

static int print_snapshot(const floe_snapshot_info *s, void *payload)
{
    const floe_table *t = payload;
    printf("  %" PRId64 "  parent=%s%" PRId64 "  seq=%" PRId64 "  %s  added-records=%s  total=%s\n",
           s->snapshot_id, s->has_parent ? "" : "(none) ", s->has_parent ? s->parent_snapshot_id : 0,
           s->sequence_number, s->operation ? s->operation : "?",
           floe_table_snapshot_summary(t, s->snapshot_id, "added-records"),
           floe_table_snapshot_summary(t, s->snapshot_id, "total-records"));
    return 0;
}

int main(int argc, char **argv)
{
    const char *wh = argc > 1 ? argv[1] : "/tmp/floe-example-wh";
    mkdir(wh, 0755);
    char db[4096];
    snprintf(db, sizeof db, "%s/catalog.db", wh);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = wh;
    floe_catalog *cat = NULL;
    if (floe_catalog_open_sql(&cat, db, &co) < 0)
        return fail("open catalog");
    if (floe_catalog_namespace_exists(cat, "shop") == 0 &&
        floe_catalog_create_namespace(cat, "shop", NULL) < 0)
        return fail("create namespace");
    floe_table_drop(cat, "shop.orders", true, NULL); /* rerunnable */

    floe_table_create_options tc = FLOE_TABLE_CREATE_OPTIONS_INIT;
    tc.schema_json = SCHEMA;
    tc.partition_spec_json = SPEC;
    floe_table *t = NULL;
    if (floe_table_create(&t, cat, "shop.orders", &tc, NULL) < 0)
        return fail("create table");
    printf("created %s at %s\n", floe_table_ident(t), floe_table_location(t));

    const int64_t ids1[] = {1001, 1002};
    const char *st1[] = {"PLACED", "PLACED"};
    const int32_t days1[] = {20716, 20716}; /* 2026-09-20 */
    const int64_t ids2[] = {1003, 1004, 1005};
    const char *st2[] = {"PLACED", "SHIPPED", "PLACED"};
    const int32_t days2[] = {20717, 20717, 20718};
    int64_t s1 = 0, s2 = 0;
    if (append(t, 2, ids1, st1, days1, &s1) < 0 || append(t, 3, ids2, st2, days2, &s2) < 0)
        return fail("append");
    printf("appended snapshots %" PRId64 " and %" PRId64 "\n", s1, s2);

    int64_t prev = 0, cur = 0;
    if (floe_table_rollback_to_snapshot(&prev, &cur, t, s1) < 0)
        return fail("rollback");
    printf("rollback_to_snapshot: previous_snapshot_id=%" PRId64 " current_snapshot_id=%" PRId64
           "\n",
           prev, cur);

    printf("snapshots:\n");
    for (size_t i = 0; i < floe_table_snapshot_count(t); i++) {
        floe_snapshot_info s;
        floe_table_snapshot_at(&s, t, i);
        print_snapshot(&s, t);
    }
    printf("history (made_current_at, snapshot_id, is_current_ancestor):\n");
    for (size_t i = 0; i < floe_table_history_count(t); i++) {
        floe_history_entry h;
        floe_table_history_at(&h, t, i);
        printf("  %" PRId64 "  %" PRId64 "  %s\n", h.made_current_at_ms, h.snapshot_id,
               h.is_current_ancestor ? "true" : "false");
    }
    if (floe_table_rollback_to_snapshot(NULL, NULL, t, s2) < 0)
        printf("rolling forward fails: %s\n", floe_error_last()->message);

    floe_table_free(t);
    floe_catalog_free(cat);
    return 0;
}
