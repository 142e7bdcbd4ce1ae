/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe-written manifests and manifest lists read back by floe: every codec,
 * v1 and v2, partitioned and unpartitioned, multi-block streaming, counts
 * and partition summaries, sequence-number inheritance, header keys, and
 * out-of-memory at every allocation.
 */
#include "gen_fixture.h"
#include "harness.h"

#include <jansson.h>
#include <stdlib.h>

static const floe_avro_codec codecs[] = {FLOE_AVRO_CODEC_NULL, FLOE_AVRO_CODEC_DEFLATE,
                                         FLOE_AVRO_CODEC_ZSTD, FLOE_AVRO_CODEC_SNAPPY};

static void check_entries(const gt_opts *o, const floe_manifest_file *mf, const floe_buf *bytes)
{
    floe_manifest_reader *r;
    floe_manifest_read_options ro = {mf, false};
    FT_OK(floe_manifest_reader_open(&r, (const uint8_t *)bytes->ptr, bytes->len, "w.avro", &ro));
    const floe_manifest_info *info = floe_manifest_reader_info(r);
    FT_EQ_INT(info->format_version, o->version);
    FT_EQ_INT(info->content, o->content);
    FT_EQ_INT(info->npartition_fields, o->partitioned ? GT_NPARTS : 0);
    FT_EQ_STR(info->schema_json, GT_SCHEMA);
    gt_scratch s;
    int i = 0;
    const floe_manifest_entry *got;
    int rc;
    while ((rc = floe_manifest_reader_next(r, &got)) == 0) {
        floe_manifest_entry want;
        gt_entry(o, i, &s, &want);
        FT_EQ_INT(got->status, want.status);
        FT_EQ_STR(got->data_file.file_path, want.data_file.file_path);
        FT_EQ_STR(got->data_file.file_format, "PARQUET");
        FT_EQ_INT(got->data_file.content, want.data_file.content);
        FT_EQ_INT(got->data_file.record_count, want.data_file.record_count);
        FT_EQ_INT(got->data_file.file_size_in_bytes, want.data_file.file_size_in_bytes);
        if (o->version == 1) {
            FT_EQ_INT(got->sequence_number, 0);
            FT_EQ_INT(got->data_file.block_size_in_bytes, 64 * 1024 * 1024);
        } else if (want.status == FLOE_ENTRY_ADDED) {
            FT_EQ_INT(got->sequence_number, mf->sequence_number); /* inherited */
            FT_EQ_INT(got->file_sequence_number, mf->sequence_number);
        } else {
            FT_EQ_INT(got->sequence_number, want.sequence_number);
            FT_EQ_INT(got->file_sequence_number, want.file_sequence_number);
        }
        FT_CHECK(got->has_snapshot_id);
        FT_EQ_INT(got->snapshot_id, want.has_snapshot_id ? want.snapshot_id : o->snapshot_id);
        FT_EQ_INT(got->data_file.column_sizes.n, 10);
        FT_EQ_INT(got->data_file.column_sizes.items[9].value,
                  want.data_file.column_sizes.items[9].value);
        FT_EQ_INT(got->data_file.nan_value_counts.set, want.data_file.nan_value_counts.set);
        FT_EQ_INT(got->data_file.upper_bounds.n, 10);
        FT_CHECK(memcmp(got->data_file.upper_bounds.items[3].ptr, s.ub[3], 8) == 0);
        FT_EQ_INT(got->data_file.nsplit_offsets, want.data_file.nsplit_offsets);
        FT_EQ_INT(got->data_file.split_offsets[got->data_file.nsplit_offsets - 1],
                  want.data_file.split_offsets[want.data_file.nsplit_offsets - 1]);
        FT_EQ_INT(got->data_file.has_sort_order_id, want.data_file.has_sort_order_id);
        FT_EQ_INT(got->data_file.has_equality_ids,
                  o->version == 2 && want.data_file.has_equality_ids);
        if (o->version == 2)
            FT_EQ_INT(!!got->data_file.referenced_data_file, !!want.data_file.referenced_data_file);
        FT_EQ_INT(got->data_file.partition.n, want.data_file.partition.n);
        for (size_t k = 0; k < got->data_file.partition.n; k++) {
            const floe_value *a = &got->data_file.partition.values[k];
            const floe_value *b = &want.data_file.partition.values[k];
            FT_EQ_INT(a->type, b->type);
            FT_EQ_INT(a->is_null, b->is_null);
            if (!a->is_null && !b->is_null && floe_value_compare(a, b) != 0)
                ft_fail(__FILE__, __LINE__, "entry %d partition value %zu differs", i, k);
        }
        i++;
    }
    FT_EQ_INT(rc, FLOE_ITEROVER);
    FT_EQ_INT(i, o->n);
    floe_manifest_reader_free(r);
}

