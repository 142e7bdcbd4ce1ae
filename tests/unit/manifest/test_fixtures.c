/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every manifest list and manifest under ../shared/fixtures decodes, and
 * their contents match the facts in fixtures/PROVENANCE.md (bucket values,
 * delete files, equality ids, v3 deletion vectors, v1 sequence numbers,
 * renamed manifest-list fields).
 */
#include "harness.h"
#include "manifest/manifest.h"
#include "spec/value.h"

#include <jansson.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

typedef struct blob {
    char *data;
    size_t len;
} blob;

static blob load(const char *rel)
{
    blob b = {NULL, 0};
    const char *sh = ft_shared_dir();
    if (!sh)
        return b;
    b.data = ft_read_file(ft_path(ft_path(sh, "fixtures"), rel), &b.len);
    if (!b.data)
        ft_fail(__FILE__, __LINE__, "cannot read fixture %s", rel);
    return b;
}

static int read_any(const char *path, int *kind, size_t *nentries)
{
    size_t len;
    char *data = ft_read_file(path, &len);
    if (!data)
        return -1;
    floe_avro_file *f;
    int rc = floe_avro_file_open(&f, (const uint8_t *)data, len, path);
    if (rc == 0) {
        *kind = floe_manifest_detect(f);
        floe_avro_file_free(f);
        if (*kind == FLOE_KIND_MANIFEST_LIST) {
            floe_manifest_list *l;
            rc = floe_manifest_list_read(&l, (const uint8_t *)data, len, path);
            if (rc == 0) {
                *nentries = l->nentries;
                floe_manifest_list_free(l);
            }
        } else if (*kind == FLOE_KIND_MANIFEST) {
            floe_manifest *m;
            rc = floe_manifest_read(&m, (const uint8_t *)data, len, path, NULL);
            if (rc == 0) {
                *nentries = m->nentries;
                floe_manifest_free(m);
            }
        }
    }
    free(data);
    return rc;
}

static bool is_avro(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".avro") == 0;
}

static void check_avro(const char *path, int *lists, int *manifests)
{
    int kind = 0;
    size_t entries = 0;
    int rc = read_any(path, &kind, &entries);
    if (rc < 0) {
        ft_fail(__FILE__, __LINE__, "%s: %s", path, ft_floe_err());
        return;
    }
    FT_CHECK(kind == FLOE_KIND_MANIFEST_LIST || kind == FLOE_KIND_MANIFEST);
    if (kind == FLOE_KIND_MANIFEST_LIST)
        (*lists)++;
    else
        (*manifests)++;
    FT_CHECK(entries > 0 || strstr(path, "snap-4848311183447800628") ||
             strstr(path, "snap-8928121299234260333") ||
             strstr(path, "snap-5032402648663831776"));
}

static void test_all_fixtures_decode(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    int lists = 0, manifests = 0;
    char **files = NULL;
    size_t n = 0;
    ft_collect(ft_path(sh, "fixtures"), is_avro, &files, &n);
    for (size_t i = 0; i < n; i++) {
        check_avro(files[i], &lists, &manifests);
        free(files[i]);
    }
    free(files);
    /* 55 .avro files at the time of writing; don't pin the exact split */
    FT_CHECK(lists >= 20);
    FT_CHECK(manifests >= 20);
}

