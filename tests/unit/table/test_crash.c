/* SPDX-License-Identifier: Apache-2.0 */
/* table: crash safety of metadata-only commits. For every I/O step of a
 * rollback, inject a failure (before the operation, and after it with the
 * acknowledgement lost) and separately SIGKILL a forked child at each commit
 * step: afterwards the table loads at exactly the old or the new state, the
 * files left are unreferenced ones at most, and the next commit succeeds.
 * A catalog failure with unknown outcome keeps the written file. */
#include "catalog/catalog.h"
#include "fixture.h"

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct setup {
    floe_catalog *c;
    int64_t s1, s2;
} setup;

static bool make_table(setup *s, const char *ident)
{
    s->c = fx_catalog();
    if (!s->c)
        return false;
    floe_table *t = NULL;
    if (fx_create(&t, s->c, ident, NULL) < 0)
        return ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
    s->s1 = fx_append(t, 2);
    s->s2 = fx_append(t, 1);
    floe_table_free(t);
    return s->s1 && s->s2;
}

typedef struct file_set {
    int n;
    char names[64][512];
} file_set;

static int collect_cb(const floe_file_info *info, void *p)
{
    file_set *s = p;
    if (s->n < 64)
        snprintf(s->names[s->n++], sizeof s->names[0], "%s", info->uri);
    return 0;
}

/* Every object under the table location is the current metadata file or
 * one of its metadata-log, except `allowed_orphans` others. */
static bool only_referenced(floe_table *t, int allowed_orphans)
{
    file_set fs = {0};
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/", floe_table_location(t));
    if (floe_fileio_list(floe_table_io(t), prefix, collect_cb, &fs) < 0)
        return ft_fail(__FILE__, __LINE__, "list: %s", ft_floe_err());
    int orphans = 0;
    for (int i = 0; i < fs.n; i++) {
        bool ref = strcmp(fs.names[i], floe_table_metadata_location(t)) == 0;
        for (size_t k = 0; !ref && k < t->metadata->n_metadata_log; k++)
            ref = strcmp(fs.names[i], t->metadata->metadata_log[k].metadata_file) == 0;
        if (!ref)
            orphans++;
    }
    if (orphans > allowed_orphans)
        return ft_fail(__FILE__, __LINE__, "%d unreferenced files (allowed %d)", orphans,
                       allowed_orphans);
    return true;
}

/* The table loads (clean FileIO) at main == s1 or main == s2. */
static int64_t loaded_main_orphans(floe_catalog *c, const char *ident, int orphans)
{
    floe_table *t = NULL;
    if (floe_table_load(&t, c, ident, NULL) < 0) {
        ft_fail(__FILE__, __LINE__, "load after failure: %s", ft_floe_err());
        return 0;
    }
    int64_t m = fx_main(t);
    only_referenced(t, orphans);
    floe_table_free(t);
    return m;
}

static int64_t loaded_main(floe_catalog *c, const char *ident)
{
    return loaded_main_orphans(c, ident, 0);
}

static void fault_loop(bool after)
{
    setup s;
    FT_ASSERT(make_table(&s, "shop.crash"));
    floe_fileio *local = NULL, *io = NULL;
    FT_OK(floe_fileio_local_new(&local));
    FT_OK(floe__fileio_fault_new(&io, local, NULL));
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = io;
    int64_t target = s.s1, other = s.s2;
    long steps = 0;
    for (long n = 1; n < 50; n++) {
        floe_table *t = NULL;
        FT_OK(floe_table_load(&t, s.c, "shop.crash", &o));
        int64_t before = fx_main(t);
        floe_fault_options f = FLOE_FAULT_OPTIONS_INIT;
        f.fail_nth = n;
        f.after = after;
        floe__fileio_fault_set(io, &f);
        int rc = floe_table_set_current_snapshot(NULL, NULL, t, target);
        long injected = floe__fileio_fault_injected(io);
        floe__fileio_fault_set(io, NULL);
        if (injected == 0) {
            FT_OK(rc);
            FT_EQ_INT(loaded_main(s.c, "shop.crash"), target);
            floe_table_free(t);
            steps = n - 1;
            break;
        }
        int64_t now = loaded_main(s.c, "shop.crash");
        FT_CHECK(now == before || now == target);
        if (rc == 0)
            FT_EQ_INT(now, target);
        else
            FT_EQ_INT(now, before);
        /* the next commit on the same handle succeeds */
        FT_OK(floe_table_set_current_snapshot(NULL, NULL, t, other));
        FT_EQ_INT(loaded_main(s.c, "shop.crash"), other);
        floe_table_free(t);
    }
    FT_CHECK(steps >= 3); /* create, write, commit at least */
    floe_fileio_free(io);
    floe_catalog_free(s.c);
}

static void test_fault_before(void)
{
    fault_loop(false);
}

static void test_fault_after(void)
{
    fault_loop(true);
}

/* ---------------------------------------------------------------- SIGKILL */

static const char *g_kill_step;

static void kill_hook(const char *step)
{
    if (g_kill_step && strcmp(step, g_kill_step) == 0)
        raise(SIGKILL);
}

