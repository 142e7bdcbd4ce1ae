/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Thrift binary protocol (see thrift_binary.h). Wire format, from
 * Thrift's TBinaryProtocol: integers big-endian two's complement of fixed
 * width; bool one byte; string/binary an i32 length then the bytes; a field
 * a type byte and an i16 id, a struct its fields then a STOP byte; a list or
 * set an element type byte and an i32 count; a map key and value type bytes
 * and an i32 count; a strict message header the i32 0x8001_0000 | type, the
 * name string and an i32 sequence id (the old non-strict header — name
 * string, type byte, seqid — is read too).
 */
#include "thrift_binary.h"

#include <string.h>

/* ---------------------------------------------------------------- encoder */

void floe__tbenc_init(floe_tbenc *e, floe_buf *out)
{
    e->out = out;
    e->rc = 0;
}

static void put(floe_tbenc *e, const void *p, size_t n)
{
    if (e->rc == 0 && floe__buf_put(e->out, p, n) < 0)
        e->rc = FLOE_ENOMEM;
}

static void put_u8(floe_tbenc *e, unsigned v)
{
    uint8_t b = (uint8_t)v;
    put(e, &b, 1);
}

static void put_be(floe_tbenc *e, uint64_t v, int bytes)
{
    uint8_t b[8];
    for (int i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    put(e, b, (size_t)bytes);
}

void floe__tbenc_i32(floe_tbenc *e, int32_t v)
{
    put_be(e, (uint32_t)v, 4);
}

void floe__tbenc_i64(floe_tbenc *e, int64_t v)
{
    put_be(e, (uint64_t)v, 8);
}

void floe__tbenc_bool(floe_tbenc *e, bool v)
{
    put_u8(e, v ? 1 : 0);
}

void floe__tbenc_string(floe_tbenc *e, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n > INT32_MAX) {
        if (e->rc == 0)
            e->rc = floe__error(FLOE_EINVALID, "thrift", "string of %zu bytes is too long", n);
        return;
    }
    floe__tbenc_i32(e, (int32_t)n);
    put(e, s ? s : "", n);
}

void floe__tbenc_message(floe_tbenc *e, const char *name, int type, int32_t seqid)
{
    floe__tbenc_i32(e, (int32_t)(0x80010000u | (uint32_t)type));
    floe__tbenc_string(e, name);
    floe__tbenc_i32(e, seqid);
}

void floe__tbenc_field(floe_tbenc *e, int type, int16_t id)
{
    put_u8(e, (unsigned)type);
    put_be(e, (uint16_t)id, 2);
}

void floe__tbenc_stop(floe_tbenc *e)
{
    put_u8(e, FLOE_TB_STOP);
}

void floe__tbenc_map_begin(floe_tbenc *e, int ktype, int vtype, uint32_t n)
{
    put_u8(e, (unsigned)ktype);
    put_u8(e, (unsigned)vtype);
    floe__tbenc_i32(e, (int32_t)n);
}

void floe__tbenc_list_begin(floe_tbenc *e, int etype, uint32_t n)
{
    put_u8(e, (unsigned)etype);
    floe__tbenc_i32(e, (int32_t)n);
}

void floe__tbenc_field_string(floe_tbenc *e, int16_t id, const char *s)
{
    if (!s)
        return;
    floe__tbenc_field(e, FLOE_TB_STRING, id);
    floe__tbenc_string(e, s);
}

void floe__tbenc_field_i32(floe_tbenc *e, int16_t id, int32_t v)
{
    floe__tbenc_field(e, FLOE_TB_I32, id);
    floe__tbenc_i32(e, v);
}

void floe__tbenc_field_i64(floe_tbenc *e, int16_t id, int64_t v)
{
    floe__tbenc_field(e, FLOE_TB_I64, id);
    floe__tbenc_i64(e, v);
}

void floe__tbenc_field_bool(floe_tbenc *e, int16_t id, bool v)
{
    floe__tbenc_field(e, FLOE_TB_BOOL, id);
    floe__tbenc_bool(e, v);
}

