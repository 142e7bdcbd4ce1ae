/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util/time: epoch milliseconds <-> `YYYY-MM-DD HH:MM:SS[.fff]` and ISO-8601
 * text, in UTC or a zone read from a TZif file (RFC 8536). The zone reader is
 * ours rather than localtime_r() because the C library only knows the
 * process-wide TZ, and changing it (setenv) is neither thread-safe nor
 * acceptable inside a library.
 */
#include "util/time.h"

#include "util/civil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* POSIX TZ rule date: kind 'J' (Jn, 1..365, no Feb 29), 'D' (n, 0..365),
 * 'M' (Mm.w.d). `secs` is the local time of day of the change. */
typedef struct tz_date {
    char kind;
    int m, w, d, n;
    int32_t secs;
} tz_date;

typedef struct tz_rule {
    bool present;
    bool has_dst;
    int32_t std_off; /* seconds east of UTC */
    int32_t dst_off;
    tz_date start, end;
} tz_rule;

struct floe_tz {
    char *name;
    size_t ntrans;
    int64_t *trans;   /* transition instants, ascending */
    uint8_t *idx;     /* type index per transition */
    size_t ntypes;
    int32_t *utoff;   /* offset per type */
    tz_rule rule;     /* footer: applies after the last transition */
    bool fixed;
    int32_t fixed_off;
};

/* ---------------------------------------------------------------- POSIX TZ rules */

static const char *rule_name(const char *p)
{
    if (*p == '<') {
        const char *e = strchr(p, '>');
        return e ? e + 1 : NULL;
    }
    const char *s = p;
    while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
        p++;
    return p - s >= 3 ? p : NULL;
}

/* [+-]hh[:mm[:ss]]; hours up to 167 (RFC 8536 extension). */
static const char *rule_hms(const char *p, int32_t *out)
{
    int sign = 1;
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    int32_t v[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if (i > 0) {
            if (*p != ':')
                break;
            p++;
        }
        if (*p < '0' || *p > '9')
            return NULL;
        int n = 0, digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 3) {
            n = n * 10 + (*p++ - '0');
            digits++;
        }
        v[i] = n;
    }
    if (v[0] > 167 || v[1] > 59 || v[2] > 59)
        return NULL;
    *out = sign * (v[0] * 3600 + v[1] * 60 + v[2]);
    return p;
}

static const char *rule_date(const char *p, tz_date *d)
{
    memset(d, 0, sizeof *d);
    if (*p == 'M') {
        d->kind = 'M';
        if (sscanf(p + 1, "%d.%d.%d", &d->m, &d->w, &d->d) != 3 || d->m < 1 || d->m > 12 ||
            d->w < 1 || d->w > 5 || d->d < 0 || d->d > 6)
            return NULL;
        p++;
        while ((*p >= '0' && *p <= '9') || *p == '.')
            p++;
    } else {
        d->kind = 'D';
        if (*p == 'J') {
            d->kind = 'J';
            p++;
        }
        if (*p < '0' || *p > '9')
            return NULL;
        while (*p >= '0' && *p <= '9' && d->n < 1000)
            d->n = d->n * 10 + (*p++ - '0');
        if (d->n > 365 || (d->kind == 'J' && d->n < 1))
            return NULL;
    }
    d->secs = 7200;
    if (*p == '/')
        p = rule_hms(p + 1, &d->secs);
    return p;
}

static bool rule_parse(const char *s, tz_rule *r)
{
    memset(r, 0, sizeof *r);
    const char *p = rule_name(s);
    int32_t off;
    if (!p || !(p = rule_hms(p, &off)))
        return false;
    r->std_off = -off; /* POSIX offsets are west-positive */
    r->present = true;
    if (*p == '\0')
        return true;
    if (!(p = rule_name(p)))
        return false;
    r->has_dst = true;
    r->dst_off = r->std_off + 3600;
    if (*p != ',' && *p != '\0') {
        if (!(p = rule_hms(p, &off)))
            return false;
        r->dst_off = -off;
    }
    if (*p == '\0') { /* no rule: US default would apply; treat as no DST */
        r->has_dst = false;
        return true;
    }
    if (*p != ',' || !(p = rule_date(p + 1, &r->start)) || *p != ',' ||
        !(p = rule_date(p + 1, &r->end)) || *p != '\0')
        return false;
    return true;
}

static bool is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int month_days(int64_t y, unsigned m)
{
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : d[m - 1];
}

