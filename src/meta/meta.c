/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta: the metadata-table registry — names, which accept time travel, and
 * the dispatch from a name to the family that builds its row source.
 */
#include "meta/scan.h"

#include <string.h>

const char *const floe__meta_table_names[] = {
    "snapshots",
    "history",
    "refs",
    "metadata_log_entries",
    "files",
    "data_files",
    "delete_files",
    "all_files",
    "all_data_files",
    "all_delete_files",
    "manifests",
    "all_manifests",
    "entries",
    "all_entries",
    "partitions",
    "position_deletes",
    NULL,
};

static const char *const time_travel[] = {
    "files",     "data_files", "delete_files",     "entries",
    "manifests", "partitions", "position_deletes", NULL,
};

static bool in(const char *const *list, const char *name)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

bool floe__meta_is_table(const char *name)
{
    return name && in(floe__meta_table_names, name);
}

bool floe__meta_supports_time_travel(const char *name)
{
    return name && in(time_travel, name);
}

/* Java's MetadataTableType names are the upper-case table names. */
static int no_time_travel(const char *name)
{
    char up[32];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof up; i++)
        up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    up[i] = 0;
    return floe__error(FLOE_EINVALID, "meta", "Cannot select snapshot in table: %s", up);
}

int floe__meta_open(floe_rowsource **out, const char *name, const floe_meta_options *opts)
{
    *out = NULL;
    if (!opts || opts->version != FLOE_META_OPTIONS_VERSION || !opts->metadata)
        return floe__error(FLOE_EINVALID, "meta", "metadata table options need table metadata");
    if (!floe__meta_is_table(name))
        return floe__error(FLOE_ENOTFOUND, "meta", "Unknown metadata table: %s",
                           name ? name : "(null)");
    if (opts->has_snapshot_id) {
        if (!floe__meta_supports_time_travel(name))
            return no_time_travel(name);
        floe_snapshot_selector sel = {FLOE_SNAP_ID, opts->snapshot_id, NULL, 0};
        const floe_snapshot *snap;
        FLOE_TRY(floe__snapshot_select(&snap, opts->metadata, &sel, "meta"));
    }
    if (strcmp(name, "snapshots") == 0)
        return floe__meta_open_snapshots(out, opts);
    if (strcmp(name, "history") == 0)
        return floe__meta_open_history(out, opts);
    if (strcmp(name, "refs") == 0)
        return floe__meta_open_refs(out, opts);
    if (strcmp(name, "metadata_log_entries") == 0)
        return floe__meta_open_metadata_log_entries(out, opts);
    static const struct {
        const char *name;
        meta_files_kind kind;
    } files[] = {
        {"files", MF_FILES},
        {"data_files", MF_DATA_FILES},
        {"delete_files", MF_DELETE_FILES},
        {"all_files", MF_ALL_FILES},
        {"all_data_files", MF_ALL_DATA_FILES},
        {"all_delete_files", MF_ALL_DELETE_FILES},
        {"entries", MF_ENTRIES},
        {"all_entries", MF_ALL_ENTRIES},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(files); i++)
        if (strcmp(name, files[i].name) == 0)
            return floe__meta_open_files(out, opts, files[i].kind, files[i].name);
    if (strcmp(name, "manifests") == 0 || strcmp(name, "all_manifests") == 0)
        return floe__meta_open_manifests(out, opts, name[0] == 'a');
    if (strcmp(name, "position_deletes") == 0)
        return floe__meta_open_position_deletes(out, opts);
    return floe__meta_open_partitions(out, opts);
}

/* Sum of file_size_in_bytes over a files-family table. */
static int sum_sizes(const char *table, const floe_meta_options *opts, int64_t *out)
{
    floe_rowsource *rs;
    FLOE_TRY(floe__meta_open(&rs, table, opts));
    int col = floe__rs_column_index(rs, "file_size_in_bytes");
    floe_rowcursor *c = NULL;
    int rc = floe__rs_open(rs, NULL, 0, &c);
    int64_t sum = 0;
    while (rc == 0 && (rc = floe__rs_next(c)) == 0) {
        floe_rs_cell cell;
        rc = floe__rs_column(c, (size_t)col, &cell);
        if (rc == 0 && !cell.value.is_null)
            sum += cell.value.v.i64;
    }
    floe__rs_close(c);
    floe__rs_free(rs);
    if (rc != FLOE_ITEROVER)
        return rc;
    *out = sum;
    return 0;
}

int floe__meta_retained_bytes(const floe_meta_options *opts, int64_t *out)
{
    *out = 0;
    if (!opts)
        return floe__error(FLOE_EINVALID, "meta", "metadata table options needed");
    floe_meta_options all = *opts;
    all.has_snapshot_id = false;
    int64_t total = 0, live = 0;
    FLOE_TRY(sum_sizes("all_data_files", &all, &total));
    FLOE_TRY(sum_sizes("data_files", opts, &live));
    *out = total - live;
    return 0;
}
