import { InvalidRequestError } from '@tributary/wire'
import { MAX_ID_LENGTH } from './messages.js'
import type { PersistedQuorumState, QuorumStateStore } from './types.js'
import { validatePersistedVoterHistory } from './voter-history.js'

/**
 * Quorum state in memory. Hand the same instance to a restarted replica to model a restart in
 * which it survived (tests, the simulation); peers that keep nothing across restarts use it too.
 */
export class MemoryQuorumStateStore implements QuorumStateStore {
  private state: PersistedQuorumState | undefined
  /** Number of completed saves, for tests. */
  saves = 0

  constructor(initial?: PersistedQuorumState) {
    this.state = initial === undefined ? undefined : { ...initial }
  }

  async load(): Promise<PersistedQuorumState | undefined> {
    return this.state === undefined ? undefined : structuredClone(this.state)
  }

  async save(state: PersistedQuorumState): Promise<void> {
    this.state = structuredClone(state)
    this.saves++
  }

  /** The last saved state (synchronous, for tests). */
  peek(): PersistedQuorumState | undefined {
    return this.state === undefined ? undefined : structuredClone(this.state)
  }
}

/** Checks a loaded quorum state; a corrupt one is refused rather than guessed at. */
export function validatePersistedQuorumState(state: PersistedQuorumState): PersistedQuorumState {
  const { epoch, votedFor, leaderId, voterHistory } = state
  if (!Number.isSafeInteger(epoch) || epoch < 0) {
    throw new InvalidRequestError(`stored quorum state has an invalid epoch: ${String(epoch)}`)
  }
  for (const [field, id] of [
    ['votedFor', votedFor],
    ['leaderId', leaderId],
  ] as const) {
    if (id !== undefined && (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH)) {
      throw new InvalidRequestError(`stored quorum state has an invalid ${field}`)
    }
  }
  const out: PersistedQuorumState = { epoch }
  if (votedFor !== undefined) out.votedFor = votedFor
  if (leaderId !== undefined) out.leaderId = leaderId
  if (voterHistory !== undefined) out.voterHistory = validatePersistedVoterHistory(voterHistory)
  return out
}
