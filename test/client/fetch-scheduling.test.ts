/**
 * Long polls never hold up data, against a real peer: partitions of very different sizes are read
 * back with a fetch wait far longer than the test's deadline. Partitions that catch up early sit
 * in long polls; the others must still be fetched as soon as each chunk is handled, or the read
 * waits out the long poll (30 s here) and misses the deadline. (The fake-leader test in
 * packages/client/test/consumer/fetcher.test.ts checks the same rule step by step.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMesh, type TestMesh, waitFor } from './mesh.ts'

let mesh: TestMesh

beforeAll(async () => {
  mesh = await startMesh(1)
}, 60_000)

afterAll(async () => {
  await mesh?.stop()
})

describe('client > consumer > fetch scheduling', () => {
  it('reads partitions that still hold data while others long-poll', async () => {
    const { client } = mesh
    await client.admin().createTopics({ topics: [{ topic: 'uneven', numPartitions: 6 }] })
    const producer = client.producer({ batchSize: 16 * 1024 })
    // Partition p holds p² × 400 records: 0, 400, 1,600 … 10,000.
    const sizes = Array.from({ length: 6 }, (_, p) => p * p * 400)
    const value = 'v'.repeat(100)
    for (const [partition, size] of sizes.entries()) {
      for (let sent = 0; sent < size; sent += 2000) {
        const n = Math.min(2000, size - sent)
        await producer.send({ topic: 'uneven', messages: Array.from({ length: n }, () => ({ value, partition })) })
      }
    }
    const total = sizes.reduce((a, b) => a + b, 0)

    const consumer = client.consumer({ maxWaitTimeInMs: 30_000, maxBytesPerPartition: 16 * 1024 })
    let emptyAnswers = 0
    consumer.on('consumer.fetch', ({ payload }) => {
      if (payload.numberOfBatches === 0) emptyAnswers++
    })
    const read = new Array<number>(6).fill(0)
    const lastOffset = new Array<number>(6).fill(-1)
    let outOfOrder = 0
    await consumer.subscribe({ topic: 'uneven', fromBeginning: true })
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) {
          if (Number(m.offset) <= lastOffset[batch.partition]!) outOfOrder++
          lastOffset[batch.partition] = Number(m.offset)
        }
        read[batch.partition]! += batch.messages.length
      },
    })
    // Well inside the 30 s a stalled read would wait for a long poll to answer empty.
    await waitFor(() => read.reduce((a, b) => a + b, 0) >= total, `all ${total} records`, 20_000)
    expect(read).toEqual(sizes)
    expect(outOfOrder).toBe(0)
    // No fetch came back empty (a long poll that gave up) before the read finished.
    expect(emptyAnswers).toBe(0)
    await consumer.disconnect()
  }, 60_000)
})
