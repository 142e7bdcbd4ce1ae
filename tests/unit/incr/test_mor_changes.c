/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The changelog over merge-on-read snapshots written by the table layer:
 * position delete files (v2), equality delete files and deletion vectors
 * (v3), mixed with copy-on-write commits (docs/changelog.md "Merge-on-read
 * snapshots"). Random histories: for every pair of consecutive snapshots
 * the net changelog is the difference of the two snapshots' row multisets
 * (as read by the scan), and the per-snapshot changelog of the whole range
 * rebuilds every snapshot in turn, with each change's _change_ordinal and
 * _commit_snapshot_id naming the snapshot that made it. Deterministic
 * cases: a DV that replaces an older DV yields only the newly deleted
 * positions; a merge-on-read UPDATE gives UPDATE_BEFORE / UPDATE_AFTER.
 */
#include "../rowlevel/rlfixture.h"
/* after rlfixture.h: append_fixture.h names a parameter `rows` */
#include "../scan/scanutil.h"
#include "parquet/parquet.h"
#include "spec/spec.h"

/* ---------------------------------------------------------------- helpers */

static floe_table *create(floe_catalog *c, const char *ident, int version, bool partitioned)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "format-version", version == 3 ? "3" : "2");
    floe__props_set(&p, "commit.retry.min-wait-ms", "1");
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = ORDERS_SCHEMA;
    co.partition_spec_json = partitioned ? ORDERS_SPEC : NULL;
    co.properties = &p;
    floe_table *t = NULL;
    if (floe_table_create(&t, c, ident, &co, NULL) < 0)
        ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
    floe__props_free(&p);
    return t;
}

enum { K_APPEND, K_DELETE, K_UPDATE, K_EQ_DELETE, K_UPSERT, K_N };

/* One row-level commit: the rows of `victims` deleted (by filter, or by
 * equality delete), `add` rows written. */
static int commit_op(floe_table *t, int kind, floe_rowlevel_mode mode, const int64_t *victims,
                     size_t nv, const fx_order *add, size_t nadd, int64_t *snap)
{
    *snap = -1;
    if (kind == K_APPEND) {
        *snap = fx_append_rows(t, add, nadd);
        return *snap > 0 ? 0 : -1;
    }
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    o.kind = kind == K_DELETE || kind == K_EQ_DELETE ? FLOE_ROWLEVEL_DELETE
             : kind == K_UPDATE                      ? FLOE_ROWLEVEL_UPDATE
                                                     : FLOE_ROWLEVEL_MERGE;
    o.mode = kind == K_EQ_DELETE || kind == K_UPSERT ? FLOE_ROWLEVEL_MODE_MERGE_ON_READ : mode;
    floe_rowlevel *op = NULL;
    int rc = floe_rowlevel_new(&op, t, &o);
    if (rc == 0 && (kind == K_EQ_DELETE || kind == K_UPSERT)) {
        struct ArrowArray keys;
        int32_t ids[] = {1};
        rc = rl_key_batch(victims, nv, &keys);
        if (rc == 0) {
            rc = floe_rowlevel_write_equality_deletes(op, ids, 1, &keys);
            keys.release(&keys);
        }
    } else if (rc == 0) {
        char filter[512];
        size_t k = 0;
        filter[0] = 0;
        for (size_t i = 0; i < nv; i++)
            k += (size_t)snprintf(filter + k, sizeof filter - k, "%sorder_id = %lld",
                                  i ? " OR " : "", (long long)victims[i]);
        rc = floe_rowlevel_delete_where(op, filter);
    }
    if (rc == 0 && nadd) {
        struct ArrowArray arr;
        rc = fx_batch(t, add, nadd, &arr);
        if (rc == 0) {
            rc = floe_rowlevel_write(op, &arr);
            arr.release(&arr);
        }
    }
    if (rc == 0)
        rc = floe_rowlevel_commit(snap, NULL, op);
    floe_rowlevel_free(op);
    return rc;
}

