/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/lineage_changes: the schema, partition-spec and sort-order changes of
 * a table, for `floe log` and `floe suspects` (see lineage.h).
 *
 * Evolution commits no snapshot (spec "Table Metadata": a new schema,
 * spec or sort order is a new metadata file), so the changes are found by
 * reading the metadata log (`metadata-log`: each previous metadata file
 * and its last-updated-ms) and comparing the current schema id, default
 * spec id and default sort order id of each file with the one before. A
 * change committed together with a snapshot (a write that changed the
 * schema) is tied to that snapshot. Where the log does not reach (files
 * before the oldest readable entry: write.metadata.previous-versions-max,
 * deleted files), a snapshot whose schema-id differs from its parent's
 * stands for the change, at its commit time. What changed is found by
 * field id: added, dropped, renamed, promoted, made optional or required,
 * commented, moved columns and identifier fields; partition fields added,
 * removed (or made void, v1), renamed; the new sort order.
 */
#include "lineage.h"

#include "spec/spec.h"
#include "sql/exec_int.h"
#include "util/util.h"

#include "floe/io.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------- schema diff */

typedef struct col {
    int32_t id, parent; /* parent field id, 0 at top level */
    size_t pos;         /* position among the parent's members */
    char *full;         /* "pt.x", "tags.element", "m.value.y" */
    const floe_field *f;
} col;

typedef struct cols {
    col *v;
    size_t n, cap;
} cols;

static void cols_free(cols *c)
{
    for (size_t i = 0; i < c->n; i++)
        floe__free(c->v[i].full);
    floe__free(c->v);
    memset(c, 0, sizeof *c);
}

static int cols_add(cols *c, const floe_field *f, int32_t parent, size_t pos, const char *prefix)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        col *v = floe__realloc(c->v, cap * sizeof *v);
        if (!v)
            return floe__error_nomem();
        c->v = v;
        c->cap = cap;
    }
    char *full = prefix ? floe__sprintf("%s.%s", prefix, f->name) : floe__strdup(f->name);
    if (!full)
        return floe__error_nomem();
    c->v[c->n++] = (col){f->id, parent, pos, full, f};
    return 0;
}

static int walk(cols *c, const floe_type *t, int32_t parent, const char *prefix, unsigned depth)
{
    if (depth > 64) /* the parser bounds nesting; a bound here too */
        return 0;
    const floe_field *members[2] = {NULL, NULL};
    size_t n = 0;
    const floe_field *fields = NULL;
    if (t->id == FLOE_T_STRUCT && t->fields) {
        fields = t->fields;
        n = t->nfields;
    } else if (t->id == FLOE_T_LIST) {
        members[0] = t->element;
        n = 1;
    } else if (t->id == FLOE_T_MAP) {
        members[0] = t->key;
        members[1] = t->value;
        n = 2;
    }
    for (size_t i = 0; i < n; i++) {
        const floe_field *f = fields ? &fields[i] : members[i];
        if (!f)
            continue;
        FLOE_TRY(cols_add(c, f, parent, i, prefix));
        char *full = c->v[c->n - 1].full;
        FLOE_TRY(walk(c, f->type, f->id, full, depth + 1));
    }
    return 0;
}

static const col *find(const cols *c, int32_t id)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->v[i].id == id)
            return &c->v[i];
    return NULL;
}

static int add_part(floe_buf *b, const char *fmt, ...) FLOE_PRINTF(2, 3);

