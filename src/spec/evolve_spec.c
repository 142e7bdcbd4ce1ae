/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/evolve_spec: partition spec evolution (spec "Partition Evolution";
 * Java's BaseUpdatePartitionSpec with its messages). The change starts
 * from the table's default spec bound to its current schema; additions
 * reuse the field id of an identical field of any earlier spec in v2+
 * tables and take ids after last-partition-id otherwise; in v1 a removed
 * field stays as a void transform (spec "Partition Transforms").
 */
#include "spec/evolve.h"
#include "spec/transform.h"

#include <stdio.h>
#include <string.h>

struct floe_spec_change {
    const floe_table_metadata *base;
    const floe_partition_spec *spec;
    const floe_schema *schema;
    floe_arena *a;
    int32_t last_id;
    floe_vec adds;    /* floe_partition_field */
    floe_vec deletes; /* int32_t field ids */
    floe_vec renames; /* floe_kv: old name -> new name */
};

#define bad floe__evolve_bad

/* Java's PartitionField.toString: "1000: id_bucket: bucket[16](1)". */
static const char *pf_str(floe_spec_change *c, const floe_partition_field *f)
{
    if (!f)
        return "null";
    const char *s = floe__arena_sprintf(c->a, "%d: %s: %s(%d)", (int)f->field_id, f->name,
                                        f->transform.name, (int)f->source_id);
    return s ? s : "?";
}

/* Java's UnboundTerm.toString: ref(name="id") or bucket[16](ref(name="id")). */
static const char *term_str(floe_spec_change *c, const char *source, const floe_transform *tr)
{
    const char *s = tr->kind == FLOE_TR_IDENTITY
                        ? floe__arena_sprintf(c->a, "ref(name=\"%s\")", source)
                        : floe__arena_sprintf(c->a, "%s(ref(name=\"%s\"))", tr->name, source);
    return s ? s : "?";
}

int floe__spec_change_new(floe_spec_change **out, const floe_table_metadata *base)
{
    *out = NULL;
    const floe_partition_spec *spec = floe__metadata_spec(base, base->default_spec_id);
    const floe_schema *schema = floe__metadata_current_schema(base);
    if (!spec || !schema)
        return floe__error(FLOE_EINVALID, "evolve", "table has no default spec or schema");
    for (size_t i = 0; i < spec->nfields; i++)
        if (spec->fields[i].transform.kind == FLOE_TR_UNKNOWN) {
            const floe_partition_field *f = &spec->fields[i];
            return floe__error(FLOE_EINVALID, "evolve",
                               "Cannot update partition spec with unknown transform: %d: %s: "
                               "%s(%d)",
                               (int)f->field_id, f->name, f->transform.name, (int)f->source_id);
        }
    floe_spec_change *c = floe__calloc(1, sizeof *c);
    if (!c || !(c->a = floe__arena_new(0))) {
        floe__free(c);
        return floe__error_nomem();
    }
    c->base = base;
    c->spec = spec;
    c->schema = schema;
    c->last_id = base->last_partition_id;
    c->adds = (floe_vec)FLOE_VEC_INIT(floe_partition_field);
    c->deletes = (floe_vec)FLOE_VEC_INIT(int32_t);
    c->renames = (floe_vec)FLOE_VEC_INIT(floe_kv);
    *out = c;
    return 0;
}

void floe__spec_change_free(floe_spec_change *c)
{
    if (!c)
        return;
    floe__vec_free(&c->adds);
    floe__vec_free(&c->deletes);
    floe__vec_free(&c->renames);
    floe__arena_free(c->a);
    floe__free(c);
}

/* ---------------------------------------------------------------- indexes */

static bool deleted(const floe_spec_change *c, int32_t id)
{
    for (size_t i = 0; i < c->deletes.len; i++)
        if (*(int32_t *)floe__vec_at(&c->deletes, i) == id)
            return true;
    return false;
}

static const char *renamed(const floe_spec_change *c, const char *name)
{
    for (size_t i = 0; i < c->renames.len; i++) {
        const floe_kv *kv = floe__vec_at(&c->renames, i);
        if (strcmp(kv->key, name) == 0)
            return kv->value;
    }
    return NULL;
}

static int put_rename(floe_spec_change *c, const char *from, const char *to)
{
    for (size_t i = 0; i < c->renames.len; i++) {
        floe_kv *kv = floe__vec_at(&c->renames, i);
        if (strcmp(kv->key, from) == 0)
            return (kv->value = floe__arena_strdup(c->a, to)) ? 0 : floe__error_nomem();
    }
    floe_kv *kv = floe__vec_push(&c->renames);
    if (!kv)
        return floe__error_nomem();
    kv->key = floe__arena_strdup(c->a, from);
    kv->value = floe__arena_strdup(c->a, to);
    return kv->key && kv->value ? 0 : floe__error_nomem();
}

static const floe_partition_field *by_name(const floe_spec_change *c, const char *name)
{
    for (size_t i = 0; name && i < c->spec->nfields; i++)
        if (strcmp(c->spec->fields[i].name, name) == 0)
            return &c->spec->fields[i];
    return NULL;
}

static const floe_partition_field *added_by_name(const floe_spec_change *c, const char *name)
{
    for (size_t i = 0; name && i < c->adds.len; i++) {
        const floe_partition_field *f = floe__vec_at(&c->adds, i);
        if (strcmp(f->name, name) == 0)
            return f;
    }
    return NULL;
}

static bool same_transform(const floe_transform *a, const floe_transform *b)
{
    return strcmp(a->name, b->name) == 0;
}

static const floe_partition_field *by_transform(const floe_spec_change *c, int32_t source,
                                                const floe_transform *tr)
{
    for (size_t i = 0; i < c->spec->nfields; i++)
        if (c->spec->fields[i].source_id == source &&
            same_transform(&c->spec->fields[i].transform, tr))
            return &c->spec->fields[i];
    return NULL;
}

static const floe_partition_field *added_by_transform(const floe_spec_change *c, int32_t source,
                                                      const floe_transform *tr)
{
    for (size_t i = 0; i < c->adds.len; i++) {
        const floe_partition_field *f = floe__vec_at(&c->adds, i);
        if (f->source_id == source && same_transform(&f->transform, tr))
            return f;
    }
    return NULL;
}

static bool is_time(const floe_transform *t)
{
    return t->kind == FLOE_TR_YEAR || t->kind == FLOE_TR_MONTH || t->kind == FLOE_TR_DAY ||
           t->kind == FLOE_TR_HOUR;
}

/* Bind the term: the source column and a transform that applies to it. */
static int resolve(floe_spec_change *c, const char *source, const floe_transform *tr,
                   const floe_field **out)
{
    const floe_field *f = source ? floe__schema_field_by_name(c->schema, source) : NULL;
    if (!f) {
        floe_buf b = FLOE_BUF_INIT;
        int rc = floe__type_java(c->schema->root, &b);
        rc = rc >= 0 ? floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "evolve",
                                      "Cannot find field '%s' in struct: %s",
                                      source ? source : "null", b.ptr ? b.ptr : "")
                     : rc;
        floe__buf_free(&b);
        return rc;
    }
    if (tr->kind == FLOE_TR_UNKNOWN || floe_type_is_nested(f->type) ||
        (tr->kind != FLOE_TR_VOID && !floe_transform_result_type(tr, f->type))) {
        floe_buf b = FLOE_BUF_INIT;
        int rc = floe__type_java(f->type, &b);
        /* Java's UnboundTransform.bind */
        rc = rc >= 0 ? floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "evolve",
                                      "Cannot bind: %s cannot transform %s values from '%s'",
                                      tr->name, b.ptr ? b.ptr : "", source)
                     : rc;
        floe__buf_free(&b);
        return rc;
    }
    *out = f;
    return 0;
}

