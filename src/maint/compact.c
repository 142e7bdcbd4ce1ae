/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/compact: rewrite_data_files with the binpack, sort and z-order
 * strategies (include/floe/maint.h), Java's RewriteDataFilesSparkAction
 * over BinPackRewriteFilePlanner / SizeBasedFileRewritePlanner and the
 * SparkSortFileRewriteRunner / SparkZOrderFileRewriteRunner (read, not
 * copied): the same options, defaults, checks and messages.
 *
 * Planning: the live data files of the branch head matching `where` (whole
 * files: residuals are ignored, as Java's planner does), grouped by
 * partition; in each partition the candidates — outside
 * [min-file-size-bytes, max-file-size-bytes], or with at least
 * delete-file-threshold delete files, or all of them with rewrite-all —
 * are packed in order into groups of at most max-file-group-size-bytes,
 * and a group is rewritten when it has enough input files (> 1 and >=
 * min-input-files), enough content (> 1 file and more than the target
 * size), too much content (more than max-file-size-bytes) or a file with
 * too many deletes.
 *
 * Rewriting: the rows of a group's files are read with their position and
 * equality deletes and deletion vectors applied (the scan's readers) and
 * written by the table layer's writer, rolling at target-file-size-bytes;
 * the commit is a `replace` snapshot (FLOE_ROWLEVEL_REWRITE) validated
 * against what was committed since the planned snapshot. Without
 * partial-progress.enabled every group goes into one commit and a failed
 * validation fails the call; with it, the groups are spread over at most
 * partial-progress.max-commits commits and a failed one counts its files
 * in failed_data_files_count. With remove-dangling-deletes, one more
 * commit removes the delete files that no longer apply to any live data
 * file (removed_delete_files_count).
 *
 * Sort: the table writer writes each partition's rows in the given order
 * (floe__append_set_sort_order), so the files of a group are sorted and
 * follow each other in that order. Z-order: each row's columns become
 * Java's ZOrderByteUtils bytes, interleaved bit by bit; a group's rows are
 * sorted by that value (unsigned bytes) here and written unsorted.
 *
 * rewrite_manifests (the snapshot producer is table/rewrite_manifests.c)
 * lives here too: the procedure's entry point on a catalog and identifier.
 */
#include "arrow/arrow.h"
#include "expr/expr.h"
#include "maint.h"
#include "scan/scan.h"
#include "spec/evolve.h"
#include "spec/spec.h"
#include "spec/value.h"
#include "table/evolve.h"
#include "table/rowdelta.h"
#include "table/table.h"
#include "table/writer.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct cgroup {
    floe_vec tasks; /* const floe_scan_task* */
    int64_t bytes;
} cgroup;

typedef enum cstrategy { C_BINPACK, C_SORT, C_ZORDER } cstrategy;

typedef struct cplan {
    int64_t target, min, max, max_group;
    int min_inputs, delete_threshold, max_commits, threads;
    bool rewrite_all, partial;
    bool deletes; /* rewrite_position_delete_files */
    cstrategy strategy;
    const floe_sort_order *order; /* C_SORT */
    /* C_ZORDER: top-level column indexes and types of the z columns */
    size_t nz;
    const int *zcol;
    const floe_type *const *ztype;
    int var_len, max_out;
    int32_t sort_order_id;    /* C_SORT, C_ZORDER: the output files' */
    const floe_type *lineage; /* v3: the table's root + _row_id, _last_updated_... */
} cplan;

/* What the groups of one commit rewrote. */
typedef struct cstats {
    size_t files;
    int64_t bytes;
    int64_t dvs; /* deletion vectors of rewritten files, removed */
} cstats;

static const char *const known_options[] = {"target-file-size-bytes",
                                            "min-file-size-bytes",
                                            "max-file-size-bytes",
                                            "min-input-files",
                                            "rewrite-all",
                                            "max-file-group-size-bytes",
                                            "delete-file-threshold",
                                            "partial-progress.enabled",
                                            "partial-progress.max-commits",
                                            "max-concurrent-file-group-rewrites",
                                            "use-starting-sequence-number",
                                            "rewrite-job-order",
                                            "delete-ratio-threshold",
                                            "max-file-group-input-files",
                                            "output-spec-id",
                                            "remove-dangling-deletes",
                                            "partial-progress.max-failed-commits"};
/* RewritePositionDeleteFilesSparkAction + BinPackRewritePositionDeletePlanner */
static const char *const delete_options[] = {"target-file-size-bytes",
                                             "min-file-size-bytes",
                                             "max-file-size-bytes",
                                             "min-input-files",
                                             "rewrite-all",
                                             "max-file-group-size-bytes",
                                             "max-file-group-input-files",
                                             "max-concurrent-file-group-rewrites",
                                             "partial-progress.enabled",
                                             "partial-progress.max-commits",
                                             "rewrite-job-order"};
/* SparkShufflingDataRewritePlanner + SparkShufflingFileRewriteRunner */
static const char *const sort_options[] = {"compression-factor", "shuffle-partitions-per-file"};
/* SparkZOrderFileRewriteRunner */
static const char *const zorder_options[] = {"max-output-size", "var-length-contribution"};

static bool in_list(const char *k, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(k, list[i]) == 0)
            return true;
    return false;
}

static const char *strategy_name(cstrategy s)
{
    return s == C_SORT ? "SORT" : s == C_ZORDER ? "Z-ORDER" : "BIN-PACK";
}

/* The table through the caller's FileIO (or one opened from io_conf). */
static int load(floe_table **t, floe_catalog *catalog, const char *ident, floe_fileio *io,
                const floe_props *io_conf, const char *branch)
{
    floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
    to.io = io;
    to.io_conf = io_conf;
    to.branch = branch;
    return floe_table_load(t, catalog, ident, &to);
}

static int opt_long(const floe_props *o, const char *k, int64_t def, int64_t *out)
{
    const char *v = o ? floe__props_get(o, k) : NULL;
    if (!v) {
        *out = def;
        return 0;
    }
    char *end;
    long long x = strtoll(v, &end, 10);
    if (!*v || *end)
        return floe__error(FLOE_EINVALID, "maint", "For input string: \"%s\"", v);
    *out = x;
    return 0;
}

static int opt_bool(const floe_props *o, const char *k, bool def, bool *out)
{
    const char *v = o ? floe__props_get(o, k) : NULL;
    *out = v ? strcasecmp(v, "true") == 0 : def;
    return 0;
}

