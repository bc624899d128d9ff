/**
 * Static membership through the SDK (groupInstanceId): a static consumer that disconnects keeps
 * its membership; restarted within its session timeout it gets the same partitions back without
 * a rebalance (the group's generation does not move), and continues from its committed offsets.
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

const owned = (consumer: Consumer): string[] =>
  consumer
    .assignment()
    .flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`))
    .sort()

describe('static group members', () => {
  it('get their partitions back after a restart within the session, with no rebalance', async () => {
    mesh = await startGroupMesh(3)
    const client = await mesh.connect()
    const admin = client.admin()
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 4, replicationFactor: 3 }] })
    const processed: string[] = []
    const start = async (instance: string): Promise<Consumer> => {
      const consumer = client.consumer({
        groupId: 'static',
        groupInstanceId: instance,
        sessionTimeout: 20_000,
        heartbeatInterval: 300,
        rebalanceTimeout: 10_000,
        autoCommitInterval: 100,
        maxWaitTimeInMs: 200,
      })
      await consumer.subscribe({ topics: ['orders'], fromBeginning: true })
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          processed.push(`${instance}:${partition}@${message.offset}`)
        },
      })
      return consumer
    }
    const a = await start('a')
    const b = await start('b')
    await waitFor(() => owned(a).length === 2 && owned(b).length === 2, 'the partitions shared 2-2', 30_000)
    const before = await admin.describeGroup('static')
    const aPartitions = owned(a)

    const producer = client.producer()
    await producer.send({
      topic: 'orders',
      acks: -1,
      messages: Array.from({ length: 8 }, (_, i) => ({ value: `x${i}`, partition: i % 4 })),
    })
    await waitFor(() => processed.length === 8, 'the first 8 records')
    await a.disconnect()
    // Still a member (static close sends no LeaveGroup): b keeps its 2 partitions, nobody gets a's.
    const during = await admin.describeGroup('static')
    expect(during.members.map((m) => m.groupInstanceId).sort()).toEqual(['a', 'b'])
    await producer.send({
      topic: 'orders',
      acks: -1,
      messages: Array.from({ length: 8 }, (_, i) => ({ value: `y${i}`, partition: i % 4 })),
    })
    await waitFor(() => processed.length === 12, 'b’s half of the next 8')

    const a2 = await start('a')
    await waitFor(() => owned(a2).length === 2, 'a’s partitions back')
    expect(owned(a2)).toEqual(aPartitions)
    await waitFor(() => processed.length === 16, 'a’s half, read after the restart')
    await producer.disconnect()
    const after = await admin.describeGroup('static')
    expect(after.generation).toBe(before.generation)
    expect(owned(b).length).toBe(2)
    // Each record once: a's restart continued from its committed offsets.
    expect(new Set(processed.map((p) => p.split(':')[1])).size).toBe(16)
    await a2.disconnect()
    await b.disconnect()
  }, 120_000)
})
