/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Synthetic Iceberg tables for the scan tests and benchmarks, written with
 * the real Parquet writer, manifest writer and manifest-list writer into a
 * local directory (the table layer is not used).
 *
 * Table schema: id long (1, required), cat string (2), v long (3); spec 0 is
 * identity(cat) (partition field 1000) or unpartitioned. Rows of data file
 * f: id = f * rows .. f * rows + rows - 1, v = id % 1000, cat = the file's
 * category.
 */
#ifndef FLOE_TEST_GENTABLE_H
#define FLOE_TEST_GENTABLE_H

#include "arrow/arrow.h"
#include "manifest/manifest.h"
#include "parquet/parquet.h"
#include "spec/spec.h"
#include "spec/value.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define GT_SCHEMA_JSON                                                                             \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"cat\",\"required\":false,\"type\":\"string\"},"                          \
    "{\"id\":3,\"name\":\"v\",\"required\":false,\"type\":\"long\"}]}"
#define GT_SPEC_JSON "[{\"name\":\"cat\",\"transform\":\"identity\",\"source-id\":2,\"field-id\":1000}]"

static const floe_type gt_t_string = {.id = FLOE_T_STRING};
static const floe_type gt_t_long = {.id = FLOE_T_LONG};

static inline int gt_mkdirs(const char *dir)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/metadata", dir);
    mkdir(dir, 0755);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/data", dir);
    mkdir(p, 0755);
    return 0;
}

static inline int gt_file_sink(const void *data, size_t len, void *payload)
{
    return fwrite(data, 1, len, payload) == len ? 0 : FLOE_EIO;
}

/* Where gt_write_bytes puts metadata files (manifests, lists, metadata
 * JSON): NULL = the local file system; a hook lets a benchmark write the
 * table to another FileIO (e.g. S3, with `dir` an s3:// URI). */
static int (*gt_write_hook)(const char *path, const void *p, size_t n);

static inline int gt_write_bytes(const char *path, const void *p, size_t n)
{
    if (gt_write_hook)
        return gt_write_hook(path, p, n);
    FILE *f = fopen(path, "wb");
    if (!f)
        return FLOE_EIO;
    int ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : FLOE_EIO;
}

/* The table schema (parsed once; lives for the process). */
static inline const floe_schema *gt_schema(void)
{
    static floe_schema *s;
    static floe_arena *a;
    if (!s) {
        floe_json *j;
        a = floe__arena_new(4096);
        if (floe__json_parse(&j, GT_SCHEMA_JSON, strlen(GT_SCHEMA_JSON), "gt") < 0)
            return NULL;
        if (floe__schema_from_json(&s, j, 0, a) < 0)
            s = NULL;
        floe__json_free(j);
    }
    return s;
}

/* Write a Parquet file of `schema` whose columns are produced by fill(b, i)
 * for i in [0, n). Fills `e`'s data_file metrics (pointing into `m`). */
typedef int (*gt_fill_fn)(floe_arrow_builder *b, int64_t i, void *payload);

/* Writer knobs for tests: table properties and rows per write call. */
static const floe_props *gt_pq_props;
static int64_t gt_batch_rows = 65536;

static inline int gt_write_parquet(const char *path, const floe_schema *schema, int64_t n,
                                   gt_fill_fn fill, void *payload, floe_pq_metrics *m)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return floe__error(FLOE_EIO, "test", "cannot create %s", path);
    floe_pq_write_options o;
    memset(&o, 0, sizeof o);
    o.sink = gt_file_sink;
    o.sink_payload = f;
    o.props = gt_pq_props;
    floe_pq_writer *w;
    int rc = floe__pq_writer_new(&w, schema, &o);
    const int64_t batch = gt_batch_rows;
    for (int64_t at = 0; rc == 0 && at < n; at += batch) {
        floe_arrow_builder *b;
        if ((rc = floe__arrow_builder_new(&b, schema->root)) < 0)
            break;
        int64_t k = n - at < batch ? n - at : batch;
        for (int64_t i = 0; rc == 0 && i < k; i++)
            if ((rc = fill(b, at + i, payload)) == 0)
                rc = floe__arrow_builder_struct_append(b, true);
        struct ArrowArray arr;
        if (rc == 0 && (rc = floe__arrow_builder_finish(b, &arr)) == 0) {
            rc = floe__pq_writer_write(w, &arr);
            arr.release(&arr);
        }
        floe__arrow_builder_free(b);
    }
    if (rc == 0)
        rc = floe__pq_writer_close(w, m);
    floe__pq_writer_free(w);
    if (fclose(f) != 0 && rc == 0)
        rc = FLOE_EIO;
    return rc;
}

