/* SPDX-License-Identifier: Apache-2.0 */
/* Concurrency of the SQLite catalog across processes: racing compare-and-set
 * commits on one table pointer never lose an update; racing creators of one
 * database, namespace or table end with exactly one winner. */
#include "catalog/catalog.h"
#include "harness.h"
#include "io/io.h"

#include <pthread.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

enum { PROCS = 8, COMMITS = 50 };

/* Fork PROCS children running fn(i); a pipe is the starting gate. codes[i]
 * is child i's exit status (-1 if it died). */
static void run_children(int (*fn)(int i, const char *arg), const char *arg, int codes[PROCS])
{
    int gate[2];
    for (int i = 0; i < PROCS; i++)
        codes[i] = -1;
    if (pipe(gate) != 0)
        return;
    pid_t pids[PROCS];
    for (int i = 0; i < PROCS; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            close(gate[1]);
            char c;
            while (read(gate[0], &c, 1) > 0) {
            }
            _exit(fn(i, arg));
        }
    }
    close(gate[0]);
    usleep(20000);
    close(gate[1]);
    for (int i = 0; i < PROCS; i++) {
        int st;
        if (pids[i] < 0 || waitpid(pids[i], &st, 0) < 0)
            continue;
        codes[i] = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
}

static const char *g_dir;

/* Each child: 50 times load the pointer, CAS it to the next sequence number
 * (a unique location), retry on conflict. Logs every location it made
 * current. */
static int cas_child(int i, const char *db)
{
    floe_catalog *c;
    if (floe_catalog_open_sql(&c, db, NULL) < 0) {
        fprintf(stderr, "    open: %s\n", floe_error_last()->message);
        return 2;
    }
    char logpath[4200];
    snprintf(logpath, sizeof logpath, "%s/log-%d", g_dir, i);
    FILE *log = fopen(logpath, "w");
    if (!log)
        return 2;
    long conflicts = 0;
    unsigned seed = (unsigned)getpid();
    for (int k = 0; k < COMMITS; k++) {
        for (int attempt = 0;; attempt++) {
            char *cur;
            if (floe_catalog_load_table(&cur, NULL, c, "db.t") < 0)
                return 2;
            int seq = 0;
            if (sscanf(cur, "/t/v%d-", &seq) != 1 && strcmp(cur, "/t/v0.json") != 0)
                return 2;
            char next[128];
            snprintf(next, sizeof next, "/t/v%d-p%d-k%d.json", seq + 1, i, k);
            /* Widen the window between read and swap, as writing a real
             * metadata file would, so the race is really contested. */
            usleep((useconds_t)(rand_r(&seed) % 300));
            int rc = floe_catalog_commit_table(c, "db.t", cur, next);
            floe_string_free(cur);
            if (rc == 0) {
                fprintf(log, "%d %s\n", seq + 1, next);
                break;
            }
            conflicts += rc == FLOE_ECONFLICT;
            if (rc != FLOE_ECONFLICT) {
                fprintf(stderr, "    commit: %s\n", floe_error_last()->message);
                return 2;
            }
            if (attempt > 10000)
                return 3;
        }
    }
    fclose(log);
    floe_catalog_free(c);
    snprintf(logpath, sizeof logpath, "%s/conflicts-%d", g_dir, i);
    log = fopen(logpath, "w");
    if (log) {
        fprintf(log, "%ld\n", conflicts);
        fclose(log);
    }
    return 0;
}

static void test_cas_no_lost_update(void)
{
    g_dir = ft_tmpdir();
    char db[4200];
    snprintf(db, sizeof db, "%s", ft_tmp("cat.db"));
    floe_catalog *c;
    FT_OK(floe_catalog_open_sql(&c, db, NULL));
    FT_OK(floe_catalog_create_namespace(c, "db", NULL));
    FT_OK(floe_catalog_register_table(c, "db.t", "/t/v0.json"));
    int codes[PROCS];
    run_children(cas_child, db, codes);
    for (int i = 0; i < PROCS; i++)
        FT_EQ_INT(codes[i], 0);
    /* Every sequence number 1..400 was made current exactly once: no two
     * commits from one base both succeeded, none was lost. */
    static int seen[PROCS * COMMITS + 1];
    memset(seen, 0, sizeof seen);
    int total = 0;
    for (int i = 0; i < PROCS; i++) {
        char logpath[4200];
        snprintf(logpath, sizeof logpath, "%s/log-%d", g_dir, i);
        FILE *f = fopen(logpath, "r");
        FT_ASSERT(f);
        int seq;
        char loc[256];
        int lines = 0;
        while (fscanf(f, "%d %255s", &seq, loc) == 2) {
            FT_ASSERT(seq >= 1 && seq <= PROCS * COMMITS);
            seen[seq]++;
            lines++;
        }
        fclose(f);
        FT_EQ_INT(lines, COMMITS);
        total += lines;
    }
    FT_EQ_INT(total, PROCS * COMMITS);
    long conflicts = 0;
    for (int i = 0; i < PROCS; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/conflicts-%d", g_dir, i);
        char *txt = ft_read_file(path, NULL);
        if (txt)
            conflicts += atol(txt);
        free(txt);
    }
    /* Diagnostic only: how often the race was really contested. */
    fprintf(stderr, "    %d commits, %ld conflicts retried\n", PROCS * COMMITS, conflicts);
    int dup = 0, missing = 0;
    for (int s = 1; s <= PROCS * COMMITS; s++) {
        dup += seen[s] > 1;
        missing += seen[s] == 0;
    }
    FT_EQ_INT(dup, 0);
    FT_EQ_INT(missing, 0);
    char *cur, *prev;
    FT_OK(floe_catalog_load_table(&cur, &prev, c, "db.t"));
    int seq = 0;
    FT_CHECK(sscanf(cur, "/t/v%d-", &seq) == 1);
    FT_EQ_INT(seq, PROCS * COMMITS);
    int pseq = 0;
    FT_CHECK(prev && sscanf(prev, "/t/v%d-", &pseq) == 1);
    FT_EQ_INT(pseq, PROCS * COMMITS - 1);
    floe_string_free(cur);
    floe_string_free(prev);
    floe_catalog_free(c);
}

