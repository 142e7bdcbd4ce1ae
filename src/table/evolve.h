/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/evolve: the private side of include/floe/evolve.h for the SQL
 * front end, which has its column types as parsed type trees already.
 */
#ifndef FLOE_TABLE_EVOLVE_H
#define FLOE_TABLE_EVOLVE_H

#include "floe/evolve.h"
#include "spec/types.h"

/* floe_schema_update_add_column with a type tree (copied with fresh ids;
 * it must outlive the update). */
int floe__schema_update_add_type(floe_schema_update *u, const char *parent, const char *name,
                                 const floe_type *type, bool required, const char *doc,
                                 const char *default_json);

/* Sort terms bound to the current schema of `base` as a sort order in `a`
 * (order id 0), with the messages of floe_table_replace_sort_order
 * ("Cannot find field 'x' in struct: ..."). */
int floe__sort_order_bind(const floe_table_metadata *base, const floe_sort_term *terms, size_t n,
                          floe_arena *a, floe_sort_order **out);

/* The id of the table's sort order with the same fields as `o` (source,
 * transform, direction, null order; Java's SortOrderUtil.findTableSortOrder),
 * or -1. */
int32_t floe__sort_order_find(const floe_table_metadata *m, const floe_sort_order *o);

#endif