/* Data file metrics of the writer -> a manifest data_file (arrays in `a`). */
static inline int gt_metrics_to_entry(const floe_pq_metrics *m, floe_arena *a, floe_data_file *df)
{
    size_t n = m->nfields;
    floe_col_long *vc = floe__arena_calloc(a, n + 1, sizeof(*vc));
    floe_col_long *nc = floe__arena_calloc(a, n + 1, sizeof(*nc));
    floe_col_bytes *lo = floe__arena_calloc(a, n + 1, sizeof(*lo));
    floe_col_bytes *hi = floe__arena_calloc(a, n + 1, sizeof(*hi));
    if (!vc || !nc || !lo || !hi)
        return FLOE_ENOMEM;
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        const floe_pq_field_metrics *f = &m->fields[i];
        vc[i].field_id = nc[i].field_id = f->field_id;
        vc[i].value = f->value_count;
        nc[i].value = f->null_value_count;
        if (f->lower_bound && f->upper_bound) {
            lo[nb] = (floe_col_bytes){f->field_id, f->lower_bound, f->lower_bound_len};
            hi[nb] = (floe_col_bytes){f->field_id, f->upper_bound, f->upper_bound_len};
            nb++;
        }
    }
    df->record_count = m->record_count;
    df->file_size_in_bytes = m->file_size_in_bytes;
    df->value_counts = (floe_col_longs){n, vc, true};
    df->null_value_counts = (floe_col_longs){n, nc, true};
    df->lower_bounds = (floe_col_bytes_map){nb, lo, true};
    df->upper_bounds = (floe_col_bytes_map){nb, hi, true};
    return 0;
}

typedef struct gt_rows {
    int64_t first_id;
    const char *cat;
} gt_rows;

static inline int gt_fill_rows(floe_arrow_builder *b, int64_t i, void *payload)
{
    const gt_rows *r = payload;
    int64_t id = r->first_id + i;
    floe_value v = floe_value_long(id);
    FLOE_TRY(floe__arrow_builder_append(b->children[0], &v));
    v = r->cat ? floe_value_bytes(FLOE_T_STRING, r->cat, strlen(r->cat))
               : floe_value_null(FLOE_T_STRING);
    FLOE_TRY(floe__arrow_builder_append(b->children[1], &v));
    v = floe_value_long(id % 1000);
    return floe__arrow_builder_append(b->children[2], &v);
}

/* A manifest writer for the table (partitioned: identity(cat)). */
static inline int gt_manifest_new(floe_manifest_writer **w, floe_buf *out, bool partitioned,
                                  int32_t content, int64_t snapshot_id, const char *path)
{
    static floe_manifest_partition_field pf = {1000, "cat", &gt_t_string};
    floe_manifest_writer_options o;
    memset(&o, 0, sizeof o);
    o.format_version = 2;
    o.content = content;
    o.partition_spec_id = 0;
    o.npartition_fields = partitioned ? 1 : 0;
    o.partition_fields = &pf;
    o.schema_json = GT_SCHEMA_JSON;
    o.partition_spec_json = partitioned ? GT_SPEC_JSON : "[]";
    o.snapshot_id = snapshot_id;
    o.sequence_number = FLOE_SEQ_UNASSIGNED;
    o.manifest_path = path;
    o.codec = FLOE_AVRO_CODEC_NULL;
    o.compression_level = -1;
    return floe_manifest_writer_new(w, &o, out);
}

/* Table metadata JSON (v2) with `nsnap` snapshots; snapshot i has id
 * ids[i], sequence number i + 1 and manifest list lists[i]. */
/* Same, with `properties` (a JSON object text, NULL for {}) and a schema
 * JSON (NULL: GT_SCHEMA_JSON). */
