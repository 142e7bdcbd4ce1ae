/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/snapshot_pack: the compact in-memory form of a snapshot's summary and
 * manifest-list path (spec "Snapshots": `summary`, `manifest-list`).
 *
 * A table with 100,000 snapshots must parse in about 30 MB (issue 2), i.e.
 * ~300 bytes per snapshot for everything. As an array of key/value pointer
 * pairs plus strings an 11-entry Spark summary alone takes ~250 bytes, and
 * the manifest-list path another ~110. So:
 *
 * - A summary is one byte string: per entry a key code (1..254: a
 *   well-known key from the table below; 255: the key text follows,
 *   NUL-terminated), then the value text, NUL-terminated; a 0 code ends it.
 *   Values are returned in place (they are C strings inside the blob).
 * - A manifest-list path is split at its last '/': the directory (shared by
 *   every snapshot of a table, interned by the reader) is stored as a
 *   pointer, then a flag byte saying the file name starts with
 *   `snap-<snapshot-id>-` (Java's and floe's naming, so the id is not
 *   repeated), then the rest of the name, NUL-terminated.
 */
#include "spec/metadata.h"

#include "spec/spec.h"

#include <string.h>

/* Keys Java, Spark, Trino, PyIceberg and floe write (spec "Optional Snapshot
 * Summary Fields" and engine extras), in strcmp order (binary search); a
 * key's code is its position + 1 (only ever in memory, never written). */
static const char *const known_keys[] = {
    "added-data-files", "added-delete-files", "added-dv-files", "added-dvs",
    "added-equality-delete-files", "added-equality-deletes", "added-files-size",
    "added-position-delete-files", "added-position-deletes", "added-records", "app-id",
    "changed-partition-count", "deleted-data-files", "deleted-duplicate-files",
    "deleted-records", "engine-name", "engine-version", "entries-processed", "iceberg-version",
    "manifests-created", "manifests-kept", "manifests-replaced", "operation",
    "partition-summaries-included", "published-wap-id", "removed-delete-files", "removed-dvs",
    "removed-equality-delete-files", "removed-equality-deletes", "removed-files-size",
    "removed-position-delete-files", "removed-position-deletes", "replace-partitions",
    "source-snapshot-id", "spark.app.id", "total-data-files", "total-delete-files",
    "total-equality-deletes", "total-files-size", "total-position-deletes", "total-records",
    "trino_query_id", "trino_user", "wap.id",
};
#define N_KNOWN (sizeof known_keys / sizeof *known_keys)
#define CODE_INLINE 255

static int key_code(const char *key)
{
    size_t lo = 0, hi = N_KNOWN;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(known_keys[mid], key);
        if (c == 0)
            return (int)mid + 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return CODE_INLINE;
}

bool floe__summary_next(const uint8_t **it, const char **key, const char **value)
{
    const uint8_t *p = *it;
    if (!p || *p == 0)
        return false;
    unsigned code = *p++;
    if (code == CODE_INLINE) {
        *key = (const char *)p;
        p += strlen(*key) + 1;
    } else {
        *key = known_keys[code - 1];
    }
    *value = (const char *)p;
    p += strlen(*value) + 1;
    *it = p;
    return true;
}

const char *floe__snapshot_summary(const floe_snapshot *s, const char *key)
{
    const uint8_t *it = s ? s->summary_packed : NULL;
    const char *k, *v;
    while (floe__summary_next(&it, &k, &v))
        if (strcmp(k, key) == 0)
            return v;
    return NULL;
}

/* Packed size of one entry (no terminator). */
static size_t entry_size(int code, const char *key, const char *value)
{
    size_t n = 1 + strlen(value) + 1;
    if (code == CODE_INLINE)
        n += strlen(key) + 1;
    return n;
}

static uint8_t *put_entry(uint8_t *d, int code, const char *key, const char *value)
{
    *d++ = (uint8_t)code;
    if (code == CODE_INLINE) {
        size_t n = strlen(key) + 1;
        memcpy(d, key, n);
        d += n;
    }
    size_t n = strlen(value) + 1;
    memcpy(d, value, n);
    return d + n;
}

int floe__summary_pack_pool(floe_snapshot *s, floe_strpool *pool, const floe_kv *kv, size_t n)
{
    s->summary_packed = NULL;
    s->n_summary = 0;
    s->operation = NULL;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX)
        return floe__error(FLOE_EINVALID, "metadata", "snapshot summary too large");
    uint8_t codes[64]; /* the usual summary; longer ones look codes up twice */
    size_t size = 1;
    for (size_t i = 0; i < n; i++) {
        int code = key_code(kv[i].key);
        if (i < sizeof codes)
            codes[i] = (uint8_t)code;
        size += entry_size(code, kv[i].key, kv[i].value);
    }
    uint8_t *blob = (uint8_t *)floe__strpool_alloc(pool, size);
    if (!blob)
        return floe__error_nomem();
    uint8_t *d = blob;
    for (size_t i = 0; i < n; i++) {
        int code = i < sizeof codes ? codes[i] : key_code(kv[i].key);
        uint8_t *v = d + 1 + (code == CODE_INLINE ? strlen(kv[i].key) + 1 : 0);
        d = put_entry(d, code, kv[i].key, kv[i].value);
        if (!s->operation && strcmp(kv[i].key, "operation") == 0)
            s->operation = (const char *)v;
    }
    *d = 0;
    s->summary_packed = blob;
    s->n_summary = (uint32_t)n;
    return 0;
}

