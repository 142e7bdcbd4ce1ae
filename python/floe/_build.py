# SPDX-License-Identifier: Apache-2.0
"""cffi build script of floe._native (API / out-of-line mode).

The extension is compiled against the source tree's include/floe.h and links
libfloe statically (libfloe.a of FLOE_BUILD_DIR, default <src>/build/release
or <src>/build/dev), so the installed package needs no LD_LIBRARY_PATH.
cffi releases the GIL around every call into libfloe.
"""
import os
import subprocess

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("FLOE_SOURCE_DIR") or os.path.abspath(os.path.join(HERE, "..", ".."))


def _build_dir() -> str:
    env = os.environ.get("FLOE_BUILD_DIR")
    if env:
        return os.path.abspath(env)
    for name in ("release", "dev"):
        d = os.path.join(SRC, "build", name)
        if os.path.exists(os.path.join(d, "libfloe.a")):
            return d
    raise RuntimeError("libfloe.a not found: build floe first (make release) or set FLOE_BUILD_DIR")


def _pkg_libs() -> list:
    try:
        out = subprocess.run(["pkg-config", "--libs", "jansson", "sqlite3", "zlib", "libzstd"],
                             check=True, capture_output=True, text=True).stdout.split()
        return [f[2:] for f in out if f.startswith("-l")]
    except (OSError, subprocess.CalledProcessError):
        return ["jansson", "sqlite3", "z", "zstd"]


