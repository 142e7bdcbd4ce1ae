/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Local-file FileIO backend: plain paths and file: URIs with object-store
 * semantics. A new object is written to a hidden temporary file next to its
 * target, fsynced, then published with link() (or renameat2 with
 * RENAME_NOREPLACE where hard links are unavailable), which fails if the
 * target exists — so readers never see a partial file and nothing is ever
 * overwritten. The directory is fsynced after publishing so the new name
 * survives a crash. Directories are created as needed and never reported:
 * listing walks them recursively and yields files only.
 *
 * Temporary files are named ".<name>.floe-tmp-<uuid>"; like an unfinished
 * multipart upload on S3 they are not listed. A crash can leave one behind.
 */
#include "io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define TMP_MARK ".floe-tmp-"
#define MAX_LIST_DEPTH 64

static int io_errno(int err, const char *what, const char *path)
{
    if (err == ENOENT || err == ENOTDIR)
        return floe__error(FLOE_ENOTFOUND, "io", "%s %s: not found", what, path);
    if (err == ENOMEM)
        return floe__error(FLOE_ENOMEM, "io", "%s %s: out of memory", what, path);
    return floe__error(FLOE_EIO, "io", "%s %s: %s", what, path, strerror(err));
}

const char *floe__local_path(const char *uri)
{
    if (strncmp(uri, "file:", 5) != 0)
        return uri;
    const char *p = uri + 5;
    if (p[0] == '/' && p[1] == '/') {
        p += 2;
        if (strncmp(p, "localhost/", 10) == 0)
            p += 9;
        else if (*p != '/') {
            floe__error(FLOE_EUNSUPPORTED, "io", "file URI with a host is not supported: %s", uri);
            return NULL;
        }
    }
    if (*p == '\0') {
        floe__error(FLOE_EINVALID, "io", "empty file URI: %s", uri);
        return NULL;
    }
    return p;
}

/* ---------------------------------------------------------------- input */

typedef struct local_input {
    floe_input base;
    int fd;
    char *path;
} local_input;

static int local_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    local_input *li = (local_input *)in;
    if (offset < 0 || (uint64_t)offset > (uint64_t)in->size || len > (uint64_t)(in->size - offset))
        return floe__error(FLOE_ECORRUPT, "io",
                           "read of %zu bytes at offset %lld is past the end of %s (%lld bytes)",
                           len, (long long)offset, in->uri, (long long)in->size);
    char *p = buf;
    while (len > 0) {
        ssize_t n = pread(li->fd, p, len, (off_t)offset);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return io_errno(errno, "reading", in->uri);
        }
        if (n == 0)
            return floe__error(FLOE_ECORRUPT, "io", "unexpected end of file at offset %lld in %s",
                               (long long)offset, in->uri);
        p += n;
        len -= (size_t)n;
        offset += n;
    }
    return 0;
}

static void local_close(floe_input *in)
{
    local_input *li = (local_input *)in;
    if (!li)
        return;
    close(li->fd);
    floe__free(li->path);
    floe__free((char *)in->uri);
    floe__free(li);
}

static int local_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    FLOE_UNUSED(io);
    *out = NULL;
    const char *path = floe__local_path(uri);
    if (!path)
        return floe__error_code();
    local_input *li = floe__calloc(1, sizeof *li);
    if (!li)
        return FLOE_ENOMEM;
    li->fd = -1;
    li->base.uri = floe__strdup(uri);
    if (!li->base.uri) {
        floe__free(li);
        return FLOE_ENOMEM;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int rc = io_errno(errno, "opening", uri);
        floe__free((char *)li->base.uri);
        floe__free(li);
        return rc;
    }
    struct stat st;
    int st_rc = fstat(fd, &st);
    if (st_rc != 0 || !S_ISREG(st.st_mode)) {
        int rc = st_rc != 0
                     ? io_errno(errno, "opening", uri)
                     : floe__error(FLOE_ENOTFOUND, "io", "opening %s: not found (not a file)", uri);
        close(fd);
        floe__free((char *)li->base.uri);
        floe__free(li);
        return rc;
    }
    li->fd = fd;
    li->base.size = (int64_t)st.st_size;
    li->base.read_at = local_read_at;
    li->base.close = local_close;
    *out = &li->base;
    return 0;
}