/* The rows of a snapshot as "c1|c2|...", through the scan. */
static void snapshot_rows(floe_table *t, int64_t id, rows *out)
{
    floe_scan_options so = FLOE_SCAN_OPTIONS_INIT;
    so.has_snapshot_id = true;
    so.snapshot_id = id;
    so.threads = 1;
    floe_scan *sc = NULL;
    char err[512] = "";
    if (floe_scan_open(&sc, floe_table_io(t), floe_table_metadata_location(t), &so) < 0) {
        ft_fail(__FILE__, __LINE__, "scan: %s", ft_floe_err());
        return;
    }
    struct ArrowArrayStream st;
    FT_OK(floe_scan_to_stream(&st, sc));
    if (drain(&st, out, err, sizeof err) != 0)
        ft_fail(__FILE__, __LINE__, "scan stream: %s", err);
    st.release(&st);
    floe_scan_free(sc);
}

typedef struct cl_opts {
    int64_t start, end; /* start 0: from the first snapshot */
    bool updates, net;
    bool by_row_id; /* compute_updates without identifier columns (v3) */
} cl_opts;

static int changelog(floe_table *t, const cl_opts *c, rows *out, char *err, size_t errlen)
{
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    o.has_start_snapshot_id = c->start != 0;
    o.start_snapshot_id = c->start;
    o.has_end_snapshot_id = true;
    o.end_snapshot_id = c->end;
    o.compute_updates = c->updates;
    o.net_changes = c->net;
    static const char *ids[] = {"order_id"};
    bool named = c->updates && !c->by_row_id;
    o.identifier_columns = named ? ids : NULL;
    o.nidentifier_columns = named ? 1 : 0;
    o.threads = 1;
    floe_changelog *cl = NULL;
    int rc = floe_changelog_open(&cl, floe_table_io(t), floe_table_metadata_location(t), &o);
    if (rc == 0) {
        struct ArrowArrayStream st;
        if ((rc = floe_changelog_to_stream(&st, cl)) == 0) {
            rc = drain(&st, out, err, errlen);
            st.release(&st);
        }
    } else {
        snprintf(err, errlen, "%s", ft_floe_err());
    }
    floe_changelog_free(cl);
    return rc;
}

/* A changelog line cut into its row, type, ordinal and snapshot id. */
typedef struct change {
    char row[320];
    char type[16];
    int ordinal;
    long long sid;
} change;

static bool parse_change(const char *line, change *c)
{
    char tmp[320];
    snprintf(tmp, sizeof tmp, "%s", line);
    char *f[3];
    for (int k = 2; k >= 0; k--) {
        char *bar = strrchr(tmp, '|');
        if (!bar)
            return false;
        *bar = 0;
        f[k] = bar + 1;
    }
    snprintf(c->row, sizeof c->row, "%s", tmp);
    snprintf(c->type, sizeof c->type, "%s", f[0]);
    c->ordinal = atoi(f[1]);
    c->sid = atoll(f[2]);
    return true;
}

static void rows_push(rows *r, const char *s)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->row = realloc(r->row, r->cap * sizeof(char *));
    }
    r->row[r->n++] = strdup(s);
}

static void rows_copy(rows *dst, const rows *src)
{
    for (size_t i = 0; i < src->n; i++)
        rows_push(dst, src->row[i]);
}

/* Apply one change to a multiset of rows; false when a removal finds
 * nothing to remove. */
static bool apply_one(rows *state, const change *c)
{
    bool del = !strcmp(c->type, "DELETE") || !strcmp(c->type, "UPDATE_BEFORE");
    if (!del) {
        rows_push(state, c->row);
        return true;
    }
    for (size_t j = 0; j < state->n; j++)
        if (!strcmp(state->row[j], c->row)) {
            free(state->row[j]);
            state->row[j] = state->row[--state->n];
            return true;
        }
    fprintf(stderr, "  nothing to delete for %s\n", c->row);
    return false;
}

/* ---------------------------------------------------------------- random histories */

