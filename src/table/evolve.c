/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/evolve: the public schema / partition spec / sort order updates of
 * include/floe/evolve.h. Requests are recorded and, on each call, replayed
 * on the handle's current metadata (so a refused request is reported at
 * once, as Java's UpdateSchema does); the commit's prepare replays them on
 * the base it is given (a retry after a lost compare-and-set validates on
 * the new state) and emits the REST model's updates: add-schema +
 * set-current-schema, add-spec + set-default-spec, add-sort-order +
 * set-default-sort-order, with Java's UpdateRequirements (assert
 * last-assigned-field-id / current-schema-id, last-assigned-partition-id /
 * default-spec-id, default-sort-order-id).
 */
#include "table/table.h"

#include "floe/evolve.h"
#include "spec/evolve.h"
#include "table/evolve.h"
#include "spec/transform.h"

#include <string.h>

/* ---------------------------------------------------------------- schema requests */

typedef enum sop_kind {
    SOP_ADD,
    SOP_DELETE,
    SOP_RENAME,
    SOP_TYPE,
    SOP_DOC,
    SOP_OPTIONAL,
    SOP_REQUIRE,
    SOP_MOVE,
    SOP_IDENT,
} sop_kind;

typedef struct sop {
    sop_kind kind;
    const char *parent, *name, *arg, *doc, *dflt; /* arg: type, new name, ref column */
    const floe_type *type;                        /* SOP_ADD, SOP_TYPE */
    bool required;
    floe_move_kind move;
    const char *const *names;
    size_t nnames;
} sop;

struct floe_schema_update {
    floe_table *table;
    floe_arena *a;
    floe_vec ops; /* sop */
};

static const char *dup(floe_arena *a, const char *s, bool *oom)
{
    if (!s)
        return NULL;
    char *r = floe__arena_strdup(a, s);
    if (!r)
        *oom = true;
    return r;
}

/* A type string or JSON type into `a`. */
static int parse_type(floe_arena *a, const char *s, const floe_type **out)
{
    if (!s)
        return floe__error(FLOE_EINVALID, "evolve", "Cannot add column with null type");
    while (*s == ' ')
        s++;
    if (*s != '{')
        return floe__type_parse(s, a, out);
    floe_json *j = NULL;
    FLOE_TRY(floe__json_parse(&j, s, strlen(s), "type"));
    int rc = floe__type_from_json(out, j, a, 0);
    floe__json_free(j);
    return rc;
}

static int replay_one(floe_schema_change *c, const sop *o, int format_version, floe_arena *a)
{
    switch (o->kind) {
    case SOP_ADD: {
        floe_value v, *pv = NULL;
        if (o->dflt) {
            floe_json *j = NULL;
            int rc = floe__json_parse(&j, o->dflt, strlen(o->dflt), "default value");
            if (rc == 0)
                rc = floe__value_from_json(&v, j, o->type, a);
            floe__json_free(j);
            FLOE_TRY(rc);
            pv = &v;
        }
        (void)format_version;
        return floe__schema_change_add(c, o->parent, o->name, o->type, o->required, o->doc, pv);
    }
    case SOP_DELETE: return floe__schema_change_delete(c, o->name);
    case SOP_RENAME: return floe__schema_change_rename(c, o->name, o->arg);
    case SOP_TYPE: return floe__schema_change_type(c, o->name, o->type);
    case SOP_DOC: return floe__schema_change_doc(c, o->name, o->doc);
    case SOP_OPTIONAL: return floe__schema_change_optional(c, o->name, true);
    case SOP_REQUIRE: return floe__schema_change_optional(c, o->name, false);
    case SOP_MOVE: return floe__schema_change_move(c, o->name, o->move, o->arg);
    case SOP_IDENT: return floe__schema_change_identifier_fields(c, o->names, o->nnames);
    }
    return floe__error(FLOE_EINVALID, "evolve", "unknown schema request");
}

/* Replay every request on `base`; *out (in `a`, indexed) is the result. */
static int replay(const floe_schema_update *u, const floe_table_metadata *base, floe_arena *a,
                  floe_schema **out, int32_t *last_id)
{
    const floe_schema *cur = floe__metadata_current_schema(base);
    if (!cur)
        return floe__error(FLOE_ECORRUPT, "evolve", "table has no current schema");
    floe_schema_change *c;
    FLOE_TRY(floe__schema_change_new(&c, cur, base->last_column_id, base->format_version));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < u->ops.len; i++)
        rc = replay_one(c, floe__vec_at(&u->ops, i), base->format_version, a);
    if (rc == 0)
        rc = floe__schema_change_apply(c, a, out, last_id);
    floe__schema_change_free(c);
    return rc;
}

