/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/input: minimal floe_input implementations over a memory buffer
 * and a local file (pread), for tests, fuzzers, benchmarks and `floe
 * inspect`. Tables read through the io module's FileIO instead.
 */
#include "parquet/parquet.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct mem_input {
    floe_input in;
    const uint8_t *data;
    char *name;
} mem_input;

static int mem_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    mem_input *m = (mem_input *)in;
    if (offset < 0 || offset > in->size || (int64_t)len > in->size - offset)
        return floe__error(FLOE_ECORRUPT, "parquet", "read of %zu bytes at offset %lld past end of %s",
                           len, (long long)offset, in->uri);
    memcpy(buf, m->data + offset, len);
    return 0;
}

static void mem_close(floe_input *in)
{
    mem_input *m = (mem_input *)in;
    floe__free(m->name);
    floe__free(m);
}

int floe__pq_input_memory(floe_input **out, const void *data, size_t len, const char *name)
{
    mem_input *m = floe__calloc(1, sizeof(*m));
    if (!m)
        return floe__error_nomem();
    m->name = floe__strdup(name ? name : "memory");
    if (!m->name) {
        floe__free(m);
        return floe__error_nomem();
    }
    m->data = data;
    m->in.uri = m->name;
    m->in.size = (int64_t)len;
    m->in.read_at = mem_read_at;
    m->in.close = mem_close;
    *out = &m->in;
    return 0;
}

typedef struct file_input {
    floe_input in;
    int fd;
    char *path;
} file_input;

static int file_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    file_input *f = (file_input *)in;
    if (offset < 0 || offset > in->size || (int64_t)len > in->size - offset)
        return floe__error(FLOE_ECORRUPT, "parquet", "read of %zu bytes at offset %lld past end of %s",
                           len, (long long)offset, in->uri);
    size_t done = 0;
    while (done < len) {
        ssize_t r = pread(f->fd, (char *)buf + done, len - done, (off_t)(offset + (int64_t)done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return floe__error(r == 0 ? FLOE_ECORRUPT : FLOE_EIO, "io", "short read at %lld in %s",
                               (long long)(offset + (int64_t)done), in->uri);
        done += (size_t)r;
    }
    return 0;
}

static void file_close(floe_input *in)
{
    file_input *f = (file_input *)in;
    close(f->fd);
    floe__free(f->path);
    floe__free(f);
}

int floe__pq_input_file(floe_input **out, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return floe__error(errno == ENOENT ? FLOE_ENOTFOUND : FLOE_EIO, "io", "cannot open %s: %s",
                           path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return floe__error(FLOE_EIO, "io", "cannot stat %s", path);
    }
    file_input *f = floe__calloc(1, sizeof(*f));
    char *p = floe__strdup(path);
    if (!f || !p) {
        floe__free(f);
        floe__free(p);
        close(fd);
        return floe__error_nomem();
    }
    f->fd = fd;
    f->path = p;
    f->in.uri = p;
    f->in.size = st.st_size;
    f->in.read_at = file_read_at;
    f->in.close = file_close;
    *out = &f->in;
    return 0;
}
