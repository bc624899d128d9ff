import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type CompressionName,
  crc32c,
  decodeRecordBatch,
  decodeRecordBatchSync,
  type EncodeBatchOptions,
  encodeRecordBatch,
  iterateBatches,
  readBatchHeader,
  TributaryError,
  validateBatchRecords,
  validateBatchRecordsSync,
  verifyBatchCrc,
} from '../src/index.ts'
import { reseal } from './fixtures.ts'

const NOW = 1_750_000_000_000
const SMALL_CAP = { maxDecompressedBytes: 1 << 20 }

const headerArb = fc.record({
  key: fc.string({ unit: 'binary', maxLength: 10 }),
  value: fc.option(fc.uint8Array({ maxLength: 20 }), { nil: null }),
})

const recordArb = fc.record(
  {
    key: fc.option(fc.uint8Array({ maxLength: 30 }), { nil: null }),
    value: fc.option(fc.uint8Array({ maxLength: 120 }), { nil: null }),
    headers: fc.array(headerArb, { maxLength: 3 }),
    timestamp: fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
    gap: fc.nat(3),
  },
  { requiredKeys: ['value', 'gap'] },
)

function batchArb(compressions: CompressionName[]): fc.Arbitrary<EncodeBatchOptions> {
  return fc
    .record(
      {
        records: fc.array(recordArb, { maxLength: 20 }),
        baseOffset: fc.integer({ min: -1, max: 2 ** 52 }),
        partitionLeaderEpoch: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        compression: fc.constantFrom(...compressions),
        timestampType: fc.constantFrom('CreateTime' as const, 'LogAppendTime' as const),
        transactional: fc.boolean(),
        control: fc.boolean(),
        producerId: fc.integer({ min: -1, max: 2 ** 53 - 1 }),
        producerEpoch: fc.integer({ min: -32768, max: 32767 }),
        baseSequence: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        extraOffsets: fc.nat(5),
        firstTimestamp: fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
        maxTimestamp: fc.maxSafeInteger(),
      },
      { requiredKeys: ['records', 'baseOffset', 'extraOffsets'] },
    )
    .map(({ records, extraOffsets, ...options }) => {
      let offsetDelta = -1
      const inputs = records.map(({ gap, ...record }) => {
        offsetDelta += 1 + gap
        return { ...record, offsetDelta }
      })
      const explicitLast = records.length === 0 || extraOffsets > 2
      return {
        ...options,
        records: inputs,
        ...(explicitLast ? { lastOffsetDelta: Math.max(offsetDelta, 0) + extraOffsets } : {}),
      }
    })
}

/** Runs `action`; any failure must be one of our typed errors. */
async function onlyTributaryErrors(action: () => unknown): Promise<void> {
  try {
    await action()
  } catch (error) {
    if (!(error instanceof TributaryError)) throw error
  }
}

async function rejects(action: () => unknown): Promise<TributaryError | null> {
  try {
    await action()
    return null
  } catch (error) {
    expect(error).toBeInstanceOf(TributaryError)
    return error as TributaryError
  }
}

