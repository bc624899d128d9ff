/**
 * The SDK consumer in group mode against real peers running the group service: partitions
 * divided among 1 → 3 consumers with every partition owned by one consumer at a time, each record
 * processed once across clean handovers (commit on revoke), a stopped member's partitions moving
 * to the others, committed offsets honoured by a restarted group, and a RegExp subscription
 * picking up a topic created later.
 */
import type { Consumer, Tributary } from '@tributary/client'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { type GroupMesh, startGroupMesh } from './group-mesh.ts'

let mesh: GroupMesh | undefined

afterEach(async () => {
  await mesh?.stop()
  mesh = undefined
})

const GROUP_OPTIONS = {
  groupId: 'billing',
  sessionTimeout: 6_000,
  heartbeatInterval: 300,
  rebalanceTimeout: 10_000,
  autoCommitInterval: 200,
  maxWaitTimeInMs: 200,
}

interface Member {
  consumer: Consumer
  name: string
  assigned: string[][]
  revoked: string[][]
}

/** Records every (topic, partition, offset) processed, by which consumer. */
class Ledger {
  readonly processed = new Map<string, string[]>()
  count = 0
  add(name: string, topic: string, partition: number, offset: string): void {
    const key = `${topic}/${partition}/${offset}`
    const list = this.processed.get(key) ?? []
    list.push(name)
    this.processed.set(key, list)
    this.count++
  }
  duplicates(): string[] {
    return [...this.processed].filter(([, by]) => by.length > 1).map(([key, by]) => `${key} by ${by.join(',')}`)
  }
}

async function produce(
  client: Tributary,
  topic: string,
  count: number,
  tag: string,
  partitions?: number,
): Promise<void> {
  const producer = client.producer()
  try {
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: count }, (_, i) => ({
        key: `${tag}-${i}`,
        value: `${tag}-${i}`,
        ...(partitions === undefined ? {} : { partition: i % partitions }),
      })),
    })
  } finally {
    await producer.disconnect()
  }
}

