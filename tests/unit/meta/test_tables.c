/* SPDX-License-Identifier: Apache-2.0 */
/* meta: snapshots, history, refs and metadata_log_entries over the seed's
 * script-1 history (3 appends, rollback, set-current back and forth), with
 * Spark's column names and order. */
#include "fixture.h"

static floe_rowsource *open_table(const char *name, const floe_table_metadata *m, int file_no)
{
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    o.metadata_location = meta_file(file_no);
    floe_rowsource *rs = NULL;
    if (floe__meta_open(&rs, name, &o) < 0)
        ft_fail(__FILE__, __LINE__, "open %s: %s", name, ft_floe_err());
    return rs;
}

/* Column names from the Iceberg docs (spark-queries.md "Inspecting tables")
 * and Java's SnapshotsTable/HistoryTable/RefsTable/MetadataLogEntriesTable. */
static void test_column_names(void)
{
    static const struct {
        const char *table, *columns;
    } want[] = {
        {"snapshots", "committed_at,snapshot_id,parent_id,operation,manifest_list,summary"},
        {"history", "made_current_at,snapshot_id,parent_id,is_current_ancestor"},
        {"refs", "name,type,snapshot_id,max_reference_age_in_ms,min_snapshots_to_keep,"
                 "max_snapshot_age_in_ms"},
        {"metadata_log_entries",
         "timestamp,file,latest_snapshot_id,latest_schema_id,latest_sequence_number"},
    };
    floe_table_metadata *m = script1(6);
    FT_ASSERT(m);
    for (size_t i = 0; i < FT_N(want); i++) {
        floe_rowsource *rs = open_table(want[i].table, m, 6);
        FT_ASSERT(rs);
        char *names = column_names(rs);
        FT_EQ_STR(names, want[i].columns);
        FT_EQ_STR(rs->name, want[i].table);
        floe__free(names);
        floe__rs_free(rs);
    }
    floe__metadata_free(m);
}

static void test_history_after_rollback(void)
{
    floe_table_metadata *m = script1(4);
    FT_ASSERT(m);
    floe_rowsource *rs = open_table("history", m, 4);
    FT_ASSERT(rs);
    size_t n;
    char *rows = drain(rs, NULL, 0, &n);
    FT_ASSERT(rows);
    FT_EQ_INT(n, 4);
    FT_EQ_STR(rows, "2026-09-28 13:15:19.839000|3657524344527679724|null|true\n"
                    "2026-09-28 13:15:22.058000|5270420720687731067|3657524344527679724|true\n"
                    "2026-09-28 13:15:26.352000|23499723825440384|5270420720687731067|false\n"
                    "2026-09-28 13:15:30.086000|5270420720687731067|3657524344527679724|true\n");
    floe__free(rows);
    floe__rs_free(rs);
    floe__metadata_free(m);
}

static void test_history_back_and_forth(void)
{
    floe_table_metadata *m = script1(6);
    FT_ASSERT(m);
    floe_rowsource *rs = open_table("history", m, 6);
    FT_ASSERT(rs);
    size_t n;
    char *rows = drain(rs, NULL, 0, &n);
    FT_ASSERT(rows);
    FT_EQ_INT(n, 6);
    /* S3 appears twice, never an ancestor of main (S2) */
    FT_CHECK(strstr(rows, "|23499723825440384|5270420720687731067|false\n") != NULL);
    FT_CHECK(strstr(rows, "2026-09-28 13:15:31.000000|23499723825440384|"
                          "5270420720687731067|false\n") != NULL);
    FT_CHECK(strstr(rows, "2026-09-28 13:15:32.000000|5270420720687731067|"
                          "3657524344527679724|true\n") != NULL);
    floe__free(rows);
    floe__rs_free(rs);

    /* with main on S3, S3's row flips */
    floe_table_metadata *m5 = script1(5);
    FT_ASSERT(m5);
    rs = open_table("history", m5, 5);
    rows = drain(rs, NULL, 0, &n);
    FT_ASSERT(rows);
    FT_EQ_INT(n, 5);
    FT_CHECK(strstr(rows, "|23499723825440384|5270420720687731067|true\n") != NULL);
    FT_CHECK(strstr(rows, "false") == NULL);
    floe__free(rows);
    floe__rs_free(rs);
    floe__metadata_free(m5);
    floe__metadata_free(m);
}

