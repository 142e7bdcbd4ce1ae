/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/replace: REPLACE TABLE / CREATE OR REPLACE TABLE on an existing
 * table (include/floe/table.h floe_table_replace), as Java's
 * TableMetadata.buildReplacement (read, not copied) and the REST
 * replace-table transaction: the table keeps its uuid, snapshots, history
 * and refs other than main; in one commit
 *
 *  - the `main` ref is removed (current-snapshot-id becomes -1: the table
 *    reads as empty until rows are written; old snapshots stay readable by
 *    time travel, spec "Snapshots" / "Snapshot References");
 *  - the new schema becomes current: columns whose (dotted) name exists in
 *    the current schema keep their field id, new ones get ids after
 *    last-column-id (spec "Schemas", "Column Projection"); an identical
 *    existing schema is reused by id, otherwise it is added with the next
 *    schema id;
 *  - the new partition spec becomes the default: a field whose source and
 *    transform appear in any existing spec keeps that field id, others get
 *    ids after last-partition-id (v2 rule); an identical spec is reused,
 *    otherwise a new spec id is added;
 *  - the sort order becomes the unsorted order 0;
 *  - the given properties are set over the old ones (Java merges them),
 *    `format-version` upgrades, LOCATION moves the table location.
 *
 * Every change is a REST TableUpdate (add-schema, set-current-schema,
 * add-spec, set-default-spec, set-default-sort-order, remove-snapshot-ref,
 * set-properties, set-location, upgrade-format-version) with Java's
 * requirements for a replace (current schema, last assigned ids, default
 * spec), so the same commit goes through the SQLite catalog and REST.
 *
 * REPLACE TABLE ... AS SELECT is one commit, as Java's replace
 * transaction: floe_table_replace_begin returns a staged handle over the
 * replaced definition (built in memory, nothing written); appends through
 * it write files with the new schema and spec, and their commit is handed
 * to floe__staged_commit, which commits the replace updates and the
 * append's snapshot together on the real table (docs/table.md).
 */
#include "spec/spec.h"
#include "table/table.h"

#include <string.h>

typedef struct replace_op {
    floe_table_metadata *def; /* the new definition (ids as the caller gave) */
    const floe_table_create_options *co;
    floe_json *updates;                 /* this attempt's parsed updates */
} replace_op;

/* ---------------------------------------------------------------- fresh ids */

typedef struct idmap {
    floe_vec from, to; /* int32_t: the definition's ids -> fresh ids */
    int32_t last;      /* last-column-id so far */
} idmap;

static int map_put(idmap *m, int32_t from, int32_t to)
{
    int32_t *a = floe__vec_push(&m->from), *b = a ? floe__vec_push(&m->to) : NULL;
    if (!a || !b)
        return floe__error_nomem();
    *a = from;
    *b = to;
    return 0;
}

static int32_t map_get(const idmap *m, int32_t from)
{
    for (size_t i = 0; i < m->from.len; i++)
        if (*(int32_t *)floe__vec_at(&m->from, i) == from)
            return *(int32_t *)floe__vec_at(&m->to, i);
    return -1;
}

static int fresh_type(floe_json *t, const floe_type *old, idmap *m, int depth);

/* Reassign one id member ("id", "element-id", ...) of `o`: the old field's
 * id when there is one, else the next id. */
static int fresh_id(floe_json *o, const char *key, const floe_field *old, idmap *m)
{
    floe_json *id = floe__json_get(o, key);
    if (!floe__json_is_integer(id))
        return floe__error(FLOE_EINVALID, "table", "schema JSON: missing %s", key);
    int32_t to = old ? old->id : ++m->last;
    FLOE_TRY(map_put(m, (int32_t)id->u.i, to));
    id->u.i = to;
    return 0;
}

static int fresh_struct(floe_json *t, const floe_type *old, idmap *m, int depth)
{
    floe_json *fields = floe__json_get(t, "fields");
    for (size_t i = 0; i < floe__json_len(fields); i++) {
        floe_json *f = floe__json_at(fields, i);
        const char *name = floe__json_sval(floe__json_get(f, "name"));
        const floe_field *of = NULL;
        for (size_t k = 0; old && name && k < old->nfields && !of; k++)
            if (strcmp(old->fields[k].name, name) == 0)
                of = &old->fields[k];
        FLOE_TRY(fresh_id(f, "id", of, m));
        FLOE_TRY(fresh_type(floe__json_get(f, "type"), of ? of->type : NULL, m, depth + 1));
    }
    return 0;
}

