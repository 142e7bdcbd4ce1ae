/* SPDX-License-Identifier: Apache-2.0 */
/*
 * FileIO dispatch and helpers: choose a backend by URI scheme (plain path or
 * file: -> local, mem: -> memory, s3:/s3a:/s3n: -> S3), apply the optional
 * io.location-map wrapper, and the checked entry points every module calls
 * (open, create, write-whole, read-whole with a size cap, remove, list, stat).
 */
#include "io.h"

#include <string.h>
#include <strings.h>

size_t floe__uri_scheme(const char *uri, const char **scheme)
{
    *scheme = uri;
    const char *p = uri;
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        return 0;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '+' || *p == '.' || *p == '-')
        p++;
    return *p == ':' ? (size_t)(p - uri) : 0;
}

static bool scheme_is(const char *s, size_t n, const char *name)
{
    return strlen(name) == n && strncasecmp(s, name, n) == 0;
}

int floe__fileio_for_uri(floe_fileio **out, const char *uri, const floe_props *conf)
{
    *out = NULL;
    const char *s = uri;
    size_t n = floe__uri_scheme(uri, &s);
    /* A bare scheme name ("mem", "s3") selects that backend. */
    if (n == 0 && (strcmp(uri, "file") == 0 || strcmp(uri, "mem") == 0 || strcmp(uri, "s3") == 0 ||
                   strcmp(uri, "s3a") == 0 || strcmp(uri, "s3n") == 0))
        n = strlen(uri);
    if (n == 0 || scheme_is(s, n, "file"))
        return floe__fileio_local_new(out);
    if (scheme_is(s, n, "mem"))
        return floe__fileio_mem_new(out);
    if (scheme_is(s, n, "s3") || scheme_is(s, n, "s3a") || scheme_is(s, n, "s3n")) {
#ifdef FLOE_HAVE_S3
        return floe__s3_fileio_new(conf, out);
#else
        FLOE_UNUSED(conf);
        return floe__error(FLOE_EUNSUPPORTED, "io", "S3 support not built (opening %s)", uri);
#endif
    }
    return floe__error(FLOE_EUNSUPPORTED, "io", "No FileIO for scheme '%.*s' in %s", (int)n, s,
                       uri);
}

int floe_fileio_open(floe_fileio **out, const char *uri_or_scheme, const floe_props *conf)
{
    if (!out || !uri_or_scheme)
        return floe__error(FLOE_EINVALID, "io", "floe_fileio_open: NULL argument");
    *out = NULL;
    const char *map = conf ? floe__props_get(conf, "io.location-map") : NULL;
    if (map && *map) {
        floe_fileio *inner;
        FLOE_TRY(floe__fileio_router_new(&inner, conf));
        return floe__fileio_map_new(out, inner, map);
    }
    return floe__fileio_for_uri(out, uri_or_scheme, conf);
}

int floe_fileio_local_new(floe_fileio **out)
{
    return floe__fileio_local_new(out);
}

int floe_fileio_memory_new(floe_fileio **out)
{
    return floe__fileio_mem_new(out);
}

int floe_fileio_map_new(floe_fileio **out, floe_fileio *inner, const char *spec)
{
    return floe__fileio_map_new(out, inner, spec);
}

void floe_fileio_free(floe_fileio *io)
{
    if (io)
        io->ops->free(io);
}

/* ---------------------------------------------------------------- checked calls */

#define CHECK_ARGS(io, uri)                                                                        \
    do {                                                                                           \
        if (!(io) || !(uri))                                                                       \
            return floe__error(FLOE_EINVALID, "io", "%s: NULL argument", __func__);                \
        if (!*(uri))                                                                               \
            return floe__error(FLOE_EINVALID, "io", "%s: empty location", __func__);               \
    } while (0)

int floe_fileio_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    CHECK_ARGS(io, uri);
    *out = NULL;
    return io->ops->open_input(io, uri, out);
}

int floe_fileio_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    CHECK_ARGS(io, uri);
    *out = NULL;
    return io->ops->create_output(io, uri, out);
}

int floe_fileio_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    if (!io || (n && !uris))
        return floe__error(FLOE_EINVALID, "io", "floe_fileio_remove: NULL argument");
    return n ? io->ops->remove(io, uris, n) : 0;
}

int floe_fileio_list(floe_fileio *io, const char *prefix,
                     int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    CHECK_ARGS(io, prefix);
    if (!cb)
        return floe__error(FLOE_EINVALID, "io", "floe_fileio_list: NULL callback");
    return io->ops->list(io, prefix, cb, payload);
}

int floe_fileio_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    CHECK_ARGS(io, uri);
    return io->ops->stat(io, uri, out);
}

int floe_fileio_exists(floe_fileio *io, const char *uri)
{
    floe_file_info info;
    int rc = floe_fileio_stat(&info, io, uri);
    if (rc == FLOE_ENOTFOUND) {
        floe_error_clear();
        return 0;
    }
    return rc < 0 ? rc : 1;
}

int floe__io_write_new(floe_fileio *io, const char *uri, const void *data, size_t len)
{
    floe_output *o = NULL;
    FLOE_TRY(floe_fileio_create_output(&o, io, uri));
    if (!o)
        return floe__error(FLOE_ERROR, "io", "backend returned no output for %s", uri);
    int rc = len ? o->write(o, data, len) : 0;
    if (rc < 0) {
        o->abort(o);
        return rc;
    }
    return o->commit(o);
}

int floe_fileio_write_new(floe_fileio *io, const char *uri, const void *data, size_t len)
{
    if (len && !data)
        return floe__error(FLOE_EINVALID, "io", "floe_fileio_write_new: NULL data");
    return floe__io_write_new(io, uri, data, len);
}

int floe__io_read_all(floe_fileio *io, const char *uri, size_t max_bytes, floe_buf *out)
{
    floe_input *in = NULL;
    FLOE_TRY(floe_fileio_open_input(&in, io, uri));
    if (!in)
        return floe__error(FLOE_ERROR, "io", "backend returned no input for %s", uri);
    int rc = 0;
    if (in->size < 0 || (uint64_t)in->size > (uint64_t)max_bytes) {
        rc = floe__error(FLOE_EINVALID, "io", "%s is %lld bytes, more than the %zu allowed", uri,
                         (long long)in->size, max_bytes);
    } else {
        size_t len = (size_t)in->size;
        rc = floe__buf_reserve(out, len);
        if (rc == 0 && len)
            rc = in->read_at(in, 0, out->ptr + out->len, len);
        if (rc == 0) {
            out->len += len;
            out->ptr[out->len] = '\0';
        }
    }
    in->close(in);
    return rc;
}