/* SizeBasedFileRewritePlanner.init with Java's checks and messages. */
static int plan_options(const floe_table_metadata *m, const floe_props *o, cplan *p)
{
    floe_buf bad = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; o && rc == 0 && i < o->n; i++) {
        const char *k = o->items[i].key;
        if (p->deletes) {
            if (!in_list(k, delete_options, FLOE_ARRAY_LEN(delete_options)))
                rc = floe__buf_printf(&bad, "%s%s", bad.len ? ", " : "", k);
            continue;
        }
        if (in_list(k, known_options, FLOE_ARRAY_LEN(known_options)) ||
            (p->strategy != C_BINPACK && in_list(k, sort_options, FLOE_ARRAY_LEN(sort_options))) ||
            (p->strategy == C_ZORDER && in_list(k, zorder_options, FLOE_ARRAY_LEN(zorder_options))))
            continue;
        rc = floe__buf_printf(&bad, "%s%s", bad.len ? ", " : "", k);
    }
    if (rc == 0 && bad.len)
        rc = floe__error(FLOE_EINVALID, "maint",
                         "Cannot use options [%s], they are not supported by the action or the "
                         "rewriter %s",
                         bad.ptr, strategy_name(p->strategy));
    floe__buf_free(&bad);
    FLOE_TRY(rc);
    int64_t def_target, v;
    if (p->deletes)
        FLOE_TRY(floe__props_get_int64(&m->properties, "write.delete.target-file-size-bytes",
                                       67108864, &def_target));
    else
        FLOE_TRY(floe__props_get_int64(&m->properties, "write.target-file-size-bytes", 536870912,
                                       &def_target));
    FLOE_TRY(opt_long(o, "target-file-size-bytes", def_target, &p->target));
    FLOE_TRY(opt_long(o, "min-file-size-bytes", (int64_t)((double)p->target * 0.75), &p->min));
    FLOE_TRY(opt_long(o, "max-file-size-bytes", (int64_t)((double)p->target * 1.80), &p->max));
    if (p->target <= 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be > 0",
                           "target-file-size-bytes", (long long)p->target);
    if (p->min < 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be >= 0",
                           "min-file-size-bytes", (long long)p->min);
    if (!(p->target > p->min))
        return floe__error(FLOE_EINVALID, "maint",
                           "'%s' (%lld) must be > '%s' (%lld), all new files will be smaller "
                           "than the min threshold",
                           "target-file-size-bytes", (long long)p->target, "min-file-size-bytes",
                           (long long)p->min);
    if (!(p->target < p->max))
        return floe__error(FLOE_EINVALID, "maint",
                           "'%s' (%lld) must be < '%s' (%lld), all new files will be larger "
                           "than the max threshold",
                           "target-file-size-bytes", (long long)p->target, "max-file-size-bytes",
                           (long long)p->max);
    FLOE_TRY(opt_long(o, "min-input-files", 5, &v));
    if (v <= 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be > 0",
                           "min-input-files", (long long)v);
    p->min_inputs = (int)v;
    FLOE_TRY(opt_long(o, "max-file-group-size-bytes", 100LL * 1024 * 1024 * 1024, &p->max_group));
    if (p->max_group <= 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be > 0",
                           "max-file-group-size-bytes", (long long)p->max_group);
    FLOE_TRY(opt_long(o, "delete-file-threshold", 2147483647, &v));
    if (v < 1)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be >= 1",
                           "delete-file-threshold", (long long)v);
    p->delete_threshold = (int)v;
    FLOE_TRY(opt_bool(o, "rewrite-all", false, &p->rewrite_all));
    FLOE_TRY(opt_bool(o, "partial-progress.enabled", false, &p->partial));
    FLOE_TRY(opt_long(o, "partial-progress.max-commits", 10, &v));
    if (v < 1)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot set partial-progress.max-commits to %lld, the value must be "
                           "positive when partial-progress.enabled is true",
                           (long long)v);
    p->max_commits = (int)v;
    FLOE_TRY(opt_long(o, "max-concurrent-file-group-rewrites", 5, &v));
    if (v < 1)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot set max-concurrent-file-group-rewrites to %lld, the value "
                           "must be positive.",
                           (long long)v);
    p->threads = v > 64 ? 64 : (int)v;
    if (p->strategy == C_BINPACK)
        return 0;
    const char *cf = o ? floe__props_get(o, "compression-factor") : NULL;
    if (cf) {
        char *end;
        double d = strtod(cf, &end);
        if (!*cf || *end)
            return floe__error(FLOE_EINVALID, "maint", "For input string: \"%s\"", cf);
        if (!(d > 0))
            return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %s but must be > 0",
                               "compression-factor", cf);
    }
    FLOE_TRY(opt_long(o, "shuffle-partitions-per-file", 1, &v));
    if (v <= 0)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be > 0",
                           "shuffle-partitions-per-file", (long long)v);
    if (p->strategy != C_ZORDER)
        return 0;
    FLOE_TRY(opt_long(o, "max-output-size", 2147483647, &v));
    if (v <= 0)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot have the interleaved ZOrder value use less than 1 byte, '%s' "
                           "was set to %lld",
                           "max-output-size", (long long)v);
    p->max_out = v > 2147483647 ? 2147483647 : (int)v;
    FLOE_TRY(opt_long(o, "var-length-contribution", 8, &v));
    if (v <= 0)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot use less than 1 byte for variable length types with ZOrder, "
                           "'%s' was set to %lld",
                           "var-length-contribution", (long long)v);
    if (v > 1 << 20)
        return floe__error(FLOE_EINVALID, "maint", "'%s' is set to %lld but must be <= %d",
                           "var-length-contribution", (long long)v, 1 << 20);
    p->var_len = (int)v;
    return 0;
}

static bool too_many_deletes(const cplan *p, const floe_scan_task *t)
{
    return t->ndeletes > 0 && (int64_t)t->ndeletes >= p->delete_threshold;
}

static bool candidate(const cplan *p, const floe_scan_task *t)
{
    int64_t len = t->file->file_size_in_bytes;
    return p->rewrite_all || len < p->min || len > p->max || too_many_deletes(p, t);
}

static bool keep_group(const cplan *p, const cgroup *g)
{
    size_t n = g->tasks.len;
    if (p->rewrite_all)
        return n > 0;
    bool deletes = false;
    for (size_t i = 0; i < n && !deletes; i++)
        deletes = too_many_deletes(p, *(const floe_scan_task **)floe__vec_at(&g->tasks, i));
    return (n > 1 && (int64_t)n >= p->min_inputs) || (n > 1 && g->bytes > p->target) ||
           g->bytes > p->max || deletes;
}

typedef struct cpart {
    floe_vec groups; /* cgroup */
} cpart;

static void groups_free(floe_vec *groups)
{
    for (size_t i = 0; i < groups->len; i++)
        floe__vec_free(&((cgroup *)floe__vec_at(groups, i))->tasks);
    floe__vec_free(groups);
}

/* Partition -> candidates packed in order into groups (Java's ListPacker
 * with lookback 1: a new group when the next file does not fit); the
 * groups kept are appended to `out`. */
static int plan_groups(const cplan *p, const floe_scan_plan *plan, floe_vec *out)
{
    floe_strmap *parts = floe__strmap_new();
    floe_vec order = FLOE_VEC_INIT(floe_vec *);
    floe_buf key = FLOE_BUF_INIT;
    int rc = parts ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < plan->ntasks; i++) {
        const floe_scan_task *t = &plan->tasks[i];
        if (!candidate(p, t))
            continue;
        floe__buf_clear(&key);
        rc = floe__buf_printf(&key, "%d|", (int)t->file->spec_id);
        if (rc == 0)
            rc = floe__scan_key(&key, t->file->partition.values, t->file->partition.n);
        if (rc < 0)
            break;
        floe_vec *groups = floe__strmap_get(parts, key.ptr);
        if (!groups) {
            groups = floe__calloc(1, sizeof *groups);
            floe_vec **slot = groups ? floe__vec_push(&order) : NULL;
            char *k = slot ? floe__strndup(key.ptr, key.len) : NULL;
            if (!k || floe__strmap_put(parts, k, groups) < 0) {
                floe__free(k);
                floe__free(groups);
                rc = floe__error_nomem();
                break;
            }
            groups->item_size = sizeof(cgroup);
            *slot = groups;
        }
        int64_t len = t->file->file_size_in_bytes;
        cgroup *g = groups->len ? floe__vec_at(groups, groups->len - 1) : NULL;
        if (!g || (g->tasks.len && g->bytes + len > p->max_group)) {
            g = floe__vec_push(groups);
            if (!g) {
                rc = floe__error_nomem();
                break;
            }
            g->tasks.item_size = sizeof(const floe_scan_task *);
        }
        const floe_scan_task **ts = floe__vec_push(&g->tasks);
        if (!ts) {
            rc = floe__error_nomem();
            break;
        }
        *ts = t;
        g->bytes += len;
    }
    for (size_t i = 0; i < order.len; i++) {
        floe_vec *groups = *(floe_vec **)floe__vec_at(&order, i);
        for (size_t k = 0; k < groups->len; k++) {
            cgroup *g = floe__vec_at(groups, k);
            cgroup *slot = rc == 0 && keep_group(p, g) ? floe__vec_push(out) : NULL;
            if (slot) {
                *slot = *g;
                memset(g, 0, sizeof *g);
            } else if (rc == 0 && keep_group(p, g)) {
                rc = floe__error_nomem();
            }
        }
        groups_free(groups);
        floe__free(groups);
    }
    /* the map's keys were allocated here */
    size_t it = 0;
    const char *k;
    void *v;
    while (parts && floe__strmap_next(parts, &it, &k, &v))
        floe__free((char *)k);
    floe__strmap_free(parts);
    floe__vec_free(&order);
    floe__buf_free(&key);
    return rc;
}

