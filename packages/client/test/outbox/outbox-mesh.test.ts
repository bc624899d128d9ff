/**
 * The outbox on a real mesh: three in-process peers (libp2p on loopback, replication factor 3)
 * and the SDK's own connection (`mesh.outbox`). Records keep flowing while the partition's
 * leader is stopped; the new leader knows the producer's sequences from the replicated log, so
 * every record is appended exactly once and in order.
 */
import { createPeer, type Peer } from '@tributary/mesh'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readBack } from '../../../../test/client/exactly-once-check.ts'
import { waitFor } from '../../../../test/client/mesh.ts'
import { MemoryOutboxStore } from '../../src/outbox/memory-store.js'
import { Tributary } from '../../src/tributary.js'

const peers: Peer[] = []
let client: Tributary | undefined

beforeAll(async () => {
  const options = { tcpPort: 0, wsPort: false as const, heartbeatIntervalMs: 200, failureTimeoutMs: 2000 }
  const seed = await createPeer(options)
  peers.push(seed)
  peers.push(...(await Promise.all([0, 1].map(() => createPeer({ ...options, bootstrap: seed.addresses() })))))
  for (const peer of peers) await waitFor(() => peer.voters().length === 3, 'three voters')
  client = await Tributary.connect({ bootstrap: peers.map((p) => p.addresses()[0]!), requestTimeout: 10_000 })
  await client.admin().createTopics({ topics: [{ topic: 'outbox-mesh', numPartitions: 1, replicationFactor: 3 }] })
}, 60_000)

afterAll(async () => {
  await client?.disconnect()
  await Promise.allSettled(peers.map((p) => p.stop()))
})

describe('outbox > on a real mesh', () => {
  it('delivers exactly once and in order across the partition leader stopping', async () => {
    const outbox = await client!.outbox({
      store: new MemoryOutboxStore('mesh'),
      retry: { initialRetryTime: 50, maxRetryTime: 500 },
    })
    let last = -1
    outbox.on('outbox.delivered', ({ payload }) => {
      last = Math.max(last, Number(payload.baseOffset) + payload.recordIds.length - 1)
    })
    const values = Array.from({ length: 300 }, (_, i) => `m${i}`)
    const first = await outbox.send({
      topic: 'outbox-mesh',
      messages: values.slice(0, 100).map((value) => ({ value })),
    })
    expect(first.reduce((n, m) => n + m.recordCount, 0)).toBe(100)

    const [described] = await client!.admin().describeTopics({ topics: ['outbox-mesh'] })
    const leaderId = described!.partitions[0]!.leader
    const leader = peers.find((p) => p.peerId === leaderId)!
    for (let i = 100; i < 300; i += 20) {
      await outbox.enqueue({ topic: 'outbox-mesh', messages: values.slice(i, i + 20).map((value) => ({ value })) })
      if (i === 160) await leader.stop()
    }
    await outbox.flush({ timeout: 60_000 })
    await outbox.close()
    const [after] = await client!.admin().describeTopics({ topics: ['outbox-mesh'] })
    expect(after!.partitions[0]!.leader).not.toBe(leaderId)

    const read = await readBack(client!, 'outbox-mesh', new Map([[0, last]]))
    expect(read.map((r) => r.value)).toEqual(values)
  }, 90_000)
})
