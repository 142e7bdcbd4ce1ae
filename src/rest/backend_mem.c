/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/backend_mem: an in-memory catalog for `floe serve --memory` and the
 * REST tests. Namespaces hold properties; tables hold their table metadata
 * as JSON (format/spec.md "Table Metadata" field names). Commits check the
 * REST TableRequirements against that JSON and apply the TableUpdates to a
 * copy which replaces the old one under a mutex (the compare-and-set of a
 * real catalog). Metadata is never written to storage: metadata-location
 * values are memory:// names that change at every commit.
 */
#include "backend_mem.h"
#include "model_internal.h"

#include "io/io.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

typedef struct mem_ns {
    char *key;
    floe_arena *arena;
    floe_rest_namespace ns;
    floe_props props;
} mem_ns;

typedef struct mem_table {
    char *key;
    floe_arena *arena;
    floe_rest_ident id;
    json_t *metadata; /* immutable once published: commits replace it */
    char *text;       /* metadata serialised once per version, sent verbatim */
    size_t text_len;
    char *location;
    int64_t version;
} mem_table;

typedef struct mem {
    pthread_mutex_t mu;
    floe_strmap *namespaces;
    floe_strmap *tables;
    char *warehouse;
} mem;

/* ---------------------------------------------------------------- errors */

static char *ns_text(const floe_rest_namespace *ns, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ns->n && o + 1 < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "." : "", ns->parts[i]);
    return buf;
}

int floe__rest_no_such_namespace(const floe_rest_namespace *ns)
{
    char b[600];
    return floe__error(FLOE_ENOTFOUND, "namespace", "Namespace does not exist: %s",
                       ns_text(ns, b, sizeof b));
}

int floe__rest_no_such_table(const floe_rest_ident *id)
{
    char b[600];
    return floe__error(FLOE_ENOTFOUND, "table", "Table does not exist: %s.%s",
                       ns_text(&id->ns, b, sizeof b), id->name);
}

int floe__rest_namespace_exists(const floe_rest_namespace *ns)
{
    char b[600];
    return floe__error(FLOE_EEXISTS, "namespace", "Namespace already exists: %s",
                       ns_text(ns, b, sizeof b));
}

int floe__rest_table_exists_error(const floe_rest_ident *id)
{
    char b[600];
    return floe__error(FLOE_EEXISTS, "table", "Table already exists: %s.%s",
                       ns_text(&id->ns, b, sizeof b), id->name);
}

void floe__rest_backend_free(floe_rest_backend *b)
{
    if (b && b->free)
        b->free(b);
}

/* ---------------------------------------------------------------- keys */

static char *ns_key(const floe_rest_namespace *ns)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe__rest_namespace_join(&b, ns, FLOE_REST_NS_SEP) < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return floe__buf_detach(&b);
}

static char *table_key(const floe_rest_ident *id)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe__rest_namespace_join(&b, &id->ns, FLOE_REST_NS_SEP) < 0 ||
        floe__buf_putc(&b, '\x1e') < 0 || floe__buf_puts(&b, id->name) < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return floe__buf_detach(&b);
}

/* Lookups build the key on the stack: a lookup never fails for lack of
 * memory (so "not found" is never an out-of-memory in disguise). Names are
 * bounded (FLOE_REST_MAX_NAME x FLOE_REST_MAX_NS_DEPTH), so is the key. */
#define KEY_CAP ((FLOE_REST_MAX_NAME + 1) * (FLOE_REST_MAX_NS_DEPTH + 1) + 1)

static bool key_into(char *buf, const floe_rest_namespace *ns, const char *name)
{
    size_t o = 0;
    for (size_t i = 0; i < ns->n; i++) {
        size_t l = strlen(ns->parts[i]);
        if (o + l + 2 >= KEY_CAP)
            return false;
        if (i)
            buf[o++] = FLOE_REST_NS_SEP;
        memcpy(buf + o, ns->parts[i], l);
        o += l;
    }
    if (name) {
        size_t l = strlen(name);
        if (o + l + 2 >= KEY_CAP)
            return false;
        buf[o++] = '\x1e';
        memcpy(buf + o, name, l);
        o += l;
    }
    buf[o] = '\0';
    return true;
}

static mem_ns *find_ns(mem *m, const floe_rest_namespace *ns)
{
    char k[KEY_CAP];
    return key_into(k, ns, NULL) ? floe__strmap_get(m->namespaces, k) : NULL;
}