static int add_part(floe_buf *b, const char *fmt, ...)
{
    if (b->len && floe__buf_puts(b, "; ") < 0)
        return floe__error_nomem();
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

static char *type_text(const floe_type *t)
{
    floe_buf b = FLOE_BUF_INIT;
    char *r = floe__sql_spark_type(t, false, &b) == 0 ? floe__strdup(b.ptr ? b.ptr : "") : NULL;
    floe__buf_free(&b);
    return r;
}

/* Columns of struct `parent` (0: top level) present in both, that are not
 * in the longest run keeping their old relative order: the moved ones. */
static int moves(const cols *a, const cols *b, int32_t parent, floe_buf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        n += b->v[i].parent == parent && find(a, b->v[i].id);
    if (n < 2)
        return 0;
    size_t *oldpos = floe__calloc(n, sizeof *oldpos), *len = floe__calloc(n, sizeof *len);
    size_t *prev = floe__calloc(n, sizeof *prev), *at = floe__calloc(n, sizeof *at);
    bool *keep = floe__calloc(n, sizeof *keep);
    int rc = oldpos && len && prev && at && keep ? 0 : floe__error_nomem();
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < b->n; i++) {
        const col *o = b->v[i].parent == parent ? find(a, b->v[i].id) : NULL;
        if (o) {
            at[k] = i;
            oldpos[k++] = o->pos;
        }
    }
    size_t best = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        len[i] = 1;
        prev[i] = n;
        for (size_t j = 0; j < i; j++)
            if (oldpos[j] < oldpos[i] && len[j] + 1 >= len[i]) { /* ties: the later one stays */
                len[i] = len[j] + 1;
                prev[i] = j;
            }
        if (len[i] > len[best])
            best = i;
    }
    for (size_t i = best; rc == 0 && i < n; i = prev[i])
        keep[i] = true;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (!keep[i])
            rc = add_part(out, "moved %s", b->v[at[i]].full);
    floe__free(oldpos);
    floe__free(len);
    floe__free(prev);
    floe__free(at);
    floe__free(keep);
    return rc;
}

static int ids_text(const floe_schema *s, const cols *c, floe_buf *out)
{
    int rc = floe__buf_putc(out, '[');
    for (size_t i = 0; rc == 0 && i < s->n_identifier_field_ids; i++) {
        const col *f = find(c, s->identifier_field_ids[i]);
        rc = floe__buf_printf(out, "%s%s", i ? ", " : "", f ? f->full : "?");
    }
    return rc == 0 ? floe__buf_putc(out, ']') : rc;
}

static bool same_ids(const floe_schema *a, const floe_schema *b)
{
    if (a->n_identifier_field_ids != b->n_identifier_field_ids)
        return false;
    for (size_t i = 0; i < a->n_identifier_field_ids; i++)
        if (a->identifier_field_ids[i] != b->identifier_field_ids[i])
            return false;
    return true;
}

