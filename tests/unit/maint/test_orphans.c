/* SPDX-License-Identifier: Apache-2.0 */
/* maint/orphans: remove_orphan_files finds the leftovers of a failed commit
 * (I/O fault injection), stray files and crashed-write temporaries; never
 * removes recent files or anything reachable; treats s3 and s3a as equal;
 * handles authority conflicts per prefix_mismatch_mode; and gives the same
 * answer whether its sort runs stay in memory or spill. */
#include "fixture.h"
#include "maint/maint.h"

#include <sys/stat.h>
#include <unistd.h>

#define T0 1800000000000LL

typedef struct found {
    floe_vec paths; /* char* */
} found;

static int on_orphan(const char *loc, void *payload)
{
    found *f = payload;
    char **slot = floe__vec_push(&f->paths);
    *slot = floe__strdup(loc);
    return 0;
}

static bool has(const found *f, const char *needle)
{
    for (size_t i = 0; i < f->paths.len; i++)
        if (strstr(*(char **)floe__vec_at(&f->paths, i), needle))
            return true;
    return false;
}

static void found_free(found *f)
{
    for (size_t i = 0; i < f->paths.len; i++)
        floe__free(*(char **)floe__vec_at(&f->paths, i));
    floe__vec_free(&f->paths);
}

static void test_local_orphans(void)
{
    const char *dir = ft_tmp("local");
    mkdir(dir, 0755);
    char db[4096], loc[2048], p[4096];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    snprintf(loc, sizeof loc, "%.1900s/wh/db/t", dir);
    floe_catalog *cat;
    floe_fileio *local, *io;
    FT_OK(floe_catalog_open_sql(&cat, db, NULL));
    FT_OK(floe_fileio_local_new(&local));
    floe_fault_options fo = FLOE_FAULT_OPTIONS_INIT;
    FT_OK(floe__fileio_fault_new(&io, local, &fo));
    fx_table t;
    FT_OK(fx_create(&t, cat, io, "db.t", loc, T0));
    FT_OK(fx_append(&t, "main", 2, NULL));
    /* measure one append, then fail the last step of the next one: the
     * metadata file's commit. Data file, manifest and list stay behind. */
    floe__fileio_fault_set(io, &fo);
    FT_OK(fx_append(&t, "main", 1, NULL));
    long per_append = floe__fileio_fault_count(io);
    fo.fail_nth = per_append;
    floe__fileio_fault_set(io, &fo);
    FT_EQ_INT(fx_append(&t, "main", 1, NULL), FLOE_EIO);
    char *leftover_data = floe__strdup(t.last_path);
    fo.fail_nth = 0;
    floe__fileio_fault_set(io, &fo);
    FT_OK(fx_append(&t, "main", 1, NULL));
    char *live_before = fx_live(&t, fx_head(&t, "main"), 0);
    /* stray files and a crashed write's temporary */
    snprintf(p, sizeof p, "%s/data/stray.parquet", loc);
    FT_OK(ft_write_file(p, "x", 1));
    snprintf(p, sizeof p, "%s/metadata/stray.avro", loc);
    FT_OK(ft_write_file(p, "x", 1));
    /* Hadoop checksum sidecars (Spark on file: tables): of an orphan (goes with
     * it) and of a live file (stays); never counted as orphans themselves */
    char crc_orphan[4096], crc_live[4096];
    snprintf(crc_orphan, sizeof crc_orphan, "%s/data/.stray.parquet.crc", loc);
    FT_OK(ft_write_file(crc_orphan, "c", 1));
    const char *live_nl = strchr(live_before, '\n'), *live_slash = live_before;
    for (const char *q = live_before; q < live_nl; q++)
        if (*q == '/')
            live_slash = q;
    snprintf(crc_live, sizeof crc_live, "%.*s/.%.*s.crc", (int)(live_slash - live_before),
             live_before, (int)(live_nl - live_slash - 1), live_slash + 1);
    FT_OK(ft_write_file(crc_live, "c", 1));
    snprintf(p, sizeof p, "%s/data/.00009-x.parquet.floe-tmp-0a1b", loc);
    FT_OK(ft_write_file(p, "x", 1));

    /* defaults: only files older than 3 days go -> none */
    floe_maint_orphan_options o = FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    found f = {FLOE_VEC_INIT(char *)};
    o.on_orphan = on_orphan;
    o.payload = &f;
    floe_maint_orphan_result r;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 0);
    FT_CHECK(r.listed_files_count > 10);

    /* dry run with a threshold in the future: exactly the six leftovers */
    o.has_older_than = true;
    o.older_than_ms = floe__now_ms() + 60000;
    o.dry_run = true;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 6);
    FT_EQ_INT(f.paths.len, 6);
    FT_CHECK(has(&f, "stray.parquet") && has(&f, "stray.avro") && has(&f, ".floe-tmp-"));
    FT_CHECK(has(&f, leftover_data));
    FT_CHECK(has(&f, "/metadata/snap-") && has(&f, "-m0.avro"));
    FT_CHECK(access(leftover_data, F_OK) == 0); /* dry run */
    found_free(&f);
    f.paths = (floe_vec)FLOE_VEC_INIT(char *);

    /* for real, with tiny sort runs (spilling) */
    o.dry_run = false;
    o.sort_run_bytes = 512;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 6);
    FT_CHECK(access(leftover_data, F_OK) != 0);
    FT_CHECK(access(p, F_OK) != 0);
    FT_CHECK(access(crc_orphan, F_OK) != 0); /* with its file */
    FT_CHECK(access(crc_live, F_OK) == 0);   /* its file is live */
    /* the table is intact: every live file and every metadata file is there */
    FT_OK(fx_reload(&t));
    char *live_after = fx_live(&t, fx_head(&t, "main"), 0);
    FT_EQ_STR(live_after, live_before);
    for (char *line = live_after, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        FT_CHECK(access(line, F_OK) == 0);
    }
    for (size_t i = 0; i < t.m->n_metadata_log; i++)
        FT_CHECK(access(t.m->metadata_log[i].metadata_file, F_OK) == 0);
    /* nothing left */
    found_free(&f);
    f.paths = (floe_vec)FLOE_VEC_INIT(char *);
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 0);
    found_free(&f);
    floe__free(live_before);
    floe__free(live_after);
    floe__free(leftover_data);
    fx_free(&t);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

