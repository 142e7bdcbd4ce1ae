/* SPDX-License-Identifier: Apache-2.0 */
/* meta: files, entries, manifests, partitions and the all_* tables over the
 * real tables in ../shared/fixtures (PROVENANCE.md gives the expected
 * snapshots, row counts and delete files), read through a FileIO with
 * io.location-map. */
#include "fixture.h"
#include "floe/arrow.h"
#include "floe/io.h"
#include "io/io.h"
#include "manifest/manifest.h"
#include "sql/vtab.h"

#include <errno.h>
#include <sys/stat.h>

typedef struct fx {
    floe_table_metadata *m;
    floe_fileio *io;
    char dir[1024];
} fx;

static bool fx_open(fx *f, const char *name, const char *metadata_file, const char *location)
{
    memset(f, 0, sizeof *f);
    const char *sh = ft_shared_dir();
    if (!sh)
        return false;
    snprintf(f->dir, sizeof f->dir, "%s/fixtures/%s", sh, name);
    char path[2048], map[2200];
    snprintf(path, sizeof path, "%s/metadata/%s", f->dir, metadata_file);
    if (floe__metadata_read_file(&f->m, path) < 0)
        return ft_fail(__FILE__, __LINE__, "%s: %s", path, ft_floe_err());
    snprintf(map, sizeof map, "%s=%s", location, f->dir);
    floe_props conf = FLOE_PROPS_INIT;
    floe__props_set(&conf, "io.location-map", map);
    int rc = floe_fileio_open(&f->io, "file", &conf);
    floe__props_free(&conf);
    if (rc < 0)
        return ft_fail(__FILE__, __LINE__, "io: %s", ft_floe_err());
    return true;
}

static void fx_close(fx *f)
{
    floe_fileio_free(f->io);
    floe__metadata_free(f->m);
}

/* Rows of table `name` at `snapshot` (0: current) as text; NULL on error. */
static char *rows_of(fx *f, const char *name, int64_t snapshot, size_t *n)
{
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = f->m;
    o.io = f->io;
    o.has_snapshot_id = snapshot != 0;
    o.snapshot_id = snapshot;
    floe_rowsource *rs;
    *n = 0;
    if (floe__meta_open(&rs, name, &o) < 0) {
        ft_fail(__FILE__, __LINE__, "open %s: %s", name, ft_floe_err());
        return NULL;
    }
    char *rows = drain(rs, NULL, 0, n);
    if (!rows)
        ft_fail(__FILE__, __LINE__, "drain %s: %s", name, ft_floe_err());
    floe__rs_free(rs);
    return rows;
}

static size_t count_lines_with(const char *rows, const char *needle)
{
    size_t n = 0;
    for (const char *p = rows; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *line = floe__strndup(p, len);
        if (line && strstr(line, needle))
            n++;
        floe__free(line);
        p = e ? e + 1 : p + len;
    }
    return n;
}

/* Single-value query through the vtab: the first column of the first row. */
static char *sql1(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        ft_fail(__FILE__, __LINE__, "%s: %s", sql, sqlite3_errmsg(db));
        return NULL;
    }
    char *out = NULL;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        out = floe__strdup(t ? (const char *)t : "NULL");
    } else if (rc != SQLITE_DONE) {
        ft_fail(__FILE__, __LINE__, "%s: %s", sql, sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return out;
}

#define BUNNIES_LOC "s3a://hyperparam-iceberg/spark/bunnies"
#define B1 7505300640432048841LL /* append, 21 rows */
#define B2 469881615898633426LL  /* position delete of 1 row */
#define B3 2701171901096418979LL /* overwrite: data file replaced by a 20-row file */

static void test_bunnies_files_per_snapshot(void)
{
    fx f;
    if (!fx_open(&f, "spark_bunnies", "v5.metadata.json", BUNNIES_LOC))
        return;
    size_t n;
    char *r = rows_of(&f, "files", B1, &n);
    FT_EQ_INT(n, 1);
    FT_CHECK(r && strncmp(r, "0|" BUNNIES_LOC "/data/", 2 + strlen(BUNNIES_LOC) + 6) == 0);
    FT_CHECK(r && strstr(r, "|PARQUET|0|21|"));
    floe__free(r);
    r = rows_of(&f, "files", B2, &n);
    FT_EQ_INT(n, 2);
    FT_EQ_INT(count_lines_with(r, "-deletes.parquet|PARQUET|0|1|"), 1);
    floe__free(r);
    r = rows_of(&f, "data_files", B3, &n);
    FT_EQ_INT(n, 1);
    FT_CHECK(r && strstr(r, "|PARQUET|0|20|"));
    floe__free(r);
    r = rows_of(&f, "delete_files", 0, &n); /* current = B3: the delete file stays live */
    FT_EQ_INT(n, 1);
    FT_CHECK(r && strncmp(r, "1|", 2) == 0);
    floe__free(r);
    /* column list: unpartitioned, so no partition column */
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = f.m;
    o.io = f.io;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "files", &o));
    char *cols = column_names(rs);
    FT_EQ_STR(cols, "content,file_path,file_format,spec_id,record_count,file_size_in_bytes,"
                    "column_sizes,value_counts,null_value_counts,nan_value_counts,lower_bounds,"
                    "upper_bounds,key_metadata,split_offsets,equality_ids,sort_order_id,"
                    "first_row_id,referenced_data_file,content_offset,content_size_in_bytes,"
                    "readable_metrics");
    floe__free(cols);
    floe__rs_free(rs);
    fx_close(&f);
}