/* ---------------------------------------------------------------- directories */

/* fsync the directory holding `path`, so a new name in it is durable. */
static int sync_parent(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir =
        slash ? floe__strndup(path, slash == path ? 1 : (size_t)(slash - path)) : floe__strdup(".");
    if (!dir)
        return FLOE_ENOMEM;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = 0;
    if (fd < 0)
        rc = io_errno(errno, "opening directory", dir);
    else {
        if (fsync(fd) != 0 && errno != EINVAL)
            rc = io_errno(errno, "syncing directory", dir);
        close(fd);
    }
    floe__free(dir);
    return rc;
}

/* Create every missing directory above `path` (its last component is a file). */
static int make_parents(const char *path)
{
    char *dir = floe__strdup(path);
    if (!dir)
        return FLOE_ENOMEM;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) {
        floe__free(dir);
        return 0;
    }
    *slash = '\0';
    struct stat st;
    if (stat(dir, &st) == 0) {
        floe__free(dir);
        return S_ISDIR(st.st_mode) ? 0 : floe__error(FLOE_EIO, "io", "%s is not a directory", path);
    }
    for (char *p = dir + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(dir, 0777) == 0) {
                /* The new directory's name must survive a crash too. */
                int rc = sync_parent(dir);
                if (rc < 0) {
                    floe__free(dir);
                    return rc;
                }
            } else if (errno != EEXIST) {
                int rc = io_errno(errno, "creating directory", dir);
                floe__free(dir);
                return rc;
            }
            *p = c;
            if (c == '\0')
                break;
        }
    }
    floe__free(dir);
    return 0;
}

/* ---------------------------------------------------------------- output */

typedef struct local_output {
    floe_output base;
    int fd;
    char *path;
    char *tmp;
} local_output;

static void output_free(local_output *lo)
{
    if (lo->fd >= 0)
        close(lo->fd);
    if (lo->tmp)
        unlink(lo->tmp);
    floe__free(lo->tmp);
    floe__free(lo->path);
    floe__free((char *)lo->base.uri);
    floe__free(lo);
}