/* ------------------------------------------------------------ s3 vs s3a */

/* A FileIO over the memory store that treats every s3/s3a/s3n bucket as
 * the same place and lists with the prefix's own scheme and authority — as
 * a Hadoop s3a listing of a table whose metadata says s3:// would. */
typedef struct s3ish {
    floe_fileio *mem;
} s3ish;

static char *to_mem(const char *uri)
{
    size_t off = floe__location_path_offset(uri);
    return floe__sprintf("mem://x%s", uri + off);
}

static int s_open(floe_fileio *io, const char *uri, floe_input **out)
{
    char *m = to_mem(uri);
    int rc = floe_fileio_open_input(out, ((s3ish *)io->impl)->mem, m);
    floe__free(m);
    return rc;
}

static int s_create(floe_fileio *io, const char *uri, floe_output **out)
{
    char *m = to_mem(uri);
    int rc = floe_fileio_create_output(out, ((s3ish *)io->impl)->mem, m);
    floe__free(m);
    return rc;
}

static int s_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *m = to_mem(uris[i]);
        int rc = floe_fileio_remove(((s3ish *)io->impl)->mem, (const char *const *)&m, 1);
        floe__free(m);
        FLOE_TRY(rc);
    }
    return 0;
}

typedef struct relist {
    const char *head;
    size_t head_len;
    int (*cb)(const floe_file_info *info, void *payload);
    void *payload;
} relist;

static int s_list_cb(const floe_file_info *info, void *payload)
{
    relist *r = payload;
    char *u = floe__sprintf("%.*s%s", (int)r->head_len, r->head, info->uri + strlen("mem://x"));
    floe_file_info i2 = {u, info->size, info->mtime_ms};
    int rc = r->cb(&i2, r->payload);
    floe__free(u);
    return rc;
}

static int s_list(floe_fileio *io, const char *prefix,
                  int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    char *m = to_mem(prefix);
    relist r = {prefix, floe__location_path_offset(prefix), cb, payload};
    int rc = floe_fileio_list(((s3ish *)io->impl)->mem, m, s_list_cb, &r);
    floe__free(m);
    return rc;
}

