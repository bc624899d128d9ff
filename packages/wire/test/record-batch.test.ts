import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  batchSizeAt,
  CorruptRecordError,
  crc32c,
  decodeRecordBatch,
  decodeRecordBatchSync,
  encodeRecordBatch,
  encodeRecordBatchSync,
  InvalidRecordError,
  iterateBatches,
  type RecordInput,
  readBatchHeader,
  setBaseOffset,
  setLogAppendTime,
  setPartitionLeaderEpoch,
  UnsupportedCompressionError,
  verifyBatchCrc,
} from '../src/index.ts'
import { HAND_BATCH, reseal, utf8 } from './fixtures.ts'

const seal = (bytes: Uint8Array, pos = 0) => reseal(bytes, crc32c, pos)

function records(count: number, timestamp = 1_000): RecordInput[] {
  return Array.from({ length: count }, (_, i) => ({ key: utf8(`key-${i}`), value: utf8(`value-${i}`), timestamp }))
}

describe('record batch > encode', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('applies Kafka defaults for an idempotence-free producer batch', () => {
    const { header, records: decoded } = decodeRecordBatchSync(
      encodeRecordBatchSync({
        records: [
          { key: utf8('a'), value: utf8('1'), timestamp: 300 },
          { value: utf8('2'), timestamp: 100 },
          { value: utf8('3'), timestamp: 200 },
        ],
      }),
    )
    expect(header).toMatchObject({
      baseOffset: 0,
      partitionLeaderEpoch: -1,
      compression: 'none',
      timestampType: 'CreateTime',
      transactional: false,
      control: false,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      lastOffsetDelta: 2,
      firstTimestamp: 100,
      maxTimestamp: 300,
      recordCount: 3,
    })
    expect(decoded.map((r) => [r.offset, r.timestamp, r.timestampDelta, r.key])).toEqual([
      [0, 300, 200, utf8('a')],
      [1, 100, 0, null],
      [2, 200, 100, null],
    ])
  })

  it('stamps records without a timestamp with a single Date.now() per batch', () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_234_567)
    const { header, records: decoded } = decodeRecordBatchSync(
      encodeRecordBatchSync({ records: [{ value: null }, { value: null }, { value: null, timestamp: 5 }] }),
    )
    expect(now).toHaveBeenCalledTimes(1)
    expect(decoded.map((r) => r.timestamp)).toEqual([1_234_567, 1_234_567, 5])
    expect([header.firstTimestamp, header.maxTimestamp]).toEqual([5, 1_234_567])
  })

  it('keeps explicit offset deltas, producer fields and flags', () => {
    const bytes = encodeRecordBatchSync({
      records: [
        { value: utf8('x'), offsetDelta: 0, timestamp: 1 },
        { value: utf8('y'), offsetDelta: 5, timestamp: 2 },
      ],
      baseOffset: 2 ** 40,
      lastOffsetDelta: 9,
      partitionLeaderEpoch: 12,
      producerId: 2 ** 50,
      producerEpoch: 32767,
      baseSequence: 2147483000,
      transactional: true,
      control: true,
      firstTimestamp: -1,
      maxTimestamp: 77,
    })
    const { header, records: decoded } = decodeRecordBatchSync(bytes)
    expect(header).toMatchObject({
      baseOffset: 2 ** 40,
      lastOffsetDelta: 9,
      partitionLeaderEpoch: 12,
      producerId: 2 ** 50,
      producerEpoch: 32767,
      baseSequence: 2147483000,
      transactional: true,
      control: true,
      attributes: 0x30,
      firstTimestamp: -1,
      maxTimestamp: 77,
    })
    expect(decoded.map((r) => [r.offsetDelta, r.offset, r.timestamp])).toEqual([
      [0, 2 ** 40, 1],
      [5, 2 ** 40 + 5, 2],
    ])
  })

  it('encodes an empty placeholder batch only with an explicit lastOffsetDelta', () => {
    expect(() => encodeRecordBatchSync({ records: [] })).toThrow(InvalidRecordError)
    const { header, records: decoded } = decodeRecordBatchSync(
      encodeRecordBatchSync({ records: [], baseOffset: 10, lastOffsetDelta: 4 }),
    )
    expect(decoded).toEqual([])
    expect(header).toMatchObject({ recordCount: 0, lastOffsetDelta: 4, firstTimestamp: -1, maxTimestamp: -1 })
  })

  it('round-trips header keys through UTF-8, including astral characters and a leading BOM', () => {
    const keys = ['plain', 'ключ', '🔑 key', '\ufeffbom', '']
    const bytes = encodeRecordBatchSync({
      records: [{ value: null, timestamp: 0, headers: keys.map((key) => ({ key, value: utf8(key) })) }],
    })
    expect(decodeRecordBatchSync(bytes).records[0]!.headers).toEqual(keys.map((key) => ({ key, value: utf8(key) })))
  })

  it('encodes a lone surrogate in a header key as U+FFFD, like TextEncoder', () => {
    const bytes = encodeRecordBatchSync({
      records: [{ value: null, timestamp: 0, headers: [{ key: 'a\ud800b', value: null }] }],
    })
    expect(decodeRecordBatchSync(bytes).records[0]!.headers[0]!.key).toBe('a\ufffdb')
  })

  it('rejects invalid input with InvalidRecordError', () => {
    const bad: Array<Partial<Parameters<typeof encodeRecordBatchSync>[0]>> = [
      {
        records: [
          { value: null, offsetDelta: 1 },
          { value: null, offsetDelta: 1 },
        ],
      },
      { records: [{ value: null, offsetDelta: -1 }] },
      { records: [{ value: null, offsetDelta: 3 }], lastOffsetDelta: 2 },
      { records: [{ value: null, timestamp: 2 ** 53 }] },
      {
        records: [
          { value: null, timestamp: Number.MIN_SAFE_INTEGER },
          { value: null, timestamp: Number.MAX_SAFE_INTEGER },
        ],
      },
      { records: [{ value: null }], baseOffset: 2 ** 53 },
      { records: [{ value: null }, { value: null }], baseOffset: Number.MAX_SAFE_INTEGER },
      { records: [{ value: null }], producerEpoch: 40000 },
      { records: [{ value: null }], partitionLeaderEpoch: 2 ** 31 },
      { records: [{ value: 'text' as unknown as Uint8Array }] },
      { records: [{} as RecordInput] },
      { records: [{ value: null, headers: [{ key: 7 as unknown as string, value: null }] }] },
      { records: [{ value: null }], timestampType: 'Wallclock' as 'CreateTime' },
    ]
    for (const options of bad) {
      expect(() => encodeRecordBatchSync({ records: [], ...options }), JSON.stringify(options)).toThrow(
        InvalidRecordError,
      )
    }
  })

  it('leaves compression to the async encoder and names unsupported codecs', async () => {
    expect(() => encodeRecordBatchSync({ records: records(1), compression: 'gzip' })).toThrow(/encodeRecordBatch/)
    expect(() => encodeRecordBatchSync({ records: records(1), compression: 'gzip' })).toThrow(
      UnsupportedCompressionError,
    )
    for (const codec of ['snappy', 'lz4', 'zstd'] as const) {
      await expect(encodeRecordBatch({ records: records(1), compression: codec })).rejects.toThrow(
        new RegExp(`${codec}.*not supported`),
      )
      await expect(encodeRecordBatch({ records: records(1), compression: codec })).rejects.toBeInstanceOf(
        UnsupportedCompressionError,
      )
    }
  })

  it('round-trips a gzip batch', async () => {
    const input = records(50)
    const bytes = await encodeRecordBatch({ records: input, compression: 'gzip' })
    const { header, records: decoded } = await decodeRecordBatch(bytes)
    expect(header.compression).toBe('gzip')
    expect(decoded.map((r) => r.key)).toEqual(input.map((r) => r.key))
    expect(() => decodeRecordBatchSync(bytes)).toThrow(/decodeRecordBatch/)
  })
})

