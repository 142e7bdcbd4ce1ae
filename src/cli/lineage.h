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
#include "util/util.h"

struct floe_fileio;

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

struct cli_changes;

typedef struct cli_graph_opts {
    bool ascii;   /* '|', '*', '-' instead of box drawing */
    bool color;   /* ANSI colours */
    size_t limit; /* 0 = no limit */
    const struct cli_changes *changes; /* drawn between the snapshots (may be NULL) */
} cli_graph_opts;

/* The text graph, newest first (lineage_graph.c). */
int cli_lineage_graph(const cli_lineage *l, const cli_graph_opts *o, FILE *out);

/* Graphviz DOT of the selection (first `limit` when not 0): parent -> child
 * edges left to right, refs as labels pointing at their snapshot,
 * abandoned snapshots dashed red, main's current snapshot bold. */
int cli_lineage_dot(const cli_lineage *l, const char *name, size_t limit, FILE *out);

/* ---- schema, partition spec and sort order changes (lineage_changes.c) */

enum { CLI_CHANGE_SCHEMA = 1, CLI_CHANGE_SPEC = 2, CLI_CHANGE_ORDER = 3 };

typedef struct cli_change {
    int64_t timestamp_ms; /* last-updated-ms of the metadata file that made it */
    int kind;             /* CLI_CHANGE_* */
    char *text;           /* "schema 0 -> 1: added column note string; renamed a -> b" */
    bool with_snapshot;   /* committed together with snapshot_id */
    int64_t snapshot_id;
    bool has_after;       /* main's snapshot when it was made: the change is newer */
    int64_t after_id;
} cli_change;

typedef struct cli_changes {
    cli_change *items; /* oldest first */
    size_t n, cap;
} cli_changes;

/* The changes of current schema, default spec and default sort order
 * along the metadata log (previous files read through `io`; an unreadable
 * one is skipped), and before it a snapshot's schema-id differing from its
 * parent's. FLOE_ENOMEM only. */
int cli_changes_build(cli_changes *c, const floe_table_metadata *m, struct floe_fileio *io);
void cli_changes_free(cli_changes *c);

/* Where a change goes in a listing of the first `nlisted` of l->order:
 * the index of the listed snapshot it precedes (nlisted: after the last),
 * right below the snapshot it was committed with; CLI_LIN_NONE when it is
 * older than every listed snapshot and the listing was cut. */
size_t cli_change_position(const cli_lineage *l, const cli_change *ch, size_t nlisted);

/* What changed from one schema to another, by field id, appended to `out`
 * ("added column x int; renamed a -> b; ..."). FLOE_ENOMEM. */
int cli_schema_diff(const floe_schema *from, const floe_schema *to, floe_buf *out);

#endif
