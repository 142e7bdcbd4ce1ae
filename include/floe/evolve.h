/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table evolution: change a table's schema, partition spec and sort order
 * without rewriting data (spec "Schema Evolution", "Partition Evolution",
 * "Sorting"), as Java's UpdateSchema, UpdatePartitionSpec and
 * ReplaceSortOrder do, with their rules and messages.
 *
 * An update collects requests against the table's current state; each
 * request is checked when it is made (FLOE_EINVALID with Java's message,
 * e.g. "Cannot delete missing column: x", "Cannot change column type: a:
 * int -> string") and the update is unchanged by a refused request.
 * `_commit` applies them in one commit: a new schema (fresh field ids after
 * last-column-id) or spec (field ids after last-partition-id) becomes
 * current; old data files keep the schema and spec they were written with.
 * A lost compare-and-set replays the requests on the new state.
 *
 * Column names are dotted paths: "point.x", a list's element "tags.element",
 * a map's key and value "attrs.key" / "attrs.value". Types are Iceberg type
 * strings ("long", "decimal(12, 2)", "timestamptz") or, for nested types,
 * the spec's JSON type ({"type":"struct","fields":[...]}; the field ids in
 * it are replaced by fresh ones).
 *
 * Ownership: an update is the caller's (`_free`, NULL ok) and borrows the
 * table, which must outlive it; strings are copied.
 */
#ifndef FLOE_EVOLVE_H
#define FLOE_EVOLVE_H

#include "floe/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- schema */

typedef struct floe_schema_update floe_schema_update;

/* Start a schema update of `table`'s current schema. Errors: FLOE_ENOMEM. */
FLOE_EXTERN int floe_schema_update_new(floe_schema_update **out, floe_table *table);
FLOE_EXTERN void floe_schema_update_free(floe_schema_update *u);

/* Add an optional column to `parent` (NULL = top level; a list or map
 * parent adds to its element / value struct), at the end. `doc` may be
 * NULL. `default_json` (v3 tables only; may be NULL) is the column's
 * initial-default and write-default in the spec's JSON single-value form
 * ("0", "\"x\"", "12.50"); `required` needs one ("Incompatible change:
 * cannot add required column without a default value: x"). Errors
 * (FLOE_EINVALID): "Cannot find parent struct: p", "Cannot add to
 * non-struct column: p: int", "Cannot add column, name already exists: x",
 * a bad type or default. */
FLOE_EXTERN int floe_schema_update_add_column(floe_schema_update *u, const char *parent,
                                              const char *name, const char *type, bool required,
                                              const char *doc, const char *default_json);
/* Drop a column: "Cannot delete missing column: x"; on commit, a column
 * the default partition spec or sort order uses, or an identifier field,
 * is refused ("Cannot find source column for partition field: 1000: x:
 * identity(2)", "Cannot delete identifier field ..."). */
FLOE_EXTERN int floe_schema_update_delete_column(floe_schema_update *u, const char *name);
/* Rename: "Cannot rename missing column: x". */
FLOE_EXTERN int floe_schema_update_rename_column(floe_schema_update *u, const char *name,
                                                 const char *new_name);
/* Widen a primitive type: int -> long, float -> double, decimal(P, S) ->
 * decimal(P', S) with P' >= P; anything else "Cannot change column type:
 * x: int -> string". */
FLOE_EXTERN int floe_schema_update_update_column(floe_schema_update *u, const char *name,
                                                 const char *type);
/* Set (NULL: remove) the column's doc. */
FLOE_EXTERN int floe_schema_update_update_column_doc(floe_schema_update *u, const char *name,
                                                     const char *doc);
/* required -> optional always works; optional -> required only for a
 * column added in this update with a default ("Cannot change column
 * nullability: x: optional -> required"). */
FLOE_EXTERN int floe_schema_update_make_column_optional(floe_schema_update *u, const char *name);
FLOE_EXTERN int floe_schema_update_require_column(floe_schema_update *u, const char *name);
/* Reorder within the column's struct: "Cannot move missing column: x",
 * "Cannot move x after itself", "Cannot move field x to a different struct". */
FLOE_EXTERN int floe_schema_update_move_first(floe_schema_update *u, const char *name);
FLOE_EXTERN int floe_schema_update_move_before(floe_schema_update *u, const char *name,
                                               const char *before);
FLOE_EXTERN int floe_schema_update_move_after(floe_schema_update *u, const char *name,
                                              const char *after);
/* Replace the identifier fields (n = 0: none). Checked on commit: each must
 * exist, be a required primitive, not float or double, not inside a list,
 * map or optional struct (Java's messages). */
FLOE_EXTERN int floe_schema_update_set_identifier_fields(floe_schema_update *u,
                                                         const char *const *names, size_t n);
/* Commit. Nothing changes when the result equals the current schema; an
 * equal older schema becomes current again without a new schema id.
 * Errors: FLOE_EINVALID (as above), FLOE_ECONFLICT (retries exhausted),
 * FLOE_ECOMMITUNKNOWN, FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_schema_update_commit(floe_schema_update *u);

/* ---------------------------------------------------------------- partition spec */

typedef struct floe_spec_update floe_spec_update;

FLOE_EXTERN int floe_spec_update_new(floe_spec_update **out, floe_table *table);
FLOE_EXTERN void floe_spec_update_free(floe_spec_update *u);
/* Add a field partitioning by `transform` ("identity", "bucket[16]",
 * "truncate[4]", "year", "month", "day", "hour", "void") of `source`;
 * `name` NULL = Java's generated name (id_bucket_16, ts_day, ...). Errors:
 * "Cannot add duplicate partition field ...", "Cannot add redundant
 * partition field: ...", "Invalid source type string for transform: day",
 * "Cannot find field 'x' in struct: ...". */
FLOE_EXTERN int floe_spec_update_add_field(floe_spec_update *u, const char *name,
                                           const char *source, const char *transform);
/* Remove a field by name, or by its source and transform (name NULL).
 * In v1 tables the field stays with the void transform. Errors: "Cannot
 * find partition field to remove: x". */
FLOE_EXTERN int floe_spec_update_remove_field(floe_spec_update *u, const char *name,
                                              const char *source, const char *transform);
FLOE_EXTERN int floe_spec_update_rename_field(floe_spec_update *u, const char *name,
                                              const char *new_name);
/* Commit: the new spec becomes the default (an equal existing spec is
 * reused). Errors as floe_schema_update_commit. */
FLOE_EXTERN int floe_spec_update_commit(floe_spec_update *u);

/* ---------------------------------------------------------------- sort order */

typedef struct floe_sort_term {
    const char *column;
    const char *transform; /* NULL = identity */
    bool descending;
    bool nulls_first;
} floe_sort_term;

/* Replace the table's write sort order (n = 0: unsorted) and, unless
 * `distribution_mode` is NULL, set write.distribution-mode ("none",
 * "hash", "range") in the same commit, as Spark's ALTER TABLE ... WRITE
 * does. An equal existing order is reused. Errors: FLOE_EINVALID "Cannot
 * find field 'x' in struct: ...", "Invalid source type ... for transform";
 * commit errors as above. */
FLOE_EXTERN int floe_table_replace_sort_order(floe_table *table, const floe_sort_term *terms,
                                              size_t n, const char *distribution_mode);

#ifdef __cplusplus
}
#endif

#endif
