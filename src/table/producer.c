/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/producer: the one snapshot producer (producer.h; docs/table.md
 * "The snapshot producer").
 */
#include "table/producer.h"

#include "spec/spec.h"
#include "spec/transform.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- attempts */

int floe__producer_init(floe_producer *p, floe_fileio *io)
{
    memset(p, 0, sizeof *p);
    p->io = io;
    FLOE_TRY(floe__uuid4(p->commit_uuid));
    return floe__snapshot_id(&p->snapshot_id);
}

int floe__producer_begin(floe_producer *p, const floe_table_metadata *base)
{
    p->attempt++;
    if (floe__metadata_snapshot(base, p->snapshot_id))
        FLOE_TRY(floe__snapshot_id(&p->snapshot_id)); /* vanishingly rare collision */
    return 0;
}

int floe__producer_read_list(const floe_producer *p, const floe_snapshot *s, floe_buf *data,
                             floe_manifest_list **out)
{
    *out = NULL;
    floe_buf pb = FLOE_BUF_INIT;
    const char *path = NULL;
    int rc = floe__snapshot_manifest_list(s, &pb, &path);
    if (rc == 0 && !path && s->n_manifests)
        rc = floe__error(FLOE_EUNSUPPORTED, "table",
                         "writing over a v1 snapshot without a manifest list is not supported");
    if (rc == 0 && path)
        rc = floe__io_read_all(p->io, path, (size_t)1 << 31, data);
    if (rc == 0 && path)
        rc = floe_manifest_list_read(out, (const uint8_t *)data->ptr, data->len, path);
    floe__buf_free(&pb);
    return rc;
}

/* ---------------------------------------------------------------- manifests */

floe_avro_codec floe__table_avro_codec(const floe_table_metadata *m)
{
    const char *c = floe__props_get(&m->properties, "write.avro.compression-codec");
    if (!c || strcmp(c, "gzip") == 0)
        return FLOE_AVRO_CODEC_DEFLATE; /* Java's default */
    floe_avro_codec out;
    if (strcmp(c, "uncompressed") == 0)
        return FLOE_AVRO_CODEC_NULL;
    if (floe_avro_codec_from_name(c, strlen(c), &out) == 0)
        return out;
    return FLOE_AVRO_CODEC_DEFLATE;
}

/* <write.metadata.path or location/metadata>/<name> (heap) */
static char *metadata_file(const floe_table_metadata *m, const char *fmt, ...) FLOE_PRINTF(2, 3);
static char *metadata_file(const floe_table_metadata *m, const char *fmt, ...)
{
    const char *dir = floe__props_get(&m->properties, "write.metadata.path");
    floe_buf b = FLOE_BUF_INIT;
    int rc = dir ? floe__buf_printf(&b, "%s/", dir) : floe__buf_printf(&b, "%s/metadata/", m->location);
    va_list ap;
    va_start(ap, fmt);
    if (rc == 0)
        rc = floe__buf_vprintf(&b, fmt, ap);
    va_end(ap);
    if (rc < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return floe__buf_detach(&b);
}

/* The writer options every manifest of a table shares. */
static void writer_options(floe_manifest_writer_options *o, int format_version, int32_t spec_id,
                           int32_t content, size_t nfields, const floe_manifest_partition_field *pf,
                           const char *schema_json, const char *spec_json, int64_t snapshot_id,
                           const char *path, floe_avro_codec codec)
{
    memset(o, 0, sizeof *o);
    o->format_version = format_version;
    o->content = content;
    o->partition_spec_id = spec_id;
    o->npartition_fields = nfields;
    o->partition_fields = pf;
    o->schema_json = schema_json;
    o->partition_spec_json = spec_json;
    o->snapshot_id = snapshot_id;
    o->sequence_number = FLOE_SEQ_UNASSIGNED;
    o->manifest_path = path;
    o->codec = codec;
    o->compression_level = -1;
}

/* The partition fields of `model`'s header, in `arena`. */
static int model_fields(const floe_manifest_info *model, floe_arena *arena,
                        floe_manifest_partition_field **out)
{
    floe_manifest_partition_field *pf =
        floe__arena_calloc(arena, model->npartition_fields + 1, sizeof *pf);
    if (!pf)
        return floe__error_nomem();
    for (size_t i = 0; i < model->npartition_fields; i++) {
        pf[i].field_id = model->partition_field_ids[i];
        pf[i].name = model->partition_field_names[i];
        pf[i].type = &model->partition_types[i];
    }
    *out = pf;
    return 0;
}

int floe__manifest_writer_like(floe_manifest_writer **w, const floe_manifest_info *model,
                               int64_t snapshot_id, const char *path, floe_avro_codec codec,
                               floe_arena *arena, floe_buf *out)
{
    *w = NULL;
    if (!model->schema_json || !model->partition_spec_json)
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "cannot rewrite manifest %s: its header has no schema or partition spec",
                           path);
    floe_manifest_partition_field *pf = NULL;
    FLOE_TRY(model_fields(model, arena, &pf));
    floe_manifest_writer_options o;
    writer_options(&o, model->format_version < 1 ? 1 : model->format_version,
                   model->partition_spec_id, model->content, model->npartition_fields, pf,
                   model->schema_json, model->partition_spec_json, snapshot_id, path, codec);
    return floe_manifest_writer_new(w, &o, out);
}