static bool same_doc(const char *x, const char *y)
{
    return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

static int schema_diff(const floe_schema *from, const floe_schema *to, floe_buf *out)
{
    cols a = {0}, b = {0};
    int rc = walk(&a, from->root, 0, NULL, 0);
    if (rc == 0)
        rc = walk(&b, to->root, 0, NULL, 0);
    for (size_t i = 0; rc == 0 && i < b.n; i++) {
        const col *nb = &b.v[i], *na = find(&a, nb->id);
        if (!na) {
            if (nb->parent && !find(&a, nb->parent))
                continue; /* inside an added struct */
            char *ty = type_text(nb->f->type);
            rc = ty ? add_part(out, "added column %s %s", nb->full, ty) : floe__error_nomem();
            floe__free(ty);
            continue;
        }
        if (strcmp(na->f->name, nb->f->name) != 0)
            rc = add_part(out, "renamed %s -> %s", na->full, nb->full);
        if (rc == 0 && !floe_type_is_nested(na->f->type) && !floe_type_is_nested(nb->f->type)) {
            char *x = type_text(na->f->type), *y = type_text(nb->f->type);
            if (!x || !y)
                rc = floe__error_nomem();
            else if (strcmp(x, y) != 0)
                rc = add_part(out, "promoted %s %s -> %s", nb->full, x, y);
            floe__free(x);
            floe__free(y);
        }
        if (rc == 0 && na->f->required != nb->f->required)
            rc = add_part(out, "made %s %s", nb->full, nb->f->required ? "required" : "optional");
        if (rc == 0 && !same_doc(na->f->doc, nb->f->doc))
            rc = nb->f->doc ? add_part(out, "comment on %s '%s'", nb->full, nb->f->doc)
                            : add_part(out, "removed the comment on %s", nb->full);
    }
    for (size_t i = 0; rc == 0 && i < a.n; i++) {
        const col *na = &a.v[i];
        if (!find(&b, na->id) && (!na->parent || find(&b, na->parent)))
            rc = add_part(out, "dropped column %s", na->full);
    }
    /* moves within each struct kept by both (top level first) */
    if (rc == 0)
        rc = moves(&a, &b, 0, out);
    for (size_t i = 0; rc == 0 && i < b.n; i++)
        if (b.v[i].f->type->id == FLOE_T_STRUCT && find(&a, b.v[i].id))
            rc = moves(&a, &b, b.v[i].id, out);
    if (rc == 0 && !same_ids(from, to)) {
        rc = add_part(out, "identifier fields ");
        if (rc == 0)
            rc = ids_text(from, &a, out);
        if (rc == 0)
            rc = floe__buf_puts(out, " -> ");
        if (rc == 0)
            rc = ids_text(to, &b, out);
    }
    if (rc == 0 && out->len == 0)
        rc = floe__buf_puts(out, "no column changed");
    cols_free(&a);
    cols_free(&b);
    return rc;
}

int cli_schema_diff(const floe_schema *from, const floe_schema *to, floe_buf *out)
{
    floe_buf d = FLOE_BUF_INIT;
    int rc = schema_diff(from, to, &d);
    if (rc == 0)
        rc = floe__buf_puts(out, d.ptr);
    floe__buf_free(&d);
    return rc;
}

/* ---------------------------------------------------------------- spec, sort order */

static int transform_text(floe_buf *b, const floe_transform *t, const floe_schema *sc,
                          int32_t source)
{
    const floe_field *src = sc ? floe__schema_field_by_id(sc, source) : NULL;
    if (t->kind != FLOE_TR_IDENTITY) {
        FLOE_TRY(floe__transform_format(t, b));
        FLOE_TRY(floe__buf_putc(b, '('));
    }
    if (src)
        FLOE_TRY(floe__buf_puts(b, src->name));
    else
        FLOE_TRY(floe__buf_printf(b, "%d", (int)source));
    return t->kind != FLOE_TR_IDENTITY ? floe__buf_putc(b, ')') : 0;
}

static const floe_partition_field *spec_field(const floe_partition_spec *s, int32_t id)
{
    for (size_t i = 0; s && i < s->nfields; i++)
        if (s->fields[i].field_id == id)
            return &s->fields[i];
    return NULL;
}

static bool live(const floe_partition_field *f)
{
    return f && f->transform.kind != FLOE_TR_VOID;
}

static int spec_diff(const floe_partition_spec *a, const floe_partition_spec *b,
                     const floe_schema *sc, floe_buf *out)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && b && i < b->nfields; i++) {
        const floe_partition_field *nb = &b->fields[i], *na = spec_field(a, nb->field_id);
        if (live(nb) && !live(na)) {
            floe_buf t = FLOE_BUF_INIT;
            rc = transform_text(&t, &nb->transform, sc, nb->source_id);
            if (rc == 0)
                rc = add_part(out, "added field %s: %s", nb->name, t.ptr);
            floe__buf_free(&t);
        } else if (live(nb) && strcmp(na->name, nb->name) != 0)
            rc = add_part(out, "renamed field %s -> %s", na->name, nb->name);
    }
    for (size_t i = 0; rc == 0 && a && i < a->nfields; i++)
        if (live(&a->fields[i]) && !live(spec_field(b, a->fields[i].field_id)))
            rc = add_part(out, "removed field %s", a->fields[i].name);
    if (rc == 0 && out->len == 0)
        rc = floe__buf_puts(out, "no field changed");
    return rc;
}