static int local_write(floe_output *out, const void *data, size_t len)
{
    local_output *lo = (local_output *)out;
    if (lo->fd < 0)
        return floe__error(FLOE_EINVALID, "io", "write to a finished output %s", out->uri);
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(lo->fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return io_errno(errno, "writing", out->uri);
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Publish tmp under path without ever replacing an existing file. */
static int publish(const char *tmp, const char *path, const char *uri)
{
    if (link(tmp, path) == 0)
        return 0;
    int err = errno;
    if (err == EEXIST)
        return floe__error(FLOE_EEXISTS, "io", "Cannot create %s: already exists", uri);
    if (err != EPERM && err != EOPNOTSUPP && err != EMLINK && err != ENOSYS)
        return io_errno(err, "publishing", uri);
    /* No hard links on this file system: an exclusive rename does the same. */
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 1; /* tmp is gone */
    if (errno == EEXIST)
        return floe__error(FLOE_EEXISTS, "io", "Cannot create %s: already exists", uri);
    return io_errno(errno, "publishing", uri);
}

static int local_commit(floe_output *out)
{
    local_output *lo = (local_output *)out;
    int rc = 0;
    if (fsync(lo->fd) != 0)
        rc = io_errno(errno, "syncing", out->uri);
    if (close(lo->fd) != 0 && rc == 0)
        rc = io_errno(errno, "closing", out->uri);
    lo->fd = -1;
    if (rc == 0) {
        rc = publish(lo->tmp, lo->path, out->uri);
        if (rc == 1) {
            floe__free(lo->tmp);
            lo->tmp = NULL;
            rc = 0;
        }
        if (rc == 0)
            rc = sync_parent(lo->path);
    }
    output_free(lo); /* unlinks the temporary name */
    return rc;
}

static void local_abort(floe_output *out)
{
    if (out)
        output_free((local_output *)out);
}

static int local_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    FLOE_UNUSED(io);
    *out = NULL;
    const char *path = floe__local_path(uri);
    if (!path)
        return floe__error_code();
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (*base == '\0')
        return floe__error(FLOE_EINVALID, "io", "Cannot create %s: no object name", uri);
    /* Fail early when the object is already there (commit checks again). */
    struct stat st;
    if (lstat(path, &st) == 0)
        return floe__error(FLOE_EEXISTS, "io", "Cannot create %s: already exists", uri);

    local_output *lo = floe__calloc(1, sizeof *lo);
    if (!lo)
        return FLOE_ENOMEM;
    lo->fd = -1;
    char uuid[37];
    int rc = floe__uuid4(uuid);
    if (rc < 0)
        goto fail;
    lo->base.uri = floe__strdup(uri);
    lo->path = floe__strdup(path);
    lo->tmp = floe__sprintf("%.*s.%s" TMP_MARK "%s", (int)(base - path), path, base, uuid);
    if (!lo->base.uri || !lo->path || !lo->tmp) {
        rc = FLOE_ENOMEM;
        goto fail;
    }
    rc = make_parents(path);
    if (rc < 0)
        goto fail;
    lo->fd = open(lo->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (lo->fd < 0) {
        rc = io_errno(errno, "creating", uri);
        floe__free(lo->tmp);
        lo->tmp = NULL;
        goto fail;
    }
    lo->base.write = local_write;
    lo->base.commit = local_commit;
    lo->base.abort = local_abort;
    *out = &lo->base;
    return 0;
fail:
    output_free(lo);
    return rc;
}

/* ---------------------------------------------------------------- remove, stat */

static int local_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    FLOE_UNUSED(io);
    int first = 0;
    for (size_t i = 0; i < n; i++) {
        const char *path = floe__local_path(uris[i]);
        int rc = 0;
        if (!path)
            rc = floe__error_code();
        else if (unlink(path) != 0 && errno != ENOENT)
            rc = io_errno(errno, "removing", uris[i]);
        if (rc < 0 && first == 0)
            first = rc;
    }
    if (first < 0)
        floe__error_context("removing %zu object(s)", n);
    return first;
}

static int local_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    FLOE_UNUSED(io);
    const char *path = floe__local_path(uri);
    if (!path)
        return floe__error_code();
    struct stat st;
    if (stat(path, &st) != 0)
        return io_errno(errno, "stat", uri);
    if (!S_ISREG(st.st_mode))
        return floe__error(FLOE_ENOTFOUND, "io", "stat %s: not found (not a file)", uri);
    out->uri = uri;
    out->size = (int64_t)st.st_size;
    out->mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
    return 0;
}

/* ---------------------------------------------------------------- list */