/* Local seconds (in the offset in force before the change) of a rule date. */
static int64_t rule_local(int64_t y, const tz_date *d)
{
    int64_t day;
    if (d->kind == 'M') {
        int64_t first = floe__days_from_civil(y, (unsigned)d->m, 1);
        int wd = (int)floe__floormod(first + 4, 7); /* 1970-01-01 was a Thursday */
        int64_t x = first + (d->d - wd + 7) % 7 + 7 * (int64_t)(d->w - 1);
        while (x >= first + month_days(y, (unsigned)d->m))
            x -= 7;
        day = x;
    } else if (d->kind == 'J') {
        day = floe__days_from_civil(y, 1, 1) + d->n - 1;
        if (is_leap(y) && d->n >= 60)
            day++;
    } else {
        day = floe__days_from_civil(y, 1, 1) + d->n;
    }
    return day * 86400 + d->secs;
}

static int32_t rule_offset(const tz_rule *r, int64_t t)
{
    if (!r->has_dst)
        return r->std_off;
    int64_t y;
    unsigned m, d;
    floe__civil_from_days(floe__floordiv(t + r->std_off, 86400), &y, &m, &d);
    int64_t start = rule_local(y, &r->start) - r->std_off;
    int64_t end = rule_local(y, &r->end) - r->dst_off;
    bool dst = start < end ? (t >= start && t < end) : (t < end || t >= start);
    return dst ? r->dst_off : r->std_off;
}

/* ---------------------------------------------------------------- TZif */

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int tzif_parse(floe_tz *tz, const uint8_t *p, size_t len, const char *path)
{
    if (len < 44 || memcmp(p, "TZif", 4) != 0)
        return floe__error(FLOE_ECORRUPT, "time", "%s: not a TZif file", path);
    size_t tsize = 4;
    const uint8_t *h = p;
    for (int pass = 0; pass < 2; pass++) {
        if ((size_t)(h - p) + 44 > len)
            return floe__error(FLOE_ECORRUPT, "time", "%s: truncated header", path);
        uint32_t isut = be32(h + 20), isstd = be32(h + 24), leap = be32(h + 28);
        uint32_t timecnt = be32(h + 32), typecnt = be32(h + 36), charcnt = be32(h + 40);
        if (timecnt > 100000 || typecnt == 0 || typecnt > 256 || charcnt > 100000 ||
            leap > 100000 || isut > 256 || isstd > 256)
            return floe__error(FLOE_ECORRUPT, "time", "%s: bad counts", path);
        size_t body = (size_t)timecnt * tsize + timecnt + (size_t)typecnt * 6 + charcnt +
                      (size_t)leap * (tsize + 4) + isstd + isut;
        const uint8_t *b = h + 44;
        if ((size_t)(b - p) + body > len)
            return floe__error(FLOE_ECORRUPT, "time", "%s: truncated data", path);
        if (pass == 0 && h[4] >= '2') { /* skip the 32-bit block, read the 64-bit one */
            h = b + body;
            tsize = 8;
            continue;
        }
        tz->ntrans = timecnt;
        tz->ntypes = typecnt;
        tz->trans = floe__calloc(timecnt ? timecnt : 1, sizeof(int64_t));
        tz->idx = floe__calloc(timecnt ? timecnt : 1, 1);
        tz->utoff = floe__calloc(typecnt, sizeof(int32_t));
        if (!tz->trans || !tz->idx || !tz->utoff)
            return floe__error_nomem();
        for (uint32_t i = 0; i < timecnt; i++) {
            const uint8_t *q = b + i * tsize;
            tz->trans[i] = tsize == 8 ? (int64_t)((uint64_t)be32(q) << 32 | be32(q + 4))
                                      : (int64_t)(int32_t)be32(q);
            if (i > 0 && tz->trans[i] < tz->trans[i - 1])
                return floe__error(FLOE_ECORRUPT, "time", "%s: unsorted transitions", path);
        }
        const uint8_t *ix = b + timecnt * tsize;
        for (uint32_t i = 0; i < timecnt; i++) {
            if (ix[i] >= typecnt)
                return floe__error(FLOE_ECORRUPT, "time", "%s: bad type index", path);
            tz->idx[i] = ix[i];
        }
        const uint8_t *ti = ix + timecnt;
        for (uint32_t i = 0; i < typecnt; i++)
            tz->utoff[i] = (int32_t)be32(ti + (size_t)i * 6);
        const uint8_t *end = b + body;
        if (tsize == 8 && (size_t)(end - p) < len && *end == '\n') {
            const uint8_t *nl = memchr(end + 1, '\n', len - (size_t)(end + 1 - p));
            if (nl && nl - end - 1 < 128) {
                char footer[128];
                memcpy(footer, end + 1, (size_t)(nl - end - 1));
                footer[nl - end - 1] = '\0';
                if (footer[0] && !rule_parse(footer, &tz->rule))
                    memset(&tz->rule, 0, sizeof tz->rule);
            }
        }
        return 0;
    }
    return 0;
}

