/**
 * What `send` resolves with, against in-memory leaders that append and number records: one entry
 * per batch the send's records went into, naming the offset of the send's first record in it and
 * how many it holds — also when a send's records alternate between partitions and when one send
 * fills more batches than the look-back covers. (Round trips against real peers are in
 * test/client/roundtrip.test.ts.)
 */
import { decodeRecordBatch } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import type { Cluster } from '../../src/cluster/cluster.ts'
import { Producer } from '../../src/producer/producer.ts'

function fakeCluster(partitions: number) {
  const logs = Array.from({ length: partitions }, () => [] as string[])
  const broker = {
    async produce(request: { partition: number; records: Uint8Array }) {
      const { records } = await decodeRecordBatch(request.records)
      const log = logs[request.partition]!
      const baseOffset = log.length
      for (const r of records) log.push(new TextDecoder().decode(r.value!))
      return { baseOffset, logAppendTime: -1, logStartOffset: 0 }
    },
  }
  const metadata = {
    name: 't',
    topicId: 'id',
    error: undefined,
    replicationFactor: 1,
    configs: {},
    partitions: Array.from({ length: partitions }, (_, p) => ({ partition: p, leader: 'leader' })),
  }
  const cluster = {
    topic: async () => metadata,
    leader: async () => ({ broker, leader: 'leader' }),
    onPartitionError: () => {},
  } as unknown as Cluster
  return { cluster, logs }
}

describe('client > producer > send metadata', () => {
  it('names each batch once, with the offset and count of this send’s records, partitions alternating', async () => {
    const { cluster, logs } = fakeCluster(3)
    const producer = new Producer({ cluster })
    await producer.send({ topic: 't', messages: [{ value: 'before', partition: 1 }] })
    const values = Array.from({ length: 9 }, (_, i) => `v${i}`)
    const metadata = await producer.send({
      topic: 't',
      messages: values.map((value, i) => ({ value, partition: i % 3 })),
    })
    expect(metadata.map(({ partition, baseOffset, recordCount }) => ({ partition, baseOffset, recordCount }))).toEqual([
      { partition: 0, baseOffset: '0', recordCount: 3 },
      { partition: 1, baseOffset: '1', recordCount: 3 },
      { partition: 2, baseOffset: '0', recordCount: 3 },
    ])
    expect(logs).toEqual([
      ['v0', 'v3', 'v6'],
      ['before', 'v1', 'v4', 'v7'],
      ['v2', 'v5', 'v8'],
    ])
    await producer.disconnect()
  })

  it('keeps the accounts of a send that fills many batches', async () => {
    const { cluster, logs } = fakeCluster(12)
    // Small batches: each partition's records of this send fill several of them.
    const producer = new Producer({ cluster }, { batchSize: 200 })
    const messages = Array.from({ length: 240 }, (_, i) => ({ value: `m${i}`, partition: i % 12 }))
    const metadata = await producer.send({ topic: 't', messages })
    expect(metadata.length).toBeGreaterThan(12)
    expect(metadata.reduce((n, m) => n + m.recordCount, 0)).toBe(240)
    for (const m of metadata) {
      const log = logs[m.partition]!
      const first = Number(m.baseOffset)
      // The batch's records are this send's, in order: partition p got m{p}, m{p+12}, …
      const got = log.slice(first, first + m.recordCount)
      const start = messages.filter((x) => x.partition === m.partition).findIndex((x) => x.value === got[0])
      expect(got).toEqual(
        messages
          .filter((x) => x.partition === m.partition)
          .slice(start, start + m.recordCount)
          .map((x) => x.value),
      )
    }
    expect(new Set(metadata.map((m) => `${m.partition}@${m.baseOffset}`)).size).toBe(metadata.length)
    await producer.disconnect()
  })
})