static int writer_open(floe_producer *p, const floe_table_metadata *m, int32_t spec_id,
                       int32_t content, size_t nfields, const floe_manifest_partition_field *pf,
                       const char *schema_json, const char *spec_json, floe_producer_manifest *mw)
{
    if (!(mw->path = metadata_file(m, "%s-m%d.avro", p->commit_uuid, p->next_manifest)))
        return floe__error_nomem();
    p->next_manifest++;
    mw->snapshot_id = p->snapshot_id;
    floe_manifest_writer_options o;
    writer_options(&o, m->format_version, spec_id, content, nfields, pf, schema_json, spec_json,
                   p->snapshot_id, mw->path, floe__table_avro_codec(m));
    return floe_manifest_writer_new(&mw->w, &o, &mw->bytes);
}

int floe__producer_manifest_open(floe_producer *p, const floe_table_metadata *m, int32_t spec_id,
                                 int32_t content, floe_arena *arena, floe_producer_manifest *mw)
{
    memset(mw, 0, sizeof *mw);
    const floe_partition_spec *spec = floe__metadata_spec(m, spec_id);
    const floe_schema *schema = floe__metadata_current_schema(m);
    if (!spec)
        return floe__error(FLOE_EINVALID, "table", "unknown partition spec %d", (int)spec_id);
    floe_manifest_partition_field *pf =
        floe__arena_calloc(arena, spec->nfields ? spec->nfields : 1, sizeof *pf);
    if (!pf)
        return floe__error_nomem();
    floe_buf *js = &mw->spec_json;
    FLOE_TRY(floe__buf_putc(js, '['));
    for (size_t i = 0; i < spec->nfields; i++) {
        const floe_partition_field *f = &spec->fields[i];
        const floe_field *src = floe__schema_field_by_id(schema, f->source_id);
        const floe_type *rt = src ? floe_transform_result_type(&f->transform, src->type) : NULL;
        if (!rt)
            return floe__error(FLOE_EINVALID, "table",
                               "partition field %s: source %d missing or transform not applicable",
                               f->name, (int)f->source_id);
        pf[i] = (floe_manifest_partition_field){f->field_id, f->name, rt};
        FLOE_TRY(floe__buf_printf(js, "%s{\"name\":", i ? "," : ""));
        FLOE_TRY(floe__json_put_str(js, f->name));
        FLOE_TRY(floe__buf_puts(js, ",\"transform\":\""));
        FLOE_TRY(floe__transform_format(&f->transform, js));
        FLOE_TRY(floe__buf_printf(js, "\",\"source-id\":%d,\"field-id\":%d}", (int)f->source_id,
                                  (int)f->field_id));
    }
    FLOE_TRY(floe__buf_putc(js, ']'));
    FLOE_TRY(floe__schema_to_json(schema, &mw->schema_json));
    return writer_open(p, m, spec_id, content, spec->nfields, pf, mw->schema_json.ptr,
                       mw->spec_json.ptr, mw);
}

int floe__producer_manifest_open_like(floe_producer *p, const floe_table_metadata *m,
                                      const floe_manifest_info *model, int32_t spec_id,
                                      int32_t content, floe_arena *arena,
                                      floe_producer_manifest *mw)
{
    memset(mw, 0, sizeof *mw);
    floe_manifest_partition_field *pf = NULL;
    FLOE_TRY(model_fields(model, arena, &pf));
    return writer_open(p, m, spec_id, content, model->npartition_fields, pf, model->schema_json,
                       model->partition_spec_json, mw);
}

int floe__producer_manifest_add_new(floe_producer_manifest *mw, const floe_data_file *df)
{
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_ADDED;
    e.has_snapshot_id = true;
    e.snapshot_id = mw->snapshot_id;
    e.sequence_number = FLOE_SEQ_UNASSIGNED;
    e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    e.data_file = *df;
    e.data_file.has_first_row_id = false; /* v3: inherited from the manifest's */
    return floe_manifest_writer_add(mw->w, &e);
}

