/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of io/: local and memory backends, create-new races, listing,
 * batched removal, fault injection, location mapping, dispatch, OOM. */
#include "harness.h"
#include "io/io.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---------------------------------------------------------------- helpers */

typedef struct listing {
    char uris[32][512];
    int64_t sizes[32];
    int n;
} listing;

static int collect(const floe_file_info *info, void *payload)
{
    listing *l = payload;
    if (l->n < 32) {
        snprintf(l->uris[l->n], sizeof l->uris[0], "%s", info->uri);
        l->sizes[l->n] = info->size;
    }
    l->n++;
    return 0;
}

static int stop_at_first(const floe_file_info *info, void *payload)
{
    FLOE_UNUSED(info);
    (*(int *)payload)++;
    return -42;
}

static char *read_str(floe_fileio *io, const char *uri)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe__io_read_all(io, uri, 1 << 20, &b) < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return floe__buf_detach(&b);
}

static int count_dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* ---------------------------------------------------------------- local */

static void test_local_roundtrip(void)
{
    floe_fileio *io;
    FT_OK(floe_fileio_open(&io, "file", NULL));
    const char *path = ft_tmp("deep/er/dir/obj.bin");
    FT_OK(floe_fileio_write_new(io, path, "hello", 5));
    char *s = read_str(io, path);
    FT_EQ_STR(s, "hello");
    floe__free(s);
    /* file: URI spellings name the same object */
    char uri[4200];
    snprintf(uri, sizeof uri, "file://%s", path);
    s = read_str(io, uri);
    FT_EQ_STR(s, "hello");
    floe__free(s);
    snprintf(uri, sizeof uri, "file:%s", path);
    FT_EQ_INT(floe_fileio_exists(io, uri), 1);
    snprintf(uri, sizeof uri, "file://localhost%s", path);
    FT_EQ_INT(floe_fileio_exists(io, uri), 1);
    /* never overwritten */
    FT_EQ_INT(floe_fileio_write_new(io, path, "other", 5), FLOE_EEXISTS);
    FT_ERR_CONTAINS("already exists");
    s = read_str(io, path);
    FT_EQ_STR(s, "hello");
    floe__free(s);
    floe_file_info info;
    FT_OK(floe_fileio_stat(&info, io, path));
    FT_EQ_INT(info.size, 5);
    FT_CHECK(info.mtime_ms > 1600000000000LL);
    FT_EQ_INT(floe_fileio_stat(&info, io, ft_tmp("nope")), FLOE_ENOTFOUND);
    FT_EQ_INT(floe_fileio_exists(io, ft_tmp("nope")), 0);
    /* a directory is not an object */
    FT_EQ_INT(floe_fileio_exists(io, ft_tmp("deep")), 0);
    floe_input *in;
    FT_EQ_INT(floe_fileio_open_input(&in, io, ft_tmp("deep")), FLOE_ENOTFOUND);
    FT_EQ_INT(floe_fileio_open_input(&in, io, "file://otherhost/x"), FLOE_EUNSUPPORTED);
    /* empty object */
    FT_OK(floe_fileio_write_new(io, ft_tmp("empty"), NULL, 0));
    s = read_str(io, ft_tmp("empty"));
    FT_EQ_STR(s, "");
    floe__free(s);
    floe_fileio_free(io);
}

