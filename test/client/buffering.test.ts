/**
 * Bounded buffering: a slow handler slows fetching. While one partition's handler is stuck, that
 * partition is never fetched again (its fetched data waits, once), while another partition keeps
 * flowing; the consumer never holds more fetched responses than it has partitions.
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

describe('client > consumer > bounded buffering', () => {
  it('does not fetch a partition again until its data is processed', async () => {
    const { client } = mesh
    await client.admin().createTopics({ topics: [{ topic: 'slow', numPartitions: 2 }] })
    const producer = client.producer({ batchSize: 4096 })
    const backlog = Array.from({ length: 300 }, (_, i) => ({ value: `slow-${i}`.padEnd(100, '.'), partition: 0 }))
    await producer.send({ topic: 'slow', messages: backlog })

    const consumer = client.consumer({ maxWaitTimeInMs: 100, maxBytesPerPartition: 1024 })
    const fetchesOfSlow: number[] = []
    let mostBuffered = 0
    consumer.on('consumer.fetch_start', ({ payload }) => {
      for (const p of payload.partitions) if (p.partition === 0) fetchesOfSlow.push(p.fetchOffset)
    })
    consumer.on('consumer.fetch', ({ payload }) => {
      mostBuffered = Math.max(mostBuffered, payload.bufferedPartitions)
    })
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let stuck = false
    const slow: string[] = []
    const fast: string[] = []
    await consumer.subscribe({ topic: 'slow', fromBeginning: true })
    await consumer.run({
      partitionsConsumedConcurrently: 2,
      eachMessage: async ({ partition, message }) => {
        if (partition === 1) {
          fast.push(message.value!.toString())
          return
        }
        stuck = true
        await gate
        slow.push(message.value!.toString().replace(/\.+$/, ''))
      },
    })
    await waitFor(() => stuck, 'the handler of partition 0 to be stuck')
    const fetchedBeforeStuck = fetchesOfSlow.length

    // Partition 1 keeps flowing: twenty round trips of produce → fetch → handle.
    for (let i = 0; i < 20; i++) {
      await producer.send({ topic: 'slow', messages: [{ value: `fast-${i}`, partition: 1 }] })
      await waitFor(() => fast.includes(`fast-${i}`), `fast-${i} while partition 0 is stuck`)
    }
    expect(fetchesOfSlow).toHaveLength(fetchedBeforeStuck)
    expect(mostBuffered).toBeLessThanOrEqual(2)

    release()
    await waitFor(() => slow.length >= backlog.length, 'the backlog once the handler is released', 30_000)
    expect(slow).toEqual(backlog.map((m) => m.value.replace(/\.+$/, '')))
    // The backlog came in several fetches, each after the previous data was handled.
    expect(fetchesOfSlow.length).toBeGreaterThan(fetchedBeforeStuck)
    expect(fetchesOfSlow).toEqual([...fetchesOfSlow].sort((a, b) => a - b))
    await consumer.disconnect()
  }, 60_000)
})
