// SPDX-License-Identifier: Apache-2.0
//
// Local S3 for floe's S3 FileIO tests and benchmark, on 127.0.0.1 only:
// s3rver (an S3 emulator) behind a loopback proxy that RECOMPUTES every
// request's AWS SigV4 signature with AWS's own JavaScript signer
// (@smithy/signature-v4) and rejects mismatches with 403
// SignatureDoesNotMatch. s3rver 3.7.1 accepts any signature, so without the
// proxy a broken signer would pass.
//
// Usage: node --openssl-legacy-provider s3_server.mjs <data-dir>
// (s3rver's ListObjectsV2 continuation tokens use DES, which OpenSSL 3 only
// offers in its legacy provider.) AbortMultipartUpload, which s3rver lacks,
// is emulated by the proxy.
// Prints one JSON line {"port": P} (the proxy; random free port) on stdout
// and runs until its stdin closes (the test holds the pipe), so it never
// outlives the test. Bucket "bucket" exists at start.
//
// Credentials: access key FLOETESTKEY, secret "floe/test+SECRET=key"
// (rewritten to s3rver's own S3RVER pair when forwarding).
//
// Test controls (unsigned, answered by the proxy, never forwarded):
//   GET /__floe/fault?mode=M&count=N[&method=GET][&match=substr][&status=503][&code=SlowDown][&ms=2000]
//     Queue a fault for the next N requests whose method and URL match:
//       status   answer with an S3 XML error of that HTTP status (500, 503, ...) and code
//       slow     wait `ms` milliseconds before forwarding
//       truncate forward, then send only half of the response body and cut the connection
//       reset    destroy the connection without answering
//   GET /__floe/clear   drop queued faults
//   GET /__floe/stats   {"connections" (TCP connections accepted), "if_none_match" (requests
//                        carrying If-None-Match: *), "upstream_errors", "last_upstream_error",
//                        "verified", "rejected", "last_rejection", "open_uploads",
//                        "aborted_uploads", "completed_uploads", "faults_applied"}
// Virtual-host requests: Host <bucket>.s3.localhost:<port> (s3rver's serviceEndpoint is "localhost").

import { createServer, request as httpRequest } from 'node:http'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { createRequire } from 'node:module'
import { SignatureV4, getCanonicalHeaders } from '@smithy/signature-v4'
import { escapeUri } from '@smithy/core/protocols'

const require = createRequire(import.meta.url)
const S3rver = require('s3rver')

const ACCESS = 'FLOETESTKEY'
const SECRET = 'floe/test+SECRET=key'
const dataDir = process.argv[2]
if (!dataDir) { console.error('usage: node s3_server.mjs <data-dir>'); process.exit(2) }

class Sha256 {
  constructor (secret) { this.h = secret ? createHmac('sha256', secret) : createHash('sha256') }
  update (d) { this.h.update(d) }
  async digest () { return new Uint8Array(this.h.digest()) }
}

const stats = { connections: 0, if_none_match: 0, upstream_errors: 0, last_upstream_error: '', verified: 0, rejected: 0, last_rejection: '', open_uploads: 0, aborted_uploads: 0, completed_uploads: 0, faults_applied: 0 }
const openUploads = new Set()
let faults = []

