/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema JSON for what floe writes: the Avro schema with Iceberg's
 * field-id / element-id attributes and "logicalType":"map" arrays of
 * k<id>_v<id> records (spec Appendix A "Avro" and Appendix C), and the same
 * struct as Iceberg schema JSON for the `iceberg.schema` header key. Field
 * order, names and docs follow what Iceberg Java writes.
 */
#include "gen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int floe__gen_decimal_bytes(int32_t precision)
{
    for (int n = 1; n <= 16; n++) {
        /* the largest |unscaled| in n bytes is 2^(8n-1) - 1 */
        double max = ldexp(1.0, 8 * n - 1);
        if (max > pow(10.0, precision))
            return n;
    }
    return 16;
}

int floe_manifest_type_string(const floe_type *t, floe_buf *out)
{
    switch (t->id) {
    case FLOE_T_BOOLEAN: return floe__buf_puts(out, "boolean");
    case FLOE_T_INT: return floe__buf_puts(out, "int");
    case FLOE_T_LONG: return floe__buf_puts(out, "long");
    case FLOE_T_FLOAT: return floe__buf_puts(out, "float");
    case FLOE_T_DOUBLE: return floe__buf_puts(out, "double");
    case FLOE_T_DECIMAL:
        return floe__buf_printf(out, "decimal(%d, %d)", (int)t->precision, (int)t->scale);
    case FLOE_T_DATE: return floe__buf_puts(out, "date");
    case FLOE_T_TIME: return floe__buf_puts(out, "time");
    case FLOE_T_TIMESTAMP: return floe__buf_puts(out, "timestamp");
    case FLOE_T_TIMESTAMPTZ: return floe__buf_puts(out, "timestamptz");
    case FLOE_T_TIMESTAMP_NS: return floe__buf_puts(out, "timestamp_ns");
    case FLOE_T_TIMESTAMPTZ_NS: return floe__buf_puts(out, "timestamptz_ns");
    case FLOE_T_STRING: return floe__buf_puts(out, "string");
    case FLOE_T_UUID: return floe__buf_puts(out, "uuid");
    case FLOE_T_FIXED: return floe__buf_printf(out, "fixed[%d]", (int)t->length);
    case FLOE_T_BINARY: return floe__buf_puts(out, "binary");
    case FLOE_T_UNKNOWN: return floe__buf_puts(out, "unknown");
    default: return floe__error(FLOE_EINVALID, "manifest", "partition field type is not primitive");
    }
}

static int qstr(floe_buf *b, const char *s)
{
    FLOE_TRY(floe__buf_putc(b, '"'));
    FLOE_TRY(floe__buf_put_json_escaped(b, s, strlen(s)));
    return floe__buf_putc(b, '"');
}

/* Avro type of a partition field's result type. Named fixed types are
 * defined once and referenced by name afterwards (Avro forbids redefining). */
static int avro_partition_type(floe_buf *b, const floe_type *t, const gen_ctx *ctx, size_t idx)
{
    char name[64];
    name[0] = 0;
    switch (t->id) {
    case FLOE_T_BOOLEAN: return qstr(b, "boolean");
    case FLOE_T_INT: return qstr(b, "int");
    case FLOE_T_LONG: return qstr(b, "long");
    case FLOE_T_FLOAT: return qstr(b, "float");
    case FLOE_T_DOUBLE: return qstr(b, "double");
    case FLOE_T_STRING: return qstr(b, "string");
    case FLOE_T_BINARY: return qstr(b, "bytes");
    case FLOE_T_DATE: return floe__buf_puts(b, "{\"type\":\"int\",\"logicalType\":\"date\"}");
    case FLOE_T_TIME:
        return floe__buf_puts(b, "{\"type\":\"long\",\"logicalType\":\"time-micros\"}");
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
        return floe__buf_printf(b,
                                "{\"type\":\"long\",\"logicalType\":\"timestamp-micros\","
                                "\"adjust-to-utc\":%s}",
                                t->id == FLOE_T_TIMESTAMPTZ ? "true" : "false");
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        return floe__buf_printf(b,
                                "{\"type\":\"long\",\"logicalType\":\"timestamp-nanos\","
                                "\"adjust-to-utc\":%s}",
                                t->id == FLOE_T_TIMESTAMPTZ_NS ? "true" : "false");
    case FLOE_T_UUID: snprintf(name, sizeof name, "uuid_fixed"); break;
    case FLOE_T_FIXED: snprintf(name, sizeof name, "fixed_%d", (int)t->length); break;
    case FLOE_T_DECIMAL:
        snprintf(name, sizeof name, "decimal_%d_%d", (int)t->precision, (int)t->scale);
        break;
    default: return floe__error(FLOE_EINVALID, "manifest", "partition field type is not primitive");
    }
    /* fixed-based: defined before? */
    for (size_t i = 0; i < idx; i++) {
        const floe_type *o = ctx->part[i].type;
        if (o->id == t->id && o->length == t->length && o->precision == t->precision &&
            o->scale == t->scale)
            return qstr(b, name);
    }
    if (t->id == FLOE_T_UUID)
        return floe__buf_puts(
            b, "{\"type\":\"fixed\",\"name\":\"uuid_fixed\",\"size\":16,\"logicalType\":\"uuid\"}");
    if (t->id == FLOE_T_FIXED)
        return floe__buf_printf(b, "{\"type\":\"fixed\",\"name\":\"%s\",\"size\":%d}", name,
                                (int)t->length);
    return floe__buf_printf(b,
                            "{\"type\":\"fixed\",\"name\":\"%s\",\"size\":%d,\"logicalType\":"
                            "\"decimal\",\"precision\":%d,\"scale\":%d}",
                            name, floe__gen_decimal_bytes(t->precision), (int)t->precision,
                            (int)t->scale);
}

