/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the row-level tests: the seed's orders table (script 2),
 * row-level operations in one call, and the rows a snapshot reads through
 * the scan (deletes applied) as "order_id:status" text. */
#ifndef FLOE_TEST_ROWLEVEL_FIXTURE_H
#define FLOE_TEST_ROWLEVEL_FIXTURE_H

#include "../table/append_fixture.h"
#include "floe/scan.h"
#include "table/rowdelta.h"

#include <stdlib.h>

/* 1001 and 1002 share a file (2026-09-20); 1003 and 1004 have their own. */
static const fx_order RL_LOAD1[] = {{1001, 501, 12050, "PLACED", 2026, 9, 20},
                                    {1002, 502, 7500, "PLACED", 2026, 9, 20}};
static const fx_order RL_LOAD2[] = {{1003, 503, 31025, "PLACED", 2026, 9, 21}};
static const fx_order RL_LOAD3[] = {{1004, 504, 990, "PLACED", 2026, 9, 22}};
static const fx_order RL_1001_SHIPPED[] = {{1001, 501, 12050, "SHIPPED", 2026, 9, 20}};

static inline floe_table *rl_orders(floe_catalog *c, const char *ident, const char *mode)
{
    floe_props p = FLOE_PROPS_INIT;
    if (mode) {
        floe__props_set(&p, "write.delete.mode", mode);
        floe__props_set(&p, "write.update.mode", mode);
        floe__props_set(&p, "write.merge.mode", mode);
    }
    /* lost races retry at once (the default waits 100 ms) */
    floe__props_set(&p, "commit.retry.min-wait-ms", "1");
    floe_table *t = NULL;
    if (fx_create(&t, c, ident, &p) < 0)
        ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
    floe__props_free(&p);
    if (!t)
        return NULL;
    fx_append_rows(t, RL_LOAD1, 2);
    fx_append_rows(t, RL_LOAD2, 1);
    fx_append_rows(t, RL_LOAD3, 1);
    return t;
}

/* DELETE FROM t WHERE <filter>; returns rc, snapshot in *id. */
static inline int rl_delete(floe_table *t, const char *filter, int64_t *id)
{
    floe_rowlevel *op = NULL;
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    int rc = floe_rowlevel_new(&op, t, &o);
    if (rc == 0)
        rc = floe_rowlevel_delete_where(op, filter);
    if (rc == 0)
        rc = floe_rowlevel_commit(id, NULL, op);
    floe_rowlevel_free(op);
    return rc;
}

/* UPDATE: remove the rows matching `filter`, add `rows`. */
static inline int rl_update(floe_table *t, const char *filter, const fx_order *rows, size_t n,
                            int64_t *id)
{
    floe_rowlevel *op = NULL;
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    o.kind = FLOE_ROWLEVEL_UPDATE;
    struct ArrowArray arr;
    int rc = floe_rowlevel_new(&op, t, &o);
    if (rc == 0)
        rc = floe_rowlevel_delete_where(op, filter);
    if (rc == 0)
        rc = fx_batch(t, rows, n, &arr);
    if (rc == 0) {
        rc = floe_rowlevel_write(op, &arr);
        arr.release(&arr);
    }
    if (rc == 0)
        rc = floe_rowlevel_commit(id, NULL, op);
    floe_rowlevel_free(op);
    return rc;
}

/* A batch of equality-delete keys: struct<order_id long (id 1)>. */
static inline int rl_key_batch(const int64_t *ids, size_t n, struct ArrowArray *out)
{
    static const floe_type t_long = {.id = FLOE_T_LONG};
    static const floe_field f = {.id = 1, .name = "order_id", .type = &t_long};
    static const floe_type root = {.id = FLOE_T_STRUCT, .nfields = 1, .fields = &f};
    floe_arrow_builder *b = NULL;
    FLOE_TRY(floe__arrow_builder_new(&b, &root));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        floe_value v = floe_value_long(ids[i]);
        rc = floe__arrow_builder_append(b->children[0], &v);
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

static int rl_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Rows of a snapshot (id < 0: current; ref != NULL: that ref) as sorted
 * "order_id:status" joined by ','. Caller frees. */
static inline char *rl_rows_ref(floe_table *t, int64_t snapshot_id, const char *ref)
{
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.threads = 1;
    if (snapshot_id >= 0) {
        o.has_snapshot_id = true;
        o.snapshot_id = snapshot_id;
    }
    o.ref = ref;
    const char *cols[] = {"order_id", "status"};
    o.columns = cols;
    o.ncolumns = 2;
    floe_scan *s = NULL;
    if (floe_scan_open(&s, floe_table_io(t), floe_table_metadata_location(t), &o) < 0) {
        ft_fail(__FILE__, __LINE__, "scan: %s", ft_floe_err());
        return NULL;
    }
    struct ArrowArrayStream st;
    char **items = NULL;
    size_t n = 0, cap = 0;
    if (floe_scan_to_stream(&st, s) == 0) {
        for (;;) {
            struct ArrowArray b;
            if (st.get_next(&st, &b) != 0) {
                ft_fail(__FILE__, __LINE__, "stream: %s", st.get_last_error(&st));
                break;
            }
            if (!b.release)
                break;
            const int64_t *ids = (const int64_t *)b.children[0]->buffers[1] + b.children[0]->offset;
            const struct ArrowArray *sc = b.children[1];
            const int32_t *off = (const int32_t *)sc->buffers[1] + sc->offset;
            const char *data = sc->buffers[2];
            for (int64_t i = 0; i < b.length; i++) {
                if (n == cap) {
                    cap = cap ? cap * 2 : 16;
                    items = realloc(items, cap * sizeof *items);
                }
                char buf[128];
                snprintf(buf, sizeof buf, "%lld:%.*s", (long long)ids[i],
                         (int)(off[i + 1] - off[i]), data + off[i]);
                items[n++] = strdup(buf);
            }
            b.release(&b);
        }
        st.release(&st);
    }
    floe_scan_free(s);
    if (n)
        qsort(items, n, sizeof *items, rl_cmp_str);
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(items[i]) + 1;
    char *out = calloc(1, len);
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, ",");
        strcat(out, items[i]);
        free(items[i]);
    }
    free(items);
    return out;
}

static inline char *rl_rows(floe_table *t, int64_t snapshot_id)
{
    return rl_rows_ref(t, snapshot_id, NULL);
}

#define RL_ROWS_EQ(t, id, expect)                                                                  \
    do {                                                                                           \
        char *rl__r = rl_rows((t), (id));                                                          \
        FT_EQ_STR(rl__r ? rl__r : "(null)", (expect));                                             \
        free(rl__r);                                                                               \
    } while (0)

/* The summary value `key` of snapshot `id` ("" when absent). */
static inline const char *rl_sum(floe_table *t, int64_t id, const char *key)
{
    const char *v = floe_table_snapshot_summary(t, id, key);
    return v ? v : "";
}

#endif