static void test_local_read_bounds(void)
{
    floe_fileio *io;
    FT_OK(floe_fileio_local_new(&io));
    const char *path = ft_tmp("r.bin");
    FT_OK(floe_fileio_write_new(io, path, "0123456789", 10));
    floe_input *in;
    FT_OK(floe_fileio_open_input(&in, io, path));
    FT_EQ_INT(in->size, 10);
    char buf[16] = {0};
    FT_OK(in->read_at(in, 3, buf, 4));
    FT_EQ_STR(buf, "3456");
    FT_EQ_INT(in->read_at(in, 8, buf, 3), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("r.bin");
    FT_EQ_INT(in->read_at(in, -1, buf, 1), FLOE_ECORRUPT);
    FT_OK(in->read_at(in, 10, buf, 0));
    in->close(in);
    /* read_all enforces its cap before allocating */
    floe_buf b = FLOE_BUF_INIT;
    FT_EQ_INT(floe__io_read_all(io, path, 9, &b), FLOE_EINVALID);
    FT_ERR_CONTAINS("more than the 9 allowed");
    FT_OK(floe__io_read_all(io, path, 10, &b));
    FT_EQ_INT(b.len, 10);
    floe__buf_free(&b);
    floe_fileio_free(io);
}

static void test_local_partial_invisible(void)
{
    floe_fileio *io;
    FT_OK(floe_fileio_local_new(&io));
    const char *dir = ft_tmp("t/metadata");
    char path[4200];
    snprintf(path, sizeof path, "%s/v1.metadata.json", dir);
    floe_output *o;
    FT_OK(floe_fileio_create_output(&o, io, path));
    FT_OK(o->write(o, "{\"partial\":", 11));
    /* while being written: not there for stat, open or list */
    FT_EQ_INT(floe_fileio_exists(io, path), 0);
    floe_input *in;
    FT_EQ_INT(floe_fileio_open_input(&in, io, path), FLOE_ENOTFOUND);
    listing l = {0};
    FT_OK(floe_fileio_list(io, ft_tmp("t/"), collect, &l));
    FT_EQ_INT(l.n, 0);
    FT_OK(o->write(o, "1}", 2));
    FT_OK(o->commit(o));
    char *s = read_str(io, path);
    FT_EQ_STR(s, "{\"partial\":1}");
    floe__free(s);
    /* aborted: nothing left behind, not even the temporary file */
    char p2[4200];
    snprintf(p2, sizeof p2, "%s/v2.metadata.json", dir);
    FT_OK(floe_fileio_create_output(&o, io, p2));
    FT_OK(o->write(o, "xx", 2));
    FT_EQ_INT(count_dir_entries(dir), 2); /* v1 + the hidden temporary */
    o->abort(o);
    FT_EQ_INT(count_dir_entries(dir), 1);
    FT_EQ_INT(floe_fileio_exists(io, p2), 0);
    /* a create that loses at commit leaves nothing either */
    floe_output *a, *b;
    FT_OK(floe_fileio_create_output(&a, io, p2));
    FT_OK(floe_fileio_create_output(&b, io, p2));
    FT_OK(a->write(a, "A", 1));
    FT_OK(b->write(b, "B", 1));
    FT_OK(a->commit(a));
    FT_EQ_INT(b->commit(b), FLOE_EEXISTS);
    s = read_str(io, p2);
    FT_EQ_STR(s, "A");
    floe__free(s);
    FT_EQ_INT(count_dir_entries(dir), 2);
    floe_fileio_free(io);
}

/* N processes race to create one object: exactly one wins, and the object
 * holds exactly the winner's bytes. A pipe is the starting gate. */
static void test_local_create_race(void)
{
    enum { N = 8, SIZE = 256 * 1024 };
    const char *path = ft_tmp("race/obj");
    for (int round = 0; round < 3; round++) {
        char p[4200];
        snprintf(p, sizeof p, "%s%d", path, round);
        int gate[2];
        FT_ASSERT(pipe(gate) == 0);
        pid_t pids[N];
        for (int i = 0; i < N; i++) {
            pids[i] = fork();
            FT_ASSERT(pids[i] >= 0);
            if (pids[i] == 0) {
                close(gate[1]);
                floe_fileio *io;
                floe_output *o;
                if (floe_fileio_local_new(&io) < 0)
                    _exit(3);
                int rc = floe_fileio_create_output(&o, io, p);
                if (rc == FLOE_EEXISTS)
                    _exit(1);
                if (rc < 0)
                    _exit(3);
                static char buf[SIZE];
                memset(buf, 'a' + i, sizeof buf);
                if (o->write(o, buf, sizeof buf) < 0)
                    _exit(3);
                char c;
                while (read(gate[0], &c, 1) > 0) {
                }
                rc = o->commit(o);
                floe_fileio_free(io);
                _exit(rc == 0 ? 0 : rc == FLOE_EEXISTS ? 1 : 3);
            }
        }
        close(gate[0]);
        usleep(20000);
        close(gate[1]);
        int wins = 0, losses = 0;
        for (int i = 0; i < N; i++) {
            int st;
            waitpid(pids[i], &st, 0);
            int code = WIFEXITED(st) ? WEXITSTATUS(st) : 99;
            wins += code == 0;
            losses += code == 1;
        }
        FT_EQ_INT(wins, 1);
        FT_EQ_INT(losses, N - 1);
        size_t len;
        char *data = ft_read_file(p, &len);
        FT_ASSERT(data);
        FT_EQ_INT(len, SIZE);
        bool uniform = true;
        for (size_t k = 1; k < len; k++)
            uniform = uniform && data[k] == data[0];
        FT_CHECK(uniform);
        free(data);
    }
    /* no temporary files remain in the directory */
    FT_EQ_INT(count_dir_entries(ft_tmp("race")), 3);
}

static void test_local_list(void)
{
    floe_fileio *io;
    FT_OK(floe_fileio_local_new(&io));
    const char *names[] = {"w/a/x", "w/a/y/z", "w/a/yy", "w/b/q", "w/ab"};
    for (size_t i = 0; i < FT_N(names); i++)
        FT_OK(floe_fileio_write_new(io, ft_tmp(names[i]), names[i], strlen(names[i])));
    listing l = {0};
    FT_OK(floe_fileio_list(io, ft_tmp("w/a/"), collect, &l));
    FT_EQ_INT(l.n, 3);
    FT_EQ_STR(l.uris[0], ft_tmp("w/a/x"));
    FT_EQ_STR(l.uris[1], ft_tmp("w/a/y/z"));
    FT_EQ_STR(l.uris[2], ft_tmp("w/a/yy"));
    FT_EQ_INT(l.sizes[1], 7);
    /* a prefix that is not a directory boundary */
    memset(&l, 0, sizeof l);
    FT_OK(floe_fileio_list(io, ft_tmp("w/a"), collect, &l));
    FT_EQ_INT(l.n, 4); /* w/a/... and w/ab */
    FT_EQ_STR(l.uris[3], ft_tmp("w/ab"));
    memset(&l, 0, sizeof l);
    FT_OK(floe_fileio_list(io, ft_tmp("w/a/y"), collect, &l));
    FT_EQ_INT(l.n, 2);
    /* nothing there: nothing listed, no error */
    memset(&l, 0, sizeof l);
    FT_OK(floe_fileio_list(io, ft_tmp("absent/"), collect, &l));
    FT_EQ_INT(l.n, 0);
    /* file: URIs come back as file: URIs */
    char pre[4200];
    snprintf(pre, sizeof pre, "file://%s", ft_tmp("w/b/"));
    memset(&l, 0, sizeof l);
    FT_OK(floe_fileio_list(io, pre, collect, &l));
    FT_EQ_INT(l.n, 1);
    char want[4200];
    snprintf(want, sizeof want, "file://%s", ft_tmp("w/b/q"));
    FT_EQ_STR(l.uris[0], want);
    /* symlinks: to a file lists as a file; a directory loop is not followed */
    FT_ASSERT(symlink(ft_tmp("w/a/x"), ft_tmp("w/link")) == 0);
    FT_ASSERT(symlink(ft_tmp("w"), ft_tmp("w/loop")) == 0);
    memset(&l, 0, sizeof l);
    FT_OK(floe_fileio_list(io, ft_tmp("w/"), collect, &l));
    FT_EQ_INT(l.n, 6);
    FT_EQ_STR(l.uris[5], ft_tmp("w/link"));
    FT_EQ_INT(l.sizes[5], 5);
    /* the callback can stop the listing */
    int calls = 0;
    FT_EQ_INT(floe_fileio_list(io, ft_tmp("w/"), stop_at_first, &calls), -42);
    FT_EQ_INT(calls, 1);
    floe_fileio_free(io);
}

static void test_local_remove_batch(void)
{
    floe_fileio *io;
    FT_OK(floe_fileio_local_new(&io));
    char a[4200], b[4200], c[4200];
    snprintf(a, sizeof a, "%s", ft_tmp("rm/a"));
    snprintf(b, sizeof b, "%s", ft_tmp("rm/sub/b"));
    snprintf(c, sizeof c, "%s", ft_tmp("rm/missing"));
    FT_OK(floe_fileio_write_new(io, a, "1", 1));
    FT_OK(floe_fileio_write_new(io, b, "2", 1));
    const char *batch[] = {a, c, b};
    FT_OK(floe_fileio_remove(io, batch, 3));
    FT_EQ_INT(floe_fileio_exists(io, a), 0);
    FT_EQ_INT(floe_fileio_exists(io, b), 0);
    FT_OK(floe_fileio_remove(io, batch, 0));
    /* a failure is reported, the rest still removed */
    FT_OK(floe_fileio_write_new(io, a, "1", 1));
    const char *bad[] = {ft_tmp("rm"), a}; /* a directory cannot be unlinked */
    FT_CHECK(floe_fileio_remove(io, bad, 2) < 0);
    FT_EQ_INT(floe_fileio_exists(io, a), 0);
    floe_fileio_free(io);
}

/* ---------------------------------------------------------------- memory */

static void test_memory(void)
{
    floe_fileio *io;
    FT_OK(floe_fileio_open(&io, "mem://", NULL));
    FT_OK(floe_fileio_write_new(io, "mem://t/metadata/v1.json", "{}", 2));
    FT_OK(floe_fileio_write_new(io, "mem://t/data/a.parquet", "PAR1", 4));
    FT_OK(floe_fileio_write_new(io, "mem://t/data/b.parquet", "PAR1PAR1", 8));
    FT_OK(floe_fileio_write_new(io, "mem://u/x", "x", 1));
    FT_EQ_INT(floe_fileio_write_new(io, "mem://t/data/a.parquet", "no", 2), FLOE_EEXISTS);
    /* uncommitted output invisible; losing commit fails */
    floe_output *o1, *o2;
    FT_OK(floe_fileio_create_output(&o1, io, "mem://t/c"));
    FT_OK(floe_fileio_create_output(&o2, io, "mem://t/c"));
    FT_OK(o1->write(o1, "one", 3));
    FT_EQ_INT(floe_fileio_exists(io, "mem://t/c"), 0);
    FT_OK(o1->commit(o1));
    FT_EQ_INT(o2->commit(o2), FLOE_EEXISTS);
    listing l = {0};
    FT_OK(floe_fileio_list(io, "mem://t/", collect, &l));
    FT_EQ_INT(l.n, 4);
    FT_EQ_STR(l.uris[0], "mem://t/c");
    FT_EQ_STR(l.uris[1], "mem://t/data/a.parquet");
    FT_EQ_STR(l.uris[2], "mem://t/data/b.parquet");
    FT_EQ_STR(l.uris[3], "mem://t/metadata/v1.json");
    FT_EQ_INT(l.sizes[2], 8);
    /* an open input survives removal of its object */
    floe_input *in;
    FT_OK(floe_fileio_open_input(&in, io, "mem://t/data/b.parquet"));
    const char *rm[] = {"mem://t/data/a.parquet", "mem://t/data/b.parquet", "mem://nope"};
    FT_OK(floe_fileio_remove(io, rm, 3));
    char buf[9] = {0};
    FT_OK(in->read_at(in, 0, buf, 8));
    FT_EQ_STR(buf, "PAR1PAR1");
    FT_EQ_INT(in->read_at(in, 4, buf, 5), FLOE_ECORRUPT);
    in->close(in);
    memset(&l, 0, sizeof l);
    FT_OK(floe_fileio_list(io, "mem://t/data/", collect, &l));
    FT_EQ_INT(l.n, 0);
    floe_file_info info;
    FT_OK(floe_fileio_stat(&info, io, "mem://u/x"));
    FT_EQ_INT(info.size, 1);
    FT_EQ_INT(floe_fileio_stat(&info, io, "mem://u/y"), FLOE_ENOTFOUND);
    floe_fileio_free(io);
}

/* ---------------------------------------------------------------- fault injection */

/* A small "commit": write an object, read it back, list, remove. */
static int workload(floe_fileio *io, const char *base)
{
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a", base);
    snprintf(b, sizeof b, "%s/b", base);
    FLOE_TRY(floe__io_write_new(io, a, "alpha", 5));
    floe_buf buf = FLOE_BUF_INIT;
    int rc = floe__io_read_all(io, a, 100, &buf);
    floe__buf_free(&buf);
    FLOE_TRY(rc);
    FLOE_TRY(floe__io_write_new(io, b, "beta", 4));
    listing l = {0};
    char pre[512];
    snprintf(pre, sizeof pre, "%s/", base);
    FLOE_TRY(floe_fileio_list(io, pre, collect, &l));
    if (l.n != 2)
        return floe__error(FLOE_ERROR, "test", "listed %d objects under %s", l.n, pre);
    floe_file_info info;
    FLOE_TRY(floe_fileio_stat(&info, io, b));
    const char *rm[] = {a, b};
    return floe_fileio_remove(io, rm, 2);
}

static void test_fault_nth(void)
{
    floe_fileio *mem, *io;
    FT_OK(floe_fileio_memory_new(&mem));
    FT_OK(floe__fileio_fault_new(&io, mem, NULL));
    FT_OK(workload(io, "mem://w0"));
    long total = floe__fileio_fault_count(io);
    /* create a, write, commit, open, read, create b, write, commit, list, stat, remove */
    FT_EQ_INT(total, 11);
    for (long n = 1; n <= total; n++) {
        floe_fault_options fo = FLOE_FAULT_OPTIONS_INIT;
        fo.fail_nth = n;
        floe__fileio_fault_set(io, &fo);
        char base[64];
        snprintf(base, sizeof base, "mem://w%ld", n);
        int rc = workload(io, base);
        FT_EQ_INT(rc, FLOE_EIO);
        FT_ERR_CONTAINS("injected failure");
        FT_EQ_INT(floe__fileio_fault_injected(io), 1);
    }
    floe_fileio_free(io);
}

static void test_fault_kinds(void)
{
    floe_fileio *mem, *io;
    FT_OK(floe_fileio_memory_new(&mem));
    floe_fault_options fo = FLOE_FAULT_OPTIONS_INIT;
    fo.fail_ops = FLOE_IO_OP_COMMIT;
    FT_OK(floe__fileio_fault_new(&io, mem, &fo));
    FT_EQ_INT(floe__io_write_new(io, "mem://k/a", "x", 1), FLOE_EIO);
    FT_ERR_CONTAINS("injected failure: commit mem://k/a");
    FT_EQ_INT(floe__io_write_new(io, "mem://k/b", "x", 1), FLOE_EIO);
    /* failed commits leave nothing */
    fo.fail_ops = 0;
    floe__fileio_fault_set(io, &fo);
    FT_EQ_INT(floe_fileio_exists(io, "mem://k/a"), 0);
    /* `after`: the write lands but is reported failed (unknown outcome) */
    fo.fail_ops = FLOE_IO_OP_COMMIT;
    fo.after = true;
    floe__fileio_fault_set(io, &fo);
    FT_EQ_INT(floe__io_write_new(io, "mem://k/c", "x", 1), FLOE_EIO);
    fo.fail_ops = FLOE_IO_OP_READ | FLOE_IO_OP_LIST;
    fo.after = false;
    floe__fileio_fault_set(io, &fo);
    FT_EQ_INT(floe_fileio_exists(io, "mem://k/c"), 1);
    floe_buf b = FLOE_BUF_INIT;
    FT_EQ_INT(floe__io_read_all(io, "mem://k/c", 10, &b), FLOE_EIO);
    FT_ERR_CONTAINS("injected failure: read");
    floe__buf_free(&b);
    listing l = {0};
    FT_EQ_INT(floe_fileio_list(io, "mem://", collect, &l), FLOE_EIO);
    fo.fail_ops = FLOE_IO_OP_REMOVE | FLOE_IO_OP_STAT | FLOE_IO_OP_OPEN | FLOE_IO_OP_CREATE |
                  FLOE_IO_OP_WRITE;
    floe__fileio_fault_set(io, &fo);
    const char *rm[] = {"mem://k/c"};
    FT_EQ_INT(floe_fileio_remove(io, rm, 1), FLOE_EIO);
    FT_EQ_INT(floe_fileio_exists(io, "mem://k/c"), FLOE_EIO);
    floe_input *in;
    FT_EQ_INT(floe_fileio_open_input(&in, io, "mem://k/c"), FLOE_EIO);
    FT_EQ_INT(floe__io_write_new(io, "mem://k/d", "x", 1), FLOE_EIO);
    FT_EQ_INT(floe__fileio_fault_injected(io), 4); /* create fails before write */
    floe_fileio_free(io);
}

/* ---------------------------------------------------------------- location map */

static void test_location_map(void)
{
    char spec[9000];
    snprintf(spec, sizeof spec, "s3a://bucket/wh=%s , s3a://bucket/wh/special=%s",
             ft_tmp("local-wh"), ft_tmp("special"));
    floe_props conf = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&conf, "io.location-map", spec));
    floe_fileio *io;
    FT_OK(floe_fileio_open(&io, "s3a://bucket/wh/db/t", &conf));
    FT_OK(floe_fileio_write_new(io, "s3a://bucket/wh/db/t/metadata/v1.json", "{}", 2));
    FT_OK(floe_fileio_write_new(io, "s3a://bucket/wh/special/x", "sp", 2));
    /* the bytes live where the map says */
    size_t len;
    char *data = ft_read_file(ft_tmp("local-wh/db/t/metadata/v1.json"), &len);
    FT_ASSERT(data);
    FT_EQ_INT(len, 2);
    free(data);
    data = ft_read_file(ft_tmp("special/x"), &len); /* longest prefix won */
    FT_ASSERT(data);
    free(data);
    /* listing returns the original locations */
    listing l = {0};
    FT_OK(floe_fileio_list(io, "s3a://bucket/wh/db/", collect, &l));
    FT_EQ_INT(l.n, 1);
    FT_EQ_STR(l.uris[0], "s3a://bucket/wh/db/t/metadata/v1.json");
    floe_file_info info;
    FT_OK(floe_fileio_stat(&info, io, "s3a://bucket/wh/special/x"));
    FT_EQ_STR(info.uri, "s3a://bucket/wh/special/x");
    FT_EQ_INT(info.size, 2);
    char *mapped;
    FT_OK(floe__fileio_map_location(io, "s3a://bucket/wh/a/b", &mapped));
    FT_EQ_STR(mapped, ft_tmp("local-wh/a/b"));
    floe__free(mapped);
    const char *rm[] = {"s3a://bucket/wh/special/x"};
    FT_OK(floe_fileio_remove(io, rm, 1));
    FT_CHECK(access(ft_tmp("special/x"), F_OK) != 0);
    /* unmapped locations still dispatch by scheme */
    FT_OK(floe_fileio_write_new(io, "mem://scratch/a", "m", 1));
    FT_EQ_INT(floe_fileio_exists(io, "mem://scratch/a"), 1);
