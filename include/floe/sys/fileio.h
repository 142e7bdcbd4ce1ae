/* SPDX-License-Identifier: Apache-2.0 */
/*
 * FileIO backend interface. Every byte floe reads or writes goes through a
 * floe_fileio, selected by URI scheme (plain paths and file: URIs → local,
 * mem: → memory, s3:/s3a:/s3n: → S3). Object-store semantics: there are no
 * directories and no renames; a new object becomes visible only complete, and
 * creating one that exists fails with FLOE_EEXISTS.
 *
 * Implement a backend by filling a floe_fileio_ops table (see
 * src/io/local.c). All functions return 0 or a negative FLOE_E* code with
 * floe_error_last() set; messages name the URI (never credentials).
 */
#ifndef FLOE_SYS_FILEIO_H
#define FLOE_SYS_FILEIO_H

#include "floe/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct floe_fileio floe_fileio;
typedef struct floe_input floe_input;
typedef struct floe_output floe_output;

typedef struct floe_file_info {
    const char *uri;  /* borrowed for the duration of the callback */
    int64_t size;     /* bytes */
    int64_t mtime_ms; /* last modification, ms since epoch */
} floe_file_info;

/* An object opened for reading: its size and positional reads. */
struct floe_input {
    const char *uri;
    int64_t size;
    /* Read exactly `len` bytes at `offset` (short read past EOF = FLOE_ECORRUPT). */
    int (*read_at)(floe_input *in, int64_t offset, void *buf, size_t len);
    void (*close)(floe_input *in);
};

/* An object being written. Bytes become visible at commit(); abort()
 * discards them. commit() fails with FLOE_EEXISTS if the object appeared
 * meanwhile (create-new semantics). Every output ends with exactly one call
 * of commit() or abort(); both free the output, whatever commit returns. */
struct floe_output {
    const char *uri;
    int (*write)(floe_output *out, const void *data, size_t len);
    int (*commit)(floe_output *out);
    void (*abort)(floe_output *out); /* also frees the output */
};

typedef struct floe_fileio_ops {
    unsigned version; /* FLOE_FILEIO_OPS_VERSION */
    int (*open_input)(floe_input **out, floe_fileio *io, const char *uri);
    int (*create_output)(floe_output **out, floe_fileio *io, const char *uri);
    /* Delete objects; a missing object is not an error. */
    int (*remove)(floe_fileio *io, const char *const *uris, size_t n);
    /* List every object whose URI starts with `prefix` (recursively). The
     * callback may return a negative code to stop; that code is returned. */
    int (*list)(floe_fileio *io, const char *prefix,
                int (*cb)(const floe_file_info *info, void *payload), void *payload);
    /* Size and mtime of one object; FLOE_ENOTFOUND if absent. */
    int (*stat)(floe_file_info *out, floe_fileio *io, const char *uri);
    void (*free)(floe_fileio *io);
} floe_fileio_ops;

#define FLOE_FILEIO_OPS_VERSION 1

struct floe_fileio {
    const floe_fileio_ops *ops;
    void *impl; /* backend state */
};

#ifdef __cplusplus
}
#endif
#endif