static void test_bunnies_entries_deleted(void)
{
    fx f;
    if (!fx_open(&f, "spark_bunnies", "v5.metadata.json", BUNNIES_LOC))
        return;
    size_t n;
    char *r = rows_of(&f, "entries", 0, &n);
    FT_ASSERT(r);
    /* the overwrite's manifest carries the replaced 21-row file as DELETED */
    FT_EQ_INT(count_lines_with(r, "2|2701171901096418979|1|1|{\"content\":0,"), 1);
    FT_EQ_INT(count_lines_with(r, "\"record_count\":21,"), 1);
    FT_EQ_INT(count_lines_with(r, "1|2701171901096418979|3|3|{\"content\":0,"), 1);
    FT_EQ_INT(n, 3); /* DELETED old data, ADDED new data, the live delete file */
    floe__free(r);
    r = rows_of(&f, "entries", B2, &n);
    FT_EQ_INT(count_lines_with(r, "\n2|"), 0);
    FT_CHECK(r && strncmp(r, "2|", 2) != 0);
    floe__free(r);
    /* all_entries: every entry of every manifest once */
    r = rows_of(&f, "all_entries", 0, &n);
    FT_EQ_INT(n, 4);
    floe__free(r);
    fx_close(&f);
}

static long file_size(const char *dir, const char *loc_path)
{
    const char *p = strstr(loc_path, "/data/");
    char path[2048];
    snprintf(path, sizeof path, "%s%s", dir, p ? p : "");
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void test_bunnies_all_files_and_retained(void)
{
    fx f;
    if (!fx_open(&f, "spark_bunnies", "v5.metadata.json", BUNNIES_LOC))
        return;
    size_t n;
    char *r = rows_of(&f, "all_data_files", 0, &n);
    FT_EQ_INT(n, 2); /* the 21-row file (only in B1, B2) and the 20-row one */
    floe__free(r);
    r = rows_of(&f, "all_files", 0, &n);
    FT_EQ_INT(n, 3);
    floe__free(r);
    r = rows_of(&f, "all_delete_files", 0, &n);
    FT_EQ_INT(n, 1);
    floe__free(r);

    /* retained bytes = the old data file's size, checked against the disk */
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = f.m;
    o.io = f.io;
    int64_t retained = -1;
    FT_OK(floe__meta_retained_bytes(&o, &retained));
    r = rows_of(&f, "data_files", B1, &n);
    FT_ASSERT(r && n == 1);
    char *path = strchr(r, '|') + 1;
    *strchr(path, '|') = 0;
    FT_EQ_INT(retained, file_size(f.dir, path));
    FT_CHECK(retained > 0);
    floe__free(r);

    /* the same through SQL, as the seed writes it */
    sqlite3 *db;
    floe_vtab_registry *reg;
    FT_ASSERT(sqlite3_open(":memory:", &db) == SQLITE_OK);
    FT_OK(floe__vtab_register(db, &reg));
    static const char *const tables[] = {"files",         "all_data_files", "entries",  "manifests",
                                         "all_manifests", "partitions",     "snapshots"};
    for (size_t i = 0; i < FT_N(tables); i++) {
        floe_rowsource *rs;
        FT_OK(floe__meta_open(&rs, tables[i], &o));
        FT_OK(floe__vtab_create(reg, NULL, tables[i], rs));
    }
    char *v = sql1(db, "SELECT (SELECT sum(file_size_in_bytes) FROM all_data_files) - "
                       "(SELECT sum(file_size_in_bytes) FROM files WHERE content = 0)");
    char want[32];
    snprintf(want, sizeof want, "%lld", (long long)retained);
    FT_EQ_STR(v, want);
    floe__free(v);
    v = sql1(db, "SELECT count(*) FROM entries WHERE status = 2 AND "
                 "json_extract(data_file, '$.record_count') = 21");
    FT_EQ_STR(v, "1");
    floe__free(v);
    v = sql1(db, "SELECT json_extract(readable_metrics, '$.\"Breed Name\".value_count') FROM "
                 "files WHERE content = 0");
    FT_EQ_STR(v, "20");
    floe__free(v);
    /* the overwrite wrote two data manifests (added, deleted); the delete
     * manifest of B2 is carried over */
    v = sql1(db, "SELECT count(*) || '/' || sum(added_data_files_count) || '/' || "
                 "sum(deleted_data_files_count) || '/' || sum(added_delete_files_count) || '/' "
                 "|| count(DISTINCT added_snapshot_id) FROM manifests");
    FT_EQ_STR(v, "3/1/1/1/2");
    floe__free(v);
    v = sql1(db, "SELECT count(DISTINCT reference_snapshot_id) FROM all_manifests");
    FT_EQ_STR(v, "3");
    floe__free(v);
    v = sql1(db, "SELECT record_count || '/' || file_count || '/' || position_delete_file_count "
                 "|| '/' || last_updated_snapshot_id FROM partitions");
    FT_EQ_STR(v, "20/1/1/2701171901096418979");
    floe__free(v);
    sqlite3_close(db);
    fx_close(&f);
}

#define DV_LOC "s3a://warehouse/deletion_vectors"
#define DV_HEAD 7777310120628922486LL
#define DV_FIRST_DELETE 3380748922981262035LL

static void test_deletion_vectors(void)
{
    fx f;
    if (!fx_open(&f, "trino_deletion_vectors_v3",
                 "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json", DV_LOC))
        return;
    size_t n;
    /* head: 2 data files and 2 DVs (two blobs of one Puffin file) */
    char *r = rows_of(&f, "data_files", 0, &n);
    FT_EQ_INT(n, 2);
    floe__free(r);
    r = rows_of(&f, "delete_files", 0, &n);
    FT_EQ_INT(n, 2);
    FT_EQ_INT(count_lines_with(r, ".puffin|PUFFIN|"), 2);
    floe__free(r);
    /* the replaced DV shows as DELETED in the head snapshot's entries */
    r = rows_of(&f, "entries", 0, &n);
    FT_ASSERT(r);
    FT_EQ_INT(count_lines_with(r, "2|7777310120628922486|"), 1);
    FT_EQ_INT(count_lines_with(r, "{\"content\":1,"), 3);
    floe__free(r);
    /* after the first delete: 1 data file, 1 DV of cardinality 3 */
    r = rows_of(&f, "files", DV_FIRST_DELETE, &n);
    FT_EQ_INT(n, 2);
    FT_EQ_INT(count_lines_with(r, "|PUFFIN|0|3|"), 1);
    FT_EQ_INT(count_lines_with(r, "|PARQUET|0|8|"), 1);
    floe__free(r);
    /* union over snapshots */
    r = rows_of(&f, "all_data_files", 0, &n);
    FT_EQ_INT(n, 2);
    floe__free(r);
    r = rows_of(&f, "all_delete_files", 0, &n);
    FT_EQ_INT(n, 3); /* the first DV and both blobs of the second file */
    floe__free(r);
    /* the empty CREATE snapshot has no files */
    r = rows_of(&f, "files", 4848311183447800628LL, &n);
    FT_EQ_INT(n, 0);
    floe__free(r);
    /* partitions (unpartitioned: one row, no partition/spec_id columns) */
    r = rows_of(&f, "partitions", 0, &n);
    FT_EQ_INT(n, 1);
    FT_CHECK(r && strncmp(r, "16|2|", 5) == 0);
    FT_CHECK(r && strstr(r, "|8|2|0|0|"));
    FT_CHECK(r && strstr(r, "|7777310120628922486\n"));
    floe__free(r);
    /* v3 columns */
    r = rows_of(&f, "delete_files", 0, &n);
    FT_CHECK(r && strstr(r, "|" DV_LOC "/data/"));
    floe__free(r);
    fx_close(&f);
}

#define RENAME_LOC "s3a://hyperparam-iceberg/spark/rename_column"

static void test_partitioned(void)
{
    fx f;
    if (!fx_open(&f, "spark_rename_column", "v3.metadata.json", RENAME_LOC))
        return;
    size_t n;
    char *r = rows_of(&f, "files", 0, &n);
    FT_ASSERT(r);
    /* bucket[4](id): ids 1,2 -> 0; 4 -> 2; 3 -> 3 (with the NULL date) */
    FT_EQ_INT(count_lines_with(r, "|{\"id_bucket\":3,\"date\":null}|"), 1);
    FT_EQ_INT(count_lines_with(r, "|{\"id_bucket\":2,\"date\":\"2022-01-02\"}|"), 1);
    FT_EQ_INT(count_lines_with(r, "|{\"id_bucket\":0,\"date\":\"2022-01-01\"}|"), n - 2);
    floe__free(r);
    r = rows_of(&f, "partitions", 0, &n);
    FT_EQ_INT(n, 3);
    FT_EQ_INT(count_lines_with(r, "{\"id_bucket\":0,\"date\":\"2022-01-01\"}|0|2|"), 1);
    floe__free(r);
    r = rows_of(&f, "manifests", 0, &n);
    FT_EQ_INT(n, 1);
    /* partition summaries: human strings of the bounds */
    FT_CHECK(r && strstr(r, "[{\"contains_null\":false,\"contains_nan\":false,\"lower_bound\":"
                            "\"0\",\"upper_bound\":\"3\"},{\"contains_null\":true,"));
    FT_CHECK(r && strstr(r, "\"lower_bound\":\"2022-01-01\",\"upper_bound\":\"2022-01-02\"}]"));
    floe__free(r);
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = f.m;
    o.io = f.io;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "partitions", &o));
    char *cols = column_names(rs);
    FT_EQ_STR(cols, "partition,spec_id,record_count,file_count,total_data_file_size_in_bytes,"
                    "position_delete_record_count,position_delete_file_count,"
                    "equality_delete_record_count,equality_delete_file_count,last_updated_at,"
                    "last_updated_snapshot_id");
    floe__free(cols);
    floe__rs_free(rs);
    FT_OK(floe__meta_open(&rs, "all_manifests", &o));
    cols = column_names(rs);
    FT_EQ_STR(cols, "content,path,length,partition_spec_id,added_snapshot_id,"
                    "added_data_files_count,existing_data_files_count,deleted_data_files_count,"
                    "added_delete_files_count,existing_delete_files_count,"
                    "deleted_delete_files_count,partition_summaries,reference_snapshot_id");
    floe__free(cols);
    floe__rs_free(rs);
    FT_OK(floe__meta_open(&rs, "entries", &o));
    cols = column_names(rs);
    FT_EQ_STR(cols, "status,snapshot_id,sequence_number,file_sequence_number,data_file,"
                    "readable_metrics");
    floe__free(cols);
    floe__rs_free(rs);
    FT_OK(floe__meta_open(&rs, "all_data_files", &o));
    cols = column_names(rs);
    FT_CHECK(strncmp(cols, "content,file_path,file_format,spec_id,partition,record_count,", 61) ==
             0);
    floe__free(cols);
    floe__rs_free(rs);
    fx_close(&f);
}