static inline int gt_write_metadata_full(const char *path, const char *location, bool partitioned,
                                         size_t nsnap, const int64_t *ids,
                                         const char *const *lists, const char *properties,
                                         const char *schema_json, int last_column_id)
{
    floe_buf b = FLOE_BUF_INIT;
    floe__buf_printf(&b,
                     "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
                     "\"location\":\"%s\",\"last-sequence-number\":%zu,\"last-updated-ms\":1700000000000,"
                     "\"last-column-id\":%d,\"current-schema-id\":0,\"schemas\":[%s],"
                     "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":%s}],"
                     "\"last-partition-id\":%d,\"default-sort-order-id\":0,"
                     "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":%s,",
                     location, nsnap, schema_json ? last_column_id : 3,
                     schema_json ? schema_json : GT_SCHEMA_JSON, partitioned ? GT_SPEC_JSON : "[]",
                     partitioned ? 1000 : 999, properties ? properties : "{}");
    if (nsnap)
        floe__buf_printf(&b, "\"current-snapshot-id\":%lld,", (long long)ids[nsnap - 1]);
    floe__buf_puts(&b, "\"snapshots\":[");
    for (size_t i = 0; i < nsnap; i++) {
        floe__buf_printf(&b,
                         "%s{\"snapshot-id\":%lld,\"sequence-number\":%zu,"
                         "\"timestamp-ms\":%lld,\"manifest-list\":\"%s\","
                         "\"summary\":{\"operation\":\"append\"},\"schema-id\":0}",
                         i ? "," : "", (long long)ids[i], i + 1,
                         (long long)(1700000000000LL + (long long)i * 1000), lists[i]);
    }
    floe__buf_puts(&b, "],\"snapshot-log\":[");
    for (size_t i = 0; i < nsnap; i++)
        floe__buf_printf(&b, "%s{\"timestamp-ms\":%lld,\"snapshot-id\":%lld}", i ? "," : "",
                         (long long)(1700000000000LL + (long long)i * 1000), (long long)ids[i]);
    floe__buf_puts(&b, "],\"metadata-log\":[]");
    if (nsnap)
        floe__buf_printf(&b, ",\"refs\":{\"main\":{\"snapshot-id\":%lld,\"type\":\"branch\"}}",
                         (long long)ids[nsnap - 1]);
    floe__buf_puts(&b, "}");
    int rc = gt_write_bytes(path, b.ptr, b.len);
    floe__buf_free(&b);
    return rc;
}

static inline int gt_write_metadata_props(const char *path, const char *location, bool partitioned,
                                          size_t nsnap, const int64_t *ids,
                                          const char *const *lists, const char *properties)
{
    return gt_write_metadata_full(path, location, partitioned, nsnap, ids, lists, properties, NULL,
                                  3);
}

static inline int gt_write_metadata(const char *path, const char *location, bool partitioned,
                                    size_t nsnap, const int64_t *ids, const char *const *lists)
{
    return gt_write_metadata_props(path, location, partitioned, nsnap, ids, lists, NULL);
}

/* Write a manifest list for snapshot `snap` (sequence number seq). */
static inline int gt_write_list(const char *path, int64_t snap, int64_t seq,
                                const floe_manifest_file *mfs, size_t n)
{
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_list_writer_options lo = {2, snap, false, 0, seq, FLOE_AVRO_CODEC_NULL, -1, 0};
    floe_manifest_list_writer *lw;
    int rc = floe_manifest_list_writer_new(&lw, &lo, &out);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = floe_manifest_list_writer_add(lw, &mfs[i]);
    if (rc == 0)
        rc = floe_manifest_list_writer_finish(lw);
    floe_manifest_list_writer_free(lw);
    if (rc == 0)
        rc = gt_write_bytes(path, out.ptr, out.len);
    floe__buf_free(&out);
    return rc;
}

/* A whole single-snapshot table: nman manifests of nfiles files each; the
 * files of manifest m have cat "c<m>". With rows > 0 and write_data, real
 * Parquet files of `rows` rows are written; otherwise data files are only
 * described (metrics fabricated, record_count = rows). Snapshot id 1,
 * sequence number 1. The metadata file is <dir>/metadata/v1.metadata.json. */
