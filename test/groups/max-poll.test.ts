/**
 * Kafka's max.poll.interval.ms in the SDK: a member whose handler runs past `maxPollInterval`
 * leaves the group, so its partitions go to a member that makes progress (which reads from the
 * last commit, so the stuck record is processed there); once the handler returns, the member
 * rejoins and gets its share back.
 */
import type { Consumer } from '@tributary/client'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { type GroupMesh, startGroupMesh } from './group-mesh.ts'

let mesh: GroupMesh | undefined

afterEach(async () => {
  await mesh?.stop()
  mesh = undefined
})

const owned = (consumer: Consumer): number[] =>
  consumer
    .assignment()
    .flatMap((t) => t.partitions)
    .sort((a, b) => a - b)

describe('max poll interval', () => {
  it('moves the partitions of a member stuck in its handler, and takes it back once it returns', async () => {
    mesh = await startGroupMesh(1)
    const client = await mesh.connect()
    await client.admin().createTopics({ topics: [{ topic: 'jobs', numPartitions: 2, replicationFactor: 1 }] })
    const settings = {
      groupId: 'slow-workers',
      sessionTimeout: 6_000,
      heartbeatInterval: 200,
      rebalanceTimeout: 10_000,
      maxPollInterval: 1_500,
      autoCommitInterval: 100,
      maxWaitTimeInMs: 100,
    }
    const seenByA: string[] = []
    const seenByB: string[] = []
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let stuckSince: number | undefined
    const a = client.consumer(settings)
    const b = client.consumer(settings)
    try {
      await a.subscribe({ topics: ['jobs'], fromBeginning: true })
      await a.run({
        eachMessage: async ({ message }) => {
          const value = message.value!.toString()
          seenByA.push(value)
          if (value === 'stall' && stuckSince === undefined) {
            stuckSince = Date.now()
            await gate
          }
        },
      })
      await b.subscribe({ topics: ['jobs'], fromBeginning: true })
      await b.run({
        eachMessage: async ({ message }) => {
          seenByB.push(message.value!.toString())
        },
      })
      await waitFor(() => owned(a).length === 1 && owned(b).length === 1, 'a and b to own one partition each')
      const partitionOfA = owned(a)[0]!

      const producer = client.producer()
      await producer.send({ topic: 'jobs', acks: -1, messages: [{ value: 'stall', partition: partitionOfA }] })
      await waitFor(() => stuckSince !== undefined, "a's handler to be stuck")
      // Past its max poll interval a leaves: b takes both partitions and processes the stuck record.
      await waitFor(() => owned(b).length === 2 && owned(a).length === 0, 'b to own both partitions', 20_000)
      await waitFor(() => seenByB.includes('stall'), 'b to process the record a is stuck on')
      expect(Date.now() - stuckSince!).toBeGreaterThanOrEqual(1_500)

      release()
      await waitFor(
        () => owned(a).length === 1 && owned(b).length === 1,
        'a to rejoin and get a partition back',
        20_000,
      )
      await producer.send({
        topic: 'jobs',
        acks: -1,
        messages: [
          { value: 'after-0', partition: 0 },
          { value: 'after-1', partition: 1 },
        ],
      })
      await waitFor(
        () => [...seenByA, ...seenByB].filter((v) => v.startsWith('after-')).length === 2,
        'both partitions to be read again',
      )
      await producer.disconnect()
    } finally {
      release()
      await a.disconnect()
      await b.disconnect()
      await client.disconnect()
    }
  }, 90_000)
})