static uint64_t rng;
static uint64_t rnd(void)
{
    return ft_xorshift(&rng);
}

typedef struct model_row {
    int64_t id;
    char status[16];
    int day;
} model_row;

typedef struct history {
    floe_table *t;
    size_t n;
    int64_t ids[40];
    int kinds[40];
    rows state[40]; /* the scan's rows of each snapshot */
} history;

static bool random_history(floe_catalog *c, int round, history *h)
{
    int version = round % 2 ? 3 : 2;
    bool partitioned = round % 4 >= 2; /* equality deletes need an unpartitioned table */
    char ident[64];
    snprintf(ident, sizeof ident, "shop.rand%d", round);
    memset(h, 0, sizeof *h);
    h->t = create(c, ident, version, partitioned);
    if (!h->t)
        return false;
    model_row live[256];
    size_t nlive = 0;
    int64_t next_id = 1;
    int nops = 16;
    for (int op = 0; op < nops; op++) {
        int kind = op < 2 ? K_APPEND : (int)(rnd() % K_N);
        if (partitioned && (kind == K_EQ_DELETE || kind == K_UPSERT))
            kind = K_DELETE;
        if (kind != K_APPEND && nlive == 0)
            kind = K_APPEND;
        floe_rowlevel_mode mode =
            rnd() % 4 ? FLOE_ROWLEVEL_MODE_MERGE_ON_READ : FLOE_ROWLEVEL_MODE_COPY_ON_WRITE;
        int64_t victims[3];
        size_t nv = 0;
        fx_order add[4];
        char status[4][16];
        size_t nadd = 0;
        if (kind == K_APPEND) {
            nadd = 1 + rnd() % 4;
            for (size_t i = 0; i < nadd; i++) {
                snprintf(status[i], sizeof status[i], "S%d", (int)(rnd() % 3));
                int day = 20 + (int)(rnd() % 2);
                add[i] = (fx_order){next_id++, 500, (int64_t)(rnd() % 5), status[i], 2026, 9, day};
            }
        } else {
            size_t want = 1 + rnd() % 2;
            while (nv < want && nv < nlive) {
                int64_t v = live[rnd() % nlive].id;
                bool dup = false;
                for (size_t k = 0; k < nv; k++)
                    dup |= victims[k] == v;
                if (!dup)
                    victims[nv++] = v;
                else
                    break;
            }
            if (kind == K_UPDATE || kind == K_UPSERT) {
                for (size_t i = 0; i < nv; i++) {
                    int day = 0;
                    for (size_t k = 0; k < nlive; k++)
                        if (live[k].id == victims[i])
                            day = live[k].day;
                    snprintf(status[i], sizeof status[i], "U%d", op);
                    add[nadd++] = (fx_order){victims[i], 500, 7, status[i], 2026, 9, day};
                }
            }
        }
        int64_t snap = -1;
        if (commit_op(h->t, kind, mode, victims, nv, add, nadd, &snap) < 0) {
            ft_fail(__FILE__, __LINE__, "round %d op %d kind %d: %s", round, op, kind,
                    ft_floe_err());
            return false;
        }
        FT_CHECK(snap > 0);
        /* the model */
        for (size_t i = 0; i < nv; i++)
            for (size_t k = 0; k < nlive; k++)
                if (live[k].id == victims[i]) {
                    live[k] = live[--nlive];
                    break;
                }
        for (size_t i = 0; i < nadd && nlive < 256; i++) {
            live[nlive].id = add[i].order_id;
            snprintf(live[nlive].status, sizeof live[nlive].status, "%s", add[i].status);
            live[nlive++].day = add[i].d;
        }
        h->ids[h->n] = snap;
        h->kinds[h->n] = kind;
        snapshot_rows(h->t, snap, &h->state[h->n]);
        /* the generator is right: the scan reads the model */
        FT_EQ_INT(h->state[h->n].n, nlive);
        h->n++;
    }
    /* the history exercised what it is about */
    int dvs = 0, removed_dvs = 0, eq = 0, pos = 0;
    for (size_t i = 0; i < h->n; i++) {
        dvs += atoi(rl_sum(h->t, h->ids[i], "added-dvs"));
        removed_dvs += atoi(rl_sum(h->t, h->ids[i], "removed-dvs"));
        eq += atoi(rl_sum(h->t, h->ids[i], "added-equality-delete-files"));
        pos += atoi(rl_sum(h->t, h->ids[i], "added-position-delete-files"));
    }
    FT_CHECK(version == 3 ? dvs > 0 && removed_dvs > 0 && pos == 0 : dvs == 0 && pos > 0);
    FT_CHECK(partitioned ? eq == 0 : eq > 0);
    return true;
}

