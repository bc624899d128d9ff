/**
 * The idempotent producer with 5 batches in flight per partition, against three real peers
 * (libp2p on loopback, RF 3): sends arriving every millisecond to three partitions, open loop,
 * as the mesh bench's latency phase sends. Every send is acknowledged, each record once, at the
 * offset its acknowledgement named, in send order per partition; and neither the producer's
 * lifetime nor a long-lived caller signal passed to every send collects abort listeners.
 */
import { getEventListeners } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMesh, type TestMesh } from './mesh.ts'

let mesh: TestMesh

beforeAll(async () => {
  mesh = await startMesh(3)
}, 60_000)

afterAll(async () => {
  await mesh?.stop()
})

const PARTITIONS = 3
const SENDS = 600
const RECORDS_PER_SEND = 10

describe('client > producer > pipelined (5 in flight, idempotent)', () => {
  it('acknowledges every open-loop send once and in order, without piling up abort listeners', async () => {
    const { client } = mesh
    await client.admin().createTopics({ topics: [{ topic: 'piped', numPartitions: PARTITIONS, replicationFactor: 3 }] })
    const producer = client.producer({ maxInFlightRequests: 5, retry: { retries: 10, initialRetryTime: 20 } })
    await producer.connect()
    const failed: string[] = []
    producer.on('producer.request', ({ payload }) => {
      if (payload.error !== undefined) failed.push(`${payload.error.name}: ${payload.error.message}`)
    })
    const caller = new AbortController()
    const lifetime = (producer as unknown as { lifetime: AbortController }).lifetime.signal
    let mostOnLifetime = 0
    let mostOnCaller = 0
    const sends: Array<Promise<{ partition: number; seq: number; offset: number }[]>> = []
    const counters = new Array<number>(PARTITIONS).fill(0)
    for (let i = 0; i < SENDS; i++) {
      const partition = i % PARTITIONS
      const first = counters[partition]!
      counters[partition]! += RECORDS_PER_SEND
      const messages = Array.from({ length: RECORDS_PER_SEND }, (_, j) => ({ value: String(first + j), partition }))
      sends.push(
        producer.send({ topic: 'piped', messages, signal: caller.signal }).then((metas) => {
          expect(metas).toHaveLength(1)
          const base = Number(metas[0]!.baseOffset)
          return messages.map((_, j) => ({ partition, seq: first + j, offset: base + j }))
        }),
      )
      mostOnLifetime = Math.max(mostOnLifetime, getEventListeners(lifetime, 'abort').length)
      mostOnCaller = Math.max(mostOnCaller, getEventListeners(caller.signal, 'abort').length)
      // One send per millisecond (a timer turn, so acknowledgements interleave with sends).
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    // A burst, as `perf produce` sends: 50 sends called at once, all resolving metadata together.
    for (let i = 0; i < 50; i++) {
      const partition = i % PARTITIONS
      const first = counters[partition]!
      counters[partition]! += 1
      sends.push(
        producer
          .send({ topic: 'piped', messages: [{ value: String(first), partition }], signal: caller.signal })
          .then((metas) => [{ partition, seq: first, offset: Number(metas[0]!.baseOffset) }]),
      )
    }
    mostOnCaller = Math.max(mostOnCaller, getEventListeners(caller.signal, 'abort').length)
    const acked = (await Promise.all(sends)).flat()
    // In process the leader sees each partition's batches in order: nothing needs a retry.
    expect(failed).toEqual([])
    // Offsets per partition: each record once, in send order, no gaps (every batch appended once).
    for (let p = 0; p < PARTITIONS; p++) {
      const offsets = acked.filter((a) => a.partition === p).sort((a, b) => a.seq - b.seq)
      expect(offsets).toHaveLength(counters[p]!)
      const base = offsets[0]!.offset
      expect(offsets.map((a) => a.offset)).toEqual(offsets.map((_, i) => base + i))
    }
    // Sends in flight hold no listener each on the long-lived signals: one shared per signal.
    expect(mostOnCaller).toBeLessThanOrEqual(1)
    expect(mostOnLifetime).toBeLessThanOrEqual(1)
    // The caller's signal still stops a send (here before it starts).
    const stopped = new AbortController()
    stopped.abort(new Error('caller gave up'))
    await expect(
      producer.send({ topic: 'piped', messages: [{ value: 'never' }], signal: stopped.signal }),
    ).rejects.toThrow('caller gave up')
    await producer.disconnect()
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0)
  }, 120_000)

  it('sends, before it releases the producer, every send called before disconnect (pipelined, in flight, not yet in a batch)', async () => {
    const { client } = mesh
    await client
      .admin()
      .createTopics({ topics: [{ topic: 'closing', numPartitions: PARTITIONS, replicationFactor: 3 }] })
    for (let round = 0; round < 3; round++) {
      const producer = client.producer({ maxInFlightRequests: 5 })
      await producer.connect()
      const sends: Array<Promise<unknown>> = []
      for (let i = 0; i < 300; i++) {
        const messages = Array.from({ length: RECORDS_PER_SEND }, () => ({ value: 'x', partition: i % PARTITIONS }))
        sends.push(producer.send({ topic: 'closing', messages }))
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1))
      }
      // The last sends are still resolving metadata when disconnect begins.
      const outcomes = Promise.allSettled(sends)
      await producer.disconnect()
      const failed = (await outcomes).flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))
      expect(failed).toEqual([])
      await expect(producer.send({ topic: 'closing', messages: [{ value: 'late' }] })).rejects.toThrow(/disconnected/)
    }
  }, 120_000)
})
