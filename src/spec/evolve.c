/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/evolve: schema evolution (spec "Schema Evolution"; Java's
 * SchemaUpdate) and the compatibility checks of specs and sort orders
 * against an evolved schema (Java's PartitionSpec / SortOrder
 * .checkCompatibility). Partition spec evolution is evolve_spec.c.
 *
 * The model is Java's: requests are recorded against the base schema —
 * names always resolve in the base, plus the columns added by this change —
 * as deletes, per-field updates (rename, type, nullability, doc), additions
 * per parent struct and moves per parent; `apply` rebuilds the type tree
 * once with all of them, then validates identifier fields on the result.
 */
#include "spec/evolve.h"

#include <stdio.h>
#include <string.h>

#define ROOT 0 /* parent id of top-level columns (field ids are >= 1) */

typedef struct update {
    int32_t id;
    floe_field f; /* the field as it will be (name, type, required, doc, defaults) */
} update;

typedef struct added {
    int32_t parent;
    int32_t id;
    const char *full_name;
} added;

typedef struct move {
    int32_t parent;
    int32_t id;
    int32_t ref;
    floe_move_kind kind;
} move;

struct floe_schema_change {
    const floe_schema *schema;
    floe_arena *a;
    int32_t last_id;
    int format_version;
    floe_vec deletes; /* int32_t */
    floe_vec updates; /* update */
    floe_vec adds;    /* added, in order */
    floe_vec moves;   /* move, in order */
    floe_vec ident;   /* const char *: identifier field names */
};

/* (floe__evolve_bad): not the analyzer's macro (evolve.h) */
int(floe__evolve_bad)(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__verror(FLOE_EINVALID, "evolve", fmt, ap);
    va_end(ap);
    return rc;
}
#define bad floe__evolve_bad

/* ---------------------------------------------------------------- Java's type strings */

static int field_java(const floe_field *f, floe_buf *out)
{
    FLOE_TRY(floe__buf_printf(out, "%d: %s: %s ", (int)f->id, f->name,
                              f->required ? "required" : "optional"));
    FLOE_TRY(floe__type_java(f->type, out));
    return f->doc ? floe__buf_printf(out, " (%s)", f->doc) : 0;
}

int floe__type_java(const floe_type *t, floe_buf *out)
{
    switch (t->id) {
    case FLOE_T_DECIMAL:
        return floe__buf_printf(out, "decimal(%d, %d)", (int)t->precision, (int)t->scale);
    case FLOE_T_STRUCT:
        FLOE_TRY(floe__buf_puts(out, "struct<"));
        for (size_t i = 0; i < t->nfields; i++) {
            if (i)
                FLOE_TRY(floe__buf_puts(out, ", "));
            FLOE_TRY(field_java(&t->fields[i], out));
        }
        return floe__buf_putc(out, '>');
    case FLOE_T_LIST:
        FLOE_TRY(floe__buf_puts(out, "list<"));
        FLOE_TRY(floe__type_java(t->element->type, out));
        return floe__buf_putc(out, '>');
    case FLOE_T_MAP:
        FLOE_TRY(floe__buf_puts(out, "map<"));
        FLOE_TRY(floe__type_java(t->key->type, out));
        FLOE_TRY(floe__buf_puts(out, ", "));
        FLOE_TRY(floe__type_java(t->value->type, out));
        return floe__buf_putc(out, '>');
    default: return floe__type_format(t, out);
    }
}

/* A type / field as Java prints it, in the change's arena ("?" on OOM:
 * only used inside messages). */
static const char *java_done(floe_arena *a, int rc, floe_buf *b)
{
    const char *s = rc == 0 && b->ptr ? floe__arena_strdup(a, b->ptr) : NULL;
    floe__buf_free(b);
    return s ? s : "?";
}

static const char *java_type(floe_arena *a, const floe_type *t)
{
    floe_buf b = FLOE_BUF_INIT;
    return java_done(a, floe__type_java(t, &b), &b);
}

static const char *java_field(floe_arena *a, const floe_field *f)
{
    if (!f)
        return "?";
    floe_buf b = FLOE_BUF_INIT;
    return java_done(a, field_java(f, &b), &b);
}

/* ---------------------------------------------------------------- lookups */

static bool has_id(const floe_vec *v, int32_t id)
{
    for (size_t i = 0; i < v->len; i++)
        if (*(int32_t *)floe__vec_at(v, i) == id)
            return true;
    return false;
}

