/**
 * A member's settings (Kafka consumer's group settings, with Kafka's defaults) and what it tells
 * its host. The member is a state machine like the coordinator: no network, no timers, no clock.
 */
import { InvalidConfigError, type TributaryError } from '@tributary/wire'
import { rebalanceProtocolOf } from '../assignors/index.js'
import type { RebalanceProtocol } from '../assignors/types.js'
import {
  MAX_CLIENT_ID_LENGTH,
  MAX_GROUP_ID_LENGTH,
  MAX_GROUP_INSTANCE_ID_LENGTH,
  MAX_SENDER_LENGTH,
  MAX_TIMEOUT_MS,
} from '../constants.js'
import type { FetchedOffset, PartitionResult } from '../protocol/messages.js'
import { checkOptionalName, checkString, checkTopics, type Fail } from '../protocol/validate.js'
import type { TopicPartition } from '../topic-partition.js'

export interface MemberConfig {
  groupId: string
  clientId: string
  /** Static membership: a restart within the session timeout keeps the partitions, with no rebalance. */
  groupInstanceId: string | undefined
  topics: string[]
  /** Assignor names, most preferred first. Cooperative only if all of them are cooperative (Kafka's rule). */
  assignors: string[]
  sessionTimeoutMs: number
  rebalanceTimeoutMs: number
  heartbeatIntervalMs: number
  /** Kafka's `max.poll.interval.ms`: a member whose application stops polling this long leaves. */
  maxPollIntervalMs: number
  /** How long to wait for an answer before sending a request again (or failing a commit). */
  requestTimeoutMs: number
  retryBackoffMs: number
  /**
   * The member gives its partitions up this long before its session could have expired on the
   * coordinator, covering clock rate differences between the two (default: 5% of the session).
   */
  leaseMarginMs: number
  /**
   * Ask the coordinator to hold each heartbeat's answer until the next heartbeat, so a rebalance
   * reaches the member in one round trip (HeartbeatBody.maxWaitMs). Default true; false heartbeats
   * as Kafka's classic protocol does, learning of a rebalance at the next heartbeat.
   */
  parkHeartbeats: boolean
}

export interface MemberComponents {
  /** A fresh random nonce (1-64 characters) for each identity the member takes. */
  newSender(): string
}

export type MemberPhase = 'idle' | 'joining' | 'syncing' | 'stable' | 'revoking' | 'left' | 'failed'

export type MemberEvent =
  | { type: 'joined'; memberId: string; generation: number; protocol: string }
  /** Newly assigned partitions (Kafka's onPartitionsAssigned); `assignment` is everything now owned. */
  | { type: 'assigned'; partitions: TopicPartition[]; assignment: TopicPartition[]; generation: number }
  /**
   * Partitions to give up (Kafka's onPartitionsRevoked): stop processing them, commit what was
   * processed, then call `revocationDone`. No one else gets them before that.
   */
  | { type: 'revoke'; partitions: TopicPartition[]; generation: number }
  /** Partitions already gone (Kafka's onPartitionsLost): another member may own them; do not commit. */
  | { type: 'lost'; partitions: TopicPartition[]; reason: string }
  | { type: 'committed'; requestId: number; results: PartitionResult[]; error: TributaryError | undefined }
  | { type: 'offsets'; requestId: number; offsets: FetchedOffset[]; error: TributaryError | undefined }
  | { type: 'left' }
  | { type: 'failed'; error: TributaryError }

export const DEFAULT_MEMBER_CONFIG = {
  clientId: 'tributary',
  assignors: ['cooperative-sticky'],
  sessionTimeoutMs: 45_000,
  rebalanceTimeoutMs: 300_000,
  heartbeatIntervalMs: 3_000,
  maxPollIntervalMs: 300_000,
  requestTimeoutMs: 30_000,
  retryBackoffMs: 100,
  parkHeartbeats: true,
}

export type MemberOptions = Pick<MemberConfig, 'groupId' | 'topics'> & Partial<MemberConfig>

const fail: Fail = (message) => {
  throw new InvalidConfigError(`consumer group member: ${message}`)
}

export function memberConfig(options: MemberOptions): MemberConfig & { protocol: RebalanceProtocol } {
  const sessionTimeoutMs = options.sessionTimeoutMs ?? DEFAULT_MEMBER_CONFIG.sessionTimeoutMs
  const config = {
    ...DEFAULT_MEMBER_CONFIG,
    groupInstanceId: undefined,
    leaseMarginMs: Math.floor(sessionTimeoutMs / 20),
    ...options,
  }
  checkString(config.groupId, 'groupId', MAX_GROUP_ID_LENGTH, fail, 1)
  checkString(config.clientId, 'clientId', MAX_CLIENT_ID_LENGTH, fail)
  if (config.groupInstanceId !== undefined) {
    if (
      checkOptionalName(config.groupInstanceId, 'groupInstanceId', MAX_GROUP_INSTANCE_ID_LENGTH, fail) === undefined
    ) {
      fail('groupInstanceId must not be empty')
    }
  }
  checkTopics(config.topics, 'topics', fail)
  if (config.assignors.length === 0) fail('assignors must name at least one assignor')
  for (const name of [
    'sessionTimeoutMs',
    'rebalanceTimeoutMs',
    'heartbeatIntervalMs',
    'maxPollIntervalMs',
    'requestTimeoutMs',
  ] as const) {
    const value = config[name]
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TIMEOUT_MS)
      fail(`${name} must be 1 to ${MAX_TIMEOUT_MS} ms`)
  }
  if (!Number.isSafeInteger(config.retryBackoffMs) || config.retryBackoffMs < 0) fail('retryBackoffMs must be >= 0')
  if (config.heartbeatIntervalMs >= config.sessionTimeoutMs) fail('heartbeatIntervalMs must be below sessionTimeoutMs')
  if (
    !Number.isSafeInteger(config.leaseMarginMs) ||
    config.leaseMarginMs < 0 ||
    config.leaseMarginMs >= config.sessionTimeoutMs
  ) {
    fail('leaseMarginMs must be from 0 to below sessionTimeoutMs')
  }
  return { ...config, protocol: rebalanceProtocolOf(config.assignors) }
}

export function checkSender(sender: string): string {
  return checkString(sender, 'sender nonce', MAX_SENDER_LENGTH, fail, 1)
}
