#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Default values at every nesting level (spec "Default values"): a table
# written by floe, then given (as another engine would) a schema that adds
# members with initial-default to an existing struct and to the structs of a
# list, and new struct ({}), list, map and list<struct> columns with
# defaults. `floe sql` reads the old file with those defaults, and a later
# commit keeps them in the metadata.
set -u
: "${FLOE_BIN:?}"
PY=$(command -v python3) || { echo "skipped: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
F() { "$FLOE_BIN" sql --warehouse "$T/wh" "$@"; }

F -c "CREATE NAMESPACE db; CREATE TABLE db.t (id INT, s STRUCT<a: INT>, l ARRAY<STRUCT<x: INT>>)" \
  -c "INSERT INTO db.t VALUES (1, named_struct('a', 10), array(named_struct('x', 5))), (2, NULL, array())" >/dev/null
meta=$("$PY" - "$T/wh/db.db/t" <<'PYEOF'
import glob, json, sys
src = sorted(glob.glob(sys.argv[1] + '/metadata/*.metadata.json'))[-1]
m = json.load(open(src))
s = json.loads(json.dumps(m['schemas'][-1]))
f = {x['name']: x for x in s['fields']}
def fld(i, name, t, **kw):
    d = {'id': i, 'name': name, 'required': False, 'type': t}
    d.update({k.replace('_', '-'): v for k, v in kw.items()})
    return d
f['s']['type']['fields'] += [
    fld(7, 'b', 'int', initial_default=7, write_default=7),
    fld(8, 'u', 'uuid', initial_default='f79c3e09-677c-4bbd-a479-3f349cb785e7')]
f['l']['type']['element']['fields'].append(fld(9, 'y', 'string', initial_default='hi'))
s['fields'] += [
    fld(10, 'p', {'type': 'struct', 'fields': [fld(11, 'x', 'int', initial_default=0),
                                               fld(12, 'y', 'int', initial_default=0)]},
        initial_default={}, write_default={}),
    fld(13, 'q', {'type': 'struct', 'fields': [fld(14, 'z', 'int', initial_default=3)]}),
    fld(15, 'tags', {'type': 'list', 'element-id': 16, 'element': 'string',
                     'element-required': False}, initial_default=['a', 'b']),
    fld(17, 'm', {'type': 'map', 'key-id': 18, 'key': 'string', 'value-id': 19, 'value': 'int',
                  'value-required': False}, initial_default={'keys': ['k'], 'values': [1]}),
    fld(20, 'ls', {'type': 'list', 'element-id': 21, 'element-required': False,
                   'element': {'type': 'struct', 'fields': [
                       fld(22, 'v', 'int'), fld(23, 'w', 'int', initial_default=9)]}},
        initial_default=[{'22': 1}, {}]),
]
s['schema-id'] = 1
m['schemas'].append(s)
m['current-schema-id'] = 1
m['last-column-id'] = 23
dst = sys.argv[1] + '/metadata/00009-evolved.metadata.json'
json.dump(m, open(dst, 'w'))
print(dst)
PYEOF
)
want='{"id":1,"s":{"a":10,"b":7,"u":"f79c3e09-677c-4bbd-a479-3f349cb785e7"},"l":[{"x":5,"y":"hi"}],"p":{"x":0,"y":0},"q":null,"tags":["a","b"],"m":{"k":1},"ls":[{"v":1,"w":9},{"v":null,"w":9}]}
{"id":2,"s":null,"l":[],"p":{"x":0,"y":0},"q":null,"tags":["a","b"],"m":{"k":1},"ls":[{"v":1,"w":9},{"v":null,"w":9}]}'
out=$(F --format json -c "CALL system.register_table('db.e', '$meta')" -c "SELECT * FROM db.e ORDER BY id" 2>&1 | tail -n +2)
eq "old rows read the defaults" "$out" "$want"
out=$(F --format csv -c "SELECT s.b AS b, s.u AS u, l[0].y AS y, p.y AS py, tags[1] AS t, m['k'] AS mk, ls[1].w AS w FROM db.e WHERE id = 1" 2>&1)
eq "nested fields in expressions" "$out" "b,u,y,py,t,mk,w
7,f79c3e09-677c-4bbd-a479-3f349cb785e7,hi,0,b,1,9"
# a commit rewrites the metadata: the defaults survive it
F -c "ALTER TABLE db.e SET TBLPROPERTIES ('k' = 'v')" >/dev/null
out=$(F --format json -c "SELECT * FROM db.e ORDER BY id" 2>&1)
eq "defaults after a commit" "$out" "$want"

# write-default at every nesting level (spec "Default values"): a struct
# value that omits a member, in a struct column, a list's element struct and
# a map's value struct, and a struct column omitted from INSERT's column
# list, are written with the write-defaults, which differ here from the
# initial-defaults the old row reads; an explicit NULL stays NULL. (Spark 3.5
# refuses such values: STRUCT_MISSING_FIELDS, tests/peers/test_types_v3.py.)
F -c "CREATE TABLE db.w (id INT, s STRUCT<a: INT>, l ARRAY<STRUCT<a: INT>>, m MAP<STRING, STRUCT<a: INT>>)
  TBLPROPERTIES ('format-version'='3')" \
  -c "INSERT INTO db.w VALUES (1, named_struct('a', 1), array(named_struct('a', 2)), map('k', named_struct('a', 3)))" >/dev/null
meta=$("$PY" - "$T/wh/db.db/w" <<'PYEOF'
import glob, json, sys
m = json.load(open(sorted(glob.glob(sys.argv[1] + '/metadata/*.metadata.json'))[-1]))
s = json.loads(json.dumps(m['schemas'][-1]))
f = {x['name']: x for x in s['fields']}
def fld(i, name, t, **kw):
    d = {'id': i, 'name': name, 'required': False, 'type': t}
    d.update({k.replace('_', '-'): v for k, v in kw.items()})
    return d
f['s']['type']['fields'].append(fld(20, 'x', 'int', initial_default=1, write_default=2))
f['l']['type']['element']['fields'].append(fld(21, 'y', 'string', initial_default='old', write_default='new'))
f['m']['type']['value']['fields'].append(fld(22, 'z', 'long', initial_default=3, write_default=4))
s['fields'].append(fld(23, 'p', {'type': 'struct', 'fields': [
    fld(24, 'q', 'int', initial_default=5, write_default=6), fld(25, 'r', 'int')]},
    initial_default={}, write_default={}))
s['schema-id'] = 1
m['schemas'].append(s)
m['current-schema-id'] = 1
m['last-column-id'] = 25
dst = sys.argv[1] + '/metadata/00009-write-defaults.metadata.json'
json.dump(m, open(dst, 'w'))
print(dst)
PYEOF
)
F -c "CALL system.register_table('db.w2', '$meta')" \
  -c "INSERT INTO db.w2 VALUES (2, named_struct('a', 20), array(named_struct('a', 21), named_struct('a', 22, 'y', 'given')), map('k', named_struct('a', 23)), named_struct('r', 24))" \
  -c "INSERT INTO db.w2 VALUES (3, named_struct('a', 30, 'x', NULL), array(), map(), NULL)" \
  -c "INSERT INTO db.w2 (id, s) VALUES (4, named_struct('a', 40))" >/dev/null
out=$(F --format json -c "SELECT * FROM db.w2 ORDER BY id" 2>&1)
eq "nested write-defaults" "$out" '{"id":1,"s":{"a":1,"x":1},"l":[{"a":2,"y":"old"}],"m":{"k":{"a":3,"z":3}},"p":{"q":5,"r":null}}
{"id":2,"s":{"a":20,"x":2},"l":[{"a":21,"y":"new"},{"a":22,"y":"given"}],"m":{"k":{"a":23,"z":4}},"p":{"q":6,"r":24}}
{"id":3,"s":{"a":30,"x":null},"l":[],"m":{},"p":null}
{"id":4,"s":{"a":40,"x":2},"l":null,"m":null,"p":{"q":6,"r":null}}'

# PyIceberg's table (../shared/fixtures, PROVENANCE.md #9): the two rows
# written before the columns were added print their initial-defaults
FX="${FLOE_SHARED_DIR:-${FLOE_SOURCE_DIR:-.}/../shared}/fixtures/pyiceberg_column_defaults"
if [ -d "$FX" ]; then
    FX=$(cd "$FX" && pwd)
    D() { "$FLOE_BIN" sql --warehouse "$T/wh" --format csv \
        --conf "io.location-map=data/persistent/add_columns_with_defaults/default.db/add_columns_with_defaults=$FX" "$@"; }
    D -c "CALL system.register_table('db.d', '$FX/metadata/00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json')" >/dev/null
    out=$(D -c "SELECT col1, col_boolean, col_integer, col_long, col_decimal, col_date, col_time, col_string, col_uuid FROM db.d WHERE col1 <> 'test' ORDER BY col1" 2>&1)
    eq "pyiceberg defaults" "$out" "col1,col_boolean,col_integer,col_long,col_decimal,col_date,col_time,col_string,col_uuid
click,true,342342,-9223372036854775808,12345.00,2003-10-20,00:00:00.012345,HELLO,f79c3e09-677c-4bbd-a479-3f349cb785e7
purchase,true,342342,-9223372036854775808,12345.00,2003-10-20,00:00:00.012345,HELLO,f79c3e09-677c-4bbd-a479-3f349cb785e7"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
