/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fault-injection FileIO wrapper (tests). Every operation — open, read,
 * create, write, commit, remove, list, stat — is counted; the Nth one, or
 * every one of chosen kinds, fails with FLOE_EIO instead of reaching the
 * wrapped backend. With `after`, the operation is performed first and then
 * reported failed, which models a lost acknowledgement (the caller cannot
 * tell whether it happened). Crash-safety tests loop N = 1.. over a commit
 * until the count shows every step was covered.
 */
#include "io.h"

#include <stdatomic.h>
#include <string.h>

typedef struct fault {
    floe_fileio *inner;
    _Atomic long count;
    _Atomic long injected;
    long fail_nth;
    unsigned fail_ops;
    bool after;
} fault;

static const char *op_name(unsigned op)
{
    switch (op) {
    case FLOE_IO_OP_OPEN: return "open";
    case FLOE_IO_OP_READ: return "read";
    case FLOE_IO_OP_CREATE: return "create";
    case FLOE_IO_OP_WRITE: return "write";
    case FLOE_IO_OP_COMMIT: return "commit";
    case FLOE_IO_OP_REMOVE: return "remove";
    case FLOE_IO_OP_LIST: return "list";
    default: return "stat";
    }
}

/* Count one operation; true if it must fail. */
static bool should_fail(fault *f, unsigned op)
{
    long n = atomic_fetch_add(&f->count, 1) + 1;
    bool fail = (f->fail_nth > 0 && n == f->fail_nth) || (f->fail_ops & op);
    if (fail)
        atomic_fetch_add(&f->injected, 1);
    return fail;
}

static int injected(unsigned op, const char *uri)
{
    return floe__error(FLOE_EIO, "io", "injected failure: %s %s", op_name(op), uri ? uri : "");
}

/* ---------------------------------------------------------------- input */

typedef struct fault_input {
    floe_input base;
    fault *f;
    floe_input *inner;
} fault_input;

static int f_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    fault_input *fi = (fault_input *)in;
    if (should_fail(fi->f, FLOE_IO_OP_READ)) {
        if (fi->f->after)
            fi->inner->read_at(fi->inner, offset, buf, len);
        return injected(FLOE_IO_OP_READ, in->uri);
    }
    return fi->inner->read_at(fi->inner, offset, buf, len);
}

static void f_close(floe_input *in)
{
    fault_input *fi = (fault_input *)in;
    if (!fi)
        return;
    fi->inner->close(fi->inner);
    floe__free(fi);
}

static int f_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    fault *f = io->impl;
    *out = NULL;
    bool fail = should_fail(f, FLOE_IO_OP_OPEN);
    if (fail && !f->after)
        return injected(FLOE_IO_OP_OPEN, uri);
    fault_input *fi = floe__calloc(1, sizeof *fi);
    if (!fi)
        return FLOE_ENOMEM;
    int rc = f->inner->ops->open_input(&fi->inner, f->inner, uri);
    if (rc < 0 || fail) {
        if (rc == 0)
            fi->inner->close(fi->inner);
        floe__free(fi);
        return rc < 0 ? rc : injected(FLOE_IO_OP_OPEN, uri);
    }
    fi->f = f;
    fi->base.uri = fi->inner->uri;
    fi->base.size = fi->inner->size;
    fi->base.read_at = f_read_at;
    fi->base.close = f_close;
    *out = &fi->base;
    return 0;
}

/* ---------------------------------------------------------------- output */

typedef struct fault_output {
    floe_output base;
    fault *f;
    floe_output *inner;
} fault_output;

static int f_write(floe_output *out, const void *data, size_t len)
{
    fault_output *fo = (fault_output *)out;
    if (should_fail(fo->f, FLOE_IO_OP_WRITE)) {
        if (fo->f->after)
            fo->inner->write(fo->inner, data, len);
        return injected(FLOE_IO_OP_WRITE, out->uri);
    }
    return fo->inner->write(fo->inner, data, len);
}

