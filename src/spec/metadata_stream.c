/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata_stream: reading a table metadata file from disk without
 * holding it (spec "Table Metadata"; the memory target is a
 * 100,000-snapshot file in <= 30 MB while its text alone is 64 MB), and the
 * gzip helper shared with the in-memory parse.
 *
 * The file is read in 64 KiB chunks (inflated on the fly when gzip). The
 * small members of the root object are copied into a text that is parsed
 * as usual at the end; the elements of `snapshots` and `snapshot-log` are
 * parsed one at a time as they go by (a structural scan finds where each
 * ends, then the strict parser runs on it), straight into the metadata
 * being built by metadata.c's reader. So memory holds one chunk and one
 * element, never the file. Any error makes floe__metadata_read_file start
 * over with the whole text and floe__metadata_parse, so results and
 * messages (line, column, offset) are exactly the in-memory parse's.
 */
#include "spec/metadata.h"

#include "floe/sys/fileio.h"
#include "spec/metadata_read.h"
#include "spec/spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* ---------------------------------------------------------------- gzip */

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return floe__calloc(items, size);
}

static void z_free(voidpf opaque, voidpf p)
{
    (void)opaque;
    floe__free(p);
}

int floe__gunzip(const void *data, size_t len, size_t max, floe_buf *out, const char *what)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = z_alloc;
    z.zfree = z_free;
    if (inflateInit2(&z, 15 + 32) != Z_OK) /* +32: gzip or zlib header */
        return floe__error_nomem();
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
    int rc = 0, zr = Z_OK;
    while (zr != Z_STREAM_END) {
        if (out->len >= max) {
            rc = floe__error(FLOE_EINVALID, "metadata", "%s: decompressed size exceeds %zu bytes",
                             what, max);
            break;
        }
        if ((rc = floe__buf_reserve(out, out->len < 65536 ? 65536 : out->len)) < 0)
            break;
        z.next_out = (Bytef *)out->ptr + out->len;
        z.avail_out = (uInt)(out->cap - out->len - 1);
        size_t before = z.avail_out;
        zr = inflate(&z, Z_NO_FLUSH);
        out->len += before - z.avail_out;
        out->ptr[out->len] = '\0';
        if (zr == Z_MEM_ERROR) {
            rc = floe__error_nomem();
            break;
        }
        if (zr == Z_DATA_ERROR || zr == Z_NEED_DICT) {
            rc = floe__error(FLOE_ECORRUPT, "metadata", "%s: corrupt gzip data at offset %zu: %s",
                             what, (size_t)z.total_in, z.msg ? z.msg : "bad data");
            break;
        }
        if (zr == Z_BUF_ERROR && z.avail_in == 0) {
            rc = floe__error(FLOE_ECORRUPT, "metadata", "%s: truncated gzip stream at offset %zu",
                             what, (size_t)z.total_in);
            break;
        }
    }
    inflateEnd(&z);
    return rc;
}

int floe__gzip(const floe_buf *in, floe_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = z_alloc;
    z.zfree = z_free;
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return floe__error_nomem();
    uLong bound = deflateBound(&z, (uLong)in->len) + 32;
    int rc = floe__buf_reserve(out, bound);
    if (rc == 0) {
        z.next_in = (Bytef *)in->ptr;
        z.avail_in = (uInt)in->len;
        z.next_out = (Bytef *)out->ptr + out->len;
        z.avail_out = (uInt)bound;
        if (deflate(&z, Z_FINISH) != Z_STREAM_END)
            rc = floe__error(FLOE_EIO, "metadata", "gzip compression of metadata failed");
        else
            out->len += z.total_out;
    }
    deflateEnd(&z);
    return rc;
}