bool floe__manifest_has_live(const floe_manifest_file *mf)
{
    return mf->added_files_count != 0 || mf->existing_files_count != 0; /* -1: unknown */
}

/* A copy of n bytes (a valid pointer even for n == 0). */
static const uint8_t *dup_bytes(floe_arena *a, const uint8_t *p, size_t n)
{
    return n ? floe__arena_memdup(a, p, n) : floe__arena_alloc(a, 1);
}

int floe__manifest_file_copy(floe_arena *a, floe_manifest_file *d, const floe_manifest_file *s)
{
    *d = *s;
    if (!(d->manifest_path = floe__arena_strdup(a, s->manifest_path)))
        return floe__error_nomem();
    if (s->npartitions) {
        floe_field_summary *p = floe__arena_memdup(a, s->partitions, s->npartitions * sizeof *p);
        if (!p)
            return floe__error_nomem();
        for (size_t i = 0; i < s->npartitions; i++) {
            if (p[i].lower_bound.set && !(p[i].lower_bound.ptr = dup_bytes(
                                              a, p[i].lower_bound.ptr, p[i].lower_bound.len)))
                return floe__error_nomem();
            if (p[i].upper_bound.set && !(p[i].upper_bound.ptr = dup_bytes(
                                              a, p[i].upper_bound.ptr, p[i].upper_bound.len)))
                return floe__error_nomem();
        }
        d->partitions = p;
    }
    if (s->key_metadata.set && !(d->key_metadata.ptr = dup_bytes(a, s->key_metadata.ptr,
                                                                 s->key_metadata.len)))
        return floe__error_nomem();
    return 0;
}

int floe__producer_manifest_close(floe_producer_manifest *mw, floe_fileio *io,
                                  floe_table_change *c, floe_vec *kept, floe_arena *arena,
                                  floe_manifest_file **out)
{
    *out = NULL;
    floe_manifest_file mf;
    FLOE_TRY(floe_manifest_writer_finish(mw->w, &mf));
    FLOE_TRY(floe__io_write_new(io, mw->path, mw->bytes.ptr, mw->bytes.len));
    if (c) {
        const char **slot = floe__vec_push(&c->written);
        char *copy = floe__arena_strdup(c->arena, mw->path);
        if (!slot || !copy)
            return floe__error_nomem();
        *slot = copy;
    } else {
        FLOE_TRY(floe__paths_add(kept, mw->path));
    }
    floe_manifest_file *copy = floe__arena_alloc(arena, sizeof *copy);
    if (!copy)
        return floe__error_nomem();
    mf.manifest_path = mw->path;
    FLOE_TRY(floe__manifest_file_copy(arena, copy, &mf));
    *out = copy;
    return 0;
}

void floe__producer_manifest_free(floe_producer_manifest *mw)
{
    floe_manifest_writer_free(mw->w);
    floe__buf_free(&mw->bytes);
    floe__buf_free(&mw->spec_json);
    floe__buf_free(&mw->schema_json);
    floe__free(mw->path);
    memset(mw, 0, sizeof *mw);
}

/* ---------------------------------------------------------------- summary */

int floe__partition_set_init(floe_partition_set *s)
{
    s->keys = (floe_vec)FLOE_VEC_INIT(char *);
    s->seen = floe__strmap_new();
    return s->seen ? 0 : floe__error_nomem();
}

int floe__partition_set_add(floe_partition_set *s, const floe_table_metadata *m, int32_t spec_id,
                            const floe_partition_value *pv)
{
    const floe_partition_spec *spec = floe__metadata_spec(m, spec_id);
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_printf(&b, "%d/", (int)spec_id);
    if (rc == 0 && spec && spec->nfields && pv->n == spec->nfields)
        rc = floe_partition_path(spec, pv, &b);
    if (rc == 0 && !floe__strmap_has(s->seen, b.ptr)) {
        char **slot = floe__vec_push(&s->keys);
        if (!slot) {
            rc = floe__error_nomem();
        } else {
            *slot = floe__buf_detach(&b);
            rc = floe__strmap_put(s->seen, *slot, NULL);
        }
    }
    floe__buf_free(&b);
    return rc;
}

int64_t floe__partition_set_count(const floe_partition_set *s)
{
    return s->seen ? (int64_t)floe__strmap_len(s->seen) : 0;
}

void floe__partition_set_free(floe_partition_set *s)
{
    floe__strmap_free(s->seen);
    s->seen = NULL;
    for (size_t i = 0; i < s->keys.len; i++)
        floe__free(((char **)s->keys.items)[i]);
    floe__vec_free(&s->keys);
}