static int s_stat(floe_fileio *io, const char *uri, floe_file_info *out)
{
    char *m = to_mem(uri);
    int rc = floe_fileio_stat(out, ((s3ish *)io->impl)->mem, m);
    floe__free(m);
    out->uri = uri;
    return rc;
}

static void s_free(floe_fileio *io)
{
    floe_fileio_free(((s3ish *)io->impl)->mem);
    floe__free(io->impl);
    floe__free(io);
}

static const floe_fileio_ops s3ish_ops = {
    FLOE_FILEIO_OPS_VERSION, s_open, s_create, s_remove, s_list, s_stat, s_free};

static void test_s3_schemes(void)
{
    const char *dir = ft_tmp("s3");
    mkdir(dir, 0755);
    char db[4096];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog *cat;
    FT_OK(floe_catalog_open_sql(&cat, db, NULL));
    floe_fileio *io = floe__calloc(1, sizeof *io);
    s3ish *impl = floe__calloc(1, sizeof *impl);
    FT_OK(floe_fileio_memory_new(&impl->mem));
    io->ops = &s3ish_ops;
    io->impl = impl;
    fx_table t;
    FT_OK(fx_create(&t, cat, io, "db.t", "s3://b/wh/t", T0));
    FT_OK(fx_append(&t, "main", 2, NULL));
    FT_OK(fx_pos_delete(&t, "main", NULL));
    FT_OK(floe__io_write_new(io, "s3://b/wh/t/data/stray.parquet", "x", 1));

    floe_maint_orphan_options o = FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    found f = {FLOE_VEC_INIT(char *)};
    o.on_orphan = on_orphan;
    o.payload = &f;
    o.io = io;
    o.has_older_than = true;
    o.older_than_ms = floe__now_ms() + 60000;
    o.dry_run = true;
    floe_maint_orphan_result r;
    /* listed as s3a://b/..., referenced as s3://b/...: equal by default */
    o.location = "s3a://b/wh/t";
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 1);
    FT_CHECK(has(&f, "s3a://b/wh/t/data/stray.parquet"));
    /* another authority: a conflict, an error by default */
    o.location = "s3a://other/wh/t";
    FT_EQ_INT(floe_maint_remove_orphan_files(&r, cat, "db.t", &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("Unable to determine whether certain files are orphan");
    FT_ERR_CONTAINS("s3://other vs s3://b");
    o.prefix_mismatch_mode = FLOE_MAINT_PREFIX_MISMATCH_IGNORE;
    found_free(&f);
    f.paths = (floe_vec)FLOE_VEC_INIT(char *);
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 1);
    o.prefix_mismatch_mode = FLOE_MAINT_PREFIX_MISMATCH_DELETE;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_CHECK(r.orphan_files_count > 5); /* everything, as asked (dry run) */
    o.prefix_mismatch_mode = FLOE_MAINT_PREFIX_MISMATCH_ERROR;
    o.equal_authorities = "other=b";
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 1);
    o.equal_authorities = "garbage";
    FT_EQ_INT(floe_maint_remove_orphan_files(&r, cat, "db.t", &o), FLOE_EINVALID);
    /* real deletion through s3a removes the object s3:// names */
    o.equal_authorities = NULL;
    o.location = "s3a://b/wh/t";
    o.dry_run = false;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 1);
    FT_EQ_INT(floe_fileio_exists(io, "s3://b/wh/t/data/stray.parquet"), 0);
    found_free(&f);
    fx_free(&t);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

/* ------------------------------------------------------------ spellings */

/* A catalog and a local FileIO in a fresh directory; *loc is the table
 * location <dir>/wh/<sub>. */
static int local_world(const char *name, const char *sub, char *loc, size_t loclen,
                       floe_catalog **cat, floe_fileio **io)
{
    const char *dir = ft_tmp(name);
    mkdir(dir, 0755);
    char db[4096];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    snprintf(loc, loclen, "%.1900s/wh/%s", dir, sub);
    FLOE_TRY(floe_catalog_open_sql(cat, db, NULL));
    return floe_fileio_local_new(io);
}

