/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/deletes: which delete files apply to which data file, and what they
 * delete (spec "Row-level Deletes", "Position Delete Files", "Equality
 * Delete Files", "Scan Planning" rules on sequence numbers).
 *
 * Pairing (spec "Scan Planning"):
 *   - a position delete file applies to a data file when the data file's
 *     data sequence number is <= the delete's, and it is in the same
 *     partition of the same spec; when `referenced_data_file` is set it
 *     applies only to that file;
 *   - an equality delete file applies when the data sequence number is
 *     strictly < the delete's (a row added in the same commit survives), and
 *     it is in the same partition of the same spec, or the delete's spec is
 *     unpartitioned (a global delete).
 * v3 deletion vectors (position deletes stored as Puffin blobs, dv.c) apply
 * like position deletes; they always name their referenced_data_file.
 *
 * Loading: position delete files are read with the reserved columns
 * file_path (id 2147483546) and pos (2147483545), keeping the rows of the
 * data file being read; equality delete files are read with their
 * equality_ids columns (types from the read schema, by field id) into a hash
 * set of encoded tuples. Equality is null-safe: a null deletes nulls.
 */
#include "scan/scan.h"

#include "arrow/arrow.h"
#include "manifest/manifest.h"
#include "parquet/parquet.h"
#include "spec/spec.h"
#include "spec/value.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- keys */

int floe__scan_key(floe_buf *out, const floe_value *vals, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const floe_value *v = &vals[i];
        int64_t iv;
        FLOE_TRY(floe__buf_putc(out, (char)(v->is_null ? 0 : 1)));
        if (v->is_null)
            continue;
        switch (v->type) {
        case FLOE_T_BOOLEAN:
            FLOE_TRY(floe__buf_putc(out, v->v.b ? 1 : 0));
            break;
        case FLOE_T_INT:
        case FLOE_T_DATE:
            iv = v->v.i32;
            FLOE_TRY(floe__buf_put(out, &iv, 8));
            break;
        case FLOE_T_FLOAT: {
            double d = v->v.f32;
            FLOE_TRY(floe__buf_put(out, &d, 8));
            break;
        }
        case FLOE_T_DOUBLE:
            FLOE_TRY(floe__buf_put(out, &v->v.f64, 8));
            break;
        case FLOE_T_DECIMAL:
            FLOE_TRY(floe__buf_put(out, &v->v.dec, sizeof(v->v.dec)));
            FLOE_TRY(floe__buf_put(out, &v->scale, 4));
            break;
        case FLOE_T_STRING:
        case FLOE_T_BINARY:
        case FLOE_T_FIXED:
        case FLOE_T_UUID: {
            uint64_t len = v->v.bytes.len;
            FLOE_TRY(floe__buf_put(out, &len, 8));
            FLOE_TRY(floe__buf_put(out, v->v.bytes.ptr, v->v.bytes.len));
            break;
        }
        default:
            FLOE_TRY(floe__buf_put(out, &v->v.i64, 8));
            break;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- equality sets */

struct floe_scan_eqset {
    size_t nids;
    int32_t *ids;
    size_t cap, n; /* open addressing over `slots` */
    struct eqslot {
        uint64_t hash;
        char *key; /* NULL: empty */
        size_t len;
    } *slots;
};

void floe__scan_eqset_free(floe_scan_eqset *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->cap; i++)
        floe__free(s->slots[i].key);
    floe__free(s->slots);
    floe__free(s->ids);
    floe__free(s);
}

size_t floe__scan_eqset_nids(const floe_scan_eqset *s)
{
    return s->nids;
}

const int32_t *floe__scan_eqset_ids(const floe_scan_eqset *s)
{
    return s->ids;
}

static struct eqslot *eq_find(const floe_scan_eqset *s, const char *key, size_t len, uint64_t h)
{
    size_t mask = s->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        struct eqslot *sl = &s->slots[i];
        if (!sl->key || (sl->hash == h && sl->len == len && !memcmp(sl->key, key, len)))
            return sl;
    }
}

static int eq_add(floe_scan_eqset *s, const char *key, size_t len)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 64;
        struct eqslot *old = s->slots;
        size_t ocap = s->cap;
        struct eqslot *ns = floe__calloc(ncap, sizeof(*ns));
        if (!ns)
            return floe__error_nomem();
        s->slots = ns;
        s->cap = ncap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i].key)
                *eq_find(s, old[i].key, old[i].len, old[i].hash) = old[i];
        floe__free(old);
    }
    uint64_t h = floe__hash_bytes(key, len);
    struct eqslot *sl = eq_find(s, key, len, h);
    if (sl->key)
        return 0;
    if (!(sl->key = floe__malloc(len ? len : 1)))
        return floe__error_nomem();
    memcpy(sl->key, key, len);
    sl->len = len;
    sl->hash = h;
    s->n++;
    return 0;
}

