/**
 * Sealing as a pure step: partitions from the partitioner over the real partition count,
 * batches cut by bytes and records in enqueue order, sequences continuing each partition's,
 * records of unknown topics left waiting, and impossible partitions rejected.
 */
import { describe, expect, it } from 'vitest'
import { planSeal } from '../../src/outbox/seal.js'
import type { PartitionSequence, StoredRecord } from '../../src/outbox/store.js'
import { defaultPartitioner, murmur2, toPositive } from '../../src/partitioners/index.js'

const enc = new TextEncoder()

function stored(id: number, topic: string, key: string | null, partition: number | null = null): StoredRecord {
  const value = enc.encode(`v${id}`)
  return {
    id,
    topic,
    partition,
    key: key === null ? null : enc.encode(key),
    value,
    headers: [],
    timestamp: 1,
    size: 100,
  }
}

const partitions = (n: number) => Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader: 'x' }))

describe('outbox > seal', () => {
  it('places keyed records as Kafka does, in enqueue order, continuing each partition sequence', () => {
    const records = Array.from({ length: 30 }, (_, i) => stored(i + 1, 't', `k${i % 6}`))
    // The partition of k0 already has a sequence (and an epoch) from earlier seals.
    const known = toPositive(murmur2(enc.encode('k0'))) % 4
    const sequences = new Map<string, PartitionSequence>([
      [`t\u0000${known}`, { topic: 't', partition: known, producerEpoch: 3, epochFrom: 0, next: 40 }],
    ])
    const plan = planSeal({
      records,
      topics: new Map([['t', partitions(4)]]),
      sequences,
      partitioner: defaultPartitioner(),
      maxBatchBytes: 1 << 20,
      maxBatchRecords: 1000,
    })
    expect(plan.rejected).toEqual([])
    expect(plan.change.deleteRecordIds).toEqual(records.map((r) => r.id))
    for (const batch of plan.batches) {
      for (const r of batch.records) expect(toPositive(murmur2(r.key!)) % 4).toBe(batch.partition)
      const ids = batch.records.map((r) => r.id)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
      expect(batch.id).toBe(ids[0])
    }
    expect(plan.batches.find((b) => b.partition === known)).toMatchObject({ baseSequence: 40, producerEpoch: 3 })
    for (const s of plan.change.putSequences ?? []) {
      const count = plan.batches.filter((b) => b.partition === s.partition).reduce((n, b) => n + b.records.length, 0)
      expect(s.next).toBe((s.partition === known ? 40 : 0) + count)
    }
  })

  it('cuts batches at the byte and record limits, sequences running on across them', () => {
    const records = Array.from({ length: 10 }, (_, i) => stored(i + 1, 't', null, 0))
    const plan = planSeal({
      records,
      topics: new Map([['t', partitions(1)]]),
      sequences: new Map(),
      partitioner: defaultPartitioner(),
      maxBatchBytes: 61 + 350, // three records of 100 bytes fit, four do not
      maxBatchRecords: 1000,
    })
    expect(plan.batches.map((b) => [b.baseSequence, b.records.length])).toEqual([
      [0, 3],
      [3, 3],
      [6, 3],
      [9, 1],
    ])
    const byCount = planSeal({
      records,
      topics: new Map([['t', partitions(1)]]),
      sequences: new Map(),
      partitioner: defaultPartitioner(),
      maxBatchBytes: 1 << 20,
      maxBatchRecords: 4,
    })
    expect(byCount.batches.map((b) => b.records.length)).toEqual([4, 4, 2])
  })

  it('leaves records of unknown topics waiting and rejects partitions that do not exist', () => {
    const plan = planSeal({
      records: [stored(1, 'unknown', 'a'), stored(2, 't', null, 7), stored(3, 't', null, 1)],
      topics: new Map([['t', partitions(2)]]),
      sequences: new Map(),
      partitioner: defaultPartitioner(),
      maxBatchBytes: 1 << 20,
      maxBatchRecords: 1000,
    })
    expect(plan.change.deleteRecordIds).toEqual([2, 3])
    expect(plan.rejected.map((r) => r.record.id)).toEqual([2])
    expect(plan.rejected[0]?.reason).toMatch(/partition 7 is not in \[0, 2\)/)
    expect(plan.change.released).toEqual({ records: 1, bytes: 100 })
    expect(plan.batches.map((b) => [b.partition, b.records.map((r) => r.id)])).toEqual([[1, [3]]])
  })

  it("grows a partition's unsent last batch while it has room, and only when it ends at the partition's next sequence", () => {
    const base = {
      topics: new Map([['t', partitions(1)]]),
      partitioner: defaultPartitioner(),
      maxBatchBytes: 61 + 350, // three records of 100 bytes
      maxBatchRecords: 1000,
    }
    const first = planSeal({ ...base, records: [stored(1, 't', null, 0)], sequences: new Map() })
    const [last] = first.batches
    const sequences = new Map((first.change.putSequences ?? []).map((s) => [`t\u0000${s.partition}`, s]))
    const grown = planSeal({
      ...base,
      records: [stored(2, 't', null, 0), stored(3, 't', null, 0), stored(4, 't', null, 0)],
      sequences,
      growable: new Map([['t\u00000', last!]]),
    })
    // Records 2 and 3 join batch 1 (rewritten under its id, same base sequence); 4 starts the next.
    expect(grown.batches.map((b) => [b.id, b.baseSequence, b.records.map((r) => r.id)])).toEqual([
      [1, 0, [1, 2, 3]],
      [4, 3, [4]],
    ])
    expect(grown.change.putSequences).toEqual([{ topic: 't', partition: 0, producerEpoch: 0, epochFrom: 0, next: 4 }])
    expect(last!.records.map((r) => r.id)).toEqual([1])
    // A batch that does not end at the next sequence (something was sealed after it) never grows.
    const behind = new Map([['t\u00000', { ...sequences.get('t\u00000')!, next: 5 }]])
    const notGrown = planSeal({
      ...base,
      records: [stored(2, 't', null, 0)],
      sequences: behind,
      growable: new Map([['t\u00000', last!]]),
    })
    expect(notGrown.batches.map((b) => [b.id, b.baseSequence])).toEqual([[2, 5]])
  })
})
