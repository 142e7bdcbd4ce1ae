// SPDX-License-Identifier: Apache-2.0
// Run one DuckDB query (argv[2]) 5 times and print {"rows": [...], "ns":
// <median query time>}: the peer of bench/sql_shell.c (aggregates over a
// floe table's Parquet files).
import { createRequire } from 'node:module';
const require = createRequire(process.env.FLOE_SOURCE_DIR + '/tests/interop/node_modules/');
const { DuckDBInstance } = require('@duckdb/node-api');
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const times = [];
let rows;
for (let i = 0; i < 5; i++) {
  const t0 = process.hrtime.bigint();
  const r = await con.runAndReadAll(process.argv[2]);
  const ns = Number(process.hrtime.bigint() - t0);
  rows = r.getRowObjectsJson();
  times.push(ns);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ rows, ns: times[2] }));