static update *find_update(const floe_schema_change *c, int32_t id)
{
    for (size_t i = 0; i < c->updates.len; i++) {
        update *u = floe__vec_at(&c->updates, i);
        if (u->id == id)
            return u;
    }
    return NULL;
}

static const added *find_added_name(const floe_schema_change *c, const char *name)
{
    for (size_t i = 0; i < c->adds.len; i++) {
        const added *d = floe__vec_at(&c->adds, i);
        if (strcmp(d->full_name, name) == 0)
            return d;
    }
    return NULL;
}

static bool has_additions(const floe_schema_change *c, int32_t parent)
{
    for (size_t i = 0; i < c->adds.len; i++)
        if (((const added *)floe__vec_at(&c->adds, i))->parent == parent)
            return true;
    return false;
}

static int32_t parent_of(const floe_schema_change *c, int32_t id)
{
    for (size_t i = 0; i < c->adds.len; i++) {
        const added *d = floe__vec_at(&c->adds, i);
        if (d->id == id)
            return d->parent;
    }
    return (int32_t)(intptr_t)floe__intmap_get(c->schema->parent_of, id);
}

/* The dotted name of a base field ("a.b", "l.element", "m.value.x"). */
static int column_name(const floe_schema *s, int32_t id, floe_buf *out)
{
    int32_t parent = (int32_t)(intptr_t)floe__intmap_get(s->parent_of, id);
    if (parent != ROOT) {
        FLOE_TRY(column_name(s, parent, out));
        FLOE_TRY(floe__buf_putc(out, '.'));
    }
    const floe_field *f = floe__schema_field_by_id(s, id);
    return floe__buf_puts(out, f ? f->name : "?");
}

static const char *column_name_dup(floe_arena *a, const floe_schema *s, int32_t id)
{
    floe_buf b = FLOE_BUF_INIT;
    const char *r = column_name(s, id, &b) == 0 && b.ptr ? floe__arena_strdup(a, b.ptr) : NULL;
    floe__buf_free(&b);
    if (!r)
        floe__error_nomem();
    return r;
}

/* ---------------------------------------------------------------- new, free */

int floe__schema_change_new(floe_schema_change **out, const floe_schema *schema,
                            int32_t last_column_id, int format_version)
{
    *out = NULL;
    floe_schema_change *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    c->schema = schema;
    c->last_id = last_column_id > schema->highest_field_id ? last_column_id
                                                           : schema->highest_field_id;
    c->format_version = format_version;
    c->deletes = (floe_vec)FLOE_VEC_INIT(int32_t);
    c->updates = (floe_vec)FLOE_VEC_INIT(update);
    c->adds = (floe_vec)FLOE_VEC_INIT(added);
    c->moves = (floe_vec)FLOE_VEC_INIT(move);
    c->ident = (floe_vec)FLOE_VEC_INIT(const char *);
    if (!(c->a = floe__arena_new(0))) {
        floe__free(c);
        return floe__error_nomem();
    }
    for (size_t i = 0; i < schema->n_identifier_field_ids; i++) {
        const char *name = column_name_dup(c->a, schema, schema->identifier_field_ids[i]);
        const char **slot = name ? floe__vec_push(&c->ident) : NULL;
        if (!slot) {
            floe__schema_change_free(c);
            return floe__error_nomem();
        }
        *slot = name;
    }
    *out = c;
    return 0;
}

void floe__schema_change_free(floe_schema_change *c)
{
    if (!c)
        return;
    floe__vec_free(&c->deletes);
    floe__vec_free(&c->updates);
    floe__vec_free(&c->adds);
    floe__vec_free(&c->moves);
    floe__vec_free(&c->ident);
    floe__arena_free(c->a);
    floe__free(c);
}

/* ---------------------------------------------------------------- fresh ids */

static int32_t next_id(floe_schema_change *c) { return ++c->last_id; }

/* Java's TypeUtil.assignFreshIds: a struct's fields take ids first, then
 * their types are visited; a list's element and a map's key and value
 * likewise. */