/* ---------------------------------------------------------------- z-order */

/* ZOrderByteUtils.wholeNumberOrderedBytes: the sign bit flipped, big-endian. */
static void z_long(uint8_t *out, int64_t v)
{
    uint64_t u = (uint64_t)v ^ 0x8000000000000000ULL;
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(u >> (56 - 8 * i));
}

/* floatingPointOrderedBytes: negative values with every bit flipped,
 * others with the sign bit flipped (float widened to double first). */
static void z_double(uint8_t *out, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    u ^= (u >> 63) ? ~0ULL : 0x8000000000000000ULL; /* (l >> 63) | Long.MIN_VALUE */
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(u >> (56 - 8 * i));
}

/* stringToOrderedBytes: the UTF-8 bytes of the whole characters that fit
 * in `len` (the encoder stops before a character that does not), zeros
 * after. byteTruncateOrFill (binary) cuts anywhere. */
static void z_bytes(uint8_t *out, int len, const uint8_t *p, size_t n, bool text)
{
    size_t take = n < (size_t)len ? n : (size_t)len;
    if (text && take < n)
        while (take > 0 && (p[take] & 0xC0) == 0x80)
            take--; /* p[take] continues a character cut at the end */
    memset(out, 0, (size_t)len);
    if (take)
        memcpy(out, p, take);
}

/* Bytes column c contributes: 8, or var_len for strings and binaries. */
static int z_width(const cplan *p, size_t c)
{
    floe_type_id id = p->ztype[c]->id;
    return id == FLOE_T_STRING || id == FLOE_T_BINARY || id == FLOE_T_FIXED || id == FLOE_T_UUID
               ? p->var_len
               : 8;
}

/* SparkZOrderUDF.sortedLexicographically for one value (Spark's view of
 * the Iceberg type: timestamptz is Spark's TimestampType, cast to long
 * seconds; timestamp is TimestampNTZ, micros; date is days; uuid is a
 * string). A null is all zeros (Java's PRIMITIVE_EMPTY). */
static void z_column(uint8_t *out, int width, const floe_value *v)
{
    memset(out, 0, (size_t)width);
    if (v->is_null)
        return;
    switch (v->type) {
    case FLOE_T_BOOLEAN:
        out[0] = v->v.b ? 0x81 : 0; /* (byte) -127 */
        break;
    case FLOE_T_INT:
    case FLOE_T_DATE: z_long(out, v->v.i32); break;
    case FLOE_T_LONG:
    case FLOE_T_TIMESTAMP: z_long(out, v->v.i64); break;
    case FLOE_T_TIMESTAMPTZ: {
        int64_t us = v->v.i64, s = us / 1000000;
        z_long(out, us % 1000000 < 0 ? s - 1 : s); /* floorDiv */
        break;
    }
    case FLOE_T_FLOAT: z_double(out, (double)v->v.f32); break;
    case FLOE_T_DOUBLE: z_double(out, v->v.f64); break;
    case FLOE_T_STRING: z_bytes(out, width, v->v.bytes.ptr, v->v.bytes.len, true); break;
    case FLOE_T_UUID: {
        static const char hx[] = "0123456789abcdef";
        char t[36];
        const uint8_t *b = v->v.bytes.ptr;
        size_t k = 0;
        for (size_t i = 0; i < 16 && i < v->v.bytes.len; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10)
                t[k++] = '-';
            t[k++] = hx[b[i] >> 4];
            t[k++] = hx[b[i] & 15];
        }
        z_bytes(out, width, (const uint8_t *)t, k, true);
        break;
    }
    default: /* binary, fixed */ z_bytes(out, width, v->v.bytes.ptr, v->v.bytes.len, false); break;
    }
}

/* ZOrderByteUtils.interleaveBits: bit b of every column in turn, highest
 * first, skipping columns that have no byte left, into `size` bytes. */
static void z_interleave(uint8_t *out, size_t size, uint8_t *const *cols, const int *widths,
                         size_t ncols)
{
    memset(out, 0, size);
    size_t col = 0, byte = 0, obyte = 0;
    int bit = 7, obit = 7;
    while (obyte < size) {
        out[obyte] |= (uint8_t)(((cols[col][byte] >> bit) & 1) << obit);
        if (--obit < 0) {
            obyte++;
            obit = 7;
        }
        if (obyte == size)
            break;
        do {
            if (++col == ncols) {
                col = 0;
                if (--bit < 0) {
                    byte++;
                    bit = 7;
                }
            }
        } while ((size_t)widths[col] <= byte);
    }
}

typedef struct zsort {
    const uint8_t *keys;
    size_t klen;
} zsort;

static int z_cmp(const void *x, const void *y, void *payload)
{
    const zsort *z = payload;
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    int r = memcmp(z->keys + (size_t)a * z->klen, z->keys + (size_t)b * z->klen, z->klen);
    return r ? r : (a > b) - (a < b); /* stable */
}

/* The rows of `batches` (struct arrays of `root`) sorted by their z-value,
 * written to `op` in batches of up to 65,536 rows. */
static int z_write(floe_rowlevel *op, const cplan *p, const floe_type *root,
                   const floe_vec *batches)
{
    int64_t n = 0;
    for (size_t i = 0; i < batches->len; i++)
        n += ((const struct ArrowArray *)floe__vec_at(batches, i))->length;
    if (n == 0)
        return 0;
    int widths[64];
    uint8_t *cols[64];
    size_t sum = 0;
    for (size_t c = 0; c < p->nz; c++)
        sum += (size_t)(widths[c] = z_width(p, c));
    size_t klen = sum < (size_t)p->max_out ? sum : (size_t)p->max_out;
    uint8_t *colmem = floe__calloc(sum ? sum : 1, 1);
    uint8_t *keys = floe__calloc((size_t)n, klen);
    int64_t *perm = floe__calloc((size_t)n, sizeof *perm);
    /* row -> (batch, row in batch) */
    uint32_t *rb = floe__calloc((size_t)n, sizeof *rb);
    int rc = colmem && keys && perm && rb ? 0 : floe__error_nomem();
    for (size_t c = 0, at = 0; rc == 0 && c < p->nz; at += (size_t)widths[c], c++)
        cols[c] = colmem + at;
    int64_t g = 0;
    for (size_t i = 0; rc == 0 && i < batches->len; i++) {
        const struct ArrowArray *b = floe__vec_at(batches, i);
        for (int64_t r = 0; rc == 0 && r < b->length; r++, g++) {
            for (size_t c = 0; rc == 0 && c < p->nz; c++) {
                floe_value v;
                rc = floe__arrow_value_at(b->children[p->zcol[c]], p->ztype[c], r, &v);
                if (rc == 0)
                    z_column(cols[c], widths[c], &v);
            }
            if (rc == 0)
                z_interleave(keys + (size_t)g * klen, klen, cols, widths, p->nz);
            perm[g] = g;
            rb[g] = (uint32_t)i;
        }
    }
    if (rc == 0) {
        zsort z = {keys, klen};
        qsort_r(perm, (size_t)n, sizeof *perm, z_cmp, &z);
    }
    /* the first global row of each batch */
    int64_t *first = rc == 0 ? floe__calloc(batches->len, sizeof *first) : NULL;
    if (rc == 0 && !first)
        rc = floe__error_nomem();
    for (size_t i = 1; rc == 0 && i < batches->len; i++)
        first[i] = first[i - 1] + ((const struct ArrowArray *)floe__vec_at(batches, i - 1))->length;
    floe_arrow_builder *bld = NULL;
    if (rc == 0)
        rc = floe__arrow_builder_new(&bld, root);
    for (int64_t k = 0; rc == 0 && k < n;) {
        int64_t end = k + 65536 < n ? k + 65536 : n;
        for (; rc == 0 && k < end; k++) {
            uint32_t bi = rb[perm[k]];
            const struct ArrowArray *b = floe__vec_at(batches, bi);
            rc = floe__scan_copy_slot(bld, b, root, perm[k] - first[bi]);
        }
        struct ArrowArray out;
        memset(&out, 0, sizeof out);
        if (rc == 0)
            rc = floe__arrow_builder_finish(bld, &out);
        if (rc == 0)
            rc = floe_rowlevel_write(op, &out);
        if (out.release)
            out.release(&out);
    }
    floe__arrow_builder_free(bld);
    floe__free(first);
    floe__free(colmem);
    floe__free(keys);
    floe__free(perm);
    floe__free(rb);
    return rc;
}

