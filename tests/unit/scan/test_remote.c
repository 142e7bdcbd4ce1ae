/* SPDX-License-Identifier: Apache-2.0 */
/* scan/remote: server-side planning responses read into a plan (files,
 * delete files and their references, partition values typed by the spec,
 * residuals) and written back to the same wire form; malformed responses
 * are FLOE_EINVALID with a message naming the problem. */
#include "harness.h"
#include "expr/expr.h"
#include "scan/scan.h"
#include "spec/metadata.h"

#include <string.h>

static const char META[] =
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
    "\"location\":\"mem://wh/t\",\"last-sequence-number\":1,\"last-updated-ms\":1,"
    "\"last-column-id\":3,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
    "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"region\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":3,\"name\":\"d\",\"required\":false,\"type\":\"date\"}]}],\"default-spec-id\":1,"
    "\"partition-specs\":[{\"spec-id\":0,\"fields\":[]},{\"spec-id\":1,\"fields\":["
    "{\"source-id\":2,\"field-id\":1000,\"name\":\"region\",\"transform\":\"identity\"},"
    "{\"source-id\":3,\"field-id\":1001,\"name\":\"d_day\",\"transform\":\"day\"}]}],"
    "\"last-partition-id\":1001,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,"
    "\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":-1,\"snapshots\":[],"
    "\"snapshot-log\":[],\"metadata-log\":[]}";

/* Two chunks of one plan: a data file with a position delete, one with an
 * equality delete shared by the next chunk's file. */
static const char CHUNK1[] =
    "{\"status\":\"completed\",\"plan-id\":\"p1\",\"plan-tasks\":[\"p1:1\"],"
    "\"delete-files\":[{\"spec-id\":1,\"content\":\"position-deletes\",\"file-path\":"
    "\"mem://wh/t/pd.parquet\",\"file-format\":\"parquet\",\"partition\":[\"eu\",\"2026-09-20\"],"
    "\"file-size-in-bytes\":10,\"record-count\":1,\"referenced-data-file\":\"mem://wh/t/a.parquet\"},"
    "{\"spec-id\":0,\"content\":\"equality-deletes\",\"file-path\":\"mem://wh/t/eq.parquet\","
    "\"file-format\":\"parquet\",\"partition\":[],\"file-size-in-bytes\":11,\"record-count\":2,"
    "\"equality-ids\":[1]}],"
    "\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":1,\"content\":\"data\",\"file-path\":"
    "\"mem://wh/t/a.parquet\",\"file-format\":\"parquet\",\"partition\":[\"eu\",\"2026-09-20\"],"
    "\"file-size-in-bytes\":100,\"record-count\":5},\"delete-file-references\":[0,1],"
    "\"residual-filter\":{\"type\":\"gt\",\"term\":\"id\",\"value\":3}}]}";
static const char CHUNK2[] =
    "{\"delete-files\":[{\"spec-id\":0,\"content\":\"equality-deletes\",\"file-path\":"
    "\"mem://wh/t/eq.parquet\",\"file-format\":\"parquet\",\"partition\":[],"
    "\"file-size-in-bytes\":11,\"record-count\":2,\"equality-ids\":[1]}],"
    "\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":0,\"content\":\"data\",\"file-path\":"
    "\"mem://wh/t/b.parquet\",\"file-format\":\"parquet\",\"partition\":[],"
    "\"file-size-in-bytes\":7,\"record-count\":3,\"first-row-id\":40},"
    "\"delete-file-references\":[0],\"residual-filter\":true}]}";

static floe_table_metadata *meta(void)
{
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, META, strlen(META), "test") < 0)
        ft_fail(__FILE__, __LINE__, "metadata: %s", ft_floe_err());
    return m;
}

