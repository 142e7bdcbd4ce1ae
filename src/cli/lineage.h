/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli/lineage: the snapshot lineage of one table as `floe log` shows it.
 *
 * Iceberg snapshots form a tree: each has at most one parent
 * (parent-snapshot-id, spec "Snapshots"); refs (spec "Snapshot References")
 * name branch heads and tagged snapshots. A rollback moves `main` back and
 * leaves the newer snapshots in the file: they are no longer an ancestor of
 * any ref ("abandoned", is_current_ancestor=false in the history table)
 * until expiry removes them. Write-audit-publish (spark.wap.id) commits a
 * snapshot off every ref on purpose: it is "staged" (summary wap.id) until a
 * cherry-pick publishes it onto main (the new main snapshot's summary
 * published-wap-id names the same id, or main fast-forwards to it), then
 * both are "published".
 *
 * lineage.c classifies every snapshot (ancestor of main, of another ref, or
 * of none), orders a selection newest first with children always before
 * their parents (a heap keyed on timestamp, then sequence number, so clock
 * skew cannot put a parent above its child) and writes Graphviz DOT;
 * lineage_graph.c draws the text graph.
 */
#ifndef FLOE_CLI_LINEAGE_H
#define FLOE_CLI_LINEAGE_H

#include "spec/metadata.h"

#include <stdbool.h>
#include <stdio.h>

enum {
    CLI_LIN_PRIMARY = 1,  /* ancestor of the ref the log starts from (main by default) */
    CLI_LIN_MAIN = 2,     /* ancestor of main (is_current_ancestor) */
    CLI_LIN_REF = 4,      /* ancestor of some ref (branch or tag) */
    CLI_LIN_CURRENT = 8,  /* the snapshot main points at */
    CLI_LIN_SELECTED = 16 /* part of the listing */
};

#define CLI_LIN_NONE ((size_t)-1)

/* Write-audit-publish state of a snapshot (cli_lnode.wap). */
enum { CLI_WAP_NONE = 0, CLI_WAP_STAGED = 1, CLI_WAP_PUBLISHED = 2 };

typedef struct cli_lnode {
    const floe_snapshot *s;
    size_t parent; /* index of the parent in the table, CLI_LIN_NONE if none or expired */
    unsigned flags;
    char *decor;        /* "main, audit, tag: close-2026-09" or NULL */
    unsigned wap;       /* CLI_WAP_*: staged (wap.id, not on main) or published */
    const char *wap_id; /* its wap id (summary wap.id or published-wap-id), or NULL */
} cli_lnode;

typedef struct cli_lineage {
    const floe_table_metadata *m;
    size_t n;         /* m->nsnapshots */
    cli_lnode *nodes; /* parallel to m->snapshots */
    size_t *order;    /* selected node indexes, newest first */
    size_t norder;
    const char *primary; /* the ref drawn in the first column */
} cli_lineage;

/* Classify and order. `ref` (NULL = "main") is where the listing starts;
 * `all` lists every snapshot instead of the ref's ancestors. Errors:
 * FLOE_ENOTFOUND "Cannot find ref: <name>" for an unknown ref other than
 * main (a table without snapshots has no main: the listing is empty),
 * FLOE_ENOMEM. */
int cli_lineage_build(cli_lineage *l, const floe_table_metadata *m, const char *ref, bool all);
void cli_lineage_free(cli_lineage *l);

/* Not an ancestor of any ref (drawn apart: ○, dashed). */
static inline bool cli_lineage_abandoned(const cli_lineage *l, size_t i)
{
    return !(l->nodes[i].flags & CLI_LIN_REF);
}

/* What `floe log` calls the snapshot: current, main, ref, then for one off
 * every ref staged, published (write-audit-publish) or abandoned. */
const char *cli_lineage_state(const cli_lineage *l, size_t i);

/* Summary figure as text: "0" for an absent added-* / deleted-* count of a
 * snapshot with a summary, "?" for anything else absent. */
const char *cli_lineage_summary(const cli_lineage *l, size_t i, const char *key);

typedef struct cli_graph_opts {
    bool ascii;   /* '|', '*', '-' instead of box drawing */
    bool color;   /* ANSI colours */
    size_t limit; /* 0 = no limit */
} cli_graph_opts;

/* The text graph, newest first (lineage_graph.c). */
int cli_lineage_graph(const cli_lineage *l, const cli_graph_opts *o, FILE *out);

/* Graphviz DOT of the selection (first `limit` when not 0): parent -> child
 * edges left to right, refs as labels pointing at their snapshot,
 * abandoned snapshots dashed red, main's current snapshot bold. */
int cli_lineage_dot(const cli_lineage *l, const char *name, size_t limit, FILE *out);

#endif