static void roundtrip(int version, bool partitioned, int content, int n)
{
    for (size_t c = 0; c < FLOE_ARRAY_LEN(codecs); c++) {
        gt_opts o = {version,
                     codecs[c],
                     partitioned,
                     content,
                     n,
                     INT64_C(8765432109876543210),
                     version == 1 ? 0 : 7};
        floe_buf out = FLOE_BUF_INIT;
        floe_manifest_file mf;
        floe_manifest_writer *w = NULL;
        FT_OK(gt_write_manifest(&o, &out, &mf, &w));
        FT_EQ_INT(mf.manifest_length, out.len);
        FT_EQ_STR(mf.manifest_path, "s3://bucket/db/t/metadata/m0.avro");
        FT_EQ_INT(mf.added_snapshot_id, o.snapshot_id);
        int added = 0, existing = 0, deleted = 0;
        for (int i = 0; i < n; i++) {
            int kind = version == 1 ? 0 : i % 3;
            added += kind == 0;
            existing += kind == 1;
            deleted += kind == 2;
        }
        FT_EQ_INT(mf.added_files_count, added);
        FT_EQ_INT(mf.existing_files_count, existing);
        FT_EQ_INT(mf.deleted_files_count, deleted);
        FT_CHECK(mf.has_partitions);
        FT_EQ_INT(mf.npartitions, partitioned ? GT_NPARTS : 0);
        if (partitioned && n > 7) {
            /* id_bucket in [0, 3] */
            FT_CHECK(mf.partitions[0].lower_bound.set && mf.partitions[0].lower_bound.len == 4);
            FT_EQ_INT(mf.partitions[0].lower_bound.ptr[0], 0);
            FT_EQ_INT(mf.partitions[0].upper_bound.ptr[0], 3);
            FT_CHECK(!mf.partitions[0].contains_null);
            FT_CHECK(mf.partitions[1].contains_null); /* i % 7 == 0 */
            FT_CHECK(mf.partitions[5].contains_nan);  /* i % 5 == 0 */
            FT_CHECK(!mf.partitions[0].contains_nan);
            /* names: "n000" .. "n049" */
            FT_CHECK(mf.partitions[2].lower_bound.len == 4 &&
                     memcmp(mf.partitions[2].lower_bound.ptr, "n000", 4) == 0);
            char top[8];
            snprintf(top, sizeof top, "n%03d", n - 1 < 49 ? n - 1 : 49);
            FT_CHECK(mf.partitions[2].upper_bound.len == 4 &&
                     memcmp(mf.partitions[2].upper_bound.ptr, top, 4) == 0);
        }
        check_entries(&o, &mf, &out);
        /* the container's own header keys */
        floe_avro_file *f;
        FT_OK(floe_avro_file_open(&f, (const uint8_t *)out.ptr, out.len, "w.avro"));
        const char *keys[] = {"schema",         "partition-spec", "partition-spec-id",
                              "format-version", "iceberg.schema", "avro.schema",
                              "avro.codec"};
        for (size_t k = 0; k < FLOE_ARRAY_LEN(keys); k++)
            FT_CHECK(floe_avro_file_meta(f, keys[k], NULL) != NULL);
        FT_EQ_INT(floe_avro_file_meta(f, "content", NULL) != NULL, version == 2);
        FT_EQ_INT(f->codec, codecs[c]);
        FT_EQ_INT(floe_manifest_detect(f), FLOE_KIND_MANIFEST);
        floe_avro_file_free(f);
        floe_manifest_writer_free(w);
        floe__buf_free(&out);
    }
}

static void test_v2_partitioned(void)
{
    roundtrip(2, true, FLOE_MANIFEST_DATA, 30);
}
static void test_v2_unpartitioned(void)
{
    roundtrip(2, false, FLOE_MANIFEST_DATA, 5);
}
static void test_v2_deletes(void)
{
    roundtrip(2, true, FLOE_MANIFEST_DELETES, 12);
}
static void test_v1_partitioned(void)
{
    roundtrip(1, true, FLOE_MANIFEST_DATA, 9);
}
static void test_v1_unpartitioned(void)
{
    roundtrip(1, false, FLOE_MANIFEST_DATA, 3);
}
static void test_many_blocks(void)
{
    roundtrip(2, true, FLOE_MANIFEST_DATA, 3000);
}

