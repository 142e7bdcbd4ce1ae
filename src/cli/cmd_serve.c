/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe serve`: run the Iceberg REST catalog server (rest/server.h) until
 * SIGTERM or SIGINT, then stop gracefully (in-flight requests finish).
 * One backend (rest/backend_sql.c) over the catalog chosen here:
 * --warehouse DIR (the SQLite catalog DIR/catalog.db over the tables under
 * DIR), --memory (an in-memory SQLite catalog and the memory FileIO, for
 * tests and demos) or --catalog-uri thrift://HOST:PORT --warehouse DIR (a
 * Hive Metastore over the tables under DIR).
 */
#include "cli.h"

#include "floe/catalog.h"
#include "rest/server.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char cli_usage_serve[] =
    "usage: floe serve (--warehouse DIR [--catalog-name N] | --memory [--warehouse LOC]\n"
    "                  | --catalog-uri thrift://HOST:PORT --warehouse DIR)\n"
    "                  [--host H] [--port P] [--prefix P] [--token T | --token-file F]\n"
    "                  [--threads N] [--max-body BYTES] [--plan-task-size N] [--quiet]\n"
    "\n"
    "  --warehouse DIR   serve the SQLite catalog DIR/catalog.db and the tables under DIR\n"
    "                    (with --memory: LOC, the location prefix of tables created\n"
    "                    without a location)\n"
    "  --catalog-name N  catalog_name in the SQLite catalog (default \"local\", as floe sql)\n"
    "  --memory          serve an in-memory catalog (lost on exit)\n"
    "  --catalog-uri U   serve the Hive Metastore at U (thrift://HOST:PORT) over the\n"
    "                    tables under --warehouse DIR\n"
    "  --host H          address to bind (default 127.0.0.1)\n"
    "  --port P          TCP port (default 8181; 0 = any free port, printed at start)\n"
    "  --prefix P        advertise /v1/config overrides.prefix=P (paths /v1/P/...)\n"
    "  --token T         require `Authorization: Bearer T` (prefer --token-file)\n"
    "  --token-file F    read the token from file F (first line)\n"
    "  --threads N       worker threads (default 4)\n"
    "  --max-body BYTES  largest accepted request body (default 16 MiB)\n"
    "  --plan-task-size N  server-side scan planning: file scan tasks per plan task\n"
    "                    (default 1000; larger plans come back in chunks)\n"
    "  --quiet           no access log on stderr\n";

static int read_token_file(const char *path, char **out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("RuntimeIOException", "cannot open token file %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && (st.st_mode & 077))
        fprintf(stderr, "floe serve: warning: token file %s is readable by others\n", path);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    size_t len = strcspn(buf, "\r\n");
    while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        len--;
    buf[len] = '\0';
    if (len == 0) {
        cli_error("IllegalArgumentException", "token file %s is empty", path);
        return -1;
    }
    *out = strdup(buf);
    memset(buf, 0, sizeof buf);
    return *out ? 0 : -1;
}

static bool parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || errno || v > max || s[0] == '-')
        return false;
    *out = v;
    return true;
}

/* The catalog behind the server: the one place a new backend (the SQLite
 * catalog over a warehouse directory) is chosen. */
static int make_backend(floe_rest_backend **out, bool memory, const char *uri,
                        const char *warehouse, const char *catalog_name)
{
    if (memory)
        return floe__rest_backend_memory_new(out, warehouse);
    if (uri) {
        floe_hive_catalog_options o = FLOE_HIVE_CATALOG_OPTIONS_INIT;
        o.name = catalog_name;
        o.warehouse = warehouse;
        floe_catalog *cat = NULL;
        int rc = floe_catalog_open_hive(&cat, uri, &o);
        return rc < 0 ? rc : floe__rest_backend_catalog_new(out, cat, warehouse);
    }
    return floe__rest_backend_sql_new(out, warehouse, catalog_name);
}

int floe_cmd_serve(int argc, char **argv)
{
    floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
    bool memory = false, quiet = false;
    const char *token = NULL, *token_file = NULL, *warehouse = NULL, *catalog_name = NULL,
               *uri = NULL;
    o.port = 8181;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long n;
#define NEED_ARG                                                                                   \
    do {                                                                                           \
        if (!v) {                                                                                  \
            fprintf(stderr, "floe serve: %s needs a value\n%s", a, cli_usage_serve);              \
            return CLI_USAGE;                                                                      \
        }                                                                                          \
        i++;                                                                                       \
    } while (0)
        if (strcmp(a, "--memory") == 0) {
            memory = true;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(a, "--host") == 0) {
            NEED_ARG;
            o.host = v;
        } else if (strcmp(a, "--port") == 0) {
            NEED_ARG;
            if (!parse_uint(v, 65535, &n)) {
                fprintf(stderr, "floe serve: invalid port '%s'\n", v);
                return CLI_USAGE;
            }
            o.port = (int)n;
        } else if (strcmp(a, "--prefix") == 0) {
            NEED_ARG;
            o.prefix = v;
        } else if (strcmp(a, "--token") == 0) {
            NEED_ARG;
            token = v;
        } else if (strcmp(a, "--token-file") == 0) {
            NEED_ARG;
            token_file = v;
        } else if (strcmp(a, "--threads") == 0) {
            NEED_ARG;
            if (!parse_uint(v, 256, &n) || n == 0) {
                fprintf(stderr, "floe serve: invalid thread count '%s'\n", v);
                return CLI_USAGE;
            }
            o.threads = (unsigned)n;
        } else if (strcmp(a, "--max-body") == 0) {
            NEED_ARG;
            if (!parse_uint(v, (unsigned long long)1 << 34, &n) || n == 0) {
                fprintf(stderr, "floe serve: invalid --max-body '%s'\n", v);
                return CLI_USAGE;
            }
            o.max_body = (size_t)n;
        } else if (strcmp(a, "--plan-task-size") == 0) {
            NEED_ARG;
            if (!parse_uint(v, 1000000, &n) || n == 0) {
                fprintf(stderr, "floe serve: invalid --plan-task-size '%s'\n", v);
                return CLI_USAGE;
            }
            o.plan_tasks_per_chunk = (size_t)n;
        } else if (strcmp(a, "--warehouse") == 0) {
            NEED_ARG;
            warehouse = v;
        } else if (strcmp(a, "--catalog-uri") == 0) {
            NEED_ARG;
            uri = v;
        } else if (strcmp(a, "--catalog-name") == 0) {
            NEED_ARG;
            catalog_name = v;
        } else {
            fprintf(stderr, "floe serve: unknown option '%s'\n%s", a, cli_usage_serve);
            return CLI_USAGE;
        }
#undef NEED_ARG
    }
    if (!memory && !warehouse) {
        fprintf(stderr, "floe serve: choose a catalog: --warehouse DIR or --memory\n%s",
                cli_usage_serve);
        return CLI_USAGE;
    }
    if (uri && (memory || strncmp(uri, "thrift://", 9) != 0)) {
        fprintf(stderr, "floe serve: --catalog-uri takes a Hive Metastore thrift://HOST:PORT "
                        "and --warehouse DIR, not --memory\n");
        return CLI_USAGE;
    }
    if (token && token_file) {
        fprintf(stderr, "floe serve: --token and --token-file are exclusive\n");
        return CLI_USAGE;
    }
    char *file_token = NULL;
    if (token_file) {
        if (read_token_file(token_file, &file_token) < 0)
            return CLI_FAIL;
        token = file_token;
    }
    o.token = token;
    o.access_log = !quiet;
    if (!token && o.host && strcmp(o.host, "127.0.0.1") != 0 && strcmp(o.host, "::1") != 0 &&
        strcmp(o.host, "localhost") != 0)
        fprintf(stderr, "floe serve: warning: no --token: anyone reaching %s can change the "
                        "catalog\n",
                o.host);

    /* Block the stop signals in every thread (the server's inherit this
     * mask) and wait for them synchronously in this one. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    floe_rest_backend *backend = NULL;
    floe_rest_server *server = NULL;
    if (make_backend(&backend, memory, uri, warehouse, catalog_name) < 0) {
        free(file_token);
        return cli_fail(NULL);
    }
    if (floe__rest_server_start(&server, backend, &o) < 0) {
        floe__rest_backend_free(backend);
        free(file_token);
        return cli_fail(NULL);
    }
    const char *host = o.host ? o.host : "127.0.0.1";
    bool v6 = strchr(host, ':') != NULL;
    printf("floe serve: listening on http://%s%s%s:%d%s%s (%s catalog%s%s%s%s)\n", v6 ? "[" : "",
           host, v6 ? "]" : "", floe__rest_server_port(server), o.prefix ? " prefix " : "",
           o.prefix ? o.prefix : "", memory ? "memory" : uri ? "hive" : "warehouse",
           memory ? "" : " '",
           memory ? "" : (catalog_name ? catalog_name : uri ? "hive" : FLOE_CATALOG_DEFAULT_NAME),
           memory ? "" : "'", token ? ", bearer token required" : "");
    fflush(stdout);

    int sig = 0;
    sigwait(&set, &sig);
    fprintf(stderr, "floe serve: %s received, finishing in-flight requests\n",
            sig == SIGTERM ? "SIGTERM" : "SIGINT");
    floe__rest_server_stop(server);
    floe__rest_backend_free(backend);
    if (file_token) {
        memset(file_token, 0, strlen(file_token));
        free(file_token);
    }
    fprintf(stderr, "floe serve: stopped\n");
    return CLI_OK;
}
