/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every SQL statement and CALL of seed 000's scripts (time travel and
 * rollback; incremental reads, write-audit-publish and retention; the stale
 * reader) and of its article text parses to the struct written here by hand,
 * with `--catalog-name ice`. Python f-string placeholders are filled with the
 * values the seed printed.
 */
#include "dump.h"

#include <sqlite3.h>

#define T1 "ice.shop.orders"
#define T2 "ice.shop.orders_wap"

static void test_script1_ddl(void)
{
    EXPECT_PARSE("CREATE NAMESPACE IF NOT EXISTS ice.shop", "ice",
                 "CREATE_NAMESPACE\nns: shop\nflags: if_not_exists\n");
    EXPECT_PARSE("DROP TABLE IF EXISTS " T1 " PURGE", "ice",
                 "DROP_TABLE\ntarget: ice.shop.orders\nflags: if_exists purge\n");
    EXPECT_PARSE("\n    CREATE TABLE " T1 " (\n"
                 "        order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2),\n"
                 "        status STRING, order_date DATE)\n"
                 "    USING iceberg\n"
                 "    PARTITIONED BY (order_date)\n",
                 "ice",
                 "CREATE_TABLE\ntarget: ice.shop.orders\n"
                 "col: order_id long\ncol: customer_id long\ncol: amount decimal(10,2)\n"
                 "col: status string\ncol: order_date date\n"
                 "using: iceberg\npart: identity(order_date)\n");
}

static void test_script1_reads(void)
{
    /* count() with an empty suffix leaves a trailing space */
    EXPECT_PARSE("SELECT count(*) FROM " T1 " ", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders\"\n"
                 "ref: floe_ref_1 = ice.shop.orders\n");
    EXPECT_PARSE("SELECT snapshot_id FROM " T1 ".snapshots ORDER BY committed_at", "ice",
                 "QUERY\nquery: SELECT snapshot_id FROM \"floe_ref_1\" AS \"snapshots\" "
                 "ORDER BY committed_at\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:snapshots\n");
    EXPECT_PARSE("SELECT snapshot_id FROM " T1 ".refs WHERE name = 'main'", "ice",
                 "QUERY\nquery: SELECT snapshot_id FROM \"floe_ref_1\" AS \"refs\" "
                 "WHERE name = 'main'\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:refs\n");
    EXPECT_PARSE(
        "SELECT committed_at FROM " T1 ".snapshots WHERE snapshot_id = 3657524344527679724", "ice",
        "QUERY\nquery: SELECT committed_at FROM \"floe_ref_1\" AS \"snapshots\" "
        "WHERE snapshot_id = 3657524344527679724\n"
        "ref: floe_ref_1 = ice.shop.orders meta:snapshots\n");
    EXPECT_PARSE("SELECT count(*) FROM " T1 " VERSION AS OF 3657524344527679724", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders\"\n"
                 "ref: floe_ref_1 = ice.shop.orders @snapshot:3657524344527679724\n");
    /* str(datetime) with and without microseconds */
    EXPECT_PARSE("SELECT count(*) FROM " T1 " TIMESTAMP AS OF '2026-09-20 22:04:11.532000'", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders\"\n"
                 "ref: floe_ref_1 = ice.shop.orders @ts:2026-09-20 22:04:11.532000\n");
    EXPECT_PARSE("SELECT count(*) FROM " T1 " TIMESTAMP AS OF '2026-09-20 22:04:11'", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders\"\n"
                 "ref: floe_ref_1 = ice.shop.orders @ts:2026-09-20 22:04:11.000000\n");
    EXPECT_PARSE("\n    SELECT snapshot_id, parent_id, operation,\n"
                 "           summary['added-records'] AS added, summary['total-records'] AS total\n"
                 "    FROM " T1 ".snapshots ORDER BY committed_at\n",
                 "ice",
                 "QUERY\nquery: SELECT snapshot_id, parent_id, operation, "
                 "json_extract(summary, '$.\"added-records\"') AS added, "
                 "json_extract(summary, '$.\"total-records\"') AS total "
                 "FROM \"floe_ref_1\" AS \"snapshots\" ORDER BY committed_at\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:snapshots\n");
    EXPECT_PARSE("\n    SELECT made_current_at, snapshot_id, parent_id, is_current_ancestor\n"
                 "    FROM " T1 ".history ORDER BY made_current_at\n",
                 "ice",
                 "QUERY\nquery: SELECT made_current_at, snapshot_id, parent_id, "
                 "is_current_ancestor FROM \"floe_ref_1\" AS \"history\" ORDER BY made_current_at\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:history\n");
    EXPECT_PARSE("SELECT snapshot_id FROM " T1 ".snapshots ORDER BY committed_at DESC LIMIT 1",
                 "ice",
                 "QUERY\nquery: SELECT snapshot_id FROM \"floe_ref_1\" AS \"snapshots\" "
                 "ORDER BY committed_at DESC LIMIT 1\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:snapshots\n");
    EXPECT_PARSE("SELECT count(*) FROM " T1 ".files", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"files\"\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:files\n");
    EXPECT_PARSE("SELECT count(*) FROM " T1 ".all_data_files", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"all_data_files\"\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:all_data_files\n");
    EXPECT_PARSE("SELECT count(*) FROM " T1 ".metadata_log_entries", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"metadata_log_entries\"\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:metadata_log_entries\n");
    EXPECT_PARSE("DESCRIBE TABLE EXTENDED " T1, "ice",
                 "DESCRIBE\ntarget: ice.shop.orders\nflags: extended\n");
}