/* Streaming 20,000 entries keeps memory per block, not per manifest. */
static void test_streaming_bounded(void)
{
    gt_opts o = {2, FLOE_AVRO_CODEC_DEFLATE, true, FLOE_MANIFEST_DATA, 20000, 1, 2};
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_file mf;
    FT_OK(gt_write_manifest(&o, &out, &mf, NULL));
    for (int keep = 0; keep < 2; keep++) {
        floe_manifest_reader *r;
        floe_manifest_read_options ro = {&mf, keep == 1};
        FT_OK(floe_manifest_reader_open(&r, (const uint8_t *)out.ptr, out.len, "big.avro", &ro));
        const floe_manifest_entry *e;
        size_t peak = 0, n = 0;
        while (floe_manifest_reader_next(r, &e) == 0) {
            size_t m = floe_manifest_reader_memory(r);
            peak = m > peak ? m : peak;
            n++;
        }
        FT_EQ_INT(n, 20000);
        if (keep)
            FT_CHECK(peak > 4 * 1024 * 1024); /* everything kept: grows with the manifest */
        else
            FT_CHECK(peak < 1024 * 1024); /* one 64 KiB block's worth of entries */
        floe_manifest_reader_free(r);
    }
    floe__buf_free(&out);
}

/* Lazy metrics (planning's fast path) against the eager decode: maps read
 * as null until floe_manifest_reader_metrics(), then equal item for item;
 * entries whose maps are never decoded do not disturb the next ones. */
static void same_longs(const floe_col_longs *a, const floe_col_longs *b)
{
    FT_EQ_INT(a->set, b->set);
    FT_EQ_INT(a->n, b->n);
    for (size_t i = 0; i < a->n && i < b->n; i++)
        FT_CHECK(a->items[i].field_id == b->items[i].field_id &&
                 a->items[i].value == b->items[i].value);
}

static void same_bytes(const floe_col_bytes_map *a, const floe_col_bytes_map *b)
{
    FT_EQ_INT(a->set, b->set);
    FT_EQ_INT(a->n, b->n);
    for (size_t i = 0; i < a->n && i < b->n; i++)
        FT_CHECK(a->items[i].field_id == b->items[i].field_id &&
                 a->items[i].len == b->items[i].len &&
                 memcmp(a->items[i].ptr, b->items[i].ptr, a->items[i].len) == 0);
}

static void test_lazy_metrics(void)
{
    for (size_t c = 0; c < FLOE_ARRAY_LEN(codecs); c++) {
        gt_opts o = {2, codecs[c], true, FLOE_MANIFEST_DATA, 3000, 1, 2};
        floe_buf out = FLOE_BUF_INIT;
        floe_manifest_file mf;
        FT_OK(gt_write_manifest(&o, &out, &mf, NULL));
        floe_manifest_reader *eager, *lazy;
        floe_manifest_read_options ro = {&mf, false};
        FT_OK(floe_manifest_reader_open(&eager, (const uint8_t *)out.ptr, out.len, "e.avro", &ro));
        FT_OK(floe_manifest_reader_open(&lazy, (const uint8_t *)out.ptr, out.len, "l.avro", &ro));
        floe_manifest_reader_lazy_metrics(lazy);
        const floe_manifest_entry *a, *b;
        int n = 0, rc;
        while ((rc = floe_manifest_reader_next(eager, &a)) == 0) {
            FT_OK(floe_manifest_reader_next(lazy, &b));
            const floe_data_file *x = &a->data_file, *y = &b->data_file;
            FT_EQ_STR(y->file_path, x->file_path);
            FT_EQ_INT(y->record_count, x->record_count);
            FT_CHECK(x->column_sizes.set && x->upper_bounds.set);
            FT_CHECK(!y->column_sizes.set && !y->value_counts.set && !y->null_value_counts.set &&
                     !y->nan_value_counts.set && !y->lower_bounds.set && !y->upper_bounds.set);
            if (n % 3 != 2) {
                FT_OK(floe_manifest_reader_metrics(lazy));
                FT_OK(floe_manifest_reader_metrics(lazy)); /* once decoded, a no-op */
                same_longs(&y->column_sizes, &x->column_sizes);
                same_longs(&y->value_counts, &x->value_counts);
                same_longs(&y->null_value_counts, &x->null_value_counts);
                same_longs(&y->nan_value_counts, &x->nan_value_counts);
                same_bytes(&y->lower_bounds, &x->lower_bounds);
                same_bytes(&y->upper_bounds, &x->upper_bounds);
            }
            n++;
        }
        FT_EQ_INT(rc, FLOE_ITEROVER);
        FT_EQ_INT(floe_manifest_reader_next(lazy, &b), FLOE_ITEROVER);
        FT_EQ_INT(n, 3000);
        /* without lazy_metrics the call does nothing */
        FT_OK(floe_manifest_reader_metrics(eager));
        floe_manifest_reader_free(eager);
        floe_manifest_reader_free(lazy);
        floe__buf_free(&out);
    }
}

