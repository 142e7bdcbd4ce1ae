// SPDX-License-Identifier: Apache-2.0
// iceberg-js 0.8.1 against `floe serve --warehouse` (SQLite catalog): the
// table shop.orders was created and appended to by floe's REST client; this
// third-party client must list namespaces, create one, load the table and
// see its snapshots, and get the spec's errors for missing objects.
// usage: node rest_warehouse_js.mjs <base-url> <token> <snapshot-count>
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(path.join(process.env.FLOE_SOURCE_DIR, 'tests/interop/node_modules/'))
const { IcebergRestCatalog, IcebergError } = require('iceberg-js')

const [base, token, nsnap] = process.argv.slice(2)
let passed = 0, failed = 0
const ok = (name, cond, detail = '') => {
  if (cond) { passed++; console.log(`PASS ${name}`) } else { failed++; console.log(`FAIL ${name} ${detail}`) }
}
async function expectError(name, fn, status, type) {
  try {
    await fn()
    ok(name, false, 'succeeded')
  } catch (e) {
    const good = e instanceof IcebergError && e.status === status && e.icebergType === type
    ok(name, good, `${e?.name} status=${e?.status} type=${e?.icebergType} ${e?.message}`)
  }
}

try {
  const catalog = new IcebergRestCatalog({ baseUrl: base, auth: { type: 'bearer', token } })
  const list = await catalog.listNamespaces()
  ok('listNamespaces sees floe namespace', list.some(n => n.namespace.join('.') === 'shop'), JSON.stringify(list))
  await catalog.createNamespace({ namespace: ['fromjs'] }, { properties: { owner: 'js' } })
  ok('createNamespace', (await catalog.loadNamespaceMetadata({ namespace: ['fromjs'] })).properties.owner === 'js')
  ok('listTables', (await catalog.listTables({ namespace: ['shop'] })).some(t => t.name === 'orders'))
  const md = await catalog.loadTable({ namespace: ['shop'], name: 'orders' })
  ok('loadTable snapshots', Array.isArray(md.snapshots) && md.snapshots.length === Number(nsnap),
    `${md.snapshots?.length}`)
  const cur = md['current-snapshot-id']
  ok('current snapshot is the last append', md.snapshots.some(s => s['snapshot-id'] === cur &&
    s.summary.operation === 'append'))
  ok('manifest lists inside the warehouse', md.snapshots.every(s => typeof s['manifest-list'] === 'string'))
  ok('partition spec', md['partition-specs'][0].fields[0].name === 'order_date')
  ok('tableExists', await catalog.tableExists({ namespace: ['shop'], name: 'orders' }))
  await expectError('missing table 404', () => catalog.loadTable({ namespace: ['shop'], name: 'nope' }),
    404, 'NoSuchTableException')
  await expectError('missing namespace 404', () => catalog.loadNamespaceMetadata({ namespace: ['nope'] }),
    404, 'NoSuchNamespaceException')
  await expectError('tables of missing namespace 404', () => catalog.listTables({ namespace: ['nope'] }),
    404, 'NoSuchNamespaceException')
  await expectError('existing namespace 409', () => catalog.createNamespace({ namespace: ['shop'] }),
    409, 'AlreadyExistsException')
  await expectError('drop non-empty namespace 409', () => catalog.dropNamespace({ namespace: ['shop'] }),
    409, 'NamespaceNotEmptyException')
  await catalog.dropNamespace({ namespace: ['fromjs'] })
  ok('dropNamespace', !(await catalog.namespaceExists({ namespace: ['fromjs'] })))
} catch (e) {
  ok('no exception', false, `${e?.stack || e}`)
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
