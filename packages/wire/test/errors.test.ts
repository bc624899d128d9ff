import { describe, expect, it } from 'vitest'
import {
  CorruptRecordError,
  ErrorCode,
  errorFromCode,
  FencedLeaderEpochError,
  InvalidConfigError,
  InvalidPartitionsError,
  InvalidRecordError,
  InvalidReplicationFactorError,
  InvalidRequestError,
  InvalidTimestampError,
  KafkaStorageError,
  NetworkError,
  NotLeaderOrFollowerError,
  OffsetOutOfRangeError,
  RecordTooLargeError,
  StorageQuotaError,
  TopicAlreadyExistsError,
  TributaryError,
  UnknownLeaderEpochError,
  UnsupportedCompressionError,
} from '../src/index.ts'

describe('wire > errors', () => {
  const cases: Array<[new (message: string) => TributaryError, string, number, boolean]> = [
    [CorruptRecordError, 'CorruptRecordError', ErrorCode.CORRUPT_MESSAGE, true],
    [InvalidRecordError, 'InvalidRecordError', ErrorCode.INVALID_RECORD, false],
    [RecordTooLargeError, 'RecordTooLargeError', ErrorCode.MESSAGE_TOO_LARGE, false],
    [UnsupportedCompressionError, 'UnsupportedCompressionError', ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, false],
    [OffsetOutOfRangeError, 'OffsetOutOfRangeError', ErrorCode.OFFSET_OUT_OF_RANGE, false],
    [StorageQuotaError, 'StorageQuotaError', ErrorCode.KAFKA_STORAGE_ERROR, false],
    [KafkaStorageError, 'KafkaStorageError', ErrorCode.KAFKA_STORAGE_ERROR, true],
    [InvalidTimestampError, 'InvalidTimestampError', ErrorCode.INVALID_TIMESTAMP, false],
    [InvalidConfigError, 'InvalidConfigError', ErrorCode.INVALID_CONFIG, false],
    [UnknownLeaderEpochError, 'UnknownLeaderEpochError', ErrorCode.UNKNOWN_LEADER_EPOCH, true],
    [FencedLeaderEpochError, 'FencedLeaderEpochError', ErrorCode.FENCED_LEADER_EPOCH, false],
    [NetworkError, 'NetworkError', ErrorCode.NETWORK_EXCEPTION, true],
    [TopicAlreadyExistsError, 'TopicAlreadyExistsError', ErrorCode.TOPIC_ALREADY_EXISTS, false],
    [InvalidPartitionsError, 'InvalidPartitionsError', ErrorCode.INVALID_PARTITIONS, false],
    [InvalidReplicationFactorError, 'InvalidReplicationFactorError', ErrorCode.INVALID_REPLICATION_FACTOR, false],
    [InvalidRequestError, 'InvalidRequestError', ErrorCode.INVALID_REQUEST, false],
  ]

  it.each(cases)('%o carries its name, Kafka code and retriable flag', (ErrorClass, name, code, retriable) => {
    const cause = new Error('underlying')
    const error = new (ErrorClass as new (message: string, options?: { cause?: unknown }) => TributaryError)('msg', {
      cause,
    })
    expect(error).toBeInstanceOf(TributaryError)
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe(name)
    expect(ErrorClass.name).toBe(name)
    expect(error.code).toBe(code)
    expect(error.retriable).toBe(retriable)
    expect(error.message).toBe('msg')
    expect(error.cause).toBe(cause)
  })

  it('StorageQuotaError can be marked retriable', () => {
    expect(new StorageQuotaError('full', { retriable: true }).retriable).toBe(true)
    expect(new StorageQuotaError('full').retriable).toBe(false)
  })

  it('errorFromCode maps every known code to a class with that code', () => {
    for (const [name, code] of Object.entries(ErrorCode)) {
      const error = errorFromCode(code, `from ${name}`)
      expect(error).toBeInstanceOf(TributaryError)
      expect(error.code).toBe(code)
      expect(error.message).toBe(`from ${name}`)
    }
    expect(errorFromCode(ErrorCode.CORRUPT_MESSAGE, 'x')).toBeInstanceOf(CorruptRecordError)
    expect(errorFromCode(ErrorCode.NOT_LEADER_OR_FOLLOWER, 'x')).toBeInstanceOf(NotLeaderOrFollowerError)
    expect(errorFromCode(ErrorCode.NOT_LEADER_OR_FOLLOWER, 'x').retriable).toBe(true)
    expect(errorFromCode(ErrorCode.KAFKA_STORAGE_ERROR, 'x')).toBeInstanceOf(KafkaStorageError)
  })

  it('errorFromCode keeps an unknown code with UNKNOWN_SERVER_ERROR semantics', () => {
    const error = errorFromCode(9999, 'from the future')
    expect(error.constructor).toBe(TributaryError)
    expect(error.name).toBe('TributaryError')
    expect(error.code).toBe(9999)
    expect(error.retriable).toBe(false)
  })
})
