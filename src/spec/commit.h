/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/commit: the commit model of the REST catalog (OpenAPI
 * `CommitTableRequest`: `TableRequirement` and `TableUpdate`; Java's
 * UpdateRequirement and MetadataUpdate) as typed values, with the one
 * parser (from floe's JSON tree), the one serializer (util/json_writer),
 * the one requirement checker (Java's messages) and the one applier onto
 * the metadata builder. The table layer emits these, the catalogs commit
 * them, the REST server parses a commit body into them and the REST client
 * serializes them.
 */
#ifndef FLOE_SPEC_COMMIT_H
#define FLOE_SPEC_COMMIT_H

#include "spec/metadata.h"
#include "spec/spec.h"

/* REST `TableRequirement` kinds. */
typedef enum floe_requirement_type {
    FLOE_REQ_ASSERT_CREATE = 0,
    FLOE_REQ_ASSERT_TABLE_UUID,
    FLOE_REQ_ASSERT_REF_SNAPSHOT_ID,
    FLOE_REQ_ASSERT_LAST_ASSIGNED_FIELD_ID,
    FLOE_REQ_ASSERT_CURRENT_SCHEMA_ID,
    FLOE_REQ_ASSERT_LAST_ASSIGNED_PARTITION_ID,
    FLOE_REQ_ASSERT_DEFAULT_SPEC_ID,
    FLOE_REQ_ASSERT_DEFAULT_SORT_ORDER_ID,
} floe_requirement_type;

typedef struct floe_requirement {
    floe_requirement_type type;
    const char *ref;        /* assert-ref-snapshot-id */
    bool has_snapshot_id;   /* assert-ref-snapshot-id: false = the ref must not exist */
    int64_t snapshot_id;
    const char *uuid;       /* assert-table-uuid */
    int32_t id;             /* the other asserts */
} floe_requirement;

/* REST `TableUpdate` kinds (every action of the OpenAPI document). */
typedef enum floe_update_type {
    FLOE_UPD_ADD_SNAPSHOT = 0,
    FLOE_UPD_SET_SNAPSHOT_REF,
    FLOE_UPD_REMOVE_SNAPSHOTS,
    FLOE_UPD_REMOVE_SNAPSHOT_REF,
    FLOE_UPD_SET_PROPERTIES,
    FLOE_UPD_REMOVE_PROPERTIES,
    FLOE_UPD_SET_LOCATION,
    FLOE_UPD_ASSIGN_UUID,
    FLOE_UPD_UPGRADE_FORMAT_VERSION,
    FLOE_UPD_ADD_SCHEMA,
    FLOE_UPD_SET_CURRENT_SCHEMA,
    FLOE_UPD_ADD_SPEC,
    FLOE_UPD_SET_DEFAULT_SPEC,
    FLOE_UPD_ADD_SORT_ORDER,
    FLOE_UPD_SET_DEFAULT_SORT_ORDER,
    FLOE_UPD_SET_STATISTICS,
    FLOE_UPD_REMOVE_STATISTICS,
    FLOE_UPD_SET_PARTITION_STATISTICS,
    FLOE_UPD_REMOVE_PARTITION_STATISTICS,
    FLOE_UPD_REMOVE_PARTITION_SPECS,
    FLOE_UPD_REMOVE_SCHEMAS,
    FLOE_UPD_ADD_ENCRYPTION_KEY,
    FLOE_UPD_REMOVE_ENCRYPTION_KEY,
} floe_update_type;

/* OpenAPI `EncryptionKey`. */
typedef struct floe_encryption_key {
    const char *key_id;
    const char *encrypted_key_metadata; /* base64 text */
    const char *encrypted_by_id;        /* NULL if absent */
    const floe_kv *properties;
    size_t nproperties;
} floe_encryption_key;

typedef struct floe_table_update {
    floe_update_type type;
    floe_snapshot snapshot;  /* add-snapshot */
    floe_snapshot_ref ref;   /* set-snapshot-ref */
    /* remove-snapshot-ref (ref-name), set-location (location), assign-uuid
     * (uuid), remove-encryption-key (key-id) */
    const char *name;
    const int64_t *ids;      /* remove-snapshots, remove-schemas, remove-partition-specs */
    size_t nids;
    const floe_kv *kv;       /* set-properties */
    size_t nkv;
    const char *const *keys; /* remove-properties */
    size_t nkeys;
    /* set-current-schema, set-default-spec, set-default-sort-order (-1: the
     * one added last in this commit), upgrade-format-version, and the
     * snapshot of remove-statistics / remove-partition-statistics */
    int64_t id;
    floe_schema *schema;     /* add-schema (lookup maps released by floe__commit_release) */
    bool has_last_column_id; /* add-schema's deprecated last-column-id */
    int32_t last_column_id;
    floe_partition_spec *spec;           /* add-spec */
    floe_sort_order *order;              /* add-sort-order */
    floe_statistics_file stats;          /* set-statistics */
    floe_partition_statistics_file pstats; /* set-partition-statistics */
    floe_encryption_key key;             /* add-encryption-key */
} floe_table_update;

/* The action / type names of the REST model ("add-snapshot", ...). */
const char *floe__update_action(floe_update_type t);
const char *floe__requirement_name(floe_requirement_type t);

/* Parse one TableRequirement / TableUpdate object; strings and nested
 * objects go into `a`. `*format_version` is the table's format version at
 * this point of the commit (snapshots are read with its rules; 0 when
 * unknown: the v2 rules); an upgrade-format-version update raises it for
 * the updates after it. Errors: FLOE_EINVALID naming the field
 * ("missing required field 'snapshot-ids' in update 'remove-snapshots'"),
 * FLOE_EUNSUPPORTED for an unknown type/action, FLOE_ENOMEM. */
int floe__requirement_parse(const floe_json *j, floe_arena *a, floe_requirement *out);
int floe__update_parse(const floe_json *j, int *format_version, floe_arena *a,
                       floe_table_update *out);
/* A CommitTableRequest body ({"identifier"?, "requirements"?, "updates"})
 * appended to `reqs` (floe_requirement) and `updates` (floe_table_update).
 * On failure the vectors may hold a prefix: floe__commit_release them. */
int floe__commit_parse(const floe_json *body, int format_version, floe_arena *a, floe_vec *reqs,
                       floe_vec *updates);
/* Free what updates hold outside their arena (schema lookup maps). */
void floe__commit_release(floe_table_update *u, size_t n);

/* Serialize: one requirement / update object, and the
 * {"requirements":[...],"updates":[...]} pair into the open object of `w`
 * (the caller adds "identifier" for a transaction). `format_version` as in
 * floe__snapshot_write. */
int floe__requirement_write(floe_jw *w, const floe_requirement *r);
int floe__update_write(floe_jw *w, const floe_table_update *u, int format_version);
int floe__commit_write(floe_jw *w, const floe_requirement *r, size_t nr,
                       const floe_table_update *u, size_t nu, int format_version);

/* Check requirements against `base` (NULL: the table does not exist) with
 * Java's UpdateRequirement messages: FLOE_ECONFLICT "Requirement failed:
 * branch main has changed: expected id 1 != 2", "Requirement failed: table
 * already exists", ... */
int floe__commit_check(const floe_table_metadata *base, const floe_requirement *r, size_t n);
/* Apply updates in order to a builder. FLOE_EUNSUPPORTED for the kinds the
 * builder does not carry (encryption keys, remove-schemas,
 * remove-partition-specs); the builder's errors otherwise. */
int floe__commit_apply(floe_metadata_builder *b, const floe_table_update *u, size_t n);

/* Parse one TableUpdate object with the builder's current format version
 * and apply it (tests, fuzzing and one-off callers). */
int floe__commit_apply_json(floe_metadata_builder *b, const floe_json *update);

#endif
