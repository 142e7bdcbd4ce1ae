/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/lineage: classification, ordering and DOT output of a table's
 * snapshot lineage (see lineage.h; spec "Snapshots", "Snapshot
 * References").
 */
#include "lineage.h"

#include "output.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static size_t index_of(const floe_table_metadata *m, const floe_snapshot *s)
{
    return s ? (size_t)(s - m->snapshots) : CLI_LIN_NONE;
}

/* Mark `flag` on `i` and its ancestors, stopping where it is already set
 * (so marking every ref costs O(snapshots) in total). The walk is bounded
 * by the snapshot count: a parent cycle in a hostile file cannot loop. */
static void mark(cli_lineage *l, size_t i, unsigned flag)
{
    for (size_t steps = 0; i != CLI_LIN_NONE && steps <= l->n; steps++) {
        if (l->nodes[i].flags & flag)
            return;
        l->nodes[i].flags |= flag;
        i = l->nodes[i].parent;
    }
}

typedef struct ref_entry {
    const floe_snapshot_ref *ref;
} ref_entry;

/* main first, then branches, then tags, each by name. */
static int ref_cmp(const void *a, const void *b)
{
    const floe_snapshot_ref *x = ((const ref_entry *)a)->ref, *y = ((const ref_entry *)b)->ref;
    int xm = strcmp(x->name, "main") != 0, ym = strcmp(y->name, "main") != 0;
    if (xm != ym)
        return xm - ym;
    if (x->type != y->type)
        return (int)x->type - (int)y->type;
    return strcmp(x->name, y->name);
}

static int decorate(cli_lineage *l)
{
    const floe_table_metadata *m = l->m;
    if (!m->nrefs)
        return 0;
    ref_entry *refs = floe__calloc(m->nrefs, sizeof *refs);
    if (!refs)
        return floe__error_nomem();
    for (size_t r = 0; r < m->nrefs; r++)
        refs[r].ref = &m->refs[r];
    qsort(refs, m->nrefs, sizeof *refs, ref_cmp);
    int rc = 0;
    for (size_t r = 0; r < m->nrefs && rc == 0; r++) {
        const floe_snapshot_ref *ref = refs[r].ref;
        size_t i = index_of(m, floe__metadata_snapshot(m, ref->snapshot_id));
        if (i == CLI_LIN_NONE)
            continue;
        cli_lnode *nd = &l->nodes[i];
        char *d = floe__sprintf("%s%s%s%s", nd->decor ? nd->decor : "", nd->decor ? ", " : "",
                                ref->type == FLOE_REF_TAG ? "tag: " : "", ref->name);
        if (!d) {
            rc = floe__error_nomem();
            break;
        }
        floe__free(nd->decor);
        nd->decor = d;
    }
    floe__free(refs);
    return rc;
}

/* Heap of node indexes, newest on top. */
static bool newer(const cli_lineage *l, size_t a, size_t b)
{
    const floe_snapshot *x = l->nodes[a].s, *y = l->nodes[b].s;
    if (x->timestamp_ms != y->timestamp_ms)
        return x->timestamp_ms > y->timestamp_ms;
    if (x->sequence_number != y->sequence_number)
        return x->sequence_number > y->sequence_number;
    return a > b; /* later in the file */
}

static void heap_push(const cli_lineage *l, size_t *h, size_t *n, size_t v)
{
    size_t k = (*n)++;
    h[k] = v;
    while (k > 0) {
        size_t p = (k - 1) / 2;
        if (!newer(l, h[k], h[p]))
            break;
        size_t t = h[k];
        h[k] = h[p];
        h[p] = t;
        k = p;
    }
}

static size_t heap_pop(const cli_lineage *l, size_t *h, size_t *n)
{
    size_t top = h[0];
    h[0] = h[--*n];
    size_t k = 0;
    for (;;) {
        size_t a = 2 * k + 1, b = a + 1, best = k;
        if (a < *n && newer(l, h[a], h[best]))
            best = a;
        if (b < *n && newer(l, h[b], h[best]))
            best = b;
        if (best == k)
            break;
        size_t t = h[k];
        h[k] = h[best];
        h[best] = t;
        k = best;
    }
    return top;
}

/* Children before parents, newest first among the ready ones (Kahn). */
static int order(cli_lineage *l)
{
    size_t n = l->n;
    uint32_t *pending = floe__calloc(n ? n : 1, sizeof *pending);
    size_t *heap = floe__calloc(n ? n : 1, sizeof *heap);
    l->order = floe__calloc(n ? n : 1, sizeof *l->order);
    if (!pending || !heap || !l->order) {
        floe__free(pending);
        floe__free(heap);
        return floe__error_nomem();
    }
    for (size_t i = 0; i < n; i++) {
        size_t p = l->nodes[i].parent;
        if ((l->nodes[i].flags & CLI_LIN_SELECTED) && p != CLI_LIN_NONE &&
            (l->nodes[p].flags & CLI_LIN_SELECTED))
            pending[p]++;
    }
    size_t hn = 0;
    for (size_t i = 0; i < n; i++)
        if ((l->nodes[i].flags & CLI_LIN_SELECTED) && pending[i] == 0)
            heap_push(l, heap, &hn, i);
    while (hn > 0) {
        size_t i = heap_pop(l, heap, &hn);
        l->order[l->norder++] = i;
        size_t p = l->nodes[i].parent;
        if (p != CLI_LIN_NONE && (l->nodes[p].flags & CLI_LIN_SELECTED) && --pending[p] == 0)
            heap_push(l, heap, &hn, p);
    }
    /* Snapshots on a parent cycle (corrupt file) never become ready: list
     * them last rather than dropping them. */
    for (size_t i = 0; i < n && l->norder < n; i++)
        if ((l->nodes[i].flags & CLI_LIN_SELECTED) && pending[i] != 0) {
            bool listed = false;
            for (size_t k = 0; k < l->norder && !listed; k++)
                listed = l->order[k] == i;
            if (!listed)
                l->order[l->norder++] = i;
        }
    floe__free(pending);
    floe__free(heap);
    return 0;
}

/* Write-audit-publish: a snapshot with wap.id is staged until main carries
 * it, by a cherry-pick whose snapshot records published-wap-id (Iceberg's
 * SnapshotSummary.PUBLISHED_WAP_ID_PROP) or by fast-forwarding onto it. */
static void classify_wap(cli_lineage *l)
{
    for (size_t i = 0; i < l->n; i++) {
        cli_lnode *nd = &l->nodes[i];
        const char *pub = floe__snapshot_summary(nd->s, "published-wap-id");
        const char *wap = floe__snapshot_summary(nd->s, "wap.id");
        if (pub && (nd->flags & CLI_LIN_MAIN)) {
            nd->wap = CLI_WAP_PUBLISHED;
            nd->wap_id = pub;
        } else if (wap) {
            nd->wap = (nd->flags & CLI_LIN_MAIN) ? CLI_WAP_PUBLISHED : CLI_WAP_STAGED;
            nd->wap_id = wap;
        }
    }
    for (size_t i = 0; i < l->n; i++) {
        cli_lnode *nd = &l->nodes[i];
        if (nd->wap != CLI_WAP_STAGED)
            continue;
        for (size_t j = 0; j < l->n; j++)
            if ((l->nodes[j].flags & CLI_LIN_MAIN) && l->nodes[j].wap == CLI_WAP_PUBLISHED &&
                strcmp(l->nodes[j].wap_id, nd->wap_id) == 0) {
                nd->wap = CLI_WAP_PUBLISHED;
                break;
            }
    }
}

const char *cli_lineage_state(const cli_lineage *l, size_t i)
{
    const cli_lnode *nd = &l->nodes[i];
    if (nd->flags & CLI_LIN_CURRENT)
        return "current";
    if (nd->flags & CLI_LIN_MAIN)
        return "main";
    if (nd->flags & CLI_LIN_REF)
        return "ref";
    return nd->wap == CLI_WAP_STAGED      ? "staged"
           : nd->wap == CLI_WAP_PUBLISHED ? "published"
                                          : "abandoned";
}

int cli_lineage_build(cli_lineage *l, const floe_table_metadata *m, const char *ref, bool all)
{
    memset(l, 0, sizeof *l);
    l->m = m;
    l->n = m->nsnapshots;
    l->primary = ref ? ref : "main";
    l->nodes = floe__calloc(l->n ? l->n : 1, sizeof *l->nodes);
    if (!l->nodes)
        return floe__error_nomem();
    for (size_t i = 0; i < l->n; i++) {
        const floe_snapshot *s = &m->snapshots[i];
        l->nodes[i].s = s;
        l->nodes[i].parent = s->has_parent
                                 ? index_of(m, floe__metadata_snapshot(m, s->parent_snapshot_id))
                                 : CLI_LIN_NONE;
    }
    size_t primary = CLI_LIN_NONE;
    for (size_t r = 0; r < m->nrefs; r++) {
        size_t i = index_of(m, floe__metadata_snapshot(m, m->refs[r].snapshot_id));
        mark(l, i, CLI_LIN_REF);
        if (strcmp(m->refs[r].name, "main") == 0) {
            mark(l, i, CLI_LIN_MAIN);
            if (i != CLI_LIN_NONE)
                l->nodes[i].flags |= CLI_LIN_CURRENT;
        }
        if (strcmp(m->refs[r].name, l->primary) == 0)
            primary = i;
    }
    if (primary == CLI_LIN_NONE && strcmp(l->primary, "main") != 0 &&
        !floe__metadata_ref(m, l->primary)) {
        int rc = floe__error(FLOE_ENOTFOUND, "cli", "Cannot find ref: %s", l->primary);
        cli_lineage_free(l);
        return rc;
    }
    mark(l, primary, CLI_LIN_PRIMARY);
    for (size_t i = 0; i < l->n; i++)
        if (all || (l->nodes[i].flags & CLI_LIN_PRIMARY))
            l->nodes[i].flags |= CLI_LIN_SELECTED;
    classify_wap(l);
    int rc = decorate(l);
    if (rc == 0)
        rc = order(l);
    if (rc < 0)
        cli_lineage_free(l);
    return rc;
}

void cli_lineage_free(cli_lineage *l)
{
    if (!l)
        return;
    for (size_t i = 0; l->nodes && i < l->n; i++)
        floe__free(l->nodes[i].decor);
    floe__free(l->nodes);
    floe__free(l->order);
    memset(l, 0, sizeof *l);
}

const char *cli_lineage_summary(const cli_lineage *l, size_t i, const char *key)
{
    const floe_snapshot *s = l->nodes[i].s;
    const char *v = floe__snapshot_summary(s, key);
    if (v)
        return v;
    /* Writers only record non-zero added-* / deleted-* counts (Java's
     * SnapshotSummary): absent from a summary that exists means 0. */
    if (s->operation && (strncmp(key, "added-", 6) == 0 || strncmp(key, "deleted-", 8) == 0))
        return "0";
    return "?";
}

/* ---------------------------------------------------------------- DOT */

/* Text inside a DOT string: quotes and backslashes escaped, controls dropped. */
static void dot_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, out);
    }
}