#define EVOL_LOC "s3a://warehouse/partition_evolution"

/* Spec evolution: partitions keyed by the union of both specs' fields. */
static void test_partition_evolution(void)
{
    fx f;
    if (!fx_open(&f, "trino_partition_evolution",
                 "00005-218c3743-5886-48b9-88d6-86c202862e0f.metadata.json", EVOL_LOC))
        return;
    size_t n;
    char *r = rows_of(&f, "partitions", 0, &n);
    FT_EQ_INT(n, 7);
    FT_EQ_INT(count_lines_with(r, "{\"c1\":null,\"c2\":null,\"c3\":2.0}|1|1|1|"), 1);
    FT_EQ_INT(count_lines_with(r, "{\"c1\":1,\"c2\":\"2025-03-02\",\"c3\":null}|0|1|1|"), 1);
    FT_EQ_INT(count_lines_with(r, "|0|0|0|0|"), 7);
    floe__free(r);
    /* the older snapshot: 6 files, all spec 0 */
    r = rows_of(&f, "partitions", 6593870062034330780LL, &n);
    FT_EQ_INT(n, 6);
    FT_EQ_INT(count_lines_with(r, "\"c3\":null}|0|1|1|"), 6);
    floe__free(r);
    r = rows_of(&f, "data_files", 0, &n);
    FT_EQ_INT(n, 7);
    FT_EQ_INT(count_lines_with(r, "|PARQUET|1|{\"c1\":null,\"c2\":null,\"c3\":2.0}|1|"), 1);
    floe__free(r);
    r = rows_of(&f, "manifests", 0, &n);
    FT_EQ_INT(n, 2);
    FT_EQ_INT(count_lines_with(r, "\"lower_bound\":\"2.0\",\"upper_bound\":\"2.0\""), 1);
    floe__free(r);
    fx_close(&f);
}

