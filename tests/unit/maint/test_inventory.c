/* SPDX-License-Identifier: Apache-2.0 */
/* maint/inventory: the pinned-snapshot inventory of seed 001 (its
 * apple/banana example with ADDED / EXISTING / DELETED entries reproduced
 * as a table), the shared fixtures' snapshots (location-mapped) with their
 * documented live sets, a --copy-to backup that reads identically, and the
 * retention report. */
#include "fixture.h"
#include "maint/maint.h"

#include <sys/stat.h>
#include <unistd.h>

#define T0 1800000000000LL

typedef struct rows {
    floe_buf text; /* "kind content status basename\n" per row */
    floe_vec full; /* char* "kind|path|size|content|status" */
    int counts[6];
} rows;

static int on_row(const floe_maint_inventory_row *r, void *payload)
{
    rows *x = payload;
    const char *base = strrchr(r->path, '/');
    base = base ? base + 1 : r->path;
    x->counts[r->kind]++;
    char **slot = floe__vec_push(&x->full);
    *slot = floe__sprintf("%s|%s|%lld|%s|%s", r->kind_name, r->path, (long long)r->size, r->content,
                          r->status);
    if (r->kind == FLOE_MAINT_INV_METADATA || r->kind == FLOE_MAINT_INV_MANIFEST_LIST)
        return floe__buf_printf(&x->text, "%s\n", r->kind_name);
    return floe__buf_printf(&x->text, "%s %s %s %s\n", r->kind_name, r->content, r->status, base);
}

static void rows_init(rows *x)
{
    memset(x, 0, sizeof *x);
    x->full = (floe_vec)FLOE_VEC_INIT(char *);
    floe__buf_puts(&x->text, "");
}

static void rows_free(rows *x)
{
    for (size_t i = 0; i < x->full.len; i++)
        floe__free(*(char **)floe__vec_at(&x->full, i));
    floe__vec_free(&x->full);
    floe__buf_free(&x->text);
}

/* ------------------------------------------------------------ seed 001 */

