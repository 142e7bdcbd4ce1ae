/* SPDX-License-Identifier: Apache-2.0 */
/* Out of memory at every allocation of a row-level DELETE (finding rows,
 * rewriting, position delete file, manifests, list, metadata, swap), in
 * both modes and copy-on-write on a v3 table (row lineage kept): FLOE_ENOMEM, nothing leaked (ASan), the table at the old or
 * the new state, and eventually the delete succeeds. In-memory FileIO. */
#include "rlfixture.h"

#include <unistd.h>

static void oom(const char *mode, const char *name, const char *format_version)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_fileio *mem = NULL;
    FT_OK(floe_fileio_memory_new(&mem));
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = mem;
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "write.delete.mode", mode);
    if (format_version) /* v3: the copy keeps row lineage, merge-on-read writes a DV */
        floe__props_set(&p, "format-version", format_version);
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = ORDERS_SCHEMA;
    co.partition_spec_json = ORDERS_SPEC;
    co.properties = &p;
    char loc[128], ident[64];
    snprintf(loc, sizeof loc, "mem://wh/shop.db/%s", name);
    snprintf(ident, sizeof ident, "shop.%s", name);
    co.location = loc;
    floe_table *t = NULL;
    FT_OK(floe_table_create(&t, c, ident, &co, &o));
    floe__props_free(&p);
    fx_append_rows(t, RL_LOAD1, 2);
    fx_append_rows(t, RL_LOAD2, 1);
    long n;
    bool done = false;
    for (n = 1; n < 100000 && !done; n++) {
        int64_t id = 0;
        floe__alloc_fail_at(n);
        int rc = rl_delete(t, "order_id = 1001", &id);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            done = true;
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
            break;
        }
        FT_OK(floe_table_refresh(t));
        /* reading the rows back costs more than the delete: sample it (a
         * committed delete is also seen by the next round matching nothing) */
        if (n % 16)
            continue;
        char *rows = rl_rows(t, -1);
        FT_ASSERT(rows);
        bool old = strcmp(rows, "1001:PLACED,1002:PLACED,1003:PLACED") == 0;
        bool now = strcmp(rows, "1002:PLACED,1003:PLACED") == 0;
        FT_CHECK(old || now);
        free(rows);
        if (now)
            done = true; /* committed, then ran out of memory reloading */
    }
    FT_CHECK(done);
    FT_CHECK(n > 50);
    FT_OK(floe_table_refresh(t));
    RL_ROWS_EQ(t, -1, "1002:PLACED,1003:PLACED");
    floe_table_free(t);
    floe_fileio_free(mem);
    floe_catalog_free(c);
}

static void test_oom_cow(void)
{
    oom("copy-on-write", "oom_cow", NULL);
}

static void test_oom_cow_v3(void)
{
    oom("copy-on-write", "oom_cow_v3", "3");
}

static void test_oom_mor(void)
{
    oom("merge-on-read", "oom_mor", NULL);
}

/* v3: out of memory at every allocation of the commit whose retry merges a
 * concurrent DV (tests/unit/rowlevel/test_conflict.c concurrent_dv_merge):
 * FLOE_ENOMEM and the table as the first writer left it, or both deletes
 * in one DV. Each round replays the race from a fresh table. */
static void test_oom_dv_merge(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_fileio *mem = NULL;
    FT_OK(floe_fileio_memory_new(&mem));
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = mem;
    bool done = false;
    long n;
    for (n = 1; n < 100000 && !done; n++) {
        floe_props p = FLOE_PROPS_INIT;
        floe__props_set(&p, "format-version", "3");
        floe__props_set(&p, "write.delete.mode", "merge-on-read");
        floe__props_set(&p, "commit.retry.min-wait-ms", "1");
        floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
        co.schema_json = ORDERS_SCHEMA;
        co.partition_spec_json = ORDERS_SPEC;
        co.properties = &p;
        char loc[128], ident[64];
        snprintf(loc, sizeof loc, "mem://wh/shop.db/dv%ld", n);
        snprintf(ident, sizeof ident, "shop.dv%ld", n);
        co.location = loc;
        floe_table *t1 = NULL, *t2 = NULL;
        FT_OK(floe_table_create(&t1, c, ident, &co, &to));
        floe__props_free(&p);
        fx_append_rows(t1, RL_LOAD1, 2);
        FT_OK(floe_table_load(&t2, c, ident, &to));
        floe_rowlevel_options o = FLOE_ROWLEVEL_OPTIONS_INIT;
        o.isolation = FLOE_ISOLATION_SNAPSHOT;
        floe_rowlevel *b = NULL;
        FT_OK(floe_rowlevel_new(&b, t2, &o));
        FT_OK(floe_rowlevel_delete_where(b, "order_id = 1002"));
        FT_OK(rl_delete(t1, "order_id = 1001", NULL));
        floe__alloc_fail_at(n);
        int rc = floe_rowlevel_commit(NULL, NULL, b);
        floe__alloc_fail_at(0);
        floe_rowlevel_free(b);
        if (rc != 0 && rc != FLOE_ENOMEM)
            ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
        FT_OK(floe_table_refresh(t1));
        char *rows = rl_rows(t1, -1);
        FT_ASSERT(rows);
        if (rc == 0 || strcmp(rows, "") == 0) {
            FT_EQ_STR(rows, "");
            done = true;
        } else {
            FT_EQ_STR(rows, "1002:PLACED");
        }
        free(rows);
        floe_table_free(t2);
        floe_table_free(t1);
        if (rc != 0 && rc != FLOE_ENOMEM)
            break;
    }
    FT_CHECK(done);
    FT_CHECK(n > 50);
    floe_fileio_free(mem);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"oom_cow", test_oom_cow},
    {"oom_cow_v3", test_oom_cow_v3},
    {"oom_mor", test_oom_mor},
    {"oom_dv_merge", test_oom_dv_merge},
};

int main(int argc, char **argv)
{
    /* hundreds of catalog commits: on a tmpfs when there is one */
    if (!getenv("TMPDIR") && access("/dev/shm", W_OK) == 0)
        setenv("TMPDIR", "/dev/shm", 1);
    return ft_main(argc, argv, cases, FT_N(cases));
}