/* Paths (second column) of a files-family table at one snapshot into set. */
static bool collect_paths(fx *f, const char *table, int64_t snapshot, floe_strmap *set,
                          floe_arena *a, size_t *rows)
{
    size_t n;
    char *r = rows_of(f, table, snapshot, &n);
    if (!r)
        return false;
    for (char *line = r; *line;) {
        char *nl = strchr(line, '\n');
        *nl = 0;
        char *p = strchr(line, '|') + 1;
        *strchr(p, '|') = 0;
        char *k = floe__arena_strdup(a, p);
        floe__strmap_put(set, k, k);
        line = nl + 1;
    }
    *rows = n;
    floe__free(r);
    return true;
}

/* Every fixture, every snapshot: the live files match the manifest list's
 * counts (written by Spark/Trino/Java/PyIceberg, so independent of floe's
 * entry reading), and all_data_files is the union of data_files. */
static void test_counts_and_union(void)
{
    static const struct {
        const char *name, *file, *location;
    } tables[] = {
        {"spark_bunnies", "v5.metadata.json", BUNNIES_LOC},
        {"java_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/java/bunnies"},
        {"spark_rename_column", "v3.metadata.json", RENAME_LOC},
        {"trino_deletion_vectors_v3", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json",
         DV_LOC},
        {"trino_partition_evolution", "00005-218c3743-5886-48b9-88d6-86c202862e0f.metadata.json",
         EVOL_LOC},
        {"spark_hive_partition_evolution", "v4.metadata.json",
         "data/persistent/hive_partitioned_table"},
    };
    for (size_t t = 0; t < FT_N(tables); t++) {
        fx f;
        if (!fx_open(&f, tables[t].name, tables[t].file, tables[t].location))
            return;
        floe_strmap *uni = floe__strmap_new(), *all = floe__strmap_new();
        floe_arena *a = floe__arena_new(0);
        for (size_t i = 0; i < f.m->nsnapshots; i++) {
            int64_t id = f.m->snapshots[i].snapshot_id;
            floe_meta_options o = FLOE_META_OPTIONS_INIT;
            o.metadata = f.m;
            o.io = f.io;
            o.has_snapshot_id = true;
            o.snapshot_id = id;
            floe_rowsource *rs;
            FT_OK(floe__meta_open(&rs, "manifests", &o));
            floe_rowcursor *c;
            FT_OK(floe__rs_open(rs, NULL, 0, &c));
            int64_t live = 0, all_entries = 0;
            while (floe__rs_next(c) == 0) {
                for (size_t col = 5; col <= 10; col++) {
                    floe_rs_cell cell;
                    FT_OK(floe__rs_column(c, col, &cell));
                    FT_ASSERT(!cell.value.is_null);
                    all_entries += cell.value.v.i32;
                    if (col != 7 && col != 10)
                        live += cell.value.v.i32;
                }
            }
            floe__rs_close(c);
            floe__rs_free(rs);
            size_t n;
            char *r = rows_of(&f, "files", id, &n);
            if ((int64_t)n != live)
                ft_fail(__FILE__, __LINE__, "%s @%lld: files %zu, manifests say %lld",
                        tables[t].name, (long long)id, n, (long long)live);
            floe__free(r);
            r = rows_of(&f, "entries", id, &n);
            if ((int64_t)n != all_entries)
                ft_fail(__FILE__, __LINE__, "%s @%lld: entries %zu, manifests say %lld",
                        tables[t].name, (long long)id, n, (long long)all_entries);
            floe__free(r);
            FT_ASSERT(collect_paths(&f, "data_files", id, uni, a, &n));
        }
        size_t n_all;
        FT_ASSERT(collect_paths(&f, "all_data_files", 0, all, a, &n_all));
        /* each file once, and the same set */
        FT_EQ_INT(n_all, floe__strmap_len(all));
        FT_EQ_INT(floe__strmap_len(all), floe__strmap_len(uni));
        size_t it = 0;
        const char *k;
        void *v;
        while (floe__strmap_next(uni, &it, &k, &v))
            if (!floe__strmap_has(all, k))
                ft_fail(__FILE__, __LINE__, "%s: %s missing from all_data_files", tables[t].name,
                        k);
        floe__strmap_free(uni);
        floe__strmap_free(all);
        floe__arena_free(a);
        fx_close(&f);
    }
}