static int parse_fixed_offset(const char *s, int32_t *off)
{
    if (strcmp(s, "UTC") == 0 || strcmp(s, "Z") == 0 || strcmp(s, "GMT") == 0) {
        *off = 0;
        return 1;
    }
    if ((s[0] != '+' && s[0] != '-') || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9')
        return 0;
    int h = (s[1] - '0') * 10 + (s[2] - '0'), m = 0;
    const char *p = s + 3;
    if (*p == ':')
        p++;
    if (*p) {
        if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9' || p[2])
            return 0;
        m = (p[0] - '0') * 10 + (p[1] - '0');
    }
    if (h > 18 || m > 59)
        return 0;
    *off = (s[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
    return 1;
}

int floe__tz_load(floe_tz **out, const char *name)
{
    *out = NULL;
    if (!name || !*name || name[0] == '/' || strstr(name, "..") || strlen(name) > 200)
        return floe__error(FLOE_EINVALID, "time", "invalid time zone name '%s'",
                           name ? name : "");
    floe_tz *tz = floe__calloc(1, sizeof *tz);
    if (!tz || !(tz->name = floe__strdup(name))) {
        floe__free(tz);
        return floe__error_nomem();
    }
    int32_t off;
    if (parse_fixed_offset(name, &off)) {
        tz->fixed = true;
        tz->fixed_off = off;
        *out = tz;
        return 0;
    }
    const char *dir = getenv("TZDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        floe__tz_free(tz);
        return floe__error(FLOE_ENOTFOUND, "time", "unknown time zone '%s'", name);
    }
    floe_buf b = FLOE_BUF_INIT;
    char chunk[4096];
    size_t n;
    int rc = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && rc == 0) {
        rc = floe__buf_put(&b, chunk, n);
        if (b.len > (1u << 20))
            rc = floe__error(FLOE_ECORRUPT, "time", "%s: too large for a TZif file", path);
    }
    fclose(f);
    if (rc == 0)
        rc = tzif_parse(tz, (const uint8_t *)b.ptr, b.len, path);
    floe__buf_free(&b);
    if (rc < 0) {
        floe__tz_free(tz);
        return rc;
    }
    *out = tz;
    return 0;
}

void floe__tz_free(floe_tz *tz)
{
    if (!tz)
        return;
    floe__free(tz->name);
    floe__free(tz->trans);
    floe__free(tz->idx);
    floe__free(tz->utoff);
    floe__free(tz);
}

const char *floe__tz_name(const floe_tz *tz)
{
    return tz ? tz->name : "UTC";
}

int32_t floe__tz_offset_at(const floe_tz *tz, int64_t t)
{
    if (!tz)
        return 0;
    if (tz->fixed)
        return tz->fixed_off;
    if (tz->ntrans == 0 || t < tz->trans[0])
        return tz->rule.present && tz->ntrans == 0 ? rule_offset(&tz->rule, t) : tz->utoff[0];
    if (t >= tz->trans[tz->ntrans - 1] && tz->rule.present)
        return rule_offset(&tz->rule, t);
    size_t lo = 0, hi = tz->ntrans; /* last transition <= t */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tz->trans[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return tz->utoff[tz->idx[lo]];
}

void floe__tz_offset_range(const floe_tz *tz, int32_t *min, int32_t *max)
{
    *min = *max = 0;
    if (!tz)
        return;
    if (tz->fixed) {
        *min = *max = tz->fixed_off;
        return;
    }
    bool any = false;
    for (size_t i = 0; i < tz->ntypes; i++) {
        int32_t o = tz->utoff[i];
        *min = !any || o < *min ? o : *min;
        *max = !any || o > *max ? o : *max;
        any = true;
    }
    if (tz->rule.present) {
        int32_t r[2] = {tz->rule.std_off, tz->rule.has_dst ? tz->rule.dst_off : tz->rule.std_off};
        for (int i = 0; i < 2; i++) {
            *min = !any || r[i] < *min ? r[i] : *min;
            *max = !any || r[i] > *max ? r[i] : *max;
            any = true;
        }
    }
}

int64_t floe__tz_local_to_utc(const floe_tz *tz, int64_t local)
{
    if (!tz)
        return local;
    /* Transitions are far more than two days apart in every real zone, so
     * the offsets a day before and after bound the candidates. */
    int32_t early = floe__tz_offset_at(tz, local - 86400);
    int32_t late = floe__tz_offset_at(tz, local + 86400);
    int64_t t1 = local - early, t2 = local - late;
    bool ok1 = floe__tz_offset_at(tz, t1) == early, ok2 = floe__tz_offset_at(tz, t2) == late;
    if (ok1 && ok2)
        return t1 < t2 ? t1 : t2;
    if (ok1)
        return t1;
    if (ok2)
        return t2;
    return t1; /* in a gap: shift forward by the gap length */
}

/* ---------------------------------------------------------------- format / parse */

static int format_common(int64_t ms, const floe_tz *tz, floe_buf *out, bool iso)
{
    int64_t s = floe__floordiv(ms, 1000);
    int frac = (int)floe__floormod(ms, 1000);
    int32_t off = floe__tz_offset_at(tz, s);
    int64_t local = s + off;
    int64_t y;
    unsigned mo, d;
    floe__civil_from_days(floe__floordiv(local, 86400), &y, &mo, &d);
    int64_t sod = floe__floormod(local, 86400);
    FLOE_TRY(floe__buf_printf(out, "%04lld-%02u-%02u%c%02d:%02d:%02d", (long long)y, mo, d,
                              iso ? 'T' : ' ', (int)(sod / 3600), (int)(sod / 60 % 60),
                              (int)(sod % 60)));
    if (frac)
        FLOE_TRY(floe__buf_printf(out, ".%03d", frac));
    if (!iso)
        return 0;
    if (off == 0)
        return floe__buf_putc(out, 'Z');
    int a = off < 0 ? -off : off;
    FLOE_TRY(floe__buf_printf(out, "%c%02d:%02d", off < 0 ? '-' : '+', a / 3600, a / 60 % 60));
    if (a % 60)
        FLOE_TRY(floe__buf_printf(out, ":%02d", a % 60));
    return 0;
}

int floe__time_format(int64_t ms, const floe_tz *tz, floe_buf *out)
{
    return format_common(ms, tz, out, false);
}

int floe__time_format_iso(int64_t ms, const floe_tz *tz, floe_buf *out)
{
    return format_common(ms, tz, out, true);
}

int floe__time_error_no_snapshot_older(const char *subsystem, int64_t ms)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__time_format_iso(ms, NULL, &b);
    /* Java prints the UTC offset as +00:00 (OffsetDateTime), not Z */
    if (rc == 0 && b.len && b.ptr[b.len - 1] == 'Z') {
        b.len--;
        rc = floe__buf_puts(&b, "+00:00");
    }
    if (rc < 0) {
        floe__buf_free(&b);
        return rc;
    }
    rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_ILLEGAL_ARGUMENT, subsystem,
                        "Cannot find a snapshot older than %s", b.ptr);
    floe__buf_free(&b);
    return rc;
}

static bool digits(const char *p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (p[i] - '0');
    }
    *out = v;
    return true;
}

