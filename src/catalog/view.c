/* SPDX-License-Identifier: Apache-2.0 */
/*
 * catalog/view: Iceberg views over any catalog with view ops
 * (include/floe/catalog.h "views"). A new version is expressed once, as
 * the REST view commit ({"requirements":[assert-view-uuid],"updates":
 * [add-schema, add-view-version, set-current-view-version -1,
 * set-properties]}); a REST catalog is sent it (createView takes the
 * CreateViewRequest form), a pointer catalog (SQLite) has it applied by the
 * one view applier (spec/view.c), writes the next metadata file
 * (<location>/metadata/<NNNNN>-<uuid>[.gz].metadata.json, gzip by default as
 * Java's write.metadata.compression-codec for views) and swaps the pointer
 * with compare-and-set.
 */
#include "catalog.h"
#include "io/io.h"
#include "spec/metadata.h"
#include "spec/view.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TRY FLOE_TRY
#define VIEW_FILE_MAX ((size_t)256 << 20)

struct floe_view {
    floe_view_metadata *m;
    char *location;
    char *default_ns;
};

int floe__catalog_no_view(const char *ns, const char *name)
{
    return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_VIEW, "catalog",
                          "View does not exist: %s.%s", ns, name);
}

static int no_views(const floe_catalog *c)
{
    return floe__error(FLOE_EUNSUPPORTED, "catalog", "Catalog %s does not support views", c->name);
}

#define VIEW_OPS(c)                                                                                \
    do {                                                                                           \
        if (!(c))                                                                                  \
            return floe__error(FLOE_EINVALID, "catalog", "%s: NULL catalog", __func__);            \
        if (!(c)->views)                                                                           \
            return no_views(c);                                                                    \
    } while (0)

/* ---------------------------------------------------------------- reading */

static int open_io(floe_fileio **io, floe_fileio **owned, const char *location)
{
    *owned = NULL;
    if (*io)
        return 0;
    TRY(floe_fileio_open(owned, location, NULL));
    *io = *owned;
    return 0;
}

int floe__catalog_view_read(floe_view_metadata **out, floe_fileio *io, const char *location)
{
    floe_fileio *owned;
    TRY(open_io(&io, &owned, location));
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__io_read_all(io, location, VIEW_FILE_MAX, &b);
    if (rc == 0)
        rc = floe__view_metadata_parse(out, b.ptr, b.len, location);
    floe__buf_free(&b);
    floe_fileio_free(owned);
    return rc;
}

static int view_of(floe_view **out, floe_view_metadata *m, const char *location)
{
    floe_view *v = floe__calloc(1, sizeof *v);
    floe_buf ns = FLOE_BUF_INIT;
    const floe_view_version *cur = floe__view_current_version(m);
    int rc = v ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && cur && i < cur->ndefault_namespace; i++)
        rc = floe__buf_printf(&ns, "%s%s", i ? "." : "", cur->default_namespace[i]);
    if (rc == 0 && !(v->default_ns = ns.ptr ? floe__buf_detach(&ns) : floe__strdup("")))
        rc = floe__error_nomem();
    if (rc == 0 && !(v->location = floe__strdup(location)))
        rc = floe__error_nomem();
    floe__buf_free(&ns);
    if (rc < 0) {
        if (v) {
            floe__free(v->default_ns);
            floe__free(v);
        }
        floe__view_metadata_free(m);
        return rc;
    }
    v->m = m;
    *out = v;
    return 0;
}

int floe_view_load(floe_view **out, floe_catalog *c, const char *ident, floe_fileio *io)
{
    VIEW_OPS(c);
    if (!out)
        return floe__error(FLOE_EINVALID, "catalog", "floe_view_load: NULL out");
    *out = NULL;
    char *ns, *name, *loc = NULL;
    TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->views->load_view(c, ns, name, &loc);
    floe_view_metadata *m = NULL;
    if (rc == 0)
        rc = floe__catalog_view_read(&m, io, loc);
    if (rc == 0)
        rc = view_of(out, m, loc);
    floe__free(loc);
    floe__free(ns);
    floe__free(name);
    return rc;
}

void floe_view_free(floe_view *v)
{
    if (!v)
        return;
    floe__view_metadata_free(v->m);
    floe__free(v->location);
    floe__free(v->default_ns);
    floe__free(v);
}

const char *floe_view_metadata_location(const floe_view *v)
{
    return v ? v->location : NULL;
}