static int fresh_type(floe_schema_change *c, const floe_type *t, int depth, const floe_type **out)
{
    if (depth > FLOE_MAX_TYPE_DEPTH)
        return bad("type nesting deeper than %d", FLOE_MAX_TYPE_DEPTH);
    if (!floe_type_is_nested(t)) {
        *out = t;
        return 0;
    }
    floe_type *n = floe__arena_memdup(c->a, t, sizeof *t);
    if (!n)
        return floe__error_nomem();
    size_t nf = t->id == FLOE_T_STRUCT ? t->nfields : t->id == FLOE_T_LIST ? 1 : 2;
    const floe_field *src[2] = {t->id == FLOE_T_LIST ? t->element : t->key, t->value};
    floe_field *f = floe__arena_calloc(c->a, nf ? nf : 1, sizeof *f);
    if (!f)
        return floe__error_nomem();
    for (size_t i = 0; i < nf; i++) {
        f[i] = t->id == FLOE_T_STRUCT ? t->fields[i] : *src[i];
        f[i].id = next_id(c);
    }
    for (size_t i = 0; i < nf; i++)
        FLOE_TRY(fresh_type(c, f[i].type, depth + 1, &f[i].type));
    if (t->id == FLOE_T_STRUCT)
        n->fields = f;
    else if (t->id == FLOE_T_LIST)
        n->element = &f[0];
    else {
        n->key = &f[0];
        n->value = &f[1];
    }
    *out = n;
    return 0;
}

/* ---------------------------------------------------------------- requests */

static update *put_update(floe_schema_change *c, const floe_field *f)
{
    update *u = find_update(c, f->id);
    if (!u) {
        if (!(u = floe__vec_push(&c->updates))) {
            floe__error_nomem();
            return NULL;
        }
        u->id = f->id;
    }
    u->f = *f;
    return u;
}

int floe__schema_change_add(floe_schema_change *c, const char *parent, const char *name,
                            const floe_type *type, bool required, const char *doc,
                            const floe_value *dflt)
{
    if (!name)
        return bad("Cannot add column with null name");
    int32_t parent_id = ROOT;
    const char *full;
    if (parent) {
        const floe_field *pf = floe__schema_field_by_name(c->schema, parent);
        if (!pf)
            return bad("Cannot find parent struct: %s", parent);
        if (pf->type->id == FLOE_T_MAP)
            pf = pf->type->value; /* fields are added to the map value type */
        else if (pf->type->id == FLOE_T_LIST)
            pf = pf->type->element; /* and to the list element type */
        if (pf->type->id != FLOE_T_STRUCT)
            return bad("Cannot add to non-struct column: %s: %s", parent,
                       java_type(c->a, pf->type));
        parent_id = pf->id;
        const char *dotted = floe__arena_sprintf(c->a, "%s.%s", parent, name);
        if (!dotted)
            return floe__error_nomem();
        const floe_field *cur = floe__schema_field_by_name(c->schema, dotted);
        if (has_id(&c->deletes, parent_id))
            return bad("Cannot add to a column that will be deleted: %s", parent);
        if (cur && !has_id(&c->deletes, cur->id))
            return bad("Cannot add column, name already exists: %s.%s", parent, name);
        const char *pname = column_name_dup(c->a, c->schema, parent_id);
        if (!pname || !(full = floe__arena_sprintf(c->a, "%s.%s", pname, name)))
            return floe__error_nomem();
    } else {
        const floe_field *cur = floe__schema_field_by_name(c->schema, name);
        if (cur && !has_id(&c->deletes, cur->id))
            return bad("Cannot add column, name already exists: %s", name);
        if (!(full = floe__arena_strdup(c->a, name)))
            return floe__error_nomem();
    }
    if (!dflt && required)
        return bad("Incompatible change: cannot add required column without a default value: %s",
                   full);
    if (dflt && c->format_version < 3)
        return bad("Invalid schema for v%d:\n- Invalid initial default for %s: non-null default "
                   "is not supported until v3",
                   c->format_version, full);
    floe_field f = {.id = next_id(c), .required = required};
    if (!(f.name = floe__arena_strdup(c->a, name)) ||
        (doc && !(f.doc = floe__arena_strdup(c->a, doc))))
        return floe__error_nomem();
    if (dflt) {
        floe_value *v = floe__arena_memdup(c->a, dflt, sizeof *dflt);
        if (!v)
            return floe__error_nomem();
        f.initial_default = f.write_default = v;
    }
    FLOE_TRY(fresh_type(c, type, 0, &f.type));
    added *d = floe__vec_push(&c->adds);
    if (!d)
        return floe__error_nomem();
    *d = (added){.parent = parent_id, .id = f.id, .full_name = full};
    if (!put_update(c, &f)) {
        c->adds.len--;
        return floe__error_nomem();
    }
    return 0;
}