static void test_seed001_apple_banana(void)
{
    const char *dir = ft_tmp("seed001");
    mkdir(dir, 0755);
    char db[4096];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog *cat;
    floe_fileio *io;
    FT_OK(floe_catalog_open_sql(&cat, db, NULL));
    FT_OK(floe_fileio_memory_new(&io));
    fx_table t;
    FT_OK(fx_create(&t, cat, io, "lesson.fruit", "mem://wh/fruit", T0));
    int64_t s100, s101, s102;
    FT_OK(fx_append(&t, "main", 1, &s100)); /* M_A: apple ADDED */
    char *apple = floe__strdup(t.last_path);
    FT_OK(fx_append(&t, "main", 1, &s101)); /* M_B: banana ADDED; M_A reused */
    char *banana = floe__strdup(t.last_path);
    /* S102 names only M_C: banana EXISTING, apple DELETED */
    floe_arena *a = floe__arena_new(0);
    floe__snapshot_id(&s102);
    t.clock += 1000;
    floe_manifest_entry es[2];
    memset(es, 0, sizeof es);
    for (int i = 0; i < 2; i++) {
        es[i].has_snapshot_id = true;
        es[i].data_file.file_format = "PARQUET";
        es[i].data_file.record_count = 1;
        es[i].data_file.file_size_in_bytes = 30;
        es[i].data_file.block_size_in_bytes = -1;
    }
    es[0].status = FLOE_ENTRY_EXISTING;
    es[0].snapshot_id = s101;
    es[0].sequence_number = es[0].file_sequence_number = 2;
    es[0].data_file.file_path = banana;
    es[1].status = FLOE_ENTRY_DELETED;
    es[1].snapshot_id = s102;
    es[1].sequence_number = es[1].file_sequence_number = 1;
    es[1].data_file.file_path = apple;
    floe_manifest_file mc;
    FT_OK(fx_write_manifest(&t, FLOE_MANIFEST_DATA, s102, FLOE_SEQ_UNASSIGNED, es, 2, &mc, a));
    FT_OK(fx_commit_snapshot(&t, "main", "replace", s102, 3, s101, NULL, 0, &mc, 1, a));
    floe__arena_free(a);

    const char *ab = strrchr(apple, '/') + 1, *bb = strrchr(banana, '/') + 1;
    char want[1024];
    int64_t ids[] = {s100, s101, s102};
    for (int k = 0; k < 3; k++) {
        floe_maint_inventory_options o = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
        o.io = io;
        o.has_snapshot_id = true;
        o.snapshot_id = ids[k];
        rows x;
        rows_init(&x);
        FT_OK(floe_maint_inventory(NULL, cat, "lesson.fruit", &o, on_row, &x));
        int data = x.counts[FLOE_MAINT_INV_DATA_FILE];
        FT_EQ_INT(x.counts[FLOE_MAINT_INV_METADATA], 1);
        FT_EQ_INT(x.counts[FLOE_MAINT_INV_MANIFEST_LIST], 1);
        if (k == 0) {
            FT_EQ_INT(x.counts[FLOE_MAINT_INV_MANIFEST], 1);
            FT_EQ_INT(data, 1);
            snprintf(want, sizeof want, "data_file data ADDED %s\n", ab);
            FT_CHECK(strstr(x.text.ptr, want) != NULL);
        } else if (k == 1) {
            FT_EQ_INT(x.counts[FLOE_MAINT_INV_MANIFEST], 2);
            FT_EQ_INT(data, 2);
            /* M_A is reused: apple is still ADDED there */
            snprintf(want, sizeof want, "data_file data ADDED %s\n", ab);
            FT_CHECK(strstr(x.text.ptr, want) != NULL);
            snprintf(want, sizeof want, "data_file data ADDED %s\n", bb);
            FT_CHECK(strstr(x.text.ptr, want) != NULL);
        } else {
            FT_EQ_INT(x.counts[FLOE_MAINT_INV_MANIFEST], 1);
            FT_EQ_INT(data, 1); /* apple's DELETED entry is not live */
            snprintf(want, sizeof want, "data_file data EXISTING %s\n", bb);
            FT_CHECK(strstr(x.text.ptr, want) != NULL);
            FT_CHECK(strstr(x.text.ptr, ab) == NULL);
            /* ...and apple is still on storage: S100 and S101 need it */
            FT_EQ_INT(floe_fileio_exists(io, apple), 1);
        }
        rows_free(&x);
    }
    /* selection by ref and by time (snapshot-log) */
    FT_OK(fx_set_ref(&t, "lesson", FLOE_REF_TAG, s101, 0));
    floe_maint_inventory_options o = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
    o.io = io;
    o.ref = "lesson";
    rows x;
    rows_init(&x);
    FT_OK(floe_maint_inventory(NULL, cat, "lesson.fruit", &o, on_row, &x));
    FT_EQ_INT(x.counts[FLOE_MAINT_INV_DATA_FILE], 2);
    rows_free(&x);
    o.ref = NULL;
    o.has_timestamp = true;
    o.timestamp_ms = floe__metadata_snapshot(t.m, s100)->timestamp_ms;
    rows_init(&x);
    FT_OK(floe_maint_inventory(NULL, cat, "lesson.fruit", &o, on_row, &x));
    FT_EQ_INT(x.counts[FLOE_MAINT_INV_DATA_FILE], 1);
    rows_free(&x);
    o.timestamp_ms = T0 - 1;
    FT_EQ_INT(floe_maint_inventory(NULL, cat, "lesson.fruit", &o, on_row, NULL), FLOE_ENOTFOUND);
    o.has_timestamp = false;
    o.ref = "nope";
    FT_EQ_INT(floe_maint_inventory(NULL, cat, "lesson.fruit", &o, on_row, NULL), FLOE_ENOTFOUND);
    o.has_snapshot_id = true;
    FT_EQ_INT(floe_maint_inventory(NULL, cat, "lesson.fruit", &o, on_row, NULL), FLOE_EINVALID);

    /* the retention report over this history: S100..S102 are main's
     * ancestors; apple is held only by old snapshots */
    floe_maint_retention_report *rep;
    floe_maint_retention_options ro = FLOE_MAINT_RETENTION_OPTIONS_INIT;
    ro.now_ms = t.clock + 1000;
    ro.io = io;
    FT_OK(floe_maint_retention_report_compute(&rep, cat, "lesson.fruit", &ro));
    FT_EQ_INT(rep->snapshots_count, 3);
    FT_EQ_INT(rep->nrefs, 2);
    FT_CHECK(rep->bytes_held_only_by_old_snapshots > 0);
    floe_file_info bst;
    FT_OK(floe_fileio_stat(&bst, io, banana));
    FT_EQ_INT(rep->current_files_bytes, bst.size); /* banana only */
    FT_EQ_INT(rep->all_files_bytes, bst.size + (floe_fileio_stat(&bst, io, apple), bst.size));
    FT_EQ_INT(rep->nexpiring, 0); /* defaults: all younger than 5 days */
    /* the metadata tables' all_data_files - data_files (src/meta): apple
     * and banana as first listed, minus banana as M_C records it (30) */
    {
        floe_file_info ast;
        FT_OK(floe_fileio_stat(&ast, io, apple));
        FT_OK(floe_fileio_stat(&bst, io, banana));
        FT_EQ_INT(rep->all_data_files_minus_files_bytes, ast.size + bst.size - 30);
    }
    floe_maint_retention_report_free(rep);
    ro.now_ms = t.clock + 10LL * 86400000;
    FT_OK(floe_maint_retention_report_compute(&rep, cat, "lesson.fruit", &ro));
    /* 10 days later with keep 1: S100 and S101 go except the tag's S101 */
    FT_EQ_INT(rep->nexpiring, 1);
    FT_EQ_INT(rep->expiring_snapshot_ids[0], s100);
    FT_EQ_INT(rep->would_delete.deleted_manifest_lists_count, 1);
    FT_EQ_INT(rep->would_delete.deleted_data_files_count, 0); /* apple live in S101 */
    for (size_t i = 0; i < rep->nrefs; i++)
        if (strcmp(rep->refs[i].name, "main") == 0) {
            FT_EQ_INT(rep->refs[i].retained_count, 1);
            FT_EQ_INT(rep->refs[i].oldest_snapshot_id, s102);
        }
    floe_maint_retention_report_free(rep);
    floe__free(apple);
    floe__free(banana);
    fx_free(&t);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

/* ------------------------------------------------------------ fixtures */

typedef struct fixture_case {
    const char *dir;
    const char *metadata;
    const char *location;
    int64_t snapshot;
    int data, deletes, stats;
} fixture_case;

static const fixture_case FIX[] = {
    {"spark_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/spark/bunnies",
     7505300640432048841LL, 1, 0, 0},
    {"spark_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/spark/bunnies",
     469881615898633426LL, 1, 1, 0},
    /* the overwrite replaced the data file; the old delete file stays live */
    {"spark_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/spark/bunnies",
     2701171901096418979LL, 1, 1, 0},
    {"java_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/java/bunnies",
     9158179788527662767LL, 2, 2, 0}, /* initial + updated row; pos + eq deletes */
    {"trino_deletion_vectors_v3", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json",
     "s3a://warehouse/deletion_vectors", 7777310120628922486LL, 2, 2, 0},
    {"trino_deletion_vectors_v3", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json",
     "s3a://warehouse/deletion_vectors", 7026943662205930455LL, 2, 1, 1},
    {"spark_rename_column", "v3.metadata.json", "s3a://hyperparam-iceberg/spark/rename_column",
     5276958600260276572LL, 3, 0, 0}, /* 4 rows in 3 files (id buckets x dates) */
};

static int open_fixture(const fixture_case *fc, const char *sh, floe_catalog **cat,
                        floe_fileio **io, const char *name)
{
    char db[4096], meta[4096], map[4096];
    snprintf(db, sizeof db, "%s/%s.db", ft_tmpdir(), name);
    snprintf(meta, sizeof meta, "%s/fixtures/%s/metadata/%s", sh, fc->dir, fc->metadata);
    snprintf(map, sizeof map, "%s=%s/fixtures/%s", fc->location, sh, fc->dir);
    FLOE_TRY(floe_catalog_open_sql(cat, db, NULL));
    if (floe_catalog_namespace_exists(*cat, "fx") == 0)
        FLOE_TRY(floe_catalog_create_namespace(*cat, "fx", NULL));
    int rc = floe_catalog_register_table(*cat, "fx.t", meta);
    if (rc < 0 && rc != FLOE_EEXISTS)
        return rc;
    floe_fileio *local;
    FLOE_TRY(floe_fileio_local_new(&local));
    return floe_fileio_map_new(io, local, map);
}

static void test_fixtures(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    for (size_t i = 0; i < FT_N(FIX); i++) {
        const fixture_case *fc = &FIX[i];
        floe_catalog *cat;
        floe_fileio *io;
        char name[32];
        snprintf(name, sizeof name, "fix%zu", i);
        FT_OK(open_fixture(fc, sh, &cat, &io, name));
        floe_maint_inventory_options o = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
        o.io = io;
        o.has_snapshot_id = true;
        o.snapshot_id = fc->snapshot;
        rows x;
        rows_init(&x);
        FT_OK(floe_maint_inventory(NULL, cat, "fx.t", &o, on_row, &x));
        if (fc->data >= 0)
            FT_EQ_INT(x.counts[FLOE_MAINT_INV_DATA_FILE], fc->data);
        FT_EQ_INT(x.counts[FLOE_MAINT_INV_DELETE_FILE], fc->deletes);
        FT_EQ_INT(x.counts[FLOE_MAINT_INV_STATISTICS_FILE], fc->stats);
        FT_EQ_INT(x.counts[FLOE_MAINT_INV_MANIFEST_LIST], 1);
        /* every object is there (mapped) with the recorded size */
        for (size_t k = 0; k < x.full.len; k++) {
            char *row = *(char **)floe__vec_at(&x.full, k);
            char *p1 = strchr(row, '|'), *p2 = strchr(p1 + 1, '|');
            *p2 = '\0';
            floe_file_info st;
            int rc = floe_fileio_stat(&st, io, p1 + 1);
            if (rc < 0) {
                ft_fail(__FILE__, __LINE__, "%s: %s", fc->dir, ft_floe_err());
                break;
            }
            long long size = atoll(p2 + 1);
            if (size >= 0 && strncmp(row, "delete_file", 11) != 0 &&
                strncmp(row, "manifest_list", 13) != 0)
                FT_EQ_INT(st.size, size);
            *p2 = '|';
        }
        rows_free(&x);
        floe_fileio_free(io);
        floe_catalog_free(cat);
    }
}

static void test_copy_to(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    const fixture_case *fc = &FIX[1]; /* data + position delete */
    floe_catalog *cat;
    floe_fileio *io;
    FT_OK(open_fixture(fc, sh, &cat, &io, "copy"));
    char backup[4096];
    snprintf(backup, sizeof backup, "%s/backup", ft_tmpdir());
    floe_maint_inventory_options o = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
    o.io = io;
    o.has_snapshot_id = true;
    o.snapshot_id = fc->snapshot;
    o.copy_to = backup;
    rows a, b;
    rows_init(&a);
    rows_init(&b);
    char *meta = NULL;
    FT_OK(floe_maint_inventory(&meta, cat, "fx.t", &o, on_row, &a));
    FT_ASSERT(meta != NULL);
    FT_CHECK(strncmp(meta, backup, strlen(backup)) == 0);
    char props[4200];
    snprintf(props, sizeof props, "%s/floe-backup.properties", backup);
    char *ptext = ft_read_file(props, NULL);
    FT_ASSERT(ptext != NULL);
    FT_CHECK(strstr(ptext, "metadata-location=") != NULL);
    FT_CHECK(strstr(ptext, "io.location-map") == NULL); /* it needs none */
    free(ptext);
    /* register the backup elsewhere and read it with a plain local FileIO */
    floe_catalog *cat2;
    char db[4096];
    snprintf(db, sizeof db, "%s/backup.db", ft_tmpdir());
    FT_OK(floe_catalog_open_sql(&cat2, db, NULL));
    FT_OK(floe_catalog_create_namespace(cat2, "bk", NULL));
    FT_OK(floe_catalog_register_table(cat2, "bk.t", meta));
    floe_fileio *local;
    FT_OK(floe_fileio_local_new(&local));
    floe_maint_inventory_options o2 = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
    o2.io = local;
    FT_OK(floe_maint_inventory(NULL, cat2, "bk.t", &o2, on_row, &b));
    /* the same objects but the metadata file, every path in the backup */
    FT_EQ_INT(a.full.len, b.full.len);
    FT_EQ_STR(b.text.ptr, a.text.ptr);
    size_t ll = strlen(fc->location);
    for (size_t k = 1; k < a.full.len && k < b.full.len; k++) {
        const char *ra = *(char **)floe__vec_at(&a.full, k);
        const char *rb = *(char **)floe__vec_at(&b.full, k);
        char *p1 = strchr(ra, '|') + 1, *q1 = strchr(rb, '|') + 1;
        char *path = floe__strndup(p1, (size_t)(strchr(p1, '|') - p1));
        char *bpath = floe__strndup(q1, (size_t)(strchr(q1, '|') - q1));
        FT_CHECK(strncmp(path, fc->location, ll) == 0);
        FT_CHECK(strncmp(bpath, backup, strlen(backup)) == 0);
        FT_EQ_STR(bpath + strlen(backup), path + ll);
        /* data files are the same bytes; metadata files name the backup */
        if (strncmp(ra, "data_file|", 10) == 0) {
            floe_buf x = FLOE_BUF_INIT, y = FLOE_BUF_INIT;
            FT_OK(floe__io_read_all(io, path, (size_t)1 << 30, &x));
            FT_OK(floe__io_read_all(local, bpath, (size_t)1 << 30, &y));
            FT_CHECK(x.len == y.len && memcmp(x.ptr, y.ptr, x.len) == 0);
            floe__buf_free(&x);
            floe__buf_free(&y);
        }
        floe__free(path);
        floe__free(bpath);
    }
    /* the backup holds one snapshot: its current one */
    floe_table_metadata *bm = NULL;
    FT_OK(floe__maint_read_metadata(local, meta, &bm));
    FT_EQ_INT(bm->nsnapshots, 1);
    FT_EQ_INT(bm->current_snapshot_id, fc->snapshot);
    floe__metadata_free(bm);
    rows_free(&a);
    rows_free(&b);
    floe_string_free(meta);
    floe_fileio_free(local);
    floe_fileio_free(io);
    floe_catalog_free(cat2);
    floe_catalog_free(cat);
}

static const ft_case cases[] = {
    {"seed001_apple_banana", test_seed001_apple_banana},
    {"fixtures", test_fixtures},
    {"copy_to", test_copy_to},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