CDEF = r"""
typedef enum floe_error_code {
    FLOE_ERROR = -1, FLOE_ENOTFOUND = -2, FLOE_EEXISTS = -3, FLOE_EINVALID = -4,
    FLOE_EUNSUPPORTED = -5, FLOE_ECONFLICT = -6, FLOE_ECOMMITUNKNOWN = -7,
    FLOE_ECORRUPT = -8, FLOE_EIO = -9, FLOE_ENOMEM = -10, FLOE_EUSER = -11,
    ...
} floe_error_code;
typedef enum floe_error_kind { FLOE_KIND_NONE = 0, ... } floe_error_kind;
typedef struct floe_error {
    int code; const char *subsystem; const char *message; floe_error_kind kind;
} floe_error;
const floe_error *floe_error_last(void);
void floe_error_clear(void);
const char *floe_error_code_name(int code);
const char *floe_error_exception(const floe_error *e);
const char *floe_version(void);

struct ArrowSchema { void (*release)(struct ArrowSchema *); ...; };
struct ArrowArray { int64_t length; void (*release)(struct ArrowArray *); ...; };
struct ArrowArrayStream { void (*release)(struct ArrowArrayStream *); ...; };

typedef struct floe_catalog floe_catalog;
typedef struct floe_props floe_props;
/* common.h: ordered string properties */
int floe_props_new(floe_props **out);
int floe_props_set(floe_props *props, const char *key, const char *value);
const char *floe_props_get(const floe_props *props, const char *key);
bool floe_props_remove(floe_props *props, const char *key);
size_t floe_props_count(const floe_props *props);
const char *floe_props_key_at(const floe_props *props, size_t i);
const char *floe_props_value_at(const floe_props *props, size_t i);
void floe_props_free(floe_props *props);

/* catalog.h */
int floe_catalog_load_namespace(floe_props *out, floe_catalog *catalog, const char *ns);
typedef struct floe_fileio floe_fileio;
typedef struct floe_table floe_table;

/* sql.h */
typedef struct floe_sql_session floe_sql_session;
typedef struct floe_sql_result floe_sql_result;
typedef struct floe_sql_open_options {
    unsigned version; const char *warehouse; const char *catalog_name; const char *catalog_uri;
    const char *const *conf; size_t nconf; ...;
} floe_sql_open_options;
#define FLOE_SQL_OPEN_OPTIONS_VERSION ...
int floe_sql_open(floe_sql_session **out, const floe_sql_open_options *opts);
void floe_sql_close(floe_sql_session *s);
floe_catalog *floe_sql_session_catalog(floe_sql_session *s);
floe_fileio *floe_sql_session_fileio(floe_sql_session *s);
int floe_sql_execute(floe_sql_result **out, floe_sql_session *s, const char *text);
const char *floe_sql_error_class(const floe_sql_session *s);
typedef enum floe_sql_datum_kind {
    FLOE_SQL_DATUM_NULL, FLOE_SQL_DATUM_INT, FLOE_SQL_DATUM_REAL, FLOE_SQL_DATUM_BOOL,
    FLOE_SQL_DATUM_TEXT, FLOE_SQL_DATUM_JSON, FLOE_SQL_DATUM_BLOB
} floe_sql_datum_kind;
typedef struct floe_sql_datum { floe_sql_datum_kind kind; int64_t i; double d; const char *s; size_t n; } floe_sql_datum;
bool floe_sql_result_has_rows(const floe_sql_result *r);
size_t floe_sql_result_ncols(const floe_sql_result *r);
size_t floe_sql_result_nrows(const floe_sql_result *r);
const char *floe_sql_result_column(const floe_sql_result *r, size_t col);
int floe_sql_result_get(floe_sql_datum *out, const floe_sql_result *r, size_t row, size_t col);
const floe_sql_datum *floe_sql_result_column_values(const floe_sql_result *r, size_t col);
typedef enum floe_sql_render { FLOE_SQL_RENDER_TABLE, FLOE_SQL_RENDER_CSV, FLOE_SQL_RENDER_JSON } floe_sql_render;
int floe_sql_result_render(char **out, const floe_sql_result *r, floe_sql_render how);
void floe_string_free(char *s);
void floe_sql_result_free(floe_sql_result *r);

/* table.h */
typedef struct floe_table_options {
    unsigned version; floe_fileio *io; const floe_props *io_conf; const char *branch; const char *wap_id; ...;
} floe_table_options;
#define FLOE_TABLE_OPTIONS_VERSION ...
int floe_table_load(floe_table **out, floe_catalog *catalog, const char *ident, const floe_table_options *opts);
void floe_table_free(floe_table *table);
int floe_table_update_properties(floe_table *table, const floe_props *set, const char *const *remove,
                                 size_t nremove);
int floe_table_refresh(floe_table *table);
const char *floe_table_ident(const floe_table *table);
const char *floe_table_metadata_location(const floe_table *table);
const char *floe_table_location(const floe_table *table);
int floe_table_format_version(const floe_table *table);
const char *floe_table_property(const floe_table *table, const char *key);
floe_fileio *floe_table_io(const floe_table *table);
typedef struct floe_snapshot_info {
    int64_t snapshot_id; bool has_parent; int64_t parent_snapshot_id; int64_t sequence_number;
    int64_t timestamp_ms; const char *manifest_list; const char *operation;
} floe_snapshot_info;
bool floe_table_current_snapshot(floe_snapshot_info *out, const floe_table *table);
size_t floe_table_snapshot_count(const floe_table *table);
void floe_table_snapshot_at(floe_snapshot_info *out, const floe_table *table, size_t i);
int floe_table_rollback_to_snapshot(int64_t *previous, int64_t *current, floe_table *table, int64_t snapshot_id);
int floe_table_rollback_to_timestamp(int64_t *previous, int64_t *current, floe_table *table, int64_t timestamp_ms);
int floe_table_set_current_snapshot(int64_t *previous, int64_t *current, floe_table *table, int64_t snapshot_id);
int floe_table_set_current_ref(int64_t *previous, int64_t *current, floe_table *table, const char *ref);
int floe_table_cherrypick_snapshot(int64_t *previous, int64_t *current, floe_table *table, int64_t snapshot_id);
int floe_table_fast_forward(int64_t *previous_ref, int64_t *updated_ref, floe_table *table, const char *branch, const char *to);
typedef struct floe_append floe_append;
int floe_append_new(floe_append **out, floe_table *table);
int floe_append_write(floe_append *a, const struct ArrowArray *batch);
int floe_table_arrow_schema(struct ArrowSchema *out, const floe_table *table);
int floe_append_set(floe_append *a, const char *key, const char *value);
int floe_append_commit(int64_t *snapshot_id, floe_append *a);
void floe_append_free(floe_append *a);
typedef struct floe_rowlevel floe_rowlevel;
typedef enum floe_rowlevel_kind { FLOE_ROWLEVEL_DELETE, FLOE_ROWLEVEL_UPDATE, FLOE_ROWLEVEL_MERGE, FLOE_ROWLEVEL_OVERWRITE_DYNAMIC } floe_rowlevel_kind;
typedef struct floe_rowlevel_options { unsigned version; floe_rowlevel_kind kind; ...; } floe_rowlevel_options;
#define FLOE_ROWLEVEL_OPTIONS_VERSION ...
typedef struct floe_rowlevel_stats { int64_t rows_deleted; int64_t rows_added; int64_t data_files_removed; int64_t data_files_added; int64_t delete_files_added; int64_t bytes_written; int64_t files_read; } floe_rowlevel_stats;
int floe_rowlevel_new(floe_rowlevel **out, floe_table *table, const floe_rowlevel_options *opts);
int floe_rowlevel_delete_where(floe_rowlevel *op, const char *filter);
int floe_rowlevel_write(floe_rowlevel *op, const struct ArrowArray *batch);
int floe_rowlevel_commit(int64_t *snapshot_id, floe_rowlevel_stats *stats, floe_rowlevel *op);
void floe_rowlevel_free(floe_rowlevel *op);

/* scan.h */
typedef struct floe_scan_options {
    unsigned version; const char *filter; bool case_sensitive; const char *const *columns; size_t ncolumns;
    bool has_snapshot_id; int64_t snapshot_id; const char *ref; int threads;
    bool has_as_of_timestamp; int64_t as_of_timestamp_ms; ...;
} floe_scan_options;
#define FLOE_SCAN_OPTIONS_VERSION ...
typedef struct floe_scan floe_scan;
typedef struct floe_scan_report {
    int64_t snapshot_id; int64_t manifests_total; int64_t manifests_skipped; int64_t data_files_total;
    int64_t data_files_skipped; int64_t delete_files_total; int64_t delete_files_applied; int64_t tasks;
    int64_t records_planned; int64_t plan_ns;
} floe_scan_report;
int floe_scan_open_table(floe_scan **out, floe_table *table, const floe_scan_options *opts);
const floe_scan_report *floe_scan_get_report(const floe_scan *scan);
size_t floe_scan_task_count(const floe_scan *scan);
const char *floe_scan_task_path(const floe_scan *scan, size_t i);
void floe_scan_free(floe_scan *scan);
typedef enum floe_incremental_mode { FLOE_INCREMENTAL_STRICT, FLOE_INCREMENTAL_APPEND_ONLY } floe_incremental_mode;
typedef struct floe_incremental_options {
    unsigned version; bool has_start_snapshot_id; int64_t start_snapshot_id; bool has_end_snapshot_id;
    int64_t end_snapshot_id; bool has_start_timestamp_ms; int64_t start_timestamp_ms;
    bool has_end_timestamp_ms; int64_t end_timestamp_ms; floe_incremental_mode mode;
    bool compute_updates; bool net_changes; const char *const *identifier_columns;
    size_t nidentifier_columns; int threads; ...;
} floe_incremental_options;
#define FLOE_INCREMENTAL_OPTIONS_VERSION ...
typedef struct floe_incremental floe_incremental;
typedef struct floe_changelog floe_changelog;
int floe_incremental_append_open(floe_incremental **out, floe_fileio *io, const char *metadata_location, const floe_incremental_options *opts);
void floe_incremental_free(floe_incremental *inc);
int floe_changelog_open(floe_changelog **out, floe_fileio *io, const char *metadata_location, const floe_incremental_options *opts);
void floe_changelog_free(floe_changelog *cl);

/* maint.h: inventory */
typedef enum floe_maint_inventory_kind { FLOE_MAINT_INV_METADATA, FLOE_MAINT_INV_MANIFEST_LIST, FLOE_MAINT_INV_MANIFEST,
    FLOE_MAINT_INV_DATA_FILE, FLOE_MAINT_INV_DELETE_FILE, FLOE_MAINT_INV_STATISTICS_FILE } floe_maint_inventory_kind;
typedef struct floe_maint_inventory_row { floe_maint_inventory_kind kind; const char *kind_name; const char *path;
    int64_t size; const char *content; const char *status; } floe_maint_inventory_row;
typedef struct floe_maint_inventory_options { unsigned version; bool has_snapshot_id; int64_t snapshot_id;
    const char *ref; bool has_timestamp; int64_t timestamp_ms; floe_fileio *io; ...; } floe_maint_inventory_options;
#define FLOE_MAINT_INVENTORY_OPTIONS_VERSION ...
int floe_maint_inventory(char **backup_metadata, floe_catalog *catalog, const char *ident,
                         const floe_maint_inventory_options *opts,
                         int (*cb)(const floe_maint_inventory_row *row, void *payload), void *payload);
extern "Python" int floe_py_inventory_row(const floe_maint_inventory_row *row, void *payload);

/* meta.h */
typedef struct floe_metadata_table_options {
    unsigned version; bool has_snapshot_id; int64_t snapshot_id; const char *ref;
    bool has_as_of_timestamp; int64_t as_of_timestamp_ms; size_t batch_rows; ...;
} floe_metadata_table_options;
#define FLOE_METADATA_TABLE_OPTIONS_VERSION ...
const char *floe_metadata_table_name(size_t i);
int floe_metadata_table_stream(struct ArrowArrayStream *out, floe_table *table, const char *name,
                               const floe_metadata_table_options *opts);

/* owning streams (below): the stream frees its producer on release */
int floe_py_scan_stream(struct ArrowArrayStream *out, floe_scan *scan);
int floe_py_incremental_stream(struct ArrowArrayStream *out, floe_incremental *inc);
int floe_py_changelog_stream(struct ArrowArrayStream *out, floe_changelog *cl);
"""

