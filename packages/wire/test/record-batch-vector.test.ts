import { describe, expect, it } from 'vitest'
import {
  ATTRIBUTES_OFFSET,
  BASE_SEQUENCE_OFFSET,
  BATCH_LENGTH_OFFSET,
  CRC_OFFSET,
  decodeRecordBatchSync,
  encodeRecordBatchSync,
  FIRST_TIMESTAMP_OFFSET,
  LAST_OFFSET_DELTA_OFFSET,
  MAGIC_OFFSET,
  MAGIC_V2,
  MAX_TIMESTAMP_OFFSET,
  PARTITION_LEADER_EPOCH_OFFSET,
  PRODUCER_EPOCH_OFFSET,
  PRODUCER_ID_OFFSET,
  RECORD_BATCH_OVERHEAD,
  RECORD_COUNT_OFFSET,
  readBatchHeader,
  verifyBatchCrc,
} from '../src/index.ts'
import { HAND_BATCH, toHex, utf8 } from './fixtures.ts'

describe('record batch > hand-checked vector', () => {
  it('uses the RecordBatch v2 layout offsets', () => {
    expect([
      BATCH_LENGTH_OFFSET,
      PARTITION_LEADER_EPOCH_OFFSET,
      MAGIC_OFFSET,
      CRC_OFFSET,
      ATTRIBUTES_OFFSET,
      LAST_OFFSET_DELTA_OFFSET,
      FIRST_TIMESTAMP_OFFSET,
      MAX_TIMESTAMP_OFFSET,
      PRODUCER_ID_OFFSET,
      PRODUCER_EPOCH_OFFSET,
      BASE_SEQUENCE_OFFSET,
      RECORD_COUNT_OFFSET,
      RECORD_BATCH_OVERHEAD,
    ]).toEqual([8, 12, 16, 17, 21, 23, 27, 35, 43, 51, 53, 57, 61])
    expect(MAGIC_V2).toBe(2)
  })

  it('reads every header field', () => {
    expect(HAND_BATCH.length).toBe(85)
    expect(verifyBatchCrc(HAND_BATCH)).toBe(true)
    expect(readBatchHeader(HAND_BATCH)).toEqual({
      baseOffset: 5,
      batchLength: 73,
      partitionLeaderEpoch: 7,
      magic: 2,
      crc: 0xcc306330,
      attributes: 0,
      compression: 'none',
      timestampType: 'CreateTime',
      transactional: false,
      control: false,
      hasDeleteHorizonMs: false,
      lastOffsetDelta: 1,
      firstTimestamp: 1700000000000,
      maxTimestamp: 1700000000005,
      producerId: 42,
      producerEpoch: 3,
      baseSequence: 10,
      recordCount: 2,
    })
  })

  it('decodes every record field, keeping null and empty distinct', () => {
    const { records } = decodeRecordBatchSync(HAND_BATCH)
    expect(records).toEqual([
      {
        attributes: 0,
        offsetDelta: 0,
        offset: 5,
        timestampDelta: 0,
        timestamp: 1700000000000,
        key: utf8('k'),
        value: utf8('hello'),
        headers: [{ key: 'h', value: utf8('v') }],
      },
      {
        attributes: 0,
        offsetDelta: 1,
        offset: 6,
        timestampDelta: 5,
        timestamp: 1700000000005,
        key: null,
        value: new Uint8Array(0),
        headers: [],
      },
    ])
  })

  it('is exactly what the encoder produces for the same input', () => {
    const encoded = encodeRecordBatchSync({
      baseOffset: 5,
      partitionLeaderEpoch: 7,
      producerId: 42,
      producerEpoch: 3,
      baseSequence: 10,
      records: [
        { key: utf8('k'), value: utf8('hello'), headers: [{ key: 'h', value: utf8('v') }], timestamp: 1700000000000 },
        { key: null, value: new Uint8Array(0), timestamp: 1700000000005 },
      ],
    })
    expect(toHex(encoded)).toBe(toHex(HAND_BATCH))
  })
})