static int f_commit(floe_output *out)
{
    fault_output *fo = (fault_output *)out;
    floe_output *inner = fo->inner;
    fault *f = fo->f;
    floe__free(fo);
    if (should_fail(f, FLOE_IO_OP_COMMIT)) {
        /* uri belongs to inner, which commit/abort frees: format first. */
        int rc = injected(FLOE_IO_OP_COMMIT, inner->uri);
        if (f->after) {
            inner->commit(inner);
            return floe__error(FLOE_EIO, "io", "%s", "injected failure after commit");
        }
        inner->abort(inner);
        return rc;
    }
    return inner->commit(inner);
}

static void f_abort(floe_output *out)
{
    fault_output *fo = (fault_output *)out;
    if (!fo)
        return;
    fo->inner->abort(fo->inner);
    floe__free(fo);
}

static int f_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    fault *f = io->impl;
    *out = NULL;
    bool fail = should_fail(f, FLOE_IO_OP_CREATE);
    if (fail)
        return injected(FLOE_IO_OP_CREATE, uri);
    fault_output *fo = floe__calloc(1, sizeof *fo);
    if (!fo)
        return FLOE_ENOMEM;
    int rc = f->inner->ops->create_output(&fo->inner, f->inner, uri);
    if (rc < 0) {
        floe__free(fo);
        return rc;
    }
    fo->f = f;
    fo->base.uri = fo->inner->uri;
    fo->base.write = f_write;
    fo->base.commit = f_commit;
    fo->base.abort = f_abort;
    *out = &fo->base;
    return 0;
}

/* ---------------------------------------------------------------- the rest */

static int f_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    fault *f = io->impl;
    if (should_fail(f, FLOE_IO_OP_REMOVE)) {
        if (f->after)
            f->inner->ops->remove(f->inner, uris, n);
        return injected(FLOE_IO_OP_REMOVE, n ? uris[0] : "");
    }
    return f->inner->ops->remove(f->inner, uris, n);
}

static int f_list(floe_fileio *io, const char *prefix,
                  int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    fault *f = io->impl;
    if (should_fail(f, FLOE_IO_OP_LIST))
        return injected(FLOE_IO_OP_LIST, prefix);
    return f->inner->ops->list(f->inner, prefix, cb, payload);
}

static int f_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    fault *f = io->impl;
    if (should_fail(f, FLOE_IO_OP_STAT))
        return injected(FLOE_IO_OP_STAT, uri);
    return f->inner->ops->stat(out, f->inner, uri);
}

static void f_free(floe_fileio *io)
{
    fault *f = io->impl;
    floe_fileio_free(f->inner);
    floe__free(f);
    floe__free(io);
}

static const floe_fileio_ops fault_ops = {
    FLOE_FILEIO_OPS_VERSION, f_open_input, f_create_output, f_remove, f_list, f_stat, f_free};

static void apply(fault *f, const floe_fault_options *o)
{
    atomic_store(&f->count, 0);
    atomic_store(&f->injected, 0);
    f->fail_nth = o ? o->fail_nth : 0;
    f->fail_ops = o ? o->fail_ops : 0;
    f->after = o ? o->after : false;
}

int floe__fileio_fault_new(floe_fileio **out, floe_fileio *inner, const floe_fault_options *opts)
{
    *out = NULL;
    if (opts && opts->version != FLOE_FAULT_OPTIONS_VERSION) {
        floe_fileio_free(inner);
        return floe__error(FLOE_EINVALID, "io", "unknown fault options version %u", opts->version);
    }
    floe_fileio *io = floe__calloc(1, sizeof *io);
    fault *f = floe__calloc(1, sizeof *f);
    if (!io || !f) {
        floe__free(io);
        floe__free(f);
        floe_fileio_free(inner);
        return FLOE_ENOMEM;
    }
    f->inner = inner;
    apply(f, opts);
    io->ops = &fault_ops;
    io->impl = f;
    *out = io;
    return 0;
}

void floe__fileio_fault_set(floe_fileio *io, const floe_fault_options *opts)
{
    if (io && io->ops == &fault_ops)
        apply(io->impl, opts);
}

long floe__fileio_fault_count(const floe_fileio *io)
{
    return io && io->ops == &fault_ops ? atomic_load(&((fault *)io->impl)->count) : 0;
}

long floe__fileio_fault_injected(const floe_fileio *io)
{
    return io && io->ops == &fault_ops ? atomic_load(&((fault *)io->impl)->injected) : 0;
}