/* Record `o` (strings copied) and check the whole list on the handle. */
static int record(floe_schema_update *u, const sop *in)
{
    if (!u)
        return floe__error(FLOE_EINVALID, "evolve", "NULL schema update");
    bool oom = false;
    sop o = *in;
    o.parent = dup(u->a, in->parent, &oom);
    o.name = dup(u->a, in->name, &oom);
    o.arg = dup(u->a, in->arg, &oom);
    o.doc = dup(u->a, in->doc, &oom);
    o.dflt = dup(u->a, in->dflt, &oom);
    if (in->nnames) {
        const char **n = floe__arena_calloc(u->a, in->nnames, sizeof *n);
        for (size_t i = 0; n && i < in->nnames; i++)
            n[i] = dup(u->a, in->names[i], &oom);
        o.names = n;
        oom |= !n;
    }
    if (oom)
        return floe__error_nomem();
    sop *slot = floe__vec_push(&u->ops);
    if (!slot)
        return floe__error_nomem();
    *slot = o;
    floe_arena *scratch = floe__arena_new(0);
    floe_schema *s = NULL;
    int rc = scratch ? replay(u, u->table->metadata, scratch, &s, NULL) : floe__error_nomem();
    floe__schema_release(s);
    floe__arena_free(scratch);
    if (rc < 0)
        u->ops.len--;
    return rc;
}

int floe_schema_update_new(floe_schema_update **out, floe_table *table)
{
    *out = NULL;
    if (!table)
        return floe__error(FLOE_EINVALID, "evolve", "NULL table");
    floe_schema_update *u = floe__calloc(1, sizeof *u);
    if (!u || !(u->a = floe__arena_new(0))) {
        floe__free(u);
        return floe__error_nomem();
    }
    u->table = table;
    u->ops = (floe_vec)FLOE_VEC_INIT(sop);
    *out = u;
    return 0;
}

void floe_schema_update_free(floe_schema_update *u)
{
    if (!u)
        return;
    floe__vec_free(&u->ops);
    floe__arena_free(u->a);
    floe__free(u);
}

int floe__schema_update_add_type(floe_schema_update *u, const char *parent, const char *name,
                                 const floe_type *type, bool required, const char *doc,
                                 const char *default_json)
{
    sop o = {.kind = SOP_ADD, .parent = parent, .name = name, .type = type,
             .required = required, .doc = doc, .dflt = default_json};
    return record(u, &o);
}

int floe_schema_update_add_column(floe_schema_update *u, const char *parent, const char *name,
                                  const char *type, bool required, const char *doc,
                                  const char *default_json)
{
    if (!u)
        return floe__error(FLOE_EINVALID, "evolve", "NULL schema update");
    const floe_type *t;
    FLOE_TRY(parse_type(u->a, type, &t));
    return floe__schema_update_add_type(u, parent, name, t, required, doc, default_json);
}

int floe_schema_update_delete_column(floe_schema_update *u, const char *name)
{
    sop o = {.kind = SOP_DELETE, .name = name};
    return record(u, &o);
}

int floe_schema_update_rename_column(floe_schema_update *u, const char *name, const char *new_name)
{
    sop o = {.kind = SOP_RENAME, .name = name, .arg = new_name};
    return record(u, &o);
}

int floe_schema_update_update_column(floe_schema_update *u, const char *name, const char *type)
{
    if (!u)
        return floe__error(FLOE_EINVALID, "evolve", "NULL schema update");
    sop o = {.kind = SOP_TYPE, .name = name};
    FLOE_TRY(parse_type(u->a, type, &o.type));
    return record(u, &o);
}

int floe_schema_update_update_column_doc(floe_schema_update *u, const char *name, const char *doc)
{
    sop o = {.kind = SOP_DOC, .name = name, .doc = doc};
    return record(u, &o);
}

int floe_schema_update_make_column_optional(floe_schema_update *u, const char *name)
{
    sop o = {.kind = SOP_OPTIONAL, .name = name};
    return record(u, &o);
}

int floe_schema_update_require_column(floe_schema_update *u, const char *name)
{
    sop o = {.kind = SOP_REQUIRE, .name = name};
    return record(u, &o);
}

int floe_schema_update_move_first(floe_schema_update *u, const char *name)
{
    sop o = {.kind = SOP_MOVE, .name = name, .move = FLOE_MOVE_FIRST};
    return record(u, &o);
}

int floe_schema_update_move_before(floe_schema_update *u, const char *name, const char *before)
{
    sop o = {.kind = SOP_MOVE, .name = name, .move = FLOE_MOVE_BEFORE, .arg = before};
    return record(u, &o);
}

