/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/views: the view routes of `floe serve` (open-api
 * rest-catalog-open-api.yaml of Iceberg 1.11: createView, loadView,
 * viewExists, replaceView, dropView, renameView, registerView; listViews
 * is the server's paged identifier listing over backend->list_views). They
 * run on the backend's catalog through catalog/view.c, so a view created
 * here is the same iceberg_tables row (iceberg_type = 'VIEW') and the same
 * metadata file that Java's JdbcCatalog and floe write. Requests are
 * CreateViewRequest / CommitViewRequest / RenameTableRequest /
 * RegisterViewRequest; answers a LoadViewResult (metadata-location,
 * metadata, config) or nothing (204). Errors are raised with the subsystem
 * the server maps: "namespace" -> NoSuchNamespaceException, otherwise a
 * missing object is NoSuchViewException.
 */
#include "views.h"
#include "backend.h"
#include "model_internal.h"

#include "catalog/catalog.h"
#include "spec/view.h"

#include <string.h>

#define TRY FLOE_TRY

/* The model's getters answer 1 for a present field. */
static int got(int rc)
{
    return rc < 0 ? rc : 0;
}

static char *dotted(const floe_rest_namespace *ns, const char *name)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__rest_namespace_join(&b, ns, '.');
    if (rc == 0 && name)
        rc = floe__buf_printf(&b, ".%s", name);
    if (rc == 0)
        rc = floe__buf_putc(&b, '\0');
    if (rc < 0) {
        floe__buf_free(&b);
        floe__error_nomem();
        return NULL;
    }
    return (char *)b.ptr;
}

/* The catalog keeps dotted names: a level holding '.' cannot exist. */
static bool storable(const floe_rest_namespace *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strchr(ns->parts[i], '.'))
            return false;
    return true;
}

static int need_namespace(floe_catalog *cat, const floe_rest_namespace *ns)
{
    char *s = storable(ns) ? dotted(ns, NULL) : NULL;
    int rc = s ? floe_catalog_namespace_exists(cat, s) : storable(ns) ? FLOE_ENOMEM : 0;
    floe__free(s);
    if (rc == 0)
        return floe__rest_no_such_namespace(ns);
    return rc < 0 ? rc : 0;
}

static int no_view(const floe_rest_namespace *ns, const char *name)
{
    char *s = dotted(ns, name);
    int rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_VIEW, "view",
                            "View does not exist: %s", s ? s : name);
    floe__free(s);
    return rc;
}

/* LoadViewResult of the view at `ident`. */
static int load_result(floe_rest_backend *b, floe_catalog *cat, floe_fileio *io, const char *ident,
                       floe_buf *out)
{
    floe_view *v = NULL;
    TRY(floe_view_load(&v, cat, ident, io));
    char *meta = NULL;
    int rc = b->view_location_ok(b, floe_view_metadata_location(v), true);
    if (rc == 0)
        rc = floe_view_metadata_json(&meta, v);
    floe_jw w;
    floe__jw_init(&w, out);
    if (rc == 0) {
        floe__jw_obj(&w);
        floe__jw_kstr(&w, "metadata-location", floe_view_metadata_location(v));
        floe__jw_key(&w, "metadata");
        floe__jw_raw(&w, meta, strlen(meta));
        floe__jw_key(&w, "config");
        floe__jw_obj(&w);
        floe__jw_obj_end(&w);
        floe__jw_obj_end(&w);
        rc = floe__jw_finish(&w);
    }
    floe_string_free(meta);
    floe_view_free(v);
    return rc;
}

/* CreateViewRequest -> the commit of a fresh view: Java's CatalogHandlers
 * createView (assign uuid, location, properties, setCurrentVersion(version,
 * schema): the version takes the id of the schema it comes with). */
static int create_commit(json_t *req, const char **location, char **body, size_t *len)
{
    json_t *schema, *version, *props = json_object_get(req, "properties");
    const char *name;
    TRY(floe__rest_get_str(req, "", "name", true, &name));
    TRY(floe__rest_get_str(req, "", "location", false, location));
    TRY(floe__rest_get_obj(req, "", "schema", true, &schema));
    TRY(floe__rest_get_obj(req, "", "view-version", true, &version));
    TRY(floe__rest_check_schema(schema, "schema"));
    if (props && !json_is_object(props) && !json_is_null(props))
        return floe__rest_bad("", "properties must be an object");
    json_t *v = json_deep_copy(version);
    json_t *c =
        json_pack("{s:[],s:[{s:s,s:O},{s:s,s:o},{s:s,s:i}]}", "requirements", "updates", "action",
                  "add-schema", "schema", schema, "action", "add-view-version", "view-version", v,
                  "action", "set-current-view-version", "view-version-id", -1);
    if (!c)
        return floe__error_nomem();
    json_object_set_new(v, "schema-id", json_integer(-1));
    if (json_object_size(props))
        json_array_append_new(json_object_get(c, "updates"),
                              json_pack("{s:s,s:O}", "action", "set-properties", "updates", props));
    *body = floe__rest_dump(c, len);
    return *body ? 0 : floe__error_nomem();
}

