/**
 * A browser peer's replica against a real, full storage quota (Chromium's quota overridden over
 * CDP): the observer's appends fail as `StorageQuotaError`, reported by the peer's storage, and
 * what IndexedDB holds afterwards is a whole prefix of the partition — nothing half-written. In
 * a file of its own: Chromium caches an origin's quota for up to 30 s, so the override must come
 * before this page writes anything.
 */
import { Tributary } from '@tributary/client'
import { deleteIdbDatabase, openIdbLog } from '@tributary/log/idb'
import { StorageQuotaError } from '@tributary/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { type BrowserPeer, createBrowserPeer, PeerDatabase, type StorageErrorEvent } from '../src/browser/index.js'
import { readValues, uniqueName } from './browser-helpers.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
    setStorageQuota(quotaBytes: number | null): Promise<void>
  }
}

describe('mesh > browser peer > storage quota', () => {
  let node: { peerId: string; ws: string } | undefined
  let mesh: Tributary | undefined
  let bp: BrowserPeer | undefined
  const name = uniqueName('quota')

  beforeAll(async () => {
    node = await commands.startPeerProcessForPage()
    mesh = await Tributary.connect({
      bootstrap: [node.ws],
      connectionTimeout: 20_000,
      node: { allowInsecureWebSockets: true },
    })
  }, 60_000)

  afterAll(async () => {
    await commands.setStorageQuota(null)
    await bp?.stop().catch(() => {})
    await mesh?.disconnect()
    if (node !== undefined) await commands.stopPeerProcess(node.peerId)
    await PeerDatabase.delete(`${name}-peer`).catch(() => {})
    await deleteIdbDatabase(`${name}-logs`).catch(() => {})
  }, 60_000)

  it('surfaces a full quota as StorageQuotaError and leaves a whole prefix of the partition in IndexedDB', async () => {
    const topic = uniqueName('big')
    await mesh!.admin().createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] })
    const { usage = 0 } = await navigator.storage.estimate()
    await commands.setStorageQuota(usage + 512 * 1024)

    // Small fetches: the observer appends batch by batch, so the quota bites in the middle.
    bp = await createBrowserPeer({
      name,
      bootstrap: [node!.ws],
      allowInsecureWebSockets: true,
      raft: { fetchMaxBytes: 16 * 1024 },
    })
    const errors: StorageErrorEvent[] = []
    bp.storage.onError((event) => errors.push(event))
    await bp.peer.observe(topic)

    // Produce until the observer's writes are refused: Chromium may approve writes from a
    // quota it read up to 30 s earlier, so the amount needed is not known in advance.
    const produced: string[] = []
    const producer = mesh!.producer()
    // Random fillers: IndexedDB compresses what it stores, and a repeated filler would take
    // megabytes of records to use up half a MiB of quota.
    const filler = () =>
      Array.from(crypto.getRandomValues(new Uint8Array(500)), (b) => b.toString(16).padStart(2, '0')).join('')
    const deadline = Date.now() + 60_000
    for (let round = 0; errors.length === 0 && Date.now() < deadline && round < 2000; round++) {
      const values = Array.from({ length: 10 }, (_, i) => `${produced.length + i}:${filler()}`)
      await producer.send({ topic, acks: 'all', messages: values.map((value) => ({ value })) })
      produced.push(...values)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await producer.disconnect()
    expect(errors.length).toBeGreaterThan(0)
    const [first] = errors
    expect(first!.error).toBeInstanceOf(StorageQuotaError)
    expect((first!.error as StorageQuotaError).retriable).toBe(false)
    expect(first!.error.message).toMatch(/nothing was written/)
    expect(first).toMatchObject({ topic, partition: 0 })
    expect(bp.storage.lastError?.error).toBeInstanceOf(StorageQuotaError)

    // What the replica holds is a prefix of what was produced, in order, up to its log end.
    const hosted = bp.peer.partitions.get(topic, 0)!
    const held = await readValues(hosted.log, 0, hosted.log.logEndOffset)
    expect(held.length).toBeLessThan(produced.length)
    expect(held).toEqual(produced.slice(0, held.length))
    const status = await bp.storage.status()
    expect(status.quotaBytes).toBeGreaterThan(0)
    expect(status.logBytes).toBe(hosted.log.sizeBytes)

    await bp.stop()
    bp = undefined
    await commands.setStorageQuota(null)
    // Reopened from IndexedDB with the log package alone: whole batches, the same prefix.
    const stored = await openIdbLog({ name: `${topic}-0`, dbName: `${name}-logs`, partitionKey: `${topic}-0` })
    try {
      const again = await readValues(stored, 0, stored.logEndOffset)
      expect(again.length).toBeGreaterThanOrEqual(held.length)
      expect(again).toEqual(produced.slice(0, again.length))
    } finally {
      await stored.close()
    }
  }, 120_000)
})