/* Rewrite the groups [from, to) in one replace commit. */
/* A replace operation that starts at `base` (the planned snapshot or this
 * rewrite's last commit); FLOE_ECONFLICT when someone committed in between,
 * since the operation's validation starts at its own base. */
static int start_op(floe_table *t, int64_t base, floe_rowlevel **out)
{
    floe_rowlevel_options ro = FLOE_ROWLEVEL_OPTIONS_INIT;
    ro.kind = FLOE_ROWLEVEL_REWRITE;
    int rc = floe_rowlevel_new(out, t, &ro);
    if (rc == 0 && floe_rowlevel_base_snapshot(*out) != base)
        rc = floe__error(FLOE_ECONFLICT, "maint",
                         "Cannot commit rewrite: branch %s moved from %lld to %lld since the "
                         "rewrite was planned",
                         floe_table_branch(t), (long long)base,
                         (long long)floe_rowlevel_base_snapshot(*out));
    return rc;
}

/* One group: its files removed from `op`, its rows (deletes applied)
 * written to it — as read (binpack; sort, by the writer), or sorted by
 * z-value; *n and *bytes count the files. */
static int rewrite_group(floe_table *t, const floe_scan_plan *plan, const cplan *p,
                         floe_rowlevel *op, const cgroup *grp, cstats *cs)
{
    floe_scan_task *tasks = floe__calloc(grp->tasks.len ? grp->tasks.len : 1, sizeof *tasks);
    int rc = tasks ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < grp->tasks.len; i++) {
        const floe_scan_task *st = *(const floe_scan_task **)floe__vec_at(&grp->tasks, i);
        tasks[i] = *st;
        tasks[i].residual = floe_expr_true(); /* whole files (ignoreResiduals) */
        cs->files++;
        cs->bytes += st->file->file_size_in_bytes;
        rc = floe__rowlevel_remove_file(op, st->file);
        /* its deletion vector applies to nothing once the file is gone
         * (Java's RewriteFileGroup.danglingDVs) */
        for (size_t k = 0; rc == 0 && k < st->ndeletes; k++)
            if (floe__scan_delete_info(st->deletes[k])->has_content_offset) {
                rc = floe__rowlevel_remove_file(op, st->deletes[k]);
                cs->dvs++;
            }
    }
    floe_scan_plan sub = *plan;
    sub.tasks = tasks;
    sub.ntasks = grp->tasks.len;
    struct ArrowArrayStream stream;
    memset(&stream, 0, sizeof stream);
    floe_vec kept = FLOE_VEC_INIT(struct ArrowArray);
    /* v3: every row keeps its _row_id and _last_updated_sequence_number */
    const floe_type *root = p->lineage ? p->lineage : plan->schema->root;
    const char **cols = floe__calloc(root->nfields + 1, sizeof *cols);
    if (rc == 0 && !cols)
        rc = floe__error_nomem();
    for (size_t c = 0; rc == 0 && c < root->nfields; c++)
        cols[c] = root->fields[c].name;
    if (rc == 0)
        rc = floe__scan_stream(&sub, t->io, cols, p->lineage ? root->nfields : 0, p->threads,
                               &stream);
    floe__free(cols);
    while (rc == 0) {
        struct ArrowArray batch;
        memset(&batch, 0, sizeof batch);
        if (stream.get_next(&stream, &batch) != 0) {
            rc = floe__scan_stream_error(&stream, "maint");
            if (rc == 0)
                rc = floe__error(FLOE_EIO, "maint", "reading the files to rewrite failed");
            break;
        }
        if (!batch.release)
            break;
        struct ArrowArray *slot = NULL;
        if (batch.length > 0 && p->strategy == C_ZORDER && !(slot = floe__vec_push(&kept)))
            rc = floe__error_nomem();
        if (slot) {
            *slot = batch; /* released below */
            continue;
        }
        if (batch.length > 0 && rc == 0)
            rc = floe_rowlevel_write(op, &batch);
        batch.release(&batch);
    }
    if (rc == 0 && p->strategy == C_ZORDER)
        rc = z_write(op, p, root, &kept);
    for (size_t i = 0; i < kept.len; i++) {
        struct ArrowArray *b = floe__vec_at(&kept, i);
        b->release(b);
    }
    floe__vec_free(&kept);
    if (stream.release)
        stream.release(&stream);
    floe__free(tasks);
    return rc;
}

/* `*base` is the snapshot the groups were planned on, or the one this
 * rewrite committed last: the operation must start there, so that its
 * validation covers every commit since the plan (a delete committed in
 * between would otherwise be undone); it is moved to the new snapshot. */
static int rewrite_commit(floe_table *t, const floe_scan_plan *plan, const cplan *p,
                          const floe_vec *groups, size_t from, size_t to, int64_t *base,
                          floe_maint_rewrite_data_files_result *r)
{
    floe_rowlevel *op = NULL;
    int rc = start_op(t, *base, &op);
    floe_append *w = NULL;
    if (rc == 0)
        rc = floe__rowlevel_writer(op, &w);
    if (rc == 0) {
        floe__append_set_target_size(w, p->target);
        if (p->lineage)
            floe__append_set_lineage(w);
    }
    if (rc == 0 && p->strategy == C_SORT)
        floe__append_set_sort_order(w, p->order);
    else if (rc == 0 && p->strategy == C_ZORDER)
        floe__append_set_sort_order(w, NULL); /* sorted here */
    if (rc == 0 && p->strategy != C_BINPACK)
        floe__append_set_sort_order_id(w, p->sort_order_id);
    cstats cs = {0, 0, 0};
    for (size_t g = from; rc == 0 && g < to; g++)
        rc = rewrite_group(t, plan, p, op, floe__vec_at(groups, g), &cs);
    size_t n = cs.files;
    int64_t bytes = cs.bytes;
    floe_rowlevel_stats st;
    memset(&st, 0, sizeof st);
    int64_t committed = -1;
    if (rc == 0)
        rc = floe_rowlevel_commit(&committed, &st, op);
    if (rc == 0 && committed >= 0)
        *base = committed;
    if (rc == 0) {
        r->rewritten_data_files_count += (int64_t)n;
        r->added_data_files_count += st.data_files_added;
        r->rewritten_bytes_count += bytes;
        r->removed_delete_files_count += cs.dvs;
    } else if (p->partial) {
        r->failed_data_files_count += (int64_t)n;
    }
    floe_rowlevel_free(op);
    return rc;
}