static int parse_common(const char *s, const floe_tz *tz, int64_t *out_us)
{
    int y, mo, d, h = 0, mi = 0, sec = 0;
    int64_t frac_us = 0;
    const char *p = s;
    bool neg_year = false;
    if (*p == '-' || *p == '+')
        neg_year = *p++ == '-';
    if (!digits(p, 4, &y) || p[4] != '-' || !digits(p + 5, 2, &mo) || p[7] != '-' ||
        !digits(p + 8, 2, &d))
        goto bad;
    if (neg_year)
        y = -y;
    p += 10;
    if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, (unsigned)mo))
        goto bad;
    if (*p == 'T' || *p == 't' || *p == ' ') {
        p++;
        if (!digits(p, 2, &h) || p[2] != ':' || !digits(p + 3, 2, &mi))
            goto bad;
        p += 5;
        if (*p == ':') {
            if (!digits(p + 1, 2, &sec))
                goto bad;
            p += 3;
            if (*p == '.' || *p == ',') {
                p++;
                int n = 0;
                int64_t scale = 100000;
                while (*p >= '0' && *p <= '9') {
                    if (n < 6)
                        frac_us += (*p - '0') * scale;
                    scale /= 10;
                    n++;
                    p++;
                }
                if (n == 0 || n > 9)
                    goto bad;
            }
        }
        if (h > 23 || mi > 59 || sec > 59)
            goto bad;
    }
    int64_t local = floe__days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + (int64_t)h * 3600 +
                    (int64_t)mi * 60 + sec;
    int64_t utc;
    if (*p == '\0') {
        utc = floe__tz_local_to_utc(tz, local);
    } else {
        int32_t off;
        if (*p == 'z')
            p = "Z";
        if (!parse_fixed_offset(p, &off) || strcmp(p, "UTC") == 0 || strcmp(p, "GMT") == 0)
            goto bad;
        utc = local - off;
    }
    *out_us = utc * 1000000 + frac_us;
    return 0;
bad:
    return floe__error(FLOE_EINVALID, "time", "invalid timestamp '%s'", s);
}

int floe__time_parse(const char *s, const floe_tz *tz, int64_t *ms)
{
    int64_t us;
    FLOE_TRY(parse_common(s, tz, &us));
    *ms = floe__floordiv(us, 1000);
    return 0;
}

int floe__time_parse_us(const char *s, const floe_tz *tz, int64_t *us)
{
    return parse_common(s, tz, us);
}
