/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/rest_commit: a REST catalog `CommitTableRequest` (OpenAPI
 * `CommitTableRequest`, `TableRequirement`, `TableUpdate`) committed to a
 * table of a SQLite catalog through the same commit path as floe's own
 * operations (floe__table_commit_sql): the seam that lets `floe serve`
 * accept commits from Spark, Trino or PyIceberg for tables floe manages,
 * and lets a REST client send floe's requirements + updates instead of
 * writing metadata itself.
 */
#include "table/table.h"

#include "spec/spec.h"

#include <string.h>

static int bad(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__verror(FLOE_EINVALID, "table", fmt, ap);
    va_end(ap);
    return rc;
}

static int req_i32(const floe_json *r, const char *key, floe_requirement *q)
{
    const floe_json *v = floe__json_get(r, key);
    if (!floe__json_is_integer(v) || v->u.i < INT32_MIN || v->u.i > INT32_MAX)
        return bad("requirement %s needs an integer %s",
                   floe__json_sval(floe__json_get(r, "type")), key);
    q->id = (int32_t)v->u.i;
    return 0;
}

/* One TableRequirement object into `c`. */
static int parse_requirement(const floe_json *r, floe_table_change *c)
{
    const char *type = floe__json_sval(floe__json_get(r, "type"));
    if (!type)
        return bad("a requirement needs a string \"type\"");
    static const struct {
        const char *name;
        floe_requirement_type type;
        const char *key;
    } ids[] = {
        {"assert-last-assigned-field-id", FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID,
         "last-assigned-field-id"},
        {"assert-current-schema-id", FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID, "current-schema-id"},
        {"assert-last-assigned-partition-id", FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID,
         "last-assigned-partition-id"},
        {"assert-default-spec-id", FLOE_REQ_ASSERT_DEFAULT_SPEC_ID, "default-spec-id"},
        {"assert-default-sort-order-id", FLOE_REQ_ASSERT_DEFAULT_SORT_ORDER_ID,
         "default-sort-order-id"},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(ids); i++)
        if (strcmp(type, ids[i].name) == 0) {
            floe_requirement *q = floe__change_require(c, ids[i].type);
            if (!q)
                return floe__error_nomem();
            return req_i32(r, ids[i].key, q);
        }
    if (strcmp(type, "assert-table-uuid") == 0) {
        const char *uuid = floe__json_sval(floe__json_get(r, "uuid"));
        floe_requirement *q = uuid ? floe__change_require(c, FLOE_REQ_ASSERT_TABLE_UUID) : NULL;
        if (!uuid)
            return bad("requirement assert-table-uuid needs a string uuid");
        if (!q || !(q->uuid = floe__arena_strdup(c->arena, uuid)))
            return floe__error_nomem();
        return 0;
    }
    if (strcmp(type, "assert-ref-snapshot-id") == 0) {
        const char *ref = floe__json_sval(floe__json_get(r, "ref"));
        const floe_json *id = floe__json_get(r, "snapshot-id");
        if (!ref)
            return bad("requirement assert-ref-snapshot-id needs a string ref");
        if (id && !floe__json_is_null(id) && !floe__json_is_integer(id))
            return bad("requirement assert-ref-snapshot-id: snapshot-id must be a long or null");
        floe_requirement *q = floe__change_require(c, FLOE_REQ_ASSERT_REF_SNAPSHOT_ID);
        if (!q || !(q->ref = floe__arena_strdup(c->arena, ref)))
            return floe__error_nomem();
        q->has_snapshot_id = floe__json_is_integer(id);
        q->snapshot_id = q->has_snapshot_id ? id->u.i : 0;
        return 0;
    }
    if (strcmp(type, "assert-create") == 0)
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "assert-create: tables are created through the create endpoint");
    return floe__error(FLOE_EUNSUPPORTED, "table", "unknown requirement type %s", type);
}

int floe__table_commit_request(floe_catalog *cat, floe_fileio *io, const char *ident,
                               const char *body, size_t len, char **new_location)
{
    if (new_location)
        *new_location = NULL;
    floe_json *root = NULL;
    FLOE_TRY(floe__json_parse(&root, body, len, "CommitTableRequest"));
    floe_table_change change;
    int rc = floe__change_init(&change);
    if (rc < 0) {
        floe__json_free(root);
        return rc;
    }
    const floe_json *reqs = floe__json_get(root, "requirements");
    const floe_json *upds = floe__json_get(root, "updates");
    if (!floe__json_is_object(root) || (reqs && !floe__json_is_array(reqs)) ||
        !floe__json_is_array(upds))
        rc = bad("a CommitTableRequest is an object with an \"updates\" array and an optional "
                 "\"requirements\" array");
    for (size_t i = 0; rc == 0 && i < floe__json_len(reqs); i++)
        rc = parse_requirement(floe__json_at(reqs, i), &change);
    for (size_t i = 0; rc == 0 && i < floe__json_len(upds); i++) {
        floe_table_update *u = floe__change_update(&change, FLOE_UPD_JSON);
        if (!u)
            rc = floe__error_nomem();
        else
            u->json = floe__json_at(upds, i);
    }
    floe_table *t = NULL;
    if (rc == 0) {
        floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
        o.io = io;
        rc = floe_table_load(&t, cat, ident, &o);
    }
    char *loc = NULL;
    floe_table_metadata *m = NULL;
    if (rc == 0)
        rc = floe__table_commit_sql(cat, t->io, t->ident, t->metadata, t->metadata_location,
                                    &change, &loc, &m);
    floe__metadata_free(m);
    if ((rc == 0 || rc == FLOE_ECOMMITUNKNOWN) && new_location)
        *new_location = loc;
    else
        floe__free(loc);
    floe_table_free(t);
    floe__change_free(&change);
    floe__json_free(root);
    return rc;
}
