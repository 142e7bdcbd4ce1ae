/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rewrite_table_path (maint/rewrite_path.c) on file-level histories: the
 * copy names only itself and reads with the original removed; a live file
 * added by an expired snapshot is copied (apache/iceberg#16220); a DELETED
 * delete-file entry whose file expiry removed does not stop the rewrite
 * (#17498); argument errors carry Java's messages. The end-to-end test with
 * rows is tests/cli/maint_rewrite_path.sh.
 */
#include "fixture.h"
#include "maint/maint.h"

#include <sys/stat.h>

typedef struct hist {
    floe_catalog *cat;
    floe_fileio *io;
    fx_table t;
    char dir[2048], loc[4096];
    int64_t s[6];
    char *f1, *gone_delete;
} hist;

static void hist_free(hist *h)
{
    fx_free(&h->t);
    floe_fileio_free(h->io);
    floe_catalog_free(h->cat);
    floe__free(h->f1);
    floe__free(h->gone_delete);
}

/* A delete manifest holding one DELETED position-delete entry whose file
 * does not exist (expiry removed it), committed on main. */
static int commit_deleted_delete_entry(hist *h)
{
    fx_table *t = &h->t;
    int64_t parent = fx_head(t, "main"), snap, seq = t->m->last_sequence_number + 1;
    t->clock += 1000;
    floe__snapshot_id(&snap);
    floe_arena *a = floe__arena_new(0);
    h->gone_delete = floe__sprintf("%s/data/expired-deletes.parquet", h->loc);
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_DELETED;
    e.has_snapshot_id = true;
    e.snapshot_id = snap;
    e.sequence_number = e.file_sequence_number = 1;
    e.data_file.content = FLOE_FILE_POSITION_DELETES;
    e.data_file.file_path = h->gone_delete;
    e.data_file.file_format = "PARQUET";
    e.data_file.record_count = 1;
    e.data_file.file_size_in_bytes = 99;
    e.data_file.block_size_in_bytes = -1;
    floe_manifest_file mf;
    int rc = fx_write_manifest(t, FLOE_MANIFEST_DELETES, snap, FLOE_SEQ_UNASSIGNED, &e, 1, &mf, a);
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list *list = NULL;
    if (rc == 0)
        rc = fx_manifests(t, parent, &bytes, &list);
    if (rc == 0)
        rc = fx_commit_snapshot(t, "main", "delete", snap, seq, parent, list->entries,
                                list->nentries, &mf, 1, a);
    floe_manifest_list_free(list);
    floe__buf_free(&bytes);
    floe__arena_free(a);
    h->s[3] = snap;
    return rc;
}

static int build(hist *h, const char *name)
{
    memset(h, 0, sizeof *h);
    snprintf(h->dir, sizeof h->dir, "%s", ft_tmp(name));
    mkdir(h->dir, 0755);
    char db[4200];
    snprintf(db, sizeof db, "%s/catalog.db", h->dir);
    snprintf(h->loc, sizeof h->loc, "%s/src/db.db/t", h->dir);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.name = "local";
    FLOE_TRY(floe_catalog_open_sql(&h->cat, db, &co));
    FLOE_TRY(floe_fileio_local_new(&h->io));
    fx_table *t = &h->t;
    FLOE_TRY(fx_create(t, h->cat, h->io, "db.t", h->loc, floe__now_ms() - 3600000));
    FLOE_TRY(fx_append(t, "main", 1, &h->s[1]));
    h->f1 = floe__strdup(t->last_path);
    FLOE_TRY(fx_append(t, "main", 1, &h->s[2]));
    FLOE_TRY(commit_deleted_delete_entry(h));
    FLOE_TRY(fx_append(t, "main", 1, &h->s[4]));
    FLOE_TRY(fx_set_ref(t, "b", FLOE_REF_BRANCH, h->s[2], 0));
    FLOE_TRY(fx_append(t, "b", 1, &h->s[5]));
    /* expire the snapshot that added f1: f1 stays live (carried on) */
    floe_maint_expire_options o = FLOE_MAINT_EXPIRE_OPTIONS_INIT;
    o.io = h->io;
    o.snapshot_ids = &h->s[1];
    o.nsnapshot_ids = 1;
    floe_maint_expire_result r;
    FLOE_TRY(floe_maint_expire_snapshots(&r, h->cat, "db.t", &o));
    FLOE_TRY(fx_reload(t));
    /* a busy table's metadata log is trimmed (previous-versions-max): no
     * version left names s1 */
    t->m->n_metadata_log = 0;
    floe_kv kv = {"write.metadata.previous-versions-max", "1"};
    return fx_set_props(t, &kv, 1);
}

/* Every path a copied snapshot names is under `prefix` and exists; counts
 * the live data files. */
static void check_copy(floe_fileio *io, const char *meta_path, const char *prefix,
                       int64_t *live_files, int64_t *snapshots)
{
    floe_table_metadata *m = NULL;
    FT_OK(floe__maint_read_metadata(io, meta_path, &m));
    if (!m)
        return;
    size_t pl = strlen(prefix);
    FT_CHECK(strncmp(m->location, prefix, pl) == 0);
    *live_files = 0;
    *snapshots = (int64_t)m->nsnapshots;
    floe_arena *a = floe__arena_new(0);
    floe_strmap *seen = floe__strmap_new();
    for (size_t i = 0; i < m->nsnapshots; i++) {
        floe_buf lb = FLOE_BUF_INIT, mb = FLOE_BUF_INIT;
        floe_manifest_list *l = NULL;
        const floe_manifest_file *mfs = NULL;
        size_t n = 0;
        const char *lp = NULL;
        FT_OK(floe__maint_list_path(&m->snapshots[i], a, &lp));
        FT_CHECK(lp && strncmp(lp, prefix, pl) == 0);
        FT_OK(floe__maint_snapshot_manifests(io, &m->snapshots[i], &lb, &l, a, &mfs, &n));
        for (size_t k = 0; k < n; k++) {
            FT_CHECK(strncmp(mfs[k].manifest_path, prefix, pl) == 0);
            floe_manifest_reader *rd = NULL;
            FT_OK(floe__maint_open_manifest(io, &mfs[k], &mb, &rd));
            const floe_manifest_entry *e;
            while (rd && floe_manifest_reader_next(rd, &e) == 0) {
                FT_CHECK(strncmp(e->data_file.file_path, prefix, pl) == 0);
                bool exists = floe_fileio_exists(io, e->data_file.file_path) == 1;
                if (FLOE_ENTRY_IS_LIVE(e->status)) {
                    FT_CHECK(exists);
                    if (!floe__strmap_has(seen, e->data_file.file_path)) {
                        floe__strmap_put(seen, floe__arena_strdup(a, e->data_file.file_path),
                                         (void *)1);
                        if (e->data_file.content == FLOE_FILE_DATA)
                            (*live_files)++;
                    }
                }
            }
            floe_manifest_reader_free(rd);
        }
        floe_manifest_list_free(l);
        floe__buf_free(&lb);
        floe__buf_free(&mb);
    }
    floe__strmap_free(seen);
    floe__arena_free(a);
    floe__metadata_free(m);
}

static void test_copy_reads_alone(void)
{
    hist h;
    FT_OK(build(&h, "alone"));
    char target[4200], staging[4200], meta[4400];
    snprintf(target, sizeof target, "%s/copy/t", h.dir);
    snprintf(staging, sizeof staging, "%s/staging", h.dir);
    floe_maint_rewrite_path_options o = FLOE_MAINT_REWRITE_PATH_OPTIONS_INIT;
    o.source_prefix = h.loc;
    o.target_prefix = target;
    o.staging_location = staging;
    o.copy = true;
    o.io = h.io;
    floe_maint_rewrite_path_result r;
    FT_OK(floe_maint_rewrite_table_path(&r, h.cat, "db.t", &o));
    FT_ASSERT(r.latest_version != NULL);
    FT_CHECK(strstr(h.t.meta_loc, r.latest_version) != NULL);
    FT_EQ_INT(r.rewritten_delete_file_paths_count, 0); /* the DELETED one is not opened */
    FT_CHECK(r.rewritten_manifest_file_paths_count >= 3);
    /* the file list: one "<from>,<to>" line per object, every target in the copy */
    char *list = ft_read_file(r.file_list_location, NULL);
    FT_ASSERT(list != NULL);
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        char *comma = strchr(line, ',');
        FT_ASSERT(comma != NULL);
        FT_CHECK(strncmp(comma + 1, target, strlen(target)) == 0);
    }
    free(list);
    snprintf(meta, sizeof meta, "%s/metadata/%s", target, r.latest_version);
    /* the original goes away */
    char *out = NULL;
    FT_OK(ft_run(&out, "rm -rf '%s/src'", h.dir));
    free(out);
    int64_t live = 0, nsnap = 0;
    check_copy(h.io, meta, target, &live, &nsnap);
    FT_EQ_INT(nsnap, 4); /* s2, s3, s4, s5: s1 expired */
    FT_EQ_INT(live, 4);  /* f1 (added by the expired s1), f2, f4, f5 */
    char f1[4400];
    snprintf(f1, sizeof f1, "%s%s", target, h.f1 + strlen(h.loc));
    FT_EQ_INT(floe_fileio_exists(h.io, f1), 1);
    /* the expired delete file keeps its entry, renamed, and is not copied */
    char gone[4400];
    snprintf(gone, sizeof gone, "%s%s", target, h.gone_delete + strlen(h.loc));
    FT_EQ_INT(floe_fileio_exists(h.io, gone), 0);
    /* staged objects were moved into the copy */
    FT_EQ_INT(floe_fileio_exists(h.io, ft_path(staging, "metadata")), 0);
    floe_maint_rewrite_path_result_free(&r);
    hist_free(&h);
}

static void test_incremental(void)
{
    hist h;
    FT_OK(build(&h, "incr"));
    char target[4200], staging[4200];
    snprintf(target, sizeof target, "%s/copy/t", h.dir);
    snprintf(staging, sizeof staging, "%s/st1", h.dir);
    floe_maint_rewrite_path_options o = FLOE_MAINT_REWRITE_PATH_OPTIONS_INIT;
    o.source_prefix = h.loc;
    o.target_prefix = target;
    o.staging_location = staging;
    o.io = h.io;
    floe_maint_rewrite_path_result r1, r2;
    FT_OK(floe_maint_rewrite_table_path(&r1, h.cat, "db.t", &o));
    FT_OK(fx_append(&h.t, "main", 1, NULL));
    snprintf(staging, sizeof staging, "%s/st2", h.dir);
    o.start_version = r1.latest_version;
    FT_OK(floe_maint_rewrite_table_path(&r2, h.cat, "db.t", &o));
    /* one new manifest and its list, one new version, one data file */
    FT_EQ_INT(r2.rewritten_manifest_file_paths_count, 1);
    size_t len = 0;
    char *list = ft_read_file(r2.file_list_location, &len);
    FT_ASSERT(list != NULL);
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += list[i] == '\n';
    FT_EQ_INT(lines, 4);
    free(list);
    floe_maint_rewrite_path_result_free(&r1);
    floe_maint_rewrite_path_result_free(&r2);
    hist_free(&h);
}

static void test_errors(void)
{
    hist h;
    FT_OK(build(&h, "errors"));
    floe_maint_rewrite_path_options o = FLOE_MAINT_REWRITE_PATH_OPTIONS_INIT;
    o.io = h.io;
    floe_maint_rewrite_path_result r;
    o.source_prefix = "";
    o.target_prefix = "/x";
    FT_CHECK(floe_maint_rewrite_table_path(&r, h.cat, "db.t", &o) == FLOE_EINVALID);
    FT_ERR_CONTAINS("Source prefix('') cannot be empty.");
    o.source_prefix = "/x";
    FT_CHECK(floe_maint_rewrite_table_path(&r, h.cat, "db.t", &o) == FLOE_EINVALID);
    FT_ERR_CONTAINS("Source prefix cannot be the same as target prefix (/x)");
    o.source_prefix = h.loc;
    o.target_prefix = "";
    FT_CHECK(floe_maint_rewrite_table_path(&r, h.cat, "db.t", &o) == FLOE_EINVALID);
    FT_ERR_CONTAINS("Target prefix('') cannot be empty.");
    o.target_prefix = "/x";
    o.start_version = "00042-nope.metadata.json";
    FT_CHECK(floe_maint_rewrite_table_path(&r, h.cat, "db.t", &o) == FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot find provided version file 00042-nope.metadata.json in metadata log.");
    o.start_version = NULL;
    o.source_prefix = "/not/the/table";
    o.staging_location = ft_path(h.dir, "st");
    FT_CHECK(floe_maint_rewrite_table_path(&r, h.cat, "db.t", &o) == FLOE_EINVALID);
    FT_ERR_CONTAINS("not under the source prefix /not/the/table");
    FT_CHECK(floe_maint_rewrite_table_path(&r, h.cat, "db.nope", &o) == FLOE_ENOTFOUND);
    hist_free(&h);
}

static const ft_case cases[] = {
    {"copy_reads_alone", test_copy_reads_alone},
    {"incremental", test_incremental},
    {"errors", test_errors},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