/* Options of a dry run over every file (a threshold in the future). */
static void dry_run_all(floe_maint_orphan_options *o, found *f)
{
    *o = (floe_maint_orphan_options)FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    o->on_orphan = on_orphan;
    o->payload = f;
    o->has_older_than = true;
    o->older_than_ms = floe__now_ms() + 60000;
    o->dry_run = true;
}

/* Commit an append whose manifest names existing files by these exact
 * strings (as another writer may spell them). */
static int append_spelled(fx_table *t, const char *const *paths, size_t n)
{
    t->clock += 1000;
    floe_arena *a = floe__arena_new(0);
    int64_t snap, seq = t->m->last_sequence_number + 1, parent = fx_head(t, "main");
    floe__snapshot_id(&snap);
    floe_manifest_entry *es = floe__arena_calloc(a, n, sizeof *es);
    for (size_t i = 0; i < n; i++) {
        es[i].status = FLOE_ENTRY_ADDED;
        es[i].has_snapshot_id = true;
        es[i].snapshot_id = snap;
        es[i].sequence_number = es[i].file_sequence_number = FLOE_SEQ_UNASSIGNED;
        es[i].data_file.file_path = (char *)paths[i];
        es[i].data_file.file_size_in_bytes = 1;
        es[i].data_file.file_format = "PARQUET";
        es[i].data_file.record_count = 1;
        es[i].data_file.block_size_in_bytes = -1;
    }
    floe_manifest_file mf;
    int rc = fx_write_manifest(t, FLOE_MANIFEST_DATA, snap, FLOE_SEQ_UNASSIGNED, es, n, &mf, a);
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list *list = NULL;
    if (rc == 0)
        rc = fx_manifests(t, parent, &bytes, &list);
    if (rc == 0)
        rc = fx_commit_snapshot(t, "main", "append", snap, seq, parent, list ? list->entries : NULL,
                                list ? list->nentries : 0, &mf, 1, a);
    floe_manifest_list_free(list);
    floe__buf_free(&bytes);
    floe__arena_free(a);
    return rc;
}

/* A live file whose metadata spelling differs from the listing's by
 * percent-encoding, "//", "./" or "x/.." is never an orphan; the stray
 * next to them still is, reported as listed. */
static void test_spellings(void)
{
    char loc[2048], p[4096];
    floe_catalog *cat;
    floe_fileio *io;
    FT_OK(local_world("spell", "db/t", loc, sizeof loc, &cat, &io));
    fx_table t;
    FT_OK(fx_create(&t, cat, io, "db.t", loc, T0));
    FT_OK(fx_append(&t, "main", 1, NULL));
    static const char *const names[] = {"a b.parquet", "n1.parquet",  "n2.parquet",
                                        "n3.parquet",  "c%d.parquet", "stray.parquet"};
    for (size_t i = 0; i < FT_N(names); i++) {
        snprintf(p, sizeof p, "%s/data/%s", loc, names[i]);
        FT_OK(ft_write_file(p, "x", 1));
    }
    char s1[4096], s2[4096], s3[4096], s4[4096], s5[4096];
    snprintf(s1, sizeof s1, "file://%s/data/a%%20b.parquet", loc); /* percent-encoded */
    snprintf(s2, sizeof s2, "%s/data//n1.parquet", loc);           /* double slash */
    snprintf(s3, sizeof s3, "%s/./data/n2.parquet", loc);          /* dot segment */
    snprintf(s4, sizeof s4, "file:%s/data/x/../n3.parquet", loc);  /* dot-dot segment */
    snprintf(s5, sizeof s5, "%s/data/c%%25d.parquet", loc);        /* an encoded percent */
    const char *const spelled[] = {s1, s2, s3, s4, s5};
    FT_OK(append_spelled(&t, spelled, FT_N(spelled)));

    floe_maint_orphan_options o;
    found f = {FLOE_VEC_INIT(char *)};
    dry_run_all(&o, &f);
    floe_maint_orphan_result r;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 1);
    snprintf(p, sizeof p, "%s/data/stray.parquet", loc);
    FT_CHECK(f.paths.len == 1 && strcmp(*(char **)floe__vec_at(&f.paths, 0), p) == 0);
    for (size_t i = 0; i < f.paths.len; i++)
        if (!strstr(*(char **)floe__vec_at(&f.paths, i), "stray"))
            ft_fail(__FILE__, __LINE__, "live file taken for an orphan: %s",
                    *(char **)floe__vec_at(&f.paths, i));
    /* and for real: only the stray goes */
    o.dry_run = false;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "db.t", &o));
    FT_EQ_INT(r.orphan_files_count, 1);
    FT_CHECK(access(p, F_OK) != 0);
    for (size_t i = 0; i + 1 < FT_N(names); i++) {
        snprintf(p, sizeof p, "%s/data/%s", loc, names[i]);
        FT_CHECK(access(p, F_OK) == 0);
    }
    found_free(&f);
    fx_free(&t);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