int floe__schema_change_delete(floe_schema_change *c, const char *name)
{
    const floe_field *f = floe__schema_field_by_name(c->schema, name);
    if (!f)
        return bad("Cannot delete missing column: %s", name);
    if (has_additions(c, f->id))
        return bad("Cannot delete a column that has additions: %s", name);
    if (find_update(c, f->id))
        return bad("Cannot delete a column that has updates: %s", name);
    int32_t *slot = floe__vec_push(&c->deletes);
    if (!slot)
        return floe__error_nomem();
    *slot = f->id;
    return 0;
}

int floe__schema_change_rename(floe_schema_change *c, const char *name, const char *new_name)
{
    const floe_field *f = floe__schema_field_by_name(c->schema, name);
    if (!f)
        return bad("Cannot rename missing column: %s", name);
    if (!new_name)
        return bad("Cannot rename a column to null");
    if (has_id(&c->deletes, f->id))
        return bad("Cannot rename a column that will be deleted: %s", f->name);
    const update *u = find_update(c, f->id);
    floe_field nf = u ? u->f : *f;
    if (!(nf.name = floe__arena_strdup(c->a, new_name)) || !put_update(c, &nf))
        return floe__error_nomem();
    for (size_t i = 0; i < c->ident.len; i++) {
        const char **s = floe__vec_at(&c->ident, i);
        if (strcmp(*s, name) == 0)
            *s = nf.name;
    }
    return 0;
}

/* Java's findForUpdate: a base field (with its pending update) or an
 * added one. */
static const floe_field *find_for_update(const floe_schema_change *c, const char *name,
                                         bool *is_added)
{
    *is_added = false;
    const floe_field *f = floe__schema_field_by_name(c->schema, name);
    if (f) {
        const update *u = find_update(c, f->id);
        return u ? &u->f : f;
    }
    const added *d = find_added_name(c, name);
    if (d) {
        *is_added = true;
        const update *u = find_update(c, d->id);
        return u ? &u->f : NULL;
    }
    return NULL;
}

/* The field an update request changes, refused when missing or deleted. */
static int for_update(const floe_schema_change *c, const char *name, const floe_field **out)
{
    bool is_added;
    const floe_field *f = find_for_update(c, name, &is_added);
    if (!f)
        return bad("Cannot update missing column: %s", name);
    if (has_id(&c->deletes, f->id))
        return bad("Cannot update a column that will be deleted: %s", f->name);
    *out = f;
    return 0;
}

int floe__schema_change_optional(floe_schema_change *c, const char *name, bool optional)
{
    bool is_added;
    const floe_field *f = find_for_update(c, name, &is_added);
    if (!f)
        return bad("Cannot update missing column: %s", name);
    if (optional == !f->required)
        return 0; /* a no-op is allowed even when incompatible */
    if (!optional && !(is_added && f->initial_default))
        return bad("Cannot change column nullability: %s: optional -> required", name);
    if (has_id(&c->deletes, f->id))
        return bad("Cannot update a column that will be deleted: %s", f->name);
    floe_field nf = *f;
    nf.required = !optional;
    return put_update(c, &nf) ? 0 : floe__error_nomem();
}

static bool type_equal(const floe_type *a, const floe_type *b)
{
    return a->id == b->id && a->precision == b->precision && a->scale == b->scale &&
           a->length == b->length;
}

/* Java's TypeUtil.isPromotionAllowed (the spec's v3 date -> timestamp is
 * not among them in Java 1.11, so Spark could not read such a table). */
static bool promotion_allowed(const floe_type *from, const floe_type *to)
{
    if (type_equal(from, to))
        return true;
    switch (from->id) {
    case FLOE_T_INT: return to->id == FLOE_T_LONG;
    case FLOE_T_FLOAT: return to->id == FLOE_T_DOUBLE;
    case FLOE_T_DECIMAL:
        return to->id == FLOE_T_DECIMAL && from->scale == to->scale &&
               from->precision <= to->precision;
    default: return false;
    }
}