static int avro_type(floe_buf *b, const gen_ctx *ctx, const gen_field *f)
{
    switch (f->kind) {
    case G_INT: return qstr(b, "int");
    case G_LONG: return qstr(b, "long");
    case G_BOOL: return qstr(b, "boolean");
    case G_STRING: return qstr(b, "string");
    case G_BYTES: return qstr(b, "bytes");
    case G_LONGMAP:
    case G_BYTESMAP:
        return floe__buf_printf(b,
                                "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":"
                                "\"k%d_v%d\",\"fields\":[{\"name\":\"key\",\"type\":\"int\","
                                "\"field-id\":%d},{\"name\":\"value\",\"type\":\"%s\","
                                "\"field-id\":%d}]},\"logicalType\":\"map\"}",
                                (int)f->a, (int)f->b, (int)f->a,
                                f->kind == G_LONGMAP ? "long" : "bytes", (int)f->b);
    case G_LONGLIST:
    case G_INTLIST:
        return floe__buf_printf(b, "{\"type\":\"array\",\"items\":\"%s\",\"element-id\":%d}",
                                f->kind == G_LONGLIST ? "long" : "int", (int)f->a);
    case G_RECORD: return floe__gen_avro_record(b, ctx, f->rname, f->sub, f->nsub);
    case G_SUMMARIES:
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"array\",\"items\":"));
        FLOE_TRY(floe__gen_avro_record(b, ctx, f->rname, f->sub, f->nsub));
        return floe__buf_printf(b, ",\"element-id\":%d}", (int)f->a);
    case G_PARTITION:
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"record\",\"name\":\"r102\",\"fields\":["));
        for (size_t i = 0; i < ctx->npart; i++) {
            FLOE_TRY(floe__buf_puts(b, i ? ",{\"name\":" : "{\"name\":"));
            FLOE_TRY(qstr(b, ctx->part[i].name));
            /* unknown is Avro "null" itself (Java's AvroSchemaUtil.toOption) */
            bool unknown = ctx->part[i].type->id == FLOE_T_UNKNOWN;
            FLOE_TRY(floe__buf_puts(b, unknown ? ",\"type\":\"null\"" : ",\"type\":[\"null\","));
            if (!unknown)
                FLOE_TRY(avro_partition_type(b, ctx->part[i].type, ctx, i));
            FLOE_TRY(floe__buf_printf(b, "%s,\"default\":null,\"field-id\":%d}", unknown ? "" : "]",
                                      (int)ctx->part[i].field_id));
        }
        return floe__buf_puts(b, "]}");
    }
    return floe__error(FLOE_EINVALID, "manifest", "bad generated field kind");
}