static int fresh_type(floe_json *t, const floe_type *old, idmap *m, int depth)
{
    if (depth > 64)
        return floe__error(FLOE_EINVALID, "table", "schema nested too deeply");
    if (!floe__json_is_object(t))
        return 0; /* primitive */
    const char *kind = floe__json_sval(floe__json_get(t, "type"));
    if (!kind)
        return 0;
    if (strcmp(kind, "struct") == 0)
        return fresh_struct(t, old && old->id == FLOE_T_STRUCT ? old : NULL, m, depth);
    if (strcmp(kind, "list") == 0) {
        const floe_field *oe = old && old->id == FLOE_T_LIST ? old->element : NULL;
        FLOE_TRY(fresh_id(t, "element-id", oe, m));
        return fresh_type(floe__json_get(t, "element"), oe ? oe->type : NULL, m, depth + 1);
    }
    if (strcmp(kind, "map") == 0) {
        const floe_field *ok = old && old->id == FLOE_T_MAP ? old->key : NULL;
        const floe_field *ov = old && old->id == FLOE_T_MAP ? old->value : NULL;
        FLOE_TRY(fresh_id(t, "key-id", ok, m));
        FLOE_TRY(fresh_id(t, "value-id", ov, m));
        FLOE_TRY(fresh_type(floe__json_get(t, "key"), ok ? ok->type : NULL, m, depth + 1));
        return fresh_type(floe__json_get(t, "value"), ov ? ov->type : NULL, m, depth + 1);
    }
    return 0;
}

/* ---------------------------------------------------------------- prepare */

static int schema_text(const floe_schema *s, int32_t id, floe_buf *out)
{
    floe_schema copy = *s;
    copy.schema_id = id;
    return floe__schema_to_json(&copy, out);
}

/* The existing schema equal to `fresh` (compared as JSON with the same
 * schema id), or -1. */
static int32_t same_schema(const floe_table_metadata *base, const floe_schema *fresh)
{
    int32_t hit = -1;
    floe_buf a = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
    for (size_t i = 0; hit < 0 && i < base->nschemas; i++) {
        floe__buf_clear(&a);
        floe__buf_clear(&b);
        if (schema_text(fresh, 0, &a) == 0 && schema_text(base->schemas[i], 0, &b) == 0 &&
            a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0)
            hit = base->schemas[i]->schema_id;
    }
    floe__buf_free(&a);
    floe__buf_free(&b);
    floe_error_clear();
    return hit;
}

static int put_str(floe_buf *b, const char *s)
{
    return floe__json_put_str(b, s);
}

