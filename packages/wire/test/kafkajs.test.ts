/**
 * Cross-checks against KafkaJS's RecordBatch v2 codec, an implementation no one here wrote:
 * batches KafkaJS encodes decode identically with ours, and batches we encode decode
 * identically with KafkaJS's decoder, uncompressed and gzip.
 */
import { createRequire } from 'node:module'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type CompressionName,
  decodeRecordBatch,
  encodeRecordBatch,
  type RecordHeader,
  validateBatchRecords,
  verifyBatchCrc,
} from '../src/index.ts'
import { utf8 } from './fixtures.ts'

const require = createRequire(import.meta.url)
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: (batch: KafkaJSBatchInput) => Promise<KafkaJSEncoder>
}
const KafkaRecord = require('kafkajs/src/protocol/recordBatch/record/v0') as (
  record: KafkaJSRecordInput,
) => KafkaJSEncoder
const decodeKafkaJSBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (
  decoder: unknown,
) => Promise<KafkaJSDecodedBatch>
const KafkaDecoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => unknown
const KafkaCompression = require('kafkajs/src/protocol/message/compression').Types as Record<string, number>

/** A batch description both codecs can express (KafkaJS: unique header keys, non-null header values). */
interface Sample {
  baseOffset: number
  partitionLeaderEpoch: number
  producerId: number
  producerEpoch: number
  baseSequence: number
  transactional: boolean
  compression: CompressionName
  records: Array<{ key: Uint8Array | null; value: Uint8Array | null; headers: RecordHeader[]; timestamp: number }>
}

const toBuffer = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes))
const toBytes = (buffer: Buffer | null) => (buffer === null ? null : new Uint8Array(buffer))

async function encodeWithKafkaJS(sample: Sample): Promise<Uint8Array> {
  const timestamps = sample.records.map((r) => r.timestamp)
  const firstTimestamp = Math.min(...timestamps)
  const encoder = await RecordBatch({
    compression: sample.compression === 'gzip' ? KafkaCompression.GZIP : KafkaCompression.None,
    firstOffset: String(sample.baseOffset),
    firstTimestamp,
    maxTimestamp: Math.max(...timestamps),
    partitionLeaderEpoch: sample.partitionLeaderEpoch,
    lastOffsetDelta: sample.records.length - 1,
    transactional: sample.transactional,
    producerId: sample.producerId,
    producerEpoch: sample.producerEpoch,
    firstSequence: sample.baseSequence,
    records: sample.records.map((r, i) =>
      KafkaRecord({
        offsetDelta: i,
        timestampDelta: r.timestamp - firstTimestamp,
        key: toBuffer(r.key),
        value: toBuffer(r.value),
        // Samples given to KafkaJS never have null header values (it cannot encode them).
        headers: Object.fromEntries(r.headers.map((h) => [h.key, toBuffer(h.value) as Buffer])),
      }),
    ),
  })
  return new Uint8Array(encoder.buffer)
}

function decodeWithKafkaJS(bytes: Uint8Array): Promise<KafkaJSDecodedBatch> {
  return decodeKafkaJSBatch(new KafkaDecoder(Buffer.from(bytes)))
}

async function expectOursDecodes(bytes: Uint8Array, sample: Sample): Promise<void> {
  expect(verifyBatchCrc(bytes)).toBe(true)
  await validateBatchRecords(bytes, 0, { sequentialOffsets: true })
  const { header, records } = await decodeRecordBatch(bytes)
  expect(header).toMatchObject({
    baseOffset: sample.baseOffset,
    partitionLeaderEpoch: sample.partitionLeaderEpoch,
    producerId: sample.producerId,
    producerEpoch: sample.producerEpoch,
    baseSequence: sample.baseSequence,
    transactional: sample.transactional,
    compression: sample.compression,
    recordCount: sample.records.length,
    lastOffsetDelta: sample.records.length - 1,
  })
  expect(
    records.map((r) => ({ key: r.key, value: r.value, headers: r.headers, timestamp: r.timestamp, offset: r.offset })),
  ).toEqual(sample.records.map((r, i) => ({ ...r, offset: sample.baseOffset + i })))
}

async function expectKafkaJSDecodes(bytes: Uint8Array, sample: Sample): Promise<void> {
  const batch = await decodeWithKafkaJS(bytes)
  expect(batch).toMatchObject({
    firstOffset: String(sample.baseOffset),
    partitionLeaderEpoch: sample.partitionLeaderEpoch,
    producerId: String(sample.producerId),
    producerEpoch: sample.producerEpoch,
    firstSequence: sample.baseSequence,
    inTransaction: sample.transactional,
    isControlBatch: false,
    lastOffsetDelta: sample.records.length - 1,
  })
  expect(
    batch.records.map((r) => ({
      key: toBytes(r.key),
      value: toBytes(r.value),
      timestamp: r.timestamp,
      offset: r.offset,
      headers: Object.fromEntries(
        Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.map(toBytes) : toBytes(v)]),
      ),
    })),
  ).toEqual(
    sample.records.map((r, i) => ({
      key: r.key,
      value: r.value,
      timestamp: String(r.timestamp),
      offset: String(sample.baseOffset + i),
      headers: groupHeaders(r.headers),
    })),
  )
}