/* Reading a file streams it: the members of the root object other than
 * `snapshots` and `snapshot-log` (small) are copied into a text that is
 * parsed as usual, the elements of those two arrays are parsed one at a
 * time as they go by, so memory holds one read chunk and one element, never
 * the file (a 100,000-snapshot file is 64 MB of text). Anything unusual
 * (malformed JSON, any error) makes the reader start over with the whole
 * file in memory, so messages and behaviour are exactly
 * floe__metadata_parse's. Snapshots that come before format-version
 * (PyIceberg writes it last) are read with the version-independent rules
 * and checked against the v2 ones once the version is known. */

#define STREAM_CHUNK 65536
#define STREAM_RETRY 1 /* not an error: parse the whole text instead */
/* Propagates STREAM_RETRY (and end of input, also 1) as well as errors. */
#define ST_TRY(e)                                                                                  \
    do {                                                                                           \
        int st__rc = (e);                                                                          \
        if (st__rc != 0)                                                                           \
            return st__rc;                                                                         \
    } while (0)

/* Where the bytes come from: a local file or a FileIO object. */
typedef struct source {
    FILE *f;
    floe_input *in;
    int64_t off;
    int rc; /* the first read error, returned as is (never retried) */
} source;

static int src_read(source *src, void *buf, size_t cap, size_t *got, const char *what)
{
    *got = 0;
    if (src->f) {
        *got = fread(buf, 1, cap, src->f);
        if (*got == 0 && ferror(src->f))
            return src->rc = floe__error(FLOE_EIO, "metadata", "cannot read %s", what);
        return 0;
    }
    int64_t left = src->in->size - src->off;
    size_t n = left <= 0 ? 0 : (uint64_t)left < cap ? (size_t)left : cap;
    if (n == 0)
        return 0;
    int rc = src->in->read_at(src->in, src->off, buf, n);
    if (rc < 0)
        return src->rc = rc;
    src->off += (int64_t)n;
    *got = n;
    return 0;
}

typedef struct stream {
    source *src;
    bool gz, zinit, eof;
    z_stream z;
    unsigned char *in; /* compressed chunk */
    floe_buf b;        /* text; bytes before pos are consumed */
    size_t pos;
    size_t total;      /* text bytes produced so far */
    floe_json_scratch scratch; /* reused by every element */
    const char *what;
} stream;

/* Append more text; 0 = got some, 1 = end of input, < 0 error. */
static int st_more(stream *s)
{
    if (s->eof)
        return 1;
    if (s->pos > 0 && s->pos >= s->b.len / 2) {
        memmove(s->b.ptr, s->b.ptr + s->pos, s->b.len - s->pos);
        s->b.len -= s->pos;
        s->pos = 0;
    }
    ST_TRY(floe__buf_reserve(&s->b, STREAM_CHUNK));
    char *dst = s->b.ptr + s->b.len;
    size_t room = s->b.cap - s->b.len - 1, got = 0;
    if (!s->gz) {
        FLOE_TRY(src_read(s->src, dst, room, &got, s->what));
        if (got == 0) {
            s->eof = true;
            return 1;
        }
    } else {
        while (got == 0) {
            if (s->z.avail_in == 0) {
                size_t n;
                FLOE_TRY(src_read(s->src, s->in, STREAM_CHUNK, &n, s->what));
                if (n == 0)
                    return STREAM_RETRY; /* truncated stream: let the full reader say so */
                s->z.next_in = s->in;
                s->z.avail_in = (uInt)n;
            }
            s->z.next_out = (Bytef *)dst;
            s->z.avail_out = (uInt)room;
            int zr = inflate(&s->z, Z_NO_FLUSH);
            got = room - s->z.avail_out;
            if (zr == Z_MEM_ERROR)
                return floe__error_nomem();
            if (zr == Z_STREAM_END) {
                s->eof = true;
                break;
            }
            if (zr != Z_OK && zr != Z_BUF_ERROR)
                return STREAM_RETRY;
        }
        if (got == 0)
            return 1;
    }
    s->b.len += got;
    s->b.ptr[s->b.len] = '\0';
    s->total += got;
    if (s->total > FLOE_MAX_METADATA_BYTES)
        return STREAM_RETRY;
    return 0;
}