/* The updates of one attempt as a JSON array text. */
static int build_updates(const floe_table_metadata *base, replace_op *o, floe_buf *u,
                         floe_arena *a)
{
    const floe_table_metadata *def = o->def;
    const floe_schema *cur = floe__metadata_current_schema(base);
    const floe_schema *ns = floe__metadata_current_schema(def);
    if (!ns)
        return floe__error(FLOE_EINVALID, "table", "REPLACE TABLE needs a schema");
    FLOE_TRY(floe__buf_putc(u, '['));
    bool comma = false;
#define SEP() (comma ? floe__buf_putc(u, ',') : (comma = true, 0))
    /* format version (never down) */
    const char *fv = o->co->properties ? floe__props_get(o->co->properties, "format-version") : NULL;
    if (fv) {
        int v = fv[0] >= '1' && fv[0] <= '9' && !fv[1] ? fv[0] - '0' : -1;
        if (v < base->format_version)
            return floe__error(FLOE_EINVALID, "table", "Cannot downgrade v%d table to v%s",
                               base->format_version, fv);
        if (v > base->format_version) {
            FLOE_TRY(SEP());
            FLOE_TRY(floe__buf_printf(u, "{\"action\":\"upgrade-format-version\","
                                         "\"format-version\":%d}", v));
        }
    }
    if (floe__metadata_ref(base, "main")) {
        FLOE_TRY(SEP());
        FLOE_TRY(floe__buf_puts(u, "{\"action\":\"remove-snapshot-ref\",\"ref-name\":\"main\"}"));
    }
    /* schema with fresh ids */
    floe_buf st = FLOE_BUF_INIT;
    floe_json *sj = NULL;
    floe_schema *fresh = NULL;
    idmap m = {FLOE_VEC_INIT(int32_t), FLOE_VEC_INIT(int32_t), base->last_column_id};
    int rc = floe__schema_to_json(ns, &st);
    if (rc == 0)
        rc = floe__json_parse(&sj, st.ptr, st.len, "schema");
    if (rc == 0)
        rc = fresh_struct(sj, cur ? cur->root : NULL, &m, 0);
    if (rc == 0)
        rc = floe__schema_from_json(&fresh, sj, 0, a);
    int32_t sid = rc == 0 ? same_schema(base, fresh) : -1;
    if (rc == 0 && sid < 0) {
        floe__buf_clear(&st);
        rc = SEP();
        if (rc == 0)
            rc = schema_text(fresh, 0, &st);
        if (rc == 0)
            rc = floe__buf_printf(u, "{\"action\":\"add-schema\",\"schema\":%s,"
                                     "\"last-column-id\":%d},"
                                     "{\"action\":\"set-current-schema\",\"schema-id\":-1}",
                                  st.ptr, (int)(m.last > base->last_column_id
                                                    ? m.last
                                                    : base->last_column_id));
    } else if (rc == 0 && (!cur || sid != cur->schema_id)) {
        rc = SEP();
        if (rc == 0)
            rc = floe__buf_printf(u, "{\"action\":\"set-current-schema\",\"schema-id\":%d}",
                                  (int)sid);
    }
    if (fresh)
        floe__schema_release(fresh);
    floe__json_free(sj);
    floe__buf_free(&st);
    /* partition spec: field ids reused by (source, transform) */
    const floe_partition_spec *nsp = floe__metadata_spec(def, def->default_spec_id);
    floe_buf sp = FLOE_BUF_INIT, tr = FLOE_BUF_INIT;
    int32_t last_pid = base->last_partition_id;
    if (rc == 0)
        rc = floe__buf_puts(&sp, "{\"spec-id\":0,\"fields\":[");
    size_t nf = nsp ? nsp->nfields : 0;
    int32_t *src = floe__calloc(nf ? nf : 1, sizeof *src), *fid = floe__calloc(nf ? nf : 1, 4);
    if (rc == 0 && (!src || !fid))
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < nf; i++) {
        const floe_partition_field *pf = &nsp->fields[i];
        src[i] = map_get(&m, pf->source_id);
        if (src[i] < 0)
            rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "table",
                                "Cannot find source column for partition field: %s", pf->name);
        fid[i] = -1;
        for (size_t s = 0; rc == 0 && s < base->nspecs; s++)
            for (size_t k = 0; k < base->specs[s]->nfields; k++) {
                const floe_partition_field *of = &base->specs[s]->fields[k];
                if (of->source_id == src[i] && of->transform.name && pf->transform.name &&
                    strcmp(of->transform.name, pf->transform.name) == 0 && of->field_id > fid[i])
                    fid[i] = of->field_id;
            }
        if (fid[i] < 0)
            fid[i] = ++last_pid;
        if (rc == 0 && i)
            rc = floe__buf_putc(&sp, ',');
        if (rc == 0)
            rc = floe__buf_printf(&sp, "{\"source-id\":%d,\"field-id\":%d,\"name\":", (int)src[i],
                                  (int)fid[i]);
        if (rc == 0)
            rc = put_str(&sp, pf->name);
        if (rc == 0)
            rc = floe__buf_puts(&sp, ",\"transform\":");
        if (rc == 0)
            rc = put_str(&sp, pf->transform.name ? pf->transform.name : "identity");
        if (rc == 0)
            rc = floe__buf_putc(&sp, '}');
    }
    if (rc == 0)
        rc = floe__buf_puts(&sp, "]}");
    int32_t spec_hit = -1;
    for (size_t s = 0; rc == 0 && spec_hit < 0 && s < base->nspecs; s++) {
        const floe_partition_spec *os = base->specs[s];
        bool same = os->nfields == nf;
        for (size_t k = 0; same && k < nf; k++) {
            const floe_partition_field *of = &os->fields[k];
            same = of->source_id == src[k] && of->field_id == fid[k] &&
                   strcmp(of->name, nsp->fields[k].name) == 0 && of->transform.name &&
                   nsp->fields[k].transform.name &&
                   strcmp(of->transform.name, nsp->fields[k].transform.name) == 0;
        }
        if (same)
            spec_hit = os->spec_id;
    }
    if (rc == 0 && spec_hit < 0) {
        rc = SEP();
        if (rc == 0)
            rc = floe__buf_printf(u, "{\"action\":\"add-spec\",\"spec\":%s},"
                                     "{\"action\":\"set-default-spec\",\"spec-id\":-1}",
                                  sp.ptr);
    } else if (rc == 0 && spec_hit != base->default_spec_id) {
        rc = SEP();
        if (rc == 0)
            rc = floe__buf_printf(u, "{\"action\":\"set-default-spec\",\"spec-id\":%d}",
                                  (int)spec_hit);
    }
    floe__free(src);
    floe__free(fid);
    floe__buf_free(&sp);
    floe__buf_free(&tr);
    floe__vec_free(&m.from);
    floe__vec_free(&m.to);
    FLOE_TRY(rc);
    /* sort order: unsorted */
    const floe_sort_order *dso = floe__metadata_sort_order(def, def->default_sort_order_id);
    if (dso && dso->nfields)
        return floe__error(FLOE_EUNSUPPORTED, "table", "REPLACE TABLE with a sort order");
    if (base->default_sort_order_id != 0) {
        const floe_sort_order *o0 = floe__metadata_sort_order(base, 0);
        FLOE_TRY(SEP());
        if (o0 && o0->nfields == 0)
            FLOE_TRY(floe__buf_puts(u, "{\"action\":\"set-default-sort-order\","
                                       "\"sort-order-id\":0}"));
        else
            FLOE_TRY(floe__buf_puts(u, "{\"action\":\"add-sort-order\",\"sort-order\":"
                                       "{\"order-id\":0,\"fields\":[]}},"
                                       "{\"action\":\"set-default-sort-order\","
                                       "\"sort-order-id\":-1}"));
    }
    /* properties (merged over the old ones) and location */
    const floe_props *p = o->co->properties;
    bool any = false;
    for (size_t i = 0; p && i < p->n; i++) {
        const floe_kv *kv = &p->items[i];
        if (strcmp(kv->key, "format-version") == 0 || strcmp(kv->key, "location") == 0)
            continue;
        if (!any) {
            FLOE_TRY(SEP());
            FLOE_TRY(floe__buf_puts(u, "{\"action\":\"set-properties\",\"updates\":{"));
        } else {
            FLOE_TRY(floe__buf_putc(u, ','));
        }
        any = true;
        FLOE_TRY(put_str(u, kv->key));
        FLOE_TRY(floe__buf_putc(u, ':'));
        FLOE_TRY(put_str(u, kv->value));
    }
    if (any)
        FLOE_TRY(floe__buf_puts(u, "}}"));
    if (o->co->location && (!base->location || strcmp(o->co->location, base->location) != 0)) {
        FLOE_TRY(SEP());
        FLOE_TRY(floe__buf_puts(u, "{\"action\":\"set-location\",\"location\":"));
        FLOE_TRY(put_str(u, o->co->location));
        FLOE_TRY(floe__buf_putc(u, '}'));
    }