SOURCE = r"""
#include <floe.h>
#include <floe/scan.h>
#include <floe/sql.h>
#include <stdlib.h>

/* An ArrowArrayStream that owns the producer it reads from (a scan, an
 * incremental read, a changelog): pyarrow releases it when done. */
typedef struct owned_stream {
    struct ArrowArrayStream inner;
    void *producer;
    void (*free_producer)(void *);
} owned_stream;

static int os_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    owned_stream *o = s->private_data;
    return o->inner.get_schema(&o->inner, out);
}
static int os_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    owned_stream *o = s->private_data;
    return o->inner.get_next(&o->inner, out);
}
static const char *os_error(struct ArrowArrayStream *s)
{
    owned_stream *o = s->private_data;
    return o->inner.get_last_error(&o->inner);
}
static void os_release(struct ArrowArrayStream *s)
{
    owned_stream *o = s->private_data;
    if (o->inner.release)
        o->inner.release(&o->inner);
    o->free_producer(o->producer);
    free(o);
    s->release = NULL;
}
static int own(struct ArrowArrayStream *out, void *producer, void (*free_producer)(void *),
               int (*to_stream)(struct ArrowArrayStream *, void *))
{
    owned_stream *o = calloc(1, sizeof *o);
    if (!o)
        return FLOE_ENOMEM;
    int rc = to_stream(&o->inner, producer);
    if (rc < 0) {
        free(o);
        return rc;
    }
    o->producer = producer;
    o->free_producer = free_producer;
    out->get_schema = os_schema;
    out->get_next = os_next;
    out->get_last_error = os_error;
    out->release = os_release;
    out->private_data = o;
    return 0;
}
static void free_scan(void *p) { floe_scan_free(p); }
static int scan_stream(struct ArrowArrayStream *s, void *p) { return floe_scan_to_stream(s, p); }
static void free_inc(void *p) { floe_incremental_free(p); }
static int inc_stream(struct ArrowArrayStream *s, void *p) { return floe_incremental_to_stream(s, p); }
static void free_cl(void *p) { floe_changelog_free(p); }
static int cl_stream(struct ArrowArrayStream *s, void *p) { return floe_changelog_to_stream(s, p); }

int floe_py_scan_stream(struct ArrowArrayStream *out, floe_scan *scan)
{
    return own(out, scan, free_scan, scan_stream);
}
int floe_py_incremental_stream(struct ArrowArrayStream *out, floe_incremental *inc)
{
    return own(out, inc, free_inc, inc_stream);
}
int floe_py_changelog_stream(struct ArrowArrayStream *out, floe_changelog *cl)
{
    return own(out, cl, free_cl, cl_stream);
}
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
_bd = _build_dir() if os.environ.get("FLOE_SKIP_NATIVE") != "1" else ""
ffibuilder.set_source(
    "floe._native",
    SOURCE,
    include_dirs=[os.path.join(SRC, "include")],
    extra_objects=[os.path.join(_bd, "libfloe.a")] if _bd else [],
    libraries=_pkg_libs() + ["m", "dl", "pthread"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
