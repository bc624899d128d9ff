/**
 * KIP-392 by locality, between peers: a consumer inside a peer that does not replicate a
 * partition reads it from a directly connected observer the leader reports caught up
 * (`readFrom: 'nearby'`), and from the leader once that observer is gone — every record once, in
 * order. Real peers on loopback (TCP), in memory; the browser version is
 * packages/client/test/nearby-read.browser.test.ts.
 */
import { Tributary } from '@tributary/client'
import { createPeer, type Peer } from '@tributary/mesh'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from './mesh.ts'

const raft = { fetchTimeoutMs: 30_000, electionTimeoutMs: 500, fetchMaxWaitMs: 300 }

describe('client > reading from a nearby replica', () => {
  const peers: Peer[] = []
  const clients: Tributary[] = []

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.disconnect()))
    await Promise.allSettled(peers.splice(0).map((p) => p.stop()))
  })

  it('reads from a directly connected observer, then from the leader when it stops', async () => {
    const options = { tcpPort: 0, wsPort: false as const, heartbeatIntervalMs: 200, failureTimeoutMs: 5000, raft }
    const leader = await createPeer(options)
    const observerOptions = { ...options, bootstrap: leader.addresses(), voter: false, servesReplicaReads: true }
    const near = await createPeer(observerOptions)
    const reader = await createPeer(observerOptions)
    peers.push(leader, near, reader)
    await waitFor(
      () =>
        [near, reader].every((p) => leader.members().some((m) => m.peerId === p.peerId && m.status === 'alive')) &&
        reader.node.getConnections().some((c) => c.remotePeer.toString() === near.peerId),
      'both observers alive and connected to each other',
    )
    await leader.createTopic({ name: 'nearby', partitions: 1, replicationFactor: 1, configs: {} })
    await near.observe('nearby')

    const writer = await Tributary.connect({ bootstrap: [leader.addresses()[0]!], requestTimeout: 10_000 })
    clients.push(writer)
    const producer = writer.producer()
    const first = Array.from({ length: 50 }, (_, i) => `first-${i}`)
    for (let i = 0; i < first.length; i += 10) {
      await producer.send({ topic: 'nearby', acks: -1, messages: first.slice(i, i + 10).map((value) => ({ value })) })
    }
    const leaderHw = () => leader.partitions.get('nearby', 0)?.log.highWatermark ?? -1
    await waitFor(
      () => near.partitions.get('nearby', 0)?.log.highWatermark === leaderHw(),
      'the observer to hold every record committed',
    )

    let servedByNear = 0
    near.onRequest((e) => {
      if (e.protocol === 'fetch' && e.ok) servedByNear++
    })
    const local = Tributary.fromPeer(reader, { requestTimeout: 5_000, readFrom: 'nearby' })
    clients.push(local)
    const consumer = local.consumer({ maxWaitTimeInMs: 100, maxBytesPerPartition: 256 })
    const servedBy = new Map<string, number>()
    consumer.on('consumer.fetch', (e) => {
      if (e.payload.numberOfBatches > 0) servedBy.set(e.payload.leader, (servedBy.get(e.payload.leader) ?? 0) + 1)
    })
    const read: string[] = []
    consumer.assign([{ topic: 'nearby', partition: 0, offset: 0 }])
    await consumer.run({
      eachMessage: async ({ message }) => {
        read.push(message.value!.toString())
      },
    })
    await waitFor(() => read.length >= first.length, 'the consumer to read the first records')
    expect(read).toEqual(first)
    expect(reader.partitions.get('nearby', 0)).toBeUndefined()
    // Every answer with records so far came from the nearby replica (the first fetch waits for the leader's view).
    expect([...servedBy.keys()]).toEqual([near.peerId])
    expect(servedByNear).toBeGreaterThan(0)

    // The nearby replica goes away; new records come from the leader, after the ones already read.
    await near.stop()
    peers.splice(peers.indexOf(near), 1)
    const second = Array.from({ length: 20 }, (_, i) => `second-${i}`)
    await producer.send({ topic: 'nearby', acks: -1, messages: second.map((value) => ({ value })) })
    await producer.disconnect()
    await waitFor(() => read.length >= first.length + second.length, 'the consumer to read on from the leader')
    expect(read).toEqual([...first, ...second])
    expect(servedBy.get(leader.peerId) ?? 0).toBeGreaterThan(0)
    await consumer.disconnect()
  }, 60_000)
})
