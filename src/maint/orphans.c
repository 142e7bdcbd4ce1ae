/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/orphans: remove_orphan_files. An object under the table location
 * is an orphan when no retained metadata reaches it (seed 002, question 5:
 * "a file is an orphan only when the manifests of no live snapshot
 * reference it"). Reachable are: the current metadata file and every file
 * of its metadata-log, version-hint.text, and for every snapshot of every
 * one of those metadata files its manifest list, the manifests the list
 * names, every file any entry of those manifests names (all statuses: a
 * DELETED entry still documents a file an older snapshot may need), and
 * the statistics and partition-statistics files.
 *
 * The comparison is an anti-join of two sorted streams: the listing (only
 * objects older than the threshold) and the reachable locations, both fed
 * through the external sort (xsort.c), so memory stays flat for millions
 * of objects; the orphans themselves go through a third sort so that a
 * scheme/authority conflict found late still fails before anything is
 * deleted. Locations are compared by their path part; equal paths whose
 * schemes or authorities differ after normalisation (s3 = s3a = s3n,
 * file: = plain path, plus the caller's equivalences) are conflicts,
 * handled per prefix_mismatch_mode as in Java's DeleteOrphanFiles.
 *
 * The local FileIO hides ".<name>.floe-tmp-<uuid>" temporaries (an
 * unfinished write, like an incomplete multipart upload). A crashed writer
 * leaves them behind, so for a local location this sweep walks the
 * directories itself to find them; they are never reachable and go once
 * older than the threshold (a write in progress is younger).
 */
#include "maint.h"
#include "util/progress.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#define TMP_MARK ".floe-tmp-"
#define MAX_CONFLICTS 20

typedef struct sweep {
    floe_fileio *io;
    const floe_maint_orphan_options *o;
    floe_maint_orphan_result *r;
    int64_t older_than;
    floe_xsort *listed;
    floe_xsort *reachable;
    floe_strmap *seen; /* manifest lists + manifests already expanded */
    floe_arena *arena;
    floe_buf bytes;
    floe_props schemes;      /* from -> to */
    floe_props authorities;  /* from -> to */
    floe_buf norm;           /* scratch: a normalised location */
    floe_vec metadata_files; /* char*: listed *.metadata.json (any age) */
    floe_strmap *own;        /* normalised: this table's current + logged metadata */
} sweep;

/* "from=to[,from=to]" into props. */
static int parse_pairs(floe_props *out, const char *spec, const char *what)
{
    if (!spec)
        return 0;
    const char *p = spec;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (n && (!eq || eq == p || eq == p + n - 1))
            return floe__error(FLOE_EINVALID, "maint", "bad %s entry '%.*s' (want from=to)", what,
                               (int)n, p);
        if (n) {
            char *from = floe__strndup(p, (size_t)(eq - p));
            char *to = floe__strndup(eq + 1, (size_t)(p + n - eq - 1));
            int rc = from && to ? floe__props_set(out, from, to) : FLOE_ENOMEM;
            floe__free(from);
            floe__free(to);
            FLOE_TRY(rc);
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* The location with its path part normalised as Java compares them (a
 * Hadoop Path's URI: normalize(), then the decoded path): %XX decoded,
 * empty segments ("//") and "." dropped, ".." removing the segment before
 * it. Scheme and authority are kept as written (norm_prefix compares them).
 * Normalising can only make two spellings equal, never two equal ones
 * different, so a live file is never taken for an orphan because of how a
 * writer spelled it. */
static int norm_location(const char *loc, floe_buf *out)
{
    floe__buf_clear(out);
    size_t off = floe__location_path_offset(loc);
    FLOE_TRY(floe__buf_put(out, loc, off));
    const char *p = loc + off;
    if (*p == '/')
        FLOE_TRY(floe__buf_put(out, "/", 1));
    size_t root = out->len; /* segments start here */
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        if (out->len > root)
            FLOE_TRY(floe__buf_put(out, "/", 1));
        size_t seg = out->len;
        while (*p && *p != '/') {
            char c = *p++;
            /* %XX decoded (%00 stays as written) */
            int hi = c == '%' ? floe__hex_digit(p[0]) : -1;
            int lo = hi >= 0 ? floe__hex_digit(p[1]) : -1;
            if (lo >= 0 && (hi || lo)) {
                c = (char)(hi * 16 + lo);
                p += 2;
            }
            FLOE_TRY(floe__buf_put(out, &c, 1));
        }
        size_t sl = out->len - seg;
        const char *sp = out->ptr + seg;
        if (sl == 1 && sp[0] == '.') {
            out->len = seg > root ? seg - 1 : seg;
        } else if (sl == 2 && sp[0] == '.' && sp[1] == '.') {
            out->len = seg > root ? seg - 1 : seg;
            while (out->len > root && out->ptr[--out->len] != '/')
                ;
        }
    }
    FLOE_TRY(floe__buf_reserve(out, 0));
    out->ptr[out->len] = '\0';
    return 0;
}

static int add_reachable(sweep *s, const char *loc)
{
    FLOE_TRY(norm_location(loc, &s->norm));
    return floe__xsort_add(s->reachable, s->norm.ptr, 0);
}

static int add_listed(sweep *s, const char *loc, int64_t mtime_ms)
{
    FLOE_TRY(norm_location(loc, &s->norm));
    return floe__xsort_add_keyed(s->listed, s->norm.ptr, loc, mtime_ms);
}

/* A Hadoop checksum sidecar ".<name>.crc" of a local location: Hadoop's
 * local file system (Spark's writes to file: tables) writes one next to
 * every file, hides it from listings and deletes it with its file, so
 * Java's DeleteOrphanFiles never sees it. It is part of <name> here too:
 * not listed, and removed with <name> when that is an orphan. */
static bool is_local(const char *uri)
{
    const char *scheme;
    size_t sl = floe__uri_scheme(uri, &scheme);
    return !sl || (sl == 4 && strncmp(scheme, "file", 4) == 0);
}

static bool hadoop_crc(const char *uri)
{
    const char *b = strrchr(uri, '/');
    b = b ? b + 1 : uri;
    size_t n = strlen(b);
    return n > 5 && b[0] == '.' && strcmp(b + n - 4, ".crc") == 0 && is_local(uri);
}

/* The sidecar of local orphan `loc` when it exists, else NULL. */
static char *crc_sidecar(const char *loc)
{
    if (!is_local(loc))
        return NULL;
    const char *b = strrchr(loc, '/');
    if (!b)
        return NULL;
    char *side = floe__sprintf("%.*s/.%s.crc", (int)(b - loc), loc, b + 1);
    const char *path = side ? floe__local_path(side) : NULL;
    struct stat st;
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        floe_error_clear();
        floe__free(side);
        return NULL;
    }
    return side;
}

static int on_listed(const floe_file_info *info, void *payload)
{
    sweep *s = payload;
    if (hadoop_crc(info->uri))
        return 0;
    s->r->listed_files_count++;
    if (floe__metadata_file_location(info->uri)) {
        char **slot = floe__vec_push(&s->metadata_files);
        if (!slot || !(*slot = floe__strdup(info->uri)))
            return FLOE_ENOMEM;
    }
    if (info->mtime_ms >= s->older_than)
        return 0;
    return add_listed(s, info->uri, info->mtime_ms);
}

/* Hidden temporaries of the local backend, found by walking ourselves. */
static int walk_tmp(sweep *s, floe_buf *dir, size_t head_len, const char *head, int depth)
{
    if (depth > 64)
        return 0;
    DIR *d = opendir(dir->ptr);
    if (!d)
        return 0;
    int rc = 0;
    struct dirent *e;
    size_t base = dir->len;
    floe_buf uri = FLOE_BUF_INIT;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        dir->len = base;
        if ((rc = floe__buf_printf(dir, "/%s", e->d_name)) < 0)
            break;
        struct stat st;
        if (lstat(dir->ptr, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            rc = walk_tmp(s, dir, head_len, head, depth + 1);
        } else if (S_ISREG(st.st_mode) && strstr(e->d_name, TMP_MARK)) {
            int64_t mtime = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
            s->r->listed_files_count++;
            if (mtime < s->older_than) {
                floe__buf_clear(&uri);
                rc = floe__buf_put(&uri, head, head_len);
                if (rc == 0)
                    rc = floe__buf_puts(&uri, dir->ptr);
                if (rc == 0)
                    rc = add_listed(s, uri.ptr, mtime);
            }
        }
    }
    closedir(d);
    dir->len = base;
    dir->ptr[base] = '\0';
    floe__buf_free(&uri);
    return rc;
}

static int list_tmp(sweep *s, const char *location)
{
    if (!is_local(location))
        return 0;
    const char *path = floe__local_path(location);
    if (!path) {
        floe_error_clear();
        return 0;
    }
    floe_buf dir = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&dir, path);
    while (rc == 0 && dir.len > 1 && dir.ptr[dir.len - 1] == '/')
        dir.ptr[--dir.len] = '\0';
    if (rc == 0)
        rc = walk_tmp(s, &dir, (size_t)(path - location), location, 0);
    floe__buf_free(&dir);
    return rc;
}

static bool seen_before(sweep *s, const char *path, int *rc)
{
    *rc = 0;
    if (floe__strmap_has(s->seen, path))
        return true;
    char *k = floe__arena_strdup(s->arena, path);
    *rc = k ? floe__strmap_put(s->seen, k, (void *)1) : FLOE_ENOMEM;
    return false;
}

static int reach_manifest(sweep *s, const floe_manifest_file *mf)
{
    floe_manifest_reader *rd = NULL;
    int rc = floe__maint_open_manifest(s->io, mf, &s->bytes, &rd);
    if (rc == FLOE_ENOTFOUND) {
        /* already gone: nothing under it can be protected or found */
        floe_error_clear();
        return 0;
    }
    const floe_manifest_entry *e;
    while (rc == 0 && (rc = floe_manifest_reader_next(rd, &e)) == 0) {
        if (e->data_file.file_path)
            rc = add_reachable(s, e->data_file.file_path);
        s->r->reachable_files_count++;
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    floe_manifest_reader_free(rd);
    if (rc < 0)
        floe__error_context("reading manifest %s", mf->manifest_path);
    return rc;
}

static int reach_metadata(sweep *s, const floe_table_metadata *m)
{
    int rc = 0;
    /* one phase per metadata file read: items are its snapshots */
    floe__progress pr;
    floe__progress_init(&pr, s->o->progress, s->o->progress_payload, "reading snapshots",
                        (uint64_t)m->nsnapshots, 0);
    for (size_t i = 0; rc == 0 && i < m->nstatistics; i++)
        rc = add_reachable(s, m->statistics[i].statistics_path);
    for (size_t i = 0; rc == 0 && i < m->npartition_statistics; i++)
        rc = add_reachable(s, m->partition_statistics[i].statistics_path);
    for (size_t i = 0; rc == 0 && i < m->nsnapshots; i++) {
        const floe_snapshot *sn = &m->snapshots[i];
        const char *lp = NULL;
        if (i)
            floe__progress_add(&pr, 1, 0);
        if ((rc = floe__maint_list_path(sn, s->arena, &lp)) < 0)
            break;
        if (lp) {
            if (seen_before(s, lp, &rc) || rc < 0)
                continue;
            if ((rc = add_reachable(s, lp)) < 0)
                break;
        }
        floe_manifest_list *list = NULL;
        const floe_manifest_file *mfs;
        size_t n;
        rc = floe__maint_snapshot_manifests(s->io, sn, &s->bytes, &list, s->arena, &mfs, &n);
        if (rc == FLOE_ENOTFOUND) {
            floe_error_clear();
            rc = 0;
            continue;
        }
        /* copy the entries: reading a manifest reuses the bytes buffer */
        floe_manifest_file *copy = NULL;
        if (rc == 0 && n) {
            copy = floe__calloc(n, sizeof *copy);
            if (!copy)
                rc = FLOE_ENOMEM;
        }
        for (size_t k = 0; rc == 0 && k < n; k++) {
            copy[k] = mfs[k];
            copy[k].has_partitions = false;
            copy[k].partitions = NULL;
            copy[k].manifest_path = floe__arena_strdup(s->arena, mfs[k].manifest_path);
            if (!copy[k].manifest_path)
                rc = FLOE_ENOMEM;
        }
        floe_manifest_list_free(list);
        for (size_t k = 0; rc == 0 && k < n; k++) {
            if (seen_before(s, copy[k].manifest_path, &rc) || rc < 0)
                continue;
            rc = add_reachable(s, copy[k].manifest_path);
            if (rc == 0)
                rc = reach_manifest(s, &copy[k]);
        }
        floe__free(copy);
    }
    if (rc == 0 && m->nsnapshots)
        floe__progress_add(&pr, 1, 0);
    floe__progress_finish(&pr);
    return rc;
}

/* ---------------------------------------------------------------- normalisation */

static int norm_prefix(const sweep *s, const char *loc, floe_buf *out)
{
    floe__buf_clear(out);
    size_t off = floe__location_path_offset(loc);
    if (off == 0)
        return floe__buf_puts(out, "");
    const char *colon = strchr(loc, ':');
    char scheme[32];
    size_t sl = (size_t)(colon - loc);
    if (sl >= sizeof scheme)
        sl = sizeof scheme - 1;
    for (size_t i = 0; i < sl; i++)
        scheme[i] = (char)(loc[i] >= 'A' && loc[i] <= 'Z' ? loc[i] + 32 : loc[i]);
    scheme[sl] = '\0';
    const char *sc = floe__props_get(&s->schemes, scheme);
    if (!sc)
        sc = scheme;
    if (strcmp(sc, "s3a") == 0 || strcmp(sc, "s3n") == 0)
        sc = "s3";
    if (strcmp(sc, "file") == 0)
        return 0; /* file: URIs equal plain paths (no authority kept) */
    const char *auth = colon + 1;
    size_t al = 0;
    if (auth[0] == '/' && auth[1] == '/') {
        auth += 2;
        al = (size_t)(loc + off - auth);
    }
    char *a = floe__strndup(auth, al);
    if (!a)
        return FLOE_ENOMEM;
    const char *av = floe__props_get(&s->authorities, a);
    if (!av)
        av = a;
    int rc = floe__buf_printf(out, "%s://%s", sc, av);
    floe__free(a);
    return rc;
}

typedef struct joiner {
    floe_buf group_path;
    floe_vec group; /* char* normalised prefixes */
    bool have_r;
    const char *r_loc;
    floe_buf tmp;
} joiner;

static void group_clear(joiner *j)
{
    for (size_t i = 0; i < j->group.len; i++)
        floe__free(*(char **)floe__vec_at(&j->group, i));
    j->group.len = 0;
}

static int r_next(sweep *s, joiner *j)
{
    int rc = floe__xsort_next(s->reachable, &j->r_loc, NULL);
    if (rc == FLOE_ITEROVER) {
        j->have_r = false;
        return 0;
    }
    j->have_r = rc == 0;
    return rc;
}

/* Position the reachable stream on `lpath`; collect its prefixes. */
static int seek_group(sweep *s, joiner *j, const char *lpath)
{
    if (j->group_path.ptr && strcmp(j->group_path.ptr, lpath) == 0)
        return 0;
    group_clear(j);
    floe__buf_clear(&j->group_path);
    FLOE_TRY(floe__buf_puts(&j->group_path, lpath));
    while (j->have_r && strcmp(j->r_loc + floe__location_path_offset(j->r_loc), lpath) < 0)
        FLOE_TRY(r_next(s, j));
    while (j->have_r && strcmp(j->r_loc + floe__location_path_offset(j->r_loc), lpath) == 0) {
        FLOE_TRY(norm_prefix(s, j->r_loc, &j->tmp));
        char *p = floe__strdup(j->tmp.ptr ? j->tmp.ptr : "");
        char **slot = p ? floe__vec_push(&j->group) : NULL;
        if (!slot) {
            floe__free(p);
            return FLOE_ENOMEM;
        }
        *slot = p;
        FLOE_TRY(r_next(s, j));
    }
    return 0;
}

static int flush(sweep *s, const char **paths, size_t n)
{
    if (n == 0 || s->o->dry_run)
        return 0;
    if (floe_fileio_remove(s->io, paths, n) == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (floe_fileio_remove(s->io, &paths[i], 1) < 0)
            s->r->failed_deletes_count++;
    floe_error_clear();
    return 0;
}

static int delete_orphans(sweep *s, floe_xsort *orphans)
{
    enum { BATCH = 256 };
    char *batch[BATCH];
    size_t n = 0;
    int rc = 0;
    const char *loc;
    while ((rc = floe__xsort_next(orphans, &loc, NULL)) == 0) {
        s->r->orphan_files_count++;
        if (s->o->on_orphan && (rc = s->o->on_orphan(loc, s->o->payload)) < 0)
            break;
        if (s->o->dry_run)
            continue;
        if (!(batch[n] = floe__strdup(loc))) {
            rc = FLOE_ENOMEM;
            break;
        }
        if ((batch[n + 1] = crc_sidecar(loc))) /* deleted with its file, not counted */
            n++;
        if (++n >= BATCH - 1) {
            rc = flush(s, (const char **)batch, n);
            for (size_t i = 0; i < n; i++)
                floe__free(batch[i]);
            n = 0;
            if (rc < 0)
                break;
        }
    }
    if (rc == FLOE_ITEROVER)
        rc = flush(s, (const char **)batch, n);
    for (size_t i = 0; i < n; i++)
        floe__free(batch[i]);
    return rc;
}

/* Record one distinct (listed vs referenced) prefix pair; the message
 * names at most MAX_CONFLICTS of them. */
static int note_conflict(floe_props *seen, floe_buf *msg, size_t *n, const char *listed,
                         const char *referenced)
{
    floe_buf key = FLOE_BUF_INIT;
    int rc = floe__buf_printf(&key, "(%s vs %s)", listed, referenced);
    if (rc == 0 && !floe__props_get(seen, key.ptr)) {
        rc = floe__props_set(seen, key.ptr, "");
        if (rc == 0 && (*n)++ < MAX_CONFLICTS)
            rc = floe__buf_printf(msg, "%s%s", *n > 1 ? ", " : "", key.ptr);
    }
    floe__buf_free(&key);
    return rc;
}

static int join(sweep *s, floe_xsort *orphans)
{
    joiner j;
    memset(&j, 0, sizeof j);
    j.group = (floe_vec)FLOE_VEC_INIT(char *);
    floe_buf lnorm = FLOE_BUF_INIT, conflicts = FLOE_BUF_INIT;
    size_t nconf = 0;
    floe_props seen = FLOE_PROPS_INIT; /* distinct conflicting pairs */
    int rc = r_next(s, &j);
    const char *loc, *original;
    while (rc == 0 && (rc = floe__xsort_next_keyed(s->listed, &loc, &original, NULL)) == 0) {
        const char *lpath = loc + floe__location_path_offset(loc);
        if ((rc = seek_group(s, &j, lpath)) < 0)
            break;
        bool orphan = j.group.len == 0;
        if (!orphan) {
            if ((rc = norm_prefix(s, loc, &lnorm)) < 0)
                break;
            bool match = false;
            for (size_t i = 0; i < j.group.len && !match; i++)
                match =
                    strcmp(*(char **)floe__vec_at(&j.group, i), lnorm.ptr ? lnorm.ptr : "") == 0;
            if (!match) {
                if (s->o->prefix_mismatch_mode == FLOE_MAINT_PREFIX_MISMATCH_DELETE)
                    orphan = true;
                else if (s->o->prefix_mismatch_mode == FLOE_MAINT_PREFIX_MISMATCH_ERROR)
                    rc = note_conflict(&seen, &conflicts, &nconf,
                                       lnorm.ptr && *lnorm.ptr ? lnorm.ptr : "<path>",
                                       *(char **)floe__vec_at(&j.group, 0));
            }
        }
        if (rc == 0 && orphan)
            rc = floe__xsort_add(orphans, original, 0);
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    if (rc == 0 && nconf)
        rc =
            floe__error(FLOE_EINVALID, "maint",
                        "Unable to determine whether certain files are orphan. Metadata references "
                        "files that match listed/provided files except for authority/scheme. "
                        "Configure equal_schemes / equal_authorities, or set prefix_mismatch_mode "
                        "to IGNORE or DELETE. Conflicting authorities/schemes (%zu): %s",
                        nconf, conflicts.ptr);
    group_clear(&j);
    floe__vec_free(&j.group);
    floe__buf_free(&j.group_path);
    floe__buf_free(&j.tmp);
    floe__buf_free(&lnorm);
    floe__buf_free(&conflicts);
    floe__props_free(&seen);
    return rc;
}

/* Note one of this table's metadata files (current or in the log). */
static int note_own(sweep *s, const char *location)
{
    FLOE_TRY(norm_location(location, &s->norm));
    const char *path = s->norm.ptr + floe__location_path_offset(s->norm.ptr);
    if (floe__strmap_has(s->own, path))
        return 0;
    char *k = floe__arena_strdup(s->arena, path);
    return k ? floe__strmap_put(s->own, k, (void *)1) : FLOE_ENOMEM;
}

/* Another table's metadata under the listed location means its data,
 * manifests and metadata would all be listed as orphans of this one (two
 * tables created at one location, or a dropped table's files). Every
 * listed metadata file that is not this table's current or logged one is
 * read: one of this table (same table-uuid; e.g. an uncommitted or
 * trimmed version) is an ordinary orphan candidate, any other stops the
 * sweep before anything is deleted. */
static int check_other_tables(sweep *s, const floe_table_metadata *m, const char *location)
{
    for (size_t i = 0; i < s->metadata_files.len; i++) {
        const char *f = *(char **)floe__vec_at(&s->metadata_files, i);
        FLOE_TRY(norm_location(f, &s->norm));
        if (floe__strmap_has(s->own, s->norm.ptr + floe__location_path_offset(s->norm.ptr)))
            continue;
        floe_table_metadata *other = NULL;
        int rc = floe__maint_read_metadata(s->io, f, &other);
        if (rc == FLOE_ENOTFOUND) { /* gone since the listing */
            floe_error_clear();
            continue;
        }
        if (rc < 0)
            return floe__error_context("cannot tell which table the metadata file %s under %s "
                                       "belongs to, so no orphan files were removed",
                                       f, location);
        bool same =
            other->table_uuid && m->table_uuid && strcmp(other->table_uuid, m->table_uuid) == 0;
        if (!same)
            rc = floe__error(FLOE_EINVALID, "maint",
                             "Cannot remove orphan files: %s is the metadata of another table "
                             "(table-uuid %s, location %s) under %s; its files would be taken for "
                             "orphans. Move one of the tables, or remove that table's files first",
                             f, other->table_uuid ? other->table_uuid : "unknown",
                             other->location ? other->location : "unknown", location);
        floe__metadata_free(other);
        FLOE_TRY(rc);
    }
    return 0;
}

static int sweep_table(sweep *s, const floe_table_metadata *m, const char *metadata_location)
{
    int rc = note_own(s, metadata_location);
    if (rc == 0)
        rc = add_reachable(s, metadata_location);
    char *hint = rc == 0 ? floe__sprintf("%s/metadata/version-hint.text", m->location) : NULL;
    if (rc == 0 && !hint)
        rc = FLOE_ENOMEM;
    if (rc == 0)
        rc = add_reachable(s, hint);
    floe__free(hint);
    if (rc == 0)
        rc = reach_metadata(s, m);
    /* every metadata file of the log, and what its snapshots reach */
    for (size_t i = 0; rc == 0 && i < m->n_metadata_log; i++) {
        const char *p = m->metadata_log[i].metadata_file;
        if ((rc = note_own(s, p)) < 0 || (rc = add_reachable(s, p)) < 0)
            break;
        floe_table_metadata *old = NULL;
        rc = floe__maint_read_metadata(s->io, p, &old);
        if (rc == FLOE_ENOTFOUND) {
            floe_error_clear();
            rc = 0;
            continue;
        }
        if (rc == 0)
            rc = reach_metadata(s, old);
        floe__metadata_free(old);
    }
    return rc;
}

int floe_maint_remove_orphan_files(floe_maint_orphan_result *out, floe_catalog *catalog,
                                   const char *ident, const floe_maint_orphan_options *opts)
{
    static const floe_maint_orphan_options defaults = FLOE_MAINT_ORPHAN_OPTIONS_INIT;
    if (!out)
        return floe__error(FLOE_EINVALID, "maint", "result pointer is NULL");
    memset(out, 0, sizeof *out);
    const floe_maint_orphan_options *o = opts ? opts : &defaults;
    if (o->version != FLOE_MAINT_ORPHAN_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported orphan options version %u",
                           o->version);
    floe_maint_table t;
    FLOE_TRY(floe__maint_table_load(&t, catalog, ident, o->io, o->io_conf));
    sweep s;
    memset(&s, 0, sizeof s);
    s.io = t.io;
    s.o = o;
    s.r = out;
    int64_t now = o->now_ms ? o->now_ms : floe__now_ms();
    s.older_than = o->has_older_than ? o->older_than_ms : now - FLOE_DEFAULT_ORPHAN_AGE_MS;
    floe_xsort *orphans = NULL;
    char *prefix = NULL;
    s.schemes = (floe_props)FLOE_PROPS_INIT;
    s.authorities = (floe_props)FLOE_PROPS_INIT;
    int rc = parse_pairs(&s.schemes, o->equal_schemes, "equal_schemes");
    if (rc == 0)
        rc = parse_pairs(&s.authorities, o->equal_authorities, "equal_authorities");
    if (rc == 0)
        rc = floe__xsort_new(&s.listed, o->sort_run_bytes);
    if (rc == 0)
        rc = floe__xsort_new(&s.reachable, o->sort_run_bytes);
    if (rc == 0)
        rc = floe__xsort_new(&orphans, o->sort_run_bytes);
    s.seen = floe__strmap_new();
    s.own = floe__strmap_new();
    s.arena = floe__arena_new(0);
    s.metadata_files = (floe_vec)FLOE_VEC_INIT(char *);
    if (rc == 0 && (!s.seen || !s.own || !s.arena))
        rc = FLOE_ENOMEM;
    const char *location = o->location ? o->location : t.metadata->location;
    if (rc == 0) {
        size_t n = strlen(location);
        prefix = floe__sprintf("%s%s", location, n && location[n - 1] == '/' ? "" : "/");
        if (!prefix)
            rc = FLOE_ENOMEM;
    }
    if (rc == 0)
        rc = floe_fileio_list(s.io, prefix, on_listed, &s);
    if (rc == 0)
        rc = list_tmp(&s, location);
    if (rc == 0)
        rc = sweep_table(&s, t.metadata, t.metadata_location);
    if (rc == 0)
        rc = check_other_tables(&s, t.metadata, location);
    if (rc == 0)
        rc = join(&s, orphans);
    if (rc == 0)
        rc = delete_orphans(&s, orphans);
    floe__free(prefix);
    floe__xsort_free(s.listed);
    floe__xsort_free(s.reachable);
    floe__xsort_free(orphans);
    floe__strmap_free(s.seen);
    floe__strmap_free(s.own);
    for (size_t i = 0; i < s.metadata_files.len; i++)
        floe__free(*(char **)floe__vec_at(&s.metadata_files, i));
    floe__vec_free(&s.metadata_files);
    floe__arena_free(s.arena);
    floe__buf_free(&s.bytes);
    floe__buf_free(&s.norm);
    floe__props_free(&s.schemes);
    floe__props_free(&s.authorities);
    floe__maint_table_free(&t);
    return rc;
}