int floe_schema_update_move_after(floe_schema_update *u, const char *name, const char *after)
{
    sop o = {.kind = SOP_MOVE, .name = name, .move = FLOE_MOVE_AFTER, .arg = after};
    return record(u, &o);
}

int floe_schema_update_set_identifier_fields(floe_schema_update *u, const char *const *names,
                                             size_t n)
{
    sop o = {.kind = SOP_IDENT, .names = names, .nnames = n};
    return record(u, &o);
}

/* ---------------------------------------------------------------- schema commit */

/* Equal up to the schema id (the JSON text with the id zeroed). */
static int same_schema(const floe_schema *a, const floe_schema *b, bool *out)
{
    floe_schema ca = *a, cb = *b;
    ca.schema_id = cb.schema_id = 0;
    floe_buf ta = FLOE_BUF_INIT, tb = FLOE_BUF_INIT;
    int rc = floe__schema_to_json(&ca, &ta);
    if (rc == 0)
        rc = floe__schema_to_json(&cb, &tb);
    *out = rc == 0 && ta.len == tb.len && memcmp(ta.ptr, tb.ptr, ta.len) == 0;
    floe__buf_free(&ta);
    floe__buf_free(&tb);
    return rc;
}

static int require(floe_table_change *c, floe_requirement_type type, int32_t id)
{
    floe_requirement *r = floe__change_require(c, type);
    if (!r)
        return floe__error_nomem();
    r->id = id;
    return 0;
}

static int set_current(floe_table_change *c, floe_update_type type, int64_t id)
{
    floe_table_update *s = floe__change_update(c, type);
    if (!s)
        return floe__error_nomem();
    s->id = id;
    return 0;
}

static int schema_prepare(const floe_table_metadata *base, floe_table_change *change,
                          void *payload)
{
    const floe_schema_update *u = payload;
    floe_schema *s = NULL;
    int32_t last_id = base->last_column_id;
    int rc = replay(u, base, change->arena, &s, &last_id);
    if (rc != 0) /* the schema_change calls return 0 or negative */
        return rc;
    /* Java's TableMetadata.Builder.build: the default spec and sort order
     * must still bind to the current schema. */
    rc = floe__spec_check_schema(floe__metadata_spec(base, base->default_spec_id), s);
    if (rc == 0)
        rc = floe__order_check_schema(
            floe__metadata_sort_order(base, base->default_sort_order_id), s);
    int32_t reuse = -1;
    for (size_t i = 0; rc == 0 && i < base->nschemas && reuse < 0; i++) {
        bool same;
        rc = same_schema(base->schemas[i], s, &same);
        if (same)
            reuse = base->schemas[i]->schema_id;
    }
    if (rc < 0 || reuse == base->current_schema_id) {
        floe__schema_release(s);
        return rc; /* nothing changes */
    }
    rc = require(change, FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID, base->current_schema_id);
    if (rc == 0 && reuse < 0) {
        rc = require(change, FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID, base->last_column_id);
        floe_table_update *add = rc == 0 ? floe__change_update(change, FLOE_UPD_ADD_SCHEMA) : NULL;
        if (add) {
            add->schema = s; /* released with the change */
            add->has_last_column_id = true;
            add->last_column_id = last_id;
            s = NULL;
        } else if (rc == 0) {
            rc = floe__error_nomem();
        }
    }
    floe__schema_release(s);
    return rc == 0 ? set_current(change, FLOE_UPD_SET_CURRENT_SCHEMA, reuse) : rc;
}

int floe_schema_update_commit(floe_schema_update *u)
{
    if (!u)
        return floe__error(FLOE_EINVALID, "evolve", "NULL schema update");
    return floe__table_commit(u->table, schema_prepare, u);
}

/* ---------------------------------------------------------------- partition spec */

typedef enum pop_kind { POP_ADD, POP_REMOVE, POP_RENAME } pop_kind;

typedef struct pop {
    pop_kind kind;
    const char *name, *source, *arg; /* arg: new name */
    floe_transform tr;
    bool has_tr;
} pop;

struct floe_spec_update {
    floe_table *table;
    floe_arena *a;
    floe_vec ops; /* pop */
};

