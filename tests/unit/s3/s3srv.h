/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Start and stop the local S3 of tests/interop/s3_server.mjs (s3rver behind
 * a SigV4-verifying, fault-injecting proxy on 127.0.0.1) from a C test or
 * benchmark. Header-only; used by tests/unit/s3/test_s3_server.c and
 * bench/s3_io.c, bench/s3_plan.c. The server runs until we close its stdin, so it dies with
 * the test even on a crash.
 */
#ifndef FLOE_TEST_S3SRV_H
#define FLOE_TEST_S3SRV_H

#include "util/util.h"

#include "lazy/curl.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define S3SRV_ACCESS "FLOETESTKEY"
#define S3SRV_SECRET "floe/test+SECRET=key"

typedef struct s3srv {
    pid_t pid;
    int stdin_fd;
    int port;
    char dir[256];
} s3srv;

static inline const char *s3srv_source_dir(void)
{
    const char *s = getenv("FLOE_SOURCE_DIR");
    return s && *s ? s : FLOE_SOURCE_DIR;
}

/* 1 when node and the npm modules are present. */
static inline int s3srv_available(void)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/tests/interop/node_modules/s3rver/package.json", s3srv_source_dir());
    if (access(p, R_OK) != 0)
        return 0;
    snprintf(p, sizeof p, "%s/tests/interop/node_modules/@smithy/signature-v4/package.json",
             s3srv_source_dir());
    if (access(p, R_OK) != 0)
        return 0;
    return system("node --version >/dev/null 2>&1") == 0;
}

static inline int s3srv_start(s3srv *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "/tmp/floe-s3srv-XXXXXX");
    if (!mkdtemp(s->dir))
        return -1;
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0)
        return -1;
    char script[1024];
    snprintf(script, sizeof script, "%s/tests/interop/s3_server.mjs", s3srv_source_dir());
    s->pid = fork();
    if (s->pid < 0)
        return -1;
    if (s->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execlp("node", "node", "--openssl-legacy-provider", script, s->dir, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s->stdin_fd = in[1];
    fcntl(s->stdin_fd, F_SETFD, FD_CLOEXEC);
    char line[256];
    size_t n = 0;
    while (n < sizeof line - 1) {
        ssize_t r = read(out[0], line + n, 1);
        if (r <= 0)
            break;
        if (line[n] == '\n')
            break;
        n++;
    }
    line[n] = '\0';
    close(out[0]);
    const char *p = strstr(line, "\"port\":");
    s->port = p ? atoi(p + 7) : 0;
    if (s->port <= 0) {
        close(s->stdin_fd);
        waitpid(s->pid, NULL, 0);
        return -1;
    }
    return 0;
}

static inline void s3srv_stop(s3srv *s)
{
    if (s->pid <= 0)
        return;
    close(s->stdin_fd);
    int st;
    for (int i = 0; i < 50; i++) {
        if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
            s->pid = 0;
            break;
        }
        usleep(100000);
    }
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        waitpid(s->pid, &st, 0);
    }
    s->pid = 0;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    if (system(cmd) != 0) {
    }
}

static inline size_t s3srv_collect(char *d, size_t sz, size_t n, void *p)
{
    size_t len = sz * n, have = strlen(p);
    if (have + len >= 4096)
        len = 4095 - have;
    memcpy((char *)p + have, d, len);
    ((char *)p)[have + len] = '\0';
    return sz * n;
}

/* GET a control path ("/__floe/stats"); response text into out[4096]. */
static inline int s3srv_control(const s3srv *s, const char *path_and_query, char *out)
{
    char url[1024];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", s->port, path_and_query);
    out[0] = '\0';
    CURL *h = curl_easy_init();
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, s3srv_collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
    CURLcode rc = curl_easy_perform(h);
    curl_easy_cleanup(h);
    return rc == CURLE_OK ? 0 : -1;
}

/* Integer field of the stats JSON. */
static inline long s3srv_stat(const s3srv *s, const char *field)
{
    char buf[4096], key[64];
    if (s3srv_control(s, "/__floe/stats", buf) != 0)
        return -1;
    snprintf(key, sizeof key, "\"%s\":", field);
    const char *p = strstr(buf, key);
    return p ? atol(p + strlen(key)) : -1;
}

/* FileIO properties that reach this server: its endpoint, the test
 * credentials and path-style addressing. */
static inline int s3srv_props(const s3srv *s, floe_props *p)
{
    char ep[64];
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d", s->port);
    int rc = floe__props_set(p, "s3.endpoint", ep);
    if (rc == 0)
        rc = floe__props_set(p, "s3.access-key-id", S3SRV_ACCESS);
    if (rc == 0)
        rc = floe__props_set(p, "s3.secret-access-key", S3SRV_SECRET);
    if (rc == 0)
        rc = floe__props_set(p, "s3.path-style-access", "true");
    return rc;
}

#endif
