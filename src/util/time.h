/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util/time: milliseconds since the Unix epoch <-> text, in UTC or in a
 * named IANA time zone. Two text forms:
 *   - `YYYY-MM-DD HH:MM:SS[.fff]` (what `floe inspect` and SQL show), and
 *   - ISO-8601 with an offset: `2026-09-21T10:15:30.123+02:00` or `...Z`.
 * Zones are read from TZif files under /usr/share/zoneinfo (or $TZDIR) by a
 * small reader (RFC 8536), including the POSIX TZ footer rule for instants
 * after the last transition; nothing touches the process's TZ/setenv, so all
 * functions are thread-safe. A zone object is immutable once loaded.
 */
#ifndef FLOE_UTIL_TIME_H
#define FLOE_UTIL_TIME_H

#include "util/util.h"

typedef struct floe_tz floe_tz;

/* Load a zone: "UTC"/"Z", a fixed offset "+02:00"/"-0530", or an IANA name
 * ("Europe/Amsterdam"). FLOE_ENOTFOUND for an unknown name, FLOE_ECORRUPT for
 * a malformed TZif file, FLOE_EINVALID for a bad name (absolute, "..").
 * Free with floe__tz_free (NULL accepted). A NULL zone means UTC everywhere. */
int floe__tz_load(floe_tz **out, const char *name);
void floe__tz_free(floe_tz *tz);
const char *floe__tz_name(const floe_tz *tz);

/* UTC offset in seconds in effect at instant `utc_s` (seconds since epoch). */
int32_t floe__tz_offset_at(const floe_tz *tz, int64_t utc_s);
/* Instant for a local wall-clock time `local_s` (seconds since epoch as if
 * local were UTC). Ambiguous times (fall back) take the earlier instant;
 * times in a gap (spring forward) are shifted by the gap, like java.time. */
int64_t floe__tz_local_to_utc(const floe_tz *tz, int64_t local_s);
/* The smallest and largest UTC offset (seconds) the zone ever uses (0, 0
 * for NULL): an instant whose local wall-clock time is `local_s` lies in
 * [local_s - *max, local_s - *min]. */
void floe__tz_offset_range(const floe_tz *tz, int32_t *min, int32_t *max);

/* `YYYY-MM-DD HH:MM:SS` plus `.fff` when the milliseconds are not zero. */
int floe__time_format(int64_t ms, const floe_tz *tz, floe_buf *out);
/* `YYYY-MM-DDTHH:MM:SS[.fff]` + `Z` (offset 0) or `+HH:MM`. */
int floe__time_format_iso(int64_t ms, const floe_tz *tz, floe_buf *out);
/* SnapshotUtil's "Cannot find a snapshot older than <ts>" (FLOE_ENOTFOUND),
 * the time as Java's OffsetDateTime prints it in UTC (`...+00:00`): every
 * time-travel lookup (SQL, scans, inventory) names the time this one way. */
int floe__time_error_no_snapshot_older(const char *subsystem, int64_t ms);
/* Parse either form: date, optional time (`T` or space), optional fraction
 * (1-9 digits; truncated to ms), optional `Z`/`+HH:MM`/`+HHMM`/`+HH`. An
 * explicit offset wins; otherwise the text is local time in `tz` (NULL: UTC).
 * FLOE_EINVALID with the text quoted when malformed or out of range. */
int floe__time_parse(const char *s, const floe_tz *tz, int64_t *ms);
/* Same with microsecond precision (timestamps of the Iceberg spec). */
int floe__time_parse_us(const char *s, const floe_tz *tz, int64_t *us);
/* And with nanosecond precision (timestamp_ns, timestamptz_ns); a time
 * outside int64 nanoseconds (1677..2262) is FLOE_EINVALID. */
int floe__time_parse_ns(const char *s, const floe_tz *tz, int64_t *ns);

#endif