describe('record batch > properties', () => {
  beforeEach(() => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW)
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('round-trips arbitrary batches (none and gzip)', async () => {
    await fc.assert(
      fc.asyncProperty(batchArb(['none', 'none', 'gzip']), async (options) => {
        const bytes = await encodeRecordBatch(options)
        expect(verifyBatchCrc(bytes)).toBe(true)
        await validateBatchRecords(bytes, 0)
        const { header, records } = await decodeRecordBatch(bytes)
        const timestamps = options.records.map((r) => r.timestamp ?? NOW)
        const maxTimestamp = options.maxTimestamp ?? (timestamps.length ? Math.max(...timestamps) : -1)
        expect(header).toMatchObject({
          baseOffset: options.baseOffset,
          compression: options.compression ?? 'none',
          timestampType: options.timestampType ?? 'CreateTime',
          transactional: options.transactional ?? false,
          control: options.control ?? false,
          producerId: options.producerId ?? -1,
          producerEpoch: options.producerEpoch ?? -1,
          baseSequence: options.baseSequence ?? -1,
          partitionLeaderEpoch: options.partitionLeaderEpoch ?? -1,
          recordCount: options.records.length,
          maxTimestamp,
          firstTimestamp: options.firstTimestamp ?? (timestamps.length ? Math.min(...timestamps) : -1),
          lastOffsetDelta: options.lastOffsetDelta ?? options.records.at(-1)?.offsetDelta,
        })
        expect(records).toEqual(
          options.records.map((r, i) => ({
            attributes: 0,
            offsetDelta: r.offsetDelta,
            offset: (options.baseOffset ?? 0) + r.offsetDelta!,
            timestampDelta: timestamps[i]! - header.firstTimestamp,
            timestamp: header.timestampType === 'LogAppendTime' ? maxTimestamp : timestamps[i],
            key: r.key ?? null,
            value: r.value,
            headers: (r.headers ?? []).map((h) => ({ key: h.key, value: h.value })),
          })),
        )
        if ((options.compression ?? 'none') === 'none')
          expect(decodeRecordBatchSync(bytes)).toEqual({ header, records })
      }),
      { numRuns: 300 },
    )
  })

  it('detects any single-byte change in the CRC-covered region', async () => {
    await fc.assert(
      fc.asyncProperty(
        batchArb(['none', 'gzip']),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (options, at, flip) => {
          const bytes = await encodeRecordBatch(options)
          const index = 21 + (at % (bytes.length - 21))
          bytes[index]! ^= flip
          expect(verifyBatchCrc(bytes)).toBe(false)
          expect(await rejects(() => decodeRecordBatch(bytes))).toBeInstanceOf(TributaryError)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('rejects a corrupt batchLength or magic', async () => {
    await fc.assert(
      fc.asyncProperty(
        batchArb(['none', 'gzip']),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 255 }),
        async (options, length, magic) => {
          const bytes = await encodeRecordBatch(options)
          const view = new DataView(bytes.buffer)
          const trueLength = view.getInt32(8)
          fc.pre(length !== trueLength)
          view.setInt32(8, length)
          if (length < 49 || length > trueLength) expect(() => readBatchHeader(bytes)).toThrow(TributaryError)
          // A shorter length that still fits cuts the records off: the parser notices even without the CRC.
          expect(await rejects(() => decodeRecordBatch(bytes, 0, { verifyCrc: false, ...SMALL_CAP }))).not.toBeNull()
          view.setInt32(8, trueLength)
          if (magic !== 2) {
            bytes[16] = magic
            expect(() => readBatchHeader(bytes)).toThrow(/magic/)
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('throws only typed errors on arbitrary bytes, and terminates', async () => {
    const withHeader = fc.uint8Array({ minLength: 0, maxLength: 200 }).map((tail) => {
      // A plausible header in front of random bytes, so parsing gets past the first checks.
      const bytes = new Uint8Array(61 + tail.length)
      bytes.set(tail, 61)
      const view = new DataView(bytes.buffer)
      view.setInt32(8, 49 + tail.length)
      bytes[16] = 2
      view.setInt32(57, tail[0] ?? 0)
      view.setInt32(23, tail[1] ?? 0)
      return bytes
    })
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 300 }), withHeader), async (bytes) => {
        await onlyTributaryErrors(() => decodeRecordBatch(bytes, 0, SMALL_CAP))
        await onlyTributaryErrors(() => decodeRecordBatch(bytes, 0, { verifyCrc: false, ...SMALL_CAP }))
        await onlyTributaryErrors(() => decodeRecordBatchSync(bytes, 0, { verifyCrc: false }))
        await onlyTributaryErrors(() => validateBatchRecords(bytes, 0, { verifyCrc: false, ...SMALL_CAP }))
        await onlyTributaryErrors(() => validateBatchRecordsSync(bytes, 0, { verifyCrc: false, requireKeys: true }))
        await onlyTributaryErrors(() => [...iterateBatches(bytes)])
      }),
      { numRuns: 500 },
    )
  })

  it('throws only typed errors on mutated valid batches, and decode and validate agree', async () => {
    const mutation = fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) })
    await fc.assert(
      fc.asyncProperty(
        batchArb(['none', 'none', 'gzip']),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.boolean(),
        async (options, mutations, cut, truncate) => {
          let bytes = await encodeRecordBatch(options)
          for (const { at, value } of mutations) bytes[61 + (at % Math.max(1, bytes.length - 61))] = value
          if (truncate) bytes = bytes.subarray(0, cut % (bytes.length + 1))
          const decodeError = await rejects(() => decodeRecordBatch(bytes, 0, { verifyCrc: false, ...SMALL_CAP }))
          const validateError = await rejects(() => validateBatchRecords(bytes, 0, { verifyCrc: false, ...SMALL_CAP }))
          expect(validateError?.name).toBe(decodeError?.name)
          if (bytes.length >= 61 && !truncate) {
            // With the CRC recomputed, the default (CRC-checking) path reaches the record parser too.
            reseal(bytes, crc32c)
            await onlyTributaryErrors(() => decodeRecordBatch(bytes, 0, SMALL_CAP))
            await onlyTributaryErrors(() =>
              validateBatchRecords(bytes, 0, { requireKeys: true, sequentialOffsets: true, ...SMALL_CAP }),
            )
          }
          await onlyTributaryErrors(() => [...iterateBatches(bytes)])
        },
      ),
      { numRuns: 400 },
    )
  })
})