int floe__schema_change_type(floe_schema_change *c, const char *name, const floe_type *type)
{
    const floe_field *f;
    FLOE_TRY(for_update(c, name, &f));
    if (floe_type_is_nested(f->type) || floe_type_is_nested(type)) {
        if (f->type == type)
            return 0;
        return bad("Cannot change column type: %s: %s -> %s", name,
                   java_type(c->a, f->type), java_type(c->a, type));
    }
    if (type_equal(f->type, type))
        return 0;
    if (!promotion_allowed(f->type, type))
        return bad("Cannot change column type: %s: %s -> %s", name,
                   java_type(c->a, f->type), java_type(c->a, type));
    floe_field nf = *f;
    floe_type *t = floe__arena_memdup(c->a, type, sizeof *type);
    if (!t)
        return floe__error_nomem();
    nf.type = t;
    return put_update(c, &nf) ? 0 : floe__error_nomem();
}

int floe__schema_change_doc(floe_schema_change *c, const char *name, const char *doc)
{
    const floe_field *f;
    FLOE_TRY(for_update(c, name, &f));
    if ((!f->doc && !doc) || (f->doc && doc && strcmp(f->doc, doc) == 0))
        return 0;
    floe_field nf = *f;
    nf.doc = doc ? floe__arena_strdup(c->a, doc) : NULL;
    if (doc && !nf.doc)
        return floe__error_nomem();
    return put_update(c, &nf) ? 0 : floe__error_nomem();
}

/* Java's findForMove: added columns first, then base ones; 0 if missing. */
static int32_t find_for_move(const floe_schema_change *c, const char *name)
{
    const added *d = find_added_name(c, name);
    if (d)
        return d->id;
    const floe_field *f = floe__schema_field_by_name(c->schema, name);
    return f ? f->id : 0;
}

int floe__schema_change_move(floe_schema_change *c, const char *name, floe_move_kind kind,
                             const char *ref)
{
    int32_t id = find_for_move(c, name);
    if (!id)
        return bad("Cannot move missing column: %s", name);
    int32_t ref_id = 0;
    if (kind != FLOE_MOVE_FIRST) {
        const char *rel = kind == FLOE_MOVE_BEFORE ? "before" : "after";
        ref_id = ref ? find_for_move(c, ref) : 0;
        if (!ref_id)
            return bad("Cannot move %s %s missing column: %s", name, rel, ref ? ref : "null");
        if (ref_id == id)
            return bad("Cannot move %s %s itself", name, rel);
    }
    int32_t parent = parent_of(c, id);
    if (parent != ROOT) {
        const floe_field *pf = floe__schema_field_by_id(c->schema, parent);
        if (pf && pf->type->id != FLOE_T_STRUCT)
            return bad("Cannot move fields in non-struct type: %s",
                       java_type(c->a, pf->type));
    }
    if (kind != FLOE_MOVE_FIRST && parent_of(c, ref_id) != parent)
        return bad("Cannot move field %s to a different struct", name);
    move *m = floe__vec_push(&c->moves);
    if (!m)
        return floe__error_nomem();
    *m = (move){.parent = parent, .id = id, .ref = ref_id, .kind = kind};
    return 0;
}

int floe__schema_change_identifier_fields(floe_schema_change *c, const char *const *names,
                                          size_t n)
{
    floe_vec v = FLOE_VEC_INIT(const char *);
    for (size_t i = 0; i < n; i++) {
        bool dup = false;
        for (size_t k = 0; k < v.len && !dup; k++)
            dup = strcmp(*(const char **)floe__vec_at(&v, k), names[i]) == 0;
        if (dup)
            continue; /* Java keeps a set */
        const char **slot = floe__vec_push(&v);
        if (!slot || !(*slot = floe__arena_strdup(c->a, names[i]))) {
            floe__vec_free(&v);
            return floe__error_nomem();
        }
    }
    floe__vec_free(&c->ident);
    c->ident = v;
    return 0;
}

/* ---------------------------------------------------------------- apply */

typedef struct field_list {
    floe_field *f;
    size_t n;
} field_list;

static int apply_type(floe_schema_change *c, const floe_type *t, const floe_type **out);

static size_t index_of(const field_list *l, int32_t id)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->f[i].id == id)
            return i;
    return l->n;
}

/* Java's addAndMoveFields: additions to `parent` appended, then its moves
 * in order. `l->f` has room for the additions. */