bool floe__scan_eqset_has(const floe_scan_eqset *s, const floe_value *vals)
{
    if (!s->n)
        return false;
    floe_buf b = FLOE_BUF_INIT;
    if (floe__scan_key(&b, vals, s->nids) < 0) {
        floe__buf_free(&b);
        return false;
    }
    uint64_t h = floe__hash_bytes(b.ptr, b.len);
    bool found = eq_find(s, b.ptr, b.len, h)->key != NULL;
    floe__buf_free(&b);
    return found;
}

/* ---------------------------------------------------------------- pairing */

typedef struct group {
    floe_vec dels; /* const floe_scan_file* */
} group;

static int partition_key(floe_buf *b, int32_t spec_id, const floe_partition_value *pv)
{
    floe__buf_clear(b);
    FLOE_TRY(floe__buf_printf(b, "%d:", spec_id));
    floe_buf raw = FLOE_BUF_INIT;
    int rc = floe__scan_key(&raw, pv->values, pv->n);
    for (size_t i = 0; rc == 0 && i < raw.len; i++)
        rc = floe__buf_printf(b, "%02x", (unsigned char)raw.ptr[i]);
    floe__buf_free(&raw);
    return rc;
}

static bool spec_unpartitioned(const floe_table_metadata *m, int32_t spec_id)
{
    const floe_partition_spec *s = floe__metadata_spec(m, spec_id);
    if (!s)
        return true;
    for (size_t i = 0; i < s->nfields; i++)
        if (s->fields[i].transform.kind != FLOE_TR_VOID)
            return false;
    return true;
}

static int group_add(floe_strmap *m, floe_vec *groups, floe_arena *a, const char *key,
                     const floe_scan_file *f)
{
    group *g = floe__strmap_get(m, key);
    if (!g) {
        if (!(g = floe__arena_calloc(a, 1, sizeof(*g))))
            return floe__error_nomem();
        g->dels = (floe_vec)FLOE_VEC_INIT(const floe_scan_file *);
        const char *k = floe__arena_strdup(a, key);
        if (!k)
            return floe__error_nomem();
        /* pushed only once k exists: a NULL slot would crash the cleanup */
        group **slot = floe__vec_push(groups);
        if (!slot)
            return floe__error_nomem();
        *slot = g;
        FLOE_TRY(floe__strmap_put(m, k, g));
    }
    const floe_scan_file **s = floe__vec_push(&g->dels);
    if (!s)
        return floe__error_nomem();
    *s = f;
    return 0;
}

static bool applies(const floe_scan_file *d, const floe_scan_file *f)
{
    if (d->content == FLOE_FILE_POSITION_DELETES) {
        const char *ref = floe__scan_delete_info(d)->referenced_data_file;
        if (ref && strcmp(ref, f->path) != 0)
            return false;
        return f->data_sequence_number <= d->data_sequence_number;
    }
    return f->data_sequence_number < d->data_sequence_number;
}