describe('record batch > header and framing', () => {
  it('finds a batch at a position inside a larger buffer', () => {
    const buffer = new Uint8Array(HAND_BATCH.length + 10)
    buffer.set(HAND_BATCH, 7)
    expect(batchSizeAt(buffer, 7)).toBe(85)
    expect(readBatchHeader(buffer, 7).baseOffset).toBe(5)
    expect(verifyBatchCrc(buffer, 7)).toBe(true)
    expect(decodeRecordBatchSync(buffer, 7).records.length).toBe(2)
  })

  it('rejects truncated batches, a bad batchLength or magic, and unsafe int64 fields', () => {
    const corruptions: Array<[string, (bytes: Uint8Array) => Uint8Array]> = [
      ['shorter than a header', (b) => b.subarray(0, 60)],
      ['missing its last byte', (b) => b.subarray(0, b.length - 1)],
      ['batchLength below 49', (b) => set(b, 11, 48)],
      ['batchLength huge', (b) => set(b, 8, 0x7f, 0xff, 0xff, 0xff)],
      ['negative batchLength', (b) => set(b, 8, 0xff)],
      ['magic 1', (b) => set(b, 16, 1)],
      ['baseOffset ≥ 2^53', (b) => set(b, 0, 0x00, 0x20)],
      ['producerId < -2^53', (b) => set(b, 43, 0xff, 0xd0)],
      ['compression id 5', (b) => set(b, 22, 5)],
      ['negative record count', (b) => set(b, 57, 0x80)],
      ['negative lastOffsetDelta', (b) => set(b, 23, 0xff, 0xff, 0xff, 0xff)],
    ]
    for (const [name, corrupt] of corruptions) {
      expect(() => readBatchHeader(corrupt(HAND_BATCH.slice())), name).toThrow(CorruptRecordError)
    }
    expect(() => batchSizeAt(HAND_BATCH.subarray(0, 84))).toThrow(/truncated/)
    expect(() => readBatchHeader(HAND_BATCH, 86)).toThrow(RangeError)
  })

  it('exposes the attribute flags, including hasDeleteHorizonMs (bit 6)', () => {
    const bytes = seal(set(HAND_BATCH.slice(), 22, 0x78))
    expect(readBatchHeader(bytes)).toMatchObject({
      attributes: 0x78,
      compression: 'none',
      timestampType: 'LogAppendTime',
      transactional: true,
      control: true,
      hasDeleteHorizonMs: true,
    })
  })

  it('detects a CRC mismatch, and can skip the check on request', async () => {
    const bytes = set(HAND_BATCH.slice(), 68, 0x6c) // 'hello' → 'lello'
    expect(verifyBatchCrc(bytes)).toBe(false)
    expect(() => decodeRecordBatchSync(bytes)).toThrow(/CRC/)
    await expect(decodeRecordBatch(bytes)).rejects.toBeInstanceOf(CorruptRecordError)
    expect(decodeRecordBatchSync(bytes, 0, { verifyCrc: false }).records[0]!.value).toEqual(utf8('lello'))
  })

  it('iterates concatenated batches and rejects a trailing partial one', () => {
    const a = encodeRecordBatchSync({ records: records(3), baseOffset: 0 })
    const b = encodeRecordBatchSync({ records: records(1), baseOffset: 3 })
    const both = new Uint8Array(a.length + b.length)
    both.set(a)
    both.set(b, a.length)
    expect([...iterateBatches(both)].map(({ pos, size, header }) => [pos, size, header.baseOffset])).toEqual([
      [0, a.length, 0],
      [a.length, b.length, 3],
    ])
    expect([...iterateBatches(new Uint8Array(0))]).toEqual([])
    const seen: number[] = []
    expect(() => {
      for (const { header } of iterateBatches(both.subarray(0, both.length - 1))) seen.push(header.baseOffset)
    }).toThrow(CorruptRecordError)
    expect(seen).toEqual([0])
  })
})

