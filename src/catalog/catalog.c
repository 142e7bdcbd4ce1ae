/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public catalog API: argument and identifier checks, then dispatch to
 * the backend vtable (catalog.h). Identifiers are checked here once, so no
 * backend ever sees an empty level, a path separator, "..", or a control
 * character — names end up in storage paths (<warehouse>/<ns>.db/<table>)
 * and must not be able to climb out of the warehouse.
 */
#include "catalog.h"

#include <string.h>

void floe_catalog_free(floe_catalog *c)
{
    if (c)
        c->ops->free(c);
}

const char *floe_catalog_name(const floe_catalog *c)
{
    return c ? c->name : NULL;
}

const char *floe_catalog_warehouse(const floe_catalog *c)
{
    return c ? c->warehouse : NULL;
}

void floe__catalog_strvec_free(floe_vec *v)
{
    for (size_t i = 0; i < v->len; i++)
        floe__free(*(char **)floe__vec_at(v, i));
    floe__vec_free(v);
}

/* ---------------------------------------------------------------- identifiers */

int floe__catalog_check_part(const char *part, size_t len, const char *what, const char *whole)
{
    if (len == 0)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid %s '%s': empty part", what, whole);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)part[i];
        if (ch == 0)
            return floe__error(FLOE_EINVALID, "catalog", "Invalid %s '%s': contains NUL", what,
                               whole);
        if (ch < 0x20 || ch == 0x7f)
            return floe__error(FLOE_EINVALID, "catalog",
                               "Invalid %s '%s': contains control character 0x%02x", what, whole,
                               ch);
        if (ch == '/' || ch == '\\')
            return floe__error(FLOE_EINVALID, "catalog", "Invalid %s '%s': contains '%c'", what,
                               whole, ch);
        if (ch == '.' && i + 1 < len && part[i + 1] == '.')
            return floe__error(FLOE_EINVALID, "catalog", "Invalid %s '%s': contains '..'", what,
                               whole);
    }
    return 0;
}

/* Messages quote the name; keep hostile names printable and short. */
static int check_dotted(const char *s, const char *what)
{
    if (!s)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid %s: NULL", what);
    size_t len = strlen(s);
    if (len > FLOE_CATALOG_NAME_MAX)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid %s '%.40s...': longer than %d bytes",
                           what, s, FLOE_CATALOG_NAME_MAX);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f)
            return floe__error(FLOE_EINVALID, "catalog",
                               "Invalid %s: contains control character 0x%02x at byte %zu", what,
                               ch, i);
    }
    if (strstr(s, ".."))
        return floe__error(FLOE_EINVALID, "catalog", "Invalid %s '%s': contains '..'", what, s);
    const char *p = s;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        FLOE_TRY(floe__catalog_check_part(p, n, what, s));
        if (!dot)
            break;
        p = dot + 1;
    }
    return 0;
}

int floe_catalog_check_namespace(const char *ns)
{
    return check_dotted(ns, "namespace");
}

int floe_catalog_check_identifier(const char *ident)
{
    FLOE_TRY(check_dotted(ident, "table identifier"));
    if (!strchr(ident, '.'))
        return floe__error(FLOE_EINVALID, "catalog",
                           "Invalid table identifier '%s': missing namespace (expected ns.table)",
                           ident);
    return 0;
}

int floe__catalog_split_ident(const char *ident, char **ns, char **name)
{
    *ns = *name = NULL;
    FLOE_TRY(floe_catalog_check_identifier(ident));
    const char *dot = strrchr(ident, '.');
    *ns = floe__strndup(ident, (size_t)(dot - ident));
    *name = floe__strdup(dot + 1);
    if (!*ns || !*name) {
        floe__free(*ns);
        floe__free(*name);
        *ns = *name = NULL;
        return FLOE_ENOMEM;
    }
    return 0;
}

static int check_location(const char *loc, const char *what)
{
    if (!loc || !*loc)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid %s: empty", what);
    size_t len = strlen(loc);
    if (len > FLOE_CATALOG_LOCATION_MAX)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid %s: longer than %d bytes", what,
                           FLOE_CATALOG_LOCATION_MAX);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)loc[i] < 0x20)
            return floe__error(FLOE_EINVALID, "catalog",
                               "Invalid %s: contains control character at byte %zu", what, i);
    return 0;
}