const char *floe_view_sql(const floe_view *v, const char *dialect)
{
    return v ? floe__view_sql(v->m, dialect) : NULL;
}

const char *floe_view_default_namespace(const floe_view *v)
{
    return v ? v->default_ns : NULL;
}

const char *floe_view_default_catalog(const floe_view *v)
{
    const floe_view_version *cur = v ? floe__view_current_version(v->m) : NULL;
    return cur ? cur->default_catalog : NULL;
}

const char *floe_view_property(const floe_view *v, const char *key)
{
    return v && key ? floe__props_get(&v->m->properties, key) : NULL;
}

int floe_view_current_version_id(const floe_view *v)
{
    return v ? v->m->current_version_id : -1;
}

static int jw_text(char **out, int (*fn)(floe_jw *, const void *), const void *obj)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    int rc = fn(&w, obj);
    if (rc == 0)
        rc = floe__jw_finish(&w);
    if (rc == 0 && !(*out = floe__buf_detach(&b)))
        rc = floe__error_nomem();
    floe__buf_free(&b);
    return rc;
}

static int write_schema(floe_jw *w, const void *s)
{
    return floe__schema_write(w, s);
}

static int write_meta(floe_jw *w, const void *m)
{
    return floe__view_metadata_write(w, m);
}

int floe_view_schema_json(char **out, const floe_view *v)
{
    if (!out || !v)
        return floe__error(FLOE_EINVALID, "catalog", "floe_view_schema_json: NULL argument");
    const floe_view_version *cur = floe__view_current_version(v->m);
    const floe_schema *s = cur ? floe__view_schema(v->m, cur->schema_id) : NULL;
    if (!s)
        return floe__error(FLOE_ECORRUPT, "catalog", "%s: the current version has no schema",
                           v->location);
    return jw_text(out, write_schema, s);
}

int floe_view_metadata_json(char **out, const floe_view *v)
{
    if (!out || !v)
        return floe__error(FLOE_EINVALID, "catalog", "floe_view_metadata_json: NULL argument");
    return jw_text(out, write_meta, v->m);
}

/* ---------------------------------------------------------------- names */

int floe_catalog_list_views(floe_catalog *c, const char *ns,
                            int (*cb)(const char *ns, const char *name, void *payload),
                            void *payload)
{
    VIEW_OPS(c);
    if (!cb)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_list_views: NULL cb");
    TRY(floe_catalog_check_namespace(ns));
    floe_vec v = FLOE_VEC_INIT(char *);
    int rc = c->views->list_views(c, ns, &v);
    for (size_t i = 0; rc == 0 && i < v.len; i++)
        rc = cb(ns, *(char **)floe__vec_at(&v, i), payload);
    floe__catalog_strvec_free(&v);
    return rc;
}

int floe_catalog_view_exists(floe_catalog *c, const char *ident)
{
    VIEW_OPS(c);
    char *ns, *name, *loc = NULL;
    TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->views->load_view(c, ns, name, &loc);
    if (rc == FLOE_ENOTFOUND) {
        floe_error_clear();
        rc = 0;
    } else if (rc == 0) {
        rc = 1;
    }
    floe__free(loc);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe_catalog_rename_view(floe_catalog *c, const char *from, const char *to)
{
    VIEW_OPS(c);
    char *fns, *fname, *tns = NULL, *tname = NULL;
    TRY(floe__catalog_split_ident(from, &fns, &fname));
    int rc = floe__catalog_split_ident(to, &tns, &tname);
    if (rc == 0)
        rc = c->views->rename_view(c, fns, fname, tns, tname);
    floe__free(fns);
    floe__free(fname);
    floe__free(tns);
    floe__free(tname);
    return rc;
}

int floe_catalog_drop_view(floe_catalog *c, const char *ident)
{
    VIEW_OPS(c);
    char *ns, *name;
    TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->views->drop_view(c, ns, name);
    floe__free(ns);
    floe__free(name);
    return rc;
}

/* ---------------------------------------------------------------- create / replace */

/* The ViewVersion of the options (version-id 1 and schema-id -1: the
 * applier assigns both). */
static int version_write(floe_jw *w, const floe_view_options *o, const char *view_ns)
{
    const char *dns = o->default_namespace ? o->default_namespace : view_ns;
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kint(w, "version-id", 1));
    TRY(floe__jw_kint(w, "timestamp-ms", floe__now_ms()));
    TRY(floe__jw_kint(w, "schema-id", -1));
    TRY(floe__jw_key(w, "summary"));
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kstr(w, "engine-name", o->engine_name ? o->engine_name : "floe"));
    TRY(floe__jw_kstr(w, "engine-version", o->engine_version ? o->engine_version : FLOE_VERSION));
    TRY(floe__jw_obj_end(w));
    if (o->default_catalog)
        TRY(floe__jw_kstr(w, "default-catalog", o->default_catalog));
    TRY(floe__jw_key(w, "default-namespace"));
    TRY(floe__jw_arr(w));
    for (const char *p = dns; *p;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        TRY(floe__jw_strn(w, p, n));
        p += n + (dot ? 1 : 0);
    }
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "representations"));
    TRY(floe__jw_arr(w));
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kstr(w, "type", "sql"));
    TRY(floe__jw_kstr(w, "sql", o->sql));
    TRY(floe__jw_kstr(w, "dialect", o->dialect ? o->dialect : "spark"));
    TRY(floe__jw_obj_end(w));
    TRY(floe__jw_arr_end(w));
    return floe__jw_obj_end(w);
}

