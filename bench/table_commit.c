/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/table_commit: latency of one commit through the whole protocol
 * (prepare, build, write metadata.json create-new, SQLite compare-and-set)
 * on tables with 10, 1,000 and 10,000 snapshots: a metadata-only commit
 * (rollback / set-current alternating) and a small synthetic append
 * (add-snapshot + move main; the manifest list is not written, so this is
 * the metadata part of an append). Also: the freshness check per use, and
 * commits/s with 8 writer processes racing on one table.
 *
 * Metadata-only commits also report their median CPU time (`_cpu`).
 * Tables are generated as metadata JSON with Spark-like summaries and a
 * snapshot-log entry per snapshot (bench_tables.h), then registered in a
 * fresh catalog. Rollback latency against data size: bench/table_rollback_size.c.
 * Output: BENCH <name> <value> <unit>.
 */
#include "arrow/arrow.h"
#include "bench_tables.h"
#include "floe/table.h"
#include "manifest/manifest.h"
#include "spec/value.h"
#include "table/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char g_dir[128];

/* CPU time of this process (user + system, kernel copies into the page
 * cache included; fsync waits not): on a machine shared by several
 * builds the wall-clock medians swing, this much less. */
static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static floe_catalog *open_catalog(void)
{
    char db[600];
    snprintf(db, sizeof db, "%s/catalog.db", g_dir);
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = g_dir;
    floe_catalog *c = NULL;
    if (floe_catalog_open_sql(&c, db, &o) < 0)
        return NULL;
    if (floe_catalog_namespace_exists(c, "b") == 0)
        floe_catalog_create_namespace(c, "b", NULL);
    return c;
}

/* A v2 table with n snapshots in one chain, main at the last. */
static int make_table(floe_catalog *c, const char *name, int n, int64_t *first, int64_t *last)
{
    char loc[700], ident[64], file[800];
    snprintf(loc, sizeof loc, "%s/b.db/%s", g_dir, name);
    snprintf(ident, sizeof ident, "b.%s", name);
    int rc = bt_write_chain_table(loc, n, file, sizeof file);
    if (rc == 0)
        rc = floe_catalog_register_table(c, ident, file);
    *first = BT_BASE_ID + n - 2;
    *last = BT_BASE_ID + n - 1;
    return rc;
}

typedef struct synth {
    int64_t id;
} synth;

static int synth_prepare(const floe_table_metadata *base, floe_table_change *c, void *p)
{
    synth *s = p;
    const floe_snapshot *parent = floe__metadata_current_snapshot(base);
    FLOE_TRY(floe__snapshot_id(&s->id));
    floe_table_update *u = floe__change_update(c, FLOE_UPD_ADD_SNAPSHOT);
    static floe_kv kv[] = {{"operation", "append"},
                           {"added-data-files", "1"},
                           {"added-records", "10"},
                           {"total-records", "10"}};
    if (!u)
        return floe__error_nomem();
    u->snapshot.snapshot_id = s->id;
    u->snapshot.has_parent = parent != NULL;
    u->snapshot.parent_snapshot_id = parent ? parent->snapshot_id : 0;
    u->snapshot.sequence_number = base->last_sequence_number + 1;
    u->snapshot.timestamp_ms = floe__now_ms();
    FLOE_TRY(floe__snapshot_pack_manifest_list(
        &u->snapshot, c->arena,
        floe__arena_sprintf(c->arena, "%s/metadata/snap-empty.avro", base->location)));
    FLOE_TRY(floe__snapshot_pack_summary(&u->snapshot, c->arena, kv, 4));
    floe_snapshot_ref r = {.name = "main", .type = FLOE_REF_BRANCH, .snapshot_id = s->id};
    FLOE_TRY(floe__change_assert_ref(c, base, "main"));
    return floe__change_set_ref(c, &r);
}

/* One real append: a 1-row Parquet file, a manifest, a manifest list. */
static int small_append(floe_table *t, int64_t id)
{
    const floe_type *root = floe__metadata_current_schema(t->metadata)->root;
    floe_arrow_builder *b = NULL;
    struct ArrowArray arr;
    floe_append *a = NULL;
    floe_value v0 = floe_value_long(id), v1 = floe_value_date(20716);
    int rc = floe__arrow_builder_new(&b, root);
    if (rc == 0)
        rc = floe__arrow_builder_append(b->children[0], &v0);
    if (rc == 0)
        rc = floe__arrow_builder_append(b->children[1], &v1);
    if (rc == 0)
        rc = floe__arrow_builder_struct_append(b, true);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, &arr);
    floe__arrow_builder_free(b);
    if (rc == 0)
        rc = floe_append_new(&a, t);
    if (rc == 0) {
        rc = floe_append_write(a, &arr);
        arr.release(&arr);
    }
    if (rc == 0)
        rc = floe_append_commit(NULL, a);
    floe_append_free(a);
    return rc;
}

