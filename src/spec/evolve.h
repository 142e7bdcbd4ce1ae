/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/evolve: schema, partition spec and sort order evolution as pure
 * functions over parsed metadata (spec "Schema Evolution", "Partition
 * Evolution", "Sorting"; Java's SchemaUpdate, BaseUpdatePartitionSpec and
 * Schema.validateIdentifierField, with their rules and messages).
 *
 * A change records requests against one base schema or spec, validating
 * each at once as Java does (IllegalArgumentException there, FLOE_EINVALID
 * here), and `apply` builds the result. The table layer (table/evolve.c)
 * turns results into add-schema / add-spec / add-sort-order updates.
 */
#ifndef FLOE_SPEC_EVOLVE_H
#define FLOE_SPEC_EVOLVE_H

#include "spec/metadata.h"
#include "spec/spec.h"

/* ---------------------------------------------------------------- schemas */

typedef struct floe_schema_change floe_schema_change;

typedef enum floe_move_kind {
    FLOE_MOVE_FIRST = 0,
    FLOE_MOVE_BEFORE,
    FLOE_MOVE_AFTER,
} floe_move_kind;

/* A change of `schema` (borrowed, indexed) whose new field ids start after
 * `last_column_id`; `format_version` decides what defaults may be set. */
int floe__schema_change_new(floe_schema_change **out, const floe_schema *schema,
                            int32_t last_column_id, int format_version);
void floe__schema_change_free(floe_schema_change *c);

/* Java's UpdateSchema calls. `type` is copied with fresh ids for its
 * nested fields; `parent` NULL = top level; `dflt` (may be NULL) is the
 * initial and write default (v3). */
int floe__schema_change_add(floe_schema_change *c, const char *parent, const char *name,
                            const floe_type *type, bool required, const char *doc,
                            const floe_value *dflt);
int floe__schema_change_delete(floe_schema_change *c, const char *name);
int floe__schema_change_rename(floe_schema_change *c, const char *name, const char *new_name);
int floe__schema_change_type(floe_schema_change *c, const char *name, const floe_type *type);
int floe__schema_change_optional(floe_schema_change *c, const char *name, bool optional);
int floe__schema_change_doc(floe_schema_change *c, const char *name, const char *doc);
int floe__schema_change_move(floe_schema_change *c, const char *name, floe_move_kind kind,
                             const char *ref);
int floe__schema_change_identifier_fields(floe_schema_change *c, const char *const *names,
                                          size_t n);

/* The evolved schema in `a` (schema id 0: the builder assigns it; lookup
 * index built, floe__schema_release it) and the new last-column-id. */
int floe__schema_change_apply(floe_schema_change *c, floe_arena *a, floe_schema **out,
                              int32_t *last_column_id);

/* Java's PartitionSpec / SortOrder.checkCompatibility of an evolved schema:
 * FLOE_EINVALID "Cannot find source column for partition field: 1000: x:
 * identity(2)" / "Cannot find source column for sort field: ...". */
int floe__spec_check_schema(const floe_partition_spec *spec, const floe_schema *schema);
int floe__order_check_schema(const floe_sort_order *order, const floe_schema *schema);

/* FLOE_EINVALID with a formatted message (Java's IllegalArgumentException). */
int floe__evolve_bad(const char *fmt, ...) FLOE_PRINTF(1, 2);
#ifdef __clang_analyzer__
/* For clang's static analyzer only (as util.h does for floe__error): it is
 * FLOE_EINVALID, which the analyzer cannot see through floe__verror. */
#define floe__evolve_bad(...) (floe__evolve_bad(__VA_ARGS__), FLOE_EINVALID)
#endif

/* Java's Type.toString for messages ("decimal(9, 2)", "struct<1: a: ...>"). */
int floe__type_java(const floe_type *t, floe_buf *out);

/* ---------------------------------------------------------------- partition specs */

typedef struct floe_spec_change floe_spec_change;

/* A change of `spec` (bound to `schema`) in a table whose specs are
 * `history` (recycling field ids of v2+ tables); ids after `last_partition_id`. */
int floe__spec_change_new(floe_spec_change **out, const floe_table_metadata *base);
void floe__spec_change_free(floe_spec_change *c);
/* `name` may be NULL (a generated name: x_bucket_16, x_day, ...). */
int floe__spec_change_add(floe_spec_change *c, const char *name, const char *source,
                          const floe_transform *tr);
int floe__spec_change_remove(floe_spec_change *c, const char *name);
int floe__spec_change_remove_term(floe_spec_change *c, const char *source,
                                  const floe_transform *tr);
int floe__spec_change_rename(floe_spec_change *c, const char *name, const char *new_name);
int floe__spec_change_apply(floe_spec_change *c, floe_arena *a, floe_partition_spec **out);

#endif