/* The live delete files of `snap` as scan files in `a`, each once (a
 * deletion vector by its Puffin file and offset, floe__rowlevel_file_key):
 * with `positions`, only Parquet position delete files (deletion vectors
 * are not rewritten); with `scope`, only those among its paths; none of
 * `skip`'s keys. */
static int live_deletes(floe_table *t, const floe_snapshot *snap, floe_arena *a, bool positions,
                        const floe_strmap *scope, const floe_strmap *skip, floe_vec *out)
{
    floe_strmap *seen = floe__strmap_new();
    if (!seen)
        return floe__error_nomem();
    floe_buf lb = FLOE_BUF_INIT, mb = FLOE_BUF_INIT, kb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    const floe_manifest_file *mfs = NULL;
    size_t n = 0;
    int rc = floe__maint_snapshot_manifests(t->io, snap, &lb, &l, a, &mfs, &n);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (mfs[i].content != FLOE_MANIFEST_DELETES)
            continue;
        floe_manifest_reader *rd = NULL;
        rc = floe__maint_open_manifest(t->io, &mfs[i], &mb, &rd);
        const floe_manifest_entry *e;
        while (rc == 0 && (rc = floe_manifest_reader_next(rd, &e)) == 0) {
            const floe_data_file *d = &e->data_file;
            const char *key = floe__rowlevel_file_key(&kb, d->file_path, floe__data_file_is_dv(d),
                                                      d->content_offset);
            if (!key) {
                rc = floe__error_nomem();
                break;
            }
            if (!FLOE_ENTRY_IS_LIVE(e->status) || floe__strmap_has(seen, key) ||
                (positions && (d->content != FLOE_FILE_POSITION_DELETES ||
                               (d->file_format && strcasecmp(d->file_format, "PARQUET") != 0))) ||
                (scope && !floe__strmap_has(scope, d->file_path)) ||
                (skip && floe__strmap_has(skip, key)))
                continue;
            floe_scan_file *f = floe__arena_calloc(a, 1, sizeof *f);
            floe_scan_delete_info *fd = floe__arena_calloc(a, 1, sizeof *fd);
            floe_value *vals = floe__arena_calloc(a, d->partition.n + 1, sizeof *vals);
            floe_scan_file **slot = f && fd && vals ? floe__vec_push(out) : NULL;
            if (!slot || !(f->path = floe__arena_strdup(a, d->file_path))) {
                rc = floe__error_nomem();
                break;
            }
            for (size_t k = 0; rc == 0 && k < d->partition.n; k++)
                rc = floe__value_copy(a, &vals[k], &d->partition.values[k]);
            const char *kc = key == d->file_path ? f->path : floe__arena_strdup(a, key);
            if (rc == 0)
                rc = kc ? floe__strmap_put(seen, kc, (void *)1) : floe__error_nomem();
            f->format = d->file_format ? floe__arena_strdup(a, d->file_format) : "PARQUET";
            f->content = (int8_t)d->content;
            f->spec_id = mfs[i].partition_spec_id;
            f->partition.n = d->partition.n;
            f->partition.values = vals;
            f->record_count = d->record_count;
            f->file_size_in_bytes = d->file_size_in_bytes;
            fd->has_content_offset = d->has_content_offset;
            fd->content_offset = d->content_offset;
            fd->content_size_in_bytes = d->content_size_in_bytes;
            f->del = fd;
            *slot = f;
        }
        if (rc == FLOE_ITEROVER)
            rc = 0;
        floe_manifest_reader_free(rd);
    }
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    floe__buf_free(&mb);
    floe__buf_free(&kb);
    floe__strmap_free(seen);
    return rc;
}

/* remove-dangling-deletes: every live delete file of the branch head that
 * the scan planner pairs with no live data file applies to no row, so
 * removing it changes no read (the planner's sequence-number, partition
 * and referenced-file rules decide, as they do for reads). One more
 * replace commit, from `*base`. */
static int remove_dangling(floe_table *t, int64_t *base, floe_maint_rewrite_data_files_result *r)
{
    floe_rowlevel *op = NULL;
    int rc = start_op(t, *base, &op);
    const floe_snapshot *snap =
        rc == 0 && *base >= 0 ? floe__metadata_snapshot(t->metadata, *base) : NULL;
    floe_scan_plan *plan = NULL;
    if (rc == 0 && snap) {
        floe_scan_plan_options po;
        memset(&po, 0, sizeof po);
        po.threads = 1;
        rc = floe__scan_plan(&plan, t->metadata, t->io, snap, NULL, &po);
    }
    floe_strmap *used = rc == 0 ? floe__strmap_new() : NULL;
    if (rc == 0 && !used)
        rc = floe__error_nomem();
    floe_arena *a = floe__arena_new(4096);
    if (rc == 0 && !a)
        rc = floe__error_nomem();
    floe_buf kb = FLOE_BUF_INIT;
    for (size_t i = 0; rc == 0 && plan && i < plan->ntasks; i++)
        for (size_t k = 0; rc == 0 && k < plan->tasks[i].ndeletes; k++) {
            const floe_scan_file *d = plan->tasks[i].deletes[k];
            const char *key = floe__rowlevel_file_key(&kb, d->path, floe__scan_file_is_dv(d),
                                                      floe__scan_delete_info(d)->content_offset);
            key = key ? floe__arena_strdup(a, key) : NULL;
            rc = key ? floe__strmap_put(used, key, (void *)1) : floe__error_nomem();
        }
    floe__buf_free(&kb);
    floe_vec files = FLOE_VEC_INIT(floe_scan_file *);
    if (rc == 0 && snap)
        rc = live_deletes(t, snap, a, false, NULL, used, &files);
    int64_t removed = 0;
    for (size_t i = 0; rc == 0 && i < files.len; i++, removed++)
        rc = floe__rowlevel_remove_file(op, *(floe_scan_file **)floe__vec_at(&files, i));
    floe__vec_free(&files);
    /* the plan points into the handle's metadata, which the commit replaces */
    floe__scan_plan_free(plan);
    plan = NULL;
    floe__strmap_free(used);
    used = NULL;
    int64_t committed = -1;
    if (rc == 0 && removed)
        rc = floe_rowlevel_commit(&committed, NULL, op);
    if (rc == 0 && removed) {
        r->removed_delete_files_count += removed;
        *base = committed;
    }
    floe__arena_free(a);
    floe__strmap_free(used);
    floe__scan_plan_free(plan);
    floe_rowlevel_free(op);
    return rc;
}

/* SparkSortFileRewriteRunner: the given order or the table's, which must
 * sort something; floe's writer sorts by top-level columns. */
static int sort_setup(cplan *p, const floe_table_metadata *m, const char *ident,
                      const floe_maint_rewrite_data_files_options *o, floe_arena *a)
{
    const floe_sort_order *order = NULL;
    if (o->nsort_order) {
        floe_sort_order *bound = NULL;
        int rc = floe__sort_order_bind(m, o->sort_order, o->nsort_order, a, &bound);
        if (rc == FLOE_EINVALID) /* a bad argument of the procedure, as Spark reports it */
            return floe__error_set_kind(FLOE_KIND_ILLEGAL_ARGUMENT);
        FLOE_TRY(rc);
        order = bound;
    } else {
        order = floe__metadata_sort_order(m, m->default_sort_order_id);
        if (!order || !order->nfields)
            return floe__error(FLOE_EINVALID, "maint",
                               "Cannot sort data without a valid sort order, table '%s' is "
                               "unsorted and no sort order is provided",
                               ident);
    }
    const floe_schema *schema = floe__metadata_current_schema(m);
    for (size_t i = 0; i < order->nfields; i++) {
        bool top = false;
        for (size_t c = 0; c < schema->root->nfields && !top; c++)
            top = schema->root->fields[c].id == order->fields[i].source_id &&
                  !floe_type_is_nested(schema->root->fields[c].type);
        if (!top)
            return floe__error(FLOE_EUNSUPPORTED, "maint",
                               "rewrite_data_files: sorting by field id %d (not a top-level "
                               "column) is not supported yet",
                               (int)order->fields[i].source_id);
    }
    p->order = order;
    /* the output files are marked with the table order this one is, if
     * any; unsorted (0) otherwise (SparkShufflingFileRewriteRunner) */
    int32_t id = floe__sort_order_find(m, order);
    p->sort_order_id = id < 0 ? 0 : id;
    return 0;
}

