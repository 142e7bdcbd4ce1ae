/* SPDX-License-Identifier: Apache-2.0 */
/* meta: the seed's script 1 with real manifests — three fast appends to an
 * orders table partitioned by order_date, a rollback and set-current back
 * and forth. The seed printed: files = 2, all_data_files = 3,
 * metadata_log_entries = 7; TIMESTAMP AS OF the bad commit still reads the
 * bad snapshot's 5 rows; the bad load's file is the storage held only by
 * old snapshots. */
#include "arrow/arrow.h"
#include "fixture.h"
#include "floe/io.h"
#include "io/io.h"
#include "manifest/manifest.h"
#include "sql/vtab.h"
#include "util/civil.h"

#include <sys/stat.h>

static const floe_type date_type = {.id = FLOE_T_DATE};

typedef struct seed_file {
    int64_t snapshot;
    int day; /* of September 2026 */
    int64_t records, bytes;
} seed_file;

static const seed_file seed_files[] = {
    {S1, 20, 2, 1000},
    {S2, 21, 1, 900},
    {S3, 21, 2, 1100},
};

static const char *data_path(int k)
{
    static char b[3][128];
    snprintf(b[k], sizeof b[k], LOC "/data/order_date=2026-09-%d/0000%d-x.parquet",
             seed_files[k].day, k);
    return b[k];
}

static bool write_at(const char *dir, const char *location, const floe_buf *b)
{
    char path[2048];
    snprintf(path, sizeof path, "%s%s", dir, location + strlen(LOC));
    return ft_write_file(path, b->ptr, b->len) == 0;
}

/* Manifest k (one ADDED file) and the manifest list of snapshot k. */
static bool write_snapshot_files(const char *dir, floe_manifest_file *mfs, int k)
{
    floe_manifest_partition_field pf = {1000, "order_date", &date_type};
    char mpath[256];
    snprintf(mpath, sizeof mpath, LOC "/metadata/m%d.avro", k);
    floe_manifest_writer_options o = {0};
    o.format_version = 2;
    o.content = FLOE_MANIFEST_DATA;
    o.npartition_fields = 1;
    o.partition_fields = &pf;
    o.schema_json = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}";
    o.partition_spec_json = "[{\"name\":\"order_date\",\"transform\":\"identity\","
                            "\"source-id\":5,\"field-id\":1000}]";
    o.snapshot_id = seed_files[k].snapshot;
    o.sequence_number = FLOE_SEQ_UNASSIGNED;
    o.manifest_path = mpath;
    o.codec = FLOE_AVRO_CODEC_DEFLATE;
    o.compression_level = -1;
    floe_buf mb = FLOE_BUF_INIT;
    floe_manifest_writer *w;
    if (floe_manifest_writer_new(&w, &o, &mb) < 0)
        return ft_fail(__FILE__, __LINE__, "writer: %s", ft_floe_err());
    floe_value day = floe_value_date((int32_t)floe__days_from_civil(2026, 9, seed_files[k].day));
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_ADDED;
    e.has_snapshot_id = true;
    e.snapshot_id = seed_files[k].snapshot;
    e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    e.data_file.content = FLOE_FILE_DATA;
    e.data_file.file_path = data_path(k);
    e.data_file.file_format = "PARQUET";
    e.data_file.partition = (floe_partition_value){1, &day};
    e.data_file.record_count = seed_files[k].records;
    e.data_file.file_size_in_bytes = seed_files[k].bytes;
    e.data_file.block_size_in_bytes = -1;
    floe_manifest_file mf;
    bool ok = floe_manifest_writer_add(w, &e) == 0 && floe_manifest_writer_finish(w, &mf) == 0;
    if (ok) {
        mfs[k] = mf;
        mfs[k].manifest_path = floe__strdup(mpath);
        mfs[k].sequence_number = mfs[k].min_sequence_number = k + 1;
        /* the summaries point into the writer: keep a copy */
        floe_field_summary *fs = floe__calloc(1, sizeof *fs);
        uint8_t *lo = floe__malloc(8), *hi = floe__malloc(8);
        memcpy(lo, mf.partitions[0].lower_bound.ptr, mf.partitions[0].lower_bound.len);
        memcpy(hi, mf.partitions[0].upper_bound.ptr, mf.partitions[0].upper_bound.len);
        *fs = mf.partitions[0];
        fs->lower_bound.ptr = lo;
        fs->upper_bound.ptr = hi;
        mfs[k].partitions = fs;
        ok = write_at(dir, mpath, &mb);
    }
    floe_manifest_writer_free(w);
    floe__buf_free(&mb);
    if (!ok)
        return ft_fail(__FILE__, __LINE__, "manifest %d: %s", k, ft_floe_err());

    floe_manifest_list_writer_options lo = {0};
    lo.format_version = 2;
    lo.snapshot_id = seed_files[k].snapshot;
    lo.has_parent_snapshot_id = k > 0;
    lo.parent_snapshot_id = k > 0 ? seed_files[k - 1].snapshot : 0;
    lo.sequence_number = k + 1;
    lo.codec = FLOE_AVRO_CODEC_DEFLATE;
    lo.compression_level = -1;
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list_writer *lw;
    if (floe_manifest_list_writer_new(&lw, &lo, &lb) < 0)
        return ft_fail(__FILE__, __LINE__, "list: %s", ft_floe_err());
    ok = true;
    for (int i = k; i >= 0 && ok; i--) /* fast append: new manifest first */
        ok = floe_manifest_list_writer_add(lw, &mfs[i]) == 0;
    ok = ok && floe_manifest_list_writer_finish(lw) == 0;
    char lpath[256];
    snprintf(lpath, sizeof lpath, LOC "/metadata/snap-%lld-1-x.avro",
             (long long)seed_files[k].snapshot);
    ok = ok && write_at(dir, lpath, &lb);
    floe_manifest_list_writer_free(lw);
    floe__buf_free(&lb);
    return ok ? true : ft_fail(__FILE__, __LINE__, "list %d: %s", k, ft_floe_err());
}