static void test_trino_bucket_values(void)
{
    blob b =
        load("trino_bucket_partitioning/metadata/0ffce867-cc54-49f8-ac74-c89fc147015d-m0.avro");
    if (!b.data)
        return;
    floe_manifest *m;
    FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, "bucket-m0.avro", NULL));
    const floe_manifest_info *info = floe_manifest_reader_info(m->reader);
    FT_EQ_INT(info->format_version, 2);
    FT_EQ_INT(info->npartition_fields, 10);
    FT_EQ_INT(info->partition_field_ids[0], 1000);
    FT_EQ_STR(info->partition_field_names[9], "col_varbinary_bucket");
    FT_CHECK(info->partition_spec_json && strstr(info->partition_spec_json, "bucket[812]"));
    FT_EQ_INT(m->nentries, 1);
    const int want[10] = {0, 0, 3, 2, 2, 99, 75, 13, 5, 724};
    const floe_data_file *df = &m->entries[0].data_file;
    FT_EQ_INT(df->partition.n, 10);
    for (int i = 0; i < 10 && i < (int)df->partition.n; i++) {
        FT_EQ_INT(df->partition.values[i].type, FLOE_T_INT);
        FT_EQ_INT(df->partition.values[i].v.i32, want[i]);
    }
    FT_EQ_INT(df->record_count, 1);
    FT_EQ_INT(df->column_sizes.n, 10);
    FT_EQ_INT(df->lower_bounds.n, 10);
    /* lower bound of col_string (field 8) decodes to "some-string" */
    for (size_t i = 0; i < df->lower_bounds.n; i++)
        if (df->lower_bounds.items[i].field_id == 8) {
            FT_EQ_INT(df->lower_bounds.items[i].len, 11);
            FT_CHECK(memcmp(df->lower_bounds.items[i].ptr, "some-string", 11) == 0);
        }
    FT_CHECK(df->has_split_offsets && df->nsplit_offsets == 1 && df->split_offsets[0] == 4);
    FT_CHECK(df->has_sort_order_id && df->sort_order_id == 0);
    FT_CHECK(df->nan_value_counts.set && df->nan_value_counts.n == 0);
    floe_manifest_free(m);
    free(b.data);
}

static void test_java_bunnies_deletes_and_inheritance(void)
{
    blob lb = load("java_bunnies/metadata/"
                   "snap-9158179788527662767-1-a01399a1-e864-4562-b921-c8cb56e6e4a9.avro");
    if (!lb.data)
        return;
    floe_manifest_list *l;
    FT_OK(floe_manifest_list_read(&l, (const uint8_t *)lb.data, lb.len, "snap.avro"));
    FT_EQ_INT(l->format_version, 2);
    FT_CHECK(l->has_snapshot_id && l->snapshot_id == INT64_C(9158179788527662767));
    FT_CHECK(l->has_parent_snapshot_id && l->parent_snapshot_id == INT64_C(6458828015811002920));
    FT_CHECK(l->has_sequence_number && l->sequence_number == 3);
    FT_EQ_INT(l->nentries, 4);
    int deletes = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const floe_manifest_file *mf = &l->entries[i];
        FT_CHECK(mf->has_partitions && mf->npartitions == 0);
        FT_CHECK(!mf->key_metadata.set);
        FT_EQ_INT(mf->added_files_count, 1);
        const char *slash = strrchr(mf->manifest_path, '/');
        char rel[512];
        snprintf(rel, sizeof rel, "java_bunnies/metadata/%s", slash + 1);
        blob mb = load(rel);
        if (!mb.data)
            continue;
        floe_manifest *m;
        FT_OK(floe_manifest_read(&m, (const uint8_t *)mb.data, mb.len, rel, mf));
        FT_EQ_INT(floe_manifest_reader_info(m->reader)->content, mf->content);
        FT_EQ_INT(m->nentries, 1);
        const floe_manifest_entry *e = &m->entries[0];
        FT_EQ_INT(e->status, FLOE_ENTRY_ADDED);
        /* written null, inherited from the list entry */
        FT_EQ_INT(e->sequence_number, mf->sequence_number);
        FT_EQ_INT(e->file_sequence_number, mf->sequence_number);
        FT_CHECK(e->has_snapshot_id && e->snapshot_id == mf->added_snapshot_id);
        if (mf->content == FLOE_MANIFEST_DELETES) {
            deletes++;
            if (e->data_file.content == FLOE_FILE_EQUALITY_DELETES) {
                FT_CHECK(e->data_file.has_equality_ids && e->data_file.nequality_ids == 1 &&
                         e->data_file.equality_ids[0] == 1);
                FT_EQ_INT(e->sequence_number, 3);
            } else {
                FT_EQ_INT(e->data_file.content, FLOE_FILE_POSITION_DELETES);
                FT_EQ_INT(e->data_file.record_count, 6);
                FT_EQ_INT(e->sequence_number, 2);
            }
        }
        floe_manifest_free(m);
        free(mb.data);
    }
    FT_EQ_INT(deletes, 2);
    floe_manifest_list_free(l);
    free(lb.data);
}