void floe__tbenc_field_props(floe_tbenc *e, int16_t id, const floe_props *p)
{
    floe__tbenc_field(e, FLOE_TB_MAP, id);
    size_t n = p ? p->n : 0;
    floe__tbenc_map_begin(e, FLOE_TB_STRING, FLOE_TB_STRING, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        floe__tbenc_string(e, p->items[i].key);
        floe__tbenc_string(e, p->items[i].value);
    }
}

/* ---------------------------------------------------------------- re-encoding */


/* Write a decoded value again (fields of an object read from the metastore
 * that floe does not change travel back as they came). */

void floe__tbenc_fields_except(floe_tbenc *e, const floe_tbval *st, const int16_t *skip, int nskip)
{
    for (uint32_t i = 0; st && i < st->n; i++) {
        const floe_tbval *f = &st->items[i];
        bool drop = false;
        for (int k = 0; k < nskip; k++)
            drop |= f->id == skip[k];
        if (drop)
            continue;
        floe__tbenc_field(e, f->type, f->id);
        floe__tbenc_value(e, f);
    }
}

void floe__tbenc_value(floe_tbenc *e, const floe_tbval *v)
{
    switch (v->type) {
    case FLOE_TB_BOOL:
        floe__tbenc_bool(e, v->i != 0);
        return;
    case FLOE_TB_BYTE:
        put_u8(e, (unsigned)(uint8_t)(int8_t)v->i);
        return;
    case FLOE_TB_I16: {
        put_be(e, (uint16_t)v->i, 2);
        return;
    }
    case FLOE_TB_I32:
        floe__tbenc_i32(e, (int32_t)v->i);
        return;
    case FLOE_TB_I64:
    case FLOE_TB_DOUBLE:
        floe__tbenc_i64(e, v->i);
        return;
    case FLOE_TB_STRING:
        floe__tbenc_i32(e, (int32_t)v->len);
        put(e, v->s, v->len);
        return;
    case FLOE_TB_STRUCT:
        floe__tbenc_fields_except(e, v, NULL, 0);
        floe__tbenc_stop(e);
        return;
    case FLOE_TB_LIST:
    case FLOE_TB_SET:
        floe__tbenc_list_begin(e, v->etype, v->n);
        for (uint32_t i = 0; i < v->n; i++)
            floe__tbenc_value(e, &v->items[i]);
        return;
    case FLOE_TB_MAP:
        floe__tbenc_map_begin(e, v->ktype, v->etype, v->n / 2);
        for (uint32_t i = 0; i < v->n; i++)
            floe__tbenc_value(e, &v->items[i]);
        return;
    default:
        return;
    }
}

/* ---------------------------------------------------------------- decoder */

typedef struct dec {
    const uint8_t *base, *p, *end;
    floe_arena *a;
    const char *what;
    bool *truncated;
} dec;

static int short_input(dec *d, const char *reading)
{
    *d->truncated = true;
    return floe__error(FLOE_ECORRUPT, "thrift", "%s: Thrift message truncated at byte %zu (%s)",
                       d->what, (size_t)(d->p - d->base), reading);
}

static int bad(dec *d, const char *why)
{
    *d->truncated = false;
    return floe__error(FLOE_ECORRUPT, "thrift", "%s: bad Thrift message at byte %zu: %s", d->what,
                       (size_t)(d->p - d->base), why);
}

static int need(dec *d, size_t n, const char *reading)
{
    return (size_t)(d->end - d->p) < n ? short_input(d, reading) : 0;
}

static uint64_t get_be(dec *d, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = (v << 8) | d->p[i];
    d->p += bytes;
    return v;
}

static int get_i32(dec *d, int32_t *out, const char *reading)
{
    FLOE_TRY(need(d, 4, reading));
    *out = (int32_t)(uint32_t)get_be(d, 4);
    return 0;
}

static int get_string(dec *d, floe_tbval *v)
{
    int32_t n;
    FLOE_TRY(get_i32(d, &n, "string length"));
    if (n < 0)
        return bad(d, "negative string length");
    FLOE_TRY(need(d, (size_t)n, "string"));
    char *s = floe__arena_alloc(d->a, (size_t)n + 1);
    if (!s)
        return floe__error_nomem();
    memcpy(s, d->p, (size_t)n); /* every byte, NULs included */
    s[n] = '\0';
    v->s = s;
    v->len = (uint32_t)n;
    d->p += n;
    return 0;
}

