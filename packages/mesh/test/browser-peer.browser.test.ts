/**
 * A browser tab as a full peer, in real Chromium against a real `tributary peer start` process:
 * it joins the mesh as a non-voting observer with IndexedDB storage, replicates a partition into
 * IndexedDB, keeps it across a "reload" (stopped and created again on the same databases and
 * identity) and resumes from its log end.
 */
import { Tributary } from '@tributary/client'
import { deleteIdbDatabase, openIdbLog } from '@tributary/log/idb'
import { InvalidConfigError, InvalidReplicationFactorError } from '@tributary/wire'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { BROWSER_VOTERS_ALLOWED, type BrowserPeer, createBrowserPeer, PeerDatabase } from '../src/browser/index.js'
import { readValues, uniqueName, waitFor } from './browser-helpers.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
    freezePeerProcess(peerId: string, frozen: boolean): Promise<void>
  }
}

/** The browser peers' logs, printed only when a test fails. */
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

describe('mesh > browser peer', () => {
  let node: { peerId: string; ws: string } | undefined
  let mesh: Tributary | undefined
  const started: BrowserPeer[] = []
  const names: string[] = []

  beforeAll(async () => {
    node = await commands.startPeerProcessForPage()
    mesh = await Tributary.connect({
      bootstrap: [node.ws],
      connectionTimeout: 20_000,
      node: { allowInsecureWebSockets: true },
    })
  }, 60_000)

  afterAll(async () => {
    for (const bp of started) await bp.stop().catch(() => {})
    await mesh?.disconnect()
    if (node !== undefined) await commands.stopPeerProcess(node.peerId)
    for (const name of names) {
      await PeerDatabase.delete(`${name}-peer`).catch(() => {})
      await deleteIdbDatabase(`${name}-logs`).catch(() => {})
    }
  }, 60_000)

  async function start(name: string): Promise<BrowserPeer> {
    const bp = await createBrowserPeer({
      name,
      bootstrap: [node!.ws],
      allowInsecureWebSockets: true,
      raft: { fetchMaxWaitMs: 500 },
      logger: DEBUG_LOGGER,
    })
    started.push(bp)
    return bp
  }

  async function produce(topic: string, values: string[]): Promise<void> {
    const producer = mesh!.producer()
    // 25 records a batch: the log holds several batches, so reads cross batch boundaries.
    for (let i = 0; i < values.length; i += 25) {
      const sent = await producer.send({
        topic,
        acks: 'all',
        messages: values.slice(i, i + 25).map((value) => ({ key: 'k', value })),
      })
      expect(sent.map((r) => r.errorCode)).toEqual(sent.map(() => 0))
    }
    await producer.disconnect()
  }

  it('joins the mesh as a non-voting observer that stores in IndexedDB', async () => {
    const name = uniqueName('join')
    names.push(name)
    const bp = await start(name)
    const admin = mesh!.admin()
    const self = await waitFor(
      async () =>
        (await admin.describeCluster()).peers.find((p) => p.peerId === bp.peer.peerId && p.status === 'alive'),
      'the Node peer to see the browser peer alive',
    )
    expect(self).toMatchObject({ voter: false, storage: 'idb' })
    // The Node peer is in the browser's view too, as a voter on files.
    const seen = await waitFor(
      () => bp.peer.members().find((m) => m.peerId === node!.peerId && m.status === 'alive'),
      'the browser peer to see the Node peer',
    )
    expect(seen).toMatchObject({ voter: true, storage: 'fs' })
  }, 60_000)

  it('observes a partition into IndexedDB, keeps it across a reload and resumes from its log end', async () => {
    const topic = uniqueName('observed')
    const name = uniqueName('reload')
    names.push(name)
    await mesh!.admin().createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] })
    const first = Array.from({ length: 100 }, (_, i) => `first-${i}`)
    await produce(topic, first)

    const bp = await start(name)
    const peerId = bp.peer.peerId
    await bp.peer.observe(topic)
    const hosted = await waitFor(async () => {
      const h = bp.peer.partitions.get(topic, 0)
      return h !== undefined && (await readValues(h.log, 0)).length === first.length && h
    }, 'the observer to replicate the first 100 records')
    expect(hosted.raft.isVoter).toBe(false)
    expect(hosted.isLeader).toBe(false)
    expect(await readValues(hosted.log, 0)).toEqual(first)
    await bp.stop()

    // In IndexedDB itself, read with the log package alone.
    const stored = await openIdbLog({ name: `${topic}-0`, dbName: `${name}-logs`, partitionKey: `${topic}-0` })
    const storedEnd = stored.logEndOffset
    try {
      expect(storedEnd).toBeGreaterThanOrEqual(first.length)
      expect(await readValues(stored, 0, storedEnd)).toEqual(first)
    } finally {
      await stored.close()
    }

    const more = Array.from({ length: 50 }, (_, i) => `more-${i}`)
    await produce(topic, more)
    // The leader's process hangs: whatever the reloaded peer holds now came from IndexedDB.
    await commands.freezePeerProcess(node!.peerId, true)
    let reloaded: BrowserPeer | undefined
    try {
      reloaded = await start(name)
      const peer = reloaded.peer
      expect(peer.peerId).toBe(peerId)
      const again = await waitFor(() => peer.partitions.get(topic, 0), 'the replica to reopen from storage')
      expect(again.log.logStartOffset).toBe(0)
      expect(again.log.logEndOffset).toBe(storedEnd)
      // The high watermark it had learned came back with the log: readable up to it at once.
      expect(again.log.highWatermark).toBe(storedEnd)
      expect(await readValues(again.log, 0)).toEqual(first)
    } finally {
      await commands.freezePeerProcess(node!.peerId, false)
    }
    const resumed = await waitFor(
      async () => {
        const h = reloaded!.peer.partitions.get(topic, 0)
        return h !== undefined && (await readValues(h.log, 0)).length === first.length + more.length && h
      },
      'the reloaded observer to fetch the 50 newer records',
      40_000,
    )
    expect(resumed.log.logStartOffset).toBe(0)
    expect(await readValues(resumed.log, 0)).toEqual([...first, ...more])
  }, 120_000)

  it('votes only in topics that allow browser voters (browser.voters.allowed)', async () => {
    const name = uniqueName('voter')
    names.push(name)
    const bp = await createBrowserPeer({
      name,
      bootstrap: [node!.ws],
      allowInsecureWebSockets: true,
      voter: true,
      logger: DEBUG_LOGGER,
    })
    started.push(bp)
    const admin = mesh!.admin()
    await waitFor(
      async () => (await admin.describeCluster()).peers.find((p) => p.peerId === bp.peer.peerId && p.voter),
      'the Node peer to see the browser peer as a voter',
    )
    const denied = uniqueName('nodes-only')
    await expect(
      admin.createTopics({ topics: [{ topic: denied, numPartitions: 1, replicationFactor: 2 }] }),
    ).rejects.toSatisfy(
      (err: unknown) =>
        err instanceof InvalidReplicationFactorError ||
        (err instanceof Error && err.cause instanceof InvalidReplicationFactorError),
    )
    await expect(
      admin.createTopics({
        topics: [
          {
            topic: denied,
            numPartitions: 1,
            replicationFactor: 1,
            configEntries: [{ name: BROWSER_VOTERS_ALLOWED, value: 'yes' }],
          },
        ],
      }),
    ).rejects.toBeInstanceOf(InvalidConfigError)

    const allowed = uniqueName('with-browsers')
    await admin.createTopics({
      topics: [
        {
          topic: allowed,
          numPartitions: 1,
          replicationFactor: 2,
          configEntries: [{ name: BROWSER_VOTERS_ALLOWED, value: 'true' }],
        },
      ],
    })
    const hosted = await waitFor(() => bp.peer.partitions.get(allowed, 0), 'the browser to host a voting replica')
    expect(hosted.raft.isVoter).toBe(true)
    // acks=all needs both voters, the browser included.
    const values = Array.from({ length: 20 }, (_, i) => `v-${i}`)
    const producer = mesh!.producer()
    await producer.send({ topic: allowed, acks: 'all', messages: values.map((value) => ({ value })) })
    await producer.disconnect()
    await waitFor(
      async () => (await readValues(hosted.log, 0)).length === values.length,
      'the committed records in the browser',
    )
    expect(await readValues(hosted.log, 0)).toEqual(values)
  }, 90_000)
})
