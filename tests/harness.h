/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe's in-house test harness. A test binary lists its cases in a plain
 * array and calls ft_main(); it prints one line per case and closes with
 * `N passed, N failed, N skipped`. Each case gets its own temporary directory
 * (ft_tmpdir()), removed afterwards unless FT_KEEP=1.
 *
 *   static void test_x(void) { FT_EQ_INT(1 + 1, 2); }
 *   static const ft_case cases[] = {{"x", test_x}};
 *   int main(int argc, char **argv) { return ft_main(argc, argv, cases, FT_N(cases)); }
 *
 * Tests that need ../shared (third-party fixtures, verifiers) call
 * ft_shared_dir(), which marks the case skipped (never passed) when absent.
 */
#ifndef FLOE_TEST_HARNESS_H
#define FLOE_TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ft_case {
    const char *name;
    void (*fn)(void);
} ft_case;

#define FT_N(a) (sizeof(a) / sizeof((a)[0]))

int ft_main(int argc, char **argv, const ft_case *cases, size_t ncases);

/* Record a failure; returns false so macros can `return` on it. */
bool ft_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Mark the running case skipped with a reason (it then counts neither as
 * passed nor failed). */
void ft_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool ft_skipped(void);

/* Per-case temporary directory (created on first call). */
const char *ft_tmpdir(void);
/* Path of a file inside the case's temporary directory (static buffer ring). */
const char *ft_tmp(const char *name);
/* ../shared directory (or $FLOE_SHARED_DIR); NULL and the case is skipped
 * when it is missing. */
const char *ft_shared_dir(void);
/* Source tree root (for tests/data). */
const char *ft_source_dir(void);
/* Path join into a static ring buffer: ft_path(ft_shared_dir(), "fixtures/x"). */
const char *ft_path(const char *a, const char *b);

/* Append the files below `dir` (recursively, hidden names skipped) for
 * which want(path) holds to *list (malloc'd paths, *n of them). */
void ft_collect(const char *dir, bool (*want)(const char *path), char ***list, size_t *n);
/* ft_collect of the table metadata files: *.metadata.json(.gz), and the
 * .json files under vectors/metadata; vectors/avro (decoded Avro headers)
 * is skipped. */
void ft_collect_metadata(const char *dir, char ***list, size_t *n);

/* Read a whole file (malloc'd, NUL-terminated; NULL on failure). */
char *ft_read_file(const char *path, size_t *len);
int ft_write_file(const char *path, const void *data, size_t len);
/* Run a shell command; returns its exit status, captures stdout into *out
 * (malloc'd) when out != NULL. */
int ft_run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* xorshift64: the random histories' reproducible generator (state != 0). */
static inline uint64_t ft_xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Describe the last floe error as a string (for failure messages). */
const char *ft_floe_err(void);

#define FT_CHECK(cond)                                                                             \
    ((cond) ? true : ft_fail(__FILE__, __LINE__, "check failed: %s", #cond))

#define FT_ASSERT(cond)                                                                            \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            ft_fail(__FILE__, __LINE__, "assertion failed: %s", #cond);                            \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* expr must return >= 0; otherwise the floe error is printed and the case stops. */
#define FT_OK(expr)                                                                                \
    do {                                                                                           \
        int ft__rc = (expr);                                                                       \
        if (ft__rc < 0) {                                                                          \
            ft_fail(__FILE__, __LINE__, "%s returned %d: %s", #expr, ft__rc, ft_floe_err());       \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define FT_EQ_INT(a, b)                                                                            \
    do {                                                                                           \
        long long ft__a = (long long)(a), ft__b = (long long)(b);                                  \
        if (ft__a != ft__b)                                                                        \
            ft_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, ft__a, ft__b);           \
    } while (0)

#define FT_EQ_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *ft__a = (a), *ft__b = (b);                                                     \
        if (!ft__a || !ft__b || strcmp(ft__a, ft__b) != 0)                                         \
            ft_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,                      \
                    ft__a ? ft__a : "(null)", ft__b ? ft__b : "(null)");                           \
    } while (0)

/* The floe error's message must contain `needle`. */
#define FT_ERR_CONTAINS(needle)                                                                    \
    do {                                                                                           \
        const char *ft__m = ft_floe_err();                                                         \
        if (!strstr(ft__m, (needle)))                                                              \
            ft_fail(__FILE__, __LINE__, "error \"%s\" lacks \"%s\"", ft__m, (needle));             \
    } while (0)

#include <string.h>

#endif
