import { InvalidConfigError } from '@tributary/wire'
import { MAX_ID_LENGTH, MAX_PARTITION_LENGTH } from './messages.js'
import { DEFAULT_RAFT_CONFIG, type RaftConfig } from './types.js'

/** Defaults filled in and every setting checked. */
export function resolveRaftConfig(overrides: Partial<RaftConfig> = {}): RaftConfig {
  const config = { ...DEFAULT_RAFT_CONFIG, ...overrides }
  for (const [key, value] of Object.entries(config)) {
    if (key === 'autoLeaderRebalanceEnable') {
      if (typeof value !== 'boolean') throw new InvalidConfigError(`raft setting ${key} must be true or false`)
      continue
    }
    if (!Number.isSafeInteger(value) || (value as number) <= 0) {
      throw new InvalidConfigError(`raft setting ${key} must be a positive integer, got ${String(value)}`)
    }
  }
  if (config.fetchMaxWaitMs >= config.fetchTimeoutMs) {
    throw new InvalidConfigError('raft fetchMaxWaitMs must be below fetchTimeoutMs, or idle followers time out')
  }
  return config
}

/**
 * Checks a partition's replica sets: distinct, bounded ids, at least one voter, and the local
 * replica among them (a learner joining to replace a voter lists itself as an observer).
 */
export function checkMembers(
  partition: string,
  localId: string,
  voters: readonly string[],
  observers: readonly string[],
  votersOffset = -1,
): void {
  if (!Number.isSafeInteger(votersOffset) || votersOffset < -1) {
    throw new InvalidConfigError(`${partition}: invalid voters offset ${String(votersOffset)}`)
  }
  if (typeof partition !== 'string' || partition.length === 0 || partition.length > MAX_PARTITION_LENGTH) {
    throw new InvalidConfigError(`raft partition key must be 1-${MAX_PARTITION_LENGTH} characters`)
  }
  const all = [...voters, ...observers]
  if (voters.length === 0) throw new InvalidConfigError(`${partition}: a raft quorum needs at least one voter`)
  if (new Set(all).size !== all.length) {
    throw new InvalidConfigError(`${partition}: voters and observers must be distinct`)
  }
  for (const id of all) {
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
      throw new InvalidConfigError(`${partition}: invalid replica id`)
    }
  }
  if (!all.includes(localId)) {
    throw new InvalidConfigError(`${partition}: ${localId} is neither a voter nor an observer`)
  }
}