/* ------------------------------------------------------------ two tables, one location */

/* Two tables registered at one location (two catalogs sharing a
 * warehouse): neither sweep may list the other's files; both stop, naming
 * the other table's metadata file, and delete nothing. A metadata file of
 * the table itself that no longer is in its log (same table-uuid) is still
 * an ordinary orphan. */
static void test_shared_location(void)
{
    char loc[2048], p[4096];
    floe_catalog *cat;
    floe_fileio *io;
    FT_OK(local_world("shared", "shop/orders", loc, sizeof loc, &cat, &io));
    fx_table a, b;
    FT_OK(fx_create(&a, cat, io, "ice.orders", loc, T0));
    FT_OK(fx_append(&a, "main", 1, NULL));
    /* a stale copy of a's own metadata (same table-uuid) */
    floe_buf text = FLOE_BUF_INIT;
    FT_OK(floe__io_read_all(io, a.meta_loc, (size_t)1 << 20, &text));
    snprintf(p, sizeof p, "%s/metadata/00099-stale.metadata.json", loc);
    FT_OK(ft_write_file(p, text.ptr, text.len));
    floe__buf_free(&text);

    floe_maint_orphan_options o;
    found f = {FLOE_VEC_INIT(char *)};
    dry_run_all(&o, &f);
    floe_maint_orphan_result r;
    FT_OK(floe_maint_remove_orphan_files(&r, cat, "ice.orders", &o));
    FT_EQ_INT(r.orphan_files_count, 1);
    FT_CHECK(has(&f, "00099-stale.metadata.json"));
    found_free(&f);
    f.paths = (floe_vec)FLOE_VEC_INIT(char *);

    FT_OK(fx_create(&b, cat, io, "local.orders", loc, T0));
    FT_OK(fx_append(&b, "main", 1, NULL));
    char *live_a = fx_live(&a, fx_head(&a, "main"), 0);
    char *live_b = fx_live(&b, fx_head(&b, "main"), 0);
    o.dry_run = false; /* would delete: must stop first */
    FT_EQ_INT(floe_maint_remove_orphan_files(&r, cat, "local.orders", &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("is the metadata of another table");
    FT_ERR_CONTAINS(a.m->table_uuid);
    FT_EQ_INT(r.orphan_files_count, 0);
    FT_EQ_INT(floe_maint_remove_orphan_files(&r, cat, "ice.orders", &o), FLOE_EINVALID);
    FT_ERR_CONTAINS(b.m->table_uuid);
    FT_EQ_INT((long)f.paths.len, 0);
    /* every file of both tables is still there */
    for (int k = 0; k < 2; k++) {
        char *live = k ? live_b : live_a;
        for (char *line = live, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
            *nl = '\0';
            FT_CHECK(access(line, F_OK) == 0);
        }
    }
    FT_CHECK(access(a.meta_loc, F_OK) == 0 && access(b.meta_loc, F_OK) == 0);
    floe__free(live_a);
    floe__free(live_b);
    found_free(&f);
    fx_free(&a);
    fx_free(&b);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

/* ------------------------------------------------------------ xsort */

static int cmp_path(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    int c = strcmp(x + floe__location_path_offset(x), y + floe__location_path_offset(y));
    return c ? c : strcmp(x, y);
}

static void test_xsort_spills(void)
{
    enum { N = 5000 };
    char **want = floe__calloc(N, sizeof *want);
    uint64_t st = 7;
    for (int run = 0; run < 2; run++) {
        floe_xsort *s;
        FT_OK(floe__xsort_new(&s, run ? 1024 : 0));
        for (int i = 0; i < N; i++) {
            st = st * 6364136223846793005ULL + 1;
            const char *sch[] = {"s3://b", "s3a://b", "", "file:"};
            if (!run)
                want[i] = floe__sprintf("%s/t/data/%08x.parquet", sch[(st >> 40) % 4],
                                        (unsigned)(st >> 32));
            FT_OK(floe__xsort_add(s, want[i], i));
        }
        if (!run)
            qsort(want, N, sizeof *want, cmp_path);
        const char *loc;
        int64_t aux;
        int i = 0;
        while (floe__xsort_next(s, &loc, &aux) == 0) {
            FT_ASSERT(i < N);
            FT_EQ_STR(loc, want[i]);
            i++;
        }
        FT_EQ_INT(i, N);
        FT_EQ_INT(floe__xsort_runs(s) > 10, run == 1);
        floe__xsort_free(s);
    }
    for (int i = 0; i < N; i++)
        floe__free(want[i]);
    floe__free(want);
}

static void test_path_offset(void)
{
    FT_EQ_INT(floe__location_path_offset("s3://bucket/a/b"), 11);
    FT_EQ_INT(floe__location_path_offset("/a/b"), 0);
    FT_EQ_INT(floe__location_path_offset("file:/a"), 5);
    FT_EQ_INT(floe__location_path_offset("file:///a"), 7);
    FT_EQ_INT(floe__location_path_offset("s3a://b"), 7);
}

static void test_oom(void)
{
    /* orphan sweep and inventory: every allocation failure is FLOE_ENOMEM */
    const char *dir = ft_tmp("oom");
    mkdir(dir, 0755);
    char db[4096];
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    floe_catalog *cat;
    floe_fileio *io;
    FT_OK(floe_catalog_open_sql(&cat, db, NULL));
    FT_OK(floe_fileio_memory_new(&io));
    fx_table t;
    FT_OK(fx_create(&t, cat, io, "db.t", "mem://wh/t", T0));
    FT_OK(fx_append(&t, "main", 2, NULL));
    FT_OK(fx_pos_delete(&t, "main", NULL));
    FT_OK(floe__io_write_new(io, "mem://wh/t/data/stray.parquet", "x", 1));
    floe_maint_orphan_options o = FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    o.io = io;
    o.dry_run = true;
    o.has_older_than = true;
    o.older_than_ms = floe__now_ms() + 60000;
    o.sort_run_bytes = 0; /* spilling is covered above; here every allocation */
    long n;
    for (n = 1; n < 100000; n++) {
        floe_maint_orphan_result r;
        floe__alloc_fail_at(n);
        int rc = floe_maint_remove_orphan_files(&r, cat, "db.t", &o);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_EQ_INT(r.orphan_files_count, 1);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "orphans, allocation %ld: %s", n, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 10);
    floe_maint_inventory_options io2 = FLOE_MAINT_INVENTORY_OPTIONS_INIT;
    io2.io = io;
    for (n = 1; n < 100000; n++) {
        floe__alloc_fail_at(n);
        int rc = floe_maint_inventory(NULL, cat, "db.t", &io2, NULL, NULL);
        floe__alloc_fail_at(0);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "inventory, allocation %ld: %s", n, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 10);
    floe_maint_retention_options ro = FLOE_MAINT_RETENTION_OPTIONS_INIT;
    ro.now_ms = t.clock + 1;
    ro.io = io;
    for (n = 1; n < 100000; n++) {
        floe_maint_retention_report *rep = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_maint_retention_report_compute(&rep, cat, "db.t", &ro);
        floe__alloc_fail_at(0);
        floe_maint_retention_report_free(rep);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "retention, allocation %ld: %s", n, ft_floe_err());
            break;
        }
    }
    FT_CHECK(n > 10);
    fx_free(&t);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

static const ft_case cases[] = {
    {"oom", test_oom},
    {"local_orphans", test_local_orphans},
    {"s3_schemes", test_s3_schemes},
    {"spellings", test_spellings},
    {"shared_location", test_shared_location},
    {"xsort_spills", test_xsort_spills},
    {"path_offset", test_path_offset},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