/* All children open a database that does not exist yet, then race to create
 * one namespace and one table: one winner each. */
static int create_child(int i, const char *db)
{
    FLOE_UNUSED(i);
    floe_catalog *c;
    if (floe_catalog_open_sql(&c, db, NULL) < 0) {
        fprintf(stderr, "    open: %s\n", floe_error_last()->message);
        return 2;
    }
    int rc = floe_catalog_create_namespace(c, "race", NULL);
    if (rc < 0 && rc != FLOE_EEXISTS)
        return 2;
    int won_ns = rc == 0;
    char loc[64];
    snprintf(loc, sizeof loc, "/m/%d.json", i);
    rc = floe_catalog_register_table(c, "race.t", loc);
    floe_catalog_free(c);
    if (rc < 0 && rc != FLOE_EEXISTS)
        return 2;
    return 10 + 2 * won_ns + (rc == 0); /* 10..13; 2 = error */
}

static void test_create_races(void)
{
    char db[4200];
    snprintf(db, sizeof db, "%s", ft_tmp("fresh.db"));
    int codes[PROCS];
    run_children(create_child, db, codes);
    int ns_wins = 0, table_wins = 0, winner_child = -1;
    for (int i = 0; i < PROCS; i++) {
        FT_CHECK(codes[i] >= 10 && codes[i] <= 13);
        ns_wins += codes[i] >= 12;
        if (codes[i] & 1) {
            table_wins++;
            winner_child = i;
        }
    }
    FT_EQ_INT(ns_wins, 1);
    FT_EQ_INT(table_wins, 1);
    floe_catalog *c;
    FT_OK(floe_catalog_open_sql(&c, db, NULL));
    char *loc;
    FT_OK(floe_catalog_load_table(&loc, NULL, c, "race.t"));
    int winner = -1;
    FT_CHECK(sscanf(loc, "/m/%d.json", &winner) == 1);
    FT_EQ_INT(winner, winner_child);
    floe_string_free(loc);
    floe_catalog_free(c);
}

/* One catalog handle and one memory FileIO shared by several threads. */
enum { THREADS = 4, PER_THREAD = 25 };

typedef struct shared {
    floe_catalog *cat;
    floe_fileio *io;
    int id;
    int failures;
} shared;

static void *thread_main(void *arg)
{
    shared *sh = arg;
    for (int k = 0; k < PER_THREAD; k++) {
        char uri[64];
        snprintf(uri, sizeof uri, "mem://t/%d/%d", sh->id, k);
        if (floe_fileio_write_new(sh->io, uri, uri, strlen(uri)) < 0)
            sh->failures++;
        for (;;) {
            char *cur;
            if (floe_catalog_load_table(&cur, NULL, sh->cat, "db.t") < 0) {
                sh->failures++;
                break;
            }
            int seq = 0;
            sscanf(cur, "/v%d-", &seq);
            char next[64];
            snprintf(next, sizeof next, "/v%d-%d-%d", seq + 1, sh->id, k);
            int rc = floe_catalog_commit_table(sh->cat, "db.t", cur, next);
            floe_string_free(cur);
            if (rc == 0)
                break;
            if (rc != FLOE_ECONFLICT) {
                sh->failures++;
                break;
            }
        }
    }
    return NULL;
}

static int count_cb(const floe_file_info *info, void *payload)
{
    FLOE_UNUSED(info);
    (*(int *)payload)++;
    return 0;
}

static void test_threads_shared_handles(void)
{
    shared sh[THREADS];
    floe_catalog *cat;
    floe_fileio *io;
    FT_OK(floe_catalog_open_sql(&cat, ft_tmp("threads.db"), NULL));
    FT_OK(floe_fileio_memory_new(&io));
    FT_OK(floe_catalog_create_namespace(cat, "db", NULL));
    FT_OK(floe_catalog_register_table(cat, "db.t", "/v0"));
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        sh[i] = (shared){cat, io, i, 0};
        FT_ASSERT(pthread_create(&th[i], NULL, thread_main, &sh[i]) == 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        FT_EQ_INT(sh[i].failures, 0);
    }
    char *cur;
    FT_OK(floe_catalog_load_table(&cur, NULL, cat, "db.t"));
    int seq = 0;
    FT_CHECK(sscanf(cur, "/v%d-", &seq) == 1);
    FT_EQ_INT(seq, THREADS * PER_THREAD);
    floe_string_free(cur);
    int n = 0;
    FT_OK(floe_fileio_list(io, "mem://t/", count_cb, &n));
    FT_EQ_INT(n, THREADS * PER_THREAD);
    floe_fileio_free(io);
    floe_catalog_free(cat);
}

static const ft_case cases[] = {
    {"cas_no_lost_update", test_cas_no_lost_update},
    {"create_races", test_create_races},
    {"threads_shared_handles", test_threads_shared_handles},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