/** KafkaJS decodes headers into an object, collecting repeated keys into arrays. */
function groupHeaders(headers: RecordHeader[]): Record<string, Uint8Array | null | Array<Uint8Array | null>> {
  const grouped: Record<string, Uint8Array | null | Array<Uint8Array | null>> = {}
  for (const { key, value } of headers) {
    const existing = grouped[key]
    if (existing === undefined) grouped[key] = value
    else grouped[key] = Array.isArray(existing) ? [...existing, value] : [existing, value]
  }
  return grouped
}

const example = (compression: CompressionName): Sample => ({
  baseOffset: 1_000_000,
  partitionLeaderEpoch: 4,
  producerId: 123_456_789_012,
  producerEpoch: 2,
  baseSequence: 77,
  transactional: true,
  compression,
  records: [
    {
      key: utf8('order-1'),
      value: utf8('{"total":12}'),
      headers: [{ key: 'source', value: utf8('web') }],
      timestamp: 1_700_000_000_000,
    },
    { key: null, value: utf8('no key'), headers: [], timestamp: 1_700_000_000_050 },
    { key: new Uint8Array(0), value: new Uint8Array(0), headers: [], timestamp: 1_699_999_999_990 },
    {
      key: utf8('order-2'),
      value: null,
      headers: [
        { key: 'trace-id', value: utf8('abc') },
        { key: 'ключ', value: new Uint8Array(0) },
      ],
      timestamp: 1_700_000_000_010,
    },
    { key: utf8('big'), value: new Uint8Array(5000).fill(7), headers: [], timestamp: 1_700_000_000_000 },
  ],
})

const sampleArbitrary = (compression: CompressionName, kafkaJSHeaders: boolean) =>
  fc.record({
    baseOffset: fc.integer({ min: 0, max: 2 ** 52 }),
    partitionLeaderEpoch: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
    producerId: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 2 ** 52 })),
    producerEpoch: fc.integer({ min: -1, max: 32767 }),
    baseSequence: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
    transactional: fc.boolean(),
    compression: fc.constant(compression),
    records: fc.array(
      fc.record({
        key: fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null }),
        value: fc.option(fc.uint8Array({ maxLength: 200 }), { nil: null }),
        headers: kafkaJSHeaders
          ? fc.uniqueArray(
              fc.record({
                key: fc.string({ unit: 'binary', maxLength: 12 }).map((k) => `h-${k}`),
                value: fc.uint8Array({ maxLength: 20 }),
              }),
              { maxLength: 4, selector: (h) => h.key },
            )
          : fc.array(
              fc.record({
                key: fc.string({ unit: 'binary', maxLength: 12 }).map((k) => `h-${k}`),
                value: fc.option(fc.uint8Array({ maxLength: 20 }), { nil: null }),
              }),
              { maxLength: 4 },
            ),
        timestamp: fc.integer({ min: 0, max: 2 ** 45 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })

describe('wire > KafkaJS compatibility', () => {
  it('produces byte-identical uncompressed batches', async () => {
    const sample = example('none')
    const ours = await encodeRecordBatch(sample)
    expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(await encodeWithKafkaJS(sample)).toString('hex'))
  })

  for (const compression of ['none', 'gzip'] as const) {
    it(`decodes a ${compression} batch encoded by KafkaJS`, async () => {
      const sample = example(compression)
      await expectOursDecodes(await encodeWithKafkaJS(sample), sample)
    })

    it(`encodes a ${compression} batch that KafkaJS decodes`, async () => {
      const sample = example(compression)
      await expectKafkaJSDecodes(await encodeRecordBatch(sample), sample)
    })

    it(`agrees with KafkaJS on arbitrary ${compression} batches, both ways`, async () => {
      await fc.assert(
        fc.asyncProperty(sampleArbitrary(compression, true), async (sample) => {
          await expectOursDecodes(await encodeWithKafkaJS(sample), sample)
          await expectKafkaJSDecodes(await encodeRecordBatch(sample), sample)
        }),
        { numRuns: compression === 'gzip' ? 60 : 150 },
      )
      // Repeated header keys and null header values: KafkaJS can decode them, though it cannot encode them.
      await fc.assert(
        fc.asyncProperty(sampleArbitrary(compression, false), async (sample) => {
          await expectKafkaJSDecodes(await encodeRecordBatch(sample), sample)
        }),
        { numRuns: compression === 'gzip' ? 40 : 100 },
      )
    })
  }
})