static void test_read_and_write(void)
{
    floe_table_metadata *m = meta();
    if (!m)
        return;
    const char *bodies[] = {CHUNK1, CHUNK2};
    size_t lens[] = {strlen(CHUNK1), strlen(CHUNK2)};
    floe_arena *a = floe__arena_new(1024);
    const floe_expr *filter = NULL;
    static const char f[] = "{\"type\":\"not-null\",\"term\":\"region\"}";
    FT_OK(floe_expr_parse_json(&filter, a, f, strlen(f), NULL, true));
    floe_scan_plan *p = NULL;
    FT_OK(floe__scan_plan_from_responses(&p, m, NULL, NULL, filter, true, bodies, lens, 2));
    if (p) {
        FT_EQ_INT(p->ntasks, 2);
        FT_EQ_INT(p->report.records_planned, 8);
        FT_EQ_INT(p->report.delete_files_applied, 2); /* eq.parquet counted once */
        const floe_scan_task *t0 = &p->tasks[0], *t1 = &p->tasks[1];
        FT_EQ_STR(t0->file->path, "mem://wh/t/a.parquet");
        FT_EQ_STR(t0->file->format, "PARQUET");
        FT_EQ_INT(t0->ndeletes, 2);
        FT_EQ_STR(floe__scan_delete_info(t0->deletes[0])->referenced_data_file,
                  "mem://wh/t/a.parquet");
        FT_EQ_INT(floe__scan_delete_info(t0->deletes[1])->nequality_ids, 1);
        FT_EQ_INT(t0->file->partition.n, 2);
        FT_EQ_INT(t0->file->partition.values[1].type, FLOE_T_DATE); /* day(d) is a date */
        FT_EQ_INT(t0->file->partition.values[1].v.i32, 20716);
        FT_EQ_INT(t1->file->first_row_id, 40);
        floe_buf txt = FLOE_BUF_INIT;
        FT_OK(floe_expr_format(t0->residual, &txt));
        FT_EQ_STR(txt.ptr, "id > 3");
        floe__buf_free(&txt);
        FT_OK(floe_expr_format(t1->residual, &txt)); /* `true` from the server */
        FT_EQ_STR(txt.ptr, "true");
        floe__buf_free(&txt);
        /* and back: the second chunk's wire form is what came in (the
         * residual written as the bound `true`) */
        floe_buf out = FLOE_BUF_INIT;
        FT_OK(floe__scan_tasks_to_json(p, 1, 1, &out));
        char want[sizeof CHUNK2];
        memcpy(want, CHUNK2 + 1, sizeof CHUNK2 - 3); /* without the braces */
        want[sizeof CHUNK2 - 3] = '\0';
        FT_EQ_STR(out.ptr, want);
        floe__buf_free(&out);
    }
    floe__scan_plan_free(p);
    floe__arena_free(a);
    floe__metadata_free(m);
}

static void test_malformed(void)
{
    floe_table_metadata *m = meta();
    if (!m)
        return;
    static const struct {
        const char *body, *msg;
    } bad[] = {
        {"[]", "not an object"},
        {"{\"file-scan-tasks\":{}}", "file-scan-tasks must be an array"},
        {"{\"delete-files\":[{}]}", "deleteFiles should only be returned with fileScanTasks"},
        {"{\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":9,\"content\":\"data\"}}]}",
         "unknown spec-id"},
        {"{\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":0,\"content\":\"position-deletes\","
         "\"file-path\":\"x\",\"file-format\":\"parquet\",\"file-size-in-bytes\":1,"
         "\"record-count\":1}}]}",
         "a data-file of delete content"},
        {"{\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":0,\"content\":\"data\","
         "\"file-path\":\"x\",\"file-format\":\"parquet\",\"record-count\":1}}]}",
         "missing field: file-size-in-bytes"},
        {"{\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":1,\"content\":\"data\","
         "\"file-path\":\"x\",\"file-format\":\"parquet\",\"partition\":[\"eu\"],"
         "\"file-size-in-bytes\":1,\"record-count\":1}}]}",
         "partition data size differs"},
        {"{\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":0,\"content\":\"data\","
         "\"file-path\":\"x\",\"file-format\":\"parquet\",\"file-size-in-bytes\":1,"
         "\"record-count\":1},\"delete-file-references\":[0]}]}",
         "Invalid delete file references"},
        {"{\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":0,\"content\":\"fancy\"}}]}",
         "invalid file content value: fancy"},
        {"{\"file-scan-tasks\":[{\"data-file\":{\"spec-id\":0,\"content\":\"data\","
         "\"file-path\":\"x\",\"file-format\":\"parquet\",\"file-size-in-bytes\":1,"
         "\"record-count\":1},\"residual-filter\":{\"type\":\"eq\",\"term\":\"zz\",\"value\":1}}]}",
         "Cannot find field 'zz'"},
    };
    for (size_t i = 0; i < FT_N(bad); i++) {
        floe_scan_plan *p = NULL;
        size_t len = strlen(bad[i].body);
        FT_CHECK(floe__scan_plan_from_responses(&p, m, NULL, NULL, NULL, true, &bad[i].body,
                                                &len, 1) == FLOE_EINVALID);
        FT_ERR_CONTAINS(bad[i].msg);
        FT_CHECK(p == NULL);
    }
    floe__metadata_free(m);
}

static const ft_case cases[] = {
    {"read_and_write", test_read_and_write},
    {"malformed", test_malformed},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