/* A location the server is asked to write below must be in the warehouse. */
static int check_commit_locations(floe_rest_backend *b, json_t *commit)
{
    size_t i;
    json_t *u;
    json_array_foreach(json_object_get(commit, "updates"), i, u)
    {
        const char *a = json_string_value(json_object_get(u, "action"));
        const char *l = json_string_value(json_object_get(u, "location"));
        if (a && l && strcmp(a, "set-location") == 0)
            TRY(b->view_location_ok(b, l, false));
        json_t *p = json_object_get(u, "updates");
        if (a && strcmp(a, "set-properties") == 0 && json_object_get(p, "write.metadata.path"))
            return floe__error(FLOE_EINVALID, "rest",
                               "write.metadata.path cannot be set through this server");
    }
    return 0;
}

static int op_create(floe_rest_backend *b, floe_catalog *cat, floe_fileio *io,
                     const floe_rest_namespace *ns, const char *text, size_t len, floe_buf *out)
{
    json_t *req = NULL;
    TRY(floe__rest_load(&req, text, len, "CreateViewRequest"));
    const char *location = NULL, *name = NULL;
    char *body = NULL, *ident = NULL, *nl = NULL;
    size_t blen = 0;
    int rc = create_commit(req, &location, &body, &blen);
    if (rc == 0)
        rc = got(floe__rest_get_str(req, "", "name", true, &name));
    if (rc == 0)
        rc = floe__rest_check_name(name, strlen(name), "view name");
    if (rc == 0 && location)
        rc = b->view_location_ok(b, location, false);
    if (rc == 0)
        rc = need_namespace(cat, ns);
    if (rc == 0 && !(ident = dotted(ns, name)))
        rc = FLOE_ENOMEM;
    if (rc == 0) {
        json_t *c = json_loadb(body, blen, 0, NULL);
        rc = c ? check_commit_locations(b, c) : floe__error_nomem();
        json_decref(c);
    }
    if (rc == 0 && floe_catalog_view_exists(cat, ident) == 1)
        rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "view",
                            "View already exists: %s", ident);
    if (rc == 0)
        rc = floe__catalog_view_commit(cat, ident, io, body, blen, true, location, &nl);
    if (rc == 0)
        rc = load_result(b, cat, io, ident, out);
    floe__free(nl);
    floe__free(ident);
    floe__free(body);
    json_decref(req);
    return rc;
}

static int op_replace(floe_rest_backend *b, floe_catalog *cat, floe_fileio *io,
                      const floe_rest_ident *id, const char *ident, const char *text, size_t len,
                      floe_buf *out)
{
    json_t *req = NULL;
    TRY(floe__rest_load(&req, text, len, "CommitViewRequest"));
    json_t *ids = json_object_get(req, "identifier");
    int rc = json_is_array(json_object_get(req, "updates"))
                 ? 0
                 : floe__rest_bad("", "missing required field updates");
    if (rc == 0 && ids && !json_is_null(ids)) {
        floe_arena *a = floe__arena_new(512);
        floe_rest_ident given;
        rc = a ? floe__rest_parse_ident(a, ids, "identifier", &given) : floe__error_nomem();
        if (rc == 0 &&
            (strcmp(given.name, id->name) != 0 || !floe__rest_namespace_eq(&given.ns, &id->ns)))
            rc = floe__rest_bad("", "identifier in the request body does not match the path");
        floe__arena_free(a);
    }
    if (rc == 0)
        rc = check_commit_locations(b, req);
    char *nl = NULL;
    if (rc == 0)
        rc = floe__catalog_view_commit(cat, ident, io, text, len, false, NULL, &nl);
    if (rc == FLOE_ENOTFOUND)
        rc = no_view(&id->ns, id->name);
    if (rc == 0)
        rc = load_result(b, cat, io, ident, out);
    floe__free(nl);
    json_decref(req);
    return rc;
}

