/**
 * KIP-392's preferred read replica, as browser peers use it: a consumer made with
 * `Tributary.fromPeer` inside a peer that serves replica reads reads the partitions that peer
 * observes from its own replica — so history stays readable with every voter gone — and only
 * up to the high watermark that replica learned. Real peers on loopback, in memory.
 */
import { Tributary } from '@tributary/client'
import { createPeer, type Peer } from '@tributary/mesh'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from './mesh.ts'

const raft = { fetchTimeoutMs: 30_000, electionTimeoutMs: 500, fetchMaxWaitMs: 300 }

describe('client > reading from the local replica', () => {
  const peers: Peer[] = []
  const clients: Tributary[] = []

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.disconnect()))
    await Promise.allSettled(peers.splice(0).map((p) => p.stop()))
  })

  it('a consumer inside an observing peer reads its replica, with every voter stopped', async () => {
    const options = { tcpPort: 0, wsPort: false as const, heartbeatIntervalMs: 200, failureTimeoutMs: 5000, raft }
    const a = await createPeer(options)
    const b = await createPeer({ ...options, bootstrap: a.addresses() })
    const observer = await createPeer({ ...options, bootstrap: a.addresses(), voter: false, servesReplicaReads: true })
    peers.push(a, b, observer)
    await waitFor(() => observer.voters().length === 2 && a.voters().length === 2, 'two voters everywhere')
    await waitFor(
      () => a.members().some((m) => m.peerId === observer.peerId && m.status === 'alive'),
      'the observer alive in a',
    )
    await a.createTopic({ name: 'history', partitions: 1, replicationFactor: 2, configs: {} })
    await observer.observe('history')

    const writer = await Tributary.connect({ bootstrap: [a.addresses()[0]!], requestTimeout: 10_000 })
    clients.push(writer)
    const producer = writer.producer()
    const values = Array.from({ length: 40 }, (_, i) => `record-${i}`)
    await producer.send({ topic: 'history', acks: -1, messages: values.map((value) => ({ value })) })
    await producer.disconnect()
    // The leader's log also holds its epoch's control batch: compare with its high watermark.
    const leaderEnd = () => Math.max(...[a, b].map((p) => p.partitions.get('history', 0)?.log.highWatermark ?? 0))
    const hosted = await waitFor(() => {
      const h = observer.partitions.get('history', 0)
      return h !== undefined && h.log.highWatermark > values.length - 1 && h.log.highWatermark === leaderEnd()
        ? h
        : undefined
    }, 'the observer to hold and commit all 40 records')
    expect(hosted.raft.isVoter).toBe(false)

    // No leader left: only the observer's own replica can answer.
    await Promise.all([a.stop(), b.stop()])
    peers.splice(0, 2)

    const local = Tributary.fromPeer(observer, { requestTimeout: 5_000 })
    clients.push(local)
    const consumer = local.consumer({ maxWaitTimeInMs: 100 })
    // Peers whose fetch answers carried records (once caught up, the consumer asks the leader for
    // what is new, which fails here: nothing is left to answer).
    const servedBy = new Set<string>()
    consumer.on('consumer.fetch', (e) => {
      if (e.payload.numberOfBatches > 0) servedBy.add(e.payload.leader)
    })
    const read: string[] = []
    consumer.assign([{ topic: 'history', partition: 0, offset: 0 }])
    await consumer.run({
      eachMessage: async ({ message }) => {
        read.push(message.value!.toString())
      },
    })
    await waitFor(() => read.length >= values.length, 'the consumer to read the replica')
    expect(read).toEqual(values)
    expect([...servedBy]).toEqual([observer.peerId])
    await consumer.disconnect()
  }, 60_000)
})
