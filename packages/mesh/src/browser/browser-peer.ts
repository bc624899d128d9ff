import { componentLogger, silentLogger } from '../logger.js'
import type { SnapshotPersistence } from '../metadata-sync.js'
import { type BrowserMeshNodeOptions, createBrowserMeshNode } from '../node/browser-node.js'
import { ObservedPartitions, type ObservedPersistence } from '../partitions/observed-partitions.js'
import { type Peer, type PeerOptions, startPeer } from '../peer.js'
import { IdbLogFactory } from './idb-log-factory.js'
import { loadOrCreateBrowserPeerKey } from './identity.js'
import { keepOneDirectConnection } from './one-connection-per-peer.js'
import { KV, PeerDatabase } from './peer-database.js'
import { BrowserStorage, requestPersistentStorage } from './storage.js'

export interface BrowserPeerOptions
  extends Pick<
    PeerOptions,
    'heartbeatIntervalMs' | 'failureTimeoutMs' | 'retentionCheckIntervalMs' | 'raft' | 'logger'
  > {
  /**
   * Names the peer's IndexedDB databases (`<name>-peer`: identity, metadata, replica catalog and
   * Raft state; `<name>-logs`: partition logs). Two peers in one origin need two names; the same
   * name after a reload is the same peer. Default `tributary`.
   */
  name?: string
  /** Node peers' WebSocket multiaddrs (with /p2p/<id>): the way into the mesh, and relays to other browsers. */
  bootstrap?: BrowserMeshNodeOptions['bootstrap']
  /** Allow ws:// and loopback/private addresses (local and test setups). Default false. */
  allowInsecureWebSockets?: boolean
  /** ICE servers for WebRTC between browsers. Default none (loopback and LAN). */
  iceServers?: RTCIceServer[]
  /**
   * Vote in partition Raft groups. Default false: a browser tab comes and goes, so it replicates
   * as an observer; placement puts voters on browsers only for topics that allow them.
   */
  voter?: boolean
  /** Keep the partition logs under this many bytes in total (retention deletes the oldest segments). */
  storageBudgetBytes?: number
  /** Ask the browser for persistent storage (`navigator.storage.persist()`). Default true. */
  persistStorage?: boolean
  /** Further libp2p node settings. */
  node?: Pick<BrowserMeshNodeOptions, 'bootstrapOptions' | 'maxConnections' | 'gossipsub'>
  /** Aborting cancels start-up (whatever started is stopped) and bootstrap dialing. */
  signal?: AbortSignal
}

/** A running browser peer: the mesh `Peer`, its storage controls, and a stop that closes its databases. */
export interface BrowserPeer {
  readonly peer: Peer
  readonly storage: BrowserStorage
  /** Whether the browser granted persistent storage at start. */
  readonly persisted: boolean
  /** Leaves the mesh, closes every log and the databases. Idempotent. */
  stop(): Promise<void>
}

const SNAPSHOT_KEY = 'metadata.snapshot'
const OBSERVED_KEY = 'observed'

/**
 * Starts a Tributary peer in a browser tab: the same `Peer` as in Node (membership, metadata,
 * Raft replicas, request handlers) over the browser libp2p node, with partition logs, Raft
 * state, metadata and identity in IndexedDB.
 */
export async function createBrowserPeer(options: BrowserPeerOptions = {}): Promise<BrowserPeer> {
  const name = options.name ?? 'tributary'
  const logger = options.logger ?? silentLogger
  options.signal?.throwIfAborted()
  const persisted = options.persistStorage === false ? false : await requestPersistentStorage()
  const db = await PeerDatabase.open(`${name}-peer`)
  try {
    const privateKey = await loadOrCreateBrowserPeerKey(db)
    const metadataPersistence: SnapshotPersistence = {
      load: async () => {
        const bytes = await db.get(KV, SNAPSHOT_KEY)
        return bytes instanceof Uint8Array ? bytes : undefined
      },
      save: (snapshot) => db.put(KV, SNAPSHOT_KEY, snapshot),
    }
    const observedPersistence: ObservedPersistence = {
      load: async () => {
        const json = await db.get(KV, OBSERVED_KEY)
        return typeof json === 'string' ? json : undefined
      },
      save: (json) => db.put(KV, OBSERVED_KEY, json),
    }
    const observed = new ObservedPartitions(observedPersistence)
    await observed.load()
    const logs = new IdbLogFactory({ peerDb: db, logDbName: `${name}-logs`, budgetBytes: options.storageBudgetBytes })
    const node = await createBrowserMeshNode({
      ...options.node,
      privateKey,
      ...(options.bootstrap === undefined ? {} : { bootstrap: options.bootstrap }),
      ...(options.allowInsecureWebSockets === undefined
        ? {}
        : { allowInsecureWebSockets: options.allowInsecureWebSockets }),
      ...(options.iceServers === undefined ? {} : { iceServers: options.iceServers }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      logger,
    })
    // Before any mesh dial: browsers that dial each other at once keep one WebRTC link.
    const unwatch = keepOneDirectConnection(node, componentLogger(logger, 'connections'))
    const peer = await startPeer(
      node,
      {
        ...(options.heartbeatIntervalMs === undefined ? {} : { heartbeatIntervalMs: options.heartbeatIntervalMs }),
        ...(options.failureTimeoutMs === undefined ? {} : { failureTimeoutMs: options.failureTimeoutMs }),
        ...(options.retentionCheckIntervalMs === undefined
          ? {}
          : { retentionCheckIntervalMs: options.retentionCheckIntervalMs }),
        ...(options.raft === undefined ? {} : { raft: options.raft }),
        voter: options.voter ?? false,
        storage: logs,
        metadataPersistence,
        observed,
        servesReplicaReads: true,
        logger,
      },
      logger,
    )
    if (options.signal?.aborted) {
      await peer.stop()
      options.signal.throwIfAborted()
    }
    componentLogger(logger, 'browser-peer').info({ peerId: peer.peerId, name, persisted }, 'browser peer started')
    let stopping: Promise<void> | undefined
    return {
      peer,
      storage: new BrowserStorage(logs),
      persisted,
      stop: () => {
        stopping ??= peer.stop().finally(() => {
          unwatch()
          db.close()
        })
        return stopping
      },
    }
  } catch (err) {
    db.close()
    throw err
  }
}