static void test_manifest_list_roundtrip(void)
{
    for (int version = 1; version <= 2; version++)
        for (size_t c = 0; c < FLOE_ARRAY_LEN(codecs); c++) {
            gt_opts o = {version, codecs[c], true, FLOE_MANIFEST_DATA, 20, 42, FLOE_SEQ_UNASSIGNED};
            floe_buf m = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
            floe_manifest_file mf;
            floe_manifest_writer *mw = NULL;
            FT_OK(gt_write_manifest(&o, &m, &mf, &mw));
            floe_manifest_list_writer_options lo = {version,
                                                    INT64_C(9158179788527662767),
                                                    version == 2,
                                                    INT64_C(6458828015811002920),
                                                    version == 2 ? 9 : 0,
                                                    codecs[c],
                                                    -1, 0};
            floe_manifest_list_writer *lw;
            FT_OK(floe_manifest_list_writer_new(&lw, &lo, &out));
            FT_OK(floe_manifest_list_writer_add(lw, &mf));
            floe_manifest_file other = mf;
            other.manifest_path = "s3://bucket/db/t/metadata/old-m0.avro";
            other.sequence_number = 3;
            other.min_sequence_number = 2;
            other.added_snapshot_id = 17;
            other.has_partitions = false;
            uint8_t km[3] = {1, 2, 3};
            other.key_metadata = (floe_opt_bytes){km, 3, true};
            FT_OK(floe_manifest_list_writer_add(lw, &other));
            FT_OK(floe_manifest_list_writer_finish(lw));
            floe_manifest_list_writer_free(lw);

            floe_manifest_list *l;
            FT_OK(floe_manifest_list_read(&l, (const uint8_t *)out.ptr, out.len, "snap.avro"));
            FT_EQ_INT(l->format_version, version);
            FT_CHECK(l->has_snapshot_id && l->snapshot_id == INT64_C(9158179788527662767));
            FT_EQ_INT(l->has_parent_snapshot_id, version == 2);
            FT_EQ_INT(l->has_sequence_number, version == 2);
            FT_EQ_INT(l->nentries, 2);
            const floe_manifest_file *a = &l->entries[0], *b = &l->entries[1];
            FT_EQ_STR(a->manifest_path, mf.manifest_path);
            FT_EQ_INT(a->manifest_length, m.len);
            FT_EQ_INT(a->sequence_number, version == 2 ? 9 : 0); /* assigned at commit */
            FT_EQ_INT(a->min_sequence_number, version == 2 ? 1 : 0);
            FT_EQ_INT(a->added_snapshot_id, 42);
            FT_EQ_INT(a->added_files_count, mf.added_files_count);
            FT_EQ_INT(a->existing_rows_count, mf.existing_rows_count);
            FT_EQ_INT(a->npartitions, GT_NPARTS);
            for (size_t k = 0; k < a->npartitions && k < GT_NPARTS; k++) {
                FT_EQ_INT(a->partitions[k].contains_null, mf.partitions[k].contains_null);
                FT_EQ_INT(a->partitions[k].lower_bound.len, mf.partitions[k].lower_bound.len);
                FT_CHECK(memcmp(a->partitions[k].upper_bound.ptr, mf.partitions[k].upper_bound.ptr,
                                mf.partitions[k].upper_bound.len) == 0);
            }
            FT_CHECK(!b->has_partitions);
            FT_EQ_INT(b->sequence_number, version == 2 ? 3 : 0);
            FT_CHECK(b->key_metadata.set && b->key_metadata.len == 3 &&
                     b->key_metadata.ptr[2] == 3);
            floe_avro_file *f = l->file;
            const char *keys[] = {"snapshot-id", "parent-snapshot-id", "format-version",
                                  "iceberg.schema"};
            for (size_t k = 0; k < FLOE_ARRAY_LEN(keys); k++)
                FT_CHECK(floe_avro_file_meta(f, keys[k], NULL) != NULL);
            FT_EQ_INT(floe_avro_file_meta(f, "sequence-number", NULL) != NULL, version == 2);
            size_t plen;
            const uint8_t *p = floe_avro_file_meta(f, "parent-snapshot-id", &plen);
            if (version == 1)
                FT_CHECK(p && plen == 4 && memcmp(p, "null", 4) == 0);
            FT_EQ_INT(floe_manifest_detect(f), FLOE_KIND_MANIFEST_LIST);

            /* the manifest read through its list entry inherits sequence 9 */
            if (version == 2) {
                floe_manifest *man;
                FT_OK(floe_manifest_read(&man, (const uint8_t *)m.ptr, m.len, "m0.avro", a));
                FT_EQ_INT(man->nentries, 20);
                FT_EQ_INT(man->entries[0].sequence_number, 9);
                FT_EQ_INT(man->entries[1].sequence_number, 2); /* EXISTING keeps its own */
                floe_manifest_free(man);
            }
            floe_manifest_list_free(l);
            floe_manifest_writer_free(mw);
            floe__buf_free(&m);
            floe__buf_free(&out);
        }
}