typedef struct seed {
    floe_table_metadata *m;
    floe_fileio *io;
} seed;

static bool seed_open(seed *s)
{
    memset(s, 0, sizeof *s);
    const char *dir = ft_tmpdir();
    char sub[2048];
    snprintf(sub, sizeof sub, "%s/metadata", dir);
    mkdir(sub, 0755);
    floe_manifest_file mfs[3];
    memset(mfs, 0, sizeof mfs);
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++)
        ok = write_snapshot_files(dir, mfs, k);
    for (int k = 0; k < 3; k++) {
        floe__free((char *)mfs[k].manifest_path);
        if (mfs[k].partitions) {
            floe__free((void *)mfs[k].partitions[0].lower_bound.ptr);
            floe__free((void *)mfs[k].partitions[0].upper_bound.ptr);
        }
        floe__free((void *)mfs[k].partitions);
    }
    if (!ok)
        return false;
    s->m = script1(6);
    char map[2200];
    snprintf(map, sizeof map, LOC "=%s", dir);
    floe_props conf = FLOE_PROPS_INIT;
    floe__props_set(&conf, "io.location-map", map);
    int rc = floe_fileio_open(&s->io, "file", &conf);
    floe__props_free(&conf);
    return s->m && rc == 0 ? true : ft_fail(__FILE__, __LINE__, "seed: %s", ft_floe_err());
}

static void seed_close(seed *s)
{
    floe_fileio_free(s->io);
    floe__metadata_free(s->m);
}

static char *rows_at(seed *s, const char *table, int64_t snapshot, size_t *n)
{
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = s->m;
    o.io = s->io;
    o.has_snapshot_id = snapshot != 0;
    o.snapshot_id = snapshot;
    floe_rowsource *rs;
    *n = 0;
    if (floe__meta_open(&rs, table, &o) < 0) {
        ft_fail(__FILE__, __LINE__, "%s: %s", table, ft_floe_err());
        return NULL;
    }
    char *r = drain(rs, NULL, 0, n);
    if (!r)
        ft_fail(__FILE__, __LINE__, "%s: %s", table, ft_floe_err());
    floe__rs_free(rs);
    return r;
}

