/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scans of the real tables in ../shared/fixtures (PROVENANCE.md): row counts
 * at every listed snapshot, the rows upstream tests assert, deletes with
 * sequence-number rules, schema evolution, partition values filled from
 * manifests, initial defaults, v1 tables, gzip metadata, and the
 * unsupported-deletion-vector error.
 */
#include "scanutil.h"

typedef struct fixture {
    const char *dir;
    const char *metadata; /* under metadata/ */
    const char *location;
} fixture;

static const fixture F_SPARK_BUNNIES = {"spark_bunnies", "v5.metadata.json",
                                        "s3a://hyperparam-iceberg/spark/bunnies"};
static const fixture F_JAVA_BUNNIES = {"java_bunnies", "v5.metadata.json",
                                       "s3a://hyperparam-iceberg/java/bunnies"};
static const fixture F_RENAME = {"spark_rename_column", "v3.metadata.json",
                                 "s3a://hyperparam-iceberg/spark/rename_column"};
static const fixture F_PEVO = {"trino_partition_evolution",
                               "00005-218c3743-5886-48b9-88d6-86c202862e0f.metadata.json",
                               "s3a://warehouse/partition_evolution"};
static const fixture F_BUCKET = {"trino_bucket_partitioning",
                                 "00002-53948f10-cced-409f-8dd9-6dea096895e8.metadata.json",
                                 "s3a://warehouse/bucket_partitioning"};
static const fixture F_ALLTYPES = {"spark_all_types",
                                   "00000-4f9d7c78-62f9-48c6-b869-f25172b45b32.metadata.json",
                                   "s3://warehouse/types/all_spark_types"};
static const fixture F_HIVE = {"spark_hive_partition_evolution", "v4.metadata.json",
                               "data/persistent/hive_partitioned_table"};
static const fixture F_DEFAULTS = {
    "pyiceberg_column_defaults", "00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json",
    "data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults"};
static const fixture F_LINEITEM = {"lineitem_iceberg_gz", "v2.gz.metadata.json",
                                   "./lineitem_iceberg_gz"};
/* its manifest list and manifests are named without the "./" */
static const char *const LINEITEM_MAP2 = "lineitem_iceberg_gz";
static const fixture F_V1LEGACY = {"spark_v1_legacy_fields", "v2.metadata.json",
                                   "data/persistent/iceberg_v1_deprecated/default/legacy_v1"};
static const fixture F_DV = {"trino_deletion_vectors_v3",
                             "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json",
                             "s3a://warehouse/deletion_vectors"};

/* Scan a fixture; returns the scan's rc (open or stream). */
static int scan_fixture(const fixture *f, floe_scan_options *o, rows *out, floe_scan_report *rep,
                        char *err, size_t errlen)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return 1;
    char dir[1024], meta[1200];
    snprintf(dir, sizeof dir, "%s/fixtures/%s", sh, f->dir);
    snprintf(meta, sizeof meta, "%s/metadata/%s", dir, f->metadata);
    char loc[2600];
    if (f == &F_LINEITEM)
        snprintf(loc, sizeof loc, "%s=%s,%s", f->location, dir, LINEITEM_MAP2);
    else
        snprintf(loc, sizeof loc, "%s", f->location);
    floe_fileio *io = fixture_io(loc, dir);
    if (!io)
        return -1;
    floe_scan *s;
    int rc = floe_scan_open(&s, io, meta, o);
    if (rc < 0) {
        if (err)
            snprintf(err, errlen, "%s", ft_floe_err());
        floe_fileio_free(io);
        return rc;
    }
    if (rep)
        *rep = *floe_scan_get_report(s);
    struct ArrowArrayStream st;
    rc = floe_scan_to_stream(&st, s);
    if (rc == 0) {
        rc = drain(&st, out, err, errlen);
        st.release(&st);
    }
    floe_scan_free(s);
    floe_fileio_free(io);
    return rc;
}

static long count_at(const fixture *f, bool pinned, int64_t snapshot_id)
{
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.has_snapshot_id = pinned;
    o.snapshot_id = snapshot_id;
    rows r = {0, NULL, 0};
    char err[1024] = "";
    int rc = scan_fixture(f, &o, &r, NULL, err, sizeof err);
    long n = (long)r.n;
    rows_free(&r);
    if (rc != 0) {
        if (rc != 1)
            ft_fail(__FILE__, __LINE__, "%s@%lld: rc %d %s", f->dir, (long long)snapshot_id, rc,
                    err);
        return -1;
    }
    return n;
}