static void test_writer_rejects(void)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_writer_options wo;
    memset(&wo, 0, sizeof wo);
    wo.format_version = 4; /* 1, 2 and 3 are written */
    wo.schema_json = GT_SCHEMA;
    wo.partition_spec_json = "[]";
    floe_manifest_writer *w;
    FT_EQ_INT(floe_manifest_writer_new(&w, &wo, &out), FLOE_EINVALID);
    wo.format_version = 1;
    wo.content = FLOE_MANIFEST_DELETES;
    FT_EQ_INT(floe_manifest_writer_new(&w, &wo, &out), FLOE_EINVALID);
    wo.format_version = 2;
    wo.content = FLOE_MANIFEST_DATA;
    FT_OK(floe_manifest_writer_new(&w, &wo, &out));
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_EXISTING;
    e.sequence_number = FLOE_SEQ_UNASSIGNED;
    e.data_file.file_path = "x.parquet";
    e.data_file.file_format = "PARQUET";
    FT_EQ_INT(floe_manifest_writer_add(w, &e), FLOE_EINVALID); /* needs a sequence number */
    e.status = FLOE_ENTRY_ADDED;
    e.data_file.content = FLOE_FILE_POSITION_DELETES;
    FT_EQ_INT(floe_manifest_writer_add(w, &e), FLOE_EINVALID); /* delete file, data manifest */
    e.data_file.content = FLOE_FILE_DATA;
    FT_OK(floe_manifest_writer_add(w, &e));
    floe_manifest_file mf;
    FT_OK(floe_manifest_writer_finish(w, &mf));
    FT_EQ_INT(mf.added_files_count, 1);
    floe_manifest_writer_free(w);
    floe__buf_free(&out);
}

/* Fail every allocation in turn while writing and reading a small manifest. */
static void test_oom(void)
{
    gt_opts o = {2, FLOE_AVRO_CODEC_DEFLATE, true, FLOE_MANIFEST_DATA, 4, 5, 6};
    int ok = 0;
    for (long n = 1; n < 5000 && !ok; n++) {
        floe_buf out = FLOE_BUF_INIT;
        floe_manifest_file mf;
        floe_manifest_writer *w = NULL;
        floe__alloc_fail_at(n);
        int rc = gt_write_manifest(&o, &out, &mf, &w);
        floe_manifest *m = NULL;
        floe_manifest_list_writer *lw = NULL;
        floe_buf lbuf = FLOE_BUF_INIT;
        floe_manifest_list *l = NULL;
        if (rc == 0)
            rc = floe_manifest_read(&m, (const uint8_t *)out.ptr, out.len, "oom.avro", &mf);
        if (rc == 0) {
            floe_manifest_list_writer_options lo = {2, 1, false, 0, 6, FLOE_AVRO_CODEC_SNAPPY, -1, 0};
            rc = floe_manifest_list_writer_new(&lw, &lo, &lbuf);
            if (rc == 0)
                rc = floe_manifest_list_writer_add(lw, &mf);
            if (rc == 0)
                rc = floe_manifest_list_writer_finish(lw);
            if (rc == 0)
                rc = floe_manifest_list_read(&l, (const uint8_t *)lbuf.ptr, lbuf.len, "l.avro");
        }
        floe__alloc_fail_at(0);
        if (rc == 0) {
            ok = 1;
            FT_EQ_INT(m->nentries, 4);
            FT_EQ_INT(l->nentries, 1);
        } else if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d (%s)", n, rc, ft_floe_err());
            ok = -1;
        }
        floe_manifest_list_free(l);
        floe_manifest_list_writer_free(lw);
        floe__buf_free(&lbuf);
        floe_manifest_free(m);
        floe_manifest_writer_free(w);
        floe__buf_free(&out);
    }
    FT_EQ_INT(ok, 1);
}

/* floe's v2 schemas (Avro and iceberg.schema) equal Iceberg Java 1.8.1's
 * (java_bunnies fixture), as parsed JSON. */
static json_t *meta_json(const uint8_t *data, size_t len, const char *key)
{
    floe_avro_file *f;
    if (floe_avro_file_open(&f, data, len, "x.avro") < 0)
        return NULL;
    size_t n;
    const uint8_t *v = floe_avro_file_meta(f, key, &n);
    json_t *j = v ? json_loadb((const char *)v, n, 0, NULL) : NULL;
    floe_avro_file_free(f);
    return j;
}