/* The commit of one new version; `uuid` NULL: no requirement (a create). */
static int commit_body(floe_buf *out, const floe_view_options *o, const char *view_ns,
                       const char *uuid)
{
    floe_jw w;
    floe__jw_init(&w, out);
    TRY(floe__jw_obj(&w));
    TRY(floe__jw_key(&w, "requirements"));
    TRY(floe__jw_arr(&w));
    if (uuid) {
        TRY(floe__jw_obj(&w));
        TRY(floe__jw_kstr(&w, "type", "assert-view-uuid"));
        TRY(floe__jw_kstr(&w, "uuid", uuid));
        TRY(floe__jw_obj_end(&w));
    }
    TRY(floe__jw_arr_end(&w));
    TRY(floe__jw_key(&w, "updates"));
    TRY(floe__jw_arr(&w));
    TRY(floe__jw_obj(&w));
    TRY(floe__jw_kstr(&w, "action", "add-schema"));
    TRY(floe__jw_key(&w, "schema"));
    TRY(floe__jw_raw(&w, o->schema_json, strlen(o->schema_json)));
    TRY(floe__jw_obj_end(&w));
    TRY(floe__jw_obj(&w));
    TRY(floe__jw_kstr(&w, "action", "add-view-version"));
    TRY(floe__jw_key(&w, "view-version"));
    TRY(version_write(&w, o, view_ns));
    TRY(floe__jw_obj_end(&w));
    TRY(floe__jw_obj(&w));
    TRY(floe__jw_kstr(&w, "action", "set-current-view-version"));
    TRY(floe__jw_kint(&w, "view-version-id", -1));
    TRY(floe__jw_obj_end(&w));
    if (o->location) {
        TRY(floe__jw_obj(&w));
        TRY(floe__jw_kstr(&w, "action", "set-location"));
        TRY(floe__jw_kstr(&w, "location", o->location));
        TRY(floe__jw_obj_end(&w));
    }
    if (o->properties && o->properties->n) {
        TRY(floe__jw_obj(&w));
        TRY(floe__jw_kstr(&w, "action", "set-properties"));
        TRY(floe__jw_key(&w, "updates"));
        TRY(floe__jw_kv_object(&w, o->properties->items, o->properties->n));
        TRY(floe__jw_obj_end(&w));
    }
    TRY(floe__jw_arr_end(&w));
    TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
}

/* REST CreateViewRequest. */
static int create_body(floe_buf *out, const floe_view_options *o, const char *view_ns,
                       const char *name)
{
    floe_jw w;
    floe__jw_init(&w, out);
    TRY(floe__jw_obj(&w));
    TRY(floe__jw_kstr(&w, "name", name));
    if (o->location)
        TRY(floe__jw_kstr(&w, "location", o->location));
    TRY(floe__jw_key(&w, "schema"));
    TRY(floe__jw_raw(&w, o->schema_json, strlen(o->schema_json)));
    TRY(floe__jw_key(&w, "view-version"));
    TRY(version_write(&w, o, view_ns));
    TRY(floe__jw_key(&w, "properties"));
    if (o->properties)
        TRY(floe__jw_kv_object(&w, o->properties->items, o->properties->n));
    else
        TRY(floe__jw_kv_object(&w, NULL, 0));
    TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
}

