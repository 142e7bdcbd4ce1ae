// SPDX-License-Identifier: Apache-2.0
// Independent Parquet engines for floe's interop tests (DuckDB, hyparquet).
//
//   node parquet_engines.mjs duckdb-read FILE       -> JSON {columns, rows, field_ids, stats}
//   node parquet_engines.mjs hyparquet-read FILE    -> JSON {schema, rows}
//   node parquet_engines.mjs duckdb-write FILE "OPTIONS" "SELECT ..."
//   node parquet_engines.mjs duckdb-bench ROWS FILE  -> BENCH lines (single thread)
//
// Values are printed canonically so a C test can compare them exactly:
// integers, decimals as text; dates as days since epoch; times and
// timestamps as integer microseconds (nanoseconds for *_NS); binary, fixed
// and uuid as lowercase hex; strings as is.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const [cmd, ...args] = process.argv.slice(2);
const q = (s) => "'" + String(s).replaceAll("'", "''") + "'";
const ident = (s) => '"' + String(s).replaceAll('"', '""') + '"';
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join('');
const replacer = (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? hex(v) : v);

function canon(col, type) {
  const c = ident(col);
  if (/[[(]/.test(type.replace(/^DECIMAL\(\d+,\d+\)$/, 'DECIMAL')) || /^(STRUCT|MAP)/.test(type))
    return `CAST(to_json(${c}) AS VARCHAR)`;
  if (/^(DECIMAL|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|BOOLEAN)/.test(type))
    return `CAST(${c} AS VARCHAR)`;
  if (type === 'DATE') return `CAST((${c} - DATE '1970-01-01') AS VARCHAR)`;
  if (type === 'TIME') return `CAST(epoch_us(${c}) AS VARCHAR)`;
  if (type === 'TIME WITH TIME ZONE') return `CAST(epoch_us(CAST(${c} AS TIME)) AS VARCHAR)`;
  if (type === 'TIMESTAMP_NS') return `CAST(epoch_ns(${c}) AS VARCHAR)`;
  if (type.startsWith('TIMESTAMP')) return `CAST(epoch_us(${c}) AS VARCHAR)`;
  if (type === 'BLOB') return `lower(hex(${c}))`;
  if (type === 'UUID') return `replace(CAST(${c} AS VARCHAR), '-', '')`;
  if (type === 'FLOAT' || type === 'DOUBLE') return `CAST(${c} AS VARCHAR)`;
  if (type === 'VARCHAR') return c;
  return `CAST(to_json(${c}) AS VARCHAR)`;
}

async function duckdb() {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run('SET threads=1');
  await con.run("SET TimeZone='UTC'");
  return con;
}

async function duckdbRead(con, file) {
  const src = `read_parquet(${q(file)}, hive_partitioning=false)`;
  const desc = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`)).getRowsJson();
  const columns = desc.map((r) => ({ name: r[0], type: r[1] }));
  const sel = columns.map((c) => canon(c.name, c.type)).join(', ');
  const rows = (await con.runAndReadAll(`SELECT ${sel} FROM ${src}`)).getRowsJson();
  const ids = (await con.runAndReadAll(
    `SELECT name, CAST(field_id AS VARCHAR) FROM parquet_schema(${q(file)})`)).getRowsJson();
  const stats = (await con.runAndReadAll(
    `SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value, CAST(stats_null_count AS VARCHAR), compression
     FROM parquet_metadata(${q(file)}) ORDER BY row_group_id, column_id`)).getRowsJson();
  return { file, columns, rows, field_ids: ids, stats };
}

if (cmd === 'duckdb-read') {
  // One file: one JSON object. Several: one JSON object per line.
  const con = await duckdb();
  for (const file of args) console.log(JSON.stringify(await duckdbRead(con, file)));
} else if (cmd === 'hyparquet-read') {
  const buf = readFileSync(args[0]);
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const meta = parquetMetadata(file);
  const objects = await parquetReadObjects({
    file, compressors, utf8: false,
    parsers: {
      timestampFromMicroseconds: (v) => String(v),
      timestampFromMilliseconds: (v) => String(BigInt(v) * 1000n),
      timestampFromNanoseconds: (v) => String(v),
      dateFromDays: (v) => v,
      uuidFromBytes: (b) => b && hex(b),
      stringFromBytes: (b) => b && new TextDecoder().decode(b),
    },
  });
  const top = [];
  for (let i = 1, skip = 0; i < meta.schema.length; i++) {
    if (skip > 0) { skip += (meta.schema[i].num_children || 0) - 1; continue; }
    top.push(meta.schema[i].name);
    skip = meta.schema[i].num_children || 0;
  }
  const rows = objects.map((o) => top.map((n) => (o[n] === undefined ? null : o[n])));
  const schema = meta.schema.map((e) => ({
    name: e.name, field_id: e.field_id, type: e.type, repetition_type: e.repetition_type,
    converted_type: e.converted_type, logical_type: e.logical_type,
  }));
  console.log(JSON.stringify({ schema, num_rows: meta.num_rows, rows,
    key_value_metadata: meta.key_value_metadata }, replacer));
} else if (cmd === 'duckdb-write') {
  const [file, options, select] = args;
  const con = await duckdb();
  await con.run(`COPY (${select}) TO ${q(file)} (FORMAT parquet${options ? ', ' + options : ''})`);
} else if (cmd === 'duckdb-bench') {
  const [rows, file, out] = args;
  const con = await duckdb();
  const gen = `SELECT i::BIGINT AS l, (i * 0.5)::DOUBLE AS d, ((i % 100000) / 100)::DECIMAL(10,2) AS dec,
      (DATE '2000-01-01' + (i % 10000)::INTEGER) AS dt, 'name-' || (i % 1000)::VARCHAR AS s
      FROM range(${Number(rows)}) t(i)`;
  // The rows are materialised first (untimed) so both sides time encoding only.
  await con.run(`CREATE TABLE bench AS ${gen}`);
  let t0 = process.hrtime.bigint();
  await con.run(`COPY bench TO ${q(file)} (FORMAT parquet, COMPRESSION zstd)`);
  const write_ns = Number(process.hrtime.bigint() - t0);
  // Decoding: aggregate every column so each value is materialised.
  t0 = process.hrtime.bigint();
  await con.runAndReadAll(`SELECT sum(l), sum(d), sum(dec), max(dt), sum(length(s)) FROM read_parquet(${q(out || file)})`);
  const read_ns = Number(process.hrtime.bigint() - t0);
  console.log(JSON.stringify({ write_ns, read_ns }));
} else {
  console.error('usage: parquet_engines.mjs duckdb-read|hyparquet-read|duckdb-write|duckdb-bench ...');
  process.exit(2);
}
