/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rows/rowsource: the row-source interface. A row source is a table-valued
 * thing with a fixed column list (names + Iceberg types) that can be opened
 * any number of times; each open yields a cursor producing rows one at a
 * time. Metadata tables (meta.h) are row sources; the SQL shell exposes any
 * row source as a SQLite virtual table (src/sql/vtab.h), and the scan module
 * can expose data tables through the same interface.
 *
 * Values: a primitive column's cell is a floe_value (spec/types.h). A nested
 * column (struct, list, map) is delivered as JSON text, so that SQL can reach
 * inside with json_extract() (Arrow consumers may skip the text: see
 * column_arrow in floe_rowsource_ext); the encoding is fixed and documented in
 * docs/meta.md ("Cells"): structs are objects keyed by field name, lists are
 * arrays, maps are objects whose keys are the key's text (so `summary` is
 * {"added-records":"2",...} and `column_sizes` is {"1":90,"2":62}), and
 * primitives inside JSON follow floe__rs_json_value().
 *
 * Streaming: a cursor holds one row (plus whatever file it is reading); its
 * memory never grows with the number of rows. Cells are valid until the next
 * call of next() or close() on the same cursor.
 *
 * Pushed-down constraints are hints: a row source may use them to skip work
 * (say, read one snapshot's manifests) but may still return rows that do not
 * satisfy them; consumers re-check (SQLite does).
 */
#ifndef FLOE_ROWS_ROWSOURCE_H
#define FLOE_ROWS_ROWSOURCE_H

#include "spec/types.h"
#include "spec/value.h"
#include "util/time.h"

#include <string.h>

/* Column flags: which pushed-down constraints the source can use. */
enum {
    FLOE_RS_PUSH_EQ = 1u << 0,    /* column = value */
    FLOE_RS_PUSH_RANGE = 1u << 1, /* <, <=, >, >= value */
};

typedef struct floe_rs_column {
    const char *name;
    const floe_type *type; /* primitive or nested; lives as long as the source */
    bool required;         /* never null */
    unsigned push;         /* FLOE_RS_PUSH_* */
} floe_rs_column;

typedef enum floe_rs_op {
    FLOE_RS_EQ = 1,
    FLOE_RS_LT,
    FLOE_RS_LE,
    FLOE_RS_GT,
    FLOE_RS_GE,
} floe_rs_op;

/* One constraint `columns[column] op value`. The value has the column's
 * primitive type (FLOE_T_LONG for a long column, ...) and is never null. */
typedef struct floe_rs_constraint {
    size_t column;
    floe_rs_op op;
    floe_value value;
} floe_rs_constraint;

/* A cell. Primitive columns: `value` (value.is_null for NULL). Nested
 * columns: `json` (NUL-terminated, json_len bytes) or, for NULL,
 * json == NULL and value.is_null. */
typedef struct floe_rs_cell {
    floe_value value;
    const char *json;
    size_t json_len;
} floe_rs_cell;

typedef struct floe_rowsource floe_rowsource;
typedef struct floe_rowcursor floe_rowcursor;

typedef struct floe_rowsource_ops {
    /* Start a scan. `cons` (may be NULL when ncons == 0) is only read during
     * the call. Errors: FLOE_EIO/FLOE_ENOTFOUND/FLOE_ECORRUPT from reading
     * files, FLOE_ENOMEM. */
    int (*open)(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                floe_rowcursor **out);
    /* Advance to the next row: 0 with a row ready, FLOE_ITEROVER at the end,
     * negative on error. Must be called once before the first column(). */
    int (*next)(floe_rowcursor *c);
    /* The current row's cell for column `col` (< ncolumns). Computed on
     * demand, so unread columns cost nothing. */
    int (*column)(floe_rowcursor *c, size_t col, floe_rs_cell *out);
    void (*close)(floe_rowcursor *c);
    /* Release the source (every cursor must be closed first). */
    void (*free)(floe_rowsource *rs);
} floe_rowsource_ops;

struct floe_arrow_builder;

/* Optional operations (floe_rowsource.ext; NULL for none), kept apart so
 * the positional initialisers of floe_rowsource_ops stay valid. */
typedef struct floe_rowsource_ext {
    /* Optional (NULL: open() is used). Like open(), told which columns the
     * consumer reads: bit i of `used` for column i < 63, bit 63 for every
     * column >= 63 (SQLite's colUsed convention); column() is then called
     * only for those, so the source may skip reading the others. `used`
     * == 0: rows are only counted. */
    int (*open_projected)(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                          uint64_t used, floe_rowcursor **out);
    /* Optional (NULL: unknown). The exact number of rows a scan without
     * constraints returns, found without reading rows: 0 with *out set,
     * 1 when the source cannot know it cheaply and exactly (say, deletes
     * to apply), negative on error. */
    int (*count)(floe_rowsource *rs, int64_t *out);
} floe_rowsource_ext;

struct floe_rowsource {
    const floe_rowsource_ops *ops;
    const char *name; /* "snapshots", "files", ... */
    size_t ncolumns;
    const floe_rs_column *columns;
    void *impl; /* the implementation's state */
    /* Planner hints: rows a full scan is expected to return, and what one
     * full scan costs in row-sized units (reading files costs more than
     * walking memory); 0 when unknown. */
    double estimated_rows;
    double estimated_cost;
    const floe_rowsource_ext *ext; /* optional operations, NULL for none */
    /* SQL: the last nhidden columns are hidden (not part of SELECT *), as
     * the metadata columns _file and _pos of data tables; 0 usually. */
    size_t nhidden;
    /* Optional (NULL: nested cells are rebuilt from their JSON text), for
     * floe__rs_arrow_stream: append the current row's cell of nested column
     * `col` straight into `b`, an Arrow builder of that column's type (one
     * slot), with no JSON between: 0 when done, 1 when this cell must go
     * through its JSON after all (nothing appended), negative on error. */
    int (*column_arrow)(floe_rowcursor *c, size_t col, struct floe_arrow_builder *b);
};

/* Convenience wrappers (NULL-safe close/free). */
int floe__rs_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                  floe_rowcursor **out);
/* open_projected() when the source has it, else open(). */
int floe__rs_open_projected(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                            uint64_t used, floe_rowcursor **out);
/* The source's count(); 1 when it has none or cannot answer. */
int floe__rs_count(floe_rowsource *rs, int64_t *out);
/* Is column `col` in a colUsed-style mask? */
static inline bool floe__rs_col_used(uint64_t used, size_t col)
{
    return (used >> (col < 63 ? col : 63)) & 1u;
}
int floe__rs_next(floe_rowcursor *c);
int floe__rs_column(floe_rowcursor *c, size_t col, floe_rs_cell *out);
void floe__rs_close(floe_rowcursor *c);
void floe__rs_free(floe_rowsource *rs);
/* Index of a column by name, or -1. */
int floe__rs_column_index(const floe_rowsource *rs, const char *name);

