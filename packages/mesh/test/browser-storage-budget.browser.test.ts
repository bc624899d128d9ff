/**
 * A browser peer under a storage budget: retention keeps its replicas' bytes under the budget by
 * deleting the oldest segments, while the replica keeps following the leader's log end.
 */
import { Tributary } from '@tributary/client'
import { deleteIdbDatabase } from '@tributary/log/idb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { type BrowserPeer, createBrowserPeer, PeerDatabase } from '../src/browser/index.js'
import { readValues, uniqueName, waitFor } from './browser-helpers.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
    setStorageQuota(quotaBytes: number | null): Promise<void>
  }
}

describe('mesh > browser peer > storage budget', () => {
  let node: { peerId: string; ws: string } | undefined
  let mesh: Tributary | undefined
  let bp: BrowserPeer | undefined
  const name = uniqueName('budget')

  beforeAll(async () => {
    node = await commands.startPeerProcessForPage()
    mesh = await Tributary.connect({
      bootstrap: [node.ws],
      connectionTimeout: 20_000,
      node: { allowInsecureWebSockets: true },
    })
  }, 60_000)

  afterAll(async () => {
    await bp?.stop().catch(() => {})
    await mesh?.disconnect()
    if (node !== undefined) await commands.stopPeerProcess(node.peerId)
    await PeerDatabase.delete(`${name}-peer`).catch(() => {})
    await deleteIdbDatabase(`${name}-logs`).catch(() => {})
  }, 60_000)

  it('keeps the replicas under the byte budget with retention, holding the newest records', async () => {
    const topic = uniqueName('budgeted')
    await mesh!.admin().createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] })
    const filler = 'y'.repeat(1000)
    const values = Array.from({ length: 300 }, (_, i) => `${i}:${filler}`)
    const producer = mesh!.producer()
    for (let i = 0; i < values.length; i += 4) {
      await producer.send({ topic, acks: 'all', messages: values.slice(i, i + 4).map((value) => ({ value })) })
    }
    await producer.disconnect()
    const [offsets] = await mesh!.admin().fetchTopicOffsets(topic)
    const leaderEnd = Number(offsets!.high)

    const budget = 64 * 1024
    bp = await createBrowserPeer({
      name,
      bootstrap: [node!.ws],
      allowInsecureWebSockets: true,
      storageBudgetBytes: budget,
      retentionCheckIntervalMs: 200,
    })
    await bp.peer.observe(topic)
    const hosted = await waitFor(
      () => {
        const h = bp!.peer.partitions.get(topic, 0)
        return h !== undefined && h.log.logEndOffset === leaderEnd && h.log.sizeBytes <= budget && h
      },
      'the observer to reach the leader’s end under its budget',
      60_000,
    )
    // About 300 KB went through it; the oldest segments were deleted.
    expect(hosted.log.logStartOffset).toBeGreaterThan(0)
    const kept = await readValues(hosted.log, hosted.log.logStartOffset)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(values.length)
    expect(kept).toEqual(values.slice(values.length - kept.length))

    const status = await bp.storage.status()
    expect(status.budgetBytes).toBe(budget)
    expect(status.logBytes).toBeLessThanOrEqual(budget)
    expect(status.usageBytes).toBeGreaterThan(0)
    expect(status.quotaBytes).toBeGreaterThan(0)
  }, 120_000)
})
