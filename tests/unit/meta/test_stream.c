/* SPDX-License-Identifier: Apache-2.0 */
/* floe_metadata_table_stream (include/floe/meta.h): metadata tables of a
 * table handle as Arrow C streams with Spark's column names and types, time
 * travel by id / ref / time with Java's messages, batches of at most
 * batch_rows rows, a stream that outlives its handle, and every allocation
 * failing in turn (FLOE_ENOMEM or every row, never a leak or a crash). */
#include "../table/append_fixture.h"
#include "floe/meta.h"

#include <errno.h>

typedef struct fxt {
    floe_catalog *c;
    floe_table *t;
    int64_t s1, s2; /* two appends: 2 rows on 09-20, then 1 row on 09-21 */
} fxt;

static bool fxt_open(fxt *f)
{
    memset(f, 0, sizeof *f);
    if (!(f->c = fx_catalog()))
        return false;
    if (fx_create(&f->t, f->c, "shop.orders", NULL) < 0) {
        ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
        return false;
    }
    fx_order a[] = {{1, 10, 150, "PLACED", 2026, 9, 20}, {2, 11, 250, "PLACED", 2026, 9, 20}};
    fx_order b[] = {{3, 12, 350, "SHIPPED", 2026, 9, 21}};
    f->s1 = fx_append_rows(f->t, a, 2);
    f->s2 = fx_append_rows(f->t, b, 1);
    return f->s1 && f->s2;
}

static void fxt_close(fxt *f)
{
    floe_table_free(f->t);
    floe_catalog_free(f->c);
}

/* Child `name` of a struct schema, or NULL. */
static const struct ArrowSchema *child(const struct ArrowSchema *s, const char *name, int64_t *at)
{
    for (int64_t i = 0; i < s->n_children; i++)
        if (strcmp(s->children[i]->name, name) == 0) {
            if (at)
                *at = i;
            return s->children[i];
        }
    return NULL;
}

/* Rows of every batch; the first batch's arrays kept in *first (released
 * by the caller when first->release is set). -1 on a stream error, whose
 * errno-style code is left in drain_errno. */
static int drain_errno;
static int64_t drain(struct ArrowArrayStream *st, struct ArrowArray *first, int64_t *batches)
{
    int64_t rows = 0, n = 0;
    memset(first, 0, sizeof *first);
    for (;;) {
        struct ArrowArray a;
        int rc = st->get_next(st, &a);
        if (rc != 0) {
            drain_errno = rc;
            return -1;
        }
        if (!a.release)
            break;
        rows += a.length;
        if (n++ == 0)
            *first = a;
        else
            a.release(&a);
    }
    if (batches)
        *batches = n;
    return rows;
}

static const int64_t *longs(const struct ArrowArray *a, int64_t col)
{
    return (const int64_t *)a->children[col]->buffers[1];
}

static bool is_null(const struct ArrowArray *a, int64_t col, int64_t row)
{
    const uint8_t *v = a->children[col]->buffers[0];
    return v && !(v[row / 8] >> (row % 8) & 1);
}

static void test_names(void)
{
    FT_EQ_STR(floe_metadata_table_name(0), "snapshots");
    size_t n = 0;
    bool files = false;
    while (floe_metadata_table_name(n)) {
        files = files || strcmp(floe_metadata_table_name(n), "files") == 0;
        n++;
    }
    FT_EQ_INT(n, 16);
    FT_CHECK(files);
    FT_CHECK(floe_metadata_table_name(1000) == NULL);
}

/* snapshots: Spark's columns and types, and the two commits in order. */
static void test_snapshots(void)
{
    fxt f;
    if (!fxt_open(&f))
        return;
    struct ArrowArrayStream st;
    FT_OK(floe_metadata_table_stream(&st, f.t, "snapshots", NULL));
    struct ArrowSchema s;
    FT_ASSERT(st.get_schema(&st, &s) == 0);
    FT_EQ_STR(s.format, "+s");
    FT_EQ_INT(s.n_children, 6);
    static const char *const want[][2] = {{"committed_at", "tsu:UTC"}, {"snapshot_id", "l"},
                                          {"parent_id", "l"},          {"operation", "u"},
                                          {"manifest_list", "u"},      {"summary", "+m"}};
    for (size_t i = 0; i < FT_N(want); i++) {
        FT_EQ_STR(s.children[i]->name, want[i][0]);
        FT_EQ_STR(s.children[i]->format, want[i][1]);
    }
    const struct ArrowSchema *e = s.children[5]->children[0];
    FT_EQ_STR(e->children[0]->format, "u");
    FT_EQ_STR(e->children[1]->format, "u");
    s.release(&s);
    struct ArrowArray a;
    FT_EQ_INT(drain(&st, &a, NULL), 2);
    if (a.release) {
        FT_EQ_INT(longs(&a, 1)[0], f.s1);
        FT_EQ_INT(longs(&a, 1)[1], f.s2);
        FT_CHECK(is_null(&a, 2, 0));
        FT_EQ_INT(longs(&a, 2)[1], f.s1);
        a.release(&a);
    }
    st.release(&st);
    fxt_close(&f);
}

