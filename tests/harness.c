/* SPDX-License-Identifier: Apache-2.0 */
/* The in-house test harness: see harness.h. */
#include "harness.h"

#include "floe/common.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef FLOE_SOURCE_DIR
#define FLOE_SOURCE_DIR "."
#endif

static int case_failures;
static bool case_skipped;
static char skip_reason[512];
static char tmpdir[4096];
static const char *current_case;

bool ft_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stdout, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    case_failures++;
    return false;
}

void ft_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(skip_reason, sizeof skip_reason, fmt, ap);
    va_end(ap);
    case_skipped = true;
}

bool ft_skipped(void)
{
    return case_skipped;
}

const char *ft_tmpdir(void)
{
    if (tmpdir[0])
        return tmpdir;
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/floe-test-XXXXXX", base);
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "mkdtemp failed: %s\n", strerror(errno));
        exit(2);
    }
    return tmpdir;
}

static char ring[16][4096];
static int ring_i;

const char *ft_path(const char *a, const char *b)
{
    char *p = ring[ring_i++ % 16];
    snprintf(p, 4096, "%s/%s", a, b);
    return p;
}

const char *ft_tmp(const char *name)
{
    return ft_path(ft_tmpdir(), name);
}

const char *ft_source_dir(void)
{
    return FLOE_SOURCE_DIR;
}

const char *ft_shared_dir(void)
{
    static char buf[4096];
    const char *env = getenv("FLOE_SHARED_DIR");
    if (env && *env)
        snprintf(buf, sizeof buf, "%s", env);
    else
        snprintf(buf, sizeof buf, "%s/../shared", FLOE_SOURCE_DIR);
    struct stat st;
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/fixtures", buf);
    if (stat(probe, &st) != 0 || !S_ISDIR(st.st_mode)) {
        ft_skip("../shared/fixtures not present");
        return NULL;
    }
    return buf;
}

/* Read a stream to its end into a NUL-terminated malloc'd buffer. */
static char *slurp(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

void ft_collect(const char *dir, bool (*want)(const char *path), char ***list, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            ft_collect(path, want, list, n);
        } else if (want(path)) {
            *list = realloc(*list, (*n + 1) * sizeof **list);
            (*list)[(*n)++] = strdup(path);
        }
    }
    closedir(d);
}

static bool is_metadata(const char *path)
{
    if (strstr(path, "/vectors/avro"))
        return false;
    return ends_with(path, ".metadata.json") ||
           (strstr(path, "/vectors/metadata/") && ends_with(path, ".json"));
}

void ft_collect_metadata(const char *dir, char ***list, size_t *n)
{
    ft_collect(dir, is_metadata, list, n);
}

char *ft_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = slurp(f, len);
    fclose(f);
    return buf;
}

int ft_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    fclose(f);
    return w == len ? 0 : -1;
}

int ft_run(char **out, const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char *buf = slurp(p, NULL);
    int st = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    if (st == -1)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

const char *ft_floe_err(void)
{
    static char buf[2200];
    const floe_error *e = floe_error_last();
    if (!e)
        return "(no floe error set)";
    snprintf(buf, sizeof buf, "%s [%s] %s", floe_error_code_name(e->code), e->subsystem,
             e->message);
    return buf;
}

static int rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int ft_main(int argc, char **argv, const ft_case *cases, size_t ncases)
{
    int passed = 0, failed = 0, skipped = 0;
    const char *only = argc > 1 ? argv[1] : getenv("FT_ONLY");
    bool keep = getenv("FT_KEEP") && getenv("FT_KEEP")[0] == '1';
    for (size_t i = 0; i < ncases; i++) {
        if (only && *only && !strstr(cases[i].name, only))
            continue;
        current_case = cases[i].name;
        case_failures = 0;
        case_skipped = false;
        tmpdir[0] = '\0';
        floe_error_clear();
        cases[i].fn();
        if (case_failures) {
            printf("FAIL %s\n", cases[i].name);
            failed++;
        } else if (case_skipped) {
            printf("skip %s: %s\n", cases[i].name, skip_reason);
            skipped++;
        } else {
            printf("ok   %s\n", cases[i].name);
            passed++;
        }
        fflush(stdout);
        if (tmpdir[0] && !keep)
            nftw(tmpdir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    if (failed)
        return 1;
    /* Everything skipped: tell ctest (SKIP_RETURN_CODE 77), never "passed". */
    return (passed == 0 && skipped > 0) ? 77 : 0;
}
