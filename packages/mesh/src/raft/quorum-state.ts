import type { PartitionLog } from '@tributary/log'
import { TributaryError } from '@tributary/wire'
import { CandidateState } from './candidate-state.js'
import { FollowerState } from './follower-state.js'
import { LeaderState } from './leader-state.js'
import { validatePersistedQuorumState } from './quorum-store.js'
import type { PersistedQuorumState, QuorumRules, QuorumStateStore, RaftClock, RaftConfig } from './types.js'
import { UnattachedState } from './unattached-state.js'

export type EpochState = UnattachedState | FollowerState | CandidateState | LeaderState

/** A transition that Raft forbids was attempted: a bug in the caller, never a network condition. */
export class IllegalRaftTransitionError extends TributaryError {
  static override name = 'IllegalRaftTransitionError'
  constructor(message: string) {
    super(message, { retriable: false })
  }
}

export interface QuorumStateInit {
  partition: string
  localId: string
  voters: readonly string[]
  observers: readonly string[]
  store: QuorumStateStore
  log: PartitionLog
  clock: RaftClock
  random: () => number
  config: RaftConfig
  rules: QuorumRules
}

/**
 * The one owner of a replica's role and epoch (KRaft's QuorumState). Every transition is
 * checked against Raft's rules, and the new epoch, vote and leader are saved to the store
 * *before* the new state takes effect — so a replica never acts on, or answers with, a term or
 * vote that a crash could make it forget.
 */
export class QuorumState {
  private current: EpochState | undefined

  constructor(private readonly init: QuorumStateInit) {}

  get state(): EpochState {
    if (this.current === undefined) throw new IllegalRaftTransitionError('quorum state is not initialized')
    return this.current
  }

  get epoch(): number {
    return this.state.epoch
  }

  get localIsVoter(): boolean {
    return this.init.voters.includes(this.init.localId)
  }

  isVoter(id: string): boolean {
    return this.init.voters.includes(id)
  }

  get voters(): readonly string[] {
    return this.init.voters
  }

  /** A fresh election deadline, drawn from [T, 2T) so that split votes resolve. */
  /**
   * How long a follower waits without a successful fetch before it stands: the fetch timeout
   * plus up to half of it again, drawn afresh each time. Followers that last heard from a
   * leader at the same moment would otherwise all stand at once and split the vote.
   */
  randomFetchTimeout(): number {
    const t = this.init.config.fetchTimeoutMs
    return t + Math.floor(this.init.random() * (t / 2))
  }

  randomElectionDeadline(): number {
    const t = this.init.config.electionTimeoutMs
    return this.init.clock.now() + t + Math.floor(this.init.random() * t)
  }

  /** Loads the persisted state (an epoch the log already holds wins over an older one). */
  async initialize(options: { signal?: AbortSignal } = {}): Promise<void> {
    const loaded = await this.init.store.load(options)
    const stored = loaded === undefined ? undefined : validatePersistedQuorumState(loaded)
    const logEpoch = this.init.log.latestEpoch()
    const { localId } = this.init
    if (stored === undefined || stored.epoch < logEpoch) {
      await this.persistThenSet(
        new UnattachedState(Math.max(0, logEpoch, stored?.epoch ?? 0), undefined, this.randomElectionDeadline()),
      )
    } else if (stored.leaderId !== undefined && stored.leaderId !== localId && this.isVoter(stored.leaderId)) {
      this.current = new FollowerState(
        stored.epoch,
        stored.leaderId,
        stored.votedFor,
        this.init.clock.now() + this.randomFetchTimeout(),
      )
    } else {
      // A leader that restarts does not lead again in its old epoch (KRaft's Resigned): it waits
      // as unattached, still bound by the vote it cast for itself.
      this.current = new UnattachedState(stored.epoch, stored.votedFor, this.randomElectionDeadline())
    }
  }

  /** Enters `epoch` (higher than the current one) knowing no leader, or having granted a vote. */
  async transitionToUnattached(epoch: number, votedFor?: string): Promise<void> {
    const s = this.state
    if (epoch > s.epoch) return this.persistThenSet(new UnattachedState(epoch, votedFor, this.randomElectionDeadline()))
    if (epoch < s.epoch) throw this.illegal(`unattached in epoch ${epoch}`)
    if (votedFor !== undefined) {
      if (s.role !== 'unattached' || (s.votedFor !== undefined && s.votedFor !== votedFor)) {
        throw this.illegal(`vote for ${votedFor} in epoch ${epoch}`)
      }
      if (s.votedFor === votedFor) return
      return this.persistThenSet(new UnattachedState(epoch, votedFor, this.randomElectionDeadline()))
    }
    // Same epoch, no new vote: a leader resigning, or an observer whose leader went quiet.
    if (s.role === 'leader' || (s.role === 'follower' && !this.localIsVoter)) {
      return this.persistThenSet(new UnattachedState(epoch, s.votedFor, this.randomElectionDeadline()))
    }
    throw this.illegal(`unattached in the same epoch ${epoch}`)
  }

  /** Follows `leaderId` in `epoch` (≥ the current one; the same epoch only if no leader was known). */
  async transitionToFollower(epoch: number, leaderId: string): Promise<void> {
    const s = this.state
    if (leaderId === this.init.localId || !this.isVoter(leaderId)) throw this.illegal(`follow ${leaderId}`)
    const now = this.init.clock.now()
    if (epoch > s.epoch) {
      return this.persistThenSet(new FollowerState(epoch, leaderId, undefined, now + this.randomFetchTimeout()))
    }
    if (epoch < s.epoch || s.role === 'leader' || s.role === 'follower') {
      throw this.illegal(`follow ${leaderId} in epoch ${epoch}`)
    }
    return this.persistThenSet(new FollowerState(epoch, leaderId, s.votedFor, now + this.randomFetchTimeout()))
  }

  /** Stands for election in the next epoch, having voted for itself. */
  async transitionToCandidate(): Promise<void> {
    const s = this.state
    if (!this.localIsVoter) throw this.illegal('candidate (observers never stand)')
    if (s.role === 'leader') throw this.illegal('candidate while leader')
    const { localId, voters } = this.init
    return this.persistThenSet(new CandidateState(s.epoch + 1, localId, voters, this.randomElectionDeadline()))
  }

  /** A candidate with a majority of votes leads its epoch. */
  async transitionToLeader(epochStartOffset: number): Promise<void> {
    const s = this.state
    if (s.role !== 'candidate' || !s.isVoteGranted()) throw this.illegal('leader without a majority of votes')
    const { localId, voters, observers, log, config, rules, clock } = this.init
    await this.persistThenSet(
      new LeaderState({
        epoch: s.epoch,
        localId,
        voters,
        observers,
        epochStartOffset,
        highWatermark: log.highWatermark,
        grantingVoters: s.grantingVoters(),
        now: clock.now(),
        checkIntervalMs: Math.max(1, Math.floor(config.electionTimeoutMs / 2)),
        rules,
      }),
    )
  }

  private async persistThenSet(next: EpochState): Promise<void> {
    const persisted: PersistedQuorumState = { epoch: next.epoch }
    if (next.votedFor !== undefined) persisted.votedFor = next.votedFor
    if (next.leaderId !== undefined) persisted.leaderId = next.leaderId
    await this.init.store.save(persisted)
    this.current = next
  }

  private illegal(what: string): IllegalRaftTransitionError {
    const s = this.current
    return new IllegalRaftTransitionError(
      `${this.init.partition}: cannot become ${what} from ${s?.role ?? 'uninitialized'} in epoch ${s?.epoch ?? -1}`,
    )
  }
}
