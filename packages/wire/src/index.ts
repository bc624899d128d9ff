/**
 * @tributary/wire — the bytes of Tributary: Kafka RecordBatch v2 (magic 2) encoding, decoding
 * and validation, CRC32C, zigzag varints, gzip, and the Kafka error-code table. Batches are
 * stored and served as these exact bytes, so a batch is validated once when it enters.
 *
 * @example
 * ```ts
 * import { decodeRecordBatch, encodeRecordBatch, validateBatchRecords } from '@tributary/wire'
 *
 * const utf8 = new TextEncoder()
 * const batch = await encodeRecordBatch({
 *   records: [
 *     { key: utf8.encode('user-1'), value: utf8.encode('{"clicks":3}'), headers: [{ key: 'trace', value: null }] },
 *     { key: null, value: utf8.encode('anonymous') },
 *   ],
 *   compression: 'gzip',
 * })
 * await validateBatchRecords(batch, 0, { sequentialOffsets: true }) // throws CorruptRecordError / InvalidRecordError
 * const { header, records } = await decodeRecordBatch(batch)
 * header.recordCount // 2
 * records[1]?.offset // 1
 * ```
 */

export { type CompressionCodec, codecFor } from './compression.js'
export { crc32c, crc32cImplementation } from './crc32c.js'
export {
  CoordinatorLoadInProgressError,
  CoordinatorNotAvailableError,
  CorruptRecordError,
  DuplicateSequenceError,
  ErrorCode,
  type ErrorCodeName,
  errorFromCode,
  FencedInstanceIdError,
  FencedLeaderEpochError,
  GroupIdNotFoundError,
  GroupMaxSizeReachedError,
  IllegalGenerationError,
  InconsistentGroupProtocolError,
  InvalidConfigError,
  InvalidGroupIdError,
  InvalidPartitionsError,
  InvalidProducerEpochError,
  InvalidRecordError,
  InvalidReplicationFactorError,
  InvalidRequestError,
  InvalidSessionTimeoutError,
  InvalidTimestampError,
  InvalidTopicError,
  KafkaStorageError,
  LeaderNotAvailableError,
  NetworkError,
  NonEmptyGroupError,
  NotCoordinatorError,
  NotEnoughReplicasError,
  NotLeaderOrFollowerError,
  OffsetMetadataTooLargeError,
  OffsetOutOfRangeError,
  OutOfOrderSequenceError,
  PartitionNotOwnedError,
  RebalanceInProgressError,
  RecordListTooLargeError,
  RecordTooLargeError,
  RequestTimedOutError,
  StorageQuotaError,
  TopicAlreadyExistsError,
  TributaryError,
  UnknownLeaderEpochError,
  UnknownMemberIdError,
  UnknownTopicOrPartitionError,
  UnsupportedCompressionError,
} from './errors.js'
export { concatParts, lengthDelimitedField, partsLength } from './protobuf-parts.js'
export {
  type DecodeBatchOptions,
  type DecodedBatch,
  decodeRecordBatch,
  decodeRecordBatchSync,
  type RecordVisitor,
  type ValidateBatchOptions,
  validateBatchRecords,
  validateBatchRecordsSync,
  visitRecordBatch,
  visitRecordBatchSync,
} from './record-batch-decode.js'
export {
  type EncodeBatchOptions,
  encodeRecordBatch,
  encodeRecordBatchSync,
  type RecordInput,
} from './record-batch-encode.js'
export {
  ATTRIBUTES_OFFSET,
  BASE_SEQUENCE_OFFSET,
  BATCH_LENGTH_OFFSET,
  type BatchRecord,
  type CompressionName,
  CRC_OFFSET,
  FIRST_TIMESTAMP_OFFSET,
  LAST_OFFSET_DELTA_OFFSET,
  MAGIC_OFFSET,
  MAGIC_V2,
  MAX_TIMESTAMP_OFFSET,
  PARTITION_LEADER_EPOCH_OFFSET,
  PRODUCER_EPOCH_OFFSET,
  PRODUCER_ID_OFFSET,
  RECORD_BATCH_OVERHEAD,
  RECORD_COUNT_OFFSET,
  type RecordBatchHeader,
  type RecordHeader,
  type TimestampType,
} from './record-batch-format.js'
export { batchSizeAt, iterateBatches, readBatchHeader, verifyBatchCrc } from './record-batch-header.js'
export { setBaseOffset, setLogAppendTime, setPartitionLeaderEpoch } from './record-batch-patch.js'
export { DEFAULT_MAX_DECOMPRESSED_BYTES } from './record-batch-section.js'
export { readVarint, readVarlong, varintSize, varlongSize, writeVarint, writeVarlong } from './varint.js'