#undef SEP
    return floe__buf_putc(u, ']');
}

static int prepare(const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    replace_op *o = payload;
    if (base->format_version < 2)
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "REPLACE TABLE of a format-version 1 table is not supported");
    floe__json_free(o->updates);
    o->updates = NULL;
    floe_buf u = FLOE_BUF_INIT;
    int rc = build_updates(base, o, &u, c->arena);
    if (rc == 0)
        rc = floe__json_parse(&o->updates, u.ptr, u.len, "replace-table updates");
    floe__buf_free(&u);
    FLOE_TRY(rc);
    /* Java's requirements for a replace (UpdateRequirements.forReplaceTable) */
    floe_requirement *r;
    if (!(r = floe__change_require(c, FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID)))
        return floe__error_nomem();
    r->id = base->current_schema_id;
    if (!(r = floe__change_require(c, FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID)))
        return floe__error_nomem();
    r->id = base->last_column_id;
    if (!(r = floe__change_require(c, FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID)))
        return floe__error_nomem();
    r->id = base->last_partition_id;
    if (!(r = floe__change_require(c, FLOE_REQ_ASSERT_DEFAULT_SPEC_ID)))
        return floe__error_nomem();
    r->id = base->default_spec_id;
    int fv = base->format_version;
    for (size_t i = 0; i < floe__json_len(o->updates); i++)
        FLOE_TRY(floe__change_update_parse(c, floe__json_at(o->updates, i), &fv));
    return 0;
}

