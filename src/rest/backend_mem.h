/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/backend_mem: private interface between the in-memory backend's catalog
 * half (backend_mem.c) and its commit half (backend_mem_commit.c).
 */
#ifndef FLOE_REST_BACKEND_MEM_H
#define FLOE_REST_BACKEND_MEM_H

#include "backend.h"

/* Check req->requirements against `base` (NULL = the table does not exist):
 * FLOE_ECONFLICT "Requirement failed: ..." on the first that fails. */
int floe__rest_mem_check(json_t *base, const floe_rest_commit_table_req *req);
/* Apply req->updates to *md_inout (a private copy; NULL = start from an
 * empty v2 table at default_location). FLOE_EINVALID when an update cannot
 * apply (unknown snapshot, schema, spec or sort order id; downgrade). */
int floe__rest_mem_apply(json_t **md_inout, const char *default_location,
                         const floe_rest_commit_table_req *req);

#endif