static mem_table *find_table(mem *m, const floe_rest_ident *id)
{
    char k[KEY_CAP];
    return key_into(k, &id->ns, id->name) ? floe__strmap_get(m->tables, k) : NULL;
}

static void table_free(mem_table *t)
{
    if (!t)
        return;
    json_decref(t->metadata);
    floe__free(t->text);
    floe__free(t->location);
    floe__free(t->key);
    floe__arena_free(t->arena);
    floe__free(t);
}

static mem_table *table_new(const floe_rest_ident *id)
{
    mem_table *t = floe__calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->arena = floe__arena_new(512);
    t->key = table_key(id);
    if (!t->arena || !t->key || floe__rest_namespace_copy(t->arena, &t->id.ns, &id->ns) < 0 ||
        !(t->id.name = floe__arena_strdup(t->arena, id->name))) {
        table_free(t);
        return NULL;
    }
    return t;
}

/* ---------------------------------------------------------------- namespaces */

static int m_list_namespaces(floe_rest_backend *b, const floe_rest_namespace *parent,
                             floe_rest_namespace_list *out)
{
    mem *m = b->payload;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    size_t depth = parent ? parent->n : 0;
    if (parent && parent->n && !find_ns(m, parent))
        rc = floe__rest_no_such_namespace(parent);
    size_t it = 0;
    const char *k;
    void *v;
    while (rc >= 0 && floe__strmap_next(m->namespaces, &it, &k, &v)) {
        mem_ns *n = v;
        if (n->ns.n != depth + 1)
            continue;
        bool under = true;
        for (size_t i = 0; i < depth; i++)
            under = under && strcmp(n->ns.parts[i], parent->parts[i]) == 0;
        if (under)
            rc = floe__rest_namespace_list_add(out, &n->ns);
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static int m_create_namespace(floe_rest_backend *b, const floe_rest_create_namespace_req *req,
                              floe_rest_namespace_result *out)
{
    mem *m = b->payload;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    mem_ns *n = NULL;
    if (find_ns(m, &req->ns)) {
        rc = floe__rest_namespace_exists(&req->ns);
        goto done;
    }
    n = floe__calloc(1, sizeof *n);
    if (!n || !(n->arena = floe__arena_new(256)) || !(n->key = ns_key(&req->ns)) ||
        floe__rest_namespace_copy(n->arena, &n->ns, &req->ns) < 0 ||
        floe__props_copy(&n->props, &req->properties) < 0 ||
        floe__props_copy(&out->properties, &req->properties) < 0 ||
        floe__strmap_put(m->namespaces, n->key, n) < 0) {
        rc = floe__error_nomem();
        goto done;
    }
    n = NULL;
done:
    if (n) {
        floe__props_free(&n->props);
        floe__free(n->key);
        floe__arena_free(n->arena);
        floe__free(n);
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static int m_load_namespace(floe_rest_backend *b, const floe_rest_namespace *ns,
                            floe_rest_namespace_result *out)
{
    mem *m = b->payload;
    pthread_mutex_lock(&m->mu);
    mem_ns *n = find_ns(m, ns);
    int rc = !n ? floe__rest_no_such_namespace(ns) : floe__props_copy(&out->properties, &n->props);
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static int m_update_namespace_properties(floe_rest_backend *b, const floe_rest_namespace *ns,
                                         const floe_rest_update_namespace_props_req *req,
                                         floe_rest_update_namespace_props_result *out)
{
    mem *m = b->payload;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    mem_ns *n = find_ns(m, ns);
    if (!n)
        rc = floe__rest_no_such_namespace(ns);
    for (size_t i = 0; rc >= 0 && i < req->n_removals; i++) {
        bool had = floe__props_del(&n->props, req->removals[i]);
        rc = floe__rest_strlist_add(had ? &out->removed : &out->missing, req->removals[i]);
    }
    for (size_t i = 0; rc >= 0 && i < req->updates.n; i++) {
        rc = floe__props_set(&n->props, req->updates.items[i].key, req->updates.items[i].value);
        if (rc >= 0)
            rc = floe__rest_strlist_add(&out->updated, req->updates.items[i].key);
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static int m_drop_namespace(floe_rest_backend *b, const floe_rest_namespace *ns)
{
    mem *m = b->payload;
    int rc = 0;
    char buf[600];
    pthread_mutex_lock(&m->mu);
    mem_ns *n = find_ns(m, ns);
    if (!n) {
        rc = floe__rest_no_such_namespace(ns);
        goto done;
    }
    size_t it = 0;
    const char *k;
    void *v;
    while (floe__strmap_next(m->tables, &it, &k, &v))
        if (floe__rest_namespace_eq(&((mem_table *)v)->id.ns, ns)) {
            rc = floe__error(FLOE_ECONFLICT, "namespace", "Namespace not empty: %s",
                             ns_text(ns, buf, sizeof buf));
            goto done;
        }
    it = 0;
    while (floe__strmap_next(m->namespaces, &it, &k, &v)) {
        mem_ns *c = v;
        if (c->ns.n <= ns->n)
            continue;
        bool under = true;
        for (size_t i = 0; i < ns->n; i++)
            under = under && strcmp(c->ns.parts[i], ns->parts[i]) == 0;
        if (under) {
            rc = floe__error(FLOE_ECONFLICT, "namespace", "Namespace not empty: %s",
                             ns_text(ns, buf, sizeof buf));
            goto done;
        }
    }
    floe__strmap_del(m->namespaces, n->key);
    floe__props_free(&n->props);
    floe__free(n->key);
    floe__arena_free(n->arena);
    floe__free(n);
done:
    pthread_mutex_unlock(&m->mu);
    return rc;
}

/* ---------------------------------------------------------------- tables */

static int m_list_tables(floe_rest_backend *b, const floe_rest_namespace *ns,
                         floe_rest_ident_list *out)
{
    mem *m = b->payload;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    if (!find_ns(m, ns))
        rc = floe__rest_no_such_namespace(ns);
    size_t it = 0;
    const char *k;
    void *v;
    while (rc >= 0 && floe__strmap_next(m->tables, &it, &k, &v)) {
        mem_table *t = v;
        if (floe__rest_namespace_eq(&t->id.ns, ns))
            rc = floe__rest_ident_list_add(out, &t->id);
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static char *new_location(mem *m, const floe_rest_ident *id, int64_t version)
{
    char b[600], uuid[37];
    if (floe__uuid4(uuid) < 0)
        return NULL;
    return floe__sprintf("%s/%s/%s/metadata/%05lld-%s.metadata.json", m->warehouse,
                         ns_text(&id->ns, b, sizeof b), id->name, (long long)version, uuid);
}

/* Install a new metadata version in t (serialised once, here). */
static int set_metadata(mem_table *t, json_t *md)
{
    size_t len;
    char *text = floe__rest_dump(json_incref(md), &len);
    if (!text)
        return floe__error_nomem();
    json_decref(t->metadata);
    floe__free(t->text);
    t->metadata = json_incref(md);
    t->text = text;
    t->text_len = len;
    return 0;
}

static int result_from(mem_table *t, json_t *metadata, floe_rest_table_result *out)
{
    out->metadata = json_incref(metadata);
    if (t && !(out->metadata_location = floe__strdup(t->location)))
        return floe__error_nomem();
    if (t && t->text && metadata == t->metadata) {
        out->metadata_text = floe__malloc(t->text_len + 1);
        if (!out->metadata_text)
            return floe__error_nomem();
        memcpy(out->metadata_text, t->text, t->text_len + 1);
        out->metadata_text_len = t->text_len;
    }
    return 0;
}

/* Highest "id" in a schema's fields, nested types included. */
static int64_t max_field_id(json_t *type)
{
    int64_t best = 0;
    if (!json_is_object(type))
        return 0;
    json_t *fields = json_object_get(type, "fields");
    size_t i;
    json_t *f;
    json_array_foreach(fields, i, f)
    {
        json_t *id = json_object_get(f, "id");
        if (json_is_integer(id) && json_integer_value(id) > best)
            best = json_integer_value(id);
        int64_t sub = max_field_id(json_object_get(f, "type"));
        best = sub > best ? sub : best;
    }
    static const char *const ids[] = {"element-id", "key-id", "value-id"};
    for (size_t k = 0; k < 3; k++) {
        json_t *id = json_object_get(type, ids[k]);
        if (json_is_integer(id) && json_integer_value(id) > best)
            best = json_integer_value(id);
    }
    static const char *const subs[] = {"element", "key", "value"};
    for (size_t k = 0; k < 3; k++) {
        int64_t sub = max_field_id(json_object_get(type, subs[k]));
        best = sub > best ? sub : best;
    }
    return best;
}

static int64_t max_partition_field_id(json_t *spec)
{
    int64_t best = 999; /* partition field ids start at 1000 */
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(spec, "fields"), i, f)
    {
        json_t *id = json_object_get(f, "field-id");
        if (json_is_integer(id) && json_integer_value(id) > best)
            best = json_integer_value(id);
    }
    return best;
}

/* The metadata of a new table (format-version 2). */
static json_t *new_metadata(mem *m, const floe_rest_ident *id,
                            const floe_rest_create_table_req *req)
{
    char uuid[37], b[600];
    if (floe__uuid4(uuid) < 0)
        return NULL;
    char *loc = req->location ? floe__strdup(req->location)
                              : floe__sprintf("%s/%s/%s", m->warehouse,
                                              ns_text(&id->ns, b, sizeof b), id->name);
    if (!loc)
        return NULL;
    json_t *schema = json_deep_copy(req->schema);
    if (schema)
        json_object_set_new(schema, "schema-id", json_integer(0));
    json_t *spec = req->partition_spec ? json_deep_copy(req->partition_spec)
                                       : json_pack("{s:[]}", "fields");
    if (spec)
        json_object_set_new(spec, "spec-id", json_integer(0));
    json_t *order = req->write_order ? json_deep_copy(req->write_order)
                                     : json_pack("{s:i,s:[]}", "order-id", 0, "fields");
    int64_t order_id = 0;
    json_t *oid = order ? json_object_get(order, "order-id") : NULL;
    if (json_is_integer(oid))
        order_id = json_integer_value(oid);
    json_t *md = json_pack(
        "{s:i,s:s,s:s,s:i,s:I,s:I,s:[o],s:i,s:[o],s:i,s:I,s:o,s:i,s:{},s:[],s:[],s:[],s:[o],s:I}",
        "format-version", 2, "table-uuid", uuid, "location", loc, "last-sequence-number", 0,
        "last-updated-ms", (json_int_t)floe__now_ms(), "last-column-id",
        (json_int_t)max_field_id(req->schema), "schemas", schema, "current-schema-id", 0,
        "partition-specs", spec, "default-spec-id", 0, "last-partition-id",
        (json_int_t)max_partition_field_id(req->partition_spec), "properties",
        floe__rest_props_to_json(&req->properties), "current-snapshot-id", -1, "refs",
        "snapshots", "snapshot-log", "metadata-log", "sort-orders", order,
        "default-sort-order-id", (json_int_t)order_id);
    floe__free(loc);
    if (!md)
        floe__error_nomem();
    return md;
}

static int m_create_table(floe_rest_backend *b, const floe_rest_namespace *ns,
                          const floe_rest_create_table_req *req, floe_rest_table_result *out)
{
    mem *m = b->payload;
    floe_rest_ident id = {*ns, (char *)req->name};
    int rc = 0;
    json_t *md = NULL;
    mem_table *t = NULL;
    pthread_mutex_lock(&m->mu);
    if (!find_ns(m, ns)) {
        rc = floe__rest_no_such_namespace(ns);
        goto done;
    }
    if (find_table(m, &id)) {
        rc = floe__rest_table_exists_error(&id);
        goto done;
    }
    if (!(md = new_metadata(m, &id, req))) {
        rc = floe__error_nomem();
        goto done;
    }
    if (req->stage_create) {
        rc = result_from(NULL, md, out);
        goto done;
    }
    if (!(t = table_new(&id)) || !(t->location = new_location(m, &id, 0)) ||
        set_metadata(t, md) < 0 || floe__strmap_put(m->tables, t->key, t) < 0) {
        table_free(t);
        rc = floe__error_nomem();
        goto done;
    }
    rc = result_from(t, md, out);
done:
    json_decref(md);
    pthread_mutex_unlock(&m->mu);
    return rc;
}

/* snapshots=refs: only the snapshots some branch or tag points at. */
static json_t *only_ref_snapshots(json_t *md)
{
    json_t *copy = json_copy(md), *keep = json_array();
    if (!copy || !keep) {
        json_decref(copy);
        json_decref(keep);
        return NULL;
    }
    json_t *refs = json_object_get(md, "refs");
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(md, "snapshots"), i, s)
    {
        json_int_t id = json_integer_value(json_object_get(s, "snapshot-id"));
        const char *k;
        json_t *r;
        json_object_foreach(refs, k, r)
        {
            if (json_integer_value(json_object_get(r, "snapshot-id")) == id) {
                json_array_append(keep, s);
                break;
            }
        }
    }
    json_object_set_new(copy, "snapshots", keep);
    return copy;
}

static int m_load_table(floe_rest_backend *b, const floe_rest_ident *id,
                        floe_rest_snapshots_mode mode, floe_rest_table_result *out)
{
    mem *m = b->payload;
    int rc;
    pthread_mutex_lock(&m->mu);
    mem_table *t = find_table(m, id);
    if (!t) {
        rc = floe__rest_no_such_table(id);
    } else if (mode == FLOE_REST_SNAPSHOTS_REFS) {
        json_t *md = only_ref_snapshots(t->metadata);
        rc = md ? result_from(t, md, out) : floe__error_nomem();
        json_decref(md);
    } else {
        rc = result_from(t, t->metadata, out);
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static int m_table_exists(floe_rest_backend *b, const floe_rest_ident *id)
{
    mem *m = b->payload;
    pthread_mutex_lock(&m->mu);
    int rc = find_table(m, id) ? 0 : floe__rest_no_such_table(id);
    pthread_mutex_unlock(&m->mu);
    return rc;
}

/* Validate and apply one change; *next is the new metadata (not yet published). */
static int prepare(mem *m, const floe_rest_ident *id, const floe_rest_commit_table_req *req,
                   mem_table **t_out, json_t **next)
{
    mem_table *t = find_table(m, id);
    bool create = false;
    for (size_t i = 0; i < req->n_requirements; i++)
        create = create || req->requirements[i].kind == FLOE_REST_ASSERT_CREATE;
    if (!t && !create)
        return floe__rest_no_such_table(id);
    if (!t && !find_ns(m, &id->ns))
        return floe__rest_no_such_namespace(&id->ns);
    FLOE_TRY(floe__rest_mem_check(t ? t->metadata : NULL, req));
    char b[600];
    char *loc = floe__sprintf("%s/%s/%s", m->warehouse, ns_text(&id->ns, b, sizeof b), id->name);
    if (!loc)
        return floe__error_nomem();
    json_t *md = t ? json_deep_copy(t->metadata) : NULL;
    int rc = (t && !md) ? floe__error_nomem() : floe__rest_mem_apply(&md, loc, req);
    floe__free(loc);
    if (rc < 0) {
        json_decref(md);
        return rc;
    }
    *t_out = t;
    *next = md;
    return 0;
}

/* Publish prepared metadata (never fails after allocation succeeded). */
static int publish(mem *m, const floe_rest_ident *id, mem_table *t, json_t *md,
                   floe_rest_table_result *out)
{
    bool fresh = !t;
    if (fresh && !(t = table_new(id)))
        return floe__error_nomem();
    char *loc = new_location(m, id, t->version + (fresh ? 0 : 1));
    if (!loc || (fresh && floe__strmap_put(m->tables, t->key, t) < 0)) {
        floe__free(loc);
        if (fresh)
            table_free(t);
        return floe__error_nomem();
    }
    if (!fresh) {
        json_t *log = json_object_get(md, "metadata-log");
        if (!json_is_array(log)) {
            log = json_array();
            json_object_set_new(md, "metadata-log", log);
        }
        json_array_append_new(log,
                              json_pack("{s:I,s:s}", "timestamp-ms",
                                        json_integer_value(json_object_get(t->metadata,
                                                                           "last-updated-ms")),
                                        "metadata-file", t->location));
        t->version++;
    }
    if (set_metadata(t, md) < 0) {
        floe__free(loc);
        if (fresh) {
            floe__strmap_del(m->tables, t->key);
            table_free(t);
        }
        return floe__error_nomem();
    }
    floe__free(t->location);
    t->location = loc;
    return out ? result_from(t, md, out) : 0;
}

static int m_commit_table(floe_rest_backend *b, const floe_rest_ident *id,
                          const floe_rest_commit_table_req *req, floe_rest_table_result *out)
{
    mem *m = b->payload;
    pthread_mutex_lock(&m->mu);
    mem_table *t = NULL;
    json_t *md = NULL;
    int rc = prepare(m, id, req, &t, &md);
    if (rc >= 0)
        rc = publish(m, id, t, md, out);
    json_decref(md);
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static int m_commit_transaction(floe_rest_backend *b, const floe_rest_commit_transaction_req *req)
{
    mem *m = b->payload;
    int rc = 0;
    mem_table **ts = floe__calloc(req->n_changes + 1, sizeof *ts);
    json_t **mds = floe__calloc(req->n_changes + 1, sizeof *mds);
    if (!ts || !mds) {
        floe__free(ts);
        floe__free(mds);
        return floe__error_nomem();
    }
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; rc >= 0 && i < req->n_changes; i++) {
        for (size_t j = 0; j < i; j++)
            if (strcmp(req->changes[j].identifier.name, req->changes[i].identifier.name) == 0 &&
                floe__rest_namespace_eq(&req->changes[j].identifier.ns,
                                        &req->changes[i].identifier.ns))
                rc = floe__error(FLOE_EINVALID, "rest", "table %s appears twice in a transaction",
                                 req->changes[i].identifier.name);
        if (rc >= 0)
            rc = prepare(m, &req->changes[i].identifier, &req->changes[i], &ts[i], &mds[i]);
    }
    /* All requirements held: publish every table (atomic under the lock). */
    for (size_t i = 0; rc >= 0 && i < req->n_changes; i++)
        rc = publish(m, &req->changes[i].identifier, ts[i], mds[i], NULL);
    pthread_mutex_unlock(&m->mu);
    for (size_t i = 0; i < req->n_changes; i++)
        json_decref(mds[i]);
    floe__free(ts);
    floe__free(mds);
    return rc;
}

static int m_drop_table(floe_rest_backend *b, const floe_rest_ident *id, bool purge)
{
    (void)purge; /* nothing on storage to purge */
    mem *m = b->payload;
    pthread_mutex_lock(&m->mu);
    mem_table *t = find_table(m, id);
    int rc = 0;
    if (!t) {
        rc = floe__rest_no_such_table(id);
    } else {
        floe__strmap_del(m->tables, t->key);
        table_free(t);
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

static int m_rename_table(floe_rest_backend *b, const floe_rest_rename_table_req *req)
{
    mem *m = b->payload;
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    mem_table *t = find_table(m, &req->source), *nt = NULL;
    if (!t)
        rc = floe__rest_no_such_table(&req->source);
    else if (!find_ns(m, &req->destination.ns))
        rc = floe__rest_no_such_namespace(&req->destination.ns);
    else if (find_table(m, &req->destination))
        rc = floe__rest_table_exists_error(&req->destination);
    else if (!(nt = table_new(&req->destination)) ||
             floe__strmap_put(m->tables, nt->key, nt) < 0)
        rc = floe__error_nomem();
    if (rc >= 0) {
        nt->metadata = t->metadata;
        nt->text = t->text;
        nt->text_len = t->text_len;
        nt->location = t->location;
        nt->version = t->version;
        t->metadata = NULL;
        t->text = NULL;
        t->location = NULL;
        floe__strmap_del(m->tables, t->key);
        table_free(t);
    } else if (nt) {
        table_free(nt);
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

/* Local directory of a file:// or absolute warehouse, resolved; NULL if the
 * warehouse is not local or does not exist. Caller frees. */
static char *local_dir(const char *location)
{
    location = floe__local_path(location);
    if (!location || location[0] != '/')
        return NULL;
    char *r = realpath(location, NULL);
    struct stat st;
    if (r && (stat(r, &st) != 0 || !S_ISDIR(st.st_mode))) {
        free(r);
        r = NULL;
    }
    return r;
}

/* Register reads a metadata file from the local file system, and only from
 * inside the warehouse directory: a client must not make the server read
 * (and echo) arbitrary files. Error messages never quote file content. */
static int m_register_table(floe_rest_backend *b, const floe_rest_namespace *ns,
                            const floe_rest_register_table_req *req, floe_rest_table_result *out)
{
    mem *m = b->payload;
    floe_rest_ident id = {*ns, (char *)req->name};
    char *dir = local_dir(m->warehouse);
    if (!dir)
        return floe__error(FLOE_EUNSUPPORTED, "rest",
                           "registering tables needs a local --warehouse directory");
    const char *path = floe__local_path(req->metadata_location);
    char *real = path && path[0] == '/' ? realpath(path, NULL) : NULL;
    size_t dl = strlen(dir);
    struct stat st;
    bool inside = real && strncmp(real, dir, dl) == 0 && (real[dl] == '/' || dl == 1) &&
                  stat(real, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (64 << 20);
    free(dir);
    if (!inside) {
        free(real);
        return floe__error(FLOE_EINVALID, "rest",
                           "Cannot register %s: not a metadata file inside the warehouse",
                           req->metadata_location);
    }
    json_error_t err;
    json_t *md = json_load_file(real, JSON_REJECT_DUPLICATES, &err);
    free(real);
    if (!md)
        return floe__error(FLOE_EINVALID, "rest", "Cannot parse table metadata %s (line %d)",
                           req->metadata_location, err.line);
    int64_t fv;
    const char *uuid;
    int rc = json_is_object(md) ? 0 : floe__rest_bad("metadata", "expected an object");
    if (rc >= 0)
        rc = floe__rest_get_int(md, "metadata", "format-version", true, &fv);
    if (rc >= 0)
        rc = floe__rest_get_str(md, "metadata", "table-uuid", true, &uuid);
    pthread_mutex_lock(&m->mu);
    mem_table *t = rc < 0 ? NULL : find_table(m, &id);
    if (rc < 0)
        ;
    else if (!find_ns(m, ns))
        rc = floe__rest_no_such_namespace(ns);
    else if (t && !req->overwrite)
        rc = floe__rest_table_exists_error(&id);
    else if (!t && (!(t = table_new(&id)) || floe__strmap_put(m->tables, t->key, t) < 0)) {
        table_free(t);
        rc = floe__error_nomem();
    }
    if (rc >= 0) {
        char *loc = floe__strdup(req->metadata_location);
        if (!loc) {
            rc = floe__error_nomem();
        } else {
            rc = set_metadata(t, md);
            if (rc < 0) {
                floe__free(loc);
            } else {
                floe__free(t->location);
                t->location = loc;
                rc = result_from(t, md, out);
            }
        }
    }
    pthread_mutex_unlock(&m->mu);
    json_decref(md);
    return rc;
}

static int m_config(floe_rest_backend *b, const char *warehouse, floe_rest_config *out)
{
    (void)warehouse;
    mem *m = b->payload;
    return floe__props_set(&out->defaults, "warehouse", m->warehouse);
}

static void m_free(floe_rest_backend *b)
{
    mem *m = b->payload;
    if (m) {
        size_t it = 0;
        const char *k;
        void *v;
        while (floe__strmap_next(m->tables, &it, &k, &v))
            table_free(v);
        it = 0;
        while (floe__strmap_next(m->namespaces, &it, &k, &v)) {
            mem_ns *n = v;
            floe__props_free(&n->props);
            floe__free(n->key);
            floe__arena_free(n->arena);
            floe__free(n);
        }
        floe__strmap_free(m->tables);
        floe__strmap_free(m->namespaces);
        floe__free(m->warehouse);
        pthread_mutex_destroy(&m->mu);
        floe__free(m);
    }
    floe__free(b);
}

int floe__rest_backend_mem_new(floe_rest_backend **out, const char *warehouse)
{
    floe_rest_backend *b = floe__calloc(1, sizeof *b);
    mem *m = floe__calloc(1, sizeof *m);
    if (!b || !m) {
        floe__free(b);
        floe__free(m);
        return floe__error_nomem();
    }
    b->payload = m;
    b->free = m_free;
    pthread_mutex_init(&m->mu, NULL);
    m->namespaces = floe__strmap_new();
    m->tables = floe__strmap_new();
    size_t wl = warehouse ? strlen(warehouse) : 0;
    while (wl > 0 && warehouse[wl - 1] == '/')
        wl--;
    m->warehouse = wl ? floe__strndup(warehouse, wl) : floe__strdup("memory://warehouse");
    if (!m->namespaces || !m->tables || !m->warehouse) {
        m_free(b);
        return floe__error_nomem();
    }
    b->version = FLOE_REST_BACKEND_VERSION;
    b->config = m_config;
    b->list_namespaces = m_list_namespaces;
    b->create_namespace = m_create_namespace;
    b->load_namespace = m_load_namespace;
    b->update_namespace_properties = m_update_namespace_properties;
    b->drop_namespace = m_drop_namespace;
    b->list_tables = m_list_tables;
    b->create_table = m_create_table;
    b->load_table = m_load_table;
    b->table_exists = m_table_exists;
    b->commit_table = m_commit_table;
    b->drop_table = m_drop_table;
    b->rename_table = m_rename_table;
    b->register_table = m_register_table;
    b->commit_transaction = m_commit_transaction;
    *out = b;
    return 0;
}
