/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/lineage_graph: `floe log --graph`, the seed's drawing of a table's
 * own history:
 *
 *   ◉   5270420720687731067  2026-09-28 13:15:30  append  ...  (main)
 *   │ ○ 23499723825440384    2026-09-28 13:15:26  append  ...  [abandoned]
 *   ├─╯
 *   ●   3657524344527679724  ...
 *
 * Rows are snapshots newest first (children before parents). Each column
 * ("lane") waits for one snapshot: the parent of the last snapshot drawn in
 * it. Snapshots sharing a parent open lanes of their own, which join again
 * on a row of their own just above the parent (├─╯, with ┴ for a lane
 * joining in the middle and ┼ where a lane crosses). Lanes keep their
 * position while open (no diagonal shifts), and the first lane is kept for
 * the ancestors of the ref the log starts from, so main's line is always
 * the leftmost one. ● a snapshot, ◉ the one main points at, ○ a snapshot
 * no ref reaches (abandoned); --ascii draws | * @ o - ' + instead.
 */
#include "lineage.h"

#include "output.h"
#include "util/util.h"

#include <string.h>

#define FREE CLI_LIN_NONE
#define RESERVED (CLI_LIN_NONE - 1)

typedef struct glyphs {
    const char *vert, *node, *current, *abandoned, *tee, *dash, *join_mid, *join_end, *cross;
} glyphs;

static const glyphs unicode = {"│", "●", "◉", "○", "├", "─", "┴", "╯", "┼"};
static const glyphs ascii = {"|", "*", "@", "o", "|", "-", "'", "'", "+"};

static const char *const lane_colors[] = {"\x1b[31m", "\x1b[32m", "\x1b[33m",
                                          "\x1b[34m", "\x1b[35m", "\x1b[36m"};
#define RESET "\x1b[0m"

typedef struct row {
    floe_buf g;    /* graph part, with colour codes */
    size_t width;  /* visible width of g */
    size_t node;   /* node index, FREE for a join or change row */
    size_t change; /* index in o->changes for a change row, else FREE */
} row;

typedef struct drawer {
    const cli_graph_opts *o;
    const glyphs *gl;
    floe_buf *b;
    size_t width;
    int rc;
} drawer;

static void put(drawer *d, const char *s, size_t lane)
{
    if (d->o->color && lane != FREE)
        floe__buf_puts(d->b, lane_colors[lane % 6]);
    if (floe__buf_puts(d->b, s) < 0)
        d->rc = FLOE_ENOMEM;
    if (d->o->color && lane != FREE)
        floe__buf_puts(d->b, RESET);
    d->width++;
}

static void space(drawer *d)
{
    if (floe__buf_putc(d->b, ' ') < 0)
        d->rc = FLOE_ENOMEM;
    d->width++;
}

static bool open_lane(size_t v)
{
    return v != FREE && v != RESERVED;
}

/* Last lane worth drawing: an open one, or `at`. */
static size_t last_lane(const size_t *lanes, size_t n, size_t at)
{
    size_t last = at;
    for (size_t k = 0; k < n; k++)
        if (open_lane(lanes[k]) && (last == FREE || k > last))
            last = k;
    return last;
}

static void trim(row *r)
{
    /* Keep colour codes intact: only plain trailing blanks are removed. */
    while (r->g.len && r->g.ptr[r->g.len - 1] == ' ') {
        r->g.ptr[--r->g.len] = '\0';
        r->width--;
    }
}

static int join_row(drawer *d, const size_t *lanes, size_t n, const size_t *join, size_t nj)
{
    size_t first = join[0], end = join[nj - 1];
    size_t last = last_lane(lanes, n, end);
    for (size_t k = 0; k <= last; k++) {
        bool joining = false;
        for (size_t j = 1; j < nj; j++)
            joining |= join[j] == k;
        if (k < first || k > end)
            open_lane(lanes[k]) ? put(d, d->gl->vert, k) : space(d);
        else if (k == first)
            put(d, d->gl->tee, first);
        else if (k == end)
            put(d, d->gl->join_end, k);
        else if (joining)
            put(d, d->gl->join_mid, k);
        else if (open_lane(lanes[k]))
            put(d, d->gl->cross, k);
        else
            put(d, d->gl->dash, first);
        if (k < last)
            (k >= first && k < end) ? put(d, d->gl->dash, first) : space(d);
    }
    return d->rc;
}