/* Pushed-down constraints skip manifests: content = 1 reads no data
 * manifest, reference_snapshot_id = n reads one manifest list. */
static void test_pushdown_reads_less(void)
{
    fx f;
    if (!fx_open(&f, "spark_bunnies", "v5.metadata.json", BUNNIES_LOC))
        return;
    floe_fault_options fo = FLOE_FAULT_OPTIONS_INIT;
    floe_fileio *io;
    FT_OK(floe__fileio_fault_new(&io, f.io, &fo));
    f.io = io;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = f.m;
    o.io = f.io;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "files", &o));
    size_t n;
    char *r = drain(rs, NULL, 0, &n);
    long everything = floe__fileio_fault_count(io);
    FT_EQ_INT(n, 2);
    floe__free(r);
    floe__fileio_fault_set(io, &fo);
    floe_rs_constraint c = {0, FLOE_RS_EQ, floe_value_int(1)};
    r = drain(rs, &c, 1, &n);
    long deletes_only = floe__fileio_fault_count(io);
    FT_EQ_INT(n, 1);
    FT_CHECK(r && strncmp(r, "1|", 2) == 0);
    FT_CHECK(deletes_only > 0 && deletes_only < everything);
    floe__free(r);
    floe__rs_free(rs);

    /* entries WHERE status = 2 reads only the manifest with a deleted entry */
    FT_OK(floe__meta_open(&rs, "entries", &o));
    floe__fileio_fault_set(io, &fo);
    r = drain(rs, NULL, 0, &n);
    long all_entries = floe__fileio_fault_count(io);
    FT_EQ_INT(n, 3);
    floe__free(r);
    floe__fileio_fault_set(io, &fo);
    floe_rs_constraint sc = {0, FLOE_RS_EQ, floe_value_int(FLOE_ENTRY_DELETED)};
    r = drain(rs, &sc, 1, &n);
    FT_EQ_INT(n, 1);
    FT_CHECK(r && strncmp(r, "2|2701171901096418979|", 22) == 0);
    FT_CHECK(floe__fileio_fault_count(io) < all_entries);
    floe__free(r);
    floe__rs_free(rs);

    FT_OK(floe__meta_open(&rs, "all_manifests", &o));
    floe__fileio_fault_set(io, &fo);
    r = drain(rs, NULL, 0, &n);
    long all_lists = floe__fileio_fault_count(io);
    FT_EQ_INT(n, 6);
    floe__free(r);
    floe__fileio_fault_set(io, &fo);
    floe_rs_constraint rc = {12, FLOE_RS_EQ, floe_value_long(B2)};
    r = drain(rs, &rc, 1, &n);
    FT_EQ_INT(n, 2);
    FT_CHECK(floe__fileio_fault_count(io) < all_lists);
    floe__free(r);
    floe__rs_free(rs);
    fx_close(&f);
}

