import { describe, expect, it } from 'vitest'
import * as gzipNode from '../src/gzip-node.ts'
import * as gzipWeb from '../src/gzip-web.ts'
import {
  CorruptRecordError,
  codecFor,
  decodeRecordBatch,
  encodeRecordBatch,
  RecordTooLargeError,
  UnsupportedCompressionError,
  validateBatchRecords,
} from '../src/index.ts'
import { NODE_GZIP_BATCH, utf8 } from './fixtures.ts'

const implementations = [
  ['node zlib', gzipNode],
  ['web CompressionStream', gzipWeb],
] as const

describe('wire > compression', () => {
  it('has no codec for none, gzip, and names the unsupported ones', () => {
    expect(codecFor('none')).toBeNull()
    expect(codecFor('gzip')).not.toBeNull()
    for (const name of ['snappy', 'lz4', 'zstd'] as const) {
      expect(() => codecFor(name)).toThrow(UnsupportedCompressionError)
      expect(() => codecFor(name)).toThrow(name)
    }
  })

  const data = utf8('tributary '.repeat(1000))

  for (const [name, gzip] of implementations) {
    describe(name, () => {
      it('round-trips, including empty input, and interoperates with the other implementation', async () => {
        for (const input of [data, new Uint8Array(0), new Uint8Array([0, 255, 1])]) {
          const compressed = await gzip.gzipCompress(input)
          expect(compressed.subarray(0, 2)).toEqual(new Uint8Array([0x1f, 0x8b]))
          expect(await gzip.gzipDecompress(compressed, input.length)).toEqual(input)
          for (const [, other] of implementations) {
            expect(await other.gzipDecompress(compressed, input.length)).toEqual(input)
          }
        }
      })

      it('returns plain Uint8Arrays', async () => {
        const out = await gzip.gzipDecompress(await gzip.gzipCompress(data), data.length)
        expect(Object.getPrototypeOf(out)).toBe(Uint8Array.prototype)
      })

      it('stops at the byte cap with RecordTooLargeError', async () => {
        const bomb = await gzipNode.gzipCompress(new Uint8Array(4 << 20))
        expect(bomb.length).toBeLessThan(8192)
        await expect(gzip.gzipDecompress(bomb, 1 << 16)).rejects.toBeInstanceOf(RecordTooLargeError)
        await expect(gzip.gzipDecompress(await gzip.gzipCompress(data), data.length - 1)).rejects.toBeInstanceOf(
          RecordTooLargeError,
        )
        await expect(gzip.gzipDecompress(await gzip.gzipCompress(utf8('x')), 0)).rejects.toBeInstanceOf(
          RecordTooLargeError,
        )
      })

      it('rejects invalid or truncated gzip data with CorruptRecordError', async () => {
        const compressed = await gzip.gzipCompress(data)
        await expect(gzip.gzipDecompress(utf8('not gzip at all'), 1000)).rejects.toBeInstanceOf(CorruptRecordError)
        await expect(
          gzip.gzipDecompress(compressed.subarray(0, compressed.length - 5), 1 << 20),
        ).rejects.toBeInstanceOf(CorruptRecordError)
      })
    })
  }

  it('decodes the fixed Node gzip batch', async () => {
    const { header, records } = await decodeRecordBatch(NODE_GZIP_BATCH)
    expect(header).toMatchObject({ compression: 'gzip', baseOffset: 100, recordCount: 3, producerId: 9 })
    expect(records.map((r) => [r.offset, r.key, r.value, r.headers, r.timestamp])).toEqual([
      [100, utf8('alpha'), utf8('first value'), [{ key: 'content-type', value: utf8('text/plain') }], 1700000000000],
      [101, null, new Uint8Array(0), [], 1700000000007],
      [102, utf8('gamma'), null, [{ key: 'ключ', value: null }], 1700000000003],
    ])
  })

  it('applies maxDecompressedBytes when decoding and validating batches', async () => {
    const bytes = await encodeRecordBatch({
      records: [{ value: new Uint8Array(100_000), timestamp: 0 }],
      compression: 'gzip',
    })
    await expect(decodeRecordBatch(bytes, 0, { maxDecompressedBytes: 50_000 })).rejects.toBeInstanceOf(
      RecordTooLargeError,
    )
    await expect(validateBatchRecords(bytes, 0, { maxDecompressedBytes: 50_000 })).rejects.toBeInstanceOf(
      RecordTooLargeError,
    )
    expect((await decodeRecordBatch(bytes, 0, { maxDecompressedBytes: 200_000 })).records[0]!.value!.length).toBe(
      100_000,
    )
  })
})
