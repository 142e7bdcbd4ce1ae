/* SPDX-License-Identifier: Apache-2.0 */
/* table/append under concurrency: 8 processes x 50 appends to one table
 * through the SQLite catalog. All 400 commits land, total-records is exact,
 * every snapshot's parent chain is intact (sequence numbers strictly
 * increasing along it), the manifest list of the head counts every row,
 * and no metadata file was overwritten or left behind. */
#include "append_fixture.h"

#include <sys/wait.h>
#include <unistd.h>

enum { PROCS = 8, APPENDS = 50 };

static int child(int i)
{
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    floe_catalog *c = NULL;
    floe_table *t = NULL;
    if (floe_catalog_open_sql(&c, ft_tmp("catalog.db"), &o) < 0 ||
        floe_table_load(&t, c, "shop.race", NULL) < 0)
        return 2;
    for (int k = 0; k < APPENDS; k++) {
        fx_order row = {i * 1000 + k, i, 100 * k, "PLACED", 2026, 9, 20 + (k % 3)};
        floe_append *a = NULL;
        struct ArrowArray arr;
        int rc = floe_append_new(&a, t);
        if (rc == 0)
            rc = fx_batch(t, &row, 1, &arr);
        if (rc == 0) {
            rc = floe_append_write(a, &arr);
            arr.release(&arr);
        }
        if (rc == 0)
            rc = floe_append_commit(NULL, a);
        floe_append_free(a);
        if (rc < 0) {
            fprintf(stderr, "    child %d append %d: %s\n", i, k, ft_floe_err());
            return 1;
        }
    }
    floe_table_free(t);
    floe_catalog_free(c);
    return 0;
}

static int version_cb(const floe_file_info *info, void *p)
{
    int *seen = p;
    if (!strstr(info->uri, ".metadata.json"))
        return 0;
    int v = floe__metadata_file_version(info->uri);
    if (v >= 0 && v < 1000)
        seen[v]++;
    else
        seen[1000]++;
    return 0;
}

static void test_8x50(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "commit.retry.num-retries", "1000");
    floe__props_set(&p, "commit.retry.min-wait-ms", "1");
    floe__props_set(&p, "commit.retry.max-wait-ms", "50");
    floe__props_set(&p, "write.metadata.previous-versions-max", "1000");
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.race", &p));
    floe__props_free(&p);

    int gate[2];
    FT_ASSERT(pipe(gate) == 0);
    pid_t pids[PROCS];
    for (int i = 0; i < PROCS; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            close(gate[1]);
            char ch;
            while (read(gate[0], &ch, 1) > 0) {
            }
            _exit(child(i));
        }
    }
    close(gate[0]);
    close(gate[1]);
    for (int i = 0; i < PROCS; i++) {
        int st = 0;
        FT_CHECK(waitpid(pids[i], &st, 0) == pids[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    FT_OK(floe_table_refresh(t));
    const int total = PROCS * APPENDS;
    FT_EQ_INT(floe_table_snapshot_count(t), total);
    char expect[32];
    snprintf(expect, sizeof expect, "%d", total);
    FT_EQ_STR(floe_table_snapshot_summary(t, fx_main(t), "total-records"), expect);
    FT_EQ_INT(fx_rows(t, fx_main(t)), total);
    int depth = 0;
    int64_t seq = INT64_MAX;
    for (int64_t id = fx_main(t); id != -1;) {
        floe_snapshot_info s;
        FT_OK(floe_table_snapshot_by_id(&s, t, id));
        FT_CHECK(s.sequence_number < seq);
        seq = s.sequence_number;
        char tr[32];
        snprintf(tr, sizeof tr, "%d", total - depth);
        FT_EQ_STR(floe_table_snapshot_summary(t, id, "total-records"), tr);
        depth++;
        id = s.has_parent ? s.parent_snapshot_id : -1;
    }
    FT_EQ_INT(depth, total);
    static int seen[1001];
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/metadata/", floe_table_location(t));
    FT_OK(floe_fileio_list(floe_table_io(t), prefix, version_cb, seen));
    FT_EQ_INT(seen[1000], 0);
    for (int v = 0; v <= total; v++)
        if (seen[v] != 1)
            ft_fail(__FILE__, __LINE__, "metadata version %d present %d times", v, seen[v]);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"appends_8x50", test_8x50},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
