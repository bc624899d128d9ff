/**
 * A consumer's group options (KafkaJS's names, Kafka's defaults where KafkaJS has none) and
 * their validation: a bad value is an InvalidArgumentError when the consumer is created.
 */
import {
  BUILTIN_ASSIGNORS,
  MAX_GROUP_ID_LENGTH,
  MAX_GROUP_INSTANCE_ID_LENGTH,
  type TopicPartition,
} from '@tributary/groups'
import { InvalidArgumentError } from '../errors.js'
import type { GroupSettings } from './group-consumer.js'

export interface GroupOptions {
  /** The consumer group to join; unset, the consumer reads whole topics (subscribe) or chosen partitions (assign). */
  groupId?: string
  /** Static membership (Kafka's group.instance.id): a restart within the session keeps the partitions, no rebalance. */
  groupInstanceId?: string
  /** Milliseconds without a heartbeat before the coordinator removes the member. Default 30,000. */
  sessionTimeout?: number
  /** Milliseconds between heartbeats. Default 3,000. */
  heartbeatInterval?: number
  /** Longest a rebalance waits for members to rejoin. Default 60,000. */
  rebalanceTimeout?: number
  /**
   * A handler that runs longer than this (ms) makes the member leave the group: its partitions go
   * to the others, and it rejoins once its handler returns (Kafka's max.poll.interval.ms). Default 300,000.
   */
  maxPollInterval?: number
  /** Assignor names, most preferred first: 'cooperative-sticky' (default), 'range', 'roundrobin'. */
  partitionAssigners?: string[]
  /** Commit processed positions automatically. Default true. */
  autoCommit?: boolean
  /** Auto-commit at least this often (ms). Default 5,000 (Kafka's auto.commit.interval.ms). */
  autoCommitInterval?: number
  /** Auto-commit once this many records were processed since the last commit. Default: none. */
  autoCommitThreshold?: number
  /** Called with partitions newly assigned, before any of their records is delivered. */
  onPartitionsAssigned?: (partitions: TopicPartition[]) => void | Promise<void>
  /** Called with partitions taken away, after their handlers returned and their positions were committed. */
  onPartitionsRevoked?: (partitions: TopicPartition[]) => void | Promise<void>
}

const MAX_MS = 2_147_483_647

export function groupSettings(options: GroupOptions): GroupSettings | undefined {
  if (options.groupId === undefined) {
    for (const key of [
      'groupInstanceId',
      'autoCommitThreshold',
      'onPartitionsAssigned',
      'onPartitionsRevoked',
    ] as const) {
      if (options[key] !== undefined) throw new InvalidArgumentError(`${key} needs a groupId`)
    }
    return undefined
  }
  const { groupId, groupInstanceId } = options
  if (typeof groupId !== 'string' || groupId.length === 0 || groupId.length > MAX_GROUP_ID_LENGTH) {
    throw new InvalidArgumentError(`groupId must be a string of 1 to ${MAX_GROUP_ID_LENGTH} characters`)
  }
  if (
    groupInstanceId !== undefined &&
    (typeof groupInstanceId !== 'string' ||
      !/^[a-zA-Z0-9._-]+$/.test(groupInstanceId) ||
      groupInstanceId.length > MAX_GROUP_INSTANCE_ID_LENGTH)
  ) {
    throw new InvalidArgumentError(
      `groupInstanceId must be 1 to ${MAX_GROUP_INSTANCE_ID_LENGTH} characters of [a-zA-Z0-9._-]`,
    )
  }
  const sessionTimeout = ms(options.sessionTimeout ?? 30_000, 'sessionTimeout', 1)
  const heartbeatInterval = ms(options.heartbeatInterval ?? 3_000, 'heartbeatInterval', 1)
  if (heartbeatInterval >= sessionTimeout)
    throw new InvalidArgumentError('heartbeatInterval must be below sessionTimeout')
  const assigners = options.partitionAssigners ?? ['cooperative-sticky']
  const known = BUILTIN_ASSIGNORS.map((a) => a.name)
  if (!Array.isArray(assigners) || assigners.length === 0 || assigners.some((a) => !known.includes(a))) {
    throw new InvalidArgumentError(`partitionAssigners must name some of ${known.join(', ')}`)
  }
  for (const key of ['onPartitionsAssigned', 'onPartitionsRevoked'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function')
      throw new InvalidArgumentError(`${key} must be a function`)
  }
  if (options.autoCommit !== undefined && typeof options.autoCommit !== 'boolean')
    throw new InvalidArgumentError('autoCommit must be a boolean')
  return {
    groupId,
    groupInstanceId,
    sessionTimeout,
    heartbeatInterval,
    rebalanceTimeout: ms(options.rebalanceTimeout ?? 60_000, 'rebalanceTimeout', 1),
    maxPollInterval: ms(options.maxPollInterval ?? 300_000, 'maxPollInterval', 1),
    partitionAssigners: [...assigners],
    autoCommit: options.autoCommit ?? true,
    autoCommitInterval: ms(options.autoCommitInterval ?? 5_000, 'autoCommitInterval', 1),
    autoCommitThreshold:
      options.autoCommitThreshold === undefined ? undefined : ms(options.autoCommitThreshold, 'autoCommitThreshold', 1),
    onPartitionsAssigned: options.onPartitionsAssigned,
    onPartitionsRevoked: options.onPartitionsRevoked,
  }
}

function ms(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_MS) {
    throw new InvalidArgumentError(`${name} must be an integer in [${min}, ${MAX_MS}], got ${String(value)}`)
  }
  return value
}