/* Java's BaseViewOperations.parseVersion: NNNNN of ".../NNNNN-uuid...", -1
 * when the name has none. */
int floe__catalog_view_file_version(const char *location)
{
    const char *base = location ? strrchr(location, '/') : NULL;
    base = base ? base + 1 : location;
    if (!base)
        return -1;
    char *end;
    long v = strtol(base, &end, 10);
    return end != base && *end == '-' && v >= 0 && v < 99999 ? (int)v : -1;
}

static int file_name(const floe_view_metadata *m, int version, char **out)
{
    char uuid[37];
    TRY(floe__uuid4(uuid));
    const char *codec = floe__props_get(&m->properties, "write.metadata.compression-codec");
    bool gz = !codec || strcasecmp(codec, "gzip") == 0;
    const char *dir = floe__props_get(&m->properties, "write.metadata.path");
    const char *root = dir ? dir : m->location;
    size_t n = strlen(root);
    while (n > 0 && root[n - 1] == '/')
        n--;
    *out = floe__sprintf("%.*s%s/%05d-%s%s", (int)n, root, dir ? "" : "/metadata", version, uuid,
                         gz ? ".gz.metadata.json" : ".metadata.json");
    return *out ? 0 : floe__error_nomem();
}

/* Serialize (gzip unless the codec says none) and write a new file. */
int floe__catalog_view_write(floe_fileio *io, const floe_view_metadata *m, int version,
                             char **path)
{
    *path = NULL;
    floe_fileio *owned;
    TRY(open_io(&io, &owned, m->location));
    floe_buf plain = FLOE_BUF_INIT, gz = FLOE_BUF_INIT;
    int rc = file_name(m, version, path);
    if (rc == 0)
        rc = floe__view_metadata_to_json(m, &plain);
    bool zip = *path && strstr(*path, ".gz.metadata.json") != NULL;
    if (rc == 0 && zip)
        rc = floe__gzip(&plain, &gz);
    const floe_buf *b = zip ? &gz : &plain;
    if (rc == 0)
        rc = floe__io_write_new(io, *path, b->ptr, b->len);
    floe__buf_free(&plain);
    floe__buf_free(&gz);
    floe_fileio_free(owned);
    if (rc < 0) {
        floe__free(*path);
        *path = NULL;
    }
    return rc;
}

/* The current error, to raise again after a step that may clear it. */
typedef struct saved_error {
    int code;
    floe_error_kind kind;
    char *msg, *sub;
} saved_error;

static void error_save(saved_error *s)
{
    const floe_error *e = floe_error_last();
    s->code = floe__error_code();
    s->kind = e ? e->kind : FLOE_KIND_NONE;
    s->msg = e && e->message ? floe__strdup(e->message) : NULL;
    s->sub = e && e->subsystem ? floe__strdup(e->subsystem) : NULL;
}

static void error_restore(saved_error *s)
{
    floe_error_clear();
    if (s->code < 0)
        floe__error_as(s->code, s->kind, s->sub ? s->sub : "catalog", "%s", s->msg ? s->msg : "");
    floe__free(s->msg);
    floe__free(s->sub);
}

/* Delete a file the failed commit wrote, keeping the commit's error. */
static void remove_quietly(floe_fileio *io, const char *path)
{
    saved_error e;
    error_save(&e);
    floe_fileio *owned;
    if (open_io(&io, &owned, path) == 0)
        (void)floe_fileio_remove(io, &path, 1);
    floe_fileio_free(owned);
    error_restore(&e);
}

