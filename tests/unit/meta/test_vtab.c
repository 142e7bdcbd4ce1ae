/* SPDX-License-Identifier: Apache-2.0 */
/* sql/vtab: metadata tables queried through SQLite's virtual-table module
 * floe_rows: counts with WHERE, json_extract on summary, ORDER BY, type
 * mapping, pushed-down constraints, the colUsed projection handed to the
 * source, session time zone, DROP TABLE, the numeric collation of wide
 * decimals. */
#include "fixture.h"
#include "sql/vtab.h"

typedef struct env {
    sqlite3 *db;
    floe_vtab_registry *reg;
    floe_table_metadata *m;
} env;

static bool setup(env *e, int upto)
{
    memset(e, 0, sizeof *e);
    e->m = script1(upto);
    if (!e->m || sqlite3_open(":memory:", &e->db) != SQLITE_OK)
        return ft_fail(__FILE__, __LINE__, "setup");
    if (floe__vtab_register(e->db, &e->reg) < 0)
        return ft_fail(__FILE__, __LINE__, "register: %s", ft_floe_err());
    static const char *const names[] = {"snapshots", "history", "refs", "metadata_log_entries"};
    for (size_t i = 0; i < FT_N(names); i++) {
        floe_meta_options o = FLOE_META_OPTIONS_INIT;
        o.metadata = e->m;
        o.metadata_location = meta_file(upto);
        floe_rowsource *rs;
        if (floe__meta_open(&rs, names[i], &o) < 0 ||
            floe__vtab_create(e->reg, NULL, names[i], rs) < 0)
            return ft_fail(__FILE__, __LINE__, "%s: %s", names[i], ft_floe_err());
    }
    return true;
}

static void teardown(env *e)
{
    sqlite3_close(e->db);
    floe__metadata_free(e->m);
}

/* First column of every row, joined with ','. */
static char *query(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        ft_fail(__FILE__, __LINE__, "prepare %s: %s", sql, sqlite3_errmsg(db));
        return NULL;
    }
    floe_buf b = FLOE_BUF_INIT;
    int rc;
    bool first = true;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!first)
            floe__buf_putc(&b, ',');
        first = false;
        const unsigned char *t = sqlite3_column_text(st, 0);
        floe__buf_puts(&b, t ? (const char *)t : "NULL");
    }
    if (rc != SQLITE_DONE)
        ft_fail(__FILE__, __LINE__, "step %s: %s", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    char *s = floe__buf_detach(&b);
    return s ? s : floe__strdup("");
}

#define Q_EQ(db, sql, want)                                                                        \
    do {                                                                                           \
        char *q__ = query(db, sql);                                                                \
        FT_EQ_STR(q__, want);                                                                      \
        floe__free(q__);                                                                           \
    } while (0)

