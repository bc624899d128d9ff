/**
 * @tributary/client — the Tributary SDK, shaped like KafkaJS so a Kafka user needs no manual.
 * Works in Node and in browsers.
 *
 * ```ts
 * import { Tributary } from '@tributary/client'
 *
 * const mesh = await Tributary.connect({ bootstrap: ['/ip4/127.0.0.1/tcp/4001/p2p/12D3Koo…'] })
 * const admin = mesh.admin()
 * await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 6, replicationFactor: 3 }] })
 *
 * const producer = mesh.producer() // idempotent: a retried batch is appended once
 * await producer.send({ topic: 'orders', acks: 'all', messages: [{ key: 'u1', value: 'hello' }] })
 *
 * const consumer = mesh.consumer({ groupId: 'billing' }) // partitions shared with the group's other members
 * await consumer.subscribe({ topics: ['orders'], fromBeginning: true })
 * await consumer.run({
 *   eachMessage: async ({ topic, partition, message }) => {
 *     await handleOrder(topic, partition, message.offset, message.value) // your code
 *   },
 * })
 * // …
 * await mesh.disconnect()
 * ```
 *
 * Offline-first apps send through a durable outbox (IndexedDB in browsers) that delivers exactly
 * once when the mesh is reachable: `await Tributary.openOutbox({ bootstrap, outbox: { name } })`,
 * then `enqueue` / `send` (see OutboxProducer).
 *
 * Inside a running peer, `Tributary.fromPeer(peer, { readFrom })` gives the same API; its consumers
 * read the peer's own replica by default (ReadFrom: 'local' | 'nearby' | 'leader'). Offsets and timestamps
 * are strings in results (64-bit, as in KafkaJS); inputs take strings, numbers or bigints.
 * Errors are the classes of @tributary/wire's one code table (re-exported here) plus the
 * client's own (InvalidArgumentError, NumberOfRetriesExceededError, NoPeerAvailableError,
 * ClientClosedError); each has `name`, `code` and `retriable`.
 */

export {
  CoordinatorLoadInProgressError,
  CoordinatorNotAvailableError,
  CorruptRecordError,
  DuplicateSequenceError,
  ErrorCode,
  FencedInstanceIdError,
  FencedLeaderEpochError,
  GroupIdNotFoundError,
  InvalidConfigError,
  InvalidPartitionsError,
  InvalidProducerEpochError,
  InvalidRecordError,
  InvalidReplicationFactorError,
  InvalidRequestError,
  InvalidTimestampError,
  InvalidTopicError,
  KafkaStorageError,
  LeaderNotAvailableError,
  NetworkError,
  NonEmptyGroupError,
  NotCoordinatorError,
  NotEnoughReplicasError,
  NotLeaderOrFollowerError,
  OffsetOutOfRangeError,
  OutOfOrderSequenceError,
  RecordListTooLargeError,
  RecordTooLargeError,
  RequestTimedOutError,
  StorageQuotaError,
  TopicAlreadyExistsError,
  TributaryError,
  UnknownLeaderEpochError,
  UnknownTopicOrPartitionError,
  UnsupportedCompressionError,
} from '@tributary/wire'
export { Admin, type AdminOptions, type ClusterDescription, type PartitionOffsets } from './admin/admin.js'
export {
  type ConfigResource,
  ConfigResourceTypes,
  type DescribeConfigResponse,
  type DescribedConfigEntry,
} from './admin/configs.js'
export type { DescribedPartition, DescribedReplica, DescribedTopic } from './admin/describe.js'
export type { GroupDescription, GroupOffsetLag } from './admin/groups.js'
export type { ConfigEntry, ITopicConfig } from './admin/validate.js'
/** The one class that speaks the wire to a peer (KafkaJS's broker role); the APIs above are built on it. */
export {
  type Acks,
  Broker,
  type BrokerOptions,
  type ClusterMetadata,
  type FetchPartitionResult,
  type PartitionMetadata,
  type ProduceResult,
  type ReplicaStateMetadata,
  type TopicMetadata,
  type TopicResult,
} from './broker.js'
export type { ReadFrom } from './cluster/read-replicas.js'
export {
  Consumer,
  type ConsumerOptions,
  type RunOptions,
  type SubscribeOptions,
  type TopicPartitionOffset,
  type TopicPartitions,
} from './consumer/consumer.js'
export type { KafkaMessage, MessageHeaderValue } from './consumer/decode.js'
export type { BatchProcessPayload, ConsumerEvents } from './consumer/events.js'
export type { GroupOptions } from './consumer/group-options.js'
export type { ResetPolicy } from './consumer/partition-state.js'
export type { Batch, EachBatchPayload, EachMessagePayload } from './consumer/runner.js'
export {
  ClientClosedError,
  InvalidArgumentError,
  NoPeerAvailableError,
  NumberOfRetriesExceededError,
} from './errors.js'
export type { InstrumentationEvent, Listener, RemoveListener } from './instrumentation.js'
export type { LightNodeOptions } from './node/options.js'
export { OutboxFullError, OutboxInUseError } from './outbox/errors.js'
export type { OutboxEvents } from './outbox/events.js'
export { IdbOutboxStore, outboxDatabaseName } from './outbox/idb-store.js'
export { MemoryOutboxStore } from './outbox/memory-store.js'
export { type EnqueueResult, type OutboxOptions, OutboxProducer, type OutboxRecord } from './outbox/outbox-producer.js'
export type {
  OutboxChange,
  OutboxLimits,
  OutboxMeta,
  OutboxSnapshot,
  OutboxStore,
  PartitionSequence,
  SealedBatch,
  StoredRecord,
  TopicPartitions as OutboxTopicPartitions,
} from './outbox/store.js'
export {
  defaultPartitioner,
  murmur2,
  type Partitioner,
  type PartitionerArgs,
  type PartitionerContext,
  type PartitionerFactory,
  Partitioners,
  toPositive,
} from './partitioners/index.js'
export type { ProducerEvents } from './producer/events.js'
export type { Message, MessageBytes, MessageHeaders } from './producer/messages.js'
export {
  type Compression,
  CompressionTypes,
  Producer,
  type ProducerBatchRecord,
  type ProducerOptions,
  type ProducerRecord,
  type RecordMetadata,
  type TopicMessages,
} from './producer/producer.js'
export { DEFAULT_RETRY, type RetryOptions } from './retry.js'
export { type FromPeerOptions, type PeerLike, Tributary, type TributaryConfig } from './tributary.js'