typedef struct list_ctx {
    const char *prefix; /* the caller's prefix (URI form) */
    size_t head_len;    /* bytes of `prefix` before the local path */
    const char *path_prefix;
    int (*cb)(const floe_file_info *info, void *payload);
    void *payload;
    floe_buf uri;
} list_ctx;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(list_ctx *ctx, floe_buf *dir, int depth)
{
    if (depth > MAX_LIST_DEPTH)
        return floe__error(FLOE_EIO, "io", "listing %s: directories nested too deep", ctx->prefix);
    DIR *d = opendir(dir->len ? dir->ptr : ".");
    if (!d) {
        if (errno == ENOENT || errno == ENOTDIR)
            return 0;
        return io_errno(errno, "listing", dir->ptr);
    }
    floe_vec names = FLOE_VEC_INIT(char *);
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strstr(e->d_name, TMP_MARK))
            continue;
        char **slot = floe__vec_push(&names);
        if (!slot || !(*slot = floe__strdup(e->d_name))) {
            if (slot)
                names.len--;
            rc = FLOE_ENOMEM;
            break;
        }
    }
    closedir(d);
    if (rc == 0 && names.len > 1)
        qsort(names.items, names.len, sizeof(char *), cmp_str);
    size_t plen = strlen(ctx->path_prefix);
    size_t base_len = dir->len;
    for (size_t i = 0; rc == 0 && i < names.len; i++) {
        const char *name = *(char **)floe__vec_at(&names, i);
        dir->len = base_len;
        if (base_len && dir->ptr[base_len - 1] != '/')
            rc = floe__buf_putc(dir, '/');
        if (rc == 0)
            rc = floe__buf_puts(dir, name);
        if (rc < 0)
            break;
        /* Only entries that can still match the prefix are visited. */
        size_t cmp = dir->len < plen ? dir->len : plen;
        if (strncmp(dir->ptr, ctx->path_prefix, cmp) != 0)
            continue;
        struct stat st;
        if (lstat(dir->ptr, &st) != 0)
            continue; /* removed meanwhile */
        /* A symlink to a file lists as that file; symlinked directories are
         * not followed (no cycles). */
        if (S_ISLNK(st.st_mode) && (stat(dir->ptr, &st) != 0 || !S_ISREG(st.st_mode)))
            continue;
        if (S_ISDIR(st.st_mode)) {
            rc = walk(ctx, dir, depth + 1);
        } else if (S_ISREG(st.st_mode) && dir->len >= plen) {
            floe__buf_clear(&ctx->uri);
            rc = floe__buf_put(&ctx->uri, ctx->prefix, ctx->head_len);
            if (rc == 0)
                rc = floe__buf_puts(&ctx->uri, dir->ptr);
            if (rc < 0)
                break;
            floe_file_info info = {ctx->uri.ptr, (int64_t)st.st_size,
                                   (int64_t)st.st_mtim.tv_sec * 1000 +
                                       st.st_mtim.tv_nsec / 1000000};
            rc = ctx->cb(&info, ctx->payload);
        }
    }
    dir->len = base_len;
    if (dir->ptr)
        dir->ptr[base_len] = '\0';
    for (size_t i = 0; i < names.len; i++)
        floe__free(*(char **)floe__vec_at(&names, i));
    floe__vec_free(&names);
    return rc;
}

static int local_list(floe_fileio *io, const char *prefix,
                      int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    FLOE_UNUSED(io);
    const char *path = floe__local_path(prefix);
    if (!path)
        return floe__error_code();
    list_ctx ctx = {prefix, (size_t)(path - prefix), path, cb, payload, FLOE_BUF_INIT};
    /* Walk from the deepest directory the prefix names completely. */
    floe_buf dir = FLOE_BUF_INIT;
    const char *slash = strrchr(path, '/');
    int rc = 0;
    if (slash)
        rc = floe__buf_put(&dir, path, slash == path ? 1 : (size_t)(slash - path));
    if (rc == 0)
        rc = walk(&ctx, &dir, 0);
    floe__buf_free(&dir);
    floe__buf_free(&ctx.uri);
    return rc;
}

static void local_free(floe_fileio *io)
{
    floe__free(io);
}

static const floe_fileio_ops local_ops = {FLOE_FILEIO_OPS_VERSION,
                                          local_open_input,
                                          local_create_output,
                                          local_remove,
                                          local_list,
                                          local_stat,
                                          local_free};

int floe__fileio_local_new(floe_fileio **out)
{
    floe_fileio *io = floe__calloc(1, sizeof *io);
    *out = io;
    if (!io)
        return FLOE_ENOMEM;
    io->ops = &local_ops;
    return 0;
}