static void test_seed_queries(void)
{
    env e;
    if (!setup(&e, 6))
        return;
    Q_EQ(e.db, "SELECT count(*) FROM history", "6");
    Q_EQ(e.db, "SELECT count(*) FROM history WHERE is_current_ancestor = 0", "2");
    Q_EQ(e.db, "SELECT count(*) FROM metadata_log_entries", "7");
    Q_EQ(e.db, "SELECT snapshot_id FROM refs WHERE name = 'main'", "5270420720687731067");
    Q_EQ(e.db, "SELECT snapshot_id FROM history ORDER BY made_current_at",
         "3657524344527679724,5270420720687731067,23499723825440384,5270420720687731067,"
         "23499723825440384,5270420720687731067");
    Q_EQ(e.db, "SELECT made_current_at FROM history ORDER BY made_current_at LIMIT 1",
         "2026-09-28 13:15:19.839000");
    Q_EQ(e.db,
         "SELECT json_extract(summary, '$.added-records') || '/' || "
         "json_extract(summary, '$.total-records') FROM snapshots ORDER BY committed_at",
         "2/2,1/3,2/5");
    /* the newest committed_at is the abandoned snapshot, as the seed warns */
    Q_EQ(e.db, "SELECT snapshot_id FROM snapshots ORDER BY committed_at DESC LIMIT 1",
         "23499723825440384");
    Q_EQ(e.db,
         "SELECT typeof(snapshot_id) || typeof(parent_id) || typeof(summary) FROM "
         "snapshots WHERE parent_id IS NULL",
         "integernulltext");
    Q_EQ(e.db, "SELECT typeof(is_current_ancestor) FROM history LIMIT 1", "integer");
    Q_EQ(e.db, "SELECT count(*) FROM history WHERE is_current_ancestor = true", "4");
    {
        sqlite3_stmt *st;
        FT_ASSERT(sqlite3_prepare_v2(e.db,
                                     "SELECT is_current_ancestor, history.snapshot_id, "
                                     "made_current_at, summary FROM history, snapshots",
                                     -1, &st, NULL) == SQLITE_OK);
        FT_EQ_STR(sqlite3_column_decltype(st, 0), "BOOLEAN");
        FT_EQ_STR(sqlite3_column_decltype(st, 1), "INTEGER");
        FT_EQ_STR(sqlite3_column_decltype(st, 2), "TEXT");
        FT_EQ_STR(sqlite3_column_decltype(st, 3), "TEXT");
        sqlite3_finalize(st);
    }
    /* JSON subtype: nests as an object, not a string */
    Q_EQ(e.db,
         "SELECT json_object('s', summary) FROM snapshots WHERE snapshot_id = "
         "3657524344527679724",
         "{\"s\":{\"spark.app.id\":\"local-1\",\"added-data-files\":\"1\","
         "\"added-records\":\"2\",\"total-records\":\"2\"}}");
    /* joins, as in the docs */
    Q_EQ(e.db,
         "SELECT s.operation FROM history h JOIN snapshots s ON h.snapshot_id = "
         "s.snapshot_id WHERE h.is_current_ancestor ORDER BY h.made_current_at",
         "append,append,append,append");
    Q_EQ(e.db, "SELECT latest_snapshot_id FROM metadata_log_entries ORDER BY timestamp",
         "NULL,3657524344527679724,5270420720687731067,23499723825440384,5270420720687731067,"
         "23499723825440384,5270420720687731067");
    Q_EQ(e.db, "SELECT count(*) FROM snapshots WHERE committed_at >= '2026-09-28 13:15:22'", "2");
    Q_EQ(e.db,
         "SELECT count(*) FROM snapshots WHERE snapshot_id = 1 OR snapshot_id = "
         "23499723825440384",
         "1");
    teardown(&e);
}

/* A source that records the constraints it is opened with. */
static floe_rs_constraint seen[8];
static size_t nseen;
static floe_rowsource *inner;

static int spy_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                    floe_rowcursor **out)
{
    FLOE_UNUSED(rs);
    nseen = ncons < 8 ? ncons : 8;
    memcpy(seen, cons, nseen * sizeof *cons);
    floe_rowcursor *c;
    FLOE_TRY(floe__rs_open(inner, cons, ncons, &c));
    *out = c;
    return 0;
}

static void spy_free(floe_rowsource *rs)
{
    floe__rs_free(inner);
    floe__free(rs);
}

