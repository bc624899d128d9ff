/**
 * Visiting a batch hands each record's fields to a callback after exactly the checks decoding
 * applies (one walker serves both): the same offsets, timestamps, keys, values and headers as
 * decodeRecordBatch, compressed or not, and the same typed errors for bad bytes.
 */
import { describe, expect, it } from 'vitest'
import {
  CorruptRecordError,
  decodeRecordBatch,
  encodeRecordBatch,
  encodeRecordBatchSync,
  type RecordHeader,
  UnsupportedCompressionError,
  visitRecordBatch,
  visitRecordBatchSync,
} from '../src/index.ts'
import { utf8 } from './fixtures.ts'

interface Seen {
  offset: number
  timestamp: number
  key: Uint8Array | null
  value: Uint8Array | null
  headers: RecordHeader[] | null
}

const input = [
  { key: utf8('a'), value: utf8('1'), timestamp: 300, headers: [{ key: 'h', value: utf8('x') }] },
  { key: null, value: null, timestamp: 100 },
  { value: utf8('3'), timestamp: 200, offsetDelta: 5 },
]

describe('record batch > visit', () => {
  for (const compression of ['none', 'gzip'] as const) {
    it(`hands over what decoding builds (${compression})`, async () => {
      const bytes = await encodeRecordBatch({ baseOffset: 40, compression, records: input })
      const seen: Seen[] = []
      const header = await visitRecordBatch(bytes, 0, (offset, timestamp, key, value, headers) => {
        seen.push({ offset, timestamp, key, value, headers })
      })
      const decoded = await decodeRecordBatch(bytes)
      expect(header).toEqual(decoded.header)
      expect(seen).toEqual(
        decoded.records.map((r) => ({
          offset: r.offset,
          timestamp: r.timestamp,
          key: r.key,
          value: r.value,
          headers: r.headers.length === 0 ? null : r.headers,
        })),
      )
      expect(seen.map((s) => s.offset)).toEqual([40, 41, 45])
    })
  }

  it('visits synchronously when uncompressed, and points at the async form for compressed batches', async () => {
    const plain = encodeRecordBatchSync({ records: input })
    let count = 0
    visitRecordBatchSync(plain, 0, () => {
      count++
    })
    expect(count).toBe(3)
    const zipped = await encodeRecordBatch({ compression: 'gzip', records: input })
    expect(() => visitRecordBatchSync(zipped, 0, () => {})).toThrow(UnsupportedCompressionError)
  })

  it('refuses a corrupted batch before visiting any record', () => {
    const bytes = encodeRecordBatchSync({ records: input })
    bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff
    let visited = 0
    expect(() =>
      visitRecordBatchSync(bytes, 0, () => {
        visited++
      }),
    ).toThrow(CorruptRecordError)
    expect(visited).toBe(0)
  })
})
