/**
 * `consumer.commit_offsets` names what the coordinator accepted: in a commit the coordinator
 * partly refuses (a partition this member does not hold), the refused partition is not reported
 * as committed — listeners that track committed positions (the scenario test's ledger, an app's
 * own bookkeeping) would otherwise believe an offset landed that did not.
 */
import { IllegalGenerationError } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { type GroupMesh, startGroupMesh } from './group-mesh.ts'

let mesh: GroupMesh | undefined

afterEach(async () => {
  await mesh?.stop()
  mesh = undefined
})

describe('consumer groups > commit_offsets event', () => {
  it('lists only the partitions whose commit the coordinator accepted', async () => {
    mesh = await startGroupMesh(3)
    const client = await mesh.connect()
    await client.admin().createTopics({
      topics: [
        { topic: 'orders', numPartitions: 2, replicationFactor: 3 },
        { topic: 'elsewhere', numPartitions: 1, replicationFactor: 3 },
      ],
    })
    const consumer = client.consumer({
      groupId: 'events',
      sessionTimeout: 10_000,
      heartbeatInterval: 300,
      rebalanceTimeout: 10_000,
      autoCommit: false,
      maxWaitTimeInMs: 200,
    })
    const reported: Array<Array<{ topic: string; partition: number; offset: string }>> = []
    consumer.on('consumer.commit_offsets', (e) => reported.push(e.payload.topics))
    await consumer.subscribe({ topics: ['orders'], fromBeginning: true })
    await consumer.run({ eachMessage: async () => {} })
    await waitFor(() => consumer.assignment()[0]?.partitions.length === 2, 'orders assigned', 30_000)

    // elsewhere-0 is not this member's: the coordinator refuses it (Kafka's ILLEGAL_GENERATION) and accepts orders-1.
    await expect(
      consumer.commitOffsets([
        { topic: 'orders', partition: 1, offset: '0' },
        { topic: 'elsewhere', partition: 0, offset: '0' },
      ]),
    ).rejects.toSatisfy((err) => err instanceof IllegalGenerationError && /does not hold elsewhere-0/.test(err.message))
    expect(reported).toEqual([[{ topic: 'orders', partition: 1, offset: '0' }]])
    const committed = await client.admin().fetchOffsets({ groupId: 'events', topics: ['orders', 'elsewhere'] })
    expect(committed.find((t) => t.topic === 'elsewhere')?.partitions).toEqual([{ partition: 0, offset: '-1' }])
    expect(committed.find((t) => t.topic === 'orders')?.partitions).toContainEqual({ partition: 1, offset: '0' })
    await consumer.disconnect()
  }, 60_000)
})