static bool known_type(int t)
{
    switch (t) {
    case FLOE_TB_BOOL:
    case FLOE_TB_BYTE:
    case FLOE_TB_DOUBLE:
    case FLOE_TB_I16:
    case FLOE_TB_I32:
    case FLOE_TB_I64:
    case FLOE_TB_STRING:
    case FLOE_TB_STRUCT:
    case FLOE_TB_MAP:
    case FLOE_TB_SET:
    case FLOE_TB_LIST:
        return true;
    default:
        return false;
    }
}

static int get_value(dec *d, floe_tbval *v, int type, int depth);

/* Container items: each takes at least one byte on the wire, so a count
 * larger than the bytes left is corrupt (or cut short) before any alloc. */
static int get_items(dec *d, floe_tbval *v, uint32_t n, const int *types, int ntypes, int depth)
{
    if (n == 0)
        return 0;
    if ((size_t)(d->end - d->p) < n) /* a lower bound, every item is >= 1 byte */
        return short_input(d, "container items");
    v->items = floe__arena_calloc(d->a, n, sizeof *v->items);
    if (!v->items)
        return floe__error_nomem();
    v->n = n;
    for (uint32_t i = 0; i < n; i++)
        FLOE_TRY(get_value(d, &v->items[i], types[i % (uint32_t)ntypes], depth + 1));
    return 0;
}

static int get_struct(dec *d, floe_tbval *v, int depth)
{
    /* Two passes would be needed to size the field array up front; fields
     * are few, so grow a small array in the arena instead. */
    uint32_t cap = 0;
    v->type = FLOE_TB_STRUCT;
    for (;;) {
        FLOE_TRY(need(d, 1, "field type"));
        int t = *d->p++;
        if (t == FLOE_TB_STOP)
            return 0;
        if (!known_type(t))
            return bad(d, "unknown field type");
        FLOE_TRY(need(d, 2, "field id"));
        int16_t id = (int16_t)(uint16_t)get_be(d, 2);
        if (v->n == cap) {
            uint32_t ncap = cap ? cap * 2 : 8;
            floe_tbval *ni = floe__arena_calloc(d->a, ncap, sizeof *ni);
            if (!ni)
                return floe__error_nomem();
            if (v->n)
                memcpy(ni, v->items, v->n * sizeof *ni);
            v->items = ni;
            cap = ncap;
        }
        floe_tbval *f = &v->items[v->n];
        FLOE_TRY(get_value(d, f, t, depth + 1));
        f->id = id;
        v->n++;
    }
}

static int get_value(dec *d, floe_tbval *v, int type, int depth)
{
    if (depth > FLOE_TB_MAX_DEPTH)
        return bad(d, "nesting too deep");
    memset(v, 0, sizeof *v);
    v->type = (uint8_t)type;
    switch (type) {
    case FLOE_TB_BOOL:
    case FLOE_TB_BYTE:
        FLOE_TRY(need(d, 1, "byte"));
        v->i = type == FLOE_TB_BOOL ? (*d->p != 0) : (int8_t)*d->p;
        d->p++;
        return 0;
    case FLOE_TB_I16:
        FLOE_TRY(need(d, 2, "i16"));
        v->i = (int16_t)(uint16_t)get_be(d, 2);
        return 0;
    case FLOE_TB_I32:
        FLOE_TRY(need(d, 4, "i32"));
        v->i = (int32_t)(uint32_t)get_be(d, 4);
        return 0;
    case FLOE_TB_I64:
    case FLOE_TB_DOUBLE:
        FLOE_TRY(need(d, 8, "i64"));
        v->i = (int64_t)get_be(d, 8);
        return 0;
    case FLOE_TB_STRING:
        return get_string(d, v);
    case FLOE_TB_STRUCT:
        return get_struct(d, v, depth);
    case FLOE_TB_LIST:
    case FLOE_TB_SET: {
        FLOE_TRY(need(d, 5, "list header"));
        int et = *d->p++;
        int32_t n = (int32_t)(uint32_t)get_be(d, 4);
        if (n < 0)
            return bad(d, "negative list size");
        if (n > 0 && !known_type(et))
            return bad(d, "unknown list element type");
        v->etype = (uint8_t)et;
        return get_items(d, v, (uint32_t)n, &et, 1, depth);
    }
    case FLOE_TB_MAP: {
        FLOE_TRY(need(d, 6, "map header"));
        int kv[2] = {d->p[0], d->p[1]};
        d->p += 2;
        int32_t n = (int32_t)(uint32_t)get_be(d, 4);
        if (n < 0)
            return bad(d, "negative map size");
        if (n > 0 && (!known_type(kv[0]) || !known_type(kv[1])))
            return bad(d, "unknown map key or value type");
        if (n > INT32_MAX / 2)
            return bad(d, "map too large");
        v->ktype = (uint8_t)kv[0];
        v->etype = (uint8_t)kv[1];
        return get_items(d, v, (uint32_t)n * 2, kv, 2, depth);
    }
    default:
        return bad(d, "unknown type");
    }
}