static inline int gt_make_table(const char *dir, int nman, int nfiles, int64_t rows,
                                bool write_data, bool partitioned)
{
    if (!gt_write_hook)
        gt_mkdirs(dir);
    const floe_schema *schema = gt_schema();
    if (!schema)
        return FLOE_EINVALID;
    floe_manifest_file *mfs = floe__calloc((size_t)nman, sizeof(*mfs));
    floe_manifest_writer **ws = floe__calloc((size_t)nman, sizeof(*ws));
    char **mpaths = floe__calloc((size_t)nman, sizeof(char *));
    if (!mfs || !ws || !mpaths)
        return FLOE_ENOMEM;
    int rc = 0;
    for (int m = 0; rc == 0 && m < nman; m++) {
        floe_buf out = FLOE_BUF_INIT;
        mpaths[m] = floe__sprintf("%s/metadata/m%05d.avro", dir, m);
        rc = gt_manifest_new(&ws[m], &out, partitioned, FLOE_MANIFEST_DATA, 1, mpaths[m]);
        char cat[32];
        snprintf(cat, sizeof cat, "c%05d", m);
        floe_arena *a = floe__arena_new(65536);
        for (int f = 0; rc == 0 && f < nfiles; f++) {
            int64_t gi = (int64_t)m * nfiles + f;
            floe__arena_reset(a);
            floe_manifest_entry e;
            memset(&e, 0, sizeof e);
            e.status = FLOE_ENTRY_ADDED;
            e.has_snapshot_id = true;
            e.snapshot_id = 1;
            e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
            floe_data_file *df = &e.data_file;
            df->content = FLOE_FILE_DATA;
            char *path = floe__arena_sprintf(a, "%s/data/d%05d-%05d.parquet", dir, m, f);
            df->file_path = path;
            df->file_format = "PARQUET";
            floe_value pv = floe_value_bytes(FLOE_T_STRING, cat, strlen(cat));
            df->partition.n = partitioned ? 1 : 0;
            df->partition.values = &pv;
            df->block_size_in_bytes = -1;
            floe_pq_metrics pm;
            memset(&pm, 0, sizeof pm);
            if (write_data && rows > 0) {
                gt_rows r = {gi * rows, cat};
                if ((rc = gt_write_parquet(path, schema, rows, gt_fill_rows, &r, &pm)) < 0)
                    break;
                rc = gt_metrics_to_entry(&pm, a, df);
            } else {
                /* fabricated metrics: ids, categories and v ranges */
                int64_t lo_id = gi * rows, hi_id = gi * rows + (rows > 0 ? rows - 1 : 0);
                int64_t lo_v = 0, hi_v = 999;
                static floe_col_long vc[3], nc[3];
                floe_col_bytes *lo = floe__arena_calloc(a, 3, sizeof(*lo));
                floe_col_bytes *hi = floe__arena_calloc(a, 3, sizeof(*hi));
                int64_t *vals = floe__arena_calloc(a, 4, sizeof(int64_t));
                vals[0] = lo_id, vals[1] = hi_id, vals[2] = lo_v, vals[3] = hi_v;
                for (int k = 0; k < 3; k++) {
                    vc[k].field_id = nc[k].field_id = k + 1;
                    vc[k].value = rows;
                    nc[k].value = 0;
                }
                lo[0] = (floe_col_bytes){1, (const uint8_t *)&vals[0], 8};
                hi[0] = (floe_col_bytes){1, (const uint8_t *)&vals[1], 8};
                lo[1] = (floe_col_bytes){2, (const uint8_t *)cat, strlen(cat)};
                hi[1] = (floe_col_bytes){2, (const uint8_t *)cat, strlen(cat)};
                lo[2] = (floe_col_bytes){3, (const uint8_t *)&vals[2], 8};
                hi[2] = (floe_col_bytes){3, (const uint8_t *)&vals[3], 8};
                df->record_count = rows;
                df->file_size_in_bytes = 1024 + rows * 8;
                df->value_counts = (floe_col_longs){3, vc, true};
                df->null_value_counts = (floe_col_longs){3, nc, true};
                df->lower_bounds = (floe_col_bytes_map){3, lo, true};
                df->upper_bounds = (floe_col_bytes_map){3, hi, true};
            }
            if (rc == 0)
                rc = floe_manifest_writer_add(ws[m], &e);
            floe__pq_metrics_free(&pm);
        }
        if (rc == 0)
            rc = floe_manifest_writer_finish(ws[m], &mfs[m]);
        if (rc == 0)
            rc = gt_write_bytes(mpaths[m], out.ptr, out.len);
        floe__arena_free(a);
        floe__buf_free(&out);
    }
    char list[1200], meta[1200];
    snprintf(list, sizeof list, "%s/metadata/snap-1.avro", dir);
    snprintf(meta, sizeof meta, "%s/metadata/v1.metadata.json", dir);
    if (rc == 0)
        rc = gt_write_list(list, 1, 1, mfs, (size_t)nman);
    int64_t id = 1;
    const char *lists[1] = {list};
    if (rc == 0)
        rc = gt_write_metadata(meta, dir, partitioned, 1, &id, lists);
    for (int m = 0; m < nman; m++) {
        floe_manifest_writer_free(ws[m]);
        floe__free(mpaths[m]);
    }
    floe__free(ws);
    floe__free(mpaths);
    floe__free(mfs);
    return rc;
}

#endif
