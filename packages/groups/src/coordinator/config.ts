/**
 * Coordinator settings (Kafka's broker-side group settings) and the components it needs: the
 * partition counts of topics, nothing else. `rules` exist so the simulation can plant bugs and
 * prove its checks catch them; production code never turns them off.
 */
import { InvalidConfigError } from '@tributary/wire'
import { type Assignor, BUILTIN_ASSIGNORS } from '../assignors/index.js'
import { MAX_TIMEOUT_MS } from '../constants.js'

export interface CoordinatorRules {
  /** Refuse commits from a stale generation or a member not holding the partition (and stale reorders). */
  fenceCommits: boolean
  /** Keep a partition out of every assignment while another member (or a removed one's session) may hold it. */
  withholdHeldPartitions: boolean
}

export interface CoordinatorConfig {
  /** Kafka's `group.min.session.timeout.ms` (6 s). */
  minSessionTimeoutMs: number
  /** Kafka's `group.max.session.timeout.ms` (30 min). */
  maxSessionTimeoutMs: number
  /**
   * Kafka's `group.initial.rebalance.delay.ms` (3 s): an empty group's first rebalance waits this
   * long (extended by each new member, up to the rebalance timeout) so members starting together
   * land in one generation instead of one each.
   */
  initialRebalanceDelayMs: number
  /** Kafka's `group.max.size`; bounded here so one group cannot take all memory. */
  maxGroupSize: number
  /** Groups one coordinator holds; joins creating more are refused (retriable). */
  maxGroups: number
  /** Member ids removed recently are remembered (up to this many per group) to refuse their late requests. */
  maxRemembered: number
  assignors: readonly Assignor[]
  rules: CoordinatorRules
}

/** What callers pass: any settings to override, rules included one by one. */
export type CoordinatorOptions = Partial<Omit<CoordinatorConfig, 'rules'>> & { rules?: Partial<CoordinatorRules> }

export interface CoordinatorComponents {
  /** Partition count of `topic` as metadata has it now; undefined if the topic does not exist. */
  partitionCount(topic: string): number | undefined
}

export const DEFAULT_COORDINATOR_CONFIG: CoordinatorConfig = {
  minSessionTimeoutMs: 6_000,
  maxSessionTimeoutMs: 1_800_000,
  initialRebalanceDelayMs: 3_000,
  maxGroupSize: 1_000,
  maxGroups: 10_000,
  maxRemembered: 1_000,
  assignors: BUILTIN_ASSIGNORS,
  rules: { fenceCommits: true, withholdHeldPartitions: true },
}

export function coordinatorConfig(overrides: CoordinatorOptions = {}): CoordinatorConfig {
  const config = {
    ...DEFAULT_COORDINATOR_CONFIG,
    ...overrides,
    rules: { ...DEFAULT_COORDINATOR_CONFIG.rules, ...overrides.rules },
  }
  const positive = (name: keyof CoordinatorConfig, min: number, max: number): void => {
    const value = config[name]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidConfigError(`coordinator ${name} must be an integer from ${min} to ${max}, not ${String(value)}`)
    }
  }
  positive('minSessionTimeoutMs', 1, MAX_TIMEOUT_MS)
  positive('maxSessionTimeoutMs', config.minSessionTimeoutMs, MAX_TIMEOUT_MS)
  positive('initialRebalanceDelayMs', 0, MAX_TIMEOUT_MS)
  positive('maxGroupSize', 1, 1_000_000)
  positive('maxGroups', 1, 10_000_000)
  positive('maxRemembered', 0, 1_000_000)
  const names = config.assignors.map((a) => a.name)
  if (names.length === 0 || new Set(names).size !== names.length) {
    throw new InvalidConfigError('coordinator assignors must be a non-empty list with distinct names')
  }
  return config
}
