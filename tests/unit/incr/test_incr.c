/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Incremental append scan and changelog (include/floe/scan.h "incremental
 * reads"): seed 000 script 2 step 1 over copy-on-write and merge-on-read
 * histories, the watermark after a rollback, random histories checked by
 * applying the changelog, timestamps, fixtures from Spark and Java.
 */
#include "hist.h"
/* after hist.h: gentable.h names a parameter `rows` */
#include "../scan/scanutil.h"
#include "scan/incremental.h"

#include <stdint.h>

/* ---------------------------------------------------------------- helpers */

typedef struct read_opts {
    int64_t start, end; /* 0: unset */
    int mode;
    bool updates, net;
    const char *ident;
} read_opts;

static floe_incremental_options mkopts(const read_opts *r)
{
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    if (r->start) {
        o.has_start_snapshot_id = true;
        o.start_snapshot_id = r->start;
    }
    if (r->end) {
        o.has_end_snapshot_id = true;
        o.end_snapshot_id = r->end;
    }
    o.mode = (floe_incremental_mode)r->mode;
    o.compute_updates = r->updates;
    o.net_changes = r->net;
    static const char *idc[1];
    if (r->ident) {
        idc[0] = r->ident;
        o.identifier_columns = idc;
        o.nidentifier_columns = 1;
    }
    o.threads = 1;
    return o;
}

static int run_changes(floe_fileio *io, const char *meta, const floe_incremental_options *o,
                       rows *out, char *err, size_t errlen)
{
    floe_changelog *cl;
    int rc = floe_changelog_open(&cl, io, meta, o);
    if (rc < 0) {
        snprintf(err, errlen, "%s", ft_floe_err());
        return rc;
    }
    struct ArrowArrayStream st;
    if ((rc = floe_changelog_to_stream(&st, cl)) == 0) {
        rc = drain(&st, out, err, errlen);
        st.release(&st);
    }
    floe_changelog_free(cl);
    return rc;
}

static int changes(const h_table *h, const read_opts *r, rows *out, char *err, size_t errlen)
{
    floe_incremental_options o = mkopts(r);
    return run_changes(NULL, h->meta, &o, out, err, errlen);
}

static int appended(const h_table *h, const read_opts *r, rows *out, char *err, size_t errlen)
{
    floe_incremental_options o = mkopts(r);
    floe_incremental *inc;
    int rc = floe_incremental_append_open(&inc, NULL, h->meta, &o);
    if (rc < 0) {
        snprintf(err, errlen, "%s", ft_floe_err());
        return rc;
    }
    struct ArrowArrayStream st;
    if ((rc = floe_incremental_to_stream(&st, inc)) == 0) {
        rc = drain(&st, out, err, errlen);
        st.release(&st);
    }
    floe_incremental_free(inc);
    return rc;
}

/* Apply changelog rows ("cols...|TYPE|ord|sid", `ncols` table columns) to
 * a multiset of rows; false when a DELETE finds nothing to remove. */
static bool apply(rows *state, const rows *cl)
{
    for (size_t i = 0; i < cl->n; i++) {
        char *line = strdup(cl->row[i]);
        /* cut the 3 metadata fields */
        char *type = NULL;
        for (int k = 0; k < 3; k++) {
            char *bar = strrchr(line, '|');
            if (!bar) {
                free(line);
                return false;
            }
            *bar = 0;
            if (k == 2)
                type = bar + 1;
        }
        bool del = !strcmp(type, "DELETE") || !strcmp(type, "UPDATE_BEFORE");
        if (del) {
            size_t j = 0;
            while (j < state->n && strcmp(state->row[j], line))
                j++;
            if (j == state->n) {
                fprintf(stderr, "  nothing to delete for %s\n", cl->row[i]);
                free(line);
                return false;
            }
            free(state->row[j]);
            state->row[j] = state->row[--state->n];
        } else {
            if (state->n == state->cap) {
                state->cap = state->cap ? state->cap * 2 : 64;
                state->row = realloc(state->row, state->cap * sizeof(char *));
            }
            state->row[state->n++] = strdup(line);
        }
        free(line);
    }
    return true;
}

static void state_of(const h_snap *s, rows *out)
{
    for (size_t i = 0; s && i < s->nrows; i++) {
        if (out->n == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 64;
            out->row = realloc(out->row, out->cap * sizeof(char *));
        }
        out->row[out->n++] = strdup(s->rows[i]);
    }
}

static char *fmt(const char *f, ...) FLOE_PRINTF(1, 2);
static char *fmt(const char *f, ...)
{
    static char buf[8][256];
    static int k;
    va_list ap;
    va_start(ap, f);
    char *b = buf[k++ & 7];
    vsnprintf(b, 256, f, ap);
    va_end(ap);
    return b;
}

/* ---------------------------------------------------------------- seed script 2 step 1 */

enum { COW = 0, MOR_POS = 1, MOR_EQ = 2 };

static int change(h_table *h, int how, int64_t id, const h_row *repl)
{
    return how == COW ? h_cow(h, id, repl) : how == MOR_POS ? h_mor_pos(h, id, repl)
                                                            : h_mor_eq(h, id, repl);
}

typedef struct seed_ids {
    int64_t watermark, now, del, after;
} seed_ids;

static void build_orders(h_table *h, const char *dir, int how, seed_ids *ids)
{
    h_init(h, dir, 4149797747189483000LL);
    h_row r12[2] = {{1001, "PLACED", 12050}, {1002, "PLACED", 7500}};
    h_row r3 = {1003, "PLACED", 31025}, r4 = {1004, "PLACED", 4200};
    h_begin(h);
    FT_OK(h_add_data(h, r12, 2));
    ids->watermark = h_commit(h, "append");
    h_begin(h);
    FT_OK(h_add_data(h, &r3, 1));
    FT_CHECK(h_commit(h, "append") > 0);
    h_begin(h);
    FT_OK(h_add_data(h, &r4, 1));
    ids->now = h_commit(h, "append");
    h_begin(h);
    FT_OK(change(h, how, 1004, NULL)); /* DELETE FROM orders WHERE order_id = 1004 */
    ids->del = h_commit(h, "delete");
    h_begin(h);
    h_row shipped = {1001, "SHIPPED", 12050}; /* UPDATE ... SET status = 'SHIPPED' */
    FT_OK(change(h, how, 1001, &shipped));
    ids->after = h_commit(h, "overwrite");
    FT_CHECK(ids->after > 0);
}

static void test_seed_script2(void)
{
    for (int how = COW; how <= MOR_EQ; how++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/orders%d", ft_tmpdir(), how);
        h_table h;
        seed_ids id;
        build_orders(&h, dir, how, &id);
        char err[1024] = "";
        rows r = {0};
        /* appends since the watermark: exactly the new rows */
        read_opts ro = {id.watermark, id.now, FLOE_INCREMENTAL_STRICT, false, false, NULL};
        FT_OK(appended(&h, &ro, &r, err, sizeof err));
        rows_sort(&r);
        FT_EQ_INT(r.n, 2);
        if (r.n == 2) {
            FT_EQ_STR(r.row[0], "1003|PLACED|31025");
            FT_EQ_STR(r.row[1], "1004|PLACED|4200");
        }
        rows_free(&r);
        /* end defaults to main */
        read_opts ro2 = {id.watermark, 0, FLOE_INCREMENTAL_APPEND_ONLY, false, false, NULL};
        FT_OK(appended(&h, &ro2, &r, err, sizeof err));
        FT_EQ_INT(r.n, 2);
        rows_free(&r);
        /* across the DELETE and the UPDATE: Spark's scan returns nothing */
        read_opts ao = {id.now, id.after, FLOE_INCREMENTAL_APPEND_ONLY, false, false, NULL};
        FT_OK(appended(&h, &ao, &r, err, sizeof err));
        FT_EQ_INT(r.n, 0);
        rows_free(&r);
        /* strict names the delete snapshot and points to table_changes */
        read_opts so = {id.now, id.after, FLOE_INCREMENTAL_STRICT, false, false, NULL};
        FT_EQ_INT(appended(&h, &so, &r, err, sizeof err), FLOE_EINVALID);
        FT_CHECK(strstr(err, fmt("Snapshot %lld (delete)", (long long)id.del)) != NULL);
        FT_CHECK(strstr(err, "table_changes") != NULL);
        rows_free(&r);
        /* table_changes: DELETE 1004, DELETE + INSERT 1001, nothing else */
        read_opts co = {id.now, id.after, 0, false, false, NULL};
        FT_OK(changes(&h, &co, &r, err, sizeof err));
        rows_sort(&r);
        FT_EQ_INT(r.n, 3);
        if (r.n == 3) {
            FT_EQ_STR(r.row[0], fmt("1001|PLACED|12050|DELETE|1|%lld", (long long)id.after));
            FT_EQ_STR(r.row[1], fmt("1001|SHIPPED|12050|INSERT|1|%lld", (long long)id.after));
            FT_EQ_STR(r.row[2], fmt("1004|PLACED|4200|DELETE|0|%lld", (long long)id.del));
        }
        rows_free(&r);
        /* compute_updates with identifier columns, then with the schema's */
        for (int k = 0; k < 2; k++) {
            read_opts uo = {id.now, id.after, 0, true, false, k ? NULL : "order_id"};
            FT_OK(changes(&h, &uo, &r, err, sizeof err));
            rows_sort(&r);
            FT_EQ_INT(r.n, 3);
            if (r.n == 3) {
                FT_EQ_STR(r.row[0],
                          fmt("1001|PLACED|12050|UPDATE_BEFORE|1|%lld", (long long)id.after));
                FT_EQ_STR(r.row[1],
                          fmt("1001|SHIPPED|12050|UPDATE_AFTER|1|%lld", (long long)id.after));
                FT_EQ_STR(r.row[2], fmt("1004|PLACED|4200|DELETE|0|%lld", (long long)id.del));
            }
            rows_free(&r);
        }
        /* net changes from the watermark: 1004 came and went */
        read_opts no = {id.watermark, id.after, 0, false, true, NULL};
        FT_OK(changes(&h, &no, &r, err, sizeof err));
        rows_sort(&r);
        FT_EQ_INT(r.n, 3);
        if (r.n == 3) {
            FT_EQ_STR(r.row[0], fmt("1001|PLACED|12050|DELETE|3|%lld", (long long)id.after));
            FT_EQ_STR(r.row[1], fmt("1001|SHIPPED|12050|INSERT|3|%lld", (long long)id.after));
            FT_CHECK(strncmp(r.row[2], "1003|PLACED|31025|INSERT|0|", 27) == 0);
        }
        rows_free(&r);
        /* option errors */
        read_opts bad = {id.now, id.after, 0, true, true, NULL};
        FT_EQ_INT(changes(&h, &bad, &r, err, sizeof err), FLOE_EINVALID);
        FT_CHECK(strstr(err, "net changes") != NULL);
        read_opts bad2 = {id.now, id.after, 0, true, false, "nope"};
        FT_EQ_INT(changes(&h, &bad2, &r, err, sizeof err), FLOE_EINVALID);
        FT_CHECK(strstr(err, "Cannot find identifier column nope") != NULL);
        rows_free(&r);
        h_free(&h);
    }
}

/* Merge-on-read (position or equality deletes) gives the changelog of
 * copy-on-write, row for row (same snapshot ids by construction). */
static void test_mor_equals_cow(void)
{
    rows res[3] = {{0}, {0}, {0}};
    for (int how = COW; how <= MOR_EQ; how++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/eq%d", ft_tmpdir(), how);
        h_table h;
        seed_ids id;
        build_orders(&h, dir, how, &id);
        char err[1024] = "";
        read_opts co = {0, 0, 0, false, false, NULL};
        FT_OK(changes(&h, &co, &res[how], err, sizeof err));
        rows_sort(&res[how]);
        h_free(&h);
    }
    FT_EQ_INT(res[0].n, 7); /* 4 inserts, 1004 deleted, 1001 deleted + inserted */
    for (int how = 1; how <= 2; how++) {
        FT_EQ_INT(res[how].n, res[0].n);
        for (size_t i = 0; i < res[0].n && i < res[how].n; i++)
            FT_EQ_STR(res[how].row[i], res[0].row[i]);
    }
    for (int k = 0; k < 3; k++)
        rows_free(&res[k]);
}

/* ---------------------------------------------------------------- watermark */

static void test_watermark_rollback(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/wm", ft_tmpdir());
    h_table h;
    h_init(&h, dir, 1822237857672733000LL);
    h_row a = {1, "A", 1}, b = {2, "B", 2}, c = {3, "BAD", 3};
    h_begin(&h);
    FT_OK(h_add_data(&h, &a, 1));
    int64_t s1 = h_commit(&h, "append");
    h_begin(&h);
    FT_OK(h_add_data(&h, &b, 1));
    int64_t s2 = h_commit(&h, "append");
    h_begin(&h);
    FT_OK(h_add_data(&h, &c, 1));
    int64_t s3 = h_commit(&h, "append");
    int64_t wm = 0;
    FT_OK(floe_watermark_read(&wm, NULL, h.meta, NULL));
    FT_EQ_INT(wm, s3); /* the consumer stored main = the bad load */
    /* rollback_to_snapshot(S2): main moves back, S3 stays in the metadata */
    h.main = s2;
    FT_OK(h_write_metadata(&h));
    FT_OK(floe_watermark_read(&wm, NULL, h.meta, NULL));
    FT_EQ_INT(wm, s2);
    char err[1024] = "";
    rows r = {0};
    read_opts ro = {s3, 0, FLOE_INCREMENTAL_APPEND_ONLY, false, false, NULL};
    FT_EQ_INT(appended(&h, &ro, &r, err, sizeof err), FLOE_EINVALID);
    FT_CHECK(strstr(err, fmt("Starting snapshot (exclusive) %lld is not a parent ancestor of end "
                             "snapshot %lld",
                             (long long)s3, (long long)s2)) != NULL);
    read_opts co = {s3, 0, 0, false, false, NULL};
    FT_EQ_INT(changes(&h, &co, &r, err, sizeof err), FLOE_EINVALID);
    FT_CHECK(strstr(err, "is not a parent ancestor of end snapshot") != NULL);
    /* reset to an ancestor: works */
    read_opts ok = {s1, 0, FLOE_INCREMENTAL_STRICT, false, false, NULL};
    FT_OK(appended(&h, &ok, &r, err, sizeof err));
    FT_EQ_INT(r.n, 1);
    if (r.n == 1)
        FT_EQ_STR(r.row[0], "2|B|2");
    rows_free(&r);
    /* a watermark that did not move: nothing */
    read_opts same = {s2, 0, FLOE_INCREMENTAL_STRICT, false, false, NULL};
    FT_OK(appended(&h, &same, &r, err, sizeof err));
    FT_EQ_INT(r.n, 0);
    /* unknown start */
    read_opts unk = {42, 0, FLOE_INCREMENTAL_STRICT, false, false, NULL};
    FT_EQ_INT(appended(&h, &unk, &r, err, sizeof err), FLOE_ENOTFOUND);
    FT_CHECK(strstr(err, "Cannot find the starting snapshot: 42") != NULL);
    rows_free(&r);
    h_free(&h);
}

/* Timestamps: snapshot i of the model is committed at 1700000000000 + seq*1000. */
static void test_timestamps(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/ts", ft_tmpdir());
    h_table h;
    seed_ids id;
    build_orders(&h, dir, COW, &id);
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    o.has_start_timestamp_ms = true;
    o.start_timestamp_ms = 1700000000000LL + 1000; /* seq 1 (the watermark) */
    o.has_end_timestamp_ms = true;
    o.end_timestamp_ms = 1700000000000LL + 3500; /* seq 3 (now) */
    floe_incremental *inc;
    FT_OK(floe_incremental_append_open(&inc, NULL, h.meta, &o));
    int64_t s, e;
    floe_incremental_range(&s, &e, inc);
    FT_EQ_INT(s, id.watermark);
    FT_EQ_INT(e, id.now);
    floe_incremental_free(inc);
    o.end_timestamp_ms = 1000;
    FT_EQ_INT(floe_incremental_append_open(&inc, NULL, h.meta, &o), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Cannot find a snapshot older than 1970-01-01T00:00:01");
    /* a start before the first commit: the whole lineage */
    o.start_timestamp_ms = 5;
    o.has_end_timestamp_ms = false;
    floe_changelog *cl;
    FT_OK(floe_changelog_open(&cl, NULL, h.meta, &o));
    floe_changelog_range(&s, &e, cl);
    FT_EQ_INT(s, -1);
    FT_EQ_INT(e, id.after);
    floe_changelog_free(cl);
    h_free(&h);
}

/* ---------------------------------------------------------------- random histories */

static uint64_t rng_state;
static uint64_t rnd(void)
{
    return ft_xorshift(&rng_state);
}

static int64_t pick_live(const h_table *h)
{
    const h_snap *s = h_snap_by_id(h, h->main);
    if (!s || !s->nrows)
        return -1;
    return atoll(s->rows[rnd() % s->nrows]);
}

static void test_random_histories(void)
{
    for (int round = 0; round < 4; round++) {
        rng_state = 0x9e3779b97f4a7c15ULL * (uint64_t)(round + 1);
        char dir[512];
        snprintf(dir, sizeof dir, "%s/rand%d", ft_tmpdir(), round);
        h_table h;
        h_init(&h, dir, 5000000000000000000LL + round * 1000000);
        int64_t next_id = 1;
        int nops = 14;
        for (int op = 0; op < nops; op++) {
            int kind = op < 2 ? 0 : (int)(rnd() % 3); /* 0 append, 1 delete, 2 update */
            int how = round < 3 ? round : (int)(rnd() % 3);
            int64_t victim = kind ? pick_live(&h) : -1;
            if (kind && victim < 0)
                kind = 0;
            h_begin(&h);
            if (kind == 0) {
                h_row rs[4];
                size_t n = 1 + rnd() % 4;
                for (size_t i = 0; i < n; i++) {
                    rs[i].id = next_id++;
                    snprintf(rs[i].status, sizeof rs[i].status, "S%d", (int)(rnd() % 3));
                    rs[i].amount = (int64_t)(rnd() % 5);
                }
                FT_OK(h_add_data(&h, rs, n));
                FT_CHECK(h_commit(&h, "append") > 0);
            } else if (kind == 1) {
                FT_OK(change(&h, how, victim, NULL));
                FT_CHECK(h_commit(&h, "delete") > 0);
            } else {
                h_row nr = {victim, "UPD", (int64_t)(rnd() % 5)};
                snprintf(nr.status, sizeof nr.status, "U%d", op);
                FT_OK(change(&h, how, victim, &nr));
                FT_CHECK(h_commit(&h, "overwrite") > 0);
            }
        }
        char err[1024] = "";
        /* the generator is right: scans of each snapshot give the model's rows */
        for (size_t i = 0; i < h.nsnaps; i++) {
            floe_scan_options so = FLOE_SCAN_OPTIONS_INIT;
            so.has_snapshot_id = true;
            so.snapshot_id = h.snaps[i].id;
            so.threads = 1;
            floe_scan *sc;
            FT_OK(floe_scan_open(&sc, NULL, h.meta, &so));
            struct ArrowArrayStream st;
            rows got = {0}, want = {0};
            FT_OK(floe_scan_to_stream(&st, sc));
            FT_OK(drain(&st, &got, err, sizeof err));
            st.release(&st);
            floe_scan_free(sc);
            state_of(&h.snaps[i], &want);
            FT_CHECK(same_rows(&got, &want));
            rows_free(&got);
            rows_free(&want);
        }
        /* changelog(A, B) applied to rows(A) = rows(B), in the three flavours */
        for (int pair = 0; pair < 6; pair++) {
            size_t a = rnd() % (h.nsnaps + 1); /* h.nsnaps: no start */
            size_t b = rnd() % h.nsnaps;
            if (a != h.nsnaps && a > b) {
                size_t t = a;
                a = b;
                b = t;
            }
            int64_t A = a == h.nsnaps ? 0 : h.snaps[a].id, B = h.snaps[b].id;
            for (int flavour = 0; flavour < 3; flavour++) {
                read_opts ro = {A, B, 0, flavour == 1, flavour == 2, NULL};
                rows cl = {0}, st = {0}, want = {0};
                int rc = changes(&h, &ro, &cl, err, sizeof err);
                if (rc != 0)
                    ft_fail(__FILE__, __LINE__, "round %d %zu..%zu flavour %d: %s", round, a, b,
                            flavour, err);
                state_of(a == h.nsnaps ? NULL : &h.snaps[a], &st);
                state_of(&h.snaps[b], &want);
                bool ok = apply(&st, &cl) && same_rows(&st, &want);
                if (!ok) {
                    ft_fail(__FILE__, __LINE__, "round %d: changelog %zu..%zu (flavour %d)",
                            round, a, b, flavour);
                    rows_dump(&cl);
                }
                rows_free(&cl);
                rows_free(&st);
                rows_free(&want);
            }
            /* append scan: strict fails iff the range has a non-append */
            bool has_change = false;
            size_t first = a == h.nsnaps ? 0 : a + 1;
            for (size_t k = first; k <= b; k++)
                has_change |= strcmp(h.snaps[k].op, "append") != 0;
            read_opts so = {A, B, FLOE_INCREMENTAL_STRICT, false, false, NULL};
            rows r = {0};
            int rc = appended(&h, &so, &r, err, sizeof err);
            FT_EQ_INT(rc, has_change ? FLOE_EINVALID : 0);
            rows_free(&r);
            read_opts ao = {A, B, FLOE_INCREMENTAL_APPEND_ONLY, false, false, NULL};
            FT_OK(appended(&h, &ao, &r, err, sizeof err));
            rows_free(&r);
        }
        h_free(&h);
    }
}

/* ---------------------------------------------------------------- fixtures */

static void fixture_check(const char *name, const char *loc, int64_t snap, long want_deletes,
                          long want_inserts)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    char dir[1024], meta[1200];
    snprintf(dir, sizeof dir, "%s/fixtures/%s", sh, name);
    snprintf(meta, sizeof meta, "%s/metadata/v5.metadata.json", dir);
    floe_fileio *io = fixture_io(loc, dir);
    FT_ASSERT(io != NULL);
    /* whole history from nothing = the current rows */
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    o.threads = 1;
    rows cl = {0}, st = {0}, cur = {0};
    char err[1024] = "";
    FT_OK(run_changes(io, meta, &o, &cl, err, sizeof err));
    floe_scan *sc;
    FT_OK(floe_scan_open(&sc, io, meta, NULL));
    struct ArrowArrayStream s;
    FT_OK(floe_scan_to_stream(&s, sc));
    FT_OK(drain(&s, &cur, err, sizeof err));
    s.release(&s);
    floe_scan_free(sc);
    FT_CHECK(apply(&st, &cl));
    FT_CHECK(same_rows(&st, &cur));
    rows_free(&cl);
    rows_free(&st);
    /* one snapshot: its deletes and inserts */
    floe_table_metadata *m;
    FT_OK(floe__incr_load_metadata(io, meta, &m));
    const floe_snapshot *sn = floe__metadata_snapshot(m, snap);
    FT_ASSERT(sn && sn->has_parent);
    o.has_start_snapshot_id = true;
    o.start_snapshot_id = sn->parent_snapshot_id;
    o.has_end_snapshot_id = true;
    o.end_snapshot_id = snap;
    FT_OK(run_changes(io, meta, &o, &cl, err, sizeof err));
    long d = 0, in = 0;
    for (size_t i = 0; i < cl.n; i++) {
        d += strstr(cl.row[i], "|DELETE|") != NULL;
        in += strstr(cl.row[i], "|INSERT|") != NULL;
    }
    FT_EQ_INT(d, want_deletes);
    FT_EQ_INT(in, want_inserts);
    rows_free(&cl);
    rows_free(&cur);
    /* strict append scan over the history fails on the delete */
    floe_incremental_options so = FLOE_INCREMENTAL_OPTIONS_INIT;
    floe_incremental *inc;
    FT_EQ_INT(floe_incremental_append_open(&inc, io, meta, &so), FLOE_EINVALID);
    FT_ERR_CONTAINS("table_changes");
    floe__metadata_free(m);
    floe_fileio_free(io);
}

static void test_spark_bunnies(void)
{
    /* snapshot 2: a merge-on-read position delete of one row */
    fixture_check("spark_bunnies", "s3a://hyperparam-iceberg/spark/bunnies", 469881615898633426LL,
                  1, 0);
}

static void test_java_bunnies(void)
{
    /* snapshot 3: an equality delete of "New Zealand" and its new row */
    fixture_check("java_bunnies", "s3a://hyperparam-iceberg/java/bunnies", 9158179788527662767LL,
                  1, 1);
}

/* ---------------------------------------------------------------- row source, OOM */

static void test_rowsource(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/rs", ft_tmpdir());
    h_table h;
    seed_ids id;
    build_orders(&h, dir, MOR_POS, &id);
    floe_fileio *io;
    FT_OK(floe_fileio_open(&io, h.meta, NULL));
    floe_table_metadata *m;
    FT_OK(floe__incr_load_metadata(io, h.meta, &m));
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    o.has_start_snapshot_id = true;
    o.start_snapshot_id = id.now;
    floe_rowsource *rs;
    FT_OK(floe__changelog_rowsource(&rs, m, io, &o));
    FT_EQ_INT(rs->ncolumns, 6);
    FT_EQ_STR(rs->columns[3].name, "_change_type");
    FT_EQ_STR(rs->columns[4].name, "_change_ordinal");
    FT_EQ_STR(rs->columns[5].name, "_commit_snapshot_id");
    for (int pass = 0; pass < 2; pass++) { /* reopenable */
        floe_rowcursor *c;
        FT_OK(rs->ops->open(rs, NULL, 0, &c));
        int n = 0, rc;
        while ((rc = rs->ops->next(c)) == 0) {
            floe_rs_cell cell;
            FT_OK(rs->ops->column(c, 5, &cell));
            FT_CHECK(cell.value.v.i64 == id.del || cell.value.v.i64 == id.after);
            n++;
        }
        FT_EQ_INT(rc, FLOE_ITEROVER);
        FT_EQ_INT(n, 3);
        rs->ops->close(c);
    }
    rs->ops->free(rs);
    /* incremental row source, strict error at creation */
    FT_EQ_INT(floe__incremental_rowsource(&rs, m, io, &o), FLOE_EINVALID);
    o.has_start_snapshot_id = true;
    o.start_snapshot_id = id.watermark;
    o.has_end_snapshot_id = true;
    o.end_snapshot_id = id.now;
    FT_OK(floe__incremental_rowsource(&rs, m, io, &o));
    floe_rowcursor *c;
    FT_OK(rs->ops->open(rs, NULL, 0, &c));
    int64_t sum = 0;
    while (rs->ops->next(c) == 0) {
        floe_rs_cell cell;
        FT_OK(rs->ops->column(c, 0, &cell));
        sum += cell.value.v.i64;
    }
    FT_EQ_INT(sum, 1003 + 1004);
    rs->ops->close(c);
    rs->ops->free(rs);
    floe__metadata_free(m);
    floe_fileio_free(io);
    /* the owning constructors (what the SQL shell uses): own metadata and FileIO */
    floe_incremental_options u = FLOE_INCREMENTAL_OPTIONS_INIT;
    u.has_start_snapshot_id = true;
    u.start_snapshot_id = id.now;
    u.compute_updates = true;
    FT_OK(floe__changelog_rowsource_open(&rs, NULL, h.meta, &u));
    FT_OK(rs->ops->open(rs, NULL, 0, &c));
    int nupd = 0;
    while (rs->ops->next(c) == 0) {
        floe_rs_cell cell;
        FT_OK(rs->ops->column(c, 3, &cell));
        nupd += cell.value.v.bytes.len > 6 && !memcmp(cell.value.v.bytes.ptr, "UPDATE_", 7);
    }
    FT_EQ_INT(nupd, 2);
    rs->ops->close(c);
    rs->ops->free(rs);
    u.compute_updates = false;
    u.mode = FLOE_INCREMENTAL_APPEND_ONLY;
    FT_OK(floe__incremental_rowsource_open(&rs, NULL, h.meta, &u));
    FT_OK(rs->ops->open(rs, NULL, 0, &c));
    FT_EQ_INT(rs->ops->next(c), FLOE_ITEROVER);
    rs->ops->close(c);
    rs->ops->free(rs);
    FT_EQ_INT(floe__changelog_rowsource_open(&rs, NULL, "/nonexistent/v1.metadata.json", &u),
              FLOE_ENOTFOUND);
    h_free(&h);
}

static void test_out_of_memory(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/oom", ft_tmpdir());
    h_table h;
    seed_ids id;
    build_orders(&h, dir, MOR_POS, &id);
    int rc = FLOE_ENOMEM;
    /* the Arrow stream reports errno values: ENOMEM (12) */
    for (int n = 1; (rc == FLOE_ENOMEM || rc == 12) && n < 20000; n++) {
        floe__alloc_fail_at(n);
        rows r = {0};
        char err[1024];
        read_opts co = {id.now, 0, 0, true, false, NULL};
        rc = changes(&h, &co, &r, err, sizeof err);
        floe__alloc_fail_at(0);
        if (rc != 0 && rc != FLOE_ENOMEM && rc != 12)
            ft_fail(__FILE__, __LINE__, "n=%d: rc %d %s", n, rc, err);
        if (rc == 0)
            FT_EQ_INT(r.n, 3);
        rows_free(&r);
    }
    FT_EQ_INT(rc, 0);
    h_free(&h);
}

static const ft_case cases[] = {
    {"seed_script2", test_seed_script2},
    {"mor_equals_cow", test_mor_equals_cow},
    {"watermark_rollback", test_watermark_rollback},
    {"timestamps", test_timestamps},
    {"random_histories", test_random_histories},
    {"spark_bunnies", test_spark_bunnies},
    {"java_bunnies", test_java_bunnies},
    {"rowsource", test_rowsource},
    {"out_of_memory", test_out_of_memory},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
