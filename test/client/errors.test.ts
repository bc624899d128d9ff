/**
 * Bad input and failures, each a typed error with an actionable message, nothing sent: wrong
 * types from JavaScript callers, unknown topics, oversize records, an unreachable mesh; and the
 * consumer's reset policies when a position is out of range, `none` stopping it with
 * OffsetOutOfRangeError; a throwing handler retried, then the consumer stopped.
 */
import {
  InvalidArgumentError,
  type InvalidTopicError,
  NoPeerAvailableError,
  NumberOfRetriesExceededError,
  OffsetOutOfRangeError,
  type Producer,
  RecordTooLargeError,
  Tributary,
  UnknownTopicOrPartitionError,
} from '@tributary/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMesh, type TestMesh, waitFor } from './mesh.ts'

let mesh: TestMesh
let producer: Producer

const highWatermark = async (topic: string) => (await mesh.client.admin().fetchTopicOffsets(topic))[0]!.high

beforeAll(async () => {
  mesh = await startMesh(2, { retry: { retries: 2, initialRetryTime: 50, maxRetryTime: 200 } })
  producer = mesh.client.producer()
  await mesh.client.admin().createTopics({
    topics: [
      { topic: 'small', numPartitions: 1, replicationFactor: 2 },
      { topic: 'resets', numPartitions: 1, replicationFactor: 1 },
      { topic: 'failing', numPartitions: 1, replicationFactor: 1 },
    ],
  })
}, 60_000)

afterAll(async () => {
  await mesh?.stop()
})

