/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/log: `floe log` and `floe suspects` on tables built here with the
 * spec's metadata builder (spec/builder.c) and registered in a SQLite
 * catalog, the way a warehouse written by floe sql or Spark looks to them.
 *
 * The binary doubles as the fixture tool of the shell tests and of
 * tests/cli/docs_examples.sh: `cli_test_log --build WAREHOUSE < script`
 * builds tables from a small script on stdin:
 *
 *   table <ns.table>
 *   snap <id> <parent id|-> <timestamp ms> <operation> [summary-key=value ...]
 *   ref <name> <snapshot id> branch|tag
 *   register <ns.table> <metadata file>     (an existing file, as it is)
 *
 * Lines apply in order to one metadata builder per table (a `ref main`
 * after a snapshot is the commit moving main, so rollbacks show in the
 * snapshot-log); `#` starts a comment. `cli_test_log --seed WAREHOUSE`
 * builds the seed's table shop.orders (SEED below).
 */
#include "floe/catalog.h"
#include "harness.h"
#include "spec/metadata.h"
#include "spec/spec.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Seed 000's orders table: three loads, the third bad (3 -> 5 rows),
 * main rolled back to S2, the month-end tag on S2, a branch `audit` with
 * one write, and a new good load on main. Ids and times of S1-S3 are the
 * seed's. */
static const char SEED[] =
    "table shop.orders\n"
    "snap 3657524344527679724 - 1790601319839 append added-records=2 added-data-files=1 "
    "total-records=2 total-data-files=1\n"
    "ref main 3657524344527679724 branch\n"
    "snap 5270420720687731067 3657524344527679724 1790601322058 append added-records=1 "
    "added-data-files=1 total-records=3 total-data-files=2\n"
    "ref main 5270420720687731067 branch\n"
    "snap 23499723825440384 5270420720687731067 1790601326352 append added-records=2 "
    "added-data-files=1 total-records=5 total-data-files=3\n"
    "ref main 23499723825440384 branch\n"
    "# rollback_to_snapshot(S2)\n"
    "ref main 5270420720687731067 branch\n"
    "ref close-2026-09 5270420720687731067 tag\n"
    "ref audit 5270420720687731067 branch\n"
    "snap 4149797747189483283 5270420720687731067 1790601340000 append added-records=1 "
    "added-data-files=1 total-records=4 total-data-files=3\n"
    "ref audit 4149797747189483283 branch\n"
    "snap 1822237857672733606 5270420720687731067 1790601350000 append added-records=1 "
    "added-data-files=1 total-records=4 total-data-files=3\n"
    "ref main 1822237857672733606 branch\n";

static const char SCHEMA[] =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"order_id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"amount\",\"required\":true,\"type\":\"decimal(10, 2)\"}]}";

static int mkdirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) < 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

typedef struct fixture {
    const char *warehouse;
    floe_catalog *cat;
    char ident[512];
    char location[4096];
    floe_table_metadata *base;
    floe_metadata_builder *b;
    floe_arena *arena;
    int64_t seq;
    int64_t last_ts;
    int ntables;
} fixture;

