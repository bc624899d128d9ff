/**
 * Page of test/web/webrtc-pair.test.ts: one browser peer (`createBrowserPeer`, IndexedDB in this
 * page's own browser context) that the test drives through `window.pair`: start it as a voter or
 * an observer, read its replica of a partition, see its connections to another page, and produce
 * through the SDK inside it (`Tributary.fromPeer`). Everything it logs at info and above (and its debug lines on elections) is kept
 * for the test to print when it fails.
 */
import { peerIdFromString } from '@libp2p/peer-id'
import { multiaddr } from '@multiformats/multiaddr'
import { Tributary } from '@tributary/client'
import { type BrowserPeer, createBrowserPeer } from '@tributary/mesh/browser'
import { decodeRecordBatchSync, iterateBatches } from '@tributary/wire'

export interface ConnectionView {
  id: string
  remoteAddr: string
  direction: string
  status: string
  /** Relayed connections carry limits; a direct WebRTC connection has none. */
  limited: boolean
  /** `direction protocol status` of each stream open on it. */
  streams: string[]
}

export interface ReplicaView {
  /** User record values from offset 0 up to the replica's high watermark. */
  values: string[]
  highWatermark: number
  logEndOffset: number
  leader: string | undefined
  epoch: number
  isVoter: boolean
  isLeader: boolean
  voters: string[]
}

export interface PairPage {
  start(options: {
    name: string
    bootstrap: string[]
    voter: boolean
    leaderImbalanceCheckIntervalMs?: number
  }): Promise<string>
  observe(topic: string): Promise<void>
  replica(topic: string, partition: number): Promise<ReplicaView | undefined>
  rtcAddress(): string | undefined
  dial(address: string): Promise<void>
  connections(peerId: string): ConnectionView[]
  /** Closes relayed connections to `peerId` (RPCs go over direct ones only). */
  dropRelayed(peerId: string): Promise<number>
  produce(topic: string, partition: number, values: string[]): Promise<void>
  logs(): string[]
  stop(): Promise<void>
}

declare global {
  interface Window {
    pair: PairPage
  }
}

const MAX_LOG_LINES = 2000
const READ_BYTES = 64 * 1024
const RPC_TIMEOUT_MS = 10_000

const lines: string[] = []
const keep =
  (level: string) =>
  (obj: object, msg?: string): void => {
    lines.push(
      `${new Date().toISOString()} ${level} ${msg ?? ''} ${JSON.stringify(obj, (_k, v) =>
        v instanceof Error ? `${v.name}: ${v.message}` : typeof v === 'bigint' ? String(v) : v,
      )}`,
    )
    if (lines.length > MAX_LOG_LINES) lines.splice(0, MAX_LOG_LINES / 2)
  }
/** Debug lines about elections and leadership are kept too: what a failed election run needs. */
const RAFT_DEBUG = /raft|stand|vote|leader|connection|dial/i
const keepDebug = keep('debug')
const logger = {
  debug: (obj: object, msg?: string): void => {
    if (RAFT_DEBUG.test(msg ?? '')) keepDebug(obj, msg)
  },
  info: keep('info'),
  warn: keep('warn'),
  error: keep('error'),
}

let browserPeer: BrowserPeer | undefined
let sdk: Tributary | undefined

function running(): BrowserPeer {
  if (browserPeer === undefined) throw new Error('pair page: start() first')
  return browserPeer
}

/** The user records' values in whole batches `bytes`. */
function valuesOf(bytes: Uint8Array): string[] {
  const text = new TextDecoder()
  const values: string[] = []
  for (const { pos, header } of iterateBatches(bytes)) {
    if (header.control) continue
    for (const record of decodeRecordBatchSync(bytes, pos, { verifyCrc: true }).records) {
      values.push(record.value === null ? '' : text.decode(record.value))
    }
  }
  return values
}

function view(c: {
  id: string
  remoteAddr: { toString(): string }
  direction: string
  status: string
  limits?: unknown
  streams: ReadonlyArray<{ direction: string; protocol?: string; status: string }>
}): ConnectionView {
  return {
    id: c.id,
    remoteAddr: c.remoteAddr.toString(),
    direction: c.direction,
    status: c.status,
    limited: c.limits !== undefined,
    streams: c.streams.map((s) => `${s.direction} ${s.protocol ?? '?'} ${s.status}`),
  }
}

window.pair = {
  async start({ name, bootstrap, voter, leaderImbalanceCheckIntervalMs }) {
    browserPeer = await createBrowserPeer({
      name,
      bootstrap,
      voter,
      ...(leaderImbalanceCheckIntervalMs === undefined ? {} : { raft: { leaderImbalanceCheckIntervalMs } }),
      allowInsecureWebSockets: true,
      persistStorage: false,
      logger,
    })
    sdk = Tributary.fromPeer(browserPeer.peer, { requestTimeout: RPC_TIMEOUT_MS })
    // Every connection opened and closed, with its address: what a failed run needs to say
    // whether the pages' direct link was there when they needed it.
    const { node } = browserPeer.peer
    for (const type of ['connection:open', 'connection:close'] as const) {
      node.addEventListener(type, ({ detail }) =>
        keep('event')({ ...view(detail), remotePeer: detail.remotePeer.toString() }, type),
      )
    }
    return browserPeer.peer.peerId
  },

  async observe(topic) {
    await running().peer.observe(topic)
  },

  async replica(topic, partition) {
    const hosted = running().peer.partitions.get(topic, partition)
    if (hosted === undefined) return undefined
    const { log, raft } = hosted
    const values: string[] = []
    // Bounded: each read moves past at least one batch.
    for (let offset = 0, reads = 0; offset < log.highWatermark && reads < 10_000; reads++) {
      const read = await log.read(offset, { maxOffset: log.highWatermark, maxBytes: READ_BYTES })
      if (read.batchCount === 0) break
      values.push(...valuesOf(read.records))
      offset = read.nextOffset
    }
    return {
      values,
      highWatermark: log.highWatermark,
      logEndOffset: log.logEndOffset,
      leader: raft.leaderId,
      epoch: raft.epoch,
      isVoter: raft.isVoter,
      isLeader: hosted.isLeader,
      voters: [...(raft.voterSet?.voters ?? [])].sort(),
    }
  },

  rtcAddress() {
    return running()
      .peer.addresses()
      .find((a) => a.includes('/p2p-circuit/webrtc'))
  },

  async dial(address) {
    await running().peer.node.dial(multiaddr(address), { signal: AbortSignal.timeout(RPC_TIMEOUT_MS) })
  },

  connections(peerId) {
    return running().peer.node.getConnections(peerIdFromString(peerId)).map(view)
  },

  async dropRelayed(peerId) {
    const relayed = running()
      .peer.node.getConnections(peerIdFromString(peerId))
      .filter((c) => c.limits !== undefined)
    for (const c of relayed) await c.close()
    return relayed.length
  },

  async produce(topic, partition, values) {
    const producer = sdk!.producer()
    try {
      await producer.send({ topic, acks: 'all', messages: values.map((value) => ({ partition, value })) })
    } finally {
      await producer.disconnect()
    }
  },

  logs() {
    return [...lines]
  },

  async stop() {
    await sdk?.disconnect()
    await browserPeer?.stop()
  },
}