static int op_rename(floe_catalog *cat, const char *text, size_t len)
{
    floe_rest_rename_table_req *req = NULL;
    TRY(floe__rest_parse_rename_table(&req, text, len));
    char *from = NULL, *to = NULL;
    int rc = storable(&req->source.ns) ? 0 : no_view(&req->source.ns, req->source.name);
    if (rc == 0)
        rc = need_namespace(cat, &req->destination.ns);
    if (rc == 0 && (!(from = dotted(&req->source.ns, req->source.name)) ||
                    !(to = dotted(&req->destination.ns, req->destination.name))))
        rc = FLOE_ENOMEM;
    if (rc == 0)
        rc = floe_catalog_rename_view(cat, from, to);
    if (rc == FLOE_ENOTFOUND)
        rc = no_view(&req->source.ns, req->source.name);
    floe__free(from);
    floe__free(to);
    floe__rest_rename_table_free(req);
    return rc;
}

static int op_register(floe_rest_backend *b, floe_catalog *cat, floe_fileio *io,
                       const floe_rest_namespace *ns, const char *text, size_t len, floe_buf *out)
{
    json_t *req = NULL;
    TRY(floe__rest_load(&req, text, len, "RegisterViewRequest"));
    const char *name = NULL, *loc = NULL;
    char *ident = NULL;
    int rc = got(floe__rest_get_str(req, "", "name", true, &name));
    if (rc == 0)
        rc = got(floe__rest_get_str(req, "", "metadata-location", true, &loc));
    if (rc == 0)
        rc = floe__rest_check_name(name, strlen(name), "view name");
    if (rc == 0)
        rc = b->view_location_ok(b, loc, true);
    /* it must be view metadata; errors name the file, never its content */
    floe_view_metadata *m = NULL;
    if (rc == 0 && floe__catalog_view_read(&m, io, loc) < 0)
        rc = floe__error(FLOE_EINVALID, "rest", "%s is not a valid view metadata file", loc);
    floe__view_metadata_free(m);
    if (rc == 0)
        rc = need_namespace(cat, ns);
    if (rc == 0 && !(ident = dotted(ns, name)))
        rc = FLOE_ENOMEM;
    if (rc == 0)
        rc = floe__catalog_register_view(cat, ident, loc);
    if (rc == 0)
        rc = load_result(b, cat, io, ident, out);
    floe__free(ident);
    json_decref(req);
    return rc;
}

int floe__rest_view_call(floe_rest_backend *b, floe_rest_view_op op, const floe_rest_ident *id,
                         const char *body, size_t len, floe_buf *out)
{
    if (!b->views_begin)
        return floe__error(FLOE_EUNSUPPORTED, "rest", "views are not supported by this catalog");
    floe_catalog *cat;
    floe_fileio *io;
    TRY(b->views_begin(b, &cat, &io));
    char *ident = NULL;
    int rc = 0;
    bool named = op == FLOE_REST_VIEW_LOAD || op == FLOE_REST_VIEW_EXISTS ||
                 op == FLOE_REST_VIEW_REPLACE || op == FLOE_REST_VIEW_DROP;
    if (named && !storable(&id->ns))
        rc = no_view(&id->ns, id->name);
    else if (named && !(ident = dotted(&id->ns, id->name)))
        rc = FLOE_ENOMEM;
    switch (rc < 0 ? -1 : (int)op) {
    case FLOE_REST_VIEW_CREATE: rc = op_create(b, cat, io, &id->ns, body, len, out); break;
    case FLOE_REST_VIEW_LOAD: rc = load_result(b, cat, io, ident, out); break;
    case FLOE_REST_VIEW_EXISTS:
        rc = floe_catalog_view_exists(cat, ident);
        rc = rc == 0 ? no_view(&id->ns, id->name) : rc < 0 ? rc : 0;
        break;
    case FLOE_REST_VIEW_REPLACE: rc = op_replace(b, cat, io, id, ident, body, len, out); break;
    case FLOE_REST_VIEW_DROP: rc = floe_catalog_drop_view(cat, ident); break;
    case FLOE_REST_VIEW_RENAME: rc = op_rename(cat, body, len); break;
    case FLOE_REST_VIEW_REGISTER: rc = op_register(b, cat, io, &id->ns, body, len, out); break;
    default: break;
    }
    /* a named view that is not there (its namespace neither): Iceberg's
     * NoSuchViewException, in its wording */
    if (rc == FLOE_ENOTFOUND && named)
        rc = no_view(&id->ns, id->name);
    b->views_end(b);
    floe__free(ident);
    return rc;
}