static int finish_table(fixture *f)
{
    if (!f->b)
        return 0;
    floe_table_metadata *m = NULL;
    int rc = floe__metadata_builder_build(f->b, f->last_ts + 1, &m);
    floe__metadata_builder_free(f->b);
    f->b = NULL;
    floe__metadata_free(f->base);
    f->base = NULL;
    if (rc < 0)
        return rc;
    floe_buf json = FLOE_BUF_INIT;
    char dir[4200], path[4400], uuid[37];
    snprintf(dir, sizeof dir, "%s/metadata", f->location);
    rc = floe__metadata_write(m, &json);
    floe__metadata_free(m);
    if (rc == 0)
        rc = floe__uuid4(uuid);
    if (rc == 0 && mkdirs(dir) < 0)
        rc = floe__error(FLOE_EIO, "fixture", "cannot create %s", dir);
    snprintf(path, sizeof path, "%s/00001-%s.metadata.json", dir, uuid);
    FILE *fp = rc == 0 ? fopen(path, "w") : NULL;
    if (rc == 0 && (!fp || fwrite(json.ptr, 1, json.len, fp) != json.len))
        rc = floe__error(FLOE_EIO, "fixture", "cannot write %s", path);
    if (fp)
        fclose(fp);
    floe__buf_free(&json);
    if (rc < 0)
        return rc;
    char ns[512];
    snprintf(ns, sizeof ns, "%s", f->ident);
    *strrchr(ns, '.') = '\0';
    if (floe_catalog_namespace_exists(f->cat, ns) == 0 &&
        (rc = floe_catalog_create_namespace(f->cat, ns, NULL)) < 0)
        return rc;
    return floe_catalog_register_table(f->cat, f->ident, path);
}

static int start_table(fixture *f, const char *ident)
{
    FLOE_TRY(finish_table(f));
    snprintf(f->ident, sizeof f->ident, "%s", ident);
    char *loc = NULL;
    FLOE_TRY(floe_catalog_default_location(&loc, f->cat, ident));
    snprintf(f->location, sizeof f->location, "%s", loc);
    floe_string_free(loc);
    floe_json *j = NULL;
    FLOE_TRY(floe__json_parse(&j, SCHEMA, strlen(SCHEMA), "schema"));
    floe_schema *sc = NULL;
    int rc = floe__schema_from_json(&sc, j, 0, f->arena);
    floe__json_free(j);
    FLOE_TRY(rc);
    rc = floe__metadata_new(&f->base, sc, NULL, NULL, f->location, NULL, 2, 1790600000000);
    floe__schema_release(sc);
    FLOE_TRY(rc);
    f->seq = 0;
    f->last_ts = 1790600000000;
    return floe__metadata_builder_new(&f->b, f->base, NULL);
}

static int apply_line(fixture *f, char *line)
{
    char *save = NULL, *w[64];
    size_t n = 0;
    for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 64;
         t = strtok_r(NULL, " \t\r\n", &save))
        w[n++] = t;
    if (n == 0 || w[0][0] == '#')
        return 0;
    if (strcmp(w[0], "table") == 0 && n == 2)
        return start_table(f, w[1]);
    if (strcmp(w[0], "register") == 0 && n == 3) {
        FLOE_TRY(finish_table(f));
        char ns[512];
        snprintf(ns, sizeof ns, "%s", w[1]);
        char *dot = strrchr(ns, '.');
        if (!dot)
            return floe__error(FLOE_EINVALID, "fixture", "bad identifier %s", w[1]);
        *dot = '\0';
        if (floe_catalog_namespace_exists(f->cat, ns) == 0)
            FLOE_TRY(floe_catalog_create_namespace(f->cat, ns, NULL));
        return floe_catalog_register_table(f->cat, w[1], w[2]);
    }
    if (!f->b)
        return floe__error(FLOE_EINVALID, "fixture", "no table before '%s'", w[0]);
    if (strcmp(w[0], "snap") == 0 && n >= 5) {
        floe_snapshot s = {0};
        s.snapshot_id = strtoll(w[1], NULL, 10);
        s.has_parent = strcmp(w[2], "-") != 0;
        s.parent_snapshot_id = s.has_parent ? strtoll(w[2], NULL, 10) : 0;
        s.timestamp_ms = strtoll(w[3], NULL, 10);
        s.sequence_number = ++f->seq;
        s.schema_id = 0;
        s.has_schema_id = true;
        if (s.timestamp_ms > f->last_ts)
            f->last_ts = s.timestamp_ms;
        floe_kv kv[64];
        size_t nkv = 0;
        kv[nkv++] = (floe_kv){"operation", w[4]};
        for (size_t k = 5; k < n; k++) {
            char *eq = strchr(w[k], '=');
            if (!eq)
                return floe__error(FLOE_EINVALID, "fixture", "bad summary entry %s", w[k]);
            *eq = '\0';
            kv[nkv++] = (floe_kv){w[k], eq + 1};
        }
        char ml[4400];
        snprintf(ml, sizeof ml, "%s/metadata/snap-%s-1-fixture.avro", f->location, w[1]);
        FLOE_TRY(floe__snapshot_pack_summary(&s, f->arena, kv, nkv));
        FLOE_TRY(floe__snapshot_pack_manifest_list(&s, f->arena, ml));
        return floe__mb_add_snapshot(f->b, &s);
    }
    if (strcmp(w[0], "ref") == 0 && n == 4) {
        floe_snapshot_ref r = {.name = w[1],
                               .snapshot_id = strtoll(w[2], NULL, 10),
                               .type = strcmp(w[3], "tag") == 0 ? FLOE_REF_TAG : FLOE_REF_BRANCH};
        return floe__mb_set_snapshot_ref(f->b, &r);
    }
    return floe__error(FLOE_EINVALID, "fixture", "cannot read line starting with '%s'", w[0]);
}