int floe_table_replace(floe_table *t, const floe_table_create_options *create)
{
    if (!t || !create || !create->schema_json)
        return floe__error(FLOE_EINVALID, "table", "REPLACE TABLE needs a table and a schema");
    if (t->staged)
        return floe__error(FLOE_EINVALID, "table", "a staged replacement cannot be replaced");
    replace_op o;
    memset(&o, 0, sizeof o);
    o.co = create;
    const char *loc = create->location ? create->location : floe_table_location(t);
    FLOE_TRY(floe__table_initial_metadata(create, loc, &o.def));
    int rc = floe__table_commit(t, prepare, &o);
    floe__json_free(o.updates);
    floe__metadata_free(o.def);
    return rc;
}


/* ---------------------------------------------------------------- staged replacement */

struct floe_staged_replace {
    floe_table *target; /* borrowed: the table being replaced */
    replace_op op;
    floe_table_create_options co; /* copies: a retry rebuilds the updates */
    floe_props props;
    char *location;
    /* the begin base's ids the requirements assert (Java: the original
     * replace base, whatever a retry refreshes to) */
    int32_t schema_id, last_column_id, last_partition_id, spec_id;
    bool committed;
};

void floe__staged_free(floe_staged_replace *sr)
{
    if (!sr)
        return;
    floe__json_free(sr->op.updates);
    floe__metadata_free(sr->op.def);
    floe__props_free(&sr->props);
    floe__free(sr->location);
    floe__free(sr);
}

/* `base` with the change's updates applied, in memory (nothing written). */
static int build_in_memory(const floe_table_metadata *base, const char *base_location,
                           const floe_table_change *c, floe_table_metadata **out)
{
    *out = NULL;
    floe_metadata_builder *b = NULL;
    int rc = floe__metadata_builder_new(&b, base, base_location);
    if (rc == 0)
        rc = floe__commit_apply(b, c->updates.items, c->updates.len);
    if (rc == 0)
        rc = floe__metadata_builder_build(b, floe__now_ms(), out);
    floe__metadata_builder_free(b);
    return rc;
}

static bool same_spec(const floe_partition_spec *a, const floe_partition_spec *b)
{
    if (!a || !b || a->spec_id != b->spec_id || a->nfields != b->nfields)
        return false;
    for (size_t i = 0; i < a->nfields; i++) {
        const floe_partition_field *x = &a->fields[i], *y = &b->fields[i];
        if (x->source_id != y->source_id || x->field_id != y->field_id ||
            strcmp(x->name, y->name) != 0 || !x->transform.name || !y->transform.name ||
            strcmp(x->transform.name, y->transform.name) != 0)
            return false;
    }
    return true;
}

/* The data files of a staged replacement were written for the schema ids,
 * spec and location it saw at begin; a retry on a newer base must arrive
 * at the same definition, else the files no longer fit (a final conflict,
 * as Java's replace transaction failing its requirements). */
static int check_definition(const floe_table_metadata *now, const floe_table_metadata *staged,
                            const char *ident)
{
    const floe_schema *a = floe__metadata_current_schema(now);
    const floe_schema *b = floe__metadata_current_schema(staged);
    floe_buf x = FLOE_BUF_INIT, y = FLOE_BUF_INIT;
    int rc = a && b ? floe__schema_to_json(a, &x) : 0;
    if (rc == 0 && a && b)
        rc = floe__schema_to_json(b, &y);
    bool same = rc == 0 && a && b && x.len == y.len && memcmp(x.ptr, y.ptr, x.len) == 0 &&
                same_spec(floe__metadata_spec(now, now->default_spec_id),
                          floe__metadata_spec(staged, staged->default_spec_id)) &&
                now->location && staged->location && strcmp(now->location, staged->location) == 0;
    floe__buf_free(&x);
    floe__buf_free(&y);
    FLOE_TRY(rc);
    if (!same)
        return floe__error(FLOE_ECONFLICT, "table",
                           "Cannot commit the replacement of %s: the table definition changed "
                           "since the replace began (schema %d, spec %d now; %d, %d staged)",
                           ident, (int)now->current_schema_id, (int)now->default_spec_id,
                           (int)staged->current_schema_id, (int)staged->default_spec_id);
    return 0;
}

typedef struct staged_commit {
    floe_table *staged;
    floe_prepare_fn inner;
    void *payload;
} staged_commit;

/* One attempt: the replace updates on the table's base, then the inner
 * operation's updates prepared on the replaced definition. Only the
 * replace's requirements are kept, on the ids seen at begin: like Java's
 * UpdateRequirements.forReplaceTable on the original replace base, a
 * replace asserts no refs (main is replaced whatever it points to now), so
 * a concurrent append is retried over while a concurrent change of the
 * definition fails. */