int floe__scan_assign_deletes(floe_scan_plan *p, const floe_scan_file *const *deletes,
                              size_t ndeletes)
{
    if (!ndeletes)
        return 0;
    floe_strmap *by_part = floe__strmap_new(), *by_ref = floe__strmap_new();
    /* distinct delete entries (a Puffin file may hold several DVs) */
    floe_intmap *applied = floe__intmap_new();
    floe_vec groups = FLOE_VEC_INIT(group *);
    floe_vec global = FLOE_VEC_INIT(const floe_scan_file *);
    floe_vec cand = FLOE_VEC_INIT(const floe_scan_file *);
    floe_buf key = FLOE_BUF_INIT;
    int rc = 0;
    if (!by_part || !by_ref || !applied) {
        rc = floe__error_nomem();
        goto done;
    }
    for (size_t i = 0; i < ndeletes && rc == 0; i++) {
        const floe_scan_file *d = deletes[i];
        const char *ref = floe__scan_delete_info(d)->referenced_data_file;
        if (d->content == FLOE_FILE_POSITION_DELETES && ref) {
            rc = group_add(by_ref, &groups, p->arena, ref, d);
        } else if (d->content == FLOE_FILE_EQUALITY_DELETES &&
                   spec_unpartitioned(p->meta, d->spec_id)) {
            const floe_scan_file **s = floe__vec_push(&global);
            if (!s)
                rc = floe__error_nomem();
            else
                *s = d;
        } else if ((rc = partition_key(&key, d->spec_id, &d->partition)) == 0) {
            rc = group_add(by_part, &groups, p->arena, key.ptr, d);
        }
    }
    int32_t key_spec = 0;
    const floe_value *key_vals = NULL;
    const group *part_group = NULL;
    for (size_t t = 0; t < p->ntasks && rc == 0; t++) {
        floe_scan_task *task = &p->tasks[t];
        const floe_scan_file *f = task->file;
        cand.len = 0;
        const group *gs[2] = {floe__strmap_get(by_ref, f->path), NULL};
        /* neighbouring files of a manifest share one tuple (plan.c): the
         * key and its group are those of the task before */
        if (t == 0 || f->spec_id != key_spec || f->partition.values != key_vals) {
            if ((rc = partition_key(&key, f->spec_id, &f->partition)) < 0)
                break;
            key_spec = f->spec_id;
            key_vals = f->partition.values;
            part_group = floe__strmap_get(by_part, key.ptr);
        }
        gs[1] = part_group;
        const floe_vec *lists[3] = {gs[0] ? &gs[0]->dels : NULL, gs[1] ? &gs[1]->dels : NULL,
                                    &global};
        for (int l = 0; l < 3 && rc == 0; l++) {
            if (!lists[l])
                continue;
            for (size_t i = 0; i < lists[l]->len; i++) {
                const floe_scan_file *d = *(const floe_scan_file **)floe__vec_at(lists[l], i);
                if (!applies(d, f))
                    continue;
                bool dv = !strcmp(d->format, "PUFFIN");
                const floe_scan_delete_info *di = floe__scan_delete_info(d);
                if (dv && (d->content != FLOE_FILE_POSITION_DELETES || !di->referenced_data_file ||
                           !di->has_content_offset || di->content_size_in_bytes < 0)) {
                    rc = floe__error(FLOE_ECORRUPT, "scan",
                                     "deletion vector %s lacks referenced_data_file, "
                                     "content_offset or content_size_in_bytes",
                                     d->path);
                    break;
                }
                if (!dv && strcmp(d->format, "PARQUET") != 0) {
                    rc = floe__error(FLOE_EUNSUPPORTED, "scan",
                                     "delete files in format %s are not supported: %s", d->format,
                                     d->path);
                    break;
                }
                const floe_scan_file **s = floe__vec_push(&cand);
                if (!s) {
                    rc = floe__error_nomem();
                    break;
                }
                *s = d;
                if (!floe__intmap_has(applied, (int64_t)(intptr_t)d)) {
                    if ((rc = floe__intmap_put(applied, (int64_t)(intptr_t)d, (void *)d)) < 0)
                        break;
                }
            }
        }
        if (rc < 0 || !cand.len)
            continue;
        const floe_scan_file **arr =
            floe__arena_memdup(p->arena, cand.items, cand.len * sizeof(const floe_scan_file *));
        if (!arr) {
            rc = floe__error_nomem();
            break;
        }
        task->deletes = arr;
        task->ndeletes = cand.len;
    }
    if (rc == 0)
        p->report.delete_files_applied = (int64_t)floe__intmap_len(applied);
done:
    for (size_t i = 0; i < groups.len; i++)
        floe__vec_free(&(*(group **)floe__vec_at(&groups, i))->dels);
    floe__vec_free(&groups);
    floe__vec_free(&global);
    floe__vec_free(&cand);
    floe__buf_free(&key);
    floe__strmap_free(by_part);
    floe__strmap_free(by_ref);
    floe__intmap_free(applied);
    return rc;
}

/* ---------------------------------------------------------------- loading */

#define FIELD_FILE_PATH 2147483546
#define FIELD_POS 2147483545

static const floe_type t_string = {.id = FLOE_T_STRING};
static const floe_type t_long = {.id = FLOE_T_LONG};