static int spec_replay(const floe_spec_update *u, const floe_table_metadata *base, floe_arena *a,
                       floe_partition_spec **out)
{
    floe_spec_change *c;
    FLOE_TRY(floe__spec_change_new(&c, base));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < u->ops.len; i++) {
        const pop *o = floe__vec_at(&u->ops, i);
        switch (o->kind) {
        case POP_ADD: rc = floe__spec_change_add(c, o->name, o->source, &o->tr); break;
        case POP_REMOVE:
            rc = o->has_tr ? floe__spec_change_remove_term(c, o->source, &o->tr)
                           : floe__spec_change_remove(c, o->name);
            break;
        case POP_RENAME: rc = floe__spec_change_rename(c, o->name, o->arg); break;
        }
    }
    if (rc == 0)
        rc = floe__spec_change_apply(c, a, out);
    floe__spec_change_free(c);
    return rc;
}

static int spec_record(floe_spec_update *u, pop_kind kind, const char *name, const char *source,
                       const char *transform, const char *arg)
{
    if (!u)
        return floe__error(FLOE_EINVALID, "evolve", "NULL partition spec update");
    bool oom = false;
    pop o = {.kind = kind, .name = dup(u->a, name, &oom), .source = dup(u->a, source, &oom),
             .arg = dup(u->a, arg, &oom)};
    if (oom)
        return floe__error_nomem();
    if (transform || kind == POP_ADD) {
        FLOE_TRY(floe__transform_parse(transform ? transform : "identity", u->a, &o.tr));
        o.has_tr = true;
    }
    pop *slot = floe__vec_push(&u->ops);
    if (!slot)
        return floe__error_nomem();
    *slot = o;
    floe_arena *scratch = floe__arena_new(0);
    floe_partition_spec *s = NULL;
    int rc = scratch ? spec_replay(u, u->table->metadata, scratch, &s) : floe__error_nomem();
    floe__arena_free(scratch);
    if (rc < 0)
        u->ops.len--;
    return rc;
}

int floe_spec_update_new(floe_spec_update **out, floe_table *table)
{
    *out = NULL;
    if (!table)
        return floe__error(FLOE_EINVALID, "evolve", "NULL table");
    floe_spec_update *u = floe__calloc(1, sizeof *u);
    if (!u || !(u->a = floe__arena_new(0))) {
        floe__free(u);
        return floe__error_nomem();
    }
    u->table = table;
    u->ops = (floe_vec)FLOE_VEC_INIT(pop);
    *out = u;
    return 0;
}

void floe_spec_update_free(floe_spec_update *u)
{
    if (!u)
        return;
    floe__vec_free(&u->ops);
    floe__arena_free(u->a);
    floe__free(u);
}

int floe_spec_update_add_field(floe_spec_update *u, const char *name, const char *source,
                               const char *transform)
{
    return spec_record(u, POP_ADD, name, source, transform, NULL);
}

int floe_spec_update_remove_field(floe_spec_update *u, const char *name, const char *source,
                                  const char *transform)
{
    return spec_record(u, POP_REMOVE, name, source, name ? NULL : transform ? transform : "identity",
                       NULL);
}

int floe_spec_update_rename_field(floe_spec_update *u, const char *name, const char *new_name)
{
    return spec_record(u, POP_RENAME, name, NULL, NULL, new_name);
}

static bool same_spec(const floe_partition_spec *a, const floe_partition_spec *b)
{
    if (a->nfields != b->nfields)
        return false;
    for (size_t i = 0; i < a->nfields; i++) {
        const floe_partition_field *x = &a->fields[i], *y = &b->fields[i];
        if (x->source_id != y->source_id || x->field_id != y->field_id ||
            strcmp(x->name, y->name) != 0 || strcmp(x->transform.name, y->transform.name) != 0)
            return false;
    }
    return true;
}

static int spec_prepare(const floe_table_metadata *base, floe_table_change *change, void *payload)
{
    floe_partition_spec *s = NULL;
    int rc = spec_replay(payload, base, change->arena, &s);
    if (rc != 0) /* the spec_change calls return 0 or negative */
        return rc;
    int32_t reuse = -1;
    for (size_t i = 0; i < base->nspecs && reuse < 0; i++)
        if (same_spec(base->specs[i], s))
            reuse = base->specs[i]->spec_id;
    if (reuse == base->default_spec_id)
        return 0;
    FLOE_TRY(require(change, FLOE_REQ_ASSERT_DEFAULT_SPEC_ID, base->default_spec_id));
    if (reuse < 0) {
        FLOE_TRY(require(change, FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID,
                         base->last_partition_id));
        floe_table_update *add = floe__change_update(change, FLOE_UPD_ADD_SPEC);
        if (!add)
            return floe__error_nomem();
        add->spec = s;
    }
    return set_current(change, FLOE_UPD_SET_DEFAULT_SPEC, reuse);
}

int floe_spec_update_commit(floe_spec_update *u)
{
    if (!u)
        return floe__error(FLOE_EINVALID, "evolve", "NULL partition spec update");
    return floe__table_commit(u->table, spec_prepare, u);
}