/* Java's PartitionNameGenerator. */
static const char *generated_name(floe_spec_change *c, const char *src, const floe_transform *t)
{
    switch (t->kind) {
    case FLOE_TR_IDENTITY: return floe__arena_strdup(c->a, src);
    case FLOE_TR_BUCKET: return floe__arena_sprintf(c->a, "%s_bucket_%d", src, (int)t->param);
    case FLOE_TR_TRUNCATE: return floe__arena_sprintf(c->a, "%s_trunc_%d", src, (int)t->param);
    case FLOE_TR_YEAR: return floe__arena_sprintf(c->a, "%s_year", src);
    case FLOE_TR_MONTH: return floe__arena_sprintf(c->a, "%s_month", src);
    case FLOE_TR_DAY: return floe__arena_sprintf(c->a, "%s_day", src);
    case FLOE_TR_HOUR: return floe__arena_sprintf(c->a, "%s_hour", src);
    default: return floe__arena_sprintf(c->a, "%s_null", src);
    }
}

/* Java's recycleOrCreatePartitionField: an identical field of any spec
 * (v2+) keeps its id (and its name when none is asked for). */
static int recycle_or_create(floe_spec_change *c, int32_t source, const floe_transform *tr,
                             const char *name, floe_partition_field *out)
{
    if (c->base->format_version >= 2) {
        for (size_t s = 0; s < c->base->nspecs; s++) {
            const floe_partition_spec *sp = c->base->specs[s];
            for (size_t i = 0; i < sp->nfields; i++) {
                const floe_partition_field *f = &sp->fields[i];
                if (f->source_id == source && same_transform(&f->transform, tr) &&
                    (!name || strcmp(f->name, name) == 0)) {
                    *out = *f;
                    return 0;
                }
            }
        }
    }
    *out = (floe_partition_field){.source_id = source, .field_id = ++c->last_id,
                                  .transform = *tr};
    out->name = name ? floe__arena_strdup(c->a, name) : NULL;
    return name && !out->name ? floe__error_nomem() : 0;
}

