// SPDX-License-Identifier: Apache-2.0
// icebird (hyparam's independent Iceberg reader) reads a floe table over the
// same S3 endpoint floe wrote it to: tests/interop/s3_server.mjs (s3rver
// behind floe's SigV4-verifying proxy). icebird only reads over fetch() and
// rewrites s3://bucket/key to https://bucket.s3.amazonaws.com/key; this shim
// turns those into SigV4-signed path-style GETs to 127.0.0.1:PORT and
// refuses every other address, so nothing leaves the machine.
//
//   node s3_icebird.mjs PORT s3://bucket/.../vN.metadata.json COLUMN INDEX|current ...
//
// Prints `INDEX ROWCOUNT v1,v2,...` (COLUMN values sorted) per INDEX.
import { createHash, createHmac } from 'node:crypto'
import { SignatureV4 } from '@smithy/signature-v4'

const [port, metaUri, column, ...which] = process.argv.slice(2)
if (!port || !metaUri || !column || which.length === 0) {
  console.error('usage: s3_icebird.mjs PORT METADATA_URI COLUMN INDEX...')
  process.exit(2)
}
class Sha256 {
  constructor (secret) { this.h = secret ? createHmac('sha256', secret) : createHash('sha256') }
  update (d) { this.h.update(d) }
  async digest () { return new Uint8Array(this.h.digest()) }
}
const signer = new SignatureV4({
  service: 's3', region: 'us-east-1', sha256: Sha256, uriEscapePath: false,
  credentials: { accessKeyId: 'FLOETESTKEY', secretAccessKey: 'floe/test+SECRET=key' }
})
const EMPTY = createHash('sha256').digest('hex')
const realFetch = globalThis.fetch

function bucketKey (url) {
  const s = String(url instanceof URL ? url.href : (url.url ?? url))
  let m = /^s3a?:\/\/([^/]+)\/(.*)$/.exec(s)
  if (m) return [m[1], m[2]]
  m = /^https:\/\/([^.]+)\.s3\.amazonaws\.com\/(.*)$/.exec(s)
  if (m) return [m[1], m[2]]
  throw new Error(`refusing to fetch ${s}: only the local S3 endpoint`)
}

function header (init, name) {
  const h = init?.headers
  if (!h) return undefined
  if (typeof h.get === 'function') return h.get(name) ?? undefined
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return v
  return undefined
}

// S3's canonical URI: every path segment percent-encoded once (RFC 3986).
const enc = k => k.split('/').map(seg => encodeURIComponent(decodeURIComponent(seg))
  .replace(/[!'()*]/g, c => '%' + c.charCodeAt(0).toString(16).toUpperCase())).join('/')

async function s3fetch (url, init) {
  const [bucket, rawKey] = bucketKey(url)
  const key = enc(rawKey)
  const method = init?.method ?? 'GET'
  const headers = { host: `127.0.0.1:${port}`, 'x-amz-content-sha256': EMPTY }
  const range = header(init, 'range')
  if (range) headers.range = range
  const signed = await signer.sign({
    method, protocol: 'http:', hostname: '127.0.0.1', port: Number(port),
    path: `/${bucket}/${key}`, query: {}, headers
  })
  const h = { ...signed.headers }
  delete h.host
  return realFetch(`http://127.0.0.1:${port}/${bucket}/${key}`, { method, headers: h })
}
globalThis.fetch = s3fetch

const res = await s3fetch(metaUri)
if (!res.ok) { console.error(`GET ${metaUri}: HTTP ${res.status}`); process.exit(1) }
const text = await res.text()
const { icebergRead } = await import('icebird')
for (const w of which) {
  const metadata = JSON.parse(text)
  if (w !== 'current') {
    const snap = metadata.snapshots[Number(w)]
    if (!snap) { console.error(`no snapshot at index ${w}`); process.exit(1) }
    metadata['current-snapshot-id'] = snap['snapshot-id']
    if (metadata.refs?.main) metadata.refs.main['snapshot-id'] = snap['snapshot-id']
  }
  const rows = await icebergRead({ tableUrl: metadata.location, metadata })
  console.log(`${w} ${rows.length} ${rows.map(r => String(r[column])).sort().join(',')}`)
}
