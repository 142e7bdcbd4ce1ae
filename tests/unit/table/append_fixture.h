/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the append tests: Arrow batches of the seed's orders table
 * built with floe's Arrow builders, and live-row counts of a snapshot read
 * back through the manifest list and manifests. */
#ifndef FLOE_TEST_TABLE_APPEND_FIXTURE_H
#define FLOE_TEST_TABLE_APPEND_FIXTURE_H

#include "arrow/arrow.h"
#include "fixture.h"
#include "manifest/manifest.h"
#include "spec/value.h"
#include "util/civil.h"

typedef struct fx_order {
    int64_t order_id, customer_id;
    int64_t amount_cents;
    const char *status;
    int y, m, d;
} fx_order;

/* A batch of orders in the table's current schema layout. */
static inline int fx_batch(floe_table *t, const fx_order *rows, size_t n, struct ArrowArray *out)
{
    const floe_type *root = floe__metadata_current_schema(t->metadata)->root;
    floe_arrow_builder *b = NULL;
    FLOE_TRY(floe__arrow_builder_new(&b, root));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        floe_value v[5];
        v[0] = floe_value_long(rows[i].order_id);
        v[1] = floe_value_long(rows[i].customer_id);
        v[2] = floe_value_decimal(rows[i].amount_cents, 2);
        v[3] = floe_value_bytes(FLOE_T_STRING, rows[i].status, strlen(rows[i].status));
        v[4] = floe_value_date((int32_t)floe__days_from_civil(rows[i].y, (unsigned)rows[i].m, (unsigned)rows[i].d));
        for (int c = 0; rc == 0 && c < 5; c++)
            rc = floe__arrow_builder_append(b->children[c], &v[c]);
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, out);
    floe__arrow_builder_free(b);
    return rc;
}

/* Append rows in one commit; returns the snapshot id (0 on failure). */
static inline int64_t fx_append_rows(floe_table *t, const fx_order *rows, size_t n)
{
    floe_append *a = NULL;
    struct ArrowArray arr;
    int64_t id = 0;
    int rc = floe_append_new(&a, t);
    if (rc == 0)
        rc = fx_batch(t, rows, n, &arr);
    if (rc == 0) {
        rc = floe_append_write(a, &arr);
        arr.release(&arr);
    }
    if (rc == 0)
        rc = floe_append_commit(&id, a);
    floe_append_free(a);
    if (rc < 0) {
        ft_fail(__FILE__, __LINE__, "append: %s", ft_floe_err());
        return 0;
    }
    return id;
}

static inline int fx_read_list(floe_table *t, const char *path, floe_buf *bytes,
                               floe_manifest_list **out)
{
    FLOE_TRY(floe__io_read_all(floe_table_io(t), path, (size_t)1 << 30, bytes));
    return floe_manifest_list_read(out, (const uint8_t *)bytes->ptr, bytes->len, path);
}

/* Live rows and data files of a snapshot (from its manifests). */
static inline int fx_count(floe_table *t, int64_t snapshot_id, int64_t *rows, int64_t *files,
                           size_t *nmanifests)
{
    *rows = 0;
    *files = 0;
    const floe_snapshot *s = floe__metadata_snapshot(t->metadata, snapshot_id);
    if (!s)
        return floe__error(FLOE_ENOTFOUND, "test", "no snapshot %lld", (long long)snapshot_id);
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    int rc = fx_read_list(t, floe__table_manifest_list(t, s), &lb, &l);
    if (rc == 0 && nmanifests)
        *nmanifests = l->nentries;
    for (size_t i = 0; rc == 0 && i < l->nentries; i++) {
        floe_buf mb = FLOE_BUF_INIT;
        floe_manifest *m = NULL;
        rc = floe__io_read_all(floe_table_io(t), l->entries[i].manifest_path, (size_t)1 << 30, &mb);
        if (rc == 0)
            rc = floe_manifest_read(&m, (const uint8_t *)mb.ptr, mb.len,
                                    l->entries[i].manifest_path, &l->entries[i]);
        for (size_t k = 0; rc == 0 && k < m->nentries; k++)
            if (m->entries[k].status != FLOE_ENTRY_DELETED) {
                *rows += m->entries[k].data_file.record_count;
                ++*files;
            }
        floe_manifest_free(m);
        floe__buf_free(&mb);
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    return rc;
}

static inline int64_t fx_rows(floe_table *t, int64_t snapshot_id)
{
    int64_t rows = -1, files;
    if (fx_count(t, snapshot_id, &rows, &files, NULL) < 0)
        ft_fail(__FILE__, __LINE__, "count: %s", ft_floe_err());
    return rows;
}

#endif