/* Every cursor starts with this header so the wrappers can dispatch. */
struct floe_rowcursor {
    floe_rowsource *rs;
};

/* ---------------------------------------------------------------- Arrow */

struct ArrowArrayStream;
/* Open `rs` and expose it as an Arrow C stream of struct batches (one child
 * per column, typed from the Iceberg types; nested columns rebuilt from
 * their JSON cells; decimals inside nested cells go through a double) of at
 * most batch_rows rows (0: 8192). `rs` is borrowed and must outlive the
 * stream; release the stream with out->release. Errors as for open. */
int floe__rs_arrow_stream(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                          size_t batch_rows, struct ArrowArrayStream *out);

/* ---------------------------------------------------------------- shared types */

/* Static types for column lists. */
extern const floe_type floe__rs_t_boolean, floe__rs_t_int, floe__rs_t_long, floe__rs_t_string,
    floe__rs_t_binary, floe__rs_t_timestamptz;
/* map<string,string>, map<int,long>, map<int,binary>, list<long>, list<int> */
extern const floe_type floe__rs_t_map_str_str, floe__rs_t_map_int_long, floe__rs_t_map_int_bin,
    floe__rs_t_list_long, floe__rs_t_list_int;

/* ---------------------------------------------------------------- cell text */

/* Append a primitive value as JSON: null; true/false; integers; floats and
 * doubles as numbers ("NaN", "Infinity", "-Infinity" as strings); decimals
 * as numbers with their scale (120.50); date "YYYY-MM-DD"; time
 * "HH:MM:SS.ffffff"; timestamps "YYYY-MM-DD HH:MM:SS.ffffff" (UTC, no zone
 * suffix; nanosecond types with 9 digits); strings escaped; uuid canonical;
 * fixed/binary as lowercase hex strings. */
