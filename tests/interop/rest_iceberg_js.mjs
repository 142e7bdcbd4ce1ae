// SPDX-License-Identifier: Apache-2.0
// Drives `floe serve --memory` with iceberg-js (Supabase's independent REST
// catalog client): config, namespaces, tables, a commit with requirements,
// and the spec's error model for missing objects and conflicts.
// usage: node rest_iceberg_js.mjs <base-url> <token>
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(path.join(process.env.FLOE_SOURCE_DIR, 'tests/interop/node_modules/'))
const { IcebergRestCatalog, IcebergError } = require('iceberg-js')

const [base, token] = process.argv.slice(2)
let passed = 0, failed = 0
const ok = (name, cond, detail = '') => {
  if (cond) { passed++; console.log(`PASS ${name}`) } else { failed++; console.log(`FAIL ${name} ${detail}`) }
}
const auth = { Authorization: `Bearer ${token}` }

async function expectError(name, fn, status, type) {
  try {
    await fn()
    ok(name, false, 'succeeded')
  } catch (e) {
    const good = e instanceof IcebergError && e.status === status && e.icebergType === type &&
      e.icebergCode === status && typeof e.details?.error?.message === 'string'
    ok(name, good, `${e?.name} status=${e?.status} type=${e?.icebergType} code=${e?.icebergCode} ${e?.message}`)
  }
}

try {
  const cfgRes = await fetch(`${base}/v1/config`, { headers: auth })
  const cfg = await cfgRes.json()
  ok('config 200 json', cfgRes.status === 200 && (cfgRes.headers.get('content-type') || '').includes('application/json'))
  const prefix = cfg?.overrides?.prefix
  ok('config prefix', prefix === 'wh', JSON.stringify(cfg))

  const catalog = new IcebergRestCatalog({ baseUrl: base, catalogName: prefix, auth: { type: 'bearer', token } })
  const ns = { namespace: ['interop'] }
  ok('listNamespaces empty', (await catalog.listNamespaces()).length === 0)
  const created = await catalog.createNamespace(ns, { properties: { owner: 'iceberg-js' } })
  ok('createNamespace echoes', created.namespace.join('.') === 'interop')
  ok('loadNamespaceMetadata', (await catalog.loadNamespaceMetadata(ns)).properties.owner === 'iceberg-js')
  ok('namespaceExists', await catalog.namespaceExists(ns))
  ok('listNamespaces', (await catalog.listNamespaces()).some(n => n.namespace.join('.') === 'interop'))

  const md = await catalog.createTable(ns, {
    name: 'events',
    schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: true }, { id: 2, name: 'v', type: 'string', required: false }] },
  })
  ok('createTable', md['format-version'] === 2 && typeof md['table-uuid'] === 'string' && md['last-column-id'] === 2)
  const id = { namespace: ['interop'], name: 'events' }
  ok('tableExists', await catalog.tableExists(id))
  ok('listTables', (await catalog.listTables(ns)).some(t => t.name === 'events'))

  // A snapshot id above 2^53 goes through a raw request to keep its digits.
  const snap = '3051729675574597004'
  const body = `{"requirements":[{"type":"assert-table-uuid","uuid":"${md['table-uuid']}"},` +
    `{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}],"updates":[` +
    `{"action":"add-snapshot","snapshot":{"snapshot-id":${snap},"sequence-number":1,"timestamp-ms":1700000000000,` +
    `"manifest-list":"memory://interop/snap.avro","summary":{"operation":"append"}}},` +
    `{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":${snap}}]}`
  const commitRes = await fetch(`${base}/v1/${prefix}/namespaces/interop/tables/events`,
    { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body })
  const commitText = await commitRes.text()
  ok('commit 200 with exact id', commitRes.status === 200 && commitText.includes(`"current-snapshot-id":${snap}`), commitText.slice(0, 200))

  const loaded = await catalog.loadTable(id)
  ok('loadTable sees the snapshot', loaded.snapshots?.length === 1 && loaded.refs?.main?.type === 'branch')

  // iceberg-js's own commit: stale base -> 409 CommitFailedException
  await expectError('updateTable stale -> 409 CommitFailedException', () => catalog.updateTable(id, {
    requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }],
    updates: [{ action: 'set-properties', updates: { k: 'v' } }],
  }), 409, 'CommitFailedException')
  const upd = await catalog.updateTable(id, {
    requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 0 }],
    updates: [{ action: 'set-properties', updates: { k: 'v' } }],
  })
  ok('updateTable', upd.metadata?.properties?.k === 'v' && typeof upd['metadata-location'] === 'string')

  await expectError('loadTable missing -> 404 NoSuchTableException', () => catalog.loadTable({ namespace: ['interop'], name: 'nope' }), 404, 'NoSuchTableException')
  await expectError('listTables missing ns -> 404 NoSuchNamespaceException', () => catalog.listTables({ namespace: ['nope'] }), 404, 'NoSuchNamespaceException')
  await expectError('loadNamespaceMetadata missing -> 404', () => catalog.loadNamespaceMetadata({ namespace: ['nope'] }), 404, 'NoSuchNamespaceException')
  await expectError('createNamespace duplicate -> 409', () => catalog.createNamespace(ns), 409, 'AlreadyExistsException')
  await expectError('createTable duplicate -> 409', () => catalog.createTable(ns, { name: 'events', schema: { type: 'struct', fields: [] } }), 409, 'AlreadyExistsException')
  await expectError('dropNamespace non-empty -> 409', () => catalog.dropNamespace(ns), 409, 'NamespaceNotEmptyException')
  await expectError('dropTable missing -> 404', () => catalog.dropTable({ namespace: ['interop'], name: 'nope' }), 404, 'NoSuchTableException')

  const wrong = new IcebergRestCatalog({ baseUrl: base, catalogName: prefix, auth: { type: 'bearer', token: 'wrong' } })
  await expectError('wrong token -> 401', () => wrong.listNamespaces(), 401, 'NotAuthorizedException')
  const none = new IcebergRestCatalog({ baseUrl: base, catalogName: prefix })
  await expectError('no token -> 401', () => none.listNamespaces(), 401, 'NotAuthorizedException')

  await catalog.dropTable(id, { purge: true })
  ok('tableExists after drop', !(await catalog.tableExists(id)))
  await catalog.dropNamespace(ns)
  ok('namespaceExists after drop', !(await catalog.namespaceExists(ns)))
} catch (e) {
  failed++
  console.log(`FAIL unexpected ${e?.name}: ${e?.message} status=${e?.status} type=${e?.icebergType}`)
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