static int open_delete(floe_pq_reader **r, floe_input **in, floe_fileio *io, const char *path,
                       const floe_schema *proj)
{
    FLOE_TRY(floe_fileio_open_input(in, io, path));
    floe_pq_read_options o;
    memset(&o, 0, sizeof o);
    o.projection = proj;
    int rc = floe__pq_reader_open(r, *in, &o);
    if (rc < 0) {
        (*in)->close(*in);
        *in = NULL;
    }
    return rc;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Largest deletion vector blob read (a DV of 2^32 rows in run containers is
 * far smaller). */
#define MAX_DV_BYTES ((int64_t)1 << 30)

static int load_dv(floe_fileio *io, const floe_scan_file *data, const floe_scan_file *file,
                   floe_vec *pos)
{
    const floe_scan_delete_info *d = floe__scan_delete_info(file);
    if (d->content_size_in_bytes > MAX_DV_BYTES || d->content_offset < 0)
        return floe__error(FLOE_ECORRUPT, "scan", "deletion vector %s: bad content size or offset",
                           file->path);
    floe_input *in;
    FLOE_TRY(floe_fileio_open_input(&in, io, file->path));
    int rc = 0;
    if (d->content_offset > in->size || d->content_size_in_bytes > in->size - d->content_offset)
        rc = floe__error(FLOE_ECORRUPT, "scan",
                         "deletion vector at offset %lld (%lld bytes) lies outside %s (%lld bytes)",
                         (long long)d->content_offset, (long long)d->content_size_in_bytes,
                         file->path, (long long)in->size);
    size_t n = (size_t)d->content_size_in_bytes;
    uint8_t *blob = rc == 0 ? floe__malloc(n ? n : 1) : NULL;
    if (rc == 0 && !blob)
        rc = floe__error_nomem();
    if (rc == 0 && n)
        rc = in->read_at(in, d->content_offset, blob, n);
    if (rc == 0)
        rc = floe__scan_dv_decode(blob, n, file->path, d->content_offset,
                                  data->record_count > 0 ? (uint64_t)data->record_count : 0, pos);
    floe__free(blob);
    in->close(in);
    return rc;
}

int floe__scan_load_posdeletes(floe_fileio *io, const floe_scan_file *data,
                               const floe_scan_file *const *deletes, size_t n,
                               floe_scan_posdel *out)
{
    const char *data_path = data->path;
    out->n = 0;
    out->pos = NULL;
    floe_field fields[2] = {{FIELD_FILE_PATH, "file_path", true, &t_string, NULL, NULL, NULL},
                            {FIELD_POS, "pos", true, &t_long, NULL, NULL, NULL}};
    floe_type root = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = fields};
    floe_schema proj;
    memset(&proj, 0, sizeof proj);
    proj.root = &root;
    floe_vec pos = FLOE_VEC_INIT(int64_t);
    size_t plen = strlen(data_path);
    int rc = 0;
    for (size_t d = 0; d < n && rc == 0; d++) {
        if (deletes[d]->content != FLOE_FILE_POSITION_DELETES)
            continue;
        if (!strcmp(deletes[d]->format, "PUFFIN")) {
            rc = load_dv(io, data, deletes[d], &pos);
            continue;
        }
        floe_pq_reader *r;
        floe_input *in;
        if ((rc = open_delete(&r, &in, io, deletes[d]->path, &proj)) < 0)
            break;
        for (;;) {
            struct ArrowArray b;
            rc = floe__pq_reader_next(r, &b);
            if (rc == FLOE_ITEROVER) {
                rc = 0;
                break;
            }
            if (rc < 0)
                break;
            const struct ArrowArray *fp = b.children[0], *ps = b.children[1];
            const int32_t *off = (const int32_t *)fp->buffers[1] + fp->offset;
            const char *chars = fp->buffers[2];
            const int64_t *pv = (const int64_t *)ps->buffers[1] + ps->offset;
            for (int64_t i = 0; i < b.length; i++) {
                size_t l = (size_t)(off[i + 1] - off[i]);
                if (l != plen || memcmp(chars + off[i], data_path, l) != 0 ||
                    !floe__arrow_is_valid(ps, i))
                    continue;
                int64_t *slot = floe__vec_push(&pos);
                if (!slot) {
                    rc = floe__error_nomem();
                    break;
                }
                *slot = pv[i];
            }
            b.release(&b);
            if (rc < 0)
                break;
        }
        floe__pq_reader_free(r);
        in->close(in);
    }
    if (rc < 0) {
        floe__vec_free(&pos);
        return floe__error_context("reading position deletes");
    }
    if (pos.len) {
        int64_t *p = pos.items;
        qsort(p, pos.len, sizeof(int64_t), cmp_i64);
        size_t w = 0;
        for (size_t i = 0; i < pos.len; i++)
            if (!w || p[w - 1] != p[i])
                p[w++] = p[i];
        out->n = w;
        out->pos = p;
    } else {
        floe__vec_free(&pos);
    }
    return 0;
}

