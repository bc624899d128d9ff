/**
 * Errors of the metadata layer. Each carries the Kafka wire code a Kafka client would see for
 * the same failure (CreateTopics answers TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS, ...), so a
 * gateway can pass them through unchanged.
 */
import { ErrorCode, InvalidRecordError, InvalidTimestampError } from '@tributary/wire'

/** The wire codes CreateTopics answers with (they live in `@tributary/wire`'s one table). */
export const TopicErrorCode = {
  INVALID_PARTITIONS: ErrorCode.INVALID_PARTITIONS,
  INVALID_REPLICATION_FACTOR: ErrorCode.INVALID_REPLICATION_FACTOR,
  TOPIC_ALREADY_EXISTS: ErrorCode.TOPIC_ALREADY_EXISTS,
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

export { InvalidPartitionsError, InvalidReplicationFactorError, TopicAlreadyExistsError } from '@tributary/wire'
