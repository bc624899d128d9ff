/**
 * The SDK against real peers on loopback: produce and consume round trips (keys, null keys,
 * headers, null and empty values, per-partition order), murmur2 placement equal to KafkaJS's,
 * gzip, acks 0 and 1, subscriptions by RegExp, assign and seek, pause and resume, eachBatch.
 */
import { createRequire } from 'node:module'
import { CompressionTypes, type Consumer, type KafkaMessage, type Producer, type Tributary } from '@tributary/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMesh, type TestMesh, waitFor } from './mesh.ts'

const require = createRequire(import.meta.url)
const { Partitioners } = require('kafkajs') as {
  Partitioners: {
    DefaultPartitioner: () => (args: {
      topic: string
      partitionMetadata: Array<{ partitionId: number; leader: number }>
      message: { key: string }
    }) => number
  }
}

let mesh: TestMesh
let client: Tributary
let producer: Producer
const consumers: Consumer[] = []

interface Seen {
  topic: string
  partition: number
  message: KafkaMessage
}

/** A consumer that records what it receives; stopped in afterAll. */
function recordingConsumer(options: Parameters<Tributary['consumer']>[0] = {}) {
  const consumer = client.consumer({ maxWaitTimeInMs: 200, ...options })
  consumers.push(consumer)
  const seen: Seen[] = []
  const run = () =>
    consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        seen.push({ topic, partition, message })
      },
    })
  return { consumer, seen, run }
}

const text = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString())

beforeAll(async () => {
  mesh = await startMesh(3)
  client = mesh.client
  producer = client.producer()
  await client.admin().createTopics({
    topics: [
      { topic: 'orders', numPartitions: 4, replicationFactor: 3 },
      { topic: 'audit.eu', numPartitions: 2, replicationFactor: 1 },
      { topic: 'audit.us', numPartitions: 1, replicationFactor: 1 },
      { topic: 'billing', numPartitions: 1, replicationFactor: 1 },
      { topic: 'seekable', numPartitions: 1, replicationFactor: 2 },
      { topic: 'pausable', numPartitions: 2, replicationFactor: 1 },
    ],
  })
}, 60_000)

afterAll(async () => {
  for (const c of consumers) await c.disconnect()
  await mesh?.stop()
})

