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

#endif