function owned(consumer: Consumer): string[] {
  return consumer.assignment().flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`))
}

describe('consumer groups in the SDK', () => {
  it('divides partitions among 1 → 3 consumers, processes each record once, moves a stopped member’s partitions, and honours commits after a restart', async () => {
    mesh = await startGroupMesh(3)
    const m = mesh
    const admin = (await m.connect()).admin()
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 6, replicationFactor: 3 }] })
    const producerClient = await m.connect()
    await produce(producerClient, 'orders', 300, 'a')

    const ledger = new Ledger()
    const members: Member[] = []
    const start = async (name: string): Promise<Member> => {
      const client = await m.connect()
      const member: Member = { consumer: undefined as unknown as Consumer, name, assigned: [], revoked: [] }
      member.consumer = client.consumer({
        ...GROUP_OPTIONS,
        onPartitionsAssigned: (tps) => {
          member.assigned.push(tps.map((tp) => `${tp.topic}-${tp.partition}`))
        },
        onPartitionsRevoked: (tps) => {
          member.revoked.push(tps.map((tp) => `${tp.topic}-${tp.partition}`))
        },
      })
      await member.consumer.subscribe({ topics: ['orders'], fromBeginning: true })
      await member.consumer.run({
        eachMessage: async ({ topic, partition, message }) => {
          ledger.add(name, topic, partition, message.offset)
        },
      })
      members.push(member)
      return member
    }

    // Every partition has at most one owner at every moment we look.
    const overlaps: string[] = []
    const sampler = setInterval(() => {
      const seen = new Map<string, string>()
      for (const member of members) {
        for (const tp of owned(member.consumer)) {
          const other = seen.get(tp)
          if (other !== undefined) overlaps.push(`${tp} owned by ${other} and ${member.name}`)
          seen.set(tp, member.name)
        }
      }
    }, 10)
    try {
      const c1 = await start('c1')
      await waitFor(() => owned(c1.consumer).length === 6, 'c1 to own all 6 partitions')
      await waitFor(() => ledger.count >= 300, 'the first 300 records')
      const c2 = await start('c2')
      const c3 = await start('c3')
      await produce(producerClient, 'orders', 300, 'b')
      await waitFor(() => members.every((x) => owned(x.consumer).length === 2), 'the partitions shared 2-2-2', 30_000)
      expect(members.flatMap((x) => owned(x.consumer)).sort()).toEqual(
        [0, 1, 2, 3, 4, 5].map((p) => `orders-${p}`).sort(),
      )
      expect(c1.revoked.flat().length).toBe(4)
      await waitFor(() => ledger.count >= 600, 'all 600 records', 30_000)

      // A member stops cleanly: its partitions go to the other two, nothing is processed twice.
      await c3.consumer.disconnect()
      members.splice(members.indexOf(c3), 1)
      await waitFor(
        () => owned(c1.consumer).length + owned(c2.consumer).length === 6 && owned(c1.consumer).length === 3,
        'c3’s partitions to move',
        30_000,
      )
      await produce(producerClient, 'orders', 60, 'c')
      await waitFor(() => ledger.count >= 660, 'the next 60 records', 30_000)

      // The whole group stops (committing) and a new consumer of the group starts where it left off.
      await c1.consumer.disconnect()
      await c2.consumer.disconnect()
      members.length = 0
      await produce(producerClient, 'orders', 30, 'd')
      const c4 = await start('c4')
      await waitFor(() => ledger.count >= 690, 'the 30 records produced while the group was down', 30_000)
      await waitFor(() => owned(c4.consumer).length === 6, 'c4 to own everything')
      expect(ledger.count).toBe(690)
      expect(ledger.duplicates()).toEqual([])
      expect(overlaps).toEqual([])
      await c4.consumer.disconnect()
    } finally {
      clearInterval(sampler)
    }
  }, 180_000)

  it('a RegExp subscription picks up topics created later; commitOffsets commits what it is given', async () => {
    mesh = await startGroupMesh(3)
    const m = mesh
    const client = await m.connect({ metadataMaxAge: 300 })
    const admin = client.admin()
    await admin.createTopics({ topics: [{ topic: 'events.a', numPartitions: 2, replicationFactor: 3 }] })
    const seen: string[] = []
    const consumer = client.consumer({ ...GROUP_OPTIONS, groupId: 'audit', autoCommit: false })
    await consumer.subscribe({ topics: [/^events\./], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        seen.push(`${topic}-${partition}@${message.offset}`)
      },
    })
    await waitFor(() => owned(consumer).length === 2, 'events.a assigned')
    await admin.createTopics({ topics: [{ topic: 'events.b', numPartitions: 3, replicationFactor: 3 }] })
    await waitFor(() => owned(consumer).length === 5, 'events.b picked up', 30_000)
    await produce(client, 'events.b', 12, 'x', 3)
    await waitFor(() => seen.length === 12, 'events.b records', 30_000)
    // Partition 0 got 4 records; commit past the first of them.
    const zero = seen.filter((x) => x.startsWith('events.b-0@')).map((x) => Number(x.split('@')[1]))
    expect(zero.length).toBe(4)
    const firstOffset = Math.min(...zero)
    await consumer.commitOffsets([{ topic: 'events.b', partition: 0, offset: String(firstOffset + 1) }])
    await expect(consumer.commitOffsets([{ topic: 'events.b', partition: 0, offset: -5 }])).rejects.toThrow(/offset/)
    await consumer.disconnect()

    // A restarted member of the group starts from that commit on events.b-0 and from the beginning elsewhere (autoCommit off).
    const again: string[] = []
    const restarted = client.consumer({ ...GROUP_OPTIONS, groupId: 'audit', autoCommit: false })
    await restarted.subscribe({ topics: [/^events\./], fromBeginning: true })
    await restarted.run({
      eachMessage: async ({ topic, partition, message }) => {
        again.push(`${topic}-${partition}@${message.offset}`)
      },
    })
    await waitFor(() => again.length >= 11, 'the restarted consumer to catch up', 30_000)
    expect(again.sort()).toEqual(seen.filter((x) => x !== `events.b-0@${firstOffset}`).sort())
    await restarted.disconnect()
  }, 120_000)
})