static int check_props(const floe_props *p)
{
    for (size_t i = 0; p && i < p->n; i++) {
        if (strcmp(p->items[i].key, "exists") == 0)
            return floe__error(FLOE_EINVALID, "catalog", "Cannot set reserved property: exists");
        if (!*p->items[i].key)
            return floe__error(FLOE_EINVALID, "catalog", "Invalid property: empty key");
    }
    return 0;
}

#define CHECK_CAT(c)                                                                               \
    do {                                                                                           \
        if (!(c))                                                                                  \
            return floe__error(FLOE_EINVALID, "catalog", "%s: NULL catalog", __func__);            \
    } while (0)

/* ---------------------------------------------------------------- namespaces */

int floe_catalog_create_namespace(floe_catalog *c, const char *ns, const floe_props *props)
{
    CHECK_CAT(c);
    FLOE_TRY(floe_catalog_check_namespace(ns));
    FLOE_TRY(check_props(props));
    return c->ops->create_namespace(c, ns, props);
}

int floe_catalog_namespace_exists(floe_catalog *c, const char *ns)
{
    CHECK_CAT(c);
    FLOE_TRY(floe_catalog_check_namespace(ns));
    return c->ops->namespace_exists(c, ns);
}

int floe_catalog_load_namespace(floe_props *out, floe_catalog *c, const char *ns)
{
    CHECK_CAT(c);
    if (!out)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_load_namespace: NULL out");
    FLOE_TRY(floe_catalog_check_namespace(ns));
    floe_props tmp = FLOE_PROPS_INIT;
    int rc = c->ops->load_namespace(c, ns, &tmp);
    if (rc < 0) {
        floe__props_free(&tmp);
        return rc;
    }
    for (size_t i = 0; rc == 0 && i < tmp.n; i++)
        rc = floe__props_set(out, tmp.items[i].key, tmp.items[i].value);
    floe__props_free(&tmp);
    return rc;
}

int floe_catalog_list_namespaces(floe_catalog *c, const char *parent,
                                 int (*cb)(const char *ns, void *payload), void *payload)
{
    CHECK_CAT(c);
    if (!cb)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_list_namespaces: NULL cb");
    if (!parent)
        parent = "";
    if (*parent)
        FLOE_TRY(floe_catalog_check_namespace(parent));
    floe_vec v = FLOE_VEC_INIT(char *);
    int rc = c->ops->list_namespaces(c, parent, &v);
    for (size_t i = 0; rc == 0 && i < v.len; i++)
        rc = cb(*(char **)floe__vec_at(&v, i), payload);
    floe__catalog_strvec_free(&v);
    return rc;
}

int floe_catalog_update_namespace(floe_catalog *c, const char *ns, const floe_props *updates,
                                  const char *const *removals, size_t nremovals)
{
    CHECK_CAT(c);
    FLOE_TRY(floe_catalog_check_namespace(ns));
    FLOE_TRY(check_props(updates));
    if (nremovals && !removals)
        return floe__error(FLOE_EINVALID, "catalog",
                           "floe_catalog_update_namespace: NULL removals");
    for (size_t i = 0; i < nremovals; i++) {
        if (!removals[i])
            return floe__error(FLOE_EINVALID, "catalog", "Invalid property to remove: NULL");
        if (strcmp(removals[i], "exists") == 0)
            return floe__error(FLOE_EINVALID, "catalog", "Cannot remove reserved property: exists");
    }
    return c->ops->update_namespace(c, ns, updates, removals, nremovals);
}

int floe_catalog_drop_namespace(floe_catalog *c, const char *ns)
{
    CHECK_CAT(c);
    FLOE_TRY(floe_catalog_check_namespace(ns));
    return c->ops->drop_namespace(c, ns);
}

/* ---------------------------------------------------------------- tables */

int floe_catalog_register_table(floe_catalog *c, const char *ident, const char *metadata_location)
{
    return floe__catalog_register_table_md(c, ident, metadata_location, NULL);
}