/* SparkZOrderFileRewriteRunner.validZOrderColNames (Spark resolves names
 * case-insensitively): identity partition columns are left out. */
static int zorder_setup(cplan *p, const floe_table_metadata *m,
                        const floe_maint_rewrite_data_files_options *o, floe_arena *a)
{
    const floe_schema *schema = floe__metadata_current_schema(m);
    const floe_type *root = schema->root;
    const floe_partition_spec *spec = floe__metadata_spec(m, m->default_spec_id);
    for (size_t c = 0; c < root->nfields; c++)
        if (strcasecmp(root->fields[c].name, "ICEZVALUE") == 0)
            return floe__error(FLOE_EINVALID, "maint",
                               "Cannot zorder because the table has a column named '%s', which "
                               "conflicts with Iceberg's internal Z-order column name",
                               "ICEZVALUE");
    if (o->nzorder > 64)
        return floe__error(FLOE_EUNSUPPORTED, "maint", "z-order of more than 64 columns");
    int *col = floe__arena_calloc(a, o->nzorder + 1, sizeof *col);
    const floe_type **type = floe__arena_calloc(a, o->nzorder + 1, sizeof(floe_type *));
    if (!col || !type)
        return floe__error_nomem();
    size_t n = 0;
    for (size_t i = 0; i < o->nzorder; i++) {
        int found = -1;
        for (size_t c = 0; c < root->nfields && found < 0; c++)
            if (o->zorder[i] && strcasecmp(root->fields[c].name, o->zorder[i]) == 0)
                found = (int)c;
        if (found < 0) {
            floe_buf b = FLOE_BUF_INIT;
            int rc = floe__type_java(root, &b);
            if (rc == 0)
                rc = floe__error(FLOE_EINVALID, "maint",
                                 "Cannot find column '%s' in table schema (case sensitive = "
                                 "false): %s",
                                 o->zorder[i] ? o->zorder[i] : "null", b.ptr ? b.ptr : "");
            floe__buf_free(&b);
            return rc;
        }
        const floe_field *f = &root->fields[found];
        bool identity = false;
        for (size_t k = 0; spec && k < spec->nfields && !identity; k++)
            identity = spec->fields[k].source_id == f->id &&
                       spec->fields[k].transform.kind == FLOE_TR_IDENTITY;
        if (identity)
            continue; /* constant within a partition (Java logs a warning) */
        switch (f->type->id) {
        case FLOE_T_BOOLEAN:
        case FLOE_T_INT:
        case FLOE_T_LONG:
        case FLOE_T_FLOAT:
        case FLOE_T_DOUBLE:
        case FLOE_T_DATE:
        case FLOE_T_TIMESTAMP:
        case FLOE_T_TIMESTAMPTZ:
        case FLOE_T_STRING:
        case FLOE_T_UUID:
        case FLOE_T_BINARY:
        case FLOE_T_FIXED: break;
        default: {
            floe_buf b = FLOE_BUF_INIT;
            int rc = floe__type_java(f->type, &b);
            if (rc == 0)
                rc = floe__error(FLOE_EINVALID, "maint",
                                 "Cannot use column %s of type %s in ZOrdering, the type is "
                                 "unsupported",
                                 f->name, b.ptr ? b.ptr : "");
            floe__buf_free(&b);
            return rc;
        }
        }
        col[n] = found;
        type[n] = f->type;
        n++;
    }
    if (n == 0)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot ZOrder, all columns provided were identity partition columns "
                           "and cannot be used");
    p->nz = n;
    p->zcol = col;
    p->ztype = type;
    return 0;
}