/* Byte at pos + k: 0 with *c set, 1 at end of input, < 0 error. */
static int st_at(stream *s, size_t k, char *c)
{
    while (s->pos + k >= s->b.len) {
        int rc = st_more(s);
        if (rc != 0)
            return rc;
    }
    *c = s->b.ptr[s->pos + k];
    return 0;
}

static int st_ws(stream *s, char *c)
{
    for (;;) {
        ST_TRY(st_at(s, 0, c));
        if (*c != ' ' && *c != '\n' && *c != '\r' && *c != '\t')
            return 0;
        s->pos++;
    }
}

/* Length of the JSON value at pos (not validated: the strict parser runs
 * on it afterwards); the value stays in the buffer. The scan state (depth,
 * inside a string) survives refills, which only ever append. */
static int st_value(stream *s, size_t *len)
{
    size_t k = 0;
    int depth = 0;
    bool in_str = false, esc = false;
    for (;;) {
        const char *p = s->b.ptr + s->pos + k, *end = s->b.ptr + s->b.len;
        for (; p < end; p++) {
            char c = *p;
            if (in_str) {
                if (esc)
                    esc = false;
                else if (c == '\\')
                    esc = true;
                else if (c == '"') {
                    in_str = false;
                    if (depth == 0) {
                        p++;
                        goto done;
                    }
                }
                continue;
            }
            if (c == '"') {
                in_str = true;
            } else if (c == '[' || c == '{') {
                if (++depth > FLOE_JSON_MAX_DEPTH)
                    return STREAM_RETRY;
            } else if (c == ']' || c == '}') {
                if (depth == 0)
                    goto done;
                if (--depth == 0) {
                    p++;
                    goto done;
                }
            } else if (depth == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
                goto done;
            }
        }
        k = (size_t)(p - (s->b.ptr + s->pos));
        int rc = st_more(s);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            if (depth == 0 && !in_str && k > 0)
                break; /* a scalar at the very end: the caller will reject it */
            return STREAM_RETRY;
        }
        continue;
    done:
        k = (size_t)(p - (s->b.ptr + s->pos));
        break;
    }
    if (k == 0)
        return STREAM_RETRY;
    *len = k;
    return 0;
}

/* One element of a streamed array, parsed strictly on its own. */
static int st_element(stream *s, floe_md_reader *p, size_t i,
                      int (*fn)(const floe_json *elem, size_t i, void *payload))
{
    size_t len;
    ST_TRY(st_value(s, &len));
    floe_json e;
    int rc = floe__json_parse_scratch(&e, &s->scratch, s->b.ptr + s->pos, len, s->what);
    if (rc < 0)
        return rc == FLOE_ENOMEM ? rc : STREAM_RETRY;
    rc = fn(&e, i, p);
    s->pos += len;
    return rc;
}

static int st_array(stream *s, floe_md_reader *p, int (*fn)(const floe_json *, size_t, void *))
{
    char c;
    s->pos++; /* [ */
    ST_TRY(st_ws(s, &c));
    if (c == ']') {
        s->pos++;
        return 0;
    }
    for (size_t i = 0;; i++) {
        ST_TRY(st_ws(s, &c));
        ST_TRY(st_element(s, p, i, fn));
        ST_TRY(st_ws(s, &c));
        s->pos++;
        if (c == ']')
            return 0;
        if (c != ',')
            return STREAM_RETRY;
    }
}