function xmlEsc (s) { return String(s).replace(/[<>&'"]/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' }[c])) }
function sendError (res, status, code, message) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEsc(message)}</Message></Error>\n`
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

function parseQuery (raw) {
  const q = {}
  for (const part of (raw || '').split('&')) {
    if (!part) continue
    const i = part.indexOf('=')
    const k = decodeURIComponent(i < 0 ? part : part.slice(0, i))
    const v = i < 0 ? '' : decodeURIComponent(part.slice(i + 1))
    q[k] = k in q ? [].concat(q[k], v) : v
  }
  return q
}

// Returns null when the signature is valid, else [status, code, message].
async function verify (req, body) {
  const auth = req.headers.authorization
  if (!auth) return [403, 'AccessDenied', 'anonymous request']
  const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(auth)
  if (!m) return [400, 'AuthorizationHeaderMalformed', 'malformed Authorization header']
  const [, credential, signedHeaders, signature] = m
  const [ak, scopeDate, region, service, term] = credential.split('/')
  if (ak !== ACCESS) return [403, 'InvalidAccessKeyId', 'unknown access key']
  if (service !== 's3' || term !== 'aws4_request') return [400, 'AuthorizationHeaderMalformed', 'bad scope']
  const longDate = req.headers['x-amz-date']
  if (!longDate || longDate.slice(0, 8) !== scopeDate) return [403, 'SignatureDoesNotMatch', 'x-amz-date missing or not matching the scope']
  const t = Date.UTC(+longDate.slice(0, 4), +longDate.slice(4, 6) - 1, +longDate.slice(6, 8), +longDate.slice(9, 11), +longDate.slice(11, 13), +longDate.slice(13, 15))
  if (Math.abs(Date.now() - t) > 15 * 60 * 1000) return [403, 'RequestTimeTooSkewed', 'clock skew']
  const signed = signedHeaders.split(';')
  if (!signed.includes('host')) return [403, 'AccessDenied', 'host not signed']
  const unsignedAmz = Object.keys(req.headers).filter(h => h.startsWith('x-amz-') && !signed.includes(h))
  if (unsignedAmz.length) return [403, 'AccessDenied', `unsigned x-amz headers: ${unsignedAmz}`]
  const payloadHash = req.headers['x-amz-content-sha256']
  if (!payloadHash) return [400, 'InvalidRequest', 'x-amz-content-sha256 missing']
  if (payloadHash !== 'UNSIGNED-PAYLOAD') {
    const actual = createHash('sha256').update(body).digest('hex')
    if (actual !== payloadHash) return [400, 'XAmzContentSHA256Mismatch', 'payload hash mismatch']
  }
  const [rawPath, rawQuery = ''] = req.url.split(/\?(.*)/s)
  // S3 canonical path: each segment decoded then escaped once, no normalisation.
  const path = rawPath.split('/').map(s => escapeUri(decodeURIComponent(s))).join('/')
  const headers = {}
  for (const h of signed) {
    if (req.headers[h] === undefined) return [403, 'SignatureDoesNotMatch', `signed header ${h} absent`]
    headers[h] = String(req.headers[h])
  }
  const signer = new SignatureV4({ service: 's3', region, credentials: { accessKeyId: ACCESS, secretAccessKey: SECRET }, sha256: Sha256, uriEscapePath: false })
  const canonical = signer.createCanonicalRequest({ method: req.method, path, query: parseQuery(rawQuery), headers },
    getCanonicalHeaders({ headers }, undefined, new Set(signed)), payloadHash)
  const scope = `${scopeDate}/${region}/s3/aws4_request`
  const expected = await signer.getSignature(longDate, scope, signer.getSigningKey({ accessKeyId: ACCESS, secretAccessKey: SECRET }, region, scopeDate, 's3'), canonical)
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return [403, 'SignatureDoesNotMatch', `expected canonical request: ${canonical}`]
  }
  return null
}

function control (req, res) {
  const [p, raw] = req.url.split('?')
  const q = parseQuery(raw)
  if (p === '/__floe/fault') {
    faults.push({ mode: q.mode, count: +(q.count || 1), method: q.method, match: q.match, status: +(q.status || 503), code: q.code, ms: +(q.ms || 2000) })
  } else if (p === '/__floe/clear') {
    faults = []
  } else if (p !== '/__floe/stats') {
    res.writeHead(404); res.end(); return
  }
  stats.open_uploads = openUploads.size
  const body = JSON.stringify(stats)
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

function takeFault (req) {
  for (const f of faults) {
    if (f.count <= 0) continue
    if (f.method && f.method !== req.method) continue
    if (f.match && !decodeURIComponent(req.url).includes(f.match)) continue
    f.count--
    stats.faults_applied++
    return f
  }
  return null
}

function trackUploads (req, status, body) {
  const q = parseQuery(req.url.split('?')[1])
  if (req.method === 'POST' && 'uploads' in q && status === 200) {
    const m = /<UploadId>([^<]+)<\/UploadId>/.exec(body.toString())
    if (m) openUploads.add(m[1])
  } else if (req.method === 'POST' && q.uploadId && status === 200) {
    if (openUploads.delete(q.uploadId)) stats.completed_uploads++
  }
}

async function main () {
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dataDir, serviceEndpoint: 'localhost', configureBuckets: [{ name: 'bucket' }] })
  const { port: upstreamPort } = await s3.run()

  const proxy = createServer(async (req, res) => {
    if (req.url.startsWith('/__floe/')) return control(req, res)
    const chunks = []
    for await (const c of req) chunks.push(c)
    const body = Buffer.concat(chunks)
    let verdict
    try { verdict = await verify(req, body) } catch (e) { verdict = [400, 'InvalidRequest', `verifier: ${e.message}`] }
    if (verdict) {
      stats.rejected++
      stats.last_rejection = `${req.method} ${req.url}: ${verdict[1]} ${verdict[2]}`
      return sendError(res, ...verdict)
    }
    stats.verified++
    if (req.headers['if-none-match'] === '*') stats.if_none_match++
    const fault = takeFault(req)
    if (fault?.mode === 'status') return sendError(res, fault.status, fault.code || (fault.status === 503 ? 'SlowDown' : 'InternalError'), 'injected by s3_server.mjs')
    if (fault?.mode === 'reset') return req.socket.destroy()
    if (fault?.mode === 'slow') await new Promise(resolve => setTimeout(resolve, fault.ms))
    const q = parseQuery(req.url.split('?')[1])
    if (req.method === 'DELETE' && q.uploadId) {
      // s3rver 3.7.1 has no AbortMultipartUpload: emulate it here.
      if (!openUploads.delete(q.uploadId)) return sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.')
      stats.aborted_uploads++
      res.writeHead(204); return res.end()
    }
    const headers = { ...req.headers, authorization: req.headers.authorization.replace(`Credential=${ACCESS}/`, 'Credential=S3RVER/'), 'content-length': String(body.length) }
    delete headers['transfer-encoding']
    const up = httpRequest({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers }, upRes => {
      const parts = []
      upRes.on('data', c => parts.push(c))
      upRes.on('end', () => {
        const out = Buffer.concat(parts)
        trackUploads(req, upRes.statusCode, out)
        if (upRes.statusCode >= 500) { stats.upstream_errors++; stats.last_upstream_error = `${req.method} ${req.url}: ${upRes.statusCode} ${out.toString().slice(0, 300)}` }
        const h = { ...upRes.headers }
        if (req.method !== 'HEAD') { h['content-length'] = String(out.length); delete h['transfer-encoding'] }
        if (res.destroyed) return
        res.writeHead(upRes.statusCode, h)
        if (fault?.mode === 'truncate' && out.length > 1) {
          res.write(out.subarray(0, out.length >> 1), () => res.socket.destroy())
        } else {
          res.end(out)
        }
      })
    })
    up.on('error', e => sendError(res, 502, 'BadGateway', e.message))
    up.end(body)
  })
  proxy.keepAliveTimeout = 30000
  proxy.on('connection', () => { stats.connections++ })
  proxy.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ port: proxy.address().port }) + '\n')
  })
  const stop = async () => { proxy.close(); proxy.closeAllConnections?.(); await s3.close().catch(() => {}); process.exit(0) }
  process.stdin.on('end', stop)
  process.stdin.on('close', stop)
  process.stdin.resume()
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, stop)
}

main().catch(e => { console.error(e); process.exit(1) })
