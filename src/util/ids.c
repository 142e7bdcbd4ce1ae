/* SPDX-License-Identifier: Apache-2.0 */
/* Random bytes, UUID v4 and snapshot ids; clocks. */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

int floe__random_bytes(void *out, size_t len)
{
    unsigned char *p = out;
    while (len) {
        ssize_t n = getrandom(p, len, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return floe__error(FLOE_EIO, "random", "getrandom failed: %s", strerror(errno));
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

void floe__uuid_format(const uint8_t b[16], char out[37])
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 15];
    }
    out[o] = '\0';
}

int floe__hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int floe__uuid_parse(const char *s, uint8_t out[16])
{
    size_t n = 0;
    for (size_t i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                goto bad;
            continue;
        }
        int hi = floe__hex_digit(s[i]);
        if (hi < 0)
            goto bad;
        i++;
        int lo = floe__hex_digit(s[i]);
        if (lo < 0)
            goto bad;
        out[n++] = (uint8_t)(hi << 4 | lo);
    }
    if (s[36] != '\0')
        goto bad;
    return 0;
bad:
    return floe__error(FLOE_EINVALID, "uuid", "invalid UUID: %.40s", s);
}

int floe__uuid4(char out[37])
{
    uint8_t b[16];
    FLOE_TRY(floe__random_bytes(b, sizeof b));
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    floe__uuid_format(b, out);
    return 0;
}

int floe__snapshot_id(int64_t *out)
{
    uint64_t v = 0;
    do {
        FLOE_TRY(floe__random_bytes(&v, sizeof v));
        v &= INT64_MAX;
    } while (v == 0);
    *out = (int64_t)v;
    return 0;
}

int64_t floe__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t floe__mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