static int st_root(stream *s, floe_md_reader *p, floe_buf *rest)
{
    char c;
    bool first = true, seen_snaps = false, seen_log = false;
    ST_TRY(st_ws(s, &c));
    if (c != '{')
        return STREAM_RETRY;
    s->pos++;
    ST_TRY(floe__buf_putc(rest, '{'));
    ST_TRY(st_ws(s, &c));
    if (c == '}') {
        s->pos++;
    } else {
        for (;;) {
            size_t klen, vlen;
            ST_TRY(st_ws(s, &c));
            if (c != '"')
                return STREAM_RETRY;
            ST_TRY(st_value(s, &klen));
            char key[32] = "";
            if (klen - 2 < sizeof key && !memchr(s->b.ptr + s->pos, '\\', klen))
                memcpy(key, s->b.ptr + s->pos + 1, klen - 2);
            ST_TRY(floe__buf_puts(rest, first ? "" : ","));
            ST_TRY(floe__buf_put(rest, s->b.ptr + s->pos, klen));
            s->pos += klen;
            ST_TRY(st_ws(s, &c));
            if (c != ':')
                return STREAM_RETRY;
            s->pos++;
            ST_TRY(st_ws(s, &c));
            bool is_snaps = strcmp(key, "snapshots") == 0, is_log = strcmp(key, "snapshot-log") == 0;
            if ((is_snaps && seen_snaps) || (is_log && seen_log)) {
                /* a duplicate: the first one counts (as in the tree parser) */
                ST_TRY(st_value(s, &vlen));
                s->pos += vlen;
                rest->len -= klen + !first;
                rest->ptr[rest->len] = '\0';
            } else if ((is_snaps || is_log) && c == '[') {
                ST_TRY(st_array(s, p, is_snaps ? floe__md_reader_snapshot : floe__md_reader_log_entry));
                floe__md_reader_streamed(p, is_snaps);
                rest->len -= klen + !first;
                rest->ptr[rest->len] = '\0';
            } else {
                ST_TRY(st_value(s, &vlen));
                ST_TRY(floe__buf_putc(rest, ':'));
                ST_TRY(floe__buf_put(rest, s->b.ptr + s->pos, vlen));
                /* the snapshot rules depend on it: known early in most files */
                if (strcmp(key, "format-version") == 0 && floe__md_reader_version(p) == 0 &&
                    vlen == 1 && s->b.ptr[s->pos] >= '1' &&
                    s->b.ptr[s->pos] <= '0' + FLOE_MAX_FORMAT_VERSION)
                    floe__md_reader_set_version(p, s->b.ptr[s->pos] - '0');
                s->pos += vlen;
                first = false;
            }
            seen_snaps |= is_snaps;
            seen_log |= is_log;
            ST_TRY(st_ws(s, &c));
            s->pos++;
            if (c == '}')
                break;
            if (c != ',')
                return STREAM_RETRY;
        }
    }
    ST_TRY(floe__buf_putc(rest, '}'));
    int rc = st_ws(s, &c);
    return rc == 1 ? 0 : rc < 0 ? rc : STREAM_RETRY;
}

static int stream_file(floe_table_metadata **out, source *src, const char *path)
{
    stream s;
    memset(&s, 0, sizeof s);
    s.src = src;
    s.what = path;
    s.b = (floe_buf)FLOE_BUF_INIT;
    floe_buf rest = FLOE_BUF_INIT;
    floe_md_reader *r = NULL;
    int rc = 0;
    unsigned char magic[2];
    size_t nm;
    FLOE_TRY(src_read(src, magic, 2, &nm, path));
    if (nm == 1) {
        size_t more;
        FLOE_TRY(src_read(src, magic + 1, 1, &more, path));
        nm += more;
    }
    if (nm == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        s.gz = true;
        s.z.zalloc = z_alloc;
        s.z.zfree = z_free;
        if (!(s.in = floe__malloc(STREAM_CHUNK)) || inflateInit2(&s.z, 15 + 32) != Z_OK) {
            floe__free(s.in);
            return floe__error_nomem();
        }
        s.zinit = true;
        memcpy(s.in, magic, 2);
        s.z.next_in = s.in;
        s.z.avail_in = 2;
    } else if (nm > 0) {
        rc = floe__buf_put(&s.b, magic, nm);
        s.total = nm;
    }
    if (rc == 0)
        rc = floe__md_reader_new(&r, path);
    if (rc == 0)
        rc = st_root(&s, r, &rest);
    /* the read side is done: release it before building the root tree */
    if (s.zinit)
        inflateEnd(&s.z);
    s.zinit = false;
    floe__free(s.in);
    floe__buf_free(&s.b);
    floe__json_scratch_free(&s.scratch);
    floe_json *root = NULL;
    if (rc == 0) {
        rc = floe__json_parse(&root, rest.ptr, rest.len, path);
        if (rc < 0 && rc != FLOE_ENOMEM)
            rc = STREAM_RETRY;
    }
    floe__buf_free(&rest);
    if (rc == 0)
        rc = floe__md_reader_finish(r, root, out);
    floe__json_free(root);
    floe__md_reader_free(r);
    if (src->rc < 0)
        return src->rc;
    if (rc != 0)
        return rc == FLOE_ENOMEM ? rc : STREAM_RETRY;
    return 0;
}

