/**
 * A browser tab as a full Tributary peer: the same `Peer` as a Node peer (gossip membership,
 * metadata, per-partition Raft, request handlers) over the browser libp2p node (WebSockets to
 * Node peers, WebRTC to other browsers through Node circuit relays), storing partition logs,
 * Raft state, metadata and its identity in IndexedDB. No `node:` import is reachable from here.
 *
 * ```ts
 * import { createBrowserPeer } from '@tributary/mesh/browser'
 *
 * const { peer, storage, stop } = await createBrowserPeer({
 *   name: 'tributary',                 // IndexedDB names; the same name after a reload = the same peer
 *   bootstrap: ['/ip4/127.0.0.1/tcp/4002/ws/p2p/12D3Koo…'],
 *   allowInsecureWebSockets: true,     // ws:// on loopback (local setups)
 *   storageBudgetBytes: 256 * 1024 * 1024,
 * })
 * await peer.observe('orders')         // replicate every partition of 'orders' as an observer
 * const hosted = peer.partitions.get('orders', 0) // its log: hosted.log (read up to hosted.log.highWatermark)
 * const { usageBytes, quotaBytes, logBytes, persisted } = await storage.status()
 * storage.setBudget(Math.floor((quotaBytes ?? 0) / 2)) // retention keeps the logs under it
 * storage.onError(({ topic, partition, error }) => {}) // StorageQuotaError: nothing was written
 * // Read another browser's replica (direct WebRTC link), up to the high watermark it learned:
 * const { records, highWatermark } = await readFromPeer(peer.node, otherPeerId, { topic: 'orders', partition: 0, offset: 0 })
 * await peer.unobserve('orders')      // deletes the replicas no assignment names
 * await stop()
 * ```
 *
 * Browser peers do not vote by default (`voter: false`): they replicate the partitions they
 * `observe` as Raft observers (the leader admits a peer announcing the observer role at its
 * first fetch), keep them across reloads (the observed set is stored with the peer), and answer
 * fetches from other browsers (over WebRTC) from their own replica, never past the high
 * watermark they learned. `voter: true` offers to vote; placement uses it only for topics with
 * `browser.voters.allowed=true`.
 *
 * Browsers that learn of each other dial each other over WebRTC (through a relay); of two
 * connections that cross, the one the lower peer id opened stays and the other is closed
 * (one-connection-per-peer.ts), so a dial may end closed while a direct connection is up.
 * A consumer made with the SDK's `Tributary.fromPeer(peer, { readFrom: 'nearby' })` reads
 * partitions this tab does not replicate from such a directly connected browser (readFromPeer
 * is the same read by hand).
 */

export {
  DEFAULT_FAILURE_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  PROTOCOLS,
  TOPICS,
  TRIBUTARY_VERSION,
} from '../constants.js'
export { InvalidRequestError } from '../handlers/errors.js'
export { componentLogger, type Logger, silentLogger } from '../logger.js'
export { type Member, type MemberStatus, Membership } from '../membership/index.js'
export {
  BROWSER_VOTERS_ALLOWED,
  InvalidPartitionsError,
  InvalidReplicationFactorError,
  MetadataStore,
  TopicAlreadyExistsError,
  type TopicDescription,
  TopicRegistry,
} from '../metadata/index.js'
export type { SnapshotPersistence } from '../metadata-sync.js'
export { PeerKeyCorruptError } from '../node/identity-error.js'
export { HostedPartition } from '../partitions/hosted-partition.js'
export type { PartitionLogFactory, PartitionLogSpec } from '../partitions/log-factory.js'
export { MemoryLogFactory } from '../partitions/memory-log-factory.js'
export { ObservedPartitions, type ObservedPersistence } from '../partitions/observed-partitions.js'
export { PartitionManager } from '../partitions/partition-manager.js'
export { Peer, type PeerNode, type PeerOptions, type RequestEvent, startPeer } from '../peer.js'
export { placeReplicas, preferredLeader } from '../placement.js'
export { type BrowserPeer, type BrowserPeerOptions, createBrowserPeer } from './browser-peer.js'
export { IdbLogFactory, type IdbLogFactoryOptions, type StorageErrorEvent } from './idb-log-factory.js'
export { loadOrCreateBrowserPeerKey } from './identity.js'
export { PeerDatabase } from './peer-database.js'
export {
  type ReadFromPeerOptions,
  type ReadFromPeerRequest,
  type ReadFromPeerResult,
  readFromPeer,
} from './read-from-peer.js'
export { BrowserStorage, requestPersistentStorage, type StorageStatus } from './storage.js'