int64_t floe__summary_int(const floe_snapshot *s, const char *key, bool *ok)
{
    const char *v = s ? floe__snapshot_summary(s, key) : NULL;
    *ok = false;
    if (!v || !*v)
        return 0;
    char *end;
    long long n = strtoll(v, &end, 10);
    *ok = *end == '\0';
    return n;
}

int floe__summary_put(floe_table_change *c, floe_vec *kv, const char *k, const char *fmt, ...)
{
    floe_buf tmp = FLOE_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__buf_vprintf(&tmp, fmt, ap);
    va_end(ap);
    floe_kv *slot = rc == 0 ? floe__vec_push(kv) : NULL;
    if (slot) {
        slot->key = floe__arena_strdup(c->arena, k);
        slot->value = floe__arena_strdup(c->arena, tmp.ptr ? tmp.ptr : "");
    }
    floe__buf_free(&tmp);
    if (rc < 0)
        return rc;
    return slot && slot->key && slot->value ? 0 : floe__error_nomem();
}

int floe__producer_summary(floe_table_change *c, floe_vec *kv, const floe_summary_options *o,
                           const floe_summary_counts *n, const floe_snapshot *parent)
{
    FLOE_TRY(floe__summary_put(c, kv, "operation", "%s", o->operation));
    for (size_t i = 0; o->extra && i < o->extra->n; i++)
        FLOE_TRY(floe__summary_put(c, kv, o->extra->items[i].key, "%s", o->extra->items[i].value));
    if (o->replace_partitions)
        FLOE_TRY(floe__summary_put(c, kv, "replace-partitions", "true"));
    if (o->wap_id)
        FLOE_TRY(floe__summary_put(c, kv, "wap.id", "%s", o->wap_id));
    int64_t ndel = n->pos_files + n->eq_files + n->dvs;
    int64_t nremoved_del = n->removed_pos_files + n->removed_eq_files + n->removed_dvs;
    const struct {
        const char *key;
        int64_t v;
    } set[] = {
        {"added-data-files", n->added_files},
        {"deleted-data-files", n->removed_files},
        {"added-equality-delete-files", n->eq_files},
        {"added-position-delete-files", n->pos_files},
        {"added-dvs", n->dvs},
        {"added-delete-files", ndel},
        {"added-records", n->added_records},
        {"deleted-records", n->removed_records},
        {"added-files-size", n->added_size + n->delete_size},
        {"removed-files-size", n->removed_size + n->removed_delete_size},
        {"added-position-deletes", n->pos_records},
        {"added-equality-deletes", n->eq_records},
        {"removed-position-delete-files", n->removed_pos_files},
        {"removed-equality-delete-files", n->removed_eq_files},
        {"removed-dvs", n->removed_dvs},
        {"removed-delete-files", nremoved_del},
        {"removed-position-deletes", n->removed_pos_records},
        {"removed-equality-deletes", n->removed_eq_records},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(set); i++)
        if (set[i].v > 0)
            FLOE_TRY(floe__summary_put(c, kv, set[i].key, "%lld", (long long)set[i].v));
    FLOE_TRY(floe__summary_put(c, kv, "changed-partition-count", "%lld",
                               (long long)o->changed_partitions));
    const struct {
        const char *key;
        int64_t delta;
    } totals[] = {
        {"total-records", n->added_records - n->removed_records},
        {"total-files-size",
         n->added_size + n->delete_size - n->removed_size - n->removed_delete_size},
        {"total-data-files", n->added_files - n->removed_files},
        {"total-delete-files", ndel - nremoved_del},
        {"total-position-deletes", n->pos_records - n->removed_pos_records},
        {"total-equality-deletes", n->eq_records - n->removed_eq_records},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(totals); i++) {
        bool ok = true;
        int64_t prev = parent ? floe__summary_int(parent, totals[i].key, &ok) : 0;
        if (ok)
            FLOE_TRY(floe__summary_put(c, kv, totals[i].key, "%lld",
                                       (long long)(prev + totals[i].delta)));
    }
    return 0;
}

/* ---------------------------------------------------------------- the snapshot */

void floe__manifest_list_options(floe_manifest_list_writer_options *lo, int format_version,
                                 int64_t snapshot_id, bool has_parent, int64_t parent_id,
                                 int64_t sequence_number, int64_t first_row_id,
                                 floe_avro_codec codec)
{
    memset(lo, 0, sizeof *lo);
    lo->format_version = format_version < 1 ? 1 : format_version;
    lo->first_row_id = first_row_id;
    lo->snapshot_id = snapshot_id;
    lo->has_parent_snapshot_id = has_parent;
    lo->parent_snapshot_id = parent_id;
    lo->sequence_number = sequence_number;
    lo->codec = codec;
    lo->compression_level = -1;
}