static void test_snapshots(void)
{
    floe_table_metadata *m = script1(6);
    FT_ASSERT(m);
    floe_rowsource *rs = open_table("snapshots", m, 6);
    FT_ASSERT(rs);
    size_t n;
    char *rows = drain(rs, NULL, 0, &n);
    FT_ASSERT(rows);
    FT_EQ_INT(n, 3);
    /* summary is a map without "operation", in file order */
    FT_EQ_STR(strchr(rows, '\n') + 1,
              "2026-09-28 13:15:22.058000|5270420720687731067|3657524344527679724|append|" LOC
              "/metadata/snap-5270420720687731067-1-x.avro|{\"spark.app.id\":\"local-1\","
              "\"added-data-files\":\"1\",\"added-records\":\"1\",\"total-records\":\"3\"}\n"
              "2026-09-28 13:15:26.352000|23499723825440384|5270420720687731067|append|" LOC
              "/metadata/snap-23499723825440384-1-x.avro|{\"spark.app.id\":\"local-1\","
              "\"added-data-files\":\"1\",\"added-records\":\"2\",\"total-records\":\"5\"}\n");
    FT_CHECK(strncmp(rows, "2026-09-28 13:15:19.839000|3657524344527679724|null|append|", 59) == 0);
    floe__free(rows);
    floe__rs_free(rs);
    floe__metadata_free(m);
}

static void test_refs(void)
{
    floe_table_metadata *m = script1(6);
    FT_ASSERT(m);
    floe_rowsource *rs = open_table("refs", m, 6);
    FT_ASSERT(rs);
    size_t n;
    char *rows = drain(rs, NULL, 0, &n);
    FT_ASSERT(rows);
    FT_EQ_INT(n, 1);
    FT_EQ_STR(rows, "main|BRANCH|5270420720687731067|null|null|null\n");
    floe__free(rows);
    floe__rs_free(rs);
    floe__metadata_free(m);

    /* a tag with retention, a branch with snapshot retention */
    m = script1(3);
    FT_ASSERT(m);
    floe_metadata_builder *b;
    FT_OK(floe__metadata_builder_new(&b, m, meta_file(3)));
    floe_snapshot_ref tag = {.name = "month_end",
                             .snapshot_id = S1,
                             .type = FLOE_REF_TAG,
                             .has_max_ref_age_ms = true,
                             .max_ref_age_ms = 10};
    floe_snapshot_ref br = {.name = "audit",
                            .snapshot_id = S2,
                            .type = FLOE_REF_BRANCH,
                            .has_min_snapshots_to_keep = true,
                            .min_snapshots_to_keep = 20,
                            .has_max_snapshot_age_ms = true,
                            .max_snapshot_age_ms = 30};
    FT_OK(floe__mb_set_snapshot_ref(b, &tag));
    FT_OK(floe__mb_set_snapshot_ref(b, &br));
    floe_table_metadata *m2;
    FT_OK(floe__metadata_builder_build(b, T4, &m2));
    floe__metadata_builder_free(b);
    rs = open_table("refs", m2, 4);
    rows = drain(rs, NULL, 0, &n);
    FT_ASSERT(rows);
    FT_EQ_INT(n, 3);
    FT_CHECK(strstr(rows, "month_end|TAG|3657524344527679724|10|null|null\n") != NULL);
    FT_CHECK(strstr(rows, "audit|BRANCH|5270420720687731067|null|20|30\n") != NULL);
    FT_CHECK(strstr(rows, "main|BRANCH|23499723825440384|null|null|null\n") != NULL);
    floe__free(rows);
    floe__rs_free(rs);
    floe__metadata_free(m2);
    floe__metadata_free(m);
}