/* files: the partition struct and readable_metrics typed from the table;
 * time travel by id, ref and time; batches of batch_rows. */
static void test_files_time_travel(void)
{
    fxt f;
    if (!fxt_open(&f))
        return;
    FT_OK(floe_table_create_tag(f.t, "first", FLOE_REF_CREATE, &(floe_ref_options){
                                                                   .version =
                                                                       FLOE_REF_OPTIONS_VERSION,
                                                                   .has_snapshot_id = true,
                                                                   .snapshot_id = f.s1}));
    struct ArrowArrayStream st;
    FT_OK(floe_metadata_table_stream(&st, f.t, "files", NULL));
    struct ArrowSchema s;
    FT_ASSERT(st.get_schema(&st, &s) == 0);
    const struct ArrowSchema *p = child(&s, "partition", NULL);
    FT_ASSERT(p != NULL);
    FT_EQ_STR(p->format, "+s");
    FT_EQ_STR(p->children[0]->name, "order_date");
    FT_EQ_STR(p->children[0]->format, "tdD");
    FT_EQ_STR(child(&s, "content", NULL)->format, "i");
    FT_EQ_STR(child(&s, "record_count", NULL)->format, "l");
    FT_EQ_STR(child(&s, "column_sizes", NULL)->format, "+m");
    FT_EQ_STR(child(&s, "lower_bounds", NULL)->children[0]->children[1]->format, "z");
    FT_EQ_STR(child(&s, "split_offsets", NULL)->format, "+l");
    const struct ArrowSchema *rm = child(&s, "readable_metrics", NULL);
    FT_ASSERT(rm != NULL);
    const struct ArrowSchema *amount = child(rm, "amount", NULL);
    FT_ASSERT(amount != NULL);
    FT_EQ_STR(child(amount, "lower_bound", NULL)->format, "d:10,2");
    FT_EQ_STR(child(amount, "column_size", NULL)->format, "l");
    FT_EQ_STR(child(child(rm, "order_date", NULL), "upper_bound", NULL)->format, "tdD");
    int64_t rc_col = -1;
    child(&s, "record_count", &rc_col);
    s.release(&s);
    struct ArrowArray a;
    FT_EQ_INT(drain(&st, &a, NULL), 2);
    if (a.release) {
        int64_t r0 = longs(&a, rc_col)[0], r1 = longs(&a, rc_col)[1];
        FT_EQ_INT(r0 + r1, 3);
        a.release(&a);
    }
    st.release(&st);

    floe_metadata_table_options o = FLOE_METADATA_TABLE_OPTIONS_INIT;
    o.has_snapshot_id = true;
    o.snapshot_id = f.s1;
    FT_OK(floe_metadata_table_stream(&st, f.t, "files", &o));
    FT_EQ_INT(drain(&st, &a, NULL), 1);
    if (a.release) {
        FT_EQ_INT(longs(&a, rc_col)[0], 2);
        a.release(&a);
    }
    st.release(&st);

    o = (floe_metadata_table_options)FLOE_METADATA_TABLE_OPTIONS_INIT;
    o.ref = "first";
    FT_OK(floe_metadata_table_stream(&st, f.t, "entries", &o));
    FT_EQ_INT(drain(&st, &a, NULL), 1);
    if (a.release)
        a.release(&a);
    st.release(&st);

    floe_snapshot_info si;
    FT_OK(floe_table_snapshot_by_id(&si, f.t, f.s2));
    o = (floe_metadata_table_options)FLOE_METADATA_TABLE_OPTIONS_INIT;
    o.has_as_of_timestamp = true;
    o.as_of_timestamp_ms = si.timestamp_ms;
    o.batch_rows = 1;
    int64_t batches = 0;
    FT_OK(floe_metadata_table_stream(&st, f.t, "files", &o));
    FT_EQ_INT(drain(&st, &a, &batches), 2);
    FT_EQ_INT(batches, 2);
    if (a.release)
        a.release(&a);
    st.release(&st);
    fxt_close(&f);
}

/* The stream reads its own copy of the metadata: the handle may commit
 * (a rollback here) while it is read; it borrows only the FileIO (here one
 * the test lends to the handle), so the handle itself may even be freed. */
static void test_outlives_handle(void)
{
    fxt f;
    if (!fxt_open(&f))
        return;
    floe_fileio *io = NULL;
    FT_OK(floe_fileio_open(&io, "file", NULL));
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = io;
    floe_table *t = NULL;
    FT_OK(floe_table_load(&t, f.c, "shop.orders", &to));
    struct ArrowArrayStream st, files;
    FT_OK(floe_metadata_table_stream(&st, t, "history", NULL));
    FT_OK(floe_metadata_table_stream(&files, t, "files", NULL));
    int64_t prev, cur;
    FT_OK(floe_table_rollback_to_snapshot(&prev, &cur, t, f.s1));
    floe_table_free(t);
    struct ArrowArray a;
    FT_EQ_INT(drain(&st, &a, NULL), 2);
    if (a.release) {
        FT_EQ_INT(longs(&a, 1)[1], f.s2); /* the history as of the stream's open */
        a.release(&a);
    }
    st.release(&st);
    FT_EQ_INT(drain(&files, &a, NULL), 2); /* s2's files, not s1's */
    if (a.release)
        a.release(&a);
    files.release(&files);
    floe_fileio_free(io);
    fxt_close(&f);
}

