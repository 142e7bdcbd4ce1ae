/* SPDX-License-Identifier: Apache-2.0 */
/*
 * FileIO: how floe reads and writes objects. A floe_fileio is chosen by URI
 * scheme — plain paths and file: URIs are local files, mem:// is an in-memory
 * store (tests), s3:/s3a:/s3n: is S3 — and offers object-store semantics:
 * objects are created complete or not at all, never overwritten, listed by
 * prefix; there are no directories and no renames. The backend interface
 * itself is <floe/sys/fileio.h>; the functions here open backends and call
 * them with argument checks.
 *
 * Configuration keys (floe_props, ordered string properties):
 *   io.location-map   "from=to[,from=to]": rewrite location prefixes before
 *                     any access (longest `from` first), e.g.
 *                     "s3a://bucket/wh=/srv/copy/wh" to read a table copied
 *                     out of S3. Listing maps results back to `from`.
 */
#ifndef FLOE_IO_H
#define FLOE_IO_H

#include "floe/common.h"
#include "floe/sys/fileio.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open the FileIO for a URI (or a bare scheme: "file", "mem", "s3", "s3a",
 * "s3n"). `conf` may be NULL. With io.location-map set, the result maps
 * locations first and then dispatches each access by the mapped URI's scheme.
 * The caller frees *out with floe_fileio_free(). Errors: FLOE_EUNSUPPORTED
 * (unknown scheme; S3 when floe was built without it), FLOE_EINVALID (bad
 * io.location-map), FLOE_ENOMEM. */
FLOE_EXTERN int floe_fileio_open(floe_fileio **out, const char *uri_or_scheme,
                                 const floe_props *conf);

/* A local-file FileIO (plain paths and file: URIs). */
FLOE_EXTERN int floe_fileio_local_new(floe_fileio **out);

/* A fresh, empty in-memory FileIO (mem://...). Objects live until removed or
 * until the FileIO is freed. Thread-safe. */
FLOE_EXTERN int floe_fileio_memory_new(floe_fileio **out);

/* Wrap `inner` so that location prefixes are rewritten according to `spec`
 * ("from=to[,from=to]"). Takes ownership of `inner` (also on failure).
 * Errors: FLOE_EINVALID naming the bad mapping, FLOE_ENOMEM. */
FLOE_EXTERN int floe_fileio_map_new(floe_fileio **out, floe_fileio *inner, const char *spec);

/* Free a FileIO (NULL is fine). Inputs and outputs must be closed first. */
FLOE_EXTERN void floe_fileio_free(floe_fileio *io);

/* Open an object for reading; close with in->close(in).
 * Errors: FLOE_ENOTFOUND, FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_fileio_open_input(floe_input **out, floe_fileio *io, const char *uri);

/* Start writing a new object; finish with out->commit() or out->abort().
 * Errors: FLOE_EEXISTS (already there), FLOE_EIO, FLOE_ENOMEM. */
FLOE_EXTERN int floe_fileio_create_output(floe_output **out, floe_fileio *io, const char *uri);

/* Write a whole new object: create, write, commit. FLOE_EEXISTS if it
 * exists; nothing is left behind on failure. */
FLOE_EXTERN int floe_fileio_write_new(floe_fileio *io, const char *uri, const void *data,
                                      size_t len);

/* Delete `n` objects; missing ones are not an error. All are attempted; the
 * first failure is returned (FLOE_EIO naming the object). */
FLOE_EXTERN int floe_fileio_remove(floe_fileio *io, const char *const *uris, size_t n);

/* Call cb for every object whose URI starts with `prefix`, in ascending URI
 * order for the local and memory backends. A negative return from cb stops
 * the listing and is returned. A prefix nothing matches lists nothing. */
FLOE_EXTERN int floe_fileio_list(floe_fileio *io, const char *prefix,
                                 int (*cb)(const floe_file_info *info, void *payload),
                                 void *payload);

/* Size and modification time of one object. `out->uri` is `uri`.
 * Errors: FLOE_ENOTFOUND, FLOE_EIO. */
FLOE_EXTERN int floe_fileio_stat(floe_file_info *out, floe_fileio *io, const char *uri);

/* 1 if the object exists, 0 if not, negative on error. */
FLOE_EXTERN int floe_fileio_exists(floe_fileio *io, const char *uri);

#ifdef __cplusplus
}
#endif
#endif
