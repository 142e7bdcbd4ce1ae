// SPDX-License-Identifier: Apache-2.0
// Read one Parquet data file of a floe table with nested columns through two
// independent readers and print what they see, one line per row:
//   node sql_nested_readers.mjs duckdb FILE     -> id|to_json(col)|... per row
//   node sql_nested_readers.mjs field-ids FILE  -> name=field_id per schema element
//   node sql_nested_readers.mjs hyparquet FILE  -> JSON object per row
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(process.env.FLOE_SOURCE_DIR + '/tests/interop/node_modules/');
const [cmd, file] = process.argv.slice(2);
const q = (s) => "'" + String(s).replaceAll("'", "''") + "'";

if (cmd === 'duckdb' || cmd === 'field-ids') {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  if (cmd === 'field-ids') {
    const r = await con.runAndReadAll(`SELECT name, field_id FROM parquet_schema(${q(file)})`);
    for (const row of r.getRowObjectsJson())
      if (row.field_id !== null) console.log(`${row.name}=${row.field_id}`);
  } else {
    const r = await con.runAndReadAll(
      `SELECT CAST(id AS VARCHAR) AS id, to_json(tags) AS t, to_json(attrs) AS a, ` +
      `to_json(addr) AS ad, to_json(nested) AS n FROM read_parquet(${q(file)}) ORDER BY id`);
    for (const row of r.getRowObjectsJson())
      console.log([row.id, row.t, row.a, row.ad, row.n].map((v) => (v === null ? 'NULL' : v)).join('|'));
  }
} else if (cmd === 'hyparquet') {
  const { parquetReadObjects } = require('hyparquet');
  const { compressors } = require('hyparquet-compressors');
  const buf = readFileSync(file);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const rows = await parquetReadObjects({ file: ab, compressors });
  rows.sort((x, y) => Number(x.id) - Number(y.id));
  const rep = (_k, v) => (typeof v === 'bigint' ? Number(v) : v);
  for (const row of rows) console.log(JSON.stringify(row, rep));
} else {
  console.error('usage: sql_nested_readers.mjs duckdb|field-ids|hyparquet FILE');
  process.exit(2);
}