static void test_script1_calls(void)
{
    EXPECT_PARSE("CALL ice.system.rollback_to_snapshot('shop.orders', 5270420720687731067)", "ice",
                 "CALL\ncall: ice.system.rollback_to_snapshot\narg: 'shop.orders'\n"
                 "arg: 5270420720687731067\n");
    EXPECT_PARSE("CALL ice.system.rollback_to_snapshot('shop.orders', 23499723825440384)", "ice",
                 "CALL\ncall: ice.system.rollback_to_snapshot\narg: 'shop.orders'\n"
                 "arg: 23499723825440384\n");
    EXPECT_PARSE("CALL ice.system.set_current_snapshot('shop.orders', 23499723825440384)", "ice",
                 "CALL\ncall: ice.system.set_current_snapshot\narg: 'shop.orders'\n"
                 "arg: 23499723825440384\n");
    EXPECT_PARSE("CALL ice.system.set_current_snapshot('shop.orders', 5270420720687731067)", "ice",
                 "CALL\ncall: ice.system.set_current_snapshot\narg: 'shop.orders'\n"
                 "arg: 5270420720687731067\n");
}

static void test_script1_explain(void)
{
    EXPECT_PARSE("EXPLAIN SELECT * FROM ice.shop.orders WHERE order_date = DATE'2026-09-20';",
                 "ice",
                 "EXPLAIN\nquery: SELECT * FROM \"floe_ref_1\" AS \"orders\" "
                 "WHERE order_date = '2026-09-20'\n"
                 "ref: floe_ref_1 = ice.shop.orders\n");
    EXPECT_PARSE("EXPLAIN SELECT * FROM ice.shop.orders VERSION AS OF 3657524344527679724\n"
                 "        WHERE order_date = DATE'2026-09-20';",
                 "ice",
                 "EXPLAIN\nquery: SELECT * FROM \"floe_ref_1\" AS \"orders\" "
                 "WHERE order_date = '2026-09-20'\n"
                 "ref: floe_ref_1 = ice.shop.orders @snapshot:3657524344527679724\n");
}