static void dot_string(FILE *out, const char *s)
{
    fputc('"', out);
    dot_text(out, s);
    fputc('"', out);
}

int cli_lineage_dot(const cli_lineage *l, const char *name, size_t limit, FILE *out)
{
    size_t n = limit && limit < l->norder ? limit : l->norder;
    bool *shown = floe__calloc(l->n ? l->n : 1, sizeof *shown);
    if (!shown)
        return floe__error_nomem();
    fputs("digraph ", out);
    dot_string(out, name);
    fputs(" {\n"
          "  rankdir=LR;\n"
          "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n"
          "  edge [arrowsize=0.7];\n",
          out);
    for (size_t k = 0; k < n; k++) {
        size_t i = l->order[k];
        const cli_lnode *nd = &l->nodes[i];
        char t[40];
        cli_format_time(nd->s->timestamp_ms, t, sizeof t);
        t[19] = '\0';
        shown[i] = true;
        fprintf(out, "  s%lld [label=\"%lld\\n%s +%s -%s records\\n%s%s%s",
                (long long)nd->s->snapshot_id, (long long)nd->s->snapshot_id,
                nd->s->operation ? nd->s->operation : "?",
                cli_lineage_summary(l, i, "added-records"),
                cli_lineage_summary(l, i, "deleted-records"), t,
                cli_lineage_abandoned(l, i) ? "\\n" : "",
                cli_lineage_abandoned(l, i) ? cli_lineage_state(l, i) : "");
        if (nd->wap_id) {
            fputs("\\nwap.id ", out);
            dot_text(out, nd->wap_id);
        }
        fputc('"', out);
        if (cli_lineage_abandoned(l, i))
            fputs(", style=\"rounded,dashed\", color=\"#c62828\", fontcolor=\"#c62828\"", out);
        else if (nd->flags & CLI_LIN_CURRENT)
            fputs(", penwidth=2, color=\"#2e7d32\"", out);
        fputs("];\n", out);
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = l->order[k], p = l->nodes[i].parent;
        if (p != CLI_LIN_NONE && shown[p])
            fprintf(out, "  s%lld -> s%lld%s;\n", (long long)l->nodes[p].s->snapshot_id,
                    (long long)l->nodes[i].s->snapshot_id,
                    cli_lineage_abandoned(l, i) ? " [style=dashed, color=\"#c62828\"]" : "");
    }
    for (size_t r = 0; r < l->m->nrefs; r++) {
        const floe_snapshot_ref *ref = &l->m->refs[r];
        const floe_snapshot *s = floe__metadata_snapshot(l->m, ref->snapshot_id);
        if (!s || !shown[index_of(l->m, s)])
            continue;
        bool tag = ref->type == FLOE_REF_TAG;
        char *id = floe__sprintf("%s %s", tag ? "tag" : "branch", ref->name);
        if (!id) {
            floe__free(shown);
            return floe__error_nomem();
        }
        fputs("  ", out);
        dot_string(out, id);
        fputs(" [shape=cds, style=filled, label=", out);
        dot_string(out, ref->name);
        fprintf(out, ", fillcolor=\"%s\"];\n  ",
                tag                              ? "#fff3c4"
                : strcmp(ref->name, "main") == 0 ? "#a5d6a7"
                                                 : "#c8e6c9");
        dot_string(out, id);
        fprintf(out, " -> s%lld [style=dotted, arrowhead=none];\n", (long long)s->snapshot_id);
        floe__free(id);
    }
    fputs("}\n", out);
    floe__free(shown);
    return ferror(out) ? floe__error(FLOE_EIO, "cli", "cannot write the output") : 0;
}
