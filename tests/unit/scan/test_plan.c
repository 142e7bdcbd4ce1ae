/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scan planning on tables written here with the real writers: manifest and
 * file pruning asserted through the plan report, identical rows with and
 * without pruning, current vs pinned snapshot, delete pairing by partition
 * and sequence number, the textual filter, and allocation failures.
 */
#include "gentable.h"
#include "scanutil.h"

#include "expr/expr.h"
#include "floe/catalog.h"
#include "floe/table.h"

#include <stdlib.h>
#include <unistd.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int scan_dir(const char *dir, floe_scan_options *o, rows *out, floe_scan_report *rep)
{
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v%d.metadata.json", dir, 1);
    floe_fileio *io;
    FLOE_TRY(floe_fileio_open(&io, "file", NULL));
    floe_scan *s;
    int rc = floe_scan_open(&s, io, meta, o);
    if (rc == 0) {
        if (rep)
            *rep = *floe_scan_get_report(s);
        struct ArrowArrayStream st;
        if ((rc = floe_scan_to_stream(&st, s)) == 0) {
            char err[512];
            rc = drain(&st, out, err, sizeof err);
            if (rc)
                fprintf(stderr, "stream: %s\n", err);
            st.release(&st);
        }
        floe_scan_free(s);
    }
    floe_fileio_free(io);
    if (out->n)
        qsort(out->row, out->n, sizeof(char *), cmp_str);
    return rc;
}

static void test_partition_pruning(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 4, 3, 10, true, true));
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows all = {0, NULL, 0}, r = {0, NULL, 0}, np = {0, NULL, 0};
    floe_scan_report rep;
    FT_OK(scan_dir(dir, &o, &all, &rep));
    FT_EQ_INT((long)all.n, 120);
    FT_EQ_INT(rep.manifests_total, 4);
    FT_EQ_INT(rep.manifests_skipped, 0);
    FT_EQ_INT(rep.data_files_total, 12);
    FT_EQ_INT(rep.tasks, 12);
    /* partition column: 3 of 4 manifests skipped by summaries */
    o.filter = "cat = 'c00002'";
    FT_OK(scan_dir(dir, &o, &r, &rep));
    FT_EQ_INT((long)r.n, 30);
    FT_EQ_INT(rep.manifests_skipped, 3);
    FT_EQ_INT(rep.data_files_total, 3);
    FT_EQ_INT(rep.tasks, 3);
    o.no_pruning = true;
    FT_OK(scan_dir(dir, &o, &np, &rep));
    FT_EQ_INT(rep.manifests_skipped, 0);
    FT_EQ_INT(rep.tasks, 12);
    FT_EQ_INT((long)np.n, (long)r.n);
    for (size_t i = 0; i < r.n && i < np.n; i++)
        FT_EQ_STR(r.row[i], np.row[i]);
    rows_free(&r);
    rows_free(&np);
    /* non-partition column: files skipped by metrics (ids 35..44 live in files 3 and 4) */
    o.no_pruning = false;
    o.filter = "id >= 35 AND id < 45";
    FT_OK(scan_dir(dir, &o, &r, &rep));
    FT_EQ_INT((long)r.n, 10);
    FT_EQ_INT(rep.manifests_skipped, 0);
    FT_EQ_INT(rep.data_files_skipped, 10);
    FT_EQ_INT(rep.tasks, 2);
    o.no_pruning = true;
    FT_OK(scan_dir(dir, &o, &np, &rep));
    FT_EQ_INT(rep.tasks, 12);
    FT_EQ_INT((long)np.n, 10);
    for (size_t i = 0; i < r.n && i < np.n; i++)
        FT_EQ_STR(r.row[i], np.row[i]);
    rows_free(&r);
    rows_free(&np);
    /* OR across partition and data columns; IN; NOT */
    o.no_pruning = false;
    o.filter = "cat IN ('c00000', 'c00003') AND NOT (v < 25) OR id = 119";
    FT_OK(scan_dir(dir, &o, &r, &rep));
    o.no_pruning = true;
    FT_OK(scan_dir(dir, &o, &np, &rep));
    FT_EQ_INT((long)r.n, (long)np.n);
    FT_EQ_INT((long)r.n, 5 + 30);
    rows_free(&r);
    rows_free(&np);
    rows_free(&all);
}

static void test_current_vs_pinned(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 3, 2, 10, false, true));
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_scan *a, *b;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.filter = "cat > 'c00000'";
    FT_OK(floe_scan_open(&a, NULL, meta, &o));
    o.has_snapshot_id = true;
    o.snapshot_id = 1;
    FT_OK(floe_scan_open(&b, NULL, meta, &o));
    const floe_scan_report *ra = floe_scan_get_report(a), *rb = floe_scan_get_report(b);
    FT_EQ_INT(ra->snapshot_id, rb->snapshot_id);
    FT_EQ_INT(ra->manifests_skipped, rb->manifests_skipped);
    FT_EQ_INT(ra->manifests_skipped, 1);
    FT_EQ_INT(ra->data_files_total, rb->data_files_total);
    FT_EQ_INT(ra->tasks, rb->tasks);
    FT_EQ_INT((long)floe_scan_task_count(a), 4);
    for (size_t i = 0; i < floe_scan_task_count(a); i++)
        FT_EQ_STR(floe_scan_task_path(a, i), floe_scan_task_path(b, i));
    floe_scan_free(a);
    floe_scan_free(b);
}