/* Build the tables of `script` into `warehouse` (catalog `local`). */
static int build(const char *warehouse, const char *script)
{
    fixture f = {.warehouse = warehouse};
    if (mkdirs(warehouse) < 0)
        return floe__error(FLOE_EIO, "fixture", "cannot create %s", warehouse);
    char db[4200];
    snprintf(db, sizeof db, "%s/catalog.db", warehouse);
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.name = "local";
    o.warehouse = warehouse;
    FLOE_TRY(floe_catalog_open_sql(&f.cat, db, &o));
    f.arena = floe__arena_new(0);
    char *copy = floe__strdup(script);
    int rc = f.arena && copy ? 0 : floe__error_nomem();
    char *save = NULL;
    for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line && rc == 0;
         line = strtok_r(NULL, "\n", &save))
        rc = apply_line(&f, line);
    if (rc == 0)
        rc = finish_table(&f);
    floe__metadata_builder_free(f.b);
    floe__metadata_free(f.base);
    floe__free(copy);
    floe__arena_free(f.arena);
    floe_catalog_free(f.cat);
    return rc;
}

/* ---------------------------------------------------------------- tests */

static const char *floe_bin(void)
{
    const char *b = getenv("FLOE_BIN");
    return b ? b : "./floe";
}

static bool seed_warehouse(const char **wh)
{
    *wh = ft_tmp("warehouse");
    if (build(*wh, SEED) < 0) {
        ft_fail(__FILE__, __LINE__, "build: %s", ft_floe_err());
        return false;
    }
    return true;
}

/* Expected drawings, written by hand from the seed's story. */
static const char GRAPH_UNICODE[] =
    "◉      1822237857672733606  2026-09-28 13:15:50  append    +1 -0 records, 4 total, 3 files  "
    "(main)\n"
    "│ ●    4149797747189483283  2026-09-28 13:15:40  append    +1 -0 records, 4 total, 3 files  "
    "(audit)\n"
    "│ │ ○  23499723825440384    2026-09-28 13:15:26  append    +2 -0 records, 5 total, 3 files  "
    "[abandoned]\n"
    "├─┴─╯\n"
    "●      5270420720687731067  2026-09-28 13:15:22  append    +1 -0 records, 3 total, 2 files  "
    "(tag: close-2026-09)\n"
    "●      3657524344527679724  2026-09-28 13:15:19  append    +2 -0 records, 2 total, 1 files\n";