/* Sum of the record_count column (the sixth) of files rows. */
static long long count_records(const char *rows)
{
    long long sum = 0;
    for (const char *line = rows; line && *line;) {
        const char *p = line;
        for (int i = 0; i < 5 && p; i++) {
            p = strchr(p, '|');
            p = p ? p + 1 : NULL;
        }
        if (p)
            sum += atoll(p);
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return sum;
}

static void test_files_after_script1(void)
{
    seed s;
    if (!seed_open(&s))
        return;
    size_t n;
    char *r = rows_at(&s, "files", 0, &n);
    FT_EQ_INT(n, 2); /* "data files in current snapshot: 2" */
    FT_CHECK(r && strstr(r, data_path(0)) && strstr(r, data_path(1)) && !strstr(r, data_path(2)));
    FT_CHECK(r && strstr(r, "|{\"order_date\":\"2026-09-20\"}|2|1000|"));
    floe__free(r);
    r = rows_at(&s, "all_data_files", 0, &n);
    FT_EQ_INT(n, 3); /* "data files in any snapshot: 3" */
    floe__free(r);
    r = rows_at(&s, "metadata_log_entries", 0, &n);
    FT_EQ_INT(n, 6); /* no current location given here: 6 + the current file = 7 */
    floe__free(r);

    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = s.m;
    o.io = s.io;
    int64_t retained;
    FT_OK(floe__meta_retained_bytes(&o, &retained));
    FT_EQ_INT(retained, 1100); /* the bad load's file */
    seed_close(&s);
}

static void test_time_travel(void)
{
    seed s;
    if (!seed_open(&s))
        return;
    size_t n;
    /* VERSION AS OF the first snapshot: 1 file, 2 rows */
    char *r = rows_at(&s, "files", S1, &n);
    FT_EQ_INT(n, 1);
    floe__free(r);
    /* TIMESTAMP AS OF a moment inside the bad window resolves to S3 (5 rows) */
    int64_t id;
    FT_CHECK(floe__snapshot_log_as_of(s.m, T3 + 1, &id));
    FT_EQ_INT(id, S3);
    FT_CHECK(!floe__snapshot_log_as_of(s.m, T0, &id));
    r = rows_at(&s, "data_files", id, &n);
    FT_EQ_INT(n, 3);
    FT_EQ_INT(count_records(r), 5);
    floe__free(r);
    /* entries at S3: three ADDED entries with inherited sequence numbers */
    r = rows_at(&s, "entries", S3, &n);
    FT_EQ_INT(n, 3);
    FT_CHECK(r && strstr(r, "1|23499723825440384|3|3|{\"content\":0,"));
    FT_CHECK(r && strstr(r, "1|5270420720687731067|2|2|"));
    FT_CHECK(r && strstr(r, "1|3657524344527679724|1|1|"));
    floe__free(r);
    /* partitions now and at S3 */
    r = rows_at(&s, "partitions", 0, &n);
    FT_EQ_INT(n, 2);
    FT_CHECK(r && strstr(r, "{\"order_date\":\"2026-09-21\"}|0|1|1|900|0|0|0|0|"
                            "2026-09-28 13:15:22.058000|5270420720687731067\n"));
    floe__free(r);
    r = rows_at(&s, "partitions", S3, &n);
    FT_EQ_INT(n, 2);
    FT_CHECK(r && strstr(r, "{\"order_date\":\"2026-09-21\"}|0|3|2|2000|0|0|0|0|"
                            "2026-09-28 13:15:26.352000|23499723825440384\n"));
    floe__free(r);
    /* manifests: fast append keeps old manifests; summaries in human form */
    r = rows_at(&s, "manifests", 0, &n);
    FT_EQ_INT(n, 2);
    FT_CHECK(r && strstr(r, "[{\"contains_null\":false,\"contains_nan\":false,\"lower_bound\":"
                            "\"2026-09-20\",\"upper_bound\":\"2026-09-20\"}]"));
    floe__free(r);
    r = rows_at(&s, "all_manifests", 0, &n);
    FT_EQ_INT(n, 6); /* 1 + 2 + 3 list entries */
    floe__free(r);
    seed_close(&s);
}

static void test_sql(void)
{
    seed s;
    if (!seed_open(&s))
        return;
    sqlite3 *db;
    floe_vtab_registry *reg;
    FT_ASSERT(sqlite3_open(":memory:", &db) == SQLITE_OK);
    FT_OK(floe__vtab_register(db, &reg));
    static const char *const tables[] = {"files", "all_data_files", "metadata_log_entries",
                                         "history", "snapshots"};
    for (size_t i = 0; i < FT_N(tables); i++) {
        floe_meta_options o = FLOE_META_OPTIONS_INIT;
        o.metadata = s.m;
        o.io = s.io;
        o.metadata_location = meta_file(6);
        floe_rowsource *rs;
        FT_OK(floe__meta_open(&rs, tables[i], &o));
        FT_OK(floe__vtab_create(reg, "main", tables[i], rs));
    }
    static const struct {
        const char *sql, *want;
    } q[] = {
        {"SELECT count(*) FROM files", "2"},
        {"SELECT count(*) FROM all_data_files", "3"},
        {"SELECT count(*) FROM metadata_log_entries", "7"},
        {"SELECT (SELECT sum(file_size_in_bytes) FROM all_data_files) - "
         "(SELECT sum(file_size_in_bytes) FROM files) AS bytes_held_only_by_old_snapshots",
         "1100"},
        {"SELECT sum(record_count) FROM files", "3"},
        {"SELECT group_concat(json_extract(partition, '$.order_date'), ',') FROM "
         "(SELECT partition FROM all_data_files ORDER BY file_path)",
         "2026-09-20,2026-09-21,2026-09-21"},
        {"SELECT count(*) FROM files f JOIN snapshots s ON s.snapshot_id = 5270420720687731067 "
         "WHERE json_extract(s.summary, '$.total-records') = '3'",
         "2"},
    };
    for (size_t i = 0; i < FT_N(q); i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, q[i].sql, -1, &st, NULL) != SQLITE_OK) {
            ft_fail(__FILE__, __LINE__, "%s: %s", q[i].sql, sqlite3_errmsg(db));
            continue;
        }
        if (sqlite3_step(st) != SQLITE_ROW)
            ft_fail(__FILE__, __LINE__, "%s: %s", q[i].sql, sqlite3_errmsg(db));
        else
            FT_EQ_STR((const char *)sqlite3_column_text(st, 0), q[i].want);
        sqlite3_finalize(st);
    }

    /* a join reads the manifests once: the small table goes in the inner loop */
    floe_props conf = FLOE_PROPS_INIT;
    char map[2200];
    snprintf(map, sizeof map, LOC "=%s", ft_tmpdir());
    floe__props_set(&conf, "io.location-map", map);
    floe_fileio *inner, *counted;
    int orc = floe_fileio_open(&inner, "file", &conf);
    floe__props_free(&conf);
    FT_OK(orc);
    floe_fault_options fo = FLOE_FAULT_OPTIONS_INIT;
    FT_OK(floe__fileio_fault_new(&counted, inner, &fo));
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = s.m;
    o.io = counted;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "files", &o));
    FT_OK(floe__vtab_create(reg, NULL, "files_counted", rs));
    long ops[2];
    static const char *const sqls[2] = {
        "SELECT count(*) FROM files_counted",
        "SELECT count(*) FROM files_counted f, snapshots s, history h WHERE s.snapshot_id > 0",
    };
    static const char *const wants[2] = {"2", "36"};
    for (int i = 0; i < 2; i++) {
        floe__fileio_fault_set(counted, &fo);
        sqlite3_stmt *st;
        FT_ASSERT(sqlite3_prepare_v2(db, sqls[i], -1, &st, NULL) == SQLITE_OK);
        FT_ASSERT(sqlite3_step(st) == SQLITE_ROW);
        FT_EQ_STR((const char *)sqlite3_column_text(st, 0), wants[i]);
        sqlite3_finalize(st);
        ops[i] = floe__fileio_fault_count(counted);
    }
    FT_CHECK(ops[0] > 0);
    FT_EQ_INT(ops[1], ops[0]);
    sqlite3_close(db);
    floe_fileio_free(counted);
    seed_close(&s);
}

