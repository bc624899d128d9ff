/**
 * Errors of the metadata layer. Each carries the Kafka wire code a Kafka client would see for
 * the same failure (CreateTopics answers TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS, ...), so a
 * gateway can pass them through unchanged.
 */
import { InvalidRecordError, InvalidTimestampError, TributaryError } from '@tributary/wire'

/**
 * Kafka codes that `@tributary/wire`'s `ErrorCode` table does not list yet. They belong there
 * (and in `errorFromCode`) once the wire package takes them; until then they live next to the
 * only code that raises them.
 */
export const TopicErrorCode = {
  INVALID_PARTITIONS: 37,
  INVALID_REPLICATION_FACTOR: 38,
  TOPIC_ALREADY_EXISTS: 36,
} as const

/**
 * A metadata entry, snapshot or topic record that is malformed or breaks a limit (oversize key or
 * value, too many entries, an HLC that is not a safe integer, bytes that are not protobuf). It is
 * an `InvalidRecordError` (INVALID_RECORD): resending the same bytes cannot succeed.
 */
export class InvalidMetadataError extends InvalidRecordError {
  static override name = 'InvalidMetadataError'
}

/**
 * A remote hybrid-logical-clock timestamp too far ahead of our wall clock. Accepting it would drag
 * every peer's clock forward to a broken peer's idea of "now", so it is refused; the fix is on the
 * sending peer (its clock), hence not retriable.
 */
export class ClockDriftError extends InvalidTimestampError {
  static override name = 'ClockDriftError'
  /** How far ahead of our wall clock the remote timestamp was, in milliseconds. */
  readonly driftMs: number

  constructor(message: string, driftMs: number) {
    super(message)
    this.driftMs = driftMs
  }
}

/** CreateTopics for a name that already holds a live topic (TOPIC_ALREADY_EXISTS, 36). */
export class TopicAlreadyExistsError extends TributaryError {
  static override name = 'TopicAlreadyExistsError'
  constructor(message: string) {
    super(message, { code: TopicErrorCode.TOPIC_ALREADY_EXISTS, retriable: false })
  }
}

/** A partition count outside 1..10,000, or one whose record would not fit (INVALID_PARTITIONS, 37). */
export class InvalidPartitionsError extends TributaryError {
  static override name = 'InvalidPartitionsError'
  constructor(message: string) {
    super(message, { code: TopicErrorCode.INVALID_PARTITIONS, retriable: false })
  }
}

/**
 * A replication factor below 1 or above the number of voting peers (INVALID_REPLICATION_FACTOR,
 * 38). Not retriable as such, though it can succeed later once more voters have joined.
 */
export class InvalidReplicationFactorError extends TributaryError {
  static override name = 'InvalidReplicationFactorError'
  constructor(message: string) {
    super(message, { code: TopicErrorCode.INVALID_REPLICATION_FACTOR, retriable: false })
  }
}