#ifndef FLOE_HAVE_S3
    FT_EQ_INT(floe_fileio_exists(io, "s3://other/x"), FLOE_EUNSUPPORTED);
#endif
    floe_fileio_free(io);
    /* bad specs */
    floe__props_set(&conf, "io.location-map", "s3a://x");
    FT_EQ_INT(floe_fileio_open(&io, "file", &conf), FLOE_EINVALID);
    FT_ERR_CONTAINS("expected from=to");
    floe__props_set(&conf, "io.location-map", "a=,b=c");
    FT_EQ_INT(floe_fileio_open(&io, "file", &conf), FLOE_EINVALID);
    FT_ERR_CONTAINS("empty side");
    floe__props_free(&conf);
}

/* A real table keeps its writer's locations: map them onto the fixture copy
 * and read every manifest list the metadata names, by its original URI. */
static void test_location_map_fixture(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    char spec[4200];
    snprintf(spec, sizeof spec, "s3a://hyperparam-iceberg/spark/bunnies=%s",
             ft_path(sh, "fixtures/spark_bunnies"));
    floe_props conf = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&conf, "io.location-map", spec));
    floe_fileio *io;
    FT_OK(floe_fileio_open(&io, "s3a://hyperparam-iceberg/spark/bunnies", &conf));
    floe__props_free(&conf);
    const char *base = "s3a://hyperparam-iceberg/spark/bunnies/metadata/";
    char uri[512];
    snprintf(uri, sizeof uri, "%sversion-hint.text", base);
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__io_read_all(io, uri, 64, &b));
    FT_CHECK(b.len >= 1 && b.ptr[0] == '5');
    floe__buf_clear(&b);
    snprintf(uri, sizeof uri, "%sv5.metadata.json", base);
    FT_OK(floe__io_read_all(io, uri, 1 << 20, &b));
    /* every "manifest-list" location in the metadata opens through the map */
    int lists = 0;
    for (const char *p = b.ptr; (p = strstr(p, "\"manifest-list\" : \"")) != NULL;) {
        p += strlen("\"manifest-list\" : \"");
        const char *end = strchr(p, '"');
        FT_ASSERT(end && (size_t)(end - p) < sizeof uri);
        snprintf(uri, sizeof uri, "%.*s", (int)(end - p), p);
        floe_file_info info;
        FT_OK(floe_fileio_stat(&info, io, uri));
        FT_CHECK(info.size > 0);
        lists++;
        p = end;
    }
    FT_EQ_INT(lists, 3);
    floe__buf_free(&b);
    /* listing reports the writer's URIs */
    listing l = {0};
    FT_OK(floe_fileio_list(io, "s3a://hyperparam-iceberg/spark/bunnies/data/", collect, &l));
    FT_EQ_INT(l.n, 3);
    FT_CHECK(strncmp(l.uris[0], "s3a://hyperparam-iceberg/spark/bunnies/data/00000-", 50) == 0);
    floe_fileio_free(io);
}