static void compare_with_java(const floe_buf *ours, const char *fixture)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    size_t len;
    char *java =
        ft_read_file(ft_path(ft_path(sh, "fixtures/java_bunnies/metadata"), fixture), &len);
    FT_ASSERT(java);
    const char *keys[2] = {"avro.schema", "iceberg.schema"};
    for (int k = 0; k < 2; k++) {
        json_t *a = meta_json((const uint8_t *)ours->ptr, ours->len, keys[k]);
        json_t *b = meta_json((const uint8_t *)java, len, keys[k]);
        FT_CHECK(a && b);
        if (a && b && !json_equal(a, b))
            ft_fail(__FILE__, __LINE__, "%s differs from Java's in %s", keys[k], fixture);
        json_decref(a);
        json_decref(b);
    }
    free(java);
}

static void test_schemas_match_java(void)
{
    gt_opts o = {2, FLOE_AVRO_CODEC_NULL, false, FLOE_MANIFEST_DATA, 1, 5, 6};
    floe_buf m = FLOE_BUF_INIT, l = FLOE_BUF_INIT;
    floe_manifest_file mf;
    floe_manifest_writer *mw = NULL;
    FT_OK(gt_write_manifest(&o, &m, &mf, &mw)); /* mf's strings live in mw */
    compare_with_java(&m, "a01399a1-e864-4562-b921-c8cb56e6e4a9-m0.avro");
    floe_manifest_list_writer_options lo = {2, 5, true, 4, 6, FLOE_AVRO_CODEC_NULL, -1, 0};
    floe_manifest_list_writer *lw;
    FT_OK(floe_manifest_list_writer_new(&lw, &lo, &l));
    FT_OK(floe_manifest_list_writer_add(lw, &mf));
    FT_OK(floe_manifest_list_writer_finish(lw));
    floe_manifest_list_writer_free(lw);
    compare_with_java(&l, "snap-9158179788527662767-1-a01399a1-e864-4562-b921-c8cb56e6e4a9.avro");
    floe_manifest_writer_free(mw);
    floe__buf_free(&m);
    floe__buf_free(&l);
}

/* What a commit does: carry the parent's manifest-list entries into a new
 * list, and rewrite a third-party manifest's entries as EXISTING / DELETED
 * with the partition types the reader reports. */