int floe__catalog_view_commit(floe_catalog *c, const char *ident, floe_fileio *io,
                              const char *body, size_t len, bool create, const char *location,
                              char **new_location)
{
    VIEW_OPS(c);
    if (!c->views->register_view || !c->views->commit_view)
        return floe__error(FLOE_EUNSUPPORTED, "catalog",
                           "Catalog %s commits view changes itself", c->name);
    *new_location = NULL;
    char *ns, *name, *base = NULL, *where = NULL, *path = NULL;
    TRY(floe__catalog_split_ident(ident, &ns, &name));
    floe_json *j = NULL;
    floe_view_metadata *m = NULL;
    int rc = floe__json_parse(&j, body, len, "view commit");
    if (rc == 0 && create) {
        rc = location ? 0 : floe_catalog_default_location(&where, c, ident);
        if (rc == 0)
            rc = floe__view_metadata_new(&m, NULL, location ? location : where);
    } else if (rc == 0) {
        rc = c->views->load_view(c, ns, name, &base);
        if (rc == 0)
            rc = floe__catalog_view_read(&m, io, base);
    }
    if (rc == 0)
        rc = floe__view_commit_apply(m, j);
    if (rc == 0)
        rc = floe__catalog_view_write(io, m, floe__catalog_view_file_version(base) + 1, &path);
    if (rc == 0)
        rc = create ? c->views->register_view(c, ns, name, path)
                    : c->views->commit_view(c, ns, name, base, path);
    if (rc < 0 && rc != FLOE_ECOMMITUNKNOWN && path)
        remove_quietly(io, path);
    if (rc == 0) {
        *new_location = path;
        path = NULL;
    }
    floe__view_metadata_free(m);
    floe__json_free(j);
    floe__free(path);
    floe__free(base);
    floe__free(where);
    floe__free(ns);
    floe__free(name);
    return rc;
}

static int check_options(const floe_view_options *o)
{
    if (!o || o->version != FLOE_VIEW_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "catalog", "floe_view_create: bad options version");
    if (!o->sql || !*o->sql)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid view: the SQL text is empty");
    if (!o->schema_json)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid view: no schema");
    floe_json *j = NULL;
    int rc = floe__json_parse(&j, o->schema_json, strlen(o->schema_json), "view schema");
    if (rc == 0 && !floe__json_is_object(j))
        rc = floe__error(FLOE_EINVALID, "catalog", "Invalid view schema: not a JSON object");
    floe__json_free(j);
    if (rc == 0 && o->default_namespace && *o->default_namespace)
        rc = floe_catalog_check_namespace(o->default_namespace);
    return rc;
}

static int create_locked(floe_catalog *c, const char *ident, const char *ns, const char *name,
                         const floe_view_options *o, bool replace)
{
    floe_buf body = FLOE_BUF_INIT;
    char *loc = NULL, *nl = NULL;
    int rc = c->views->load_view(c, ns, name, &loc);
    bool exists = rc == 0;
    if (rc == FLOE_ENOTFOUND) {
        floe_error_clear();
        rc = 0;
    }
    if (rc == 0 && exists && !replace)
        rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                            "View already exists: %s", ident);
    if (rc == 0 && exists && c->views->replace_view) {
        /* a change catalog is told which view the change is for */
        floe_view_metadata *base = NULL;
        rc = floe__catalog_view_read(&base, o->io, loc);
        if (rc == 0)
            rc = commit_body(&body, o, ns, base->view_uuid);
        floe__view_metadata_free(base);
        if (rc == 0)
            rc = c->views->replace_view(c, ns, name, (const char *)body.ptr, body.len, &nl);
    } else if (rc == 0 && c->views->create_view) {
        rc = create_body(&body, o, ns, name);
        if (rc == 0)
            rc = c->views->create_view(c, ns, name, (const char *)body.ptr, body.len, &nl);
    } else if (rc == 0) {
        rc = commit_body(&body, o, ns, NULL);
        if (rc == 0)
            rc = floe__catalog_view_commit(c, ident, o->io, (const char *)body.ptr, body.len,
                                           !exists, o->location, &nl);
    }
    floe__free(nl);
    floe__buf_free(&body);
    floe__free(loc);
    return rc;
}

int floe_view_create(floe_catalog *c, const char *ident, const floe_view_options *o, bool replace)
{
    VIEW_OPS(c);
    TRY(check_options(o));
    char *ns, *name;
    TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = create_locked(c, ident, ns, name, o, replace);
    /* a concurrent create of the same name: a replace goes on top of it */
    if (rc == FLOE_EEXISTS && replace) {
        saved_error e;
        error_save(&e);
        if (floe_catalog_view_exists(c, ident) == 1) {
            e.code = 0;
            error_restore(&e);
            rc = create_locked(c, ident, ns, name, o, true);
        } else {
            error_restore(&e);
        }
    }
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe__catalog_register_view(floe_catalog *c, const char *ident, const char *location)
{
    VIEW_OPS(c);
    if (!c->views->register_view)
        return floe__error(FLOE_EUNSUPPORTED, "catalog", "Catalog %s cannot register views",
                           c->name);
    char *ns, *name;
    TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->views->register_view(c, ns, name, location);
    floe__free(ns);
    floe__free(name);
    return rc;
}