static void test_dispatch(void)
{
    floe_fileio *io = NULL;
    FT_EQ_INT(floe_fileio_open(&io, "gs://bucket/x", NULL), FLOE_EUNSUPPORTED);
    FT_ERR_CONTAINS("scheme 'gs'");
    FT_CHECK(io == NULL);
#ifndef FLOE_HAVE_S3
    FT_EQ_INT(floe_fileio_open(&io, "s3://bucket/x", NULL), FLOE_EUNSUPPORTED);
    FT_ERR_CONTAINS("S3 support not built");
    FT_EQ_INT(floe_fileio_open(&io, "s3a", NULL), FLOE_EUNSUPPORTED);
#endif
    FT_OK(floe_fileio_open(&io, "mem", NULL));
    FT_OK(floe_fileio_write_new(io, "mem://a", "1", 1));
    floe_fileio_free(io);
    FT_OK(floe_fileio_open(&io, "relative/path", NULL));
    floe_fileio_free(io);
    FT_OK(floe_fileio_open(&io, "FILE:///x", NULL));
    floe_fileio_free(io);
    FT_EQ_INT(floe_fileio_open(&io, NULL, NULL), FLOE_EINVALID);
}

/* ---------------------------------------------------------------- OOM */

static void test_oom(void)
{
    const char *base = ft_tmp("oom");
    int rc = -1;
    long n;
    for (n = 1; n < 10000; n++) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/%ld", base, n);
        floe__alloc_fail_at(n);
        floe_fileio *io = NULL;
        rc = floe_fileio_open(&io, dir, NULL);
        if (rc == 0)
            rc = workload(io, dir);
        floe_fileio_free(io);
        floe_fileio *mem = NULL, *mapped = NULL;
        if (rc == 0)
            rc = floe_fileio_memory_new(&mem);
        if (rc == 0)
            rc = floe_fileio_map_new(&mapped, mem, "s3://b/=mem://x/,s3://c=mem://y");
        if (rc == 0)
            rc = workload(mapped, "s3://b/w");
        floe_fileio_free(mapped);
        floe__alloc_fail_at(0);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "allocation %ld: rc %d: %s", n, rc, ft_floe_err());
            return;
        }
    }
    if (rc != 0)
        ft_fail(__FILE__, __LINE__, "still failing after %ld: %s", n, ft_floe_err());
    FT_CHECK(n > 10);
}

static const ft_case cases[] = {
    {"local_roundtrip", test_local_roundtrip},
    {"local_read_bounds", test_local_read_bounds},
    {"local_partial_invisible", test_local_partial_invisible},
    {"local_create_race", test_local_create_race},
    {"local_list", test_local_list},
    {"local_remove_batch", test_local_remove_batch},
    {"memory", test_memory},
    {"fault_nth", test_fault_nth},
    {"fault_kinds", test_fault_kinds},
    {"location_map", test_location_map},
    {"location_map_fixture", test_location_map_fixture},
    {"dispatch", test_dispatch},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
