#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check a floe-written Avro container with Debian's reference Avro reader.

usage: /usr/bin/python3 avro_check.py FILE.avro [EXPECTED.jsonl [OTHER.jsonl ...]]

Reads FILE.avro with python3-avro (Apache Avro 1.11, the reference
implementation), then checks:
  * the Iceberg header keys of a manifest / manifest list are present,
  * every record field of the writer schema carries a `field-id`,
  * the records equal, one by one, the JSON lines of EXPECTED (what floe
    decoded) and of every OTHER file (e.g. what avsc decoded).
Bytes compare as "0x<hex>" strings, NaN/Infinity as strings. Prints
`OK <n> records` and exits 0, or prints the first difference and exits 1.
"""
import json
import math
import sys
import warnings

warnings.simplefilter("ignore")  # python-avro warns about Iceberg's uuid-on-fixed and "map" arrays

import avro.datafile
import avro.errors
import avro.io
import avro.schema

MANIFEST_KEYS = ["schema", "partition-spec", "partition-spec-id", "format-version", "iceberg.schema"]
LIST_KEYS = ["snapshot-id", "parent-snapshot-id", "format-version", "iceberg.schema"]


def norm(v):
    if isinstance(v, bytes):
        return "0x" + v.hex()
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v


def strip_logical(j):
    if isinstance(j, dict):
        return {k: strip_logical(v) for k, v in j.items() if k != "logicalType"}
    if isinstance(j, list):
        return [strip_logical(v) for v in j]
    return j


def fields_without_id(schema, path, out):
    t = schema.type
    if t == "record":
        for f in schema.fields:
            if "field-id" not in f.other_props:
                out.append(path + f.name)
            fields_without_id(f.type, path + f.name + ".", out)
    elif t == "union":
        for s in schema.schemas:
            fields_without_id(s, path, out)
    elif t == "array":
        fields_without_id(schema.items, path, out)
    elif t == "map":
        fields_without_id(schema.values, path, out)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    path = sys.argv[1]
    with open(path, "rb") as fh:
        # Read with the writer's schema minus logical types, so values stay
        # in their Avro encoding (unscaled decimals, day numbers, micros).
        head = avro.datafile.DataFileReader(fh, avro.io.DatumReader())
        plain = avro.schema.parse(json.dumps(strip_logical(json.loads(head.meta["avro.schema"]))))
        schema = head.datum_reader.writers_schema
        fh.seek(0)
        reader = avro.datafile.DataFileReader(fh, avro.io.DatumReader(readers_schema=plain))
        reader.datum_reader.writers_schema = plain
        meta = {k: v for k, v in reader.meta.items()}
        codec = meta.get("avro.codec", b"null").decode()
        try:
            records = [norm(r) for r in reader]
            reference = "python-avro"
        except avro.errors.UnsupportedCodec:
            # python3-snappy / python3-zstandard not installed: python-avro
            # still checked the header and schema; records are compared
            # between the other readers only.
            records = None
            reference = None
        reader.close()
    names = [f.name for f in schema.fields] if schema.type == "record" else []
    if "manifest_path" in names:
        keys = LIST_KEYS + (["sequence-number"] if meta.get("format-version") != b"1" else [])
    elif "data_file" in names:
        keys = MANIFEST_KEYS + (["content"] if meta.get("format-version") != b"1" else [])
    else:
        keys = []
    missing = [k for k in keys if k not in meta]
    if missing:
        print("FAIL header keys missing: %s" % missing)
        return 1
    json.loads(meta["iceberg.schema"]) if "iceberg.schema" in meta else None
    no_id = []
    fields_without_id(schema, "", no_id)
    if no_id:
        print("FAIL fields without field-id: %s" % no_id)
        return 1
    others = [a for a in sys.argv[2:] if a]
    for other in others:
        with open(other) as fh:
            lines = [norm(json.loads(l)) for l in fh if l.strip()]
        if records is None:
            records, reference = lines, other
            continue
        if len(lines) != len(records):
            print("FAIL %s: %d records, %s read %d" % (other, len(lines), reference, len(records)))
            return 1
        for i, (a, b) in enumerate(zip(records, lines)):
            if a != b:
                print("FAIL %s record %d differs:\n %s: %s\n other: %s"
                      % (other, i, reference, json.dumps(a), json.dumps(b)))
                return 1
    print("OK %d records, codec %s, reference %s, header keys %s"
          % (len(records or []), codec, reference, sorted(k for k in meta)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