static void undelete(floe_spec_change *c, int32_t id)
{
    for (size_t i = 0; i < c->deletes.len; i++)
        if (*(int32_t *)floe__vec_at(&c->deletes, i) == id) {
            int32_t *v = c->deletes.items;
            memmove(&v[i], &v[i + 1], (c->deletes.len - i - 1) * sizeof *v);
            c->deletes.len--;
            return;
        }
}

/* ---------------------------------------------------------------- requests */

int floe__spec_change_add(floe_spec_change *c, const char *name, const char *source,
                          const floe_transform *tr_in)
{
    const floe_partition_field *already = added_by_name(c, name);
    if (already)
        return bad("Cannot add duplicate partition field: %s", pf_str(c, already));
    const floe_field *src;
    FLOE_TRY(resolve(c, source, tr_in, &src));
    floe_transform tr = *tr_in;
    if (!(tr.name = floe__arena_strdup(c->a, tr_in->name)))
        return floe__error_nomem();
    const floe_partition_field *existing = by_transform(c, src->id, &tr);
    if (existing && deleted(c, existing->field_id)) {
        undelete(c, existing->field_id); /* Java's rewriteDeleteAndAddField */
        if (!name || strcmp(existing->name, name) == 0)
            return 0;
        return floe__spec_change_rename(c, existing->name, name);
    }
    if (existing)
        return bad("Cannot add duplicate partition field %s=%s, conflicts with %s",
                   name ? name : "null", term_str(c, source, &tr), pf_str(c, existing));
    const floe_partition_field *added = added_by_transform(c, src->id, &tr);
    if (added)
        return bad("Cannot add duplicate partition field %s=%s, already added: %s",
                   name ? name : "null", term_str(c, source, &tr), pf_str(c, added));
    floe_partition_field nf;
    FLOE_TRY(recycle_or_create(c, src->id, &tr, name, &nf));
    if (!nf.name && !(nf.name = generated_name(c, src->name, &tr)))
        return floe__error_nomem();
    if (is_time(&tr)) {
        for (size_t i = 0; i < c->adds.len; i++) {
            const floe_partition_field *f = floe__vec_at(&c->adds, i);
            if (f->source_id == nf.source_id && is_time(&f->transform))
                return bad("Cannot add redundant partition field: %s conflicts with %s",
                           pf_str(c, f), pf_str(c, &nf));
        }
    }
    const floe_partition_field *same_name = by_name(c, nf.name);
    if (same_name && !deleted(c, same_name->field_id)) {
        if (same_name->transform.kind != FLOE_TR_VOID)
            return bad("Cannot add duplicate partition field name: %s", name ? name : "null");
        const char *to = floe__arena_sprintf(c->a, "%s_%d", same_name->name,
                                             (int)same_name->field_id);
        FLOE_TRY(to ? floe__spec_change_rename(c, same_name->name, to) : floe__error_nomem());
    } else if (same_name) {
        const char *to = floe__arena_sprintf(c->a, "%s_%d", same_name->name,
                                             (int)same_name->field_id);
        FLOE_TRY(to ? put_rename(c, same_name->name, to) : floe__error_nomem());
    }
    floe_partition_field *slot = floe__vec_push(&c->adds);
    if (!slot)
        return floe__error_nomem();
    *slot = nf;
    return 0;
}