static int staged_prepare(const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    staged_commit *sc = payload;
    floe_staged_replace *sr = sc->staged->staged;
    FLOE_TRY(prepare(base, c, &sr->op));
    for (size_t i = 0; i < c->requirements.len; i++) {
        floe_requirement *r = floe__vec_at(&c->requirements, i);
        if (r->type == FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID)
            r->id = sr->schema_id;
        else if (r->type == FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID)
            r->id = sr->last_column_id;
        else if (r->type == FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID)
            r->id = sr->last_partition_id;
        else if (r->type == FLOE_REQ_ASSERT_DEFAULT_SPEC_ID)
            r->id = sr->spec_id;
    }
    if (!sc->inner)
        return 0;
    /* a changed definition is reported as the requirement it breaks */
    FLOE_TRY(floe__commit_check(base, c->requirements.items, c->requirements.len));
    size_t nreq = c->requirements.len;
    floe_table_metadata *m = NULL;
    int rc = build_in_memory(base, sr->target->metadata_location, c, &m);
    if (rc == 0)
        rc = check_definition(m, sc->staged->metadata, sr->target->ident);
    if (rc == 0)
        rc = sc->inner(m, c, sc->payload);
    c->requirements.len = nreq;
    floe__metadata_free(m);
    return rc;
}

int floe__staged_commit(floe_table *t, floe_prepare_fn inner, void *payload)
{
    floe_staged_replace *sr = t->staged;
    if (sr->committed)
        return floe__error(FLOE_EINVALID, "table",
                           "the staged replacement of %s is already committed", t->ident);
    staged_commit sc = {t, inner, payload};
    int rc = floe__table_commit(sr->target, staged_prepare, &sc);
    if (rc == 0 || rc == FLOE_ECOMMITUNKNOWN)
        sr->committed = true;
    return rc;
}

int floe_table_replace_begin(floe_table **staged, floe_table *t,
                             const floe_table_create_options *create)
{
    if (staged)
        *staged = NULL;
    if (!t || !create || !create->schema_json || !staged)
        return floe__error(FLOE_EINVALID, "table", "REPLACE TABLE needs a table and a schema");
    if (t->staged)
        return floe__error(FLOE_EINVALID, "table", "a staged replacement cannot be replaced");
    floe_staged_replace *sr = floe__calloc(1, sizeof *sr);
    floe_table *h = sr ? floe__calloc(1, sizeof *h) : NULL;
    if (!h) {
        floe__free(sr);
        return floe__error_nomem();
    }
    h->staged = sr;
    sr->target = t;
    sr->schema_id = t->metadata->current_schema_id;
    sr->last_column_id = t->metadata->last_column_id;
    sr->last_partition_id = t->metadata->last_partition_id;
    sr->spec_id = t->metadata->default_spec_id;
    sr->co = *create;
    sr->co.properties = create->properties ? &sr->props : NULL;
    sr->co.location = NULL;
    sr->op.co = &sr->co;
    h->catalog = t->catalog;
    h->io = t->io;
    h->freshness = FLOE_FRESHNESS_CACHED;
    int rc = (h->ident = floe__strdup(t->ident)) && (h->branch = floe__strdup("main")) &&
                     (h->metadata_location = floe__strdup(t->metadata_location)) &&
                     (!create->location || (sr->location = floe__strdup(create->location)))
                 ? 0
                 : floe__error_nomem();
    sr->co.location = sr->location;
    if (rc == 0 && create->properties)
        rc = floe__props_copy(&sr->props, create->properties);
    if (rc == 0)
        rc = floe__table_initial_metadata(create, create->location ? create->location
                                                                   : floe_table_location(t),
                                          &sr->op.def);
    /* the replaced definition the data files are written for */
    floe_table_change c;
    bool have_change = false;
    if (rc == 0)
        have_change = (rc = floe__change_init(&c)) == 0;
    if (rc == 0)
        rc = prepare(t->metadata, &c, &sr->op);
    if (rc == 0)
        rc = build_in_memory(t->metadata, t->metadata_location, &c, &h->metadata);
    if (have_change)
        floe__change_free(&c);
    if (rc < 0) {
        floe_table_free(h);
        return rc;
    }
    *staged = h;
    return 0;
}

int floe_table_replace_commit(floe_table *staged)
{
    if (!staged || !staged->staged)
        return floe__error(FLOE_EINVALID, "table", "not a staged replacement");
    if (staged->staged->committed)
        return 0;
    return floe__staged_commit(staged, NULL, NULL);
}
