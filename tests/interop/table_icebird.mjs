// SPDX-License-Identifier: Apache-2.0
// Read a floe-written table with icebird (hyparam's independent Iceberg
// reader) at several snapshots, for tests/unit/table/test_interop.c.
//
//   node table_icebird.mjs METADATA.json COLUMN INDEX [INDEX ...]
//
// INDEX is a position in the metadata's `snapshots` array (64-bit snapshot
// ids do not survive JSON.parse exactly, positions do) or `current`. For
// each, prints one line: `INDEX ROWCOUNT v1,v2,...` with the values of
// COLUMN sorted. icebird only reads over fetch(): fetch is replaced by a
// reader of local absolute paths (with Range and HEAD); anything else is
// refused, so nothing ever leaves the machine.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const [metaPath, column, ...which] = process.argv.slice(2)
if (!metaPath || !column || which.length === 0) {
  console.error('usage: table_icebird.mjs METADATA.json COLUMN INDEX...')
  process.exit(2)
}

function localPath (url) {
  const s = String(url instanceof URL ? url.href : (url.url ?? url))
  if (s.startsWith('file://')) return fileURLToPath(s)
  if (s.startsWith('/')) return s
  throw new Error(`refusing to fetch ${s}: only local paths`)
}

function header (init, name) {
  const h = init?.headers
  if (!h) return undefined
  if (typeof h.get === 'function') return h.get(name) ?? undefined
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return v
  return undefined
}

globalThis.fetch = async (url, init) => {
  let bytes
  try {
    bytes = await readFile(localPath(url))
  } catch (e) {
    return new Response(null, { status: 404, statusText: e.message })
  }
  const size = bytes.length
  if (init?.method === 'HEAD') {
    return new Response(null, { status: 200, headers: { 'content-length': String(size) } })
  }
  const range = header(init, 'range')
  if (range) {
    const m = /^bytes=(\d+)-(\d*)$/.exec(range)
    if (!m) return new Response(null, { status: 416 })
    const start = Number(m[1])
    const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
    const part = bytes.subarray(start, end + 1)
    return new Response(part, {
      status: 206,
      headers: { 'content-length': String(part.length), 'content-range': `bytes ${start}-${end}/${size}` }
    })
  }
  return new Response(bytes, { status: 200, headers: { 'content-length': String(size) } })
}

const { icebergRead } = await import('icebird')
const raw = JSON.parse(await readFile(metaPath, 'utf8'))
for (const w of which) {
  const metadata = structuredClone(raw)
  if (w !== 'current') {
    const snap = metadata.snapshots[Number(w)]
    if (!snap) { console.error(`no snapshot at index ${w}`); process.exit(1) }
    metadata['current-snapshot-id'] = snap['snapshot-id']
    if (metadata.refs?.main) metadata.refs.main['snapshot-id'] = snap['snapshot-id']
    if (snap['schema-id'] !== undefined) metadata['current-schema-id'] = snap['schema-id']
  }
  const rows = await icebergRead({ tableUrl: metadata.location, metadata })
  const values = rows.map(r => String(r[column])).sort()
  console.log(`${w} ${rows.length} ${values.join(',')}`)
}