int floe_maint_rewrite_data_files(floe_maint_rewrite_data_files_result *out, floe_catalog *catalog,
                                  const char *ident,
                                  const floe_maint_rewrite_data_files_options *opts)
{
    memset(out, 0, sizeof *out);
    if (!opts || opts->version != FLOE_MAINT_REWRITE_DATA_FILES_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported rewrite_data_files options");
    const floe_maint_rewrite_data_files_options *o = opts;
    bool ordered = o->nsort_order || o->nzorder;
    cplan p;
    memset(&p, 0, sizeof p);
    if (!o->strategy) {
        p.strategy = o->nzorder ? C_ZORDER : ordered ? C_SORT : C_BINPACK;
    } else if (strcasecmp(o->strategy, "sort") == 0) {
        p.strategy = o->nzorder ? C_ZORDER : C_SORT;
    } else if (strcasecmp(o->strategy, "binpack") == 0) {
        if (ordered) /* RewriteDataFilesProcedure: binPack() then sort(order) */
            return floe__error(FLOE_EINVALID, "maint",
                               "Cannot set rewrite mode, it has already been set to BIN-PACK");
    } else {
        return floe__error(FLOE_EINVALID, "maint",
                           "unsupported strategy: %s. Only binpack or sort is supported",
                           o->strategy);
    }
    if (o->nsort_order && o->nzorder)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot mix identity sort columns and a Zorder sort expression");
    floe_table *t = NULL;
    FLOE_TRY(load(&t, catalog, ident, o->io, o->io_conf, o->branch));
    floe_arena *a = floe__arena_new(4096);
    int rc = a ? 0 : floe__error_nomem();
    if (rc == 0 && p.strategy == C_SORT)
        rc = sort_setup(&p, t->metadata, ident, o, a);
    else if (rc == 0 && p.strategy == C_ZORDER)
        rc = zorder_setup(&p, t->metadata, o, a);
    if (rc == 0)
        rc = plan_options(t->metadata, o->options, &p);
    const floe_snapshot_ref *head = NULL;
    if (rc == 0)
        rc = floe__table_write_head(t->metadata, t->branch, false, &head);
    const floe_snapshot *snap =
        rc == 0 && head ? floe__metadata_snapshot(t->metadata, head->snapshot_id) : NULL;
    const floe_expr *filter = NULL;
    if (rc == 0 && o->where && *o->where)
        rc = floe__scan_filter_parse(&filter, a, o->where,
                                     floe__metadata_current_schema(t->metadata));
    /* the plan keeps pointers into its metadata: a copy of our own, since
     * each commit replaces the handle's */
    floe_table_metadata *meta = NULL;
    if (rc == 0 && snap)
        rc = floe__table_read_metadata(t->io, t->metadata_location, &meta);
    if (rc == 0 && meta)
        snap = floe__metadata_snapshot(meta, snap->snapshot_id);
    if (rc == 0 && meta && meta->format_version >= 3)
        rc = floe__lineage_root(a, floe__metadata_current_schema(meta)->root, &p.lineage);
    floe_scan_plan *plan = NULL;
    if (rc == 0 && snap) {
        floe_scan_plan_options po;
        memset(&po, 0, sizeof po);
        po.filter = filter;
        po.threads = 1;
        rc = floe__scan_plan(&plan, meta, t->io, snap, NULL, &po);
    }
    floe_vec groups = FLOE_VEC_INIT(cgroup);
    if (rc == 0 && plan)
        rc = plan_groups(&p, plan, &groups);
    int64_t base = snap ? snap->snapshot_id : -1;
    if (rc == 0 && groups.len && !p.partial) {
        rc = rewrite_commit(t, plan, &p, &groups, 0, groups.len, &base, out);
    } else if (rc == 0 && groups.len) {
        size_t commits = groups.len < (size_t)p.max_commits ? groups.len : (size_t)p.max_commits;
        size_t per = (groups.len + commits - 1) / commits;
        for (size_t g = 0; g < groups.len; g += per) {
            size_t end = g + per < groups.len ? g + per : groups.len;
            if (rewrite_commit(t, plan, &p, &groups, g, end, &base, out) < 0)
                floe_error_clear(); /* counted in failed_data_files_count */
        }
    }
    bool dangling = false;
    if (rc == 0)
        rc = opt_bool(o->options, "remove-dangling-deletes", false, &dangling);
    if (rc == 0 && dangling && snap)
        rc = remove_dangling(t, &base, out);
    groups_free(&groups);
    floe__scan_plan_free(plan);
    floe__metadata_free(meta);
    floe__arena_free(a);
    floe_table_free(t);
    return rc;
}

/* ---------------------------------------------------------------- position deletes */

/* One group of position delete files: removed from `op`, and the
 * positions they delete in live data files (the planner's pairing:
 * sequence numbers and partitions as a read applies them) written as one
 * new file. Positions in files that are no longer live (dangling) go. */
static int rewrite_delete_group(floe_table *t, const floe_scan_plan *plan, floe_rowlevel *op,
                                const cgroup *grp, bool per_file,
                                floe_maint_rewrite_position_deletes_result *r)
{
    floe_strmap *in = floe__strmap_new();
    int rc = in ? 0 : floe__error_nomem();
    const floe_scan_file *first = NULL;
    for (size_t i = 0; rc == 0 && i < grp->tasks.len; i++) {
        const floe_scan_file *f = (*(const floe_scan_task **)floe__vec_at(&grp->tasks, i))->file;
        first = first ? first : f;
        rc = floe__rowlevel_remove_file(op, f);
        if (rc == 0)
            rc = floe__strmap_put(in, f->path, (void *)1);
        r->rewritten_delete_files_count++;
        r->rewritten_bytes_count += f->file_size_in_bytes;
    }
    floe_vec paths = FLOE_VEC_INIT(const char *), pos = FLOE_VEC_INIT(int64_t);
    const floe_scan_file **sel = NULL;
    if (rc == 0)
        sel = floe__calloc(grp->tasks.len + 1, sizeof(floe_scan_file *));
    if (rc == 0 && !sel)
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && plan && i < plan->ntasks; i++) {
        const floe_scan_task *task = &plan->tasks[i];
        size_t n = 0;
        for (size_t k = 0; k < task->ndeletes; k++)
            if (floe__strmap_has(in, task->deletes[k]->path))
                sel[n++] = task->deletes[k];
        if (!n)
            continue;
        floe_scan_posdel pd;
        memset(&pd, 0, sizeof pd);
        rc = floe__scan_load_posdeletes(t->io, task->file, sel, n, &pd);
        for (size_t k = 0; rc == 0 && k < pd.n; k++) {
            const char **ps = floe__vec_push(&paths);
            int64_t *pp = ps ? floe__vec_push(&pos) : NULL;
            if (!pp) {
                rc = floe__error_nomem();
                break;
            }
            *ps = task->file->path;
            *pp = pd.pos[k];
        }
        floe__free(pd.pos);
        /* write.delete.granularity file (Spark's default): a file per data file */
        if (rc == 0 && per_file && paths.len)
            rc = floe__rowlevel_write_position_deletes(op, first->spec_id, &first->partition,
                                                       paths.items, pos.items, paths.len);
        if (per_file)
            paths.len = pos.len = 0;
    }
    if (rc == 0 && paths.len)
        rc = floe__rowlevel_write_position_deletes(op, first->spec_id, &first->partition,
                                                   paths.items, pos.items, paths.len);
    floe__vec_free(&paths);
    floe__vec_free(&pos);
    floe__free(sel);
    floe__strmap_free(in);
    return rc;
}

/* v3: the position delete files of the groups [from, to) become deletion
 * vectors, as Java rewrites them once requiresRewriteToDVs() (its
 * SparkPositionDeletesRewrite DVWriter): every live data file they delete
 * rows in gets one DV of all the positions that apply to it — theirs, any
 * other position delete file's, and its current DV's, which the new one
 * replaces (spec "Deletion Vectors": at most one per data file, and once
 * it exists readers ignore position delete files). Positions in files that
 * are no longer live (dangling) go. */
static int rewrite_to_dvs(floe_table *t, const floe_scan_plan *plan, floe_rowlevel *op,
                          const floe_vec *groups, size_t from, size_t to,
                          floe_maint_rewrite_position_deletes_result *r)
{
    floe_strmap *in = floe__strmap_new();
    int rc = in ? 0 : floe__error_nomem();
    for (size_t g = from; rc == 0 && g < to; g++) {
        const cgroup *grp = floe__vec_at(groups, g);
        for (size_t i = 0; rc == 0 && i < grp->tasks.len; i++) {
            const floe_scan_file *f =
                (*(const floe_scan_task **)floe__vec_at(&grp->tasks, i))->file;
            rc = floe__rowlevel_remove_file(op, f);
            if (rc == 0)
                rc = floe__strmap_put(in, f->path, (void *)1);
            r->rewritten_delete_files_count++;
            r->rewritten_bytes_count += f->file_size_in_bytes;
        }
    }
    size_t most = 1;
    for (size_t i = 0; plan && i < plan->ntasks; i++)
        most = plan->tasks[i].ndeletes > most ? plan->tasks[i].ndeletes : most;
    const floe_scan_file **sel = rc == 0 ? floe__calloc(2 * most, sizeof(floe_scan_file *)) : NULL;
    if (rc == 0 && !sel)
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && plan && i < plan->ntasks; i++) {
        const floe_scan_task *task = &plan->tasks[i];
        const floe_scan_file **other = sel + most;
        size_t n = 0, nother = 0;
        for (size_t k = 0; k < task->ndeletes; k++) {
            const floe_scan_file *d = task->deletes[k];
            if (floe__strmap_has(in, d->path))
                sel[n++] = d;
            else if (d->content == FLOE_FILE_POSITION_DELETES)
                other[nother++] = d;
        }
        if (!n)
            continue;
        floe_scan_posdel pd = {0, NULL}, po = {0, NULL};
        rc = floe__scan_load_posdeletes(t->io, task->file, sel, n, &pd);
        if (rc == 0 && pd.n && nother)
            rc = floe__scan_load_posdeletes(t->io, task->file, other, nother, &po);
        int64_t *pos = NULL;
        size_t npos = 0;
        if (rc == 0 && pd.n)
            rc = floe__rl_pos_union(pd.pos, pd.n, po.pos, po.n, &pos, &npos);
        floe__free(pd.pos);
        floe__free(po.pos);
        if (rc == 0 && pos)
            rc = floe__rowlevel_add_dv(op, task->file, pos, npos);
        /* the DV it had is replaced */
        for (size_t k = 0; rc == 0 && pos && k < nother; k++) {
            const floe_scan_delete_info *od = floe__scan_delete_info(other[k]);
            if (!od->has_content_offset)
                continue;
            rc = floe__rowlevel_remove_file(op, other[k]);
            r->rewritten_delete_files_count++;
            r->rewritten_bytes_count += od->content_size_in_bytes;
        }
    }
    if (rc == 0)
        rc = floe__rl_write_dvs(op);
    floe__free(sel);
    floe__strmap_free(in);
    return rc;
}