#define COUNT(f, snap, want) FT_EQ_INT(count_at(&(f), true, (snap)), (want))

static void test_spark_bunnies(void)
{
    if (!ft_shared_dir())
        return;
    COUNT(F_SPARK_BUNNIES, 7505300640432048841LL, 21);
    COUNT(F_SPARK_BUNNIES, 469881615898633426LL, 20);
    COUNT(F_SPARK_BUNNIES, 2701171901096418979LL, 20);
    FT_EQ_INT(count_at(&F_SPARK_BUNNIES, false, 0), 20);
    /* first rows (schema 0 at v1, schema 1 with breed_name_length at v5) */
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.has_snapshot_id = true;
    o.snapshot_id = 7505300640432048841LL;
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_SPARK_BUNNIES, &o, &r, NULL, NULL, 0));
    FT_ASSERT(r.n == 21);
    FT_EQ_STR(r.row[0], "Holland Lop|1.8|3.0|7|The Netherlands|Lop|Friendly|1");
    rows_free(&r);
    floe_scan_options c = FLOE_SCAN_OPTIONS_INIT;
    FT_OK(scan_fixture(&F_SPARK_BUNNIES, &c, &r, NULL, NULL, 0));
    FT_ASSERT(r.n == 20);
    FT_EQ_STR(r.row[0], "Netherland Dwarf|0.9|2.5|10|Netherlands|Erect|Shy|2|16");
    rows_free(&r);
}

static void test_spark_bunnies_projection_by_spaced_name(void)
{
    if (!ft_shared_dir())
        return;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    const char *cols[] = {"Popularity Rank", "Breed Name"};
    o.columns = cols;
    o.ncolumns = 2;
    o.filter = "\"Breed Name\" = 'Netherland Dwarf'";
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_SPARK_BUNNIES, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 1);
    if (r.n)
        FT_EQ_STR(r.row[0], "2|Netherland Dwarf");
    rows_free(&r);
}

static void test_java_bunnies(void)
{
    if (!ft_shared_dir())
        return;
    COUNT(F_JAVA_BUNNIES, 4951213507629824583LL, 21);
    COUNT(F_JAVA_BUNNIES, 6458828015811002920LL, 15);
    COUNT(F_JAVA_BUNNIES, 9158179788527662767LL, 15);
    /* the equality delete at seq 3 keeps the New Zealand row added at seq 3 */
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    const char *cols[] = {"Breed Name", "Popularity Rank", "__happy__"};
    o.columns = cols;
    o.ncolumns = 3;
    rows r = {0, NULL, 0};
    floe_scan_report rep;
    FT_OK(scan_fixture(&F_JAVA_BUNNIES, &o, &r, &rep, NULL, 0));
    FT_EQ_INT((long)r.n, 15);
    FT_EQ_INT(rows_has(&r, "New Zealand|0|true"), 1);
    int nz = 0;
    for (size_t i = 0; i < r.n; i++)
        nz += !strncmp(r.row[i], "New Zealand|", 12);
    FT_EQ_INT(nz, 1);
    FT_EQ_INT(rep.delete_files_applied, 2);
    rows_free(&r);
}

static void test_rename_column(void)
{
    if (!ft_shared_dir())
        return;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_RENAME, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 4);
    FT_EQ_INT(rows_has(&r, "3|Cottontail|null|0.00|true"), 1);
    FT_EQ_INT(rows_has(&r, "4|Thumper|2022-01-02|99999999.99|false"), 1);
    FT_EQ_INT(rows_has(&r, "1|Flopsy 🐇|2022-01-01|9.99|true"), 1);
    FT_EQ_INT(rows_has(&r, "2|Mopsy–Naïve|2022-01-01|-5.00|false"), 1);
    if (r.n != 4 || !rows_has(&r, "3|Cottontail|null|0.00|true"))
        rows_dump(&r);
    rows_free(&r);
    /* the renamed column filters by its new name, and prunes the null partition */
    o.filter = "event_date = '2022-01-01'";
    floe_scan_report rep;
    FT_OK(scan_fixture(&F_RENAME, &o, &r, &rep, NULL, 0));
    FT_EQ_INT((long)r.n, 2);
    FT_ASSERT(rep.data_files_skipped > 0);
    rows_free(&r);
    o.filter = "event_date IS NULL";
    FT_OK(scan_fixture(&F_RENAME, &o, &r, &rep, NULL, 0));
    FT_EQ_INT((long)r.n, 1);
    rows_free(&r);
}

