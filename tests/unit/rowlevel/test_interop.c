/* SPDX-License-Identifier: Apache-2.0 */
/* Merge-on-read output read by independent implementations: icebird (npm)
 * returns the same rows as floe at every snapshot (deletes applied),
 * DuckDB reads the position delete file with the spec's columns and field
 * ids, Debian's python3-avro reads the delete manifest (content 1 entries).
 * Skipped when node / the npm modules / python3-avro are missing. */
#include "rlfixture.h"

#include <unistd.h>

static bool have_node_modules(void)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/tests/interop/node_modules/icebird/package.json", ft_source_dir());
    return access(p, R_OK) == 0 && ft_run(NULL, "node --version >/dev/null 2>&1") == 0;
}

/* Path of the (only) position delete file and its delete manifest. */
static void find_delete_file(floe_table *t, int64_t id, char *dfile, char *dman, size_t n)
{
    dfile[0] = dman[0] = '\0';
    const floe_snapshot *s = floe__metadata_snapshot(t->metadata, id);
    FT_ASSERT(s);
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    FT_OK(fx_read_list(t, floe__table_manifest_list(t, s), &lb, &l));
    for (size_t i = 0; l && i < l->nentries; i++) {
        if (l->entries[i].content != FLOE_MANIFEST_DELETES || l->entries[i].added_snapshot_id != id)
            continue;
        snprintf(dman, n, "%s", l->entries[i].manifest_path);
        floe_buf mb = FLOE_BUF_INIT;
        floe_manifest *m = NULL;
        FT_OK(floe__io_read_all(floe_table_io(t), dman, 1 << 24, &mb));
        FT_OK(floe_manifest_read(&m, (const uint8_t *)mb.ptr, mb.len, "m", &l->entries[i]));
        if (m && m->nentries)
            snprintf(dfile, n, "%s", m->entries[0].data_file.file_path);
        floe_manifest_free(m);
        floe__buf_free(&mb);
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
}

static void test_mor_readers(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = rl_orders(c, "shop.orders", "merge-on-read");
    FT_ASSERT(t);
    int64_t del = 0, upd = 0;
    FT_OK(rl_delete(t, "order_id = 1004", &del));
    FT_OK(rl_update(t, "order_id = 1001", RL_1001_SHIPPED, 1, &upd));
    RL_ROWS_EQ(t, -1, "1001:SHIPPED,1002:PLACED,1003:PLACED");
    char dfile[2048], dman[2048];
    find_delete_file(t, del, dfile, dman, sizeof dfile);
    FT_CHECK(dfile[0] && dman[0]);
    FT_CHECK(strstr(dfile, "-deletes.parquet") != NULL);
    char *out = NULL;
    int rc;

    /* python3-avro: the delete manifest */
    if (ft_run(NULL, "/usr/bin/python3 -c 'import avro.datafile' 2>/dev/null") == 0) {
        const char *py =
            "import sys, avro.datafile, avro.io\n"
            "r = avro.datafile.DataFileReader(open(sys.argv[1], 'rb'), avro.io.DatumReader())\n"
            "print('content', r.get_meta('content').decode())\n"
            "for e in r:\n"
            "    d = e['data_file']\n"
            "    print(e['status'], d['content'], d['record_count'], d['file_format'],\n"
            "          d['referenced_data_file'] is not None, d['file_path'] == sys.argv[2])\n";
        FT_ASSERT(ft_write_file(ft_tmp("check.py"), py, strlen(py)) == 0);
        rc = ft_run(&out, "/usr/bin/python3 -W ignore %s '%s' '%s'", ft_tmp("check.py"), dman,
                    dfile);
        FT_EQ_INT(rc, 0);
        FT_EQ_STR(out ? out : "", "content deletes\n1 1 1 PARQUET True True\n");
        free(out);
        out = NULL;
    } else {
        ft_skip("python3-avro not available");
    }

    if (!have_node_modules()) {
        ft_skip("node or tests/interop/node_modules not available");
        floe_table_free(t);
        floe_catalog_free(c);
        return;
    }
    /* DuckDB: the position delete file */
    rc = ft_run(&out, "node %s/tests/interop/parquet_engines.mjs duckdb-read '%s'", ft_source_dir(),
                dfile);
    FT_EQ_INT(rc, 0);
    FT_ASSERT(out);
    FT_CHECK(strstr(out, "{\"name\":\"file_path\",\"type\":\"VARCHAR\"},"
                         "{\"name\":\"pos\",\"type\":\"BIGINT\"}") != NULL);
    FT_CHECK(strstr(out, "[\"file_path\",\"2147483546\"]") != NULL);
    FT_CHECK(strstr(out, "[\"pos\",\"2147483545\"]") != NULL);
    FT_CHECK(strstr(out, ",\"0\"]]") != NULL); /* 1004 was row 0 of its file */
    if (!strstr(out, "2147483546"))
        fprintf(stderr, "    duckdb said: %s\n", out);
    free(out);
    out = NULL;

    /* icebird: same rows as floe at every snapshot */
    rc = ft_run(&out, "node %s/tests/interop/table_icebird.mjs '%s' order_id 2 3 4 current",
                ft_source_dir(), floe_table_metadata_location(t));
    FT_EQ_INT(rc, 0);
    FT_ASSERT(out);
    FT_CHECK(strstr(out, "2 4 1001,1002,1003,1004\n") != NULL);
    FT_CHECK(strstr(out, "3 3 1001,1002,1003\n") != NULL);
    FT_CHECK(strstr(out, "4 3 1001,1002,1003\n") != NULL);
    FT_CHECK(strstr(out, "current 3 1001,1002,1003\n") != NULL);
    if (!strstr(out, "current 3 1001,1002,1003\n"))
        fprintf(stderr, "    icebird said:\n%s", out);
    free(out);
    out = NULL;
    rc = ft_run(&out, "node %s/tests/interop/table_icebird.mjs '%s' status current",
                ft_source_dir(), floe_table_metadata_location(t));
    FT_EQ_INT(rc, 0);
    FT_CHECK(out && strstr(out, "current 3 PLACED,PLACED,SHIPPED\n") != NULL);
    free(out);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"mor_readers", test_mor_readers},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