static void history_free(history *h)
{
    for (size_t i = 0; i < h->n; i++)
        rows_free(&h->state[i]);
    floe_table_free(h->t);
}

static void test_random_mor_histories(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    char err[1024];
    for (int round = 0; round < 8; round++) {
        rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(round + 7);
        history h;
        if (!random_history(c, round, &h)) {
            history_free(&h);
            break;
        }
        /* 1. consecutive snapshots: net changelog = difference of the multisets */
        for (size_t i = 1; i < h.n; i++) {
            for (int flavour = 0; flavour < 3; flavour++) {
                cl_opts o = {h.ids[i - 1], h.ids[i], flavour == 1, flavour == 2, false};
                rows cl = {0}, st = {0};
                FT_OK(changelog(h.t, &o, &cl, err, sizeof err));
                rows_copy(&st, &h.state[i - 1]);
                bool ok = true;
                for (size_t k = 0; k < cl.n && ok; k++) {
                    change ch;
                    ok = parse_change(cl.row[k], &ch) && ch.ordinal == 0 &&
                         ch.sid == (long long)h.ids[i] && apply_one(&st, &ch);
                }
                if (!ok || !same_rows(&st, &h.state[i])) {
                    ft_fail(__FILE__, __LINE__, "round %d: snapshot %zu (kind %d) flavour %d",
                            round, i, h.kinds[i], flavour);
                    rows_dump(&cl);
                }
                /* net: no row both deleted and inserted */
                for (size_t a = 0; flavour == 2 && a < cl.n; a++)
                    for (size_t b = 0; b < cl.n; b++) {
                        change x, y;
                        parse_change(cl.row[a], &x);
                        parse_change(cl.row[b], &y);
                        FT_CHECK(!(strcmp(x.row, y.row) == 0 && strcmp(x.type, y.type) != 0));
                    }
                /* compute_updates: an UPDATE / upsert of a victim is a pair */
                if (flavour == 1 && (h.kinds[i] == K_UPDATE || h.kinds[i] == K_UPSERT)) {
                    size_t before = 0, after = 0;
                    for (size_t k = 0; k < cl.n; k++) {
                        change ch;
                        parse_change(cl.row[k], &ch);
                        before += !strcmp(ch.type, "UPDATE_BEFORE");
                        after += !strcmp(ch.type, "UPDATE_AFTER");
                        FT_CHECK(strcmp(ch.type, "INSERT") && strcmp(ch.type, "DELETE"));
                    }
                    FT_CHECK(before == after && before > 0);
                }
                rows_free(&cl);
                rows_free(&st);
            }
        }
        /* 2. the whole history, per snapshot: rebuilds every snapshot */
        for (int flavour = 0; flavour < (round % 2 ? 3 : 2); flavour++) {
            cl_opts o = {0, h.ids[h.n - 1], flavour >= 1, false, flavour == 2};
            rows cl = {0}, st = {0};
            FT_OK(changelog(h.t, &o, &cl, err, sizeof err));
            size_t k = 0;
            for (size_t i = 0; i < h.n; i++) {
                bool ok = true;
                for (; k < cl.n && ok; k++) {
                    change ch;
                    ok = parse_change(cl.row[k], &ch);
                    if (ok && ch.ordinal != (int)i)
                        break;
                    ok = ok && ch.sid == (long long)h.ids[i] && apply_one(&st, &ch);
                }
                rows want = {0};
                rows_copy(&want, &h.state[i]);
                if (!ok || !same_rows(&st, &want))
                    ft_fail(__FILE__, __LINE__, "round %d: replay to snapshot %zu flavour %d",
                            round, i, flavour);
                rows_free(&want);
            }
            FT_EQ_INT(k, cl.n);
            rows_free(&cl);
            rows_free(&st);
        }
        /* 3. random ranges, net */
        for (int pair = 0; pair < 4; pair++) {
            size_t a = rnd() % h.n, b = rnd() % h.n;
            if (a > b) {
                size_t x = a;
                a = b;
                b = x;
            }
            cl_opts o = {h.ids[a], h.ids[b], false, true, false};
            rows cl = {0}, st = {0};
            FT_OK(changelog(h.t, &o, &cl, err, sizeof err));
            rows_copy(&st, &h.state[a]);
            bool ok = true;
            for (size_t k = 0; k < cl.n && ok; k++) {
                change ch;
                ok = parse_change(cl.row[k], &ch) && apply_one(&st, &ch);
            }
            if (!ok || !same_rows(&st, &h.state[b]))
                ft_fail(__FILE__, __LINE__, "round %d: net %zu..%zu", round, a, b);
            rows_free(&cl);
            rows_free(&st);
        }
        history_free(&h);
    }
    floe_catalog_free(c);
}

