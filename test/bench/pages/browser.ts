/**
 * Page side of `npm run bench -- browser` (test/bench/browser.ts builds it with Vite, opens it
 * in two Chromium pages, A and B, and calls `window.browserBench.*` step by step):
 * - A, light client (`Tributary.connect` over WebSockets): `produce` sends records of a 16-byte
 *   key and a 100-byte value with the idempotent producer, acks=all, `perSend` records per
 *   `send` call and at most `inFlight` calls outstanding (an app that does not wait for each
 *   acknowledgement before the next send); `consume` reads them back from offset 0 with a
 *   consumer assigned the partition (no group).
 * - A, browser peer (`createBrowserPeer`): `observe` replicates the partition from the Node
 *   leader into IndexedDB (the reference for the WebRTC step) and announces a WebRTC address
 *   through the relay; B, another browser peer, `replicateFrom` dials it, waits for the direct
 *   WebRTC connection and copies the partition out of A's replica (`readFromPeer`, the next read
 *   in flight while the last one is appended) into its own IndexedDB log.
 * - A, outbox: `outboxOpen` (connected: one record sent and acknowledged), then — with the context offline and
 *   the outbox's WebSockets closed by `dropConnections`, as a lost network would — `outboxEnqueue` queues records in IndexedDB; `outboxArm` waits for the `online` event and `outboxDrained`
 *   resolves once every queued record is acknowledged, timed from that event.
 * Every database it makes is deleted by `cleanup`.
 */

import { peerIdFromString } from '@libp2p/peer-id'
import { multiaddr } from '@multiformats/multiaddr'
import { type OutboxProducer, Tributary } from '@tributary/client'
import { deleteIdbDatabase, openIdbLog } from '@tributary/log/idb'
import { type BrowserPeer, createBrowserPeer, PeerDatabase, type PeerNode, readFromPeer } from '@tributary/mesh/browser'
import { iterateBatches } from '@tributary/wire'
import { type StoreTimes, TimedOutboxStore } from './browser-timed-store.ts'

const KEY_BYTES = 16
const VALUE_BYTES = 100
/** Distinct random records the sends cycle through. */
const RING = 10_000
const READ_MAX_BYTES = 1024 * 1024
const DIAL_ATTEMPTS = 3
const DIAL_TIMEOUT_MS = 20_000
/** A 1 MiB read on loopback takes tens of ms: a read this late is stuck on a closing connection. */
const READ_TIMEOUT_MS = 5_000
/** Tries of one read from the other browser before the copy fails. */
const READ_ATTEMPTS = 5
const WAIT_TIMEOUT_MS = 120_000
/** Entries kept of a drain's timeline. */
const TIMELINE_ENTRIES = 40

export interface Timed {
  records: number
  ms: number
  bytes?: number
  /** Reads tried again after a failure. */
  retries?: number
  /** The first few failures, with when they happened. */
  retryErrors?: string[]
  /** Failed dials before the direct connection was up (not part of `ms`). */
  dialErrors?: string[]
}

/** Where an outbox drain's time went: requests sent and batches acknowledged, from the online event. */
export interface DrainDetail extends StoreTimes {
  requests: number
  deliveries: number
  firstRequestMs: number
  firstDeliveryMs: number
  /** The first steps and events of the drain, ms after the online event: where its start went. */
  timeline: string[]
}

export interface BrowserBench {
  connect(bootstrap: string[]): Promise<void>
  produce(options: { topic: string; records: number; perSend: number; inFlight: number }): Promise<Timed>
  consume(options: { topic: string; records: number }): Promise<Timed>
  startPeer(options: { name: string; bootstrap: string[] }): Promise<string>
  observe(options: { topic: string; untilOffset: number }): Promise<Timed>
  rtcAddress(): Promise<string>
  replicateFrom(options: { address: string; topic: string; untilOffset: number }): Promise<Timed>
  outboxOpen(options: { bootstrap: string[]; name: string; maxRecords: number; topic: string }): Promise<void>
  outboxEnqueue(options: { topic: string; records: number; perEnqueue: number }): Promise<Timed & { pending: number }>
  /** Closes the outbox's WebSockets, as a lost network would (Chromium's offline emulation keeps them open). */
  dropConnections(): Promise<number>
  outboxArm(): void
  outboxDrained(records: number): Promise<Timed & DrainDetail>
  cleanup(): Promise<void>
}

declare global {
  interface Window {
    browserBench: BrowserBench
  }
}

