/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/vtab: any row source (rows/rowsource.h) as a SQLite virtual table.
 *
 * One module, "floe_rows", is registered per connection together with a
 * registry of row sources. The executor hands a row source to the registry
 * with floe__vtab_create(), which runs
 *     CREATE VIRTUAL TABLE "<schema>"."<name>" USING floe_rows(<handle>)
 * where <handle> is the registry's number for that source. The table then
 * behaves like any read-only table until DROP TABLE (which frees the row
 * source) or until the connection closes (which frees every remaining one).
 *
 * Type mapping (declared column type in parentheses):
 *   boolean -> 0/1 declared BOOLEAN (NUMERIC affinity; the decltype lets a
 *   printer show true/false); int, long -> INTEGER; float, double -> REAL;
 *   string -> TEXT; binary, fixed -> BLOB; uuid -> TEXT (canonical);
 *   date -> TEXT 'YYYY-MM-DD'; time -> TEXT 'HH:MM:SS.ffffff';
 *   timestamp -> TEXT 'YYYY-MM-DD HH:MM:SS.ffffff' (as stored);
 *   timestamptz -> the same text in the session time zone (UTC unless
 *   floe__vtab_set_time_zone() says otherwise); *_ns types with 9 digits;
 *   decimal -> TEXT with the scale's digits ('120.50'), so no precision is
 *   lost, with the collation FLOE_DECIMAL_COLLATION (numeric order) and
 *   the column's scale as the cell's subtype when the source gives one
 *   (data tables: decimals of precision <= 15 are doubles instead);
 *   struct, list, map -> TEXT holding JSON (see rowsource.h), with SQLite's
 *   JSON subtype, so json_extract(summary, '$.added-records') works and
 *   json_object() nests them as JSON.
 *
 * Constraints: xBestIndex offers the row source every usable =, <, <=, >,
 * >= constraint on a column whose floe_rs_column.push allows it; values are
 * converted to the column's type following SQLite's comparison rules and
 * widened where the types differ (float bounds, booleans, -0.0; see
 * "pushdown" in vtab.c; timestamptz text is parsed in the session time
 * zone), and constraints that do not convert are not pushed. SQLite still
 * checks every constraint itself (omit is never set), so a row source may
 * treat them as hints.
 *
 * Projection: SQLite's colUsed mask reaches the row source through
 * floe__rs_open_projected() (sources without floe_rowsource.ext open as
 * before); colUsed == 0 (count(*)) lets a data table count rows from its
 * manifests without opening a file.
 */
#ifndef FLOE_SQL_VTAB_H
#define FLOE_SQL_VTAB_H

#include "rows/rowsource.h"

#include <sqlite3.h>

typedef struct floe_vtab_registry floe_vtab_registry;

/* The collation of wide decimal columns (registered with the module): text
 * ordered by numeric value, exactly; text that is not a number after every
 * number, bytewise. */
#define FLOE_DECIMAL_COLLATION "floe_decimal"

/* A number's text: [spaces][sign]digits[.digits][e[sign]digits][spaces].
 * Its value is sign * 0.D * 10^(point - first), D the digits from `first`
 * to `last` (exclusive; indices over all digits, integer part then
 * fraction, read with floe__vtab_dec_digit); sign 0 for zero. Points into
 * the parsed text. */
typedef struct floe_dec_num {
    int sign;
    const char *ip, *fp; /* integer and fraction digits */
    size_t ilen, flen;
    size_t first, last; /* first nonzero digit, one past the last nonzero one */
    int64_t point;      /* digits before the decimal point (exponent applied) */
} floe_dec_num;

static inline char floe__vtab_dec_digit(const floe_dec_num *d, size_t k)
{
    return k < d->ilen ? d->ip[k] : d->fp[k - d->ilen];
}

/* Parse `n` bytes of `s`; false when it is not such a number. */
bool floe__vtab_decimal_parse(const char *s, size_t n, floe_dec_num *d);

/* Register the "floe_rows" module on `db` (once per connection). The
 * registry belongs to the connection (freed by sqlite3_close, after its
 * tables are disconnected); *out is borrowed. The row sources' own inputs
 * (table metadata, FileIO) must outlive the connection or the DROP TABLE of
 * their table. Errors: FLOE_ENOMEM, FLOE_ERROR with SQLite's message. */
int floe__vtab_register(sqlite3 *db, floe_vtab_registry **out);

/* A module whose tables build their own row source: `factory` gets the
 * USING arguments (argc/argv, as written, e.g. "table='db.t'") and returns
 * a row source the table owns (freed when the table is disconnected or
 * dropped); on failure it raises a floe error, which becomes the CREATE
 * VIRTUAL TABLE error. Registered once per connection as `module`;
 * `payload` goes to the factory and is released with `payload_free` (may
 * be NULL) when the connection closes, also when registering fails.
 * Errors: FLOE_ENOMEM, FLOE_ERROR with SQLite's message. */
typedef int (*floe_vtab_factory)(void *payload, int argc, const char *const *argv,
                                 floe_rowsource **out);
int floe__vtab_register_factory(sqlite3 *db, const char *module, floe_vtab_factory factory,
                                void *payload, void (*payload_free)(void *));

/* Create virtual table `schema`.`name` (schema NULL: "temp") over `rs`.
 * Ownership of `rs` passes to the registry, also on failure. Errors:
 * FLOE_EEXISTS when the name is taken, FLOE_ERROR with SQLite's message,
 * FLOE_ENOMEM. */
int floe__vtab_create(floe_vtab_registry *reg, const char *schema, const char *name,
                      floe_rowsource *rs);

/* Session time zone for timestamptz text and pushed-down timestamptz
 * values (borrowed: must outlive its use; NULL = UTC). */
void floe__vtab_set_time_zone(floe_vtab_registry *reg, const floe_tz *tz);

/* Number of row sources the registry holds (tests: DROP TABLE frees). */
size_t floe__vtab_count(const floe_vtab_registry *reg);

#endif