static void bench_size(floe_catalog *c, int n, int runs)
{
    char name[32], ident[40];
    snprintf(name, sizeof name, "t%d", n);
    snprintf(ident, sizeof ident, "b.%s", name);
    int64_t a, z;
    if (make_table(c, name, n, &a, &z) < 0) {
        fprintf(stderr, "make_table: %s\n", floe_error_last()->message);
        exit(1);
    }
    floe_table *t = NULL;
    if (floe_table_load(&t, c, ident, NULL) < 0)
        exit(1);
    int64_t *lat = calloc((size_t)runs, sizeof *lat), *cpu = calloc((size_t)runs, sizeof *cpu);
    for (int i = 0; i < runs; i++) {
        int64_t t0 = floe__mono_ns(), c0 = cpu_ns();
        int rc = (i % 2 == 0) ? floe_table_rollback_to_snapshot(NULL, NULL, t, a)
                              : floe_table_set_current_snapshot(NULL, NULL, t, z);
        lat[i] = floe__mono_ns() - t0;
        cpu[i] = cpu_ns() - c0;
        if (rc < 0) {
            fprintf(stderr, "commit: %s\n", floe_error_last()->message);
            exit(1);
        }
    }
    printf("BENCH table_commit_metadata_only_%d_snapshots %.2f ms\n", n, bt_median_ms(lat, runs));
    printf("BENCH table_commit_metadata_only_%d_snapshots_cpu %.2f ms\n", n,
           bt_median_ms(cpu, runs));
    free(cpu);
    for (int i = 0; i < runs; i++) {
        synth s;
        int64_t t0 = floe__mono_ns();
        if (floe__table_commit(t, synth_prepare, &s) < 0)
            exit(1);
        lat[i] = floe__mono_ns() - t0;
    }
    printf("BENCH table_commit_synthetic_snapshot_%d_snapshots %.2f ms\n", n,
           bt_median_ms(lat, runs));
    for (int i = 0; i < runs; i++) {
        int64_t t0 = floe__mono_ns();
        if (small_append(t, i) < 0) {
            fprintf(stderr, "append: %s\n", floe_error_last()->message);
            exit(1);
        }
        lat[i] = floe__mono_ns() - t0;
    }
    printf("BENCH table_commit_small_append_%d_snapshots %.2f ms\n", n, bt_median_ms(lat, runs));
    int checks = 2000;
    int64_t t0 = floe__mono_ns();
    for (int i = 0; i < checks; i++)
        if (floe_table_ensure_fresh(t) != 0)
            exit(1);
    printf("BENCH table_freshness_check_%d_snapshots %.1f us\n", n,
           (double)(floe__mono_ns() - t0) / checks / 1e3);
    floe_file_info fi;
    if (floe_fileio_stat(&fi, floe_table_io(t), floe_table_metadata_location(t)) == 0)
        printf("BENCH table_metadata_json_%d_snapshots %.0f KB\n", n, (double)fi.size / 1024);
    free(lat);
    floe_table_free(t);
}

enum { WRITERS = 8, PER_WRITER = 20 };

static int writer(int i)
{
    floe_catalog *c = open_catalog();
    floe_table *t = NULL;
    if (!c || floe_table_load(&t, c, "b.race", NULL) < 0)
        return 2;
    for (int k = 0; k < PER_WRITER; k++) {
        char tag[32];
        snprintf(tag, sizeof tag, "w%d_%d", i, k);
        if (floe_table_create_tag(t, tag, FLOE_REF_CREATE, NULL) < 0)
            return 1;
    }
    floe_table_free(t);
    floe_catalog_free(c);
    return 0;
}

static void bench_writers(floe_catalog *c)
{
    int64_t a, z;
    if (make_table(c, "race", 10, &a, &z) < 0)
        exit(1);
    floe_table *t = NULL;
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "commit.retry.num-retries", "1000");
    floe__props_set(&p, "commit.retry.min-wait-ms", "1");
    floe__props_set(&p, "commit.retry.max-wait-ms", "50");
    if (floe_table_load(&t, c, "b.race", NULL) < 0 ||
        floe_table_update_properties(t, &p, NULL, 0) < 0)
        exit(1);
    floe__props_free(&p);
    floe_table_free(t);
    int64_t t0 = floe__mono_ns();
    pid_t pids[WRITERS];
    for (int i = 0; i < WRITERS; i++) {
        pids[i] = fork();
        if (pids[i] == 0)
            _exit(writer(i));
    }
    int failed = 0;
    for (int i = 0; i < WRITERS; i++) {
        int st;
        waitpid(pids[i], &st, 0);
        failed += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    double secs = (double)(floe__mono_ns() - t0) / 1e9;
    if (failed)
        fprintf(stderr, "%d writers failed\n", failed);
    printf("BENCH table_commits_per_s_8_writers %.0f commits/s\n", WRITERS * PER_WRITER / secs);
}

int main(void)
{
    /* FLOE_BENCH_DIR (e.g. /dev/shm) separates CPU cost from fsync cost */
    const char *root = getenv("FLOE_BENCH_DIR");
    snprintf(g_dir, sizeof g_dir, "%s/floe-bench-table-%d", root ? root : "/tmp", (int)getpid());
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", g_dir, g_dir);
    if (system(cmd) != 0)
        return 1;
    floe_catalog *c = open_catalog();
    if (!c)
        return 1;
    bench_size(c, 10, 41);
    bench_size(c, 1000, 21);
    bench_size(c, 10000, 9);
    bench_writers(c);
    floe_catalog_free(c);
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd) == 0 ? 0 : 1;
}