static void test_pushdown(void)
{
    env e;
    if (!setup(&e, 6))
        return;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = e.m;
    FT_OK(floe__meta_open(&inner, "snapshots", &o));
    static floe_rowsource_ops ops;
    ops = *inner->ops;
    ops.open = spy_open;
    ops.free = spy_free;
    floe_rowsource *spy = floe__calloc(1, sizeof *spy);
    FT_ASSERT(spy);
    *spy = *inner;
    spy->ops = &ops;
    /* the spy says snapshot_id takes =, committed_at takes ranges */
    static floe_rs_column cols[6];
    FT_ASSERT(inner->ncolumns == 6);
    memcpy(cols, inner->columns, sizeof cols);
    cols[0].push = FLOE_RS_PUSH_RANGE;
    cols[1].push = FLOE_RS_PUSH_EQ;
    spy->columns = cols;
    FT_OK(floe__vtab_create(e.reg, "main", "spy", spy));
    Q_EQ(e.db, "SELECT operation FROM spy WHERE snapshot_id = 5270420720687731067", "append");
    FT_EQ_INT(nseen, 1);
    FT_EQ_INT(seen[0].column, 1);
    FT_EQ_INT(seen[0].op, FLOE_RS_EQ);
    FT_EQ_INT(seen[0].value.v.i64, S2);
    Q_EQ(e.db,
         "SELECT count(*) FROM spy WHERE committed_at > '2026-09-28 13:15:20' AND parent_id = 1",
         "0");
    FT_EQ_INT(nseen, 1); /* parent_id is not pushable */
    FT_EQ_INT(seen[0].column, 0);
    /* text comparison: '... 13:15:20.000000' > '... 13:15:20', so the
     * shorter literal is the lower bound >= 13:15:20.000000 */
    FT_EQ_INT(seen[0].op, FLOE_RS_GE);
    FT_EQ_INT(seen[0].value.v.i64, (T0 + 20000) * 1000);
    Q_EQ(e.db, "SELECT count(*) FROM spy WHERE snapshot_id = 'x'", "0");
    FT_EQ_INT(nseen, 0); /* text for a long column is not pushed */
    FT_EQ_INT(floe__vtab_count(e.reg), 5);
    FT_CHECK(sqlite3_exec(e.db, "DROP TABLE spy", NULL, NULL, NULL) == SQLITE_OK);
    FT_EQ_INT(floe__vtab_count(e.reg), 4);
    teardown(&e);
}

/* A source that records the colUsed mask it is opened with (ext). */
static uint64_t seen_used;
static int nprojected;

static int spy_open_projected(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                              uint64_t used, floe_rowcursor **out)
{
    seen_used = used;
    nprojected++;
    return spy_open(rs, cons, ncons, out);
}

static void test_projection(void)
{
    env e;
    if (!setup(&e, 6))
        return;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = e.m;
    FT_OK(floe__meta_open(&inner, "snapshots", &o));
    static floe_rowsource_ops ops;
    static floe_rowsource_ext ext;
    ops = *inner->ops;
    ops.open = spy_open;
    ops.free = spy_free;
    ext.open_projected = spy_open_projected;
    floe_rowsource *spy = floe__calloc(1, sizeof *spy);
    FT_ASSERT(spy);
    *spy = *inner;
    spy->ops = &ops;
    spy->ext = &ext;
    FT_OK(floe__vtab_create(e.reg, "main", "spy", spy));
    /* columns: committed_at 0, snapshot_id 1, parent_id 2, operation 3, ... */
    Q_EQ(e.db, "SELECT operation FROM spy WHERE snapshot_id = 5270420720687731067", "append");
    FT_EQ_INT(nprojected, 1);
    FT_EQ_INT(seen_used, (1u << 1) | (1u << 3));
    Q_EQ(e.db, "SELECT count(*) FROM spy", "3");
    FT_EQ_INT(nprojected, 2);
    FT_EQ_INT(seen_used, 0);
    Q_EQ(e.db, "SELECT count(*) FROM spy WHERE parent_id IS NULL ORDER BY 1", "1");
    FT_EQ_INT(seen_used, 1u << 2);
    FT_CHECK(sqlite3_exec(e.db, "SELECT * FROM spy", NULL, NULL, NULL) == SQLITE_OK);
    FT_EQ_INT(seen_used & 0x3f, 0x3f);
    /* no count() in ext: floe__rs_count says unknown */
    int64_t n = -1;
    FT_EQ_INT(floe__rs_count(spy, &n), 1);
    /* a source without ext: open_projected falls back to open */
    floe_rowsource *plain;
    FT_OK(floe__meta_open(&plain, "refs", &o));
    floe_rowcursor *c;
    FT_OK(floe__rs_open_projected(plain, NULL, 0, 0, &c));
    FT_EQ_INT(floe__rs_next(c), 0);
    floe__rs_close(c);
    floe__rs_free(plain);
    FT_CHECK(floe__rs_col_used(UINT64_C(1) << 63, 70));
    FT_CHECK(!floe__rs_col_used(UINT64_C(1) << 62, 70));
    teardown(&e);
}

