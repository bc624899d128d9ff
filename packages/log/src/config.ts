import { InvalidConfigError } from '@tributary/wire'

/**
 * Per-partition log settings. Names follow Kafka's topic configs (`segment.bytes` →
 * `segmentBytes`); `parseLogConfig` accepts the Kafka spelling with string values, as an
 * admin API or a CLI would pass them.
 */
export interface LogConfig {
  /** Roll the active segment when it would grow past this many bytes (`segment.bytes`). */
  segmentBytes: number
  /** Roll the active segment when it is older than this (`segment.ms`). */
  segmentMs: number
  /** Largest batch accepted, in bytes (`max.message.bytes`). */
  maxMessageBytes: number
  /** Bytes between two sparse index entries (`index.interval.bytes`). */
  indexIntervalBytes: number
  /** Flush after this many appended records (`flush.messages`); Infinity leaves it to the OS. */
  flushMessages: number
  /** Flush when the last flush is older than this (`flush.ms`); Infinity leaves it to the OS. */
  flushMs: number
  /** Delete closed segments whose newest record is older than this; -1 keeps forever (`retention.ms`). */
  retentionMs: number
  /** Delete oldest closed segments while the log is larger than this; -1 means no limit (`retention.bytes`). */
  retentionBytes: number
  /** `delete`, `compact`, or both (`cleanup.policy`). */
  cleanupPolicy: CleanupPolicy
  /** How long a tombstone outlives the record it deletes, in compacted logs (`delete.retention.ms`). */
  deleteRetentionMs: number
  /** Whose clock stamps records (`message.timestamp.type`). */
  messageTimestampType: 'CreateTime' | 'LogAppendTime'
  /** Upper bound of memory for compaction's key → offset map (`log.cleaner.dedupe.buffer.size`). */
  cleanerBufferBytes: number
  /** Forget an idempotent producer after this long without an append (`producer.id.expiration.ms`). */
  producerIdExpirationMs: number
  /**
   * Idempotent producers tracked at most; past it the least recently active is forgotten
   * (`producer.id.max.count`, Tributary's own: bounds memory when every device is a producer).
   */
  maxProducerIds: number
}

export type CleanupPolicy = 'delete' | 'compact' | 'compact,delete'

export const DEFAULT_LOG_CONFIG: Readonly<LogConfig> = Object.freeze({
  segmentBytes: 1024 * 1024 * 1024,
  segmentMs: 7 * 24 * 60 * 60 * 1000,
  maxMessageBytes: 1024 * 1024 + 12,
  indexIntervalBytes: 4096,
  flushMessages: Number.POSITIVE_INFINITY,
  flushMs: Number.POSITIVE_INFINITY,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  retentionBytes: -1,
  cleanupPolicy: 'delete',
  deleteRetentionMs: 24 * 60 * 60 * 1000,
  messageTimestampType: 'CreateTime',
  cleanerBufferBytes: 32 * 1024 * 1024,
  // Kafka's default is a day; a week lets an offline outbox replay late and still append once.
  producerIdExpirationMs: 7 * 24 * 60 * 60 * 1000,
  maxProducerIds: 10_000,
})

/** Largest segment: index entries store file positions as unsigned 32-bit numbers. */
export const MAX_SEGMENT_BYTES = 2 ** 31 - 1

const KAFKA_NAMES: Record<string, keyof LogConfig> = {
  'segment.bytes': 'segmentBytes',
  'segment.ms': 'segmentMs',
  'max.message.bytes': 'maxMessageBytes',
  'index.interval.bytes': 'indexIntervalBytes',
  'flush.messages': 'flushMessages',
  'flush.ms': 'flushMs',
  'retention.ms': 'retentionMs',
  'retention.bytes': 'retentionBytes',
  'cleanup.policy': 'cleanupPolicy',
  'delete.retention.ms': 'deleteRetentionMs',
  'message.timestamp.type': 'messageTimestampType',
  'log.cleaner.dedupe.buffer.size': 'cleanerBufferBytes',
  'producer.id.expiration.ms': 'producerIdExpirationMs',
  'producer.id.max.count': 'maxProducerIds',
}

/** Kafka-style names (`segment.bytes`) of every setting, for admin APIs and docs. */
export const LOG_CONFIG_NAMES: readonly string[] = Object.keys(KAFKA_NAMES)

/**
 * Builds a complete, validated config from defaults, typed overrides, and Kafka-named string
 * settings (`{ 'retention.ms': '60000' }`). Unknown names and bad values are `InvalidConfigError`s.
 */
export function resolveLogConfig(
  overrides: Partial<LogConfig> = {},
  kafkaStyle: Record<string, string | number> = {},
): LogConfig {
  const config: LogConfig = { ...DEFAULT_LOG_CONFIG, ...overrides }
  for (const [name, raw] of Object.entries(kafkaStyle)) {
    const key = KAFKA_NAMES[name]
    if (key === undefined) throw new InvalidConfigError(`unknown log config '${name}'`)
    if (key === 'cleanupPolicy' || key === 'messageTimestampType') {
      ;(config as unknown as Record<string, unknown>)[key] = String(raw)
    } else {
      const value = typeof raw === 'number' ? raw : Number(raw)
      if (raw === '' || !Number.isFinite(value) || !Number.isInteger(value)) {
        throw new InvalidConfigError(`log config '${name}' must be an integer, got '${raw}'`)
      }
      ;(config as unknown as Record<string, number>)[key] = value
    }
  }
  validateLogConfig(config)
  return config
}

function requireInteger(config: LogConfig, key: keyof LogConfig, min: number, max = Number.MAX_SAFE_INTEGER): void {
  const value = config[key] as number
  const ok = (Number.isInteger(value) || value === Number.POSITIVE_INFINITY) && value >= min && value <= max
  if (!ok) throw new InvalidConfigError(`log config ${key} must be an integer in [${min}, ${max}], got ${value}`)
}

export function validateLogConfig(config: LogConfig): void {
  requireInteger(config, 'segmentBytes', 14 + 61, MAX_SEGMENT_BYTES)
  requireInteger(config, 'segmentMs', 1)
  requireInteger(config, 'maxMessageBytes', 61, MAX_SEGMENT_BYTES)
  requireInteger(config, 'indexIntervalBytes', 0)
  if (!(config.flushMessages >= 1)) throw new InvalidConfigError('log config flushMessages must be ≥ 1')
  if (!(config.flushMs >= 0)) throw new InvalidConfigError('log config flushMs must be ≥ 0')
  requireInteger(config, 'retentionMs', -1)
  requireInteger(config, 'retentionBytes', -1)
  requireInteger(config, 'deleteRetentionMs', 0)
  requireInteger(config, 'cleanerBufferBytes', 1024)
  requireInteger(config, 'producerIdExpirationMs', 1)
  requireInteger(config, 'maxProducerIds', 1)
  if (!['delete', 'compact', 'compact,delete', 'delete,compact'].includes(config.cleanupPolicy)) {
    throw new InvalidConfigError(
      `log config cleanup.policy must be delete, compact or compact,delete, got '${config.cleanupPolicy}'`,
    )
  }
  if (config.messageTimestampType !== 'CreateTime' && config.messageTimestampType !== 'LogAppendTime') {
    throw new InvalidConfigError(`log config message.timestamp.type must be CreateTime or LogAppendTime`)
  }
}

export function compacts(config: LogConfig): boolean {
  return config.cleanupPolicy.includes('compact')
}

export function deletes(config: LogConfig): boolean {
  return config.cleanupPolicy.includes('delete')
}
