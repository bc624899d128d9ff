/**
 * Consumer-group administration through the SDK admin against peers running the group service:
 * list, describe (members, assignments, committed offsets and lag), delete, set and reset offsets,
 * with the typed errors Kafka gives (unknown group, group not empty).
 */
import { GroupIdNotFoundError, NonEmptyGroupError, type Tributary } from '@tributary/client'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { type GroupMesh, startGroupMesh } from './group-mesh.ts'

let mesh: GroupMesh | undefined

afterEach(async () => {
  await mesh?.stop()
  mesh = undefined
})

async function produce(client: Tributary, perPartition: number, tag: string): Promise<void> {
  const producer = client.producer()
  try {
    await producer.send({
      topic: 'orders',
      acks: -1,
      messages: Array.from({ length: perPartition * 4 }, (_, i) => ({ value: `${tag}-${i}`, partition: i % 4 })),
    })
  } finally {
    await producer.disconnect()
  }
}

describe('group administration', () => {
  it('lists, describes with lag, resets, sets and deletes groups', async () => {
    mesh = await startGroupMesh(3)
    const client = await mesh.connect()
    const admin = client.admin()
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 4, replicationFactor: 3 }] })
    await produce(client, 5, 'a')

    let processed = 0
    const consumer = client.consumer({
      groupId: 'billing',
      sessionTimeout: 6_000,
      heartbeatInterval: 300,
      rebalanceTimeout: 10_000,
      autoCommitInterval: 100,
      maxWaitTimeInMs: 200,
    })
    await consumer.subscribe({ topics: ['orders'], fromBeginning: true })
    await consumer.run({
      eachMessage: async () => {
        processed++
      },
    })
    await waitFor(() => processed === 20, 'the 20 records')
    const caughtUp = await waitFor(async () => {
      const d = await admin.describeGroup('billing')
      return d.offsets.length === 4 && d.offsets.every((o) => o.lag === '0') ? d : undefined
    }, 'the group’s commits to catch up')
    expect(caughtUp.state).toBe('Stable')
    expect(caughtUp.protocol).toBe('cooperative-sticky')
    expect(caughtUp.members).toHaveLength(1)
    expect(caughtUp.members[0]!.assignment).toEqual([{ topic: 'orders', partitions: [0, 1, 2, 3] }])

    const { groups } = await admin.listGroups()
    expect(groups).toEqual([{ groupId: 'billing', protocolType: 'consumer', state: 'Stable', members: 1 }])
    const described = await admin.describeGroups(['billing'])
    expect(described.groups[0]!.members[0]!.memberId).toBe(caughtUp.members[0]!.memberId)
    await expect(admin.describeGroups(['nobody'])).rejects.toBeInstanceOf(GroupIdNotFoundError)
    await expect(admin.deleteGroups(['billing'])).rejects.toBeInstanceOf(NonEmptyGroupError)
    await expect(admin.resetOffsets({ groupId: 'billing', topic: 'orders', earliest: true })).rejects.toBeInstanceOf(
      NonEmptyGroupError,
    )

    await consumer.disconnect()
    await produce(client, 1, 'b')
    const behind = await waitFor(async () => {
      const d = await admin.describeGroup('billing')
      return d.members.length === 0 && d.offsets.every((o) => o.lag === '1') ? d : undefined
    }, 'lag 1 on every partition once the member left')
    expect(behind.state).toBe('Empty')
    const ends = behind.offsets.map((o) => o.logEndOffset)

    await admin.resetOffsets({ groupId: 'billing', topic: 'orders', earliest: true })
    const low = await admin.fetchTopicOffsets('orders')
    const [reset] = await admin.fetchOffsets({ groupId: 'billing', topics: ['orders'] })
    expect(reset!.partitions.map((p) => p.offset)).toEqual(low.map((o) => o.low))
    await admin.setOffsets({ groupId: 'billing', topic: 'orders', partitions: [{ partition: 2, offset: '3' }] })
    const afterSet = await admin.describeGroup('billing')
    expect(afterSet.offsets.find((o) => o.partition === 2)).toMatchObject({ offset: '3', logEndOffset: ends[2] })
    await admin.resetOffsets({ groupId: 'billing', topic: 'orders' })
    expect((await admin.describeGroup('billing')).offsets.every((o) => o.lag === '0')).toBe(true)

    await admin.deleteGroups(['billing'])
    await expect(admin.describeGroups(['billing'])).rejects.toBeInstanceOf(GroupIdNotFoundError)
    expect((await admin.listGroups()).groups).toEqual([])
  }, 120_000)
})
