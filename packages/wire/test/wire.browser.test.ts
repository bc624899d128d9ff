/**
 * The browser build, in real Chromium: the package's `browser` conditions must pick the pure-JS
 * CRC32C and the Compression Streams gzip, and both must agree with Node byte for byte.
 */
import { describe, expect, it } from 'vitest'
import {
  CorruptRecordError,
  codecFor,
  crc32c,
  crc32cImplementation,
  decodeRecordBatch,
  decodeRecordBatchSync,
  encodeRecordBatch,
  RecordTooLargeError,
  validateBatchRecords,
  verifyBatchCrc,
} from '../src/index.ts'
import { CRC32C_VECTORS, HAND_BATCH, NODE_GZIP_BATCH, utf8 } from './fixtures.ts'

describe('wire > browser', () => {
  it('resolves the JavaScript CRC32C', () => {
    expect(typeof window).toBe('object')
    expect(crc32cImplementation).toBe('js')
  })

  it.each(CRC32C_VECTORS)('crc32c: %s', (_, data, expected) => {
    expect(crc32c(data)).toBe(expected)
  })

  it('verifies and decodes the hand-checked batch', () => {
    expect(verifyBatchCrc(HAND_BATCH)).toBe(true)
    const { records } = decodeRecordBatchSync(HAND_BATCH)
    expect(records.map((r) => [r.offset, r.key, r.value])).toEqual([
      [5, utf8('k'), utf8('hello')],
      [6, null, new Uint8Array(0)],
    ])
  })

  it('gzip round-trips through CompressionStream with a byte cap', async () => {
    const gzip = codecFor('gzip')!
    const data = utf8('browser '.repeat(500))
    const compressed = await gzip.compress(data)
    expect(await gzip.decompress(compressed, data.length)).toEqual(data)
    await expect(gzip.decompress(compressed, data.length - 1)).rejects.toBeInstanceOf(RecordTooLargeError)
    await expect(gzip.decompress(utf8('not gzip'), 100)).rejects.toBeInstanceOf(CorruptRecordError)
  })

  it('decodes a gzip batch produced by Node', async () => {
    await validateBatchRecords(NODE_GZIP_BATCH, 0, { sequentialOffsets: true })
    const { header, records } = await decodeRecordBatch(NODE_GZIP_BATCH)
    expect(header).toMatchObject({ compression: 'gzip', baseOffset: 100, recordCount: 3 })
    expect(records.map((r) => [r.offset, r.key, r.value, r.headers, r.timestamp])).toEqual([
      [100, utf8('alpha'), utf8('first value'), [{ key: 'content-type', value: utf8('text/plain') }], 1700000000000],
      [101, null, new Uint8Array(0), [], 1700000000007],
      [102, utf8('gamma'), null, [{ key: 'ключ', value: null }], 1700000000003],
    ])
  })

  it('round-trips a gzip batch encoded in the browser', async () => {
    const records = Array.from({ length: 20 }, (_, i) => ({ key: utf8(`k${i}`), value: utf8(`v${i}`), timestamp: i }))
    const bytes = await encodeRecordBatch({ records, compression: 'gzip' })
    expect(verifyBatchCrc(bytes)).toBe(true)
    const decoded = await decodeRecordBatch(bytes)
    expect(decoded.records.map((r) => r.value)).toEqual(records.map((r) => r.value))
  })
})