static void test_carry_over_and_rewrite(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    size_t len;
    char *data = ft_read_file(
        ft_path(sh, "fixtures/java_bunnies/metadata/"
                    "snap-9158179788527662767-1-a01399a1-e864-4562-b921-c8cb56e6e4a9.avro"),
        &len);
    FT_ASSERT(data);
    floe_manifest_list *parent;
    FT_OK(floe_manifest_list_read(&parent, (const uint8_t *)data, len, "parent.avro"));
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_list_writer_options lo = {
        2, 77, true, parent->snapshot_id, 4, FLOE_AVRO_CODEC_DEFLATE, -1, 0};
    floe_manifest_list_writer *lw;
    FT_OK(floe_manifest_list_writer_new(&lw, &lo, &out));
    for (size_t i = 0; i < parent->nentries; i++)
        FT_OK(floe_manifest_list_writer_add(lw, &parent->entries[i]));
    FT_OK(floe_manifest_list_writer_finish(lw));
    floe_manifest_list_writer_free(lw);
    floe_manifest_list *child;
    FT_OK(floe_manifest_list_read(&child, (const uint8_t *)out.ptr, out.len, "child.avro"));
    FT_EQ_INT(child->nentries, parent->nentries);
    for (size_t i = 0; i < child->nentries && i < parent->nentries; i++) {
        const floe_manifest_file *a = &parent->entries[i], *b = &child->entries[i];
        FT_EQ_STR(a->manifest_path, b->manifest_path);
        FT_EQ_INT(a->manifest_length, b->manifest_length);
        FT_EQ_INT(a->content, b->content);
        FT_EQ_INT(a->sequence_number, b->sequence_number); /* kept, not reassigned */
        FT_EQ_INT(a->min_sequence_number, b->min_sequence_number);
        FT_EQ_INT(a->added_snapshot_id, b->added_snapshot_id);
        FT_EQ_INT(a->added_rows_count, b->added_rows_count);
        FT_EQ_INT(a->has_partitions, b->has_partitions);
    }
    FT_CHECK(child->has_parent_snapshot_id &&
             child->parent_snapshot_id == INT64_C(9158179788527662767));
    floe_manifest_list_free(child);
    floe_manifest_list_free(parent);
    free(data);
    floe__buf_free(&out);

    /* rewrite the trino bucket manifest (10 int partition fields) */
    data = ft_read_file(ft_path(sh, "fixtures/trino_bucket_partitioning/metadata/"
                                    "0ffce867-cc54-49f8-ac74-c89fc147015d-m0.avro"),
                        &len);
    FT_ASSERT(data);
    floe_manifest *m;
    FT_OK(floe_manifest_read(&m, (const uint8_t *)data, len, "trino-m0.avro", NULL));
    const floe_manifest_info *info = floe_manifest_reader_info(m->reader);
    floe_manifest_partition_field pf[16];
    FT_ASSERT(info->npartition_fields <= 16);
    for (size_t i = 0; i < info->npartition_fields; i++)
        pf[i] = (floe_manifest_partition_field){info->partition_field_ids[i],
                                                info->partition_field_names[i],
                                                &info->partition_types[i]};
    floe_manifest_writer_options wo = {
        2,  FLOE_MANIFEST_DATA,      info->partition_spec_id,   info->npartition_fields,
        pf, info->schema_json,       info->partition_spec_json, 99,
        5,  "s3://w/m-rewrite.avro", FLOE_AVRO_CODEC_ZSTD,      -1};
    floe_manifest_writer *w;
    FT_OK(floe_manifest_writer_new(&w, &wo, &out));
    for (size_t i = 0; i < m->nentries; i++) {
        floe_manifest_entry e = m->entries[i];
        e.status = FLOE_ENTRY_DELETED;
        e.sequence_number = e.file_sequence_number = 2;
        FT_OK(floe_manifest_writer_add(w, &e));
    }
    floe_manifest_file mf;
    FT_OK(floe_manifest_writer_finish(w, &mf));
    FT_EQ_INT(mf.deleted_files_count, (int)m->nentries);
    FT_EQ_INT(mf.npartitions, 10);
    /* col_varbinary_bucket = 724 -> summary bounds are 724 little-endian */
    FT_CHECK(mf.partitions[9].lower_bound.set && mf.partitions[9].lower_bound.ptr[0] == 0xd4 &&
             mf.partitions[9].lower_bound.ptr[1] == 0x02);
    floe_manifest *back;
    FT_OK(floe_manifest_read(&back, (const uint8_t *)out.ptr, out.len, "rewrite.avro", &mf));
    FT_EQ_INT(back->nentries, m->nentries);
    const floe_data_file *x = &m->entries[0].data_file, *y = &back->entries[0].data_file;
    FT_EQ_INT(back->entries[0].status, FLOE_ENTRY_DELETED);
    FT_EQ_INT(back->entries[0].sequence_number, 2);
    FT_EQ_INT(back->entries[0].snapshot_id, m->entries[0].snapshot_id);
    FT_EQ_STR(x->file_path, y->file_path);
    FT_EQ_INT(y->partition.values[9].v.i32, 724);
    FT_EQ_INT(x->lower_bounds.n, y->lower_bounds.n);
    for (size_t i = 0; i < x->lower_bounds.n && i < y->lower_bounds.n; i++)
        FT_CHECK(x->lower_bounds.items[i].len == y->lower_bounds.items[i].len &&
                 memcmp(x->lower_bounds.items[i].ptr, y->lower_bounds.items[i].ptr,
                        x->lower_bounds.items[i].len) == 0);
    floe_manifest_free(back);
    floe_manifest_writer_free(w);
    floe_manifest_free(m);
    free(data);
    floe__buf_free(&out);
}


/* v3 (spec "Row Lineage", "Manifest Lists"): a data file's first_row_id and
 * a DV's content_offset / content_size_in_bytes round-trip; the list writer
 * hands first_row_id to data manifests without one, in order, each
 * reserving added + existing rows, keeps an assigned one and gives delete
 * manifests none. */