/* readable_metrics: bounds decoded with each column's type, nested columns
 * by dotted name, sorted by name as Java sorts them. */
static void test_readable_metrics_types(void)
{
    fx f;
    if (!fx_open(&f, "spark_all_types", "00000-4f9d7c78-62f9-48c6-b869-f25172b45b32.metadata.json",
                 "s3://warehouse/types/all_spark_types"))
        return;
    size_t n;
    char *r = rows_of(&f, "files", 0, &n);
    FT_EQ_INT(n, 1);
    FT_ASSERT(r);
    const char *rm = strstr(r, "|{\"col0\":");
    FT_ASSERT(rm);
    static const char *const want[] = {
        ("{\"col0\":{\"column_size\":42,\"value_count\":1,\"null_value_count\":0,"
         "\"nan_value_count\":null,\"lower_bound\":true,\"upper_bound\":true}"), /* one element */
        "\"col1\":{",
        "\"lower_bound\":2147483647,",
        "\"col10\":{",
        "\"lower_bound\":\"2023-10-10 12:34:56.000000\"",
        "\"col11.element\":{",
        "\"col2\":{",
        "\"lower_bound\":9223372036854775807,",
        "\"lower_bound\":3.4028235e+38,",
        "\"lower_bound\":1.7976931348623157e+308,",
        "\"lower_bound\":12345.67,",
        "\"lower_bound\":\"example\"",
        "\"lower_bound\":\"737061726b\"",
        "\"lower_bound\":\"2023-10-10\"",
    };
    const char *at = rm;
    for (size_t i = 0; i < FT_N(want); i++) {
        const char *hit = strstr(at, want[i]);
        if (!hit) {
            ft_fail(__FILE__, __LINE__, "readable_metrics lacks %s after offset %td", want[i],
                    at - rm);
            break;
        }
        at = hit;
    }
    floe__free(r);
    fx_close(&f);
}

/* Every manifest-reading table of every fixture also reads as an Arrow
 * stream, nested columns included, with the same number of rows. */
static void test_arrow_streams(void)
{
    static const struct {
        const char *name, *file, *location;
    } tables[] = {
        {"spark_bunnies", "v5.metadata.json", BUNNIES_LOC},
        {"java_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/java/bunnies"},
        {"spark_rename_column", "v3.metadata.json", RENAME_LOC},
        {"trino_deletion_vectors_v3", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json",
         DV_LOC},
        {"trino_partition_evolution", "00005-218c3743-5886-48b9-88d6-86c202862e0f.metadata.json",
         EVOL_LOC},
        {"spark_all_types", "00000-4f9d7c78-62f9-48c6-b869-f25172b45b32.metadata.json",
         "s3://warehouse/types/all_spark_types"},
    };
    static const char *const names[] = {"snapshots",  "all_files", "all_entries", "all_manifests",
                                        "partitions", "history",   "refs"};
    for (size_t t = 0; t < FT_N(tables); t++) {
        fx f;
        if (!fx_open(&f, tables[t].name, tables[t].file, tables[t].location))
            return;
        for (size_t k = 0; k < FT_N(names); k++) {
            floe_meta_options o = FLOE_META_OPTIONS_INIT;
            o.metadata = f.m;
            o.io = f.io;
            floe_rowsource *rs;
            FT_OK(floe__meta_open(&rs, names[k], &o));
            size_t n;
            char *r = drain(rs, NULL, 0, &n);
            floe__free(r);
            struct ArrowArrayStream st;
            FT_OK(floe__rs_arrow_stream(rs, NULL, 0, 3, &st));
            struct ArrowArray a;
            int64_t rows = 0;
            int rc;
            while ((rc = st.get_next(&st, &a)) == 0 && a.release) {
                FT_EQ_INT(a.n_children, (int64_t)rs->ncolumns);
                rows += a.length;
                a.release(&a);
            }
            if (rc != 0)
                ft_fail(__FILE__, __LINE__, "%s %s: %s", tables[t].name, names[k],
                        st.get_last_error(&st));
            if (rows != (int64_t)n)
                ft_fail(__FILE__, __LINE__, "%s %s: %lld arrow rows, %zu rows", tables[t].name,
                        names[k], (long long)rows, n);
            st.release(&st);
            floe__rs_free(rs);
        }
        fx_close(&f);
    }
}

