/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/view: Iceberg view metadata (format/view-spec.md, "View Metadata"):
 * the parser and serializer of view metadata files (field order as Java's
 * ViewMetadataParser / ViewVersionParser write them), the REST view commit
 * model (requirement assert-view-uuid; updates assign-uuid,
 * upgrade-format-version, add-schema, set-location, set-properties,
 * remove-properties, add-view-version, set-current-view-version) and its
 * applier with the rules of Java's ViewMetadata.Builder (schema and version
 * ids reused for equal content, -1 = the one added last, version history
 * trimmed to version.history.num-entries).
 *
 * One floe_view_metadata owns one arena; every string, schema and array
 * lives there. Updates allocate into the same arena.
 */
#ifndef FLOE_SPEC_VIEW_H
#define FLOE_SPEC_VIEW_H

#include "spec/commit.h"
#include "spec/spec.h"

/* Newest view format version (view-spec: "must be 1"). */
#define FLOE_VIEW_FORMAT_VERSION 1

/* One representation of a version. Only type "sql" carries sql/dialect;
 * of other types only the type is kept (Java's UnknownViewRepresentation). */
typedef struct floe_view_repr {
    const char *type; /* lower case */
    const char *sql;
    const char *dialect;
} floe_view_repr;

typedef struct floe_view_version {
    int32_t version_id;
    int32_t schema_id;
    int64_t timestamp_ms;
    const floe_kv *summary;
    size_t nsummary;
    const char *default_catalog; /* NULL when absent */
    const char *const *default_namespace;
    size_t ndefault_namespace;
    const floe_view_repr *reprs;
    size_t nreprs;
} floe_view_version;

typedef struct floe_view_log_entry {
    int64_t timestamp_ms;
    int32_t version_id;
} floe_view_log_entry;

typedef struct floe_view_metadata {
    floe_arena *arena;
    const char *view_uuid;
    int format_version;
    const char *location;
    floe_schema **schemas;
    size_t nschemas;
    int32_t current_version_id;
    floe_view_version *versions;
    size_t nversions;
    floe_view_log_entry *version_log;
    size_t nlog;
    floe_props properties;
} floe_view_metadata;

/* Parse a view metadata file. `what` names the input in messages (a file
 * path). Errors: FLOE_ECORRUPT (not JSON), FLOE_EINVALID naming the field
 * ("missing required field 'view-uuid' in view metadata", "Unsupported
 * format version: 2", "Cannot find current version 3 in view versions"),
 * FLOE_ENOMEM. */
int floe__view_metadata_parse(floe_view_metadata **out, const void *data, size_t len,
                              const char *what);
/* Same from a parsed tree (REST responses carry metadata inline). */
int floe__view_metadata_from_json(floe_view_metadata **out, const floe_json *root,
                                  const char *what);
void floe__view_metadata_free(floe_view_metadata *m);

/* Serialize as a metadata file (compact JSON) / as one value of `w`. */
int floe__view_metadata_to_json(const floe_view_metadata *m, floe_buf *out);
int floe__view_metadata_write(floe_jw *w, const floe_view_metadata *m);
int floe__view_version_write(floe_jw *w, const floe_view_version *v);

/* Parse one ViewVersion object into `a` (REST create-view and
 * add-view-version). */
int floe__view_version_from_json(floe_view_version *out, const floe_json *j, floe_arena *a);

/* Borrowed lookups (NULL when absent). */
const floe_view_version *floe__view_current_version(const floe_view_metadata *m);
const floe_schema *floe__view_schema(const floe_view_metadata *m, int32_t schema_id);
/* The SQL of the current version for `dialect` (case-insensitive; NULL =
 * the first sql representation). */
const char *floe__view_sql(const floe_view_metadata *m, const char *dialect);

/* ---------------------------------------------------------------- building and updates */

/* A new, empty view metadata (format-version 1, no versions) to apply
 * updates on; `uuid` NULL = a fresh random one. */
int floe__view_metadata_new(floe_view_metadata **out, const char *uuid, const char *location);

/* Add a schema (a copy; reusing the id of an equal schema, else highest +
 * 1) and report its id. */
int floe__view_add_schema(floe_view_metadata *m, const floe_schema *s, int32_t *id);
/* Add a version (schema_id -1 = the schema added last), reusing the id of
 * an equal version (ignoring id and timestamp), else highest + 1; reports
 * the id. FLOE_EINVALID "Cannot add version with unknown schema: 3",
 * "Invalid view version: Cannot add multiple queries for dialect spark". */
int floe__view_add_version(floe_view_metadata *m, const floe_view_version *v, int32_t *id);
/* Make a version current (-1 = the one added last) and log it.
 * FLOE_EINVALID "Cannot set current version to unknown version: 4". */
int floe__view_set_current(floe_view_metadata *m, int32_t version_id);
/* Trim versions past version.history.num-entries (keeping the current one
 * and the versions added since `base_nversions`), as Java's build(). */
int floe__view_finish(floe_view_metadata *m, size_t nadded);

/* A view commit ({"requirements":[...],"updates":[...]}, the REST
 * CommitViewRequest) applied to `m` (NULL requirements/updates members are
 * fine). Errors: FLOE_ECONFLICT "Requirement failed: view UUID does not
 * match: expected a != b", FLOE_EINVALID for bad or inapplicable updates,
 * FLOE_EUNSUPPORTED for an unknown action or requirement. */
int floe__view_commit_apply(floe_view_metadata *m, const floe_json *body);

#endif