static int order_text(const floe_sort_order *o, const floe_schema *sc, floe_buf *out)
{
    if (!o || !o->nfields)
        return floe__buf_puts(out, "unsorted");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < o->nfields; i++) {
        const floe_sort_field *f = &o->fields[i];
        if (i)
            rc = floe__buf_puts(out, ", ");
        if (rc == 0)
            rc = transform_text(out, &f->transform, sc, f->source_id);
        if (rc == 0)
            rc = floe__buf_printf(out, " %s %s", f->descending ? "DESC" : "ASC",
                                  f->nulls_first ? "NULLS FIRST" : "NULLS LAST");
    }
    return rc;
}

/* ---------------------------------------------------------------- the changes */

typedef struct version {
    const floe_table_metadata *m;
    int64_t ts;
} version;

static int push(cli_changes *c, int kind, int64_t ts, const floe_buf *text, bool with,
                int64_t snapshot_id, const floe_table_metadata *before)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        cli_change *v = floe__realloc(c->items, cap * sizeof *v);
        if (!v)
            return floe__error_nomem();
        c->items = v;
        c->cap = cap;
    }
    char *t = floe__strdup(text->ptr ? text->ptr : "");
    if (!t)
        return floe__error_nomem();
    c->items[c->n++] = (cli_change){ts,
                                    kind,
                                    t,
                                    with,
                                    snapshot_id,
                                    before && before->has_current_snapshot,
                                    before ? before->current_snapshot_id : 0};
    return 0;
}

/* The snapshot `b` made current that `a` did not have: committed with it. */
static bool new_snapshot(const floe_table_metadata *a, const floe_table_metadata *b, int64_t *id)
{
    if (!b->has_current_snapshot || floe__metadata_snapshot(a, b->current_snapshot_id))
        return false;
    *id = b->current_snapshot_id;
    return true;
}

static int compare(cli_changes *c, const version *va, const version *vb)
{
    const floe_table_metadata *a = va->m, *b = vb->m;
    int64_t sid = 0;
    bool with = new_snapshot(a, b, &sid);
    floe_buf t = FLOE_BUF_INIT;
    int rc = 0;
    const floe_schema *sa = floe__metadata_current_schema(a), *sb = floe__metadata_current_schema(b);
    if (sa && sb && a->current_schema_id != b->current_schema_id) {
        rc = floe__buf_printf(&t, "schema %d -> %d: ", (int)a->current_schema_id,
                              (int)b->current_schema_id);
        if (rc == 0)
            rc = cli_schema_diff(sa, sb, &t);
        if (rc == 0)
            rc = push(c, CLI_CHANGE_SCHEMA, vb->ts, &t, with, sid, a);
    }
    if (rc == 0 && a->default_spec_id != b->default_spec_id) {
        floe__buf_clear(&t);
        rc = floe__buf_printf(&t, "partition spec %d -> %d: ", (int)a->default_spec_id,
                              (int)b->default_spec_id);
        floe_buf d = FLOE_BUF_INIT;
        if (rc == 0)
            rc = spec_diff(floe__metadata_spec(a, a->default_spec_id),
                           floe__metadata_spec(b, b->default_spec_id), sb, &d);
        if (rc == 0)
            rc = floe__buf_puts(&t, d.ptr);
        floe__buf_free(&d);
        if (rc == 0)
            rc = push(c, CLI_CHANGE_SPEC, vb->ts, &t, with, sid, a);
    }
    if (rc == 0 && a->default_sort_order_id != b->default_sort_order_id) {
        floe__buf_clear(&t);
        rc = floe__buf_printf(&t, "sort order %d -> %d: ", (int)a->default_sort_order_id,
                              (int)b->default_sort_order_id);
        if (rc == 0)
            rc = order_text(floe__metadata_sort_order(b, b->default_sort_order_id), sb, &t);
        if (rc == 0)
            rc = push(c, CLI_CHANGE_ORDER, vb->ts, &t, with, sid, a);
    }
    floe__buf_free(&t);
    return rc;
}