static _Atomic unsigned long stream_fallbacks;

unsigned long floe__metadata_stream_fallbacks(void)
{
    return stream_fallbacks;
}

int floe__metadata_read_file(floe_table_metadata **out, const char *path)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return floe__error(errno == ENOENT ? FLOE_ENOTFOUND : FLOE_EIO, "metadata",
                           "cannot open %s: %s", path, strerror(errno));
    source src = {f, NULL, 0, 0};
    int rc = stream_file(out, &src, path);
    if (rc != STREAM_RETRY) {
        fclose(f);
        return rc;
    }
    /* The slow path: the whole text in memory, exact messages. */
    stream_fallbacks++;
    floe_buf b = FLOE_BUF_INIT;
    rc = 0;
    rewind(f);
    clearerr(f);
    /* Reserve the file size up front: growing by doubling would briefly hold
     * twice a large file. */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && st.st_size > 0) {
        if ((size_t)st.st_size > FLOE_MAX_METADATA_BYTES)
            rc = floe__error(FLOE_EINVALID, "metadata", "%s is larger than %zu bytes", path,
                             FLOE_MAX_METADATA_BYTES);
        else
            rc = floe__buf_reserve(&b, (size_t)st.st_size);
    }
    while (rc == 0) {
        if (b.cap - b.len < 2)
            rc = floe__buf_reserve(&b, 65536);
        if (rc < 0)
            break;
        size_t n = fread(b.ptr + b.len, 1, b.cap - b.len - 1, f);
        if (n == 0)
            break;
        b.len += n;
        b.ptr[b.len] = '\0';
        if (b.len > FLOE_MAX_METADATA_BYTES)
            rc = floe__error(FLOE_EINVALID, "metadata", "%s is larger than %zu bytes", path,
                             FLOE_MAX_METADATA_BYTES);
    }
    if (rc == 0 && ferror(f))
        rc = floe__error(FLOE_EIO, "metadata", "cannot read %s", path);
    fclose(f);
    if (rc == 0)
        rc = floe__metadata_parse(out, b.ptr ? b.ptr : "", b.len, path);
    floe__buf_free(&b);
    return rc;
}

int floe__metadata_read_input(floe_table_metadata **out, floe_input *in)
{
    *out = NULL;
    const char *what = in->uri ? in->uri : "metadata";
    if (in->size < 0 || (uint64_t)in->size > FLOE_MAX_METADATA_BYTES)
        return floe__error(FLOE_EINVALID, "metadata", "%s is larger than %zu bytes", what,
                           FLOE_MAX_METADATA_BYTES);
    source src = {NULL, in, 0, 0};
    int rc = stream_file(out, &src, what);
    if (rc != STREAM_RETRY)
        return rc;
    stream_fallbacks++;
    floe_buf b = FLOE_BUF_INIT;
    rc = floe__buf_reserve(&b, (size_t)in->size);
    if (rc == 0 && in->size > 0)
        rc = in->read_at(in, 0, b.ptr, (size_t)in->size);
    if (rc == 0) {
        b.len = (size_t)in->size;
        b.ptr[b.len] = '\0';
        rc = floe__metadata_parse(out, b.ptr, b.len, what);
    }
    floe__buf_free(&b);
    return rc;
}