static const char GRAPH_ASCII[] =
    "@      1822237857672733606  2026-09-28 13:15:50  append    +1 -0 records, 4 total, 3 files  "
    "(main)\n"
    "| *    4149797747189483283  2026-09-28 13:15:40  append    +1 -0 records, 4 total, 3 files  "
    "(audit)\n"
    "| | o  23499723825440384    2026-09-28 13:15:26  append    +2 -0 records, 5 total, 3 files  "
    "[abandoned]\n"
    "|-'-'\n"
    "*      5270420720687731067  2026-09-28 13:15:22  append    +1 -0 records, 3 total, 2 files  "
    "(tag: close-2026-09)\n"
    "*      3657524344527679724  2026-09-28 13:15:19  append    +2 -0 records, 2 total, 1 files\n";

static void test_graph_seed(void)
{
    const char *wh;
    if (!seed_warehouse(&wh))
        return;
    char *out = NULL;
    int st = ft_run(&out, "%s log --warehouse %s --graph --all shop.orders", floe_bin(), wh);
    FT_EQ_INT(st, 0);
    FT_EQ_STR(out, GRAPH_UNICODE);
    free(out);
    st = ft_run(&out, "%s log --warehouse %s --graph --all --ascii shop.orders", floe_bin(), wh);
    FT_EQ_INT(st, 0);
    FT_EQ_STR(out, GRAPH_ASCII);
    free(out);
    /* without --all: main's line only, like git log */
    st = ft_run(&out, "%s log --warehouse %s --graph --ascii shop.orders | cut -c1-30", floe_bin(),
                wh);
    FT_EQ_STR(out, "@  1822237857672733606  2026-0\n"
                   "*  5270420720687731067  2026-0\n"
                   "*  3657524344527679724  2026-0\n");
    free(out);
    /* --limit cuts the listing, newest first */
    st = ft_run(&out,
                "%s log --warehouse %s --graph --all --ascii --limit 2 shop.orders | cut -c1-28",
                floe_bin(), wh);
    FT_EQ_STR(out, "@    1822237857672733606  20\n"
                   "| *  4149797747189483283  20\n");
    free(out);
}

static void test_graph_color(void)
{
    const char *wh;
    if (!seed_warehouse(&wh))
        return;
    char *out = NULL;
    /* never colour into a pipe (auto), colour when asked */
    ft_run(&out, "%s log --warehouse %s --graph --all shop.orders", floe_bin(), wh);
    FT_CHECK(out && !strchr(out, '\x1b'));
    free(out);
    ft_run(&out, "%s log --warehouse %s --graph --all --color always shop.orders", floe_bin(), wh);
    FT_CHECK(out && strstr(out, "\x1b[33m1822237857672733606"));
    free(out);
}

static void test_table_formats(void)
{
    const char *wh;
    if (!seed_warehouse(&wh))
        return;
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --all --format csv shop.orders", floe_bin(), wh),
              0);
    FT_EQ_STR(out, "snapshot_id,parent_id,committed_at,operation,added_records,deleted_records,"
                   "total_records,total_files,refs,state,wap_id,change\n"
                   "1822237857672733606,5270420720687731067,2026-09-28 "
                   "13:15:50.000,append,1,0,4,3,main,current,,\n"
                   "4149797747189483283,5270420720687731067,2026-09-28 "
                   "13:15:40.000,append,1,0,4,3,audit,ref,,\n"
                   "23499723825440384,5270420720687731067,2026-09-28 "
                   "13:15:26.352,append,2,0,5,3,,abandoned,,\n"
                   "5270420720687731067,3657524344527679724,2026-09-28 "
                   "13:15:22.058,append,1,0,3,2,tag: close-2026-09,main,,\n"
                   "3657524344527679724,,2026-09-28 13:15:19.839,append,2,0,2,1,,main,,\n");
    free(out);
    FT_EQ_INT(
        ft_run(&out, "%s log --warehouse %s --format json --limit 1 shop.orders", floe_bin(), wh),
        0);
    FT_EQ_STR(out, "{\"snapshot_id\":1822237857672733606,\"parent_id\":5270420720687731067,"
                   "\"committed_at\":\"2026-09-28 13:15:50.000\",\"operation\":\"append\","
                   "\"added_records\":1,\"deleted_records\":0,\"total_records\":4,"
                   "\"total_files\":3,\"refs\":\"main\",\"state\":\"current\",\"wap_id\":null,"
                   "\"change\":null}\n");
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --limit 1 shop.orders", floe_bin(), wh), 0);
    FT_CHECK(out &&
             strstr(out, "|snapshot_id        |parent_id          |committed_at           |"));
    free(out);
}