static void test_partition_evolution(void)
{
    if (!ft_shared_dir())
        return;
    COUNT(F_PEVO, 5032402648663831776LL, 0);
    COUNT(F_PEVO, 6593870062034330780LL, 6);
    COUNT(F_PEVO, 240252726469419150LL, 7);
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_PEVO, &o, &r, NULL, NULL, 0));
    FT_EQ_INT(rows_has(&r, "3|2025-03-11|2.0"), 1);
    FT_EQ_INT(rows_has(&r, "1|2025-03-02|-50.0"), 1);
    if (rows_has(&r, "3|2025-03-11|2.0") != 1)
        rows_dump(&r);
    rows_free(&r);
}

static void test_bucket_partitioning(void)
{
    if (!ft_shared_dir())
        return;
    COUNT(F_BUCKET, 8928121299234260333LL, 0);
    COUNT(F_BUCKET, 8499397478161915471LL, 1);
    /* bucket pruning: the row's string hashes to bucket 13 */
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows r = {0, NULL, 0};
    floe_scan_report rep;
    o.filter = "col_string = 'other-string'";
    FT_OK(scan_fixture(&F_BUCKET, &o, &r, &rep, NULL, 0));
    FT_EQ_INT((long)r.n, 0);
    rows_free(&r);
    o.filter = "col_string = 'some-string'";
    FT_OK(scan_fixture(&F_BUCKET, &o, &r, &rep, NULL, 0));
    FT_EQ_INT((long)r.n, 1);
    rows_free(&r);
}

static void test_all_types(void)
{
    if (!ft_shared_dir())
        return;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_ALLTYPES, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 1);
    rows_free(&r);
}

static void test_hive_partition_values(void)
{
    if (!ft_shared_dir())
        return;
    COUNT(F_HIVE, 2541674261311761067LL, 2);
    COUNT(F_HIVE, 5128628767169163501LL, 6);
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    const char *cols[] = {"event_date", "user_id", "event_type"};
    o.columns = cols;
    o.ncolumns = 3;
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_HIVE, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 6);
    static const char *want[] = {"2024-01-01|12345|click",   "2024-01-02|67890|purchase",
                                 "2024-01-03|13579|view",    "2024-01-03|24680|click",
                                 "2024-01-04|86420|view",    "2024-01-04|97531|purchase"};
    bool all = true;
    for (size_t i = 0; i < FT_N(want); i++)
        if (rows_has(&r, want[i]) != 1) {
            ft_fail(__FILE__, __LINE__, "missing row %s", want[i]);
            all = false;
        }
    if (!all)
        rows_dump(&r);
    rows_free(&r);
    /* a filter on a partition column whose values come from the manifest */
    o.filter = "event_type = 'view'";
    floe_scan_report rep;
    FT_OK(scan_fixture(&F_HIVE, &o, &r, &rep, NULL, 0));
    FT_EQ_INT((long)r.n, 2);
    rows_free(&r);
}

static void test_column_defaults(void)
{
    if (!ft_shared_dir())
        return;
    COUNT(F_DEFAULTS, 8904642012249016277LL, 2);
    COUNT(F_DEFAULTS, 1915606074736806848LL, 3);
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    const char *cols[] = {"col_boolean", "col_integer", "col_long", "col_string", "col_decimal",
                          "col_date"};
    o.columns = cols;
    o.ncolumns = 6;
    rows r = {0, NULL, 0};
    char err[512] = "";
    int rc = scan_fixture(&F_DEFAULTS, &o, &r, NULL, err, sizeof err);
    if (rc) {
        ft_fail(__FILE__, __LINE__, "rc %d %s", rc, err);
        return;
    }
    FT_EQ_INT((long)r.n, 3);
    FT_EQ_INT(rows_has(&r, "true|342342|-9223372036854775808|HELLO|12345.00|2003-10-20"), 2);
    FT_EQ_INT(rows_has(&r, "false|453243|328725092345834|World|3423434.23|0011-03-05"), 1);
    if (r.n != 3 || rows_has(&r, "true|342342|-9223372036854775808|HELLO|12345.00|2003-10-20") != 2)
        rows_dump(&r);
    rows_free(&r);
    /* every added column, PROVENANCE.md's expected values (the table's
     * timestamptz printed in UTC, uuid canonical, fixed/binary as hex) */
    const char *all[] = {"col_boolean", "col_integer", "col_long", "col_float", "col_double",
                         "col_decimal", "col_date", "col_time", "col_timestamp",
                         "col_timestamptz", "col_string", "col_uuid", "col_fixed", "col_binary"};
    o.columns = all;
    o.ncolumns = FT_N(all);
    rc = scan_fixture(&F_DEFAULTS, &o, &r, NULL, err, sizeof err);
    if (rc) {
        ft_fail(__FILE__, __LINE__, "rc %d %s", rc, err);
        return;
    }
    static const char want[] =
        "true|342342|-9223372036854775808|0.34234|0.342343242342342|12345.00|2003-10-20|"
        "00:00:00.012345|1970-01-01T00:00:00.012345|1970-01-01T00:00:00.012345+00:00|HELLO|"
        "f79c3e09-677c-4bbd-a479-3f349cb785e7|010203ff03|0102";
    FT_EQ_INT(rows_has(&r, want), 2);
    if (rows_has(&r, want) != 2)
        rows_dump(&r);
    rows_free(&r);
}

