/**
 * What a send is checked against before anything of it is queued: its acks, timeout and
 * compression, its topics and messages, and each record's partition and size — so a send is
 * refused whole with an error naming the culprit, never half queued.
 */
import { DEFAULT_LOG_CONFIG } from '@tributary/log'
import { type CompressionName, codecFor, RecordTooLargeError } from '@tributary/wire'
import type { TopicMetadata } from '../broker.js'
import { InvalidArgumentError, partitionName } from '../errors.js'
import type { Partitioner } from '../partitioners/index.js'
import type { BatchSpec } from './accumulator.js'
import { type NormalizedRecord, normalizeMessage } from './messages.js'
import type { ProducerBatchRecord } from './producer.js'

/** KafkaJS's numbering of compression codecs; names work too. Only none and gzip are built in. */
export const CompressionTypes = { None: 0, GZIP: 1, Snappy: 2, LZ4: 3, ZSTD: 4 } as const
const COMPRESSION_BY_ID: readonly CompressionName[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd']

export type Compression = CompressionName | (typeof CompressionTypes)[keyof typeof CompressionTypes]

const DEFAULT_TIMEOUT_MS = 30_000
/** The server's limit on a produce request (mesh DEFAULT_MAX_REQUEST_BYTES); a record beyond it can never be sent. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024

/** The acks, timeout and compression of a send's batches. */
export function batchSpec(request: ProducerBatchRecord, idempotent: boolean): BatchSpec {
  const acks = request.acks === 'all' || request.acks === undefined ? -1 : request.acks
  if (acks !== -1 && acks !== 0 && acks !== 1) {
    throw new InvalidArgumentError(`acks must be -1 ('all'), 0 or 1, got ${String(request.acks)}`)
  }
  if (idempotent && acks !== -1) {
    throw new InvalidArgumentError(
      `an idempotent producer needs acks=all (-1), got acks=${acks}; create it with { idempotent: false } for acks 0 or 1`,
    )
  }
  const timeoutMs = request.timeout ?? DEFAULT_TIMEOUT_MS
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 300_000) {
    throw new InvalidArgumentError(
      `timeout must be an integer number of ms in [1, 300000], got ${String(request.timeout)}`,
    )
  }
  const raw = request.compression ?? 'none'
  const compression = typeof raw === 'number' ? COMPRESSION_BY_ID[raw] : raw
  if (compression === undefined || !COMPRESSION_BY_ID.includes(compression)) {
    throw new InvalidArgumentError(`unknown compression ${String(raw)}; use 'none' or 'gzip'`)
  }
  codecFor(compression) // UnsupportedCompressionError for codecs not built in
  return { acks, compression, timeoutMs }
}

export function checkTopicMessages(topicMessages: unknown): Array<{ topic: string; records: NormalizedRecord[] }> {
  if (!Array.isArray(topicMessages) || topicMessages.length === 0) {
    throw new InvalidArgumentError('topicMessages must be a non-empty array of { topic, messages }')
  }
  return topicMessages.map((entry: unknown) => {
    const { topic, messages } = (entry ?? {}) as { topic?: unknown; messages?: unknown }
    if (typeof topic !== 'string' || topic.length === 0) {
      throw new InvalidArgumentError(`topic must be a non-empty string, got ${String(topic)}`)
    }
    if (!Array.isArray(messages) || messages.length === 0) {
      throw new InvalidArgumentError(`messages for ${topic} must be a non-empty array`)
    }
    return { topic, records: messages.map((m, i) => normalizeMessage(m, i, topic)) }
  })
}

/** Each record's partition; throws before anything is queued if one cannot be sent at all. */
export function partitionRecords(
  partitioner: Partitioner,
  topic: string,
  records: NormalizedRecord[],
  meta: TopicMetadata,
): number[] {
  const { partitions } = meta
  const partitionMetadata = partitions.map((p) => ({ partitionId: p.partition, leader: p.leader }))
  const configured = Number(meta.configs['max.message.bytes'])
  const maxBatchBytes = Math.min(
    Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_LOG_CONFIG.maxMessageBytes,
    MAX_REQUEST_BYTES,
  )
  const chosen = new Array<number>(records.length)
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!
    const partition = partitioner({ topic, partitionMetadata, message: record })
    if (!Number.isInteger(partition) || partition < 0 || partition >= partitions.length) {
      throw new InvalidArgumentError(
        `message ${i} to ${topic}: partition ${String(partition)} is not in [0, ${partitions.length}) (${topic} has ${partitions.length} partitions)`,
      )
    }
    if (record.minBatchBytes > maxBatchBytes) {
      throw new RecordTooLargeError(
        `message ${i} to ${partitionName(topic, partition)} needs at least ${record.minBatchBytes} bytes, more than the ${maxBatchBytes} a batch of ${topic} may hold (max.message.bytes); nothing was sent`,
      )
    }
    chosen[i] = partition
  }
  return chosen
}