static void add_and_move(floe_schema_change *c, int32_t parent, field_list *l)
{
    for (size_t i = 0; i < c->adds.len; i++) {
        const added *d = floe__vec_at(&c->adds, i);
        if (d->parent == parent)
            l->f[l->n++] = find_update(c, d->id)->f;
    }
    for (size_t i = 0; i < c->moves.len; i++) {
        const move *m = floe__vec_at(&c->moves, i);
        if (m->parent != parent)
            continue;
        size_t at = index_of(l, m->id);
        if (at == l->n)
            continue; /* moved column deleted: nothing to move */
        floe_field moving = l->f[at];
        memmove(&l->f[at], &l->f[at + 1], (l->n - at - 1) * sizeof *l->f);
        l->n--;
        size_t to = 0;
        if (m->kind != FLOE_MOVE_FIRST) {
            to = index_of(l, m->ref);
            if (to == l->n)
                to = l->n; /* reference deleted: append */
            else if (m->kind == FLOE_MOVE_AFTER)
                to++;
        }
        memmove(&l->f[to + 1], &l->f[to], (l->n - to) * sizeof *l->f);
        l->f[to] = moving;
        l->n++;
    }
}

static size_t count_adds(const floe_schema_change *c, int32_t parent)
{
    size_t n = 0;
    for (size_t i = 0; i < c->adds.len; i++)
        n += ((const added *)floe__vec_at(&c->adds, i))->parent == parent;
    return n;
}

/* Java's ApplyChanges.field for the member `f` whose type became `*t`:
 * deleted (*t = NULL), an updated primitive type, or additions and moves
 * into the struct it is. */
static int apply_field(floe_schema_change *c, const floe_field *f, const floe_type **t)
{
    if (has_id(&c->deletes, f->id)) {
        *t = NULL;
        return 0;
    }
    const update *u = find_update(c, f->id);
    if (u && !floe_type_is_nested(u->f.type) && !type_equal(u->f.type, f->type)) {
        *t = u->f.type;
        return 0;
    }
    size_t nadd = count_adds(c, f->id);
    bool moves = false;
    for (size_t i = 0; i < c->moves.len && !moves; i++)
        moves = ((const move *)floe__vec_at(&c->moves, i))->parent == f->id;
    if ((nadd || moves) && (*t)->id == FLOE_T_STRUCT) {
        floe_type *st = floe__arena_memdup(c->a, *t, sizeof **t);
        field_list l = {floe__arena_calloc(c->a, (*t)->nfields + nadd + 1, sizeof *l.f),
                        (*t)->nfields};
        if (!st || !l.f)
            return floe__error_nomem();
        memcpy(l.f, (*t)->fields, l.n * sizeof *l.f);
        add_and_move(c, f->id, &l);
        st->fields = l.f;
        st->nfields = l.n;
        *t = st;
    }
    return 0;
}

/* The member `f` of a list or map rebuilt (type and the nullability of
 * its update). */
static int apply_member(floe_schema_change *c, const floe_field *f, const char *what,
                        const floe_type *owner, const floe_field **out)
{
    const floe_type *t;
    FLOE_TRY(apply_type(c, f->type, &t));
    FLOE_TRY(apply_field(c, f, &t));
    if (!t)
        return bad("Cannot delete %s type from %s: %s", what,
                   owner->id == FLOE_T_LIST ? "list" : "map", java_type(c->a, owner));
    const update *u = find_update(c, f->id);
    floe_field *n = floe__arena_memdup(c->a, f, sizeof *f);
    if (!n)
        return floe__error_nomem();
    n->type = t;
    if (u)
        n->required = u->f.required;
    *out = n;
    return 0;
}

static int apply_struct(floe_schema_change *c, const floe_type *t, const floe_type **out)
{
    floe_type *st = floe__arena_memdup(c->a, t, sizeof *t);
    floe_field *f = floe__arena_calloc(c->a, t->nfields + 1, sizeof *f);
    if (!st || !f)
        return floe__error_nomem();
    size_t n = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const floe_type *ft;
        FLOE_TRY(apply_type(c, t->fields[i].type, &ft));
        FLOE_TRY(apply_field(c, &t->fields[i], &ft));
        if (!ft)
            continue;
        const update *u = find_update(c, t->fields[i].id);
        f[n] = u ? u->f : t->fields[i];
        f[n++].type = ft;
    }
    st->fields = f;
    st->nfields = n;
    *out = st;
    return 0;
}

