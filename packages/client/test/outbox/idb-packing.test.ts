/**
 * Packing an IndexedDB outbox row's records: every field comes back as it went in (null keys
 * and values, empty ones, headers, a partition of 0 or none, one topic or several), the bytes
 * are the row's own, and a row whose numbers do not match its bytes is refused.
 */
import { KafkaStorageError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { packedCount, packRecords, type QueuedRecord, unpackRecords } from '../../src/outbox/idb-packing.js'
import { batchOfRow, batchRow, rowRecords, rowsOf, rowWithout } from '../../src/outbox/idb-rows.js'
import type { StoredRecord } from '../../src/outbox/store.js'

const enc = new TextEncoder()

const records: QueuedRecord[] = [
  { topic: 't', partition: null, key: null, value: enc.encode('v0'), headers: [], timestamp: 1, size: 30 },
  { topic: 't', partition: 0, key: enc.encode('k1'), value: null, headers: [], timestamp: 2, size: 31 },
  {
    topic: 't',
    partition: 3,
    key: new Uint8Array(0),
    value: new Uint8Array(0),
    headers: [
      { key: 'h', value: enc.encode('x') },
      { key: 'n', value: null },
    ],
    timestamp: 1_700_000_000_123,
    size: 32,
  },
]

describe('outbox > indexeddb rows > packing', () => {
  it('gives back every field of every record', () => {
    const packed = packRecords(records)
    expect(packedCount(packed)).toBe(3)
    expect(packed.topic).toBe('t')
    expect(unpackRecords(packed)).toEqual(records)
    const mixed = [records[0]!, { ...records[1]!, topic: 'u' }]
    expect(unpackRecords(packRecords(mixed))).toEqual(mixed)
  })

  it('keeps the bytes in an array of its own, not views of the caller’s buffers', () => {
    const big = new Uint8Array(1_000)
    const record = { ...records[0]!, value: big.subarray(10, 20) }
    const packed = packRecords([record])
    expect(packed.data.buffer.byteLength).toBe(10)
    big.fill(7)
    expect(unpackRecords(packed)[0]!.value).toEqual(new Uint8Array(10))
  })

  it('refuses a row whose numbers do not match its bytes', () => {
    const packed = packRecords(records)
    expect(() => unpackRecords({ ...packed, data: packed.data.subarray(1) })).toThrow(KafkaStorageError)
  })

  it('rows and batches round-trip with their ids, consecutive or not', () => {
    const stored = (id: number): StoredRecord => ({ ...records[id % 3]!, id })
    const rows = rowsOf([1, 2, 3, 5, 6].map(stored), 2)
    expect(rows.map((r) => [r.id, packedCount(r.packed)])).toEqual([
      [1, 2],
      [3, 1],
      [5, 2],
    ])
    const cut = rowWithout(rowsOf([1, 2, 3, 4].map(stored), 10)[0]!, 2, 2)!
    expect(rowRecords(cut)).toEqual([1, 3, 4].map(stored))
    const batch = {
      id: 4,
      topic: 't',
      partition: 0,
      producerEpoch: 1,
      baseSequence: 9,
      records: [4, 7].map(stored),
      bytes: 61,
    }
    expect(batchOfRow(batchRow(batch))).toEqual(batch)
    const consecutive = { ...batch, records: [4, 5].map(stored) }
    expect(batchRow(consecutive).ids).toBeUndefined()
    expect(batchOfRow(batchRow(consecutive))).toEqual(consecutive)
  })
})