int floe__gen_avro_record(floe_buf *b, const gen_ctx *ctx, const char *rname,
                          const gen_field *fields, size_t n)
{
    FLOE_TRY(floe__buf_puts(b, "{\"type\":\"record\",\"name\":"));
    FLOE_TRY(qstr(b, rname));
    FLOE_TRY(floe__buf_puts(b, ",\"fields\":["));
    for (size_t i = 0; i < n; i++) {
        const gen_field *f = &fields[i];
        FLOE_TRY(floe__buf_puts(b, i ? ",{\"name\":" : "{\"name\":"));
        FLOE_TRY(qstr(b, f->name));
        FLOE_TRY(floe__buf_puts(b, ",\"type\":"));
        if (f->optional)
            FLOE_TRY(floe__buf_puts(b, "[\"null\","));
        FLOE_TRY(avro_type(b, ctx, f));
        if (f->optional)
            FLOE_TRY(floe__buf_putc(b, ']'));
        if (f->doc) {
            FLOE_TRY(floe__buf_puts(b, ",\"doc\":"));
            FLOE_TRY(qstr(b, f->doc));
        }
        if (f->optional)
            FLOE_TRY(floe__buf_puts(b, ",\"default\":null"));
        FLOE_TRY(floe__buf_printf(b, ",\"field-id\":%d}", (int)f->id));
    }
    return floe__buf_puts(b, "]}");
}

static int iceberg_type(floe_buf *b, const gen_ctx *ctx, const gen_field *f)
{
    switch (f->kind) {
    case G_INT: return qstr(b, "int");
    case G_LONG: return qstr(b, "long");
    case G_BOOL: return qstr(b, "boolean");
    case G_STRING: return qstr(b, "string");
    case G_BYTES: return qstr(b, "binary");
    case G_LONGMAP:
    case G_BYTESMAP:
        return floe__buf_printf(b,
                                "{\"type\":\"map\",\"key-id\":%d,\"key\":\"int\",\"value-id\":%d,"
                                "\"value\":\"%s\",\"value-required\":true}",
                                (int)f->a, (int)f->b, f->kind == G_LONGMAP ? "long" : "binary");
    case G_LONGLIST:
    case G_INTLIST:
        return floe__buf_printf(b,
                                "{\"type\":\"list\",\"element-id\":%d,\"element\":\"%s\","
                                "\"element-required\":true}",
                                (int)f->a, f->kind == G_LONGLIST ? "long" : "int");
    case G_RECORD: return floe__gen_iceberg_struct(b, ctx, f->sub, f->nsub, false);
    case G_SUMMARIES:
        FLOE_TRY(
            floe__buf_printf(b, "{\"type\":\"list\",\"element-id\":%d,\"element\":", (int)f->a));
        FLOE_TRY(floe__gen_iceberg_struct(b, ctx, f->sub, f->nsub, false));
        return floe__buf_puts(b, ",\"element-required\":true}");
    case G_PARTITION:
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"struct\",\"fields\":["));
        for (size_t i = 0; i < ctx->npart; i++) {
            FLOE_TRY(floe__buf_printf(b, "%s{\"id\":%d,\"name\":", i ? "," : "",
                                      (int)ctx->part[i].field_id));
            FLOE_TRY(qstr(b, ctx->part[i].name));
            FLOE_TRY(floe__buf_puts(b, ",\"required\":false,\"type\":\""));
            FLOE_TRY(floe_manifest_type_string(ctx->part[i].type, b));
            FLOE_TRY(floe__buf_puts(b, "\"}"));
        }
        return floe__buf_puts(b, "]}");
    }
    return floe__error(FLOE_EINVALID, "manifest", "bad generated field kind");
}

int floe__gen_iceberg_struct(floe_buf *b, const gen_ctx *ctx, const gen_field *fields, size_t n,
                             bool root)
{
    FLOE_TRY(floe__buf_puts(b, root ? "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
                                    : "{\"type\":\"struct\",\"fields\":["));
    for (size_t i = 0; i < n; i++) {
        const gen_field *f = &fields[i];
        FLOE_TRY(floe__buf_printf(b, "%s{\"id\":%d,\"name\":", i ? "," : "", (int)f->id));
        FLOE_TRY(qstr(b, f->name));
        FLOE_TRY(floe__buf_printf(b, ",\"required\":%s,\"type\":", f->optional ? "false" : "true"));
        FLOE_TRY(iceberg_type(b, ctx, f));
        if (f->doc) {
            FLOE_TRY(floe__buf_puts(b, ",\"doc\":"));
            FLOE_TRY(qstr(b, f->doc));
        }
        FLOE_TRY(floe__buf_putc(b, '}'));
    }
    return floe__buf_puts(b, "]}");
}
