/**
 * Two browser peers (two identities and IndexedDB databases in one page: Vitest gives a test
 * file one page) meet over WebRTC, signalled through a real Node peer process's circuit relay.
 * One replicates a partition from the Node leader; the other reads it from that browser's
 * replica — and keeps reading over the direct link once the relay process is gone.
 */
import { Tributary } from '@tributary/client'
import { deleteIdbDatabase } from '@tributary/log/idb'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { settleDirectConnection } from '../../../test/helpers/direct-connection.ts'
import { type BrowserPeer, createBrowserPeer, PeerDatabase, readFromPeer } from '../src/browser/index.js'
import { nextOffsetAfter, readValues, uniqueName, valuesOf, waitFor } from './browser-helpers.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
  }
}

const debugLines: string[] = []
const record = (level: string) => (obj: object, msg?: string) => {
  debugLines.push(
    `${level} ${msg} ${JSON.stringify(obj, (_k, v) => (v instanceof Error ? `${v.name}: ${v.message}` : v))}`,
  )
  if (debugLines.length > 2000) debugLines.splice(0, 1000)
}
const DEBUG_LOGGER = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') }
afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') console.log(debugLines.slice(-200).join('\n'))
  debugLines.length = 0
})

describe('mesh > browser peers over WebRTC', () => {
  let relay: { peerId: string; ws: string } | undefined
  let relayStopped = false
  const started: BrowserPeer[] = []
  const names = [uniqueName('rtc-a'), uniqueName('rtc-b')]

  beforeAll(async () => {
    relay = await commands.startPeerProcessForPage()
  }, 60_000)

  afterAll(async () => {
    for (const bp of started) await bp.stop().catch(() => {})
    if (relay !== undefined && !relayStopped) await commands.stopPeerProcess(relay.peerId)
    for (const name of names) {
      await PeerDatabase.delete(`${name}-peer`).catch(() => {})
      await deleteIdbDatabase(`${name}-logs`).catch(() => {})
    }
  }, 60_000)

  it('a browser reads from another browser’s replica over WebRTC, and still does after the relay stops', async () => {
    const topic = uniqueName('shared')
    const values = Array.from({ length: 200 }, (_, i) => `rec-${i}`)
    const mesh = await Tributary.connect({
      bootstrap: [relay!.ws],
      connectionTimeout: 20_000,
      node: { allowInsecureWebSockets: true },
    })
    try {
      await mesh.admin().createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] })
      const producer = mesh.producer()
      for (let i = 0; i < values.length; i += 20) {
        await producer.send({ topic, acks: 'all', messages: values.slice(i, i + 20).map((value) => ({ value })) })
      }
      await producer.disconnect()
    } finally {
      await mesh.disconnect()
    }

    const options = { bootstrap: [relay!.ws], allowInsecureWebSockets: true, logger: DEBUG_LOGGER }
    const a = await createBrowserPeer({ ...options, name: names[0] })
    started.push(a)
    const b = await createBrowserPeer({ ...options, name: names[1] })
    started.push(b)
    expect(a.peer.peerId).not.toBe(b.peer.peerId)

    await a.peer.observe(topic)
    const hosted = await waitFor(async () => {
      const h = a.peer.partitions.get(topic, 0)
      return h !== undefined && (await readValues(h.log, 0)).length === values.length && h
    }, 'browser A to replicate the partition from the Node leader')

    // A takes a reservation on the relay and listens for WebRTC through it.
    const rtcAddr = await waitFor(
      () => a.peer.addresses().find((addr) => addr.includes('/p2p-circuit/webrtc')),
      'browser A to announce a WebRTC address through the relay',
    )
    expect(rtcAddr).toContain(relay!.peerId)
    // A direct WebRTC connection: not the relayed (limited) one used to set it up; settled, i.e.
    // the one the lower peer id opened (a crossing one may otherwise close under the first read).
    const direct = await settleDirectConnection(b, a)
    expect(direct.remoteAddr.toString()).toContain('/webrtc')
    expect(direct.remotePeer.equals(a.peer.node.peerId)).toBe(true)

    // First part: a few KiB, so the rest is left for after the relay is gone.
    const first = await readFromPeer(b.peer.node, a.peer.node.peerId, {
      topic,
      partition: 0,
      offset: 0,
      maxBytes: 1024,
    })
    const firstValues = valuesOf(first.records)
    expect(firstValues.length).toBeGreaterThan(0)
    expect(firstValues.length).toBeLessThan(values.length)
    expect(firstValues).toEqual(values.slice(0, firstValues.length))
    // Served from A's replica, bounded by the high watermark A learned from the leader.
    expect(first.highWatermark).toBe(hosted.log.highWatermark)

    await commands.stopPeerProcess(relay!.peerId)
    relayStopped = true
    await waitFor(
      () =>
        b.peer.node.getConnections().every((c) => c.remotePeer.toString() !== relay!.peerId) &&
        a.peer.node.getConnections().every((c) => c.remotePeer.toString() !== relay!.peerId),
      'both browsers to lose their connections to the relay',
    )

    // The rest over the direct link alone.
    const rest: string[] = []
    let offset = nextOffsetAfter(first.records)
    for (let reads = 0; firstValues.length + rest.length < values.length && reads < 1000; reads++) {
      const more = await readFromPeer(b.peer.node, a.peer.node.peerId, { topic, partition: 0, offset, maxBytes: 1024 })
      if (more.records.length === 0) break
      rest.push(...valuesOf(more.records))
      offset = nextOffsetAfter(more.records)
    }
    expect([...firstValues, ...rest]).toEqual(values)
    expect(
      b.peer.node.getConnections(a.peer.node.peerId).some((c) => c.limits === undefined && c.status === 'open'),
    ).toBe(true)
  }, 120_000)
})