static void test_metadata_log_entries(void)
{
    floe_table_metadata *m = script1(6);
    FT_ASSERT(m);
    floe_rowsource *rs = open_table("metadata_log_entries", m, 6);
    FT_ASSERT(rs);
    size_t n;
    char *rows = drain(rs, NULL, 0, &n);
    FT_ASSERT(rows);
    FT_EQ_INT(n, 7);
    char want[4096];
    snprintf(want, sizeof want,
             "2026-09-28 13:15:00.000000|%s|null|null|null\n"
             "2026-09-28 13:15:19.839000|%s|3657524344527679724|0|1\n"
             "2026-09-28 13:15:22.058000|%s|5270420720687731067|0|2\n"
             "2026-09-28 13:15:26.352000|%s|23499723825440384|0|3\n"
             "2026-09-28 13:15:30.086000|%s|5270420720687731067|0|2\n"
             "2026-09-28 13:15:31.000000|%s|23499723825440384|0|3\n"
             "2026-09-28 13:15:32.000000|%s|5270420720687731067|0|2\n",
             meta_file(0), meta_file(1), meta_file(2), meta_file(3), meta_file(4), meta_file(5),
             meta_file(6));
    FT_EQ_STR(rows, want);
    floe__free(rows);
    floe__rs_free(rs);

    /* without a current location the current row is left out */
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    FT_OK(floe__meta_open(&rs, "metadata_log_entries", &o));
    rows = drain(rs, NULL, 0, &n);
    FT_EQ_INT(n, 6);
    floe__free(rows);
    floe__rs_free(rs);
    floe__metadata_free(m);
}

static void test_errors(void)
{
    floe_table_metadata *m = script1(3);
    FT_ASSERT(m);
    floe_meta_options o = FLOE_META_OPTIONS_INIT;
    o.metadata = m;
    floe_rowsource *rs = NULL;
    FT_EQ_INT(floe__meta_open(&rs, "snapshotz", &o), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Unknown metadata table: snapshotz");
    o.has_snapshot_id = true;
    o.snapshot_id = S1;
    FT_EQ_INT(floe__meta_open(&rs, "history", &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot select snapshot in table: HISTORY");
    FT_EQ_INT(floe__meta_open(&rs, "all_data_files", &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("ALL_DATA_FILES");
    o.snapshot_id = 42;
    FT_EQ_INT(floe__meta_open(&rs, "files", &o), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Cannot find snapshot with ID 42");
    FT_CHECK(rs == NULL);
    FT_CHECK(floe__meta_supports_time_travel("partitions"));
    FT_CHECK(!floe__meta_supports_time_travel("all_entries"));
    floe__metadata_free(m);
}

/* Every allocation failing in turn: FLOE_ENOMEM or success, no leak. */
static void test_out_of_memory(void)
{
    floe_table_metadata *m = script1(6);
    FT_ASSERT(m);
    static const char *const names[] = {"snapshots", "history", "refs", "metadata_log_entries"};
    for (size_t t = 0; t < FT_N(names); t++) {
        for (long nth = 1; nth < 200; nth++) {
            floe_meta_options o = FLOE_META_OPTIONS_INIT;
            o.metadata = m;
            o.metadata_location = "x.metadata.json";
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
                ft_fail(__FILE__, __LINE__, "%s nth %ld: %d", names[t], nth, rc);
                break;
            }
        }
    }
    floe__metadata_free(m);
}

static const ft_case cases[] = {
    {"column_names", test_column_names},
    {"history_after_rollback", test_history_after_rollback},
    {"history_back_and_forth", test_history_back_and_forth},
    {"snapshots", test_snapshots},
    {"refs", test_refs},
    {"metadata_log_entries", test_metadata_log_entries},
    {"errors", test_errors},
    {"out_of_memory", test_out_of_memory},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