/* Write-audit-publish (issue #21 item 15): a snapshot committed with
 * spark.wap.id is staged, not abandoned; once a cherry-pick publishes it
 * (published-wap-id on main) both are published, naming the wap id. Java's
 * cherry-pick summary keys: published-wap-id, source-snapshot-id. */
static const char WAP[] =
    "table shop.wap\n"
    "snap 100 - 1790601300000 append added-records=1 total-records=1 total-data-files=1\n"
    "ref main 100 branch\n"
    "snap 200 100 1790601310000 append added-records=1 total-records=2 total-data-files=2 "
    "wap.id=load-1\n"
    "snap 300 100 1790601320000 append added-records=1 total-records=2 total-data-files=2 "
    "wap.id=load-2\n"
    "snap 400 100 1790601330000 append added-records=1 total-records=2 total-data-files=2 "
    "published-wap-id=load-2 source-snapshot-id=300\n"
    "ref main 400 branch\n"
    "snap 500 400 1790601340000 append added-records=1 total-records=3 total-data-files=3\n"
    "ref main 500 branch\n"
    "# rollback: 500 is abandoned\n"
    "ref main 400 branch\n";

static void test_wap_states(void)
{
    const char *wh = ft_tmp("warehouse");
    if (build(wh, WAP) < 0) {
        ft_fail(__FILE__, __LINE__, "build: %s", ft_floe_err());
        return;
    }
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --all --format csv shop.wap | cut -d, -f1,9-11",
                     floe_bin(), wh),
              0);
    FT_EQ_STR(out, "snapshot_id,refs,state,wap_id\n"
                   "500,,abandoned,\n"
                   "400,main,current,load-2\n"
                   "300,,published,load-2\n"
                   "200,,staged,load-1\n"
                   "100,,main,\n");
    free(out);
    FT_EQ_INT(ft_run(&out,
                     "%s log --warehouse %s --all --graph --ascii shop.wap | "
                     "sed -nE 's/.* ([0-9]{3}) .*(\\[[^]]*\\])$/\\1 \\2/p'",
                     floe_bin(), wh),
              0);
    FT_EQ_STR(out, "500 [abandoned]\n"
                   "400 [published wap.id=load-2]\n"
                   "300 [published wap.id=load-2]\n"
                   "200 [staged wap.id=load-1]\n");
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --all --format dot shop.wap", floe_bin(), wh), 0);
    FT_CHECK(out && strstr(out, "staged\\nwap.id load-1\"") &&
             strstr(out, "published\\nwap.id load-2\""));
    free(out);
}

static void test_exit_codes(void)
{
    const char *wh;
    if (!seed_warehouse(&wh))
        return;
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s shop.nope 2>&1", floe_bin(), wh), 1);
    FT_CHECK(out && strstr(out, "Table does not exist: shop.nope"));
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --bogus shop.orders 2>/dev/null", floe_bin(), wh),
              2);
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s 2>/dev/null", floe_bin(), wh), 2);
    free(out);
    FT_EQ_INT(
        ft_run(&out, "%s log --warehouse %s --limit 0 shop.orders 2>/dev/null", floe_bin(), wh), 2);
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --graph --format csv shop.orders 2>/dev/null",
                     floe_bin(), wh),
              2);
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --ref nope shop.orders 2>&1", floe_bin(), wh), 1);
    FT_CHECK(out && strstr(out, "Cannot find ref: nope"));
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s/missing shop.orders 2>&1", floe_bin(), wh), 1);
    FT_CHECK(out && strstr(out, "no catalog at"));
    free(out);
    FT_EQ_INT(ft_run(&out, "%s suspects --warehouse %s --window x shop.orders 2>/dev/null",
                     floe_bin(), wh),
              2);
    free(out);
}