static const char *node_glyph(const cli_lineage *l, const glyphs *gl, size_t i)
{
    if (l->nodes[i].flags & CLI_LIN_CURRENT)
        return gl->current;
    return cli_lineage_abandoned(l, i) ? gl->abandoned : gl->node;
}

static int node_text(const cli_lineage *l, size_t i, int idw, const cli_graph_opts *o, FILE *out)
{
    const cli_lnode *nd = &l->nodes[i];
    char t[40];
    cli_format_time(nd->s->timestamp_ms, t, sizeof t);
    t[19] = '\0';
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)nd->s->snapshot_id);
    fprintf(
        out, "%s%-*s%s  %s  %-9s +%s -%s records, %s total, %s files", o->color ? "\x1b[33m" : "",
        idw, id, o->color ? RESET : "", t, nd->s->operation ? nd->s->operation : "?",
        cli_lineage_summary(l, i, "added-records"), cli_lineage_summary(l, i, "deleted-records"),
        cli_lineage_summary(l, i, "total-records"), cli_lineage_summary(l, i, "total-data-files"));
    if (nd->decor)
        fprintf(out, "  %s(%s)%s", o->color ? "\x1b[1;32m" : "", nd->decor, o->color ? RESET : "");
    if (nd->wap_id)
        fprintf(out, "  %s[%s wap.id=%s]%s", o->color ? "\x1b[36m" : "",
                nd->wap == CLI_WAP_STAGED ? "staged" : "published", nd->wap_id,
                o->color ? RESET : "");
    else if (cli_lineage_abandoned(l, i))
        fprintf(out, "  %s[abandoned]%s", o->color ? "\x1b[31m" : "", o->color ? RESET : "");
    fputc('\n', out);
    return 0;
}

/* The schema / spec / sort-order changes placed before listed snapshot k
 * (n: after the last): the open lanes go on through them. */
static int change_rows(drawer *d, const cli_lineage *l, size_t n, size_t k, const size_t *lanes,
                       size_t nlanes, row *rows, size_t *nrows)
{
    const cli_changes *ch = d->o->changes;
    for (size_t c = ch ? ch->n : 0; c-- > 0;) { /* newest first */
        if (cli_change_position(l, &ch->items[c], n) != k)
            continue;
        row *r = &rows[(*nrows)++];
        r->node = FREE;
        r->change = c;
        d->b = &r->g;
        d->width = 0;
        size_t last = last_lane(lanes, nlanes, k == 0 && nlanes ? 0 : FREE);
        for (size_t q = 0; last != FREE && q <= last; q++) {
            if (open_lane(lanes[q]) || (k == 0 && q == 0))
                put(d, d->gl->vert, q);
            else
                space(d);
            if (q < last)
                space(d);
        }
        if (d->rc < 0)
            return d->rc;
        r->width = d->width;
        trim(r);
    }
    return 0;
}

static void change_text(const cli_change *ch, int idw, const cli_graph_opts *o, FILE *out)
{
    char t[40];
    cli_format_time(ch->timestamp_ms, t, sizeof t);
    t[19] = '\0';
    fprintf(out, "%-*s  %s  %s%s%s\n", idw, "", t, o->color ? "\x1b[35m" : "", ch->text,
            o->color ? RESET : "");
}