static void test_filter_errors(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 1, 1, 0, false, true));
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_scan *s;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.filter = "nope = 1";
    FT_EQ_INT(floe_scan_open(&s, NULL, meta, &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot find field 'nope'");
    o.filter = "id = ";
    FT_EQ_INT(floe_scan_open(&s, NULL, meta, &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("filter syntax error at offset");
    o.filter = "id = 1 junk";
    FT_EQ_INT(floe_scan_open(&s, NULL, meta, &o), FLOE_EINVALID);
    o.filter = NULL;
    const char *cols[] = {"missing"};
    o.columns = cols;
    o.ncolumns = 1;
    FT_EQ_INT(floe_scan_open(&s, NULL, meta, &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot find column 'missing'");
}

/* ---------------------------------------------------------------- deletes */

static const char *POS_SCHEMA =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":2147483546,\"name\":\"file_path\",\"required\":true,\"type\":\"string\"},"
    "{\"id\":2147483545,\"name\":\"pos\",\"required\":true,\"type\":\"long\"}]}";
static const char *EQ_SCHEMA = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
                               "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

static floe_schema *parse_schema(floe_arena *a, const char *json)
{
    floe_json *j;
    floe_schema *s = NULL;
    if (floe__json_parse(&j, json, strlen(json), "t") < 0)
        return NULL;
    if (floe__schema_from_json(&s, j, 0, a) < 0)
        s = NULL;
    floe__json_free(j);
    return s;
}

typedef struct posrows {
    const char *const *paths;
    const int64_t *pos;
} posrows;

static int fill_pos(floe_arrow_builder *b, int64_t i, void *payload)
{
    const posrows *p = payload;
    floe_value v = floe_value_bytes(FLOE_T_STRING, p->paths[i], strlen(p->paths[i]));
    FLOE_TRY(floe__arrow_builder_append(b->children[0], &v));
    v = floe_value_long(p->pos[i]);
    return floe__arrow_builder_append(b->children[1], &v);
}

static int fill_eq(floe_arrow_builder *b, int64_t i, void *payload)
{
    floe_value v = floe_value_long(((const int64_t *)payload)[i]);
    return floe__arrow_builder_append(b->children[0], &v);
}

typedef struct fileinfo {
    char path[1200];
    const char *cat;
    int32_t content;
    floe_pq_metrics m;
    int32_t eq_id;
} fileinfo;

static void add_entry(floe_manifest_writer *w, fileinfo *f, floe_arena *a)
{
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_ADDED;
    e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    floe_data_file *df = &e.data_file;
    df->content = f->content;
    df->file_path = f->path;
    df->file_format = "PARQUET";
    floe_value pv = floe_value_bytes(FLOE_T_STRING, f->cat, strlen(f->cat));
    df->partition.n = 1;
    df->partition.values = &pv;
    df->block_size_in_bytes = -1;
    FT_OK(gt_metrics_to_entry(&f->m, a, df));
    if (f->content == FLOE_FILE_EQUALITY_DELETES) {
        df->has_equality_ids = true;
        df->nequality_ids = 1;
        df->equality_ids = &f->eq_id;
    }
    FT_OK(floe_manifest_writer_add(w, &e));
}

static void write_manifest(const char *path, int32_t content, int64_t snap, fileinfo *files,
                           size_t n, floe_manifest_file *mf, floe_manifest_writer **w)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_arena *a = floe__arena_new(4096);
    FT_OK(gt_manifest_new(w, &out, true, content, snap, path));
    for (size_t i = 0; i < n; i++)
        add_entry(*w, &files[i], a);
    FT_OK(floe_manifest_writer_finish(*w, mf));
    FT_OK(gt_write_bytes(path, out.ptr, out.len));
    floe__buf_free(&out);
    floe__arena_free(a);
}

static void test_delete_rules(void)
{
    const char *dir = ft_tmp("t");
    gt_mkdirs(dir);
    floe_arena *a = floe__arena_new(4096);
    const floe_schema *schema = gt_schema();
    floe_schema *pos_schema = parse_schema(a, POS_SCHEMA), *eq_schema = parse_schema(a, EQ_SCHEMA);
    FT_ASSERT(schema && pos_schema && eq_schema);
    /* snapshot 1 (seq 1): A in partition a (ids 0..9), B in b (ids 100..109) */
    fileinfo d1[2];
    memset(d1, 0, sizeof d1);
    snprintf(d1[0].path, sizeof d1[0].path, "%s/data/A.parquet", dir);
    snprintf(d1[1].path, sizeof d1[1].path, "%s/data/B.parquet", dir);
    d1[0].cat = "a";
    d1[1].cat = "b";
    gt_rows ra = {0, "a"}, rb = {100, "b"};
    FT_OK(gt_write_parquet(d1[0].path, schema, 10, gt_fill_rows, &ra, &d1[0].m));
    FT_OK(gt_write_parquet(d1[1].path, schema, 10, gt_fill_rows, &rb, &d1[1].m));
    /* snapshot 2 (seq 2): C in b (ids 105, 106) added with an equality delete
     * of id 105 and 107 in b (C's 105 survives: same sequence number), a
     * position delete in a naming A pos 1, 3 and B pos 0 (B is in another
     * partition: not applied) */
    fileinfo d2[1], del2[2];
    memset(d2, 0, sizeof d2);
    memset(del2, 0, sizeof del2);
    snprintf(d2[0].path, sizeof d2[0].path, "%s/data/C.parquet", dir);
    d2[0].cat = "b";
    gt_rows rc2 = {105, "b"};
    FT_OK(gt_write_parquet(d2[0].path, schema, 2, gt_fill_rows, &rc2, &d2[0].m));
    snprintf(del2[0].path, sizeof del2[0].path, "%s/data/pos.parquet", dir);
    del2[0].cat = "a";
    del2[0].content = FLOE_FILE_POSITION_DELETES;
    const char *pp[3] = {d1[0].path, d1[0].path, d1[1].path};
    const int64_t pps[3] = {1, 3, 0};
    posrows pr = {pp, pps};
    FT_OK(gt_write_parquet(del2[0].path, pos_schema, 3, fill_pos, &pr, &del2[0].m));
    snprintf(del2[1].path, sizeof del2[1].path, "%s/data/eq.parquet", dir);
    del2[1].cat = "b";
    del2[1].content = FLOE_FILE_EQUALITY_DELETES;
    del2[1].eq_id = 1;
    const int64_t eqv[2] = {105, 107};
    FT_OK(gt_write_parquet(del2[1].path, eq_schema, 2, fill_eq, (void *)eqv, &del2[1].m));

    char m1[1200], m2[1200], m3[1200], l1[1200], l2[1200], meta[1200];
    snprintf(m1, sizeof m1, "%s/metadata/m1.avro", dir);
    snprintf(m2, sizeof m2, "%s/metadata/m2.avro", dir);
    snprintf(m3, sizeof m3, "%s/metadata/m3.avro", dir);
    snprintf(l1, sizeof l1, "%s/metadata/snap-1.avro", dir);
    snprintf(l2, sizeof l2, "%s/metadata/snap-2.avro", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_manifest_file mf[3];
    floe_manifest_writer *w[3];
    write_manifest(m1, FLOE_MANIFEST_DATA, 1, d1, 2, &mf[0], &w[0]);
    FT_OK(gt_write_list(l1, 1, 1, mf, 1));
    mf[0].sequence_number = mf[0].min_sequence_number = 1;
    write_manifest(m2, FLOE_MANIFEST_DATA, 2, d2, 1, &mf[1], &w[1]);
    write_manifest(m3, FLOE_MANIFEST_DELETES, 2, del2, 2, &mf[2], &w[2]);
    FT_OK(gt_write_list(l2, 2, 2, mf, 3));
    int64_t ids[2] = {1, 2};
    const char *lists[2] = {l1, l2};
    FT_OK(gt_write_metadata(meta, dir, true, 2, ids, lists));

    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    const char *cols[] = {"id"};
    o.columns = cols;
    o.ncolumns = 1;
    rows r = {0, NULL, 0};
    floe_scan_report rep;
    o.has_snapshot_id = true;
    o.snapshot_id = 1;
    FT_OK(scan_dir(dir, &o, &r, &rep));
    FT_EQ_INT((long)r.n, 20);
    rows_free(&r);
    o.has_snapshot_id = false;
    FT_OK(scan_dir(dir, &o, &r, &rep));
    /* A: 10 - 2; B: 10 - 2 (105, 107); C: 2 (105 and 106 survive) */
    FT_EQ_INT((long)r.n, 18);
    FT_EQ_INT(rows_has(&r, "1"), 0);
    FT_EQ_INT(rows_has(&r, "3"), 0);
    FT_EQ_INT(rows_has(&r, "100"), 1);
    FT_EQ_INT(rows_has(&r, "105"), 1);
    FT_EQ_INT(rows_has(&r, "107"), 0);
    FT_EQ_INT(rows_has(&r, "106"), 2);
    FT_EQ_INT(rep.delete_files_total, 2);
    FT_EQ_INT(rep.delete_files_applied, 2);
    rows_free(&r);
    /* the equality column is read for the deletes but not returned */
    const char *vcol[] = {"v"};
    o.columns = vcol;
    FT_OK(scan_dir(dir, &o, &r, &rep));
    FT_EQ_INT((long)r.n, 18);
    rows_free(&r);
    /* residual plus deletes */
    o.columns = cols;
    o.filter = "id > 2 AND id < 106";
    FT_OK(scan_dir(dir, &o, &r, &rep));
    /* A: 4..9 (3 deleted) = 6 + B: 100..104 = 5 + C: 105 = 1 */
    FT_EQ_INT((long)r.n, 12);
    rows_free(&r);
    for (int i = 0; i < 3; i++)
        floe_manifest_writer_free(w[i]);
    for (int i = 0; i < 2; i++)
        floe__pq_metrics_free(&d1[i].m);
    floe__pq_metrics_free(&d2[0].m);
    for (int i = 0; i < 2; i++)
        floe__pq_metrics_free(&del2[i].m);
    floe__schema_release(pos_schema);
    floe__schema_release(eq_schema);
    floe__arena_free(a);
}

/* A data file written by DuckDB without Parquet field ids (column `ident`
 * for table column `id`): resolved through schema.name-mapping.default. */
static void name_mapping_case(bool with_mapping, rows *r)
{
    const char *dir = ft_tmp(with_mapping ? "nm" : "plain");
    gt_mkdirs(dir);
    char data[1200], m[1200], l[1200], meta[1200];
    snprintf(data, sizeof data, "%s/tests/data/scan/no_field_ids.parquet", ft_source_dir());
    snprintf(m, sizeof m, "%s/metadata/m.avro", dir);
    snprintf(l, sizeof l, "%s/metadata/snap-1.avro", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_writer *w;
    FT_OK(gt_manifest_new(&w, &out, false, FLOE_MANIFEST_DATA, 1, m));
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_ADDED;
    e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    e.data_file.file_path = data;
    e.data_file.file_format = "PARQUET";
    e.data_file.record_count = 5;
    e.data_file.file_size_in_bytes = 490;
    e.data_file.block_size_in_bytes = -1;
    FT_OK(floe_manifest_writer_add(w, &e));
    floe_manifest_file mf;
    FT_OK(floe_manifest_writer_finish(w, &mf));
    FT_OK(gt_write_bytes(m, out.ptr, out.len));
    FT_OK(gt_write_list(l, 1, 1, &mf, 1));
    int64_t id = 1;
    const char *lists[1] = {l};
    const char *props =
        "{\"schema.name-mapping.default\":\"[{\\\"field-id\\\":1,\\\"names\\\":[\\\"id\\\",\\\"ident\\\"]},"
        "{\\\"field-id\\\":2,\\\"names\\\":[\\\"cat\\\"]},{\\\"field-id\\\":3,\\\"names\\\":[\\\"v\\\"]}]\"}";
    FT_OK(gt_write_metadata_props(meta, dir, false, 1, &id, lists, with_mapping ? props : NULL));
    floe_manifest_writer_free(w);
    floe__buf_free(&out);
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    FT_OK(scan_dir(dir, &o, r, NULL));
}

/* Neighbouring files of a manifest with equal partition tuples share one
 * (and its residual); different tuples are never shared. */
static void test_shared_partitions(void)
{
    const char *dir = ft_tmp("t");
    gt_mkdirs(dir);
    static const char *cats[] = {"a", "a", "b", "a", "a"};
    fileinfo fs[5];
    memset(fs, 0, sizeof fs);
    for (int i = 0; i < 5; i++) {
        snprintf(fs[i].path, sizeof fs[i].path, "%s/data/f%d.parquet", dir, i);
        fs[i].cat = cats[i];
        fs[i].m.record_count = 10; /* no column metrics: nothing skips a file */
    }
    char m1[1200], l1[1200], meta[1200];
    snprintf(m1, sizeof m1, "%s/metadata/m1.avro", dir);
    snprintf(l1, sizeof l1, "%s/metadata/snap-1.avro", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_manifest_file mf;
    floe_manifest_writer *w;
    write_manifest(m1, FLOE_MANIFEST_DATA, 1, fs, 5, &mf, &w);
    FT_OK(gt_write_list(l1, 1, 1, &mf, 1));
    floe_manifest_writer_free(w);
    int64_t ids[1] = {1};
    const char *lists[1] = {l1};
    FT_OK(gt_write_metadata(meta, dir, true, 1, ids, lists));
    const char *filters[] = {NULL, "cat = 'a' OR v > 3"};
    for (int k = 0; k < 2; k++) {
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.filter = filters[k];
        o.threads = 1;
        floe_scan *s;
        FT_OK(floe_scan_open(&s, NULL, meta, &o));
        const floe_scan_plan *p = floe__scan_get_plan(s);
        FT_EQ_INT((long)p->ntasks, 5);
        if (p->ntasks != 5) {
            floe_scan_free(s);
            continue;
        }
        const floe_partition_value *pv[5];
        for (int i = 0; i < 5; i++) {
            pv[i] = &p->tasks[i].file->partition;
            FT_EQ_INT((long)pv[i]->n, 1);
            FT_EQ_INT((long)pv[i]->values[0].v.bytes.len, 1);
            FT_EQ_INT(pv[i]->values[0].v.bytes.ptr[0], cats[i][0]);
        }
        FT_ASSERT(pv[0]->values == pv[1]->values);
        FT_ASSERT(floe__scan_same_partition(pv[0], pv[1]));
        FT_ASSERT(pv[1]->values != pv[2]->values);
        FT_ASSERT(!floe__scan_same_partition(pv[1], pv[2]));
        FT_ASSERT(!floe__scan_same_partition(pv[2], pv[3]));
        FT_ASSERT(pv[3]->values == pv[4]->values);
        /* equal values, not neighbours: equal, each its own copy */
        FT_ASSERT(floe__scan_same_partition(pv[0], pv[3]));
        FT_ASSERT(pv[0]->values != pv[3]->values);
        if (filters[k]) {
            /* partition a satisfies cat = 'a': nothing left to check on rows;
             * b keeps v > 3 */
            FT_EQ_INT(p->tasks[0].residual->kind, FLOE_EXPR_TRUE);
            FT_EQ_INT(p->tasks[1].residual->kind, FLOE_EXPR_TRUE);
            FT_ASSERT(p->tasks[2].residual->kind != FLOE_EXPR_TRUE);
            FT_EQ_INT(p->tasks[3].residual->kind, FLOE_EXPR_TRUE);
            FT_EQ_INT(p->tasks[4].residual->kind, FLOE_EXPR_TRUE);
        }
        floe_scan_free(s);
    }
    /* the comparison itself: nulls, bytes, float bits */
    floe_value a = floe_value_bytes(FLOE_T_STRING, "ab", 2),
               b = floe_value_bytes(FLOE_T_STRING, "ac", 2);
    floe_value n = {.type = FLOE_T_STRING, .is_null = true};
    floe_value z = {.type = FLOE_T_DOUBLE, .v.f64 = 0.0},
               mz = {.type = FLOE_T_DOUBLE, .v.f64 = -0.0};
    floe_value z2 = z;
    floe_partition_value pa = {1, &a}, pb = {1, &b}, pn = {1, &n}, pz = {1, &z}, pmz = {1, &mz},
                         pz2 = {1, &z2};
    FT_ASSERT(!floe__scan_same_partition(&pa, &pb));
    FT_ASSERT(!floe__scan_same_partition(&pa, &pn));
    FT_ASSERT(floe__scan_same_partition(&pn, &pn));
    FT_ASSERT(!floe__scan_same_partition(&pz, &pmz));
    FT_ASSERT(floe__scan_same_partition(&pz, &pz2));
}

static void test_name_mapping(void)
{
    rows r = {0, NULL, 0};
    name_mapping_case(true, &r);
    FT_EQ_INT((long)r.n, 5);
    FT_EQ_INT(rows_has(&r, "0|x0|0"), 1);
    FT_EQ_INT(rows_has(&r, "4|x4|40"), 1);
    if (r.n != 5 || !rows_has(&r, "4|x4|40"))
        rows_dump(&r);
    rows_free(&r);
    /* without a mapping, columns match by name: `ident` is not `id` */
    name_mapping_case(false, &r);
    FT_EQ_INT((long)r.n, 5);
    FT_EQ_INT(rows_has(&r, "null|x3|30"), 1);
    rows_free(&r);
}

/* Schema evolution on read: the file was written with a int, b float,
 * c decimal(5,2) and a column since dropped; the table now has a renamed to
 * a_long (long), b double, c decimal(9,2), an added column with
 * initial-default 7 and an added column without default. */
static const char *EVO_FILE_SCHEMA =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"int\"},"
    "{\"id\":2,\"name\":\"b\",\"required\":false,\"type\":\"float\"},"
    "{\"id\":3,\"name\":\"c\",\"required\":false,\"type\":\"decimal(5, 2)\"},"
    "{\"id\":4,\"name\":\"gone\",\"required\":false,\"type\":\"string\"}]}";
static const char *EVO_TABLE_SCHEMA =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"a_long\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"b\",\"required\":false,\"type\":\"double\"},"
    "{\"id\":3,\"name\":\"c\",\"required\":false,\"type\":\"decimal(9, 2)\"},"
    "{\"id\":5,\"name\":\"added\",\"required\":false,\"type\":\"int\",\"initial-default\":7},"
    "{\"id\":6,\"name\":\"added_null\",\"required\":false,\"type\":\"string\"}]}";

static int fill_evo(floe_arrow_builder *b, int64_t i, void *payload)
{
    (void)payload;
    floe_value v = floe_value_int((int32_t)i);
    FLOE_TRY(floe__arrow_builder_append(b->children[0], &v));
    v = floe_value_float((float)i + 0.5f);
    FLOE_TRY(floe__arrow_builder_append(b->children[1], &v));
    v = floe_value_decimal((floe_i128)(i * 100 + 25), 2);
    FLOE_TRY(floe__arrow_builder_append(b->children[2], &v));
    v = floe_value_bytes(FLOE_T_STRING, "g", 1);
    return floe__arrow_builder_append(b->children[3], &v);
}

static void test_schema_evolution(void)
{
    const char *dir = ft_tmp("evo");
    gt_mkdirs(dir);
    floe_arena *a = floe__arena_new(4096);
    floe_schema *fs = parse_schema(a, EVO_FILE_SCHEMA);
    FT_ASSERT(fs != NULL);
    char data[1200], m[1200], l[1200], meta[1200];
    snprintf(data, sizeof data, "%s/data/evo.parquet", dir);
    snprintf(m, sizeof m, "%s/metadata/m.avro", dir);
    snprintf(l, sizeof l, "%s/metadata/snap-1.avro", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_pq_metrics pm;
    memset(&pm, 0, sizeof pm);
    FT_OK(gt_write_parquet(data, fs, 4, fill_evo, NULL, &pm));
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_writer *w;
    FT_OK(gt_manifest_new(&w, &out, false, FLOE_MANIFEST_DATA, 1, m));
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_ADDED;
    e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    e.data_file.file_path = data;
    e.data_file.file_format = "PARQUET";
    e.data_file.block_size_in_bytes = -1;
    FT_OK(gt_metrics_to_entry(&pm, a, &e.data_file));
    FT_OK(floe_manifest_writer_add(w, &e));
    floe_manifest_file mf;
    FT_OK(floe_manifest_writer_finish(w, &mf));
    FT_OK(gt_write_bytes(m, out.ptr, out.len));
    FT_OK(gt_write_list(l, 1, 1, &mf, 1));
    int64_t id = 1;
    const char *lists[1] = {l};
    FT_OK(gt_write_metadata_full(meta, dir, false, 1, &id, lists, NULL, EVO_TABLE_SCHEMA, 6));
    floe_manifest_writer_free(w);
    floe__buf_free(&out);
    floe__pq_metrics_free(&pm);
    floe__schema_release(fs);
    floe__arena_free(a);

    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    rows r = {0, NULL, 0};
    FT_OK(scan_dir(dir, &o, &r, NULL));
    FT_EQ_INT((long)r.n, 4);
    FT_EQ_INT(rows_has(&r, "1|1.5|1.25|7|null"), 1);
    FT_EQ_INT(rows_has(&r, "3|3.5|3.25|7|null"), 1);
    if (!rows_has(&r, "1|1.5|1.25|7|null"))
        rows_dump(&r);
    rows_free(&r);
    /* filters on the renamed, promoted column and on the default */
    o.filter = "a_long >= 2 AND added = 7 AND c > 2.0";
    FT_OK(scan_dir(dir, &o, &r, NULL));
    FT_EQ_INT((long)r.n, 2);
    rows_free(&r);
    o.filter = "added_null IS NULL AND b < 1";
    FT_OK(scan_dir(dir, &o, &r, NULL));
    FT_EQ_INT((long)r.n, 1);
    rows_free(&r);
}

/* Time travel by timestamp (snapshot-log) and the table-handle entry. */
static void test_as_of_time_and_table_handle(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 2, 2, 10, false, true));
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    /* the only snapshot's log entry is at 1700000000000 */
    floe_scan *s;
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.has_as_of_timestamp = true;
    o.as_of_timestamp_ms = 1700000000000LL;
    FT_OK(floe_scan_open(&s, NULL, meta, &o));
    FT_EQ_INT(floe_scan_get_report(s)->snapshot_id, 1);
    FT_EQ_INT(floe_scan_get_report(s)->tasks, 4);
    floe_scan_free(s);
    o.as_of_timestamp_ms = 1699999999999LL;
    FT_EQ_INT(floe_scan_open(&s, NULL, meta, &o), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Cannot find a snapshot older than 2023-11-14T22:13:19.999+00:00");
    floe_scan_options q = FLOE_SCAN_OPTIONS_INIT;
    q.ref = "nope";
    FT_EQ_INT(floe_scan_open(&s, NULL, meta, &q), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Cannot find matching snapshot ID or reference name for version nope");

    /* the same table through a catalog and a table handle */
    floe_catalog *cat;
    FT_OK(floe_catalog_open_sql(&cat, ft_tmp("cat.db"), NULL));
    FT_OK(floe_catalog_create_namespace(cat, "db", NULL));
    FT_OK(floe_catalog_register_table(cat, "db.t", meta));
    floe_table *t;
    FT_OK(floe_table_load(&t, cat, "db.t", NULL));
    floe_scan_options to = FLOE_SCAN_OPTIONS_INIT;
    to.filter = "cat = 'c00001'";
    FT_OK(floe_scan_open_table(&s, t, &to));
    FT_EQ_INT(floe_scan_get_report(s)->manifests_skipped, 1);
    FT_EQ_INT(floe_scan_get_report(s)->tasks, 2);
    floe_scan_free(s);
    to.has_snapshot_id = true;
    to.snapshot_id = 77;
    FT_EQ_INT(floe_scan_open_table(&s, t, &to), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Cannot find snapshot with ID 77");
    floe_table_free(t);
    floe_catalog_free(cat);
}

/* Row groups skipped by the residual's statistics still count for the
 * positions of position deletes. */
static void test_row_group_pruning(void)
{
    const char *dir = ft_tmp("rg");
    gt_mkdirs(dir);
    floe_arena *a = floe__arena_new(4096);
    floe_schema *pos_schema = parse_schema(a, POS_SCHEMA);
    floe_props props = FLOE_PROPS_INIT;
    floe__props_set(&props, "write.parquet.row-group-size-bytes", "1");
    gt_pq_props = &props;
    gt_batch_rows = 1000;
    fileinfo df[1], dl[1];
    memset(df, 0, sizeof df);
    memset(dl, 0, sizeof dl);
    snprintf(df[0].path, sizeof df[0].path, "%s/data/rg.parquet", dir);
    df[0].cat = "";
    gt_rows rr = {0, "x"};
    FT_OK(gt_write_parquet(df[0].path, gt_schema(), 3000, gt_fill_rows, &rr, &df[0].m));
    snprintf(dl[0].path, sizeof dl[0].path, "%s/data/pos.parquet", dir);
    dl[0].cat = "";
    dl[0].content = FLOE_FILE_POSITION_DELETES;
    const char *pp[2] = {df[0].path, df[0].path};
    const int64_t pps[2] = {5, 2500};
    posrows pr = {pp, pps};
    FT_OK(gt_write_parquet(dl[0].path, pos_schema, 2, fill_pos, &pr, &dl[0].m));
    gt_pq_props = NULL;
    gt_batch_rows = 65536;
    floe__props_free(&props);

    char m1[1200], m2[1200], l1[1200], meta[1200];
    snprintf(m1, sizeof m1, "%s/metadata/m1.avro", dir);
    snprintf(m2, sizeof m2, "%s/metadata/m2.avro", dir);
    snprintf(l1, sizeof l1, "%s/metadata/snap-1.avro", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_manifest_file mf[2];
    floe_manifest_writer *w[2];
    for (int k = 0; k < 2; k++) {
        floe_buf out = FLOE_BUF_INIT;
        FT_OK(gt_manifest_new(&w[k], &out, false, k ? FLOE_MANIFEST_DELETES : FLOE_MANIFEST_DATA, 1,
                              k ? m2 : m1));
        fileinfo *f = k ? &dl[0] : &df[0];
        floe_manifest_entry e;
        memset(&e, 0, sizeof e);
        e.status = FLOE_ENTRY_ADDED;
        e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
        e.data_file.content = f->content;
        e.data_file.file_path = f->path;
        e.data_file.file_format = "PARQUET";
        e.data_file.block_size_in_bytes = -1;
        FT_OK(gt_metrics_to_entry(&f->m, a, &e.data_file));
        FT_OK(floe_manifest_writer_add(w[k], &e));
        FT_OK(floe_manifest_writer_finish(w[k], &mf[k]));
        FT_OK(gt_write_bytes(k ? m2 : m1, out.ptr, out.len));
        floe__buf_free(&out);
    }
    FT_OK(gt_write_list(l1, 1, 1, mf, 2));
    int64_t id = 1;
    const char *lists[1] = {l1};
    FT_OK(gt_write_metadata(meta, dir, false, 1, &id, lists));
    for (int k = 0; k < 2; k++)
        floe_manifest_writer_free(w[k]);
    floe__pq_metrics_free(&df[0].m);
    floe__pq_metrics_free(&dl[0].m);
    floe__schema_release(pos_schema);
    floe__arena_free(a);

    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    const char *cols[] = {"id"};
    o.columns = cols;
    o.ncolumns = 1;
    rows r = {0, NULL, 0}, np = {0, NULL, 0};
    FT_OK(scan_dir(dir, &o, &r, NULL));
    FT_EQ_INT((long)r.n, 2998);
    rows_free(&r);
    o.filter = "id >= 2000";
    FT_OK(scan_dir(dir, &o, &r, NULL));
    FT_EQ_INT((long)r.n, 999);
    FT_EQ_INT(rows_has(&r, "2500"), 0);
    FT_EQ_INT(rows_has(&r, "2499"), 1);
    FT_EQ_INT(rows_has(&r, "2501"), 1);
    o.no_pruning = true;
    FT_OK(scan_dir(dir, &o, &np, NULL));
    FT_EQ_INT((long)np.n, (long)r.n);
    rows_free(&r);
    rows_free(&np);
    /* the stream reads fewer row groups: check through the Parquet file */
    floe_input *in;
    FT_OK(floe__pq_input_file(&in, df[0].path));
    floe_pq_reader *pr2;
    FT_OK(floe__pq_reader_open(&pr2, in, NULL));
    FT_ASSERT(floe__pq_reader_meta(pr2)->nrow_groups >= 3);
    floe__pq_reader_free(pr2);
    in->close(in);
}

static void test_oom_plan(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 2, 2, 5, true, true));
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_fileio *io;
    FT_OK(floe_fileio_open(&io, "file", NULL));
    int ok = 0;
    for (long n = 1; n < 20000 && !ok; n++) {
        floe_scan *s = NULL;
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.filter = "v > 2";
        o.threads = 1;
        floe__alloc_fail_at(n);
        int rc = floe_scan_open(&s, io, meta, &o);
        struct ArrowArrayStream st;
        int64_t nrows = 0;
        if (rc == 0 && (rc = floe_scan_to_stream(&st, s)) == 0) {
            for (;;) {
                struct ArrowArray b;
                int e = st.get_next(&st, &b);
                if (e) {
                    rc = floe__error_code();
                    break;
                }
                if (!b.release)
                    break;
                nrows += b.length;
                b.release(&b);
            }
            st.release(&st);
        }
        floe__alloc_fail_at(0);
        floe_scan_free(s);
        if (rc == 0) {
            ok = 1;
            FT_EQ_INT(nrows, 17);
        } else if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d (%s)", n, rc, ft_floe_err());
            ok = -1;
        }
    }
    FT_EQ_INT(ok, 1);
    floe_fileio_free(io);
}

/* Planning progress: one final report with every surviving manifest read
 * (items) and their bytes; a version 1 caller's options are not read past
 * their end. */
typedef struct progress_log {
    int calls, finished;
    floe_progress_info last;
    char phase[64];
} progress_log;

static void log_progress(const floe_progress_info *info, void *payload)
{
    progress_log *l = payload;
    l->calls++;
    l->finished += info->finished;
    l->last = *info;
    snprintf(l->phase, sizeof l->phase, "%s", info->phase);
}

static void test_plan_progress(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 6, 2, 5, false, true));
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    progress_log log;
    memset(&log, 0, sizeof log);
    o.threads = 3;
    o.progress = log_progress;
    o.progress_payload = &log;
    floe_scan *s = NULL;
    FT_OK(floe_scan_open(&s, NULL, meta, &o));
    FT_EQ_INT(floe_scan_get_report(s)->tasks, 12);
    floe_scan_free(s);
    FT_EQ_INT(log.finished, 1);
    FT_CHECK(log.last.finished);
    FT_EQ_STR(log.phase, "reading manifests");
    FT_EQ_INT((long)log.last.done, 6);
    FT_EQ_INT((long)log.last.total, 6);
    FT_CHECK(log.last.bytes > 6 * 100);
    /* manifests skipped by the list's summaries are not to be read */
    memset(&log, 0, sizeof log);
    o.filter = "cat = 'c00004'";
    FT_OK(floe_scan_open(&s, NULL, meta, &o));
    floe_scan_free(s);
    FT_EQ_INT((long)log.last.done, 1);
    FT_EQ_INT((long)log.last.total, 1);
    /* version 1 options end before the progress fields */
    memset(&log, 0, sizeof log);
    o.version = 1;
    FT_OK(floe_scan_open(&s, NULL, meta, &o));
    floe_scan_free(s);
    FT_EQ_INT(log.calls, 0);
}

/* Paths, record counts and report of a plan, as text. */
static void describe_plan(floe_buf *out, const char *meta, const char *filter, int threads)
{
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.filter = filter;
    o.threads = threads;
    floe_scan *s = NULL;
    FT_OK(floe_scan_open(&s, NULL, meta, &o));
    if (!s)
        return;
    const floe_scan_report *r = floe_scan_get_report(s);
    floe__buf_printf(out, "manifests %lld/%lld files %lld/%lld deletes %lld/%lld tasks %lld "
                          "records %lld\n",
                     (long long)r->manifests_skipped, (long long)r->manifests_total,
                     (long long)r->data_files_skipped, (long long)r->data_files_total,
                     (long long)r->delete_files_applied, (long long)r->delete_files_total,
                     (long long)r->tasks, (long long)r->records_planned);
    for (size_t i = 0; i < floe_scan_task_count(s); i++)
        floe__buf_printf(out, "%s\n", floe_scan_task_path(s, i));
    floe_scan_free(s);
}

/* Manifests read by 2, 3 and 8 threads (reused read buffers, one arena per
 * manifest) give the serial plan: same tasks in the same order, same report;
 * a missing manifest fails the parallel plan like the serial one. */
static void test_parallel_plan_identical(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 37, 23, 5, false, true));
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    const char *filters[] = {NULL, "cat = 'c00007'", "cat > 'c00030' OR v < 2"};
    for (size_t f = 0; f < FLOE_ARRAY_LEN(filters); f++) {
        floe_buf serial = FLOE_BUF_INIT;
        describe_plan(&serial, meta, filters[f], 1);
        FT_CHECK(serial.len > 0);
        int threads[] = {2, 3, 8};
        for (size_t t = 0; t < FLOE_ARRAY_LEN(threads); t++) {
            floe_buf par = FLOE_BUF_INIT;
            describe_plan(&par, meta, filters[f], threads[t]);
            if (par.len != serial.len || memcmp(par.ptr, serial.ptr, par.len) != 0)
                ft_fail(__FILE__, __LINE__, "filter %s, %d threads: plans differ",
                        filters[f] ? filters[f] : "(none)", threads[t]);
            floe__buf_free(&par);
        }
        if (f == 0) { /* 37 manifests of 23 files */
            FT_CHECK(strstr(serial.ptr, "files 0/851 ") != NULL);
            FT_CHECK(strstr(serial.ptr, "tasks 851 ") != NULL);
        }
        floe__buf_free(&serial);
    }
    char victim[1300];
    snprintf(victim, sizeof victim, "%s/metadata/m00019.avro", dir);
    FT_CHECK(unlink(victim) == 0);
    for (int threads = 1; threads <= 3; threads += 2) {
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.threads = threads;
        floe_scan *s = NULL;
        FT_EQ_INT(floe_scan_open(&s, NULL, meta, &o), FLOE_ENOTFOUND);
        FT_ERR_CONTAINS("m00019.avro");
        FT_CHECK(s == NULL);
    }
}

/* Fail each allocation in turn while two threads plan a small table: every
 * attempt is FLOE_ENOMEM or the whole plan (ASan checks nothing leaks). */
static void test_oom_parallel_plan(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 4, 3, 5, false, true));
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    int ok = 0;
    for (long n = 1; n < 20000 && !ok; n++) {
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.threads = 2;
        floe_scan *s = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_scan_open(&s, NULL, meta, &o);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            ok = 1;
            FT_EQ_INT((long)floe_scan_task_count(s), 12);
        } else if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d (%s)", n, rc, ft_floe_err());
            ok = -1;
        }
        floe_scan_free(s);
    }
    FT_EQ_INT(ok, 1);
}

static const ft_case cases[] = {
    {"plan_progress", test_plan_progress},
    {"partition_pruning", test_partition_pruning},
    {"current_vs_pinned", test_current_vs_pinned},
    {"filter_errors", test_filter_errors},
    {"delete_rules", test_delete_rules},
    {"shared_partitions", test_shared_partitions},
    {"name_mapping", test_name_mapping},
    {"schema_evolution", test_schema_evolution},
    {"as_of_time_and_table_handle", test_as_of_time_and_table_handle},
    {"row_group_pruning", test_row_group_pruning},
    {"oom_plan", test_oom_plan},
    {"parallel_plan_identical", test_parallel_plan_identical},
    {"oom_parallel_plan", test_oom_parallel_plan},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
