/**
 * The Tributary peer: a libp2p node that gossips membership and topic metadata, holds the
 * partition replicas placed on it, and serves Tributary's protocols.
 *
 * ```ts
 * import '@tributary/mesh/polyfills' // first, in Node 20
 * import { createPeer } from '@tributary/mesh'
 * import { FsLogFactory, snapshotFile } from '@tributary/mesh/node-storage'
 *
 * const peer = await createPeer({
 *   dataDir: './data', tcpPort: 4001, wsPort: 4002,
 *   storage: new FsLogFactory('./data/logs'), metadataPersistence: snapshotFile('./data'),
 *   bootstrap: ['/ip4/127.0.0.1/tcp/4101/p2p/12D3Koo…'],
 * })
 * const addresses = peer.addresses() // multiaddrs to bootstrap other peers from
 * await peer.stop()
 * ```
 */
export {
  DEFAULT_FAILURE_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  PROTOCOLS,
  TOPICS,
  TRIBUTARY_VERSION,
} from './constants.js'
export { createPeer } from './create-peer.js'
export { InvalidRequestError } from './handlers/errors.js'
export { componentLogger, type Logger, silentLogger } from './logger.js'
export { type Member, type MemberStatus, Membership } from './membership/index.js'
export {
  BROWSER_VOTERS_ALLOWED,
  InvalidPartitionsError,
  InvalidReplicationFactorError,
  MetadataStore,
  TopicAlreadyExistsError,
  type TopicDescription,
  TopicRegistry,
} from './metadata/index.js'
export type { SnapshotPersistence } from './metadata-sync.js'
export { HostedPartition } from './partitions/hosted-partition.js'
export type { PartitionLogFactory, PartitionLogSpec } from './partitions/log-factory.js'
export { MemoryLogFactory } from './partitions/memory-log-factory.js'
export { ObservedPartitions, type ObservedPersistence } from './partitions/observed-partitions.js'
export { PartitionManager } from './partitions/partition-manager.js'
export { Peer, type PeerNode, type PeerOptions, type RequestEvent, startPeer } from './peer.js'
export { placeReplicas, preferredLeader } from './placement.js'