/** Random records, each key and value its own small buffer. */
function recordRing(): Array<{ key: Uint8Array; value: Uint8Array }> {
  const size = KEY_BYTES + VALUE_BYTES
  const pool = new Uint8Array(RING * size)
  // getRandomValues fills at most 65,536 bytes a call.
  for (let at = 0; at < pool.length; at += 65_536) crypto.getRandomValues(pool.subarray(at, at + 65_536))
  // Copies, not views: IndexedDB (the outbox) would store a view's whole underlying buffer.
  return Array.from({ length: RING }, (_, i) => ({
    key: pool.slice(i * size, i * size + KEY_BYTES),
    value: pool.slice(i * size + KEY_BYTES, (i + 1) * size),
  }))
}

const ring = recordRing()
const messagesFrom = (start: number, count: number) =>
  Array.from({ length: count }, (_, i) => ring[(start + i) % RING]!)

async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS
  while (Date.now() < deadline) {
    const value = await fn()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`browser bench: timed out after ${WAIT_TIMEOUT_MS} ms waiting for ${what}`)
}

let mesh: Tributary | undefined
let browserPeer: BrowserPeer | undefined
let outbox: OutboxProducer | undefined
let outboxStore: TimedOutboxStore | undefined
let online: Promise<number> | undefined
/** WebSockets the page opens and sees close, for the drain's timeline (is the connection kept across offline?). */
const socketEvents: Array<{ at: number; what: string }> = []
/** Open WebSockets dialed since the outbox was opened: its connections (the page's other clients keep theirs). */
const sockets = new Set<WebSocket>()
let trackSockets = false
let armedAt = 0
const PageWebSocket = window.WebSocket
window.WebSocket = class extends PageWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols)
    if (trackSockets) sockets.add(this)
    this.addEventListener('close', () => sockets.delete(this))
    const where = String(url).replace(/^wss?:\/\//, '')
    socketEvents.push({ at: performance.now(), what: `WebSocket to ${where} dialed` })
    this.addEventListener('open', () =>
      socketEvents.push({ at: performance.now(), what: `WebSocket to ${where} open` }),
    )
    this.addEventListener('close', () =>
      socketEvents.push({ at: performance.now(), what: `WebSocket to ${where} closed` }),
    )
  }
}

let drain = {
  requests: 0,
  deliveries: 0,
  firstRequestAt: undefined as number | undefined,
  firstDeliveryAt: undefined as number | undefined,
  timeline: [] as Array<{ at: number; what: string }>,
}
const databases: string[] = []
const peerNames: string[] = []

