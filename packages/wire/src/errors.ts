/**
 * Tributary's errors: one class per failure, each carrying the Kafka wire error code and
 * whether retrying the same request can succeed. Codes and retriable flags follow Kafka's
 * `org.apache.kafka.common.protocol.Errors`, so a Kafka gateway can map them 1:1.
 * `errorFromCode` is the one table from a wire code back to a class (KafkaJS's
 * `protocol/error.js` plays the same role).
 */

export const ErrorCode = {
  UNKNOWN_SERVER_ERROR: -1,
  NONE: 0,
  OFFSET_OUT_OF_RANGE: 1,
  CORRUPT_MESSAGE: 2,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  REQUEST_TIMED_OUT: 7,
  NETWORK_EXCEPTION: 13,
  MESSAGE_TOO_LARGE: 10,
  OFFSET_METADATA_TOO_LARGE: 12,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  INVALID_TOPIC_EXCEPTION: 17,
  RECORD_LIST_TOO_LARGE: 18,
  NOT_ENOUGH_REPLICAS: 19,
  ILLEGAL_GENERATION: 22,
  INCONSISTENT_GROUP_PROTOCOL: 23,
  INVALID_GROUP_ID: 24,
  UNKNOWN_MEMBER_ID: 25,
  INVALID_SESSION_TIMEOUT: 26,
  REBALANCE_IN_PROGRESS: 27,
  INVALID_TIMESTAMP: 32,
  TOPIC_ALREADY_EXISTS: 36,
  INVALID_PARTITIONS: 37,
  INVALID_REPLICATION_FACTOR: 38,
  INVALID_CONFIG: 40,
  INVALID_REQUEST: 42,
  OUT_OF_ORDER_SEQUENCE_NUMBER: 45,
  DUPLICATE_SEQUENCE_NUMBER: 46,
  INVALID_PRODUCER_EPOCH: 47,
  KAFKA_STORAGE_ERROR: 56,
  NON_EMPTY_GROUP: 68,
  GROUP_ID_NOT_FOUND: 69,
  FENCED_LEADER_EPOCH: 74,
  UNKNOWN_LEADER_EPOCH: 75,
  UNSUPPORTED_COMPRESSION_TYPE: 76,
  GROUP_MAX_SIZE_REACHED: 81,
  FENCED_INSTANCE_ID: 82,
  INVALID_RECORD: 87,
} as const

export type ErrorCodeName = keyof typeof ErrorCode

export interface ErrorOptions {
  cause?: unknown
}

/** Base class. Unknown wire codes surface as a plain TributaryError that keeps the code. */
export class TributaryError extends Error {
  static override name = 'TributaryError'
  readonly code: number
  readonly retriable: boolean

  constructor(message: string, options?: ErrorOptions & { code?: number; retriable?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    // `static name` survives minification, unlike the constructor's own name.
    this.name = new.target.name
    this.code = options?.code ?? ErrorCode.UNKNOWN_SERVER_ERROR
    this.retriable = options?.retriable ?? false
  }
}

/** Bytes that do not parse as a valid batch (bad CRC, truncated, inconsistent lengths). */
export class CorruptRecordError extends TributaryError {
  static override name = 'CorruptRecordError'
  constructor(message: string, options?: ErrorOptions) {
    // Retriable in Kafka: corruption is often in transit, and a resend can succeed.
    super(message, { ...options, code: ErrorCode.CORRUPT_MESSAGE, retriable: true })
  }
}

/** A well-formed batch that breaks a rule of its destination (null key on a compacted topic, ...). */
export class InvalidRecordError extends TributaryError {
  static override name = 'InvalidRecordError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_RECORD, retriable: false })
  }
}

export class RecordTooLargeError extends TributaryError {
  static override name = 'RecordTooLargeError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.MESSAGE_TOO_LARGE, retriable: false })
  }
}

export class UnsupportedCompressionError extends TributaryError {
  static override name = 'UnsupportedCompressionError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, retriable: false })
  }
}