static int read_version(floe_fileio *io, const char *path, floe_table_metadata **out)
{
    floe_input *in = NULL;
    *out = NULL;
    int rc = io ? floe_fileio_open_input(&in, io, path) : FLOE_ENOTFOUND;
    if (rc == 0) {
        rc = floe__metadata_read_input(out, in);
        in->close(in);
    }
    if (rc == FLOE_ENOMEM)
        return rc;
    if (rc < 0) { /* gone or unreadable: skipped, the next file stands in */
        floe_error_clear();
        *out = NULL;
    }
    return 0;
}

/* Before the metadata log reaches: a snapshot written with another schema
 * than its parent, at its commit time. */
static int from_snapshots(cli_changes *c, const floe_table_metadata *m, int64_t before)
{
    int rc = 0;
    floe_buf t = FLOE_BUF_INIT;
    for (size_t i = 0; rc == 0 && i < m->nsnapshots; i++) {
        const floe_snapshot *s = &m->snapshots[i];
        const floe_snapshot *p = s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id)
                                               : NULL;
        if (!p || !s->has_schema_id || !p->has_schema_id || s->schema_id == p->schema_id ||
            s->timestamp_ms >= before)
            continue;
        const floe_schema *sa = floe__metadata_schema(m, p->schema_id);
        const floe_schema *sb = floe__metadata_schema(m, s->schema_id);
        if (!sa || !sb)
            continue;
        floe__buf_clear(&t);
        rc = floe__buf_printf(&t, "schema %d -> %d: ", (int)p->schema_id, (int)s->schema_id);
        if (rc == 0)
            rc = cli_schema_diff(sa, sb, &t);
        if (rc == 0)
            rc = push(c, CLI_CHANGE_SCHEMA, s->timestamp_ms, &t, true, s->snapshot_id, NULL);
    }
    floe__buf_free(&t);
    return rc;
}

int cli_changes_build(cli_changes *c, const floe_table_metadata *m, floe_fileio *io)
{
    memset(c, 0, sizeof *c);
    floe_table_metadata *prev = NULL;
    int64_t first = INT64_MAX; /* time of the oldest readable version */
    int rc = 0;
    for (size_t i = 0; rc == 0 && i <= m->n_metadata_log; i++) {
        floe_table_metadata *cur = NULL;
        version vb = {m, m->last_updated_ms};
        if (i < m->n_metadata_log) {
            rc = read_version(io, m->metadata_log[i].metadata_file, &cur);
            if (rc < 0 || !cur)
                continue;
            vb.m = cur;
            vb.ts = m->metadata_log[i].timestamp_ms;
        }
        if (prev) {
            version va = {prev, 0};
            rc = compare(c, &va, &vb);
        } else if (i < m->n_metadata_log)
            first = vb.ts;
        floe__metadata_free(prev);
        prev = cur;
    }
    floe__metadata_free(prev);
    if (rc == 0)
        rc = from_snapshots(c, m, first == INT64_MAX ? m->last_updated_ms + 1 : first);
    if (rc < 0)
        cli_changes_free(c);
    return rc;
}

void cli_changes_free(cli_changes *c)
{
    for (size_t i = 0; i < c->n; i++)
        floe__free(c->items[i].text);
    floe__free(c->items);
    memset(c, 0, sizeof *c);
}

size_t cli_change_position(const cli_lineage *l, const cli_change *ch, size_t nlisted)
{
    size_t k = 0, after = CLI_LIN_NONE;
    for (k = 0; k < nlisted; k++) {
        const floe_snapshot *s = l->nodes[l->order[k]].s;
        if (ch->with_snapshot && s->snapshot_id == ch->snapshot_id)
            return k + 1;
        if (ch->has_after && s->snapshot_id == ch->after_id && after == CLI_LIN_NONE)
            after = k;
    }
    for (k = 0; k < nlisted; k++)
        if (l->nodes[l->order[k]].s->timestamp_ms < ch->timestamp_ms)
            break;
    /* never below the snapshot main pointed at when the change was made
     * (commit times in one millisecond) */
    if (after != CLI_LIN_NONE && after < k)
        k = after;
    /* older than every listed snapshot: shown last unless the list was cut */
    if (k == nlisted && nlisted != l->norder)
        return CLI_LIN_NONE;
    return k;
}