static int apply_type(floe_schema_change *c, const floe_type *t, const floe_type **out)
{
    switch (t->id) {
    case FLOE_T_STRUCT: return apply_struct(c, t, out);
    case FLOE_T_LIST: {
        floe_type *lt = floe__arena_memdup(c->a, t, sizeof *t);
        if (!lt)
            return floe__error_nomem();
        FLOE_TRY(apply_member(c, t->element, "element", t, &lt->element));
        *out = lt;
        return 0;
    }
    case FLOE_T_MAP: {
        int32_t key = t->key->id;
        const char *m = java_type(c->a, t);
        if (has_id(&c->deletes, key))
            return bad("Cannot delete map keys: %s", m);
        if (find_update(c, key))
            return bad("Cannot update map keys: %s", m);
        if (has_additions(c, key))
            return bad("Cannot add fields to map keys: %s", m);
        floe_type *mt = floe__arena_memdup(c->a, t, sizeof *t);
        if (!mt)
            return floe__error_nomem();
        FLOE_TRY(apply_member(c, t->value, "value", t, &mt->value));
        *out = mt;
        return 0;
    }
    default: *out = t; return 0;
    }
}

/* Java's Schema.validateIdentifierField on the evolved schema. */
static int validate_identifier(floe_schema_change *c, const floe_schema *s, int32_t id)
{
    const floe_field *f = floe__schema_field_by_id(s, id);
    if (!f)
        return bad("Cannot add fieldId %d as an identifier field: field does not exist", (int)id);
    if (floe_type_is_nested(f->type))
        return bad("Cannot add field %s as an identifier field: not a primitive type field",
                   f->name);
    if (!f->required)
        return bad("Cannot add field %s as an identifier field: not a required field", f->name);
    if (f->type->id == FLOE_T_FLOAT || f->type->id == FLOE_T_DOUBLE)
        return bad("Cannot add field %s as an identifier field: must not be float or double "
                   "field",
                   f->name);
    int32_t chain[FLOE_MAX_TYPE_DEPTH + 2];
    size_t n = 0;
    for (int32_t p = (int32_t)(intptr_t)floe__intmap_get(s->parent_of, id);
         p != ROOT && n < FLOE_ARRAY_LEN(chain);
         p = (int32_t)(intptr_t)floe__intmap_get(s->parent_of, p))
        chain[n++] = p;
    while (n--) { /* from the root down, as Java explores */
        const floe_field *pf = floe__schema_field_by_id(s, chain[n]);
        if (pf->type->id != FLOE_T_STRUCT)
            return bad("Cannot add field %s as an identifier field: must not be nested in %s",
                       f->name, java_field(c->a, pf));
        if (!pf->required)
            return bad("Cannot add field %s as an identifier field: must not be nested in an "
                       "optional field %s",
                       f->name, java_field(c->a, pf));
    }
    return 0;
}

/* Java's IndexByName check: one name per struct member. */
static int check_names(const floe_type *t)
{
    if (t->id == FLOE_T_LIST)
        return check_names(t->element->type);
    if (t->id == FLOE_T_MAP)
        return check_names(t->value->type);
    if (t->id != FLOE_T_STRUCT)
        return 0;
    for (size_t i = 0; i < t->nfields; i++) {
        for (size_t k = 0; k < i; k++)
            if (strcmp(t->fields[i].name, t->fields[k].name) == 0)
                return floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "evolve",
                                      "Invalid schema: multiple fields for name %s: %d and %d",
                                      t->fields[i].name, (int)t->fields[k].id,
                                      (int)t->fields[i].id);
        FLOE_TRY(check_names(t->fields[i].type));
    }
    return 0;
}

static int check_identifier_deletes(floe_schema_change *c)
{
    for (size_t i = 0; i < c->ident.len; i++) {
        const floe_field *f =
            floe__schema_field_by_name(c->schema, *(const char **)floe__vec_at(&c->ident, i));
        if (!f)
            continue;
        if (has_id(&c->deletes, f->id))
            return bad("Cannot delete identifier field %s. To force deletion, also call "
                       "setIdentifierFields to update identifier fields.",
                       java_field(c->a, f));
        for (int32_t p = (int32_t)(intptr_t)floe__intmap_get(c->schema->parent_of, f->id);
             p != ROOT; p = (int32_t)(intptr_t)floe__intmap_get(c->schema->parent_of, p))
            if (has_id(&c->deletes, p))
                return bad("Cannot delete field %s as it will delete nested identifier field %s",
                           java_field(c->a, floe__schema_field_by_id(c->schema, p)),
                           java_field(c->a, f));
    }
    return 0;
}