int floe__catalog_register_table_md(floe_catalog *c, const char *ident,
                                    const char *metadata_location, const floe_table_metadata *m)
{
    CHECK_CAT(c);
    FLOE_TRY(check_location(metadata_location, "metadata location"));
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->md ? c->md->register_table_md(c, ns, name, metadata_location, m)
                   : c->ops->register_table(c, ns, name, metadata_location);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe_catalog_load_table(char **location, char **previous, floe_catalog *c, const char *ident)
{
    CHECK_CAT(c);
    if (!location)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_load_table: NULL out");
    *location = NULL;
    if (previous)
        *previous = NULL;
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->ops->load_table(c, ns, name, location, previous);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe_catalog_list_tables(floe_catalog *c, const char *ns,
                             int (*cb)(const char *ns, const char *name, void *payload),
                             void *payload)
{
    CHECK_CAT(c);
    if (!cb)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_list_tables: NULL cb");
    FLOE_TRY(floe_catalog_check_namespace(ns));
    floe_vec v = FLOE_VEC_INIT(char *);
    int rc = c->ops->list_tables(c, ns, &v);
    for (size_t i = 0; rc == 0 && i < v.len; i++)
        rc = cb(ns, *(char **)floe__vec_at(&v, i), payload);
    floe__catalog_strvec_free(&v);
    return rc;
}

int floe_catalog_rename_table(floe_catalog *c, const char *from, const char *to)
{
    CHECK_CAT(c);
    char *fns, *fname, *tns = NULL, *tname = NULL;
    FLOE_TRY(floe__catalog_split_ident(from, &fns, &fname));
    int rc = floe__catalog_split_ident(to, &tns, &tname);
    if (rc == 0 && strcmp(from, to) != 0)
        rc = c->ops->rename_table(c, fns, fname, tns, tname);
    floe__free(fns);
    floe__free(fname);
    floe__free(tns);
    floe__free(tname);
    return rc;
}

int floe_catalog_drop_table(floe_catalog *c, const char *ident)
{
    CHECK_CAT(c);
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->ops->drop_table(c, ns, name);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe_catalog_commit_table(floe_catalog *c, const char *ident, const char *expected,
                              const char *new_location)
{
    return floe__catalog_commit_table_md(c, ident, expected, new_location, NULL, NULL);
}

int floe__catalog_commit_table_md(floe_catalog *c, const char *ident, const char *expected,
                                  const char *new_location, const floe_table_metadata *base,
                                  const floe_table_metadata *m)
{
    CHECK_CAT(c);
    FLOE_TRY(check_location(expected, "expected metadata location"));
    FLOE_TRY(check_location(new_location, "new metadata location"));
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->md ? c->md->commit_table_md(c, ns, name, expected, new_location, base, m)
                   : c->ops->commit_table(c, ns, name, expected, new_location);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe_catalog_default_location(char **out, floe_catalog *c, const char *ident)
{
    CHECK_CAT(c);
    if (!out)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_default_location: NULL out");
    *out = NULL;
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    floe_props props = FLOE_PROPS_INIT;
    int rc = c->ops->load_namespace(c, ns, &props);
    if (rc == FLOE_ENOTFOUND) {
        /* Checked again when the table is registered; the default needs none. */
        floe_error_clear();
        rc = 0;
    }
    if (rc == 0) {
        const char *loc = floe__props_get(&props, "location");
        if (loc && *loc) {
            size_t n = strlen(loc);
            while (n > 1 && loc[n - 1] == '/')
                n--;
            *out = floe__sprintf("%.*s/%s", (int)n, loc, name);
        } else if (c->warehouse) {
            *out = floe__sprintf("%s/%s.db/%s", c->warehouse, ns, name);
        } else {
            rc = floe__error(FLOE_EINVALID, "catalog",
                             "Cannot derive a location for %s: the catalog has no warehouse and "
                             "the namespace no location",
                             ident);
        }
        if (rc == 0 && !*out)
            rc = FLOE_ENOMEM;
    }
    floe__props_free(&props);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe_catalog_open_sql(floe_catalog **out, const char *path, const floe_catalog_options *o)
{
    if (!out || !path)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_open_sql: NULL argument");
    *out = NULL;
    if (o && o->version != FLOE_CATALOG_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "catalog", "unknown catalog options version %u",
                           o->version);
    if (o && o->name)
        FLOE_TRY(floe__catalog_check_part(o->name, strlen(o->name), "catalog name", o->name));
    return floe__catalog_sql_open(out, path, o);
}

/* ---------------------------------------------------------------- optional ops */

bool floe__catalog_commits_changes(const floe_catalog *c)
{
    return c && c->ops->commit;
}

bool floe__catalog_creates_tables(const floe_catalog *c)
{
    return c && c->ops->create_table;
}

bool floe__catalog_purges_tables(const floe_catalog *c)
{
    return c && c->ops->purge_table;
}

bool floe__catalog_commits_tables(const floe_catalog *c)
{
    return c && c->ops->commit_tables;
}

/* Split n identifiers into namespaces and names (free_split frees both,
 * also after a failure). */
static int split_all(size_t n, const char *const *idents, char ***ns, char ***names)
{
    *ns = floe__calloc(n ? n : 1, sizeof **ns);
    *names = floe__calloc(n ? n : 1, sizeof **names);
    int rc = *ns && *names ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = floe__catalog_split_ident(idents[i], &(*ns)[i], &(*names)[i]);
    return rc;
}

static void free_split(size_t n, char **ns, char **names)
{
    for (size_t i = 0; i < n && ns && names; i++) {
        floe__free(ns[i]);
        floe__free(names[i]);
    }
    floe__free(ns);
    floe__free(names);
}

int floe__catalog_commit_tables(floe_catalog *c, size_t n, const char *const *idents,
                                const char *const *expected, const char *const *locations)
{
    CHECK_CAT(c);
    if (!c->ops->commit_tables)
        return floe__error(FLOE_EUNSUPPORTED, "catalog",
                           "this catalog cannot commit several tables atomically");
    char **ns, **names;
    int rc = split_all(n, idents, &ns, &names);
    if (rc == 0)
        rc = c->ops->commit_tables(c, n, (const char *const *)ns, (const char *const *)names,
                                   expected, locations);
    free_split(n, ns, names);
    return rc;
}

int floe__catalog_commit_transaction(floe_catalog *c, size_t n, const char *const *idents,
                                     const char *const *changes)
{
    CHECK_CAT(c);
    if (!c->ops->commit_transaction)
        return floe__error(FLOE_EUNSUPPORTED, "catalog",
                           "this catalog cannot commit several tables atomically");
    char **ns, **names;
    int rc = split_all(n, idents, &ns, &names);
    if (rc == 0)
        rc = c->ops->commit_transaction(c, n, (const char *const *)ns, (const char *const *)names,
                                        changes);
    free_split(n, ns, names);
    return rc;
}

int floe__catalog_plan_scan(floe_catalog *c, const char *ident, const char *request, size_t len,
                            floe_vec *bodies)
{
    CHECK_CAT(c);
    if (!c->ops->plan_scan)
        return 1;
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->ops->plan_scan(c, ns, name, request, len, bodies);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe__catalog_commit(floe_catalog *c, const char *ident, const char *body, size_t len,
                         char **new_location)
{
    CHECK_CAT(c);
    *new_location = NULL;
    if (!c->ops->commit)
        return floe__error(FLOE_EUNSUPPORTED, "catalog", "this catalog swaps pointers only");
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->ops->commit(c, ns, name, body, len, new_location);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe__catalog_create_table(floe_catalog *c, const char *ident, const char *schema_json,
                               const char *spec_json, const char *order_json, const char *location,
                               const floe_props *props, char **new_location)
{
    CHECK_CAT(c);
    *new_location = NULL;
    if (!c->ops->create_table)
        return floe__error(FLOE_EUNSUPPORTED, "catalog", "this catalog cannot create tables");
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->ops->create_table(c, ns, name, schema_json, spec_json, order_json, location, props,
                                  new_location);
    floe__free(ns);
    floe__free(name);
    return rc;
}

int floe__catalog_purge_table(floe_catalog *c, const char *ident)
{
    CHECK_CAT(c);
    if (!c->ops->purge_table)
        return floe__error(FLOE_EUNSUPPORTED, "catalog", "this catalog cannot purge tables");
    char *ns, *name;
    FLOE_TRY(floe__catalog_split_ident(ident, &ns, &name));
    int rc = c->ops->purge_table(c, ns, name);
    floe__free(ns);
    floe__free(name);
    return rc;
}
