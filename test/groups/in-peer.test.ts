/**
 * A client running inside a peer (`Tributary.fromPeer`) whose own peer is the group coordinator:
 * its group requests reach the group service through the peer's handlers (libp2p cannot dial
 * itself), so it joins, reads and commits like a remote client.
 */
import { Tributary } from '@tributary/client'
import { GroupService } from '@tributary/groups/service'
import { createPeer, type Peer } from '@tributary/mesh'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../client/mesh.ts'
import { FAST_COORDINATOR } from './group-mesh.ts'

let peer: Peer | undefined
let service: GroupService | undefined
let client: Tributary | undefined

afterEach(async () => {
  await client?.disconnect()
  await service?.stop()
  await peer?.stop()
  client = undefined
  service = undefined
  peer = undefined
})

describe('consumer groups inside a peer', () => {
  it('joins, reads and commits through its own peer’s group service', async () => {
    peer = await createPeer({ tcpPort: 0, wsPort: false })
    service = await GroupService.start(peer, FAST_COORDINATOR)
    client = Tributary.fromPeer(peer)
    const admin = client.admin()
    await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 2, replicationFactor: 1 }] })
    const producer = client.producer()
    await producer.send({
      topic: 'orders',
      acks: -1,
      messages: Array.from({ length: 6 }, (_, i) => ({ value: `v${i}` })),
    })
    await producer.disconnect()

    const seen: string[] = []
    const consumer = client.consumer({
      groupId: 'local',
      sessionTimeout: 6_000,
      heartbeatInterval: 300,
      autoCommitInterval: 100,
      maxWaitTimeInMs: 200,
    })
    await consumer.subscribe({ topics: ['orders'], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(message.value!.toString())
      },
    })
    await waitFor(() => seen.length === 6, 'the 6 records')
    expect(seen.sort()).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5'])
    expect(service.coordinatorOf('local')?.groups).toBeDefined()
    await waitFor(async () => {
      const d = await admin.describeGroup('local')
      return d.offsets.length === 2 && d.offsets.every((o) => o.lag === '0')
    }, 'the commits')
    await consumer.disconnect()
    expect((await admin.describeGroup('local')).state).toBe('Empty')
  }, 60_000)
})