int floe__snapshot_pack_summary(floe_snapshot *s, floe_arena *a, const floe_kv *kv, size_t n)
{
    floe_strpool pool = {a, NULL, 0};
    return floe__summary_pack_pool(s, &pool, kv, n);
}

/* ---------------------------------------------------------------- manifest list */

#define ML_SNAP_ID 1 /* the name starts with snap-<snapshot-id>- */

/* "snap-<id>-" into buf (>= 32 bytes); its length. No snprintf: the writer
 * calls this for every snapshot. */
static size_t snap_prefix(char *buf, int64_t id)
{
    char digits[24];
    size_t nd = 0;
    uint64_t u = id < 0 ? 0 - (uint64_t)id : (uint64_t)id;
    do {
        digits[nd++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    size_t n = 0;
    for (const char *p = "snap-"; *p; p++) /* a prefix, not a string: no NUL */
        buf[n++] = *p;
    if (id < 0)
        buf[n++] = '-';
    while (nd)
        buf[n++] = digits[--nd];
    buf[n++] = '-';
    return n;
}

int floe__manifest_list_pack_pool(floe_snapshot *s, floe_strpool *pool, const char *path,
                                  size_t len, const char *dir)
{
    s->manifest_list_packed = NULL;
    if (!path)
        return 0;
    const char *slash = NULL;
    for (size_t i = len; i > 0; i--)
        if (path[i - 1] == '/') {
            slash = path + i - 1;
            break;
        }
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *name = path + dlen;
    size_t nlen = len - dlen;
    char sp[32];
    size_t splen = snap_prefix(sp, s->snapshot_id);
    uint8_t flag = 0;
    if (nlen >= splen && memcmp(name, sp, splen) == 0) {
        flag = ML_SNAP_ID;
        name += splen;
        nlen -= splen;
    }
    if (!dir) {
        /* not interned by the caller: a private copy of the directory */
        if (!(dir = floe__strpool_dup(pool, path, dlen)))
            return floe__error_nomem();
    }
    uint8_t *blob = (uint8_t *)floe__strpool_alloc(pool, sizeof dir + 1 + nlen + 1);
    if (!blob)
        return floe__error_nomem();
    memcpy(blob, &dir, sizeof dir);
    blob[sizeof dir] = flag;
    memcpy(blob + sizeof dir + 1, name, nlen);
    blob[sizeof dir + 1 + nlen] = 0;
    s->manifest_list_packed = blob;
    return 0;
}

int floe__snapshot_pack_manifest_list(floe_snapshot *s, floe_arena *a, const char *path)
{
    floe_strpool pool = {a, NULL, 0};
    return floe__manifest_list_pack_pool(s, &pool, path, path ? strlen(path) : 0, NULL);
}

static void ml_parts(const floe_snapshot *s, const char **dir, bool *snap, const char **rest)
{
    const uint8_t *p = s->manifest_list_packed;
    memcpy(dir, p, sizeof *dir);
    *snap = p[sizeof *dir] == ML_SNAP_ID;
    *rest = (const char *)p + sizeof *dir + 1;
}

int floe__snapshot_manifest_list(const floe_snapshot *s, floe_buf *buf, const char **out)
{
    *out = NULL;
    floe__buf_clear(buf);
    if (!s->manifest_list_packed)
        return 0;
    const char *dir, *rest;
    bool snap;
    ml_parts(s, &dir, &snap, &rest);
    FLOE_TRY(floe__buf_puts(buf, dir));
    if (snap) {
        char sp[32];
        FLOE_TRY(floe__buf_put(buf, sp, snap_prefix(sp, s->snapshot_id)));
    }
    FLOE_TRY(floe__buf_puts(buf, rest));
    *out = buf->ptr;
    return 0;
}

int floe__snapshot_manifest_list_json(const floe_snapshot *s, floe_buf *out)
{
    const char *dir, *rest;
    bool snap;
    ml_parts(s, &dir, &snap, &rest);
    FLOE_TRY(floe__buf_putc(out, '"'));
    FLOE_TRY(floe__buf_put_json_escaped(out, dir, strlen(dir)));
    if (snap) {
        char sp[32];
        size_t n = snap_prefix(sp, s->snapshot_id);
        FLOE_TRY(floe__buf_put_json_escaped(out, sp, n));
    }
    FLOE_TRY(floe__buf_put_json_escaped(out, rest, strlen(rest)));
    return floe__buf_putc(out, '"');
}
