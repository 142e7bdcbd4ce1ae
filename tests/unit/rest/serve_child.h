/* SPDX-License-Identifier: Apache-2.0 */
/* Test helper: `floe serve --warehouse` (rest/backend_sql.c) in a forked
 * child on 127.0.0.1, so allocation-failure loops only hit the client, and
 * a REST catalog client for it. Included by the REST client tests. */
#ifndef FLOE_TEST_SERVE_CHILD_H
#define FLOE_TEST_SERVE_CHILD_H

#include "catalog/catalog.h"
#include "harness.h"
#include "rest/server.h"

#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOKEN "t0ken-for-tests"

typedef struct server {
    pid_t pid;
    int stop_fd;
    char uri[64];
} server;

/* Start `floe serve --warehouse wh` in a child process. */
/* File scan tasks per plan task of the next server started (0: default),
 * and whether it answers plans with "submitted" first. */
static size_t plan_chunk;
static bool plan_defer;

static inline int server_start(server *s, const char *wh, const char *prefix)
{
    int port_pipe[2], stop_pipe[2];
    if (pipe(port_pipe) < 0 || pipe(stop_pipe) < 0)
        return -1;
    mkdir(wh, 0755);
    pid_t pid = fork();
    if (pid == 0) {
        close(port_pipe[0]);
        close(stop_pipe[1]);
        floe_rest_backend *b = NULL;
        floe_rest_server *srv = NULL;
        floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
        o.token = TOKEN;
        o.prefix = prefix;
        o.max_body = 1 << 20;
        o.plan_tasks_per_chunk = plan_chunk;
        o.plan_defer = plan_defer;
        int port = -1;
        if (floe__rest_backend_sql_new(&b, wh, "test") == 0 &&
            floe__rest_server_start(&srv, b, &o) == 0)
            port = floe__rest_server_port(srv);
        if (write(port_pipe[1], &port, sizeof port) != sizeof port)
            _exit(1);
        char c;
        while (read(stop_pipe[0], &c, 1) > 0)
            ;
        floe__rest_server_stop(srv);
        floe__rest_backend_free(b);
        _exit(0);
    }
    close(port_pipe[1]);
    close(stop_pipe[0]);
    int port = -1;
    if (read(port_pipe[0], &port, sizeof port) != sizeof port || port <= 0) {
        close(port_pipe[0]);
        return -1;
    }
    close(port_pipe[0]);
    s->pid = pid;
    s->stop_fd = stop_pipe[1];
    snprintf(s->uri, sizeof s->uri, "http://127.0.0.1:%d", port);
    return 0;
}

static inline void server_stop(server *s)
{
    close(s->stop_fd);
    int st;
    waitpid(s->pid, &st, 0);
}

static inline floe_catalog *rest_client(const server *s)
{
    floe_rest_catalog_options o = FLOE_REST_CATALOG_OPTIONS_INIT;
    o.token = TOKEN;
    floe_catalog *c = NULL;
    if (floe_catalog_open_rest(&c, s->uri, &o) < 0) {
        ft_fail(__FILE__, __LINE__, "open rest: %s", ft_floe_err());
        return NULL;
    }
    return c;
}

#endif
