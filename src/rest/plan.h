/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/plan: the server-side scan planning routes (plan.c): a store of
 * completed plans and one handler for the four routes.
 */
#ifndef FLOE_REST_PLAN_H
#define FLOE_REST_PLAN_H

#include "backend.h"

/* File scan tasks per plan task (and inline in the first answer). */
#define FLOE_REST_PLAN_TASKS_PER_CHUNK 1000

typedef struct floe_rest_plans floe_rest_plans;

/* tasks_per_chunk 0: FLOE_REST_PLAN_TASKS_PER_CHUNK; lifetime_ms <= 0: 30 min. */
int floe__rest_plans_new(floe_rest_plans **out, size_t tasks_per_chunk, int64_t lifetime_ms);
void floe__rest_plans_free(floe_rest_plans *p);
/* Answer POST .../plan with {"status":"submitted","plan-id":...} and serve
 * the completed plan from GET .../plan/{plan-id} (tests of clients' polling;
 * the plan is made before the answer either way). */
void floe__rest_plans_defer(floe_rest_plans *p, bool defer);
/* Plans currently kept (for tests). */
size_t floe__rest_plans_count(floe_rest_plans *p);

typedef enum floe_rest_plan_op {
    FLOE_REST_PLAN_SUBMIT, /* POST .../plan with a PlanTableScanRequest */
    FLOE_REST_PLAN_FETCH,  /* GET .../plan/{plan_id} */
    FLOE_REST_PLAN_CANCEL, /* DELETE .../plan/{plan_id} */
    FLOE_REST_PLAN_TASKS,  /* POST .../tasks with a FetchScanTasksRequest */
} floe_rest_plan_op;

/* One planning route for table `id` over backend `b` (which has
 * open_table). On 0, *status is 200 (JSON in `out`), 204 (nothing) or 404
 * (NoSuchPlanIdException / NoSuchPlanTaskException error JSON in `out`);
 * a negative return is an error for the server's usual mapping
 * (FLOE_ENOTFOUND: no such table; FLOE_EINVALID: a malformed request,
 * an unknown snapshot, a filter that does not bind; FLOE_EUNSUPPORTED:
 * transform terms). */
int floe__rest_plan_handle(floe_rest_plans *ps, floe_rest_backend *b, const floe_rest_ident *id,
                           floe_rest_plan_op op, const char *plan_id, const char *body,
                           size_t len, int *status, floe_buf *out);

#endif
