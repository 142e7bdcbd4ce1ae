/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/commit: the commit protocol (ARCHITECTURE.md "The commit protocol";
 * REST catalog OpenAPI `CommitTableRequest`: requirements + updates).
 *
 * One attempt: prepare(base) -> requirements + updates; check requirements
 * on the base; apply the updates with the spec builder; write the next
 * metadata file create-new (never overwriting); compare-and-set the catalog
 * pointer from the base location. A lost CAS (FLOE_ECONFLICT) deletes what
 * the attempt wrote (it never became visible), refreshes, and retries with
 * exponential backoff per commit.retry.* (Java's defaults: 4 retries,
 * 100 ms .. 60 s, 30 min total). An unknown outcome (FLOE_ECOMMITUNKNOWN)
 * keeps every written file; any other failure deletes them.
 */
#include "table/table.h"

#include "catalog/catalog.h"
#include "spec/spec.h"

#include <string.h>
#include <time.h>

static void (*sleep_hook)(int64_t ms);
static void (*step_hook)(const char *step);

void floe__table_set_sleep_hook(void (*fn)(int64_t ms))
{
    sleep_hook = fn;
}

void floe__table_set_step_hook(void (*fn)(const char *step))
{
    step_hook = fn;
}

static void step(const char *name)
{
    if (step_hook)
        step_hook(name);
}