static void test_trino_dv_v3(void)
{
    blob b =
        load("trino_deletion_vectors_v3/metadata/c670791d-ace7-4600-a57f-305823486daa-m0.avro");
    if (!b.data)
        return;
    floe_manifest *m;
    FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, "dv-m0.avro", NULL));
    FT_EQ_INT(floe_manifest_reader_info(m->reader)->format_version, 3);
    FT_EQ_INT(floe_manifest_reader_info(m->reader)->content, FLOE_MANIFEST_DELETES);
    FT_EQ_INT(m->nentries, 1);
    const floe_manifest_entry *e = &m->entries[0];
    FT_EQ_INT(e->status, FLOE_ENTRY_DELETED);
    FT_EQ_INT(e->sequence_number, 3);
    FT_EQ_INT(e->file_sequence_number, 3);
    FT_EQ_STR(e->data_file.file_format, "PUFFIN");
    FT_EQ_INT(e->data_file.content, FLOE_FILE_POSITION_DELETES);
    FT_EQ_INT(e->data_file.record_count, 3);
    FT_CHECK(e->data_file.referenced_data_file &&
             strstr(e->data_file.referenced_data_file, "a37f4af02113.parquet"));
    FT_CHECK(e->data_file.has_content_offset && e->data_file.has_content_size_in_bytes);
    floe_manifest_free(m);
    free(b.data);

    b = load("trino_deletion_vectors_v3/metadata/c670791d-ace7-4600-a57f-305823486daa-m1.avro");
    if (!b.data)
        return;
    FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, "dv-m1.avro", NULL));
    FT_EQ_INT(m->nentries, 2);
    if (m->nentries == 2) {
        FT_CHECK(m->entries[0].data_file.has_content_offset &&
                 m->entries[0].data_file.content_offset == 4);
        FT_EQ_INT(m->entries[0].data_file.content_size_in_bytes, 44);
        FT_EQ_INT(m->entries[1].data_file.content_offset, 48);
        FT_EQ_INT(m->entries[1].data_file.record_count, 6);
        FT_CHECK(!m->entries[1].data_file.has_first_row_id);
    }
    floe_manifest_free(m);
    free(b.data);
}

static void test_renamed_list_fields(void)
{
    const char *files[2] = {"vectors/avro/java-1.4.0-manifest-list-v2-1.avro",
                            "vectors/avro/java-1.5.0-manifest-list-v2-2.avro"};
    for (int i = 0; i < 2; i++) {
        blob b = load(files[i]);
        if (!b.data)
            return;
        floe_manifest_list *l;
        FT_OK(floe_manifest_list_read(&l, (const uint8_t *)b.data, b.len, files[i]));
        FT_CHECK(l->nentries >= 1);
        /* the counts come through under either name (field ids 504-506) */
        FT_CHECK(l->entries[0].added_files_count >= 0);
        FT_CHECK(l->entries[0].existing_files_count >= 0);
        FT_CHECK(l->entries[0].deleted_files_count >= 0);
        FT_EQ_INT(l->format_version, 2);
        floe_manifest_list_free(l);
        free(b.data);
    }
}