static void test_lineitem_v1_gzip(void)
{
    if (!ft_shared_dir())
        return;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    const char *cols[] = {"l_orderkey"};
    o.columns = cols;
    o.ncolumns = 1;
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_LINEITEM, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 111968);
    rows_free(&r);
}

static void test_v1_legacy_fields(void)
{
    if (!ft_shared_dir())
        return;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_V1LEGACY, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 3);
    rows_free(&r);
    o.filter = "category = 'beta'";
    floe_scan_report rep;
    FT_OK(scan_fixture(&F_V1LEGACY, &o, &r, &rep, NULL, 0));
    FT_EQ_INT((long)r.n, 1);
    if (r.n == 1)
        FT_ASSERT(strstr(r.row[0], "beta") != NULL);
    FT_EQ_INT(rep.data_files_skipped, rep.data_files_total - 1);
    rows_free(&r);
}

static void test_deletion_vectors(void)
{
    if (!ft_shared_dir())
        return;
    COUNT(F_DV, 4848311183447800628LL, 0);
    COUNT(F_DV, 9085912707585491401LL, 8);
    COUNT(F_DV, 3380748922981262035LL, 5);
    COUNT(F_DV, 7026943662205930455LL, 13);
    COUNT(F_DV, 7777310120628922486LL, 8);
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows r = {0, NULL, 0};
    floe_scan_report rep;
    FT_OK(scan_fixture(&F_DV, &o, &r, &rep, NULL, 0));
    static const char *want[] = {"2|2314",    "5|12831", "8|12318231", "9|999",
                                 "11|11",     "12|1212", "14|91121",   "15|182222"};
    FT_EQ_INT((long)r.n, 8);
    for (size_t i = 0; i < FT_N(want); i++)
        FT_EQ_INT(rows_has(&r, want[i]), 1);
    if (r.n != 8)
        rows_dump(&r);
    FT_EQ_INT(rep.tasks, 2);
    FT_EQ_INT(rep.delete_files_applied, 2);
    rows_free(&r);
}

/* v3 row lineage on Trino's table (PROVENANCE.md: two appends of 8 rows,
 * snapshots at sequence numbers 2 and 4 with first-row-id 0 and 8; Trino
 * writes no lineage columns, so both are inherited): _row_id is the file's
 * first_row_id + _pos (counted before the deletion vectors), and
 * _last_updated_sequence_number its data sequence number. */