static void sleep_ms(int64_t ms)
{
    if (sleep_hook) {
        sleep_hook(ms);
        return;
    }
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* ---------------------------------------------------------------- change */

int floe__change_init(floe_table_change *c)
{
    memset(c, 0, sizeof *c);
    c->requirements.item_size = sizeof(floe_requirement);
    c->updates.item_size = sizeof(floe_table_update);
    c->written.item_size = sizeof(char *);
    if (!(c->arena = floe__arena_new(4096)))
        return floe__error_nomem();
    return 0;
}

void floe__change_free(floe_table_change *c)
{
    if (c->updates.items)
        floe__commit_release(c->updates.items, c->updates.len);
    floe__vec_free(&c->requirements);
    floe__vec_free(&c->updates);
    floe__vec_free(&c->written);
    floe__arena_free(c->arena);
    c->arena = NULL;
}

void floe__change_reset(floe_table_change *c)
{
    if (c->updates.items)
        floe__commit_release(c->updates.items, c->updates.len);
    c->requirements.len = 0;
    c->updates.len = 0;
    c->written.len = 0;
    floe__arena_reset(c->arena);
}

floe_requirement *floe__change_require(floe_table_change *c, floe_requirement_type type)
{
    floe_requirement *r = floe__vec_push(&c->requirements);
    if (r)
        r->type = type;
    return r;
}

floe_table_update *floe__change_update(floe_table_change *c, floe_update_type type)
{
    floe_table_update *u = floe__vec_push(&c->updates);
    if (u)
        u->type = type;
    return u;
}

int floe__change_set_ref(floe_table_change *c, const floe_snapshot_ref *ref)
{
    floe_table_update *u = floe__change_update(c, FLOE_UPD_SET_SNAPSHOT_REF);
    if (!u)
        return floe__error_nomem();
    u->ref = *ref;
    if (!(u->ref.name = floe__arena_strdup(c->arena, ref->name)))
        return floe__error_nomem();
    return 0;
}

int floe__change_assert_ref(floe_table_change *c, const floe_table_metadata *base, const char *ref)
{
    floe_requirement *r = floe__change_require(c, FLOE_REQ_ASSERT_REF_SNAPSHOT_ID);
    if (!r || !(r->ref = floe__arena_strdup(c->arena, ref)))
        return floe__error_nomem();
    const floe_snapshot_ref *cur = floe__metadata_ref(base, ref);
    r->has_snapshot_id = cur != NULL;
    r->snapshot_id = cur ? cur->snapshot_id : 0;
    return 0;
}

int floe__change_update_parse(floe_table_change *c, const floe_json *u, int *format_version)
{
    floe_table_update *up = floe__vec_push(&c->updates);
    if (!up)
        return floe__error_nomem();
    int rc = floe__update_parse(u, format_version, c->arena, up);
    if (rc < 0) {
        floe__commit_release(up, 1);
        c->updates.len--;
    }
    return rc;
}

/* ---------------------------------------------------------------- metadata files */

int floe__metadata_file_version(const char *location)
{
    const char *slash = strrchr(location, '/');
    const char *p = slash ? slash + 1 : location;
    const char *dash = strchr(p, '-');
    if (!dash || dash == p || dash - p > 9)
        return -1;
    int v = 0;
    for (const char *q = p; q < dash; q++) {
        if (*q < '0' || *q > '9')
            return -1;
        v = v * 10 + (*q - '0');
    }
    return v;
}

static bool gzip_codec(const floe_table_metadata *m)
{
    const char *codec = floe__props_get(&m->properties, "write.metadata.compression-codec");
    return codec && (strcmp(codec, "gzip") == 0 || strcmp(codec, "GZIP") == 0);
}

int floe__metadata_file_name(const floe_table_metadata *m, int version, char **out)
{
    char uuid[37];
    FLOE_TRY(floe__uuid4(uuid));
    const char *dir = floe__props_get(&m->properties, "write.metadata.path");
    size_t dl = dir ? strlen(dir) : 0;
    while (dl > 0 && dir[dl - 1] == '/')
        dl--;
    size_t ll = strlen(m->location);
    while (ll > 0 && m->location[ll - 1] == '/')
        ll--;
    const char *ext = gzip_codec(m) ? ".gz.metadata.json" : ".metadata.json";
    *out = dir ? floe__sprintf("%.*s/%05d-%s%s", (int)dl, dir, version, uuid, ext)
               : floe__sprintf("%.*s/metadata/%05d-%s%s", (int)ll, m->location, version, uuid, ext);
    return *out ? 0 : floe__error_nomem();
}

int floe__metadata_serialize(const floe_table_metadata *m, floe_buf *out)
{
    if (!gzip_codec(m))
        return floe__metadata_write(m, out);
    floe_buf plain = FLOE_BUF_INIT;
    int rc = floe__metadata_write(m, &plain);
    if (rc == 0)
        rc = floe__gzip(&plain, out);
    floe__buf_free(&plain);
    return rc;
}

/* ---------------------------------------------------------------- catalog side */

void floe__table_remove_quietly(floe_fileio *io, const char *const *uris, size_t n)
{
    if (n == 0)
        return;
    /* Cleanup failures leave orphans, never a broken table: keep the
     * commit's own error, not the cleanup's. */
    int code = floe__error_code();
    const floe_error *e = floe_error_last();
    char *msg = e && e->message ? floe__strdup(e->message) : NULL;
    const char *sub = e && e->subsystem ? e->subsystem : "table";
    step("cleanup");
    /* A path whose allocation failed mid-write is recorded as NULL: skip it. */
    size_t live = 0;
    for (size_t i = 0; i < n; i++)
        live += uris[i] != NULL;
    if (live == n) {
        floe_fileio_remove(io, uris, n);
    } else {
        for (size_t i = 0; i < n; i++)
            if (uris[i])
                floe_fileio_remove(io, &uris[i], 1);
    }
    if (code < 0)
        floe__error(code, sub, "%s", msg ? msg : "commit failed");
    floe__free(msg);
}

int floe__table_commit_write(floe_fileio *io, const floe_table_metadata *base,
                             const char *base_location, const floe_table_change *change,
                             char **new_location, floe_table_metadata **new_metadata)
{
    *new_location = NULL;
    *new_metadata = NULL;
    FLOE_TRY(floe__commit_check(base, change->requirements.items, change->requirements.len));
    floe_metadata_builder *b = NULL;
    floe_table_metadata *m = NULL;
    floe_buf text = FLOE_BUF_INIT;
    char *loc = NULL;
    int rc = floe__metadata_builder_new(&b, base, base_location);
    if (rc == 0)
        rc = floe__commit_apply(b, change->updates.items, change->updates.len);
    if (rc == 0)
        rc = floe__metadata_builder_build(b, floe__now_ms(), &m);
    floe__metadata_builder_free(b);
    if (rc == 0)
        rc = floe__metadata_file_name(m, floe__metadata_file_version(base_location) + 1, &loc);
    if (rc == 0)
        rc = floe__metadata_serialize(m, &text);
    if (rc == 0) {
        step("write-metadata");
        rc = floe__io_write_new(io, loc, text.ptr, text.len);
        if (rc < 0) {
            /* create-new either created the object completely or not at
             * all; an I/O error may still hide a completed write, so try
             * to remove it (never visible: the pointer did not move) */
            if (rc != FLOE_EEXISTS) {
                const char *one[] = {loc};
                floe__table_remove_quietly(io, one, 1);
            }
            floe__error_context("writing %s", loc);
        }
    }
    floe__buf_free(&text);
    if (rc == 0) {
        *new_location = loc;
        *new_metadata = m;
        return 0;
    }
    floe__metadata_free(m);
    floe__free(loc);
    return rc;
}

int floe__table_commit_sql(floe_catalog *cat, floe_fileio *io, const char *ident,
                           const floe_table_metadata *base, const char *base_location,
                           const floe_table_change *change, char **new_location,
                           floe_table_metadata **new_metadata)
{
    *new_location = NULL;
    *new_metadata = NULL;
    char *loc = NULL;
    floe_table_metadata *m = NULL;
    int rc = floe__table_commit_write(io, base, base_location, change, &loc, &m);
    if (rc == 0) {
        step("swap");
        rc = floe__catalog_commit_table_md(cat, ident, base_location, loc, base, m);
        if (rc == 0)
            step("committed");
        if (rc < 0 && rc != FLOE_ECOMMITUNKNOWN) {
            const char *one[] = {loc};
            floe__table_remove_quietly(io, one, 1);
        }
    }
    if (rc == 0 || rc == FLOE_ECOMMITUNKNOWN) {
        *new_location = loc;
        if (rc == 0)
            *new_metadata = m;
        else
            floe__metadata_free(m);
        if (rc == 0 && base) {
            /* write.metadata.delete-after-commit.enabled: drop metadata
             * files that fell out of the metadata-log (Java's
             * deleteRemovedMetadataFiles) */
            bool del = false;
            if (floe__props_get_bool(&m->properties, "write.metadata.delete-after-commit.enabled",
                                     false, &del) == 0 &&
                del) {
                floe_vec gone = FLOE_VEC_INIT(const char *);
                for (size_t i = 0; i < base->n_metadata_log; i++) {
                    bool kept = false;
                    for (size_t k = 0; k < m->n_metadata_log && !kept; k++)
                        kept = strcmp(m->metadata_log[k].metadata_file,
                                      base->metadata_log[i].metadata_file) == 0;
                    const char **slot = kept ? NULL : floe__vec_push(&gone);
                    if (slot)
                        *slot = base->metadata_log[i].metadata_file;
                }
                if (gone.len) {
                    step("cleanup");
                    floe_fileio_remove(io, gone.items, gone.len);
                    floe_error_clear();
                }
                floe__vec_free(&gone);
            }
        }
        return rc;
    }
    floe__metadata_free(m);
    floe__free(loc);
    return rc;
}

/* One attempt through whichever side applies changes: a catalog that
 * applies requirements + updates itself (REST) gets them as a
 * CommitTableRequest and the new metadata is read back from the location it
 * reports; otherwise floe builds and writes the metadata and swaps the
 * pointer (SQLite). Either way the outcomes are the same codes. */
static int commit_attempt(floe_table *t, const floe_table_change *change, char **loc,
                          floe_table_metadata **m)
{
    if (!floe__catalog_commits_changes(t->catalog))
        return floe__table_commit_sql(t->catalog, t->io, t->ident, t->metadata,
                                      t->metadata_location, change, loc, m);
    *loc = NULL;
    *m = NULL;
    floe_buf body = FLOE_BUF_INIT;
    int rc = floe__change_to_json(t->metadata, change, &body);
    if (rc == 0) {
        step("swap");
        rc = floe__catalog_commit(t->catalog, t->ident, (const char *)body.ptr, body.len, loc);
        if (rc == 0)
            step("committed");
    }
    floe__buf_free(&body);
    if (rc == 0 && floe__table_read_metadata(t->io, *loc, m) < 0) {
        /* committed, but the new file cannot be read back here: the next
         * refresh picks it up */
        floe_error_clear();
        rc = floe_table_refresh(t);
        floe__free(*loc);
        *loc = NULL;
        return rc < 0 ? rc : 1;
    }
    return rc;
}

/* ---------------------------------------------------------------- retry loop */

typedef struct retry_policy {
    int64_t num_retries, min_wait_ms, max_wait_ms, total_timeout_ms;
} retry_policy;

static int read_policy(const floe_table_metadata *m, retry_policy *p)
{
    FLOE_TRY(floe__props_get_int64(&m->properties, "commit.retry.num-retries", 4, &p->num_retries));
    FLOE_TRY(
        floe__props_get_int64(&m->properties, "commit.retry.min-wait-ms", 100, &p->min_wait_ms));
    FLOE_TRY(
        floe__props_get_int64(&m->properties, "commit.retry.max-wait-ms", 60000, &p->max_wait_ms));
    FLOE_TRY(floe__props_get_int64(&m->properties, "commit.retry.total-timeout-ms", 1800000,
                                   &p->total_timeout_ms));
    if (p->num_retries < 0)
        p->num_retries = 0;
    if (p->min_wait_ms < 0)
        p->min_wait_ms = 0;
    if (p->max_wait_ms < p->min_wait_ms)
        p->max_wait_ms = p->min_wait_ms;
    return 0;
}

static void remove_written(floe_fileio *io, const floe_table_change *c)
{
    floe__table_remove_quietly(io, c->written.items, c->written.len);
}

int floe__table_commit(floe_table *t, floe_prepare_fn prepare, void *payload)
{
    if (t->staged)
        return floe__staged_commit(t, prepare, payload);
    floe_table_change change;
    FLOE_TRY(floe__change_init(&change));
    retry_policy pol;
    int rc = read_policy(t->metadata, &pol);
    int64_t start_ms = floe__mono_ns() / 1000000;
    bool fresh = false;
    for (int64_t attempt = 0; rc == 0; attempt++) {
        floe__change_reset(&change);
        rc = prepare(t->metadata, &change, payload);
        if (rc < 0) {
            remove_written(t->io, &change);
            break;
        }
        if (change.updates.len == 0)
            break; /* nothing changes: no metadata file (Java: "Nothing to commit") */
        /* A requirement that fails on a possibly stale handle is checked
         * again on the catalog's current state; failing there, it is final. */
        rc = floe__commit_check(t->metadata, change.requirements.items, change.requirements.len);
        if (rc < 0) {
            remove_written(t->io, &change);
            if (fresh)
                break;
            fresh = true;
            attempt--;
            rc = floe_table_refresh(t);
            continue;
        }
        char *loc = NULL;
        floe_table_metadata *m = NULL;
        rc = commit_attempt(t, &change, &loc, &m);
        if (rc == 1) { /* committed; the handle was refreshed */
            rc = 0;
            break;
        }
        if (rc == 0) {
            floe__table_set_state(t, m, loc);
            break;
        }
        if (rc == FLOE_ECOMMITUNKNOWN) {
            /* Check whether the swap happened after all (Java's
             * checkCommitStatus); keep every file either way. */
            char *now = NULL;
            int saved = rc;
            char *msg = floe__strdup(floe_error_last() ? floe_error_last()->message : "");
            if (loc && floe_catalog_load_table(&now, NULL, t->catalog, t->ident) == 0 &&
                strcmp(now, loc) == 0) {
                floe_table_metadata *nm = NULL;
                if (floe__table_read_metadata(t->io, loc, &nm) == 0) {
                    floe__table_set_state(t, nm, loc);
                    loc = NULL;
                    saved = 0;
                }
            }
            floe_string_free(now);
            if (saved < 0)
                floe__error(FLOE_ECOMMITUNKNOWN, "table", "%s", msg ? msg : "commit state unknown");
            floe__free(msg);
            floe__free(loc);
            rc = saved;
            break;
        }
        remove_written(t->io, &change);
        if (rc != FLOE_ECONFLICT)
            break;
        /* Lost the race or a requirement failed on a stale base: refresh,
         * then let prepare re-validate on the new state. */
        int64_t elapsed = floe__mono_ns() / 1000000 - start_ms;
        if (attempt >= pol.num_retries || elapsed >= pol.total_timeout_ms) {
            floe__error_context("commit of %s failed after %lld attempts", t->ident,
                                (long long)attempt + 1);
            break;
        }
        int64_t wait = pol.min_wait_ms;
        for (int64_t k = 0; k < attempt && wait < pol.max_wait_ms; k++)
            wait *= 2;
        if (wait > pol.max_wait_ms)
            wait = pol.max_wait_ms;
        /* jitter up to 10% so concurrent writers spread out */
        uint32_t r = 0;
        floe__random_bytes(&r, sizeof r);
        if (wait > 0)
            wait += (int64_t)(r % (uint32_t)(wait / 10 + 1));
        if (elapsed + wait > pol.total_timeout_ms)
            wait = pol.total_timeout_ms - elapsed;
        if (wait > 0)
            sleep_ms(wait);
        rc = floe_table_refresh(t);
        fresh = true;
    }
    floe__change_free(&change);
    return rc;
}