static void test_script2(void)
{
    EXPECT_PARSE("SELECT snapshot_id FROM " T2 ".refs WHERE name = 'main'", "ice",
                 "QUERY\nquery: SELECT snapshot_id FROM \"floe_ref_1\" AS \"refs\" "
                 "WHERE name = 'main'\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap meta:refs\n");
    EXPECT_PARSE("DELETE FROM " T2 " WHERE order_id = 1004", "ice",
                 "DELETE\ntarget: ice.shop.orders_wap\nwhere: order_id = 1004\n");
    EXPECT_PARSE("UPDATE " T2 " SET status = 'SHIPPED' WHERE order_id = 1001", "ice",
                 "UPDATE\ntarget: ice.shop.orders_wap\nset: status = 'SHIPPED'\n"
                 "where: order_id = 1001\n");
    EXPECT_PARSE("SELECT snapshot_id, operation FROM " T2 ".snapshots\n"
                 "        ORDER BY committed_at DESC LIMIT 2",
                 "ice",
                 "QUERY\nquery: SELECT snapshot_id, operation FROM \"floe_ref_1\" AS "
                 "\"snapshots\" ORDER BY committed_at DESC LIMIT 2\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap meta:snapshots\n");
    EXPECT_PARSE("ALTER TABLE " T2 " CREATE BRANCH audit", "ice",
                 "CREATE_REF\ntarget: ice.shop.orders_wap\nbranch: audit op=create\n");
    EXPECT_PARSE("SELECT count(*) FROM " T2 " VERSION AS OF 'audit'", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders_wap\"\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap @ref:audit\n");
    EXPECT_PARSE("ALTER TABLE " T2 " DROP BRANCH audit", "ice",
                 "DROP_REF\ntarget: ice.shop.orders_wap\nbranch: audit\n");
    EXPECT_PARSE("DELETE FROM " T2 " WHERE order_id = 1005", "ice",
                 "DELETE\ntarget: ice.shop.orders_wap\nwhere: order_id = 1005\n");
    EXPECT_PARSE("SELECT count(*) FROM " T2 " VERSION AS OF 'audit' WHERE amount <= 0", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders_wap\" "
                 "WHERE amount <= 0\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap @ref:audit\n");
    EXPECT_PARSE("DELETE FROM " T2 ".branch_audit WHERE amount <= 0", "ice",
                 "DELETE\ntarget: ice.shop.orders_wap branch:audit\nwhere: amount <= 0\n");
    EXPECT_PARSE("CALL ice.system.fast_forward('shop.orders_wap', 'main', 'audit')", "ice",
                 "CALL\ncall: ice.system.fast_forward\narg: 'shop.orders_wap'\narg: 'main'\n"
                 "arg: 'audit'\n");
    EXPECT_PARSE("ALTER TABLE " T2 " CREATE TAG `close-2026-09` AS OF VERSION 7848268967418525682 "
                 "RETAIN 365 DAYS",
                 "ice",
                 "CREATE_REF\ntarget: ice.shop.orders_wap\ntag: close-2026-09 op=create "
                 "snapshot=7848268967418525682 max_ref_age_ms=31536000000\n");
    EXPECT_PARSE("SELECT snapshot_id FROM " T2 ".history ORDER BY made_current_at LIMIT 1", "ice",
                 "QUERY\nquery: SELECT snapshot_id FROM \"floe_ref_1\" AS \"history\" "
                 "ORDER BY made_current_at LIMIT 1\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap meta:history\n");
    EXPECT_PARSE("SELECT count(*) FROM " T2 ".snapshots", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"snapshots\"\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap meta:snapshots\n");
    EXPECT_PARSE("CALL ice.system.expire_snapshots(table => 'shop.orders_wap')", "ice",
                 "CALL\ncall: ice.system.expire_snapshots\narg: table => 'shop.orders_wap'\n");
    EXPECT_PARSE("ALTER TABLE " T2 " SET TBLPROPERTIES (\n"
                 "        'history.expire.max-snapshot-age-ms' = '1',\n"
                 "        'history.expire.min-snapshots-to-keep' = '2')",
                 "ice",
                 "SET_PROPS\ntarget: ice.shop.orders_wap\n"
                 "prop: history.expire.max-snapshot-age-ms=1\n"
                 "prop: history.expire.min-snapshots-to-keep=2\n");
    EXPECT_PARSE("SELECT s.snapshot_id, r.name AS ref\n"
                 "        FROM " T2 ".snapshots s LEFT JOIN " T2 ".refs r ON s.snapshot_id = "
                 "r.snapshot_id\n"
                 "        ORDER BY s.committed_at",
                 "ice",
                 "QUERY\n"
      "query: SELECT s.snapshot_id, r.name AS ref FROM \"floe_ref_1\" AS s LEFT JOIN \"floe_ref_2\" AS r ON s.snapshot_id = r.snapshot_id ORDER BY s.committed_at\n"
      "ref: floe_ref_1 = ice.shop.orders_wap meta:snapshots\n"
      "ref: floe_ref_2 = ice.shop.orders_wap meta:refs\n");
    EXPECT_PARSE("SELECT count(*) FROM " T2 " VERSION AS OF 'close-2026-09'", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders_wap\"\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap @ref:close-2026-09\n");
    EXPECT_PARSE("SELECT count(*) FROM " T2 " VERSION AS OF 9433222583856300", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders_wap\"\n"
                 "ref: floe_ref_1 = ice.shop.orders_wap @snapshot:9433222583856300\n");
    EXPECT_PARSE("DROP TABLE " T2 " PURGE", "ice",
                 "DROP_TABLE\ntarget: ice.shop.orders_wap\nflags: purge\n");
}

