// SPDX-License-Identifier: Apache-2.0
// Decode an Avro container file with avsc 5.7.9 and print one JSON line per
// record: 64-bit longs exact (BigInt), bytes as "0x<hex>", NaN/Infinity as
// strings — the rendering avro_check.py compares with python3-avro's.
// Codecs: null and deflate (avsc built-in), snappy (hyparquet's decoder,
// Avro's 4-byte CRC32 trailer stripped) and zstandard (fzstd via
// hyparquet-compressors).
//
// usage: node avro_dump.mjs FILE.avro [--time]   (--time: print only CPU ms and count)
import avro from 'avsc'
import { snappyUncompress } from 'hyparquet'
import { decompressZstd } from 'hyparquet-compressors'
import zlib from 'node:zlib'

const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => {
    const buf = Buffer.alloc(8)
    buf.writeBigInt64LE(BigInt(n))
    return buf
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) => (a === b ? 0 : a < b ? -1 : 1),
})

function snappyLength(buf) {
  let len = 0
  let shift = 0
  for (let i = 0; i < buf.length && i < 5; i++) {
    len |= (buf[i] & 0x7f) << shift
    if (!(buf[i] & 0x80)) return len >>> 0
    shift += 7
  }
  throw new Error('bad snappy length')
}

const codecs = {
  null: (buf, cb) => cb(null, buf),
  deflate: (buf, cb) => zlib.inflateRaw(buf, cb),
  snappy: (buf, cb) => {
    try {
      const body = buf.subarray(0, buf.length - 4)
      const out = new Uint8Array(snappyLength(body))
      snappyUncompress(body, out)
      cb(null, Buffer.from(out))
    } catch (e) {
      cb(e)
    }
  },
  zstandard: (buf, cb) => {
    try {
      cb(null, Buffer.from(decompressZstd(buf)))
    } catch (e) {
      cb(e)
    }
  },
}

function render(rec) {
  const s = JSON.stringify(rec, (k, v) => {
    if (typeof v === 'bigint') return `__BIG__${v}__`
    if (typeof v === 'number' && !Number.isFinite(v))
      return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity'
    if (v && v.type === 'Buffer' && Array.isArray(v.data))
      return '0x' + Buffer.from(v.data).toString('hex')
    return v
  })
  return s.replace(/"__BIG__(-?\d+)__"/g, '$1')
}

const file = process.argv[2]
const timeOnly = process.argv.includes('--time')
if (!file) {
  console.error('usage: node avro_dump.mjs FILE.avro [--time]')
  process.exit(2)
}
const t0 = process.cpuUsage()
let n = 0
const out = []
avro
  .createFileDecoder(file, {
    codecs,
    parseHook: (schema) => avro.Type.forSchema(schema, { registry: { long: longType } }),
  })
  .on('data', (rec) => {
    n++
    if (!timeOnly) out.push(render(rec))
  })
  .on('error', (e) => {
    console.error('avsc: ' + e.message)
    process.exit(1)
  })
  .on('end', () => {
    if (timeOnly) {
      const u = process.cpuUsage(t0)
      const ms = (u.user + u.system) / 1e3
      console.log(`${ms.toFixed(3)} ${n}`)
    } else {
      process.stdout.write(out.length ? out.join('\n') + '\n' : '')
    }
  })
