/* SPDX-License-Identifier: Apache-2.0 */
/* table: concurrent commits from several processes through one SQLite
 * catalog. Ref creations and synthetic appends race on the pointer; every
 * commit lands (lost compare-and-sets retry after re-validating on the new
 * state), appends keep an intact parent chain and exact totals, and no
 * metadata file is overwritten or left behind. */
#include "fixture.h"

#include <sys/wait.h>
#include <unistd.h>

enum { PROCS = 4, OPS = 10 };

static void run_children(int (*fn)(int i), int codes[PROCS])
{
    int gate[2];
    for (int i = 0; i < PROCS; i++)
        codes[i] = -1;
    if (pipe(gate) != 0)
        return;
    pid_t pids[PROCS];
    for (int i = 0; i < PROCS; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            close(gate[1]);
            char ch;
            while (read(gate[0], &ch, 1) > 0) {
            }
            _exit(fn(i));
        }
    }
    close(gate[0]);
    fx_sleep_ms(20);
    close(gate[1]);
    for (int i = 0; i < PROCS; i++) {
        int st;
        if (pids[i] > 0 && waitpid(pids[i], &st, 0) == pids[i])
            codes[i] = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
}

static long g_retries;

static void counting_sleep(int64_t ms)
{
    g_retries++;
    fx_sleep_ms((long)ms);
}

/* Children report their retries in files; the race must really happen. */
static void save_retries(int i)
{
    char name[32], text[32];
    snprintf(name, sizeof name, "retries-%d", i);
    int n = snprintf(text, sizeof text, "%ld", g_retries);
    ft_write_file(ft_tmp(name), text, (size_t)n);
}

static long total_retries(void)
{
    long sum = 0;
    for (int i = 0; i < PROCS; i++) {
        char name[32];
        snprintf(name, sizeof name, "retries-%d", i);
        char *t = ft_read_file(ft_tmp(name), NULL);
        if (t)
            sum += atol(t);
        free(t);
    }
    return sum;
}

static floe_table *child_table(void)
{
    floe__table_set_sleep_hook(counting_sleep);
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    floe_catalog *c = NULL;
    floe_table *t = NULL;
    if (floe_catalog_open_sql(&c, ft_tmp("catalog.db"), &o) < 0 ||
        floe_table_load(&t, c, "shop.race", NULL) < 0) {
        fprintf(stderr, "    child open: %s\n", ft_floe_err());
        return NULL;
    }
    return t; /* the catalog leaks with the child process, which exits */
}

static int tag_child(int i)
{
    floe_table *t = child_table();
    if (!t)
        return 2;
    for (int k = 0; k < OPS; k++) {
        char name[32];
        snprintf(name, sizeof name, "t%d_%d", i, k);
        if (floe_table_create_tag(t, name, FLOE_REF_CREATE, NULL) < 0) {
            fprintf(stderr, "    tag %s: %s\n", name, ft_floe_err());
            return 1;
        }
    }
    save_retries(i);
    return 0;
}

static int append_child(int i)
{
    floe_table *t = child_table();
    if (!t)
        return 2;
    for (int k = 0; k < OPS; k++) {
        fx_synth s = {.added = 1 + (i * OPS + k) % 3};
        if (floe__table_commit(t, fx_synth_prepare, &s) < 0) {
            fprintf(stderr, "    append: %s\n", ft_floe_err());
            return 1;
        }
    }
    save_retries(i);
    return 0;
}

static floe_table *race_table(floe_catalog **cp)
{
    floe_catalog *c = fx_catalog();
    if (!c)
        return NULL;
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "commit.retry.num-retries", "1000");
    floe__props_set(&p, "commit.retry.min-wait-ms", "1");
    floe__props_set(&p, "commit.retry.max-wait-ms", "20");
    floe_table *t = NULL;
    int rc = fx_create(&t, c, "shop.race", &p);
    floe__props_free(&p);
    if (rc < 0) {
        ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
        floe_catalog_free(c);
        return NULL;
    }
    *cp = c;
    return t;
}

static int version_cb(const floe_file_info *info, void *p)
{
    int *seen = p;
    int v = floe__metadata_file_version(info->uri);
    if (v >= 0 && v < 1000)
        seen[v]++;
    else
        seen[1000]++;
    return 0;
}

/* Metadata files are exactly versions 0..n-1, each once. */
static void check_versions(floe_table *t, int n)
{
    static int seen[1001];
    memset(seen, 0, sizeof seen);
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/metadata/", floe_table_location(t));
    FT_OK(floe_fileio_list(floe_table_io(t), prefix, version_cb, seen));
    FT_EQ_INT(seen[1000], 0);
    for (int v = 0; v < n; v++)
        if (seen[v] != 1)
            ft_fail(__FILE__, __LINE__, "metadata version %d present %d times", v, seen[v]);
    FT_EQ_INT(seen[n], 0);
}

static void test_concurrent_refs(void)
{
    floe_catalog *c = NULL;
    floe_table *t = race_table(&c);
    FT_ASSERT(t);
    fx_append(t, 1);
    int codes[PROCS];
    run_children(tag_child, codes);
    for (int i = 0; i < PROCS; i++)
        FT_EQ_INT(codes[i], 0);
    FT_CHECK(total_retries() > 0);
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(floe_table_ref_count(t), 1 + PROCS * OPS);
    check_versions(t, 2 + PROCS * OPS);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_concurrent_appends(void)
{
    floe_catalog *c = NULL;
    floe_table *t = race_table(&c);
    FT_ASSERT(t);
    int codes[PROCS];
    run_children(append_child, codes);
    for (int i = 0; i < PROCS; i++)
        FT_EQ_INT(codes[i], 0);
    FT_CHECK(total_retries() > 0);
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(floe_table_snapshot_count(t), PROCS * OPS);
    long long expect = 0;
    for (int i = 0; i < PROCS; i++)
        for (int k = 0; k < OPS; k++)
            expect += 1 + (i * OPS + k) % 3;
    char total[32];
    snprintf(total, sizeof total, "%lld", expect);
    FT_EQ_STR(floe_table_snapshot_summary(t, fx_main(t), "total-records"), total);
    /* the parent chain from main reaches every snapshot, sequence numbers
     * strictly decreasing */
    int depth = 0;
    int64_t seq = INT64_MAX;
    for (int64_t id = fx_main(t); id != -1;) {
        floe_snapshot_info s;
        FT_OK(floe_table_snapshot_by_id(&s, t, id));
        FT_CHECK(s.sequence_number < seq);
        seq = s.sequence_number;
        depth++;
        id = s.has_parent ? s.parent_snapshot_id : -1;
    }
    FT_EQ_INT(depth, PROCS * OPS);
    FT_EQ_INT(floe_table_history_count(t), PROCS * OPS);
    check_versions(t, 1 + PROCS * OPS);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"concurrent_refs", test_concurrent_refs},
    {"concurrent_appends", test_concurrent_appends},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
