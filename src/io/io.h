/* SPDX-License-Identifier: Apache-2.0 */
/*
 * io: private side of the FileIO layer. Backends (local.c, memory.c, the S3
 * backend in s3.c), wrappers (fault.c: failure injection for tests; map.c:
 * location prefix rewriting) and helpers every module uses to read and write
 * whole objects. Public entry points are in include/floe/io.h.
 */
#ifndef FLOE_IO_IO_H
#define FLOE_IO_IO_H

#include "floe/io.h"
#include "floe/sys/fileio.h"
#include "util/util.h"

/* ---------------------------------------------------------------- helpers */

/* Read a whole object into `out` (appended; NUL-terminated). Objects larger
 * than `max_bytes` fail with FLOE_EINVALID naming the URI and the cap, before
 * anything is allocated. */
int floe__io_read_all(floe_fileio *io, const char *uri, size_t max_bytes, floe_buf *out);

/* Create a whole object (create-new): FLOE_EEXISTS if it exists. */
int floe__io_write_new(floe_fileio *io, const char *uri, const void *data, size_t len);

/* Scheme of a URI as a lowercase-insensitive span: "s3" for "s3://b/k",
 * "" (len 0) for a plain path. Only [A-Za-z][A-Za-z0-9+.-]* before ':'
 * counts, so "C:" style paths never appear on POSIX anyway. */
size_t floe__uri_scheme(const char *uri, const char **scheme);

/* Local path of a plain path or file: URI ("file:/x", "file:///x",
 * "file://localhost/x"). Returns a pointer into `uri` or NULL (error set) for
 * a URI that names another host. */
const char *floe__local_path(const char *uri);

/* ---------------------------------------------------------------- backends */

int floe__fileio_local_new(floe_fileio **out);
int floe__fileio_mem_new(floe_fileio **out);
/* Implemented by the S3 backend (src/io/s3*.c) when FLOE_HAVE_S3 is defined. */
int floe__s3_fileio_new(const floe_props *conf, floe_fileio **out);

/* A FileIO that dispatches each access by the URI's scheme, creating the
 * local, memory or S3 backend on first use (with `conf`). */
int floe__fileio_router_new(floe_fileio **out, const floe_props *conf);

/* Concrete backend for one URI's scheme. */
int floe__fileio_for_uri(floe_fileio **out, const char *uri, const floe_props *conf);

/* ---------------------------------------------------------------- fault injection */

/* Operation kinds, as bits of floe_fault_options.fail_ops. */
enum {
    FLOE_IO_OP_OPEN = 1u << 0,   /* open_input */
    FLOE_IO_OP_READ = 1u << 1,   /* floe_input.read_at */
    FLOE_IO_OP_CREATE = 1u << 2, /* create_output */
    FLOE_IO_OP_WRITE = 1u << 3,  /* floe_output.write */
    FLOE_IO_OP_COMMIT = 1u << 4, /* floe_output.commit */
    FLOE_IO_OP_REMOVE = 1u << 5, /* remove (the whole batch) */
    FLOE_IO_OP_LIST = 1u << 6,
    FLOE_IO_OP_STAT = 1u << 7,
    FLOE_IO_OP_ALL = 0xffu
};

typedef struct floe_fault_options {
    unsigned version; /* FLOE_FAULT_OPTIONS_VERSION */
    /* Fail the Nth operation counted from creation (1-based; 0 = never). */
    long fail_nth;
    /* Fail every operation of these kinds (FLOE_IO_OP_* bits). */
    unsigned fail_ops;
    /* Perform the failing operation first, then report FLOE_EIO: models a
     * write whose acknowledgement was lost (outcome unknown to the caller). */
    bool after;
} floe_fault_options;

#define FLOE_FAULT_OPTIONS_VERSION 1
#define FLOE_FAULT_OPTIONS_INIT                                                                    \
    {                                                                                              \
        FLOE_FAULT_OPTIONS_VERSION, 0, 0, false                                                    \
    }

/* Wrap `inner` (ownership taken, also on failure). Injected failures return
 * FLOE_EIO with a message "injected failure: <op> <uri>". */
int floe__fileio_fault_new(floe_fileio **out, floe_fileio *inner, const floe_fault_options *opts);
/* Re-arm: reset the counter and set new options. */
void floe__fileio_fault_set(floe_fileio *io, const floe_fault_options *opts);
/* Operations counted since creation or the last re-arm (so a loop "fail the
 * Nth for N = 1.." knows when it has covered every step). */
long floe__fileio_fault_count(const floe_fileio *io);
/* Failures injected since creation or the last re-arm. */
long floe__fileio_fault_injected(const floe_fileio *io);

/* ---------------------------------------------------------------- location map */

int floe__fileio_map_new(floe_fileio **out, floe_fileio *inner, const char *spec);
/* Map one location with the wrapper's rules (no I/O): a fresh string. */
int floe__fileio_map_location(const floe_fileio *io, const char *uri, char **out);

#endif