export class OffsetOutOfRangeError extends TributaryError {
  static override name = 'OffsetOutOfRangeError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.OFFSET_OUT_OF_RANGE, retriable: false })
  }
}

/**
 * Out of storage quota (browser storage, disk budget). Kafka has no dedicated code, so it travels
 * as KAFKA_STORAGE_ERROR; whether a retry can help (quota freed by retention) is the caller's call.
 */
export class StorageQuotaError extends TributaryError {
  static override name = 'StorageQuotaError'
  constructor(message: string, options?: ErrorOptions & { retriable?: boolean }) {
    super(message, {
      cause: options?.cause,
      code: ErrorCode.KAFKA_STORAGE_ERROR,
      retriable: options?.retriable ?? false,
    })
  }
}

export class KafkaStorageError extends TributaryError {
  static override name = 'KafkaStorageError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.KAFKA_STORAGE_ERROR, retriable: true })
  }
}

export class InvalidTimestampError extends TributaryError {
  static override name = 'InvalidTimestampError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_TIMESTAMP, retriable: false })
  }
}

export class InvalidConfigError extends TributaryError {
  static override name = 'InvalidConfigError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_CONFIG, retriable: false })
  }
}

export class UnknownLeaderEpochError extends TributaryError {
  static override name = 'UnknownLeaderEpochError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.UNKNOWN_LEADER_EPOCH, retriable: true })
  }
}

export class FencedLeaderEpochError extends TributaryError {
  static override name = 'FencedLeaderEpochError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.FENCED_LEADER_EPOCH, retriable: false })
  }
}

export class UnknownTopicOrPartitionError extends TributaryError {
  static override name = 'UnknownTopicOrPartitionError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, retriable: true })
  }
}

export class LeaderNotAvailableError extends TributaryError {
  static override name = 'LeaderNotAvailableError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.LEADER_NOT_AVAILABLE, retriable: true })
  }
}

export class NotLeaderOrFollowerError extends TributaryError {
  static override name = 'NotLeaderOrFollowerError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.NOT_LEADER_OR_FOLLOWER, retriable: true })
  }
}

export class RequestTimedOutError extends TributaryError {
  static override name = 'RequestTimedOutError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.REQUEST_TIMED_OUT, retriable: true })
  }
}

export class InvalidTopicError extends TributaryError {
  static override name = 'InvalidTopicError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_TOPIC_EXCEPTION, retriable: false })
  }
}

export class RecordListTooLargeError extends TributaryError {
  static override name = 'RecordListTooLargeError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.RECORD_LIST_TOO_LARGE, retriable: false })
  }
}

export class NotEnoughReplicasError extends TributaryError {
  static override name = 'NotEnoughReplicasError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.NOT_ENOUGH_REPLICAS, retriable: true })
  }
}

export class OutOfOrderSequenceError extends TributaryError {
  static override name = 'OutOfOrderSequenceError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, retriable: false })
  }
}

export class DuplicateSequenceError extends TributaryError {
  static override name = 'DuplicateSequenceError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.DUPLICATE_SEQUENCE_NUMBER, retriable: false })
  }
}

export class InvalidProducerEpochError extends TributaryError {
  static override name = 'InvalidProducerEpochError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_PRODUCER_EPOCH, retriable: false })
  }
}

/** The connection or stream to a peer broke before the answer arrived (NETWORK_EXCEPTION); retrying can succeed. */
export class NetworkError extends TributaryError {
  static override name = 'NetworkError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.NETWORK_EXCEPTION, retriable: true })
  }
}

/** CreateTopics for a name that already holds a live topic. */
export class TopicAlreadyExistsError extends TributaryError {
  static override name = 'TopicAlreadyExistsError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.TOPIC_ALREADY_EXISTS, retriable: false })
  }
}

/** A partition count out of range. */
export class InvalidPartitionsError extends TributaryError {
  static override name = 'InvalidPartitionsError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_PARTITIONS, retriable: false })
  }
}

/** A replication factor above the voters available (or below 1). */
export class InvalidReplicationFactorError extends TributaryError {
  static override name = 'InvalidReplicationFactorError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_REPLICATION_FACTOR, retriable: false })
  }
}