/* ---------------------------------------------------------------- deterministic */

/* v3: a DV that replaces the file's older DV yields only the positions it
 * adds, as DELETEs of its own snapshot. */
static void test_dv_replaces_dv(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = create(c, "shop.dv", 3, false);
    FT_ASSERT(t);
    static const fx_order three[] = {{1, 500, 1, "A", 2026, 9, 20},
                                     {2, 500, 2, "B", 2026, 9, 20},
                                     {3, 500, 3, "C", 2026, 9, 20}};
    int64_t s0 = fx_append_rows(t, three, 3);
    int64_t v1[] = {1}, v2[] = {3}, s1 = -1, s2 = -1;
    FT_OK(commit_op(t, K_DELETE, FLOE_ROWLEVEL_MODE_MERGE_ON_READ, v1, 1, NULL, 0, &s1));
    FT_OK(commit_op(t, K_DELETE, FLOE_ROWLEVEL_MODE_MERGE_ON_READ, v2, 1, NULL, 0, &s2));
    FT_EQ_STR(rl_sum(t, s2, "added-dvs"), "1");
    FT_EQ_STR(rl_sum(t, s2, "removed-dvs"), "1");
    rows cl = {0};
    char err[512];
    cl_opts o = {s0, s2, false, false, false};
    FT_OK(changelog(t, &o, &cl, err, sizeof err));
    FT_EQ_INT(cl.n, 2);
    if (cl.n == 2) {
        change a, b;
        FT_CHECK(parse_change(cl.row[0], &a) && parse_change(cl.row[1], &b));
        FT_CHECK(!strncmp(a.row, "1|", 2) && !strcmp(a.type, "DELETE") && a.ordinal == 0 &&
                 a.sid == (long long)s1);
        FT_CHECK(!strncmp(b.row, "3|", 2) && !strcmp(b.type, "DELETE") && b.ordinal == 1 &&
                 b.sid == (long long)s2);
    }
    rows_free(&cl);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* A merge-on-read UPDATE (DV + new data file in one snapshot) gives an
 * UPDATE_BEFORE / UPDATE_AFTER pair with compute_updates; the unchanged
 * neighbours of the file never appear. */
static void test_mor_update_pairs(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    for (int version = 2; version <= 3; version++) {
        char ident[32];
        snprintf(ident, sizeof ident, "shop.upd%d", version);
        floe_table *t = create(c, ident, version, true);
        FT_ASSERT(t);
        static const fx_order two[] = {{1, 500, 1, "A", 2026, 9, 20},
                                       {2, 500, 2, "B", 2026, 9, 20}};
        static const fx_order upd[] = {{2, 500, 2, "B2", 2026, 9, 20}};
        int64_t s0 = fx_append_rows(t, two, 2), s1 = -1;
        int64_t v[] = {2};
        FT_OK(commit_op(t, K_UPDATE, FLOE_ROWLEVEL_MODE_MERGE_ON_READ, v, 1, upd, 1, &s1));
        FT_EQ_STR(rl_sum(t, s1, version == 3 ? "added-dvs" : "added-position-delete-files"),
                  "1");
        rows cl = {0};
        char err[512];
        cl_opts o = {s0, s1, true, false, false};
        FT_OK(changelog(t, &o, &cl, err, sizeof err));
        FT_EQ_INT(cl.n, 2);
        if (cl.n == 2) {
            change a, b;
            FT_CHECK(parse_change(cl.row[0], &a) && parse_change(cl.row[1], &b));
            FT_EQ_STR(a.type, "UPDATE_BEFORE");
            FT_EQ_STR(b.type, "UPDATE_AFTER");
            FT_CHECK(strstr(a.row, "|B|") && strstr(b.row, "|B2|"));
        }
        rows_free(&cl);
        floe_table_free(t);
    }
    floe_catalog_free(c);
}


/* ---------------------------------------------------------------- row lineage */

#define LINEAGE_SCHEMA                                                                             \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"order_id\",\"required\":false,\"type\":\"long\"},"                       \
    "{\"id\":2,\"name\":\"customer_id\",\"required\":false,\"type\":\"long\"},"                    \
    "{\"id\":3,\"name\":\"amount\",\"required\":false,\"type\":\"decimal(10, 2)\"},"               \
    "{\"id\":4,\"name\":\"status\",\"required\":false,\"type\":\"string\"},"                       \
    "{\"id\":5,\"name\":\"order_date\",\"required\":false,\"type\":\"date\"},"                     \
    "{\"id\":2147483540,\"name\":\"_row_id\",\"required\":false,\"type\":\"long\"}]}"

/* A merge-on-read commit as a v3 writer that keeps row lineage makes it
 * (Java's, Spark's): the rows `del` removed by a DV, and one new data file
 * of `add` whose _row_id column holds rid[i] (< 0: null, a new row that
 * inherits a fresh id). */
static int lineage_commit(floe_table *t, const char *del, const fx_order *add, const int64_t *rid,
                          size_t n, int64_t *snap)
{
    floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
    o.kind = FLOE_ROWLEVEL_UPDATE;
    o.mode = FLOE_ROWLEVEL_MODE_MERGE_ON_READ;
    floe_rowlevel *op = NULL;
    floe_arena *a = floe__arena_new(4096);
    floe_json *j = NULL;
    floe_schema *sc = NULL;
    floe_arrow_builder *b = NULL;
    struct ArrowArray arr = {0};
    floe_pq_metrics m;
    memset(&m, 0, sizeof m);
    char path[600];
    snprintf(path, sizeof path, "%s/data/lineage-%lld.parquet",
             floe_table_location(t), (long long)rid[0]);
    int rc = floe_rowlevel_new(&op, t, &o);
    if (rc == 0)
        rc = floe_rowlevel_delete_where(op, del);
    if (rc == 0)
        rc = floe__json_parse(&j, LINEAGE_SCHEMA, strlen(LINEAGE_SCHEMA), "schema");
    if (rc == 0)
        rc = floe__schema_from_json(&sc, j, 0, a);
    if (rc == 0)
        rc = floe__arrow_builder_new(&b, sc->root);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        floe_value v[6];
        v[0] = floe_value_long(add[i].order_id);
        v[1] = floe_value_long(add[i].customer_id);
        v[2] = floe_value_decimal(add[i].amount_cents, 2);
        v[3] = floe_value_bytes(FLOE_T_STRING, add[i].status, strlen(add[i].status));
        v[4] = floe_value_date((int32_t)floe__days_from_civil(2026, 9, 20));
        v[5] = rid[i] >= 0 ? floe_value_long(rid[i]) : floe_value_null(FLOE_T_LONG);
        for (int k = 0; rc == 0 && k < 6; k++)
            rc = floe__arrow_builder_append(b->children[k], &v[k]);
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, &arr);
    if (rc == 0)
        rc = floe__write_delete_parquet(floe_table_io(t), path, sc, &arr,
                                        &t->metadata->properties, false, &m);
    floe_append *w = NULL;
    if (rc == 0)
        rc = floe__rowlevel_writer(op, &w);
    if (rc == 0) {
        floe_data_file df;
        memset(&df, 0, sizeof df);
        df.content = FLOE_FILE_DATA;
        df.file_path = path;
        df.file_format = "PARQUET";
        df.record_count = m.record_count;
        df.file_size_in_bytes = m.file_size_in_bytes;
        rc = floe__data_file_set_metrics(a, &m, &df);
        if (rc == 0)
            rc = floe__append_add_file(w, &df);
    }
    if (rc == 0)
        rc = floe_rowlevel_commit(snap, NULL, op);
    if (arr.release)
        arr.release(&arr);
    floe__pq_metrics_free(&m);
    floe__arrow_builder_free(b);
    if (sc)
        floe__schema_release(sc);
    floe__json_free(j);
    floe_rowlevel_free(op);
    floe__arena_free(a);
    return rc;
}

