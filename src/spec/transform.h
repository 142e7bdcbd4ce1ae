/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/transform: applying partition transforms (spec "Partition
 * Transforms", "Bucket Transform Details", "Truncate Transform Details",
 * Appendix B) to single values, their result types, Java-compatible human
 * strings and partition paths (`name=value/...`).
 *
 * Parsing the transform strings ("bucket[16]") into floe_transform lives with
 * the partition-spec JSON code; this file only needs kind and param.
 */
#ifndef FLOE_SPEC_TRANSFORM_H
#define FLOE_SPEC_TRANSFORM_H

#include "spec/types.h"

/* True when `t` may be applied to a column of type `source` (the spec's
 * "Source types" column). Unknown transforms can never be applied. */
bool floe_transform_can_apply(const floe_transform *t, const floe_type *source);

/* The partition value type for `t` over `source`: identity/truncate/void ->
 * source; bucket/year/month/hour -> int; day -> date. The spec's table says
 * `int` for day, but Java (and thus Spark/Trino manifests) writes day values
 * as Avro `int` with logicalType `date`; both are the same 4-byte integer
 * (days from 1970-01-01), and every floe comparison treats int and date
 * values alike, so either is accepted wherever a day value is read.
 * Returns a static type or `source` itself; NULL if !can_apply. */
const floe_type *floe_transform_result_type(const floe_transform *t, const floe_type *source);

/* Apply `t` to `in` (a value of the source column's type). Null in -> null
 * out (of the result type). Results borrow bytes from `in` (string/binary
 * truncation is a prefix), so no allocation happens.
 * FLOE_EINVALID if the transform does not apply to the value's type,
 * FLOE_EUNSUPPORTED for an unknown transform. */
int floe_transform_apply(const floe_transform *t, const floe_value *in, floe_value *out);

/* The bucket number of a non-null value (Appendix B hash & INT_MAX) % n. */
int floe_transform_bucket_hash(const floe_value *v, int32_t *hash_out);

/* Java's Transform.toHumanString of a partition value: year `2026`,
 * month `2026-09`, day `2026-09-20`, hour `2026-09-20-10`, identity dates
 * and times in ISO form (`10:00`, `2026-09-20T10:00:01.5`, tz with `Z`),
 * binary/fixed as base64, doubles as Java prints them (`42.0`), null as
 * `null`. Appends to `out`. */
int floe_transform_human_string(const floe_transform *t, const floe_value *v, floe_buf *out);

/* Java's PartitionSpec.partitionToPath: `name=value/name2=value2`, names
 * and human values escaped like java.net.URLEncoder (UTF-8; [A-Za-z0-9.*_-]
 * kept, space -> '+', everything else %XX). pv->n must equal spec->nfields. */
int floe_partition_path(const floe_partition_spec *spec, const floe_partition_value *pv,
                        floe_buf *out);

/* Java's Double.toString (single: Float.toString) of x appended to out:
 * the shortest digits that read back, plain for 1e-3 <= |x| < 1e7, else
 * d.dddE<exp>; NaN, Infinity, -0.0 as Java. FLOE_ENOMEM. */
int floe__java_float_text(double x, bool single, floe_buf *out);

/* URL-escape `s` like java.net.URLEncoder.encode(s, UTF_8). */
int floe_url_escape(const char *s, size_t len, floe_buf *out);

/* Number of code points in the first `len` bytes of UTF-8 `s`, and the byte
 * length of its first `n` code points (continuation bytes never start one). */
size_t floe_utf8_prefix_len(const uint8_t *s, size_t len, size_t n);
size_t floe_utf8_count(const uint8_t *s, size_t len);

#endif
