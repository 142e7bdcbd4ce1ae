/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark of the sql front end alone: lex + parse into the syntax tree +
 * bind (the types of every expression, src/sql/bind.c, run by rewrite.c on
 * each query) + print as SQLite text (floe__sql_parse, src/sql/parser.c,
 * print.c), in microseconds per statement, for
 *   - sql_parse_seed: seed 000's two scripts (tests/data/sql/seed_script*.sql),
 *   - sql_parse_corpus: every case of the differential corpus
 *     (the .sql files of tests/peers/sql_corpus, one statement per case),
 * each the median of 9 rounds over all statements (an arena reset per
 * statement, as `floe sql` does), in process CPU time (a loaded machine
 * stretches wall time many times over). argv[1]: the source directory (default
 * FLOE_SOURCE_DIR). No peer runs this work alone, so no RATIO line.
 */
#include "sql/sqlfront.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 9

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU: the machine is shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    fclose(f);
    return b;
}

typedef struct {
    char **items;
    size_t n, cap;
} list;

static void add(list *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
        if (!l->items)
            exit(1);
    }
    l->items[l->n++] = s;
}

/* The corpus cases of one file: the lines between `-- case:` lines. */
static void corpus_cases(char *text, list *out)
{
    char *p = strstr(text, "-- case:");
    while (p) {
        char *body = strchr(p, '\n');
        if (!body)
            break;
        body++;
        char *next = strstr(body, "-- case:");
        if (next)
            next[-1] = 0;
        add(out, body);
        p = next;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median µs per statement over ROUNDS rounds; each entry a script. */
static double time_scripts(const list *scripts, size_t *nstmts, size_t *nfail)
{
    floe_arena *a = floe__arena_new(0);
    double r[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        size_t n = 0, fail = 0;
        double t0 = now_s();
        for (size_t k = 0; k < scripts->n; k++) {
            floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
            opt.catalog_name = "ice";
            opt.script = scripts->items[k];
            const char *p = scripts->items[k];
            for (;;) {
                floe_sql_stmt *st = NULL;
                const char *rest = p;
                int rc = floe__sql_parse(a, p, &opt, &st, &rest);
                floe__arena_reset(a);
                if (rc == 0 && !st)
                    break;
                n++;
                fail += rc < 0;
                if (rest <= p)
                    break;
                p = rest;
            }
        }
        r[round] = (now_s() - t0) * 1e6 / (double)(n ? n : 1);
        *nstmts = n;
        *nfail = fail;
    }
    floe__arena_free(a);
    qsort(r, ROUNDS, sizeof r[0], cmp_double);
    return r[ROUNDS / 2];
}

int main(int argc, char **argv)
{
    const char *src = argc > 1 ? argv[1] : FLOE_SOURCE_DIR;
    char path[2048];
    list seed = {0}, corpus = {0};
    for (int k = 1; k <= 2; k++) {
        snprintf(path, sizeof path, "%s/tests/data/sql/seed_script%d.sql", src, k);
        char *s = slurp(path);
        if (s)
            add(&seed, s);
    }
    snprintf(path, sizeof path, "%s/tests/peers/sql_corpus", src);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".sql") || !strcmp(e->d_name, "setup.sql"))
            continue;
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        char *s = slurp(file);
        if (s)
            corpus_cases(s, &corpus);
    }
    if (d)
        closedir(d);
    if (!seed.n || !corpus.n) {
        printf("SKIP sql_parse: no scripts under %s\n", src);
        return 0;
    }
    size_t n, fail;
    double us = time_scripts(&seed, &n, &fail);
    printf(
        "BENCH sql_parse_seed %.2f us (per statement, %zu statements, %zu errors, median of %d)\n",
        us, n, fail, ROUNDS);
    us = time_scripts(&corpus, &n, &fail);
    printf("BENCH sql_parse_corpus %.2f us (per statement, %zu statements, %zu errors, median of "
           "%d)\n",
           us, n, fail, ROUNDS);
    return 0;
}