/* v3, no identifier columns: compute_updates pairs a deleted and an
 * inserted row of one snapshot that share a _row_id; a re-inserted row
 * with a new _row_id (even of the same key) stays DELETE + INSERT. */
static int lineage_changes(floe_table *t, int64_t s0, int64_t s1, rows *out, char *err,
                           size_t errlen)
{
    cl_opts o = {s0, s1, true, false, true};
    return changelog(t, &o, out, err, errlen);
}

static void test_lineage_pairs(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = create(c, "shop.lin", 3, false);
    FT_ASSERT(t);
    static const fx_order three[] = {{1, 500, 1, "A", 2026, 9, 20},
                                     {2, 500, 2, "B", 2026, 9, 20},
                                     {3, 500, 3, "C", 2026, 9, 20}};
    int64_t s0 = fx_append_rows(t, three, 3), s1 = -1;
    /* rows 1, 2, 3 have _row_id 0, 1, 2; update 2 keeping its id, replace 3
     * by a new row (new id) of the same key, insert 4 */
    static const fx_order add[] = {{2, 500, 2, "B2", 2026, 9, 20},
                                   {3, 500, 3, "C2", 2026, 9, 20},
                                   {4, 500, 4, "D", 2026, 9, 20}};
    int64_t rid[] = {1, -1, -1};
    FT_OK(lineage_commit(t, "order_id = 2 OR order_id = 3", add, rid, 3, &s1));
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    o.has_start_snapshot_id = true;
    o.start_snapshot_id = s0;
    o.has_end_snapshot_id = true;
    o.end_snapshot_id = s1;
    o.compute_updates = true;
    o.threads = 1;
    floe_changelog *cl = NULL;
    struct ArrowArrayStream st;
    rows r = {0};
    char err[512];
    FT_OK(lineage_changes(t, s0, s1, &r, err, sizeof err));
    /* DELETEs, UPDATE pairs, INSERTs */
    FT_EQ_INT(r.n, 5);
    if (r.n == 5) {
        change ch[5];
        for (int i = 0; i < 5; i++)
            FT_CHECK(parse_change(r.row[i], &ch[i]) && ch[i].sid == (long long)s1 &&
                     ch[i].ordinal == 0);
        FT_CHECK(!strncmp(ch[0].row, "3|", 2) && strstr(ch[0].row, "|C|") &&
                 !strcmp(ch[0].type, "DELETE"));
        FT_CHECK(!strncmp(ch[1].row, "2|", 2) && strstr(ch[1].row, "|B|") &&
                 !strcmp(ch[1].type, "UPDATE_BEFORE"));
        FT_CHECK(!strncmp(ch[2].row, "2|", 2) && strstr(ch[2].row, "|B2|") &&
                 !strcmp(ch[2].type, "UPDATE_AFTER"));
        FT_CHECK(strstr(ch[3].row, "|C2|") && !strcmp(ch[3].type, "INSERT"));
        FT_CHECK(!strncmp(ch[4].row, "4|", 2) && !strcmp(ch[4].type, "INSERT"));
    }
    rows_free(&r);
    /* the same range by key pairs 3 as well */
    static const char *ids[] = {"order_id"};
    o.identifier_columns = ids;
    o.nidentifier_columns = 1;
    FT_OK(floe_changelog_open(&cl, floe_table_io(t), floe_table_metadata_location(t), &o));
    FT_OK(floe_changelog_to_stream(&st, cl));
    FT_OK(drain(&st, &r, err, sizeof err));
    st.release(&st);
    floe_changelog_free(cl);
    int pairs = 0;
    for (size_t i = 0; i < r.n; i++)
        pairs += strstr(r.row[i], "|UPDATE_BEFORE|") != NULL;
    FT_EQ_INT(r.n, 5);
    FT_EQ_INT(pairs, 2);
    rows_free(&r);
    /* a v2 table without identifier columns is still refused */
    floe_table *t2 = create(c, "shop.lin2", 2, false);
    FT_ASSERT(t2);
    int64_t a0 = fx_append_rows(t2, three, 3);
    int64_t a1 = fx_append_rows(t2, add, 1);
    o.identifier_columns = NULL;
    o.nidentifier_columns = 0;
    o.start_snapshot_id = a0;
    o.end_snapshot_id = a1;
    FT_EQ_INT(floe_changelog_open(&cl, floe_table_io(t2), floe_table_metadata_location(t2), &o),
              FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot compute updates without identifier columns");
    floe_table_free(t2);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* Out of memory at every allocation of the _row_id pairing: FLOE_ENOMEM
 * (or the Arrow stream's ENOMEM), nothing leaked (ASan), then the answer. */
static void test_lineage_out_of_memory(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = create(c, "shop.linoom", 3, false);
    FT_ASSERT(t);
    static const fx_order two[] = {{1, 500, 1, "A", 2026, 9, 20}, {2, 500, 2, "B", 2026, 9, 20}};
    static const fx_order add[] = {{2, 500, 2, "B2", 2026, 9, 20}};
    int64_t s0 = fx_append_rows(t, two, 2), s1 = -1, rid[] = {1};
    FT_OK(lineage_commit(t, "order_id = 2", add, rid, 1, &s1));
    int rc = FLOE_ENOMEM;
    for (long n = 1; (rc == FLOE_ENOMEM || rc == 12) && n < 50000; n++) {
        rows r = {0};
        char err[512] = "";
        floe__alloc_fail_at(n);
        rc = lineage_changes(t, s0, s1, &r, err, sizeof err);
        floe__alloc_fail_at(0);
        if (rc != 0 && rc != FLOE_ENOMEM && rc != 12)
            ft_fail(__FILE__, __LINE__, "n=%ld: rc %d %s", n, rc, err);
        if (rc == 0) /* (the test's own row text may have failed to allocate) */
            FT_EQ_INT(r.n, 2);
        rows_free(&r);
    }
    FT_EQ_INT(rc, 0);
    rows r = {0};
    char err[512] = "";
    FT_OK(lineage_changes(t, s0, s1, &r, err, sizeof err));
    FT_CHECK(r.n == 2 && strstr(r.row[0], "|UPDATE_BEFORE|") && strstr(r.row[1], "|UPDATE_AFTER|"));
    rows_free(&r);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"lineage_pairs", test_lineage_pairs},
    {"lineage_out_of_memory", test_lineage_out_of_memory},
    {"dv_replaces_dv", test_dv_replaces_dv},
    {"mor_update_pairs", test_mor_update_pairs},
    {"random_mor_histories", test_random_mor_histories},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