static void test_time_zone(void)
{
    env e;
    if (!setup(&e, 1))
        return;
    floe_tz *tz;
    FT_OK(floe__tz_load(&tz, "+02:00"));
    floe__vtab_set_time_zone(e.reg, tz);
    Q_EQ(e.db, "SELECT committed_at FROM snapshots", "2026-09-28 15:15:19.839000");
    Q_EQ(e.db, "SELECT count(*) FROM snapshots WHERE committed_at = '2026-09-28 15:15:19.839'",
         "0"); /* text compares as text: exact format needed */
    Q_EQ(e.db, "SELECT count(*) FROM snapshots WHERE committed_at = '2026-09-28 15:15:19.839000'",
         "1");
    floe__vtab_set_time_zone(e.reg, NULL);
    floe__tz_free(tz);
    teardown(&e);
}

static void test_create_errors(void)
{
    env e;
    if (!setup(&e, 1))
        return;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = e.m;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "refs", &o));
    FT_EQ_INT(floe__vtab_create(e.reg, NULL, "refs", rs), FLOE_EEXISTS);
    FT_EQ_INT(floe__vtab_count(e.reg), 4);
    /* a handle nobody registered */
    char *err = NULL;
    FT_CHECK(sqlite3_exec(e.db, "CREATE VIRTUAL TABLE temp.x USING floe_rows(99)", NULL, NULL,
                          &err) != SQLITE_OK);
    FT_CHECK(err && strstr(err, "no row source with handle 99"));
    sqlite3_free(err);
    /* quoted names */
    FT_OK(floe__meta_open(&rs, "refs", &o));
    FT_OK(floe__vtab_create(e.reg, NULL, "t.refs \"x\"", rs));
    Q_EQ(e.db, "SELECT name FROM \"t.refs \"\"x\"\"\"", "main");
    teardown(&e);
}

/* The numeric collation of wide decimal columns: order by value (signs,
 * zeros, leading and trailing zeros, exponents, 38-digit values), equal
 * values equal, text that is not a number after every number. */
static void test_decimal_collation(void)
{
    env e;
    if (!setup(&e, 1))
        return;
    FT_CHECK(sqlite3_exec(e.db,
                          "CREATE TABLE n(x TEXT COLLATE floe_decimal); INSERT INTO n VALUES "
                          "('1e3'), ('999.99999999999999999999999'), ('-0'), ('0.000'), ('-1.5'), "
                          "('abc'), ('1000.00000000000000000000001'), ('+2'), (' 3 '), ('-1.50'), "
                          "('-12345678901234567890123456789012345.67'), ('0.0001e4'), ('-1e-30'), "
                          "('99999999999999999999999999999999999999'), ('1.'), ('.5'), ('1e'), ('')",
                          NULL, NULL, NULL) == SQLITE_OK);
    Q_EQ(e.db, "SELECT x FROM n ORDER BY x, rowid",
         "-12345678901234567890123456789012345.67,-1.5,-1.50,-1e-30,-0,0.000,.5,0.0001e4,1.,+2, 3 ,"
         "999.99999999999999999999999,1e3,1000.00000000000000000000001,"
         "99999999999999999999999999999999999999,,1e,abc");
    Q_EQ(e.db, "SELECT count(DISTINCT x) FROM n", "15");
    Q_EQ(e.db, "SELECT count(*) FROM n WHERE x = 1000", "1");
    Q_EQ(e.db, "SELECT count(*) FROM n WHERE x = '1000.000'", "1");
    Q_EQ(e.db, "SELECT count(*) FROM n WHERE x > 2", "8"); /* 5 numbers, then the texts */
    Q_EQ(e.db, "SELECT max(x) FROM n WHERE x < 1e40", "99999999999999999999999999999999999999");
    Q_EQ(e.db, "SELECT max(x) FROM n WHERE x < 'a'", "1e");
    teardown(&e);
}

static const ft_case cases[] = {
    {"seed_queries", test_seed_queries},
    {"pushdown", test_pushdown},
    {"projection", test_projection},
    {"time_zone", test_time_zone},
    {"create_errors", test_create_errors},
    {"decimal_collation", test_decimal_collation},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