int floe__rs_json_value(const floe_value *v, floe_buf *out);

/* Append a decimal integer (no printf: JSON cells format millions). */
int floe__rs_put_i64(floe_buf *out, int64_t v);

/* `YYYY-MM-DD HH:MM:SS.ffffff` for microseconds since the epoch, shown in
 * `tz` (NULL: UTC). */
int floe__rs_format_timestamp_us(int64_t us, const floe_tz *tz, floe_buf *out);
/* Same for nanoseconds (9 fraction digits). */
int floe__rs_format_timestamp_ns(int64_t ns, const floe_tz *tz, floe_buf *out);

/* ---------------------------------------------------------------- indexed row sources */

/* A row source over rows addressed by index 0..count-1, computed on demand
 * (metadata tables over arrays of the table metadata: snapshots, history,
 * refs, metadata_log_entries). `cell` may allocate in `scratch`, an arena
 * reset before each row. `state` is owned by the source and released with
 * `free_state` (may be NULL). */
typedef struct floe_rs_indexed_ops {
    size_t (*count)(void *state);
    int (*cell)(void *state, size_t row, size_t col, floe_arena *scratch, floe_rs_cell *out);
    void (*free_state)(void *state);
} floe_rs_indexed_ops;

/* On failure `state` is released too. `columns` must outlive the source. */
int floe__rs_indexed_new(floe_rowsource **out, const char *name, const floe_rs_column *columns,
                         size_t ncolumns, const floe_rs_indexed_ops *ops, void *state);

static inline floe_rs_cell floe__rs_cell(floe_value v)
{
    floe_rs_cell c;
    c.value = v;
    c.json = NULL;
    c.json_len = 0;
    return c;
}

/* Cells of the common kinds (strings borrowed; NULL string: a null cell). */
static inline floe_rs_cell floe__rs_null(floe_type_id t)
{
    return floe__rs_cell(floe_value_null(t));
}
static inline floe_rs_cell floe__rs_long(int64_t v)
{
    return floe__rs_cell(floe_value_long(v));
}
static inline floe_rs_cell floe__rs_int(int32_t v)
{
    return floe__rs_cell(floe_value_int(v));
}
static inline floe_rs_cell floe__rs_bool(bool b)
{
    return floe__rs_cell(floe_value_bool(b));
}
/* A JSON-valued cell (a map, list or struct of type t) over borrowed text. */
static inline floe_rs_cell floe__rs_json(floe_type_id t, const char *json, size_t len)
{
    floe_rs_cell c = floe__rs_null(t);
    c.value.is_null = false;
    c.json = json;
    c.json_len = len;
    return c;
}
static inline floe_rs_cell floe__rs_str(const char *s)
{
    return s ? floe__rs_cell(floe_value_bytes(FLOE_T_STRING, s, strlen(s)))
             : floe__rs_null(FLOE_T_STRING);
}

#endif
