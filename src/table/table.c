/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/table: the table handle — load from a catalog (pointer -> FileIO ->
 * metadata.json), refresh and the freshness check, create (spec "Table
 * Metadata": a new table's first metadata file), drop with purge, and the
 * read accessors of include/floe/table.h.
 */
#include "table/table.h"

#include "catalog/catalog.h"
#include "manifest/manifest.h"
#include "spec/spec.h"

#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- state */

static void drop_caches(floe_table *t)
{
    floe__intmap_free(t->ancestors);
    t->ancestors = NULL;
    floe__intmap_free(t->ml_cache);
    t->ml_cache = NULL;
    floe__arena_free(t->ml_arena);
    t->ml_arena = NULL;
}

const char *floe__table_manifest_list(const floe_table *t, const floe_snapshot *s)
{
    floe_table *mt = (floe_table *)t; /* a cache, not observable state */
    if (!s->manifest_list_packed)
        return NULL;
    if (!mt->ml_cache) {
        mt->ml_cache = floe__intmap_new();
        mt->ml_arena = floe__arena_new(4096);
        if (!mt->ml_cache || !mt->ml_arena) {
            drop_caches(mt);
            return NULL;
        }
    }
    const char *hit = floe__intmap_get(mt->ml_cache, s->snapshot_id);
    if (hit)
        return hit;
    floe_buf b = FLOE_BUF_INIT;
    const char *path = NULL;
    char *copy = NULL;
    if (floe__snapshot_manifest_list(s, &b, &path) == 0 && path &&
        (copy = floe__arena_strdup(mt->ml_arena, path)) &&
        floe__intmap_put(mt->ml_cache, s->snapshot_id, copy) < 0)
        copy = NULL;
    floe__buf_free(&b);
    return copy;
}

void floe__table_set_state(floe_table *t, floe_table_metadata *m, char *location)
{
    drop_caches(t);
    floe__metadata_free(t->metadata);
    floe__free(t->metadata_location);
    t->metadata = m;
    t->metadata_location = location;
}

int floe__table_read_metadata(floe_fileio *io, const char *location, floe_table_metadata **out)
{
    *out = NULL;
    /* streamed: one read chunk and one snapshot in memory at a time */
    floe_input *in = NULL;
    int rc = floe_fileio_open_input(&in, io, location);
    if (rc == 0) {
        rc = floe__metadata_read_input(out, in);
        in->close(in);
    }
    return rc;
}

static int open_io(floe_table *t, const floe_table_options *o)
{
    if (o && o->io) {
        t->io = o->io;
        return 0;
    }
    const floe_props *conf = o ? o->io_conf : NULL;
    const char *map = conf ? floe__props_get(conf, "io.location-map") : NULL;
    t->own_io = true;
    if (map && *map)
        return floe_fileio_open(&t->io, "file", conf);
    return floe__fileio_router_new(&t->io, conf);
}

static int table_new(floe_table **out, floe_catalog *catalog, const char *ident,
                     const floe_table_options *opts)
{
    *out = NULL;
    if (!catalog || !ident)
        return floe__error(FLOE_EINVALID, "table", "NULL catalog or identifier");
    if (opts && opts->version != FLOE_TABLE_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "table", "unknown floe_table_options version %u",
                           opts->version);
    FLOE_TRY(floe_catalog_check_identifier(ident));
    floe_table *t = floe__calloc(1, sizeof *t);
    if (!t)
        return floe__error_nomem();
    t->catalog = catalog;
    t->freshness = opts ? opts->freshness : FLOE_FRESHNESS_CHECK;
    t->create_branch = opts && opts->create_branch;
    const char *branch = opts && opts->branch ? opts->branch : "main";
    int rc = (t->ident = floe__strdup(ident)) && (t->branch = floe__strdup(branch)) &&
                     (!opts || !opts->wap_id || (t->wap_id = floe__strdup(opts->wap_id)))
                 ? 0
                 : floe__error_nomem();
    if (rc == 0 && !*branch)
        rc = floe__error(FLOE_EINVALID, "table", "Branch name cannot be empty");
    if (rc == 0)
        rc = open_io(t, opts);
    if (rc < 0) {
        floe_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int floe_table_load(floe_table **out, floe_catalog *catalog, const char *ident,
                    const floe_table_options *opts)
{
    if (!out)
        return floe__error(FLOE_EINVALID, "table", "NULL out");
    floe_table *t;
    FLOE_TRY(table_new(&t, catalog, ident, opts));
    int rc = floe_table_refresh(t);
    if (rc == 0 && strcmp(t->branch, "main") != 0 && !t->create_branch) {
        const floe_snapshot_ref *r = floe__metadata_ref(t->metadata, t->branch);
        if (!r || r->type != FLOE_REF_BRANCH)
            rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_VALIDATION, "table",
                                "Cannot use branch (does not exist): %s", t->branch);
    }
    if (rc < 0) {
        floe_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void floe_table_free(floe_table *t)
{
    if (!t)
        return;
    drop_caches(t);
    floe__staged_free(t->staged);
    floe__metadata_free(t->metadata);
    floe__free(t->metadata_location);
    if (t->own_io)
        floe_fileio_free(t->io);
    floe__free(t->ident);
    floe__free(t->branch);
    floe__free(t->wap_id);
    floe__free(t);
}

static int reload(floe_table *t, char *location)
{
    floe_table_metadata *m = NULL;
    int rc = floe__table_read_metadata(t->io, location, &m);
    if (rc != 0) { /* 0 or negative: m is set on 0 */
        floe_string_free(location);
        return floe__error_context("loading table %s", t->ident);
    }
    char *copy = floe__strdup(location);
    floe_string_free(location);
    if (!copy) {
        floe__metadata_free(m);
        return floe__error_nomem();
    }
    floe__table_set_state(t, m, copy);
    return 0;
}

int floe__table_write_head(const floe_table_metadata *base, const char *branch, bool create,
                           const floe_snapshot_ref **out)
{
    const floe_snapshot_ref *head = floe__metadata_ref(base, branch);
    *out = head;
    if (head && head->type != FLOE_REF_BRANCH)
        return floe__error_as(FLOE_EINVALID, FLOE_KIND_ILLEGAL_ARGUMENT, "table",
                              "Ref %s is a tag not a branch", branch);
    if (head || strcmp(branch, "main") == 0)
        return 0;
    if (!create)
        return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_VALIDATION, "table",
                              "Cannot use branch (does not exist): %s", branch);
    *out = floe__metadata_ref(base, "main");
    return 0;
}

int floe__table_adopt(floe_table *t, const char *location)
{
    if (t->metadata_location && strcmp(t->metadata_location, location) == 0)
        return 0;
    floe_table_metadata *m = NULL;
    FLOE_TRY(floe__table_read_metadata(t->io, location, &m));
    char *copy = floe__strdup(location);
    if (!copy) {
        floe__metadata_free(m);
        return floe__error_nomem();
    }
    floe__table_set_state(t, m, copy);
    return 0;
}

int floe_table_refresh(floe_table *t)
{
    if (!t)
        return floe__error(FLOE_EINVALID, "table", "NULL table");
    if (t->staged) /* its state is the uncommitted replacement */
        return floe__error(FLOE_EINVALID, "table", "a staged replacement of %s cannot be refreshed",
                           t->ident);
    char *location = NULL;
    FLOE_TRY(floe_catalog_load_table(&location, NULL, t->catalog, t->ident));
    return reload(t, location);
}

int floe_table_ensure_fresh(floe_table *t)
{
    if (!t)
        return floe__error(FLOE_EINVALID, "table", "NULL table");
    if ((t->freshness == FLOE_FRESHNESS_CACHED || t->staged) && t->metadata)
        return 0;
    char *location = NULL;
    FLOE_TRY(floe_catalog_load_table(&location, NULL, t->catalog, t->ident));
    if (t->metadata_location && strcmp(location, t->metadata_location) == 0) {
        floe_string_free(location);
        return 0;
    }
    FLOE_TRY(reload(t, location));
    return 1;
}

/* ---------------------------------------------------------------- create */

static int put_kv_json(floe_buf *b, const char *k, const char *v, bool comma)
{
    if (comma)
        FLOE_TRY(floe__buf_putc(b, ','));
    FLOE_TRY(floe__json_put_str(b, k));
    FLOE_TRY(floe__buf_putc(b, ':'));
    return floe__json_put_str(b, v);
}

/* The first metadata of a table as JSON text, parsed back by the one
 * metadata reader (so a new table is validated like any other). */
int floe__table_initial_metadata(const floe_table_create_options *c, const char *location,
                                 floe_table_metadata **out)
{
    floe_arena *a = floe__arena_new(4096);
    if (!a)
        return floe__error_nomem();
    floe_buf b = FLOE_BUF_INIT;
    floe_json *js = NULL, *jp = NULL, *jo = NULL;
    floe_schema *schema = NULL;
    floe_partition_spec *spec = NULL;
    floe_sort_order *order = NULL;
    int format = 2;
    int rc = 0;
    const char *fv = c->properties ? floe__props_get(c->properties, "format-version") : NULL;
    if (fv) {
        if (strcmp(fv, "1") == 0)
            format = 1;
        else if (strcmp(fv, "2") == 0)
            format = 2;
        else if (strcmp(fv, "3") == 0)
            format = 3;
        else
            rc = floe__error(FLOE_EINVALID, "table",
                             "Unsupported format version: %s (floe creates v1, v2 and v3 tables)",
                             fv);
    }
    if (rc == 0 && !c->schema_json)
        rc = floe__error(FLOE_EINVALID, "table", "a new table needs a schema");
    if (rc == 0)
        rc = floe__json_parse(&js, c->schema_json, strlen(c->schema_json), "schema");
    if (rc == 0)
        rc = floe__schema_from_json(&schema, js, 0, a);
    if (rc == 0 && c->partition_spec_json) {
        rc = floe__json_parse(&jp, c->partition_spec_json, strlen(c->partition_spec_json),
                              "partition spec");
        if (rc == 0) {
            floe_json *fields = floe__json_get(jp, "fields");
            rc = floe__partition_spec_from_json(&spec, fields ? fields : jp, 0, false, a);
        }
    }
    if (rc == 0 && c->sort_order_json) {
        rc = floe__json_parse(&jo, c->sort_order_json, strlen(c->sort_order_json), "sort order");
        /* the reader wants an "order-id"; ours is assigned below */
        floe_json items[2];
        const char *keys[2] = {"order-id", "fields"};
        floe_json wrapped;
        const floe_json *src = jo;
        if (rc == 0) {
            floe_json *fields = floe__json_is_array(jo) ? jo : floe__json_get(jo, "fields");
            if (!floe__json_is_array(fields))
                rc = floe__error(FLOE_EINVALID, "table", "sort order JSON needs \"fields\"");
            else {
                memset(items, 0, sizeof items);
                items[0].type = FLOE_JSON_INTEGER;
                items[0].u.i = 1;
                items[1] = *fields;
                memset(&wrapped, 0, sizeof wrapped);
                wrapped.type = FLOE_JSON_OBJECT;
                wrapped.n = 2;
                wrapped.keys = keys;
                wrapped.u.items = items;
                src = &wrapped;
            }
        }
        if (rc == 0)
            rc = floe__sort_order_from_json(&order, src, a);
        if (rc == 0)
            order->order_id = order->nfields ? 1 : 0;
    }
    if (rc == 0) /* Java's Schema.checkCompatibility */
        rc = floe__schema_check_format(schema, format);
    char uuid[37];
    if (rc == 0)
        rc = floe__uuid4(uuid);
    if (rc == 0) {
        int32_t last_pid = format == 1 ? 999 : 999;
        if (spec)
            for (size_t i = 0; i < spec->nfields; i++)
                if (spec->fields[i].field_id > last_pid)
                    last_pid = spec->fields[i].field_id;
        rc = floe__buf_printf(
            &b, "{\"format-version\":%d,\"table-uuid\":\"%s\",\"location\":", format, uuid);
        if (rc == 0)
            rc = floe__json_put_str(&b, location);
        if (rc == 0 && format >= 3)
            rc = floe__buf_puts(&b, ",\"next-row-id\":0"); /* spec "Row Lineage" */
        if (rc == 0)
            rc = floe__buf_printf(&b,
                                  ",\"last-sequence-number\":0,\"last-updated-ms\":%lld,"
                                  "\"last-column-id\":%d,\"current-schema-id\":0,\"schemas\":[",
                                  (long long)floe__now_ms(), (int)schema->highest_field_id);
        if (rc == 0)
            rc = floe__schema_to_json(schema, &b);
        if (rc == 0)
            rc = floe__buf_puts(&b, "],\"default-spec-id\":0,\"partition-specs\":[");
        if (rc == 0) {
            floe_partition_spec empty = {0, 0, NULL};
            rc = floe__partition_spec_to_json(spec ? spec : &empty, &b);
        }
        if (rc == 0)
            rc = floe__buf_printf(&b,
                                  "],\"last-partition-id\":%d,\"default-sort-order-id\":%d,"
                                  "\"sort-orders\":[",
                                  (int)last_pid, order ? (int)order->order_id : 0);
        if (rc == 0) {
            floe_sort_order unsorted = {0, 0, NULL};
            rc = floe__sort_order_to_json(order ? order : &unsorted, &b);
        }
        if (rc == 0)
            rc = floe__buf_puts(&b, "],\"properties\":{");
        bool comma = false;
        for (size_t i = 0; rc == 0 && c->properties && i < c->properties->n; i++) {
            const floe_kv *kv = &c->properties->items[i];
            if (strcmp(kv->key, "format-version") == 0 || strcmp(kv->key, "location") == 0 ||
                strcmp(kv->key, FLOE_ALLOW_EXISTING_LOCATION) == 0)
                continue;
            rc = put_kv_json(&b, kv->key, kv->value, comma);
            comma = true;
        }
        if (rc == 0)
            rc = floe__buf_puts(&b, "},\"current-snapshot-id\":-1,\"refs\":{},\"snapshots\":[],"
                                    "\"statistics\":[],\"snapshot-log\":[],\"metadata-log\":[]}");
    }
    if (rc == 0)
        rc = floe__metadata_parse(out, b.ptr, b.len, "new table metadata");
    if (schema)
        floe__schema_release(schema);
    floe__json_free(js);
    floe__json_free(jp);
    floe__json_free(jo);
    floe__buf_free(&b);
    floe__arena_free(a);
    return rc;
}

/* A location that already holds table metadata is taken, as in Java's
 * HadoopTables ("Table already exists at location: ..."): two tables in one
 * directory would each see the other's files as orphans. The reserved
 * create property floe.create.allow-existing-location=true skips the check
 * (and is not stored). */
static int on_listed_metadata(const floe_file_info *info, void *payload)
{
    bool *found = payload;
    if (floe__metadata_file_location(info->uri))
        *found = true;
    return 0;
}

static int check_location_free(floe_fileio *io, const char *location, const floe_props *props)
{
    const char *allow = props ? floe__props_get(props, FLOE_ALLOW_EXISTING_LOCATION) : NULL;
    if (allow && strcasecmp(allow, "true") == 0)
        return 0;
    char *prefix = floe__sprintf("%s/metadata/", location);
    if (!prefix)
        return floe__error_nomem();
    bool found = false;
    int rc = floe_fileio_list(io, prefix, on_listed_metadata, &found);
    floe__free(prefix);
    if (rc == FLOE_ENOTFOUND) {
        floe_error_clear();
        rc = 0;
    }
    if (rc == 0 && found)
        rc = floe__error(FLOE_EEXISTS, "table", "Table already exists at location: %s", location);
    return rc;
}

int floe_table_create(floe_table **out, floe_catalog *catalog, const char *ident,
                      const floe_table_create_options *create, const floe_table_options *opts)
{
    if (out)
        *out = NULL;
    if (!create || create->version != FLOE_TABLE_CREATE_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "table", "missing or unknown create options");
    floe_table *t;
    FLOE_TRY(table_new(&t, catalog, ident, opts));
    char *existing = NULL;
    int rc = floe_catalog_load_table(&existing, NULL, catalog, ident);
    if (rc == 0) {
        floe_string_free(existing);
        rc = floe__error(FLOE_EEXISTS, "table", "Table already exists: %s", ident);
    } else if (rc == FLOE_ENOTFOUND) {
        rc = 0;
        floe_error_clear();
    }
    char *location = NULL;
    const char *prop_loc =
        create->properties ? floe__props_get(create->properties, "location") : NULL;
    if (rc == 0) {
        if (create->location || prop_loc) {
            const char *l = create->location ? create->location : prop_loc;
            size_t n = strlen(l);
            while (n > 1 && l[n - 1] == '/')
                n--;
            location = floe__strndup(l, n);
            if (!location)
                rc = floe__error_nomem();
        } else if (!floe__catalog_creates_tables(catalog)) {
            char *def = NULL;
            rc = floe_catalog_default_location(&def, catalog, ident);
            if (rc == 0 && !(location = floe__strdup(def)))
                rc = floe__error_nomem();
            floe_string_free(def);
        }
    }
    floe_table_metadata *m = NULL;
    char *file = NULL;
    floe_buf text = FLOE_BUF_INIT;
    if (rc == 0 && floe__catalog_creates_tables(catalog)) {
        /* REST: the catalog creates the table and writes its metadata */
        char *loc = NULL;
        rc = floe__catalog_create_table(catalog, ident, create->schema_json,
                                        create->partition_spec_json, create->sort_order_json,
                                        create->location ? create->location : prop_loc,
                                        create->properties, &loc);
        if (rc == 0)
            rc = floe__table_read_metadata(t->io, loc, &m);
        floe__free(location);
        if (rc < 0) {
            floe__free(loc);
            floe_table_free(t);
            return rc;
        }
        floe__table_set_state(t, m, loc);
        if (out)
            *out = t;
        else
            floe_table_free(t);
        return 0;
    }
    if (rc == 0)
        rc = check_location_free(t->io, location, create->properties);
    if (rc == 0)
        rc = floe__table_initial_metadata(create, location, &m);
    if (rc == 0)
        rc = floe__metadata_file_name(m, 0, &file);
    if (rc == 0)
        rc = floe__metadata_serialize(m, &text);
    if (rc == 0)
        rc = floe__io_write_new(t->io, file, text.ptr, text.len);
    floe__buf_free(&text);
    if (rc == 0) {
        rc = floe__catalog_register_table_md(catalog, ident, file, m);
        if (rc < 0) {
            const char *one[] = {file};
            int code = rc;
            floe_fileio_remove(t->io, one, 1);
            rc = code;
        }
    }
    floe__free(location);
    if (rc < 0) {
        floe__metadata_free(m);
        floe__free(file);
        floe_table_free(t);
        return rc;
    }
    floe__table_set_state(t, m, file);
    if (out)
        *out = t;
    else
        floe_table_free(t);
    return 0;
}

/* ---------------------------------------------------------------- drop */

/* Add an owned copy of `s` unless already there (`seen` keys are the copies). */
static int push_unique(floe_vec *v, floe_strmap *seen, const char *s)
{
    if (!s || floe__strmap_has(seen, s))
        return 0;
    char **slot = floe__vec_push(v);
    if (!slot)
        return floe__error_nomem();
    if (!(*slot = floe__strdup(s))) {
        v->len--;
        return floe__error_nomem();
    }
    return floe__strmap_put(seen, *slot, NULL);
}

static int purge_list(floe_fileio *io, const char *list_path, floe_vec *files, floe_strmap *seen)
{
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    int rc = floe__io_read_all(io, list_path, (size_t)1 << 31, &lb);
    if (rc == 0)
        rc = floe_manifest_list_read(&l, (const uint8_t *)lb.ptr, lb.len, list_path);
    if (rc < 0) {
        floe__buf_free(&lb);
        return rc == FLOE_ENOMEM ? rc : (floe_error_clear(), 0);
    }
    for (size_t i = 0; rc == 0 && i < l->nentries; i++) {
        const char *mp = l->entries[i].manifest_path;
        if (floe__strmap_has(seen, mp))
            continue;
        rc = push_unique(files, seen, mp);
        floe_buf mb = FLOE_BUF_INIT;
        floe_manifest_reader *r = NULL;
        int rr = rc == 0 ? floe__io_read_all(io, mp, (size_t)1 << 31, &mb) : rc;
        if (rr == 0)
            rr = floe_manifest_reader_open(&r, (const uint8_t *)mb.ptr, mb.len, mp, NULL);
        const floe_manifest_entry *e;
        while (rr == 0 && (rr = floe_manifest_reader_next(r, &e)) == 0)
            rr = push_unique(files, seen, e->data_file.file_path);
        floe_manifest_reader_free(r);
        floe__buf_free(&mb);
        if (rr == FLOE_ENOMEM)
            rc = rr;
        else
            floe_error_clear();
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    return rc;
}

int floe_table_drop(floe_catalog *catalog, const char *ident, bool purge,
                    const floe_table_options *opts)
{
    if (!purge) {
        if (!catalog || !ident)
            return floe__error(FLOE_EINVALID, "table", "NULL catalog or identifier");
        return floe_catalog_drop_table(catalog, ident);
    }
    if (floe__catalog_purges_tables(catalog)) /* REST: purgeRequested=true */
        return floe__catalog_purge_table(catalog, ident);
    floe_table *t;
    FLOE_TRY(floe_table_load(&t, catalog, ident, opts));
    int rc = floe_catalog_drop_table(catalog, ident);
    if (rc < 0) {
        floe_table_free(t);
        return rc;
    }
    /* Purge every file the metadata reaches (Java's
     * CatalogUtil.dropTableData): manifest lists, manifests, data and
     * delete files, statistics, metadata files. A file that cannot be read
     * is skipped (its children stay as orphans). */
    const floe_table_metadata *m = t->metadata;
    floe_vec files = FLOE_VEC_INIT(char *);
    floe_strmap *seen = floe__strmap_new();
    if (!seen)
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < m->nsnapshots; i++) {
        const floe_snapshot *s = &m->snapshots[i];
        const char *ml = floe__table_manifest_list(t, s);
        if (s->manifest_list_packed && !ml)
            rc = floe__error_nomem();
        if (rc == 0)
            rc = push_unique(&files, seen, ml);
        for (size_t k = 0; rc == 0 && k < s->n_manifests; k++)
            rc = push_unique(&files, seen, s->manifests[k]);
        if (rc == 0 && ml)
            rc = purge_list(t->io, ml, &files, seen);
    }
    for (size_t i = 0; rc == 0 && i < m->nstatistics; i++)
        rc = push_unique(&files, seen, m->statistics[i].statistics_path);
    for (size_t i = 0; rc == 0 && i < m->npartition_statistics; i++)
        rc = push_unique(&files, seen, m->partition_statistics[i].statistics_path);
    for (size_t i = 0; rc == 0 && i < m->n_metadata_log; i++)
        rc = push_unique(&files, seen, m->metadata_log[i].metadata_file);
    if (rc == 0)
        rc = push_unique(&files, seen, t->metadata_location);
    if (rc == 0)
        rc = floe_fileio_remove(t->io, (const char *const *)files.items, files.len);
    for (size_t i = 0; i < files.len; i++)
        floe__free(((char **)files.items)[i]);
    floe__strmap_free(seen);
    floe__vec_free(&files);
    floe_table_free(t);
    return rc;
}

/* ---------------------------------------------------------------- accessors */

const char *floe_table_ident(const floe_table *t)
{
    return t->ident;
}

const char *floe_table_metadata_location(const floe_table *t)
{
    return t->metadata_location;
}

const char *floe_table_location(const floe_table *t)
{
    return t->metadata->location;
}

const char *floe_table_uuid(const floe_table *t)
{
    return t->metadata->table_uuid;
}

int floe_table_format_version(const floe_table *t)
{
    return t->metadata->format_version;
}

const char *floe_table_property(const floe_table *t, const char *key)
{
    return floe__props_get(&t->metadata->properties, key);
}

floe_fileio *floe_table_io(const floe_table *t)
{
    return t->io;
}