static void test_sigkill(void)
{
    const char *steps[] = {"write-metadata", "swap", "committed"};
    for (size_t i = 0; i < FT_N(steps); i++) {
        setup s;
        char ident[64];
        snprintf(ident, sizeof ident, "shop.kill%zu", i);
        FT_ASSERT(make_table(&s, ident));
        pid_t pid = fork();
        if (pid == 0) {
            floe_catalog *c = fx_catalog();
            floe_table *t = NULL;
            if (!c || floe_table_load(&t, c, ident, NULL) < 0)
                _exit(2);
            g_kill_step = steps[i];
            floe__table_set_step_hook(kill_hook);
            floe_table_rollback_to_snapshot(NULL, NULL, t, s.s1);
            _exit(3); /* not reached: killed at the step */
        }
        int st = 0;
        FT_ASSERT(waitpid(pid, &st, 0) == pid);
        FT_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
        floe_table *t = NULL;
        FT_OK(floe_table_load(&t, s.c, ident, NULL));
        int64_t m = fx_main(t);
        /* killed before the swap: old state (plus at most the written,
         * unreferenced metadata file); after it: new state */
        if (strcmp(steps[i], "committed") == 0) {
            FT_EQ_INT(m, s.s1);
            only_referenced(t, 0);
        } else {
            FT_EQ_INT(m, s.s2);
            only_referenced(t, strcmp(steps[i], "swap") == 0 ? 1 : 0);
        }
        /* the next commit succeeds */
        FT_OK(floe_table_set_current_snapshot(NULL, NULL, t, m == s.s1 ? s.s2 : s.s1));
        floe_table_free(t);
        floe_catalog_free(s.c);
    }
}

/* ---------------------------------------------------------------- catalog failures */

static void test_catalog_unknown(void)
{
    setup s;
    FT_ASSERT(make_table(&s, "shop.unknown"));
    floe_table *t = NULL;
    FT_OK(floe_table_load(&t, s.c, "shop.unknown", NULL));
    int files = fx_count_files(t);
    /* the UPDATE did not run but the error does not say so: unknown */
    floe__catalog_sql_inject(s.c, SQLITE_IOERR, false);
    FT_CHECK(floe_table_rollback_to_snapshot(NULL, NULL, t, s.s1) == FLOE_ECOMMITUNKNOWN);
    FT_EQ_INT(fx_count_files(t), files + 1); /* written file kept */
    FT_EQ_INT(loaded_main_orphans(s.c, "shop.unknown", 1) == s.s2, 1);
    /* it ran and the acknowledgement was lost: resolved as committed */
    floe__catalog_sql_inject(s.c, SQLITE_IOERR, true);
    FT_OK(floe_table_rollback_to_snapshot(NULL, NULL, t, s.s1));
    FT_EQ_INT(fx_main(t), s.s1);
    FT_EQ_INT(loaded_main_orphans(s.c, "shop.unknown", 1) == s.s1, 1);
    /* busy: certainly not applied, file removed */
    files = fx_count_files(t);
    floe__catalog_sql_inject(s.c, SQLITE_BUSY, false);
    FT_CHECK(floe_table_set_current_snapshot(NULL, NULL, t, s.s2) < 0);
    FT_EQ_INT(fx_count_files(t), files);
    FT_OK(floe_table_set_current_snapshot(NULL, NULL, t, s.s2));
    floe_table_free(t);
    floe_catalog_free(s.c);
}

/* A corrupt metadata file behind the pointer: a clear error naming it. */
static void test_corrupt_pointer(void)
{
    setup s;
    FT_ASSERT(make_table(&s, "shop.corrupt"));
    floe_table *t = NULL;
    FT_OK(floe_table_load(&t, s.c, "shop.corrupt", NULL));
    char bad[4200];
    snprintf(bad, sizeof bad, "%s/metadata/99999-bad.metadata.json", floe_table_location(t));
    FT_ASSERT(ft_write_file(bad, "{\"format-version\":2,", 20) == 0);
    FT_OK(floe_catalog_commit_table(s.c, "shop.corrupt", floe_table_metadata_location(t), bad));
    floe_table *t2 = NULL;
    FT_CHECK(floe_table_load(&t2, s.c, "shop.corrupt", NULL) == FLOE_ECORRUPT);
    FT_ERR_CONTAINS("99999-bad.metadata.json");
    /* the stale handle cannot commit over it: CAS conflict, then the
     * refresh reports the corrupt file; nothing changes */
    FT_CHECK(floe_table_rollback_to_snapshot(NULL, NULL, t, s.s1) < 0);
    char *cur = NULL;
    FT_OK(floe_catalog_load_table(&cur, NULL, s.c, "shop.corrupt"));
    FT_EQ_STR(cur, bad);
    floe_string_free(cur);
    floe_table_free(t);
    floe_catalog_free(s.c);
}

static const ft_case cases[] = {
    {"fault_before", test_fault_before},
    {"fault_after", test_fault_after},
    {"sigkill", test_sigkill},
    {"catalog_unknown", test_catalog_unknown},
    {"corrupt_pointer", test_corrupt_pointer},
};

int main(int argc, char **argv)
{
    floe__table_set_sleep_hook(NULL);
    return ft_main(argc, argv, cases, FT_N(cases));
}