static void test_v3_row_ids(void)
{
    gt_opts o = {3, FLOE_AVRO_CODEC_NULL, false, FLOE_MANIFEST_DATA, 6, 42, FLOE_SEQ_UNASSIGNED};
    floe_buf m = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    floe_manifest_file mf;
    floe_manifest_writer *mw = NULL;
    FT_OK(gt_write_manifest(&o, &m, &mf, &mw));
    FT_CHECK(!mf.has_first_row_id);
    floe_manifest_list_writer_options lo = {3, 77, false, 0, 5, FLOE_AVRO_CODEC_NULL, -1, 100};
    floe_manifest_list_writer *lw;
    FT_OK(floe_manifest_list_writer_new(&lw, &lo, &out));
    FT_OK(floe_manifest_list_writer_add(lw, &mf)); /* gets 100 */
    floe_manifest_file del = mf, kept = mf, second = mf;
    del.manifest_path = "del-m0.avro";
    del.content = FLOE_MANIFEST_DELETES;
    FT_OK(floe_manifest_list_writer_add(lw, &del)); /* none */
    kept.manifest_path = "kept-m0.avro";
    kept.has_first_row_id = true;
    kept.first_row_id = 7;
    FT_OK(floe_manifest_list_writer_add(lw, &kept)); /* keeps 7 */
    second.manifest_path = "second-m0.avro";
    second.added_rows_count = 10;
    second.existing_rows_count = 5;
    FT_OK(floe_manifest_list_writer_add(lw, &second));
    int64_t first_span = mf.added_rows_count + mf.existing_rows_count;
    FT_EQ_INT(floe_manifest_list_writer_next_row_id(lw), 100 + first_span + 15);
    FT_OK(floe_manifest_list_writer_finish(lw));
    floe_manifest_list_writer_free(lw);
    floe_manifest_list *l;
    FT_OK(floe_manifest_list_read(&l, (const uint8_t *)out.ptr, out.len, "snap.avro"));
    FT_EQ_INT(l->format_version, 3);
    FT_EQ_INT(l->nentries, 4);
    FT_CHECK(l->entries[0].has_first_row_id && l->entries[0].first_row_id == 100);
    FT_CHECK(!l->entries[1].has_first_row_id);
    FT_CHECK(l->entries[2].has_first_row_id && l->entries[2].first_row_id == 7);
    FT_CHECK(l->entries[3].has_first_row_id && l->entries[3].first_row_id == 100 + first_span);
    size_t len = 0;
    const uint8_t *fr = floe_avro_file_meta(l->file, "first-row-id", &len);
    FT_CHECK(fr && len == 3 && memcmp(fr, "100", 3) == 0);
    /* the manifest read through its entry: live files without an id take
     * 100, 100 + rows, ... in order */
    floe_manifest *man;
    FT_OK(floe_manifest_read(&man, (const uint8_t *)m.ptr, m.len, "m0.avro", &l->entries[0]));
    int64_t next = 100;
    for (size_t i = 0; i < man->nentries; i++) {
        const floe_manifest_entry *e = &man->entries[i];
        if (e->status == FLOE_ENTRY_DELETED)
            continue;
        FT_CHECK(e->data_file.has_first_row_id && e->data_file.first_row_id == next);
        next += e->data_file.record_count;
    }
    floe_manifest_free(man);
    floe_manifest_list_free(l);
    floe_manifest_writer_free(mw);

    /* an EXISTING file keeps its explicit first_row_id; DV fields */
    floe_manifest_writer_options wo;
    memset(&wo, 0, sizeof wo);
    wo.format_version = 3;
    wo.content = FLOE_MANIFEST_DELETES;
    wo.schema_json = GT_SCHEMA;
    wo.partition_spec_json = "[]";
    wo.snapshot_id = 9;
    wo.sequence_number = FLOE_SEQ_UNASSIGNED;
    floe_buf dm = FLOE_BUF_INIT;
    floe_manifest_writer *w;
    FT_OK(floe_manifest_writer_new(&w, &wo, &dm));
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_ADDED;
    e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    e.data_file.content = FLOE_FILE_POSITION_DELETES;
    e.data_file.file_path = "s3://b/t/data/dv.puffin";
    e.data_file.file_format = "PUFFIN";
    e.data_file.record_count = 3;
    e.data_file.file_size_in_bytes = 120;
    e.data_file.referenced_data_file = "s3://b/t/data/a.parquet";
    e.data_file.has_content_offset = true;
    e.data_file.content_offset = 4;
    e.data_file.has_content_size_in_bytes = true;
    e.data_file.content_size_in_bytes = 60;
    FT_OK(floe_manifest_writer_add(w, &e));
    floe_manifest_file dmf;
    FT_OK(floe_manifest_writer_finish(w, &dmf));
    FT_OK(floe_manifest_read(&man, (const uint8_t *)dm.ptr, dm.len, "dv-m0.avro", NULL));
    FT_EQ_INT(man->nentries, 1);
    const floe_data_file *d = &man->entries[0].data_file;
    FT_EQ_STR(d->file_format, "PUFFIN");
    FT_EQ_STR(d->referenced_data_file, "s3://b/t/data/a.parquet");
    FT_CHECK(d->has_content_offset && d->content_offset == 4);
    FT_CHECK(d->has_content_size_in_bytes && d->content_size_in_bytes == 60);
    FT_CHECK(!d->has_first_row_id);
    floe_manifest_free(man);
    floe_manifest_writer_free(w);
    floe__buf_free(&dm);
    floe__buf_free(&m);
    floe__buf_free(&out);
}

static const ft_case cases[] = {
    {"carry_over_and_rewrite", test_carry_over_and_rewrite},
    {"schemas_match_java", test_schemas_match_java},
    {"v2_partitioned", test_v2_partitioned},
    {"v2_unpartitioned", test_v2_unpartitioned},
    {"v3_row_ids", test_v3_row_ids},
    {"v2_deletes", test_v2_deletes},
    {"v1_partitioned", test_v1_partitioned},
    {"v1_unpartitioned", test_v1_unpartitioned},
    {"many_blocks", test_many_blocks},
    {"streaming_bounded", test_streaming_bounded},
    {"lazy_metrics", test_lazy_metrics},
    {"manifest_list_roundtrip", test_manifest_list_roundtrip},
    {"writer_rejects", test_writer_rejects},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