static void test_v1_lineitem(void)
{
    blob b = load("lineitem_iceberg_gz/metadata/23f9dbea-1e7f-4694-a82c-dc3c9a94953e-m0.avro");
    if (!b.data)
        return;
    floe_manifest *m;
    FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, "lineitem-m0.avro", NULL));
    FT_EQ_INT(floe_manifest_reader_info(m->reader)->format_version, 1);
    FT_EQ_INT(m->nentries, 1);
    FT_EQ_INT(m->entries[0].data_file.record_count, 111968);
    FT_EQ_INT(m->entries[0].data_file.block_size_in_bytes, 67108864);
    FT_EQ_INT(m->entries[0].sequence_number, 0);
    FT_EQ_INT(m->entries[0].file_sequence_number, 0);
    FT_EQ_INT(m->entries[0].data_file.content, FLOE_FILE_DATA);
    FT_EQ_INT(m->entries[0].data_file.column_sizes.n, 16);
    floe_manifest_free(m);
    free(b.data);

    b = load("lineitem_iceberg_gz/metadata/"
             "snap-4468019210336628573-1-23f9dbea-1e7f-4694-a82c-dc3c9a94953e.avro");
    if (!b.data)
        return;
    floe_manifest_list *l;
    FT_OK(floe_manifest_list_read(&l, (const uint8_t *)b.data, b.len, "lineitem-snap.avro"));
    FT_EQ_INT(l->format_version, 1);
    FT_CHECK(!l->has_parent_snapshot_id); /* written as the string "null" */
    FT_EQ_INT(l->nentries, 1);
    FT_EQ_INT(l->entries[0].sequence_number, 0);
    FT_EQ_INT(l->entries[0].added_rows_count, 111968);
    FT_EQ_INT(l->entries[0].added_files_count, 1);
    floe_manifest_list_free(l);
    free(b.data);
}

static void test_rename_column_partitions(void)
{
    blob b = load("spark_rename_column/metadata/abf62b15-903b-40b6-9e6b-26bcdceac9b3-m0.avro");
    if (!b.data)
        return;
    floe_manifest *m;
    FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, "rename-m0.avro", NULL));
    const floe_manifest_info *info = floe_manifest_reader_info(m->reader);
    FT_EQ_INT(info->npartition_fields, 2);
    FT_EQ_INT(info->partition_types[1].id, FLOE_T_DATE);
    FT_EQ_INT(m->nentries, 3);
    int nulls = 0;
    for (size_t i = 0; i < m->nentries; i++) {
        const floe_partition_value *p = &m->entries[i].data_file.partition;
        if (p->values[1].is_null) {
            nulls++;
            FT_EQ_INT(p->values[0].v.i32, 3); /* id 3 (Cottontail) -> bucket 3 */
        }
    }
    FT_EQ_INT(nulls, 1);
    floe_manifest_free(m);
    free(b.data);
}

static void test_odd_writers(void)
{
    /* no field ids at all: matched by name */
    blob b = load("vectors/avro/rust-no-field-ids-partition_manifest_v2.avro");
    if (!b.data)
        return;
    floe_manifest *m;
    FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, "rust.avro", NULL));
    FT_CHECK(m->nentries >= 1);
    if (m->nentries)
        FT_EQ_STR(m->entries[0].data_file.file_format, "parquet");
    floe_manifest_free(m);
    free(b.data);
    /* no header keys: version inferred from the schema (first_row_id -> v3) */
    b = load("vectors/avro/duckdb-v3-manifest-list-no-header-keys.avro");
    if (!b.data)
        return;
    floe_manifest_list *l;
    FT_OK(floe_manifest_list_read(&l, (const uint8_t *)b.data, b.len, "duckdb.avro"));
    FT_EQ_INT(l->format_version, 3);
    FT_CHECK(!l->has_snapshot_id);
    bool any_first_row = false;
    for (size_t i = 0; i < l->nentries; i++)
        any_first_row |= l->entries[i].has_first_row_id;
    FT_CHECK(any_first_row);
    floe_manifest_list_free(l);
    free(b.data);
}

/* ---------------------------------------------------------------- icebird's
 * decoded-JSON expectations (vectors/avro/spark_bunnies_standalone): its
 * 64-bit ids went through JavaScript doubles, so large integers compare
 * approximately; bytes are arrays of numbers there and "0x.." in floe. */