const bench: BrowserBench = {
  async connect(bootstrap) {
    mesh = await Tributary.connect({ bootstrap, connectionTimeout: 30_000, node: { allowInsecureWebSockets: true } })
  },

  async produce({ topic, records, perSend, inFlight }) {
    const producer = mesh!.producer({ idempotent: true })
    try {
      const outstanding = new Set<Promise<unknown>>()
      let failure: unknown
      const started = performance.now()
      for (let sent = 0; sent < records && failure === undefined; sent += perSend) {
        const send = producer
          .send({ topic, acks: 'all', messages: messagesFrom(sent, Math.min(perSend, records - sent)) })
          .catch((err: unknown) => {
            failure ??= err
          })
          .finally(() => outstanding.delete(send))
        outstanding.add(send)
        if (outstanding.size >= inFlight) await Promise.race(outstanding)
      }
      await Promise.all(outstanding)
      if (failure !== undefined) throw failure
      return { records, ms: performance.now() - started }
    } finally {
      await producer.disconnect()
    }
  },

  async consume({ topic, records }) {
    const consumer = mesh!.consumer()
    let seen = 0
    let bytes = 0
    let done!: () => void
    const reached = new Promise<void>((resolve) => {
      done = resolve
    })
    consumer.assign([{ topic, partition: 0, offset: '0' }])
    const started = performance.now()
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) bytes += (m.key?.length ?? 0) + (m.value?.length ?? 0)
        seen += batch.messages.length
        if (seen >= records) done()
      },
    })
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      await Promise.race([
        reached,
        new Promise((_, fail) => {
          timer = setTimeout(() => fail(new Error(`consume: ${seen} of ${records} records in time`)), WAIT_TIMEOUT_MS)
        }),
      ])
      return { records: seen, ms: performance.now() - started, bytes }
    } finally {
      clearTimeout(timer)
      await consumer.disconnect()
    }
  },

  async startPeer({ name, bootstrap }) {
    peerNames.push(name)
    browserPeer = await createBrowserPeer({ name, bootstrap, allowInsecureWebSockets: true, persistStorage: false })
    return browserPeer.peer.peerId
  },

  async observe({ topic, untilOffset }) {
    const { peer } = browserPeer!
    const started = performance.now()
    await peer.observe(topic, [0])
    await waitFor(() => {
      const hosted = peer.partitions.get(topic, 0)
      return hosted !== undefined && hosted.log.highWatermark >= untilOffset ? hosted : undefined
    }, `the replica of ${topic}-0 to reach offset ${untilOffset}`)
    const ms = performance.now() - started
    let records = 0
    const log = peer.partitions.get(topic, 0)!.log
    // Bounded: each read moves past at least one batch.
    for (let offset = 0, reads = 0; offset < untilOffset && reads < 1_000_000; reads++) {
      const read = await log.read(offset, { maxOffset: untilOffset, maxBytes: READ_MAX_BYTES })
      if (read.batchCount === 0) break
      for (const { header } of iterateBatches(read.records)) if (!header.control) records += header.recordCount
      offset = read.nextOffset
    }
    return { records, ms }
  },

  async rtcAddress() {
    const { peer } = browserPeer!
    return waitFor(
      () => peer.addresses().find((a) => a.includes('/p2p-circuit/webrtc')),
      'a WebRTC address through the relay',
    )
  },

  async replicateFrom({ address, topic, untilOffset }) {
    const { peer } = browserPeer!
    const target = multiaddr(address)
    const other = peerIdFromString(target.getComponents().findLast((c) => c.name === 'p2p')!.value!)
    const direct = () =>
      peer.node
        .getConnections(other)
        .find((c) => c.limits === undefined && c.remoteAddr.toString().includes('/webrtc') && c.status === 'open')
    // A dial through the relay now and then never completes (A may be dialing B at the same
    // moment): bounded tries, each ending early once any direct connection is up.
    const dialErrors: string[] = []
    for (let attempt = 1; direct() === undefined; attempt++) {
      try {
        await peer.node.dial(target, { signal: AbortSignal.timeout(DIAL_TIMEOUT_MS) })
        await waitFor(direct, 'a direct WebRTC connection')
      } catch (err) {
        dialErrors.push(String(err))
        if (direct() === undefined && attempt >= DIAL_ATTEMPTS) {
          throw new Error(`no direct WebRTC connection to ${address} after ${attempt} dials: ${dialErrors.join('; ')}`)
        }
      }
    }
    // Tributary RPCs refuse relayed connections: leave only the direct one to be picked.
    for (const c of peer.node.getConnections(other)) if (c.limits !== undefined) await c.close()
    // A may have dialed B too, leaving two direct connections of which one is then dropped:
    // every read goes over this page's own (outbound) connection while it is open.
    const via: Pick<PeerNode, 'dialProtocol'> = {
      dialProtocol: async (_peer, protocols, options) => {
        const open = peer.node
          .getConnections(other)
          .filter((c) => c.limits === undefined && c.status === 'open')
          .sort((x, y) => (x.direction === 'outbound' ? 0 : 1) - (y.direction === 'outbound' ? 0 : 1))
        if (open[0] === undefined) return peer.node.dialProtocol(other, protocols, options)
        return open[0].newStream(protocols, options)
      },
    }
    const dbName = `${peerNames.at(-1)}-copy`
    databases.push(dbName)
    const log = await openIdbLog({ name: `${topic}-0`, dbName })
    try {
      let offset = 0
      let copied = 0
      let bytes = 0
      let retries = 0
      const retryErrors: string[] = []
      // A failed read is tried again (bounded), as a replicator would; the retries are reported.
      const read = async (from: number) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await readFromPeer(
              via,
              other,
              { topic, partition: 0, offset: from, maxBytes: READ_MAX_BYTES },
              { timeoutMs: READ_TIMEOUT_MS },
            )
          } catch (err) {
            if (attempt >= READ_ATTEMPTS) throw err
            retries++
            if (retryErrors.length < 5) {
              const links = peer.node
                .getConnections(other)
                .map(
                  (c) =>
                    `${c.direction} ${c.status} ${c.limits === undefined ? 'direct' : 'limited'} ${c.streams.length} streams ${c.remoteAddr.toString().slice(-40)}`,
                )
              retryErrors.push(
                `${(performance.now() - started).toFixed(0)} ms: ${String(err)}; connections: ${links.join(' | ')}`,
              )
            }
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        }
      }
      const started = performance.now()
      let next = read(0)
      // Bounded: every read moves past at least one batch or fails the loop.
      for (let reads = 0; offset < untilOffset && reads < 1_000_000; reads++) {
        const got = await next
        if (got.records.length === 0)
          throw new Error(`peer A has nothing at offset ${offset} (hw ${got.highWatermark})`)
        for (const { header } of iterateBatches(got.records)) {
          if (!header.control) copied += header.recordCount
          offset = header.baseOffset + header.lastOffsetDelta + 1
        }
        if (offset < untilOffset) next = read(offset)
        await log.appendAsFollower(got.records)
        bytes += got.records.length
      }
      await log.flush()
      return { records: copied, ms: performance.now() - started, bytes, retries, retryErrors, dialErrors }
    } finally {
      await log.close()
    }
  },

  async outboxOpen({ bootstrap, name, maxRecords, topic }) {
    databases.push(`tributary-outbox:${name}`)
    outboxStore = new TimedOutboxStore(name)
    trackSockets = true
    outbox = await Tributary.openOutbox({
      bootstrap,
      connectionTimeout: 10_000,
      node: { allowInsecureWebSockets: true },
      outbox: {
        name,
        store: outboxStore,
        maxRecords,
        maxBytes: 256 * 1024 * 1024,
        retry: { initialRetryTime: 100, maxRetryTime: 1000 },
      },
    })
    outbox.on('outbox.retry', ({ payload }) =>
      console.error(`outbox retry: ${payload.error.name}: ${payload.error.message}`),
    )
    outbox.on('outbox.failed', ({ payload }) =>
      console.error(`outbox failed: ${payload.error.name}: ${payload.error.message}`),
    )
    // One record sent and acknowledged: the outbox is connected and knows the topic.
    await outbox.send({ topic, messages: messagesFrom(0, 1) })
  },

  async outboxEnqueue({ topic, records, perEnqueue }) {
    if (navigator.onLine) throw new Error('outboxEnqueue: the page is online; take the context offline first')
    const started = performance.now()
    for (let queued = 0; queued < records; queued += perEnqueue) {
      await outbox!.enqueue({ topic, messages: messagesFrom(queued, Math.min(perEnqueue, records - queued)) })
    }
    const ms = performance.now() - started
    return { records, ms, pending: await outbox!.pending() }
  },

  async dropConnections() {
    const open = [...sockets]
    const closed = open.map(
      (socket) => new Promise((resolve) => socket.addEventListener('close', resolve, { once: true })),
    )
    for (const socket of open) socket.close()
    await waitFor(async () => (await Promise.all(closed)).length, 'the WebSockets to close')
    trackSockets = false
    return open.length
  },

  outboxArm() {
    armedAt = performance.now()
    outboxStore!.times = { unsealedMs: 0, sealCommitMs: 0, ackCommitMs: 0, batchesMs: 0 }
    drain = { requests: 0, deliveries: 0, firstRequestAt: undefined, firstDeliveryAt: undefined, timeline: [] }
    const seen = drain
    const note = (what: string, at = performance.now()): void => {
      if (seen.timeline.length < TIMELINE_ENTRIES) seen.timeline.push({ at, what })
    }
    outboxStore!.onStep = (what, startedAt, ms) => note(`${what} (${ms.toFixed(0)} ms)`, startedAt)
    outbox!.on('outbox.request', ({ payload }) => {
      seen.requests++
      seen.firstRequestAt ??= performance.now()
      note(`request of ${payload.records} records`)
    })
    outbox!.on('outbox.delivered', ({ payload }) => {
      seen.deliveries++
      seen.firstDeliveryAt ??= performance.now()
      note(`delivered ${payload.recordIds.length} records`)
    })
    outbox!.on('outbox.online', () => note('outbox online'))
    outbox!.on('outbox.retry', ({ payload }) => note(`retry in ${payload.delayMs} ms: ${payload.error.message}`))
    window.addEventListener('online', () => note('online event'), { once: true })
    online = new Promise((resolve) =>
      window.addEventListener('online', () => resolve(performance.now()), { once: true }),
    )
  },

  async outboxDrained(records) {
    const from = await online!
    await outbox!.flush({ timeout: WAIT_TIMEOUT_MS })
    const ms = performance.now() - from
    const pending = await outbox!.pending()
    if (pending !== 0) throw new Error(`outbox: ${pending} records still pending after flush`)
    return {
      records,
      ms,
      requests: drain.requests,
      deliveries: drain.deliveries,
      firstRequestMs: (drain.firstRequestAt ?? Number.NaN) - from,
      firstDeliveryMs: (drain.firstDeliveryAt ?? Number.NaN) - from,
      timeline: [...drain.timeline, ...socketEvents.filter((e) => e.at >= armedAt - 60_000)]
        .sort((x, y) => x.at - y.at)
        .map(({ at, what }) => `${(at - from).toFixed(0).padStart(6)} ms ${what}`),
      ...outboxStore!.times,
    }
  },

  async cleanup() {
    await outbox?.close()
    await mesh?.disconnect()
    await browserPeer?.stop()
    for (const name of peerNames) {
      await PeerDatabase.delete(`${name}-peer`).catch(() => {})
      await deleteIdbDatabase(`${name}-logs`).catch(() => {})
    }
    for (const name of databases) await deleteIdbDatabase(name).catch(() => {})
  },
}

window.browserBench = bench
