/** Checking a producer's options: defaults, bounds, and the limits idempotence puts on them. */
import { InvalidArgumentError } from '../errors.js'
import type { AutoCreatedTopic, ProducerOptions } from './producer.js'

export const DEFAULT_BATCH_SIZE = 512 * 1024
const DEFAULT_MAX_BUFFERED_BYTES = 32 * 1024 * 1024
/** The leader keeps the last 5 batches of each producer (its duplicate check), so at most 5 may be in flight. */
const MAX_IDEMPOTENT_IN_FLIGHT = 5
const DEFAULT_IDEMPOTENT_IN_FLIGHT = 1

/** Batches in flight per partition: default 1 when idempotent (see `ProducerOptions`), 5 otherwise. */
export function maxInFlightRequests(value: number | undefined, idempotent: boolean): number {
  const maxInFlight = positiveInteger(value ?? (idempotent ? DEFAULT_IDEMPOTENT_IN_FLIGHT : 5), 'maxInFlightRequests')
  if (idempotent && maxInFlight > MAX_IDEMPOTENT_IN_FLIGHT) {
    throw new InvalidArgumentError(
      `an idempotent producer keeps order with at most ${MAX_IDEMPOTENT_IN_FLIGHT} batches in flight per partition, got maxInFlightRequests=${maxInFlight}`,
    )
  }
  return maxInFlight
}

export function maxBufferedBytes(value: number | undefined): number {
  return positiveInteger(value ?? DEFAULT_MAX_BUFFERED_BYTES, 'maxBufferedBytes')
}

export function positiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`${name} must be a positive integer, got ${String(value)}`)
  }
  return value
}

export function nonNegativeInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${name} must be an integer ≥ 0, got ${String(value)}`)
  }
  return value
}

export function autoCreateOptions(
  option: ProducerOptions['allowAutoTopicCreation'],
): Omit<AutoCreatedTopic, 'topic'> | undefined {
  if (option === undefined || option === false) return undefined
  if (option === true) return { numPartitions: 1, replicationFactor: undefined }
  if (typeof option !== 'object' || option === null) {
    throw new InvalidArgumentError('allowAutoTopicCreation must be a boolean or { numPartitions, replicationFactor }')
  }
  return {
    numPartitions: positiveInteger(option.numPartitions ?? 1, 'allowAutoTopicCreation.numPartitions'),
    replicationFactor:
      option.replicationFactor === undefined
        ? undefined
        : positiveInteger(option.replicationFactor, 'allowAutoTopicCreation.replicationFactor'),
  }
}