static bool json_matches(json_t *want, json_t *got, const char *path)
{
    if (json_is_object(want)) {
        if (!json_is_object(got))
            return ft_fail(__FILE__, __LINE__, "%s: not an object", path);
        const char *k;
        json_t *v;
        bool ok = true;
        json_object_foreach(want, k, v)
        {
            char sub[256];
            snprintf(sub, sizeof sub, "%s.%s", path, k);
            json_t *g = json_object_get(got, k);
            if (!g)
                ok = ft_fail(__FILE__, __LINE__, "%s missing in floe's record", sub);
            else
                ok &= json_matches(v, g, sub);
        }
        return ok;
    }
    if (json_is_array(want)) {
        if (json_is_string(got)) { /* bytes */
            const char *h = json_string_value(got);
            if (strncmp(h, "0x", 2) != 0 || strlen(h) != 2 + 2 * json_array_size(want))
                return ft_fail(__FILE__, __LINE__, "%s: bytes length", path);
            for (size_t i = 0; i < json_array_size(want); i++) {
                unsigned b;
                sscanf(h + 2 + 2 * i, "%2x", &b);
                if ((json_int_t)b != json_integer_value(json_array_get(want, i)))
                    return ft_fail(__FILE__, __LINE__, "%s: byte %zu differs", path, i);
            }
            return true;
        }
        if (!json_is_array(got) || json_array_size(got) != json_array_size(want))
            return ft_fail(__FILE__, __LINE__, "%s: array size", path);
        bool ok = true;
        for (size_t i = 0; i < json_array_size(want); i++)
            ok &= json_matches(json_array_get(want, i), json_array_get(got, i), path);
        return ok;
    }
    if (json_is_number(want)) {
        double w = json_number_value(want), g = json_number_value(got);
        if (!json_is_number(got) || fabs(w - g) > (fabs(w) > 9e15 ? 4096.0 : 0.0))
            return ft_fail(__FILE__, __LINE__, "%s: %.17g != %.17g", path, w, g);
        return true;
    }
    if (!json_equal(want, got))
        return ft_fail(__FILE__, __LINE__, "%s differs", path);
    return true;
}

static void check_against_json(const char *avro_rel, const char *json_rel)
{
    blob b = load(avro_rel), j = load(json_rel);
    if (!b.data || !j.data) {
        free(b.data);
        free(j.data);
        return;
    }
    json_t *want = json_loadb(j.data, j.len, 0, NULL);
    FT_ASSERT(want && json_is_array(want));
    floe_avro_file *f;
    FT_OK(floe_avro_file_open(&f, (const uint8_t *)b.data, b.len, avro_rel));
    floe_avro_cursor c;
    int64_t n;
    size_t idx = 0;
    floe_buf out = FLOE_BUF_INIT;
    while (floe_avro_file_next_block(f, &c, &n) == 0)
        for (int64_t i = 0; i < n; i++, idx++) {
            floe__buf_clear(&out);
            FT_OK(floe_avro_datum_to_json(&c, f->schema, &out, 0));
            json_t *got = json_loadb(out.ptr, out.len, 0, NULL);
            FT_ASSERT(got);
            json_matches(json_array_get(want, idx), got, avro_rel);
            json_decref(got);
        }
    FT_EQ_INT(idx, json_array_size(want));
    floe__buf_free(&out);
    floe_avro_file_free(f);
    json_decref(want);
    free(b.data);
    free(j.data);
}

static void test_icebird_expectations(void)
{
    check_against_json(
        "vectors/avro/spark_bunnies_standalone/a85973e4-4009-4cba-875e-5278a2c6027d-m0.avro",
        "vectors/avro/spark_bunnies_standalone/a85973e4-4009-4cba-875e-5278a2c6027d-m0.json");
    check_against_json("vectors/avro/spark_bunnies_standalone/"
                       "snap-8656952484400131532-1-a85973e4-4009-4cba-875e-5278a2c6027d.avro",
                       "vectors/avro/spark_bunnies_standalone/"
                       "snap-8656952484400131532-1-a85973e4-4009-4cba-875e-5278a2c6027d.json");
    /* the header expectation: every key, and the 16-byte sync marker */
    const char *base =
        "vectors/avro/spark_bunnies_standalone/a85973e4-4009-4cba-875e-5278a2c6027d-m0";
    char rel[256];
    snprintf(rel, sizeof rel, "%s.avro", base);
    blob b = load(rel);
    snprintf(rel, sizeof rel, "%s.metadata.json", base);
    blob j = load(rel);
    if (b.data && j.data) {
        json_t *want = json_loadb(j.data, j.len, 0, NULL);
        floe_avro_file *f;
        FT_OK(floe_avro_file_open(&f, (const uint8_t *)b.data, b.len, "m0.avro"));
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(want, "metadata"), k, v)
        {
            size_t len;
            const uint8_t *got = floe_avro_file_meta(f, k, &len);
            FT_CHECK(got != NULL);
            if (got && json_is_string(v))
                FT_CHECK(len == strlen(json_string_value(v)) &&
                         memcmp(got, json_string_value(v), len) == 0);
        }
        json_t *sync = json_object_get(want, "syncMarker");
        FT_EQ_INT(json_array_size(sync), 16);
        for (size_t i = 0; i < 16 && i < json_array_size(sync); i++)
            FT_EQ_INT(f->sync[i], json_integer_value(json_array_get(sync, i)));
        floe_avro_file_free(f);
        json_decref(want);
    }
    free(b.data);
    free(j.data);
}