int cli_lineage_graph(const cli_lineage *l, const cli_graph_opts *o, FILE *out)
{
    size_t n = o->limit && o->limit < l->norder ? o->limit : l->norder;
    /* At most one lane per listed snapshot (plus the reserved first one). */
    size_t *lanes = floe__calloc(n + 1, sizeof *lanes);
    size_t *join = floe__calloc(n + 1, sizeof *join);
    size_t nch = o->changes ? o->changes->n : 0;
    row *rows = floe__calloc(2 * n + 1 + nch, sizeof *rows);
    int rc = 0;
    if (!lanes || !join || !rows) {
        rc = floe__error_nomem();
        goto done;
    }
    size_t nlanes = 0, nrows = 0;
    /* Keep the first lane for the primary ref's line when it is listed. */
    for (size_t k = 0; k < n; k++)
        if (l->nodes[l->order[k]].flags & CLI_LIN_PRIMARY) {
            lanes[nlanes++] = RESERVED;
            break;
        }
    drawer d = {o, o->ascii ? &ascii : &unicode, NULL, 0, 0};
    int idw = 1;
    for (size_t k = 0; k < n; k++) {
        char id[24];
        int w = snprintf(id, sizeof id, "%lld", (long long)l->nodes[l->order[k]].s->snapshot_id);
        if (w > idw)
            idw = w;
    }
    for (size_t k = 0; k < 2 * n + 1 + nch; k++)
        rows[k].change = FREE;
    for (size_t k = 0; k < n; k++) {
        if ((rc = change_rows(&d, l, n, k, lanes, nlanes, rows, &nrows)) < 0)
            goto done;
        size_t i = l->order[k];
        size_t nj = 0;
        /* The primary line's first snapshot lands in the reserved lane, and
         * lanes waiting for it join there. */
        if ((l->nodes[i].flags & CLI_LIN_PRIMARY) && nlanes && lanes[0] == RESERVED)
            join[nj++] = 0;
        for (size_t c = 0; c < nlanes; c++)
            if (lanes[c] == i)
                join[nj++] = c;
        if (nj > 1) {
            row *r = &rows[nrows++];
            r->node = FREE;
            d.b = &r->g;
            d.width = 0;
            if ((rc = join_row(&d, lanes, nlanes, join, nj)) < 0)
                goto done;
            r->width = d.width;
            trim(r);
            for (size_t j = 1; j < nj; j++)
                lanes[join[j]] = FREE;
        }
        size_t c = FREE;
        if (nj > 0)
            c = join[0];
        else if ((l->nodes[i].flags & CLI_LIN_PRIMARY) && nlanes && lanes[0] == RESERVED)
            c = 0;
        if (c == FREE) {
            for (size_t q = 0; q < nlanes && c == FREE; q++)
                if (lanes[q] == FREE)
                    c = q;
            if (c == FREE)
                c = nlanes++;
        }
        row *r = &rows[nrows++];
        r->node = i;
        d.b = &r->g;
        d.width = 0;
        size_t last = last_lane(lanes, nlanes, c);
        for (size_t q = 0; q <= last; q++) {
            if (q == c)
                put(&d, node_glyph(l, d.gl, i), c);
            else if (open_lane(lanes[q]))
                put(&d, d.gl->vert, q);
            else
                space(&d);
            if (q < last)
                space(&d);
        }
        if ((rc = d.rc) < 0)
            goto done;
        r->width = d.width;
        trim(r);
        size_t p = l->nodes[i].parent;
        lanes[c] = p != CLI_LIN_NONE && (l->nodes[p].flags & CLI_LIN_SELECTED) ? p : FREE;
    }
    if ((rc = change_rows(&d, l, n, n, lanes, nlanes, rows, &nrows)) < 0)
        goto done;
    size_t gw = 0;
    for (size_t k = 0; k < nrows; k++)
        if (rows[k].node != FREE && rows[k].width > gw)
            gw = rows[k].width;
    for (size_t k = 0; k < nrows; k++) {
        fputs(rows[k].g.len ? rows[k].g.ptr : "", out);
        if (rows[k].change != FREE && o->changes) {
            for (size_t w = rows[k].width; w < gw + 2; w++)
                fputc(' ', out);
            change_text(&o->changes->items[rows[k].change], idw, o, out);
            continue;
        }
        if (rows[k].node == FREE) {
            fputc('\n', out);
            continue;
        }
        for (size_t w = rows[k].width; w < gw + 2; w++)
            fputc(' ', out);
        node_text(l, rows[k].node, idw, o, out);
    }
    if (ferror(out))
        rc = floe__error(FLOE_EIO, "cli", "cannot write the output");
done:
    for (size_t k = 0; rows && k < 2 * n + 1 + nch; k++)
        floe__buf_free(&rows[k].g);
    floe__free(rows);
    floe__free(lanes);
    floe__free(join);
    return rc;
}