static int remove_field(floe_spec_change *c, const floe_partition_field *f)
{
    int32_t *slot = floe__vec_push(&c->deletes);
    if (!slot)
        return floe__error_nomem();
    *slot = f->field_id;
    return 0;
}

int floe__spec_change_remove(floe_spec_change *c, const char *name)
{
    const floe_partition_field *already = added_by_name(c, name);
    if (already)
        return bad("Cannot delete newly added field: %s", pf_str(c, already));
    if (name && renamed(c, name))
        return bad("Cannot rename and delete partition field: %s", name);
    const floe_partition_field *f = by_name(c, name);
    if (!f)
        return bad("Cannot find partition field to remove: %s", name ? name : "null");
    return remove_field(c, f);
}

int floe__spec_change_remove_term(floe_spec_change *c, const char *source,
                                  const floe_transform *tr)
{
    const floe_field *src;
    FLOE_TRY(resolve(c, source, tr, &src));
    const floe_partition_field *added = added_by_transform(c, src->id, tr);
    if (added)
        return bad("Cannot delete newly added field: %s", pf_str(c, added));
    const floe_partition_field *f = by_transform(c, src->id, tr);
    if (!f)
        return bad("Cannot find partition field to remove: %s", term_str(c, source, tr));
    if (renamed(c, f->name))
        return bad("Cannot rename and delete partition field: %s", f->name);
    return remove_field(c, f);
}

int floe__spec_change_rename(floe_spec_change *c, const char *name, const char *new_name)
{
    if (!name || !new_name)
        return bad("Cannot rename partition field to or from null");
    const floe_partition_field *taken = by_name(c, new_name);
    if (taken && taken->transform.kind == FLOE_TR_VOID) {
        const char *to = floe__arena_sprintf(c->a, "%s_%d", taken->name, (int)taken->field_id);
        FLOE_TRY(to ? floe__spec_change_rename(c, taken->name, to) : floe__error_nomem());
    }
    if (added_by_name(c, name))
        return bad("Cannot rename newly added partition field: %s", name);
    const floe_partition_field *f = by_name(c, name);
    if (!f)
        return bad("Cannot find partition field to rename: %s", name);
    if (deleted(c, f->field_id))
        return bad("Cannot delete and rename partition field: %s", name);
    return put_rename(c, name, new_name);
}

/* ---------------------------------------------------------------- apply */

int floe__spec_change_apply(floe_spec_change *c, floe_arena *a, floe_partition_spec **out)
{
    *out = NULL;
    size_t cap = c->spec->nfields + c->adds.len + 1;
    floe_partition_field *f = floe__arena_calloc(a, cap, sizeof *f);
    floe_partition_spec *s = floe__arena_calloc(a, 1, sizeof *s);
    if (!f || !s)
        return floe__error_nomem();
    size_t n = 0;
    for (size_t i = 0; i < c->spec->nfields; i++) {
        const floe_partition_field *pf = &c->spec->fields[i];
        bool del = deleted(c, pf->field_id);
        if (del && c->base->format_version >= 2)
            continue;
        f[n] = *pf;
        const char *to = renamed(c, pf->name);
        if (to)
            f[n].name = to;
        if (del) /* v1: a removed field stays, always null */
            f[n].transform = (floe_transform){.kind = FLOE_TR_VOID, .name = "void"};
        n++;
    }
    for (size_t i = 0; i < c->adds.len; i++)
        f[n++] = *(const floe_partition_field *)floe__vec_at(&c->adds, i);
    for (size_t i = 0; i < n; i++) /* the result outlives the change */
        if (!(f[i].name = floe__arena_strdup(a, f[i].name)) ||
            !(f[i].transform.name = floe__arena_strdup(a, f[i].transform.name)))
            return floe__error_nomem();
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < i; k++)
            if (strcmp(f[i].name, f[k].name) == 0)
                return bad("Cannot use partition name more than once: %s", f[i].name);
    s->fields = f;
    s->nfields = n;
    *out = s;
    return 0;
}