describe('client > errors', () => {
  it('refuses wrong types from JavaScript callers with InvalidArgumentError, sending nothing', async () => {
    const before = await highWatermark('small')
    const bad: unknown[] = [
      { topic: 'small', messages: [{ value: 42 }] },
      { topic: 'small', messages: [{ key: { a: 1 }, value: 'x' }] },
      { topic: 'small', messages: [{ value: 'x', headers: ['a'] }] },
      { topic: 'small', messages: [{ value: 'x', timestamp: 'yesterday' }] },
      { topic: 'small', messages: [{ value: 'ok' }, { notAValue: true }] },
      { topic: 'small', messages: 'hello' },
      { topic: 'small', messages: [] },
      { topic: 42, messages: [{ value: 'x' }] },
      { topic: 'small', messages: [{ value: 'x', partition: 7 }] },
      { topic: 'small', messages: [{ value: 'x', partition: -1 }] },
      { topic: 'small', acks: 1, messages: [{ value: 'x' }] }, // idempotent needs acks=all
      { topic: 'small', acks: 2, messages: [{ value: 'x' }] },
      { topic: 'small', compression: 'brotli', messages: [{ value: 'x' }] },
    ]
    for (const request of bad) {
      const err = await producer.send(request as never).catch((e: unknown) => e)
      expect(err, JSON.stringify(request)).toBeInstanceOf(InvalidArgumentError)
      expect((err as InvalidArgumentError).retriable).toBe(false)
    }
    const partition = (await producer
      .send({ topic: 'small', messages: [{ value: 'x', partition: 7 }] })
      .catch((e: Error) => e)) as Error
    expect(partition.message).toContain('small has 1 partitions')
    expect(await highWatermark('small')).toBe(before)
    expect(() => mesh.client.producer({ batchSize: -5 })).toThrow(InvalidArgumentError)
    expect(() => mesh.client.consumer({ autoOffsetReset: 'sometimes' as never })).toThrow(InvalidArgumentError)
  })

  it('reports an unknown topic as UnknownTopicOrPartitionError naming it, after the retries', async () => {
    const err = await producer.send({ topic: 'no-such-topic', messages: [{ value: 'x' }] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NumberOfRetriesExceededError)
    expect((err as Error).cause).toBeInstanceOf(UnknownTopicOrPartitionError)
    expect((err as Error).message).toContain('no-such-topic')
    const consumer = mesh.client.consumer()
    const sub = await consumer.subscribe({ topic: 'no-such-topic' }).catch((e: unknown) => e)
    expect((sub as Error).cause).toBeInstanceOf(UnknownTopicOrPartitionError)
    await consumer.disconnect()
    // Auto-creation is off by default: the failed send created nothing.
    expect(await mesh.client.admin().listTopics()).not.toContain('no-such-topic')
  })

  it('creates a missing topic on first send only when allowAutoTopicCreation is on', async () => {
    const auto = mesh.client.producer({ allowAutoTopicCreation: { numPartitions: 2 } })
    const [sent] = await auto.send({ topic: 'made-on-send', messages: [{ key: 'k', value: 'first' }] })
    expect(sent!.topicName).toBe('made-on-send')
    const [made] = await mesh.client.admin().describeTopics({ topics: ['made-on-send'] })
    // Two voting peers in this mesh: RF 2 by default.
    expect([made!.partitions.length, made!.replicationFactor]).toEqual([2, 2])
    // A second producer finding it created sends without creating anything.
    const again = mesh.client.producer({ allowAutoTopicCreation: true })
    await again.send({ topic: 'made-on-send', messages: [{ key: 'k', value: 'second' }] })
    await Promise.all([auto.disconnect(), again.disconnect()])
    expect(() => mesh.client.producer({ allowAutoTopicCreation: { numPartitions: 0 } })).toThrow(InvalidArgumentError)
  })

  it('refuses a record larger than the topic allows with RecordTooLargeError, sending nothing', async () => {
    const before = await highWatermark('small')
    const huge = new Uint8Array(2 * 1024 * 1024)
    const err = await producer
      .send({ topic: 'small', messages: [{ value: 'fine' }, { value: huge }] })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RecordTooLargeError)
    expect((err as Error).message).toContain('small-0')
    expect((err as Error).message).toContain('max.message.bytes')
    expect(await highWatermark('small')).toBe(before)
  })

  it('refuses an invalid topic name before asking anyone', async () => {
    const err = await mesh.client
      .admin()
      .fetchTopicOffsets('bad name!')
      .catch((e: unknown) => e)
    expect((err as InvalidTopicError).name).toBe('InvalidTopicError')
  })

  it('fails to connect with NoPeerAvailableError when no bootstrap peer answers', async () => {
    const dead = `/ip4/127.0.0.1/tcp/9/p2p/${mesh.peers[0]!.peerId}`
    const err = await Tributary.connect({ bootstrap: [dead], connectionTimeout: 1500 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NoPeerAvailableError)
    expect(await Tributary.connect({ bootstrap: [] }).catch((e: unknown) => e)).toBeInstanceOf(InvalidArgumentError)
    expect(await Tributary.connect({ bootstrap: ['not a multiaddr'] }).catch((e: unknown) => e)).toBeInstanceOf(
      InvalidArgumentError,
    )
  })
})

describe('client > consumer > reset policies', () => {
  /** A consumer of `resets` at a position past the end (out of range). */
  async function pastTheEnd(autoOffsetReset: 'earliest' | 'latest' | 'none') {
    const consumer = mesh.client.consumer({ maxWaitTimeInMs: 100, autoOffsetReset })
    const seen: string[] = []
    const crashes: Error[] = []
    consumer.on('consumer.crash', ({ payload }) => crashes.push(payload.error))
    consumer.assign([{ topic: 'resets', partition: 0, offset: 1_000_000 }])
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) })
    return { consumer, seen, crashes }
  }

  it("'earliest' starts over from the log start", async () => {
    await producer.send({ topic: 'resets', messages: [{ value: 'r1' }, { value: 'r2' }] })
    const { consumer, seen } = await pastTheEnd('earliest')
    await waitFor(() => seen.length >= 2, 'the records from the start')
    expect(seen.slice(0, 2)).toEqual(['r1', 'r2'])
    await consumer.disconnect()
  })

  it("'latest' jumps to the end: only records written afterwards arrive", async () => {
    const { consumer, seen } = await pastTheEnd('latest')
    const end = await highWatermark('resets')
    await waitFor(() => consumer.positions()[0]?.offset === end, 'the position to reset to the end')
    await producer.send({ topic: 'resets', messages: [{ value: 'r3' }] })
    await waitFor(() => seen.length >= 1, 'the new record')
    expect(seen).toEqual(['r3'])
    await consumer.disconnect()
  })

  it("'none' stops the consumer with OffsetOutOfRangeError naming the partition", async () => {
    const { consumer, seen, crashes } = await pastTheEnd('none')
    await waitFor(() => crashes.length > 0, 'the crash')
    expect(crashes[0]).toBeInstanceOf(OffsetOutOfRangeError)
    expect(crashes[0]!.message).toContain('resets-0')
    expect(crashes[0]!.message).toContain('1000000')
    expect(seen).toEqual([])
    await consumer.disconnect()
  })

  it('retries a throwing handler from the record it failed on, then stops after the retries', async () => {
    const [sent] = await producer.send({ topic: 'failing', messages: [{ value: 'f1' }, { value: 'f2' }] })
    const consumer = mesh.client.consumer({ maxWaitTimeInMs: 100 })
    const attempts: string[] = []
    const crashes: Error[] = []
    consumer.on('consumer.crash', ({ payload }) => crashes.push(payload.error))
    consumer.assign([{ topic: 'failing', partition: 0, offset: sent!.baseOffset }])
    let failOnce = true
    await consumer.run({
      eachMessage: async ({ message }) => {
        const value = message.value!.toString()
        attempts.push(value)
        if (value === 'f1' && failOnce) {
          failOnce = false
          throw new Error('transient')
        }
        if (value === 'f2') throw new Error('always fails')
      },
    })
    await waitFor(() => crashes.length > 0, 'the crash after the retries')
    // f1 failed once and was redelivered; f2 failed 1 + 2 retries times.
    expect(attempts).toEqual(['f1', 'f1', 'f2', 'f2', 'f2'])
    expect(crashes[0]).toBeInstanceOf(NumberOfRetriesExceededError)
    expect((crashes[0]!.cause as Error).message).toBe('always fails')
    expect(consumer.positions()[0]!.offset).toBe(String(Number(sent!.baseOffset) + 1))
    await consumer.disconnect()
  })
})