/* ---------------------------------------------------------------- sort order */

typedef struct order_req {
    const floe_sort_term *terms;
    size_t n;
    const char *mode;
} order_req;

int floe__sort_order_bind(const floe_table_metadata *base, const floe_sort_term *terms, size_t n,
                          floe_arena *a, floe_sort_order **out)
{
    const order_req req = {terms, n, NULL}, *r = &req;
    const floe_schema *schema = floe__metadata_current_schema(base);
    floe_sort_order *o = floe__arena_calloc(a, 1, sizeof *o);
    floe_sort_field *f = floe__arena_calloc(a, r->n + 1, sizeof *f);
    if (!o || !f)
        return floe__error_nomem();
    for (size_t i = 0; i < r->n; i++) {
        const floe_sort_term *t = &r->terms[i];
        const floe_field *src = t->column ? floe__schema_field_by_name(schema, t->column) : NULL;
        if (!src) {
            floe_buf b = FLOE_BUF_INIT;
            int rc = floe__type_java(schema->root, &b); /* 0 or negative */
            if (rc >= 0)
                rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "evolve",
                                    "Cannot find field '%s' in struct: %s",
                                    t->column ? t->column : "null", b.ptr ? b.ptr : "");
            floe__buf_free(&b);
            return rc;
        }
        FLOE_TRY(floe__transform_parse(t->transform ? t->transform : "identity", a,
                                       &f[i].transform));
        if (floe_type_is_nested(src->type) || f[i].transform.kind == FLOE_TR_UNKNOWN ||
            !floe_transform_result_type(&f[i].transform, src->type))
            return floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "evolve",
                                  "Cannot bind: %s cannot transform %s values from '%s'",
                                  f[i].transform.name, floe__type_name(src->type->id), t->column);
        f[i].source_id = src->id;
        f[i].descending = t->descending;
        f[i].nulls_first = t->nulls_first;
    }
    o->fields = f;
    o->nfields = r->n;
    *out = o;
    return 0;
}

static bool same_order(const floe_sort_order *a, const floe_sort_order *b)
{
    if (a->nfields != b->nfields)
        return false;
    for (size_t i = 0; i < a->nfields; i++) {
        const floe_sort_field *x = &a->fields[i], *y = &b->fields[i];
        if (x->source_id != y->source_id || x->descending != y->descending ||
            x->nulls_first != y->nulls_first || strcmp(x->transform.name, y->transform.name) != 0)
            return false;
    }
    return true;
}

int32_t floe__sort_order_find(const floe_table_metadata *m, const floe_sort_order *o)
{
    for (size_t i = 0; i < m->nsort_orders; i++)
        if (same_order(m->sort_orders[i], o))
            return m->sort_orders[i]->order_id;
    return -1;
}

static int order_prepare(const floe_table_metadata *base, floe_table_change *change,
                         void *payload)
{
    const order_req *r = payload;
    floe_sort_order *o = NULL;
    FLOE_TRY(floe__sort_order_bind(base, r->terms, r->n, change->arena, &o));
    int32_t reuse = floe__sort_order_find(base, o);
    if (reuse != base->default_sort_order_id) {
        FLOE_TRY(require(change, FLOE_REQ_ASSERT_DEFAULT_SORT_ORDER_ID,
                         base->default_sort_order_id));
        if (reuse < 0) {
            floe_table_update *add = floe__change_update(change, FLOE_UPD_ADD_SORT_ORDER);
            if (!add)
                return floe__error_nomem();
            add->order = o;
        }
        FLOE_TRY(set_current(change, FLOE_UPD_SET_DEFAULT_SORT_ORDER, reuse));
    }
    const char *cur = floe__props_get(&base->properties, "write.distribution-mode");
    if (r->mode && !(cur && strcmp(cur, r->mode) == 0)) {
        floe_table_update *p = floe__change_update(change, FLOE_UPD_SET_PROPERTIES);
        floe_kv *kv = floe__arena_calloc(change->arena, 1, sizeof *kv);
        if (!p || !kv)
            return floe__error_nomem();
        kv->key = (char *)"write.distribution-mode";
        kv->value = (char *)r->mode;
        p->kv = kv;
        p->nkv = 1;
    }
    return 0;
}

int floe_table_replace_sort_order(floe_table *table, const floe_sort_term *terms, size_t n,
                                  const char *distribution_mode)
{
    if (!table)
        return floe__error(FLOE_EINVALID, "evolve", "NULL table");
    order_req r = {terms, n, distribution_mode};
    return floe__table_commit(table, order_prepare, &r);
}
