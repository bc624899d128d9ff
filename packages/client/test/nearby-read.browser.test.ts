/**
 * Nearby reads in real Chromium (issue 7 §1): two browser peers in one page (two identities and
 * IndexedDB databases), a real Node peer process as leader and relay. Browser A observes the
 * topic; browser B does not, has a direct WebRTC connection to A, and its consumer
 * (`readFrom: 'nearby'`) reads the partition from A's replica — counted by the fetches A served —
 * then from the leader once A stops, every record once and in order.
 */
import { deleteIdbDatabase } from '@tributary/log/idb'
import { type BrowserPeer, createBrowserPeer, PeerDatabase } from '@tributary/mesh/browser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { settleDirectConnection, waitFor } from '../../../test/helpers/direct-connection.ts'
import { Tributary } from '../src/index.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
  }
}

function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`
}

describe('client > in the browser > reading from a nearby browser', () => {
  let relay: { peerId: string; ws: string } | undefined
  const started: BrowserPeer[] = []
  const clients: Tributary[] = []
  const names = [uniqueName('near-a'), uniqueName('near-b')]

  beforeAll(async () => {
    relay = await commands.startPeerProcessForPage()
  }, 60_000)

  afterAll(async () => {
    for (const client of clients) await client.disconnect().catch(() => {})
    for (const bp of started) await bp.stop().catch(() => {})
    if (relay !== undefined) await commands.stopPeerProcess(relay.peerId)
    for (const name of names) {
      await PeerDatabase.delete(`${name}-peer`).catch(() => {})
      await deleteIdbDatabase(`${name}-logs`).catch(() => {})
    }
  }, 60_000)

  it("a consumer reads a partition from a nearby browser's replica, and from the leader once it stops", async () => {
    const topic = uniqueName('nearby')
    const writer = await Tributary.connect({
      bootstrap: [relay!.ws],
      connectionTimeout: 20_000,
      node: { allowInsecureWebSockets: true },
    })
    clients.push(writer)
    await writer.admin().createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] })
    const producer = writer.producer()
    const first = Array.from({ length: 100 }, (_, i) => `first-${i}`)
    for (let i = 0; i < first.length; i += 20) {
      await producer.send({ topic, acks: 'all', messages: first.slice(i, i + 20).map((value) => ({ value })) })
    }

    const options = { bootstrap: [relay!.ws], allowInsecureWebSockets: true }
    const a = await createBrowserPeer({ ...options, name: names[0] })
    started.push(a)
    const b = await createBrowserPeer({ ...options, name: names[1] })
    started.push(b)
    await a.peer.observe(topic)
    await waitFor(
      () => (a.peer.partitions.get(topic, 0)?.log.highWatermark ?? 0) > first.length,
      'browser A to replicate and commit every record',
    )
    // A direct WebRTC connection between B and A (signalled through the relay), settled: the
    // one the lower peer id opened, so no crossing dial closes it under the reads.
    await settleDirectConnection(b, a)

    let servedByA = 0
    a.peer.onRequest((e) => {
      if (e.protocol === 'fetch' && e.ok) servedByA++
    })
    // Generous: a read from A that times out falls back to the leader, and this checks that A
    // served the reads (a loaded machine once took longer than 5 s). A stopped A fails at once.
    const inB = Tributary.fromPeer(b.peer, { requestTimeout: 15_000, readFrom: 'nearby' })
    clients.push(inB)
    const consumer = inB.consumer({ maxWaitTimeInMs: 200, maxBytesPerPartition: 512 })
    const servedBy = new Map<string, number>()
    consumer.on('consumer.fetch', (e) => {
      if (e.payload.numberOfBatches > 0) servedBy.set(e.payload.leader, (servedBy.get(e.payload.leader) ?? 0) + 1)
    })
    const read: string[] = []
    consumer.assign([{ topic, partition: 0, offset: 0 }])
    await consumer.run({
      eachMessage: async ({ message }) => {
        read.push(new TextDecoder().decode(message.value!))
      },
    })
    await waitFor(() => read.length >= first.length, 'the consumer to read the first records')
    expect(read).toEqual(first)
    expect(b.peer.partitions.get(topic, 0)).toBeUndefined()
    // Every answer with records so far came from the nearby replica (the first fetch waits for the leader's view).
    expect([...servedBy.keys()]).toEqual([a.peer.peerId])
    expect(servedByA).toBeGreaterThan(0)

    // A stops: the consumer goes on from the leader, after what it read.
    await a.stop()
    const servedBeforeStop = servedByA
    const second = Array.from({ length: 30 }, (_, i) => `second-${i}`)
    await producer.send({ topic, acks: 'all', messages: second.map((value) => ({ value })) })
    await waitFor(() => read.length >= first.length + second.length, 'the consumer to read on from the leader', 45_000)
    expect(read).toEqual([...first, ...second])
    expect(servedBy.get(relay!.peerId) ?? 0).toBeGreaterThan(0)
    expect(servedByA).toBe(servedBeforeStop)
    await consumer.disconnect()
  }, 120_000)
})