static void test_stale_reader(void)
{
    EXPECT_PARSE("SELECT count(*) FROM ice.shop.orders_cache", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders_cache\"\n"
                 "ref: floe_ref_1 = ice.shop.orders_cache\n");
    EXPECT_PARSE("CREATE TABLE ice.shop.orders_cache (order_id BIGINT, amount DECIMAL(10,2)) "
                 "USING iceberg",
                 "ice",
                 "CREATE_TABLE\ntarget: ice.shop.orders_cache\ncol: order_id long\n"
                 "col: amount decimal(10,2)\nusing: iceberg\n");
    EXPECT_PARSE("INSERT INTO ice.shop.orders_cache VALUES (1001, 120.50), (1002, 75.00), "
                 "(1003, 310.25)",
                 "ice",
                 "INSERT\ntarget: ice.shop.orders_cache\n"
                 "query: VALUES (1001, 120.50), (1002, 75.00), (1003, 310.25)\n");
    EXPECT_PARSE("INSERT INTO ice.shop.orders_cache VALUES (1003, 310.25), (1004, -1.00)", "ice",
                 "INSERT\n"
      "target: ice.shop.orders_cache\n"
      "query: VALUES (1003, 310.25), (1004, -1.00)\n");
    /* The seed's second catalog is `ops`; in one floe session both names
     * are the same catalog, so `ops` parses when it is the catalog name. */
    EXPECT_PARSE("CALL ops.system.rollback_to_snapshot('shop.orders_cache', 1)", "ops",
                 "CALL\ncall: ops.system.rollback_to_snapshot\narg: 'shop.orders_cache'\n"
                 "arg: 1\n");
    EXPECT_PARSE("REFRESH TABLE ice.shop.orders_cache", "ice",
                 "REFRESH\ntarget: ice.shop.orders_cache\n");
    EXPECT_PARSE("DROP TABLE ice.shop.orders_cache PURGE", "ice",
                 "DROP_TABLE\ntarget: ice.shop.orders_cache\nflags: purge\n");
}

static void test_article_snippets(void)
{
    EXPECT_PARSE("SELECT made_current_at, snapshot_id, parent_id, is_current_ancestor\n"
                 "FROM ice.shop.orders.history\n"
                 "ORDER BY made_current_at DESC LIMIT 20;",
                 "ice",
                 "QUERY\nquery: SELECT made_current_at, snapshot_id, parent_id, "
                 "is_current_ancestor FROM \"floe_ref_1\" AS \"history\" "
                 "ORDER BY made_current_at DESC LIMIT 20\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:history\n");
    EXPECT_PARSE("SELECT snapshot_id, operation,\n"
                 "       summary['added-records']   AS added,\n"
                 "       summary['deleted-records'] AS deleted,\n"
                 "       summary['total-records']   AS total\n"
                 "FROM ice.shop.orders.snapshots;",
                 "ice",
                 "QUERY\nquery: SELECT snapshot_id, operation, "
                 "json_extract(summary, '$.\"added-records\"') AS added, "
                 "json_extract(summary, '$.\"deleted-records\"') AS deleted, "
                 "json_extract(summary, '$.\"total-records\"') AS total "
                 "FROM \"floe_ref_1\" AS \"snapshots\"\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:snapshots\n");
    EXPECT_PARSE("ALTER TABLE ice.shop.orders SET TBLPROPERTIES (\n"
                 "  'history.expire.max-snapshot-age-ms'   = '604800000',   -- 7 days\n"
                 "  'history.expire.min-snapshots-to-keep' = '50');",
                 "ice",
                 "SET_PROPS\ntarget: ice.shop.orders\n"
                 "prop: history.expire.max-snapshot-age-ms=604800000\n"
                 "prop: history.expire.min-snapshots-to-keep=50\n");
    EXPECT_PARSE("ALTER TABLE ice.shop.orders CREATE TAG `close-2026-09`\n"
                 "  AS OF VERSION 5270420720687731067 RETAIN 365 DAYS;",
                 "ice",
                 "CREATE_REF\ntarget: ice.shop.orders\ntag: close-2026-09 op=create "
                 "snapshot=5270420720687731067 max_ref_age_ms=31536000000\n");
    EXPECT_PARSE("CALL ice.system.expire_snapshots(table => 'shop.orders');", "ice",
                 "CALL\ncall: ice.system.expire_snapshots\narg: table => 'shop.orders'\n");
    EXPECT_PARSE("SELECT (SELECT sum(file_size_in_bytes) FROM ice.shop.orders.all_data_files)\n"
                 "     - (SELECT sum(file_size_in_bytes) FROM ice.shop.orders.files)\n"
                 "       AS bytes_held_only_by_old_snapshots;",
                 "ice",
                 "QUERY\nquery: SELECT (SELECT sum(file_size_in_bytes) FROM \"floe_ref_1\" AS "
                 "\"all_data_files\") - (SELECT sum(file_size_in_bytes) FROM \"floe_ref_2\" AS "
                 "\"files\") AS bytes_held_only_by_old_snapshots\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:all_data_files\n"
                 "ref: floe_ref_2 = ice.shop.orders meta:files\n");
    EXPECT_PARSE("SELECT snapshot_id FROM ice.shop.orders.refs WHERE name = 'main'", "ice",
                 "QUERY\nquery: SELECT snapshot_id FROM \"floe_ref_1\" AS \"refs\" "
                 "WHERE name = 'main'\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:refs\n");
}