static void test_dot(void)
{
    const char *wh;
    if (!seed_warehouse(&wh))
        return;
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --all --format dot shop.orders", floe_bin(), wh),
              0);
    FT_CHECK(out && strncmp(out, "digraph \"shop.orders\" {\n", 24) == 0);
    FT_CHECK(out && strstr(out, "  s5270420720687731067 -> s23499723825440384 [style=dashed"));
    FT_CHECK(out && strstr(out, "  s3657524344527679724 -> s5270420720687731067;\n"));
    FT_CHECK(out && strstr(out, "\"tag close-2026-09\" -> s5270420720687731067"));
    FT_CHECK(out && strstr(out, "\"branch main\" -> s1822237857672733606"));
    free(out);
    if (ft_run(&out, "command -v dot >/dev/null") != 0) {
        free(out);
        return; /* Graphviz absent: the shell test reports the skip */
    }
    free(out);
    FT_EQ_INT(ft_run(&out,
                     "%s log --warehouse %s --all --format dot shop.orders | dot -Tsvg >/dev/null",
                     floe_bin(), wh),
              0);
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --all --svg %s shop.orders", floe_bin(), wh,
                     ft_tmp("g.svg")),
              0);
    free(out);
    char *svg = ft_read_file(ft_tmp("g.svg"), NULL);
    FT_CHECK(svg && strstr(svg, "<svg") && strstr(svg, "audit") &&
             strstr(svg, "5270420720687731067"));
    free(svg);
}

/* Build `script` into a fresh warehouse and return the graph part of
 * `floe log --graph --all` (text from the timestamp on removed). */
static char *graph_of(const char *script, const char *ident, const char *extra)
{
    const char *wh = ft_tmp("wh");
    if (build(wh, script) < 0) {
        ft_fail(__FILE__, __LINE__, "build: %s", ft_floe_err());
        return NULL;
    }
    char *out = NULL;
    if (ft_run(&out, "%s log --warehouse %s --graph --all %s %s | sed 's/  2026-[^([]*files//'",
               floe_bin(), wh, extra, ident) != 0)
        ft_fail(__FILE__, __LINE__, "floe log failed");
    return out;
}

/* A lane crossing another: main A-B-C-D, branch x from B (newest of all),
 * an abandoned snapshot from C. Drawn by hand. */
static void test_graph_crossing(void)
{
    char *out = graph_of("table t.crossing\n"
                         "snap 1 - 1790600001000 append\nref main 1 branch\n"
                         "snap 2 1 1790600002000 append\nref main 2 branch\n"
                         "snap 3 2 1790600003000 append\nref main 3 branch\n"
                         "snap 6 3 1790600005000 append\nref main 6 branch\n"
                         "ref main 3 branch\n"
                         "snap 4 3 1790600006000 append\nref main 4 branch\n"
                         "snap 7 2 1790600007000 append\nref x 7 branch\n",
                         "t.crossing", "");
    FT_EQ_STR(out, "  ●    7  (x)\n"
                   "◉ │    4  (main)\n"
                   "│ │ ○  6  [abandoned]\n"
                   "├─┼─╯\n"
                   "● │    3\n"
                   "├─╯\n"
                   "●      2\n"
                   "●      1\n");
    free(out);
}

/* A child whose clock was behind its parent's still comes above it; a
 * snapshot whose parent was expired ends its line. */