static int64_t i64_at(const struct ArrowArray *a, int64_t i)
{
    int64_t v;
    memcpy(&v, (const uint8_t *)a->buffers[1] + 8 * (a->offset + i), 8);
    return v;
}

/* Row sources as Arrow C streams: typed columns, nested ones rebuilt. */
static void test_arrow(void)
{
    seed s;
    if (!seed_open(&s))
        return;
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = s.m;
    o.io = s.io;
    floe_rowsource *rs;
    FT_OK(floe__meta_open(&rs, "snapshots", &o));
    struct ArrowArrayStream st;
    FT_OK(floe__rs_arrow_stream(rs, NULL, 0, 2, &st));
    struct ArrowSchema sc;
    FT_EQ_INT(st.get_schema(&st, &sc), 0);
    FT_EQ_STR(sc.format, "+s");
    FT_ASSERT(sc.n_children == 6);
    FT_EQ_STR(sc.children[0]->name, "committed_at");
    FT_EQ_STR(sc.children[0]->format, "tsu:UTC");
    FT_EQ_STR(sc.children[1]->format, "l");
    FT_EQ_STR(sc.children[5]->name, "summary");
    FT_EQ_STR(sc.children[5]->format, "+m");
    sc.release(&sc);
    struct ArrowArray a;
    int64_t rows = 0, batches = 0;
    for (;;) {
        FT_EQ_INT(st.get_next(&st, &a), 0);
        if (!a.release)
            break;
        batches++;
        FT_ASSERT(a.n_children == 6 && a.length <= 2);
        if (rows == 0) {
            FT_EQ_INT(i64_at(a.children[1], 0), S1);
            FT_EQ_INT(i64_at(a.children[0], 0), T1 * 1000);
            FT_CHECK(!floe__arrow_is_valid(a.children[2], 0)); /* no parent */
            FT_EQ_INT(i64_at(a.children[2], 1), S1);
            /* summary: 4 entries per snapshot ("operation" is not one) */
            const struct ArrowArray *m = a.children[5];
            const int32_t *off = (const int32_t *)m->buffers[1];
            FT_EQ_INT(off[1] - off[0], 4);
            const struct ArrowArray *keys = m->children[0]->children[0];
            const int32_t *ko = (const int32_t *)keys->buffers[1];
            FT_CHECK(ko[1] - ko[0] == 12 &&
                     memcmp((const char *)keys->buffers[2] + ko[0], "spark.app.id", 12) == 0);
        }
        rows += a.length;
        a.release(&a);
    }
    FT_EQ_INT(rows, 3);
    FT_EQ_INT(batches, 2);
    st.release(&st);
    floe__rs_free(rs);

    /* files: the partition struct holds a date */
    FT_OK(floe__meta_open(&rs, "files", &o));
    FT_OK(floe__rs_arrow_stream(rs, NULL, 0, 0, &st));
    FT_EQ_INT(st.get_schema(&st, &sc), 0);
    FT_EQ_STR(sc.children[4]->name, "partition");
    FT_EQ_STR(sc.children[4]->format, "+s");
    FT_EQ_STR(sc.children[4]->children[0]->format, "tdD");
    sc.release(&sc);
    FT_EQ_INT(st.get_next(&st, &a), 0);
    FT_ASSERT(a.release && a.length == 2);
    const struct ArrowArray *part = a.children[4]->children[0];
    int32_t day0, day1;
    memcpy(&day0, (const uint8_t *)part->buffers[1], 4);
    memcpy(&day1, (const uint8_t *)part->buffers[1] + 4, 4);
    FT_EQ_INT(day0 + day1, 2 * floe__days_from_civil(2026, 9, 20) + 1);
    a.release(&a);
    FT_EQ_INT(st.get_next(&st, &a), 0);
    FT_CHECK(a.release == NULL);
    st.release(&st);
    floe__rs_free(rs);
    seed_close(&s);
}

static const ft_case cases[] = {
    {"files_after_script1", test_files_after_script1},
    {"time_travel", test_time_travel},
    {"sql", test_sql},
    {"arrow", test_arrow},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