static bool same_ids(const floe_scan_eqset *s, const floe_scan_file *f)
{
    const floe_scan_delete_info *di = floe__scan_delete_info(f);
    return s->nids == di->nequality_ids &&
           !memcmp(s->ids, di->equality_ids, s->nids * sizeof(int32_t));
}

static int load_eq_file(floe_scan_eqset *s, floe_fileio *io, const floe_schema *schema,
                        const floe_scan_file *f)
{
    floe_field fields[64];
    if (s->nids > FLOE_ARRAY_LEN(fields))
        return floe__error(FLOE_EUNSUPPORTED, "scan", "too many equality ids in %s", f->path);
    for (size_t i = 0; i < s->nids; i++) {
        const floe_field *tf = floe__schema_field_by_id(schema, s->ids[i]);
        if (!tf || floe_type_is_nested(tf->type))
            return floe__error(FLOE_EINVALID, "scan",
                               "equality delete %s uses field id %d, not a primitive column of "
                               "the schema",
                               f->path, s->ids[i]);
        fields[i] = *tf;
        fields[i].required = false;
        fields[i].initial_default = NULL;
    }
    floe_type root = {.id = FLOE_T_STRUCT, .nfields = s->nids, .fields = fields};
    floe_schema proj;
    memset(&proj, 0, sizeof proj);
    proj.root = &root;
    floe_pq_reader *r;
    floe_input *in;
    FLOE_TRY(open_delete(&r, &in, io, f->path, &proj));
    floe_value vals[64];
    floe_buf key = FLOE_BUF_INIT;
    int rc;
    for (;;) {
        struct ArrowArray b;
        rc = floe__pq_reader_next(r, &b);
        if (rc == FLOE_ITEROVER) {
            rc = 0;
            break;
        }
        if (rc < 0)
            break;
        for (int64_t i = 0; i < b.length && rc == 0; i++) {
            for (size_t k = 0; k < s->nids && rc == 0; k++)
                rc = floe__arrow_value_at(b.children[k], fields[k].type, i, &vals[k]);
            floe__buf_clear(&key);
            if (rc == 0 && (rc = floe__scan_key(&key, vals, s->nids)) == 0)
                rc = eq_add(s, key.ptr ? key.ptr : "", key.len);
        }
        b.release(&b);
        if (rc < 0)
            break;
    }
    floe__buf_free(&key);
    floe__pq_reader_free(r);
    in->close(in);
    if (rc < 0)
        return floe__error_context("reading equality deletes %s", f->path);
    return 0;
}

int floe__scan_load_eqdeletes(floe_fileio *io, const floe_schema *schema,
                              const floe_scan_file *const *deletes, size_t n,
                              floe_scan_eqset ***out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    floe_vec sets = FLOE_VEC_INIT(floe_scan_eqset *);
    int rc = 0;
    for (size_t d = 0; d < n && rc == 0; d++) {
        const floe_scan_file *f = deletes[d];
        if (f->content != FLOE_FILE_EQUALITY_DELETES)
            continue;
        const floe_scan_delete_info *di = floe__scan_delete_info(f);
        if (!di->nequality_ids) {
            rc = floe__error(FLOE_ECORRUPT, "scan", "equality delete file %s has no equality_ids",
                             f->path);
            break;
        }
        floe_scan_eqset *s = NULL;
        for (size_t i = 0; i < sets.len; i++) {
            floe_scan_eqset *c = *(floe_scan_eqset **)floe__vec_at(&sets, i);
            if (same_ids(c, f))
                s = c;
        }
        if (!s) {
            floe_scan_eqset **slot = floe__vec_push(&sets);
            if (!slot || !(s = floe__calloc(1, sizeof(*s))) ||
                !(s->ids = floe__malloc(di->nequality_ids * sizeof(int32_t)))) {
                if (s)
                    floe__free(s);
                if (slot)
                    sets.len--;
                rc = floe__error_nomem();
                break;
            }
            memcpy(s->ids, di->equality_ids, di->nequality_ids * sizeof(int32_t));
            s->nids = di->nequality_ids;
            *slot = s;
        }
        rc = load_eq_file(s, io, schema, f);
    }
    if (rc < 0) {
        for (size_t i = 0; i < sets.len; i++)
            floe__scan_eqset_free(*(floe_scan_eqset **)floe__vec_at(&sets, i));
        floe__vec_free(&sets);
        return rc;
    }
    *out = sets.items;
    *nout = sets.len;
    return 0;
}