static void test_graph_skew_and_expired_parent(void)
{
    char *out = graph_of("table t.skew\n"
                         "snap 1 99 1790600005000 append\nref main 1 branch\n"
                         "snap 2 1 1790600001000 append\nref main 2 branch\n"
                         "snap 3 1 1790600009000 append\nref t1 3 tag\n",
                         "t.skew", "--ascii");
    FT_EQ_STR(out, "  *  3  (tag: t1)\n"
                   "@ |  2  (main)\n"
                   "|-'\n"
                   "*    1\n");
    free(out);
}

static void test_empty_table(void)
{
    const char *wh = ft_tmp("wh");
    FT_OK(build(wh, "table t.empty\n"));
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --graph --all t.empty", floe_bin(), wh), 0);
    FT_EQ_STR(out, "");
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --format csv t.empty | wc -l", floe_bin(), wh),
              0);
    FT_EQ_STR(out, "1\n");
    free(out);
    FT_EQ_INT(ft_run(&out, "%s suspects --warehouse %s t.empty", floe_bin(), wh), 0);
    FT_EQ_STR(out, "no suspect snapshots among 0 checked\n");
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --format dot t.empty", floe_bin(), wh), 0);
    FT_CHECK(out && strstr(out, "digraph \"t.empty\" {") && strstr(out, "}\n"));
    free(out);
}

/* A table written by Java (shared fixture): branches and tags on two
 * snapshots, a third snapshot no ref reaches. */
static void test_graph_java_fixture(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    char script[4096];
    snprintf(
        script, sizeof script, "register db.java %s\n",
        ft_path(sh, "fixtures/vectors/metadata/java-branch-and-tag.java_evolved.metadata.json"));
    const char *wh = ft_tmp("wh");
    FT_OK(build(wh, script));
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --graph --all db.java", floe_bin(), wh), 0);
    FT_EQ_STR(out, "  ○  3060729675574597004  2020-09-13 12:26:40  append    +0 -0 records, ? "
                   "total, ? files  [abandoned]\n"
                   "◉ │  3055729675574597004  2019-04-12 20:29:15  append    +0 -0 records, ? "
                   "total, ? files  (main, dev, tag: release-1)\n"
                   "├─╯\n"
                   "●    3051729675574597004  2018-01-04 21:22:35  append    +0 -0 records, ? "
                   "total, ? files  (audit, tag: stable)\n");
    free(out);
    FT_EQ_INT(ft_run(&out, "%s log --warehouse %s --format csv --ref audit db.java | tail -1",
                     floe_bin(), wh),
              0);
    FT_EQ_STR(out,
              "3051729675574597004,,2018-01-04 21:22:35.770,append,0,0,,,\"audit, tag: stable\","
              "main,,\n");
    free(out);
}

static const ft_case cases[] = {
    {"graph_java_fixture", test_graph_java_fixture},
    {"graph_crossing", test_graph_crossing},
    {"graph_skew_and_expired_parent", test_graph_skew_and_expired_parent},
    {"empty_table", test_empty_table},
    {"graph_seed", test_graph_seed},
    {"graph_color", test_graph_color},
    {"table_formats", test_table_formats},
    {"exit_codes", test_exit_codes},
    {"dot", test_dot},
    {"wap_states", test_wap_states},
};

int main(int argc, char **argv)
{
    if (argc == 3 && (strcmp(argv[1], "--build") == 0 || strcmp(argv[1], "--seed") == 0)) {
        char *script = NULL;
        if (strcmp(argv[1], "--seed") == 0)
            script = floe__strdup(SEED);
        else {
            floe_buf b = FLOE_BUF_INIT;
            char chunk[4096];
            size_t n;
            while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
                if (floe__buf_put(&b, chunk, n) < 0)
                    return 1;
            floe__buf_putc(&b, '\0');
            script = floe__buf_detach(&b);
        }
        int rc = script ? build(argv[2], script) : FLOE_ENOMEM;
        floe__free(script);
        if (rc < 0) {
            fprintf(stderr, "fixture: %s\n", ft_floe_err());
            return 1;
        }
        return 0;
    }
    return ft_main(argc, argv, cases, FT_N(cases));
}