static void test_errors(void)
{
    fxt f;
    if (!fxt_open(&f))
        return;
    struct ArrowArrayStream st;
    FT_EQ_INT(floe_metadata_table_stream(&st, f.t, "nope", NULL), FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Unknown metadata table: nope");
    FT_CHECK(st.release == NULL);
    floe_metadata_table_options o = FLOE_METADATA_TABLE_OPTIONS_INIT;
    o.has_snapshot_id = true;
    o.snapshot_id = f.s1;
    FT_EQ_INT(floe_metadata_table_stream(&st, f.t, "history", &o), FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot select snapshot in table: HISTORY");
    o.snapshot_id = 42;
    FT_EQ_INT(floe_metadata_table_stream(&st, f.t, "files", &o), FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot find snapshot with ID 42");
    o = (floe_metadata_table_options)FLOE_METADATA_TABLE_OPTIONS_INIT;
    o.ref = "nope";
    FT_EQ_INT(floe_metadata_table_stream(&st, f.t, "files", &o), FLOE_ENOTFOUND);
    FT_ERR_IS(FLOE_ENOTFOUND, "Cannot find matching snapshot ID or reference name for version nope");
    o = (floe_metadata_table_options)FLOE_METADATA_TABLE_OPTIONS_INIT;
    o.has_as_of_timestamp = true;
    o.as_of_timestamp_ms = 0;
    FT_EQ_INT(floe_metadata_table_stream(&st, f.t, "files", &o), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Cannot find a snapshot older than 1970-01-01");
    o = (floe_metadata_table_options)FLOE_METADATA_TABLE_OPTIONS_INIT;
    o.version = 99;
    FT_EQ_INT(floe_metadata_table_stream(&st, f.t, "files", &o), FLOE_EINVALID);
    FT_EQ_INT(floe_metadata_table_stream(&st, NULL, "files", NULL), FLOE_EINVALID);
    FT_EQ_INT(floe_metadata_table_stream(&st, f.t, NULL, NULL), FLOE_EINVALID);
    FT_EQ_INT(floe_metadata_table_stream(NULL, f.t, "files", NULL), FLOE_EINVALID);
    fxt_close(&f);
}

/* Every allocation failing in turn, for a table read from the metadata
 * file alone and one that reads manifests. */
static void test_out_of_memory(void)
{
    fxt f;
    if (!fxt_open(&f))
        return;
    static const char *const names[] = {"snapshots", "files", "partitions"};
    static const int64_t want[] = {2, 2, 2};
    for (size_t t = 0; t < FT_N(names); t++) {
        bool done = false;
        for (long nth = 1; nth < 50000 && !done; nth++) {
            struct ArrowArrayStream st;
            floe__alloc_fail_at(nth);
            int rc = floe_metadata_table_stream(&st, f.t, names[t], NULL);
            int64_t rows = 0;
            if (rc == 0) {
                struct ArrowArray a;
                struct ArrowSchema s;
                int erc = st.get_schema(&st, &s);
                if (erc == 0) {
                    s.release(&s);
                    rows = drain(&st, &a, NULL);
                    if (a.release)
                        a.release(&a);
                }
                if (erc == 0 && rows < 0)
                    erc = drain_errno;
                if (erc != 0) {
                    const char *msg = st.get_last_error(&st);
                    rc = erc == ENOMEM || (msg && strstr(msg, "out of memory")) ? FLOE_ENOMEM
                                                                                  : FLOE_ERROR;
                    if (rc != FLOE_ENOMEM)
                        ft_fail(__FILE__, __LINE__, "%s nth %ld: %s", names[t], nth,
                                msg ? msg : "?");
                }
                st.release(&st);
            }
            long used = floe__alloc_count();
            floe__alloc_fail_at(0);
            if (rc == 0 && used < nth) {
                FT_EQ_INT(rows, want[t]);
                done = true;
            } else if (rc != 0 && rc != FLOE_ENOMEM) {
                ft_fail(__FILE__, __LINE__, "%s nth %ld: %d %s", names[t], nth, rc,
                        ft_floe_err());
                break;
            }
        }
        FT_CHECK(done);
    }
    fxt_close(&f);
}

static const ft_case cases[] = {
    {"names", test_names},
    {"snapshots", test_snapshots},
    {"files_time_travel", test_files_time_travel},
    {"outlives_handle", test_outlives_handle},
    {"errors", test_errors},
    {"out_of_memory", test_out_of_memory},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