/** A request that does not decode or breaks a protocol rule. */
export class InvalidRequestError extends TributaryError {
  static override name = 'InvalidRequestError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_REQUEST, retriable: false })
  }
}

// ---- consumer groups ----

/** The group's coordinator is loading its state from `__consumer_offsets` (after a failover); retry shortly. */
export class CoordinatorLoadInProgressError extends TributaryError {
  static override name = 'CoordinatorLoadInProgressError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, retriable: true })
  }
}

/** No coordinator can serve the group right now (its `__consumer_offsets` partition has no leader). */
export class CoordinatorNotAvailableError extends TributaryError {
  static override name = 'CoordinatorNotAvailableError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.COORDINATOR_NOT_AVAILABLE, retriable: true })
  }
}

/** The peer asked is not (or no longer) the group's coordinator; find the coordinator again. */
export class NotCoordinatorError extends TributaryError {
  static override name = 'NotCoordinatorError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.NOT_COORDINATOR, retriable: true })
  }
}

/** A commit's metadata string is longer than the coordinator keeps. */
export class OffsetMetadataTooLargeError extends TributaryError {
  static override name = 'OffsetMetadataTooLargeError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.OFFSET_METADATA_TOO_LARGE, retriable: false })
  }
}

/** The request names a generation the group has moved past: the member must rejoin. */
export class IllegalGenerationError extends TributaryError {
  static override name = 'IllegalGenerationError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.ILLEGAL_GENERATION, retriable: false })
  }
}

/**
 * A commit for a partition the member does not hold in the current generation. Kafka has no code
 * of its own for this; it travels as ILLEGAL_GENERATION, which makes a Kafka client rejoin too.
 */
export class PartitionNotOwnedError extends IllegalGenerationError {
  static override name = 'PartitionNotOwnedError'
}

/** The member's protocol type or assignors share nothing with the group's current members. */
export class InconsistentGroupProtocolError extends TributaryError {
  static override name = 'InconsistentGroupProtocolError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INCONSISTENT_GROUP_PROTOCOL, retriable: false })
  }
}

export class InvalidGroupIdError extends TributaryError {
  static override name = 'InvalidGroupIdError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_GROUP_ID, retriable: false })
  }
}

/** The coordinator does not know this member id (it was removed, or never joined): rejoin without it. */
export class UnknownMemberIdError extends TributaryError {
  static override name = 'UnknownMemberIdError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.UNKNOWN_MEMBER_ID, retriable: false })
  }
}

/** A session timeout outside the range the coordinator allows. */
export class InvalidSessionTimeoutError extends TributaryError {
  static override name = 'InvalidSessionTimeoutError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.INVALID_SESSION_TIMEOUT, retriable: false })
  }
}

/** The group is rebalancing: the member must rejoin before this request can succeed. */
export class RebalanceInProgressError extends TributaryError {
  static override name = 'RebalanceInProgressError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.REBALANCE_IN_PROGRESS, retriable: false })
  }
}

/** Deleting a group, or resetting its offsets, needs it to have no members. */
export class NonEmptyGroupError extends TributaryError {
  static override name = 'NonEmptyGroupError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.NON_EMPTY_GROUP, retriable: false })
  }
}

export class GroupIdNotFoundError extends TributaryError {
  static override name = 'GroupIdNotFoundError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.GROUP_ID_NOT_FOUND, retriable: false })
  }
}

export class GroupMaxSizeReachedError extends TributaryError {
  static override name = 'GroupMaxSizeReachedError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.GROUP_MAX_SIZE_REACHED, retriable: false })
  }
}

/**
 * Another process has since joined with the same `groupInstanceId` (static membership): this one is
 * a zombie and must stop.
 */
export class FencedInstanceIdError extends TributaryError {
  static override name = 'FencedInstanceIdError'
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: ErrorCode.FENCED_INSTANCE_ID, retriable: false })
  }
}

type ErrorClass = new (message: string, options?: ErrorOptions) => TributaryError

