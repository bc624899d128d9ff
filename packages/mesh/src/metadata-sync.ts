import type { IdentifyResult, Libp2p, PeerId } from '@libp2p/interface'
import { PROTOCOLS, TOPICS } from './constants.js'
import type { Logger } from './logger.js'
import { decodeEntry, decodeSnapshot, encodeEntry, encodeSnapshot, type MetadataStore } from './metadata/index.js'
import { RpcClient, registerRpcHandler, type UnregisterRpcHandler } from './rpc/index.js'

const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024
const EXCHANGE_ATTEMPTS = 6

interface PubSubLike {
  subscribe(topic: string): void
  unsubscribe(topic: string): void
  publish(topic: string, data: Uint8Array): Promise<unknown>
  addEventListener(
    type: 'message',
    listener: (evt: CustomEvent<{ topic: string; data: Uint8Array; from?: PeerId }>) => void,
  ): void
  removeEventListener(
    type: 'message',
    listener: (evt: CustomEvent<{ topic: string; data: Uint8Array; from?: PeerId }>) => void,
  ): void
}

/** Keeps the metadata snapshot across restarts (a file in Node, IndexedDB in browsers). */
export interface SnapshotPersistence {
  load(): Promise<Uint8Array | undefined>
  save(snapshot: Uint8Array): Promise<void>
}

export interface MetadataSyncInit {
  node: Libp2p<{ pubsub: PubSubLike }>
  store: MetadataStore
  logger: Logger
  /** Where the snapshot is kept across restarts; none keeps metadata in memory only. */
  persistence?: SnapshotPersistence | undefined
  /** Period of anti-entropy with one random connected peer. */
  antiEntropyIntervalMs?: number
}

/**
 * Whether an identified remote is a mesh peer (it runs gossipsub) rather than a light client
 * of the SDK, which hosts nothing, gossips nothing and has no metadata to exchange. Its
 * meta-sync handler may not be registered yet when identify runs, so gossip's protocol decides.
 */
function isMeshPeer(protocols: readonly string[]): boolean {
  return protocols.some((p) => p === PROTOCOLS.metaSync || p.startsWith('/meshsub/'))
}

/**
 * Spreads the metadata store over the mesh, three ways: every local change is published on a
 * gossipsub topic; every newly identified connection to a mesh peer starts a full-state
 * exchange over `/tributary/meta-sync` (each side sends its snapshot and merges the other's),
 * so a late joiner converges at once; and a periodic exchange with one random mesh peer
 * repairs anything gossip lost. The store is last-writer-wins, so order and repetition never
 * matter. SDK clients connect too but are left alone, and a peer's RPC client is dropped when
 * it disconnects, so many short-lived clients cost nothing lasting.
 */
export class MetadataSync {
  private readonly self: string
  private unregister: UnregisterRpcHandler | undefined
  private unsubscribeStore: (() => void) | undefined
  private timer: ReturnType<typeof setInterval> | undefined
  private saveTimer: ReturnType<typeof setTimeout> | undefined
  private saving: Promise<void> = Promise.resolve()
  private readonly clients = new Map<string, RpcClient>()
  /** Connected peers identified as mesh peers: the candidates for anti-entropy. */
  private readonly meshPeers = new Map<string, PeerId>()
  private readonly lifetime = new AbortController()

  constructor(private readonly init: MetadataSyncInit) {
    this.self = init.node.peerId.toString()
  }

  /** Loads the persisted snapshot (before anything else runs) so a restarted peer knows its topics. */
  async load(): Promise<number> {
    const bytes = await this.init.persistence?.load()
    if (bytes === undefined) return 0
    try {
      return this.init.store.mergeSnapshot(decodeSnapshot(bytes))
    } catch (err) {
      this.init.logger.warn({ err }, 'persisted metadata snapshot is damaged; relearning it from peers')
      return 0
    }
  }

  async start(): Promise<void> {
    const { node, store, logger } = this.init
    this.unregister = await registerRpcHandler(
      node,
      PROTOCOLS.metaSync,
      async (request) => {
        const merged = store.mergeSnapshot(decodeSnapshot(request))
        if (merged > 0) logger.debug({ merged }, 'merged metadata from a peer')
        return encodeSnapshot(store.snapshot())
      },
      { maxRequestBytes: MAX_SNAPSHOT_BYTES, logger },
    )
    node.services.pubsub.subscribe(TOPICS.metadata)
    node.services.pubsub.addEventListener('message', this.onGossip)
    this.unsubscribeStore = store.onChange((_key, entry) => {
      if (entry.origin === this.self) {
        node.services.pubsub.publish(TOPICS.metadata, encodeEntry(entry)).catch((err: unknown) => {
          logger.debug({ err }, 'metadata gossip not published; anti-entropy will carry it')
        })
      }
      this.scheduleSave()
    })
    node.addEventListener('peer:identify', this.onIdentify)
    node.addEventListener('peer:disconnect', this.onDisconnect)
    const every = this.init.antiEntropyIntervalMs ?? 30_000
    this.timer = setInterval(() => {
      const peers = [...this.meshPeers.values()]
      const peer = peers[Math.floor(Math.random() * peers.length)]
      if (peer !== undefined) void this.exchange(peer, 1)
    }, every)
    this.timer.unref?.()
    for (const peer of node.getPeers()) {
      node.peerStore
        .get(peer, { signal: this.lifetime.signal })
        .then((known) => {
          if (isMeshPeer(known.protocols) && node.getConnections(peer).length > 0) this.meet(peer)
        })
        .catch(() => {
          // not identified yet: its identify event will come
        })
    }
  }

