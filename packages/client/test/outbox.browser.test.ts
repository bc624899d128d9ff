/**
 * The offline outbox in real Chromium, against a real peer process: records queued in
 * IndexedDB while the peer is down — across a producer closed and a fresh one opened on the same
 * outbox, as a page reload does — arrive exactly once and in order when the peer is back; a
 * batch whose bookkeeping was lost after the acknowledgement, or whose request was abandoned
 * mid-flight, is re-sent and deduplicated by the peer. What the peer holds is read Node-side with
 * the `tributary consume` CLI, not through the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { IdbOutboxStore, type OutboxChange, type OutboxOptions, Tributary } from '../src/index.js'

interface Consumed {
  offset: number
  key: string | null
  value: string | null
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
    pausePeerProcess(peerId: string): Promise<void>
    restartPeerProcess(peerId: string): Promise<{ peerId: string; ws: string }>
    consumePartitionFromNode(args: {
      peerId: string
      topic: string
      partition: number
      idleMs?: number
    }): Promise<Consumed[]>
  }
}

const run = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`
const names: string[] = []

function outboxName(what: string): string {
  const name = `${what}-${run}`
  names.push(name)
  return name
}

describe('outbox > in the browser', () => {
  let peer: { peerId: string; ws: string } | undefined
  let paused = false

  const config = (outbox: OutboxOptions) => ({
    bootstrap: [peer!.ws],
    connectionTimeout: 3_000,
    node: { allowInsecureWebSockets: true },
    outbox: { retry: { initialRetryTime: 100, maxRetryTime: 1_000 }, ...outbox },
  })

  beforeAll(async () => {
    peer = await commands.startPeerProcessForPage()
    const mesh = await Tributary.connect({
      bootstrap: [peer.ws],
      connectionTimeout: 20_000,
      node: { allowInsecureWebSockets: true },
    })
    try {
      await mesh.admin().createTopics({
        topics: [
          { topic: 'outbox-offline', numPartitions: 2, replicationFactor: 1 },
          { topic: 'outbox-crash', numPartitions: 1, replicationFactor: 1 },
          { topic: 'outbox-online', numPartitions: 1, replicationFactor: 1 },
        ],
      })
    } finally {
      await mesh.disconnect()
    }
  }, 60_000)

  afterAll(async () => {
    if (peer !== undefined) {
      if (paused) await commands.restartPeerProcess(peer.peerId).catch(() => {})
      await commands.stopPeerProcess(peer.peerId)
    }
    for (const name of names) indexedDB.deleteDatabase(`tributary-outbox:${name}`)
  }, 30_000)

  it('1,000 records queued with the peer stopped, across a fresh producer on the same outbox, arrive exactly once and in order', async () => {
    const name = outboxName('offline')
    await commands.pausePeerProcess(peer!.peerId)
    paused = true
    let outbox = await Tributary.openOutbox(config({ name }))
    const offline = new Promise<void>((resolve) => outbox.on('outbox.offline', () => resolve()))
    const total = 1_000
    const message = (i: number) => ({ key: `user-${i % 7}`, value: `r${i}` })
    for (let i = 0; i < total / 2; i++) await outbox.enqueue({ topic: 'outbox-offline', messages: [message(i)] })
    await offline
    expect(await outbox.pending()).toBe(total / 2)
    // Half-way the producer goes away (as with a reload) and a fresh one opens the same outbox.
    await outbox.close()
    outbox = await Tributary.openOutbox(config({ name }))
    expect(await outbox.pending()).toBe(total / 2)
    for (let i = total / 2; i < total; i++) await outbox.enqueue({ topic: 'outbox-offline', messages: [message(i)] })
    expect(await outbox.pending()).toBe(total)

    const online = new Promise<void>((resolve) => outbox.on('outbox.online', () => resolve()))
    await commands.restartPeerProcess(peer!.peerId)
    paused = false
    await online
    await outbox.flush({ timeout: 90_000 })
    expect(await outbox.pending()).toBe(0)
    await outbox.close()

    const seen: number[] = []
    for (const partition of [0, 1]) {
      const records = await commands.consumePartitionFromNode({
        peerId: peer!.peerId,
        topic: 'outbox-offline',
        partition,
      })
      // Offsets increase (the first ones of a partition may be the leader's control records, not printed).
      const offsets = records.map((r) => r.offset)
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b))
      const indexes = records.map((r) => Number(r.value!.slice(1)))
      // In enqueue order within the partition, and every record of a key on one partition.
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b))
      for (const r of records) expect(r.key).toBe(message(Number(r.value!.slice(1))).key)
      seen.push(...indexes)
    }
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i))
  }, 180_000)

  it('a batch acknowledged but not yet removed when the tab died is re-sent by the next producer and appended once', async () => {
    const name = outboxName('crash-after-ack')
    // The store loses the removal of the first delivered batch and every write after, as a tab killed right after the ack would.
    class CrashingStore extends IdbOutboxStore {
      crashed = false
      override async commit(change: OutboxChange): Promise<void> {
        if (this.crashed || (change.deleteBatchIds !== undefined && change.released !== undefined)) {
          this.crashed = true
          throw new Error('the tab died (test)')
        }
        return super.commit(change)
      }
    }
    const crashing = new CrashingStore(name)
    let outbox = await Tributary.openOutbox(config({ name, store: crashing }))
    const requests: number[] = []
    outbox.on('outbox.request', ({ payload }) => requests.push(payload.baseSequence))
    const values = Array.from({ length: 200 }, (_, i) => `c${i}`)
    await outbox.enqueue({ topic: 'outbox-crash', messages: values.slice(0, 100).map((value) => ({ value })) })
    const deadline = Date.now() + 30_000
    while (!crashing.crashed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(crashing.crashed).toBe(true)
    await outbox.close()

    outbox = await Tributary.openOutbox(config({ name }))
    outbox.on('outbox.request', ({ payload }) => requests.push(payload.baseSequence))
    const offsets: string[] = []
    outbox.on('outbox.delivered', ({ payload }) => offsets.push(payload.baseOffset))
    await outbox.enqueue({ topic: 'outbox-crash', messages: values.slice(100).map((value) => ({ value })) })
    await outbox.flush({ timeout: 60_000 })
    await outbox.close()
    const records = await commands.consumePartitionFromNode({
      peerId: peer!.peerId,
      topic: 'outbox-crash',
      partition: 0,
    })
    expect(records.map((r) => r.value)).toEqual(values)
    // The re-sent batch has the sequences of the first send, and the peer answered it with its original offset.
    expect(requests.slice(0, 2)).toEqual([0, 0])
    expect(offsets[0]).toBe(String(records[0]!.offset))
  }, 90_000)

  it('a producer closed with a request in flight leaves the batch queued; the next one delivers it exactly once', async () => {
    const name = outboxName('close-mid-flight')
    let outbox = await Tributary.openOutbox(config({ name }))
    const inFlight = new Promise<void>((resolve) => outbox.on('outbox.request', () => resolve()))
    const values = Array.from({ length: 300 }, (_, i) => `m${i}`)
    await outbox.enqueue({ topic: 'outbox-crash', messages: values.map((value) => ({ value })) })
    await inFlight
    await outbox.close()
    outbox = await Tributary.openOutbox(config({ name }))
    await outbox.flush({ timeout: 60_000 })
    await outbox.close()

    const records = await commands.consumePartitionFromNode({
      peerId: peer!.peerId,
      topic: 'outbox-crash',
      partition: 0,
    })
    // After the previous test's 200 records.
    expect(records.slice(200).map((r) => r.value)).toEqual(values)
    expect(records).toHaveLength(500)
  }, 90_000)

  it("follows the browser's offline and online events without user code", async () => {
    const name = outboxName('browser-events')
    // A backoff far longer than the test: only the `online` event can start the next round in time.
    const outbox = await Tributary.openOutbox(
      config({ name, retry: { initialRetryTime: 120_000, maxRetryTime: 120_000 } }),
    )
    try {
      await outbox.send({ topic: 'outbox-online', messages: [{ value: 'o0' }] })
      expect(outbox.isOnline).toBe(true)
      await commands.pausePeerProcess(peer!.peerId)
      paused = true
      // The events the browser fires when the device loses and regains its network.
      const offline = new Promise<Error | undefined>((resolve) =>
        outbox.on('outbox.offline', ({ payload }) => resolve(payload.error)),
      )
      window.dispatchEvent(new Event('offline'))
      expect((await offline)?.name).toBe('BrowserOfflineError')
      expect(outbox.isOnline).toBe(false)
      const values = Array.from({ length: 50 }, (_, i) => `o${i + 1}`)
      // A round tries the stopped peer and fails; its backoff would outlast the test.
      const tried = new Promise<void>((resolve) => outbox.on('outbox.retry', () => resolve()))
      await outbox.enqueue({ topic: 'outbox-online', messages: values.map((value) => ({ value })) })
      expect(await outbox.pending()).toBe(50)
      await tried

      await commands.restartPeerProcess(peer!.peerId)
      paused = false
      // Node-side, the partition is readable again (its leader is elected) before the page hears of it.
      const before = await commands.consumePartitionFromNode({
        peerId: peer!.peerId,
        topic: 'outbox-online',
        partition: 0,
        idleMs: 1_000,
      })
      expect(before.map((r) => r.value)).toEqual(['o0'])
      const online = new Promise<void>((resolve) => outbox.on('outbox.online', () => resolve()))
      window.dispatchEvent(new Event('online'))
      await online
      await outbox.flush({ timeout: 60_000 })
      const records = await commands.consumePartitionFromNode({
        peerId: peer!.peerId,
        topic: 'outbox-online',
        partition: 0,
      })
      expect(records.map((r) => r.value)).toEqual(['o0', ...values])
    } finally {
      await outbox.close()
    }
  }, 90_000)
})