int floe__tbdec_message(const uint8_t *buf, size_t len, floe_arena *a, const char *what,
                        floe_tbmsg *out, size_t *used, bool *truncated)
{
    bool dummy;
    dec d = {buf, buf, buf + len, a, what ? what : "thrift", truncated ? truncated : &dummy};
    *d.truncated = false;
    memset(out, 0, sizeof *out);
    *used = 0;
    int32_t word;
    FLOE_TRY(get_i32(&d, &word, "message header"));
    floe_tbval name = {0};
    if (word < 0) {
        if (((uint32_t)word & 0xffff0000u) != 0x80010000u)
            return bad(&d, "unknown protocol version (not the Thrift binary protocol)");
        out->type = (int)((uint32_t)word & 0xff);
        FLOE_TRY(get_string(&d, &name));
    } else {
        /* non-strict: the word is the name's length; method names are short,
         * so a huge one is another protocol (an HTTP or TLS peer) */
        if (word > 65536)
            return bad(&d, "unknown protocol version (not the Thrift binary protocol)");
        d.p -= 4;
        FLOE_TRY(get_string(&d, &name));
        FLOE_TRY(need(&d, 1, "message type"));
        out->type = *d.p++;
    }
    if (out->type < FLOE_TB_CALL || out->type > FLOE_TB_ONEWAY)
        return bad(&d, "unknown message type");
    out->name = name.s;
    FLOE_TRY(get_i32(&d, &out->seqid, "sequence id"));
    FLOE_TRY(get_value(&d, &out->body, FLOE_TB_STRUCT, 0));
    *used = (size_t)(d.p - buf);
    return 0;
}

const floe_tbval *floe__tb_field(const floe_tbval *st, int16_t id, int type)
{
    if (!st || st->type != FLOE_TB_STRUCT)
        return NULL;
    for (uint32_t i = 0; i < st->n; i++)
        if (st->items[i].id == id)
            return st->items[i].type == type ? &st->items[i] : NULL;
    return NULL;
}

const char *floe__tb_string(const floe_tbval *st, int16_t id)
{
    const floe_tbval *v = floe__tb_field(st, id, FLOE_TB_STRING);
    return v ? v->s : NULL;
}

int64_t floe__tb_int(const floe_tbval *st, int16_t id, int type, int64_t def)
{
    const floe_tbval *v = floe__tb_field(st, id, type);
    return v ? v->i : def;
}

int floe__tb_props(const floe_tbval *st, int16_t id, floe_props *out)
{
    const floe_tbval *m = floe__tb_field(st, id, FLOE_TB_MAP);
    if (!m || m->ktype != FLOE_TB_STRING || m->etype != FLOE_TB_STRING)
        return 0;
    for (uint32_t i = 0; i + 1 < m->n; i += 2)
        FLOE_TRY(floe__props_set(out, m->items[i].s, m->items[i + 1].s));
    return 0;
}