/* A v1 snapshot that lists bare manifest paths (no manifest list). */
static void test_v1_manifests_array(void)
{
    fx f;
    if (!fx_open(&f, "spark_v1_legacy_fields", "v2.metadata.json",
                 "data/persistent/iceberg_v1_deprecated/default/legacy_v1"))
        return;
    size_t n;
    char *r = rows_of(&f, "manifests", 0, &n);
    FT_EQ_INT(n, 1);
    FT_ASSERT(r);
    /* the length comes from the store (Java stats the file too) */
    char path[2048];
    snprintf(path, sizeof path, "%s/metadata/d65f86b0-b799-467f-b1f4-9c697e4c4fc7-m0.avro", f.dir);
    struct stat st;
    FT_ASSERT(stat(path, &st) == 0);
    char want[64];
    snprintf(want, sizeof want, "-m0.avro|%lld|0|2456114553637229296|", (long long)st.st_size);
    FT_CHECK(strstr(r, want) != NULL);
    floe__free(r);
    r = rows_of(&f, "entries", 0, &n);
    FT_EQ_INT(n, 2);
    FT_EQ_INT(count_lines_with(r, "1|2456114553637229296|0|0|"), 2); /* v1: sequence 0 */
    floe__free(r);
    r = rows_of(&f, "partitions", 0, &n);
    FT_EQ_INT(n, 2);
    FT_EQ_INT(count_lines_with(r, "{\"category\":\"alpha\"}|0|2|1|"), 1);
    floe__free(r);
    fx_close(&f);
}

/* position_deletes: the rows of live Parquet position-delete files. */
static void test_position_deletes(void)
{
    fx f;
    if (!fx_open(&f, "java_bunnies", "v5.metadata.json", "s3a://hyperparam-iceberg/java/bunnies"))
        return;
    size_t n;
    char *r = rows_of(&f, "position_deletes", 0, &n);
    FT_EQ_INT(n, 6); /* PROVENANCE: one position-delete file with 6 rows */
    FT_EQ_INT(count_lines_with(r, "/data/bunnies-initial.parquet|"), 6);
    FT_EQ_INT(count_lines_with(r, "|null|0|s3a://hyperparam-iceberg/java/bunnies/data/"), 6);
    /* 21 rows before, 15 after: six distinct positions below 21 */
    bool seen[21] = {false};
    int distinct = 0;
    for (const char *line = r; line && *line;) {
        const char *p = strchr(line, '|');
        long pos = p ? strtol(p + 1, NULL, 10) : -1;
        if (pos >= 0 && pos < 21 && !seen[pos]) {
            seen[pos] = true;
            distinct++;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    FT_EQ_INT(distinct, 6);
    floe__free(r);
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = f.m;
    o.io = f.io;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "position_deletes", &o));
    char *cols = column_names(rs);
    FT_EQ_STR(cols, "file_path,pos,row,spec_id,delete_file_path");
    floe__free(cols);
    floe__rs_free(rs);
    fx_close(&f);

    if (!fx_open(&f, "spark_bunnies", "v5.metadata.json", BUNNIES_LOC))
        return;
    r = rows_of(&f, "position_deletes", B1, &n);
    FT_EQ_INT(n, 0);
    floe__free(r);
    /* the delete at B2 points at B1's data file */
    char *d = rows_of(&f, "data_files", B1, &n);
    r = rows_of(&f, "position_deletes", B2, &n);
    FT_EQ_INT(n, 1);
    FT_ASSERT(d && r);
    char *path = strchr(d, '|') + 1;
    *strchr(path, '|') = 0;
    FT_CHECK(strncmp(r, path, strlen(path)) == 0 && r[strlen(path)] == '|');
    floe__free(d);
    floe__free(r);
    fx_close(&f);

    /* deletion vectors are refused, not silently skipped */
    if (!fx_open(&f, "trino_deletion_vectors_v3",
                 "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json", DV_LOC))
        return;
    o.metadata = f.m;
    o.io = f.io;
    FT_OK(floe__meta_open(&rs, "position_deletes", &o));
    r = drain(rs, NULL, 0, &n);
    FT_CHECK(r == NULL);
    FT_EQ_INT(floe_error_last()->code, FLOE_EUNSUPPORTED);
    FT_ERR_CONTAINS("PUFFIN delete files are not supported");
    floe__rs_free(rs);
    fx_close(&f);
}

