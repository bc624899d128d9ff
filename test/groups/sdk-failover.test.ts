/**
 * The SDK consumer across a coordinator failover: the peer leading the group's
 * `__consumer_offsets` partition stops; the consumer finds the new coordinator (rebuilt from the
 * log), keeps its partitions, reads everything produced since, and its commits land there.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { type GroupMesh, startGroupMesh } from './group-mesh.ts'

let mesh: GroupMesh | undefined

afterEach(async () => {
  await mesh?.stop()
  mesh = undefined
})

describe('SDK consumer across a coordinator failover', () => {
  it('finds the new coordinator, keeps reading and committing', async () => {
    mesh = await startGroupMesh(3)
    const m = mesh
    const client = await m.connect()
    const admin = client.admin()
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 4, replicationFactor: 3 }] })
    const produce = async (tag: string): Promise<void> => {
      const producer = client.producer()
      try {
        await producer.send({
          topic: 'orders',
          acks: -1,
          messages: Array.from({ length: 20 }, (_, i) => ({ value: `${tag}${i}`, partition: i % 4 })),
        })
      } finally {
        await producer.disconnect()
      }
    }
    await produce('a')
    const values = new Set<string>()
    const consumer = client.consumer({
      groupId: 'failover',
      sessionTimeout: 10_000,
      heartbeatInterval: 300,
      rebalanceTimeout: 10_000,
      autoCommitInterval: 100,
      maxWaitTimeInMs: 200,
    })
    await consumer.subscribe({ topics: ['orders'], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ message }) => {
        values.add(message.value!.toString())
      },
    })
    await waitFor(() => values.size === 20, 'the first 20 records')

    // The coordinator's peer goes away (the client knows the others from metadata, even if it was the seed).
    const coordinatorPeer = await waitFor(
      () => m.peers.find((p) => m.services.get(p)?.coordinatorOf('failover')?.groups !== undefined),
      'the coordinator',
    )
    const stopped = coordinatorPeer
    await m.services.get(stopped)!.stop()
    m.services.delete(stopped)
    await stopped.stop()
    m.peers.splice(m.peers.indexOf(stopped), 1)

    const next = await waitFor(
      () => m.peers.find((p) => m.services.get(p)?.coordinatorOf('failover')?.groups !== undefined),
      'a new coordinator',
      30_000,
    )
    expect(next.peerId).not.toBe(stopped.peerId)
    await produce('b')
    await waitFor(() => values.size === 40, 'the 20 records produced after the failover', 60_000)
    await waitFor(
      () => m.services.get(next)!.coordinatorOf('failover')?.groups?.describeGroup('failover')?.state === 'Stable',
      'the group stable at the new coordinator',
      30_000,
    )
    // Commits reach the new coordinator: every partition's committed offset catches up with its log end.
    await waitFor(
      async () => {
        const d = await admin.describeGroup('failover')
        return d.offsets.length === 4 && d.offsets.every((o) => o.lag === '0')
      },
      'commits at the new coordinator',
      30_000,
    )
    expect(consumer.assignment()).toEqual([{ topic: 'orders', partitions: [0, 1, 2, 3] }])
    await consumer.disconnect()
  }, 180_000)
})