/* The same statements with the catalog name omitted resolve identically. */
static void test_without_catalog(void)
{
    EXPECT_PARSE("SELECT count(*) FROM shop.orders VERSION AS OF 3657524344527679724", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"orders\"\n"
                 "ref: floe_ref_1 = ice.shop.orders @snapshot:3657524344527679724\n");
    EXPECT_PARSE("SELECT count(*) FROM shop.orders.files", "ice",
                 "QUERY\nquery: SELECT count(*) FROM \"floe_ref_1\" AS \"files\"\n"
                 "ref: floe_ref_1 = ice.shop.orders meta:files\n");
    EXPECT_PARSE("CALL system.rollback_to_snapshot('shop.orders', 5)", "ice",
                 "CALL\ncall: ice.system.rollback_to_snapshot\narg: 'shop.orders'\narg: 5\n");
    EXPECT_PARSE("CREATE NAMESPACE IF NOT EXISTS shop", "ice",
                 "CREATE_NAMESPACE\nns: shop\nflags: if_not_exists\n");
    EXPECT_PARSE("DELETE FROM shop.orders_wap.branch_audit WHERE amount <= 0", "ice",
                 "DELETE\ntarget: ice.shop.orders_wap branch:audit\nwhere: amount <= 0\n");
}

/* ---------------------------------------------------------------- SQLite */

/* Seed 000's scripts as floe SQL scripts (the f-strings filled in):
 * tests/data/sql/seed_script{1,2}.sql (bench/sql_parse.c times them too). */
static char *load_script(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/sql/%s", FLOE_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[2][16384];
    static int slot;
    char *b = buf[slot++ % 2];
    size_t n = fread(b, 1, sizeof buf[0] - 1, f);
    fclose(f);
    b[n] = 0;
    return b;
}


/* Every table a reference may become, with the columns the seed uses. */
static const char *const mock_columns =
    "(order_id, customer_id, amount, status, order_date, snapshot_id, parent_id, operation, "
    "summary, committed_at, made_current_at, is_current_ancestor, name, file_size_in_bytes)";

static void prepare_ok(sqlite3 *db, const char *sql, const char *what)
{
    sqlite3_stmt *s = NULL;
    const char *tail = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &s, &tail) != SQLITE_OK)
        ft_fail(__FILE__, __LINE__, "SQLite rejects %s \"%s\": %s", what, sql, sqlite3_errmsg(db));
    else if (tail && *tail)
        ft_fail(__FILE__, __LINE__, "%s holds more than one statement: %s", what, sql);
    sqlite3_finalize(s);
}

/* Parse a whole script statement by statement; every SQLite fragment must
 * prepare once the references exist as tables. Returns the statement count. */
