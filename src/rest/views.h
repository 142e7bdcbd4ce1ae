/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/views: the view routes of the REST server (views.c), called by
 * server.c's router, which does HTTP, idempotency and error mapping.
 */
#ifndef FLOE_REST_VIEWS_H
#define FLOE_REST_VIEWS_H

#include "backend.h"

typedef enum floe_rest_view_op {
    FLOE_REST_VIEW_CREATE = 0, /* POST .../namespaces/{ns}/views */
    FLOE_REST_VIEW_LOAD,       /* GET .../views/{view} */
    FLOE_REST_VIEW_EXISTS,     /* HEAD .../views/{view} */
    FLOE_REST_VIEW_REPLACE,    /* POST .../views/{view} */
    FLOE_REST_VIEW_DROP,       /* DELETE .../views/{view} */
    FLOE_REST_VIEW_RENAME,     /* POST /v1/{prefix}/views/rename */
    FLOE_REST_VIEW_REGISTER,   /* POST .../namespaces/{ns}/register-view */
} floe_rest_view_op;

/* Run one view route. `id` is the path's namespace (and view name for the
 * named routes); `body` the request body. `out` receives the LoadViewResult
 * JSON, or stays empty for a 204. Errors raised for the server's mapping
 * (FLOE_ENOTFOUND: NoSuchViewException, or NoSuchNamespaceException when
 * raised with floe__rest_no_such_namespace; FLOE_EEXISTS, FLOE_ECONFLICT,
 * FLOE_EINVALID, FLOE_EUNSUPPORTED when the backend has no views). */
int floe__rest_view_call(floe_rest_backend *b, floe_rest_view_op op, const floe_rest_ident *id,
                         const char *body, size_t len, floe_buf *out);

#endif