/* Round trip through JSON: the result is indexed and validated by the one
 * schema reader. */
static int finish_schema(const floe_type *root, const int32_t *ids, size_t nids, floe_arena *a,
                         floe_schema **out)
{
    floe_schema tmp = {.root = root, .identifier_field_ids = ids, .n_identifier_field_ids = nids};
    floe_buf text = FLOE_BUF_INIT;
    floe_json *j = NULL;
    int rc = floe__schema_to_json(&tmp, &text);
    if (rc == 0)
        rc = floe__json_parse(&j, text.ptr, text.len, "evolved schema");
    if (rc == 0)
        rc = floe__schema_from_json(out, j, 0, a);
    floe__json_free(j);
    floe__buf_free(&text);
    return rc;
}

int floe__schema_change_apply(floe_schema_change *c, floe_arena *a, floe_schema **out,
                              int32_t *last_column_id)
{
    *out = NULL;
    FLOE_TRY(check_identifier_deletes(c));
    const floe_type *root;
    FLOE_TRY(apply_struct(c, c->schema->root, &root));
    size_t nadd = count_adds(c, ROOT);
    floe_type *rt = floe__arena_memdup(c->a, root, sizeof *root);
    field_list l = {rt ? floe__arena_calloc(c->a, root->nfields + nadd + 1, sizeof *l.f) : NULL,
                    root->nfields};
    if (!l.f)
        return floe__error_nomem();
    memcpy(l.f, root->fields, l.n * sizeof *l.f);
    add_and_move(c, ROOT, &l);
    rt->fields = l.f;
    rt->nfields = l.n;
    FLOE_TRY(check_names(rt));
    /* identifier names resolve in the evolved schema */
    floe_schema *plain = NULL;
    FLOE_TRY(finish_schema(rt, NULL, 0, c->a, &plain));
    int32_t *ids = floe__arena_calloc(c->a, c->ident.len + 1, sizeof *ids);
    int rc = ids ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < c->ident.len; i++) {
        const char *name = *(const char **)floe__vec_at(&c->ident, i);
        const floe_field *f = floe__schema_field_by_name(plain, name);
        if (!f)
            rc = bad("Cannot add field %s as an identifier field: not found in current schema "
                     "or added columns",
                     name);
        else
            ids[i] = f->id;
    }
    for (size_t i = 0; rc == 0 && i < c->ident.len; i++)
        rc = validate_identifier(c, plain, ids[i]);
    floe__schema_release(plain);
    if (rc == 0)
        rc = finish_schema(rt, ids, c->ident.len, a, out);
    if (rc == 0 && last_column_id)
        *last_column_id = c->last_id;
    return rc;
}

/* ---------------------------------------------------------------- compatibility */

int floe__spec_check_schema(const floe_partition_spec *spec, const floe_schema *schema)
{
    for (size_t i = 0; spec && i < spec->nfields; i++) {
        const floe_partition_field *pf = &spec->fields[i];
        if (pf->transform.kind == FLOE_TR_VOID)
            continue; /* a v1 dropped field: always compatible */
        const floe_field *src = floe__schema_field_by_id(schema, pf->source_id);
        if (!src)
            return floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "evolve",
                                  "Cannot find source column for partition field: %d: %s: %s(%d)",
                                  (int)pf->field_id, pf->name, pf->transform.name,
                                  (int)pf->source_id);
        if (floe_type_is_nested(src->type))
            return floe__error(FLOE_EINVALID, "evolve",
                               "Cannot partition by non-primitive source field: %s",
                               floe__type_name(src->type->id));
    }
    return 0;
}

int floe__order_check_schema(const floe_sort_order *order, const floe_schema *schema)
{
    for (size_t i = 0; order && i < order->nfields; i++) {
        const floe_sort_field *sf = &order->fields[i];
        if (!floe__schema_field_by_id(schema, sf->source_id))
            return floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "evolve",
                                  "Cannot find source column for sort field: %s(%d) %s %s",
                                  sf->transform.name, (int)sf->source_id,
                                  sf->descending ? "DESC" : "ASC",
                                  sf->nulls_first ? "NULLS FIRST" : "NULLS LAST");
    }
    return 0;
}