/**
 * Wire code → class. KAFKA_STORAGE_ERROR maps to KafkaStorageError (Kafka's own, retriable);
 * StorageQuotaError shares the code but is only raised locally.
 */
const errorByCode = new Map<number, ErrorClass>([
  [ErrorCode.OFFSET_OUT_OF_RANGE, OffsetOutOfRangeError],
  [ErrorCode.CORRUPT_MESSAGE, CorruptRecordError],
  [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UnknownTopicOrPartitionError],
  [ErrorCode.LEADER_NOT_AVAILABLE, LeaderNotAvailableError],
  [ErrorCode.NOT_LEADER_OR_FOLLOWER, NotLeaderOrFollowerError],
  [ErrorCode.REQUEST_TIMED_OUT, RequestTimedOutError],
  [ErrorCode.NETWORK_EXCEPTION, NetworkError],
  [ErrorCode.MESSAGE_TOO_LARGE, RecordTooLargeError],
  [ErrorCode.INVALID_TOPIC_EXCEPTION, InvalidTopicError],
  [ErrorCode.RECORD_LIST_TOO_LARGE, RecordListTooLargeError],
  [ErrorCode.NOT_ENOUGH_REPLICAS, NotEnoughReplicasError],
  [ErrorCode.INVALID_TIMESTAMP, InvalidTimestampError],
  [ErrorCode.TOPIC_ALREADY_EXISTS, TopicAlreadyExistsError],
  [ErrorCode.INVALID_PARTITIONS, InvalidPartitionsError],
  [ErrorCode.INVALID_REPLICATION_FACTOR, InvalidReplicationFactorError],
  [ErrorCode.INVALID_CONFIG, InvalidConfigError],
  [ErrorCode.INVALID_REQUEST, InvalidRequestError],
  [ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, OutOfOrderSequenceError],
  [ErrorCode.DUPLICATE_SEQUENCE_NUMBER, DuplicateSequenceError],
  [ErrorCode.INVALID_PRODUCER_EPOCH, InvalidProducerEpochError],
  [ErrorCode.KAFKA_STORAGE_ERROR, KafkaStorageError],
  [ErrorCode.FENCED_LEADER_EPOCH, FencedLeaderEpochError],
  [ErrorCode.UNKNOWN_LEADER_EPOCH, UnknownLeaderEpochError],
  [ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, UnsupportedCompressionError],
  [ErrorCode.INVALID_RECORD, InvalidRecordError],
  [ErrorCode.OFFSET_METADATA_TOO_LARGE, OffsetMetadataTooLargeError],
  [ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, CoordinatorLoadInProgressError],
  [ErrorCode.COORDINATOR_NOT_AVAILABLE, CoordinatorNotAvailableError],
  [ErrorCode.NOT_COORDINATOR, NotCoordinatorError],
  [ErrorCode.ILLEGAL_GENERATION, IllegalGenerationError],
  [ErrorCode.INCONSISTENT_GROUP_PROTOCOL, InconsistentGroupProtocolError],
  [ErrorCode.INVALID_GROUP_ID, InvalidGroupIdError],
  [ErrorCode.UNKNOWN_MEMBER_ID, UnknownMemberIdError],
  [ErrorCode.INVALID_SESSION_TIMEOUT, InvalidSessionTimeoutError],
  [ErrorCode.REBALANCE_IN_PROGRESS, RebalanceInProgressError],
  [ErrorCode.NON_EMPTY_GROUP, NonEmptyGroupError],
  [ErrorCode.GROUP_ID_NOT_FOUND, GroupIdNotFoundError],
  [ErrorCode.GROUP_MAX_SIZE_REACHED, GroupMaxSizeReachedError],
  [ErrorCode.FENCED_INSTANCE_ID, FencedInstanceIdError],
])

/** The error a peer meant by `code`. Unknown codes keep their number with UNKNOWN_SERVER_ERROR semantics. */
export function errorFromCode(code: number, message: string): TributaryError {
  const ErrorClass = errorByCode.get(code)
  if (ErrorClass !== undefined) return new ErrorClass(message)
  return new TributaryError(message, { code, retriable: false })
}