/* v3 row lineage: a data manifest's first_row_id (from its manifest-list
 * entry) goes to the live files without one, in file order, each taking
 * record_count ids (Java's ManifestReader.idAssigner); a committed manifest
 * without one leaves every file without one. */
static void test_first_row_id_inheritance(void)
{
    static const char *const names[] = {"1e4d337d-8375-4b90-88b6-c4c298666ae8-m0.avro",
                                        "8aede263-dc6c-40c4-b0e9-b078d2a9deb8-m0.avro",
                                        "95c000ad-7919-4a56-b865-7767704e1e29-m0.avro"};
    int checked = 0;
    for (size_t k = 0; k < FT_N(names); k++) {
        char rel[256];
        snprintf(rel, sizeof rel, "trino_deletion_vectors_v3/metadata/%s", names[k]);
        blob b = load(rel);
        if (!b.data)
            return;
        floe_manifest *raw, *m;
        FT_OK(floe_manifest_read(&raw, (const uint8_t *)b.data, b.len, rel, NULL));
        if (floe_manifest_reader_info(raw->reader)->content != FLOE_MANIFEST_DATA) {
            floe_manifest_free(raw);
            free(b.data);
            continue;
        }
        floe_manifest_file mf = {0};
        mf.content = FLOE_MANIFEST_DATA;
        mf.sequence_number = 1;
        mf.has_first_row_id = true;
        mf.first_row_id = 1000;
        FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, rel, &mf));
        FT_EQ_INT(m->nentries, raw->nentries);
        int64_t next = 1000;
        for (size_t i = 0; i < m->nentries && i < raw->nentries; i++) {
            const floe_data_file *r = &raw->entries[i].data_file, *d = &m->entries[i].data_file;
            if (raw->entries[i].status == FLOE_ENTRY_DELETED || r->has_first_row_id) {
                FT_EQ_INT(d->has_first_row_id, r->has_first_row_id);
                FT_EQ_INT(d->first_row_id, r->first_row_id);
            } else {
                FT_CHECK(d->has_first_row_id);
                FT_EQ_INT(d->first_row_id, next);
                next += r->record_count;
                checked++;
            }
        }
        floe_manifest_free(m);
        mf.has_first_row_id = false; /* committed, no first_row_id: none */
        FT_OK(floe_manifest_read(&m, (const uint8_t *)b.data, b.len, rel, &mf));
        for (size_t i = 0; i < m->nentries; i++)
            FT_CHECK(!m->entries[i].data_file.has_first_row_id);
        floe_manifest_free(m);
        floe_manifest_free(raw);
        free(b.data);
    }
    FT_CHECK(checked > 0);
}

static const ft_case cases[] = {
    {"icebird_expectations", test_icebird_expectations},
    {"all_fixtures_decode", test_all_fixtures_decode},
    {"trino_bucket_values", test_trino_bucket_values},
    {"java_bunnies_deletes_and_inheritance", test_java_bunnies_deletes_and_inheritance},
    {"trino_dv_v3", test_trino_dv_v3},
    {"first_row_id_inheritance", test_first_row_id_inheritance},
    {"renamed_list_fields", test_renamed_list_fields},
    {"v1_lineitem", test_v1_lineitem},
    {"rename_column_partitions", test_rename_column_partitions},
    {"odd_writers", test_odd_writers},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