describe('record batch > record-level corruption', () => {
  const cases: Array<[string, (bytes: Uint8Array) => Uint8Array]> = [
    ['record length too large', (b) => set(b, 61, 0x22)],
    ['record length too small', (b) => set(b, 61, 0x1e)],
    ['record length below the minimum', (b) => set(b, 61, 0x02)],
    ['offsetDelta repeated', (b) => set(b, 81, 0x00)],
    ['offsetDelta past lastOffsetDelta', (b) => set(b, 81, 0x04)],
    ['negative key length', (b) => set(b, 65, 0x03)],
    ['key length past the record', (b) => set(b, 65, 0x7e)],
    ['negative header count', (b) => set(b, 73, 0x01)],
    ['header key is not UTF-8', (b) => set(b, 75, 0xff)],
    ['negative header key length', (b) => set(b, 74, 0x01)],
    ['fewer records than declared', (b) => set(b, 60, 3)],
    ['more records than declared', (b) => set(b, 60, 1)],
    ['varint longer than 5 bytes', (b) => set(b, 61, 0xff, 0xff, 0xff, 0xff, 0xff)],
  ]

  it.each(cases)('%s → CorruptRecordError from decode and validate', async (_, corrupt) => {
    const bytes = seal(corrupt(HAND_BATCH.slice()))
    expect(() => decodeRecordBatchSync(bytes)).toThrow(CorruptRecordError)
    await expect(decodeRecordBatch(bytes)).rejects.toBeInstanceOf(CorruptRecordError)
    await expect(validateBatch(bytes)).rejects.toBeInstanceOf(CorruptRecordError)
  })

  it('rejects trailing bytes after the last record', async () => {
    const bytes = new Uint8Array(HAND_BATCH.length + 1)
    bytes.set(HAND_BATCH)
    set(bytes, 11, 74) // batchLength 73 → 74
    seal(bytes)
    expect(() => decodeRecordBatchSync(bytes)).toThrow(/after its 2 records/)
    await expect(validateBatch(bytes)).rejects.toThrow(/after its 2 records/)
  })

  it('rejects a huge record count before allocating for it', async () => {
    const bytes = new Uint8Array(70)
    bytes.set(HAND_BATCH.subarray(0, 61))
    set(bytes, 8, 0, 0, 0, 58) // batchLength: 61 - 12 + 9 bytes of "records"
    set(bytes, 57, 0x7f, 0xff, 0xff, 0xff)
    seal(bytes)
    const started = performance.now()
    expect(() => decodeRecordBatchSync(bytes)).toThrow(/declares 2147483647 records/)
    await expect(validateBatch(bytes)).rejects.toThrow(/declares 2147483647 records/)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('rejects a huge record count in a compressed batch after decompressing, before allocating', async () => {
    const bytes = await encodeRecordBatch({ records: records(2), compression: 'gzip' })
    set(bytes, 57, 0x7f, 0xff, 0xff, 0xff)
    seal(bytes)
    await expect(decodeRecordBatch(bytes)).rejects.toThrow(/declares 2147483647 records/)
  })

  it('rejects timestamps that overflow the safe range', () => {
    const bytes = set(HAND_BATCH.slice(), 27, 0x00, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff) // firstTimestamp 2^53-1
    expect(() => decodeRecordBatchSync(seal(bytes))).toThrow(/timestamp/)
  })

  it('reports an unsupported codec in a batch as UnsupportedCompressionError', async () => {
    const bytes = seal(set(HAND_BATCH.slice(), 22, 2)) // snappy
    await expect(decodeRecordBatch(bytes)).rejects.toThrow(/snappy/)
    await expect(decodeRecordBatch(bytes)).rejects.toBeInstanceOf(UnsupportedCompressionError)
    expect(() => decodeRecordBatchSync(bytes)).toThrow(UnsupportedCompressionError)
  })
})

describe('record batch > leader patches', () => {
  it('setBaseOffset and setPartitionLeaderEpoch leave the CRC valid', () => {
    const bytes = HAND_BATCH.slice()
    setBaseOffset(bytes, 0, 1_000_000_000_000)
    setPartitionLeaderEpoch(bytes, 0, 99)
    expect(verifyBatchCrc(bytes)).toBe(true)
    const { header, records: decoded } = decodeRecordBatchSync(bytes)
    expect([header.baseOffset, header.partitionLeaderEpoch]).toEqual([1_000_000_000_000, 99])
    expect(decoded.map((r) => r.offset)).toEqual([1_000_000_000_000, 1_000_000_000_001])
  })

  it('setLogAppendTime switches the timestamp type, sets maxTimestamp and reseals the CRC', () => {
    const bytes = HAND_BATCH.slice()
    setLogAppendTime(bytes, 0, 1_800_000_000_000)
    expect(verifyBatchCrc(bytes)).toBe(true)
    const { header, records: decoded } = decodeRecordBatchSync(bytes)
    expect(header).toMatchObject({ timestampType: 'LogAppendTime', maxTimestamp: 1_800_000_000_000, attributes: 8 })
    // As in Kafka, every record of a LogAppendTime batch carries the append time.
    expect(decoded.map((r) => r.timestamp)).toEqual([1_800_000_000_000, 1_800_000_000_000])
    expect(decoded.map((r) => r.timestampDelta)).toEqual([0, 5])
  })

  it('patches a batch in the middle of a buffer and rejects bad values', () => {
    const buffer = new Uint8Array(HAND_BATCH.length + 3)
    buffer.set(HAND_BATCH, 3)
    setBaseOffset(buffer, 3, 77)
    expect(readBatchHeader(buffer, 3).baseOffset).toBe(77)
    expect(() => setBaseOffset(buffer, 3, 2 ** 53)).toThrow(InvalidRecordError)
    expect(() => setBaseOffset(buffer, 3, Number.MAX_SAFE_INTEGER)).toThrow(InvalidRecordError) // + lastOffsetDelta
    expect(() => setPartitionLeaderEpoch(buffer, 3, 2 ** 31)).toThrow(InvalidRecordError)
    expect(() => setLogAppendTime(buffer, 3, 0.5)).toThrow(InvalidRecordError)
    expect(() => setBaseOffset(buffer.subarray(0, 50), 3, 1)).toThrow(CorruptRecordError)
  })
})

async function validateBatch(bytes: Uint8Array): Promise<void> {
  const { validateBatchRecords } = await import('../src/index.ts')
  return validateBatchRecords(bytes, 0, {})
}

/** Overwrites bytes from `pos` (test helper for deliberate corruption). */
function set(bytes: Uint8Array, pos: number, ...values: number[]): Uint8Array {
  bytes.set(values, pos)
  return bytes
}