  /** Connected peers this sync exchanges with (for tests and diagnostics). */
  get meshPeerCount(): number {
    return this.meshPeers.size
  }

  /** RPC clients held open (one per connected mesh peer at most). */
  get clientCount(): number {
    return this.clients.size
  }

  private meet(peer: PeerId): void {
    const id = peer.toString()
    if (this.meshPeers.has(id)) return
    this.meshPeers.set(id, peer)
    void this.exchange(peer, EXCHANGE_ATTEMPTS)
  }

  private readonly onGossip = (evt: CustomEvent<{ topic: string; data: Uint8Array }>): void => {
    if (evt.detail.topic !== TOPICS.metadata) return
    try {
      this.init.store.merge(decodeEntry(evt.detail.data))
    } catch (err) {
      this.init.logger.warn({ err }, 'ignored an invalid metadata entry from gossip')
    }
  }

  private readonly onIdentify = (evt: CustomEvent<IdentifyResult>): void => {
    if (isMeshPeer(evt.detail.protocols)) this.meet(evt.detail.peerId)
  }

  private readonly onDisconnect = (evt: CustomEvent<PeerId>): void => {
    const id = evt.detail.toString()
    this.meshPeers.delete(id)
    this.clients.get(id)?.close()
    this.clients.delete(id)
  }

  /** Sends our snapshot to `peer` and merges its answer; retried while its handler may not be up yet. */
  async exchange(peer: PeerId, attempts: number): Promise<boolean> {
    const { node, store, logger } = this.init
    const id = peer.toString()
    let client = this.clients.get(id)
    if (client === undefined) {
      client = new RpcClient(node, peer, PROTOCOLS.metaSync, {
        maxRequestBytes: MAX_SNAPSHOT_BYTES,
        maxResponseBytes: MAX_SNAPSHOT_BYTES,
        requestTimeoutMs: 10_000,
        logger,
      })
      this.clients.set(id, client)
    }
    // Ends early when the peer disconnects (its client is dropped): a reconnection starts anew.
    for (
      let attempt = 0;
      attempt < attempts && !this.lifetime.signal.aborted && this.clients.get(id) === client;
      attempt++
    ) {
      try {
        const answer = await client.request(encodeSnapshot(store.snapshot()), { signal: this.lifetime.signal })
        const merged = store.mergeSnapshot(decodeSnapshot(answer))
        if (merged > 0) logger.debug({ peer: id, merged }, 'metadata exchange merged entries')
        return true
      } catch (err) {
        if (attempt === attempts - 1) logger.debug({ peer: id, err }, 'metadata exchange failed')
        await delay(200 * 2 ** attempt, this.lifetime.signal)
      }
    }
    return false
  }

  private scheduleSave(): void {
    if (this.init.persistence === undefined || this.saveTimer !== undefined) return
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined
      this.saving = this.saving
        .then(() => this.save())
        .catch((err: unknown) => {
          this.init.logger.error({ err }, 'could not persist the metadata snapshot')
        })
    }, 50)
  }

  private async save(): Promise<void> {
    await this.init.persistence?.save(encodeSnapshot(this.init.store.snapshot()))
  }

  async stop(): Promise<void> {
    this.lifetime.abort()
    clearInterval(this.timer)
    this.init.node.removeEventListener('peer:identify', this.onIdentify)
    this.init.node.removeEventListener('peer:disconnect', this.onDisconnect)
    this.meshPeers.clear()
    this.init.node.services.pubsub.removeEventListener('message', this.onGossip)
    try {
      this.init.node.services.pubsub.unsubscribe(TOPICS.metadata)
    } catch {
      // the node may already be stopping
    }
    this.unsubscribeStore?.()
    for (const client of this.clients.values()) client.close()
    this.clients.clear()
    await this.unregister?.()
    if (this.saveTimer !== undefined) {
      clearTimeout(this.saveTimer)
      this.saveTimer = undefined
      await this.save().catch(() => {})
    }
    await this.saving
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })
}
