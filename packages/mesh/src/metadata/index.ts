/**
 * Cluster metadata: a gossiped, convergent last-writer-wins map ordered by hybrid logical clock
 * and peer id, and the topic registry stored in it.
 *
 * @example
 * ```ts
 * import { MetadataStore, TopicRegistry, decodeEntry, encodeEntry } from './metadata/index.js'
 *
 * const store = new MetadataStore({ peerId: libp2p.peerId.toString() })
 * store.onChange((key, entry) => publish(encodeEntry(entry)))   // gossip every change
 * onMessage((bytes) => store.merge(decodeEntry(bytes)))         // merge what peers gossip
 *
 * const topics = new TopicRegistry(store)
 * topics.onTopicChange((change) => hosts.apply(change))        // created | changed | deleted | replaced
 * topics.createTopic({ name: 'orders', partitions: 6, replicationFactor: 3 }, voters)
 * ```
 */

export {
  compareEntries,
  type Entry,
  MAX_KEY_BYTES,
  MAX_ORIGIN_BYTES,
  MAX_SNAPSHOT_ENTRIES,
  MAX_VALUE_BYTES,
} from './entry.js'
export { type DecodeSnapshotOptions, decodeEntry, decodeSnapshot, encodeEntry, encodeSnapshot } from './entry-codec.js'
export {
  ClockDriftError,
  InvalidMetadataError,
  InvalidPartitionsError,
  InvalidReplicationFactorError,
  TopicAlreadyExistsError,
  TopicErrorCode,
} from './errors.js'
export {
  compareHlc,
  DEFAULT_MAX_DRIFT_MS,
  type Hlc,
  HybridLogicalClock,
  type HybridLogicalClockOptions,
  MAX_LOGICAL,
} from './hlc.js'
export { type ChangeListener, MetadataStore, type MetadataStoreOptions } from './metadata-store.js'
export {
  PARTITION_KEY_PREFIX,
  PartitionStates,
  type PartitionStateView,
  partitionKey,
} from './partition-states.js'
export {
  BROWSER_VOTERS_ALLOWED,
  browserVotersAllowed,
  logTopicConfigs,
  MESH_TOPIC_CONFIG_NAMES,
  validateTopicConfigs,
} from './topic-configs.js'
export {
  MAX_PARTITIONS,
  MAX_REPLICATION_FACTOR,
  TOPIC_KEY_PREFIX,
  type TopicDescription,
  topicKey,
  validateTopicName,
} from './topic-record.js'
export {
  type ConfigValidator,
  type CreateTopicSpec,
  type TopicChange,
  type TopicChangeListener,
  TopicRegistry,
  type TopicRegistryOptions,
  validateLogTopicConfigs,
} from './topics.js'