int floe_maint_rewrite_position_delete_files(
    floe_maint_rewrite_position_deletes_result *out, floe_catalog *catalog, const char *ident,
    const floe_maint_rewrite_position_deletes_options *opts)
{
    memset(out, 0, sizeof *out);
    if (!opts || opts->version != FLOE_MAINT_REWRITE_POSITION_DELETES_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint",
                           "unsupported rewrite_position_delete_files options");
    floe_table *t = NULL;
    FLOE_TRY(load(&t, catalog, ident, opts->io, opts->io_conf, NULL));
    cplan p;
    memset(&p, 0, sizeof p);
    p.deletes = true;
    int rc = plan_options(t->metadata, opts->options, &p);
    const floe_snapshot_ref *head = NULL;
    if (rc == 0)
        rc = floe__table_write_head(t->metadata, t->branch, false, &head);
    floe_table_metadata *meta = NULL;
    if (rc == 0 && head)
        rc = floe__table_read_metadata(t->io, t->metadata_location, &meta);
    const floe_snapshot *snap =
        meta && head ? floe__metadata_snapshot(meta, head->snapshot_id) : NULL;
    floe_arena *a = floe__arena_new(4096);
    if (rc == 0 && !a)
        rc = floe__error_nomem();
    floe_scan_plan *plan = NULL, *filtered = NULL;
    floe_scan_plan_options po;
    memset(&po, 0, sizeof po);
    po.threads = 1;
    if (rc == 0 && snap)
        rc = floe__scan_plan(&plan, meta, t->io, snap, NULL, &po);
    /* where: the delete files a read of the matching rows applies */
    floe_strmap *scope = NULL;
    if (rc == 0 && snap && opts->where && *opts->where) {
        const floe_expr *filter = NULL;
        rc = floe__scan_filter_parse(&filter, a, opts->where, floe__metadata_current_schema(meta));
        po.filter = filter;
        if (rc == 0)
            rc = floe__scan_plan(&filtered, meta, t->io, snap, NULL, &po);
        if (rc == 0 && !(scope = floe__strmap_new()))
            rc = floe__error_nomem();
        for (size_t i = 0; rc == 0 && i < filtered->ntasks; i++)
            for (size_t k = 0; rc == 0 && k < filtered->tasks[i].ndeletes; k++)
                rc = floe__strmap_put(scope, filtered->tasks[i].deletes[k]->path, (void *)1);
    }
    floe_vec files = FLOE_VEC_INIT(floe_scan_file *);
    if (rc == 0 && snap)
        rc = live_deletes(t, snap, a, true, scope, NULL, &files);
    /* v3: deletion vectors are never rewritten, and a table with only
     * those has nothing to do (Java: "v2 deletes ... have already been
     * rewritten to v3 DVs"); position delete files left from before an
     * upgrade become DVs, in one commit (a data file's DV is built from
     * every delete that applies to it, so the groups cannot commit apart) */
    bool to_dvs = meta && meta->format_version >= 3;
    /* the delete files as tasks of the binpack planner (no deletes of their own) */
    floe_scan_task *tasks = rc == 0 ? floe__calloc(files.len + 1, sizeof *tasks) : NULL;
    if (rc == 0 && !tasks)
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < files.len; i++)
        tasks[i].file = *(floe_scan_file **)floe__vec_at(&files, i);
    floe_scan_plan dplan;
    memset(&dplan, 0, sizeof dplan);
    dplan.tasks = tasks;
    dplan.ntasks = files.len;
    floe_vec groups = FLOE_VEC_INIT(cgroup);
    if (rc == 0)
        rc = plan_groups(&p, &dplan, &groups);
    const char *gran = floe__props_get(&t->metadata->properties, "write.delete.granularity");
    bool per_file = !(gran && strcasecmp(gran, "partition") == 0);
    int64_t base = snap ? snap->snapshot_id : -1;
    size_t commits = !p.partial || to_dvs                 ? 1
                     : groups.len < (size_t)p.max_commits ? groups.len
                                                          : (size_t)p.max_commits;
    size_t per = commits ? (groups.len + commits - 1) / commits : 0;
    for (size_t g = 0; rc == 0 && g < groups.len; g += per) {
        size_t end = g + per < groups.len ? g + per : groups.len;
        floe_maint_rewrite_position_deletes_result part;
        memset(&part, 0, sizeof part);
        floe_rowlevel *op = NULL;
        int e = start_op(t, base, &op);
        if (e == 0 && to_dvs)
            e = rewrite_to_dvs(t, plan, op, &groups, g, end, &part);
        for (size_t k = g; e == 0 && !to_dvs && k < end; k++)
            e = rewrite_delete_group(t, plan, op, floe__vec_at(&groups, k), per_file, &part);
        floe_rowlevel_stats st;
        memset(&st, 0, sizeof st);
        int64_t committed = -1;
        if (e == 0)
            e = floe_rowlevel_commit(&committed, &st, op);
        /* Java counts a DV's blob (ScanTaskUtil.contentSizeInBytes), not its Puffin file */
        for (size_t k = 0; e == 0 && to_dvs && k < op->delete_files.len; k++)
            part.added_bytes_count +=
                ((const floe_data_file *)floe__vec_at(&op->delete_files, k))->content_size_in_bytes;
        floe_rowlevel_free(op);
        if (e == 0) {
            if (committed >= 0)
                base = committed;
            out->rewritten_delete_files_count += part.rewritten_delete_files_count;
            out->rewritten_bytes_count += part.rewritten_bytes_count;
            out->added_delete_files_count += st.delete_files_added;
            out->added_bytes_count += to_dvs ? part.added_bytes_count : st.bytes_written;
        } else if (p.partial) {
            floe_error_clear(); /* that commit's files stay; Java logs it */
        } else {
            rc = e;
        }
    }
    groups_free(&groups);
    floe__free(tasks);
    floe__vec_free(&files);
    floe__strmap_free(scope);
    floe__scan_plan_free(filtered);
    floe__scan_plan_free(plan);
    floe__metadata_free(meta);
    floe__arena_free(a);
    floe_table_free(t);
    return rc;
}

/* RemoveDanglingDeletesSparkAction on its own: one replace commit on main
 * (none when nothing dangles). */
int floe_maint_remove_dangling_deletes(int64_t *removed, floe_catalog *catalog, const char *ident,
                                       const floe_maint_remove_dangling_deletes_options *opts)
{
    *removed = 0;
    if (!opts || opts->version != FLOE_MAINT_REMOVE_DANGLING_DELETES_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported remove_dangling_deletes options");
    floe_table *t = NULL;
    FLOE_TRY(load(&t, catalog, ident, opts->io, opts->io_conf, NULL));
    const floe_snapshot_ref *head = NULL;
    int rc = floe__table_write_head(t->metadata, t->branch, false, &head);
    floe_maint_rewrite_data_files_result r;
    memset(&r, 0, sizeof r);
    int64_t base = head ? head->snapshot_id : -1;
    if (rc == 0 && head)
        rc = remove_dangling(t, &base, &r);
    *removed = r.removed_delete_files_count;
    floe_table_free(t);
    return rc;
}

/* ---------------------------------------------------------------- rewrite_manifests */

int floe_maint_rewrite_manifests(floe_maint_rewrite_manifests_result *out, floe_catalog *catalog,
                                 const char *ident,
                                 const floe_maint_rewrite_manifests_options *opts)
{
    memset(out, 0, sizeof *out);
    if (!opts || opts->version != FLOE_MAINT_REWRITE_MANIFESTS_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported rewrite_manifests options");
    floe_table *t = NULL;
    FLOE_TRY(load(&t, catalog, ident, opts->io, opts->io_conf, NULL));
    floe_rewrite_manifests_stats st;
    int rc = floe__table_rewrite_manifests(t, opts->spec_id, opts->target_manifest_size_bytes, &st);
    if (rc == 0) {
        out->rewritten_manifests_count = st.rewritten_manifests_count;
        out->added_manifests_count = st.added_manifests_count;
    }
    floe_table_free(t);
    return rc;
}