static int write_list(floe_producer *p, floe_table_change *c, const floe_table_metadata *base,
                      const floe_snapshot *parent, int64_t seq, const floe_vec *manifests,
                      char **list_path, int64_t *added_rows)
{
    char *heap = metadata_file(base, "snap-%lld-%d-%s.avro", (long long)p->snapshot_id,
                               p->attempt, p->commit_uuid);
    char *path = heap ? floe__arena_strdup(c->arena, heap) : NULL;
    floe__free(heap);
    if (!path)
        return floe__error_nomem();
    floe_manifest_list_writer_options lo;
    floe__manifest_list_options(&lo, base->format_version, p->snapshot_id, parent != NULL,
                                parent ? parent->snapshot_id : 0, seq,
                                base->has_next_row_id ? base->next_row_id : 0,
                                floe__table_avro_codec(base));
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list_writer *lw = NULL;
    int rc = floe_manifest_list_writer_new(&lw, &lo, &bytes);
    for (size_t i = 0; rc == 0 && i < manifests->len; i++)
        rc = floe_manifest_list_writer_add(lw, ((const floe_manifest_file **)manifests->items)[i]);
    if (rc == 0)
        rc = floe_manifest_list_writer_finish(lw);
    if (rc == 0)
        *added_rows = floe_manifest_list_writer_next_row_id(lw) - lo.first_row_id;
    floe_manifest_list_writer_free(lw);
    if (rc == 0)
        rc = floe__io_write_new(p->io, path, bytes.ptr, bytes.len);
    floe__buf_free(&bytes);
    const char **slot = rc == 0 ? floe__vec_push(&c->written) : NULL;
    if (rc == 0 && !slot)
        rc = floe__error_nomem();
    if (rc != 0) /* the writer and io calls return 0 or negative */
        return rc;
    *slot = path;
    *list_path = path;
    return 0;
}

static int add_snapshot(floe_producer *p, floe_table_change *c, const floe_table_metadata *base,
                        const floe_producer_snapshot *ps, int64_t seq, const char *list_path,
                        int64_t added_rows)
{
    const floe_vec *kv = ps->summary;
    floe_table_update *u = floe__change_update(c, FLOE_UPD_ADD_SNAPSHOT);
    floe_kv *kvs =
        kv->len ? floe__arena_memdup(c->arena, kv->items, kv->len * sizeof(floe_kv)) : NULL;
    if (!u || (kv->len && !kvs))
        return floe__error_nomem();
    floe_snapshot *s = &u->snapshot;
    s->snapshot_id = p->snapshot_id;
    s->has_parent = ps->parent != NULL;
    s->parent_snapshot_id = ps->parent ? ps->parent->snapshot_id : 0;
    s->sequence_number = seq;
    /* never before the base's last update (clocks of other writers) */
    s->timestamp_ms = floe__now_ms();
    if (s->timestamp_ms < base->last_updated_ms)
        s->timestamp_ms = base->last_updated_ms;
    s->has_schema_id = true;
    s->schema_id = base->current_schema_id;
    if (base->format_version >= 3) {
        s->has_first_row_id = true;
        s->first_row_id = base->has_next_row_id ? base->next_row_id : 0;
        s->has_added_rows = true;
        s->added_rows = added_rows;
    }
    FLOE_TRY(floe__snapshot_pack_manifest_list(s, c->arena, list_path));
    return floe__snapshot_pack_summary(s, c->arena, kvs, kv->len);
}

int floe__producer_commit(floe_producer *p, floe_table_change *c, const floe_table_metadata *base,
                          const floe_producer_snapshot *s)
{
    int64_t seq = base->format_version >= 2 ? base->last_sequence_number + 1 : 0;
    char *list_path = NULL;
    int64_t added_rows = 0;
    FLOE_TRY(write_list(p, c, base, s->parent, seq, s->manifests, &list_path, &added_rows));
    FLOE_TRY(add_snapshot(p, c, base, s, seq, list_path, added_rows));
    FLOE_TRY(floe__change_assert_ref(c, base, s->branch));
    if (s->stage)
        return 0;
    floe_snapshot_ref r = {0};
    if (s->head)
        r = *s->head;
    r.name = s->branch;
    r.type = FLOE_REF_BRANCH;
    r.snapshot_id = p->snapshot_id;
    return floe__change_set_ref(c, &r);
}
