/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/server: the Iceberg REST catalog HTTP server behind `floe serve`
 * (open-api/rest-catalog-open-api.yaml), on libmicrohttpd with a thread pool.
 * It authenticates (bearer token), bounds and validates every request, routes
 * it to a floe_rest_backend (rest/backend.h), and writes the spec's JSON
 * responses and IcebergErrorResponse errors. Mutations carrying an
 * Idempotency-Key are run once: the final outcome (2xx and 4xx, never 5xx)
 * is kept for the advertised lifetime and replayed to a retry.
 */
#ifndef FLOE_REST_SERVER_H
#define FLOE_REST_SERVER_H

#include "backend.h"

typedef struct floe_rest_server floe_rest_server;

typedef struct floe_rest_server_options {
    int version;                  /* 1 */
    const char *host;             /* address to bind; NULL = "127.0.0.1" */
    int port;                     /* 0 = any free port (see floe__rest_server_port) */
    unsigned threads;             /* worker threads; 0 = 4 */
    const char *token;            /* required bearer token; NULL = no authentication */
    size_t max_body;              /* request body limit in bytes; 0 = 16 MiB (413 above) */
    const char *prefix;           /* path prefix advertised in /v1/config; NULL = none */
    bool access_log;              /* one line per request on stderr (never any secret) */
    unsigned shutdown_timeout_ms; /* wait for in-flight requests on stop; 0 = 10 s */
    /* How long an Idempotency-Key's outcome is kept and replayed
     * (advertised as /v1/config idempotency-key-lifetime); 0 = 1800 s. */
    unsigned idempotency_lifetime_s;
    /* Server-side scan planning: file scan tasks per plan task (and inline
     * in the first answer); 0 = 1000. */
    size_t plan_tasks_per_chunk;
    /* Answer POST .../plan with "submitted" and the result from GET
     * .../plan/{plan-id} (tests clients' polling). */
    bool plan_defer;
} floe_rest_server_options;

#define FLOE_REST_SERVER_OPTIONS_INIT {1, NULL, 0, 0, NULL, 0, NULL, false, 0, 0, 0, false}

/* Start serving. The backend is borrowed and must outlive the server.
 * FLOE_EINVALID for bad options (unparsable host, reserved prefix),
 * FLOE_EIO when the socket cannot be bound. */
int floe__rest_server_start(floe_rest_server **out, floe_rest_backend *backend,
                            const floe_rest_server_options *opts);
/* The bound TCP port (the real one when opts.port was 0). */
int floe__rest_server_port(const floe_rest_server *s);
/* Graceful stop: stop accepting, let in-flight requests finish (up to the
 * shutdown timeout), close, free. Accepts NULL. */
void floe__rest_server_stop(floe_rest_server *s);

#endif