static int run_script(const char *script, const floe_sql_kind *kinds, size_t nkinds)
{
    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        return -1;
    floe_arena *a = floe__arena_new(0);
    floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
    opt.catalog_name = "ice";
    opt.script = script;
    const char *p = script;
    floe_sql_stmt *st;
    int n = 0, rc;
    char buf[4096];
    snprintf(buf, sizeof buf, "CREATE TABLE target %s", mock_columns);
    sqlite3_exec(db, buf, NULL, NULL, NULL);
    while ((rc = floe__sql_parse(a, p, &opt, &st, &p)) == 0 && st) {
        if ((size_t)n < nkinds && st->kind != kinds[n])
            ft_fail(__FILE__, __LINE__, "statement %d is %s, expected %s", n + 1,
                    floe__sql_kind_name(st->kind), floe__sql_kind_name(kinds[n]));
        for (size_t k = 0; k < st->nrefs; k++) {
            snprintf(buf, sizeof buf, "CREATE TABLE IF NOT EXISTS \"%s\" %s",
                     st->refs[k].sqlite_name, mock_columns);
            sqlite3_exec(db, buf, NULL, NULL, NULL);
        }
        if (st->query)
            prepare_ok(db, st->query->sql, "query");
        if (st->where) {
            snprintf(buf, sizeof buf, "SELECT 1 FROM target WHERE %s", st->where->sql);
            prepare_ok(db, buf, "WHERE");
        }
        for (size_t k = 0; k < st->nsets; k++) {
            snprintf(buf, sizeof buf, "SELECT %s FROM target", st->sets[k].expr->sql);
            prepare_ok(db, buf, "SET expression");
        }
        opt.ref_base += st->nrefs;
        n++;
    }
    if (rc < 0)
        ft_fail(__FILE__, __LINE__, "statement %d: %s", n + 1, ft_floe_err());
    floe__arena_free(a);
    sqlite3_close(db);
    return n;
}

static void test_scripts_run_on_sqlite(void)
{
    static const floe_sql_kind k1[] = {FLOE_SQL_CREATE_NAMESPACE,
                                       FLOE_SQL_DROP_TABLE,
                                       FLOE_SQL_CREATE_TABLE,
                                       FLOE_SQL_INSERT,
                                       FLOE_SQL_INSERT,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_CALL,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_CALL,
                                       FLOE_SQL_CALL,
                                       FLOE_SQL_CALL,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_QUERY,
                                       FLOE_SQL_DESCRIBE,
                                       FLOE_SQL_EXPLAIN,
                                       FLOE_SQL_EXPLAIN};
    const char *script1 = load_script("seed_script1.sql");
    FT_ASSERT(script1 != NULL);
    FT_EQ_INT(run_script(script1, k1, FT_N(k1)), (int)FT_N(k1));
    static const floe_sql_kind k2[] = {
        FLOE_SQL_DROP_TABLE, FLOE_SQL_DELETE, FLOE_SQL_UPDATE,   FLOE_SQL_QUERY,
        FLOE_SQL_CREATE_REF, FLOE_SQL_QUERY,  FLOE_SQL_DROP_REF, FLOE_SQL_INSERT,
        FLOE_SQL_QUERY,      FLOE_SQL_DELETE, FLOE_SQL_CALL,     FLOE_SQL_CREATE_REF,
        FLOE_SQL_QUERY,      FLOE_SQL_QUERY,  FLOE_SQL_CALL,     FLOE_SQL_SET_PROPS,
        FLOE_SQL_QUERY,      FLOE_SQL_QUERY,  FLOE_SQL_QUERY,    FLOE_SQL_QUERY,
        FLOE_SQL_DROP_TABLE};
    const char *script2 = load_script("seed_script2.sql");
    FT_ASSERT(script2 != NULL);
    FT_EQ_INT(run_script(script2, k2, FT_N(k2)), (int)FT_N(k2));
}

static const ft_case cases[] = {
    {"script1_ddl", test_script1_ddl},
    {"script1_reads", test_script1_reads},
    {"script1_calls", test_script1_calls},
    {"script1_explain", test_script1_explain},
    {"script2", test_script2},
    {"stale_reader", test_stale_reader},
    {"article_snippets", test_article_snippets},
    {"without_catalog", test_without_catalog},
    {"scripts_run_on_sqlite", test_scripts_run_on_sqlite},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