/* Errors: a missing manifest list is an I/O error naming the snapshot. */
static void test_missing_files(void)
{
    fx f;
    if (!fx_open(&f, "spark_bunnies", "v5.metadata.json", "s3a://elsewhere"))
        return;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = f.m;
    o.io = f.io;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "files", &o));
    size_t n;
    char *r = drain(rs, NULL, 0, &n);
    FT_CHECK(r == NULL);
    FT_ERR_CONTAINS("manifest list of snapshot 2701171901096418979");
    floe__rs_free(rs);
    o.io = NULL;
    FT_EQ_INT(floe__meta_open(&rs, "files", &o), FLOE_EINVALID);
    fx_close(&f);
}

static void test_out_of_memory(void)
{
    fx f;
    if (!fx_open(&f, "spark_bunnies", "v5.metadata.json", BUNNIES_LOC))
        return;
    static const char *const names[] = {"files",     "all_files",     "entries",
                                        "manifests", "all_manifests", "partitions"};
    for (size_t t = 0; t < FT_N(names); t++) {
        for (long nth = 1; nth < 5000; nth++) {
            floe_meta_options o = FLOE_META_OPTIONS_INIT;
            o.metadata = f.m;
            o.io = f.io;
            floe_rowsource *rs = NULL;
            floe__alloc_fail_at(nth);
            int rc = floe__meta_open(&rs, names[t], &o);
            char *rows = NULL;
            size_t n = 0;
            if (rc == 0) {
                rows = drain(rs, NULL, 0, &n);
                if (!rows)
                    rc = floe_error_last()->code;
            }
            long used = floe__alloc_count();
            floe__alloc_fail_at(0);
            floe__free(rows);
            floe__rs_free(rs);
            if (rc == 0 && used < nth)
                break;
            if (rc != 0 && rc != FLOE_ENOMEM) {
                ft_fail(__FILE__, __LINE__, "%s nth %ld: %d %s", names[t], nth, rc, ft_floe_err());
                break;
            }
        }
    }
    /* the Arrow stream: ENOMEM (errno ENOMEM) or every row, never a leak */
    bool done = false;
    for (long nth = 1; nth < 20000 && !done; nth++) {
        floe_meta_options o = FLOE_META_OPTIONS_INIT;
        o.metadata = f.m;
        o.io = f.io;
        floe_rowsource *rs = NULL;
        floe__alloc_fail_at(nth);
        int rc = floe__meta_open(&rs, "all_entries", &o);
        int64_t rows = 0;
        if (rc == 0) {
            struct ArrowArrayStream st;
            rc = floe__rs_arrow_stream(rs, NULL, 0, 2, &st);
            if (rc == 0) {
                struct ArrowArray a;
                int erc;
                while ((erc = st.get_next(&st, &a)) == 0 && a.release) {
                    rows += a.length;
                    a.release(&a);
                }
                if (erc != 0)
                    rc = erc == ENOMEM ? FLOE_ENOMEM : FLOE_ERROR;
                st.release(&st);
            }
        }
        long used = floe__alloc_count();
        floe__alloc_fail_at(0);
        floe__rs_free(rs);
        if (rc == 0 && used < nth) {
            FT_EQ_INT(rows, 4);
            done = true;
        }
        if (rc != 0 && rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "arrow nth %ld: %d", nth, rc);
            break;
        }
    }
    FT_CHECK(done);
    fx_close(&f);
}

static const ft_case cases[] = {
    {"bunnies_files_per_snapshot", test_bunnies_files_per_snapshot},
    {"bunnies_entries_deleted", test_bunnies_entries_deleted},
    {"bunnies_all_files_and_retained", test_bunnies_all_files_and_retained},
    {"deletion_vectors", test_deletion_vectors},
    {"partitioned", test_partitioned},
    {"partition_evolution", test_partition_evolution},
    {"counts_and_union", test_counts_and_union},
    {"pushdown_reads_less", test_pushdown_reads_less},
    {"readable_metrics_types", test_readable_metrics_types},
    {"arrow_streams", test_arrow_streams},
    {"v1_manifests_array", test_v1_manifests_array},
    {"position_deletes", test_position_deletes},
    {"missing_files", test_missing_files},
    {"out_of_memory", test_out_of_memory},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