describe('client > produce and consume', () => {
  it('round-trips keys, null keys, headers, null and empty values, in order per partition', async () => {
    const messages = [
      { key: 'user-1', value: 'first', headers: { trace: 'abc', multi: ['x', 'y'] } },
      { key: 'user-1', value: 'second' },
      { key: null, value: 'keyless' },
      { key: 'user-2', value: null },
      { key: 'user-3', value: '' },
      { key: Buffer.from([0, 1, 2, 255]), value: Buffer.from([9, 8, 7]) },
    ]
    const sent = await producer.send({ topic: 'orders', messages })
    expect(sent.reduce((n, r) => n + r.recordCount, 0)).toBe(messages.length)
    for (const r of sent) {
      expect(r.topicName).toBe('orders')
      expect(Number(r.baseOffset)).toBeGreaterThanOrEqual(0)
    }

    const { consumer, seen, run } = recordingConsumer()
    await consumer.subscribe({ topics: ['orders'], fromBeginning: true })
    await run()
    await waitFor(() => seen.length >= messages.length, 'every message consumed')
    expect(seen).toHaveLength(messages.length)

    const byValue = (v: string | null) => seen.find((s) => text(s.message.value) === v)!
    const first = byValue('first')
    expect(text(first.message.key)).toBe('user-1')
    expect(text(first.message.headers.trace as Uint8Array)).toBe('abc')
    expect((first.message.headers.multi as Uint8Array[]).map(text)).toEqual(['x', 'y'])
    expect(byValue('keyless').message.key).toBeNull()
    const tombstone = seen.find((s) => text(s.message.key) === 'user-2')!
    expect(tombstone.message.value).toBeNull()
    expect(byValue('').message.value).toHaveLength(0)
    const binary = seen.find((s) => s.message.key?.[3] === 255)!
    expect([...binary.message.value!]).toEqual([9, 8, 7])

    // The same key, the same partition, in the order sent; offsets count up per partition.
    const second = byValue('second')
    expect(second.partition).toBe(first.partition)
    expect(Number(second.message.offset)).toBe(Number(first.message.offset) + 1)
    for (const partition of new Set(seen.map((s) => s.partition))) {
      const offsets = seen.filter((s) => s.partition === partition).map((s) => Number(s.message.offset))
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b))
    }
    // Offsets reported by the producer are where the consumer found the records.
    for (const r of sent) {
      const found = seen.filter((s) => s.partition === r.partition).map((s) => s.message.offset)
      expect(found).toContain(r.baseOffset)
    }
    await consumer.stop()
  })

  it('round-trips gzip batches, and acks 1 and 0 from a producer that is not idempotent', async () => {
    const plain = client.producer({ idempotent: false })
    const sends: string[] = []
    plain.on('producer.send', ({ payload }) => sends.push(`${payload.topics.join()}:${payload.messages}`))
    const [zipped] = await plain.send({
      topic: 'billing',
      compression: CompressionTypes.GZIP,
      acks: 1,
      messages: [{ value: 'gz-1'.repeat(50) }, { value: 'gz-2' }],
    })
    expect(Number(zipped!.baseOffset)).toBeGreaterThanOrEqual(0)
    const [fireAndForget] = await plain.send({ topic: 'billing', acks: 0, messages: [{ value: 'ack-0' }] })
    expect(fireAndForget!.baseOffset).toBe('-1')
    expect(sends).toEqual(['billing:2', 'billing:1'])

    const { consumer, seen, run } = recordingConsumer()
    consumer.assign([{ topic: 'billing', partition: 0, offset: zipped!.baseOffset }])
    await run()
    await waitFor(() => seen.some((s) => text(s.message.value) === 'ack-0'), 'the acks=0 record')
    expect(seen.map((s) => text(s.message.value))).toEqual(['gz-1'.repeat(50), 'gz-2', 'ack-0'])
    expect(seen[0]!.message.attributes & 0x07).toBe(CompressionTypes.GZIP)
    await consumer.stop()
    await plain.disconnect()
  })

  it("places keyed records on KafkaJS's partition numbers", async () => {
    const kafkajs = Partitioners.DefaultPartitioner()
    const partitionMetadata = [0, 1, 2, 3].map((partitionId) => ({ partitionId, leader: 0 }))
    const keys = Array.from({ length: 200 }, (_, i) => `customer-${i * 7919}`)
    const sent = await producer.send({ topic: 'orders', messages: keys.map((key) => ({ key, value: `v-${key}` })) })
    expect(sent.reduce((n, r) => n + r.recordCount, 0)).toBe(keys.length)

    const { consumer, seen, run } = recordingConsumer()
    await consumer.subscribe({ topic: 'orders', fromBeginning: true })
    await run()
    await waitFor(() => keys.every((k) => seen.some((s) => text(s.message.key) === k)), 'every keyed record')
    for (const key of keys) {
      const where = seen.find((s) => text(s.message.key) === key)!
      expect(where.partition).toBe(kafkajs({ topic: 'orders', partitionMetadata, message: { key } }))
    }
    await consumer.stop()
  })

  it('subscribes by RegExp to every partition of the matching topics', async () => {
    await producer.sendBatch({
      topicMessages: [
        {
          topic: 'audit.eu',
          messages: [
            { key: 'a', value: 'eu-1' },
            { key: 'b', value: 'eu-2' },
            { key: 'c', value: 'eu-3' },
          ],
        },
        { topic: 'audit.us', messages: [{ value: 'us-1' }] },
        { topic: 'billing', messages: [{ value: 'not audit' }] },
      ],
    })
    const { consumer, seen, run } = recordingConsumer()
    await consumer.subscribe({ topics: [/^audit\./], fromBeginning: true })
    expect(consumer.assignment()).toEqual([
      { topic: 'audit.eu', partitions: [0, 1] },
      { topic: 'audit.us', partitions: [0] },
    ])
    await run()
    await waitFor(() => seen.length >= 4, 'the audit records')
    expect(seen.map((s) => text(s.message.value)).sort()).toEqual(['eu-1', 'eu-2', 'eu-3', 'us-1'])
    await consumer.stop()
  })

  it('reads assigned partitions from a given offset, and seeks back and forth', async () => {
    const values = Array.from({ length: 10 }, (_, i) => `s${i}`)
    const [sent] = await producer.send({ topic: 'seekable', messages: values.map((value) => ({ value })) })
    // The leader's epoch-start marker takes an offset first; the records follow it.
    const base = Number(sent!.baseOffset)
    const offsets = (from: number) => values.slice(from).map((_, i) => String(base + from + i))
    const { consumer, seen, run } = recordingConsumer()
    consumer.assign([{ topic: 'seekable', partition: 0, offset: String(base + 6) }])
    await run()
    await waitFor(() => seen.length >= 4, 'the last four records')
    expect(seen.map((s) => s.message.offset)).toEqual(offsets(6))

    consumer.seek({ topic: 'seekable', partition: 0, offset: base + 2 })
    await waitFor(() => seen.length >= 12, 'records 2 to 9 again')
    expect(seen.slice(4).map((s) => text(s.message.value))).toEqual(values.slice(2))

    consumer.seek({ topic: 'seekable', partition: 0, offset: '-2' }) // earliest
    await waitFor(() => seen.length >= 22, 'everything again from the start')
    expect(seen.slice(12).map((s) => s.message.offset)).toEqual(offsets(0))
    await consumer.stop()
    expect(consumer.positions()).toEqual([{ topic: 'seekable', partition: 0, offset: String(base + 10) }])
  })

  it('pauses and resumes partitions', async () => {
    const { consumer, seen, run } = recordingConsumer()
    consumer.assign([
      { topic: 'pausable', partition: 0, offset: 0 },
      { topic: 'pausable', partition: 1, offset: 0 },
    ])
    consumer.pause([{ topic: 'pausable', partitions: [0] }])
    expect(consumer.paused()).toEqual([{ topic: 'pausable', partitions: [0] }])
    await run()
    await producer.send({
      topic: 'pausable',
      messages: [
        { value: 'p0-a', partition: 0 },
        { value: 'p1-a', partition: 1 },
      ],
    })
    await waitFor(() => seen.some((s) => text(s.message.value) === 'p1-a'), 'partition 1 while 0 is paused')
    // Partition 1 kept flowing; 0, paused before any fetch, delivered nothing. Another record on 1
    // proves the consumer fetched again after partition 0's record was written.
    await producer.send({ topic: 'pausable', messages: [{ value: 'p1-b', partition: 1 }] })
    await waitFor(() => seen.some((s) => text(s.message.value) === 'p1-b'), 'partition 1 again')
    expect(seen.filter((s) => s.partition === 0)).toEqual([])

    consumer.resume([{ topic: 'pausable' }])
    expect(consumer.paused()).toEqual([])
    await waitFor(() => seen.some((s) => text(s.message.value) === 'p0-a'), 'partition 0 after resume')
    await consumer.stop()
  })

  it('pauses from inside eachMessage and resumes with the returned function', async () => {
    const consumer = client.consumer({ maxWaitTimeInMs: 200 })
    consumers.push(consumer)
    const [sent] = await producer.send({
      topic: 'billing',
      messages: [{ value: 'b-1' }, { value: 'b-2' }, { value: 'b-3' }],
    })
    const seen: string[] = []
    let resume: (() => void) | undefined
    consumer.assign([{ topic: 'billing', partition: 0, offset: sent!.baseOffset }])
    await consumer.run({
      eachMessage: async ({ message, pause }) => {
        seen.push(text(message.value)!)
        if (text(message.value) === 'b-1') resume = pause()
      },
    })
    await waitFor(() => resume !== undefined, 'the pause')
    expect(consumer.paused()).toEqual([{ topic: 'billing', partitions: [0] }])
    expect(seen).toEqual(['b-1'])
    resume!()
    await waitFor(() => seen.includes('b-3'), 'the rest after resume')
    expect(seen).toEqual(['b-1', 'b-2', 'b-3'])
    await consumer.stop()
  })

  it('hands whole fetched batches to eachBatch', async () => {
    const consumer = client.consumer({ maxWaitTimeInMs: 200 })
    consumers.push(consumer)
    const batches: Array<{ partition: number; offsets: string[]; lag: string }> = []
    consumer.assign([{ topic: 'seekable', partition: 0, offset: 0 }])
    await consumer.run({
      eachBatch: async ({ batch }) => {
        batches.push({
          partition: batch.partition,
          offsets: batch.messages.map((m) => m.offset),
          lag: batch.offsetLag(),
        })
      },
    })
    await waitFor(() => batches.flatMap((b) => b.offsets).length >= 10, 'ten records in batches')
    const offsets = batches.flatMap((b) => b.offsets).map(Number)
    expect(offsets).toHaveLength(10)
    expect(offsets).toEqual(offsets.map((_, i) => offsets[0]! + i))
    expect(batches.at(-1)!.lag).toBe('0')
    await consumer.stop()
  })
})