static void test_row_lineage_inherited(void)
{
    if (!ft_shared_dir())
        return;
    static const char *const cols[] = {"_pos", "_row_id", "_last_updated_sequence_number"};
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = FT_N(cols);
    o.threads = 1;
    o.has_snapshot_id = true;
    o.snapshot_id = 9085912707585491401LL; /* the first append alone */
    rows r = {0, NULL, 0};
    FT_OK(scan_fixture(&F_DV, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 8);
    for (size_t i = 0; i < r.n && i < 8; i++) {
        char want[64];
        snprintf(want, sizeof want, "%zu|%zu|2", i, i);
        FT_EQ_STR(r.row[i], want);
    }
    rows_free(&r);
    /* current: 8 rows left of 16 after the DVs; row ids unique and tied
     * to their file's sequence number */
    o.has_snapshot_id = false;
    FT_OK(scan_fixture(&F_DV, &o, &r, NULL, NULL, 0));
    FT_EQ_INT((long)r.n, 8);
    int seen[16] = {0}, deleted_first = 0;
    for (size_t i = 0; i < r.n; i++) {
        long pos = -1, id = -1, seq = -1;
        FT_EQ_INT(sscanf(r.row[i], "%ld|%ld|%ld", &pos, &id, &seq), 3);
        FT_ASSERT(seq == 2 || seq == 4);
        FT_EQ_INT(id, (seq == 2 ? 0 : 8) + pos);
        if (id >= 0 && id < 16)
            seen[id]++;
        deleted_first += pos == 0 && seq == 2; /* the first DV deleted position 0 */
    }
    for (size_t i = 0; i < 16; i++)
        FT_ASSERT(seen[i] <= 1);
    FT_EQ_INT(deleted_first, 0);
    rows_free(&r);
}

static void test_unknown_snapshot_and_ref(void)
{
    if (!ft_shared_dir())
        return;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.has_snapshot_id = true;
    o.snapshot_id = 42;
    rows r = {0, NULL, 0};
    char err[1024] = "";
    FT_EQ_INT(scan_fixture(&F_SPARK_BUNNIES, &o, &r, NULL, err, sizeof err), FLOE_ENOTFOUND);
    FT_ASSERT(strstr(err, "Cannot find snapshot with ID 42") != NULL);
    floe_scan_options q = FLOE_SCAN_OPTIONS_INIT;
    q.ref = "nope";
    FT_EQ_INT(scan_fixture(&F_SPARK_BUNNIES, &q, &r, NULL, err, sizeof err), FLOE_ENOTFOUND);
    q.ref = "main";
    FT_OK(scan_fixture(&F_SPARK_BUNNIES, &q, &r, NULL, err, sizeof err));
    FT_EQ_INT((long)r.n, 20);
    rows_free(&r);
}

/* A data file gone from under a scan: the Arrow stream fails with an errno
 * and "<code name>: <message>"; floe__scan_stream_error gives back the
 * FLOE_E* code and the message (what the SQL layer raises). */
static void test_stream_error_code(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    char *out = NULL;
    FT_EQ_INT(ft_run(&out, "cp -r '%s/fixtures/%s/metadata' '%s/'", sh, F_SPARK_BUNNIES.dir,
                     ft_tmpdir()),
              0);
    free(out);
    floe_fileio *io = fixture_io(F_SPARK_BUNNIES.location, ft_tmpdir());
    FT_ASSERT(io != NULL);
    char meta[2048];
    snprintf(meta, sizeof meta, "%s/metadata/%s", ft_tmpdir(), F_SPARK_BUNNIES.metadata);
    floe_scan *sc = NULL;
    FT_OK(floe_scan_open(&sc, io, meta, NULL));
    struct ArrowArrayStream st;
    FT_OK(floe_scan_to_stream(&st, sc));
    FT_EQ_INT(floe__scan_stream_error(&st, "probe"), 0); /* nothing failed yet */
    struct ArrowArray a;
    FT_CHECK(st.get_next(&st, &a) != 0);
    const char *text = st.get_last_error(&st);
    FT_CHECK(text && strncmp(text, "FLOE_ENOTFOUND: ", 16) == 0);
    floe_error_clear();
    FT_EQ_INT(floe__scan_stream_error(&st, "probe"), FLOE_ENOTFOUND);
    const floe_error *e = floe_error_last();
    FT_ASSERT(e != NULL && text != NULL);
    FT_EQ_STR(e->message, text + 16);
    FT_EQ_STR(e->subsystem, "probe");
    st.release(&st);
    /* a stream floe's scan did not make is left to its own error text */
    struct ArrowArrayStream other = {0};
    FT_EQ_INT(floe__scan_stream_error(&other, "probe"), 0);
    floe_scan_free(sc);
    floe_fileio_free(io);
}

static const ft_case cases[] = {
    {"stream_error_code", test_stream_error_code},
    {"spark_bunnies", test_spark_bunnies},
    {"spark_bunnies_projection_by_spaced_name", test_spark_bunnies_projection_by_spaced_name},
    {"java_bunnies", test_java_bunnies},
    {"rename_column", test_rename_column},
    {"partition_evolution", test_partition_evolution},
    {"bucket_partitioning", test_bucket_partitioning},
    {"all_types", test_all_types},
    {"hive_partition_values", test_hive_partition_values},
    {"column_defaults", test_column_defaults},
    {"lineitem_v1_gzip", test_lineitem_v1_gzip},
    {"v1_legacy_fields", test_v1_legacy_fields},
    {"deletion_vectors", test_deletion_vectors},
    {"row_lineage_inherited", test_row_lineage_inherited},
    {"unknown_snapshot_and_ref", test_unknown_snapshot_and_ref},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
